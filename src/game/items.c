/*
 * items.c — item entities (see items.h), as vanilla 1.20.1's ItemEntity.
 *
 * Spawning (Block.popResource): a broken block's drops (game/loot.c) appear
 * at its centre ± 0.25 on each axis (y lowered by half the item's height,
 * 0.125), with velocity (±0.1, 0.2, ±0.1) and a pickup delay of 10 ticks.
 *
 * One tick (items_tick, phase 6b of game/tick.c), in this order:
 *   1. physics (ItemEntity.tick): gravity 0.04; the item moves unless it
 *      rests (on the ground, horizontal speed² ≤ 1e-5, and not its 4th
 *      tick), colliding with full blocks axis by axis (Y, then the larger
 *      of X and Z first), a blocked axis losing its speed; then drag: 0.98
 *      in the air, block friction × 0.98 horizontally on the ground (0.6,
 *      ice 0.98, blue ice 0.989, slime 0.8), and a downward speed on the
 *      ground bounces at half. Age +1; at 6,000 ticks (5 minutes) the item
 *      despawns; 64 blocks under the world it is removed (vanilla's void).
 *   2. merging (ItemEntity.mergeWithNeighbours): every 2 ticks for an item
 *      that crossed a block boundary this tick, else every 40, an item
 *      with room in its stack, younger than 6,000 ticks, takes in (or goes
 *      into) any equal item whose box it touches grown by (0.5, 0, 0.5)
 *      when both fit in one stack: the smaller stack moves into the larger,
 *      which keeps the larger pickup delay and the lower age; the emptied
 *      item is removed.
 *   3. pickups (Player.touch → ItemEntity.playerTouch): once its pickup
 *      delay is 0, an item whose box touches a living, non-spectator
 *      player's box grown by (1, 0.5, 1) goes into that player's inventory
 *      as vanilla's Inventory.add fills it: stacks with room first (the
 *      selected hotbar slot, the off hand, then the hotbar and the main
 *      inventory), then empty slots (hotbar first). Take Item Entity to
 *      every viewer, Set Container Slot to the player per changed slot;
 *      what does not fit stays on the ground (its new count as metadata).
 *   4. tracking: viewer V has item I spawned ⇔ I is not removed, V's client
 *      holds I's chunk, and I is horizontally within R of V, R = min(96 ×
 *      entity-broadcast-range-percentage / 100, view-distance × 16)
 *      (clientTrackingRange 6 chunks). A spawn is one Bundle: Spawn Entity
 *      (type item, with its velocity) and Set Entity Metadata (index 8, the
 *      item stack); removals are one Remove Entities per viewer.
 *   5. updates: every 20 ticks of an item's life (the item type's
 *      updateInterval), and at once when its velocity changed by more than
 *      0.1 in the tick (vanilla's hasImpulse: landing, a bounce), one that
 *      moved gets Teleport Entity and, if its velocity changed, Set Entity
 *      Velocity; clients simulate in between.
 *   6. removed items free their slots.
 *
 * Falling blocks (issue 21, game/falling.h) take item slots too, so they
 * share steps 4 to 6: their own physics in step 1 (falling_after_move
 * decides the landing), no merging or pickups, Spawn Entity of type
 * falling_block with the block state as its data and no metadata.
 *
 * Merging compares an item with every other one: items² / 40 box tests per
 * tick at rest (the cap bounds it). Pickups and tracking look at a (player,
 * item) pair only when one of them has news (invariant 4).
 *
 * Experience orbs (vanilla ExperienceOrb, issue 14) are entities of this
 * same table (orb = true) and share its physics, tracking and updates,
 * with their own rules: a 0.5 × 0.5 box, gravity 0.03, no resting, a bounce
 * of −0.9 on the ground; every 20 ticks (age % 20 == 1) an orb follows the
 * nearest living non-spectator player within 8 blocks (kept while within
 * 8) and takes in the orbs of the same value whose box touches its own
 * grown by 0.5 and whose entity id is congruent to its own mod 40 (their
 * counts add up: vanilla 1.17+'s count merging); the pull towards the
 * followed player is game/experience.c's. A touching player takes one of
 * its count every 2 ticks (takeXpDelay; Take Item Entity with count 1) and
 * gets its value in points (game/xp.c), from the orb's second tick on (so
 * that its spawn reached the clients first: vanilla pairs an entity with
 * its viewers as it is added). An award (items_award_xp) splits
 * the amount into vanilla's orb sizes and adds each to an orb of that value
 * within a 1-block box whose id is congruent to a random 0..39 mod 40, else
 * spawns a new orb (Spawn Experience Orb) with vanilla's random push.
 * Orbs count against the same cap; they have no metadata.
 *
 * Not yet (issue 14): mending, water and lava currents,
 * pushing out of blocks, partial block shapes (every block with a collision
 * box counts as a full cube), hoppers, thrown items.
 *
 * Invariants:
 *  1. At most ITEM_ENTITIES_MAX items; a drop past the cap is not spawned
 *     and logged (once per 15 s with the count refused).
 *  2. Bit i of a player's items_seen ⇔ slot i's entity is spawned on that
 *     client; a slot is freed only after phase 4 cleared every bit of it
 *     (a removed item is visible to nobody), so a reused slot starts with
 *     no viewers.
 *  3. Only the game thread touches items; packets go out through
 *     conn_send_pkt, iterating game.players so that a viewer dropped for a
 *     full output buffer (which moves the last player into its index)
 *     skips nobody.
 *  4. News: what phases 3 and 4 decide for a (player, item) pair depends
 *     only on the item's position, pickup delay and presence, and on the
 *     player's position, inventory (inv_touch_tick), life, game mode and
 *     loaded chunks (loaded_changes). An item whose inputs changed this tick
 *     has `news`; a player whose inputs changed since the last pass is
 *     `items_last.dirty`. A pair where neither has news would get the same
 *     answer as the last pass, so it is not looked at: resting items around
 *     standing players cost the tick a flag test each, not players × items.
 */
