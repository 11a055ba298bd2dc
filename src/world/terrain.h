/*
 * terrain.h — world generators chosen by level-type.
 *
 *   flat:   layers from generator-settings (vanilla JSON shape:
 *           {"layers":[{"block":"minecraft:bedrock","height":1},...],
 *            "biome":"minecraft:plains"}); default bedrock, 2 dirt, grass.
 *   normal: vanilla 1.20.1's overworld from the same seed (overworld.h):
 *           its noise router's terrain and caves, multi-noise biomes, surface
 *           rules, deepslate and bedrock, ores, trees and plants.
 *
 * Invariants:
 *  1. terrain_generate is a pure function of (settings, seed, chunk x, z):
 *     the same seed gives byte-identical sections on every run and machine.
 *  2. A terrain is read-only after terrain_init, so worker threads may
 *     generate different chunks with it at the same time.
 */
#ifndef MC_TERRAIN_H
#define MC_TERRAIN_H

#include <stdint.h>

#include "core/config.h"
#include "world/chunk.h"
#include "world/density.h"
#include "world/noise.h"

#define TERRAIN_MAX_LAYERS 64
#define SEA_LEVEL          63 /* water fills up to y = SEA_LEVEL - 1, as vanilla */

struct flat_layer {
    uint16_t state;
    uint16_t height;
};

typedef struct terrain {
    enum level_type type;
    uint64_t seed;
    /* flat */
    struct flat_layer layers[TERRAIN_MAX_LAYERS];
    int layer_count;
    uint8_t flat_biome;
    /* normal: the seeded noises (large, ~350 KB; built once by terrain_init) */
    wg_state wg;
} terrain;

/*
 * Sets up the generator. generator_settings is the server.properties text
 * (flat only; "" or "{}" = default layers). Returns 0, or -1 with a message.
 */
int terrain_init(terrain *t, enum level_type type, int64_t seed, const char *generator_settings,
                 char *err, size_t errlen);
/* Fills c (already chunk_init'ed with its x, z) — thread-safe. -1 = out of memory. */
int terrain_generate(const terrain *t, chunk *c);
/* Highest solid block at (x, z) before caves and trees (for spawn). */
int terrain_surface_y(const terrain *t, int32_t x, int32_t z);

/* The default flat layers (bedrock, two dirt, grass; plains) into c. */
void flat_generate(chunk *c);

/* Block state id of a block name ("stone" or "minecraft:stone"), default state; -1 if unknown. */
int block_state_by_name(const char *name);

#endif
