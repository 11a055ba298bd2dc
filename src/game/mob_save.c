/*
 * mob_save.c — mobs on disk, as vanilla 1.17+ keeps entities: one region
 * file per 32×32 chunks, <level-name>/entities/r.X.Z.mca, written through
 * world/region.c (the same crash-safe batch write as the chunks: new
 * payloads, fsync, header, fsync). Each chunk's payload is zlib NBT:
 *
 *   {DataVersion: 3465, Position: [I; cx, cz], Entities: [{id, Pos, ...}]}
 *
 * with each entity's tags as mob_rules.c writes them.
 *
 * Saving: every save round of world/store.c (autosave, save-all, stop)
 * calls ms_save_round on the game thread, which snapshots every living mob
 * into records grouped by chunk (plus an empty list for chunks that had
 * mobs at the last save and have none now) and hands them to a worker with
 * a ticket of the round, so "Saved the game" waits for the entity files
 * too. One save job runs at a time (two would write the same files through
 * two descriptors); a round that starts meanwhile waits for it, its ticket
 * taken at once.
 *
 * Loading: the first tick starts a worker that reads every
 * entities/r.X.Z.mca; its done() spawns the mobs. Until it is done, save
 * rounds wait (an empty snapshot must never overwrite the files). A chunk
 * whose payload cannot be read or parsed is logged and skipped; an entity
 * record that is not valid is skipped and logged (counted per chunk).
 *
 * Departures (docs/gameplay.md, "Mobs"): entities load all at once at
 * startup, not with their chunk (mobs in chunks nobody holds rest: an
 * unloaded block counts as a wall); a chunk holding entities mcserv does
 * not simulate (item frames, boats... of a vanilla world) is never
 * rewritten, so those are kept, and mobs that wander into it are not saved
 * there.
 *
 * Invariants:
 *  1. At most one save job and one load job exist; the game thread owns
 *     the known / foreign chunk sets, a worker only its job.
 *  2. Every ticket taken is left exactly once (done, or the pending round).
 */
#include <dirent.h>
#include <errno.h>
#include <libdeflate.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/workers.h"
#include "game/mob_int.h"
#include "world/anvil.h"
#include "world/region.h"
#include "world/store.h"

#define MAX_FILE_ERRORS_LOGGED 8

/* A set of chunk keys (open addressing, 0 = empty; keys are never 0). */
struct keyset {
    uint64_t *k;
    size_t n, cap;
};

static inline uint64_t key_of(int32_t cx, int32_t cz)
{
    return ((uint64_t)(uint32_t)cx << 32 | (uint32_t)cz) ^ 0x8000000080000001ull;
}

static inline void unkey(uint64_t k, int32_t *cx, int32_t *cz)
{
    k ^= 0x8000000080000001ull;
    *cx = (int32_t)(uint32_t)(k >> 32), *cz = (int32_t)(uint32_t)k;
}

static bool ks_has(const struct keyset *s, uint64_t k)
{
    if (!s->cap) return false;
    for (size_t i = (k * 0x9e3779b97f4a7c15ull) & (s->cap - 1); s->k[i]; i = (i + 1) & (s->cap - 1))
        if (s->k[i] == k) return true;
    return false;
}

static bool ks_add(struct keyset *s, uint64_t k)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint64_t *n = calloc(cap, sizeof *n);
        if (!n) return false;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->k[i]) continue;
            size_t j = (s->k[i] * 0x9e3779b97f4a7c15ull) & (cap - 1);
            while (n[j]) j = (j + 1) & (cap - 1);
            n[j] = s->k[i];
        }
        free(s->k);
        s->k = n, s->cap = cap;
    }
    size_t i = (k * 0x9e3779b97f4a7c15ull) & (s->cap - 1);
    while (s->k[i]) {
        if (s->k[i] == k) return true;
        i = (i + 1) & (s->cap - 1);
    }
    s->k[i] = k;
    s->n++;
    return true;
}

static void ks_free(struct keyset *s)
{
    free(s->k);
    memset(s, 0, sizeof *s);
}

static struct keyset known; /* chunks whose file entry has mobs (as last written or loaded) */
static struct keyset
    foreign; /* chunks holding entities mcserv does not simulate: never rewritten */
static bool load_done, load_running, save_running;
static uint32_t pending_tickets[STORE_WAITERS_MAX + 8];
static size_t npending;

