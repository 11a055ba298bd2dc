/* anvil.c — see anvil.h. */
#include "world/anvil.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/biomes.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "proto/wire.h"
#include "proto/wire_longs.h"
#include "world/block_entity.h"
#include "world/block_ticks.h"
#include "world/heightmaps.h"

#define SECTION_Y_MIN (CHUNK_MIN_Y >> 4) /* -4 */
#define MAX_PROPS     16                 /* more than any 1.20.1 block has */

/* ------------------------------------------------------------------ names */

static const char *const biome_names[BIOME_COUNT] = {
    "badlands",
    "bamboo_jungle",
    "basalt_deltas",
    "beach",
    "birch_forest",
    "cherry_grove",
    "cold_ocean",
    "crimson_forest",
    "dark_forest",
    "deep_cold_ocean",
    "deep_dark",
    "deep_frozen_ocean",
    "deep_lukewarm_ocean",
    "deep_ocean",
    "desert",
    "dripstone_caves",
    "end_barrens",
    "end_highlands",
    "end_midlands",
    "eroded_badlands",
    "flower_forest",
    "forest",
    "frozen_ocean",
    "frozen_peaks",
    "frozen_river",
    "grove",
    "ice_spikes",
    "jagged_peaks",
    "jungle",
    "lukewarm_ocean",
    "lush_caves",
    "mangrove_swamp",
    "meadow",
    "mushroom_fields",
    "nether_wastes",
    "ocean",
    "old_growth_birch_forest",
    "old_growth_pine_taiga",
    "old_growth_spruce_taiga",
    "plains",
    "river",
    "savanna",
    "savanna_plateau",
    "small_end_islands",
    "snowy_beach",
    "snowy_plains",
    "snowy_slopes",
    "snowy_taiga",
    "soul_sand_valley",
    "sparse_jungle",
    "stony_peaks",
    "stony_shore",
    "sunflower_plains",
    "swamp",
    "taiga",
    "the_end",
    "the_void",
    "warm_ocean",
    "warped_forest",
    "windswept_forest",
    "windswept_gravelly_hills",
    "windswept_hills",
    "windswept_savanna",
    "wooded_badlands",
};
/* "minecraft:" + name, built once. */
static char biome_full[BIOME_COUNT][48];

