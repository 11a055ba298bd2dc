/*
 * fuzz_anvil.c — libFuzzer target for everything that reads world files:
 * chunk NBT (world/anvil.c), level.dat (world/level.c) and region files
 * (world/region.c). The first byte picks the reader; the rest is its input.
 *
 *   0: chunk NBT → anvil_decode; a chunk that decodes must satisfy the
 *      section invariants, encode, and decode again to the same blocks
 *   1: level.dat NBT → level_parse; what parses must encode and parse again
 *   2: a region file (written to a temporary file) → region_open, then every
 *      chunk read, decompressed and decoded
 * Invariant: no crash, no read outside the input, no leak, bounded memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "data/blocks.h"
#include "world/anvil.h"
#include "world/level.h"
#include "world/region.h"

static void check_chunk(const chunk *c)
{
    for (int s = 0; s < CHUNK_SECTIONS; s++) {
        const section *sec = &c->sections[s];
        if (sec->bits != 0 && sec->bits != BLOCK_GLOBAL_BITS && (sec->bits < 4 || sec->bits > 8))
            abort();
        if (sec->bits >= 4 && sec->bits <= 8 && sec->palette_len > (1u << sec->bits)) abort();
        unsigned non_air = 0;
        for (int y = 0; y < 16; y++)
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    uint16_t st = chunk_get_block(c, x, CHUNK_MIN_Y + s * 16 + y, z);
                    if (st >= BLOCK_STATE_COUNT) abort();
                    non_air += !block_is_air(st);
                }
        if (non_air != sec->non_air) abort();
        for (int i = 0; i < 64; i++)
            if (sec->biomes[i] >= 64) abort();
    }
}

static void fuzz_chunk(const uint8_t *p, size_t n)
{
    chunk c, d;
    anvil_extra x;
    char why[200];
    if (anvil_decode(p, n, 0, 0, &c, &x, why, sizeof why) != ANVIL_OK) {
        chunk_free(&c);
        return;
    }
    check_chunk(&c);
    buf_t b;
    buf_init(&b, ANVIL_MAX_NBT + (1u << 20));
    if (anvil_encode(&c, &x, 0, &b) == 0) {
        anvil_extra y;
        if (anvil_decode(b.data, b.len, 0, 0, &d, &y, why, sizeof why) != ANVIL_OK) abort();
        for (int s = 0; s < CHUNK_SECTIONS; s++)
            for (int i = 0; i < 4096; i++) {
                int bx = i & 15, bz = (i >> 4) & 15, by = CHUNK_MIN_Y + s * 16 + (i >> 8);
                if (chunk_get_block(&c, bx, by, bz) != chunk_get_block(&d, bx, by, bz)) abort();
            }
        anvil_extra_free(&y);
        chunk_free(&d);
    }
    buf_free(&b);
    anvil_extra_free(&x);
    chunk_free(&c);
}

static void fuzz_level(const uint8_t *p, size_t n)
{
    level_info li;
    memset(&li, 0, sizeof li);
    char why[128];
    if (level_parse(p, n, &li, why, sizeof why) < 0) return;
    li.raw = malloc(n ? n : 1);
    memcpy(li.raw, p, n);
    li.raw_len = n;
    li.loaded = true;
    struct server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    buf_t b;
    buf_init(&b, ANVIL_MAX_NBT);
    if (level_encode(&li, &cfg, NULL, 0, &b) == 0) {
        level_info again;
        memset(&again, 0, sizeof again);
        if (level_parse(b.data, b.len, &again, why, sizeof why) < 0) abort();
        if (again.seed != li.seed) abort();
    }
    buf_free(&b);
    level_info_free(&li);
}

static void fuzz_region(const uint8_t *p, size_t n)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz-anvil-%d.mca", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
    region *r;
    if (region_open(&r, path, 0, 0, false) == 0) {
        for (int i = 0; i < 1024; i++) {
            region_chunk rc;
            if (region_read(r, i & 31, i >> 5, &rc) == 1) {
                uint8_t *nbt;
                size_t len;
                if (anvil_decompress(rc.type, rc.data, rc.len, 1u << 20, &nbt, &len) == 0) {
                    chunk c;
                    char why[200];
                    if (anvil_decode(nbt, len, i & 31, i >> 5, &c, NULL, why, sizeof why) ==
                        ANVIL_OK)
                        check_chunk(&c);
                    chunk_free(&c);
                    free(nbt);
                }
            }
            region_chunk_free(&rc);
        }
        region_close(r);
    }
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    if (!quiet) {
        log_set_stderr(0); /* unknown-name warnings would flood the output */
        quiet = 1;
    }
    if (size < 1) return 0;
    switch (data[0] % 3) {
    case 0: fuzz_chunk(data + 1, size - 1); break;
    case 1: fuzz_level(data + 1, size - 1); break;
    default: fuzz_region(data + 1, size - 1); break;
    }
    return 0;
}
