/* test_light.c — sky and block light propagation within a column, and its wire form. */
#include <stdlib.h>

#include "data/biomes.h"
#include "data/blocks.h"
#include "proto/wire.h"
#include "test.h"
#include "world/light.h"
#include "world/terrain.h"

static int idx(int x, int y, int z)
{
    return (y - CHUNK_MIN_Y) << 8 | z << 4 | x;
}

/* A column of stone from -64 to 0 with nothing above. */
static void stone_floor(chunk *c)
{
    chunk_init(c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
    for (int y = -64; y <= 0; y++)
        for (int z = 0; z < 16; z++)
            for (int x = 0; x < 16; x++) chunk_set_block(c, x, y, z, BLOCK_STONE);
}

TEST(light_open_sky_and_solid_ground)
{
    chunk c;
    stone_floor(&c);
    chunk_light *l = malloc(sizeof *l);
    light_compute(&c, l);
    CHECK_EQ_INT(l->sky[idx(5, 1, 5)], 15);
    CHECK_EQ_INT(l->sky[idx(5, 200, 5)], 15);
    CHECK_EQ_INT(l->sky[idx(5, 0, 5)], 0);
    CHECK_EQ_INT(l->sky[idx(5, -30, 5)], 0);
    CHECK_EQ_INT(l->block[idx(5, 1, 5)], 0);
    free(l);
    chunk_free(&c);
}

TEST(light_torch_in_a_closed_room)
{
    chunk c;
    stone_floor(&c);
    /* A 3×3×3 room at y -10..-8 around (8, -9, 8), closed on every side. */
    for (int y = -10; y <= -8; y++)
        for (int z = 7; z <= 9; z++)
            for (int x = 7; x <= 9; x++) chunk_set_block(&c, x, y, z, BLOCK_AIR);
    chunk_set_block(&c, 8, -10, 8, BLOCK_TORCH);
    chunk_light *l = malloc(sizeof *l);
    light_compute(&c, l);
    CHECK_EQ_INT(l->block[idx(8, -10, 8)], 14);
    CHECK_EQ_INT(l->block[idx(8, -9, 8)], 13);
    CHECK_EQ_INT(l->block[idx(9, -8, 9)], 10); /* three steps away */
    CHECK_EQ_INT(l->block[idx(8, -11, 8)], 0); /* stone stops light */
    CHECK_EQ_INT(l->block[idx(10, -9, 8)], 0);
    CHECK_EQ_INT(l->sky[idx(8, -9, 8)], 0); /* no way in for the sky */
    free(l);
    chunk_free(&c);
}

TEST(light_sky_under_an_overhang)
{
    chunk c;
    stone_floor(&c);
    /* A roof at y=5 over x 0..7; open sky for x >= 8. */
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 8; x++) chunk_set_block(&c, x, 5, z, BLOCK_STONE);
    chunk_light *l = malloc(sizeof *l);
    light_compute(&c, l);
    CHECK_EQ_INT(l->sky[idx(8, 1, 8)], 15);
    CHECK_EQ_INT(l->sky[idx(7, 1, 8)], 14); /* one step under the roof */
    CHECK_EQ_INT(l->sky[idx(4, 1, 8)], 11);
    CHECK_EQ_INT(l->sky[idx(4, 6, 8)], 15); /* on top of the roof */
    free(l);
    chunk_free(&c);
}

TEST(light_leaves_and_water_filter_one)
{
    chunk c;
    stone_floor(&c);
    for (int y = 1; y <= 3; y++) chunk_set_block(&c, 3, y, 3, BLOCK_WATER);
    chunk_light *l = malloc(sizeof *l);
    light_compute(&c, l);
    /* Straight down through water loses 1 per block; sideways air fills back in. */
    CHECK(l->sky[idx(3, 1, 3)] >= 12 && l->sky[idx(3, 1, 3)] <= 14);
    free(l);
    chunk_free(&c);
}

TEST(light_wire_masks)
{
    chunk c;
    stone_floor(&c);
    chunk_set_block(&c, 1, -20, 1, BLOCK_GLOWSTONE);
    chunk_light *l = malloc(sizeof *l);
    light_compute(&c, l);
    buf_t b;
    buf_init(&b, 0);
    light_write(l, &b);
    rd_t r = rd_make(b.data, b.len);
    CHECK_EQ_INT(rd_varint(&r), 1);
    int64_t sky = rd_i64(&r);
    CHECK_EQ_INT(rd_varint(&r), 1);
    int64_t blk = rd_i64(&r);
    CHECK_EQ_INT(rd_varint(&r), 1);
    int64_t empty_sky = rd_i64(&r);
    CHECK_EQ_INT(rd_varint(&r), 1);
    int64_t empty_blk = rd_i64(&r);
    /* Sections (light index = section + 1): 0..3 stone are dark, 4 holds the
     * surface (y 0 stone, 1..15 air: needs an array), 5.. are open sky: left out. */
    CHECK_EQ_INT(sky, 1 << 5);
    CHECK_EQ_INT(empty_sky, 0x1F);
    /* The glowstone at y -20 is in section 2 (y -32..-17): light index 3. */
    CHECK_EQ_INT(blk, 1 << 3);
    CHECK_EQ_INT(empty_blk, ((1 << 26) - 1) & ~(1 << 3));
    CHECK_EQ_INT(rd_varint(&r), 1);
    CHECK_EQ_INT(rd_varint(&r), 2048);
    rd_skip(&r, 2048);
    CHECK_EQ_INT(rd_varint(&r), 1);
    CHECK_EQ_INT(rd_varint(&r), 2048);
    const uint8_t *nib = rd_bytes(&r, 2048);
    int i = ((-20 + 32) << 8) | 1 << 4 | 1; /* inside section 2 */
    CHECK_EQ_INT(nib ? (nib[i >> 1] >> ((i & 1) * 4)) & 15 : -1, 15);
    CHECK_EQ_INT(rd_left(&r), 0);
    buf_free(&b);
    free(l);
    chunk_free(&c);
}