/* Open-addressing tables name → index + 1 (0 = empty). */
#define BLOCK_SLOTS 4096
#define ITEM_SLOTS  4096
static uint16_t block_slots[BLOCK_SLOTS];
static uint16_t item_slots[ITEM_SLOTS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* Puts index i under name in an open-addressing table of n slots (a power
 * of two, larger than the names it holds). */
static void slot_insert(uint16_t *slots, uint32_t n, const char *name, int i)
{
    uint32_t h = hash_name(name, strlen(name)) & (n - 1);
    while (slots[h]) h = (h + 1) & (n - 1);
    slots[h] = (uint16_t)(i + 1);
}

/* The index stored under name in slots (n of them), or -1; name_of(i) is
 * the name of index i in the table the slots point into. */
static int slot_find(const uint16_t *slots, uint32_t n, const char *(*name_of)(int),
                     const char *name, size_t len)
{
    uint32_t h = hash_name(name, len) & (n - 1);
    for (uint32_t probe = 0; probe < n && slots[h]; probe++) {
        const char *s = name_of(slots[h] - 1);
        if (strlen(s) == len && memcmp(s, name, len) == 0) return slots[h] - 1;
        h = (h + 1) & (n - 1);
    }
    return -1;
}

static const char *block_name_of(int i)
{
    return block_info[i].name;
}

static const char *item_name_of(int i)
{
    return item_info[i].name;
}

static void build_tables(void)
{
    for (int i = 0; i < BLOCK_COUNT; i++)
        slot_insert(block_slots, BLOCK_SLOTS, block_info[i].name, i);
    for (int i = 0; i < ITEM_COUNT; i++) slot_insert(item_slots, ITEM_SLOTS, item_info[i].name, i);
    for (int i = 0; i < BIOME_COUNT; i++)
        snprintf(biome_full[i], sizeof biome_full[i], "minecraft:%s", biome_names[i]);
}

static void tables(void)
{
    pthread_once(&tables_once, build_tables);
}

/* Strips "minecraft:"; false for another namespace. */
static bool strip_ns(const char **name, size_t *len)
{
    const char *colon = memchr(*name, ':', *len);
    if (!colon) return true;
    if (colon - *name != 9 || memcmp(*name, "minecraft", 9) != 0) return false;
    *len -= 10;
    *name += 10;
    return true;
}

static int block_index(const char *name, size_t len)
{
    tables();
    if (!strip_ns(&name, &len)) return -1;
    return slot_find(block_slots, BLOCK_SLOTS, block_name_of, name, len);
}

int anvil_block_by_name(const char *name, size_t len)
{
    int b = block_index(name, len);
    return b < 0 ? -1 : block_info[b].default_state;
}

int anvil_item_by_name(const char *name, size_t len)
{
    tables();
    if (!strip_ns(&name, &len)) return -1;
    return slot_find(item_slots, ITEM_SLOTS, item_name_of, name, len);
}

int anvil_biome_by_name(const char *name, size_t len)
{
    if (!strip_ns(&name, &len)) return -1;
    /* 64 names in alphabetical order: binary search. */
    int lo = 0, hi = BIOME_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const char *n = biome_names[mid];
        size_t nl = strlen(n);
        int c = memcmp(n, name, nl < len ? nl : len);
        if (c == 0) c = nl < len ? -1 : nl > len ? 1 : 0;
        if (c == 0) return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

const char *anvil_biome_name(uint8_t id)
{
    tables();
    return biome_full[id < BIOME_COUNT ? id : BIOME_PLAINS];
}

/* ------------------------------------------------------------ warn once */

#define WARN_MAX 64
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static char warned[WARN_MAX][96];
static int nwarned;
static bool warn_overflow;

void anvil_warn_once(const char *kind, const char *name, size_t len, const char *replacement)
{
    char key[96];
    int n = snprintf(key, sizeof key, "%s:%.*s", kind, (int)(len > 80 ? 80 : len), name);
    (void)n;
    pthread_mutex_lock(&warn_lock);
    for (int i = 0; i < nwarned; i++) {
        if (strcmp(warned[i], key) == 0) {
            pthread_mutex_unlock(&warn_lock);
            return;
        }
    }
    bool log_it = true;
    if (nwarned < WARN_MAX) {
        memcpy(warned[nwarned++], key, sizeof key);
    } else if (!warn_overflow) {
        warn_overflow = true;
        log_warn("more than %d unknown names in this world; not reporting further ones", WARN_MAX);
        log_it = false;
    } else {
        log_it = false;
    }
    pthread_mutex_unlock(&warn_lock);
    if (log_it)
        log_warn("world data: unknown %s '%.*s' (not in 1.20.1); using %s", kind,
                 (int)(len > 200 ? 200 : len), name, replacement);
}

/* ------------------------------------------------------------ block states */

static const struct block_prop *prop_of(const struct block_info *b, int i)
{
    return &block_props[block_prop_index[b->prop_first + i]];
}

uint16_t anvil_state_from_nbt(const nbt_node *entry)
{
    const nbt_node *name = nbt_get(entry, "Name", NBT_STRING);
    if (!name) {
        anvil_warn_once("block", "(palette entry without Name)", 28, "air");
        return BLOCK_AIR;
    }
    const char *nm = (const char *)name->v.arr.p;
    size_t nl = name->v.arr.n;
    int bi = block_index(nm, nl);
    if (bi < 0) {
        anvil_warn_once("block", nm, nl, "air");
        return BLOCK_AIR;
    }
    const struct block_info *b = &block_info[bi];
    int n = b->prop_count;
    if (n == 0 || n > MAX_PROPS) return b->default_state;
    int idx[MAX_PROPS];
    unsigned rem = (unsigned)(b->default_state - b->min_state);
    for (int i = n - 1; i >= 0; i--) {
        unsigned cnt = prop_of(b, i)->count;
        idx[i] = (int)(rem % cnt);
        rem /= cnt;
    }
    const nbt_node *props = nbt_get(entry, "Properties", NBT_COMPOUND);
    for (const nbt_node *p = props ? props->v.kids.first : NULL; p; p = p->next) {
        if (p->type != NBT_STRING) continue;
        for (int i = 0; i < n; i++) {
            const struct block_prop *bp = prop_of(b, i);
            const char *pn = block_prop_names[bp->name];
            if (strlen(pn) != p->name_len || memcmp(pn, p->name, p->name_len) != 0) continue;
            for (int v = 0; v < bp->count; v++) {
                const char *pv = block_prop_values[bp->first_value + v];
                if (strlen(pv) == p->v.arr.n && memcmp(pv, p->v.arr.p, p->v.arr.n) == 0) {
                    idx[i] = v;
                    break;
                }
            }
            break;
        }
    }
    unsigned s = 0;
    for (int i = 0; i < n; i++) s = s * prop_of(b, i)->count + (unsigned)idx[i];
    s += b->min_state;
    return s <= b->max_state ? (uint16_t)s : b->default_state;
}

static void w_bare_string(buf_t *b, const char *s, size_t n)
{
    wr_u16(b, (uint16_t)n);
    buf_append(b, s, n);
}

void anvil_write_state(buf_t *b, uint16_t state)
{
    const struct block_info *bi = &block_info[block_of_state[state]];
    char name[128];
    int nl = snprintf(name, sizeof name, "minecraft:%s", bi->name);
    nbt_w_string(b, "Name", name, (size_t)nl);
    int n = bi->prop_count;
    if (n > 0 && n <= MAX_PROPS) {
        int idx[MAX_PROPS];
        unsigned rem = (unsigned)(state - bi->min_state);
        for (int i = n - 1; i >= 0; i--) {
            unsigned cnt = prop_of(bi, i)->count;
            idx[i] = (int)(rem % cnt);
            rem /= cnt;
        }
        nbt_w_compound(b, "Properties");
        for (int i = 0; i < n; i++) {
            const struct block_prop *bp = prop_of(bi, i);
            const char *v = block_prop_values[bp->first_value + idx[i]];
            nbt_w_string(b, block_prop_names[bp->name], v, strlen(v));
        }
        nbt_w_end(b);
    }
    nbt_w_end(b);
}

/* ---------------------------------------------------------- NBT helpers */

void anvil_nbt_copy_payload(buf_t *b, const nbt_node *n)
{
    switch (n->type) {
    case NBT_BYTE: wr_u8(b, (uint8_t)n->v.i); break;
    case NBT_SHORT: wr_i16(b, (int16_t)n->v.i); break;
    case NBT_INT: wr_i32(b, (int32_t)n->v.i); break;
    case NBT_LONG: wr_i64(b, n->v.i); break;
    case NBT_FLOAT: wr_f32(b, (float)n->v.f); break;
    case NBT_DOUBLE: wr_f64(b, n->v.f); break;
    case NBT_STRING: w_bare_string(b, (const char *)n->v.arr.p, n->v.arr.n); break;
    case NBT_BYTE_ARRAY:
        wr_i32(b, (int32_t)n->v.arr.n);
        buf_append(b, n->v.arr.p, n->v.arr.n);
        break;
    case NBT_INT_ARRAY:
        wr_i32(b, (int32_t)n->v.arr.n);
        buf_append(b, n->v.arr.p, (size_t)n->v.arr.n * 4);
        break;
    case NBT_LONG_ARRAY:
        wr_i32(b, (int32_t)n->v.arr.n);
        buf_append(b, n->v.arr.p, (size_t)n->v.arr.n * 8);
        break;
    case NBT_LIST:
        wr_u8(b, n->elem_type);
        wr_i32(b, (int32_t)n->v.kids.count);
        for (const nbt_node *c = n->v.kids.first; c; c = c->next) anvil_nbt_copy_payload(b, c);
        break;
    case NBT_COMPOUND:
        for (const nbt_node *c = n->v.kids.first; c; c = c->next) anvil_nbt_copy_tag(b, c);
        nbt_w_end(b);
        break;
    default: break;
    }
}

void anvil_nbt_copy_tag(buf_t *b, const nbt_node *n)
{
    wr_u8(b, n->type);
    wr_u16(b, n->name_len);
    buf_append(b, n->name, n->name_len);
    anvil_nbt_copy_payload(b, n);
}

bool anvil_nbt_str_eq(const nbt_node *n, const char *s)
{
    size_t l = strlen(s);
    return n && n->type == NBT_STRING && n->v.arr.n == l && memcmp(n->v.arr.p, s, l) == 0;
}

/* byte, short, int or long: the tags whose value is in v.i */
static bool is_integer(const nbt_node *n)
{
    return n->type == NBT_BYTE || n->type == NBT_SHORT || n->type == NBT_INT || n->type == NBT_LONG;
}

double anvil_nbt_num(const nbt_node *n, double def)
{
    if (!n) return def;
    if (n->type == NBT_FLOAT || n->type == NBT_DOUBLE) return n->v.f;
    return is_integer(n) ? (double)n->v.i : def;
}

int64_t anvil_nbt_int(const nbt_node *n, int64_t def)
{
    return n && is_integer(n) ? n->v.i : def;
}

/* ---------------------------------------------------------- compression */

int anvil_decompress(int type, const uint8_t *in, size_t len, size_t cap, uint8_t **out,
                     size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    if (type == 3) {
        if (len > cap) return -2;
        uint8_t *p = malloc(len ? len : 1);
        if (!p) return -3;
        memcpy(p, in, len);
        *out = p;
        *out_len = len;
        return 0;
    }
    if (type != 1 && type != 2) return -1;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!d) return -3;
    /* Start at 4× the input (chunk NBT compresses about that well) and double. */
    size_t size = len * 4 < 64 * 1024 ? 64 * 1024 : len * 4;
    if (size > cap) size = cap;
    int rc = -1;
    for (int attempt = 0; attempt < 16; attempt++) {
        uint8_t *p = malloc(size);
        if (!p) {
            rc = -3;
            break;
        }
        size_t got = 0;
        enum libdeflate_result r = type == 1
                                       ? libdeflate_gzip_decompress(d, in, len, p, size, &got)
                                       : libdeflate_zlib_decompress(d, in, len, p, size, &got);
        if (r == LIBDEFLATE_SUCCESS) {
            *out = p;
            *out_len = got;
            rc = 0;
            break;
        }
        free(p);
        if (r != LIBDEFLATE_INSUFFICIENT_SPACE) {
            rc = -1;
            break;
        }
        if (size >= cap) {
            rc = -2;
            break;
        }
        size = size * 2 > cap ? cap : size * 2;
    }
    libdeflate_free_decompressor(d);
    return rc;
}

/* --------------------------------------------------------------- extra */

void anvil_extra_free(anvil_extra *x)
{
    if (!x) return;
    free(x->tags);
    x->tags = NULL;
    x->len = 0;
    bt_chunk_free(x->ticks);
    x->ticks = NULL;
}

int anvil_extra_copy(anvil_extra *dst, const anvil_extra *src)
{
    *dst = *src;
    dst->tags = NULL;
    dst->ticks = NULL;
    if (src->len) {
        dst->tags = malloc(src->len);
        if (!dst->tags) return -1;
        memcpy(dst->tags, src->tags, src->len);
    }
    /* The game thread takes copies: delays from its clock (block_ticks.h). */
    if (src->ticks && !(dst->ticks = bt_chunk_copy(src->ticks, block_ticks_now()))) {
        free(dst->tags);
        dst->tags = NULL;
        return -1;
    }
    return 0;
}

/* Names of the tags kept from disk, with the empty value written when absent. */
static const char *const kept_tags[] = {"PostProcessing", "structures"};
#define NKEPT (sizeof kept_tags / sizeof kept_tags[0])

/* --------------------------------------------------------------- encode */

static inline unsigned per_long(unsigned bits)
{
    return 64 / bits;
}

static inline unsigned longs_for(unsigned entries, unsigned bits)
{
    return (entries + per_long(bits) - 1) / per_long(bits);
}

static unsigned ceil_log2(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n) b++;
    return b;
}

