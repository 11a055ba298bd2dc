/* wg_cache.c — see wg_cache.h. */
#include "world/wg_cache.h"

#include <pthread.h>
#include <string.h>

#include "world/noise_chunk.h"

struct corner_entry {
    int64_t seed;
    int32_t x, z;
    uint64_t have; /* levels present; 0: empty */
    wg_corner_levels v;
};

struct memo_entry {
    int64_t seed;
    int32_t kind, x, z; /* kind 0: empty */
    int32_t v[2];
};

static struct corner_entry corners[WG_CORNER_CACHE_ENTRIES];
static struct memo_entry memos[WG_MEMO_ENTRIES];

#define L4                                                                                         \
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,               \
        PTHREAD_MUTEX_INITIALIZER
#define L16 L4, L4, L4, L4
static pthread_mutex_t corner_locks[WG_CACHE_LOCKS] = {L16, L16, L16, L16};
static pthread_mutex_t memo_locks[WG_CACHE_LOCKS] = {L16, L16, L16, L16};
#undef L16
#undef L4
_Static_assert(WG_CACHE_LOCKS == 64, "the initialisers above list 64 mutexes");
_Static_assert((WG_CORNER_CACHE_ENTRIES & (WG_CORNER_CACHE_ENTRIES - 1)) == 0 &&
                   (WG_MEMO_ENTRIES & (WG_MEMO_ENTRIES - 1)) == 0,
               "table sizes: powers of two");

static uint64_t mix(int64_t seed, uint32_t kind, int32_t x, int32_t z)
{
    uint64_t h = (uint64_t)seed ^ ((uint64_t)(uint32_t)x << 32 | (uint32_t)z) ^
                 (uint64_t)kind * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static void copy_levels(wg_corner_levels dst, const wg_corner_levels src, uint64_t bits)
{
    for (uint64_t b = bits; b; b &= b - 1) {
        int j = __builtin_ctzll(b);
        for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++) dst[s][j] = src[s][j];
    }
}

static int corner_is(const struct corner_entry *e, int64_t seed, int32_t x, int32_t z)
{
    return e->have && e->seed == seed && e->x == x && e->z == z;
}

void wg_corner_column(const wg_state *st, int32_t x, int32_t z, uint64_t want, wg_corner_levels out)
{
    unsigned i = (unsigned)mix(st->seed, 0, x >> 2, z >> 2) & (WG_CORNER_CACHE_ENTRIES - 1);
    struct corner_entry *e = &corners[i];
    pthread_mutex_t *m = &corner_locks[i % WG_CACHE_LOCKS];
    uint64_t found = 0;
    pthread_mutex_lock(m);
    if (corner_is(e, st->seed, x, z)) {
        found = e->have & want;
        copy_levels(out, e->v, found);
    }
    pthread_mutex_unlock(m);
    uint64_t missing = want & ~found;
    if (!missing) return;
    /* the corners vanilla's NoiseChunk computes, in its slot order */
    wg_pt p;
    wg_pt_init(&p, st);
    for (uint64_t b = missing; b; b &= b - 1) {
        int j = __builtin_ctzll(b);
        wg_pt_at(&p, x, WG_MIN_Y + j * WG_CELL_HEIGHT, z);
        for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++)
            out[s][j] = wg_interp_args[wg_final_slots[s]](&p);
    }
    pthread_mutex_lock(m);
    if (!corner_is(e, st->seed, x, z)) {
        e->seed = st->seed;
        e->x = x;
        e->z = z;
        e->have = 0;
    }
    copy_levels(e->v, out, missing & ~e->have);
    e->have |= missing;
    pthread_mutex_unlock(m);
}

int wg_memo_get(const wg_state *st, int kind, int32_t x, int32_t z, int32_t v[2])
{
    unsigned i = (unsigned)mix(st->seed, (uint32_t)kind, x, z) & (WG_MEMO_ENTRIES - 1);
    const struct memo_entry *e = &memos[i];
    pthread_mutex_t *m = &memo_locks[i % WG_CACHE_LOCKS];
    int hit = 0;
    pthread_mutex_lock(m);
    if (e->kind == kind && e->seed == st->seed && e->x == x && e->z == z) {
        v[0] = e->v[0];
        v[1] = e->v[1];
        hit = 1;
    }
    pthread_mutex_unlock(m);
    return hit;
}

void wg_memo_put(const wg_state *st, int kind, int32_t x, int32_t z, const int32_t v[2])
{
    unsigned i = (unsigned)mix(st->seed, (uint32_t)kind, x, z) & (WG_MEMO_ENTRIES - 1);
    struct memo_entry *e = &memos[i];
    pthread_mutex_t *m = &memo_locks[i % WG_CACHE_LOCKS];
    pthread_mutex_lock(m);
    *e = (struct memo_entry){st->seed, kind, x, z, {v[0], v[1]}};
    pthread_mutex_unlock(m);
}

int wg_prelim_cached(const wg_state *st, int32_t x, int32_t z)
{
    int32_t qx = x >> 2, qz = z >> 2, v[2];
    if (wg_memo_get(st, WG_MEMO_PRELIM, qx, qz, v)) return v[0];
    wg_pt p;
    wg_pt_init(&p, st);
    v[0] = wg_preliminary_surface(&p, x, z);
    v[1] = 0;
    wg_memo_put(st, WG_MEMO_PRELIM, qx, qz, v);
    return v[0];
}
