/* surface.c — see surface.h. */
#include "world/surface.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "data/biomes.h"
#include "data/blocks.h"

#define IDX(x, z, y) ((size_t)((z)*16 + (x)) * WG_HEIGHT + (size_t)((y)-WG_MIN_Y))
#define NO_WATER     INT_MIN

static int xoro_between(wg_xoro *r, int lo, int hi)
{
    return wg_xoro_next_int_bounded(r, hi - lo + 1) + lo;
}

static void make_bands(wg_xoro *r, uint16_t *b, int min_size, uint16_t state)
{
    int n = xoro_between(r, 6, 15);
    for (int j = 0; j < n; j++) {
        int k = min_size + wg_xoro_next_int_bounded(r, 3);
        int l = wg_xoro_next_int_bounded(r, 192);
        for (int m = 0; l + m < 192 && m < k; m++) b[l + m] = state;
    }
}

void surface_clay_bands(const wg_state *st, uint16_t b[192])
{
    wg_xoro r;
    wg_xoro_from_hash(&r, &st->random, WG_MD5_CLAY_BANDS_LO, WG_MD5_CLAY_BANDS_HI);
    for (int i = 0; i < 192; i++) b[i] = BLOCK_TERRACOTTA;
    for (int i = 0; i < 192; i++) {
        i += wg_xoro_next_int_bounded(&r, 5) + 1;
        if (i < 192) b[i] = BLOCK_ORANGE_TERRACOTTA;
    }
    make_bands(&r, b, 1, BLOCK_YELLOW_TERRACOTTA);
    make_bands(&r, b, 2, BLOCK_BROWN_TERRACOTTA);
    make_bands(&r, b, 1, BLOCK_RED_TERRACOTTA);
    int j = xoro_between(&r, 9, 15);
    int k = 0;
    for (int l = 0; k < j && l < 192; l += wg_xoro_next_int_bounded(&r, 16) + 4) {
        b[l] = BLOCK_WHITE_TERRACOTTA;
        if (l - 1 > 0 && (wg_xoro_next_long(&r) & 1)) b[l - 1] = BLOCK_LIGHT_GRAY_TERRACOTTA;
        if (l + 1 < 192 && (wg_xoro_next_long(&r) & 1)) b[l + 1] = BLOCK_LIGHT_GRAY_TERRACOTTA;
        k++;
    }
}

/* Per-block context of the rules (vanilla's SurfaceRules.Context). */
struct ctx {
    const wg_state *st;
    int32_t x, y, z;
    int biome;
    int depth_above, depth_below; /* stone depth above / below, counting this block */
    int water;                    /* y + 1 of the water surface above, or NO_WATER */
    int surface_depth;
    double secondary; /* surface_secondary noise */
    double surface;   /* surface noise (for surfaceNoiseAbove) */
    int steep;
    const uint16_t *bands;
};

static double surface_noise(const wg_state *st, int n, int32_t x, int32_t z)
{
    return wg_normal_value(&st->noise[n], x, 0.0, z);
}

static int on_floor(const struct ctx *c)
{
    return c->depth_above <= 1;
}
static int under_floor(const struct ctx *c)
{
    return c->depth_above <= 1 + c->surface_depth;
}
static int deep_under_floor(const struct ctx *c)
{
    int k = (int)wg_clamped_map(c->secondary, -1.0, 1.0, 0.0, 6.0);
    return c->depth_above <= 1 + c->surface_depth + k;
}
static int on_ceiling(const struct ctx *c)
{
    return c->depth_below <= 1;
}
/* SurfaceRules.waterBlockCheck / waterStartCheck */
static int water_check(const struct ctx *c, int offset, int mult, int add_stone)
{
    if (c->water == NO_WATER) return 1;
    return c->y + (add_stone ? c->depth_above : 0) >= c->water + offset + c->surface_depth * mult;
}
static int y_above(const struct ctx *c, int y, int mult, int add_stone)
{
    return c->y + (add_stone ? c->depth_above : 0) >= y + c->surface_depth * mult;
}
static int noise_in(const struct ctx *c, int n, double lo, double hi)
{
    double v = surface_noise(c->st, n, c->x, c->z);
    return v >= lo && v <= hi;
}
static int surface_above(const struct ctx *c, double d)
{
    return c->surface >= d / 8.25;
}
static int is(const struct ctx *c, int b)
{
    return c->biome == b;
}
static int hole(const struct ctx *c)
{
    return c->surface_depth <= 0;
}

