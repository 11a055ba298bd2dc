/*
 * rcon.c — see rcon.h: the listener and the clients. The codec is
 * admin/rcon_packet.c, the wrong-password limiter admin/rcon_limiter.c.
 */
#include "admin/rcon.h"

#include <errno.h>
#include <stddef.h>
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
    int64_t packet_ms;   /* first byte of a packet not yet complete; 0 none */
    int64_t held_until;  /* a wrong password's answer is held back until then; 0 none */
    cmd_later later;     /* an answer due later (save-all): input waits for it */
    int32_t later_id;    /* the request id it answers */
} rcon_client;

static int64_t idle_since(const admin_peer *p, int64_t now_ms);

static struct {
    loop_watch w;
    int fd;
    uint8_t pw_hash[SHA256_DIGEST_LENGTH];
    struct rcon_limiter lim;
    admin_peers peers; /* the clients; closed ones freed by rcon_pass */
} rcon = {.fd = -1,
          .peers = ADMIN_PEERS_INIT(rcon.peers, "RCON", RCON_MAX_CLIENTS, RCON_MAX_PER_ADDRESS,
                                    idle_since, &admin_stats.rcon)};

/* Lines a peer can cause (core/log.h invariant 5). */
static log_kind k_wrong = LOG_KIND, k_malformed = LOG_KIND, k_deadline = LOG_KIND;
static log_kind k_not_reading = LOG_KIND;

/* admin.h invariant 3: a client that has not logged in may be evicted, a
 * held-back wrong password first; a logged-in session never is. */
static int64_t idle_since(const admin_peer *p, int64_t now_ms)
{
    (void)now_ms;
    const rcon_client *c = (const rcon_client *)p;
    if (c->authed) return 0;
    if (c->held_until || c->closing) return 1;
    return p->opened_ms ? p->opened_ms : 1;
}

static void client_close(rcon_client *c)
{
    cmd_later_cancel(&c->later);
    admin_peer_close(&rcon.peers, &c->peer);
}

/* Input is read only while no answer is due: RCON answers in order. */
static uint32_t client_events(const rcon_client *c)
{
    return (c->later.pending ? 0 : EPOLLIN) | (c->writing ? EPOLLOUT : 0);
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
        loop_watch_mod(srv->loop, &c->peer.w, client_events(c));
    }
}

static void auth_failure(rcon_client *c)
{
    rcon_encode(&c->peer.out, -1, RCON_AUTH_RESPONSE, "", 0);
    admin_stats.rcon_auth_failures++;
    c->closing = true;
}

/* Invariants 2 and 3: every attempt is checked; a wrong one may have its
 * answer held back, a right one never. */
static void login(rcon_client *c, const struct rcon_packet *p)
{
    int64_t now = srv->loop->now_ms;
    uint8_t got[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)p->body, p->body_len, got);
    bool ok = p->body_len > 0 && CRYPTO_memcmp(got, rcon.pw_hash, sizeof got) == 0;
    OPENSSL_cleanse(got, sizeof got);
    if (!ok) {
        int fails;
        int64_t hold = rcon_limiter_fail(&rcon.lim, c->key, now, &fails);
        if (hold > 0) {
            log_limited(&k_wrong, LOG_WARN,
                        "RCON: wrong password from %s (%d in a row from this address; answered "
                        "after %lld ms)",
                        c->peer.addr, fails, (long long)hold);
            admin_stats.rcon_auth_failures++;
            c->held_until = now + hold; /* rcon_pass answers it then */
            return;
        }
        log_limited(&k_wrong, LOG_WARN, "RCON: wrong password from %s (%d in a row)", c->peer.addr,
                    fails);
        auth_failure(c);
        return;
    }
    c->authed = true;
    c->deadline_ms = now + RCON_IDLE_MS;
    admin_stats.rcon_logins++;
    rcon_encode(&c->peer.out, p->id, RCON_AUTH_RESPONSE, "", 0);
    int fails = rcon_limiter_fails(&rcon.lim, c->key, now);
    if (fails)
        log_info("RCON: %s logged in (its address has %d recent wrong passwords)", c->peer.addr,
                 fails);
    else
        log_info("RCON: %s logged in", c->peer.addr);
}

static void answer(rcon_client *c, int32_t id, buf_t *text)
{
    if (text->failed) { /* keep what fit, and say so */
        static const char cut[] = "\n(output truncated)";
        text->failed = 0;
        if (text->len > RCON_CAPTURE_MAX - sizeof cut) text->len = RCON_CAPTURE_MAX - sizeof cut;
        buf_append(text, cut, sizeof cut - 1);
    }
    rcon_encode_response(&c->peer.out, id, text->len ? (const char *)text->data : "", text->len);
}

static void client_parse(rcon_client *c);

/* A deferred answer is ready (cmd_later): it goes out, then the input that
 * waited is read. */
