/*
 * rng.h — a small deterministic PRNG (splitmix64) so a run with --seed is
 * reproducible. Not for anything secret.
 *
 * Invariant: the state is caller-owned; the same seed gives the same stream.
 */
#ifndef MCB_RNG_H
#define MCB_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1). */
static inline double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
