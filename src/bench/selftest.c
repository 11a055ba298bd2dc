/*
 * selftest.c — `mcbench --self-test`: precise checks of mcbench's own data
 * structures, run by tests/e2e/bench.test.js (mcbench's code lives outside
 * tests/unit, so it carries its unit tests in the binary).
 *
 *   hist          quantiles within one bucket of the exact order statistic
 *   timer         fires in due order, never early, re-arm/cancel in callbacks
 *   netq          FIFO order, never before the due time, rate and latency
 *   inflate_head  equals libdeflate's output prefix on random streams; corrupt
 *                 input never reads or writes out of bounds (ASan build)
 *   chat_plain    plain text of chat components
 *   chunkset      random adds and removes agree with a plain bitmap; a set
 *                 with a limit holds at least that many, then stops growing
 *
 * Invariant: deterministic (fixed seeds); prints one line per failed check
 * and returns the number of failures (0 = pass).
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/hist.h"
#include "bench/inflate_head.h"
#include "bench/mcbench.h"
#include "bench/netq.h"
#include "bench/rng.h"
#include "core/timer.h"

static int fails;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fails++;                                                                               \
            fprintf(stderr, "self-test %s:%d: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_hist(void)
{
    static hist h;
    hist_init(&h);
    CHECK(hist_quantile(&h, 0.5) == 0, "empty histogram");
    enum { N = 20000 };
    static uint64_t v[N];
    uint64_t s = 7;
    for (int i = 0; i < N; i++) {
        v[i] = rng_next(&s) % (i % 3 ? 100000 : 50); /* mixed small and large */
        hist_add(&h, v[i]);
    }
    qsort(v, N, sizeof v[0], cmp_u64);
    const double qs[] = {0.5, 0.9, 0.99, 0.999};
    for (unsigned k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        uint64_t exact = v[(size_t)(qs[k] * N + 0.999999) - 1];
        uint64_t got = hist_quantile(&h, qs[k]);
        uint64_t tol = exact / HIST_SUB + 1;
        CHECK(got + tol >= exact && got <= exact + tol, "q%.3f: got %llu, exact %llu", qs[k],
              (unsigned long long)got, (unsigned long long)exact);
    }
    CHECK(hist_quantile(&h, 1.0) == v[N - 1], "max");
    CHECK(h.count == N, "count");
    hist_add(&h, UINT64_MAX); /* clamped, never out of range */
    CHECK(h.max == UINT64_MAX, "max kept exactly");
}

static int64_t fired[64];
static int nfired;
static int64_t now_for_cb;
static twheel *tw_for_cb;
static tnode extra;

static void on_fire(tnode *n)
{
    CHECK(n->due <= now_for_cb, "timer fired early: due %lld now %lld", (long long)n->due,
          (long long)now_for_cb);
    if (nfired < 64) fired[nfired++] = n->due;
    if (n->due == 30) tm_add(tw_for_cb, &extra, 10); /* re-arm in the past: next run */
}

static void test_timer(void)
{
    static twheel tw;
    tw_init(&tw, 0);
    tw_for_cb = &tw;
    static tnode n[8];
    const int64_t due[8] = {5, 1, 30, 4096 + 3, 2, 9000, 7, 30};
    for (int i = 0; i < 8; i++) {
        tm_init(&n[i], on_fire);
        tm_add(&tw, &n[i], due[i]);
    }
    tm_init(&extra, on_fire);
    tm_del(&tw, &n[6]); /* cancelled: never fires */
    for (int64_t t = 0; t <= 10000; t += 3) {
        now_for_cb = t;
        tw_run(&tw, t);
    }
    CHECK(nfired == 8, "fired %d timers, want 8 (7 + the re-armed one)", nfired);
    for (int i = 1; i < nfired; i++)
        CHECK(fired[i] >= fired[i - 1] || fired[i] == 10, "out of order");
    CHECK(tw.armed == 0, "armed count %zu", tw.armed);
}

static void test_netq(void)
{
    static netq q;
    netq_init(&q);
    uint64_t rng = 1;
    struct netq_params np = {.latency_us = 10000, .jitter_us = 3000, .rate_bytes_per_us = 0.1};
    uint8_t data[5000];
    for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    CHECK(netq_push(&q, data, 3000, 0, &np, &rng) == 0, "push");
    CHECK(netq_push(&q, data + 3000, 2000, 100, &np, &rng) == 0, "push 2");
    size_t got = 0;
    int64_t last = 0;
    for (int64_t t = 0; t < 200000 && got < sizeof data; t += 100) {
        size_t len;
        const uint8_t *p;
        while ((p = netq_peek(&q, t, &len))) {
            CHECK(memcmp(p, data + got, len) == 0, "bytes out of order at %zu", got);
            /* 0.1 B/us: byte k cannot leave before k * 10 us + latency - jitter. */
            CHECK(t >= (int64_t)(got + len) * 10 + 10000 - 3000, "released too early at %lld",
                  (long long)t);
            CHECK(t >= last, "time went back");
            last = t;
            got += len;
            netq_pop(&q);
        }
    }
    CHECK(got == sizeof data, "released %zu of %zu bytes", got, sizeof data);
    CHECK(netq_bytes(&q) == 0, "queue empty");
    /* Over the limit: refused, nothing queued. */
    static uint8_t big[NETQ_LIMIT + 1];
    CHECK(netq_push(&q, big, sizeof big, 0, &np, &rng) < 0, "over the limit accepted");
    CHECK(netq_bytes(&q) == 0, "nothing queued after a refused push");
    netq_free(&q);
}

