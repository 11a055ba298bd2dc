/* terrain.c — see terrain.h. */
#include "world/terrain.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/biomes.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "world/overworld.h"

int block_state_by_name(const char *name)
{
    if (strncmp(name, "minecraft:", 10) == 0) name += 10;
    for (int i = 0; i < BLOCK_COUNT; i++)
        if (strcmp(block_info[i].name, name) == 0) return block_info[i].default_state;
    return -1;
}

static int biome_by_name(const char *name)
{
    static const struct {
        const char *name;
        int id;
    } known[] = {
        {"plains", BIOME_PLAINS},
        {"forest", BIOME_FOREST},
        {"desert", BIOME_DESERT},
        {"ocean", BIOME_OCEAN},
        {"the_void", BIOME_THE_VOID},
        {"snowy_plains", BIOME_SNOWY_PLAINS},
        {"taiga", BIOME_TAIGA},
        {"beach", BIOME_BEACH},
        {"birch_forest", BIOME_BIRCH_FOREST},
    };
    if (strncmp(name, "minecraft:", 10) == 0) name += 10;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].name, name) == 0) return known[i].id;
    return -1;
}

static int parse_flat_settings(terrain *t, const char *text, char *err, size_t errlen)
{
    t->layer_count = 0;
    t->flat_biome = BIOME_PLAINS;
    static const struct flat_layer def[] = {
        {BLOCK_BEDROCK, 1}, {BLOCK_DIRT, 2}, {BLOCK_GRASS_BLOCK, 1}};
    if (!text || !*text || strcmp(text, "{}") == 0) {
        memcpy(t->layers, def, sizeof def);
        t->layer_count = 3;
        return 0;
    }
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root || !json_is_object(root)) {
        snprintf(err, errlen, "generator-settings: not a JSON object (%s)", root ? "" : je.text);
        json_decref(root);
        return -1;
    }
    json_t *layers = json_object_get(root, "layers");
    json_t *biome = json_object_get(root, "biome");
    int total = 0;
    if (layers && !json_is_array(layers)) goto bad;
    size_t i;
    json_t *l;
    json_array_foreach(layers, i, l)
    {
        json_t *b = json_object_get(l, "block"), *h = json_object_get(l, "height");
        if (!json_is_string(b) || !json_is_integer(h)) goto bad;
        int st = block_state_by_name(json_string_value(b));
        json_int_t hv = json_integer_value(h);
        if (st < 0) {
            snprintf(err, errlen, "generator-settings: unknown block '%s'", json_string_value(b));
            json_decref(root);
            return -1;
        }
        if (hv < 0 || hv > CHUNK_HEIGHT || total + hv > CHUNK_HEIGHT ||
            t->layer_count == TERRAIN_MAX_LAYERS) {
            snprintf(err, errlen,
                     "generator-settings: layers taller than the world (384) or more than %d",
                     TERRAIN_MAX_LAYERS);
            json_decref(root);
            return -1;
        }
        total += (int)hv;
        t->layers[t->layer_count++] = (struct flat_layer){(uint16_t)st, (uint16_t)hv};
    }
    if (!layers) {
        memcpy(t->layers, def, sizeof def);
        t->layer_count = 3;
    }
    if (biome) {
        int b = json_is_string(biome) ? biome_by_name(json_string_value(biome)) : -1;
        if (b < 0) {
            snprintf(err, errlen, "generator-settings: unsupported biome");
            json_decref(root);
            return -1;
        }
        t->flat_biome = (uint8_t)b;
    }
    json_decref(root);
    return 0;
bad:
    snprintf(err, errlen,
             "generator-settings: expected {\"layers\":[{\"block\":NAME,\"height\":N},...],"
             "\"biome\":NAME}");
    json_decref(root);
    return -1;
}

int terrain_init(terrain *t, enum level_type type, int64_t seed, const char *generator_settings,
                 char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->seed = (uint64_t)seed;
    if (type == LEVEL_FLAT) return parse_flat_settings(t, generator_settings, err, errlen);
    wg_state_init(&t->wg, seed);
    return 0;
}

/* ------------------------------------------------------------------ flat */

static int generate_flat(const terrain *t, chunk *c)
{
    uint16_t *col = malloc(CHUNK_HEIGHT * sizeof *col);
    uint16_t *states = malloc(4096 * sizeof *states);
    if (!col || !states) {
        free(col);
        free(states);
        return -1;
    }
    int y = 0;
    for (int i = 0; i < CHUNK_HEIGHT; i++) col[i] = BLOCK_AIR;
    for (int l = 0; l < t->layer_count; l++)
        for (int k = 0; k < t->layers[l].height && y < CHUNK_HEIGHT; k++)
            col[y++] = t->layers[l].state;
    int rc = 0;
    for (int sy = 0; sy < CHUNK_SECTIONS && rc == 0; sy++) {
        memset(c->sections[sy].biomes, t->flat_biome, 64);
        for (int ly = 0; ly < 16; ly++)
            for (int i = 0; i < 256; i++) states[ly << 8 | i] = col[sy * 16 + ly];
        rc = section_fill(&c->sections[sy], states);
    }
    free(col);
    free(states);
    return rc;
}

/* ---------------------------------------------------------------- normal */

int terrain_surface_y(const terrain *t, int32_t x, int32_t z)
{
    if (t->type == LEVEL_FLAT) {
        int y = CHUNK_MIN_Y - 1;
        for (int l = 0; l < t->layer_count; l++) y += t->layers[l].height;
        return y;
    }
    int h = overworld_surface_y(&t->wg, x, z);
    return h < SEA_LEVEL - 1 ? SEA_LEVEL - 1 : h;
}

int terrain_generate(const terrain *t, chunk *c)
{
    return t->type == LEVEL_FLAT ? generate_flat(t, c) : overworld_generate(&t->wg, c);
}

void flat_generate(chunk *c)
{
    static terrain t;
    if (t.layer_count == 0) {
        char err[64];
        terrain_init(&t, LEVEL_FLAT, 0, "", err, sizeof err);
    }
    generate_flat(&t, c);
}
