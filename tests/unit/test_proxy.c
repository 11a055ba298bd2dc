/*
 * test_proxy.c — net/proxy.c (included here: it lives with the server, not
 * in libmc): PROXY protocol v1/v2 headers including every partial prefix,
 * BungeeCord forwarded hosts with and without BungeeGuard, Velocity
 * forwarding answers (signature, versions, truncation), and the session
 * server's profile JSON.
 */
#include "net/proxy.c"

#include "data/packet_ids.h"
#include "test.h"

/* ------------------------------------------------------------ PROXY v1 */

/* Every strict prefix of a valid header is "need more". */
static void check_prefixes_need_more(const uint8_t *h, size_t len)
{
    proxy_source s;
    for (size_t i = 0; i < len; i++) {
        long n = proxy_header_parse(h, i, &s);
        if (n != 0) {
            fprintf(stderr, "    prefix of %zu/%zu bytes: got %ld, want 0\n", i, len, n);
            test_failures++;
            return;
        }
    }
}

TEST(proxy_v1_tcp4)
{
    const char h[] = "PROXY TCP4 192.168.0.1 192.168.0.11 56324 25565\r\n\x10\x00";
    size_t hl = sizeof h - 1 - 2;
    proxy_source s;
    CHECK_EQ_INT(proxy_header_parse((const uint8_t *)h, sizeof h - 1, &s), (long)hl);
    CHECK(!s.keep);
    CHECK(strcmp(s.ip, "192.168.0.1") == 0);
    CHECK_EQ_INT(s.port, 56324);
    check_prefixes_need_more((const uint8_t *)h, hl);
}

TEST(proxy_v1_tcp6_and_unknown)
{
    const char h6[] = "PROXY TCP6 2001:db8:0:0::1 2001:db8::2 1234 25565\r\n";
    proxy_source s;
    CHECK_EQ_INT(proxy_header_parse((const uint8_t *)h6, sizeof h6 - 1, &s), (long)sizeof h6 - 1);
    CHECK(strcmp(s.ip, "2001:db8::1") == 0); /* re-printed canonically */
    CHECK_EQ_INT(s.port, 1234);
    const char hu[] = "PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n";
    CHECK_EQ_INT(proxy_header_parse((const uint8_t *)hu, sizeof hu - 1, &s), (long)sizeof hu - 1);
    CHECK(s.keep);
    const char hu2[] = "PROXY UNKNOWN\r\n";
    CHECK_EQ_INT(proxy_header_parse((const uint8_t *)hu2, sizeof hu2 - 1, &s),
                 (long)sizeof hu2 - 1);
    CHECK(s.keep);
}

TEST(proxy_v1_refusals)
{
    static const char *const bad[] = {
        "PROXY TCP4 999.1.1.1 1.2.3.4 1 2\r\n",   /* not an address */
        "PROXY TCP4 1.2.3.4 5.6.7.8 70000 1\r\n", /* port out of range */
        "PROXY TCP4 ::1 ::1 1 2\r\n",             /* family mismatch */
        "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n",   /* extra token */
        "PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n",       /* missing token */
        "PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n",    /* double space */
        "PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n",     /* not TCP */
        "PROXY TCP4 1.2.3.4 5.6.7.8 1 -2\r\n",    /* sign */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        proxy_source s;
        long n = proxy_header_parse((const uint8_t *)bad[i], strlen(bad[i]), &s);
        if (n != PROXY_E_V1_SYNTAX) {
            fprintf(stderr, "    %zu: got %ld for a bad v1 header\n", i, n);
            test_failures++;
        }
    }
}

TEST(proxy_v1_length_cap)
{
    uint8_t h[200];
    memcpy(h, "PROXY TCP4 ", 11);
    memset(h + 11, '1', sizeof h - 11);
    proxy_source s;
    /* 106 bytes without CRLF may still end at byte 107: need more. */
    CHECK_EQ_INT(proxy_header_parse(h, PROXY_V1_MAX - 1, &s), 0);
    CHECK_EQ_INT(proxy_header_parse(h, PROXY_V1_MAX, &s), PROXY_E_V1_TOO_LONG);
    CHECK_EQ_INT(proxy_header_parse(h, sizeof h, &s), PROXY_E_V1_TOO_LONG);
    /* A CRLF past byte 107 does not count. */
    h[150] = '\r';
    h[151] = '\n';
    CHECK_EQ_INT(proxy_header_parse(h, sizeof h, &s), PROXY_E_V1_TOO_LONG);
}

