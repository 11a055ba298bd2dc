/*
 * rcon.c — see rcon.h: the listener and the clients. The codec is
 * admin/rcon_packet.c, the wrong-password limiter admin/rcon_limiter.c.
 */
#include "admin/rcon.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "admin/admin.h"
#include "core/addr.h"
#include "core/config.h"
#include "core/list.h"
#include "core/log.h"
#include "game/commands.h"
#include "net/server.h"

typedef struct rcon_client {
    admin_peer peer; /* first: socket, address, output, list link */
    uint8_t key[16];
    uint8_t in[RCON_MAX_LENGTH + 4];
    size_t in_len;
    bool authed, closing, writing;
    int64_t deadline_ms; /* login deadline, then the idle deadline */
} rcon_client;

static struct {
    loop_watch w;
    int fd;
    uint8_t pw_hash[SHA256_DIGEST_LENGTH];
    struct rcon_limiter lim;
    admin_peers peers;      /* the clients; closed ones freed by rcon_pass */
    int64_t blocked_log_ms; /* rate limit for "refused: blocked" lines */
} rcon = {.fd = -1, .peers = ADMIN_PEERS_INIT(rcon.peers)};

static void client_close(rcon_client *c)
{
    admin_peer_close(&rcon.peers, &c->peer);
}

static void client_flush(rcon_client *c)
{
    while (c->peer.out.len) {
        ssize_t n = send(c->peer.fd, c->peer.out.data, c->peer.out.len, MSG_NOSIGNAL);
        if (n > 0) {
            buf_consume(&c->peer.out, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        client_close(c);
        return;
    }
    if (!c->peer.out.len && c->closing) {
        client_close(c);
        return;
    }
    bool want = c->peer.out.len > 0;
    if (want != c->writing) {
        c->writing = want;
        loop_watch_mod(srv->loop, &c->peer.w, EPOLLIN | (want ? EPOLLOUT : 0));
    }
}

static void auth_failure(rcon_client *c)
{
    rcon_encode(&c->peer.out, -1, RCON_AUTH_RESPONSE, "", 0);
    admin_stats.rcon_auth_failures++;
    c->closing = true;
}

static void login(rcon_client *c, const struct rcon_packet *p)
{
    int64_t now = srv->loop->now_ms;
    enum rcon_verdict v = rcon_limiter_check(&rcon.lim, c->key, now);
    if (v != RCON_OK) {
        log_warn("RCON: login from %s refused unchecked: %s after repeated wrong passwords",
                 c->peer.addr, v == RCON_BLOCKED ? "the address is blocked" : "backing off");
        auth_failure(c);
        return;
    }
    uint8_t got[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)p->body, p->body_len, got);
    bool ok = p->body_len > 0 && CRYPTO_memcmp(got, rcon.pw_hash, sizeof got) == 0;
    OPENSSL_cleanse(got, sizeof got);
    if (!ok) {
        int fails = rcon_limiter_fail(&rcon.lim, c->key, now);
        log_warn("RCON: wrong password from %s (%d in a row%s)", c->peer.addr, fails,
                 fails >= RCON_BLOCK_AFTER  ? "; the address is blocked for an hour"
                 : fails >= RCON_FREE_TRIES ? "; backing off"
                                            : "");
        auth_failure(c);
        return;
    }
    rcon_limiter_ok(&rcon.lim, c->key);
    c->authed = true;
    c->deadline_ms = now + RCON_IDLE_MS;
    admin_stats.rcon_logins++;
    rcon_encode(&c->peer.out, p->id, RCON_AUTH_RESPONSE, "", 0);
    log_info("RCON: %s logged in", c->peer.addr);
}

static void command(rcon_client *c, const struct rcon_packet *p)
{
    c->deadline_ms = srv->loop->now_ms + RCON_IDLE_MS;
    admin_stats.rcon_commands++;
    log_info("[RCON %s] %.*s", c->peer.addr, (int)(p->body_len < 1024 ? p->body_len : 1024),
             p->body);
    buf_t text;
    buf_init(&text, RCON_CAPTURE_MAX);
    cmd_run_capture(p->body, p->body_len, "Rcon", &text);
    if (text.failed) { /* keep what fit, and say so */
        static const char cut[] = "\n(output truncated)";
        text.failed = 0;
        if (text.len > RCON_CAPTURE_MAX - sizeof cut) text.len = RCON_CAPTURE_MAX - sizeof cut;
        buf_append(&text, cut, sizeof cut - 1);
    }
    rcon_encode_response(&c->peer.out, p->id, text.len ? (const char *)text.data : "", text.len);
    buf_free(&text);
}

static void handle(rcon_client *c, const struct rcon_packet *p)
{
    if (p->type == RCON_AUTH) {
        login(c, p);
    } else if (!c->authed) {
        auth_failure(c);
    } else if (p->type == RCON_COMMAND) {
        command(c, p);
    } else {
        char msg[48];
        int n = snprintf(msg, sizeof msg, "Unknown request %x", (unsigned)p->type);
        rcon_encode_response(&c->peer.out, p->id, msg, (size_t)n);
    }
}

static void client_read(rcon_client *c)
{
    for (int rounds = 0; rounds < 8 && !c->peer.closed && !c->closing; rounds++) {
        size_t room = sizeof c->in - c->in_len;
        ssize_t n = recv(c->peer.fd, c->in + c->in_len, room, 0);
        if (n == 0) {
            client_close(c);
            return;
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) client_close(c);
            return;
        }
        c->in_len += (size_t)n;
        size_t off = 0;
        while (!c->closing && !c->peer.closed) {
            struct rcon_packet p;
            long used = rcon_decode(c->in + off, c->in_len - off, &p);
            if (used == 0) break;
            if (used < 0) {
                log_warn("RCON: %s sent a malformed packet (length %u); closed", c->peer.addr,
                         (unsigned)(c->in[off] | c->in[off + 1] << 8 | c->in[off + 2] << 16 |
                                    (unsigned)c->in[off + 3] << 24));
                client_close(c);
                return;
            }
            handle(c, &p);
            off += (size_t)used;
            if (c->peer.out.failed) {
                log_warn("RCON: %s is not reading its output; closed", c->peer.addr);
                client_close(c);
                return;
            }
        }
        memmove(c->in, c->in + off, c->in_len - off);
        c->in_len -= off;
    }
}

