/*
 * chunk_viewers.c — see chunk_viewers.h. An open-addressing table (linear
 * probing, power-of-two size, at most half full) from a chunk's key to its
 * viewer array; an emptied entry is deleted by shifting the probe run back
 * (no tombstones), so lookups stay short however players move.
 */
#include "game/chunk_viewers.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"

struct cv_entry {
    int64_t key; /* chunk x << 32 | (uint32_t)chunk z; valid when v != NULL */
    uint32_t n, cap;
    conn **v;
};

static struct cv_entry *tab;
static size_t tab_size, tab_used; /* size: a power of two, or 0 */
static conn **scratch;
static size_t scratch_cap;

static int64_t key_of(int32_t cx, int32_t cz)
{
    return (int64_t)((uint64_t)(uint32_t)cx << 32 | (uint32_t)cz);
}

static size_t hash_of(int64_t k)
{
    uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17);
}

static struct cv_entry *find(int64_t k)
{
    if (!tab_size) return NULL;
    for (size_t i = hash_of(k) & (tab_size - 1);; i = (i + 1) & (tab_size - 1)) {
        if (!tab[i].v) return NULL;
        if (tab[i].key == k) return &tab[i];
    }
}

static bool grow(void)
{
    size_t nsize = tab_size ? tab_size * 2 : 1024;
    struct cv_entry *nt = calloc(nsize, sizeof *nt);
    if (!nt) return false;
    for (size_t i = 0; i < tab_size; i++) {
        if (!tab[i].v) continue;
        size_t j = hash_of(tab[i].key) & (nsize - 1);
        while (nt[j].v) j = (j + 1) & (nsize - 1);
        nt[j] = tab[i];
    }
    free(tab);
    tab = nt;
    tab_size = nsize;
    return true;
}

void cv_add(conn *c, int32_t cx, int32_t cz)
{
    int64_t k = key_of(cx, cz);
    struct cv_entry *e = find(k);
    if (!e) {
        if ((tab_used + 1) * 2 > tab_size && !grow()) goto oom;
        size_t i = hash_of(k) & (tab_size - 1);
        while (tab[i].v) i = (i + 1) & (tab_size - 1);
        conn **v = malloc(4 * sizeof *v);
        if (!v) goto oom;
        tab[i] = (struct cv_entry){k, 0, 4, v};
        tab_used++;
        e = &tab[i];
    }
    if (e->n == e->cap) {
        conn **v = realloc(e->v, 2 * e->cap * sizeof *v);
        if (!v) goto oom;
        e->v = v;
        e->cap *= 2;
    }
    e->v[e->n++] = c;
    return;
oom:
    /* The player simply misses that chunk's broadcasts; it is still sent
     * the chunk itself, and the next window move tries again. */
    log_warn("out of memory indexing the viewers of chunk %d,%d", cx, cz);
}

/* Deletes tab[i] and shifts the rest of its probe run back over it. */
static void delete_at(size_t i)
{
    free(tab[i].v);
    tab[i].v = NULL;
    tab_used--;
    for (size_t j = (i + 1) & (tab_size - 1); tab[j].v; j = (j + 1) & (tab_size - 1)) {
        size_t home = hash_of(tab[j].key) & (tab_size - 1);
        /* tab[j] may move into the hole at i unless its home lies in (i, j] */
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (stays) continue;
        tab[i] = tab[j];
        tab[j].v = NULL;
        i = j;
    }
}

void cv_remove(conn *c, int32_t cx, int32_t cz)
{
    struct cv_entry *e = find(key_of(cx, cz));
    if (!e) return;
    for (uint32_t k = 0; k < e->n; k++) {
        if (e->v[k] != c) continue;
        e->v[k] = e->v[--e->n];
        if (!e->n) delete_at((size_t)(e - tab));
        return;
    }
}

conn **cv_copy(int32_t cx, int32_t cz, size_t *n)
{
    struct cv_entry *e = find(key_of(cx, cz));
    *n = 0;
    if (!e) return scratch;
    if (e->n > scratch_cap) {
        size_t cap = e->n < 64 ? 64 : e->n;
        conn **s = realloc(scratch, cap * sizeof *s);
        if (!s) return scratch;
        scratch = s;
        scratch_cap = cap;
    }
    memcpy(scratch, e->v, e->n * sizeof *scratch);
    *n = e->n;
    return scratch;
}

conn *const *cv_peek(int32_t cx, int32_t cz, size_t *n)
{
    struct cv_entry *e = find(key_of(cx, cz));
    *n = e ? e->n : 0;
    return e ? e->v : NULL;
}

size_t cv_count(int32_t cx, int32_t cz)
{
    struct cv_entry *e = find(key_of(cx, cz));
    return e ? e->n : 0;
}
