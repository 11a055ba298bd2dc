/*
 * noise.h — deterministic gradient noise for terrain (Perlin-style, 2D/3D)
 * and integer hashes for feature placement.
 *
 * Invariants:
 *  1. Everything is a pure function of the seed and the coordinates: the same
 *     seed gives the same values on every run and every x86-64/ARM64 machine
 *     (IEEE doubles, no fast-math, no platform random()).
 *  2. noise2/noise3 return values in about [-1, 1]; fbm sums octaves with
 *     halving amplitude and divides by the total amplitude.
 */
#ifndef MC_NOISE_H
#define MC_NOISE_H

#include <stdint.h>

typedef struct noise {
    uint8_t perm[512];
} noise;

void noise_init(noise *n, uint64_t seed);
double noise2(const noise *n, double x, double z);
double noise3(const noise *n, double x, double y, double z);
double fbm2(const noise *n, double x, double z, int octaves);
double fbm3(const noise *n, double x, double y, double z, int octaves);

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
