/*
 * inventory.c — the player's windows, server-authoritative, as vanilla
 * 1.20.1's ServerGamePacketListenerImpl.handleContainerClick and
 * AbstractContainerMenu's remote-slot synchronisation:
 *
 *   Click Container  window id, state id, slot, button, mode, the slots the
 *                    client thinks changed, the item it thinks it carries.
 *                    The click is applied by game/window.c on the server's
 *                    own slots; the client's slots and carried item are kept
 *                    only as "what the client believes" (remote[]). Then:
 *                    a stale state id -> Set Container Content (every slot
 *                    and the carried item); otherwise every slot where the
 *                    belief differs from the truth gets a Set Container Slot
 *                    (and the carried item one with window -1).
 *   Close Container  the crafting grid (the 2x2 or the table's) and the
 *                    carried item go back into the inventory; what does not
 *                    fit is thrown.
 *   tick             the table window closes when the table is gone or the
 *                    player is more than 8 blocks from its centre
 *                    (vanilla stillValid); the open window's changes made
 *                    by anything else (pickups, /give, tool wear) are sent.
 *
 *   window 0 (inventory) --Use Item On crafting_table--> window n (table)
 *        ^            \--Use Item On chest/barrel-----> window n (container,
 *        |                                              game/container.c)
 *        +---- Close Container / out of reach / broken ------+
 *
 * Invariants:
 *  1. Nothing a client sends is trusted: slot numbers out of range, unknown
 *     modes or buttons, and clicks for a window that is not open change
 *     nothing (refusals are logged, at most once a second per player) and
 *     are answered with the server's state.
 *  2. Every Set Container Slot / Content carries a fresh state id (the
 *     player window's is player.inventory_state, shared with /give and
 *     pickups; the table's is win.state).
 *  3. Item stacks leave the server only through item entities (items_throw),
 *     so closing, leaving and overflowing never lose or duplicate an item.
 */
#include "game/inventory.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/packet_ids.h"
#include "data/recipes.h"
#include "game/container.h"
#include "game/game.h"
#include "game/items.h"
#include "game/window.h"
#include "proto/nbt.h"
#include "proto/packets.h"

#define CHANGED_SLOTS_MAX  128  /* vanilla's limit on the changed-slots map */
#define CRAFTING_MENU_TYPE 11   /* minecraft:crafting in the 1.20.1 menu registry */
#define STILL_VALID_SQ     64.0 /* vanilla: within 8 blocks of the block's centre */
#define REFUSAL_LOG_MS     1000

static struct win_menu menu_of(player *p)
{
    struct win_menu m = {0};
    m.kind = p->win.open_id ? (enum win_kind)p->win.open_kind : WIN_PLAYER;
    m.inv = p->inventory;
    m.table = p->win.table;
    if (m.kind == WIN_CONTAINER) { /* the block entities' items, now (game/container.c) */
        container_load(p);
        m.cont = p->win.cont;
        m.cont_n = p->win.cont_n;
    }
    m.carried = &p->win.carried;
    m.drag = &p->win.drag;
    m.creative = p->gamemode == GM_CREATIVE;
    return m;
}

static int32_t next_state(player *p)
{
    int32_t *s = p->win.open_id ? &p->win.state : &p->inventory_state;
    *s = (*s + 1) & 0x7fff;
    return *s;
}

/* A slot on the wire: its wear as the Damage tag, its enchantments (game/enchant.h). */
static void wr_slot(buf_t *b, const struct inv_slot *s)
{
    ench_wr_slot(b, s->item, s->count, s->damage, s->ench);
}

int inventory_read_item(conn *c, rd_t *r, int32_t *item, int8_t *count)
{
    *item = 0;
    *count = 0;
    if (!rd_bool(r)) return 0;
    *item = rd_varint(r);
    *count = rd_i8(r);
    if (r->err) return 0;
    nbt_doc doc;
    long n = nbt_parse(r->p + r->pos, rd_left(r), true, &nbt_limits_network, &doc);
    if (n < 0) {
        char why[96];
        snprintf(why, sizeof why, "Invalid item data: %s", nbt_strerror(n));
        conn_kick(c, why);
        return -1;
    }
    nbt_doc_free(&doc);
    rd_skip(r, (size_t)n);
    return 1;
}

