/* density.c — see density.h. */
#include "world/density.h"

#include <string.h>

static void octave_md5(int octave, uint64_t *lo, uint64_t *hi)
{
    const uint64_t *h = wg_octave_md5[octave - WG_OCTAVE_MIN];
    *lo = h[0];
    *hi = h[1];
}

void wg_state_init(wg_state *st, int64_t seed)
{
    memset(st, 0, sizeof *st);
    st->seed = seed;
    wg_xoro root;
    wg_xoro_seed(&root, seed);
    st->random = wg_xoro_fork(&root);
    wg_xoro r;
    for (int i = 0; i < WG_NOISE_COUNT; i++) {
        const struct wg_noise_def *d = &wg_noise_defs[i];
        wg_xoro_from_hash(&r, &st->random, d->md5_lo, d->md5_hi);
        wg_normal_init(&st->noise[i], &r, d->first_octave, d->amplitudes, d->count, octave_md5);
    }
    wg_xoro_from_hash(&r, &st->random, WG_MD5_TERRAIN_LO, WG_MD5_TERRAIN_HI);
    wg_blended_init(&st->terrain, &r, WG_TERRAIN_XZ_SCALE, WG_TERRAIN_Y_SCALE, WG_TERRAIN_XZ_FACTOR,
                    WG_TERRAIN_Y_FACTOR, WG_TERRAIN_SMEAR);
    wg_xoro_from_hash(&r, &st->random, WG_MD5_AQUIFER_LO, WG_MD5_AQUIFER_HI);
    st->aquifer = wg_xoro_fork(&r);
    wg_xoro_from_hash(&r, &st->random, WG_MD5_ORE_LO, WG_MD5_ORE_HI);
    st->ore = wg_xoro_fork(&r);
}

void wg_pt_init(wg_pt *p, const wg_state *st)
{
    memset(p, 0, sizeof *p);
    p->st = st;
    p->mx = INT32_MIN;
    p->mz = INT32_MIN;
}

double wg_flat_cache(wg_pt *p, double (*f)(wg_pt *))
{
    if (p->snap_n > 0) {
        int32_t qx = p->x >> 2, qz = p->z >> 2;
        int32_t i = qx - p->snap_x0, j = qz - p->snap_z0;
        if (i >= 0 && j >= 0 && i <= p->snap_n && j <= p->snap_n &&
            (qx * 4 != p->x || qz * 4 != p->z)) {
            wg_pt q;
            wg_pt_init(&q, p->st);
            wg_pt_at(&q, qx * 4, 0, qz * 4);
            return f(&q);
        }
    }
    return f(p);
}

float wg_spline_eval(wg_pt *p, float c, const float *loc, const float *der, const float *vals,
                     int n, wg_spline_value_fn value, const void *ctx)
{
#define VALUE(i) (value ? value(p, ctx, (i)) : vals[(i)])
    /* findIntervalStart: Mth.binarySearch(0, n, i -> c < loc[i]) - 1 */
    int lo = 0, len = n;
    while (len > 0) {
        int half = len / 2, mid = lo + half;
        if (c < loc[mid]) {
            len = half;
        } else {
            lo = mid + 1;
            len -= half + 1;
        }
    }
    int i = lo - 1, last = n - 1;
    if (i < 0) {
        float v = VALUE(0);
        return der[0] == 0.0f ? v : v + der[0] * (c - loc[0]);
    }
    if (i == last) {
        float v = VALUE(last);
        return der[last] == 0.0f ? v : v + der[last] * (c - loc[last]);
    }
    float g = loc[i], h = loc[i + 1];
    float k = (c - g) / (h - g);
    float l = der[i], m = der[i + 1];
    float a = VALUE(i), b = VALUE(i + 1);
    float q = l * (h - g) - (b - a);
    float r = -m * (h - g) + (b - a);
    return (a + k * (b - a)) + k * (1.0f - k) * (q + k * (r - q));
#undef VALUE
}
