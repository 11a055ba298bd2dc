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

int rcon_limiter_fails(const struct rcon_limiter *l, const uint8_t key[16], int64_t now_ms)
{
    int i = rcon_find(l, key);
    if (i < 0 || now_ms - l->slot[i].last_ms >= RCON_FORGET_MS) return 0;
    return l->slot[i].fails;
}

int64_t rcon_limiter_fail(struct rcon_limiter *l, const uint8_t key[16], int64_t now_ms, int *fails)
{
    int i = rcon_find(l, key);
    if (i < 0) { /* a free slot, else the one whose last failure is oldest */
        for (int k = 0; k < RCON_LIMITER_SLOTS && i < 0; k++)
            if (!l->slot[k].used) i = k;
        if (i < 0) {
            i = 0;
            for (int k = 1; k < RCON_LIMITER_SLOTS; k++)
                if (l->slot[k].last_ms < l->slot[i].last_ms) i = k;
        }
        memset(&l->slot[i], 0, sizeof l->slot[i]);
        memcpy(l->slot[i].key, key, 16);
        l->slot[i].used = true;
    }
    struct rcon_slot *s = &l->slot[i];
    if (s->fails && now_ms - s->last_ms >= RCON_FORGET_MS) s->fails = 0;
    if (s->fails < 1000000) s->fails++;
    s->last_ms = now_ms;
    if (fails) *fails = s->fails;
    if (s->fails <= RCON_FREE_TRIES) return 0;
    int shift = s->fails - RCON_FREE_TRIES - 1;
    int64_t wait = shift >= 16 ? RCON_BACKOFF_MAX : (int64_t)RCON_BACKOFF_MS << shift;
    return wait < RCON_BACKOFF_MAX ? wait : RCON_BACKOFF_MAX;
}
