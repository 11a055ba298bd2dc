/*
 * limits.c — see limits.h (and docs/hardening.md for the settings).
 *
 * The pure parts (rate windows, address keys, the IP table, the throttle
 * rule, the packet tables) come first and build alone with
 * LIMITS_CORE_ONLY; the glue to connections, the log and the settings
 * follows. All of it runs on the game thread, except the debug file I/O
 * wrapper, which runs wherever file I/O runs (it only sleeps and forwards).
 */
#include "net/limits.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "data/packet_ids.h"

/* ------------------------------------------------------------ rate window */

uint32_t rate_win_add(rate_win *w, int64_t now_ms, int64_t interval_ms, uint32_t n)
{
    if (interval_ms <= 0) interval_ms = 1;
    int64_t age = now_ms - w->start_ms;
    if ((w->start_ms == 0 && w->prev == 0 && w->cur == 0) || age < 0 || age >= 2 * interval_ms) {
        w->start_ms = now_ms;
        w->prev = w->cur = 0;
    } else if (age >= interval_ms) {
        w->prev = w->cur;
        w->cur = 0;
        w->start_ms += interval_ms;
    }
    w->cur = w->cur > UINT32_MAX - n ? UINT32_MAX : w->cur + n;
    int64_t into = now_ms - w->start_ms; /* 0 .. interval_ms - 1 */
    uint64_t est = (uint64_t)w->cur +
                   (uint64_t)w->prev * (uint64_t)(interval_ms - into) / (uint64_t)interval_ms;
    return est > UINT32_MAX ? UINT32_MAX : (uint32_t)est;
}

/* ------------------------------------------------------------- addresses */

bool limits_key_from_sockaddr(const struct sockaddr *sa, ip_key *out)
{
    memset(out, 0, sizeof *out);
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        out->b[10] = out->b[11] = 0xff;
        memcpy(out->b + 12, &a->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        memcpy(out->b, &a->sin6_addr, 16);
        return true;
    }
    return false;
}

bool limits_key_from_text(const char *text, ip_key *out)
{
    char ip[64];
    const char *start = text;
    size_t n;
    if (text[0] == '[') { /* [v6]:port */
        const char *close = strchr(text, ']');
        if (!close) return false;
        start = text + 1;
        n = (size_t)(close - start);
    } else {
        /* "ip:port" as conn.addr writes it, IPv6 without brackets included:
         * the port is what follows the last colon. */
        const char *colon = strrchr(text, ':');
        n = colon ? (size_t)(colon - text) : strlen(text);
    }
    if (n == 0 || n >= sizeof ip) return false;
    memcpy(ip, start, n);
    ip[n] = 0;
    memset(out, 0, sizeof *out);
    struct in_addr a4;
    if (inet_pton(AF_INET, ip, &a4) == 1) {
        out->b[10] = out->b[11] = 0xff;
        memcpy(out->b + 12, &a4, 4);
        return true;
    }
    return inet_pton(AF_INET6, ip, out->b) == 1;
}

