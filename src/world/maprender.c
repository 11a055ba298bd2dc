/*
 * maprender.c — see maprender.h. Colours blend front to back: `cover` is
 * how much of the pixel the blocks so far hide (0..1); each block adds its
 * colour times its alpha times what is still uncovered.
 */
#include "world/maprender.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/map_colors.h"

uint32_t maprender_state_argb(uint16_t state)
{
    if (state >= BLOCK_STATE_COUNT) return 0;
    uint16_t id = block_of_state[state];
    return id < BLOCK_MAP_COUNT ? block_map_argb[id] : 0;
}

/* Water and what only grows in it count as one water layer. */
static bool is_water(uint16_t s)
{
    if (s >= BLOCK_STATE_COUNT) return false;
    uint16_t b = block_of_state[s];
    return b == block_of_state[BLOCK_WATER] || b == block_of_state[BLOCK_SEAGRASS] ||
           b == block_of_state[BLOCK_TALL_SEAGRASS] || b == block_of_state[BLOCK_KELP] ||
           b == block_of_state[BLOCK_KELP_PLANT] || b == block_of_state[BLOCK_BUBBLE_COLUMN];
}

static uint32_t water_rgb(void)
{
    return block_map_argb[block_of_state[BLOCK_WATER]] & 0xffffff;
}

/* Adds rgb at weight w (0..1) to the accumulators. */
static void blend(float acc[3], uint32_t rgb, float w)
{
    acc[0] += w * (float)((rgb >> 16) & 255);
    acc[1] += w * (float)((rgb >> 8) & 255);
    acc[2] += w * (float)(rgb & 255);
}

static uint32_t pack(const float acc[3], float cover)
{
    if (cover <= 0) return 0;
    uint32_t out = 0;
    for (int i = 0; i < 3; i++) {
        float v = acc[i] / cover;
        int k = v < 0 ? 0 : v > 255 ? 255 : (int)(v + 0.5f);
        out = out << 8 | (uint32_t)k;
    }
    return out ? out : 0x010101; /* black stays visible: 0 means nothing */
}

static void column(const chunk *c, int x, int z, map_chunk *out)
{
    int i = z * 16 + x;
    int y = chunk_column_top(c, x, z);
    out->rgb[i] = 0;
    out->height[i] = MAPRENDER_NO_HEIGHT;
    out->water[i] = 0;
    float acc[3] = {0, 0, 0}, cover = 0;
    int layers = 0;
    while (y >= CHUNK_MIN_Y && layers < MAPRENDER_LAYERS && cover < 0.98f) {
        uint16_t s = chunk_get_block(c, x, y, z);
        if (is_water(s)) {
            int depth = 0;
            while (y >= CHUNK_MIN_Y && is_water(chunk_get_block(c, x, y, z))) depth++, y--;
            /* Clear over the first blocks, deep blue below: alpha 0.55 + 0.1 per block. */
            float a = 0.55f + 0.1f * (float)depth;
            if (a > 1) a = 1;
            float dark = 1.0f - 0.04f * (float)(depth > 10 ? 10 : depth);
            uint32_t w = water_rgb();
            uint32_t shaded = (uint32_t)((float)((w >> 16) & 255) * dark) << 16 |
                              (uint32_t)((float)((w >> 8) & 255) * dark) << 8 |
                              (uint32_t)((float)(w & 255) * dark);
            blend(acc, shaded, a * (1 - cover));
            cover += a * (1 - cover);
            if (out->height[i] == MAPRENDER_NO_HEIGHT) out->height[i] = (int16_t)(y + depth);
            out->water[i] = (uint8_t)(depth > 255 ? 255 : depth);
            layers++;
            continue;
        }
        uint32_t argb = maprender_state_argb(s);
        float a = (float)(argb >> 24) / 255.0f;
        if (a > 0) {
            blend(acc, argb & 0xffffff, a * (1 - cover));
            cover += a * (1 - cover);
            if (out->height[i] == MAPRENDER_NO_HEIGHT && a >= 0.5f) out->height[i] = (int16_t)y;
            layers++;
        }
        y--;
    }
    if (cover <= 0) return;
    if (out->height[i] == MAPRENDER_NO_HEIGHT) out->height[i] = (int16_t)(y + 1);
    /* What is left uncovered is as dark as the bottom of the world. */
    out->rgb[i] = pack(acc, cover < 0.5f ? 0.5f : cover);
}

void maprender_chunk(const chunk *c, map_chunk *out)
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) column(c, x, z, out);
}

void maprender_empty(map_chunk *out)
{
    memset(out->rgb, 0, sizeof out->rgb);
    for (int i = 0; i < 256; i++) out->height[i] = MAPRENDER_NO_HEIGHT;
    memset(out->water, 0, sizeof out->water);
}

uint32_t maprender_shade(uint32_t rgb, int h, int hn, bool water)
{
    if (!rgb || water || hn == MAPRENDER_NO_HEIGHT || h == MAPRENDER_NO_HEIGHT) return rgb;
    /* vanilla's map brightness steps: 255 (higher), 220 (level), 180 (lower) of 255 */
    int num = h > hn ? 255 : h == hn ? 220 : 180;
    uint32_t out = 0;
    for (int shift = 16; shift >= 0; shift -= 8) {
        uint32_t v = ((rgb >> shift) & 255) * (uint32_t)num / 220;
        out |= (v > 255 ? 255 : v) << shift;
    }
    return out ? out : 0x010101;
}

int maprender_png_encode(const uint8_t *rgba, int w, int h, buf_t *out)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&img, NULL, &size, 0, rgba, 0, NULL) || !size) return -1;
    if (!buf_reserve(out, size)) return -1;
    if (!png_image_write_to_memory(&img, out->data + out->len, &size, 0, rgba, 0, NULL)) {
        png_image_free(&img);
        return -1;
    }
    out->len += size;
    return 0;
}

int maprender_png_decode(const uint8_t *png, size_t len, uint8_t *rgba, int w, int h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, png, len)) return -1;
    if (img.width != (png_uint_32)w || img.height != (png_uint_32)h) {
        png_image_free(&img);
        return -1;
    }
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_finish_read(&img, NULL, rgba, 0, NULL)) {
        png_image_free(&img);
        return -1;
    }
    return 0;
}
