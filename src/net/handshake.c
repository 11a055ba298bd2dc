/*
 * handshake.c — the states before PLAY: Handshake, Status (server list ping,
 * including the legacy 0xFE ping) and Login: offline, online (encryption
 * and the session-server check) and behind a proxy (Velocity modern
 * forwarding, BungeeCord legacy forwarding, the PROXY protocol header).
 * The login state diagram is above login_init.
 *
 * Invariants:
 *  1. Status is answered whatever protocol number the handshake carries;
 *     one status request and one ping per connection, then it is closed.
 *  2. Login accepts only protocol 763; any other gets a disconnect that
 *     names the version we speak.
 *  3. Offline names are 3..16 characters of [A-Za-z0-9_]; names that a
 *     session server or proxy vouches for 1..16 of the same; anything else
 *     is refused before it reaches a log line or another player.
 *  4. Every refusal is logged with the reason and sent to the client as a
 *     login disconnect (vanilla's wording where vanilla has one).
 *  5. Once the identity is settled, the checks run in vanilla's order
 *     (PlayerList.canPlayerLogin): banned, not whitelisted (operators pass),
 *     IP banned, server full (operators with bypassesPlayerLimit pass);
 *     only then may the login kick an older session of the same player.
 */
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/packet_ids.h"
#include "data/version.h"
#include "game/lists.h"
#include "game/ops.h"
#include "game/packets.h"
#include "net/auth.h"
#include "net/proxy.h"
#include "net/server.h"
#include "proto/crypto.h"

#define STATUS_SAMPLE_MAX 12
#define FAVICON_MAX_BYTES (256u << 10)

void json_append_string(buf_t *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    buf_lit(b, "\"");
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            buf_append(b, e, 2);
        } else if (c < 0x20 || c == 0x7f) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buf_append(b, e, 6);
        } else {
            buf_append(b, &c, 1);
        }
    }
    buf_lit(b, "\"");
}

/* ---------------------------------------------------------------- status */

void status_invalidate(void)
{
    free(srv->status_json);
    srv->status_json = NULL;
}

static const char *status_json(void)
{
    if (srv->status_json) return srv->status_json;
    buf_t b;
    buf_init(&b, 1u << 20);
    char tmp[160];
    snprintf(tmp, sizeof tmp,
             "{\"version\":{\"name\":\"%s\",\"protocol\":%d},\"players\":{\"max\":%d,"
             "\"online\":%zu,\"sample\":[",
             MC_VERSION_NAME, MC_PROTOCOL_VERSION, srv->cfg.max_players, srv->player_count);
    buf_append(&b, tmp, strlen(tmp));
    if (!srv->cfg.hide_online_players) {
        for (size_t i = 0; i < srv->player_count && i < STATUS_SAMPLE_MAX; i++) {
            player *p = srv->players[i]->player;
            char id[37];
            uuid_format(&p->uuid, id);
            if (i) buf_lit(&b, ",");
            buf_lit(&b, "{\"name\":");
            json_append_string(&b, p->name, strlen(p->name));
            snprintf(tmp, sizeof tmp, ",\"id\":\"%s\"}", id);
            buf_append(&b, tmp, strlen(tmp));
        }
    }
    buf_lit(&b, "]},\"description\":{\"text\":");
    json_append_string(&b, srv->cfg.motd, strlen(srv->cfg.motd));
    buf_lit(&b, "}");
    if (srv->favicon) {
        buf_lit(&b, ",\"favicon\":\"");
        buf_append(&b, srv->favicon, strlen(srv->favicon));
        buf_lit(&b, "\"");
    }
    buf_lit(&b, ",\"enforcesSecureChat\":false,\"previewsChat\":false}");
    buf_append(&b, "", 1);
    if (b.failed) {
        buf_free(&b);
        return "{}";
    }
    srv->status_json = (char *)b.data; /* ownership moves to the cache */
    return srv->status_json;
}

