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

/* Non-default states used by the generator (computed from the property order). */
#define STATE_GRASS_SNOWY   (BLOCK_GRASS_BLOCK - 1) /* snowy=true */
#define STATE_OAK_LEAVES    (237 + 1)               /* distance=1, persistent=true */
#define STATE_BIRCH_LEAVES  (293 + 1)
#define STATE_SPRUCE_LEAVES (265 + 1)

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
    uint64_t s = (uint64_t)seed;
    noise_init(&t->continents, s ^ 0x636f6e74ULL);
    noise_init(&t->hills, s ^ 0x68696c6cULL);
    noise_init(&t->detail, s ^ 0x64657461ULL);
    noise_init(&t->mountains, s ^ 0x6d6f756eULL);
    noise_init(&t->temperature, s ^ 0x74656d70ULL);
    noise_init(&t->humidity, s ^ 0x68756d69ULL);
    noise_init(&t->caves, s ^ 0x63617665ULL);
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

struct column {
    int height; /* top solid block y */
    uint8_t biome;
    double land;
};

static void column_at(const terrain *t, int32_t x, int32_t z, struct column *out)
{
    double cont = fbm2(&t->continents, x / 512.0, z / 512.0, 4) * 2.2;
    double hills = fbm2(&t->hills, x / 128.0, z / 128.0, 4);
    double detail = fbm2(&t->detail, x / 32.0, z / 32.0, 2);
    double mount = fbm2(&t->mountains, x / 256.0, z / 256.0, 3);
    double h;
    if (cont < -0.15) {
        h = 62 + (cont + 0.15) * 60 + detail * 3;
        if (h < 28) h = 28 + (h - 28) * 0.2;
    } else {
        double inland = (cont + 0.15) * 3;
        if (inland > 1) inland = 1;
        h = 63 + (cont + 0.15) * 25 + hills * 14 * inland + detail * 3 * inland + 0.5;
        if (mount > 0.2) h += pow((mount - 0.2) * 3.0, 1.6) * 45 * inland;
    }
    if (h > 300) h = 300;
    if (h < -50) h = -50;
    int height = (int)floor(h);
    double temp = fbm2(&t->temperature, x / 700.0, z / 700.0, 2) * 1.6 - (height - 63) / 160.0;
    double humid = fbm2(&t->humidity, x / 600.0, z / 600.0, 2) * 1.6;
    uint8_t biome;
    if (height < SEA_LEVEL - 1) {
        if (temp < -0.35)
            biome = BIOME_FROZEN_OCEAN;
        else if (height < 42)
            biome = BIOME_DEEP_OCEAN;
        else
            biome = BIOME_OCEAN;
    } else if (height <= SEA_LEVEL + 1 && cont < -0.05) {
        biome = BIOME_BEACH;
    } else if (height > 125) {
        biome = temp < 0.0 ? BIOME_JAGGED_PEAKS : BIOME_STONY_PEAKS;
    } else if (height > 100) {
        biome = BIOME_WINDSWEPT_HILLS;
    } else if (temp > 0.3 && humid < 0.05) {
        biome = BIOME_DESERT;
    } else if (temp < -0.3) {
        biome = humid > 0.1 ? BIOME_SNOWY_TAIGA : BIOME_SNOWY_PLAINS;
    } else if (humid > 0.15) {
        biome = temp < -0.05 ? BIOME_TAIGA : humid > 0.45 ? BIOME_BIRCH_FOREST : BIOME_FOREST;
    } else {
        biome = BIOME_PLAINS;
    }
    out->height = height;
    out->biome = biome;
    out->land = cont;
}

int terrain_surface_y(const terrain *t, int32_t x, int32_t z)
{
    if (t->type == LEVEL_FLAT) {
        int y = CHUNK_MIN_Y - 1;
        for (int l = 0; l < t->layer_count; l++) y += t->layers[l].height;
        return y;
    }
    struct column col;
    column_at(t, x, z, &col);
    return col.height < SEA_LEVEL - 1 ? SEA_LEVEL - 1 : col.height;
}

/* Column buffer: index (y - CHUNK_MIN_Y). */
static inline void put(uint16_t *cols, int lx, int lz, int y, uint16_t state)
{
    if (lx < 0 || lx > 15 || lz < 0 || lz > 15 || y < CHUNK_MIN_Y ||
        y >= CHUNK_MIN_Y + CHUNK_HEIGHT)
        return;
    cols[(lz * 16 + lx) * CHUNK_HEIGHT + (y - CHUNK_MIN_Y)] = state;
}

