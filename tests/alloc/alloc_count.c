/*
 * alloc_count.c — the counting allocator of the test build
 * `make BUILD=build-count COUNT_ALLOC=1 build-count/mcserv` (issue 12,
 * bench/alloc.sh). Never part of the normal build, the unit tests, the fuzz
 * targets or libmc.
 *
 * It defines malloc, calloc, realloc, reallocarray, free and the aligned
 * allocators (posix_memalign, aligned_alloc, memalign, valloc, pvalloc),
 * counts each call and forwards it to glibc's own implementation
 * (__libc_malloc and friends), so every block is an ordinary glibc block and
 * malloc_usable_size and the rest keep working. Being the executable's
 * symbols, they also catch the calls made inside libc (strdup, fopen, qsort's
 * buffer), libdeflate, jansson, libcurl and OpenSSL.
 *
 * Threads: the game thread is the main thread (main.c runs server_run on
 * it); a constructor marks it in a thread-local flag before main starts.
 * Its calls go into plain counters read by core/tickstat at every tick
 * boundary (tickstat_alloc_read). Every other thread (chunk workers, the
 * login/auth thread) goes into separate relaxed atomic totals, reported as
 * thread="other" and never in the per-tick figures.
 *
 * Tracer: MCSERV_ALLOC_TRACE=1 records the call stack of every game-thread
 * allocation made inside tick_run(), =2 of every game-thread allocation after the
 * first tick (the whole tick period: packet handling, streaming, flushes).
 * Stacks are aggregated in a fixed table; every MCSERV_ALLOC_TRACE_EVERY
 * ticks (default 200; 0 = never) and at the first tick after a SIGUSR2, the
 * most frequent ones are written to stderr as "alloc-trace:" lines
 * (module+offset per frame: resolve with `addr2line -f -i -e
 * build-count/mcserv`; bench/alloc.sh does) and the table starts again. So
 * two SIGUSR2 bracket a sample exactly (bench/alloc.sh does that too).
 *
 * Invariants:
 *  1. No allocation of its own: the tracer's table is static, reports are
 *     written with write(2); while it runs (in_hook) calls are forwarded
 *     uncounted, so backtrace()'s first-use allocations never recurse.
 *  2. The game-thread counters are written only by the game thread.
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tickstat.h"

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t nmemb, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);

enum kind { K_MALLOC, K_CALLOC, K_REALLOC, K_ALIGNED, K_KINDS };
static const char *const kind_names[K_KINDS] = {"malloc", "calloc", "realloc", "aligned"};

static __thread bool on_game_thread;
static __thread bool in_hook;

static struct tickstat_alloc_counts game;  /* game thread only (invariant 2) */
static struct tickstat_alloc_counts other; /* __atomic relaxed */

/* ----------------------------------------------------------------- tracer */

#define TRACE_DEPTH 14   /* frames kept per stack, below the allocator's own */
#define TRACE_SITES 1024 /* distinct stacks per report period */
#define TRACE_TOP   12   /* stacks printed per report */

struct site {
    uint64_t hash;
    uint64_t count, bytes;
    uint8_t kind, depth;
    void *pc[TRACE_DEPTH];
};

static struct {
    int mode; /* 0 off, 1 inside tick_run(), 2 the whole tick period */
    uint32_t every;
    bool tick_open;
    uint64_t tick, first_tick;
    uint64_t total, lost;               /* allocations traced; those whose stack found no slot */
    volatile sig_atomic_t report_asked; /* SIGUSR2 */
    struct site sites[TRACE_SITES];
} tr;

static uint64_t hash_stack(void *const *pc, int n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the addresses */
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)(uintptr_t)pc[i];
        h *= 1099511628211ull;
    }
    return h ? h : 1;
}

/* Not inlined: the two frames skipped are this function and the wrapper. */
__attribute__((noinline)) static void trace_record(enum kind k, size_t n)
{
    void *pc[TRACE_DEPTH + 2];
    in_hook = true;
    int d = backtrace(pc, TRACE_DEPTH + 2) - 2;
    if (d < 0) d = 0;
    uint64_t h = hash_stack(pc + 2, d) ^ (uint64_t)k;
    tr.total++;
    for (uint32_t probe = 0; probe < 64; probe++) {
        struct site *s = &tr.sites[(h + probe) % TRACE_SITES];
        if (s->hash == 0) {
            s->hash = h;
            s->kind = (uint8_t)k;
            s->depth = (uint8_t)d;
            memcpy(s->pc, pc + 2, (size_t)d * sizeof pc[0]);
        }
        if (s->hash == h) {
            s->count++;
            s->bytes += n;
            in_hook = false;
            return;
        }
    }
    tr.lost++;
    in_hook = false;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) n = (int)sizeof line - 1;
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
}

static void print_frame(int i, void *pc)
{
    Dl_info di;
    uintptr_t a = (uintptr_t)pc - 1; /* inside the call instruction */
    if (!dladdr((void *)a, &di) || !di.dli_fname) {
        say("alloc-trace:     #%d %p\n", i, pc);
        return;
    }
    const char *mod = strrchr(di.dli_fname, '/');
    mod = mod ? mod + 1 : di.dli_fname;
    if (di.dli_sname)
        say("alloc-trace:     #%d %s+0x%lx %s+0x%lx\n", i, mod,
            (unsigned long)(a - (uintptr_t)di.dli_fbase), di.dli_sname,
            (unsigned long)(a - (uintptr_t)di.dli_saddr));
    else
        say("alloc-trace:     #%d %s+0x%lx\n", i, mod,
            (unsigned long)(a - (uintptr_t)di.dli_fbase));
}

