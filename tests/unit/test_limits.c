/*
 * test_limits.c — the pure parts of the abuse limits (net/ratelimit.c and
 * net/ip_table.c, linked from the shared library): the sliding-window counter, address
 * keys and loopback detection, the per-IP table and its sweep, the
 * CraftBukkit throttle rule, the packet tables; and the NBT byte quota
 * (proto/nbt.c) that guards item NBT from the network.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "data/packet_ids.h"
#include "net/ip_table.h"
#include "net/ratelimit.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "test.h"

TEST(limits_rate_window_steady_rate)
{
    rate_win w = {0};
    int64_t t = 1000000;
    uint32_t n = 0;
    /* 10 per second for 10 s: the 2 s window holds about 20. */
    for (int i = 0; i < 100; i++) n = rate_win_add(&w, t + i * 100, 2000, 1);
    CHECK(n >= 19 && n <= 21);
    /* A burst of 100 in one instant counts fully. */
    for (int i = 0; i < 100; i++) n = rate_win_add(&w, t + 10000, 2000, 1);
    CHECK(n >= 100);
    /* After two quiet windows the count starts over. */
    n = rate_win_add(&w, t + 20000, 2000, 1);
    CHECK_EQ_INT(n, 1);
}

TEST(limits_rate_window_previous_window_fades)
{
    rate_win w = {0};
    int64_t t = 5000;
    for (int i = 0; i < 40; i++) rate_win_add(&w, t, 1000, 1); /* 40 at the window start */
    /* Half-way through the next window half of the previous one still counts. */
    uint32_t n = rate_win_add(&w, t + 1500, 1000, 1);
    CHECK_EQ_INT(n, 1 + 20);
    /* Time going backwards (never from the loop's clock) resets, never underflows. */
    n = rate_win_add(&w, t - 100000, 1000, 1);
    CHECK_EQ_INT(n, 1);
    /* Saturates instead of wrapping. */
    rate_win big = {t, UINT32_MAX - 1, UINT32_MAX - 1};
    CHECK_EQ_INT(rate_win_add(&big, t, 1000, 5), UINT32_MAX);
}

TEST(limits_address_keys)
{
    ip_key a, b;
    CHECK(limits_key_from_text("127.0.0.1:25565", &a));
    CHECK(limits_key_is_loopback(&a));
    CHECK(limits_key_from_text("127.9.8.7:1", &a));
    CHECK(limits_key_is_loopback(&a));
    CHECK(limits_key_from_text("10.1.2.3:4000", &a));
    CHECK(!limits_key_is_loopback(&a));
    CHECK(limits_key_from_text("10.1.2.3", &b)); /* bare IPv4 */
    CHECK(memcmp(a.b, b.b, 16) == 0);
    /* conn.addr writes IPv6 without brackets: the port follows the last colon. */
    CHECK(limits_key_from_text("::1:1234", &a));
    CHECK(limits_key_is_loopback(&a));
    CHECK(limits_key_from_text("[::1]:1234", &b));
    CHECK(memcmp(a.b, b.b, 16) == 0);
    CHECK(limits_key_from_text("2001:db8::7:443", &a));
    CHECK(!limits_key_is_loopback(&a));
    CHECK(!limits_key_from_text("?:0", &a));
    CHECK(!limits_key_from_text("", &a));
    CHECK(!limits_key_from_text("[::1", &a));

    /* From sockets: IPv4 is stored as ::ffff:a.b.c.d, the same as from text. */
    struct sockaddr_storage ss4 = {0}; /* as accept() fills it */
    struct sockaddr_in *s4 = (struct sockaddr_in *)&ss4;
    s4->sin_family = AF_INET;
    s4->sin_port = htons(5);
    inet_pton(AF_INET, "192.168.1.9", &s4->sin_addr);
    CHECK(limits_key_from_sockaddr((struct sockaddr *)&ss4, &a));
    CHECK(limits_key_from_text("192.168.1.9:77", &b));
    CHECK(memcmp(a.b, b.b, 16) == 0);
    struct sockaddr_in6 s6 = {.sin6_family = AF_INET6};
    inet_pton(AF_INET6, "::ffff:127.0.0.1", &s6.sin6_addr);
    CHECK(limits_key_from_sockaddr((struct sockaddr *)&s6, &a));
    CHECK(limits_key_is_loopback(&a)); /* a dual-stack socket's IPv4 loopback */
    struct sockaddr_storage un = {.ss_family = AF_UNIX};
    CHECK(!limits_key_from_sockaddr((struct sockaddr *)&un, &a));
}