int status_load_favicon(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0; /* no icon is normal */
    uint8_t *png = malloc(FAVICON_MAX_BYTES + 1);
    size_t n = png ? fread(png, 1, FAVICON_MAX_BYTES + 1, f) : 0;
    fclose(f);
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const char *why = NULL;
    if (!png)
        why = "out of memory";
    else if (n > FAVICON_MAX_BYTES)
        why = "larger than 256 KiB";
    else if (n < 24 || memcmp(png, sig, 8) != 0 || memcmp(png + 12, "IHDR", 4) != 0)
        why = "not a PNG file";
    else {
        uint32_t w = (uint32_t)png[16] << 24 | (uint32_t)png[17] << 16 | png[18] << 8 | png[19];
        uint32_t h = (uint32_t)png[20] << 24 | (uint32_t)png[21] << 16 | png[22] << 8 | png[23];
        if (w != 64 || h != 64) why = "not 64x64 pixels";
    }
    if (why) {
        log_warn("%s: %s; the server list will show no icon", path, why);
        free(png);
        return -1;
    }
    static const char prefix[] = "data:image/png;base64,";
    size_t cap = sizeof prefix + 4 * ((n + 2) / 3) + 1;
    char *out = malloc(cap);
    if (!out) {
        free(png);
        return -1;
    }
    memcpy(out, prefix, sizeof prefix - 1);
    EVP_EncodeBlock((unsigned char *)out + sizeof prefix - 1, png, (int)n);
    free(png);
    free(srv->favicon);
    srv->favicon = out;
    log_info("loaded %s for the server list", path);
    return 0;
}

void status_dispatch(conn *c, int32_t id, rd_t *r)
{
    if (id == PKT_STATUS_SB_PING_START && c->status_step == 0 && rd_left(r) == 0) {
        if (!srv->cfg.enable_status) {
            conn_drop(c, NULL);
            return;
        }
        const char *json = status_json();
        buf_t *b = pkt_begin(0x00);
        wr_string(b, json, strlen(json));
        conn_send_pkt(c);
        c->status_step = 1;
        return;
    }
    if (id == PKT_STATUS_SB_PING && rd_left(r) == 8) {
        int64_t payload = rd_i64(r);
        buf_t *b = pkt_begin(0x01);
        wr_i64(b, payload);
        conn_send_pkt(c);
        c->status_step = 2;
        conn_kick(c, "status answered");
        return;
    }
    conn_drop(c, "unexpected packet in status state");
}

/* Appends s as UTF-16BE; returns the number of UTF-16 units. */
static size_t put_utf16(buf_t *b, const char *s)
{
    size_t units = 0;
    const uint8_t *p = (const uint8_t *)s;
    while (*p) {
        uint32_t cp = *p;
        int n = 1;
        if ((*p & 0xE0) == 0xC0 && p[1])
            cp = (uint32_t)(*p & 0x1F) << 6 | (p[1] & 0x3F), n = 2;
        else if ((*p & 0xF0) == 0xE0 && p[1] && p[2])
            cp = (uint32_t)(*p & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F), n = 3;
        else if ((*p & 0xF8) == 0xF0 && p[1] && p[2] && p[3])
            cp = (uint32_t)(*p & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
                 (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F),
            n = 4;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            wr_u16(b, (uint16_t)(0xD800 + (cp >> 10)));
            wr_u16(b, (uint16_t)(0xDC00 + (cp & 0x3FF)));
            units += 2;
        } else {
            wr_u16(b, (uint16_t)cp);
            units++;
        }
        p += n;
    }
    return units;
}

long legacy_ping(conn *c, const uint8_t *p, size_t len)
{
    /* Pre-1.4 clients send FE alone; 1.4-1.6 send FE 01 [FA ...]. */
    bool modern = len >= 2 && p[1] == 0x01;
    char text[1024];
    char motd[600];
    /* The legacy formats cannot carry newlines or the separators. */
    size_t m = 0;
    for (const char *s = srv->cfg.motd; *s && m < sizeof motd - 1; s++)
        motd[m++] = (*s == '\n') ? ' ' : *s;
    motd[m] = 0;
    buf_t b;
    buf_init(&b, 8192);
    wr_u8(&b, 0xFF);
    wr_u16(&b, 0); /* length, patched below */
    size_t units;
    if (modern) {
        /* "§1\0<protocol>\0<version>\0<motd>\0<online>\0<max>" */
        units = put_utf16(&b, "\xc2\xa7"
                              "1");
        wr_u16(&b, 0);
        snprintf(text, sizeof text, "%d", 127);
        units += put_utf16(&b, text) + 1;
        wr_u16(&b, 0);
        units += put_utf16(&b, MC_VERSION_NAME) + 1;
        wr_u16(&b, 0);
        units += put_utf16(&b, motd) + 1;
        wr_u16(&b, 0);
        snprintf(text, sizeof text, "%zu", srv->player_count);
        units += put_utf16(&b, text) + 1;
        wr_u16(&b, 0);
        snprintf(text, sizeof text, "%d", srv->cfg.max_players);
        units += put_utf16(&b, text) + 1;
    } else {
        snprintf(text, sizeof text, "%s\xc2\xa7%zu\xc2\xa7%d", motd, srv->player_count,
                 srv->cfg.max_players);
        units = put_utf16(&b, text);
    }
    if (!b.failed) {
        b.data[1] = (uint8_t)(units >> 8);
        b.data[2] = (uint8_t)units;
        conn_send_raw(c, b.data, b.len);
    }
    buf_free(&b);
    conn_kick(c, "legacy server list ping answered");
    return (long)len;
}

