/* netq.c — see netq.h for the release-time rule and the invariants. */
#include "bench/netq.h"

#include <string.h>

#include "bench/rng.h"

void netq_init(netq *q)
{
    memset(q, 0, sizeof *q);
    buf_init(&q->data, NETQ_LIMIT);
}

void netq_free(netq *q)
{
    buf_free(&q->data);
    q->head = 0;
    q->first = q->count = 0;
}

/* Drops released bytes from the front when that is cheap relative to them. */
static void compact(netq *q)
{
    if (q->head == q->data.len) {
        q->data.len = 0;
        q->head = 0;
        buf_shrink_if_idle(&q->data, 16u << 10);
        return;
    }
    if (q->head < (64u << 10) || q->head < netq_bytes(q)) return;
    size_t h = q->head;
    buf_consume(&q->data, h);
    q->head = 0;
    for (unsigned i = 0; i < q->count; i++) q->mark[(q->first + i) % NETQ_MARKS].end -= h;
}

/* Queues one segment that is already in q->data, ending at offset `end`. */
static void push_mark(netq *q, size_t n, size_t end, int64_t now_us, const struct netq_params *np,
                      uint64_t *rng)
{
    int64_t start = now_us > q->link_free_us ? now_us : q->link_free_us;
    int64_t sent = start;
    if (np->rate_bytes_per_us > 0) sent = start + (int64_t)((double)n / np->rate_bytes_per_us);
    q->link_free_us = sent;
    int64_t due = sent + np->latency_us;
    if (np->jitter_us > 0) {
        int64_t j = (int64_t)(rng_next(rng) % (uint64_t)(2 * np->jitter_us + 1)) - np->jitter_us;
        due += j;
    }
    if (due < sent) due = sent;
    if (due < q->last_due_us) due = q->last_due_us;
    q->last_due_us = due;
    if (q->count == NETQ_MARKS) { /* invariant 3 */
        unsigned last = (q->first + q->count - 1) % NETQ_MARKS;
        q->mark[last].end = end;
        q->mark[last].due_us = due;
        return;
    }
    unsigned at = (q->first + q->count) % NETQ_MARKS;
    q->mark[at].end = end;
    q->mark[at].due_us = due;
    q->count++;
}

int netq_push(netq *q, const void *p, size_t n, int64_t now_us, const struct netq_params *np,
              uint64_t *rng)
{
    if (n == 0) return 0;
    if (netq_bytes(q) + n > NETQ_LIMIT) return -1;
    compact(q);
    size_t base = q->data.len;
    buf_append(&q->data, p, n);
    if (q->data.failed) {
        q->data.failed = 0;
        return -1;
    }
    /* With a rate, the link serialises MSS-sized segments: the first bytes
     * of a burst arrive before its last ones. */
    size_t seg = np->rate_bytes_per_us > 0 ? NETQ_SEGMENT : n;
    for (size_t off = 0; off < n; off += seg) {
        size_t len = n - off < seg ? n - off : seg;
        push_mark(q, len, base + off + len, now_us, np, rng);
    }
    return 0;
}

int64_t netq_next_due(const netq *q)
{
    return q->count ? q->mark[q->first].due_us : -1;
}

const uint8_t *netq_peek(const netq *q, int64_t now_us, size_t *len)
{
    if (!q->count || q->mark[q->first].due_us > now_us) return NULL;
    *len = q->mark[q->first].end - q->head;
    return q->data.data + q->head;
}

void netq_pop(netq *q)
{
    if (!q->count) return;
    q->head = q->mark[q->first].end;
    q->first = (q->first + 1) % NETQ_MARKS;
    q->count--;
    if (q->count == 0) q->first = 0;
    compact(q);
}
