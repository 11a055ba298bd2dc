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
    int64_t interval_ms;
    uint32_t max_in_interval; /* packet-limit-max-rate × interval */
    int64_t slow_ms;
    /* refusal log: one line per second per kind, then a count */
    int64_t log_second;
    uint32_t suppressed[2];
    int64_t next_sweep_ms;
} limits;

int limits_init(const struct server_config *cfg)
{
    memset(&limits, 0, sizeof limits);
    memset(&limits_stats, 0, sizeof limits_stats);
    limits.per_ip = cfg->forwarding_mode == FWD_NONE;
    limits.exempt_loopback = cfg->limits_exempt_loopback;
    limits.throttle_ms = cfg->connection_throttle;
    limits.per_ip_max = (uint32_t)cfg->max_connections_per_ip;
    limits.prelogin_max = (uint32_t)cfg->max_prelogin_connections;
    limits.interval_ms = (int64_t)cfg->packet_limit_interval * 1000;
    limits.max_in_interval =
        (uint32_t)((int64_t)cfg->packet_limit_max_rate * cfg->packet_limit_interval);
    limits.slow_ms = cfg->slow_client_timeout;
    if (ip_table_init(&limits.ips, LIMITS_IP_MAX) < 0) return -1;
    return 0;
}

void limits_free(void)
{
    ip_table_free(&limits.ips);
}

static bool exempt(const ip_key *k)
{
    return limits.exempt_loopback && limits_key_is_loopback(k);
}

/* kind 0: pre-login cap, 1: per-IP cap. true: log this one. */
static bool refusal_log_ok(int kind)
{
    int64_t second = srv->loop->now_ms / 1000;
    if (second != limits.log_second) { /* the rest is counted; limits_tick reports it */
        limits.log_second = second;
        return true;
    }
    limits.suppressed[kind]++;
    return false;
}

bool limits_accept(const struct sockaddr *sa)
{
    char addr[ADDR_TEXT_MAX];
    if (limits.prelogin_max && limits_stats.prelogin >= limits.prelogin_max) {
        limits_stats.refused_prelogin++;
        if (refusal_log_ok(0)) {
            addr_text(sa, addr, sizeof addr);
            log_warn("[%s] connection refused: %zu connections are still logging in "
                     "(max-prelogin-connections=%u)",
                     addr, limits_stats.prelogin, limits.prelogin_max);
        }
        return false;
    }
    ip_key k;
    if (!limits.per_ip || !limits.per_ip_max || srv->cfg.proxy_protocol ||
        !limits_key_from_sockaddr(sa, &k) || exempt(&k))
        return true;
    struct ip_entry *e = ip_table_get(&limits.ips, &k, false);
    if (e && e->conns >= limits.per_ip_max) {
        limits_stats.refused_per_ip++;
        if (refusal_log_ok(1)) {
            addr_text(sa, addr, sizeof addr);
            log_warn("[%s] connection refused: %u connections open from this address "
                     "(max-connections-per-ip=%u)",
                     addr, e->conns, limits.per_ip_max);
        }
        return false;
    }
    return true;
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

static const char throttled_text[] = "Connection throttled! Please wait before reconnecting.";

bool limits_login_intent(conn *c)
{
    if (!limits.per_ip || limits.throttle_ms <= 0) return true;
    ip_key k;
    if (!limits_key_from_text(c->addr, &k) || exempt(&k)) return true;
    struct ip_entry *e = ip_table_get(&limits.ips, &k, true);
    if (!e) return true;
    int64_t last = e->last_login_ms;
    if (limits_throttle_check(e, srv->loop->now_ms, limits.throttle_ms)) return true;
    limits_stats.throttled++;
    log_warn("[%s] login throttled: the previous attempt from this address was %lld ms ago "
             "(connection-throttle=%lld ms)",
             c->addr, (long long)(srv->loop->now_ms - last), (long long)limits.throttle_ms);
    conn_kick_reason(c, KR_THROTTLED, NULL, throttled_text);
    return false;
}

void limits_login_started(conn *c)
{
    /* Online mode: the client asks Mojang's session server before it answers
     * the Encryption Request, then we ask it too: vanilla's 30 s login
     * timeout. Offline logins finish at once, and a proxy answers the
     * Velocity request at once: the 10 s from connect stay. */
    if (srv->cfg.online_mode && srv->cfg.forwarding_mode == FWD_NONE)
        c->deadline_ms = c->connected_ms + LIMITS_LOGIN_MS;
}

void limits_entered_play(conn *c)
{
    if (c->lim.prelogin) {
        c->lim.prelogin = false;
        limits_stats.prelogin--;
    }
    if (!c->lim.rate && limits.max_in_interval) {
        c->lim.rate = calloc(1, sizeof *c->lim.rate);
        if (!c->lim.rate)
            log_warn("[%s] out of memory: no packet limiter for this player", c->addr);
    }
}

void limits_conn_closed(conn *c)
{
    if (c->lim.prelogin) {
        c->lim.prelogin = false;
        limits_stats.prelogin--;
    }
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
        log_warn("[%s] %s: %s", c->addr, c->in_game ? c->name : "?", why);
        conn_kick_reason(c, KR_INVALID_PACKET, NULL, why);
        return false;
    }
    struct play_rate *r = c->lim.rate;
    if (!r) return true;
    uint32_t n = rate_win_add(&r->all, srv->loop->now_ms, limits.interval_ms, 1);
    if (n > limits.max_in_interval) {
        limits_stats.rate_kicks++;
        log_warn("[%s] %s sent %u packets in %lld s (packet-limit-max-rate=%u over "
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
            log_warn("[%s] %s: dropping %s packets over %d per second (%u in the last %d ms)",
                     c->addr, c->in_game ? c->name : "?", o->name, o->max_rate, m, o->interval_ms);
        }
        return false;
    }
    return true;
}

