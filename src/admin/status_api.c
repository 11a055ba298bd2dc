/*
 * status_api.c — see status_api.h.
 *
 * History: sampled once a second from the admin pass hook (TPS and tick
 * durations over the last 20 ticks, players, loaded chunks, RSS, process
 * CPU, game-socket bytes) into the fine ring; every 10 fine samples their
 * aggregate (means; the maximum of mspt_max) goes to the coarse ring.
 *
 * Events: log_tap (core/log.h) hands every log line to on_log, on any
 * thread; lines that say a player joined, left or was disconnected by the
 * server, and every warning and error, go into a small ring under a mutex.
 */
#include "admin/status_api.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "admin/admin.h"
#include "admin/map.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/tickstat.h"
#include "data/version.h"
#include "core/log.h"
#include "game/game.h"
#include "game/pregen.h"
#include "net/server.h"

/* One sample of every series (status_api.h lists the columns). */
struct sample {
    int64_t unix_ms;
    float tps, mspt_median, mspt_max;
    uint32_t players, chunks;
    float rss_mb, cpu_pct, net_in_kbps, net_out_kbps;
};

struct ring {
    struct sample *s;
    size_t cap, next, count; /* the slot to write next; samples held */
};

static struct sample fine_slots[STATUS_API_FINE], coarse_slots[STATUS_API_COARSE];

static struct {
    struct ring fine, coarse;
    int64_t next_ms; /* when to take the next sample */
    /* the previous readings the rates are taken from */
    int64_t last_ns;
    double last_cpu_s;
    uint64_t last_in, last_out;
    int since_coarse; /* fine samples since the last coarse one */
} history = {.fine = {fine_slots, STATUS_API_FINE, 0, 0},
             .coarse = {coarse_slots, STATUS_API_COARSE, 0, 0}};

static void ring_push(struct ring *r, const struct sample *s)
{
    r->s[r->next] = *s;
    r->next = (r->next + 1) % r->cap;
    if (r->count < r->cap) r->count++;
}

/* The i-th oldest sample of the last n held. */
static const struct sample *ring_at(const struct ring *r, size_t n, size_t i)
{
    return &r->s[(r->next + r->cap - n + i) % r->cap];
}

/* ------------------------------------------------------------------ events */

static struct {
    pthread_mutex_t lock;
    struct status_event {
        int64_t unix_ms;
        const char *kind;
        char text[STATUS_API_EVENT_TEXT];
    } ring[STATUS_API_EVENTS];
    size_t next, count;
    uint64_t seq;
} events = {.lock = PTHREAD_MUTEX_INITIALIZER};

static bool has(const char *text, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(text + i, needle, n) == 0) return true;
    return false;
}

/* log_tap: any thread. The text is escaped already (core/log.h invariant 1). */
static void on_log(enum log_level level, const char *text, size_t len)
{
    const char *kind = NULL;
    if (level >= LOG_ERROR)
        kind = "error";
    else if (level == LOG_WARN)
        kind = "warning";
    else if (has(text, len, " logged in with entity id "))
        kind = "join";
    else if (has(text, len, " left the game"))
        kind = "leave";
    else if (text[0] == '[' && has(text, len, " disconnected: "))
        kind = "kick"; /* conn.c: "[address] name disconnected: reason" */
    if (!kind) return;
    int64_t now = clock_wall_ms();
    pthread_mutex_lock(&events.lock);
    struct status_event *e = &events.ring[events.next];
    e->unix_ms = now;
    e->kind = kind;
    size_t n = len < sizeof e->text - 1 ? len : sizeof e->text - 1;
    memcpy(e->text, text, n);
    e->text[n] = 0;
    events.next = (events.next + 1) % STATUS_API_EVENTS;
    if (events.count < STATUS_API_EVENTS) events.count++;
    events.seq++;
    pthread_mutex_unlock(&events.lock);
}

/* The last /api/status body, kept for the rest of its tick. */
static struct {
    buf_t json;
    uint64_t built_tick;
    bool built;
} reply;

