/*
 * server.c — listener, event loop, tick scheduling and connection I/O.
 * See server.h for the loop pass and the connection lifecycle.
 *
 * Also here, for operations (docs/operations.md): the traffic and kick
 * counters behind /metrics, `rate-limit` (packets per second, kicked as
 * vanilla's RateKickingConnection does), `player-idle-timeout`, and the
 * generic descriptor watches and pass hooks the admin modules use.
 *
 * epoll data: &tag_* for the fixed descriptors, a conn pointer for
 * connections, and (server_watch pointer | 1) for watches (a watch is at
 * least pointer-aligned, so bit 0 is free; conns are never odd).
 */
#include "net/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/tickstat.h"
#include "core/workers.h"
#include "data/packet_ids.h"
#include "data/version.h"
#include "proto/crypto.h"
#include "proto/frame.h"
#include "world/store.h"

struct server *srv;

/* epoll tags for the fixed descriptors; connections use their conn pointer. */
static char tag_listen, tag_signal, tag_stdin, tag_workers, tag_auth;

#define MAX_EVENTS     256
#define WATCH_BIT      ((uintptr_t)1)
#define LISTEN_BACKLOG 1024
#define FD_RESERVE     32 /* descriptors kept free for logs, worlds, admin */

/* ---------------------------------------------------------------- counters */

const char *const kick_reason_names[KR_COUNT] = {
    "kicked",  "server_full", "not_whitelisted", "banned",    "ip_banned",      "duplicate_login",
    "spam",    "idle",        "packet_rate",     "timeout",   "invalid_packet", "auth",
    "version", "shutdown",    "other",           "throttled", "slow_client"};

/* Kicks that do not say why (conn_kick): their text, by prefix. */
static enum kick_reason classify_kick(const char *text)
{
    static const struct {
        const char *prefix;
        enum kick_reason r;
    } table[] = {
        {"Kicked for spamming", KR_SPAM},
        {"You logged in from another location", KR_DUPLICATE_LOGIN},
        {"Server closed", KR_SHUTDOWN},
        {"Timed out", KR_TIMEOUT},
        {"The server is full", KR_SERVER_FULL},
        {"Outdated", KR_VERSION},
        {"Failed to verify", KR_AUTH},
        {"Authentication servers", KR_AUTH},
        {"This server requires you to connect with Velocity", KR_AUTH},
        {"Unable to verify player details", KR_AUTH},
        {"If you wish to use IP forwarding", KR_AUTH},
        {"This server does not accept BungeeCord", KR_AUTH},
        {"Illegal characters", KR_INVALID_PACKET},
        {"Invalid", KR_INVALID_PACKET},
        {"Malformed", KR_INVALID_PACKET},
        {"Unknown packet", KR_INVALID_PACKET},
        {"Unexpected", KR_INVALID_PACKET},
        {"Protocol error", KR_INVALID_PACKET},
        {"Internal Exception", KR_INVALID_PACKET},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strncmp(text, table[i].prefix, strlen(table[i].prefix)) == 0) return table[i].r;
    return KR_OTHER;
}

/* Frames in already-framed bytes (conn_send_raw): walks the length prefixes. */
static uint64_t count_frames(const uint8_t *p, size_t n)
{
    uint64_t frames = 0;
    size_t off = 0;
    while (off < n) {
        uint32_t len = 0;
        int shift = 0;
        size_t i = off;
        while (i < n && shift <= 28) {
            len |= (uint32_t)(p[i] & 0x7f) << shift;
            shift += 7;
            if (!(p[i++] & 0x80)) break;
        }
        if (i >= n && (p[i - 1] & 0x80)) break;
        frames++;
        if ((size_t)len > n - i) break;
        off = i + len;
    }
    return frames ? frames : 1;
}

/* ------------------------------------------------------------ output path */

static void flush_list_add(conn *c)
{
    if (c->on_flush_list || c->closed) return;
    c->on_flush_list = true;
    c->next_flush = srv->flush_list;
    srv->flush_list = c;
}

buf_t *pkt_begin(int32_t id)
{
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, id);
    return &srv->pkt;
}

static void output_overflow(conn *c)
{
    log_warn("[%s] output over %u MiB (client not reading); dropping connection", c->addr,
             CONN_OUTPUT_LIMIT >> 20);
    srv->stats.kicks[KR_SLOW_CLIENT]++;
    limits_stats.slow_clients++;
    c->wbuf.failed = 0;
    conn_drop(c, NULL);
}

void conn_send_pkt(conn *c)
{
    if (c->closed) return;
    if (srv->pkt.failed) {
        log_error("[%s] packet too large to build; dropping connection", c->addr);
        conn_drop(c, NULL);
        return;
    }
    int threshold = c->compressed ? srv->cfg.compression_threshold : -1;
    size_t from = c->wbuf.len;
    if (frame_encode(&c->wbuf, srv->pkt.data, srv->pkt.len, threshold, srv->compressor) < 0) {
        output_overflow(c);
        return;
    }
    /* Encrypt in place, only the bytes just appended (the stream's order). */
    if (c->enc) mc_cfb8_update(c->enc, c->wbuf.data + from, c->wbuf.len - from);
    srv->stats.packets_out++;
    flush_list_add(c);
}

