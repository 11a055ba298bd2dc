/*
 * entities.c — see entities.h for the tracking rule; what a player does that
 * others see (swings, sneaking, game mode, death, respawn) is in
 * ent_actions.c, the state both share in ent_internal.h.
 *
 * Space is split into interest cells of one chunk column. Each tracked
 * player (struct ent) is in the cell of its position; each viewer keeps
 * `seen`, a bitmap over entity slots: bit s set ⇔ entity s is spawned on
 * that viewer's client.
 *
 * One tick, as the tick's phases 4 to 6 (game/tick.c), in this order:
 *   roster (phase 4, ent_tick_leaves, first thing of play_tick_roster):
 *      the players who left since the last tick are removed from every
 *      client that had them — one Remove Entities per viewer, with every
 *      such id — before the Player Info Remove, and their slots freed;
 *   tracking (phase 5, ent_tick_tracking):
 *   0. deaths older than 20 ticks leave the world (vanilla removes the body);
 *   1. cells: every present entity is put in the cell of its position;
 *      entities that changed cell, appeared or changed visibility
 *      (spectator) are collected; one that no client has (`held` 0)
 *      takes its current state as its base;
 *   2. tracking: a viewer whose interest changed (its window moved, chunks
 *      arrived, spectator toggled) — and a capped viewer once a second — is
 *      rescanned against the cells around it; otherwise only the collected
 *      entities are checked against it. A spawn goes out at once as one
 *      Bundle (Spawn Player at the base, head rotation, metadata,
 *      equipment: vanilla's addPairing); Player Info went out in phase 4,
 *      so clients accept it. Removals are gathered into one Remove Entities
 *      per viewer;
 *   relay (phase 6, ent_tick_relay):
 *   3. each entity due an update (every 2 ticks for players, as vanilla's
 *      updateInterval; at once for actions) appends what changed, framed
 *      once, to its cell's batch: entity event, swing, equipment, move /
 *      look, metadata, head rotation;
 *   4. delivery: each viewer gets the batches of the active cells in its
 *      interest — the same bytes for everyone — minus its own segment; a
 *      capped viewer gets the segments of the entities it has.
 *   So the cost grows with viewers × active cells, not movers × viewers,
 *   and a cell where nothing happened costs nothing.
 *
 * No news, no bytes: where mcserv departs from vanilla. Vanilla's
 * ServerEntity.sendChanges resends the position every 60 ticks (a zero
 * relative move for a player standing still), sends a full Teleport Entity
 * every 400 updates (40 s for a player) and whenever on-ground flips. Those
 * resyncs bound the drift between the server's exact base and what clients
 * rebuilt from rounded deltas. mcserv instead keeps the base as the clients
 * hold it: the position in 1/4096 blocks, rounded as the client rounds,
 * that every viewer reached by applying the same batch bytes (or was
 * spawned at). A relative move is always encode(position) − base, so
 * rounding never accumulates and there is nothing to resync:
 *   - a player that did not move, turn or change costs its viewers nothing;
 *   - a move under vanilla's threshold (7.63e-6 blocks², 2.8 mm) waits, as
 *     in vanilla, and is sent once the player stands still (what vanilla's
 *     60-tick resend catches), so clients show a player where it stopped;
 *   - on-ground rides on the next move or look (each carries the flag) and
 *     is not sent alone: Spawn Player carries none, so in vanilla too every
 *     viewer that spawned a still player after it landed holds it as not on
 *     ground until it moves; sent alone it cost a join wave one packet per
 *     pair (a bot's first "on ground" after its spawn; vanilla: a teleport);
 *   - Teleport Entity only when a delta does not fit an i16 (8 blocks);
 *   - the tab-list latencies go out every 30 s as in vanilla, but only the
 *     ones whose ping icon changed or that moved by 20 ms and a fifth
 *     (vanilla sends all: 180 KB to each of 10,000 players).
 * Safe for clients: the vanilla client (VecDeltaCodec) decodes a delta as
 * decode(encode(base) + delta) and takes that as its new base — the same
 * integer arithmetic as here — and a spawn or teleport sets its base to the
 * position sent, whose encoding is the server's base. mineflayer adds
 * delta / 4096 (exact in a double) to the spawn position: the same values.
 *
 * Invariants:
 *  1. After phase 2, for every viewer V and entity E: seen_V(E) ⇒
 *     visible(V, E) (rule in entities.h), and seen_V(E) ⇔ visible(V, E)
 *     unless V is capped. So a cell's batch — exactly the entities of that
 *     cell, layer 0 for everyone, layer 1 for spectators only — concerns
 *     only entities an uncapped V has spawned; a capped V gets per-entity
 *     segments instead.
 *  2. Spawns (phase 2) use the relay base, so a relative move in the same
 *     tick's batch (phase 3) lands right. The base moves only when a packet
 *     carrying the new position is framed into a batch, or while no client
 *     has the entity (held = the number of viewers whose seen bit is set).
 *  3. A viewer's interest changes only through its window centre, its view
 *     distance, its chunks (chunks_sent) and its spectator flag; all four are
 *     snapshotted, and a respawn forces a rescan.
 *  4. Leaving is always deferred to the next roster phase (a player may
 *     leave in the middle of a phase: dropped for a full output buffer); the
 *     slot table is never compacted while iterated. A leaving entity is
 *     visible to nobody, never a viewer, and has no player any more.
 *  5. Base: fx/fy/fz = round(position × 4096) of what viewers hold; a
 *     relative move's Δ = round(new × 4096) − base must fit an i16, else
 *     Teleport Entity. Buffers (batches, spawn caches, lists) are reused
 *     from tick to tick.
 *  6. mcserv-max-tracked-players N > 0: |seen_V| ≤ N. A rescan keeps the N
 *     nearest (an entity already spawned counts TRACK_HYSTERESIS blocks
 *     nearer, so two players at about the same distance do not swap every
 *     second); between rescans a newly visible entity is spawned only while
 *     V has room. mcserv-player-visibility=none: visible() is always false.
 *  7. Visibility is per chunk (in_interest), so a viewer V that holds E
 *     was shown it while E was in the chunk it was last judged in
 *     (tr_cx, tr_cz), which V then held; V still holds that chunk unless
 *     its window changed, and then V is rescanned this tick. So when E
 *     changes, only the viewers of that chunk (chunk_viewers.h) and of
 *     E's chunk now are judged again, not every player.
 */
#include "game/entities.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "core/log.h"
#include "game/chat.h"
#include "game/chunk_viewers.h"
#include "game/ent_internal.h"
#include "game/game.h"
#include "game/inventory.h"
#include "game/gamerules.h"
#include "game/play.h"
#include "game/playerdata.h"
#include "game/spawnpoint.h"
#include "game/tablist.h"
#include "proto/frame.h"
#include "proto/packets.h"

