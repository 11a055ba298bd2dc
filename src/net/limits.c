/*
 * limits.c — see limits.h (and docs/hardening.md for the settings): the
 * glue of the abuse limits to connections, the log and the settings. The
 * pure parts are net/ratelimit.c (rate windows, packet tables) and
 * net/ip_table.c (address keys, the per-IP table, the throttle rule). All
 * of it runs on the game thread.
 */
#include "net/limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/addr.h"
#include "core/config.h"
#include "core/fileio.h"
#include "core/log.h"
#include "net/server.h"

struct limits_stats limits_stats;

static struct {
    ip_table ips;
    bool per_ip; /* per-IP rules on (no proxy in front) */
    bool exempt_loopback;
    int64_t throttle_ms;
    uint32_t per_ip_max, prelogin_max;
    int64_t handshake_ms; /* handshake-timeout; 0 off */
    int64_t interval_ms;
    uint32_t max_in_interval; /* packet-limit-max-rate × interval */
    int64_t slow_ms;
    list_node fresh, waiting; /* the eviction lists (limits.h), oldest first */
    list_node blocked;        /* connections with out_blocked_ms set (limits.h) */
    int64_t next_sweep_ms;
} limits;

/* One log kind per reason (core/log.h invariant 5). */
static log_kind k_refused_ip = LOG_KIND, k_refused_pool = LOG_KIND, k_refused_fds = LOG_KIND;
static log_kind k_evicted = LOG_KIND, k_throttled = LOG_KIND, k_too_large = LOG_KIND;
static log_kind k_rate_kick = LOG_KIND, k_rate_drop = LOG_KIND, k_slow = LOG_KIND;

int limits_init(const struct server_config *cfg)
{
    memset(&limits, 0, sizeof limits);
    memset(&limits_stats, 0, sizeof limits_stats);
    limits.per_ip = cfg->forwarding_mode == FWD_NONE;
    limits.exempt_loopback = cfg->limits_exempt_loopback;
    limits.throttle_ms = cfg->connection_throttle;
    limits.per_ip_max = (uint32_t)cfg->max_connections_per_ip;
    limits.prelogin_max = (uint32_t)cfg->max_prelogin_connections;
    limits.handshake_ms = cfg->handshake_timeout;
    limits.interval_ms = (int64_t)cfg->packet_limit_interval * 1000;
    limits.max_in_interval =
        (uint32_t)((int64_t)cfg->packet_limit_max_rate * cfg->packet_limit_interval);
    limits.slow_ms = cfg->slow_client_timeout;
    list_init(&limits.fresh);
    list_init(&limits.waiting);
    list_init(&limits.blocked);
    if (ip_table_init(&limits.ips, LIMITS_IP_MAX) < 0) return -1;
    return 0;
}

void limits_check_pool(size_t max_conns)
{
    if (!limits.prelogin_max || limits.prelogin_max > max_conns)
        log_info("max-prelogin-connections=%u: the descriptor limit allows %zu connections in "
                 "all, the tighter bound (raise `ulimit -n` for more)",
                 limits.prelogin_max, max_conns);
}

void limits_free(void)
{
    ip_table_free(&limits.ips);
}

static bool exempt(const ip_key *k)
{
    return limits.exempt_loopback && limits_key_is_loopback(k);
}

/* ------------------------------------------------------ the pre-login pool */

static void pool_leave(conn *c)
{
    if (c->lim.pool == POOL_NONE) return;
    if (c->lim.pool == POOL_FRESH) limits_stats.fresh--;
    list_remove(&c->lim.pool_link);
    c->lim.pool = POOL_NONE;
}

static void pool_enter(conn *c, enum limits_pool which)
{
    pool_leave(c);
    list_push_back(which == POOL_FRESH ? &limits.fresh : &limits.waiting, &c->lim.pool_link);
    c->lim.pool = (uint8_t)which;
    if (which == POOL_FRESH) limits_stats.fresh++;
}

