/*
 * workers.h — a small thread pool for work that must stay off the game
 * thread (chunk generation, light, chunk packet encoding and compression,
 * later disk I/O).
 *
 *   game thread: workers_submit(job) ──▶ [todo queue] ──▶ worker: job->run(job, ctx)
 *   game thread: job->done(job)      ◀── [done queue] ◀── (eventfd wakes the loop)
 *
 * Invariants:
 *  1. run() executes on a worker thread and may touch only the job and its
 *     own worker context; done() executes on the game thread (workers_drain)
 *     and is where results are published to game state.
 *  2. Jobs are owned by the submitter and embedded in bigger structs; the
 *     pool never allocates per job.
 *  3. Each worker has its own libdeflate compressor and scratch buffer.
 *  4. workers_stop waits for running jobs, then discards queued ones by
 *     calling done() with job->cancelled set, so every job ends exactly once.
 */
#ifndef MC_WORKERS_H
#define MC_WORKERS_H

#include <pthread.h>
#include <stdbool.h>

#include "core/buf.h"

struct libdeflate_compressor;

typedef struct worker_ctx {
    struct libdeflate_compressor *compressor;
    buf_t scratch;
    int index;
} worker_ctx;

/*
 * A hand-off queue from other threads to the game thread (the pool's done
 * queue, the session-server thread's results in net/auth.c): any thread
 * pushes an item under the lock and bumps the eventfd; the game thread,
 * when the eventfd is readable, takes every waiting item at once, in push
 * order. Intrusive: an item embeds a handoff_node; nothing allocates.
 */
typedef struct handoff_node {
    struct handoff_node *next;
} handoff_node;

typedef struct handoff {
    pthread_mutex_t lock;
    handoff_node *head, *tail;
    int efd; /* -1 until handoff_open */
} handoff;

#define HANDOFF_INIT                                                                               \
    {                                                                                              \
        .lock = PTHREAD_MUTEX_INITIALIZER, .efd = -1                                               \
    }

/* Creates the eventfd (non-blocking) for the loop to watch: it, or -1. */
int handoff_open(handoff *h);
/* Any thread. */
void handoff_push(handoff *h, handoff_node *n);
/* Game thread: the waiting items as a chain (NULL when none); clears the
 * eventfd's count. Read n->next before giving an item away. */
handoff_node *handoff_take(handoff *h);
void handoff_close(handoff *h);

typedef struct job job;
struct job {
    void (*run)(job *j, worker_ctx *w);
    void (*done)(job *j);
    bool cancelled;
    job *next;              /* the todo queue */
    handoff_node done_link; /* the done queue */
};

/* Starts n threads (n >= 1). Returns the eventfd to watch, or -1. */
int workers_start(int n, int compression_level);
void workers_submit(job *j);
/* Runs done() for every finished job; call when the eventfd is readable. */
void workers_drain(void);
void workers_stop(void);
/* Jobs queued plus running, for metrics and tests. */
int workers_pending(void);
int workers_count(void);

/* Runs a job inline on the calling thread (tests, and when no pool runs). */
void workers_run_inline(job *j);
/* workers_submit when the pool runs, else workers_run_inline. */
void workers_run(job *j);

#endif
