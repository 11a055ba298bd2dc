/*
 * test_fluids.c — game/fluids.c's rules on an in-memory grid (32 x 8 x 32
 * over a stone floor, with its own tick scheduler and neighbour updates as
 * world/block_ticks.c makes them): water spreads 7 blocks with levels 1..7
 * and stops, dries when its source goes, two sources make a third, falls in
 * columns of level 8; lava spreads 3 blocks; lava meeting water makes
 * obsidian (a source), cobblestone (flowing) or stone (lava falling onto
 * water).
 */
#include <stdlib.h>
#include <string.h>

#include "data/blocks.h"
#include "game/fluids.h"
#include "test.h"
#include "world/block_ticks.h"

#define GX 32
#define GY 8
#define GZ 32

struct pending {
    int64_t at;
    uint64_t seq;
    int32_t x, y, z;
    int type;
};

static struct grid {
    uint16_t b[GX][GY][GZ];
    struct pending q[65536];
    size_t nq;
    int64_t now;
    uint64_t seq;
    uint32_t rng;
    int fizzes;
} g;

static bool in(int32_t x, int32_t y, int32_t z)
{
    return x >= 0 && x < GX && y >= 0 && y < GY && z >= 0 && z < GZ;
}

static bool get(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    (void)ctx;
    if (!in(x, y, z)) return false;
    *st = g.b[x][y][z];
    return true;
}

static const struct fl_world *W(void);

