/*
 * loop.c — see loop.h for the pass and its invariants.
 *
 * epoll's data.ptr is the loop_watch itself. The batched set is a second
 * epoll instance that is never waited on: it is polled with a zero timeout
 * when its interval has passed, so the watches in it cost nothing between
 * polls.
 */
#include "core/loop.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"

void loop_update_clock(loop *l)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    l->now_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    l->now_ms = l->now_us / 1000;
}

int loop_init(loop *l)
{
    memset(l, 0, sizeof *l);
    l->epfd = epoll_create1(EPOLL_CLOEXEC);
    l->epfd_batched = epoll_create1(EPOLL_CLOEXEC);
    if (l->epfd < 0 || l->epfd_batched < 0) {
        int err = errno;
        loop_free(l);
        return -err;
    }
    loop_update_clock(l);
    tw_init(&l->timers, l->now_ms);
    l->next_batch_ms = l->now_ms;
    return 0;
}

void loop_free(loop *l)
{
    if (l->epfd >= 0) close(l->epfd);
    if (l->epfd_batched >= 0) close(l->epfd_batched);
    l->epfd = l->epfd_batched = -1;
}

void loop_stop(loop *l)
{
    l->stopping = true;
}

/* ------------------------------------------------------------------ watches */

void loop_watch_init(loop_watch *w, void (*on_event)(loop_watch *w, uint32_t events))
{
    w->on_event = on_event;
    w->fd = -1;
    w->events = 0;
    w->batched = false;
}

static int set_of(const loop *l, const loop_watch *w)
{
    return w->batched ? l->epfd_batched : l->epfd;
}

static int ctl(int epfd, int op, loop_watch *w, int fd, uint32_t events)
{
    struct epoll_event ev = {.events = events, .data.ptr = w};
    return epoll_ctl(epfd, op, fd, &ev) < 0 ? -errno : 0;
}

int loop_watch_add(loop *l, loop_watch *w, int fd, uint32_t events)
{
    int rc = ctl(set_of(l, w), EPOLL_CTL_ADD, w, fd, events);
    if (rc == 0) {
        w->fd = fd;
        w->events = events;
        if (w->batched) l->nbatched++;
    }
    return rc;
}

int loop_watch_mod(loop *l, loop_watch *w, uint32_t events)
{
    if (w->fd < 0) return -EBADF;
    if (events == w->events) return 0;
    int rc = ctl(set_of(l, w), EPOLL_CTL_MOD, w, w->fd, events);
    if (rc == 0) w->events = events;
    return rc;
}

void loop_watch_del(loop *l, loop_watch *w)
{
    if (w->fd < 0) return;
    epoll_ctl(set_of(l, w), EPOLL_CTL_DEL, w->fd, NULL);
    w->fd = -1;
    if (w->batched) l->nbatched--;
}

int loop_watch_set_batched(loop *l, loop_watch *w, bool batched)
{
    if (w->batched == batched) return 0;
    if (w->fd < 0) {
        w->batched = batched;
        return 0;
    }
    int fd = w->fd;
    loop_watch_del(l, w);
    w->batched = batched;
    return loop_watch_add(l, w, fd, w->events);
}

void loop_set_batch_interval(loop *l, int interval_ms)
{
    l->batch_interval_ms = interval_ms > 0 ? interval_ms : 0;
    l->next_batch_ms = l->now_ms;
}

/* -------------------------------------------------------------------- hooks */

int loop_hook_add(loop *l, int order, void (*fn)(void *arg), void *arg)
{
    if (l->nhooks >= LOOP_MAX_HOOKS) return -1;
    int i = l->nhooks++;
    while (i > 0 && l->hooks[i - 1].order > order) {
        l->hooks[i] = l->hooks[i - 1];
        i--;
    }
    l->hooks[i] = (struct loop_hook){order, fn, arg, 0};
    return 0;
}

