/*
 * world.h — the loaded world: a hash map of chunk columns by (x, z), the
 * generator, the encode-once cache of Chunk Data packets, and the queue of
 * chunks players are waiting for. Generation, light and encoding run on the
 * worker pool (core/workers.h).
 *
 * Chunk lifecycle:
 *
 *   ABSENT --world_request--> QUEUED (in the request heap, no job yet)
 *   QUEUED --a generation slot frees, nearest first--> GENERATING
 *          (worker: load or generate, light, encode)
 *   QUEUED --every requester gave it up (moved away, left)--> ABSENT
 *   GENERATING --done--> READY (blocks and a framed packet cached)
 *   GENERATING --failed--> QUEUED again if still wanted (a load error waits
 *          retry_ms first, out of the heap), else ABSENT
 *   READY --world_set_block--> READY, frame stale, queued in the dirty list
 *   dirty --world_flush_edits--> re-encode of a snapshot on a worker --done-->
 *          frame replaced (if no newer edit), Update Light handed to on_relit
 *          (only if the light changed)
 *   READY --a neighbour becomes READY, or an edit within LIGHT_REACH of its
 *          edge changes light--> light_stale, on the stale list (unless
 *          idle: then when next taken): relit from snapshots of itself and
 *          its loaded neighbours; frame and Update Light only if the light
 *          changed
 *   READY, no viewers, nobody waiting: on the idle list --world_sweep-->
 *          ABSENT after WORLD_IDLE_UNLOAD_MS, or sooner, oldest first, while
 *          more than idle_max are idle (with unsaved edits: saved first)
 *
 * The request queue (why it exists: issue 23). Players ask for the chunks
 * of their window through a world_requester: a token bucket (requests per
 * second, a burst of one whole window, so a join or a teleport is never
 * slowed) and at most req_in_flight_max chunks asked for and not yet
 * delivered. Requests wait in a binary min-heap on the game thread keyed by the
 * squared distance (in chunks) from the requester's centre, plus 4096
 * while the requester is throttled (its budget refused a request and half
 * its burst has not come back since: see key_of), ties in request order; the pool only ever holds 2
 * generation jobs per worker thread, refilled from the heap top as each one finishes. So a flyer's
 * backlog never reaches the pool, a newcomer's chunks go ahead of those of
 * a flyer living on its refill, nearest first among equals, and a chunk
 * nobody waits for any more is dropped from the heap before any work is
 * done. Keys are exact for a chunk with one requester (re-keyed when it
 * moves); with several, the key is the smallest any of them gave since it
 * was queued (never raised again).
 *
 * With a store attached (world/store.h), GENERATING first tries the
 * chunk's region file on the worker and generates only when it is absent;
 * `save` tracks what is on disk.
 *
 * Invariants:
 *  1. While GENERATING, only the worker touches the entry's chunk; the game
 *     thread touches it only when READY. Re-encodes work on a deep copy;
 *     every job lights its column from deep copies of the READY neighbours
 *     taken on the game thread when it is submitted (light.h).
 *  2. A cached frame with frame_version == version is exactly the framed
 *     packet for the current blocks at the world's compression threshold.
 *     New viewers only get current frames; existing viewers get edits as
 *     Block Update packets (game layer).
 *  3. An entry with a job in flight is never freed (jobs counts them).
 *  4. viewers counts players holding the chunk; wanted counts requesters
 *     listing it (world_requester.listed); an entry with either is never freed.
 *  5. save.saved_version == version ⇔ the blocks on disk are the current
 *     ones (or no store is attached); only such an entry is unloaded.
 *  6. heap_index >= 0 ⇔ the entry is QUEUED in the heap; a QUEUED entry has
 *     wanted > 0 (or is pinned) and no job.
 *  7. on_idle ⇔ READY, viewers == 0 and wanted == 0; the idle list is in
 *     the order entries became idle (never-viewed ones first).
 *  8. r is in e->waiters ⇔ r's `listed` has e's bit (one place adds and
 *     removes both), so a streaming player waits to be told instead of
 *     asking again on every loop pass. Without memory for the entry, r is
 *     simply not told: the caller's periodic rescan still finds the chunk.
 */
#ifndef MC_WORLD_H
#define MC_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/list.h"
#include "world/chunk.h"
#include "world/terrain.h"

#define WORLD_IDLE_UNLOAD_MS 30000
/* Chunks one requester may have asked for and not yet received, at most
 * (the cap of mcserv-chunk-requests-in-flight). */
#define WORLD_IN_FLIGHT_MAX  256
/* A requester's requests lie within this Chebyshev distance of its centre
 * (= VIEW_DISTANCE_MAX). */
#define WORLD_REQ_RADIUS     32
#define WORLD_REQ_SIDE       (2 * WORLD_REQ_RADIUS + 1)

enum chunk_state { CHUNK_QUEUED, CHUNK_GENERATING, CHUNK_READY };

struct anvil_extra;

/* Save lists (world_save_list_move); the fields are world/store.c's. */
enum { SAVE_LIST_NONE, SAVE_LIST_UNSAVED, SAVE_LIST_QUEUED, SAVE_LISTS };