/* A long[] tag from host-order words. */
static void put_long_array(buf_t *b, const char *name, const uint64_t *v, unsigned n)
{
    nbt_w_tag(b, NBT_LONG_ARRAY, name);
    wr_i32(b, (int32_t)n);
    wr_u64_words(b, v, n);
}

static inline uint16_t raw_get(const uint64_t *data, unsigned bits, unsigned idx)
{
    unsigned vpl = per_long(bits);
    return (uint16_t)((data[idx / vpl] >> ((idx % vpl) * bits)) & ((1u << bits) - 1));
}

static uint16_t section_state(const section *s, unsigned idx)
{
    if (s->bits == 0) return s->single;
    uint16_t v = raw_get(s->data, s->bits, idx);
    return s->bits == BLOCK_GLOBAL_BITS ? v : s->palette[v];
}

/* block_states for a section whose layout is not the disk's (direct, or
 * an indirect palette wider than its entries need): re-pack. */
static int write_states_generic(buf_t *b, const section *s)
{
    uint16_t *pal = malloc(4096 * sizeof *pal);
    uint16_t *idx = malloc(4096 * sizeof *idx);
    uint16_t *slot = calloc(1u << BLOCK_GLOBAL_BITS, sizeof *slot); /* state → index + 1 */
    uint64_t *data = NULL;
    int rc = -1;
    if (!pal || !idx || !slot) goto out;
    unsigned n = 0;
    for (unsigned i = 0; i < 4096; i++) {
        uint16_t st = section_state(s, i);
        if (!slot[st]) {
            pal[n] = st;
            slot[st] = (uint16_t)++n;
        }
        idx[i] = (uint16_t)(slot[st] - 1);
    }
    nbt_w_list(b, "palette", NBT_COMPOUND, (int32_t)n);
    for (unsigned k = 0; k < n; k++) anvil_write_state(b, pal[k]);
    if (n > 1) {
        unsigned bits = ceil_log2(n) < 4 ? 4 : ceil_log2(n);
        unsigned nl = longs_for(4096, bits), vpl = per_long(bits);
        data = calloc(nl, sizeof *data);
        if (!data) goto out;
        for (unsigned i = 0; i < 4096; i++) data[i / vpl] |= (uint64_t)idx[i] << ((i % vpl) * bits);
        put_long_array(b, "data", data, nl);
    }
    rc = 0;
out:
    free(pal);
    free(idx);
    free(slot);
    free(data);
    return rc;
}

