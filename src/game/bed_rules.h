/*
 * bed_rules.h — the pure rules of beds (issue 21), as vanilla 1.20.1's
 * BedBlock, Player / ServerPlayer sleeping, SleepStatus and ServerLevel's
 * night skip: no globals, no I/O, so the unit tests link them
 * (tests/unit/test_beds.c). game/beds.c applies them to the world.
 *
 *   night window   Level.isDay() is skyDarken < 4 (Level.updateSkyBrightness
 *                  from the time of day, rain and thunder); a bed is usable
 *                  when it is not day: clear sky 12542..23459, rain
 *                  12010..23991, thunder all day.
 *   footprint      the foot where the item goes, facing the player's
 *                  horizontal direction (Direction.fromYRot); the head one
 *                  block further that way.
 *   percentage     SleepStatus.sleepersNeeded = max(1, ceil(active × pct /
 *                  100)) with float arithmetic as vanilla; the night passes
 *                  when that many sleep and as many have slept 100 ticks.
 *   morning        ServerLevel.tick: day time + 24000 - (day time + 24000)
 *                  % 24000, the next multiple of 24000.
 *   stand up       BedBlock.findStandUpPosition with DismountHelper's
 *                  floor and collision tests over the cells a callback
 *                  describes (beds 9/16 high, a solid block a full cube).
 *
 * Directions are vanilla's 2D data values: 0 south, 1 west, 2 north, 3 east.
 */
#ifndef MC_BED_RULES_H
#define MC_BED_RULES_H

#include <stdbool.h>
#include <stdint.h>

#define BED_DEEP_SLEEP_TICKS 100 /* Player.isSleepingLongEnough */
#define BED_HEIGHT           0.5625

enum { BED_SOUTH, BED_WEST, BED_NORTH, BED_EAST };

extern const int bed_dir_dx[4], bed_dir_dz[4];

/* Direction.fromYRot: the horizontal direction a yaw looks toward. */
int bed_dir_of_yaw(float yaw);
/* Level.isDay for the day time and weather (no bed use then). */
bool bed_is_day(int64_t day_time, bool rain, bool thunder);
/* The head's position for a foot at (x, z) facing `dir`. */
void bed_head_of(int32_t x, int32_t z, int dir, int32_t *hx, int32_t *hz);
/* SleepStatus.sleepersNeeded. */
int bed_sleepers_needed(int active, int percentage);
/* The morning after day_time (ServerLevel.tick with doDaylightCycle). */
int64_t bed_next_morning(int64_t day_time);

/* What the stand-up search needs of one block. */
struct bed_cell {
    double top;     /* collision height in the cell: 0 none, 1 full, BED_HEIGHT a bed */
    bool dangerous; /* EntityType.isBlockDangerous: fire, lava, magma, cactus, ... */
    bool bed;       /* a bed block (the bunk-bed test) */
};
typedef struct bed_cell (*bed_cell_fn)(void *ctx, int32_t x, int32_t y, int32_t z);

/* BedBlock.findStandUpPosition for the bed (head) at (x, y, z) facing
 * `dir`, the player's yaw `yaw`: true and the feet position in out[3], or
 * false when no cell around the bed fits a player. */
bool bed_stand_up(bed_cell_fn cell, void *ctx, int32_t x, int32_t y, int32_t z, int dir, float yaw,
                  double out[3]);
/* The yaw that looks from (x, z) toward the bottom centre of block (bx, bz)
 * (PlayerList.respawn, LivingEntity.stopSleeping). */
float bed_yaw_toward(double x, double z, int32_t bx, int32_t bz);

#endif
