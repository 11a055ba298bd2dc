/*
 * store.c — see store.h.
 *
 * Threads: the game thread owns every field of `store` below except the region
 * cache (rt_lock) and the stats counters workers add to (atomics). Workers
 * see only their job, the region cache and core/fileio.h.
 *
 * Round bookkeeping: `round_left` counts the chunks tagged with the current
 * round id and the tickets (store_round_join: level.dat, player files) that
 * have not finished; it reaches 0 exactly once per round (store_tick then
 * reports the round, answers its save-all requesters and starts a pending
 * one). `rep` tallies the running round: successes, and failures by kind
 * with the first errno; a failure ends its item's part in the round (the
 * item is retried by the next round, not by this one).
 */
#include "world/store.h"

#include <errno.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/workers.h"
#include "data/biomes.h"
#include "data/blocks.h"
#include "world/region.h"
#include "world/world.h"

enum round_kind { ROUND_NONE, ROUND_AUTO, ROUND_SAVE_ALL, ROUND_FINAL };

static const char *const round_names[] = {"", "autosave", "save-all", "final save"};

static struct {
    bool active;
    char dir[256];
    int lock_fd;
    world *w;
    const struct server_config *cfg;
    struct store_hooks hooks;
    bool (*held)(int32_t x, int32_t z); /* store_set_write_guard */
    level_info level;
    int64_t level_time0; /* level.dat's Time at startup */
    uint64_t ticks;      /* since store_attach */
    /* autosave */
    bool autosave;
    int64_t interval_ms;
    int64_t next_autosave_ms;
    int64_t now_ms;
    /* rounds */
    uint32_t round_id;
    enum round_kind round;   /* running; ROUND_NONE = none */
    enum round_kind pending; /* requested while one runs */
    bool flush;              /* the running round is not paced */
    bool pending_flush;
    size_t round_left;
    struct store_report rep;  /* the running round's tally */
    struct store_report last; /* the last finished round */
    int final_attempt;        /* store_final_save's round number (1..3) */
    int64_t round_start_ns;
    int64_t round_max_pump_ns; /* longest store_tick slice during the round */
    /* in flight */
    size_t inflight_chunks;
    size_t inflight_files;
    struct save_batch *batches; /* in flight, for tagging at round start */
    int64_t error_backoff_ms;   /* unload saves wait after a write error */
    struct store_stats stats;
    /* save-all requesters waiting for their round (store_save_all_notify) */
    struct waiter {
        store_done_fn fn;
        void *arg;
        uint32_t round;
    } waiters[STORE_WAITERS_MAX];
    size_t nwaiters;
} store = {.lock_fd = -1};

/* Issue 15 (game/mob_save.c): queues the entity files of each round. */
static void (*entity_saver)(void);

void store_set_entity_saver(void (*save)(void))
{
    entity_saver = save;
}

/* ------------------------------------------------------------ region cache */

struct region_slot {
    int32_t rx, rz;
    region *r;   /* NULL: known absent */
    bool in_use; /* slot holds something */
    int refs;
    uint64_t last_use;
};

static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct region_slot slots[STORE_REGIONS_OPEN];
static uint64_t use_clock;

static void region_path(char *out, size_t cap, int32_t rx, int32_t rz)
{
    snprintf(out, cap, "%s/region/r.%d.%d.mca", store.dir, rx, rz);
}

/*
 * The open region (rx, rz) with a reference taken. create: make the file
 * if absent. 0 with *out, -ENOENT (absent, !create), or -errno.
 */
static int region_get(int32_t rx, int32_t rz, bool create, region **out)
{
    *out = NULL;
    pthread_mutex_lock(&rt_lock);
    struct region_slot *slot = NULL, *free_slot = NULL, *victim = NULL;
    for (int i = 0; i < STORE_REGIONS_OPEN; i++) {
        struct region_slot *s = &slots[i];
        if (!s->in_use) {
            if (!free_slot) free_slot = s;
            continue;
        }
        if (s->rx == rx && s->rz == rz) {
            slot = s;
            break;
        }
        if (s->refs == 0 && (!victim || s->last_use < victim->last_use)) victim = s;
    }
    int rc = 0;
    if (slot && (slot->r || !create)) {
        if (!slot->r) {
            rc = -ENOENT;
        } else {
            slot->refs++;
            slot->last_use = ++use_clock;
            *out = slot->r;
        }
        pthread_mutex_unlock(&rt_lock);
        return rc;
    }
    if (!slot) {
        slot = free_slot;
        if (!slot && victim) {
            region_close(victim->r);
            memset(victim, 0, sizeof *victim);
            slot = victim;
        }
        if (!slot) {
            pthread_mutex_unlock(&rt_lock);
            return -EMFILE; /* every open region is in use: retried later */
        }
    }
    char path[512];
    region_path(path, sizeof path, rx, rz);
    region *r = NULL;
    rc = region_open(&r, path, rx, rz, create);
    if (rc == 0 || rc == -ENOENT) {
        slot->in_use = true;
        slot->rx = rx;
        slot->rz = rz;
        slot->r = r;
        slot->refs = r ? 1 : 0;
        slot->last_use = ++use_clock;
        *out = r;
    } else {
        log_error("%s: cannot open: %s", path, strerror(-rc));
    }
    pthread_mutex_unlock(&rt_lock);
    return rc;
}

