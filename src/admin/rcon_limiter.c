/*
 * rcon_limiter.c — see rcon_limiter.h. Pure: no I/O, no globals; time is
 * passed in.
 */
#include "admin/rcon_limiter.h"

#include <arpa/inet.h>
#include <string.h>

int rcon_limiter_key(const char *ip, uint8_t key[16])
{
    struct in_addr a4;
    struct in6_addr a6;
    memset(key, 0, 16);
    if (inet_pton(AF_INET, ip, &a4) == 1) {
        memcpy(key, &a4, 4);
        key[15] = 4;
        return 0;
    }
    if (inet_pton(AF_INET6, ip, &a6) == 1) {
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(a6.s6_addr, mapped, 12) == 0) {
            memcpy(key, a6.s6_addr + 12, 4);
            key[15] = 4;
        } else {
            memcpy(key, a6.s6_addr, 8); /* one /64: what one host usually gets */
            key[15] = 6;
        }
        return 0;
    }
    return -1;
}

static int rcon_find(const struct rcon_limiter *l, const uint8_t key[16])
{
    for (int i = 0; i < RCON_LIMITER_SLOTS; i++)
        if (l->slot[i].used && memcmp(l->slot[i].key, key, 16) == 0) return i;
    return -1;
}

enum rcon_verdict rcon_limiter_check(const struct rcon_limiter *l, const uint8_t key[16],
                                     int64_t now_ms)
{
    int i = rcon_find(l, key);
    if (i < 0) return RCON_OK;
    const struct rcon_slot *s = &l->slot[i];
    if (s->blocked_until && now_ms < s->blocked_until) return RCON_BLOCKED;
    if (now_ms < s->next_ms) return RCON_WAIT;
    return RCON_OK;
}

int rcon_limiter_fail(struct rcon_limiter *l, const uint8_t key[16], int64_t now_ms)
{
    int i = rcon_find(l, key);
    if (i < 0) {
        /* a free slot, else the one idle longest (a blocked one only if all are) */
        int best = -1;
        for (int k = 0; k < RCON_LIMITER_SLOTS && best < 0; k++)
            if (!l->slot[k].used) best = k;
        for (int pass = 0; pass < 2 && best < 0; pass++)
            for (int k = 0; k < RCON_LIMITER_SLOTS; k++) {
                const struct rcon_slot *s = &l->slot[k];
                if (pass == 0 && s->blocked_until > now_ms) continue;
                if (best < 0 || s->last_ms < l->slot[best].last_ms) best = k;
            }
        i = best;
        memset(&l->slot[i], 0, sizeof l->slot[i]);
        memcpy(l->slot[i].key, key, 16);
        l->slot[i].used = true;
    }
    struct rcon_slot *s = &l->slot[i];
    if (s->blocked_until && now_ms >= s->blocked_until) { /* block over: backoff goes on */
        s->blocked_until = 0;
        s->fails = RCON_FREE_TRIES;
    }
    s->fails++;
    s->last_ms = now_ms;
    if (s->fails >= RCON_BLOCK_AFTER) {
        s->blocked_until = now_ms + RCON_BLOCK_MS;
    } else if (s->fails >= RCON_FREE_TRIES) {
        int shift = s->fails - RCON_FREE_TRIES;
        int64_t wait = shift >= 16 ? RCON_BACKOFF_MAX : (int64_t)RCON_BACKOFF_MS << shift;
        s->next_ms = now_ms + (wait < RCON_BACKOFF_MAX ? wait : RCON_BACKOFF_MAX);
    }
    return s->fails;
}

void rcon_limiter_ok(struct rcon_limiter *l, const uint8_t key[16])
{
    int i = rcon_find(l, key);
    if (i >= 0) memset(&l->slot[i], 0, sizeof l->slot[i]);
}