/* Reads a slot; the NBT is checked within the network limits and not kept
 * (the claim is only compared). Returns -1 after kicking on bad NBT. */
static int rd_slot(conn *c, rd_t *r, struct inv_slot *out)
{
    *out = (struct inv_slot){0};
    int32_t item;
    int8_t count;
    int rc = inventory_read_item(c, r, &item, &count);
    if (rc <= 0) return rc;
    if (item > 0 && item < ITEM_COUNT && count > 0) {
        out->item = (int16_t)item;
        out->count = count;
    }
    return 0;
}

static bool slot_eq(const struct inv_slot *a, const struct inv_slot *b)
{
    bool ea = a->item <= 0 || a->count <= 0, eb = b->item <= 0 || b->count <= 0;
    if (ea || eb) return ea == eb;
    return a->item == b->item && a->count == b->count && a->damage == b->damage &&
           ench_same(a->ench, b->ench);
}

static int32_t window_id(const player *p)
{
    return p->win.open_id;
}

/* vanilla broadcastFullState: Set Container Content with the carried item. */
static void send_all(conn *c)
{
    player *p = c->player;
    struct win_menu m = menu_of(p);
    int n = win_slot_count(&m);
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, PKT_PLAY_CB_WINDOW_ITEMS);
    wr_u8(&srv->pkt, (uint8_t)window_id(p));
    wr_varint(&srv->pkt, next_state(p));
    wr_varint(&srv->pkt, n);
    for (int i = 0; i < n; i++) {
        p->win.remote[i] = *win_slot(&m, i);
        wr_slot(&srv->pkt, &p->win.remote[i]);
    }
    p->win.remote_carried = p->win.carried;
    wr_slot(&srv->pkt, &p->win.carried);
    conn_send_pkt(c);
    p->win.synced = true;
}

static void send_slot(conn *c, int8_t window, int16_t slot, const struct inv_slot *s)
{
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, PKT_PLAY_CB_SET_SLOT);
    wr_u8(&srv->pkt, (uint8_t)window);
    wr_varint(&srv->pkt, next_state(c->player));
    wr_i16(&srv->pkt, slot);
    wr_slot(&srv->pkt, s);
    conn_send_pkt(c);
}

/* vanilla broadcastChanges: every slot the client has wrong, and the cursor. */
/* The crafting grid of the window (the result is slot 0): 2x2 or 3x3;
 * 0 when the window has none. */
static int grid_end(const struct win_menu *m)
{
    return m->kind == WIN_PLAYER ? 4 : m->kind == WIN_CRAFTING ? 9 : 0;
}

/* The slots that differ from what the client was last sent; `result`:
 * the crafting result too, changed or not. Vanilla's
 * CraftingMenu.slotChangedCraftingGrid sends the result after every change
 * of the grid, taking the result included; mineflayer (since 4.3x) waits
 * for it before its next click. */
static void send_changes_result(conn *c, bool result);

static void send_changes(conn *c)
{
    send_changes_result(c, false);
}

static void send_changes_result(conn *c, bool result)
{
    player *p = c->player;
    struct win_menu m = menu_of(p);
    int n = win_slot_count(&m);
    if (!p->win.synced) { /* after the join: the slots were just sent, without NBT */
        for (int i = 0; i < n; i++) {
            p->win.remote[i] = *win_slot(&m, i);
            p->win.remote[i].damage = 0; /* so a worn tool is sent again with its Damage */
            memset(p->win.remote[i].ench, 0,
                   sizeof p->win.remote[i].ench); /* and its enchantments */
        }
        p->win.remote_carried = p->win.carried;
        p->win.synced = true;
        return;
    }
    for (int i = 0; i < n; i++) {
        const struct inv_slot *s = win_slot(&m, i);
        if (slot_eq(s, &p->win.remote[i]) && !(result && i == 0)) continue;
        p->win.remote[i] = *s;
        send_slot(c, (int8_t)window_id(p), (int16_t)i, s);
    }
    if (!slot_eq(&p->win.carried, &p->win.remote_carried)) {
        p->win.remote_carried = p->win.carried;
        send_slot(c, -1, -1, &p->win.carried);
    }
}

