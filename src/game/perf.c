/*
 * perf.c — see perf.h.
 *
 * Memory by subsystem is counted from the structures themselves, not from
 * the allocator (which knows sizes, not owners): a chunk's sections by
 * their palette and packed data (what chunk.h allocates for each bit
 * width), the chunk packet cache by each entry's frame capacity, players
 * by struct player plus their loaded-chunk bitmap, output queues by every
 * game connection's buffer capacities, entities by their tracking state.
 * The allocator's own figures (mallinfo2) give the heap in use and the free
 * memory it holds; RSS comes from /proc/self/statm.
 */
#include "game/perf.h"

#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/log.h"
#include "core/profiler.h"
#include "core/tickstat.h"
#include "game/entities.h"
#include "game/game.h"

struct second {
    uint64_t ticks;
    int64_t mono_ns;
    int64_t proc_cpu_ns;          /* user + system of this process */
    uint64_t sys_busy, sys_total; /* /proc/stat jiffies, all cores */
    uint64_t bytes_in, bytes_out; /* game sockets */
};

static struct {
    loop *loop;
    loop_timer timer;
    bool started;
    struct second ring[PERF_HISTORY];
    size_t next, count;
    int cores;
    /* the slow-tick monitor's rate limit */
    int64_t window_ms;
    int logged, suppressed;
} perf;

/* ------------------------------------------------------- the samples */

static int64_t proc_cpu_ns(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0) return 0;
    return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
           ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/* The first line of /proc/stat: cpu user nice system idle iowait irq softirq steal. */
static void sys_cpu(uint64_t *busy, uint64_t *total)
{
    *busy = *total = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return;
    unsigned long long v[8] = {0};
    if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &v[6], &v[7]) >= 4) {
        for (int i = 0; i < 8; i++) *total += v[i];
        *busy = *total - v[3] - v[4]; /* less idle and iowait */
    }
    fclose(f);
}

/* Per connection: packets per second since the last second. */
static void conn_rates(double dt_s)
{
    conn *c;
    server_for_each_conn (c, node) {
        if (dt_s > 0) {
            c->io.pps_in = (float)((double)(c->io.packets_in - c->io.mark_in) / dt_s);
            c->io.pps_out = (float)((double)(c->io.packets_out - c->io.mark_out) / dt_s);
        }
        c->io.mark_in = c->io.packets_in;
        c->io.mark_out = c->io.packets_out;
    }
}

static const struct second *back(size_t n) /* 0: the newest */
{
    if (n >= perf.count) n = perf.count - 1;
    return &perf.ring[(perf.next + PERF_HISTORY - 1 - n) % PERF_HISTORY];
}

static void on_second(loop_timer *t)
{
    struct second s = {.ticks = game.tick_count,
                       .mono_ns = perf.loop->now_us * 1000,
                       .proc_cpu_ns = proc_cpu_ns(),
                       .bytes_in = srv->stats.bytes_in,
                       .bytes_out = srv->stats.bytes_out};
    sys_cpu(&s.sys_busy, &s.sys_total);
    double dt = perf.count ? (double)(s.mono_ns - back(0)->mono_ns) / 1e9 : 0;
    conn_rates(dt);
    perf.ring[perf.next] = s;
    perf.next = (perf.next + 1) % PERF_HISTORY;
    if (perf.count < PERF_HISTORY) perf.count++;
    loop_timer_after(perf.loop, t, 1000);
}

/* ------------------------------------------------- the slow-tick monitor */

static void append_ms(buf_t *b, const char *name, uint32_t us, bool *first)
{
    char tmp[96];
    int n = snprintf(tmp, sizeof tmp, "%s%s %.1f", *first ? "" : ", ", name, us / 1000.0);
    buf_append(b, tmp, (size_t)n);
    *first = false;
}

