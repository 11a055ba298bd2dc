/*
 * entities.c — see entities.h for the tracking rule.
 *
 * Space is split into interest cells of one chunk column. Each tracked
 * player (struct ent) is in the cell of its position; each viewer keeps
 * `seen`, a bitmap over entity slots: bit s set ⇔ entity s is spawned on
 * that viewer's client.
 *
 * One tick (ent_tick_tracking: phases 0-2, then ent_tick_relay: 3-4, as
 * the tick's phases 4 and 5, game/tick.c), in this order:
 *   0. deaths older than 20 ticks leave the world (vanilla removes the body);
 *   1. cells: every present entity is put in the cell of its position;
 *      entities that changed cell, appeared, left the world or changed
 *      visibility (spectator) are collected;
 *   2. tracking: a viewer whose interest changed (its window moved, chunks
 *      arrived, spectator toggled) is rescanned against the cells around it;
 *      otherwise only the collected entities are checked against it.
 *      Spawns go out at once (Player Info was sent at join, so clients
 *      accept them): Spawn Player at the position clients last heard,
 *      head rotation, metadata, equipment; removals are gathered into one
 *      Remove Entities per viewer;
 *   3. relay: each entity due an update (every 2 ticks for players, as
 *      vanilla's updateInterval; at once for actions) appends its packets,
 *      framed once, to its cell's batch: entity event, swing, equipment,
 *      relative move / look / teleport, metadata, head rotation;
 *   4. delivery: each viewer gets the batches of the active cells in its
 *      interest — the same bytes for everyone — minus its own segment.
 *   So the cost grows with viewers × active cells, not movers × viewers.
 *
 * Invariants:
 *  1. After phase 2, for every viewer V and entity E:
 *     seen_V(E) ⇔ visible(V, E) (rule in entities.h). Phase 4 therefore
 *     only delivers packets about entities V has spawned: a cell's batch
 *     holds exactly the entities of that cell, layer 0 for everyone and
 *     layer 1 for spectators only.
 *  2. Spawns (phase 2) use the relay base (what clients last heard), so a
 *     relative move in the same tick's batch (phase 3) lands right.
 *  3. A viewer's interest changes only through its window centre, its view
 *     distance, its chunks (chunks_sent) and its spectator flag; all four are
 *     snapshotted, and a respawn forces a rescan.
 *  4. Leaving during the tick (a viewer dropped for a full output buffer)
 *     is deferred to the end of the tick; the slot table is never compacted
 *     while iterated. Buffers (batches, spawn caches, lists) are reused from
 *     tick to tick.
 *  5. Vanilla's relay: Δ = round(new·4096) − round(base·4096) must fit an
 *     i16 and on-ground must not have changed, else Teleport Entity; a full
 *     teleport at least every 400 updates; base moves when the position
 *     changed by ≥ 7.63e-6 blocks² or every 60 ticks.
 */
#include "game/entities.h"
#include "game/plugins.h" /* plugins */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/registry_codec.h"
#include "game/chat.h"
#include "proto/packets.h"
#include "game/game.h"
#include "game/play.h"
#include "proto/frame.h"

#define UPDATE_INTERVAL     2   /* vanilla EntityType.PLAYER updateInterval */
#define PLAYER_TRACKING     512 /* clientTrackingRange 32 chunks, in blocks */
#define TELEPORT_EVERY      400 /* vanilla teleportDelay limit */
#define DEATH_REMOVE_TICKS  20  /* vanilla LivingEntity.tickDeath */
#define LATENCY_EVERY_TICKS 600 /* vanilla PlayerList: all latencies every 30 s */
#define SPECTATOR           3
#define POSE_STANDING       0
#define POSE_CROUCHING      5
#define FLAG_CROUCHING      0x02
#define FLAG_SPRINTING      0x08
#define META_FLAGS          0
#define META_POSE           6
#define META_HEALTH         9
#define META_SKIN           17
#define META_MAIN_HAND      18
#define EQUIP_SLOTS         6

