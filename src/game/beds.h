/*
 * beds.h — beds (issue 21), as vanilla 1.20.1's BedBlock, BedItem,
 * ServerPlayer.startSleepInBed / stopSleepInBed, SleepStatus and
 * ServerLevel's night skip. The pure rules are game/bed_rules.h; this
 * module applies them to the world and the players.
 *
 *   placing    the foot where the item goes, facing the player, and the
 *              head one block further that way, only if that cell is
 *              replaceable and inside the world border (BedBlock.
 *              getStateForPlacement / setPlacedBy). No support is needed
 *              (vanilla beds float).
 *   breaking   either half takes the other with it, without drops; the
 *              half broken drops its bed item in survival (game/interact.c),
 *              so one bed item drops, none in creative.
 *   using      either half (the head is where one sleeps): refusals go to
 *              the action bar with vanilla's keys (block.minecraft.bed.
 *              occupied, too_far_away, obstructed, no_sleep, not_safe);
 *              the respawn point is set to the head, with "Respawn point
 *              set" in chat when it changed, before the time is checked,
 *              as vanilla does.
 *   sleeping   pose SLEEPING and the sleeping position (entity data 6 and
 *              14) for the sleeper and everyone tracking it, the bed
 *              occupied (both halves), the body at the head + (0.5,
 *              0.6875, 0.5).
 *   waking     Player Command "leave bed", being hurt, dying, leaving, the
 *              bed gone, the day coming: animation 2 (wake up) to the
 *              sleeper and its viewers, the bed free, the body at the
 *              stand-up position (bed_stand_up), a teleport.
 *   night      every tick while anyone sleeps: the counts of active (not
 *              spectating) and sleeping players; on a change the action bar
 *              "N/M players sleeping" or "Sleeping through this night" to
 *              everyone; when playersSleepingPercentage of them sleep and
 *              as many have slept 100 ticks, the time jumps to the next
 *              morning (doDaylightCycle), rain and thunder stop
 *              (doWeatherCycle) and everyone wakes.
 *   commands   a half set or removed by a command or an explosion takes
 *              the other with it through the neighbour update
 *              (beds_neighbor_changed, game/worldsim.c), without drops.
 *
 * Invariants:
 *  1. p->bed.sleeping is true only for a living player in the game whose
 *     bed (p->bed.x/y/z, the head) was a bed when it lay down; `sleepers`
 *     counts those players, so with nobody asleep beds_tick costs nothing.
 *  2. Every block change goes through play_set_block.
 *  3. Game thread only.
 */
#ifndef MC_BEDS_H
#define MC_BEDS_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"

/* True for the 16 coloured bed blocks. */
bool beds_is_bed(uint16_t state);
/* The foot's state for a bed item's default `state` at (x, y, z) placed by
 * p, or 0 when the head's cell is taken (blockuse_place_state). */
uint16_t beds_place_state(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state);
/* After the foot was placed: the head. */
void beds_placed(int32_t x, int32_t y, int32_t z, uint16_t state);
/* Before a bed half is removed: the other half goes too (no drops). */
void beds_removing(int32_t x, int32_t y, int32_t z, uint16_t state);
/* The block at (x, y, z) was told its neighbour (fx, fy, fz) changed
 * (BedBlock.updateShape): a bed half whose other half is no longer there
 * becomes air (no drops). True if (x, y, z) is a bed (no other rule). */
bool beds_neighbor_changed(int32_t x, int32_t y, int32_t z, int32_t fx, int32_t fy, int32_t fz);
/* Use Item On a bed (main hand): true if (x, y, z) is a bed (the click is
 * used up), whatever the answer. */
bool beds_use(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state);
/* Player Command "leave bed" (action 2). */
void beds_leave_bed(conn *c);
/* The player was hurt, died, or is leaving: it wakes if asleep. */
void beds_wake_now(conn *c);
/* Once per tick, before the clock: sleep counters, the sleep status and
 * the night skip. */
void beds_tick(void);
/* The respawn position for a point at the bed block `state` at (x, y, z)
 * with respawn angle `angle`: true, the feet position and the yaw facing
 * the bed; false when no cell around the bed fits. */
bool beds_respawn_at(int32_t x, int32_t y, int32_t z, uint16_t state, float angle, double out[3],
                     float *yaw);

#endif
