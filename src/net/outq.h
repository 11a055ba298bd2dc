/*
 * outq.h — a connection's output queue: bytes it owns and references to
 * shared frames (one encoded copy sent to many connections), written with
 * writev in queue order. No socket or connection knowledge: net/conn.c owns
 * the policy (when to write, encryption), this file the bytes.
 *
 *   own:   [ written (own_sent) | pending owned bytes .................. ]
 *   segs:  head -> {own, 120} {ref F1 +0, 4096} {own, 30} {ref F2 +17, 900}
 *                   ^ sent_in_head bytes of the head segment are written
 *
 * A shared frame (shframe) is an immutable refcounted byte block: each
 * segment that references it holds one reference, dropped when the segment
 * has been written or the queue is cleared.
 *
 * Invariants:
 *  1. The wire order is the segment order; the owned segments, in order,
 *     are exactly own[own_sent, own.len).
 *  2. pending = every byte queued and not yet written, owned and referenced
 *     alike; an append that would take pending over `limit` is refused
 *     whole (returns false, nothing queued): referenced bytes count towards
 *     the cap like copied ones.
 *  3. A partial write moves nothing: it advances sent_in_head (and
 *     own_sent); owned bytes are moved down only when room is needed for an
 *     append. When everything is written the queue is empty (own.len = 0)
 *     but keeps its capacity.
 *  4. At most OUTQ_SEGS_MAX segments, references in at most all but the
 *     last: past that a reference is queued as a copy (outq_ref falls back
 *     to outq_append, which always has an owned segment to go into), so the
 *     segment array is bounded whatever the caller does and only the byte
 *     limit refuses an append.
 *  5. Not thread-safe: one thread at a time (the game thread, or the I/O
 *     thread it hands the queue to for the duration of a flush).
 */
#ifndef MC_OUTQ_H
#define MC_OUTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/buf.h"

struct mc_cfb8; /* proto/crypto.h */

#define OUTQ_SEGS_MAX  1024 /* segments per queue (invariant 4) */
#define OUTQ_IOV       64   /* iovecs per writev */
#define OUTQ_SEGS_KEEP 8    /* segments an idle queue keeps (outq_trim) */

typedef struct shframe {
    uint32_t refs;
    uint32_t len, cap; /* bytes in data; its allocation */
    uint8_t data[];
} shframe;

/* A shared frame holding a copy of p[0..n) with one reference (the
 * caller's); NULL when out of memory or n is near 4 GiB. Frames are
 * recycled: the last reference puts a frame in a small pool (at most 64
 * frames, 8 MiB) that the next shframe_new takes from first. */
shframe *shframe_new(const void *p, size_t n);
/* Frees the pool (shutdown, tests). */
void shframe_pool_free(void);
static inline shframe *shframe_ref(shframe *f)
{
    f->refs++;
    return f;
}
/* Drops one reference; the last frees the frame. NULL is ignored. */
void shframe_unref(shframe *f);

struct outq_seg {
    shframe *f; /* NULL: the next `len` owned bytes */
    uint32_t off, len;
};

typedef struct outq {
    buf_t own;
    size_t own_sent;       /* bytes of own already written (invariant 3) */
    struct outq_seg *segs; /* segs[head .. head + count) are queued */
    uint32_t head, count, cap;
    uint32_t sent_in_head; /* bytes of segs[head] already written */
    size_t pending;        /* invariant 2 */
    size_t limit;
    uint64_t refs_queued; /* references taken (not copied) since init, for tests and metrics */
} outq;

void outq_init(outq *q, size_t limit);
/* Drops every reference and frees the memory. */
void outq_free(outq *q);
/* Forgets what is queued (references dropped), keeps the capacity. */
void outq_clear(outq *q);

/* Copies p[0..n) to the end of the queue. false: over the limit (or out of
 * memory); nothing was queued. */
bool outq_append(outq *q, const void *p, size_t n);
/* For a writer that frames in place (frame_encode): makes room for about n
 * more owned bytes and returns the owned buffer; the caller appends to it
 * and then calls outq_own_commit(q, before) with before = own.len as it
 * was on return. */
buf_t *outq_own_begin(outq *q, size_t n);
/* Takes the bytes appended since `before` into the queue. false (they are
 * discarded, the buffer's failed flag cleared): the append failed or took
 * pending over the limit. */
bool outq_own_commit(outq *q, size_t before);
/* outq_append, the copy then encrypted in place with `enc` when it is not
 * NULL (the connection's AES-CFB8 stream: a shared frame an encrypted
 * connection is sent is copied and sealed here, the frame itself stays
 * plaintext for the others). */
bool outq_append_sealed(outq *q, const void *p, size_t n, struct mc_cfb8 *enc);
/* Queues a reference to f->data[off .. off + n) (one reference taken);
 * past OUTQ_SEGS_MAX segments a copy instead. false: over the limit. */
bool outq_ref(outq *q, shframe *f, size_t off, size_t n);

/* Fills iov with the pending bytes after the first `skip` of them, at most
 * `max` entries; returns the count (0 when nothing is left). Reads q only
 * (an I/O thread may call it, net/iothreads.h). */
int outq_iov_from(const outq *q, size_t skip, struct iovec *iov, int max);
static inline int outq_iov(const outq *q, struct iovec *iov, int max)
{
    return outq_iov_from(q, 0, iov, max);
}
/* n bytes from the start were written: drops them (references released). */
void outq_consume(outq *q, size_t n);

/* Gives back memory once idle: the owned buffer down to `keep` bytes and
 * the segment array freed. Only when nothing is pending. */
void outq_trim(outq *q, size_t keep);

/* --- adaptive batching (net/conn.c invariant 7), pure arithmetic --- */

/* k for this tick: lazy-only queues spread over k ticks so that this
 * tick's writes (`done` since the last tick's flush, `urgent`, lazy / k)
 * stay within budget_per_s * tick_ms / 1000; at least a quarter of the
 * per-tick budget is left to lazy output. 1 when budget_per_s <= 0;
 * at most kmax. */
int outq_batch_ticks(long budget_per_s, int tick_ms, uint64_t done, size_t urgent, size_t lazy,
                     int kmax);
/* Whether a lazy-only queue is written at tick `tick`: on its phase
 * ((tick + id) mod k) or once its oldest byte (queued at since_tick) has
 * waited k - 1 ticks. */
static inline bool outq_lazy_due(uint64_t tick, uint32_t id, uint64_t since_tick, int k)
{
    return k <= 1 || (tick + id) % (uint64_t)k == 0 || tick - since_tick + 1 >= (uint64_t)k;
}

#endif
