/*
 * worldsim.h — the world simulation's glue (issue 21): hooks
 * world/block_ticks.c's scheduled ticks, random ticks and neighbour
 * updates to the block rules (game/fluids.c, falling.c, growth.c,
 * redstone.c through redstone_world.c), and
 * runs them as a tick phase. A column is simulated while a player whose
 * window holds it has its centre within simulation-distance chunks
 * (Chebyshev, as vanilla's ticket levels), so at most the smaller of the
 * view and simulation distances.
 */
#ifndef MC_WORLDSIM_H
#define MC_WORLDSIM_H

#include <stdint.h>

#include "game/fluids.h"

/* Attaches the hooks to game.world (once, after the world is made). */
void worldsim_init(void);
/* Tick phase 6d: neighbour updates left over, due block and fluid ticks, random ticks. */
void worldsim_tick(void);
/* The fluid rules' view of game.world (block changes through play_set_block). */
const struct fl_world *worldsim_fluids(void);

#endif
