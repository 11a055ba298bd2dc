/*
 * test_outq.c — the output queue (net/outq.h): references and their counts,
 * partial writev through a real socket, encrypted copies, the cap and the
 * segment bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "net/outq.h"
#include "proto/crypto.h"
#include "test.h"

/* Everything pending, in wire order, as outq_iov gives it. */
static size_t gather(const outq *q, uint8_t *out, size_t cap)
{
    struct iovec iov[OUTQ_SEGS_MAX];
    int n = outq_iov(q, iov, OUTQ_SEGS_MAX);
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        if (len + iov[i].iov_len > cap) return (size_t)-1;
        memcpy(out + len, iov[i].iov_base, iov[i].iov_len);
        len += iov[i].iov_len;
    }
    return len;
}

TEST(outq_refs_counted_and_released)
{
    uint8_t data[2000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    shframe *f = shframe_new(data, sizeof data);
    CHECK(f && f->refs == 1);
    outq a, b;
    outq_init(&a, 1u << 20);
    outq_init(&b, 1u << 20);
    CHECK(outq_append(&a, "hi", 2));
    CHECK(outq_ref(&a, f, 0, 1000));
    CHECK(outq_ref(&b, f, 1000, 1000));
    CHECK(outq_append(&a, "yo", 2));
    CHECK_EQ_INT(f->refs, 3);
    CHECK_EQ_INT(a.pending, 1004);
    CHECK_EQ_INT(a.refs_queued, 1);
    uint8_t got[4096];
    size_t n = gather(&a, got, sizeof got);
    CHECK_EQ_INT(n, 1004);
    CHECK(memcmp(got, "hi", 2) == 0 && memcmp(got + 2, data, 1000) == 0 &&
          memcmp(got + 1002, "yo", 2) == 0);
    /* Writing past the reference releases it; the owned tail stays. */
    outq_consume(&a, 1001);
    CHECK_EQ_INT(f->refs, 3);
    outq_consume(&a, 1);
    CHECK_EQ_INT(f->refs, 2);
    CHECK_EQ_INT(a.pending, 2);
    n = gather(&a, got, sizeof got);
    CHECK(n == 2 && memcmp(got, "yo", 2) == 0);
    outq_consume(&a, 2);
    CHECK_EQ_INT(a.pending, 0);
    CHECK_EQ_INT(a.own.len, 0);
    /* Clearing drops the references of what was never written. */
    outq_clear(&b);
    CHECK_EQ_INT(f->refs, 1);
    shframe_unref(f);
    outq_free(&a);
    outq_free(&b);
}

TEST(outq_cap_counts_referenced_bytes)
{
    uint8_t big[800] = {0};
    shframe *f = shframe_new(big, sizeof big);
    outq q;
    outq_init(&q, 1000);
    CHECK(outq_append(&q, big, 300));
    CHECK(!outq_ref(&q, f, 0, 800)); /* 1100 > 1000: refused whole */
    CHECK_EQ_INT(q.pending, 300);
    CHECK_EQ_INT(f->refs, 1);
    CHECK(outq_ref(&q, f, 0, 700));
    CHECK_EQ_INT(q.pending, 1000);
    CHECK(!outq_append(&q, "x", 1));
    CHECK_EQ_INT(q.pending, 1000);
    CHECK(!outq_ref(&q, f, 700, 200)); /* also past the frame's end */
    outq_consume(&q, 500);
    CHECK(outq_append(&q, big, 500)); /* room again once written */
    CHECK_EQ_INT(q.pending, 1000);
    outq_free(&q);
    CHECK_EQ_INT(f->refs, 1);
    shframe_unref(f);
}

TEST(outq_partial_writev_through_a_socket)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    int small = 4096;
    setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    size_t total = 0;
    static uint8_t want[1u << 20], got[1u << 20];
    uint8_t chunk[3000];
    for (size_t i = 0; i < sizeof chunk; i++) chunk[i] = (uint8_t)(i * 7);
    shframe *f = shframe_new(chunk, sizeof chunk);
    outq q;
    outq_init(&q, 1u << 20);
    for (int i = 0; i < 100; i++) {
        char own[37];
        memset(own, 'a' + i % 26, sizeof own);
        CHECK(outq_append(&q, own, sizeof own));
        memcpy(want + total, own, sizeof own);
        total += sizeof own;
        size_t off = (size_t)(i * 13) % 1000;
        CHECK(outq_ref(&q, f, off, 2000));
        memcpy(want + total, chunk + off, 2000);
        total += 2000;
    }
    CHECK_EQ_INT(f->refs, 101);
    size_t recvd = 0;
    int writes = 0, partial = 0;
    for (int round = 0; round < 100000 && (q.pending || recvd < total); round++) {
        if (q.pending) {
            struct iovec iov[OUTQ_IOV];
            int cnt = outq_iov(&q, iov, OUTQ_IOV);
            size_t asked = 0;
            for (int i = 0; i < cnt; i++) asked += iov[i].iov_len;
            ssize_t n = writev(sv[0], iov, cnt);
            if (n > 0) {
                writes++;
                if ((size_t)n < asked) partial++;
                outq_consume(&q, (size_t)n);
                /* Appends between partial writes land after what is pending. */
                if (round == 3) {
                    CHECK(outq_append(&q, "tail", 4));
                    memcpy(want + total, "tail", 4);
                    total += 4;
                }
            } else {
                CHECK(n < 0 && errno == EAGAIN);
            }
        }
        ssize_t r = read(sv[1], got + recvd, sizeof got - recvd);
        if (r > 0) recvd += (size_t)r;
    }
    CHECK(partial > 0); /* the small send buffer split writes */
    CHECK(writes > 1);
    CHECK_EQ_INT(recvd, total);
    CHECK(memcmp(got, want, total) == 0);
    CHECK_EQ_INT(q.pending, 0);
    CHECK_EQ_INT(f->refs, 1); /* every reference released once written */
    outq_free(&q);
    shframe_unref(f);
    close(sv[0]);
    close(sv[1]);
}

