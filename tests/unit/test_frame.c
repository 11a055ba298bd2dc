/* test_frame.c — the frame decoder: partial input, limits, compression. */
#include <libdeflate.h>
#include <stdlib.h>

#include "proto/frame.h"
#include "proto/wire.h"
#include "test.h"

static const frame_limits lim = {FRAME_MAX_LENGTH, FRAME_MAX_PACKET};

/* Builds three packets of varied sizes framed at `threshold`. */
static void three_frames(buf_t *out, int threshold, struct libdeflate_compressor *c,
                         uint8_t *payloads[3], size_t lens[3])
{
    static const size_t sizes[3] = {1, 300, 5000};
    for (int i = 0; i < 3; i++) {
        lens[i] = sizes[i];
        payloads[i] = malloc(sizes[i]);
        for (size_t k = 0; k < sizes[i]; k++) payloads[i][k] = (uint8_t)(k * 7 + (size_t)i);
        CHECK_EQ_INT(frame_encode(out, payloads[i], sizes[i], threshold, c), 0);
    }
}

static void feed_byte_by_byte(int threshold)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    buf_t wire, scratch;
    buf_init(&wire, 0);
    buf_init(&scratch, FRAME_MAX_PACKET);
    uint8_t *payloads[3];
    size_t lens[3];
    three_frames(&wire, threshold, c, payloads, lens);

    /* Simulate a socket delivering one byte at a time into a receive buffer. */
    buf_t rx;
    buf_init(&rx, 0);
    int got = 0;
    for (size_t i = 0; i < wire.len; i++) {
        buf_append(&rx, wire.data + i, 1);
        for (;;) {
            const uint8_t *pkt;
            size_t plen;
            long n = frame_decode(rx.data, rx.len, &lim, threshold, d, &scratch, &pkt, &plen);
            CHECK(n >= 0);
            if (n <= 0) break;
            CHECK(got < 3);
            if (got < 3) CHECK_MEM(pkt, plen, payloads[got], lens[got]);
            got++;
            buf_consume(&rx, (size_t)n);
        }
    }
    CHECK_EQ_INT(got, 3);
    CHECK_EQ_INT(rx.len, 0);
    for (int i = 0; i < 3; i++) free(payloads[i]);
    buf_free(&wire);
    buf_free(&scratch);
    buf_free(&rx);
    libdeflate_free_compressor(c);
    libdeflate_free_decompressor(d);
}

TEST(frame_byte_by_byte_uncompressed)
{
    feed_byte_by_byte(-1);
}

TEST(frame_byte_by_byte_compressed)
{
    feed_byte_by_byte(256);
}

TEST(frame_several_per_read)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    buf_t wire, scratch;
    buf_init(&wire, 0);
    buf_init(&scratch, FRAME_MAX_PACKET);
    uint8_t *payloads[3];
    size_t lens[3];
    three_frames(&wire, 64, c, payloads, lens);
    size_t off = 0;
    for (int i = 0; i < 3; i++) {
        const uint8_t *pkt;
        size_t plen;
        long n = frame_decode(wire.data + off, wire.len - off, &lim, 64, d, &scratch, &pkt, &plen);
        CHECK(n > 0);
        if (n <= 0) break;
        CHECK_MEM(pkt, plen, payloads[i], lens[i]);
        off += (size_t)n;
    }
    CHECK_EQ_INT(off, wire.len);
    for (int i = 0; i < 3; i++) free(payloads[i]);
    buf_free(&wire);
    buf_free(&scratch);
    libdeflate_free_compressor(c);
    libdeflate_free_decompressor(d);
}

