/*
 * perf_api.h — the performance endpoints of the HTTP admin server (issue
 * 16), JSON built from game/perf.h and core/tickstat.h:
 *
 *   GET /api/tick     the tick breakdown:
 *     {"tick": 1234, "tps": {"5s": 20, "1m": 20},
 *      "mspt": {"10s": {"p50","p95","p99","max","min","mean","ticks"}, "1m": {...}},
 *      "phases": [{"name": "players", "in_tick": true,
 *                  "10s": {"p50","p95","p99","max","mean"}, "1m": {...}}, ...],
 *      "in_tick_p50_sum": {"10s": 1.2, "1m": 1.1}, "slow_tick_ms": 100}
 *     (milliseconds; phases with in_tick false are loop work between ticks)
 *   GET /api/health   the health report (game/perf.h struct perf_health):
 *     {"tps": {"5s","1m","5m","15m"}, "mspt": {"10s": {"min","median","p95",
 *      "max"}, "1m": {...}}, "cpu": {"cores", "process": {"10s","1m"},
 *      "system": {...}}  (% of all cores), "memory": {"rss", "heap_in_use",
 *      "allocator_free", "chunks", "chunk_cache", "players", "output_queues",
 *      "entities"} (bytes), "loaded_chunks", "network": {"in": {"10s","1m"},
 *      "out": {...}} (bytes/s), "ping": {"players","p50","p95","max"} (ms)}
 *   GET /debug/conns  every game connection (?format=text: a table, the
 *     most queued first):
 *     {"count": 2, "connections": [{"id", "state", "player" (or null),
 *      "address", "queued_bytes", "last_read_ms_ago", "last_write_ms_ago"
 *      (null: never), "packets_in_per_s", "packets_out_per_s",
 *      "packets_in", "packets_out", "age_s"}]}
 *
 * Invariants:
 *  1. User text (player names) goes through the JSON string writer; the
 *     text table escapes nothing it prints but names (A-Z a-z 0-9 _) and
 *     addresses.
 *  2. Bounded: one static buffer per answer, capped below the endpoint's
 *     output limit; a list too long to fit is answered with an error.
 */
#ifndef MC_PERF_API_H
#define MC_PERF_API_H

#include <stdbool.h>

#include "admin/http.h"

/* True for the paths this file answers. */
bool perf_api_route(const char *path);
/* The answer for path (valid until the next call). */
void perf_api_get(const char *path, const char *query, struct http_reply *r);
void perf_api_free(void);

#endif
