/*
 * profiler.h — the built-in sampling profiler (issue 16): a timer signal
 * per thread, stacks unwound by frame pointers in the signal handler into
 * preallocated per-thread rings, drained on the game thread into a table
 * of distinct stacks. core/symtab.h names the addresses and core/pprof.h
 * writes profile.proto or folded stacks; admin/pprof_http.c serves it.
 *
 * Two ways to sample:
 *   - a profile (profiler_start .. profiler_stop): every thread of the
 *     process at start, each on its own CPU-time clock (a perf task-clock
 *     event, or where perf events are refused a timer_create on the
 *     thread's CPU clock; profiler.c says how they differ), so a thread is
 *     sampled in proportion to the CPU it uses; one profile at a time;
 *   - the background sampler (mcserv-background-profiler): the game thread
 *     only, on the wall clock (a stalled or sleeping tick is sampled too),
 *     its last PROF_RING samples kept for the slow-tick monitor
 *     (profiler_tick_stacks). It pauses while a profile runs; the profile's
 *     game-thread samples serve the monitor then.
 *
 *   idle --profiler_start--> PROFILING --profiler_stop--> idle
 *     \--background_start--> BACKGROUND --profiler_start--> PROFILING
 *                              ^                               |
 *                              +------ profiler_stop ----------+
 *
 * Invariants:
 *  1. The signal handler is async-signal-safe: no allocation, no lock, no
 *     libc call but clock-free register and memory reads; it reads only
 *     stack memory between the interrupted stack pointer and the thread's
 *     stack top (the thread pointer, or __libc_stack_end for the main
 *     thread), so a broken frame chain ends the walk instead of faulting.
 *  2. Each ring has one producer (its thread's handler) and one consumer
 *     (the game thread): head is published with release, tail with
 *     release; a full ring drops the sample (counted), never blocks.
 *  3. Rings are allocated on the game thread before their timer exists and
 *     never freed until profiler_free (after SIGPROF is ignored), so a late
 *     signal of a deleted timer writes into valid memory.
 *  4. Bounded: PROF_MAX_THREADS threads, PROF_MAX_DEPTH frames a sample,
 *     PROF_MAX_STACKS distinct stacks a profile (later new stacks are
 *     counted as dropped).
 *  5. Off costs nothing: no timer, no signal, nothing on the hot path.
 */
#ifndef MC_PROFILER_H
#define MC_PROFILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

#define PROF_MAX_THREADS 64
#define PROF_MAX_DEPTH   64
#define PROF_RING        512 /* samples per thread between two drains (50 ms apart) */
#define PROF_MAX_STACKS  32768
#define PROF_HZ_DEFAULT  100
#define PROF_HZ_MAX      1000

struct prof_thread {
    int tid;
    char name[24]; /* "game" for the game thread, else the thread's comm */
};

struct prof_stack {
    uint32_t thread; /* index into profile.threads */
    uint32_t depth;  /* frames; pcs[pc_off] is the leaf */
    size_t pc_off;
    uint64_t count;
};

typedef struct profile {
    struct prof_thread threads[PROF_MAX_THREADS];
    int nthreads;
    struct prof_stack *stacks;
    size_t nstacks;
    uintptr_t *pcs; /* the stacks' frames, leaf first; callers are return addresses */
    size_t npcs;
    uint64_t samples;  /* kept */
    uint64_t dropped;  /* lost: a ring was full, or the stack table */
    uint64_t filtered; /* left out by only_ticks_over */
    int hz;
    const char *clock; /* what sampled: "perf task-clock" or "thread CPU timer" */
    int64_t period_ns;
    int64_t start_unix_ns, duration_ns;
    int64_t only_over_us;
} profile;

/* On the game thread, once, before any other call: remembers it as the
 * game thread. 0, or -1 (logged) when the signal handler cannot be set. */
int profiler_init(void);
/* At exit: timers gone, SIGPROF ignored, rings freed. */
void profiler_free(void);

/* Starts a profile of every thread at hz (1..PROF_HZ_MAX); only_over_us > 0
 * keeps only samples taken during ticks at least that long
 * (core/tickstat.h sequence numbers). 0; -EBUSY when one is running;
 * -errno when the timers cannot be made. */
int profiler_start(int hz, int64_t only_over_us);
bool profiler_running(void);
/* Game thread, between ticks: the rings into the profile (every 50 ms). */
void profiler_drain(void);
/* Ends the profile (drained a last time); the caller owns the result. */
profile *profiler_stop(void);
void profile_free(profile *p);

/* The background sampler: the game thread on the wall clock at hz. 0 or -errno. */
int profiler_background_start(int hz);
void profiler_background_stop(void);
bool profiler_background_on(void);

/*
 * The top `n` stacks of the game thread's samples during tick seq, still in
 * its ring (call at the end of that tick), as lines
 * "    <count> samples: leaf < caller < ... (< at most 12 frames)" into out.
 * Returns the number of samples found (0: none, nothing written).
 * Symbolises with core/symtab.h (loaded at profiler_background_start).
 */
int profiler_tick_stacks(uint64_t seq, int n, buf_t *out);

#endif