/* True if the window or the cursor holds any of `item`. */
static bool holds(struct win_menu *m, int item)
{
    if (m->carried->count > 0 && m->carried->item == item) return true;
    for (int i = 0; i < win_slot_count(m); i++) {
        const struct inv_slot *s = win_slot(m, i);
        if (s->count > 0 && s->item == item) return true;
    }
    return false;
}

static void refused(player *p, const char *what, int slot, int button, int mode)
{
    p->win.refused++;
    int64_t now = srv->loop->now_ms;
    if (now - p->win.log_ms < REFUSAL_LOG_MS) return;
    log_info("%s: window click refused (%s; slot %d, button %d, mode %d; %u refusal(s) in the last "
             "second); resynchronised",
             p->name, what, slot, button, mode, p->win.refused);
    p->win.log_ms = now;
    p->win.refused = 0;
}

/* Vanilla's throw from a window or the hand: eye height - 0.3, pickup delay
 * 40 ticks, velocity along the look (game/items.c). */
static void throw_all(player *p, struct win_menu *m)
{
    for (int i = 0; i < m->nthrown; i++) items_throw(p, &m->thrown[i]);
    m->nthrown = 0;
}

static bool table_valid(const player *p)
{
    if (p->win.open_kind == WIN_CONTAINER) return container_valid(p);
    uint16_t st;
    if (world_get_block(&game.world, p->win.tx, p->win.ty, p->win.tz, &st) < 0 ||
        st != BLOCK_CRAFTING_TABLE)
        return false;
    double dx = p->win.tx + 0.5 - p->x, dy = p->win.ty + 0.5 - p->y, dz = p->win.tz + 0.5 - p->z;
    return dx * dx + dy * dy + dz * dz <= STILL_VALID_SQ;
}

/* vanilla clearContainer + removed(): the grid and the cursor back into
 * the inventory, the rest thrown. */
static void return_items(player *p)
{
    struct win_menu m = menu_of(p);
    int grid = m.kind == WIN_CRAFTING ? 9 : m.kind == WIN_CONTAINER ? 0 : 4;
    struct inv_slot back[10];
    int n = 0;
    if (p->win.carried.count > 0) back[n++] = p->win.carried;
    p->win.carried = (struct inv_slot){0};
    for (int i = 1; i <= grid; i++) {
        struct inv_slot *s = win_slot(&m, i);
        if (s->count > 0 && s->item > 0) back[n++] = *s;
        *s = (struct inv_slot){0};
    }
    if (m.kind != WIN_CONTAINER) *win_slot(&m, 0) = (struct inv_slot){0};
    p->win.drag = (struct win_drag){0};
    for (int i = 0; i < n; i++) {
        struct inv_slot rest = win_place_back(p->inventory, p->held_slot, back[i]);
        if (rest.count > 0) items_throw(p, &rest);
    }
}

/* doCloseContainer: the open window's items returned, back to window 0. */
static void close_window(conn *c)
{
    player *p = c->player;
    bool had_table = p->win.open_id != 0;
    bool had_container = had_table && p->win.open_kind == WIN_CONTAINER;
    return_items(p);
    if (had_table) {
        p->win.open_id = 0;
        p->win.open_kind = WIN_PLAYER;
        if (had_container) container_viewers_changed(p->win.tx, p->win.ty, p->win.tz);
        send_all(c); /* the inventory as window 0 (vanilla transferState) */
    } else {
        send_changes(c);
    }
}

