/*
 * fuzz_frame.c — libFuzzer target for the network frame decoder.
 *
 * The first input byte picks the mode (compression off, threshold 0, 64 or
 * 256); the rest is fed to frame_decode as a receive buffer would be: decode
 * frames until it asks for more or fails, then check each decoded packet
 * lies inside the input or the scratch buffer and that "consumed" never
 * passes the input length. Invariant: no crash, no read past the input, no
 * allocation beyond FRAME_MAX_PACKET.
 */
#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>

#include "proto/frame.h"
#include "proto/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct libdeflate_decompressor *d;
    static buf_t scratch;
    if (!d) {
        d = libdeflate_alloc_decompressor();
        buf_init(&scratch, FRAME_MAX_PACKET);
    }
    if (size < 1) return 0;
    static const int modes[4] = {-1, 0, 64, 256};
    int threshold = modes[data[0] & 3];
    frame_limits lim = {(data[0] & 4) ? 1024 : FRAME_MAX_LENGTH, FRAME_MAX_PACKET};
    data++;
    size--;
    size_t off = 0;
    while (off < size) {
        const uint8_t *pkt;
        size_t plen;
        long n = frame_decode(data + off, size - off, &lim, threshold, d, &scratch, &pkt, &plen);
        if (n <= 0) break;
        if ((size_t)n > size - off) abort();
        int inside = pkt >= data && pkt + plen <= data + size;
        int in_scratch = scratch.data && pkt >= scratch.data &&
                         (size_t)(pkt - scratch.data) + plen <= scratch.len;
        if (!inside && !in_scratch) abort();
        /* Read the packet id the way the server does. */
        rd_t r = rd_make(pkt, plen);
        rd_varint(&r);
        off += (size_t)n;
    }
    return 0;
}