bool limits_key_is_loopback(const ip_key *k)
{
    static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    static const uint8_t v6loop[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    if (memcmp(k->b, v4mapped, 12) == 0) return k->b[12] == 127;
    return memcmp(k->b, v6loop, 16) == 0;
}

/* ------------------------------------------------------------- IP table */

#define IP_BUCKETS 4096

static uint64_t hash_seed;

static size_t key_slot(const ip_table *t, const ip_key *k)
{
    uint64_t a, b;
    memcpy(&a, k->b, 8);
    memcpy(&b, k->b + 8, 8);
    uint64_t h = (a ^ hash_seed) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h = (h ^ b) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (size_t)h & (t->nbuckets - 1);
}

int ip_table_init(ip_table *t, size_t max_entries)
{
    memset(t, 0, sizeof *t);
    if (!hash_seed && getrandom(&hash_seed, sizeof hash_seed, GRND_NONBLOCK) != sizeof hash_seed)
        hash_seed = 0x2545f4914f6cdd1dULL ^ (uint64_t)(uintptr_t)t;
    t->nbuckets = IP_BUCKETS;
    t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
    t->max = max_entries;
    return t->buckets ? 0 : -1;
}

void ip_table_free(ip_table *t)
{
    for (size_t i = 0; t->buckets && i < t->nbuckets; i++) {
        struct ip_entry *e = t->buckets[i];
        while (e) {
            struct ip_entry *next = e->next;
            free(e);
            e = next;
        }
    }
    free(t->buckets);
    memset(t, 0, sizeof *t);
}

struct ip_entry *ip_table_get(ip_table *t, const ip_key *k, bool create)
{
    if (!t->buckets) return NULL;
    size_t s = key_slot(t, k);
    for (struct ip_entry *e = t->buckets[s]; e; e = e->next)
        if (memcmp(e->key.b, k->b, 16) == 0) return e;
    if (!create || t->count >= t->max) return NULL;
    struct ip_entry *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->key = *k;
    e->next = t->buckets[s];
    t->buckets[s] = e;
    t->count++;
    return e;
}

size_t ip_table_sweep(ip_table *t, int64_t now_ms, int64_t throttle_ms)
{
    size_t removed = 0;
    for (size_t i = 0; t->buckets && i < t->nbuckets; i++) {
        struct ip_entry **pp = &t->buckets[i];
        while (*pp) {
            struct ip_entry *e = *pp;
            bool stamp_live = e->last_login_ms != 0 && now_ms - e->last_login_ms < throttle_ms;
            if (e->conns == 0 && !stamp_live) {
                *pp = e->next;
                free(e);
                t->count--;
                removed++;
            } else {
                pp = &e->next;
            }
        }
    }
    return removed;
}

bool limits_throttle_check(struct ip_entry *e, int64_t now_ms, int64_t throttle_ms)
{
    bool ok = e->last_login_ms == 0 || now_ms - e->last_login_ms >= throttle_ms;
    e->last_login_ms = now_ms ? now_ms : 1;
    return ok;
}

/* ---------------------------------------------------------- packet tables */

/*
 * Cheap-but-spammy serverbound types get their own window and are DROPPED
 * above it (the connection stays). Paper's default override is the recipe
 * book's place-recipe at 5/s over 4 s; the others are set well above what a
 * vanilla client sends (at most one per tick for each of them).
 */
const struct packet_override limits_packet_overrides[] = {
    {PKT_PLAY_SB_CRAFT_RECIPE_REQUEST, "place_recipe", 4000, 5},
    {PKT_PLAY_SB_TAB_COMPLETE, "command_suggestion", 4000, 20},
    {PKT_PLAY_SB_ARM_ANIMATION, "swing", 2000, 40},
    {PKT_PLAY_SB_HELD_ITEM_SLOT, "set_carried_item", 2000, 40},
    {PKT_PLAY_SB_ENTITY_ACTION, "player_command", 2000, 60},
    {PKT_PLAY_SB_SETTINGS, "client_information", 4000, 5},
    {PKT_PLAY_SB_PICK_ITEM, "pick_item", 4000, 10},
    {PKT_PLAY_SB_DISPLAYED_RECIPE, "recipe_book_seen_recipe", 4000, 10},
};
const size_t limits_packet_override_count =
    sizeof limits_packet_overrides / sizeof limits_packet_overrides[0];

size_t limits_play_packet_max(int32_t id)
{
    switch (id) {
    /* vanilla ServerboundCustomPayloadPacket: channel readUtf(32767), data <= 32767 bytes */
    case PKT_PLAY_SB_CUSTOM_PAYLOAD: return 1 + 3 + 3u * 32767 + 32767;
    /* position, front flag, 4 lines of readUtf(384) */
    case PKT_PLAY_SB_UPDATE_SIGN: return 1 + 8 + 1 + 4 * (2 + 3u * 384);
    /* movement and other fixed-size packets: a few dozen bytes */
    case PKT_PLAY_SB_TELEPORT_CONFIRM:
    case PKT_PLAY_SB_KEEP_ALIVE:
    case PKT_PLAY_SB_POSITION:
    case PKT_PLAY_SB_POSITION_LOOK:
    case PKT_PLAY_SB_LOOK:
    case PKT_PLAY_SB_FLYING:
    case PKT_PLAY_SB_ARM_ANIMATION:
    case PKT_PLAY_SB_HELD_ITEM_SLOT:
    case PKT_PLAY_SB_ENTITY_ACTION:
    case PKT_PLAY_SB_BLOCK_DIG:
    case PKT_PLAY_SB_BLOCK_PLACE:
    case PKT_PLAY_SB_USE_ITEM:
    case PKT_PLAY_SB_CLIENT_COMMAND: return 64;
    default: return 0;
    }
}

#ifndef LIMITS_CORE_ONLY

/* ==================================================================== glue */

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "core/config.h"
#include "core/fileio.h"
#include "core/addr.h"
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
} L;