static void log_slow_tick(uint64_t seq, int64_t ns)
{
    int64_t now = perf.loop ? perf.loop->now_ms : 0;
    if (now - perf.window_ms >= 10000) {
        if (perf.suppressed)
            log_warn("Slow ticks: %d more in the last 10 s not logged (at most %d per 10 s)",
                     perf.suppressed, PERF_SLOW_LOGS_PER_10S);
        perf.window_ms = now;
        perf.logged = perf.suppressed = 0;
    }
    if (perf.logged >= PERF_SLOW_LOGS_PER_10S) {
        perf.suppressed++;
        return;
    }
    perf.logged++;
    buf_t b;
    buf_init(&b, 4096);
    char head[96];
    int n = snprintf(head, sizeof head, "Slow tick %llu: %.1f ms (",
                     (unsigned long long)game.tick_count, (double)ns / 1e6);
    buf_append(&b, head, (size_t)n);
    bool first = true, rest = false;
    int n_in = tickstat_phase_count_in_tick(), n_all = tickstat_phase_count();
    for (int p = 0; p < n_in; p++) {
        uint32_t us = tickstat_last_phase_us(p);
        if (us < 50) {
            rest = true;
            continue;
        }
        append_ms(&b, tickstat_phase_name(p), us, &first);
    }
    if (rest)
        buf_append(&b, first ? "every phase < 0.05 ms" : "; the rest < 0.05 ms", first ? 21 : 20);
    buf_lit(&b, "; before it: ");
    first = true;
    for (int p = n_in; p < n_all; p++)
        append_ms(&b, tickstat_phase_name(p), tickstat_last_phase_us(p), &first);
    buf_lit(&b, " ms)");
    if (!b.failed) log_warn("%.*s", (int)b.len, (const char *)b.data);
    if (profiler_background_on() || profiler_running()) {
        buf_reset(&b);
        int samples = profiler_tick_stacks(seq, 5, &b);
        if (samples > 0 && !b.failed) {
            log_warn("Slow tick %llu: top stacks of %d game-thread samples:",
                     (unsigned long long)game.tick_count, samples);
            const char *line = (const char *)b.data, *end = line + b.len;
            while (line < end) {
                const char *nl = memchr(line, '\n', (size_t)(end - line));
                if (!nl) nl = end;
                log_warn("%.*s", (int)(nl - line), line);
                line = nl + 1;
            }
        }
    }
    buf_free(&b);
}

/* ---------------------------------------------------------- start, stop */

void perf_start(loop *l)
{
    perf.loop = l;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    perf.cores = nc > 0 ? (int)nc : 1;
    if (profiler_init() == 0 && srv->cfg.background_profiler) {
        if (profiler_background_start(PERF_BACKGROUND_HZ) == 0)
            log_info("mcserv-background-profiler: sampling the game thread %d times a second",
                     PERF_BACKGROUND_HZ);
    }
    tickstat_on_slow(srv->cfg.slow_tick_ms, log_slow_tick);
    loop_timer_init(&perf.timer, on_second);
    loop_timer_after(l, &perf.timer, 0);
    perf.started = true;
}

void perf_stop(void)
{
    if (!perf.started) return;
    loop_timer_stop(perf.loop, &perf.timer);
    tickstat_on_slow(0, NULL);
    profile_free(profiler_stop());
    profiler_free();
    perf.started = false;
}

/* ------------------------------------------------------- the health report */

static double tps_over(size_t seconds)
{
    if (perf.count < 2) return 0;
    if (seconds >= perf.count) seconds = perf.count - 1;
    const struct second *a = back(seconds), *b = back(0);
    double dt = (double)(b->mono_ns - a->mono_ns) / 1e9;
    double tps = dt > 0 ? (double)(b->ticks - a->ticks) / dt : 0;
    return tps > 20.0 ? 20.0 : tps;
}

static void cpu_over(size_t seconds, double *proc, double *sys)
{
    *proc = *sys = 0;
    if (perf.count < 2) return;
    if (seconds >= perf.count) seconds = perf.count - 1;
    const struct second *a = back(seconds), *b = back(0);
    double dt = (double)(b->mono_ns - a->mono_ns);
    if (dt > 0) *proc = 100.0 * (double)(b->proc_cpu_ns - a->proc_cpu_ns) / dt / perf.cores;
    if (b->sys_total > a->sys_total)
        *sys = 100.0 * (double)(b->sys_busy - a->sys_busy) / (double)(b->sys_total - a->sys_total);
}

static void net_over(size_t seconds, double *in, double *out)
{
    *in = *out = 0;
    if (perf.count < 2) return;
    if (seconds >= perf.count) seconds = perf.count - 1;
    const struct second *a = back(seconds), *b = back(0);
    double dt = (double)(b->mono_ns - a->mono_ns) / 1e9;
    if (dt <= 0) return;
    *in = (double)(b->bytes_in - a->bytes_in) / dt;
    *out = (double)(b->bytes_out - a->bytes_out) / dt;
}

