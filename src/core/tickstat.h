/*
 * tickstat.h — how long ticks take: the last minute of tick durations for
 * `mspt`/`tps`, and a cumulative histogram for Prometheus.
 *
 * The event loop calls tickstat_begin() and tickstat_end() around each whole
 * tick (everything tick() does, including saves queued and chunks swept).
 *
 * Heap allocations per tick (issue 12): in the counting build only
 * (`make BUILD=build-count COUNT_ALLOC=1`, tests/alloc/alloc_count.c), which
 * interposes malloc and defines tickstat_alloc_read() and
 * tickstat_alloc_tick(). tickstat.c references them weakly: in every other
 * build they are absent and the cost is one pointer test per tick. Two
 * figures per tick, over the last TICKSTAT_ALLOC_WINDOW ticks:
 *   - in tick: game-thread allocations between tickstat_begin and _end;
 *   - period: from one tickstat_begin to the next, so the tick plus the loop
 *     passes that follow it (packets read and handled, chunk streaming,
 *     output flushed, admin requests): all the game thread's work.
 *
 * Invariants:
 *  1. Fixed memory: a ring of TICKSTAT_WINDOW entries, one of
 *     TICKSTAT_ALLOC_WINDOW and fixed buckets; no allocation after startup.
 *  2. Game thread only.
 */
#ifndef MC_TICKSTAT_H
#define MC_TICKSTAT_H

#include <stdbool.h>
#include <stdint.h>

#define TICKSTAT_WINDOW       1200 /* one minute of ticks */
#define TICKSTAT_SHORT        100  /* five seconds */
#define TICKSTAT_BUCKETS      9
#define TICKSTAT_ALLOC_WINDOW 200 /* ten seconds: the window of the allocation figures */

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

/* Heap calls counted by the counting allocator: allocations (malloc, calloc,
 * realloc, the aligned ones), frees of non-NULL pointers, bytes requested. */
struct tickstat_alloc_counts {
    uint64_t allocs, frees, bytes;
};

/* Per-tick allocation figures over the last n complete ticks; the quantile
 * arrays are {median, p99, max}. */
struct tickstat_alloc_summary {
    uint32_t ticks;                           /* ticks covered (0 before the first two ticks) */
    uint32_t in_tick[3];                      /* allocations inside tick() */
    uint32_t period[3];                       /* allocations in the whole tick period */
    uint32_t frees[3];                        /* frees in the whole tick period */
    uint32_t bytes[3];                        /* bytes requested in the whole tick period */
    struct tickstat_alloc_counts game, other; /* totals since start, by thread */
};

/* false (and nothing filled in) unless the counting allocator is linked. */
bool tickstat_alloc_summarize(uint32_t n, struct tickstat_alloc_summary *out);

/* Defined only by the counting allocator (tickstat.c declares them weak):
 * its running totals for the game thread and for every other thread (`other`
 * may be NULL), and the tick boundaries for its tracer (in_tick true at
 * tickstat_begin, false at tickstat_end). */
void tickstat_alloc_read(struct tickstat_alloc_counts *game, struct tickstat_alloc_counts *other);
void tickstat_alloc_tick(uint64_t tick, bool in_tick);

#endif