int limits_init(const struct server_config *cfg)
{
    memset(&L, 0, sizeof L);
    memset(&limits_stats, 0, sizeof limits_stats);
    L.per_ip = cfg->forwarding_mode == FWD_NONE;
    L.exempt_loopback = cfg->limits_exempt_loopback;
    L.throttle_ms = cfg->connection_throttle;
    L.per_ip_max = (uint32_t)cfg->max_connections_per_ip;
    L.prelogin_max = (uint32_t)cfg->max_prelogin_connections;
    L.interval_ms = (int64_t)cfg->packet_limit_interval * 1000;
    L.max_in_interval =
        (uint32_t)((int64_t)cfg->packet_limit_max_rate * cfg->packet_limit_interval);
    L.slow_ms = cfg->slow_client_timeout;
    if (ip_table_init(&L.ips, LIMITS_IP_MAX) < 0) return -1;
    return 0;
}

void limits_free(void)
{
    ip_table_free(&L.ips);
}

static bool exempt(const ip_key *k)
{
    return L.exempt_loopback && limits_key_is_loopback(k);
}

/* kind 0: pre-login cap, 1: per-IP cap. true: log this one. */
static bool refusal_log_ok(int kind)
{
    int64_t second = srv->loop->now_ms / 1000;
    if (second != L.log_second) { /* the rest is counted; limits_tick reports it */
        L.log_second = second;
        return true;
    }
    L.suppressed[kind]++;
    return false;
}

bool limits_accept(const struct sockaddr *sa)
{
    char addr[80];
    if (L.prelogin_max && limits_stats.prelogin >= L.prelogin_max) {
        limits_stats.refused_prelogin++;
        if (refusal_log_ok(0)) {
            addr_text(sa, addr, sizeof addr);
            log_warn("[%s] connection refused: %zu connections are still logging in "
                     "(max-prelogin-connections=%u)",
                     addr, limits_stats.prelogin, L.prelogin_max);
        }
        return false;
    }
    ip_key k;
    if (!L.per_ip || !L.per_ip_max || srv->cfg.proxy_protocol ||
        !limits_key_from_sockaddr(sa, &k) || exempt(&k))
        return true;
    struct ip_entry *e = ip_table_get(&L.ips, &k, false);
    if (e && e->conns >= L.per_ip_max) {
        limits_stats.refused_per_ip++;
        if (refusal_log_ok(1)) {
            addr_text(sa, addr, sizeof addr);
            log_warn("[%s] connection refused: %u connections open from this address "
                     "(max-connections-per-ip=%u)",
                     addr, e->conns, L.per_ip_max);
        }
        return false;
    }
    return true;
}

static void count_ip(conn *c, const ip_key *k)
{
    if (!L.per_ip || exempt(k)) return;
    struct ip_entry *e = ip_table_get(&L.ips, k, true);
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
    if (!L.per_ip || c->lim.ip_counted || !limits_key_from_text(c->addr, &k) || exempt(&k))
        return true;
    struct ip_entry *e = ip_table_get(&L.ips, &k, false);
    if (L.per_ip_max && e && e->conns >= L.per_ip_max) {
        limits_stats.refused_per_ip++;
        char why[128];
        snprintf(why, sizeof why,
                 "%u connections open from this address (max-connections-per-ip=%u)", e->conns,
                 L.per_ip_max);
        conn_drop(c, why);
        return false;
    }
    count_ip(c, &k);
    return true;
}

static const char throttled_text[] = "Connection throttled! Please wait before reconnecting.";

