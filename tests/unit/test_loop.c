/*
 * test_loop.c — core/loop: the pass order and invariants loop.h promises.
 *
 *   timers      fire in due order, never before their due time (the loop's
 *               clock and the real one); re-armed for the past: next pass,
 *               also when the clock has not moved since (the wheel alone)
 *   hooks       run in ascending `order`, equal orders in registration order
 *   watches     an event of a watch deleted earlier in the same pass is not
 *               delivered (two readable pipes; whichever callback runs first
 *               deletes the other's watch)
 *   batched     the batched set is polled only once its interval has passed
 *   stop        loop_stop: the pass finishes its hooks, then loop_run returns
 *   clock       timers see a clock read at the pass start
 *
 * The tests run a real loop on real descriptors and the real monotonic
 * clock; every wait is bounded (a few hundred ms at most).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/loop.h"
#include "test.h"

#define container_of(p, type, member) ((type *)((char *)(p)-offsetof(type, member)))

/* ------------------------------------------------------------------ timers */

static loop tl; /* the loop under test (large: not on the stack) */

struct rec_timer {
    loop_timer t;
    int64_t due;
};

static int64_t fired_due[16];
static int nfired, nearly;

static void on_rec_timer(loop_timer *t)
{
    struct rec_timer *r = container_of(t, struct rec_timer, t);
    if (tl.now_ms < r->due || clock_ms() < r->due) nearly++;
    if (nfired < 16) fired_due[nfired++] = r->due;
}

TEST(loop_timers_fire_in_due_order_never_early)
{
    CHECK_EQ_INT(loop_init(&tl), 0);
    static struct rec_timer r[7];
    const int64_t delay[7] = {7, 2, 15, 2, 30, 1, 9};
    nfired = nearly = 0;
    for (int i = 0; i < 7; i++) {
        r[i].due = tl.now_ms + delay[i];
        loop_timer_init(&r[i].t, on_rec_timer);
        loop_timer_at(&tl, &r[i].t, r[i].due);
    }
    int64_t give_up = clock_ms() + 2000;
    while (nfired < 7 && clock_ms() < give_up) loop_run_once(&tl, 50);
    CHECK_EQ_INT(nfired, 7);
    CHECK_EQ_INT(nearly, 0);
    for (int i = 1; i < nfired; i++) CHECK(fired_due[i] >= fired_due[i - 1]);
    CHECK_EQ_INT(tl.timers.armed, 0);
    loop_free(&tl);
}

static uint64_t rearm_pass[3];
static int nrearm;

static void on_rearm_past(loop_timer *t)
{
    if (nrearm < 3) rearm_pass[nrearm] = tl.passes;
    if (++nrearm < 3) loop_timer_at(&tl, t, tl.now_ms - 10); /* in the past */
}

TEST(loop_timer_rearmed_for_the_past_fires_next_pass)
{
    CHECK_EQ_INT(loop_init(&tl), 0);
    static loop_timer t;
    nrearm = 0;
    loop_timer_init(&t, on_rearm_past);
    loop_timer_at(&tl, &t, tl.now_ms);
    loop_run_once(&tl, 0);
    CHECK_EQ_INT(nrearm, 1); /* not again in the same pass */
    int64_t start = clock_ms();
    loop_run_once(&tl, 1000); /* an overdue timer: no sleep */
    CHECK_EQ_INT(nrearm, 2);
    CHECK(clock_ms() - start < 500);
    loop_run_once(&tl, 1000);
    CHECK_EQ_INT(nrearm, 3);
    CHECK_EQ_INT(rearm_pass[1], rearm_pass[0] + 1);
    CHECK_EQ_INT(rearm_pass[2], rearm_pass[1] + 1);
    CHECK(!loop_timer_armed(&t));
    loop_free(&tl);
}

static twheel wheel;
static int nwheel;

static void on_wheel_rearm_past(tnode *n)
{
    if (++nwheel < 3) tm_add(&wheel, n, 5); /* in the past of every run below */
}

/* The wheel alone: the same promise when the clock has not moved (a loop
 * pass shorter than a millisecond). */
