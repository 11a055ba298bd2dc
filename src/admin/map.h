/*
 * map.h — the live map's tiles: GET /map/tiles/{zoom}/{x}/{z}.png on the
 * admin endpoint (admin/http.c), drawn by world/maprender.h on the workers
 * and kept in a bounded cache.
 *
 * Tiles are 256×256 pixels. At zoom 0 a pixel is one block and a tile
 * covers 16×16 chunks: tile (x, z) holds blocks [256x, 256x + 256) ×
 * [256z, 256z + 256), north up. Zoom k (0..MAP_ZOOMS-1) halves the scale k
 * times: a pixel is 2^k blocks, a tile 16·2^k chunks, made from the four
 * tiles of zoom k-1 it covers.
 *
 * Tile states:
 *
 *   unknown --requested--> queued --a job slot--> rendering --done--> ready
 *   ready --its chunks changed (checked each second while the tile is being
 *           looked at), or pre-generation wrote chunks in it, or a tile it is
 *           made of changed--> stale (served as it is) --re-rendered--> ready
 *   ready (not being rendered) --cache over its caps--> evicted (least
 *           recently asked for first)
 *
 * A zoom-0 job gets, for each chunk of the tile, a deep copy of the blocks
 * when the world has it loaded (READY; copies taken on the game thread),
 * or the chunk's coordinates to read from its region file on the worker;
 * anything else (not generated) is transparent. Rendering never generates
 * a chunk, never reads a file on the game thread, and never waits.
 *
 * Invariants:
 *  1. At most MAP_TILES_MAX tiles and MAP_CACHE_BYTES of PNG are cached, at
 *     most MAP_JOBS_MAX jobs are in flight, and a tick spends at most
 *     MAP_COPY_BUDGET chunk copies on new jobs.
 *  2. Game thread only, except the job bodies, which touch only their job
 *     and the store's region reads.
 *  3. A job names its tile by key, never by pointer: a tile may be evicted
 *     (or the map closed) while its job runs.
 */
#ifndef MC_MAP_H
#define MC_MAP_H

#include <stddef.h>
#include <stdint.h>

#define MAP_ZOOMS       4
#define MAP_TILE        256
#define MAP_TILES_MAX   1024
#define MAP_CACHE_BYTES (48u << 20)
#define MAP_JOBS_MAX    2
#define MAP_COPY_BUDGET 256   /* chunk copies per timer pass (50 ms) */
#define MAP_WATCH_MS    60000 /* a tile asked for within this is checked for changes */

enum map_result {
    MAP_READY,   /* *png, *len: the tile (maybe stale: a newer one is on its way) */
    MAP_EMPTY,   /* rendered: no generated chunk in it */
    MAP_PENDING, /* being rendered: ask again shortly */
    MAP_BAD,     /* zoom or coordinates out of range */
};

/*
 * The tile (zoom, x, z) for an HTTP answer; queues its rendering when it is
 * missing or stale. The PNG stays valid until the next map call.
 */
enum map_result map_tile(int zoom, int32_t x, int32_t z, const uint8_t **png, size_t *len);

/* Counters for /api/status and tests. */
struct map_stats {
    uint64_t renders, render_ns, chunks_drawn, chunks_copied, composites;
    size_t tiles, bytes;
};
void map_get_stats(struct map_stats *st);

/* Shutdown: drops the cache (jobs still in flight free themselves). */
void map_free(void);

#endif
