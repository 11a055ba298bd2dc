/*
 * mgmt_ws.c — the management protocol's transport (admin/mgmt.h): the
 * listener, TLS (OpenSSL, when management-server-tls-enabled), the upgrade
 * request (admin/mgmt_handshake.h), WebSocket framing by wslay's event API
 * on the non-blocking socket, and the JSON-RPC messages handed to
 * admin/mgmt_rpc.h.
 *
 * A connection:
 *
 *   HEAD --upgrade request complete--> 101 --> OPEN --we close--> CLOSING (our close frame
 *     |                                            |                 |  queued, theirs awaited)
 *     |                                            | they close      |
 *     |  any other answer (401, 400, ...)          v                 v
 *     +------------------------------------> LINGER: everything sent, the write side shut
 *     |  MGMT_HEAD_MS without a head                 (TLS: close_notify); what still arrives
 *     v                                              is read and dropped, until their EOF or
 *   closed (socket, TLS and wslay freed;             MGMT_CLOSE_WAIT_MS -> closed
 *   the struct is freed by mgmt_pass)
 *
 *   OPEN: ping after MGMT_PING_MS without a frame, closed after MGMT_IDLE_MS;
 *   a message over MGMT_MSG_MAX -> close 1009; a binary one -> close 1003;
 *   output over MGMT_OUT_MAX -> dropped; over MGMT_OUT_PAUSE -> requests
 *   are not read until it drains.
 *
 * Invariants:
 *  1. A connection is never closed inside a wslay callback (wslay still
 *     holds it): it is marked `doomed` and closed after wslay returns, or
 *     by mgmt_pass; its memory is freed only in mgmt_pass (admin.h
 *     invariant 1).
 *  2. At most MGMT_MAX_CLIENTS connections; the next ones are answered 503
 *     and closed at accept, unless the oldest connection still without an
 *     upgrade request is older than MGMT_EVICT_MS: that one is closed
 *     instead (only unauthenticated sockets are ever displaced).
 *  3. Deferred replies name their connection (mgmt_reply_owner); a closing
 *     connection sets its replies' owner to NULL, so a late result is
 *     dropped, never sent to a freed connection.
 *  4. Reads are bounded per event (MGMT_READ_BUDGET): a connection that had
 *     more is resumed by mgmt_pass, not starved or starving others.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pkcs12.h>
#include <openssl/ssl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wslay/wslay.h>

#include "admin/admin.h"
#include "admin/http_parse.h"
#include "admin/mgmt_handshake.h"
#include "admin/mgmt_int.h"
#include "core/addr.h"
#include "core/config.h"
#include "core/list.h"
#include "core/log.h"
#include "net/server.h"

enum client_state { CL_HEAD, CL_OPEN, CL_CLOSING, CL_LINGER };

typedef struct mgmt_client {
    admin_peer peer; /* first: socket, address, output (the HTTP answer), link */
    unsigned id;
    enum client_state state;
    SSL *ssl;
    wslay_event_context_ptr ws;
    char head[HTTP_HEAD_MAX];
    size_t head_len, scan;
    size_t rest_off, rest_len; /* bytes after the head: the first frames */
    bool doomed;               /* invariant 1 */
    bool more;                 /* stopped by the read budget (invariant 4) */
    bool ssl_wants_write;      /* TLS must write before it can read */
    bool reading, writing;     /* EPOLLIN / EPOLLOUT armed */
    bool eof;
    bool opened; /* reached OPEN: its close is logged */
    size_t budget;
    int64_t deadline_ms; /* HEAD: the head's; CLOSING: the close wait's */
    int64_t last_rx_ms, ping_ms;
    struct mgmt_reply *pending[MGMT_PENDING_MAX];
    unsigned npending;
} mgmt_client;

static struct {
    loop_watch w;
    int fd;
    bool on;
    const struct server_config *cfg;
    SSL_CTX *tls;
    admin_peers peers;
    unsigned next_id;
    size_t open; /* clients in CL_OPEN */
    int64_t now_ms;
    int64_t refuse_log_ms, auth_log_ms; /* rate limits of those log lines */
    unsigned refused_quiet, auth_quiet; /* lines not logged since */
    unsigned auth_lines;                /* refusal lines in this 10 s window */
} mg;

