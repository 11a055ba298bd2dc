/*
 * test_chunk_requests.c — the world's chunk request queue (world/world.h):
 * nearest first across requesters, requests nobody needs dropped before any
 * work, the per-second and in-flight budgets, and the idle cap of the sweep.
 *
 * The queue test runs one real worker with debug-chunk-gen-delay-ms so the
 * first jobs are still running while the heap is inspected; the rest runs
 * jobs inline (no pool).
 */
#include <poll.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/workers.h"
#include "test.h"
#include "world/world.h"

static void flat_config(struct server_config *cfg)
{
    config_defaults(cfg);
    cfg->level_type = LEVEL_FLAT;
    cfg->seed = 7;
    cfg->chunk_requests_per_second = 1;
    cfg->chunk_requests_in_flight = 8;
    cfg->chunk_idle_max = 2048;
}

/* Runs finished jobs until the world has nothing queued or generating (5 s at most). */
static void drain(world *w, int efd)
{
    int64_t end = clock_ms() + 5000;
    while ((w->generating > 0 || w->heap_len > 0) && clock_ms() < end) {
        struct pollfd p = {.fd = efd, .events = POLLIN};
        if (poll(&p, 1, 100) > 0) workers_drain();
    }
}

TEST(chunk_requests_nearest_first_across_players_and_dropped_when_nobody_waits)
{
    struct server_config cfg;
    flat_config(&cfg);
    cfg.debug_chunk_gen_delay_ms = 150; /* the first two jobs stay in the pool a while */
    cfg.chunk_requests_in_flight = 16;
    static world w;
    char err[256];
    CHECK_EQ_INT(world_init(&w, &cfg, err, sizeof err), 0);
    int efd = workers_start(1, 6);
    CHECK(efd >= 0);
    int64_t now = 1000;
    world_requester a, b, fl;
    /* Bursts so large that spending a few tokens leaves the keys at d². */
    world_requester_init(&a, 0, 0, 100000, now);
    world_requester_init(&b, 100, 0, 100000, now);
    /* A's first two fill the pool's two slots; the rest wait in the heap. */
    CHECK_EQ_INT(world_request(&w, &a, 0, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &a, 0, 1, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(w.generating, 2);
    CHECK_EQ_INT(world_request(&w, &a, 5, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &a, 0, -5, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &a, 4, 0, now), WORLD_REQ_WAITING);
    /* A newcomer's nearest chunks go ahead of A's farther ones. */
    CHECK_EQ_INT(world_request(&w, &b, 100, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &b, 101, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(w.heap_len, 5);
    CHECK_EQ_INT(w.heap[0]->c.x, 100);
    CHECK_EQ_INT(w.heap[0]->key, 0);
    /* A flyer that has spent its burst queues behind them all, even at distance 0. */
    world_requester_init(&fl, -100, 0, 10, now);
    for (int i = 0; i < 9; i++)
        CHECK_EQ_INT(world_request(&w, &fl, -100 + i, 7, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &fl, -100, 0, now), WORLD_REQ_WAITING);
    chunk_entry *near = NULL;
    for (size_t i = 0; i < w.heap_len; i++)
        if (w.heap[i]->c.x == -100 && w.heap[i]->c.z == 0) near = w.heap[i];
    CHECK(near != NULL && near->key == 0); /* within its burst: plain distance */
    CHECK_EQ_INT(world_request(&w, &fl, -101, 0, now), WORLD_REQ_BUDGET);
    CHECK(fl.throttled);
    CHECK(near->key == 4096); /* every request of a throttled requester moves back */
    CHECK_EQ_INT(w.heap[0]->c.x, 100);
    /* Living on its refill (1 per second) it stays throttled... */
    CHECK_EQ_INT(world_request(&w, &fl, -102, 0, now + 2000), WORLD_REQ_WAITING);
    CHECK(fl.throttled);
    /* ...until half its burst is back: plain distance again. */
    CHECK_EQ_INT(world_request(&w, &fl, -103, 0, now + 7000), WORLD_REQ_WAITING);
    CHECK(!fl.throttled);
    CHECK_EQ_INT(near->key, 0);
    world_requester_clear(&w, &fl, now + 7000);
    CHECK_EQ_INT(w.requests_cancelled, 12);
    CHECK_EQ_INT(w.heap_len, 5);
    /* Asking again costs nothing and adds nothing. */
    CHECK_EQ_INT(world_request(&w, &b, 100, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(b.count, 2);
    CHECK_EQ_INT(a.count, 5);
    /* B asks for one of A's too: it is shared, and B's key (nearer) wins. */
    world_requester_move(&w, &b, 5, 1, 10, 100, now);
    CHECK_EQ_INT(b.count, 0); /* 100,0 and 101,0 are outside the new window: dropped */
    CHECK_EQ_INT(w.requests_cancelled, 14);
    CHECK_EQ_INT(world_request(&w, &b, 5, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(w.heap[0]->c.x, 5);
    CHECK_EQ_INT(w.heap[0]->key, 1);
    /* A flies away: its queued requests are dropped, except the one B shares;
     * the two running jobs finish and are kept for a while. */
    size_t before = w.count;
    world_requester_move(&w, &a, 1000, 1000, 10, 100, now);
    CHECK_EQ_INT(a.count, 0);
    CHECK_EQ_INT(w.requests_cancelled, 16);
    CHECK_EQ_INT(w.count, before - 2);
    CHECK_EQ_INT(w.heap_len, 1);
    drain(&w, efd);
    CHECK_EQ_INT(w.generating, 0);
    const buf_t *f = world_take_frame(&w, 5, 0);
    CHECK(f != NULL);
    world_request_done(&w, &b, 5, 0, now);
    CHECK_EQ_INT(b.count, 0);
    world_release(&w, 5, 0, now);
    /* Nobody views or waits for anything: all three unload once idle long enough. */
    CHECK_EQ_INT(w.idle_count, 3);
    CHECK_EQ_INT(world_sweep(&w, now + WORLD_IDLE_UNLOAD_MS), 3);
    CHECK_EQ_INT(w.count, 0);
    workers_stop();
    world_free(&w);
}

/* A requester whose centre moves more than WORLD_RACING_PACE chunks a second
 * queues behind everyone even inside its budget (it outruns slow generation
 * without ever running dry); a teleport is not a race; a second without a
 * move ends it. */
TEST(chunk_requests_racer_queues_behind_a_newcomer)
{
    struct server_config cfg;
    flat_config(&cfg);
    cfg.debug_chunk_gen_delay_ms = 150;
    cfg.chunk_requests_in_flight = 16;
    static world w;
    char err[256];
    CHECK_EQ_INT(world_init(&w, &cfg, err, sizeof err), 0);
    int efd = workers_start(1, 6);
    CHECK(efd >= 0);
    int64_t now = 1000;
    world_requester a, fl;
    world_requester_init(&a, 0, 0, 100000, now);
    world_requester_init(&fl, 1000, 0, 100000, now);
    /* A's first two fill the pool's slots; its third waits at distance 1. */
    CHECK_EQ_INT(world_request(&w, &a, 0, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &a, 0, 1, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &a, 1, 0, now), WORLD_REQ_WAITING);
    /* A teleport far away is one move: no race. */
    world_requester_move(&w, &fl, 5000, 0, 6, 100000, now);
    CHECK(!fl.racing);
    /* Six chunks in 0.6 s: racing; its chunk at distance 0 queues behind A's. */
    for (int i = 1; i <= 6; i++)
        world_requester_move(&w, &fl, 5000 + i, 0, 6, 100000, now + 100 * i);
    CHECK(fl.racing);
    CHECK_EQ_INT(world_request(&w, &fl, 5006, 0, now + 600), WORLD_REQ_WAITING);
    CHECK_EQ_INT(w.heap_len, 2);
    CHECK_EQ_INT(w.heap[0]->c.x, 1);
    CHECK_EQ_INT(w.heap[0]->key, 1);
    /* A second later it has stopped: plain distance again. */
    CHECK_EQ_INT(world_request(&w, &fl, 5006, 1, now + 1700), WORLD_REQ_WAITING);
    CHECK(!fl.racing);
    CHECK_EQ_INT(w.heap[0]->c.x, 5006);
    CHECK_EQ_INT(w.heap[0]->key, 0);
    world_requester_clear(&w, &fl, now + 1700);
    world_requester_clear(&w, &a, now + 1700);
    drain(&w, efd);
    workers_stop();
    world_free(&w);
}

TEST(chunk_requests_budget_per_second_and_in_flight)
{
    struct server_config cfg;
    flat_config(&cfg);
    static world w;
    char err[256];
    CHECK_EQ_INT(world_init(&w, &cfg, err, sizeof err), 0);
    /* No pool: each request is generated at once, and stays listed until taken. */
    int64_t now = 5000;
    world_requester r;
    world_requester_init(&r, 0, 0, 3, now); /* a burst of 3, then 1 per second */
    CHECK_EQ_INT(world_request(&w, &r, 0, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &r, 1, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &r, 2, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &r, 3, 0, now), WORLD_REQ_BUDGET);
    CHECK_EQ_INT(world_request(&w, &r, 3, 0, now + 999), WORLD_REQ_BUDGET);
    CHECK_EQ_INT(world_request(&w, &r, 3, 0, now + 1000), WORLD_REQ_WAITING);
    CHECK_EQ_INT(w.requests_total, 4);
    CHECK_EQ_INT(w.requests_refused_budget, 2);
    /* A chunk that already exists costs no token, only a place in flight. */
    CHECK(world_acquire_frame(&w, 9, 9) != NULL);
    world_release(&w, 9, 9, now);
    for (int i = 0; i < 4; i++) {
        world_request_done(&w, &r, i, 0, now);
        world_release(&w, i, 0, now); /* (no viewer was taken: a no-op) */
    }
    r.tokens = 0;
    CHECK_EQ_INT(world_request(&w, &r, 9, 9, now + 1000), WORLD_REQ_WAITING);
    CHECK_EQ_INT(r.count, 1);
    world_request_done(&w, &r, 9, 9, now);
    /* In flight: at most 8 listed at once. */
    world_requester_init(&r, 0, 0, 100, now);
    for (int i = 0; i < 8; i++) CHECK_EQ_INT(world_request(&w, &r, i, 5, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &r, 8, 5, now), WORLD_REQ_FULL);
    world_requester_clear(&w, &r, now);
    CHECK_EQ_INT(r.count, 0);
    world_free(&w);
}

TEST(chunk_sweep_unloads_the_oldest_idle_chunks_beyond_the_cap)
{
    struct server_config cfg;
    flat_config(&cfg);
    cfg.chunk_idle_max = 3;
    static world w;
    char err[256];
    CHECK_EQ_INT(world_init(&w, &cfg, err, sizeof err), 0);
    for (int i = 0; i < 6; i++) CHECK(world_acquire_frame(&w, i, 0) != NULL);
    for (int i = 0; i < 6; i++) world_release(&w, i, 0, 1000 + i);
    CHECK_EQ_INT(w.idle_count, 6);
    /* Not idle for 30 s yet, but three too many: the three released first go. */
    CHECK_EQ_INT(world_sweep(&w, 2000), 3);
    for (int i = 0; i < 6; i++) CHECK((world_loaded(&w, i, 0) != NULL) == (i >= 3));
    /* A viewer takes one back off the idle list; the others go at 30 s. */
    CHECK(world_take_frame(&w, 4, 0) != NULL);
    CHECK_EQ_INT(world_sweep(&w, 1005 + WORLD_IDLE_UNLOAD_MS), 2);
    CHECK(world_loaded(&w, 4, 0) != NULL);
    world_free(&w);
}

/* world.h invariant 8: the requesters listing a chunk are told when its
 * frame becomes current, each once, and nobody who gave it up is. */
static world_requester *told[8];
static int ntold;
static void record_ready(world_requester *r)
{
    if (ntold < 8) told[ntold] = r;
    ntold++;
}

TEST(chunk_requests_tell_their_requesters_when_ready)
{
    struct server_config cfg;
    flat_config(&cfg);
    cfg.debug_chunk_gen_delay_ms = 100;
    static world w;
    char err[256];
    CHECK_EQ_INT(world_init(&w, &cfg, err, sizeof err), 0);
    w.on_ready = record_ready;
    int efd = workers_start(1, 6);
    CHECK(efd >= 0);
    int64_t now = 1000;
    world_requester a, b, c;
    world_requester_init(&a, 0, 0, 100, now);
    world_requester_init(&b, 0, 0, 100, now);
    world_requester_init(&c, 0, 0, 100, now);
    ntold = 0;
    CHECK_EQ_INT(world_request(&w, &a, 1, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &b, 1, 0, now), WORLD_REQ_WAITING);
    CHECK_EQ_INT(world_request(&w, &b, 1, 0, now), WORLD_REQ_WAITING); /* again: listed once */
    CHECK_EQ_INT(world_request(&w, &c, 1, 0, now), WORLD_REQ_WAITING);
    world_requester_clear(&w, &c, now); /* c gave it up before it was made */
    CHECK_EQ_INT(ntold, 0);
    drain(&w, efd);
    CHECK_EQ_INT(ntold, 2);
    CHECK((told[0] == &a && told[1] == &b) || (told[0] == &b && told[1] == &a));
    /* Taken by a; b still lists it. An edit makes the frame stale; when its
     * re-encode is done only b is told. */
    CHECK(world_take_frame(&w, 1, 0) != NULL);
    world_request_done(&w, &a, 1, 0, now);
    CHECK_EQ_INT(world_set_block(&w, 16, -60, 0, 1), 0);
    world_flush_edits(&w);
    ntold = 0;
    int64_t end = clock_ms() + 5000;
    while (ntold == 0 && clock_ms() < end) {
        struct pollfd p = {.fd = efd, .events = POLLIN};
        if (poll(&p, 1, 100) > 0) workers_drain();
    }
    CHECK_EQ_INT(ntold, 1);
    CHECK(told[0] == &b);
    world_requester_clear(&w, &b, now);
    world_release(&w, 1, 0, now);
    drain(&w, efd);
    workers_stop();
    world_free(&w);
}
