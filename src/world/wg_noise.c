/* wg_noise.c — see wg_noise.h. Follows vanilla's ImprovedNoise, PerlinNoise,
 * NormalNoise and BlendedNoise operation for operation. */
#include "world/wg_noise.h"

#include <math.h>
#include <string.h>

/* SimplexNoise.GRADIENT as doubles: the same products Java forms from its ints. */
static const double GRADIENT[16][3] = {
    {1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, 1}, {1, 0, -1}, {-1, 0, -1},
    {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1}, {1, 1, 0}, {0, -1, 1}, {-1, 1, 0}, {0, -1, -1},
};

void wg_improved_init(wg_improved *n, wg_xoro *r)
{
    n->xo = wg_xoro_next_double(r) * 256.0;
    n->yo = wg_xoro_next_double(r) * 256.0;
    n->zo = wg_xoro_next_double(r) * 256.0;
    for (int i = 0; i < 256; i++) n->p[i] = (uint8_t)i;
    for (int i = 0; i < 256; i++) {
        int j = wg_xoro_next_int_bounded(r, 256 - i);
        uint8_t b = n->p[i];
        n->p[i] = n->p[i + j];
        n->p[i + j] = b;
    }
}

static inline double grad_dot(int hash, double x, double y, double z)
{
    const double *g = GRADIENT[hash & 15];
    return g[0] * x + g[1] * y + g[2] * z;
}

static inline double smoothstep(double d)
{
    return d * d * d * (d * (d * 6.0 - 15.0) + 10.0);
}

static double sample_and_lerp(const wg_improved *n, int gx, int gy, int gz, double dx, double wdy,
                              double dz, double dy)
{
    const uint8_t *p = n->p;
    int i = p[gx & 0xFF], j = p[(gx + 1) & 0xFF];
    int k = p[(i + gy) & 0xFF], l = p[(i + gy + 1) & 0xFF];
    int m = p[(j + gy) & 0xFF], o = p[(j + gy + 1) & 0xFF];
    double d = grad_dot(p[(k + gz) & 0xFF], dx, wdy, dz);
    double e = grad_dot(p[(m + gz) & 0xFF], dx - 1.0, wdy, dz);
    double f = grad_dot(p[(l + gz) & 0xFF], dx, wdy - 1.0, dz);
    double g = grad_dot(p[(o + gz) & 0xFF], dx - 1.0, wdy - 1.0, dz);
    double h = grad_dot(p[(k + gz + 1) & 0xFF], dx, wdy, dz - 1.0);
    double q = grad_dot(p[(m + gz + 1) & 0xFF], dx - 1.0, wdy, dz - 1.0);
    double s = grad_dot(p[(l + gz + 1) & 0xFF], dx, wdy - 1.0, dz - 1.0);
    double t = grad_dot(p[(o + gz + 1) & 0xFF], dx - 1.0, wdy - 1.0, dz - 1.0);
    double u = smoothstep(dx), v = smoothstep(dy), w = smoothstep(dz);
    /* Mth.lerp3: lerp(z, lerp2(x, y, d, e, f, g), lerp2(x, y, h, q, s, t)) */
    double a = wg_lerp(v, wg_lerp(u, d, e), wg_lerp(u, f, g));
    double b = wg_lerp(v, wg_lerp(u, h, q), wg_lerp(u, s, t));
    return wg_lerp(w, a, b);
}

double wg_improved_noise(const wg_improved *n, double x, double y, double z, double y_scale,
                         double y_max)
{
    double d = x + n->xo, e = y + n->yo, f = z + n->zo;
    int i = wg_floor(d), j = wg_floor(e), k = wg_floor(f);
    double g = d - i, h = e - j, l = f - k;
    double o = 0.0;
    if (y_scale != 0.0) {
        double m = y_max >= 0.0 && y_max < h ? y_max : h;
        o = (double)wg_floor(m / y_scale + (double)1.0E-7f) * y_scale;
    }
    return sample_and_lerp(n, i, j, k, g, h - o, l, h);
}

double wg_perlin_wrap(double d)
{
    /* |d| < 2^23: d * 2^-25 + 0.5 lies in (0.25, 0.75), its floor is 0 and the result
     * d - 0.0 is d itself (also for -0.0): the usual case, without the floor */
    if (fabs(d) < 8388608.0) return d;
    /* d / 2^25 is exactly d * 2^-25 */
    return d - (double)wg_lfloor(d * (1.0 / 3.3554432E7) + 0.5) * 3.3554432E7;
}