static inline uint16_t get(const uint16_t *cols, int lx, int lz, int y)
{
    return cols[(lz * 16 + lx) * CHUNK_HEIGHT + (y - CHUNK_MIN_Y)];
}

static void fill_column(const terrain *t, uint16_t *col, const struct column *c, int32_t wx,
                        int32_t wz)
{
    int h = c->height;
    uint16_t top = BLOCK_GRASS_BLOCK, under = BLOCK_DIRT;
    int depth = 3;
    switch (c->biome) {
    case BIOME_DESERT: top = BLOCK_SAND, under = BLOCK_SANDSTONE, depth = 4; break;
    case BIOME_BEACH: top = BLOCK_SAND, under = BLOCK_SAND, depth = 3; break;
    case BIOME_OCEAN:
    case BIOME_FROZEN_OCEAN: top = BLOCK_SAND, under = BLOCK_SAND, depth = 3; break;
    case BIOME_DEEP_OCEAN: top = BLOCK_GRAVEL, under = BLOCK_GRAVEL, depth = 3; break;
    case BIOME_SNOWY_PLAINS:
    case BIOME_SNOWY_TAIGA: top = STATE_GRASS_SNOWY; break;
    case BIOME_STONY_PEAKS: top = BLOCK_STONE, under = BLOCK_STONE; break;
    case BIOME_JAGGED_PEAKS: top = BLOCK_SNOW_BLOCK, under = BLOCK_SNOW_BLOCK, depth = 2; break;
    case BIOME_WINDSWEPT_HILLS:
        if (hash_xz(t->seed, wx, wz, 7) % 3 == 0) top = BLOCK_STONE, under = BLOCK_STONE;
        break;
    default: break;
    }
    for (int y = CHUNK_MIN_Y; y <= h && y < CHUNK_MIN_Y + CHUNK_HEIGHT; y++) {
        uint16_t s;
        if (y == CHUNK_MIN_Y)
            s = BLOCK_BEDROCK;
        else if (y < CHUNK_MIN_Y + 5 && hash_xz(t->seed, wx, wz, (uint32_t)(y + 1000)) % 5 <
                                            (uint64_t)(CHUNK_MIN_Y + 5 - y))
            s = BLOCK_BEDROCK;
        else if (y == h)
            s = top;
        else if (y > h - 1 - depth)
            s = under;
        else if (y < 0)
            s = BLOCK_DEEPSLATE;
        else
            s = BLOCK_STONE;
        col[y - CHUNK_MIN_Y] = s;
    }
    for (int y = h + 1; y < SEA_LEVEL; y++) {
        col[y - CHUNK_MIN_Y] =
            (y == SEA_LEVEL - 1 && c->biome == BIOME_FROZEN_OCEAN) ? BLOCK_ICE : BLOCK_WATER;
    }
    if (c->biome == BIOME_SNOWY_PLAINS || c->biome == BIOME_SNOWY_TAIGA) {
        if (h + 1 >= SEA_LEVEL && h + 1 < CHUNK_MIN_Y + CHUNK_HEIGHT)
            col[h + 1 - CHUNK_MIN_Y] = BLOCK_SNOW;
    }
}

