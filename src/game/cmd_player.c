/*
 * cmd_player.c — the commands that change a player's own things: give and
 * clear (the inventory) and spawnpoint (where it respawns), as vanilla
 * 1.20.1's GiveCommand, ClearInventoryCommands and SetSpawnCommand.
 *
 * The inventory is the player window's 46 slots (game/player.h); vanilla's
 * Inventory indexes map to it as: 0-8 hotbar = window 36-44, 9-35 = window
 * 9-35, armour 36-39 (feet..head) = window 8..5, off hand 40 = window 45.
 *
 *   give   vanilla's Inventory.add: the selected hotbar slot, the off hand,
 *          then the main inventory in order for a stack with room, then the
 *          first empty slot, one stack (the item's max) at a time; what does
 *          not fit is thrown from the player as an item entity it can pick
 *          up at once (Player.drop + setNoPickUpDelay; a creative player's
 *          excess is discarded, as vanilla)
 *   clear  the inventory in vanilla's order (main, armour, off hand, the
 *          crafting grid), up to maxCount (-1 all; 0 only counts)
 *
 * Invariant: every slot changed is sent to the player (Set Slot with the
 * next state id), as vanilla's broadcastChanges does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/block_table.h"
#include "game/inventory.h"
#include "game/cmd_internal.h"
#include "game/item_names.h"
#include "game/items.h"
#include "game/spawnpoint.h"

#define GIVE_MAX_STACKS 100 /* vanilla GiveCommand.MAX_ALLOWED_ITEMSTACKS */

/* vanilla Inventory index (0..40) → window slot. */
static int window_of(int inv)
{
    if (inv <= 8) return 36 + inv;
    if (inv <= 35) return inv;
    if (inv <= 39) return 8 - (inv - 36);
    return 45;
}

static void send_slot(conn *c, int slot)
{
    player *p = c->player;
    buf_reset(&srv->pkt);
    c->proto->cb_set_slot(&srv->pkt, 0, ++p->inventory_state, (int16_t)slot,
                          p->inventory[slot].item, p->inventory[slot].count);
    conn_send_pkt(c);
}

static int max_stack(int item)
{
    int m = item_info[item].stack_size;
    return m < 1 ? 1 : m > 64 ? 64 : m;
}

static bool room_for(const struct inv_slot *s, int item)
{
    return s->count > 0 && s->item == item && s->count < max_stack(item);
}

/* Inventory.add of one stack of n; returns how many did not fit. */
static int add_stack(conn *c, int item, int n, bool changed[46])
{
    player *p = c->player;
    inventory_touch(p);
    while (n > 0) {
        int slot = -1;
        int sel = window_of(p->held_slot);
        if (room_for(&p->inventory[sel], item))
            slot = sel;
        else if (room_for(&p->inventory[45], item))
            slot = 45;
        for (int i = 0; slot < 0 && i < 36; i++)
            if (room_for(&p->inventory[window_of(i)], item)) slot = window_of(i);
        for (int i = 0; slot < 0 && i < 36; i++)
            if (p->inventory[window_of(i)].count <= 0) slot = window_of(i);
        if (slot < 0) break;
        struct inv_slot *s = &p->inventory[slot];
        if (s->count <= 0) *s = (struct inv_slot){(int16_t)item, 0, 0, {0}}; /* no old wear */
        int k = max_stack(item) - s->count;
        if (k > n) k = n;
        s->count = (int8_t)(s->count + k);
        n -= k;
        changed[slot] = true;
    }
    return p->gamemode == GM_CREATIVE ? 0 : n; /* vanilla: instabuild discards the rest */
}

/* An item stack's display name as a message argument (json and plain in the buffers). */
static chat_arg item_arg(buf_t *j, buf_t *plain, int item, int count)
{
    item_display_json(j, item, count);
    item_display_plain(plain, item);
    buf_append(plain, "", 1);
    chat_arg a = {CA_JSON, (const char *)j->data, j->len, (const char *)plain->data, NULL};
    return a;
}

static int ex_give(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    int item = cmd_arg(x->ps, "item")->u.item.item;
    const struct cmd_value *cv = cmd_arg(x->ps, "count");
    int count = cv ? cv->u.i : 1;
    buf_t j, plain;
    buf_init(&j, 4096);
    buf_init(&plain, 256);
    chat_arg name = item_arg(&j, &plain, item, count);
    int limit = max_stack(item) * GIVE_MAX_STACKS;
    if (count > limit) {
        char lim[24];
        snprintf(lim, sizeof lim, "%d", limit);
        chat_arg a[2] = {chat_text(lim), name};
        cmd_failure(x, "commands.give.failed.toomanyitems", a, 2);
        buf_free(&j);
        buf_free(&plain);
        return -1;
    }
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        if (c->closed || item <= 0) continue; /* air: vanilla adds nothing */
        bool changed[46] = {false};
        for (int left = count; left > 0;) {
            int n = left < max_stack(item) ? left : max_stack(item);
            left -= n;
            int over = add_stack(c, item, n, changed);
            if (over > 0) { /* GiveCommand: drop(stack, false), no pickup delay (vanilla
                             * also keeps it for that player: anyone may take it) */
                struct inv_slot drop = {(int16_t)item, (int8_t)over, 0, {0}};
                items_set_pickup_delay(items_throw(c->player, &drop), 0);
            }
        }
        for (int s = 0; s < 46 && !c->closed; s++)
            if (changed[s]) send_slot(c, s);
    }
    char n[24], players[24];
    snprintf(n, sizeof n, "%d", count);
    cmd_count_arg(players, tl->n);
    /* vanilla 1.20.1 says "commands.give.success.single" with the count of players too */
    chat_arg a[3] = {chat_text(n), name,
                     tl->n == 1 ? chat_player(tl->c[0]->player) : chat_text(players)};
    if (!j.failed && !plain.failed) cmd_success(x, true, "commands.give.success.single", a, 3);
    buf_free(&j);
    buf_free(&plain);
    return 0;
}

