/* workers.c — see workers.h. A mutex + condvar queue in, a hand-off queue (mutex + eventfd) out. */
#include "core/workers.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
    int pending;
    bool stopping;
    int nthreads;
    handoff done;
    pthread_t threads[WORKERS_MAX];
    worker_ctx ctx[WORKERS_MAX];
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = HANDOFF_INIT};

static worker_ctx inline_ctx;

int handoff_open(handoff *h)
{
    h->head = h->tail = NULL;
    h->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return h->efd;
}

void handoff_push(handoff *h, handoff_node *n)
{
    n->next = NULL;
    pthread_mutex_lock(&h->lock);
    if (h->tail)
        h->tail->next = n;
    else
        h->head = n;
    h->tail = n;
    pthread_mutex_unlock(&h->lock);
    uint64_t one = 1;
    ssize_t w = write(h->efd, &one, sizeof one);
    (void)w;
}

handoff_node *handoff_take(handoff *h)
{
    uint64_t count;
    ssize_t r = read(h->efd, &count, sizeof count);
    (void)r;
    pthread_mutex_lock(&h->lock);
    handoff_node *n = h->head;
    h->head = h->tail = NULL;
    pthread_mutex_unlock(&h->lock);
    return n;
}

void handoff_close(handoff *h)
{
    if (h->efd >= 0) close(h->efd);
    h->efd = -1;
}

static job *job_of(handoff_node *n)
{
    return (job *)((char *)n - offsetof(job, done_link));
}

static void *worker_main(void *arg)
{
    worker_ctx *ctx = arg;
    char name[32];
    snprintf(name, sizeof name, "Worker-Main-%d", ctx->index + 1); /* vanilla's pool name */
    log_set_thread_name(name);
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
        handoff_push(&pool.done, &j->done_link);
    }
}

int workers_start(int n, int compression_level)
{
    if (n < 1) n = 1;
    if (n > WORKERS_MAX) n = WORKERS_MAX;
    if (handoff_open(&pool.done) < 0) return -1;
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
    return pool.done.efd;
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
    handoff_node *n = handoff_take(&pool.done);
    while (n) {
        handoff_node *next = n->next; /* done() may submit the job again */
        job *j = job_of(n);
        pthread_mutex_lock(&pool.lock);
        pool.pending--;
        pthread_mutex_unlock(&pool.lock);
        j->done(j);
        n = next;
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
    if (pool.done.efd >= 0) workers_drain();
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
    handoff_close(&pool.done);
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
