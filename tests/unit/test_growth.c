/*
 * test_growth.c — crop drops as vanilla's loot tables give them (issue 21):
 * a ripe wheat or beetroot always drops its crop and 1..4 seeds, an unripe
 * one exactly one seed (game/loot.c rule 7 reads back the alternative
 * minecraft-data flattens into two halves).
 */
#include <stdlib.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/loot.h"
#include "test.h"

static int item_named(const char *n)
{
    for (int i = 1; i < ITEM_COUNT; i++)
        if (item_info[i].name && strcmp(item_info[i].name, n) == 0) return i;
    return -1;
}

static void check_crop(uint16_t first, int ripe, const char *crop, const char *seeds)
{
    int ci = item_named(crop), si = item_named(seeds);
    uint64_t rng = 42;
    for (int k = 0; k < 200; k++) {
        struct loot_drop d[LOOT_MAX_DROPS];
        int n = loot_drops((uint16_t)(first + ripe), 0, false, &rng, d, LOOT_MAX_DROPS);
        int got_crop = 0, got_seeds = 0;
        for (int i = 0; i < n; i++) {
            if (d[i].item == ci) got_crop += d[i].count;
            if (d[i].item == si) got_seeds += d[i].count;
        }
        CHECK_EQ_INT(got_crop, 1);
        CHECK(got_seeds >= 1 && got_seeds <= 4);
        n = loot_drops(first, 0, false, &rng, d, LOOT_MAX_DROPS);
        CHECK_EQ_INT(n, 1);
        CHECK_EQ_INT(d[0].item, si);
        CHECK_EQ_INT(d[0].count, 1);
    }
}

TEST(growth_ripe_crops_drop_the_crop_and_seeds)
{
    check_crop(BLOCK_WHEAT, 7, "wheat", "wheat_seeds");
    check_crop(BLOCK_BEETROOTS, 3, "beetroot", "beetroot_seeds");
}

/* ------------------------------------------------------------ growth_rules.h */

#include "game/growth_rules.h"
#include "world/block_state.h"
#include "world/features.h"

/* A little world for the light walk: open sky from y = 64 up, stone
 * below, with a few cells set by hand. */
struct toy {
    int n;
    int32_t pos[32][3];
    struct gr_cell cell[32];
};

static void toy_cell(void *ctx, int32_t x, int32_t y, int32_t z, struct gr_cell *out)
{
    const struct toy *t = ctx;
    for (int i = 0; i < t->n; i++)
        if (t->pos[i][0] == x && t->pos[i][1] == y && t->pos[i][2] == z) {
            *out = t->cell[i];
            return;
        }
    *out = y >= 64 ? (struct gr_cell){0, 0, true} : (struct gr_cell){15, 0, false};
}

static void toy_put(struct toy *t, int32_t x, int32_t y, int32_t z, struct gr_cell c)
{
    if (t->n >= 32) return;
    t->pos[t->n][0] = x, t->pos[t->n][1] = y, t->pos[t->n][2] = z;
    t->cell[t->n++] = c;
}

TEST(growth_light_sky_is_15_and_darkens_with_the_time)
{
    struct toy t = {0};
    CHECK(gr_light_at_least(toy_cell, &t, 0, 64, 0, 0, 15));
    CHECK(gr_light_at_least(toy_cell, &t, 0, 64, 0, 6, 9));  /* 15 - 6 = 9 */
    CHECK(!gr_light_at_least(toy_cell, &t, 0, 64, 0, 7, 9)); /* 8 */
    CHECK(!gr_light_at_least(toy_cell, &t, 0, 64, 0, GR_BLOCK_ONLY, 1));
    /* a stone cell underground: no light reaches it */
    CHECK(!gr_light_at_least(toy_cell, &t, 0, 40, 0, 0, 1));
}

