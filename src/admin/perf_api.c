/*
 * perf_api.c — see perf_api.h.
 */
#include "admin/perf_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/admin.h"
#include "admin/pprof_http.h"
#include "core/json.h"
#include "core/tickstat.h"
#include "game/game.h"
#include "game/perf.h"

#define PERF_API_MAX (HTTP_OUT_MAX - 4096)

static buf_t body;

static const char *const state_names[CONN_STATES] = {"handshake", "status",        "login",
                                                     "play",      "configuration", "closing"};

bool perf_api_route(const char *path)
{
    return strcmp(path, "/api/tick") == 0 || strcmp(path, "/api/health") == 0 ||
           strcmp(path, "/debug/conns") == 0;
}

static void num(buf_t *b, double v)
{
    admin_number(b, v, "%.3f");
}

/* "k":v, (comma unless last) */
static void kv(buf_t *b, const char *k, double v, bool last)
{
    admin_json_kv(b, k, v, !last);
}

/* ---------------------------------------------------------- /api/tick */

/* {"p50":..,"p95":..,"p99":..,"max":..,"<k5>":..[,"<k6>":..]}: the shape
 * the tick and every phase share, v[0..n) in that order. */
static void quantiles_obj(buf_t *b, const char *const *extra, const double *v, int n)
{
    static const char *const q[4] = {"p50", "p95", "p99", "max"};
    buf_lit(b, "{");
    for (int i = 0; i < n; i++) kv(b, i < 4 ? q[i] : extra[i - 4], v[i], i == n - 1);
    buf_lit(b, "}");
}

static void mspt_obj(buf_t *b, uint32_t n)
{
    struct tickstat_summary s;
    tickstat_summarize(n, &s);
    static const char *const extra[] = {"min", "mean", "ticks"};
    const double v[] = {s.median_ms, s.p95_ms, s.p99_ms, s.max_ms, s.min_ms, s.mean_ms, s.ticks};
    quantiles_obj(b, extra, v, 7);
}

static double phase_obj(buf_t *b, int p, uint32_t n)
{
    struct tickstat_phase_summary s;
    tickstat_phase_summarize(p, n, &s);
    static const char *const extra[] = {"mean"};
    const double v[] = {s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms, s.mean_ms};
    quantiles_obj(b, extra, v, 5);
    return s.p50_ms;
}

static void tick_json(buf_t *b)
{
    struct tickstat_summary s5, s60;
    tickstat_summarize(TICKSTAT_SHORT, &s5);
    tickstat_summarize(TICKSTAT_WINDOW, &s60);
    buf_lit(b, "{");
    kv(b, "tick", (double)game.tick_count, false);
    buf_lit(b, "\"tps\":{");
    kv(b, "5s", s5.tps, false);
    kv(b, "1m", s60.tps, true);
    buf_lit(b, "},\"mspt\":{\"10s\":");
    mspt_obj(b, TICKSTAT_10S);
    buf_lit(b, ",\"1m\":");
    mspt_obj(b, TICKSTAT_WINDOW);
    buf_lit(b, "},\"phases\":[");
    double sum10 = 0, sum60 = 0;
    int n_in = tickstat_phase_count_in_tick();
    for (int p = 0; p < tickstat_phase_count(); p++) {
        if (p) buf_lit(b, ",");
        buf_lit(b, "{\"name\":");
        const char *name = tickstat_phase_name(p);
        json_append_string(b, name, strlen(name));
        buf_append(b, p < n_in ? ",\"in_tick\":true" : ",\"in_tick\":false", p < n_in ? 15 : 16);
        buf_lit(b, ",\"10s\":");
        double a = phase_obj(b, p, TICKSTAT_10S);
        buf_lit(b, ",\"1m\":");
        double c = phase_obj(b, p, TICKSTAT_WINDOW);
        buf_lit(b, "}");
        if (p < n_in) {
            sum10 += a;
            sum60 += c;
        }
    }
    buf_lit(b, "],\"in_tick_p50_sum\":{");
    kv(b, "10s", sum10, false);
    kv(b, "1m", sum60, true);
    buf_lit(b, "},");
    kv(b, "slow_tick_ms", srv->cfg.slow_tick_ms, true);
    buf_lit(b, "}");
}