static void mspt(uint32_t n, struct perf_mspt *m)
{
    struct tickstat_summary s;
    tickstat_summarize(n, &s);
    *m = (struct perf_mspt){s.min_ms, s.median_ms, s.p95_ms, s.max_ms};
}

/* Bytes a section's storage takes (world/chunk.h: palette of 256 entries
 * when indirect, data packed into longs, values not crossing a long). */
static uint64_t section_bytes(const section *s)
{
    uint64_t n = 0;
    if (s->palette) n += 256 * sizeof(uint16_t);
    if (s->data && s->bits) {
        unsigned per_long = 64u / s->bits;
        n += (4096u + per_long - 1) / per_long * 8u;
    }
    return n;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

static void memory(struct perf_health *h)
{
    const world *w = &game.world;
    for (size_t k = 0; k < w->nbuckets; k++)
        for (const chunk_entry *e = w->buckets[k]; e; e = e->next) {
            h->mem.chunks += sizeof *e;
            for (int i = 0; i < CHUNK_SECTIONS; i++)
                h->mem.chunks += section_bytes(&e->c.sections[i]);
            h->mem.chunk_cache += e->frame.cap;
        }
    h->mem.chunks += w->nbuckets * sizeof *w->buckets + w->heap_cap * sizeof *w->heap;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        h->mem.players += sizeof *p + (p->loaded ? malloc_usable_size(p->loaded) : 0);
    }
    h->mem.entities += ent_memory(); /* pooled: not malloc_usable_size */
    conn *c;
    /* each connection's own bytes, segment array and input buffer (the
     * shared frames its segments reference are not counted) */
    server_for_each_conn (c, node)
        h->mem.output_queues += c->out.own.cap + c->out.cap * sizeof *c->out.segs + c->rbuf.cap;
    struct mallinfo2 mi = mallinfo2();
    h->mem.heap_in_use = mi.uordblks + mi.hblkhd;
    h->mem.allocator_free = mi.fordblks;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        unsigned long vsz, rss;
        if (fscanf(f, "%lu %lu", &vsz, &rss) == 2)
            h->mem.rss = (uint64_t)rss * (uint64_t)sysconf(_SC_PAGESIZE);
        fclose(f);
    }
}

void perf_health(struct perf_health *h)
{
    memset(h, 0, sizeof *h);
    h->tps_5s = tps_over(5);
    h->tps_1m = tps_over(60);
    h->tps_5m = tps_over(300);
    h->tps_15m = tps_over(900);
    mspt(TICKSTAT_10S, &h->mspt_10s);
    mspt(TICKSTAT_WINDOW, &h->mspt_1m);
    h->cores = perf.cores;
    cpu_over(10, &h->cpu_process_10s, &h->cpu_system_10s);
    cpu_over(60, &h->cpu_process_1m, &h->cpu_system_1m);
    memory(h);
    h->loaded_chunks = game.world.count;
    net_over(10, &h->net_in_10s, &h->net_out_10s);
    net_over(60, &h->net_in_1m, &h->net_out_1m);
    h->players = game.player_count;
    if (game.player_count) {
        int32_t *pings = malloc(game.player_count * sizeof *pings);
        if (pings) {
            for (size_t i = 0; i < game.player_count; i++)
                pings[i] = game.players[i]->player->latency_ms;
            qsort(pings, game.player_count, sizeof *pings, cmp_i32);
            size_t n = game.player_count;
            h->ping_p50 = pings[n / 2];
            h->ping_p95 = pings[(size_t)((double)(n - 1) * 0.95)];
            h->ping_max = pings[n - 1];
            free(pings);
        }
    }
}

/* ------------------------------------------------------------- the texts */

