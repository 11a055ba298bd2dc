/*
 * map.c — see map.h: the tile cache (a hash table of tiles by key, a FIFO
 * of tiles to render), the render jobs, and a 50 ms loop timer that starts
 * jobs and, once a second, looks for changed chunks under the tiles being
 * watched.
 *
 * A zoom-0 tile's signature mixes, for each of its 256 chunks, the world's
 * entry and its version when the chunk is loaded (READY), else 0: a block
 * edit, a chunk loading or unloading changes it. Chunks written while not
 * loaded (pre-generation) are reported by pregen's listener instead.
 */
#include "admin/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/loop.h"
#include "core/workers.h"
#include "game/game.h"
#include "game/pregen.h"
#include "net/server.h"
#include "world/maprender.h"
#include "world/store.h"

#define BUCKETS     2048
#define TIMER_MS    50
#define CHECK_MS    1000
#define CHUNKS_SIDE 16       /* chunks per zoom-0 tile side */
#define WORLD_LIMIT 30000000 /* blocks: vanilla's world border at its largest */

typedef struct tile {
    int zoom;
    int32_t x, z;
    buf_t png;             /* empty with `have`: nothing generated there */
    bool have;             /* rendered at least once */
    bool stale;            /* what is cached is older than the chunks */
    bool queued;           /* on the render queue */
    bool rendering, again; /* again: went stale while rendering */
    uint64_t sig, hash;
    int64_t asked_ms;
    struct tile *next;  /* hash chain */
    struct tile *qnext; /* render queue */
} tile;

struct render_job {
    job j;
    int zoom;
    int32_t x, z;
    uint64_t sig;
    chunk *copies[CHUNKS_SIDE * CHUNKS_SIDE]; /* zoom 0: loaded chunks; NULL: read from disk */
    bool disk;                                /* zoom 0: a world folder to read from */
    buf_t child[4];                           /* zoom > 0: NW, NE, SW, SE tiles' PNGs */
    buf_t png;
    bool empty, failed;
    int drawn;
    int64_t ns;
};

static struct {
    bool started, closed;
    loop_timer timer;
    tile *buckets[BUCKETS];
    size_t count, bytes;
    tile *qhead, *qtail;
    int in_flight;
    int64_t next_check_ms;
    struct map_stats stats;
} map;

/* ------------------------------------------------------------------ the cache */

static size_t slot(int zoom, int32_t x, int32_t z)
{
    uint64_t k = (uint64_t)(uint32_t)x * 0x9e3779b97f4a7c15ULL ^
                 (uint64_t)(uint32_t)z * 0xc2b2ae3d27d4eb4fULL ^ (uint64_t)zoom;
    k ^= k >> 29;
    return (size_t)(k % BUCKETS);
}

static tile *find(int zoom, int32_t x, int32_t z)
{
    for (tile *t = map.buckets[slot(zoom, x, z)]; t; t = t->next)
        if (t->zoom == zoom && t->x == x && t->z == z) return t;
    return NULL;
}

static void unlink_tile(tile *t)
{
    tile **pp = &map.buckets[slot(t->zoom, t->x, t->z)];
    while (*pp != t) pp = &(*pp)->next;
    *pp = t->next;
    map.count--;
    map.bytes -= t->png.len;
    buf_free(&t->png);
    free(t);
}

/* Drops the least recently asked-for tiles not in use while over a cap (less
 * `room`). Never while a tile pointer is held (only at the end of the timer
 * pass, a job's done, and before a request looks its tile up). */
static void evict(size_t room)
{
    while (map.count + room > MAP_TILES_MAX || map.bytes > MAP_CACHE_BYTES) {
        tile *victim = NULL;
        for (size_t i = 0; i < BUCKETS; i++)
            for (tile *t = map.buckets[i]; t; t = t->next)
                if (!t->queued && !t->rendering && (!victim || t->asked_ms < victim->asked_ms))
                    victim = t;
        if (!victim) return;
        unlink_tile(victim);
    }
}

