/* nbt.c — see nbt.h. The reader is recursive with an explicit depth cap. */
#include "proto/nbt.h"

#include <stdlib.h>
#include <string.h>

#include "proto/wire.h"

const nbt_limits nbt_limits_network = {512, 16384, 2097152}; /* FriendlyByteBuf.readNbt */
const nbt_limits nbt_limits_disk = {512, 4u << 20, 0};

/* ------------------------------------------------------------------ writer */

static void w_name(buf_t *b, const char *name)
{
    size_t n = strlen(name);
    wr_u16(b, (uint16_t)n);
    buf_append(b, name, n);
}

void nbt_w_tag(buf_t *b, enum nbt_type type, const char *name)
{
    wr_u8(b, (uint8_t)type);
    w_name(b, name);
}

void nbt_w_root(buf_t *b, const char *name)
{
    nbt_w_tag(b, NBT_COMPOUND, name);
}

void nbt_w_compound(buf_t *b, const char *name)
{
    nbt_w_tag(b, NBT_COMPOUND, name);
}

void nbt_w_end(buf_t *b)
{
    wr_u8(b, NBT_END);
}

/* The scalar tags: the tag header, then the value big-endian. */
#define NBT_SCALAR_WRITER(fn, tag, ctype, write)                                                   \
    void fn(buf_t *b, const char *name, ctype v)                                                   \
    {                                                                                              \
        nbt_w_tag(b, tag, name);                                                                   \
        write;                                                                                     \
    }
NBT_SCALAR_WRITER(nbt_w_byte, NBT_BYTE, int8_t, wr_u8(b, (uint8_t)v))
NBT_SCALAR_WRITER(nbt_w_short, NBT_SHORT, int16_t, wr_i16(b, v))
NBT_SCALAR_WRITER(nbt_w_int, NBT_INT, int32_t, wr_i32(b, v))
NBT_SCALAR_WRITER(nbt_w_long, NBT_LONG, int64_t, wr_i64(b, v))
NBT_SCALAR_WRITER(nbt_w_float, NBT_FLOAT, float, wr_f32(b, v))
NBT_SCALAR_WRITER(nbt_w_double, NBT_DOUBLE, double, wr_f64(b, v))

void nbt_w_string(buf_t *b, const char *name, const char *s, size_t len)
{
    nbt_w_tag(b, NBT_STRING, name);
    wr_u16(b, (uint16_t)len);
    buf_append(b, s, len);
}

void nbt_w_byte_array(buf_t *b, const char *name, const uint8_t *v, int32_t n)
{
    nbt_w_tag(b, NBT_BYTE_ARRAY, name);
    wr_i32(b, n);
    buf_append(b, v, (size_t)n);
}

void nbt_w_int_array(buf_t *b, const char *name, const int32_t *v, int32_t n)
{
    nbt_w_tag(b, NBT_INT_ARRAY, name);
    wr_i32(b, n);
    for (int32_t i = 0; i < n; i++) wr_i32(b, v[i]);
}

void nbt_w_long_array(buf_t *b, const char *name, const int64_t *v, int32_t n)
{
    nbt_w_tag(b, NBT_LONG_ARRAY, name);
    wr_i32(b, n);
    for (int32_t i = 0; i < n; i++) wr_i64(b, v[i]);
}

void nbt_w_list(buf_t *b, const char *name, enum nbt_type elem, int32_t n)
{
    nbt_w_tag(b, NBT_LIST, name);
    wr_u8(b, (uint8_t)elem);
    wr_i32(b, n);
}

/* ------------------------------------------------------------------ reader */

#define NBT_BLOCK_NODES 256

struct nbt_block {
    struct nbt_block *next;
    size_t used;
    nbt_node nodes[NBT_BLOCK_NODES];
};

struct parser {
    rd_t r;
    const nbt_limits *lim;
    nbt_doc *doc;
    long err;
    uint64_t bytes; /* vanilla NbtAccounter usage (invariant 4) */
};

