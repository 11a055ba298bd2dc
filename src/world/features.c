/* features.c — see features.h. */
#include "world/features.h"

#include <stdlib.h>
#include <string.h>

#include "data/biomes.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/worldgen_biomes.h"
#include "world/noise.h"
#include "world/noise_chunk.h"
#include "world/wg_cache.h"

#define IDX(x, z, y) ((size_t)((z)*16 + (x)) * WG_HEIGHT + (size_t)((y)-WG_MIN_Y))
#define REACH        5 /* widest crown beyond its trunk */
#define SALT_TREE    42
#define SALT_PLANT   99

enum tree_kind {
    T_NONE,
    T_OAK,
    T_FANCY_OAK,
    T_BIRCH,
    T_TALL_BIRCH,
    T_SPRUCE,
    T_PINE,
    T_JUNGLE,
    T_MEGA_JUNGLE,
    T_ACACIA,
    T_DARK_OAK,
    T_CHERRY,
    T_MANGROVE,
    T_SWAMP_OAK,
    T_HUGE_BROWN,
    T_HUGE_RED,
    T_BUSH,
};

/* Where a feature draws: a chunk's columns being generated (cols), or the
 * live world through callbacks (w, cols NULL: features_draw_tree). */
struct fctx {
    const wg_state *st;
    int32_t x0, z0;
    uint16_t *cols;
    const struct features_world *w;
};

/* Leaves with distance=1, persistent=true, waterlogged=false: the block's first state + 1. */
static uint16_t leaves(uint16_t default_state)
{
    return (uint16_t)(block_info[block_of_state[default_state]].min_state + 1);
}

static inline int inside(const struct fctx *c, int32_t x, int32_t y, int32_t z)
{
    if (c->w) return y >= WG_MIN_Y && y < WG_MIN_Y + WG_HEIGHT;
    return x >= c->x0 && x < c->x0 + 16 && z >= c->z0 && z < c->z0 + 16 && y >= WG_MIN_Y &&
           y < WG_MIN_Y + WG_HEIGHT;
}

static int replaceable(uint16_t s)
{
    return s == BLOCK_AIR || s == BLOCK_CAVE_AIR || s == BLOCK_GRASS || s == BLOCK_FERN ||
           s == BLOCK_SNOW || s == BLOCK_DANDELION || s == BLOCK_POPPY || s == BLOCK_VINE ||
           s == BLOCK_TALL_GRASS || s == BLOCK_TALL_GRASS - 1 || s == BLOCK_LARGE_FERN ||
           s == BLOCK_LARGE_FERN - 1;
}

/* Writes s at (x, y, z) when inside this chunk and the place is free (logs may replace leaves). */
static void put(const struct fctx *c, int32_t x, int32_t y, int32_t z, uint16_t s, int log)
{
    if (!inside(c, x, y, z)) return;
    if (c->w) {
        uint16_t now;
        if (!c->w->get(c->w->ctx, x, y, z, &now)) return;
        const char *n = block_info[block_of_state[now]].name;
        if (replaceable(now) || strstr(n, "sapling") || (log && strstr(n, "leaves")))
            c->w->set(c->w->ctx, x, y, z, s, log);
        return;
    }
    uint16_t *b = &c->cols[IDX(x - c->x0, z - c->z0, y)];
    const char *n = block_info[block_of_state[*b]].name;
    if (replaceable(*b) || (log && strstr(n, "leaves"))) *b = s;
}

static void blob(const struct fctx *c, int32_t x, int32_t y, int32_t z, int r, uint16_t lv,
                 uint64_t h, int corners)
{
    for (int dx = -r; dx <= r; dx++)
        for (int dz = -r; dz <= r; dz++) {
            if (abs(dx) == r && abs(dz) == r && (!corners || (h >> ((dx + dz + 2 * r) & 31) & 1)))
                continue;
            put(c, x + dx, y, z + dz, lv, 0);
        }
}

