/*
 * nbt.h — Named Binary Tag writer and reader.
 *
 * Byte layout (all big-endian):
 *   tag      = u8 type, u16 name_len, name (modified UTF-8), payload
 *   payload  = END(0): none | BYTE(1) i8 | SHORT(2) i16 | INT(3) i32 | LONG(4) i64
 *            | FLOAT(5) f32 | DOUBLE(6) f64 | BYTE_ARRAY(7) i32 n, n bytes
 *            | STRING(8) u16 n, n bytes | LIST(9) u8 type, i32 n, n payloads
 *            | COMPOUND(10) tags until END | INT_ARRAY(11) i32 n, n i32
 *            | LONG_ARRAY(12) i32 n, n i64
 * In 1.20.1 network NBT still has a named root (0x0a 0x00 0x00 ...); the
 * nameless form only arrives in 1.20.2.
 *
 * Reader invariants:
 *  1. Depth is capped (limits.max_depth, vanilla: 512) and so is the number
 *     of nodes (limits.max_nodes); the input length bounds everything else.
 *  2. A list's count is checked against the bytes left before any node is
 *     made (count × smallest element size), so a 4-byte header cannot ask
 *     for billions of nodes. A list of END with count > 0 is rejected.
 *  3. Nodes point into the input buffer (names, strings, arrays): the input
 *     must outlive the document. nbt_doc_free releases the nodes only.
 *  4. With limits.max_bytes set, the reader accounts what vanilla 1.20.1's
 *     NbtAccounter would allocate (48 per compound, 28 + 2 × name + 36 per
 *     entry, 37 + 4 × count per list, 36 + 2 × length per string, 9..16 per
 *     number, 24 + elements per array; name and string lengths in bytes) and
 *     fails with NBT_E_QUOTA past it: network NBT gets vanilla's 2 MiB.
 */
#ifndef MC_NBT_H
#define MC_NBT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

enum nbt_type {
    NBT_END = 0,
    NBT_BYTE,
    NBT_SHORT,
    NBT_INT,
    NBT_LONG,
    NBT_FLOAT,
    NBT_DOUBLE,
    NBT_BYTE_ARRAY,
    NBT_STRING,
    NBT_LIST,
    NBT_COMPOUND,
    NBT_INT_ARRAY,
    NBT_LONG_ARRAY,
};

/* ------------------------------------------------------------------ writer */
void nbt_w_tag(buf_t *b, enum nbt_type type, const char *name);
/* Opens the root compound; network NBT in 1.20.1 uses name "". */
void nbt_w_root(buf_t *b, const char *name);
void nbt_w_compound(buf_t *b, const char *name);
void nbt_w_end(buf_t *b);
void nbt_w_byte(buf_t *b, const char *name, int8_t v);
void nbt_w_short(buf_t *b, const char *name, int16_t v);
void nbt_w_int(buf_t *b, const char *name, int32_t v);
void nbt_w_long(buf_t *b, const char *name, int64_t v);
void nbt_w_float(buf_t *b, const char *name, float v);
void nbt_w_double(buf_t *b, const char *name, double v);
void nbt_w_string(buf_t *b, const char *name, const char *s, size_t len);
void nbt_w_byte_array(buf_t *b, const char *name, const uint8_t *v, int32_t n);
void nbt_w_int_array(buf_t *b, const char *name, const int32_t *v, int32_t n);
void nbt_w_long_array(buf_t *b, const char *name, const int64_t *v, int32_t n);
/* Opens a list; the caller writes `n` bare payloads of `elem` next. */
void nbt_w_list(buf_t *b, const char *name, enum nbt_type elem, int32_t n);

/* ------------------------------------------------------------------ reader */
typedef struct nbt_node nbt_node;
struct nbt_node {
    uint8_t type;
    uint8_t elem_type; /* LIST only */
    uint16_t name_len;
    const char *name;
    union {
        int64_t i; /* BYTE, SHORT, INT, LONG */
        double f;  /* FLOAT, DOUBLE */
        struct {   /* STRING, *_ARRAY: raw big-endian payload in the input */
            const uint8_t *p;
            uint32_t n; /* element count (bytes for STRING) */
        } arr;
        struct { /* COMPOUND, LIST */
            nbt_node *first;
            uint32_t count;
        } kids;
    } v;
    nbt_node *next;
};

typedef struct nbt_limits {
    unsigned max_depth;
    size_t max_nodes;
    uint64_t max_bytes; /* invariant 4; 0 = no quota */
} nbt_limits;

typedef struct nbt_doc {
    nbt_node *root;
    size_t nodes;
    struct nbt_block *blocks; /* node storage, owned */
} nbt_doc;

enum nbt_error {
    NBT_E_SHORT = -1,
    NBT_E_TYPE = -2,
    NBT_E_DEPTH = -3,
    NBT_E_NODES = -4,
    NBT_E_LIST = -5,
    NBT_E_NOMEM = -6,
    NBT_E_ROOT = -7,
    NBT_E_QUOTA = -8,
};

extern const nbt_limits nbt_limits_network; /* depth 512, 16384 nodes, 2 MiB quota */
extern const nbt_limits nbt_limits_disk;    /* depth 512, 4M nodes, no quota */

/*
 * Parses one tag from p[0..len). named_root: the root has a type byte and a
 * name (1.20.1 network and disk); otherwise only a type byte. A root of type
 * END (a lone 0x00: "no NBT") gives doc->root == NULL and returns 1.
 * Returns bytes consumed (>0) or an enum nbt_error. On error the doc is
 * empty and needs no free.
 */
long nbt_parse(const uint8_t *p, size_t len, bool named_root, const nbt_limits *lim, nbt_doc *doc);
void nbt_doc_free(nbt_doc *doc);
const char *nbt_strerror(long err);

/* Child of a compound by name, optionally of a given type (NBT_END = any). */
const nbt_node *nbt_get(const nbt_node *compound, const char *name, enum nbt_type type);
int64_t nbt_long_at(const nbt_node *arr, uint32_t i); /* LONG_ARRAY element */
int32_t nbt_int_at(const nbt_node *arr, uint32_t i);  /* INT_ARRAY element */

#endif