/* ClearInventoryCommands over one player: cleared (or counted) items. */
static int clear_player(conn *c, int item, int max_count)
{
    player *p = c->player;
    inventory_touch(p);
    static const int crafting[4] = {1, 2, 3, 4};
    int order[45], n = 0;
    for (int i = 0; i <= 40; i++) order[n++] = window_of(i);
    for (int i = 0; i < 4; i++) order[n++] = crafting[i];
    int total = 0;
    for (int k = 0; k < n; k++) {
        struct inv_slot *s = &p->inventory[order[k]];
        if (s->count <= 0 || (item >= 0 && s->item != item)) continue;
        int take = max_count < 0 ? s->count : max_count - total;
        if (take > s->count) take = s->count;
        if (take <= 0 && max_count >= 0) {
            if (max_count == 0) total += s->count; /* maxCount 0: only counts */
            continue;
        }
        s->count = (int8_t)(s->count - take);
        if (s->count <= 0) *s = (struct inv_slot){0};
        total += take;
        if (!c->closed) send_slot(c, order[k]);
    }
    return total;
}

static int ex_clear(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_targets_or_self(x, "targets", false, tl) < 0) return -1;
    const struct cmd_value *iv = cmd_arg(x->ps, "item"), *mv = cmd_arg(x->ps, "maxCount");
    int item = iv ? iv->u.item.item : -1, max_count = mv ? mv->u.i : -1;
    int total = 0;
    for (size_t i = 0; i < tl->n; i++)
        if (!tl->c[i]->closed) total += clear_player(tl->c[i], item, max_count);
    char n[24], players[24];
    snprintf(n, sizeof n, "%d", total);
    cmd_count_arg(players, tl->n);
    if (!total) {
        /* vanilla: the player's plain name (getName), not its display component */
        chat_arg a = tl->n == 1 ? chat_text(tl->c[0]->player->name) : chat_text(players);
        cmd_failure(x, tl->n == 1 ? "clear.failed.single" : "clear.failed.multiple", &a, 1);
        return -1;
    }
    bool test = max_count == 0;
    chat_arg a[2] = {chat_text(n), tl->n == 1 ? chat_player(tl->c[0]->player) : chat_text(players)};
    const char *key =
        test ? (tl->n == 1 ? "commands.clear.test.single" : "commands.clear.test.multiple")
             : (tl->n == 1 ? "commands.clear.success.single" : "commands.clear.success.multiple");
    cmd_success(x, true, key, a, 2);
    return 0;
}

static int ex_spawnpoint(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_targets_or_self(x, "targets", false, tl) < 0) return -1;
    double pos[3] = {x->src->x, x->src->y, x->src->z};
    const struct cmd_value *pv = cmd_arg(x->ps, "pos"), *av = cmd_arg(x->ps, "angle");
    if (pv) cmd_coords_abs(x->src, &pv->u.pos, pos);
    int32_t b[3];
    for (int i = 0; i < 3; i++) {
        double f = floor(pos[i]);
        b[i] = f < -3e7 ? -30000001 : f > 3e7 ? 30000001 : (int32_t)f;
    }
    /* vanilla getSpawnablePos: Level.isInSpawnableBounds */
    if (pv && (b[0] < -30000000 || b[0] >= 30000000 || b[2] < -30000000 || b[2] >= 30000000 ||
               b[1] < -20000000 || b[1] >= 20000000)) {
        cmd_failure0(x, "argument.pos.outofbounds");
        return -1;
    }
    float angle = 0;
    if (av)
        angle =
            (float)cmd_wrap_degrees(av->u.pos.rel ? x->src->yaw + av->u.pos.v[0] : av->u.pos.v[0]);
    for (size_t i = 0; i < tl->n; i++)
        spawnpoint_set(&tl->c[i]->player->uuid, b[0], b[1], b[2], angle, true);
    char s[3][16], ang[40], players[24];
    for (int i = 0; i < 3; i++) snprintf(s[i], sizeof s[i], "%d", b[i]);
    cmd_java_number(ang, sizeof ang, angle, true);
    cmd_count_arg(players, tl->n);
    chat_arg a[6] = {chat_text(s[0]),
                     chat_text(s[1]),
                     chat_text(s[2]),
                     chat_text(ang),
                     chat_text("minecraft:overworld"),
                     tl->n == 1 ? chat_player(tl->c[0]->player) : chat_text(players)};
    cmd_success(x, true,
                tl->n == 1 ? "commands.spawnpoint.success.single"
                           : "commands.spawnpoint.success.multiple",
                a, 6);
    return 0;
}

int cmd_player_exec(cmd_ctx *x)
{
    switch (x->ps->exec->exec) {
    case X_GIVE: return ex_give(x);
    case X_CLEAR: return ex_clear(x);
    case X_SPAWNPOINT: return ex_spawnpoint(x);
    default: return -1;
    }
}
