/* wg_random.c — see wg_random.h. */
#include "world/wg_random.h"

#define GOLDEN_RATIO_64 0x9E3779B97F4A7C15ULL /* -7046029254386353131 */
#define SILVER_RATIO_64 0x6A09E667F3BCC909ULL /* 7640891576956012809 */

static inline uint64_t rotl(uint64_t x, int k)
{
    return x << k | x >> (64 - k);
}

static uint64_t mix_stafford13(uint64_t z)
{
    z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ z >> 27) * 0x94D049BB133111EBULL;
    return z ^ z >> 31;
}

void wg_xoro_set(wg_xoro *r, uint64_t lo, uint64_t hi)
{
    if (lo == 0 && hi == 0) {
        lo = GOLDEN_RATIO_64;
        hi = SILVER_RATIO_64;
    }
    r->lo = lo;
    r->hi = hi;
}

void wg_xoro_seed(wg_xoro *r, int64_t seed)
{
    uint64_t l = (uint64_t)seed ^ SILVER_RATIO_64;
    uint64_t m = l + GOLDEN_RATIO_64;
    wg_xoro_set(r, mix_stafford13(l), mix_stafford13(m));
}

uint64_t wg_xoro_next_long(wg_xoro *r)
{
    uint64_t l = r->lo, m = r->hi;
    uint64_t n = rotl(l + m, 17) + l;
    m ^= l;
    r->lo = rotl(l, 49) ^ m ^ m << 21;
    r->hi = rotl(m, 28);
    return n;
}

int32_t wg_xoro_next_int(wg_xoro *r)
{
    return (int32_t)(uint32_t)wg_xoro_next_long(r);
}

int32_t wg_xoro_next_int_bounded(wg_xoro *r, int32_t bound)
{
    uint64_t l = (uint32_t)wg_xoro_next_int(r);
    uint64_t m = l * (uint64_t)bound;
    uint64_t n = m & 0xFFFFFFFFULL;
    if (n < (uint64_t)bound) {
        uint32_t i = (uint32_t)(-bound) % (uint32_t)bound;
        while (n < i) {
            l = (uint32_t)wg_xoro_next_int(r);
            m = l * (uint64_t)bound;
            n = m & 0xFFFFFFFFULL;
        }
    }
    return (int32_t)(m >> 32);
}

double wg_xoro_next_double(wg_xoro *r)
{
    return (double)(wg_xoro_next_long(r) >> 11) * 1.1102230246251565E-16;
}

float wg_xoro_next_float(wg_xoro *r)
{
    return (float)(wg_xoro_next_long(r) >> 40) * 5.9604645E-8f;
}

void wg_xoro_consume(wg_xoro *r, int n)
{
    for (int i = 0; i < n; i++) wg_xoro_next_long(r);
}

wg_xoro_factory wg_xoro_fork(wg_xoro *r)
{
    wg_xoro_factory f;
    f.lo = wg_xoro_next_long(r);
    f.hi = wg_xoro_next_long(r);
    return f;
}

void wg_xoro_from_hash(wg_xoro *r, const wg_xoro_factory *f, uint64_t md5_lo, uint64_t md5_hi)
{
    wg_xoro_set(r, md5_lo ^ f->lo, md5_hi ^ f->hi);
}

int64_t wg_block_seed(int32_t x, int32_t y, int32_t z)
{
    /* (long)(x * 3129871) ^ (long)z * 116129781L ^ (long)y, int overflow as Java's. */
    int64_t l = (int64_t)(int32_t)((uint32_t)x * 3129871u) ^
                (int64_t)((uint64_t)(int64_t)z * 116129781ULL) ^ (int64_t)y;
    uint64_t u = (uint64_t)l;
    u = u * u * 42317861ULL + u * 11ULL;
    return (int64_t)u >> 16;
}

void wg_xoro_at(wg_xoro *r, const wg_xoro_factory *f, int32_t x, int32_t y, int32_t z)
{
    wg_xoro_set(r, (uint64_t)wg_block_seed(x, y, z) ^ f->lo, f->hi);
}

/* ------------------------------------------------------------ java.util.Random */

#define JMUL  0x5DEECE66DULL
#define JMASK ((1ULL << 48) - 1)

void wg_jrand_seed(wg_jrand *r, int64_t seed)
{
    r->seed = ((uint64_t)seed ^ JMUL) & JMASK;
}

int32_t wg_jrand_next(wg_jrand *r, int bits)
{
    r->seed = (r->seed * JMUL + 0xBULL) & JMASK;
    return (int32_t)(uint32_t)(r->seed >> (48 - bits));
}

int32_t wg_jrand_next_int(wg_jrand *r)
{
    return wg_jrand_next(r, 32);
}

int32_t wg_jrand_next_int_bounded(wg_jrand *r, int32_t bound)
{
    if ((bound & -bound) == bound) return (int32_t)((int64_t)bound * wg_jrand_next(r, 31) >> 31);
    int32_t bits, val;
    do {
        bits = wg_jrand_next(r, 31);
        val = bits % bound;
    } while ((int32_t)((uint32_t)bits - (uint32_t)val + (uint32_t)(bound - 1)) < 0);
    return val;
}

int64_t wg_jrand_next_long(wg_jrand *r)
{
    int64_t hi = wg_jrand_next(r, 32);
    int64_t lo = wg_jrand_next(r, 32);
    return (int64_t)((uint64_t)hi << 32) + lo;
}

double wg_jrand_next_double(wg_jrand *r)
{
    int64_t a = wg_jrand_next(r, 26), b = wg_jrand_next(r, 27);
    return (double)((a << 27) + b) * 1.1102230246251565E-16;
}

float wg_jrand_next_float(wg_jrand *r)
{
    return (float)wg_jrand_next(r, 24) / 16777216.0f;
}

void wg_jrand_consume(wg_jrand *r, int n)
{
    for (int i = 0; i < n; i++) wg_jrand_next(r, 32);
}