const buf_t *pkt_frame_shared(void)
{
    static buf_t framed;
    if (!framed.limit) buf_init(&framed, FRAME_MAX_PACKET + 16);
    buf_reset(&framed);
    if (srv->pkt.failed || frame_encode(&framed, srv->pkt.data, srv->pkt.len,
                                        srv->cfg.compression_threshold, srv->compressor) < 0)
        return NULL;
    return &framed;
}

void conn_send_raw(conn *c, const void *p, size_t n)
{
    if (c->closed) return;
    size_t from = c->wbuf.len;
    buf_append(&c->wbuf, p, n);
    if (c->wbuf.failed) {
        output_overflow(c);
        return;
    }
    /* `p` may be a cached frame shared by many players: it stays plaintext;
     * only this connection's copy in wbuf is encrypted. */
    if (c->enc) mc_cfb8_update(c->enc, c->wbuf.data + from, n);
    srv->stats.packets_out += count_frames(p, n);
    flush_list_add(c);
}

static void epoll_mod(conn *c, uint32_t events)
{
    struct epoll_event ev = {.events = events, .data.ptr = c};
    epoll_ctl(srv->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Writes as much of c's output as the socket takes. Returns -1 if c closed. */
static int conn_flush(conn *c)
{
    while (c->wbuf.len > 0) {
        ssize_t n = write(c->fd, c->wbuf.data, c->wbuf.len);
        if (n > 0) {
            buf_consume(&c->wbuf, (size_t)n);
            srv->stats.bytes_out += (uint64_t)n;
            limits_output_progressed(c);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            limits_output_blocked(c);
            if (!c->want_write) {
                c->want_write = true;
                epoll_mod(c, EPOLLIN | EPOLLOUT);
            }
            return 0;
        }
        conn_drop(c, n < 0 ? strerror(errno) : "write returned 0");
        return -1;
    }
    if (c->want_write) {
        c->want_write = false;
        epoll_mod(c, EPOLLIN);
    }
    buf_shrink_if_idle(&c->wbuf, 4u << 10); /* idle connections keep at most 4 KiB */
    if (c->state == CS_CLOSING && !c->lim.write_shut) {
        /* The kick is out: half-close, then read and discard until the client
         * closes or CONN_CLOSING_GRACE ends. Closing with input unread sends
         * a reset, which can destroy the kick before a flooding client reads it. */
        c->lim.write_shut = true;
        shutdown(c->fd, SHUT_WR);
    }
    return 0;
}

static void flush_all(void)
{
    conn *c = srv->flush_list;
    srv->flush_list = NULL;
    while (c) {
        conn *next = c->next_flush;
        c->on_flush_list = false;
        if (!c->closed) conn_flush(c);
        c = next;
    }
}

/* -------------------------------------------------------- closing, freeing */

static void players_remove(conn *c)
{
    int i = c->players_index;
    if (i < 0) return;
    conn *last = srv->players[srv->player_count - 1];
    srv->players[i] = last;
    last->players_index = i;
    srv->player_count--;
    c->players_index = -1;
}

int players_add(conn *c)
{
    if (srv->player_count == srv->player_cap) {
        size_t ncap = srv->player_cap ? srv->player_cap * 2 : 64;
        conn **np = realloc(srv->players, ncap * sizeof *np);
        if (!np) return -1;
        srv->players = np;
        srv->player_cap = ncap;
    }
    c->players_index = (int)srv->player_count;
    srv->players[srv->player_count++] = c;
    c->last_action_ms = srv->now_ms;
    c->rate_window_ms = srv->now_ms;
    srv->stats.logins++;
    limits_entered_play(c);
    status_invalidate();
    return 0;
}

/* Takes a player out of the game (once): others are told, chunks released. */
static void leave_game(conn *c)
{
    if (c->players_index < 0) return;
    players_remove(c);
    play_leave(c);
    status_invalidate();
}

void conn_drop(conn *c, const char *why)
{
    if (c->closed) return;
    if (why) log_info("[%s] connection closed: %s", c->addr, why);
    leave_game(c);
    limits_conn_closed(c);
    epoll_ctl(srv->epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    c->closed = true;
    /* Unlink from the live list; freed at the end of the loop pass. */
    if (c->prev)
        c->prev->next = c->next;
    else
        srv->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    c->next_free = srv->free_list;
    srv->free_list = c;
    srv->conn_count--;
}

static void kick_json(conn *c, const char *json, const char *log_text);

void conn_kick(conn *c, const char *reason)
{
    conn_kick_reason(c, KR_AUTO, NULL, reason);
}

void conn_kick_json(conn *c, const char *json, const char *log_text)
{
    conn_kick_reason(c, KR_AUTO, json, log_text);
}

void conn_kick_reason(conn *c, enum kick_reason why, const char *json, const char *log_text)
{
    if (c->closed || c->state == CS_CLOSING) return;
    if (json) {
        if (c->state == CS_LOGIN || c->state == CS_PLAY)
            srv->stats.kicks[why == KR_AUTO ? classify_kick(log_text) : why]++;
        kick_json(c, json, log_text);
        return;
    }
    const char *reason = log_text;
    buf_t json_text;
    buf_init(&json_text, 4096);
    buf_lit(&json_text, "{\"text\":");
    json_append_string(&json_text, reason, strlen(reason));
    buf_lit(&json_text, "}");
    buf_append(&json_text, "", 1);
    conn_kick_reason(
        c, why, json_text.failed ? "{\"text\":\"Disconnected\"}" : (const char *)json_text.data,
        reason);
    buf_free(&json_text);
}

static void kick_json(conn *c, const char *json, const char *log_text)
{
    /* Status and legacy pings end through here too: not worth an info line. */
    log_msg(c->state == CS_LOGIN || c->state == CS_PLAY ? LOG_INFO : LOG_DEBUG,
            "[%s] %s%sdisconnected: %s", c->addr, c->player ? c->player->name : "",
            c->player ? " " : "", log_text);
    if (c->state == CS_LOGIN || c->state == CS_PLAY) {
        buf_t *b =
            pkt_begin(c->state == CS_LOGIN ? PKT_LOGIN_CB_DISCONNECT : PKT_PLAY_CB_KICK_DISCONNECT);
        wr_string(b, json, strlen(json));
        conn_send_pkt(c);
    }
    if (c->closed) return;
    leave_game(c);
    c->state = CS_CLOSING;
    c->deadline_ms = srv->now_ms + CONN_CLOSING_GRACE;
    c->rbuf.len = 0;
    /* From now on only output matters: stop watching for input. */
    c->want_write = true;
    epoll_mod(c, EPOLLOUT);
    flush_list_add(c);
}

static void free_closed(void)
{
    conn *c = srv->free_list;
    srv->free_list = NULL;
    while (c) {
        conn *next = c->next_free;
        login_conn_free(c);
        buf_free(&c->rbuf);
        buf_free(&c->wbuf);
        if (c->player) {
            free(c->player->loaded);
            free(c->player);
        }
        free(c);
        c = next;
    }
}

/* ------------------------------------------------------------- input path */

static size_t max_frame_for(enum conn_state st)
{
    switch (st) {
    /* BungeeCord forwarding puts the client's IP, UUID and properties in the
     * handshake's host string: allow it room only when that mode is on. */
    case CS_HANDSHAKE: return srv->cfg.forwarding_mode == FWD_BUNGEECORD ? (32u << 10) + 64 : 1024;
    case CS_STATUS: return 64;
    /* Velocity's forwarding answer carries the profile's properties. */
    case CS_LOGIN: return srv->cfg.forwarding_mode == FWD_VELOCITY ? (32u << 10) + 64 : 4096;
    default: return FRAME_MAX_LENGTH;
    }
}

static const char exceeded_rate_json[] = "{\"translate\":\"disconnect.exceeded_packet_rate\","
                                         "\"fallback\":\"Kicked for exceeding packet rate limit\"}";

/* rate-limit: vanilla's RateKickingConnection. Each second the average is
 * 1/4 of that second's packets plus 3/4 of the previous average; above the
 * limit the connection is kicked. false if c was kicked. */
static bool rate_ok(conn *c)
{
    if (srv->now_ms - c->rate_window_ms >= 1000) {
        c->rate_avg = 0.25f * (float)c->rate_count + 0.75f * c->rate_avg;
        c->rate_count = 0;
        c->rate_window_ms = srv->now_ms;
        if (c->rate_avg > (float)srv->cfg.rate_limit) {
            log_warn("[%s] %s sent %.0f packets per second (rate-limit=%d)", c->addr,
                     c->player ? c->player->name : "?", (double)c->rate_avg, srv->cfg.rate_limit);
            conn_kick_reason(c, KR_PACKET_RATE, exceeded_rate_json,
                             "Kicked for exceeding packet rate limit");
            return false;
        }
    }
    c->rate_count++;
    return true;
}

/* Packets that count as a player doing something (player-idle-timeout);
 * movement counts when the position or the look changed (idle_check). */
static bool is_action(int32_t id)
{
    switch (id) {
    case PKT_PLAY_SB_CHAT_COMMAND:
    case PKT_PLAY_SB_CHAT_MESSAGE:
    case PKT_PLAY_SB_CLIENT_COMMAND:
    case PKT_PLAY_SB_WINDOW_CLICK:
    case PKT_PLAY_SB_USE_ENTITY:
    case PKT_PLAY_SB_BLOCK_DIG:
    case PKT_PLAY_SB_ENTITY_ACTION:
    case PKT_PLAY_SB_HELD_ITEM_SLOT:
    case PKT_PLAY_SB_SET_CREATIVE_SLOT:
    case PKT_PLAY_SB_ARM_ANIMATION:
    case PKT_PLAY_SB_BLOCK_PLACE:
    case PKT_PLAY_SB_USE_ITEM:
    case PKT_PLAY_SB_PICK_ITEM: return true;
    default: return false;
    }
}

static void dispatch(conn *c, const uint8_t *pkt, size_t len)
{
    rd_t r = rd_make(pkt, len);
    int32_t id = rd_varint(&r);
    if (r.err) {
        conn_drop(c, "malformed packet id");
        return;
    }
    srv->stats.packets_in++;
    if (c->state == CS_PLAY) {
        if (srv->cfg.rate_limit > 0 && !rate_ok(c)) return;
        if (is_action(id)) c->last_action_ms = srv->now_ms;
    }
    switch (c->state) {
    case CS_HANDSHAKE:
        handshake_dispatch(c, id, &r);
        if (c->state == CS_LOGIN) limits_login_intent(c); /* connection-throttle */
        break;
    case CS_STATUS: status_dispatch(c, id, &r); break;
    case CS_LOGIN: login_dispatch(c, id, &r); break;
    case CS_PLAY: play_dispatch(c, id, &r); break;
    case CS_CLOSING: break;
    }
}

/*
 * Decodes and dispatches the frames in data[0..len) (input of c, decrypted);
 * returns the bytes consumed. What is left is a partial frame (or input after
 * a close) for the caller to keep.
 */
static size_t conn_parse(conn *c, uint8_t *data, size_t len)
{
    size_t off = 0;
    if (srv->cfg.proxy_protocol && !c->proxy_done) {
        /* The load balancer's PROXY header comes before any Minecraft byte. */
        long n = login_proxy_header(c, data, len);
        if (n <= 0) return 0; /* need more, or dropped */
        c->proxy_done = true;
        if (!limits_conn_readdressed(c)) return 0; /* the per-IP cap, on the real address */
        off = (size_t)n;
    }
    while (!c->closed && c->state != CS_CLOSING && off < len) {
        const uint8_t *in = data + off;
        size_t avail = len - off;
        if (c->state == CS_HANDSHAKE && in[0] == 0xFE) {
            long n = legacy_ping(c, in, avail);
            if (n == 0) break;
            off += (size_t)n;
            continue;
        }
        frame_limits lim = {max_frame_for(c->state), FRAME_MAX_PACKET};
        if (c->state == CS_PLAY) lim.max_packet = FRAME_MAX_LENGTH; /* serverbound */
        const uint8_t *pkt;
        size_t plen;
        long n = frame_decode(in, avail, &lim, c->compressed ? srv->cfg.compression_threshold : -1,
                              srv->decompressor, &srv->scratch, &pkt, &plen);
        if (n == 0) break;
        if (n < 0) {
            char why[128];
            snprintf(why, sizeof why, "%s (state %d)", frame_strerror((int)n), c->state);
            if (c->state == CS_PLAY)
                conn_kick_reason(c, KR_INVALID_PACKET, NULL, why);
            else
                conn_drop(c, why);
            break;
        }
        off += (size_t)n;
        dispatch(c, pkt, plen);
        if (c->decrypt_rest) {
            /* Encryption began with that packet: what follows is ciphertext
             * (unless the packet also ended the connection's input). */
            c->decrypt_rest = false;
            if (!c->closed && c->state != CS_CLOSING && off < len)
                mc_cfb8_update(c->dec, data + off, len - off);
        }
    }
    return off;
}

/*
 * Reads what the socket has (at most CONN_READ_BUDGET per pass). While a
 * connection has no partial frame pending, input goes into one shared
 * buffer and is parsed there, so idle connections own no input memory; only
 * an incomplete frame is copied into the connection's own rbuf.
 */
static void conn_read(conn *c)
{
    static uint8_t shared[16u << 10];
    size_t budget = CONN_READ_BUDGET;
    while (budget > 0 && !c->closed) {
        bool direct = c->rbuf.len == 0;
        size_t want = sizeof shared;
        if (want > budget) want = budget;
        uint8_t *dst = direct ? shared : buf_reserve(&c->rbuf, want);
        if (!dst) {
            conn_drop(c, "input buffer limit reached");
            return;
        }
        ssize_t n = read(c->fd, dst, want);
        if (n > 0) {
            if (c->dec) mc_cfb8_update(c->dec, dst, (size_t)n);
            srv->stats.bytes_in += (uint64_t)n;
            budget -= (size_t)n;
            if (direct) {
                size_t used = conn_parse(c, dst, (size_t)n);
                if (!c->closed && c->state != CS_CLOSING && used < (size_t)n) {
                    buf_append(&c->rbuf, dst + used, (size_t)n - used);
                    if (c->rbuf.failed) {
                        conn_drop(c, "input buffer limit reached");
                        return;
                    }
                }
            } else {
                c->rbuf.len += (size_t)n;
                size_t used = conn_parse(c, c->rbuf.data, c->rbuf.len);
                if (!c->closed) {
                    buf_consume(&c->rbuf, used);
                    buf_shrink_if_idle(&c->rbuf, 0);
                }
            }
            if (c->state == CS_CLOSING) return; /* reading is over; the kick is being flushed */
            continue;
        }
        if (n == 0) {
            if (c->player)
                log_info("%s lost connection: disconnected", c->player->name);
            else
                log_debug("[%s] client closed the connection", c->addr);
            conn_drop(c, NULL);
            return;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        conn_drop(c, strerror(errno));
        return;
    }
}

/* ------------------------------------------------------------------ accept */

static void accept_all(void)
{
    for (int i = 0; i < 256; i++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(srv->listen_fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* Out of descriptors: stop accepting for a moment instead of spinning. */
                log_warn("accept: %s; pausing new connections for 100 ms", strerror(errno));
                epoll_ctl(srv->epfd, EPOLL_CTL_DEL, srv->listen_fd, NULL);
                srv->listen_paused = true;
                srv->listen_resume_ms = srv->now_ms + 100;
                return;
            }
            log_warn("accept: %s", strerror(errno));
            return;
        }
        char host[INET6_ADDRSTRLEN] = "?";
        int port = 0;
        if (ss.ss_family == AF_INET) {
            struct sockaddr_in *a = (struct sockaddr_in *)&ss;
            inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
            port = ntohs(a->sin_port);
        } else if (ss.ss_family == AF_INET6) {
            struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
            inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
            port = ntohs(a->sin6_port);
        }
        if (srv->conn_count >= srv->max_conns) {
            log_warn("refusing %s:%d: %zu connections open (the limit)", host, port,
                     srv->conn_count);
            close(fd);
            srv->stats.refused++;
            continue;
        }
        if (!limits_accept((struct sockaddr *)&ss)) { /* pre-login and per-IP caps (logged) */
            close(fd);
            srv->stats.refused++;
            continue;
        }
        conn *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        c->fd = fd;
        c->id = ++srv->next_conn_id;
        c->players_index = -1;
        snprintf(c->addr, sizeof c->addr, "%s:%d", host, port);
        c->connected_ms = srv->now_ms;
        c->deadline_ms = srv->now_ms + CONN_PREPLAY_TIMEOUT;
        buf_init(&c->rbuf, FRAME_MAX_LENGTH + 16);
        buf_init(&c->wbuf, CONN_OUTPUT_LIMIT);
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
            log_warn("epoll_ctl: %s", strerror(errno));
            close(fd);
            free(c);
            continue;
        }
        c->next = srv->conns;
        if (srv->conns) srv->conns->prev = c;
        srv->conns = c;
        srv->conn_count++;
        srv->stats.accepted++;
        limits_conn_opened(c, (struct sockaddr *)&ss);
        log_debug("[%s] connected", c->addr);
    }
}

/* ------------------------------------------------------------------- tick */

static const char idling_json[] = "{\"translate\":\"multiplayer.disconnect.idling\","
                                  "\"fallback\":\"You have been idle for too long!\"}";

/* player-idle-timeout (minutes; vanilla): once a second, a player whose
 * position or look changed is active; one idle longer than the timeout is
 * kicked. */
static void idle_check(void)
{
    if (srv->cfg.player_idle_timeout <= 0 || srv->now_ms < srv->next_idle_check_ms) return;
    srv->next_idle_check_ms = srv->now_ms + 1000;
    int64_t limit = (int64_t)srv->cfg.player_idle_timeout * 60000;
    for (size_t i = 0; i < srv->player_count; i++) {
        conn *c = srv->players[i];
        player *p = c->player;
        float now[5] = {(float)p->x, (float)p->y, (float)p->z, p->yaw, p->pitch};
        if (memcmp(now, c->idle_pos, sizeof now) != 0) {
            memcpy(c->idle_pos, now, sizeof now);
            c->last_action_ms = srv->now_ms;
        }
    }
    for (size_t i = srv->player_count; i-- > 0;) {
        conn *c = srv->players[i];
        if (srv->now_ms - c->last_action_ms > limit)
            conn_kick_reason(c, KR_IDLE, idling_json, "You have been idle for too long!");
    }
}

static const char slow_login_json[] = "{\"translate\":\"multiplayer.disconnect.slow_login\","
                                      "\"fallback\":\"Took too long to log in\"}";

static void tick(void)
{
    tickstat_begin();
    srv->tick_count++;
    limits_debug_tick(srv->tick_count); /* debug-tick-stall-ms (tests only) */
    conn *next;
    for (conn *c = srv->conns; c; c = next) {
        next = c->next;
        if (c->deadline_ms && srv->now_ms >= c->deadline_ms) {
            /* 10 s to Login Start, 30 s to PLAY (net/limits.h); 1 s to flush a kick. */
            if (c->state == CS_CLOSING)
                conn_drop(c, NULL);
            else if (c->state == CS_LOGIN)
                conn_kick_reason(c, KR_TIMEOUT, slow_login_json,
                                 "Took too long to log in (timed out before completing login)");
            else
                conn_drop(c, "timed out before completing login");
            continue;
        }
        if (c->state == CS_PLAY) play_tick(c);
    }
    play_tick_end();
    idle_check();
    limits_tick(srv->now_ms); /* IP table sweep, refusal summaries, slow clients */
    world_flush_edits(&srv->world);
    if (srv->tick_count % 20 == 0) world_sweep(&srv->world, srv->now_ms);
    store_tick(srv->now_ms); /* autosave, queued chunk saves (world/store.h) */
    tickstat_end();
}

/* ---------------------------------------------------------- watches, hooks */

static void (*pass_hooks[SERVER_PASS_HOOKS])(int64_t now_ms);
static int npass_hooks;

int server_watch_add(int fd, uint32_t events, server_watch *w)
{
    struct epoll_event ev = {.events = events};
    ev.data.u64 = (uint64_t)((uintptr_t)w | WATCH_BIT);
    return epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

int server_watch_mod(int fd, uint32_t events, server_watch *w)
{
    struct epoll_event ev = {.events = events};
    ev.data.u64 = (uint64_t)((uintptr_t)w | WATCH_BIT);
    return epoll_ctl(srv->epfd, EPOLL_CTL_MOD, fd, &ev) < 0 ? -errno : 0;
}

void server_watch_del(int fd)
{
    epoll_ctl(srv->epfd, EPOLL_CTL_DEL, fd, NULL);
}

int server_add_pass_hook(void (*fn)(int64_t now_ms))
{
    if (npass_hooks >= SERVER_PASS_HOOKS) return -1;
    pass_hooks[npass_hooks++] = fn;
    return 0;
}

/* ---------------------------------------------------------------- console */

static void console_read(void)
{
    for (;;) {
        ssize_t n = read(STDIN_FILENO, srv->console_line + srv->console_len,
                         sizeof srv->console_line - 1 - srv->console_len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            /* EOF: keep running (a server started with </dev/null or by a service). */
            epoll_ctl(srv->epfd, EPOLL_CTL_DEL, STDIN_FILENO, NULL);
            srv->stdin_open = false;
            return;
        }
        srv->console_len += (size_t)n;
        char *start = srv->console_line;
        char *nl;
        while ((nl = memchr(start, '\n', srv->console_len - (size_t)(start - srv->console_line)))) {
            *nl = 0;
            if (nl > start && nl[-1] == '\r') nl[-1] = 0;
            console_execute(start);
            start = nl + 1;
        }
        size_t rest = srv->console_len - (size_t)(start - srv->console_line);
        if (rest == sizeof srv->console_line - 1) {
            log_warn("console line longer than %zu bytes ignored", sizeof srv->console_line - 1);
            rest = 0;
        }
        memmove(srv->console_line, start, rest);
        srv->console_len = rest;
    }
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

int server_init(struct server *s, const struct server_config *cfg)
{
    memset(s, 0, sizeof *s);
    srv = s;
    s->cfg = *cfg;
    s->epfd = s->listen_fd = s->signal_fd = -1;
    s->start_ns = clock_ns();
    s->now_ms = clock_ms();
    s->next_entity_id = 1;
    buf_init(&s->scratch, FRAME_MAX_PACKET);
    buf_init(&s->pkt, FRAME_MAX_PACKET);
    s->compressor = libdeflate_alloc_compressor(4);
    s->decompressor = libdeflate_alloc_decompressor();
    if (!s->compressor || !s->decompressor || limits_init(cfg) < 0) {
        log_error("out of memory at startup");
        return -1;
    }
    limits_debug_install(cfg); /* debug-* fault injection; before any worker does I/O */
    char err[512];
    if (world_init(&s->world, cfg, err, sizeof err) < 0) {
        log_error("%s", err);
        return -1;
    }

    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    getrlimit(RLIMIT_NOFILE, &rl);
    s->max_conns = rl.rlim_cur > FD_RESERVE * 2 ? (size_t)rl.rlim_cur - FD_RESERVE : 16;

    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (s->epfd < 0) {
        log_error("epoll_create1: %s", strerror(errno));
        return -1;
    }
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    signal(SIGPIPE, SIG_IGN);
    s->signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &tag_signal};
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->signal_fd, &ev);

    int fl = fcntl(STDIN_FILENO, F_GETFL);
    if (fl >= 0 && fcntl(STDIN_FILENO, F_SETFL, fl | O_NONBLOCK) == 0) {
        ev.data.ptr = &tag_stdin;
        if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, STDIN_FILENO, &ev) == 0) s->stdin_open = true;
    }

    int nworkers = cfg->worker_threads;
    if (nworkers == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        nworkers = cpus > 1 ? (int)cpus - 1 : 1;
    }
    int wfd = workers_start(nworkers, 6);
    if (wfd < 0) {
        log_error("cannot start %d worker threads", nworkers);
        return -1;
    }
    ev.data.ptr = &tag_workers;
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, wfd, &ev);
    play_init();

    int afd = -1;
    if (login_init(&s->cfg, &afd) < 0) return -1;
    if (afd >= 0) {
        ev.data.ptr = &tag_auth;
        epoll_ctl(s->epfd, EPOLL_CTL_ADD, afd, &ev);
    }

    s->listen_fd = open_listener(cfg);
    if (s->listen_fd < 0) return -1;
    ev.data.ptr = &tag_listen;
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->listen_fd, &ev);

    if (status_load_favicon("server-icon.png") < 0) {
        /* status_load_favicon logged why; the server list shows no icon. */
    }
    return 0;
}