#define UPDATE_INTERVAL     2                /* vanilla EntityType.PLAYER updateInterval */
#define PLAYER_TRACKING     512              /* clientTrackingRange 32 chunks, in blocks */
#define LATENCY_EVERY_TICKS 600              /* vanilla PlayerList: latencies every 30 s */
#define MOVE_EPSILON_SQ     7.62939453125e-6 /* vanilla: blocks² a base must move by */
#define CAP_RESCAN_TICKS    20  /* a capped viewer picks its nearest again every second */
#define TRACK_HYSTERESIS    2.0 /* blocks an already spawned entity counts nearer */
#define META_FLAGS          0
#define META_POSE           6
#define META_HEALTH         9
#define META_SLEEPING_POS   14 /* LivingEntity.SLEEPING_POS_ID (issue 21: beds) */
#define META_SKIN           17
#define META_MAIN_HAND      18

struct cell {
    int32_t x, z;
    int32_t head; /* first entity slot, -1 none */
    uint32_t count;
    int32_t hnext; /* next cell in its hash bucket, or in the free list */
    bool used, active;
    buf_t batch[2];
    /* Its players who count for the mobs (ent_player_within): how many and
     * their bounding box, summed on demand once a game tick (cell_sum);
     * sum_tick is game.tick_count + 1 when valid, 0 after a member joined
     * or left the cell. */
    uint64_t sum_tick;
    uint32_t npl;
    double lo[3], hi[3];
};

/* A visible entity during a rescan, with its distance key (invariant 6). */
struct cand {
    double key;
    uint32_t slot;
};

static struct ent **ents; /* by slot; NULL = free */
static uint32_t nslots, slots_cap;
static uint32_t *free_slots;
static uint32_t nfree_slots, free_cap;
static size_t seen_words;
static uint32_t nleaving; /* entities with `leaving` set, still in their slot */

static struct cell *cells;
static uint32_t ncells, cells_cap, cells_used;
static int32_t free_cell = -1;
static int32_t *buckets;
static uint32_t nbuckets;
static uint32_t *active; /* cells with a batch this tick */
static uint32_t nactive, active_cap;

static uint32_t *changed; /* slots */
static uint32_t nchanged, changed_cap;

static struct cand *cands; /* rescan scratch */
static uint32_t cands_cap;
static uint32_t *gone; /* ent_tick_leaves scratch: the slots leaving */
static uint32_t gone_cap;

/* Entities live in a pool (core/pool.h): every tick walks them all. */
static pool ent_pool = POOL_INIT(struct ent);
static uint64_t tick_no = 1;
static uint64_t mark_gen;
static double range_sq_chunks; /* (R/16)^2 */
static int range_chunks;       /* ceil(R/16) */
static buf_t pk;               /* one packet being built */

/* ------------------------------------------------------------------ helpers */

static inline int32_t chunk_of(double v)
{
    return (int32_t)floor(v / 16.0);
}

static inline int angle_of(float deg)
{
    /* vanilla Mth.floor(f * 256 / 360), taken modulo a turn first so that any
     * finite angle (a /tp rotation, saved player data) stays in int range;
     * the protocol byte keeps only the low 8 bits anyway. */
    if (!isfinite(deg)) return 0;
    float turns = fmodf(deg, 360.0f);
    return (int)floorf(turns * 256.0f / 360.0f);
}

static inline int64_t fixed_of(double v)
{
    return (int64_t)floor(v * 4096.0 + 0.5); /* Java Math.round, as VecDeltaCodec.encode */
}

static inline bool fits_i16(int64_t v)
{
    return v >= INT16_MIN && v <= INT16_MAX;
}

static bool grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need) ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n) return false;
    *arr = n;
    *cap = ncap;
    return true;
}

double ent_tracking_range(void)
{
    double r = PLAYER_TRACKING * srv->cfg.entity_broadcast_range_percentage / 100.0;
    double v = srv->cfg.view_distance * 16.0;
    return r < v ? r : v;
}

static void range_init(void)
{
    double r = ent_tracking_range() / 16.0;
    range_sq_chunks = r * r;
    range_chunks = (int)ceil(r);
}

/* mcserv-max-tracked-players; 0: no cap. */
static inline uint32_t track_cap(void)
{
    return srv->cfg.max_tracked_players > 0 ? (uint32_t)srv->cfg.max_tracked_players : 0;
}

/* Frames pk into `out` (the server's compression threshold: every PLAY
 * connection negotiated it at login, so the bytes suit every viewer). */
static void frame_into(buf_t *out)
{
    if (pk.failed) return;
    frame_encode(out, pk.data, pk.len, srv->cfg.compression_threshold, srv->compressor);
}

/* The per-entity passes below touch a few lines of each entity, its player
 * and its connection, so memory latency, not work, bounds them: slot i+8's
 * entity and slot i+4's other lines are fetched ahead. */
static inline void prefetch_ahead(uint32_t i)
{
    if (i + 8 < nslots && ents[i + 8]) __builtin_prefetch(ents[i + 8]);
    const struct ent *a = i + 4 < nslots ? ents[i + 4] : NULL;
    if (!a) return;
    /* lines 1 and 2 (line 0 came 4 slots ago): what an idle entity costs */
    __builtin_prefetch((const char *)a + 64);
    __builtin_prefetch((const char *)a + 128);
    if (a->p) {
        __builtin_prefetch(&a->p->x);
        __builtin_prefetch(&a->p->gamemode);
        __builtin_prefetch(&a->p->inv_touch_tick); /* inventory_touched */
    }
    if (a->c) __builtin_prefetch(a->c);
}

static bool usable_viewer(const struct ent *v)
{
    return v && !v->leaving && v->c && !v->c->closed && v->c->state == CS_PLAY;
}

static inline bool seen_get(const struct ent *v, uint32_t slot)
{
    return v->seen[slot >> 6] >> (slot & 63) & 1;
}

/* Keeps v->nseen and the entity's `held` in step with the bit. */
static inline void seen_set(struct ent *v, uint32_t slot, bool on)
{
    uint64_t bit = 1ull << (slot & 63), *w = &v->seen[slot >> 6];
    if (on == ((*w & bit) != 0)) return;
    *w ^= bit;
    struct ent *e = slot < nslots ? ents[slot] : NULL;
    if (on) {
        v->nseen++;
        if (e) e->held++;
    } else {
        v->nseen--;
        if (e) e->held--;
    }
}

