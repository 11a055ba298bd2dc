/*
 * mob_track.c — who sees which mob, and what they are told (mob_int.h).
 *
 * Space is split into interest cells of one chunk column, as for players
 * (game/entities.c): each mob is linked into the cell of its position, and
 * each viewer (a player in PLAY) keeps `seen`, a bitmap over mob slots.
 *
 * Rule (vanilla ChunkMap.TrackedEntity, decided per chunk as entities.c
 * does): viewer V sees mob M when M is not removed, V's client holds M's
 * chunk, and that chunk is within R of V's chunk (chunk distance ≤ R/16),
 *     R = min(16 × clientTrackingRange(M's type) ×
 *             entity-broadcast-range-percentage / 100, V's view distance × 16).
 * So visibility depends only on (cell, the type's range class): the types'
 * distinct ranges are the cells' layers, each with its own batch.
 *
 * One tick (mt_track, then mt_relay, at the end of mobs_tick):
 *   1. cells: a mob that moved is relinked when its chunk changed; a mob
 *      that appeared, changed cell or was removed goes on the changed list;
 *   2. viewers: players that left lose their viewer record (and its bits);
 *      a viewer whose interest changed (its chunk, view distance, chunks
 *      received, a respawn) is rescanned: every mob it has is checked, and
 *      every cell within its range; the others check only the changed
 *      mobs. A spawn is one Bundle (Spawn Entity with the rotation and
 *      head yaw, Set Entity Metadata), encoded once per mob per tick;
 *      removals go out as one Remove Entities per viewer per tick;
 *   3. removed mobs free their slots (no viewer has them any more);
 *   relay:
 *   4. each mob due an update (its age a multiple of the type's
 *      updateInterval, or at once for a hit, a death, a metadata change or
 *      knockback) appends what changed, framed once, to its cell's batch
 *      for its layer: Damage Event, Entity Event 3 (death), metadata, Set
 *      Entity Velocity (knockback), Update Entity Position / Rotation (or
 *      Teleport Entity past 8 blocks), Set Head Rotation;
 *   5. each viewer gets the batches of the active cells it sees — the same
 *      bytes for every viewer of a cell.
 * The relay base is kept as entities.c does (no news, no bytes): fx/fy/fz
 * is the position in 1/4096 blocks every viewer holds, a move is always
 * encode(position) − base, and a mob that did not move or turn costs its
 * viewers nothing. Where vanilla resends positions every 60 ticks and
 * teleports every 400 updates, mcserv does not (entities.c explains why
 * that is safe).
 *
 * Invariants:
 *  1. After step 2, for every viewer V and mob M: seen_V(M) ⇔ visible(V, M);
 *     so a cell's batch for a layer concerns only mobs every viewer that
 *     sees that (cell, layer) has spawned. (The per-tick spawn budget of
 *     the "entity explosion" will break this ⇔ and must then give
 *     deferred viewers per-mob segments, as entities.c's capped viewers.)
 *  2. Spawns use the relay base, so a move in the same tick's batch lands.
 *     The base moves only when a packet with the new position is framed,
 *     or when the first viewer spawns a mob no client has (held 0).
 *  3. held = the number of viewers whose bit for the mob is set.
 *  4. Batches change only in mt_relay and stay unchanged until the next
 *     tick (conn_send_buf references them until the loop pass ends).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/entities.h"
#include "data/packet_ids.h"
#include "game/game.h"
#include "game/mob_int.h"
#include "game/play.h"
#include "net/server.h"
#include "proto/frame.h"
#include "proto/packets.h"

#define MOVE_EPSILON_SQ  7.62939453125e-6 /* vanilla: blocks² a base must move by */
#define CELL_SWEEP_TICKS 600              /* empty cells are freed this often */
#define META_NAME        2
#define META_POSE        6
#define META_HEALTH      9
#define META_MOB_FLAGS   15
#define META_WOOL        17
#define POSE_DYING       7

struct cell {
    int32_t x, z;
    int32_t head; /* first mob slot, -1 none */
    uint32_t count;
    bool used, active;
    buf_t batch[MOB_LAYERS];
};

