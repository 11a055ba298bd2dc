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
 *      mobs. A spawn is Spawn Entity with the rotation and head yaw and
 *      Set Entity Metadata, encoded once per mob per tick; a viewer's
 *      spawns of one tick go out inside one Bundle Delimiter pair, at most
 *      SPAWNS_PER_TICK of them, nearest cells first (the spawn budget, the
 *      issue's "entity explosion": 5,000 mobs summoned at once reach a
 *      client over 20 ticks instead of as one 300 KB burst). A viewer
 *      that hit the budget is "behind": on the next ticks it scans the
 *      cells in its range again for the mobs it lacks (only those: the
 *      ones it has cost a bit test), until none is left. Removals go out
 *      as one Remove Entities per viewer per tick;
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
 *  1. After step 2, for every viewer V and mob M: seen_V(M) ⇒ visible(V, M),
 *     and seen_V(M) ⇔ visible(V, M) unless V is behind (the spawn budget
 *     left some visible mobs for later ticks). So a cell's batch for a
 *     layer concerns only mobs every viewer that is not behind and sees
 *     that (cell, layer) has spawned; a viewer behind this tick gets the
 *     per-mob segments of the mobs it has instead (as entities.c's capped
 *     viewers).
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
#include "data/block_table.h"
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
#define META_FLAGS       0
#define META_HAND        8 /* LivingEntity: 0x01 using an item (the bow drawn) */
#define META_NAME        2
#define META_POSE        6
#define META_HEALTH      9
#define META_MOB_FLAGS   15
#define META_WOOL        17
#define META_SWELL_DIR   16 /* creeper: VarInt, -1 idle, 1 swelling */
#define META_POWERED     17 /* creeper: Boolean, charged */
#define META_IGNITED     18 /* creeper: Boolean */
#define POSE_DYING       7
#define SPAWNS_PER_TICK  256 /* new mobs sent to one viewer per tick (the spawn budget) */

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
    int budget;     /* spawns this tick may still send */
    bool behind;    /* the budget left visible mobs unsent: scan again next tick */
    bool partial;   /* behind after this tick's tracking: the relay sends segments */
    bool bundle;    /* a Bundle Delimiter pair is open on its connection */
    bool deferring; /* behind since an earlier tick (logged once per episode) */
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
static buf_t pk, spawns;      /* one packet being built; this tick's spawns (delimiter first) */
static uint32_t delim_len;    /* the Bundle Delimiter frame at spawns[0 .. delim_len) */
static uint32_t newly_behind; /* viewers that hit the spawn budget this tick */

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
    const struct mob_type *t = mob_type_of(m);
    if (t->ai == MOB_AI_ARROW) { /* an arrow's indices 8 and 9 are its own: none sent */
        wr_u8(&pk, 0xff);
        return;
    }
    if (full ? m->st.fire > 0 : t->ai != MOB_AI_PASSIVE) { /* issue 15: the burning flag */
        wr_u8(&pk, META_FLAGS);
        wr_varint(&pk, 0);
        wr_u8(&pk, m->st.fire > 0 ? 0x01 : 0);
    }
    if (t->ai == MOB_AI_BOW && (full ? m->draw_ticks > 0 : true)) {
        wr_u8(&pk, META_HAND);
        wr_varint(&pk, 0);
        wr_u8(&pk, m->draw_ticks > 0 ? 0x01 : 0);
    }
    if (full && m->name) {
        wr_u8(&pk, META_NAME);
        wr_varint(&pk, 6); /* OptChat */
        wr_bool(&pk, true);
        wr_string(&pk, m->name, strlen(m->name));
    }
    wr_u8(&pk, META_HEALTH);
    wr_varint(&pk, 3); /* Float */
    wr_f32(&pk, m->health);
    if ((full && m->st.no_ai) || t->ai != MOB_AI_PASSIVE) {
        wr_u8(&pk, META_MOB_FLAGS);
        wr_varint(&pk, 0); /* Byte */
        wr_u8(&pk, (uint8_t)((m->st.no_ai ? 0x01 : 0) | (m->aggressive ? 0x04 : 0)));
    }
    if (full && m->type == ENTITY_TYPE_SHEEP) {
        wr_u8(&pk, META_WOOL);
        wr_varint(&pk, 0);
        wr_u8(&pk, (uint8_t)((m->st.color & 15) | (m->st.sheared ? 0x10 : 0)));
    }
    if (m->type == ENTITY_TYPE_CREEPER) { /* all three: the fuse is what changes */
        wr_u8(&pk, META_SWELL_DIR);
        wr_varint(&pk, 1); /* VarInt */
        wr_varint(&pk, m->swell_dir);
        if (full || m->st.powered) {
            wr_u8(&pk, META_POWERED);
            wr_varint(&pk, 8); /* Boolean */
            wr_bool(&pk, m->st.powered);
        }
        wr_u8(&pk, META_IGNITED);
        wr_varint(&pk, 8);
        wr_bool(&pk, m->st.ignited);
    }
    if (m->dead) {
        wr_u8(&pk, META_POSE);
        wr_varint(&pk, 20); /* Pose */
        wr_varint(&pk, POSE_DYING);
    }
    wr_u8(&pk, 0xff);
}

