/*
 * limits.h — abuse limits around the connection lifecycle (docs/hardening.md):
 * per-IP connection throttle and concurrent cap, the pre-login connection cap,
 * login deadlines, the Paper-like packet rate limiter, the slow-client
 * timeout, and the debug-* fault injection knobs.
 *
 * Where the hooks sit (net/server.c and net/conn.c unless noted):
 *
 *   accept ──limits_accept()──▶ refused (closed at once, logged, counted)
 *     │ limits_conn_opened()            [per-IP count, pre-login count]
 *     ▼
 *   HANDSHAKE ──next=2──▶ LOGIN ──limits_login_intent()──▶ throttled: kicked
 *     │ (10 s to send Login Start)   │ login.c: limits_login_started()
 *     │                              ▼ (online mode: 30 s from connect to PLAY)
 *     │                            PLAY ──limits_entered_play()  [pre-login -1]
 *     │                              │ play.c: limits_play_packet() per packet
 *     ▼                              ▼
 *   conn_drop ──limits_conn_closed()──▶ counts released, limiter freed
 *
 * Invariants:
 *  1. Every counted connection is released exactly once (conn_drop is the
 *     one exit); `ip_counted` / `prelogin` say what is held.
 *  2. Bounded memory: the per-IP table holds at most LIMITS_IP_MAX entries
 *     (when it is full new addresses are not tracked: the rules fail open
 *     and the global pre-login cap still holds); an entry lives while it has
 *     connections or a throttle timestamp younger than connection-throttle.
 *     The packet limiter is a fixed struct per PLAY connection.
 *  3. Every refusal, kick and first drop is logged with the address and the
 *     setting that caused it; refusals at accept are rate-limited in the log
 *     (one line per second plus a summary of how many more).
 *  4. Loopback addresses (127/8, ::1) skip the per-IP rules when
 *     limits-exempt-loopback=true (the default), as CraftBukkit's throttle
 *     skips 127.0.0.1; the pre-login cap applies to every address.
 *  5. Behind a proxy (forwarding-mode other than none) the per-IP rules are
 *     off: every connection comes from the proxy, which has its own limits.
 *     With proxy-protocol=true they apply to the address in the PROXY header.
 *
 * The pure parts are net/ratelimit.h (rate windows, packet tables) and
 * net/ip_table.h (address keys, the per-IP table, the throttle rule).
 */
#ifndef MC_LIMITS_H
#define MC_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "net/ip_table.h"
#include "net/ratelimit.h"

#define LIMITS_LOGIN_START_MS 10000 /* connect → Login Start (and status → done) */
#define LIMITS_LOGIN_MS       30000 /* online mode, connect → PLAY: vanilla MAX_TICKS_BEFORE_LOGIN */
#define LIMITS_IP_MAX         65536 /* tracked addresses */

struct conn;
struct server_config;

#define LIMITS_OVERRIDES_MAX 8

/* Packet limiter state of one PLAY connection. */
struct play_rate {
    rate_win all;
    rate_win type[LIMITS_OVERRIDES_MAX];
    int64_t drop_logged_ms[LIMITS_OVERRIDES_MAX];
};

/* Embedded in struct conn (net/server.h). */
struct conn_limits {
    ip_key ip;
    bool ip_counted;        /* holds one of its address's connection counts */
    bool prelogin;          /* counted in the pre-login total */
    int64_t out_blocked_ms; /* slow-client timer: output pending, no progress since */
    bool write_shut;        /* CLOSING: the kick is flushed, the write side shut */
    struct play_rate *rate; /* PLAY only; owned */
};

/* Startup (after the config is final) and shutdown. -1 when out of memory. */
int limits_init(const struct server_config *cfg);
void limits_free(void);

/* accept(): may this new connection from ss be kept? false: the caller
 * closes it (the refusal is logged and counted here). */
bool limits_accept(const struct sockaddr *sa);
/* The connection was created: take its counts. */
void limits_conn_opened(struct conn *c, const struct sockaddr *sa);
/* proxy-protocol: c->addr now names the real client; the per-IP cap is
 * checked against it. false: c was dropped. */
bool limits_conn_readdressed(struct conn *c);
/* Handshake asked for login (c is in LOGIN): the connection throttle.
 * false: c was kicked. */
bool limits_login_intent(struct conn *c);
/* Login Start accepted: in online mode the deadline becomes connect + 30 s
 * (encryption and the session server); otherwise the 10 s stay. */
void limits_login_started(struct conn *c);
/* c entered PLAY: it leaves the pre-login count, gets a packet limiter. */
void limits_entered_play(struct conn *c);
/* Releases everything c holds (called from conn_drop). */
void limits_conn_closed(struct conn *c);
/* A play packet arrived: true = handle it; false = dropped (a DROP override)
 * or c was kicked (over packet-limit-max-rate, or over its size cap). */
bool limits_play_packet(struct conn *c, int32_t id, size_t len);
/* Once per tick: sweeps the IP table, logs refusal summaries, slow clients
 * (their output blocked longer than slow-client-timeout are dropped). */
void limits_tick(int64_t now_ms);
/* Output progress for the slow-client timer: blocked = the socket is full
 * with output still queued; progressed = write() took bytes. */
void limits_output_blocked(struct conn *c);
void limits_output_progressed(struct conn *c);

/* Counters for /metrics and tests (game thread only). */
struct limits_stats {
    uint64_t refused_prelogin, refused_per_ip, throttled, rate_kicks, rate_drops;
    uint64_t slow_clients, moved_too_quickly;
    size_t prelogin, tracked_ips;
};
extern struct limits_stats limits_stats;

/* --- fault injection (debug-* settings; tests only) --- */
/* Logs the debug-* settings in force and installs the debug-disk-latency-ms
 * file I/O wrapper (core/fileio.h fio_set_latency) when set (before any
 * worker starts). */
void limits_debug_install(const struct server_config *cfg);
/* debug-tick-stall-ms: called at the start of each tick; sleeps through the
 * stall when this tick is due one. */
void limits_debug_tick(uint64_t tick);

#endif
