/* hist.c — see hist.h for the bucket layout and its invariants. */
#include "bench/hist.h"

#include <string.h>

void hist_init(hist *h)
{
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

static unsigned bucket_of(uint64_t v)
{
    if (v > HIST_MAX) v = HIST_MAX;
    if (v < 2 * HIST_SUB) return (unsigned)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v);
    unsigned s = e - HIST_SUB_BITS;
    return s * HIST_SUB + (unsigned)(v >> s);
}

/* Smallest and largest value that land in bucket i. */
static void bucket_range(unsigned i, uint64_t *lo, uint64_t *hi)
{
    if (i < 2 * HIST_SUB) {
        *lo = *hi = i;
        return;
    }
    unsigned s = i / HIST_SUB - 1;
    uint64_t m = i % HIST_SUB + HIST_SUB;
    *lo = m << s;
    *hi = ((m + 1) << s) - 1;
}

void hist_add(hist *h, uint64_t v)
{
    unsigned i = bucket_of(v);
    if (i >= HIST_BUCKETS) i = HIST_BUCKETS - 1;
    h->b[i]++;
    h->count++;
    h->sum += v;
    if (v < h->min) h->min = v;
    if (v > h->max) h->max = v;
}

uint64_t hist_quantile(const hist *h, double q)
{
    if (h->count == 0) return 0;
    if (q <= 0) return h->min;
    if (q >= 1) return h->max;
    /* Rank of the sample at quantile q (1-based, nearest-rank method). */
    uint64_t rank = (uint64_t)(q * (double)h->count);
    if ((double)rank < q * (double)h->count) rank++;
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        seen += h->b[i];
        if (seen >= rank) {
            uint64_t lo, hi;
            bucket_range(i, &lo, &hi);
            uint64_t mid = lo + (hi - lo) / 2;
            if (mid < h->min) mid = h->min;
            if (mid > h->max) mid = h->max;
            return mid;
        }
    }
    return h->max;
}

double hist_mean(const hist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

void hist_merge(hist *into, const hist *from)
{
    for (unsigned i = 0; i < HIST_BUCKETS; i++) into->b[i] += from->b[i];
    into->count += from->count;
    into->sum += from->sum;
    if (from->min < into->min) into->min = from->min;
    if (from->max > into->max) into->max = from->max;
}
