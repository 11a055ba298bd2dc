/*
 * worldgen.c — generates a square of chunks with mcserv's terrain generator
 * and reports the cost; optionally writes a top-down map (PPM or PNG, drawn
 * by world/maprender.h as the live map draws it) and a digest of every
 * section so two runs can be compared byte for byte.
 *
 *   build/worldgen [--seed N] [--type normal|flat] [--radius R] [--ppm FILE] [--png FILE]
 *                  [--digest]
 *
 * Per chunk it times generation alone and generation + light + encode +
 * compression (what a worker does), and reports encoded sizes and the memory
 * the chunk's sections hold.
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "data/biomes.h"
#include "data/blocks.h"
#include "proto/frame.h"
#include "world/maprender.h"
#include "world/terrain.h"

static size_t section_bytes(const section *s)
{
    size_t n = sizeof *s;
    if (s->bits) n += (4096 / (64 / s->bits) + 1) * 8;
    if (s->palette) n += 256 * 2;
    return n;
}

int main(int argc, char **argv)
{
    long long seed = 12345;
    int radius = 8;
    const char *ppm = NULL, *png = NULL, *type = "normal";
    int digest = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--radius") && i + 1 < argc)
            radius = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ppm") && i + 1 < argc)
            ppm = argv[++i];
        else if (!strcmp(argv[i], "--png") && i + 1 < argc)
            png = argv[++i];
        else if (!strcmp(argv[i], "--type") && i + 1 < argc)
            type = argv[++i];
        else if (!strcmp(argv[i], "--digest"))
            digest = 1;
        else {
            fprintf(stderr, "usage: worldgen [--seed N] [--type normal|flat] [--radius R] [--ppm "
                            "FILE] [--png FILE] [--digest]\n");
            return 2;
        }
    }
    terrain t;
    char err[256];
    if (terrain_init(&t, strcmp(type, "flat") ? LEVEL_NORMAL : LEVEL_FLAT, seed, "", err,
                     sizeof err) < 0) {
        fprintf(stderr, "worldgen: %s\n", err);
        return 1;
    }
    int side = 2 * radius;
    size_t width = (size_t)side * 16;
    /* Colours and heights of every column, shaded once all are known. */
    uint32_t *rgb = ppm || png ? calloc(width * width, sizeof *rgb) : NULL;
    int16_t *height = rgb ? calloc(width * width, sizeof *height) : NULL;
    uint8_t *water = rgb ? calloc(width * width, 1) : NULL;
    static map_chunk mc;
    struct libdeflate_compressor *comp = libdeflate_alloc_compressor(6);
    buf_t raw, framed;
    buf_init(&raw, 0);
    buf_init(&framed, 0);
    int64_t gen_ns = 0, enc_ns = 0;
    size_t raw_total = 0, z_total = 0, mem_total = 0, n = 0;
    uint64_t hash = 1469598103934665603ULL;
    for (int cz = -radius; cz < radius; cz++)
        for (int cx = -radius; cx < radius; cx++) {
            chunk c;
            chunk_init(&c, cx, cz, BLOCK_AIR, BIOME_PLAINS);
            int64_t t0 = clock_ns();
            terrain_generate(&t, &c);
            int64_t t1 = clock_ns();
            buf_reset(&raw);
            buf_reset(&framed);
            chunk_encode_packet(&c, &raw);
            frame_encode(&framed, raw.data, raw.len, 256, comp);
            int64_t t2 = clock_ns();
            gen_ns += t1 - t0;
            enc_ns += t2 - t1;
            raw_total += raw.len;
            z_total += framed.len;
            for (int s = 0; s < CHUNK_SECTIONS; s++) mem_total += section_bytes(&c.sections[s]);
            n++;
            if (digest) {
                buf_t sec;
                buf_init(&sec, 0);
                for (int s = 0; s < CHUNK_SECTIONS; s++) section_encode(&c.sections[s], &sec);
                for (size_t k = 0; k < sec.len; k++) hash = (hash ^ sec.data[k]) * 1099511628211ULL;
                buf_free(&sec);
            }
            if (height) {
                maprender_chunk(&c, &mc);
                for (int z = 0; z < 16; z++)
                    for (int x = 0; x < 16; x++) {
                        size_t px = (size_t)((cz + radius) * 16 + z) * width +
                                    (size_t)((cx + radius) * 16 + x);
                        rgb[px] = mc.rgb[z * 16 + x];
                        height[px] = mc.height[z * 16 + x];
                        water[px] = mc.water[z * 16 + x];
                    }
            }
            chunk_free(&c);
        }
    printf("chunks %zu (seed %lld, %s)\n", n, seed, type);
    printf("generate: %.3f ms CPU per chunk\n", gen_ns / 1e6 / (double)n);
    printf("light + encode + compress: %.3f ms per chunk\n", enc_ns / 1e6 / (double)n);
    printf("encoded: %.0f bytes raw, %.0f bytes compressed (threshold 256, level 6) per chunk\n",
           (double)raw_total / (double)n, (double)z_total / (double)n);
    printf("memory: %.0f bytes of sections per chunk\n", (double)mem_total / (double)n);
    if (digest) printf("digest: %016llx\n", (unsigned long long)hash);
    if (height && water) {
        uint8_t *img = malloc(width * width * 4);
        for (size_t i = 0; img && i < width * width; i++) {
            int hn = i >= width ? height[i - width] : MAPRENDER_NO_HEIGHT;
            uint32_t v = maprender_shade(rgb[i], height[i], hn, water[i] > 0);
            img[i * 4] = (uint8_t)(v >> 16), img[i * 4 + 1] = (uint8_t)(v >> 8);
            img[i * 4 + 2] = (uint8_t)v, img[i * 4 + 3] = v ? 255 : 0;
        }
        if (img && ppm) {
            FILE *f = fopen(ppm, "wb");
            if (!f) {
                perror(ppm);
                return 1;
            }
            fprintf(f, "P6 %zu %zu 255\n", width, width);
            for (size_t i = 0; i < width * width; i++) fwrite(img + i * 4, 1, 3, f);
            fclose(f);
        }
        if (img && png) {
            buf_t out;
            buf_init(&out, 0);
            FILE *f = fopen(png, "wb");
            if (!f || maprender_png_encode(img, (int)width, (int)width, &out) < 0) {
                perror(png);
                return 1;
            }
            fwrite(out.data, 1, out.len, f);
            fclose(f);
            buf_free(&out);
        }
        free(img);
    }
    free(rgb);
    free(height);
    free(water);
    return 0;
}
