/*
 * test_crafting.c — the recipe matcher (game/crafting.c over
 * data/recipes.c) and the click engine (game/window.c): planks from a log
 * anywhere in the grid, sticks at any offset, the pickaxe only in a 3x3,
 * a mirrored axe, extra items spoil a recipe; clicks: pick up and put,
 * right-click halves, the result taken uses one of each ingredient,
 * shift-click on the result crafts as many as fit, a drag splits evenly,
 * number keys swap, Q throws, and bad slots, buttons and modes change
 * nothing.
 */
#include <string.h>

#include "data/block_table.h"
#include "data/recipes.h"
#include "game/crafting.h"
#include "game/window.h"
#include "test.h"

static int item_id(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

static int result_of(const uint16_t *grid, int w)
{
    int r = crafting_match(grid, w, w);
    return r < 0 ? -1 : recipes[r].result;
}

TEST(crafting_planks_sticks_pickaxe)
{
    uint16_t log = (uint16_t)item_id("oak_log"), pl = (uint16_t)item_id("oak_planks");
    uint16_t st = (uint16_t)item_id("stick");
    uint16_t g2[4] = {0, 0, 0, log};
    CHECK_EQ_INT(result_of(g2, 2), pl);
    int r = crafting_match(g2, 2, 2);
    CHECK_EQ_INT(recipes[r].count, 4);
    uint16_t g3[9] = {0, 0, 0, 0, 0, pl, 0, 0, pl}; /* a column at the right */
    CHECK_EQ_INT(result_of(g3, 3), st);
    uint16_t g3b[9] = {pl, pl, pl, 0, st, 0, 0, st, 0};
    CHECK_EQ_INT(result_of(g3b, 3), item_id("wooden_pickaxe"));
    g3b[0] = st; /* one wrong cell */
    CHECK_EQ_INT(result_of(g3b, 3), -1);
    uint16_t two[4] = {pl, log, 0, 0}; /* an extra item spoils it */
    CHECK_EQ_INT(result_of(two, 2), -1);
    uint16_t none[4] = {0, 0, 0, 0};
    CHECK_EQ_INT(crafting_match(none, 2, 2), -1);
    uint16_t bad[4] = {60000, 0, 0, 0};
    CHECK_EQ_INT(crafting_match(bad, 2, 2), -1);
    CHECK_EQ_INT(crafting_match(g2, 4, 4), -1);
}

TEST(crafting_mixed_planks)
{
    uint16_t oak = (uint16_t)item_id("oak_planks"), birch = (uint16_t)item_id("birch_planks");
    uint16_t st = (uint16_t)item_id("stick"), coal = (uint16_t)item_id("charcoal");
    uint16_t pick[9] = {oak, birch, oak, 0, st, 0, 0, st, 0}; /* vanilla: #planks */
    CHECK_EQ_INT(result_of(pick, 3), item_id("wooden_pickaxe"));
    uint16_t sticks[4] = {birch, 0, oak, 0};
    CHECK_EQ_INT(result_of(sticks, 2), st);
    uint16_t torch[4] = {0, coal, 0, st}; /* coal or charcoal */
    CHECK_EQ_INT(result_of(torch, 2), item_id("torch"));
    uint16_t nope[9] = {oak, st, oak, 0, st, 0, 0, st, 0}; /* a stick is no plank */
    CHECK_EQ_INT(result_of(nope, 3), -1);
}

TEST(crafting_mirrored_axe)
{
    uint16_t pl = (uint16_t)item_id("oak_planks"), st = (uint16_t)item_id("stick");
    uint16_t a[9] = {pl, pl, 0, pl, st, 0, 0, st, 0};
    uint16_t b[9] = {0, pl, pl, 0, st, pl, 0, st, 0};
    CHECK_EQ_INT(result_of(a, 3), item_id("wooden_axe"));
    CHECK_EQ_INT(result_of(b, 3), item_id("wooden_axe"));
}

struct rig {
    struct inv_slot inv[46], table[10], carried;
    struct win_drag drag;
    struct win_menu m;
};

static void rig_init(struct rig *g, enum win_kind kind)
{
    memset(g, 0, sizeof *g);
    g->m.kind = kind;
    g->m.inv = g->inv;
    g->m.table = g->table;
    g->m.carried = &g->carried;
    g->m.drag = &g->drag;
}

static int total(struct rig *g, int item)
{
    int n = g->carried.item == item ? g->carried.count : 0;
    for (int i = 0; i < 46; i++)
        if (g->inv[i].item == item) n += g->inv[i].count;
    for (int i = 0; i < 10; i++)
        if (g->table[i].item == item) n += g->table[i].count;
    return n;
}

TEST(window_pickup_put_half)
{
    struct rig g;
    rig_init(&g, WIN_PLAYER);
    int dirt = item_id("dirt");
    g.inv[36] = (struct inv_slot){(int16_t)dirt, 9, 0, {0}};
    CHECK_EQ_INT(win_click(&g.m, 36, 1, WIN_PICKUP), WIN_OK); /* right: half (5) */
    CHECK_EQ_INT(g.carried.count, 5);
    CHECK_EQ_INT(g.inv[36].count, 4);
    CHECK_EQ_INT(win_click(&g.m, 9, 1, WIN_PICKUP), WIN_OK); /* right: put one */
    CHECK_EQ_INT(g.inv[9].count, 1);
    CHECK_EQ_INT(win_click(&g.m, 9, 0, WIN_PICKUP), WIN_OK); /* left: put all */
    CHECK_EQ_INT(g.inv[9].count, 5);
    CHECK_EQ_INT(g.carried.count, 0);
    CHECK_EQ_INT(total(&g, dirt), 9);
    /* Armour slots take only armour of their kind. */
    CHECK_EQ_INT(win_click(&g.m, 9, 0, WIN_PICKUP), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, 5, 0, WIN_PICKUP), WIN_OK);
    CHECK_EQ_INT(g.inv[5].count, 0);
    CHECK_EQ_INT(g.carried.count, 5);
    /* Nothing can be put into the result. */
    CHECK_EQ_INT(win_click(&g.m, 0, 0, WIN_PICKUP), WIN_OK);
    CHECK_EQ_INT(g.inv[0].count, 0);
    CHECK_EQ_INT(total(&g, dirt), 9);
}

