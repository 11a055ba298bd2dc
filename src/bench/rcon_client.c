/*
 * rcon_client.c — mcbench's RCON client: how the `spread` scenario puts
 * bots at their random points on a server that speaks RCON (vanilla, Paper,
 * mcserv): one connection, `tp <bot> <x> <y> <z>` per bot, as an operator
 * would type it into the server console; and the `explosion` scenario's
 * one command (rcon_client_command, its reply to explode.c).
 *
 *   open (setup, blocking, bounded by --connect-timeout):
 *     connect -> login (type 3) -> reply id == ours: LIVE | id -1: refused
 *   LIVE: queue of bots --one request in flight--> reply (same id) --> next
 *     any error (closed, malformed reply, no reply in RCON_REPLY_MS): DEAD,
 *     the queued bots fall back to their own /tp command (behave.c)
 *
 * Why one request in flight: vanilla's RCON thread reads one packet per
 * read() of its 1460-byte buffer and drops what follows it, so pipelined
 * commands would be lost there. mcserv runs a command as soon as it reads
 * it, so the round trip is one loop pass of the server.
 *
 * Success is not read from the reply text (it is localised and differs
 * between servers): the bot sees its own Synchronize Player Position at the
 * point. The first reply's text is kept for the report.
 *
 * Packets (Source RCON, little-endian int32s): length, request id, type,
 * body, two NULs; admin/rcon_packet.h has the table and rcon_encode. A
 * reply may be up to RCON_CHUNK bytes of body (longer output comes split),
 * so replies are decoded here with that larger bound.
 *
 * Invariants:
 *  1. At most one request on the wire; the output buffer holds at most one
 *     packet, the input buffer at most one reply plus one read.
 *  2. A bot is on the queue at most once (its rcon_link); rcon_client_cancel
 *     unlinks it, and a bot taken off the queue is never touched again here.
 *  3. The password is never printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "admin/rcon_packet.h"
#include "bench/mcbench.h"
#include "core/clock.h"

#define RCON_REPLY_MS  10000 /* a live server answers a tp in one pass */
#define RCON_REPLY_MAX (RCON_CHUNK + 14)
#define RCON_LOGIN_ID  1

static struct {
    int fd;
    bool opened, live;
    loop_watch w;
    loop_timer t_reply;
    list_node queue; /* bots waiting for their tp, in join order */
    int32_t next_id, inflight_id;
    buf_t out;
    uint8_t in[RCON_REPLY_MAX + 4096];
    size_t in_len;
    char cmd[RCON_MAX_LENGTH - 10]; /* the explosion scenario's one command, waiting */
    size_t cmd_len;
    int32_t cmd_id; /* its request id once sent; 0 none */
} rc = {.fd = -1};

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One reply at p[0..len): bytes consumed, 0 = need more, -1 = malformed.
 * The body is copied into text (NUL-terminated, cut at cap). */
static long decode_reply(const uint8_t *p, size_t len, int32_t *id, char *text, size_t cap)
{
    if (len < 4) return 0;
    uint32_t length = le32(p);
    if (length < 10 || length > RCON_REPLY_MAX) return -1;
    if (len < 4 + (size_t)length) return 0;
    *id = (int32_t)le32(p + 4);
    size_t n = length - 10;
    const uint8_t *nul = memchr(p + 12, 0, n);
    if (nul) n = (size_t)(nul - (p + 12));
    if (n >= cap) n = cap - 1;
    memcpy(text, p + 12, n);
    text[n] = 0;
    return (long)(4 + length);
}

static void note_error(const char *what, int err)
{
    if (bench.spread.rcon_lost[0]) return;
    snprintf(bench.spread.rcon_lost, sizeof bench.spread.rcon_lost, "%s%s%s", what, err ? ": " : "",
             err ? strerror(err) : "");
}

/* Closes the socket and stops the reply timer; the queue is left as it is. */
static void disconnect(void)
{
    if (rc.fd >= 0) {
        loop_watch_del(&bench.loop, &rc.w);
        close(rc.fd);
        rc.fd = -1;
    }
    rc.live = false;
    loop_timer_stop(&bench.loop, &rc.t_reply);
}

/* DEAD: every queued bot asks for its teleport itself. */
static void go_dead(const char *what, int err)
{
    note_error(what, err);
    disconnect();
    if (!bench.o.quiet) fprintf(stderr, "mcbench: RCON: %s; bots ask with /tp instead\n", what);
    while (!list_empty(&rc.queue)) {
        bot *b = list_entry(rc.queue.next, bot, rcon_link);
        list_remove(&b->rcon_link);
        behave_spread_ask_command(b);
    }
}