/* ------------------------------------------------------------- handshake */

/* c->addr without the ":port" (the address forms accept_all writes). */
static void conn_ip(const conn *c, char *out, size_t cap)
{
    const char *colon = strrchr(c->addr, ':');
    size_t n = colon ? (size_t)(colon - c->addr) : strlen(c->addr);
    if (n >= cap) n = cap - 1;
    memcpy(out, c->addr, n);
    out[n] = 0;
}

/* Replaces c's address (and so every later log line and per-IP rule) with
 * one a proxy vouched for. port < 0 keeps the socket's port. */
static void adopt_address(conn *c, const char *ip, int port, const char *via)
{
    char old[sizeof c->addr];
    memcpy(old, c->addr, sizeof old);
    if (port < 0) {
        const char *colon = strrchr(old, ':');
        port = colon ? atoi(colon + 1) : 0;
    }
    snprintf(c->addr, sizeof c->addr, "%s:%d", ip, port);
    log_info("[%s] %s: the client is %s", old, via, c->addr);
}

void handshake_dispatch(conn *c, int32_t id, rd_t *r)
{
    if (id != PKT_HANDSHAKE_SB_SET_PROTOCOL) {
        conn_drop(c, "unexpected packet in handshake");
        return;
    }
    bool bungee = srv->cfg.forwarding_mode == FWD_BUNGEECORD;
    int32_t protocol = rd_varint(r);
    size_t hlen;
    const char *host = rd_string(r, bungee ? BUNGEE_HOST_MAX : 255, &hlen);
    rd_u16(r);
    int32_t next = rd_varint(r);
    if (r->err || rd_left(r) != 0) {
        conn_drop(c, "malformed handshake");
        return;
    }
    c->protocol = protocol;
    if (next == 1) {
        c->state = CS_STATUS;
    } else if (next == 2) {
        c->state = CS_LOGIN;
        if (bungee) {
            /* The refusal goes out as a login disconnect, as Spigot does. */
            mc_profile *prof = calloc(1, sizeof *prof);
            char ip[PROXY_IP_MAX], err[256];
            int rc = prof ? bungee_parse_host(host, hlen, srv->cfg.bungeeguard_token, ip, prof, err,
                                              sizeof err)
                          : BUNGEE_BAD;
            if (!prof) snprintf(err, sizeof err, "Server out of memory");
            if (rc != BUNGEE_OK) {
                log_warn("[%s] BungeeCord forwarding refused: %s", c->addr, err);
                free(prof);
                conn_kick(c, err);
                return;
            }
            adopt_address(c, ip, -1, "BungeeCord forwarding");
            c->profile = prof;
        } else if (bungee_looks_forwarded(host, hlen)) {
            log_warn("[%s] handshake carries BungeeCord IP forwarding, but forwarding-mode is "
                     "not bungeecord; refused",
                     c->addr);
            conn_kick(c, "This server does not accept BungeeCord IP forwarding");
        }
    } else {
        char why[64];
        snprintf(why, sizeof why, "handshake asks for unknown state %d", next);
        conn_drop(c, why);
    }
}

/* ----------------------------------------------------------------- login */

