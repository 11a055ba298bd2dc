/*
 * login.c — the Handshake and Login states: offline, online (encryption
 * and the session-server check) and behind a proxy (Velocity modern
 * forwarding, BungeeCord legacy forwarding, the PROXY protocol header).
 * The login state diagram is above login_init.
 *
 * Invariants:
 *  1. Login accepts only the protocols that proto/protocol.c supports (763
 *     and 775); any other gets a disconnect that names the versions we speak.
 *     The handshake sets c->proto to a supported version's table; an
 *     unsupported one keeps protocol_native (Status still answers it, and
 *     its Login Start is read, and refused, with 763's layout).
 *  2. Offline names are 3..16 characters of [A-Za-z0-9_]; names that a
 *     session server or proxy vouches for 1..16 of the same; anything else
 *     is refused before it reaches a log line or another player.
 *  3. Every refusal is logged with the reason and sent to the client as a
 *     login disconnect (vanilla's wording where vanilla has one).
 *  4. Once the identity is settled, the game decides admission (bans,
 *     whitelist, a full server, an older session of the same player:
 *     struct net_game.admit) before Login Success.
 */
#include <errno.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/packet_ids.h"
#include "net/auth.h"
#include "net/proxy.h"
#include "net/server.h"
#include "proto/crypto.h"
#include "proto/packets.h"

/* Lines a client can cause, one log kind each (core/log.h invariant 5). */
static log_kind k_forwarded = LOG_KIND, k_forward_refused = LOG_KIND, k_session = LOG_KIND;
static log_kind k_session_down = LOG_KIND, k_crypto = LOG_KIND, k_auth_queue = LOG_KIND;

/* ------------------------------------------------------------- handshake */

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
    snprintf(c->ip, sizeof c->ip, "%s", ip);
    log_limited(&k_forwarded, LOG_INFO, "[%s] %s: the client is %s", old, via, c->addr);
}

/* Login from a version we do not speak (invariant 1): vanilla's
 * handleIntention answers at once with outdated_client / outdated_server,
 * naming the versions we speak; the English text is the fallback. A newer
 * client's Login Start would not even parse with our layout. */
