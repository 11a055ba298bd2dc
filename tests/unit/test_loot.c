/*
 * test_loot.c — block drops (game/loot.c over data/loot_table.c): logs by
 * hand, stone only with a pickaxe (cobblestone; itself with silk touch),
 * gravel's alternatives (one drop, flint or gravel), a crop by its age, and
 * the bounds (max drops, out-of-range states).
 */
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/loot.h"
#include "test.h"

static int item_id(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

TEST(loot_logs_by_hand)
{
    uint64_t rng = 1;
    struct loot_drop d[LOOT_MAX_DROPS];
    for (int i = 0; i < 50; i++) {
        int n = loot_drops(BLOCK_OAK_LOG, 0, false, &rng, d, LOOT_MAX_DROPS);
        CHECK_EQ_INT(n, 1);
        CHECK_EQ_INT(d[0].item, item_id("oak_log"));
        CHECK_EQ_INT(d[0].count, 1);
    }
    /* Any state of the block (axis=x) drops the same. */
    CHECK_EQ_INT(loot_drops(BLOCK_OAK_LOG - 1, 0, false, &rng, d, LOOT_MAX_DROPS), 1);
}

TEST(loot_stone_needs_a_pickaxe)
{
    uint64_t rng = 7;
    struct loot_drop d[LOOT_MAX_DROPS];
    int pick = item_id("wooden_pickaxe"), shovel = item_id("wooden_shovel");
    CHECK(!loot_can_harvest(block_of_state[BLOCK_STONE], 0));
    CHECK(loot_can_harvest(block_of_state[BLOCK_STONE], pick));
    CHECK(loot_can_harvest(block_of_state[BLOCK_DIRT], 0));
    CHECK_EQ_INT(loot_drops(BLOCK_STONE, 0, false, &rng, d, LOOT_MAX_DROPS), 0);
    CHECK_EQ_INT(loot_drops(BLOCK_STONE, shovel, false, &rng, d, LOOT_MAX_DROPS), 0);
    CHECK_EQ_INT(loot_drops(BLOCK_STONE, pick, false, &rng, d, LOOT_MAX_DROPS), 1);
    CHECK_EQ_INT(d[0].item, item_id("cobblestone"));
    CHECK_EQ_INT(loot_drops(BLOCK_STONE, pick, true, &rng, d, LOOT_MAX_DROPS), 1);
    CHECK_EQ_INT(d[0].item, item_id("stone"));
    /* Grass block: dirt by hand, itself with silk touch. */
    CHECK_EQ_INT(loot_drops(BLOCK_GRASS_BLOCK, 0, false, &rng, d, LOOT_MAX_DROPS), 1);
    CHECK_EQ_INT(d[0].item, item_id("dirt"));
}

TEST(loot_gravel_alternatives)
{
    uint64_t rng = 99;
    struct loot_drop d[LOOT_MAX_DROPS];
    int flint = 0, gravel = 0;
    for (int i = 0; i < 400; i++) {
        CHECK_EQ_INT(loot_drops(BLOCK_GRAVEL, 0, false, &rng, d, LOOT_MAX_DROPS), 1);
        flint += d[0].item == item_id("flint");
        gravel += d[0].item == item_id("gravel");
    }
    CHECK_EQ_INT(flint + gravel, 400);
    CHECK(flint > 0 && gravel > 0);
}

TEST(loot_crop_by_age)
{
    uint64_t rng = 5;
    struct loot_drop d[LOOT_MAX_DROPS];
    int wheat = item_id("wheat");
    /* BLOCK_WHEAT is age 0; age 7 is the last state. */
    int ripe = block_info[block_of_state[BLOCK_WHEAT]].max_state;
    bool young_wheat = false, ripe_wheat = false;
    for (int i = 0; i < 200; i++) {
        int n = loot_drops(BLOCK_WHEAT, 0, false, &rng, d, LOOT_MAX_DROPS);
        for (int k = 0; k < n; k++) young_wheat |= d[k].item == wheat;
        n = loot_drops((uint16_t)ripe, 0, false, &rng, d, LOOT_MAX_DROPS);
        for (int k = 0; k < n; k++) ripe_wheat |= d[k].item == wheat;
    }
    CHECK(!young_wheat);
    CHECK(ripe_wheat);
}

TEST(loot_bounds)
{
    uint64_t rng = 3;
    struct loot_drop d[LOOT_MAX_DROPS];
    CHECK_EQ_INT(loot_drops(BLOCK_AIR, 0, false, &rng, d, LOOT_MAX_DROPS), 0);
    CHECK_EQ_INT(loot_drops(BLOCK_BEDROCK, 0, false, &rng, d, LOOT_MAX_DROPS), 0);
    CHECK_EQ_INT(loot_drops(BLOCK_STATE_COUNT, 0, false, &rng, d, LOOT_MAX_DROPS), 0);
    CHECK_EQ_INT(loot_drops(BLOCK_OAK_LOG, 0, false, &rng, d, 0), 0);
    for (int s = 0; s < BLOCK_STATE_COUNT; s += 7) {
        int n =
            loot_drops((uint16_t)s, item_id("netherite_pickaxe"), false, &rng, d, LOOT_MAX_DROPS);
        CHECK(n >= 0 && n <= LOOT_MAX_DROPS);
        for (int k = 0; k < n; k++) CHECK(d[k].item > 0 && d[k].count >= 1 && d[k].count <= 64);
    }
}

/* loot.c rule 6: what the data would make out of nothing. */
TEST(loot_single_slab_drops_one_and_leaves_nothing_by_hand)
{
    uint64_t rng = 7;
    struct loot_drop d[LOOT_MAX_DROPS];
    /* oak_slab 11021..11026: type top/bottom/double x waterlogged true/false */
    const int slab = item_id("oak_slab");
    for (int s = BLOCK_OAK_SLAB - 3; s <= BLOCK_OAK_SLAB + 2; s++) {
        CHECK_EQ_INT(loot_drops((uint16_t)s, 0, false, &rng, d, LOOT_MAX_DROPS), 1);
        CHECK_EQ_INT(d[0].item, slab);
        CHECK_EQ_INT(d[0].count, s >= BLOCK_OAK_SLAB + 1 ? 2 : 1); /* 11025, 11026: double */
    }
    for (int i = 0; i < 200; i++)
        CHECK_EQ_INT(loot_drops(BLOCK_OAK_LEAVES, 0, false, &rng, d, LOOT_MAX_DROPS), 0);
}
