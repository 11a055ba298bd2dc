/*
 * block_ticks.c — see block_ticks.h: the pure parts, the queues (a heap plus
 * a position set per kind per column, and bt_collect's merge across
 * columns), their NBT form and the clock, which the unit tests and the
 * chunk parser's fuzz target link; the world's simulation state (the active
 * list, the neighbour FIFO) is world/block_sim.c.
 */
#include "world/block_ticks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "world/anvil.h"
#include "world/chunk.h"

/* ------------------------------------------------------------------ queues */

int bt_tick_cmp(const struct bt_tick *a, const struct bt_tick *b)
{
    if (a->trigger != b->trigger) return a->trigger < b->trigger ? -1 : 1;
    if (a->prio != b->prio) return a->prio < b->prio ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static inline uint64_t key_of(uint8_t lxz, int16_t y, uint16_t type)
{
    return ((uint64_t)type << 24 | (uint64_t)lxz << 16 | (uint16_t)y) + 1;
}

static inline uint32_t hash_key(uint64_t k, uint32_t cap)
{
    return (uint32_t)((k * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static bool set_has(const struct bt_queue *q, uint64_t k)
{
    if (!q->set_cap) return false;
    for (uint32_t i = hash_key(k, q->set_cap);; i = (i + 1) & (q->set_cap - 1)) {
        if (q->set[i] == k) return true;
        if (q->set[i] == 0) return false;
    }
}

static void set_put(uint64_t *set, uint32_t cap, uint64_t k)
{
    uint32_t i = hash_key(k, cap);
    while (set[i]) i = (i + 1) & (cap - 1);
    set[i] = k;
}

/* Linear probing removal by backward shift (no tombstones). */
static void set_del(struct bt_queue *q, uint64_t k)
{
    uint32_t m = q->set_cap - 1, i = hash_key(k, q->set_cap);
    while (q->set[i] != k) {
        if (!q->set[i]) return;
        i = (i + 1) & m;
    }
    for (uint32_t j = (i + 1) & m;; j = (j + 1) & m) {
        if (!q->set[j]) break;
        uint32_t h = hash_key(q->set[j], q->set_cap);
        /* may q->set[j] move back to i? (h cyclically outside (i, j]) */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            q->set[i] = q->set[j];
            i = j;
        }
    }
    q->set[i] = 0;
}

static int set_grow(struct bt_queue *q)
{
    uint32_t cap = q->set_cap ? q->set_cap * 2 : 64;
    uint64_t *n = calloc(cap, sizeof *n);
    if (!n) return -1;
    for (uint32_t i = 0; i < q->set_cap; i++)
        if (q->set[i]) set_put(n, cap, q->set[i]);
    free(q->set);
    q->set = n;
    q->set_cap = cap;
    return 0;
}

static void sift_up(struct bt_tick *h, uint32_t i)
{
    struct bt_tick t = h[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (bt_tick_cmp(&h[p], &t) <= 0) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = t;
}

static void sift_down(struct bt_tick *h, uint32_t n, uint32_t i)
{
    struct bt_tick t = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && bt_tick_cmp(&h[c + 1], &h[c]) < 0) c++;
        if (bt_tick_cmp(&t, &h[c]) <= 0) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = t;
}

int bt_queue_push(struct bt_queue *q, const struct bt_tick *t)
{
    uint64_t k = key_of(t->lxz, t->y, t->type);
    if (set_has(q, k)) return 0;
    if ((q->len + 1) * 2 > q->set_cap && set_grow(q) < 0) return -1;
    if (q->len == q->cap) { /* doubles */
        void *n = realloc(q->heap, (q->cap ? q->cap * 2 : 16) * sizeof *q->heap);
        if (!n) return -1;
        q->heap = n, q->cap = q->cap ? q->cap * 2 : 16;
    }
    set_put(q->set, q->set_cap, k);
    q->heap[q->len] = *t;
    sift_up(q->heap, q->len++);
    return 1;
}

const struct bt_tick *bt_queue_top(const struct bt_queue *q)
{
    return q->len ? &q->heap[0] : NULL;
}

void bt_queue_pop(struct bt_queue *q)
{
    if (!q->len) return;
    set_del(q, key_of(q->heap[0].lxz, q->heap[0].y, q->heap[0].type));
    q->heap[0] = q->heap[--q->len];
    if (q->len) sift_down(q->heap, q->len, 0);
    if (q->len == 0 && q->cap > 256) { /* a cascade is over: give the memory back */
        bt_queue_free(q);
    }
}

bool bt_queue_has(const struct bt_queue *q, uint8_t lxz, int16_t y, uint16_t type)
{
    return set_has(q, key_of(lxz, y, type));
}

void bt_queue_free(struct bt_queue *q)
{
    free(q->heap);
    free(q->set);
    memset(q, 0, sizeof *q);
}

/* bt_collect's heap of columns, by their first tick. */
static bool col_less(bt_chunk *a, bt_chunk *b, enum bt_kind k)
{
    return bt_tick_cmp(&a->q[k].heap[0], &b->q[k].heap[0]) < 0;
}

static void col_down(bt_chunk **h, size_t n, size_t i, enum bt_kind k)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && col_less(h[c + 1], h[c], k)) c++;
        if (!col_less(h[c], h[i], k)) return;
        bt_chunk *t = h[i];
        h[i] = h[c];
        h[c] = t;
        i = c;
    }
}

