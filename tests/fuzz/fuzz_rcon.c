/*
 * fuzz_rcon.c — libFuzzer target for the RCON codec (admin/rcon_packet.c):
 * the input is a client's byte stream.
 *
 * Invariants: every decoded packet lies inside the input, with a body no
 * longer than RCON_MAX_LENGTH - 10 and free of NULs; re-encoding it and
 * decoding again gives the same packet; a reply built from the input as
 * text decodes into chunks of at most RCON_CHUNK bytes that add up to it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "admin/rcon_packet.h"
#include "core/buf.h"

/* A packet's length field (little-endian). */
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    size_t off = 0;
    buf_t b;
    buf_init(&b, 1u << 20);
    for (;;) {
        struct rcon_packet p;
        long n = rcon_decode(copy + off, size - off, &p);
        if (n <= 0) break;
        if ((size_t)n > size - off) abort();
        if (p.body_len > RCON_MAX_LENGTH - 10 || memchr(p.body, 0, p.body_len)) abort();
        buf_reset(&b);
        rcon_encode(&b, p.id, p.type, p.body, p.body_len);
        struct rcon_packet q;
        if (rcon_decode(b.data, b.len, &q) != (long)b.len || q.id != p.id || q.type != p.type ||
            q.body_len != p.body_len || memcmp(q.body, p.body, p.body_len) != 0)
            abort();
        off += (size_t)n;
    }
    buf_reset(&b);
    rcon_encode_response(&b, 1, (const char *)copy, size);
    size_t at = 0, total = 0;
    while (at < b.len) {
        if (b.len - at < 14) abort();
        uint32_t len = le32(b.data + at);
        if (len < 10 || len - 10 > RCON_CHUNK || at + 4 + len > b.len) abort();
        total += len - 10;
        at += 4 + len;
    }
    if (total != size) abort();
    buf_free(&b);
    free(copy);
    return 0;
}