static void perlin_factors(wg_perlin *p, int first_octave, const double *amplitudes, int count)
{
    p->count = count;
    for (int i = 0; i < count; i++) p->amplitudes[i] = amplitudes[i];
    p->lowest_freq_input_factor = ldexp(1.0, first_octave);
    p->lowest_freq_value_factor = ldexp(1.0, count - 1) / (ldexp(1.0, count) - 1.0);
}

void wg_perlin_init(wg_perlin *p, wg_xoro *r, int first_octave, const double *amplitudes, int count,
                    wg_octave_md5_fn octave_md5)
{
    memset(p, 0, sizeof *p);
    perlin_factors(p, first_octave, amplitudes, count);
    wg_xoro_factory f = wg_xoro_fork(r);
    for (int i = 0; i < count; i++) {
        if (amplitudes[i] == 0.0) continue;
        uint64_t lo, hi;
        octave_md5(first_octave + i, &lo, &hi);
        wg_xoro o;
        wg_xoro_from_hash(&o, &f, lo, hi);
        wg_improved_init(&p->levels[i], &o);
        p->present[i] = true;
    }
}

void wg_perlin_init_legacy(wg_perlin *p, wg_xoro *r, int first_octave, const double *amplitudes,
                           int count)
{
    memset(p, 0, sizeof *p);
    perlin_factors(p, first_octave, amplitudes, count);
    int j = -first_octave;
    wg_improved first;
    wg_improved_init(&first, r);
    if (j >= 0 && j < count && amplitudes[j] != 0.0) {
        p->levels[j] = first;
        p->present[j] = true;
    }
    for (int l = j - 1; l >= 0; l--) {
        if (l < count && amplitudes[l] != 0.0) {
            wg_improved_init(&p->levels[l], r);
            p->present[l] = true;
        } else {
            wg_xoro_consume(r, 262);
        }
    }
}

double wg_perlin_value(const wg_perlin *p, double x, double y, double z)
{
    double d = 0.0, e = p->lowest_freq_input_factor, f = p->lowest_freq_value_factor;
    for (int i = 0; i < p->count; i++) {
        if (p->present[i]) {
            double g = wg_improved_noise(&p->levels[i], wg_perlin_wrap(x * e),
                                         wg_perlin_wrap(y * e), wg_perlin_wrap(z * e), 0.0, 0.0);
            d += p->amplitudes[i] * g * f;
        }
        e *= 2.0;
        f /= 2.0;
    }
    return d;
}

const wg_improved *wg_perlin_octave(const wg_perlin *p, int i)
{
    int k = p->count - 1 - i;
    return k >= 0 && p->present[k] ? &p->levels[k] : NULL;
}

void wg_normal_init(wg_normal *n, wg_xoro *r, int first_octave, const double *amplitudes, int count,
                    wg_octave_md5_fn octave_md5)
{
    wg_perlin_init(&n->first, r, first_octave, amplitudes, count, octave_md5);
    wg_perlin_init(&n->second, r, first_octave, amplitudes, count, octave_md5);
    int lo = 1 << 30, hi = -(1 << 30);
    for (int i = 0; i < count; i++)
        if (amplitudes[i] != 0.0) {
            if (i < lo) lo = i;
            if (i > hi) hi = i;
        }
    double expected_deviation = 0.1 * (1.0 + 1.0 / (double)(hi - lo + 1));
    n->value_factor = 0.16666666666666666 / expected_deviation;
}

/*
 * NormalNoise.getValue, its two PerlinNoises side by side: lane 0 of each vector is the
 * first's octave at (x, y, z), lane 1 the second's at (x, y, z) * k. Both were built from
 * the same parameters (wg_normal_init), so they have the same octaves, amplitudes and
 * factors. Every lane runs wg_perlin_value's and wg_improved_noise's operations in their
 * order (IEEE double lanes, no contraction), so the sum is the scalar code's to the bit.
 */
typedef double v2d __attribute__((vector_size(16)));

static inline v2d grad2(int ha, int hb, v2d x, v2d y, v2d z)
{
    const double *a = GRADIENT[ha & 15], *b = GRADIENT[hb & 15];
    v2d gx = {a[0], b[0]}, gy = {a[1], b[1]}, gz = {a[2], b[2]};
    return gx * x + gy * y + gz * z;
}

static inline v2d smooth2(v2d d)
{
    const v2d six = {6.0, 6.0}, fifteen = {15.0, 15.0}, ten = {10.0, 10.0};
    return d * d * d * (d * (d * six - fifteen) + ten);
}

static inline v2d lerp2(v2d t, v2d a, v2d b)
{
    return a + t * (b - a);
}

