/*
 * series.c — what changes second by second (issue 16): the join latency
 * of the last 5 s for the progress line, and the per-second time series of
 * the JSON report ("series": {"columns": [...], "rows": [[...], ...]}).
 *
 * The windowed p99 merges SERIES_JOIN_WINDOW one-second histograms (a ring;
 * the oldest is cleared when a new second starts), so it costs no
 * per-sample storage. A row is taken at each progress tick (once a second,
 * with or without --quiet): seconds since the start, bots connected,
 * joined, failed, joins in that second, the 5 s join p99, rx and tx MB/s,
 * mcbench's CPU %, and the server's TPS and MSPT p50/p99/max from the
 * latest /metrics scrape (null without --metrics-url).
 *
 * Invariants:
 *  1. At most SERIES_MAX_ROWS rows (a day of seconds); later ones are
 *     counted in rows_dropped.
 *  2. Fixed memory for the window: SERIES_JOIN_WINDOW histograms.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/mcbench.h"

#define SERIES_JOIN_WINDOW 5
#define SERIES_MAX_ROWS    86400

struct row {
    float t_s;
    int connected;
    uint64_t joined, failed;
    float joins_per_s, join_p99_5s_ms, rx_mb_s, tx_mb_s, cpu_pct;
    float tps, mspt_p50, mspt_p99, mspt_max; /* NaN: unknown */
};

static struct {
    hist window[SERIES_JOIN_WINDOW];
    int cur;
    struct row *rows;
    size_t n, cap;
    uint64_t dropped;
    bool inited;
} se;

static void init(void)
{
    if (se.inited) return;
    for (int i = 0; i < SERIES_JOIN_WINDOW; i++) hist_init(&se.window[i]);
    se.inited = true;
}

void series_join(uint64_t us)
{
    init();
    hist_add(&se.window[se.cur], us);
}

double series_join_p99_5s_ms(void)
{
    init();
    hist all;
    hist_init(&all);
    for (int i = 0; i < SERIES_JOIN_WINDOW; i++) hist_merge(&all, &se.window[i]);
    return all.count ? (double)hist_quantile(&all, 0.99) / 1000.0 : NAN;
}

void series_second(double t_s, double joins, double rx_mb, double tx_mb, double cpu_pct)
{
    init();
    struct row r = {(float)t_s,
                    bench.in_play + bench.in_login,
                    bench.joined,
                    bench.failed,
                    (float)joins,
                    (float)series_join_p99_5s_ms(),
                    (float)rx_mb,
                    (float)tx_mb,
                    (float)cpu_pct,
                    NAN,
                    NAN,
                    NAN,
                    NAN};
    struct server_now s;
    scrape_latest(&s);
    if (s.valid) {
        r.tps = (float)s.tps;
        r.mspt_p50 = (float)s.mspt_p50_ms;
        r.mspt_p99 = (float)s.mspt_p99_ms;
        r.mspt_max = (float)s.mspt_max_ms;
    }
    /* the next second starts: its slot of the window is cleared */
    se.cur = (se.cur + 1) % SERIES_JOIN_WINDOW;
    hist_init(&se.window[se.cur]);
    if (se.n == se.cap) {
        size_t cap = se.cap ? se.cap * 2 : 256;
        if (cap > SERIES_MAX_ROWS) cap = SERIES_MAX_ROWS;
        struct row *a = cap > se.cap ? realloc(se.rows, cap * sizeof *a) : NULL;
        if (!a) {
            se.dropped++;
            return;
        }
        se.rows = a;
        se.cap = cap;
    }
    se.rows[se.n++] = r;
}

static void jf(FILE *f, double v, const char *fmt)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, fmt, v);
}

void series_write_json(FILE *f)
{
    fputs("\"series\":{\"columns\":[\"t_s\",\"connected\",\"joined\",\"failed\",\"joins_per_s\","
          "\"join_p99_5s_ms\",\"rx_mb_s\",\"tx_mb_s\",\"cpu_pct\",\"server_tps\","
          "\"server_mspt_p50_ms\",\"server_mspt_p99_ms\",\"server_mspt_max_ms\"],\"rows\":[",
          f);
    for (size_t i = 0; i < se.n; i++) {
        const struct row *r = &se.rows[i];
        fprintf(f, "%s[%.1f,%d,%llu,%llu,%.0f,", i ? ",\n" : "", r->t_s, r->connected,
                (unsigned long long)r->joined, (unsigned long long)r->failed, r->joins_per_s);
        jf(f, r->join_p99_5s_ms, "%.2f");
        fprintf(f, ",%.3f,%.3f,%.1f,", r->rx_mb_s, r->tx_mb_s, r->cpu_pct);
        jf(f, r->tps, "%.2f");
        fputc(',', f);
        jf(f, r->mspt_p50, "%.3f");
        fputc(',', f);
        jf(f, r->mspt_p99, "%.3f");
        fputc(',', f);
        jf(f, r->mspt_max, "%.3f");
        fputc(']', f);
    }
    fprintf(f, "],\"rows_dropped\":%llu}", (unsigned long long)se.dropped);
}

void series_free(void)
{
    free(se.rows);
    se.rows = NULL;
    se.n = se.cap = 0;
}
