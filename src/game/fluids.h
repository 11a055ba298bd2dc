/*
 * fluids.h — water and lava as vanilla 1.20.1's FlowingFluid, WaterFluid,
 * LavaFluid and LiquidBlock (overworld values), written against a small
 * block-access interface (struct fl_world) so the rules run the same on the
 * world (game/worldsim.c) and on an in-memory grid (tests/unit/test_fluids.c).
 *
 * Fluid states live in the water and lava blocks' `level` property, as
 * vanilla's legacy level: 0 a source (amount 8), 1..7 flowing with amount
 * 8 - level, 8..15 falling (amount 8). Rules (see fluids.c for the detail):
 *
 *   fluid  tick delay  drop-off  slope find  source conversion
 *   water  5           1         4           waterSourceConversion (true)
 *   lava   30 (or 120  2         2           lavaSourceConversion (false)
 *          3 in 4 when rising)
 *
 * A tick recomputes a flowing cell from its neighbours (getNewLiquid: the
 * largest neighbouring amount minus the drop-off; falling when the same
 * fluid is above; a source between two sources on a solid or source
 * block), then spreads: down first, then sideways toward the nearest way
 * down within the slope distance (all equal ways when there is none).
 * Lava next to water (above or beside) turns to obsidian (a source) or
 * cobblestone; lava flowing down into water makes stone (level event 1501,
 * the fizz, for each).
 *
 * Invariants:
 *  1. Every change goes through fl_world.set (the world's block-change
 *     path, so neighbours are updated and viewers told); ticks are
 *     scheduled through fl_world.schedule, never run inline.
 *  2. An unloaded position (get fails) is a wall: nothing flows into,
 *     out of or through it.
 */
#ifndef MC_FLUIDS_H
#define MC_FLUIDS_H

#include <stdbool.h>
#include <stdint.h>

enum fl_type { FL_NONE, FL_WATER, FL_LAVA };

struct fl_state {
    uint8_t type;   /* enum fl_type */
    uint8_t amount; /* 1..8 (8 for a source and a falling cell); 0 when none */
    bool source, falling;
};

struct fl_world {
    void *ctx;
    /* Block at a position; false when it is not loaded (or outside the world). */
    bool (*get)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *state);
    void (*set)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t state);
    /* A fluid tick (enum bt_fluid type) delay ticks from now. */
    void (*schedule)(void *ctx, int32_t x, int32_t y, int32_t z, int type, int delay);
    /* A non-air block the fluid replaces (water: its drops; may be NULL). */
    void (*destroyed)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t state);
    /* Level event 1501 at a position (may be NULL). */
    void (*fizz)(void *ctx, int32_t x, int32_t y, int32_t z);
    uint32_t (*rand)(void *ctx);
    bool water_conversion, lava_conversion;
};

/* The fluid in a block state (only water and lava blocks hold one). */
struct fl_state fl_of(uint16_t state);
/* The water or lava block state for a fluid state (air for none). */
uint16_t fl_block(struct fl_state f);
/* The fluid tick type (enum bt_fluid) of a fluid state. */
int fl_tick_type(struct fl_state f);
/* vanilla Fluid.getTickDelay. */
int fl_tick_delay(int type);
/* True if a block has a collision box (vanilla blocksMotion, approximated
 * by minecraft-data's bounding box). */
bool fl_solid(uint16_t state);
/* vanilla FlowingFluid.canHoldFluid: no collision box and not a door,
 * sign, ladder, sugar cane, bubble column, portal or water plant. */
bool fl_can_hold(uint16_t state);

/* A scheduled fluid tick of `type` (enum bt_fluid) at a position
 * (ServerLevel.tickFluid: only if the fluid there is still that type). */
void fluids_tick(const struct fl_world *w, int32_t x, int32_t y, int32_t z, int type);
/* The block at a position was placed or a neighbour changed (LiquidBlock
 * onPlace / neighborChanged): lava meets water, or a tick is scheduled. */
void fluids_update(const struct fl_world *w, int32_t x, int32_t y, int32_t z);

#endif