static int write_block_states(buf_t *b, const section *s)
{
    nbt_w_compound(b, "block_states");
    if (s->bits == 0) {
        nbt_w_list(b, "palette", NBT_COMPOUND, 1);
        anvil_write_state(b, s->single);
    } else if (s->bits != BLOCK_GLOBAL_BITS && s->palette_len > 1 &&
               (ceil_log2(s->palette_len) < 4 ? 4u : ceil_log2(s->palette_len)) == s->bits) {
        /* The in-memory layout is the disk's: copy. */
        nbt_w_list(b, "palette", NBT_COMPOUND, s->palette_len);
        for (unsigned k = 0; k < s->palette_len; k++) anvil_write_state(b, s->palette[k]);
        put_long_array(b, "data", s->data, longs_for(4096, s->bits));
    } else if (write_states_generic(b, s) < 0) {
        return -1;
    }
    nbt_w_end(b);
    return 0;
}

static void write_biomes(buf_t *b, const uint8_t biomes[64])
{
    uint8_t pal[64], idx[64];
    unsigned n = 0;
    for (unsigned i = 0; i < 64; i++) {
        unsigned k = 0;
        while (k < n && pal[k] != biomes[i]) k++;
        if (k == n) pal[n++] = biomes[i];
        idx[i] = (uint8_t)k;
    }
    nbt_w_compound(b, "biomes");
    nbt_w_list(b, "palette", NBT_STRING, (int32_t)n);
    for (unsigned k = 0; k < n; k++) {
        const char *nm = anvil_biome_name(pal[k]);
        w_bare_string(b, nm, strlen(nm));
    }
    if (n > 1) {
        unsigned bits = ceil_log2(n), vpl = per_long(bits), nl = longs_for(64, bits);
        uint64_t data[64] = {0};
        for (unsigned i = 0; i < 64; i++) data[i / vpl] |= (uint64_t)idx[i] << ((i % vpl) * bits);
        put_long_array(b, "data", data, nl);
    }
    nbt_w_end(b);
}