#include "game/inventory.h"
#include "game/items.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/entities.h"
#include "data/packet_ids.h"
#include "game/experience.h"
#include "game/falling.h"
#include "game/game.h"
#include "game/loot.h"
#include "game/mob_rules.h"
#include "game/mobs.h"
#include "game/play.h"
#include "game/xp.h"
#include "proto/packets.h"
#include "world/chunk.h"

#define ITEM_HALF_WIDTH    0.125 /* EntityType.ITEM: 0.25 x 0.25 */
#define ITEM_HEIGHT        0.25
#define FALLING_HALF_WIDTH 0.49 /* EntityType.FALLING_BLOCK: 0.98 x 0.98 */
#define FALLING_HEIGHT     0.98
#define ITEM_GRAVITY       0.04
#define ITEM_DRAG          0.98
#define ITEM_PICKUP_DELAY  10   /* ItemEntity.setDefaultPickUpDelay */
#define ITEM_THROW_DELAY   40   /* Player.drop: thrown by a player */
#define ITEM_LIFETIME      6000 /* ItemEntity.LIFETIME */
#define ITEM_UPDATE_TICKS  20   /* EntityType.ITEM updateInterval */
#define ITEM_TRACKING      96.0 /* clientTrackingRange 6 chunks, in blocks */
#define ITEM_META_STACK    8    /* ItemEntity.DATA_ITEM (after Entity's 0..7) */
#define CAP_LOG_MS         15000
#define MERGE_BUCKETS      4096 /* merging's column hash, a power of two */
#define VOID_DEPTH         64
#define ORB_HALF_WIDTH     0.25 /* EntityType.EXPERIENCE_ORB: 0.5 x 0.5 */
#define ORB_HEIGHT         0.5
#define ORB_GRAVITY        0.03
#define ORB_BOUNCE         (-0.9)
#define ORB_SCAN_TICKS     20   /* ExperienceOrb.scanForEntities: tickCount % 20 == 1 */
#define ORB_FOLLOW_SQ      64.0 /* 8 blocks */
#define ORB_MERGE_MOD      40   /* ExperienceOrb.canMerge: ids congruent mod 40 */
#define ORB_TAKE_TICKS     2    /* Player.takeXpDelay */
#define EYE_HEIGHT         1.62 /* a standing player's */

struct item_ent {
    bool used, removed;
    bool on_ground, meta_dirty;
    int16_t item;
    int8_t count;
    uint16_t damage;              /* durability used (a thrown tool keeps it) */
    uint16_t ench[ITEM_ENCH_MAX]; /* its enchantments (game/enchant.h) */
    bool orb;                     /* an experience orb: value and count below, no item */
    int32_t value, orb_count;     /* ExperienceOrb.value and count */
    int32_t follow_eid;           /* the player the orb follows, 0 none */
    uint32_t follow_idx;          /* where it was in game.players (checked before use) */
    int16_t pickup_delay;
    int32_t age;
    int32_t eid;
    bool crossed; /* moved into another block this tick (merge every 2 ticks, else 40) */
    bool impulse; /* its velocity changed by more than 0.1 this tick: update at once */
    bool news;    /* spawned, moved, could be picked up or removed this tick (invariant 4) */
    mc_uuid uuid;
    double x, y, z, vx, vy, vz;
    double sx, sy, sz, svx, svy, svz; /* what viewers were last told */
    uint16_t falling;                 /* a falling_block's state (issue 21), 0 for an item */
};

static struct item_ent *items; /* ITEM_ENTITIES_MAX, allocated at the first drop */
static uint32_t nitems;        /* used slots */
static uint32_t top;           /* 1 + the highest used slot */
static uint64_t rng = 0x2545f4914f6cdd1dull;
static int32_t *destroy; /* phase 3 scratch: ids to remove for one viewer */
static uint32_t *fresh;  /* this tick's slots with news, for players without news */
static uint32_t nfresh;
static int32_t *bucket_head; /* MERGE_BUCKETS; -1 empty (merging's column hash) */
static int32_t *bucket_next; /* ITEM_ENTITIES_MAX */
static int64_t cap_log_ms = -CAP_LOG_MS;
static uint32_t cap_refused;

static double rnd(void) /* uniform in [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

static inline bool seen(const player *p, uint32_t i)
{
    return p->items_seen[i >> 6] >> (i & 63) & 1;
}

static inline void set_seen(player *p, uint32_t i, bool on)
{
    if (on)
        p->items_seen[i >> 6] |= 1ull << (i & 63);
    else
        p->items_seen[i >> 6] &= ~(1ull << (i & 63));
}

/* Sends srv->pkt to every player that has item slot i spawned (invariant 3). */
static void send_to_viewers(uint32_t i)
{
    for (size_t k = 0; k < game.player_count;) {
        conn *o = game.players[k];
        if (seen(o->player, i)) conn_send_pkt(o);
        if (k < game.player_count && game.players[k] != o) continue;
        k++;
    }
}