TEST(limits_ip_table_counts_sweeps_and_caps)
{
    ip_table t;
    CHECK_EQ_INT(ip_table_init(&t, 3), 0);
    ip_key k[4];
    for (int i = 0; i < 4; i++) {
        char text[32];
        snprintf(text, sizeof text, "10.0.0.%d:1", i + 1);
        CHECK(limits_key_from_text(text, &k[i]));
    }
    struct ip_entry *e0 = ip_table_get(&t, &k[0], true);
    CHECK(e0 != NULL);
    CHECK(ip_table_get(&t, &k[0], true) == e0); /* the same entry again */
    CHECK(ip_table_get(&t, &k[1], false) == NULL);
    e0->conns = 2;
    struct ip_entry *e1 = ip_table_get(&t, &k[1], true);
    e1->last_login_ms = 1000;
    CHECK(ip_table_get(&t, &k[2], true) != NULL);
    /* Full (max 3): new addresses are not tracked (the rules fail open). */
    CHECK(ip_table_get(&t, &k[3], true) == NULL);
    CHECK_EQ_INT(t.count, 3);
    /* Sweep at 3000 with a 4000 ms throttle: only the idle, stamp-less entry goes. */
    CHECK_EQ_INT(ip_table_sweep(&t, 3000, 4000), 1);
    CHECK(ip_table_get(&t, &k[2], false) == NULL);
    /* At 6000 the stamp has expired; entry 0 still has connections. */
    CHECK_EQ_INT(ip_table_sweep(&t, 6000, 4000), 1);
    CHECK(ip_table_get(&t, &k[0], false) == e0);
    e0->conns = 0;
    CHECK_EQ_INT(ip_table_sweep(&t, 6000, 4000), 1);
    CHECK_EQ_INT(t.count, 0);
    ip_table_free(&t);
    ip_table_free(&t); /* twice is harmless */
}

TEST(limits_ip_table_many_addresses)
{
    ip_table t;
    CHECK_EQ_INT(ip_table_init(&t, 20000), 0);
    for (int i = 0; i < 20000; i++) {
        ip_key k;
        char text[40];
        snprintf(text, sizeof text, "10.%d.%d.%d:1", i >> 16, (i >> 8) & 255, i & 255);
        CHECK(limits_key_from_text(text, &k));
        struct ip_entry *e = ip_table_get(&t, &k, true);
        if (!e) {
            CHECK(e != NULL);
            break;
        }
        e->conns = 1;
    }
    CHECK_EQ_INT(t.count, 20000);
    ip_key k;
    limits_key_from_text("10.0.78.31:9", &k); /* i = 19999, the last one */
    CHECK(ip_table_get(&t, &k, false) != NULL);
    ip_table_free(&t);
}

TEST(limits_throttle_rule_is_craftbukkits)
{
    struct ip_entry e = {0};
    CHECK(limits_throttle_check(&e, 10000, 4000));  /* first attempt */
    CHECK(!limits_throttle_check(&e, 12000, 4000)); /* 2 s later: throttled */
    /* A throttled attempt renews the stamp: 4 s after the first is still too soon. */
    CHECK(!limits_throttle_check(&e, 14500, 4000));
    CHECK(limits_throttle_check(&e, 18600, 4000)); /* 4.1 s after the last */
}