void server_request_stop(struct server *s)
{
    s->running = false;
}

static void shutdown_all(void)
{
    log_info("Stopping the server");
    conn *next;
    for (conn *c = srv->conns; c; c = next) {
        next = c->next;
        if (c->state == CS_PLAY)
            conn_kick(c, "Server closed");
        else if (c->state != CS_CLOSING)
            conn_drop(c, NULL);
    }
    /* Give kicked clients up to a second to receive their message. */
    int64_t until = clock_ms() + CONN_CLOSING_GRACE;
    while (srv->conns && clock_ms() < until) {
        flush_all();
        for (conn *c = srv->conns; c; c = next) {
            next = c->next;
            if (c->wbuf.len == 0)
                conn_drop(c, NULL);
            else if (!c->on_flush_list)
                flush_list_add(c);
        }
        free_closed();
        if (srv->conns) usleep(5000);
    }
    for (conn *c = srv->conns; c; c = next) {
        next = c->next;
        conn_drop(c, NULL);
    }
    free_closed();
}

/*
 * At most one tick per loop pass, so input and output are served between
 * ticks. As vanilla's MinecraftServer.runServer: a schedule more than 2 s
 * behind skips the missed ticks (no catch-up burst) with "Can't keep up!";
 * a smaller lag is caught up, one tick per pass, without waiting in
 * epoll. Unlike vanilla the skip is not tied to the warning, which is
 * logged at most once per 15 s.
 */