TEST(growth_light_a_torch_loses_one_a_step_and_filters_lose_more)
{
    /* a tunnel at y = 40 along x from 0 to 10, a torch (14) at x = 0 */
    struct toy t = {0};
    toy_put(&t, 0, 40, 0, (struct gr_cell){0, 14, false});
    for (int x = 1; x <= 10; x++) toy_put(&t, x, 40, 0, (struct gr_cell){0, 0, false});
    CHECK(gr_light_at_least(toy_cell, &t, 5, 40, 0, 0, 9));  /* 14 - 5 */
    CHECK(!gr_light_at_least(toy_cell, &t, 6, 40, 0, 0, 9)); /* 8 */
    CHECK(gr_light_at_least(toy_cell, &t, 3, 40, 0, GR_BLOCK_ONLY, 11));
    CHECK(!gr_light_at_least(toy_cell, &t, 4, 40, 0, GR_BLOCK_ONLY, 11));
    /* a cell that loses 3 between the torch and x = 3: 14 - 1 - 3 - 1 = 9 at x = 3 */
    t.cell[2] = (struct gr_cell){3, 0, false};
    CHECK(gr_light_at_least(toy_cell, &t, 3, 40, 0, 0, 9));
    CHECK(!gr_light_at_least(toy_cell, &t, 3, 40, 0, 0, 10));
    /* an opaque emitter (glowstone, 15) lights its neighbour at 14 */
    struct toy g = {0};
    toy_put(&g, 0, 40, 0, (struct gr_cell){15, 15, false});
    toy_put(&g, 1, 40, 0, (struct gr_cell){0, 0, false});
    CHECK(gr_light_at_least(toy_cell, &g, 1, 40, 0, GR_BLOCK_ONLY, 14));
    CHECK(!gr_light_at_least(toy_cell, &g, 1, 40, 0, GR_BLOCK_ONLY, 15));
}

TEST(growth_light_sky_reaches_under_an_overhang_by_steps)
{
    /* a pit: the open cell at y = 63 under the sky at x = 0, then a
     * tunnel at y = 63 going to x = 8 under stone */
    struct toy t = {0};
    for (int x = 0; x <= 8; x++) toy_put(&t, x, 63, 0, (struct gr_cell){0, 0, false});
    for (int x = 1; x <= 8; x++) toy_put(&t, x, 64, 0, (struct gr_cell){15, 0, false});
    CHECK(gr_light_at_least(toy_cell, &t, 0, 63, 0, 0, 14)); /* one below the sky */
    CHECK(gr_light_at_least(toy_cell, &t, 6, 63, 0, 0, 8));  /* 15 - 7 */
    CHECK(!gr_light_at_least(toy_cell, &t, 6, 63, 0, 0, 9));
}

static int leaf_prop(uint16_t st, const char *name)
{
    const char *v;
    int k = block_state_prop(st, name, &v);
    return k < 0 ? -1 : strcmp(name, "distance") == 0 ? atoi(v) : strcmp(v, "true") == 0;
}

TEST(growth_leaf_states_and_distance)
{
    uint16_t leaves[] = {BLOCK_OAK_LEAVES, BLOCK_CHERRY_LEAVES, BLOCK_AZALEA_LEAVES};
    for (size_t i = 0; i < 3; i++) {
        CHECK(gr_is_leaves(leaves[i]));
        CHECK_EQ_INT(gr_leaf_distance(leaves[i]), 7); /* default: 7, not persistent */
        CHECK(!gr_leaf_persistent(leaves[i]));
        CHECK(gr_leaf_decaying(leaves[i]));
        for (int d = 1; d <= 7; d++)
            for (int p = 0; p <= 1; p++) {
                uint16_t s = gr_leaf_with(leaves[i], d, p);
                CHECK_EQ_INT(leaf_prop(s, "distance"), d);
                CHECK_EQ_INT(leaf_prop(s, "persistent"), p);
                CHECK_EQ_INT(leaf_prop(s, "waterlogged"), 0);
                CHECK_EQ_INT(gr_leaf_distance(s), d);
                CHECK(gr_leaf_decaying(s) == (d == 7 && !p));
            }
    }
    CHECK(!gr_is_leaves(BLOCK_STONE));
    CHECK(gr_is_log(BLOCK_OAK_LOG) && gr_is_log(BLOCK_STRIPPED_CHERRY_WOOD));
    CHECK(!gr_is_log(BLOCK_MUSHROOM_STEM) && !gr_is_log(BLOCK_PUMPKIN_STEM));
    uint16_t n[6] = {BLOCK_AIR, BLOCK_AIR, BLOCK_AIR, BLOCK_AIR, BLOCK_AIR, BLOCK_AIR};
    CHECK_EQ_INT(gr_leaf_distance_from(n), 7);
    n[3] = gr_leaf_with(BLOCK_BIRCH_LEAVES, 3, false);
    CHECK_EQ_INT(gr_leaf_distance_from(n), 4);
    n[5] = gr_leaf_with(BLOCK_OAK_LEAVES, 6, true);
    CHECK_EQ_INT(gr_leaf_distance_from(n), 4);
    n[0] = BLOCK_SPRUCE_LOG;
    CHECK_EQ_INT(gr_leaf_distance_from(n), 1);
}