static void disc(const struct fctx *c, int32_t x, int32_t y, int32_t z, int r, uint16_t lv)
{
    for (int dx = -r; dx <= r; dx++)
        for (int dz = -r; dz <= r; dz++)
            if (dx * dx + dz * dz <= r * r + r) put(c, x + dx, y, z + dz, lv, 0);
}

static void trunk(const struct fctx *c, int32_t x, int32_t y, int32_t z, int h, uint16_t log)
{
    for (int i = 0; i < h; i++) put(c, x, y + i, z, log, 1);
}

static void tree(const struct fctx *c, enum tree_kind k, int32_t x, int32_t g, int32_t z,
                 uint64_t h)
{
    int y = g + 1; /* first trunk block */
    switch (k) {
    case T_OAK:
    case T_SWAMP_OAK:
    case T_BIRCH:
    case T_TALL_BIRCH:
    case T_MANGROVE: {
        uint16_t log = k == T_BIRCH || k == T_TALL_BIRCH ? BLOCK_BIRCH_LOG
                       : k == T_MANGROVE                 ? BLOCK_MANGROVE_LOG
                                                         : BLOCK_OAK_LOG;
        uint16_t lv = leaves(k == T_BIRCH || k == T_TALL_BIRCH ? BLOCK_BIRCH_LEAVES
                             : k == T_MANGROVE                 ? BLOCK_MANGROVE_LEAVES
                                                               : BLOCK_OAK_LEAVES);
        int height = 4 + (int)(h % 3) + (k == T_BIRCH ? 1 : 0) + (k == T_TALL_BIRCH ? 5 : 0) +
                     (k == T_MANGROVE ? 2 : 0);
        int top = y + height - 1;
        int r = k == T_SWAMP_OAK || k == T_MANGROVE ? 3 : 2;
        for (int yy = top - 2; yy <= top + 1; yy++)
            blob(c, x, yy, z, yy >= top ? 1 : r, lv, h >> 7, yy != top + 1);
        trunk(c, x, y, z, height, log);
        break;
    }
    case T_FANCY_OAK: {
        int height = 7 + (int)(h % 5);
        int top = y + height;
        for (int yy = top - 4; yy <= top; yy++) {
            int r = yy == top || yy == top - 4 ? 2 : 3;
            disc(c, x, yy, z, r, leaves(BLOCK_OAK_LEAVES));
        }
        trunk(c, x, y, z, height, BLOCK_OAK_LOG);
        /* two branches */
        for (int b = 0; b < 2; b++) {
            int dx = (h >> (20 + b)) & 1 ? 1 : -1, dz = (h >> (22 + b)) & 1 ? 1 : -1;
            put(c, x + dx, top - 3 + b, z + dz * b, BLOCK_OAK_LOG, 1);
        }
        break;
    }
    case T_SPRUCE:
    case T_PINE: {
        /* A leaf tip above the trunk; a spruce's rings of radius 1 and 2 go
         * down to the third log, a pine's four rings stay at the top. */
        int height = k == T_PINE ? 10 + (int)(h % 6) : 6 + (int)(h % 4);
        uint16_t lv = leaves(BLOCK_SPRUCE_LEAVES);
        int top = y + height;
        put(c, x, top, z, lv, 0);
        if (k == T_PINE) {
            for (int yy = top - 1; yy >= top - 4; yy--)
                blob(c, x, yy, z, yy == top - 1 ? 1 : 2, lv, h, 0);
        } else {
            int r = 0;
            for (int yy = top - 1; yy >= y + 2; yy--) {
                r = r >= 2 || (r == 1 && (top - yy) % 2 == 0) ? (r == 2 ? 1 : r + 1) : r + 1;
                if (r > 2) r = 1;
                blob(c, x, yy, z, r, lv, h >> 9, 0);
            }
        }
        trunk(c, x, y, z, height, BLOCK_SPRUCE_LOG);
        break;
    }
    case T_JUNGLE:
    case T_MEGA_JUNGLE: {
        int mega = k == T_MEGA_JUNGLE;
        int height = mega ? 16 + (int)(h % 10) : 6 + (int)(h % 6);
        uint16_t lv = leaves(BLOCK_JUNGLE_LEAVES);
        int top = y + height;
        for (int yy = top - 2; yy <= top + 1; yy++)
            disc(c, x, yy, z, yy > top ? 2 : (mega ? 4 : 3), lv);
        for (int dx = 0; dx <= mega; dx++)
            for (int dz = 0; dz <= mega; dz++)
                trunk(c, x + dx, y, z + dz, height, BLOCK_JUNGLE_LOG);
        break;
    }
    case T_ACACIA: {
        int height = 5 + (int)(h % 3);
        int dx = (h >> 8) & 1 ? 1 : -1, dz = (h >> 9) & 1 ? 1 : -1;
        int bend = 2 + (int)((h >> 10) % 2);
        int tx = x, tz = z;
        for (int i = 0; i < height; i++) {
            if (i >= height - bend) {
                tx += dx;
                tz += dz;
            }
            put(c, tx, y + i, tz, BLOCK_ACACIA_LOG, 1);
        }
        uint16_t lv = leaves(BLOCK_ACACIA_LEAVES);
        disc(c, tx, y + height, tz, 3, lv);
        disc(c, tx, y + height + 1, tz, 1, lv);
        break;
    }
    case T_DARK_OAK: {
        int height = 6 + (int)(h % 3);
        uint16_t lv = leaves(BLOCK_DARK_OAK_LEAVES);
        int top = y + height;
        for (int yy = top - 2; yy <= top + 1; yy++) disc(c, x, yy, z, yy > top ? 2 : 3, lv);
        for (int dx = 0; dx <= 1; dx++)
            for (int dz = 0; dz <= 1; dz++) trunk(c, x + dx, y, z + dz, height, BLOCK_DARK_OAK_LOG);
        break;
    }
    case T_CHERRY: {
        int height = 4 + (int)(h % 3);
        uint16_t lv = leaves(BLOCK_CHERRY_LEAVES);
        int top = y + height;
        for (int yy = top - 1; yy <= top + 1; yy++) disc(c, x, yy, z, yy == top + 1 ? 2 : 4, lv);
        trunk(c, x, y, z, height, BLOCK_CHERRY_LOG);
        break;
    }
    case T_HUGE_BROWN:
    case T_HUGE_RED: {
        int height = 5 + (int)(h % 3);
        int top = y + height;
        if (k == T_HUGE_BROWN) {
            disc(c, x, top, z, 3, BLOCK_BROWN_MUSHROOM_BLOCK);
        } else {
            for (int yy = top - 3; yy < top; yy++)
                for (int d = -2; d <= 2; d++) {
                    put(c, x + d, yy, z - 2, BLOCK_RED_MUSHROOM_BLOCK, 0);
                    put(c, x + d, yy, z + 2, BLOCK_RED_MUSHROOM_BLOCK, 0);
                    put(c, x - 2, yy, z + d, BLOCK_RED_MUSHROOM_BLOCK, 0);
                    put(c, x + 2, yy, z + d, BLOCK_RED_MUSHROOM_BLOCK, 0);
                }
            disc(c, x, top, z, 1, BLOCK_RED_MUSHROOM_BLOCK);
        }
        trunk(c, x, y, z, height, BLOCK_MUSHROOM_STEM);
        break;
    }
    case T_BUSH:
        put(c, x, y, z, BLOCK_JUNGLE_LOG, 1);
        blob(c, x, y, z, 2, leaves(BLOCK_OAK_LEAVES), h, 1);
        blob(c, x, y + 1, z, 1, leaves(BLOCK_OAK_LEAVES), h, 0);
        break;
    case T_NONE: break;
    }
}