/* ------------------------------------------------------------ saving */

struct chunk_rec {
    uint64_t key;
    struct mob_record r; /* r.type < 0: an empty chunk entry */
};

struct save_job {
    job j;
    uint32_t ticket;
    char dir[512];
    struct chunk_rec *recs;
    size_t n;
    int rc;
    size_t chunks, mobs;
};

static int rec_cmp(const void *a, const void *b)
{
    const struct chunk_rec *x = a, *y = b;
    int32_t ax, az, bx, bz;
    unkey(x->key, &ax, &az), unkey(y->key, &bx, &bz);
    int32_t arx = ax >> 5, arz = az >> 5, brx = bx >> 5, brz = bz >> 5;
    if (arx != brx) return arx < brx ? -1 : 1;
    if (arz != brz) return arz < brz ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return 0;
}

/* Worker: one region's chunks recs[a .. b), each chunk's run of records. */
static int write_region(struct save_job *sj, worker_ctx *w, size_t a, size_t b)
{
    int32_t cx, cz;
    unkey(sj->recs[a].key, &cx, &cz);
    int32_t rx = cx >> 5, rz = cz >> 5;
    char path[600];
    snprintf(path, sizeof path, "%s/entities/r.%d.%d.mca", sj->dir, rx, rz);
    region *r;
    int rc = region_open(&r, path, rx, rz, true);
    if (rc < 0) return rc;
    region_write writes[1024];
    uint8_t *bufs[1024];
    size_t nw = 0;
    buf_t nbt;
    buf_init(&nbt, ANVIL_MAX_NBT);
    for (size_t i = a; i < b && nw < 1024;) {
        size_t j = i;
        while (j < b && sj->recs[j].key == sj->recs[i].key) j++;
        struct mob_record *list = malloc((j - i) * sizeof *list);
        size_t n = 0;
        if (!list) {
            rc = -ENOMEM;
            break;
        }
        for (size_t k = i; k < j; k++)
            if (sj->recs[k].r.type >= 0) list[n++] = sj->recs[k].r;
        unkey(sj->recs[i].key, &cx, &cz);
        buf_reset(&nbt);
        mob_chunk_encode(&nbt, cx, cz, list, n);
        free(list);
        sj->mobs += n;
        if (nbt.failed) {
            rc = -EFBIG;
            i = j;
            continue;
        }
        size_t bound = libdeflate_zlib_compress_bound(w->compressor, nbt.len);
        uint8_t *z = malloc(bound);
        size_t zl = z ? libdeflate_zlib_compress(w->compressor, nbt.data, nbt.len, z, bound) : 0;
        if (!zl) {
            free(z);
            rc = -ENOMEM;
            i = j;
            continue;
        }
        bufs[nw] = z;
        writes[nw] = (region_write){.lx = cx & 31, .lz = cz & 31, .data = z, .len = zl};
        nw++;
        i = j;
    }
    buf_free(&nbt);
    int wr = region_write_batch(r, writes, nw, (uint32_t)time(NULL));
    if (wr < 0 && rc == 0) rc = wr;
    sj->chunks += nw;
    for (size_t k = 0; k < nw; k++) free(bufs[k]);
    region_close(r);
    return rc;
}

static void save_run(job *j, worker_ctx *w)
{
    struct save_job *sj = (struct save_job *)j;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/entities", sj->dir);
    int rc = fio_mkdir(dir);
    if (rc < 0 && rc != -EEXIST) {
        sj->rc = rc;
        return;
    }
    qsort(sj->recs, sj->n, sizeof *sj->recs, rec_cmp);
    for (size_t a = 0; a < sj->n;) {
        int32_t cx, cz, bx, bz;
        unkey(sj->recs[a].key, &cx, &cz);
        size_t b = a;
        while (b < sj->n) {
            unkey(sj->recs[b].key, &bx, &bz);
            if (bx >> 5 != cx >> 5 || bz >> 5 != cz >> 5) break;
            b++;
        }
        int r = write_region(sj, w, a, b);
        if (r < 0) {
            if (!sj->rc) sj->rc = r;
            log_error("%s/entities/r.%d.%d.mca: saving entities failed: %s", sj->dir, cx >> 5,
                      cz >> 5, strerror(-r));
        }
        a = b;
    }
}

static void start_save(uint32_t ticket);

