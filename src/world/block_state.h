/*
 * block_state.h — reading a block state's properties from the generated
 * tables (data/block_table.h): a state is its block's min_state plus the
 * mixed-radix number of its property values, the last property varying
 * fastest, as vanilla's StateDefinition numbers them.
 *
 * Invariant: pure table reads; any thread may call them.
 */
#ifndef MC_WORLD_BLOCK_STATE_H
#define MC_WORLD_BLOCK_STATE_H

#include <stdint.h>

/* The value index of property `name` in `state`, and its text in *text (if
 * not NULL); -1 when the state's block has no such property or the state is
 * out of range. */
int block_state_prop(uint16_t state, const char *name, const char **text);
/* state with property `name` at value index idx (state unchanged when the
 * block has no such property or idx is out of its range). */
uint16_t block_state_with(uint16_t state, const char *name, int idx);
/* The value index of `text` in property `name` of state's block, or -1. */
int block_state_value_index(uint16_t state, const char *name, const char *text);

#endif