/* ------------------------------------------------------------------- cells */

static uint32_t cell_hash(int32_t x, int32_t z)
{
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)z * 0x85EBCA77u;
    return (h ^ h >> 15) & (nbuckets - 1);
}

static void cell_rehash(void)
{
    uint32_t nb = nbuckets ? nbuckets * 2 : 64;
    int32_t *b = malloc(nb * sizeof *b);
    if (!b) return; /* keep the old table: longer chains, still correct */
    free(buckets);
    buckets = b;
    nbuckets = nb;
    for (uint32_t i = 0; i < nb; i++) buckets[i] = -1;
    for (uint32_t i = 0; i < ncells; i++) {
        if (!cells[i].used) continue;
        uint32_t h = cell_hash(cells[i].x, cells[i].z);
        cells[i].hnext = buckets[h];
        buckets[h] = (int32_t)i;
    }
}

static int32_t cell_find(int32_t x, int32_t z)
{
    if (!nbuckets) return -1;
    for (int32_t i = buckets[cell_hash(x, z)]; i >= 0; i = cells[i].hnext)
        if (cells[i].x == x && cells[i].z == z) return i;
    return -1;
}

static int32_t cell_get(int32_t x, int32_t z)
{
    int32_t i = cell_find(x, z);
    if (i >= 0) return i;
    if (free_cell >= 0) {
        i = free_cell;
        free_cell = cells[i].hnext;
    } else {
        if (!grow((void **)&cells, &cells_cap, ncells + 1, sizeof *cells)) return -1;
        i = (int32_t)ncells++;
        memset(&cells[i], 0, sizeof cells[i]);
        buf_init(&cells[i].batch[0], 4u << 20);
        buf_init(&cells[i].batch[1], 4u << 20);
    }
    struct cell *c = &cells[i];
    c->x = x;
    c->z = z;
    c->head = -1;
    c->count = 0;
    c->used = true;
    c->active = false;
    c->sum_tick = 0;
    cells_used++;
    /* A rehash relinks every used cell, this one included: link it by hand
     * only when no rehash happened (linking it again made it point at itself). */
    uint32_t old_nb = nbuckets;
    if (cells_used > nbuckets) cell_rehash();
    if (nbuckets == old_nb) {
        if (!nbuckets) { /* no table at all: out of memory */
            c->used = false;
            cells_used--;
            c->hnext = free_cell;
            free_cell = i;
            return -1;
        }
        uint32_t h = cell_hash(x, z);
        c->hnext = buckets[h];
        buckets[h] = i;
    }
    return i;
}

/* Returns an empty, inactive cell to the free list (its buffers are kept). */
static void cell_release(int32_t i)
{
    struct cell *c = &cells[i];
    if (!c->used || c->count || c->active) return;
    int32_t *pp = &buckets[cell_hash(c->x, c->z)];
    while (*pp >= 0 && *pp != i) pp = &cells[*pp].hnext;
    if (*pp == i) *pp = c->hnext;
    c->used = false;
    cells_used--;
    buf_shrink_if_idle(&c->batch[0], 16u << 10);
    buf_shrink_if_idle(&c->batch[1], 16u << 10);
    c->hnext = free_cell;
    free_cell = i;
}

static void cell_unlink(struct ent *e)
{
    if (e->cell < 0) return;
    struct cell *c = &cells[e->cell];
    if (e->cprev >= 0)
        ents[e->cprev]->cnext = e->cnext;
    else
        c->head = e->cnext;
    if (e->cnext >= 0) ents[e->cnext]->cprev = e->cprev;
    c->count--;
    c->sum_tick = 0;
    int32_t old = e->cell;
    e->cell = -1;
    cell_release(old);
}

static bool cell_link(struct ent *e, int32_t cx, int32_t cz)
{
    int32_t i = cell_get(cx, cz);
    if (i < 0) return false;
    struct cell *c = &cells[i];
    e->cell = i;
    e->cx = cx;
    e->cz = cz;
    e->cprev = -1;
    e->cnext = c->head;
    if (c->head >= 0) ents[c->head]->cprev = (int32_t)e->slot;
    c->head = (int32_t)e->slot;
    c->count++;
    c->sum_tick = 0;
    return true;
}

/* ------------------------------------------------------ players near a point */

/* A player the mobs see (spawning distances, despawning): in the world
 * (alive, or dead for under a second) and not a spectator. */
static bool counts_for_mobs(const struct ent *e)
{
    return e->p && e->present && e->p->spawned && e->p->gamemode != ENT_SPECTATOR;
}

static void cell_sum(struct cell *c)
{
    if (c->sum_tick == game.tick_count + 1) return;
    c->sum_tick = game.tick_count + 1;
    c->npl = 0;
    for (int32_t s = c->head; s >= 0; s = ents[s]->cnext) {
        const struct ent *e = ents[s];
        if (!counts_for_mobs(e)) continue;
        double v[3] = {e->p->x, e->p->y, e->p->z};
        for (int k = 0; k < 3; k++) {
            if (!c->npl || v[k] < c->lo[k]) c->lo[k] = v[k];
            if (!c->npl || v[k] > c->hi[k]) c->hi[k] = v[k];
        }
        c->npl++;
    }
}

/* Whether a player of cell c is within √r2 of v: the bounding box answers
 * when it lies wholly outside or inside the sphere, the members otherwise. */
static bool cell_within(struct cell *c, const double v[3], double r2)
{
    cell_sum(c);
    if (!c->npl) return false;
    double near = 0, far = 0;
    for (int k = 0; k < 3; k++) {
        double below = c->lo[k] - v[k], above = v[k] - c->hi[k];
        double out = below > 0 ? below : above > 0 ? above : 0;
        double a = fabs(v[k] - c->lo[k]), b = fabs(v[k] - c->hi[k]);
        near += out * out;
        far += (a > b ? a : b) * (a > b ? a : b);
    }
    if (near > r2) return false;
    if (far <= r2) return true;
    for (int32_t s = c->head; s >= 0; s = ents[s]->cnext) {
        const struct ent *e = ents[s];
        if (!counts_for_mobs(e)) continue;
        double dx = e->p->x - v[0], dy = e->p->y - v[1], dz = e->p->z - v[2];
        if (dx * dx + dy * dy + dz * dz <= r2) return true;
    }
    return false;
}

