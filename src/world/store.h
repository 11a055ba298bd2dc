/*
 * store.h — the world on disk: load-or-generate, saving on worker threads,
 * autosave, save-all / save-off / save-on, the final save at shutdown.
 *
 * Folder (level-name under the server directory, vanilla's layout):
 *
 *   <level-name>/session.lock        held while the server runs (level.h)
 *   <level-name>/level.dat           gzip NBT (level.h)
 *   <level-name>/region/r.X.Z.mca    chunks (region.h, anvil.h)
 *   <level-name>/playerdata/<uuid>.dat  players (game/playerdata.h)
 *
 * Chunk save states (fields in chunk_entry.save, owned by this module and
 * touched only on the game thread):
 *
 *   clean (saved_version == version, on no list)
 *     --edit or generated--> UNSAVED list
 *   UNSAVED --round starts / unload sweep--> QUEUED list
 *   QUEUED --pump: snapshot (deep copy) into a region batch--> saving
 *   saving --worker: NBT, zlib, region_write_batch--> done():
 *          ok: saved_version = snapshot version; edited meanwhile → UNSAVED
 *          error: counted, logged, back to UNSAVED (retried next autosave)
 *
 * A save round (autosave timer, save-all, the final save) tags every chunk
 * that is unsaved, queued or being saved when it starts, plus level.dat and
 * the player files the game joins to it (store_round_join: every online
 * player's, and every file whose last write failed); it is complete when
 * each tagged chunk has been written at a version at least as new as at the
 * start, or has failed, and each tagged file is written or has failed. Only
 * then is "Saved the game" (save-all) or the autosave line logged (an edit
 * made before the round started is on disk), or, if anything failed, what
 * could not be saved ("save-all failed: could not save 1 player file (No
 * space left on device); ... will retry at the next save"). The round's
 * tally is a store_report; save-all requesters get it (store_save_all_notify).
 *
 * Invariants:
 *  1. The game thread never does disk I/O after store_open, except in
 *     store_final_save (shutdown) — it only snapshots and queues.
 *  2. Bounded: at most STORE_INFLIGHT_MAX chunk snapshots exist at a time,
 *     a batch holds at most STORE_BATCH_MAX chunks of one region, at most
 *     STORE_REGIONS_OPEN region files are open; the per-tick pump spends at
 *     most STORE_PUMP_BUDGET_NS (unless flushing) on snapshots.
 *  3. A chunk with unsaved edits is never unloaded (world_sweep asks the
 *     store to save it first), except one too large for a region file
 *     (over 1 MiB compressed), which is logged and dropped.
 *  4. Load errors that may be transient (EIO reading) never lead to
 *     generation (which would later overwrite good data): the chunk stays
 *     absent and is retried. Corrupt chunks are copied aside
 *     (region/r.X.Z.mca.corrupt-<x>-<z>-<time>) and regenerated.
 */
#ifndef MC_STORE_H
#define MC_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "world/anvil.h"
#include "world/level.h"

#define STORE_INFLIGHT_MAX   2048
#define STORE_BATCH_MAX      64
#define STORE_REGIONS_OPEN   256
#define STORE_PUMP_BUDGET_NS 3000000           /* 3 ms of a 50 ms tick */
#define STORE_FILE_MAX       ((size_t)8 << 20) /* a player or level file */
#define STORE_WAITERS_MAX    32                /* save-all requesters waiting for a round */

struct world;
struct chunk_entry;
struct region_write;

struct store_stats {
    uint64_t chunks_loaded, chunks_absent, chunks_corrupt, load_errors;
    uint64_t chunks_saved, save_errors, bytes_written;
    uint64_t files_written, file_errors;
    uint64_t load_ns, save_ns; /* worker time */
    uint64_t rounds, round_failures;
    int64_t last_round_ms;
    uint64_t last_round_chunks;
    int64_t max_pump_ns; /* longest game-thread slice spent queueing saves */
};

/* What a round writes, for its tally. */
enum store_item { STORE_ITEM_CHUNK, STORE_ITEM_LEVEL, STORE_ITEM_PLAYER };

/* A save round's tally: what was written, what could not be. */
struct store_report {
    uint32_t round; /* the round's id (never 0) */
    size_t chunks, files;
    size_t failed_chunks, failed_level, failed_players;
    int err; /* the first failure's errno, or 0 */
    int64_t ms;
};

/* Game-layer callbacks around a save round (set once by game/playerdata.c). */
struct store_hooks {
    /* Copies game state (spawn, time, weather) into the level info before it is written. */
    void (*fill_level)(level_info *li);
    /* Queues the round's player files (every online player's, every one a failed write left
     * unsaved), each with a ticket from store_round_join. */
    void (*save_players)(void);
};