/*
 * Login, after Handshake(next=2) (and, with forwarding-mode=bungeecord, the
 * forwarded identity taken from the handshake host):
 *
 *   LS_START --Login Start--+--velocity--> [Login Plugin Request] LS_VELOCITY
 *                           |                --Plugin Response, HMAC ok--> finish
 *                           +--online-mode--> [Encryption Request] LS_KEY
 *                           |                --Encryption Response--> ciphers on,
 *                           |                  hasJoined queued --> LS_AUTH
 *                           |                  --auth thread answers OK--> finish
 *                           +--offline (or bungeecord)--> finish
 *   finish: duplicate-name kick, full check, [Set Compression], Login Success
 *           (UUID, name, properties) --> PLAY
 *   any other packet in any step: kicked ("Unexpected packet during login")
 *
 * Invariants:
 *  1. Who the player is (name, UUID, skin) is settled only in finish; before
 *     that nothing is kicked, announced or counted in their name, so an
 *     unauthenticated Login Start cannot knock an online player off.
 *  2. Once Encryption Response is accepted every later byte in both
 *     directions is encrypted, kicks included (conn_send_pkt does it).
 *  3. The verify token and the Velocity signature are compared in constant
 *     time; the shared secret is wiped from the stack after use.
 */

enum login_step { LS_START, LS_KEY, LS_AUTH, LS_VELOCITY };

#define VERIFY_TOKEN_SIZE 4

static const char unverified_json[] =
    "{\"translate\":\"multiplayer.disconnect.unverified_username\","
    "\"fallback\":\"Failed to verify username!\"}";
static const char authservers_down_json[] =
    "{\"translate\":\"multiplayer.disconnect.authservers_down\","
    "\"fallback\":\"Authentication servers are down. Please try again later, sorry!\"}";

static struct {
    mc_rsa rsa;               /* online mode only */
    uint8_t *velocity_secret; /* velocity mode only */
    size_t velocity_secret_len;
    int auth_fd;
} L = {.auth_fd = -1};

#define SECRET_FILE_MAX 4096

/* Reads Velocity's secret the way Velocity does: all lines joined, line
 * breaks dropped. -1 (logged) when missing, unreadable, too big or empty. */
static int load_velocity_secret(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        log_error("forwarding-mode=velocity: cannot read forwarding-secret-file '%s': %s; copy "
                  "Velocity's forwarding.secret there (docs/scaling.md)",
                  path, strerror(errno));
        return -1;
    }
    uint8_t *buf = malloc(SECRET_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, SECRET_FILE_MAX + 1, f) : 0;
    fclose(f);
    if (!buf || n > SECRET_FILE_MAX) {
        log_error("forwarding-mode=velocity: '%s' is larger than %d bytes; it should hold only "
                  "the forwarding secret",
                  path, SECRET_FILE_MAX);
        free(buf);
        return -1;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        if (buf[i] != '\r' && buf[i] != '\n') buf[o++] = buf[i];
    if (o == 0) {
        log_error("forwarding-mode=velocity: forwarding-secret-file '%s' is empty; copy "
                  "Velocity's forwarding.secret there (docs/scaling.md)",
                  path);
        free(buf);
        return -1;
    }
    L.velocity_secret = buf;
    L.velocity_secret_len = o;
    return 0;
}

int login_init(const struct server_config *cfg, int *auth_fd)
{
    *auth_fd = -1;
    if (cfg->online_mode) {
        if (mc_rsa_generate(&L.rsa, MC_RSA_BITS) < 0) {
            log_error("online-mode: cannot generate the RSA key pair");
            return -1;
        }
        L.auth_fd = auth_start(cfg->session_server);
        if (L.auth_fd < 0) return -1;
        *auth_fd = L.auth_fd;
        log_info("online-mode=true: players are verified with %s (this needs access to it)",
                 cfg->session_server);
    }
    switch (cfg->forwarding_mode) {
    case FWD_VELOCITY:
        if (load_velocity_secret(cfg->forwarding_secret_file) < 0) return -1;
        log_info("forwarding-mode=velocity: players come through Velocity (modern forwarding, "
                 "secret from %s); direct connections are refused",
                 cfg->forwarding_secret_file);
        break;
    case FWD_BUNGEECORD:
        log_warn("forwarding-mode=bungeecord: anyone who can reach port %d can log in under any "
                 "name and UUID. Firewall it so that only BungeeCord connects%s",
                 cfg->server_port,
                 cfg->bungeeguard_token[0] ? " (BungeeGuard token check on)"
                                           : ", or set bungeeguard-token");
        break;
    case FWD_NONE:
        if (!cfg->online_mode)
            log_warn("**** SERVER IS RUNNING IN OFFLINE/INSECURE MODE! Names are not verified: "
                     "anyone can join under any name. Set online-mode=true, or put the server "
                     "behind a proxy (docs/scaling.md).");
        break;
    }
    if (cfg->proxy_protocol)
        log_info("proxy-protocol=true: every connection must begin with a PROXY v1/v2 header "
                 "(HAProxy, a TCP load balancer); others are refused");
    return 0;
}

