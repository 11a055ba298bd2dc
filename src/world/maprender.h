/*
 * maprender.h — the world seen from above: block colours (data/map_colors.h,
 * derived from vanilla's textures), one chunk's column colours and heights,
 * relief shading, and PNG encoding and decoding of map tiles (libpng). Pure
 * functions of their arguments: workers call them on chunks they own (the
 * live map, admin/map.c) and tools/worldgen.c on chunks it generated.
 *
 * A column's colour (maprender_chunk):
 *   - from the highest non-air block down, each block's colour is blended
 *     under what is above by its alpha (glass, leaves, flowers let the
 *     block below show through), at most MAPRENDER_LAYERS blocks;
 *   - water (and what grows in it) is one layer whose colour darkens with
 *     depth, the floor showing through the first few blocks;
 *   - the height is that of the first block that covers at least half of
 *     the column (the surface relief shading compares).
 * Relief (maprender_shade): as vanilla's maps, a pixel higher than its
 * northern neighbour is brighter, lower is darker; water is not shaded.
 *
 * Invariants:
 *  1. No allocation except in the PNG functions (which own what they make).
 *  2. Colours are 0x00RRGGBB; 0 with height MAPRENDER_NO_HEIGHT is "nothing
 *     here" (an ungenerated chunk, or only air): transparent in tiles.
 */
#ifndef MC_MAPRENDER_H
#define MC_MAPRENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "world/chunk.h"

#define MAPRENDER_LAYERS    8
#define MAPRENDER_NO_HEIGHT INT16_MIN

/* One chunk from above, by column index z * 16 + x. */
typedef struct map_chunk {
    uint32_t rgb[256];
    int16_t height[256];
    uint8_t water[256]; /* water depth in blocks (0: none), capped at 255 */
} map_chunk;

/* The colour of a block state seen from above, 0xAARRGGBB. */
uint32_t maprender_state_argb(uint16_t state);

/* c's columns into out. */
void maprender_chunk(const chunk *c, map_chunk *out);
/* An empty (ungenerated) chunk: every column transparent. */
void maprender_empty(map_chunk *out);

/*
 * Relief shading of one pixel: rgb at height h, with its northern
 * neighbour's height hn (MAPRENDER_NO_HEIGHT: none known, no shading).
 */
uint32_t maprender_shade(uint32_t rgb, int h, int hn, bool water);

/*
 * RGBA pixels (w*h*4 bytes, rows top to bottom) as a PNG appended to out.
 * 0, or -1 (libpng failed or out of memory).
 */
int maprender_png_encode(const uint8_t *rgba, int w, int h, buf_t *out);
/*
 * A PNG of exactly w×h pixels into rgba (w*h*4 bytes). 0, or -1 (not a PNG
 * of that size).
 */
int maprender_png_decode(const uint8_t *png, size_t len, uint8_t *rgba, int w, int h);

#endif