static void client_event(loop_watch *w, uint32_t events)
{
    rcon_client *c = (rcon_client *)w;
    if (c->peer.closed) return;
    if (events & EPOLLERR) {
        client_close(c);
        return;
    }
    if (events & (EPOLLIN | EPOLLHUP)) client_read(c);
    if (!c->peer.closed) client_flush(c);
}

static void accept_event(loop_watch *w, uint32_t events)
{
    (void)w;
    (void)events;
    for (int i = 0; i < 16; i++) {
        struct sockaddr_storage ss;
        int fd = admin_accept(rcon.fd, "RCON", &ss);
        if (fd < 0) return;
        char addr[ADDR_TEXT_MAX], ip[ADDR_IP_MAX];
        uint8_t key[16];
        addr_text((struct sockaddr *)&ss, addr, sizeof addr);
        addr_ip((struct sockaddr *)&ss, ip, sizeof ip);
        if (rcon_limiter_key(ip, key) == 0 &&
            rcon_limiter_check(&rcon.lim, key, srv->loop->now_ms) == RCON_BLOCKED) {
            admin_stats.rcon_refused++;
            if (srv->loop->now_ms - rcon.blocked_log_ms > 10000) {
                log_warn("RCON: refusing %s: blocked after repeated wrong passwords", addr);
                rcon.blocked_log_ms = srv->loop->now_ms;
            }
            close(fd);
            continue;
        }
        if (rcon.peers.count >= RCON_MAX_CLIENTS) {
            admin_stats.rcon_refused++;
            log_warn("RCON: refusing %s: %d clients connected (the limit)", addr, RCON_MAX_CLIENTS);
            close(fd);
            continue;
        }
        rcon_client *c = (rcon_client *)admin_peer_new(&rcon.peers, sizeof *c, fd, addr,
                                                       RCON_OUT_MAX, client_event, EPOLLIN);
        if (!c) continue;
        memcpy(c->key, key, 16);
        c->deadline_ms = srv->loop->now_ms + RCON_AUTH_MS;
        log_debug("RCON: %s connected", addr);
    }
}

void rcon_pass(int64_t now_ms)
{
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &rcon.peers.live) {
        rcon_client *c = (rcon_client *)list_entry(n, admin_peer, link);
        if (now_ms < c->deadline_ms) continue;
        log_info("RCON: %s closed: %s", c->peer.addr,
                 c->authed ? "idle for 10 minutes" : "no login within 5 s");
        client_close(c);
    }
    admin_peers_free_closed(&rcon.peers);
}

int rcon_start(const struct server_config *cfg)
{
    if (!cfg->enable_rcon) return 0;
    if (!cfg->rcon_password[0]) {
        log_warn("No rcon password set in server.properties, rcon disabled!");
        return 0;
    }
    if (strlen(cfg->rcon_password) < 12)
        log_warn("RCON: rcon.password is short (%zu characters); anyone who can reach port %d "
                 "can guess it. Use a long random password and keep the port private",
                 strlen(cfg->rcon_password), cfg->rcon_port);
    rcon.fd = admin_listen("RCON", cfg->server_ip, cfg->rcon_port, SOCK_STREAM);
    if (rcon.fd < 0) return -1;
    SHA256((const unsigned char *)cfg->rcon_password, strlen(cfg->rcon_password), rcon.pw_hash);
    rcon.w.on_event = accept_event;
    if (loop_watch_add(srv->loop, &rcon.w, rcon.fd, EPOLLIN) < 0) {
        close(rcon.fd);
        rcon.fd = -1;
        return -1;
    }
    const char *ip = cfg->server_ip[0] ? cfg->server_ip : "0.0.0.0";
    log_info("RCON running on %s:%d", ip, cfg->rcon_port);
    if (!admin_is_loopback(ip))
        log_warn("RCON listens on %s: firewall port %d so that only you can reach it (RCON is "
                 "plain text; see docs/operations.md)",
                 ip, cfg->rcon_port);
    return 0;
}

void rcon_stop(void)
{
    for (admin_peer *p; (p = admin_peer_first(&rcon.peers));) {
        rcon_client *c = (rcon_client *)p;
        client_flush(c); /* a last reply (e.g. to "stop"), if the socket takes it */
        if (!c->peer.closed) client_close(c);
    }
    if (rcon.fd >= 0) {
        loop_watch_del(srv->loop, &rcon.w);
        close(rcon.fd);
        rcon.fd = -1;
    }
    OPENSSL_cleanse(rcon.pw_hash, sizeof rcon.pw_hash);
    rcon_pass(0);
}
