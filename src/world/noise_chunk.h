/*
 * noise_chunk.h — vanilla's noise stage for one chunk (NoiseChunk + fillFromNoise).
 *
 * The terrain's shape is final_density: solid where it is above zero. It is
 * computed at the corners of 4×8×4-block cells (5×49×5 corners per chunk)
 * for the router's "interpolated" parts, interpolated per block in vanilla's
 * order (y, then x, then z), and finished per block. Empty blocks take the
 * aquifer's fluid or air (aquifer.h).
 *
 * Speed, with the same blocks: corner columns come from the shared cache of
 * wg_cache.h (a chunk's border columns are its neighbours'), and a cell whose
 * corners decide every block's sign (all solid, or all empty: see
 * noise_chunk.c) is not interpolated block by block; an empty block's
 * density is computed only when the aquifer needs it.
 *
 * Invariants:
 *  1. Pure function of (state, chunk x, z); thread-safe (the only shared
 *     writes are the caches', which hold pure values).
 *  2. Columns are index (z * 16 + x) * WG_HEIGHT + (y - WG_MIN_Y).
 */
#ifndef MC_NOISE_CHUNK_H
#define MC_NOISE_CHUNK_H

#include <stdint.h>

#include "world/aquifer.h"
#include "world/wg_cache.h"
#include "world/density.h"

/* What a block of the noise stage is. */
enum wg_fill { WG_AIR = 0, WG_STONE, WG_WATER, WG_LAVA };

typedef struct wg_noise_chunk {
    int32_t x0, z0; /* block coordinates of the chunk's corner */
    /* final_density's interpolated slots at the cell corners: [cx][cz][slot][cy] */
    wg_corner_levels corner[5][5];
    /* final density of one 4x4 cell column's blocks; in culled cells +1 (solid: only the
     * sign is read) or NaN (empty, not computed yet) */
    double density[16][WG_HEIGHT];
    struct wg_aquifer aquifer;
} wg_noise_chunk;

/*
 * Fills out[256 * WG_HEIGHT] with enum wg_fill values for chunk (cx, cz).
 * nc is scratch space (large: keep it off the stack).
 */
void wg_fill_noise(const wg_state *st, wg_noise_chunk *nc, int32_t cx, int32_t cz, uint8_t *out);

/*
 * Height of the highest solid noise block + 1 in column (x, z) (vanilla's
 * OCEAN_FLOOR_WG height before surface rules and carvers); WG_MIN_Y if none.
 */
int wg_column_height(const wg_state *st, int32_t x, int32_t z);

/*
 * The same, scanning down from y_start (a guess above the surface, e.g. the
 * preliminary surface + 64) so only the cells near the surface are computed;
 * falls back to the full scan when y_start is already inside solid ground.
 */
int wg_column_height_from(const wg_state *st, int32_t x, int32_t z, int y_start);

/* NoiseChunk.preliminarySurfaceLevel: the quart column's first cell top (y) where
 * initial_density_without_jaggedness exceeds 25/64, scanning down; INT32_MAX if none. */
int wg_preliminary_surface(wg_pt *p, int32_t x, int32_t z);

#endif
