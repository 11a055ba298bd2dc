/* test_wire.c — VarInt/VarLong edge cases, strings, positions, UUIDs. */
#include <stdlib.h>

#include "proto/wire.h"
#include "test.h"

TEST(varint_known_encodings)
{
    static const struct {
        int32_t v;
        uint8_t bytes[5];
        int n;
    } cases[] = {
        {0, {0x00}, 1},
        {1, {0x01}, 1},
        {127, {0x7f}, 1},
        {128, {0x80, 0x01}, 2},
        {255, {0xff, 0x01}, 2},
        {25565, {0xdd, 0xc7, 0x01}, 3},
        {2097151, {0xff, 0xff, 0x7f}, 3},
        {2147483647, {0xff, 0xff, 0xff, 0xff, 0x07}, 5},
        {-1, {0xff, 0xff, 0xff, 0xff, 0x0f}, 5},
        {-2147483647 - 1, {0x80, 0x80, 0x80, 0x80, 0x08}, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf_t b;
        buf_init(&b, 0);
        wr_varint(&b, cases[i].v);
        CHECK_MEM(b.data, b.len, cases[i].bytes, (size_t)cases[i].n);
        CHECK_EQ_INT(varint_size(cases[i].v), cases[i].n);
        int32_t out = 0;
        CHECK_EQ_INT(varint_decode(cases[i].bytes, (size_t)cases[i].n, &out), cases[i].n);
        CHECK_EQ_INT(out, cases[i].v);
        /* Every strict prefix needs more input. */
        for (int k = 0; k < cases[i].n; k++)
            CHECK_EQ_INT(varint_decode(cases[i].bytes, (size_t)k, &out), 0);
        buf_free(&b);
    }
}

TEST(varint_rejects_sixth_byte)
{
    static const uint8_t six[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    int32_t out;
    CHECK(varint_decode(six, sizeof six, &out) < 0);
    rd_t r = rd_make(six, sizeof six);
    rd_varint(&r);
    CHECK_EQ_INT(r.err, RD_VARINT_TOO_LONG);
}

TEST(varlong_edges)
{
    static const int64_t values[] = {0, 1, 127, 128, 2147483647LL, -1, INT64_MAX, INT64_MIN};
    static const int sizes[] = {1, 1, 1, 2, 5, 10, 9, 10};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        buf_t b;
        buf_init(&b, 0);
        wr_varlong(&b, values[i]);
        CHECK_EQ_INT(b.len, sizes[i]);
        rd_t r = rd_make(b.data, b.len);
        CHECK(rd_varlong(&r) == values[i]);
        CHECK_EQ_INT(r.err, 0);
        CHECK_EQ_INT(rd_left(&r), 0);
        buf_free(&b);
    }
    uint8_t eleven[11];
    for (int i = 0; i < 10; i++) eleven[i] = 0xff;
    eleven[10] = 0x01;
    rd_t r = rd_make(eleven, sizeof eleven);
    rd_varlong(&r);
    CHECK_EQ_INT(r.err, RD_VARINT_TOO_LONG);
}

TEST(reader_errors_are_sticky)
{
    static const uint8_t two[] = {0x12, 0x34};
    rd_t r = rd_make(two, sizeof two);
    CHECK_EQ_INT(rd_i32(&r), 0);
    CHECK_EQ_INT(r.err, RD_SHORT);
    CHECK_EQ_INT(rd_u8(&r), 0); /* would succeed if the error were not sticky */
    CHECK_EQ_INT(rd_left(&r), 0);
}

TEST(strings_limits)
{
    buf_t b;
    buf_init(&b, 0);
    wr_cstring(&b, "Notch");
    size_t len;
    rd_t r = rd_make(b.data, b.len);
    const char *s = rd_string(&r, 16, &len);
    CHECK(s && len == 5 && memcmp(s, "Notch", 5) == 0);

    /* 17 characters against a 16-character cap. */
    buf_reset(&b);
    wr_cstring(&b, "abcdefghijklmnopq");
    r = rd_make(b.data, b.len);
    rd_string(&r, 16, &len);
    CHECK_EQ_INT(r.err, RD_STRING_TOO_LONG);

    /* A length prefix far larger than the data. */
    static const uint8_t liar[] = {0xff, 0xff, 0x03, 'a'};
    r = rd_make(liar, sizeof liar);
    rd_string(&r, 32767, &len);
    CHECK(r.err != 0);

    /* Invalid UTF-8 is refused. */
    static const uint8_t bad[] = {0x02, 0xc3, 0x28};
    r = rd_make(bad, sizeof bad);
    rd_string(&r, 16, &len);
    CHECK_EQ_INT(r.err, RD_BAD_VALUE);

    /* Multi-byte characters count as characters, not bytes: 4 × "é" is 8 bytes. */
    buf_reset(&b);
    wr_cstring(&b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    r = rd_make(b.data, b.len);
    rd_string(&r, 4, &len);
    CHECK_EQ_INT(r.err, 0);
    CHECK_EQ_INT(len, 8);
    buf_free(&b);
}

TEST(position_packing)
{
    static const int32_t pts[][3] = {
        {0, 0, 0},
        {1, 2, 3},
        {-1, -1, -1},
        {33554431, 2047, 33554431},
        {-33554432, -2048, -33554432},
        {18357644, 831, -20882616},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        int32_t x, y, z;
        position_unpack(position_pack(pts[i][0], pts[i][1], pts[i][2]), &x, &y, &z);
        CHECK_EQ_INT(x, pts[i][0]);
        CHECK_EQ_INT(y, pts[i][1]);
        CHECK_EQ_INT(z, pts[i][2]);
    }
    /* wiki.vg's worked example: 0x4607632C15B4833F = (18357644, 831, -20882616). */
    CHECK(position_pack(18357644, 831, -20882616) == 0x4607632C15B4833FLL);
}

TEST(offline_uuid)
{
    /* nmptestbot's UUID from the vanilla capture player_info/2. */
    mc_uuid u = uuid_offline("nmptestbot", 10);
    char s[37];
    uuid_format(&u, s);
    CHECK(strcmp(s, "3591fdca-95ad-32a5-beb1-2a99402471c2") == 0);
}

TEST(buf_limit_is_sticky)
{
    buf_t b;
    buf_init(&b, 8);
    buf_append(&b, "12345678", 8);
    CHECK_EQ_INT(b.failed, 0);
    buf_append(&b, "9", 1);
    CHECK_EQ_INT(b.failed, 1);
    CHECK_EQ_INT(b.len, 8);
    buf_free(&b);
}
