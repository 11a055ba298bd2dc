/* tickstat.c — see tickstat.h. */
#include "core/tickstat.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"

/* Present only in the counting build (tests/alloc/alloc_count.c). */
#pragma weak tickstat_alloc_read
#pragma weak tickstat_alloc_tick

const double tickstat_bucket_le[TICKSTAT_BUCKETS] = {0.001, 0.005, 0.010, 0.020, 0.035,
                                                     0.050, 0.100, 0.200, 1e300};

const double tickstat_phase_bucket_le[TICKSTAT_PHASE_BUCKETS] = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.010, 0.025, 0.050, 0.100, 1e300};

_Atomic uint64_t tickstat_running_seq;

/* The phases: names, per-tick times in the same ring slots as ts.us, and
 * cumulative histograms. cur[] collects the running tick. */
static struct {
    const char *const *names;
    int n, n_in;
    uint32_t us[TICKSTAT_WINDOW][TICKSTAT_PHASES_MAX];
    int64_t
        cur[TICKSTAT_PHASES_MAX]; /* ns of the running tick (between: of the passes before it) */
    int64_t mark_ns;              /* where the running phase began */
    int64_t last_total[TICKSTAT_PHASES_MAX]; /* between-tick running totals at the last tick */
    bool seen_total[TICKSTAT_PHASES_MAX];
    uint64_t buckets[TICKSTAT_PHASES_MAX][TICKSTAT_PHASE_BUCKETS];
    double sum_s[TICKSTAT_PHASES_MAX];
    int slow_ms;
    void (*on_slow)(uint64_t seq, int64_t ns);
} ph;

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

/* Allocation figures (counting build only): ring of per-tick counts. The
 * period of a tick is known when the next one begins, so the newest entry is
 * always the tick before the running one. */
static struct {
    uint32_t in_tick[TICKSTAT_ALLOC_WINDOW], period[TICKSTAT_ALLOC_WINDOW];
    uint32_t frees[TICKSTAT_ALLOC_WINDOW], bytes[TICKSTAT_ALLOC_WINDOW];
    uint32_t next, count;
    uint64_t ticks;
    uint32_t tick_allocs;              /* in tick_run() of the tick whose period is open */
    struct tickstat_alloc_counts open; /* counts at the begin of that tick */
} al;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t clamp_u32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void alloc_begin(void)
{
    struct tickstat_alloc_counts now;
    tickstat_alloc_read(&now, NULL);
    if (al.ticks++) { /* close the previous tick's period */
        uint32_t i = al.next;
        al.in_tick[i] = al.tick_allocs;
        al.period[i] = clamp_u32(now.allocs - al.open.allocs);
        al.frees[i] = clamp_u32(now.frees - al.open.frees);
        al.bytes[i] = clamp_u32(now.bytes - al.open.bytes);
        al.next = (i + 1) % TICKSTAT_ALLOC_WINDOW;
        if (al.count < TICKSTAT_ALLOC_WINDOW) al.count++;
    }
    al.open = now;
    tickstat_alloc_tick(al.ticks, true);
}

static void alloc_end(void)
{
    struct tickstat_alloc_counts now;
    tickstat_alloc_read(&now, NULL);
    al.tick_allocs = clamp_u32(now.allocs - al.open.allocs);
    tickstat_alloc_tick(al.ticks, false);
}

static int64_t thread_cpu_ns(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) < 0) return 0;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void tickstat_begin(void)
{
    if (tickstat_alloc_read) alloc_begin();
    memset(ph.cur, 0, sizeof ph.cur[0] * (size_t)ph.n_in); /* between-tick ones are set already */
    atomic_store_explicit(&tickstat_running_seq, ts.total + 1, memory_order_relaxed);
    ts.start_ns = ph.mark_ns = clock_ns();
}

static uint32_t us_of(int64_t ns)
{
    if (ns < 0) return 0;
    return ns / 1000 > UINT32_MAX ? UINT32_MAX : (uint32_t)(ns / 1000);
}

/* The running tick's phases into ring slot i and the histograms. */
static void phases_end(uint32_t i)
{
    for (int p = 0; p < ph.n; p++) {
        ph.us[i][p] = us_of(ph.cur[p]);
        double s = (double)ph.cur[p] / 1e9;
        for (int b = 0; b < TICKSTAT_PHASE_BUCKETS; b++)
            if (s <= tickstat_phase_bucket_le[b]) ph.buckets[p][b]++;
        ph.sum_s[p] += s;
    }
}

void tickstat_end(void)
{
    int64_t now = clock_ns();
    int64_t d = now - ts.start_ns;
    if (d < 0) d = 0;
    uint32_t i = ts.next;
    ts.us[i] = us_of(d);
    phases_end(i);
    ts.wall[i] = now;
    ts.cpu[i] = thread_cpu_ns();
    ts.next = (i + 1) % TICKSTAT_WINDOW;
    if (ts.count < TICKSTAT_WINDOW) ts.count++;
    double s = (double)d / 1e9;
    for (int b = 0; b < TICKSTAT_BUCKETS; b++)
        if (s <= tickstat_bucket_le[b]) ts.buckets[b]++;
    ts.sum_s += s;
    ts.total++;
    atomic_store_explicit(&tickstat_running_seq, 0, memory_order_relaxed);
    if (tickstat_alloc_read) alloc_end();
    if (ph.on_slow && ph.slow_ms > 0 && d >= (int64_t)ph.slow_ms * 1000000) ph.on_slow(ts.total, d);
}

/* ------------------------------------------------------------ the phases */

