/* light.c — see light.h. Breadth-first flood fill over one column. */
#include "world/light.h"

#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "proto/wire.h"

#define CELLS (CHUNK_HEIGHT * 256)

static inline uint8_t filter_of(uint16_t state)
{
    return block_info[block_of_state[state]].filter_light;
}

/* A fixed ring queue of cell indices; a cell may be queued more than once. */
struct queue {
    uint32_t *q;
    uint32_t head, tail, cap; /* cap is a power of two */
};

static void spread(uint8_t *lvl, const uint8_t *filter, struct queue *q)
{
    while (q->head != q->tail) {
        uint32_t i = q->q[q->head++ & (q->cap - 1)];
        uint8_t l = lvl[i];
        if (l <= 1) continue;
        int x = (int)(i & 15), z = (int)((i >> 4) & 15), y = (int)(i >> 8);
        uint32_t nb[6];
        int n = 0;
        if (x > 0) nb[n++] = i - 1;
        if (x < 15) nb[n++] = i + 1;
        if (z > 0) nb[n++] = i - 16;
        if (z < 15) nb[n++] = i + 16;
        if (y > 0) nb[n++] = i - 256;
        if (y < CHUNK_HEIGHT - 1) nb[n++] = i + 256;
        for (int k = 0; k < n; k++) {
            uint8_t f = filter[nb[k]];
            int nl = (int)l - (f > 1 ? f : 1);
            if (nl > lvl[nb[k]]) {
                lvl[nb[k]] = (uint8_t)nl;
                if (q->tail - q->head < q->cap) q->q[q->tail++ & (q->cap - 1)] = nb[k];
            }
        }
    }
}

void light_compute(const chunk *c, chunk_light *out)
{
    uint8_t *filter = malloc(CELLS);
    struct queue q = {malloc(sizeof(uint32_t) * (1u << 17)), 0, 0, 1u << 17};
    memset(out->sky, 0, CELLS);
    memset(out->block, 0, CELLS);
    if (!filter || !q.q) {
        /* Out of memory: full-bright sky rather than nothing. */
        memset(out->sky, 15, CELLS);
        free(filter);
        free(q.q);
        return;
    }
    bool any_emitter = false;
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        const section *s = &c->sections[sy];
        uint8_t *f = filter + sy * 4096;
        if (s->bits == 0) {
            memset(f, filter_of(s->single), 4096);
            if (block_info[block_of_state[s->single]].emit_light) any_emitter = true;
            continue;
        }
        for (int i = 0; i < 4096; i++) {
            uint16_t st = section_get(s, (unsigned)i);
            const struct block_info *b = &block_info[block_of_state[st]];
            f[i] = b->filter_light;
            if (b->emit_light) {
                out->block[sy * 4096 + i] = b->emit_light;
                any_emitter = true;
            }
        }
    }

    /* Sky: straight down, then spread sideways and below overhangs. */
    for (int col = 0; col < 256; col++) {
        int l = 15;
        for (int y = CHUNK_HEIGHT - 1; y >= 0 && l > 0; y--) {
            int i = y << 8 | col;
            l -= filter[i];
            if (l <= 0) break;
            out->sky[i] = (uint8_t)l;
        }
    }
    for (uint32_t i = 0; i < CELLS; i++) {
        uint8_t l = out->sky[i];
        if (l < 2) continue;
        /* Queue only cells with a darker neighbour that light can enter. */
        int x = (int)(i & 15), z = (int)((i >> 4) & 15), y = (int)(i >> 8);
        bool edge = (x > 0 && out->sky[i - 1] + 1 < l && filter[i - 1] < 15) ||
                    (x < 15 && out->sky[i + 1] + 1 < l && filter[i + 1] < 15) ||
                    (z > 0 && out->sky[i - 16] + 1 < l && filter[i - 16] < 15) ||
                    (z < 15 && out->sky[i + 16] + 1 < l && filter[i + 16] < 15) ||
                    (y > 0 && out->sky[i - 256] + 1 < l && filter[i - 256] < 15);
        if (edge) {
            q.q[q.tail++ & (q.cap - 1)] = i;
            if (q.tail - q.head == q.cap) spread(out->sky, filter, &q);
        }
    }
    spread(out->sky, filter, &q);

    if (any_emitter) {
        q.head = q.tail = 0;
        for (uint32_t i = 0; i < CELLS; i++) {
            if (out->block[i] < 2) continue;
            q.q[q.tail++ & (q.cap - 1)] = i;
            if (q.tail - q.head == q.cap) spread(out->block, filter, &q);
        }
        spread(out->block, filter, &q);
    }
    free(filter);
    free(q.q);
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
