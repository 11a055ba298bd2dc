/*
 * test_window.c — random clicks on the click engine (game/window.c) keep
 * its invariants: in survival no item is created or destroyed (what leaves
 * the slots is on the cursor or thrown), every stack stays within 1..its
 * max stack size, and nothing is ever put into the result slot by hand.
 * Slots, buttons and modes are drawn from well outside the valid ranges.
 * The same for a double chest's window (54 container slots: drags past
 * slot 63), and a chest's shift-click ranges.
 */
#include <string.h>

#include "data/block_table.h"
#include "game/window.h"
#include "test.h"

static int item_id(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

static int count_of(const struct inv_slot *s, int n, int item)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        if (s[i].count > 0 && s[i].item == item) t += s[i].count;
    return t;
}

static bool stacks_ok(const struct inv_slot *s, int n)
{
    for (int i = 0; i < n; i++) {
        if (s[i].count == 0 && s[i].item == 0) continue;
        if (s[i].count < 1 || s[i].count > win_max_stack(&s[i]) || s[i].item <= 0) return false;
    }
    return true;
}

TEST(window_random_clicks_conserve_items)
{
    /* Dirt, cobblestone and a worn sword make nothing in a 2x2 grid. */
    int dirt = item_id("dirt"), cobble = item_id("cobblestone"), sword = item_id("iron_sword");
    for (int kind = 0; kind < 3; kind++) {
        struct inv_slot inv[46], table[10], cont[54], carried = {0};
        struct win_drag drag = {0};
        memset(inv, 0, sizeof inv);
        memset(table, 0, sizeof table);
        memset(cont, 0, sizeof cont);
        if (kind == 2) cont[50] = (struct inv_slot){(int16_t)cobble, 3, 0, {0}};
        inv[36] = (struct inv_slot){(int16_t)dirt, 64, 0, {0}};
        inv[9] = (struct inv_slot){(int16_t)dirt, 30, 0, {0}};
        inv[20] = (struct inv_slot){(int16_t)cobble, 17, 0, {0}};
        inv[40] = (struct inv_slot){(int16_t)sword, 1, 7, {0}};
        int want_dirt = 94, want_cobble = kind == 2 ? 20 : 17;
        int thrown_dirt = 0, thrown_cobble = 0, thrown_sword = 0;
        struct win_menu m = {.kind = kind == 2 ? WIN_CONTAINER
                                     : kind    ? WIN_CRAFTING
                                               : WIN_PLAYER,
                             .inv = inv,
                             .table = table,
                             .cont = cont,
                             .cont_n = 54,
                             .carried = &carried,
                             .drag = &drag};
        int span = win_slot_count(&m) + 2;
        for (int k = 0; k < 200000; k++) {
            int slot = rnd(8) == 0 ? (int)rnd(20000) - 10000 : (int)rnd((uint32_t)span) - 1;
            if (rnd(10) == 0) slot = WIN_OUTSIDE;
            int button = rnd(6) == 0 ? (int)rnd(256) - 128 : (int)rnd(11);
            int mode = rnd(10) == 0 ? (int)rnd(20) - 5 : (int)rnd(7);
            if (rnd(4) == 0) mode = WIN_QUICK_CRAFT, button = (int)rnd(3) | (int)rnd(3) << 2;
            win_click(&m, slot, button, mode);
            for (int i = 0; i < m.nthrown; i++) {
                if (m.thrown[i].item == dirt) thrown_dirt += m.thrown[i].count;
                if (m.thrown[i].item == cobble) thrown_cobble += m.thrown[i].count;
                if (m.thrown[i].item == sword) thrown_sword += m.thrown[i].count;
            }
            m.nthrown = 0;
            int have_dirt = count_of(inv, 46, dirt) + count_of(table, 10, dirt) +
                            count_of(cont, 54, dirt) + count_of(&carried, 1, dirt) + thrown_dirt;
            int have_cobble = count_of(inv, 46, cobble) + count_of(table, 10, cobble) +
                              count_of(cont, 54, cobble) + count_of(&carried, 1, cobble) +
                              thrown_cobble;
            int have_sword = count_of(inv, 46, sword) + count_of(table, 10, sword) +
                             count_of(cont, 54, sword) + count_of(&carried, 1, sword) +
                             thrown_sword;
            if (have_dirt != want_dirt || have_cobble != want_cobble || have_sword != 1 ||
                !stacks_ok(inv, 46) || !stacks_ok(table, 10) || !stacks_ok(cont, 54) ||
                !stacks_ok(&carried, 1)) {
                CHECK_EQ_INT(have_dirt, want_dirt);
                CHECK_EQ_INT(have_cobble, want_cobble);
                CHECK_EQ_INT(have_sword, 1);
                CHECK(stacks_ok(inv, 46) && stacks_ok(table, 10) && stacks_ok(&carried, 1));
                return;
            }
            /* the sword keeps its wear wherever it goes */
            for (int i = 0; i < 46; i++)
                if (inv[i].item == sword && inv[i].count) CHECK_EQ_INT(inv[i].damage, 7);
            /* armour slots hold nothing of this */
            for (int i = 5; i <= 8 && kind == 0; i++) CHECK_EQ_INT(inv[i].count, 0);
            /* refill what was thrown now and then, so the run keeps going */
            if (thrown_dirt > 40 && inv[44].count == 0) {
                inv[44] = (struct inv_slot){(int16_t)dirt, 40, 0, {0}};
                thrown_dirt -= 40;
            }
        }
    }
}

TEST(window_chest_shift_click_ranges)
{
    int cobble = item_id("cobblestone"), dirt = item_id("dirt");
    struct inv_slot inv[46], cont[27], carried = {0};
    struct win_drag drag = {0};
    memset(inv, 0, sizeof inv);
    memset(cont, 0, sizeof cont);
    struct win_menu m = {.kind = WIN_CONTAINER,
                         .inv = inv,
                         .cont = cont,
                         .cont_n = 27,
                         .carried = &carried,
                         .drag = &drag};
    CHECK_EQ_INT(win_slot_count(&m), 63);
    CHECK(win_slot(&m, 27) == &inv[9]);  /* main inventory first */
    CHECK(win_slot(&m, 54) == &inv[36]); /* then the hotbar */
    inv[36] = (struct inv_slot){(int16_t)cobble, 5, 0, {0}};
    /* hotbar -> the container's first free slot */
    CHECK_EQ_INT(win_click(&m, 54, 0, WIN_QUICK_MOVE), WIN_OK);
    CHECK_EQ_INT(cont[0].item, cobble);
    CHECK_EQ_INT(cont[0].count, 5);
    CHECK_EQ_INT(inv[36].count, 0);
    /* container -> the inventory from the end: the last hotbar slot */
    CHECK_EQ_INT(win_click(&m, 0, 0, WIN_QUICK_MOVE), WIN_OK);
    CHECK_EQ_INT(cont[0].count, 0);
    CHECK_EQ_INT(inv[44].item, cobble);
    CHECK_EQ_INT(inv[44].count, 5);
    /* slot 0 is an ordinary slot: something can be put there */
    carried = (struct inv_slot){(int16_t)dirt, 3, 0, {0}};
    CHECK_EQ_INT(win_click(&m, 0, 0, WIN_PICKUP), WIN_OK);
    CHECK_EQ_INT(cont[0].item, dirt);
    CHECK_EQ_INT(carried.count, 0);
    CHECK_EQ_INT(win_click(&m, 63, 0, WIN_PICKUP), WIN_E_SLOT);
}
