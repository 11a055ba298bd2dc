/*
 * growth.h — growth and decay, as vanilla 1.20.1's blocks (issue 21):
 *
 *  - crops (CropBlock, BeetrootBlock): wheat, carrots, potatoes (ages
 *    0..7) and beetroots (0..3) grow on random ticks with raw light >= 9
 *    at the crop (getRawBrightness(pos, 0): sky light counts at night)
 *    and CropBlock's chance, 1 in floor(25 / speed) + 1, where speed is 1
 *    plus the farmland under and around it (1 each, 3 when moist; a
 *    quarter for the eight around) halved when the same crop grows in rows
 *    on both axes or on a diagonal; beetroots skip 1 in 3 of their ticks.
 *    A crop without farmland below breaks (its drops fall).
 *  - farmland (FarmBlock): moist (7) with water within 4 blocks
 *    horizontally (its level or one up) or rain falling on the block
 *    above, else dries a step a random tick, and turns to dirt dry with no
 *    crop on it; a player (or, with mobGriefing, a mob) landing on it
 *    tramples it to dirt with chance fall distance - 0.5.
 *  - saplings (SaplingBlock, the tree growers): on dirt-like blocks or
 *    farmland; a random tick with light >= 9 above (the sky darkened by
 *    time and weather) advances 1 in 7: stage 0 -> 1 -> the tree the world
 *    generator draws for the kind (world/features.h; oak: 1 in 10 a fancy
 *    oak; jungle and dark oak: the 2x2 tree from four saplings in a square,
 *    a lone dark oak sapling does not grow) when its trunk and the ring
 *    around it have room; bone meal: 45 % an advance.
 *  - sugar cane and cactus: age 0..15 on random ticks while under 3 tall
 *    with air above, a new block at 15; they break (with drops) on the
 *    tick after a neighbour change leaves them unsupported: cane needs
 *    cane, or dirt or sand with water beside that ground; cactus needs
 *    cactus or sand below, nothing solid or lava beside, no fluid above.
 *  - grass and mycelium (SpreadingSnowyDirtBlock): turn to dirt under an
 *    opaque block or a fluid source; with light >= 9 above, try 4 dirt
 *    blocks in x, z +-1, y -3..+1 that have light through their top and no
 *    water above.
 *  - leaves (LeavesBlock): distance 1..7 from the nearest log through
 *    leaves, updated a tick after a neighbour changes; leaves placed by a
 *    player are persistent; others 7 away decay on a random tick with
 *    their loot.
 *  - ice melts to water at block light >= 11, snow layers vanish at > 11.
 *
 * Bone meal on a crop adds 2..5 ages (capped); on a sapling it is used up
 * even when it fails; the happy-villager particles (level event 1505).
 * Light: game/growth_rules.h (the walk that stands in for light on the
 * game thread). Departures: docs/design.md, "World simulation".
 */
#ifndef MC_GROWTH_H
#define MC_GROWTH_H

#include <stdbool.h>
#include <stdint.h>

/* True for the states growth random-ticks. */
bool growth_random_ticking(uint16_t state);
/* A random tick on such a block. */
void growth_random_tick(int32_t x, int32_t y, int32_t z, uint16_t state);
/* The block at (x, y, z) was placed or a neighbour changed (updateShape). */
void growth_update(int32_t x, int32_t y, int32_t z, uint16_t state);
/* True for the states whose scheduled block ticks growth_tick runs. */
bool growth_scheduled(uint16_t state);
/* A scheduled block tick on such a block (cane, cactus: survival; leaves: distance). */
void growth_tick(int32_t x, int32_t y, int32_t z, uint16_t state);
/* The state a player places at (x, y, z) for the item's block state, or 0
 * if it cannot stand there (saplings, cane, cactus; leaves: persistent). */
uint16_t growth_place_state(int32_t x, int32_t y, int32_t z, uint16_t state);
/* Something landed on the block at (x, y, z) after falling fall_distance:
 * farmland may be trampled (player: a player, else a mob). */
void growth_fall_on(int32_t x, int32_t y, int32_t z, float fall_distance, bool player);
/* Bone meal used on the block at (x, y, z): true if it was a target (use one up). */
bool growth_bone_meal(int32_t x, int32_t y, int32_t z);
/* The crop a seed item plants (wheat_seeds, carrot, potato, beetroot_seeds), or 0. */
uint16_t growth_seed_crop(int item);

#endif
