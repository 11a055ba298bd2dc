/*
 * window.c — what a click in a container window does, as vanilla 1.20.1's
 * AbstractContainerMenu.doClick, for the two windows mcserv has: the
 * player's own (InventoryMenu: 0 craft result, 1-4 2x2 grid, 5-8 armour
 * head..feet, 9-35 main, 36-44 hotbar, 45 off hand), a crafting table
 * (CraftingMenu: 0 result, 1-9 3x3 grid, 10-36 main, 37-45 hotbar) and a
 * container (ChestMenu, n = 27 or 54: 0..n-1 the container, n..n+26 main,
 * n+27..n+35 hotbar; no result slot).
 *
 * Modes (button meanings as the client sends them):
 *   0 pickup      left (0): take / put / swap the whole stack; right (1):
 *                 take half / put one. Slot -999: throw the carried stack
 *                 (left) or one of it (right).
 *   1 quick move  shift-click: vanilla's quickMoveStack ranges (below),
 *                 repeated while the slot still holds the same item (so a
 *                 shift-click on the result crafts as many as fit).
 *   2 swap        number keys 0-8 with the hotbar slot, 40 with the off hand.
 *   3 clone       middle click, creative only, with an empty cursor: a full
 *                 stack of the slot's item on the cursor.
 *   4 throw       Q (0: one) / Ctrl+Q (1: the stack) from a slot, cursor empty.
 *   5 quick craft drag: button & 3 = stage (0 start, 1 add slot, 2 end),
 *                 button >> 2 = type (0 split evenly, 1 one each, 2 full
 *                 stacks in creative).
 *   6 pickup all  double click: gather the carried item from every slot
 *                 (partial stacks first), never from the result.
 * Quick-move ranges (window slots): player window: result -> 9-44 from the
 * end; grid and armour -> 9-44; armour item -> its armour slot if empty;
 * main -> hotbar; hotbar -> main; off hand -> 9-44. Crafting table: result
 * -> 10-45 from the end; inventory -> grid, then main <-> hotbar; grid ->
 * 10-45. Container: container -> inventory from the end; inventory ->
 * container.
 * The result slot (vanilla ResultSlot): nothing can be put in; it is taken
 * whole or not at all, and taking it uses one of every grid item, after
 * which the result is recomputed (crafting.c). A quick move of the result
 * that only partly fits throws the rest, as vanilla does.
 *
 * Invariants:
 *  1. No click creates or destroys items, except clone and the creative
 *     drag (creative only) and crafting (ingredients -> result): what leaves
 *     a slot is on the cursor, in another slot, or in thrown[].
 *  2. Every stack in a slot or on the cursor has 1..max stack size items
 *     (1 in an armour slot), or is empty {0, 0, 0}.
 *  3. A click naming a slot, button or mode that does not exist changes
 *     nothing and returns an error (the caller logs it and resynchronises).
 *  4. The result slot always holds what the grid makes (win_update_result
 *     runs whenever a grid slot changes).
 */
#include "game/window.h"

#include <string.h>

#include "data/block_table.h"
#include "data/recipes.h"
#include "game/crafting.h"

static const struct inv_slot empty_slot = {0};

int win_max_stack(const struct inv_slot *s)
{
    if (s->item <= 0 || s->item >= ITEM_COUNT) return 64;
    if (s->damage > 0) return 1;
    int n = item_info[s->item].stack_size;
    return n < 1 ? 1 : n;
}

int win_slot_count(const struct win_menu *m)
{
    return m->kind == WIN_CONTAINER ? m->cont_n + 36 : 46;
}

struct inv_slot *win_slot(struct win_menu *m, int i)
{
    if (m->kind == WIN_CRAFTING) return i < 10 ? &m->table[i] : &m->inv[i - 1];
    if (m->kind == WIN_CONTAINER) return i < m->cont_n ? &m->cont[i] : &m->inv[i - m->cont_n + 9];
    return &m->inv[i];
}

/* Slot 0 is a crafting result (the player's window and the table's). */
static bool is_result(const struct win_menu *m, int i)
{
    return i == 0 && m->kind != WIN_CONTAINER;
}

static bool is_empty(const struct inv_slot *s)
{
    return s->count <= 0 || s->item <= 0;
}

static bool same_item(const struct inv_slot *a, const struct inv_slot *b)
{
    return a->item == b->item && a->damage == b->damage && ench_same(a->ench, b->ench);
}