static nbt_node *new_node(struct parser *ps)
{
    nbt_doc *d = ps->doc;
    if (d->nodes >= ps->lim->max_nodes) {
        ps->err = NBT_E_NODES;
        return NULL;
    }
    if (!d->blocks || d->blocks->used == NBT_BLOCK_NODES) {
        struct nbt_block *blk = malloc(sizeof *blk);
        if (!blk) {
            ps->err = NBT_E_NOMEM;
            return NULL;
        }
        blk->next = d->blocks;
        blk->used = 0;
        d->blocks = blk;
    }
    nbt_node *n = &d->blocks->nodes[d->blocks->used++];
    memset(n, 0, sizeof *n);
    d->nodes++;
    return n;
}

/* Smallest payload size of a tag type, for the list-count precheck. */
static size_t min_payload(uint8_t type)
{
    static const uint8_t sizes[] = {0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4, 4};
    return type < sizeof sizes ? sizes[type] : 1;
}

static int parse_payload(struct parser *ps, nbt_node *n, unsigned depth);

static int fail(struct parser *ps, long err)
{
    if (!ps->err) ps->err = err;
    return -1;
}

/* NbtAccounter.accountBytes; -1 past the quota. */
static int account(struct parser *ps, uint64_t n)
{
    ps->bytes += n;
    if (ps->lim->max_bytes && ps->bytes > ps->lim->max_bytes) return fail(ps, NBT_E_QUOTA);
    return 0;
}

static int parse_array(struct parser *ps, nbt_node *n, size_t elem)
{
    int32_t count = rd_i32(&ps->r);
    if (ps->r.err) return fail(ps, NBT_E_SHORT);
    if (account(ps, 24 + (uint64_t)elem * (uint64_t)(count > 0 ? count : 0)) < 0) return -1;
    if (count < 0 || (size_t)count > rd_left(&ps->r) / elem) return fail(ps, NBT_E_SHORT);
    n->v.arr.n = (uint32_t)count;
    n->v.arr.p = rd_bytes(&ps->r, (size_t)count * elem);
    return 0;
}

static int parse_payload(struct parser *ps, nbt_node *n, unsigned depth)
{
    rd_t *r = &ps->r;
    if (depth > ps->lim->max_depth) return fail(ps, NBT_E_DEPTH);
    static const uint8_t number_cost[] = {0, 9, 10, 12, 16, 12, 16};
    if (n->type >= NBT_BYTE && n->type <= NBT_DOUBLE && account(ps, number_cost[n->type]) < 0)
        return -1;
    switch (n->type) {
    case NBT_BYTE: n->v.i = rd_i8(r); break;
    case NBT_SHORT: n->v.i = rd_i16(r); break;
    case NBT_INT: n->v.i = rd_i32(r); break;
    case NBT_LONG: n->v.i = rd_i64(r); break;
    case NBT_FLOAT: n->v.f = rd_f32(r); break;
    case NBT_DOUBLE: n->v.f = rd_f64(r); break;
    case NBT_BYTE_ARRAY: return parse_array(ps, n, 1);
    case NBT_INT_ARRAY: return parse_array(ps, n, 4);
    case NBT_LONG_ARRAY: return parse_array(ps, n, 8);
    case NBT_STRING: {
        uint16_t len = rd_u16(r);
        if (account(ps, 36 + 2 * (uint64_t)len) < 0) return -1;
        n->v.arr.n = len;
        n->v.arr.p = rd_bytes(r, len);
        break;
    }
    case NBT_LIST: {
        uint8_t et = rd_u8(r);
        int32_t count = rd_i32(r);
        if (r->err) return fail(ps, NBT_E_SHORT);
        if (et > NBT_LONG_ARRAY) return fail(ps, NBT_E_TYPE);
        if (count < 0 || (et == NBT_END && count > 0)) return fail(ps, NBT_E_LIST);
        if (account(ps, 37 + 4 * (uint64_t)count) < 0) return -1;
        if ((size_t)count > rd_left(r) / (min_payload(et) ? min_payload(et) : 1))
            return fail(ps, NBT_E_SHORT);
        n->elem_type = et;
        n->v.kids.count = (uint32_t)count;
        nbt_node **tail = &n->v.kids.first;
        for (int32_t i = 0; i < count; i++) {
            nbt_node *c = new_node(ps);
            if (!c) return -1;
            c->type = et;
            if (parse_payload(ps, c, depth + 1) < 0) return -1;
            *tail = c;
            tail = &c->next;
        }
        break;
    }
    case NBT_COMPOUND: {
        if (account(ps, 48) < 0) return -1;
        nbt_node **tail = &n->v.kids.first;
        for (;;) {
            uint8_t t = rd_u8(r);
            if (r->err) return fail(ps, NBT_E_SHORT);
            if (t == NBT_END) break;
            if (t > NBT_LONG_ARRAY) return fail(ps, NBT_E_TYPE);
            nbt_node *c = new_node(ps);
            if (!c) return -1;
            c->type = t;
            c->name_len = rd_u16(r);
            c->name = (const char *)rd_bytes(r, c->name_len);
            if (r->err) return fail(ps, NBT_E_SHORT);
            if (account(ps, 28 + 2 * (uint64_t)c->name_len) < 0) return -1;
            if (parse_payload(ps, c, depth + 1) < 0) return -1;
            if (account(ps, 36) < 0) return -1; /* vanilla: only for a new key */
            *tail = c;
            tail = &c->next;
            n->v.kids.count++;
        }
        break;
    }
    default: return fail(ps, NBT_E_TYPE);
    }
    if (r->err) return fail(ps, NBT_E_SHORT);
    return 0;
}

