/*
 * container.c — see container.h. Vanilla 1.20.1's rules:
 *
 *   open     Use Item On a chest, trapped chest or barrel (main hand;
 *            a chest with an opaque full block on either half's top stays
 *            shut, as vanilla's isChestBlockedAt): the open window closes first (its items go
 * back), then Open Screen with generic_9x3 (27 slots) or, for a double chest, generic_9x6 (54: the
 * RIGHT half's slots first, then the LEFT half's, as vanilla's DoubleBlockCombiner orders them),
 * the title container.chest / container.chestDouble / container.barrel, and Set Container Content.
 *   slots    The window's container slots are the block entities' own: the
 *            window works on a copy in p->win.cont that is reloaded from the
 *            block entities before every use and written back after every
 *            click, so every viewer's per-tick sync (game/inventory.c) sees
 *            the others' changes and sends them as Set Container Slot.
 *   viewers  The players whose open window is a container at one of the
 *            block's positions. A chest's lid: Block Action (action 1, the
 *            viewer count) to everyone holding the chunk, on each half; a
 *            barrel's `open` property is true while it has a viewer.
 *   closes   when the block is gone, no longer has the same shape (a
 *            neighbour turned a single chest into a double one, or the
 *            partner went), or the player is more than 8 blocks from it
 *            (vanilla stillValid) — checked every tick and before a click.
 *   breaks   the items spill (items_drop_stack) and the block entity goes.
 *   ender    An ender chest (issue 14) opens generic_9x3 titled
 *            container.enderchest over the opener's own EnderItems
 *            (player.ender_items), whichever ender chest it is, so two
 *            players at one ender chest see each their own; its lid counts
 *            the players who have it open (EnderChestBlockEntity), it is
 *            blocked as a chest is, and breaking it spills nothing (its
 *            loot table's obsidian drops; the items stay the player's).
 *
 * Invariants:
 *  1. No pointer into a block entity outlives a call: positions are
 *     resolved through the world every time (entities are freed when their
 *     block changes, world/chunk.h invariant 4).
 *  2. A click is never applied to a container that is not valid
 *     (game/inventory.c checks container_valid first), so a stale copy is
 *     never written back and nothing is duplicated.
 *  3. A chest or barrel has its block entity made (empty) the first time
 *     it is opened; chunks are marked for saving only when items change.
 */
#include "game/container.h"

#include <jansson.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/packet_ids.h"
#include "game/blockuse.h"
#include "game/game.h"
#include "game/inventory.h"
#include "game/items.h"
#include "game/play.h"
#include "game/redstone_world.h"
#include "proto/wire.h"
#include "world/block_entity.h"

#define MENU_GENERIC_9X3 2 /* minecraft:generic_9x3 in the 1.20.1 menu registry */
#define MENU_GENERIC_9X6 5 /* minecraft:generic_9x6 */
#define STILL_VALID_SQ   64.0
#define BLOCK_EVENT_LID  1    /* ChestBlockEntity.triggerEvent: the open count */
#define TITLE_MAX        4096 /* a longer CustomName is not used as the title */

_Static_assert(sizeof((struct be_item *)0)->ench == sizeof((struct inv_slot *)0)->ench,
               "a block entity's item keeps every enchantment a slot holds");

static struct inv_slot slot_of(const struct be_item *b)
{
    struct inv_slot s = {b->item, b->count, b->damage, {0}};
    memcpy(s.ench, b->ench, sizeof s.ench);
    return s;
}

static bool is_ender(uint16_t state)
{
    return block_of_state[state] == block_of_state[BLOCK_ENDER_CHEST];
}

bool container_is_block(uint16_t state)
{
    return be_kind_of_block(block_of_state[state]) != BE_RAW || is_ender(state);
}

/* The block entity of the container at (x, y, z), made when missing;
 * NULL when its chunk is not loaded or the block is not a container. */
static struct block_entity *be_at(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return NULL;
    enum be_kind k = be_kind_of_block(block_of_state[st]);
    chunk_entry *e = world_loaded(&game.world, x >> 4, z >> 4);
    if (k == BE_RAW || !e) return NULL;
    struct block_entity *be = be_get(&e->c.bents, x, y, z);
    return be && be->kind == k ? be : be_put(&e->c.bents, x, y, z, k);
}

/* The container at (x, y, z): its halves in window order, their
 * positions, and its slot count (27, 54; 0 when there is none). */
