/*
 * store_bench.c — persistence throughput and the game-thread cost of an
 * autosave, measured through the server's own code (world.c, store.c,
 * region.c, anvil.c, the worker pool), without the network.
 *
 *   make && cc -std=c17 -D_GNU_SOURCE -Isrc -O2 tools/store_bench.c build/libmc.a \
 *      -ldeflate -lcurl -lcrypto -ljansson -lpthread -lm -o build/store_bench
 *   build/store_bench [--dir DIR] [--chunks N] [--type normal|flat] [--workers W]
 *
 * Steps (DIR is emptied first; default /tmp/mcserv-store-bench):
 *   1. generate N chunks (a square around 0,0) with W workers (default: one
 *      per core but one, as the server) and edit one block in each, so N
 *      chunks are dirty;
 *   2. save them all in one round while a simulated 20 TPS loop runs: every
 *      50 ms one tick calls store_tick (the only per-tick save work the
 *      server does) and, between ticks, workers_drain runs finished jobs'
 *      done() as the server's event loop would. Reported: the round's
 *      duration, chunks saved per second, and the game-thread time per tick
 *      (store_tick + the done() callbacks drained since the previous tick):
 *      median, p99 and max against the 50 ms budget;
 *   3. single-thread rates: chunk → NBT → zlib (what a save does per chunk),
 *      and region read → inflate → NBT → chunk (store_load_chunk);
 *   4. reopen the world and load all N chunks through the server's path
 *      (world_acquire_frame: region read and decode, light, packet encode
 *      and compression, on the workers): chunks loaded per second.
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/workers.h"
#include "data/blocks.h"
#include "world/anvil.h"
#include "world/store.h"
#include "world/world.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void open_world(struct server_config *cfg, world *w)
{
    char err[512];
    if (store_open(cfg, err, sizeof err) < 0 || world_init(w, cfg, err, sizeof err) < 0) {
        fprintf(stderr, "store_bench: %s\n", err);
        exit(1);
    }
    store_attach(w, cfg);
}

/* Requests every chunk of the square until all are READY; returns seconds. */
static double load_square(world *w, int side)
{
    int64_t t0 = clock_ns();
    int half = side / 2;
    for (int pass = 0; pass < 1000000; pass++) {
        int missing = 0;
        for (int x = -half; x < side - half; x++)
            for (int z = -half; z < side - half; z++) {
                if (world_loaded(w, x, z)) continue;
                missing++;
                if (workers_pending() < 256 && world_acquire_frame(w, x, z))
                    world_release(w, x, z, 0);
            }
        if (!missing) break;
        usleep(200);
        workers_drain();
    }
    return (double)(clock_ns() - t0) / 1e9;
}

