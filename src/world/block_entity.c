/* block_entity.c — see block_entity.h. */
#include "world/block_entity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/recipes.h"
#include "proto/wire.h"
#include "game/enchant.h"
#include "world/anvil.h"

static const char *const kind_names[] = {NULL, "minecraft:chest", "minecraft:trapped_chest",
                                         "minecraft:barrel"};

enum be_kind be_kind_of_block(int block)
{
    if (block == block_of_state[BLOCK_CHEST]) return BE_CHEST;
    if (block == block_of_state[BLOCK_TRAPPED_CHEST]) return BE_TRAPPED_CHEST;
    if (block == block_of_state[BLOCK_BARREL]) return BE_BARREL;
    return BE_RAW;
}

const char *be_kind_name(enum be_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : NULL;
}

static void be_free(struct block_entity *e)
{
    if (!e) return;
    free(e->extra);
    free(e);
}

void be_map_free(be_map *m)
{
    for (uint32_t i = 0; i < m->n; i++) be_free(m->v[i]);
    free(m->v);
    memset(m, 0, sizeof *m);
}

int be_map_clone(be_map *dst, const be_map *src)
{
    memset(dst, 0, sizeof *dst);
    if (!src->n) return 0;
    dst->v = calloc(src->n, sizeof *dst->v);
    if (!dst->v) return -1;
    dst->cap = src->n;
    for (uint32_t i = 0; i < src->n; i++) {
        struct block_entity *e = malloc(sizeof *e);
        if (!e) goto fail;
        *e = *src->v[i];
        e->extra = NULL;
        if (src->v[i]->extra_len) {
            e->extra = malloc(src->v[i]->extra_len);
            if (!e->extra) {
                free(e);
                goto fail;
            }
            memcpy(e->extra, src->v[i]->extra, e->extra_len);
        }
        dst->v[dst->n++] = e;
    }
    return 0;
fail:
    be_map_free(dst);
    return -1;
}

static int find(const be_map *m, int32_t x, int32_t y, int32_t z)
{
    for (uint32_t i = 0; i < m->n; i++) {
        const struct block_entity *e = m->v[i];
        if (e->x == x && e->y == y && e->z == z) return (int)i;
    }
    return -1;
}

struct block_entity *be_get(const be_map *m, int32_t x, int32_t y, int32_t z)
{
    int i = find(m, x, y, z);
    return i < 0 ? NULL : m->v[i];
}

struct block_entity *be_put(be_map *m, int32_t x, int32_t y, int32_t z, enum be_kind kind)
{
    int i = find(m, x, y, z);
    if (i >= 0 && m->v[i]->kind == kind) return m->v[i];
    struct block_entity *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->x = x, e->y = y, e->z = z;
    e->kind = (uint8_t)kind;
    if (i >= 0) {
        be_free(m->v[i]);
        m->v[i] = e;
        return e;
    }
    if (m->n == m->cap) {
        uint32_t ncap = m->cap ? m->cap * 2 : 4;
        struct block_entity **nv = m->n < BE_MAP_MAX ? realloc(m->v, ncap * sizeof *nv) : NULL;
        if (!nv) {
            free(e);
            return NULL;
        }
        m->v = nv;
        m->cap = ncap;
    }
    m->v[m->n++] = e;
    return e;
}

int be_remove(be_map *m, int32_t x, int32_t y, int32_t z)
{
    int i = find(m, x, y, z);
    if (i < 0) return 0;
    be_free(m->v[i]);
    m->v[i] = m->v[--m->n];
    return 1;
}

/* ----------------------------------------------------------------- parse */

static void skip(struct be_parse_stats *st, const char *why)
{
    if (!st->skipped++) snprintf(st->why, sizeof st->why, "%s", why);
}

static enum be_kind kind_by_id(const nbt_node *id)
{
    for (unsigned k = BE_CHEST; k < sizeof kind_names / sizeof kind_names[0]; k++)
        if (anvil_nbt_str_eq(id, kind_names[k])) return (enum be_kind)k;
    return BE_RAW;
}

static bool is_int(const nbt_node *n)
{
    return n && (n->type == NBT_INT || n->type == NBT_SHORT || n->type == NBT_BYTE);
}

/* One entry of Items into e (invariants 2 and 3). */
static void parse_item(struct block_entity *e, const nbt_node *it, struct be_parse_stats *st)
{
    const nbt_node *id = nbt_get(it, "id", NBT_STRING);
    int64_t slot = anvil_nbt_int(nbt_get(it, "Slot", NBT_END), -1);
    int64_t count = anvil_nbt_int(nbt_get(it, "Count", NBT_END), 0);
    if (!id || slot < 0 || slot >= BE_CONTAINER_SLOTS || count <= 0 || count > 127) {
        skip(st, "an item with no id, a slot outside 0..26 or a count outside 1..127");
        return;
    }
    int item = anvil_item_by_name((const char *)id->v.arr.p, id->v.arr.n);
    if (item <= 0 || item >= ITEM_COUNT) {
        anvil_warn_once("item", (const char *)id->v.arr.p, id->v.arr.n, "nothing");
        return;
    }
    const nbt_node *tag = nbt_get(it, "tag", NBT_COMPOUND);
    struct be_item *s = &e->items[slot];
    if (ench_read_item_tag(tag, item, &s->damage, s->ench) > 0) st->items_tags_dropped++;
    s->item = (int16_t)item;
    int max = item_info[item].stack_size < 1 ? 1 : item_info[item].stack_size;
    s->count = (int8_t)(count > max ? max : count);
}

