/* wire.c — see wire.h. Big-endian fixed-width numbers, LEB128 VarInts. */
#include "proto/wire.h"

#include <math.h>
#include <openssl/evp.h>
#include <string.h>

const char *rd_strerror(int err)
{
    switch (err) {
    case RD_OK: return "ok";
    case RD_SHORT: return "packet too short";
    case RD_VARINT_TOO_LONG: return "VarInt too long";
    case RD_STRING_TOO_LONG: return "string too long";
    case RD_BAD_VALUE: return "invalid value";
    }
    return "unknown error";
}

int varint_decode(const uint8_t *p, size_t len, int32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < VARINT_MAX_BYTES; i++) {
        if ((size_t)i >= len) return 0;
        v |= (uint32_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *out = (int32_t)v;
            return i + 1;
        }
    }
    return -1;
}

int varint_size(int32_t v)
{
    uint32_t u = (uint32_t)v;
    int n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

/* LEB128 of u: 7 bits a byte, low first, the high bit says "more". */
static int leb128_encode(uint8_t *p, uint64_t u)
{
    int n = 0;
    while (u >= 0x80) {
        p[n++] = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    p[n++] = (uint8_t)u;
    return n;
}

int varint_encode(uint8_t *p, int32_t v)
{
    return leb128_encode(p, (uint32_t)v); /* a negative VarInt is its 32 bits: 5 bytes */
}

/* ---------------------------------------------------------------- readers */

static const uint8_t *take(rd_t *r, size_t n)
{
    if (r->err) return NULL;
    if (n > r->len - r->pos) {
        r->err = RD_SHORT;
        return NULL;
    }
    const uint8_t *p = r->p + r->pos;
    r->pos += n;
    return p;
}

uint8_t rd_u8(rd_t *r)
{
    const uint8_t *p = take(r, 1);
    return p ? p[0] : 0;
}

int8_t rd_i8(rd_t *r)
{
    return (int8_t)rd_u8(r);
}

bool rd_bool(rd_t *r)
{
    uint8_t v = rd_u8(r);
    if (v > 1 && !r->err) r->err = RD_BAD_VALUE;
    return v == 1;
}

uint16_t rd_u16(rd_t *r)
{
    const uint8_t *p = take(r, 2);
    return p ? (uint16_t)(p[0] << 8 | p[1]) : 0;
}

int16_t rd_i16(rd_t *r)
{
    return (int16_t)rd_u16(r);
}

int32_t rd_i32(rd_t *r)
{
    const uint8_t *p = take(r, 4);
    if (!p) return 0;
    return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

int64_t rd_i64(rd_t *r)
{
    const uint8_t *p = take(r, 8);
    if (!p) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return (int64_t)v;
}

float rd_f32(rd_t *r)
{
    uint32_t u = (uint32_t)rd_i32(r);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

double rd_f64(rd_t *r)
{
    uint64_t u = (uint64_t)rd_i64(r);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

int32_t rd_varint(rd_t *r)
{
    if (r->err) return 0;
    int32_t v;
    int n = varint_decode(r->p + r->pos, r->len - r->pos, &v);
    if (n == 0) {
        r->err = RD_SHORT;
        return 0;
    }
    if (n < 0) {
        r->err = RD_VARINT_TOO_LONG;
        return 0;
    }
    r->pos += (size_t)n;
    return v;
}

int64_t rd_varlong(rd_t *r)
{
    if (r->err) return 0;
    uint64_t v = 0;
    for (int i = 0; i < VARLONG_MAX_BYTES; i++) {
        if (r->pos >= r->len) {
            r->err = RD_SHORT;
            return 0;
        }
        uint8_t c = r->p[r->pos++];
        v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) return (int64_t)v;
    }
    r->err = RD_VARINT_TOO_LONG;
    return 0;
}

const char *rd_string(rd_t *r, size_t max_chars, size_t *len)
{
    *len = 0;
    int32_t n = rd_varint(r);
    if (r->err) return NULL;
    if (n < 0 || (size_t)n > max_chars * 4) {
        r->err = RD_STRING_TOO_LONG;
        return NULL;
    }
    const char *s = (const char *)take(r, (size_t)n);
    if (!s) return NULL;
    long units = utf8_utf16_length(s, (size_t)n);
    if (units < 0) {
        r->err = RD_BAD_VALUE;
        return NULL;
    }
    if ((size_t)units > max_chars) {
        r->err = RD_STRING_TOO_LONG;
        return NULL;
    }
    *len = (size_t)n;
    return s;
}

mc_uuid rd_uuid(rd_t *r)
{
    mc_uuid u = {{0}};
    const uint8_t *p = take(r, 16);
    if (p) memcpy(u.b, p, 16);
    return u;
}

void rd_position(rd_t *r, int32_t *x, int32_t *y, int32_t *z)
{
    position_unpack(rd_i64(r), x, y, z);
}

const uint8_t *rd_bytes(rd_t *r, size_t n)
{
    return take(r, n);
}

void rd_skip(rd_t *r, size_t n)
{
    take(r, n);
}

/* ---------------------------------------------------------------- writers */

void wr_u8(buf_t *b, uint8_t v)
{
    buf_append(b, &v, 1);
}

void wr_bool(buf_t *b, bool v)
{
    wr_u8(b, v ? 1 : 0);
}

void wr_u16(buf_t *b, uint16_t v)
{
    uint8_t p[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    buf_append(b, p, 2);
}

void wr_i16(buf_t *b, int16_t v)
{
    wr_u16(b, (uint16_t)v);
}

void wr_i32(buf_t *b, int32_t v)
{
    uint32_t u = (uint32_t)v;
    uint8_t p[4] = {(uint8_t)(u >> 24), (uint8_t)(u >> 16), (uint8_t)(u >> 8), (uint8_t)u};
    buf_append(b, p, 4);
}

void wr_i64(buf_t *b, int64_t v)
{
    uint64_t u = (uint64_t)v;
    uint8_t p[8];
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)u;
        u >>= 8;
    }
    buf_append(b, p, 8);
}

void wr_f32(buf_t *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    wr_i32(b, (int32_t)u);
}

void wr_f64(buf_t *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    wr_i64(b, (int64_t)u);
}

void wr_varint(buf_t *b, int32_t v)
{
    uint8_t p[VARINT_MAX_BYTES];
    buf_append(b, p, (size_t)varint_encode(p, v));
}

void wr_varlong(buf_t *b, int64_t v)
{
    uint8_t p[VARLONG_MAX_BYTES];
    buf_append(b, p, (size_t)leb128_encode(p, (uint64_t)v));
}

void wr_string(buf_t *b, const char *s, size_t len)
{
    wr_varint(b, (int32_t)len);
    buf_append(b, s, len);
}

void wr_cstring(buf_t *b, const char *s)
{
    wr_string(b, s, strlen(s));
}

void wr_uuid(buf_t *b, const mc_uuid *u)
{
    buf_append(b, u->b, 16);
}

int64_t position_pack(int32_t x, int32_t y, int32_t z)
{
    return (int64_t)(((uint64_t)(x & 0x3FFFFFF) << 38) | ((uint64_t)(z & 0x3FFFFFF) << 12) |
                     (uint64_t)(y & 0xFFF));
}

void position_unpack(int64_t v, int32_t *x, int32_t *y, int32_t *z)
{
    /* Arithmetic shifts sign-extend each field. */
    *x = (int32_t)(v >> 38);
    *y = (int32_t)((int64_t)((uint64_t)v << 52) >> 52);
    *z = (int32_t)((int64_t)((uint64_t)v << 26) >> 38);
}

void wr_position(buf_t *b, int32_t x, int32_t y, int32_t z)
{
    wr_i64(b, position_pack(x, y, z));
}

void wr_angle(buf_t *b, float degrees)
{
    float turns = degrees / 360.0f;
    if (!isfinite(turns)) turns = 0;
    wr_u8(b, (uint8_t)(int32_t)floorf(turns * 256.0f));
}

long utf8_utf16_length(const char *s, size_t len)
{
    const uint8_t *p = (const uint8_t *)s;
    long units = 0;
    size_t i = 0;
    while (i < len) {
        uint8_t c = p[i];
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            n = 1;
            cp = c;
        } else if ((c & 0xE0) == 0xC0) {
            n = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 4;
            cp = c & 0x07;
        } else {
            return -1;
        }
        if (i + n > len) return -1;
        for (size_t k = 1; k < n; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return -1;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return -1;
        units += cp >= 0x10000 ? 2 : 1;
        i += n;
    }
    return units;
}

void uuid_format(const mc_uuid *u, char out[37])
{
    static const char hex[] = "0123456789abcdef";
    int o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = hex[u->b[i] >> 4];
        out[o++] = hex[u->b[i] & 15];
    }
    out[o] = 0;
}

mc_uuid uuid_offline(const char *name, size_t len)
{
    static const char prefix[] = "OfflinePlayer:";
    mc_uuid u;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_md5(), NULL);
    EVP_DigestUpdate(ctx, prefix, sizeof prefix - 1);
    EVP_DigestUpdate(ctx, name, len);
    EVP_DigestFinal_ex(ctx, md, &mdlen);
    EVP_MD_CTX_free(ctx);
    memcpy(u.b, md, 16);
    u.b[6] = (uint8_t)((u.b[6] & 0x0f) | 0x30); /* version 3 */
    u.b[8] = (uint8_t)((u.b[8] & 0x3f) | 0x80); /* IETF variant */
    return u;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int uuid_parse(const char *s, size_t len, mc_uuid *out)
{
    bool dashed = len == 36;
    if (len != 32 && !dashed) return -1;
    if (dashed && (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')) return -1;
    mc_uuid u;
    int nib = 0;
    for (size_t i = 0; i < len; i++) {
        if (dashed && (i == 8 || i == 13 || i == 18 || i == 23)) continue;
        int v = hex_digit(s[i]);
        if (v < 0) return -1;
        if (nib % 2 == 0)
            u.b[nib / 2] = (uint8_t)(v << 4);
        else
            u.b[nib / 2] |= (uint8_t)v;
        nib++;
    }
    *out = u;
    return 0;
}

bool player_name_valid(const char *s, size_t len, size_t min_len)
{
    if (len < min_len || len < 1 || len > 16) return false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return false;
    }
    return true;
}
