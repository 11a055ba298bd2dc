/*
 * interact.c — players changing blocks: digging, placing, and the creative
 * inventory and held slot that placing draws from.
 *
 * Digging: instant in creative. In survival the break time follows vanilla:
 * damage per tick = tool speed / hardness / (30 if the held item can
 * harvest the block, else 100), tool speed from the block's material and the
 * held item (minecraft-data materials), divided by 5 off the ground; the
 * finish packet is accepted once 70 % of that time has passed (vanilla's
 * tolerance). Unbreakable blocks (BLOCK_FLAG_UNBREAKABLE) never break.
 *
 * Placing: the held item's block (same name, default state; doors,
 * trapdoors, gates, chests and barrels take their facing, half, hinge and
 * chest type from game/blockuse.c) goes into the
 * clicked block if that is replaceable (air, water, short grass, ...),
 * otherwise next to it on the clicked face; solid blocks are not placed
 * where a player stands. Survival placing uses up the item.
 *
 * Using (Use Item On, main hand): a crafting table, chest, trapped chest or
 * barrel opens its window (game/inventory.c, game/container.c); a door,
 * trapdoor or fence gate opens or closes (game/blockuse.c). Breaking a
 * container spills its items first. A hoe tills grass or dirt under air
 * into farmland, seeds are planted on farmland and bone meal grows a crop
 * (game/growth.c; issue 21).
 *
 * Buckets (Use Item, issue 21; vanilla BucketItem.use): the look from the
 * eyes, 5 blocks (Item.getPlayerPOVHitResult; partial shapes count as full
 * cubes). An empty bucket takes the first fluid source it meets (the
 * filled bucket replaces it in survival, or joins the inventory in
 * creative where it is not there yet, as ItemUtils.createFilledResult); a
 * water or lava bucket places a source against the face of the first block
 * it meets (through fluids), breaking a plant or other block without a
 * collision box there with its drops, and becomes an empty bucket in
 * survival.
 *
 * Spawn protection and the world border refuse both (Level.mayInteract),
 * tested as vanilla tests them: the block dug, the block clicked.
 *
 * Invariants:
 *  1. Every dig and place packet is answered: the change goes to all viewers
 *     at the end of the tick, the sequence is acknowledged to the sender, and
 *     a refused action sends the sender the block's real state so its
 *     prediction is undone.
 *  2. Reach is checked: the block centre within 8 blocks of the eyes.
 *  3. Item data from clients is validated (ids in range, counts 1..64, NBT
 *     parsed within the network limits) before it is stored.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "game/beds.h" /* issue 21 */
#include "game/blockuse.h"
#include "game/border.h"
#include "game/container.h"
#include "game/fluids.h" /* issue 21 */
#include "game/game.h"
#include "game/growth.h" /* issue 21 */
#include "game/health.h"
#include "game/inventory.h"
#include "game/items.h"
#include "game/loot.h"
#include "proto/packets.h"
#include "game/ops.h"
#include "game/play.h"
#include "game/plugins.h"        /* plugins */
#include "game/redstone_world.h" /* issue 21 */
#include "proto/nbt.h"

#define REACH_SQ 64.0

enum dig_status {
    DIG_START = 0,
    DIG_CANCEL = 1,
    DIG_FINISH = 2,
    DIG_DROP_ALL = 3, /* Ctrl+Q */
    DIG_DROP_ONE = 4, /* Q */
    DIG_SWAP_HANDS = 6,
};

/* A survival break with the held item: the drops, then the tool's wear
 * (vanilla DiggerItem.mineBlock: only for blocks with a hardness). */
static void broke(conn *c, int32_t x, int32_t y, int32_t z, uint16_t st, int item)
{
    items_drop_block(c->player, x, y, z, st, item);
    if (block_info[block_of_state[st]].hardness > 0) inventory_wear_tool(c);
}

/* The block at (x, y, z) in state st is about to be broken: a container's
 * items spill, a door's other half goes, a double chest's partner turns
 * single (game/container.c, game/blockuse.c). */
static void removing(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    container_drop_contents(x, y, z);
    blockuse_removing(x, y, z, st);
}

static bool reachable(const player *p, int32_t x, int32_t y, int32_t z)
{
    double dx = x + 0.5 - p->x, dy = y + 0.5 - (p->y + 1.62), dz = z + 0.5 - p->z;
    return dx * dx + dy * dy + dz * dz <= REACH_SQ;
}

