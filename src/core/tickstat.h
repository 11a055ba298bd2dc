/*
 * tickstat.h — how long ticks take: the last minute of tick durations for
 * `mspt`/`tps`, and a cumulative histogram for Prometheus.
 *
 * The event loop calls tickstat_begin() and tickstat_end() around each whole
 * tick (everything tick() does, including saves queued and chunks swept).
 *
 * Tick breakdown (issue 16): the tick registers its phases once
 * (tickstat_set_phases; game/tick.c names them). Phases inside the tick
 * tile it: tickstat_phase_end() after each call gives that phase the time
 * since the previous one ended; phases between ticks (the
 * loop's network read/decode, chunk streaming, flush) come as running
 * totals (core/loop.h) handed over at the start of each tick
 * (tickstat_between): the share of the loop passes since the previous
 * tick. Per tick and phase: microseconds in the one-minute ring, and a
 * cumulative histogram for Prometheus (mcserv_tick_phase_seconds).
 *
 * Slow-tick monitor: tickstat_on_slow() registers a callback run at the end
 * of every tick of at least the given length, with the tick's phases still
 * readable through tickstat_last_phase_us().
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
 *  2. Game thread only (but tickstat_running_seq, an atomic any thread reads).
 *  3. Phase ids are fixed at startup; an unknown id is ignored.
 */
#ifndef MC_TICKSTAT_H
#define MC_TICKSTAT_H

#include <stdbool.h>
#include <stdint.h>

#define TICKSTAT_WINDOW        1200 /* one minute of ticks */
#define TICKSTAT_SHORT         100  /* five seconds */
#define TICKSTAT_BUCKETS       9
#define TICKSTAT_ALLOC_WINDOW  200 /* ten seconds: the window of the allocation figures */
#define TICKSTAT_10S           200 /* ten seconds of ticks */
#define TICKSTAT_PHASES_MAX    24
#define TICKSTAT_PHASE_BUCKETS 12

/* Upper bounds (seconds) of the histogram buckets; the last is +Inf. */
extern const double tickstat_bucket_le[TICKSTAT_BUCKETS];
/* The same for the phase histograms (phases are often microseconds). */
extern const double tickstat_phase_bucket_le[TICKSTAT_PHASE_BUCKETS];

/* The running tick's sequence number (1, 2, ... as tickstat_begin counts
 * them), 0 between ticks. Any thread may read it (the profiler's signal
 * handler tags samples with it); only tickstat writes it. */
extern _Atomic uint64_t tickstat_running_seq;

struct tickstat_summary {
    double min_ms, median_ms, p95_ms, p99_ms, max_ms;
    double mean_ms; /* the phases' means add up to it (they tile the tick) */
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

/* --- tick breakdown --- */

/* The phases, once at startup (names live as long as the process): ids
 * 0..n_in-1 are inside the tick (tickstat_phase), n_in..n-1 between ticks
 * (tickstat_between). At most TICKSTAT_PHASES_MAX. */
void tickstat_set_phases(const char *const *names, int n, int n_in);
int tickstat_phase_count(void);
int tickstat_phase_count_in_tick(void);
const char *tickstat_phase_name(int id);
/* Ends phase id of the running tick: it gets the time since the previous
 * phase ended (or the tick began), so the phases tile the tick with one
 * clock read each. */
void tickstat_phase_end(int id);
/* Between-tick phase id: total_ns is a running total; the tick about to
 * begin gets its growth since the previous tick. Call before tickstat_begin. */
void tickstat_between(int id, int64_t total_ns);

struct tickstat_phase_summary {
    double p50_ms, p95_ms, p99_ms, max_ms, mean_ms;
    uint32_t ticks;
};
/* Phase id over the last n ticks. */
void tickstat_phase_summarize(int id, uint32_t n, struct tickstat_phase_summary *out);
/* Cumulative histogram of phase id since start (as tickstat_histogram). */
void tickstat_phase_histogram(int id, uint64_t counts[TICKSTAT_PHASE_BUCKETS], double *sum_s,
                              uint64_t *count);
/* Phase id of the newest finished tick, microseconds. */
uint32_t tickstat_last_phase_us(int id);
/* How long tick seq took (microseconds), or -1 when it is not in the ring
 * (too old, or not finished). */
int64_t tickstat_tick_us(uint64_t seq);
/* The durations of the last n ticks (newest first) into out; returns how many. */
uint32_t tickstat_recent_us(uint32_t n, uint32_t *out);

/* After every tick of at least ms milliseconds (0: off), fn(seq, ns) runs
 * at the end of tickstat_end (the monitor; game/perf.c logs it). */
void tickstat_on_slow(int ms, void (*fn)(uint64_t seq, int64_t ns));

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
