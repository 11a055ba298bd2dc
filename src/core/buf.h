/*
 * buf.h — a growable byte buffer with a hard cap.
 *
 * Invariants:
 *  1. len <= cap_limit always; an append that would pass cap_limit (or fail
 *     to allocate) sets `failed` and writes nothing. Callers check `failed`
 *     once after a batch of appends instead of after each one.
 *  2. `data` is owned by the buffer; buf_free releases it. A zeroed buf_t
 *     with limit 0 means "no explicit limit" (BUF_DEFAULT_LIMIT).
 *  3. buf_consume drops bytes from the front (used for partially written
 *     output and partially parsed input) by moving the rest down.
 */
#ifndef MC_BUF_H
#define MC_BUF_H

#include <stddef.h>
#include <stdint.h>

#define BUF_DEFAULT_LIMIT (64u << 20)

typedef struct buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    size_t limit; /* hard cap on len; 0 = BUF_DEFAULT_LIMIT */
    int failed;   /* sticky: an append did not fit */
} buf_t;

void buf_init(buf_t *b, size_t limit);
void buf_free(buf_t *b);
/* Makes room for `extra` more bytes; returns a pointer to the free space or NULL. */
uint8_t *buf_reserve(buf_t *b, size_t extra);
void buf_append(buf_t *b, const void *p, size_t n);
void buf_consume(buf_t *b, size_t n);
/* Releases the allocation when the buffer is empty and larger than `keep`. */
void buf_shrink_if_idle(buf_t *b, size_t keep);
/* An empty buffer larger than `keep` (> 0) is reallocated down to `keep`
 * bytes: it stays ready for small appends without allocating. */
void buf_shrink_to(buf_t *b, size_t keep);

/* Appends a string literal without its NUL (the length is counted by the compiler). */
#define buf_lit(b, lit) buf_append((b), "" lit, sizeof(lit) - 1)

static inline void buf_reset(buf_t *b)
{
    b->len = 0;
    b->failed = 0;
}

#endif
