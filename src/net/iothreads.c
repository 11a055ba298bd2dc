/*
 * iothreads.c — see iothreads.h. One round per fan-out: the game thread
 * publishes the jobs and the function to run on each, bumps `round` under
 * the lock, each thread takes slice i of n, the game thread does slice 0,
 * then waits until `done` counts every thread.
 */
#include "net/iothreads.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/log.h"
#include "proto/crypto.h"

static struct {
    int n; /* threads writing, the game thread counted */
    pthread_t tid[IOTHREADS_MAX];
    pthread_mutex_t lock;
    pthread_cond_t go, finished;
    uint64_t round;
    uint64_t start_round; /* io.round when the threads were started */
    int done;
    bool stopping;
    void (*fn)(void *job, int thread);
    char *jobs;
    size_t njobs, size;
    size_t fanout_min;
    struct {
        uint8_t *mem;
        size_t used;
    } arena[IOTHREADS_MAX];
} io = {.fanout_min = IOTHREADS_FANOUT_MIN,
        .n = 1,
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .go = PTHREAD_COND_INITIALIZER,
        .finished = PTHREAD_COND_INITIALIZER};

int iothreads_resolve(int configured)
{
    int n = configured;
    if (n < 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        n = cores > 2 ? (int)(cores / 2) : 1;
        if (n > 4) n = 4;
    }
    if (n < 1) n = 1;
    if (n > IOTHREADS_MAX) n = IOTHREADS_MAX;
    return n;
}

void iothreads_write_one(struct io_job *job)
{
    job->written = 0;
    job->writes = 0;
    job->err = 0;
    while (job->written < job->q->pending) {
        struct iovec iov[OUTQ_IOV];
        int cnt = outq_iov_from(job->q, job->written, iov, OUTQ_IOV);
        /* writev, as sendmsg: MSG_NOSIGNAL, a peer gone is EPIPE, not a signal */
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)cnt};
        ssize_t n = sendmsg(job->fd, &m, MSG_NOSIGNAL);
        job->writes++;
        if (n > 0) {
            job->written += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        job->err = n < 0 ? (errno == EWOULDBLOCK ? EAGAIN : errno) : IOJOB_WROTE_ZERO;
        return;
    }
}

void iothreads_set_fanout_min(size_t n)
{
    io.fanout_min = n ? n : 1;
}

/* Slice i of n of the jobs. */
static void run_slice(int i, int n)
{
    size_t from = io.njobs * (size_t)i / (size_t)n, to = io.njobs * (size_t)(i + 1) / (size_t)n;
    for (size_t k = from; k < to; k++) io.fn(io.jobs + k * io.size, i);
}

static void *thread_main(void *arg)
{
    int me = (int)(intptr_t)arg;
    char name[32];
    snprintf(name, sizeof name, "Netty Epoll Server IO #%d", (me + 1) & 0xffff); /* vanilla's */
    log_set_thread_name(name);
    uint64_t seen = io.start_round; /* rounds before this thread are not its */
    pthread_mutex_lock(&io.lock);
    for (;;) {
        while (!io.stopping && io.round == seen) pthread_cond_wait(&io.go, &io.lock);
        if (io.stopping) break;
        seen = io.round;
        pthread_mutex_unlock(&io.lock);
        run_slice(me, io.n); /* io.jobs, io.fn stay put until every slice is done */
        pthread_mutex_lock(&io.lock);
        if (++io.done == io.n - 1) pthread_cond_signal(&io.finished);
    }
    pthread_mutex_unlock(&io.lock);
    return NULL;
}

int iothreads_start(int n)
{
    if (n > IOTHREADS_MAX) n = IOTHREADS_MAX;
    io.n = n;
    io.start_round = io.round; /* before pthread_create: seen by the threads */
    for (int i = 1; i < n; i++) {
        int rc = pthread_create(&io.tid[i], NULL, thread_main, (void *)(intptr_t)i);
        if (rc != 0) {
            log_error("io-threads: cannot start thread %d: %s", i, strerror(rc));
            io.n = i; /* those started are stopped with the right count */
            iothreads_stop();
            return -1;
        }
    }
    return 0;
}

void iothreads_stop(void)
{
    for (int i = 0; i < IOTHREADS_MAX; i++) {
        free(io.arena[i].mem);
        io.arena[i].mem = NULL;
    }
    if (io.n <= 1) return;
    pthread_mutex_lock(&io.lock);
    io.stopping = true;
    pthread_cond_broadcast(&io.go);
    pthread_mutex_unlock(&io.lock);
    for (int i = 1; i < io.n; i++) pthread_join(io.tid[i], NULL);
    io.n = 1;
    io.stopping = false;
}

int iothreads_count(void)
{
    return io.n;
}

/* Runs fn on each of n jobs of `size` bytes: on the threads when there are
 * enough (invariant 2), else here. */
static void fan_out(void (*fn)(void *job, int thread), void *jobs, size_t n, size_t size)
{
    io.fn = fn;
    io.jobs = jobs;
    io.njobs = n;
    io.size = size;
    if (io.n <= 1 || n < io.fanout_min) {
        run_slice(0, 1);
        return;
    }
    pthread_mutex_lock(&io.lock);
    io.done = 0;
    io.round++;
    pthread_cond_broadcast(&io.go);
    pthread_mutex_unlock(&io.lock);
    run_slice(0, io.n);
    pthread_mutex_lock(&io.lock);
    while (io.done < io.n - 1) pthread_cond_wait(&io.finished, &io.lock);
    pthread_mutex_unlock(&io.lock);
}

static void write_job(void *job, int thread)
{
    (void)thread;
    iothreads_write_one(job);
}

void iothreads_write(struct io_job *jobs, size_t n)
{
    fan_out(write_job, jobs, n, sizeof *jobs);
}

static void read_job(void *job, int thread)
{
    struct io_read *r = job;
    r->len = 0;
    r->err = 0;
    if (!io.arena[thread].mem) {
        io.arena[thread].mem = malloc(IOTHREADS_ARENA);
        if (!io.arena[thread].mem) return; /* nothing read: tried again later */
    }
    uint8_t *base = io.arena[thread].mem;
    size_t *used = &io.arena[thread].used;
    r->data = base + *used;
    while (r->len < r->budget && *used < IOTHREADS_ARENA) {
        size_t want = 16u << 10;
        if (want > r->budget - r->len) want = r->budget - r->len;
        if (want > IOTHREADS_ARENA - *used) want = IOTHREADS_ARENA - *used;
        ssize_t n = read(r->fd, base + *used, want);
        if (n > 0) {
            if (r->dec) mc_cfb8_update(r->dec, base + *used, (size_t)n);
            *used += (size_t)n;
            r->len += (size_t)n;
            continue;
        }
        if (n == 0) {
            r->err = IOREAD_EOF;
            return;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) r->err = errno;
        return;
    }
}

void iothreads_read(struct io_read *jobs, size_t n)
{
    for (int i = 0; i < IOTHREADS_MAX; i++) io.arena[i].used = 0;
    fan_out(read_job, jobs, n, sizeof *jobs);
}