struct ent {
    conn *c;
    player *p;
    uint32_t slot;
    bool leaving; /* left during a tick; removed at its end */
    /* world presence */
    bool present;   /* in a cell: alive, or dead for less than 20 ticks */
    bool respawned; /* destroy on every client before spawning again */
    int death_ticks;
    int32_t death_x, death_y, death_z;
    int32_t cell; /* index into cells, -1 none */
    int32_t cnext, cprev;
    int32_t cx, cz;
    uint8_t layer; /* 0 seen by all, 1 by spectators only */
    bool changed;  /* on this tick's changed list */
    /* relay base: what every viewer's client believes */
    double bx, by, bz;
    int yawp, pitchp, headp;
    bool ground;
    int teleport_delay;
    uint32_t age;
    /* pending for the next update */
    uint8_t anims; /* bit 0 main-hand swing, bit 1 off-hand swing */
    bool meta_dirty, health_dirty, looks_dirty;
    int8_t status; /* entity event, 0 none */
    uint8_t flags, pose;
    struct pkt_equipment equip[EQUIP_SLOTS];
    /* this tick's segment in its cell's batch */
    uint32_t seg_off, seg_len;
    uint64_t seg_tick;
    /* viewer side */
    uint64_t *seen;
    int32_t v_cx, v_cz;
    int v_vd;
    uint64_t v_chunks;
    bool v_spect, v_init, rescan;
    uint64_t rescanned_tick;
    int32_t *destroy;
    uint32_t ndestroy, destroy_cap;
    /* spawn packets, encoded once per tick when needed */
    buf_t spawn;
    uint64_t spawn_tick;
    uint64_t mark;
};

struct cell {
    int32_t x, z;
    int32_t head; /* first entity slot, -1 none */
    uint32_t count;
    int32_t hnext; /* next cell in its hash bucket, or in the free list */
    bool used, active;
    buf_t batch[2];
};

static struct ent **ents; /* by slot; NULL = free */
static uint32_t nslots, slots_cap;
static uint32_t *free_slots;
static uint32_t nfree_slots, free_cap;
static size_t seen_words;

static struct cell *cells;
static uint32_t ncells, cells_cap, cells_used;
static int32_t free_cell = -1;
static int32_t *buckets;
static uint32_t nbuckets;
static uint32_t *active; /* cells with a batch this tick */
static uint32_t nactive, active_cap;

static uint32_t *changed; /* slots */
static uint32_t nchanged, changed_cap;

static uint64_t tick_no = 1;
static uint64_t mark_gen;
static bool in_tick;
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
    return (int64_t)floor(v * 4096.0 + 0.5); /* Java Math.round */
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

int8_t ent_ability_flags(int gamemode)
{
    switch (gamemode) {
    case 1: return 0x01 | 0x04 | 0x08; /* invulnerable, may fly, creative */
    case 3: return 0x01 | 0x02 | 0x04; /* invulnerable, flying, may fly */
    default: return 0;
    }
}

/* Frames pk into `out` (the server's compression threshold: every PLAY
 * connection negotiated it at login, so the bytes suit every viewer). */
static void frame_into(buf_t *out)
{
    if (pk.failed) return;
    frame_encode(out, pk.data, pk.len, srv->cfg.compression_threshold, srv->compressor);
}

static bool usable_viewer(const struct ent *v)
{
    return v && !v->leaving && v->c && !v->c->closed && v->c->state == CS_PLAY;
}

static inline bool seen_get(const struct ent *v, uint32_t slot)
{
    return v->seen[slot >> 6] >> (slot & 63) & 1;
}

static inline void seen_set(struct ent *v, uint32_t slot, bool on)
{
    if (on)
        v->seen[slot >> 6] |= 1ull << (slot & 63);
    else
        v->seen[slot >> 6] &= ~(1ull << (slot & 63));
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
    return true;
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
    if (e->layer && !v->v_spect) return false;
    return in_interest(v, e->cx, e->cz);
}

/* ------------------------------------------------------------ spawn/destroy */