static void schedule_tick(struct server *s)
{
    int64_t behind = s->now_ms - s->next_tick_ms;
    if (behind > 2000) {
        int64_t skipped = behind / TICK_MS;
        s->next_tick_ms += skipped * TICK_MS;
        if (s->next_tick_ms - s->last_overload_warn_ms >= 15000) {
            log_warn("Can't keep up! Is the server overloaded? Running %lldms or %lld ticks behind",
                     (long long)behind, (long long)skipped);
            s->last_overload_warn_ms = s->next_tick_ms;
        }
    }
    if (s->now_ms >= s->next_tick_ms) {
        s->next_tick_ms += TICK_MS;
        tick();
    }
}

int server_run(struct server *s)
{
    struct epoll_event events[MAX_EVENTS];
    s->running = true;
    s->now_ms = clock_ms();
    s->next_tick_ms = s->now_ms + TICK_MS;
    char where[96];
    snprintf(where, sizeof where, "%s:%d", s->cfg.server_ip[0] ? s->cfg.server_ip : "*",
             s->cfg.server_port);
    log_info("Done (%.1f ms)! Listening on %s (protocol %d). Type \"help\" for commands.",
             (double)(clock_ns() - s->start_ns) / 1e6, where, MC_PROTOCOL_VERSION);

    while (s->running) {
        s->now_ms = clock_ms();
        int timeout = (int)(s->next_tick_ms - s->now_ms);
        if (timeout < 0) timeout = 0;
        int n = epoll_wait(s->epfd, events, MAX_EVENTS, timeout);
        if (n < 0 && errno != EINTR) {
            log_error("epoll_wait: %s", strerror(errno));
            break;
        }
        s->now_ms = clock_ms();
        for (int i = 0; i < n; i++) {
            void *tag = events[i].data.ptr;
            if (tag == &tag_listen) {
                accept_all();
            } else if (tag == &tag_signal) {
                struct signalfd_siginfo si;
                while (read(s->signal_fd, &si, sizeof si) == (ssize_t)sizeof si) {
                    log_info("received signal %u", si.ssi_signo);
                    s->running = false;
                }
            } else if (tag == &tag_stdin) {
                console_read();
            } else if (tag == &tag_workers) {
                workers_drain();
            } else if (tag == &tag_auth) {
                login_auth_drain();
            } else if ((uintptr_t)tag & WATCH_BIT) {
                server_watch *w = (server_watch *)((uintptr_t)tag & ~WATCH_BIT);
                w->on_event(w, events[i].events);
            } else {
                conn *c = tag;
                if (c->closed) continue;
                if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) conn_read(c);
                if (!c->closed && (events[i].events & EPOLLOUT)) conn_flush(c);
            }
        }
        if (s->listen_paused && s->now_ms >= s->listen_resume_ms) {
            struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &tag_listen};
            epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->listen_fd, &ev);
            s->listen_paused = false;
        }
        schedule_tick(s);
        for (int h = 0; h < npass_hooks; h++) pass_hooks[h](s->now_ms);
        for (size_t i = 0; i < s->player_count; i++) play_stream_chunks(s->players[i]);
        flush_all();
        free_closed();
    }
    shutdown_all();
    store_final_save(); /* blocking: every chunk, player and level.dat on disk */
    return 0;
}

