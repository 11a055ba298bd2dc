/*
 * inflate_head.h — the first `want` bytes of a zlib stream, without
 * inflating the rest (see inflate_head.c).
 *
 * Invariant: reads only in[0..len), writes only out[0..want).
 */
#ifndef MCB_INFLATE_HEAD_H
#define MCB_INFLATE_HEAD_H

#include <stddef.h>
#include <stdint.h>

/* Returns the bytes produced (== want unless the stream is shorter), or -1
 * for a malformed header or head. */
long inflate_head(const uint8_t *in, size_t len, uint8_t *out, size_t want);

#endif