TEST(proxy_not_a_header)
{
    proxy_source s;
    const uint8_t handshake[] = {0x10, 0x00, 0xfb, 0x05};
    CHECK_EQ_INT(proxy_header_parse(handshake, sizeof handshake, &s), PROXY_E_NOT_PROXY);
    CHECK_EQ_INT(proxy_header_parse((const uint8_t *)"PRONG", 5, &s), PROXY_E_NOT_PROXY);
    CHECK_EQ_INT(proxy_header_parse((const uint8_t *)"\xFE\x01", 2, &s), PROXY_E_NOT_PROXY);
    const uint8_t almost_v2[] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 'Q', 'U', 'I', 'X'};
    CHECK_EQ_INT(proxy_header_parse(almost_v2, sizeof almost_v2, &s), PROXY_E_NOT_PROXY);
    CHECK_EQ_INT(proxy_header_parse(handshake, 0, &s), 0);
}

/* ------------------------------------------------------------ PROXY v2 */

static size_t v2_header(uint8_t *out, uint8_t ver_cmd, uint8_t fam, const uint8_t *addr,
                        size_t alen)
{
    memcpy(out, v2_sig, 12);
    out[12] = ver_cmd;
    out[13] = fam;
    out[14] = (uint8_t)(alen >> 8);
    out[15] = (uint8_t)alen;
    if (alen) memcpy(out + 16, addr, alen);
    return 16 + alen;
}

TEST(proxy_v2_tcp4_with_tlvs)
{
    uint8_t addr[12 + 10] = {10, 1, 2, 3, 127, 0, 0, 1, 0xC3, 0x50, 0x63, 0xDD};
    /* a TLV: type 0x04 (NOOP), length 7 */
    addr[12] = 0x04;
    addr[13] = 0;
    addr[14] = 7;
    uint8_t h[64];
    size_t n = v2_header(h, 0x21, 0x11, addr, sizeof addr);
    h[n] = 0x10; /* the handshake's first byte follows */
    proxy_source s;
    CHECK_EQ_INT(proxy_header_parse(h, n + 1, &s), (long)n);
    CHECK(!s.keep);
    CHECK(strcmp(s.ip, "10.1.2.3") == 0);
    CHECK_EQ_INT(s.port, 50000);
    check_prefixes_need_more(h, n);
}

TEST(proxy_v2_tcp6_local_unspec)
{
    uint8_t addr[36] = {0x20, 0x01, 0x0d, 0xb8};
    addr[15] = 7;
    addr[32] = 0x12;
    addr[33] = 0x34;
    uint8_t h[64];
    size_t n = v2_header(h, 0x21, 0x21, addr, sizeof addr);
    proxy_source s;
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), (long)n);
    CHECK(strcmp(s.ip, "2001:db8::7") == 0);
    CHECK_EQ_INT(s.port, 0x1234);
    check_prefixes_need_more(h, n);
    /* LOCAL (a health check): keep the socket address, addresses ignored. */
    n = v2_header(h, 0x20, 0x11, addr, 12);
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), (long)n);
    CHECK(s.keep);
    n = v2_header(h, 0x21, 0x00, NULL, 0);
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), 16);
    CHECK(s.keep);
}

TEST(proxy_v2_refusals)
{
    uint8_t addr[600] = {0};
    uint8_t h[700];
    proxy_source s;
    size_t n = v2_header(h, 0x11, 0x11, addr, 12); /* version 1 */
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), PROXY_E_V2_VERSION);
    n = v2_header(h, 0x22, 0x11, addr, 12); /* command 2 */
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), PROXY_E_V2_COMMAND);
    n = v2_header(h, 0x21, 0x12, addr, 12); /* UDP */
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), PROXY_E_V2_FAMILY);
    n = v2_header(h, 0x21, 0x31, addr, 216); /* unix socket */
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), PROXY_E_V2_FAMILY);
    n = v2_header(h, 0x21, 0x11, addr, 4); /* too short for IPv4 */
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), PROXY_E_V2_SHORT);
    n = v2_header(h, 0x21, 0x21, addr, 12); /* too short for IPv6 */
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), PROXY_E_V2_SHORT);
    /* Over 536 bytes in total: refused from the 16-byte header alone. */
    v2_header(h, 0x21, 0x11, addr, PROXY_V2_MAX - 16 + 1);
    CHECK_EQ_INT(proxy_header_parse(h, 16, &s), PROXY_E_V2_TOO_LONG);
    n = v2_header(h, 0x21, 0x11, addr, PROXY_V2_MAX - 16);
    CHECK_EQ_INT(proxy_header_parse(h, n, &s), (long)PROXY_V2_MAX);
}

