/*
 * tickstat.h — how long ticks take: the last minute of tick durations for
 * `mspt`/`tps`, and a cumulative histogram for Prometheus.
 *
 * The event loop calls tickstat_begin() and tickstat_end() around each whole
 * tick (everything tick() does, including saves queued and chunks swept).
 *
 * Invariants:
 *  1. Fixed memory: a ring of TICKSTAT_WINDOW entries and fixed buckets; no
 *     allocation after startup.
 *  2. Game thread only.
 */
#ifndef MC_TICKSTAT_H
#define MC_TICKSTAT_H

#include <stdint.h>

#define TICKSTAT_WINDOW  1200 /* one minute of ticks */
#define TICKSTAT_SHORT   100  /* five seconds */
#define TICKSTAT_BUCKETS 9

/* Upper bounds (seconds) of the histogram buckets; the last is +Inf. */
extern const double tickstat_bucket_le[TICKSTAT_BUCKETS];

struct tickstat_summary {
    double min_ms, median_ms, p95_ms, p99_ms, max_ms;
    double tps;     /* ticks per second over the window's span (at most 20) */
    double cpu_pct; /* game-thread CPU over the window's span, % of one core */
    uint32_t ticks; /* ticks the summary covers */
};

void tickstat_begin(void);
void tickstat_end(void);
/* Summary of the last n ticks (n <= TICKSTAT_WINDOW). */
void tickstat_summarize(uint32_t n, struct tickstat_summary *out);
/* Cumulative histogram since start: counts[i] = ticks <= bucket i; sum in seconds. */
void tickstat_histogram(uint64_t counts[TICKSTAT_BUCKETS], double *sum_s, uint64_t *count);

#endif
