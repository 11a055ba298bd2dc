/*
 * query_packet.c — see query_packet.h. Pure apart from the HMAC: no I/O,
 * no globals; all state is the caller's struct query_state.
 */
#include "admin/query_packet.h"

#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <string.h>

/* The sender's address bytes (IPv6 keeps the port: the token binds both). */
static size_t query_addr_bytes(const struct sockaddr *from, socklen_t fromlen, uint8_t out[20])
{
    const void *ip, *port;
    size_t n;
    if (from->sa_family == AF_INET && fromlen >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)from;
        ip = &a->sin_addr, port = &a->sin_port, n = 4;
    } else if (from->sa_family == AF_INET6 && fromlen >= (socklen_t)sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)from;
        ip = &a->sin6_addr, port = &a->sin6_port, n = 16;
    } else {
        return 0;
    }
    out[0] = n == 4 ? 4 : 6;
    memcpy(out + 1, ip, n);
    memcpy(out + 1 + n, port, 2);
    return n + 3;
}

int32_t query_token(const struct query_state *st, const struct sockaddr *from, socklen_t fromlen,
                    int64_t epoch)
{
    uint8_t msg[28];
    size_t n = query_addr_bytes(from, fromlen, msg);
    for (int i = 0; i < 8; i++) msg[n + (size_t)i] = (uint8_t)((uint64_t)epoch >> (8 * i));
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mlen = 0;
    HMAC(EVP_sha256(), st->secret, sizeof st->secret, msg, n + 8, mac, &mlen);
    return (int32_t)(((uint32_t)mac[0] << 24 | (uint32_t)mac[1] << 16 | (uint32_t)mac[2] << 8 |
                      mac[3]) &
                     0x7fffffffu);
}

/* Rate-limit key: IPv4 address, or the IPv6 /64 (one host usually has a whole /64). */
static void query_source_key(const struct sockaddr *from, uint8_t key[16])
{
    memset(key, 0, 16);
    if (from->sa_family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *)from)->sin_addr, 4);
        key[15] = 4;
    } else {
        memcpy(key, &((const struct sockaddr_in6 *)from)->sin6_addr, 8);
        key[15] = 6;
    }
}

static bool take(double *tokens, int64_t *last, int64_t now, double rate, double burst)
{
    double dt = (double)(now - *last) / 1000.0;
    if (dt > 0) {
        *tokens += dt * rate;
        if (*tokens > burst) *tokens = burst;
        *last = now;
    }
    if (*tokens < 1) return false;
    *tokens -= 1;
    return true;
}

/* Per-source and global token buckets (invariant 3). */
static bool query_allowed(struct query_state *st, const struct sockaddr *from, int64_t now)
{
    uint8_t key[16];
    query_source_key(from, key);
    uint32_t h = 2166136261u;
    for (int i = 0; i < 16; i++) h = (h ^ key[i]) * 16777619u;
    struct query_bucket *b = NULL, *oldest = NULL;
    for (int k = 0; k < 8 && !b; k++) {
        struct query_bucket *s = &st->bucket[(h + (uint32_t)k) % QUERY_SOURCES];
        if (s->used && memcmp(s->key, key, 16) == 0)
            b = s;
        else if (!oldest || !s->used || (oldest->used && s->last_ms < oldest->last_ms))
            oldest = s;
    }
    if (!b) {
        b = oldest;
        memset(b, 0, sizeof *b);
        memcpy(b->key, key, 16);
        b->used = true;
        b->tokens = QUERY_BURST;
        b->last_ms = now;
    }
    if (!st->global_ms) {
        st->global_tokens = QUERY_GLOBAL_RATE;
        st->global_ms = now;
    }
    if (!take(&b->tokens, &b->last_ms, now, QUERY_RATE, QUERY_BURST)) return false;
    return take(&st->global_tokens, &st->global_ms, now, QUERY_GLOBAL_RATE, QUERY_GLOBAL_RATE);
}

/* A bounded writer: strings are NUL-terminated; ok turns false once full. */
struct qw {
    uint8_t *p;
    size_t len, cap;
    bool ok;
};

static void qw_bytes(struct qw *w, const void *d, size_t n)
{
    if (!w->ok || n > w->cap - w->len) {
        w->ok = false;
        return;
    }
    memcpy(w->p + w->len, d, n);
    w->len += n;
}

static void qw_str(struct qw *w, const char *s)
{
    qw_bytes(w, s, strlen(s) + 1);
}