TEST(window_crafting_result)
{
    struct rig g;
    rig_init(&g, WIN_PLAYER);
    int log = item_id("oak_log"), pl = item_id("oak_planks");
    g.inv[36] = (struct inv_slot){(int16_t)log, 3, 0, {0}};
    CHECK_EQ_INT(win_click(&g.m, 36, 0, WIN_PICKUP), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, 1, 0, WIN_PICKUP), WIN_OK); /* 3 logs in the grid */
    CHECK_EQ_INT(g.inv[0].item, pl);
    CHECK_EQ_INT(g.inv[0].count, 4);
    CHECK_EQ_INT(win_click(&g.m, 0, 0, WIN_PICKUP), WIN_OK); /* take one craft */
    CHECK_EQ_INT(g.carried.count, 4);
    CHECK_EQ_INT(g.inv[1].count, 2);
    CHECK_EQ_INT(g.inv[0].count, 4);                         /* recomputed */
    CHECK_EQ_INT(win_click(&g.m, 0, 0, WIN_PICKUP), WIN_OK); /* onto the cursor: 8 */
    CHECK_EQ_INT(g.carried.count, 8);
    CHECK_EQ_INT(win_click(&g.m, 9, 0, WIN_PICKUP), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, 0, 0, WIN_QUICK_MOVE), WIN_OK); /* shift: the last log */
    CHECK_EQ_INT(g.inv[1].count, 0);
    CHECK_EQ_INT(g.inv[0].count, 0);
    CHECK_EQ_INT(total(&g, pl), 12);
    CHECK_EQ_INT(total(&g, log), 0);
    CHECK_EQ_INT(g.m.nthrown, 0);
}