/* ------------------------------------------------------------------ spawning */

/* A free slot, zeroed, with an entity id, a UUID, the position and the
 * velocity; NULL at the cap (logged) or out of memory. */
static struct item_ent *new_ent(double x, double y, double z, double vx, double vy, double vz)
{
    if (!items) {
        items = calloc(ITEM_ENTITIES_MAX, sizeof *items);
        destroy = calloc(ITEM_ENTITIES_MAX, sizeof *destroy);
        fresh = calloc(ITEM_ENTITIES_MAX, sizeof *fresh);
        bucket_head = calloc(MERGE_BUCKETS, sizeof *bucket_head);
        bucket_next = calloc(ITEM_ENTITIES_MAX, sizeof *bucket_next);
        if (!items || !destroy || !fresh || !bucket_head || !bucket_next) {
            free(items), free(destroy), free(fresh), free(bucket_head), free(bucket_next);
            items = NULL, destroy = NULL, fresh = NULL, bucket_head = bucket_next = NULL;
            log_error("item entities: out of memory; drop not spawned");
            return NULL;
        }
    }
    uint32_t i = 0;
    if (nitems < ITEM_ENTITIES_MAX)
        while (items[i].used) i++;
    if (nitems >= ITEM_ENTITIES_MAX) {
        cap_refused++;
        int64_t now = srv->loop->now_ms;
        if (now - cap_log_ms >= CAP_LOG_MS) {
            log_warn("item entities: the cap of %d is reached; %u drop(s) not spawned",
                     ITEM_ENTITIES_MAX, cap_refused);
            cap_log_ms = now;
            cap_refused = 0;
        }
        return NULL;
    }
    struct item_ent *it = &items[i];
    memset(it, 0, sizeof *it);
    it->used = true;
    it->news = true;
    it->eid = game.next_entity_id++;
    for (int k = 0; k < 16; k++) it->uuid.b[k] = (uint8_t)(rnd() * 256.0);
    it->uuid.b[6] = (uint8_t)((it->uuid.b[6] & 0x0f) | 0x40); /* version 4 */
    it->uuid.b[8] = (uint8_t)((it->uuid.b[8] & 0x3f) | 0x80);
    it->x = it->sx = x, it->y = it->sy = y, it->z = it->sz = z;
    it->vx = it->svx = vx, it->vy = it->svy = vy, it->vz = it->svz = vz;
    nitems++;
    if (i + 1 > top) top = i + 1;
    return it;
}

int32_t items_spawn(double x, double y, double z, double vx, double vy, double vz, int item,
                    int count, int pickup_delay)
{
    if (item <= 0 || item >= ITEM_COUNT || count <= 0) return -1;
    if (count > 64) count = 64;
    struct item_ent *it = new_ent(x, y, z, vx, vy, vz);
    if (!it) return -1;
    it->item = (int16_t)item;
    it->count = (int8_t)count;
    it->pickup_delay = (int16_t)pickup_delay;
    return it->eid;
}

static struct item_ent *by_eid(int32_t eid)
{
    for (uint32_t i = 0; eid >= 0 && items && i < top; i++)
        if (items[i].used && items[i].eid == eid) return &items[i];
    return NULL;
}

/* ExperienceOrb.tryMergeToExisting: an orb of `value` whose box touches the
 * 1-block box at (x, y, z) and whose id is congruent to a random 0..39. */
static bool orb_merge_existing(double x, double y, double z, int value)
{
    int32_t r = (int32_t)(rnd() * ORB_MERGE_MOD);
    for (uint32_t i = 0; items && i < top; i++) {
        struct item_ent *o = &items[i];
        if (!o->used || o->removed || !o->orb || o->value != value ||
            (o->eid - r) % ORB_MERGE_MOD != 0)
            continue;
        if (fabs(o->x - x) >= ORB_HALF_WIDTH + 0.5 || fabs(o->z - z) >= ORB_HALF_WIDTH + 0.5 ||
            o->y + ORB_HEIGHT <= y - 0.5 || o->y >= y + 0.5)
            continue;
        o->orb_count++;
        o->age = 0;
        return true;
    }
    return false;
}

void items_award_xp(double x, double y, double z, int amount)
{
    while (amount > 0) {
        int v = xp_orb_value(amount);
        amount -= v;
        if (orb_merge_existing(x, y, z, v)) continue;
        double vx = (rnd() * 0.2 - 0.1) * 2.0, vy = rnd() * 0.2 * 2.0,
               vz = (rnd() * 0.2 - 0.1) * 2.0; /* the ExperienceOrb constructor's push */
        struct item_ent *it = new_ent(x, y, z, vx, vy, vz);
        if (!it) return;
        it->orb = true;
        it->value = v;
        it->orb_count = 1;
    }
}

