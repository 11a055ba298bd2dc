/*
 * wire_longs.h — a run of 64-bit words written big-endian with one
 * reservation: the packed block-state, biome and heightmap arrays, on the
 * wire (world/chunk.c, Chunk Data) and in Anvil NBT (world/anvil.c). The
 * hot path of chunk encoding, so no per-word append.
 *
 * Invariants:
 *  1. Appends exactly 8 * n bytes, most significant byte first, or nothing
 *     when the buffer cannot grow (buf_reserve's failure is sticky).
 *  2. Writes no length prefix: the caller writes the VarInt (packets) or the
 *     NBT tag and int32 count (long[] tags) that its format puts first.
 */
#ifndef MC_WIRE_LONGS_H
#define MC_WIRE_LONGS_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

static inline void wr_u64_words(buf_t *b, const uint64_t *v, size_t n)
{
    uint8_t *dst = buf_reserve(b, n * 8);
    if (!dst) return;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        for (int k = 7; k >= 0; k--) {
            dst[i * 8 + (size_t)k] = (uint8_t)x;
            x >>= 8;
        }
    }
    b->len += n * 8;
}

#endif
