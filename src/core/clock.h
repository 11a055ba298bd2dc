/*
 * clock.h — monotonic time. The event loop reads the clock once per pass
 * (clock_now_ms cached in a global by the loop owner); these are the raw reads.
 */
#ifndef MC_CLOCK_H
#define MC_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline int64_t clock_ms(void)
{
    return clock_ns() / 1000000;
}

/* Wall-clock milliseconds since the epoch (for keep-alive ids, logs). */
static inline int64_t clock_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