/* The 8 gradient hashes of sample_and_lerp's cube, in its order (d e f g h q s t). */
static inline void cube_hashes(const uint8_t *p, int gx, int gy, int gz, int h[8])
{
    int i = p[gx & 0xFF], j = p[(gx + 1) & 0xFF];
    int k = p[(i + gy) & 0xFF], l = p[(i + gy + 1) & 0xFF];
    int m = p[(j + gy) & 0xFF], o = p[(j + gy + 1) & 0xFF];
    h[0] = p[(k + gz) & 0xFF];
    h[1] = p[(m + gz) & 0xFF];
    h[2] = p[(l + gz) & 0xFF];
    h[3] = p[(o + gz) & 0xFF];
    h[4] = p[(k + gz + 1) & 0xFF];
    h[5] = p[(m + gz + 1) & 0xFF];
    h[6] = p[(l + gz + 1) & 0xFF];
    h[7] = p[(o + gz + 1) & 0xFF];
}

/* One lane's y smear term: wg_improved_noise's o. */
static inline double smear(double h, double y_scale, double y_max)
{
    if (y_scale == 0.0) return 0.0;
    double m = y_max >= 0.0 && y_max < h ? y_max : h;
    return (double)wg_floor(m / y_scale + (double)1.0E-7f) * y_scale;
}

/* wg_improved_noise(n, x, y, z, y_scale, y_max) for lane 0 of na and lane 1 of nb. */
static inline v2d improved2(const wg_improved *na, const wg_improved *nb, v2d x, v2d y, v2d z,
                            v2d y_scale, v2d y_max)
{
    v2d d = x + (v2d){na->xo, nb->xo}, e = y + (v2d){na->yo, nb->yo};
    v2d f = z + (v2d){na->zo, nb->zo};
    int ia = wg_floor(d[0]), ja = wg_floor(e[0]), ka = wg_floor(f[0]);
    int ib = wg_floor(d[1]), jb = wg_floor(e[1]), kb = wg_floor(f[1]);
    v2d g = d - (v2d){(double)ia, (double)ib}, h = e - (v2d){(double)ja, (double)jb};
    v2d l = f - (v2d){(double)ka, (double)kb};
    const v2d one = {1.0, 1.0};
    v2d wdy = h - (v2d){smear(h[0], y_scale[0], y_max[0]), smear(h[1], y_scale[1], y_max[1])};
    int ha[8], hb[8];
    cube_hashes(na->p, ia, ja, ka, ha);
    cube_hashes(nb->p, ib, jb, kb, hb);
    v2d g1 = g - one, w1 = wdy - one, l1 = l - one;
    v2d c0 = grad2(ha[0], hb[0], g, wdy, l), c1 = grad2(ha[1], hb[1], g1, wdy, l);
    v2d c2 = grad2(ha[2], hb[2], g, w1, l), c3 = grad2(ha[3], hb[3], g1, w1, l);
    v2d c4 = grad2(ha[4], hb[4], g, wdy, l1), c5 = grad2(ha[5], hb[5], g1, wdy, l1);
    v2d c6 = grad2(ha[6], hb[6], g, w1, l1), c7 = grad2(ha[7], hb[7], g1, w1, l1);
    v2d u = smooth2(g), v = smooth2(h), w = smooth2(l);
    v2d a = lerp2(v, lerp2(u, c0, c1), lerp2(u, c2, c3));
    v2d b = lerp2(v, lerp2(u, c4, c5), lerp2(u, c6, c7));
    return lerp2(w, a, b);
}

double wg_normal_value(const wg_normal *n, double x, double y, double z)
{
    const double k = 1.0181268882175227;
    double d = x * k, e = y * k, f = z * k;
    const wg_perlin *pa = &n->first, *pb = &n->second;
    double in = pa->lowest_freq_input_factor, out = pa->lowest_freq_value_factor;
    v2d acc = {0.0, 0.0};
    for (int i = 0; i < pa->count; i++) {
        if (pa->present[i]) {
            v2d vx = {wg_perlin_wrap(x * in), wg_perlin_wrap(d * in)};
            v2d vy = {wg_perlin_wrap(y * in), wg_perlin_wrap(e * in)};
            v2d vz = {wg_perlin_wrap(z * in), wg_perlin_wrap(f * in)};
            const v2d none = {0.0, 0.0};
            v2d g = improved2(&pa->levels[i], &pb->levels[i], vx, vy, vz, none, none);
            acc = acc + (v2d){pa->amplitudes[i], pa->amplitudes[i]} * g * (v2d){out, out};
        }
        in *= 2.0;
        out /= 2.0;
    }
    return (acc[0] + acc[1]) * n->value_factor;
}