static void meta_entries(const struct ent *e, struct pkt_meta *m, size_t *n, bool all)
{
    const player *p = e->p;
    *n = 0;
    if (all || e->meta_dirty) {
        m[(*n)++] = (struct pkt_meta){META_FLAGS, PKT_META_BYTE, e->flags, 0};
        m[(*n)++] = (struct pkt_meta){META_POSE, PKT_META_POSE, e->pose, 0};
    }
    if (all || e->health_dirty)
        m[(*n)++] = (struct pkt_meta){META_HEALTH, PKT_META_FLOAT, 0, p->health};
    if (all || e->looks_dirty) {
        m[(*n)++] = (struct pkt_meta){META_SKIN, PKT_META_BYTE, p->skin_parts, 0};
        m[(*n)++] = (struct pkt_meta){META_MAIN_HAND, PKT_META_BYTE, p->main_hand, 0};
    }
}

/* The six equipment slots from the inventory: main hand, off hand, feet, legs, chest, head. */
static void equipment_of(const player *p, struct pkt_equipment *out)
{
    static const int inv[EQUIP_SLOTS] = {-1, 45, 8, 7, 6, 5};
    for (int s = 0; s < EQUIP_SLOTS; s++) {
        int idx = s == 0 ? 36 + (p->held_slot >= 0 && p->held_slot < 9 ? p->held_slot : 0) : inv[s];
        const struct inv_slot *it = &p->inventory[idx];
        out[s] = (struct pkt_equipment){(int8_t)s, it->count > 0 ? it->item : 0,
                                        it->count > 0 ? it->count : 0};
    }
}

/* The framed spawn sequence of e at its relay base, built once per tick. */
static const buf_t *spawn_frames(struct ent *e)
{
    if (e->spawn_tick == tick_no) return &e->spawn;
    if (!e->spawn.limit) buf_init(&e->spawn, 64u << 10);
    buf_reset(&e->spawn);
    const player *p = e->p;
    buf_reset(&pk);
    pkt_cb_named_entity_spawn(&pk, p->entity_id, &p->uuid, e->bx, e->by, e->bz, (uint8_t)e->yawp,
                              (uint8_t)e->pitchp);
    frame_into(&e->spawn);
    buf_reset(&pk);
    pkt_cb_entity_head_rotation(&pk, p->entity_id, (uint8_t)e->headp);
    frame_into(&e->spawn);
    struct pkt_meta m[8];
    size_t n;
    meta_entries(e, m, &n, true);
    buf_reset(&pk);
    pkt_cb_entity_metadata(&pk, p->entity_id, m, n);
    frame_into(&e->spawn);
    struct pkt_equipment eq[EQUIP_SLOTS];
    size_t ne = 0;
    for (int s = 0; s < EQUIP_SLOTS; s++)
        if (e->equip[s].item) eq[ne++] = e->equip[s];
    if (ne) {
        buf_reset(&pk);
        pkt_cb_entity_equipment(&pk, p->entity_id, eq, ne);
        frame_into(&e->spawn);
    }
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
    v->destroy[v->ndestroy++] = e->p->entity_id;
}