void server_free(struct server *s)
{
    free_closed();
    login_free();
    workers_stop();
    if (s->listen_fd >= 0) close(s->listen_fd);
    if (s->signal_fd >= 0) close(s->signal_fd);
    if (s->epfd >= 0) close(s->epfd);
    world_free(&s->world);
    if (s->compressor) libdeflate_free_compressor(s->compressor);
    if (s->decompressor) libdeflate_free_decompressor(s->decompressor);
    buf_free(&s->scratch);
    buf_free(&s->pkt);
    limits_free();
    free(s->players);
    free(s->status_json);
    free(s->favicon);
}

#ifdef MCSERV_FUZZ
/* ------------------------------------------------------------ fuzz harness */

/*
 * Test-only entry points for tests/fuzz/fuzz_play.c (built with
 * -DMCSERV_FUZZ, never in the server): a minimal server without a listener,
 * signals or worker threads (chunk jobs stay queued, so the harness is
 * deterministic), and connections whose input comes from the fuzzer through
 * the same conn_parse/dispatch path as socket input.
 */
int server_fuzz_init(struct server *s, const struct server_config *cfg)
{
    memset(s, 0, sizeof *s);
    srv = s;
    s->cfg = *cfg;
    s->listen_fd = s->signal_fd = -1;
    s->start_ns = clock_ns();
    s->now_ms = clock_ms();
    s->next_entity_id = 1;
    s->running = true;
    buf_init(&s->scratch, FRAME_MAX_PACKET);
    buf_init(&s->pkt, FRAME_MAX_PACKET);
    s->compressor = libdeflate_alloc_compressor(1);
    s->decompressor = libdeflate_alloc_decompressor();
    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    s->max_conns = 1024;
    char err[512];
    int afd;
    if (!s->compressor || !s->decompressor || s->epfd < 0 || limits_init(cfg) < 0 ||
        world_init(&s->world, cfg, err, sizeof err) < 0 || login_init(&s->cfg, &afd) < 0)
        return -1;
    play_init();
    return 0;
}