int anvil_encode(const chunk *c, const anvil_extra *extra, int64_t last_update, buf_t *out)
{
    nbt_w_root(out, "");
    nbt_w_int(out, "DataVersion", ANVIL_DATA_VERSION);
    nbt_w_int(out, "xPos", c->x);
    nbt_w_int(out, "yPos", SECTION_Y_MIN);
    nbt_w_int(out, "zPos", c->z);
    nbt_w_string(out, "Status", "minecraft:full", 14);
    nbt_w_long(out, "LastUpdate", last_update);
    nbt_w_long(out, "InhabitedTime", extra ? extra->inhabited_time : 0);
    nbt_w_byte(out, "isLightOn", 0);
    nbt_w_list(out, "sections", NBT_COMPOUND, CHUNK_SECTIONS);
    for (int i = 0; i < CHUNK_SECTIONS; i++) {
        const section *s = &c->sections[i];
        nbt_w_byte(out, "Y", (int8_t)(SECTION_Y_MIN + i));
        if (write_block_states(out, s) < 0) return -1;
        write_biomes(out, s->biomes);
        nbt_w_end(out);
    }
    nbt_w_compound(out, "Heightmaps");
    heightmaps_write(c, out);
    nbt_w_end(out);
    be_write_list(out, &c->bents);
    bt_chunk_write(out, extra ? extra->ticks : NULL, 0); /* copies hold delays */
    if (extra && extra->len) buf_append(out, extra->tags, extra->len);
    for (size_t k = 0; k < NKEPT; k++) {
        if (extra && (extra->present >> k) & 1) continue;
        if (strcmp(kept_tags[k], "structures") == 0) {
            nbt_w_compound(out, "structures");
            nbt_w_compound(out, "References");
            nbt_w_end(out);
            nbt_w_compound(out, "starts");
            nbt_w_end(out);
            nbt_w_end(out);
        } else if (strcmp(kept_tags[k], "PostProcessing") == 0) {
            nbt_w_list(out, "PostProcessing", NBT_LIST, CHUNK_SECTIONS);
            for (int i = 0; i < CHUNK_SECTIONS; i++) {
                wr_u8(out, NBT_END);
                wr_i32(out, 0);
            }
        } else {
            nbt_w_list(out, kept_tags[k], NBT_END, 0);
        }
    }
    nbt_w_end(out);
    return out->failed ? -1 : 0;
}

