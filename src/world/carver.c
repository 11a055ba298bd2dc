/* carver.c — see carver.h. Follows vanilla 1.20.1's carvers draw for draw. */
#include "world/carver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/worldgen_carvers.h"

#define IDX(x, z, y) ((size_t)((z)*16 + (x)) * WG_HEIGHT + (size_t)((y)-WG_MIN_Y))
#define RANGE        8 /* chunks around that may start a carver reaching this one */

/* Mth.sin / Mth.cos: vanilla's 65536-entry float table. */
static float sin_table[65536];
static int sin_ready;

static void sin_init(void)
{
    /* idempotent; every thread computes the same values, so a race is harmless */
    if (sin_ready) return;
    for (int i = 0; i < 65536; i++) sin_table[i] = (float)sin((double)i * M_PI * 2.0 / 65536.0);
    __atomic_store_n(&sin_ready, 1, __ATOMIC_RELEASE);
}
static inline float msin(float f)
{
    return sin_table[(int)(f * 10430.378f) & 65535];
}
static inline float mcos(float f)
{
    return sin_table[(int)(f * 10430.378f + 16384.0f) & 65535];
}

static float sample(const struct wg_float_provider *p, wg_jrand *r)
{
    switch (p->kind) {
    case 1: return wg_jrand_next_float(r) * (p->b - p->a) + p->a;
    case 2: {
        float f = p->b - p->a, g = (f - p->plateau) / 2.0f, h = f - g;
        float x = wg_jrand_next_float(r) * h;
        return p->a + x + wg_jrand_next_float(r) * g;
    }
    default: return p->a;
    }
}

struct carve {
    const wg_state *st;
    int32_t x0, z0;
    uint16_t *cols;
    wg_aquifer *aq;
    uint8_t *mask; /* carved already: bit per block */
    const struct wg_carver_def *def;
    double floor_level; /* caves */
    const float *width; /* canyons: per y from the bottom */
};

static int replaceable(uint16_t s)
{
    uint16_t b = block_of_state[s];
    return wg_carver_replaceable[b >> 3] >> (b & 7) & 1;
}

static int skip(const struct carve *c, double dx, double dy, double dz, int y)
{
    if (!c->def->canyon) return dy <= c->floor_level || dx * dx + dy * dy + dz * dz >= 1.0;
    int i = y - WG_MIN_Y;
    return (dx * dx + dz * dz) * (double)c->width[i - 1] + dy * dy / 6.0 >= 1.0;
}

static void carve_block(struct carve *c, int lx, int y, int lz, int *surface)
{
    uint16_t *b = &c->cols[IDX(lx, lz, y)];
    if (*b == BLOCK_GRASS_BLOCK || *b == BLOCK_MYCELIUM) *surface = 1;
    if (!replaceable(*b)) return;
    uint16_t to;
    if (y <= c->def->lava_level) {
        to = BLOCK_LAVA;
    } else {
        int f = wg_aquifer_substance(c->aq, c->x0 + lx, y, c->z0 + lz, 0.0);
        if (f == WG_AQ_STONE) return; /* an aquifer barrier */
        to = f == WG_AQ_WATER ? BLOCK_WATER : f == WG_AQ_LAVA ? BLOCK_LAVA : BLOCK_AIR;
    }
    *b = to;
    if (*surface && y > WG_MIN_Y && c->cols[IDX(lx, lz, y - 1)] == BLOCK_DIRT)
        c->cols[IDX(lx, lz, y - 1)] = to == BLOCK_AIR ? BLOCK_GRASS_BLOCK : BLOCK_DIRT;
}

/* WorldCarver.carveEllipsoid */
static void ellipsoid(struct carve *c, double x, double y, double z, double hr, double vr)
{
    double mx = c->x0 + 8, mz = c->z0 + 8, f = 16.0 + hr * 2.0;
    if (fabs(x - mx) > f || fabs(z - mz) > f) return;
    int k = wg_floor(x - hr) - c->x0 - 1;
    if (k < 0) k = 0;
    int l = wg_floor(x + hr) - c->x0;
    if (l > 15) l = 15;
    int m = wg_floor(y - vr) - 1;
    if (m < WG_MIN_Y + 1) m = WG_MIN_Y + 1;
    int o = wg_floor(y + vr) + 1;
    if (o > WG_MIN_Y + WG_HEIGHT - 1 - 7) o = WG_MIN_Y + WG_HEIGHT - 1 - 7;
    int p = wg_floor(z - hr) - c->z0 - 1;
    if (p < 0) p = 0;
    int q = wg_floor(z + hr) - c->z0;
    if (q > 15) q = 15;
    for (int r = k; r <= l; r++) {
        double g = ((double)(c->x0 + r) + 0.5 - x) / hr;
        for (int t = p; t <= q; t++) {
            double h = ((double)(c->z0 + t) + 0.5 - z) / hr;
            if (g * g + h * h >= 1.0) continue;
            int surface = 0;
            for (int v = o; v > m; v--) {
                double w = ((double)v - 0.5 - y) / vr;
                if (skip(c, g, w, h, v)) continue;
                size_t bit = IDX(r, t, v);
                if (c->mask[bit >> 3] >> (bit & 7) & 1) continue;
                c->mask[bit >> 3] |= (uint8_t)(1 << (bit & 7));
                carve_block(c, r, v, t, &surface);
            }
        }
    }
}