static void region_put(region *r)
{
    pthread_mutex_lock(&rt_lock);
    for (int i = 0; i < STORE_REGIONS_OPEN; i++)
        if (slots[i].in_use && slots[i].r == r) {
            slots[i].refs--;
            break;
        }
    pthread_mutex_unlock(&rt_lock);
}

static void regions_close_all(void)
{
    pthread_mutex_lock(&rt_lock);
    for (int i = 0; i < STORE_REGIONS_OPEN; i++) {
        if (slots[i].in_use && slots[i].r) region_close(slots[i].r);
        memset(&slots[i], 0, sizeof slots[i]);
    }
    pthread_mutex_unlock(&rt_lock);
}

/* ------------------------------------------------------------------ open */

static void stat_add(uint64_t *p, uint64_t v)
{
    __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

int store_open(struct server_config *cfg, char *err, size_t errlen)
{
    const char *name = cfg->level_name[0] ? cfg->level_name : "world";
    if (strlen(name) >= sizeof store.dir - 32) {
        snprintf(err, errlen, "level-name is too long");
        return -1;
    }
    snprintf(store.dir, sizeof store.dir, "%s", name);
    int fd = level_lock(store.dir, err, errlen);
    if (fd < 0) return -1;
    store.lock_fd = fd;
    char path[512];
    const char *sub[] = {"region", "playerdata"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", store.dir, sub[i]);
        int rc = fio_mkdir(path);
        if (rc < 0) {
            snprintf(err, errlen, "cannot create %s: %s", path, strerror(-rc));
            level_unlock(fd);
            store.lock_fd = -1;
            return -1;
        }
        level_remove_stale_temps(path);
    }
    level_remove_stale_temps(store.dir);
    int lr = level_read(store.dir, &store.level);
    if (lr > 0) {
        cfg->seed = store.level.seed;
        if (store.level.has_generator) {
            cfg->level_type = store.level.type;
            if (store.level.type == LEVEL_FLAT)
                snprintf(cfg->generator_settings, sizeof cfg->generator_settings, "%s",
                         store.level.flat_json);
        }
        log_info("Loading world %s (seed %lld, %s)", store.dir, (long long)cfg->seed,
                 cfg->level_type == LEVEL_FLAT ? "flat" : "normal");
    } else {
        log_info("Creating world %s (seed %lld)", store.dir, (long long)cfg->seed);
    }
    store.level_time0 = store.level.time;
    store.active = true;
    store.autosave = true;
    return 0;
}

void store_attach(world *w, const struct server_config *cfg)
{
    if (!store.active) return;
    store.w = w;
    store.cfg = cfg;
    w->persistent = true;
    store.interval_ms = (int64_t)cfg->autosave_interval * 1000;
    store.now_ms = clock_ms();
    store.next_autosave_ms = store.now_ms + store.interval_ms;
}

void store_set_hooks(const struct store_hooks *h)
{
    store.hooks = *h;
}

bool store_active(void)
{
    return store.active;
}

const char *store_dir(void)
{
    return store.dir;
}

level_info *store_level(void)
{
    return &store.level;
}

const struct store_stats *store_get_stats(void)
{
    return &store.stats;
}

bool store_autosave_enabled(void)
{
    return store.autosave;
}

bool store_saving(void)
{
    return store.round != ROUND_NONE || store.pending != ROUND_NONE;
}

/* ------------------------------------------------------------------ load */

/* Copies a corrupt chunk's bytes next to its region file. */
static void set_aside(int32_t x, int32_t z, const uint8_t *p, size_t n, const char *why)
{
    char rpath[512], path[640];
    region_path(rpath, sizeof rpath, x >> 5, z >> 5);
    snprintf(path, sizeof path, "%s.corrupt-%d-%d-%lld", rpath, x, z, (long long)time(NULL));
    stat_add(&store.stats.chunks_corrupt, 1);
    if (!p || !n) {
        log_error("%s: chunk %d,%d is corrupt (%s); regenerating it", rpath, x, z, why);
        return;
    }
    int rc = fio_write_atomic(path, p, n);
    if (rc < 0)
        log_error("%s: chunk %d,%d is corrupt (%s); regenerating it (could not keep a copy: %s)",
                  rpath, x, z, why, strerror(-rc));
    else
        log_error("%s: chunk %d,%d is corrupt (%s); its bytes are in %s; regenerating it", rpath, x,
                  z, why, path);
}

int store_load_chunk(int32_t x, int32_t z, chunk *c, anvil_extra *extra)
{
    int64_t t0 = clock_ns();
    chunk_init(c, x, z, BLOCK_AIR, BIOME_PLAINS);
    region *r;
    int rc = region_get(x >> 5, z >> 5, false, &r);
    if (rc == -ENOENT) {
        stat_add(&store.stats.chunks_absent, 1);
        return 0;
    }
    if (rc < 0) {
        stat_add(&store.stats.load_errors, 1);
        return rc;
    }
    region_chunk rc_chunk;
    rc = region_read(r, x & 31, z & 31, &rc_chunk);
    region_put(r);
    if (rc == 0) {
        stat_add(&store.stats.chunks_absent, 1);
        return 0;
    }
    if (rc == REGION_E_CORRUPT) {
        set_aside(x, z, rc_chunk.raw, rc_chunk.raw_len, rc_chunk.why);
        region_chunk_free(&rc_chunk);
        return 0;
    }
    if (rc < 0) {
        stat_add(&store.stats.load_errors, 1);
        return rc;
    }
    uint8_t *nbt;
    size_t nlen;
    int d =
        anvil_decompress(rc_chunk.type, rc_chunk.data, rc_chunk.len, ANVIL_MAX_NBT, &nbt, &nlen);
    if (d == -3) {
        region_chunk_free(&rc_chunk);
        return -ENOMEM;
    }
    if (d < 0) {
        set_aside(x, z, rc_chunk.data, rc_chunk.len,
                  d == -2 ? "larger than 16 MiB uncompressed" : "bad compressed data");
        region_chunk_free(&rc_chunk);
        return 0;
    }
    char why[200];
    int ar = anvil_decode(nbt, nlen, x, z, c, extra, why, sizeof why);
    free(nbt);
    if (ar == ANVIL_NOMEM) {
        region_chunk_free(&rc_chunk);
        return -ENOMEM;
    }
    if (ar == ANVIL_CORRUPT) {
        set_aside(x, z, rc_chunk.data, rc_chunk.len, why);
        region_chunk_free(&rc_chunk);
        return 0;
    }
    region_chunk_free(&rc_chunk);
    if (ar == ANVIL_NOT_FULL) {
        log_debug("chunk %d,%d: %s; generating it", x, z, why);
        stat_add(&store.stats.chunks_absent, 1);
        return 0;
    }
    stat_add(&store.stats.chunks_loaded, 1);
    stat_add(&store.stats.load_ns, (uint64_t)(clock_ns() - t0));
    return 1;
}

int store_region_present(int32_t rx, int32_t rz, uint8_t present[1024])
{
    memset(present, 0, 1024);
    region *r;
    int rc = region_get(rx, rz, false, &r);
    if (rc == -ENOENT) return 0;
    if (rc < 0) return rc;
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < 1024; i++) present[i] = r->locations[i] != 0;
    pthread_mutex_unlock(&r->lock);
    region_put(r);
    return 0;
}

