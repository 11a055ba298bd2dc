/*
 * world.c — see world.h. Four parts: the hash map of entries, the request
 * queue (a min-heap on the game thread feeding at most gen_slots generation
 * jobs to the pool), the jobs themselves, and the idle list the sweep
 * unloads from (oldest first), with malloc_trim after large unloads.
 */
#include "world/world.h"

#include <errno.h>
#include <libdeflate.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/list.h"
#include "core/log.h"
#include "core/workers.h"
#include "data/biomes.h"
#include "data/blocks.h"
#include "proto/frame.h"
#include "world/anvil.h"
#include "world/light.h"
#include "world/store.h"

enum job_kind { JOB_GENERATE, JOB_REENCODE };

/*
 * A deep copy of an entry's blocks at one version, read by the workers
 * lighting its neighbours. References are taken and given back on the game
 * thread only (submit and done), so no atomics; the entry's own reference
 * lasts until the next world_flush_edits, so the jobs of one tick (a column
 * and the neighbours it makes stale) share one copy.
 */
struct chunk_snap {
    chunk c;
    int refs;
    uint32_t version;
};

struct chunk_job {
    job j;
    world *w;
    chunk_entry *e;
    enum job_kind kind;
    uint32_t version;
    chunk snapshot; /* JOB_REENCODE: a deep copy of the blocks */
    buf_t frame;
    buf_t light; /* JOB_REENCODE: framed Update Light */
    int64_t gen_ns, encode_ns;
    size_t raw_bytes;
    int failed;
    bool loaded;        /* JOB_GENERATE: read from the region file, not generated */
    int load_rc;        /* JOB_GENERATE: -errno when the region file could not be read */
    anvil_extra *extra; /* JOB_GENERATE: tags kept from disk */
    /* Light: snapshots of the loaded neighbours (index as light_view, [4]
     * unused), taken on the game thread at submit; bit k of nb_had set when
     * neighbour k was loaded then. */
    struct chunk_snap *nb[9];
    uint16_t nb_had;
    bool relight_only;       /* JOB_REENCODE for light alone: blocks unchanged */
    bool light_unchanged;    /* relight_only and the light came out the same: no frame */
    uint64_t old_light_hash; /* the entry's light_hash at submit */
    uint64_t light_hash;
    int64_t light_ns;
};

/* ------------------------------------------------------------------ hash map */

static inline size_t slot_of(const world *w, int32_t x, int32_t z)
{
    uint64_t k = (uint64_t)(uint32_t)x << 32 | (uint32_t)z;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (w->nbuckets - 1);
}

static chunk_entry *find(world *w, int32_t x, int32_t z)
{
    for (chunk_entry *e = w->buckets[slot_of(w, x, z)]; e; e = e->next)
        if (e->c.x == x && e->c.z == z) return e;
    return NULL;
}

static void grow(world *w)
{
    size_t nb = w->nbuckets * 2;
    chunk_entry **nbk = calloc(nb, sizeof *nbk);
    if (!nbk) return; /* keep the longer chains */
    size_t old = w->nbuckets;
    chunk_entry **ob = w->buckets;
    w->buckets = nbk;
    w->nbuckets = nb;
    for (size_t i = 0; i < old; i++) {
        chunk_entry *e = ob[i];
        while (e) {
            chunk_entry *n = e->next;
            size_t s = slot_of(w, e->c.x, e->c.z);
            e->next = nbk[s];
            nbk[s] = e;
            e = n;
        }
    }
    free(ob);
}

static void snap_drop(chunk_entry *e);

static void entry_free(chunk_entry *e)
{
    free(e->waiters);
    snap_drop(e);
    list_remove(&e->stale_link);
    if (e->extra) {
        anvil_extra_free(e->extra);
        free(e->extra);
    }
    chunk_free(&e->c);
    buf_free(&e->frame);
    free(e);
}

/* Generation jobs the pool may hold at once: two per worker thread, so a
 * worker never waits for the game thread to hand it the next one, and the
 * pool's FIFO (shared with saves) never holds a backlog. */
static size_t gen_slots(void)
{
    int n = workers_count();
    return n > 0 ? 2 * (size_t)n : 1;
}

/* Trimming (maybe_trim): after this many unloads, at most once per interval. */
#define TRIM_AFTER_CHUNKS 256
#define TRIM_INTERVAL_MS  5000

/* debug-chunk-gen-delay-ms (fault injection for tests, docs/hardening.md):
 * set once before the workers start, read by them afterwards. */
static int gen_delay_ms;

int world_init(world *w, const struct server_config *cfg, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    list_init(&w->idle);
    list_init(&w->snaps);
    list_init(&w->stale);
    gen_delay_ms = cfg->debug_chunk_gen_delay_ms;
    w->nbuckets = 1024;
    w->buckets = calloc(w->nbuckets, sizeof *w->buckets);
    w->compression_threshold = cfg->compression_threshold;
    w->req_per_second = cfg->chunk_requests_per_second;
    w->req_in_flight_max = cfg->chunk_requests_in_flight;
    if (w->req_in_flight_max > WORLD_IN_FLIGHT_MAX) w->req_in_flight_max = WORLD_IN_FLIGHT_MAX;
    w->idle_max = cfg->chunk_idle_max;
    if (!w->buckets) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (terrain_init(&w->terrain, cfg->level_type, cfg->seed, cfg->generator_settings, err,
                     errlen) < 0)
        return -1;
    return 0;
}