bool ent_player_within(double x, double y, double z, double r)
{
    if (!(r >= 0) || !isfinite(x) || !isfinite(z)) return false;
    const double v[3] = {x, y, z};
    double r2 = r * r;
    if (r <= 4096 && fabs(x) < 1e8 && fabs(z) < 1e8) {
        int32_t x0 = chunk_of(x - r), x1 = chunk_of(x + r);
        int32_t z0 = chunk_of(z - r), z1 = chunk_of(z + r);
        uint64_t area = (uint64_t)(x1 - x0 + 1) * (uint64_t)(z1 - z0 + 1);
        if (area <= cells_used) { /* fewer lookups than cells */
            for (int32_t cz = z0; cz <= z1; cz++)
                for (int32_t cx = x0; cx <= x1; cx++) {
                    int32_t ci = cell_find(cx, cz);
                    if (ci >= 0 && cells[ci].count && cell_within(&cells[ci], v, r2)) return true;
                }
            return false;
        }
    }
    for (uint32_t i = 0; i < ncells; i++)
        if (cells[i].used && cells[i].count && cell_within(&cells[i], v, r2)) return true;
    return false;
}

void ent_player_columns(void (*fn)(void *ctx, int32_t cx, int32_t cz), void *ctx)
{
    for (uint32_t i = 0; i < ncells; i++) {
        struct cell *c = &cells[i];
        if (!c->used || !c->count) continue;
        cell_sum(c);
        if (c->npl) fn(ctx, c->x, c->z);
    }
}

/* ---------------------------------------------------------------- interest */

static bool in_interest(const struct ent *v, int32_t cx, int32_t cz)
{
    int32_t dx = cx - v->p->center_x, dz = cz - v->p->center_z;
    if ((double)dx * dx + (double)dz * dz > range_sq_chunks) return false;
    return play_sees_chunk(v->p, cx, cz);
}

static bool visible(const struct ent *v, const struct ent *e)
{
    if (v == e || !e->present || e->cell < 0 || e->leaving) return false;
    if (srv->cfg.player_visibility == VIS_NONE) return false; /* invariant 6 */
    if (e->layer && !v->v_spect) return false;
    return in_interest(v, e->cx, e->cz);
}

/* ------------------------------------------------------------ spawn/destroy */

static void meta_entries(const struct ent *e, struct pkt_meta *m, size_t *n, bool all)
{
    const player *p = e->p;
    *n = 0;
    if (all || e->meta_dirty) {
        m[(*n)++] =
            (struct pkt_meta){.index = META_FLAGS, .type = PKT_META_BYTE, .i = e->flags, .f = 0};
        m[(*n)++] =
            (struct pkt_meta){.index = META_POSE, .type = PKT_META_POSE, .i = e->pose, .f = 0};
        if (e->pose == ENT_POSE_SLEEPING || (!all && e->was_asleep))
            m[(*n)++] = ent_sleeping_pos_meta(p);
    }
    if (all || e->health_dirty)
        m[(*n)++] =
            (struct pkt_meta){.index = META_HEALTH, .type = PKT_META_FLOAT, .i = 0, .f = p->health};
    if (all || e->looks_dirty) {
        m[(*n)++] = (struct pkt_meta){
            .index = META_SKIN, .type = PKT_META_BYTE, .i = p->skin_parts, .f = 0};
        m[(*n)++] = (struct pkt_meta){
            .index = META_MAIN_HAND, .type = PKT_META_BYTE, .i = p->main_hand, .f = 0};
    }
}

void ent_equipment_of(const player *p, struct pkt_equipment *out)
{
    static const int inv[ENT_EQUIP_SLOTS] = {-1, 45, 8, 7, 6, 5};
    for (int s = 0; s < ENT_EQUIP_SLOTS; s++) {
        int idx = s == 0 ? 36 + (p->held_slot >= 0 && p->held_slot < 9 ? p->held_slot : 0) : inv[s];
        const struct inv_slot *it = &p->inventory[idx];
        out[s] = (struct pkt_equipment){(int8_t)s, it->count > 0 ? it->item : 0,
                                        it->count > 0 ? it->count : 0};
    }
}

/* The spawn of e at its relay base as one framed Bundle, built once per tick. */
static const buf_t *spawn_frames(struct ent *e)
{
    if (e->spawn_tick == tick_no) return &e->spawn;
    if (!e->spawn.limit) buf_init(&e->spawn, 64u << 10);
    buf_reset(&e->spawn);
    const player *p = e->p;
    buf_reset(&pk);
    pkt_cb_bundle_delimiter(&pk);
    frame_into(&e->spawn);
    buf_reset(&pk);
    pkt_cb_named_entity_spawn(&pk, e->eid, &p->uuid, (double)e->fx / 4096.0, (double)e->fy / 4096.0,
                              (double)e->fz / 4096.0, (uint8_t)e->yawp, (uint8_t)e->pitchp);
    frame_into(&e->spawn);
    buf_reset(&pk);
    pkt_cb_entity_head_rotation(&pk, e->eid, (uint8_t)e->headp);
    frame_into(&e->spawn);
    struct pkt_meta m[8];
    size_t n;
    meta_entries(e, m, &n, true);
    buf_reset(&pk);
    pkt_cb_entity_metadata(&pk, e->eid, m, n);
    frame_into(&e->spawn);
    struct pkt_equipment eq[ENT_EQUIP_SLOTS];
    size_t ne = 0;
    for (int s = 0; s < ENT_EQUIP_SLOTS; s++)
        if (e->equip[s].item) eq[ne++] = e->equip[s];
    if (ne) {
        buf_reset(&pk);
        pkt_cb_entity_equipment(&pk, e->eid, eq, ne);
        frame_into(&e->spawn);
    }
    buf_reset(&pk);
    pkt_cb_bundle_delimiter(&pk);
    frame_into(&e->spawn);
    e->spawn_tick = tick_no;
    return &e->spawn;
}

static void spawn_for(struct ent *v, struct ent *e)
{
    const buf_t *f = spawn_frames(e);
    if (!f->failed) conn_send_raw(v->c, f->data, f->len);
    seen_set(v, e->slot, true);
}

static void destroy_later(struct ent *v, struct ent *e)
{
    seen_set(v, e->slot, false);
    if (!grow((void **)&v->destroy, &v->destroy_cap, v->ndestroy + 1, sizeof *v->destroy)) return;
    v->destroy[v->ndestroy++] = e->eid;
}

static void flush_destroys(struct ent *v)
{
    if (!v->ndestroy) return;
    if (usable_viewer(v)) {
        buf_reset(&srv->pkt);
        pkt_cb_entity_destroy(&srv->pkt, v->destroy, v->ndestroy);
        conn_send_pkt(v->c);
    }
    v->ndestroy = 0;
    if (v->destroy_cap > 4096) {
        free(v->destroy);
        v->destroy = NULL;
        v->destroy_cap = 0;
    }
}

