/*
 * test_growth.c — crop drops as vanilla's loot tables give them (issue 21):
 * a ripe wheat or beetroot always drops its crop and 1..4 seeds, an unripe
 * one exactly one seed (game/loot.c rule 7 reads back the alternative
 * minecraft-data flattens into two halves).
 */
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