/* Sand on floors, sandstone on ceilings (vanilla's rulesource7). */
static uint16_t sand_rule(const struct ctx *c)
{
    return on_ceiling(c) ? BLOCK_SANDSTONE : BLOCK_SAND;
}
static uint16_t gravel_rule(const struct ctx *c)
{
    return on_ceiling(c) ? BLOCK_STONE : BLOCK_GRAVEL;
}
static uint16_t grass_or_dirt(const struct ctx *c)
{
    return water_check(c, 0, 0, 0) ? BLOCK_GRASS_BLOCK : BLOCK_DIRT;
}

/* The biome-specific stone/sand part shared by both floor rules (rulesource9). */
static uint16_t shared_rules(const struct ctx *c)
{
    if (is(c, BIOME_STONY_PEAKS))
        return noise_in(c, WG_NOISE_CALCITE, -0.0125, 0.0125) ? BLOCK_CALCITE : BLOCK_STONE;
    if (is(c, BIOME_STONY_SHORE))
        return noise_in(c, WG_NOISE_GRAVEL, -0.05, 0.05) ? gravel_rule(c) : BLOCK_STONE;
    if (is(c, BIOME_WINDSWEPT_HILLS) && surface_above(c, 1.0)) return BLOCK_STONE;
    if (is(c, BIOME_WARM_OCEAN) || is(c, BIOME_BEACH) || is(c, BIOME_SNOWY_BEACH) ||
        is(c, BIOME_DESERT))
        return sand_rule(c);
    if (is(c, BIOME_DRIPSTONE_CAVES)) return BLOCK_STONE;
    return 0;
}

/* The noise bands in which the block under the top (vanilla's rulesource12)
 * and the top itself (rulesource13) differ in the snowy peaks; the rules
 * around them are the same. */
struct snow_bands {
    double packed_ice_lo, ice_lo; /* frozen peaks: up to 0.2 and 0.025 */
    double powder_lo, powder_hi;  /* snowy slopes and grove */
};

static const struct snow_bands under_bands = {-0.5, -0.0625, 0.45, 0.58};
static const struct snow_bands floor_bands = {0.0, 0.0, 0.35, 0.6};

static int powder_snow(const struct ctx *c, const struct snow_bands *b)
{
    return noise_in(c, WG_NOISE_POWDER_SNOW, b->powder_lo, b->powder_hi) && water_check(c, 0, 0, 0);
}

/* Frozen peaks and snowy slopes, as both rules have them; 0: another biome,
 * or none of its rules held. */
static uint16_t snowy_peaks(const struct ctx *c, const struct snow_bands *b)
{
    if (is(c, BIOME_FROZEN_PEAKS)) {
        if (c->steep) return BLOCK_PACKED_ICE;
        if (noise_in(c, WG_NOISE_PACKED_ICE, b->packed_ice_lo, 0.2)) return BLOCK_PACKED_ICE;
        if (noise_in(c, WG_NOISE_ICE, b->ice_lo, 0.025)) return BLOCK_ICE;
        if (water_check(c, 0, 0, 0)) return BLOCK_SNOW_BLOCK;
    } else if (is(c, BIOME_SNOWY_SLOPES)) {
        if (c->steep) return BLOCK_STONE;
        if (powder_snow(c, b)) return BLOCK_POWDER_SNOW;
        if (water_check(c, 0, 0, 0)) return BLOCK_SNOW_BLOCK;
    }
    return 0;
}

