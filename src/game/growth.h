/*
 * growth.h — crops and farmland, as vanilla 1.20.1's CropBlock,
 * BeetrootBlock, FarmBlock and BoneMealItem: wheat, carrots, potatoes
 * (ages 0..7) and beetroots (0..3) grow on random ticks with CropBlock's
 * chance, 1 in floor(25 / speed) + 1, where speed is 1 plus the farmland
 * under and around it (1 each, 3 when moist; a quarter for the eight
 * around) halved when the same crop grows in rows on both axes or on a
 * diagonal; beetroots skip 1 in 3 of their ticks. Farmland becomes moist
 * (moisture 7) with water within 4 blocks horizontally (its level or one
 * up), dries one step a tick otherwise, and turns to dirt when dry with no
 * crop on it. A crop without farmland below breaks (its drops fall). Bone
 * meal on a crop adds 2..5 ages (capped), used up in survival, with the
 * happy-villager particles (level event 1505).
 *
 * Departures: the light level is not checked (mcserv keeps no light on the
 * game thread: crops grow in the dark); rain does not water farmland;
 * trampling is not done.
 */
#ifndef MC_GROWTH_H
#define MC_GROWTH_H

#include <stdbool.h>
#include <stdint.h>

/* True for the states growth random-ticks (crops, farmland). */
bool growth_random_ticking(uint16_t state);
/* A random tick on such a block. */
void growth_random_tick(int32_t x, int32_t y, int32_t z, uint16_t state);
/* A neighbour of a crop changed: it breaks without farmland below. */
void growth_update(int32_t x, int32_t y, int32_t z, uint16_t state);
/* Bone meal used on the block at (x, y, z): true if it grew (use one up). */
bool growth_bone_meal(int32_t x, int32_t y, int32_t z);
/* The crop a seed item plants (wheat_seeds, carrot, potato, beetroot_seeds), or 0. */
uint16_t growth_seed_crop(int item);

#endif
