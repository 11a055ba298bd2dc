/*
 * ip_table.h — addresses as keys and the per-address table the abuse
 * limits count in (pure apart from a random hash seed; no I/O;
 * tests/unit/test_limits.c drives it directly). net/limits.h uses it for
 * max-connections-per-ip and connection-throttle.
 *
 * Invariants:
 *  1. An IPv4 address and its IPv4-mapped IPv6 form are one key.
 *  2. Bounded: at most `max` entries (ip_table_get fails beyond: the caller
 *     fails open); a fixed number of buckets, hashed with a random seed so
 *     that a peer cannot choose colliding addresses.
 *  3. An entry lives while it has connections or a login stamp younger
 *     than the throttle (ip_table_sweep removes the rest).
 */
#ifndef MC_IP_TABLE_H
#define MC_IP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* An address as 16 bytes (IPv4 as ::ffff:a.b.c.d). */
typedef struct ip_key {
    uint8_t b[16];
} ip_key;

/* From a socket address; false if it is neither IPv4 nor IPv6. */
bool limits_key_from_sockaddr(const struct sockaddr *sa, ip_key *out);
/* From "ip:port" (IPv6 unbracketed, as conn.addr is written), "[v6]:port", or a
 * bare IPv4 address. */
bool limits_key_from_text(const char *text, ip_key *out);
bool limits_key_is_loopback(const ip_key *k);

struct ip_entry {
    ip_key key;
    uint32_t conns;        /* open connections */
    int64_t last_login_ms; /* connection-throttle: the last login attempt; 0 none */
    struct ip_entry *next;
};

typedef struct ip_table {
    struct ip_entry **buckets;
    size_t nbuckets; /* power of two */
    size_t count, max;
} ip_table;

int ip_table_init(ip_table *t, size_t max_entries);
void ip_table_free(ip_table *t);
/* The entry for k; created (zeroed) when absent and create is set. NULL when
 * absent, or when full / out of memory. */
struct ip_entry *ip_table_get(ip_table *t, const ip_key *k, bool create);
/* Removes entries with no connections whose login stamp is older than
 * throttle_ms (or absent). Returns how many were removed. */
size_t ip_table_sweep(ip_table *t, int64_t now_ms, int64_t throttle_ms);

/* Login throttle decision (CraftBukkit's rule): refused when the previous
 * attempt from the same address was less than throttle_ms ago; every
 * attempt, refused or not, becomes the new stamp. */
bool limits_throttle_check(struct ip_entry *e, int64_t now_ms, int64_t throttle_ms);

#endif
