/*
 * iothreads.h — socket writes fanned out to I/O threads around the tick,
 * as Redis 6's threaded I/O: the game thread gathers the connections whose
 * output is due, hands each thread a slice (it takes one itself), waits
 * until every slice is written, then settles the results alone (queue
 * bookkeeping, counters, EPOLLOUT, drops). `io-threads` sets how many
 * threads write, the game thread counted; 1 (or 0) writes everything on the
 * game thread, as before. docs/design.md says why threads and not io_uring.
 *
 * Invariants:
 *  1. The game thread is the only writer of game and connection state. An
 *     I/O thread reads only the jobs of its slice — a descriptor and an
 *     output queue (net/outq.h) the game thread does not touch until
 *     iothreads_write returns — and writes only the job's result fields.
 *     Shared frames' reference counts are changed by the game thread only
 *     (outq_consume runs after the fan-in).
 *  2. iothreads_write returns only when every job is done: no I/O thread
 *     runs while the game thread works on connections.
 *  3. Threads are started once (server_init) and joined at exit; with one
 *     thread none is started.
 */
#ifndef MC_IOTHREADS_H
#define MC_IOTHREADS_H

#include <stddef.h>
#include <stdint.h>

#include "net/outq.h"

#define IOTHREADS_MAX        16
#define IOTHREADS_FANOUT_MIN 64 /* fewer due connections: written on the game thread */

struct io_job {
    int fd;
    const outq *q;
    /* results */
    size_t written;  /* bytes the socket took */
    uint32_t writes; /* writev calls */
    int err; /* 0: all written; EAGAIN: the socket is full; IOJOB_WROTE_ZERO; else the errno */
};
#define IOJOB_WROTE_ZERO (-1) /* the socket took nothing and reported no error */

/* The thread count `io-threads` asks for: -1 (auto) is 1 on a machine of
 * at most 2 cores, else half the cores up to 4; clamped to
 * [1, IOTHREADS_MAX]. */
int iothreads_resolve(int configured);
/* Starts n - 1 threads (n counts the game thread). 0, or -1 (logged) when a
 * thread cannot be started (then none is running). */
int iothreads_start(int n);
void iothreads_stop(void);
/* Threads writing, the game thread counted (1 before iothreads_start). */
int iothreads_count(void);

/* Writes job->q's pending bytes to job->fd until all are written or the
 * socket refuses (invariant 1: reads q only). */
void iothreads_write_one(struct io_job *job);
/* Runs iothreads_write_one on every job, the jobs split over the threads
 * and the caller; returns when all are done (invariant 2). */
void iothreads_write(struct io_job *jobs, size_t n);

#endif