static void destroy_now(struct ent *v, int32_t id)
{
    buf_reset(&srv->pkt);
    pkt_cb_entity_destroy(&srv->pkt, &id, 1);
    conn_send_pkt(v->c);
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

/* Brings v->seen to exactly the visible set (invariant 1) by scanning cells. */
static void rescan(struct ent *v)
{
    uint64_t gen = ++mark_gen;
    int r = range_chunks;
    uint64_t area = (uint64_t)(2 * r + 1) * (uint64_t)(2 * r + 1);
    int32_t vx = v->p->center_x, vz = v->p->center_z;
    if (cells_used < area) {
        for (uint32_t i = 0; i < ncells; i++) {
            struct cell *c = &cells[i];
            if (!c->used || !c->count || !in_interest(v, c->x, c->z)) continue;
            for (int32_t s = c->head; s >= 0; s = ents[s]->cnext) {
                struct ent *e = ents[s];
                if (!visible(v, e)) continue;
                e->mark = gen;
                if (!seen_get(v, e->slot)) spawn_for(v, e);
            }
        }
    } else {
        for (int dx = -r; dx <= r; dx++)
            for (int dz = -r; dz <= r; dz++) {
                int32_t ci = cell_find(vx + dx, vz + dz);
                if (ci < 0 || !cells[ci].count || !in_interest(v, vx + dx, vz + dz)) continue;
                for (int32_t s = cells[ci].head; s >= 0; s = ents[s]->cnext) {
                    struct ent *e = ents[s];
                    if (!visible(v, e)) continue;
                    e->mark = gen;
                    if (!seen_get(v, e->slot)) spawn_for(v, e);
                }
            }
    }
    for (size_t w = 0; w < seen_words; w++) {
        uint64_t bits = v->seen[w];
        while (bits) {
            uint32_t s = (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(bits));
            bits &= bits - 1;
            struct ent *e = s < nslots ? ents[s] : NULL;
            if (!e) {
                seen_set(v, s, false);
                continue;
            }
            if (e->mark != gen) destroy_later(v, e);
        }
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

static void mark_changed(struct ent *e)
{
    if (e->changed) return;
    if (!grow((void **)&changed, &changed_cap, nchanged + 1, sizeof *changed)) return;
    e->changed = true;
    changed[nchanged++] = e->slot;
}

/* Puts the relay base at the player's current state (join, respawn). */
static void base_reset(struct ent *e)
{
    const player *p = e->p;
    e->bx = p->x;
    e->by = p->y;
    e->bz = p->z;
    e->yawp = angle_of(p->yaw);
    e->pitchp = angle_of(p->pitch);
    e->headp = e->yawp;
    e->ground = p->on_ground;
    e->teleport_delay = 0;
    e->age = 0;
}

void ent_join(conn *c)
{
    player *p = c->player;
    if (!ents) range_init();
    uint32_t slot = nfree_slots ? free_slots[nfree_slots - 1] : nslots;
    struct ent *e = calloc(1, sizeof *e);
    if (!e || !slots_grow(slot + 1) || !(e->seen = calloc(seen_words, sizeof *e->seen))) {
        free(e);
        conn_kick(c, "Server out of memory");
        return;
    }
    if (nfree_slots)
        nfree_slots--;
    else
        nslots++;
    e->c = c;
    e->p = p;
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
    base_reset(e);
    equipment_of(p, e->equip);
    e->rescan = true;
    mark_changed(e);
}

static void leave_now(struct ent *e)
{
    /* Every viewer that has the entity gets it removed now (before the
     * Player Info Remove that play_leave sends next). */
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *v = ents[i];
        if (!v || v == e || !seen_get(v, e->slot)) continue;
        seen_set(v, e->slot, false);
        if (usable_viewer(v)) destroy_now(v, e->p->entity_id);
    }
    cell_unlink(e);
    ents[e->slot] = NULL;
    /* If the list cannot grow the slot is simply never reused. */
    if (grow((void **)&free_slots, &free_cap, nfree_slots + 1, sizeof *free_slots))
        free_slots[nfree_slots++] = e->slot;
    if (e->p) e->p->ent = NULL;
    free(e->seen);
    free(e->destroy);
    buf_free(&e->spawn);
    free(e);
}

void ent_leave(conn *c)
{
    struct ent *e = c->player ? c->player->ent : NULL;
    if (!e || e->leaving) return;
    if (in_tick) {
        e->leaving = true; /* removed at the end of the tick (invariant 4) */
        return;
    }
    leave_now(e);
}

/* ---------------------------------------------------------------- the tick */

/* Phase 1: cell membership and the changed list. */
static void update_cells(void)
{
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *e = ents[i];
        if (!e || e->leaving) continue;
        player *p = e->p;
        if (e->death_ticks >= 0 && ++e->death_ticks >= DEATH_REMOVE_TICKS && e->present) {
            e->present = false; /* the body is removed (vanilla tickDeath) */
        }
        if (e->respawned) {
            /* Clients drop the old body before the new player appears. */
            for (uint32_t k = 0; k < nslots; k++) {
                struct ent *v = ents[k];
                if (!v || !seen_get(v, e->slot)) continue;
                seen_set(v, e->slot, false);
                if (usable_viewer(v)) destroy_now(v, p->entity_id);
            }
            e->respawned = false;
            mark_changed(e);
        }
        uint8_t layer = p->gamemode == SPECTATOR;
        if (layer != e->layer) {
            e->layer = layer;
            mark_changed(e);
        }
        if (!e->present) {
            if (e->cell >= 0) {
                cell_unlink(e);
                mark_changed(e);
            }
            continue;
        }
        int32_t cx = chunk_of(p->x), cz = chunk_of(p->z);
        if (e->cell >= 0 && cx == e->cx && cz == e->cz) continue;
        cell_unlink(e);
        cell_link(e, cx, cz);
        mark_changed(e);
    }
}

/* Phase 2: tracking. */
static void update_tracking(void)
{
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *v = ents[i];
        if (!usable_viewer(v)) continue;
        const player *p = v->p;
        bool spect = p->gamemode == SPECTATOR;
        if (!v->v_init || v->rescan || p->center_x != v->v_cx || p->center_z != v->v_cz ||
            p->view_distance != v->v_vd || p->chunks_sent != v->v_chunks || spect != v->v_spect) {
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
        for (uint32_t i = 0; i < nslots; i++) {
            struct ent *v = ents[i];
            if (!usable_viewer(v) || v == e || v->rescanned_tick == tick_no) continue;
            bool want = visible(v, e), have = seen_get(v, e->slot);
            if (want && !have)
                spawn_for(v, e);
            else if (!want && have)
                destroy_later(v, e);
        }
    }
    nchanged = 0;
    for (uint32_t i = 0; i < nslots; i++)
        if (ents[i]) flush_destroys(ents[i]);
}

static buf_t *cell_batch(struct ent *e)
{
    struct cell *c = &cells[e->cell];
    if (!c->active) {
        if (!grow((void **)&active, &active_cap, nactive + 1, sizeof *active)) return NULL;
        c->active = true;
        active[nactive++] = (uint32_t)e->cell;
    }
    return &c->batch[e->layer];
}

static bool equipment_changed(struct ent *e, struct pkt_equipment *now, size_t *n,
                              struct pkt_equipment *diff)
{
    equipment_of(e->p, now);
    *n = 0;
    for (int s = 0; s < EQUIP_SLOTS; s++)
        if (now[s].item != e->equip[s].item || now[s].count != e->equip[s].count)
            diff[(*n)++] = now[s];
    return *n > 0;
}

/* Phase 3: the entity's packets of this tick into its cell's batch. */
static void relay(struct ent *e)
{
    player *p = e->p;
    int32_t id = p->entity_id;
    struct pkt_equipment now[EQUIP_SLOTS], diff[EQUIP_SLOTS];
    size_t ndiff;
    bool equip = equipment_changed(e, now, &ndiff, diff);
    bool due = e->age % UPDATE_INTERVAL == 0 || e->meta_dirty || e->health_dirty || e->looks_dirty;
    e->seg_len = 0;
    if (!due && !e->anims && !e->status && !equip) {
        e->age++;
        return;
    }
    buf_t *b = cell_batch(e);
    if (!b) return;
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
    e->anims = 0;
    if (equip) {
        buf_reset(&pk);
        pkt_cb_entity_equipment(&pk, id, diff, ndiff);
        frame_into(b);
        memcpy(e->equip, now, sizeof now);
    }
    if (due) {
        e->teleport_delay++;
        int yaw = angle_of(p->yaw), pitch = angle_of(p->pitch);
        double dx = p->x - e->bx, dy = p->y - e->by, dz = p->z - e->bz;
        bool pos = dx * dx + dy * dy + dz * dz >= 7.6293945e-6 || e->age % 60 == 0;
        bool rot = abs(yaw - e->yawp) >= 1 || abs(pitch - e->pitchp) >= 1;
        if (e->age > 0) {
            int64_t fx = fixed_of(p->x) - fixed_of(e->bx), fy = fixed_of(p->y) - fixed_of(e->by),
                    fz = fixed_of(p->z) - fixed_of(e->bz);
            bool far = fx < INT16_MIN || fx > INT16_MAX || fy < INT16_MIN || fy > INT16_MAX ||
                       fz < INT16_MIN || fz > INT16_MAX;
            buf_reset(&pk);
            if (!far && e->teleport_delay <= TELEPORT_EVERY && e->ground == p->on_ground) {
                if (pos && rot)
                    pkt_cb_entity_move_look(&pk, id, (int16_t)fx, (int16_t)fy, (int16_t)fz,
                                            (uint8_t)yaw, (uint8_t)pitch, p->on_ground);
                else if (pos)
                    pkt_cb_rel_entity_move(&pk, id, (int16_t)fx, (int16_t)fy, (int16_t)fz,
                                           p->on_ground);
                else if (rot)
                    pkt_cb_entity_look(&pk, id, (uint8_t)yaw, (uint8_t)pitch, p->on_ground);
            } else {
                e->ground = p->on_ground;
                e->teleport_delay = 0;
                pkt_cb_entity_teleport(&pk, id, p->x, p->y, p->z, (uint8_t)yaw, (uint8_t)pitch,
                                       p->on_ground);
                pos = rot = true;
            }
            if (pk.len) frame_into(b);
        }
        if (pos) {
            e->bx = p->x;
            e->by = p->y;
            e->bz = p->z;
        }
        if (rot) {
            e->yawp = yaw;
            e->pitchp = pitch;
        }
        if (e->meta_dirty || e->health_dirty || e->looks_dirty) {
            struct pkt_meta m[8];
            size_t n;
            meta_entries(e, m, &n, false);
            buf_reset(&pk);
            pkt_cb_entity_metadata(&pk, id, m, n);
            frame_into(b);
            e->meta_dirty = e->health_dirty = e->looks_dirty = false;
        }
        int head = angle_of(p->yaw);
        if (abs(head - e->headp) >= 1) {
            buf_reset(&pk);
            pkt_cb_entity_head_rotation(&pk, id, (uint8_t)head);
            frame_into(b);
            e->headp = head;
        }
    }
    e->age++;
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
        if (self->seg_off) conn_send_raw(v->c, b->data, self->seg_off);
        size_t end = (size_t)self->seg_off + self->seg_len;
        if (end < b->len && !v->c->closed) conn_send_raw(v->c, b->data + end, b->len - end);
    } else {
        conn_send_raw(v->c, b->data, b->len);
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
        if (nactive <= area) {
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

static void broadcast_latency(void)
{
    static struct pkt_player_update *u;
    static uint32_t ucap;
    if (!game.player_count) return;
    if (!grow((void **)&u, &ucap, (uint32_t)game.player_count, sizeof *u)) return;
    size_t n = 0;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        u[n++] = (struct pkt_player_update){p->uuid, p->gamemode, true, p->latency_ms};
    }
    buf_reset(&srv->pkt);
    pkt_cb_player_info_update(&srv->pkt, PKT_INFO_LATENCY, u, n);
    chat_broadcast_pkt(NULL);
}

void ent_tick_tracking(void)
{
    if (!pk.limit) buf_init(&pk, 1u << 16);
    if (!ents) range_init();
    in_tick = true; /* until the end of ent_tick_relay (invariant 4) */
    tick_no++;
    update_cells();
    update_tracking();
}

void ent_tick_relay(void)
{
    for (uint32_t i = 0; i < nslots; i++) {
        struct ent *e = ents[i];
        if (e && !e->leaving && e->present && e->cell >= 0 && !e->c->closed) relay(e);
    }
    deliver();
    in_tick = false;
    for (uint32_t i = 0; i < nslots; i++)
        if (ents[i] && ents[i]->leaving) leave_now(ents[i]);
    if (game.tick_count % LATENCY_EVERY_TICKS == 0) broadcast_latency();
}

/* ---------------------------------------------------------------- actions */

void ent_settings(conn *c, uint8_t skin_parts, int main_hand, int chat_mode)
{
    player *p = c->player;
    p->chat_mode = chat_mode;
    if (p->skin_parts == skin_parts && p->main_hand == (uint8_t)main_hand) return;
    p->skin_parts = skin_parts;
    p->main_hand = (uint8_t)(main_hand ? 1 : 0);
    if (p->ent) p->ent->looks_dirty = true;
}

void ent_keepalive_rtt(conn *c, int64_t rtt_ms)
{
    player *p = c->player;
    if (rtt_ms < 0) rtt_ms = 0;
    if (rtt_ms > 1000000) rtt_ms = 1000000;
    p->latency_ms = (int32_t)((p->latency_ms * 3 + rtt_ms) / 4);
}

void ent_sb_entity_action(conn *c, rd_t *r)
{
    rd_varint(r); /* entity id: the sender's own */
    int32_t action = rd_varint(r);
    rd_varint(r); /* jump boost */
    if (r->err) return;
    struct ent *e = c->player->ent;
    if (!e || c->player->health <= 0) return;
    uint8_t flags = e->flags, pose = e->pose;
    switch (action) {
    case 0: /* start sneaking */
        flags |= FLAG_CROUCHING;
        pose = c->player->gamemode == SPECTATOR ? POSE_STANDING : POSE_CROUCHING;
        break;
    case 1: /* stop sneaking */
        flags &= (uint8_t)~FLAG_CROUCHING;
        pose = POSE_STANDING;
        break;
    case 3: flags |= FLAG_SPRINTING; break;
    case 4: flags &= (uint8_t)~FLAG_SPRINTING; break;
    default: return; /* sleeping, horse jumps, inventory, elytra: not relayed */
    }
    if (flags != e->flags || pose != e->pose) {
        e->flags = flags;
        e->pose = pose;
        e->meta_dirty = true;
    }
}

void ent_sb_arm_animation(conn *c, rd_t *r)
{
    int32_t hand = rd_varint(r);
    if (r->err) return;
    struct ent *e = c->player->ent;
    if (!e || c->player->health <= 0 || hand < 0 || hand > 1) return;
    e->anims |= (uint8_t)(1u << hand);
}

void ent_set_gamemode(conn *c, int gm)
{
    player *p = c->player;
    p->gamemode = gm;
    buf_reset(&srv->pkt);
    pkt_cb_game_state_change(&srv->pkt, 3, (float)gm);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    pkt_cb_abilities(&srv->pkt, ent_ability_flags(gm), 0.05f, 0.1f);
    conn_send_pkt(c);
    struct pkt_player_update u = {p->uuid, gm, true, p->latency_ms};
    buf_reset(&srv->pkt);
    pkt_cb_player_info_update(&srv->pkt, PKT_INFO_GAMEMODE, &u, 1);
    chat_broadcast_pkt(NULL);
    if (p->ent && gm == SPECTATOR && p->ent->pose != POSE_STANDING) {
        p->ent->pose = POSE_STANDING;
        p->ent->meta_dirty = true;
    }
}

void ent_teleport(conn *c, double x, double y, double z, float yaw, float pitch)
{
    player *p = c->player;
    p->x = x;
    p->y = y;
    p->z = z;
    p->yaw = yaw;
    p->pitch = pitch;
    p->teleport_id++;
    p->teleport_pending = true;
    buf_reset(&srv->pkt);
    c->proto->cb_position(&srv->pkt, x, y, z, yaw, pitch, 0, p->teleport_id);
    conn_send_pkt(c);
    if (!c->closed) play_follow_teleport(c); /* Set Center Chunk and the new chunks */
}

bool ent_kill(conn *c)
{
    player *p = c->player;
    struct ent *e = p->ent;
    if (!e || p->health <= 0) return false;
    p->health = 0;
    e->death_ticks = 0;
    e->death_x = (int32_t)floor(p->x);
    e->death_y = (int32_t)floor(p->y);
    e->death_z = (int32_t)floor(p->z);
    e->status = 3; /* death animation for everyone tracking */
    e->health_dirty = true;
    if (e->flags || e->pose) {
        e->flags = 0;
        e->pose = POSE_STANDING;
        e->meta_dirty = true;
    }
    chat_arg who = chat_player(p);
    buf_t j;
    buf_init(&j, 4096);
    chat_tr_json(&j, NULL, "death.attack.genericKill", &who, 1);
    if (!j.failed) {
        buf_reset(&srv->pkt);
        c->proto->cb_death_combat_event(&srv->pkt, p->entity_id, (const char *)j.data, j.len);
        conn_send_pkt(c);
        chat_broadcast((const char *)j.data, j.len, false); /* showDeathMessages */
    }
    buf_reset(&j);
    chat_tr_plain(&j, "death.attack.genericKill", &who, 1);
    if (!j.failed) log_info("%.*s", (int)j.len, (const char *)j.data);
    buf_free(&j);
    buf_reset(&srv->pkt);
    pkt_cb_update_health(&srv->pkt, 0.0f, p->food, 0.0f);
    conn_send_pkt(c);
    plugin_event_death(c); /* plugins */
    return true;
}

/* The respawn flow (vanilla PlayerList.respawn, same dimension). */
static void respawn(conn *c)
{
    player *p = c->player;
    struct ent *e = p->ent;
    struct pkt_respawn rs = {
        .dimension_type = "minecraft:overworld",
        .world_name = "minecraft:overworld",
        .hashed_seed = hashed_seed(srv->cfg.seed),
        .gamemode = (uint8_t)p->gamemode,
        .previous_gamemode = -1,
        .is_flat = srv->cfg.level_type == LEVEL_FLAT,
        .copy_metadata = false,
        .has_death = true,
        .death_world = "minecraft:overworld",
        .death_x = e->death_x,
        .death_y = e->death_y,
        .death_z = e->death_z,
    };
    buf_reset(&srv->pkt);
    c->proto->cb_respawn(&srv->pkt, &rs);
    conn_send_pkt(c);

    p->health = 20.0f;
    p->food = 20;
    p->x = game.spawn_x;
    p->y = game.spawn_y;
    p->z = game.spawn_z;
    p->yaw = game.spawn_angle;
    p->pitch = 0;
    p->on_ground = false;
    memset(p->inventory, 0, sizeof p->inventory); /* keepInventory=false: nothing drops yet */
    p->held_slot = 0;
    /* The client starts a new level: it is sent its chunks again. */
    play_reset_window(c);
    buf_reset(&srv->pkt);
    pkt_cb_abilities(&srv->pkt, ent_ability_flags(p->gamemode), 0.05f, 0.1f);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    c->proto->cb_spawn_position(&srv->pkt, (int32_t)floor(game.spawn_x),
                                (int32_t)floor(game.spawn_y), (int32_t)floor(game.spawn_z),
                                game.spawn_angle);
    conn_send_pkt(c);
    ent_teleport(c, p->x, p->y, p->z, p->yaw, p->pitch);
    buf_reset(&srv->pkt);
    c->proto->cb_update_time(&srv->pkt, (int64_t)game.tick_count, game.day_time);
    conn_send_pkt(c);
    if (game.raining) {
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 1, 0);
        conn_send_pkt(c);
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 7, 1.0f);
        conn_send_pkt(c);
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 8, game.thundering ? 1.0f : 0.0f);
        conn_send_pkt(c);
    }
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, p->entity_id, (int8_t)(24 + p->op_level));
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    pkt_cb_update_health(&srv->pkt, p->health, p->food, 5.0f);
    conn_send_pkt(c);

    e->death_ticks = -1;
    e->respawned = e->present; /* the old body is still on clients */
    e->present = true;
    e->flags = 0;
    e->pose = POSE_STANDING;
    e->anims = 0;
    e->status = 0;
    e->meta_dirty = e->health_dirty = false;
    base_reset(e);
    equipment_of(p, e->equip);
    e->spawn_tick = 0;
    e->rescan = true; /* its own view starts from nothing */
    mark_changed(e);
    log_info("%s respawned", p->name);
}

void ent_sb_client_command(conn *c, rd_t *r)
{
    int32_t action = rd_varint(r);
    if (r->err) return;
    if (action == 0 && c->player->health <= 0 && c->player->ent) respawn(c);
}
