/*
 * light.c — see light.h. A flood fill over the column and the LIGHT_REACH
 * columns around it (the "area": 44 × 44 columns, 384 high), touching only
 * cells that light reaches:
 *
 *  1. the lowest sky source of every column of the area (the highest block
 *     that filters light, found from the top down);
 *  2. seeds: sky sources next to a darker cell (the cell under each column's
 *     lowest source, and source cells beside a column whose sources start
 *     higher), every block that emits light;
 *  3. a bucket queue by level, 15 down to 2: a cell popped at its current
 *     level is final (every step loses at least 1), so each cell spreads
 *     once.
 *
 * Pruning (exact by invariant 1 of light.h): a cell outside the middle
 * column at a distance d (in steps, |dx| + |dz| to the nearest middle
 * column) is given a level l only if l > d, as light it passes on could not
 * reach the middle column otherwise; so most of the area is never read.
 *
 * Levels of the middle column live in the caller's chunk_light; those of
 * the neighbours in 4 KiB pages allocated on first write, one per section.
 * Band sky sources are implicit (y >= the column's lowest source y).
 */
#include "world/light.h"

#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "proto/wire.h"

#define CELLS         (CHUNK_HEIGHT * 256)
#define MARGIN        LIGHT_REACH
#define AREA          (16 + 2 * MARGIN) /* columns across */
#define SKY           0
#define BLK           1
/* A cell of the area: y << 12 | Z << 6 | X, with X, Z in 0..AREA-1. */
#define CELL(X, y, Z) ((uint32_t)(y) << 12 | (uint32_t)(Z) << 6 | (uint32_t)(X))
/* A column with no sky source in the world (not loaded, or nothing open). */
#define NO_SOURCE     (CHUNK_HEIGHT + 1)

/* Area coordinate → neighbour index 0..2 along that axis, position in it, distance. */
static inline int slot_of(int A)
{
    return (A - MARGIN + 16) >> 4;
}
static inline int in_of(int A)
{
    return (A - MARGIN + 16) & 15;
}
static inline int dist_of(int A)
{
    return A < MARGIN ? MARGIN - A : A >= MARGIN + 16 ? A - (MARGIN + 15) : 0;
}

static inline uint8_t filter_of(uint16_t state)
{
    return block_info[block_of_state[state]].filter_light;
}

static inline uint8_t emit_of(uint16_t state)
{
    return block_info[block_of_state[state]].emit_light;
}

struct bucket {
    uint32_t *v;
    uint32_t n, cap;
};

struct area {
    const chunk *ch[9];
    int16_t lsy[AREA * AREA]; /* lowest sky source y index per column, or NO_SOURCE */
    uint8_t *page[2][9][CHUNK_SECTIONS];
    struct bucket b[16];
    bool oom;
};

static void push(struct area *a, int level, uint32_t cell)
{
    struct bucket *b = &a->b[level];
    if (b->n == b->cap) {
        uint32_t ncap = b->cap ? b->cap * 2 : 1024;
        uint32_t *nv = realloc(b->v, ncap * sizeof *nv);
        if (!nv) {
            a->oom = true;
            return;
        }
        b->v = nv;
        b->cap = ncap;
    }
    b->v[b->n++] = cell;
}

static inline unsigned in_section(uint32_t i)
{
    return (i >> 12 & 15) << 8 | (unsigned)in_of((int)(i >> 6 & 63)) << 4 |
           (unsigned)in_of((int)(i & 63));
}

static inline int slot9(uint32_t i)
{
    return slot_of((int)(i >> 6 & 63)) * 3 + slot_of((int)(i & 63));
}

static inline uint8_t level_get(const struct area *a, int kind, uint32_t i)
{
    const uint8_t *p = a->page[kind][slot9(i)][i >> 16];
    return p ? p[in_section(i)] : 0;
}

static inline void level_set(struct area *a, int kind, uint32_t i, uint8_t l)
{
    uint8_t **pp = &a->page[kind][slot9(i)][i >> 16];
    if (!*pp) {
        *pp = calloc(1, 4096);
        if (!*pp) {
            a->oom = true;
            return;
        }
    }
    (*pp)[in_section(i)] = l;
}

/* Filter of a cell; 15 in a neighbour that is not loaded. */
static inline uint8_t filter_at(const struct area *a, uint32_t i)
{
    const chunk *c = a->ch[slot9(i)];
    if (!c) return 15;
    const section *s = &c->sections[i >> 16];
    return filter_of(s->bits == 0 ? s->single : section_get(s, in_section(i)));
}

static inline bool is_source(const struct area *a, int X, int y, int Z)
{
    return y >= a->lsy[Z * AREA + X];
}

