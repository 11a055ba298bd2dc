/*
 * test_maprender.c — the live map's drawing (world/maprender.h): a column
 * takes its top block's colour, translucent blocks blend with the block
 * below, water darkens with depth, relief shading follows vanilla's three
 * steps, and tiles survive a PNG round trip.
 */
#include <stdlib.h>
#include <string.h>

#include "data/biomes.h"
#include "data/blocks.h"
#include "test.h"
#include "world/maprender.h"

static uint32_t rgb_of(uint16_t state)
{
    return maprender_state_argb(state) & 0xffffff;
}

TEST(maprender_top_block_colour_and_height)
{
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
    for (int x = 0; x < 16; x++)
        for (int z = 0; z < 16; z++) {
            chunk_set_block(&c, x, -64, z, BLOCK_BEDROCK);
            chunk_set_block(&c, x, -63, z, BLOCK_GRASS_BLOCK);
        }
    chunk_set_block(&c, 5, -62, 7, BLOCK_RED_WOOL);
    static map_chunk mc;
    maprender_chunk(&c, &mc);
    CHECK_EQ_INT(mc.rgb[0], rgb_of(BLOCK_GRASS_BLOCK));
    CHECK_EQ_INT(mc.height[0], -63);
    CHECK_EQ_INT(mc.water[0], 0);
    CHECK_EQ_INT(mc.rgb[7 * 16 + 5], rgb_of(BLOCK_RED_WOOL));
    CHECK_EQ_INT(mc.height[7 * 16 + 5], -62);
    /* The generated table: grass is green, red wool red, air and barriers invisible. */
    uint32_t g = rgb_of(BLOCK_GRASS_BLOCK), r = rgb_of(BLOCK_RED_WOOL);
    CHECK(((g >> 8) & 255) > (g >> 16) && ((g >> 8) & 255) > (g & 255));
    CHECK((r >> 16) > ((r >> 8) & 255) + 40);
    CHECK_EQ_INT(maprender_state_argb(BLOCK_AIR), 0);
    CHECK_EQ_INT(maprender_state_argb(BLOCK_BARRIER) >> 24, 0);
    chunk_free(&c);
}

TEST(maprender_blends_translucent_blocks_and_tints_water_by_depth)
{
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
    /* column 0: glass over sand; column 1: 1 water over sand; column 2: 12 water over sand */
    for (int x = 0; x < 3; x++) chunk_set_block(&c, x, 0, 0, BLOCK_SAND);
    chunk_set_block(&c, 0, 1, 0, BLOCK_GLASS);
    chunk_set_block(&c, 1, 1, 0, BLOCK_WATER);
    for (int y = 1; y <= 12; y++) chunk_set_block(&c, 2, y, 0, BLOCK_WATER);
    static map_chunk mc;
    maprender_chunk(&c, &mc);
    /* glass lets the sand show: between the two colours, not either */
    CHECK(mc.rgb[0] != rgb_of(BLOCK_SAND) && mc.rgb[0] != rgb_of(BLOCK_GLASS));
    CHECK_EQ_INT(mc.height[0], 0); /* glass covers less than half: the sand is the surface */
    CHECK_EQ_INT(mc.water[1], 1);
    CHECK_EQ_INT(mc.water[2], 12);
    CHECK_EQ_INT(mc.height[2], 12);
    /* deep water is darker than shallow water */
    uint32_t a = mc.rgb[1], b = mc.rgb[2];
    CHECK(((a >> 16) & 255) + ((a >> 8) & 255) + (a & 255) >
          ((b >> 16) & 255) + ((b >> 8) & 255) + (b & 255));
    /* and an empty column is nothing */
    CHECK_EQ_INT(mc.rgb[3], 0);
    CHECK_EQ_INT(mc.height[3], MAPRENDER_NO_HEIGHT);
    chunk_free(&c);
}

TEST(maprender_relief_shading_is_vanillas_three_steps)
{
    uint32_t c = 0x6e6e6e;                                               /* 110 each */
    CHECK_EQ_INT(maprender_shade(c, 64, 64, false), c);                  /* level: 220/220 */
    CHECK_EQ_INT(maprender_shade(c, 65, 64, false), 0x7f7f7f);           /* higher: 255/220 */
    CHECK_EQ_INT(maprender_shade(c, 63, 64, false), 0x5a5a5a);           /* lower: 180/220 */
    CHECK_EQ_INT(maprender_shade(c, 63, 64, true), c);                   /* water: flat */
    CHECK_EQ_INT(maprender_shade(c, 63, MAPRENDER_NO_HEIGHT, false), c); /* no neighbour */
    CHECK_EQ_INT(maprender_shade(0, 63, 64, false), 0);                  /* nothing stays nothing */
}

TEST(maprender_png_round_trip)
{
    int w = 256, h = 256;
    uint8_t *in = malloc((size_t)w * h * 4), *out = malloc((size_t)w * h * 4);
    for (int i = 0; i < w * h; i++) {
        in[i * 4] = (uint8_t)i, in[i * 4 + 1] = (uint8_t)(i >> 8), in[i * 4 + 2] = (uint8_t)(i * 7);
        in[i * 4 + 3] = i % 3 ? 255 : 0;
        if (!in[i * 4 + 3]) in[i * 4] = in[i * 4 + 1] = in[i * 4 + 2] = 0;
    }
    buf_t png;
    buf_init(&png, 0);
    CHECK_EQ_INT(maprender_png_encode(in, w, h, &png), 0);
    CHECK(png.len > 8 && memcmp(png.data, "\x89PNG", 4) == 0);
    CHECK_EQ_INT(maprender_png_decode(png.data, png.len, out, w, h), 0);
    CHECK(memcmp(in, out, (size_t)w * h * 4) == 0);
    /* the wrong size, or not a PNG, is refused */
    CHECK_EQ_INT(maprender_png_decode(png.data, png.len, out, 128, 128), -1);
    CHECK_EQ_INT(maprender_png_decode((const uint8_t *)"not a png", 9, out, w, h), -1);
    buf_free(&png);
    free(in);
    free(out);
}