/*
 * Vanilla's spawn protection (DedicatedServer.isUnderSpawnProtection):
 * within `spawn-protection` blocks (the larger of |dx| and |dz|) of the
 * world spawn only operators may change blocks; off when the radius is 0 or
 * nobody is an operator.
 */
static bool spawn_protected(const player *p, int32_t x, int32_t z)
{
    int r = srv->cfg.spawn_protection;
    if (r <= 0 || p->op_level > 0 || ops_count() == 0) return false;
    int32_t sx = (int32_t)floor(game.spawn_x), sz = (int32_t)floor(game.spawn_z);
    return abs(x - sx) <= r && abs(z - sz) <= r;
}

/* vanilla Level.mayInteract: not under spawn protection, inside the world
 * border (game/border.h). Checked on the block dug and on the block clicked
 * to place against, as vanilla checks them. */
static bool may_interact(const player *p, int32_t x, int32_t z)
{
    return !spawn_protected(p, x, z) && border_contains_block(x, z);
}

static void ack(player *p, int32_t sequence)
{
    play_ack_later(p, sequence);
}

/* Sends the sender the block as the server has it (undoing a prediction). */
static void resync(conn *c, int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return;
    buf_reset(&srv->pkt);
    pkt_cb_block_change(&srv->pkt, x, y, z, st);
    conn_send_pkt(c);
}

/* Vanilla break time in milliseconds; -1 = never breaks. */
static int64_t break_time_ms(uint16_t state, int item, bool on_ground)
{
    const struct block_info *b = &block_info[block_of_state[state]];
    if (b->flags & BLOCK_FLAG_UNBREAKABLE) return -1;
    if (b->hardness == 0) return 0;
    float speed = 1.0f;
    for (int i = material_tools_first[b->material]; i < material_tools_first[b->material + 1]; i++)
        if (material_tools[i].item == item) speed = material_tools[i].multiplier;
    bool harvest = loot_can_harvest(block_of_state[state], item);
    if (!on_ground) speed /= 5.0f;
    float damage = speed / b->hardness / (harvest ? 30.0f : 100.0f);
    if (damage >= 1.0f) return 0;
    return (int64_t)ceilf(1.0f / damage) * 50;
}

static int held_item(const player *p, int hand)
{
    const struct inv_slot *s = &p->inventory[hand == 1 ? 45 : 36 + p->held_slot];
    return s->count > 0 ? s->item : 0;
}

void interact_sb_block_dig(conn *c, rd_t *r)
{
    player *p = c->player;
    int32_t status = rd_varint(r);
    int32_t x, y, z;
    rd_position(r, &x, &y, &z);
    rd_i8(r); /* face */
    int32_t seq = rd_varint(r);
    if (r->err) return;
    if (status == DIG_DROP_ALL || status == DIG_DROP_ONE) {
        inventory_drop_held(c, status == DIG_DROP_ALL);
        return;
    }
    if (status == DIG_SWAP_HANDS) {
        inventory_swap_hands(c);
        return;
    }
    if (status != DIG_START && status != DIG_CANCEL && status != DIG_FINISH)
        return; /* releasing a used item: nothing to do yet */
    ack(p, seq);
    if (status == DIG_CANCEL) {
        p->digging = false;
        return;
    }
    uint16_t st;
    if (!reachable(p, x, y, z) || world_get_block(&game.world, x, y, z, &st) < 0 ||
        p->gamemode == GM_ADVENTURE || p->gamemode == GM_SPECTATOR || !may_interact(p, x, z)) {
        resync(c, x, y, z);
        return;
    }
    if (block_is_air(st)) return;
    if (p->gamemode == GM_CREATIVE) {
        if (plugin_event_block_break(c, x, y, z, st)) return; /* plugins */
        if (status == DIG_START) {
            removing(x, y, z, st);
            play_set_block(x, y, z, BLOCK_AIR);
        }
        return;
    }
    int64_t need = break_time_ms(st, held_item(p, 0), p->on_ground);
    if (need < 0) {
        resync(c, x, y, z);
        return;
    }
    if (status == DIG_START) {
        if (need == 0) {
            if (plugin_event_block_break(c, x, y, z, st)) return; /* plugins */
            removing(x, y, z, st);
            if (play_set_block(x, y, z, BLOCK_AIR) == 0) broke(c, x, y, z, st, held_item(p, 0));
            return;
        }
        p->digging = true;
        p->dig_x = x, p->dig_y = y, p->dig_z = z;
        p->dig_start_ms = srv->loop->now_ms;
        return;
    }
    /* DIG_FINISH: the same block, after enough of its break time. */
    if (!p->digging || p->dig_x != x || p->dig_y != y || p->dig_z != z ||
        srv->loop->now_ms - p->dig_start_ms + TICK_MS < need * 7 / 10) {
        resync(c, x, y, z);
        p->digging = false;
        return;
    }
    p->digging = false;
    if (plugin_event_block_break(c, x, y, z, st)) return; /* plugins */
    removing(x, y, z, st);
    if (play_set_block(x, y, z, BLOCK_AIR) == 0) broke(c, x, y, z, st, held_item(p, 0));
}