void wg_blended_init(wg_blended *b, wg_xoro *r, double xz_scale, double y_scale, double xz_factor,
                     double y_factor, double smear_scale_multiplier)
{
    static const double ones[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    wg_perlin_init_legacy(&b->min_limit, r, -15, ones, 16);
    wg_perlin_init_legacy(&b->max_limit, r, -15, ones, 16);
    wg_perlin_init_legacy(&b->main, r, -7, ones, 8);
    b->xz_scale = xz_scale;
    b->y_scale = y_scale;
    b->xz_factor = xz_factor;
    b->y_factor = y_factor;
    b->smear_scale_multiplier = smear_scale_multiplier;
    b->xz_multiplier = 684.412 * xz_scale;
    b->y_multiplier = 684.412 * y_scale;
}

/* Sum over octaves r = 0..n-1 of BlendedNoise's perlin p (octave r at frequency o = 2^-r,
 * counted from the highest): noise(wrap(x o), wrap(y o), wrap(z o), s o, y o) / o, in that
 * order; octaves r and r + 1 side by side in the lanes of one vector. */
static double octave_sum(const wg_perlin *p, int n, double x, double y, double z, double s)
{
    double acc = 0.0, o = 1.0;
    for (int r = 0; r < n; r += 2) {
        const wg_improved *i0 = wg_perlin_octave(p, r), *i1 = wg_perlin_octave(p, r + 1);
        double o1 = o / 2.0;
        if (i0 && i1) {
            v2d res = improved2(i0, i1, (v2d){wg_perlin_wrap(x * o), wg_perlin_wrap(x * o1)},
                                (v2d){wg_perlin_wrap(y * o), wg_perlin_wrap(y * o1)},
                                (v2d){wg_perlin_wrap(z * o), wg_perlin_wrap(z * o1)},
                                (v2d){s * o, s * o1}, (v2d){y * o, y * o1}) /
                      (v2d){o, o1};
            acc += res[0];
            acc += res[1];
        } else {
            if (i0)
                acc += wg_improved_noise(i0, wg_perlin_wrap(x * o), wg_perlin_wrap(y * o),
                                         wg_perlin_wrap(z * o), s * o, y * o) /
                       o;
            if (i1)
                acc += wg_improved_noise(i1, wg_perlin_wrap(x * o1), wg_perlin_wrap(y * o1),
                                         wg_perlin_wrap(z * o1), s * o1, y * o1) /
                       o1;
        }
        o = o1 / 2.0;
    }
    return acc;
}

double wg_blended_value(const wg_blended *b, int32_t x, int32_t y, int32_t z)
{
    double d = x * b->xz_multiplier, e = y * b->y_multiplier, f = z * b->xz_multiplier;
    double g = d / b->xz_factor, h = e / b->y_factor, i = f / b->xz_factor;
    double j = b->y_multiplier * b->smear_scale_multiplier;
    double k = j / b->y_factor;
    double l = 0.0, m = 0.0, o = 1.0;
    double n = octave_sum(&b->main, 8, g, h, i, k);
    double q = (n / 10.0 + 1.0) / 2.0;
    bool at_max = q >= 1.0, at_min = q <= 0.0;
    /* the limit noises' octave r side by side (lane 0 min, lane 1 max) when both count;
     * when one does, its octaves r and r + 1 side by side, summed in their order */
    if (at_max != at_min) {
        if (at_max)
            m = octave_sum(&b->max_limit, 16, d, e, f, j);
        else
            l = octave_sum(&b->min_limit, 16, d, e, f, j);
    }
    for (int r = 0; r < 16 && at_max == at_min; r++) {
        double s = wg_perlin_wrap(d * o), t = wg_perlin_wrap(e * o), u = wg_perlin_wrap(f * o);
        double v = j * o;
        const wg_improved *lo = at_max ? NULL : wg_perlin_octave(&b->min_limit, r);
        const wg_improved *hi = at_min ? NULL : wg_perlin_octave(&b->max_limit, r);
        if (lo && hi) {
            v2d res = improved2(lo, hi, (v2d){s, s}, (v2d){t, t}, (v2d){u, u}, (v2d){v, v},
                                (v2d){e * o, e * o}) /
                      (v2d){o, o};
            l += res[0];
            m += res[1];
        } else {
            if (lo) l += wg_improved_noise(lo, s, t, u, v, e * o) / o;
            if (hi) m += wg_improved_noise(hi, s, t, u, v, e * o) / o;
        }
        o /= 2.0;
    }
    /* Mth.clampedLerp(l / 512, m / 512, q) / 128 */
    double lo = l / 512.0, hi = m / 512.0, res;
    if (q < 0.0)
        res = lo;
    else if (q > 1.0)
        res = hi;
    else
        res = wg_lerp(q, lo, hi);
    return res / 128.0;
}
