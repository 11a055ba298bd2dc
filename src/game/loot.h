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
/* The same with the tool's fortune level: the ores and the few blocks of
 * loot.c's ore table get vanilla's base counts and ApplyBonusCount formula
 * (ore_drops, uniform_bonus_count), as vanilla's block loot tables say. */
int loot_drops_with(uint16_t state, int item, bool silk, int fortune, uint64_t *rng,
                    struct loot_drop *out, int max);
/* The experience a block drops when mined with the right tool and without
 * silk touch (vanilla's DropExperienceBlock ranges, redstone ore's 1..5):
 * 0 for most blocks. */
int loot_block_xp(int block, uint64_t *rng);
/* The drops of a block an explosion destroyed (vanilla Explosion's loot
 * roll: no tool, so no silk touch, and no "requires the right tool" rule:
 * stone drops cobblestone). The explosion's decay is the caller's. */
int loot_drops_exploded(uint16_t state, uint64_t *rng, struct loot_drop *out, int max);

#endif
