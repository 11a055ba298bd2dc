/*
 * test_block_ticks.c — world/block_ticks.c's pure parts: the drain order of
 * one queue (trigger tick, then priority, then insertion order), one tick
 * per (position, type), the merge across columns with its per-tick budget
 * (what does not fit stays queued, in order), and the block_ticks /
 * fluid_ticks NBT round trip with vanilla's tags (bad entries skipped).
 */
#include <stdlib.h>

#include "data/blocks.h"
#include "data/block_table.h"
#include "proto/nbt.h"
#include "test.h"
#include "world/anvil.h"
#include "world/block_ticks.h"

static struct bt_tick tk(int64_t trigger, int prio, uint64_t seq, int lx, int y, int lz,
                         uint16_t type)
{
    struct bt_tick t = {trigger, seq, type, (int8_t)prio, (uint8_t)(lx | lz << 4), (int16_t)y};
    return t;
}

TEST(block_ticks_drain_order)
{
    struct bt_queue q = {0};
    /* pushed out of order: (trigger, prio, seq) */
    struct bt_tick in[] = {tk(10, 0, 1, 1, 0, 0, 5), tk(5, 0, 2, 2, 0, 0, 5),
                           tk(5, -1, 3, 3, 0, 0, 5), tk(5, 0, 0, 4, 0, 0, 5),
                           tk(7, 3, 4, 5, 0, 0, 5)};
    for (size_t i = 0; i < 5; i++) CHECK_EQ_INT(bt_queue_push(&q, &in[i]), 1);
    static const int want_x[] = {3, 4, 2, 5, 1}; /* prio -1 first at 5, then seq 0, 2; then 7; 10 */
    for (int i = 0; i < 5; i++) {
        const struct bt_tick *t = bt_queue_top(&q);
        CHECK(t != NULL);
        if (!t) break;
        CHECK_EQ_INT(t->lxz & 15, want_x[i]);
        bt_queue_pop(&q);
    }
    CHECK(bt_queue_top(&q) == NULL);
    bt_queue_free(&q);
}

TEST(block_ticks_one_per_position_and_type)
{
    struct bt_queue q = {0};
    struct bt_tick a = tk(5, 0, 1, 3, 70, 9, 112);
    CHECK_EQ_INT(bt_queue_push(&q, &a), 1);
    struct bt_tick again = tk(2, 0, 2, 3, 70, 9, 112);
    CHECK_EQ_INT(bt_queue_push(&q, &again), 0); /* already pending: the first one stays */
    struct bt_tick other = tk(2, 0, 3, 3, 70, 9, 118);
    CHECK_EQ_INT(bt_queue_push(&q, &other), 1); /* another type at the same place */
    CHECK(bt_queue_has(&q, 3 | 9 << 4, 70, 112));
    CHECK(!bt_queue_has(&q, 3 | 9 << 4, 71, 112));
    CHECK_EQ_INT(q.len, 2);
    bt_queue_pop(&q);
    bt_queue_pop(&q);
    CHECK(!bt_queue_has(&q, 3 | 9 << 4, 70, 112));
    CHECK_EQ_INT(bt_queue_push(&q, &again), 1); /* ran: may be scheduled again */
    /* many, to exercise the set's growth and backward-shift removal */
    for (int i = 0; i < 3000; i++) {
        struct bt_tick t = tk(i % 17, 0, (uint64_t)i + 10, i & 15, i >> 8, (i >> 4) & 15, 1);
        CHECK_EQ_INT(bt_queue_push(&q, &t), 1);
    }
    int64_t last = -1;
    size_t n = 0;
    while (bt_queue_top(&q)) {
        const struct bt_tick *t = bt_queue_top(&q);
        CHECK(t->trigger >= last);
        last = t->trigger;
        bt_queue_pop(&q);
        n++;
    }
    CHECK_EQ_INT(n, 3001);
    bt_queue_free(&q);
}

TEST(block_ticks_collect_across_columns_with_budget)
{
    bt_chunk *c[3];
    for (int i = 0; i < 3; i++) c[i] = bt_chunk_new(i, 0);
    uint64_t seq = 0;
    /* column i holds ticks at triggers 1..10 at x = i */
    for (int t = 1; t <= 10; t++)
        for (int i = 0; i < 3; i++) {
            struct bt_tick k = tk(t, 0, seq++, i, t, 0, 7);
            bt_queue_push(&c[i]->q[BT_BLOCK], &k);
        }
    struct bt_due out[64];
    bt_chunk *cols[3] = {c[2], c[0], c[1]};
    size_t got = bt_collect(cols, 3, BT_BLOCK, 4, 10, out);
    CHECK_EQ_INT(got, 10); /* 12 due (triggers 1..4), the budget takes 10 */
    for (size_t i = 0; i + 1 < got; i++) CHECK(bt_tick_cmp(&out[i].t, &out[i + 1].t) < 0);
    CHECK_EQ_INT(out[0].cx, 0);
    CHECK_EQ_INT(out[9].t.trigger, 4);
    /* the two left over come first next time, then nothing past trigger 4 */
    bt_chunk *cols2[3] = {c[0], c[1], c[2]};
    got = bt_collect(cols2, 3, BT_BLOCK, 4, 10, out);
    CHECK_EQ_INT(got, 2);
    CHECK_EQ_INT(out[0].t.trigger, 4);
    CHECK_EQ_INT(out[0].cx, 1);
    CHECK_EQ_INT(out[1].cx, 2);
    bt_chunk *cols3[3] = {c[0], c[1], c[2]};
    CHECK_EQ_INT(bt_collect(cols3, 3, BT_FLUID, 100, 10, out), 0);
    for (int i = 0; i < 3; i++) bt_chunk_free(c[i]);
}

