/*
 * scrape.c — mcbench reads the server (--metrics-url URL, issue 16): a
 * Prometheus /metrics scrape once a second on mcbench's own loop, so the
 * report puts the server's TPS, MSPT and tick phases beside the latencies
 * its bots measured.
 *
 * One scrape at a time:
 *
 *   IDLE --1 s timer--> CONNECTING --writable--> SENT (request written)
 *     ^                                          |
 *     +---- EOF: parse the body, keep a sample --+  (any error or 2 s: failed, IDLE)
 *
 * Series read (mcserv's names, src/admin/metrics.c; another exporter's
 * missing series are simply absent): minecraft_ticks_total, minecraft_tps,
 * minecraft_tick_duration_recent_seconds{quantile=0.5|0.99|1} (the last
 * 100 ticks), minecraft_tick_duration_seconds_sum/_count,
 * mcserv_tick_phase_seconds_sum/_count{phase=...}.
 *
 * Figures over the hold (or the whole run when no hold began), from the
 * samples inside it: TPS = ticks / time; MSPT mean = histogram sum / count;
 * p50 = the median of the windows' medians (an estimate), p99 = the highest
 * window p99 (an upper bound of the hold's p99), max = the highest window
 * max; per phase the mean milliseconds per tick (sum / count).
 *
 * Invariants:
 *  1. Bounded: a response over SCRAPE_MAX_BODY is dropped; at most
 *     SCRAPE_MAX_SAMPLES samples and SCRAPE_MAX_PHASES phase names are kept.
 *  2. Never blocks the loop: the socket is non-blocking; only the URL's
 *     host is resolved once, at start (before any bot).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench/mcbench.h"
#include "core/clock.h"

#define SCRAPE_MAX_BODY    (4u << 20)
#define SCRAPE_MAX_SAMPLES 100000
#define SCRAPE_MAX_PHASES  24
#define SCRAPE_TIMEOUT_MS  2000

struct sample {
    int64_t t_ms; /* since the run started */
    double ticks, tps, q50, q99, qmax, sum, count;
    double phase_sum[SCRAPE_MAX_PHASES], phase_count[SCRAPE_MAX_PHASES];
    uint32_t have; /* bit per field found: see HAVE_* */
};
enum { HAVE_TICKS = 1, HAVE_TPS = 2, HAVE_Q = 4, HAVE_HIST = 8 };

static struct {
    bool on;
    char host[256], path[1024], url[1400];
    struct sockaddr_storage addr;
    socklen_t addr_len;
    enum { SCR_IDLE, SCR_CONNECTING, SCR_SENT } state;
    int fd;
    loop_watch watch;
    loop_timer timer;
    int64_t started_ms;
    buf_t in;
    struct sample *samples;
    size_t n, cap;
    uint64_t ok, failed;
    char last_error[160];
    char phases[SCRAPE_MAX_PHASES][48];
    int nphases;
} sc = {.fd = -1};

int scrape_open(const char *url)
{
    snprintf(sc.url, sizeof sc.url, "%s", url);
    if (strncmp(url, "http://", 7) != 0) {
        fprintf(stderr, "mcbench: --metrics-url: only http:// URLs, not '%s'\n", url);
        return -1;
    }
    const char *h = url + 7, *slash = strchr(h, '/');
    size_t hl = slash ? (size_t)(slash - h) : strlen(h);
    if (hl == 0 || hl >= sizeof sc.host) {
        fprintf(stderr, "mcbench: --metrics-url: no host in '%s'\n", url);
        return -1;
    }
    memcpy(sc.host, h, hl);
    sc.host[hl] = 0;
    snprintf(sc.path, sizeof sc.path, "%s", slash ? slash : "/metrics");
    char host[256], port[16] = "80";
    snprintf(host, sizeof host, "%s", sc.host);
    char *colon = strrchr(host, ':');
    if (host[0] == '[') { /* [v6]:port */
        char *end = strchr(host, ']');
        if (!end) goto bad;
        if (end[1] == ':') snprintf(port, sizeof port, "%s", end + 2);
        *end = 0;
        memmove(host, host + 1, strlen(host));
    } else if (colon) {
        snprintf(port, sizeof port, "%s", colon + 1);
        *colon = 0;
    }
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) || !res) {
        fprintf(stderr, "mcbench: --metrics-url: cannot resolve '%s'\n", host);
        return -1;
    }
    memcpy(&sc.addr, res->ai_addr, res->ai_addrlen);
    sc.addr_len = res->ai_addrlen;
    freeaddrinfo(res);
    buf_init(&sc.in, SCRAPE_MAX_BODY);
    sc.on = true;
    return 0;
