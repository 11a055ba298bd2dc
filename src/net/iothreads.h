/*
 * iothreads.h — socket reads and writes fanned out to I/O threads around
 * the tick, as Redis 6's threaded I/O: the game thread gathers the
 * connections to read (those epoll found readable in the pass) or whose
 * output is due (the tick's flush), hands each thread a slice (it takes one
 * itself), waits until every slice is done, then settles the results alone:
 * parsing and dispatching what was read, queue bookkeeping, counters,
 * EPOLLOUT, drops. `io-threads` sets how many threads do I/O, the game
 * thread counted; 1 (or 0) does everything on the game thread, as before.
 * docs/design.md says why threads and not io_uring.
 *
 * Invariants:
 *  1. The game thread is the only writer of game and connection state. An
 *     I/O thread reads only the jobs of its slice — a descriptor, an output
 *     queue (net/outq.h), a connection's input cipher, none of which the
 *     game thread touches until the fan-out returns — and writes only the
 *     job's result fields, its own read arena and that cipher's state.
 *     Shared frames' reference counts are changed by the game thread only
 *     (outq_consume runs after the fan-in).
 *  2. A fan-out returns only when every job is done: no I/O thread runs
 *     while the game thread works on connections.
 *  3. Bytes read land in the reading thread's arena (IOTHREADS_ARENA bytes,
 *     reused every read round): valid until the next iothreads_read. A job
 *     the arena has no room for reads nothing; its socket stays readable
 *     (epoll is level-triggered) and is read in a later pass.
 *  4. Threads are started once (server_init) and joined at exit; with one
 *     thread none is started.
 */
#ifndef MC_IOTHREADS_H
#define MC_IOTHREADS_H

#include <stddef.h>
#include <stdint.h>

#include "net/outq.h"

#define IOTHREADS_MAX        16
#define IOTHREADS_FANOUT_MIN 64         /* fewer connections: done on the game thread */
#define IOTHREADS_ARENA      (1u << 20) /* read bytes per thread per round (invariant 3) */

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

struct io_read {
    int fd;
    struct mc_cfb8 *dec; /* decrypted in place as read; NULL: plaintext */
    size_t budget;       /* at most this many bytes */
    /* results */
    uint8_t *data; /* what was read, in the reading thread's arena (invariant 3) */
    size_t len;
    int err; /* 0: read until EAGAIN, the budget or the arena's end; IOREAD_EOF; else the errno */
};
#define IOREAD_EOF (-1) /* the peer closed its side */

/* Connections at least this many go to the threads (fewer: the game
 * thread does them at once); IOTHREADS_FANOUT_MIN unless a test sets
 * debug-io-fanout-min. */
void iothreads_set_fanout_min(size_t n);

/* Writes job->q's pending bytes to job->fd until all are written or the
 * socket refuses (invariant 1: reads q only). */
void iothreads_write_one(struct io_job *job);
/* Runs iothreads_write_one on every job, the jobs split over the threads
 * and the caller; returns when all are done (invariant 2). */
void iothreads_write(struct io_job *jobs, size_t n);
/* Reads (and decrypts) every job's socket, split over the threads and the
 * caller; returns when all are done. Each job's bytes are in an arena
 * until the next call (invariant 3). */
void iothreads_read(struct io_read *jobs, size_t n);

#endif
