/*
 * text_nbt.c — a chat component written as JSON text (what mcserv builds
 * everywhere) rewritten as network NBT, the form text takes on the wire
 * since 1.20.3 (nameless root: a tag type byte, then the payload).
 *
 * The mapping is vanilla's ComponentSerialization through NbtOps:
 *   string -> TAG_String, object -> TAG_Compound, true/false -> TAG_Byte,
 *   integer -> TAG_Int (TAG_Long beyond 32 bits), other number -> TAG_Double,
 *   array -> TAG_List of one element type; a list that mixes types (a
 *   translation's "with" of strings and components) holds compounds, a
 *   string s becoming {"text": s}, as vanilla's lenient list codec reads it.
 *   null -> nothing (a member with null is dropped).
 *
 * Invariants:
 *  1. Never more than TEXT_NBT_DEPTH levels of nesting; deeper input, or
 *     text that is not JSON, is written as its plain string (the client
 *     shows the raw text rather than a dropped message).
 *  2. Appends to b only; b->failed reports an allocation failure.
 */
#include "proto/text_nbt.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/nbt.h"
#include "proto/wire.h"

#define TEXT_NBT_DEPTH 32

static enum nbt_type tag_of(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return NBT_COMPOUND;
    case JSON_ARRAY: return NBT_LIST;
    case JSON_STRING: return NBT_STRING;
    case JSON_INTEGER: {
        json_int_t n = json_integer_value(v);
        return n >= INT32_MIN && n <= INT32_MAX ? NBT_INT : NBT_LONG;
    }
    case JSON_REAL: return NBT_DOUBLE;
    case JSON_TRUE:
    case JSON_FALSE: return NBT_BYTE;
    default: return NBT_END; /* null */
    }
}

/* Appends one code point as Java's modified UTF-8 (NUL as C0 80, beyond
 * the BMP as two 3-byte surrogates); returns the bytes written. */
static size_t put_mutf8(uint8_t out[6], uint32_t cp)
{
    if (cp != 0 && cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xc0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xe0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    cp -= 0x10000;
    size_t n = put_mutf8(out, 0xd800 | cp >> 10);
    return n + put_mutf8(out + n, 0xdc00 | (cp & 0x3ff));
}

/* The next code point of s[*i..n) (UTF-8); an invalid byte is U+FFFD. */
static uint32_t next_cp(const uint8_t *s, size_t n, size_t *i)
{
    uint8_t c = s[(*i)++];
    if (c < 0x80) return c;
    int more = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
    if (more < 0 || *i + (size_t)more > n) return 0xfffd;
    uint32_t cp = c & (0x3f >> more);
    for (int k = 0; k < more; k++) {
        if ((s[*i + (size_t)k] & 0xc0) != 0x80) return 0xfffd;
        cp = cp << 6 | (s[*i + (size_t)k] & 0x3f);
    }
    *i += (size_t)more;
    return cp;
}

/* A TAG_String payload: u16 length, modified UTF-8, cut at NBT's 65,535
 * bytes (text this long is never sent). */
static void nbt_str(buf_t *b, const char *s, size_t n)
{
    size_t len_at = b->len;
    wr_u16(b, 0);
    size_t total = 0, i = 0;
    while (i < n) {
        uint8_t enc[6];
        size_t k = put_mutf8(enc, next_cp((const uint8_t *)s, n, &i));
        if (total + k > 65535) break;
        buf_append(b, enc, k);
        total += k;
    }
    if (b->failed) return;
    b->data[len_at] = (uint8_t)(total >> 8);
    b->data[len_at + 1] = (uint8_t)total;
}

static void nbt_name(buf_t *b, const char *name)
{
    nbt_str(b, name, strlen(name));
}

static int depth_of(const json_t *v, int limit)
{
    if (limit <= 0) return limit;
    int deepest = limit;
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            int d = depth_of(x, limit - 1);
            if (d < deepest) deepest = d;
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            int d = depth_of(x, limit - 1);
            if (d < deepest) deepest = d;
        }
    }
    return deepest;
}

static void payload(buf_t *b, const json_t *v);

/* A list element that is not a compound, in a list of compounds. */
static void wrapped(buf_t *b, const json_t *v)
{
    if (json_is_object(v)) {
        payload(b, v);
        return;
    }
    wr_u8(b, NBT_STRING);
    nbt_name(b, "text");
    if (json_is_string(v)) {
        nbt_str(b, json_string_value(v), json_string_length(v));
    } else {
        char *s = json_dumps(v, JSON_ENCODE_ANY);
        nbt_str(b, s ? s : "", s ? strlen(s) : 0);
        free(s);
    }
    wr_u8(b, NBT_END);
}

static void payload(buf_t *b, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            enum nbt_type t = tag_of(x);
            if (t == NBT_END) continue;
            wr_u8(b, (uint8_t)t);
            nbt_name(b, k);
            payload(b, x);
        }
        wr_u8(b, NBT_END);
        break;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v), i;
        json_t *x;
        enum nbt_type elem = n ? tag_of(json_array_get(v, 0)) : NBT_END;
        bool mixed = false;
        json_array_foreach(v, i, x) mixed |= tag_of(x) != elem;
        if (mixed || elem == NBT_END) elem = n ? NBT_COMPOUND : NBT_END;
        wr_u8(b, (uint8_t)elem);
        wr_i32(b, (int32_t)n);
        json_array_foreach(v, i, x)
        {
            if (mixed)
                wrapped(b, x);
            else
                payload(b, x);
        }
        break;
    }
    case JSON_STRING: nbt_str(b, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER:
        if (tag_of(v) == NBT_INT)
            wr_i32(b, (int32_t)json_integer_value(v));
        else
            wr_i64(b, (int64_t)json_integer_value(v));
        break;
    case JSON_REAL: wr_f64(b, json_real_value(v)); break;
    case JSON_TRUE: wr_u8(b, 1); break;
    case JSON_FALSE: wr_u8(b, 0); break;
    default: break;
    }
}

void text_nbt_append(buf_t *b, const char *json, size_t len)
{
    json_t *root = json_loadb(json, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!root || tag_of(root) == NBT_END || depth_of(root, TEXT_NBT_DEPTH) <= 0) {
        /* invariant 1: the text as it is */
        wr_u8(b, NBT_STRING);
        nbt_str(b, json, len);
    } else {
        wr_u8(b, (uint8_t)tag_of(root));
        payload(b, root);
    }
    json_decref(root);
}