int store_write_chunks(int32_t rx, int32_t rz, region_write *w, size_t n)
{
    int64_t t0 = clock_ns();
    region *r;
    int rc = region_get(rx, rz, true, &r);
    if (rc < 0) {
        for (size_t k = 0; k < n; k++) w[k].result = rc;
        stat_add(&store.stats.save_errors, n);
        return rc;
    }
    rc = region_write_batch(r, w, n, (uint32_t)time(NULL));
    region_put(r);
    for (size_t k = 0; k < n; k++) {
        if (w[k].result == 0) {
            stat_add(&store.stats.bytes_written, w[k].len);
        } else {
            stat_add(&store.stats.save_errors, 1);
        }
    }
    if (rc < 0)
        log_error("%s/region/r.%d.%d.mca: writing %zu generated chunks failed: %s", store.dir, rx,
                  rz, n, strerror(-rc));
    stat_add(&store.stats.save_ns, (uint64_t)(clock_ns() - t0));
    return rc;
}

void store_set_write_guard(bool (*held)(int32_t x, int32_t z))
{
    store.held = held;
}

/* ------------------------------------------------------------ chunk saving */

struct save_item {
    chunk_entry *e; /* game thread only */
    int32_t e_x, e_z;
    uint32_t version;
    chunk snap;
    anvil_extra extra;
    uint8_t *z; /* compressed NBT (worker) */
    size_t zlen;
    int result;
};