static void prelogin_release(conn *c)
{
    if (c->lim.prelogin) {
        c->lim.prelogin = false;
        limits_stats.prelogin--;
    }
}

/* The oldest connection still in HANDSHAKE (stale entries are unlinked). */
static conn *fresh_victim(void)
{
    while (!list_empty(&limits.fresh)) {
        conn *c = list_entry(limits.fresh.next, conn, lim.pool_link);
        if (!c->closed && c->state == CS_HANDSHAKE) return c;
        pool_leave(c); /* a legacy ping answered, or closed: not a candidate */
    }
    return NULL;
}

/* The oldest handshaken connection not waiting on the session server,
 * looking at most LIMITS_WAITING_SCAN entries. */
static conn *waiting_victim(void)
{
    list_node *n, *tmp;
    int looked = 0;
    list_for_each_safe (n, tmp, &limits.waiting) {
        conn *c = list_entry(n, conn, lim.pool_link);
        if (c->closed || (c->state != CS_STATUS && c->state != CS_LOGIN)) {
            pool_leave(c);
            continue;
        }
        if (!c->auth) return c;
        if (++looked >= LIMITS_WAITING_SCAN) break;
    }
    return NULL;
}

static const char busy_text[] =
    "The server has too many connections logging in; please try again in a moment";

/* Makes room for one connection from `who` (the pool or the descriptors are
 * full). true when a connection was closed (or kicked) for it. */
static bool evict_for(const struct sockaddr *who, bool fds_full)
{
    conn *v = fresh_victim();
    bool fresh = v != NULL;
    if (!v) v = waiting_victim();
    if (!v) return false;
    char addr[ADDR_TEXT_MAX];
    addr_text(who, addr, sizeof addr);
    int64_t age = srv->loop->now_ms - v->connected_ms;
    if (fresh) {
        limits_stats.evicted_fresh++;
        log_limited(&k_evicted, LOG_INFO,
                    "[%s] closed to make room for %s: no handshake after %lld ms (%s full)",
                    v->addr, addr, (long long)age,
                    fds_full ? "the descriptor limit" : "max-prelogin-connections");
        conn_drop(v, NULL);
        return true;
    }
    limits_stats.evicted_waiting++;
    log_limited(&k_evicted, LOG_INFO,
                "[%s] closed to make room for %s: %s for %lld ms without finishing (%s full)",
                v->addr, addr, v->state == CS_STATUS ? "in status" : "logging in", (long long)age,
                fds_full ? "the descriptor limit" : "max-prelogin-connections");
    /* The pool slot is free at once; a kick still holds its descriptor
     * for up to CONN_CLOSING_GRACE, so with descriptors short it is closed. */
    prelogin_release(v);
    pool_leave(v);
    if (v->state == CS_LOGIN && !fds_full)
        conn_kick_reason(v, KR_BUSY, NULL, busy_text);
    else
        conn_drop(v, NULL);
    return true;
}

bool limits_accept(const struct sockaddr *sa)
{
    char addr[ADDR_TEXT_MAX];
    ip_key k;
    if (limits.per_ip && limits.per_ip_max && !srv->cfg.proxy_protocol &&
        limits_key_from_sockaddr(sa, &k) && !exempt(&k)) {
        struct ip_entry *e = ip_table_get(&limits.ips, &k, false);
        if (e && e->conns >= limits.per_ip_max) {
            limits_stats.refused_per_ip++;
            addr_text(sa, addr, sizeof addr);
            log_limited(&k_refused_ip, LOG_WARN,
                        "[%s] connection refused: %u connections open from this address "
                        "(max-connections-per-ip=%u)",
                        addr, e->conns, limits.per_ip_max);
            return false;
        }
    }
    bool pool_full = limits.prelogin_max && limits_stats.prelogin >= limits.prelogin_max;
    bool fds_full = srv->conn_count >= srv->max_conns;
    if (!pool_full && !fds_full) return true;
    if (evict_for(sa, fds_full)) {
        /* One closed; the other bound may still be full (rare: a kick keeps its descriptor). */
        fds_full = srv->conn_count >= srv->max_conns;
        if (!fds_full || evict_for(sa, true)) return true;
    }
    addr_text(sa, addr, sizeof addr);
    if (fds_full) {
        limits_stats.refused_fds++;
        log_limited(&k_refused_fds, LOG_WARN,
                    "[%s] connection refused: %zu connections open, all the descriptor limit "
                    "allows, and none is waiting to log in",
                    addr, srv->conn_count);
    } else {
        limits_stats.refused_prelogin++;
        log_limited(&k_refused_pool, LOG_WARN,
                    "[%s] connection refused: %zu connections are still logging in "
                    "(max-prelogin-connections=%u) and none of them can be evicted",
                    addr, limits_stats.prelogin, limits.prelogin_max);
    }
    return false;
}