/* --------------------------------------------------------------- decode */

static int fail(char *why, size_t whylen, const char *msg, int y)
{
    if (y == 999)
        snprintf(why, whylen, "%s", msg);
    else
        snprintf(why, whylen, "section Y=%d: %s", y, msg);
    return ANVIL_CORRUPT;
}

/* The "palette" list of container (block_states or biomes) and its length:
 * 0 when either is absent or the list is empty (the section keeps its
 * default), -1 when it has more than max entries or entries not of elem. */
static int palette_get(const nbt_node *container, uint32_t max, enum nbt_type elem,
                       const nbt_node **pal)
{
    *pal = container ? nbt_get(container, "palette", NBT_LIST) : NULL;
    if (!*pal || (*pal)->v.kids.count == 0) return 0;
    if ((*pal)->v.kids.count > max || (*pal)->elem_type != elem) return -1;
    return (int)(*pal)->v.kids.count;
}

/* Fills section s (already initialised to air/plains) from its NBT. */
static int decode_section(const nbt_node *sec, section *s, int y, char *why, size_t whylen)
{
    const nbt_node *bs = nbt_get(sec, "block_states", NBT_COMPOUND), *pal;
    int np = palette_get(bs, 4096, NBT_COMPOUND, &pal);
    if (np < 0) return fail(why, whylen, "block palette is not 1..4096 compounds", y);
    if (np > 0) {
        uint32_t n = (uint32_t)np;
        uint16_t *states = malloc(n * sizeof *states);
        if (!states) return ANVIL_NOMEM;
        bool dup = false;
        uint32_t k = 0;
        for (const nbt_node *e = pal->v.kids.first; e; e = e->next, k++) {
            states[k] = anvil_state_from_nbt(e);
            for (uint32_t j = 0; j < k && !dup; j++) dup = states[j] == states[k];
        }
        if (n == 1) {
            s->bits = 0;
            s->single = states[0];
            s->non_air = block_is_air(states[0]) ? 0 : 4096;
            free(states);
        } else {
            const nbt_node *data = nbt_get(bs, "data", NBT_LONG_ARRAY);
            unsigned bits = ceil_log2(n) < 4 ? 4 : ceil_log2(n);
            unsigned nl = longs_for(4096, bits);
            if (!data || data->v.arr.n != nl) {
                free(states);
                return fail(why, whylen, "block data length does not match the palette", y);
            }
            uint64_t *words = malloc(nl * sizeof *words);
            if (!words) {
                free(states);
                return ANVIL_NOMEM;
            }
            for (unsigned i = 0; i < nl; i++) words[i] = (uint64_t)nbt_long_at(data, i);
            /* Every index must be inside the palette. */
            for (unsigned i = 0; i < 4096; i++) {
                if (raw_get(words, bits, i) >= n) {
                    free(words);
                    free(states);
                    return fail(why, whylen, "block index past the end of the palette", y);
                }
            }
            if (bits <= 8 && !dup) {
                /* The disk layout is ours: keep the words. */
                uint16_t *p = malloc(256 * sizeof *p);
                if (!p) {
                    free(words);
                    free(states);
                    return ANVIL_NOMEM;
                }
                memcpy(p, states, n * sizeof *p);
                unsigned counts[256] = {0};
                for (unsigned i = 0; i < 4096; i++) counts[raw_get(words, bits, i)]++;
                unsigned non_air = 0;
                for (unsigned j = 0; j < n; j++)
                    if (!block_is_air(p[j])) non_air += counts[j];
                s->palette = p;
                s->palette_len = (uint16_t)n;
                s->data = words;
                s->bits = (uint8_t)bits;
                s->non_air = (uint16_t)non_air;
                free(states);
            } else {
                uint16_t *all = malloc(4096 * sizeof *all);
                if (!all) {
                    free(words);
                    free(states);
                    return ANVIL_NOMEM;
                }
                for (unsigned i = 0; i < 4096; i++) all[i] = states[raw_get(words, bits, i)];
                int rc = section_fill(s, all);
                free(all);
                free(words);
                free(states);
                if (rc < 0) return ANVIL_NOMEM;
            }
        }
    }
    const nbt_node *bm = nbt_get(sec, "biomes", NBT_COMPOUND), *bpal;
    np = palette_get(bm, 64, NBT_STRING, &bpal);
    if (np < 0) return fail(why, whylen, "biome palette is not 1..64 strings", y);
    if (np > 0) {
        uint32_t n = (uint32_t)np;
        uint8_t ids[64];
        uint32_t k = 0;
        for (const nbt_node *e = bpal->v.kids.first; e; e = e->next, k++) {
            int id = anvil_biome_by_name((const char *)e->v.arr.p, e->v.arr.n);
            if (id < 0) {
                anvil_warn_once("biome", (const char *)e->v.arr.p, e->v.arr.n, "plains");
                id = BIOME_PLAINS;
            }
            ids[k] = (uint8_t)id;
        }
        if (n == 1) {
            memset(s->biomes, ids[0], 64);
        } else {
            const nbt_node *data = nbt_get(bm, "data", NBT_LONG_ARRAY);
            unsigned bits = ceil_log2(n), nl = longs_for(64, bits);
            if (!data || data->v.arr.n != nl)
                return fail(why, whylen, "biome data length does not match the palette", y);
            uint64_t words[64];
            for (unsigned i = 0; i < nl; i++) words[i] = (uint64_t)nbt_long_at(data, i);
            for (unsigned i = 0; i < 64; i++) {
                unsigned v = raw_get(words, bits, i);
                if (v >= n) return fail(why, whylen, "biome index past the end of the palette", y);
                s->biomes[i] = ids[v];
            }
        }
    }
    return ANVIL_OK;
}