/* admin.h's eviction order; mgmt keeps its own rule (invariant 2), so this
 * only says which clients could ever go: those without an upgrade yet. */
static int64_t idle_since(const admin_peer *p, int64_t now_ms);

static void mgmt_state_init(void)
{
    mg.fd = -1;
    mg.peers = (admin_peers)ADMIN_PEERS_INIT(mg.peers, "management server", MGMT_MAX_CLIENTS,
                                             MGMT_MAX_CLIENTS, idle_since, &admin_stats.mgmt);
}

int64_t mgmt_now_ms(void)
{
    return srv && srv->loop ? srv->loop->now_ms : 0;
}

size_t mgmt_ws_clients(void)
{
    return mg.open;
}

void mgmt_log(unsigned client_id, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    log_info("RPC Connection #%u: %s", client_id, text);
}

/* ------------------------------------------------------------ raw I/O */

/* >0 bytes, 0 end of stream, -1 would block, -2 failed. */
/* One recv or send (write): bytes, 0 (EOF), -1 would block, -2 an error. */
static ssize_t io_plain(int fd, void *buf, size_t len, bool write)
{
    for (;;) {
        ssize_t n = write ? send(fd, buf, len, MSG_NOSIGNAL) : recv(fd, buf, len, 0);
        if (n >= 0) return n;
        if (errno == EINTR) continue;
        return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : -2;
    }
}

/* The same through TLS. A read that needs the socket writable notes it. */
static ssize_t io_tls(mgmt_client *c, void *buf, size_t len, bool write)
{
    ERR_clear_error();
    int cap = len > 1u << 30 ? 1 << 30 : (int)len;
    int n = write ? SSL_write(c->ssl, buf, cap) : SSL_read(c->ssl, buf, cap);
    if (n > 0) return n;
    switch (SSL_get_error(c->ssl, n)) {
    case SSL_ERROR_WANT_READ: return -1;
    case SSL_ERROR_WANT_WRITE:
        if (!write) c->ssl_wants_write = true;
        return -1;
    case SSL_ERROR_ZERO_RETURN: return write ? -2 : 0;
    default: return -2;
    }
}

static ssize_t io_read(mgmt_client *c, void *buf, size_t len)
{
    return c->ssl ? io_tls(c, buf, len, false) : io_plain(c->peer.fd, buf, len, false);
}

static ssize_t io_write(mgmt_client *c, const void *buf, size_t len)
{
    return c->ssl ? io_tls(c, (void *)buf, len, true)
                  : io_plain(c->peer.fd, (void *)buf, len, true);
}

/* -------------------------------------------------------- closing */

/* Moves c to `to`, keeping mg.open the number of clients in CL_OPEN. */
static void set_state(mgmt_client *c, enum client_state to)
{
    if (c->state == CL_OPEN && mg.open) mg.open--;
    if (to == CL_OPEN) mg.open++;
    c->state = to;
}

static void doom(mgmt_client *c, const char *why)
{
    if (!c->doomed && why) log_debug("[mgmt #%u %s] closed: %s", c->id, c->peer.addr, why);
    c->doomed = true;
}

/* Off the loop and freed but for the struct (invariants 1 and 3). */
static void client_close(mgmt_client *c)
{
    if (c->peer.closed) return;
    for (unsigned i = 0; i < c->npending; i++) mgmt_reply_set_owner(c->pending[i], NULL);
    c->npending = 0;
    if (c->opened) mgmt_log(c->id, "Management connection closed for %s", c->peer.addr);
    set_state(c, CL_LINGER);
    if (c->ws) wslay_event_context_free(c->ws);
    c->ws = NULL;
    if (c->ssl) SSL_free(c->ssl); /* no close_notify wait: the socket closes now */
    c->ssl = NULL;
    admin_peer_close(&mg.peers, &c->peer);
}

/* Queues a WebSocket close (code, reason) and moves to CLOSING. */
static void ws_close(mgmt_client *c, uint16_t code, const char *reason)
{
    if (c->state != CL_OPEN) return;
    wslay_event_queue_close(c->ws, code, (const uint8_t *)reason, strlen(reason));
    set_state(c, CL_CLOSING);
    c->deadline_ms = mg.now_ms + MGMT_CLOSE_WAIT_MS;
}