/* The tags of compound n that are not in skip_names, copied whole. */
static int keep_tags(struct block_entity *e, const nbt_node *n, const char *const *skip_names)
{
    buf_t b;
    buf_init(&b, ANVIL_MAX_NBT);
    for (const nbt_node *t = n->v.kids.first; t; t = t->next) {
        bool skipped = false;
        for (const char *const *s = skip_names; *s && !skipped; s++)
            skipped = (size_t)t->name_len == strlen(*s) && memcmp(t->name, *s, t->name_len) == 0;
        if (!skipped) anvil_nbt_copy_tag(&b, t);
    }
    if (b.failed) {
        buf_free(&b);
        return -1;
    }
    if (!b.len) {
        buf_free(&b);
        return 0;
    }
    e->extra = b.data;
    e->extra_len = b.len;
    return 0;
}

int be_parse_list(be_map *m, const nbt_node *list, int32_t cx, int32_t cz,
                  struct be_parse_stats *st)
{
    static const char *const raw_skip[] = {"x", "y", "z", NULL};
    static const char *const cont_skip[] = {"x", "y", "z", "id", "Items", "keepPacked", NULL};
    if (!list || list->type != NBT_LIST || list->v.kids.count == 0) return 0;
    if (list->elem_type != NBT_COMPOUND) {
        skip(st, "block_entities is not a list of compounds");
        return 0;
    }
    for (const nbt_node *n = list->v.kids.first; n; n = n->next) {
        const nbt_node *id = nbt_get(n, "id", NBT_STRING);
        const nbt_node *x = nbt_get(n, "x", NBT_END), *y = nbt_get(n, "y", NBT_END),
                       *z = nbt_get(n, "z", NBT_END);
        if (!id || !is_int(x) || !is_int(y) || !is_int(z)) {
            skip(st, "a block entity without a string id and int x, y, z");
            continue;
        }
        if ((x->v.i >> 4) != cx || (z->v.i >> 4) != cz || y->v.i < -64 || y->v.i >= 320) {
            skip(st, "a block entity outside its chunk");
            continue;
        }
        enum be_kind kind = kind_by_id(id);
        int32_t px = (int32_t)x->v.i, py = (int32_t)y->v.i, pz = (int32_t)z->v.i;
        be_remove(m, px, py, pz); /* the same position twice: the last one wins */
        if (m->n >= BE_MAP_MAX) {
            skip(st, "more block entities than a chunk may hold");
            continue;
        }
        struct block_entity *e = be_put(m, px, py, pz, kind);
        if (!e || keep_tags(e, n, kind == BE_RAW ? raw_skip : cont_skip) < 0) return -1;
        if (kind == BE_RAW) continue;
        const nbt_node *items = nbt_get(n, "Items", NBT_LIST);
        if (!items || items->v.kids.count == 0) continue;
        if (items->elem_type != NBT_COMPOUND) {
            skip(st, "Items is not a list of compounds");
            continue;
        }
        for (const nbt_node *it = items->v.kids.first; it; it = it->next) parse_item(e, it, st);
    }
    return 0;
}

int be_custom_name(const struct block_entity *e, char *out, size_t cap)
{
    size_t off = 0;
    int found = -1;
    while (found < 0 && off < e->extra_len) {
        nbt_doc doc;
        long n = nbt_parse(e->extra + off, e->extra_len - off, true, &nbt_limits_disk, &doc);
        if (n <= 0) break;
        const nbt_node *t = doc.root;
        if (t && t->type == NBT_STRING && t->name_len == 10 &&
            memcmp(t->name, "CustomName", 10) == 0 && t->v.arr.n < cap) {
            memcpy(out, t->v.arr.p, t->v.arr.n);
            out[t->v.arr.n] = 0;
            found = (int)t->v.arr.n;
        }
        nbt_doc_free(&doc);
        off += (size_t)n;
    }
    return found;
}

/* ----------------------------------------------------------------- write */

static void write_items(buf_t *b, const struct block_entity *e)
{
    int n = 0;
    for (int i = 0; i < BE_CONTAINER_SLOTS; i++)
        if (e->items[i].item > 0 && e->items[i].item < ITEM_COUNT && e->items[i].count > 0) n++;
    nbt_w_list(b, "Items", NBT_COMPOUND, n); /* vanilla writes it even when empty */
    for (int i = 0; i < BE_CONTAINER_SLOTS; i++) {
        const struct be_item *s = &e->items[i];
        if (s->item <= 0 || s->item >= ITEM_COUNT || s->count <= 0) continue;
        char id[128];
        snprintf(id, sizeof id, "minecraft:%s", item_info[s->item].name);
        nbt_w_byte(b, "Slot", (int8_t)i);
        nbt_w_string(b, "id", id, strlen(id));
        nbt_w_byte(b, "Count", s->count);
        ench_write_item_tag(b, s->damage, s->ench);
        nbt_w_end(b);
    }
}

void be_write_list(buf_t *b, const be_map *m)
{
    nbt_w_list(b, "block_entities", NBT_COMPOUND, m ? (int32_t)m->n : 0);
    for (uint32_t i = 0; m && i < m->n; i++) {
        const struct block_entity *e = m->v[i];
        if (e->kind != BE_RAW) {
            const char *id = be_kind_name((enum be_kind)e->kind);
            nbt_w_string(b, "id", id, strlen(id));
        }
        nbt_w_int(b, "x", e->x);
        nbt_w_int(b, "y", e->y);
        nbt_w_int(b, "z", e->z);
        if (e->kind != BE_RAW) {
            nbt_w_byte(b, "keepPacked", 0);
            write_items(b, e);
        }
        if (e->extra_len) buf_append(b, e->extra, e->extra_len);
        nbt_w_end(b);
    }
}
