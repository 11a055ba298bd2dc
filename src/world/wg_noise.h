/*
 * wg_noise.h — vanilla's noise primitives, bit for bit (Minecraft 1.18+):
 *
 *   wg_improved  ImprovedNoise: Perlin's improved noise over a shuffled
 *                permutation with a random origin, plus vanilla's y "smear"
 *   wg_perlin    PerlinNoise: octaves of wg_improved, amplitudes from data
 *   wg_normal    NormalNoise: two wg_perlin summed, the second at a slightly
 *                different frequency (the data's noise parameters)
 *   wg_blended   BlendedNoise ("old_blended_noise"): the 1.17 terrain noise
 *                (min/max limit noises blended by a main noise)
 *
 * Seeding is vanilla's: wg_normal_init takes the Xoroshiro source that
 * vanilla gets from fromHashOf(noise name) and derives every octave from
 * it the way PerlinNoise.create does; the octave names' MD5 halves come from
 * the generated tables (wg_octave_md5).
 *
 * Invariants:
 *  1. A noise is read-only after init: sampling is a pure function, safe on
 *     any number of threads at once.
 *  2. All arithmetic is IEEE double in Java's order of operations, so values
 *     equal vanilla's (and deepslate's) exactly. Build without -ffast-math
 *     and without FMA contraction (-ffp-contract=off; see the Makefile).
 *  3. For speed, NormalNoise samples its two PerlinNoises' octaves side by
 *     side in the two lanes of an SSE2 vector, and BlendedNoise pairs its
 *     octaves the same way; each lane does the scalar code's operations in
 *     its order and the sums are formed in vanilla's order, so the results
 *     are the scalar ones bit for bit (tests/worldgen/digest.test.js).
 */
#ifndef MC_WG_NOISE_H
#define MC_WG_NOISE_H

#include <stdbool.h>
#include <stdint.h>

#include "world/wg_random.h"

#define WG_MAX_OCTAVES 16

typedef struct wg_improved {
    double xo, yo, zo;
    uint8_t p[256];
} wg_improved;

typedef struct wg_perlin {
    int count;                       /* octaves (amplitudes) */
    double lowest_freq_input_factor; /* 2^first_octave */
    double lowest_freq_value_factor;
    double amplitudes[WG_MAX_OCTAVES];
    bool present[WG_MAX_OCTAVES];
    wg_improved levels[WG_MAX_OCTAVES];
} wg_perlin;

typedef struct wg_normal {
    double value_factor;
    wg_perlin first, second;
} wg_normal;

typedef struct wg_blended {
    wg_perlin min_limit, max_limit, main;
    double xz_scale, y_scale, xz_factor, y_factor, smear_scale_multiplier;
    double xz_multiplier, y_multiplier;
} wg_blended;

/* MD5 halves of "octave_<n>", n = first..first+count-1 (generated). */
typedef void (*wg_octave_md5_fn)(int octave, uint64_t *lo, uint64_t *hi);

void wg_improved_init(wg_improved *n, wg_xoro *r);
double wg_improved_noise(const wg_improved *n, double x, double y, double z, double y_scale,
                         double y_max);

/* PerlinNoise.create (new factory): octaves from r.forkPositional(). */
void wg_perlin_init(wg_perlin *p, wg_xoro *r, int first_octave, const double *amplitudes, int count,
                    wg_octave_md5_fn octave_md5);
/* PerlinNoise.createLegacyForBlendedNoise: octaves drawn one after another. */
void wg_perlin_init_legacy(wg_perlin *p, wg_xoro *r, int first_octave, const double *amplitudes,
                           int count);
double wg_perlin_value(const wg_perlin *p, double x, double y, double z);
/* getOctaveNoise(i): octave i counted from the highest frequency; NULL if absent. */
const wg_improved *wg_perlin_octave(const wg_perlin *p, int i);
/* PerlinNoise.wrap. */
double wg_perlin_wrap(double d);

void wg_normal_init(wg_normal *n, wg_xoro *r, int first_octave, const double *amplitudes, int count,
                    wg_octave_md5_fn octave_md5);
double wg_normal_value(const wg_normal *n, double x, double y, double z);

void wg_blended_init(wg_blended *b, wg_xoro *r, double xz_scale, double y_scale, double xz_factor,
                     double y_factor, double smear_scale_multiplier);
double wg_blended_value(const wg_blended *b, int32_t x, int32_t y, int32_t z);

/* Java's Mth.floor / Mth.lfloor (truncate, then step down for negatives). */
static inline int32_t wg_floor(double d)
{
    int32_t i = (int32_t)d;
    return d < (double)i ? i - 1 : i;
}

static inline int64_t wg_lfloor(double d)
{
    int64_t l = (int64_t)d;
    return d < (double)l ? l - 1 : l;
}

static inline double wg_lerp(double t, double a, double b)
{
    return a + t * (b - a);
}

#endif