TEST(limits_packet_tables)
{
    CHECK(limits_packet_override_count <= 8); /* LIMITS_OVERRIDES_MAX slots per player */
    for (size_t i = 0; i < limits_packet_override_count; i++) {
        const struct packet_override *o = &limits_packet_overrides[i];
        CHECK(o->id >= 0 && o->id < PKT_PLAY_SB_COUNT);
        CHECK(o->interval_ms > 0 && o->max_rate > 0);
        /* never the packets a client must get through: movement, keep-alive, teleport */
        CHECK(o->id != PKT_PLAY_SB_POSITION && o->id != PKT_PLAY_SB_KEEP_ALIVE &&
              o->id != PKT_PLAY_SB_TELEPORT_CONFIRM && o->id != PKT_PLAY_SB_CHAT_MESSAGE);
        for (size_t j = 0; j < i; j++) CHECK(limits_packet_overrides[j].id != o->id);
    }
    /* Paper's default override */
    CHECK_EQ_INT(limits_packet_overrides[0].id, PKT_PLAY_SB_CRAFT_RECIPE_REQUEST);
    CHECK_EQ_INT(limits_packet_overrides[0].max_rate, 5);
    CHECK(limits_play_packet_max(PKT_PLAY_SB_CUSTOM_PAYLOAD) >= 32767);
    CHECK(limits_play_packet_max(PKT_PLAY_SB_POSITION_LOOK) >= 34); /* 3 doubles, 2 floats, bool */
    CHECK_EQ_INT(limits_play_packet_max(PKT_PLAY_SB_SET_CREATIVE_SLOT), 0); /* NBT: the frame cap */
}

/* ----------------------------------------------------------- NBT quota */

/* A network NBT document: root compound with one list of `n` strings of `len` bytes. */
static void nbt_strings(buf_t *b, int n, int len)
{
    nbt_w_root(b, "");
    nbt_w_list(b, "l", NBT_STRING, n);
    char *s = calloc(1, (size_t)len + 1);
    memset(s, 'x', (size_t)len);
    for (int i = 0; i < n; i++) {
        wr_u16(b, (uint16_t)len);
        buf_append(b, s, (size_t)len);
    }
    free(s);
    nbt_w_end(b);
}

TEST(nbt_network_byte_quota)
{
    buf_t b;
    buf_init(&b, 4u << 20);
    nbt_doc d;
    /* 64 strings of 8000 bytes: 64 × (36 + 16000) ≈ 1 MB accounted: accepted. */
    nbt_strings(&b, 64, 8000);
    long n = nbt_parse(b.data, b.len, true, &nbt_limits_network, &d);
    CHECK(n == (long)b.len);
    nbt_doc_free(&d);
    /* 140 of them: ≈ 2.24 MB accounted, over vanilla's 2097152: refused. */
    buf_reset(&b);
    nbt_strings(&b, 140, 8000);
    CHECK(b.len < (2u << 20)); /* fits one frame */
    n = nbt_parse(b.data, b.len, true, &nbt_limits_network, &d);
    CHECK_EQ_INT(n, NBT_E_QUOTA);
    CHECK(d.root == NULL && d.blocks == NULL);
    CHECK(strstr(nbt_strerror(n), "quota") != NULL);
    /* Disk NBT has no quota (vanilla reads region chunks unbounded). */
    n = nbt_parse(b.data, b.len, true, &nbt_limits_disk, &d);
    CHECK(n == (long)b.len);
    nbt_doc_free(&d);
    /* A byte array just over the quota: 24 + n bytes. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    static uint8_t zeros[2097152];
    nbt_w_byte_array(&b, "a", zeros, (int32_t)sizeof zeros);
    nbt_w_end(&b);
    CHECK_EQ_INT(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d), NBT_E_QUOTA);
    buf_free(&b);
}

TEST(nbt_network_depth_bomb)
{
    /* 600 nested lists of lists: refused at depth 512, not a stack overflow. */
    buf_t b;
    buf_init(&b, 1u << 20);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "l", NBT_LIST, 1);
    for (int i = 0; i < 600; i++) {
        wr_u8(&b, NBT_LIST);
        wr_i32(&b, 1);
    }
    wr_u8(&b, NBT_BYTE);
    wr_i32(&b, 0);
    nbt_w_end(&b);
    nbt_doc d;
    CHECK_EQ_INT(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d), NBT_E_DEPTH);
    /* A list claiming 2^31-1 compounds in a few bytes: refused before any node. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "l", NBT_COMPOUND, 0x7fffffff);
    nbt_w_end(&b);
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_network, &d) < 0);
    buf_free(&b);
}