/* ------------------------------------------------------------- profiles */

TEST(uuid_parse_forms)
{
    mc_uuid a, b;
    CHECK(uuid_parse("069a79f444e94726a5befca90e38aaf5", 32, &a) == 0);
    CHECK(uuid_parse("069a79f4-44e9-4726-a5be-fca90e38aaf5", 36, &b) == 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(a.b[0] == 0x06 && a.b[15] == 0xf5);
    CHECK(uuid_parse("069a79f444e94726a5befca90e38aaf", 31, &a) < 0);
    CHECK(uuid_parse("069a79f444e94726a5befca90e38aafg", 32, &a) < 0);
    CHECK(uuid_parse("069a79f4-44e9-4726-a5be+fca90e38aaf5", 36, &a) < 0);
}

TEST(session_json)
{
    const char ok[] = "{\"id\":\"069a79f444e94726a5befca90e38aaf5\",\"name\":\"Notch\","
                      "\"properties\":[{\"name\":\"textures\",\"value\":\"dGV4\","
                      "\"signature\":\"c2ln\"}],\"profileActions\":[]}";
    mc_profile p = {0};
    char err[160];
    CHECK(profile_parse_session_json(ok, sizeof ok - 1, &p, err, sizeof err) == 0);
    CHECK(strcmp(p.name, "Notch") == 0);
    CHECK_EQ_INT(p.prop_count, 1);
    CHECK(strcmp(p.props[0].name, "textures") == 0);
    CHECK(strcmp(p.props[0].value, "dGV4") == 0);
    CHECK(p.props[0].signature && strcmp(p.props[0].signature, "c2ln") == 0);
    /* Re-parsing into the same profile frees the old properties. */
    const char nosig[] = "{\"id\":\"069a79f4-44e9-4726-a5be-fca90e38aaf5\",\"name\":\"N_1\","
                         "\"properties\":[{\"name\":\"a\",\"value\":\"\"}]}";
    CHECK(profile_parse_session_json(nosig, sizeof nosig - 1, &p, err, sizeof err) == 0);
    CHECK(p.props[0].signature == NULL);
    static const char *const bad[] = {
        "",
        "not json",
        "{\"name\":\"Notch\"}",
        "{\"id\":\"xyz\",\"name\":\"Notch\"}",
        "{\"id\":\"069a79f444e94726a5befca90e38aaf5\"}",
        "{\"id\":\"069a79f444e94726a5befca90e38aaf5\",\"name\":\"No tch\"}",
        "{\"id\":\"069a79f444e94726a5befca90e38aaf5\",\"name\":\"Notch\",\"properties\":{}}",
        "{\"id\":\"069a79f444e94726a5befca90e38aaf5\",\"name\":\"Notch\",\"properties\":[{}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (profile_parse_session_json(bad[i], strlen(bad[i]), &p, err, sizeof err) == 0) {
            fprintf(stderr, "    bad session JSON %zu accepted\n", i);
            test_failures++;
        }
        CHECK(p.prop_count == 0);
    }
    profile_clear(&p);
}

