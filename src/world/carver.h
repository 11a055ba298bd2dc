/*
 * carver.h — vanilla's carvers: the old-style caves (tunnels and rooms) and
 * canyons (ravines) of WorldCarver / CaveWorldCarver / CanyonWorldCarver,
 * with 1.20.1's configured carvers (data/worldgen_carvers.c).
 *
 * As vanilla: every chunk within 8 chunks may start each carver (seeded by
 * setLargeFeatureSeed over java.util.Random, probability from the data);
 * tunnels wander with vanilla's yaw/pitch walk, its sine table and branches,
 * and carve ellipsoids through replaceable blocks into what the aquifer says
 * (air, water, lava below the lava level; aquifer barriers stay stone). A
 * chunk carves only its own blocks, so tunnels cross borders seamlessly.
 *
 * Invariants: pure function of (seed, chunk, its blocks); thread-safe.
 */
#ifndef MC_CARVER_H
#define MC_CARVER_H

#include <stdint.h>

#include "world/aquifer.h"
#include "world/density.h"

/* Carves the chunk at (x0, z0): cols as in overworld.c, aquifer the chunk's. */
void carvers_apply(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols, wg_aquifer *aq);

#endif
