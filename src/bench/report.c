/*
 * report.c — what mcbench tells you: the live progress line (stderr, once a
 * second), failure bookkeeping, the human table at the end (stdout) and the
 * JSON document (--json FILE, "-" for stdout).
 *
 * JSON layout (all times in milliseconds unless the key says otherwise):
 *   mcbench{version,protocol,game}   config{...the options...}
 *   result{ok,exit_code,stop_reason,wall_s,hold_s,started_unix_ms,
 *          hold_start_unix_ms|null,hold_start_s|null}
 *   bots{requested,sessions,joined,joined_initial,failed,left,active_at_end,
 *        connecting,in_login}
 *   phases{connect,login_success,first_position,first_chunk,own_chunk}:
 *        {count,p50,p90,p99,max,mean}  (from the session's connect call)
 *   keepalive{received,answered,interval{..},id_age{..}|null,id_age_note}
 *   chunks{received,unloaded,per_joined_bot,waits,wait{..},open_waits,open_wait_max,
 *          distinct,distinct_limit_hit,distinct_in_hold,distinct_per_s_hold}
 *   chat{sent,received}  moves_sent  teleports
 *   traffic{rx_bytes,tx_bytes,rx_mb_s,tx_mb_s,hold_rx_bytes,hold_rx_mb_s}
 *   packets{in:[{state,id,name,count,bytes}],out:[...]}  (non-zero rows)
 *   failures{total,tolerance,by_kind{refused,timeout,kicked,protocol,closed,error},
 *            by_reason:[{kind,reason,count}],list:[{bot,kind,state,t_ms,reason}],
 *            list_dropped}
 *   self{cpu_s (user + system),cpu_ms_per_bot,cpu_pct_of_core,rss_kib,max_rss_kib,wall_s}
 *   script{finished,disconnected,errors}
 *   spread{radius,timeout_s,rcon,asked_rcon,asked_command,teleported,timed_out,arrived,
 *          walked_arrived,teleport{..},arrival{..},rcon_sent,rcon_replies,
 *          rcon_first_reply|null,rcon_lost|null} | null (other scenarios)
 *   explosion{entity,entities,radius,sent,sent_ms,reply_ms,reply,window_bytes{p50,p99,max},
 *          window_packets{..},windows,spawn_packets,failed,kicked,mspt_peak_ms,
 *          mspt_under_5ms_after_ms (-1 never)} | null (other scenarios; explode.c)
 *
 * Invariants:
 *  1. Reasons are data: control characters and non-ASCII bytes are escaped
 *     before they are stored, so they are safe in a terminal and in JSON.
 *  2. Bounded bookkeeping: at most FAIL_REASONS_MAX distinct reasons (the
 *     rest are counted under "(other reasons)") and FAIL_LIST_MAX per-bot
 *     records (the rest only counted in list_dropped).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench/mcbench.h"
#include "data/version.h"

/* ------------------------------------------------------------- self usage */

double self_cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

long self_maxrss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

long self_rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long size = 0, res = 0;
    if (fscanf(f, "%ld %ld", &size, &res) != 2) res = -1;
    fclose(f);
    return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* -------------------------------------------------------------- failures */