static tile *get(int zoom, int32_t x, int32_t z)
{
    tile *t = find(zoom, x, z);
    if (t) return t;
    t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->zoom = zoom, t->x = x, t->z = z;
    t->asked_ms = srv->loop->now_ms;
    buf_init(&t->png, 0);
    size_t s = slot(zoom, x, z);
    t->next = map.buckets[s];
    map.buckets[s] = t;
    map.count++;
    return t;
}

static void enqueue(tile *t)
{
    if (t->queued || t->rendering) {
        if (t->rendering) t->again = true;
        return;
    }
    t->queued = true;
    t->qnext = NULL;
    if (map.qtail)
        map.qtail->qnext = t;
    else
        map.qhead = t;
    map.qtail = t;
}

static tile *dequeue(void)
{
    tile *t = map.qhead;
    if (!t) return NULL;
    map.qhead = t->qnext;
    if (!map.qhead) map.qtail = NULL;
    t->queued = false;
    return t;
}

static bool watched(const tile *t, int64_t now)
{
    return now - t->asked_ms < MAP_WATCH_MS;
}

/* t went out of date: watched tiles are re-rendered at once, others when asked. */
static void mark_stale(tile *t, int64_t now)
{
    if (!t->have && !t->rendering) return;
    t->stale = true;
    if (t->rendering)
        t->again = true;
    else if (watched(t, now))
        enqueue(t);
}

/* The tiles made of t (zoom + 1 and up) are out of date too. */
static void stale_ancestors(int zoom, int32_t x, int32_t z, int64_t now)
{
    for (int k = zoom + 1; k < MAP_ZOOMS; k++) {
        x >>= 1, z >>= 1;
        tile *p = find(k, x, z);
        if (p) mark_stale(p, now);
    }
}

/* ------------------------------------------------------------------ signatures */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

static uint64_t signature(int32_t tx, int32_t tz)
{
    uint64_t h = 1;
    for (int dz = 0; dz < CHUNKS_SIDE; dz++)
        for (int dx = 0; dx < CHUNKS_SIDE; dx++) {
            chunk_entry *e =
                world_loaded(&game.world, tx * CHUNKS_SIDE + dx, tz * CHUNKS_SIDE + dz);
            h = mix(h, e ? (uint64_t)(uintptr_t)e ^ (uint64_t)e->version << 40 : 0);
        }
    return h;
}

static uint64_t bytes_hash(const buf_t *b)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < b->len; i++) h = (h ^ b->data[i]) * 1099511628211ULL;
    return h ^ b->len;
}

/* ------------------------------------------------------------------ jobs */

/* Shaded pixels of 16×16 chunk summaries into rgba (256×256). */
static bool draw(const map_chunk *mc, uint8_t *rgba)
{
    bool any = false;
    for (int py = 0; py < MAP_TILE; py++)
        for (int px = 0; px < MAP_TILE; px++) {
            const map_chunk *c = &mc[(py >> 4) * CHUNKS_SIDE + (px >> 4)];
            int i = (py & 15) * 16 + (px & 15);
            int hn = MAPRENDER_NO_HEIGHT;
            if (py > 0) {
                const map_chunk *n = &mc[((py - 1) >> 4) * CHUNKS_SIDE + (px >> 4)];
                hn = n->height[((py - 1) & 15) * 16 + (px & 15)];
            }
            uint32_t v = maprender_shade(c->rgb[i], c->height[i], hn, c->water[i] > 0);
            uint8_t *o = rgba + ((size_t)py * MAP_TILE + (size_t)px) * 4;
            o[0] = (uint8_t)(v >> 16), o[1] = (uint8_t)(v >> 8), o[2] = (uint8_t)v;
            o[3] = v ? 255 : 0;
            any |= v != 0;
        }
    return any;
}

