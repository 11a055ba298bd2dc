/*
 * http.h — the HTTP admin endpoint (admin-http-address:admin-http-port,
 * 127.0.0.1:25585 by default; port 0 = off): a small HTTP/1.1 server for
 * monitoring, not a general web server.
 *
 *   GET /            the dashboard (admin/dashboard.h)
 *   GET /metrics     Prometheus text format 0.0.4 (admin/metrics.h)
 *   GET /api/status  JSON (admin/status_api.h), rebuilt at most once per tick
 *   GET /api/history the last hour of the dashboard's series (admin/status_api.h)
 *   GET /api/players/{page}  100 players a page (admin/status_api.h)
 *   GET /healthz     "ok"
 *   GET /map/tiles/{zoom}/{x}/{z}.png  a live map tile (admin/map.h): 200,
 *                    204 (nothing generated there), 202 + Retry-After (drawing)
 *   GET /favicon.ico 204 (browsers ask for it)
 *   GET /api/tick, /api/health, /debug/conns   admin/perf_api.h (issue 16)
 *   GET /debug/pprof/profile   admin/pprof_http.h: answered when the
 *                    profile ends (a deferred answer, below)
 *   HEAD of each; anything else 404, other methods 405.
 *
 * The request head is parsed by admin/http_parse.h (its grammar is there).
 *
 * Connection state (per client):
 *
 *   READING --head complete--> respond (queued) --> READING (keep-alive)
 *      |                                  \--Connection: close--> CLOSING
 *      +--idle HTTP_IDLE_MS with nothing pending, or a head not complete
 *         within HTTP_READ_MS (from accept, or from its first byte), or
 *         output stuck HTTP_WRITE_MS--> closed
 *   CLOSING --output flushed--> closed, or, with unread input (a refused
 *      request): write side shut, input read and dropped until EOF or
 *      HTTP_LINGER_MS --> closed
 *
 * Invariants:
 *  1. At most HTTP_MAX_CLIENTS connections, HTTP_MAX_PER_ADDRESS from one
 *     address; a new one beyond either evicts the connection of that scope
 *     that has waited longest on its client (an unfinished head by when it
 *     began, an idle one by its last byte; admin.h invariant 3).
 *  2. Input per client is one head (HTTP_HEAD_MAX); output per client is
 *     capped (HTTP_OUT_MAX); while over HTTP_OUT_PAUSE the client's input is
 *     not read (pipelined requests wait, nothing grows).
 *  3. Each complete head is parsed once (admin/http_parse.h); the end of a
 *     head is found by scanning only new bytes.
 *  4. User text (player names, the MOTD) reaches clients only through the
 *     JSON writer; the dashboard never puts data into HTML (textContent).
 *  5. With a loopback admin-http-address, a Host header must name a
 *     loopback host or an IP literal (DNS-rebinding guard): else 421.
 *  6. A deferred request (a profile running) holds its client: nothing
 *     after it is answered and no idle timeout applies until http_answer;
 *     the answer finds the client by its ticket, so a client that left
 *     meanwhile is simply not answered.
 */
#ifndef MC_HTTP_H
#define MC_HTTP_H

#include <stdbool.h>
#include <stdint.h>

#include "admin/http_parse.h"

#define HTTP_MAX_CLIENTS     128
#define HTTP_MAX_PER_ADDRESS 32
#define HTTP_OUT_MAX         (8u << 20)
#define HTTP_OUT_PAUSE       (1u << 20)
#define HTTP_IDLE_MS         30000
#define HTTP_READ_MS         5000
#define HTTP_WRITE_MS        30000
#define HTTP_LINGER_MS       2000 /* draining a refused request before closing */

/* What a route module (admin/perf_api.c, admin/pprof_http.c) answers: a
 * status, a content type and a body it keeps alive until the next request
 * (its own static buffer), or deferred: the answer comes through
 * http_answer later. */
struct http_reply {
    int code;
    const char *type;
    const char *body;
    size_t len;
    const char *headers; /* extra header lines ("Name: value\r\n"...), or NULL */
    bool deferred;
};

/* A client waiting for a deferred answer. */
typedef uint64_t http_ticket;
/* True while that client is connected and still waiting. */
bool http_ticket_alive(http_ticket t);
/* Sends the deferred answer (the body is copied); 0, or -1 when the client
 * is gone. Then reads what the client pipelined behind the request. */
int http_answer(http_ticket t, int code, const char *type, const void *body, size_t len,
                const char *extra_headers);

struct server_config;
/* Opens the listener; 0, or -1 (logged; the endpoint stays off). */
int http_start(const struct server_config *cfg);
void http_stop(void);

#endif
