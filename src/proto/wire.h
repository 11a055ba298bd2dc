/*
 * wire.h — Minecraft protocol primitive types: VarInt/VarLong, strings,
 * UUIDs, block positions, angles, fixed-width big-endian numbers.
 *
 * Writers append to a buf_t (see buf.h: a failed append is sticky).
 * Readers work on an rd_t cursor with a sticky error flag: after a failed
 * read every later read returns 0 and `err` stays set, so a handler decodes
 * all its fields and checks `r.err` once.
 *
 * Invariants:
 *  1. VarInt is at most 5 bytes and VarLong at most 10; a longer encoding is
 *     an error, never silently truncated (protodef is lenient, we are not).
 *  2. Strings read from the wire are length-checked twice: the byte length
 *     against 4*max_chars (UTF-8 worst case, as vanilla does) and the count
 *     of UTF-16 units against max_chars. Returned strings point into the
 *     input buffer and are NOT NUL-terminated.
 *  3. Position packs x:26 | z:26 | y:12 (MSB to LSB), all signed.
 */
#ifndef MC_WIRE_H
#define MC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

#define VARINT_MAX_BYTES  5
#define VARLONG_MAX_BYTES 10

typedef struct mc_uuid {
    uint8_t b[16];
} mc_uuid;

typedef struct rd {
    const uint8_t *p;
    size_t len;
    size_t pos;
    int err; /* sticky; one of enum rd_error */
} rd_t;

enum rd_error { RD_OK = 0, RD_SHORT, RD_VARINT_TOO_LONG, RD_STRING_TOO_LONG, RD_BAD_VALUE };

const char *rd_strerror(int err);

static inline rd_t rd_make(const void *p, size_t len)
{
    rd_t r = {(const uint8_t *)p, len, 0, 0};
    return r;
}

static inline size_t rd_left(const rd_t *r)
{
    return r->err ? 0 : r->len - r->pos;
}

/* --- decoding VarInts from raw memory (frame layer) ---
 * Returns bytes used (>0), 0 if more input is needed, <0 if longer than max. */
int varint_decode(const uint8_t *p, size_t len, int32_t *out);
int varint_size(int32_t v);
/* Writes v to p (>= 5 bytes of room); returns bytes written. */
int varint_encode(uint8_t *p, int32_t v);

/* --- readers --- */
uint8_t rd_u8(rd_t *r);
int8_t rd_i8(rd_t *r);
bool rd_bool(rd_t *r);
uint16_t rd_u16(rd_t *r);
int16_t rd_i16(rd_t *r);
int32_t rd_i32(rd_t *r);
int64_t rd_i64(rd_t *r);
float rd_f32(rd_t *r);
double rd_f64(rd_t *r);
int32_t rd_varint(rd_t *r);
int64_t rd_varlong(rd_t *r);
/* String of at most max_chars characters; *len gets its byte length. */
const char *rd_string(rd_t *r, size_t max_chars, size_t *len);
mc_uuid rd_uuid(rd_t *r);
void rd_position(rd_t *r, int32_t *x, int32_t *y, int32_t *z);
const uint8_t *rd_bytes(rd_t *r, size_t n);
void rd_skip(rd_t *r, size_t n);

/* --- writers --- */
void wr_u8(buf_t *b, uint8_t v);
void wr_bool(buf_t *b, bool v);
void wr_u16(buf_t *b, uint16_t v);
void wr_i16(buf_t *b, int16_t v);
void wr_i32(buf_t *b, int32_t v);
void wr_i64(buf_t *b, int64_t v);
void wr_f32(buf_t *b, float v);
void wr_f64(buf_t *b, double v);
void wr_varint(buf_t *b, int32_t v);
void wr_varlong(buf_t *b, int64_t v);
void wr_string(buf_t *b, const char *s, size_t len);
void wr_cstring(buf_t *b, const char *s);
void wr_uuid(buf_t *b, const mc_uuid *u);
void wr_position(buf_t *b, int32_t x, int32_t y, int32_t z);
/* Angle in degrees to the protocol's 1/256 turn byte. */
void wr_angle(buf_t *b, float degrees);

int64_t position_pack(int32_t x, int32_t y, int32_t z);
void position_unpack(int64_t v, int32_t *x, int32_t *y, int32_t *z);

/* Counts UTF-16 code units of a UTF-8 string; -1 if it is not valid UTF-8. */
long utf8_utf16_length(const char *s, size_t len);

/* Formats a UUID as 36 characters with dashes plus NUL. */
void uuid_format(const mc_uuid *u, char out[37]);
/* 32 hex digits, with or without the four dashes (8-4-4-4-12). 0 or -1. */
int uuid_parse(const char *s, size_t len, mc_uuid *out);
/* min_len..16 characters of [A-Za-z0-9_]: the names mcserv accepts (offline
 * logins use min_len 3; names vouched for by Mojang or files, 1). */
bool player_name_valid(const char *s, size_t len, size_t min_len);
/* Offline-mode UUID: version 3 (MD5) of "OfflinePlayer:" + name. */
mc_uuid uuid_offline(const char *name, size_t len);

#endif