void login_free(void)
{
    auth_stop();
    L.auth_fd = -1;
    mc_rsa_free(&L.rsa);
    if (L.velocity_secret) OPENSSL_cleanse(L.velocity_secret, L.velocity_secret_len);
    free(L.velocity_secret);
    L.velocity_secret = NULL;
}

void login_auth_drain(void)
{
    auth_drain();
}

static void cipher_free(struct mc_cfb8 *s)
{
    if (!s) return;
    mc_cfb8_free(s);
    free(s);
}

void login_conn_free(conn *c)
{
    if (c->auth) auth_cancel(c->auth);
    c->auth = NULL;
    cipher_free(c->enc);
    cipher_free(c->dec);
    c->enc = c->dec = NULL;
    if (c->profile) {
        profile_clear(c->profile);
        free(c->profile);
        c->profile = NULL;
    }
}

long login_proxy_header(conn *c, const uint8_t *p, size_t len)
{
    proxy_source src;
    long n = proxy_header_parse(p, len, &src);
    if (n == 0) return 0;
    if (n < 0) {
        conn_drop(c, proxy_strerror(n));
        return -1;
    }
    if (!src.keep) adopt_address(c, src.ip, src.port, "PROXY protocol");
    return n;
}

/* A ban's refusal: translate(key, reason) [+ expiration], with English fallbacks. */
static void kick_banned(conn *c, const struct list_entry *e, bool ip)
{
    buf_t j;
    buf_init(&j, 8192);
    const char *head = ip ? "{\"translate\":\"multiplayer.disconnect.banned_ip.reason\","
                            "\"fallback\":\"Your IP address is banned from this server.\\n"
                            "Reason: %s\""
                          : "{\"translate\":\"multiplayer.disconnect.banned.reason\","
                            "\"fallback\":\"You are banned from this server.\\nReason: %s\"";
    buf_append(&j, head, strlen(head));
    buf_lit(&j, ",\"with\":[");
    json_append_string(&j, e->reason, strlen(e->reason));
    buf_lit(&j, "]");
    char when[32] = "";
    if (e->expires.epoch != LIST_FOREVER) {
        lists_format_time(&e->expires, when);
        buf_lit(&j, ",\"extra\":[{\"translate\":\"multiplayer.disconnect.");
        buf_append(&j, ip ? "banned_ip" : "banned", ip ? 9 : 6);
        buf_lit(&j, ".expiration\",\"fallback\":\"\\nYour ban will be removed on %s\",\"with\":[");
        json_append_string(&j, when, strlen(when));
        buf_lit(&j, "]}]");
    }
    buf_lit(&j, "}");
    buf_append(&j, "", 1);
    char text[LIST_REASON_MAX + 128];
    snprintf(text, sizeof text, "%s from this server (reason: %s)%s%s",
             ip ? "Your IP address is banned" : "You are banned", e->reason,
             when[0] ? "; until " : "", when);
    conn_kick_reason(
        c, ip ? KR_IP_BANNED : KR_BANNED,
        j.failed ? "{\"text\":\"You are banned from this server.\"}" : (const char *)j.data, text);
    buf_free(&j);
}

static bool bypasses_limit(const mc_uuid *uuid)
{
    for (size_t i = 0; i < ops_count(); i++) {
        const struct op_entry *op = ops_get(i);
        if (memcmp(op->uuid.b, uuid->b, 16) == 0) return op->bypasses_player_limit;
    }
    return false;
}