static void sanitize(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; in[i] && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            o += (size_t)snprintf(out + o, cap - o, c == '"' ? "'" : "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o] = 0;
}

void record_fail(bot *b, enum fail_kind kind, const char *reason)
{
    char clean[REASON_MAX];
    sanitize(reason, clean, sizeof clean);
    bench.fail_by_kind[kind]++;
    unsigned i;
    for (i = 0; i < bench.reason_count; i++)
        if (bench.reasons[i].kind == kind && !strcmp(bench.reasons[i].text, clean)) break;
    if (i == bench.reason_count) {
        if (bench.reason_count < FAIL_REASONS_MAX) {
            bench.reasons[i].kind = kind;
            snprintf(bench.reasons[i].text, sizeof bench.reasons[i].text, "%s", clean);
            bench.reason_count++;
        } else {
            i = FAIL_REASONS_MAX; /* (other reasons) */
            bench.reasons[i].kind = FK_ERROR;
            snprintf(bench.reasons[i].text, sizeof bench.reasons[i].text, "(other reasons)");
        }
    }
    bench.reasons[i].count++;
    if (bench.fail_list_len >= FAIL_LIST_MAX) {
        bench.fail_list_dropped++;
        return;
    }
    struct fail_rec *r = &bench.fail_list[bench.fail_list_len++];
    r->bot = b->idx;
    r->kind = kind;
    r->state = b->state;
    r->t_ms = since_start_ms();
    r->reason = (uint16_t)i;
}

/* -------------------------------------------------------------- progress */

void report_progress(bool final)
{
    double t = (double)(bench.loop.now_us - bench.start_us) / 1e6;
    double cpu = self_cpu_seconds();
    double joins = (double)(bench.joined - bench.prog_joined);
    double rx = (double)(bench.rx_bytes - bench.prog_rx) / 1e6,
           tx = (double)(bench.tx_bytes - bench.prog_tx) / 1e6;
    double cpu_pct = (cpu - bench.prog_cpu) * 100.0;
    bench.prog_joined = bench.joined;
    bench.prog_rx = bench.rx_bytes;
    bench.prog_tx = bench.tx_bytes;
    bench.prog_cpu = cpu;
    if (!final) series_second(t, joins, rx, tx, cpu_pct);
    if (bench.o.quiet) return;
    double p99 = series_join_p99_5s_ms();
    char p99_text[32] = "-", left[48], server[96] = "";
    if (!isnan(p99)) snprintf(p99_text, sizeof p99_text, "%.1f ms", p99);
    if (final)
        snprintf(left, sizeof left, "done");
    else if (bench.hold_start_ms)
        snprintf(left, sizeof left, "%.0f s left",
                 bench.o.duration - (double)(bench.loop.now_ms - bench.hold_start_ms) / 1000.0);
    else
        snprintf(left, sizeof left, "joining, then %g s (at most %.0f s left)", bench.o.duration,
                 bench.o.max_time - t);
    struct server_now sn;
    scrape_latest(&sn);
    if (sn.valid)
        snprintf(server, sizeof server, " | server TPS %.1f MSPT p50 %.1f p99 %.1f ms", sn.tps,
                 sn.mspt_p50_ms, sn.mspt_p99_ms);
    fprintf(stderr,
            "[mcbench %6.1fs]%s connected %d (login %d, connecting %d) joined %llu failed %llu "
            "left %llu | %.0f joins/s | join p99 (5 s) %s | rx %.2f MB/s tx %.2f MB/s | cpu "
            "%.0f%%%s | %s\n",
            t, final ? " final:" : "", bench.in_play + bench.in_login, bench.in_login,
            bench.connecting, (unsigned long long)bench.joined, (unsigned long long)bench.failed,
            (unsigned long long)bench.left, joins, p99_text, rx, tx, cpu_pct, server, left);
}

/* ----------------------------------------------------------------- table */

static void hist_row(FILE *f, const char *label, const hist *h, double unit_div)
{
    if (!h->count) {
        fprintf(f, "  %-26s %8s\n", label, "-");
        return;
    }
    fprintf(f, "  %-26s %8llu %9.2f %9.2f %9.2f %9.2f %9.2f\n", label, (unsigned long long)h->count,
            (double)hist_quantile(h, 0.50) / unit_div, (double)hist_quantile(h, 0.90) / unit_div,
            (double)hist_quantile(h, 0.99) / unit_div, (double)h->max / unit_div,
            hist_mean(h) / unit_div);
}

struct pkt_row {
    int st, in, id;
    uint64_t count, bytes;
};

static int cmp_row(const void *a, const void *b)
{
    const struct pkt_row *p = a, *q = b;
    return p->bytes < q->bytes ? 1 : p->bytes > q->bytes ? -1 : 0;
}

static size_t collect_rows(int in, struct pkt_row *rows)
{
    size_t n = 0;
    for (int st = 0; st < PKTN_STATES; st++)
        for (int id = 0; id < 256; id++)
            if (bench.tr.count[st][in][id])
                rows[n++] = (struct pkt_row){st, in, id, bench.tr.count[st][in][id],
                                             bench.tr.bytes[st][in][id]};
    qsort(rows, n, sizeof *rows, cmp_row);
    return n;
}

static const char *state_label(int st)
{
    return st == PKTN_HANDSHAKE ? "handshake" : st == PKTN_LOGIN ? "login" : "play";
}

static double wall_s(void)
{
    return (double)(bench.loop.now_us - bench.start_us) / 1e6;
}

static double hold_s(void)
{
    if (!bench.hold_start_ms) return 0;
    return (double)(bench.loop.now_ms - bench.hold_start_ms) / 1000.0;
}

void report_write(FILE *f)
{
    double wall = wall_s();
    double cpu = self_cpu_seconds();
    fprintf(f, "\nmcbench %s: scenario %s, %d bots -> %s:%d (rate %g/s, hold %g s, view %d)\n",
            MCBENCH_VERSION, bench.o.scenario_name, bench.o.bots, bench.o.host, bench.o.port,
            bench.o.rate, bench.o.duration, bench.o.view_distance);
    fprintf(f, "stopped: %s after %.1f s (held %.1f s)\n",
            bench.stop_reason ? bench.stop_reason : "?", wall, hold_s());
    fprintf(f,
            "bots: requested %d, joined %llu (first sessions %llu), failed %llu, left %llu, "
            "sessions %llu\n",
            bench.o.bots, (unsigned long long)bench.joined,
            (unsigned long long)bench.joined_initial, (unsigned long long)bench.failed,
            (unsigned long long)bench.left, (unsigned long long)bench.sessions);
    fprintf(f, "\n  %-26s %8s %9s %9s %9s %9s %9s\n", "latency (ms) from connect", "count", "p50",
            "p90", "p99", "max", "mean");
    static const char *const labels[PH_COUNT] = {"tcp connect", "login success", "first position",
                                                 "first chunk", "chunk at own position"};
    for (int p = 0; p < PH_COUNT; p++) hist_row(f, labels[p], &bench.phase[p], 1000.0);
    hist_row(f, "keep-alive interval", &bench.ka_interval, 1.0);
    hist_row(f, "keep-alive id age", &bench.ka_age, 1000.0);
    hist_row(f, "chunk wait while moving", &bench.chunk_wait, 1000.0);
    if (bench.o.scenario == SC_SPREAD) {
        hist_row(f, "spread: ask -> teleport", &bench.spread.teleport, 1000.0);
        hist_row(f, "spread: ask -> chunk there", &bench.spread.arrival, 1000.0);
    }
    fprintf(f,
            "\nchunks %llu (unloaded %llu), keep-alives %llu, teleports %llu, moves %llu, "
            "chat sent %llu / received %llu\n",
            (unsigned long long)bench.chunks_rx, (unsigned long long)bench.unloads_rx,
            (unsigned long long)bench.keepalive_rx, (unsigned long long)bench.teleports,
            (unsigned long long)bench.moves_sent, (unsigned long long)bench.chat_sent,
            (unsigned long long)bench.chat_rx);
    fprintf(f, "distinct chunks %llu (%llu in the hold, %.1f/s)",
            (unsigned long long)bench.seen.len,
            (unsigned long long)(bench.seen.len - bench.hold_seen0),
            hold_s() > 0 ? (double)(bench.seen.len - bench.hold_seen0) / hold_s() : 0.0);
    if (bench.open_waits)
        fprintf(f, "; %llu bots still waiting for their chunk at the end (longest %.0f ms)",
                (unsigned long long)bench.open_waits, (double)bench.open_wait_max_us / 1000.0);
    fputc('\n', f);
    if (bench.o.scenario == SC_SPREAD) {
        const struct spread_stats *sp = &bench.spread;
        fprintf(f,
                "spread +-%g blocks: asked %llu over RCON, %llu by /tp; teleported %llu, timed out "
                "(walking) %llu, arrived %llu (%llu walked)\n",
                bench.o.spread_radius, (unsigned long long)sp->asked_rcon,
                (unsigned long long)sp->asked_command, (unsigned long long)sp->teleported,
                (unsigned long long)sp->timed_out, (unsigned long long)sp->arrived,
                (unsigned long long)sp->walked_arrived);
        if (sp->rcon_lost[0]) fprintf(f, "spread: RCON ended early: %s\n", sp->rcon_lost);
    }
    explode_report(f);
    fprintf(f, "traffic: rx %.2f MB (%.2f MB/s), tx %.2f MB (%.2f MB/s)\n",
            (double)bench.rx_bytes / 1e6, wall > 0 ? (double)bench.rx_bytes / 1e6 / wall : 0,
            (double)bench.tx_bytes / 1e6, wall > 0 ? (double)bench.tx_bytes / 1e6 / wall : 0);
    struct pkt_row *rows = malloc(sizeof *rows * PKTN_STATES * 256);
    if (rows) {
        for (int in = 1; in >= 0; in--) {
            size_t n = collect_rows(in, rows);
            fprintf(f, "\n  packets %-3s (top by bytes)      %10s %12s\n", in ? "in" : "out",
                    "count", "bytes");
            for (size_t i = 0; i < n && i < 12; i++)
                fprintf(f, "  %-9s 0x%02x %-20s %10llu %12llu\n", state_label(rows[i].st),
                        rows[i].id, pkt_name(rows[i].st, in, rows[i].id),
                        (unsigned long long)rows[i].count, (unsigned long long)rows[i].bytes);
            if (n > 12) fprintf(f, "  ... %zu more packet types (see --json)\n", n - 12);
        }
        free(rows);
    }
    fprintf(f, "\nfailures: %llu (tolerance %ld)\n", (unsigned long long)bench.failed,
            bench.o.max_failures);
    for (unsigned i = 0; i <= FAIL_REASONS_MAX; i++)
        if (bench.reasons[i].count)
            fprintf(f, "  %6llu  %-8s %s\n", (unsigned long long)bench.reasons[i].count,
                    fail_kind_name(bench.reasons[i].kind), bench.reasons[i].text);
    fprintf(f,
            "\nmcbench itself: cpu %.2f s (%.1f%% of one core), %.3f ms cpu per bot, "
            "rss %.1f MB (max %.1f MB)\n",
            cpu, wall > 0 ? cpu / wall * 100.0 : 0, bench.o.bots ? cpu * 1000.0 / bench.o.bots : 0,
            (double)self_rss_kib() / 1024.0, (double)self_maxrss_kib() / 1024.0);
    fprintf(f, "result: %s\n",
            (long long)bench.failed > (long long)bench.o.max_failures
                ? "FAILED (failures over tolerance)"
                : "OK");
}

/* ------------------------------------------------------------------ JSON */

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void jhist(FILE *f, const hist *h, double unit_div)
{
    if (!h->count) {
        fprintf(f, "{\"count\":0}");
        return;
    }
    fprintf(f,
            "{\"count\":%llu,\"min\":%.3f,\"p50\":%.3f,\"p90\":%.3f,\"p95\":%.3f,\"p99\":%.3f,"
            "\"max\":%.3f,\"mean\":%.3f}",
            (unsigned long long)h->count, (double)h->min / unit_div,
            (double)hist_quantile(h, 0.50) / unit_div, (double)hist_quantile(h, 0.90) / unit_div,
            (double)hist_quantile(h, 0.95) / unit_div, (double)hist_quantile(h, 0.99) / unit_div,
            (double)h->max / unit_div, hist_mean(h) / unit_div);
}

static void jpackets(FILE *f, int in)
{
    struct pkt_row *rows = malloc(sizeof *rows * PKTN_STATES * 256);
    fputc('[', f);
    if (rows) {
        size_t n = collect_rows(in, rows);
        for (size_t i = 0; i < n; i++) {
            fprintf(f,
                    "%s{\"state\":\"%s\",\"id\":%d,\"name\":\"%s\",\"count\":%llu,\"bytes\":%llu}",
                    i ? "," : "", state_label(rows[i].st), rows[i].id,
                    pkt_name(rows[i].st, in, rows[i].id), (unsigned long long)rows[i].count,
                    (unsigned long long)rows[i].bytes);
        }
        free(rows);
    }
    fputc(']', f);
}

static void jstr_or_null(FILE *f, const char *s)
{
    if (s[0])
        jstr(f, s);
    else
        fputs("null", f);
}

static void jspread(FILE *f)
{
    fputs("\"spread\":", f);
    if (bench.o.scenario != SC_SPREAD) {
        fputs("null", f);
        return;
    }
    const struct spread_stats *sp = &bench.spread;
    fprintf(f,
            "{\"radius\":%g,\"timeout_s\":%g,\"rcon\":%s,\"asked_rcon\":%llu,"
            "\"asked_command\":%llu,\"teleported\":%llu,\"timed_out\":%llu,\"arrived\":%llu,"
            "\"walked_arrived\":%llu,\"teleport\":",
            bench.o.spread_radius, bench.o.spread_timeout, bench.o.rcon_port ? "true" : "false",
            (unsigned long long)sp->asked_rcon, (unsigned long long)sp->asked_command,
            (unsigned long long)sp->teleported, (unsigned long long)sp->timed_out,
            (unsigned long long)sp->arrived, (unsigned long long)sp->walked_arrived);
    jhist(f, &sp->teleport, 1000.0);
    fputs(",\"arrival\":", f);
    jhist(f, &sp->arrival, 1000.0);
    fprintf(f, ",\"rcon_sent\":%llu,\"rcon_replies\":%llu,\"rcon_first_reply\":",
            (unsigned long long)sp->rcon_sent, (unsigned long long)sp->rcon_replies);
    jstr_or_null(f, sp->rcon_first_reply);
    fputs(",\"rcon_lost\":", f);
    jstr_or_null(f, sp->rcon_lost);
    fputc('}', f);
}

int report_write_json(const char *path, int exit_code)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        perror(path);
        return -1;
    }
    bool err = report_write_json_to(f, exit_code) < 0;
    if (f != stdout)
        err = fclose(f) != 0 || err;
    else
        fflush(f);
    return err ? -1 : 0;
}

