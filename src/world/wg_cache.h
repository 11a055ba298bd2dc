/*
 * wg_cache.h — values of the overworld generator shared between chunks.
 *
 * Corner columns. The noise stage (noise_chunk.c) evaluates final_density's
 * interpolated slots at the corners of 4×8×4-block cells: 5×5 corner columns
 * of 49 levels per chunk, the costly part of generation (about 100 octaves
 * of ImprovedNoise per corner). A chunk's border columns are also its
 * neighbours', and the surface scans of trees and of the spawn search
 * (wg_column_height_from) read the same corners again. The cache keeps
 * recently computed corner columns, so a chunk whose neighbours were made
 * recently computes 16 columns instead of 25.
 *
 * Small values. A second table holds pairs of ints that are pure functions
 * of (seed, kind, x, z): the preliminary surface level of a quart column
 * (NoiseChunk.preliminarySurfaceLevel, asked for by the aquifers, the
 * surface stage, trees and the spawn search of several chunks) and the ore
 * features' origin-chunk biomes (each chunk's are read by its 8 neighbours).
 *
 * Invariants:
 *  1. Transparent: every cached value is a pure function of its key (at a
 *     corner, x and z are multiples of 4, so flat_cache never snaps and no
 *     per-chunk state enters), so a value read from a cache is the value
 *     that would have been computed: generation is bit-identical whether an
 *     entry is found or not (tests/worldgen/digest.test.js).
 *  2. Bounded: fixed tables in static storage (WG_CORNER_CACHE_ENTRIES
 *     columns of ~2 KB, about 4 MB, and WG_MEMO_ENTRIES pairs), touched
 *     only as used, direct-mapped by a hash of the key: a new entry replaces
 *     whatever held its slot. Nothing is allocated or freed.
 *  3. Thread-safe: each slot is guarded by one of WG_CACHE_LOCKS mutexes,
 *     held only to copy values in or out, never while computing. Keys hold
 *     the seed, so worlds of different seeds in one process (unit tests)
 *     never read each other's values.
 */
#ifndef MC_WG_CACHE_H
#define MC_WG_CACHE_H

#include <stdint.h>

#include "world/density.h"

#define WG_CELLS_Y              (WG_HEIGHT / WG_CELL_HEIGHT)
#define WG_CORNER_LEVELS        (WG_CELLS_Y + 1) /* 49: corner levels of a column */
#define WG_CORNER_ALL           ((1ULL << WG_CORNER_LEVELS) - 1)
#define WG_CORNER_CACHE_ENTRIES 2048
#define WG_MEMO_ENTRIES         8192
#define WG_CACHE_LOCKS          64

/* The values of one corner column: [s][j] is final slot s (wg_interp_args[wg_final_slots[s]])
 * at level j, y = WG_MIN_Y + j * WG_CELL_HEIGHT. */
typedef double wg_corner_levels[WG_FINAL_SLOT_COUNT][WG_CORNER_LEVELS];

/*
 * Fills out[.][j] for every level j whose bit is set in `want`, for the corner
 * column at block (x, z) (multiples of WG_CELL_WIDTH): from the cache where
 * present, computing (and caching) the others. Levels not wanted are left as
 * they are.
 */
void wg_corner_column(const wg_state *st, int32_t x, int32_t z, uint64_t want,
                      wg_corner_levels out);

/* Kinds of small values. */
enum { WG_MEMO_PRELIM = 1, WG_MEMO_ORE_BIOMES = 2 };

/* The pair stored for (kind, x, z) of st's seed into v: 1, or 0 when not cached. */
int wg_memo_get(const wg_state *st, int kind, int32_t x, int32_t z, int32_t v[2]);
void wg_memo_put(const wg_state *st, int kind, int32_t x, int32_t z, const int32_t v[2]);

/* wg_preliminary_surface (noise_chunk.h) of the quart column holding (x, z), cached. */
int wg_prelim_cached(const wg_state *st, int32_t x, int32_t z);

#endif