static bool is_grid(const struct win_menu *m, int i)
{
    return m->kind != WIN_CONTAINER && i >= 1 && i <= (m->kind == WIN_CRAFTING ? 9 : 4);
}

static bool is_armour(const struct win_menu *m, int i)
{
    return m->kind == WIN_PLAYER && i >= 5 && i <= 8;
}

static bool may_place(const struct win_menu *m, int i, const struct inv_slot *s)
{
    if (is_result(m, i)) return false;
    if (is_armour(m, i))
        return s->item > 0 && s->item < ITEM_COUNT && item_equip_slot[s->item] == i;
    return true;
}

/* vanilla Slot.getMaxStackSize(stack) */
static int max_for(const struct win_menu *m, int i, const struct inv_slot *s)
{
    int n = win_max_stack(s);
    return is_armour(m, i) && n > 1 ? 1 : n;
}

static void normalise(struct inv_slot *s)
{
    if (s->count <= 0 || s->item <= 0) *s = empty_slot;
}

void win_update_result(struct win_menu *m)
{
    int w = m->kind == WIN_CRAFTING ? 3 : 2;
    uint16_t grid[9];
    for (int i = 0; i < w * w; i++) {
        const struct inv_slot *s = win_slot(m, 1 + i);
        grid[i] = is_empty(s) ? 0 : (uint16_t)s->item;
    }
    int r = crafting_match(grid, w, w);
    struct inv_slot *res = win_slot(m, 0);
    if (r < 0)
        *res = empty_slot;
    else
        *res = (struct inv_slot){(int16_t)recipes[r].result, (int8_t)recipes[r].count, 0, {0}};
}

static void touched(struct win_menu *m, int i)
{
    normalise(win_slot(m, i));
    if (is_grid(m, i)) win_update_result(m);
}

static void throw_stack(struct win_menu *m, struct inv_slot s)
{
    if (is_empty(&s)) return;
    for (int i = 0; i < m->nthrown; i++) /* merge: never runs out of room */
        if (same_item(&m->thrown[i], &s) && m->thrown[i].count + s.count <= 64) {
            m->thrown[i].count = (int8_t)(m->thrown[i].count + s.count);
            return;
        }
    if (m->nthrown < WIN_THROWN_MAX) m->thrown[m->nthrown++] = s;
}

/* ResultSlot.onTake: one of every grid item is used up. */
static void consume_grid(struct win_menu *m)
{
    int n = m->kind == WIN_CRAFTING ? 9 : 4;
    for (int i = 1; i <= n; i++) {
        struct inv_slot *s = win_slot(m, i);
        if (!is_empty(s)) s->count--;
        normalise(s);
    }
    win_update_result(m);
}

/* vanilla Slot.tryRemove(n, room) + onTake. The result slot gives all of
 * its stack (if it fits in room) or nothing. */
static struct inv_slot try_remove(struct win_menu *m, int i, int n, int room)
{
    struct inv_slot *s = win_slot(m, i), out = empty_slot;
    if (is_empty(s)) return out;
    if (is_result(m, i)) {
        if (room < s->count) return out;
        out = *s;
        *s = empty_slot;
        consume_grid(m);
        return out;
    }
    if (n > room) n = room;
    if (n > s->count) n = s->count;
    if (n <= 0) return out;
    out = *s;
    out.count = (int8_t)n;
    s->count = (int8_t)(s->count - n);
    touched(m, i);
    return out;
}

/* vanilla Slot.safeInsert(stack, n): puts up to n of *st into slot i. */
static void safe_insert(struct win_menu *m, int i, struct inv_slot *st, int n)
{
    struct inv_slot *s = win_slot(m, i);
    if (is_empty(st) || !may_place(m, i, st)) return;
    if (!is_empty(s) && !same_item(s, st)) return;
    int have = is_empty(s) ? 0 : s->count;
    int k = n < st->count ? n : st->count;
    if (k > max_for(m, i, st) - have) k = max_for(m, i, st) - have;
    if (k <= 0) return;
    if (is_empty(s)) {
        *s = *st;
        s->count = 0;
    }
    s->count = (int8_t)(s->count + k);
    st->count = (int8_t)(st->count - k);
    normalise(st);
    touched(m, i);
}