TEST(window_shift_click_crafts_as_many_as_fit)
{
    struct rig g;
    rig_init(&g, WIN_CRAFTING);
    int pl = item_id("oak_planks"), st = item_id("stick");
    g.table[2] = (struct inv_slot){(int16_t)pl, 10, 0, {0}};
    g.table[5] = (struct inv_slot){(int16_t)pl, 7, 0, {0}};
    win_update_result(&g.m);
    CHECK_EQ_INT(g.table[0].item, st);
    CHECK_EQ_INT(win_click(&g.m, 0, 0, WIN_QUICK_MOVE), WIN_OK);
    CHECK_EQ_INT(total(&g, st), 28); /* 7 crafts of 4 */
    CHECK_EQ_INT(g.table[2].count, 3);
    CHECK_EQ_INT(g.table[5].count, 0);
    CHECK_EQ_INT(g.table[0].item, item_id("oak_button")); /* 3 planks left in one cell */
    /* from the end of the inventory: the last hotbar slot (window 45 = inv 44) */
    CHECK_EQ_INT(g.inv[44].item, st);
}

TEST(window_drag_swap_throw_and_bad_clicks)
{
    struct rig g;
    rig_init(&g, WIN_PLAYER);
    int dirt = item_id("dirt");
    g.carried = (struct inv_slot){(int16_t)dirt, 10, 0, {0}};
    CHECK_EQ_INT(win_click(&g.m, WIN_OUTSIDE, 0, WIN_QUICK_CRAFT), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, 9, 1, WIN_QUICK_CRAFT), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, 10, 1, WIN_QUICK_CRAFT), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, 11, 1, WIN_QUICK_CRAFT), WIN_OK);
    CHECK_EQ_INT(win_click(&g.m, WIN_OUTSIDE, 2, WIN_QUICK_CRAFT), WIN_OK);
    CHECK_EQ_INT(g.inv[9].count, 3);
    CHECK_EQ_INT(g.inv[11].count, 3);
    CHECK_EQ_INT(g.carried.count, 1);
    CHECK_EQ_INT(total(&g, dirt), 10);
    /* number key 2 on slot 9: swaps with hotbar slot 2 (window 38) */
    CHECK_EQ_INT(win_click(&g.m, 9, 2, WIN_SWAP), WIN_OK);
    CHECK_EQ_INT(g.inv[38].count, 3);
    CHECK_EQ_INT(g.inv[9].count, 0);
    /* Q on a slot throws one, with the cursor empty only */
    CHECK_EQ_INT(win_click(&g.m, 38, 0, WIN_THROW), WIN_OK);
    CHECK_EQ_INT(g.m.nthrown, 0);
    g.inv[12] = g.carried, g.carried = (struct inv_slot){0};
    CHECK_EQ_INT(win_click(&g.m, 38, 0, WIN_THROW), WIN_OK);
    CHECK_EQ_INT(g.m.nthrown, 1);
    CHECK_EQ_INT(g.m.thrown[0].count, 1);
    CHECK_EQ_INT(g.inv[38].count, 2);
    /* Bad clicks change nothing. */
    struct inv_slot before[46];
    memcpy(before, g.inv, sizeof before);
    CHECK_EQ_INT(win_click(&g.m, -5, 0, WIN_PICKUP), WIN_E_SLOT);
    CHECK_EQ_INT(win_click(&g.m, 46, 0, WIN_PICKUP), WIN_E_SLOT);
    CHECK_EQ_INT(win_click(&g.m, 9999, 0, WIN_QUICK_MOVE), WIN_E_SLOT);
    CHECK_EQ_INT(win_click(&g.m, 9, 0, 7), WIN_E_MODE);
    CHECK_EQ_INT(win_click(&g.m, 9, 9, WIN_SWAP), WIN_E_BUTTON);
    CHECK_EQ_INT(win_click(&g.m, 9, 2, WIN_PICKUP), WIN_E_BUTTON);
    CHECK_EQ_INT(win_click(&g.m, 38, 0, WIN_CLONE), WIN_OK); /* survival: no clone */
    CHECK_EQ_INT(g.carried.count, 0);
    CHECK(memcmp(before, g.inv, sizeof before) == 0);
}

TEST(window_place_back)
{
    struct inv_slot inv[46];
    memset(inv, 0, sizeof inv);
    int dirt = item_id("dirt");
    inv[9] = (struct inv_slot){(int16_t)dirt, 60, 0, {0}};
    struct inv_slot rest = win_place_back(inv, 0, (struct inv_slot){(int16_t)dirt, 10, 0, {0}});
    CHECK_EQ_INT(rest.count, 0);
    CHECK_EQ_INT(inv[9].count, 64);
    CHECK_EQ_INT(inv[36].count, 6); /* then the first empty: hotbar first */
}
