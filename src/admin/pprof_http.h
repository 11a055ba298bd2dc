/*
 * pprof_http.h — GET /debug/pprof/profile on the HTTP admin endpoint (as
 * Go's net/http/pprof names it): a CPU profile of every thread of the
 * server (core/profiler.h), answered when it ends.
 *
 *   ?seconds=N          1..300, default 30
 *   ?hz=N               samples per second of CPU time per thread, 1..1000,
 *                       default 100
 *   ?format=proto       (default) gzipped profile.proto: `go tool pprof`
 *   ?format=collapsed   folded stacks, text (flamegraph.pl, speedscope,
 *                       the dashboard's flame graph)
 *   ?only_ticks_over=MS keep only samples taken during ticks of at least
 *                       MS milliseconds (spark's --only-ticks-over)
 *
 *   IDLE --request--> SAMPLING (N s; rings drained every 50 ms)
 *        --time up--> ENCODING (names and encoding on a worker) --> answered, IDLE
 *   SAMPLING --client gone--> profile dropped, IDLE
 *
 * Answers: 200 with the profile; 400 naming the bad parameter; 409 while a
 * profile is sampling or encoding (one at a time; the reason says when it
 * ends); 503 when the profiler cannot start (the reason); 500 when the
 * profile does not fit the endpoint's output cap.
 *
 * Invariants:
 *  1. One profile at a time; its state is this file's, on the game thread.
 *  2. Naming and encoding never run on the game thread (a worker job).
 */
#ifndef MC_PPROF_HTTP_H
#define MC_PPROF_HTTP_H

#include "admin/http.h"

#define PPROF_SECONDS_DEFAULT 30
#define PPROF_SECONDS_MAX     300

/* route(): starts a profile for the client with ticket t (r->deferred), or
 * fills r with the refusal. */
void pprof_http_profile(const char *query, http_ticket t, struct http_reply *r);
/* A profile being sampled is dropped (the endpoint stops). */
void pprof_http_stop(void);
/* Reads one parameter "name=value" of a query string into out (cap bytes,
 * NUL-terminated); false when absent. Values are not percent-decoded (the
 * parameters here are numbers and words). */
bool http_query_param(const char *query, const char *name, char *out, size_t cap);

#endif
