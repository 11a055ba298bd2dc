/*
 * saver.h — one file kept on disk from state in memory (the whitelist, the
 * ban lists, ops.json): each change rewrites the whole file atomically
 * (fio_write_atomic: temp, fsync, rename, fsync dir) on a worker, so every
 * byte goes through core/fileio.h and its fault injection.
 *
 * State machine (game thread):
 *
 *   IDLE --saver_request--> WRITING (job on a worker) --done--> IDLE
 *                             |  saver_request while writing: again
 *                             +--done with again--> WRITING (the newest text)
 *   a cancelled job (the pool stopping) writes inline in done(), and a
 *   write queued behind it is done inline too.
 *
 * Invariants:
 *  1. The text is made on the game thread (dump) when a write starts, so a
 *     write carries the newest state and the worker touches only the job
 *     (workers.h invariant 1).
 *  2. At most one write in flight, at most one more queued: a burst of
 *     changes costs two writes, and none is lost at shutdown.
 *  3. With set_aside (the owner found the file invalid), the next write
 *     first renames the file to <path>.corrupt-<yyyyMMdd-HHmmss>, so what
 *     was there is kept; set_aside is cleared once that or a write worked.
 *  4. A failure is logged as "cannot save <path> (<step>): <error>"; the
 *     next change tries again.
 */
#ifndef MC_SAVER_H
#define MC_SAVER_H

#include <stdbool.h>

#include "core/workers.h"

typedef struct saver {
    /* set by the owner */
    const char *path;         /* lives as long as the saver */
    char *(*dump)(void *arg); /* game thread: the file's text, malloc'd; NULL = out of memory */
    void *arg;
    bool set_aside; /* invariant 3 */
    /* the saver's */
    job j;
    bool writing, again;
    bool move_bad; /* this write sets the file aside first */
    char *text;    /* owned by the write in flight */
    char moved_to[320];
    int err; /* -errno of the failing step, 0 ok */
    const char *step;
} saver;

/* The state changed: write the newest text (invariant 2). */
void saver_request(saver *s);
/* Starts a queued write now (shutdown, before the pool stops). */
void saver_flush(saver *s);

#endif