static bool replaceable(uint16_t st)
{
    return block_is_air(st) || (st >= BLOCK_WATER && st <= BLOCK_WATER + 15) ||
           (st >= BLOCK_LAVA && st <= BLOCK_LAVA + 15) || st == BLOCK_GRASS ||
           (st >= BLOCK_TALL_GRASS - 1 && st <= BLOCK_TALL_GRASS) || st == BLOCK_FERN ||
           st == BLOCK_DEAD_BUSH || st == BLOCK_SNOW || st == BLOCK_SEAGRASS;
}

/* True if a solid block at (x, y, z) would overlap a player's box. */
static bool blocks_a_player(int32_t x, int32_t y, int32_t z)
{
    for (size_t i = 0; i < game.player_count; i++) {
        const player *o = game.players[i]->player;
        if (o->gamemode == GM_SPECTATOR) continue;
        if (o->x + 0.3 > x && o->x - 0.3 < x + 1 && o->z + 0.3 > z && o->z - 0.3 < z + 1 &&
            o->y + 1.8 > y && o->y < y + 1)
            return true;
    }
    return false;
}

/* ------------------------------------------------- buckets, bone meal, seeds (issue 21) */

enum { SIM_BUCKET, SIM_WATER_BUCKET, SIM_LAVA_BUCKET, SIM_BONE_MEAL, SIM_ITEMS };
static int sim_items[SIM_ITEMS];

static int sim_item(int which)
{
    static const char *const names[SIM_ITEMS] = {"bucket", "water_bucket", "lava_bucket",
                                                 "bone_meal"};
    if (!sim_items[SIM_BUCKET])
        for (int k = 0; k < SIM_ITEMS; k++)
            for (int i = 1; i < ITEM_COUNT; i++)
                if (item_info[i].name && strcmp(item_info[i].name, names[k]) == 0) sim_items[k] = i;
    return sim_items[which];
}

static const int8_t face_off[6][3] = {{0, -1, 0}, {0, 1, 0},  {0, 0, -1},
                                      {0, 0, 1},  {-1, 0, 0}, {1, 0, 0}};

/* The first block the look meets within 5 blocks of the eyes (fluid
 * sources too when `sources`), and the face it enters by. */