/* WorldCarver.canReach */
static int can_reach(const struct carve *c, double x, double z, int index, int count, float width)
{
    double f = x - (c->x0 + 8), g = z - (c->z0 + 8), h = count - index;
    double i = width + 2.0f + 16.0f;
    return f * f + g * g - h * h <= i * i;
}

/* The random turn both carvers add each step: pitch change g, then yaw change f,
 * in vanilla's draw order. */
static void wander(wg_jrand *r, float *g, float *f)
{
    float a = wg_jrand_next_float(r), b = wg_jrand_next_float(r);
    *g += (a - b) * wg_jrand_next_float(r) * 2.0f;
    a = wg_jrand_next_float(r);
    b = wg_jrand_next_float(r);
    *f += (a - b) * wg_jrand_next_float(r) * 4.0f;
}

static void tunnel(struct carve *c, int64_t seed, double x, double y, double z, double hm,
                   double vm, float thickness, float yaw, float pitch, int index, int count,
                   double y_scale)
{
    wg_jrand r;
    wg_jrand_seed(&r, seed);
    int split = wg_jrand_next_int_bounded(&r, count / 2) + count / 4;
    int steep = wg_jrand_next_int_bounded(&r, 6) == 0;
    float f = 0.0f, g = 0.0f;
    for (int j = index; j < count; j++) {
        double d = 1.5 + (double)(msin((float)M_PI * (float)j / (float)count) * thickness);
        double e = d * y_scale;
        float h = mcos(pitch);
        x += (double)(mcos(yaw) * h);
        y += (double)msin(pitch);
        z += (double)(msin(yaw) * h);
        pitch *= steep ? 0.92f : 0.7f;
        pitch += g * 0.1f;
        yaw += f * 0.1f;
        g *= 0.9f;
        f *= 0.75f;
        wander(&r, &g, &f);
        if (j == split && thickness > 1.0f) {
            int64_t s1 = wg_jrand_next_long(&r);
            float t1 = wg_jrand_next_float(&r) * 0.5f + 0.5f;
            tunnel(c, s1, x, y, z, hm, vm, t1, yaw - 1.5707964f, pitch / 3.0f, j, count, 1.0);
            int64_t s2 = wg_jrand_next_long(&r);
            float t2 = wg_jrand_next_float(&r) * 0.5f + 0.5f;
            tunnel(c, s2, x, y, z, hm, vm, t2, yaw + 1.5707964f, pitch / 3.0f, j, count, 1.0);
            return;
        }
        if (wg_jrand_next_int_bounded(&r, 4) == 0) continue;
        if (!can_reach(c, x, z, j, count, thickness)) return;
        ellipsoid(c, x, y, z, d * hm, e * vm);
    }
}

static float thickness_of(wg_jrand *r)
{
    float f = wg_jrand_next_float(r) * 2.0f + wg_jrand_next_float(r);
    if (wg_jrand_next_int_bounded(r, 10) == 0) {
        float a = wg_jrand_next_float(r);
        f *= a * wg_jrand_next_float(r) * 3.0f + 1.0f;
    }
    return f;
}

static void cave(struct carve *c, wg_jrand *r, int32_t cx0, int32_t cz0)
{
    const struct wg_carver_def *d = c->def;
    int range = (4 * 2 - 1) * 16;
    int b1 = wg_jrand_next_int_bounded(r, 15);
    int b2 = wg_jrand_next_int_bounded(r, b1 + 1);
    int n = wg_jrand_next_int_bounded(r, b2 + 1);
    for (int k = 0; k < n; k++) {
        double x = cx0 + wg_jrand_next_int_bounded(r, 16);
        double y = d->y_min + wg_jrand_next_int_bounded(r, d->y_max - d->y_min + 1);
        double z = cz0 + wg_jrand_next_int_bounded(r, 16);
        double hm = sample(&d->h_radius_mult, r), vm = sample(&d->v_radius_mult, r);
        c->floor_level = sample(&d->floor_level, r);
        int tunnels = 1;
        if (wg_jrand_next_int_bounded(r, 4) == 0) {
            double ys = sample(&d->y_scale, r);
            float radius = 1.0f + wg_jrand_next_float(r) * 6.0f;
            double rd = 1.5 + (double)(msin(1.5707964f) * radius);
            ellipsoid(c, x + 1.0, y, z, rd, rd * ys);
            tunnels += wg_jrand_next_int_bounded(r, 4);
        }
        for (int p = 0; p < tunnels; p++) {
            float yaw = wg_jrand_next_float(r) * (float)(M_PI * 2);
            float pitch = (wg_jrand_next_float(r) - 0.5f) / 4.0f;
            float th = thickness_of(r);
            int count = range - wg_jrand_next_int_bounded(r, range / 4);
            tunnel(c, wg_jrand_next_long(r), x, y, z, hm, vm, th, yaw, pitch, 0, count, 1.0);
        }
    }
}

