/*
 * server.h — the game port: the listener, the connections it accepted, the
 * per-state packet dispatch, and the table through which the game plugs in
 * (nginx's modules register with the core the same way, rather than the
 * core including them): net/ includes nothing from game/.
 *
 * Who calls whom:
 *
 *   core/loop ──watch──▶ net: accept, read, frame, decode
 *                            │ HANDSHAKE / STATUS / LOGIN: net/login.c, net/status.c
 *                            │ PLAY and the join/leave moments:
 *                            ▼
 *                     struct net_game (registered by game/game.c)
 *
 * Loop hooks (core/loop.h step 2) registered here: NET_HOOK_FLUSH writes
 * the output that is due (conn.h invariant 7: replies before PLAY, kicks
 * and bulk at the end of the pass, the rest once per tick), then
 * NET_HOOK_FREE frees the connections closed during the pass. Modules that
 * queue output in their own hooks use an order below NET_HOOK_FLUSH.
 *
 * Invariants:
 *  1. Only the loop's thread touches the server, its connections and the
 *     handler table.
 *  2. The game's join runs once per connection that reached PLAY and its
 *     leave exactly once after it (conn.in_game), before the connection's
 *     kick is flushed or its socket closed; release runs when the
 *     connection is freed.
 */
#ifndef MC_SERVER_H
#define MC_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/list.h"
#include "core/loop.h"
#include "net/conn.h"
#include "proto/wire.h"

#define TICK_MS 50

#define NET_HOOK_FLUSH 90
#define NET_HOOK_FREE  100

/*
 * Descriptors game connections leave free (server.max_conns is the limit
 * minus this): region files (STORE_REGIONS_OPEN, 256), the admin clients
 * (HTTP and RCON caps; admin/admin.c checks they fit), listeners, the log,
 * epoll, eventfds, the session server's sockets and file writes (64).
 */
#define NET_FD_RESERVE 512

/* What the game provides to net/ (game/game.c fills it in). */
struct net_game {
    /* LOGIN, the identity settled: may this player join? false: refused
     * (c was kicked with the reason). */
    bool (*admit)(conn *c, const char *name, const mc_uuid *uuid);
    /* c entered PLAY (Login Success sent): the join sequence. */
    void (*join)(conn *c, const char *name, size_t name_len, mc_uuid uuid);
    /* One serverbound PLAY packet: id and a reader over its payload. */
    void (*packet)(conn *c, int32_t id, rd_t *r);
    /* c leaves PLAY (kicked, dropped, shut down), invariant 2. */
    void (*leave)(conn *c);
    /* c is being freed: release c->player. */
    void (*release)(conn *c);
    /* Status: players online, and the names of the first `max` (sample). */
    size_t (*online)(void);
    size_t (*sample)(const char **names, mc_uuid *uuids, size_t max);
};

/* Counters for /metrics (game thread only). */
struct server_stats {
    uint64_t bytes_in, bytes_out;     /* socket bytes, as on the wire */
    uint64_t packets_in, packets_out; /* frames decoded / frames queued */
    uint64_t writes;                  /* writev calls on game sockets */
    int batch_ticks;                  /* k: ticks lazy output may wait (conn.h invariant 7) */
    uint64_t entity_update_bytes;     /* per-cell entity batches queued, summed over viewers */
    uint64_t accepted, refused;       /* connections; refused: over the limit */
    uint64_t logins;                  /* connections that entered PLAY */
    uint64_t login_starts;            /* Login Start with a valid name (login attempts) */
    uint64_t status_requests;         /* server list pings answered */
    uint64_t kicks[KR_COUNT];
};

struct server {
    struct server_config cfg;
    loop *loop;
    const struct net_game *game;
    int listen_fd;
    loop_watch listen_watch;
    loop_timer listen_resume; /* accept paused after EMFILE */
    list_node conns;          /* every connection until freed (conn.link) */
    list_node closed;         /* closed this pass (conn.closed_link) */
    list_node flush_list;     /* connections with output pending (conn.flush_link) */
    list_node deadlines;      /* connections with a deadline (conn.deadline_link) */
    list_node big;            /* queues to give back once idle (conn.big_link) */
    uint32_t next_conn_id;
    size_t conn_count; /* open (not closed) connections */
    size_t max_conns;
    int64_t start_ns;
    struct libdeflate_compressor *compressor;
    struct libdeflate_decompressor *decompressor;
    buf_t scratch;     /* inflate target */
    buf_t pkt;         /* packet being built */
    char *status_json; /* cached; NULL = rebuild */
    char *favicon;     /* "data:image/png;base64,..." or NULL */
    struct server_stats stats;
};

extern struct server *srv;

/* Everything but the listener: compressors, limits, login (RSA key, auth
 * thread), the favicon; then the loop hooks. -1 (logged) refuses to start. */
int server_init(struct server *s, loop *l, const struct server_config *cfg);
/* Opens the game port. -1 (logged) when it cannot listen. */
int server_listen(struct server *s);
void server_set_game(const struct net_game *g);
/* Kicks every player with "Server closed", drops the rest, and gives the
 * kicks up to CONN_CLOSING_GRACE to reach the clients. */
void server_shutdown(void);
void server_free(struct server *s);
/* Connections past their deadline (pre-play, closing) are closed; the
 * tick's first phase. Once a second also trims idle output buffers. Both
 * walk only the connections concerned (srv->deadlines, srv->big), so a
 * player in PLAY with little output costs this phase nothing. */
void server_expire(void);
/* "Done (…)! Listening on …" as vanilla prints it. */
void server_log_ready(void);

/* Iterates over the open connections (closed ones are skipped). */
#define server_for_each_conn(c, node)                                                              \
    for (list_node *node = srv->conns.next;                                                        \
         node != &srv->conns && ((c) = list_entry(node, conn, link), true); node = node->next)     \
        if (!(c)->closed)

/* --- the states before PLAY --- */

/* Handshake and login (net/login.c). Startup: the RSA key (online mode),
 * the Velocity secret, the auth thread and its watch. -1 (logged) refuses
 * to start. */
int login_init(const struct server_config *cfg);
void login_free(void);
/* Releases a connection's login state (ciphers, profile, pending check);
 * called when the connection is freed. */
void login_conn_free(conn *c);
/* proxy-protocol: consumes the PROXY header at the start of rbuf. Returns
 * bytes consumed (>0), 0 = need more, -1 = connection dropped. */
long login_proxy_header(conn *c, const uint8_t *p, size_t len);
void handshake_dispatch(conn *c, int32_t id, rd_t *r);
void login_dispatch(conn *c, int32_t id, rd_t *r);
/* Login Success was acknowledged (1.20.2+): the configuration state. */
void configuration_begin(conn *c);
void configuration_dispatch(conn *c, int32_t id, rd_t *r);
/* The identity is settled and the client is ready (Login Success, or the
 * end of the configuration state): PLAY and the game's join. */
void login_enter_play(conn *c);

/* Server list (net/status.c). */
void status_dispatch(conn *c, int32_t id, rd_t *r);
/* Legacy (pre-1.7) server list ping; returns bytes consumed, 0 = need more. */
long legacy_ping(conn *c, const uint8_t *p, size_t len);
/* The cached status JSON is stale (a player joined or left, MOTD changed). */
void status_invalidate(void);
int status_load_favicon(const char *path);

#endif
