/*
 * perf.h — what the server tells an operator who asks why it is slow
 * (issue 16): the tick breakdown, the health report, the slow-tick monitor
 * and the once-a-second samples behind them. The `tick query` and `health`
 * commands (game/cmd_perf.c) print perf_*_lines; /api/tick, /api/health
 * and /debug/conns (admin/perf_api.c) serve the same figures as JSON.
 *
 * Once a second (a loop timer): ticks run, process and system CPU time,
 * game-socket bytes in and out, and per connection the packets in and out
 * (struct conn_io's rates), into a ring of PERF_HISTORY seconds.
 *
 * Slow-tick monitor: a tick of at least mcserv-slow-tick-ms logs one line,
 *   Slow tick 1234: 212.4 ms (debug_stall 200.1, players 8.2, ...; the
 *   rest < 0.05 ms; before it: net_read 1.2, flush 0.4 ms)
 * and, with mcserv-background-profiler=true, the tick's top stacks on the
 * lines after it. At most PERF_SLOW_LOGS_PER_10S such reports per 10 s;
 * the rest are counted in one line when the window ends.
 *
 * Invariants:
 *  1. Game thread only; fixed memory (the ring), nothing allocated per tick.
 *  2. The text and the JSON are built from one struct perf_health /
 *     tickstat summary, so the console, RCON and HTTP agree.
 */
#ifndef MC_PERF_H
#define MC_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/loop.h"

#define PERF_HISTORY           900 /* seconds: 15 minutes */
#define PERF_SLOW_LOGS_PER_10S 10
#define PERF_BACKGROUND_HZ     50 /* the background sampler (wall clock, game thread) */

struct perf_mspt {
    double min_ms, median_ms, p95_ms, max_ms;
};

struct perf_health {
    double tps_5s, tps_1m, tps_5m, tps_15m;
    struct perf_mspt mspt_10s, mspt_1m;
    int cores;
    /* CPU, % of the whole machine (all cores), over 10 s and 1 min */
    double cpu_process_10s, cpu_process_1m, cpu_system_10s, cpu_system_1m;
    /* Memory, bytes */
    struct {
        uint64_t rss, heap_in_use, allocator_free;
        uint64_t chunks, chunk_cache, players, output_queues, entities;
    } mem;
    uint64_t loaded_chunks;
    /* Game sockets, bytes per second over 10 s and 1 min */
    double net_in_10s, net_out_10s, net_in_1m, net_out_1m;
    /* Keep-alive pings of the players online, ms */
    size_t players;
    double ping_p50, ping_p95, ping_max;
};

/* From tick_start: the monitor, the background sampler, the 1 s samples. */
void perf_start(loop *l);
void perf_stop(void);
void perf_health(struct perf_health *h);

/* The `tick query` and `health` texts, one call of emit per line. */
typedef void (*perf_emit)(void *arg, const char *line);
void perf_tick_query_lines(perf_emit emit, void *arg);
void perf_health_lines(perf_emit emit, void *arg);

#endif