struct viewer {
    int32_t eid; /* the player's entity id */
    uint64_t *seen;
    uint32_t nseen;
    int32_t cx, cz;
    int vd;
    uint64_t chunks;
    bool init;
    uint64_t gen;
    int32_t *destroy;
    uint32_t ndestroy, destroy_cap;
};

static struct cell *cells;
static uint32_t ncells, cells_cap;
static uint32_t cells_used;
static int32_t *ctab; /* cell index table (table_build) */
static uint32_t ctab_cap;
static uint32_t *active;
static uint32_t nactive, active_cap;

static struct viewer *viewers;
static uint32_t nviewers, viewers_cap;
static int32_t *vhash; /* viewer index + 1, 0 empty; open addressing */
static uint32_t vhash_cap;
static size_t seen_words;

static uint32_t *changed;
static uint32_t nchanged, changed_cap;
static uint64_t tick_no, gen;
static buf_t pk, spawns; /* one packet being built; this tick's spawn bundles */

/* ------------------------------------------------------------ helpers */

static bool grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint32_t n = *cap ? *cap * 2 : 64;
    while (n < need) n *= 2;
    void *p = realloc(*arr, (size_t)n * elem);
    if (!p) return false;
    *arr = p;
    *cap = n;
    return true;
}

static inline int32_t chunk_of(double v)
{
    return (int32_t)floor(v / 16.0);
}

static inline int angle_of(float deg)
{
    if (!isfinite(deg)) return 0;
    return (int)floorf(fmodf(deg, 360.0f) * 256.0f / 360.0f) & 255;
}

static inline int64_t fixed_of(double v)
{
    return (int64_t)floor(v * 4096.0 + 0.5);
}

static inline bool fits_i16(int64_t v)
{
    return v >= INT16_MIN && v <= INT16_MAX;
}

static void frame_into(buf_t *out)
{
    if (pk.failed) return;
    frame_encode(out, pk.data, pk.len, srv->cfg.compression_threshold, srv->compressor);
}

static inline bool seen_get(const struct viewer *v, uint32_t s)
{
    return v->seen[s >> 6] >> (s & 63) & 1;
}

static inline void seen_set(struct viewer *v, uint32_t s, bool on)
{
    if (on) {
        v->seen[s >> 6] |= 1ull << (s & 63);
        v->nseen++;
        mob_slots[s].held++;
    } else {
        v->seen[s >> 6] &= ~(1ull << (s & 63));
        v->nseen--;
        mob_slots[s].held--;
    }
}

/* R/16 for a layer and view distance, squared, in chunks. */
static double range_sq(int layer, int vd)
{
    double r = mob_layer_range(layer) * 16.0 * srv->cfg.entity_broadcast_range_percentage / 100.0;
    double v = vd * 16.0;
    if (v < r) r = v;
    r /= 16.0;
    return r * r;
}

static bool sees_cell(const struct viewer *v, const player *p, int32_t cx, int32_t cz, int layer)
{
    double dx = cx - v->cx, dz = cz - v->cz;
    if (dx * dx + dz * dz > range_sq(layer, v->vd)) return false;
    return play_sees_chunk(p, cx, cz);
}

static bool visible(const struct viewer *v, const player *p, const struct mob *m)
{
    if (m->removed || m->cell < 0) return false;
    return sees_cell(v, p, m->cx, m->cz, mob_layer_of(m->row));
}

/* ------------------------------------------------------------ cells */

static uint32_t cell_hash(int32_t x, int32_t z)
{
    uint64_t h = (uint64_t)(uint32_t)x * 0x9e3779b97f4a7c15ull ^
                 (uint64_t)(uint32_t)z * 0xc2b2ae3d27d4eb4full;
    return (uint32_t)(h >> 32);
}

/* The cell index table: open addressing over (x, z), linear probing, at
 * most half full; entries are only removed by sweep_cells, which rebuilds
 * it, so there are no tombstones. -1 empty. */
