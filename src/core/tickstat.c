/* tickstat.c — see tickstat.h. */
#include "core/tickstat.h"

#include <stdlib.h>
#include <time.h>

#include "core/clock.h"

const double tickstat_bucket_le[TICKSTAT_BUCKETS] = {0.001, 0.005, 0.010, 0.020, 0.035,
                                                     0.050, 0.100, 0.200, 1e300};

static struct {
    uint32_t us[TICKSTAT_WINDOW];
    int64_t wall[TICKSTAT_WINDOW]; /* end of each tick, ns */
    int64_t cpu[TICKSTAT_WINDOW];  /* thread CPU time at the end of each tick, ns */
    uint32_t next, count;
    int64_t start_ns;
    uint64_t buckets[TICKSTAT_BUCKETS];
    double sum_s;
    uint64_t total;
} ts;

static int64_t thread_cpu_ns(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) < 0) return 0;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void tickstat_begin(void)
{
    ts.start_ns = clock_ns();
}

void tickstat_end(void)
{
    int64_t now = clock_ns();
    int64_t d = now - ts.start_ns;
    if (d < 0) d = 0;
    uint32_t i = ts.next;
    ts.us[i] = d / 1000 > UINT32_MAX ? UINT32_MAX : (uint32_t)(d / 1000);
    ts.wall[i] = now;
    ts.cpu[i] = thread_cpu_ns();
    ts.next = (i + 1) % TICKSTAT_WINDOW;
    if (ts.count < TICKSTAT_WINDOW) ts.count++;
    double s = (double)d / 1e9;
    for (int b = 0; b < TICKSTAT_BUCKETS; b++)
        if (s <= tickstat_bucket_le[b]) ts.buckets[b]++;
    ts.sum_s += s;
    ts.total++;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void tickstat_summarize(uint32_t n, struct tickstat_summary *out)
{
    static uint32_t tmp[TICKSTAT_WINDOW];
    *out = (struct tickstat_summary){0};
    if (n > ts.count) n = ts.count;
    if (!n) return;
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = ts.us[(ts.next + TICKSTAT_WINDOW - 1 - i) % TICKSTAT_WINDOW];
    qsort(tmp, n, sizeof tmp[0], cmp_u32);
    out->min_ms = tmp[0] / 1000.0;
    out->median_ms = tmp[n / 2] / 1000.0;
    out->p95_ms = tmp[(uint32_t)((n - 1) * 0.95)] / 1000.0;
    out->p99_ms = tmp[(uint32_t)((n - 1) * 0.99)] / 1000.0;
    out->max_ms = tmp[n - 1] / 1000.0;
    out->ticks = n;
    uint32_t last = (ts.next + TICKSTAT_WINDOW - 1) % TICKSTAT_WINDOW;
    uint32_t first = (ts.next + TICKSTAT_WINDOW - n) % TICKSTAT_WINDOW;
    double span = (double)(ts.wall[last] - ts.wall[first]);
    out->tps = n > 1 && span > 0 ? (n - 1) * 1e9 / span : 0;
    if (out->tps > 20.0) out->tps = 20.0; /* catch-up bursts after a pause */
    out->cpu_pct = n > 1 && span > 0 ? 100.0 * (double)(ts.cpu[last] - ts.cpu[first]) / span : 0;
}

void tickstat_histogram(uint64_t counts[TICKSTAT_BUCKETS], double *sum_s, uint64_t *count)
{
    for (int b = 0; b < TICKSTAT_BUCKETS; b++) counts[b] = ts.buckets[b];
    *sum_s = ts.sum_s;
    *count = ts.total;
}