struct save_batch {
    job j;
    int32_t rx, rz;
    int n;
    int64_t game_time;
    int64_t ns;
    struct save_batch *prev, *next; /* store.batches */
    struct save_item items[STORE_BATCH_MAX];
};

static void run_batch(job *j, worker_ctx *ctx)
{
    struct save_batch *b = (struct save_batch *)j;
    int64_t t0 = clock_ns();
    buf_t *raw = &ctx->scratch;
    region_write w[STORE_BATCH_MAX];
    size_t nw = 0;
    for (int i = 0; i < b->n; i++) {
        struct save_item *it = &b->items[i];
        buf_reset(raw);
        it->result = 0;
        if (anvil_encode(&it->snap, &it->extra, b->game_time, raw) < 0 || raw->failed) {
            it->result = raw->failed && raw->len >= ANVIL_MAX_NBT ? -EFBIG : -ENOMEM;
        } else {
            size_t bound = libdeflate_zlib_compress_bound(ctx->compressor, raw->len);
            it->z = malloc(bound);
            if (!it->z) {
                it->result = -ENOMEM;
            } else {
                it->zlen =
                    libdeflate_zlib_compress(ctx->compressor, raw->data, raw->len, it->z, bound);
                if (!it->zlen) it->result = -ENOMEM;
            }
        }
        /* The snapshot is no longer needed: free it here, off the game thread. */
        chunk_free(&it->snap);
        anvil_extra_free(&it->extra);
        if (it->result) continue;
        w[nw] =
            (region_write){.lx = it->e_x & 31, .lz = it->e_z & 31, .data = it->z, .len = it->zlen};
        nw++;
    }
    if (nw) {
        region *r;
        int rc = region_get(b->rx, b->rz, true, &r);
        if (rc == 0) {
            rc = region_write_batch(r, w, nw, (uint32_t)time(NULL));
            region_put(r);
            size_t failed = 0;
            for (size_t k = 0; k < nw; k++) failed += w[k].result != 0;
            if (rc < 0)
                log_error("%s/region/r.%d.%d.mca: saving %zu of %zu chunks failed: %s (the "
                          "previous versions stay on disk; retrying at the next save)",
                          store.dir, b->rx, b->rz, failed, nw, strerror(-rc));
        } else {
            for (size_t k = 0; k < nw; k++) w[k].result = rc;
        }
        size_t k = 0;
        for (int i = 0; i < b->n; i++) {
            struct save_item *it = &b->items[i];
            if (it->result) continue;
            it->result = w[k].result;
            if (!it->result) stat_add(&store.stats.bytes_written, it->zlen);
            k++;
        }
    }
    for (int i = 0; i < b->n; i++) {
        free(b->items[i].z);
        b->items[i].z = NULL;
    }
    b->ns = clock_ns() - t0;
}

/* Counts a failure (rc < 0) of the running round; successes are counted by the caller. */
static void round_note(enum store_item what, int rc)
{
    struct store_report *r = &store.rep;
    if (rc == 0) return;
    if (!r->err) r->err = -rc;
    if (what == STORE_ITEM_CHUNK)
        r->failed_chunks++;
    else if (what == STORE_ITEM_LEVEL)
        r->failed_level++;
    else
        r->failed_players++;
}

/* One tagged chunk or file of the running round is finished (rc: 0 or -errno). */
static void round_one_done(enum store_item what, int rc)
{
    if (store.round_left > 0) store.round_left--;
    round_note(what, rc);
}