static void flush_all_destroys(void)
{
    for (uint32_t i = 0; i < nslots; i++)
        if (ents[i]) flush_destroys(ents[i]);
}

static void cand_add(struct ent *v, struct ent *e, uint32_t *n)
{
    if (!grow((void **)&cands, &cands_cap, *n + 1, sizeof *cands)) return;
    double dx = e->p->x - v->p->x, dy = e->p->y - v->p->y, dz = e->p->z - v->p->z;
    double d = sqrt(dx * dx + dy * dy + dz * dz);
    cands[*n].key = seen_get(v, e->slot) ? d - TRACK_HYSTERESIS : d;
    cands[*n].slot = e->slot;
    (*n)++;
}

/* Every entity visible to v into cands (slots and distance keys). */
static uint32_t collect_visible(struct ent *v)
{
    uint32_t n = 0;
    int r = range_chunks;
    uint64_t area = (uint64_t)(2 * r + 1) * (uint64_t)(2 * r + 1);
    if (cells_used < area) {
        for (uint32_t i = 0; i < ncells; i++) {
            struct cell *c = &cells[i];
            if (!c->used || !c->count || !in_interest(v, c->x, c->z)) continue;
            for (int32_t s = c->head; s >= 0; s = ents[s]->cnext)
                if (visible(v, ents[s])) cand_add(v, ents[s], &n);
        }
        return n;
    }
    int32_t vx = v->p->center_x, vz = v->p->center_z;
    for (int dx = -r; dx <= r; dx++)
        for (int dz = -r; dz <= r; dz++) {
            int32_t ci = cell_find(vx + dx, vz + dz);
            if (ci < 0 || !cells[ci].count || !in_interest(v, vx + dx, vz + dz)) continue;
            for (int32_t s = cells[ci].head; s >= 0; s = ents[s]->cnext)
                if (visible(v, ents[s])) cand_add(v, ents[s], &n);
        }
    return n;
}

static bool cand_less(const struct cand *a, const struct cand *b)
{
    return a->key < b->key || (a->key == b->key && a->slot < b->slot);
}

/* Reorders a[0..n) so that a[0..k) holds the k smallest keys, 0 < k < n
 * (quickselect, Hoare's partition; ties broken by slot, so the choice is
 * deterministic). */
static void select_nearest(struct cand *a, uint32_t n, uint32_t k)
{
    long lo = 0, hi = (long)n - 1, want = (long)k - 1;
    while (lo < hi) {
        struct cand pivot = a[lo + (hi - lo) / 2], t;
        long i = lo, j = hi;
        while (i <= j) {
            while (cand_less(&a[i], &pivot)) i++;
            while (cand_less(&pivot, &a[j])) j--;
            if (i <= j) {
                t = a[i], a[i] = a[j], a[j] = t;
                i++, j--;
            }
        }
        /* a[lo..j] < pivot-or-equal, a[i..hi] after it, between: the pivot */
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            return;
    }
}

/* Brings v->seen to the visible set, or to its nearest N when capped
 * (invariants 1 and 6), by scanning cells. */
static void rescan(struct ent *v)
{
    uint64_t gen = ++mark_gen;
    uint32_t n = collect_visible(v), cap = track_cap();
    v->capped = cap && n > cap;
    if (v->capped) {
        select_nearest(cands, n, cap);
        n = cap;
    }
    for (uint32_t i = 0; i < n; i++) ents[cands[i].slot]->mark = gen;
    /* Removals first, so a capped viewer never holds more than N. */
    for (size_t w = 0; w < seen_words; w++) {
        uint64_t bits = v->seen[w];
        while (bits) {
            uint32_t s = (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(bits));
            bits &= bits - 1;
            struct ent *e = s < nslots ? ents[s] : NULL;
            if (!e)
                seen_set(v, s, false);
            else if (e->mark != gen)
                destroy_later(v, e);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        struct ent *e = ents[cands[i].slot];
        if (!seen_get(v, e->slot)) spawn_for(v, e);
    }
    v->rescanned_tick = tick_no;
}

/* ----------------------------------------------------------- join, leave */

static bool slots_grow(uint32_t need)
{
    uint32_t old_cap = slots_cap;
    if (!grow((void **)&ents, &slots_cap, need, sizeof *ents)) return false;
    for (uint32_t i = old_cap; i < slots_cap; i++) ents[i] = NULL;
    size_t words = (slots_cap + 63) / 64;
    if (words <= seen_words) return true;
    /* seen_words moves only once every bitmap has the new size. */
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *e = ents[i];
        if (!e) continue;
        uint64_t *n = realloc(e->seen, words * sizeof *n);
        if (!n) return false;
        memset(n + seen_words, 0, (words - seen_words) * sizeof *n);
        e->seen = n;
    }
    seen_words = words;
    return true;
}

void ent_mark_changed(struct ent *e)
{
    if (e->changed) return;
    if (!grow((void **)&changed, &changed_cap, nchanged + 1, sizeof *changed)) return;
    e->changed = true;
    changed[nchanged++] = e->slot;
}

void ent_base_reset(struct ent *e)
{
    const player *p = e->p;
    e->fx = fixed_of(p->x);
    e->fy = fixed_of(p->y);
    e->fz = fixed_of(p->z);
    e->lx = p->x;
    e->ly = p->y;
    e->lz = p->z;
    e->yawp = angle_of(p->yaw);
    e->pitchp = angle_of(p->pitch);
    e->headp = e->yawp;
    e->age = 0;
}

void ent_join(conn *c)
{
    player *p = c->player;
    if (!ents) range_init();
    uint32_t slot = nfree_slots ? free_slots[nfree_slots - 1] : nslots;
    struct ent *e = pool_alloc(&ent_pool);
    if (!e || !slots_grow(slot + 1) || !(e->seen = calloc(seen_words, sizeof *e->seen))) {
        pool_free(&ent_pool, e);
        conn_kick(c, "Server out of memory");
        return;
    }
    if (nfree_slots)
        nfree_slots--;
    else
        nslots++;
    e->c = c;
    e->p = p;
    e->eid = p->entity_id;
    e->slot = slot;
    e->cell = -1;
    e->death_ticks = -1;
    e->present = true;
    ents[slot] = e;
    p->ent = e;
    /* playerdata_load may have set them from the player's file; a dead
     * player rejoins alive (vanilla respawns on login). */
    if (!(p->health > 0)) p->health = 20.0f;
    if (p->food <= 0) p->food = 20;
    p->main_hand = 1;
    e->latency_sent = p->latency_ms;
    ent_base_reset(e);
    ent_equipment_of(p, e->equip);
    e->rescan = true;
    ent_mark_changed(e);
}