/* Runs on the game thread when the round a save-all request joined is over;
 * r is NULL if the store closed before that round ran. */
typedef void (*store_done_fn)(void *arg, const struct store_report *r);

/*
 * Startup, before the world is created: locks <level-name>/session.lock,
 * creates the folders, reads level.dat, and puts the world's seed and
 * generator (when level.dat has them) into cfg. -1 with a message: another
 * server holds the world, or the folder cannot be created.
 */
int store_open(struct server_config *cfg, char *err, size_t errlen);
/* After world_init: chunks load from disk from now on. cfg must outlive the store. */
void store_attach(struct world *w, const struct server_config *cfg);
void store_set_hooks(const struct store_hooks *h);
bool store_active(void);
/* Issue 15 (game/mob_save.c): save(), on the game thread, at the start of
 * every save round after the player files: it queues the entity files
 * (entities/r.X.Z.mca) with tickets from store_round_join. */
void store_set_entity_saver(void (*save)(void));
/* The world folder ("world"), and the level read at startup (game thread). */
const char *store_dir(void);
level_info *store_level(void);
const struct store_stats *store_get_stats(void);

/*
 * Worker thread: chunk (x, z) from its region file into c (which this call
 * chunk_init's) and its kept tags into extra. 1 loaded, 0 absent (generate
 * it: also after a corrupt chunk was set aside), -errno on an I/O error
 * (generate nothing; retry later).
 */
int store_load_chunk(int32_t x, int32_t z, chunk *c, anvil_extra *extra);

/*
 * For pre-generation (game/pregen.c), which writes chunks nobody has loaded
 * straight to their region files through the store's open regions:
 *
 * Worker thread: present[(x & 31) + (z & 31) * 32] = 1 for every chunk
 * region (rx, rz) holds; 0 (an absent file: all 0), or -errno.
 */
int store_region_present(int32_t rx, int32_t rz, uint8_t present[1024]);
/* Worker thread: writes w[0..n) (zlib chunk NBT) to region (rx, rz), creating
 * it; region_write_batch's result, per chunk in w[k].result. */
int store_write_chunks(int32_t rx, int32_t rz, struct region_write *w, size_t n);
/*
 * Game thread: while held(x, z) is true the store starts no save of chunk
 * (x, z) (it stays queued), so a loaded chunk's save always lands after a
 * pre-generation write of the same chunk that was in flight. NULL: none.
 */
void store_set_write_guard(bool (*held)(int32_t x, int32_t z));

/* Game thread, once per tick: autosave timer, queued saves, round completion. */
void store_tick(int64_t now_ms);
/* save-all: a round now (after the current one); flush: without the per-tick pacing. */
void store_save_all(bool flush);
/* store_save_all, and done(arg, report) when that round is over. false: done will not be
 * called (no world folder, or STORE_WAITERS_MAX requests wait already). */
bool store_save_all_notify(bool flush, store_done_fn done, void *arg);
/* The last finished round's tally, or NULL before the first one. */
const struct store_report *store_last_report(void);
bool store_report_failed(const struct store_report *r);
/* What a failed round could not save: "3 chunks, level.dat and 1 player file (No space left
 * on device)". */
void store_report_describe(const struct store_report *r, char *out, size_t cap);
/* save-off / save-on: autosave and unload saves stop / resume. */
void store_set_autosave(bool on);
bool store_autosave_enabled(void);
/* True while a round runs (or is waiting to start). */
bool store_saving(void);

/*
 * A ticket that holds the running round open until store_round_leave (or
 * the write it is given to) ends it; 0 (nothing to leave) outside rounds.
 * A ticket of a round that is over is ignored.
 */
uint32_t store_round_join(void);
/* Ends a ticket: rc 0 counts a file written, -errno one that failed. */
void store_round_leave(uint32_t ticket, enum store_item what, int rc);

/*
 * Queues whole-file writes (player data, level.dat): takes ownership of
 * data (malloc'ed). gzip: compress on the worker first. ticket (from
 * store_round_join, or 0) is ended with the write's result. done (may be
 * NULL) runs on the game thread with 0 or -errno.
 */
void store_write_file(const char *path, uint8_t *data, size_t len, bool gzip, enum store_item what,
                      uint32_t ticket, void (*done)(void *arg, int rc), void *arg);

/* Called by world_sweep for an idle chunk with unsaved edits: queue it. */
void store_unload_save(struct world *w, struct chunk_entry *e);

/* Shutdown: saves everything and waits (bounded) for every write. */
void store_final_save(void);
/* Closes region files and releases the lock; after store_final_save. */
void store_close(void);

#endif
