/*
 * test_experience.c — game/experience.c against vanilla 1.20.1's numbers:
 * the points each level needs (2L+7, 5L-38, 9L-158), points crossing levels
 * both ways, setExperiencePoints' bound, the orb sizes, the player's and
 * the mobs' rewards, and the orb's pull towards a player.
 */
#include <math.h>
#include <string.h>

#include "data/entity_table.h"
#include "game/experience.h"
#include "test.h"

#define CHECK_NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) < 1e-4)

static int type_id(const char *name)
{
    for (int i = 0; i < ENTITY_TYPE_COUNT; i++)
        if (strcmp(entity_types[i].name, name) == 0) return i;
    return -1;
}

TEST(xp_needed_per_level)
{
    CHECK_EQ_INT(xp_needed(0), 7);
    CHECK_EQ_INT(xp_needed(14), 35);
    CHECK_EQ_INT(xp_needed(15), 37);
    CHECK_EQ_INT(xp_needed(29), 107);
    CHECK_EQ_INT(xp_needed(30), 112);
    CHECK_EQ_INT(xp_needed(31), 121);
    /* The points to reach level 30 from 0: the wiki's 1,395. */
    int sum = 0;
    for (int l = 0; l < 30; l++) sum += xp_needed(l);
    CHECK_EQ_INT(sum, 1395);
}

TEST(xp_points_cross_levels)
{
    struct player_xp x = {0};
    xp_give_points(&x, 7);
    CHECK_EQ_INT(x.level, 1);
    CHECK_NEAR(x.progress, 0.0f);
    CHECK_EQ_INT(x.total, 7);
    CHECK_EQ_INT(x.score, 7);
    xp_give_points(&x, 1388); /* 1,395 in all: level 30 */
    CHECK_EQ_INT(x.level, 30);
    CHECK(x.progress < 0.01f);
    CHECK_EQ_INT(x.total, 1395);
    /* Negative points go back down (xp add @s -5): level 1 with 0 -> level 0
     * with 2 (2/7 of the bar); vanilla's float arithmetic reports floor(1.9999995) = 1. */
    struct player_xp y = {0};
    xp_give_points(&y, 7);
    xp_give_points(&y, -5);
    CHECK_EQ_INT(y.level, 0);
    CHECK(fabsf(y.progress - 2.0f / 7.0f) < 1e-5f);
    CHECK_EQ_INT(xp_points_in_level(&y), 1);
    CHECK_EQ_INT(y.total, 2);
    xp_give_points(&y, -100); /* never below 0 */
    CHECK_EQ_INT(y.level, 0);
    CHECK_NEAR(y.progress, 0.0f);
    CHECK_EQ_INT(y.total, 0);
}

TEST(xp_levels_and_set_points)
{
    struct player_xp x = {0};
    xp_give_levels(&x, 30);
    CHECK_EQ_INT(x.level, 30);
    CHECK_EQ_INT(xp_player_reward(x.level), 100);
    CHECK_EQ_INT(xp_player_reward(10), 70);
    CHECK_EQ_INT(xp_player_reward(0), 0);
    xp_give_levels(&x, -31); /* below 0: everything 0 */
    CHECK_EQ_INT(x.level, 0);
    CHECK_EQ_INT(x.total, 0);
    CHECK(xp_set_points(&x, 6));
    CHECK_EQ_INT(xp_points_in_level(&x), 6);
    CHECK(!xp_set_points(&x, 7)); /* level 0 needs 7: refused, unchanged */
    CHECK_EQ_INT(xp_points_in_level(&x), 6);
    xp_set_levels(&x, 12);
    CHECK_EQ_INT(x.level, 12);
}

TEST(xp_orb_sizes)
{
    CHECK_EQ_INT(xp_orb_value(1), 1);
    CHECK_EQ_INT(xp_orb_value(2), 1);
    CHECK_EQ_INT(xp_orb_value(6), 3);
    CHECK_EQ_INT(xp_orb_value(16), 7);
    CHECK_EQ_INT(xp_orb_value(36), 17);
    CHECK_EQ_INT(xp_orb_value(100), 73);
    CHECK_EQ_INT(xp_orb_value(100000), 2477);
    /* 100 points (a level-30 death) split as ExperienceOrb.award does. */
    int left = 100, orbs = 0, sum = 0;
    while (left > 0) {
        int v = xp_orb_value(left);
        left -= v, sum += v, orbs++;
    }
    CHECK_EQ_INT(sum, 100);
    CHECK_EQ_INT(orbs, 4); /* 73 + 17 + 7 + 3 */
}

TEST(xp_mob_rewards)
{
    uint64_t rng = 5;
    int cow = type_id("cow"), zombie = type_id("zombie"), villager = type_id("villager");
    CHECK(cow >= 0 && zombie >= 0 && villager >= 0);
    bool seen[4] = {false};
    for (int i = 0; i < 300; i++) {
        int r = xp_mob_reward(entity_types[cow].category, 0, &rng);
        CHECK(r >= 1 && r <= 3);
        if (r >= 1 && r <= 3) seen[r] = true;
        CHECK_EQ_INT(xp_mob_reward(entity_types[zombie].category, 0, &rng), 5);
        int e = xp_mob_reward(entity_types[zombie].category, 2, &rng);
        CHECK(e >= 7 && e <= 11);
        CHECK_EQ_INT(xp_mob_reward(entity_types[villager].category, 0, &rng), 0);
    }
    CHECK(seen[1] && seen[2] && seen[3]);
}

TEST(xp_orb_pull)
{
    double pos[3] = {0, 0, 0}, v[3] = {0, 0, 0}, at[3] = {4, 0, 0};
    xp_orb_pull(pos, v, at);
    CHECK_NEAR(v[0], 0.025); /* (1 - 4/8)^2 * 0.1 */
    CHECK_NEAR(v[1], 0.0);
    double far[3] = {0, 9, 0}, w[3] = {0, 0, 0};
    xp_orb_pull(pos, w, far);
    CHECK_NEAR(w[1], 0.0);
}
