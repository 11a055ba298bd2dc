/* ores.c — see ores.h. OreFeature.place/doPlace as vanilla writes them. */
#include "world/ores.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/blocks.h"
#include "data/worldgen_ores.h"
#include "world/biome_source.h"
#include "world/noise.h"
#include "world/wg_cache.h"

#define IDX(x, z, y)          ((size_t)((z)*16 + (x)) * WG_HEIGHT + (size_t)((y)-WG_MIN_Y))
#define STEP_UNDERGROUND_ORES 6 /* GenerationStep.Decoration.UNDERGROUND_ORES */

int64_t wg_decoration_seed(wg_xoro *r, int64_t world_seed, int32_t x, int32_t z)
{
    wg_xoro_seed(r, world_seed);
    int64_t l = (int64_t)(wg_xoro_next_long(r) | 1);
    int64_t m = (int64_t)(wg_xoro_next_long(r) | 1);
    int64_t n = (int64_t)((uint64_t)(int64_t)x * (uint64_t)l + (uint64_t)(int64_t)z * (uint64_t)m) ^
                world_seed;
    wg_xoro_seed(r, n);
    return n;
}

void wg_feature_seed(wg_xoro *r, int64_t decoration_seed, int index, int step)
{
    wg_xoro_seed(
        r, (int64_t)((uint64_t)decoration_seed + (uint64_t)index + 10000ULL * (uint64_t)step));
}

struct ore_ctx {
    int32_t x0, z0;
    uint16_t *cols;
    int64_t seed;
    int top_host; /* highest y of a block any ore replaces in the chunk (WG_MIN_Y - 1: none) */
    uint32_t counts[WG_ORE_COUNT];
};

/* Whether any ore target replaces state s. */
static int any_host(uint16_t s)
{
    for (int t = 0; t < WG_ORE_TARGET_COUNT; t++)
        for (int i = 0; i < wg_ore_targets[t].replace_count; i++)
            if (wg_ore_targets[t].replaces[i] == s) return 1;
    return 0;
}

/* The highest block of the chunk an ore may replace. Ores only turn such blocks into
 * others, never create one, so no vein of the stage changes a block above it. */
static int top_host(const uint16_t *cols)
{
    int top = WG_MIN_Y - 1;
    uint16_t last_no = BLOCK_AIR; /* a state known not to be a host (most are air) */
    for (int i = 0; i < 256; i++) {
        const uint16_t *col = cols + (size_t)i * WG_HEIGHT;
        for (int y = WG_MIN_Y + WG_HEIGHT - 1; y > top; y--) {
            uint16_t b = col[y - WG_MIN_Y];
            if (b == BLOCK_AIR || b == last_no) continue;
            if (any_host(b)) {
                top = y;
                break;
            }
            last_no = b;
        }
    }
    return top;
}

static inline int in_chunk(const struct ore_ctx *c, int32_t x, int32_t y, int32_t z)
{
    return x >= c->x0 && x < c->x0 + 16 && z >= c->z0 && z < c->z0 + 16 && y >= WG_MIN_Y &&
           y < WG_MIN_Y + WG_HEIGHT;
}

static inline uint16_t *block(const struct ore_ctx *c, int32_t x, int32_t y, int32_t z)
{
    return &c->cols[IDX(x - c->x0, z - c->z0, y)];
}

static int is_air(uint16_t s)
{
    return s == BLOCK_AIR || s == BLOCK_CAVE_AIR;
}

