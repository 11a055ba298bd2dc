/*
 * iothreads.c — see iothreads.h. One round per iothreads_write: the game
 * thread publishes the jobs and bumps `round` under the lock, each thread
 * takes slice i of n, the game thread writes slice 0, then waits until
 * `done` counts every thread.
 */
#include "net/iothreads.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/log.h"

static struct {
    int n; /* threads writing, the game thread counted */
    pthread_t tid[IOTHREADS_MAX];
    pthread_mutex_t lock;
    pthread_cond_t go, finished;
    uint64_t round;
    int done;
    bool stopping;
    struct io_job *jobs;
    size_t njobs;
} io = {.n = 1,
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

/* Slice i of n of the jobs. */
static void run_slice(struct io_job *jobs, size_t njobs, int i, int n)
{
    size_t from = njobs * (size_t)i / (size_t)n, to = njobs * (size_t)(i + 1) / (size_t)n;
    for (size_t k = from; k < to; k++) iothreads_write_one(&jobs[k]);
}

static void *thread_main(void *arg)
{
    int me = (int)(intptr_t)arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&io.lock);
    for (;;) {
        while (!io.stopping && io.round == seen) pthread_cond_wait(&io.go, &io.lock);
        if (io.stopping) break;
        seen = io.round;
        struct io_job *jobs = io.jobs;
        size_t njobs = io.njobs;
        pthread_mutex_unlock(&io.lock);
        run_slice(jobs, njobs, me, io.n);
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

void iothreads_write(struct io_job *jobs, size_t n)
{
    if (io.n <= 1 || n < IOTHREADS_FANOUT_MIN) {
        for (size_t k = 0; k < n; k++) iothreads_write_one(&jobs[k]);
        return;
    }
    pthread_mutex_lock(&io.lock);
    io.jobs = jobs;
    io.njobs = n;
    io.done = 0;
    io.round++;
    pthread_cond_broadcast(&io.go);
    pthread_mutex_unlock(&io.lock);
    run_slice(jobs, n, 0, io.n);
    pthread_mutex_lock(&io.lock);
    while (io.done < io.n - 1) pthread_cond_wait(&io.finished, &io.lock);
    pthread_mutex_unlock(&io.lock);
}
