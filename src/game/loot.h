/*
 * loot.h — what a broken block drops: vanilla's block loot tables as
 * minecraft-data 1.20.1 flattens them (data/loot_table.c), with vanilla's
 * "requires the right tool" rule (blocks' harvestTools). Pure: no game
 * state, so the unit tests and the server share it (game/loot.c).
 */
#ifndef MC_LOOT_H
#define MC_LOOT_H

#include <stdbool.h>
#include <stdint.h>

#define LOOT_MAX_DROPS 16 /* more entries than any block has (snow: 16) */

struct loot_drop {
    int16_t item;
    int8_t count;
};

/* True if `item` (0 = the hand) is a right tool for the block, or the block
 * needs none (vanilla requiresCorrectToolForDrops / isCorrectToolForDrops). */
bool loot_can_harvest(int block, int item);

/* The drops of breaking a block in `state` with `item` held (silk: the item
 * has silk touch). `rng` is an xorshift64 state (nonzero), advanced per
 * random draw. Writes at most `max` drops to out and returns how many;
 * nothing when the item cannot harvest the block. */
int loot_drops(uint16_t state, int item, bool silk, uint64_t *rng, struct loot_drop *out, int max);

#endif