static void run_base(struct render_job *rj)
{
    map_chunk *mc = malloc(sizeof *mc * CHUNKS_SIDE * CHUNKS_SIDE);
    uint8_t *rgba = malloc((size_t)MAP_TILE * MAP_TILE * 4);
    if (!mc || !rgba) {
        rj->failed = true;
        goto out;
    }
    for (int i = 0; i < CHUNKS_SIDE * CHUNKS_SIDE; i++) {
        int32_t cx = rj->x * CHUNKS_SIDE + i % CHUNKS_SIDE,
                cz = rj->z * CHUNKS_SIDE + i / CHUNKS_SIDE;
        if (rj->copies[i]) {
            maprender_chunk(rj->copies[i], &mc[i]);
            chunk_free(rj->copies[i]);
            free(rj->copies[i]);
            rj->copies[i] = NULL;
            rj->drawn++;
            continue;
        }
        chunk c;
        chunk_init(&c, cx, cz, 0, 0);
        if (rj->disk && store_load_chunk(cx, cz, &c, NULL) == 1) { /* reads, never generates */
            maprender_chunk(&c, &mc[i]);
            rj->drawn++;
        } else {
            maprender_empty(&mc[i]);
        }
        chunk_free(&c);
    }
    rj->empty = !draw(mc, rgba);
    if (!rj->empty && maprender_png_encode(rgba, MAP_TILE, MAP_TILE, &rj->png) < 0)
        rj->failed = true;
out:
    free(mc);
    free(rgba);
}

/* Four tiles of zoom k-1 halved into one of zoom k. */
static void run_composite(struct render_job *rj)
{
    uint8_t *in = malloc((size_t)MAP_TILE * MAP_TILE * 4);
    uint8_t *out = calloc((size_t)MAP_TILE * MAP_TILE, 4);
    bool any = false;
    if (!in || !out) {
        rj->failed = true;
        goto done;
    }
    for (int q = 0; q < 4; q++) {
        if (!rj->child[q].len) continue;
        if (maprender_png_decode(rj->child[q].data, rj->child[q].len, in, MAP_TILE, MAP_TILE) < 0)
            continue;
        int ox = (q & 1) * (MAP_TILE / 2), oy = (q >> 1) * (MAP_TILE / 2);
        for (int y = 0; y < MAP_TILE / 2; y++)
            for (int x = 0; x < MAP_TILE / 2; x++) {
                unsigned sum[3] = {0, 0, 0}, n = 0;
                for (int k = 0; k < 4; k++) {
                    const uint8_t *p =
                        in +
                        ((size_t)(2 * y + (k >> 1)) * MAP_TILE + (size_t)(2 * x + (k & 1))) * 4;
                    if (!p[3]) continue;
                    sum[0] += p[0], sum[1] += p[1], sum[2] += p[2], n++;
                }
                if (!n) continue;
                uint8_t *o = out + ((size_t)(oy + y) * MAP_TILE + (size_t)(ox + x)) * 4;
                o[0] = (uint8_t)(sum[0] / n), o[1] = (uint8_t)(sum[1] / n),
                o[2] = (uint8_t)(sum[2] / n);
                o[3] = 255;
                any = true;
            }
    }
    rj->empty = !any;
    if (any && maprender_png_encode(out, MAP_TILE, MAP_TILE, &rj->png) < 0) rj->failed = true;
done:
    free(in);
    free(out);
}

static void run_render(job *j, worker_ctx *ctx)
{
    (void)ctx;
    struct render_job *rj = (struct render_job *)j;
    int64_t t0 = clock_ns();
    if (rj->zoom == 0)
        run_base(rj);
    else
        run_composite(rj);
    rj->ns = clock_ns() - t0;
}

static void job_free(struct render_job *rj)
{
    for (int i = 0; i < CHUNKS_SIDE * CHUNKS_SIDE; i++)
        if (rj->copies[i]) {
            chunk_free(rj->copies[i]);
            free(rj->copies[i]);
        }
    for (int q = 0; q < 4; q++) buf_free(&rj->child[q]);
    buf_free(&rj->png);
    free(rj);
}