bool limits_login_intent(conn *c)
{
    if (!L.per_ip || L.throttle_ms <= 0) return true;
    ip_key k;
    if (!limits_key_from_text(c->addr, &k) || exempt(&k)) return true;
    struct ip_entry *e = ip_table_get(&L.ips, &k, true);
    if (!e) return true;
    int64_t last = e->last_login_ms;
    if (limits_throttle_check(e, srv->loop->now_ms, L.throttle_ms)) return true;
    limits_stats.throttled++;
    log_warn("[%s] login throttled: the previous attempt from this address was %lld ms ago "
             "(connection-throttle=%lld ms)",
             c->addr, (long long)(srv->loop->now_ms - last), (long long)L.throttle_ms);
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
    if (!c->lim.rate && L.max_in_interval) {
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
        struct ip_entry *e = ip_table_get(&L.ips, &c->lim.ip, false);
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
    uint32_t n = rate_win_add(&r->all, srv->loop->now_ms, L.interval_ms, 1);
    if (n > L.max_in_interval) {
        limits_stats.rate_kicks++;
        log_warn("[%s] %s sent %u packets in %lld s (packet-limit-max-rate=%u over "
                 "packet-limit-interval=%lld s); kicking",
                 c->addr, c->in_game ? c->name : "?", n, (long long)(L.interval_ms / 1000),
                 (unsigned)(L.max_in_interval / (uint32_t)(L.interval_ms / 1000)),
                 (long long)(L.interval_ms / 1000));
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
    if (L.slow_ms <= 0) return;
    conn *c;
    server_for_each_conn (c, node) {
        if (c->state == CS_CLOSING || !c->lim.out_blocked_ms || conn_pending(c) == 0 ||
            srv->loop->now_ms - c->lim.out_blocked_ms < L.slow_ms)
            continue;
        limits_stats.slow_clients++;
        srv->stats.kicks[KR_SLOW_CLIENT]++;
        char why[192];
        snprintf(why, sizeof why,
                 "%s%snot reading: %zu KiB queued and nothing sent for %lld ms "
                 "(slow-client-timeout=%lld ms)",
                 c->in_game ? c->name : "", c->in_game ? " is " : "", conn_pending(c) >> 10,
                 (long long)(srv->loop->now_ms - c->lim.out_blocked_ms), (long long)L.slow_ms);
        log_warn("[%s] %s; disconnecting", c->addr, why);
        conn_drop(c, NULL);
    }
}

void limits_tick(int64_t now_ms)
{
    if (now_ms < L.next_sweep_ms) return;
    L.next_sweep_ms = now_ms + 1000;
    if (L.suppressed[0] || L.suppressed[1]) {
        log_warn("... and %u more connections refused in the last second (%u over "
                 "max-prelogin-connections, %u over max-connections-per-ip)",
                 L.suppressed[0] + L.suppressed[1], L.suppressed[0], L.suppressed[1]);
        L.suppressed[0] = L.suppressed[1] = 0;
    }
    ip_table_sweep(&L.ips, now_ms, L.throttle_ms);
    limits_stats.tracked_ips = L.ips.count;
    slow_clients();
}

/* ------------------------------------------------------- fault injection */

static int disk_latency_ms;
static const fileio_ops *disk_inner;

static void disk_wait(void)
{
    struct timespec ts = {disk_latency_ms / 1000, (long)(disk_latency_ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

static int slow_open(const char *path, int flags, mode_t mode)
{
    disk_wait();
    return disk_inner->open(path, flags, mode);
}

static ssize_t slow_pread(int fd, void *buf, size_t n, off_t off)
{
    disk_wait();
    return disk_inner->pread(fd, buf, n, off);
}

static ssize_t slow_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    disk_wait();
    return disk_inner->pwrite(fd, buf, n, off);
}

static int slow_fsync(int fd)
{
    disk_wait();
    return disk_inner->fsync(fd);
}

static int slow_rename(const char *from, const char *to)
{
    disk_wait();
    return disk_inner->rename(from, to);
}

static int pass_fstat(int fd, struct stat *st)
{
    return disk_inner->fstat(fd, st);
}

static int pass_unlink(const char *path)
{
    return disk_inner->unlink(path);
}

static int pass_mkdir(const char *path, mode_t mode)
{
    return disk_inner->mkdir(path, mode);
}

static int pass_close(int fd)
{
    return disk_inner->close(fd);
}

static const fileio_ops slow_disk = {
    .open = slow_open,
    .pread = slow_pread,
    .pwrite = slow_pwrite,
    .fsync = slow_fsync,
    .fstat = pass_fstat,
    .rename = slow_rename,
    .unlink = pass_unlink,
    .mkdir = pass_mkdir,
    .close = pass_close,
};

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
    if (cfg->debug_disk_latency_ms > 0 && fio != &slow_disk) {
        disk_latency_ms = cfg->debug_disk_latency_ms;
        disk_inner = fio;
        fio_set(&slow_disk);
        log_warn("debug-disk-latency-ms=%d: every file open, read, write, fsync and rename "
                 "sleeps that long first (fault injection; never on a real server)",
                 disk_latency_ms);
    }
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

#endif /* LIMITS_CORE_ONLY */