static bool table_build(uint32_t n)
{
    int32_t *t = malloc((size_t)n * sizeof *t);
    if (!t) return false;
    memset(t, 0xff, (size_t)n * sizeof *t);
    for (uint32_t i = 0; i < ncells; i++) {
        if (!cells[i].used) continue;
        uint32_t k = cell_hash(cells[i].x, cells[i].z) & (n - 1);
        while (t[k] >= 0) k = (k + 1) & (n - 1);
        t[k] = (int32_t)i;
    }
    free(ctab);
    ctab = t;
    ctab_cap = n;
    return true;
}

/* The slot of (x, z) in ctab: its cell, or the empty slot where it goes. */
static uint32_t table_slot(int32_t x, int32_t z)
{
    uint32_t k = cell_hash(x, z) & (ctab_cap - 1);
    while (ctab[k] >= 0 && (cells[ctab[k]].x != x || cells[ctab[k]].z != z))
        k = (k + 1) & (ctab_cap - 1);
    return k;
}

static int32_t cell_find(int32_t x, int32_t z)
{
    return ctab_cap ? ctab[table_slot(x, z)] : -1;
}

static int32_t cell_get(int32_t x, int32_t z)
{
    int32_t i = cell_find(x, z);
    if (i >= 0) return i;
    if ((cells_used + 1) * 2 > ctab_cap && !table_build(ctab_cap ? ctab_cap * 2 : 256)) return -1;
    uint32_t k = table_slot(x, z);
    i = 0;
    while (i < (int32_t)ncells && cells[i].used) i++; /* a freed cell first */
    if (i == (int32_t)ncells) {
        if (!grow((void **)&cells, &cells_cap, ncells + 1, sizeof *cells)) return -1;
        memset(&cells[ncells++], 0, sizeof *cells);
    }
    struct cell *c = &cells[i];
    c->x = x, c->z = z, c->head = -1, c->count = 0, c->used = true, c->active = false;
    for (int l = 0; l < MOB_LAYERS; l++)
        if (!c->batch[l].limit) buf_init(&c->batch[l], 4u << 20);
    ctab[k] = i;
    cells_used++;
    return i;
}

static void unlink_mob(struct mob *m, uint32_t slot)
{
    if (m->cell < 0) return;
    struct cell *c = &cells[m->cell];
    if (m->cprev >= 0)
        mob_slots[m->cprev].cnext = m->cnext;
    else
        c->head = m->cnext;
    if (m->cnext >= 0) mob_slots[m->cnext].cprev = m->cprev;
    c->count--;
    m->cell = -1;
    (void)slot;
}

static bool link_mob(struct mob *m, uint32_t slot, int32_t cx, int32_t cz)
{
    int32_t ci = cell_get(cx, cz);
    if (ci < 0) return false;
    struct cell *c = &cells[ci];
    m->cell = ci, m->cx = cx, m->cz = cz;
    m->cprev = -1;
    m->cnext = c->head;
    if (c->head >= 0) mob_slots[c->head].cprev = (int32_t)slot;
    c->head = (int32_t)slot;
    c->count++;
    return true;
}

/* Frees the cells no mob is in (their batches too), every CELL_SWEEP_TICKS. */
static void sweep_cells(void)
{
    bool any = false;
    for (uint32_t i = 0; i < ncells; i++) {
        struct cell *c = &cells[i];
        if (!c->used || c->count || c->active) continue;
        for (int l = 0; l < MOB_LAYERS; l++) buf_free(&c->batch[l]);
        c->used = false;
        cells_used--;
        any = true;
    }
    if (any) table_build(ctab_cap);
}

/* ------------------------------------------------------------ viewers */

static uint32_t vh(int32_t eid)
{
    return (uint32_t)eid * 2654435761u;
}

static void vhash_rebuild(uint32_t cap)
{
    int32_t *h = calloc(cap, sizeof *h);
    if (!h) return; /* keep the old table: lookups stay right while it has room */
    for (uint32_t i = 0; i < nviewers; i++) {
        uint32_t k = vh(viewers[i].eid) & (cap - 1);
        while (h[k]) k = (k + 1) & (cap - 1);
        h[k] = (int32_t)i + 1;
    }
    free(vhash);
    vhash = h;
    vhash_cap = cap;
}

