/* test_protocol.c — the protocol-version seam: 763's table is the identity,
 * protocol_for, and id translation through a fake non-identity table, both
 * ways, with the framed bytes checked. */
#include <libdeflate.h>
#include <stdlib.h>

#include "data/packet_ids.h"
#include "proto/frame.h"
#include "proto/protocol.h"
#include "test.h"

TEST(protocol_763_table_is_the_identity)
{
    const struct mc_protocol *p = protocol_native;
    CHECK(p->identity);
    CHECK(p->ids->identity);
    CHECK_EQ_INT(p->version, 763);
    CHECK_EQ_INT(p->ids->version, 763);
    CHECK(strcmp(p->name, p->ids->name) == 0);
    CHECK_EQ_INT(p->ids->data_version, 3465);
    static const int cb_counts[PROTO_STATE_COUNT] = {
        [PROTO_STATE_HANDSHAKE] = PKT_HANDSHAKE_CB_COUNT,
        [PROTO_STATE_STATUS] = PKT_STATUS_CB_COUNT,
        [PROTO_STATE_LOGIN] = PKT_LOGIN_CB_COUNT,
        [PROTO_STATE_PLAY] = PKT_PLAY_CB_COUNT,
        [PROTO_STATE_CONFIGURATION] = PKT_CONFIGURATION_CB_COUNT,
    };
    /* Serverbound: 763's own highest id + 1 (later versions' packets come
     * after it in the logical numbering); 763 has no configuration state. */
    static const int sb_counts[PROTO_STATE_COUNT] = {
        [PROTO_STATE_HANDSHAKE] = 0xff, [PROTO_STATE_STATUS] = 2,        [PROTO_STATE_LOGIN] = 3,
        [PROTO_STATE_PLAY] = 0x33,      [PROTO_STATE_CONFIGURATION] = 0,
    };
    for (int st = 0; st < PROTO_STATE_COUNT; st++) {
        const struct proto_id_map *m = &p->ids->state[st];
        CHECK_EQ_INT(m->cb_count, cb_counts[st]);
        CHECK_EQ_INT(m->sb_count, sb_counts[st]);
        for (int i = 0; i < m->cb_count; i++) CHECK(m->cb_wire[i] == i || m->cb_wire[i] == -1);
        for (int i = 0; i < m->sb_count; i++)
            CHECK(m->sb_logical[i] == i || m->sb_logical[i] == -1);
    }
    /* Every packet 1.20.1 has is numbered as the PKT_* constant says. */
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_PLAY, PKT_PLAY_CB_LOGIN), 0x28);
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_PLAY, PKT_PLAY_CB_BUNDLE_DELIMITER), 0x00);
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_LOGIN, PKT_LOGIN_CB_COMPRESS), 0x03);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, 0x08), PKT_PLAY_SB_SETTINGS);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_HANDSHAKE, 0xfe),
                 PKT_HANDSHAKE_SB_LEGACY_SERVER_LIST_PING);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_HANDSHAKE, 0x01), -1);
    /* Out of range, either way, is "no such packet". */
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_PLAY, PKT_PLAY_CB_COUNT), -1);
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_PLAY, -1), -1);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, PKT_PLAY_SB_COUNT), -1);
    CHECK_EQ_INT(protocol_sb_logical(p, -1, 0), -1);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_COUNT, 0), -1);
}

TEST(protocol_for_knows_763_and_775)
{
    CHECK(protocol_for(763) == &protocol_763);
    CHECK(protocol_for(775) == &protocol_775);
    CHECK(protocol_for(762) == NULL);
    CHECK(protocol_for(764) == NULL);
    CHECK(protocol_for(776) == NULL);
    CHECK(protocol_nearest(47) == &protocol_763);
    CHECK(protocol_nearest(770) == &protocol_775);
    CHECK(protocol_nearest(9999) == &protocol_775);
    CHECK(protocol_for(47) == NULL); /* minecraft-server-util's status ping */
    CHECK(protocol_for(0) == NULL);
    CHECK(protocol_for(-1) == NULL);
    CHECK_EQ_INT(protocol_oldest(), 763);
    CHECK(strcmp(protocol_names(), "1.20.1, 26.1") == 0);
    CHECK_EQ_INT(protocol_763.slot, 0);
    CHECK_EQ_INT(protocol_775.slot, 1);
    CHECK(!protocol_775.identity && protocol_775.configuration);
    /* 26.1's numbering, from minecraft-data (pc/26.1/protocol.json). */
    CHECK_EQ_INT(protocol_cb_wire(&protocol_775, PROTO_STATE_PLAY, PKT_PLAY_CB_LOGIN), 0x31);
    CHECK_EQ_INT(protocol_cb_wire(&protocol_775, PROTO_STATE_PLAY, PKT_PLAY_CB_MAP_CHUNK), 0x2d);
    CHECK_EQ_INT(protocol_cb_wire(&protocol_775, PROTO_STATE_PLAY, PKT_PLAY_CB_NAMED_ENTITY_SPAWN),
                 -1);
    CHECK_EQ_INT(protocol_sb_logical(&protocol_775, PROTO_STATE_PLAY, 0x1f),
                 PKT_PLAY_SB_POSITION_LOOK);
    CHECK_EQ_INT(protocol_cb_wire(&protocol_775, PROTO_STATE_CONFIGURATION,
                                  PKT_CONFIGURATION_CB_REGISTRY_DATA),
                 0x07);
    /* 763's encoders are packets.c's: the bytes the golden tests hold. */
    CHECK(protocol_763.cb_login == pkt_cb_login);
    CHECK(protocol_763.cb_position == pkt_cb_position);
    CHECK(protocol_763.sb_settings == pkt_sb_settings);
}