static void count_ip(conn *c, const ip_key *k)
{
    if (!limits.per_ip || exempt(k)) return;
    struct ip_entry *e = ip_table_get(&limits.ips, k, true);
    if (!e) return; /* table full: not tracked (invariant 2) */
    e->conns++;
    c->lim.ip = *k;
    c->lim.ip_counted = true;
}

void limits_conn_opened(conn *c, const struct sockaddr *sa)
{
    c->lim.prelogin = true;
    limits_stats.prelogin++;
    list_init(&c->lim.pool_link);
    pool_enter(c, POOL_FRESH);
    if (limits.handshake_ms > 0 && limits.handshake_ms < LIMITS_LOGIN_START_MS)
        conn_set_deadline(c, c->connected_ms + limits.handshake_ms);
    ip_key k;
    if (!srv->cfg.proxy_protocol && limits_key_from_sockaddr(sa, &k)) count_ip(c, &k);
}

bool limits_conn_readdressed(conn *c)
{
    ip_key k;
    if (!limits.per_ip || c->lim.ip_counted || !limits_key_from_text(c->addr, &k) || exempt(&k))
        return true;
    struct ip_entry *e = ip_table_get(&limits.ips, &k, false);
    if (limits.per_ip_max && e && e->conns >= limits.per_ip_max) {
        limits_stats.refused_per_ip++;
        char why[128];
        snprintf(why, sizeof why,
                 "%u connections open from this address (max-connections-per-ip=%u)", e->conns,
                 limits.per_ip_max);
        conn_drop(c, why);
        return false;
    }
    count_ip(c, &k);
    return true;
}

const char *limits_handshake_expired(conn *c)
{
    static char why[96];
    if (limits.handshake_ms > 0 && c->deadline_ms - c->connected_ms < LIMITS_LOGIN_START_MS) {
        limits_stats.handshake_timeouts++;
        snprintf(why, sizeof why, "no complete handshake within %lld ms (handshake-timeout)",
                 (long long)limits.handshake_ms);
        return why;
    }
    return "timed out before completing login";
}

static const char throttled_text[] = "Connection throttled! Please wait before reconnecting.";

/* Handshake asked for login (c is in LOGIN): the connection throttle. */
static void login_intent(conn *c)
{
    if (!limits.per_ip || limits.throttle_ms <= 0) return;
    ip_key k;
    if (!limits_key_from_text(c->addr, &k) || exempt(&k)) return;
    struct ip_entry *e = ip_table_get(&limits.ips, &k, true);
    if (!e) return;
    int64_t last = e->last_login_ms;
    if (limits_throttle_check(e, srv->loop->now_ms, limits.throttle_ms)) return;
    limits_stats.throttled++;
    log_limited(&k_throttled, LOG_WARN,
                "[%s] login throttled: the previous attempt from this address was %lld ms ago "
                "(connection-throttle=%lld ms)",
                c->addr, (long long)(srv->loop->now_ms - last), (long long)limits.throttle_ms);
    conn_kick_reason(c, KR_THROTTLED, NULL, throttled_text);
}

