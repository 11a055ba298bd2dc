/*
 * http_parse.h — the HTTP admin endpoint's request-head parser (pure: no
 * I/O, no globals, re-entrant; tests/unit/test_admin.c and
 * tests/fuzz/fuzz_http.c drive it directly). admin/http.h is the endpoint.
 *
 * Request head grammar accepted (RFC 9112, strictly; anything else is a
 * 4xx and the connection is closed):
 *
 *   request-line = method SP origin-form SP ( "HTTP/1.1" / "HTTP/1.0" ) CRLF
 *   method       = 1*15 tchar
 *   origin-form  = "/" *( VCHAR )            ; at most HTTP_TARGET_MAX bytes
 *   header       = field-name ":" OWS field-value OWS CRLF
 *   field-name   = 1*tchar                   ; no space before ':'
 *   field-value  = *( VCHAR / SP / HTAB / obs-text )   ; no obs-fold
 *   head         = request-line *header CRLF ; at most HTTP_HEAD_MAX bytes,
 *                                            ; at most HTTP_HEADERS_MAX headers
 *   Host: required in HTTP/1.1, at most one. Content-Length other than 0,
 *   or any Transfer-Encoding: refused (these endpoints take no body).
 *
 * Invariants:
 *  1. The parser runs once per complete head, which http_head_end finds by
 *     scanning only bytes it has not looked at yet.
 *  2. Every string in struct http_request is NUL-terminated within its
 *     array; the parser never reads outside p[0..len).
 */
#ifndef MC_HTTP_PARSE_H
#define MC_HTTP_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_HEAD_MAX    8192
#define HTTP_TARGET_MAX  2048
#define HTTP_HEADERS_MAX 64
#define HTTP_HOST_MAX    255

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_OTHER };

struct http_request {
    enum http_method method;
    char path[HTTP_TARGET_MAX + 1];  /* the target up to '?' */
    char query[HTTP_TARGET_MAX + 1]; /* after the '?' ("" when none), not decoded */
    int minor;                       /* HTTP/1.minor */
    bool keep_alive;                 /* after this response */
    bool has_host;
    char host[HTTP_HOST_MAX + 1];
    int headers;
};

/* Parses a complete head (request line, headers, the empty line) in
 * p[0..len). 0 and *req filled, or a negative HTTP status to answer
 * (-400, -414, -431, -413, -501, -505). */
int http_parse_head(const char *p, size_t len, struct http_request *req);
/* Where the head ends: the length up to and including CRLF CRLF, or 0 if
 * not there yet. *scan (start 0) remembers how far it looked. */
size_t http_head_end(const char *p, size_t len, size_t *scan);
/* True if host (a Host header value, maybe with a port) is a loopback name or an IP literal. */
bool http_host_is_local(const char *host);

#endif
