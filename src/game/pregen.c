/*
 * pregen.c — see pregen.h. Three parts: the walk (cell indices in a spiral
 * around the centre cell), the jobs (one cell each), and the driver (a loop
 * timer that feeds the pool, logs progress and saves the state file).
 *
 * The spiral: index 0 is the centre cell; ring k >= 1 holds indices
 * (2k-1)² .. (2k+1)²-1, walked along its four sides. Cells of the ring
 * outside the square's cells are skipped without a job. `next` is the
 * next index to hand out; the state file's resume point is the smallest
 * index still in flight (or `next`), so an index is finished for good only
 * when every index before it is.
 */
#include "game/pregen.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/workers.h"
#include "data/biomes.h"
#include "data/blocks.h"
#include "game/game.h"
#include "world/anvil.h"
#include "world/region.h"
#include "world/store.h"

#define CELL           8 /* chunks per cell side */
#define TIMER_MS       100
#define LOG_EVERY_MS   10000
#define STATE_EVERY_MS 1000
#define RATE_WINDOW    10 /* seconds of samples behind `rate` */

struct pregen_job {
    job j;
    uint64_t index;
    int32_t cx, cz; /* cell */
    int n;          /* chunks of the cell inside the square and not loaded */
    int32_t x[CELL * CELL], z[CELL * CELL];
    int64_t game_time;
    int generated, skipped, failed, world_owned;
    int err; /* first errno */
    bool in_flight;
};

static struct {
    loop *loop;
    loop_timer timer;
    bool cli, running, cancelling;
    int32_t center_x, center_z; /* blocks */
    int radius;                 /* blocks */
    int32_t ccx, ccz;           /* centre chunk */
    int cr;                     /* chunk radius */
    int32_t cell_x0, cell_z0, cell_x1, cell_z1;
    int32_t ocx, ocz;    /* centre cell */
    uint64_t rings, end; /* last ring; indices [0, end) */
    uint64_t next;
    uint64_t total, done_before; /* chunks; done_before: cells before the resume point */
    uint64_t done, generated, skipped, failed, world_owned;
    struct pregen_job jobs[PREGEN_JOBS_MAX];
    int in_flight;
    int64_t started_ms, last_log_ms, last_state_ms;
    uint64_t samples[RATE_WINDOW + 1]; /* done, once a second */
    int64_t sample_ms;
    int nsamples;
    bool state_writing, remove_after_write;
    void (*listener)(int32_t x0, int32_t z0, int32_t x1, int32_t z1);
} pg;

/* ------------------------------------------------------------------ the walk */

