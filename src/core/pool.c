/*
 * pool.c — see pool.h. The first 2 MiB of a pool come in 256 KiB slabs of
 * small pages (a server with a few players does not pay a huge page per
 * pool); after that a slab is a 2 MiB-aligned anonymous mapping marked
 * MADV_HUGEPAGE (the kernel backs it with one huge page where it can, with
 * small pages otherwise: only the speed differs). Objects are cut from a
 * slab front to back, and freed ones are reused first.
 */
#include "core/pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SLAB_BYTES ((size_t)2 << 20)
#define SMALL_SLAB ((size_t)256 << 10)

#if defined(__SANITIZE_ADDRESS__)
#define POOL_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_PLAIN 1
#endif
#endif

#ifdef POOL_PLAIN
void *pool_alloc(pool *p)
{
    void *o = calloc(1, p->size);
    if (o) p->live++;
    return o;
}

void pool_free(pool *p, void *obj)
{
    if (!obj) return;
    p->live--;
    free(obj);
}

size_t pool_bytes(const pool *p)
{
    return p->live * p->size;
}
#else
/* A 2 MiB-aligned mapping of SLAB_BYTES: map twice the size, cut the ends. */
static char *slab_map_huge(void)
{
    size_t len = 2 * SLAB_BYTES;
    char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uintptr_t a = ((uintptr_t)m + SLAB_BYTES - 1) & ~(uintptr_t)(SLAB_BYTES - 1);
    char *s = (char *)a;
    if (s > m) munmap(m, (size_t)(s - m));
    size_t tail = (size_t)(m + len - (s + SLAB_BYTES));
    if (tail) munmap(s + SLAB_BYTES, tail);
    (void)madvise(s, SLAB_BYTES, MADV_HUGEPAGE); /* a hint: fine if refused */
    return s;
}

static char *slab_map(pool *p, size_t *len)
{
    if (p->mapped < SLAB_BYTES) {
        *len = SMALL_SLAB;
        char *m =
            mmap(NULL, SMALL_SLAB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return m == MAP_FAILED ? NULL : m;
    }
    *len = SLAB_BYTES;
    return slab_map_huge();
}

void *pool_alloc(pool *p)
{
    void *o = p->free_list;
    if (o) {
        memcpy(&p->free_list, o, sizeof(void *));
        memset(o, 0, p->size);
    } else {
        if (!p->bump || (size_t)(p->end - p->bump) < p->size) {
            size_t len;
            char *s = slab_map(p, &len);
            if (!s) return NULL;
            p->bump = s;
            p->end = s + len;
            p->mapped += len;
        }
        o = p->bump; /* fresh mapping: already zero */
        p->bump += p->size;
    }
    p->live++;
    return o;
}

void pool_free(pool *p, void *obj)
{
    if (!obj) return;
    memcpy(obj, &p->free_list, sizeof(void *));
    p->free_list = obj;
    p->live--;
}

size_t pool_bytes(const pool *p)
{
    return p->mapped;
}
#endif
