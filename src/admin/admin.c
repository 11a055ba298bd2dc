/*
 * admin.c — see admin.h: starting and stopping the admin modules, the pass
 * hook that runs their timeouts, and the socket helpers they share.
 */
#include "admin/admin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "admin/dashboard.h"
#include "admin/http.h"
#include "admin/metrics.h"
#include "admin/mgmt.h"
#include "admin/query.h"
#include "admin/rcon.h"
#include "admin/status_api.h"
#include "core/config.h"
#include "core/log.h"
#include "net/server.h"
#include "world/store.h"

struct admin_stats admin_stats;

bool admin_is_loopback(const char *ip)
{
    if (strcasecmp(ip, "localhost") == 0 || strcmp(ip, "::1") == 0) return true;
    struct in_addr a;
    return inet_pton(AF_INET, ip, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

int admin_listen(const char *what, const char *ip, int port, int type)
{
    const char *host = ip && ip[0] ? ip : "0.0.0.0";
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    socklen_t sl;
    struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
    if (strcasecmp(host, "localhost") == 0) host = "127.0.0.1";
    if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        sl = sizeof *a4;
    } else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        sl = sizeof *a6;
    } else {
        log_error("%s: '%s' is not an IPv4 or IPv6 address; %s stays off", what, host, what);
        return -1;
    }
    int fd = socket(ss.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        log_error("%s: socket: %s; %s stays off", what, strerror(errno), what);
        return -1;
    }
    int one = 1;
    /* TCP: rebind over TIME_WAIT after a restart. Not for UDP, where it
     * would let two servers share (and split) one Query port. */
    if (type == SOCK_STREAM) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
        log_warn("%s: cannot listen on %s:%d: %s; %s stays off", what, host, port, strerror(errno),
                 what);
        close(fd);
        return -1;
    }
    if (type == SOCK_STREAM && listen(fd, ADMIN_LISTEN_BACKLOG) < 0) {
        log_error("%s: listen: %s; %s stays off", what, strerror(errno), what);
        close(fd);
        return -1;
    }
    return fd;
}

const char *const admin_refusal_names[ADMIN_REFUSED_COUNT] = {"full", "per_address"};

/* Descriptors: the admin caps fit in what game connections leave free. */
_Static_assert(HTTP_MAX_CLIENTS + RCON_MAX_CLIENTS + STORE_REGIONS_OPEN + 64 <= NET_FD_RESERVE,
               "NET_FD_RESERVE (net/server.h) must cover the admin clients and region files");

static log_kind k_accept_failed = LOG_KIND;

/* The next connection waiting on a listener, non-blocking, its peer in ss:
 * the fd, or -1 when none waits (another failure is logged). */
static int admin_accept(int listen_fd, const char *what, struct sockaddr_storage *ss)
{
    for (;;) { /* bounded: each ECONNABORTED takes one connection off the backlog */
        socklen_t sl = sizeof *ss;
        int fd = accept4(listen_fd, (struct sockaddr *)ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) return fd;
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            log_limited(&k_accept_failed, LOG_WARN, "%s: accept: %s", what, strerror(errno));
        return -1;
    }
}

/* The client of `set` (from `ip` when ip is not NULL) that has waited
 * longest on its peer; NULL when every one of them is busy. */
static admin_peer *eviction_victim(admin_peers *set, const char *ip, int64_t now)
{
    admin_peer *best = NULL;
    int64_t best_since = 0;
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &set->live) {
        admin_peer *p = list_entry(n, admin_peer, link);
        if (ip && strcmp(p->ip, ip) != 0) continue;
        int64_t since = set->idle_since(p, now);
        /* `live` is newest first: on a tie the older one, met later, wins */
        if (since && (!best || since <= best_since)) {
            best = p;
            best_since = since;
        }
    }
    return best;
}

/* Room for a new client from ip (invariant 3): true = admit it. */
static bool admit(admin_peers *set, const char *addr, const char *ip, int64_t now)
{
    size_t from_ip = 0;
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &set->live)
        if (strcmp(list_entry(n, admin_peer, link)->ip, ip) == 0) from_ip++;
    enum admin_refusal why;
    const char *scope;
    if (set->per_address && from_ip >= set->per_address) {
        why = ADMIN_REFUSED_PER_ADDRESS;
        scope = ip;
    } else if (set->count >= set->max) {
        why = ADMIN_REFUSED_FULL;
        scope = NULL;
    } else {
        return true;
    }
    admin_peer *v = eviction_victim(set, scope, now);
    if (v) {
        set->stats->evicted++;
        log_limited(&set->k_evicted, LOG_INFO,
                    "%s: closed %s (open %lld ms) to make room for %s: %zu clients %s%s (the "
                    "limit)",
                    set->what, v->addr, (long long)(now - v->opened_ms), addr,
                    scope ? from_ip : set->count, scope ? "from " : "connected",
                    scope ? scope : "");
        admin_peer_close(set, v);
        return true;
    }
    set->stats->refused[why]++;
    log_limited(&set->k_refused, LOG_WARN,
                "%s: refusing %s: %zu clients %s%s (the limit), all busy", set->what, addr,
                scope ? from_ip : set->count, scope ? "from " : "connected", scope ? scope : "");
    return false;
}