static void qw_int(struct qw *w, long v)
{
    char t[24];
    snprintf(t, sizeof t, "%ld", v);
    qw_str(w, t);
}

static size_t basic_stat(const struct query_info *in, const uint8_t sid[4], uint8_t *out,
                         size_t cap)
{
    struct qw w = {out, 0, cap, true};
    qw_bytes(&w, "\x00", 1);
    qw_bytes(&w, sid, 4);
    qw_str(&w, in->motd);
    qw_str(&w, "SMP");
    qw_str(&w, in->map);
    qw_int(&w, in->numplayers);
    qw_int(&w, in->maxplayers);
    uint8_t port[2] = {(uint8_t)in->hostport, (uint8_t)(in->hostport >> 8)};
    qw_bytes(&w, port, 2);
    qw_str(&w, in->hostip);
    return w.ok ? w.len : 0;
}

static size_t full_stat(const struct query_info *in, uint8_t *out, size_t cap)
{
    struct qw w = {out, 0, cap, true};
    qw_bytes(&w, "\x00\x00\x00\x00\x00", 5); /* type, session id (rewritten per reply) */
    qw_bytes(&w, "splitnum\x00\x80\x00", 11);
    const char *kv[] = {"hostname", in->motd,    "gametype", "SMP",       "game_id", "MINECRAFT",
                        "version",  in->version, "plugins",  in->plugins, "map",     in->map};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) qw_str(&w, kv[i]);
    qw_str(&w, "numplayers");
    qw_int(&w, in->numplayers);
    qw_str(&w, "maxplayers");
    qw_int(&w, in->maxplayers);
    qw_str(&w, "hostport");
    qw_int(&w, in->hostport);
    qw_str(&w, "hostip");
    qw_str(&w, in->hostip);
    qw_bytes(&w, "\x00\x01player_\x00\x00", 11); /* end of the pairs, the player section */
    if (!w.ok) return 0;
    for (size_t i = 0; in->players && i < in->nplayers; i++) {
        size_t n = strlen(in->players[i]) + 1;
        if (n + 1 > w.cap - w.len) break; /* keep room for the final NUL */
        qw_bytes(&w, in->players[i], n);
    }
    qw_bytes(&w, "\x00", 1);
    return w.ok ? w.len : 0;
}

size_t query_handle(struct query_state *st, const uint8_t *p, size_t n, const struct sockaddr *from,
                    socklen_t fromlen, int64_t now_ms, query_info_fn info, void *arg, uint8_t *out,
                    size_t cap)
{
    uint8_t addr[20];
    if (n < 7 || p[0] != 0xFE || p[1] != 0xFD || cap < 32) return 0;
    if (!query_addr_bytes(from, fromlen, addr)) return 0;
    uint8_t type = p[2];
    const uint8_t *sid = p + 3;
    if (type == 9) {
        if (n > 15) return 0;
    } else if (type == 0) {
        if (n != 11 && n != 15) return 0;
        if (n == 15 && memcmp(p + 11, "\0\0\0\0", 4) != 0) return 0;
    } else {
        return 0;
    }
    if (!query_allowed(st, from, now_ms)) return 0;
    int64_t epoch = now_ms / QUERY_EPOCH_MS;
    if (type == 9) {
        out[0] = 9;
        memcpy(out + 1, sid, 4);
        int len =
            snprintf((char *)out + 5, cap - 5, "%d", (int)query_token(st, from, fromlen, epoch));
        return 5 + (size_t)len + 1; /* with the NUL snprintf wrote */
    }
    int32_t tok =
        (int32_t)((uint32_t)p[7] << 24 | (uint32_t)p[8] << 16 | (uint32_t)p[9] << 8 | p[10]);
    if (tok != query_token(st, from, fromlen, epoch) &&
        tok != query_token(st, from, fromlen, epoch - 1))
        return 0;
    if (n == 11) {
        struct query_info in;
        memset(&in, 0, sizeof in);
        info(&in, arg);
        return basic_stat(&in, sid, out, cap);
    }
    if (!st->full_len || now_ms - st->full_ms >= QUERY_CACHE_MS || st->full_ms > now_ms) {
        struct query_info in;
        memset(&in, 0, sizeof in);
        info(&in, arg);
        st->full_len = full_stat(&in, st->full, sizeof st->full);
        st->full_ms = now_ms;
    }
    if (!st->full_len || st->full_len > cap) return 0;
    memcpy(out, st->full, st->full_len);
    memcpy(out + 1, sid, 4);
    return st->full_len;
}