/* --------------------------------------------------- wslay callbacks */

static ssize_t ws_recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags,
                          void *user)
{
    (void)flags;
    mgmt_client *c = user;
    if (c->rest_len) { /* the frames that came with the head */
        size_t n = c->rest_len < len ? c->rest_len : len;
        memcpy(buf, c->head + c->rest_off, n);
        c->rest_off += n;
        c->rest_len -= n;
        return (ssize_t)n;
    }
    if (c->doomed || c->budget == 0 || wslay_event_get_queued_msg_length(ctx) > MGMT_OUT_PAUSE) {
        c->more = c->budget == 0;
        wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    ssize_t n = io_read(c, buf, len < c->budget ? len : c->budget);
    if (n > 0) {
        c->budget -= (size_t)n;
        c->last_rx_ms = mg.now_ms;
        if (c->budget == 0) c->more = true;
        return n;
    }
    if (n == 0) c->eof = true;
    wslay_event_set_error(ctx, n == -1 ? WSLAY_ERR_WOULDBLOCK : WSLAY_ERR_CALLBACK_FAILURE);
    return -1;
}

static ssize_t ws_send_cb(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags,
                          void *user)
{
    (void)flags;
    mgmt_client *c = user;
    ssize_t n = io_write(c, data, len);
    if (n >= 0) return n;
    wslay_event_set_error(ctx, n == -1 ? WSLAY_ERR_WOULDBLOCK : WSLAY_ERR_CALLBACK_FAILURE);
    return -1;
}

static void ws_frame_start_cb(wslay_event_context_ptr ctx,
                              const struct wslay_event_on_frame_recv_start_arg *arg, void *user)
{
    (void)ctx, (void)arg;
    ((mgmt_client *)user)->last_rx_ms = mg.now_ms;
}

/* Sends a reply's text (if any) to c. */
static void send_text(mgmt_client *c, const char *text, size_t len)
{
    if (c->state != CL_OPEN || c->doomed) return;
    if (wslay_event_get_queued_msg_length(c->ws) + len > MGMT_OUT_MAX) {
        log_warn("[mgmt #%u %s] over %u MiB of output queued (the client does not read); closed",
                 c->id, c->peer.addr, MGMT_OUT_MAX >> 20);
        doom(c, NULL);
        return;
    }
    struct wslay_event_msg m = {WSLAY_TEXT_FRAME, (const uint8_t *)text, len};
    if (wslay_event_queue_msg(c->ws, &m) != 0) doom(c, "cannot queue a message");
}

static void send_reply(mgmt_client *c, const struct mgmt_reply *r)
{
    size_t len;
    char *text = mgmt_reply_text(r, &len);
    if (text) send_text(c, text, len);
    free(text);
}

static void update_events(mgmt_client *c);
static void client_flush(mgmt_client *c);

/* A deferred reply is complete (mgmt_rpc.h); owner NULL: its connection is gone. */
static void reply_ready(struct mgmt_reply *r, void *owner)
{
    mgmt_client *c = owner;
    if (!c) return;
    for (unsigned i = 0; i < c->npending; i++)
        if (c->pending[i] == r) {
            c->pending[i] = c->pending[--c->npending];
            break;
        }
    send_reply(c, r);
    update_events(c); /* written by the next write event, outside any callback */
}

static void handle_text(mgmt_client *c, const uint8_t *msg, size_t len)
{
    mgmt_call call;
    memset(&call, 0, sizeof call);
    call.client_id = c->id;
    call.client = c;
    call.pending_allowed = MGMT_PENDING_MAX - c->npending;
    struct mgmt_reply *r = mgmt_rpc_handle(mgmt_table(), &call, (const char *)msg, len);
    if (!r) return;
    if (mgmt_reply_ready(r)) {
        send_reply(c, r);
        mgmt_reply_free(r);
        return;
    }
    mgmt_reply_set_owner(r, c);
    c->pending[c->npending++] = r; /* pending_allowed kept npending <= MGMT_PENDING_MAX */
}

static void ws_msg_cb(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *arg,
                      void *user)
{
    (void)ctx;
    mgmt_client *c = user;
    if (c->doomed || c->state != CL_OPEN) return;
    if (arg->opcode == WSLAY_TEXT_FRAME)
        handle_text(c, arg->msg, arg->msg_length);
    else if (arg->opcode == WSLAY_BINARY_FRAME)
        ws_close(c, WSLAY_CODE_UNSUPPORTED_DATA, "JSON-RPC messages are text frames");
    else if (arg->opcode == WSLAY_CONNECTION_CLOSE)
        log_debug("[mgmt #%u %s] the client closed (%u)", c->id, c->peer.addr,
                  (unsigned)arg->status_code);
}

static const struct wslay_event_callbacks ws_callbacks = {
    .recv_callback = ws_recv_cb,
    .send_callback = ws_send_cb,
    .on_frame_recv_start_callback = ws_frame_start_cb,
    .on_msg_recv_callback = ws_msg_cb,
};

/* ------------------------------------------------------- the upgrade */

/* Refused upgrades are logged (acceptance: "refused, and logged"): up to
 * 10 lines per 10 s, then a count of the quiet ones with the next line. */
static void log_refusal(mgmt_client *c, const struct mgmt_upgrade *u)
{
    if (mg.now_ms - mg.auth_log_ms >= 10000) {
        mg.auth_log_ms = mg.now_ms;
        mg.auth_lines = 0;
    }
    if (mg.auth_lines >= 10) {
        mg.auth_quiet++;
        return;
    }
    mg.auth_lines++;
    char more[64] = "", origin[160] = "";
    if (mg.auth_quiet) snprintf(more, sizeof more, " (%u more refused before)", mg.auth_quiet);
    if (u->origin_mismatch) snprintf(origin, sizeof origin, " (Origin: %s)", u->origin);
    log_msg(u->status == 401 ? LOG_WARN : LOG_INFO, "Management server: refused %s: %d %s%s%s",
            c->peer.addr, u->status, u->reason, origin, more);
    mg.auth_quiet = 0;
}

static void upgrade(mgmt_client *c, size_t end)
{
    struct mgmt_upgrade u;
    mgmt_upgrade_check(c->head, end, mg.cfg->management_server_secret,
                       mg.cfg->management_server_allowed_origins, &u);
    char resp[1024];
    size_t n = mgmt_upgrade_response(&u, resp, sizeof resp);
    buf_append(&c->peer.out, resp, n);
    if (u.status != 101) {
        log_refusal(c, &u);
        set_state(c, CL_CLOSING);
        c->deadline_ms = mg.now_ms + MGMT_CLOSE_WAIT_MS;
        return;
    }
    if (wslay_event_context_server_init(&c->ws, &ws_callbacks, c) != 0) {
        doom(c, "out of memory");
        return;
    }
    wslay_event_config_set_max_recv_msg_length(c->ws, MGMT_MSG_MAX);
    set_state(c, CL_OPEN);
    c->opened = true;
    c->rest_off = end;
    c->rest_len = c->head_len - end;
    c->last_rx_ms = mg.now_ms;
    mgmt_log(c->id, "Management connection opened for %s", c->peer.addr);
}

/* HEAD: reads until the head is complete, then answers it. */
static void read_head(mgmt_client *c)
{
    while (c->state == CL_HEAD && !c->doomed) {
        size_t room = sizeof c->head - c->head_len;
        if (room == 0) {
            struct mgmt_upgrade u = {.status = 431, .reason = "request head over 8 KiB"};
            char resp[512];
            buf_append(&c->peer.out, resp, mgmt_upgrade_response(&u, resp, sizeof resp));
            log_refusal(c, &u);
            set_state(c, CL_CLOSING);
            c->deadline_ms = mg.now_ms + MGMT_CLOSE_WAIT_MS;
            return;
        }
        ssize_t n = io_read(c, c->head + c->head_len, room);
        if (n == -1) return;
        if (n <= 0) {
            doom(c, n == 0 ? "closed before the upgrade" : "read failed before the upgrade");
            return;
        }
        c->head_len += (size_t)n;
        size_t end = http_head_end(c->head, c->head_len, &c->scan);
        if (end) upgrade(c, end);
    }
}

/* ---------------------------------------------------------- events */

static void update_events(mgmt_client *c)
{
    if (c->peer.closed) return;
    bool ws_write = c->ws && wslay_event_want_write(c->ws);
    bool want_write = c->peer.out.len || ws_write || c->ssl_wants_write;
    bool want_read = c->state == CL_HEAD || c->state == CL_LINGER ||
                     (c->state == CL_CLOSING && !c->ws) ||
                     (c->ws && wslay_event_want_read(c->ws) &&
                      wslay_event_get_queued_msg_length(c->ws) <= MGMT_OUT_PAUSE);
    if (want_read != c->reading || want_write != c->writing) {
        c->reading = want_read;
        c->writing = want_write;
        loop_watch_mod(srv->loop, &c->peer.w,
                       (want_read ? EPOLLIN : 0) | (want_write ? EPOLLOUT : 0) | EPOLLRDHUP);
    }
}

/* Everything is sent: shut our side and drop what still arrives, so the
 * client reads our last bytes instead of a reset (RFC 9112 9.6). */
static void linger(mgmt_client *c)
{
    set_state(c, CL_LINGER);
    /* wslay refuses a message over MGMT_MSG_MAX at its frame head, before
     * reading the payload, with close 1009 */
    if (c->ws && wslay_event_get_status_code_sent(c->ws) == WSLAY_CODE_MESSAGE_TOO_BIG)
        log_warn("[mgmt #%u %s] a message over the %u-byte limit; closed (1009)", c->id,
                 c->peer.addr, MGMT_MSG_MAX);
    if (c->ws) wslay_event_context_free(c->ws); /* outside any wslay callback */
    c->ws = NULL;
    c->deadline_ms = mg.now_ms + MGMT_CLOSE_WAIT_MS;
    if (c->ssl)
        SSL_shutdown(c->ssl); /* close_notify; theirs is not awaited */
    else
        shutdown(c->peer.fd, SHUT_WR);
}

/* Writes the HTTP answer, then wslay's frames; closes what is finished. */
static void client_flush(mgmt_client *c)
{
    c->ssl_wants_write = false;
    while (c->peer.out.len && !c->doomed) {
        ssize_t n = io_write(c, c->peer.out.data, c->peer.out.len);
        if (n > 0)
            buf_consume(&c->peer.out, (size_t)n);
        else if (n == -1)
            break;
        else
            doom(c, "write failed");
    }
    if (c->doomed) return;
    if (!c->peer.out.len && c->ws && wslay_event_send(c->ws) != 0) {
        doom(c, "write failed");
        return;
    }
    if (c->peer.out.len || c->state == CL_LINGER) return;
    /* A refused upgrade answered, or wslay done (both close frames, or
     * reading ended by an oversized frame and our close sent). */
    if ((c->state == CL_CLOSING && !c->ws) ||
        (c->ws && !wslay_event_want_read(c->ws) && !wslay_event_want_write(c->ws)))
        linger(c);
}

static void client_read(mgmt_client *c)
{
    c->budget = MGMT_READ_BUDGET;
    c->more = false;
    if (c->state == CL_HEAD) {
        read_head(c);
        return;
    }
    if (!c->ws) { /* LINGER, or CLOSING after a refusal: drop what the client still sends */
        char sink[16384];
        ssize_t n = 0;
        while (c->budget && (n = io_read(c, sink, sizeof sink)) > 0)
            c->budget -= (size_t)n < c->budget ? (size_t)n : c->budget;
        if (!c->budget)
            c->more = true;
        else if (n != -1)
            doom(c, NULL);
        return;
    }
    if (wslay_event_recv(c->ws) != 0) {
        doom(c, c->eof ? "the client closed the connection" : "protocol error");
        return;
    }
    if (c->eof) doom(c, "the client closed the connection");
    if (c->ssl && SSL_pending(c->ssl) > 0 && c->budget == 0) c->more = true;
}

static void client_service(mgmt_client *c, bool read)
{
    if (read && !c->doomed) client_read(c);
    if (!c->doomed) client_flush(c);
    if (c->doomed)
        client_close(c);
    else
        update_events(c);
}

static void client_event(loop_watch *w, uint32_t events)
{
    mgmt_client *c = (mgmt_client *)w;
    if (c->peer.closed) return;
    mg.now_ms = srv->loop->now_ms;
    if (events & EPOLLERR) {
        doom(c, "socket error");
        client_close(c);
        return;
    }
    client_service(c, events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP | EPOLLOUT));
}