void world_free(world *w)
{
    uint64_t made = w->chunks_generated + w->chunks_loaded;
    if (made)
        log_info("chunk light: %llu columns generated or loaded, %llu relights (%llu changed the "
                 "light), %.3f ms of light (worker wall time) per column",
                 (unsigned long long)made, (unsigned long long)w->relights,
                 (unsigned long long)w->relights_changed,
                 (double)w->light_ns_total / 1e6 / (double)made);
    for (size_t i = 0; w->buckets && i < w->nbuckets; i++) {
        chunk_entry *e = w->buckets[i];
        while (e) {
            chunk_entry *n = e->next;
            entry_free(e);
            e = n;
        }
    }
    free(w->buckets);
    free(w->heap);
    memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------------ job bodies */

/* The light of `c` with the job's neighbour copies, in wire form, into
 * `lw`; its hash in jb->light_hash. -1 when out of memory. */
static int light_into(struct chunk_job *jb, const chunk *c, buf_t *lw)
{
    int64_t t0 = clock_ns();
    chunk_light *l = malloc(sizeof *l);
    if (!l) return -1;
    light_view v;
    for (int k = 0; k < 9; k++) v.c[k] = jb->nb[k] ? &jb->nb[k]->c : NULL;
    v.c[4] = c;
    int rc = light_compute_view(&v, l);
    if (rc == 0) light_write(l, lw);
    free(l);
    jb->light_hash = light_wire_hash(lw->data, lw->len);
    jb->light_ns = clock_ns() - t0;
    return rc < 0 || lw->failed ? -1 : 0;
}

/* Encodes `c` into job->frame (framed at the threshold) with the worker's
 * compressor, and for a re-encode whose light changed, job->light (Update
 * Light). A relight that changes nothing encodes nothing. */
static void encode_into(struct chunk_job *jb, const chunk *c, worker_ctx *ctx)
{
    int64_t t0 = clock_ns();
    buf_t *raw = &ctx->scratch;
    buf_t lw;
    buf_init(&lw, 0); /* at most 2 × 24 arrays of 2 KiB and the masks */
    if (light_into(jb, c, &lw) < 0) {
        jb->failed = 1;
        goto out;
    }
    bool changed = jb->light_hash != jb->old_light_hash;
    if (jb->relight_only && !changed) {
        jb->light_unchanged = true;
        goto out;
    }
    buf_reset(raw);
    if (chunk_encode_packet_lit(c, lw.data, lw.len, raw) < 0 || raw->failed) {
        jb->failed = 1;
        goto out;
    }
    jb->raw_bytes = raw->len;
    buf_init(&jb->frame, FRAME_MAX_PACKET + 64);
    if (frame_encode(&jb->frame, raw->data, raw->len, jb->w->compression_threshold,
                     ctx->compressor) < 0)
        jb->failed = 1;
    if (jb->kind == JOB_REENCODE && changed) {
        buf_reset(raw);
        buf_init(&jb->light, FRAME_MAX_PACKET + 64);
        if (chunk_encode_light_packet_lit(c->x, c->z, lw.data, lw.len, raw) < 0 ||
            frame_encode(&jb->light, raw->data, raw->len, jb->w->compression_threshold,
                         ctx->compressor) < 0)
            buf_free(&jb->light);
    }
out:
    buf_free(&lw);
    jb->encode_ns = clock_ns() - t0;
}

static void run_chunk_job(job *j, worker_ctx *ctx)
{
    struct chunk_job *jb = (struct chunk_job *)j;
    if (jb->kind == JOB_GENERATE) {
        if (jb->w->persistent) {
            /* The region file first; generate only what is not there. */
            anvil_extra *x = calloc(1, sizeof *x);
            int r = x ? store_load_chunk(jb->e->c.x, jb->e->c.z, &jb->e->c, x) : -ENOMEM;
            if (r == 1) {
                jb->loaded = true;
                jb->extra = x;
            } else {
                free(x);
            }
            if (r < 0) {
                jb->load_rc = r;
                jb->failed = 1;
                return;
            }
        }
        if (gen_delay_ms > 0 && !jb->loaded)
            nanosleep(&(struct timespec){gen_delay_ms / 1000, (gen_delay_ms % 1000) * 1000000L},
                      NULL);
        int64_t t0 = clock_ns();
        if (!jb->loaded && terrain_generate(&jb->w->terrain, &jb->e->c) < 0) {
            jb->failed = 1;
            return;
        }
        jb->gen_ns = clock_ns() - t0;
        encode_into(jb, &jb->e->c, ctx);
    } else {
        encode_into(jb, &jb->snapshot, ctx);
    }
}

static void mark_dirty(world *w, chunk_entry *e)
{
    if (e->dirty) return;
    e->dirty = true;
    e->next_dirty = w->dirty;
    w->dirty = e;
}

/* ------------------------------------------------------------ light across columns */

/* e's light may have changed. Relit from the stale list next tick, unless
 * nobody views or waits for it: then when someone takes its frame
 * (world_take_frame), so chunks left behind are not relit for nobody and
 * still unload (a stale entry is not dirty). */
static void light_stale(world *w, chunk_entry *e)
{
    e->light_stale = true;
    if (!e->on_idle && !list_linked(&e->stale_link)) list_push_back(&w->stale, &e->stale_link);
}

static void snap_put(struct chunk_snap *s)
{
    if (s && --s->refs == 0) {
        chunk_free(&s->c);
        free(s);
    }
}

static void snap_drop(chunk_entry *e)
{
    if (!e->snap) return;
    list_remove(&e->snap_link);
    snap_put(e->snap);
    e->snap = NULL;
}

/* e's blocks as they are now, with a reference for the caller; NULL when out of memory. */
static struct chunk_snap *snap_get(world *w, chunk_entry *e)
{
    if (e->snap && e->snap->version != e->version) snap_drop(e);
    if (!e->snap) {
        struct chunk_snap *s = malloc(sizeof *s);
        if (!s || chunk_clone(&s->c, &e->c) < 0) {
            free(s);
            return NULL;
        }
        s->refs = 1;
        s->version = e->version;
        e->snap = s;
        list_push_back(&w->snaps, &e->snap_link);
    }
    e->snap->refs++;
    return e->snap;
}

/* Snapshots of the loaded neighbours of (cx, cz) for a job (game thread).
 * One that cannot be made (out of memory) is left out: the neighbour then
 * looks unloaded and light_after_job asks for another relight. */
static void view_take(world *w, struct chunk_job *jb, int32_t cx, int32_t cz)
{
    for (int k = 0; k < 9; k++) {
        chunk_entry *n = k == 4 ? NULL : world_loaded(w, cx + k % 3 - 1, cz + k / 3 - 1);
        if (n && (jb->nb[k] = snap_get(w, n))) jb->nb_had |= (uint16_t)(1u << k);
    }
}

static void view_free(struct chunk_job *jb)
{
    for (int k = 0; k < 9; k++) {
        snap_put(jb->nb[k]);
        jb->nb[k] = NULL;
    }
}

/* After a job lit e (game thread): a neighbour loaded since the job's
 * copies were taken makes e stale; a column that just arrived makes every
 * loaded neighbour stale (their light never saw it: vanilla relights the
 * neighbours of a chunk whose light comes on, too). */
static void light_after_job(world *w, struct chunk_job *jb, bool arrived)
{
    chunk_entry *e = jb->e;
    e->light_hash = jb->light_hash;
    w->light_ns_total += (uint64_t)jb->light_ns;
    for (int k = 0; k < 9; k++) {
        if (k == 4) continue;
        chunk_entry *n = world_loaded(w, e->c.x + k % 3 - 1, e->c.z + k / 3 - 1);
        if (!n) continue;
        if (!(jb->nb_had & (1u << k))) light_stale(w, e);
        if (arrived) light_stale(w, n);
    }
}

/* ------------------------------------------------------------------ entries */

static chunk_entry *entry_new(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    chunk_init(&e->c, x, z, BLOCK_AIR, BIOME_PLAINS);
    e->state = CHUNK_QUEUED;
    e->heap_index = -1;
    list_init(&e->idle_link);
    list_init(&e->snap_link);
    list_init(&e->stale_link);
    buf_init(&e->frame, 0);
    if (w->count >= w->nbuckets) grow(w);
    size_t s = slot_of(w, x, z);
    e->next = w->buckets[s];
    w->buckets[s] = e;
    w->count++;
    return e;
}

/* Unlinks e from the hash map and frees it (invariants 3, 4, 6, 7: no job,
 * no viewer, nobody waiting, off the heap and the idle list). */
static void entry_drop(world *w, chunk_entry *e)
{
    chunk_entry **pp = &w->buckets[slot_of(w, e->c.x, e->c.z)];
    while (*pp != e) pp = &(*pp)->next;
    *pp = e->next;
    entry_free(e);
    w->count--;
}

/* ------------------------------------------------------------------ idle list */

static void idle_remove(world *w, chunk_entry *e)
{
    if (!e->on_idle) return;
    list_remove(&e->idle_link);
    e->on_idle = false;
    w->idle_count--;
}

/* Invariant 7 after viewers, wanted or state changed. A chunk that was never
 * viewed goes to the front with idle_since 0 (the next sweep may unload it);
 * a released one to the back, idle from now_ms. */
static void idle_update(world *w, chunk_entry *e, int64_t now_ms, bool never_viewed)
{
    bool idle = e->state == CHUNK_READY && e->viewers == 0 && e->wanted == 0;
    if (!idle) {
        idle_remove(w, e);
        return;
    }
    if (e->on_idle) return;
    e->on_idle = true;
    w->idle_count++;
    e->idle_since_ms = never_viewed ? 0 : now_ms;
    if (never_viewed)
        list_push_front(&w->idle, &e->idle_link);
    else
        list_push_back(&w->idle, &e->idle_link);
}

/* ------------------------------------------------------------ request heap */

static bool heap_less(const chunk_entry *a, const chunk_entry *b)
{
    if (a->key != b->key) return a->key < b->key;
    return (int32_t)(a->seq - b->seq) < 0;
}

static void heap_set(world *w, size_t i, chunk_entry *e)
{
    w->heap[i] = e;
    e->heap_index = (int32_t)i;
}

static void sift_up(world *w, size_t i)
{
    chunk_entry *e = w->heap[i];
    while (i > 0 && heap_less(e, w->heap[(i - 1) / 2])) {
        heap_set(w, i, w->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_set(w, i, e);
}

static void sift_down(world *w, size_t i)
{
    chunk_entry *e = w->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= w->heap_len) break;
        if (c + 1 < w->heap_len && heap_less(w->heap[c + 1], w->heap[c])) c++;
        if (!heap_less(w->heap[c], e)) break;
        heap_set(w, i, w->heap[c]);
        i = c;
    }
    heap_set(w, i, e);
}

/* Queues e (QUEUED, no job) under e->key; -1 when out of memory. */
static int heap_push(world *w, chunk_entry *e)
{
    if (w->heap_len == w->heap_cap) {
        size_t ncap = w->heap_cap ? w->heap_cap * 2 : 256;
        chunk_entry **n = realloc(w->heap, ncap * sizeof *n);
        if (!n) return -1;
        w->heap = n;
        w->heap_cap = ncap;
    }
    e->seq = w->next_seq++;
    heap_set(w, w->heap_len++, e);
    sift_up(w, w->heap_len - 1);
    return 0;
}

static void heap_remove(world *w, chunk_entry *e)
{
    size_t i = (size_t)e->heap_index;
    chunk_entry *last = w->heap[--w->heap_len];
    e->heap_index = -1;
    if (i == w->heap_len) return;
    heap_set(w, i, last);
    sift_up(w, i);
    sift_down(w, (size_t)last->heap_index);
}

static void heap_rekey(world *w, chunk_entry *e, uint32_t key)
{
    if (e->heap_index < 0 || key == e->key) return;
    bool up = key < e->key;
    e->key = key;
    if (up)
        sift_up(w, (size_t)e->heap_index);
    else
        sift_down(w, (size_t)e->heap_index);
}

/* ------------------------------------------------------------------ jobs */

static void feed(world *w);
static void notify_ready(world *w, chunk_entry *e);

static void done_generate(struct chunk_job *jb, bool cancelled)
{
    world *w = jb->w;
    chunk_entry *e = jb->e;
    w->generating--;
    if (!cancelled && !jb->failed) {
        e->state = CHUNK_READY;
        w->block_epoch++;
        e->pinned = false;
        buf_free(&e->frame);
        e->frame = jb->frame;
        e->frame_version = e->version;
        e->extra = jb->extra;
        jb->extra = NULL;
        e->save.saved_version = e->version;
        if (jb->loaded) {
            w->chunks_loaded++;
        } else {
            w->chunks_generated++;
            if (w->persistent) {
                /* Generated blocks are saved like edits (as vanilla does). */
                e->save.saved_version = e->version - 1;
                world_save_list_move(w, e, SAVE_LIST_UNSAVED);
            }
        }
        w->chunks_encoded++;
        w->gen_ns_total += (uint64_t)jb->gen_ns;
        w->encode_ns_total += (uint64_t)jb->encode_ns;
        w->encoded_bytes_raw += jb->raw_bytes;
        w->encoded_bytes_framed += e->frame.len;
        jb->frame.data = NULL;
        idle_update(w, e, 0, true); /* nobody waits any more: first to go */
        light_after_job(w, jb, true);
        notify_ready(w, e);
        if (w->on_column_ready)
            w->on_column_ready(w, e); /* issue 21: saved ticks, random tickers */
        return;
    }
    bool load_failed = !cancelled && jb->load_rc < 0;
    if (load_failed) {
        /* Maybe transient (EIO): never generate over what may be good data. */
        w->load_failures++;
        e->retry_ms = clock_ms() + 2000;
        if (w->load_failures < 20 || w->load_failures % 1000 == 0)
            log_error("chunk %d,%d: cannot read it from its region file: %s; retrying "
                      "in 2 s (%llu load failures so far)",
                      e->c.x, e->c.z, strerror(-jb->load_rc), (unsigned long long)w->load_failures);
    } else if (!cancelled) {
        log_error("chunk %d,%d: generation failed (out of memory)", e->c.x, e->c.z);
    }
    if (jb->extra) {
        anvil_extra_free(jb->extra);
        free(jb->extra);
        jb->extra = NULL;
    }
    /* Back to QUEUED with nothing in it; whoever still wants it starts over. */
    chunk_free(&e->c);
    chunk_init(&e->c, e->c.x, e->c.z, BLOCK_AIR, BIOME_PLAINS);
    e->state = CHUNK_QUEUED;
    if (cancelled) return; /* stopping: world_free takes it */
    if (e->wanted == 0 && !e->pinned) {
        entry_drop(w, e);
    } else if (!load_failed && heap_push(w, e) < 0) {
        e->retry_ms = clock_ms() + 1000; /* out of memory: world_request retries later */
    }
    /* A load failure waits out retry_ms off the heap (world_request requeues it). */
}

static void done_chunk_job(job *j)
{
    struct chunk_job *jb = (struct chunk_job *)j;
    world *w = jb->w;
    chunk_entry *e = jb->e;
    e->jobs--;
    if (jb->kind == JOB_GENERATE) {
        done_generate(jb, j->cancelled);
        if (!j->cancelled) feed(w); /* a slot is free (never while the pool stops) */
    } else {
        e->reencoding = false;
        w->relighting -= jb->relight_only;
        chunk_free(&jb->snapshot);
        if (!j->cancelled && !jb->failed) {
            if (jb->relight_only) w->relights++;
            if (jb->relight_only && !jb->light_unchanged) w->relights_changed++;
            if (!jb->light_unchanged) {
                w->chunks_encoded++;
                w->encode_ns_total += (uint64_t)jb->encode_ns;
            }
            if (jb->version == e->version && !jb->light_unchanged) {
                buf_free(&e->frame);
                e->frame = jb->frame;
                e->frame_version = jb->version;
                jb->frame.data = NULL;
                notify_ready(w, e);
            }
            /* The light sent is that of the newest blocks the client has
             * (Block Updates go out at once), so it goes out even when a
             * newer edit makes this frame stale. */
            if (jb->light.data && w->on_relit) w->on_relit(e, jb->light.data, jb->light.len);
            if (jb->version == e->version) light_after_job(w, jb, false);
        }
        if (!j->cancelled && e->frame_version != e->version) mark_dirty(w, e);
        if (!j->cancelled && e->light_stale) light_stale(w, e);
    }
    buf_free(&jb->frame);
    buf_free(&jb->light);
    view_free(jb);
    free(jb);
}

static void submit(struct chunk_job *jb)
{
    jb->j.run = run_chunk_job;
    jb->j.done = done_chunk_job;
    jb->e->jobs++;
    if (workers_count() > 0)
        workers_submit(&jb->j);
    else
        workers_run_inline(&jb->j);
}

/* Starts the load-or-generate job for a QUEUED entry off the heap; -1 when
 * out of memory. */
static int submit_generate(world *w, chunk_entry *e)
{
    struct chunk_job *jb = calloc(1, sizeof *jb);
    if (!jb) return -1;
    jb->w = w;
    jb->e = e;
    jb->kind = JOB_GENERATE;
    view_take(w, jb, e->c.x, e->c.z);
    e->state = CHUNK_GENERATING;
    w->generating++;
    submit(jb);
    return 0;
}

/* Hands the nearest queued requests to the pool while it has free slots.
 * Not re-entered: without a pool the job runs (and finishes) inside submit. */
static void feed(world *w)
{
    if (w->feeding) return;
    w->feeding = true;
    while (w->heap_len > 0 && (size_t)w->generating < gen_slots()) {
        chunk_entry *e = w->heap[0];
        heap_remove(w, e);
        if (submit_generate(w, e) < 0) {
            heap_push(w, e); /* cannot fail: the slot was just freed */
            break;
        }
    }
    w->feeding = false;
}

/* A QUEUED entry off the heap (a failed load, or out of memory) goes back
 * in once its retry time has passed. */
static void requeue_due(world *w, chunk_entry *e)
{
    if (e->state != CHUNK_QUEUED || e->heap_index >= 0 || e->jobs > 0) return;
    if (e->retry_ms && clock_ms() < e->retry_ms) return;
    if (heap_push(w, e) == 0) feed(w);
}

/* One requester fewer for e; a QUEUED entry nobody wants is dropped before
 * any work was done on it. */
static void unwant(world *w, chunk_entry *e, int64_t now_ms)
{
    if (!e || e->wanted <= 0) return;
    if (--e->wanted > 0) return;
    if (e->state == CHUNK_QUEUED && !e->pinned && e->jobs == 0) {
        if (e->heap_index >= 0) heap_remove(w, e);
        w->requests_cancelled++;
        entry_drop(w, e);
        return;
    }
    idle_update(w, e, now_ms, false);
}

/* ------------------------------------------------------------------ requesters */

static inline int req_bit(int dx, int dz)
{
    return (dx + WORLD_REQ_RADIUS) * WORLD_REQ_SIDE + (dz + WORLD_REQ_RADIUS);
}

static inline bool req_get(const uint8_t *bm, int i)
{
    return bm[i >> 3] & (1u << (i & 7));
}

static inline void req_flip(uint8_t *bm, int i)
{
    bm[i >> 3] ^= (uint8_t)(1u << (i & 7));
}

/* The heap key of a chunk dx, dz from r's centre: its squared distance,
 * plus KEY_THROTTLED while r lives on its refill (a flyer): it then queues
 * behind every requester still inside its burst (a join, a teleport, a
 * walker), whatever the distances (dx² + dz² <= 2048). One penalty for all
 * of r's requests, so r's own stay nearest first. */
#define KEY_THROTTLED 4096u
static uint32_t key_of(const world_requester *r, int dx, int dz)
{
    return (uint32_t)(dx * dx + dz * dz) + (r->throttled || r->racing ? KEY_THROTTLED : 0);
}

/* r's pace after a move to (cx, cz): the moves of about the last second. */
static void pace_update(world_requester *r, int32_t cx, int32_t cz, int64_t now_ms)
{
    int moved = abs(cx - r->cx) > abs(cz - r->cz) ? abs(cx - r->cx) : abs(cz - r->cz);
    if (moved == 0) return;
    double keep = 1.0 - (double)(now_ms - r->pace_ms) / 1000.0;
    r->pace = (keep > 0 ? r->pace * keep : 0) + (moved < 2 ? moved : 2);
    r->pace_ms = now_ms;
    if (r->pace > WORLD_RACING_PACE)
        r->racing = true;
    else if (r->pace < WORLD_RACING_PACE / 2)
        r->racing = false;
}

/* Invariant 8: r lists e. On no memory r is not told (the caller rescans). */
static void waiter_add(chunk_entry *e, world_requester *r)
{
    if (e->nwaiters == e->waiters_cap) {
        uint32_t cap = e->waiters_cap ? e->waiters_cap * 2 : 2;
        world_requester **n = realloc(e->waiters, cap * sizeof *n);
        if (!n) return;
        e->waiters = n;
        e->waiters_cap = cap;
    }
    e->waiters[e->nwaiters++] = r;
}

static void waiter_remove(chunk_entry *e, const world_requester *r)
{
    if (!e) return;
    for (uint32_t i = 0; i < e->nwaiters; i++)
        if (e->waiters[i] == r) {
            e->waiters[i] = e->waiters[--e->nwaiters];
            return;
        }
}

/* e's frame is current: tell whoever lists it (they take it on their next scan). */
static void notify_ready(world *w, chunk_entry *e)
{
    if (!w->on_ready) return;
    for (uint32_t i = 0; i < e->nwaiters; i++) w->on_ready(e->waiters[i]);
}

/*
 * Walks r's requests for a new centre (cx, cz) and view distance vd: those
 * outside are given up, the others re-keyed (exact for a chunk only r waits
 * for; else never raised).
 */
static void relist(world *w, world_requester *r, int32_t cx, int32_t cz, int vd, int64_t now_ms)
{
    uint8_t fresh[sizeof r->listed];
    memset(fresh, 0, sizeof fresh);
    if (vd > WORLD_REQ_RADIUS) vd = WORLD_REQ_RADIUS;
    int32_t ocx = r->cx, ocz = r->cz;
    r->cx = cx;
    r->cz = cz;
    for (size_t byte = 0; byte < sizeof r->listed && r->count > 0; byte++) {
        if (!r->listed[byte]) continue;
        for (int b = 0; b < 8; b++) {
            int i = (int)byte * 8 + b;
            if (!req_get(r->listed, i)) continue;
            int32_t x = ocx + i / WORLD_REQ_SIDE - WORLD_REQ_RADIUS;
            int32_t z = ocz + i % WORLD_REQ_SIDE - WORLD_REQ_RADIUS;
            int ndx = x - cx, ndz = z - cz;
            chunk_entry *e = find(w, x, z);
            if (abs(ndx) <= vd && abs(ndz) <= vd) {
                req_flip(fresh, req_bit(ndx, ndz));
                uint32_t key = key_of(r, ndx, ndz);
                if (e && (e->wanted == 1 || key < e->key)) heap_rekey(w, e, key);
            } else {
                r->count--;
                waiter_remove(e, r);
                unwant(w, e, now_ms);
            }
        }
    }
    memcpy(r->listed, fresh, sizeof fresh);
}

/* Tokens earned since the last look, up to the burst; r stops being
 * throttled once half its burst is back (hysteresis: a flyer stays
 * throttled while it flies), and racing after a second without a move. */
static void refill(world *w, world_requester *r, int64_t now_ms)
{
    double t = r->tokens + (double)(now_ms - r->refill_ms) * w->req_per_second / 1000.0;
    r->tokens = t < r->burst ? t : r->burst;
    r->refill_ms = now_ms;
    bool was = r->throttled || r->racing;
    if (r->throttled && r->tokens >= r->burst / 2.0) r->throttled = false;
    if (r->racing && now_ms - r->pace_ms >= 1000) { /* stopped for a second */
        r->racing = false;
        r->pace = 0;
    }
    if (was && !r->throttled && !r->racing) relist(w, r, r->cx, r->cz, WORLD_REQ_RADIUS, now_ms);
}

void world_requester_init(world_requester *r, int32_t cx, int32_t cz, int burst, int64_t now_ms)
{
    *r = (world_requester){.cx = cx,
                           .cz = cz,
                           .burst = burst,
                           .tokens = burst,
                           .refill_ms = now_ms,
                           .pace_ms = now_ms};
}

enum world_req_result world_request(world *w, world_requester *r, int32_t x, int32_t z,
                                    int64_t now_ms)
{
    int dx = x - r->cx, dz = z - r->cz;
    if (dx < -WORLD_REQ_RADIUS || dx > WORLD_REQ_RADIUS || dz < -WORLD_REQ_RADIUS ||
        dz > WORLD_REQ_RADIUS)
        return WORLD_REQ_FULL;
    int bit = req_bit(dx, dz);
    chunk_entry *e = find(w, x, z);
    if (req_get(r->listed, bit)) {
        if (e) requeue_due(w, e);
        return WORLD_REQ_WAITING;
    }
    if (r->count >= w->req_in_flight_max) return WORLD_REQ_FULL;
    refill(w, r, now_ms);
    uint32_t key = key_of(r, dx, dz);
    if (!e) {
        /* New work: it costs a token (refilled at req_per_second, up to burst). */
        if (r->tokens < 1) {
            w->requests_refused_budget++;
            if (!r->throttled) {
                r->throttled = true;
                relist(w, r, r->cx, r->cz, WORLD_REQ_RADIUS, now_ms);
            }
            return WORLD_REQ_BUDGET;
        }
        e = entry_new(w, x, z);
        if (!e) return WORLD_REQ_NOMEM;
        e->key = key;
        if (heap_push(w, e) < 0) {
            entry_drop(w, e);
            return WORLD_REQ_NOMEM;
        }
        r->tokens -= 1;
        w->requests_total++;
    } else if (e->heap_index >= 0) {
        if (key < e->key) heap_rekey(w, e, key); /* a nearer requester */
    } else {
        e->key = key;
        requeue_due(w, e);
    }
    e->wanted++;
    idle_update(w, e, now_ms, false);
    req_flip(r->listed, bit);
    waiter_add(e, r);
    r->count++;
    feed(w);
    return WORLD_REQ_WAITING;
}

void world_request_done(world *w, world_requester *r, int32_t x, int32_t z, int64_t now_ms)
{
    int dx = x - r->cx, dz = z - r->cz;
    if (dx < -WORLD_REQ_RADIUS || dx > WORLD_REQ_RADIUS || dz < -WORLD_REQ_RADIUS ||
        dz > WORLD_REQ_RADIUS || !req_get(r->listed, req_bit(dx, dz)))
        return;
    req_flip(r->listed, req_bit(dx, dz));
    r->count--;
    chunk_entry *e = find(w, x, z);
    waiter_remove(e, r);
    unwant(w, e, now_ms);
}

void world_requester_move(world *w, world_requester *r, int32_t cx, int32_t cz, int vd, int burst,
                          int64_t now_ms)
{
    r->burst = burst;
    refill(w, r, now_ms);
    pace_update(r, cx, cz, now_ms);
    relist(w, r, cx, cz, vd, now_ms);
}

void world_requester_clear(world *w, world_requester *r, int64_t now_ms)
{
    world_requester_move(w, r, r->cx, r->cz, -1, r->burst, now_ms);
}

/* ------------------------------------------------------------------ access */

const buf_t *world_take_frame(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = find(w, x, z);
    if (!e || e->state != CHUNK_READY || e->frame_version != e->version || e->frame.len == 0)
        return NULL;
    if (e->viewers++ == 0) idle_remove(w, e);
    if (e->light_stale) light_stale(w, e); /* put off while idle: now (Update Light) */
    return &e->frame;
}

const buf_t *world_acquire_frame(world *w, int32_t x, int32_t z)
{
    const buf_t *f = world_take_frame(w, x, z);
    if (f) return f;
    chunk_entry *e = find(w, x, z);
    if (!e) {
        e = entry_new(w, x, z);
        if (!e) return NULL;
        if (heap_push(w, e) < 0) {
            entry_drop(w, e);
            return NULL;
        }
    }
    if (e->state == CHUNK_QUEUED) {
        e->pinned = true;
        if (e->heap_index >= 0)
            heap_rekey(w, e, 0);
        else
            requeue_due(w, e);
        feed(w);
    }
    return world_take_frame(w, x, z);
}

void world_release(world *w, int32_t x, int32_t z, int64_t now_ms)
{
    chunk_entry *e = find(w, x, z);
    if (!e || e->viewers <= 0) return;
    if (--e->viewers == 0) idle_update(w, e, now_ms, false);
}

/* ------------------------------------------------------------------ unloading */

/* malloc_trim on a worker: glibc keeps freed chunk memory in its arenas
 * (the workers' ones hold what they generated) until asked to give back
 * the free pages. */
static struct trim_job {
    job j;
    world *w;
    int64_t ns;
} trim;

static void run_trim(job *j, worker_ctx *ctx)
{
    (void)ctx;
    struct trim_job *t = (struct trim_job *)j;
    int64_t t0 = clock_ns();
    malloc_trim(0);
    t->ns = clock_ns() - t0;
}

static void done_trim(job *j)
{
    struct trim_job *t = (struct trim_job *)j;
    t->w->trimming = false;
    if (j->cancelled) return;
    t->w->trims++;
    log_debug("malloc_trim after unloading chunks: %.1f ms on a worker", (double)t->ns / 1e6);
}

/* After TRIM_AFTER_CHUNKS unloads, or after any once unloading has been
 * quiet for TRIM_INTERVAL_MS (the tail of a large unload); never more often
 * than every TRIM_INTERVAL_MS. */
static void maybe_trim(world *w, size_t unloaded_now, int64_t now_ms)
{
    if (unloaded_now) w->last_unload_ms = now_ms;
    bool due = w->unloaded_since_trim >= TRIM_AFTER_CHUNKS ||
               (w->unloaded_since_trim > 0 && now_ms - w->last_unload_ms >= TRIM_INTERVAL_MS);
    if (w->trimming || !due || now_ms - w->last_trim_ms < TRIM_INTERVAL_MS) return;
    w->unloaded_since_trim = 0;
    w->last_trim_ms = now_ms;
    w->trimming = true;
    trim.w = w;
    trim.j.run = run_trim;
    trim.j.done = done_trim;
    if (workers_count() > 0)
        workers_submit(&trim.j);
    else
        workers_run_inline(&trim.j);
}

size_t world_sweep(world *w, int64_t now_ms)
{
    size_t n = 0;
    list_node *pos, *tmp;
    list_for_each_safe (pos, tmp, &w->idle) {
        chunk_entry *e = list_entry(pos, chunk_entry, idle_link);
        bool expired = now_ms - e->idle_since_ms >= WORLD_IDLE_UNLOAD_MS;
        if (!expired && w->idle_count <= (size_t)w->idle_max) break; /* the rest is younger */
        if (e->jobs == 0 && !e->dirty) {
            if (w->persistent && (world_entry_unsaved(e) || e->save.list != SAVE_LIST_NONE)) {
                /* Saved first (or still queued); a later sweep unloads it. */
                if (world_entry_unsaved(e)) store_unload_save(w, e);
            } else {
                idle_remove(w, e);
                entry_drop(w, e);
                w->chunks_unloaded++;
                w->block_epoch++;
                n++;
            }
        }
    }
    w->unloaded_since_trim += n;
    maybe_trim(w, n, now_ms);
    return n;
}

chunk_entry *world_loaded(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = find(w, x, z);
    return e && e->state == CHUNK_READY ? e : NULL;
}

int world_get_block(world *w, int32_t x, int32_t y, int32_t z, uint16_t *state)
{
    chunk_entry *e = world_loaded(w, x >> 4, z >> 4);
    if (!e) return -1;
    *state = chunk_get_block(&e->c, x & 15, y, z & 15);
    return 0;
}

int world_set_block(world *w, int32_t x, int32_t y, int32_t z, uint16_t state)
{
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return -1;
    chunk_entry *e = world_loaded(w, x >> 4, z >> 4);
    if (!e) return -1;
    uint16_t old = chunk_get_block(&e->c, x & 15, y, z & 15);
    if (old == state) return 0;
    if (chunk_set_block(&e->c, x & 15, y, z & 15, state) < 0) return -1;
    e->version++;
    w->block_epoch++;
    mark_dirty(w, e);
    if (light_states_differ(old, state)) /* light may change across the edge too */
        for (int k = 0; k < 9; k++) {
            chunk_entry *n;
            if (k != 4 && light_change_reaches(x & 15, z & 15, k % 3 - 1, k / 3 - 1) &&
                (n = world_loaded(w, (x >> 4) + k % 3 - 1, (z >> 4) + k / 3 - 1)))
                light_stale(w, n);
        }
    if (w->persistent && e->save.list == SAVE_LIST_NONE && !e->save.saving && !e->save.unsavable)
        world_save_list_move(w, e, SAVE_LIST_UNSAVED);
    if (w->on_change) w->on_change(w, e, x, y, z, old, state); /* issue 21: neighbour updates */
    return 0;
}

int world_touch(world *w, int32_t cx, int32_t cz)
{
    chunk_entry *e = world_loaded(w, cx, cz);
    if (!e) return -1;
    /* The packet holds blocks only: a current frame stays current. */
    bool current = e->frame_version == e->version && !e->dirty && !e->reencoding;
    e->version++;
    if (current)
        e->frame_version = e->version;
    else
        mark_dirty(w, e);
    if (w->persistent && e->save.list == SAVE_LIST_NONE && !e->save.saving && !e->save.unsavable)
        world_save_list_move(w, e, SAVE_LIST_UNSAVED);
    return 0;
}

bool world_entry_unsaved(const chunk_entry *e)
{
    return e->state == CHUNK_READY && e->save.saved_version != e->version && !e->save.unsavable;
}

void world_save_list_move(world *w, chunk_entry *e, int list)
{
    struct chunk_save_state *s = &e->save;
    if (s->list == list) return;
    if (s->list != SAVE_LIST_NONE) {
        if (s->prev)
            s->prev->save.next = s->next;
        else
            w->save_head[s->list] = s->next;
        if (s->next)
            s->next->save.prev = s->prev;
        else
            w->save_tail[s->list] = s->prev;
        w->save_count[s->list]--;
    }
    s->prev = s->next = NULL;
    s->list = (uint8_t)list;
    if (list == SAVE_LIST_NONE) return;
    s->prev = w->save_tail[list];
    if (s->prev)
        s->prev->save.next = e;
    else
        w->save_head[list] = e;
    w->save_tail[list] = e;
    w->save_count[list]++;
}

/* Starts a re-encode of e from a snapshot (relight: for light alone);
 * -1 when out of memory. */
static int submit_reencode(world *w, chunk_entry *e, bool relight)
{
    /* Edits only grow palettes; shrink them back before sharing. */
    for (int i = 0; i < CHUNK_SECTIONS; i++) section_compact(&e->c.sections[i]);
    struct chunk_job *jb = calloc(1, sizeof *jb);
    if (!jb || chunk_clone(&jb->snapshot, &e->c) < 0) {
        free(jb);
        return -1;
    }
    jb->w = w;
    jb->e = e;
    jb->kind = JOB_REENCODE;
    jb->version = e->version;
    jb->relight_only = relight;
    w->relighting += relight;
    jb->old_light_hash = e->light_hash;
    e->light_stale = false; /* the snapshots below see every neighbour as it is now */
    list_remove(&e->stale_link);
    view_take(w, jb, e->c.x, e->c.z);
    e->reencoding = true;
    submit(jb);
    return 0;
}

void world_flush_edits(world *w)
{
    list_node *pos, *tmp;
    list_for_each_safe (pos, tmp, &w->snaps) /* last tick's; the jobs keep theirs */
        snap_drop(list_entry(pos, chunk_entry, snap_link));
    chunk_entry *e = w->dirty;
    w->dirty = NULL;
    while (e) {
        chunk_entry *next = e->next_dirty;
        e->dirty = false;
        /* One re-encode per chunk at a time; its completion re-queues. */
        if (!e->reencoding && e->frame_version != e->version && submit_reencode(w, e, false) < 0)
            mark_dirty(w, e); /* retry next tick */
        e = next;
    }
    /* Relights, oldest first, at most gen_slots in the pool (as generation). */
    list_for_each_safe (pos, tmp, &w->stale) {
        e = list_entry(pos, chunk_entry, stale_link);
        if (e->reencoding || e->on_idle) {
            /* In flight: its completion re-queues it. Idle: relit when taken. */
            list_remove(&e->stale_link);
            continue;
        }
        if ((size_t)w->relighting >= gen_slots() || submit_reencode(w, e, true) < 0) break;
    }
}

int world_surface_y(world *w, int32_t x, int32_t z)
{
    return terrain_surface_y(&w->terrain, x, z);
}