size_t bt_collect(bt_chunk **cols, size_t n, enum bt_kind kind, int64_t now, size_t max,
                  struct bt_due *out)
{
    /* Keep the columns with a due tick, as a heap (cols is reordered). */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const struct bt_tick *t = bt_queue_top(&cols[i]->q[kind]);
        if (t && t->trigger <= now) {
            bt_chunk *c = cols[i];
            cols[i] = cols[m];
            cols[m++] = c;
        }
    }
    for (size_t i = m / 2; i-- > 0;) col_down(cols, m, i, kind);
    size_t got = 0;
    while (m > 0 && got < max) {
        bt_chunk *c = cols[0];
        out[got].t = c->q[kind].heap[0];
        out[got].cx = c->cx;
        out[got].cz = c->cz;
        got++;
        bt_queue_pop(&c->q[kind]);
        const struct bt_tick *t = bt_queue_top(&c->q[kind]);
        if (!t || t->trigger > now) cols[0] = cols[--m];
        col_down(cols, m, 0, kind);
    }
    return got;
}

/* ------------------------------------------------------------------ columns */

bt_chunk *bt_chunk_new(int32_t cx, int32_t cz)
{
    bt_chunk *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->cx = cx;
    c->cz = cz;
    list_init(&c->link);
    return c;
}

void bt_chunk_free(bt_chunk *c)
{
    if (!c) return;
    if (list_linked(&c->link)) list_remove(&c->link);
    for (int k = 0; k < BT_KINDS; k++) bt_queue_free(&c->q[k]);
    free(c);
}

bt_chunk *bt_chunk_copy(const bt_chunk *c, int64_t now)
{
    bt_chunk *d = bt_chunk_new(c->cx, c->cz);
    if (!d) return NULL;
    d->relative = true;
    d->random_mask = c->random_mask;
    for (int k = 0; k < BT_KINDS; k++)
        for (uint32_t i = 0; i < c->q[k].len; i++) {
            struct bt_tick t = c->q[k].heap[i];
            if (!c->relative) t.trigger = t.trigger > now ? t.trigger - now : 0;
            if (bt_queue_push(&d->q[k], &t) < 0) {
                bt_chunk_free(d);
                return NULL;
            }
        }
    return d;
}

static const char *const fluid_names[BT_FLUID_TYPES] = {"minecraft:empty", "minecraft:water",
                                                        "minecraft:flowing_water", "minecraft:lava",
                                                        "minecraft:flowing_lava"};

const char *bt_fluid_name(int type)
{
    return type > 0 && type < BT_FLUID_TYPES ? fluid_names[type] : fluid_names[0];
}

int bt_fluid_by_name(const char *s, size_t len)
{
    for (int i = 1; i < BT_FLUID_TYPES; i++)
        if (strlen(fluid_names[i]) == len && memcmp(fluid_names[i], s, len) == 0) return i;
    return -1;
}

