/*
 * redstone_world.h — game/redstone.c's rules on game.world (issue 21):
 * block changes through play_set_block, neighbour updates and block ticks
 * through world/block_ticks.c (so they are bounded by
 * max-chained-neighbor-updates and the per-tick budgets), Block Action and
 * level events to the chunk's viewers, drops as items, and the players'
 * right-clicks and placements (game/interact.c).
 *
 * Invariant: game thread only.
 */
#ifndef MC_REDSTONE_WORLD_H
#define MC_REDSTONE_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"
#include "game/redstone.h"

const struct rs_world *redstone_world(void);
/* Right-click on a block: true when a redstone component used it. */
bool redstone_use(int32_t x, int32_t y, int32_t z, uint16_t state);
/* The state p places for `state` at (x, y, z) clicked on face (0..5); 0:
 * it cannot stand there. Other blocks come back unchanged. */
uint16_t redstone_place_state(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state,
                              int face);

/* The contents of the container at (x, y, z) changed (vanilla
 * updateNeighbourForOutputSignal): comparators reading it re-check. */
void redstone_container_changed(int32_t x, int32_t y, int32_t z);
/* Each tick: pressure plates under players are pressed (vanilla entityInside). */
void redstone_entities_tick(void);
/* A mob moved to feet (x, y, z) with half width half: the plates under it. */
void redstone_entity_at(double x, double y, double z, double half);
/* Frees the comparator outputs (server shutdown). */
void redstone_free(void);

#endif