void items_drop_block(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state, int item)
{
    /* silk touch and fortune from the held item's enchantments; a block the
     * world destroys (a fluid washing it away, a crop popping off) has no
     * player and no tool */
    static const uint16_t no_ench[ITEM_ENCH_MAX];
    const uint16_t *ench = p ? p->inventory[36 + p->held_slot].ench : no_ench;
    bool silk = ench_level(ench, ENCH_SILK_TOUCH) > 0;
    struct loot_drop d[LOOT_MAX_DROPS];
    int n =
        loot_drops_with(state, item, silk, ench_level(ench, ENCH_FORTUNE), &rng, d, LOOT_MAX_DROPS);
    /* DropExperienceBlock.spawnAfterBreak: the ore's orbs, none with silk touch */
    int xp = silk || !loot_can_harvest(block_of_state[state], item)
                 ? 0
                 : loot_block_xp(block_of_state[state], &rng);
    if (xp > 0) items_award_xp(x + 0.5, y + 0.5, z + 0.5, xp);
    for (int k = 0; k < n; k++) {
        double px = x + 0.5 + (rnd() * 0.5 - 0.25);
        double py = y + 0.5 + (rnd() * 0.5 - 0.25) - ITEM_HEIGHT / 2;
        double pz = z + 0.5 + (rnd() * 0.5 - 0.25);
        double vx = rnd() * 0.2 - 0.1, vz = rnd() * 0.2 - 0.1;
        items_spawn(px, py, pz, vx, 0.2, vz, d[k].item, d[k].count, ITEM_PICKUP_DELAY);
    }
}

void items_drop_stack(int32_t x, int32_t y, int32_t z, const struct inv_slot *s)
{
    const double w = 0.25, t = 0.11485000171139836; /* the item's width; triangle spread */
    double px = x + rnd() * (1.0 - w) + w / 2, py = y + rnd() * (1.0 - w),
           pz = z + rnd() * (1.0 - w) + w / 2;
    int left = s->count;
    while (left > 0 && s->item > 0) {
        int n = 10 + (int)(rnd() * 21); /* random.nextInt(21) + 10 */
        if (n > left) n = left;
        left -= n;
        int32_t eid = items_spawn(px, py, pz, t * (rnd() - rnd()), 0.2 + t * (rnd() - rnd()),
                                  t * (rnd() - rnd()), s->item, n, 0);
        items_set_stack(eid, s);
    }
}

/*
 * vanilla Player.drop(stack, false, true): from eye height - 0.3, pickup
 * delay 40 ticks, thrown 0.3 along the look with a little random spread.
 */
int32_t items_throw(const player *p, const struct inv_slot *s)
{
    if (s->item <= 0 || s->count <= 0) return -1;
    double pitch = p->pitch * M_PI / 180.0, yaw = p->yaw * M_PI / 180.0;
    double sp = sin(pitch), cp = cos(pitch), sy = sin(yaw), cy = cos(yaw);
    double a = rnd() * M_PI * 2.0, f = 0.02 * rnd();
    double vx = -sy * cp * 0.3 + cos(a) * f;
    double vy = -sp * 0.3 + 0.1 + (rnd() - rnd()) * 0.1;
    double vz = cy * cp * 0.3 + sin(a) * f;
    int32_t eid =
        items_spawn(p->x, p->y + 1.62 - 0.3, p->z, vx, vy, vz, s->item, s->count, ITEM_THROW_DELAY);
    items_set_stack(eid, s);
    return eid;
}

void items_set_damage(int32_t eid, uint16_t damage)
{
    struct item_ent *it = by_eid(eid);
    if (it) it->damage = damage;
}

void items_set_stack(int32_t eid, const struct inv_slot *s)
{
    struct item_ent *it = by_eid(eid);
    if (!it) return;
    it->damage = s->damage;
    memcpy(it->ench, s->ench, sizeof it->ench);
}

void items_set_pickup_delay(int32_t eid, int ticks)
{
    if (eid < 0 || !items) return;
    for (uint32_t i = 0; i < top; i++)
        if (items[i].used && items[i].eid == eid) {
            items[i].pickup_delay = (int16_t)(ticks < 0 ? 0 : ticks > 32767 ? 32767 : ticks);
            items[i].news = true;
        }
}

/* Issue 21: a falling block rides in an item slot (see items.h). */
int32_t items_spawn_falling(double x, double y, double z, uint16_t state)
{
    int32_t eid = items_spawn(x, y, z, 0, 0, 0, 1, 1, 32767);
    if (eid < 0) return -1;
    for (uint32_t i = top; i-- > 0;)
        if (items[i].used && items[i].eid == eid) items[i].falling = state;
    return eid;
}

/* ------------------------------------------------------------------ physics */

static double half_width(const struct item_ent *it)
{
    return it->falling ? FALLING_HALF_WIDTH : it->orb ? ORB_HALF_WIDTH : ITEM_HALF_WIDTH;
}

static double height(const struct item_ent *it)
{
    return it->falling ? FALLING_HEIGHT : it->orb ? ORB_HEIGHT : ITEM_HEIGHT;
}

/* The box against full blocks, axis by axis (game/mob_rules.c, shared with
 * mobs; no step-up for items). A blocked axis loses its speed. */
static void move(struct item_ent *it)
{
    double pos[3] = {it->x, it->y, it->z}, want[3] = {it->vx, it->vy, it->vz};
    struct mob_move mv;
    mob_collide(mob_solid_at, NULL, pos, half_width(it), height(it), want, 0.0, it->on_ground, &mv);
    it->x = pos[0], it->y = pos[1], it->z = pos[2];
    it->on_ground = mv.on_ground;
    if (mv.blocked[0]) it->vx = 0;
    if (mv.blocked[2]) it->vz = 0;
    if (mv.blocked[1]) it->vy = 0; /* Block.updateEntityAfterFallOn */
}