static void done_batch(job *j)
{
    struct save_batch *b = (struct save_batch *)j;
    if (b->prev)
        b->prev->next = b->next;
    else
        store.batches = b->next;
    if (b->next) b->next->prev = b->prev;
    stat_add(&store.stats.save_ns, (uint64_t)b->ns);
    world *w = store.w;
    for (int i = 0; i < b->n; i++) {
        struct save_item *it = &b->items[i];
        chunk_entry *e = it->e;
        if (j->cancelled) {
            chunk_free(&it->snap);
            anvil_extra_free(&it->extra);
            it->result = -ECANCELED;
        }
        e->jobs--;
        e->save.saving = false;
        store.inflight_chunks--;
        bool in_round = store.round != ROUND_NONE && e->save.round == store.round_id;
        if (it->result == 0) {
            e->save.saved_version = it->version;
            store.stats.chunks_saved++;
            if (in_round) {
                store.rep.chunks++;
                if ((int32_t)(it->version - e->save.round_version) >= 0) {
                    e->save.round = 0;
                    round_one_done(STORE_ITEM_CHUNK, 0);
                    in_round = false;
                }
            }
        } else {
            store.stats.save_errors++;
            if (it->result == -EFBIG) {
                e->save.unsavable = true;
                log_error("chunk %d,%d is larger than a region file can hold (1 MiB compressed); "
                          "mcserv cannot save it, its edits stay in memory until it unloads",
                          e->c.x, e->c.z);
            }
            store.error_backoff_ms = store.now_ms + 10000;
            if (in_round) {
                e->save.round = 0;
                round_one_done(STORE_ITEM_CHUNK, it->result);
                in_round = false;
            }
        }
        if (world_entry_unsaved(e))
            world_save_list_move(w, e, in_round ? SAVE_LIST_QUEUED : SAVE_LIST_UNSAVED);
    }
    free(b);
}

/* Submits the open batches. */
static void submit_batches(struct save_batch **open, int *nopen)
{
    for (int i = 0; i < *nopen; i++) {
        struct save_batch *b = open[i];
        b->j.run = run_batch;
        b->j.done = done_batch;
        b->prev = NULL;
        b->next = store.batches;
        if (b->next) b->next->prev = b;
        store.batches = b;
        workers_run(&b->j);
    }
    *nopen = 0;
}

#define OPEN_BATCHES 16

/*
 * Snapshots queued chunks into region batches and submits them: until the
 * queue is empty, STORE_INFLIGHT_MAX snapshots exist, or (unless
 * unlimited) the time budget is spent.
 */
static void pump(bool unlimited)
{
    world *w = store.w;
    if (!w || !w->save_head[SAVE_LIST_QUEUED]) return;
    int64_t t0 = clock_ns();
    struct save_batch *open[OPEN_BATCHES];
    int nopen = 0;
    int64_t game_time = store.level_time0 + (int64_t)store.ticks;
    unsigned n = 0;
    chunk_entry *first_held = NULL;
    while (w->save_head[SAVE_LIST_QUEUED] && store.inflight_chunks < STORE_INFLIGHT_MAX) {
        if (!unlimited && (++n & 3) == 0 && clock_ns() - t0 > STORE_PUMP_BUDGET_NS) break;
        chunk_entry *e = w->save_head[SAVE_LIST_QUEUED];
        world_save_list_move(w, e, SAVE_LIST_NONE);
        if (store.held && store.held(e->c.x, e->c.z)) {
            /* Pre-generation is writing this chunk's region slot: save it after (to the back). */
            world_save_list_move(w, e, SAVE_LIST_QUEUED);
            if (e == first_held) break; /* every chunk left is held: next tick */
            if (!first_held) first_held = e;
            continue;
        }
        if (!world_entry_unsaved(e) || e->save.saving) {
            /* Saved meanwhile (or a save is in flight: its done() re-queues). */
            if (!e->save.saving && store.round != ROUND_NONE && e->save.round == store.round_id) {
                e->save.round = 0;
                round_one_done(STORE_ITEM_CHUNK, 0);
            }
            continue;
        }
        int32_t rx = e->c.x >> 5, rz = e->c.z >> 5;
        struct save_batch *b = NULL;
        for (int i = 0; i < nopen; i++)
            if (open[i]->rx == rx && open[i]->rz == rz) b = open[i];
        if (b && b->n == STORE_BATCH_MAX) {
            /* Full: send it on its own. */
            for (int i = 0; i < nopen; i++)
                if (open[i] == b) {
                    open[i] = open[--nopen];
                    break;
                }
            struct save_batch *one[1] = {b};
            int k = 1;
            submit_batches(one, &k);
            b = NULL;
        }
        if (!b) {
            if (nopen == OPEN_BATCHES) submit_batches(open, &nopen);
            b = calloc(1, sizeof *b);
            if (!b) {
                world_save_list_move(w, e, SAVE_LIST_QUEUED);
                break;
            }
            b->rx = rx;
            b->rz = rz;
            b->game_time = game_time;
            open[nopen++] = b;
        }
        struct save_item *it = &b->items[b->n];
        memset(it, 0, sizeof *it);
        if (chunk_clone(&it->snap, &e->c) < 0 ||
            (e->extra && anvil_extra_copy(&it->extra, e->extra) < 0)) {
            chunk_free(&it->snap);
            world_save_list_move(w, e, SAVE_LIST_QUEUED);
            break; /* out of memory: try again next tick */
        }
        it->e = e;
        it->e_x = e->c.x;
        it->e_z = e->c.z;
        it->version = e->version;
        b->n++;
        e->save.saving = true;
        e->jobs++;
        store.inflight_chunks++;
    }
    /* Drop empty batches (an allocation failed before the first item). */
    for (int i = 0; i < nopen; i++)
        if (open[i]->n == 0) {
            free(open[i]);
            open[i--] = open[--nopen];
        }
    submit_batches(open, &nopen);
    int64_t dt = clock_ns() - t0;
    if (dt > store.stats.max_pump_ns) store.stats.max_pump_ns = dt;
    if (dt > store.round_max_pump_ns) store.round_max_pump_ns = dt;
}

