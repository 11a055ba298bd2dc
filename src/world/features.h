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
 * features_draw_tree draws one of the same trees into the live world
 * through callbacks (game/growth.c: a sapling growing), with the same
 * rule for what a tree may overwrite (air, plants, snow, saplings; a log
 * may replace leaves).
 *
 * Invariants: pure function of (seed, chunk, the chunk's blocks); thread-safe.
 */
#ifndef MC_FEATURES_H
#define MC_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

#include "world/density.h"
#include "world/surface.h"

/* The trees a sapling grows into (game/growth.c picks one per sapling kind). */
enum features_tree {
    FEATURES_TREE_OAK,
    FEATURES_TREE_FANCY_OAK,
    FEATURES_TREE_BIRCH,
    FEATURES_TREE_SPRUCE,
    FEATURES_TREE_JUNGLE,
    FEATURES_TREE_MEGA_JUNGLE, /* 2x2 trunk at x..x+1, z..z+1 */
    FEATURES_TREE_ACACIA,
    FEATURES_TREE_DARK_OAK, /* 2x2 trunk at x..x+1, z..z+1 */
    FEATURES_TREE_CHERRY,
};

/* The world a tree is drawn into: get is false where the block is not
 * loaded (nothing is drawn there); set gets each block the tree puts,
 * leaves as the generator's (persistent, distance 1), log true for logs. */
struct features_world {
    void *ctx;
    bool (*get)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *state);
    void (*set)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t state, bool log);
};

/* Draws the tree of `kind` whose trunk starts at (x, ground_y + 1, z), its
 * shape from the hash h as in generation. */
void features_draw_tree(const struct features_world *w, enum features_tree kind, int32_t x,
                        int32_t ground_y, int32_t z, uint64_t h);

void features_place(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols,
                    surface_biome_fn biome, void *biome_ctx);

#endif