static void done_render(job *j)
{
    struct render_job *rj = (struct render_job *)j;
    map.in_flight--;
    tile *t = map.closed ? NULL : find(rj->zoom, rj->x, rj->z);
    if (!t || j->cancelled) {
        if (t) t->rendering = false;
        job_free(rj);
        return;
    }
    t->rendering = false;
    map.stats.renders++;
    map.stats.render_ns += (uint64_t)rj->ns;
    map.stats.chunks_drawn += (uint64_t)rj->drawn;
    if (rj->zoom > 0) map.stats.composites++;
    int64_t now = srv->loop->now_ms;
    if (rj->failed) {
        log_warn("map: cannot render tile %d/%d/%d (out of memory)", rj->zoom, (int)rj->x,
                 (int)rj->z);
    } else {
        if (rj->empty) rj->png.len = 0;
        uint64_t h = rj->empty ? 0 : bytes_hash(&rj->png);
        bool changed = !t->have || h != t->hash;
        map.bytes -= t->png.len;
        buf_free(&t->png);
        t->png = rj->png;
        buf_init(&rj->png, 0);
        map.bytes += t->png.len;
        t->hash = h;
        t->have = true;
        t->stale = false;
        t->sig = rj->sig;
        if (changed) stale_ancestors(t->zoom, t->x, t->z, now);
    }
    if (t->again) {
        t->again = false;
        t->stale = true;
        enqueue(t);
    }
    job_free(rj);
    evict(0);
}

static void submit(struct render_job *rj, tile *t)
{
    rj->j.run = run_render;
    rj->j.done = done_render;
    t->rendering = true;
    t->again = false;
    map.in_flight++;
    workers_run(&rj->j);
}

/* A zoom-0 job: copies of the loaded chunks; -1 out of memory, else the copies made. */
static int start_base(tile *t)
{
    struct render_job *rj = calloc(1, sizeof *rj);
    if (!rj) return -1;
    rj->zoom = 0, rj->x = t->x, rj->z = t->z;
    rj->disk = store_active();
    rj->sig = signature(t->x, t->z);
    buf_init(&rj->png, 4u << 20);
    int copies = 0;
    for (int i = 0; i < CHUNKS_SIDE * CHUNKS_SIDE; i++) {
        chunk_entry *e = world_loaded(&game.world, t->x * CHUNKS_SIDE + i % CHUNKS_SIDE,
                                      t->z * CHUNKS_SIDE + i / CHUNKS_SIDE);
        if (!e) continue;
        chunk *c = malloc(sizeof *c);
        if (!c || chunk_clone(c, &e->c) < 0) {
            free(c);
            job_free(rj);
            return -1;
        }
        rj->copies[i] = c;
        copies++;
    }
    map.stats.chunks_copied += (uint64_t)copies;
    submit(rj, t);
    return copies;
}

/* A composite job when the four tiles under t are rendered and current; else
 * they are queued and t waits (false). */
static bool start_composite(tile *t, bool *nomem)
{
    bool ready = true;
    tile *kids[4];
    for (int q = 0; q < 4; q++) {
        tile *k = get(t->zoom - 1, t->x * 2 + (q & 1), t->z * 2 + (q >> 1));
        kids[q] = k;
        if (!k) {
            *nomem = true;
            return false;
        }
        k->asked_ms = t->asked_ms;
        if (!k->have || k->stale || k->rendering || k->queued) {
            ready = false;
            if (!k->have || k->stale) enqueue(k);
        }
    }
    if (!ready) return false;
    struct render_job *rj = calloc(1, sizeof *rj);
    if (!rj) {
        *nomem = true;
        return false;
    }
    rj->zoom = t->zoom, rj->x = t->x, rj->z = t->z;
    buf_init(&rj->png, 4u << 20);
    for (int q = 0; q < 4; q++) {
        buf_init(&rj->child[q], 4u << 20);
        buf_append(&rj->child[q], kids[q]->png.data, kids[q]->png.len);
    }
    submit(rj, t);
    return true;
}