static struct viewer *viewer_find(int32_t eid)
{
    if (!vhash_cap) return NULL;
    for (uint32_t k = vh(eid) & (vhash_cap - 1); vhash[k]; k = (k + 1) & (vhash_cap - 1))
        if (viewers[vhash[k] - 1].eid == eid) return &viewers[vhash[k] - 1];
    return NULL;
}

static struct viewer *viewer_add(int32_t eid)
{
    if (!grow((void **)&viewers, &viewers_cap, nviewers + 1, sizeof *viewers)) return NULL;
    uint64_t *seen = calloc(seen_words ? seen_words : 1, sizeof *seen);
    if (!seen) return NULL;
    struct viewer *v = &viewers[nviewers++];
    memset(v, 0, sizeof *v);
    v->eid = eid;
    v->seen = seen;
    if (nviewers * 2 > vhash_cap) {
        vhash_rebuild(vhash_cap ? vhash_cap * 2 : 64);
    } else {
        uint32_t k = vh(eid) & (vhash_cap - 1);
        while (vhash[k]) k = (k + 1) & (vhash_cap - 1);
        vhash[k] = (int32_t)nviewers;
    }
    return v;
}

/* Calls fn(v, c, slot) for every mob v has spawned (a copy of each word is
 * walked, so fn may clear bits). */
static void each_seen(struct viewer *v, conn *c, void (*fn)(struct viewer *, conn *, uint32_t))
{
    for (size_t w = 0; w < seen_words; w++)
        for (uint64_t bits = v->seen[w]; bits; bits &= bits - 1)
            fn(v, c, (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(bits)));
}

static void forget_one(struct viewer *v, conn *c, uint32_t s)
{
    (void)c;
    seen_set(v, s, false);
}

/* Forgets every mob v had (its client dropped them, or it left). */
static void viewer_clear(struct viewer *v)
{
    each_seen(v, NULL, forget_one);
    v->init = false;
}

bool mt_grow(uint32_t cap)
{
    size_t words = (cap + 63) / 64;
    if (words <= seen_words) return true;
    for (uint32_t i = 0; i < nviewers; i++) {
        uint64_t *n = realloc(viewers[i].seen, words * sizeof *n);
        if (!n) return false;
        memset(n + seen_words, 0, (words - seen_words) * sizeof *n);
        viewers[i].seen = n;
    }
    seen_words = words;
    return true;
}

void mobs_forget(const player *p)
{
    struct viewer *v = viewer_find(p->entity_id);
    if (v) viewer_clear(v);
}

/* ------------------------------------------------------------ packets */

static void write_meta(const struct mob *m, bool full)
{
    buf_reset(&pk);
    wr_varint(&pk, PKT_PLAY_CB_ENTITY_METADATA);
    wr_varint(&pk, m->eid);
    if (full && m->name) {
        wr_u8(&pk, META_NAME);
        wr_varint(&pk, 6); /* OptChat */
        wr_bool(&pk, true);
        wr_string(&pk, m->name, strlen(m->name));
    }
    wr_u8(&pk, META_HEALTH);
    wr_varint(&pk, 3); /* Float */
    wr_f32(&pk, m->health);
    if (full && m->st.no_ai) {
        wr_u8(&pk, META_MOB_FLAGS);
        wr_varint(&pk, 0); /* Byte */
        wr_u8(&pk, 0x01);  /* NoAI */
    }
    if (full && m->type == ENTITY_TYPE_SHEEP) {
        wr_u8(&pk, META_WOOL);
        wr_varint(&pk, 0);
        wr_u8(&pk, (uint8_t)((m->st.color & 15) | (m->st.sheared ? 0x10 : 0)));
    }
    if (m->dead) {
        wr_u8(&pk, META_POSE);
        wr_varint(&pk, 20); /* Pose */
        wr_varint(&pk, POSE_DYING);
    }
    wr_u8(&pk, 0xff);
}