/* A made-up version that renumbers PLAY: keep-alive out as 0x90 (a two-byte
 * VarInt), Login (play) as 0x01, no Update Health; keep-alive in as 0x05. */
static int16_t fake_cb[PKT_PLAY_CB_COUNT];
static int16_t fake_sb[0x30];
static struct proto_ids fake_ids;
static struct mc_protocol fake;

static const struct mc_protocol *fake_protocol(void)
{
    for (int i = 0; i < PKT_PLAY_CB_COUNT; i++) fake_cb[i] = (int16_t)i;
    fake_cb[PKT_PLAY_CB_KEEP_ALIVE] = 0x90;
    fake_cb[PKT_PLAY_CB_LOGIN] = 0x01;
    fake_cb[PKT_PLAY_CB_UPDATE_HEALTH] = -1;
    for (int i = 0; i < 0x30; i++) fake_sb[i] = -1;
    fake_sb[0x05] = PKT_PLAY_SB_KEEP_ALIVE;
    fake_sb[0x2f] = PKT_PLAY_SB_POSITION;
    fake_ids = *protocol_native->ids;
    fake_ids.version = 9999;
    fake_ids.identity = false;
    fake_ids.state[PROTO_STATE_PLAY] =
        (struct proto_id_map){fake_cb, fake_sb, PKT_PLAY_CB_COUNT, 0x30};
    fake = protocol_763;
    fake.version = 9999;
    fake.identity = false;
    fake.ids = &fake_ids;
    return &fake;
}