conn *server_fuzz_conn(int fd, enum conn_state st)
{
    conn *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    srv->now_ms = clock_ms();
    c->fd = fd;
    c->id = ++srv->next_conn_id;
    c->players_index = -1;
    snprintf(c->addr, sizeof c->addr, "127.0.0.1:%u", 1024 + c->id % 60000);
    c->connected_ms = srv->now_ms;
    c->deadline_ms = srv->now_ms + CONN_PREPLAY_TIMEOUT;
    c->state = st;
    buf_init(&c->rbuf, FRAME_MAX_LENGTH + 16);
    buf_init(&c->wbuf, CONN_OUTPUT_LIMIT);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev);
    c->next = srv->conns;
    if (srv->conns) srv->conns->prev = c;
    srv->conns = c;
    srv->conn_count++;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(1024)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    limits_conn_opened(c, (struct sockaddr *)&a);
    return c;
}

/* As conn_read, with the bytes from the caller instead of read(). */
void server_fuzz_feed(conn *c, const uint8_t *data, size_t len)
{
    if (c->closed || c->state == CS_CLOSING || len == 0) return;
    srv->now_ms = clock_ms();
    srv->stats.bytes_in += len;
    if (c->rbuf.len == 0) {
        uint8_t *copy = malloc(len); /* exact size: ASan sees any overread */
        if (!copy) return;
        memcpy(copy, data, len);
        size_t used = conn_parse(c, copy, len);
        if (!c->closed && c->state != CS_CLOSING && used < len) {
            buf_append(&c->rbuf, copy + used, len - used);
            if (c->rbuf.failed) conn_drop(c, "input buffer limit reached");
        }
        free(copy);
    } else {
        buf_append(&c->rbuf, data, len);
        if (c->rbuf.failed) {
            conn_drop(c, "input buffer limit reached");
            return;
        }
        size_t used = conn_parse(c, c->rbuf.data, c->rbuf.len);
        if (!c->closed) {
            buf_consume(&c->rbuf, used);
            buf_shrink_if_idle(&c->rbuf, 0);
        }
    }
}

void server_fuzz_tick(void)
{
    srv->now_ms = clock_ms();
    tick();
}

/* The end of a loop pass: stream chunks, flush output, free closed
 * connections. true when `watch` was one of those freed. */
bool server_fuzz_pass_end(const conn *watch)
{
    for (size_t i = 0; i < srv->player_count; i++) play_stream_chunks(srv->players[i]);
    flush_all();
    bool freed = false;
    for (conn *c = srv->free_list; c; c = c->next_free) freed |= c == watch;
    free_closed();
    return freed;
}
#endif /* MCSERV_FUZZ */
