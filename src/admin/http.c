/*
 * http.c — see http.h: the listener, the clients and the routes. The
 * request-head parser is admin/http_parse.c.
 */
#include "admin/http.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "admin/admin.h"
#include "admin/dashboard.h"
#include "admin/map.h"
#include "admin/metrics.h"
#include "admin/perf_api.h"
#include "admin/pprof_http.h"
#include "admin/status_api.h"
#include "core/addr.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/list.h"
#include "core/log.h"
#include "net/server.h"

typedef struct http_client {
    admin_peer peer; /* first: socket, address, output, list link */
    char in[HTTP_HEAD_MAX];
    size_t in_len, scan;
    bool closing;       /* close once out is flushed */
    bool lingering;     /* sent everything, write side shut: draining input until EOF */
    bool reading;       /* EPOLLIN armed */
    bool writing;       /* EPOLLOUT armed */
    int64_t active_ms;  /* last byte in or out */
    int64_t request_ms; /* first byte of the head being read (or accept); 0 none */
    uint64_t serial;    /* the client's ticket for an answer given later */
    bool deferred;      /* a request waits for http_answer: nothing else is read or timed out */
    bool defer_keep;    /* ... its keep-alive and HEAD, for the answer */
    bool defer_head;
} http_client;

static int64_t idle_since(const admin_peer *p, int64_t now_ms);

static struct {
    loop_watch w;
    int fd;
    bool loopback;     /* the listener is on a loopback address: check Host */
    admin_peers peers; /* the clients; closed ones freed by http_pass */
    int64_t now_ms;
    uint64_t next_serial;
} http = {.fd = -1,
          .peers = ADMIN_PEERS_INIT(http.peers, "HTTP admin endpoint", HTTP_MAX_CLIENTS,
                                    HTTP_MAX_PER_ADDRESS, idle_since, &admin_stats.http)};

/* Lines a peer can cause (core/log.h invariant 5). */
static log_kind k_too_big = LOG_KIND, k_deadline = LOG_KIND;

/* admin.h invariant 3: a lingering close goes first, then by how long the
 * client has kept us waiting: an unfinished head since its start (a new
 * connection since accept), an idle or stuck one since its last byte. */
static int64_t idle_since(const admin_peer *p, int64_t now_ms)
{
    (void)now_ms;
    const http_client *c = (const http_client *)p;
    if (c->lingering) return 1;
    if (c->deferred) return 0; /* its profile is being taken: busy (http.h invariant 6) */
    int64_t since = c->request_ms && !c->peer.out.len ? c->request_ms : c->active_ms;
    return since ? since : 1;
}

