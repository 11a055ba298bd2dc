/*
 * test_crypto.c — proto/crypto.c: AES-128-CFB8 against NIST SP 800-38A
 * (F.3.7/F.3.8 CFB8-AES128), the Minecraft server hash against the
 * well-known "Notch"/"jeb_"/"simon" digests, RSA PKCS#1 v1.5 round trips
 * with the login's 1024-bit key, and HMAC-SHA256 against RFC 4231.
 */
#include <stdlib.h>
#include <string.h>

#include "proto/crypto.h"
#include "test.h"

static size_t unhex(const char *h, uint8_t *out)
{
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(h + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

/* NIST SP 800-38A, F.3.7 CFB8-AES128.Encrypt (18 one-byte segments). */
static const char nist_key[] = "2b7e151628aed2a6abf7158809cf4f3c";
static const char nist_iv[] = "000102030405060708090a0b0c0d0e0f";
static const char nist_pt[] = "6bc1bee22e409f96e93d7e117393172aae2d";
static const char nist_ct[] = "3b79424c9c0dd436bace9e0ed4586a4f32b9";

TEST(cfb8_nist_encrypt)
{
    uint8_t key[16], iv[16], pt[18], ct[18];
    unhex(nist_key, key);
    unhex(nist_iv, iv);
    unhex(nist_pt, pt);
    unhex(nist_ct, ct);
    mc_cfb8 s;
    CHECK(mc_cfb8_init_iv(&s, key, iv, true) == 0);
    uint8_t buf[18];
    memcpy(buf, pt, sizeof buf);
    mc_cfb8_update(&s, buf, sizeof buf);
    CHECK_MEM(buf, sizeof buf, ct, sizeof ct);
    mc_cfb8_free(&s);
}

TEST(cfb8_nist_decrypt)
{
    uint8_t key[16], iv[16], pt[18], ct[18];
    unhex(nist_key, key);
    unhex(nist_iv, iv);
    unhex(nist_pt, pt);
    unhex(nist_ct, ct);
    mc_cfb8 s;
    CHECK(mc_cfb8_init_iv(&s, key, iv, false) == 0);
    uint8_t buf[18];
    memcpy(buf, ct, sizeof buf);
    mc_cfb8_update(&s, buf, sizeof buf);
    CHECK_MEM(buf, sizeof buf, pt, sizeof pt);
    mc_cfb8_free(&s);
}

/* The stream has no block buffering: any split of the input gives the
 * same bytes as one call (this is what lets conn_send_pkt encrypt each
 * packet as it is queued). */
TEST(cfb8_any_split_same_stream)
{
    uint8_t key[16], iv[16], pt[18], ct[18];
    unhex(nist_key, key);
    unhex(nist_iv, iv);
    unhex(nist_pt, pt);
    unhex(nist_ct, ct);
    for (size_t split = 0; split <= sizeof pt; split++) {
        mc_cfb8 s;
        CHECK(mc_cfb8_init_iv(&s, key, iv, true) == 0);
        uint8_t buf[18];
        memcpy(buf, pt, sizeof buf);
        mc_cfb8_update(&s, buf, split);
        mc_cfb8_update(&s, buf + split, 0);
        mc_cfb8_update(&s, buf + split, sizeof buf - split);
        CHECK_MEM(buf, sizeof buf, ct, sizeof ct);
        mc_cfb8_free(&s);
    }
}

/* Minecraft's convention, IV = key; the expected bytes come from
 * `openssl enc -aes-128-cfb8 -K 00..0f -iv 00..0f`. */
TEST(cfb8_minecraft_key_is_iv)
{
    uint8_t key[16];
    unhex("000102030405060708090a0b0c0d0e0f", key);
    const char text[] = "hello, minecraft! this is a stream.";
    uint8_t want[sizeof text - 1];
    unhex("62bfe8a32e14c3b259ddcc167dbea376075f9500b732a9f047c4615859ebae6fac8e2c", want);
    mc_cfb8 enc, dec;
    CHECK(mc_cfb8_init(&enc, key, true) == 0);
    CHECK(mc_cfb8_init(&dec, key, false) == 0);
    uint8_t buf[sizeof text - 1];
    memcpy(buf, text, sizeof buf);
    for (size_t i = 0; i < sizeof buf; i += 7)
        mc_cfb8_update(&enc, buf + i, sizeof buf - i < 7 ? sizeof buf - i : 7);
    CHECK_MEM(buf, sizeof buf, want, sizeof want);
    mc_cfb8_update(&dec, buf, sizeof buf);
    CHECK_MEM(buf, sizeof buf, text, sizeof text - 1);
    mc_cfb8_free(&enc);
    mc_cfb8_free(&dec);
}

/* wiki.vg "Protocol Encryption": sha1 of the bare names, Minecraft-style. */
TEST(server_hash_known_names)
{
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"Notch", "4ed1f46bbe04bc756bcb17c0c7ce3e4632f06a48"},
        {"jeb_", "-7c9d5b0044c130109a5d7b5fb5c317c02b4e28c1"},
        {"simon", "88e16a1019277b15d58faf0541e11910eb756f6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[MC_SERVER_HASH_MAX];
        CHECK(mc_server_hash(cases[i].in, strlen(cases[i].in), NULL, 0, NULL, 0, out) == 0);
        if (strcmp(out, cases[i].want) != 0) {
            fprintf(stderr, "    server hash of %s: got %s, want %s\n", cases[i].in, out,
                    cases[i].want);
            test_failures++;
        }
    }
}

/* Edge cases of the signed hex: zero, minus one, the most negative. */
TEST(hex_digest_edges)
{
    uint8_t d[20];
    char out[MC_SERVER_HASH_MAX];
    memset(d, 0, sizeof d);
    mc_hex_digest(d, out);
    CHECK(strcmp(out, "0") == 0);
    memset(d, 0xff, sizeof d);
    mc_hex_digest(d, out);
    CHECK(strcmp(out, "-1") == 0);
    memset(d, 0, sizeof d);
    d[0] = 0x80;
    mc_hex_digest(d, out);
    CHECK(strcmp(out, "-8000000000000000000000000000000000000000") == 0);
    CHECK(strlen(out) == MC_SERVER_HASH_MAX - 1);
    memset(d, 0, sizeof d);
    d[19] = 0x0a;
    mc_hex_digest(d, out);
    CHECK(strcmp(out, "a") == 0);
}

/* The hash covers server id, secret and key, in that order. */
TEST(server_hash_concatenates_parts)
{
    char a[MC_SERVER_HASH_MAX], b[MC_SERVER_HASH_MAX];
    const uint8_t secret[] = "imp", key[] = "le";
    CHECK(mc_server_hash("s", 1, secret, 3, key, 2, a) == 0);
    CHECK(mc_server_hash("simple", 6, NULL, 0, NULL, 0, b) == 0);
    CHECK(strcmp(a, b) == 0);
}

TEST(rsa_login_round_trip)
{
    mc_rsa k;
    CHECK(mc_rsa_generate(&k, MC_RSA_BITS) == 0);
    CHECK(k.pub_der_len > 100 && k.pub_der_len < 200); /* 162 bytes for RSA-1024 SPKI */
    uint8_t secret[16], ct[MC_RSA_BLOCK], back[MC_RSA_BLOCK];
    for (int i = 0; i < 16; i++) secret[i] = (uint8_t)(i * 17 + 3);
    int n = mc_rsa_encrypt_der(k.pub_der, k.pub_der_len, secret, sizeof secret, ct, sizeof ct);
    CHECK_EQ_INT(n, MC_RSA_BLOCK);
    CHECK_EQ_INT(mc_rsa_decrypt(&k, ct, (size_t)n, back, sizeof back), 16);
    CHECK_MEM(back, 16, secret, 16);
    /* Tampered ciphertext: bad padding (or garbage of another length). */
    ct[5] ^= 0x40;
    int bad = mc_rsa_decrypt(&k, ct, (size_t)n, back, sizeof back);
    CHECK(bad != 16 || memcmp(back, secret, 16) != 0);
    /* Wrong sizes never decrypt. */
    CHECK(mc_rsa_decrypt(&k, ct, 0, back, sizeof back) < 0);
    CHECK(mc_rsa_decrypt(&k, ct, 64, back, sizeof back) < 0);
    /* Output room is respected. */
    ct[5] ^= 0x40;
    CHECK(mc_rsa_decrypt(&k, ct, (size_t)n, back, 8) < 0);
    mc_rsa_free(&k);
    mc_rsa_free(&k); /* idempotent */
}

/* RFC 4231 test case 2. */
TEST(hmac_sha256_rfc4231)
{
    uint8_t mac[32], want[32];
    unhex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", want);
    const char msg[] = "what do ya want for nothing?";
    CHECK(mc_hmac_sha256("Jefe", 4, msg, sizeof msg - 1, mac) == 0);
    CHECK_MEM(mac, 32, want, 32);
    CHECK(mc_ct_equal(mac, want, 32));
    mac[31] ^= 1;
    CHECK(!mc_ct_equal(mac, want, 32));
}

TEST(random_bytes_differ)
{
    uint8_t a[16], b[16];
    CHECK(mc_random_bytes(a, sizeof a) == 0);
    CHECK(mc_random_bytes(b, sizeof b) == 0);
    CHECK(memcmp(a, b, sizeof a) != 0);
}