static bool look_ray(const player *p, bool sources, int32_t hit[3], int *face)
{
    double ox = p->x, oy = p->y + 1.62, oz = p->z;
    double pitch = p->pitch * M_PI / 180.0, yaw = p->yaw * M_PI / 180.0;
    double d[3] = {-sin(yaw) * cos(pitch), -sin(pitch), cos(yaw) * cos(pitch)};
    double o[3] = {ox, oy, oz};
    int32_t v[3];
    int step[3];
    double tmax[3], tdelta[3];
    for (int a = 0; a < 3; a++) {
        v[a] = (int32_t)floor(o[a]);
        step[a] = d[a] > 0 ? 1 : -1;
        if (fabs(d[a]) < 1e-12) {
            tmax[a] = tdelta[a] = INFINITY;
        } else {
            double edge = d[a] > 0 ? v[a] + 1 - o[a] : o[a] - v[a];
            tmax[a] = edge / fabs(d[a]);
            tdelta[a] = 1.0 / fabs(d[a]);
        }
    }
    /* Faces entered stepping +x/-x, +y/-y, +z/-z: west/east, down/up, north/south. */
    static const int entered[3][2] = {{4, 5}, {0, 1}, {2, 3}};
    int f = 1;
    for (int i = 0; i < 32; i++) {
        uint16_t st;
        if (v[1] < CHUNK_MIN_Y || v[1] >= CHUNK_MIN_Y + CHUNK_HEIGHT ||
            world_get_block(&game.world, v[0], v[1], v[2], &st) < 0)
            return false;
        struct fl_state fs = fl_of(st);
        if (fs.type != FL_NONE ? sources && fs.source : !block_is_air(st)) {
            hit[0] = v[0], hit[1] = v[1], hit[2] = v[2];
            *face = f;
            return true;
        }
        int a = tmax[0] < tmax[1] ? (tmax[0] < tmax[2] ? 0 : 2) : (tmax[1] < tmax[2] ? 1 : 2);
        if (tmax[a] > 5.0) return false;
        v[a] += step[a];
        tmax[a] += tdelta[a];
        f = entered[a][step[a] > 0 ? 0 : 1];
    }
    return false;
}

/* Puts one `item` into the inventory (hotbar first), else throws it. */
static void give_one(conn *c, int item)
{
    player *p = c->player;
    static const int order[] = {36, 37, 38, 39, 40, 41, 42, 43, 44, 9,  10, 11,
                                12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        struct inv_slot *s = &p->inventory[order[k]];
        if (s->count <= 0 || s->item == 0) {
            *s = (struct inv_slot){.item = (int16_t)item, .count = 1};
            return;
        }
    }
    struct inv_slot one = {.item = (int16_t)item, .count = 1};
    items_throw(p, &one);
}

static bool holds(const player *p, int item)
{
    for (int i = 0; i < 46; i++)
        if (p->inventory[i].count > 0 && p->inventory[i].item == item) return true;
    return false;
}

/* vanilla BucketItem.use for the stack in `slot` (see the top of the file). */
static void bucket_use(conn *c, int slot)
{
    player *p = c->player;
    struct inv_slot *s = &p->inventory[slot];
    int content = s->item == sim_item(SIM_WATER_BUCKET)  ? FL_WATER
                  : s->item == sim_item(SIM_LAVA_BUCKET) ? FL_LAVA
                  : s->item == sim_item(SIM_BUCKET)      ? FL_NONE
                                                         : -1;
    int32_t h[3];
    int face;
    if (content < 0 || !look_ray(p, content == FL_NONE, h, &face)) return;
    if (!may_interact(p, h[0], h[2])) {
        resync(c, h[0], h[1], h[2]);
        return;
    }
    uint16_t st;
    if (content == FL_NONE) {
        if (world_get_block(&game.world, h[0], h[1], h[2], &st) < 0) return;
        struct fl_state f = fl_of(st);
        if (!f.source || play_set_block(h[0], h[1], h[2], BLOCK_AIR) < 0) return;
        int filled = sim_item(f.type == FL_WATER ? SIM_WATER_BUCKET : SIM_LAVA_BUCKET);
        if (p->gamemode == GM_CREATIVE) {
            if (!holds(p, filled)) give_one(c, filled);
        } else if (--s->count <= 0) {
            *s = (struct inv_slot){.item = (int16_t)filled, .count = 1};
        } else {
            give_one(c, filled);
        }
        inventory_touch(p);
        return;
    }
    int32_t t[3] = {h[0] + face_off[face][0], h[1] + face_off[face][1], h[2] + face_off[face][2]};
    if (!may_interact(p, t[0], t[2]) || world_get_block(&game.world, t[0], t[1], t[2], &st) < 0)
        return;
    struct fl_state here = fl_of(st);
    if (!block_is_air(st) && here.type == FL_NONE) {
        if (fl_solid(st)) return; /* BlockState.canBeReplaced(fluid): no box */
        removing(t[0], t[1], t[2], st);
        items_drop_block(p, t[0], t[1], t[2], st, 0); /* Level.destroyBlock(pos, true) */
    }
    struct fl_state src = {(uint8_t)content, 8, true, false};
    if (play_set_block(t[0], t[1], t[2], fl_block(src)) < 0 && !here.source) return;
    if (p->gamemode != GM_CREATIVE) {
        *s = (struct inv_slot){.item = (int16_t)sim_item(SIM_BUCKET), .count = 1};
        inventory_touch(p);
    }
}

