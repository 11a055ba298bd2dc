/*
 * ores.h — ore veins and stone blobs (vanilla's underground_ores step):
 * coal, iron, copper, gold, redstone, lapis, diamond, emerald, and the dirt,
 * gravel, granite, diorite, andesite and tuff blobs, with vanilla's counts,
 * height distributions, vein sizes and air-exposure discard chances
 * (data/worldgen_ores.c, from the placed and configured feature JSON).
 *
 * Each chunk places the veins that start in it and in its eight neighbours
 * and keeps the blocks that fall inside it, so a vein crossing a border is
 * drawn the same from both sides. Randomness follows vanilla's decoration
 * seeding (WorldgenRandom.setDecorationSeed / setFeatureSeed over
 * Xoroshiro) and OreFeature's sequence of draws; the air-exposure discard is
 * a hash of the block position instead of a draw, so it does not depend on
 * blocks of a neighbouring chunk.
 *
 * Invariants: pure function of (seed, chunk, the chunk's blocks); thread-safe.
 */
#ifndef MC_ORES_H
#define MC_ORES_H

#include <stdint.h>

#include "world/density.h"
#include "world/surface.h"

/* Places ores into cols (the chunk at x0, z0, surface already built). */
void ores_place(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols, surface_biome_fn biome,
                void *biome_ctx);

/* Which ore features the chunk at (x0, z0) allows as an origin (its biome rule), per wg_ores. */
void ores_allowed(const wg_state *st, int32_t x0, int32_t z0, uint8_t *allowed);

/* Vanilla's WorldgenRandom over Xoroshiro: setDecorationSeed, then setFeatureSeed. */
int64_t wg_decoration_seed(wg_xoro *r, int64_t world_seed, int32_t x, int32_t z);
void wg_feature_seed(wg_xoro *r, int64_t decoration_seed, int index, int step);

#endif