/* Under the top block (vanilla's rulesource12). */
static uint16_t under_rules(const struct ctx *c)
{
    uint16_t s = snowy_peaks(c, &under_bands);
    if (s) return s;
    if (is(c, BIOME_JAGGED_PEAKS)) return BLOCK_STONE;
    if (is(c, BIOME_GROVE)) return powder_snow(c, &under_bands) ? BLOCK_POWDER_SNOW : BLOCK_DIRT;
    s = shared_rules(c);
    if (s) return s;
    if (is(c, BIOME_WINDSWEPT_SAVANNA) && surface_above(c, 1.75)) return BLOCK_STONE;
    if (is(c, BIOME_WINDSWEPT_GRAVELLY_HILLS)) {
        if (surface_above(c, 2.0)) return gravel_rule(c);
        if (surface_above(c, 1.0)) return BLOCK_STONE;
        if (surface_above(c, -1.0)) return BLOCK_DIRT;
        return gravel_rule(c);
    }
    if (is(c, BIOME_MANGROVE_SWAMP)) return BLOCK_MUD;
    return BLOCK_DIRT;
}

/* The top block above water (vanilla's rulesource13). */
static uint16_t floor_rules(const struct ctx *c)
{
    uint16_t s = snowy_peaks(c, &floor_bands);
    if (s) return s;
    if (is(c, BIOME_JAGGED_PEAKS)) {
        if (c->steep) return BLOCK_STONE;
        if (water_check(c, 0, 0, 0)) return BLOCK_SNOW_BLOCK;
    } else if (is(c, BIOME_GROVE)) {
        if (powder_snow(c, &floor_bands)) return BLOCK_POWDER_SNOW;
        if (water_check(c, 0, 0, 0)) return BLOCK_SNOW_BLOCK;
    }
    s = shared_rules(c);
    if (s) return s;
    if (is(c, BIOME_WINDSWEPT_SAVANNA)) {
        if (surface_above(c, 1.75)) return BLOCK_STONE;
        if (surface_above(c, -0.5)) return BLOCK_COARSE_DIRT;
    }
    if (is(c, BIOME_WINDSWEPT_GRAVELLY_HILLS)) {
        if (surface_above(c, 2.0)) return gravel_rule(c);
        if (surface_above(c, 1.0)) return BLOCK_STONE;
        if (surface_above(c, -1.0)) return grass_or_dirt(c);
        return gravel_rule(c);
    }
    if (is(c, BIOME_OLD_GROWTH_PINE_TAIGA) || is(c, BIOME_OLD_GROWTH_SPRUCE_TAIGA)) {
        if (surface_above(c, 1.75)) return BLOCK_COARSE_DIRT;
        if (surface_above(c, -0.95)) return BLOCK_PODZOL;
    }
    if (is(c, BIOME_ICE_SPIKES) && water_check(c, 0, 0, 0)) return BLOCK_SNOW_BLOCK;
    if (is(c, BIOME_MANGROVE_SWAMP)) return BLOCK_MUD;
    if (is(c, BIOME_MUSHROOM_FIELDS)) return BLOCK_MYCELIUM;
    return grass_or_dirt(c);
}

static uint16_t band(const struct ctx *c)
{
    int i = (int)floor(surface_noise(c->st, WG_NOISE_CLAY_BANDS_OFFSET, c->x, c->z) * 4.0 + 0.5);
    return c->bands[((c->y + i) % 192 + 192) % 192];
}