/* A best-effort 503 to a connection over the limit (invariant 2). */
static void refuse(int fd, const char *addr)
{
    static const char resp[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; "
                               "charset=utf-8\r\nContent-Length: 47\r\nConnection: close\r\n\r\n"
                               "503: too many management connections are open\n";
    ssize_t n = send(fd, resp, sizeof resp - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)n;
    close(fd);
    if (mg.now_ms - mg.refuse_log_ms >= 10000) {
        log_warn("Management server: refusing %s: %d connections open (the limit)%s", addr,
                 MGMT_MAX_CLIENTS,
                 mg.refused_quiet ? "; more were refused since the last line" : "");
        mg.refuse_log_ms = mg.now_ms;
        mg.refused_quiet = 0;
    } else {
        mg.refused_quiet++;
    }
}

static int64_t idle_since(const admin_peer *p, int64_t now_ms)
{
    (void)now_ms;
    const mgmt_client *c = (const mgmt_client *)p;
    return c->state == CL_HEAD && !c->doomed ? p->opened_ms : 0;
}

/* One waiting connection off the listener, or -1 (failures logged). */
static int accept_one(struct sockaddr_storage *ss)
{
    for (;;) { /* bounded: each ECONNABORTED takes one connection off the backlog */
        socklen_t sl = sizeof *ss;
        int fd = accept4(mg.fd, (struct sockaddr *)ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) return fd;
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            log_warn("management server: accept: %s", strerror(errno));
        return -1;
    }
}

/* Invariant 2's exception: at the limit, a connection that has not sent
 * its upgrade request within MGMT_EVICT_MS gives its place to the new one,
 * so idle unauthenticated sockets cannot lock a panel out. */
static bool evict_stale_head(void)
{
    for (list_node *n = mg.peers.live.prev; n != &mg.peers.live; n = n->prev) { /* oldest first */
        mgmt_client *c = (mgmt_client *)list_entry(n, admin_peer, link);
        if (c->state != CL_HEAD || c->doomed) continue;
        if (mg.now_ms - (c->deadline_ms - MGMT_HEAD_MS) < MGMT_EVICT_MS) return false;
        doom(c, "no upgrade request yet, and the connection limit is reached");
        client_close(c);
        admin_stats.mgmt.evicted++;
        return true;
    }
    return false;
}

static void accept_event(loop_watch *w, uint32_t events)
{
    (void)w;
    (void)events;
    mg.now_ms = srv->loop->now_ms;
    for (int i = 0; i < 64; i++) {
        struct sockaddr_storage ss;
        int fd = accept_one(&ss);
        if (fd < 0) return;
        char addr[ADDR_TEXT_MAX], ip[ADDR_IP_MAX];
        addr_text((struct sockaddr *)&ss, addr, sizeof addr);
        addr_ip((struct sockaddr *)&ss, ip, sizeof ip);
        if (mg.peers.count >= MGMT_MAX_CLIENTS && !evict_stale_head()) {
            admin_stats.mgmt.refused[ADMIN_REFUSED_FULL]++;
            refuse(fd, addr);
            continue;
        }
        mgmt_client *c = (mgmt_client *)admin_peer_new(
            &mg.peers, sizeof *c, fd, addr, ip, 64u << 10, client_event, EPOLLIN | EPOLLRDHUP);
        if (!c) continue;
        int one = 1; /* wslay writes a frame's head and payload apart: no Nagle wait between */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        c->id = ++mg.next_id;
        c->reading = true;
        c->deadline_ms = mg.now_ms + MGMT_HEAD_MS;
        if (mg.tls) {
            c->ssl = SSL_new(mg.tls);
            if (!c->ssl || SSL_set_fd(c->ssl, fd) != 1) {
                doom(c, "TLS setup failed");
                client_close(c);
                continue;
            }
            SSL_set_accept_state(c->ssl);
        }
    }
}

/* ------------------------------------------------------- broadcast */

void mgmt_ws_broadcast(const char *text, size_t len)
{
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &mg.peers.live) {
        mgmt_client *c = (mgmt_client *)list_entry(n, admin_peer, link);
        if (c->state != CL_OPEN || c->doomed) continue;
        send_text(c, text, len);
        update_events(c); /* sent by the next write event: never inside a callback */
    }
}