void inventory_sb_window_click(conn *c, rd_t *r)
{
    player *p = c->player;
    int32_t win = rd_u8(r);
    int32_t state = rd_varint(r);
    int16_t slot = rd_i16(r);
    int8_t button = rd_i8(r);
    int32_t mode = rd_varint(r);
    int32_t n = rd_varint(r);
    if (r->err) return;
    if (n < 0 || n > CHANGED_SLOTS_MAX) {
        conn_kick(c, "Too many changed slots in a window click");
        return;
    }
    struct claim {
        int16_t slot;
        struct inv_slot s;
    } claims[CHANGED_SLOTS_MAX];
    for (int32_t i = 0; i < n; i++) {
        claims[i].slot = rd_i16(r);
        if (rd_slot(c, r, &claims[i].s) < 0) return;
    }
    struct inv_slot carried;
    if (rd_slot(c, r, &carried) < 0 || r->err) return;
    p->last_action_ms = srv->loop->now_ms;
    if (win != window_id(p)) return; /* vanilla: a click for another window is ignored */
    if (p->gamemode == GM_SPECTATOR) {
        send_all(c);
        return;
    }
    if (p->win.open_id && !table_valid(p)) return; /* closed at the next tick */
    int32_t have = p->win.open_id ? p->win.state : p->inventory_state;
    bool stale = state != have;
    struct win_menu m = menu_of(p);
    int grid = grid_end(&m);
    struct inv_slot before[10];
    for (int i = 0; i <= grid && grid; i++) before[i] = *win_slot(&m, i);
    int rc = win_click(&m, slot, button, mode);
    bool grid_changed = false;
    for (int i = 0; i <= grid && grid; i++) grid_changed |= !slot_eq(&before[i], win_slot(&m, i));
    if (m.kind == WIN_CONTAINER) container_store(p);
    throw_all(p, &m);
    if (rc < 0) {
        refused(p,
                rc == WIN_E_SLOT     ? "no such slot"
                : rc == WIN_E_BUTTON ? "no such button"
                                     : "no such mode",
                slot, button, mode);
        send_all(c);
        return;
    }
    int count = win_slot_count(&m);
    bool lied = false;
    for (int32_t i = 0; i < n; i++) {
        if (claims[i].slot < 0 || claims[i].slot >= count) continue;
        p->win.remote[claims[i].slot] = claims[i].s;
        if (!slot_eq(&claims[i].s, win_slot(&m, claims[i].slot))) lied = true;
    }
    p->win.remote_carried = carried;
    if (!slot_eq(&carried, &p->win.carried)) {
        lied = true;
        /* A wrong guess is normal; claiming an item the player has none of is not. */
        if (carried.count > 0 && !holds(&m, carried.item))
            refused(p, "claims to carry an item it does not have", slot, button, mode);
    }
    if (stale) {
        send_all(c);
        return;
    }
    if (lied)
        log_debug("%s: window click predicted differently (slot %d, mode %d); corrected", p->name,
                  slot, mode);
    send_changes_result(c, grid_changed);
}

void inventory_sb_close_window(conn *c, rd_t *r)
{
    rd_u8(r); /* window id: vanilla closes whatever is open */
    if (r->err) return;
    close_window(c);
}

void inventory_open_window(conn *c, int kind, int menu_type, const char *title, int32_t x,
                           int32_t y, int32_t z, int cont_n)
{
    player *p = c->player;
    if (p->gamemode == GM_SPECTATOR) return;
    if (p->win.open_id)
        close_window(c); /* vanilla openMenu closes the old one first */
    else
        return_items(p), send_changes(c);
    p->win.counter = p->win.counter % 100 + 1;
    p->win.open_id = p->win.counter;
    p->win.open_kind = (uint8_t)kind;
    p->win.cont_n = (uint8_t)(cont_n > WIN_CONT_MAX ? WIN_CONT_MAX : cont_n);
    p->win.tx = x, p->win.ty = y, p->win.tz = z;
    memset(p->win.table, 0, sizeof p->win.table);
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, PKT_PLAY_CB_OPEN_WINDOW);
    wr_varint(&srv->pkt, p->win.open_id);
    wr_varint(&srv->pkt, menu_type);
    wr_string(&srv->pkt, title, strlen(title));
    conn_send_pkt(c);
    send_all(c);
}

void inventory_open_crafting(conn *c, int32_t x, int32_t y, int32_t z)
{
    inventory_open_window(c, WIN_CRAFTING, CRAFTING_MENU_TYPE,
                          "{\"translate\":\"container.crafting\"}", x, y, z, 0);
}

void inventory_creative_drop(conn *c, int item, int count)
{
    player *p = c->player;
    if (item <= 0 || item >= ITEM_COUNT || count <= 0 || count > 64 || p->win.drop_spam >= 200)
        return;
    p->win.drop_spam += 20;
    struct inv_slot s = {(int16_t)item, (int8_t)count, 0, {0}};
    items_throw(p, &s);
}