static int keep_extra(const nbt_node *root, anvil_extra *extra, int32_t cx, int32_t cz)
{
    const nbt_node *inh = nbt_get(root, "InhabitedTime", NBT_END);
    extra->inhabited_time = anvil_nbt_int(inh, 0);
    unsigned skipped = 0;
    if (bt_chunk_read(root, cx, cz, &extra->ticks, &skipped) < 0) return ANVIL_NOMEM;
    if (skipped)
        log_warn("chunk %d,%d: %u scheduled tick(s) skipped (unknown id, outside the chunk, "
                 "or past %d per list)",
                 cx, cz, skipped, BT_PER_CHUNK_MAX);
    buf_t b;
    buf_init(&b, ANVIL_MAX_NBT);
    for (size_t k = 0; k < NKEPT; k++) {
        const nbt_node *n = nbt_get(root, kept_tags[k], NBT_END);
        if (!n) continue;
        anvil_nbt_copy_tag(&b, n);
        extra->present |= (uint8_t)(1u << k);
    }
    if (b.failed) {
        buf_free(&b);
        bt_chunk_free(extra->ticks);
        extra->ticks = NULL;
        return ANVIL_NOMEM;
    }
    extra->tags = b.len ? b.data : NULL;
    extra->len = b.len;
    if (!b.len) buf_free(&b);
    return ANVIL_OK;
}