int main(int argc, char **argv)
{
    const char *dir = "/tmp/mcserv-store-bench";
    int n = 10000, nworkers = 0;
    enum level_type type = LEVEL_NORMAL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--chunks") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--workers") && i + 1 < argc)
            nworkers = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--type") && i + 1 < argc)
            type = !strcmp(argv[++i], "flat") ? LEVEL_FLAT : LEVEL_NORMAL;
        else {
            fprintf(stderr, "usage: store_bench [--dir DIR] [--chunks N] [--type normal|flat] "
                            "[--workers W]\n");
            return 2;
        }
    }
    if (n < 1 || n > 1000000) n = 10000;
    if (nworkers <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        nworkers = cpus > 1 ? (int)cpus - 1 : 1;
    }
    int side = 1;
    while (side * side < n) side++;
    n = side * side;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    log_set_level(LOG_WARN);

    struct server_config cfg;
    config_defaults(&cfg);
    cfg.level_type = type;
    cfg.seed = 20261130;
    cfg.autosave_interval = 0; /* the round is started by hand below */
    snprintf(cfg.level_name, sizeof cfg.level_name, "%s", dir);
    static world w;
    open_world(&cfg, &w);
    if (workers_start(nworkers, 6) < 0) return 1;
    printf("store_bench: %d chunks (%dx%d), %s terrain, %d worker threads, folder %s\n", n, side,
           side, type == LEVEL_FLAT ? "flat" : "normal", nworkers, dir);

    /* 1. Generate, then dirty every chunk with one edit. */
    double gen_s = load_square(&w, side);
    int half = side / 2;
    for (int x = -half; x < side - half; x++)
        for (int z = -half; z < side - half; z++)
            world_set_block(&w, x * 16 + 3, 100, z * 16 + 5, BLOCK_GLOWSTONE);
    world_flush_edits(&w);
    while (workers_pending() > 0) {
        usleep(500);
        workers_drain();
    }
    printf("  generated %d chunks in %.2f s; %zu unsaved\n", n, gen_s,
           w.save_count[SAVE_LIST_UNSAVED] + w.save_count[SAVE_LIST_QUEUED]);

    /* 2. One save round under a simulated 20 TPS loop. */
    size_t cap = 1u << 20, ticks = 0;
    int64_t *tick_ns = calloc(cap, sizeof *tick_ns);
    store_save_all(false);
    int64_t start = clock_ns(), next_tick = start;
    uint64_t saved0 = store_get_stats()->chunks_saved;
    while (store_saving() && ticks + 1 < cap) {
        int64_t now = clock_ns();
        if (now < next_tick) {
            /* Between ticks the event loop runs finished jobs' done(). */
            int64_t t0 = clock_ns();
            workers_drain();
            tick_ns[ticks] += clock_ns() - t0;
            usleep(200);
            continue;
        }
        next_tick += 50000000;
        int64_t t0 = clock_ns();
        store_tick(now / 1000000);
        tick_ns[ticks] += clock_ns() - t0;
        ticks++;
    }
    double save_s = (double)(clock_ns() - start) / 1e9;
    uint64_t saved = store_get_stats()->chunks_saved - saved0;
    qsort(tick_ns, ticks, sizeof *tick_ns, cmp_i64);
    printf("  save round: %llu chunks in %.2f s = %.0f chunks/s (%.1f MB of region data)\n",
           (unsigned long long)saved, save_s, (double)saved / save_s,
           (double)store_get_stats()->bytes_written / 1e6);
    printf("  game thread per tick meanwhile (%zu ticks): median %.3f ms, p99 %.3f ms, max %.3f "
           "ms of the 50 ms budget; longest store_tick %.3f ms\n",
           ticks, (double)tick_ns[ticks / 2] / 1e6, (double)tick_ns[ticks * 99 / 100] / 1e6,
           (double)tick_ns[ticks ? ticks - 1 : 0] / 1e6,
           (double)store_get_stats()->max_pump_ns / 1e6);

    /* 3. Single-thread rates. */
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
    buf_t b;
    buf_init(&b, ANVIL_MAX_NBT);
    uint8_t *zb = malloc(4u << 20);
    int sample = n < 2000 ? n : 2000;
    int64_t t0 = clock_ns();
    size_t nbt_bytes = 0, z_bytes = 0;
    for (int i = 0; i < sample; i++) {
        chunk_entry *e = world_loaded(&w, -half + i % side, -half + i / side);
        buf_reset(&b);
        anvil_encode(&e->c, e->extra, 0, &b);
        nbt_bytes += b.len;
        z_bytes += libdeflate_zlib_compress(z, b.data, b.len, zb, 4u << 20);
    }
    double enc_s = (double)(clock_ns() - t0) / 1e9;
    t0 = clock_ns();
    for (int i = 0; i < sample; i++) {
        chunk c;
        anvil_extra x;
        if (store_load_chunk(-half + i % side, -half + i / side, &c, &x) != 1) {
            fprintf(stderr, "store_bench: chunk %d did not load\n", i);
            return 1;
        }
        anvil_extra_free(&x);
        chunk_free(&c);
    }
    double dec_s = (double)(clock_ns() - t0) / 1e9;
    printf("  one thread: chunk -> NBT -> zlib %.0f chunks/s (%.1f KB NBT, %.1f KB zlib each); "
           "region -> chunk %.0f chunks/s\n",
           sample / enc_s, (double)nbt_bytes / 1e3 / sample, (double)z_bytes / 1e3 / sample,
           sample / dec_s);
    buf_free(&b);
    free(zb);
    libdeflate_free_compressor(z);

    /* 4. Reopen and load everything through the server's path. */
    store_final_save();
    workers_stop();
    world_free(&w);
    store_close();
    open_world(&cfg, &w);
    if (workers_start(nworkers, 6) < 0) return 1;
    double load_s = load_square(&w, side);
    printf("  reload: %llu chunks from disk in %.2f s = %.0f chunks/s (region read + decode + "
           "light + packet encode, %d workers)\n",
           (unsigned long long)w.chunks_loaded, load_s, (double)w.chunks_loaded / load_s, nworkers);
    int rc = 0;
    if (w.chunks_loaded != (uint64_t)n || w.chunks_generated != 0) {
        fprintf(stderr, "store_bench: expected %d chunks from disk, got %llu (+%llu generated)\n",
                n, (unsigned long long)w.chunks_loaded, (unsigned long long)w.chunks_generated);
        rc = 1;
    }
    workers_stop();
    world_free(&w);
    store_close();
    free(tick_ns);
    return rc;
}