TEST(protocol_frame_rewrites_clientbound_ids)
{
    const struct mc_protocol *p = fake_protocol();
    buf_t pkt, out, scratch;
    buf_init(&pkt, 0);
    buf_init(&out, 0);
    buf_init(&scratch, FRAME_MAX_PACKET + 16);
    pkt_cb_keep_alive(&pkt, 0x0102030405060708);

    /* Uncompressed: length 10 | id 0x90 0x01 | the payload untouched. */
    CHECK_EQ_INT(protocol_frame(p, PROTO_STATE_PLAY, &out, pkt.data, pkt.len, -1, NULL, &scratch),
                 0);
    static const uint8_t want[] = {0x0a, 0x90, 0x01, 1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_MEM(out.data, out.len, want, sizeof want);

    /* Below the threshold: length | data_length 0 | the rewritten packet. */
    buf_reset(&out);
    CHECK_EQ_INT(protocol_frame(p, PROTO_STATE_PLAY, &out, pkt.data, pkt.len, 256, NULL, &scratch),
                 0);
    static const uint8_t want_small[] = {0x0b, 0x00, 0x90, 0x01, 1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_MEM(out.data, out.len, want_small, sizeof want_small);

    /* Compressed: inflates back to the rewritten packet. */
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    buf_reset(&out);
    CHECK_EQ_INT(protocol_frame(p, PROTO_STATE_PLAY, &out, pkt.data, pkt.len, 0, z, &scratch), 0);
    frame_limits lim = {FRAME_MAX_LENGTH, FRAME_MAX_PACKET};
    buf_t inflated;
    buf_init(&inflated, FRAME_MAX_PACKET);
    const uint8_t *got;
    size_t got_len;
    CHECK_EQ_INT(frame_decode(out.data, out.len, &lim, 0, d, &inflated, &got, &got_len),
                 (long)out.len);
    CHECK_MEM(got, got_len, want + 1, sizeof want - 1);

    /* The packet itself is not touched: it can be framed again. */
    CHECK_EQ_INT(pkt.data[0], PKT_PLAY_CB_KEEP_ALIVE);

    /* A packet the version lacks writes nothing. */
    buf_reset(&out);
    buf_reset(&pkt);
    pkt_cb_update_health(&pkt, 20.0f, 20, 5.0f);
    CHECK_EQ_INT(protocol_frame(p, PROTO_STATE_PLAY, &out, pkt.data, pkt.len, -1, NULL, &scratch),
                 PROTOCOL_E_ABSENT);
    CHECK_EQ_INT(out.len, 0);
    /* Nor does a state no table numbers (a closing connection). */
    CHECK_EQ_INT(protocol_frame(p, -1, &out, pkt.data, pkt.len, -1, NULL, &scratch),
                 PROTOCOL_E_ABSENT);
    /* A truncated id. */
    static const uint8_t bad[] = {0x80};
    CHECK_EQ_INT(protocol_frame(p, PROTO_STATE_PLAY, &out, bad, sizeof bad, -1, NULL, &scratch),
                 PROTOCOL_E_ID);
    CHECK_EQ_INT(out.len, 0);

    /* Other states keep 763's numbering in this fake: Set Compression as is. */
    buf_reset(&pkt);
    wr_varint(&pkt, PKT_LOGIN_CB_COMPRESS);
    wr_varint(&pkt, 256);
    CHECK_EQ_INT(protocol_frame(p, PROTO_STATE_LOGIN, &out, pkt.data, pkt.len, -1, NULL, &scratch),
                 0);
    static const uint8_t want_login[] = {0x03, 0x03, 0x80, 0x02};
    CHECK_MEM(out.data, out.len, want_login, sizeof want_login);

    libdeflate_free_compressor(z);
    libdeflate_free_decompressor(d);
    buf_free(&inflated);
    buf_free(&pkt);
    buf_free(&out);
    buf_free(&scratch);
}

TEST(protocol_frame_identity_is_frame_encode)
{
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
    buf_t pkt, a, b, scratch;
    buf_init(&pkt, 0);
    buf_init(&a, 0);
    buf_init(&b, 0);
    buf_init(&scratch, 16); /* the identity path never copies */
    pkt_cb_keep_alive(&pkt, 42);
    for (int i = 0; i < 600; i++) wr_u8(&pkt, (uint8_t)i); /* long enough to compress */
    const int thresholds[] = {-1, 0, 256, 100000};
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        buf_reset(&a);
        buf_reset(&b);
        CHECK_EQ_INT(frame_encode(&a, pkt.data, pkt.len, thresholds[i], z), 0);
        CHECK_EQ_INT(protocol_frame(protocol_native, PROTO_STATE_PLAY, &b, pkt.data, pkt.len,
                                    thresholds[i], z, &scratch),
                     0);
        CHECK_MEM(b.data, b.len, a.data, a.len);
    }
    CHECK_EQ_INT(scratch.len, 0);
    libdeflate_free_compressor(z);
    buf_free(&pkt);
    buf_free(&a);
    buf_free(&b);
    buf_free(&scratch);
}

TEST(protocol_sb_logical_rewrites_serverbound_ids)
{
    const struct mc_protocol *p = fake_protocol();
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, 0x05), PKT_PLAY_SB_KEEP_ALIVE);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, 0x2f), PKT_PLAY_SB_POSITION);
    /* 763's keep-alive id means nothing in this version. */
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, PKT_PLAY_SB_KEEP_ALIVE), -1);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, 0x30), -1);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_PLAY, -5), -1);
    CHECK_EQ_INT(protocol_sb_logical(p, PROTO_STATE_LOGIN, PKT_LOGIN_SB_LOGIN_START),
                 PKT_LOGIN_SB_LOGIN_START);
    /* And out: the fake's keep-alive goes out as 0x90. */
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_PLAY, PKT_PLAY_CB_KEEP_ALIVE), 0x90);
    CHECK_EQ_INT(protocol_cb_wire(p, PROTO_STATE_PLAY, PKT_PLAY_CB_UPDATE_HEALTH), -1);
}

TEST(protocol_763_routed_codecs_keep_their_bytes)
{
    buf_t b;
    buf_init(&b, 0);
    protocol_native->cb_kick_disconnect(&b, "{\"text\":\"x\"}", 12);
    static const uint8_t want[] = {PKT_PLAY_CB_KICK_DISCONNECT,
                                   12,
                                   '{',
                                   '"',
                                   't',
                                   'e',
                                   'x',
                                   't',
                                   '"',
                                   ':',
                                   '"',
                                   'x',
                                   '"',
                                   '}'};
    CHECK_MEM(b.data, b.len, want, sizeof want);

    /* Client Information as mineflayer sends it. */
    buf_reset(&b);
    wr_cstring(&b, "en_US");
    wr_u8(&b, 10);     /* view distance */
    wr_varint(&b, 1);  /* chat: commands only */
    wr_bool(&b, true); /* colours */
    wr_u8(&b, 0x7f);   /* skin parts */
    wr_varint(&b, 1);  /* right hand */
    wr_bool(&b, false);
    wr_bool(&b, true);
    rd_t r = rd_make(b.data, b.len);
    struct pkt_settings s;
    protocol_native->sb_settings(&r, &s);
    CHECK_EQ_INT(r.err, 0);
    CHECK_EQ_INT(rd_left(&r), 0);
    CHECK_MEM(s.locale, s.locale_len, "en_US", 5);
    CHECK_EQ_INT(s.view_distance, 10);
    CHECK_EQ_INT(s.chat_mode, 1);
    CHECK(s.chat_colors);
    CHECK_EQ_INT(s.skin_parts, 0x7f);
    CHECK_EQ_INT(s.main_hand, 1);
    CHECK(!s.text_filtering);
    CHECK(s.server_listing);
    /* One byte short: an error, as the inline reader had. */
    r = rd_make(b.data, b.len - 1);
    protocol_native->sb_settings(&r, &s);
    CHECK(r.err != 0);
    buf_free(&b);
}