/* Trees per 1000 columns and the kind, for a biome (vanilla's tree features per biome). */
static enum tree_kind tree_for(int biome, uint64_t h, unsigned *per_mille)
{
    unsigned roll = (unsigned)((h >> 32) % 100);
    *per_mille = 0;
    switch (biome) {
    case BIOME_FOREST:
        *per_mille = 40;
        return roll < 20 ? T_BIRCH : roll < 30 ? T_FANCY_OAK : T_OAK;
    case BIOME_FLOWER_FOREST:
        *per_mille = 24;
        return roll < 20 ? T_BIRCH : roll < 30 ? T_FANCY_OAK : T_OAK;
    case BIOME_BIRCH_FOREST: *per_mille = 40; return T_BIRCH;
    case BIOME_OLD_GROWTH_BIRCH_FOREST: *per_mille = 40; return roll < 50 ? T_TALL_BIRCH : T_BIRCH;
    case BIOME_DARK_FOREST:
        *per_mille = 60;
        return roll < 3    ? T_HUGE_RED
               : roll < 6  ? T_HUGE_BROWN
               : roll < 70 ? T_DARK_OAK
               : roll < 85 ? T_BIRCH
                           : T_FANCY_OAK;
    case BIOME_TAIGA:
    case BIOME_SNOWY_TAIGA:
    case BIOME_GROVE: *per_mille = 40; return roll < 33 ? T_PINE : T_SPRUCE;
    case BIOME_OLD_GROWTH_PINE_TAIGA: *per_mille = 40; return roll < 70 ? T_PINE : T_SPRUCE;
    case BIOME_OLD_GROWTH_SPRUCE_TAIGA: *per_mille = 40; return roll < 30 ? T_PINE : T_SPRUCE;
    case BIOME_WINDSWEPT_FOREST: *per_mille = 12; return roll < 66 ? T_SPRUCE : T_OAK;
    case BIOME_WINDSWEPT_HILLS:
    case BIOME_WINDSWEPT_GRAVELLY_HILLS: *per_mille = 2; return roll < 66 ? T_SPRUCE : T_OAK;
    case BIOME_JUNGLE:
        *per_mille = 120;
        return roll < 10 ? T_MEGA_JUNGLE : roll < 50 ? T_BUSH : roll < 60 ? T_FANCY_OAK : T_JUNGLE;
    case BIOME_BAMBOO_JUNGLE:
        *per_mille = 40;
        return roll < 10 ? T_MEGA_JUNGLE : roll < 60 ? T_BUSH : T_JUNGLE;
    case BIOME_SPARSE_JUNGLE: *per_mille = 10; return roll < 50 ? T_BUSH : T_JUNGLE;
    case BIOME_SAVANNA:
    case BIOME_SAVANNA_PLATEAU:
    case BIOME_WINDSWEPT_SAVANNA: *per_mille = 5; return roll < 80 ? T_ACACIA : T_OAK;
    case BIOME_PLAINS:
    case BIOME_SUNFLOWER_PLAINS: *per_mille = 1; return roll < 10 ? T_FANCY_OAK : T_OAK;
    case BIOME_MEADOW: *per_mille = 1; return roll < 50 ? T_BIRCH : T_OAK;
    case BIOME_CHERRY_GROVE: *per_mille = 30; return T_CHERRY;
    case BIOME_SWAMP: *per_mille = 8; return T_SWAMP_OAK;
    case BIOME_MANGROVE_SWAMP: *per_mille = 60; return T_MANGROVE;
    case BIOME_WOODED_BADLANDS: *per_mille = 20; return T_OAK;
    case BIOME_SNOWY_PLAINS: *per_mille = 1; return T_SPRUCE;
    case BIOME_MUSHROOM_FIELDS: *per_mille = 4; return roll < 50 ? T_HUGE_RED : T_HUGE_BROWN;
    default: return T_NONE;
    }
}