static void canyon(struct carve *c, wg_jrand *r, int32_t cx0, int32_t cz0)
{
    const struct wg_carver_def *d = c->def;
    int range = (4 * 2 - 1) * 16;
    double x = cx0 + wg_jrand_next_int_bounded(r, 16);
    int y0 = d->y_min + wg_jrand_next_int_bounded(r, d->y_max - d->y_min + 1);
    double z = cz0 + wg_jrand_next_int_bounded(r, 16);
    float yaw = wg_jrand_next_float(r) * (float)(M_PI * 2);
    float pitch = sample(&d->vertical_rotation, r);
    double ys = sample(&d->y_scale, r);
    float th = sample(&d->thickness, r);
    int count = (int)((float)range * sample(&d->distance_factor, r));
    /* doCarve */
    wg_jrand rr;
    wg_jrand_seed(&rr, wg_jrand_next_long(r));
    float width[WG_HEIGHT];
    float wf = 1.0f;
    for (int j = 0; j < WG_HEIGHT; j++) {
        if (j == 0 || wg_jrand_next_int_bounded(&rr, d->width_smoothness) == 0) {
            float a = wg_jrand_next_float(&rr);
            wf = 1.0f + a * wg_jrand_next_float(&rr);
        }
        width[j] = wf * wf;
    }
    c->width = width;
    double y = y0;
    float f = 0.0f, g = 0.0f;
    for (int i = 0; i < count; i++) {
        double dd = 1.5 + (double)(msin((float)i * (float)M_PI / (float)count) * th);
        double e = dd * ys;
        dd *= (double)sample(&d->h_radius_factor, &rr);
        float gg = 1.0f - fabsf(0.5f - (float)i / (float)count) * 2.0f;
        float hh = d->v_radius_default + d->v_radius_center * gg;
        e = (double)hh * e * (double)(wg_jrand_next_float(&rr) * (1.0f - 0.75f) + 0.75f);
        float h = mcos(pitch), jj = msin(pitch);
        x += (double)(mcos(yaw) * h);
        y += (double)jj;
        z += (double)(msin(yaw) * h);
        pitch *= 0.7f;
        pitch += g * 0.05f;
        yaw += f * 0.05f;
        g *= 0.8f;
        f *= 0.5f;
        wander(&rr, &g, &f);
        if (wg_jrand_next_int_bounded(&rr, 4) == 0) continue;
        if (!can_reach(c, x, z, i, count, th)) return;
        ellipsoid(c, x, y, z, dd, e);
    }
}

void carvers_apply(const wg_state *st, int32_t x0, int32_t z0, uint16_t *cols, wg_aquifer *aq)
{
    sin_init();
    uint8_t *mask = calloc((size_t)256 * WG_HEIGHT / 8, 1);
    if (!mask) return;
    struct carve c = {st, x0, z0, cols, aq, mask, NULL, 0.0, NULL};
    int32_t cx = x0 >> 4, cz = z0 >> 4;
    for (int j = -RANGE; j <= RANGE; j++)
        for (int k = -RANGE; k <= RANGE; k++) {
            int32_t ox = cx + j, oz = cz + k;
            for (int l = 0; l < WG_CARVER_COUNT; l++) {
                /* WorldgenRandom.setLargeFeatureSeed(seed + l, ox, oz) */
                wg_jrand r;
                wg_jrand_seed(&r, st->seed + l);
                int64_t a = wg_jrand_next_long(&r), b = wg_jrand_next_long(&r);
                wg_jrand_seed(&r, (int64_t)((uint64_t)(int64_t)ox * (uint64_t)a ^
                                            (uint64_t)(int64_t)oz * (uint64_t)b) ^
                                      (st->seed + l));
                c.def = &wg_carvers[l];
                if (!(wg_jrand_next_float(&r) <= c.def->probability)) continue;
                if (c.def->canyon)
                    canyon(&c, &r, ox * 16, oz * 16);
                else
                    cave(&c, &r, ox * 16, oz * 16);
            }
        }
    free(mask);
}