/* The whole overworld rule for one stone block above the preliminary surface; 0: keep stone. */
static uint16_t rule(const struct ctx *c)
{
    int badlands =
        is(c, BIOME_BADLANDS) || is(c, BIOME_ERODED_BADLANDS) || is(c, BIOME_WOODED_BADLANDS);
    if (on_floor(c)) {
        if (is(c, BIOME_WOODED_BADLANDS) && y_above(c, 97, 2, 0)) {
            if (noise_in(c, WG_NOISE_SURFACE, -0.909, -0.5454) ||
                noise_in(c, WG_NOISE_SURFACE, -0.1818, 0.1818) ||
                noise_in(c, WG_NOISE_SURFACE, 0.5454, 0.909))
                return BLOCK_COARSE_DIRT;
            return grass_or_dirt(c);
        }
        if (is(c, BIOME_SWAMP) && y_above(c, 62, 0, 0) && !y_above(c, 63, 0, 0) &&
            surface_noise(c->st, WG_NOISE_SURFACE_SWAMP, c->x, c->z) >= 0.0)
            return BLOCK_WATER;
        if (is(c, BIOME_MANGROVE_SWAMP) && y_above(c, 60, 0, 0) && !y_above(c, 63, 0, 0) &&
            surface_noise(c->st, WG_NOISE_SURFACE_SWAMP, c->x, c->z) >= 0.0)
            return BLOCK_WATER;
    }
    if (badlands) {
        if (on_floor(c)) {
            if (y_above(c, 256, 0, 0)) return BLOCK_ORANGE_TERRACOTTA;
            if (y_above(c, 74, 1, 1)) {
                if (noise_in(c, WG_NOISE_SURFACE, -0.909, -0.5454) ||
                    noise_in(c, WG_NOISE_SURFACE, -0.1818, 0.1818) ||
                    noise_in(c, WG_NOISE_SURFACE, 0.5454, 0.909))
                    return BLOCK_TERRACOTTA;
                return band(c);
            }
            if (water_check(c, -1, 0, 0))
                return on_ceiling(c) ? BLOCK_RED_SANDSTONE : BLOCK_RED_SAND;
            if (!hole(c)) return BLOCK_ORANGE_TERRACOTTA;
            if (water_check(c, -6, -1, 1)) return BLOCK_WHITE_TERRACOTTA;
            return gravel_rule(c);
        }
        if (y_above(c, 63, -1, 1)) {
            if (y_above(c, 63, 0, 0) && !y_above(c, 74, 1, 1)) return BLOCK_ORANGE_TERRACOTTA;
            return band(c);
        }
        if (under_floor(c) && water_check(c, -6, -1, 1)) return BLOCK_WHITE_TERRACOTTA;
    }
    if (on_floor(c) && water_check(c, -1, 0, 0)) {
        if ((is(c, BIOME_FROZEN_OCEAN) || is(c, BIOME_DEEP_FROZEN_OCEAN)) && hole(c))
            return c->y >= WG_SEA_LEVEL - 1 ? BLOCK_AIR : BLOCK_WATER;
        return floor_rules(c);
    }
    if (water_check(c, -6, -1, 1)) {
        if (on_floor(c) && (is(c, BIOME_FROZEN_OCEAN) || is(c, BIOME_DEEP_FROZEN_OCEAN)) && hole(c))
            return BLOCK_WATER;
        if (under_floor(c)) return under_rules(c);
        if ((is(c, BIOME_BEACH) || is(c, BIOME_SNOWY_BEACH)) && deep_under_floor(c))
            return BLOCK_SANDSTONE;
        if (is(c, BIOME_DESERT) && deep_under_floor(c)) return BLOCK_SANDSTONE;
    }
    if (on_floor(c)) {
        if (is(c, BIOME_FROZEN_PEAKS) || is(c, BIOME_JAGGED_PEAKS)) return BLOCK_STONE;
        if (is(c, BIOME_WARM_OCEAN) || is(c, BIOME_LUKEWARM_OCEAN) ||
            is(c, BIOME_DEEP_LUKEWARM_OCEAN))
            return sand_rule(c);
        return gravel_rule(c);
    }
    return 0;
}

/* vanilla's VerticalGradientConditionSource: true below lo, false from hi, random between. */
static int gradient(const wg_xoro_factory *f, int32_t x, int32_t y, int32_t z, int lo, int hi)
{
    if (y <= lo) return 1;
    if (y >= hi) return 0;
    double d = 1.0 + (double)(y - lo) / (double)(hi - lo) * (0.0 - 1.0);
    wg_xoro r;
    wg_xoro_at(&r, f, x, y, z);
    return (double)wg_xoro_next_float(&r) < d;
}

static int is_fluid(uint16_t s)
{
    return s == BLOCK_WATER || s == BLOCK_LAVA;
}

