/*
 * query_packet.h — Query requests and replies (GameSpy 4 as vanilla speaks
 * it), the challenge tokens and the rate limits: pure apart from the HMAC
 * (no I/O, no globals; tests/unit/test_admin.c and tests/fuzz/fuzz_query.c
 * drive it directly). admin/query.h is the socket.
 *
 * Requests (multi-byte integers big-endian):
 *
 *   FE FD | type u8 | session id: 4 bytes | payload
 *   type 9 handshake:   no payload                            (7 bytes)
 *   type 0 basic stat:  challenge token: int32                (11 bytes)
 *   type 0 full stat:   challenge token: int32, 00 00 00 00   (15 bytes)
 *
 * Replies:
 *
 *   handshake:  09 | session id | token as ASCII decimal, NUL
 *   basic stat: 00 | session id | motd NUL "SMP" NUL map NUL numplayers NUL
 *               maxplayers NUL | hostport: u16 LITTLE-endian | hostip NUL
 *   full stat:  00 | session id | "splitnum" NUL 80 00 |
 *               key NUL value NUL ... (hostname gametype game_id version
 *               plugins map numplayers maxplayers hostport hostip) | NUL |
 *               01 "player_" NUL NUL | name NUL ... | NUL
 *
 * Invariants:
 *  1. Tokens are bound to the sender: token = HMAC-SHA256(secret, address,
 *     port, 30-second epoch) (31 bits), accepted for the current and the
 *     previous epoch: valid 30 to 60 s, no per-sender state to exhaust.
 *  2. Nothing larger than a handshake reply (at most 16 bytes, about twice
 *     the 7-byte request) goes to an address that has not echoed a valid
 *     token, so spoofed requests cannot amplify.
 *  3. Rate-limited per source (IPv4 address or IPv6 /64: a token bucket of
 *     QUERY_BURST, refilled QUERY_RATE per second, in a fixed table) and
 *     globally (QUERY_GLOBAL_RATE replies per second); over the limit,
 *     requests are dropped silently.
 *  4. The full-stat reply is built at most every QUERY_CACHE_MS (vanilla's
 *     5 s) and capped at QUERY_REPLY_MAX bytes (players that do not fit are
 *     left out); only the session id is rewritten per reply.
 *  5. Malformed datagrams (wrong magic, length or type) are dropped.
 */
#ifndef MC_QUERY_PACKET_H
#define MC_QUERY_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define QUERY_EPOCH_MS    30000
#define QUERY_CACHE_MS    5000
#define QUERY_REPLY_MAX   8192
#define QUERY_RATE        10 /* per second per source */
#define QUERY_BURST       20
#define QUERY_GLOBAL_RATE 2000
#define QUERY_SOURCES     1024

/* What a stat reply says (filled by the server when a valid stat request arrives). */
struct query_info {
    const char *motd, *map, *version, *plugins, *hostip;
    int numplayers, maxplayers, hostport;
    const char *const *players; /* names; NULL when hidden */
    size_t nplayers;
};

struct query_state {
    uint8_t secret[32];
    struct query_bucket {
        uint8_t key[16];
        bool used;
        double tokens;
        int64_t last_ms;
    } bucket[QUERY_SOURCES];
    double global_tokens;
    int64_t global_ms;
    uint8_t full[QUERY_REPLY_MAX]; /* cached full stat (session id bytes rewritten) */
    size_t full_len;
    int64_t full_ms; /* when it was built; 0 = never */
};

/* The info for a stat reply; called only for a valid, challenged request. */
typedef void (*query_info_fn)(struct query_info *out, void *arg);

/* Handles one datagram from `from`: writes the reply into out and returns
 * its length, or 0 for no reply (invariants 2, 3, 5). */
size_t query_handle(struct query_state *st, const uint8_t *p, size_t n, const struct sockaddr *from,
                    socklen_t fromlen, int64_t now_ms, query_info_fn info, void *arg, uint8_t *out,
                    size_t cap);
/* The challenge token for a sender in a given epoch (tests). */
int32_t query_token(const struct query_state *st, const struct sockaddr *from, socklen_t fromlen,
                    int64_t epoch);

#endif
