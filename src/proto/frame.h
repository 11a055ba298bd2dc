/*
 * frame.h — packet framing and zlib-format compression (libdeflate).
 *
 * Wire layout of one frame:
 *   without compression:  VarInt length | packet (VarInt id | payload)
 *   with compression:     VarInt length | VarInt data_length | body
 *       data_length == 0: body is the packet, uncompressed (shorter than the threshold)
 *       data_length  > 0: body is zlib(packet), packet length == data_length
 *
 * Invariants:
 *  1. Decoding is incremental and stateless: frame_decode looks only at the
 *     bytes given; with a partial frame it returns 0 ("need more") and the
 *     caller keeps the bytes and calls again when more arrive.
 *  2. The length VarInt may use at most 3 bytes (2^21 - 1, as vanilla's
 *     Varint21FrameDecoder); a 4th byte is rejected at once, before the frame
 *     body arrives. A frame longer than `max_frame` is rejected as soon as its
 *     length is known.
 *  3. A compressed frame's claimed data_length is checked before inflating:
 *     it must be >= the threshold and <= max_packet; inflation goes into a
 *     buffer of exactly that size and must produce exactly that many bytes.
 */
#ifndef MC_FRAME_H
#define MC_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

struct libdeflate_compressor;
struct libdeflate_decompressor;

#define FRAME_LENGTH_MAX_BYTES 3
#define FRAME_MAX_LENGTH       ((1u << 21) - 1) /* 2 MiB - 1: what 3 VarInt bytes hold */
#define FRAME_MAX_PACKET       (8u << 20)       /* vanilla MAXIMUM_UNCOMPRESSED_LENGTH */

enum frame_error {
    FRAME_E_LENGTH_VARINT = -1, /* length prefix longer than 3 bytes */
    FRAME_E_TOO_LONG = -2,      /* frame length over the limit */
    FRAME_E_EMPTY = -3,         /* zero-length frame */
    FRAME_E_DATA_LENGTH = -4,   /* bad data_length VarInt */
    FRAME_E_BELOW_THRESHOLD = -5,
    FRAME_E_CLAIM_TOO_BIG = -6,
    FRAME_E_INFLATE = -7,
    FRAME_E_NOMEM = -8,
};

const char *frame_strerror(int err);

typedef struct frame_limits {
    size_t max_frame;  /* bytes after the length prefix */
    size_t max_packet; /* uncompressed packet size */
} frame_limits;

/*
 * Decodes the first frame of in[0..len).
 * threshold < 0 means compression is off.
 * On success returns the bytes consumed and points pkt and pkt_len at the
 * packet (id + payload): into `in` when it was not compressed, otherwise
 * into `scratch` (reset and refilled; valid until the next call).
 * Returns 0 when more input is needed, or an enum frame_error (< 0).
 */
long frame_decode(const uint8_t *in, size_t len, const frame_limits *lim, int threshold,
                  struct libdeflate_decompressor *d, buf_t *scratch, const uint8_t **pkt,
                  size_t *pkt_len);

/* One frame's body as it arrived: data_length 0 = data[0..len) is the packet;
 * otherwise data[0..len) is zlib for a packet of data_length bytes (already
 * checked against the threshold and max_packet). Points into the input. */
struct frame_body {
    const uint8_t *data;
    size_t len;
    size_t data_length;
};

/*
 * The framing half of frame_decode: finds the first frame in in[0..len) and
 * checks its lengths, without inflating. Same returns as frame_decode. For
 * callers that inflate differently (mcbench inflates only a packet's head).
 */
long frame_split(const uint8_t *in, size_t len, const frame_limits *lim, int threshold,
                 struct frame_body *out);

/*
 * Appends pkt (id + payload) to `out` as one frame. threshold < 0: no
 * compression. `c` may be NULL only when threshold < 0. Returns 0, or -1
 * when `out` is over its limit (out->failed set).
 */
int frame_encode(buf_t *out, const uint8_t *pkt, size_t len, int threshold,
                 struct libdeflate_compressor *c);

#endif
