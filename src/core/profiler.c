/*
 * profiler.c — see profiler.h for the modes and invariants.
 *
 * Per thread a slot: its tid, what samples it (below), a ring of samples.
 *
 * A profile's CPU-time clock, the first that opens:
 *   1. a perf software event on the thread's task clock
 *      (PERF_COUNT_SW_TASK_CLOCK, sample_period = 1/hz in ns; O_ASYNC with
 *      F_SETSIG SIGPROF and F_SETOWN_EX to the thread, so each overflow is
 *      a SIGPROF to that thread with si_code POLL_IN and si_fd the event).
 *      It is an hrtimer on the thread's CPU time: a 0.3 ms tick run every
 *      50 ms gets its share of samples. Needs perf_event_paranoid <= 2
 *      (Debian's default is 3 for users other than root) or CAP_PERFMON;
 *      with kernel samples refused it is retried counting user time only.
 *   2. a POSIX timer on the thread's CPU clock (SIGPROF to that thread, the
 *      slot index in si_value). The clock is MAKE_THREAD_CPUCLOCK(tid,
 *      CPUCLOCK_SCHED) = (~tid << 3) | 6, as glibc's pthread_getcpuclockid
 *      computes it. Linux checks CPU-time timers only on the scheduler tick
 *      (4 ms at CONFIG_HZ=250), so a thread that runs in bursts shorter
 *      than that is sampled in a biased way: a burst that straddles a tick
 *      may take every sample or none.
 * The background sampler uses a POSIX timer on the wall clock.
 *
 * Frame-pointer walk (x86-64 and AArch64 lay frames out alike):
 *
 *     fp ──▶ [ saved fp of the caller ]  ──▶ the caller's frame ...
 *            [ return address         ]
 *
 * starting from the interrupted registers in the ucontext. Code built
 * without frame pointers (libc, libdeflate) may hide its caller or end the
 * walk early; it never makes the walk read outside [sp, stack top).
 */
#include "core/profiler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/log.h"
#include "core/symtab.h"
#include "core/tickstat.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

extern void *__libc_stack_end; /* glibc: the main thread's stack top */

struct prof_sample {
    uint64_t tick; /* tickstat_running_seq when taken; 0 between ticks */
    uint32_t depth;
    uint32_t pad;
    uintptr_t pc[PROF_MAX_DEPTH];
};

struct slot {
    int tid;
    bool is_main;
    bool overwrite; /* background: the handler overwrites the oldest sample */
    bool timer_on;
    timer_t timer;
    int perf_fd; /* the task-clock event while it samples, else -1 */
    char name[24];
    struct prof_sample *ring; /* PROF_RING samples; kept once allocated (invariant 3) */
    _Atomic uint32_t head, tail;
    _Atomic uint64_t dropped;
};

/* One distinct stack in the table being filled. */
struct entry {
    uint64_t hash;  /* 0: empty */
    uint32_t stack; /* index into prof.p->stacks */
};

static struct {
    int game_tid;
    bool inited;
    struct slot slots[PROF_MAX_THREADS];
    _Atomic int nslots; /* slots the handler may use */
    _Atomic bool on;    /* the handler records */
    /* the profile being taken */
    bool running;
    profile *p;
    struct entry *table;
    size_t table_cap, pcs_cap, stacks_cap;
    int64_t start_ns;
    /* the background sampler */
    bool background;
    int background_hz;
    int game_slot; /* the game thread's slot, -1 none */
} prof = {.game_slot = -1};

/* The clocks of the profile being taken (profile.clock). */
static const char *const clock_names[] = {"perf task-clock", "thread CPU timer"};