struct chunk_save_state {
    uint32_t saved_version; /* the version that is on disk */
    uint32_t round_version; /* the version the current save round must reach */
    uint32_t round;         /* that round's id, 0 = none */
    uint8_t list;           /* SAVE_LIST_* */
    bool saving;            /* a save job holds a snapshot */
    bool unsavable;         /* too large for a region file: given up, logged */
    struct chunk_entry *prev, *next;
};

typedef struct chunk_entry {
    chunk c;
    enum chunk_state state;
    buf_t frame;      /* cached framed Chunk Data packet */
    uint32_t version; /* bumped by every edit */
    uint32_t frame_version;
    int jobs; /* jobs in flight that point here */
    bool reencoding;
    bool dirty;   /* on the dirty list */
    bool pinned;  /* requested without a requester (world_acquire_frame): never dropped */
    bool on_idle; /* on the idle list (invariant 7) */
    int viewers;
    int wanted;         /* requesters listing it (invariant 4) */
    int32_t heap_index; /* in the request heap, or -1 (invariant 6) */
    uint32_t key;       /* heap order: squared distance to the nearest requester */
    uint32_t seq;       /* ties: request order */
    int64_t idle_since_ms;
    struct chunk_entry *next;       /* hash chain */
    list_node idle_link;            /* on world.idle (invariant 7) */
    struct chunk_entry *next_dirty; /* dirty list */
    struct chunk_save_state save;   /* world/store.c */
    struct anvil_extra *extra;      /* tags kept from disk (block entities...), or NULL; owned */
    int64_t retry_ms;               /* loading failed: not again before this (clock_ms) */
    /* Light (world.c, light.h): the hash of the light in the cached frame;
     * stale: a neighbour arrived or changed within reach since that light
     * was computed, so a relight is due (on the dirty list). */
    uint64_t light_hash;
    bool light_stale;
    /* A read-only copy of the blocks shared by the jobs lighting its
     * neighbours (world.c), or NULL; on world.snaps while set. */
    struct chunk_snap *snap;
    list_node snap_link;
    list_node stale_link; /* on world.stale: light_stale and someone views or waits for it */
    /* The requesters listing it (invariant 8), told when its frame becomes
     * current (world.on_ready). */
    struct world_requester **waiters;
    uint32_t nwaiters, waiters_cap;
} chunk_entry;

typedef struct world {
    chunk_entry **buckets;
    size_t nbuckets; /* power of two */
    size_t count;
    int compression_threshold;
    terrain terrain;
    chunk_entry *dirty;
    /* Called on the game thread when a re-encode after edits finishes, with
     * the framed Update Light packet for the chunk's viewers. */
    void (*on_relit)(chunk_entry *e, const uint8_t *frame, size_t len);
    /* Called on the game thread for each requester listing a chunk when its
     * frame becomes current (generated, loaded, or re-encoded after an
     * edit): world_take_frame would now give it. */
    void (*on_ready)(struct world_requester *r);
    /* Counters for metrics and benchmarks. */
    uint64_t chunks_generated, chunks_encoded, chunks_unloaded;
    uint64_t gen_ns_total, encode_ns_total;
    uint64_t encoded_bytes_raw, encoded_bytes_framed;
    int generating; /* generation jobs in the pool (at most gen_slots) */
    /* The request queue (see the top of this file). */
    chunk_entry **heap;
    size_t heap_len, heap_cap;
    uint32_t next_seq;
    bool feeding;                                    /* inside feed() (no re-entry) */
    int req_per_second, req_in_flight_max, idle_max; /* from the config */
    list_node idle; /* READY chunks nobody views or waits for, oldest first */
    size_t idle_count;
    uint64_t requests_total, requests_cancelled, requests_refused_budget;
    /* Memory given back after large unloads (world.c, trim_job). */
    uint64_t unloaded_since_trim, trims;
    int64_t last_trim_ms, last_unload_ms;
    bool trimming;
    /* world/store.c: true once a store is attached; the save lists. */
    bool persistent;
    chunk_entry *save_head[SAVE_LISTS], *save_tail[SAVE_LISTS];
    size_t save_count[SAVE_LISTS];
    uint64_t chunks_loaded, load_failures;
    /* Relights (a neighbour arrived or was edited): jobs, and those whose
     * light changed (an Update Light went out); light CPU time in all jobs. */
    uint64_t relights, relights_changed, light_ns_total;
    int relighting;  /* relight-only jobs in the pool (at most gen_slots, as generation) */
    list_node snaps; /* entries holding a snapshot, let go at the next world_flush_edits */
    list_node stale; /* entries to relight, oldest first (world_flush_edits) */
    /* Bumped whenever what world_get_block answers may change (a block set,
     * a chunk ready or unloaded): a cache of block lookups is valid while
     * this is unchanged (game/health.c keeps one per player). */
    uint64_t block_epoch;
    /* world/block_ticks.c (issue 21): after every change world_set_block
     * makes, and when a column becomes READY; NULL when not attached. */
    void (*on_change)(struct world *w, chunk_entry *e, int32_t x, int32_t y, int32_t z,
                      uint16_t old, uint16_t state);
    void (*on_column_ready)(struct world *w, chunk_entry *e);
} world;