static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0) return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double rss_mb(void)
{
    unsigned long vsz = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r"); /* procfs: no disk behind it */
    if (f) {
        if (fscanf(f, "%lu %lu", &vsz, &rss) != 2) rss = 0;
        fclose(f);
    }
    return (double)rss * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* The mean of the last n fine samples (mspt_max: their maximum). */
static void aggregate(size_t n, struct sample *out)
{
    memset(out, 0, sizeof *out);
    double acc[9] = {0};
    for (size_t i = 0; i < n; i++) {
        const struct sample *s = ring_at(&history.fine, n, i);
        acc[0] += s->tps, acc[1] += s->mspt_median, acc[2] += s->players, acc[3] += s->chunks;
        acc[4] += s->rss_mb, acc[5] += s->cpu_pct, acc[6] += s->net_in_kbps;
        acc[7] += s->net_out_kbps;
        if (s->mspt_max > out->mspt_max) out->mspt_max = s->mspt_max;
        out->unix_ms = s->unix_ms;
    }
    out->tps = (float)(acc[0] / (double)n), out->mspt_median = (float)(acc[1] / (double)n);
    out->players = (uint32_t)(acc[2] / (double)n + 0.5),
    out->chunks = (uint32_t)(acc[3] / (double)n + 0.5);
    out->rss_mb = (float)(acc[4] / (double)n), out->cpu_pct = (float)(acc[5] / (double)n);
    out->net_in_kbps = (float)(acc[6] / (double)n), out->net_out_kbps = (float)(acc[7] / (double)n);
}

void status_api_pass(int64_t now_ms)
{
    if (!log_tap) log_tap = on_log;
    if (now_ms < history.next_ms) return;
    history.next_ms = now_ms + 1000;
    struct tickstat_summary t;
    tickstat_summarize(20, &t);
    int64_t ns = clock_ns();
    double cpu = cpu_seconds();
    uint64_t in = srv->stats.bytes_in, out = srv->stats.bytes_out;
    double dt = history.last_ns ? (double)(ns - history.last_ns) / 1e9 : 0;
    struct sample s = {0};
    s.unix_ms = clock_wall_ms();
    s.tps = (float)t.tps;
    s.mspt_median = (float)t.median_ms;
    s.mspt_max = (float)t.max_ms;
    s.players = (uint32_t)game.player_count;
    s.chunks = (uint32_t)game.world.count;
    s.rss_mb = (float)rss_mb();
    if (dt > 0) {
        s.cpu_pct = (float)((cpu - history.last_cpu_s) / dt * 100.0);
        s.net_in_kbps = (float)((double)(in - history.last_in) / dt / 1024.0);
        s.net_out_kbps = (float)((double)(out - history.last_out) / dt / 1024.0);
    }
    history.last_ns = ns, history.last_cpu_s = cpu, history.last_in = in, history.last_out = out;
    if (!t.ticks || dt <= 0) return; /* before the first tick (or reading): nothing to say yet */
    ring_push(&history.fine, &s);
    if (++history.since_coarse == 10) {
        history.since_coarse = 0;
        struct sample c;
        aggregate(10, &c);
        ring_push(&history.coarse, &c);
    }
}

static void jnum(buf_t *b, double v)
{
    admin_number(b, v, "%.3f");
}

/* "[v0,v1,...]" */
static void jnums(buf_t *b, const double *v, size_t n)
{
    buf_lit(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) buf_lit(b, ",");
        jnum(b, v[i]);
    }
    buf_lit(b, "]");
}

static void jbool(buf_t *b, bool v)
{
    buf_append(b, v ? "true" : "false", v ? 4 : 5);
}

static void jstr(buf_t *b, const char *key, const char *s, bool comma)
{
    admin_json_key(b, key);
    json_append_string(b, s, strlen(s));
    if (comma) buf_lit(b, ",");
}

static void build_pregen(buf_t *b)
{
    struct pregen_status st;
    pregen_get_status(&st);
    admin_json_key(b, "pregen");
    buf_lit(b, "{");
    admin_json_key(b, "running");
    jbool(b, st.running);
    buf_lit(b, ",");
    admin_json_key(b, "cancelling");
    jbool(b, st.cancelling);
    buf_lit(b, ",");
    admin_json_kv(b, "center_x", st.center_x, true);
    admin_json_kv(b, "center_z", st.center_z, true);
    admin_json_kv(b, "radius", st.radius, true);
    admin_json_kv(b, "done", (double)st.done, true);
    admin_json_kv(b, "total", (double)st.total, true);
    admin_json_kv(b, "generated", (double)st.generated, true);
    admin_json_kv(b, "skipped", (double)st.skipped, true);
    admin_json_kv(b, "failed", (double)st.failed, true);
    admin_json_kv(b, "chunks_per_s", st.rate, true);
    admin_json_kv(b, "eta_s", st.eta_s, false);
    buf_lit(b, "}");
}

static void build_map(buf_t *b)
{
    struct map_stats m;
    map_get_stats(&m);
    admin_json_key(b, "map");
    buf_lit(b, "{");
    admin_json_kv(b, "tiles", (double)m.tiles, true);
    admin_json_kv(b, "bytes", (double)m.bytes, true);
    admin_json_kv(b, "renders", (double)m.renders, true);
    admin_json_kv(b, "chunks_drawn", (double)m.chunks_drawn, true);
    admin_json_kv(b, "render_ms_total", (double)m.render_ns / 1e6, true);
    admin_json_key(b, "world_border");
    buf_lit(b, "null}"); /* no world border on this server yet */
}

