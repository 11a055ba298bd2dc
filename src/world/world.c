/* world.c — see world.h. */
#include "world/world.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/workers.h"
#include "data/biomes.h"
#include "data/blocks.h"
#include "proto/frame.h"
#include "world/anvil.h"
#include "world/store.h"

enum job_kind { JOB_GENERATE, JOB_REENCODE };

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

static void entry_free(chunk_entry *e)
{
    if (e->extra) {
        anvil_extra_free(e->extra);
        free(e->extra);
    }
    chunk_free(&e->c);
    buf_free(&e->frame);
    free(e);
}

/* debug-chunk-gen-delay-ms (fault injection for tests, docs/hardening.md):
 * set once before the workers start, read by them afterwards. */
static int gen_delay_ms;

int world_init(world *w, const struct server_config *cfg, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    gen_delay_ms = cfg->debug_chunk_gen_delay_ms;
    w->nbuckets = 1024;
    w->buckets = calloc(w->nbuckets, sizeof *w->buckets);
    w->compression_threshold = cfg->compression_threshold;
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
    for (size_t i = 0; w->buckets && i < w->nbuckets; i++) {
        chunk_entry *e = w->buckets[i];
        while (e) {
            chunk_entry *n = e->next;
            entry_free(e);
            e = n;
        }
    }
    free(w->buckets);
    memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------------ jobs */

/* Encodes `c` into job->frame (framed at the threshold) with the worker's compressor. */
static void encode_into(struct chunk_job *jb, const chunk *c, worker_ctx *ctx)
{
    int64_t t0 = clock_ns();
    buf_t *raw = &ctx->scratch;
    buf_reset(raw);
    if (chunk_encode_packet(c, raw) < 0 || raw->failed) {
        jb->failed = 1;
        return;
    }
    jb->raw_bytes = raw->len;
    buf_init(&jb->frame, FRAME_MAX_PACKET + 64);
    if (frame_encode(&jb->frame, raw->data, raw->len, jb->w->compression_threshold,
                     ctx->compressor) < 0)
        jb->failed = 1;
    if (jb->kind == JOB_REENCODE) {
        buf_reset(raw);
        buf_init(&jb->light, FRAME_MAX_PACKET + 64);
        if (chunk_encode_light_packet(c, raw) < 0 ||
            frame_encode(&jb->light, raw->data, raw->len, jb->w->compression_threshold,
                         ctx->compressor) < 0)
            buf_free(&jb->light);
    }
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

static void done_chunk_job(job *j)
{
    struct chunk_job *jb = (struct chunk_job *)j;
    world *w = jb->w;
    chunk_entry *e = jb->e;
    e->jobs--;
    if (jb->kind == JOB_GENERATE) {
        w->generating--;
        if (!j->cancelled && !jb->failed) {
            e->state = CHUNK_READY;
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
        } else {
            if (!j->cancelled && jb->load_rc < 0) {
                /* Maybe transient (EIO): never generate over what may be good data. */
                w->load_failures++;
                e->retry_ms = clock_ms() + 2000;
                if (w->load_failures < 20 || w->load_failures % 1000 == 0)
                    log_error("chunk %d,%d: cannot read it from its region file: %s; retrying "
                              "in 2 s (%llu load failures so far)",
                              e->c.x, e->c.z, strerror(-jb->load_rc),
                              (unsigned long long)w->load_failures);
            } else if (!j->cancelled) {
                log_error("chunk %d,%d: generation failed (out of memory)", e->c.x, e->c.z);
            }
            if (jb->extra) {
                anvil_extra_free(jb->extra);
                free(jb->extra);
                jb->extra = NULL;
            }
            /* Leave it ABSENT: the next request starts over. */
            chunk_free(&e->c);
            chunk_init(&e->c, e->c.x, e->c.z, BLOCK_AIR, BIOME_PLAINS);
            e->state = CHUNK_GENERATING;
            e->idle_since_ms = 0;
        }
    } else {
        e->reencoding = false;
        chunk_free(&jb->snapshot);
        if (!j->cancelled && !jb->failed) {
            w->chunks_encoded++;
            w->encode_ns_total += (uint64_t)jb->encode_ns;
            if (jb->version == e->version) {
                buf_free(&e->frame);
                e->frame = jb->frame;
                e->frame_version = jb->version;
                jb->frame.data = NULL;
            }
            if (jb->light.data && w->on_relit) w->on_relit(e, jb->light.data, jb->light.len);
        }
        if (!j->cancelled && e->frame_version != e->version) mark_dirty(w, e);
    }
    buf_free(&jb->frame);
    buf_free(&jb->light);
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

/* Queues a load-or-generate job for e; -1 when out of memory. */
static int submit_generate(world *w, chunk_entry *e)
{
    struct chunk_job *jb = calloc(1, sizeof *jb);
    if (!jb) return -1;
    jb->w = w;
    jb->e = e;
    jb->kind = JOB_GENERATE;
    w->generating++;
    submit(jb);
    return 0;
}

static chunk_entry *start_generation(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    chunk_init(&e->c, x, z, BLOCK_AIR, BIOME_PLAINS);
    e->state = CHUNK_GENERATING;
    buf_init(&e->frame, 0);
    if (w->count >= w->nbuckets) grow(w);
    size_t s = slot_of(w, x, z);
    e->next = w->buckets[s];
    w->buckets[s] = e;
    w->count++;
    /* Out of memory for the job: the entry stays GENERATING with no job and
     * the next request retries, as after a failed generation. */
    submit_generate(w, e);
    return e;
}

/* ------------------------------------------------------------------ access */

const buf_t *world_acquire_frame(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = find(w, x, z);
    if (!e) {
        e = start_generation(w, x, z);
        if (!e) return NULL;
    } else if (e->state == CHUNK_GENERATING && e->jobs == 0 &&
               (!e->retry_ms || clock_ms() >= e->retry_ms)) {
        /* A failed generation: try again. */
        if (submit_generate(w, e) < 0) return NULL;
    }
    if (e->state != CHUNK_READY || e->frame_version != e->version || e->frame.len == 0) return NULL;
    e->viewers++;
    return &e->frame;
}

void world_release(world *w, int32_t x, int32_t z, int64_t now_ms)
{
    chunk_entry *e = find(w, x, z);
    if (!e || e->viewers <= 0) return;
    if (--e->viewers == 0) e->idle_since_ms = now_ms;
}

size_t world_sweep(world *w, int64_t now_ms)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nbuckets; i++) {
        chunk_entry **pp = &w->buckets[i];
        while (*pp) {
            chunk_entry *e = *pp;
            if (e->viewers == 0 && e->jobs == 0 && !e->dirty &&
                now_ms - e->idle_since_ms >= WORLD_IDLE_UNLOAD_MS) {
                if (w->persistent && (world_entry_unsaved(e) || e->save.list != SAVE_LIST_NONE)) {
                    /* Saved first (or still queued); a later sweep unloads it. */
                    if (world_entry_unsaved(e)) store_unload_save(w, e);
                    pp = &e->next;
                    continue;
                }
                *pp = e->next;
                entry_free(e);
                w->count--;
                w->chunks_unloaded++;
                n++;
            } else {
                pp = &e->next;
            }
        }
    }
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
    if (chunk_get_block(&e->c, x & 15, y, z & 15) == state) return 0;
    if (chunk_set_block(&e->c, x & 15, y, z & 15, state) < 0) return -1;
    e->version++;
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

void world_flush_edits(world *w)
{
    chunk_entry *e = w->dirty;
    w->dirty = NULL;
    while (e) {
        chunk_entry *next = e->next_dirty;
        e->dirty = false;
        if (e->reencoding) {
            /* One re-encode per chunk at a time; its completion re-queues. */
        } else {
            /* Edits only grow palettes; shrink them back before sharing. */
            for (int i = 0; i < CHUNK_SECTIONS; i++) section_compact(&e->c.sections[i]);
            struct chunk_job *jb = calloc(1, sizeof *jb);
            if (!jb || chunk_clone(&jb->snapshot, &e->c) < 0) {
                free(jb);
                mark_dirty(w, e); /* retry next tick */
            } else {
                jb->w = w;
                jb->e = e;
                jb->kind = JOB_REENCODE;
                jb->version = e->version;
                e->reencoding = true;
                submit(jb);
            }
        }
        e = next;
    }
}

int world_surface_y(world *w, int32_t x, int32_t z)
{
    return terrain_surface_y(&w->terrain, x, z);
}
