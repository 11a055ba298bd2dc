/*
 * noise.h — integer hashes for feature placement: a well-mixed 64-bit value
 * per (seed, x, z, salt), used where a decision must come out the same from
 * every chunk that asks (trees crossing borders, plants, ore discards).
 * (The terrain's noises are vanilla's: see wg_noise.h.)
 *
 * Invariant: pure functions; the same value on every run and machine.
 */
#ifndef MC_NOISE_H
#define MC_NOISE_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A well-mixed 64-bit hash of (seed, x, z, salt). */
static inline uint64_t hash_xz(uint64_t seed, int32_t x, int32_t z, uint32_t salt)
{
    return splitmix64(seed ^
                      splitmix64((uint64_t)(uint32_t)x << 32 ^ (uint32_t)z ^ (uint64_t)salt << 17));
}

#endif