/* The spawn bundle of m at its relay base, framed into `spawns` once per tick. */
static void spawn_for(conn *c, struct mob *m)
{
    if (m->spawn_tick != tick_no) {
        m->spawn_tick = tick_no;
        m->spawn_off = (uint32_t)spawns.len;
        buf_reset(&pk);
        pkt_cb_bundle_delimiter(&pk);
        frame_into(&spawns);
        buf_reset(&pk);
        wr_varint(&pk, PKT_PLAY_CB_SPAWN_ENTITY);
        wr_varint(&pk, m->eid);
        wr_uuid(&pk, &m->uuid);
        wr_varint(&pk, m->type);
        wr_f64(&pk, (double)m->fx / 4096.0);
        wr_f64(&pk, (double)m->fy / 4096.0);
        wr_f64(&pk, (double)m->fz / 4096.0);
        wr_u8(&pk, (uint8_t)m->pitchp);
        wr_u8(&pk, (uint8_t)m->yawp);
        wr_u8(&pk, (uint8_t)m->headp);
        wr_varint(&pk, 0); /* data */
        wr_i16(&pk, 0), wr_i16(&pk, 0), wr_i16(&pk, 0);
        frame_into(&spawns);
        write_meta(m, true);
        frame_into(&spawns);
        buf_reset(&pk);
        pkt_cb_bundle_delimiter(&pk);
        frame_into(&spawns);
        m->spawn_len = (uint32_t)(spawns.len - m->spawn_off);
    }
    if (!spawns.failed) conn_send_raw(c, spawns.data + m->spawn_off, m->spawn_len);
}

static void base_reset(struct mob *m)
{
    m->fx = fixed_of(m->x), m->fy = fixed_of(m->y), m->fz = fixed_of(m->z);
    m->yawp = angle_of(m->yaw), m->pitchp = angle_of(m->pitch), m->headp = angle_of(m->head_yaw);
}

/* ------------------------------------------------------------ tracking */

static void add_changed(struct mob *m, uint32_t slot)
{
    if (m->changed) return;
    if (!grow((void **)&changed, &changed_cap, nchanged + 1, sizeof *changed)) return;
    m->changed = true;
    changed[nchanged++] = slot;
}

static void check(struct viewer *v, conn *c, uint32_t s)
{
    struct mob *m = &mob_slots[s];
    bool has = seen_get(v, s), vis = visible(v, c->player, m);
    if (has == vis) return;
    if (vis) {
        if (!m->held && m->spawn_tick != tick_no) base_reset(m); /* invariant 2 */
        seen_set(v, s, true);
        spawn_for(c, m);
    } else {
        seen_set(v, s, false);
        if (grow((void **)&v->destroy, &v->destroy_cap, v->ndestroy + 1, sizeof *v->destroy))
            v->destroy[v->ndestroy++] = m->eid;
    }
}

static void rescan(struct viewer *v, conn *c)
{
    each_seen(v, c, check);
    int r = 0;
    for (int l = 0; l < mob_layer_count(); l++) {
        int rl = (int)ceil(sqrt(range_sq(l, v->vd)));
        if (rl > r) r = rl;
    }
    if (ncells == 0) return;
    for (int dz = -r; dz <= r; dz++)
        for (int dx = -r; dx <= r; dx++) {
            int32_t ci = cell_find(v->cx + dx, v->cz + dz);
            if (ci < 0) continue;
            for (int32_t s = cells[ci].head; s >= 0; s = mob_slots[s].cnext)
                if (!seen_get(v, (uint32_t)s)) check(v, c, (uint32_t)s);
        }
}

static bool usable(const conn *c)
{
    return c && !c->closed && c->state == CS_PLAY && c->player && c->player->spawned;
}

