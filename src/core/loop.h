/*
 * loop.h — the event loop mcserv and mcbench both run on, as Redis's ae.c
 * serves redis-server and redis-benchmark: epoll over registered watches,
 * a timing wheel of timers (core/timer.h), and hooks that run once per pass
 * before the loop sleeps.
 *
 * One pass of loop_run, in order:
 *   0. read the clock (now_ms, now_us)
 *   1. timers: every timer due at the pass's clock fires; a timer re-armed
 *      for the past fires in the next pass, so a callback that re-arms
 *      itself runs at most once per pass
 *   2. before-sleep hooks, in ascending `order` (stream, flush output, free
 *      what was closed during the pass)
 *   3. if loop_stop was called: return
 *   4. epoll_wait on the main set until the next timer is due (0 when one
 *      is overdue, never longer than LOOP_MAX_SLEEP_MS or the batched set's
 *      next poll)
 *   5. read the clock once (now_ms, now_us); dispatch every ready watch
 *   6. the batched set (a second epoll set for watches that can wait, such
 *      as mcbench's joined bots): once its interval has passed, poll it
 *      without waiting and dispatch what is ready, in bounded rounds
 *   7. after-dispatch hooks, in registration order: work the watch
 *      callbacks queued instead of doing (net/conn.c reads the sockets of
 *      the connections that were readable on its I/O threads here), still
 *      before the next pass's timers
 *
 * Invariants:
 *  1. One thread, the loop's owner, runs every callback; nothing here locks.
 *  2. A watch's memory stays valid until the end of the pass in which it
 *     was deleted: epoll may already have returned an event for it. Free
 *     watched objects from a before-sleep hook, never inside a callback.
 *     Events of a watch deleted earlier in the same pass are not delivered
 *     (loop_watch_del sets fd to -1).
 *  3. The clock (now_ms / now_us, CLOCK_MONOTONIC) is read twice per pass:
 *     at its start (step 0), so timers fire on time and what they start is
 *     timed from when they ran, not from the end of the last wait; and
 *     after the wait (step 5) for the watch callbacks; with a batched set,
 *     also before each poll of the main set between two rounds of the
 *     batched one (a long batch neither delays nor mistimes what the main
 *     set has ready). No callback reads the clock itself: every decision
 *     of a step sees one time.
 *  4. Every wait is bounded (LOOP_MAX_SLEEP_MS), so hooks run at least that
 *     often; work per pass is bounded by LOOP_MAX_EVENTS per poll.
 *
 * Timing (the tick breakdown, core/tickstat.h): the loop keeps running
 * totals of the time spent in steps 5-7 (dispatch_ns: reading, decoding and
 * handling what was ready, the after-dispatch hooks' reads included) and
 * in each hook (loop_hook_ns by order). They cost two clock reads per pass
 * plus one per hook; nothing reads them but whoever asks.
 */
#ifndef MC_LOOP_H
#define MC_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>

#include "core/timer.h"

#define LOOP_MAX_HOOKS    16
#define LOOP_MAX_AFTER    4
#define LOOP_MAX_EVENTS   512
#define LOOP_MAX_SLEEP_MS 100
#define LOOP_BATCH_ROUNDS 64 /* polls of the batched set per interval */

typedef struct loop_watch loop_watch;
struct loop_watch {
    /* events: EPOLLIN, EPOLLOUT, EPOLLHUP, EPOLLERR as epoll reported them */
    void (*on_event)(loop_watch *w, uint32_t events);
    int fd; /* -1 while not registered */
    uint32_t events;
    bool batched; /* in the batched set */
};

/* A timer is a timing-wheel node: embed it, and find the owner from it in
 * the callback (offsetof). */
typedef tnode loop_timer;

struct loop_hook {
    int order;
    void (*fn)(void *arg);
    void *arg;
    int64_t ns; /* running total of the time spent in fn */
};

typedef struct loop {
    int epfd, epfd_batched;
    int64_t now_ms, now_us; /* the pass's clock (invariant 3) */
    twheel timers;
    bool stopping;
    int batch_interval_ms; /* 0: the batched set is polled every pass */
    int64_t next_batch_ms;
    size_t nbatched; /* watches in the batched set */
    struct loop_hook hooks[LOOP_MAX_HOOKS];
    int nhooks;
    struct loop_hook after[LOOP_MAX_AFTER]; /* step 7 */
    int nafter;
    uint64_t passes;
    int64_t dispatch_ns; /* running total of steps 5-7 (ready watches dispatched, after-hooks) */
    struct epoll_event events[LOOP_MAX_EVENTS];
} loop;

/* 0, or -errno when epoll cannot be set up. */
int loop_init(loop *l);
void loop_free(loop *l);
/* Runs passes until loop_stop. 0, or -errno if epoll_wait failed. */
int loop_run(loop *l);
/* One pass, sleeping at most max_sleep_ms (tests, and shutdown drains). */
int loop_run_once(loop *l, int max_sleep_ms);
/* The current pass finishes its hooks, then loop_run returns. */
void loop_stop(loop *l);
/* Reads the clock into now_ms / now_us (loop_run does it once per pass). */
void loop_update_clock(loop *l);

void loop_watch_init(loop_watch *w, void (*on_event)(loop_watch *w, uint32_t events));
/* Registers fd with the events wanted (EPOLLIN, EPOLLOUT); 0 or -errno. */
int loop_watch_add(loop *l, loop_watch *w, int fd, uint32_t events);
int loop_watch_mod(loop *l, loop_watch *w, uint32_t events);
/* Unregisters (invariant 2); the caller closes the descriptor. */
void loop_watch_del(loop *l, loop_watch *w);
/* Moves a registered watch to the batched set or back; 0 or -errno. */
int loop_watch_set_batched(loop *l, loop_watch *w, bool batched);
/* How often the batched set is polled; 0 = every pass. */
void loop_set_batch_interval(loop *l, int interval_ms);

/* fn(arg) runs in step 2 of every pass, hooks ordered by `order` (equal
 * orders keep their registration order). -1 when LOOP_MAX_HOOKS are set. */
int loop_hook_add(loop *l, int order, void (*fn)(void *arg), void *arg);
/* Running total of the time (ns) spent in the hooks of that order. */
int64_t loop_hook_ns(const loop *l, int order);
/* fn(arg) runs in step 7 of every pass, after the watches were dispatched.
 * -1 when LOOP_MAX_AFTER are set. */
int loop_after_hook_add(loop *l, void (*fn)(void *arg), void *arg);

static inline void loop_timer_init(loop_timer *t, void (*fn)(loop_timer *t))
{
    tm_init(t, fn);
}
/* Arms (or re-arms) t for due_ms on the loop's clock. */
static inline void loop_timer_at(loop *l, loop_timer *t, int64_t due_ms)
{
    tm_add(&l->timers, t, due_ms);
}
static inline void loop_timer_after(loop *l, loop_timer *t, int64_t delay_ms)
{
    tm_add(&l->timers, t, l->now_ms + delay_ms);
}
static inline void loop_timer_stop(loop *l, loop_timer *t)
{
    tm_del(&l->timers, t);
}
static inline bool loop_timer_armed(const loop_timer *t)
{
    return tm_armed(t);
}

#endif
