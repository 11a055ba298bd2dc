/*
 * handshake.c — the states before PLAY: Handshake, Status (server list ping,
 * including the legacy 0xFE ping) and offline-mode Login.
 *
 * Invariants:
 *  1. Status is answered whatever protocol number the handshake carries;
 *     one status request and one ping per connection, then it is closed.
 *  2. Login accepts only protocol 763; any other gets a disconnect that
 *     names the version we speak.
 *  3. Names are 3..16 characters of [A-Za-z0-9_] (the offline-mode
 *     convention); anything else is refused before it reaches a log line
 *     or another player.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/packet_ids.h"
#include "data/version.h"
#include "net/server.h"

#define STATUS_SAMPLE_MAX 12
#define FAVICON_MAX_BYTES (256u << 10)

void json_append_string(buf_t *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    buf_append(b, "\"", 1);
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
    buf_append(b, "\"", 1);
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
            if (i) buf_append(&b, ",", 1);
            buf_append(&b, "{\"name\":", 8);
            json_append_string(&b, p->name, strlen(p->name));
            snprintf(tmp, sizeof tmp, ",\"id\":\"%s\"}", id);
            buf_append(&b, tmp, strlen(tmp));
        }
    }
    buf_append(&b, "]},\"description\":{\"text\":", 26);
    json_append_string(&b, srv->cfg.motd, strlen(srv->cfg.motd));
    buf_append(&b, "}", 1);
    if (srv->favicon) {
        buf_append(&b, ",\"favicon\":\"", 12);
        buf_append(&b, srv->favicon, strlen(srv->favicon));
        buf_append(&b, "\"", 1);
    }
    buf_append(&b, ",\"enforcesSecureChat\":false,\"previewsChat\":false}", 49);
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

void handshake_dispatch(conn *c, int32_t id, rd_t *r)
{
    if (id != PKT_HANDSHAKE_SB_SET_PROTOCOL) {
        conn_drop(c, "unexpected packet in handshake");
        return;
    }
    int32_t protocol = rd_varint(r);
    size_t hlen;
    rd_string(r, 255, &hlen);
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
    } else {
        char why[64];
        snprintf(why, sizeof why, "handshake asks for unknown state %d", next);
        conn_drop(c, why);
    }
}

/* ----------------------------------------------------------------- login */

static bool valid_name(const char *s, size_t len)
{
    if (len < 3 || len > PLAYER_NAME_MAX) return false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return false;
    }
    return true;
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
    if (!valid_name(name, nlen)) {
        conn_kick(c, "Invalid username: use 3 to 16 letters, digits or _");
        return;
    }
    for (size_t i = 0; i < srv->player_count; i++) {
        conn *o = srv->players[i];
        if (strlen(o->player->name) == nlen && strncasecmp(o->player->name, name, nlen) == 0) {
            conn_kick(o, "You logged in from another location");
            break;
        }
    }
    if (srv->player_count >= (size_t)srv->cfg.max_players) {
        conn_kick(c, "The server is full!");
        return;
    }
    mc_uuid uuid = uuid_offline(name, nlen);
    if (srv->cfg.compression_threshold >= 0) {
        buf_t *b = pkt_begin(PKT_LOGIN_CB_COMPRESS);
        wr_varint(b, srv->cfg.compression_threshold);
        conn_send_pkt(c);
        c->compressed = true;
    }
    buf_t *b = pkt_begin(PKT_LOGIN_CB_SUCCESS);
    wr_uuid(b, &uuid);
    wr_string(b, name, nlen);
    wr_varint(b, 0); /* properties */
    conn_send_pkt(c);
    if (c->closed) return;
    c->state = CS_PLAY;
    c->deadline_ms = 0;
    play_join(c, name, nlen, uuid);
}

void login_dispatch(conn *c, int32_t id, rd_t *r)
{
    switch (id) {
    case PKT_LOGIN_SB_LOGIN_START: login_start(c, r); return;
    default: conn_kick(c, "Unexpected packet during login"); return;
    }
}