int anvil_decode(const uint8_t *nbt, size_t len, int32_t want_x, int32_t want_z, chunk *c,
                 anvil_extra *extra, char *why, size_t whylen)
{
    if (extra) memset(extra, 0, sizeof *extra);
    chunk_init(c, want_x, want_z, BLOCK_AIR, BIOME_PLAINS);
    nbt_doc doc;
    long pr = nbt_parse(nbt, len, true, &nbt_limits_disk, &doc);
    if (pr < 0) {
        snprintf(why, whylen, "chunk NBT: %s", nbt_strerror(pr));
        return pr == NBT_E_NOMEM ? ANVIL_NOMEM : ANVIL_CORRUPT;
    }
    const nbt_node *root = doc.root;
    int rc = ANVIL_CORRUPT;
    if (!root || root->type != NBT_COMPOUND) {
        snprintf(why, whylen, "chunk NBT is not a compound");
        goto out;
    }
    if (nbt_get(root, "Level", NBT_COMPOUND)) {
        snprintf(why, whylen, "chunk in the pre-1.18 format (a 'Level' compound): not supported");
        goto out;
    }
    const nbt_node *xp = nbt_get(root, "xPos", NBT_INT), *zp = nbt_get(root, "zPos", NBT_INT);
    if (!xp || !zp) {
        snprintf(why, whylen, "chunk NBT has no xPos/zPos");
        goto out;
    }
    if (xp->v.i != want_x || zp->v.i != want_z) {
        snprintf(why, whylen, "chunk NBT says %d,%d but is stored at %d,%d", (int)xp->v.i,
                 (int)zp->v.i, want_x, want_z);
        goto out;
    }
    const nbt_node *status = nbt_get(root, "Status", NBT_STRING);
    if (status && !anvil_nbt_str_eq(status, "minecraft:full") &&
        !anvil_nbt_str_eq(status, "full")) {
        snprintf(why, whylen, "proto-chunk (status %.*s)", (int)(status->v.arr.n & 63),
                 (const char *)status->v.arr.p);
        rc = ANVIL_NOT_FULL;
        goto out;
    }
    const nbt_node *sections = nbt_get(root, "sections", NBT_LIST);
    if (!sections) {
        snprintf(why, whylen, "chunk NBT has no sections list");
        goto out;
    }
    if (sections->v.kids.count > 0 && sections->elem_type != NBT_COMPOUND) {
        snprintf(why, whylen, "sections is not a list of compounds");
        goto out;
    }
    for (const nbt_node *sec = sections->v.kids.first; sec; sec = sec->next) {
        const nbt_node *yn = nbt_get(sec, "Y", NBT_END);
        if (!yn || yn->type > NBT_LONG) continue;
        int y = (int)yn->v.i;
        int i = y - SECTION_Y_MIN;
        if (i < 0 || i >= CHUNK_SECTIONS) continue; /* light-only sections, other heights */
        section *s = &c->sections[i];
        if (s->bits) {
            /* The same Y twice: the last one wins. */
            free(s->palette);
            free(s->data);
            s->palette = NULL;
            s->data = NULL;
            s->bits = 0;
            s->palette_len = 0;
        }
        rc = decode_section(sec, s, y, why, whylen);
        if (rc != ANVIL_OK) goto out;
    }
    struct be_parse_stats bst = {0};
    if (be_parse_list(&c->bents, nbt_get(root, "block_entities", NBT_LIST), want_x, want_z, &bst) <
        0) {
        rc = ANVIL_NOMEM;
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    if (bst.skipped)
        log_warn("chunk %d,%d: %u block entity entr%s skipped (%s)", want_x, want_z, bst.skipped,
                 bst.skipped == 1 ? "y" : "ies", bst.why);
    if (bst.items_tags_dropped)
        log_warn("chunk %d,%d: item NBT other than Damage is not kept (%u item(s) in containers)",
                 want_x, want_z, bst.items_tags_dropped);
    rc = extra ? keep_extra(root, extra, want_x, want_z) : ANVIL_OK;
    if (rc != ANVIL_OK) snprintf(why, whylen, "out of memory");
out:
    nbt_doc_free(&doc);
    if (rc != ANVIL_OK) {
        chunk_free(c);
        chunk_init(c, want_x, want_z, BLOCK_AIR, BIOME_PLAINS);
        if (extra) anvil_extra_free(extra);
    }
    return rc;
}
