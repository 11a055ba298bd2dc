/*
 * test_world.c — palette shrink, heightmaps, the nearest-first chunk order,
 * and generator determinism.
 */
#include <stdlib.h>

#include "data/biomes.h"
#include "data/blocks.h"
#include "test.h"
#include "world/spiral.h"
#include "world/terrain.h"

TEST(palette_grows_then_compacts_back)
{
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_STONE, BIOME_PLAINS);
    section *s = &c.sections[4];
    /* 300 distinct states force the direct (15-bit) layout... */
    for (int i = 0; i < 300; i++)
        chunk_set_block(&c, i & 15, -64 + 64 + (i >> 8), (i >> 4) & 15, (uint16_t)(1000 + i));
    CHECK_EQ_INT(s->bits, 15);
    /* ...then all but two go back to stone: compaction drops to the smallest layout. */
    for (int i = 2; i < 300; i++) chunk_set_block(&c, i & 15, (i >> 8), (i >> 4) & 15, BLOCK_STONE);
    CHECK_EQ_INT(s->bits, 15);
    CHECK_EQ_INT(section_compact(s), 0);
    CHECK_EQ_INT(s->bits, 4);
    CHECK_EQ_INT(s->palette_len, 3);
    CHECK_EQ_INT(chunk_get_block(&c, 0, 0, 0), 1000);
    CHECK_EQ_INT(chunk_get_block(&c, 1, 0, 0), 1001);
    CHECK_EQ_INT(chunk_get_block(&c, 2, 0, 0), BLOCK_STONE);
    CHECK_EQ_INT(s->non_air, 4096);
    /* All one state again: back to a single value with no data at all. */
    chunk_set_block(&c, 0, 0, 0, BLOCK_STONE);
    chunk_set_block(&c, 1, 0, 0, BLOCK_STONE);
    CHECK_EQ_INT(section_compact(s), 0);
    CHECK_EQ_INT(s->bits, 0);
    CHECK(s->data == NULL && s->palette == NULL);
    CHECK_EQ_INT(s->single, BLOCK_STONE);
    chunk_free(&c);
}

TEST(section_fill_picks_the_smallest_layout)
{
    section s;
    memset(&s, 0, sizeof s);
    uint16_t *st = malloc(4096 * sizeof *st);
    for (int i = 0; i < 4096; i++) st[i] = BLOCK_AIR;
    CHECK_EQ_INT(section_fill(&s, st), 0);
    CHECK_EQ_INT(s.bits, 0);
    CHECK_EQ_INT(s.non_air, 0);
    for (int i = 0; i < 17; i++) st[i] = (uint16_t)(i + 1);
    CHECK_EQ_INT(section_fill(&s, st), 0);
    CHECK_EQ_INT(s.bits, 5); /* 18 states: more than 16 */
    CHECK_EQ_INT(s.non_air, 17);
    for (int i = 0; i < 4096; i++) st[i] = (uint16_t)(i % 400 + 1);
    CHECK_EQ_INT(section_fill(&s, st), 0);
    CHECK_EQ_INT(s.bits, 15);
    free(s.palette);
    free(s.data);
    free(st);
}

TEST(heightmaps_surface_and_motion_blocking)
{
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) chunk_set_block(&c, x, 10, z, BLOCK_STONE);
    chunk_set_block(&c, 3, 11, 4, BLOCK_GRASS); /* short grass: surface, not motion blocking */
    chunk_set_block(&c, 5, 20, 5, BLOCK_WATER); /* fluid: both */
    int surface[256], motion[256];
    chunk_heightmaps(&c, surface, motion);
    CHECK_EQ_INT(surface[0], 10);
    CHECK_EQ_INT(motion[0], 10);
    CHECK_EQ_INT(surface[4 * 16 + 3], 11);
    CHECK_EQ_INT(motion[4 * 16 + 3], 10);
    CHECK_EQ_INT(surface[5 * 16 + 5], 20);
    CHECK_EQ_INT(motion[5 * 16 + 5], 20);
    chunk_free(&c);
}

TEST(spiral_is_nearest_first_and_covers_each_square_once)
{
    const struct chunk_offset *sp = spiral_offsets();
    for (int i = 1; i < SPIRAL_SIDE * SPIRAL_SIDE; i++) {
        int a = sp[i - 1].dx * sp[i - 1].dx + sp[i - 1].dz * sp[i - 1].dz;
        int b = sp[i].dx * sp[i].dx + sp[i].dz * sp[i].dz;
        if (a > b) {
            CHECK(a <= b);
            break;
        }
    }
    CHECK(sp[0].dx == 0 && sp[0].dz == 0);
    for (int r = 0; r <= 12; r++) {
        static unsigned char seen[SPIRAL_SIDE][SPIRAL_SIDE];
        memset(seen, 0, sizeof seen);
        int count = 0;
        for (int i = 0; i < spiral_end(r); i++) {
            if (abs(sp[i].dx) > r || abs(sp[i].dz) > r) continue;
            seen[sp[i].dx + SPIRAL_MAX][sp[i].dz + SPIRAL_MAX]++;
            count++;
        }
        CHECK_EQ_INT(count, (2 * r + 1) * (2 * r + 1));
        for (int x = -r; x <= r; x++)
            for (int z = -r; z <= r; z++) CHECK_EQ_INT(seen[x + SPIRAL_MAX][z + SPIRAL_MAX], 1);
    }
    /* The first nine are the 3×3 around the player. */
    for (int i = 0; i < 9; i++) CHECK(abs(sp[i].dx) <= 1 && abs(sp[i].dz) <= 1);
}