/* The bow's item id (minecraft-data items), found once by name. */
static int bow_item(void)
{
    static int id = -1;
    if (id < 0) {
        id = 0;
        for (int i = 0; i < ITEM_COUNT; i++)
            if (strcmp(item_info[i].name, "bow") == 0) id = i;
    }
    return id;
}

/* Spawn Entity and metadata of m at its relay base, framed into `spawns`
 * once per tick; sent inside v's bundle of the tick (opened here). */
static void spawn_for(struct viewer *v, conn *c, struct mob *m)
{
    if (m->spawn_tick != tick_no) {
        m->spawn_tick = tick_no;
        m->spawn_off = (uint32_t)spawns.len;
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
        bool arrow = mob_type_of(m)->ai == MOB_AI_ARROW;
        wr_varint(&pk, arrow && m->owner ? m->owner + 1 : 0); /* data: an arrow's shooter + 1 */
        if (arrow && !m->in_ground) { /* its velocity, 1/8000 block a tick, as vanilla clamps */
            wr_i16(&pk, (int16_t)(fmax(fmin(m->vx, 3.9), -3.9) * 8000.0));
            wr_i16(&pk, (int16_t)(fmax(fmin(m->vy, 3.9), -3.9) * 8000.0));
            wr_i16(&pk, (int16_t)(fmax(fmin(m->vz, 3.9), -3.9) * 8000.0));
        } else {
            wr_i16(&pk, 0), wr_i16(&pk, 0), wr_i16(&pk, 0);
        }
        frame_into(&spawns);
        write_meta(m, true);
        frame_into(&spawns);
        if (mob_type_of(m)->ai == MOB_AI_BOW && bow_item() > 0) { /* a skeleton holds a bow */
            struct pkt_equipment e = {0, bow_item(), 1};
            buf_reset(&pk);
            pkt_cb_entity_equipment(&pk, m->eid, &e, 1);
            frame_into(&spawns);
        }
        m->spawn_len = (uint32_t)(spawns.len - m->spawn_off);
    }
    if (spawns.failed) return;
    if (!v->bundle) {
        v->bundle = true;
        conn_send_raw(c, spawns.data, delim_len);
    }
    conn_send_raw(c, spawns.data + m->spawn_off, m->spawn_len);
}

/* Closes v's bundle of this tick, if one was opened. */
static void bundle_close(struct viewer *v, conn *c)
{
    if (!v->bundle) return;
    v->bundle = false;
    if (!c->closed && !spawns.failed) conn_send_raw(c, spawns.data, delim_len);
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
        if (v->budget <= 0) { /* the spawn budget: a later tick sends it */
            v->behind = v->partial = true;
            return;
        }
        v->budget--;
        if (!m->held && m->spawn_tick != tick_no) base_reset(m); /* invariant 2 */
        seen_set(v, s, true);
        spawn_for(v, c, m);
    } else {
        seen_set(v, s, false);
        if (grow((void **)&v->destroy, &v->destroy_cap, v->ndestroy + 1, sizeof *v->destroy))
            v->destroy[v->ndestroy++] = m->eid;
    }
}

/* The mobs of cell (cx, cz) that v lacks are checked; false once the
 * spawn budget left one for later (the scan stops there). */
static bool scan_cell(struct viewer *v, conn *c, int32_t cx, int32_t cz)
{
    int32_t ci = cell_find(cx, cz);
    if (ci < 0) return true;
    for (int32_t s = cells[ci].head; s >= 0 && !v->behind && !c->closed; s = mob_slots[s].cnext)
        if (!seen_get(v, (uint32_t)s)) check(v, c, (uint32_t)s);
    return !v->behind;
}

/* Every cell within v's largest range, in rings from its own chunk out
 * (the nearest mobs first when the budget runs out). */
static void scan_cells(struct viewer *v, conn *c)
{
    int r = 0;
    for (int l = 0; l < mob_layer_count(); l++) {
        int rl = (int)ceil(sqrt(range_sq(l, v->vd)));
        if (rl > r) r = rl;
    }
    v->behind = false;
    if (ncells == 0 || !scan_cell(v, c, v->cx, v->cz)) return;
    for (int d = 1; d <= r; d++) {
        for (int dx = -d; dx <= d; dx++)
            if (!scan_cell(v, c, v->cx + dx, v->cz - d) || !scan_cell(v, c, v->cx + dx, v->cz + d))
                return;
        for (int dz = -d + 1; dz <= d - 1; dz++)
            if (!scan_cell(v, c, v->cx - d, v->cz + dz) || !scan_cell(v, c, v->cx + d, v->cz + dz))
                return;
    }
}