void limits_handshake_done(conn *c)
{
    if (c->closed || c->state == CS_CLOSING) {
        pool_leave(c);
        return;
    }
    pool_enter(c, POOL_WAITING);
    conn_set_deadline(c, c->connected_ms + LIMITS_LOGIN_START_MS);
    if (c->state == CS_LOGIN) login_intent(c);
}

void limits_login_started(conn *c)
{
    /* Online mode: the client asks Mojang's session server before it answers
     * the Encryption Request, then we ask it too: vanilla's 30 s login
     * timeout. Offline logins finish at once, and a proxy answers the
     * Velocity request at once: the 10 s from connect stay. */
    if (srv->cfg.online_mode && srv->cfg.forwarding_mode == FWD_NONE)
        conn_set_deadline(c, c->connected_ms + LIMITS_LOGIN_MS);
}

void limits_entered_play(conn *c)
{
    prelogin_release(c);
    pool_leave(c);
    if (!c->lim.rate && limits.max_in_interval) {
        c->lim.rate = calloc(1, sizeof *c->lim.rate);
        if (!c->lim.rate)
            log_warn("[%s] out of memory: no packet limiter for this player", c->addr);
    }
}

void limits_conn_closed(conn *c)
{
    limits_output_progressed(c); /* off the blocked list before it is freed */
    prelogin_release(c);
    pool_leave(c);
    if (c->lim.ip_counted) {
        c->lim.ip_counted = false;
        struct ip_entry *e = ip_table_get(&limits.ips, &c->lim.ip, false);
        if (e && e->conns) e->conns--;
    }
    free(c->lim.rate);
    c->lim.rate = NULL;
}

static const char exceeded_json[] = "{\"translate\":\"disconnect.exceeded_packet_rate\","
                                    "\"fallback\":\"You are sending too many packets!\"}";

bool limits_play_packet(conn *c, int32_t id, size_t len)
{
    size_t cap = limits_play_packet_max(id);
    if (cap && len > cap) {
        char why[128];
        snprintf(why, sizeof why, "Packet 0x%02x is too large (%zu bytes, at most %zu)", id, len,
                 cap);
        log_limited(&k_too_large, LOG_WARN, "[%s] %s: %s", c->addr, c->in_game ? c->name : "?",
                    why);
        conn_kick_reason(c, KR_INVALID_PACKET, NULL, why);
        return false;
    }
    struct play_rate *r = c->lim.rate;
    if (!r) return true;
    uint32_t n = rate_win_add(&r->all, srv->loop->now_ms, limits.interval_ms, 1);
    if (n > limits.max_in_interval) {
        limits_stats.rate_kicks++;
        log_limited(&k_rate_kick, LOG_WARN,
                    "[%s] %s sent %u packets in %lld s (packet-limit-max-rate=%u over "
                    "packet-limit-interval=%lld s); kicking",
                    c->addr, c->in_game ? c->name : "?", n, (long long)(limits.interval_ms / 1000),
                    (unsigned)(limits.max_in_interval / (uint32_t)(limits.interval_ms / 1000)),
                    (long long)(limits.interval_ms / 1000));
        conn_kick_reason(c, KR_PACKET_RATE, exceeded_json, "You are sending too many packets!");
        return false;
    }
    for (size_t i = 0; i < limits_packet_override_count && i < LIMITS_OVERRIDES_MAX; i++) {
        const struct packet_override *o = &limits_packet_overrides[i];
        if (o->id != id) continue;
        uint32_t m = rate_win_add(&r->type[i], srv->loop->now_ms, o->interval_ms, 1);
        if ((int64_t)m * 1000 <= (int64_t)o->max_rate * o->interval_ms) return true;
        limits_stats.rate_drops++;
        if (!r->drop_logged_ms[i] || srv->loop->now_ms - r->drop_logged_ms[i] >= o->interval_ms) {
            r->drop_logged_ms[i] = srv->loop->now_ms;
            log_limited(&k_rate_drop, LOG_WARN,
                        "[%s] %s: dropping %s packets over %d per second (%u in the last %d ms)",
                        c->addr, c->in_game ? c->name : "?", o->name, o->max_rate, m,
                        o->interval_ms);
        }
        return false;
    }
    return true;
}