/* ------------------------------------------------------------------ the timer */

static void check_changes(int64_t now)
{
    for (size_t i = 0; i < BUCKETS; i++)
        for (tile *t = map.buckets[i]; t; t = t->next)
            if (t->zoom == 0 && t->have && !t->stale && !t->rendering && watched(t, now) &&
                signature(t->x, t->z) != t->sig)
                mark_stale(t, now);
}

static void timer_due(loop_timer *lt)
{
    (void)lt;
    int64_t now = srv->loop->now_ms;
    if (now >= map.next_check_ms) {
        map.next_check_ms = now + CHECK_MS;
        check_changes(now);
    }
    int budget = MAP_COPY_BUDGET;
    /* Each queued tile is looked at once per pass; waiting ones go back. */
    size_t pending = 0;
    for (tile *t = map.qhead; t; t = t->qnext) pending++;
    while (pending-- > 0 && map.in_flight < MAP_JOBS_MAX && budget > 0) {
        tile *t = dequeue();
        if (!t) break;
        bool nomem = false;
        if (t->zoom == 0) {
            int n = start_base(t);
            if (n < 0) nomem = true;
            budget -= n < 0 ? 0 : n + 1;
        } else if (!start_composite(t, &nomem)) {
            if (!nomem) enqueue(t);
        }
        if (nomem) {
            enqueue(t);
            break; /* out of memory: next pass */
        }
    }
    evict(0);
    loop_timer_at(srv->loop, &map.timer, now + TIMER_MS);
}

/* Pre-generation wrote chunks [x0, x1] × [z0, z1]: the tiles over them are stale. */
static void chunks_written(int32_t x0, int32_t z0, int32_t x1, int32_t z1)
{
    int64_t now = srv->loop->now_ms;
    int32_t tx0 = x0 >> 4, tx1 = x1 >> 4, tz0 = z0 >> 4, tz1 = z1 >> 4;
    for (int32_t tz = tz0; tz <= tz1; tz++)
        for (int32_t tx = tx0; tx <= tx1; tx++) {
            tile *t = find(0, tx, tz);
            if (t) {
                mark_stale(t, now);
            } else {
                stale_ancestors(0, tx, tz, now);
            }
        }
}

static void start(void)
{
    if (map.started) return;
    map.started = true;
    loop_timer_init(&map.timer, timer_due);
    loop_timer_at(srv->loop, &map.timer, srv->loop->now_ms + TIMER_MS);
    pregen_set_listener(chunks_written);
}

/* ------------------------------------------------------------------ the API */

enum map_result map_tile(int zoom, int32_t x, int32_t z, const uint8_t **png, size_t *len)
{
    int32_t limit = (WORLD_LIMIT >> (8 + zoom)) + 1;
    if (zoom < 0 || zoom >= MAP_ZOOMS || x < -limit || x > limit || z < -limit || z > limit)
        return MAP_BAD;
    if (map.closed) return MAP_PENDING;
    start();
    evict(1);
    tile *t = get(zoom, x, z);
    if (!t) return MAP_PENDING;
    t->asked_ms = srv->loop->now_ms;
    if (!t->have || t->stale) enqueue(t);
    if (!t->have) return MAP_PENDING;
    if (!t->png.len) return MAP_EMPTY;
    *png = t->png.data;
    *len = t->png.len;
    return MAP_READY;
}

void map_get_stats(struct map_stats *st)
{
    *st = map.stats;
    st->tiles = map.count;
    st->bytes = map.bytes;
}

void map_free(void)
{
    if (map.started) loop_timer_stop(srv->loop, &map.timer);
    pregen_set_listener(NULL);
    for (size_t i = 0; i < BUCKETS; i++)
        while (map.buckets[i]) unlink_tile(map.buckets[i]);
    map.qhead = map.qtail = NULL;
    map.started = false;
    map.closed = true; /* jobs still in flight find no tile and free themselves */
}
