/*
 * pool.h — fixed-size object pools for the state every tick walks
 * (connections, players, their entities), packed into 2 MiB slabs that ask
 * the kernel for transparent huge pages.
 *
 * Why: a tick touches a few cache lines of each of 10,000 players, spread
 * over as many 4 KiB pages when each object is its own malloc; the page
 * walks cost as much as the misses (measured: hold MSPT p50 7.5 → 5.4 ms
 * with 10,000 idle bots once the heap used huge pages). Objects of a pool
 * sit side by side, so the same players span ~20 huge pages.
 *
 * Invariants:
 *  1. pool_alloc returns zeroed memory of the pool's size, aligned to 64
 *     bytes; pool_free takes only what that pool returned.
 *  2. Slabs are never given back: a freed object goes on the pool's free
 *     list and is reused first (a server that once held 10,000 players
 *     keeps their ~30 MB of pools). Memory use is reported by pool_bytes.
 *     The first 2 MiB come in small-page slabs of 256 KiB, so a server with
 *     a few players holds a few hundred KB per pool, not a huge page.
 *  3. Under AddressSanitizer the pools are plain calloc/free, so a use
 *     after free is still caught.
 *  4. Single-threaded: only the loop's thread uses a pool.
 */
#ifndef MC_POOL_H
#define MC_POOL_H

#include <stddef.h>

typedef struct pool {
    size_t size;     /* object size, rounded up to 64 bytes (set by POOL_INIT) */
    void *free_list; /* freed objects, each holding the next */
    char *bump, *end;
    size_t live;   /* objects handed out and not freed */
    size_t mapped; /* bytes of slabs mapped */
} pool;

#define POOL_INIT(type)                                                                            \
    {                                                                                              \
        .size = (sizeof(type) + 63) & ~(size_t)63                                                  \
    }

/* A zeroed object, or NULL when memory is exhausted. */
void *pool_alloc(pool *p);
void pool_free(pool *p, void *obj);
/* Bytes the pool holds from the system (its slabs). */
size_t pool_bytes(const pool *p);

#endif