static void test_inflate_head(void)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    struct libdeflate_compressor *c0 = libdeflate_alloc_compressor(0);
    static uint8_t src[70000], z[80000], out[70000];
    uint64_t s = 42;
    for (int it = 0; it < 400; it++) {
        size_t n = 1 + rng_next(&s) % (it % 4 ? 3000 : sizeof src);
        int mode = (int)(rng_next(&s) % 3);
        for (size_t i = 0; i < n; i++)
            src[i] = mode == 0 ? (uint8_t)rng_next(&s) : mode == 1 ? (uint8_t)(i % 7) : 'a';
        size_t zl = libdeflate_zlib_compress(it % 5 ? c : c0, src, n, z, sizeof z);
        CHECK(zl > 0, "compress");
        size_t want = it % 10 ? rng_next(&s) % 100 : n;
        long r = inflate_head(z, zl, out, want);
        size_t expect = want < n ? want : n;
        CHECK(r == (long)expect && !memcmp(out, src, expect), "iteration %d: got %ld want %zu", it,
              r, expect);
        /* Corrupt copies: any result, but no out-of-bounds access. */
        for (int k = 0; k < 4; k++) {
            z[rng_next(&s) % zl] ^= (uint8_t)(1u << (rng_next(&s) % 8));
            inflate_head(z, rng_next(&s) % (zl + 1), out, rng_next(&s) % 200);
        }
    }
    uint8_t hdr[2] = {0x78, 0x9c};
    CHECK(inflate_head(hdr, 1, out, 4) < 0, "short header accepted");
    uint8_t bad[4] = {0x79, 0x9c, 0, 0};
    CHECK(inflate_head(bad, 4, out, 4) < 0, "bad header accepted");
    libdeflate_free_compressor(c);
    libdeflate_free_compressor(c0);
}

static void test_chat_plain(void)
{
    struct {
        const char *json, *plain;
    } t[] = {
        {"\"hello\"", "hello"},
        {"{\"text\":\"You are banned\"}", "You are banned"},
        {"{\"translate\":\"multiplayer.player.joined\",\"with\":[{\"text\":\"bot0003\"}],"
         "\"color\":\"yellow\"}",
         "multiplayer.player.joined bot0003"},
        {"{\"translate\":\"chat.type.text\",\"with\":[\"Alice\",\"hi there\"]}",
         "chat.type.text Alice hi there"},
        {"{\"text\":\"a\\\"b\",\"extra\":[{\"text\":\"c\"}]}", "a\"b c"},
        {"{}", "{}"},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        char out[256];
        chat_plain(t[i].json, strlen(t[i].json), out, sizeof out);
        CHECK(!strcmp(out, t[i].plain), "chat_plain(%s) = '%s', want '%s'", t[i].json, out,
              t[i].plain);
    }
    char tiny[4];
    chat_plain("{\"text\":\"a long text\"}", 22, tiny, sizeof tiny);
    CHECK(strlen(tiny) < sizeof tiny, "output bounded");
}

static void test_chunkset(void)
{
    enum { W = 64 }; /* chunks -32..31 on both axes */
    static bool ref[W][W];
    chunkset cs = {0};
    uint64_t s = 99;
    for (int it = 0; it < 200000; it++) {
        int x = (int)(rng_next(&s) % W), z = (int)(rng_next(&s) % W);
        uint64_t k = chunk_key(x - W / 2, z - W / 2);
        if (rng_next(&s) % 3) {
            bool added = chunkset_add(&cs, k);
            CHECK(added == !ref[x][z], "add(%d,%d) returned %d", x, z, added);
            ref[x][z] = true;
        } else {
            chunkset_del(&cs, k);
            ref[x][z] = false;
        }
        if (it % 5000 == 0) {
            uint32_t n = 0;
            for (int a = 0; a < W; a++)
                for (int b = 0; b < W; b++) {
                    n += ref[a][b];
                    CHECK(chunkset_has(&cs, chunk_key(a - W / 2, b - W / 2)) == ref[a][b],
                          "has(%d,%d) disagrees at iteration %d", a, b, it);
                }
            CHECK(n == cs.len, "len %u, want %u", cs.len, n);
        }
    }
    CHECK(!chunkset_add(&cs, chunk_key(INT32_MIN, INT32_MIN)), "the empty marker is not a key");
    chunkset_free(&cs);
    CHECK(!chunkset_has(&cs, chunk_key(0, 0)), "empty after free");

    /* limit: every key up to it is held; then the set stops growing (at most 2x) */
    chunkset lim = {.limit = 1000};
    uint32_t held = 0;
    for (int i = 0; i < 3000; i++) held += chunkset_add(&lim, chunk_key(i, -i));
    CHECK(held >= 1000 && held <= 2000, "a limit of 1000 held %u", held);
    CHECK(lim.overflow && lim.len == held, "overflow flagged (len %u)", lim.len);
    for (int i = 0; i < 1000; i++)
        if (!chunkset_has(&lim, chunk_key(i, -i))) {
            CHECK(false, "key %d lost under the limit", i);
            break;
        }
    chunkset_free(&lim);
}

int selftest_run(void)
{
    test_hist();
    test_timer();
    test_netq();
    test_inflate_head();
    test_chat_plain();
    test_chunkset();
    printf("mcbench self-test: %s (%d failed checks)\n", fails ? "FAILED" : "ok", fails);
    return fails;
}