/* ------------------------------------------------------------- pass */

void mgmt_pass(int64_t now_ms)
{
    mg.now_ms = now_ms;
    if (!mg.on) return;
    if (!mgmt_server_started) {
        mgmt_server_started = true;
        mgmt_notify_started();
    }
    if (srv->loop->stopping) mgmt_notify_stopping();
    mgmt_heartbeat_tick(now_ms);
    mgmt_save_poll();
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &mg.peers.live) {
        mgmt_client *c = (mgmt_client *)list_entry(n, admin_peer, link);
        if (!c->doomed && c->state == CL_HEAD && now_ms >= c->deadline_ms)
            doom(c, "no upgrade request within 10 s");
        if (!c->doomed && (c->state == CL_CLOSING || c->state == CL_LINGER) &&
            now_ms >= c->deadline_ms)
            doom(c, c->state == CL_CLOSING ? "no close from the client" : NULL);
        if (!c->doomed && c->state == CL_OPEN) {
            if (now_ms - c->last_rx_ms >= MGMT_IDLE_MS) {
                log_info("[mgmt #%u %s] no answer to pings for %d s; closed", c->id, c->peer.addr,
                         MGMT_IDLE_MS / 1000);
                doom(c, NULL);
            } else if (now_ms - c->last_rx_ms >= MGMT_PING_MS &&
                       now_ms - c->ping_ms >= MGMT_PING_MS) {
                struct wslay_event_msg m = {WSLAY_PING, (const uint8_t *)"mcserv", 6};
                wslay_event_queue_msg(c->ws, &m);
                c->ping_ms = now_ms;
            }
        }
        if (c->doomed)
            client_close(c);
        else if (c->more || (c->ws && wslay_event_want_write(c->ws)))
            client_service(c, c->more);
    }
    admin_peers_free_closed(&mg.peers);
}

