/*
 * pregen.h — world pre-generation: every chunk of a square generated and
 * saved ahead of the players, on the worker pool, resumable, in bounded
 * memory. Started by `pregen <radius> [<x> <z>]` (console, RCON, operators
 * at level 4; game/cmd_pregen.c) or `mcserv --pregen RADIUS` (no listener;
 * a progress bar on a terminal).
 *
 * The square: chunks within radius blocks (rounded up to whole chunks) of
 * the centre's chunk, on both axes: (2·ceil(radius/16)+1)² chunks. It is
 * walked in cells of 8×8 chunks (a cell lies in one region file), ring by
 * ring around the centre's cell (a spiral: what players reach first is
 * done first):
 *
 *   game thread: next cell --skip chunks the world has loaded (it saves
 *     them itself)--> job (held: store_set_write_guard) --> pool
 *   worker: region header --chunks already on disk are skipped-->
 *     generate, chunk NBT, zlib --> one region write batch (store)
 *   game thread: done --> counts, progress, the map told, next cell
 *
 * States:
 *
 *   IDLE --start / a state file at startup (resume)--> RUNNING
 *   RUNNING --every cell done--> IDLE (state file removed, "done" logged)
 *   RUNNING --cancel--> CANCELLING --jobs in flight done--> IDLE (removed)
 *   RUNNING --pregen_stop (shutdown)--> IDLE, the state file kept
 *
 * State file: <level-name>/mcserv-pregen.txt, written (atomically, on a
 * worker) at most once a second while running: the centre, the radius and
 * the index of the first cell not yet finished. After a stop or a crash the
 * walk restarts at that cell; chunks already on disk there are skipped, so
 * nothing finished is generated again.
 *
 * Invariants:
 *  1. Game thread only, except the job bodies (which touch only their job,
 *     the terrain settings (read-only) and the store's region functions).
 *  2. Bounded: at most PREGEN_JOBS_MAX cells in flight, each holding one
 *     chunk being generated and the compressed NBT of at most 64 chunks;
 *     nothing generated stays in memory after its write.
 *  3. Never overwrites a chunk: one found on disk is skipped; one the world
 *     has loaded is the world's to save; a save of a loaded chunk never
 *     starts while a pre-generation write of its cell is in flight.
 *  4. With players online, a cell is handed to the pool only while no
 *     player waits for a chunk (the world's request heap is empty), at most
 *     one per worker: players come first.
 */
#ifndef MC_PREGEN_H
#define MC_PREGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/loop.h"

#define PREGEN_JOBS_MAX   16
#define PREGEN_RADIUS_MAX 100000 /* blocks: 12,500 chunks each way, 625 million chunks */
#define PREGEN_STATE_FILE "mcserv-pregen.txt"

struct pregen_status {
    bool running, cancelling;
    int32_t center_x, center_z; /* blocks */
    int radius;                 /* blocks */
    uint64_t total, done;       /* chunks */
    uint64_t generated, skipped, failed;
    double rate;  /* chunks per second over the last 10 s */
    double eta_s; /* -1: unknown */
    double elapsed_s;
};

/* Once, after game_init and store_attach: resumes a pre-generation the
 * world folder's state file describes. cli: the process only pre-generates
 * (every core; no player to yield to). */
void pregen_init(loop *l, bool cli);
/*
 * Starts pre-generating the square of radius blocks (1..PREGEN_RADIUS_MAX)
 * around block (x, z). 0, or -1 with the reason in err (one runs already,
 * no world folder, radius out of range).
 */
int pregen_start(int32_t x, int32_t z, int radius, char *err, size_t cap);
/* Stops handing out cells and forgets the state; false when none runs. */
bool pregen_cancel(void);
void pregen_get_status(struct pregen_status *st);
/* Shutdown: waits (bounded) for the cells in flight and keeps the state file. */
void pregen_stop(void);

/* Called on the game thread when a cell is written: chunks [x0, x1] × [z0, z1]. */
void pregen_set_listener(void (*fn)(int32_t x0, int32_t z0, int32_t x1, int32_t z1));

/*
 * `mcserv --pregen RADIUS`: pre-generates around the spawn (or resumes the
 * state file's square) without the listener, with a progress bar on a
 * terminal (log lines otherwise); returns the exit code (0 done, 1 failed
 * or interrupted: run it again to resume).
 */
int pregen_cli(loop *l, int radius);

#endif