static uint64_t digest_chunk(const terrain *t, int32_t x, int32_t z)
{
    chunk c;
    chunk_init(&c, x, z, BLOCK_AIR, BIOME_PLAINS);
    terrain_generate(t, &c);
    buf_t b;
    buf_init(&b, 0);
    for (int s = 0; s < CHUNK_SECTIONS; s++) section_encode(&c.sections[s], &b);
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < b.len; i++) h = (h ^ b.data[i]) * 1099511628211ULL;
    buf_free(&b);
    chunk_free(&c);
    return h;
}

TEST(normal_terrain_is_deterministic)
{
    char err[128];
    terrain a, b, other;
    CHECK_EQ_INT(terrain_init(&a, LEVEL_NORMAL, 42, "", err, sizeof err), 0);
    CHECK_EQ_INT(terrain_init(&b, LEVEL_NORMAL, 42, "", err, sizeof err), 0);
    CHECK_EQ_INT(terrain_init(&other, LEVEL_NORMAL, 43, "", err, sizeof err), 0);
    int differ = 0;
    for (int x = -2; x <= 2; x++)
        for (int z = -2; z <= 2; z++) {
            CHECK(digest_chunk(&a, x, z) == digest_chunk(&b, x, z));
            differ += digest_chunk(&a, x, z) != digest_chunk(&other, x, z);
        }
    CHECK(differ > 0);
}

TEST(normal_terrain_has_bedrock_floor_and_sea)
{
    char err[128];
    terrain t;
    terrain_init(&t, LEVEL_NORMAL, 7, "", err, sizeof err);
    /* 16 columns 128 blocks apart: each is either sea (water up to sea level,
     * ice on a frozen ocean, nothing above) or land (something at sea level or
     * higher, no water below it), and seed 7
     * has both among them (6 sea, 10 land today; a terrain change may move
     * that, not remove either). */
    int water = 0, land = 0;
    for (int x = -8; x < 8; x++) {
        chunk c;
        chunk_init(&c, x * 8, 0, BLOCK_AIR, BIOME_PLAINS);
        terrain_generate(&t, &c);
        for (int z = 0; z < 16; z++) CHECK_EQ_INT(chunk_get_block(&c, 0, -64, z), BLOCK_BEDROCK);
        uint16_t at = chunk_get_block(&c, 8, SEA_LEVEL - 1, 8);
        bool sea = at == BLOCK_WATER || at == BLOCK_ICE;
        bool high = chunk_column_top(&c, 8, 8) >= SEA_LEVEL;
        CHECK(sea != high); /* sea columns end at sea level, land ones have no water there */
        water += sea;
        land += high;
        chunk_free(&c);
    }
    CHECK(water >= 1);
    CHECK(land >= 1);
}

TEST(flat_generator_settings_layers)
{
    char err[256];
    terrain t;
    CHECK_EQ_INT(terrain_init(&t, LEVEL_FLAT, 0,
                              "{\"layers\":[{\"block\":\"minecraft:bedrock\",\"height\":1},"
                              "{\"block\":\"stone\",\"height\":3}],\"biome\":\"minecraft:desert\"}",
                              err, sizeof err),
                 0);
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
    terrain_generate(&t, &c);
    CHECK_EQ_INT(chunk_get_block(&c, 0, -64, 0), BLOCK_BEDROCK);
    CHECK_EQ_INT(chunk_get_block(&c, 0, -61, 0), BLOCK_STONE);
    CHECK_EQ_INT(chunk_get_block(&c, 0, -60, 0), BLOCK_AIR);
    CHECK_EQ_INT(c.sections[0].biomes[0], BIOME_DESERT);
    CHECK_EQ_INT(terrain_surface_y(&t, 0, 0), -61);
    chunk_free(&c);
    CHECK(terrain_init(&t, LEVEL_FLAT, 0, "{\"layers\":[{\"block\":\"nope\",\"height\":1}]}", err,
                       sizeof err) < 0);
    CHECK(strstr(err, "nope") != NULL);
    CHECK(terrain_init(&t, LEVEL_FLAT, 0, "not json", err, sizeof err) < 0);
}