bool inventory_due(const player *p, uint32_t id)
{
    return inventory_touched(p, 1) || p->win.open_id || p->win.drop_spam > 0 || !p->win.synced ||
           (game.tick_count + id) % 20 == 0;
}

bool inventory_touched(const player *p, uint64_t ticks)
{
    return p->inv_touch_tick + ticks >= game.tick_count;
}

void inventory_touch(player *p)
{
    p->inv_touch_tick = game.tick_count;
}

void inventory_tick(conn *c)
{
    player *p = c->player;
    if (p->win.drop_spam > 0) p->win.drop_spam--;
    /* A slot emptied elsewhere (/clear) keeps no wear for the next item put there. */
    for (int i = 0; i < 46; i++)
        if (p->inventory[i].count <= 0) p->inventory[i] = (struct inv_slot){0};
    if (p->win.open_id && !table_valid(p)) {
        buf_reset(&srv->pkt);
        wr_varint(&srv->pkt, PKT_PLAY_CB_CLOSE_WINDOW);
        wr_u8(&srv->pkt, (uint8_t)p->win.open_id);
        conn_send_pkt(c);
        close_window(c);
        return;
    }
    send_changes(c);
}

/* The window slot of the held hotbar slot in the open window. */
static int held_window_slot(const player *p)
{
    if (p->win.open_id && p->win.open_kind == WIN_CONTAINER)
        return p->win.cont_n + 27 + p->held_slot;
    return p->win.open_id ? 37 + p->held_slot : 36 + p->held_slot;
}

void inventory_drop_held(conn *c, bool all)
{
    player *p = c->player;
    if (p->gamemode == GM_SPECTATOR) return;
    struct inv_slot *s = &p->inventory[36 + p->held_slot];
    if (s->count <= 0 || s->item <= 0) return;
    struct inv_slot t = *s;
    t.count = all ? s->count : 1;
    s->count = (int8_t)(s->count - t.count);
    if (s->count <= 0) *s = (struct inv_slot){0};
    /* vanilla: the client removed it itself; only its belief is updated */
    if (p->win.synced) p->win.remote[held_window_slot(p)] = *s;
    items_throw(p, &t);
}

void inventory_swap_hands(conn *c)
{
    player *p = c->player;
    if (p->gamemode == GM_SPECTATOR) return;
    struct inv_slot t = p->inventory[45];
    p->inventory[45] = p->inventory[36 + p->held_slot];
    p->inventory[36 + p->held_slot] = t;
    send_changes(c); /* vanilla sends both hands' equipment; the client did not predict */
}

void inventory_wear_tool(conn *c)
{
    player *p = c->player;
    if (p->gamemode == GM_CREATIVE || p->gamemode == GM_SPECTATOR) return;
    struct inv_slot *s = &p->inventory[36 + p->held_slot];
    if (s->count <= 0 || s->item <= 0 || s->item >= ITEM_COUNT) return;
    int wear = item_mine_wear[s->item], max = item_max_damage[s->item];
    if (!wear || !max) return;
    /* ItemStack.hurt: unbreaking spares each point with its chance (issue 14) */
    static uint64_t wear_rng = 0x51ed270b9a3c4f17ull;
    int unbreaking = ench_level(s->ench, ENCH_UNBREAKING), spared = 0;
    for (int k = 0; k < wear; k++) spared += ench_unbreaking_saves(unbreaking, false, &wear_rng);
    wear -= spared;
    if (wear <= 0) return;
    if (s->damage + wear >= max) { /* vanilla hurtAndBreak: broken */
        *s = (struct inv_slot){0};
    } else {
        s->damage = (uint16_t)(s->damage + wear);
    }
    send_changes(c);
}

void inventory_leave(conn *c)
{
    player *p = c->player;
    if (!p) return;
    bool had_container = p->win.open_id && p->win.open_kind == WIN_CONTAINER;
    return_items(p);
    p->win.open_id = 0;
    p->win.open_kind = WIN_PLAYER;
    if (had_container) container_viewers_changed(p->win.tx, p->win.ty, p->win.tz);
}