TEST(growth_sugar_cane_and_cactus_need_their_ground)
{
    uint16_t dry[4] = {BLOCK_AIR, BLOCK_STONE, BLOCK_SAND, BLOCK_AIR};
    uint16_t wet[4] = {BLOCK_AIR, BLOCK_STONE, BLOCK_WATER, BLOCK_AIR};
    uint16_t flowing[4] = {BLOCK_AIR, BLOCK_WATER + 3, BLOCK_AIR, BLOCK_AIR};
    CHECK(!gr_cane_survives(BLOCK_SAND, dry));
    CHECK(gr_cane_survives(BLOCK_SAND, wet));
    CHECK(gr_cane_survives(BLOCK_GRASS_BLOCK, flowing));
    CHECK(gr_cane_survives(BLOCK_SUGAR_CANE + 5, dry)); /* on cane */
    CHECK(!gr_cane_survives(BLOCK_STONE, wet));
    uint16_t lava[4] = {BLOCK_AIR, BLOCK_LAVA, BLOCK_AIR, BLOCK_AIR};
    CHECK(!gr_cane_survives(BLOCK_DIRT, lava));

    uint16_t open[4] = {BLOCK_AIR, BLOCK_AIR, BLOCK_AIR, BLOCK_AIR};
    uint16_t walled[4] = {BLOCK_AIR, BLOCK_AIR, BLOCK_COBBLESTONE, BLOCK_AIR};
    CHECK(gr_cactus_survives(BLOCK_SAND, BLOCK_AIR, open));
    CHECK(gr_cactus_survives(BLOCK_RED_SAND, BLOCK_AIR, open));
    CHECK(gr_cactus_survives(BLOCK_CACTUS + 3, BLOCK_AIR, open));
    CHECK(!gr_cactus_survives(BLOCK_DIRT, BLOCK_AIR, open));
    CHECK(!gr_cactus_survives(BLOCK_SAND, BLOCK_AIR, walled));
    CHECK(!gr_cactus_survives(BLOCK_SAND, BLOCK_AIR, lava));
    CHECK(!gr_cactus_survives(BLOCK_SAND, BLOCK_WATER, open));

    bool grow;
    CHECK_EQ_INT(gr_stalk_tick(4, 0, true, &grow), 5);
    CHECK(!grow);
    CHECK_EQ_INT(gr_stalk_tick(15, 1, true, &grow), 0);
    CHECK(grow);
    CHECK_EQ_INT(gr_stalk_tick(15, 2, true, &grow), 15); /* 3 tall already */
    CHECK(!grow);
    CHECK_EQ_INT(gr_stalk_tick(7, 0, false, &grow), 7); /* something above */
    CHECK(!grow);
}

TEST(growth_grass_spreads_through_light_and_dies_under_opaque)
{
    CHECK(gr_can_be_grass(BLOCK_AIR));
    CHECK(gr_can_be_grass(BLOCK_GLASS));
    CHECK(gr_can_be_grass(BLOCK_SNOW));      /* one layer */
    CHECK(!gr_can_be_grass(BLOCK_SNOW + 1)); /* two layers: a full bottom face */
    CHECK(!gr_can_be_grass(BLOCK_SNOW + 7));
    CHECK(!gr_can_be_grass(BLOCK_OAK_SLAB));    /* bottom */
    CHECK(gr_can_be_grass(BLOCK_OAK_SLAB - 2)); /* top */
    CHECK(!gr_can_be_grass(BLOCK_STONE));
    CHECK(!gr_can_be_grass(BLOCK_WATER));      /* a source */
    CHECK(gr_can_be_grass(BLOCK_WATER + 3));   /* flowing, amount 5 */
    CHECK(!gr_can_propagate(BLOCK_WATER + 3)); /* but no spreading under water */
    CHECK(gr_can_propagate(BLOCK_AIR));
    CHECK_EQ_INT(gr_spread_state(BLOCK_GRASS_BLOCK, BLOCK_AIR), BLOCK_GRASS_BLOCK);
    CHECK_EQ_INT(gr_spread_state(BLOCK_GRASS_BLOCK, BLOCK_SNOW), BLOCK_GRASS_BLOCK - 1);
    CHECK_EQ_INT(gr_spread_state(BLOCK_MYCELIUM - 1, BLOCK_AIR), BLOCK_MYCELIUM);
    CHECK(gr_is_spreading(BLOCK_MYCELIUM) && !gr_is_spreading(BLOCK_DIRT));
}

