/*
 * overworld.h — the `normal` generator: vanilla 1.20.1's overworld.
 *
 * Stages, in vanilla's order, for one chunk:
 *   biomes   multi-noise biome per quart (biome_source.h)
 *   noise    terrain shape, noise caves, aquifers (noise_chunk.h, aquifer.h)
 *   surface  surface rules, deepslate and bedrock (surface.h)
 *   carvers  vanilla's caves and canyons (carver.h)
 *   features ores and blobs (ores.h), then trees, plants, snow and ice
 *            (features.h), each placed from the chunk it starts in and
 *            written into every chunk it reaches, so borders match
 *
 * Invariants:
 *  1. overworld_generate is a pure function of (seed, chunk x, z): the same
 *     bytes on every run; no shared mutable state (worker-thread safe).
 *  2. The world state (seeded noises) is built once and only read after.
 */
#ifndef MC_OVERWORLD_H
#define MC_OVERWORLD_H

#include <stdint.h>

#include "world/chunk.h"
#include "world/density.h"

/* Generates chunk c (chunk_init'ed with its x, z). 0, or -1 when out of memory. */
int overworld_generate(const wg_state *st, chunk *c);

/* Stages whose CPU time overworld_generate_timed adds up (nanoseconds). */
enum overworld_stage {
    OW_BIOMES,
    OW_NOISE,
    OW_SURFACE,
    OW_CARVERS,
    OW_ORES,
    OW_FEATURES,
    OW_STAGES
};
/* The same, adding each stage's thread CPU time to ns[OW_STAGES]. */
int overworld_generate_timed(const wg_state *st, chunk *c, int64_t ns[OW_STAGES]);

/* Surface height at (x, z) before carvers and features (spawn search): the top solid block. */
int overworld_surface_y(const wg_state *st, int32_t x, int32_t z);

/* The biome at block (x, y, z) as vanilla's BiomeManager picks it (fuzzy zoom). */
int overworld_biome_at(const wg_state *st, int32_t x, int32_t y, int32_t z);

#endif