static int32_t floor_div(int32_t a, int32_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Cell offset (dx, dz) from the centre cell of spiral index i. */
static void spiral(uint64_t i, int64_t *dx, int64_t *dz)
{
    if (i == 0) {
        *dx = *dz = 0;
        return;
    }
    int64_t k = 1;
    while ((uint64_t)((2 * k + 1) * (2 * k + 1)) <= i) k++;
    int64_t p = (int64_t)(i - (uint64_t)((2 * k - 1) * (2 * k - 1)));
    int64_t side = p / (2 * k), off = p % (2 * k);
    switch (side) {
    case 0: *dx = -k + off, *dz = -k; break;
    case 1: *dx = k, *dz = -k + off; break;
    case 2: *dx = k - off, *dz = k; break;
    default: *dx = -k, *dz = k - off; break;
    }
}

/* The chunks of cell (cx, cz) inside the square: [x0, x1] × [z0, z1]; false if none. */
static bool cell_box(int32_t cx, int32_t cz, int32_t *x0, int32_t *z0, int32_t *x1, int32_t *z1)
{
    *x0 = cx * CELL, *z0 = cz * CELL, *x1 = *x0 + CELL - 1, *z1 = *z0 + CELL - 1;
    if (*x0 < pg.ccx - pg.cr) *x0 = pg.ccx - pg.cr;
    if (*z0 < pg.ccz - pg.cr) *z0 = pg.ccz - pg.cr;
    if (*x1 > pg.ccx + pg.cr) *x1 = pg.ccx + pg.cr;
    if (*z1 > pg.ccz + pg.cr) *z1 = pg.ccz + pg.cr;
    return *x0 <= *x1 && *z0 <= *z1;
}

static uint64_t cell_chunks(uint64_t i)
{
    int64_t dx, dz;
    spiral(i, &dx, &dz);
    int32_t x0, z0, x1, z1;
    if (!cell_box((int32_t)(pg.ocx + dx), (int32_t)(pg.ocz + dz), &x0, &z0, &x1, &z1)) return 0;
    return (uint64_t)(x1 - x0 + 1) * (uint64_t)(z1 - z0 + 1);
}

static void setup(int32_t x, int32_t z, int radius)
{
    pg.center_x = x, pg.center_z = z, pg.radius = radius;
    pg.ccx = floor_div(x, 16), pg.ccz = floor_div(z, 16);
    pg.cr = (radius + 15) / 16;
    pg.cell_x0 = floor_div(pg.ccx - pg.cr, CELL), pg.cell_x1 = floor_div(pg.ccx + pg.cr, CELL);
    pg.cell_z0 = floor_div(pg.ccz - pg.cr, CELL), pg.cell_z1 = floor_div(pg.ccz + pg.cr, CELL);
    pg.ocx = floor_div(pg.ccx, CELL), pg.ocz = floor_div(pg.ccz, CELL);
    int64_t k = 0;
    int64_t d[4] = {pg.ocx - pg.cell_x0, pg.cell_x1 - pg.ocx, pg.ocz - pg.cell_z0,
                    pg.cell_z1 - pg.ocz};
    for (int i = 0; i < 4; i++)
        if (d[i] > k) k = d[i];
    pg.rings = (uint64_t)k;
    pg.end = (uint64_t)((2 * k + 1) * (2 * k + 1));
    pg.total = (uint64_t)(2 * pg.cr + 1) * (uint64_t)(2 * pg.cr + 1);
}

/* ------------------------------------------------------------------ state file */

static void state_path(char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", store_dir(), PREGEN_STATE_FILE);
}

/* The smallest index not finished. */
static uint64_t resume_point(void)
{
    uint64_t r = pg.next;
    for (int i = 0; i < PREGEN_JOBS_MAX; i++)
        if (pg.jobs[i].in_flight && pg.jobs[i].index < r) r = pg.jobs[i].index;
    return r;
}

static int state_text(char *out, size_t cap)
{
    return snprintf(out, cap,
                    "# mcserv pre-generation in progress; `pregen cancel` removes this file\n"
                    "center_x=%d\ncenter_z=%d\nradius=%d\nnext_cell=%llu\n",
                    (int)pg.center_x, (int)pg.center_z, pg.radius,
                    (unsigned long long)resume_point());
}

static void state_remove(void);

static void state_written(void *arg, int rc)
{
    (void)arg;
    pg.state_writing = false;
    if (rc < 0) log_warn("pre-generation: cannot save its progress: %s", strerror(-rc));
    if (pg.remove_after_write) state_remove();
}

/* Queues the state file's write on a worker (one at a time). */
static void state_save(void)
{
    if (pg.state_writing || !pg.running) return;
    char text[256], path[512];
    int n = state_text(text, sizeof text);
    uint8_t *data = malloc((size_t)n);
    if (!data) return;
    memcpy(data, text, (size_t)n);
    state_path(path, sizeof path);
    pg.state_writing = true;
    pg.last_state_ms = clock_ms();
    store_write_file(path, data, (size_t)n, false, STORE_ITEM_LEVEL, 0, state_written, NULL);
}

struct unlink_job {
    job j;
    char path[512];
};

static void run_unlink(job *j, worker_ctx *ctx)
{
    (void)ctx;
    struct unlink_job *u = (struct unlink_job *)j;
    if (unlink(u->path) < 0 && errno != ENOENT)
        log_warn("pre-generation: cannot remove %s: %s", u->path, strerror(errno));
}

static void done_unlink(job *j)
{
    free(j);
}

/* Removes the state file on a worker, after a write still in flight. */
static void state_remove(void)
{
    pg.remove_after_write = pg.state_writing;
    if (pg.state_writing) return;
    struct unlink_job *u = calloc(1, sizeof *u);
    if (!u) return;
    state_path(u->path, sizeof u->path);
    u->j.run = run_unlink;
    u->j.done = done_unlink;
    workers_run(&u->j);
}

/* Startup (disk reads allowed): the saved square, if any. 1 found, 0 none. */
static int state_load(int32_t *x, int32_t *z, int *radius, uint64_t *next)
{
    char path[512];
    state_path(path, sizeof path);
    uint8_t *data;
    size_t len;
    if (fio_read_file(path, 4096, &data, &len) < 0) return 0;
    long long v[4];
    bool have[4] = {false, false, false, false};
    const char *keys[4] = {"center_x=", "center_z=", "radius=", "next_cell="};
    char *text = malloc(len + 1);
    if (!text) {
        free(data);
        return 0;
    }
    memcpy(text, data, len);
    text[len] = 0;
    free(data);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        for (int k = 0; k < 4; k++)
            if (strncmp(line, keys[k], strlen(keys[k])) == 0) {
                char *end;
                v[k] = strtoll(line + strlen(keys[k]), &end, 10);
                have[k] = *end == 0 || *end == '\r';
            }
    free(text);
    if (!have[0] || !have[1] || !have[2] || !have[3] || v[2] < 1 || v[2] > PREGEN_RADIUS_MAX ||
        v[0] < -30000000 || v[0] > 30000000 || v[1] < -30000000 || v[1] > 30000000 || v[3] < 0) {
        log_warn("%s: not a pre-generation state mcserv understands; ignoring it", path);
        return 0;
    }
    *x = (int32_t)v[0], *z = (int32_t)v[1], *radius = (int)v[2], *next = (uint64_t)v[3];
    return 1;
}

/* ------------------------------------------------------------------ jobs */

static void run_cell(job *j, worker_ctx *ctx)
{
    struct pregen_job *pj = (struct pregen_job *)j;
    int32_t rx = floor_div(pj->cx * CELL, 32), rz = floor_div(pj->cz * CELL, 32);
    uint8_t present[1024];
    int rc = store_region_present(rx, rz, present);
    if (rc < 0) {
        pj->failed = pj->n;
        pj->err = -rc;
        return;
    }
    region_write w[CELL * CELL];
    uint8_t *zbuf[CELL * CELL];
    size_t nw = 0;
    buf_t *raw = &ctx->scratch;
    for (int i = 0; i < pj->n; i++) {
        if (present[(pj->x[i] & 31) + (pj->z[i] & 31) * 32]) {
            pj->skipped++;
            continue;
        }
        chunk c;
        chunk_init(&c, pj->x[i], pj->z[i], BLOCK_AIR, BIOME_PLAINS);
        buf_reset(raw);
        int bad = terrain_generate(&game.world.terrain, &c) < 0 ||
                  anvil_encode(&c, NULL, pj->game_time, raw) < 0 || raw->failed;
        chunk_free(&c);
        uint8_t *z = NULL;
        size_t zl = 0;
        if (!bad) {
            size_t bound = libdeflate_zlib_compress_bound(ctx->compressor, raw->len);
            z = malloc(bound);
            zl = z ? libdeflate_zlib_compress(ctx->compressor, raw->data, raw->len, z, bound) : 0;
        }
        if (!zl) {
            free(z);
            pj->failed++;
            if (!pj->err) pj->err = ENOMEM;
            continue;
        }
        zbuf[nw] = z;
        w[nw] = (region_write){.lx = pj->x[i] & 31, .lz = pj->z[i] & 31, .data = z, .len = zl};
        nw++;
    }
    if (nw) {
        store_write_chunks(rx, rz, w, nw);
        for (size_t k = 0; k < nw; k++) {
            if (w[k].result == 0) {
                pj->generated++;
            } else {
                pj->failed++;
                if (!pj->err) pj->err = -w[k].result;
            }
            free(zbuf[k]);
        }
    }
}

static void feed(void);

static void done_cell(job *j)
{
    struct pregen_job *pj = (struct pregen_job *)j;
    pj->in_flight = false;
    pg.in_flight--;
    if (j->cancelled) return;
    pg.generated += (uint64_t)pj->generated;
    pg.skipped += (uint64_t)pj->skipped;
    pg.failed += (uint64_t)pj->failed;
    pg.world_owned += (uint64_t)pj->world_owned;
    pg.done += (uint64_t)(pj->n + pj->world_owned);
    if (pj->failed)
        log_error("pre-generation: %d chunks of cell %d,%d could not be saved: %s (run pregen "
                  "again to retry them)",
                  pj->failed, (int)pj->cx, (int)pj->cz, strerror(pj->err));
    if (pj->generated && pg.listener) {
        int32_t x0, z0, x1, z1;
        if (cell_box(pj->cx, pj->cz, &x0, &z0, &x1, &z1)) pg.listener(x0, z0, x1, z1);
    }
    if (pg.running && !pg.cancelling) feed();
}

/* Cell (cx, cz) is written by a job in flight. */
static bool held(int32_t x, int32_t z)
{
    if (!pg.in_flight) return false;
    int32_t cx = floor_div(x, CELL), cz = floor_div(z, CELL);
    for (int i = 0; i < PREGEN_JOBS_MAX; i++)
        if (pg.jobs[i].in_flight && pg.jobs[i].cx == cx && pg.jobs[i].cz == cz) return true;
    return false;
}

static int jobs_allowed(void)
{
    int n = workers_count();
    if (n < 1) n = 1;
    n = pg.cli ? 2 * n : n; /* with players: one per worker, and only while nobody waits */
    return n > PREGEN_JOBS_MAX ? PREGEN_JOBS_MAX : n;
}

/* Hands out cells while the pool has room (invariant 4). */
static void feed(void)
{
    while (pg.running && !pg.cancelling && pg.next < pg.end && pg.in_flight < jobs_allowed()) {
        if (!pg.cli && game.world.heap_len > 0) return;
        uint64_t i = pg.next++;
        int64_t dx, dz;
        spiral(i, &dx, &dz);
        int32_t cx = (int32_t)(pg.ocx + dx), cz = (int32_t)(pg.ocz + dz), x0, z0, x1, z1;
        if (!cell_box(cx, cz, &x0, &z0, &x1, &z1)) continue;
        struct pregen_job *pj = NULL;
        for (int k = 0; k < PREGEN_JOBS_MAX && !pj; k++)
            if (!pg.jobs[k].in_flight) pj = &pg.jobs[k];
        memset(pj, 0, sizeof *pj);
        pj->index = i;
        pj->cx = cx, pj->cz = cz;
        pj->game_time = store_level()->time;
        for (int32_t z = z0; z <= z1; z++)
            for (int32_t x = x0; x <= x1; x++) {
                if (world_loaded(&game.world, x, z)) {
                    pj->world_owned++; /* the world saves what it has loaded */
                    continue;
                }
                pj->x[pj->n] = x, pj->z[pj->n] = z;
                pj->n++;
            }
        pj->in_flight = true;
        pj->j.run = run_cell;
        pj->j.done = done_cell;
        pj->j.cancelled = false;
        pg.in_flight++;
        workers_run(&pj->j);
    }
}

/* ------------------------------------------------------------------ driver */

static double rate_now(void)
{
    if (pg.nsamples < 2) return 0;
    int n = pg.nsamples - 1;
    return (double)(pg.samples[n] - pg.samples[0]) / (double)n;
}

void pregen_get_status(struct pregen_status *st)
{
    memset(st, 0, sizeof *st);
    st->running = pg.running;
    st->cancelling = pg.cancelling;
    st->center_x = pg.center_x, st->center_z = pg.center_z, st->radius = pg.radius;
    st->total = pg.total;
    st->done = pg.done_before + pg.done;
    if (st->done > st->total) st->done = st->total;
    st->generated = pg.generated, st->skipped = pg.skipped, st->failed = pg.failed;
    st->rate = rate_now();
    st->eta_s = st->rate > 0 ? (double)(st->total - st->done) / st->rate : -1;
    st->elapsed_s = pg.running ? (double)(clock_ms() - pg.started_ms) / 1000.0 : 0;
}

static void log_progress(void)
{
    struct pregen_status st;
    pregen_get_status(&st);
    char eta[32] = "unknown";
    if (st.eta_s >= 0) snprintf(eta, sizeof eta, "%.0f s", st.eta_s);
    log_info("Pre-generation: %llu of %llu chunks (%.1f%%), %.0f chunks/s, ETA %s",
             (unsigned long long)st.done, (unsigned long long)st.total,
             st.total ? 100.0 * (double)st.done / (double)st.total : 100.0, st.rate, eta);
}

static void finish(bool cancelled)
{
    double s = (double)(clock_ms() - pg.started_ms) / 1000.0;
    uint64_t done = pg.done_before + pg.done;
    if (cancelled)
        log_info("Pre-generation cancelled at %llu of %llu chunks", (unsigned long long)done,
                 (unsigned long long)pg.total);
    else
        log_info("Pre-generation done: %llu chunks (%llu generated, %llu already on disk, %llu "
                 "loaded by the world, %llu failed) in %.1f s, %.0f chunks/s",
                 (unsigned long long)pg.total, (unsigned long long)pg.generated,
                 (unsigned long long)pg.skipped, (unsigned long long)pg.world_owned,
                 (unsigned long long)pg.failed, s, s > 0 ? (double)pg.generated / s : 0.0);
    pg.running = pg.cancelling = false;
    /* Failed chunks stay absent: running pregen again generates just them. */
    state_remove();
    store_set_write_guard(NULL);
    if (pg.loop) loop_timer_stop(pg.loop, &pg.timer);
}

static void timer_due(loop_timer *t)
{
    (void)t;
    int64_t now = clock_ms();
    if (pg.running && now - pg.sample_ms >= 1000) {
        pg.sample_ms = now;
        if (pg.nsamples == RATE_WINDOW + 1) {
            memmove(pg.samples, pg.samples + 1, RATE_WINDOW * sizeof pg.samples[0]);
            pg.nsamples--;
        }
        pg.samples[pg.nsamples++] = pg.done;
    }
    if (pg.cancelling && pg.in_flight == 0) {
        finish(true);
        return;
    }
    if (pg.running && !pg.cancelling) {
        feed();
        if (pg.next >= pg.end && pg.in_flight == 0) {
            finish(false);
            return;
        }
        if (now - pg.last_state_ms >= STATE_EVERY_MS) state_save();
        if (!pg.cli && now - pg.last_log_ms >= LOG_EVERY_MS) {
            pg.last_log_ms = now;
            log_progress();
        }
    }
    if (pg.running) loop_timer_at(pg.loop, &pg.timer, pg.loop->now_ms + TIMER_MS);
}

static void begin(int32_t x, int32_t z, int radius, uint64_t next)
{
    setup(x, z, radius);
    pg.next = next < pg.end ? next : pg.end;
    pg.done_before = 0;
    for (uint64_t i = 0; i < pg.next; i++) pg.done_before += cell_chunks(i);
    pg.done = pg.generated = pg.skipped = pg.failed = pg.world_owned = 0;
    pg.running = true;
    pg.cancelling = false;
    pg.started_ms = pg.last_log_ms = pg.sample_ms = clock_ms();
    pg.nsamples = 0;
    pg.samples[pg.nsamples++] = 0;
    store_set_write_guard(held);
    state_save();
    loop_timer_at(pg.loop, &pg.timer, pg.loop->now_ms + TIMER_MS);
    feed();
}

void pregen_init(loop *l, bool cli)
{
    pg.loop = l;
    pg.cli = cli;
    loop_timer_init(&pg.timer, timer_due);
    int32_t x, z;
    int radius;
    uint64_t next;
    if (store_active() && state_load(&x, &z, &radius, &next)) {
        begin(x, z, radius, next);
        log_info("Resuming pre-generation of radius %d around %d, %d: %llu of %llu chunks done "
                 "(`pregen cancel` stops it)",
                 radius, (int)x, (int)z, (unsigned long long)pg.done_before,
                 (unsigned long long)pg.total);
    }
}

int pregen_start(int32_t x, int32_t z, int radius, char *err, size_t cap)
{
    if (pg.running) {
        snprintf(err, cap, "a pre-generation is running already (pregen status, pregen cancel)");
        return -1;
    }
    if (!store_active()) {
        snprintf(err, cap, "there is no world folder to save chunks in");
        return -1;
    }
    if (radius < 1 || radius > PREGEN_RADIUS_MAX) {
        snprintf(err, cap, "the radius must be 1 to %d blocks", PREGEN_RADIUS_MAX);
        return -1;
    }
    begin(x, z, radius, 0);
    log_info("Pre-generating %llu chunks: radius %d blocks around %d, %d",
             (unsigned long long)pg.total, radius, (int)x, (int)z);
    return 0;
}

bool pregen_cancel(void)
{
    if (!pg.running || pg.cancelling) return false;
    pg.cancelling = true;
    if (pg.in_flight == 0) finish(true);
    return true;
}

void pregen_set_listener(void (*fn)(int32_t x0, int32_t z0, int32_t x1, int32_t z1))
{
    pg.listener = fn;
}

void pregen_stop(void)
{
    if (!pg.running) return;
    pg.cancelling = true; /* no new cells */
    int64_t deadline = clock_ms() + 30000;
    while (pg.in_flight > 0 && clock_ms() < deadline) {
        workers_drain();
        if (pg.in_flight > 0) usleep(1000);
    }
    /* Shutdown: the game thread may write (as the final save does). */
    char text[256], path[512];
    int n = state_text(text, sizeof text);
    state_path(path, sizeof path);
    int rc = fio_write_atomic(path, text, (size_t)n);
    if (rc < 0) log_warn("pre-generation: cannot save its progress: %s", strerror(-rc));
    log_info("Pre-generation paused at %llu of %llu chunks; it resumes at the next start",
             (unsigned long long)(pg.done_before + pg.done), (unsigned long long)pg.total);
    pg.running = pg.cancelling = false;
    store_set_write_guard(NULL);
    loop_timer_stop(pg.loop, &pg.timer);
}

/* ------------------------------------------------------------------ the CLI */

static struct {
    loop_timer timer;
    bool tty;
    int width;
} cli;

static void bar(void)
{
    struct pregen_status st;
    pregen_get_status(&st);
    double f = st.total ? (double)st.done / (double)st.total : 1;
    char fill[41];
    int k = (int)(f * 40);
    for (int i = 0; i < 40; i++) fill[i] = i < k ? '#' : '.';
    fill[40] = 0;
    char eta[32] = "--";
    if (st.eta_s >= 0) snprintf(eta, sizeof eta, "%.0fs", st.eta_s);
    fprintf(stderr, "\r[%s] %5.1f%% %llu/%llu chunks  %.0f chunks/s  ETA %s   ", fill, f * 100,
            (unsigned long long)st.done, (unsigned long long)st.total, st.rate, eta);
    fflush(stderr);
}

static void cli_tick(loop_timer *t)
{
    (void)t;
    if (cli.tty) bar();
    if (!pg.running) {
        loop_stop(pg.loop);
        return;
    }
    int64_t now = clock_ms();
    if (!cli.tty && now - pg.last_log_ms >= 5000) {
        pg.last_log_ms = now;
        log_progress();
    }
    loop_timer_at(pg.loop, &cli.timer, pg.loop->now_ms + 250);
}

int pregen_cli(loop *l, int radius)
{
    char err[256];
    if (!pg.running &&
        pregen_start((int32_t)game.spawn_x, (int32_t)game.spawn_z, radius, err, sizeof err) < 0) {
        log_error("--pregen: %s", err);
        return 1;
    }
    if (pg.radius != radius)
        log_info("--pregen: finishing the saved square (radius %d) first; run again for radius %d",
                 pg.radius, radius);
    cli.tty = isatty(STDERR_FILENO);
    if (cli.tty) log_set_stderr(0); /* the bar has the terminal; the log file has the lines */
    loop_timer_init(&cli.timer, cli_tick);
    loop_timer_at(l, &cli.timer, l->now_ms + 250);
    int rc = loop_run(l);
    loop_timer_stop(l, &cli.timer);
    if (cli.tty) {
        bar();
        fputc('\n', stderr);
        log_set_stderr(1);
    }
    if (rc < 0) log_error("epoll_wait: %s", strerror(-rc));
    if (pg.running) {
        pregen_stop(); /* interrupted: the state file stays */
        return 1;
    }
    return pg.failed ? 1 : 0;
}
