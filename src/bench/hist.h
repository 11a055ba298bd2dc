/*
 * hist.h — a log-linear latency histogram (HdrHistogram's idea): no
 * per-sample storage, constant memory, about 3 % relative precision.
 *
 * Values are unsigned integers (mcbench records microseconds). Buckets:
 *   v < 2*HIST_SUB            one bucket per value (exact)
 *   otherwise, with e = floor(log2 v) and s = e - HIST_SUB_BITS:
 *                             bucket s*HIST_SUB + (v >> s), i.e. HIST_SUB
 *                             buckets per power of two
 *
 * Invariants:
 *  1. Recording never allocates and never fails; values above HIST_MAX are
 *     clamped into the last bucket (and still set `max` exactly).
 *  2. A percentile is reported as the midpoint of its bucket, clamped to
 *     [min, max], so p100 == max and every percentile is within one bucket
 *     width (<= 1/HIST_SUB of the value) of a recorded value.
 */
#ifndef MCB_HIST_H
#define MCB_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 5
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_MAX_LOG2 40 /* 2^40 us = 12.7 days */
#define HIST_MAX      ((1ull << HIST_MAX_LOG2) - 1)
#define HIST_BUCKETS  ((HIST_MAX_LOG2 - HIST_SUB_BITS + 1) * HIST_SUB)

typedef struct hist {
    uint64_t count;
    uint64_t sum;
    uint64_t min, max;
    uint32_t b[HIST_BUCKETS];
} hist;

void hist_init(hist *h);
void hist_add(hist *h, uint64_t v);
/* Value at quantile q in [0,1]; 0 when empty. */
uint64_t hist_quantile(const hist *h, double q);
double hist_mean(const hist *h);
void hist_merge(hist *into, const hist *from);

#endif