static void rescan(struct viewer *v, conn *c)
{
    each_seen(v, c, check);
    scan_cells(v, c);
}

static bool usable(const conn *c)
{
    return c && !c->closed && c->state == CS_PLAY && c->player && c->player->spawned;
}

void mt_place(struct mob *m, uint32_t slot)
{
    m->fresh = true; /* mt_track announces it (the changed list) */
    link_mob(m, slot, chunk_of(m->x), chunk_of(m->z)); /* out of memory: mt_track tries again */
}

uint32_t mt_count(int32_t cx, int32_t cz)
{
    int32_t ci = cell_find(cx, cz);
    return ci < 0 ? 0 : cells[ci].count;
}

void mt_track(void)
{
    static log_kind k_behind = LOG_KIND;
    tick_no++;
    buf_reset(&spawns);
    if (!spawns.limit) buf_init(&spawns, 16u << 20);
    buf_reset(&pk);
    pkt_cb_bundle_delimiter(&pk);
    frame_into(&spawns);
    delim_len = (uint32_t)spawns.len;
    newly_behind = 0;
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
        bool fresh = m->fresh;
        m->fresh = false;
        if (!m->moved && m->cell >= 0 && !fresh) continue;
        m->moved = false;
        int32_t cx = chunk_of(m->x), cz = chunk_of(m->z);
        if (m->cell >= 0 && cx == m->cx && cz == m->cz) {
            if (fresh) add_changed(m, i);
            continue;
        }
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
            v->budget = SPAWNS_PER_TICK;
            v->partial = false;
            if (!v->init || cx != v->cx || cz != v->cz || p->view_distance != v->vd ||
                p->chunks_sent != v->chunks) {
                v->init = true;
                v->cx = cx, v->cz = cz, v->vd = p->view_distance, v->chunks = p->chunks_sent;
                rescan(v, c);
            } else {
                bool was_behind = v->behind;
                for (uint32_t j = 0; j < nchanged && !c->closed; j++) check(v, c, changed[j]);
                if (was_behind && !c->closed) scan_cells(v, c); /* the mobs it still lacks */
            }
            bundle_close(v, c);
            if (v->behind && !v->deferring) newly_behind++;
            v->deferring = v->behind;
            if (v->ndestroy && !c->closed) {
                buf_reset(&srv->pkt);
                pkt_cb_entity_destroy(&srv->pkt, v->destroy, v->ndestroy);
                conn_send_pkt(c);
            }
        }
        if (k < game.player_count && game.players[k] != c) continue; /* dropped: swapped */
        k++;
    }
    if (newly_behind)
        log_limited(&k_behind, LOG_INFO,
                    "mobs: spawns deferred: %u viewer%s had more new mobs in range than the %d "
                    "a viewer is sent per tick; the rest follow on the next ticks",
                    newly_behind, newly_behind == 1 ? "" : "s", SPAWNS_PER_TICK);
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
        m->meta_dirty = m->impulse = m->ev_death = m->ev_swing = false;
        m->ev_damage = 0;
        return;
    }
    if (!interval && !m->ev_damage && !m->ev_death && !m->meta_dirty && !m->impulse && !m->ev_swing)
        return;
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
    if (m->ev_swing) { /* issue 15: a melee attack swings the arm */
        buf_reset(&pk);
        pkt_cb_animation(&pk, m->eid, 0);
        frame_into(b);
        m->ev_swing = false;
    }
    if (m->impulse) {
        buf_reset(&pk);
        if (m->in_ground) /* a stuck arrow stays */
            pkt_cb_entity_velocity(&pk, m->eid, 0, 0, 0);
        else
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
    m->seg_tick = tick_no; /* for viewers behind (invariant 1) */
    m->seg_off = (uint32_t)start;
    m->seg_len = (uint32_t)(b->len - start);
    if (b->len == start || c->active) return;
    if (!grow((void **)&active, &active_cap, nactive + 1, sizeof *active)) return;
    c->active = true;
    active[nactive++] = (uint32_t)m->cell;
}

/* A viewer behind: the segments of the cell's mobs of layer l it has. */
static void send_segments(const struct viewer *v, conn *c, const struct cell *ce, int l)
{
    const buf_t *b = &ce->batch[l];
    for (int32_t s = ce->head; s >= 0 && !c->closed; s = mob_slots[s].cnext) {
        const struct mob *m = &mob_slots[s];
        if (m->seg_tick == tick_no && m->seg_len && mob_layer_of(m->row) == l &&
            seen_get(v, (uint32_t)s))
            conn_send_buf(c, b, m->seg_off, m->seg_len, CONN_LAZY);
    }
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
                if (!b->len || b->failed || !sees_cell(v, c->player, ce->x, ce->z, l)) continue;
                if (v->partial)
                    send_segments(v, c, ce, l);
                else
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