static void write_list(buf_t *b, const char *name, const bt_chunk *c, enum bt_kind k, int64_t now)
{
    uint32_t n = c ? c->q[k].len : 0;
    nbt_w_list(b, name, n ? NBT_COMPOUND : NBT_END, (int32_t)n);
    for (uint32_t i = 0; i < n; i++) {
        const struct bt_tick *t = &c->q[k].heap[i];
        char id[80];
        const char *nm;
        if (k == BT_FLUID) {
            nm = bt_fluid_name(t->type);
        } else {
            snprintf(id, sizeof id, "minecraft:%s",
                     t->type < BLOCK_COUNT ? block_info[t->type].name : "air");
            nm = id;
        }
        int64_t left = c->relative ? t->trigger : t->trigger - now;
        if (left < 0) left = 0;
        if (left > INT32_MAX) left = INT32_MAX;
        nbt_w_string(b, "i", nm, strlen(nm));
        nbt_w_int(b, "x", c->cx * 16 + (t->lxz & 15));
        nbt_w_int(b, "y", t->y);
        nbt_w_int(b, "z", c->cz * 16 + (t->lxz >> 4));
        nbt_w_int(b, "t", (int32_t)left);
        nbt_w_int(b, "p", t->prio);
        nbt_w_end(b);
    }
}

void bt_chunk_write(buf_t *b, const bt_chunk *c, int64_t now)
{
    write_list(b, "block_ticks", c, BT_BLOCK, now);
    write_list(b, "fluid_ticks", c, BT_FLUID, now);
}

static int read_list(const nbt_node *list, enum bt_kind k, int32_t cx, int32_t cz, bt_chunk **out,
                     unsigned *skipped)
{
    if (!list || list->v.kids.count == 0) return 0;
    if (list->elem_type != NBT_COMPOUND) {
        *skipped += list->v.kids.count;
        return 0;
    }
    uint32_t taken = 0;
    for (const nbt_node *e = list->v.kids.first; e; e = e->next) {
        const nbt_node *id = nbt_get(e, "i", NBT_STRING);
        const nbt_node *xn = nbt_get(e, "x", NBT_INT), *yn = nbt_get(e, "y", NBT_INT),
                       *zn = nbt_get(e, "z", NBT_INT);
        if (!id || !xn || !yn || !zn || taken >= BT_PER_CHUNK_MAX) {
            (*skipped)++;
            continue;
        }
        int64_t x = xn->v.i, y = yn->v.i, z = zn->v.i;
        int type = k == BT_FLUID ? bt_fluid_by_name((const char *)id->v.arr.p, id->v.arr.n)
                                 : anvil_block_by_name((const char *)id->v.arr.p, id->v.arr.n);
        if (k == BT_BLOCK && type >= 0) type = block_of_state[type]; /* a block id */
        if (type <= 0 || (x >> 4) != cx || (z >> 4) != cz || y < CHUNK_MIN_Y ||
            y >= CHUNK_MIN_Y + CHUNK_HEIGHT) {
            (*skipped)++;
            continue;
        }
        int64_t t = anvil_nbt_int(nbt_get(e, "t", NBT_END), 0);
        int64_t p = anvil_nbt_int(nbt_get(e, "p", NBT_END), 0);
        if (!*out && !(*out = bt_chunk_new(cx, cz))) return -1;
        (*out)->relative = true;
        struct bt_tick tk = {
            .trigger = t < 0 ? 0 : t,
            .seq = taken,
            .type = (uint16_t)type,
            .prio = (int8_t)(p < -3  ? -3
                             : p > 3 ? 3
                                     : p),
            .lxz = (uint8_t)((x & 15) | (z & 15) << 4),
            .y = (int16_t)y,
        };
        if (bt_queue_push(&(*out)->q[k], &tk) < 0) return -1;
        taken++;
    }
    return 0;
}

int bt_chunk_read(const nbt_node *root, int32_t cx, int32_t cz, bt_chunk **out, unsigned *skipped)
{
    *out = NULL;
    *skipped = 0;
    if (read_list(nbt_get(root, "block_ticks", NBT_LIST), BT_BLOCK, cx, cz, out, skipped) < 0 ||
        read_list(nbt_get(root, "fluid_ticks", NBT_LIST), BT_FLUID, cx, cz, out, skipped) < 0) {
        bt_chunk_free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ clock */

static int64_t clock_now;

int64_t block_ticks_now(void)
{
    return clock_now;
}

void block_ticks_set_now(int64_t now)
{
    clock_now = now;
}