int admin_accept_admitted(int listen_fd, admin_peers *set, struct sockaddr_storage *ss,
                          char addr[ADDR_TEXT_MAX], char ip[ADDR_IP_MAX])
{
    for (int tries = 0; tries < 64; tries++) { /* bounded by the backlog in any case */
        int fd = admin_accept(listen_fd, set->what, ss);
        if (fd < 0) return -1;
        addr_text((struct sockaddr *)ss, addr, ADDR_TEXT_MAX);
        addr_ip((struct sockaddr *)ss, ip, ADDR_IP_MAX);
        if (admit(set, addr, ip, srv->loop->now_ms)) return fd;
        close(fd);
    }
    return -1;
}

admin_peer *admin_peer_new(admin_peers *set, size_t size, int fd, const char *addr, const char *ip,
                           size_t out_max, void (*on_event)(loop_watch *w, uint32_t events),
                           uint32_t events)
{
    admin_peer *p = calloc(1, size);
    if (!p) {
        close(fd);
        return NULL;
    }
    p->w.on_event = on_event;
    p->fd = fd;
    p->opened_ms = srv->loop->now_ms;
    snprintf(p->addr, sizeof p->addr, "%s", addr);
    snprintf(p->ip, sizeof p->ip, "%s", ip);
    buf_init(&p->out, out_max);
    if (loop_watch_add(srv->loop, &p->w, fd, events) < 0) {
        close(fd);
        buf_free(&p->out);
        free(p);
        return NULL;
    }
    list_push_front(&set->live, &p->link);
    set->count++;
    return p;
}

void admin_peer_close(admin_peers *set, admin_peer *p)
{
    if (p->closed) return;
    loop_watch_del(srv->loop, &p->w);
    close(p->fd);
    p->fd = -1;
    p->closed = true;
    list_move_back(&set->closed, &p->link);
    set->count--;
}

admin_peer *admin_peer_first(admin_peers *set)
{
    return list_empty(&set->live) ? NULL : list_entry(set->live.next, admin_peer, link);
}

void admin_peers_free_closed(admin_peers *set)
{
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &set->closed) {
        admin_peer *p = list_entry(n, admin_peer, link);
        list_remove(n);
        buf_free(&p->out);
        free(p); /* the client it starts */
    }
}

void admin_number(buf_t *b, double v, const char *fraction_fmt)
{
    char t[48];
    if (!isfinite(v)) v = 0;
    int n = v == floor(v) && fabs(v) < 1e15 ? snprintf(t, sizeof t, "%.0f", v)
                                            : snprintf(t, sizeof t, fraction_fmt, v);
    if (n > 0) buf_append(b, t, (size_t)n < sizeof t ? (size_t)n : sizeof t - 1);
}

void admin_json_key(buf_t *b, const char *key)
{
    buf_lit(b, "\"");
    buf_append(b, key, strlen(key));
    buf_lit(b, "\":");
}

void admin_json_kv(buf_t *b, const char *key, double v, bool comma)
{
    admin_json_key(b, key);
    admin_number(b, v, "%.3f");
    if (comma) buf_lit(b, ",");
}

static void admin_pass(int64_t now_ms)
{
    http_pass(now_ms);
    rcon_pass(now_ms);
    status_api_pass(now_ms);
    mgmt_pass(now_ms);
}

static void admin_hook(void *arg)
{
    (void)arg;
    admin_pass(srv->loop->now_ms);
}

void admin_start(loop *l, const struct server_config *cfg)
{
    loop_hook_add(l, ADMIN_HOOK, admin_hook, NULL);
    rcon_start(cfg);
    query_start(cfg);
    http_start(cfg);
    mgmt_start(cfg);
}

void admin_stop(void)
{
    mgmt_stop();
    http_stop();
    rcon_stop();
    query_stop();
    status_api_free();
    metrics_free();
    dashboard_free();
}