/* vanilla moveItemStackTo: window slots [start, end). */
static bool move_to(struct win_menu *m, struct inv_slot *st, int start, int end, bool reverse)
{
    bool moved = false;
    if (win_max_stack(st) > 1)
        for (int k = 0; k < end - start && !is_empty(st); k++) {
            int i = reverse ? end - 1 - k : start + k;
            struct inv_slot *s = win_slot(m, i);
            if (is_empty(s) || !same_item(s, st)) continue;
            int max = max_for(m, i, st), j = s->count + st->count;
            if (j <= max) {
                s->count = (int8_t)j;
                st->count = 0;
                moved = true;
            } else if (s->count < max) {
                st->count = (int8_t)(st->count - (max - s->count));
                s->count = (int8_t)max;
                moved = true;
            }
            touched(m, i);
        }
    normalise(st);
    if (!is_empty(st))
        for (int k = 0; k < end - start; k++) {
            int i = reverse ? end - 1 - k : start + k;
            struct inv_slot *s = win_slot(m, i);
            if (!is_empty(s) || !may_place(m, i, st)) continue;
            int n = st->count < max_for(m, i, st) ? st->count : max_for(m, i, st);
            *s = *st;
            s->count = (int8_t)n;
            st->count = (int8_t)(st->count - n);
            normalise(st);
            touched(m, i);
            moved = true;
            break;
        }
    return moved;
}

/* vanilla quickMoveStack: the moved stack as it was (empty: nothing moved). */
static struct inv_slot quick_move_stack(struct win_menu *m, int idx)
{
    struct inv_slot *s = win_slot(m, idx);
    if (is_empty(s)) return empty_slot;
    struct inv_slot orig = *s, st = *s;
    bool ok;
    int n = m->cont_n;
    if (m->kind == WIN_CONTAINER) {
        ok = idx < n ? move_to(m, &st, n, n + 36, true) : move_to(m, &st, 0, n, false);
    } else if (m->kind == WIN_CRAFTING) {
        if (idx == 0)
            ok = move_to(m, &st, 10, 46, true);
        else if (idx >= 10)
            ok = move_to(m, &st, 1, 10, false) ||
                 (idx < 37 ? move_to(m, &st, 37, 46, false) : move_to(m, &st, 10, 37, false));
        else
            ok = move_to(m, &st, 10, 46, false);
    } else {
        int eq = st.item > 0 && st.item < ITEM_COUNT ? item_equip_slot[st.item] : 0;
        if (idx == 0)
            ok = move_to(m, &st, 9, 45, true);
        else if (idx >= 1 && idx < 9)
            ok = move_to(m, &st, 9, 45, false);
        else if (eq && is_empty(win_slot(m, eq)))
            ok = move_to(m, &st, eq, eq + 1, false);
        else if (idx >= 9 && idx < 36)
            ok = move_to(m, &st, 36, 45, false);
        else if (idx >= 36 && idx < 45)
            ok = move_to(m, &st, 9, 36, false);
        else
            ok = move_to(m, &st, 9, 45, false);
    }
    if (!ok) return empty_slot;
    if (is_result(m, idx)) { /* the result: taken (crafted) whole, the rest thrown */
        *s = empty_slot;
        consume_grid(m);
        throw_stack(m, st);
        return orig;
    }
    *s = st;
    touched(m, idx);
    if (st.count == orig.count && !is_empty(&st)) return empty_slot;
    return orig;
}

static bool can_quick_replace(const struct inv_slot *s, const struct inv_slot *st)
{
    return is_empty(s) || (same_item(s, st) && s->count <= win_max_stack(st));
}

static void reset_drag(struct win_menu *m)
{
    m->drag->status = 0;
    m->drag->slots = 0;
    m->drag->slots_hi = 0;
}

static int drag_count(const struct win_drag *d)
{
    return __builtin_popcountll(d->slots) + __builtin_popcountll(d->slots_hi);
}

static bool drag_has(const struct win_drag *d, int i)
{
    return i < 64 ? (d->slots >> i) & 1 : (d->slots_hi >> (i - 64)) & 1;
}

static void drag_add(struct win_drag *d, int i)
{
    if (i < 64)
        d->slots |= 1ull << i;
    else
        d->slots_hi |= 1ull << (i - 64);
}

