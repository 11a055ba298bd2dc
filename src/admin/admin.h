/*
 * admin.h — the operations surface around the game: the HTTP endpoint
 * (/metrics, /api/status, /healthz, the dashboard; admin/http.h), RCON
 * (admin/rcon.h) and Query (admin/query.h). docs/operations.md is the
 * operator's guide.
 *
 * Everything here runs on the game thread inside the one epoll loop
 * (net/server.h watches and a pass hook): sockets are non-blocking, every
 * client, buffer, rate and wait is bounded, and nothing waits for a slow
 * peer. A listener that cannot be opened is logged and left off; the game
 * keeps running.
 *
 * Invariants:
 *  1. Admin objects (clients) are freed only in admin_pass (a pass hook),
 *     never inside an event callback: epoll may hold an event for them in
 *     the same pass (server.h's watch rule).
 *  2. Counters below are game-thread only.
 */
#ifndef MC_ADMIN_H
#define MC_ADMIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server_config;

struct admin_stats {
    uint64_t http_requests, http_errors; /* errors: 4xx/5xx answers */
    uint64_t http_refused;               /* over the client limit */
    uint64_t rcon_logins, rcon_auth_failures, rcon_commands, rcon_refused;
    uint64_t query_requests, query_dropped; /* dropped: bad, unchallenged, over rate */
};
extern struct admin_stats admin_stats;

/* After server_init: opens what server.properties enables. */
void admin_start(const struct server_config *cfg);
/* Before server_free: closes every listener and client. */
void admin_stop(void);

/* --- helpers shared by http.c, rcon.c, query.c --- */

/* A non-blocking listening socket (SOCK_STREAM or SOCK_DGRAM) on ip:port;
 * ip "" = 0.0.0.0. -1 (logged, naming `what`) on failure. */
int admin_listen(const char *what, const char *ip, int port, int type);
/* True for 127.0.0.0/8, ::1 and "localhost". */
bool admin_is_loopback(const char *ip);

/* Per pass (pass hook): timeouts and deferred frees of every module. */
void http_pass(int64_t now_ms);
void rcon_pass(int64_t now_ms);
void status_api_pass(int64_t now_ms);

#endif
