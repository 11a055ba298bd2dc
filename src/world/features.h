/*
 * features.h — vegetation and the top layer: trees of every overworld kind
 * (oak and large oak, birch, spruce and pine, jungle, acacia, dark oak,
 * cherry, mangrove, swamp oak, huge mushrooms), grass, ferns and each
 * biome's flowers, sugar cane by water, cacti and dead bushes, pumpkins and
 * melons, kelp, seagrass and lily pads, and vanilla's freeze_top_layer (ice
 * on cold water, snow on cold ground).
 *
 * Not vanilla's feature code: shapes and densities follow vanilla's kinds
 * and orders of magnitude per biome, placed from a hash of the trunk
 * column, so a tree whose crown crosses a chunk border is drawn the same
 * from both sides (its ground is found from the noise where it stands in a
 * neighbouring chunk).
 *
 * Invariants: pure function of (seed, chunk, the chunk's blocks); thread-safe.
 */
#ifndef MC_FEATURES_H
#define MC_FEATURES_H

#include <stdint.h>

#include "world/density.h"
#include "world/surface.h"

void features_place(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols,
                    surface_biome_fn biome, void *biome_ctx);

#endif