static void save_done(job *j)
{
    struct save_job *sj = (struct save_job *)j;
    save_running = false;
    if (sj->rc == 0) log_debug("Entities: %zu mobs in %zu chunks saved", sj->mobs, sj->chunks);
    store_round_leave(sj->ticket, STORE_ITEM_CHUNK, sj->rc);
    free(sj->recs);
    free(sj);
    if (npending) {
        uint32_t t = pending_tickets[0];
        memmove(pending_tickets, pending_tickets + 1, --npending * sizeof *pending_tickets);
        start_save(t);
    }
}

static void start_save(uint32_t ticket)
{
    struct save_job *sj = calloc(1, sizeof *sj);
    size_t cap = mob_used + known.n + 1;
    if (sj) sj->recs = malloc(cap * sizeof *sj->recs);
    if (!sj || !sj->recs) {
        if (sj) free(sj);
        log_error("Entities: out of memory; not saved");
        store_round_leave(ticket, STORE_ITEM_CHUNK, -ENOMEM);
        return;
    }
    sj->ticket = ticket;
    snprintf(sj->dir, sizeof sj->dir, "%s", store_dir());
    struct keyset now = {0};
    for (uint32_t i = 0; i < mob_top; i++) {
        const struct mob *m = &mob_slots[i];
        if (!m->used || m->removed || m->dead) continue;
        int32_t cx = (int32_t)floor(m->x / 16.0), cz = (int32_t)floor(m->z / 16.0);
        uint64_t k = key_of(cx, cz);
        if (ks_has(&foreign, k)) continue;
        struct chunk_rec *c = &sj->recs[sj->n++];
        c->key = k;
        mob_to_record(m, &c->r);
        ks_add(&now, k);
    }
    for (size_t i = 0; i < known.cap; i++) /* chunks emptied since the last save */
        if (known.k[i] && !ks_has(&now, known.k[i]) && sj->n < cap) {
            struct chunk_rec *c = &sj->recs[sj->n++];
            c->key = known.k[i];
            mob_record_init(&c->r);
        }
    ks_free(&known);
    known = now;
    save_running = true;
    sj->j.run = save_run;
    sj->j.done = save_done;
    workers_run(&sj->j);
}

static void ms_save_round(void)
{
    if (!store_active() || (!load_done && !load_running)) return; /* nothing loaded or made yet */
    uint32_t t = store_round_join();
    if (!t) return;
    if (save_running || !load_done) {
        if (npending < sizeof pending_tickets / sizeof *pending_tickets)
            pending_tickets[npending++] = t;
        else
            store_round_leave(t, STORE_ITEM_CHUNK, 0); /* a queued save covers it */
        return;
    }
    start_save(t);
}

void ms_init(void)
{
    store_set_entity_saver(ms_save_round);
}

/* ------------------------------------------------------------ loading */

struct load_job {
    job j;
    char dir[512];
    struct mob_record *recs;
    size_t n, cap;
    uint64_t *chunks, *foreign;
    size_t nchunks, chunks_cap, nforeign, foreign_cap;
    size_t skipped, corrupt, errors_logged;
    /* the chunk being parsed */
    uint64_t key;
    bool chunk_foreign;
};

static void push_key(uint64_t **arr, size_t *n, size_t *cap, uint64_t k)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        uint64_t *p = realloc(*arr, nc * sizeof *p);
        if (!p) return;
        *arr = p, *cap = nc;
    }
    (*arr)[(*n)++] = k;
}

static void on_record(void *ctx, const struct mob_record *r)
{
    struct load_job *lj = ctx;
    if (!mobs_supported(r->type)) {
        lj->chunk_foreign = true;
        return;
    }
    if (lj->n >= MOBS_MAX) return;
    if (lj->n == lj->cap) {
        size_t nc = lj->cap ? lj->cap * 2 : 256;
        struct mob_record *p = realloc(lj->recs, nc * sizeof *p);
        if (!p) return;
        lj->recs = p, lj->cap = nc;
    }
    lj->recs[lj->n++] = *r;
}