TEST(profile_caps)
{
    mc_profile p = {0};
    char err[160];
    for (int i = 0; i < PROFILE_PROPS_MAX; i++)
        CHECK(profile_add_property(&p, "n", 1, "v", 1, NULL, 0, err, sizeof err) == 0);
    CHECK(profile_add_property(&p, "n", 1, "v", 1, NULL, 0, err, sizeof err) < 0);
    profile_clear(&p);
    static char big[PROFILE_PROP_BYTES_MAX];
    memset(big, 'x', sizeof big);
    CHECK(profile_add_property(&p, "n", 1, big, sizeof big, NULL, 0, err, sizeof err) < 0);
    CHECK(profile_add_property(&p, "n", 1, big, sizeof big - 1, NULL, 0, err, sizeof err) == 0);
    CHECK(profile_add_property(&p, "n", 1, "v", 1, NULL, 0, err, sizeof err) < 0);
    profile_clear(&p);
    CHECK(profile_add_property(&p, "n", 1, "a\0b", 3, NULL, 0, err, sizeof err) < 0);
    CHECK(profile_add_property(&p, "", 0, "v", 1, NULL, 0, err, sizeof err) < 0);
    CHECK(!player_name_valid("", 0, 1));
    CHECK(player_name_valid("ab", 2, 1));
    CHECK(!player_name_valid("ab", 2, 3));
    CHECK(!player_name_valid("abcdefghijklmnopq", 17, 1));
    CHECK(!player_name_valid("a-b", 3, 1));
}

/* ----------------------------------------------------------- BungeeCord */

#define UUID32 "069a79f444e94726a5befca90e38aaf5"

TEST(bungee_basic_and_props)
{
    char ip[PROXY_IP_MAX], err[256];
    mc_profile p = {0};
    const char h3[] = "mc.example.org\0"
                      "203.0.113.9\0" UUID32;
    CHECK_EQ_INT(bungee_parse_host(h3, sizeof h3 - 1, "", ip, &p, err, sizeof err), BUNGEE_OK);
    CHECK(strcmp(ip, "203.0.113.9") == 0);
    CHECK(p.uuid.b[0] == 0x06 && p.prop_count == 0);
    CHECK(bungee_looks_forwarded(h3, sizeof h3 - 1));
    const char h4[] = "h\0"
                      "2001:db8::5\0" UUID32 "\0"
                      "[{\"name\":\"textures\",\"value\":\"dGV4\",\"signature\":\"c2ln\"}]";
    CHECK_EQ_INT(bungee_parse_host(h4, sizeof h4 - 1, "", ip, &p, err, sizeof err), BUNGEE_OK);
    CHECK(strcmp(ip, "2001:db8::5") == 0);
    CHECK_EQ_INT(p.prop_count, 1);
    CHECK(strcmp(p.props[0].signature, "c2ln") == 0);
    profile_clear(&p);
}

TEST(bungee_refusals)
{
    char ip[PROXY_IP_MAX], err[256];
    mc_profile p = {0};
    const char plain[] = "mc.example.org";
    CHECK_EQ_INT(bungee_parse_host(plain, sizeof plain - 1, "", ip, &p, err, sizeof err),
                 BUNGEE_NOT_FORWARDED);
    CHECK(strstr(err, "BungeeCord config") != NULL);
    CHECK(!bungee_looks_forwarded(plain, sizeof plain - 1));
    const char forge[] = "mc.example.org\0FML3\0"; /* Forge client marker: not forwarding */
    CHECK(!bungee_looks_forwarded(forge, sizeof forge - 1));
    const char badip[] = "h\0"
                         "1.2.3.4; drop\0" UUID32;
    CHECK_EQ_INT(bungee_parse_host(badip, sizeof badip - 1, "", ip, &p, err, sizeof err),
                 BUNGEE_BAD);
    const char badip2[] = "h\0"
                          "999.2.3.4\0" UUID32;
    CHECK_EQ_INT(bungee_parse_host(badip2, sizeof badip2 - 1, "", ip, &p, err, sizeof err),
                 BUNGEE_BAD);
    const char baduuid[] = "h\0"
                           "1.2.3.4\0"
                           "nope";
    CHECK_EQ_INT(bungee_parse_host(baduuid, sizeof baduuid - 1, "", ip, &p, err, sizeof err),
                 BUNGEE_BAD);
    const char badjson[] = "h\0"
                           "1.2.3.4\0" UUID32 "\0[{";
    CHECK_EQ_INT(bungee_parse_host(badjson, sizeof badjson - 1, "", ip, &p, err, sizeof err),
                 BUNGEE_BAD);
    const char five[] = "h\0"
                        "1.2.3.4\0" UUID32 "\0[]\0x";
    CHECK_EQ_INT(bungee_parse_host(five, sizeof five - 1, "", ip, &p, err, sizeof err),
                 BUNGEE_NOT_FORWARDED);
    CHECK(p.prop_count == 0);
}