struct shape {
    struct block_entity *be[2];
    int32_t pos[2][3];
    int n;
    bool ender; /* an ender chest: no block entity, pos[0] only, the viewer's EnderItems */
};

/* Half h of s is there (a block entity, or the ender chest's one position). */
static bool has_half(const struct shape *s, int h)
{
    return s->be[h] || (h == 0 && s->ender);
}

static int resolve(int32_t x, int32_t y, int32_t z, struct shape *s)
{
    memset(s, 0, sizeof *s);
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0 || !container_is_block(st)) return 0;
    if (is_ender(st)) {
        s->ender = true;
        s->pos[0][0] = x, s->pos[0][1] = y, s->pos[0][2] = z;
        return s->n = PLAYER_ENDER_SLOTS;
    }
    int32_t px, py, pz;
    bool dbl = blockuse_chest_partner(x, y, z, st, &px, &py, &pz);
    int first = dbl && !blockuse_prop_is(st, "type", "right"); /* the RIGHT half first */
    s->pos[first][0] = x, s->pos[first][1] = y, s->pos[first][2] = z;
    s->be[first] = be_at(x, y, z);
    if (!s->be[first]) return 0;
    s->n = BE_CONTAINER_SLOTS;
    if (dbl) {
        s->pos[!first][0] = px, s->pos[!first][1] = py, s->pos[!first][2] = pz;
        s->be[!first] = be_at(px, py, pz);
        if (!s->be[!first]) return s->n = 0;
        s->n = 2 * BE_CONTAINER_SLOTS;
    }
    return s->n;
}

int container_load(player *p)
{
    struct shape s;
    if (resolve(p->win.tx, p->win.ty, p->win.tz, &s) != p->win.cont_n || !s.n) return -1;
    if (s.ender) {
        memcpy(p->win.cont, p->ender_items, sizeof p->ender_items);
        return 0;
    }
    for (int i = 0; i < s.n; i++) {
        const struct be_item *b = &s.be[i / BE_CONTAINER_SLOTS]->items[i % BE_CONTAINER_SLOTS];
        p->win.cont[i] = slot_of(b);
    }
    return 0;
}

void container_store(player *p)
{
    struct shape s;
    if (resolve(p->win.tx, p->win.ty, p->win.tz, &s) != p->win.cont_n || !s.n) return;
    if (s.ender) {
        for (int k = 0; k < PLAYER_ENDER_SLOTS; k++) {
            p->ender_items[k] = p->win.cont[k];
            if (p->ender_items[k].count <= 0 || p->ender_items[k].item <= 0)
                p->ender_items[k] = (struct inv_slot){0};
        }
        return;
    }
    for (int h = 0; h < s.n / BE_CONTAINER_SLOTS; h++) {
        bool changed = false;
        for (int k = 0; k < BE_CONTAINER_SLOTS; k++) {
            const struct inv_slot *w = &p->win.cont[h * BE_CONTAINER_SLOTS + k];
            struct be_item now = {0, 0, 0, {0}};
            if (w->item > 0 && w->count > 0) {
                now = (struct be_item){w->item, w->count, w->damage, {0}};
                memcpy(now.ench, w->ench, sizeof now.ench);
            }
            struct be_item *b = &s.be[h]->items[k];
            if (b->item == now.item && b->count == now.count && b->damage == now.damage &&
                ench_same(b->ench, now.ench))
                continue;
            *b = now;
            changed = true;
        }
        if (changed) {
            world_touch(&game.world, s.pos[h][0] >> 4, s.pos[h][2] >> 4);
            redstone_container_changed(s.pos[h][0], s.pos[h][1], s.pos[h][2]); /* comparators */
        }
    }
}

bool container_valid(const player *p)
{
    struct shape s;
    if (!resolve(p->win.tx, p->win.ty, p->win.tz, &s) || s.n != p->win.cont_n) return false;
    double dx = p->win.tx + 0.5 - p->x, dy = p->win.ty + 0.5 - p->y, dz = p->win.tz + 0.5 - p->z;
    return dx * dx + dy * dy + dz * dz <= STILL_VALID_SQ;
}

/* Players with a container window open at one of s's positions. */
static int viewers(const struct shape *s)
{
    int n = 0;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *o = game.players[i]->player;
        if (!o || !o->win.open_id || o->win.open_kind != WIN_CONTAINER) continue;
        for (int h = 0; h < 2; h++)
            if (has_half(s, h) && o->win.tx == s->pos[h][0] && o->win.ty == s->pos[h][1] &&
                o->win.tz == s->pos[h][2]) {
                n++;
                break;
            }
    }
    return n;
}

