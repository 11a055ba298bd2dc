/*
 * ip_table.c — see ip_table.h. Pure apart from the hash seed (random, set
 * once by the first ip_table_init).
 */
#include "net/ip_table.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* ------------------------------------------------------------- addresses */

bool limits_key_from_sockaddr(const struct sockaddr *sa, ip_key *out)
{
    memset(out, 0, sizeof *out);
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        out->b[10] = out->b[11] = 0xff;
        memcpy(out->b + 12, &a->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        memcpy(out->b, &a->sin6_addr, 16);
        return true;
    }
    return false;
}

bool limits_key_from_text(const char *text, ip_key *out)
{
    char ip[64];
    const char *start = text;
    size_t n;
    if (text[0] == '[') { /* [v6]:port */
        const char *close = strchr(text, ']');
        if (!close) return false;
        start = text + 1;
        n = (size_t)(close - start);
    } else {
        /* "ip:port" as conn.addr writes it, IPv6 without brackets included:
         * the port is what follows the last colon. */
        const char *colon = strrchr(text, ':');
        n = colon ? (size_t)(colon - text) : strlen(text);
    }
    if (n == 0 || n >= sizeof ip) return false;
    memcpy(ip, start, n);
    ip[n] = 0;
    memset(out, 0, sizeof *out);
    struct in_addr a4;
    if (inet_pton(AF_INET, ip, &a4) == 1) {
        out->b[10] = out->b[11] = 0xff;
        memcpy(out->b + 12, &a4, 4);
        return true;
    }
    return inet_pton(AF_INET6, ip, out->b) == 1;
}

bool limits_key_is_loopback(const ip_key *k)
{
    static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    static const uint8_t v6loop[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    if (memcmp(k->b, v4mapped, 12) == 0) return k->b[12] == 127;
    return memcmp(k->b, v6loop, 16) == 0;
}

/* ------------------------------------------------------------- IP table */

#define IP_BUCKETS 4096

static uint64_t hash_seed;

static size_t key_slot(const ip_table *t, const ip_key *k)
{
    uint64_t a, b;
    memcpy(&a, k->b, 8);
    memcpy(&b, k->b + 8, 8);
    uint64_t h = (a ^ hash_seed) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h = (h ^ b) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (size_t)h & (t->nbuckets - 1);
}

int ip_table_init(ip_table *t, size_t max_entries)
{
    memset(t, 0, sizeof *t);
    if (!hash_seed && getrandom(&hash_seed, sizeof hash_seed, GRND_NONBLOCK) != sizeof hash_seed)
        hash_seed = 0x2545f4914f6cdd1dULL ^ (uint64_t)(uintptr_t)t;
    t->nbuckets = IP_BUCKETS;
    t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
    t->max = max_entries;
    return t->buckets ? 0 : -1;
}

void ip_table_free(ip_table *t)
{
    for (size_t i = 0; t->buckets && i < t->nbuckets; i++) {
        struct ip_entry *e = t->buckets[i];
        while (e) {
            struct ip_entry *next = e->next;
            free(e);
            e = next;
        }
    }
    free(t->buckets);
    memset(t, 0, sizeof *t);
}

struct ip_entry *ip_table_get(ip_table *t, const ip_key *k, bool create)
{
    if (!t->buckets) return NULL;
    size_t s = key_slot(t, k);
    for (struct ip_entry *e = t->buckets[s]; e; e = e->next)
        if (memcmp(e->key.b, k->b, 16) == 0) return e;
    if (!create || t->count >= t->max) return NULL;
    struct ip_entry *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->key = *k;
    e->next = t->buckets[s];
    t->buckets[s] = e;
    t->count++;
    return e;
}

size_t ip_table_sweep(ip_table *t, int64_t now_ms, int64_t throttle_ms)
{
    size_t removed = 0;
    for (size_t i = 0; t->buckets && i < t->nbuckets; i++) {
        struct ip_entry **pp = &t->buckets[i];
        while (*pp) {
            struct ip_entry *e = *pp;
            bool stamp_live = e->last_login_ms != 0 && now_ms - e->last_login_ms < throttle_ms;
            if (e->conns == 0 && !stamp_live) {
                *pp = e->next;
                free(e);
                t->count--;
                removed++;
            } else {
                pp = &e->next;
            }
        }
    }
    return removed;
}

bool limits_throttle_check(struct ip_entry *e, int64_t now_ms, int64_t throttle_ms)
{
    bool ok = e->last_login_ms == 0 || now_ms - e->last_login_ms >= throttle_ms;
    e->last_login_ms = now_ms ? now_ms : 1;
    return ok;
}