size_t ent_memory(void)
{
    size_t n = pool_bytes(&ent_pool) + nslots * sizeof *ents;
    for (uint32_t i = 0; i < nslots; i++) {
        const struct ent *e = ents[i];
        if (e)
            n += seen_words * sizeof *e->seen + e->destroy_cap * sizeof *e->destroy + e->spawn.cap;
    }
    return n;
}

void ent_leave(conn *c)
{
    struct ent *e = c->player ? c->player->ent : NULL;
    if (!e || e->leaving) return;
    e->leaving = true; /* removed by the next roster phase (invariant 4) */
    e->p->ent = NULL;
    e->p = NULL;
    e->c = NULL;
    nleaving++;
}

static void free_ent(struct ent *e)
{
    for (size_t w = 0; w < seen_words; w++) /* what it held, as a viewer */
        for (uint64_t bits = e->seen[w]; bits; bits &= bits - 1)
            seen_set(e, (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(bits)), false);
    cell_unlink(e);
    ents[e->slot] = NULL;
    /* If the list cannot grow the slot is simply never reused. */
    if (grow((void **)&free_slots, &free_cap, nfree_slots + 1, sizeof *free_slots))
        free_slots[nfree_slots++] = e->slot;
    free(e->seen);
    free(e->destroy);
    buf_free(&e->spawn);
    pool_free(&ent_pool, e);
}

void ent_tick_leaves(void)
{
    if (!nleaving || !grow((void **)&gone, &gone_cap, nleaving, sizeof *gone)) return;
    /* The leavers of now: one dropped while the packets below go out is
     * counted for the next tick (invariant 4). */
    uint32_t ngone = 0;
    for (uint32_t i = 0; i < nslots && ngone < nleaving; i++)
        if (ents[i] && ents[i]->leaving) gone[ngone++] = i;
    nleaving -= ngone;
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *v = ents[i];
        if (!v) continue;
        for (uint32_t k = 0; k < ngone; k++)
            if (seen_get(v, gone[k])) destroy_later(v, ents[gone[k]]);
    }
    flush_all_destroys(); /* one Remove Entities per viewer */
    for (uint32_t k = 0; k < ngone; k++) free_ent(ents[gone[k]]);
}

int32_t ent_tab_latency(const player *p)
{
    return p->ent ? p->ent->latency_sent : p->latency_ms;
}

/* ---------------------------------------------------------------- the tick */

/* Phase 1: cell membership and the changed list. */
static void update_cells(void)
{
    for (uint32_t i = 0; i < nslots; i++) {
        prefetch_ahead(i);
        struct ent *e = ents[i];
        if (!e || e->leaving) continue;
        player *p = e->p;
        if (e->death_ticks >= 0 && ++e->death_ticks >= ENT_DEATH_REMOVE_TICKS && e->present) {
            e->present = false; /* the body is removed (vanilla tickDeath) */
        }
        if (e->respawned) {
            /* Clients drop the old body before the new player appears. */
            for (uint32_t k = 0; k < nslots; k++) {
                struct ent *v = ents[k];
                if (!v || !seen_get(v, e->slot)) continue;
                destroy_later(v, e);
                flush_destroys(v);
            }
            e->respawned = false;
            ent_mark_changed(e);
        }
        if (!e->held) ent_base_reset(e); /* no client has it (invariant 2) */
        uint8_t layer = p->gamemode == ENT_SPECTATOR;
        if (layer != e->layer) {
            e->layer = layer;
            ent_mark_changed(e);
        }
        if (!e->present) {
            if (e->cell >= 0) {
                cell_unlink(e);
                ent_mark_changed(e);
            }
            continue;
        }
        int32_t cx = chunk_of(p->x), cz = chunk_of(p->z);
        if (e->cell >= 0 && cx == e->cx && cz == e->cz) continue;
        cell_unlink(e);
        cell_link(e, cx, cz);
        ent_mark_changed(e);
    }
}

/* Phase 2: tracking. */
/* One viewer's verdict on a changed entity e. */
static void judge(struct ent *v, struct ent *e, uint32_t cap)
{
    if (!usable_viewer(v) || v == e || v->rescanned_tick == tick_no) return;
    bool want = visible(v, e), have = seen_get(v, e->slot);
    if (want && !have) {
        if (cap && v->nseen >= cap)
            v->capped = true; /* the next rescan picks the nearest */
        else
            spawn_for(v, e);
    } else if (!want && have) {
        destroy_later(v, e);
    }
}

/* The viewers of chunk (cx, cz) into cand_buf from cand_n on; false when
 * out of memory. */
static conn **cand_buf;
static size_t cand_n, cand_cap;
static bool add_candidates(int32_t cx, int32_t cz)
{
    size_t n;
    conn **v = cv_copy(cx, cz, &n);
    if (cand_n + n > cand_cap) {
        size_t cap = (cand_n + n) * 2;
        conn **b = realloc(cand_buf, cap * sizeof *b);
        if (!b) return false;
        cand_buf = b;
        cand_cap = cap;
    }
    if (n) memcpy(cand_buf + cand_n, v, n * sizeof *v);
    cand_n += n;
    return true;
}

/* Invariant 7: only the viewers of the chunk e was last judged in (those
 * that may hold it) and of the chunk it is in now (those that may want it)
 * can change their verdict, not every player. */
static void track_changed(struct ent *e, uint32_t cap)
{
    cand_n = 0;
    bool ok = !(!e->tr_valid && e->held); /* held but never judged: not expected */
    if (ok && e->tr_valid) ok = add_candidates(e->tr_cx, e->tr_cz);
    if (ok && e->cell >= 0 && !(e->tr_valid && e->tr_cx == e->cx && e->tr_cz == e->cz))
        ok = add_candidates(e->cx, e->cz);
    if (!ok) { /* judge by everyone, as before the index */
        for (uint32_t i = 0; i < nslots; i++) judge(ents[i], e, cap);
        return;
    }
    for (size_t i = 0; i < cand_n; i++) { /* a copy: a drop while sending changes no list */
        conn *c = cand_buf[i];
        if (!c->closed && c->player && c->player->ent) judge(c->player->ent, e, cap);
    }
}

