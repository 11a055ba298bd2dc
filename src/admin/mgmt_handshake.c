/*
 * mgmt_handshake.c — see mgmt_handshake.h. Pure: no I/O, no globals.
 */
#include "admin/mgmt_handshake.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "admin/http_parse.h"

#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

bool mgmt_header(const char *p, size_t len, const char *name, char *out, size_t cap)
{
    size_t nlen = strlen(name), i = 0;
    out[0] = 0;
    while (i < len && p[i] != '\n') i++; /* the request line */
    for (i++; i < len;) {
        size_t e = i;
        while (e < len && p[e] != '\n') e++;
        size_t line_end = e > i && p[e - 1] == '\r' ? e - 1 : e;
        if (line_end - i > nlen && p[i + nlen] == ':' && strncasecmp(p + i, name, nlen) == 0) {
            size_t v = i + nlen + 1, ve = line_end;
            while (v < ve && (p[v] == ' ' || p[v] == '\t')) v++;
            while (ve > v && (p[ve - 1] == ' ' || p[ve - 1] == '\t')) ve--;
            size_t n = ve - v < cap - 1 ? ve - v : cap - 1;
            memcpy(out, p + v, n);
            out[n] = 0;
            return true;
        }
        i = e + 1;
    }
    return false;
}

/* True if the comma-separated `list` has an entry (spaces trimmed) equal
 * to token, in any case when `nocase`. */
static bool list_has(const char *list, const char *token, bool nocase)
{
    size_t tlen = strlen(token);
    if (!tlen) return false;
    for (const char *s = list; *s;) {
        while (*s == ' ' || *s == '\t' || *s == ',') s++;
        const char *e = s;
        while (*e && *e != ',') e++;
        const char *te = e;
        while (te > s && (te[-1] == ' ' || te[-1] == '\t')) te--;
        if ((size_t)(te - s) == tlen &&
            (nocase ? strncasecmp(s, token, tlen) : memcmp(s, token, tlen)) == 0)
            return true;
        s = e;
    }
    return false;
}

bool mgmt_token_in(const char *list, const char *token)
{
    return list_has(list, token, true);
}

/* Invariant 2: exact match against a trimmed entry of the list. */
static bool origin_allowed(const char *origins, const char *origin)
{
    return list_has(origins, origin, false);
}

/* Invariant 1. */
static bool secret_ok(const char *given, const char *secret)
{
    size_t g = strlen(given), s = strlen(secret);
    if (!g || !s) return false;
    char padded[256] = {0};
    size_t n = g < sizeof padded ? g : sizeof padded;
    memcpy(padded, given, n);
    /* Compare as many bytes as the secret has, whatever was given. */
    bool same = s <= sizeof padded && CRYPTO_memcmp(padded, secret, s) == 0;
    OPENSSL_cleanse(padded, sizeof padded);
    return same && g == s;
}

/* The authentication step: 0 allowed, or 401 with u->reason. */
static int authenticate(const char *p, size_t len, const char *secret, const char *origins,
                        struct mgmt_upgrade *u)
{
    char value[300];
    bool has_origin = mgmt_header(p, len, "origin", u->origin, sizeof u->origin);
    if (mgmt_header(p, len, "authorization", value, sizeof value) &&
        strncmp(value, "Bearer ", 7) == 0) {
        bool ok = secret_ok(value + 7 + strspn(value + 7, " "), secret);
        OPENSSL_cleanse(value, sizeof value);
        if (!ok) {
            u->reason = "Invalid API key";
            return 401;
        }
        if (has_origin && !origin_allowed(origins, u->origin)) { /* mcserv: stricter */
            u->reason = "Origin Not Allowed";
            u->origin_mismatch = true;
            return 401;
        }
        return 0;
    }
    if (mgmt_header(p, len, "sec-websocket-protocol", value, sizeof value) &&
        strncmp(value, MGMT_SUBPROTOCOL ",", sizeof MGMT_SUBPROTOCOL) == 0) {
        const char *given = value + sizeof MGMT_SUBPROTOCOL;
        given += strspn(given, " ");
        if (!origin_allowed(origins, u->origin)) {
            OPENSSL_cleanse(value, sizeof value);
            u->reason = "Origin Not Allowed";
            u->origin_mismatch = true;
            return 401;
        }
        bool ok = secret_ok(given, secret);
        OPENSSL_cleanse(value, sizeof value);
        if (!ok) {
            u->reason = "Invalid API key";
            return 401;
        }
        u->subprotocol = true;
        return 0;
    }
    u->reason = "Missing API key";
    return 401;
}

