/*
 * admin.h — the operations surface around the game: the HTTP endpoint
 * (/metrics, /api/status, /healthz, the dashboard; admin/http.h), RCON
 * (admin/rcon.h) and Query (admin/query.h). docs/operations.md is the
 * operator's guide.
 *
 * Everything here runs on the game thread inside the one epoll loop
 * (core/loop.h watches and a before-sleep hook): sockets are non-blocking, every
 * client, buffer, rate and wait is bounded, and nothing waits for a slow
 * peer. A listener that cannot be opened is logged and left off; the game
 * keeps running.
 *
 * Invariants:
 *  1. Admin objects (clients) are freed only in admin_pass (a pass hook),
 *     never inside an event callback: epoll may hold an event for them in
 *     the same pass (core/loop.h invariant 2).
 *  2. Counters below are game-thread only.
 *  3. No address can hold a channel (HTTP, RCON): each has a cap in all
 *     and a cap per address; when a new client would pass either, the
 *     client of that scope that has waited longest on its peer (the module
 *     says how long, admin_peers.idle_since) is closed to make room, and
 *     only when none may be closed is the newcomer refused. A new client
 *     is read at once after accept, so a real one (which sends its request
 *     with its first bytes) is served before anything can evict it.
 *  4. Every refusal, eviction and deadline close is counted per channel
 *     (struct admin_channel_stats, exported in /metrics) and logged through
 *     the channel's rate-limited log kinds (core/log.h invariant 5).
 */
#ifndef MC_ADMIN_H
#define MC_ADMIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/addr.h"
#include "core/buf.h"
#include "core/list.h"
#include "core/log.h"
#include "net/server.h"

struct server_config;
struct loop;

/* Admin timeouts run before net/ flushes (core/loop.h step 2). */
#define ADMIN_HOOK           10
/* Connections the kernel queues for an admin listener: room for a burst
 * of new clients while eviction works through it (invariant 3). */
#define ADMIN_LISTEN_BACKLOG 1024

/* Why a new client was refused (invariant 3). */
enum admin_refusal { ADMIN_REFUSED_FULL, ADMIN_REFUSED_PER_ADDRESS, ADMIN_REFUSED_COUNT };
extern const char *const admin_refusal_names[ADMIN_REFUSED_COUNT];

/* One channel's connection accounting (invariant 4). */
struct admin_channel_stats {
    uint64_t refused[ADMIN_REFUSED_COUNT]; /* new clients closed at once */
    uint64_t evicted;                      /* older clients closed to make room */
    uint64_t timed_out;                    /* closed by a deadline (incomplete request, idle) */
};

struct admin_stats {
    uint64_t http_requests, http_errors; /* errors: 4xx/5xx answers */
    uint64_t rcon_logins, rcon_auth_failures, rcon_commands;
    uint64_t query_requests, query_dropped; /* dropped: bad, unchallenged, over rate */
    struct admin_channel_stats http, rcon, mgmt;
};
extern struct admin_stats admin_stats;

/* After server_init: opens what server.properties enables. */
void admin_start(struct loop *l, const struct server_config *cfg);
/* Before server_free: closes every listener and client. */
void admin_stop(void);

/* --- helpers shared by http.c, rcon.c, query.c --- */

/* A non-blocking listening socket (SOCK_STREAM or SOCK_DGRAM) on ip:port;
 * ip "" = 0.0.0.0. -1 (logged, naming `what`) on failure. */
int admin_listen(const char *what, const char *ip, int port, int type);
/*
 * What the loop and the client lists see of an HTTP or RCON client: its
 * socket and watch, its address and its output. It is the first member of
 * the module's calloc'ed client struct (so the watch callback and the free
 * find the client from it), on the module's live list while open, then on
 * its closed list until the module's pass frees it (invariant 1).
 */
typedef struct admin_peer {
    loop_watch w; /* first: the event callback casts back */
    int fd;
    char addr[ADDR_TEXT_MAX]; /* "ip:port", for the log */
    char ip[ADDR_IP_MAX];     /* the address alone, for the per-address cap */
    int64_t opened_ms;
    buf_t out;
    bool closed;    /* off the loop, waiting on the closed list */
    list_node link; /* on admin_peers.live, then on .closed */
} admin_peer;

typedef struct admin_peers {
    list_node live, closed;
    size_t count;     /* on live */
    const char *what; /* "HTTP", "RCON": for the log */
    size_t max, per_address;
    /* How long p has waited on its peer, as the time it began (the eviction
     * order: the smallest goes first); 0 = busy, never evicted. */
    int64_t (*idle_since)(const admin_peer *p, int64_t now_ms);
    struct admin_channel_stats *stats;
    log_kind k_refused, k_evicted;
} admin_peers;

/* A static admin_peers: both lists empty (core/list.h invariant 1). */
#define ADMIN_PEERS_INIT(set, what_, max_, per_address_, idle_since_, stats_)                      \
    {                                                                                              \
        .live = {&(set).live, &(set).live}, .closed = {&(set).closed, &(set).closed},              \
        .what = (what_), .max = (max_), .per_address = (per_address_),                             \
        .idle_since = (idle_since_), .stats = (stats_)                                             \
    }

/*
 * The next client waiting on a listener, admitted (invariant 3): an older
 * client may be evicted to make room; a refused one is closed, counted and
 * logged, and the next is tried. The fd, its peer in ss, its texts in addr
 * and ip; -1 when none waits (a failure is logged as "<what>: accept: ...").
 */
int admin_accept_admitted(int listen_fd, admin_peers *set, struct sockaddr_storage *ss,
                          char addr[ADDR_TEXT_MAX], char ip[ADDR_IP_MAX]);
/* A new client of `size` bytes (zeroed; it starts with its admin_peer) for
 * an accepted fd, on the loop (watching `events`) and the live list; NULL
 * (fd closed) when out of memory or the watch cannot be added. */
admin_peer *admin_peer_new(admin_peers *set, size_t size, int fd, const char *addr, const char *ip,
                           size_t out_max, void (*on_event)(loop_watch *w, uint32_t events),
                           uint32_t events);
/* Off the loop, socket closed, moved to the closed list; again: nothing. */
void admin_peer_close(admin_peers *set, admin_peer *p);
/* The first open client, or NULL. */
admin_peer *admin_peer_first(admin_peers *set);
/* Frees every closed client (a pass hook; invariant 1). */
void admin_peers_free_closed(admin_peers *set);

/* Appends v for /metrics and /api/status: a whole number below 1e15 with
 * no fraction ("%.0f"), anything else in fraction_fmt (a printf format of
 * one double, e.g. "%.3f"), NaN and infinities as 0. */
void admin_number(buf_t *b, double v, const char *fraction_fmt);
/* JSON for /api/status and admin/perf_api.c: `"key":` (the caller writes
 * the value), and `"key":v` (admin_number, "%.3f"), then a comma if asked. */
void admin_json_key(buf_t *b, const char *key);
void admin_json_kv(buf_t *b, const char *key, double v, bool comma);

/* True for 127.0.0.0/8, ::1 and "localhost". */
bool admin_is_loopback(const char *ip);

/* Per pass (pass hook): timeouts and deferred frees of every module. */
void http_pass(int64_t now_ms);
void rcon_pass(int64_t now_ms);
void status_api_pass(int64_t now_ms);

#endif
