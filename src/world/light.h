/*
 * light.h — sky and block light for one chunk column, computed from the
 * blocks of that column and of its eight neighbours, and its wire form.
 *
 * Light is derived data: it is computed from the blocks whenever a chunk
 * packet is encoded (on a worker), never stored with the chunk; only a hash
 * of its wire form is kept (world.h), to tell whether a relight changed it.
 *
 * Rules (vanilla 1.20's light engine, LightEngine / SkyLightEngine):
 *  - sky: in each column, every cell above the highest block that filters
 *    light (filterLight > 0) is a sky source at 15 (ChunkSkyLightSources'
 *    "lowest source y"); from there light spreads to the six neighbours,
 *    losing max(1, filter of the cell entered) per step, downwards too;
 *  - block: a block that emits e has light e in its own cell, and spreads
 *    the same way;
 *  - a neighbour column that is not loaded has no light and lets none
 *    through (vanilla reads a missing chunk as bedrock).
 *
 * Invariants:
 *  1. Light that starts at 15 is 0 after LIGHT_REACH + 1 steps, so a
 *     column's light depends only on blocks within LIGHT_REACH columns of
 *     its edge: light_compute_view reads the neighbours there, and only
 *     there, and its result for the middle column is exact (the same as a
 *     flood fill over the whole 3×3 area: tests/unit/test_light.c).
 *  2. Every chunk in a light_view is only read; the caller guarantees
 *     nobody writes them meanwhile (workers get snapshots: world.c).
 *
 * Departures from vanilla: block shapes are not consulted (vanilla lets a
 * bottom slab pass light down through its open top, and stops light at the
 * solid faces of stairs and slabs whose filter is 0); the two extra light
 * sections are not computed: the one below the world is sent empty, the
 * one above as open sky (vanilla lights them only in a column open to the
 * void, or from a light source at y = 319).
 *
 * Wire form (26 light sections: one below the world, 24, one above):
 *  - sky: sections entirely 15 with only 15s above them are left out of both
 *    masks (clients treat them as open sky, as vanilla's packets do); all-zero
 *    sections go in the empty mask; the rest are sent as 2048-byte arrays.
 *  - block: all-zero sections in the empty mask, the rest sent.
 */
#ifndef MC_LIGHT_H
#define MC_LIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "world/chunk.h"

/* Columns beyond a chunk's edge whose blocks can change its light. */
#define LIGHT_REACH 14

typedef struct chunk_light {
    uint8_t sky[CHUNK_HEIGHT * 256]; /* index (y - min) << 8 | z << 4 | x; 0..15 */
    uint8_t block[CHUNK_HEIGHT * 256];
} chunk_light;

/*
 * A column and its neighbours: c[(dz + 1) * 3 + (dx + 1)], so c[4] is the
 * column lit; NULL for a neighbour that is not loaded (c[4] must be set).
 */
typedef struct light_view {
    const chunk *c[9];
} light_view;

/* Light of v->c[4]. 0, or -1 when out of memory (out is then incomplete). */
int light_compute_view(const light_view *v, chunk_light *out);
/* Light of c with no neighbour loaded. */
void light_compute(const chunk *c, chunk_light *out);
/* Appends masks and arrays as in Chunk Data and Update Light. */
void light_write(const chunk_light *l, buf_t *out);
/* A 64-bit hash of light_write's bytes (FNV-1a): "did the light change?". */
uint64_t light_wire_hash(const uint8_t *p, size_t n);

/* True if replacing block state a by b can change any light (emission or filter differ). */
bool light_states_differ(uint16_t a, uint16_t b);
/*
 * True if a light change at column (lx, lz) of a chunk (0..15) can reach
 * its neighbour (dx, dz) (each -1..1): within LIGHT_REACH steps of it.
 */
bool light_change_reaches(int lx, int lz, int dx, int dz);

#endif
