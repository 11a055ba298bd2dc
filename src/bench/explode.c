/*
 * explode.c — mcbench's `explosion` scenario (issue 15's "entity
 * explosion"): bots stand at the spawn; --summon-after seconds into the
 * hold, one RCON command makes --entities mobs of --entity at once within
 * --entity-radius blocks of the world spawn, and the report says what the
 * bots went through:
 *   - receive bursts: per bot, the bytes and packets of each 50 ms window
 *     in which it received anything, from the send on (p50 / p99 / max):
 *     a server that floods shows one huge window, one that paces its
 *     spawns many moderate ones;
 *   - the bots kicked or dropped after the send, with the reasons (the
 *     failure table of report.c names them: "Output overflow", timeouts);
 *   - Spawn Entity packets received after the send (all bots);
 *   - with --metrics-url, the server's MSPT: the highest per-second mean
 *     after the send and how long until it stayed under 5 ms.
 *
 * The command. Vanilla has no command that summons many entities in one
 * tick, and one `summon` per entity over RCON is spread over many ticks by
 * the reads (mcserv reads about 11 KB of RCON input per pass; vanilla one
 * packet per read), which is not "at once". So the scenario sends mcserv's
 * `summonmany <entity> <count> <radius> [<pos>] [<nbt>]` (game/cmd_mobs.c:
 * every mob through the same spawn path as `summon`, in the tick that reads
 * the command). Against another server the command fails and the report
 * says so with the reply.
 *
 * Invariants:
 *  1. One command per run, sent once; a window's counters are per bot and
 *     bounded (a window closes after 50 ms; counts are 32-bit and reset).
 *  2. Nothing here blocks: the command goes through rcon_client.c's loop
 *     watch.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/mcbench.h"
#include "data/packet_ids.h"

#define WINDOW_MS     50
#define MSPT_OK_MS    5.0
#define PKT_SPAWN_ENT PKT_PLAY_CB_SPAWN_ENTITY

static void on_send(loop_timer *t)
{
    (void)t;
    struct boom_stats *s = &bench.boom;
    if (s->sent || bench.stopping) return;
    int n = snprintf(s->command, sizeof s->command, "summonmany %s %d %g", bench.o.entity,
                     bench.o.entities, bench.o.entity_radius);
    if (bench.o.entity_nbt && n > 0 && (size_t)n < sizeof s->command)
        snprintf(s->command + n, sizeof s->command - (size_t)n, " ~ ~ ~ %s", bench.o.entity_nbt);
    if (rcon_client_command(s->command) < 0) {
        snprintf(s->reply, sizeof s->reply, "(not sent: RCON is not connected)");
        return;
    }
    s->sent = true;
    s->sent_ms = since_start_ms();
    s->spawns_at_send = bench.tr.count[PKTN_PLAY][1][PKT_SPAWN_ENT];
    s->failed_at_send = bench.failed;
    s->kicked_at_send = bench.fail_by_kind[FK_KICKED];
    if (!bench.o.quiet)
        fprintf(stderr, "mcbench: explosion: sent '%s' at %.1f s\n", s->command,
                (double)s->sent_ms / 1000.0);
}

void explode_hold_started(void)
{
    if (bench.o.scenario != SC_EXPLOSION) return;
    hist_init(&bench.boom.win_bytes);
    hist_init(&bench.boom.win_pkts);
    loop_timer_init(&bench.boom.t_send, on_send);
    loop_timer_after(&bench.loop, &bench.boom.t_send, (int64_t)(bench.o.summon_after * 1000.0));
}

static void close_window(bot *b)
{
    if (b->win_pkts) {
        hist_add(&bench.boom.win_bytes, b->win_bytes);
        hist_add(&bench.boom.win_pkts, b->win_pkts);
    }
    b->win_bytes = b->win_pkts = 0;
}

void explode_packet(bot *b, size_t wire)
{
    if (!bench.boom.sent) return;
    int64_t now = bench.loop.now_ms;
    if (now - b->win_ms >= WINDOW_MS) {
        close_window(b);
        b->win_ms = now;
    }
    b->win_bytes += (uint32_t)wire;
    b->win_pkts++;
}

void explode_replied(const char *text)
{
    bench.boom.replied = true;
    bench.boom.reply_ms = since_start_ms();
    snprintf(bench.boom.reply, sizeof bench.boom.reply, "%s", text[0] ? text : "(empty)");
}

static void flush_windows(void)
{
    static bool done;
    if (done) return;
    done = true;
    for (int i = 0; i < bench.o.bots; i++) close_window(&bench.bots[i]);
}

/* The figures both reports print, after the send. */
struct figures {
    unsigned long long bytes[3], pkts[3]; /* p50, p99, max */
    unsigned long long windows, spawns, failed, kicked;
    bool mspt;
    double peak_ms, under_ms; /* under_ms -1: not back under 5 ms */
};

