/*
 * mgmt_handshake.h — the management protocol's WebSocket upgrade request:
 * who may connect (vanilla's AuthenticationHandler) and the answer (RFC
 * 6455 section 4.2). Pure (no I/O, no globals): admin/mgmt_ws.c reads the
 * head, tests/unit/test_mgmt.c and tests/fuzz/fuzz_mgmt.c call it directly.
 * The head's syntax is checked by admin/http_parse.h first.
 *
 * Decision, in order (the first that applies):
 *
 *   head not HTTP/1.1 as http_parse_head takes it -> its 4xx
 *   "Authorization: Bearer <s>"                    -> s == secret ? on : 401 "Invalid API key"
 *       (* mcserv: an Origin header that is not allowed -> 401 "Origin Not Allowed")
 *   "Sec-WebSocket-Protocol: minecraft-v1,<s>"     -> Origin not allowed -> 401 "Origin Not
 * Allowed" s == secret ? on (answer the subprotocol) : 401 "Invalid API key" neither -> 401
 * "Missing API key" then: not GET -> 405; target other than "/" (a query allowed) -> 404; no
 * "Upgrade: websocket" or no "upgrade" in Connection -> 400; Sec-WebSocket-Version other than 13 ->
 * 426; a key that is not 16 bytes of base64 -> 400; else 101 with Sec-WebSocket-Accept.
 *
 * Invariants:
 *  1. The secret is compared in constant time (CRYPTO_memcmp over equal
 *     lengths; a length difference is not short-circuited on content).
 *  2. Allowed origins are the comma-separated entries of
 *     management-server-allowed-origins, compared exactly after trimming
 *     spaces; an empty list allows none (vanilla).
 *  3. Header values copied out are NUL-terminated within their arrays and
 *     never read past the head.
 */
#ifndef MC_MGMT_HANDSHAKE_H
#define MC_MGMT_HANDSHAKE_H

#include <stdbool.h>
#include <stddef.h>

#define MGMT_SUBPROTOCOL "minecraft-v1"

struct mgmt_upgrade {
    int status;           /* 101, or the HTTP status answered */
    const char *reason;   /* why not 101 (401: vanilla's texts); static */
    bool subprotocol;     /* the secret came in Sec-WebSocket-Protocol */
    bool origin_mismatch; /* refused for the Origin (logged as such) */
    char accept[32];      /* Sec-WebSocket-Accept (101) */
    char origin[128];     /* the Origin header, cut, for the log */
};

/* Decides on a complete request head p[0..len) (up to the empty line). */
void mgmt_upgrade_check(const char *p, size_t len, const char *secret, const char *origins,
                        struct mgmt_upgrade *u);
/* The first header `name` (case-insensitive) of the head, trimmed, into
 * out[cap]; false if absent (out is then ""). Longer values are cut. */
bool mgmt_header(const char *p, size_t len, const char *name, char *out, size_t cap);
/* True if the comma-separated list `list` has `token` (case-insensitive). */
bool mgmt_token_in(const char *list, const char *token);
/* The response's head and body for u into out[cap]: its length (0 if it
 * does not fit). A 401 carries vanilla's {"error":"Unauthorized",...}. */
size_t mgmt_upgrade_response(const struct mgmt_upgrade *u, char *out, size_t cap);

#endif
