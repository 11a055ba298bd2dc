/*
 * aquifer.h — vanilla's NoiseBasedAquifer: which fluid fills an empty block
 * of the noise stage.
 *
 * Space is split into cells of 16×12×16 blocks, each with an aquifer centre
 * at a random spot (vanilla's positional random) and a fluid status: its
 * level and fluid, from the preliminary surface around it, the floodedness,
 * spread and lava noises and the deep dark region. An empty block takes the
 * status of its nearest centre; between centres of different levels a
 * barrier (the aquifer_barrier noise and a pressure term) turns it into
 * stone. Below y -54 every empty block is lava.
 *
 * One wg_aquifer serves one chunk (vanilla's per-chunk caches).
 * Invariants: pure function of (state, chunk, block, density).
 */
#ifndef MC_AQUIFER_H
#define MC_AQUIFER_H

#include <stdint.h>

#include "world/density.h"

#define WG_AQ_GRID_Y 35  /* cells from floorDiv(-64, 12) - 1 to floorDiv(320, 12) + 1 */
#define WG_AQ_PRELIM 512 /* cached preliminary surface levels (open addressing) */
#define WG_WAY_BELOW (-2032)

/* The fills (noise_chunk.h's enum wg_fill). */
enum { WG_AQ_AIR = 0, WG_AQ_STONE = 1, WG_AQ_WATER = 2, WG_AQ_LAVA = 3 };

struct wg_fluid_status {
    int level;
    uint8_t fluid; /* WG_AQ_WATER or WG_AQ_LAVA */
};

typedef struct wg_aquifer {
    const wg_state *st;
    wg_pt p; /* snapped to the chunk's noise grid, as vanilla's wrapped router */
    int32_t min_gx, min_gy, min_gz;
    /* cell (i, j, k) of the chunk's grid is index (i * WG_AQ_GRID_Y + j) * 3 + k: its
     * centre (vanilla's packed BlockPos, unpacked) and fluid status */
    int32_t centre[3 * WG_AQ_GRID_Y * 3][3];
    struct wg_fluid_status status[3 * WG_AQ_GRID_Y * 3];
    uint8_t have_status[3 * WG_AQ_GRID_Y * 3];
    int32_t prelim_key_x[WG_AQ_PRELIM], prelim_key_z[WG_AQ_PRELIM];
    int prelim_val[WG_AQ_PRELIM];
    uint8_t prelim_used[WG_AQ_PRELIM];
} wg_aquifer;

void wg_aquifer_init(wg_aquifer *a, const wg_state *st, int32_t cx, int32_t cz);

/* NoiseChunk.preliminarySurfaceLevel, cached. */
int wg_aquifer_prelim(wg_aquifer *a, int32_t x, int32_t z);

/* computeSubstance: WG_STONE where density > 0, else WG_AIR, WG_WATER, WG_LAVA, or
 * WG_STONE for a barrier between aquifers (the values of enum wg_fill). */
int wg_aquifer_substance(wg_aquifer *a, int32_t x, int32_t y, int32_t z, double density);

#endif