TEST(block_ticks_nbt_round_trip)
{
    bt_chunk *c = bt_chunk_new(-2, 3);
    struct bt_tick a = tk(1005, 1, 0, 4, -60, 7, (uint16_t)block_of_state[BLOCK_SAND]);
    struct bt_tick b = tk(1030, 0, 1, 15, 100, 0, BT_FLUID_FLOWING_WATER);
    bt_queue_push(&c->q[BT_BLOCK], &a);
    bt_queue_push(&c->q[BT_FLUID], &b);
    bt_chunk *copy = bt_chunk_copy(c, 1000); /* live at game tick 1000: delays 5 and 30 */
    CHECK(copy && copy->relative);
    buf_t out;
    buf_init(&out, 1 << 20);
    nbt_w_root(&out, "");
    bt_chunk_write(&out, copy, 0);
    nbt_w_end(&out);
    nbt_doc doc;
    CHECK(nbt_parse(out.data, out.len, true, &nbt_limits_disk, &doc) > 0);
    bt_chunk *back = NULL;
    unsigned skipped = 9;
    CHECK_EQ_INT(bt_chunk_read(doc.root, -2, 3, &back, &skipped), 0);
    CHECK_EQ_INT(skipped, 0);
    CHECK(back != NULL);
    if (back) {
        const struct bt_tick *t = bt_queue_top(&back->q[BT_BLOCK]);
        CHECK(t && t->trigger == 5 && t->y == -60 && (t->lxz & 15) == 4 && (t->lxz >> 4) == 7 &&
              t->prio == 1 && t->type == block_of_state[BLOCK_SAND]);
        t = bt_queue_top(&back->q[BT_FLUID]);
        CHECK(t && t->trigger == 30 && t->y == 100 && t->type == BT_FLUID_FLOWING_WATER);
    }
    /* read into another column: every entry is outside it */
    bt_chunk *wrong = NULL;
    CHECK_EQ_INT(bt_chunk_read(doc.root, 0, 0, &wrong, &skipped), 0);
    CHECK(wrong == NULL);
    CHECK_EQ_INT(skipped, 2);
    nbt_doc_free(&doc);
    buf_free(&out);
    bt_chunk_free(back);
    bt_chunk_free(copy);
    bt_chunk_free(c);
    CHECK_EQ_INT(bt_fluid_by_name("minecraft:lava", 14), BT_FLUID_LAVA);
    CHECK_EQ_INT(bt_fluid_by_name("minecraft:milk", 14), -1);
}

TEST(block_ticks_through_the_chunk_codec)
{
    chunk c;
    chunk_init(&c, 2, -1, BLOCK_AIR, 0);
    chunk_set_block(&c, 3, -50, 4, BLOCK_SAND);
    anvil_extra x = {0};
    x.ticks = bt_chunk_new(2, -1);
    struct bt_tick a = tk(1002, 0, 0, 3, -50, 4, (uint16_t)block_of_state[BLOCK_SAND]);
    bt_queue_push(&x.ticks->q[BT_BLOCK], &a);
    anvil_extra copy;
    block_ticks_set_now(1000);
    CHECK_EQ_INT(anvil_extra_copy(&copy, &x), 0); /* as the store takes it: delay 2 */
    block_ticks_set_now(0);
    buf_t out;
    buf_init(&out, 1 << 24);
    CHECK_EQ_INT(anvil_encode(&c, &copy, 1000, &out), 0);
    chunk d;
    anvil_extra y;
    char why[200] = "";
    CHECK_EQ_INT(anvil_decode(out.data, out.len, 2, -1, &d, &y, why, sizeof why), ANVIL_OK);
    CHECK(y.ticks != NULL && y.ticks->relative);
    const struct bt_tick *t = y.ticks ? bt_queue_top(&y.ticks->q[BT_BLOCK]) : NULL;
    CHECK(t && t->trigger == 2 && t->y == -50 && t->lxz == (3 | 4 << 4));
    CHECK(y.ticks && y.ticks->q[BT_FLUID].len == 0);
    anvil_extra_free(&y);
    chunk_free(&d);
    anvil_extra_free(&copy);
    anvil_extra_free(&x);
    chunk_free(&c);
    buf_free(&out);
}
