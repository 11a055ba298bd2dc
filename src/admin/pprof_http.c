/*
 * pprof_http.c — see pprof_http.h.
 */
#include "admin/pprof_http.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/pprof.h"
#include "core/profiler.h"
#include "core/workers.h"
#include "net/server.h"

#define DRAIN_MS 50

static struct {
    enum { PP_IDLE, PP_SAMPLING, PP_ENCODING } state;
    http_ticket ticket;
    bool collapsed;
    int seconds;
    int64_t start_ms, end_ms;
    loop_timer timer;
    bool timer_ready;
    job job;
    profile *p;
    buf_t out;
    int rc;
} pp;

static char refusal[256];

static void refuse(struct http_reply *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(struct http_reply *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(refusal, sizeof refusal - 1, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n > sizeof refusal - 2) n = sizeof refusal - 2;
    refusal[n++] = '\n';
    refusal[n] = 0;
    *r = (struct http_reply){code, "text/plain; charset=utf-8", refusal, (size_t)n, NULL, false};
}

bool http_query_param(const char *query, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    for (const char *p = query; p && *p;) {
        const char *end = strchr(p, '&');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            size_t vl = len - nl - 1;
            if (vl >= cap) vl = cap - 1;
            memcpy(out, p + nl + 1, vl);
            out[vl] = 0;
            return true;
        }
        if (len == nl && strncmp(p, name, nl) == 0) {
            out[0] = 0;
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

/* An integer parameter in [lo, hi]; 1 ok, 0 absent (def), -1 bad. */
static int int_param(const char *query, const char *name, long lo, long hi, long def, long *out)
{
    char v[32];
    *out = def;
    if (!http_query_param(query, name, v, sizeof v)) return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 1;
}

static void encode_run(job *j, worker_ctx *w)
{
    (void)j;
    (void)w;
    pp.rc = pp.collapsed ? pprof_write_collapsed(pp.p, &pp.out) : pprof_write_proto(pp.p, &pp.out);
}

static void finish(void)
{
    profile_free(pp.p);
    pp.p = NULL;
    buf_free(&pp.out);
    pp.state = PP_IDLE;
}

static void encode_done(job *j)
{
    (void)j;
    const profile *p = pp.p;
    char headers[256];
    snprintf(headers, sizeof headers,
             "X-Profile-Samples: %llu\r\nX-Profile-Dropped: %llu\r\nX-Profile-Clock: %s\r\n%s",
             (unsigned long long)p->samples, (unsigned long long)p->dropped,
             p->clock ? p->clock : "?",
             pp.collapsed ? "" : "Content-Disposition: attachment; filename=\"profile.pb.gz\"\r\n");
    if (pp.job.cancelled) {
        /* shutting down: nobody to answer */
    } else if (pp.rc < 0 || pp.out.failed) {
        static const char msg[] = "the profile is larger than the endpoint's output cap\n";
        http_answer(pp.ticket, 500, "text/plain; charset=utf-8", msg, sizeof msg - 1, NULL);
    } else {
        log_info(
            "http: profile of %d s done: %llu samples (%llu dropped, %llu left out), %zu bytes",
            pp.seconds, (unsigned long long)p->samples, (unsigned long long)p->dropped,
            (unsigned long long)p->filtered, pp.out.len);
        http_answer(pp.ticket, 200,
                    pp.collapsed ? "text/plain; charset=utf-8" : "application/octet-stream",
                    pp.out.data, pp.out.len, headers);
    }
    finish();
}

static void on_drain(loop_timer *t)
{
    if (pp.state != PP_SAMPLING) return;
    profiler_drain();
    int64_t now = srv->loop->now_ms;
    if (!http_ticket_alive(pp.ticket)) {
        log_info("http: the client of a profile left; profile dropped");
        profile_free(profiler_stop());
        pp.state = PP_IDLE;
        return;
    }
    if (now < pp.end_ms) {
        loop_timer_after(srv->loop, t, DRAIN_MS);
        return;
    }
    pp.p = profiler_stop();
    if (!pp.p) {
        pp.state = PP_IDLE;
        return;
    }
    buf_init(&pp.out, HTTP_OUT_MAX - 4096);
    pp.state = PP_ENCODING;
    pp.job = (job){.run = encode_run, .done = encode_done};
    workers_submit(&pp.job);
}

void pprof_http_profile(const char *query, http_ticket t, struct http_reply *r)
{
    int64_t now = srv->loop->now_ms;
    if (pp.state == PP_SAMPLING) {
        refuse(r, 409,
               "a profile is already running (started %.0f s ago, %.0f s left): one at a time",
               (double)(now - pp.start_ms) / 1000.0, (double)(pp.end_ms - now) / 1000.0);
        return;
    }
    if (pp.state == PP_ENCODING) {
        refuse(r, 409, "a profile is being encoded for its client: one at a time, try again");
        return;
    }
    long seconds, hz, over_ms;
    char fmt[32] = "proto";
    if (int_param(query, "seconds", 1, PPROF_SECONDS_MAX, PPROF_SECONDS_DEFAULT, &seconds) < 0) {
        refuse(r, 400, "seconds: a whole number of seconds from 1 to %d", PPROF_SECONDS_MAX);
        return;
    }
    if (int_param(query, "hz", 1, PROF_HZ_MAX, PROF_HZ_DEFAULT, &hz) < 0) {
        refuse(r, 400, "hz: samples per second from 1 to %d", PROF_HZ_MAX);
        return;
    }
    if (int_param(query, "only_ticks_over", 0, 600000, 0, &over_ms) < 0) {
        refuse(r, 400, "only_ticks_over: a tick length in milliseconds from 0 to 600000");
        return;
    }
    http_query_param(query, "format", fmt, sizeof fmt);
    if (strcmp(fmt, "proto") && strcmp(fmt, "collapsed")) {
        refuse(r, 400, "format: proto (gzipped profile.proto) or collapsed (folded stacks)");
        return;
    }
    int rc = profiler_start((int)hz, over_ms * 1000);
    if (rc < 0) {
        refuse(r, 503, "the profiler cannot start: %s", strerror(-rc));
        return;
    }
    if (!pp.timer_ready) {
        loop_timer_init(&pp.timer, on_drain);
        pp.timer_ready = true;
    }
    pp.state = PP_SAMPLING;
    pp.ticket = t;
    pp.collapsed = strcmp(fmt, "collapsed") == 0;
    pp.seconds = (int)seconds;
    pp.start_ms = now;
    pp.end_ms = now + seconds * 1000;
    loop_timer_after(srv->loop, &pp.timer, DRAIN_MS);
    char only[48] = "";
    if (over_ms) snprintf(only, sizeof only, ", only ticks of %ld ms or more", over_ms);
    log_info("http: CPU profile started: %ld s at %ld Hz%s", seconds, hz, only);
    r->deferred = true;
}

void pprof_http_stop(void)
{
    if (pp.timer_ready) loop_timer_stop(srv->loop, &pp.timer);
    if (pp.state == PP_SAMPLING) {
        profile_free(profiler_stop());
        pp.state = PP_IDLE;
    }
}