/* -------------------------------------------------------- /api/health */

static void pair(buf_t *b, const char *k, const char *k1, double v1, const char *k2, double v2,
                 bool last)
{
    admin_json_key(b, k);
    buf_lit(b, "{");
    kv(b, k1, v1, false);
    kv(b, k2, v2, true);
    buf_append(b, "},", last ? 1 : 2);
}

static void mspt_health(buf_t *b, const char *k, const struct perf_mspt *m, bool last)
{
    admin_json_key(b, k);
    buf_lit(b, "{");
    kv(b, "min", m->min_ms, false);
    kv(b, "median", m->median_ms, false);
    kv(b, "p95", m->p95_ms, false);
    kv(b, "max", m->max_ms, true);
    buf_append(b, "},", last ? 1 : 2);
}

static void health_json(buf_t *b)
{
    struct perf_health h;
    perf_health(&h);
    buf_lit(b, "{\"tps\":{");
    kv(b, "5s", h.tps_5s, false);
    kv(b, "1m", h.tps_1m, false);
    kv(b, "5m", h.tps_5m, false);
    kv(b, "15m", h.tps_15m, true);
    buf_lit(b, "},\"mspt\":{");
    mspt_health(b, "10s", &h.mspt_10s, false);
    mspt_health(b, "1m", &h.mspt_1m, true);
    buf_lit(b, "},\"cpu\":{");
    kv(b, "cores", h.cores, false);
    pair(b, "process", "10s", h.cpu_process_10s, "1m", h.cpu_process_1m, false);
    pair(b, "system", "10s", h.cpu_system_10s, "1m", h.cpu_system_1m, true);
    buf_lit(b, "},\"memory\":{");
    kv(b, "rss", (double)h.mem.rss, false);
    kv(b, "heap_in_use", (double)h.mem.heap_in_use, false);
    kv(b, "allocator_free", (double)h.mem.allocator_free, false);
    kv(b, "chunks", (double)h.mem.chunks, false);
    kv(b, "chunk_cache", (double)h.mem.chunk_cache, false);
    kv(b, "players", (double)h.mem.players, false);
    kv(b, "output_queues", (double)h.mem.output_queues, false);
    kv(b, "entities", (double)h.mem.entities, true);
    buf_lit(b, "},");
    kv(b, "loaded_chunks", (double)h.loaded_chunks, false);
    buf_lit(b, "\"network\":{");
    pair(b, "in", "10s", h.net_in_10s, "1m", h.net_in_1m, false);
    pair(b, "out", "10s", h.net_out_10s, "1m", h.net_out_1m, true);
    buf_lit(b, "},\"ping\":{");
    kv(b, "players", (double)h.players, false);
    kv(b, "p50", h.ping_p50, false);
    kv(b, "p95", h.ping_p95, false);
    kv(b, "max", h.ping_max, true);
    buf_lit(b, "}}");
}

/* -------------------------------------------------------- /debug/conns */

static const char *conn_player(const conn *c)
{
    if (c->player) return ((const player *)c->player)->name;
    return c->name[0] ? c->name : NULL;
}

static double ago_ms(int64_t t)
{
    return t ? (double)(srv->loop->now_ms - t) : -1;
}