/* OreFeature.isAdjacentToAir, with blocks outside the chunk counted as not air. */
static int adjacent_to_air(const struct ore_ctx *c, int32_t x, int32_t y, int32_t z)
{
    static const int8_t d[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    for (int i = 0; i < 6; i++) {
        int32_t ax = x + d[i][0], ay = y + d[i][1], az = z + d[i][2];
        if (in_chunk(c, ax, ay, az) && is_air(*block(c, ax, ay, az))) return 1;
    }
    return 0;
}

static int replaces(const struct wg_ore_target *t, uint16_t s)
{
    for (int i = 0; i < t->replace_count; i++)
        if (t->replaces[i] == s) return 1;
    return 0;
}

static void place_vein(struct ore_ctx *c, wg_xoro *r, const struct wg_ore_def *o, int oi,
                       int32_t px, int32_t py, int32_t pz)
{
    int size = o->size;
    float f = wg_xoro_next_float(r) * (float)M_PI;
    float g = (float)size / 8.0f;
    int i = (int)ceilf(((float)size / 16.0f * 2.0f + 1.0f) / 2.0f);
    double d = px + sin((double)f) * (double)g, e = px - sin((double)f) * (double)g;
    double h = pz + cos((double)f) * (double)g, j = pz - cos((double)f) * (double)g;
    double l = py + wg_xoro_next_int_bounded(r, 3) - 2;
    double m = py + wg_xoro_next_int_bounded(r, 3) - 2;
    int cg = (int)ceilf(g);
    int n = px - cg - i, ny = py - 2 - i, nz = pz - cg - i;
    int q = 2 * (cg + i), rr = 2 * (2 + i);
    /* (vanilla skips veins whose box lies wholly above the OCEAN_FLOOR_WG surface; not
     * applied here, the draws below are the same either way) */
    double ds[64][4];
    if (size > 64) size = 64;
    /* Every sphere lies in y ny .. ny + rr (below): a vein wholly above the chunk's highest
     * replaceable block changes nothing; it only makes its draws. */
    if (ny > c->top_host) {
        for (int k = 0; k < size; k++) wg_xoro_next_double(r);
        return;
    }
    for (int k = 0; k < size; k++) {
        float t = (float)k / (float)size;
        double s = wg_lerp(t, d, e), tt = wg_lerp(t, l, m), u = wg_lerp(t, h, j);
        double v = wg_xoro_next_double(r) * (double)size / 16.0;
        double w = ((double)(sinf((float)M_PI * t) + 1.0f) * v + 1.0) / 2.0;
        ds[k][0] = s;
        ds[k][1] = tt;
        ds[k][2] = u;
        ds[k][3] = w;
    }
    /* Nothing below draws: a vein none of whose spheres reaches this chunk is done. */
    int touches = 0;
    for (int k = 0; k < size && !touches; k++) {
        double w = ds[k][3];
        touches = ds[k][0] + w >= c->x0 && ds[k][0] - w < c->x0 + 16 && ds[k][2] + w >= c->z0 &&
                  ds[k][2] - w < c->z0 + 16;
    }
    if (!touches) return;
    /* Sphere b lies inside sphere a only if their radii differ by more than the distance
     * of their centres, which are evenly spaced along the vein's line (length len >=
     * 2g = size / 4): pairs further apart in index than the spread of the radii allows
     * (with a wide margin for rounding) cannot pass the test, and are not tried. */
    double wmin = ds[0][3], wmax = ds[0][3];
    for (int k = 1; k < size; k++) {
        if (ds[k][3] < wmin) wmin = ds[k][3];
        if (ds[k][3] > wmax) wmax = ds[k][3];
    }
    double len = sqrt((d - e) * (d - e) + (l - m) * (l - m) + (h - j) * (h - j));
    int window = len > 0.0 ? (int)((wmax - wmin + 0.01) * size / len) + 2 : size;
    for (int a = 0; a < size - 1; a++) {
        if (ds[a][3] <= 0.0) continue;
        int last = a + window < size - 1 ? a + window : size - 1;
        for (int b = a + 1; b <= last; b++) {
            if (ds[b][3] <= 0.0) continue;
            double s = ds[a][0] - ds[b][0], t = ds[a][1] - ds[b][1], u = ds[a][2] - ds[b][2];
            double v = ds[a][3] - ds[b][3];
            if (!(v * v > s * s + t * t + u * u)) continue;
            if (v > 0.0)
                ds[b][3] = -1.0;
            else
                ds[a][3] = -1.0;
        }
    }
    /* Vanilla keeps a bit set of visited blocks, so each block of the vein is tested once
     * whatever number of spheres hold it; and no block's outcome depends on another's
     * (a replaced block never becomes air or replaceable again). So the spheres are first
     * merged into one z-bit mask per (x, y) row of this chunk, then the blocks are placed.
     * Spheres wholly outside this chunk are skipped. */
    (void)q;
    uint16_t mask[16][16];
    if (rr >= 16) return; /* sizes are capped at 64 above: rr <= 14 */
    memset(mask, 0, sizeof mask);
    for (int k = 0; k < size; k++) {
        double s = ds[k][3];
        if (s < 0.0) continue;
        double t = ds[k][0], u = ds[k][1], v = ds[k][2];
        int y0 = wg_floor(t - s) > n ? wg_floor(t - s) : n;
        int z0 = wg_floor(u - s) > ny ? wg_floor(u - s) : ny;
        int a0 = wg_floor(v - s) > nz ? wg_floor(v - s) : nz;
        int y1 = wg_floor(t + s) > y0 ? wg_floor(t + s) : y0;
        int z1 = wg_floor(u + s) > z0 ? wg_floor(u + s) : z0;
        int a1 = wg_floor(v + s) > a0 ? wg_floor(v + s) : a0;
        /* Only blocks of this chunk change, and no draw depends on the others: clip. */
        if (y0 < c->x0) y0 = c->x0;
        if (y1 > c->x0 + 15) y1 = c->x0 + 15;
        if (a0 < c->z0) a0 = c->z0;
        if (a1 > c->z0 + 15) a1 = c->z0 + 15;
        if (z1 > ny + rr) z1 = ny + rr;         /* (the spheres lie inside the box) */
        if (z1 > c->top_host) z1 = c->top_host; /* nothing above it can change */
        for (int bx = y0; bx <= y1; bx++) {
            double af = ((double)bx + 0.5 - t) / s;
            if (!(af * af < 1.0)) continue;
            for (int by = z0; by <= z1; by++) {
                double ah = ((double)by + 0.5 - u) / s;
                double r2 = af * af + ah * ah;
                if (!(r2 < 1.0)) continue;
                /* The computed test grows with |z + 0.5 - v|, so the z inside form one
                 * run: find its ends from a block outside the analytic bounds inwards. */
                double half = s * sqrt(1.0 - r2);
                int za = wg_floor(v - 0.5 - half) - 1, zb = wg_floor(v - 0.5 + half) + 1;
                if (za < a0) za = a0;
                if (zb > a1) zb = a1;
#define INSIDE(z) (r2 + (((double)(z) + 0.5 - v) / s) * (((double)(z) + 0.5 - v) / s) < 1.0)
                while (za <= zb && !INSIDE(za)) za++;
                while (zb >= za && !INSIDE(zb)) zb--;
#undef INSIDE
                if (za > zb) continue;
                int lo = za - c->z0, hi = zb - c->z0;
                mask[bx - c->x0][by - ny] |= (uint16_t)(((1u << (hi - lo + 1)) - 1u) << lo);
            }
        }
    }
    for (int bx = 0; bx < 16; bx++)
        for (int j = 0; j <= rr; j++) {
            uint32_t bits = mask[bx][j];
            int by = ny + j;
            if (!bits || by < WG_MIN_Y || by >= WG_MIN_Y + WG_HEIGHT) continue;
            while (bits) {
                int bz = __builtin_ctz(bits);
                bits &= bits - 1;
                int32_t wx = c->x0 + bx, wz = c->z0 + bz;
                uint16_t *b = block(c, wx, by, wz);
                for (int ti = 0; ti < o->target_count; ti++) {
                    const struct wg_ore_target *tg = &wg_ore_targets[o->first_target + ti];
                    if (!replaces(tg, *b)) continue;
                    float chance = o->discard_on_air;
                    int skip_check = chance <= 0.0f;
                    if (!skip_check && chance < 1.0f) {
                        uint64_t hh = hash_xz((uint64_t)c->seed, wx, wz, (uint32_t)(by * 31 + oi));
                        skip_check = (float)(hh >> 40) * 5.9604645E-8f >= chance;
                    }
                    if (!skip_check && adjacent_to_air(c, wx, by, wz)) continue;
                    *b = tg->state;
                    c->counts[oi]++;
                    break;
                }
            }
        }
}

static int biome_allows(const struct wg_ore_def *o, int biome)
{
    if (o->biome_rule == 0) return 1;
    int listed = 0;
    for (int i = 0; i < o->biome_count; i++) listed |= o->biomes[i] == biome;
    return o->biome_rule == 1 ? listed : !listed;
}

/* How far a vein of this size can reach from its origin (for culling). */
static int reach(int size)
{
    int i = (int)ceilf(((float)size / 16.0f * 2.0f + 1.0f) / 2.0f);
    return (int)ceilf((float)size / 8.0f) + i + 1;
}

/* The origin chunk's biomes for the biome-restricted features (see ores_place); each
 * chunk's are asked for by its 8 neighbours too, so they are cached (wg_cache.h). */
static void origin_biomes(wg_pt *p, int32_t cx0, int32_t cz0, int *surface, int *cave)
{
    int32_t v[2];
    if (!wg_memo_get(p->st, WG_MEMO_ORE_BIOMES, cx0, cz0, v)) {
        int last = -1;
        v[0] = wg_biome_at(p, (cx0 + 8) >> 2, 64 >> 2, (cz0 + 8) >> 2, &last);
        last = -1;
        v[1] = wg_biome_at(p, (cx0 + 8) >> 2, 0, (cz0 + 8) >> 2, &last);
        wg_memo_put(p->st, WG_MEMO_ORE_BIOMES, cx0, cz0, v);
    }
    *surface = v[0];
    *cave = v[1];
}

static int allowed_in(const struct wg_ore_def *o, int surface, int cave)
{
    return biome_allows(o, !strncmp(o->name, "ore_copper", 10) ? cave : surface);
}

void ores_allowed(const wg_state *st, int32_t x0, int32_t z0, uint8_t *allowed)
{
    wg_pt p;
    wg_pt_init(&p, st);
    int surface, cave;
    origin_biomes(&p, x0, z0, &surface, &cave);
    for (int i = 0; i < WG_ORE_COUNT; i++)
        allowed[i] = (uint8_t)allowed_in(&wg_ores[i], surface, cave);
}

void ores_place(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols, surface_biome_fn biome,
                void *biome_ctx)
{
    (void)biome;
    (void)biome_ctx;
    struct ore_ctx c = {.x0 = x0, .z0 = z0, .cols = cols, .seed = st->seed};
    c.top_host = top_host(cols);
    wg_pt p;
    wg_pt_init(&p, st);
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) {
            int32_t cx0 = x0 + dx * 16, cz0 = z0 + dz * 16;
            /* Biome-restricted features (emerald, badlands gold, dripstone copper) test the
             * origin chunk's noise biome at its centre (y 64, or y 0 for the cave biome),
             * not each vein's: one lookup per chunk, and the same answer from every
             * chunk that draws these veins. */
            int surface_biome, cave_biome;
            origin_biomes(&p, cx0, cz0, &surface_biome, &cave_biome);
            wg_xoro r;
            int64_t dec = wg_decoration_seed(&r, st->seed, cx0, cz0);
            for (int oi = 0; oi < WG_ORE_COUNT; oi++) {
                const struct wg_ore_def *o = &wg_ores[oi];
                if (!allowed_in(o, surface_biome, cave_biome)) continue;
                wg_feature_seed(&r, dec, oi, STEP_UNDERGROUND_ORES);
                int n = o->count_min;
                if (o->count_max > o->count_min)
                    n = wg_xoro_next_int_bounded(&r, o->count_max - o->count_min + 1) +
                        o->count_min;
                if (o->rarity > 0) n = wg_xoro_next_float(&r) < 1.0f / (float)o->rarity ? 1 : 0;
                int rch = reach(o->size);
                for (int k = 0; k < n; k++) {
                    int32_t px = cx0 + wg_xoro_next_int_bounded(&r, 16);
                    int32_t pz = cz0 + wg_xoro_next_int_bounded(&r, 16);
                    int32_t py;
                    if (o->trapezoid) {
                        int span = o->y_max - o->y_min, mm = span / 2, nn = span - mm;
                        py = o->y_min + wg_xoro_next_int_bounded(&r, nn + 1) +
                             wg_xoro_next_int_bounded(&r, mm + 1);
                    } else {
                        py = o->y_min + wg_xoro_next_int_bounded(&r, o->y_max - o->y_min + 1);
                    }
                    int near = px + rch >= x0 && px - rch < x0 + 16 && pz + rch >= z0 &&
                               pz - rch < z0 + 16;
                    if (near) {
                        place_vein(&c, &r, o, oi, px, py, pz);
                    } else {
                        /* a vein that cannot reach this chunk: make its draws only */
                        wg_xoro_next_float(&r);
                        wg_xoro_next_int_bounded(&r, 3);
                        wg_xoro_next_int_bounded(&r, 3);
                        for (int s = 0; s < o->size; s++) wg_xoro_next_double(&r);
                    }
                }
            }
        }
}
