/*
 * test_light.c — sky and block light: within a column, across chunk borders
 * (a 3×3 grid of columns lit through light_view, against a plain flood fill
 * over the whole grid), and the wire form.
 */
#include <stdlib.h>

#include "data/biomes.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "proto/wire.h"
#include "test.h"
#include "core/config.h"
#include "world/light.h"
#include "world/terrain.h"
#include "world/world.h"

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

/* ------------------------------------------------------------ across columns */

/* A 3×3 grid of columns, chunk coordinates -1..1; NULL: not loaded. */
struct grid {
    chunk c[9];
    bool loaded[9];
};

static void grid_init(struct grid *g, int floor_top)
{
    for (int k = 0; k < 9; k++) {
        chunk_init(&g->c[k], k % 3 - 1, k / 3 - 1, BLOCK_AIR, BIOME_PLAINS);
        g->loaded[k] = true;
        for (int y = -64; y <= floor_top; y++)
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) chunk_set_block(&g->c[k], x, y, z, BLOCK_STONE);
    }
}

static void grid_free(struct grid *g)
{
    for (int k = 0; k < 9; k++) chunk_free(&g->c[k]);
}

/* World x, z in -16..31. */
static void gset(struct grid *g, int x, int y, int z, uint16_t st)
{
    chunk_set_block(&g->c[((z >> 4) + 1) * 3 + (x >> 4) + 1], x & 15, y, z & 15, st);
}

/* The light of grid column (cx, cz) lit with its neighbours in the grid. */
static chunk_light *grid_light(const struct grid *g, int cx, int cz)
{
    light_view v = {{NULL}};
    for (int k = 0; k < 9; k++) {
        int x = cx + k % 3 - 1, z = cz + k / 3 - 1;
        if (x < -1 || x > 1 || z < -1 || z > 1) continue;
        int gi = (z + 1) * 3 + x + 1;
        if (g->loaded[gi]) v.c[k] = &g->c[gi];
    }
    chunk_light *l = malloc(sizeof *l);
    CHECK(light_compute_view(&v, l) == 0);
    return l;
}

/* Light at world (x, y, z) from the light of the column holding it. */
static int at(const uint8_t *lvl, int x, int y, int z)
{
    return lvl[idx(x & 15, y, z & 15)];
}

TEST(light_corner_source_lights_the_three_neighbours)
{
    static struct grid g;
    grid_init(&g, 0);
    /* A closed pocket of air around the corner of column 0,0 where it
     * meets 1,0, 0,1 and 1,1: x, z 12..19, y -12..-8. */
    for (int y = -12; y <= -8; y++)
        for (int z = 12; z <= 19; z++)
            for (int x = 12; x <= 19; x++) gset(&g, x, y, z, BLOCK_AIR);
    gset(&g, 15, -10, 15, BLOCK_GLOWSTONE);
    chunk_light *c00 = grid_light(&g, 0, 0), *c10 = grid_light(&g, 1, 0);
    chunk_light *c01 = grid_light(&g, 0, 1), *c11 = grid_light(&g, 1, 1);
    CHECK_EQ_INT(at(c00->block, 15, -10, 15), 15);
    CHECK_EQ_INT(at(c10->block, 16, -10, 15), 14); /* east, one step */
    CHECK_EQ_INT(at(c01->block, 15, -10, 16), 14); /* south */
    CHECK_EQ_INT(at(c11->block, 16, -10, 16), 13); /* diagonal: two steps */
    CHECK_EQ_INT(at(c10->block, 19, -10, 15), 11);
    CHECK_EQ_INT(at(c11->block, 19, -8, 19), 5);  /* 4 + 2 + 4 steps */
    CHECK_EQ_INT(at(c10->block, 20, -10, 15), 0); /* stone around the pocket */
    CHECK_EQ_INT(at(c11->sky, 16, -10, 16), 0);   /* closed: no sky */
    /* Alone, the east column gets nothing from its neighbour. */
    chunk_light *alone = malloc(sizeof *alone);
    light_compute(&g.c[1 * 3 + 2], alone);
    CHECK_EQ_INT(at(alone->block, 16, -10, 15), 0);
    /* An unloaded neighbour contributes nothing: 0,0 not loaded. */
    g.loaded[1 * 3 + 1] = false;
    chunk_light *c10b = grid_light(&g, 1, 0);
    CHECK_EQ_INT(at(c10b->block, 16, -10, 15), 0);
    free(c00);
    free(c10);
    free(c01);
    free(c11);
    free(alone);
    free(c10b);
    grid_free(&g);
}