void mt_track(void)
{
    tick_no++;
    buf_reset(&spawns);
    if (!spawns.limit) buf_init(&spawns, 16u << 20);
    /* 1. cells */
    nchanged = 0;
    for (uint32_t i = 0; i < mob_top; i++) {
        struct mob *m = &mob_slots[i];
        if (!m->used) continue;
        if (m->removed) {
            unlink_mob(m, i);
            add_changed(m, i);
            continue;
        }
        if (!m->moved && m->cell >= 0) continue;
        m->moved = false;
        int32_t cx = chunk_of(m->x), cz = chunk_of(m->z);
        if (m->cell >= 0 && cx == m->cx && cz == m->cz) continue;
        unlink_mob(m, i);
        if (!link_mob(m, i, cx, cz)) continue; /* out of memory: tried again next tick */
        add_changed(m, i);
    }
    /* 2. viewers: drop the ones whose player left */
    gen++;
    for (size_t k = 0; k < game.player_count; k++) {
        conn *c = game.players[k];
        if (!usable(c)) continue;
        struct viewer *v = viewer_find(c->player->entity_id);
        if (!v) v = viewer_add(c->player->entity_id);
        if (v) v->gen = gen;
    }
    bool removed_any = false;
    for (uint32_t i = 0; i < nviewers;) {
        if (viewers[i].gen == gen) {
            i++;
            continue;
        }
        viewer_clear(&viewers[i]);
        free(viewers[i].seen);
        free(viewers[i].destroy);
        viewers[i] = viewers[--nviewers];
        removed_any = true;
    }
    if (removed_any) vhash_rebuild(vhash_cap);
    for (size_t k = 0; k < game.player_count;) {
        conn *c = game.players[k];
        struct viewer *v = usable(c) ? viewer_find(c->player->entity_id) : NULL;
        if (v) {
            const player *p = c->player;
            int32_t cx = chunk_of(p->x), cz = chunk_of(p->z);
            v->ndestroy = 0;
            if (!v->init || cx != v->cx || cz != v->cz || p->view_distance != v->vd ||
                p->chunks_sent != v->chunks) {
                v->init = true;
                v->cx = cx, v->cz = cz, v->vd = p->view_distance, v->chunks = p->chunks_sent;
                rescan(v, c);
            } else {
                for (uint32_t j = 0; j < nchanged && !c->closed; j++) check(v, c, changed[j]);
            }
            if (v->ndestroy && !c->closed) {
                buf_reset(&srv->pkt);
                pkt_cb_entity_destroy(&srv->pkt, v->destroy, v->ndestroy);
                conn_send_pkt(c);
            }
        }
        if (k < game.player_count && game.players[k] != c) continue; /* dropped: swapped */
        k++;
    }
    /* 3. removed mobs leave their slots */
    for (uint32_t j = 0; j < nchanged; j++) {
        struct mob *m = &mob_slots[changed[j]];
        m->changed = false;
        if (m->removed && m->held == 0) mob_release(changed[j]);
    }
    if (tick_no % CELL_SWEEP_TICKS == 0) sweep_cells();
}

/* ------------------------------------------------------------ relay */

static void encode_move(struct mob *m, bool position)
{
    buf_reset(&pk);
    int yaw = angle_of(m->yaw), pitch = angle_of(m->pitch);
    bool rot = yaw != m->yawp || pitch != m->pitchp;
    int64_t nx = fixed_of(m->x), ny = fixed_of(m->y), nz = fixed_of(m->z);
    int64_t dx = nx - m->fx, dy = ny - m->fy, dz = nz - m->fz;
    double d2 = ((double)dx * dx + (double)dy * dy + (double)dz * dz) / (4096.0 * 4096.0);
    bool moved = position && (dx || dy || dz) && (d2 >= MOVE_EPSILON_SQ || m->resting);
    if (!moved && !rot) return;
    if (moved && !(fits_i16(dx) && fits_i16(dy) && fits_i16(dz))) {
        pkt_cb_entity_teleport(&pk, m->eid, m->x, m->y, m->z, (uint8_t)yaw, (uint8_t)pitch,
                               m->st.on_ground);
    } else if (moved && rot) {
        pkt_cb_entity_move_look(&pk, m->eid, (int16_t)dx, (int16_t)dy, (int16_t)dz, (uint8_t)yaw,
                                (uint8_t)pitch, m->st.on_ground);
    } else if (moved) {
        pkt_cb_rel_entity_move(&pk, m->eid, (int16_t)dx, (int16_t)dy, (int16_t)dz, m->st.on_ground);
    } else {
        pkt_cb_entity_look(&pk, m->eid, (uint8_t)yaw, (uint8_t)pitch, m->st.on_ground);
    }
    if (moved) m->fx = nx, m->fy = ny, m->fz = nz;
    m->yawp = yaw, m->pitchp = pitch;
}

