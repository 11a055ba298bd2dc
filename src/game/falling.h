/*
 * falling.h — blocks that fall, as vanilla 1.20.1's FallingBlock,
 * ConcretePowderBlock and FallingBlockEntity: sand, red sand, gravel, the
 * sixteen concrete powders, the three anvils and the dragon egg.
 *
 * Placed, or a neighbour changed: a block tick 2 ticks later (vanilla's
 * getDelayAfterPlace). The tick: with air, fire, a fluid or a replaceable
 * plant below (FallingBlock.isFree) and above the world's floor, the block
 * becomes a falling_block entity at its centre (Spawn Entity's data = the
 * block state id) and its cell air. The entity rides on the item entity
 * table (game/items.c: the same tracking, spawn and update rules) with
 * vanilla's falling physics: gravity 0.04, drag 0.98, a 0.98-wide box.
 * Landing (on the ground, or concrete powder entering water): the block is
 * placed where the entity is if that cell is replaceable and the cell
 * below is not free, else it drops as its item; concrete powder that lands
 * in or beside water is concrete. After 600 ticks in the air (or 100 below
 * the world) it drops as its item.
 *
 * Departures: anvils hurt nobody and do not chip when they land; falling
 * blocks are not saved (a falling block in flight at shutdown is lost);
 * their tracking range is the item's (6 chunks, vanilla's is 10).
 */
#ifndef MC_FALLING_H
#define MC_FALLING_H

#include <stdbool.h>
#include <stdint.h>

/* True for the states of blocks that fall. */
bool falling_is(uint16_t state);
/* The block at (x, y, z) was placed or a neighbour changed. */
void falling_update(int32_t x, int32_t y, int32_t z, uint16_t state);
/* Its block tick: falls if the cell below is free. */
void falling_tick(int32_t x, int32_t y, int32_t z);

/* The entity's state after its move this tick (game/items.c runs gravity,
 * the move and the drag around this call). Returns true when it is gone:
 * placed, dropped as an item, or timed out. */
bool falling_after_move(uint16_t state, double x, double y, double z, bool on_ground, int32_t age);

#endif