static void update_tracking(void)
{
    uint32_t cap = track_cap();
    for (uint32_t i = 0; i < nslots; i++) {
        prefetch_ahead(i);
        struct ent *v = ents[i];
        if (!usable_viewer(v)) continue;
        const player *p = v->p;
        bool spect = p->gamemode == ENT_SPECTATOR;
        if (!v->v_init || v->rescan || p->center_x != v->v_cx || p->center_z != v->v_cz ||
            p->view_distance != v->v_vd || p->chunks_sent != v->v_chunks || spect != v->v_spect ||
            (v->capped && (tick_no + v->slot) % CAP_RESCAN_TICKS == 0)) {
            v->v_init = true;
            v->rescan = false;
            v->v_cx = p->center_x;
            v->v_cz = p->center_z;
            v->v_vd = p->view_distance;
            v->v_chunks = p->chunks_sent;
            v->v_spect = spect;
            rescan(v);
        }
    }
    for (uint32_t k = 0; k < nchanged; k++) {
        struct ent *e = ents[changed[k]];
        if (!e) continue;
        e->changed = false;
        track_changed(e, cap);
        e->tr_valid = e->cell >= 0 && !e->leaving;
        e->tr_cx = e->cx;
        e->tr_cz = e->cz;
    }
    nchanged = 0;
    flush_all_destroys();
}

static bool equipment_changed(struct ent *e, struct pkt_equipment *now, size_t *n,
                              struct pkt_equipment *diff)
{
    ent_equipment_of(e->p, now);
    *n = 0;
    for (int s = 0; s < ENT_EQUIP_SLOTS; s++)
        if (now[s].item != e->equip[s].item || now[s].count != e->equip[s].count)
            diff[(*n)++] = now[s];
    return *n > 0;
}

/* The movement part of an update into pk (nothing when nothing changed),
 * moving the base with it (invariants 2 and 5). */
static void encode_move(struct ent *e)
{
    player *p = e->p;
    int32_t id = e->eid;
    int yaw = angle_of(p->yaw), pitch = angle_of(p->pitch);
    int64_t nx = fixed_of(p->x), ny = fixed_of(p->y), nz = fixed_of(p->z);
    int64_t dx = nx - e->fx, dy = ny - e->fy, dz = nz - e->fz;
    bool still = p->x == e->lx && p->y == e->ly && p->z == e->lz;
    double d2 = ((double)dx * dx + (double)dy * dy + (double)dz * dz) / (4096.0 * 4096.0);
    bool pos = (dx || dy || dz) && (d2 >= MOVE_EPSILON_SQ || still);
    bool rot = abs(yaw - e->yawp) >= 1 || abs(pitch - e->pitchp) >= 1;
    e->lx = p->x;
    e->ly = p->y;
    e->lz = p->z;
    buf_reset(&pk);
    if (!pos && !rot) return; /* on-ground alone is no news (file comment) */
    if (pos && !(fits_i16(dx) && fits_i16(dy) && fits_i16(dz))) {
        pkt_cb_entity_teleport(&pk, id, p->x, p->y, p->z, (uint8_t)yaw, (uint8_t)pitch,
                               p->on_ground);
        rot = true;
    } else if (pos && rot) {
        pkt_cb_entity_move_look(&pk, id, (int16_t)dx, (int16_t)dy, (int16_t)dz, (uint8_t)yaw,
                                (uint8_t)pitch, p->on_ground);
    } else if (rot) {
        pkt_cb_entity_look(&pk, id, (uint8_t)yaw, (uint8_t)pitch, p->on_ground);
    } else {
        pkt_cb_rel_entity_move(&pk, id, (int16_t)dx, (int16_t)dy, (int16_t)dz, p->on_ground);
    }
    if (pos) {
        e->fx = nx;
        e->fy = ny;
        e->fz = nz;
    }
    if (rot) {
        e->yawp = yaw;
        e->pitchp = pitch;
    }
}

/* Phase 3: what changed about the entity this tick into its cell's batch. */
static void relay(struct ent *e)
{
    player *p = e->p;
    int32_t id = e->eid;
    struct pkt_equipment now[ENT_EQUIP_SLOTS], diff[ENT_EQUIP_SLOTS];
    size_t ndiff = 0;
    /* The slots are read only after they may have changed (player.h
     * inv_touch_tick), and every 20 ticks to be safe. */
    bool equip = (inventory_touched(p, 2) || (e->age + (uint32_t)id) % 20 == 0) &&
                 equipment_changed(e, now, &ndiff, diff);
    bool due = e->age % UPDATE_INTERVAL == 0 || e->meta_dirty || e->health_dirty || e->looks_dirty;
    e->age++;
    e->seg_len = 0;
    if (!e->held) { /* on no client: its next spawn carries all of it */
        if (equip) memcpy(e->equip, now, sizeof now);
        e->anims = 0;
        e->status = 0;
        e->meta_dirty = e->health_dirty = e->looks_dirty = false;
        if (e->pose != ENT_POSE_SLEEPING) e->was_asleep = false;
        return;
    }
    if (!due && !e->anims && !e->status && !equip) return;
    struct cell *c = &cells[e->cell];
    buf_t *b = &c->batch[e->layer];
    size_t start = b->len;
    if (e->status) {
        buf_reset(&pk);
        pkt_cb_entity_status(&pk, id, e->status);
        frame_into(b);
        e->status = 0;
    }
    for (int h = 0; h < 2; h++)
        if (e->anims & (1u << h)) {
            buf_reset(&pk);
            pkt_cb_animation(&pk, id, h ? 3 : 0);
            frame_into(b);
        }
    if (e->anims & ENT_ANIM_WAKE) {
        buf_reset(&pk);
        pkt_cb_animation(&pk, id, 2); /* leave bed (issue 21) */
        frame_into(b);
    }
    e->anims = 0;
    if (equip) {
        buf_reset(&pk);
        pkt_cb_entity_equipment(&pk, id, diff, ndiff);
        frame_into(b);
        memcpy(e->equip, now, sizeof now);
    }
    if (due) {
        encode_move(e);
        if (pk.len) frame_into(b);
        if (e->meta_dirty || e->health_dirty || e->looks_dirty) {
            struct pkt_meta m[8];
            size_t n;
            meta_entries(e, m, &n, false);
            buf_reset(&pk);
            pkt_cb_entity_metadata(&pk, id, m, n);
            frame_into(b);
            e->meta_dirty = e->health_dirty = e->looks_dirty = false;
            if (e->pose != ENT_POSE_SLEEPING) e->was_asleep = false;
        }
        int head = angle_of(p->yaw);
        if (abs(head - e->headp) >= 1) {
            buf_reset(&pk);
            pkt_cb_entity_head_rotation(&pk, id, (uint8_t)head);
            frame_into(b);
            e->headp = head;
        }
    }
    if (b->len == start) { /* nothing changed: the cell costs its viewers nothing */
        if (!c->active) buf_reset(b);
        return;
    }
    if (!c->active) {
        if (!grow((void **)&active, &active_cap, nactive + 1, sizeof *active)) {
            buf_reset(b);
            return;
        }
        c->active = true;
        active[nactive++] = (uint32_t)e->cell;
    }
    e->seg_off = (uint32_t)start;
    e->seg_len = (uint32_t)(b->len - start);
    e->seg_tick = tick_no;
}

