/* buf.c — see buf.h. */
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

void buf_init(buf_t *b, size_t limit)
{
    memset(b, 0, sizeof *b);
    b->limit = limit;
}

void buf_free(buf_t *b)
{
    free(b->data);
    size_t limit = b->limit;
    memset(b, 0, sizeof *b);
    b->limit = limit;
}

uint8_t *buf_reserve(buf_t *b, size_t extra)
{
    size_t limit = b->limit ? b->limit : BUF_DEFAULT_LIMIT;
    if (b->failed || extra > limit - b->len) {
        b->failed = 1;
        return NULL;
    }
    size_t need = b->len + extra;
    if (need > b->cap || !b->data) { /* never hand out NULL + 0 */
        size_t ncap = b->cap ? b->cap : 256;
        while (ncap < need) ncap *= 2;
        if (ncap > limit) ncap = limit;
        uint8_t *nd = realloc(b->data, ncap);
        if (!nd) {
            b->failed = 1;
            return NULL;
        }
        b->data = nd;
        b->cap = ncap;
    }
    return b->data + b->len;
}

void buf_append(buf_t *b, const void *p, size_t n)
{
    uint8_t *dst = buf_reserve(b, n);
    if (!dst) return;
    if (n) memcpy(dst, p, n);
    b->len += n;
}

void buf_consume(buf_t *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

void buf_shrink_if_idle(buf_t *b, size_t keep)
{
    if (b->len == 0 && b->cap > keep) {
        free(b->data);
        b->data = NULL;
        b->cap = 0;
    }
}

void buf_shrink_to(buf_t *b, size_t keep)
{
    if (b->len != 0 || b->cap <= keep || keep == 0) return;
    uint8_t *nd = realloc(b->data, keep);
    if (!nd) return; /* the larger block stays: still correct */
    b->data = nd;
    b->cap = keep;
}