TEST(outq_encrypted_copy_leaves_the_frame_plaintext)
{
    uint8_t key[MC_SHARED_SECRET];
    for (int i = 0; i < MC_SHARED_SECRET; i++) key[i] = (uint8_t)(i * 11 + 3);
    mc_cfb8 enc, check, dec;
    CHECK(mc_cfb8_init(&enc, key, true) == 0);
    CHECK(mc_cfb8_init(&check, key, true) == 0);
    CHECK(mc_cfb8_init(&dec, key, false) == 0);
    uint8_t plain[1500];
    for (size_t i = 0; i < sizeof plain; i++) plain[i] = (uint8_t)(i ^ 0x5a);
    shframe *f = shframe_new(plain, sizeof plain);
    outq q;
    outq_init(&q, 1u << 20);
    CHECK(outq_append_sealed(&q, "abc", 3, &enc));
    CHECK(outq_append_sealed(&q, f->data, f->len, &enc));
    CHECK_EQ_INT(f->refs, 1); /* copied, not referenced */
    CHECK(memcmp(f->data, plain, sizeof plain) == 0);
    uint8_t got[2000];
    size_t n = gather(&q, got, sizeof got);
    CHECK_EQ_INT(n, 3 + sizeof plain);
    /* The same stream encrypted in one go gives the same ciphertext. */
    uint8_t want[2000];
    memcpy(want, "abc", 3);
    memcpy(want + 3, plain, sizeof plain);
    mc_cfb8_update(&check, want, n);
    CHECK(memcmp(got, want, n) == 0);
    CHECK(memcmp(got + 3, plain, 64) != 0);
    mc_cfb8_update(&dec, got, n);
    CHECK(memcmp(got + 3, plain, sizeof plain) == 0);
    /* Without a cipher the copy is the plaintext. */
    outq_clear(&q);
    CHECK(outq_append_sealed(&q, plain, 100, NULL));
    n = gather(&q, got, sizeof got);
    CHECK(n == 100 && memcmp(got, plain, 100) == 0);
    outq_free(&q);
    shframe_unref(f);
    mc_cfb8_free(&enc);
    mc_cfb8_free(&check);
    mc_cfb8_free(&dec);
}

TEST(outq_segment_bound_falls_back_to_copies)
{
    uint8_t data[600];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 3);
    shframe *f = shframe_new(data, sizeof data);
    outq q;
    outq_init(&q, 8u << 20);
    int n = OUTQ_SEGS_MAX + 50;
    for (int i = 0; i < n; i++) {
        CHECK(outq_ref(&q, f, (size_t)i % 100, 500));
        CHECK(outq_append(&q, "z", 1)); /* owned bytes between references */
    }
    CHECK(q.count <= OUTQ_SEGS_MAX);
    CHECK(q.refs_queued < (uint64_t)n);
    CHECK_EQ_INT(f->refs, 1 + q.refs_queued);
    CHECK_EQ_INT(q.pending, (size_t)n * 501);
    static uint8_t got[(OUTQ_SEGS_MAX + 50) * 501];
    size_t len = gather(&q, got, sizeof got);
    CHECK_EQ_INT(len, (size_t)n * 501);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t *s = got + (size_t)i * 501;
        if (memcmp(s, data + i % 100, 500) != 0 || s[500] != 'z') bad++;
    }
    CHECK_EQ_INT(bad, 0);
    outq_free(&q);
    CHECK_EQ_INT(f->refs, 1);
    shframe_unref(f);
}

/* References only, past OUTQ_SEGS_MAX (a client that stopped reading
 * while broadcasts are queued to it): the rest are copied, nothing is
 * refused below the byte limit. */
