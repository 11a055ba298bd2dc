/*
 * test_beds.c — the pure bed rules (game/bed_rules.c, issue 21): vanilla's
 * night window (Level.isDay), the bed's footprint, SleepStatus's
 * percentage arithmetic, the next morning, and BedBlock's stand-up search
 * over a small described world.
 */
#include <math.h>
#include <string.h>

#include "game/bed_rules.h"
#include "test.h"

TEST(beds_night_window_is_vanillas)
{
    /* clear: 12542..23459 (minecraft.wiki, Bed: "between 12542 and 23459") */
    CHECK(bed_is_day(12541, false, false));
    CHECK(!bed_is_day(12542, false, false));
    CHECK(!bed_is_day(18000, false, false));
    CHECK(!bed_is_day(23459, false, false));
    CHECK(bed_is_day(23460, false, false));
    CHECK(bed_is_day(1000, false, false));
    CHECK(bed_is_day(6000, false, false));
    /* rain: 12010..23991 */
    CHECK(bed_is_day(12009, true, false));
    CHECK(!bed_is_day(12010, true, false));
    CHECK(!bed_is_day(23991, true, false));
    CHECK(bed_is_day(23992, true, false));
    /* a thunderstorm: any time */
    for (int t = 0; t < 24000; t += 250) CHECK(!bed_is_day(t, true, true));
    /* the day count does not matter */
    CHECK(!bed_is_day(24000 * 7 + 13000, false, false));
    CHECK(bed_is_day(24000 * 7 + 1000, false, false));
}

TEST(beds_footprint_follows_the_players_facing)
{
    CHECK_EQ_INT(bed_dir_of_yaw(0.0f), BED_SOUTH);
    CHECK_EQ_INT(bed_dir_of_yaw(90.0f), BED_WEST);
    CHECK_EQ_INT(bed_dir_of_yaw(180.0f), BED_NORTH);
    CHECK_EQ_INT(bed_dir_of_yaw(-90.0f), BED_EAST);
    CHECK_EQ_INT(bed_dir_of_yaw(44.0f), BED_SOUTH);
    CHECK_EQ_INT(bed_dir_of_yaw(46.0f), BED_WEST);
    CHECK_EQ_INT(bed_dir_of_yaw(-135.0f + 1.0f), BED_EAST);
    CHECK_EQ_INT(bed_dir_of_yaw(720.0f + 180.0f), BED_NORTH);
    int32_t hx, hz;
    bed_head_of(10, -5, BED_SOUTH, &hx, &hz);
    CHECK(hx == 10 && hz == -4);
    bed_head_of(10, -5, BED_WEST, &hx, &hz);
    CHECK(hx == 9 && hz == -5);
    bed_head_of(10, -5, BED_NORTH, &hx, &hz);
    CHECK(hx == 10 && hz == -6);
    bed_head_of(10, -5, BED_EAST, &hx, &hz);
    CHECK(hx == 11 && hz == -5);
}

TEST(beds_sleepers_needed_is_sleep_status_arithmetic)
{
    CHECK_EQ_INT(bed_sleepers_needed(0, 100), 1); /* at least one */
    CHECK_EQ_INT(bed_sleepers_needed(1, 100), 1);
    CHECK_EQ_INT(bed_sleepers_needed(2, 100), 2);
    CHECK_EQ_INT(bed_sleepers_needed(3, 50), 2); /* ceil(1.5) */
    CHECK_EQ_INT(bed_sleepers_needed(4, 50), 2);
    CHECK_EQ_INT(bed_sleepers_needed(3, 33), 1); /* ceil(0.99) */
    CHECK_EQ_INT(bed_sleepers_needed(3, 34), 2);
    CHECK_EQ_INT(bed_sleepers_needed(5, 0), 1);
    CHECK_EQ_INT(bed_sleepers_needed(5, -20), 1);
    CHECK_EQ_INT(bed_sleepers_needed(3, 101), 4); /* more than there are: no skip */
    CHECK_EQ_INT(bed_sleepers_needed(10000, 100), 10000);
}

TEST(beds_next_morning_is_the_next_multiple_of_24000)
{
    CHECK(bed_next_morning(13000) == 24000);
    CHECK(bed_next_morning(23999) == 24000);
    CHECK(bed_next_morning(0) == 24000);
    CHECK(bed_next_morning(24000) == 48000);
    CHECK(bed_next_morning(24000 * 5 + 18000) == 24000 * 6);
}

TEST(beds_yaw_toward_faces_the_bed)
{
    CHECK(fabsf(bed_yaw_toward(1.5, 0.5, 0, 0) - 90.0f) < 1e-3f);  /* east of it: west */
    CHECK(fabsf(bed_yaw_toward(-0.5, 0.5, 0, 0) + 90.0f) < 1e-3f); /* west of it: east */
    CHECK(fabsf(bed_yaw_toward(0.5, -0.5, 0, 0) - 0.0f) < 1e-3f);  /* north of it: south */
    CHECK(fabsf(fabsf(bed_yaw_toward(0.5, 1.5, 0, 0)) - 180.0f) < 1e-3f);
}