static void set(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    (void)ctx;
    if (!in(x, y, z) || g.b[x][y][z] == st) return;
    g.b[x][y][z] = st;
    /* the world's path: the block itself, then its six neighbours */
    fluids_update(W(), x, y, z);
    static const int d[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
    for (int k = 0; k < 6; k++) fluids_update(W(), x + d[k][0], y + d[k][1], z + d[k][2]);
}

static void schedule(void *ctx, int32_t x, int32_t y, int32_t z, int type, int delay)
{
    (void)ctx;
    for (size_t i = 0; i < g.nq; i++)
        if (g.q[i].x == x && g.q[i].y == y && g.q[i].z == z && g.q[i].type == type) return;
    if (g.nq < sizeof g.q / sizeof g.q[0])
        g.q[g.nq++] = (struct pending){g.now + delay, g.seq++, x, y, z, type};
}

static void fizz(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx, (void)x, (void)y, (void)z;
    g.fizzes++;
}

static uint32_t rnd(void *ctx)
{
    (void)ctx;
    g.rng = g.rng * 1103515245u + 12345u;
    return g.rng >> 8;
}

static const struct fl_world *W(void)
{
    static const struct fl_world w = {.get = get,
                                      .set = set,
                                      .schedule = schedule,
                                      .fizz = fizz,
                                      .rand = rnd,
                                      .water_conversion = true,
                                      .lava_conversion = false};
    return &w;
}

static int cmp_pending(const void *a, const void *b)
{
    const struct pending *p = a, *q = b;
    if (p->at != q->at) return p->at < q->at ? -1 : 1;
    return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* Runs n ticks: every due tick in (trigger, order) order. */
static void run(int n)
{
    for (int t = 0; t < n; t++) {
        g.now++;
        qsort(g.q, g.nq, sizeof g.q[0], cmp_pending);
        size_t due = 0;
        while (due < g.nq && g.q[due].at <= g.now) due++;
        struct pending *now = malloc(due * sizeof *now + 1);
        memcpy(now, g.q, due * sizeof *now);
        memmove(g.q, g.q + due, (g.nq - due) * sizeof g.q[0]);
        g.nq -= due;
        for (size_t i = 0; i < due; i++)
            fluids_tick(W(), now[i].x, now[i].y, now[i].z, now[i].type);
        free(now);
    }
}

static void reset(void)
{
    memset(&g, 0, sizeof g);
    g.rng = 1;
    for (int x = 0; x < GX; x++)
        for (int z = 0; z < GZ; z++) g.b[x][0][z] = BLOCK_STONE;
}

static int water_level(int x, int y, int z)
{
    uint16_t s = g.b[x][y][z];
    return s >= BLOCK_WATER && s <= BLOCK_WATER + 15 ? s - BLOCK_WATER : -1;
}

TEST(fluids_water_spreads_seven_and_stops)
{
    reset();
    set(NULL, 16, 1, 16, BLOCK_WATER); /* a source, as a bucket places it */
    run(200);
    CHECK_EQ_INT(g.nq, 0); /* settled */
    CHECK_EQ_INT(water_level(16, 1, 16), 0);
    for (int d = 1; d <= 7; d++) {
        CHECK_EQ_INT(water_level(16 + d, 1, 16), d);
        CHECK_EQ_INT(water_level(16 - d, 1, 16), d);
        CHECK_EQ_INT(water_level(16, 1, 16 + d), d);
        CHECK_EQ_INT(water_level(16, 1, 16 - d), d);
    }
    CHECK_EQ_INT(water_level(24, 1, 16), -1);
    CHECK_EQ_INT(water_level(8, 1, 16), -1);
    CHECK_EQ_INT(water_level(19, 1, 19), 6); /* a diamond: |dx| + |dz| */
    CHECK_EQ_INT(water_level(20, 1, 20), -1);
    CHECK_EQ_INT(water_level(16, 2, 16), -1);
    /* the source goes: everything dries */
    set(NULL, 16, 1, 16, BLOCK_AIR);
    run(200);
    int left = 0;
    for (int x = 0; x < GX; x++)
        for (int z = 0; z < GZ; z++) left += water_level(x, 1, z) >= 0;
    CHECK_EQ_INT(left, 0);
}

TEST(fluids_two_sources_make_a_third)
{
    reset();
    /* a trench one wide: stone walls along z = 4 and z = 6 */
    for (int x = 0; x < GX; x++) g.b[x][1][4] = g.b[x][1][6] = BLOCK_STONE;
    set(NULL, 5, 1, 5, BLOCK_WATER);
    set(NULL, 7, 1, 5, BLOCK_WATER);
    run(100);
    CHECK_EQ_INT(water_level(6, 1, 5), 0); /* a source now */
    /* over air it would not be (no solid or source block below) */
    reset();
    g.b[6][0][5] = BLOCK_AIR;
    g.b[6][0][4] = g.b[6][0][6] = BLOCK_STONE;
    for (int x = 0; x < GX; x++) g.b[x][1][4] = g.b[x][1][6] = BLOCK_STONE;
    set(NULL, 5, 1, 5, BLOCK_WATER);
    set(NULL, 7, 1, 5, BLOCK_WATER);
    run(100);
    CHECK(water_level(6, 1, 5) != 0);
}

TEST(fluids_falls_in_a_column)
{
    reset();
    for (int x = 0; x < GX; x++)
        for (int z = 0; z < GZ; z++) g.b[x][4][z] = BLOCK_STONE; /* a floor at y 4 */
    g.b[10][4][10] = BLOCK_AIR;                                  /* with a hole */
    set(NULL, 11, 5, 10, BLOCK_WATER);
    run(200);
    CHECK_EQ_INT(water_level(10, 5, 10), 1);
    CHECK_EQ_INT(water_level(10, 4, 10), 8); /* falling */
    CHECK_EQ_INT(water_level(10, 1, 10), 8);
    CHECK_EQ_INT(water_level(11, 1, 10), 1); /* spreads 7 from the column's foot */
    CHECK_EQ_INT(water_level(17, 1, 10), 7);
    CHECK_EQ_INT(water_level(18, 1, 10), -1);
    /* on the upper floor it flows only toward the hole (the slope search) */
    CHECK_EQ_INT(water_level(12, 5, 10), -1);
}

TEST(fluids_lava_and_water)
{
    reset();
    set(NULL, 16, 1, 16, BLOCK_LAVA);
    run(400);
    CHECK_EQ_INT(g.b[17][1][16], BLOCK_LAVA + 2);
    CHECK_EQ_INT(g.b[18][1][16], BLOCK_LAVA + 4);
    CHECK_EQ_INT(g.b[19][1][16], BLOCK_LAVA + 6);
    CHECK_EQ_INT(g.b[20][1][16], BLOCK_AIR);
    /* water meets the flowing lava: cobblestone; the source: obsidian */
    set(NULL, 20, 1, 16, BLOCK_WATER);
    run(400);
    CHECK_EQ_INT(g.b[19][1][16], BLOCK_COBBLESTONE);
    CHECK(g.fizzes > 0);
    reset();
    set(NULL, 5, 1, 5, BLOCK_LAVA);
    set(NULL, 6, 1, 5, BLOCK_WATER);
    CHECK_EQ_INT(g.b[5][1][5], BLOCK_OBSIDIAN);
    /* lava falling onto water: stone */
    reset();
    for (int x = 0; x < GX; x++)
        for (int z = 0; z < GZ; z++) g.b[x][3][z] = BLOCK_STONE;
    g.b[10][3][10] = BLOCK_AIR;
    for (int y = 1; y <= 2; y++) /* a shaft of stone around the water */
        for (int dx = -1; dx <= 1; dx++)
            for (int dz = -1; dz <= 1; dz++) g.b[10 + dx][y][10 + dz] = BLOCK_STONE;
    g.b[10][2][10] = BLOCK_AIR;
    g.b[10][1][10] = BLOCK_WATER;
    set(NULL, 10, 4, 10, BLOCK_LAVA);
    run(400);
    CHECK_EQ_INT(g.b[10][1][10], BLOCK_STONE);
}

TEST(fluids_lava_flowing_into_still_water)
{
    reset();
    set(NULL, 5, 1, 5, BLOCK_WATER);
    run(100);
    CHECK_EQ_INT(water_level(12, 1, 5), 7);
    set(NULL, 14, 1, 5, BLOCK_LAVA);
    run(300);
    CHECK_EQ_INT(g.b[13][1][5], BLOCK_COBBLESTONE);
    CHECK_EQ_INT(g.b[14][1][5], BLOCK_LAVA);
    CHECK_EQ_INT(water_level(12, 1, 5), 7);
}
