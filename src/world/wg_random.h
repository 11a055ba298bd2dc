/*
 * wg_random.h — the random sources of vanilla's world generation, bit for bit:
 *
 *   wg_xoro     Xoroshiro128++ (XoroshiroRandomSource): the overworld's noise
 *               seeds, positional factories ("fromHashOf", "at"), features
 *   wg_jrand    java.util.Random's 48-bit LCG (LegacyRandomSource): carvers
 *               and the other places vanilla still uses it
 *
 * Seeding follows vanilla: a 64-bit seed is spread to 128 bits with the
 * Stafford-13 mixer; a positional factory is two longs, and a name is turned
 * into a source by XOR-ing the MD5 of the name (big-endian halves) into them.
 * The MD5 halves of every name used are constants generated into
 * data/worldgen_router.c, so nothing hashes at run time.
 *
 * Invariants:
 *  1. Every function is a pure function of the state it is given; there is no
 *     global state, so worker threads can use separate sources freely.
 *  2. Results equal Java's on every machine: only 64-bit integer arithmetic,
 *     and doubles built exactly as Java builds them (53 or 26+27 bits).
 */
#ifndef MC_WG_RANDOM_H
#define MC_WG_RANDOM_H

#include <stdint.h>

typedef struct wg_xoro {
    uint64_t lo, hi;
} wg_xoro;

/* A positional factory (XoroshiroPositionalRandomFactory): two longs. */
typedef struct wg_xoro_factory {
    uint64_t lo, hi;
} wg_xoro_factory;

/* new XoroshiroRandomSource(seed): the seed upgraded to 128 bits. */
void wg_xoro_seed(wg_xoro *r, int64_t seed);
/* new XoroshiroRandomSource(lo, hi) (both zero: vanilla's fixed fallback). */
void wg_xoro_set(wg_xoro *r, uint64_t lo, uint64_t hi);
uint64_t wg_xoro_next_long(wg_xoro *r);
int32_t wg_xoro_next_int(wg_xoro *r);
/* nextInt(bound), bound > 0: Lemire's method as vanilla implements it. */
int32_t wg_xoro_next_int_bounded(wg_xoro *r, int32_t bound);
double wg_xoro_next_double(wg_xoro *r);
float wg_xoro_next_float(wg_xoro *r);
void wg_xoro_consume(wg_xoro *r, int n);
/* forkPositional(): a factory from the next two longs. */
wg_xoro_factory wg_xoro_fork(wg_xoro *r);
/* factory.fromHashOf(name), given the name's MD5 halves. */
void wg_xoro_from_hash(wg_xoro *r, const wg_xoro_factory *f, uint64_t md5_lo, uint64_t md5_hi);
/* factory.at(x, y, z). */
void wg_xoro_at(wg_xoro *r, const wg_xoro_factory *f, int32_t x, int32_t y, int32_t z);

/* Mth.getSeed(x, y, z). */
int64_t wg_block_seed(int32_t x, int32_t y, int32_t z);

typedef struct wg_jrand {
    uint64_t seed; /* 48 bits */
} wg_jrand;

void wg_jrand_seed(wg_jrand *r, int64_t seed);
int32_t wg_jrand_next(wg_jrand *r, int bits);
int32_t wg_jrand_next_int(wg_jrand *r);
int32_t wg_jrand_next_int_bounded(wg_jrand *r, int32_t bound);
int64_t wg_jrand_next_long(wg_jrand *r);
double wg_jrand_next_double(wg_jrand *r);
float wg_jrand_next_float(wg_jrand *r);
void wg_jrand_consume(wg_jrand *r, int n);

#endif