/* ------------------------------------------------------------- TLS */

/* vanilla's order: the environment, then the property. */
static const char *keystore_password(const struct server_config *cfg)
{
    const char *env = getenv("MINECRAFT_MANAGEMENT_TLS_KEYSTORE_PASSWORD");
    return env ? env : cfg->management_server_tls_keystore_password;
}

static int load_pkcs12(SSL_CTX *ctx, const struct server_config *cfg, char *err, size_t cap)
{
    FILE *f = fopen(cfg->management_server_tls_keystore, "rb");
    if (!f) {
        snprintf(err, cap, "cannot open %s: %s", cfg->management_server_tls_keystore,
                 strerror(errno));
        return -1;
    }
    PKCS12 *p12 = d2i_PKCS12_fp(f, NULL);
    fclose(f);
    EVP_PKEY *key = NULL;
    X509 *cert = NULL;
    STACK_OF(X509) *ca = NULL;
    int rc = -1;
    if (!p12) {
        snprintf(err, cap, "%s is not a PKCS#12 keystore", cfg->management_server_tls_keystore);
    } else if (!PKCS12_parse(p12, keystore_password(cfg), &key, &cert, &ca) || !key || !cert) {
        snprintf(err, cap, "cannot read %s (wrong password, or no key and certificate in it)",
                 cfg->management_server_tls_keystore);
    } else if (SSL_CTX_use_certificate(ctx, cert) != 1 || SSL_CTX_use_PrivateKey(ctx, key) != 1) {
        snprintf(err, cap, "%s: the key does not match the certificate",
                 cfg->management_server_tls_keystore);
    } else {
        rc = 0;
        for (int i = 0; ca && i < sk_X509_num(ca); i++) {
            X509 *x = sk_X509_value(ca, i);
            if (SSL_CTX_add1_chain_cert(ctx, x) != 1) rc = -1;
        }
        if (rc < 0)
            snprintf(err, cap, "%s: cannot use its CA chain", cfg->management_server_tls_keystore);
    }
    EVP_PKEY_free(key);
    X509_free(cert);
    sk_X509_pop_free(ca, X509_free);
    PKCS12_free(p12);
    return rc;
}