static void flush_out(void)
{
    while (rc.out.len) {
        ssize_t n = send(rc.fd, rc.out.data, rc.out.len, MSG_NOSIGNAL);
        if (n > 0) {
            buf_consume(&rc.out, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        go_dead("send failed", n < 0 ? errno : 0);
        return;
    }
    uint32_t ev = EPOLLIN | (rc.out.len ? EPOLLOUT : 0);
    if (ev != rc.w.events) loop_watch_mod(&bench.loop, &rc.w, ev);
}

/* Sends the waiting command, else the next queued bot's tp, unless a
 * request is in flight. */
static void pump(void)
{
    if (rc.live && !rc.inflight_id && rc.cmd_len) {
        rc.inflight_id = rc.cmd_id = ++rc.next_id;
        rcon_encode(&rc.out, rc.cmd_id, RCON_COMMAND, rc.cmd, rc.cmd_len);
        rc.cmd_len = 0;
        loop_timer_after(&bench.loop, &rc.t_reply, RCON_REPLY_MS);
        flush_out();
    }
    while (rc.live && !rc.inflight_id && !list_empty(&rc.queue)) {
        bot *b = list_entry(rc.queue.next, bot, rcon_link);
        list_remove(&b->rcon_link);
        if (b->state != BS_PLAY) continue;
        char cmd[96];
        int n = snprintf(cmd, sizeof cmd, "tp %s %.1f %.1f %.1f", b->name, b->spread_x, b->y,
                         b->spread_z);
        rc.inflight_id = ++rc.next_id;
        rcon_encode(&rc.out, rc.inflight_id, RCON_COMMAND, cmd, (size_t)n);
        bench.spread.rcon_sent++;
        loop_timer_after(&bench.loop, &rc.t_reply, RCON_REPLY_MS);
        flush_out();
    }
}

static void on_reply(int32_t id, const char *text)
{
    if (id != rc.inflight_id) return; /* a later part of a long reply */
    rc.inflight_id = 0;
    loop_timer_stop(&bench.loop, &rc.t_reply);
    if (id == rc.cmd_id) {
        rc.cmd_id = 0;
        explode_replied(text);
        return;
    }
    bench.spread.rcon_replies++;
    if (!bench.spread.rcon_first_reply[0])
        snprintf(bench.spread.rcon_first_reply, sizeof bench.spread.rcon_first_reply, "%s",
                 text[0] ? text : "(empty)");
}

static void on_read(void)
{
    for (;;) {
        ssize_t n = recv(rc.fd, rc.in + rc.in_len, sizeof rc.in - rc.in_len, 0);
        if (n == 0) {
            go_dead("the server closed the RCON connection", 0);
            return;
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) go_dead("recv failed", errno);
            return;
        }
        rc.in_len += (size_t)n;
        size_t off = 0;
        for (;;) {
            int32_t id;
            char text[REASON_MAX];
            long used = decode_reply(rc.in + off, rc.in_len - off, &id, text, sizeof text);
            if (used == 0) break;
            if (used < 0) {
                go_dead("malformed RCON reply", 0);
                return;
            }
            on_reply(id, text);
            off += (size_t)used;
        }
        memmove(rc.in, rc.in + off, rc.in_len - off);
        rc.in_len -= off;
        pump();
        if (!rc.live) return;
    }
}

static void on_event(loop_watch *w, uint32_t events)
{
    (void)w;
    if (events & EPOLLERR) {
        go_dead("socket error", 0);
        return;
    }
    if (events & (EPOLLIN | EPOLLHUP)) on_read();
    if (rc.live && (events & EPOLLOUT)) flush_out();
}

static void on_reply_timeout(loop_timer *t)
{
    (void)t;
    go_dead("no RCON reply within 10 s", 0);
}

/* Waits (bounded) until fd is ready for `events`; 1 ready, 0 timeout, -1 error. */
static int wait_fd(int fd, short events, int64_t deadline_ms)
{
    for (;;) {
        int64_t left = deadline_ms - clock_ms();
        if (left <= 0) return 0;
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        return r < 0 ? -1 : r > 0;
    }
}

/* The login exchange at setup: 0, or -1 with the reason printed. */
static int login(const char *password, int64_t deadline_ms)
{
    buf_t req;
    buf_init(&req, 4096);
    rcon_encode(&req, RCON_LOGIN_ID, RCON_AUTH, password, strlen(password));
    size_t off = 0;
    int rc_ = -1;
    while (off < req.len) {
        if (wait_fd(rc.fd, POLLOUT, deadline_ms) <= 0) goto timeout;
        ssize_t n = send(rc.fd, req.data + off, req.len - off, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) {
            fprintf(stderr, "mcbench: RCON login: send: %s\n", strerror(errno));
            goto out;
        }
        off += (size_t)n;
    }
    for (;;) {
        int32_t id;
        char text[REASON_MAX];
        long used = decode_reply(rc.in, rc.in_len, &id, text, sizeof text);
        if (used < 0) {
            fprintf(stderr, "mcbench: RCON login: malformed reply\n");
            goto out;
        }
        if (used > 0) {
            memmove(rc.in, rc.in + used, rc.in_len - (size_t)used);
            rc.in_len -= (size_t)used;
            if (id == -1) {
                fprintf(stderr, "mcbench: RCON login refused (wrong --rcon-password?)\n");
                goto out;
            }
            if (id == RCON_LOGIN_ID) break; /* Source servers may send an empty reply first */
            continue;
        }
        if (wait_fd(rc.fd, POLLIN, deadline_ms) <= 0) goto timeout;
        ssize_t n = recv(rc.fd, rc.in + rc.in_len, sizeof rc.in - rc.in_len, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) {
            fprintf(stderr, "mcbench: RCON login: %s\n",
                    n == 0 ? "the server closed the connection" : strerror(errno));
            goto out;
        }
        rc.in_len += (size_t)n;
    }
    rc_ = 0;
    goto out;
timeout:
    fprintf(stderr, "mcbench: RCON login: no answer within --connect-timeout\n");
out:
    buf_free(&req);
    return rc_;
}

int rcon_client_open(const struct sockaddr *addr, unsigned addr_len, const char *password)
{
    rc.opened = true;
    list_init(&rc.queue);
    buf_init(&rc.out, 4096);
    loop_watch_init(&rc.w, on_event);
    loop_timer_init(&rc.t_reply, on_reply_timeout);
    int64_t deadline = clock_ms() + (int64_t)(bench.o.connect_timeout * 1000.0);
    rc.fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (rc.fd < 0) {
        perror("mcbench: RCON socket");
        return -1;
    }
    int err = 0;
    if (connect(rc.fd, addr, addr_len) < 0) {
        if (errno != EINPROGRESS) {
            err = errno;
        } else {
            int w = wait_fd(rc.fd, POLLOUT, deadline);
            socklen_t l = sizeof err;
            if (w <= 0)
                err = w == 0 ? ETIMEDOUT : errno;
            else if (getsockopt(rc.fd, SOL_SOCKET, SO_ERROR, &err, &l) < 0)
                err = errno;
        }
    }
    if (err) {
        fprintf(stderr, "mcbench: RCON connect to port %d: %s\n", bench.o.rcon_port, strerror(err));
        goto fail;
    }
    if (login(password, deadline) < 0) goto fail;
    int rcw = loop_watch_add(&bench.loop, &rc.w, rc.fd, EPOLLIN);
    if (rcw < 0) {
        fprintf(stderr, "mcbench: RCON: epoll_ctl: %s\n", strerror(-rcw));
        goto fail;
    }
    rc.live = true;
    return 0;
fail:
    close(rc.fd);
    rc.fd = -1;
    return -1;
}

bool rcon_client_live(void)
{
    return rc.live;
}

void rcon_client_tp(bot *b)
{
    if (list_linked(&b->rcon_link)) return;
    list_push_back(&rc.queue, &b->rcon_link);
    pump();
}

int rcon_client_command(const char *text)
{
    size_t n = strlen(text);
    if (!rc.live || rc.cmd_len || rc.cmd_id || n == 0 || n >= sizeof rc.cmd) return -1;
    memcpy(rc.cmd, text, n);
    rc.cmd_len = n;
    pump();
    return 0;
}

void rcon_client_cancel(bot *b)
{
    if (rc.opened && list_linked(&b->rcon_link)) list_remove(&b->rcon_link);
}

void rcon_client_close(void)
{
    if (!rc.opened) return;
    disconnect();
    buf_free(&rc.out);
    rc.opened = false;
}
