/*
 * pprof.c — see pprof.h. Frames are named once per distinct address
 * (a hash map address -> location); functions and strings are interned in
 * hash maps of their own. A caller frame is a return address: it is named
 * and stored as address - 1, inside the call instruction, as pprof does.
 */
#include "core/pprof.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/symtab.h"

/* ------------------------------------------------------- interning */

/* Open addressing over 64-bit keys (key 0 is reserved: stored as key+1). */
struct u64map {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, len;
};

static bool u64map_grow(struct u64map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1024;
    uint64_t *k = calloc(cap, sizeof *k);
    uint32_t *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        size_t j = (m->keys[i] * 0x9e3779b97f4a7c15ull) >> 20 & (cap - 1);
        while (k[j]) j = (j + 1) & (cap - 1);
        k[j] = m->keys[i];
        v[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
    return true;
}

/* The value of key, or inserts `fresh` for it; *found tells which. -1 on OOM. */
static int64_t u64map_get(struct u64map *m, uint64_t key, uint32_t fresh, bool *found)
{
    if ((m->len + 1) * 4 > m->cap * 3 && !u64map_grow(m)) return -1;
    uint64_t k = key + 1;
    size_t j = (k * 0x9e3779b97f4a7c15ull) >> 20 & (m->cap - 1);
    while (m->keys[j]) {
        if (m->keys[j] == k) {
            *found = true;
            return m->vals[j];
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = k;
    m->vals[j] = fresh;
    m->len++;
    *found = false;
    return fresh;
}

static void u64map_free(struct u64map *m)
{
    free(m->keys);
    free(m->vals);
    *m = (struct u64map){0};
}

static uint64_t hash_str(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h;
}

/* Interned strings: an arena of NUL-terminated copies, and a map from the
 * hash to the first index (collisions chained through next[]). */
struct strtab {
    char **s;
    uint32_t *next; /* next index with the same hash, UINT32_MAX none */
    size_t n, cap;
    struct u64map by_hash;
};

static int64_t strtab_add(struct strtab *t, const char *s)
{
    size_t len = strlen(s);
    uint64_t h = hash_str(s, len);
    bool found;
    int64_t first = u64map_get(&t->by_hash, h, (uint32_t)t->n, &found);
    if (first < 0) return -1;
    if (found) {
        for (uint32_t i = (uint32_t)first; i != UINT32_MAX; i = t->next[i])
            if (strcmp(t->s[i], s) == 0) return i;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        char **a = realloc(t->s, cap * sizeof *a);
        if (!a) return -1;
        t->s = a;
        uint32_t *nx = realloc(t->next, cap * sizeof *nx);
        if (!nx) return -1;
        t->next = nx;
        t->cap = cap;
    }
    char *copy = strdup(s);
    if (!copy) return -1;
    uint32_t idx = (uint32_t)t->n++;
    t->s[idx] = copy;
    t->next[idx] = UINT32_MAX;
    if (found) { /* chain behind the first with this hash */
        uint32_t i = (uint32_t)first;
        while (t->next[i] != UINT32_MAX) i = t->next[i];
        t->next[i] = idx;
    }
    return idx;
}

static void strtab_free(struct strtab *t)
{
    for (size_t i = 0; i < t->n; i++) free(t->s[i]);
    free(t->s);
    free(t->next);
    u64map_free(&t->by_hash);
    *t = (struct strtab){0};
}

/* ------------------------------------------------ naming the frames */

/* Per distinct frame address: its function (index into names). */
struct frames {
    struct u64map loc_of; /* address -> location index */
    struct {
        uint64_t addr;
        uint32_t func; /* function index */
    } * loc;           /* per location */
    size_t nloc, cap;
    struct strtab names;    /* function names; index = function index */
    uint32_t *loc_of_frame; /* per pcs[] entry of the profile */
};

static uintptr_t frame_addr(const profile *p, const struct prof_stack *s, uint32_t i)
{
    uintptr_t pc = p->pcs[s->pc_off + i];
    return i == 0 ? pc : pc - 1;
}

static int name_frames(const profile *p, struct frames *f)
{
    f->loc_of_frame = malloc((p->npcs ? p->npcs : 1) * sizeof *f->loc_of_frame);
    if (!f->loc_of_frame) return -1;
    for (size_t k = 0; k < p->nstacks; k++) {
        const struct prof_stack *s = &p->stacks[k];
        for (uint32_t i = 0; i < s->depth; i++) {
            uintptr_t a = frame_addr(p, s, i);
            bool found;
            int64_t loc = u64map_get(&f->loc_of, a, (uint32_t)f->nloc, &found);
            if (loc < 0) return -1;
            if (!found) {
                if (f->nloc == f->cap) {
                    size_t cap = f->cap ? f->cap * 2 : 1024;
                    void *nl = realloc(f->loc, cap * sizeof *f->loc);
                    if (!nl) return -1;
                    f->loc = nl;
                    f->cap = cap;
                }
                char tmp[96];
                int64_t fn = strtab_add(&f->names, symtab_name(a, tmp, sizeof tmp));
                if (fn < 0) return -1;
                f->loc[f->nloc].addr = a;
                f->loc[f->nloc].func = (uint32_t)fn;
                f->nloc++;
            }
            f->loc_of_frame[s->pc_off + i] = (uint32_t)loc;
        }
    }
    return 0;
}

static void frames_free(struct frames *f)
{
    u64map_free(&f->loc_of);
    free(f->loc);
    free(f->loc_of_frame);
    strtab_free(&f->names);
}

/* --------------------------------------------------- protobuf writer */

static void pb_varint(buf_t *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) tmp[n] |= 0x80;
        n++;
    } while (v);
    buf_append(b, tmp, n);
}

static void pb_key(buf_t *b, int field, int wire)
{
    pb_varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

/* A varint field (proto3: zero is the default and left out). */
static void pb_uint(buf_t *b, int field, uint64_t v)
{
    if (!v) return;
    pb_key(b, field, 0);
    pb_varint(b, v);
}

static void pb_bytes(buf_t *b, int field, const void *p, size_t n)
{
    pb_key(b, field, 2);
    pb_varint(b, n);
    buf_append(b, p, n);
}

/* A nested message already built in m. */
static void pb_msg(buf_t *b, int field, buf_t *m)
{
    pb_bytes(b, field, m->data, m->len);
    if (m->failed) b->failed = 1;
    buf_reset(m);
}

static void value_type(buf_t *b, buf_t *m, int field, int64_t type, int64_t unit)
{
    pb_uint(m, 1, (uint64_t)type);
    pb_uint(m, 2, (uint64_t)unit);
    pb_msg(b, field, m);
}

static int build_proto(const profile *p, struct frames *f, struct strtab *strs, buf_t *b)
{
    buf_t m, m2, packed;
    buf_init(&m, b->limit);
    buf_init(&m2, b->limit);
    buf_init(&packed, b->limit);
    int rc = -1;
    int64_t s_samples = strtab_add(strs, "samples"), s_count = strtab_add(strs, "count");
    int64_t s_cpu = strtab_add(strs, "cpu"), s_ns = strtab_add(strs, "nanoseconds");
    int64_t s_thread = strtab_add(strs, "thread"), s_tid = strtab_add(strs, "tid");
    if (s_samples < 0 || s_count < 0 || s_cpu < 0 || s_ns < 0 || s_thread < 0 || s_tid < 0)
        goto out;
    value_type(b, &m, 1, s_samples, s_count);
    value_type(b, &m, 1, s_cpu, s_ns);
    int64_t thread_str[PROF_MAX_THREADS];
    for (int i = 0; i < p->nthreads; i++)
        if ((thread_str[i] = strtab_add(strs, p->threads[i].name)) < 0) goto out;
    for (size_t k = 0; k < p->nstacks; k++) { /* 2: samples */
        const struct prof_stack *s = &p->stacks[k];
        for (uint32_t i = 0; i < s->depth; i++)
            pb_varint(&packed, f->loc_of_frame[s->pc_off + i] + 1u);
        pb_msg(&m, 1, &packed);
        pb_varint(&packed, s->count);
        pb_varint(&packed, s->count * (uint64_t)p->period_ns);
        pb_msg(&m, 2, &packed);
        pb_uint(&m2, 1, (uint64_t)s_thread);
        pb_uint(&m2, 2, (uint64_t)thread_str[s->thread]);
        pb_msg(&m, 3, &m2);
        pb_uint(&m2, 1, (uint64_t)s_tid);
        pb_uint(&m2, 3, (uint64_t)p->threads[s->thread].tid);
        pb_msg(&m, 3, &m2);
        pb_msg(b, 2, &m);
    }
    const struct symtab_object *objs;
    size_t nobj = symtab_objects(&objs);
    for (size_t i = 0; i < nobj; i++) { /* 3: mappings, id = index + 1 */
        int64_t fname = strtab_add(strs, objs[i].path);
        if (fname < 0) goto out;
        pb_uint(&m, 1, i + 1);
        pb_uint(&m, 2, objs[i].start);
        pb_uint(&m, 3, objs[i].limit);
        pb_uint(&m, 4, objs[i].file_offset);
        pb_uint(&m, 5, (uint64_t)fname);
        pb_uint(&m, 7, 1);
        pb_msg(b, 3, &m);
    }
    for (size_t l = 0; l < f->nloc; l++) { /* 4: locations, id = index + 1 */
        const struct symtab_object *o = symtab_object_of(f->loc[l].addr);
        pb_uint(&m, 1, l + 1);
        if (o) pb_uint(&m, 2, (uint64_t)(o - objs) + 1);
        pb_uint(&m, 3, f->loc[l].addr);
        pb_uint(&m2, 1, f->loc[l].func + 1u);
        pb_msg(&m, 4, &m2);
        pb_msg(b, 4, &m);
    }
    for (size_t fn = 0; fn < f->names.n; fn++) { /* 5: functions, id = index + 1 */
        int64_t name = strtab_add(strs, f->names.s[fn]);
        if (name < 0) goto out;
        pb_uint(&m, 1, fn + 1);
        pb_uint(&m, 2, (uint64_t)name);
        pb_uint(&m, 3, (uint64_t)name);
        pb_msg(b, 5, &m);
    }
    char note[160];
    snprintf(note, sizeof note, "mcserv: %d Hz (%s), %llu samples, %llu dropped, %llu filtered",
             p->hz, p->clock ? p->clock : "?", (unsigned long long)p->samples,
             (unsigned long long)p->dropped, (unsigned long long)p->filtered);
    int64_t s_note = strtab_add(strs, note);
    if (s_note < 0) goto out;
    for (size_t i = 0; i < strs->n; i++) /* 6: the string table, "" first */
        pb_bytes(b, 6, strs->s[i], strlen(strs->s[i]));
    pb_uint(b, 9, (uint64_t)p->start_unix_ns);
    pb_uint(b, 10, (uint64_t)p->duration_ns);
    value_type(b, &m, 11, s_cpu, s_ns);
    pb_uint(b, 12, (uint64_t)p->period_ns);
    pb_key(b, 13, 0);
    pb_varint(b, (uint64_t)s_note);
    pb_uint(b, 14, (uint64_t)s_cpu);
    rc = b->failed || m.failed || m2.failed || packed.failed ? -1 : 0;
out:
    buf_free(&m);
    buf_free(&m2);
    buf_free(&packed);
    return rc;
}

int pprof_write_proto(const profile *p, buf_t *out)
{
    struct frames f = {0};
    struct strtab strs = {0};
    buf_t raw;
    buf_init(&raw, out->limit ? out->limit : BUF_DEFAULT_LIMIT);
    int rc = -1;
    if (strtab_add(&strs, "") != 0) goto out; /* invariant 2 */
    if (name_frames(p, &f) < 0 || build_proto(p, &f, &strs, &raw) < 0) goto out;
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
    if (!z) goto out;
    size_t bound = libdeflate_gzip_compress_bound(z, raw.len);
    uint8_t *dst = buf_reserve(out, bound);
    size_t n = dst ? libdeflate_gzip_compress(z, raw.data, raw.len, dst, bound) : 0;
    libdeflate_free_compressor(z);
    if (!n) goto out;
    out->len += n;
    rc = 0;
out:
    buf_free(&raw);
    frames_free(&f);
    strtab_free(&strs);
    return rc;
}

/* ------------------------------------------------------- folded stacks */

struct folded {
    const char *line; /* owned by the strtab */
    uint64_t count;
};

static int cmp_folded(const void *a, const void *b)
{
    return strcmp(((const struct folded *)a)->line, ((const struct folded *)b)->line);
}

int pprof_write_collapsed(const profile *p, buf_t *out)
{
    struct frames f = {0};
    struct strtab lines = {0};
    uint64_t *counts = NULL;
    struct folded *rows = NULL;
    buf_t line;
    buf_init(&line, 1u << 20);
    int rc = -1;
    if (name_frames(p, &f) < 0) goto out;
    counts = calloc(p->nstacks ? p->nstacks : 1, sizeof *counts);
    if (!counts) goto out;
    for (size_t k = 0; k < p->nstacks; k++) {
        const struct prof_stack *s = &p->stacks[k];
        buf_reset(&line);
        const char *t = p->threads[s->thread].name;
        buf_append(&line, t, strlen(t));
        for (uint32_t i = s->depth; i-- > 0;) {
            const char *name = f.names.s[f.loc[f.loc_of_frame[s->pc_off + i]].func];
            buf_lit(&line, ";");
            for (const char *c = name; *c; c++) /* ';' and ' ' would split the line */
                buf_append(&line, *c == ';' || *c == ' ' || *c == '\n' ? "_" : c, 1);
        }
        buf_append(&line, "", 1); /* NUL */
        if (line.failed) goto out;
        int64_t idx = strtab_add(&lines, (const char *)line.data);
        if (idx < 0) goto out;
        counts[idx] += s->count;
    }
    rows = calloc(lines.n ? lines.n : 1, sizeof *rows);
    if (!rows) goto out;
    for (size_t i = 0; i < lines.n; i++) rows[i] = (struct folded){lines.s[i], counts[i]};
    qsort(rows, lines.n, sizeof *rows, cmp_folded);
    for (size_t i = 0; i < lines.n; i++) {
        char num[32];
        int n = snprintf(num, sizeof num, " %llu\n", (unsigned long long)rows[i].count);
        buf_append(out, rows[i].line, strlen(rows[i].line));
        buf_append(out, num, (size_t)n);
    }
    rc = out->failed ? -1 : 0;
out:
    free(rows);
    free(counts);
    buf_free(&line);
    frames_free(&f);
    strtab_free(&lines);
    return rc;
}