static SSL_CTX *tls_context(const struct server_config *cfg)
{
    char err[1024] = "";
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) {
        log_error("management server: TLS: cannot create a context; it stays off");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    int rc = -1;
    const char *crt = cfg->management_server_tls_certificate, *key = cfg->management_server_tls_key;
    if (crt[0] || key[0]) {
        if (!crt[0] || !key[0])
            snprintf(err, sizeof err,
                     "management-server-tls-certificate and management-server-tls-key go "
                     "together; set both");
        else if (SSL_CTX_use_certificate_chain_file(ctx, crt) != 1)
            snprintf(err, sizeof err, "cannot read the PEM certificate chain %s", crt);
        else if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1)
            snprintf(err, sizeof err, "cannot read the PEM private key %s", key);
        else if (SSL_CTX_check_private_key(ctx) != 1)
            snprintf(err, sizeof err, "%s does not match the certificate in %s", key, crt);
        else
            rc = 0;
    } else if (cfg->management_server_tls_keystore[0]) {
        rc = load_pkcs12(ctx, cfg, err, sizeof err);
    } else {
        snprintf(err, sizeof err,
                 "management-server-tls-enabled=true needs a certificate: set "
                 "management-server-tls-keystore (PKCS#12, as vanilla) or "
                 "management-server-tls-certificate and management-server-tls-key (PEM), or "
                 "set management-server-tls-enabled=false behind an SSH tunnel");
    }
    if (rc < 0) {
        log_error("management server: TLS: %s; the management server stays off", err);
        SSL_CTX_free(ctx);
        ERR_clear_error();
        return NULL;
    }
    return ctx;
}

