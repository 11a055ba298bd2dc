/*
 * outq.c — the output queue: see outq.h for the layout and invariants.
 */
#include "net/outq.h"

#include <stdlib.h>
#include <string.h>

#include "proto/crypto.h"

/* Frames whose last reference went, kept for reuse (a per-tick batch or
 * broadcast needs one every tick: no allocation per tick once warm), up to
 * POOL_FRAMES frames and POOL_BYTES bytes. Game thread only (invariant 5;
 * I/O threads never drop references). */
#define POOL_FRAMES 64
#define POOL_BYTES  (8u << 20)
static struct {
    shframe *f[POOL_FRAMES];
    size_t n, bytes;
} pool;

shframe *shframe_new(const void *p, size_t n)
{
    if (n > UINT32_MAX - 4096) return NULL;
    shframe *f = NULL;
    size_t best = 0;
    for (size_t i = 0; i < pool.n; i++) /* the smallest pooled frame that fits */
        if (pool.f[i]->cap >= n && (!f || pool.f[i]->cap < pool.f[best]->cap)) {
            f = pool.f[i];
            best = i;
        }
    if (f) {
        pool.f[best] = pool.f[--pool.n];
        pool.bytes -= f->cap;
    } else {
        size_t cap = (n + 4095) & ~(size_t)4095; /* so a growing batch finds its frame again */
        f = malloc(sizeof *f + cap);
        if (!f) return NULL;
        f->cap = (uint32_t)cap;
    }
    f->refs = 1;
    f->len = (uint32_t)n;
    if (n) memcpy(f->data, p, n);
    return f;
}

void shframe_unref(shframe *f)
{
    if (!f || --f->refs > 0) return;
    if (pool.n < POOL_FRAMES && pool.bytes + f->cap <= POOL_BYTES) {
        pool.f[pool.n++] = f;
        pool.bytes += f->cap;
        return;
    }
    free(f);
}

void shframe_pool_free(void)
{
    for (size_t i = 0; i < pool.n; i++) free(pool.f[i]);
    pool.n = pool.bytes = 0;
}

void outq_init(outq *q, size_t limit)
{
    memset(q, 0, sizeof *q);
    q->limit = limit;
    buf_init(&q->own, limit);
}

void outq_clear(outq *q)
{
    for (uint32_t i = 0; i < q->count; i++) shframe_unref(q->segs[q->head + i].f);
    q->head = q->count = q->sent_in_head = 0;
    q->own.len = q->own_sent = 0;
    q->own.failed = 0;
    q->pending = 0;
}

void outq_free(outq *q)
{
    outq_clear(q);
    free(q->segs);
    buf_free(&q->own);
    q->segs = NULL;
    q->cap = 0;
}

/* A free slot at the end of the segment array, or NULL at OUTQ_SEGS_MAX. */
static struct outq_seg *seg_push(outq *q)
{
    if (q->head + q->count == q->cap) {
        if (q->head > 0) {
            memmove(q->segs, q->segs + q->head, q->count * sizeof *q->segs);
            q->head = 0;
        } else {
            if (q->cap >= OUTQ_SEGS_MAX) return NULL;
            uint32_t cap = q->cap ? q->cap * 2 : 8;
            if (cap > OUTQ_SEGS_MAX) cap = OUTQ_SEGS_MAX;
            struct outq_seg *s = realloc(q->segs, cap * sizeof *s);
            if (!s) return NULL;
            q->segs = s;
            q->cap = cap;
        }
    }
    return &q->segs[q->head + q->count++];
}

/* n owned bytes were added at the end of own: extend the last segment or
 * start one. false: no segment could be had (the bytes are taken back). */
static bool own_added(outq *q, size_t n)
{
    if (n == 0) return true;
    struct outq_seg *last = q->count ? &q->segs[q->head + q->count - 1] : NULL;
    if (last && !last->f && (size_t)last->len + n <= UINT32_MAX) {
        last->len += (uint32_t)n;
    } else {
        struct outq_seg *s = seg_push(q);
        if (!s) {
            q->own.len -= n;
            return false;
        }
        *s = (struct outq_seg){NULL, 0, (uint32_t)n};
    }
    q->pending += n;
    return true;
}

/* Invariant 3: the written prefix of own is dropped only when its room is
 * needed for the next n bytes. */
static void make_room(outq *q, size_t n)
{
    if (q->own_sent == 0 || q->own.len + n <= q->own.cap) return;
    buf_consume(&q->own, q->own_sent);
    q->own_sent = 0;
}