long nbt_parse(const uint8_t *p, size_t len, bool named_root, const nbt_limits *lim, nbt_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    struct parser ps = {rd_make(p, len), lim, doc, 0, 0};
    uint8_t t = rd_u8(&ps.r);
    if (ps.r.err) return NBT_E_SHORT;
    if (t == NBT_END) return 1;
    if (t > NBT_LONG_ARRAY) return NBT_E_TYPE;
    nbt_node *root = new_node(&ps);
    if (!root) goto fail;
    root->type = t;
    if (named_root) {
        root->name_len = rd_u16(&ps.r);
        root->name = (const char *)rd_bytes(&ps.r, root->name_len);
        if (ps.r.err) {
            ps.err = NBT_E_SHORT;
            goto fail;
        }
    }
    if (parse_payload(&ps, root, 1) < 0) goto fail;
    doc->root = root;
    return (long)ps.r.pos;
fail:
    nbt_doc_free(doc);
    return ps.err ? ps.err : NBT_E_SHORT;
}

void nbt_doc_free(nbt_doc *doc)
{
    struct nbt_block *b = doc->blocks;
    while (b) {
        struct nbt_block *next = b->next;
        free(b);
        b = next;
    }
    memset(doc, 0, sizeof *doc);
}

const char *nbt_strerror(long err)
{
    switch (err) {
    case NBT_E_SHORT: return "truncated NBT";
    case NBT_E_TYPE: return "unknown NBT tag type";
    case NBT_E_DEPTH: return "NBT nested too deeply";
    case NBT_E_NODES: return "NBT has too many tags";
    case NBT_E_LIST: return "malformed NBT list";
    case NBT_E_NOMEM: return "out of memory reading NBT";
    case NBT_E_ROOT: return "unexpected NBT root";
    case NBT_E_QUOTA: return "NBT too big (over its byte quota)";
    }
    return "NBT error";
}

const nbt_node *nbt_get(const nbt_node *compound, const char *name, enum nbt_type type)
{
    if (!compound || compound->type != NBT_COMPOUND) return NULL;
    size_t len = strlen(name);
    for (const nbt_node *c = compound->v.kids.first; c; c = c->next) {
        if (c->name_len == len && memcmp(c->name, name, len) == 0 &&
            (type == NBT_END || c->type == type))
            return c;
    }
    return NULL;
}

int64_t nbt_long_at(const nbt_node *arr, uint32_t i)
{
    rd_t r = rd_make(arr->v.arr.p + (size_t)i * 8, 8);
    return rd_i64(&r);
}

int32_t nbt_int_at(const nbt_node *arr, uint32_t i)
{
    rd_t r = rd_make(arr->v.arr.p + (size_t)i * 4, 4);
    return rd_i32(&r);
}