/* Invariant 5. false: c was refused (kicked). */
static bool login_allowed(conn *c, const mc_uuid *uuid)
{
    const struct list_entry *ban = lists_banned(uuid);
    if (ban) {
        kick_banned(c, ban, false);
        return false;
    }
    if (lists_whitelist_enabled() && !lists_whitelisted(uuid) && ops_level(uuid) == 0) {
        conn_kick_reason(c, KR_NOT_WHITELISTED,
                         "{\"translate\":\"multiplayer.disconnect.not_whitelisted\","
                         "\"fallback\":\"You are not white-listed on this server!\"}",
                         "You are not white-listed on this server!");
        return false;
    }
    char ip[PROXY_IP_MAX + 8];
    conn_ip(c, ip, sizeof ip);
    const struct list_entry *ipban = lists_ip_banned(ip);
    if (ipban) {
        kick_banned(c, ipban, true);
        return false;
    }
    if (srv->player_count >= (size_t)srv->cfg.max_players && !bypasses_limit(uuid)) {
        conn_kick_reason(c, KR_SERVER_FULL,
                         "{\"translate\":\"multiplayer.disconnect.server_full\","
                         "\"fallback\":\"The server is full!\"}",
                         "The server is full!");
        return false;
    }
    return true;
}

/* Everything is settled: the name, UUID and properties are final. */
static void finish_login(conn *c)
{
    const char *name = c->profile && c->profile->name[0] ? c->profile->name : c->login_name;
    size_t nlen = strlen(name);
    mc_uuid uuid = c->profile ? c->profile->uuid : uuid_offline(name, nlen);
    if (!login_allowed(c, &uuid)) return;
    for (size_t i = 0; i < srv->player_count; i++) {
        conn *o = srv->players[i];
        if ((strlen(o->player->name) == nlen && strncasecmp(o->player->name, name, nlen) == 0) ||
            memcmp(&o->player->uuid, &uuid, sizeof uuid) == 0) {
            conn_kick(o, "You logged in from another location");
            break;
        }
    }
    if (srv->cfg.compression_threshold >= 0) {
        buf_t *b = pkt_begin(PKT_LOGIN_CB_COMPRESS);
        wr_varint(b, srv->cfg.compression_threshold);
        conn_send_pkt(c);
        c->compressed = true;
    }
    c->props = c->profile ? c->profile->props : NULL;
    c->prop_count = c->profile ? c->profile->prop_count : 0;
    buf_t *b = pkt_begin(PKT_LOGIN_CB_SUCCESS);
    wr_uuid(b, &uuid);
    wr_string(b, name, nlen);
    pkt_write_properties(b, c->props, c->prop_count);
    conn_send_pkt(c);
    if (c->closed) return;
    c->state = CS_PLAY;
    c->deadline_ms = 0;
    play_join(c, name, nlen, uuid);
    if (c->player && !c->player->props) {
        c->player->props = c->props;
        c->player->prop_count = c->prop_count;
    }
}

static void send_encryption_request(conn *c)
{
    if (mc_random_bytes(c->verify_token, VERIFY_TOKEN_SIZE) < 0) {
        conn_kick(c, "Internal error: no random numbers");
        return;
    }
    buf_t *b = pkt_begin(PKT_LOGIN_CB_ENCRYPTION_BEGIN);
    wr_string(b, "", 0); /* server id: empty since 1.7 */
    wr_varint(b, (int32_t)L.rsa.pub_der_len);
    buf_append(b, L.rsa.pub_der, L.rsa.pub_der_len);
    wr_varint(b, VERIFY_TOKEN_SIZE);
    buf_append(b, c->verify_token, VERIFY_TOKEN_SIZE);
    conn_send_pkt(c);
    c->login_step = LS_KEY;
}

static void send_velocity_request(conn *c)
{
    uint32_t id;
    if (mc_random_bytes(&id, sizeof id) < 0) {
        conn_kick(c, "Internal error: no random numbers");
        return;
    }
    c->plugin_msg_id = (int32_t)(id & 0x7fffffff);
    buf_t *b = pkt_begin(PKT_LOGIN_CB_LOGIN_PLUGIN_REQUEST);
    wr_varint(b, c->plugin_msg_id);
    wr_cstring(b, VELOCITY_CHANNEL);
    wr_u8(b, VELOCITY_VERSION_MAX);
    conn_send_pkt(c);
    c->login_step = LS_VELOCITY;
}

