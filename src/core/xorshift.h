/*
 * xorshift.h — the small deterministic PRNG the game's pure rules share
 * (loot rolls, explosion rays): xorshift64, state owned by the caller. Not
 * for anything secret.
 *
 * Invariant: a zero state is replaced by a fixed nonzero one (xorshift
 * would stay at zero); the same state gives the same stream.
 */
#ifndef MC_XORSHIFT_H
#define MC_XORSHIFT_H

#include <stdint.h>

static inline uint64_t xorshift64(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

#endif