void interact_sb_use_item(conn *c, rd_t *r)
{
    rd_t peek = *r;
    health_sb_use_item(c, r); /* eating; acknowledges the sequence */
    int32_t hand = rd_varint(&peek);
    rd_varint(&peek); /* sequence */
    if (peek.err) return;
    player *p = c->player;
    if (!(p->health > 0) || hand < 0 || hand > 1 || p->gamemode == GM_SPECTATOR ||
        p->gamemode == GM_ADVENTURE)
        return;
    int slot = hand ? 45 : 36 + p->held_slot;
    if (p->inventory[slot].count > 0) bucket_use(c, slot);
}

/* Use Item On with bone meal or seeds: true if it was used. */
static bool use_on(conn *c, int hand, int32_t x, int32_t y, int32_t z, int face, int item)
{
    player *p = c->player;
    if (item <= 0 || p->gamemode == GM_ADVENTURE || p->gamemode == GM_SPECTATOR) return false;
    uint16_t crop = growth_seed_crop(item);
    const char *nm = item_info[item].name;
    size_t nl = strlen(nm);
    bool hoe = nl > 4 && strcmp(nm + nl - 4, "_hoe") == 0;
    if (item != sim_item(SIM_BONE_MEAL) && !crop && !hoe) return false;
    if (!reachable(p, x, y, z) || !may_interact(p, x, z)) {
        resync(c, x, y, z);
        return true;
    }
    struct inv_slot *s = &p->inventory[hand == 1 ? 45 : 36 + p->held_slot];
    if (hoe) {
        /* HoeItem.useOn: grass, dirt or a path under air becomes farmland. */
        uint16_t st, above;
        if (face == 0 || world_get_block(&game.world, x, y, z, &st) < 0 ||
            (block_of_state[st] != block_of_state[BLOCK_GRASS_BLOCK] && st != BLOCK_DIRT &&
             st != BLOCK_DIRT_PATH) ||
            world_get_block(&game.world, x, y + 1, z, &above) < 0 || !block_is_air(above))
            return false;
        if (play_set_block(x, y, z, BLOCK_FARMLAND) == 0 && hand == 0) inventory_wear_tool(c);
        return true;
    }
    if (crop) {
        /* ItemNameBlockItem: the crop goes on top of farmland. */
        uint16_t below, above;
        if (face != 1 || world_get_block(&game.world, x, y, z, &below) < 0 ||
            below < BLOCK_FARMLAND || below > BLOCK_FARMLAND + 7 ||
            world_get_block(&game.world, x, y + 1, z, &above) < 0 || !block_is_air(above) ||
            play_set_block(x, y + 1, z, crop) < 0) {
            resync(c, x, y + 1, z);
            return true;
        }
    } else if (!growth_bone_meal(x, y, z)) {
        return true;
    }
    if (p->gamemode != GM_CREATIVE && --s->count <= 0) *s = (struct inv_slot){0};
    inventory_touch(p);
    return true;
}