static void login_start(conn *c, rd_t *r)
{
    size_t nlen;
    const char *name = rd_string(r, PLAYER_NAME_MAX, &nlen);
    if (rd_bool(r)) rd_uuid(r);
    if (r->err || rd_left(r) != 0) {
        conn_kick(c, "Malformed login packet");
        return;
    }
    char msg[128];
    if (c->protocol != MC_PROTOCOL_VERSION) {
        if (c->protocol < MC_PROTOCOL_VERSION)
            snprintf(msg, sizeof msg, "Outdated client! Please use %s", MC_VERSION_NAME);
        else
            snprintf(msg, sizeof msg, "Outdated server! I'm still on %s", MC_VERSION_NAME);
        conn_kick(c, msg);
        return;
    }
    /* Offline names follow the 3..16 convention; names a session server or
     * a proxy vouches for may be as short as Mojang allows. */
    bool vouched = srv->cfg.online_mode || srv->cfg.forwarding_mode != FWD_NONE;
    if (!player_name_valid(name, nlen, vouched ? 1 : 3)) {
        conn_kick(c, "Invalid username: use 3 to 16 letters, digits or _");
        return;
    }
    memcpy(c->login_name, name, nlen);
    c->login_name[nlen] = 0;
    limits_login_started(c); /* online mode: 30 s from connect to PLAY, as vanilla */
    if (srv->cfg.forwarding_mode == FWD_VELOCITY) {
        send_velocity_request(c);
        return;
    }
    if (srv->cfg.online_mode) {
        send_encryption_request(c);
        return;
    }
    if (c->profile) /* BungeeCord: the UUID came with the handshake */
        memcpy(c->profile->name, c->login_name, nlen + 1);
    finish_login(c);
}

static void on_auth_done(void *owner, enum auth_status st, mc_profile *profile, const char *detail)
{
    conn *c = owner;
    c->auth = NULL;
    if (c->closed || c->state != CS_LOGIN) return;
    switch (st) {
    case AUTH_OK: {
        mc_profile *p = malloc(sizeof *p);
        if (!p) {
            conn_kick(c, "Server out of memory");
            return;
        }
        *p = *profile; /* the property strings move to p */
        memset(profile, 0, sizeof *profile);
        c->profile = p;
        char id[37];
        uuid_format(&p->uuid, id);
        log_info("UUID of player %s is %s", p->name, id);
        finish_login(c);
        return;
    }
    case AUTH_DENIED:
        log_warn("[%s] Username '%s' tried to join with an invalid session (%s)", c->addr,
                 c->login_name, detail);
        conn_kick_json(c, unverified_json, "Failed to verify username!");
        return;
    case AUTH_UNAVAILABLE:
        log_error("[%s] Couldn't verify username '%s' because servers are unavailable: %s", c->addr,
                  c->login_name, detail);
        conn_kick_json(c, authservers_down_json, "Authentication servers are down");
        return;
    }
}