TEST(light_opaque_wall_at_the_border_stops_it)
{
    static struct grid g;
    grid_init(&g, 0);
    for (int y = -12; y <= -8; y++)
        for (int z = 4; z <= 11; z++)
            for (int x = 12; x <= 19; x++) gset(&g, x, y, z, BLOCK_AIR);
    gset(&g, 15, -10, 8, BLOCK_TORCH);
    chunk_light *e = grid_light(&g, 1, 0);
    CHECK_EQ_INT(at(e->block, 16, -10, 8), 13); /* torch 14, one step */
    CHECK_EQ_INT(at(e->block, 17, -10, 8), 12);
    free(e);
    /* A stone wall filling the pocket's section at x = 16: nothing passes. */
    for (int y = -12; y <= -8; y++)
        for (int z = 4; z <= 11; z++) gset(&g, 16, y, z, BLOCK_STONE);
    e = grid_light(&g, 1, 0);
    CHECK_EQ_INT(at(e->block, 17, -10, 8), 0);
    CHECK_EQ_INT(at(e->block, 19, -9, 5), 0);
    free(e);
    /* Glass lets it through (filter 0), one level per step. */
    gset(&g, 16, -10, 8, BLOCK_GLASS);
    e = grid_light(&g, 1, 0);
    CHECK_EQ_INT(at(e->block, 16, -10, 8), 13);
    CHECK_EQ_INT(at(e->block, 17, -10, 8), 12);
    free(e);
    grid_free(&g);
}

TEST(light_sky_under_an_overhang_across_the_border)
{
    static struct grid g;
    grid_init(&g, 0);
    /* A roof at y = 5 over the whole east row of columns (x 16..31); the
     * middle column (x 0..15) is open. */
    for (int z = -16; z < 32; z++)
        for (int x = 16; x < 32; x++) gset(&g, x, 5, z, BLOCK_STONE);
    chunk_light *e = grid_light(&g, 1, 0);
    CHECK_EQ_INT(at(e->sky, 16, 1, 8), 14);
    CHECK_EQ_INT(at(e->sky, 17, 1, 8), 13);
    CHECK_EQ_INT(at(e->sky, 20, 4, 8), 10);
    CHECK_EQ_INT(at(e->sky, 29, 1, 8), 1);
    CHECK_EQ_INT(at(e->sky, 30, 1, 8), 0);
    CHECK_EQ_INT(at(e->sky, 20, 6, 8), 15); /* on the roof */
    free(e);
    grid_free(&g);
}

TEST(light_sky_below_leaves_loses_one_per_block)
{
    chunk c;
    stone_floor(&c);
    /* A 5×5 canopy of leaves at y = 10 around (8, 8), open sky around it. */
    for (int z = 6; z <= 10; z++)
        for (int x = 6; x <= 10; x++) chunk_set_block(&c, x, 10, z, BLOCK_OAK_LEAVES);
    chunk_light *l = malloc(sizeof *l);
    light_compute(&c, l);
    CHECK_EQ_INT(l->sky[idx(8, 11, 8)], 15);
    CHECK_EQ_INT(l->sky[idx(8, 10, 8)], 14); /* in the leaves */
    /* Under the middle: one below the leaves (vanilla: no longer a source,
     * so each block down costs 1), or 3 steps sideways from open sky. */
    CHECK_EQ_INT(l->sky[idx(8, 9, 8)], 13);
    CHECK_EQ_INT(l->sky[idx(8, 7, 8)], 12);
    CHECK_EQ_INT(l->sky[idx(6, 9, 8)], 14);
    free(l);
    chunk_free(&c);
}

TEST(light_change_reach)
{
    CHECK(light_change_reaches(15, 8, 1, 0));
    CHECK(light_change_reaches(2, 8, 1, 0));  /* 14 steps to x = 16 */
    CHECK(!light_change_reaches(1, 8, 1, 0)); /* 15 */
    CHECK(light_change_reaches(0, 8, -1, 0));
    CHECK(!light_change_reaches(14, 8, -1, 0));
    CHECK(light_change_reaches(15, 15, 1, 1));
    CHECK(!light_change_reaches(8, 8, 1, 1)); /* 8 + 8 */
    CHECK(light_states_differ(BLOCK_AIR, BLOCK_TORCH));
    CHECK(light_states_differ(BLOCK_AIR, BLOCK_STONE));
    CHECK(!light_states_differ(BLOCK_AIR, BLOCK_GLASS));
    CHECK(!light_states_differ(BLOCK_STONE, BLOCK_DIRT));
}

/* ------------------------------------------------- reference: plain flood fill */

#define GW     48
#define GCELLS (GW * GW * CHUNK_HEIGHT)

static inline int gidx(int x, int y, int z)
{
    return (y * GW + z) * GW + x;
}

/* Vanilla's rules over the whole grid, the obvious way: every cell relaxed
 * from a FIFO queue until nothing changes; unloaded columns opaque and dark. */
