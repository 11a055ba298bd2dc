/*
 * density.h — evaluating vanilla's density functions (the noise router).
 *
 * tools/gen_worldgen.js compiles the router of data/worldgen/1.20.1 (noise
 * settings, density functions, noise parameters) into C functions in
 * data/worldgen_router.c; this header is the run-time they use:
 *
 *   wg_state  the seeded noises of one world (built once by wg_state_init,
 *             read-only afterwards, shared by all worker threads)
 *   wg_pt     one evaluation point and its caches: a worker's own stack
 *             object, never shared. wg_pt_at() moves it; per-point values
 *             (cache_once and shared named functions) are dropped on every
 *             move, per-column values (flat_cache, cache_2d, functions that
 *             do not depend on y) only when x or z change.
 *
 * "interpolated" functions: inside a noise chunk (noise_chunk.c) they are
 * computed at cell corners and interpolated per block; a point whose
 * `interp` is set reads them from there, a point without evaluates them
 * directly (as vanilla does outside a noise chunk, e.g. for biomes).
 * "flat_cache": inside a noise chunk vanilla samples it at the quart corner
 * (x, z rounded down to a multiple of 4, y = 0) for quarts in the chunk's
 * grid; `snap_*` describe that grid (snap_n = 0: no noise chunk).
 *
 * Invariants:
 *  1. Results are vanilla's bit for bit: double arithmetic in Java's order,
 *     float arithmetic where vanilla uses floats (splines).
 *  2. A wg_state is immutable after init; a wg_pt belongs to one thread.
 */
#ifndef MC_DENSITY_H
#define MC_DENSITY_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "data/worldgen_router.h"
#include "world/wg_noise.h"
#include "world/wg_random.h"

typedef struct wg_state {
    int64_t seed;
    wg_xoro_factory random;  /* the world's positional factory */
    wg_xoro_factory aquifer; /* fromHashOf("minecraft:aquifer").forkPositional() */
    wg_xoro_factory ore;     /* fromHashOf("minecraft:ore").forkPositional() */
    wg_normal noise[WG_NOISE_COUNT];
    wg_blended terrain;
} wg_state;

typedef struct wg_pt {
    int32_t x, y, z;
    const wg_state *st;
    const double *interp;     /* per-block interpolated values, or NULL */
    int32_t snap_x0, snap_z0; /* first quart of the noise chunk's grid */
    int32_t snap_n;           /* quarts per side (0: not in a noise chunk) */
    int32_t mx, mz;           /* column the per-column cache belongs to */
    uint64_t memo2, memo3;    /* valid bits */
    double v2[WG_MEMO2_COUNT + 1];
    double v3[WG_MEMO3_COUNT + 1];
} wg_pt;

/* Seeds every noise of the router for a world seed (vanilla's RandomState). */
void wg_state_init(wg_state *st, int64_t seed);

/* A fresh point for st (no noise chunk, no interpolation). */
void wg_pt_init(wg_pt *p, const wg_state *st);

static inline void wg_pt_at(wg_pt *p, int32_t x, int32_t y, int32_t z)
{
    if (x != p->mx || z != p->mz) {
        p->memo2 = 0;
        p->mx = x;
        p->mz = z;
    }
    p->memo3 = 0;
    p->x = x;
    p->y = y;
    p->z = z;
}

/* flat_cache(f): f at the quart corner when in the noise chunk's grid (see above). */
double wg_flat_cache(wg_pt *p, double (*f)(wg_pt *));

/* A spline's value function: the value of point i (a constant or a nested spline) of the
 * spline ctx describes. */
typedef float (*wg_spline_value_fn)(wg_pt *p, const void *ctx, int i);
/* CubicSpline.Multipoint.apply in float arithmetic; values from vals[] when value is NULL. */
float wg_spline_eval(wg_pt *p, float c, const float *loc, const float *der, const float *vals,
                     int n, wg_spline_value_fn value, const void *ctx);

/* Java's Math.min / Math.max (signed zeros as Java orders them). */
static inline double wg_min(double a, double b)
{
    if (a == 0.0 && b == 0.0 && signbit(b)) return b;
    return a <= b ? a : b;
}

static inline double wg_max(double a, double b)
{
    if (a == 0.0 && b == 0.0 && signbit(a)) return b;
    return a >= b ? a : b;
}

static inline double wg_clamp(double d, double lo, double hi)
{
    return d < lo ? lo : wg_min(d, hi);
}

/* Mth.clampedMap(d, a, b, c, e). */
static inline double wg_clamped_map(double d, double a, double b, double c, double e)
{
    double t = (d - a) / (b - a);
    if (t < 0.0) return c;
    if (t > 1.0) return e;
    return c + t * (e - c);
}

#endif