bad:
    fprintf(stderr, "mcbench: --metrics-url: bad host in '%s'\n", url);
    return -1;
}

bool scrape_on(void)
{
    return sc.on;
}

static void close_fd(void)
{
    if (sc.fd < 0) return;
    loop_watch_del(&bench.loop, &sc.watch);
    close(sc.fd);
    sc.fd = -1;
}

static void fail(const char *why)
{
    snprintf(sc.last_error, sizeof sc.last_error, "%s", why);
    sc.failed++;
    close_fd();
    sc.state = SCR_IDLE;
}

/* A phase name's index (new names appended); -1 when full, or when the
 * name is not [A-Za-z0-9_] (it goes into the JSON report as is). */
static int phase_index(const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return -1;
    }
    for (int i = 0; i < sc.nphases; i++)
        if (strlen(sc.phases[i]) == len && memcmp(sc.phases[i], name, len) == 0) return i;
    if (sc.nphases >= SCRAPE_MAX_PHASES || len >= sizeof sc.phases[0]) return -1;
    memcpy(sc.phases[sc.nphases], name, len);
    sc.phases[sc.nphases][len] = 0;
    return sc.nphases++;
}

/* The value of label `key` in "{a="x",b="y"}" at l (up to the closing
 * brace), or NULL; *len its length. */
static const char *label(const char *l, const char *end, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    for (const char *p = l; p + kl + 2 < end; p++) {
        if ((p == l || p[-1] == '{' || p[-1] == ',') && memcmp(p, key, kl) == 0 && p[kl] == '=' &&
            p[kl + 1] == '"') {
            const char *v = p + kl + 2, *q = memchr(v, '"', (size_t)(end - v));
            if (!q) return NULL;
            *len = (size_t)(q - v);
            return v;
        }
    }
    return NULL;
}

static void parse_line(struct sample *s, const char *l, const char *end)
{
    if (l == end || *l == '#') return;
    const char *sp = end;
    while (sp > l && sp[-1] != ' ') sp--;
    if (sp == l) return;
    char num[64];
    size_t nl = (size_t)(end - sp);
    if (nl >= sizeof num) return;
    memcpy(num, sp, nl);
    num[nl] = 0;
    double v = strtod(num, NULL);
    const char *brace = memchr(l, '{', (size_t)(sp - l));
    size_t name_len = (size_t)((brace ? brace : sp - 1) - l);
#define IS(lit) (name_len == sizeof(lit) - 1 && memcmp(l, lit, sizeof(lit) - 1) == 0)
    size_t ql;
    const char *q;
    if (IS("minecraft_ticks_total")) {
        s->ticks = v;
        s->have |= HAVE_TICKS;
    } else if (IS("minecraft_tps")) {
        s->tps = v;
        s->have |= HAVE_TPS;
    } else if (IS("minecraft_tick_duration_recent_seconds") && brace &&
               (q = label(brace + 1, sp, "quantile", &ql))) {
        if (ql == 3 && !memcmp(q, "0.5", 3)) s->q50 = v * 1e3;
        if (ql == 4 && !memcmp(q, "0.99", 4)) s->q99 = v * 1e3;
        if (ql == 1 && *q == '1') s->qmax = v * 1e3;
        s->have |= HAVE_Q;
    } else if (IS("minecraft_tick_duration_seconds_sum")) {
        s->sum = v;
        s->have |= HAVE_HIST;
    } else if (IS("minecraft_tick_duration_seconds_count")) {
        s->count = v;
    } else if ((IS("mcserv_tick_phase_seconds_sum") || IS("mcserv_tick_phase_seconds_count")) &&
               brace && (q = label(brace + 1, sp, "phase", &ql))) {
        int i = phase_index(q, ql);
        if (i < 0) return;
        if (l[name_len - 1] == 'm')
            s->phase_sum[i] = v;
        else
            s->phase_count[i] = v;
    }
#undef IS
}

