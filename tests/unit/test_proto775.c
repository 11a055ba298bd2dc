/* test_proto775.c — protocol 775 (26.1): text as NBT, the clientbound
 * translation of 1.20.1's bytes, and the serverbound rewrite into them. */
#include <string.h>

#include "data/blocks.h"
#include "data/packet_ids.h"
#include "proto/packets.h"
#include "proto/protocol.h"
#include "proto/text_nbt.h"
#include "test.h"

static bool bytes_are(const buf_t *b, const void *want, size_t n)
{
    return b->len == n && memcmp(b->data, want, n) == 0;
}

TEST(text_nbt_writes_components_as_vanilla_nbtops)
{
    buf_t b;
    buf_init(&b, 1 << 16);
    text_nbt_append(&b, "\"hi\"", 4); /* a bare string: TAG_String */
    CHECK(bytes_are(&b, "\x08\x00\x02hi", 5));
    buf_reset(&b);
    const char *obj_json = "{\"text\":\"a\",\"bold\":true}";
    text_nbt_append(&b, obj_json, strlen(obj_json));
    static const uint8_t obj[] = {10,  8, 0, 4, 't', 'e', 'x', 't', 0, 1,
                                  'a', 1, 0, 4, 'b', 'o', 'l', 'd', 1, 0};
    CHECK(bytes_are(&b, obj, sizeof obj));
    buf_reset(&b);
    /* A list mixing strings and compounds holds compounds. */
    const char *mixed_json = "{\"with\":[\"x\",{\"text\":\"y\"}]}";
    text_nbt_append(&b, mixed_json, strlen(mixed_json));
    static const uint8_t mixed[] = {10, 9, 0, 4,   'w', 'i', 't', 'h', 10, 0,   0,   0,
                                    2,  8, 0, 4,   't', 'e', 'x', 't', 0,  1,   'x', 0,
                                    8,  0, 4, 't', 'e', 'x', 't', 0,   1,  'y', 0,   0};
    CHECK(bytes_are(&b, mixed, sizeof mixed));
    buf_reset(&b);
    /* Not JSON: the text itself; beyond the BMP as two surrogates (modified UTF-8). */
    text_nbt_append(&b, "\xf0\x9f\x98\x80", 4);
    CHECK(bytes_are(&b, "\x08\x00\x06\xed\xa0\xbd\xed\xb8\x80", 9));
    buf_free(&b);
}

TEST(translate_775_block_change_and_chat)
{
    buf_t in, out;
    buf_init(&in, 1 << 16);
    buf_init(&out, 1 << 16);
    /* Block Change: the state id becomes 26.1's (grass -> short_grass moved ids). */
    pkt_cb_block_change(&in, 1, 2, 3, BLOCK_GRASS);
    CHECK_EQ_INT(protocol_775.cb_translate(in.data, in.len, &out), CB_REWRITTEN);
    rd_t r = rd_make(out.data, out.len);
    CHECK_EQ_INT(rd_varint(&r), PKT_PLAY_CB_BLOCK_CHANGE);
    rd_i64(&r);
    CHECK_EQ_INT(rd_varint(&r), block_state_to_775[BLOCK_GRASS]);
    CHECK_EQ_INT((int)rd_left(&r), 0);
    /* stone keeps its id (1) in both */
    CHECK_EQ_INT(block_state_to_775[BLOCK_STONE], BLOCK_STONE);
    /* System Chat: JSON becomes NBT, the overlay flag stays. */
    buf_reset(&in);
    pkt_cb_system_chat(&in, "\"hi\"", 4, true);
    CHECK_EQ_INT(protocol_775.cb_translate(in.data, in.len, &out), CB_REWRITTEN);
    CHECK_EQ_INT(out.data[out.len - 1], 1);
    CHECK_EQ_INT(out.data[1], 8);
    /* Same bytes: Keep Alive. */
    buf_reset(&in);
    pkt_cb_keep_alive(&in, 42);
    CHECK_EQ_INT(protocol_775.cb_translate(in.data, in.len, &out), CB_SAME);
    buf_free(&in);
    buf_free(&out);
}

TEST(translate_775_serverbound_into_763_layout)
{
    buf_t out;
    buf_init(&out, 1 << 16);
    uint8_t input = 0;
    /* Set Player Position: flags 0x02 (horizontal collision) is not on ground. */
    uint8_t pos[25] = {0};
    pos[24] = 0x02;
    int32_t id = PKT_PLAY_SB_POSITION;
    rd_t r = rd_make(pos, sizeof pos);
    CHECK_EQ_INT(protocol_775.sb_play(&id, &r, &out, &input), SB_REWRITTEN);
    CHECK_EQ_INT((int)out.len, 25);
    CHECK_EQ_INT(out.data[24], 0);
    /* Unsigned Chat Command: 763's with empty signatures. */
    uint8_t cmd[] = {4, 'h', 'e', 'l', 'p'};
    id = PKT_PLAY_SB_CHAT_COMMAND;
    r = rd_make(cmd, sizeof cmd);
    CHECK_EQ_INT(protocol_775.sb_play(&id, &r, &out, &input), SB_REWRITTEN);
    CHECK_EQ_INT((int)out.len, 5 + 8 + 8 + 1 + 1 + 3);
    /* Player Input: shift pressed, then held (nothing), then released. */
    uint8_t shift = 0x20, none = 0;
    id = PKT_PLAY_SB_PLAYER_INPUT;
    r = rd_make(&shift, 1);
    CHECK_EQ_INT(protocol_775.sb_play(&id, &r, &out, &input), SB_REWRITTEN);
    CHECK_EQ_INT(id, PKT_PLAY_SB_ENTITY_ACTION);
    rd_t a = rd_make(out.data, out.len);
    rd_varint(&a);
    CHECK_EQ_INT(rd_varint(&a), 0); /* start sneaking */
    id = PKT_PLAY_SB_PLAYER_INPUT;
    r = rd_make(&shift, 1);
    CHECK_EQ_INT(protocol_775.sb_play(&id, &r, &out, &input), SB_DROP);
    r = rd_make(&none, 1);
    CHECK_EQ_INT(protocol_775.sb_play(&id, &r, &out, &input), SB_REWRITTEN);
    a = rd_make(out.data, out.len);
    rd_varint(&a);
    CHECK_EQ_INT(rd_varint(&a), 1); /* stop sneaking */
    buf_free(&out);
}