TEST(bungeeguard_token)
{
    char ip[PROXY_IP_MAX], err[256];
    mc_profile p = {0};
    const char good[] = "h\0"
                        "1.2.3.4\0" UUID32 "\0"
                        "[{\"name\":\"bungeeguard-token\",\"value\":\"s3cret\"},"
                        "{\"name\":\"textures\",\"value\":\"v\"}]";
    CHECK_EQ_INT(bungee_parse_host(good, sizeof good - 1, "s3cret", ip, &p, err, sizeof err),
                 BUNGEE_OK);
    /* The token never reaches the profile (other players would see it). */
    CHECK_EQ_INT(p.prop_count, 1);
    CHECK(strcmp(p.props[0].name, "textures") == 0);
    /* Without a configured token it is still stripped. */
    CHECK_EQ_INT(bungee_parse_host(good, sizeof good - 1, "", ip, &p, err, sizeof err), BUNGEE_OK);
    CHECK_EQ_INT(p.prop_count, 1);
    CHECK_EQ_INT(bungee_parse_host(good, sizeof good - 1, "other", ip, &p, err, sizeof err),
                 BUNGEE_GUARD);
    CHECK(strstr(err, "invalid") != NULL);
    CHECK_EQ_INT(bungee_parse_host(good, sizeof good - 1, "s3cre", ip, &p, err, sizeof err),
                 BUNGEE_GUARD);
    const char none[] = "h\0"
                        "1.2.3.4\0" UUID32;
    CHECK_EQ_INT(bungee_parse_host(none, sizeof none - 1, "s3cret", ip, &p, err, sizeof err),
                 BUNGEE_GUARD);
    const char two[] = "h\0"
                       "1.2.3.4\0" UUID32 "\0"
                       "[{\"name\":\"bungeeguard-token\",\"value\":\"s3cret\"},"
                       "{\"name\":\"bungeeguard-token\",\"value\":\"s3cret\"}]";
    CHECK_EQ_INT(bungee_parse_host(two, sizeof two - 1, "s3cret", ip, &p, err, sizeof err),
                 BUNGEE_GUARD);
    CHECK(p.prop_count == 0);
}

/* ------------------------------------------------------------- Velocity */

static const uint8_t vsecret[] = "velocity-secret";

/* Builds a signed forwarding answer into b; `sign_with` NULL = garbage MAC. */
static void velocity_build(buf_t *b, int version, const char *addr, const char *name, int nprops,
                           const uint8_t *sign_with, size_t sign_len, size_t cut)
{
    buf_t body;
    buf_init(&body, 0);
    wr_varint(&body, version);
    wr_cstring(&body, addr);
    mc_uuid u;
    uuid_parse(UUID32, 32, &u);
    wr_uuid(&body, &u);
    wr_cstring(&body, name);
    wr_varint(&body, nprops);
    for (int i = 0; i < nprops; i++) {
        wr_cstring(&body, "textures");
        wr_cstring(&body, "dGV4");
        wr_bool(&body, i == 0);
        if (i == 0) wr_cstring(&body, "c2ln");
    }
    if (cut) body.len -= cut;
    uint8_t mac[32] = {0};
    if (sign_with) mc_hmac_sha256(sign_with, sign_len, body.data, body.len, mac);
    buf_reset(b);
    buf_append(b, mac, sizeof mac);
    buf_append(b, body.data, body.len);
    buf_free(&body);
}

TEST(velocity_good_v1_v4)
{
    buf_t b;
    buf_init(&b, 0);
    char ip[PROXY_IP_MAX], err[192];
    mc_profile p = {0};
    int ver = 0;
    for (int v = 1; v <= 4; v += 3) {
        velocity_build(&b, v, "198.51.100.7", "Steve", 2, vsecret, sizeof vsecret - 1, 0);
        CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sizeof vsecret - 1, ip, &p, &ver, err,
                                    sizeof err),
                     VELOCITY_OK);
        CHECK_EQ_INT(ver, v);
        CHECK(strcmp(ip, "198.51.100.7") == 0);
        CHECK(strcmp(p.name, "Steve") == 0);
        CHECK(p.uuid.b[0] == 0x06);
        CHECK_EQ_INT(p.prop_count, 2);
        CHECK(p.props[0].signature && !p.props[1].signature);
    }
    profile_clear(&p);
    buf_free(&b);
}