static int64_t now_ns(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* ------------------------------------------------------- the signal side */

/* The current thread's stack top (invariant 1). */
static uintptr_t stack_top(const struct slot *s)
{
    if (s->is_main) return (uintptr_t)__libc_stack_end;
    uintptr_t tp;
#if defined(__x86_64__)
    __asm__ volatile("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
#else
    tp = 0;
#endif
    return tp;
}

__attribute__((no_sanitize_address, no_sanitize("undefined"))) static uint32_t
unwind(const ucontext_t *uc, uintptr_t top, uintptr_t *pcs)
{
    uintptr_t pc, fp, sp;
#if defined(__x86_64__)
    pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
    sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    pc = (uintptr_t)uc->uc_mcontext.pc;
    fp = (uintptr_t)uc->uc_mcontext.regs[29];
    sp = (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
    pc = fp = sp = 0;
#endif
    uint32_t n = 0;
    pcs[n++] = pc;
    while (n < PROF_MAX_DEPTH) {
        if (fp < sp || fp & 7 || top < 16 || fp > top - 16) break;
        const uintptr_t *frame = (const uintptr_t *)fp;
        uintptr_t next = frame[0], ret = frame[1];
        if (ret < 4096) break;
        pcs[n++] = ret;
        if (next <= fp) break;
        fp = next;
    }
    return n;
}

/* The slot a SIGPROF is for: a timer's value, or the perf event's fd. */
static int signal_slot(const siginfo_t *si, int nslots)
{
    if (si->si_code == SI_TIMER) return si->si_value.sival_int;
    if (si->si_code != POLL_IN && si->si_code != POLL_HUP) return -1;
    for (int i = 0; i < nslots; i++)
        if (prof.slots[i].perf_fd >= 0 && prof.slots[i].perf_fd == si->si_fd) return i;
    return -1;
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    int saved = errno;
    int nslots = atomic_load_explicit(&prof.nslots, memory_order_acquire);
    int idx = signal_slot(si, nslots);
    if (!atomic_load_explicit(&prof.on, memory_order_acquire) || idx < 0 || idx >= nslots) goto out;
    struct slot *s = &prof.slots[idx];
    if (!s->ring) goto out;
    uint32_t h = atomic_load_explicit(&s->head, memory_order_relaxed);
    if (!s->overwrite) {
        uint32_t t = atomic_load_explicit(&s->tail, memory_order_acquire);
        if (h - t >= PROF_RING) {
            atomic_fetch_add_explicit(&s->dropped, 1, memory_order_relaxed);
            goto out;
        }
    }
    struct prof_sample *x = &s->ring[h % PROF_RING];
    x->tick = atomic_load_explicit(&tickstat_running_seq, memory_order_relaxed);
    x->depth = unwind(ucv, stack_top(s), x->pc);
    atomic_store_explicit(&s->head, h + 1, memory_order_release);
out:
    errno = saved;
}

/* --------------------------------------------------------------- set-up */

int profiler_init(void)
{
    if (prof.inited) return 0;
    prof.game_tid = (int)syscall(SYS_gettid);
    for (int i = 0; i < PROF_MAX_THREADS; i++) prof.slots[i].perf_fd = -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) < 0) {
        log_error("profiler: cannot install the SIGPROF handler: %s", strerror(errno));
        return -1;
    }
    prof.inited = true;
    return 0;
}

static void slot_timer_off(struct slot *s)
{
    if (s->perf_fd >= 0) {
        int fd = s->perf_fd;
        s->perf_fd = -1;
        close(fd);
    }
    if (!s->timer_on) return;
    timer_delete(s->timer);
    s->timer_on = false;
}

/* Opens a task-clock event on s's thread signalling it every 1/hz s of
 * its CPU time (clock 1 above); 0, or -errno when perf events are refused. */
static int slot_perf_on(struct slot *s, int hz)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.sample_period = (uint64_t)(1000000000L / hz);
    a.wakeup_events = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, s->tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
        a.exclude_kernel = a.exclude_hv = 1; /* perf_event_paranoid 2: user time only */
        fd = (int)syscall(SYS_perf_event_open, &a, s->tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
    if (fd < 0) return -errno;
    struct f_owner_ex owner = {F_OWNER_TID, s->tid};
    s->perf_fd = fd; /* before the first overflow can signal */
    if (fcntl(fd, F_SETSIG, SIGPROF) < 0 || fcntl(fd, F_SETOWN_EX, &owner) < 0 ||
        fcntl(fd, F_SETFL, O_ASYNC) < 0) {
        int err = errno;
        s->perf_fd = -1;
        close(fd);
        return -err;
    }
    return 0;
}

/* Arms a timer on clock c sending SIGPROF to s's thread every 1/hz s. */
static int slot_timer_on(struct slot *s, int idx, clockid_t c, int hz)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev.sigev_value.sival_int = idx;
    ev.sigev_notify_thread_id = s->tid;
    if (timer_create(c, &ev, &s->timer) < 0) return -errno;
    long period = 1000000000L / hz;
    struct itimerspec its = {{period / 1000000000L, period % 1000000000L},
                             {period / 1000000000L, period % 1000000000L}};
    if (timer_settime(s->timer, 0, &its, NULL) < 0) {
        int err = errno;
        timer_delete(s->timer);
        return -err;
    }
    s->timer_on = true;
    return 0;
}

static int slot_ring(struct slot *s)
{
    if (!s->ring) s->ring = calloc(PROF_RING, sizeof *s->ring);
    return s->ring ? 0 : -ENOMEM;
}