/*
 * One player's chunk requests (embedded in struct player; zeroed, then
 * world_requester_init). `listed` marks the chunks asked for and not yet
 * delivered over the square of side WORLD_REQ_SIDE around (cx, cz) (bit
 * (dx + R) * SIDE + (dz + R)), so a scan asks "already requested?" in O(1);
 * count is how many bits are set.
 */
typedef struct world_requester {
    uint8_t listed[(WORLD_REQ_SIDE * WORLD_REQ_SIDE + 7) / 8];
    int count;
    int32_t cx, cz;
    int burst;      /* token bucket capacity: the player's whole window */
    double tokens;  /* requests allowed now */
    bool throttled; /* refused for the budget, and not half refilled since */
    int64_t refill_ms;
    /* Centre moves per second (decaying over a second; one move counts at
     * most 2, so a teleport is not a flight); racing: above
     * WORLD_RACING_PACE, until below half of it. A racer outruns generation
     * while inside its budget when chunks are slow to make (vanilla terrain),
     * so it queues behind everyone else as a throttled one does. */
    double pace;
    int64_t pace_ms;
    bool racing;
} world_requester;

/* Chunks per second of centre movement that make a requester a racer: above
 * sprint-flying (1.7) and elytra cruising, below mcbench's flyers (11). */
#define WORLD_RACING_PACE 4.0

/* What world_request did. */
enum world_req_result {
    WORLD_REQ_WAITING, /* asked for (now or before): it will come */
    WORLD_REQ_FULL,    /* the requester has req_in_flight_max requests already */
    WORLD_REQ_BUDGET,  /* no token left this second */
    WORLD_REQ_NOMEM,
};

int world_init(world *w, const struct server_config *cfg, char *err, size_t errlen);
void world_free(world *w);

/*
 * The framed Chunk Data packet for (x, z) with a viewer reference taken, or
 * NULL when it is not ready yet. Never starts any work (see world_request).
 */
const buf_t *world_take_frame(world *w, int32_t x, int32_t z);
/*
 * world_take_frame, and when the chunk is not ready, a pinned request for it
 * (nearest first, outside every budget, never dropped): tests and tools.
 */
const buf_t *world_acquire_frame(world *w, int32_t x, int32_t z);
void world_release(world *w, int32_t x, int32_t z, int64_t now_ms);

/* Starts a requester centred on chunk (cx, cz) with a full bucket of `burst`. */
void world_requester_init(world_requester *r, int32_t cx, int32_t cz, int burst, int64_t now_ms);
/*
 * Asks for the chunk at (x, z), within WORLD_REQ_RADIUS of r's centre, that
 * world_take_frame just found not ready, on r's behalf. A chunk r already
 * asked for costs nothing (a failed load is retried here once its retry
 * time has passed); a new request costs a token and one of r's in-flight places.
 */
enum world_req_result world_request(world *w, world_requester *r, int32_t x, int32_t z,
                                    int64_t now_ms);
/* r got the chunk it asked for (world_take_frame succeeded): the request ends. */
void world_request_done(world *w, world_requester *r, int32_t x, int32_t z, int64_t now_ms);
/* r's centre moved to (cx, cz) with view distance vd: requests outside the
 * new window are given up, the others re-keyed. burst: the new window area. */
void world_requester_move(world *w, world_requester *r, int32_t cx, int32_t cz, int vd, int burst,
                          int64_t now_ms);
/* Gives up every request of r (the player leaves). */
void world_requester_clear(world *w, world_requester *r, int64_t now_ms);

/* Unloads chunks idle for WORLD_IDLE_UNLOAD_MS, and the oldest idle ones
 * beyond idle_max; returns how many. After large unloads, hands freed memory
 * back to the system (malloc_trim on a worker, at most every few seconds). */
size_t world_sweep(world *w, int64_t now_ms);

/* The READY entry at (x, z), or NULL; never generates. */
chunk_entry *world_loaded(world *w, int32_t x, int32_t z);
/* Block at a world position: 0 and *state set, or -1 if its chunk is not READY. */
int world_get_block(world *w, int32_t x, int32_t y, int32_t z, uint16_t *state);
/* Changes a block; -1 if the chunk is not READY, y is outside the world, or out of memory. */
int world_set_block(world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
/* The block entities of chunk (cx, cz) changed (a chest's items): saved
 * like an edit; the cached packet (blocks only) stays. -1 if not READY. */
int world_touch(world *w, int32_t cx, int32_t cz);
/* Starts re-encodes for chunks edited since the last call (once per tick). */
void world_flush_edits(world *w);
/* Moves e to save list `list` (SAVE_LIST_NONE: off every list); for world/store.c. */
void world_save_list_move(world *w, chunk_entry *e, int list);
/* True if e has edits (or generated blocks) not yet on disk. */
bool world_entry_unsaved(const chunk_entry *e);

/* Highest solid block at (x, z) before trees and caves, for choosing a spawn. */
int world_surface_y(world *w, int32_t x, int32_t z);

#define FLAT_SURFACE_Y (-61)

#endif
