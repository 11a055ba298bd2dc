/* aquifer.c — see aquifer.h. Follows vanilla 1.20.1's Aquifer.NoiseBasedAquifer. */
#include "world/aquifer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world/noise_chunk.h"
#include "world/wg_cache.h"

static const int8_t SAMPLE_OFFSETS[13][2] = {{0, 0},  {-2, -1}, {-1, -1}, {0, -1}, {1, -1},
                                             {-3, 0}, {-2, 0},  {-1, 0},  {1, 0},  {-2, 1},
                                             {-1, 1}, {0, 1},   {1, 1}};

static inline int32_t floor_div(int32_t a, int32_t b)
{
    int32_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Vanilla keeps the centres as packed BlockPos longs (26 bits x and z, 12 bits y);
 * every centre fits those fields, so the unpacked ints kept here are the same values. */

void wg_aquifer_init(wg_aquifer *a, const wg_state *st, int32_t cx, int32_t cz)
{
    a->st = st;
    wg_pt_init(&a->p, st);
    a->p.snap_x0 = cx * 4;
    a->p.snap_z0 = cz * 4;
    a->p.snap_n = 4;
    a->min_gx = floor_div(cx * 16, 16) - 1;
    a->min_gy = floor_div(WG_MIN_Y, 12) - 1;
    a->min_gz = floor_div(cz * 16, 16) - 1;
    /* every cell's centre: vanilla's positional random of the cell */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < WG_AQ_GRID_Y; j++)
            for (int k = 0; k < 3; k++) {
                int32_t gx = a->min_gx + i, gy = a->min_gy + j, gz = a->min_gz + k;
                wg_xoro rs;
                wg_xoro_at(&rs, &st->aquifer, gx, gy, gz);
                int32_t *c = a->centre[(i * WG_AQ_GRID_Y + j) * 3 + k];
                c[0] = gx * 16 + wg_xoro_next_int_bounded(&rs, 10);
                c[1] = gy * 12 + wg_xoro_next_int_bounded(&rs, 9);
                c[2] = gz * 16 + wg_xoro_next_int_bounded(&rs, 10);
            }
    memset(a->have_status, 0, sizeof a->have_status);
    memset(a->prelim_used, 0, sizeof a->prelim_used);
}

int wg_aquifer_prelim(wg_aquifer *a, int32_t x, int32_t z)
{
    int32_t qx = x >> 2, qz = z >> 2;
    uint32_t h = ((uint32_t)qx * 73856093u ^ (uint32_t)qz * 19349663u) & (WG_AQ_PRELIM - 1);
    for (int n = 0; n < WG_AQ_PRELIM; n++, h = (h + 1) & (WG_AQ_PRELIM - 1)) {
        if (!a->prelim_used[h]) {
            a->prelim_used[h] = 1;
            a->prelim_key_x[h] = qx;
            a->prelim_key_z[h] = qz;
            return a->prelim_val[h] = wg_prelim_cached(a->st, x, z);
        }
        if (a->prelim_key_x[h] == qx && a->prelim_key_z[h] == qz) return a->prelim_val[h];
    }
    return wg_prelim_cached(a->st, x, z); /* table full */
}

/* The global fluid picker: lava below -54, else the sea up to sea level. */
static struct wg_fluid_status global_fluid(int32_t y)
{
    if (y < (-54 < WG_SEA_LEVEL ? -54 : WG_SEA_LEVEL))
        return (struct wg_fluid_status){-54, WG_AQ_LAVA};
    return (struct wg_fluid_status){WG_SEA_LEVEL, WG_AQ_WATER};
}

static inline int status_at(struct wg_fluid_status s, int32_t y)
{
    return y < s.level ? (int)s.fluid : WG_AQ_AIR;
}

static double router_at(wg_aquifer *a, double (*f)(wg_pt *), int32_t x, int32_t y, int32_t z)
{
    wg_pt_at(&a->p, x, y, z);
    return f(&a->p);
}

static int compute_surface_level(wg_aquifer *a, int32_t x, int32_t y, int32_t z,
                                 struct wg_fluid_status fs, int lowest, int flooded)
{
    double d, e;
    wg_pt_at(&a->p, x, y, z);
    /* OverworldBiomeBuilder.isDeepDarkRegion */
    if (wg_router_erosion(&a->p) < (double)-0.225f && wg_router_depth(&a->p) > (double)0.9f) {
        d = -1.0;
        e = -1.0;
    } else {
        int j = lowest + 8 - y;
        double f = flooded ? wg_clamped_map((double)j, 0.0, 64.0, 1.0, 0.0) : 0.0;
        double g = wg_clamp(wg_router_fluid_level_floodedness(&a->p), -1.0, 1.0);
        /* Mth.map(f, 1, 0, a, b) = a + (f - 1) / (0 - 1) * (b - a) */
        double h = -0.3 + (f - 1.0) / (0.0 - 1.0) * (0.8 - -0.3);
        double k = -0.8 + (f - 1.0) / (0.0 - 1.0) * (0.4 - -0.8);
        d = g - k;
        e = g - h;
    }
    if (e > 0.0) return fs.level;
    if (d > 0.0) {
        /* computeRandomizedFluidSurfaceLevel */
        int32_t l = floor_div(x, 16), m = floor_div(y, 40), n = floor_div(z, 16);
        int o = m * 40 + 20;
        double s = router_at(a, wg_router_fluid_level_spread, l, m, n) * 10.0;
        int q = wg_floor(s / 3.0) * 3;
        int r = o + q;
        return lowest < r ? lowest : r;
    }
    return WG_WAY_BELOW;
}