static void reference(const struct grid *g, uint8_t *sky, uint8_t *blk)
{
    uint8_t *f = malloc(GCELLS);
    uint32_t *q = malloc(sizeof *q * (size_t)GCELLS * 4);
    for (int z = 0; z < GW; z++)
        for (int x = 0; x < GW; x++) {
            int k = (z >> 4) * 3 + (x >> 4);
            int top = CHUNK_HEIGHT; /* lowest source index */
            bool seen = false;
            for (int y = CHUNK_HEIGHT - 1; y >= 0; y--) {
                int i = gidx(x, y, z);
                if (!g->loaded[k]) {
                    f[i] = 15;
                    sky[i] = blk[i] = 0;
                    continue;
                }
                uint16_t st = chunk_get_block(&g->c[k], x & 15, y + CHUNK_MIN_Y, z & 15);
                f[i] = block_info[block_of_state[st]].filter_light;
                blk[i] = block_info[block_of_state[st]].emit_light;
                if (!seen && f[i]) {
                    seen = true;
                    top = y + 1;
                }
                sky[i] = 0;
            }
            if (!g->loaded[k]) continue;
            if (!seen) top = 0;
            for (int y = top; y < CHUNK_HEIGHT; y++) sky[gidx(x, y, z)] = 15;
        }
    uint8_t *lv[2] = {sky, blk};
    for (int kind = 0; kind < 2; kind++) {
        uint8_t *l = lv[kind];
        size_t head = 0, tail = 0, cap = (size_t)GCELLS * 4;
        for (int i = 0; i < GCELLS; i++)
            if (l[i] >= 2) q[tail++] = (uint32_t)i;
        while (head != tail) {
            int i = (int)q[head++ % cap];
            int x = i % GW, z = (i / GW) % GW, y = i / (GW * GW);
            int nb[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z},
                            {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
            for (int d = 0; d < 6; d++) {
                int nx = nb[d][0], ny = nb[d][1], nz = nb[d][2];
                if (nx < 0 || nx >= GW || nz < 0 || nz >= GW || ny < 0 || ny >= CHUNK_HEIGHT)
                    continue;
                int n = gidx(nx, ny, nz);
                int nl = l[i] - (f[n] > 1 ? f[n] : 1);
                if (nl > l[n]) {
                    l[n] = (uint8_t)nl;
                    if (nl >= 2) q[tail++ % cap] = (uint32_t)n;
                }
            }
        }
    }
    free(f);
    free(q);
}

static uint32_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static uint16_t random_block(int y)
{
    uint32_t r = rnd() % 1000;
    if (y > 10) return r < 15 ? BLOCK_STONE : r < 30 ? BLOCK_OAK_LEAVES : BLOCK_AIR;
    if (r < 380) return BLOCK_STONE;
    if (r < 430) return BLOCK_GLASS;
    if (r < 480) return BLOCK_WATER;
    if (r < 530) return BLOCK_OAK_LEAVES;
    if (r < 536) return BLOCK_GLOWSTONE;
    if (r < 542) return BLOCK_TORCH;
    return BLOCK_AIR;
}

TEST(light_matches_a_flood_fill_over_the_whole_grid)
{
    static struct grid g;
    uint8_t *sky = malloc(GCELLS), *blk = malloc(GCELLS);
    for (int round = 0; round < 3; round++) {
        rng_state = 12345u + (uint32_t)round * 77u;
        for (int k = 0; k < 9; k++) {
            chunk_init(&g.c[k], k % 3 - 1, k / 3 - 1, BLOCK_AIR, BIOME_PLAINS);
            g.loaded[k] = !(round == 2 && (k == 2 || k == 3)); /* two not loaded */
            uint16_t st[4096];
            for (int sy = 0; sy < 6; sy++) { /* y -64..31 random, air above */
                for (int i = 0; i < 4096; i++)
                    st[i] = random_block(CHUNK_MIN_Y + sy * 16 + (i >> 8));
                CHECK(section_fill(&g.c[k].sections[sy], st) == 0);
            }
        }
        reference(&g, sky, blk);
        int bad = 0;
        for (int cz = -1; cz <= 1; cz++)
            for (int cx = -1; cx <= 1; cx++) {
                if (!g.loaded[(cz + 1) * 3 + cx + 1]) continue;
                chunk_light *l = grid_light(&g, cx, cz);
                for (int y = 0; y < CHUNK_HEIGHT; y++)
                    for (int z = 0; z < 16; z++)
                        for (int x = 0; x < 16; x++) {
                            int gi = gidx((cx + 1) * 16 + x, y, (cz + 1) * 16 + z);
                            int li = y << 8 | z << 4 | x;
                            if (l->sky[li] != sky[gi] || l->block[li] != blk[gi]) {
                                if (bad++ < 5)
                                    fprintf(stderr,
                                            "    round %d column %d,%d cell %d,%d,%d: sky %d/%d "
                                            "block %d/%d (got/reference)\n",
                                            round, cx, cz, x, y + CHUNK_MIN_Y, z, l->sky[li],
                                            sky[gi], l->block[li], blk[gi]);
                            }
                        }
                free(l);
            }
        CHECK_EQ_INT(bad, 0);
        grid_free(&g);
    }
    free(sky);
    free(blk);
}

/* ---------------------------------------- the world: edits relight the neighbour */

static struct {
    int calls[4];
    int block_at_16; /* block light at (16, -60, 8) in the newest Update Light for 1,0 */
} relit;

/* Block light at (x, y, z) of a column from a framed, uncompressed Update Light. */
static int update_light_block(const uint8_t *frame, size_t len, int x, int y, int z)
{
    rd_t r = rd_make(frame, len);
    rd_varint(&r); /* frame length */
    rd_varint(&r); /* packet id */
    rd_varint(&r);
    rd_varint(&r);
    int64_t masks[4] = {0};
    for (int k = 0; k < 4; k++)
        if (rd_varint(&r) == 1) masks[k] = rd_i64(&r);
    int L = ((y - CHUNK_MIN_Y) >> 4) + 1;
    if (!(masks[1] & (1LL << L))) return (masks[3] & (1LL << L)) ? 0 : -1;
    int skies = rd_varint(&r);
    for (int k = 0; k < skies; k++) rd_skip(&r, (size_t)rd_varint(&r));
    rd_varint(&r); /* block arrays */
    for (int l = 0; l < L; l++)
        if (masks[1] & (1LL << l)) rd_skip(&r, (size_t)rd_varint(&r));
    rd_varint(&r);
    const uint8_t *nib = rd_bytes(&r, 2048);
    int i = ((y - CHUNK_MIN_Y) & 15) << 8 | (z & 15) << 4 | (x & 15);
    return nib ? (nib[i >> 1] >> ((i & 1) * 4)) & 15 : -1;
}

static void on_relit(chunk_entry *e, const uint8_t *frame, size_t len)
{
    if (e->c.z != 0 || e->c.x < 0 || e->c.x > 3) return;
    relit.calls[e->c.x]++;
    if (e->c.x == 1) relit.block_at_16 = update_light_block(frame, len, 16, -60, 8);
}

TEST(light_world_edit_at_the_edge_relights_the_neighbour_once_per_tick)
{
    struct server_config cfg;
    config_defaults(&cfg);
    cfg.level_type = LEVEL_FLAT; /* bedrock, 2 dirt, grass: y -64..-61 */
    cfg.compression_threshold = -1;
    static world w;
    char err[256];
    CHECK_EQ_INT(world_init(&w, &cfg, err, sizeof err), 0);
    w.on_relit = on_relit;
    for (int x = 0; x < 4; x++) CHECK(world_acquire_frame(&w, x, 0) != NULL);
    world_flush_edits(&w); /* relights after the arrivals: nothing changes on flat ground */
    memset(&relit, 0, sizeof relit);
    /* Glowstone at x = 15 on the grass of column 0,0. */
    CHECK_EQ_INT(world_set_block(&w, 15, -60, 8, BLOCK_GLOWSTONE), 0);
    world_flush_edits(&w); /* inline jobs: the edit and the neighbour's relight */
    world_flush_edits(&w); /* (nothing more) */
    CHECK_EQ_INT(relit.calls[0], 1);
    CHECK_EQ_INT(relit.calls[1], 1);
    CHECK_EQ_INT(relit.calls[2], 0); /* x = 32 is 17 steps away: out of reach */
    CHECK_EQ_INT(relit.block_at_16, 14);
    /* Removing it clears the neighbour again, with one more Update Light. */
    CHECK_EQ_INT(world_set_block(&w, 15, -60, 8, BLOCK_AIR), 0);
    world_flush_edits(&w);
    CHECK_EQ_INT(relit.calls[1], 2);
    CHECK_EQ_INT(relit.block_at_16, 0);
    /* An edit that changes no light (grass to dirt) relights nobody. */
    CHECK_EQ_INT(world_set_block(&w, 15, -61, 8, BLOCK_DIRT), 0);
    world_flush_edits(&w);
    CHECK_EQ_INT(relit.calls[1], 2);
    CHECK_EQ_INT(relit.calls[0], 2); /* the edited column's light did not change either */
    for (int x = 0; x < 4; x++) world_release(&w, x, 0, 0);
    world_free(&w);
}