void surface_build(const struct surface_input *in)
{
    const wg_state *st = in->st;
    uint16_t bands[192];
    surface_clay_bands(st, bands);
    wg_xoro r;
    wg_xoro_factory bedrock, deepslate;
    wg_xoro_from_hash(&r, &st->random, WG_MD5_BEDROCK_FLOOR_LO, WG_MD5_BEDROCK_FLOOR_HI);
    bedrock = wg_xoro_fork(&r);
    wg_xoro_from_hash(&r, &st->random, WG_MD5_DEEPSLATE_LO, WG_MD5_DEEPSLATE_HI);
    deepslate = wg_xoro_fork(&r);
    int top[256];
    for (int i = 0; i < 256; i++) {
        int y = WG_MIN_Y + WG_HEIGHT - 1;
        const uint16_t *col = in->cols + (size_t)i * WG_HEIGHT;
        while (y >= WG_MIN_Y && col[y - WG_MIN_Y] == BLOCK_AIR) y--;
        top[i] = y; /* WORLD_SURFACE_WG - 1 */
    }
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            struct ctx c;
            memset(&c, 0, sizeof c);
            c.st = st;
            c.bands = bands;
            c.x = in->x0 + lx;
            c.z = in->z0 + lz;
            uint16_t *col = in->cols + (size_t)(lz * 16 + lx) * WG_HEIGHT;
            int t = top[lz * 16 + lx];
            c.biome = in->biome(in->biome_ctx, c.x, t, c.z); /* the top block's biome */
            /* SurfaceSystem.getSurfaceDepth */
            wg_xoro nr;
            wg_xoro_at(&nr, &st->random, c.x, 0, c.z);
            c.surface = surface_noise(st, WG_NOISE_SURFACE, c.x, c.z);
            c.surface_depth = (int)(c.surface * 2.75 + 3.0 + wg_xoro_next_double(&nr) * 0.25);
            c.secondary = surface_noise(st, WG_NOISE_SURFACE_SECONDARY, c.x, c.z);
            {
                int k0 = lz > 0 ? lz - 1 : 0, k1 = lz < 15 ? lz + 1 : 15;
                int i0 = lx > 0 ? lx - 1 : 0, i1 = lx < 15 ? lx + 1 : 15;
                c.steep = top[k1 * 16 + lx] >= top[k0 * 16 + lx] + 4 ||
                          top[lz * 16 + i0] >= top[lz * 16 + i1] + 4;
            }
            int min_surface = in->prelim[lz * 16 + lx] + c.surface_depth - 8;
            int depth = 0, water = NO_WATER, stone_below_from = INT_MAX;
            /* the rules change only stone at min_surface or above, and what the loop
             * tracks (depth, water, stone below) serves only those: stop there */
            int y_end = min_surface > WG_MIN_Y ? min_surface : WG_MIN_Y;
            for (int y = t; y >= y_end; y--) {
                uint16_t s = col[y - WG_MIN_Y];
                if (s == BLOCK_AIR) {
                    depth = 0;
                    water = NO_WATER;
                    continue;
                }
                if (is_fluid(s)) {
                    if (water == NO_WATER) water = y + 1;
                    continue;
                }
                if (stone_below_from >= y) {
                    stone_below_from = WG_MIN_Y - 1 - 2032;
                    for (int u = y - 1; u >= WG_MIN_Y - 1; u--) {
                        if (u >= WG_MIN_Y && col[u - WG_MIN_Y] == BLOCK_STONE) continue;
                        stone_below_from = u + 1;
                        break;
                    }
                }
                depth++;
                if (s != BLOCK_STONE || y < min_surface) continue;
                c.y = y;
                c.depth_above = depth;
                c.depth_below = y - stone_below_from + 1;
                c.water = water;
                uint16_t v = rule(&c);
                if (v) col[y - WG_MIN_Y] = v;
            }
            /* The rules' tail: bedrock floor and the deepslate transition. */
            for (int y = WG_MIN_Y; y < 8; y++) {
                uint16_t *b = &col[y - WG_MIN_Y];
                if (y < WG_MIN_Y + 5 && *b == BLOCK_STONE &&
                    gradient(&bedrock, c.x, y, c.z, WG_MIN_Y, WG_MIN_Y + 5)) {
                    *b = BLOCK_BEDROCK;
                    continue;
                }
                if (*b == BLOCK_STONE && gradient(&deepslate, c.x, y, c.z, 0, 8))
                    *b = BLOCK_DEEPSLATE;
            }
        }
}