static void emitf(perf_emit emit, void *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void emitf(perf_emit emit, void *arg, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    emit(arg, line);
}

/* vanilla's nanosToMilisString: one decimal */
void perf_tick_query_lines(perf_emit emit, void *arg)
{
    uint32_t us[TICKSTAT_SHORT];
    uint32_t n = tickstat_recent_us(TICKSTAT_SHORT, us); /* vanilla: the last 100 ticks */
    double avg = 0;
    for (uint32_t i = 0; i < n; i++) avg += us[i];
    avg = n ? avg / n / 1000.0 : 0;
    /* vanilla 1.20.3+ TickCommand.tickQuery, its en_us texts */
    emit(arg, avg > 50.0 ? "The game is running, but can't keep up with the current tick rate"
                         : "The game is running normally");
    emitf(emit, arg, "Target tick rate: %.1f per second.", 20.0);
    emitf(emit, arg, "Average time per tick: %.1fms (Target: %.1fms)", avg, 50.0);
    qsort(us, n, sizeof us[0], cmp_i32); /* microseconds fit int32 (< 36 min) */
    if (n)
        emitf(emit, arg, "Percentiles: P50: %.1fms P95: %.1fms P99: %.1fms. Sample: %u",
              us[n / 2] / 1000.0, us[(uint32_t)((double)n * 0.95)] / 1000.0,
              us[(uint32_t)((double)n * 0.99)] / 1000.0, n);
    /* mcserv: the phases over the last 10 s */
    struct tickstat_summary t;
    tickstat_summarize(TICKSTAT_10S, &t);
    emitf(emit, arg, "Tick phases, last %u ticks (ms): p50 / p95 / p99 / max", t.ticks);
    int n_in = tickstat_phase_count_in_tick();
    double sum = 0;
    for (int p = 0; p < tickstat_phase_count(); p++) {
        struct tickstat_phase_summary s;
        tickstat_phase_summarize(p, TICKSTAT_10S, &s);
        if (p < n_in) sum += s.p50_ms;
        emitf(emit, arg, "  %s%s: %.2f / %.2f / %.2f / %.2f", p < n_in ? "" : "(between ticks) ",
              tickstat_phase_name(p), s.p50_ms, s.p95_ms, s.p99_ms, s.max_ms);
    }
    emitf(emit, arg, "Tick phase medians add up to %.2f ms; the tick median is %.2f ms", sum,
          t.median_ms);
}

static void mb(char *out, size_t cap, uint64_t bytes)
{
    snprintf(out, cap, "%.1f MB", (double)bytes / 1e6);
}

void perf_health_lines(perf_emit emit, void *arg)
{
    struct perf_health h;
    perf_health(&h);
    emit(arg, "Server health report:");
    emitf(emit, arg, "TPS from last 5s, 1m, 5m, 15m: %.2f, %.2f, %.2f, %.2f", h.tps_5s, h.tps_1m,
          h.tps_5m, h.tps_15m);
    emitf(emit, arg,
          "Tick durations (min/med/95%%ile/max ms) from last 10s: %.2f/%.2f/%.2f/%.2f; 1m: "
          "%.2f/%.2f/%.2f/%.2f",
          h.mspt_10s.min_ms, h.mspt_10s.median_ms, h.mspt_10s.p95_ms, h.mspt_10s.max_ms,
          h.mspt_1m.min_ms, h.mspt_1m.median_ms, h.mspt_1m.p95_ms, h.mspt_1m.max_ms);
    emitf(emit, arg,
          "CPU usage (%% of %d cores) from last 10s, 1m: process %.1f%%, %.1f%%; system %.1f%%, "
          "%.1f%%",
          h.cores, h.cpu_process_10s, h.cpu_process_1m, h.cpu_system_10s, h.cpu_system_1m);
    char a[32], b[32], c[32], d[32], e[32], f[32], g[32], i[32];
    mb(a, sizeof a, h.mem.rss);
    mb(b, sizeof b, h.mem.heap_in_use);
    mb(c, sizeof c, h.mem.chunks);
    mb(d, sizeof d, h.mem.chunk_cache);
    mb(e, sizeof e, h.mem.players);
    mb(f, sizeof f, h.mem.output_queues);
    mb(g, sizeof g, h.mem.entities);
    mb(i, sizeof i, h.mem.allocator_free);
    emitf(emit, arg, "Memory: resident %s, heap in use %s", a, b);
    emitf(emit, arg,
          "Memory by subsystem: chunks %s (%llu loaded), chunk packet cache %s, players %s, output "
          "queues %s, entities %s, allocator overhead (free, held) %s",
          c, (unsigned long long)h.loaded_chunks, d, e, f, g, i);
    emitf(emit, arg,
          "Network (game sockets) from last 10s, 1m: in %.1f, %.1f kB/s; out %.1f, %.1f kB/s",
          h.net_in_10s / 1e3, h.net_in_1m / 1e3, h.net_out_10s / 1e3, h.net_out_1m / 1e3);
    if (h.players)
        emitf(emit, arg, "Player ping (%zu players): p50 %.0f ms, p95 %.0f ms, max %.0f ms",
              h.players, h.ping_p50, h.ping_p95, h.ping_max);
    else
        emit(arg, "Player ping: no players online");
}
