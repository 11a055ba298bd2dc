/* crypto.c — see crypto.h. Everything here is a thin wrapper over libcrypto. */
#include "proto/crypto.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <string.h>

int mc_rsa_generate(mc_rsa *k, int bits)
{
    memset(k, 0, sizeof *k);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    int rc = -1;
    if (!ctx || EVP_PKEY_keygen_init(ctx) <= 0 ||
        EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, bits) <= 0 || EVP_PKEY_keygen(ctx, &k->key) <= 0)
        goto out;
    unsigned char *der = NULL;
    int n = i2d_PUBKEY(k->key, &der);
    if (n <= 0) goto out;
    k->pub_der = der;
    k->pub_der_len = (size_t)n;
    rc = 0;
out:
    EVP_PKEY_CTX_free(ctx);
    if (rc < 0) mc_rsa_free(k);
    return rc;
}

void mc_rsa_free(mc_rsa *k)
{
    EVP_PKEY_free(k->key);
    OPENSSL_free(k->pub_der);
    memset(k, 0, sizeof *k);
}

/* Runs one EVP_PKEY encrypt or decrypt with PKCS#1 v1.5 padding. */
static int pkey_crypt(EVP_PKEY *key, bool encrypt, const uint8_t *in, size_t inlen, uint8_t *out,
                      size_t outcap)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(key, NULL);
    int rc = -1;
    if (!ctx) return -1;
    if ((encrypt ? EVP_PKEY_encrypt_init(ctx) : EVP_PKEY_decrypt_init(ctx)) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0)
        goto out;
    /* Ask for the size first: the output may need a whole block of room
     * even when the plaintext is short. */
    size_t need = 0;
    if ((encrypt ? EVP_PKEY_encrypt(ctx, NULL, &need, in, inlen)
                 : EVP_PKEY_decrypt(ctx, NULL, &need, in, inlen)) <= 0 ||
        need > 4096)
        goto out;
    uint8_t tmp[4096];
    size_t got = need;
    if ((encrypt ? EVP_PKEY_encrypt(ctx, tmp, &got, in, inlen)
                 : EVP_PKEY_decrypt(ctx, tmp, &got, in, inlen)) <= 0 ||
        got > outcap)
        goto out;
    memcpy(out, tmp, got);
    rc = (int)got;
    OPENSSL_cleanse(tmp, sizeof tmp);
out:
    EVP_PKEY_CTX_free(ctx);
    return rc;
}

int mc_rsa_decrypt(const mc_rsa *k, const uint8_t *in, size_t inlen, uint8_t *out, size_t outcap)
{
    if (!k->key || inlen == 0 || inlen > 512) return -1;
    return pkey_crypt(k->key, false, in, inlen, out, outcap);
}

int mc_rsa_encrypt_der(const uint8_t *der, size_t derlen, const uint8_t *in, size_t inlen,
                       uint8_t *out, size_t outcap)
{
    const unsigned char *p = der;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &p, (long)derlen);
    if (!key) return -1;
    int rc = pkey_crypt(key, true, in, inlen, out, outcap);
    EVP_PKEY_free(key);
    return rc;
}

int mc_cfb8_init_iv(mc_cfb8 *s, const uint8_t key[MC_SHARED_SECRET], const uint8_t iv[16],
                    bool encrypt)
{
    s->ctx = EVP_CIPHER_CTX_new();
    if (!s->ctx) return -1;
    if (EVP_CipherInit_ex(s->ctx, EVP_aes_128_cfb8(), NULL, key, iv, encrypt ? 1 : 0) != 1) {
        mc_cfb8_free(s);
        return -1;
    }
    return 0;
}

int mc_cfb8_init(mc_cfb8 *s, const uint8_t key[MC_SHARED_SECRET], bool encrypt)
{
    /* Minecraft uses the shared secret as both key and IV. */
    return mc_cfb8_init_iv(s, key, key, encrypt);
}

void mc_cfb8_update(mc_cfb8 *s, uint8_t *p, size_t n)
{
    /* CFB8 is a stream mode: output length == input length, in place is
     * allowed, and nothing is held back for a final call. */
    while (n > 0) {
        int chunk = n > (size_t)(INT_MAX / 2) ? INT_MAX / 2 : (int)n;
        int outl = 0;
        EVP_CipherUpdate(s->ctx, p, &outl, p, chunk);
        p += chunk;
        n -= (size_t)chunk;
    }
}

void mc_cfb8_free(mc_cfb8 *s)
{
    EVP_CIPHER_CTX_free(s->ctx);
    s->ctx = NULL;
}

void mc_hex_digest(const uint8_t sha1[20], char out[MC_SERVER_HASH_MAX])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t v[20];
    memcpy(v, sha1, 20);
    bool negative = v[0] & 0x80;
    if (negative) { /* two's complement: the magnitude is ~v + 1 */
        unsigned carry = 1;
        for (int i = 19; i >= 0; i--) {
            unsigned x = (uint8_t)~v[i] + carry;
            v[i] = (uint8_t)x;
            carry = x >> 8;
        }
    }
    size_t o = 0;
    if (negative) out[o++] = '-';
    bool started = false;
    for (int i = 0; i < 40; i++) {
        unsigned nib = (v[i / 2] >> (i % 2 ? 0 : 4)) & 15;
        if (!started && nib == 0) continue;
        started = true;
        out[o++] = hex[nib];
    }
    if (!started) out[o++] = '0';
    out[o] = 0;
}

int mc_server_hash(const char *server_id, size_t id_len, const uint8_t *secret, size_t secret_len,
                   const uint8_t *pub_der, size_t pub_len, char out[MC_SERVER_HASH_MAX])
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t digest[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    int ok = md && EVP_DigestInit_ex(md, EVP_sha1(), NULL) == 1 &&
             EVP_DigestUpdate(md, server_id, id_len) == 1 &&
             EVP_DigestUpdate(md, secret, secret_len) == 1 &&
             EVP_DigestUpdate(md, pub_der, pub_len) == 1 &&
             EVP_DigestFinal_ex(md, digest, &dlen) == 1 && dlen == 20;
    EVP_MD_CTX_free(md);
    if (!ok) return -1;
    mc_hex_digest(digest, out);
    return 0;
}

int mc_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                   uint8_t out[MC_HMAC_SHA256_SIZE])
{
    unsigned int n = MC_HMAC_SHA256_SIZE;
    if (key_len > INT_MAX || !HMAC(EVP_sha256(), key, (int)key_len, msg, msg_len, out, &n) ||
        n != MC_HMAC_SHA256_SIZE)
        return -1;
    return 0;
}

bool mc_ct_equal(const void *a, const void *b, size_t n)
{
    return CRYPTO_memcmp(a, b, n) == 0;
}

int mc_random_bytes(void *p, size_t n)
{
    return n <= INT_MAX && RAND_bytes(p, (int)n) == 1 ? 0 : -1;
}