TEST(growth_saplings_kinds_ground_and_trees)
{
    int stage;
    CHECK_EQ_INT(gr_sapling_kind(BLOCK_OAK_SAPLING, &stage), GR_OAK);
    CHECK_EQ_INT(stage, 0);
    CHECK_EQ_INT(gr_sapling_kind(BLOCK_DARK_OAK_SAPLING + 1, &stage), GR_DARK_OAK);
    CHECK_EQ_INT(stage, 1);
    CHECK_EQ_INT(gr_sapling_kind(BLOCK_OAK_LEAVES, &stage), -1);
    for (int k = 0; k < GR_SAPLING_KINDS; k++) {
        uint16_t s = gr_sapling_stage1(k);
        CHECK_EQ_INT(gr_sapling_kind(s, &stage), k);
        const char *v;
        CHECK(block_state_prop(s, "stage", &v) >= 0 && strcmp(v, "1") == 0);
    }
    CHECK(gr_sapling_ground(BLOCK_GRASS_BLOCK) && gr_sapling_ground(BLOCK_PODZOL));
    CHECK(gr_sapling_ground(BLOCK_FARMLAND + 3) && gr_sapling_ground(BLOCK_MUD));
    CHECK(!gr_sapling_ground(BLOCK_SAND) && !gr_sapling_ground(BLOCK_STONE));
    CHECK_EQ_INT(gr_tree_for(GR_DARK_OAK, false, 0), -1);
    CHECK_EQ_INT(gr_tree_for(GR_DARK_OAK, true, 0), FEATURES_TREE_DARK_OAK);
    CHECK_EQ_INT(gr_tree_for(GR_JUNGLE, true, 3), FEATURES_TREE_MEGA_JUNGLE);
    CHECK_EQ_INT(gr_tree_for(GR_JUNGLE, false, 3), FEATURES_TREE_JUNGLE);
    int fancy = 0;
    for (uint32_t r = 0; r < 1000; r++)
        fancy += gr_tree_for(GR_OAK, false, r) == FEATURES_TREE_FANCY_OAK;
    CHECK_EQ_INT(fancy, 100);
    CHECK(gr_tramples(1.25f, 0.7f) && !gr_tramples(1.25f, 0.8f) && !gr_tramples(0.5f, 0.0f));
}

/* A tree drawn into an empty world through features_draw_tree. */
struct drawn {
    int logs, leaves, other;
    int32_t top_log;
    bool base_log;
};

static bool empty_get(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    (void)ctx, (void)x, (void)y, (void)z;
    *st = BLOCK_AIR;
    return true;
}

static void count_set(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st, bool log)
{
    struct drawn *d = ctx;
    if (log && gr_is_log(st)) {
        d->logs++;
        if (y > d->top_log) d->top_log = y;
        if (x == 0 && y == 65 && z == 0) d->base_log = true;
    } else if (gr_is_leaves(st)) {
        d->leaves++;
    } else {
        d->other++;
    }
}

TEST(growth_saplings_draw_the_generators_trees)
{
    for (int k = FEATURES_TREE_OAK; k <= FEATURES_TREE_CHERRY; k++) {
        struct drawn d = {0, 0, 0, 0, false};
        const struct features_world w = {&d, empty_get, count_set};
        features_draw_tree(&w, (enum features_tree)k, 0, 64, 0, 12345);
        CHECK(d.base_log);
        CHECK(d.logs >= 4);
        CHECK(d.leaves >= 20);
        CHECK_EQ_INT(d.other, 0);
        CHECK(d.top_log >= 68);
    }
}
