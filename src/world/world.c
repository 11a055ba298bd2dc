/* world.c — see world.h. */
#include "world/world.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "data/biomes.h"
#include "data/blocks.h"
#include "proto/frame.h"

#define CHUNK_COMPRESSION_LEVEL 6

void flat_generate(chunk *c)
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            chunk_set_block(c, x, -64, z, BLOCK_BEDROCK);
            chunk_set_block(c, x, -63, z, BLOCK_DIRT);
            chunk_set_block(c, x, -62, z, BLOCK_DIRT);
            chunk_set_block(c, x, -61, z, BLOCK_GRASS_BLOCK);
        }
}

static inline size_t slot_of(const world *w, int32_t x, int32_t z)
{
    uint64_t k = (uint64_t)(uint32_t)x << 32 | (uint32_t)z;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (w->nbuckets - 1);
}

int world_init(world *w, int compression_threshold)
{
    memset(w, 0, sizeof *w);
    w->nbuckets = 1024;
    w->buckets = calloc(w->nbuckets, sizeof *w->buckets);
    w->compression_threshold = compression_threshold;
    w->compressor = libdeflate_alloc_compressor(CHUNK_COMPRESSION_LEVEL);
    buf_init(&w->scratch, 0);
    if (!w->buckets || !w->compressor) {
        world_free(w);
        return -1;
    }
    return 0;
}

void world_free(world *w)
{
    for (size_t i = 0; w->buckets && i < w->nbuckets; i++) {
        chunk_entry *e = w->buckets[i];
        while (e) {
            chunk_entry *n = e->next;
            chunk_free(&e->c);
            buf_free(&e->frame);
            free(e);
            e = n;
        }
    }
    free(w->buckets);
    if (w->compressor) libdeflate_free_compressor(w->compressor);
    buf_free(&w->scratch);
    memset(w, 0, sizeof *w);
}

static void grow(world *w)
{
    size_t nb = w->nbuckets * 2;
    chunk_entry **nbk = calloc(nb, sizeof *nbk);
    if (!nbk) return; /* keep the longer chains */
    size_t old = w->nbuckets;
    chunk_entry **ob = w->buckets;
    w->buckets = nbk;
    w->nbuckets = nb;
    for (size_t i = 0; i < old; i++) {
        chunk_entry *e = ob[i];
        while (e) {
            chunk_entry *n = e->next;
            size_t s = slot_of(w, e->c.x, e->c.z);
            e->next = nbk[s];
            nbk[s] = e;
            e = n;
        }
    }
    free(ob);
}

static chunk_entry *find(world *w, int32_t x, int32_t z)
{
    for (chunk_entry *e = w->buckets[slot_of(w, x, z)]; e; e = e->next)
        if (e->c.x == x && e->c.z == z) return e;
    return NULL;
}

chunk_entry *world_get(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = find(w, x, z);
    if (e) return e;
    e = calloc(1, sizeof *e);
    if (!e) return NULL;
    chunk_init(&e->c, x, z, BLOCK_AIR, BIOME_PLAINS);
    flat_generate(&e->c);
    buf_init(&e->frame, 0);
    if (w->count >= w->nbuckets) grow(w);
    size_t s = slot_of(w, x, z);
    e->next = w->buckets[s];
    w->buckets[s] = e;
    w->count++;
    w->chunks_generated++;
    return e;
}

const buf_t *world_acquire_frame(world *w, int32_t x, int32_t z)
{
    chunk_entry *e = world_get(w, x, z);
    if (!e) return NULL;
    if (e->frame.len == 0) {
        buf_reset(&w->scratch);
        chunk_encode_packet(&e->c, &w->scratch);
        buf_reset(&e->frame);
        if (w->scratch.failed || frame_encode(&e->frame, w->scratch.data, w->scratch.len,
                                              w->compression_threshold, w->compressor) < 0) {
            buf_reset(&e->frame);
            return NULL;
        }
        w->chunks_encoded++;
    }
    e->viewers++;
    return &e->frame;
}

void world_release(world *w, int32_t x, int32_t z, int64_t now_ms)
{
    chunk_entry *e = find(w, x, z);
    if (!e || e->viewers <= 0) return;
    if (--e->viewers == 0) e->idle_since_ms = now_ms;
}

size_t world_sweep(world *w, int64_t now_ms)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nbuckets; i++) {
        chunk_entry **pp = &w->buckets[i];
        while (*pp) {
            chunk_entry *e = *pp;
            if (e->viewers == 0 && now_ms - e->idle_since_ms >= WORLD_IDLE_UNLOAD_MS) {
                *pp = e->next;
                chunk_free(&e->c);
                buf_free(&e->frame);
                free(e);
                w->count--;
                n++;
            } else {
                pp = &e->next;
            }
        }
    }
    return n;
}

uint16_t world_get_block(world *w, int32_t x, int32_t y, int32_t z)
{
    chunk_entry *e = world_get(w, x >> 4, z >> 4);
    return e ? chunk_get_block(&e->c, x & 15, y, z & 15) : BLOCK_AIR;
}
