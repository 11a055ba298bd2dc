/*
 * rcon_limiter.h — RCON's wrong-password accounting (pure: no I/O, no
 * globals, time passed in; tests/unit/test_admin.c drives it directly).
 *
 * Wrong passwords are counted per address (IPv4, or IPv6 per /64) in a
 * fixed table of RCON_LIMITER_SLOTS:
 *
 *   fails <= RCON_FREE_TRIES        a wrong password is answered at once
 *   RCON_FREE_TRIES < fails         its answer waits RCON_BACKOFF_MS,
 *                                   doubling with each further one, at
 *                                   most RCON_BACKOFF_MAX
 *   RCON_FORGET_MS without a wrong password: the count starts over
 *
 * Nothing here refuses an attempt or an address: the right password is
 * always checked and answered at once (rcon.h invariant 2), so a guesser
 * sharing an address with the operator (127.0.0.1 behind an SSH tunnel)
 * only slows down its own answers. A right password does not clear the
 * count either, or that guesser would get its free tries back each time
 * the operator logs in.
 *
 * Invariants:
 *  1. Bounded: a new address takes a free slot, else the one whose last
 *     wrong password is oldest.
 *  2. An IPv4-mapped IPv6 address counts as that IPv4 address.
 */
#ifndef MC_RCON_LIMITER_H
#define MC_RCON_LIMITER_H

#include <stdbool.h>
#include <stdint.h>

#define RCON_FREE_TRIES    3
#define RCON_BACKOFF_MS    1000
#define RCON_BACKOFF_MAX   60000
#define RCON_FORGET_MS     3600000
#define RCON_LIMITER_SLOTS 256

struct rcon_limiter {
    struct rcon_slot {
        uint8_t key[16]; /* IPv4, or the IPv6 /64 */
        bool used;
        int fails;
        int64_t last_ms; /* the last wrong password */
    } slot[RCON_LIMITER_SLOTS];
};
/* The key for an address text ("1.2.3.4", "2001:db8::1"); -1 if not one. */
int rcon_limiter_key(const char *ip, uint8_t key[16]);
/* Records a wrong password at now_ms. Returns how long its answer is held
 * back (0 within the free tries); *fails (if not NULL) gets the count. */
int64_t rcon_limiter_fail(struct rcon_limiter *l, const uint8_t key[16], int64_t now_ms,
                          int *fails);
/* The wrong passwords counted for key at now_ms. */
int rcon_limiter_fails(const struct rcon_limiter *l, const uint8_t key[16], int64_t now_ms);

#endif