static void figures(struct figures *g)
{
    const struct boom_stats *s = &bench.boom;
    flush_windows();
    const hist *h[2] = {&s->win_bytes, &s->win_pkts};
    unsigned long long *out[2] = {g->bytes, g->pkts};
    for (int k = 0; k < 2; k++) {
        out[k][0] = hist_quantile(h[k], 0.5);
        out[k][1] = hist_quantile(h[k], 0.99);
        out[k][2] = h[k]->max;
    }
    g->windows = s->win_pkts.count;
    g->spawns = bench.tr.count[PKTN_PLAY][1][PKT_SPAWN_ENT] - s->spawns_at_send;
    g->failed = bench.failed - s->failed_at_send;
    g->kicked = bench.fail_by_kind[FK_KICKED] - s->kicked_at_send;
    g->mspt = scrape_on() && scrape_recovery(s->sent_ms, MSPT_OK_MS, &g->peak_ms, &g->under_ms);
}

void explode_report(FILE *f)
{
    if (bench.o.scenario != SC_EXPLOSION) return;
    const struct boom_stats *s = &bench.boom;
    if (!s->sent) {
        fprintf(f, "explosion: the summon was not sent %s\n", s->reply);
        return;
    }
    struct figures g;
    figures(&g);
    fprintf(f, "explosion: '%s' at %.1f s; reply after %lld ms: %s\n", s->command,
            (double)s->sent_ms / 1000.0, s->replied ? (long long)(s->reply_ms - s->sent_ms) : -1LL,
            s->replied ? s->reply : "(none)");
    fprintf(f,
            "explosion: per bot per 50 ms window after it: bytes p50 %llu p99 %llu max %llu; "
            "packets p50 %llu p99 %llu max %llu (%llu windows)\n",
            g.bytes[0], g.bytes[1], g.bytes[2], g.pkts[0], g.pkts[1], g.pkts[2], g.windows);
    fprintf(f,
            "explosion: Spawn Entity received after it: %llu; bots failed after it: %llu "
            "(kicked %llu)\n",
            g.spawns, g.failed, g.kicked);
    if (g.mspt)
        fprintf(f,
                "explosion: server MSPT (per-second mean) peak %.2f ms; under %.0f ms %s%.1f s "
                "after the send\n",
                g.peak_ms, MSPT_OK_MS, g.under_ms < 0 ? "never, not within " : "",
                g.under_ms < 0 ? (double)(since_start_ms() - s->sent_ms) / 1000.0
                               : g.under_ms / 1000.0);
}

void explode_json(FILE *f)
{
    fputs("\"explosion\":", f);
    if (bench.o.scenario != SC_EXPLOSION) {
        fputs("null", f);
        return;
    }
    const struct boom_stats *s = &bench.boom;
    fprintf(f, "{\"entity\":\"%s\",\"entities\":%d,\"radius\":%g,\"sent\":%s", bench.o.entity,
            bench.o.entities, bench.o.entity_radius, s->sent ? "true" : "false");
    if (s->sent) {
        struct figures g;
        figures(&g);
        fprintf(f, ",\"sent_ms\":%lld,\"reply_ms\":%lld", (long long)s->sent_ms,
                s->replied ? (long long)(s->reply_ms - s->sent_ms) : -1LL);
        fputs(",\"reply\":\"", f);
        for (const char *p = s->reply; *p; p++) /* JSON string: escape what must be */
            if (*p == '"' || *p == '\\')
                fprintf(f, "\\%c", *p);
            else if ((unsigned char)*p < 0x20)
                fprintf(f, "\\u%04x", (unsigned char)*p);
            else
                fputc(*p, f);
        fprintf(f, "\",\"window_bytes\":{\"p50\":%llu,\"p99\":%llu,\"max\":%llu}", g.bytes[0],
                g.bytes[1], g.bytes[2]);
        fprintf(f, ",\"window_packets\":{\"p50\":%llu,\"p99\":%llu,\"max\":%llu}", g.pkts[0],
                g.pkts[1], g.pkts[2]);
        fprintf(f, ",\"windows\":%llu,\"spawn_packets\":%llu,\"failed\":%llu,\"kicked\":%llu",
                g.windows, g.spawns, g.failed, g.kicked);
        if (g.mspt)
            fprintf(f, ",\"mspt_peak_ms\":%.3f,\"mspt_under_5ms_after_ms\":%.0f", g.peak_ms,
                    g.under_ms);
    }
    fputc('}', f);
}