static void load_region(struct load_job *lj, const char *path, int32_t rx, int32_t rz)
{
    region *r;
    int rc = region_open(&r, path, rx, rz, false);
    if (rc < 0) {
        log_error("%s: cannot open: %s", path, strerror(-rc));
        return;
    }
    for (int i = 0; i < 1024; i++) {
        region_chunk c;
        rc = region_read(r, i & 31, i >> 5, &c);
        if (rc == 0) continue;
        int32_t cx = rx * 32 + (i & 31), cz = rz * 32 + (i >> 5);
        if (rc < 0) {
            lj->corrupt++;
            log_warn("%s: entities of chunk [%d, %d] skipped: %s", path, cx, cz,
                     rc == REGION_E_CORRUPT ? c.why : strerror(-rc));
            if (rc == REGION_E_CORRUPT) region_chunk_free(&c);
            continue;
        }
        uint8_t *nbt;
        size_t nlen;
        int d = anvil_decompress(c.type, c.data, c.len, ANVIL_MAX_NBT, &nbt, &nlen);
        region_chunk_free(&c);
        if (d < 0) {
            lj->corrupt++;
            log_warn("%s: entities of chunk [%d, %d] skipped: bad compressed data", path, cx, cz);
            continue;
        }
        char why[160] = "";
        size_t skipped = 0;
        lj->chunk_foreign = false;
        size_t before = lj->n;
        int32_t pos[2];
        if (mob_chunk_parse(nbt, nlen, pos, on_record, lj, &skipped, why, sizeof why) < 0) {
            lj->corrupt++;
            log_warn("%s: entities of chunk [%d, %d] skipped: %s", path, cx, cz, why);
        } else if (skipped) {
            lj->skipped += skipped;
            lj->chunk_foreign = true; /* keep what could not be read */
            log_warn("%s: chunk [%d, %d]: %zu entity record(s) skipped (%s)", path, cx, cz, skipped,
                     why);
        }
        free(nbt);
        uint64_t k = key_of(cx, cz);
        if (lj->chunk_foreign)
            push_key(&lj->foreign, &lj->nforeign, &lj->foreign_cap, k);
        else if (lj->n > before)
            push_key(&lj->chunks, &lj->nchunks, &lj->chunks_cap, k);
    }
    region_close(r);
}

static void load_run(job *j, worker_ctx *w)
{
    (void)w;
    struct load_job *lj = (struct load_job *)j;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/entities", lj->dir);
    DIR *d = opendir(dir);
    if (!d) return; /* none yet */
    struct dirent *de;
    while ((de = readdir(d))) {
        int32_t rx, rz;
        char tail;
        if (sscanf(de->d_name, "r.%d.%d.mc%c", &rx, &rz, &tail) != 3 || tail != 'a') continue;
        char path[900], back[64];
        snprintf(back, sizeof back, "r.%d.%d.mca", rx, rz);
        if (strcmp(back, de->d_name) != 0) continue; /* r.0.0.mca.corrupt-... */
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        load_region(lj, path, rx, rz);
    }
    closedir(d);
}

static void load_done_cb(job *j)
{
    struct load_job *lj = (struct load_job *)j;
    size_t made = 0;
    for (size_t i = 0; i < lj->n; i++) {
        char err[96];
        if (mob_spawn_loaded(&lj->recs[i], err, sizeof err) >= 0) made++;
    }
    for (size_t i = 0; i < lj->nchunks; i++) ks_add(&known, lj->chunks[i]);
    for (size_t i = 0; i < lj->nforeign; i++) ks_add(&foreign, lj->foreign[i]);
    if (made || lj->skipped || lj->corrupt)
        log_info("Entities: %zu mobs loaded from entities/ (%zu records and %zu chunks skipped)",
                 made, lj->skipped, lj->corrupt);
    free(lj->recs), free(lj->chunks), free(lj->foreign);
    free(lj);
    load_running = false;
    load_done = true;
    if (npending && !save_running) {
        uint32_t t = pending_tickets[0];
        memmove(pending_tickets, pending_tickets + 1, --npending * sizeof *pending_tickets);
        start_save(t);
    }
}

void ms_load_start(void)
{
    if (load_running || load_done) return;
    if (!store_active()) {
        load_done = true;
        return;
    }
    struct load_job *lj = calloc(1, sizeof *lj);
    if (!lj) {
        log_error("Entities: out of memory; entities/ not loaded");
        load_done = true;
        return;
    }
    snprintf(lj->dir, sizeof lj->dir, "%s", store_dir());
    lj->j.run = load_run;
    lj->j.done = load_done_cb;
    load_running = true;
    workers_run(&lj->j);
}

void ms_free(void)
{
    ks_free(&known);
    ks_free(&foreign);
    load_done = load_running = save_running = false;
    npending = 0;
}