static int soil(uint16_t s)
{
    return s == BLOCK_GRASS_BLOCK || s == BLOCK_DIRT || s == BLOCK_PODZOL ||
           s == BLOCK_COARSE_DIRT || s == BLOCK_MUD || s == BLOCK_MYCELIUM ||
           s == BLOCK_SNOW_BLOCK || s == BLOCK_MOSS_BLOCK;
}

/* Highest solid block y of an own column (not air, fluid or a plant), or WG_MIN_Y - 1. */
static int own_solid_top(const struct fctx *c, int lx, int lz)
{
    const uint16_t *col = c->cols + (size_t)(lz * 16 + lx) * WG_HEIGHT;
    int y = WG_HEIGHT - 1;
    while (y >= 0 &&
           (replaceable(col[y]) || col[y] == BLOCK_WATER || col[y] == BLOCK_LAVA ||
            col[y] == BLOCK_SEAGRASS || col[y] == BLOCK_KELP || col[y] == BLOCK_KELP_PLANT ||
            col[y] == BLOCK_SUGAR_CANE || col[y] == BLOCK_CACTUS || col[y] == BLOCK_DEAD_BUSH))
        y--;
    return y + WG_MIN_Y;
}

/* Top non-air block y of an own column, or WG_MIN_Y - 1. */
static int own_top(const struct fctx *c, int lx, int lz)
{
    const uint16_t *col = c->cols + (size_t)(lz * 16 + lx) * WG_HEIGHT;
    int y = WG_HEIGHT - 1;
    while (y >= 0 && col[y] == BLOCK_AIR) y--;
    return y + WG_MIN_Y;
}

