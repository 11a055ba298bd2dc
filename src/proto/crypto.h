/*
 * crypto.h — the cryptography of the Java Edition login and of modern
 * proxy forwarding, over OpenSSL libcrypto.
 *
 *   RSA-1024 key pair     made once at startup; the public half goes to
 *                         clients as X.509 SubjectPublicKeyInfo DER (what
 *                         vanilla's Encryption Request carries); the private
 *                         half decrypts the client's PKCS#1 v1.5 blocks.
 *   AES-128-CFB8          one stream per direction, key = IV = the 16-byte
 *                         shared secret; CFB8 works byte by byte, so any
 *                         run of bytes can be processed as soon as it exists
 *                         (no block buffering, no padding).
 *   server hash           SHA-1(server id || shared secret || public key
 *                         DER) printed as Java's BigInteger(bytes)
 *                         .toString(16): a signed two's-complement number
 *                         in lower-case hex, '-' for negative, no leading
 *                         zeros. At most 41 characters plus NUL.
 *   HMAC-SHA256           Velocity's forwarding signature.
 *
 * Invariants:
 *  1. A stream's state is only ever advanced over bytes that really go on
 *     (or came off) the wire, in order: encrypting or decrypting a byte
 *     twice, or skipping one, desynchronises the connection for good.
 *  2. Secrets are compared with mc_ct_equal (CRYPTO_memcmp), never memcmp.
 *  3. Functions return 0 / a length on success and -1 on failure; no
 *     failure leaves a half-initialised object that the free function
 *     cannot release.
 */
#ifndef MC_CRYPTO_H
#define MC_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MC_RSA_BITS         1024
#define MC_RSA_BLOCK        (MC_RSA_BITS / 8) /* bytes of one ciphertext block */
#define MC_SHARED_SECRET    16
#define MC_SERVER_HASH_MAX  42 /* '-' + 40 hex digits + NUL */
#define MC_HMAC_SHA256_SIZE 32

struct evp_pkey_st;
struct evp_cipher_ctx_st;

typedef struct mc_rsa {
    struct evp_pkey_st *key;
    uint8_t *pub_der; /* SubjectPublicKeyInfo, DER (OPENSSL_malloc) */
    size_t pub_der_len;
} mc_rsa;

/* Generates a key pair of `bits` bits (MC_RSA_BITS for the login). */
int mc_rsa_generate(mc_rsa *k, int bits);
void mc_rsa_free(mc_rsa *k);
/* PKCS#1 v1.5 decryption of one block; returns the plaintext length or -1
 * (bad length, bad padding, or more than `outcap` bytes). */
int mc_rsa_decrypt(const mc_rsa *k, const uint8_t *in, size_t inlen, uint8_t *out, size_t outcap);
/* PKCS#1 v1.5 encryption with a DER public key (tests, and clients). */
int mc_rsa_encrypt_der(const uint8_t *der, size_t derlen, const uint8_t *in, size_t inlen,
                       uint8_t *out, size_t outcap);

/* One direction of an AES-128-CFB8 stream. */
typedef struct mc_cfb8 {
    struct evp_cipher_ctx_st *ctx;
} mc_cfb8;

/* Minecraft's way: IV = key = the shared secret. */
int mc_cfb8_init(mc_cfb8 *s, const uint8_t key[MC_SHARED_SECRET], bool encrypt);
/* Any IV (the NIST test vectors use one different from the key). */
int mc_cfb8_init_iv(mc_cfb8 *s, const uint8_t key[MC_SHARED_SECRET], const uint8_t iv[16],
                    bool encrypt);
/* Encrypts or decrypts p[0..n) in place and advances the stream. */
void mc_cfb8_update(mc_cfb8 *s, uint8_t *p, size_t n);
void mc_cfb8_free(mc_cfb8 *s);

/* Minecraft's "hex digest" of a 20-byte SHA-1 (see the file comment). */
void mc_hex_digest(const uint8_t sha1[20], char out[MC_SERVER_HASH_MAX]);
/* The server hash that both hasJoined and the client's join carry. */
int mc_server_hash(const char *server_id, size_t id_len, const uint8_t *secret, size_t secret_len,
                   const uint8_t *pub_der, size_t pub_len, char out[MC_SERVER_HASH_MAX]);

/* -1 on failure: the caller must then refuse, never compare `out`. */
int mc_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                   uint8_t out[MC_HMAC_SHA256_SIZE]);
/* Constant-time equality of two n-byte buffers. */
bool mc_ct_equal(const void *a, const void *b, size_t n);
/* Cryptographically strong random bytes; -1 if the generator failed. */
int mc_random_bytes(void *p, size_t n);

#endif
