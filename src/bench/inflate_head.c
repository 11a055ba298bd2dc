/*
 * inflate_head.c — decodes only the first bytes of a zlib stream (RFC 1950
 * wrapper around RFC 1951 DEFLATE). mcbench needs the packet id and a few
 * leading fields (a chunk's x and z, Login's entity id) of compressed
 * packets; inflating a whole 40 KB Login or chunk to read 9 bytes of it
 * would make the bots cost more than the server that compressed them once.
 *
 * Written from the RFCs for this purpose (not a copy of zlib or puff).
 *
 * Invariants:
 *  1. Never reads past in[len) nor writes past out[want): the bit reader
 *     returns an error on exhaustion and every copy is bounded by `want`.
 *  2. Stops as soon as `want` bytes were produced; the rest of the stream
 *     is not validated (a corrupt tail goes unnoticed, a corrupt head is an
 *     error). Back-references must point inside the bytes produced so far.
 *  3. Huffman tables are canonical codes rebuilt per block on the stack;
 *     over-subscribed or incomplete code sets (other than the single-code
 *     and empty distance cases the RFC allows) are errors.
 */
#include "bench/inflate_head.h"

#include <string.h>

#define MAXBITS  15
#define MAXLCODE 286
#define MAXDCODE 30
#define FIXLCODE 288

struct bits {
    const uint8_t *in;
    size_t len, pos;
    uint32_t buf; /* bit buffer, LSB first */
    int cnt;
};

/* Returns the next n bits (n <= 16), or -1 when the input ran out. */
static int getbits(struct bits *s, int n)
{
    while (s->cnt < n) {
        if (s->pos >= s->len) return -1;
        s->buf |= (uint32_t)s->in[s->pos++] << s->cnt;
        s->cnt += 8;
    }
    int v = (int)(s->buf & ((1u << n) - 1));
    s->buf >>= n;
    s->cnt -= n;
    return v;
}

struct huff {
    uint16_t count[MAXBITS + 1]; /* codes of each length */
    uint16_t symbol[FIXLCODE];   /* symbols ordered by code */
};

/* Builds canonical codes; returns 0 when complete, >0 incomplete, <0 over-subscribed. */
static int build(struct huff *h, const uint8_t *lengths, int n)
{
    memset(h->count, 0, sizeof h->count);
    for (int i = 0; i < n; i++) h->count[lengths[i]]++;
    if (h->count[0] == n) return 0; /* no codes: complete but unusable */
    int left = 1;
    for (int len = 1; len <= MAXBITS; len++) {
        left <<= 1;
        left -= h->count[len];
        if (left < 0) return -1;
    }
    uint16_t offs[MAXBITS + 1];
    offs[1] = 0;
    for (int len = 1; len < MAXBITS; len++) offs[len + 1] = (uint16_t)(offs[len] + h->count[len]);
    for (int i = 0; i < n; i++)
        if (lengths[i]) h->symbol[offs[lengths[i]]++] = (uint16_t)i;
    return left;
}

/* Decodes one symbol bit by bit (codes are stored MSB-first in the stream). */
static int decode(struct bits *s, const struct huff *h)
{
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= MAXBITS; len++) {
        int b = getbits(s, 1);
        if (b < 0) return -1;
        code |= b;
        int count = h->count[len];
        if (code - count < first) return h->symbol[index + (code - first)];
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return -2; /* ran out of codes */
}

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Decodes symbols of one Huffman block until end of block or `want` bytes. */
static int codes(struct bits *s, uint8_t *out, size_t *o, size_t want, const struct huff *lc,
                 const struct huff *dc)
{
    for (;;) {
        int sym = decode(s, lc);
        if (sym < 0) return -1;
        if (sym < 256) {
            out[(*o)++] = (uint8_t)sym;
            if (*o >= want) return 1;
            continue;
        }
        if (sym == 256) return 0;
        sym -= 257;
        if (sym >= 29) return -1;
        int e = getbits(s, len_extra[sym]);
        if (e < 0) return -1;
        size_t len = len_base[sym] + (size_t)e;
        int ds = decode(s, dc);
        if (ds < 0 || ds >= 30) return -1;
        e = getbits(s, dist_extra[ds]);
        if (e < 0) return -1;
        size_t dist = dist_base[ds] + (size_t)e;
        if (dist > *o) return -1; /* invariant 2 */
        while (len--) {
            out[*o] = out[*o - dist];
            (*o)++;
            if (*o >= want) return 1;
        }
    }
}

