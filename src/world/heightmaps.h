/*
 * heightmaps.h — a chunk column's heightmaps as NBT, the same bytes in the
 * Chunk Data packet (world/chunk.c) and in an Anvil chunk (world/anvil.c).
 *
 * Invariants:
 *  1. Two long[37] tags, MOTION_BLOCKING then WORLD_SURFACE (the two the
 *     client uses; the only two mcserv writes to disk, see anvil.h), from
 *     chunk_heightmaps.
 *  2. Packing as vanilla's for a 384-block world: a height is y - min_y + 1
 *     (0 = an empty column) in 9 bits, 7 heights a long, low bits first,
 *     index z * 16 + x; the top bit of each long is unused.
 *  3. Writes tags only: the caller opens and closes the compound around them.
 */
#ifndef MC_HEIGHTMAPS_H
#define MC_HEIGHTMAPS_H

#include "core/buf.h"
#include "world/chunk.h"

void heightmaps_write(const chunk *c, buf_t *out);

#endif
