/*
 * light.h — sky and block light for one chunk column, and its wire form.
 *
 * Light is derived data: it is computed from the blocks whenever a chunk
 * packet is encoded (on a worker), never stored with the chunk.
 *
 * Rules (as vanilla, within one column):
 *  - sky light is 15 straight down from the sky through blocks that filter
 *    nothing; a block that filters f takes f off; from there light spreads to
 *    the six neighbours losing max(1, filter) per step;
 *  - block light starts at each block's emit level and spreads the same way.
 *
 * Limits: light does not cross into neighbouring columns (a torch by a chunk
 * border lights only its own side) — documented in docs/design.md.
 *
 * Wire form (26 light sections: one below the world, 24, one above):
 *  - sky: sections entirely 15 with only 15s above them are left out of both
 *    masks (clients treat them as open sky, as vanilla's packets do); all-zero
 *    sections go in the empty mask; the rest are sent as 2048-byte arrays.
 *  - block: all-zero sections in the empty mask, the rest sent.
 */
#ifndef MC_LIGHT_H
#define MC_LIGHT_H

#include <stdint.h>

#include "core/buf.h"
#include "world/chunk.h"

typedef struct chunk_light {
    uint8_t sky[CHUNK_HEIGHT * 256]; /* index (y - min) << 8 | z << 4 | x; 0..15 */
    uint8_t block[CHUNK_HEIGHT * 256];
} chunk_light;

void light_compute(const chunk *c, chunk_light *out);
/* Appends masks and arrays as in Chunk Data and Update Light. */
void light_write(const chunk_light *l, buf_t *out);

#endif