void limits_output_blocked(conn *c)
{
    if (c->lim.out_blocked_ms || c->closed) return;
    c->lim.out_blocked_ms = srv->loop->now_ms ? srv->loop->now_ms : 1;
    list_push_back(&limits.blocked, &c->lim.blocked_link);
}

void limits_output_progressed(conn *c)
{
    if (!c->lim.out_blocked_ms) return;
    c->lim.out_blocked_ms = 0;
    list_remove(&c->lim.blocked_link);
}

/* The oldest blocked connection past the timeout that is not closing and
 * still has output, or NULL. */
static conn *slow_client(void)
{
    list_node *pos;
    for (pos = limits.blocked.next; pos != &limits.blocked; pos = pos->next) {
        conn *c = list_entry(pos, conn, lim.blocked_link);
        if (srv->loop->now_ms - c->lim.out_blocked_ms < limits.slow_ms) return NULL;
        if (c->state != CS_CLOSING && conn_pending(c) > 0) return c;
    }
    return NULL;
}

/* Once a second: only the connections whose output is blocked (the list,
 * oldest first), not all 10,000 (a cache miss each). Each kick starts the
 * walk again: dropping one connection may drop others off the list. */
static void slow_clients(void)
{
    if (limits.slow_ms <= 0) return;
    conn *c;
    while ((c = slow_client())) {
        limits_stats.slow_clients++;
        srv->stats.kicks[KR_SLOW_CLIENT]++;
        char why[192];
        snprintf(why, sizeof why,
                 "%s%snot reading: %zu KiB queued and nothing sent for %lld ms "
                 "(slow-client-timeout=%lld ms)",
                 c->in_game ? c->name : "", c->in_game ? " is " : "", conn_pending(c) >> 10,
                 (long long)(srv->loop->now_ms - c->lim.out_blocked_ms), (long long)limits.slow_ms);
        log_limited(&k_slow, LOG_WARN, "[%s] %s; disconnecting", c->addr, why);
        conn_drop(c, NULL); /* off the list (limits_conn_closed) */
    }
}

void limits_tick(int64_t now_ms)
{
    if (now_ms < limits.next_sweep_ms) return;
    limits.next_sweep_ms = now_ms + 1000;
    log_kinds_flush(); /* every module's summaries (core/log.h invariant 5) */
    ip_table_sweep(&limits.ips, now_ms, limits.throttle_ms);
    limits_stats.tracked_ips = limits.ips.count;
    slow_clients();
}

/* ------------------------------------------------------- fault injection */

static int tick_stall_ms, tick_stall_interval;

void limits_debug_install(const struct server_config *cfg)
{
    tick_stall_ms = cfg->debug_tick_stall_ms;
    tick_stall_interval = cfg->debug_tick_stall_interval;
    if (tick_stall_ms > 0)
        log_warn("debug-tick-stall-ms=%d: every %d ticks one tick stalls (fault injection; "
                 "never on a real server)",
                 tick_stall_ms, tick_stall_interval);
    if (cfg->debug_chunk_gen_delay_ms > 0)
        log_warn("debug-chunk-gen-delay-ms=%d: each generated chunk takes that much longer "
                 "(fault injection; never on a real server)",
                 cfg->debug_chunk_gen_delay_ms);
    if (fio_set_latency(cfg->debug_disk_latency_ms))
        log_warn("debug-disk-latency-ms=%d: every file open, read, write, fsync and rename "
                 "sleeps that long first (fault injection; never on a real server)",
                 cfg->debug_disk_latency_ms);
}

void limits_debug_tick(uint64_t tick)
{
    if (tick_stall_ms <= 0 || tick_stall_interval <= 0 || tick % (uint64_t)tick_stall_interval)
        return;
    log_warn("debug-tick-stall-ms: stalling tick %llu for %d ms", (unsigned long long)tick,
             tick_stall_ms);
    struct timespec ts = {tick_stall_ms / 1000, (long)(tick_stall_ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}