void interact_sb_block_place(conn *c, rd_t *r)
{
    player *p = c->player;
    int32_t hand = rd_varint(r);
    int32_t x, y, z;
    rd_position(r, &x, &y, &z);
    int32_t face = rd_varint(r);
    rd_f32(r);                  /* cursor x */
    float cursor_y = rd_f32(r); /* trapdoors: top or bottom half */
    rd_f32(r);                  /* cursor z */
    rd_bool(r);                 /* inside block */
    int32_t seq = rd_varint(r);
    if (r->err) return;
    ack(p, seq);
    if (hand < 0 || hand > 1 || face < 0 || face > 5) return;
    if (plugin_event_interact(c, hand, x, y, z, face)) return; /* plugins */
    uint16_t used;
    if (p->gamemode != GM_SPECTATOR && reachable(p, x, y, z) &&
        world_get_block(&game.world, x, y, z, &used) == 0 && used == BLOCK_CRAFTING_TABLE) {
        if (hand == 0)
            inventory_open_crafting(c, x, y, z); /* vanilla: the block's use, main hand */
        return;
    }
    /* Containers, doors, trapdoors, gates: the block's use, main hand (vanilla
     * handleUseItemOn checks mayInteract first). */
    if (hand == 0 && p->gamemode != GM_SPECTATOR && reachable(p, x, y, z) &&
        world_get_block(&game.world, x, y, z, &used) == 0 && may_interact(p, x, z)) {
        if (container_is_block(used)) {
            container_open(c, x, y, z, used);
            return;
        }
        if (blockuse_use(p, x, y, z, used)) return; /* adventure players may too */
        if (beds_use(c, x, y, z, used)) return;     /* issue 21 */
        if (redstone_use(x, y, z, used)) return;    /* levers, buttons, repeaters ... */
    }
    int item = held_item(p, hand);
    if (use_on(c, hand, x, y, z, face, item)) return; /* issue 21: bone meal, seeds */
    if (item <= 0 || item >= ITEM_COUNT || item_info[item].block_state == 0 ||
        p->gamemode == GM_ADVENTURE || p->gamemode == GM_SPECTATOR)
        return;
    uint16_t clicked;
    if (!reachable(p, x, y, z) || world_get_block(&game.world, x, y, z, &clicked) < 0 ||
        !may_interact(p, x, z)) {
        resync(c, x, y, z);
        return;
    }
    int32_t tx = x, ty = y, tz = z;
    if (!replaceable(clicked)) {
        static const int8_t off[6][3] = {{0, -1, 0}, {0, 1, 0},  {0, 0, -1},
                                         {0, 0, 1},  {-1, 0, 0}, {1, 0, 0}};
        tx += off[face][0], ty += off[face][1], tz += off[face][2];
    }
    uint16_t target;
    uint16_t state = item_info[item].block_state;
    if (world_get_block(&game.world, tx, ty, tz, &target) == 0 && replaceable(target))
        state = redstone_place_state(p, tx, ty, tz,
                                     blockuse_place_state(p, tx, ty, tz, state, face, cursor_y),
                                     face);                   /* 0: no room */
    if (state) state = growth_place_state(tx, ty, tz, state); /* 0: cannot stand there */
    if (!state || world_get_block(&game.world, tx, ty, tz, &target) < 0 || !replaceable(target) ||
        ((block_info[block_of_state[state]].flags & BLOCK_FLAG_SOLID) &&
         blocks_a_player(tx, ty, tz)) ||
        play_set_block(tx, ty, tz, state) < 0) {
        resync(c, tx, ty, tz);
        return;
    }
    if (plugin_event_block_place(c, tx, ty, tz, state, target)) return; /* plugins */
    blockuse_placed(tx, ty, tz, state);
    if (p->gamemode != GM_CREATIVE) {
        struct inv_slot *s = &p->inventory[hand == 1 ? 45 : 36 + p->held_slot];
        if (--s->count <= 0) *s = (struct inv_slot){0};
    }
}

void interact_sb_set_creative_slot(conn *c, rd_t *r)
{
    player *p = c->player;
    int16_t slot = rd_i16(r);
    int32_t item;
    int8_t count;
    int got = inventory_read_item(c, r, &item, &count); /* item NBT is not kept yet */
    if (got < 0) return;
    bool present = got > 0;
    if (r->err || p->gamemode != GM_CREATIVE) return;
    if (slot == -1) { /* thrown out of the creative inventory */
        if (present) inventory_creative_drop(c, item, count);
        return;
    }
    if (slot < 0 || slot > 45 || item < 0 || item >= ITEM_COUNT || count < 0 || count > 64) {
        conn_kick(c, "Invalid creative inventory action");
        return;
    }
    p->inventory[slot] = (struct inv_slot){
        present && count > 0 ? (int16_t)item : 0, present && count > 0 ? count : 0, 0, {0}};
    /* Echo the slot as vanilla's inventory sync does; clients wait for it. */
    buf_reset(&srv->pkt);
    c->proto->cb_set_slot(&srv->pkt, 0, ++p->inventory_state, slot, p->inventory[slot].item,
                          p->inventory[slot].count);
    conn_send_pkt(c);
}

void interact_sb_held_item_slot(conn *c, rd_t *r)
{
    int16_t slot = rd_i16(r);
    if (r->err) return;
    if (slot < 0 || slot > 8) {
        conn_kick(c, "Invalid held item slot");
        return;
    }
    c->player->held_slot = slot;
}