void limits_output_blocked(conn *c)
{
    if (!c->lim.out_blocked_ms) c->lim.out_blocked_ms = srv->loop->now_ms ? srv->loop->now_ms : 1;
}

void limits_output_progressed(conn *c)
{
    c->lim.out_blocked_ms = 0;
}

static void slow_clients(void)
{
    if (limits.slow_ms <= 0) return;
    conn *c;
    server_for_each_conn (c, node) {
        if (c->state == CS_CLOSING || !c->lim.out_blocked_ms || conn_pending(c) == 0 ||
            srv->loop->now_ms - c->lim.out_blocked_ms < limits.slow_ms)
            continue;
        limits_stats.slow_clients++;
        srv->stats.kicks[KR_SLOW_CLIENT]++;
        char why[192];
        snprintf(why, sizeof why,
                 "%s%snot reading: %zu KiB queued and nothing sent for %lld ms "
                 "(slow-client-timeout=%lld ms)",
                 c->in_game ? c->name : "", c->in_game ? " is " : "", conn_pending(c) >> 10,
                 (long long)(srv->loop->now_ms - c->lim.out_blocked_ms), (long long)limits.slow_ms);
        log_warn("[%s] %s; disconnecting", c->addr, why);
        conn_drop(c, NULL);
    }
}

void limits_tick(int64_t now_ms)
{
    if (now_ms < limits.next_sweep_ms) return;
    limits.next_sweep_ms = now_ms + 1000;
    if (limits.suppressed[0] || limits.suppressed[1]) {
        log_warn("... and %u more connections refused in the last second (%u over "
                 "max-prelogin-connections, %u over max-connections-per-ip)",
                 limits.suppressed[0] + limits.suppressed[1], limits.suppressed[0],
                 limits.suppressed[1]);
        limits.suppressed[0] = limits.suppressed[1] = 0;
    }
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