TEST(frame_rejects_long_length_varint_early)
{
    static const uint8_t six[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    buf_t scratch;
    buf_init(&scratch, 0);
    const uint8_t *pkt;
    size_t plen;
    /* Two continuation bytes: still "need more"; the third proves it too long. */
    CHECK_EQ_INT(frame_decode(six, 2, &lim, -1, NULL, &scratch, &pkt, &plen), 0);
    CHECK_EQ_INT(frame_decode(six, 3, &lim, -1, NULL, &scratch, &pkt, &plen),
                 FRAME_E_LENGTH_VARINT);
    CHECK_EQ_INT(frame_decode(six, 6, &lim, -1, NULL, &scratch, &pkt, &plen),
                 FRAME_E_LENGTH_VARINT);
}

TEST(frame_rejects_oversized_before_body)
{
    /* Claims 2 MiB + 1 with no body: refused without waiting for it. */
    uint8_t hdr[5];
    int n = varint_encode(hdr, (int32_t)(2u << 20) + 1);
    buf_t scratch;
    buf_init(&scratch, 0);
    const uint8_t *pkt;
    size_t plen;
    CHECK(frame_decode(hdr, (size_t)n, &lim, -1, NULL, &scratch, &pkt, &plen) < 0);
    frame_limits small = {1024, 1024};
    n = varint_encode(hdr, 1025);
    CHECK_EQ_INT(frame_decode(hdr, (size_t)n, &small, -1, NULL, &scratch, &pkt, &plen),
                 FRAME_E_TOO_LONG);
    static const uint8_t zero[] = {0x00};
    CHECK_EQ_INT(frame_decode(zero, 1, &lim, -1, NULL, &scratch, &pkt, &plen), FRAME_E_EMPTY);
}

TEST(frame_decompression_bomb_claims)
{
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    buf_t scratch, f;
    buf_init(&scratch, FRAME_MAX_PACKET);
    buf_init(&f, 0);
    const uint8_t *pkt;
    size_t plen;
    /* Claims 100 MiB uncompressed: refused before inflating. */
    uint8_t body[16];
    int dl = varint_encode(body, 100 << 20);
    memcpy(body + dl, "\x78\x9c\x03\x00\x00\x00\x00\x01", 8);
    wr_varint(&f, dl + 8);
    buf_append(&f, body, (size_t)dl + 8);
    CHECK_EQ_INT(frame_decode(f.data, f.len, &lim, 256, d, &scratch, &pkt, &plen),
                 FRAME_E_CLAIM_TOO_BIG);
    CHECK(scratch.cap < (1u << 20)); /* nothing big was allocated */

    /* Claims a size below the threshold. */
    buf_reset(&f);
    dl = varint_encode(body, 10);
    wr_varint(&f, dl + 8);
    buf_append(&f, body, (size_t)dl + 8);
    CHECK_EQ_INT(frame_decode(f.data, f.len, &lim, 256, d, &scratch, &pkt, &plen),
                 FRAME_E_BELOW_THRESHOLD);

    /* Claims 1000 bytes, but the zlib stream is garbage. */
    buf_reset(&f);
    dl = varint_encode(body, 1000);
    memcpy(body + dl, "garbage!", 8);
    wr_varint(&f, dl + 8);
    buf_append(&f, body, (size_t)dl + 8);
    CHECK_EQ_INT(frame_decode(f.data, f.len, &lim, 256, d, &scratch, &pkt, &plen), FRAME_E_INFLATE);

    /* A stream that inflates to fewer bytes than claimed is refused. */
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    uint8_t plain[300] = {0}, z[400];
    size_t zl = libdeflate_zlib_compress(c, plain, sizeof plain, z, sizeof z);
    buf_reset(&f);
    dl = varint_encode(body, 400);
    wr_varint(&f, dl + (int)zl);
    buf_append(&f, body, (size_t)dl);
    buf_append(&f, z, zl);
    CHECK_EQ_INT(frame_decode(f.data, f.len, &lim, 256, d, &scratch, &pkt, &plen), FRAME_E_INFLATE);
    libdeflate_free_compressor(c);
    libdeflate_free_decompressor(d);
    buf_free(&scratch);
    buf_free(&f);
}