/* Offers level l - max(1, filter) to cell (X, y, Z), from a neighbour at l. */
static inline void relax(struct area *a, int kind, int X, int y, int Z, int l)
{
    if ((unsigned)X >= AREA || (unsigned)Z >= AREA || (unsigned)y >= CHUNK_HEIGHT) return;
    int d = dist_of(X) + dist_of(Z);
    if (l - 1 <= d) return; /* nothing of it could reach the middle column */
    if (kind == SKY && is_source(a, X, y, Z)) return;
    uint32_t n = CELL(X, y, Z);
    int have = level_get(a, kind, n);
    if (l - 1 <= have) return;
    int f = filter_at(a, n);
    int nl = l - (f > 1 ? f : 1);
    if (nl <= have || nl <= d) return;
    level_set(a, kind, n, (uint8_t)nl);
    if (nl >= 2) push(a, nl, n);
}

static void flood(struct area *a, int kind)
{
    for (int l = 15; l >= 2; l--) {
        struct bucket *b = &a->b[l];
        for (uint32_t k = 0; k < b->n; k++) { /* relax only pushes below l */
            uint32_t i = b->v[k];
            int X = (int)(i & 63), Z = (int)(i >> 6 & 63), y = (int)(i >> 12);
            int cur = kind == SKY && is_source(a, X, y, Z) ? 15 : level_get(a, kind, i);
            if (cur != l) continue; /* raised since it was queued: spread from its own bucket */
            relax(a, kind, X - 1, y, Z, l);
            relax(a, kind, X + 1, y, Z, l);
            relax(a, kind, X, y, Z - 1, l);
            relax(a, kind, X, y, Z + 1, l);
            relax(a, kind, X, y - 1, Z, l);
            relax(a, kind, X, y + 1, Z, l);
        }
        b->n = 0;
    }
}

/* The lowest y index of column (x, z) from which the sky is seen: just above
 * the highest block that filters light; 0 when nothing does. */
static int16_t column_lsy(const chunk *c, int x, int z)
{
    for (int sy = CHUNK_SECTIONS - 1; sy >= 0; sy--) {
        const section *s = &c->sections[sy];
        if (s->non_air == 0) continue; /* air of every kind filters nothing */
        if (s->bits == 0) {
            if (filter_of(s->single) == 0) continue;
            return (int16_t)(sy * 16 + 16);
        }
        for (int y = 15; y >= 0; y--)
            if (filter_of(section_get(s, (unsigned)(y << 8 | z << 4 | x))))
                return (int16_t)(sy * 16 + y + 1);
    }
    return 0;
}

static void sky_sources(struct area *a, chunk_light *out)
{
    for (int Z = 0; Z < AREA; Z++)
        for (int X = 0; X < AREA; X++) {
            const chunk *c = a->ch[slot_of(Z) * 3 + slot_of(X)];
            a->lsy[Z * AREA + X] = c ? column_lsy(c, in_of(X), in_of(Z)) : NO_SOURCE;
        }
    /* The middle column's sources are stored: 15 from the lowest source up. */
    int lo = CHUNK_HEIGHT, hi = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int L = a->lsy[(z + MARGIN) * AREA + x + MARGIN];
            lo = L < lo ? L : lo;
            hi = L > hi ? L : hi;
        }
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        if (sy * 16 >= hi) {
            memset(out->sky + sy * 4096, 15, 4096);
        } else if (sy * 16 + 16 > lo) {
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int L = a->lsy[(z + MARGIN) * AREA + x + MARGIN];
                    for (int y = L > sy * 16 ? L : sy * 16; y < sy * 16 + 16; y++)
                        out->sky[y << 8 | z << 4 | x] = 15;
                }
        }
    }
    /* Seeds: down into each column below its lowest source, and sideways
     * where a neighbouring column's sources start higher. */
    for (int Z = 0; Z < AREA; Z++)
        for (int X = 0; X < AREA; X++) {
            int L = a->lsy[Z * AREA + X];
            if (L == NO_SOURCE || dist_of(X) + dist_of(Z) >= MARGIN) continue;
            if (L > 0) relax(a, SKY, X, L - 1, Z, 15);
            int top = 0;
            static const int dxz[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (int k = 0; k < 4; k++) {
                int nx = X + dxz[k][0], nz = Z + dxz[k][1];
                if ((unsigned)nx >= AREA || (unsigned)nz >= AREA) continue;
                int nl = a->lsy[nz * AREA + nx];
                if (nl != NO_SOURCE && nl > top) top = nl;
            }
            if (top > CHUNK_HEIGHT) top = CHUNK_HEIGHT;
            for (int y = L; y < top; y++) push(a, 15, CELL(X, y, Z));
        }
}

static bool section_emits(const section *s)
{
    if (s->bits == 0) return emit_of(s->single) > 0;
    if (!s->palette) return true; /* direct: look at every block */
    for (unsigned k = 0; k < s->palette_len; k++)
        if (emit_of(s->palette[k])) return true;
    return false;
}

