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

long frame_split(const uint8_t *in, size_t len, const frame_limits *lim, int threshold,
                 struct frame_body *out)
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

    out->data = in + n;
    out->len = (size_t)flen;
    out->data_length = 0;
    long consumed = (long)n + flen;
    if (threshold < 0) return consumed;
    int32_t dlen;
    int m = varint_decode(out->data, out->len, &dlen);
    if (m <= 0 || dlen < 0) return FRAME_E_DATA_LENGTH;
    out->data += m;
    out->len -= (size_t)m;
    if (dlen == 0) return out->len ? consumed : FRAME_E_EMPTY;
    if (dlen < threshold) return FRAME_E_BELOW_THRESHOLD;
    if ((size_t)dlen > lim->max_packet) return FRAME_E_CLAIM_TOO_BIG;
    out->data_length = (size_t)dlen;
    return consumed;
}

long frame_decode(const uint8_t *in, size_t len, const frame_limits *lim, int threshold,
                  struct libdeflate_decompressor *d, buf_t *scratch, const uint8_t **pkt,
                  size_t *pkt_len)
{
    struct frame_body f;
    long consumed = frame_split(in, len, lim, threshold, &f);
    if (consumed <= 0) return consumed;
    if (f.data_length == 0) {
        *pkt = f.data;
        *pkt_len = f.len;
        return consumed;
    }
    buf_reset(scratch);
    uint8_t *dst = buf_reserve(scratch, f.data_length);
    if (!dst) return FRAME_E_NOMEM;
    size_t actual = 0;
    enum libdeflate_result res =
        libdeflate_zlib_decompress(d, f.data, f.len, dst, f.data_length, &actual);
    if (res != LIBDEFLATE_SUCCESS || actual != f.data_length) return FRAME_E_INFLATE;
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