TEST(velocity_refusals)
{
    buf_t b;
    buf_init(&b, 0);
    char ip[PROXY_IP_MAX], err[192];
    mc_profile p = {0};
    int ver;
    const size_t sl = sizeof vsecret - 1;
    /* wrong secret */
    velocity_build(&b, 4, "1.2.3.4", "Steve", 1, (const uint8_t *)"other", 5, 0);
    CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_SIGNATURE);
    CHECK(strcmp(err, "Unable to verify player details") == 0);
    /* one flipped bit anywhere after the MAC */
    velocity_build(&b, 4, "1.2.3.4", "Steve", 1, vsecret, sl, 0);
    b.data[40] ^= 1;
    CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_SIGNATURE);
    /* too short to hold a MAC */
    CHECK_EQ_INT(velocity_parse(b.data, 20, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_SIGNATURE);
    /* versions: 2 and 3 are 1.19 key formats; 5 is newer than we know */
    for (int v = 0; v <= 6; v++) {
        if (v == 1 || v == 4) continue;
        velocity_build(&b, v, "1.2.3.4", "Steve", 0, vsecret, sl, 0);
        CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                     VELOCITY_E_VERSION);
    }
    velocity_build(&b, 5, "1.2.3.4", "Steve", 0, vsecret, sl, 0);
    velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err);
    CHECK(strstr(err, "Unsupported forwarding version 5") != NULL);
    /* truncated (but correctly signed) */
    velocity_build(&b, 4, "1.2.3.4", "Steve", 1, vsecret, sl, 3);
    CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_MALFORMED);
    /* not an address, bad name, too many properties */
    velocity_build(&b, 4, "localhost", "Steve", 0, vsecret, sl, 0);
    CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_MALFORMED);
    velocity_build(&b, 4, "1.2.3.4", "St eve", 0, vsecret, sl, 0);
    CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_MALFORMED);
    velocity_build(&b, 4, "1.2.3.4", "Steve", PROFILE_PROPS_MAX + 1, vsecret, sl, 0);
    CHECK_EQ_INT(velocity_parse(b.data, b.len, vsecret, sl, ip, &p, &ver, err, sizeof err),
                 VELOCITY_E_MALFORMED);
    CHECK(p.prop_count == 0);
    buf_free(&b);
}

/* ------------------------------------------------------ Player Info skins */

TEST(player_info_with_properties)
{
    struct pkt_property props[2] = {{"textures", "dGV4", "c2ln"}, {"x", "y", NULL}};
    struct pkt_player_entry e = {{{0}}, "Alex", 1, true, 7, NULL, 0};
    buf_t plain, with0, with;
    buf_init(&plain, 0);
    buf_init(&with0, 0);
    buf_init(&with, 0);
    pkt_cb_player_info_add(&plain, &e, 1);
    pkt_cb_player_info_add_props(&with0, &e, 1);
    CHECK_MEM(with0.data, with0.len, plain.data, plain.len); /* no properties: same bytes */
    e.props = props;
    e.prop_count = 2;
    pkt_cb_player_info_add_props(&with, &e, 1);
    /* id, action, count, uuid, "Alex", then the property list */
    size_t at = (size_t)varint_size(PKT_PLAY_CB_PLAYER_INFO) + 1 + 1 + 16 + 5;
    static const uint8_t want[] = {2,   8,   't', 'e', 'x', 't', 'u', 'r', 'e', 's', 4, 'd', 'G',
                                   'V', '4', 1,   4,   'c', '2', 'l', 'n', 1,   'x', 1, 'y', 0};
    CHECK(with.len == plain.len - 1 + sizeof want);
    CHECK_MEM(with.data + at, sizeof want, want, sizeof want);
    CHECK_MEM(with.data + at + sizeof want, with.len - at - sizeof want, plain.data + at + 1,
              plain.len - at - 1);
    buf_free(&plain);
    buf_free(&with0);
    buf_free(&with);
}