static void deliver_cell(struct ent *v, uint32_t ci, int layer)
{
    const buf_t *b = &cells[ci].batch[layer];
    if (!b->len || b->failed) return;
    struct ent *self = v;
    if (self->cell == (int32_t)ci && self->layer == layer && self->seg_tick == tick_no &&
        self->seg_len) {
        if (self->seg_off) conn_send_buf(v->c, b, 0, self->seg_off, CONN_LAZY);
        size_t end = (size_t)self->seg_off + self->seg_len;
        if (end < b->len && !v->c->closed) conn_send_buf(v->c, b, end, b->len - end, CONN_LAZY);
        srv->stats.entity_update_bytes += b->len - self->seg_len;
    } else {
        conn_send_buf(v->c, b, 0, b->len, CONN_LAZY);
        srv->stats.entity_update_bytes += b->len;
    }
}

/* A capped viewer: the segments of the entities it has (invariant 1). */
static void deliver_seen(struct ent *v)
{
    for (size_t w = 0; w < seen_words && !v->c->closed; w++) {
        uint64_t bits = v->seen[w];
        while (bits && !v->c->closed) {
            uint32_t s = (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(bits));
            bits &= bits - 1;
            const struct ent *e = s < nslots ? ents[s] : NULL;
            if (!e || e->seg_tick != tick_no || !e->seg_len) continue;
            const buf_t *b = &cells[e->cell].batch[e->layer];
            if (b->failed) continue;
            conn_send_buf(v->c, b, e->seg_off, e->seg_len, CONN_LAZY);
            srv->stats.entity_update_bytes += e->seg_len;
        }
    }
}

/* Phase 4. */
static void deliver(void)
{
    if (!nactive) return;
    int r = range_chunks;
    uint64_t area = (uint64_t)(2 * r + 1) * (uint64_t)(2 * r + 1);
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *v = ents[i];
        if (!usable_viewer(v)) continue;
        if (v->c->compressed != (srv->cfg.compression_threshold >= 0))
            continue; /* not framed alike */
        if (v->capped) {
            deliver_seen(v);
        } else if (nactive <= area) {
            for (uint32_t k = 0; k < nactive && !v->c->closed; k++) {
                uint32_t ci = active[k];
                if (!in_interest(v, cells[ci].x, cells[ci].z)) continue;
                deliver_cell(v, ci, 0);
                if (v->v_spect && !v->c->closed) deliver_cell(v, ci, 1);
            }
        } else {
            int32_t vx = v->p->center_x, vz = v->p->center_z;
            for (int dx = -r; dx <= r && !v->c->closed; dx++)
                for (int dz = -r; dz <= r && !v->c->closed; dz++) {
                    int32_t ci = cell_find(vx + dx, vz + dz);
                    if (ci < 0 || !cells[ci].active || !in_interest(v, vx + dx, vz + dz)) continue;
                    deliver_cell(v, (uint32_t)ci, 0);
                    if (v->v_spect && !v->c->closed) deliver_cell(v, (uint32_t)ci, 1);
                }
        }
    }
    for (uint32_t k = 0; k < nactive; k++) {
        struct cell *c = &cells[active[k]];
        buf_reset(&c->batch[0]);
        buf_reset(&c->batch[1]);
        c->active = false;
        if (!c->count) cell_release((int32_t)active[k]);
    }
    nactive = 0;
}

/* The vanilla client's ping icon for a latency (PlayerTabOverlay.renderPingIcon). */
static int latency_bars(int32_t ms)
{
    return ms < 0 ? -1 : ms < 150 ? 5 : ms < 300 ? 4 : ms < 600 ? 3 : ms < 1000 ? 2 : 1;
}

/* Is `now` news to clients that hold `sent`? Only when the icon vanilla
 * draws changes: the number itself is shown nowhere in the vanilla client,
 * and resending it for every swing of 20 ms put 5 kB/s on each of 10,000
 * idle players (a loaded loop moves many round trips by that much). */
static bool latency_news(int32_t sent, int32_t now)
{
    return latency_bars(sent) != latency_bars(now);
}

/* Every 30 s, as vanilla, the tab-list latencies — but only those a
 * vanilla client draws (its first TAB_SHOWN entries) and only when their
 * icon changed (latency_news). Vanilla resends everyone's: at 10,000
 * players, 180 KB to each of them, 1.8 GB a round. */
static void broadcast_latency(void)
{
    static struct tab_entry *all;
    static uint32_t all_cap;
    const struct tab_entry *shown[TAB_SHOWN];
    struct pkt_player_update news[TAB_SHOWN];
    size_t nall = 0, n = 0;
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *e = ents[i];
        if (!e || e->leaving) continue;
        if (!grow((void **)&all, &all_cap, (uint32_t)nall + 1, sizeof *all)) break;
        all[nall++] = (struct tab_entry){e->p->name, e->p->gamemode == ENT_SPECTATOR, e};
    }
    size_t nshown = tab_select_shown(all, nall, shown);
    for (size_t i = 0; i < nshown; i++) {
        struct ent *e = shown[i]->ref;
        const player *p = e->p;
        if (!latency_news(e->latency_sent, p->latency_ms)) continue;
        news[n++] = (struct pkt_player_update){p->uuid, p->gamemode, true, p->latency_ms};
        e->latency_sent = p->latency_ms;
    }
    if (!n) return;
    _Static_assert(TAB_SHOWN <= PKT_INFO_ENTRIES_MAX, "one packet a round");
    buf_reset(&srv->pkt);
    pkt_cb_player_info_update(&srv->pkt, PKT_INFO_LATENCY, news, n);
    chat_broadcast_pkt(NULL);
}

void ent_tick_tracking(void)
{
    if (!pk.limit) buf_init(&pk, 1u << 16);
    if (!ents) range_init();
    tick_no++;
    update_cells();
    update_tracking();
}

void ent_tick_relay(void)
{
    if (srv->cfg.player_visibility != VIS_NONE) { /* nobody would get a batch */
        for (uint32_t i = 0; i < nslots; i++) {
            prefetch_ahead(i);
            struct ent *e = ents[i];
            if (e && !e->leaving && e->present && e->cell >= 0 && !e->c->closed) relay(e);
        }
        deliver();
    }
    if (game.tick_count % LATENCY_EVERY_TICKS == 0) broadcast_latency();
}
