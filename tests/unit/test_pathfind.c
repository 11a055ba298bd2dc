/*
 * test_pathfind.c — A* over a synthetic block grid (game/pathfind.c): a wall
 * forces a detour, a 1-block step is jumped and a 2-block one is not, a
 * fall of 3 is taken and of 4 is not, lava is walked around, the node budget
 * is respected (and the partial path leads toward the target), an unloaded
 * area ends the path at its edge, and a search spread over many small steps
 * finds the same path. It also times searches through a maze and prints the
 * median and p99 (the figure BENCHMARKS.md quotes).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game/pathfind.h"
#include "test.h"

/* A 64 × 16 × 64 world: grid[y][z][x], y 0 is the floor (solid everywhere
 * unless changed). Outside it: unloaded. */
#define W 64
#define H 16
static uint8_t grid[H][W][W];

static enum pf_block at(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    if (x < 0 || z < 0 || x >= W || z >= W) return PF_UNLOADED;
    if (y < 0) return PF_SOLID;
    if (y >= H) return PF_OPEN;
    return (enum pf_block)grid[y][z][x];
}

static void flat(void)
{
    memset(grid, PF_OPEN, sizeof grid);
    for (int z = 0; z < W; z++)
        for (int x = 0; x < W; x++) grid[0][z][x] = PF_SOLID;
}

static struct pf_search search;

static bool path_to(int sx, int sy, int sz, int tx, int ty, int tz, int max_nodes,
                    struct pf_path *p)
{
    int32_t s[3] = {sx, sy, sz}, t[3] = {tx, ty, tz};
    pf_start(&search, at, NULL, s, t, 2, 0.5f, max_nodes);
    while (!search.done) pf_step(&search, 1000);
    pf_result(&search, p);
    return p->reached;
}

/* Every step of p from (sx, sy, sz) moves at most one block each way and
 * never stands in or on what it should not. */
static bool path_sane(const struct pf_path *p, int sx, int sy, int sz)
{
    int px = sx, py = sy, pz = sz;
    for (int i = 0; i < p->n; i++) {
        int x = p->pts[i][0], y = p->pts[i][1], z = p->pts[i][2];
        if (x - px > 1 || px - x > 1 || z - pz > 1 || pz - z > 1) return false;
        if (y - py > 1 || py - y > 3) return false;
        if (at(NULL, x, y, z) != PF_OPEN || at(NULL, x, y + 1, z) != PF_OPEN) return false;
        if (at(NULL, x, y - 1, z) != PF_SOLID) return false;
        px = x, py = y, pz = z;
    }
    return true;
}

TEST(pathfind_goes_around_a_wall)
{
    flat();
    for (int z = 0; z < 20; z++) /* a wall x = 10, z 0..19, 3 high */
        for (int y = 1; y <= 3; y++) grid[y][z][10] = PF_SOLID;
    struct pf_path p;
    CHECK(path_to(5, 1, 5, 15, 1, 5, 1024, &p));
    CHECK(path_sane(&p, 5, 1, 5));
    int maxz = 0;
    for (int i = 0; i < p.n; i++)
        if (p.pts[i][2] > maxz) maxz = p.pts[i][2];
    CHECK(maxz >= 20); /* around the end of the wall */
    CHECK(p.pts[p.n - 1][0] == 15 && p.pts[p.n - 1][2] == 5);
}

TEST(pathfind_jumps_one_block_not_two)
{
    flat();
    for (int z = 0; z < W; z++) grid[1][z][10] = PF_SOLID; /* a 1-high step across the world */
    struct pf_path p;
    CHECK(path_to(5, 1, 5, 15, 1, 5, 1024, &p));
    CHECK(path_sane(&p, 5, 1, 5));
    bool up = false;
    for (int i = 0; i < p.n; i++) up |= p.pts[i][1] == 2;
    CHECK(up);
    for (int z = 0; z < W; z++) grid[2][z][10] = PF_SOLID; /* now 2 high: no way over */
    CHECK(!path_to(5, 1, 5, 15, 1, 5, 1024, &p));
    CHECK(p.n == 0 || p.pts[p.n - 1][0] == 9); /* the best partial path ends at the wall */
}