/* FallingBlockEntity.tick: gravity, the move, landing, drag. */
static void physics_falling(struct item_ent *it)
{
    double ovx = it->vx, ovy = it->vy, ovz = it->vz, ox = it->x, oy = it->y, oz = it->z;
    it->vy -= ITEM_GRAVITY;
    move(it);
    if (it->x != ox || it->y != oy || it->z != oz) it->news = true;
    it->age++;
    if (falling_after_move(it->falling, it->x, it->y, it->z, it->on_ground, it->age))
        it->removed = it->news = true;
    it->vx *= ITEM_DRAG, it->vy *= ITEM_DRAG, it->vz *= ITEM_DRAG;
    double dx = it->vx - ovx, dy = it->vy - ovy, dz = it->vz - ovz;
    it->impulse = dx * dx + dy * dy + dz * dz > 0.01;
}

/* The player an orb follows (ExperienceOrb.scanForEntities every 20 ticks:
 * kept within 8 blocks, else the nearest living non-spectator within 8),
 * or NULL. */
static const player *orb_target(struct item_ent *it)
{
    const player *p = NULL;
    if (it->follow_eid && it->follow_idx < game.player_count &&
        game.players[it->follow_idx]->player->entity_id == it->follow_eid)
        p = game.players[it->follow_idx]->player;
    else if (it->follow_eid) /* it moved in game.players, or left */
        for (size_t k = 0; k < game.player_count && !p; k++)
            if (game.players[k]->player->entity_id == it->follow_eid) {
                p = game.players[k]->player;
                it->follow_idx = (uint32_t)k;
            }
    if (it->age % ORB_SCAN_TICKS == 1) {
        double best = ORB_FOLLOW_SQ;
        if (p) {
            double dx = p->x - it->x, dy = p->y - it->y, dz = p->z - it->z;
            if (dx * dx + dy * dy + dz * dz > ORB_FOLLOW_SQ) p = NULL;
        }
        for (size_t k = 0; k < game.player_count && !p; k++) {
            const player *o = game.players[k]->player;
            double dx = o->x - it->x, dy = o->y - it->y, dz = o->z - it->z;
            double d2 = dx * dx + dy * dy + dz * dz;
            if (o->gamemode == GM_SPECTATOR || !(o->health > 0) || d2 >= best) continue;
            best = d2;
            it->follow_eid = o->entity_id;
            it->follow_idx = (uint32_t)k;
        }
        if (!p && best < ORB_FOLLOW_SQ) p = game.players[it->follow_idx]->player;
    }
    if (p && (p->gamemode == GM_SPECTATOR || !(p->health > 0))) p = NULL;
    if (!p) it->follow_eid = 0;
    return p;
}

static void physics(struct item_ent *it)
{
    if (it->falling) {
        physics_falling(it);
        return;
    }
    if (it->pickup_delay > 0 && it->pickup_delay != 32767 && --it->pickup_delay == 0)
        it->news = true;
    if (it->orb) it->news = true; /* orbs move, follow and are taken every 2 ticks: always news */
    double ovx = it->vx, ovy = it->vy, ovz = it->vz;
    it->vy -= it->orb ? ORB_GRAVITY : ITEM_GRAVITY;
    const player *t = it->orb ? orb_target(it) : NULL;
    if (t) {
        double pos[3] = {it->x, it->y, it->z}, v[3] = {it->vx, it->vy, it->vz};
        double at[3] = {t->x, t->y + EYE_HEIGHT / 2.0, t->z};
        xp_orb_pull(pos, v, at);
        it->vx = v[0], it->vy = v[1], it->vz = v[2];
    }
    if (it->orb || !it->on_ground || it->vx * it->vx + it->vz * it->vz > 1e-5 ||
        (it->age + it->eid) % 4 == 0) {
        double ox = it->x, oy = it->y, oz = it->z;
        move(it);
        if (it->x != ox || it->y != oy || it->z != oz) it->news = true;
        it->crossed =
            floor(ox) != floor(it->x) || floor(oy) != floor(it->y) || floor(oz) != floor(it->z);
        double f = it->on_ground ? mob_friction_under(it->x, it->y, it->z) * ITEM_DRAG : ITEM_DRAG;
        it->vx *= f, it->vy *= ITEM_DRAG, it->vz *= f;
        if (it->orb && it->on_ground)
            it->vy *= ORB_BOUNCE; /* ExperienceOrb.tick: whatever its sign */
        else if (it->on_ground && it->vy < 0)
            it->vy *= -0.5;
    } else {
        it->crossed = false;
        /* Resting: vanilla lets the speed grow until the next move (every 4
         * ticks) cancels it on the ground; the same place, and no velocity
         * changes to send. */
        it->vy = 0;
    }
    double dx = it->vx - ovx, dy = it->vy - ovy, dz = it->vz - ovz;
    it->impulse = dx * dx + dy * dy + dz * dz > 0.01; /* vanilla hasImpulse */
    if (++it->age >= ITEM_LIFETIME || it->y < CHUNK_MIN_Y - VOID_DEPTH)
        it->removed = it->news = true;
}

/* Whether anything items look at in p changed since the last pass
 * (invariant 4), remembering what it is now. */