static float temperature_at(int biome, int y)
{
    float t = wg_biome_climate[biome].temperature;
    if (y > 80) t -= ((float)y - 80.0f) * 0.05f / 40.0f;
    return t;
}

static void plants(const struct fctx *c, surface_biome_fn biome, void *bctx, int top[256],
                   int bio[256])
{
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            int32_t x = c->x0 + lx, z = c->z0 + lz;
            int t = top[lz * 16 + lx];
            if (t < WG_MIN_Y || t >= WG_MIN_Y + WG_HEIGHT - 2) continue;
            int b = bio[lz * 16 + lx];
            uint16_t *col = c->cols + (size_t)(lz * 16 + lx) * WG_HEIGHT;
            uint16_t ground = col[t - WG_MIN_Y];
            uint64_t h = hash_xz((uint64_t)c->st->seed, x, z, SALT_PLANT);
            unsigned r = (unsigned)(h % 1000);
            if (ground == BLOCK_WATER) {
                /* floor under water */
                int f = t;
                while (f > WG_MIN_Y && col[f - WG_MIN_Y] == BLOCK_WATER) f--;
                int depth = t - f;
                uint16_t floor = col[f - WG_MIN_Y];
                int ocean = b == BIOME_OCEAN || b == BIOME_LUKEWARM_OCEAN ||
                            b == BIOME_WARM_OCEAN || b == BIOME_COLD_OCEAN ||
                            b == BIOME_DEEP_OCEAN || b == BIOME_DEEP_LUKEWARM_OCEAN ||
                            b == BIOME_DEEP_COLD_OCEAN;
                if (floor == BLOCK_AIR || floor == BLOCK_LAVA || depth < 2) {
                } else if (ocean && b != BIOME_WARM_OCEAN && r < 60 && depth >= 4) {
                    int len = 1 + (int)((h >> 16) % (unsigned)(depth - 2));
                    for (int i = 1; i < len; i++) col[f + i - WG_MIN_Y] = BLOCK_KELP_PLANT;
                    col[f + len - WG_MIN_Y] = BLOCK_KELP;
                } else if ((ocean || b == BIOME_RIVER) && r < 300) {
                    col[f + 1 - WG_MIN_Y] = BLOCK_SEAGRASS;
                }
                if ((b == BIOME_SWAMP || b == BIOME_MANGROVE_SWAMP) && depth <= 2 && r >= 980 &&
                    col[t + 1 - WG_MIN_Y] == BLOCK_AIR)
                    col[t + 1 - WG_MIN_Y] = BLOCK_LILY_PAD;
                continue;
            }
            if (col[t + 1 - WG_MIN_Y] != BLOCK_AIR) continue;
            uint16_t *above = &col[t + 1 - WG_MIN_Y];
            if (b == BIOME_DESERT || b == BIOME_BADLANDS || b == BIOME_ERODED_BADLANDS) {
                if (ground == BLOCK_SAND && b == BIOME_DESERT && r < 5) {
                    int hgt = 1 + (int)((h >> 20) % 3);
                    for (int i = 0; i < hgt && t + 1 + i < WG_MIN_Y + WG_HEIGHT; i++)
                        col[t + 1 + i - WG_MIN_Y] = BLOCK_CACTUS;
                } else if (r < 15 &&
                           (ground == BLOCK_SAND || ground == BLOCK_RED_SAND ||
                            strstr(block_info[block_of_state[ground]].name, "terracotta"))) {
                    *above = BLOCK_DEAD_BUSH;
                }
                continue;
            }
            /* sugar cane on sand/grass/dirt beside water at sea level */
            if ((ground == BLOCK_GRASS_BLOCK || ground == BLOCK_SAND || ground == BLOCK_DIRT) &&
                t == WG_SEA_LEVEL - 1 && r < 120) {
                int wet = 0;
                static const int8_t d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                for (int i = 0; i < 4; i++) {
                    int ax = lx + d[i][0], az = lz + d[i][1];
                    if (ax < 0 || ax > 15 || az < 0 || az > 15) continue;
                    wet |= c->cols[IDX(ax, az, t)] == BLOCK_WATER;
                }
                if (wet) {
                    int hgt = 1 + (int)((h >> 24) % 3);
                    for (int i = 0; i < hgt; i++) col[t + 1 + i - WG_MIN_Y] = BLOCK_SUGAR_CANE;
                    continue;
                }
            }
            if (ground != BLOCK_GRASS_BLOCK && ground != BLOCK_PODZOL) continue;
            unsigned grass = 60, flowers = 8;
            uint16_t plant = BLOCK_GRASS;
            switch (b) {
            case BIOME_PLAINS:
            case BIOME_SUNFLOWER_PLAINS: grass = 250, flowers = 15; break;
            case BIOME_MEADOW: grass = 300, flowers = 80; break;
            case BIOME_SAVANNA:
            case BIOME_SAVANNA_PLATEAU:
            case BIOME_WINDSWEPT_SAVANNA: grass = 350, flowers = 2; break;
            case BIOME_FLOWER_FOREST: grass = 40, flowers = 120; break;
            case BIOME_CHERRY_GROVE: grass = 150, flowers = 120; break;
            case BIOME_TAIGA:
            case BIOME_SNOWY_TAIGA:
            case BIOME_OLD_GROWTH_PINE_TAIGA:
            case BIOME_OLD_GROWTH_SPRUCE_TAIGA: grass = 120, flowers = 2, plant = BLOCK_FERN; break;
            case BIOME_JUNGLE:
            case BIOME_SPARSE_JUNGLE:
            case BIOME_BAMBOO_JUNGLE:
                grass = 250, flowers = 4, plant = (h >> 30) & 1 ? BLOCK_FERN : BLOCK_GRASS;
                break;
            case BIOME_SWAMP: grass = 60, flowers = 10; break;
            case BIOME_DARK_FOREST: grass = 40, flowers = 4; break;
            default: break;
            }
            /* double plants: lower half here, upper half (the block's first state) above */
            uint16_t tall = 0;
            unsigned k2 = (unsigned)(h >> 44) % 100;
            if (r < grass && k2 < 12)
                tall = plant == BLOCK_FERN ? BLOCK_LARGE_FERN : BLOCK_TALL_GRASS;
            else if (r >= grass && r < grass + flowers && b == BIOME_SUNFLOWER_PLAINS && k2 < 60)
                tall = BLOCK_SUNFLOWER;
            else if (r >= grass && r < grass + flowers &&
                     (b == BIOME_FLOWER_FOREST || b == BIOME_FOREST) && k2 < 25)
                tall = k2 < 8 ? BLOCK_LILAC : k2 < 16 ? BLOCK_ROSE_BUSH : BLOCK_PEONY;
            if (tall && t + 2 < WG_MIN_Y + WG_HEIGHT && col[t + 2 - WG_MIN_Y] == BLOCK_AIR) {
                *above = tall;
                col[t + 2 - WG_MIN_Y] = (uint16_t)(tall - 1);
            } else if (r < grass) {
                *above = plant;
            } else if (r < grass + flowers) {
                static const uint16_t plain[] = {BLOCK_DANDELION, BLOCK_POPPY, BLOCK_AZURE_BLUET,
                                                 BLOCK_OXEYE_DAISY, BLOCK_CORNFLOWER};
                static const uint16_t forest[] = {BLOCK_DANDELION,
                                                  BLOCK_POPPY,
                                                  BLOCK_ALLIUM,
                                                  BLOCK_AZURE_BLUET,
                                                  BLOCK_RED_TULIP,
                                                  BLOCK_ORANGE_TULIP,
                                                  BLOCK_WHITE_TULIP,
                                                  BLOCK_PINK_TULIP,
                                                  BLOCK_OXEYE_DAISY,
                                                  BLOCK_CORNFLOWER,
                                                  BLOCK_LILY_OF_THE_VALLEY};
                unsigned k = (unsigned)(h >> 40);
                if (b == BIOME_SWAMP)
                    *above = BLOCK_BLUE_ORCHID;
                else if (b == BIOME_CHERRY_GROVE)
                    *above = BLOCK_PINK_PETALS;
                else if (b == BIOME_FLOWER_FOREST || b == BIOME_MEADOW)
                    *above = forest[k % (sizeof forest / sizeof forest[0])];
                else
                    *above = plain[k % (sizeof plain / sizeof plain[0])];
            } else if (r < grass + flowers + 1 && (h >> 50) % 4 == 0) {
                *above = b == BIOME_JUNGLE ? BLOCK_MELON : BLOCK_PUMPKIN;
            } else if (r == 999 &&
                       (b == BIOME_TAIGA || b == BIOME_SNOWY_TAIGA || b == BIOME_GROVE)) {
                *above = BLOCK_SWEET_BERRY_BUSH;
            }
            (void)biome;
            (void)bctx;
        }
}

