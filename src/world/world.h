/*
 * world.h — the loaded world: a hash map of chunk columns by (x, z), the
 * terrain generator, and the encode-once cache of Chunk Data packets.
 *
 * Chunk lifecycle here (no disk yet):
 *
 *   ABSENT --world_acquire--> LIVE (generated, viewers > 0)
 *   LIVE --last world_release--> IDLE (viewers == 0, since t)
 *   IDLE --world_acquire--> LIVE        IDLE for WORLD_IDLE_UNLOAD_MS --sweep--> ABSENT
 *
 * Invariants:
 *  1. A chunk's cached frame, when present, is exactly the framed packet for
 *     its current blocks at the world's compression threshold; every block
 *     edit drops it (world_set_block), the next viewer re-encodes it once.
 *  2. viewers counts players that hold the chunk (sent and not unloaded).
 *  3. Only the game thread touches the world.
 */
#ifndef MC_WORLD_H
#define MC_WORLD_H

#include <stdint.h>

#include "core/buf.h"
#include "world/chunk.h"

#define WORLD_IDLE_UNLOAD_MS 30000

struct libdeflate_compressor;

typedef struct chunk_entry {
    chunk c;
    buf_t frame; /* cached framed Chunk Data packet; len 0 = not encoded */
    int viewers;
    int64_t idle_since_ms;
    struct chunk_entry *next; /* hash chain */
} chunk_entry;

typedef struct world {
    chunk_entry **buckets;
    size_t nbuckets; /* power of two */
    size_t count;
    int compression_threshold;
    struct libdeflate_compressor *compressor;
    buf_t scratch;
    uint64_t chunks_generated;
    uint64_t chunks_encoded;
} world;

int world_init(world *w, int compression_threshold);
void world_free(world *w);

/* The chunk at (x, z), generated if absent; NULL only when out of memory. */
chunk_entry *world_get(world *w, int32_t x, int32_t z);
/* Takes a viewer reference and returns the framed packet to send. */
const buf_t *world_acquire_frame(world *w, int32_t x, int32_t z);
void world_release(world *w, int32_t x, int32_t z, int64_t now_ms);
/* Unloads chunks idle for WORLD_IDLE_UNLOAD_MS; returns how many. */
size_t world_sweep(world *w, int64_t now_ms);

uint16_t world_get_block(world *w, int32_t x, int32_t y, int32_t z);

/* Flat generator: bedrock y=-64, dirt -63..-62, grass_block -61, plains. */
void flat_generate(chunk *c);
#define FLAT_SURFACE_Y (-61)

#endif