void store_unload_save(world *w, chunk_entry *e)
{
    if (!store.active || !store.autosave || e->save.saving || store.now_ms < store.error_backoff_ms)
        return;
    world_save_list_move(w, e, SAVE_LIST_QUEUED);
}

/* ------------------------------------------------------------- file jobs */

struct file_job {
    job j;
    char path[512];
    uint8_t *data;
    size_t len;
    bool gzip;
    enum store_item what;
    uint32_t ticket; /* store_round_join's, or 0 */
    int rc;
    void (*done)(void *arg, int rc);
    void *arg;
};

static void run_file(job *j, worker_ctx *ctx)
{
    struct file_job *f = (struct file_job *)j;
    if (f->gzip) {
        size_t bound = libdeflate_gzip_compress_bound(ctx->compressor, f->len);
        uint8_t *z = malloc(bound);
        size_t zl = z ? libdeflate_gzip_compress(ctx->compressor, f->data, f->len, z, bound) : 0;
        if (!zl) {
            free(z);
            f->rc = -ENOMEM;
            return;
        }
        free(f->data);
        f->data = z;
        f->len = zl;
    }
    f->rc = fio_write_atomic(f->path, f->data, f->len);
    if (f->rc < 0)
        log_error("%s: save failed: %s (the previous version stays; retrying at the next save)",
                  f->path, strerror(-f->rc));
}

static void done_file(job *j)
{
    struct file_job *f = (struct file_job *)j;
    if (j->cancelled) f->rc = -ECANCELED;
    store.inflight_files--;
    if (f->rc == 0)
        store.stats.files_written++;
    else
        store.stats.file_errors++;
    store_round_leave(f->ticket, f->what, f->rc);
    if (f->done) f->done(f->arg, f->rc);
    free(f->data);
    free(f);
}

uint32_t store_round_join(void)
{
    if (!store.active || store.round == ROUND_NONE) return 0;
    store.round_left++;
    return store.round_id;
}

void store_round_leave(uint32_t ticket, enum store_item what, int rc)
{
    if (!ticket || store.round == ROUND_NONE || ticket != store.round_id) return;
    if (rc == 0) store.rep.files++;
    round_one_done(what, rc);
}