static void block_sources(struct area *a)
{
    for (int slot = 0; slot < 9; slot++) {
        const chunk *c = a->ch[slot];
        if (!c) continue;
        int sx = slot % 3, sz = slot / 3;
        /* The part of this chunk inside the area, in area coordinates. */
        int x0 = sx == 0 ? 0 : sx == 1 ? MARGIN : MARGIN + 16;
        int x1 = sx == 0 ? MARGIN : sx == 1 ? MARGIN + 16 : AREA;
        int z0 = sz == 0 ? 0 : sz == 1 ? MARGIN : MARGIN + 16;
        int z1 = sz == 0 ? MARGIN : sz == 1 ? MARGIN + 16 : AREA;
        for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
            const section *s = &c->sections[sy];
            if (!section_emits(s)) continue;
            for (int y = sy * 16; y < sy * 16 + 16; y++)
                for (int Z = z0; Z < z1; Z++)
                    for (int X = x0; X < x1; X++) {
                        uint32_t i = CELL(X, y, Z);
                        int e = emit_of(section_get(s, in_section(i)));
                        if (e <= dist_of(X) + dist_of(Z) || e <= level_get(a, BLK, i)) continue;
                        level_set(a, BLK, i, (uint8_t)e);
                        if (e >= 2) push(a, e, i);
                    }
        }
    }
}

int light_compute_view(const light_view *v, chunk_light *out)
{
    struct area *a = calloc(1, sizeof *a);
    memset(out->sky, 0, CELLS);
    memset(out->block, 0, CELLS);
    if (!a) {
        memset(out->sky, 15, CELLS); /* out of memory: full-bright sky rather than dark */
        return -1;
    }
    memcpy(a->ch, v->c, sizeof a->ch);
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        a->page[SKY][4][sy] = out->sky + sy * 4096;
        a->page[BLK][4][sy] = out->block + sy * 4096;
    }
    sky_sources(a, out);
    flood(a, SKY);
    block_sources(a);
    flood(a, BLK);
    int rc = a->oom ? -1 : 0;
    for (int k = 0; k < 2; k++)
        for (int slot = 0; slot < 9; slot++)
            if (slot != 4)
                for (int sy = 0; sy < CHUNK_SECTIONS; sy++) free(a->page[k][slot][sy]);
    for (int l = 0; l < 16; l++) free(a->b[l].v);
    free(a);
    return rc;
}

void light_compute(const chunk *c, chunk_light *out)
{
    light_view v = {{NULL}};
    v.c[4] = c;
    light_compute_view(&v, out);
}

bool light_states_differ(uint16_t a, uint16_t b)
{
    const struct block_info *x = &block_info[block_of_state[a]],
                            *y = &block_info[block_of_state[b]];
    return x->emit_light != y->emit_light || x->filter_light != y->filter_light;
}

bool light_change_reaches(int lx, int lz, int dx, int dz)
{
    int ax = dx < 0 ? lx + 1 : dx > 0 ? 16 - lx : 0;
    int az = dz < 0 ? lz + 1 : dz > 0 ? 16 - lz : 0;
    return ax + az <= LIGHT_REACH;
}

uint64_t light_wire_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static void bitset_write(buf_t *out, uint32_t bits)
{
    if (!bits) {
        wr_varint(out, 0);
        return;
    }
    wr_varint(out, 1);
    wr_i64(out, bits);
}

static bool section_all(const uint8_t *lvl, int sy, uint8_t v)
{
    const uint8_t *p = lvl + sy * 4096;
    for (int i = 0; i < 4096; i++)
        if (p[i] != v) return false;
    return true;
}

static void write_arrays(buf_t *out, const uint8_t *lvl, uint32_t mask)
{
    wr_varint(out, __builtin_popcount(mask));
    for (int l = 1; l <= CHUNK_SECTIONS; l++) {
        if (!(mask & (1u << l))) continue;
        wr_varint(out, 2048);
        uint8_t *nib = buf_reserve(out, 2048);
        if (!nib) return;
        const uint8_t *p = lvl + (l - 1) * 4096;
        for (int i = 0; i < 4096; i += 2) nib[i >> 1] = (uint8_t)(p[i] | p[i + 1] << 4);
        out->len += 2048;
    }
}

void light_write(const chunk_light *l, buf_t *out)
{
    uint32_t sky = 0, empty_sky = 1u << 0, blk = 0,
             empty_blk = 1u << 0 | 1u << (CHUNK_SECTIONS + 1);
    bool open_above = true;
    for (int sy = CHUNK_SECTIONS - 1; sy >= 0; sy--) {
        int bit = sy + 1;
        if (open_above && section_all(l->sky, sy, 15)) continue; /* open sky: leave out */
        open_above = false;
        if (section_all(l->sky, sy, 0))
            empty_sky |= 1u << bit;
        else
            sky |= 1u << bit;
    }
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        if (section_all(l->block, sy, 0))
            empty_blk |= 1u << (sy + 1);
        else
            blk |= 1u << (sy + 1);
    }
    bitset_write(out, sky);
    bitset_write(out, blk);
    bitset_write(out, empty_sky);
    bitset_write(out, empty_blk);
    write_arrays(out, l->sky, sky);
    write_arrays(out, l->block, blk);
}
