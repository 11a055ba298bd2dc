/*
 * http.h — the HTTP admin endpoint (admin-http-address:admin-http-port,
 * 127.0.0.1:25585 by default; port 0 = off): a small HTTP/1.1 server for
 * monitoring, not a general web server.
 *
 *   GET /            the dashboard (admin/dashboard.h)
 *   GET /metrics     Prometheus text format 0.0.4 (admin/metrics.h)
 *   GET /api/status  JSON (admin/status_api.h), rebuilt at most once per tick
 *   GET /healthz     "ok"
 *   GET /favicon.ico 204 (browsers ask for it)
 *   HEAD of each; anything else 404, other methods 405.
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
 * Connection state (per client):
 *
 *   READING --head complete--> respond (queued) --> READING (keep-alive)
 *      |                                  \--Connection: close--> CLOSING
 *      +--idle HTTP_IDLE_MS with nothing pending, or a head not complete
 *         within HTTP_READ_MS, or output stuck HTTP_WRITE_MS--> closed
 *   CLOSING --output flushed--> closed, or, with unread input (a refused
 *      request): write side shut, input read and dropped until EOF or
 *      HTTP_LINGER_MS --> closed
 *
 * Invariants:
 *  1. At most HTTP_MAX_CLIENTS connections; more are accepted and closed.
 *  2. Input per client is one head (HTTP_HEAD_MAX); output per client is
 *     capped (HTTP_OUT_MAX); while over HTTP_OUT_PAUSE the client's input is
 *     not read (pipelined requests wait, nothing grows).
 *  3. The parser is pure and re-entrant (tests, fuzz_http): it runs once
 *     per complete head, which is found by scanning only new bytes.
 *  4. User text (player names, the MOTD) reaches clients only through the
 *     JSON writer; the dashboard never puts data into HTML (textContent).
 *  5. With a loopback admin-http-address, a Host header must name a
 *     loopback host or an IP literal (DNS-rebinding guard): else 421.
 */
#ifndef MC_HTTP_H
#define MC_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HTTP_HEAD_MAX    8192
#define HTTP_TARGET_MAX  2048
#define HTTP_HEADERS_MAX 64
#define HTTP_HOST_MAX    255
#define HTTP_MAX_CLIENTS 64
#define HTTP_OUT_MAX     (8u << 20)
#define HTTP_OUT_PAUSE   (1u << 20)
#define HTTP_IDLE_MS     30000
#define HTTP_READ_MS     10000
#define HTTP_WRITE_MS    30000
#define HTTP_LINGER_MS   2000 /* draining a refused request before closing */

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_OTHER };

struct http_request {
    enum http_method method;
    char path[HTTP_TARGET_MAX + 1]; /* the target up to '?' */
    int minor;                      /* HTTP/1.minor */
    bool keep_alive;                /* after this response */
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

#ifndef HTTP_CORE_ONLY
struct server_config;
/* Opens the listener; 0, or -1 (logged; the endpoint stays off). */
int http_start(const struct server_config *cfg);
void http_stop(void);
#endif

#endif