static const char *status_text(int code)
{
    switch (code) {
    case 200: return "OK";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 421: return "Misdirected Request";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* "Date: ..." for the current second (RFC 9110 IMF-fixdate), cached. */
static const char *date_header(void)
{
    static char text[64];
    static time_t cached = -1;
    time_t now = time(NULL);
    if (now != cached) {
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(text, sizeof text, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &tm);
        cached = now;
    }
    return text;
}

static void client_close(http_client *c)
{
    admin_peer_close(&http.peers, &c->peer);
}

static void client_events(http_client *c)
{
    uint32_t ev = (c->reading ? EPOLLIN : 0) | (c->writing ? EPOLLOUT : 0);
    loop_watch_mod(srv->loop, &c->peer.w, ev | EPOLLRDHUP);
}

/* Writes what the socket takes; closes c when done and closing. */
static void client_flush(http_client *c)
{
    while (c->peer.out.len) {
        ssize_t n = send(c->peer.fd, c->peer.out.data, c->peer.out.len, MSG_NOSIGNAL);
        if (n > 0) {
            buf_consume(&c->peer.out, (size_t)n);
            c->active_ms = http.now_ms;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        client_close(c);
        return;
    }
    if (!c->peer.out.len) {
        buf_shrink_if_idle(&c->peer.out, 256u << 10);
        if (c->closing && !c->lingering) {
            /* Lingering close: shut our side, then read and drop what the
             * client still sends, so its unread request does not turn into
             * a reset that destroys the answer in flight (RFC 9112 9.6). */
            if (!c->in_len) {
                client_close(c);
                return;
            }
            shutdown(c->peer.fd, SHUT_WR);
            c->lingering = true;
            c->active_ms = http.now_ms;
            c->in_len = 0;
            if (!c->reading || c->writing) {
                c->reading = true;
                c->writing = false;
                client_events(c);
            }
            return;
        }
        if (c->lingering) return;
    }
    bool want_write = c->peer.out.len > 0;
    bool want_read = !c->closing && c->peer.out.len < HTTP_OUT_PAUSE;
    if (want_write != c->writing || want_read != c->reading) {
        c->writing = want_write;
        c->reading = want_read;
        client_events(c);
    }
}

static void respond(http_client *c, const struct http_request *req, int code, const char *type,
                    const char *body, size_t len, const char *extra_headers)
{
    char head[768], length[96] = "";
    bool keep = req && req->keep_alive && !c->closing && code < 400;
    if (code != 204) /* a 204 carries neither (RFC 9110 8.6) */
        snprintf(length, sizeof length, "Content-Type: %s\r\nContent-Length: %zu\r\n", type, len);
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\n%sServer: mcserv\r\n%sCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n%s%s\r\n",
                     code, status_text(code), date_header(), length,
                     extra_headers ? extra_headers : "", keep ? "" : "Connection: close\r\n");
    buf_append(&c->peer.out, head, (size_t)n);
    if (!req || req->method != HTTP_HEAD) buf_append(&c->peer.out, body, len);
    if (c->peer.out.failed) {
        log_limited(&k_too_big, LOG_WARN, "[http %s] response over %u MiB queued; closing",
                    c->peer.addr, HTTP_OUT_MAX >> 20);
        client_close(c);
        return;
    }
    admin_stats.http_requests++;
    if (code >= 400) admin_stats.http_errors++;
    if (!keep) c->closing = true;
}

static void respond_error(http_client *c, const struct http_request *req, int code)
{
    char body[96];
    int n = snprintf(body, sizeof body, "%d %s\n", code, status_text(code));
    respond(c, req, code, "text/plain; charset=utf-8", body, (size_t)n,
            code == 405 ? "Allow: GET, HEAD\r\n" : NULL);
}

/* GET /map/tiles/{zoom}/{x}/{z}.png (admin/map.h): 200 the PNG, 204 nothing
 * generated there, 202 + Retry-After while it is being drawn, 404 outside
 * the world. true if path is a tile path (answered). */
static bool route_tile(http_client *c, const struct http_request *req, const char *path)
{
    int zoom, n = 0;
    long tx, tz;
    if (sscanf(path, "/map/tiles/%d/%ld/%ld.png%n", &zoom, &tx, &tz, &n) != 3 || path[n]) {
        respond_error(c, req, 404);
        return true;
    }
    if (req->method == HTTP_OTHER) {
        respond_error(c, req, 405);
        return true;
    }
    const uint8_t *png = NULL;
    size_t len = 0;
    switch (map_tile(zoom, (int32_t)tx, (int32_t)tz, &png, &len)) {
    case MAP_READY: respond(c, req, 200, "image/png", (const char *)png, len, NULL); break;
    case MAP_EMPTY: respond(c, req, 204, "image/png", "", 0, NULL); break;
    case MAP_PENDING: /* 202, not 503: a tile being drawn is no error (browsers log 5xx) */
        respond(c, req, 202, "text/plain; charset=utf-8", "rendering\n", 10, "Retry-After: 1\r\n");
        break;
    default: respond_error(c, req, 404); break;
    }
    return true;
}

static void route(http_client *c, const struct http_request *req)
{
    if (http.loopback && req->has_host && !http_host_is_local(req->host)) {
        respond_error(c, req, 421);
        return;
    }
    const char *path = req->path;
    if (strncmp(path, "/map/tiles/", 11) == 0 && route_tile(c, req, path)) return;
    if (strncmp(path, "/api/players/", 13) == 0) {
        unsigned long page;
        int n = 0;
        if (sscanf(path, "/api/players/%lu%n", &page, &n) != 1 || path[n] || page > 1000000) {
            respond_error(c, req, 404);
        } else if (req->method == HTTP_OTHER) {
            respond_error(c, req, 405);
        } else {
            size_t len;
            const char *json = status_api_players_json(page, &len);
            respond(c, req, 200, "application/json", json, len, NULL);
        }
        return;
    }
    bool known = strcmp(path, "/") == 0 || strcmp(path, "/metrics") == 0 ||
                 strcmp(path, "/api/status") == 0 || strcmp(path, "/api/history") == 0 ||
                 strcmp(path, "/healthz") == 0 || strcmp(path, "/favicon.ico") == 0 ||
                 perf_api_route(path) || strcmp(path, "/debug/pprof/profile") == 0;
    if (!known) {
        respond_error(c, req, 404);
        return;
    }
    if (req->method == HTTP_OTHER) {
        respond_error(c, req, 405);
        return;
    }
    size_t len;
    if (strcmp(path, "/debug/pprof/profile") == 0) { /* issue 16: answered when it ends */
        struct http_reply r = {0};
        pprof_http_profile(req->query, c->serial, &r);
        if (r.deferred) {
            c->deferred = true;
            c->defer_keep = req->keep_alive;
            c->defer_head = req->method == HTTP_HEAD;
        } else {
            respond(c, req, r.code, r.type, r.body, r.len, r.headers);
        }
    } else if (perf_api_route(path)) { /* /api/tick, /api/health, /debug/conns */
        struct http_reply r = {0};
        perf_api_get(path, req->query, &r);
        respond(c, req, r.code, r.type, r.body, r.len, r.headers);
    } else if (strcmp(path, "/metrics") == 0) {
        const char *text = metrics_text(&len);
        respond(c, req, 200, "text/plain; version=0.0.4; charset=utf-8", text, len, NULL);
    } else if (strcmp(path, "/api/status") == 0) {
        const char *json = status_api_json(&len);
        respond(c, req, 200, "application/json", json, len, NULL);
    } else if (strcmp(path, "/api/history") == 0) {
        const char *json = status_api_history_json(&len);
        respond(c, req, 200, "application/json", json, len, NULL);
    } else if (strcmp(path, "/favicon.ico") == 0) { /* browsers ask; there is none */
        respond(c, req, 204, "image/x-icon", "", 0, NULL);
    } else if (strcmp(path, "/healthz") == 0) {
        respond(c, req, 200, "text/plain; charset=utf-8", "ok\n", 3, NULL);
    } else {
        const char *html = dashboard_html(&len);
        respond(c, req, 200, "text/html; charset=utf-8", html, len, dashboard_headers());
    }
}

/* Answers every complete head in c->in (pipelining), while output has room. */
static void process(http_client *c)
{
    while (!c->peer.closed && !c->closing && !c->deferred && c->peer.out.len < HTTP_OUT_PAUSE) {
        size_t end = http_head_end(c->in, c->in_len, &c->scan);
        if (!end) {
            if (c->in_len == sizeof c->in) {
                respond_error(c, NULL, 431);
                c->closing = true;
            }
            break;
        }
        struct http_request req;
        int rc = http_parse_head(c->in, end, &req);
        if (rc < 0) {
            log_debug("[http %s] refused a request: %d", c->peer.addr, -rc);
            respond_error(c, NULL, -rc);
            c->closing = true;
            break;
        }
        route(c, &req);
        memmove(c->in, c->in + end, c->in_len - end);
        c->in_len -= end;
        c->scan = 0;
        c->request_ms = c->in_len ? http.now_ms : 0;
    }
}

/* Lingering: input is read and dropped until EOF (bounded by HTTP_LINGER_MS). */
static void linger_read(http_client *c)
{
    char sink[4096];
    for (int rounds = 0; rounds < 16; rounds++) {
        ssize_t n = recv(c->peer.fd, sink, sizeof sink, 0);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        client_close(c);
        return;
    }
}

static void client_read(http_client *c)
{
    for (int rounds = 0; rounds < 4 && !c->peer.closed; rounds++) {
        size_t room = sizeof c->in - c->in_len;
        if (room == 0) break;
        ssize_t n = recv(c->peer.fd, c->in + c->in_len, room, 0);
        if (n > 0) {
            if (c->in_len == 0 && !c->request_ms) c->request_ms = http.now_ms;
            c->in_len += (size_t)n;
            c->active_ms = http.now_ms;
            process(c);
            if (c->closing || c->peer.out.len >= HTTP_OUT_PAUSE) break;
            continue;
        }
        if (n == 0) { /* the peer finished sending: answer what is complete, then close */
            c->closing = true;
            break;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        client_close(c);
        return;
    }
}

static void client_event(loop_watch *w, uint32_t events)
{
    http_client *c = (http_client *)w;
    if (c->peer.closed) return;
    http.now_ms = srv->loop->now_ms;
    if (events & EPOLLERR) {
        client_close(c);
        return;
    }
    if (c->lingering) {
        linger_read(c);
        return;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) client_read(c);
    if (!c->peer.closed) client_flush(c);
}

static void accept_event(loop_watch *w, uint32_t events)
{
    (void)w;
    (void)events;
    http.now_ms = srv->loop->now_ms;
    /* A few per event, fewer than one address's cap: clients accepted in
     * this pass are read before a later batch can evict them. */
    for (int i = 0; i < HTTP_MAX_PER_ADDRESS / 4; i++) {
        struct sockaddr_storage ss;
        char addr[ADDR_TEXT_MAX], ip[ADDR_IP_MAX];
        int fd = admin_accept_admitted(http.fd, &http.peers, &ss, addr, ip);
        if (fd < 0) return;
        http_client *c = (http_client *)admin_peer_new(
            &http.peers, sizeof *c, fd, addr, ip, HTTP_OUT_MAX, client_event, EPOLLIN | EPOLLRDHUP);
        if (!c) continue;
        c->active_ms = http.now_ms;
        c->request_ms = http.now_ms; /* HTTP_READ_MS for the first request, from accept */
        c->reading = true;
        c->serial = ++http.next_serial; /* before the first read: a profile request needs it */
        /* The request usually came with the connection: answer it now
         * (admin.h invariant 3). */
        client_event(&c->peer.w, EPOLLIN);
    }
}

static http_client *client_by_ticket(http_ticket t)
{
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &http.peers.live) {
        http_client *c = (http_client *)list_entry(n, admin_peer, link);
        if (c->serial == t && !c->peer.closed) return c;
    }
    return NULL;
}

bool http_ticket_alive(http_ticket t)
{
    http_client *c = client_by_ticket(t);
    return c && c->deferred && !c->closing;
}

int http_answer(http_ticket t, int code, const char *type, const void *body, size_t len,
                const char *extra_headers)
{
    http_client *c = client_by_ticket(t);
    if (!c || !c->deferred) return -1;
    static struct http_request req; /* only keep_alive and method matter to respond() */
    req.keep_alive = c->defer_keep;
    req.method = c->defer_head ? HTTP_HEAD : HTTP_GET;
    c->deferred = false;
    c->active_ms = http.now_ms = srv->loop->now_ms;
    respond(c, &req, code, type, body, len, extra_headers);
    if (!c->peer.closed) process(c); /* requests pipelined behind it */
    if (!c->peer.closed) client_flush(c);
    return 0;
}

void http_pass(int64_t now_ms)
{
    http.now_ms = now_ms;
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &http.peers.live) {
        http_client *c = (http_client *)list_entry(n, admin_peer, link);
        bool idle = !c->in_len && !c->request_ms && !c->peer.out.len &&
                    now_ms - c->active_ms > HTTP_IDLE_MS;
        bool slow_head = c->request_ms && !c->peer.out.len && now_ms - c->request_ms > HTTP_READ_MS;
        if (c->deferred) idle = slow_head = false; /* its answer is being made */
        bool stuck = c->peer.out.len && now_ms - c->active_ms > HTTP_WRITE_MS;
        if (c->lingering) {
            idle = now_ms - c->active_ms > HTTP_LINGER_MS;
            slow_head = stuck = false;
        }
        if (idle || slow_head || stuck) {
            if (!c->lingering) {
                admin_stats.http.timed_out++;
                log_limited(&k_deadline, LOG_INFO, "[http %s] closed: %s", c->peer.addr,
                            idle        ? "idle for 30 s"
                            : slow_head ? "no complete request head within 5 s"
                                        : "not reading its answer for 30 s");
            }
            client_close(c);
        }
    }
    admin_peers_free_closed(&http.peers);
}

int http_start(const struct server_config *cfg)
{
    if (cfg->admin_http_port == 0) {
        log_info("admin-http-port=0: the HTTP admin endpoint is off");
        return 0;
    }
    http.fd = admin_listen("HTTP admin endpoint", cfg->admin_http_address, cfg->admin_http_port,
                           SOCK_STREAM);
    if (http.fd < 0) return -1;
    http.loopback = admin_is_loopback(cfg->admin_http_address);
    http.w.on_event = accept_event;
    if (loop_watch_add(srv->loop, &http.w, http.fd, EPOLLIN) < 0) {
        close(http.fd);
        http.fd = -1;
        return -1;
    }
    log_info("HTTP admin endpoint on http://%s:%d/ (/metrics, /api/status, /api/tick, /api/health, "
             "/healthz, /map/tiles, /debug/pprof/profile, /debug/conns)%s",
             cfg->admin_http_address[0] ? cfg->admin_http_address : "0.0.0.0", cfg->admin_http_port,
             http.loopback ? "" : "; it is not on a loopback address: keep it behind a firewall");
    return 0;
}

void http_stop(void)
{
    pprof_http_stop();
    perf_api_free();
    for (admin_peer *p; (p = admin_peer_first(&http.peers));) client_close((http_client *)p);
    if (http.fd >= 0) {
        loop_watch_del(srv->loop, &http.w);
        close(http.fd);
        http.fd = -1;
    }
    http_pass(http.now_ms);
}
