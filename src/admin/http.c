/*
 * http.c — see http.h.
 *
 * Two halves: the request-head parser (pure; HTTP_CORE_ONLY builds only it,
 * for tests/unit/test_admin.c and tests/fuzz/fuzz_http.c), then the
 * listener, the clients and the routes.
 */
#include "admin/http.h"

#include <string.h>
#include <strings.h>

/* ================================================================ parser */

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

#ifndef HTTP_CORE_ONLY
/* ============================================================== the server */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "admin/admin.h"
#include "admin/dashboard.h"
#include "admin/metrics.h"
#include "admin/status_api.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "net/server.h"

typedef struct http_client {
    loop_watch w;
    int fd;
    char addr[64];
    char in[HTTP_HEAD_MAX];
    size_t in_len, scan;
    buf_t out;
    bool closing;       /* close once out is flushed */
    bool lingering;     /* sent everything, write side shut: draining input until EOF */
    bool closed;        /* off epoll, waiting for http_pass to free it */
    bool reading;       /* EPOLLIN armed */
    bool writing;       /* EPOLLOUT armed */
    int64_t active_ms;  /* last byte in or out */
    int64_t request_ms; /* first byte of the head being read; 0 none */
    struct http_client *prev, *next, *next_free;
} http_client;

static struct {
    loop_watch w;
    int fd;
    bool loopback; /* the listener is on a loopback address: check Host */
    http_client *clients, *free_list;
    size_t count;
    int64_t now_ms;
} H = {.fd = -1};

