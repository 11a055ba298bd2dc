/* frame.c — see frame.h. */
#include "proto/frame.h"

#include <libdeflate.h>
#include <string.h>

#include "proto/wire.h"

const char *frame_strerror(int err)
{
    switch (err) {
    case FRAME_E_LENGTH_VARINT: return "frame length VarInt longer than 3 bytes";
    case FRAME_E_TOO_LONG: return "frame too long";
    case FRAME_E_EMPTY: return "empty frame";
    case FRAME_E_DATA_LENGTH: return "bad compressed data length";
    case FRAME_E_BELOW_THRESHOLD: return "compressed packet below the compression threshold";
    case FRAME_E_CLAIM_TOO_BIG: return "compressed packet claims a size over the limit";
    case FRAME_E_INFLATE: return "corrupt compressed packet";
    case FRAME_E_NOMEM: return "out of memory";
    }
    return "frame error";
}

long frame_decode(const uint8_t *in, size_t len, const frame_limits *lim, int threshold,
                  struct libdeflate_decompressor *d, buf_t *scratch, const uint8_t **pkt,
                  size_t *pkt_len)
{
    int32_t flen;
    int n = varint_decode(in, len < FRAME_LENGTH_MAX_BYTES ? len : FRAME_LENGTH_MAX_BYTES, &flen);
    if (n == 0) {
        if (len >= FRAME_LENGTH_MAX_BYTES) return FRAME_E_LENGTH_VARINT;
        return 0;
    }
    if (n < 0) return FRAME_E_LENGTH_VARINT;
    if (flen == 0) return FRAME_E_EMPTY;
    if ((size_t)flen > lim->max_frame) return FRAME_E_TOO_LONG;
    if (len - (size_t)n < (size_t)flen) return 0;

    const uint8_t *body = in + n;
    size_t blen = (size_t)flen;
    long consumed = (long)n + flen;
    if (threshold < 0) {
        *pkt = body;
        *pkt_len = blen;
        return consumed;
    }
    int32_t dlen;
    int m = varint_decode(body, blen, &dlen);
    if (m <= 0 || dlen < 0) return FRAME_E_DATA_LENGTH;
    body += m;
    blen -= (size_t)m;
    if (dlen == 0) {
        if (blen == 0) return FRAME_E_EMPTY;
        *pkt = body;
        *pkt_len = blen;
        return consumed;
    }
    if (dlen < threshold) return FRAME_E_BELOW_THRESHOLD;
    if ((size_t)dlen > lim->max_packet) return FRAME_E_CLAIM_TOO_BIG;
    buf_reset(scratch);
    uint8_t *dst = buf_reserve(scratch, (size_t)dlen);
    if (!dst) return FRAME_E_NOMEM;
    size_t actual = 0;
    enum libdeflate_result res =
        libdeflate_zlib_decompress(d, body, blen, dst, (size_t)dlen, &actual);
    if (res != LIBDEFLATE_SUCCESS || actual != (size_t)dlen) return FRAME_E_INFLATE;
    scratch->len = actual;
    *pkt = dst;
    *pkt_len = actual;
    return consumed;
}

int frame_encode(buf_t *out, const uint8_t *pkt, size_t len, int threshold,
                 struct libdeflate_compressor *c)
{
    uint8_t hdr[2 * VARINT_MAX_BYTES];
    if (threshold < 0) {
        int h = varint_encode(hdr, (int32_t)len);
        buf_append(out, hdr, (size_t)h);
        buf_append(out, pkt, len);
        return out->failed ? -1 : 0;
    }
    if (len < (size_t)threshold) {
        int h = varint_encode(hdr, (int32_t)len + 1);
        hdr[h++] = 0;
        buf_append(out, hdr, (size_t)h);
        buf_append(out, pkt, len);
        return out->failed ? -1 : 0;
    }
    /* Compress just past room for the largest header, then close the gap. */
    size_t bound = libdeflate_zlib_compress_bound(c, len);
    const size_t room = 2 * VARINT_MAX_BYTES;
    uint8_t *dst = buf_reserve(out, room + bound);
    if (!dst) return -1;
    size_t clen = libdeflate_zlib_compress(c, pkt, len, dst + room, bound);
    if (clen == 0) {
        out->failed = 1;
        return -1;
    }
    int dl = varint_encode(hdr + VARINT_MAX_BYTES, (int32_t)len);
    int fl = varint_encode(hdr, (int32_t)(clen + (size_t)dl));
    memcpy(dst, hdr, (size_t)fl);
    memcpy(dst + fl, hdr + VARINT_MAX_BYTES, (size_t)dl);
    memmove(dst + fl + dl, dst + room, clen);
    out->len += (size_t)fl + (size_t)dl + clen;
    return 0;
}