static bool player_news(player *p)
{
    bool alive = p->health > 0, spectator = p->gamemode == GM_SPECTATOR;
    bool news = !p->items_last.valid || p->x != p->items_last.x || p->y != p->items_last.y ||
                p->z != p->items_last.z || p->inv_touch_tick != p->items_last.inv_tick ||
                p->loaded_changes != p->items_last.loaded_changes || alive != p->items_last.alive ||
                spectator != p->items_last.spectator;
    p->items_last.valid = true;
    p->items_last.x = p->x, p->items_last.y = p->y, p->items_last.z = p->z;
    p->items_last.inv_tick = p->inv_touch_tick;
    p->items_last.loaded_changes = p->loaded_changes;
    p->items_last.alive = alive, p->items_last.spectator = spectator;
    return news;
}

/* ------------------------------------------------------------------ merging */

static int stack_max(int item)
{
    int max = item_info[item].stack_size;
    return max > 0 ? max : 1;
}

static bool mergeable(const struct item_ent *it)
{
    return it->used && !it->removed && !it->falling && !it->orb && it->pickup_delay != 32767 &&
           it->age < ITEM_LIFETIME && it->count < stack_max(it->item);
}

/* ItemEntity.merge: as much of `from` as fits into `to`. */
static void merge_into(struct item_ent *to, struct item_ent *from)
{
    int room = stack_max(to->item) - to->count;
    int moved = from->count < room ? from->count : room;
    if (moved <= 0) return;
    to->count = (int8_t)(to->count + moved);
    from->count = (int8_t)(from->count - moved);
    if (from->pickup_delay > to->pickup_delay) to->pickup_delay = from->pickup_delay;
    if (from->age < to->age) to->age = from->age;
    to->meta_dirty = true;
    if (from->count <= 0)
        from->removed = from->news = true;
    else
        from->meta_dirty = true;
}

/* ItemEntity.tryToMerge for the pair (i, j). */
static void merge_pair(uint32_t i, uint32_t j)
{
    struct item_ent *it = &items[i], *o = &items[j];
    if (j == i || !mergeable(o) || o->item != it->item || o->damage != it->damage ||
        !ench_same(o->ench, it->ench) ||
        o->count + it->count > stack_max(it->item)) /* ItemEntity.areMergable */
        return;
    if (fabs(o->x - it->x) >= 2 * ITEM_HALF_WIDTH + 0.5 ||
        fabs(o->z - it->z) >= 2 * ITEM_HALF_WIDTH + 0.5 || o->y + ITEM_HEIGHT <= it->y ||
        o->y >= it->y + ITEM_HEIGHT)
        return;
    if (o->count < it->count)
        merge_into(it, o);
    else
        merge_into(o, it);
}

/* Mergeable items by block column, rebuilt on a tick where one merges: an
 * item looks only at the 3 x 3 columns around its own (the merge reach,
 * 2 x 0.125 + 0.5, is under a block), not at every item. Chains may mix
 * columns that share a bucket; the box test sorts them out. */

static uint32_t bucket_of(int32_t bx, int32_t bz)
{
    return ((uint32_t)bx * 73856093u ^ (uint32_t)bz * 19349663u) & (MERGE_BUCKETS - 1);
}

static void buckets_build(void)
{
    for (uint32_t b = 0; b < MERGE_BUCKETS; b++) bucket_head[b] = -1;
    for (uint32_t j = 0; j < top; j++) {
        if (!mergeable(&items[j])) continue;
        uint32_t b = bucket_of((int32_t)floor(items[j].x), (int32_t)floor(items[j].z));
        bucket_next[j] = bucket_head[b];
        bucket_head[b] = (int32_t)j;
    }
}

static void merge_neighbours(uint32_t i)
{
    struct item_ent *it = &items[i];
    int32_t bx = (int32_t)floor(it->x), bz = (int32_t)floor(it->z);
    for (int d = 0; d < 9 && mergeable(it); d++) {
        uint32_t b = bucket_of(bx + d % 3 - 1, bz + d / 3 - 1);
        for (int32_t j = bucket_head[b]; j >= 0 && mergeable(it); j = bucket_next[j])
            merge_pair(i, (uint32_t)j);
    }
}

/* ExperienceOrb.scanForEntities' merge: the orbs of the same value whose id
 * is congruent mod 40 and whose box touches this one's grown by 0.5. */
static void merge_orbs(uint32_t i)
{
    struct item_ent *it = &items[i];
    for (uint32_t j = 0; j < top && !it->removed; j++) {
        struct item_ent *o = &items[j];
        if (j == i || !o->used || o->removed || !o->orb || o->value != it->value ||
            (o->eid - it->eid) % ORB_MERGE_MOD != 0)
            continue;
        if (fabs(o->x - it->x) >= 2 * ORB_HALF_WIDTH + 0.5 ||
            fabs(o->z - it->z) >= 2 * ORB_HALF_WIDTH + 0.5 || o->y + ORB_HEIGHT <= it->y - 0.5 ||
            o->y >= it->y + ORB_HEIGHT + 0.5)
            continue;
        it->orb_count += o->orb_count;
        if (o->age < it->age) it->age = o->age;
        o->removed = o->news = true;
    }
}

/* ------------------------------------------------------------------ pickups */

/* Vanilla Inventory.add for one stack, in player window slot numbers:
 * returns how many went in; changed[] gets the slots written. */