/* vanilla's freeze_top_layer: ice on cold still water, snow on cold ground. */
static void freeze(const struct fctx *c, const int bio[256])
{
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            int t = own_top(c, lx, lz);
            if (t < WG_MIN_Y || t >= WG_MIN_Y + WG_HEIGHT - 1) continue;
            int b = bio[lz * 16 + lx];
            if (!wg_biome_climate[b].precipitation || temperature_at(b, t + 1) >= 0.15f) continue;
            uint16_t *col = c->cols + (size_t)(lz * 16 + lx) * WG_HEIGHT;
            uint16_t *g = &col[t - WG_MIN_Y];
            if (*g == BLOCK_WATER) {
                *g = BLOCK_ICE;
            } else if (*g != BLOCK_ICE && *g != BLOCK_PACKED_ICE && *g != BLOCK_LAVA &&
                       !strstr(block_info[block_of_state[*g]].name, "leaves") &&
                       *g != BLOCK_CACTUS) {
                if (*g == BLOCK_GRASS || *g == BLOCK_FERN) {
                    *g = BLOCK_SNOW; /* snow replaces short plants */
                    if (col[t - 1 - WG_MIN_Y] == BLOCK_GRASS_BLOCK)
                        col[t - 1 - WG_MIN_Y] = BLOCK_GRASS_BLOCK - 1;
                    continue;
                }
                if (!(block_info[block_of_state[*g]].flags & BLOCK_FLAG_SOLID)) continue;
                col[t + 1 - WG_MIN_Y] = BLOCK_SNOW;
                if (*g == BLOCK_GRASS_BLOCK) *g = BLOCK_GRASS_BLOCK - 1; /* snowy=true */
            } else if (strstr(block_info[block_of_state[*g]].name, "leaves")) {
                col[t + 1 - WG_MIN_Y] = BLOCK_SNOW;
            }
        }
}