/* The thread's comm, "game" for the game thread. */
static void thread_name(int tid, char *out, size_t cap)
{
    if (tid == prof.game_tid) {
        snprintf(out, cap, "game");
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", tid);
    snprintf(out, cap, "thread");
    FILE *f = fopen(path, "r");
    if (!f) return;
    char name[32] = "";
    if (fgets(name, sizeof name, f)) {
        name[strcspn(name, "\n")] = 0;
        if (name[0]) snprintf(out, cap, "%s", name);
    }
    fclose(f);
}

/* Fills the slots with the process's threads (game thread first); their count. */
static int enumerate_threads(void)
{
    int n = 0;
    prof.slots[n].tid = prof.game_tid;
    n++;
    DIR *d = opendir("/proc/self/task");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && n < PROF_MAX_THREADS) {
            int tid = atoi(e->d_name);
            if (tid <= 0 || tid == prof.game_tid) continue;
            prof.slots[n++].tid = tid;
        }
        closedir(d);
    }
    for (int i = 0; i < n; i++) {
        struct slot *s = &prof.slots[i];
        s->is_main = s->tid == getpid();
        thread_name(s->tid, s->name, sizeof s->name);
    }
    return n;
}

/* ------------------------------------------------------------ profiles */

bool profiler_running(void)
{
    return prof.running;
}

static void background_pause(void)
{
    if (prof.game_slot >= 0) slot_timer_off(&prof.slots[prof.game_slot]);
}

static void background_resume(void);

int profiler_start(int hz, int64_t only_over_us)
{
    if (prof.running) return -EBUSY;
    if (!prof.inited) return -ENOSYS;
    if (hz < 1) hz = 1;
    if (hz > PROF_HZ_MAX) hz = PROF_HZ_MAX;
    profile *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    background_pause();
    atomic_store_explicit(&prof.on, false, memory_order_release);
    int n = enumerate_threads();
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) rc = slot_ring(&prof.slots[i]);
    if (rc) goto fail;
    for (int i = 0; i < n; i++) {
        struct slot *s = &prof.slots[i];
        s->overwrite = false;
        atomic_store(&s->tail, atomic_load(&s->head));
        atomic_store(&s->dropped, 0);
    }
    prof.game_slot = 0;
    atomic_store_explicit(&prof.nslots, n, memory_order_release);
    atomic_store_explicit(&prof.on, true, memory_order_release);
    /* One clock for the whole profile: the first thread (the game's) picks it. */
    int armed = 0, clock = slot_perf_on(&prof.slots[0], hz) == 0 ? 0 : 1;
    for (int i = 0; i < n; i++) {
        struct slot *s = &prof.slots[i];
        clockid_t c = (clockid_t)((~(unsigned)s->tid << 3) | 6);
        int rc1 = clock == 0 ? (i == 0 ? 0 : slot_perf_on(s, hz)) : slot_timer_on(s, i, c, hz);
        if (rc1 == 0) armed++; /* a thread may have exited */
    }
    if (!armed) {
        rc = -EINVAL;
        goto fail;
    }
    p->nthreads = n;
    for (int i = 0; i < n; i++) {
        p->threads[i].tid = prof.slots[i].tid;
        snprintf(p->threads[i].name, sizeof p->threads[i].name, "%s", prof.slots[i].name);
    }
    p->hz = hz;
    p->clock = clock_names[clock];
    p->period_ns = 1000000000L / hz;
    p->only_over_us = only_over_us;
    p->start_unix_ns = now_ns(CLOCK_REALTIME);
    prof.start_ns = now_ns(CLOCK_MONOTONIC);
    prof.p = p;
    prof.running = true;
    return 0;
fail:
    for (int i = 0; i < n; i++) slot_timer_off(&prof.slots[i]);
    free(p);
    background_resume();
    return rc;
}