static void trace_report(void)
{
    in_hook = true;
    uint64_t ticks = tr.tick - tr.first_tick;
    uint32_t used = 0;
    for (uint32_t i = 0; i < TRACE_SITES; i++) used += tr.sites[i].hash != 0;
    say("alloc-trace: ticks %llu..%llu (%s): %llu game-thread allocations, %.1f per tick, "
        "%u stacks%s\n",
        (unsigned long long)tr.first_tick, (unsigned long long)tr.tick - 1,
        tr.mode == 1 ? "inside tick_run()" : "whole tick period", (unsigned long long)tr.total,
        ticks ? (double)tr.total / (double)ticks : 0.0, used,
        tr.lost ? " (some stacks not kept: table full)" : "");
    for (int top = 0; top < TRACE_TOP; top++) {
        struct site *best = NULL;
        for (uint32_t i = 0; i < TRACE_SITES; i++) {
            struct site *s = &tr.sites[i];
            if (s->hash && s->count && (!best || s->count > best->count)) best = s;
        }
        if (!best) break;
        say("alloc-trace:   %llu x %s, %llu bytes (%.2f per tick)\n",
            (unsigned long long)best->count, kind_names[best->kind],
            (unsigned long long)best->bytes, ticks ? (double)best->count / (double)ticks : 0.0);
        for (int f = 0; f < best->depth; f++) print_frame(f, best->pc[f]);
        best->count = 0; /* printed; cleared below with the rest */
    }
    memset(tr.sites, 0, sizeof tr.sites);
    tr.total = tr.lost = 0;
    tr.first_tick = tr.tick;
    in_hook = false;
}

/* --------------------------------------------------------------- counting */

static inline void count_alloc(enum kind k, size_t n)
{
    if (in_hook) return;
    if (on_game_thread) {
        game.allocs++;
        game.bytes += n;
        if (tr.mode && (tr.tick_open || (tr.mode == 2 && tr.tick))) trace_record(k, n);
    } else {
        __atomic_fetch_add(&other.allocs, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&other.bytes, n, __ATOMIC_RELAXED);
    }
}

static inline void count_free(void *p)
{
    if (!p || in_hook) return;
    if (on_game_thread)
        game.frees++;
    else
        __atomic_fetch_add(&other.frees, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    count_alloc(K_MALLOC, n);
    return p;
}

void *calloc(size_t nmemb, size_t size)
{
    void *p = __libc_calloc(nmemb, size);
    count_alloc(K_CALLOC, nmemb * size);
    return p;
}

void *realloc(void *old, size_t n)
{
    if (old && n == 0) { /* glibc frees and returns NULL */
        count_free(old);
        return __libc_realloc(old, n);
    }
    void *p = __libc_realloc(old, n);
    count_alloc(old ? K_REALLOC : K_MALLOC, n);
    return p;
}

void *reallocarray(void *old, size_t nmemb, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(nmemb, size, &n)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(old, n);
}

void free(void *p)
{
    count_free(p);
    __libc_free(p);
}

void *memalign(size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);
    count_alloc(K_ALIGNED, n);
    return p;
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align == 0 || align % sizeof(void *) || (align & (align - 1))) return EINVAL;
    void *p = memalign(align, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t n)
{
    void *p = __libc_valloc(n);
    count_alloc(K_ALIGNED, n);
    return p;
}

void *pvalloc(size_t n)
{
    void *p = __libc_pvalloc(n);
    count_alloc(K_ALIGNED, n);
    return p;
}

/* ---------------------------------------------------- tickstat's two hooks */

void tickstat_alloc_read(struct tickstat_alloc_counts *g, struct tickstat_alloc_counts *o)
{
    *g = game;
    if (o) {
        o->allocs = __atomic_load_n(&other.allocs, __ATOMIC_RELAXED);
        o->frees = __atomic_load_n(&other.frees, __ATOMIC_RELAXED);
        o->bytes = __atomic_load_n(&other.bytes, __ATOMIC_RELAXED);
    }
}

void tickstat_alloc_tick(uint64_t tick, bool in_tick)
{
    tr.tick_open = in_tick;
    if (!tr.mode || !in_tick) return;
    tr.tick = tick;
    if (!tr.first_tick) tr.first_tick = tick;
    bool due = tr.every && tick > tr.first_tick && (tick - tr.first_tick) % tr.every == 0;
    if (due || tr.report_asked) {
        tr.report_asked = 0;
        trace_report();
    }
}

static void on_sigusr2(int sig)
{
    (void)sig;
    tr.report_asked = 1;
}

__attribute__((constructor)) static void alloc_count_init(void)
{
    on_game_thread = true; /* constructors run on the main thread: the game thread */
    const char *m = getenv("MCSERV_ALLOC_TRACE");
    if (!m || (strcmp(m, "1") != 0 && strcmp(m, "2") != 0)) return;
    const char *e = getenv("MCSERV_ALLOC_TRACE_EVERY");
    long every = e ? strtol(e, NULL, 10) : 200;
    tr.every = every >= 0 && every <= 1000000 ? (uint32_t)every : 200;
    struct sigaction sa = {.sa_handler = on_sigusr2, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    void *pc[4];
    in_hook = true;
    backtrace(pc, 4); /* loads the unwinder now, not inside a tick */
    in_hook = false;
    tr.mode = m[0] - '0';
    say("alloc-trace: tracing game-thread allocations %s; a report every %u ticks (0: never) "
        "and after each SIGUSR2\n",
        tr.mode == 1 ? "inside tick_run()" : "in the whole tick period", tr.every);
}
