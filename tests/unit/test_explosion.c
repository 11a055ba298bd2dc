/*
 * test_explosion.c — vanilla's explosion arithmetic (game/explosion_rules.c)
 * on made-up worlds: the rays in air (a ball of the reach vanilla's step
 * rule gives), in stone (a small, roughly even set around the centre),
 * behind obsidian (nothing past it), in water (nothing at all), at an
 * unloaded edge; the same draws give the same blocks; the exposure and the
 * line test; the entity damage formula and knockback; the difficulty
 * scaling; the drop decay's rate; the Explosion packet's bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "data/blast_table.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/packet_ids.h"
#include "game/explosion_rules.h"
#include "test.h"

#define CAP 65536

/* A world: kind of block by position. */
enum kind { K_AIR, K_STONE, K_OBSIDIAN, K_WATER, K_EDGE };
struct world {
    enum kind (*at)(int32_t x, int32_t y, int32_t z);
};

static float resist_of(enum kind k)
{
    switch (k) {
    case K_AIR: return EX_AIR;
    case K_STONE: return block_blast_resistance[block_of_state[BLOCK_STONE]];
    case K_OBSIDIAN: return block_blast_resistance[block_of_state[BLOCK_OBSIDIAN]];
    case K_WATER: return block_blast_resistance[block_of_state[BLOCK_WATER]];
    default: return EX_STOP;
    }
}

static float resist(void *ctx, int32_t x, int32_t y, int32_t z)
{
    return resist_of(((struct world *)ctx)->at(x, y, z));
}

static bool solid(void *ctx, int32_t x, int32_t y, int32_t z)
{
    enum kind k = ((struct world *)ctx)->at(x, y, z);
    return k == K_STONE || k == K_OBSIDIAN;
}

static enum kind all_air(int32_t x, int32_t y, int32_t z)
{
    (void)x, (void)y, (void)z;
    return K_AIR;
}
static enum kind stone_with_hole(int32_t x, int32_t y, int32_t z)
{
    return x == 0 && y == 0 && z == 0 ? K_AIR : K_STONE; /* a TNT's cell in stone */
}
static enum kind obsidian_wall(int32_t x, int32_t y, int32_t z)
{
    (void)y, (void)z;
    return x == 2 ? K_OBSIDIAN : x > 2 ? K_STONE : K_AIR;
}
static enum kind all_water(int32_t x, int32_t y, int32_t z)
{
    (void)x, (void)y, (void)z;
    return K_WATER;
}
static enum kind edge_at_3(int32_t x, int32_t y, int32_t z)
{
    (void)y, (void)z;
    return x >= 3 ? K_EDGE : K_AIR;
}
static enum kind wall_at_x1(int32_t x, int32_t y, int32_t z)
{
    (void)z;
    return x == 1 && y >= 0 && y < 3 ? K_STONE : K_AIR;
}
static enum kind half_wall(int32_t x, int32_t y, int32_t z)
{
    (void)z;
    return x == 2 && y == 0 ? K_STONE : K_AIR; /* hides the box's lower part only */
}

static long blast(enum kind (*at)(int32_t, int32_t, int32_t), float power, uint64_t seed,
                  struct ex_pos *out)
{
    struct world w = {at};
    uint64_t rng = seed;
    return ex_rays(resist, &w, 0.5, 0.5, 0.5, power, &rng, out, CAP);
}

