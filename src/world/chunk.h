/*
 * chunk.h — chunk columns in compact paletted form, and their network
 * encoding (the payload of Chunk Data and Update Light, protocol 763).
 *
 * A column is 24 sections of 16×16×16 blocks, y = -64..319. Each section
 * keeps its blocks in the same paletted layout the wire uses, so encoding is
 * a byte-swap copy:
 *
 *   bits == 0        single value (`single`), no data
 *   bits 4..8        indirect: palette[palette_len] of state ids, data holds
 *                    indices, floor(64/bits) per long, entries never span longs
 *   bits == 15       direct: data holds global state ids (BLOCK_GLOBAL_BITS)
 *
 * Index of a block inside a section: y<<8 | z<<4 | x. Biomes are 4×4×4 per
 * section (64 entries, index y<<4 | z<<2 | x).
 *
 * Invariants:
 *  1. non_air always equals the number of non-air states in the section.
 *  2. An indirect palette has no duplicates and palette_len <= 1 << bits.
 *  3. A section owns `palette` and `data`; chunk_free releases them.
 *  4. The column owns its block entities (`bents`, world/block_entity.h):
 *     chunk_clone copies them, chunk_free frees them, and chunk_set_block
 *     drops the one at a position whose block changes to another block
 *     (a state change of the same block, a chest's type, keeps it).
 */
#ifndef MC_CHUNK_H
#define MC_CHUNK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "world/block_entity.h"

#define CHUNK_SECTIONS       24
#define CHUNK_MIN_Y          (-64)
#define CHUNK_HEIGHT         384
#define CHUNK_LIGHT_SECTIONS (CHUNK_SECTIONS + 2) /* one below and one above */

typedef struct section {
    uint16_t non_air;
    uint8_t bits;
    uint16_t single;
    uint16_t palette_len;
    uint16_t *palette; /* 256 entries when indirect */
    uint64_t *data;
    uint8_t biomes[64];
} section;

typedef struct chunk {
    int32_t x, z;
    section sections[CHUNK_SECTIONS];
    be_map bents; /* block entities (invariant 4) */
} chunk;

void chunk_init(chunk *c, int32_t x, int32_t z, uint16_t fill_state, uint8_t biome);
void chunk_free(chunk *c);

/* Block at index y<<8 | z<<4 | x of a section. */
uint16_t section_get(const section *s, unsigned idx);

/* World coordinates inside the column: x, z in 0..15, y in -64..319. */
uint16_t chunk_get_block(const chunk *c, int x, int y, int z);
/* Returns 0, or -1 when out of memory (the block is left unchanged). */
int chunk_set_block(chunk *c, int x, int y, int z, uint16_t state);

bool block_is_air(uint16_t state);

/*
 * Replaces every block of section `sy` from states[4096] (index y<<8|z<<4|x),
 * choosing the smallest layout. Returns 0, or -1 when out of memory (the
 * section is left unchanged).
 */
int section_fill(section *s, const uint16_t states[4096]);
/*
 * Rebuilds a section's palette from the blocks it holds now, dropping
 * entries no longer used (palettes only grow while editing). Returns 0, or
 * -1 when out of memory (the section is left as it was).
 */
int section_compact(section *s);
/* Deep copy (for handing a snapshot to a worker); -1 when out of memory. */
int chunk_clone(chunk *dst, const chunk *src);

/* Appends one section (non-air count, blocks, biomes) in network layout. */
void section_encode(const section *s, buf_t *out);

/*
 * Appends the Chunk Data and Update Light packet (id + payload) for c:
 * heightmaps (MOTION_BLOCKING, WORLD_SURFACE), all sections, no block
 * entities, and light computed from the blocks of c alone (light.h: no
 * neighbour loaded). -1: out of memory.
 */
int chunk_encode_packet(const chunk *c, buf_t *out);
/* Appends an Update Light packet (id + payload) for c. -1: out of memory. */
int chunk_encode_light_packet(const chunk *c, buf_t *out);
/* The same two packets with the light given: light_write's bytes (light.h),
 * computed by the caller from the column and its neighbours. */
int chunk_encode_packet_lit(const chunk *c, const uint8_t *light, size_t light_len, buf_t *out);
int chunk_encode_light_packet_lit(int32_t x, int32_t z, const uint8_t *light, size_t light_len,
                                  buf_t *out);
/* Column tops: any non-air block (WORLD_SURFACE), solid or fluid (MOTION_BLOCKING). */
void chunk_heightmaps(const chunk *c, int surface[256], int motion[256]);

/* Highest non-air block y in column (x, z), or CHUNK_MIN_Y - 1 if none. */
int chunk_column_top(const chunk *c, int x, int z);

#endif