int loop_after_hook_add(loop *l, void (*fn)(void *arg), void *arg)
{
    if (l->nafter >= LOOP_MAX_AFTER) return -1;
    l->after[l->nafter++] = (struct loop_hook){0, fn, arg, 0};
    return 0;
}

int64_t loop_hook_ns(const loop *l, int order)
{
    int64_t ns = 0;
    for (int i = 0; i < l->nhooks; i++)
        if (l->hooks[i].order == order) ns += l->hooks[i].ns;
    return ns;
}

/* Step 2, each hook timed (chained: one clock read per hook). */
static void run_hooks(loop *l)
{
    int64_t t = clock_ns();
    for (int i = 0; i < l->nhooks; i++) {
        l->hooks[i].fn(l->hooks[i].arg);
        int64_t now = clock_ns();
        l->hooks[i].ns += now - t;
        t = now;
    }
}

/* --------------------------------------------------------------------- pass */

/* Dispatches n events; true if the array was full (more may be ready). */
static bool dispatch(struct epoll_event *evs, int n)
{
    for (int i = 0; i < n; i++) {
        loop_watch *w = evs[i].data.ptr;
        if (w->fd >= 0) w->on_event(w, evs[i].events); /* invariant 2 */
    }
    return n == LOOP_MAX_EVENTS;
}

static int sleep_ms(const loop *l, int max_sleep_ms)
{
    int timeout = tw_timeout(&l->timers, l->now_ms, max_sleep_ms);
    if (l->batch_interval_ms > 0 && l->nbatched > 0) {
        int64_t until_batch = l->next_batch_ms - l->now_ms;
        if (until_batch < timeout) timeout = until_batch > 0 ? (int)until_batch : 0;
    }
    return timeout;
}

static void poll_batched(loop *l, struct epoll_event *evs)
{
    if (l->nbatched == 0) return;
    if (l->batch_interval_ms > 0) {
        if (l->now_ms < l->next_batch_ms) return;
        l->next_batch_ms += l->batch_interval_ms;
        if (l->next_batch_ms <= l->now_ms) l->next_batch_ms = l->now_ms + l->batch_interval_ms;
    }
    for (int round = 0; round < LOOP_BATCH_ROUNDS; round++) {
        int n = epoll_wait(l->epfd_batched, evs, LOOP_MAX_EVENTS, 0);
        if (n <= 0) break;
        bool more = dispatch(evs, n);
        /* The main set between rounds, on a fresh clock: what is ready
         * there (mcbench: a bot still joining) is not held, nor timed,
         * behind the whole batch (invariant 3). */
        loop_update_clock(l);
        int m = epoll_wait(l->epfd, evs, LOOP_MAX_EVENTS, 0);
        if (m > 0) dispatch(evs, m);
        if (!more) break;
    }
}

int loop_run_once(loop *l, int max_sleep_ms)
{
    struct epoll_event *evs = l->events;
    l->passes++;
    loop_update_clock(l); /* step 0 */
    tw_run(&l->timers, l->now_ms);
    run_hooks(l);
    if (l->stopping) return 0;
    int n = epoll_wait(l->epfd, evs, LOOP_MAX_EVENTS, sleep_ms(l, max_sleep_ms));
    int err = n < 0 ? errno : 0;
    loop_update_clock(l);
    if (n < 0) return err == EINTR ? 0 : -err;
    int64_t t0 = clock_ns();
    dispatch(evs, n);
    poll_batched(l, evs);
    for (int i = 0; i < l->nafter; i++) l->after[i].fn(l->after[i].arg); /* step 7 */
    l->dispatch_ns += clock_ns() - t0;
    return 0;
}

int loop_run(loop *l)
{
    l->stopping = false;
    loop_update_clock(l);
    while (!l->stopping) {
        int rc = loop_run_once(l, LOOP_MAX_SLEEP_MS);
        if (rc < 0) return rc;
    }
    return 0;
}