TEST(pathfind_falls_three_not_four)
{
    flat();
    for (int z = 0; z < W; z++) /* a plateau x < 10 at height 4 (stand at y 4) */
        for (int x = 0; x < 10; x++)
            for (int y = 1; y <= 3; y++) grid[y][z][x] = PF_SOLID;
    struct pf_path p;
    CHECK(path_to(5, 4, 5, 15, 1, 5, 1024, &p)); /* down 3 */
    CHECK(path_sane(&p, 5, 4, 5));
    for (int z = 0; z < W; z++)
        for (int x = 0; x < 10; x++) grid[4][z][x] = PF_SOLID; /* plateau at 5: a drop of 4 */
    CHECK(!path_to(5, 5, 5, 15, 1, 5, 1024, &p));
}

TEST(pathfind_avoids_lava)
{
    flat();
    for (int z = 0; z < 12; z++) /* a lava moat x 9..11 z 0..11, floor level */
        for (int x = 9; x <= 11; x++) grid[0][z][x] = PF_DANGER;
    struct pf_path p;
    CHECK(path_to(5, 1, 5, 15, 1, 5, 1024, &p));
    CHECK(path_sane(&p, 5, 1, 5)); /* never stands on lava (below must be solid) */
    int maxz = 0;
    for (int i = 0; i < p.n; i++)
        if (p.pts[i][2] > maxz) maxz = p.pts[i][2];
    CHECK(maxz >= 12);
    for (int z = 0; z < W; z++) /* fire across the world, open air cells */
        for (int x = 20; x <= 20; x++) grid[1][z][x] = PF_DANGER;
    CHECK(!path_to(15, 1, 5, 25, 1, 5, 1024, &p));
}

TEST(pathfind_respects_the_budget)
{
    flat();
    struct pf_path p;
    CHECK(!path_to(2, 1, 2, 60, 1, 60, 50, &p)); /* too far for 50 nodes */
    CHECK(search.visited <= 50);
    CHECK(search.n <= 50);
    CHECK(p.n > 0);
    /* the partial path heads for the target */
    CHECK(p.pts[p.n - 1][0] + p.pts[p.n - 1][2] > 2 + 2 + 4);
    int32_t s[3] = {2, 1, 2}, t[3] = {40, 1, 40};
    pf_start(&search, at, NULL, s, t, 2, 0.5f, 1024);
    int steps = 0;
    while (!search.done) {
        CHECK(pf_step(&search, 3) <= 3);
        steps++;
    }
    CHECK(steps > 10);
    pf_result(&search, &p);
    CHECK(p.reached);
}

TEST(pathfind_stops_at_an_unloaded_edge)
{
    flat();
    struct pf_path p;
    CHECK(!path_to(50, 1, 5, 80, 1, 5, 1024, &p)); /* x >= 64 is unloaded */
    CHECK(p.n > 0);
    for (int i = 0; i < p.n; i++) CHECK(p.pts[i][0] < W);
    CHECK(p.pts[p.n - 1][0] == W - 1);
}

TEST(pathfind_maze_timing)
{
    /* A maze of walls every 4 blocks with gaps at alternating ends. */
    flat();
    for (int x = 4; x < W - 4; x += 4)
        for (int z = 0; z < 40; z++) {
            bool gap = (x / 4) % 2 ? z >= 37 : z <= 2;
            if (!gap)
                for (int y = 1; y <= 2; y++) grid[y][z][x] = PF_SOLID;
        }
    uint32_t ns[200];
    int reached = 0;
    for (int i = 0; i < 200; i++) {
        int tx = 5 + (i * 7) % 10, tz = 5 + (i * 13) % 30;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        struct pf_path p;
        reached += path_to(2, 1, 20, tx, 1, tz, 560, &p);
        clock_gettime(CLOCK_MONOTONIC, &b);
        ns[i] = (uint32_t)((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    }
    uint32_t p50, p99;
    pf_percentiles(ns, 200, &p50, &p99);
    printf("  pathfind maze (560 nodes max): median %.1f us, p99 %.1f us, %d/200 reached\n",
           p50 / 1000.0, p99 / 1000.0, reached);
    CHECK(reached > 50);
    CHECK(p50 <= p99);
}