static void relay(struct mob *m)
{
    const struct mob_type *t = mob_type_of(m);
    bool interval = m->age % t->interval == 0;
    if (!m->held) { /* on no client: its next spawn carries all of it (and sets the base) */
        m->meta_dirty = m->impulse = m->ev_death = false;
        m->ev_damage = 0;
        return;
    }
    if (!interval && !m->ev_damage && !m->ev_death && !m->meta_dirty && !m->impulse) return;
    struct cell *c = &cells[m->cell];
    buf_t *b = &c->batch[mob_layer_of(m->row)];
    size_t start = b->len;
    if (m->ev_damage) {
        buf_reset(&pk);
        wr_varint(&pk, PKT_PLAY_CB_DAMAGE_EVENT);
        wr_varint(&pk, m->eid);
        wr_varint(&pk, m->ev_damage - 1);
        wr_varint(&pk, m->ev_source ? m->ev_source + 1 : 0);
        wr_varint(&pk, m->ev_source ? m->ev_source + 1 : 0);
        wr_bool(&pk, false);
        frame_into(b);
        m->ev_damage = 0;
    }
    if (m->meta_dirty) {
        write_meta(m, false);
        frame_into(b);
        m->meta_dirty = false;
    }
    if (m->ev_death) {
        buf_reset(&pk);
        pkt_cb_entity_status(&pk, m->eid, 3);
        frame_into(b);
        m->ev_death = false;
    }
    if (m->impulse) {
        buf_reset(&pk);
        pkt_cb_entity_velocity(&pk, m->eid, m->vx, m->vy, m->vz);
        frame_into(b);
    }
    if (interval || m->impulse) {
        encode_move(m, true);
        if (pk.len) frame_into(b);
        int head = angle_of(m->head_yaw);
        if (head != m->headp) {
            buf_reset(&pk);
            pkt_cb_entity_head_rotation(&pk, m->eid, (uint8_t)head);
            frame_into(b);
            m->headp = head;
        }
    }
    m->impulse = false;
    if (b->len == start || c->active) return;
    if (!grow((void **)&active, &active_cap, nactive + 1, sizeof *active)) return;
    c->active = true;
    active[nactive++] = (uint32_t)m->cell;
}

void mt_relay(void)
{
    for (uint32_t a = 0; a < nactive; a++) {
        struct cell *c = &cells[active[a]];
        c->active = false;
        for (int l = 0; l < MOB_LAYERS; l++) buf_reset(&c->batch[l]);
    }
    nactive = 0;
    for (uint32_t i = 0; i < mob_top; i++) {
        struct mob *m = &mob_slots[i];
        if (m->used && !m->removed && m->cell >= 0) relay(m);
    }
    if (!nactive) return;
    int layers = mob_layer_count();
    for (size_t k = 0; k < game.player_count;) {
        conn *c = game.players[k];
        struct viewer *v = usable(c) ? viewer_find(c->player->entity_id) : NULL;
        for (uint32_t a = 0; v && a < nactive && !c->closed; a++) {
            const struct cell *ce = &cells[active[a]];
            for (int l = 0; l < layers; l++) {
                const buf_t *b = &ce->batch[l];
                if (b->len && !b->failed && sees_cell(v, c->player, ce->x, ce->z, l))
                    conn_send_buf(c, b, 0, b->len, CONN_LAZY);
            }
        }
        if (k < game.player_count && game.players[k] != c) continue;
        k++;
    }
}

void mt_free(void)
{
    for (uint32_t i = 0; i < ncells; i++)
        for (int l = 0; l < MOB_LAYERS; l++) buf_free(&cells[i].batch[l]);
    free(cells), free(ctab), free(active), free(changed), free(vhash);
    for (uint32_t i = 0; i < nviewers; i++) free(viewers[i].seen), free(viewers[i].destroy);
    free(viewers);
    cells = NULL, ctab = NULL, active = NULL, changed = NULL, vhash = NULL, viewers = NULL;
    ncells = cells_cap = ctab_cap = cells_used = nactive = active_cap = nchanged = changed_cap = 0;
    nviewers = viewers_cap = vhash_cap = 0;
    seen_words = 0;
    buf_free(&pk);
    buf_free(&spawns);
}