static void parse_response(void)
{
    const char *p = (const char *)sc.in.data, *end = p + sc.in.len;
    if (sc.in.len < 12 || memcmp(p, "HTTP/1.", 7) != 0 || memcmp(p + 9, "200", 3) != 0) {
        fail("the answer is not HTTP 200");
        return;
    }
    const char *body = NULL;
    for (const char *q = p; q + 3 < end; q++)
        if (!memcmp(q, "\r\n\r\n", 4)) {
            body = q + 4;
            break;
        }
    if (!body) {
        fail("no end of the response head");
        return;
    }
    if (sc.n == sc.cap) {
        size_t cap = sc.cap ? sc.cap * 2 : 256;
        if (cap > SCRAPE_MAX_SAMPLES) cap = SCRAPE_MAX_SAMPLES;
        struct sample *a = cap > sc.cap ? realloc(sc.samples, cap * sizeof *a) : NULL;
        if (!a) {
            fail("sample limit reached");
            return;
        }
        sc.samples = a;
        sc.cap = cap;
    }
    struct sample *s = &sc.samples[sc.n];
    memset(s, 0, sizeof *s);
    s->t_ms = (bench.loop.now_us - bench.start_us) / 1000;
    while (body < end) {
        const char *nl = memchr(body, '\n', (size_t)(end - body));
        if (!nl) nl = end;
        parse_line(s, body, nl);
        body = nl + 1;
    }
    sc.n++;
    sc.ok++;
    close_fd();
    sc.state = SCR_IDLE;
}