/* ------------------------------------------------------ start, stop */

void mgmt_start(const struct server_config *cfg)
{
    mgmt_state_init();
    mgmt_gamerules_provide(&mgmt_gamerules_game); /* game/gamerules.h */
    mg.cfg = cfg;
    if (!cfg->management_server_enabled) return;
    if (!config_secret_valid(cfg->management_server_secret)) {
        log_error("management server: no valid management-server-secret; it stays off");
        return;
    }
    if (cfg->management_server_tls_enabled && !(mg.tls = tls_context(cfg))) return;
    mg.fd = admin_listen("management server", cfg->management_server_host,
                         cfg->management_server_port, SOCK_STREAM);
    if (mg.fd < 0) {
        SSL_CTX_free(mg.tls);
        mg.tls = NULL;
        return;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int port = cfg->management_server_port;
    if (getsockname(mg.fd, (struct sockaddr *)&ss, &sl) == 0)
        port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                        : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    mg.w.on_event = accept_event;
    if (loop_watch_add(srv->loop, &mg.w, mg.fd, EPOLLIN) < 0) {
        close(mg.fd);
        mg.fd = -1;
        SSL_CTX_free(mg.tls);
        mg.tls = NULL;
        return;
    }
    mg.on = true;
    mgmt_rpc_set_ready_callback(reply_ready);
    mgmt_heartbeat_reset();
    log_info("Json-RPC Management connection listening on %s:%d", cfg->management_server_host,
             port);
    log_info("management server: %s://%s:%d/, secret in management-server-secret%s",
             mg.tls ? "wss" : "ws", cfg->management_server_host, port,
             admin_is_loopback(cfg->management_server_host) ? ""
             : mg.tls ? "; not on a loopback address: keep it behind a firewall"
                      : "; not on a loopback address and without TLS: the secret and every "
                        "request cross the network in clear text (see docs/operations.md)");
}

void mgmt_stop(void)
{
    if (mg.on) {
        mgmt_notify_stopping();
        for (admin_peer *p; (p = admin_peer_first(&mg.peers));) {
            mgmt_client *c = (mgmt_client *)p;
            ws_close(c, WSLAY_CODE_GOING_AWAY, "Server stopping");
            if (!c->doomed) client_flush(c); /* the last notifications, if the socket takes them */
            c->doomed = true;
            client_close(c);
        }
    }
    if (mg.fd >= 0) {
        loop_watch_del(srv->loop, &mg.w);
        close(mg.fd);
        mg.fd = -1;
    }
    admin_peers_free_closed(&mg.peers);
    mgmt_settings_flush();
    SSL_CTX_free(mg.tls);
    mg.tls = NULL;
    mg.on = false;
    mg.open = 0;
}