static int fixed(struct bits *s, uint8_t *out, size_t *o, size_t want)
{
    uint8_t lengths[FIXLCODE];
    struct huff lc, dc;
    int i = 0;
    for (; i < 144; i++) lengths[i] = 8;
    for (; i < 256; i++) lengths[i] = 9;
    for (; i < 280; i++) lengths[i] = 7;
    for (; i < FIXLCODE; i++) lengths[i] = 8;
    build(&lc, lengths, FIXLCODE);
    for (i = 0; i < MAXDCODE; i++) lengths[i] = 5;
    build(&dc, lengths, MAXDCODE);
    return codes(s, out, o, want, &lc, &dc);
}

static int dynamic(struct bits *s, uint8_t *out, size_t *o, size_t want)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                      11, 4,  12, 3, 13, 2, 14, 1, 15};
    int nlen = getbits(s, 5), ndist = getbits(s, 5), ncode = getbits(s, 4);
    if (nlen < 0 || ndist < 0 || ncode < 0) return -1;
    nlen += 257;
    ndist += 1;
    ncode += 4;
    if (nlen > MAXLCODE || ndist > MAXDCODE) return -1;
    uint8_t lengths[MAXLCODE + MAXDCODE];
    memset(lengths, 0, 19);
    for (int i = 0; i < ncode; i++) {
        int v = getbits(s, 3);
        if (v < 0) return -1;
        lengths[order[i]] = (uint8_t)v;
    }
    struct huff lc, dc;
    if (build(&lc, lengths, 19) != 0) return -1; /* code-length code must be complete */
    int idx = 0;
    while (idx < nlen + ndist) {
        int sym = decode(s, &lc);
        if (sym < 0) return -1;
        if (sym < 16) {
            lengths[idx++] = (uint8_t)sym;
            continue;
        }
        int len = 0, rep;
        if (sym == 16) {
            if (idx == 0) return -1;
            len = lengths[idx - 1];
            rep = getbits(s, 2);
            if (rep < 0) return -1;
            rep += 3;
        } else if (sym == 17) {
            rep = getbits(s, 3);
            if (rep < 0) return -1;
            rep += 3;
        } else {
            rep = getbits(s, 7);
            if (rep < 0) return -1;
            rep += 11;
        }
        if (idx + rep > nlen + ndist) return -1;
        while (rep--) lengths[idx++] = (uint8_t)len;
    }
    if (lengths[256] == 0) return -1; /* no end-of-block code */
    int err = build(&lc, lengths, nlen);
    if (err < 0 || (err > 0 && nlen - lc.count[0] != 1)) return -1;
    err = build(&dc, lengths + nlen, ndist);
    if (err < 0 || (err > 0 && ndist - dc.count[0] != 1)) return -1;
    return codes(s, out, o, want, &lc, &dc);
}

long inflate_head(const uint8_t *in, size_t len, uint8_t *out, size_t want)
{
    if (len < 2) return -1;
    /* zlib header: CM 8 (deflate), window <= 32K, check bits, no preset dictionary. */
    if ((in[0] & 0x0f) != 8 || (in[0] >> 4) > 7 || ((in[0] << 8) | in[1]) % 31 != 0 ||
        (in[1] & 0x20))
        return -1;
    if (want == 0) return 0;
    struct bits s = {in + 2, len - 2, 0, 0, 0};
    size_t o = 0;
    for (;;) {
        int last = getbits(&s, 1);
        int type = getbits(&s, 2);
        if (last < 0 || type < 0) return -1;
        int r;
        if (type == 0) { /* stored: byte-aligned LEN, NLEN, then raw bytes */
            s.buf = 0;
            s.cnt = 0;
            if (s.len - s.pos < 4) return -1;
            unsigned n = s.in[s.pos] | (unsigned)s.in[s.pos + 1] << 8;
            unsigned nn = s.in[s.pos + 2] | (unsigned)s.in[s.pos + 3] << 8;
            s.pos += 4;
            if (n != (~nn & 0xffffu)) return -1;
            size_t take = n;
            if (take > want - o) take = want - o;
            if (take > s.len - s.pos) return -1;
            memcpy(out + o, s.in + s.pos, take);
            o += take;
            s.pos += take;
            r = o >= want ? 1 : 0;
        } else if (type == 1) {
            r = fixed(&s, out, &o, want);
        } else if (type == 2) {
            r = dynamic(&s, out, &o, want);
        } else {
            return -1;
        }
        if (r < 0) return -1;
        if (r > 0 || o >= want) return (long)o;
        if (last) return (long)o; /* stream ended before `want` bytes */
    }
}