static int inventory_add(player *p, int item, int count, int damage, const uint16_t *ench,
                         int16_t *changed, int *nchanged)
{
    int max = damage ? 1 : stack_max(item);
    int16_t order[2 + 9 + 27];
    int n = 0;
    order[n++] = (int16_t)(36 + p->held_slot);
    order[n++] = 45;
    for (int s = 36; s <= 44; s++) order[n++] = (int16_t)s;
    for (int s = 9; s <= 35; s++) order[n++] = (int16_t)s;
    int left = count;
    for (int k = 0; k < n && left > 0; k++) { /* stacks with room */
        struct inv_slot *s = &p->inventory[order[k]];
        if (s->item != item || s->count <= 0 || s->count >= max || s->damage != damage ||
            !ench_same(s->ench, ench))
            continue;
        int put = max - s->count < left ? max - s->count : left;
        s->count = (int8_t)(s->count + put);
        left -= put;
        changed[(*nchanged)++] = order[k];
    }
    for (int k = 2; k < n && left > 0; k++) { /* empty slots, hotbar first */
        struct inv_slot *s = &p->inventory[order[k]];
        if (s->count > 0 && s->item != 0) continue;
        int put = max < left ? max : left;
        s->item = (int16_t)item, s->count = (int8_t)put, s->damage = (uint16_t)damage;
        memcpy(s->ench, ench, sizeof s->ench);
        left -= put;
        changed[(*nchanged)++] = order[k];
    }
    return count - left;
}

static bool touches(const player *p, const struct item_ent *it)
{
    double w = half_width(it);
    return it->x + w > p->x - 1.3 && it->x - w < p->x + 1.3 && it->z + w > p->z - 1.3 &&
           it->z - w < p->z + 1.3 && it->y + height(it) > p->y - 0.5 && it->y < p->y + 1.8 + 0.5;
}

/* ExperienceOrb.playerTouch: each touching player whose takeXpDelay is
 * over takes one of the orb's count (its value in points). */
static void pickup_orb(uint32_t i)
{
    struct item_ent *it = &items[i];
    for (size_t k = 0; k < game.player_count && !it->removed; k++) {
        conn *c = game.players[k];
        player *p = c->player;
        if (p->health <= 0 || p->gamemode == GM_SPECTATOR || !touches(p, it)) continue;
        if (p->xp.pick_tick && game.tick_count - p->xp.pick_tick < ORB_TAKE_TICKS) continue;
        p->xp.pick_tick = game.tick_count;
        buf_reset(&srv->pkt);
        pkt_cb_collect(&srv->pkt, it->eid, p->entity_id, 1);
        send_to_viewers(i);
        if (--it->orb_count <= 0) it->removed = it->news = true;
        xp_give(c, it->value); /* may close c: its index then holds another player */
        if (k < game.player_count && game.players[k] != c) k--;
    }
}

static void pickup(uint32_t i)
{
    struct item_ent *it = &items[i];
    for (size_t k = 0; k < game.player_count && !it->removed; k++) {
        conn *c = game.players[k];
        player *p = c->player;
        if ((!it->news && !p->items_last.dirty) || p->health <= 0 || p->gamemode == GM_SPECTATOR ||
            !touches(p, it))
            continue;
        int16_t changed[2 + 9 + 27 + 2 + 9 + 27];
        int nchanged = 0;
        int before = it->count;
        int took = inventory_add(p, it->item, it->count, it->damage, it->ench, changed, &nchanged);
        if (took <= 0) continue;
        inventory_touch(p);
        buf_reset(&srv->pkt);
        pkt_cb_collect(&srv->pkt, it->eid, p->entity_id, before); /* vanilla: the count before */
        send_to_viewers(i);
        for (int s = 0; s < nchanged; s++) {
            const struct inv_slot *sl = &p->inventory[changed[s]];
            buf_reset(&srv->pkt);
            c->proto->cb_set_slot(&srv->pkt, 0, ++p->inventory_state, changed[s], sl->item,
                                  sl->count);
            conn_send_pkt(c);
        }
        it->count = (int8_t)(it->count - took);
        if (it->count <= 0)
            it->removed = it->news = true;
        else
            it->meta_dirty = true;
        /* a drop may have moved another player into index k: look at it too */
        if (k < game.player_count && game.players[k] != c) k--;
    }
}

/* ------------------------------------------------------------------ tracking */

static double tracking_range(void)
{
    double r = ITEM_TRACKING * srv->cfg.entity_broadcast_range_percentage / 100.0;
    double v = srv->cfg.view_distance * 16.0;
    return r < v ? r : v;
}

static bool visible(const player *p, const struct item_ent *it, double range)
{
    if (it->removed) return false;
    double dx = p->x - it->x, dz = p->z - it->z;
    if (dx * dx + dz * dz > range * range) return false;
    return play_sees_chunk(p, (int32_t)floor(it->x / 16.0), (int32_t)floor(it->z / 16.0));
}

static void spawn_for(conn *c, const struct item_ent *it)
{
    if (it->orb) { /* Spawn Experience Orb: id, position, value */
        buf_reset(&srv->pkt);
        wr_varint(&srv->pkt, PKT_PLAY_CB_SPAWN_ENTITY_EXPERIENCE_ORB);
        wr_varint(&srv->pkt, it->eid);
        wr_f64(&srv->pkt, it->x);
        wr_f64(&srv->pkt, it->y);
        wr_f64(&srv->pkt, it->z);
        wr_i16(&srv->pkt, (int16_t)(it->value > 32767 ? 32767 : it->value));
        conn_send_pkt(c);
        return;
    }
    buf_reset(&srv->pkt);
    pkt_cb_bundle_delimiter(&srv->pkt);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    pkt_cb_spawn_entity(&srv->pkt, it->eid, &it->uuid,
                        it->falling ? ENTITY_TYPE_FALLING_BLOCK : ENTITY_TYPE_ITEM, it->x, it->y,
                        it->z, it->falling, it->vx, it->vy, it->vz); /* data: the block state */
    conn_send_pkt(c);
    if (!it->falling) {
        buf_reset(&srv->pkt);
        pkt_cb_entity_metadata_item(&srv->pkt, it->eid, ITEM_META_STACK, it->item, it->count);
        conn_send_pkt(c);
    }
    buf_reset(&srv->pkt);
    pkt_cb_bundle_delimiter(&srv->pkt);
    conn_send_pkt(c);
}

