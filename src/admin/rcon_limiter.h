/*
 * rcon_limiter.h — RCON's wrong-password accounting (pure: no I/O, no
 * globals, time passed in; tests/unit/test_admin.c drives it directly).
 *
 * Wrong passwords are counted per address (IPv4, or IPv6 per /64) in a
 * fixed table of RCON_LIMITER_SLOTS:
 *
 *   fails < RCON_FREE_TRIES          tries are checked at once
 *   RCON_FREE_TRIES <= fails         each try waits an exponential backoff
 *                                    (RCON_BACKOFF_MS doubling, at most
 *                                    RCON_BACKOFF_MAX); a try inside it
 *                                    fails unchecked (RCON_WAIT)
 *   fails >= RCON_BLOCK_AFTER        blocked for RCON_BLOCK_MS (RCON_BLOCKED);
 *                                    after it, the backoff goes on
 *   a good login                     clears the count
 *
 * Invariants:
 *  1. Bounded: a new address takes a free slot, else the one idle longest
 *     (a blocked one only when every slot is blocked).
 *  2. An IPv4-mapped IPv6 address counts as that IPv4 address.
 */
#ifndef MC_RCON_LIMITER_H
#define MC_RCON_LIMITER_H

#include <stdbool.h>
#include <stdint.h>

#define RCON_FREE_TRIES    3
#define RCON_BACKOFF_MS    1000
#define RCON_BACKOFF_MAX   60000
#define RCON_BLOCK_AFTER   10
#define RCON_BLOCK_MS      3600000
#define RCON_LIMITER_SLOTS 256

struct rcon_limiter {
    struct rcon_slot {
        uint8_t key[16]; /* IPv4, or the IPv6 /64 */
        bool used;
        int fails;
        int64_t next_ms;       /* no try before this */
        int64_t blocked_until; /* 0: not blocked */
        int64_t last_ms;
    } slot[RCON_LIMITER_SLOTS];
};
enum rcon_verdict { RCON_OK, RCON_WAIT, RCON_BLOCKED };
/* The key for an address text ("1.2.3.4", "2001:db8::1"); -1 if not one. */
int rcon_limiter_key(const char *ip, uint8_t key[16]);
enum rcon_verdict rcon_limiter_check(const struct rcon_limiter *l, const uint8_t key[16],
                                     int64_t now_ms);
/* A wrong password: returns the failure count now recorded. */
int rcon_limiter_fail(struct rcon_limiter *l, const uint8_t key[16], int64_t now_ms);
void rcon_limiter_ok(struct rcon_limiter *l, const uint8_t key[16]);

#endif
