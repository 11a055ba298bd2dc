/* workers.c — see workers.h. A mutex + condvar queue in, a mutex queue + eventfd out. */
#include "core/workers.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/log.h"

#define WORKERS_MAX 64

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    job *todo_head, *todo_tail;
    job *done_head, *done_tail;
    int pending;
    bool stopping;
    int nthreads;
    int efd;
    pthread_t threads[WORKERS_MAX];
    worker_ctx ctx[WORKERS_MAX];
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .efd = -1};

static worker_ctx inline_ctx;

static void push_done(job *j)
{
    pthread_mutex_lock(&pool.lock);
    j->next = NULL;
    if (pool.done_tail)
        pool.done_tail->next = j;
    else
        pool.done_head = j;
    pool.done_tail = j;
    pthread_mutex_unlock(&pool.lock);
    uint64_t one = 1;
    ssize_t w = write(pool.efd, &one, sizeof one);
    (void)w;
}

static void *worker_main(void *arg)
{
    worker_ctx *ctx = arg;
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        while (!pool.todo_head && !pool.stopping) pthread_cond_wait(&pool.wake, &pool.lock);
        if (pool.stopping) {
            pthread_mutex_unlock(&pool.lock);
            return NULL;
        }
        job *j = pool.todo_head;
        pool.todo_head = j->next;
        if (!pool.todo_head) pool.todo_tail = NULL;
        pthread_mutex_unlock(&pool.lock);
        j->run(j, ctx);
        push_done(j);
    }
}

int workers_start(int n, int compression_level)
{
    if (n < 1) n = 1;
    if (n > WORKERS_MAX) n = WORKERS_MAX;
    pool.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (pool.efd < 0) return -1;
    pool.stopping = false;
    for (int i = 0; i < n; i++) {
        worker_ctx *c = &pool.ctx[i];
        c->index = i;
        c->compressor = libdeflate_alloc_compressor(compression_level);
        buf_init(&c->scratch, 0);
        if (!c->compressor || pthread_create(&pool.threads[i], NULL, worker_main, c) != 0) {
            log_error("cannot start worker thread %d", i);
            if (c->compressor) libdeflate_free_compressor(c->compressor);
            pool.nthreads = i;
            workers_stop();
            return -1;
        }
        pool.nthreads = i + 1;
    }
    return pool.efd;
}

void workers_submit(job *j)
{
    j->cancelled = false;
    j->next = NULL;
    pthread_mutex_lock(&pool.lock);
    if (pool.todo_tail)
        pool.todo_tail->next = j;
    else
        pool.todo_head = j;
    pool.todo_tail = j;
    pool.pending++;
    pthread_cond_signal(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
}

void workers_drain(void)
{
    uint64_t n;
    ssize_t r = read(pool.efd, &n, sizeof n);
    (void)r;
    pthread_mutex_lock(&pool.lock);
    job *j = pool.done_head;
    pool.done_head = pool.done_tail = NULL;
    pthread_mutex_unlock(&pool.lock);
    while (j) {
        job *next = j->next;
        pthread_mutex_lock(&pool.lock);
        pool.pending--;
        pthread_mutex_unlock(&pool.lock);
        j->done(j);
        j = next;
    }
}

void workers_stop(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.stopping = true;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < pool.nthreads; i++) pthread_join(pool.threads[i], NULL);
    /* Finished jobs complete normally; queued ones are cancelled. */
    if (pool.efd >= 0) workers_drain();
    job *j = pool.todo_head;
    pool.todo_head = pool.todo_tail = NULL;
    while (j) {
        job *next = j->next;
        j->cancelled = true;
        pool.pending--;
        j->done(j);
        j = next;
    }
    for (int i = 0; i < pool.nthreads; i++) {
        libdeflate_free_compressor(pool.ctx[i].compressor);
        buf_free(&pool.ctx[i].scratch);
    }
    pool.nthreads = 0;
    if (pool.efd >= 0) close(pool.efd);
    pool.efd = -1;
    if (inline_ctx.compressor) libdeflate_free_compressor(inline_ctx.compressor);
    buf_free(&inline_ctx.scratch);
    memset(&inline_ctx, 0, sizeof inline_ctx);
}

int workers_pending(void)
{
    pthread_mutex_lock(&pool.lock);
    int n = pool.pending;
    pthread_mutex_unlock(&pool.lock);
    return n;
}

int workers_count(void)
{
    return pool.nthreads;
}

void workers_run_inline(job *j)
{
    if (!inline_ctx.compressor) {
        inline_ctx.compressor = libdeflate_alloc_compressor(6);
        buf_init(&inline_ctx.scratch, 0);
    }
    j->cancelled = false;
    j->run(j, &inline_ctx);
    j->done(j);
}

void workers_run(job *j)
{
    if (pool.nthreads > 0)
        workers_submit(j);
    else
        workers_run_inline(j);
}