static int cipher_new(struct mc_cfb8 **out, const uint8_t *key, bool encrypt)
{
    struct mc_cfb8 *s = malloc(sizeof *s);
    if (!s || mc_cfb8_init(s, key, encrypt) < 0) {
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

static void encryption_response(conn *c, rd_t *r)
{
    int32_t slen = rd_varint(r);
    const uint8_t *sec = slen >= 0 && slen <= 512 ? rd_bytes(r, (size_t)slen) : NULL;
    int32_t tlen = rd_varint(r);
    const uint8_t *tok = tlen >= 0 && tlen <= 512 ? rd_bytes(r, (size_t)tlen) : NULL;
    if (r->err || !sec || !tok || rd_left(r) != 0) {
        conn_kick(c, "Malformed encryption response");
        return;
    }
    uint8_t secret[MC_RSA_BLOCK], token[MC_RSA_BLOCK];
    int n = mc_rsa_decrypt(&L.rsa, sec, (size_t)slen, secret, sizeof secret);
    if (n != MC_SHARED_SECRET) {
        log_warn("[%s] %s: the shared secret does not decrypt to 16 bytes", c->addr, c->login_name);
        OPENSSL_cleanse(secret, sizeof secret);
        conn_kick(c, "Protocol error: bad shared secret");
        return;
    }
    /* The client encrypts from here on: answer in kind, refusals included. */
    if (cipher_new(&c->enc, secret, true) < 0 || cipher_new(&c->dec, secret, false) < 0) {
        OPENSSL_cleanse(secret, sizeof secret);
        conn_drop(c, "cannot set up encryption (out of memory)");
        return;
    }
    c->decrypt_rest = true;
    int m = mc_rsa_decrypt(&L.rsa, tok, (size_t)tlen, token, sizeof token);
    bool token_ok =
        m == VERIFY_TOKEN_SIZE && mc_ct_equal(token, c->verify_token, VERIFY_TOKEN_SIZE);
    char hash[MC_SERVER_HASH_MAX];
    int hr =
        mc_server_hash("", 0, secret, MC_SHARED_SECRET, L.rsa.pub_der, L.rsa.pub_der_len, hash);
    OPENSSL_cleanse(secret, sizeof secret);
    OPENSSL_cleanse(token, sizeof token);
    if (!token_ok) {
        log_warn("[%s] %s: the verify token does not match", c->addr, c->login_name);
        conn_kick(c, "Protocol error: the verify token does not match");
        return;
    }
    if (hr < 0) {
        conn_kick(c, "Internal error: cannot compute the server hash");
        return;
    }
    char ip[PROXY_IP_MAX + 8];
    conn_ip(c, ip, sizeof ip);
    c->auth = auth_submit(c->login_name, hash, srv->cfg.prevent_proxy_connections ? ip : NULL,
                          on_auth_done, c);
    if (!c->auth) {
        log_warn("[%s] %s: %d session checks already waiting; login refused", c->addr,
                 c->login_name, AUTH_QUEUE_MAX);
        conn_kick(c, "Too many players are logging in; try again in a moment");
        return;
    }
    c->login_step = LS_AUTH;
}

static void plugin_response(conn *c, rd_t *r)
{
    int32_t id = rd_varint(r);
    bool understood = rd_bool(r);
    size_t len = rd_left(r);
    const uint8_t *data = rd_bytes(r, len);
    if (r->err) {
        conn_kick(c, "Malformed login plugin response");
        return;
    }
    if (id != c->plugin_msg_id) {
        conn_kick(c, "Unexpected login plugin response");
        return;
    }
    if (!understood || len == 0) {
        log_warn("[%s] %s connected directly, not through Velocity (forwarding-mode=velocity)",
                 c->addr, c->login_name);
        conn_kick(c, "This server requires you to connect with Velocity.");
        return;
    }
    mc_profile *prof = calloc(1, sizeof *prof);
    if (!prof) {
        conn_kick(c, "Server out of memory");
        return;
    }
    char ip[PROXY_IP_MAX], err[192];
    int version = 0;
    int rc = velocity_parse(data, len, L.velocity_secret, L.velocity_secret_len, ip, prof, &version,
                            err, sizeof err);
    if (rc != VELOCITY_OK) {
        log_warn("[%s] Velocity forwarding for %s refused: %s%s", c->addr, c->login_name, err,
                 rc == VELOCITY_E_SIGNATURE ? " (the HMAC does not match: is "
                                              "forwarding-secret-file the same secret as "
                                              "Velocity's forwarding.secret?)"
                                            : "");
        free(prof);
        conn_kick(c, err);
        return;
    }
    c->profile = prof;
    adopt_address(c, ip, -1, "Velocity forwarding");
    char uuid[37];
    uuid_format(&prof->uuid, uuid);
    log_info("[%s] Velocity forwarding v%d: %s is %s with %zu properties", c->addr, version,
             prof->name, uuid, prof->prop_count);
    finish_login(c);
}

void login_dispatch(conn *c, int32_t id, rd_t *r)
{
    if (id == PKT_LOGIN_SB_LOGIN_START && c->login_step == LS_START)
        login_start(c, r);
    else if (id == PKT_LOGIN_SB_ENCRYPTION_BEGIN && c->login_step == LS_KEY)
        encryption_response(c, r);
    else if (id == PKT_LOGIN_SB_LOGIN_PLUGIN_RESPONSE && c->login_step == LS_VELOCITY)
        plugin_response(c, r);
    else
        conn_kick(c, "Unexpected packet during login");
}