static void on_event(loop_watch *w, uint32_t events)
{
    (void)w;
    if (sc.state == SCR_CONNECTING) {
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(sc.fd, SOL_SOCKET, SO_ERROR, &err, &el);
        if (err || (events & EPOLLERR)) {
            char why[128];
            snprintf(why, sizeof why, "connect: %s", strerror(err ? err : ECONNREFUSED));
            fail(why);
            return;
        }
        char req[1500];
        int n = snprintf(req, sizeof req,
                         "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: mcbench/%s\r\n"
                         "Connection: close\r\n\r\n",
                         sc.path, sc.host, MCBENCH_VERSION);
        if (send(sc.fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
            fail("the request could not be sent");
            return;
        }
        sc.state = SCR_SENT;
        loop_watch_mod(&bench.loop, &sc.watch, EPOLLIN);
        return;
    }
    for (int rounds = 0; rounds < 64; rounds++) {
        uint8_t *dst = buf_reserve(&sc.in, 65536);
        if (!dst) {
            fail("the response is over 4 MiB");
            return;
        }
        ssize_t n = recv(sc.fd, dst, 65536, 0);
        if (n > 0) {
            sc.in.len += (size_t)n;
            continue;
        }
        if (n == 0) {
            parse_response();
            return;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        fail(strerror(errno));
        return;
    }
}

static void on_timer(loop_timer *t)
{
    loop_timer_after(&bench.loop, t, 1000);
    if (sc.state != SCR_IDLE) {
        if (bench.loop.now_ms - sc.started_ms > SCRAPE_TIMEOUT_MS) fail("no answer within 2 s");
        return;
    }
    buf_reset(&sc.in);
    sc.fd = socket(sc.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (sc.fd < 0) {
        fail(strerror(errno));
        return;
    }
    sc.started_ms = bench.loop.now_ms;
    if (connect(sc.fd, (struct sockaddr *)&sc.addr, sc.addr_len) < 0 && errno != EINPROGRESS) {
        char why[128];
        snprintf(why, sizeof why, "connect: %s", strerror(errno));
        fail(why);
        return;
    }
    loop_watch_init(&sc.watch, on_event);
    if (loop_watch_add(&bench.loop, &sc.watch, sc.fd, EPOLLOUT) < 0) {
        close(sc.fd);
        sc.fd = -1;
        fail("epoll_ctl");
        return;
    }
    sc.state = SCR_CONNECTING;
}

void scrape_start(void)
{
    if (!sc.on) return;
    loop_timer_init(&sc.timer, on_timer);
    loop_timer_at(&bench.loop, &sc.timer, bench.loop.now_ms);
}

void scrape_stop(void)
{
    if (!sc.on) return;
    loop_timer_stop(&bench.loop, &sc.timer);
    close_fd();
    sc.state = SCR_IDLE;
}

/* ---------------------------------------------------------- the figures */

void scrape_latest(struct server_now *now)
{
    memset(now, 0, sizeof *now);
    if (!sc.n) return;
    const struct sample *s = &sc.samples[sc.n - 1];
    now->valid = true;
    now->tps = s->have & HAVE_TPS ? s->tps : NAN;
    now->mspt_p50_ms = s->have & HAVE_Q ? s->q50 : NAN;
    now->mspt_p99_ms = s->have & HAVE_Q ? s->q99 : NAN;
    now->mspt_max_ms = s->have & HAVE_Q ? s->qmax : NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The samples of the hold (or of the run): [*from, *to). */
static void window(size_t *from, size_t *to, bool *hold)
{
    *from = 0;
    *to = sc.n;
    *hold = false;
    if (!bench.hold_start_ms) return;
    int64_t h0 = bench.hold_start_ms - bench.start_us / 1000;
    size_t i = 0;
    while (i < sc.n && sc.samples[i].t_ms < h0) i++;
    if (sc.n - i >= 2) {
        *from = i;
        *hold = true;
    }
}

void scrape_figures(struct server_figures *f)
{
    memset(f, 0, sizeof *f);
    f->tps = f->mspt_p50 = f->mspt_p99 = f->mspt_max = f->mspt_mean = NAN;
    size_t a, b;
    window(&a, &b, &f->hold);
    f->samples = b - a;
    if (b - a < 1) return;
    const struct sample *s0 = &sc.samples[a], *s1 = &sc.samples[b - 1];
    double dt = (double)(s1->t_ms - s0->t_ms) / 1000.0;
    if ((s0->have & HAVE_TICKS) && dt > 0) f->tps = (s1->ticks - s0->ticks) / dt;
    if ((s0->have & HAVE_HIST) && s1->count > s0->count)
        f->mspt_mean = (s1->sum - s0->sum) / (s1->count - s0->count) * 1e3;
    double *med = malloc((b - a) * sizeof *med);
    size_t nm = 0;
    for (size_t i = a; i < b; i++) {
        const struct sample *s = &sc.samples[i];
        if (!(s->have & HAVE_Q)) continue;
        if (med) med[nm++] = s->q50;
        if (isnan(f->mspt_p99) || s->q99 > f->mspt_p99) f->mspt_p99 = s->q99;
        if (isnan(f->mspt_max) || s->qmax > f->mspt_max) f->mspt_max = s->qmax;
    }
    if (med && nm) {
        qsort(med, nm, sizeof *med, cmp_double);
        f->mspt_p50 = med[nm / 2];
    }
    free(med);
    f->nphases = sc.nphases;
    for (int p = 0; p < sc.nphases; p++) {
        f->phase_name[p] = sc.phases[p];
        double dc = s1->phase_count[p] - s0->phase_count[p];
        f->phase_mean_ms[p] = dc > 0 ? (s1->phase_sum[p] - s0->phase_sum[p]) / dc * 1e3 : NAN;
    }
}

bool scrape_recovery(int64_t since_ms, double limit_ms, double *peak_ms, double *recover_ms)
{
    *peak_ms = NAN;
    *recover_ms = -1;
    size_t i = 0;
    while (i < sc.n && sc.samples[i].t_ms < since_ms) i++;
    if (i == 0 || i >= sc.n) return false; /* an interval needs a sample before it */
    bool seen = false;
    for (size_t k = i; k < sc.n; k++) {
        const struct sample *a = &sc.samples[k - 1], *b = &sc.samples[k];
        if (!(a->have & HAVE_HIST) || !(b->have & HAVE_HIST) || b->count <= a->count) continue;
        double mean = (b->sum - a->sum) / (b->count - a->count) * 1e3;
        seen = true;
        if (isnan(*peak_ms) || mean > *peak_ms) *peak_ms = mean;
        if (mean >= limit_ms)
            *recover_ms = -1; /* not yet (or not any more) */
        else if (*recover_ms < 0)
            *recover_ms = (double)(b->t_ms - since_ms);
    }
    return seen;
}

static void num_or_dash(FILE *f, const char *fmt, double v)
{
    if (isnan(v))
        fputs("-", f);
    else
        fprintf(f, fmt, v);
}

void scrape_write_table(FILE *f)
{
    if (!sc.on) return;
    struct server_figures s;
    scrape_figures(&s);
    fprintf(f, "\nserver (%s, %llu scrapes, %llu failed%s%s) over the %s:\n  TPS ", sc.url,
            (unsigned long long)sc.ok, (unsigned long long)sc.failed, sc.last_error[0] ? ": " : "",
            sc.last_error, s.hold ? "hold" : "run");
    num_or_dash(f, "%.2f", s.tps);
    fputs(", MSPT p50 ", f);
    num_or_dash(f, "%.2f", s.mspt_p50);
    fputs(" / p99 ", f);
    num_or_dash(f, "%.2f", s.mspt_p99);
    fputs(" / max ", f);
    num_or_dash(f, "%.2f", s.mspt_max);
    fputs(" / mean ", f);
    num_or_dash(f, "%.3f", s.mspt_mean);
    fputs(" ms\n", f);
    if (s.nphases) {
        fputs("  tick phases (mean ms per tick):", f);
        for (int p = 0; p < s.nphases; p++) {
            fprintf(f, "%s %s ", p ? "," : "", s.phase_name[p]);
            num_or_dash(f, "%.3f", s.phase_mean_ms[p]);
        }
        fputc('\n', f);
    }
}

static void jnum(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.4f", v);
}

void scrape_write_json(FILE *f)
{
    fputs("\"server\":", f);
    if (!sc.on) {
        fputs("null", f);
        return;
    }
    struct server_figures s;
    scrape_figures(&s);
    fputs("{\"url\":", f);
    fputc('"', f);
    for (const char *p = sc.url; *p; p++)
        if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*p);
        else
            fputc(*p, f);
    fprintf(f, "\",\"scrapes\":%llu,\"failed_scrapes\":%llu,\"window\":\"%s\",\"samples\":%zu,",
            (unsigned long long)sc.ok, (unsigned long long)sc.failed, s.hold ? "hold" : "run",
            s.samples);
    fputs("\"tps\":", f);
    jnum(f, s.tps);
    fputs(",\"mspt\":{\"p50\":", f);
    jnum(f, s.mspt_p50);
    fputs(",\"p99\":", f);
    jnum(f, s.mspt_p99);
    fputs(",\"max\":", f);
    jnum(f, s.mspt_max);
    fputs(",\"mean\":", f);
    jnum(f, s.mspt_mean);
    fputs("},\"phases\":{", f);
    for (int p = 0; p < s.nphases; p++) {
        fprintf(f, "%s\"%s\":", p ? "," : "", s.phase_name[p]); /* names: [a-z_] from the server */
        jnum(f, s.phase_mean_ms[p]);
    }
    fputs("}}", f);
}

void scrape_free(void)
{
    scrape_stop();
    free(sc.samples);
    sc.samples = NULL;
    buf_free(&sc.in);
}
