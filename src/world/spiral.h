/*
 * spiral.h — the order in which a player's chunks are sent: every offset
 * (dx, dz) with |dx|, |dz| <= SPIRAL_MAX, nearest first (by dx² + dz², then
 * dx, then dz, so the order is total and the same on every run).
 *
 * spiral_end(r) is how many leading entries can lie within a square of
 * radius r: scanning that prefix and skipping entries outside the square
 * visits every chunk of the square exactly once, nearest first.
 */
#ifndef MC_SPIRAL_H
#define MC_SPIRAL_H

#include <stdint.h>

#define SPIRAL_MAX  32
#define SPIRAL_SIDE (2 * SPIRAL_MAX + 1)

struct chunk_offset {
    int8_t dx, dz;
};

/* Builds the table once (idempotent; call from the game thread at startup). */
void spiral_init(void);
const struct chunk_offset *spiral_offsets(void);
int spiral_end(int radius);

#endif