void container_viewers_changed(int32_t x, int32_t y, int32_t z)
{
    struct shape s;
    if (!resolve(x, y, z, &s)) return;
    int n = viewers(&s);
    for (int h = 0; h < 2; h++) {
        if (!has_half(&s, h)) continue;
        int32_t bx = s.pos[h][0], by = s.pos[h][1], bz = s.pos[h][2];
        uint16_t st;
        if (world_get_block(&game.world, bx, by, bz, &st) < 0) continue;
        if (s.be[h] && s.be[h]->kind == BE_BARREL) {
            uint16_t want = blockuse_with_prop(st, "open", n > 0 ? "true" : "false");
            if (want != st) play_set_block(bx, by, bz, want);
            continue;
        }
        buf_reset(&srv->pkt);
        wr_varint(&srv->pkt, PKT_PLAY_CB_BLOCK_ACTION);
        wr_position(&srv->pkt, bx, by, bz);
        wr_u8(&srv->pkt, BLOCK_EVENT_LID);
        wr_u8(&srv->pkt, (uint8_t)(n > 255 ? 255 : n));
        wr_varint(&srv->pkt, block_of_state[st]);
        const buf_t *f = pkt_frame_shared();
        if (f) play_send_to_viewers(bx >> 4, bz >> 4, f->data, f->len);
    }
}

/* vanilla ChestBlock.isChestBlockedAt: an opaque full block on top (a
 * redstone conductor: glass or a slab does not block). */
static bool lid_blocked(const struct shape *s)
{
    for (int h = 0; h < 2; h++) {
        uint16_t st;
        if (!has_half(s, h) || (s->be[h] && s->be[h]->kind == BE_BARREL) ||
            world_get_block(&game.world, s->pos[h][0], s->pos[h][1] + 1, s->pos[h][2], &st) < 0)
            continue;
        uint8_t f = block_info[block_of_state[st]].flags;
        if ((f & BLOCK_FLAG_SOLID) && !(f & BLOCK_FLAG_TRANSPARENT)) return true;
    }
    return false;
}

/* A half's CustomName into name[TITLE_MAX] if it is valid JSON (vanilla
 * drops a name it cannot parse when it loads the block entity; a client
 * given bad JSON would disconnect). */
static bool custom_name(const struct block_entity *be, char *name)
{
    int n = be ? be_custom_name(be, name, TITLE_MAX) : -1;
    if (n <= 0) return false;
    json_t *j = json_loadb(name, (size_t)n, JSON_DECODE_ANY, NULL);
    bool ok = j && (json_is_object(j) || json_is_string(j) || json_is_array(j));
    json_decref(j);
    return ok;
}

void container_open(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state)
{
    player *p = c->player;
    struct shape s;
    if (p->gamemode == GM_SPECTATOR || !resolve(x, y, z, &s) || lid_blocked(&s)) return;
    static char name[TITLE_MAX];
    const char *title = s.ender     ? "{\"translate\":\"container.enderchest\"}"
                        : s.n == 54 ? "{\"translate\":\"container.chestDouble\"}"
                        : block_of_state[state] == block_of_state[BLOCK_BARREL]
                            ? "{\"translate\":\"container.barrel\"}"
                            : "{\"translate\":\"container.chest\"}";
    /* vanilla: the (first) half's CustomName when it has one */
    if (custom_name(s.be[0], name) || custom_name(s.be[1], name)) title = name;
    inventory_open_window(c, WIN_CONTAINER, s.n == 54 ? MENU_GENERIC_9X6 : MENU_GENERIC_9X3, title,
                          x, y, z, s.n);
    container_viewers_changed(x, y, z);
}

void container_drop_contents(int32_t x, int32_t y, int32_t z)
{
    chunk_entry *e = world_loaded(&game.world, x >> 4, z >> 4);
    struct block_entity *be = e ? be_get(&e->c.bents, x, y, z) : NULL;
    if (!be || be->kind == BE_RAW) return;
    for (int i = 0; i < BE_CONTAINER_SLOTS; i++) {
        const struct be_item *b = &be->items[i];
        if (b->item <= 0 || b->count <= 0) continue;
        struct inv_slot s = slot_of(b);
        items_drop_stack(x, y, z, &s);
    }
    be_remove(&e->c.bents, x, y, z);
    world_touch(&game.world, x >> 4, z >> 4);
}