static void track(void)
{
    double range = tracking_range();
    for (size_t k = 0; k < game.player_count;) {
        conn *c = game.players[k];
        player *p = c->player;
        uint32_t ndestroy = 0;
        bool all = p->items_last.dirty; /* else only the items with news can differ */
        uint32_t n = all ? top : nfresh;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t i = all ? j : fresh[j];
            const struct item_ent *it = &items[i];
            if (!it->used) continue;
            bool has = seen(p, i), vis = visible(p, it, range);
            if (has == vis) continue;
            set_seen(p, i, vis);
            if (vis)
                spawn_for(c, it);
            else
                destroy[ndestroy++] = it->eid;
        }
        if (ndestroy > 0) {
            buf_reset(&srv->pkt);
            pkt_cb_entity_destroy(&srv->pkt, destroy, ndestroy);
            conn_send_pkt(c);
        }
        if (k < game.player_count && game.players[k] != c) continue;
        k++;
    }
}

static void update(uint32_t i)
{
    struct item_ent *it = &items[i];
    if (it->meta_dirty) {
        it->meta_dirty = false;
        buf_reset(&srv->pkt);
        pkt_cb_entity_metadata_item(&srv->pkt, it->eid, ITEM_META_STACK, it->item, it->count);
        send_to_viewers(i);
    }
    if (it->age % ITEM_UPDATE_TICKS != 0 && !it->impulse) return;
    if (it->x != it->sx || it->y != it->sy || it->z != it->sz) {
        it->sx = it->x, it->sy = it->y, it->sz = it->z;
        buf_reset(&srv->pkt);
        pkt_cb_entity_teleport(&srv->pkt, it->eid, it->x, it->y, it->z, 0, 0, it->on_ground);
        send_to_viewers(i);
    }
    double dvx = it->vx - it->svx, dvy = it->vy - it->svy, dvz = it->vz - it->svz;
    double d2 = dvx * dvx + dvy * dvy + dvz * dvz;
    bool stopped = it->vx == 0 && it->vy == 0 && it->vz == 0;
    if (d2 > 1e-7 || (d2 > 0 && stopped)) { /* vanilla ServerEntity.sendChanges */
        it->svx = it->vx, it->svy = it->vy, it->svz = it->vz;
        buf_reset(&srv->pkt);
        pkt_cb_entity_velocity(&srv->pkt, it->eid, it->vx, it->vy, it->vz);
        send_to_viewers(i);
    }
}

void items_tick(void)
{
    if (!items || nitems == 0) return;
    for (size_t k = 0; k < game.player_count; k++) {
        player *p = game.players[k]->player;
        p->items_last.dirty = player_news(p);
    }
    for (uint32_t i = 0; i < top; i++)
        if (items[i].used && !items[i].removed) physics(&items[i]);
    bool built = false;
    for (uint32_t i = 0; i < top; i++) {
        if (mergeable(&items[i]) && items[i].age % (items[i].crossed ? 2 : 40) == 0) {
            if (!built) buckets_build(), built = true;
            merge_neighbours(i);
        } else if (items[i].used && !items[i].removed && items[i].orb &&
                   items[i].age % ORB_SCAN_TICKS == 2) { /* the scan tick (age 1 before physics) */
            merge_orbs(i);
        }
    }
    for (uint32_t i = 0; i < top; i++) {
        if (!items[i].used || items[i].removed || items[i].falling || items[i].pickup_delay != 0)
            continue;
        if (items[i].orb &&
            items[i].age >= 2) /* spawned on clients first (vanilla pairs at once) */
            pickup_orb(i);
        else if (!items[i].orb)
            pickup(i);
    }
    nfresh = 0;
    for (uint32_t i = 0; i < top; i++)
        if (items[i].used && items[i].news) fresh[nfresh++] = i;
    track();
    for (uint32_t j = 0; j < nfresh; j++) items[fresh[j]].news = false;
    for (uint32_t i = 0; i < top; i++)
        if (items[i].used && !items[i].removed) update(i);
    for (uint32_t i = 0; i < top; i++) {
        if (!items[i].used || !items[i].removed) continue;
        items[i].used = false;
        nitems--;
    }
    while (top > 0 && !items[top - 1].used) top--;
}

void items_forget(player *p)
{
    memset(p->items_seen, 0, sizeof p->items_seen);
    p->items_last.valid = false; /* the next pass looks at every item for p */
}

uint32_t items_count(void)
{
    return nitems;
}

void items_free(void)
{
    free(items);
    free(destroy);
    free(fresh);
    free(bucket_head);
    free(bucket_next);
    items = NULL, destroy = NULL, fresh = NULL, bucket_head = bucket_next = NULL;
    nitems = top = nfresh = 0;
}