static double dist(const struct ex_pos *p)
{
    double dx = p->x + 0.5 - 0.5, dy = p->y + 0.5 - 0.5, dz = p->z + 0.5 - 0.5;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static bool has(const struct ex_pos *p, long n, int32_t x, int32_t y, int32_t z)
{
    for (long i = 0; i < n; i++)
        if (p[i].x == x && p[i].y == y && p[i].z == z) return true;
    return false;
}

TEST(explosion_rays_in_air_make_a_ball)
{
    struct ex_pos *p = malloc(CAP * sizeof *p);
    long n = blast(all_air, 4.0f, 42, p);
    CHECK(n > 500);
    /* a ray lasts at most 4 × 1.3 / 0.225 steps of 0.3 blocks: 6.93 blocks */
    double far = 0;
    for (long i = 0; i < n; i++) far = fmax(far, dist(&p[i]));
    CHECK(far <= 6.93 + 0.9);
    CHECK(far >= 4.0);
    /* every block within 2.5 blocks is reached; each position once */
    for (int x = -3; x <= 3; x++)
        for (int y = -3; y <= 3; y++)
            for (int z = -3; z <= 3; z++) {
                struct ex_pos q = {x, y, z};
                if (dist(&q) <= 2.5) CHECK(has(p, n, x, y, z));
            }
    for (long i = 0; i < n && i < 400; i++)
        for (long j = i + 1; j < n; j++)
            CHECK(p[i].x != p[j].x || p[i].y != p[j].y || p[i].z != p[j].z);
    free(p);
}

TEST(explosion_rays_in_stone_are_small_even_and_repeatable)
{
    struct ex_pos *p = malloc(CAP * sizeof *p), *q = malloc(CAP * sizeof *q);
    long n = blast(stone_with_hole, 4.0f, 7, p);
    CHECK(n >= 7 && n < 200);
    CHECK(has(p, n, 0, 0, 0));
    /* the six faces go (each axis ray reaches its neighbour) */
    CHECK(has(p, n, 1, 0, 0) && has(p, n, -1, 0, 0) && has(p, n, 0, 1, 0) && has(p, n, 0, -1, 0) &&
          has(p, n, 0, 0, 1) && has(p, n, 0, 0, -1));
    int side[3][2] = {{0}};
    for (long i = 0; i < n; i++) {
        CHECK(dist(&p[i]) <= 3.5);
        const int32_t v[3] = {p[i].x, p[i].y, p[i].z};
        for (int a = 0; a < 3; a++)
            if (v[a]) side[a][v[a] > 0]++;
    }
    for (int a = 0; a < 3; a++) /* roughly spherical: each side of each axis alike */
        CHECK(abs(side[a][0] - side[a][1]) <= n / 4 + 2);
    /* the same draws, the same blocks in the same order; others differ */
    long m = blast(stone_with_hole, 4.0f, 7, q);
    CHECK_EQ_INT(m, n);
    CHECK(m == n && memcmp(p, q, (size_t)n * sizeof *p) == 0);
    long big = blast(all_air, 4.0f, 7, p), other = blast(all_air, 4.0f, 8, q);
    CHECK(big != other || memcmp(p, q, (size_t)big * sizeof *p) != 0);
    free(p);
    free(q);
}

TEST(explosion_obsidian_water_and_unloaded_edges_stop_rays)
{
    struct ex_pos *p = malloc(CAP * sizeof *p);
    long n = blast(obsidian_wall, 4.0f, 3, p);
    CHECK(n > 100);
    for (long i = 0; i < n; i++) CHECK(p[i].x < 2); /* the obsidian and all behind it stay */
    CHECK_EQ_INT(blast(all_water, 4.0f, 3, p), 0);  /* TNT under water breaks nothing */
    n = blast(edge_at_3, 8.0f, 3, p);
    CHECK(n > 100);
    for (long i = 0; i < n; i++) CHECK(p[i].x < 3);
    /* power clamps and bad input */
    struct world w = {all_air};
    uint64_t rng = 1;
    CHECK_EQ_INT(ex_rays(resist, &w, NAN, 0, 0, 4.0f, &rng, p, CAP), 0);
    CHECK_EQ_INT(ex_rays(resist, &w, 0, 0, 0, 0.0f, &rng, p, CAP), 0);
    CHECK_EQ_INT(ex_rays(resist, &w, 0, 0, 0, 4.0f, &rng, p, 10), 10);
    n = ex_rays(resist, &w, 0.5, 0.5, 0.5, 1e9f, &rng, p, CAP);
    for (long i = 0; i < n; i++) CHECK(dist(&p[i]) <= EX_POWER_MAX * 1.3 / 0.225 * 0.3 + 1);
    free(p);
}

TEST(explosion_line_and_exposure)
{
    struct world air = {all_air}, wall = {wall_at_x1}, half = {half_wall};
    double a[3] = {0.5, 0.5, 0.5}, b[3] = {3.5, 1.5, 0.5};
    CHECK(ex_line_clear(solid, &air, a, b));
    CHECK(!ex_line_clear(solid, &wall, a, b));
    double in[3] = {1.5, 0.5, 0.5};
    CHECK(!ex_line_clear(solid, &wall, in, a)); /* starting inside a block */
    double c[3] = {0.5, 0.5, 0.5};
    double lo[3] = {2.7, 0.0, 0.2}, hi[3] = {3.3, 1.8, 0.8}; /* a player's box past x = 1 */
    CHECK(ex_seen_percent(solid, &air, c, lo, hi) == 1.0f);
    CHECK(ex_seen_percent(solid, &wall, c, lo, hi) == 0.0f);
    float part = ex_seen_percent(solid, &half, c, lo, hi);
    CHECK(part > 0.1f && part < 0.9f);
}

TEST(explosion_entity_damage_and_knockback)
{
    double c[3] = {0, 0, 0};
    struct ex_hit h;
    double at3[3] = {3, 0, 0};
    CHECK(ex_entity_hit(c, 3.0f, at3, 1.62, 1.0f, &h));
    CHECK(h.damage == 16.0f); /* a = 0.5: (0.25 + 0.5) / 2 × 7 × 6 + 1 = 16.75 */
    CHECK(fabs(h.impact - 0.5) < 1e-9);
    double len = sqrt(3 * 3 + 1.62 * 1.62);
    CHECK(fabs(h.kx - 3 / len * 0.5) < 1e-9 && fabs(h.ky - 1.62 / len * 0.5) < 1e-9);
    CHECK(ex_entity_hit(c, 3.0f, at3, 1.62, 0.0f, &h) && h.damage == 1.0f); /* unseen: 1 */
    double at6[3] = {6, 0, 0}, at7[3] = {6.01, 0, 0}, at0[3] = {0, 0, 0};
    CHECK(ex_entity_hit(c, 3.0f, at6, 6.0, 1.0f, &h) && h.damage == 1.0f);
    CHECK(!ex_entity_hit(c, 3.0f, at7, 1.62, 1.0f, &h));
    CHECK(!ex_entity_hit(c, 3.0f, at0, 0.0, 1.0f, &h)); /* at the centre: no direction */
    /* a charged creeper next to a player: (a² + a) / 2 × 7 × 12 + 1 at a = 0.9 */
    double near[3] = {1.2, 0, 0};
    CHECK(ex_entity_hit(c, 6.0f, near, 1.62, 1.0f, &h) && h.damage == 72.0f);
    CHECK(ex_difficulty_scale(16.0f, 0) == 0.0f);
    CHECK(ex_difficulty_scale(16.0f, 1) == 9.0f);
    CHECK(ex_difficulty_scale(1.0f, 1) == 1.0f);
    CHECK(ex_difficulty_scale(16.0f, 2) == 16.0f);
    CHECK(ex_difficulty_scale(16.0f, 3) == 24.0f);
}

TEST(explosion_drop_decay)
{
    uint64_t rng = 99;
    CHECK_EQ_INT(ex_decay_count(5, 1.0f, &rng), 5);
    long kept = 0;
    for (int i = 0; i < 1000; i++) kept += ex_decay_count(10, 4.0f, &rng);
    CHECK(kept > 2300 && kept < 2700); /* 1 in 4 of 10,000 */
    CHECK_EQ_INT(ex_decay_count(0, 3.0f, &rng), 0);
}

static uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

TEST(explosion_packet_bytes)
{
    buf_t b;
    buf_init(&b, 1 << 16);
    double c[3] = {1.5, 64.25, -0.5};
    struct ex_pos blocks[3] = {{0, 63, -2}, {3, 64, -1}, {300, 64, 0}}; /* the last: too far */
    ex_write_packet(&b, c, 3.0f, blocks, 3, 0.5f, 0.0f, -0.25f);
    const uint8_t *p = b.data;
    CHECK_EQ_INT(b.len, 1 + 24 + 4 + 1 + 6 + 12);
    CHECK_EQ_INT(p[0], PKT_PLAY_CB_EXPLOSION);
    CHECK(be64(p + 1) == 0x3ff8000000000000ull);        /* 1.5 */
    CHECK(be64(p + 9) == 0x4050100000000000ull);        /* 64.25 */
    CHECK(be64(p + 17) == 0xbfe0000000000000ull);       /* -0.5 */
    CHECK_EQ_INT(be32(p + 25), 0x40400000);             /* 3.0f */
    CHECK_EQ_INT(p[29], 2);                             /* records */
    const uint8_t rec[6] = {0xff, 0xff, 0xff, 2, 0, 0}; /* from block (1, 64, -1) */
    CHECK_MEM(p + 30, 6, rec, 6);
    CHECK_EQ_INT(be32(p + 36), 0x3f000000); /* 0.5f */
    CHECK_EQ_INT(be32(p + 40), 0);
    CHECK_EQ_INT(be32(p + 44), 0xbe800000); /* -0.25f */
    buf_free(&b);
}
