/*
 * status.c — the server list: Status (the JSON a client shows in its
 * server list, with the favicon), Ping/Pong, and the legacy 0xFE ping of
 * pre-1.7 clients.
 *
 * Invariants:
 *  1. Status is answered whatever protocol number the handshake carries;
 *     one status request and one ping per connection, then it is closed.
 *  2. The status JSON is built once and cached until status_invalidate (a
 *     join, a leave); player names in it are JSON-escaped.
 *  3. Its version is the client's own when the server speaks it (each
 *     client sees the server as compatible); otherwise the supported
 *     version nearest to the client's (older clients see the oldest,
 *     newer ones the newest), which the client shows as incompatible.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/log.h"
#include "core/utf8.h"
#include "data/packet_ids.h"
#include "data/version.h"
#include "net/server.h"
#include "proto/protocol.h"

#define STATUS_SAMPLE_MAX 12
#define FAVICON_MAX_BYTES (256u << 10)

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
    /* The version object is put in front per client (invariant 3). */
    snprintf(tmp, sizeof tmp, "{\"players\":{\"max\":%d,\"online\":%zu,\"sample\":[",
             srv->cfg.max_players, srv->game->online());
    buf_append(&b, tmp, strlen(tmp));
    if (!srv->cfg.hide_online_players) {
        const char *names[STATUS_SAMPLE_MAX];
        mc_uuid uuids[STATUS_SAMPLE_MAX];
        size_t n = srv->game->sample(names, uuids, STATUS_SAMPLE_MAX);
        for (size_t i = 0; i < n; i++) {
            char id[37];
            uuid_format(&uuids[i], id);
            if (i) buf_lit(&b, ",");
            buf_lit(&b, "{\"name\":");
            json_append_string(&b, names[i], strlen(names[i]));
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
        return "{\"description\":\"\"}";
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
        const struct mc_protocol *p = protocol_for(c->protocol);
        if (!p) p = protocol_nearest(c->protocol);
        char version[96];
        int vn = snprintf(version, sizeof version,
                          "{\"version\":{\"name\":\"%s\",\"protocol\":%d},", p->name, p->version);
        size_t jn = strlen(json);
        json++, jn--; /* its "{": the version comes first */
        buf_t *b = pkt_begin(0x00);
        wr_varint(b, (int32_t)((size_t)vn + jn));
        buf_append(b, version, (size_t)vn);
        buf_append(b, json, jn);
        conn_send_pkt(c);
        c->status_step = 1;
        srv->stats.status_requests++;
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
    for (const uint8_t *p = (const uint8_t *)s; *p;) {
        uint32_t cp;
        uint16_t u[2];
        p += utf8_decode_lenient(p, &cp);
        int n = utf8_utf16_units(cp, u);
        for (int i = 0; i < n; i++) wr_u16(b, u[i]);
        units += (size_t)n;
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
        snprintf(text, sizeof text, "%zu", srv->game->online());
        units += put_utf16(&b, text) + 1;
        wr_u16(&b, 0);
        snprintf(text, sizeof text, "%d", srv->cfg.max_players);
        units += put_utf16(&b, text) + 1;
    } else {
        snprintf(text, sizeof text, "%s\xc2\xa7%zu\xc2\xa7%d", motd, srv->game->online(),
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
