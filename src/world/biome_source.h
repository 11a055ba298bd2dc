/*
 * biome_source.h — vanilla's multi-noise biome source for the overworld.
 *
 * A biome is chosen per quart (4×4×4 blocks) from six climate values of the
 * noise router (temperature, vegetation, continents, erosion, depth, ridges)
 * sampled at the quart's lowest corner, quantized as vanilla quantizes them
 * ((long)(value * 10000F)), and looked up in vanilla's parameter list: the
 * entry at the smallest squared distance, searched with vanilla's R-tree
 * (data/worldgen_biomes.c, built by tools/gen_worldgen.js) so that ties
 * resolve as in vanilla. Vanilla starts each search from the previous result
 * of the same thread (which wins ties); `last` carries it explicitly, so a
 * chunk's biomes depend only on the chunk (callers start each chunk at -1).
 *
 * Invariants: pure functions of (state, position, last); no shared state.
 */
#ifndef MC_BIOME_SOURCE_H
#define MC_BIOME_SOURCE_H

#include <stdint.h>

#include "world/density.h"

/* The quantized climate target at quart (qx, qy, qz); target[6] (offset) is 0. */
void wg_climate_at(wg_pt *p, int32_t qx, int32_t qy, int32_t qz, int64_t target[7]);

/* The biome id (registry id, data/biomes.h) for a target; *last: a node index or -1. */
int wg_biome_lookup(const int64_t target[7], int *last);

/* Both at once. */
int wg_biome_at(wg_pt *p, int32_t qx, int32_t qy, int32_t qz, int *last);

#endif