void features_place(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols,
                    surface_biome_fn biome, void *biome_ctx)
{
    struct fctx c = {st, x0, z0, cols, NULL};
    int top[256], bio[256];
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            top[lz * 16 + lx] = own_top(&c, lx, lz);
            bio[lz * 16 + lx] = biome(biome_ctx, x0 + lx, top[lz * 16 + lx] + 1, z0 + lz);
        }
    int solid[256];
    for (int i = 0; i < 256; i++) solid[i] = own_solid_top(&c, i & 15, i >> 4);
    plants(&c, biome, biome_ctx, top, bio);
    for (int32_t z = z0 - REACH; z < z0 + 16 + REACH; z++)
        for (int32_t x = x0 - REACH; x < x0 + 16 + REACH; x++) {
            uint64_t h = hash_xz((uint64_t)st->seed, x, z, SALT_TREE);
            if (h % 1000 >= 120) continue; /* the densest biome's chance */
            int own = x >= x0 && x < x0 + 16 && z >= z0 && z < z0 + 16;
            int g, b;
            if (own) {
                g = solid[(z - z0) * 16 + (x - x0)];
                b = bio[(z - z0) * 16 + (x - x0)];
            } else {
                int pre = wg_prelim_cached(st, x, z);
                if (pre == INT32_MAX) continue;
                b = biome(biome_ctx, x, pre, z);
                unsigned pm;
                if (tree_for(b, h, &pm) == T_NONE || h % 1000 >= pm) continue;
                g = wg_column_height_from(st, x, z, pre + 48) - 1;
            }
            unsigned per_mille;
            enum tree_kind k = tree_for(b, h, &per_mille);
            if (k == T_NONE || h % 1000 >= per_mille) continue;
            if (g < WG_SEA_LEVEL - 1) continue;
            /* the same test on both sides of a border: the noise surface, above water */
            if (own && !soil(cols[IDX(x - x0, z - z0, g)]))
                cols[IDX(x - x0, z - z0, g)] = BLOCK_DIRT;
            tree(&c, k, x, g, z, h >> 10);
        }
    freeze(&c, bio);
}

void features_draw_tree(const struct features_world *w, enum features_tree kind, int32_t x,
                        int32_t ground_y, int32_t z, uint64_t h)
{
    static const enum tree_kind kinds[] = {
        [FEATURES_TREE_OAK] = T_OAK,       [FEATURES_TREE_FANCY_OAK] = T_FANCY_OAK,
        [FEATURES_TREE_BIRCH] = T_BIRCH,   [FEATURES_TREE_SPRUCE] = T_SPRUCE,
        [FEATURES_TREE_JUNGLE] = T_JUNGLE, [FEATURES_TREE_MEGA_JUNGLE] = T_MEGA_JUNGLE,
        [FEATURES_TREE_ACACIA] = T_ACACIA, [FEATURES_TREE_DARK_OAK] = T_DARK_OAK,
        [FEATURES_TREE_CHERRY] = T_CHERRY,
    };
    if ((unsigned)kind >= sizeof kinds / sizeof kinds[0]) return;
    struct fctx c = {NULL, 0, 0, NULL, w};
    tree(&c, kinds[kind], x, ground_y, z, h);
}