/* A Sec-WebSocket-Key: base64 of 16 bytes (24 characters, "==" at the end). */
static bool key_valid(const char *k)
{
    if (strlen(k) != 24 || k[22] != '=' || k[23] != '=') return false;
    for (int i = 0; i < 22; i++) {
        char c = k[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '+' || c == '/'))
            return false;
    }
    return true;
}

static void accept_key(const char *key, char out[32])
{
    char in[64];
    unsigned char digest[SHA_DIGEST_LENGTH];
    int n = snprintf(in, sizeof in, "%s%s", key, WS_GUID);
    SHA1((const unsigned char *)in, (size_t)n, digest);
    EVP_EncodeBlock((unsigned char *)out, digest, SHA_DIGEST_LENGTH); /* 28 chars + NUL */
}

void mgmt_upgrade_check(const char *p, size_t len, const char *secret, const char *origins,
                        struct mgmt_upgrade *u)
{
    memset(u, 0, sizeof *u);
    struct http_request req;
    int rc = http_parse_head(p, len, &req);
    if (rc < 0) {
        u->status = -rc;
        u->reason = "malformed request head";
        return;
    }
    if ((u->status = authenticate(p, len, secret, origins, u))) return;
    char v[128];
    if (req.method != HTTP_GET) {
        u->status = 405;
        u->reason = "only GET upgrades to a WebSocket";
    } else if (strcmp(req.path, "/") != 0) {
        u->status = 404;
        u->reason = "the management protocol is at /";
    } else if (!mgmt_header(p, len, "upgrade", v, sizeof v) || !mgmt_token_in(v, "websocket") ||
               !mgmt_header(p, len, "connection", v, sizeof v) || !mgmt_token_in(v, "upgrade")) {
        u->status = 400;
        u->reason = "not a WebSocket handshake (Upgrade: websocket missing)";
    } else if (!mgmt_header(p, len, "sec-websocket-version", v, sizeof v) || strcmp(v, "13")) {
        u->status = 426;
        u->reason = "WebSocket version 13 is the one spoken here";
    } else if (!mgmt_header(p, len, "sec-websocket-key", v, sizeof v) || !key_valid(v)) {
        u->status = 400;
        u->reason = "missing or invalid Sec-WebSocket-Key";
    } else {
        u->status = 101;
        accept_key(v, u->accept);
    }
}

static const char *status_text(int code)
{
    switch (code) {
    case 101: return "Switching Protocols";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 426: return "Upgrade Required";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

size_t mgmt_upgrade_response(const struct mgmt_upgrade *u, char *out, size_t cap)
{
    int n;
    if (u->status == 101) {
        n = snprintf(out, cap,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n%s\r\n",
                     u->accept,
                     u->subprotocol ? "Sec-WebSocket-Protocol: " MGMT_SUBPROTOCOL "\r\n" : "");
    } else {
        char body[200];
        int b = u->status == 401
                    ? snprintf(body, sizeof body, "{\"error\":\"Unauthorized\",\"message\":\"%s\"}",
                               u->reason)
                    : snprintf(body, sizeof body, "%d %s: %s\n", u->status, status_text(u->status),
                               u->reason ? u->reason : "");
        n = snprintf(out, cap,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s%s"
                     "Connection: close\r\n\r\n%s",
                     u->status, status_text(u->status),
                     u->status == 401 ? "application/json" : "text/plain; charset=utf-8", b,
                     u->status == 426 ? "Sec-WebSocket-Version: 13\r\n" : "",
                     u->status == 405 ? "Allow: GET\r\n" : "", body);
    }
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}
