/*
 * fuzz_mob.c — libFuzzer target for the readers of game/mob_rules.c (issue
 * 15), included whole: the first byte picks the reader, the rest is input.
 *
 *   0: an entities chunk (uncompressed NBT of entities/r.X.Z.mca) →
 *      mob_chunk_parse; every record read is written again into a chunk,
 *      which must parse to as many records
 *   1: summon's stringified NBT → mob_snbt_parse; what parses must be valid
 *      NBT, read as one record
 * Invariant: no crash, no read outside the input, no leak, bounded memory.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/mob_rules.c"

struct acc {
    struct mob_record r[64];
    size_t n, total;
};

static void keep(void *ctx, const struct mob_record *r)
{
    struct acc *a = ctx;
    a->total++;
    if (a->n < 64) a->r[a->n++] = *r;
}

static void count(void *ctx, const struct mob_record *r)
{
    (void)r;
    (*(size_t *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    char why[160];
    if (data[0] % 2 == 0) {
        static struct acc a;
        a.n = a.total = 0;
        size_t skipped = 0;
        int32_t pos[2];
        if (mob_chunk_parse(p, n, pos, keep, &a, &skipped, why, sizeof why) == 0 && a.n) {
            buf_t b = {0};
            mob_chunk_encode(&b, pos[0], pos[1], a.r, a.n);
            size_t again = 0, sk2 = 0;
            if (b.failed ||
                mob_chunk_parse(b.data, b.len, NULL, count, &again, &sk2, why, sizeof why) != 0 ||
                again != a.n)
                abort();
            buf_free(&b);
        }
    } else {
        if (n > 4096) return 0;
        buf_t b = {0};
        buf_init(&b, 1u << 20);
        if (mob_snbt_parse((const char *)p, n, &b, why, sizeof why) == 0) {
            nbt_doc doc;
            if (nbt_parse(b.data, b.len, true, &nbt_limits_disk, &doc) < 0) abort();
            struct mob_record r;
            mob_record_init(&r);
            char w[96];
            mob_record_read(doc.root, &r, false, w, sizeof w);
            nbt_doc_free(&doc);
        }
        buf_free(&b);
    }
    return 0;
}