static struct wg_fluid_status compute_fluid(wg_aquifer *a, int32_t x, int32_t y, int32_t z)
{
    struct wg_fluid_status fs = global_fluid(y);
    int lowest = INT32_MAX, m = y + 12, n = y - 12, flooded = 0;
    for (int i = 0; i < 13; i++) {
        int32_t o = x + SAMPLE_OFFSETS[i][0] * 16, pz = z + SAMPLE_OFFSETS[i][1] * 16;
        int q = wg_aquifer_prelim(a, o, pz);
        int r = q + 8;
        int own = SAMPLE_OFFSETS[i][0] == 0 && SAMPLE_OFFSETS[i][1] == 0;
        if (own && n > r) return fs;
        int above = m > r;
        if (above || own) {
            struct wg_fluid_status fs2 = global_fluid(r);
            if (status_at(fs2, r) != WG_AQ_AIR) {
                if (own) flooded = 1;
                if (above) return fs2;
            }
        }
        if (q < lowest) lowest = q;
    }
    int s = compute_surface_level(a, x, y, z, fs, lowest, flooded);
    uint8_t fluid = fs.fluid;
    if (s <= -10 && s != WG_WAY_BELOW && fs.fluid != WG_AQ_LAVA) {
        int32_t l = floor_div(x, 64), mm = floor_div(y, 40), nn = floor_div(z, 64);
        if (fabs(router_at(a, wg_router_lava, l, mm, nn)) > 0.3) fluid = WG_AQ_LAVA;
    }
    return (struct wg_fluid_status){s, fluid};
}

/* The status of cell c (its centre lies in it, so vanilla's lookup by the centre's
 * cell finds this one). */
static struct wg_fluid_status aquifer_status(wg_aquifer *a, int c)
{
    if (!a->have_status[c]) {
        a->status[c] = compute_fluid(a, a->centre[c][0], a->centre[c][1], a->centre[c][2]);
        a->have_status[c] = 1;
    }
    return a->status[c];
}

static inline double similarity(int a, int b)
{
    return 1.0 - (double)abs(b - a) / 25.0;
}

static double pressure(wg_aquifer *a, int32_t x, int32_t y, int32_t z, double *barrier,
                       struct wg_fluid_status s1, struct wg_fluid_status s2)
{
    int b1 = status_at(s1, y), b2 = status_at(s2, y);
    if ((b1 == WG_AQ_LAVA && b2 == WG_AQ_WATER) || (b1 == WG_AQ_WATER && b2 == WG_AQ_LAVA))
        return 2.0;
    int j = abs(s1.level - s2.level);
    if (j == 0) return 0.0;
    double d = 0.5 * (double)(s1.level + s2.level);
    double e = (double)y + 0.5 - d;
    double f = (double)j / 2.0;
    double o = f - fabs(e);
    double q;
    if (e > 0.0) {
        double p = 0.0 + o;
        q = p > 0.0 ? p / 1.5 : p / 2.5;
    } else {
        double p = 3.0 + o;
        q = p > 0.0 ? p / 3.0 : p / 10.0;
    }
    double s = 0.0;
    if (!(q < -2.0) && !(q > 2.0)) {
        if (isnan(*barrier)) *barrier = router_at(a, wg_router_barrier, x, y, z);
        s = *barrier;
    }
    return 2.0 * (s + q);
}

int wg_aquifer_substance(wg_aquifer *a, int32_t x, int32_t y, int32_t z, double density)
{
    if (density > 0.0) return WG_AQ_STONE;
    struct wg_fluid_status g = global_fluid(y);
    if (status_at(g, y) == WG_AQ_LAVA) return WG_AQ_LAVA;
    int32_t l = floor_div(x - 5, 16), m = floor_div(y + 1, 12), n = floor_div(z - 5, 16);
    int o = INT32_MAX, p = INT32_MAX, q = INT32_MAX;
    int r = 0, s = 0, t = 0; /* the nearest, second and third cells */
    int base = ((l - a->min_gx) * WG_AQ_GRID_Y + (m - a->min_gy)) * 3 + (n - a->min_gz);
    for (int u = 0; u <= 1; u++)
        for (int v = -1; v <= 1; v++)
            for (int w = 0; w <= 1; w++) {
                int ac = base + (u * WG_AQ_GRID_Y + v) * 3 + w;
                const int32_t *cc = a->centre[ac];
                int32_t ad = cc[0] - x, ae = cc[1] - y, af = cc[2] - z;
                int ag = ad * ad + ae * ae + af * af;
                if (o >= ag) {
                    t = s;
                    s = r;
                    r = ac;
                    q = p;
                    p = o;
                    o = ag;
                } else if (p >= ag) {
                    t = s;
                    s = ac;
                    q = p;
                    p = ag;
                } else if (q >= ag) {
                    t = ac;
                    q = ag;
                }
            }
    struct wg_fluid_status fs2 = aquifer_status(a, r);
    double d = similarity(o, p);
    int bs = status_at(fs2, y);
    if (d <= 0.0) return bs;
    if (bs == WG_AQ_WATER && status_at(global_fluid(y - 1), y - 1) == WG_AQ_LAVA) return bs;
    double barrier = NAN;
    struct wg_fluid_status fs3 = aquifer_status(a, s);
    double e = d * pressure(a, x, y, z, &barrier, fs2, fs3);
    if (density + e > 0.0) return WG_AQ_STONE;
    struct wg_fluid_status fs4 = aquifer_status(a, t);
    double f = similarity(o, q);
    if (f > 0.0) {
        double gg = d * f * pressure(a, x, y, z, &barrier, fs2, fs4);
        if (density + gg > 0.0) return WG_AQ_STONE;
    }
    double gg2 = similarity(p, q);
    if (gg2 > 0.0) {
        double h = d * gg2 * pressure(a, x, y, z, &barrier, fs3, fs4);
        if (density + h > 0.0) return WG_AQ_STONE;
    }
    return bs;
}
