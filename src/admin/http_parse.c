/*
 * http_parse.c — see http_parse.h. Pure: no I/O, no globals.
 */
#include "admin/http_parse.h"

#include <string.h>
#include <strings.h>

static bool http_tchar(unsigned char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

size_t http_head_end(const char *p, size_t len, size_t *scan)
{
    size_t i = *scan > 3 ? *scan - 3 : 0;
    for (; i + 4 <= len; i++)
        if (p[i] == '\r' && p[i + 1] == '\n' && p[i + 2] == '\r' && p[i + 3] == '\n') {
            *scan = 0;
            return i + 4;
        }
    *scan = len;
    return 0;
}

/* Case-insensitive equality of p[0..n) and the NUL-terminated lower-case s. */
static bool http_name_is(const char *p, size_t n, const char *s)
{
    return strlen(s) == n && strncasecmp(p, s, n) == 0;
}

/* Connection: a comma-separated token list. */
static void http_connection_tokens(const char *v, size_t n, struct http_request *req)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ',')) i++;
        size_t s = i;
        while (i < n && v[i] != ',' && v[i] != ' ' && v[i] != '\t') i++;
        if (http_name_is(v + s, i - s, "close")) req->keep_alive = false;
        if (http_name_is(v + s, i - s, "keep-alive") && req->minor == 0) req->keep_alive = true;
    }
}

int http_parse_head(const char *p, size_t len, struct http_request *req)
{
    memset(req, 0, sizeof *req);
    if (len > HTTP_HEAD_MAX) return -431;
    /* request line */
    size_t i = 0;
    while (i < len && http_tchar((unsigned char)p[i])) i++;
    if (i == 0 || i > 15 || i >= len || p[i] != ' ') return -400;
    if (i == 3 && memcmp(p, "GET", 3) == 0)
        req->method = HTTP_GET;
    else if (i == 4 && memcmp(p, "HEAD", 4) == 0)
        req->method = HTTP_HEAD;
    else
        req->method = HTTP_OTHER;
    size_t t = ++i;
    while (i < len && p[i] != ' ' && p[i] != '\r') {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x21 || c > 0x7e) return -400;
        i++;
    }
    size_t tlen = i - t;
    if (tlen > HTTP_TARGET_MAX) return -414;
    if (tlen == 0 || p[t] != '/' || i >= len || p[i] != ' ') return -400;
    size_t plen = 0;
    while (plen < tlen && p[t + plen] != '?') plen++;
    memcpy(req->path, p + t, plen);
    req->path[plen] = 0;
    size_t qlen = plen < tlen ? tlen - plen - 1 : 0;
    memcpy(req->query, p + t + tlen - qlen, qlen);
    req->query[qlen] = 0;
    i++;
    if (len - i < 10 || memcmp(p + i, "HTTP/", 5) != 0) return -400;
    char maj = p[i + 5], dot = p[i + 6], min = p[i + 7];
    if (maj < '0' || maj > '9' || dot != '.' || min < '0' || min > '9') return -400;
    if (p[i + 8] != '\r' || p[i + 9] != '\n') return -400;
    if (maj != '1' || (min != '0' && min != '1')) return -505;
    req->minor = min - '0';
    req->keep_alive = req->minor == 1;
    i += 10;
    /* headers */
    bool content_length = false;
    for (;;) {
        if (len - i < 2) return -400;
        if (p[i] == '\r' && p[i + 1] == '\n') {
            i += 2;
            break;
        }
        if (++req->headers > HTTP_HEADERS_MAX) return -431;
        size_t n = i;
        while (n < len && http_tchar((unsigned char)p[n])) n++;
        if (n == i || n >= len || p[n] != ':') return -400; /* also: obs-fold, space before ':' */
        size_t nlen = n - i;
        const char *name = p + i;
        size_t v = n + 1;
        while (v < len && (p[v] == ' ' || p[v] == '\t')) v++;
        size_t e = v;
        while (e < len && p[e] != '\r') {
            unsigned char c = (unsigned char)p[e];
            if ((c < 0x20 && c != '\t') || c == 0x7f) return -400;
            e++;
        }
        if (e + 1 >= len || p[e + 1] != '\n') return -400;
        size_t vend = e;
        while (vend > v && (p[vend - 1] == ' ' || p[vend - 1] == '\t')) vend--;
        const char *val = p + v;
        size_t vlen = vend - v;
        if (http_name_is(name, nlen, "host")) {
            if (req->has_host) return -400;
            if (vlen > HTTP_HOST_MAX) return -400;
            req->has_host = true;
            memcpy(req->host, val, vlen);
            req->host[vlen] = 0;
        } else if (http_name_is(name, nlen, "connection")) {
            http_connection_tokens(val, vlen, req);
        } else if (http_name_is(name, nlen, "content-length")) {
            if (content_length || vlen == 0) return -400;
            content_length = true;
            for (size_t k = 0; k < vlen; k++)
                if (val[k] < '0' || val[k] > '9') return -400;
            for (size_t k = 0; k < vlen; k++)
                if (val[k] != '0') return -413; /* a body: these endpoints take none */
        } else if (http_name_is(name, nlen, "transfer-encoding")) {
            return -501;
        }
        i = e + 2;
    }
    if (i != len) return -400;
    if (req->minor == 1 && !req->has_host) return -400;
    return 0;
}

bool http_host_is_local(const char *host)
{
    char h[HTTP_HOST_MAX + 1];
    size_t n = strlen(host);
    if (n > HTTP_HOST_MAX) return false;
    memcpy(h, host, n + 1);
    /* strip ":port" (after "]" for an IPv6 literal) */
    if (h[0] == '[') {
        char *end = strchr(h, ']');
        if (!end || (end[1] && end[1] != ':')) return false;
        *end = 0;
        memmove(h, h + 1, strlen(h + 1) + 1);
        for (const char *c = h; *c; c++)
            if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f') ||
                  (*c >= 'A' && *c <= 'F') || *c == ':' || *c == '.'))
                return false;
        return h[0] != 0;
    }
    char *colon = strchr(h, ':');
    if (colon) *colon = 0;
    if (strcasecmp(h, "localhost") == 0) return true;
    /* dotted-quad IPv4 literal */
    int parts = 0;
    const char *c = h;
    while (*c) {
        int digits = 0, v = 0;
        while (*c >= '0' && *c <= '9' && digits < 4) v = v * 10 + (*c++ - '0'), digits++;
        if (!digits || v > 255) return false;
        parts++;
        if (*c == '.' && parts < 4)
            c++;
        else if (*c)
            return false;
    }
    return parts == 4;
}