TEST(outq_refs_alone_past_the_segment_cap_are_copied)
{
    uint8_t data[900];
    memset(data, 'y', sizeof data);
    shframe *f = shframe_new(data, sizeof data);
    outq q;
    outq_init(&q, 8u << 20);
    int n = OUTQ_SEGS_MAX * 3;
    int refused = 0;
    for (int i = 0; i < n; i++)
        if (!outq_ref(&q, f, 0, sizeof data)) refused++;
    CHECK_EQ_INT(refused, 0);
    CHECK(q.count <= OUTQ_SEGS_MAX);
    CHECK_EQ_INT(q.pending, (size_t)n * sizeof data);
    CHECK_EQ_INT(f->refs, 1 + q.refs_queued);
    outq_free(&q);
    CHECK_EQ_INT(f->refs, 1);
    shframe_unref(f);
}

TEST(outq_trim_gives_back_memory_only_when_idle)
{
    outq q;
    outq_init(&q, 8u << 20);
    static uint8_t big[100000];
    CHECK(outq_append(&q, big, sizeof big));
    outq_trim(&q, 4096);
    CHECK_EQ_INT(q.pending, sizeof big); /* pending: nothing given back */
    outq_consume(&q, sizeof big);
    outq_trim(&q, 4096);
    CHECK(q.own.cap <= 4096);
    CHECK(q.cap <= OUTQ_SEGS_KEEP); /* a small segment array stays (no allocation when idle) */
    CHECK(outq_append(&q, "ok", 2));
    CHECK_EQ_INT(q.pending, 2);
    outq_free(&q);
}

TEST(outq_iov_from_skips_like_consume)
{
    uint8_t data[1000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 5 + 1);
    shframe *f = shframe_new(data, sizeof data);
    outq q, r;
    outq_init(&q, 1u << 20);
    outq_init(&r, 1u << 20);
    for (int i = 0; i < 5; i++) {
        CHECK(outq_append(&q, data + i, 10 + (size_t)i) &&
              outq_append(&r, data + i, 10 + (size_t)i));
        CHECK(outq_ref(&q, f, (size_t)i * 7, 300) && outq_ref(&r, f, (size_t)i * 7, 300));
    }
    outq_consume(&q, 5);
    outq_consume(&r, 5);
    int bad = 0;
    for (size_t skip = 0; skip <= q.pending; skip += 17) {
        struct iovec iov[OUTQ_IOV];
        int n = outq_iov_from(&q, skip, iov, OUTQ_IOV);
        uint8_t a[4096], b[4096];
        size_t la = 0;
        for (int i = 0; i < n; i++) {
            memcpy(a + la, iov[i].iov_base, iov[i].iov_len);
            la += iov[i].iov_len;
        }
        size_t lb = gather(&r, b, sizeof b);
        if (la != lb || memcmp(a, b, la) != 0) bad++;
        outq_consume(&r, 17); /* r follows q's skip by consuming */
    }
    CHECK_EQ_INT(bad, 0);
    outq_free(&q);
    outq_free(&r);
    shframe_unref(f);
}

TEST(outq_batching_k_follows_the_budget)
{
    /* 40,000 writes/s = 2,000 per 50 ms tick. */
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 0, 1500, 10), 1);
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 0, 2000, 10), 1);
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 0, 2001, 10), 2);
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 0, 10000, 10), 5);
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 500, 500, 3000, 10), 3); /* 1000 left */
    /* Urgent writes over the budget: lazy output still gets a quarter. */
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 5000, 1000, 10), 2);
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 0, 1000000, 10), 10); /* capped */
    CHECK_EQ_INT(outq_batch_ticks(0, 50, 0, 0, 1000000, 10), 1);      /* off */
    CHECK_EQ_INT(outq_batch_ticks(40000, 50, 0, 0, 0, 10), 1);
    /* Each queue is written once per k ticks on its phase, and never waits
     * more than k - 1 ticks. */
    for (int k = 1; k <= 10; k++) {
        int bad = 0;
        for (uint32_t id = 0; id < 50; id++) {
            int writes = 0;
            uint64_t since = 100, longest = 0;
            for (uint64_t t = 100; t < 100 + 10 * (uint64_t)k; t++) {
                if (outq_lazy_due(t, id, since, k)) {
                    writes++;
                    if (t - since > longest) longest = t - since;
                    since = t + 1; /* new lazy output from the next tick on */
                }
            }
            if (writes < 10 || writes > 11 || longest > (uint64_t)k - 1) bad++;
        }
        CHECK_EQ_INT(bad, 0);
    }
}

TEST(outq_frames_are_recycled)
{
    shframe_pool_free();
    uint8_t a[5000] = {1}, b[3000] = {2};
    shframe *f = shframe_new(a, sizeof a);
    CHECK(f && f->cap >= sizeof a && f->len == sizeof a);
    shframe_unref(f);                      /* to the pool */
    shframe *g = shframe_new(b, sizeof b); /* fits in f's allocation: reused */
    CHECK(g == f);
    CHECK(g->refs == 1 && g->len == sizeof b && g->data[0] == 2);
    static uint8_t big[20000];
    shframe *h = shframe_new(big, sizeof big); /* too big for anything pooled */
    CHECK(h && h != g);
    shframe_unref(g);
    shframe_unref(h);
    shframe_pool_free();
}
