/*
 * server.c — the game port: setup, the listener and accept, connection
 * deadlines, shutdown, and the loop hooks that flush output and free closed
 * connections. See server.h for who calls whom and conn.h for a
 * connection's lifecycle.
 */
#include "net/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libdeflate.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "data/version.h"
#include "net/iothreads.h"
#include "proto/frame.h"

struct server *srv;

#define LISTEN_BACKLOG   1024
#define ACCEPTS_PER_PASS 64 /* then the pass reads: see accept_all */
#define ACCEPT_PAUSE_MS  100

static log_kind k_accept_paused = LOG_KIND;

/* ------------------------------------------------------------------ accept */

/* Up to ACCEPTS_PER_PASS connections; the loop then serves what is
 * readable before the next batch, so a new connection that has not sent its
 * handshake yet is read before a later one can evict it (net/limits.h). */
static void accept_all(void)
{
    for (int i = 0; i < ACCEPTS_PER_PASS; i++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(srv->listen_fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* Out of descriptors: stop accepting for a moment instead of spinning. */
                log_limited(&k_accept_paused, LOG_WARN,
                            "accept: %s; pausing new connections for %d ms", strerror(errno),
                            ACCEPT_PAUSE_MS);
                loop_watch_del(srv->loop, &srv->listen_watch);
                loop_timer_after(srv->loop, &srv->listen_resume, ACCEPT_PAUSE_MS);
                return;
            }
            log_limited(&k_accept_paused, LOG_WARN, "accept: %s", strerror(errno));
            return;
        }
        /* The per-IP cap, the pre-login pool and the descriptor limit: may
         * evict an older connection to make room; refusals are logged. */
        if (!limits_accept((struct sockaddr *)&ss)) {
            close(fd);
            srv->stats.refused++;
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        conn *c = conn_open(fd, (struct sockaddr *)&ss);
        if (!c) {
            close(fd);
            continue;
        }
        srv->stats.accepted++;
        log_debug("[%s] connected", c->addr);
        /* A real client sends its handshake with its first bytes, usually
         * before we accept: read it now, so that it is past the handshake
         * (and no longer evictable, net/limits.h) before the next accept. */
        c->watch.on_event(&c->watch, EPOLLIN);
    }
}

static void listen_event(loop_watch *w, uint32_t events)
{
    (void)w, (void)events;
    accept_all();
}

static void listen_resume(loop_timer *t)
{
    (void)t;
    loop_watch_add(srv->loop, &srv->listen_watch, srv->listen_fd, EPOLLIN);
}

/* ---------------------------------------------------------------- deadlines */

static const char slow_login_json[] = "{\"translate\":\"multiplayer.disconnect.slow_login\","
                                      "\"fallback\":\"Took too long to log in\"}";

void server_expire(void)
{
    int64_t now = srv->loop->now_ms;
    static int64_t next_trim_ms;
    bool trim = now >= next_trim_ms;
    conn_tick(); /* this pass's flush is the tick's (conn.h invariant 7) */
    list_node *n, *tmp;
    if (trim) {
        next_trim_ms = now + 1000;
        list_for_each_safe (n, tmp, &srv->big) {
            conn *c = list_entry(n, conn, big_link);
            if (!c->closed) conn_trim(c);
        }
    }
    /* Closing a connection below leaves it on the list until it is freed
     * (conn.h invariant 2), so the walk is safe. */
    list_for_each_safe (n, tmp, &srv->deadlines) {
        conn *c = list_entry(n, conn, deadline_link);
        if (c->closed || now < c->deadline_ms) continue;
        /* handshake-timeout, 10 s to Login Start, 30 s to PLAY (net/limits.h);
         * 1 s to flush a kick. */
        if (c->state == CS_CLOSING)
            conn_drop(c, NULL);
        else if (c->state == CS_LOGIN)
            conn_kick_reason(c, KR_TIMEOUT, slow_login_json,
                             "Took too long to log in (timed out before completing login)");
        else if (c->state == CS_HANDSHAKE)
            conn_drop(c, limits_handshake_expired(c));
        else
            conn_drop(c, "timed out before completing login");
    }
}

/* -------------------------------------------------------------- loop hooks */

static void flush_hook(void *arg)
{
    (void)arg;
    conn_flush_pass();
}

static void read_hook(void *arg)
{
    (void)arg;
    conn_read_pass();
}

static void free_hook(void *arg)
{
    (void)arg;
    conn_free_closed();
}

/* ------------------------------------------------------------------ setup */