TEST(timer_rearmed_for_the_past_fires_on_the_next_run_same_ms)
{
    static tnode n;
    tw_init(&wheel, 100);
    nwheel = 0;
    tm_init(&n, on_wheel_rearm_past);
    tm_add(&wheel, &n, 100);
    tw_run(&wheel, 100);
    CHECK_EQ_INT(nwheel, 1);
    CHECK_EQ_INT(tw_timeout(&wheel, 100, 50), 0); /* overdue: no sleep */
    tw_run(&wheel, 100);
    CHECK_EQ_INT(nwheel, 2);
    tw_run(&wheel, 100);
    CHECK_EQ_INT(nwheel, 3);
    CHECK(!tm_armed(&n));
    CHECK_EQ_INT(wheel.armed, 0);
    CHECK_EQ_INT(wheel.cur, 101); /* never moved backwards */
}

/* A timer that fires in a slot behind `now` (a late run) and re-arms for
 * the past must wait for the next run, not fire again in a later slot of
 * the same run (the tick would otherwise burst to catch up). */
TEST(timer_rearmed_for_the_past_in_a_late_run_fires_once_per_run)
{
    static tnode n;
    tw_init(&wheel, 100);
    nwheel = 0;
    tm_init(&n, on_wheel_rearm_past);
    tm_add(&wheel, &n, 110);
    tw_run(&wheel, 200); /* slot 110 fires; the re-arm (due 5) must not fire in 111..200 */
    CHECK_EQ_INT(nwheel, 1);
    tw_run(&wheel, 201);
    CHECK_EQ_INT(nwheel, 2);
    tw_run(&wheel, 260);
    CHECK_EQ_INT(nwheel, 3);
    CHECK_EQ_INT(wheel.armed, 0);
}

static int nfresh;

static void on_fresh(loop_timer *t)
{
    (void)t;
    nfresh++;
}

/* Invariant 3: a timer due by the real clock fires in the pass even though
 * the clock of the last wait is older. */
TEST(loop_pass_rereads_the_clock_before_timers)
{
    static loop_timer t;
    CHECK_EQ_INT(loop_init(&tl), 0);
    nfresh = 0;
    usleep(20000); /* the clock read by loop_init is now 20 ms old */
    loop_timer_init(&t, on_fresh);
    loop_timer_at(&tl, &t, clock_ms());
    loop_run_once(&tl, 0);
    CHECK_EQ_INT(nfresh, 1);
    loop_free(&tl);
}

/* ------------------------------------------------------------------- hooks */

static char hook_trace[16];
static int nhook;

static void on_hook(void *arg)
{
    if (nhook < 15) hook_trace[nhook++] = *(const char *)arg;
    hook_trace[nhook] = 0;
}

TEST(loop_hooks_run_by_order_then_registration)
{
    CHECK_EQ_INT(loop_init(&tl), 0);
    static const char names[] = "ABCDE";
    const int order[5] = {5, 1, 5, 0, 1};
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(loop_hook_add(&tl, order[i], on_hook, (void *)&names[i]), 0);
    nhook = 0;
    loop_run_once(&tl, 0);
    CHECK(strcmp(hook_trace, "DBEAC") == 0);
    loop_run_once(&tl, 0); /* every pass, same order */
    CHECK(strcmp(hook_trace, "DBEACDBEAC") == 0);
    loop_free(&tl);
}

/* ----------------------------------------------------------------- watches */

struct pipe_watch {
    loop_watch w;
    int fds[2];
    int calls;
    struct pipe_watch *other;
};

static void on_pipe_deletes_other(loop_watch *w, uint32_t events)
{
    struct pipe_watch *p = container_of(w, struct pipe_watch, w);
    (void)events;
    p->calls++;
    loop_watch_del(&tl, &p->other->w); /* the other's event may be polled already */
}

static int readable_pipe(struct pipe_watch *p, void (*fn)(loop_watch *, uint32_t))
{
    p->calls = 0;
    if (pipe2(p->fds, O_NONBLOCK | O_CLOEXEC) < 0) return -1;
    if (write(p->fds[1], "x", 1) != 1) return -1;
    loop_watch_init(&p->w, fn);
    return loop_watch_add(&tl, &p->w, p->fds[0], EPOLLIN);
}