static void build_events(buf_t *b)
{
    admin_json_key(b, "events");
    buf_lit(b, "[");
    pthread_mutex_lock(&events.lock);
    for (size_t i = 0; i < events.count; i++) {
        /* newest first */
        const struct status_event *e =
            &events.ring[(events.next + STATUS_API_EVENTS - 1 - i) % STATUS_API_EVENTS];
        if (i) buf_lit(b, ",");
        buf_lit(b, "{");
        admin_json_kv(b, "unix_ms", (double)e->unix_ms, true);
        jstr(b, "kind", e->kind, true);
        jstr(b, "text", e->text, false);
        buf_lit(b, "}");
    }
    pthread_mutex_unlock(&events.lock);
    buf_lit(b, "]");
}

static const char *const state_names[CONN_STATES] = {"handshake", "status",        "login",
                                                     "play",      "configuration", "closing"};

static void build(buf_t *b)
{
    struct tickstat_summary s5, s60;
    tickstat_summarize(TICKSTAT_SHORT, &s5);
    tickstat_summarize(TICKSTAT_WINDOW, &s60);
    buf_lit(b, "{\"server\":{");
    jstr(b, "version", MC_VERSION_NAME, true);
    admin_json_kv(b, "protocol", MC_PROTOCOL_VERSION, true);
    jstr(b, "software", "mcserv", true);
    jstr(b, "motd", srv->cfg.motd, true);
    admin_json_kv(b, "uptime_s", (double)(clock_ns() - srv->start_ns) / 1e9, true);
    admin_json_kv(b, "tick", (double)game.tick_count, false);
    buf_lit(b, "},\"tps\":{");
    admin_json_kv(b, "last_5s", s5.tps, true);
    admin_json_kv(b, "last_60s", s60.tps, false);
    buf_lit(b, "},\"mspt\":{");
    admin_json_kv(b, "median", s5.median_ms, true);
    admin_json_kv(b, "p95", s5.p95_ms, true);
    admin_json_kv(b, "max", s5.max_ms, false);
    buf_lit(b, "},\"players\":{");
    admin_json_kv(b, "online", (double)game.player_count, true);
    admin_json_kv(b, "max", srv->cfg.max_players, true);
    buf_lit(b, "\"list\":[");
    for (size_t i = 0; i < game.player_count && i < STATUS_API_PLAYERS; i++) {
        const player *p = game.players[i]->player;
        char id[37];
        uuid_format(&p->uuid, id);
        if (i) buf_lit(b, ",");
        buf_lit(b, "{");
        jstr(b, "name", p->name, true);
        jstr(b, "uuid", id, true);
        admin_json_kv(b, "x", p->x, true);
        admin_json_kv(b, "y", p->y, true);
        admin_json_kv(b, "z", p->z, true);
        admin_json_kv(b, "yaw", p->yaw, true);
        admin_json_kv(b, "gamemode", p->gamemode, true);
        admin_json_kv(b, "ping_ms", p->latency_ms, true);
        admin_json_key(b, "op");
        jbool(b, p->op_level > 0);
        buf_lit(b, "}");
    }
    buf_lit(b, "]},\"world\":{");
    jstr(b, "name", srv->cfg.level_name, true);
    admin_json_kv(b, "loaded_chunks", (double)game.world.count, true);
    admin_json_kv(b, "generating", game.world.generating, true);
    admin_json_key(b, "spawn");
    jnums(b, (const double[]){game.spawn_x, game.spawn_y, game.spawn_z}, 3);
    buf_lit(b, ",\"chunks\":[");
    size_t n = 0;
    bool truncated = false;
    const world *w = &game.world;
    for (size_t k = 0; k < w->nbuckets && !truncated; k++)
        for (const chunk_entry *e = w->buckets[k]; e; e = e->next) {
            if (e->state != CHUNK_READY) continue;
            if (n == STATUS_API_CHUNKS) {
                truncated = true;
                break;
            }
            char t[32];
            int len = snprintf(t, sizeof t, "%s%d,%d", n ? "," : "", (int)e->c.x, (int)e->c.z);
            buf_append(b, t, (size_t)len);
            n++;
        }
    buf_lit(b, "],");
    admin_json_key(b, "chunks_truncated");
    jbool(b, truncated);
    buf_lit(b, "},\"connections\":{");
    double by_state[CONN_STATES] = {0};
    conn *c;
    server_for_each_conn (c, node)
        if ((int)c->state >= 0 && (int)c->state < CONN_STATES) by_state[c->state]++;
    for (int i = 0; i < CONN_STATES; i++)
        admin_json_kv(b, state_names[i], by_state[i], i + 1 < CONN_STATES);
    buf_lit(b, "},\"history\":[");
    size_t sent = history.fine.count < STATUS_API_SENT ? history.fine.count : STATUS_API_SENT;
    for (size_t i = 0; i < sent; i++) {
        const struct sample *s = ring_at(&history.fine, sent, i);
        if (i) buf_lit(b, ",");
        jnums(b,
              (const double[]){(double)s->unix_ms, s->tps, s->mspt_median, s->mspt_max, s->players},
              5);
    }
    buf_lit(b, "],");
    build_pregen(b);
    buf_lit(b, ",");
    build_map(b);
    buf_lit(b, ",");
    build_events(b);
    buf_lit(b, "}");
}