/* Carves tunnels where 3D noise is near zero, sampled every 4×8×4 and interpolated. */
static void carve_caves(const terrain *t, uint16_t *cols, const int heights[256], int32_t x0,
                        int32_t z0)
{
    enum { NX = 5, NY = CHUNK_HEIGHT / 8 + 1, NZ = 5 };
    static const int y_lo = -56;
    int maxh = CHUNK_MIN_Y;
    for (int i = 0; i < 256; i++)
        if (heights[i] > maxh) maxh = heights[i];
    int ny = (maxh - CHUNK_MIN_Y) / 8 + 2;
    if (ny > NY) ny = NY;
    double grid[NX][NY][NZ];
    for (int i = 0; i < NX; i++)
        for (int k = 0; k < NZ; k++)
            for (int j = 0; j < ny; j++) {
                double wx = x0 + i * 4, wz = z0 + k * 4, wy = CHUNK_MIN_Y + j * 8;
                grid[i][j][k] = fbm3(&t->caves, wx / 48.0, wy / 24.0, wz / 48.0, 2);
            }
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            int top = heights[lz * 16 + lx] - 6;
            if (top < SEA_LEVEL - 8 && heights[lz * 16 + lx] < SEA_LEVEL)
                top -= 6; /* keep sea beds */
            int i = lx >> 2, k = lz >> 2;
            double fx = (lx & 3) / 4.0, fz = (lz & 3) / 4.0;
            for (int y = y_lo; y < top; y++) {
                int j = (y - CHUNK_MIN_Y) >> 3;
                if (j + 1 >= ny) break;
                double fy = ((y - CHUNK_MIN_Y) & 7) / 8.0;
                double c00 = grid[i][j][k] + (grid[i + 1][j][k] - grid[i][j][k]) * fx;
                double c10 = grid[i][j + 1][k] + (grid[i + 1][j + 1][k] - grid[i][j + 1][k]) * fx;
                double c01 = grid[i][j][k + 1] + (grid[i + 1][j][k + 1] - grid[i][j][k + 1]) * fx;
                double c11 = grid[i][j + 1][k + 1] +
                             (grid[i + 1][j + 1][k + 1] - grid[i][j + 1][k + 1]) * fx;
                double c0 = c00 + (c10 - c00) * fy, c1 = c01 + (c11 - c01) * fy;
                double v = c0 + (c1 - c0) * fz;
                if (v > -0.045 && v < 0.045) {
                    uint16_t old = get(cols, lx, lz, y);
                    if (old != BLOCK_BEDROCK && old != BLOCK_WATER)
                        put(cols, lx, lz, y, BLOCK_CAVE_AIR);
                }
            }
        }
}

static void place_tree(uint16_t *cols, int lx, int lz, int ground, uint64_t h, uint16_t log,
                       uint16_t leaves, bool spruce)
{
    int height = 4 + (int)(h % 3) + (spruce ? 2 : 0);
    int top = ground + height;
    if (spruce) {
        for (int y = ground + 2; y <= top + 1; y++) {
            int r = (top + 1 - y) % 2 == 0 ? 1 : 2;
            if (y >= top) r = y == top ? 1 : 0;
            for (int dx = -r; dx <= r; dx++)
                for (int dz = -r; dz <= r; dz++) {
                    if (r == 2 && abs(dx) == 2 && abs(dz) == 2) continue;
                    int px = lx + dx, pz = lz + dz;
                    if (px < 0 || px > 15 || pz < 0 || pz > 15) continue;
                    if (block_is_air(get(cols, px, pz, y))) put(cols, px, pz, y, leaves);
                }
        }
    } else {
        for (int y = top - 2; y <= top + 1; y++) {
            int r = y >= top ? 1 : 2;
            for (int dx = -r; dx <= r; dx++)
                for (int dz = -r; dz <= r; dz++) {
                    if (abs(dx) == r && abs(dz) == r &&
                        (y == top + 1 || ((h >> (dx + dz + 8)) & 1)))
                        continue;
                    int px = lx + dx, pz = lz + dz;
                    if (px < 0 || px > 15 || pz < 0 || pz > 15) continue;
                    if (block_is_air(get(cols, px, pz, y))) put(cols, px, pz, y, leaves);
                }
        }
    }
    for (int y = ground + 1; y < top; y++) put(cols, lx, lz, y, log);
}

