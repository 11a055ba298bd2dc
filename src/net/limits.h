/*
 * limits.h — abuse limits around the connection lifecycle (docs/hardening.md):
 * per-IP connection throttle and concurrent cap, the pre-login pool (its
 * cap, eviction, the handshake deadline), login deadlines, the Paper-like
 * packet rate limiter, the slow-client timeout, and the debug-* fault
 * injection knobs.
 *
 * Where the hooks sit (net/server.c and net/conn.c unless noted):
 *
 *   accept ──limits_accept()──▶ refused (closed at once, logged, counted)
 *     │   pool or descriptors full: the oldest evictable pre-login
 *     │   connection is closed to make room (below)
 *     │ limits_conn_opened()   [per-IP count, pre-login count, on `fresh`]
 *     ▼ handshake-timeout (5 s) to send a complete handshake
 *   HANDSHAKE ──limits_handshake_done()──▶ [on `waiting`; 10 s from connect]
 *     │      LOGIN: the connection throttle ──▶ throttled: kicked
 *     │      (10 s to send Login Start)   │ login.c: limits_login_started()
 *     │                                   ▼ (online mode: 30 s from connect to PLAY)
 *     │                                 PLAY ──limits_entered_play()  [pre-login -1]
 *     │                                   │ play.c: limits_play_packet() per packet
 *     ▼                                   ▼
 *   conn_drop ──limits_conn_closed()──▶ counts released, limiter freed
 *
 * The pre-login pool. Every connection not yet in PLAY counts against
 * max-prelogin-connections; all connections against the descriptor limit
 * (srv->max_conns). When either is full a new connection evicts, oldest
 * first:
 *   1. `fresh`: a connection that has not completed its handshake (ordered
 *      by accept time). A real client sends its handshake with its first
 *      bytes, and net/server.c reads a new connection at once, so one that
 *      has not is slow or idle by choice; the newest are evicted last.
 *   2. `waiting`: handshake done, not waiting on a session check (status,
 *      or login before PLAY), oldest handshake first; a login is sent a
 *      Disconnect saying why ("The server has too many connections logging
 *      in…") unless descriptors are short (then closed at once).
 * Only when neither has a candidate is the newcomer refused. Why the oldest
 * and not the slowest in bytes per second: ordering by age is O(1) (two
 * lists, no scan), a slow sender cannot improve its place by trickling
 * bytes, and the age of a connection without a handshake is exactly what
 * the handshake-timeout bounds.
 *
 * Invariants:
 *  1. Every counted connection is released exactly once (conn_drop is the
 *     one exit); `ip_counted` / `prelogin` say what is held; `pool` says
 *     which eviction list (if any) holds the connection.
 *  2. Bounded memory: the per-IP table holds at most LIMITS_IP_MAX entries
 *     (when it is full new addresses are not tracked: the rules fail open
 *     and the global pre-login cap still holds); an entry lives while it has
 *     connections or a throttle timestamp younger than connection-throttle.
 *     The packet limiter is a fixed struct per PLAY connection.
 *  3. Every refusal, eviction, kick and first drop is logged with the
 *     address and the setting that caused it, through a rate-limited log
 *     kind per reason (core/log.h invariant 5), and counted.
 *  4. Loopback addresses (127/8, ::1) skip the per-IP rules when
 *     limits-exempt-loopback=true (the default), as CraftBukkit's throttle
 *     skips 127.0.0.1; the pre-login pool applies to every address.
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

#include "core/list.h"
#include "net/ip_table.h"
#include "net/ratelimit.h"

#define LIMITS_LOGIN_START_MS 10000 /* connect → Login Start (and status → done) */
#define LIMITS_WAITING_SCAN   64    /* `waiting` entries looked at per eviction */
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

enum limits_pool { POOL_NONE, POOL_FRESH, POOL_WAITING };

/* Embedded in struct conn (net/server.h). */
struct conn_limits {
    ip_key ip;
    bool ip_counted;        /* holds one of its address's connection counts */
    bool prelogin;          /* counted in the pre-login total */
    uint8_t pool;           /* enum limits_pool: the eviction list holding it */
    list_node pool_link;    /* on that list (limits.c), oldest first */
    int64_t out_blocked_ms; /* slow-client timer: output pending, no progress since */
    list_node blocked_link; /* on limits.c's blocked list ⇔ out_blocked_ms != 0, oldest first */
    bool write_shut;        /* CLOSING: the kick is flushed, the write side shut */
    struct play_rate *rate; /* PLAY only; owned */
};

/* Startup (after the config is final) and shutdown. -1 when out of memory. */
int limits_init(const struct server_config *cfg);
void limits_free(void);

/* After server_init knows the descriptor limit: the pool's size is logged
 * when the limit is the tighter bound. */
void limits_check_pool(size_t max_conns);
/* accept(): may this new connection from sa be kept? With the pool or the
 * descriptors full, an evictable connection is closed to make room (see
 * above). false: the caller closes it (the refusal is logged and counted
 * here). */
bool limits_accept(const struct sockaddr *sa);
/* The connection was created: take its counts. */
void limits_conn_opened(struct conn *c, const struct sockaddr *sa);
/* proxy-protocol: c->addr now names the real client; the per-IP cap is
 * checked against it. false: c was dropped. */
bool limits_conn_readdressed(struct conn *c);
/* The handshake was read (c left HANDSHAKE: STATUS, LOGIN, or CLOSING when
 * it was refused): c moves to the `waiting` list, its deadline to 10 s from
 * connect, and a login meets the connection throttle (kicked when over). */
void limits_handshake_done(struct conn *c);
/* A connection in HANDSHAKE past its deadline: why it is closed. */
const char *limits_handshake_expired(struct conn *c);
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
/* Once per tick: once a second sweeps the IP table, writes the log kinds'
 * summaries (log_kinds_flush, for every module), drops slow clients (output
 * blocked longer than slow-client-timeout). */
void limits_tick(int64_t now_ms);
/* Output progress for the slow-client timer: blocked = the socket is full
 * with output still queued; progressed = write() took bytes. */
void limits_output_blocked(struct conn *c);
void limits_output_progressed(struct conn *c);

/* Counters for /metrics and tests (game thread only). */
struct limits_stats {
    uint64_t refused_prelogin, refused_per_ip, refused_fds, throttled, rate_kicks, rate_drops;
    uint64_t evicted_fresh, evicted_waiting; /* closed to make room in the pool */
    uint64_t handshake_timeouts;             /* closed by handshake-timeout */
    uint64_t slow_clients, moved_too_quickly;
    size_t prelogin, fresh, tracked_ips; /* fresh: pre-login without a handshake */
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
