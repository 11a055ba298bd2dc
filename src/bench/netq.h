/*
 * netq.h — one direction of one bot's emulated network link: a FIFO of bytes
 * with a release time per batch (latency + jitter, serialised at a bandwidth).
 *
 *   push(n bytes at time t), per segment of NETQ_SEGMENT bytes when a rate
 *   is set (the whole n otherwise):
 *     start = max(t, link_free)            the link sends one segment at a time
 *     link_free = start + n / rate         (no rate: link_free = t, start = t)
 *     due = link_free + latency + U(-jitter, +jitter), at least link_free
 *     due = max(due, previous due)         TCP delivers in order
 *
 * Invariants:
 *  1. Bytes leave in the order they were pushed; never before their due time.
 *  2. The queue holds at most NETQ_LIMIT bytes; the owner stops reading from
 *     the socket (rx) or fails the bot (tx) when netq_full() says so, so the
 *     emulated link behaves like a bottleneck with a finite buffer and the
 *     bot's memory stays bounded.
 *  3. At most NETQ_MARKS batches are tracked; when the ring is full the new
 *     bytes join the last batch, whose due time moves to the later one
 *     (earlier bytes may leave a little late, never early).
 */
#ifndef MCB_NETQ_H
#define MCB_NETQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

#define NETQ_LIMIT   (1u << 20)
#define NETQ_MARKS   256
#define NETQ_SEGMENT 1448 /* bytes per emulated segment when a rate is set (a TCP MSS) */

struct netq_params {
    int64_t latency_us;
    int64_t jitter_us;
    double rate_bytes_per_us; /* 0 = unlimited */
};

typedef struct netq {
    buf_t data;
    size_t head; /* bytes before head were released */
    struct {
        int64_t due_us;
        size_t end; /* offset in data just past this batch */
    } mark[NETQ_MARKS];
    unsigned first, count;
    int64_t link_free_us, last_due_us;
} netq;

void netq_init(netq *q);
void netq_free(netq *q);
/* Queues n bytes; returns 0, or -1 when over NETQ_LIMIT (nothing queued). */
int netq_push(netq *q, const void *p, size_t n, int64_t now_us, const struct netq_params *np,
              uint64_t *rng);
/* Due time of the oldest batch (us), or -1 when empty. */
int64_t netq_next_due(const netq *q);
/*
 * Returns the bytes of the oldest batch if it is due (and *len), else NULL.
 * The pointer is valid until netq_pop; call netq_pop(q) after using them.
 */
const uint8_t *netq_peek(const netq *q, int64_t now_us, size_t *len);
void netq_pop(netq *q);
static inline size_t netq_bytes(const netq *q)
{
    return q->data.len - q->head;
}
static inline bool netq_full(const netq *q)
{
    return netq_bytes(q) >= NETQ_LIMIT / 2;
}

#endif
