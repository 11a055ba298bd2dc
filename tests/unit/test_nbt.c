/* test_nbt.c — NBT writer/reader round trips and hostile documents. */
#include <stdlib.h>

#include "data/registry_codec.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "test.h"

TEST(nbt_round_trip_all_types)
{
    buf_t b;
    buf_init(&b, 0);
    int64_t longs[3] = {1, -2, INT64_MAX};
    int32_t ints[2] = {7, -9};
    uint8_t bytes[3] = {1, 2, 255};
    nbt_w_root(&b, "");
    nbt_w_byte(&b, "b", -5);
    nbt_w_short(&b, "s", -300);
    nbt_w_int(&b, "i", 123456789);
    nbt_w_long(&b, "l", -1234567890123LL);
    nbt_w_float(&b, "f", 1.5f);
    nbt_w_double(&b, "d", -2.25);
    nbt_w_string(&b, "str", "hello", 5);
    nbt_w_byte_array(&b, "ba", bytes, 3);
    nbt_w_int_array(&b, "ia", ints, 2);
    nbt_w_long_array(&b, "la", longs, 3);
    nbt_w_list(&b, "list", NBT_INT, 2);
    wr_i32(&b, 10);
    wr_i32(&b, 20);
    nbt_w_compound(&b, "inner");
    nbt_w_string(&b, "name", "x", 1);
    nbt_w_end(&b);
    nbt_w_end(&b);

    nbt_doc d;
    long n = nbt_parse(b.data, b.len, true, &nbt_limits_network, &d);
    CHECK_EQ_INT(n, (long)b.len);
    const nbt_node *r = d.root;
    CHECK(r && r->type == NBT_COMPOUND && r->v.kids.count == 12);
    CHECK_EQ_INT(nbt_get(r, "b", NBT_BYTE)->v.i, -5);
    CHECK_EQ_INT(nbt_get(r, "s", NBT_SHORT)->v.i, -300);
    CHECK_EQ_INT(nbt_get(r, "i", NBT_INT)->v.i, 123456789);
    CHECK(nbt_get(r, "l", NBT_LONG)->v.i == -1234567890123LL);
    CHECK(nbt_get(r, "f", NBT_FLOAT)->v.f == 1.5);
    CHECK(nbt_get(r, "d", NBT_DOUBLE)->v.f == -2.25);
    const nbt_node *s = nbt_get(r, "str", NBT_STRING);
    CHECK(s && s->v.arr.n == 5 && memcmp(s->v.arr.p, "hello", 5) == 0);
    CHECK(nbt_get(r, "ba", NBT_BYTE_ARRAY)->v.arr.p[2] == 255);
    CHECK_EQ_INT(nbt_int_at(nbt_get(r, "ia", NBT_INT_ARRAY), 1), -9);
    CHECK(nbt_long_at(nbt_get(r, "la", NBT_LONG_ARRAY), 2) == INT64_MAX);
    const nbt_node *l = nbt_get(r, "list", NBT_LIST);
    CHECK(l && l->elem_type == NBT_INT && l->v.kids.count == 2 && l->v.kids.first->next->v.i == 20);
    CHECK(nbt_get(nbt_get(r, "inner", NBT_COMPOUND), "name", NBT_STRING) != NULL);
    CHECK(nbt_get(r, "missing", NBT_END) == NULL);
    nbt_doc_free(&d);

    /* Every truncation is refused, never read past the end. */
    for (size_t k = 0; k < b.len; k++) {
        long e = nbt_parse(b.data, k, true, &nbt_limits_network, &d);
        CHECK(e < 0 || (k == 1 && e == 1));
        if (e > 0) nbt_doc_free(&d);
    }
    buf_free(&b);
}

TEST(nbt_registry_codec_parses)
{
    nbt_doc d;
    long n = nbt_parse(registry_codec_nbt, registry_codec_nbt_len, true, &nbt_limits_network, &d);
    CHECK_EQ_INT(n, (long)registry_codec_nbt_len);
    const nbt_node *dim = nbt_get(d.root, "minecraft:dimension_type", NBT_COMPOUND);
    CHECK(dim != NULL);
    CHECK(nbt_get(d.root, "minecraft:worldgen/biome", NBT_COMPOUND) != NULL);
    CHECK(nbt_get(d.root, "minecraft:chat_type", NBT_COMPOUND) != NULL);
    CHECK(nbt_get(d.root, "minecraft:damage_type", NBT_COMPOUND) != NULL);
    nbt_doc_free(&d);
}

TEST(nbt_depth_limit)
{
    /* 600 nested lists of lists: deeper than the 512 limit. */
    buf_t b;
    buf_init(&b, 0);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "x", NBT_LIST, 1);
    for (int i = 0; i < 600; i++) {
        wr_u8(&b, NBT_LIST);
        wr_i32(&b, 1);
    }
    wr_u8(&b, NBT_END);
    wr_i32(&b, 0);
    nbt_w_end(&b);
    nbt_doc d;
    CHECK_EQ_INT(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d), NBT_E_DEPTH);
    buf_free(&b);
}

TEST(nbt_list_count_bomb)
{
    /* A list header claiming 2^31-1 compounds in a 20-byte document. */
    buf_t b;
    buf_init(&b, 0);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "x", NBT_COMPOUND, 0x7fffffff);
    nbt_w_end(&b);
    nbt_doc d;
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d) < 0);
    /* END-typed list with a count is malformed. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "x", NBT_END, 3);
    nbt_w_end(&b);
    CHECK_EQ_INT(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d), NBT_E_LIST);
    /* Negative array length. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_tag(&b, NBT_LONG_ARRAY, "a");
    wr_i32(&b, -1);
    nbt_w_end(&b);
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d) < 0);
    buf_free(&b);
}

TEST(nbt_node_limit)
{
    buf_t b;
    buf_init(&b, 0);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "x", NBT_BYTE, 20000);
    for (int i = 0; i < 20000; i++) wr_u8(&b, 1);
    nbt_w_end(&b);
    nbt_doc d;
    CHECK_EQ_INT(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d), NBT_E_NODES);
    long n = nbt_parse(b.data, b.len, true, &nbt_limits_disk, &d);
    CHECK_EQ_INT(n, (long)b.len);
    if (n > 0) nbt_doc_free(&d);
    buf_free(&b);
}

TEST(nbt_empty_means_none)
{
    static const uint8_t none[] = {0};
    nbt_doc d;
    CHECK_EQ_INT(nbt_parse(none, 1, true, &nbt_limits_network, &d), 1);
    CHECK(d.root == NULL);
}
