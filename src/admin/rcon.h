/*
 * rcon.h — RCON (Source RCON as vanilla speaks it; ops-conventions §2.3):
 * a TCP remote console on rcon.port, bound to server-ip (every interface
 * when it is empty, as vanilla). Off unless enable-rcon=true; refuses to
 * start with an empty rcon.password, as vanilla:
 * "No rcon password set in server.properties, rcon disabled!".
 *
 * Packet (every int32 little-endian, unlike the game protocol):
 *
 *   offset  size  field
 *   0       4     length      bytes after this field = 4 + 4 + n + 2 (10..RCON_MAX_LENGTH)
 *   4       4     request id  echoed in the reply; -1 in a failed login's reply
 *   8       4     type        3 login, 2 command (client) / login reply (server),
 *                             0 command output (server)
 *   12      n     payload     password, command line or output (UTF-8)
 *   12+n    2     00 00       terminator and empty string
 *
 * Client state:
 *
 *   CONNECTED --login ok--> AUTHED --command--> output (0..n packets) --> AUTHED
 *      | wrong password, a command first, RCON_AUTH_MS without a login,
 *      | or the address in backoff/blocked: reply id -1, then closed
 *   AUTHED --RCON_IDLE_MS without a packet--> closed
 *
 * Invariants:
 *  1. At most RCON_MAX_CLIENTS connections; a request is at most
 *     RCON_MAX_LENGTH + 4 bytes (vanilla reads 1460-byte buffers); anything
 *     longer or shorter than the format allows closes the connection.
 *  2. The password is compared in constant time (SHA-256 of both sides,
 *     CRYPTO_memcmp), never logged.
 *  3. Wrong passwords are counted per address (IPv6 per /64) in a fixed
 *     table: after RCON_FREE_TRIES, each try waits an exponential backoff
 *     (1 s doubling, at most 60 s; a try inside it fails unchecked); after
 *     RCON_BLOCK_AFTER the address is blocked for RCON_BLOCK_MS (its
 *     connections are closed at accept). A good login clears the count.
 *  4. Commands run through the shared dispatcher at level 4 as "Rcon"
 *     (cmd_run_capture); output is split into RCON_CHUNK-byte replies at
 *     UTF-8 boundaries, an empty output is one empty reply (vanilla).
 *     Output per client is capped (RCON_OUT_MAX).
 */
#ifndef MC_RCON_H
#define MC_RCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

#define RCON_MAX_LENGTH    1456 /* 1460-byte read buffer minus the length field */
#define RCON_CHUNK         4096
#define RCON_MAX_CLIENTS   4
#define RCON_AUTH_MS       5000
#define RCON_IDLE_MS       600000
#define RCON_OUT_MAX       (4u << 20)
#define RCON_CAPTURE_MAX   (1u << 20)
#define RCON_FREE_TRIES    3
#define RCON_BACKOFF_MS    1000
#define RCON_BACKOFF_MAX   60000
#define RCON_BLOCK_AFTER   10
#define RCON_BLOCK_MS      3600000
#define RCON_LIMITER_SLOTS 256

enum { RCON_RESPONSE = 0, RCON_COMMAND = 2, RCON_AUTH_RESPONSE = 2, RCON_AUTH = 3 };

struct rcon_packet {
    int32_t id, type;
    const char *body; /* points into the input; up to the first NUL */
    size_t body_len;
};

/* Decodes one packet at p[0..len): bytes consumed (>0), 0 = need more,
 * -1 = malformed (a length outside 10..RCON_MAX_LENGTH). */
long rcon_decode(const uint8_t *p, size_t len, struct rcon_packet *out);
/* Appends one packet. */
void rcon_encode(buf_t *b, int32_t id, int32_t type, const char *body, size_t len);
/* Appends text as type-0 replies of at most RCON_CHUNK bytes each. */
void rcon_encode_response(buf_t *b, int32_t id, const char *text, size_t len);

/* Wrong-password accounting (invariant 3); pure, time passed in. */
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

#ifndef RCON_CORE_ONLY
struct server_config;
/* 0 when off or started; -1 (logged) when it cannot start. */
int rcon_start(const struct server_config *cfg);
void rcon_stop(void);
#endif

#endif
