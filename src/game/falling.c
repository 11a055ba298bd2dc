/*
 * falling.c — see falling.h. Block ticks come from world/block_ticks.c
 * (through game/worldsim.c); the entity's physics and tracking are
 * game/items.c's (items_spawn_falling); this file decides when a block
 * falls and what happens where it lands.
 */
#include "game/falling.h"

#include <math.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/fluids.h"
#include "game/game.h"
#include "game/items.h"
#include "game/play.h"
#include "world/block_ticks.h"

#define FALL_DELAY      2   /* FallingBlock.getDelayAfterPlace */
#define AIR_TIME_MAX    600 /* FallingBlockEntity.tick: dropped after this long */
#define OUT_OF_WORLD_AT 100

static bool is_powder(uint16_t st)
{
    return st >= BLOCK_WHITE_CONCRETE_POWDER && st <= BLOCK_BLACK_CONCRETE_POWDER;
}

bool falling_is(uint16_t st)
{
    return st == BLOCK_SAND || st == BLOCK_RED_SAND || st == BLOCK_GRAVEL || is_powder(st) ||
           (st >= BLOCK_ANVIL && st <= BLOCK_DAMAGED_ANVIL + 3) || st == BLOCK_DRAGON_EGG;
}

static bool get(int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return false;
    return world_get_block(&game.world, x, y, z, st) == 0;
}

/* Block.canBeReplaced for the plants and layers a falling block or fluid may take over. */
static bool replaceable(uint16_t st)
{
    int b = block_of_state[st];
    return block_is_air(st) || fl_of(st).type != FL_NONE || st == BLOCK_GRASS ||
           b == block_of_state[BLOCK_TALL_GRASS] || st == BLOCK_FERN || st == BLOCK_DEAD_BUSH ||
           st == BLOCK_SEAGRASS || b == block_of_state[BLOCK_FIRE] || st == BLOCK_SOUL_FIRE ||
           st == BLOCK_SNOW;
}

/* FallingBlock.isFree: air, fire, a fluid or a replaceable block. */
static bool free_cell(uint16_t st)
{
    return replaceable(st);
}

/* ConcretePowderBlock.touchesLiquid: water on any side (faces are not
 * modelled: a water neighbour always counts). */
static bool touches_water(int32_t x, int32_t y, int32_t z)
{
    static const int8_t d[6][3] = {{0, -1, 0}, {0, 1, 0},  {0, 0, -1},
                                   {0, 0, 1},  {-1, 0, 0}, {1, 0, 0}};
    for (int k = 0; k < 6; k++) {
        uint16_t st;
        if (get(x + d[k][0], y + d[k][1], z + d[k][2], &st) && fl_of(st).type == FL_WATER)
            return true;
    }
    return false;
}

/* The concrete a powder hardens into (the colours are in the same order). */
static uint16_t concrete_of(uint16_t powder)
{
    return (uint16_t)(BLOCK_WHITE_CONCRETE + (powder - BLOCK_WHITE_CONCRETE_POWDER));
}

void falling_update(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_powder(st) && touches_water(x, y, z)) {
        play_set_block(x, y, z, concrete_of(st));
        return;
    }
    block_ticks_schedule(&game.world, BT_BLOCK, x, y, z, block_of_state[st], FALL_DELAY, 0);
}

void falling_tick(int32_t x, int32_t y, int32_t z)
{
    uint16_t st, below;
    if (!get(x, y, z, &st) || !falling_is(st)) return;
    if (y <= CHUNK_MIN_Y || !get(x, y - 1, z, &below) || !free_cell(below)) return;
    /* FallingBlockEntity.fall: the cell keeps the block's fluid (none here). */
    if (items_spawn_falling(x + 0.5, y, z + 0.5, st) < 0) return; /* the cap: it stays */
    play_set_block(x, y, z, BLOCK_AIR);
}

/* The item a block drops as (Block.asItem): the item that places it. */
static int item_of(uint16_t st)
{
    int b = block_of_state[st];
    for (int i = 1; i < ITEM_COUNT; i++)
        if (item_info[i].block_state && block_of_state[item_info[i].block_state] == b) return i;
    return 0;
}

static void drop(uint16_t st, double x, double y, double z)
{
    int item = item_of(st);
    if (item > 0) items_spawn(x, y, z, 0, 0, 0, item, 1, 10);
}

bool falling_after_move(uint16_t st, double x, double y, double z, bool on_ground, int32_t age)
{
    int32_t bx = (int32_t)floor(x), by = (int32_t)floor(y), bz = (int32_t)floor(z);
    uint16_t here = BLOCK_AIR, below = BLOCK_AIR;
    bool loaded = get(bx, by, bz, &here);
    bool powder = is_powder(st);
    bool in_water = powder && loaded && fl_of(here).type == FL_WATER;
    if (!on_ground && !in_water) {
        if ((age > OUT_OF_WORLD_AT && (by < CHUNK_MIN_Y || by >= CHUNK_MIN_Y + CHUNK_HEIGHT)) ||
            age > AIR_TIME_MAX) {
            drop(st, x, y, z);
            return true;
        }
        return false;
    }
    if (!loaded) return false; /* resting at the edge of the loaded world: wait */
    bool below_free = get(bx, by - 1, bz, &below) && free_cell(below) && !(powder && in_water);
    if (replaceable(here) && !below_free) {
        uint16_t place = st;
        /* ConcretePowderBlock.onLand: water there or beside hardens it. */
        if (powder && (fl_of(here).type == FL_WATER || touches_water(bx, by, bz)))
            place = concrete_of(st);
        if (play_set_block(bx, by, bz, place) == 0) return true;
    }
    drop(st, x, y, z);
    return true;
}