void store_write_file(const char *path, uint8_t *data, size_t len, bool gzip, enum store_item what,
                      uint32_t ticket, void (*done)(void *arg, int rc), void *arg)
{
    struct file_job *f = calloc(1, sizeof *f);
    if (!f || !store.active) {
        int rc = store.active ? -ENOMEM : -ENODEV;
        free(f);
        free(data);
        store_round_leave(ticket, what, rc);
        if (done) done(arg, rc);
        return;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    f->data = data;
    f->len = len;
    f->gzip = gzip;
    f->done = done;
    f->arg = arg;
    f->what = what;
    f->ticket = ticket;
    f->j.run = run_file;
    f->j.done = done_file;
    store.inflight_files++;
    workers_run(&f->j);
}

/* ---------------------------------------------------------------- rounds */

static void tag(chunk_entry *e)
{
    if (e->save.round == store.round_id) return;
    e->save.round = store.round_id;
    e->save.round_version = e->version;
    store.round_left++;
}

static void save_level(void)
{
    level_info *li = &store.level;
    li->time = store.level_time0 + (int64_t)store.ticks;
    if (store.hooks.fill_level) store.hooks.fill_level(li);
    buf_t b;
    buf_init(&b, STORE_FILE_MAX);
    if (level_encode(li, store.cfg, store.w ? &store.w->terrain : NULL, clock_wall_ms(), &b) < 0 ||
        b.failed) {
        log_error("level.dat: cannot encode it (out of memory)");
        round_note(STORE_ITEM_LEVEL, -ENOMEM);
        buf_free(&b);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/level.dat", store.dir);
    store_write_file(path, b.data, b.len, true, STORE_ITEM_LEVEL, store_round_join(), NULL, NULL);
}

static void round_start(enum round_kind kind, bool flush)
{
    world *w = store.w;
    store.round = kind;
    store.flush = flush;
    store.round_id++;
    if (store.round_id == 0) store.round_id = 1;
    store.round_left = 0;
    memset(&store.rep, 0, sizeof store.rep);
    store.rep.round = store.round_id;
    store.round_start_ns = clock_ns();
    store.round_max_pump_ns = 0;
    if (kind == ROUND_SAVE_ALL) log_info("Saving the game (this may take a moment!)");
    if (w) {
        /* Unsaved → queued; everything queued or in flight belongs to this round. */
        while (w->save_head[SAVE_LIST_UNSAVED])
            world_save_list_move(w, w->save_head[SAVE_LIST_UNSAVED], SAVE_LIST_QUEUED);
        for (chunk_entry *e = w->save_head[SAVE_LIST_QUEUED]; e; e = e->save.next) tag(e);
        for (struct save_batch *b = store.batches; b; b = b->next)
            for (int i = 0; i < b->n; i++) tag(b->items[i].e);
    }
    save_level();
    if (store.hooks.save_players) store.hooks.save_players();
    if (entity_saver) entity_saver(); /* issue 15: entities/r.X.Z.mca */
    store.stats.rounds++;
}

/* Calls the save-all requesters waiting for round `id` (all of them if id is 0). */
static void notify_waiters(uint32_t id, const struct store_report *r)
{
    size_t k = 0;
    struct waiter due[STORE_WAITERS_MAX];
    size_t ndue = 0;
    for (size_t i = 0; i < store.nwaiters; i++) {
        if (!id || store.waiters[i].round == id)
            due[ndue++] = store.waiters[i];
        else
            store.waiters[k++] = store.waiters[i];
    }
    store.nwaiters = k;
    /* After the list is consistent: a callback may request another save. */
    for (size_t i = 0; i < ndue; i++) due[i].fn(due[i].arg, r);
}

bool store_report_failed(const struct store_report *r)
{
    return r && (r->failed_chunks || r->failed_level || r->failed_players);
}

void store_report_describe(const struct store_report *r, char *out, size_t cap)
{
    char part[3][48];
    int n = 0;
    if (r->failed_chunks)
        snprintf(part[n++], sizeof part[0], "%zu chunk%s", r->failed_chunks,
                 r->failed_chunks == 1 ? "" : "s");
    if (r->failed_level) snprintf(part[n++], sizeof part[0], "level.dat");
    if (r->failed_players)
        snprintf(part[n++], sizeof part[0], "%zu player file%s", r->failed_players,
                 r->failed_players == 1 ? "" : "s");
    if (n == 0) {
        snprintf(out, cap, "nothing");
        return;
    }
    const char *err = r->err ? strerror(r->err) : "unknown error";
    if (n == 1)
        snprintf(out, cap, "%s (%s)", part[0], err);
    else if (n == 2)
        snprintf(out, cap, "%s and %s (%s)", part[0], part[1], err);
    else
        snprintf(out, cap, "%s, %s and %s (%s)", part[0], part[1], part[2], err);
}

const struct store_report *store_last_report(void)
{
    return store.last.round ? &store.last : NULL;
}

static void round_finish(void)
{
    int64_t ms = (clock_ns() - store.round_start_ns) / 1000000;
    store.rep.ms = ms;
    store.stats.last_round_ms = ms;
    store.stats.last_round_chunks = store.rep.chunks;
    if (store_report_failed(&store.rep)) {
        char what[200];
        store_report_describe(&store.rep, what, sizeof what);
        store.stats.round_failures++;
        if (store.round == ROUND_FINAL)
            log_error("final save: could not save %s; %s", what,
                      store.final_attempt < 3 ? "retrying"
                                              : "giving up (what was on disk before is intact)");
        else
            log_error("%s failed: could not save %s; what was on disk before is intact, will retry "
                      "at the next save",
                      round_names[store.round], what);
    } else if (store.round == ROUND_AUTO) {
        log_msg(store.rep.chunks ? LOG_INFO : LOG_DEBUG,
                "Autosave: %zu chunks and %zu files saved in %lld ms (longest tick slice %.2f "
                "ms)",
                store.rep.chunks, store.rep.files, (long long)ms,
                (double)store.round_max_pump_ns / 1e6);
    } else {
        log_info("Saved the game (%zu chunks and %zu files in %lld ms)", store.rep.chunks,
                 store.rep.files, (long long)ms);
    }
    store.last = store.rep;
    store.round = ROUND_NONE;
    store.flush = false;
    notify_waiters(store.last.round, &store.last);
    if (store.pending != ROUND_NONE) {
        enum round_kind k = store.pending;
        bool f = store.pending_flush;
        store.pending = ROUND_NONE;
        store.pending_flush = false;
        round_start(k, f);
    }
}

static void request_round(enum round_kind kind, bool flush)
{
    if (!store.active) return;
    if (store.round == ROUND_NONE) {
        round_start(kind, flush);
        return;
    }
    /* After the running one; a save-all outranks an autosave. */
    if (kind > store.pending) store.pending = kind;
    store.pending_flush = store.pending_flush || flush;
}

void store_save_all(bool flush)
{
    store_save_all_notify(flush, NULL, NULL);
}

bool store_save_all_notify(bool flush, store_done_fn done, void *arg)
{
    if (!store.active) {
        log_info("Saving is not available (no world folder)");
        return false;
    }
    /* A round running now has tagged its work already: the request is served by the next one. */
    uint32_t id = store.round_id + 1;
    if (id == 0) id = 1;
    bool queued = false;
    if (done && store.nwaiters < STORE_WAITERS_MAX) {
        store.waiters[store.nwaiters++] = (struct waiter){done, arg, id};
        queued = true;
    }
    request_round(ROUND_SAVE_ALL, flush);
    return queued;
}

void store_set_autosave(bool on)
{
    store.autosave = on;
    if (on) store.next_autosave_ms = store.now_ms + store.interval_ms;
    log_info("%s", on ? "Automatic saving is now enabled" : "Automatic saving is now disabled");
}

void store_tick(int64_t now_ms)
{
    if (!store.active) return;
    store.now_ms = now_ms;
    store.ticks++;
    if (store.autosave && store.interval_ms > 0 && now_ms >= store.next_autosave_ms) {
        store.next_autosave_ms = now_ms + store.interval_ms;
        if (store.round == ROUND_NONE)
            round_start(ROUND_AUTO, false);
        else
            log_debug("autosave skipped: the previous save is still running");
    }
    /* Outside rounds queued chunks are unload saves; pace everything but a flush. */
    pump(store.flush);
    if (store.round != ROUND_NONE && store.round_left == 0) round_finish();
}

void store_final_save(void)
{
    if (!store.active || !store.w) return;
    store.autosave = true; /* everything is saved on stop, even after save-off */
    int64_t start = clock_ms();
    int64_t deadline = start + 600000; /* 10 minutes: a disk that slow is logged, not waited on */
    int64_t next_log = start + 5000;
    int rounds = 0;
    for (;;) {
        if (store.round == ROUND_NONE) {
            /* Again while chunks wait or the last round failed (a player file, level.dat). */
            bool more = store.w->save_head[SAVE_LIST_UNSAVED] ||
                        store.w->save_head[SAVE_LIST_QUEUED] || store_report_failed(&store.last);
            if (rounds >= 3 || (rounds > 0 && !more)) {
                if (store.inflight_chunks == 0 && store.inflight_files == 0) break;
            } else {
                store.pending = ROUND_NONE;
                store.final_attempt = ++rounds;
                round_start(ROUND_FINAL, true);
            }
        }
        pump(true);
        workers_drain();
        if (store.round != ROUND_NONE && store.round_left == 0) round_finish();
        int64_t now = clock_ms();
        if (now >= deadline) {
            log_error("final save: still %zu chunks and %zu files in flight after %lld s; "
                      "giving up (they stay as they were on disk)",
                      store.inflight_chunks, store.inflight_files, (long long)(now - start) / 1000);
            break;
        }
        if (now >= next_log) {
            log_info("final save: %zu chunks queued, %zu in flight",
                     store.w->save_count[SAVE_LIST_QUEUED], store.inflight_chunks);
            next_log = now + 5000;
        }
        if (store.round != ROUND_NONE || store.inflight_chunks || store.inflight_files) usleep(500);
    }
}

void store_close(void)
{
    if (!store.active) return;
    /* The world is freed by now (server_free): its lists are gone with it. */
    notify_waiters(0, NULL); /* requesters of a round that never ran */
    regions_close_all();
    level_info_free(&store.level);
    level_unlock(store.lock_fd);
    store.lock_fd = -1;
    store.active = false;
    store.w = NULL;
}