static void close_pipe(struct pipe_watch *p)
{
    loop_watch_del(&tl, &p->w);
    close(p->fds[0]);
    close(p->fds[1]);
}

TEST(loop_event_of_a_watch_deleted_in_the_pass_is_dropped)
{
    CHECK_EQ_INT(loop_init(&tl), 0);
    static struct pipe_watch a, b;
    CHECK_EQ_INT(readable_pipe(&a, on_pipe_deletes_other), 0);
    CHECK_EQ_INT(readable_pipe(&b, on_pipe_deletes_other), 0);
    a.other = &b;
    b.other = &a;
    loop_run_once(&tl, 100); /* both readable: one epoll_wait returns both */
    CHECK_EQ_INT(a.calls + b.calls, 1);
    struct pipe_watch *kept = a.calls ? &a : &b, *deleted = kept->other;
    CHECK_EQ_INT(deleted->w.fd, -1);
    loop_run_once(&tl, 100); /* level-triggered: the kept one again, never the other */
    CHECK_EQ_INT(kept->calls, 2);
    CHECK_EQ_INT(deleted->calls, 0);
    close_pipe(&a);
    close_pipe(&b);
    loop_free(&tl);
}

static int64_t batch_at[16];
static int nbatch;

static void on_batched(loop_watch *w, uint32_t events)
{
    (void)w;
    (void)events;
    if (nbatch < 16) batch_at[nbatch++] = tl.now_ms; /* never read: stays readable */
}

TEST(loop_batched_set_polled_once_its_interval_passed)
{
    CHECK_EQ_INT(loop_init(&tl), 0);
    enum { INTERVAL = 40 };
    static struct pipe_watch p;
    nbatch = 0;
    CHECK_EQ_INT(readable_pipe(&p, on_batched), 0);
    CHECK_EQ_INT(loop_watch_set_batched(&tl, &p.w, true), 0);
    loop_set_batch_interval(&tl, INTERVAL);
    int64_t start = tl.now_ms, give_up = clock_ms() + 1000;
    while (nbatch < 4 && clock_ms() < give_up) loop_run_once(&tl, 5);
    CHECK_EQ_INT(nbatch, 4);
    /* Readable all along, yet the i-th poll comes no sooner than i intervals
     * after the first due one (the polls keep to a grid of INTERVAL ms). */
    for (int i = 0; i < nbatch; i++) CHECK(batch_at[i] >= start + i * INTERVAL);
    /* Back in the main set it is read in every pass. */
    CHECK_EQ_INT(loop_watch_set_batched(&tl, &p.w, false), 0);
    nbatch = 0;
    for (int i = 0; i < 3; i++) loop_run_once(&tl, 100);
    CHECK_EQ_INT(nbatch, 3);
    close_pipe(&p);
    loop_free(&tl);
}

/* -------------------------------------------------------------------- stop */

static uint64_t stop_pass, last_hook_pass;
static bool hook_saw_stop;

static void on_stop_timer(loop_timer *t)
{
    (void)t;
    stop_pass = tl.passes;
    loop_stop(&tl);
}

static void on_stop_hook(void *arg)
{
    (void)arg;
    last_hook_pass = tl.passes;
    hook_saw_stop = tl.stopping;
}

TEST(loop_stop_returns_after_the_hooks)
{
    CHECK_EQ_INT(loop_init(&tl), 0);
    static loop_timer t;
    stop_pass = last_hook_pass = 0;
    hook_saw_stop = false;
    loop_timer_init(&t, on_stop_timer);
    loop_timer_after(&tl, &t, 5);
    CHECK_EQ_INT(loop_hook_add(&tl, 0, on_stop_hook, NULL), 0);
    int64_t start = clock_ms();
    CHECK_EQ_INT(loop_run(&tl), 0);
    CHECK(stop_pass > 0);
    CHECK_EQ_INT(last_hook_pass, stop_pass); /* the stopping pass ran its hooks */
    CHECK(hook_saw_stop);
    CHECK_EQ_INT(tl.passes, stop_pass); /* and no pass after it */
    CHECK(clock_ms() - start < 1000);
    loop_free(&tl);
}