const char *status_api_json(size_t *len)
{
    if (!reply.built || reply.built_tick != game.tick_count) {
        if (!reply.json.limit) buf_init(&reply.json, 4u << 20);
        buf_reset(&reply.json);
        build(&reply.json);
        if (reply.json.failed) {
            buf_reset(&reply.json);
            buf_lit(&reply.json, "{\"error\":\"status over its size limit\"}");
        }
        reply.built = true;
        reply.built_tick = game.tick_count;
    }
    *len = reply.json.len;
    return (const char *)reply.json.data;
}

static void series(buf_t *b, const char *name, const struct ring *r, int interval_s, bool comma)
{
    admin_json_key(b, name);
    buf_lit(b, "{");
    admin_json_kv(b, "interval_s", interval_s, true);
    admin_json_key(b, "rows");
    buf_lit(b, "[");
    for (size_t i = 0; i < r->count; i++) {
        const struct sample *s = ring_at(r, r->count, i);
        if (i) buf_lit(b, ",");
        jnums(b,
              (const double[]){(double)s->unix_ms, s->tps, s->mspt_median, s->mspt_max, s->players,
                               s->chunks, s->rss_mb, s->cpu_pct, s->net_in_kbps, s->net_out_kbps},
              10);
    }
    buf_lit(b, "]}");
    if (comma) buf_lit(b, ",");
}

static buf_t doc; /* /api/history and /api/players/N: rebuilt per request */

const char *status_api_history_json(size_t *len)
{
    if (!doc.limit) buf_init(&doc, 4u << 20);
    buf_reset(&doc);
    buf_lit(&doc, "{\"columns\":[\"unix_ms\",\"tps\",\"mspt_median\",\"mspt_max\",\"players\","
                  "\"chunks\",\"rss_mb\",\"cpu_pct\",\"net_in_kib_s\",\"net_out_kib_s\"],");
    series(&doc, "fine", &history.fine, 1, true);
    series(&doc, "coarse", &history.coarse, 10, false);
    buf_lit(&doc, "}");
    *len = doc.len;
    return (const char *)doc.data;
}

const char *status_api_players_json(size_t page, size_t *len)
{
    if (!doc.limit) buf_init(&doc, 4u << 20);
    buf_reset(&doc);
    size_t first = page * STATUS_API_PAGE;
    buf_lit(&doc, "{");
    admin_json_kv(&doc, "online", (double)game.player_count, true);
    admin_json_kv(&doc, "page", (double)page, true);
    admin_json_kv(&doc, "page_size", STATUS_API_PAGE, true);
    admin_json_kv(&doc, "pages",
                  (double)((game.player_count + STATUS_API_PAGE - 1) / STATUS_API_PAGE), true);
    buf_lit(&doc, "\"list\":[");
    for (size_t i = first; i < game.player_count && i < first + STATUS_API_PAGE; i++) {
        const player *p = game.players[i]->player;
        if (i > first) buf_lit(&doc, ",");
        buf_lit(&doc, "{");
        jstr(&doc, "name", p->name, true);
        admin_json_kv(&doc, "x", p->x, true);
        admin_json_kv(&doc, "y", p->y, true);
        admin_json_kv(&doc, "z", p->z, true);
        admin_json_kv(&doc, "yaw", p->yaw, true);
        admin_json_kv(&doc, "gamemode", p->gamemode, true);
        admin_json_kv(&doc, "ping_ms", p->latency_ms, false);
        buf_lit(&doc, "}");
    }
    buf_lit(&doc, "]}");
    *len = doc.len;
    return (const char *)doc.data;
}

void status_api_free(void)
{
    buf_free(&doc);
    if (log_tap == on_log) log_tap = NULL;
    buf_free(&reply.json);
    reply.built = false;
}