static void refuse_version(conn *c)
{
    /* Older than the newest we speak (1.21.1 between 1.20.1 and 26.1
     * too): the client should update; newer than all: the server is old. */
    bool old = c->protocol < protocol_nearest(INT32_MAX)->version;
    char text[128], json[384];
    snprintf(text, sizeof text,
             old ? "Outdated client! Please use %s" : "Outdated server! I'm still on %s",
             protocol_names());
    snprintf(json, sizeof json,
             "{\"translate\":\"multiplayer.disconnect.%s\",\"with\":[\"%s\"],\"fallback\":\"%s\"}",
             old ? "outdated_client" : "outdated_server", protocol_names(), text);
    conn_kick_reason(c, KR_VERSION, json, text);
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
    const struct mc_protocol *proto = protocol_for(protocol);
    if (proto) c->proto = proto; /* invariant 1 */
    if (next == 1) {
        c->state = CS_STATUS;
    } else if (next == 2) {
        c->state = CS_LOGIN;
        if (!proto) { /* as vanilla: refused at the handshake, before any login packet */
            refuse_version(c);
            return;
        }
        if (bungee) {
            /* The refusal goes out as a login disconnect, as Spigot does. */
            mc_profile *prof = calloc(1, sizeof *prof);
            char ip[PROXY_IP_MAX], err[256];
            int rc = prof ? bungee_parse_host(host, hlen, srv->cfg.bungeeguard_token, ip, prof, err,
                                              sizeof err)
                          : BUNGEE_BAD;
            if (!prof) snprintf(err, sizeof err, "Server out of memory");
            if (rc != BUNGEE_OK) {
                log_limited(&k_forward_refused, LOG_WARN, "[%s] BungeeCord forwarding refused: %s",
                            c->addr, err);
                free(prof);
                conn_kick(c, err);
                return;
            }
            adopt_address(c, ip, -1, "BungeeCord forwarding");
            c->profile = prof;
        } else if (bungee_looks_forwarded(host, hlen)) {
            log_limited(&k_forward_refused, LOG_WARN,
                        "[%s] handshake carries BungeeCord IP forwarding, but forwarding-mode is "
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
 *           (UUID, name, properties) --> PLAY (login_enter_play)
 *           1.20.2+ (c->proto->configuration): LS_ACK --Login Acknowledged-->
 *           the configuration state (net/configuration.c) --> PLAY
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

enum login_step { LS_START, LS_KEY, LS_AUTH, LS_VELOCITY, LS_ACK };

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
    loop_watch auth_watch; /* the auth thread's eventfd */
} login;

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
    login.velocity_secret = buf;
    login.velocity_secret_len = o;
    return 0;
}

/* The auth thread answered: finish the logins whose check came back. */
static void auth_event(loop_watch *w, uint32_t events)
{
    (void)w, (void)events;
    auth_drain();
}

int login_init(const struct server_config *cfg)
{
    loop_watch_init(&login.auth_watch, auth_event);
    if (cfg->online_mode) {
        if (mc_rsa_generate(&login.rsa, MC_RSA_BITS) < 0) {
            log_error("online-mode: cannot generate the RSA key pair");
            return -1;
        }
        int fd = auth_start(cfg->session_server);
        if (fd < 0) return -1;
        int rc = loop_watch_add(srv->loop, &login.auth_watch, fd, EPOLLIN);
        if (rc < 0) {
            log_error("online-mode: cannot watch the auth thread: %s", strerror(-rc));
            return -1;
        }
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
    loop_watch_del(srv->loop, &login.auth_watch);
    auth_stop();
    mc_rsa_free(&login.rsa);
    if (login.velocity_secret) OPENSSL_cleanse(login.velocity_secret, login.velocity_secret_len);
    free(login.velocity_secret);
    login.velocity_secret = NULL;
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
    free(c->client_info);
    c->client_info = NULL;
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

/* Everything is settled: the name, UUID and properties are final. */
static void finish_login(conn *c)
{
    const char *name = c->profile && c->profile->name[0] ? c->profile->name : c->name;
    size_t nlen = strlen(name);
    mc_uuid uuid = c->profile ? c->profile->uuid : uuid_offline(name, nlen);
    if (!srv->game->admit(c, name, &uuid)) return;
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
    memmove(c->name, name, nlen); /* name may be c->name itself */
    c->name[nlen] = 0;
    if (c->proto->configuration) {
        c->login_step = LS_ACK; /* the client acknowledges, then configuration */
        return;
    }
    login_enter_play(c);
}

/* The name in c->name and the profile are final (finish_login ran). */
void login_enter_play(conn *c)
{
    const char *name = c->name;
    size_t nlen = strlen(name);
    mc_uuid uuid = c->profile ? c->profile->uuid : uuid_offline(name, nlen);
    c->state = CS_PLAY;
    conn_set_deadline(c, 0);
    c->rate_window_ms = srv->loop->now_ms;
    srv->stats.logins++;
    limits_entered_play(c);
    c->in_game = true;
    srv->game->join(c, name, nlen, uuid);
}

static void send_encryption_request(conn *c)
{
    if (mc_random_bytes(c->verify_token, VERIFY_TOKEN_SIZE) < 0) {
        conn_kick(c, "Internal error: no random numbers");
        return;
    }
    buf_t *b = pkt_begin(PKT_LOGIN_CB_ENCRYPTION_BEGIN);
    wr_string(b, "", 0); /* server id: empty since 1.7 */
    wr_varint(b, (int32_t)login.rsa.pub_der_len);
    buf_append(b, login.rsa.pub_der, login.rsa.pub_der_len);
    wr_varint(b, VERIFY_TOKEN_SIZE);
    buf_append(b, c->verify_token, VERIFY_TOKEN_SIZE);
    if (c->proto->configuration) wr_bool(b, true); /* shouldAuthenticate: online mode */
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
    const char *name = rd_string(r, CONN_NAME_MAX, &nlen);
    if (c->proto->configuration || rd_bool(r)) rd_uuid(r); /* 1.20.2+: always there */
    if (r->err || rd_left(r) != 0) {
        conn_kick(c, "Malformed login packet");
        return;
    }
    /* Offline names follow the 3..16 convention; names a session server or
     * a proxy vouches for may be as short as Mojang allows. */
    bool vouched = srv->cfg.online_mode || srv->cfg.forwarding_mode != FWD_NONE;
    if (!player_name_valid(name, nlen, vouched ? 1 : 3)) {
        conn_kick(c, "Invalid username: use 3 to 16 letters, digits or _");
        return;
    }
    memmove(c->name, name, nlen); /* name may be c->name itself */
    c->name[nlen] = 0;
    srv->stats.login_starts++;
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
        memcpy(c->profile->name, c->name, nlen + 1);
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
        log_limited(&k_session, LOG_WARN,
                    "[%s] Username '%s' tried to join with an invalid session (%s)", c->addr,
                    c->name, detail);
        conn_kick_json(c, unverified_json, "Failed to verify username!");
        return;
    case AUTH_UNAVAILABLE:
        log_limited(&k_session_down, LOG_ERROR,
                    "[%s] Couldn't verify username '%s' because servers are unavailable: %s",
                    c->addr, c->name, detail);
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
    int n = mc_rsa_decrypt(&login.rsa, sec, (size_t)slen, secret, sizeof secret);
    if (n != MC_SHARED_SECRET) {
        log_limited(&k_crypto, LOG_WARN, "[%s] %s: the shared secret does not decrypt to 16 bytes",
                    c->addr, c->name);
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
    int m = mc_rsa_decrypt(&login.rsa, tok, (size_t)tlen, token, sizeof token);
    bool token_ok =
        m == VERIFY_TOKEN_SIZE && mc_ct_equal(token, c->verify_token, VERIFY_TOKEN_SIZE);
    char hash[MC_SERVER_HASH_MAX];
    int hr = mc_server_hash("", 0, secret, MC_SHARED_SECRET, login.rsa.pub_der,
                            login.rsa.pub_der_len, hash);
    OPENSSL_cleanse(secret, sizeof secret);
    OPENSSL_cleanse(token, sizeof token);
    if (!token_ok) {
        log_limited(&k_crypto, LOG_WARN, "[%s] %s: the verify token does not match", c->addr,
                    c->name);
        conn_kick(c, "Protocol error: the verify token does not match");
        return;
    }
    if (hr < 0) {
        conn_kick(c, "Internal error: cannot compute the server hash");
        return;
    }
    c->auth = auth_submit(c->name, hash, srv->cfg.prevent_proxy_connections ? c->ip : NULL,
                          on_auth_done, c);
    if (!c->auth) {
        log_limited(&k_auth_queue, LOG_WARN,
                    "[%s] %s: %d session checks already waiting; login refused", c->addr, c->name,
                    AUTH_QUEUE_MAX);
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
        log_limited(&k_forward_refused, LOG_WARN,
                    "[%s] %s connected directly, not through Velocity (forwarding-mode=velocity)",
                    c->addr, c->name);
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
    int rc = velocity_parse(data, len, login.velocity_secret, login.velocity_secret_len, ip, prof,
                            &version, err, sizeof err);
    if (rc != VELOCITY_OK) {
        log_limited(&k_forward_refused, LOG_WARN, "[%s] Velocity forwarding for %s refused: %s%s",
                    c->addr, c->name, err,
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
    log_limited(&k_forwarded, LOG_INFO,
                "[%s] Velocity forwarding v%d: %s is %s with %zu properties", c->addr, version,
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
    else if (id == PKT_LOGIN_SB_LOGIN_ACKNOWLEDGED && c->login_step == LS_ACK && rd_left(r) == 0)
        configuration_begin(c);
    else
        conn_kick(c, "Unexpected packet during login");
}
