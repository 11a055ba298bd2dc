/*
 * test_mob.c — the pure mob rules (game/mob_rules.c, included whole, as
 * h2o's tests include their .c): a falling box lands exactly on a floor,
 * a wall stops a walk (and a step-up climbs only what it may), loot rolls
 * stay in entityLoot's ranges and honour killed_by_player, saved records
 * round-trip through an entities chunk, a bad record is skipped and
 * counted, and summon's stringified NBT reads into a record or fails with
 * vanilla's key.
 */
#include <math.h>
#include <string.h>

#include "data/block_table.h"
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/mob_rules.c"
#include "test.h"

/* A floor: every block below y 64 is solid; a wall at x == 3 from y 64 to
 * 64 + wall_height - 1. */
static int wall_height;

static bool floor_solid(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx, (void)z;
    if (y < 64) return true;
    return x == 3 && y < 64 + wall_height;
}

static int item_named(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

TEST(mob_falls_onto_the_floor)
{
    double pos[3] = {0.5, 70.0, 0.5}, v[3] = {0, 0, 0};
    struct mob_move mv = {0};
    int ticks = 0;
    wall_height = 0;
    while (ticks < 200) { /* LivingEntity.travel: move, then gravity 0.08 and drag 0.98 */
        mob_collide(floor_solid, NULL, pos, 0.45, 1.4, v, 0.6, mv.on_ground, &mv);
        if (mv.blocked[1]) v[1] = 0;
        v[1] = (v[1] - 0.08) * 0.98;
        ticks++;
        if (mv.on_ground) break;
    }
    CHECK(mv.on_ground);
    CHECK(pos[1] == 64.0);
    CHECK(ticks > 5 && ticks < 20); /* 6 blocks take vanilla about 12 ticks */
    /* Standing there, a tick of gravity changes nothing. */
    double want[3] = {0, -0.0784, 0};
    mob_collide(floor_solid, NULL, pos, 0.45, 1.4, want, 0.6, true, &mv);
    CHECK(pos[1] == 64.0 && mv.on_ground && mv.got[1] == 0);
}

TEST(mob_wall_and_step_up)
{
    wall_height = 1;
    double pos[3] = {1.5, 64.0, 0.5};
    struct mob_move mv;
    for (int i = 0; i < 20; i++) {
        double want[3] = {0.2, -0.08, 0};
        mob_collide(floor_solid, NULL, pos, 0.45, 1.4, want, 0.6, true, &mv);
    }
    CHECK(fabs(pos[0] - (3.0 - 0.45)) < 1e-9); /* stopped at the wall's face */
    CHECK(mv.blocked[0] && !mv.stepped && pos[1] == 64.0);
    /* a step of 1.0 (more than a mob's 0.6) climbs a full block */
    pos[0] = 1.5, pos[1] = 64.0;
    for (int i = 0; i < 9; i++) {
        double want[3] = {0.2, -0.08, 0};
        mob_collide(floor_solid, NULL, pos, 0.45, 1.4, want, 1.0, true, &mv);
    }
    CHECK(fabs(pos[0] - 3.3) < 1e-9 && pos[1] == 65.0);
    /* NaN and huge velocities are clamped, never propagated */
    double bad[3] = {NAN, 1e300, -1e300};
    pos[0] = 0.5, pos[1] = 70, pos[2] = 0.5;
    mob_collide(floor_solid, NULL, pos, 0.45, 1.4, bad, 0.6, false, &mv);
    CHECK(isfinite(pos[0]) && isfinite(pos[1]) && isfinite(pos[2]));
    CHECK(pos[1] == 80.0 && pos[0] == 0.5);
}

TEST(mob_loot_rolls)
{
    uint64_t rng = 42;
    struct mob_drop d[MOB_DROPS_MAX];
    int beef = item_named("beef"), leather = item_named("leather");
    int seen_beef = 0;
    for (int i = 0; i < 1000; i++) {
        int n = mob_loot_roll(ENTITY_TYPE_COW, true, &rng, d, MOB_DROPS_MAX);
        for (int k = 0; k < n; k++) {
            CHECK(d[k].item == beef || d[k].item == leather);
            CHECK(d[k].count >= 1 && d[k].count <= 3); /* vanilla: beef 1-3, leather 0-2 */
            if (d[k].item == beef) seen_beef++;
        }
    }
    CHECK_EQ_INT(seen_beef, 1000); /* beef always drops */
    /* zombie: rotten flesh always, iron / carrot / potato only for a player's kill */
    int flesh = item_named("rotten_flesh"), rare = 0;
    for (int i = 0; i < 5000; i++) {
        int n = mob_loot_roll(ENTITY_TYPE_ZOMBIE, false, &rng, d, MOB_DROPS_MAX);
        CHECK_EQ_INT(n, 1);
        CHECK_EQ_INT(d[0].item, flesh);
        n = mob_loot_roll(ENTITY_TYPE_ZOMBIE, true, &rng, d, MOB_DROPS_MAX);
        rare += n - 1;
    }
    CHECK(rare > 60 && rare < 200); /* 3 × 1/120 × 5000 = 125 */
    CHECK_EQ_INT(mob_loot_roll(-1, true, &rng, d, MOB_DROPS_MAX), 0);
    CHECK_EQ_INT(mob_loot_roll(ENTITY_TYPE_COUNT, true, &rng, d, MOB_DROPS_MAX), 0);
}

struct collected {
    struct mob_record r[8];
    int n;
};

static void collect(void *ctx, const struct mob_record *r)
{
    struct collected *c = ctx;
    if (c->n < 8) c->r[c->n++] = *r;
}

TEST(mob_record_round_trip)
{
    struct mob_record in[2];
    mob_record_init(&in[0]);
    in[0].type = ENTITY_TYPE_SHEEP;
    in[0].pos[0] = 10.25, in[0].pos[1] = -3.5, in[0].pos[2] = -700.125;
    in[0].motion[1] = -0.0784;
    in[0].yaw = 123.5f, in[0].pitch = -10.0f;
    in[0].health = 5.5f, in[0].has_health = true;
    in[0].st.no_ai = true, in[0].st.on_ground = true, in[0].st.color = 12, in[0].st.sheared = true;
    for (int i = 0; i < 16; i++) in[0].uuid.b[i] = (uint8_t)(i * 17 + 3);
    in[0].has_uuid = true;
    strcpy(in[0].custom_name, "{\"text\":\"Dolly\"}");
    mob_record_init(&in[1]);
    in[1].type = ENTITY_TYPE_COW;
    in[1].pos[0] = 1, in[1].pos[1] = 2, in[1].pos[2] = 3;
    buf_t b = {0};
    mob_chunk_encode(&b, 0, -44, in, 2);
    CHECK(!b.failed);
    struct collected c = {0};
    size_t skipped = 0;
    char why[128];
    int32_t pos[2];
    CHECK_EQ_INT(mob_chunk_parse(b.data, b.len, pos, collect, &c, &skipped, why, sizeof why), 0);
    CHECK_EQ_INT(c.n, 2);
    CHECK_EQ_INT(skipped, 0);
    CHECK(pos[0] == 0 && pos[1] == -44);
    const struct mob_record *o = &c.r[0];
    CHECK_EQ_INT(o->type, ENTITY_TYPE_SHEEP);
    CHECK(o->pos[0] == 10.25 && o->pos[1] == -3.5 && o->pos[2] == -700.125);
    CHECK(o->motion[1] == -0.0784 && o->yaw == 123.5f && o->pitch == -10.0f);
    CHECK(o->has_health && o->health == 5.5f);
    CHECK(o->st.no_ai && o->st.on_ground && o->st.color == 12 && o->st.sheared);
    CHECK(o->has_uuid && memcmp(o->uuid.b, in[0].uuid.b, 16) == 0);
    CHECK(strcmp(o->custom_name, "{\"text\":\"Dolly\"}") == 0);
    CHECK_EQ_INT(c.r[1].type, ENTITY_TYPE_COW);
    CHECK(!c.r[1].st.no_ai);
    /* an empty chunk (the list emptied) parses to nothing */
    buf_reset(&b);
    mob_chunk_encode(&b, 5, 5, NULL, 0);
    c.n = 0;
    CHECK_EQ_INT(mob_chunk_parse(b.data, b.len, NULL, collect, &c, &skipped, why, sizeof why), 0);
    CHECK_EQ_INT(c.n, 0);
    buf_free(&b);
}

TEST(mob_bad_records_are_skipped)
{
    /* {Entities: [{id: "minecraft:nope", Pos: ...}, {id: cow, Pos: [NaN, 0, 0]},
     *             {id: cow, Pos: [1, 2]}, {id: cow, Pos: [1d, 2d, 3d]}]} */
    buf_t b = {0};
    nbt_w_root(&b, "");
    nbt_w_list(&b, "Entities", NBT_COMPOUND, 4);
    nbt_w_string(&b, "id", "minecraft:nope", 14);
    nbt_w_end(&b);
    nbt_w_string(&b, "id", "minecraft:cow", 13);
    nbt_w_list(&b, "Pos", NBT_DOUBLE, 3);
    wr_f64(&b, NAN), wr_f64(&b, 0), wr_f64(&b, 0);
    nbt_w_end(&b);
    nbt_w_string(&b, "id", "cow", 3);
    nbt_w_list(&b, "Pos", NBT_DOUBLE, 2);
    wr_f64(&b, 1), wr_f64(&b, 2);
    nbt_w_end(&b);
    nbt_w_string(&b, "id", "cow", 3);
    nbt_w_list(&b, "Pos", NBT_DOUBLE, 3);
    wr_f64(&b, 1), wr_f64(&b, 2), wr_f64(&b, 3);
    nbt_w_end(&b);
    nbt_w_end(&b);
    struct collected c = {0};
    size_t skipped = 0;
    char why[128] = "";
    CHECK_EQ_INT(mob_chunk_parse(b.data, b.len, NULL, collect, &c, &skipped, why, sizeof why), 0);
    CHECK_EQ_INT(c.n, 1);
    CHECK_EQ_INT(skipped, 3);
    CHECK(strstr(why, "unknown entity type") != NULL);
    CHECK(c.r[0].pos[2] == 3);
    /* cut short: the chunk itself is refused */
    CHECK_EQ_INT(mob_chunk_parse(b.data, b.len / 2, NULL, collect, &c, &skipped, why, sizeof why),
                 -1);
    buf_free(&b);
}

static int snbt_record(const char *s, struct mob_record *r, char *err, size_t cap)
{
    buf_t b = {0};
    int rc = mob_snbt_parse(s, strlen(s), &b, err, cap);
    if (rc == 0) {
        nbt_doc doc;
        rc = nbt_parse(b.data, b.len, true, &nbt_limits_network, &doc) < 0 ? -2 : 0;
        if (rc == 0) {
            char why[64];
            rc = mob_record_read(doc.root, r, false, why, sizeof why);
            nbt_doc_free(&doc);
        }
    }
    buf_free(&b);
    return rc;
}

TEST(mob_summon_nbt)
{
    struct mob_record r;
    char err[128];
    mob_record_init(&r);
    CHECK_EQ_INT(snbt_record("{NoAI:1b, CustomName:'\"Bob\"', Health:4.0f, Rotation:[90f,10f],"
                             "Color:3b, Tags:[a,b], Arr:[I;1,2,3], Deep:{x:{y:[{}]}}}",
                             &r, err, sizeof err),
                 0);
    CHECK(r.st.no_ai && r.has_health && r.health == 4.0f && r.yaw == 90.0f && r.pitch == 10.0f);
    CHECK(strcmp(r.custom_name, "\"Bob\"") == 0);
    CHECK_EQ_INT(r.st.color, 3);
    CHECK_EQ_INT(r.type, -1); /* no id: the summon's type argument gives it */
    mob_record_init(&r);
    CHECK_EQ_INT(snbt_record("{NoAI:true,Health:7}", &r, err, sizeof err), 0);
    CHECK(r.st.no_ai && r.health == 7.0f);
    static const struct {
        const char *in, *key;
    } bad[] = {
        {"{NoAI:}", "argument.nbt.expected.value"},
        {"{a:1}x", "argument.nbt.trailing"},
        {"[1,2]", "parsing.expected|{"},
        {"{a:1", "parsing.expected|}"},
        {"{a 1}", "parsing.expected|:"},
        {"{a:[1,2b]}", "argument.nbt.list.mixed|value|list"},
        {"{a:'x}", "parsing.quote.expected.end"},
        {"{a:[Q;1]}", "argument.nbt.array.invalid|?"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        buf_t b = {0};
        err[0] = 0;
        CHECK_EQ_INT(mob_snbt_parse(bad[i].in, strlen(bad[i].in), &b, err, sizeof err), -1);
        if (strcmp(err, bad[i].key) != 0) {
            fprintf(stderr, "    %s: got %s\n", bad[i].in, err);
            test_failures++;
        }
        buf_free(&b);
    }
    /* 600 levels of nesting: refused, no stack overflow */
    char deep[1300];
    size_t n = 0;
    deep[n++] = '{', deep[n++] = 'a', deep[n++] = ':';
    for (int i = 0; i < 600; i++) deep[n++] = '[';
    deep[n] = 0;
    buf_t b = {0};
    CHECK_EQ_INT(mob_snbt_parse(deep, n, &b, err, sizeof err), -1);
    buf_free(&b);
}

/* ------------------------------------------------------------ spawn rules */

TEST(mob_sky_darken_follows_the_day)
{
    CHECK_EQ_INT(mob_sky_darken(6000, false, false), 0);   /* noon */
    CHECK_EQ_INT(mob_sky_darken(18000, false, false), 11); /* midnight */
    CHECK_EQ_INT(mob_sky_darken(1000, false, false), 0);   /* morning: still full day */
    CHECK(mob_sky_darken(13000, false, false) >= 4);       /* night falls (isDay: < 4) */
    CHECK(mob_sky_darken(6000, true, false) > 0);          /* rain darkens */
    CHECK(mob_sky_darken(6000, true, true) > mob_sky_darken(6000, true, false));
    CHECK_EQ_INT(mob_sky_darken(18000 + 24000 * 5, false, false), 11);
}

TEST(mob_monster_cap_scales_with_chunks)
{
    CHECK_EQ_INT(mob_monster_cap(289), 70);
    CHECK_EQ_INT(mob_monster_cap(578), 140);
    CHECK_EQ_INT(mob_monster_cap(81), 19); /* view distance 4: 9 × 9 chunks */
    CHECK_EQ_INT(mob_monster_cap(0), 0);
}

/* "Loaded": a checkerboard of 3 × 3-chunk blocks, and nothing beyond ±60. */
static bool checker_loaded(void *ctx, int32_t cx, int32_t cz)
{
    int *probes = ctx;
    (*probes)++;
    if (cx < -60 || cx > 60 || cz < -60 || cz > 60) return false;
    return ((cx + 300) / 3 + (cz + 300) / 3) % 2 == 0;
}

/* The same count by brute force: every chunk of the box, each column. */
static int covered_brute(const int32_t *x, const int32_t *z, size_t n, int r)
{
    int count = 0, probes = 0;
    for (int32_t cz = -80; cz <= 80; cz++)
        for (int32_t cx = -80; cx <= 80; cx++) {
            bool near = false;
            for (size_t i = 0; i < n && !near; i++)
                near = abs(cx - x[i]) <= r && abs(cz - z[i]) <= r;
            if (near && checker_loaded(&probes, cx, cz)) count++;
        }
    return count;
}

TEST(mob_count_covered_counts_each_chunk_once)
{
    int32_t x[400], z[400];
    uint64_t rng = 99;
    for (size_t n = 1; n <= 400; n = n * 3 + 1) {
        for (size_t i = 0; i < n; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            x[i] = (int32_t)(rng >> 33) % 101 - 50;
            z[i] = (int32_t)(rng >> 45) % 101 - 50;
            if (i % 4 == 1) x[i] = x[i - 1], z[i] = z[i - 1]; /* players together */
        }
        int want = covered_brute(x, z, n, 8), probes = 0;
        CHECK_EQ_INT(mob_count_covered_set(x, z, n, 8, checker_loaded, &probes), want);
        CHECK_EQ_INT(mob_count_covered_grid(x, z, n, 8, checker_loaded, &probes), want);
        CHECK_EQ_INT(mob_count_covered(x, z, n, 8, checker_loaded, &probes), want);
    }
    /* one column: its 17 × 17 square, probed once each */
    int32_t one_x = 0, one_z = 0;
    int probes = 0;
    int got = mob_count_covered_grid(&one_x, &one_z, 1, 8, checker_loaded, &probes);
    CHECK_EQ_INT(probes, 289);
    CHECK_EQ_INT(got, covered_brute(&one_x, &one_z, 1, 8));
    /* many columns close together: the grid probes the box, not 289 each */
    for (int i = 0; i < 400; i++) x[i] = i % 20, z[i] = i / 20;
    probes = 0;
    CHECK_EQ_INT(mob_count_covered_grid(x, z, 400, 8, checker_loaded, &probes),
                 covered_brute(x, z, 400, 8));
    CHECK_EQ_INT(probes, 36 * 36);
    CHECK_EQ_INT(mob_count_covered(x, z, 0, 8, checker_loaded, &probes), 0);
}

TEST(mob_dark_enough_is_vanillas_rule)
{
    uint64_t rng = 12345;
    int ok = 0;
    for (int i = 0; i < 1000; i++) ok += mob_dark_enough(0, 0, 0, &rng);
    CHECK_EQ_INT(ok, 1000); /* pitch dark: always */
    ok = 0;
    for (int i = 0; i < 1000; i++) ok += mob_dark_enough(0, 1, 11, &rng);
    CHECK_EQ_INT(ok, 0); /* any block light: never */
    ok = 0;
    for (int i = 0; i < 1000; i++) ok += mob_dark_enough(15, 0, 0, &rng);
    CHECK_EQ_INT(ok, 0); /* open sky at noon: never */
    ok = 0;
    for (int i = 0; i < 4000; i++) ok += mob_dark_enough(15, 0, 11, &rng);
    /* open sky at midnight: 15 <= random(32) (17/32), then 4 <= random(8) (1/2) */
    CHECK(ok > 800 && ok < 1350);
    ok = 0;
    for (int i = 0; i < 4000; i++) ok += mob_dark_enough(7, 0, 0, &rng);
    /* sky 7 by day: 7 <= random(32) (25/32) and 7 <= random(8) (1/8) */
    CHECK(ok > 200 && ok < 600);
}

/* A synthetic world for the light estimate: open air above y 0, stone below;
 * a stone room x,z in 0..6, y 1..4 (walls at 0 and 6, roof at 4) when
 * `room`; a torch (14) at (20, 1, 0). */
static bool room;

static void cell_at(void *ctx, int32_t x, int32_t y, int32_t z, struct mob_light_cell *out)
{
    (void)ctx;
    bool wall = room && x >= 0 && x <= 6 && z >= 0 && z <= 6 && y >= 1 && y <= 4 &&
                (x == 0 || x == 6 || z == 0 || z == 6 || y == 4);
    bool stone = y <= 0 || wall;
    out->filter = stone ? 15 : 0;
    out->emit = x == 20 && y == 1 && z == 0 ? 14 : 0;
    /* open to the sky unless under the roof */
    bool under = room && x >= 0 && x <= 6 && z >= 0 && z <= 6 && y < 4;
    out->sky = !stone && !under;
}

TEST(mob_light_estimate_walks_the_light)
{
    int sky, block;
    room = false;
    mob_light_estimate(cell_at, NULL, 3, 1, 3, &sky, &block);
    CHECK_EQ_INT(sky, 15);
    CHECK_EQ_INT(block, 0); /* the torch is 17 away */
    mob_light_estimate(cell_at, NULL, 17, 1, 0, &sky, &block);
    CHECK_EQ_INT(block, 11); /* 3 from a torch of 14 */
    room = true;
    mob_light_estimate(cell_at, NULL, 3, 1, 3, &sky, &block);
    CHECK_EQ_INT(sky, 0); /* sealed */
    CHECK_EQ_INT(block, 0);
}
