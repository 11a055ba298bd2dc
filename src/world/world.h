/*
 * world.h — the loaded world: a hash map of chunk columns by (x, z), the
 * generator, and the encode-once cache of Chunk Data packets. Generation,
 * light and encoding run on the worker pool (core/workers.h).
 *
 * Chunk lifecycle:
 *
 *   ABSENT --world_acquire_frame--> GENERATING (worker: generate, light, encode)
 *   GENERATING --done--> READY (blocks and a framed packet cached)
 *   READY --world_set_block--> READY, frame stale, queued in the dirty list
 *   dirty --world_flush_edits--> re-encode of a snapshot on a worker --done-->
 *          frame replaced (if no newer edit), Update Light handed to on_relit
 *   READY with no viewers for WORLD_IDLE_UNLOAD_MS --world_sweep--> ABSENT
 *          (with unsaved edits: saved first, see world/store.h)
 *
 * With a store attached (world/store.h), GENERATING first tries the
 * chunk's region file on the worker and generates only when it is absent;
 * `save` tracks what is on disk.
 *
 * Invariants:
 *  1. While GENERATING, only the worker touches the entry's chunk; the game
 *     thread touches it only when READY. Re-encodes work on a deep copy.
 *  2. A cached frame with frame_version == version is exactly the framed
 *     packet for the current blocks at the world's compression threshold.
 *     New viewers only get current frames; existing viewers get edits as
 *     Block Update packets (game layer).
 *  3. An entry with a job in flight is never freed (jobs counts them).
 *  4. viewers counts players holding the chunk.
 *  5. save.saved_version == version ⇔ the blocks on disk are the current
 *     ones (or no store is attached); only such an entry is unloaded.
 */
#ifndef MC_WORLD_H
#define MC_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/config.h"
#include "world/chunk.h"
#include "world/terrain.h"

#define WORLD_IDLE_UNLOAD_MS 30000

enum chunk_state { CHUNK_GENERATING, CHUNK_READY };

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
    bool dirty; /* on the dirty list */
    int viewers;
    int64_t idle_since_ms;
    struct chunk_entry *next;       /* hash chain */
    struct chunk_entry *next_dirty; /* dirty list */
    struct chunk_save_state save;   /* world/store.c */
    struct anvil_extra *extra;      /* tags kept from disk (block entities...), or NULL; owned */
    int64_t retry_ms;               /* loading failed: not again before this (clock_ms) */
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
    /* Counters for metrics and benchmarks. */
    uint64_t chunks_generated, chunks_encoded, chunks_unloaded;
    uint64_t gen_ns_total, encode_ns_total;
    uint64_t encoded_bytes_raw, encoded_bytes_framed;
    int generating;
    /* world/store.c: true once a store is attached; the save lists. */
    bool persistent;
    chunk_entry *save_head[SAVE_LISTS], *save_tail[SAVE_LISTS];
    size_t save_count[SAVE_LISTS];
    uint64_t chunks_loaded, load_failures;
} world;

int world_init(world *w, const struct server_config *cfg, char *err, size_t errlen);
void world_free(world *w);

/*
 * The framed Chunk Data packet for (x, z) with a viewer reference taken, or
 * NULL when it is not ready yet (generation or re-encode is then underway).
 */
const buf_t *world_acquire_frame(world *w, int32_t x, int32_t z);
void world_release(world *w, int32_t x, int32_t z, int64_t now_ms);
/* Unloads chunks idle for WORLD_IDLE_UNLOAD_MS; returns how many. */
size_t world_sweep(world *w, int64_t now_ms);

/* The READY entry at (x, z), or NULL; never generates. */
chunk_entry *world_loaded(world *w, int32_t x, int32_t z);
/* Block at a world position: 0 and *state set, or -1 if its chunk is not READY. */
int world_get_block(world *w, int32_t x, int32_t y, int32_t z, uint16_t *state);
/* Changes a block; -1 if the chunk is not READY, y is outside the world, or out of memory. */
int world_set_block(world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
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