static int open_listener(const struct server_config *cfg)
{
    const char *ip = cfg->server_ip[0] ? cfg->server_ip : "0.0.0.0";
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    socklen_t sl;
    int family;
    struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, ip, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)cfg->server_port);
        family = AF_INET;
        sl = sizeof *a4;
    } else if (inet_pton(AF_INET6, ip, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)cfg->server_port);
        family = AF_INET6;
        sl = sizeof *a6;
    } else {
        log_error("server-ip: '%s' is not an IPv4 or IPv6 address", ip);
        return -1;
    }
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        log_error("socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
        log_error("cannot listen on %s:%d: %s (is another server running?)", ip, cfg->server_port,
                  strerror(errno));
        close(fd);
        return -1;
    }
    if (listen(fd, LISTEN_BACKLOG) < 0) {
        log_error("listen: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* The descriptor limit raised to the hard limit; connections may use all
 * but NET_FD_RESERVE of it. */
static size_t connection_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    getrlimit(RLIMIT_NOFILE, &rl);
    return rl.rlim_cur > NET_FD_RESERVE * 2 ? (size_t)rl.rlim_cur - NET_FD_RESERVE : 16;
}

int server_init(struct server *s, loop *l, const struct server_config *cfg)
{
    memset(s, 0, sizeof *s);
    srv = s;
    s->cfg = *cfg;
    s->loop = l;
    s->listen_fd = -1;
    s->start_ns = clock_ns();
    list_init(&s->conns);
    list_init(&s->deadlines);
    list_init(&s->big);
    list_init(&s->closed);
    list_init(&s->flush_list);
    loop_watch_init(&s->listen_watch, listen_event);
    loop_timer_init(&s->listen_resume, listen_resume);
    buf_init(&s->scratch, FRAME_MAX_PACKET);
    buf_init(&s->pkt, FRAME_MAX_PACKET);
    s->compressor = libdeflate_alloc_compressor(4);
    s->decompressor = libdeflate_alloc_decompressor();
    if (!s->compressor || !s->decompressor || limits_init(cfg) < 0) {
        log_error("out of memory at startup");
        return -1;
    }
    s->max_conns = connection_limit();
    limits_check_pool(s->max_conns);
    if (login_init(&s->cfg) < 0) return -1;
    int io = iothreads_resolve(cfg->io_threads);
    if (iothreads_start(io) < 0) return -1;
    if (io > 1) log_info("Socket reads and writes on %d threads (io-threads)", io);
    iothreads_set_fanout_min((size_t)cfg->debug_io_fanout_min);
    if (loop_hook_add(l, NET_HOOK_FLUSH, flush_hook, NULL) < 0 ||
        loop_hook_add(l, NET_HOOK_FREE, free_hook, NULL) < 0 ||
        loop_after_hook_add(l, read_hook, NULL) < 0) {
        log_error("event loop: no room for the connection hooks");
        return -1;
    }
    if (status_load_favicon("server-icon.png") < 0) {
        /* status_load_favicon logged why; the server list shows no icon. */
    }
    return 0;
}

int server_listen(struct server *s)
{
    s->listen_fd = open_listener(&s->cfg);
    if (s->listen_fd < 0) return -1;
    int rc = loop_watch_add(s->loop, &s->listen_watch, s->listen_fd, EPOLLIN);
    if (rc < 0) {
        log_error("epoll_ctl: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

void server_set_game(const struct net_game *g)
{
    srv->game = g;
}

void server_log_ready(void)
{
    char where[96];
    snprintf(where, sizeof where, "%s:%d", srv->cfg.server_ip[0] ? srv->cfg.server_ip : "*",
             srv->cfg.server_port);
    /* Vanilla's ready line, which panels (Pterodactyl's eggs) wait for,
     * then mcserv's detail on a line of its own. */
    double ms = (double)(clock_ns() - srv->start_ns) / 1e6;
    log_info("Done (%.3fs)! For help, type \"help\"", ms / 1000.0);
    log_info("Listening on %s (Minecraft %s, protocol %d); started in %.1f ms", where,
             MC_VERSION_NAME, MC_PROTOCOL_VERSION, ms);
}

void server_shutdown(void)
{
    log_info("Stopping server"); /* vanilla's line (`stop` already said "Stopping the server") */
    if (srv->listen_fd >= 0) loop_watch_del(srv->loop, &srv->listen_watch);
    loop_timer_stop(srv->loop, &srv->listen_resume);
    conn *c;
    server_for_each_conn (c, node) {
        if (c->state == CS_PLAY)
            conn_kick(c, "Server closed");
        else if (c->state != CS_CLOSING)
            conn_drop(c, NULL);
    }
    /* Give kicked clients up to a second to receive their message. */
    int64_t until = clock_ms() + CONN_CLOSING_GRACE;
    while (srv->conn_count && clock_ms() < until) {
        conn_flush_all();
        server_for_each_conn (c, node) {
            if (conn_pending(c) == 0)
                conn_drop(c, NULL);
            else
                conn_flush_later(c);
        }
        conn_free_closed();
        if (srv->conn_count) usleep(5000);
    }
    server_for_each_conn (c, node) conn_drop(c, NULL);
    conn_free_closed();
}

void server_free(struct server *s)
{
    conn_free_closed();
    iothreads_stop();
    shframe_pool_free();
    login_free();
    if (s->listen_fd >= 0) close(s->listen_fd);
    if (s->compressor) libdeflate_free_compressor(s->compressor);
    if (s->decompressor) libdeflate_free_decompressor(s->decompressor);
    buf_free(&s->scratch);
    buf_free(&s->pkt);
    limits_free();
    free(s->status_json);
    free(s->favicon);
}
