/*
 * spawnpoint.h — players' own respawn points (/spawnpoint), as vanilla's
 * ServerPlayer respawn position with forced = true: on respawn the player
 * appears at the block's centre, 0.1 above it, facing the angle given, if
 * the block and the one above it are free (not solid, not a liquid);
 * otherwise at the world spawn, told "You have no home bed or charged
 * respawn anchor, or it was obstructed" (Game Event 0), and the point is
 * forgotten, as vanilla forgets it.
 *
 * Kept in memory by UUID for this run (at most SPAWNPOINT_MAX players; the
 * oldest set is dropped first). Not yet in playerdata/<uuid>.dat (vanilla's
 * SpawnX/Y/Z/Angle/Dimension/Forced tags): docs/commands.md says so.
 */
#ifndef MC_SPAWNPOINT_H
#define MC_SPAWNPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/wire.h"

#define SPAWNPOINT_MAX 4096

struct conn;

void spawnpoint_set(const mc_uuid *uuid, int32_t x, int32_t y, int32_t z, float angle);
/* The respawn flow (game/entities.c), after the player was put at the
 * world spawn: moves it to its own point, or tells it the point is gone. */
void spawnpoint_respawn(struct conn *c);

#endif