static void answer_later(cmd_later *l, const char *text, size_t len)
{
    rcon_client *c = (rcon_client *)((char *)l - offsetof(rcon_client, later));
    buf_t t;
    buf_init(&t, RCON_CAPTURE_MAX);
    buf_append(&t, text, len);
    answer(c, c->later_id, &t);
    buf_free(&t);
    c->deadline_ms = srv->loop->now_ms + RCON_IDLE_MS;
    client_parse(c);
    if (!c->peer.closed) {
        loop_watch_mod(srv->loop, &c->peer.w, client_events(c));
        client_flush(c);
    }
}

static void command(rcon_client *c, const struct rcon_packet *p)
{
    c->deadline_ms = srv->loop->now_ms + RCON_IDLE_MS;
    admin_stats.rcon_commands++;
    log_info("[RCON %s] %.*s", c->peer.addr, (int)(p->body_len < 1024 ? p->body_len : 1024),
             p->body);
    buf_t text;
    buf_init(&text, RCON_CAPTURE_MAX);
    cmd_run_capture_later(p->body, p->body_len, "Rcon", &text, &c->later);
    if (c->later.pending) { /* answered by answer_later; input waits */
        c->later_id = p->id;
        loop_watch_mod(srv->loop, &c->peer.w, client_events(c));
    } else {
        answer(c, p->id, &text);
    }
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

/* Answers the complete packets in c->in, in order, until one defers its
 * answer; keeps the rest. */
static void client_parse(rcon_client *c)
{
    size_t off = 0;
    while (!c->closing && !c->peer.closed && !c->held_until && !c->later.pending) {
        struct rcon_packet p;
        long used = rcon_decode(c->in + off, c->in_len - off, &p);
        if (used == 0) break;
        if (used < 0) {
            log_limited(&k_malformed, LOG_WARN,
                        "RCON: %s sent a malformed packet (length %u); closed", c->peer.addr,
                        (unsigned)(c->in[off] | c->in[off + 1] << 8 | c->in[off + 2] << 16 |
                                   (unsigned)c->in[off + 3] << 24));
            client_close(c);
            return;
        }
        handle(c, &p);
        off += (size_t)used;
        if (c->peer.out.failed) {
            log_limited(&k_not_reading, LOG_WARN, "RCON: %s is not reading its output; closed",
                        c->peer.addr);
            client_close(c);
            return;
        }
    }
    if (c->held_until || c->peer.closed) return;
    memmove(c->in, c->in + off, c->in_len - off);
    c->in_len -= off;
    /* RCON_READ_MS from the first byte of a packet to its last (not while
     * the packet waits for an earlier answer). */
    if (!c->in_len || c->later.pending)
        c->packet_ms = 0;
    else if (off || !c->packet_ms)
        c->packet_ms = srv->loop->now_ms;
}

static void client_read(rcon_client *c)
{
    for (int rounds = 0; rounds < 8 && !c->peer.closed && !c->closing && !c->later.pending;
         rounds++) {
        if (c->held_until) { /* input while an answer is held back is dropped */
            c->in_len = 0;
            c->packet_ms = 0;
        }
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
        if (c->held_until) continue;
        c->in_len += (size_t)n;
        client_parse(c);
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
    /* A few per event, fewer than one address's cap: clients accepted in
     * this pass are read before a later batch can evict them. */
    for (int i = 0; i < RCON_MAX_PER_ADDRESS / 4; i++) {
        struct sockaddr_storage ss;
        char addr[ADDR_TEXT_MAX], ip[ADDR_IP_MAX];
        int fd = admin_accept_admitted(rcon.fd, &rcon.peers, &ss, addr, ip);
        if (fd < 0) return;
        rcon_client *c = (rcon_client *)admin_peer_new(&rcon.peers, sizeof *c, fd, addr, ip,
                                                       RCON_OUT_MAX, client_event, EPOLLIN);
        if (!c) continue;
        if (rcon_limiter_key(ip, c->key) < 0) memset(c->key, 0, sizeof c->key);
        c->later.done = answer_later;
        c->deadline_ms = srv->loop->now_ms + RCON_AUTH_MS;
        log_debug("RCON: %s connected", addr);
        /* A client sends its login with its first bytes: read it now
         * (admin.h invariant 3). */
        client_event(&c->peer.w, EPOLLIN);
    }
}

void rcon_pass(int64_t now_ms)
{
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &rcon.peers.live) {
        rcon_client *c = (rcon_client *)list_entry(n, admin_peer, link);
        if (c->held_until) {
            if (now_ms < c->held_until) continue;
            c->held_until = 0;
            rcon_encode(&c->peer.out, -1, RCON_AUTH_RESPONSE, "", 0);
            c->closing = true;
            client_flush(c);
            continue;
        }
        const char *why = NULL;
        if (now_ms >= c->deadline_ms)
            why = c->authed ? "idle for 10 minutes" : "no login within 5 s";
        else if (c->packet_ms && now_ms - c->packet_ms >= RCON_READ_MS)
            why = "a packet not finished within 5 s";
        if (!why) continue;
        admin_stats.rcon.timed_out++;
        log_limited(&k_deadline, LOG_INFO, "RCON: %s closed: %s", c->peer.addr, why);
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