/* A little world: solid ground below y = 0, air above, plus these cells. */
struct cell_set {
    int n;
    int32_t x[32], y[32], z[32];
    struct bed_cell c[32];
};

static struct bed_cell lookup(void *ctx, int32_t x, int32_t y, int32_t z)
{
    const struct cell_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (s->x[i] == x && s->y[i] == y && s->z[i] == z) return s->c[i];
    return (struct bed_cell){y < 0 ? 1.0 : 0.0, false, false};
}

static void put(struct cell_set *s, int32_t x, int32_t y, int32_t z, double top, bool danger,
                bool bed)
{
    s->x[s->n] = x, s->y[s->n] = y, s->z[s->n] = z;
    s->c[s->n++] = (struct bed_cell){top, danger, bed};
}

static struct cell_set bed_north(void) /* head at (0, 0, 0), foot at (0, 0, 1) */
{
    struct cell_set s = {0};
    put(&s, 0, 0, 0, BED_HEIGHT, false, true);
    put(&s, 0, 0, 1, BED_HEIGHT, false, true);
    return s;
}

TEST(beds_stand_up_beside_the_bed_on_the_players_side)
{
    struct cell_set s = bed_north();
    double v[3];
    /* looking south: the clockwise side (east) first */
    CHECK(bed_stand_up(lookup, &s, 0, 0, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 1.5 && v[1] == 0.0 && v[2] == 0.5);
    /* looking east: that side is behind, so west first */
    CHECK(bed_stand_up(lookup, &s, 0, 0, 0, BED_NORTH, -90.0f, v));
    CHECK(v[0] == -0.5 && v[1] == 0.0 && v[2] == 0.5);
    /* the east cell walled: the next offset, beside the foot */
    put(&s, 1, 0, 0, 1.0, false, false);
    CHECK(bed_stand_up(lookup, &s, 0, 0, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 1.5 && v[1] == 0.0 && v[2] == 1.5);
    /* a low ceiling there (1.8 tall box): the one after */
    put(&s, 1, 1, 1, 1.0, false, false);
    CHECK(bed_stand_up(lookup, &s, 0, 0, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 1.5 && v[1] == 0.0 && v[2] == 2.5);
}

TEST(beds_stand_up_avoids_danger_then_accepts_it)
{
    struct cell_set s = bed_north();
    double v[3];
    put(&s, 1, -1, 0, 1.0, true, false); /* magma under the first spot */
    CHECK(bed_stand_up(lookup, &s, 0, 0, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 1.5 && v[2] == 1.5);
    /* every spot around but the first walled: the bed's top beats the
     * magma (the above offsets come before the second, unsafe pass) */
    struct cell_set w = bed_north();
    for (int dx = -1; dx <= 1; dx++)
        for (int dz = -1; dz <= 2; dz++)
            if (dx != 0 && !(dx == 1 && dz == 0)) put(&w, dx, 0, dz, 1.0, false, false);
    put(&w, 0, 0, -1, 1.0, false, false);
    put(&w, 0, 0, 2, 1.0, false, false);
    put(&w, 1, -1, 0, 1.0, true, false);
    CHECK(bed_stand_up(lookup, &w, 0, 0, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 0.5 && fabs(v[1] - BED_HEIGHT) < 1e-9 && v[2] == 0.5);
    /* the bed's top covered too: the magma, in the unsafe pass */
    put(&w, 0, 1, 0, 1.0, false, false);
    put(&w, 0, 1, 1, 1.0, false, false);
    CHECK(bed_stand_up(lookup, &w, 0, 0, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 1.5 && v[1] == 0.0 && v[2] == 0.5);
    /* and that walled: nowhere */
    put(&w, 1, 0, 0, 1.0, false, false);
    CHECK(!bed_stand_up(lookup, &w, 0, 0, 0, BED_NORTH, 0.0f, v));
}

TEST(beds_stand_up_needs_a_floor)
{
    struct cell_set s = {0};
    /* a bed floating at y = 5 over air: only its own top holds a player */
    put(&s, 0, 5, 0, BED_HEIGHT, false, true);
    put(&s, 0, 5, 1, BED_HEIGHT, false, true);
    double v[3];
    CHECK(bed_stand_up(lookup, &s, 0, 5, 0, BED_NORTH, 0.0f, v));
    CHECK(v[0] == 0.5 && fabs(v[1] - (5 + BED_HEIGHT)) < 1e-9 && v[2] == 0.5);
}
