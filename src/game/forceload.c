/*
 * forceload.c — see forceload.h. The set is a sorted array (by
 * ChunkPos.toLong, the order vanilla lists them in), searched by bisection;
 * a one-second loop timer asks the world for the chunks not held yet.
 */
#include "game/forceload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/log.h"
#include "data/version.h"
#include "game/game.h"
#include "proto/nbt.h"
#include "world/anvil.h"
#include "world/store.h"

#define RETRY_MS      1000
#define CHUNKS_DAT    "data/chunks.dat"
#define FILE_MAX_GZIP (1u << 20)

struct forced {
    int64_t key; /* ChunkPos.toLong */
    bool held;
};

static struct forced set[FORCELOAD_MAX];
static size_t count;
static bool dirty, writing;
static loop_timer timer;
static bool timer_ready;

static int64_t key_of(int32_t cx, int32_t cz)
{
    return (int64_t)((uint64_t)(uint32_t)cx | (uint64_t)(uint32_t)cz << 32);
}

static void pos_of(int64_t key, int32_t *cx, int32_t *cz)
{
    *cx = (int32_t)(uint32_t)((uint64_t)key & 0xffffffffu);
    *cz = (int32_t)(uint32_t)((uint64_t)key >> 32);
}

/* Index of key, or of where it would go (*found false). */
static size_t find(int64_t key, bool *found)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (set[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < count && set[lo].key == key;
    return lo;
}

/* Asks the world for every chunk not held yet; again in a second while some are not. */
static void load_missing(loop_timer *t)
{
    (void)t;
    bool waiting = false;
    for (size_t i = 0; i < count; i++) {
        if (set[i].held) continue;
        int32_t cx, cz;
        pos_of(set[i].key, &cx, &cz);
        /* a viewer reference once the chunk is ready; otherwise it is being generated */
        if (world_acquire_frame(&game.world, cx, cz))
            set[i].held = true;
        else
            waiting = true;
    }
    if (waiting && timer_ready) loop_timer_after(srv->loop, &timer, RETRY_MS);
}

static void kick_loader(void)
{
    if (!timer_ready) return;
    if (!loop_timer_armed(&timer)) loop_timer_after(srv->loop, &timer, 0);
}

int forceload_set(int32_t cx, int32_t cz, bool forced)
{
    bool found;
    int64_t key = key_of(cx, cz);
    size_t i = find(key, &found);
    if (found == forced) return 0;
    if (forced) {
        if (count >= FORCELOAD_MAX) return -1;
        memmove(&set[i + 1], &set[i], (count - i) * sizeof set[0]);
        set[i] = (struct forced){key, false};
        count++;
        kick_loader();
    } else {
        if (set[i].held) world_release(&game.world, cx, cz, srv->loop->now_ms);
        memmove(&set[i], &set[i + 1], (count - i - 1) * sizeof set[0]);
        count--;
    }
    dirty = true;
    return 1;
}

bool forceload_has(int32_t cx, int32_t cz)
{
    bool found;
    find(key_of(cx, cz), &found);
    return found;
}

size_t forceload_count(void)
{
    return count;
}

void forceload_get(size_t i, int32_t *cx, int32_t *cz)
{
    pos_of(i < count ? set[i].key : 0, cx, cz);
}

void forceload_clear(void)
{
    while (count) {
        int32_t cx, cz;
        pos_of(set[count - 1].key, &cx, &cz);
        forceload_set(cx, cz, false);
    }
}

/* ---------------------------------------------------------- chunks.dat */

static void saved(void *arg, int rc)
{
    (void)arg;
    writing = false;
    if (rc < 0) dirty = true; /* logged by the store; the next round tries again */
}

void forceload_save(void)
{
    if (!dirty || writing || !store_active()) return;
    buf_t b;
    buf_init(&b, 1u << 20);
    nbt_w_root(&b, "");
    nbt_w_compound(&b, "data");
    int64_t keys[FORCELOAD_MAX];
    for (size_t i = 0; i < count; i++) keys[i] = set[i].key;
    nbt_w_long_array(&b, "Forced", keys, (int32_t)count);
    nbt_w_end(&b);
    nbt_w_int(&b, "DataVersion", MC_DATA_VERSION);
    nbt_w_end(&b);
    if (b.failed) {
        buf_free(&b);
        log_error("%s/%s: cannot encode it (out of memory)", store_dir(), CHUNKS_DAT);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s", store_dir(), CHUNKS_DAT);
    dirty = false;
    writing = true;
    /* takes b.data; part of the save round, so save-all flush and stop wait for it */
    store_write_file(path, b.data, b.len, true, STORE_ITEM_LEVEL, store_round_join(), saved, NULL);
}

static void read_file(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data", store_dir());
    int rc = fio_mkdir(path);
    if (rc < 0) log_error("cannot create %s: %s", path, strerror(-rc));
    snprintf(path, sizeof path, "%s/%s", store_dir(), CHUNKS_DAT);
    uint8_t *file = NULL, *nbt = NULL;
    size_t flen = 0, nlen = 0;
    rc = fio_read_file(path, FILE_MAX_GZIP, &file, &flen);
    if (rc == -ENOENT) return;
    nbt_doc doc = {0};
    const nbt_node *forced = NULL;
    if (rc == 0 && anvil_decompress(1, file, flen, 16u << 20, &nbt, &nlen) == 0 &&
        nbt_parse(nbt, nlen, true, &nbt_limits_disk, &doc) > 0)
        forced = nbt_get(nbt_get(doc.root, "data", NBT_COMPOUND), "Forced", NBT_LONG_ARRAY);
    if (!forced) {
        log_error("%s: unreadable (%s); no chunks are force loaded (the file is replaced at "
                  "the next save if chunks are marked)",
                  path, rc < 0 ? strerror(-rc) : "not gzip NBT with data.Forced");
    } else {
        for (uint32_t i = 0; i < forced->v.arr.n; i++) {
            int32_t cx, cz;
            pos_of(nbt_long_at(forced, i), &cx, &cz);
            if (forceload_set(cx, cz, true) < 0) {
                log_warn("%s: more than %d chunks; the rest are not force loaded", path,
                         FORCELOAD_MAX);
                break;
            }
        }
        if (count)
            log_info("%zu chunk%s force loaded (%s)", count, count == 1 ? "" : "s", CHUNKS_DAT);
    }
    dirty = false;
    nbt_doc_free(&doc);
    free(nbt);
    free(file);
}

void forceload_init(void)
{
    loop_timer_init(&timer, load_missing);
    timer_ready = srv->loop != NULL;
    if (store_active()) read_file();
    kick_loader();
}
