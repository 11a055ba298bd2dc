/*
 * surface.h — the surface stage: vanilla's overworld surface rules applied
 * to the stone left by the noise stage (grass and dirt, sand and sandstone,
 * badlands' terracotta bands, snow and ice on peaks, podzol and coarse dirt,
 * mud, mycelium, gravel and clay-less ocean floors, swamp puddles), then the
 * deepslate transition between y 0 and 8 and the bedrock floor, each with
 * vanilla's per-block random gradient.
 *
 * The rules follow the structure of vanilla's SurfaceRuleData.overworld()
 * (conditions: stone depth above/below, water height, surface depth and
 * secondary depth, noise thresholds, steepness, y anchors) written as C,
 * not read from data; the random gradients, the clay bands and the surface
 * depth use vanilla's random sources and noises.
 *
 * Invariants: a pure function of its inputs (thread-safe).
 */
#ifndef MC_SURFACE_H
#define MC_SURFACE_H

#include <stdint.h>

#include "world/density.h"

/* Biome (registry id) at block (x, y, z), vanilla's fuzzy "BiomeManager" lookup. */
typedef int (*surface_biome_fn)(void *ctx, int32_t x, int32_t y, int32_t z);

struct surface_input {
    const wg_state *st;
    int32_t x0, z0;    /* the chunk's corner */
    uint16_t *cols;    /* block states, index (z * 16 + x) * WG_HEIGHT + (y - WG_MIN_Y) */
    const int *prelim; /* preliminary surface level per column [z * 16 + x] */
    surface_biome_fn biome;
    void *biome_ctx;
};

void surface_build(const struct surface_input *in);

/* The 192 clay bands of badlands (vanilla's generateBands), for a world. */
void surface_clay_bands(const wg_state *st, uint16_t bands[192]);

#endif