/* Trees whose trunk lies within 2 blocks of this chunk, so crowns cross borders. */
static void place_trees(const terrain *t, uint16_t *cols, int32_t x0, int32_t z0)
{
    for (int dz = -2; dz < 18; dz++)
        for (int dx = -2; dx < 18; dx++) {
            int32_t wx = x0 + dx, wz = z0 + dz;
            uint64_t h = hash_xz(t->seed, wx, wz, 42);
            unsigned roll = (unsigned)(h % 1000);
            if (roll >= 28) continue; /* the densest biome's chance; cheap filter first */
            struct column c;
            column_at(t, wx, wz, &c);
            if (c.height < SEA_LEVEL) continue;
            unsigned chance;
            uint16_t log = BLOCK_OAK_LOG, leaves = STATE_OAK_LEAVES;
            bool spruce = false;
            switch (c.biome) {
            case BIOME_FOREST: chance = 28; break;
            case BIOME_BIRCH_FOREST:
                chance = 26, log = BLOCK_BIRCH_LOG, leaves = STATE_BIRCH_LEAVES;
                break;
            case BIOME_TAIGA:
                chance = 22, log = BLOCK_SPRUCE_LOG, leaves = STATE_SPRUCE_LEAVES, spruce = true;
                break;
            case BIOME_SNOWY_TAIGA:
                chance = 14, log = BLOCK_SPRUCE_LOG, leaves = STATE_SPRUCE_LEAVES, spruce = true;
                break;
            case BIOME_PLAINS: chance = 2; break;
            case BIOME_WINDSWEPT_HILLS:
                chance = 4, log = BLOCK_SPRUCE_LOG, leaves = STATE_SPRUCE_LEAVES, spruce = true;
                break;
            case BIOME_SNOWY_PLAINS:
                chance = 1, log = BLOCK_SPRUCE_LOG, leaves = STATE_SPRUCE_LEAVES, spruce = true;
                break;
            default: chance = 0;
            }
            if (roll >= chance) continue;
            if (c.biome == BIOME_WINDSWEPT_HILLS && hash_xz(t->seed, wx, wz, 7) % 3 == 0) continue;
            /* Trunks stand on the original surface; caves never reach it (see carve_caves). */
            place_tree(cols, dx, dz, c.height, h >> 10, log, leaves, spruce);
            if (dx >= 0 && dx < 16 && dz >= 0 && dz < 16) put(cols, dx, dz, c.height, BLOCK_DIRT);
        }
}

static int generate_normal(const terrain *t, chunk *c)
{
    uint16_t *cols = malloc((size_t)256 * CHUNK_HEIGHT * sizeof *cols);
    uint16_t *states = malloc(4096 * sizeof *states);
    if (!cols || !states) {
        free(cols);
        free(states);
        return -1;
    }
    int32_t x0 = c->x * 16, z0 = c->z * 16;
    int heights[256];
    uint8_t biomes[256];
    for (size_t i = 0; i < (size_t)256 * CHUNK_HEIGHT; i++) cols[i] = BLOCK_AIR;
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            struct column col;
            column_at(t, x0 + lx, z0 + lz, &col);
            heights[lz * 16 + lx] = col.height;
            biomes[lz * 16 + lx] = col.biome;
            fill_column(t, cols + (lz * 16 + lx) * CHUNK_HEIGHT, &col, x0 + lx, z0 + lz);
        }
    carve_caves(t, cols, heights, x0, z0);
    /* Grass and flowers on grassy surfaces. */
    for (int i = 0; i < 256; i++) {
        int lx = i & 15, lz = i >> 4, h = heights[i];
        if (h < SEA_LEVEL || get(cols, lx, lz, h) != BLOCK_GRASS_BLOCK) continue;
        uint64_t r = hash_xz(t->seed, x0 + lx, z0 + lz, 99) % 100;
        unsigned grass = biomes[i] == BIOME_PLAINS ? 18 : 6;
        if (r < grass)
            put(cols, lx, lz, h + 1, BLOCK_GRASS);
        else if (r < grass + 2)
            put(cols, lx, lz, h + 1, r & 1 ? BLOCK_DANDELION : BLOCK_POPPY);
    }
    place_trees(t, cols, x0, z0);

    int rc = 0;
    for (int sy = 0; sy < CHUNK_SECTIONS && rc == 0; sy++) {
        section *s = &c->sections[sy];
        for (int ly = 0; ly < 16; ly++)
            for (int lz = 0; lz < 16; lz++)
                for (int lx = 0; lx < 16; lx++)
                    states[ly << 8 | lz << 4 | lx] =
                        cols[(lz * 16 + lx) * CHUNK_HEIGHT + sy * 16 + ly];
        rc = section_fill(s, states);
        /* Biomes per 4×4×4 cell from the cell's centre column. */
        for (int by = 0; by < 4; by++)
            for (int bz = 0; bz < 4; bz++)
                for (int bx = 0; bx < 4; bx++)
                    s->biomes[by << 4 | bz << 2 | bx] = biomes[(bz * 4 + 2) * 16 + bx * 4 + 2];
    }
    free(cols);
    free(states);
    return rc;
}

int terrain_generate(const terrain *t, chunk *c)
{
    return t->type == LEVEL_FLAT ? generate_flat(t, c) : generate_normal(t, c);
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
