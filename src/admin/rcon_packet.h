/*
 * rcon_packet.h — the RCON packet codec (Source RCON as vanilla speaks it;
 * pure: no I/O, no globals; tests/unit/test_admin.c and
 * tests/fuzz/fuzz_rcon.c drive it directly). admin/rcon.h is the server.
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
 * Invariants:
 *  1. A decoded packet lies inside the input; its body stops at the first
 *     NUL (so it never holds one).
 *  2. A reply is cut into RCON_CHUNK-byte packets at UTF-8 boundaries; an
 *     empty text is one empty packet (vanilla).
 */
#ifndef MC_RCON_PACKET_H
#define MC_RCON_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

#define RCON_MAX_LENGTH 1456 /* 1460-byte read buffer minus the length field */
#define RCON_CHUNK      4096

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
/* Appends text as type-0 replies of at most RCON_CHUNK bytes each (invariant 2). */
void rcon_encode_response(buf_t *b, int32_t id, const char *text, size_t len);

#endif