buf_t *outq_own_begin(outq *q, size_t n)
{
    make_room(q, n);
    return &q->own;
}

bool outq_own_commit(outq *q, size_t before)
{
    size_t added = q->own.len - before;
    if (q->own.failed || q->pending + added > q->limit) {
        q->own.len = before;
        q->own.failed = 0;
        return false;
    }
    return own_added(q, added);
}

bool outq_append(outq *q, const void *p, size_t n)
{
    if (q->pending + n > q->limit) return false;
    size_t before = outq_own_begin(q, n)->len;
    buf_append(&q->own, p, n);
    return outq_own_commit(q, before);
}

bool outq_append_sealed(outq *q, const void *p, size_t n, struct mc_cfb8 *enc)
{
    if (!outq_append(q, p, n)) return false;
    /* outq_append may have moved the written prefix down: the copy is the
     * last n owned bytes. */
    if (enc) mc_cfb8_update(enc, q->own.data + q->own.len - n, n);
    return true;
}

bool outq_ref(outq *q, shframe *f, size_t off, size_t n)
{
    if (n == 0) return true;
    if (off > f->len || n > f->len - off || q->pending + n > q->limit) return false;
    /* Invariant 4: the last slot is kept for owned bytes, so a copy always
     * has a segment to go into (a full array ending in a reference would
     * refuse it, and the connection would be dropped far below its limit). */
    struct outq_seg *s = q->count < OUTQ_SEGS_MAX - 1 ? seg_push(q) : NULL;
    if (!s) return outq_append(q, f->data + off, n);
    *s = (struct outq_seg){shframe_ref(f), (uint32_t)off, (uint32_t)n};
    q->pending += n;
    q->refs_queued++;
    return true;
}

int outq_iov_from(const outq *q, size_t skip, struct iovec *iov, int max)
{
    int n = 0;
    size_t own_at = q->own_sent;
    for (uint32_t i = 0; i < q->count && n < max; i++) {
        const struct outq_seg *s = &q->segs[q->head + i];
        size_t done = i == 0 ? q->sent_in_head : 0; /* of this segment, written or skipped */
        size_t left = s->len - done;
        size_t take = skip < left ? skip : left;
        skip -= take;
        done += take;
        if (!s->f) own_at += take;
        if (done == s->len) continue;
        if (s->f) {
            iov[n].iov_base = s->f->data + s->off + done;
        } else {
            iov[n].iov_base = q->own.data + own_at;
            own_at += s->len - done;
        }
        iov[n].iov_len = s->len - done;
        n++;
    }
    return n;
}

void outq_consume(outq *q, size_t n)
{
    if (n > q->pending) n = q->pending;
    q->pending -= n;
    while (n > 0 && q->count > 0) {
        struct outq_seg *s = &q->segs[q->head];
        size_t left = s->len - q->sent_in_head;
        size_t take = n < left ? n : left;
        if (!s->f) q->own_sent += take;
        n -= take;
        if (take < left) {
            q->sent_in_head += (uint32_t)take;
            break;
        }
        shframe_unref(s->f);
        q->head++;
        q->count--;
        q->sent_in_head = 0;
    }
    if (q->count == 0) {
        q->head = 0;
        q->own.len = q->own_sent = 0;
    }
}

void outq_trim(outq *q, size_t keep)
{
    if (q->pending) return;
    q->own.len = q->own_sent = 0;
    buf_shrink_to(&q->own, keep);
    q->head = q->count = 0;
    /* A small segment array stays: an idle connection's next keep-alive or
     * broadcast reference must not cost an allocation (issue 12). */
    if (q->cap > OUTQ_SEGS_KEEP) {
        struct outq_seg *s = realloc(q->segs, OUTQ_SEGS_KEEP * sizeof *s);
        if (s) {
            q->segs = s;
            q->cap = OUTQ_SEGS_KEEP;
        }
    }
}

int outq_batch_ticks(long budget_per_s, int tick_ms, uint64_t done, size_t urgent, size_t lazy,
                     int kmax)
{
    if (budget_per_s <= 0 || lazy == 0) return 1;
    double per_tick = (double)budget_per_s * tick_ms / 1000.0;
    double room = per_tick - (double)done - (double)urgent;
    if (room < per_tick / 4) room = per_tick / 4; /* lazy output always moves */
    double k = (double)lazy / room;
    if (k <= 1) return 1;
    if (k >= kmax) return kmax;
    return (int)k + ((double)(int)k < k);
}
