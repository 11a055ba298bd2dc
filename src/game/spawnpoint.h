/*
 * spawnpoint.h — players' own respawn points (/spawnpoint), as vanilla's
 * ServerPlayer respawn position with forced = true, and beds' (issue 21,
 * game/beds.h; forced = false): on respawn at a bed the player stands up
 * beside it (BedBlock.findStandUpPosition) facing it; at another block of
 * a forced point it appears at the block's centre, 0.1 above it, facing
 * the angle given, if the block and the one above it are free (not solid,
 * not a liquid); otherwise (the bed gone or obstructed) at the world
 * spawn, told "You have no home bed or charged respawn anchor, or it was
 * obstructed" (Game Event 0, block.minecraft.spawn.not_valid), and the
 * point is forgotten, as vanilla forgets it.
 *
 * Saved in playerdata/<uuid>.dat with vanilla's tags (SpawnX, SpawnY,
 * SpawnZ, SpawnAngle, SpawnForced, SpawnDimension; game/playerdata.c): read
 * at join, written with the player, and dropped from memory when the player
 * leaves (so memory holds the points of online players; without a world
 * folder they stay for the run). At most SPAWNPOINT_MAX in memory, the
 * oldest set dropped first. A bed's point whose chunk no player holds
 * cannot be checked (no chunk loads on the game thread): the player
 * appears on the bed.
 */
#ifndef MC_SPAWNPOINT_H
#define MC_SPAWNPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/wire.h"

#define SPAWNPOINT_MAX 4096

struct conn;

/* /spawnpoint (forced) or a point read from the player's file. */
void spawnpoint_set(const mc_uuid *uuid, int32_t x, int32_t y, int32_t z, float angle, bool forced);
/* The player's point, if it has one (for its file). */
bool spawnpoint_get(const mc_uuid *uuid, int32_t *x, int32_t *y, int32_t *z, float *angle,
                    bool *forced);
/* The player left and its file has the point. */
void spawnpoint_forget(const mc_uuid *uuid);
/* The respawn flow (game/entities.c), after the player was put at the
 * world spawn: moves it to its own point, or tells it the point is gone. */
void spawnpoint_respawn(struct conn *c);

#endif