int report_write_json_to(FILE *f, int exit_code)
{
    double wall = wall_s(), cpu = self_cpu_seconds();
    const struct opts *o = &bench.o;
    char started[40] = "";
    time_t st = (time_t)(bench.start_wall_ms / 1000);
    struct tm tm;
    if (gmtime_r(&st, &tm)) strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(f,
            "{\"mcbench\":{\"version\":\"%s\",\"protocol\":%d,\"game\":\"%s\","
            "\"started_unix_ms\":%lld,\"started\":\"%s\"},\n",
            MCBENCH_VERSION, MC_PROTOCOL_VERSION, MC_VERSION_NAME, (long long)bench.start_wall_ms,
            started);
    fprintf(f, "\"config\":{\"host\":");
    jstr(f, o->host);
    fprintf(f,
            ",\"port\":%d,\"bots\":%d,\"rate\":%g,\"duration\":%g,\"scenario\":\"%s\","
            "\"script\":",
            o->port, o->bots, o->rate, o->duration, o->scenario_name);
    if (o->script)
        jstr(f, o->script);
    else
        fputs("null", f);
    fprintf(f,
            ",\"view_distance\":%d,\"max_failures\":%ld,\"latency_ms\":%g,\"jitter_ms\":%g,"
            "\"bandwidth_kBps\":%g,\"radius\":%g,\"speed\":%g,\"chat_every\":%g,\"stay_min\":%g,"
            "\"stay_max\":%g,\"rejoin_pause\":%g,\"connect_timeout\":%g,\"join_timeout\":%g,"
            "\"silence_timeout\":%g,\"seed\":%llu,\"spread_radius\":%g,\"spread_timeout\":%g,"
            "\"rcon_port\":%d,\"max_regression\":%g,\"name_prefix\":",
            o->view_distance, o->max_failures, o->latency_ms, o->jitter_ms, o->bandwidth_kBps,
            o->radius, o->speed, o->chat_every, o->stay_min, o->stay_max, o->rejoin_pause,
            o->connect_timeout, o->join_timeout, o->silence_timeout, (unsigned long long)o->seed,
            o->spread_radius, o->spread_timeout, o->rcon_port, o->max_regression);
    jstr(f, o->prefix);
    fputs(",\"metrics_url\":", f);
    if (o->metrics_url)
        jstr(f, o->metrics_url);
    else
        fputs("null", f);
    fputs(",\"baseline\":", f);
    if (o->baseline)
        jstr(f, o->baseline);
    else
        fputs("null", f);
    fprintf(f, "},\n\"result\":{\"ok\":%s,\"exit_code\":%d,\"stop_reason\":",
            exit_code == 0 ? "true" : "false", exit_code);
    jstr(f, bench.stop_reason ? bench.stop_reason : "?");
    fprintf(f, ",\"wall_s\":%.3f,\"hold_s\":%.3f,\"started_unix_ms\":%lld,\"hold_start_unix_ms\":",
            wall, hold_s(), (long long)bench.start_wall_ms);
    if (bench.hold_start_ms)
        fprintf(f, "%lld,\"hold_start_s\":%.3f},\n", (long long)bench.hold_start_wall_ms,
                (double)(bench.hold_start_ms - bench.start_us / 1000) / 1000.0);
    else
        fputs("null,\"hold_start_s\":null},\n", f);
    fprintf(f,
            "\"bots\":{\"requested\":%d,\"sessions\":%llu,\"joined\":%llu,\"joined_initial\":%llu,"
            "\"failed\":%llu,\"left\":%llu,\"active_at_end\":%d,\"connecting\":%d,"
            "\"in_login\":%d},\n",
            o->bots, (unsigned long long)bench.sessions, (unsigned long long)bench.joined,
            (unsigned long long)bench.joined_initial, (unsigned long long)bench.failed,
            (unsigned long long)bench.left, bench.active_at_end, bench.connecting_at_end,
            bench.in_login_at_end);
    fprintf(f, "\"phases\":{");
    for (int p = 0; p < PH_COUNT; p++) {
        fprintf(f, "%s\"%s\":", p ? "," : "", phase_name((enum phase)p));
        jhist(f, &bench.phase[p], 1000.0);
    }
    fprintf(f, "},\n\"keepalive\":{\"received\":%llu,\"answered\":%llu,\"interval\":",
            (unsigned long long)bench.keepalive_rx, (unsigned long long)bench.keepalive_tx);
    jhist(f, &bench.ka_interval, 1.0);
    fprintf(f, ",\"id_age\":");
    if (bench.ka_age_ok && !bench.ka_age_bad)
        jhist(f, &bench.ka_age, 1000.0);
    else
        fputs("null", f);
    fprintf(f, ",\"id_age_note\":");
    jstr(f, bench.ka_age_bad ? "the server's keep-alive ids are not wall-clock milliseconds: no "
                               "one-way delay can be derived"
                             : "server wall clock in the keep-alive id vs ours (same host): "
                               "server-to-bot delay including the server's queueing");
    fprintf(f, "},\n");
    fprintf(f,
            "\"chunks\":{\"received\":%llu,\"unloaded\":%llu,\"per_joined_bot\":%.2f,"
            "\"waits\":%llu,\"wait\":",
            (unsigned long long)bench.chunks_rx, (unsigned long long)bench.unloads_rx,
            bench.joined ? (double)bench.chunks_rx / (double)bench.joined : 0.0,
            (unsigned long long)bench.chunk_waits);
    jhist(f, &bench.chunk_wait, 1000.0);
    double hs = hold_s();
    uint64_t in_hold = bench.hold_start_ms ? bench.seen.len - bench.hold_seen0 : 0;
    fprintf(f,
            ",\"open_waits\":%llu,\"open_wait_max\":%.3f,\"distinct\":%u,"
            "\"distinct_limit_hit\":%s,\"distinct_in_hold\":%llu,\"distinct_per_s_hold\":%.2f",
            (unsigned long long)bench.open_waits, (double)bench.open_wait_max_us / 1000.0,
            bench.seen.len, bench.seen.overflow ? "true" : "false", (unsigned long long)in_hold,
            hs > 0 ? (double)in_hold / hs : 0.0);
    fprintf(f,
            "},\n\"chat\":{\"sent\":%llu,\"received\":%llu},\"moves_sent\":%llu,"
            "\"teleports\":%llu,\n",
            (unsigned long long)bench.chat_sent, (unsigned long long)bench.chat_rx,
            (unsigned long long)bench.moves_sent, (unsigned long long)bench.teleports);
    fprintf(f,
            "\"traffic\":{\"rx_bytes\":%llu,\"tx_bytes\":%llu,\"rx_mb_s\":%.3f,\"tx_mb_s\":%.3f,"
            "\"hold_rx_bytes\":%llu,\"hold_rx_mb_s\":%.3f},\n",
            (unsigned long long)bench.rx_bytes, (unsigned long long)bench.tx_bytes,
            wall > 0 ? (double)bench.rx_bytes / 1e6 / wall : 0,
            wall > 0 ? (double)bench.tx_bytes / 1e6 / wall : 0,
            (unsigned long long)(bench.hold_start_ms ? bench.rx_bytes - bench.hold_rx_bytes0 : 0),
            hs > 0 ? (double)(bench.rx_bytes - bench.hold_rx_bytes0) / 1e6 / hs : 0.0);
    fprintf(f, "\"packets\":{\"in\":");
    jpackets(f, 1);
    fprintf(f, ",\n\"out\":");
    jpackets(f, 0);
    fprintf(f, "},\n\"failures\":{\"total\":%llu,\"tolerance\":%ld,\"by_kind\":{",
            (unsigned long long)bench.failed, o->max_failures);
    for (int k = 0; k < FK_COUNT; k++)
        fprintf(f, "%s\"%s\":%llu", k ? "," : "", fail_kind_name((enum fail_kind)k),
                (unsigned long long)bench.fail_by_kind[k]);
    fprintf(f, "},\"by_reason\":[");
    bool first = true;
    for (unsigned i = 0; i <= FAIL_REASONS_MAX; i++) {
        if (!bench.reasons[i].count) continue;
        fprintf(f, "%s{\"kind\":\"%s\",\"reason\":", first ? "" : ",",
                fail_kind_name(bench.reasons[i].kind));
        jstr(f, bench.reasons[i].text);
        fprintf(f, ",\"count\":%llu}", (unsigned long long)bench.reasons[i].count);
        first = false;
    }
    fprintf(f, "],\n\"list\":[");
    for (unsigned i = 0; i < bench.fail_list_len; i++) {
        const struct fail_rec *r = &bench.fail_list[i];
        fprintf(f, "%s{\"bot\":", i ? ",\n" : "");
        jstr(f, bench.bots[r->bot].name);
        fprintf(f, ",\"kind\":\"%s\",\"state\":\"%s\",\"t_ms\":%lld,\"reason\":",
                fail_kind_name(r->kind), bot_state_name(r->state), (long long)r->t_ms);
        jstr(f, bench.reasons[r->reason].text);
        fputc('}', f);
    }
    fprintf(f, "],\"list_dropped\":%llu},\n", (unsigned long long)bench.fail_list_dropped);
    fprintf(f,
            "\"self\":{\"cpu_s\":%.3f,\"cpu_ms_per_bot\":%.3f,\"cpu_pct_of_core\":%.2f,"
            "\"rss_kib\":%ld,\"max_rss_kib\":%ld,\"wall_s\":%.3f},\n",
            cpu, o->bots ? cpu * 1000.0 / o->bots : 0.0, wall > 0 ? cpu / wall * 100.0 : 0.0,
            self_rss_kib(), self_maxrss_kib(), wall);
    fprintf(f, "\"script\":{\"finished\":%llu,\"disconnected\":%llu,\"errors\":%llu},\n",
            (unsigned long long)bench.script_done, (unsigned long long)bench.script_left,
            (unsigned long long)bench.script_errors);
    jspread(f);
    fputs(",\n", f);
    explode_json(f);
    fputs(",\n", f);
    scrape_write_json(f);
    fputs(",\n", f);
    series_write_json(f);
    fputs("}\n", f);
    return ferror(f) ? -1 : 0;
}