static uint64_t hash_stack(uint32_t thread, const uintptr_t *pc, uint32_t depth)
{
    uint64_t h = 0xcbf29ce484222325ull ^ thread;
    for (uint32_t i = 0; i < depth; i++) {
        h ^= pc[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h ? h : 1;
}

static bool table_grow(void)
{
    size_t cap = prof.table_cap ? prof.table_cap * 2 : 1024;
    struct entry *t = calloc(cap, sizeof *t);
    if (!t) return false;
    for (size_t i = 0; i < prof.table_cap; i++) {
        if (!prof.table[i].hash) continue;
        size_t j = prof.table[i].hash & (cap - 1);
        while (t[j].hash) j = (j + 1) & (cap - 1);
        t[j] = prof.table[i];
    }
    free(prof.table);
    prof.table = t;
    prof.table_cap = cap;
    return true;
}

static bool same_stack(const profile *p, const struct prof_stack *st, uint32_t thread,
                       const uintptr_t *pc, uint32_t depth)
{
    return st->thread == thread && st->depth == depth &&
           memcmp(p->pcs + st->pc_off, pc, depth * sizeof *pc) == 0;
}

/* Counts one sample into the profile's table. */
static void add_sample(uint32_t thread, const struct prof_sample *x)
{
    profile *p = prof.p;
    uint32_t depth = x->depth > PROF_MAX_DEPTH ? PROF_MAX_DEPTH : x->depth;
    if (!depth) return;
    if (prof.table_cap == 0 || (p->nstacks + 1) * 10 > prof.table_cap * 7)
        if (p->nstacks < PROF_MAX_STACKS && !table_grow()) goto dropped;
    uint64_t h = hash_stack(thread, x->pc, depth);
    size_t j = h & (prof.table_cap - 1);
    while (prof.table[j].hash) {
        if (prof.table[j].hash == h &&
            same_stack(p, &p->stacks[prof.table[j].stack], thread, x->pc, depth)) {
            p->stacks[prof.table[j].stack].count++;
            p->samples++;
            return;
        }
        j = (j + 1) & (prof.table_cap - 1);
    }
    if (p->nstacks >= PROF_MAX_STACKS) goto dropped;
    if (p->nstacks == prof.stacks_cap) {
        size_t cap = prof.stacks_cap ? prof.stacks_cap * 2 : 1024;
        struct prof_stack *s = realloc(p->stacks, cap * sizeof *s);
        if (!s) goto dropped;
        p->stacks = s;
        prof.stacks_cap = cap;
    }
    if (p->npcs + depth > prof.pcs_cap) {
        size_t cap = prof.pcs_cap ? prof.pcs_cap * 2 : 16384;
        while (cap < p->npcs + depth) cap *= 2;
        uintptr_t *a = realloc(p->pcs, cap * sizeof *a);
        if (!a) goto dropped;
        p->pcs = a;
        prof.pcs_cap = cap;
    }
    memcpy(p->pcs + p->npcs, x->pc, depth * sizeof *x->pc);
    p->stacks[p->nstacks] = (struct prof_stack){thread, depth, p->npcs, 1};
    p->npcs += depth;
    prof.table[j] = (struct entry){h, (uint32_t)p->nstacks};
    p->nstacks++;
    p->samples++;
    return;
dropped:
    p->dropped++;
}

/* only_ticks_over: keep a sample taken in a tick at least that long. */
static bool keep(const struct prof_sample *x)
{
    if (prof.p->only_over_us <= 0) return true;
    if (!x->tick) return false;
    int64_t us = tickstat_tick_us(x->tick);
    return us >= prof.p->only_over_us;
}

void profiler_drain(void)
{
    if (!prof.running) return;
    int n = atomic_load_explicit(&prof.nslots, memory_order_acquire);
    for (int i = 0; i < n; i++) {
        struct slot *s = &prof.slots[i];
        uint32_t h = atomic_load_explicit(&s->head, memory_order_acquire);
        uint32_t t = atomic_load_explicit(&s->tail, memory_order_relaxed);
        for (; t != h; t++) {
            const struct prof_sample *x = &s->ring[t % PROF_RING];
            if (keep(x))
                add_sample((uint32_t)i, x);
            else
                prof.p->filtered++;
        }
        atomic_store_explicit(&s->tail, t, memory_order_release);
    }
}

profile *profiler_stop(void)
{
    if (!prof.running) return NULL;
    int n = atomic_load_explicit(&prof.nslots, memory_order_acquire);
    for (int i = 0; i < n; i++) slot_timer_off(&prof.slots[i]);
    profiler_drain();
    profile *p = prof.p;
    for (int i = 0; i < n; i++) p->dropped += atomic_load(&prof.slots[i].dropped);
    p->duration_ns = now_ns(CLOCK_MONOTONIC) - prof.start_ns;
    atomic_store_explicit(&prof.on, false, memory_order_release);
    free(prof.table);
    prof.table = NULL;
    prof.table_cap = prof.pcs_cap = prof.stacks_cap = 0;
    prof.p = NULL;
    prof.running = false;
    background_resume();
    return p;
}

void profile_free(profile *p)
{
    if (!p) return;
    free(p->stacks);
    free(p->pcs);
    free(p);
}

/* --------------------------------------------------------- background */

static void background_resume(void)
{
    if (!prof.background) return;
    struct slot *s = &prof.slots[0];
    s->tid = prof.game_tid;
    s->is_main = s->tid == getpid();
    snprintf(s->name, sizeof s->name, "game");
    if (slot_ring(s) < 0) return;
    s->overwrite = true;
    prof.game_slot = 0;
    atomic_store_explicit(&prof.nslots, 1, memory_order_release);
    atomic_store_explicit(&prof.on, true, memory_order_release);
    int rc = slot_timer_on(s, 0, CLOCK_MONOTONIC, prof.background_hz);
    if (rc < 0) log_warn("profiler: the background sampler cannot start: %s", strerror(-rc));
}

int profiler_background_start(int hz)
{
    if (!prof.inited) return -ENOSYS;
    if (prof.background) return 0;
    if (hz < 1) hz = 1;
    if (hz > PROF_HZ_MAX) hz = PROF_HZ_MAX;
    if (symtab_load() < 0) log_warn("profiler: no symbol table: stacks show addresses");
    prof.background = true;
    prof.background_hz = hz;
    if (!prof.running) background_resume();
    return 0;
}

void profiler_background_stop(void)
{
    if (!prof.background) return;
    prof.background = false;
    if (!prof.running) {
        background_pause();
        atomic_store_explicit(&prof.on, false, memory_order_release);
    }
}

bool profiler_background_on(void)
{
    return prof.background;
}

/* Tick stacks: the game ring's samples of one tick, grouped. */
struct tick_stack {
    uint32_t idx; /* ring index of the first sample with this stack */
    uint32_t count;
};

static int cmp_tick_stack(const void *a, const void *b)
{
    const struct tick_stack *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

int profiler_tick_stacks(uint64_t seq, int n, buf_t *out)
{
    if (prof.game_slot < 0 || !prof.slots[prof.game_slot].ring || !seq) return 0;
    struct slot *s = &prof.slots[prof.game_slot];
    /* The handler runs on this thread: keep it out while reading the ring. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGPROF);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    static struct tick_stack groups[PROF_RING];
    static struct prof_sample copy[PROF_RING];
    uint32_t h = atomic_load_explicit(&s->head, memory_order_acquire);
    uint32_t first = s->overwrite || h - atomic_load(&s->tail) > PROF_RING
                         ? (h > PROF_RING ? h - PROF_RING : 0)
                         : atomic_load(&s->tail);
    uint32_t ncopy = 0;
    for (uint32_t i = first; i != h; i++)
        if (s->ring[i % PROF_RING].tick == seq) copy[ncopy++] = s->ring[i % PROF_RING];
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    uint32_t ngroups = 0;
    for (uint32_t i = 0; i < ncopy; i++) {
        uint32_t g = 0;
        for (; g < ngroups; g++) {
            const struct prof_sample *a = &copy[groups[g].idx];
            if (a->depth == copy[i].depth &&
                memcmp(a->pc, copy[i].pc, a->depth * sizeof a->pc[0]) == 0)
                break;
        }
        if (g == ngroups) groups[ngroups++] = (struct tick_stack){i, 0};
        groups[g].count++;
    }
    qsort(groups, ngroups, sizeof groups[0], cmp_tick_stack);
    for (uint32_t g = 0; g < ngroups && (int)g < n; g++) {
        const struct prof_sample *a = &copy[groups[g].idx];
        char line[160];
        int len = snprintf(line, sizeof line, "    %u samples: ", groups[g].count);
        buf_append(out, line, (size_t)len);
        for (uint32_t f = 0; f < a->depth && f < 12; f++) {
            char tmp[64];
            const char *name = symtab_name(f ? a->pc[f] - 1 : a->pc[f], tmp, sizeof tmp);
            if (f) buf_lit(out, " < ");
            buf_append(out, name, strlen(name));
        }
        if (a->depth > 12) buf_lit(out, " < ...");
        buf_lit(out, "\n");
    }
    return (int)ncopy;
}

void profiler_free(void)
{
    if (!prof.inited) return;
    for (int i = 0; i < PROF_MAX_THREADS; i++) slot_timer_off(&prof.slots[i]);
    atomic_store(&prof.on, false);
    signal(SIGPROF, SIG_IGN);
    profile_free(prof.p);
    prof.p = NULL;
    prof.running = prof.background = false;
    free(prof.table);
    prof.table = NULL;
    for (int i = 0; i < PROF_MAX_THREADS; i++) {
        free(prof.slots[i].ring);
        prof.slots[i].ring = NULL;
    }
    prof.inited = false;
}