static int quick_craft(struct win_menu *m, int slot, int button)
{
    struct win_drag *d = m->drag;
    int prev = d->status, stage = button & 3, type = (button >> 2) & 3;
    struct inv_slot *c = m->carried;
    if (stage == 1 && (slot < 0 || slot >= win_slot_count(m))) return WIN_E_SLOT;
    if (!((prev == 1 && stage == 2) || prev == stage) || is_empty(c)) {
        reset_drag(m);
        return WIN_OK;
    }
    if (stage == 0) {
        if (type == 0 || type == 1 || (type == 2 && m->creative)) {
            d->status = 1;
            d->type = (uint8_t)type;
            d->slots = d->slots_hi = 0;
        } else {
            reset_drag(m);
        }
        return WIN_OK;
    }
    int n = drag_count(d);
    if (stage == 1) {
        struct inv_slot *s = win_slot(m, slot);
        if (!is_result(m, slot) && can_quick_replace(s, c) && may_place(m, slot, c) &&
            (d->type == 2 || c->count > n))
            drag_add(d, slot);
        return WIN_OK;
    }
    /* stage 2: spread */
    struct win_drag set = *d;
    uint8_t dtype = d->type;
    reset_drag(m);
    if (n == 0) return WIN_OK;
    if (n == 1) {
        int only = set.slots ? __builtin_ctzll(set.slots) : 64 + __builtin_ctzll(set.slots_hi);
        return dtype > 1 ? WIN_OK : win_click(m, only, dtype, WIN_PICKUP);
    }
    struct inv_slot proto = *c;
    int left = c->count;
    for (int i = 0; i < win_slot_count(m); i++) {
        if (!drag_has(&set, i)) continue;
        struct inv_slot *s = win_slot(m, i);
        if (!can_quick_replace(s, &proto) || !may_place(m, i, &proto) ||
            (dtype != 2 && proto.count < n))
            continue;
        int have = is_empty(s) ? 0 : s->count;
        int cap = max_for(m, i, &proto);
        int each = dtype == 0 ? proto.count / n : dtype == 1 ? 1 : win_max_stack(&proto);
        int put = each + have < cap ? each + have : cap;
        left -= put - have;
        *s = proto;
        s->count = (int8_t)put;
        touched(m, i);
    }
    c->count = (int8_t)(left < 0 ? 0 : left);
    normalise(c);
    return WIN_OK;
}

static int pickup(struct win_menu *m, int slot, int button)
{
    struct inv_slot *c = m->carried;
    bool primary = button == 0;
    if (slot == WIN_OUTSIDE) {
        if (is_empty(c)) return WIN_OK;
        if (primary) {
            throw_stack(m, *c);
            *c = empty_slot;
        } else {
            struct inv_slot one = *c;
            one.count = 1;
            throw_stack(m, one);
            c->count--;
            normalise(c);
        }
        return WIN_OK;
    }
    if (slot < 0) return WIN_OK;
    struct inv_slot *s = win_slot(m, slot);
    if (is_empty(s)) {
        if (!is_empty(c)) safe_insert(m, slot, c, primary ? c->count : 1);
    } else if (is_empty(c)) {
        int n = primary ? s->count : (s->count + 1) / 2;
        *c = try_remove(m, slot, n, 127);
    } else if (may_place(m, slot, c)) {
        if (same_item(s, c)) {
            safe_insert(m, slot, c, primary ? c->count : 1);
        } else if (c->count <= max_for(m, slot, c)) {
            struct inv_slot t = *s;
            *s = *c;
            *c = t;
            touched(m, slot);
        }
    } else if (same_item(s, c)) {
        struct inv_slot r = try_remove(m, slot, s->count, win_max_stack(c) - c->count);
        c->count = (int8_t)(c->count + r.count);
    }
    return WIN_OK;
}

static int swap(struct win_menu *m, int slot, int button)
{
    if (!((button >= 0 && button < 9) || button == 40)) return WIN_E_BUTTON;
    if (slot < 0) return WIN_E_SLOT;
    struct inv_slot *hot = &m->inv[button == 40 ? 45 : 36 + button];
    struct inv_slot *s = win_slot(m, slot);
    if (hot == s) return WIN_OK;
    struct inv_slot a = *hot, b = *s;
    if (is_empty(&a) && is_empty(&b)) return WIN_OK;
    if (is_empty(&a)) {
        if (is_result(m, slot))
            *hot = try_remove(m, 0, b.count, 64);
        else {
            *hot = b;
            *s = empty_slot;
            touched(m, slot);
        }
    } else if (is_empty(&b)) {
        if (!may_place(m, slot, &a)) return WIN_OK;
        int cap = max_for(m, slot, &a);
        *s = a;
        if (a.count > cap) {
            s->count = (int8_t)cap;
            hot->count = (int8_t)(a.count - cap);
        } else {
            *hot = empty_slot;
        }
        touched(m, slot);
    } else if (!is_result(m, slot) && may_place(m, slot, &a)) {
        int cap = max_for(m, slot, &a);
        if (a.count > cap) {
            *s = a;
            s->count = (int8_t)cap;
            hot->count = (int8_t)(a.count - cap);
            touched(m, slot);
            struct inv_slot rest = win_place_back(m->inv, button == 40 ? 0 : button, b);
            throw_stack(m, rest);
        } else {
            *hot = b;
            *s = a;
            touched(m, slot);
        }
    }
    return WIN_OK;
}