void tickstat_set_phases(const char *const *names, int n, int n_in)
{
    if (n > TICKSTAT_PHASES_MAX) n = TICKSTAT_PHASES_MAX;
    if (n_in > n) n_in = n;
    ph.names = names;
    ph.n = n;
    ph.n_in = n_in;
}

int tickstat_phase_count(void)
{
    return ph.n;
}

int tickstat_phase_count_in_tick(void)
{
    return ph.n_in;
}

const char *tickstat_phase_name(int id)
{
    return id >= 0 && id < ph.n ? ph.names[id] : "?";
}

void tickstat_phase_end(int id)
{
    int64_t now = clock_ns();
    if (id >= 0 && id < ph.n) ph.cur[id] += now - ph.mark_ns;
    ph.mark_ns = now;
}

void tickstat_between(int id, int64_t total_ns)
{
    if (id < ph.n_in || id >= ph.n) return;
    ph.cur[id] = 0;
    if (ph.seen_total[id]) ph.cur[id] = total_ns - ph.last_total[id];
    ph.seen_total[id] = true; /* the first tick gets nothing: its period began at startup */
    ph.last_total[id] = total_ns;
}

void tickstat_on_slow(int ms, void (*fn)(uint64_t seq, int64_t ns))
{
    ph.slow_ms = ms;
    ph.on_slow = fn;
}

uint32_t tickstat_last_phase_us(int id)
{
    if (id < 0 || id >= ph.n || !ts.count) return 0;
    return ph.us[(ts.next + TICKSTAT_WINDOW - 1) % TICKSTAT_WINDOW][id];
}

int64_t tickstat_tick_us(uint64_t seq)
{
    if (seq == 0 || seq > ts.total || ts.total - seq >= ts.count) return -1;
    uint64_t back = ts.total - seq; /* 0: the newest */
    return ts.us[(ts.next + TICKSTAT_WINDOW - 1 - back) % TICKSTAT_WINDOW];
}

uint32_t tickstat_recent_us(uint32_t n, uint32_t *out)
{
    if (n > ts.count) n = ts.count;
    for (uint32_t i = 0; i < n; i++)
        out[i] = ts.us[(ts.next + TICKSTAT_WINDOW - 1 - i) % TICKSTAT_WINDOW];
    return n;
}

void tickstat_phase_summarize(int id, uint32_t n, struct tickstat_phase_summary *out)
{
    static uint32_t tmp[TICKSTAT_WINDOW];
    *out = (struct tickstat_phase_summary){0};
    if (id < 0 || id >= ph.n) return;
    if (n > ts.count) n = ts.count;
    if (!n) return;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        tmp[i] = ph.us[(ts.next + TICKSTAT_WINDOW - 1 - i) % TICKSTAT_WINDOW][id];
        sum += tmp[i];
    }
    qsort(tmp, n, sizeof tmp[0], cmp_u32);
    out->p50_ms = tmp[n / 2] / 1000.0;
    out->p95_ms = tmp[(uint32_t)((n - 1) * 0.95)] / 1000.0;
    out->p99_ms = tmp[(uint32_t)((n - 1) * 0.99)] / 1000.0;
    out->max_ms = tmp[n - 1] / 1000.0;
    out->mean_ms = (double)sum / n / 1000.0;
    out->ticks = n;
}

void tickstat_phase_histogram(int id, uint64_t counts[TICKSTAT_PHASE_BUCKETS], double *sum_s,
                              uint64_t *count)
{
    memset(counts, 0, sizeof(uint64_t) * TICKSTAT_PHASE_BUCKETS);
    *sum_s = 0;
    *count = ts.total;
    if (id < 0 || id >= ph.n) return;
    memcpy(counts, ph.buckets[id], sizeof(uint64_t) * TICKSTAT_PHASE_BUCKETS);
    *sum_s = ph.sum_s[id];
}

void tickstat_summarize(uint32_t n, struct tickstat_summary *out)
{
    static uint32_t tmp[TICKSTAT_WINDOW];
    *out = (struct tickstat_summary){0};
    if (n > ts.count) n = ts.count;
    if (!n) return;
    uint64_t total_us = 0;
    for (uint32_t i = 0; i < n; i++) {
        tmp[i] = ts.us[(ts.next + TICKSTAT_WINDOW - 1 - i) % TICKSTAT_WINDOW];
        total_us += tmp[i];
    }
    qsort(tmp, n, sizeof tmp[0], cmp_u32);
    out->mean_ms = (double)total_us / n / 1000.0;
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

/* {median, p99, max} of the newest n entries of one ring (sorted in place in tmp). */
static void alloc_quantiles(const uint32_t *ring, uint32_t n, uint32_t q[3])
{
    uint32_t tmp[TICKSTAT_ALLOC_WINDOW];
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = ring[(al.next + TICKSTAT_ALLOC_WINDOW - 1 - i) % TICKSTAT_ALLOC_WINDOW];
    qsort(tmp, n, sizeof tmp[0], cmp_u32); /* 800 bytes: glibc sorts on the stack */
    q[0] = tmp[n / 2];
    q[1] = tmp[(uint32_t)((n - 1) * 0.99)];
    q[2] = tmp[n - 1];
}

bool tickstat_alloc_summarize(uint32_t n, struct tickstat_alloc_summary *out)
{
    if (!tickstat_alloc_read) return false;
    *out = (struct tickstat_alloc_summary){0};
    tickstat_alloc_read(&out->game, &out->other);
    if (n > al.count) n = al.count;
    out->ticks = n;
    if (!n) return true;
    alloc_quantiles(al.in_tick, n, out->in_tick);
    alloc_quantiles(al.period, n, out->period);
    alloc_quantiles(al.frees, n, out->frees);
    alloc_quantiles(al.bytes, n, out->bytes);
    return true;
}
