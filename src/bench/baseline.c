/*
 * baseline.c — --baseline OLD.json (issue 16): this run's figures against
 * an earlier mcbench report. Both reports are read as JSON (jansson: this
 * run's is written to memory first, exactly as --json writes it) and each
 * figure of the table below is looked up by its path in both, so a report
 * of any earlier mcbench version with the same keys compares.
 *
 * Printed: one line per figure present in either report, with both values
 * and the change in percent. The run fails (exit status 1) when a figure
 * named by --regress-on (default: phases.own_chunk.p99, and with
 * --metrics-url also server.mspt.p99 and server.tps) got worse by more
 * than --max-regression percent (default 10); "worse" is up for latencies
 * and costs, down for TPS. A baseline value of 0 that grew is an infinite
 * regression. A figure named by --regress-on that either report lacks
 * fails the run too (the gate could not be checked); the default list
 * skips what is missing.
 *
 * Invariants:
 *  1. The baseline is read and checked at start (exit status 2 when it
 *     cannot be), never after a long run.
 *  2. Only numbers are compared; a path that leads elsewhere is absent.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/mcbench.h"

struct figure {
    const char *path;
    int worse; /* +1: higher is worse; -1: lower is worse; 0: shown only */
};

static const struct figure figures[] = {
    {"phases.connect.p50", 1},
    {"phases.connect.p99", 1},
    {"phases.login_success.p50", 1},
    {"phases.login_success.p99", 1},
    {"phases.first_chunk.p99", 1},
    {"phases.own_chunk.p50", 1},
    {"phases.own_chunk.p95", 1},
    {"phases.own_chunk.p99", 1},
    {"phases.own_chunk.max", 1},
    {"keepalive.interval.p99", 1},
    {"keepalive.id_age.p99", 1},
    {"chunks.wait.p99", 1},
    {"chunks.wait.max", 1},
    {"bots.failed", 1},
    {"server.tps", -1},
    {"server.mspt.p50", 1},
    {"server.mspt.p99", 1},
    {"server.mspt.max", 1},
    {"server.mspt.mean", 1},
    {"self.cpu_ms_per_bot", 1},
    {"traffic.hold_rx_mb_s", 0},
};
#define NFIGURES (sizeof figures / sizeof figures[0])

static struct {
    json_t *old;
    bool chosen[NFIGURES];
    bool explicit_choice;
} bl;

static int figure_index(const char *path, size_t len)
{
    for (size_t i = 0; i < NFIGURES; i++)
        if (strlen(figures[i].path) == len && strncmp(figures[i].path, path, len) == 0)
            return (int)i;
    return -1;
}

/* The number at a dotted path, or NaN. */
static double at(json_t *doc, const char *path)
{
    json_t *v = doc;
    char part[64];
    for (const char *p = path; v && *p;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (n >= sizeof part) return NAN;
        memcpy(part, p, n);
        part[n] = 0;
        v = json_is_object(v) ? json_object_get(v, part) : NULL;
        p = dot ? dot + 1 : p + n;
    }
    return v && json_is_number(v) ? json_number_value(v) : NAN;
}

int baseline_open(const char *path, const char *regress_on, bool with_metrics)
{
    json_error_t err;
    bl.old = json_load_file(path, 0, &err);
    if (!bl.old) {
        fprintf(stderr, "mcbench: --baseline %s: %s (line %d)\n", path, err.text, err.line);
        return -1;
    }
    if (!json_is_object(json_object_get(bl.old, "mcbench"))) {
        fprintf(stderr, "mcbench: --baseline %s: not an mcbench report (no \"mcbench\" key)\n",
                path);
        return -1;
    }
    if (regress_on) {
        bl.explicit_choice = true;
        for (const char *p = regress_on; *p;) {
            const char *comma = strchr(p, ',');
            size_t n = comma ? (size_t)(comma - p) : strlen(p);
            int i = figure_index(p, n);
            if (i < 0 || figures[i].worse == 0) {
                fprintf(stderr,
                        "mcbench: --regress-on: '%.*s' is not a figure mcbench compares; one of:",
                        (int)n, p);
                for (size_t k = 0; k < NFIGURES; k++)
                    if (figures[k].worse) fprintf(stderr, " %s", figures[k].path);
                fputc('\n', stderr);
                return -1;
            }
            bl.chosen[i] = true;
            p = comma ? comma + 1 : p + n;
        }
    } else {
        bl.chosen[figure_index("phases.own_chunk.p99", 20)] = true;
        if (with_metrics) {
            bl.chosen[figure_index("server.mspt.p99", 15)] = true;
            bl.chosen[figure_index("server.tps", 10)] = true;
        }
    }
    return 0;
}

bool baseline_on(void)
{
    return bl.old != NULL;
}

int baseline_compare(const char *report, size_t len, double max_regression, FILE *out)
{
    json_error_t err;
    json_t *now = json_loadb(report, len, 0, &err);
    if (!now) {
        fprintf(out, "baseline: this run's report does not parse (%s): nothing compared\n",
                err.text);
        return 1;
    }
    int failed = 0;
    fprintf(out, "\nagainst the baseline (regression limit %g%%; * = checked):\n", max_regression);
    fprintf(out, "  %-28s %12s %12s %10s\n", "figure", "baseline", "now", "change");
    for (size_t i = 0; i < NFIGURES; i++) {
        const struct figure *fg = &figures[i];
        double a = at(bl.old, fg->path), b = at(now, fg->path);
        bool chosen = bl.chosen[i];
        if (isnan(a) && isnan(b)) {
            if (chosen && bl.explicit_choice) {
                fprintf(out, "* %-28s missing in both reports: cannot be checked\n", fg->path);
                failed++;
            }
            continue;
        }
        char change[32] = "n/a";
        double pct = NAN;
        if (!isnan(a) && !isnan(b)) {
            if (a != 0)
                pct = (b - a) / fabs(a) * 100.0;
            else
                pct = b == 0 ? 0 : b > 0 ? INFINITY : -INFINITY;
            if (isinf(pct))
                snprintf(change, sizeof change, "%sinf%%", pct > 0 ? "+" : "-");
            else
                snprintf(change, sizeof change, "%+.1f%%", pct);
        }
        bool regressed = false, unknown = isnan(pct);
        if (!unknown && fg->worse) regressed = pct * fg->worse > max_regression;
        char va[24] = "-", vb[24] = "-";
        if (!isnan(a)) snprintf(va, sizeof va, "%.3f", a);
        if (!isnan(b)) snprintf(vb, sizeof vb, "%.3f", b);
        fprintf(out, "%c %-28s %12s %12s %10s%s\n", chosen ? '*' : ' ', fg->path, va, vb, change,
                chosen && regressed ? "  REGRESSION"
                : chosen && unknown ? "  cannot be checked"
                                    : "");
        if (chosen && (regressed || (unknown && bl.explicit_choice))) failed++;
    }
    fprintf(out, "baseline: %s\n",
            failed ? "FAILED (a checked figure regressed past the limit)"
                   : "OK (no checked figure regressed past the limit)");
    json_decref(now);
    return failed ? 1 : 0;
}

void baseline_close(void)
{
    json_decref(bl.old);
    bl.old = NULL;
}