static int pickup_all(struct win_menu *m, int slot, int button)
{
    struct inv_slot *c = m->carried;
    if (slot < 0) return WIN_OK;
    struct inv_slot *s = win_slot(m, slot);
    if (is_empty(c) || !(is_empty(s) || is_result(m, slot))) return WIN_OK;
    int n = win_slot_count(m), step = button == 0 ? 1 : -1;
    for (int pass = 0; pass < 2; pass++)
        for (int k = button == 0 ? 0 : n - 1; k >= 0 && k < n && c->count < win_max_stack(c);
             k += step) {
            struct inv_slot *o = win_slot(m, k);
            if (is_result(m, k) || is_empty(o) || !can_quick_replace(o, c)) continue;
            if (pass == 0 && o->count == win_max_stack(o)) continue;
            struct inv_slot r = try_remove(m, k, o->count, win_max_stack(c) - c->count);
            c->count = (int8_t)(c->count + r.count);
        }
    return WIN_OK;
}

int win_click(struct win_menu *m, int slot, int button, int mode)
{
    int n = win_slot_count(m);
    if (!(slot == WIN_OUTSIDE || slot == -1 || (slot >= 0 && slot < n))) return WIN_E_SLOT;
    if (mode < 0 || mode > WIN_PICKUP_ALL) return WIN_E_MODE;
    if (mode == WIN_QUICK_CRAFT) return quick_craft(m, slot, button);
    if (m->drag->status != 0) {
        reset_drag(m);
        return WIN_OK;
    }
    switch (mode) {
    case WIN_PICKUP:
        if (button != 0 && button != 1) return WIN_E_BUTTON;
        return pickup(m, slot, button);
    case WIN_QUICK_MOVE:
        if (button != 0 && button != 1) return WIN_E_BUTTON;
        if (slot < 0) return WIN_OK;
        {
            struct inv_slot st = quick_move_stack(m, slot);
            for (int guard = 0; !is_empty(&st) && guard < 64 &&
                                win_slot(m, slot)->item == st.item && !is_empty(win_slot(m, slot));
                 guard++)
                st = quick_move_stack(m, slot);
        }
        return WIN_OK;
    case WIN_SWAP: return swap(m, slot, button);
    case WIN_CLONE:
        if (m->creative && is_empty(m->carried) && slot >= 0 && !is_empty(win_slot(m, slot))) {
            *m->carried = *win_slot(m, slot);
            m->carried->count = (int8_t)win_max_stack(m->carried);
        }
        return WIN_OK;
    case WIN_THROW:
        if (is_empty(m->carried) && slot >= 0) {
            struct inv_slot *s = win_slot(m, slot);
            struct inv_slot t = try_remove(m, slot, button == 0 ? 1 : s->count, 127);
            throw_stack(m, t);
        }
        return WIN_OK;
    case WIN_PICKUP_ALL: return pickup_all(m, slot, button);
    default: return WIN_E_MODE;
    }
}

struct inv_slot win_place_back(struct inv_slot *inv, int selected, struct inv_slot s)
{
    if (selected < 0 || selected > 8) selected = 0;
    while (!is_empty(&s)) {
        int max = win_max_stack(&s), at = -1;
        int order[38];
        int k = 0;
        order[k++] = 36 + selected;
        order[k++] = 45;
        for (int i = 0; i < 36; i++) order[k++] = i < 9 ? 36 + i : i;
        for (int i = 0; i < k && at < 0; i++) {
            const struct inv_slot *o = &inv[order[i]];
            if (!is_empty(o) && same_item(o, &s) && max > 1 && o->count < max) at = order[i];
        }
        for (int i = 2; i < k && at < 0; i++)
            if (is_empty(&inv[order[i]])) at = order[i];
        if (at < 0) return s;
        struct inv_slot *o = &inv[at];
        if (is_empty(o)) {
            *o = s;
            o->count = 0;
        }
        int put = max - o->count < s.count ? max - o->count : s.count;
        o->count = (int8_t)(o->count + put);
        s.count = (int8_t)(s.count - put);
    }
    return empty_slot;
}
