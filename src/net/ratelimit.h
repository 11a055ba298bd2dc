/*
 * ratelimit.h — the packet limiter's parts (pure: no I/O, no globals;
 * tests/unit/test_limits.c drives them directly): a sliding-window event
 * counter, the serverbound play packets with their own DROP window
 * (Paper-like overrides) and the per-type size caps. net/limits.h applies
 * them to connections.
 *
 * Invariants:
 *  1. A window is 16 bytes and never allocates; counts saturate at
 *     UINT32_MAX instead of wrapping.
 *  2. A clock that goes backwards, or a gap of two intervals, starts the
 *     window over.
 */
#ifndef MC_RATELIMIT_H
#define MC_RATELIMIT_H

#include <stddef.h>
#include <stdint.h>

/*
 * A sliding-window event counter in 16 bytes: the count of the current
 * fixed window plus the previous one weighted by how much of it still lies
 * inside the sliding window (the "sliding window counter" estimate; exact
 * for a steady rate, off by at most one window's burst shape otherwise).
 */
typedef struct rate_win {
    int64_t start_ms; /* start of the current fixed window; 0 = unused */
    uint32_t prev, cur;
} rate_win;

/* Adds n events at now_ms; returns the estimated number of events in the
 * last interval_ms, these included. */
uint32_t rate_win_add(rate_win *w, int64_t now_ms, int64_t interval_ms, uint32_t n);

/* Serverbound play packets with their own DROP window (Paper-like overrides). */
struct packet_override {
    int32_t id;
    const char *name;
    int interval_ms;
    int max_rate; /* per second, averaged over the interval */
};
extern const struct packet_override limits_packet_overrides[];
extern const size_t limits_packet_override_count;

/* Per-type size caps (vanilla's own decoder limits); 0 = the frame cap only. */
size_t limits_play_packet_max(int32_t id);

#endif
