/* block_state.c — see block_state.h. */
#include "world/block_state.h"

#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"

int block_state_prop(uint16_t state, const char *name, const char **text)
{
    if (state >= BLOCK_STATE_COUNT) return -1;
    const struct block_info *b = &block_info[block_of_state[state]];
    int rest = state - b->min_state;
    for (int i = b->prop_count; i-- > 0;) {
        const struct block_prop *p = &block_props[block_prop_index[b->prop_first + i]];
        int v = rest % p->count;
        rest /= p->count;
        if (strcmp(block_prop_names[p->name], name) != 0) continue;
        if (text) *text = block_prop_values[p->first_value + v];
        return v;
    }
    return -1;
}

uint16_t block_state_with(uint16_t state, const char *name, int idx)
{
    if (state >= BLOCK_STATE_COUNT) return state;
    const struct block_info *b = &block_info[block_of_state[state]];
    int rest = state - b->min_state, stride = 1;
    for (int i = b->prop_count; i-- > 0;) {
        const struct block_prop *p = &block_props[block_prop_index[b->prop_first + i]];
        if (strcmp(block_prop_names[p->name], name) == 0) {
            if (idx < 0 || idx >= p->count) return state;
            int v = (rest / stride) % p->count;
            return (uint16_t)(state + (idx - v) * stride);
        }
        stride *= p->count;
    }
    return state;
}

int block_state_value_index(uint16_t state, const char *name, const char *text)
{
    if (state >= BLOCK_STATE_COUNT) return -1;
    const struct block_info *b = &block_info[block_of_state[state]];
    for (int i = 0; i < b->prop_count; i++) {
        const struct block_prop *p = &block_props[block_prop_index[b->prop_first + i]];
        if (strcmp(block_prop_names[p->name], name) != 0) continue;
        for (int k = 0; k < p->count; k++)
            if (strcmp(block_prop_values[p->first_value + k], text) == 0) return k;
        return -1;
    }
    return -1;
}