static const char *status_text(int code)
{
    switch (code) {
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
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
    if (c->closed) return;
    loop_watch_del(srv->loop, &c->w);
    close(c->fd);
    c->fd = -1;
    c->closed = true;
    if (c->prev)
        c->prev->next = c->next;
    else
        H.clients = c->next;
    if (c->next) c->next->prev = c->prev;
    c->next_free = H.free_list;
    H.free_list = c;
    H.count--;
}

static void client_events(http_client *c)
{
    uint32_t ev = (c->reading ? EPOLLIN : 0) | (c->writing ? EPOLLOUT : 0);
    loop_watch_mod(srv->loop, &c->w, ev | EPOLLRDHUP);
}

/* Writes what the socket takes; closes c when done and closing. */
static void client_flush(http_client *c)
{
    while (c->out.len) {
        ssize_t n = send(c->fd, c->out.data, c->out.len, MSG_NOSIGNAL);
        if (n > 0) {
            buf_consume(&c->out, (size_t)n);
            c->active_ms = H.now_ms;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        client_close(c);
        return;
    }
    if (!c->out.len) {
        buf_shrink_if_idle(&c->out, 256u << 10);
        if (c->closing && !c->lingering) {
            /* Lingering close: shut our side, then read and drop what the
             * client still sends, so its unread request does not turn into
             * a reset that destroys the answer in flight (RFC 9112 9.6). */
            if (!c->in_len && !c->request_ms) {
                client_close(c);
                return;
            }
            shutdown(c->fd, SHUT_WR);
            c->lingering = true;
            c->active_ms = H.now_ms;
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
    bool want_write = c->out.len > 0;
    bool want_read = !c->closing && c->out.len < HTTP_OUT_PAUSE;
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
    buf_append(&c->out, head, (size_t)n);
    if (!req || req->method != HTTP_HEAD) buf_append(&c->out, body, len);
    if (c->out.failed) {
        log_warn("[http %s] response over %u MiB queued; closing", c->addr, HTTP_OUT_MAX >> 20);
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

static void route(http_client *c, const struct http_request *req)
{
    if (H.loopback && req->has_host && !http_host_is_local(req->host)) {
        respond_error(c, req, 421);
        return;
    }
    const char *path = req->path;
    bool known = strcmp(path, "/") == 0 || strcmp(path, "/metrics") == 0 ||
                 strcmp(path, "/api/status") == 0 || strcmp(path, "/healthz") == 0 ||
                 strcmp(path, "/favicon.ico") == 0;
    if (!known) {
        respond_error(c, req, 404);
        return;
    }
    if (req->method == HTTP_OTHER) {
        respond_error(c, req, 405);
        return;
    }
    size_t len;
    if (strcmp(path, "/metrics") == 0) {
        const char *text = metrics_text(&len);
        respond(c, req, 200, "text/plain; version=0.0.4; charset=utf-8", text, len, NULL);
    } else if (strcmp(path, "/api/status") == 0) {
        const char *json = status_api_json(&len);
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
    while (!c->closed && !c->closing && c->out.len < HTTP_OUT_PAUSE) {
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
            log_debug("[http %s] refused a request: %d", c->addr, -rc);
            respond_error(c, NULL, -rc);
            c->closing = true;
            break;
        }
        route(c, &req);
        memmove(c->in, c->in + end, c->in_len - end);
        c->in_len -= end;
        c->scan = 0;
        c->request_ms = c->in_len ? H.now_ms : 0;
    }
}

/* Lingering: input is read and dropped until EOF (bounded by HTTP_LINGER_MS). */
static void linger_read(http_client *c)
{
    char sink[4096];
    for (int rounds = 0; rounds < 16; rounds++) {
        ssize_t n = recv(c->fd, sink, sizeof sink, 0);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        client_close(c);
        return;
    }
}

static void client_read(http_client *c)
{
    for (int rounds = 0; rounds < 4 && !c->closed; rounds++) {
        size_t room = sizeof c->in - c->in_len;
        if (room == 0) break;
        ssize_t n = recv(c->fd, c->in + c->in_len, room, 0);
        if (n > 0) {
            if (c->in_len == 0) c->request_ms = H.now_ms;
            c->in_len += (size_t)n;
            c->active_ms = H.now_ms;
            process(c);
            if (c->closing || c->out.len >= HTTP_OUT_PAUSE) break;
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
    if (c->closed) return;
    H.now_ms = srv->loop->now_ms;
    if (events & EPOLLERR) {
        client_close(c);
        return;
    }
    if (c->lingering) {
        linger_read(c);
        return;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) client_read(c);
    if (!c->closed) client_flush(c);
}

static void accept_event(loop_watch *w, uint32_t events)
{
    (void)w;
    (void)events;
    H.now_ms = srv->loop->now_ms;
    for (int i = 0; i < 64; i++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(H.fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                log_warn("http: accept: %s", strerror(errno));
            return;
        }
        char addr[64], ip[48];
        admin_addr_text(&ss, addr, sizeof addr, ip, sizeof ip);
        if (H.count >= HTTP_MAX_CLIENTS) {
            admin_stats.http_refused++;
            log_debug("http: refusing %s: %d clients open (the limit)", addr, HTTP_MAX_CLIENTS);
            close(fd);
            continue;
        }
        http_client *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->w.on_event = client_event;
        c->fd = fd;
        snprintf(c->addr, sizeof c->addr, "%s", addr);
        buf_init(&c->out, HTTP_OUT_MAX);
        c->active_ms = H.now_ms;
        c->reading = true;
        if (loop_watch_add(srv->loop, &c->w, fd, EPOLLIN | EPOLLRDHUP) < 0) {
            close(fd);
            buf_free(&c->out);
            free(c);
            continue;
        }
        c->next = H.clients;
        if (H.clients) H.clients->prev = c;
        H.clients = c;
        H.count++;
    }
}

void http_pass(int64_t now_ms)
{
    H.now_ms = now_ms;
    http_client *next;
    for (http_client *c = H.clients; c; c = next) {
        next = c->next;
        bool idle = !c->in_len && !c->out.len && now_ms - c->active_ms > HTTP_IDLE_MS;
        bool slow_head = c->request_ms && now_ms - c->request_ms > HTTP_READ_MS;
        bool stuck = c->out.len && now_ms - c->active_ms > HTTP_WRITE_MS;
        if (c->lingering) {
            idle = now_ms - c->active_ms > HTTP_LINGER_MS;
            slow_head = stuck = false;
        }
        if (idle || slow_head || stuck) {
            log_debug("[http %s] closed: %s", c->addr,
                      idle        ? "idle"
                      : slow_head ? "request head too slow"
                                  : "not reading");
            client_close(c);
        }
    }
    while (H.free_list) {
        http_client *c = H.free_list;
        H.free_list = c->next_free;
        buf_free(&c->out);
        free(c);
    }
}

int http_start(const struct server_config *cfg)
{
    if (cfg->admin_http_port == 0) {
        log_info("admin-http-port=0: the HTTP admin endpoint is off");
        return 0;
    }
    H.fd = admin_listen("HTTP admin endpoint", cfg->admin_http_address, cfg->admin_http_port,
                        SOCK_STREAM);
    if (H.fd < 0) return -1;
    H.loopback = admin_is_loopback(cfg->admin_http_address);
    H.w.on_event = accept_event;
    if (loop_watch_add(srv->loop, &H.w, H.fd, EPOLLIN) < 0) {
        close(H.fd);
        H.fd = -1;
        return -1;
    }
    log_info("HTTP admin endpoint on http://%s:%d/ (/metrics, /api/status, /healthz)%s",
             cfg->admin_http_address[0] ? cfg->admin_http_address : "0.0.0.0", cfg->admin_http_port,
             H.loopback ? "" : "; it is not on a loopback address: keep it behind a firewall");
    return 0;
}

void http_stop(void)
{
    while (H.clients) client_close(H.clients);
    if (H.fd >= 0) {
        loop_watch_del(srv->loop, &H.w);
        close(H.fd);
        H.fd = -1;
    }
    http_pass(H.now_ms);
}

#endif /* HTTP_CORE_ONLY */
