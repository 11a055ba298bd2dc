/*
 * test_wg_noise.c — the fast paths of world/wg_noise.c against the scalar
 * code they replace, bit for bit: NormalNoise's two PerlinNoises sampled in
 * vector lanes against wg_perlin_value, BlendedNoise's paired octaves against
 * a transcription of vanilla's BlendedNoise.compute, and the wrap shortcut
 * against its formula. Points cover every sign, lattice fractions near 0 and
 * 1, and coordinates past 2^23 (where wrapping starts to change values).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "world/density.h"
#include "world/wg_noise.h"

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Points: a spread of magnitudes and signs, from a small LCG (the same every run). */
static double point(uint64_t *s, int i)
{
    static const double scale[] = {1.0, 37.0, 1000.0, 30000.0, 3.0e6, 1.2e7, 4.0e7};
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (double)(*s >> 11) / 9007199254740992.0 - 0.5;
    return u * 2.0 * scale[i % 7];
}

TEST(wg_perlin_wrap_shortcut_matches_the_formula)
{
    static const double v[] = {0.0,         -0.0,       1.5,        -1.5,       8388607.99,
                               -8388607.99, 8388608.0,  -8388608.0, 16777215.5, 16777216.0,
                               -16777216.0, 33554431.9, 33554432.0, 5.0e7,      -5.0e7,
                               1.2345678e9, -9.87e8};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        double want = v[i] - (double)wg_lfloor(v[i] * (1.0 / 3.3554432E7) + 0.5) * 3.3554432E7;
        CHECK(same_bits(wg_perlin_wrap(v[i]), want));
    }
}

TEST(wg_normal_value_lanes_match_two_scalar_perlins)
{
    wg_state *st = malloc(sizeof *st);
    CHECK(st != NULL);
    if (!st) return;
    wg_state_init(st, 12345);
    uint64_t s = 42;
    int bad = 0;
    for (int n = 0; n < WG_NOISE_COUNT; n++)
        for (int i = 0; i < 300; i++) {
            double x = point(&s, i), y = point(&s, i + 3) / 64.0, z = point(&s, i + 5);
            if (i % 11 == 0) y = 0.0;
            if (i % 13 == 0) x = floor(x); /* on the lattice */
            const wg_normal *no = &st->noise[n];
            const double k = 1.0181268882175227;
            double want = (wg_perlin_value(&no->first, x, y, z) +
                           wg_perlin_value(&no->second, x * k, y * k, z * k)) *
                          no->value_factor;
            bad += !same_bits(wg_normal_value(no, x, y, z), want);
        }
    CHECK_EQ_INT(bad, 0);
    free(st);
}

/* BlendedNoise.compute as vanilla writes it, one octave at a time; *kind: 0 both limit
 * noises sampled, 1 only the max (q >= 1), 2 only the min (q <= 0). */
static double blended_scalar(const wg_blended *b, int32_t x, int32_t y, int32_t z, int *kind)
{
    double d = x * b->xz_multiplier, e = y * b->y_multiplier, f = z * b->xz_multiplier;
    double g = d / b->xz_factor, h = e / b->y_factor, i = f / b->xz_factor;
    double j = b->y_multiplier * b->smear_scale_multiplier;
    double k = j / b->y_factor;
    double l = 0.0, m = 0.0, n = 0.0, o = 1.0;
    for (int p = 0; p < 8; p++) {
        const wg_improved *imp = wg_perlin_octave(&b->main, p);
        if (imp)
            n += wg_improved_noise(imp, wg_perlin_wrap(g * o), wg_perlin_wrap(h * o),
                                   wg_perlin_wrap(i * o), k * o, h * o) /
                 o;
        o /= 2.0;
    }
    double q = (n / 10.0 + 1.0) / 2.0;
    int at_max = q >= 1.0, at_min = q <= 0.0;
    *kind = at_max ? 1 : at_min ? 2 : 0;
    o = 1.0;
    for (int r = 0; r < 16; r++) {
        double s = wg_perlin_wrap(d * o), t = wg_perlin_wrap(e * o), u = wg_perlin_wrap(f * o);
        double v = j * o;
        if (!at_max) {
            const wg_improved *imp = wg_perlin_octave(&b->min_limit, r);
            if (imp) l += wg_improved_noise(imp, s, t, u, v, e * o) / o;
        }
        if (!at_min) {
            const wg_improved *imp = wg_perlin_octave(&b->max_limit, r);
            if (imp) m += wg_improved_noise(imp, s, t, u, v, e * o) / o;
        }
        o /= 2.0;
    }
    double lo = l / 512.0, hi = m / 512.0, res;
    if (q < 0.0)
        res = lo;
    else if (q > 1.0)
        res = hi;
    else
        res = wg_lerp(q, lo, hi);
    return res / 128.0;
}

TEST(wg_blended_value_pairs_match_the_scalar_octaves)
{
    wg_state *st = malloc(sizeof *st);
    CHECK(st != NULL);
    if (!st) return;
    wg_state_init(st, 1);
    uint64_t s = 7;
    int bad = 0, kinds[3] = {0};
    for (int i = 0; i < 3000; i++) {
        int32_t x = (int32_t)point(&s, i), z = (int32_t)point(&s, i + 2);
        int32_t y = -64 + (int32_t)(s >> 40) % 385;
        int kind;
        double want = blended_scalar(&st->terrain, x, y, z, &kind);
        kinds[kind]++;
        bad += !same_bits(wg_blended_value(&st->terrain, x, y, z), want);
    }
    /* every path of the vector code was taken */
    CHECK(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
    CHECK_EQ_INT(bad, 0);
    free(st);
}