static void conns_json(buf_t *b)
{
    size_t n = 0;
    conn *c;
    buf_lit(b, "{\"connections\":[");
    server_for_each_conn (c, node) {
        if (n++) buf_lit(b, ",");
        buf_lit(b, "{");
        kv(b, "id", c->id, false);
        admin_json_key(b, "state");
        const char *st =
            (int)c->state >= 0 && (int)c->state < CONN_STATES ? state_names[c->state] : "?";
        json_append_string(b, st, strlen(st));
        buf_lit(b, ",\"player\":");
        const char *name = conn_player(c);
        if (name)
            json_append_string(b, name, strlen(name));
        else
            buf_lit(b, "null");
        buf_lit(b, ",\"address\":");
        json_append_string(b, c->addr, strlen(c->addr));
        buf_lit(b, ",");
        kv(b, "queued_bytes", (double)conn_pending(c), false);
        admin_json_key(b, "last_read_ms_ago");
        if (c->io.last_read_ms)
            num(b, ago_ms(c->io.last_read_ms));
        else
            buf_lit(b, "null");
        buf_lit(b, ",\"last_write_ms_ago\":");
        if (c->io.last_write_ms)
            num(b, ago_ms(c->io.last_write_ms));
        else
            buf_lit(b, "null");
        buf_lit(b, ",");
        kv(b, "packets_in_per_s", c->io.pps_in, false);
        kv(b, "packets_out_per_s", c->io.pps_out, false);
        kv(b, "packets_in", (double)c->io.packets_in, false);
        kv(b, "packets_out", (double)c->io.packets_out, false);
        kv(b, "age_s", (double)(srv->loop->now_ms - c->connected_ms) / 1000.0, true);
        buf_lit(b, "}");
    }
    buf_lit(b, "],");
    kv(b, "count", (double)n, true);
    buf_lit(b, "}");
}

static int by_queue(const void *a, const void *b)
{
    size_t x = conn_pending(*(conn *const *)a), y = conn_pending(*(conn *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

static void conns_text(buf_t *b)
{
    size_t n = 0, cap = 0;
    conn **all = NULL, *c;
    server_for_each_conn (c, node) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 256;
            conn **a = realloc(all, nc * sizeof *a);
            if (!a) break;
            all = a;
            cap = nc;
        }
        all[n++] = c;
    }
    if (n) qsort(all, n, sizeof *all, by_queue);
    char line[256];
    int len =
        snprintf(line, sizeof line, "%-6s %-9s %-16s %-22s %10s %8s %8s %8s %8s\n", "id", "state",
                 "player", "address", "queued", "read ago", "wrote ago", "pkt/s in", "pkt/s out");
    buf_append(b, line, (size_t)len);
    for (size_t i = 0; i < n; i++) {
        c = all[i];
        const char *name = conn_player(c);
        char r[24] = "never", w[24] = "never";
        if (c->io.last_read_ms) snprintf(r, sizeof r, "%.1fs", ago_ms(c->io.last_read_ms) / 1000.0);
        if (c->io.last_write_ms)
            snprintf(w, sizeof w, "%.1fs", ago_ms(c->io.last_write_ms) / 1000.0);
        len = snprintf(
            line, sizeof line, "%-6u %-9s %-16s %-22s %10zu %8s %8s %8.1f %8.1f\n", c->id,
            (int)c->state >= 0 && (int)c->state < CONN_STATES ? state_names[c->state] : "?",
            name ? name : "-", c->addr, conn_pending(c), r, w, c->io.pps_in, c->io.pps_out);
        buf_append(b, line, (size_t)len);
    }
    free(all);
}

/* ------------------------------------------------------------ answers */

void perf_api_get(const char *path, const char *query, struct http_reply *r)
{
    if (!body.limit) buf_init(&body, PERF_API_MAX);
    buf_reset(&body);
    const char *type = "application/json";
    char fmt[16] = "";
    if (strcmp(path, "/api/tick") == 0) {
        tick_json(&body);
    } else if (strcmp(path, "/api/health") == 0) {
        health_json(&body);
    } else if (http_query_param(query, "format", fmt, sizeof fmt) && strcmp(fmt, "text") == 0) {
        conns_text(&body);
        type = "text/plain; charset=utf-8";
    } else {
        conns_json(&body);
    }
    if (body.failed) {
        buf_reset(&body);
        buf_lit(&body, "{\"error\":\"the answer is over its size limit\"}");
        type = "application/json";
    }
    *r = (struct http_reply){200, type, (const char *)body.data, body.len, NULL, false};
}

void perf_api_free(void)
{
    buf_free(&body);
}
