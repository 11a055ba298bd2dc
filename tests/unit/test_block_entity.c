/*
 * test_block_entity.c — world/block_entity.c: a chunk's block_entities list
 * read and written back (a chest's Items with Slot, id, Count, tag.Damage
 * and CustomName; an unknown furnace kept byte for byte), bad entries
 * skipped and counted (no id, outside the chunk, slots outside 0..26,
 * unknown items, counts out of range, Items of the wrong type), the map's
 * put/get/remove, and chunk_set_block dropping an entity when its block
 * changes (but not on a state change of the same block).
 */
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "test.h"
#include "world/anvil.h"
#include "world/block_entity.h"
#include "world/chunk.h"

static int item_id(const char *name)
{
    return anvil_item_by_name(name, strlen(name));
}

static void w_item(buf_t *b, int slot, const char *id, int count, int damage)
{
    nbt_w_byte(b, "Slot", (int8_t)slot);
    nbt_w_string(b, "id", id, strlen(id));
    nbt_w_byte(b, "Count", (int8_t)count);
    if (damage) {
        nbt_w_compound(b, "tag");
        nbt_w_int(b, "Damage", damage);
        nbt_w_end(b);
    }
    nbt_w_end(b);
}

static void w_pos(buf_t *b, int x, int y, int z)
{
    nbt_w_int(b, "x", x);
    nbt_w_int(b, "y", y);
    nbt_w_int(b, "z", z);
}

/* Root { block_entities: [...] } for chunk (1, -1) (x 16..31, z -16..-1). */
static void build(buf_t *b)
{
    nbt_w_root(b, "");
    nbt_w_list(b, "block_entities", NBT_COMPOUND, 7);
    /* 1: a chest */
    nbt_w_string(b, "id", "minecraft:chest", 15);
    w_pos(b, 17, 5, -3);
    nbt_w_list(b, "Items", NBT_COMPOUND, 7);
    w_item(b, 0, "minecraft:diamond", 7, 0);
    w_item(b, 26, "minecraft:iron_pickaxe", 1, 42);
    w_item(b, 27, "minecraft:stone", 1, 0);       /* no such slot */
    w_item(b, 3, "minecraft:future_thing", 1, 0); /* unknown item */
    w_item(b, 4, "minecraft:stone", 0, 0);        /* count 0 */
    w_item(b, 5, "minecraft:ender_pearl", 64, 0); /* clamped to 16 */
    w_item(b, 6, "minecraft:stone", -3, 0);       /* negative */
    nbt_w_string(b, "CustomName", "{\"text\":\"Loot\"}", 15);
    nbt_w_end(b);
    /* 2: a furnace, not interpreted */
    nbt_w_string(b, "id", "minecraft:furnace", 17);
    w_pos(b, 20, -64, -16);
    nbt_w_short(b, "BurnTime", 12);
    nbt_w_short(b, "CookTime", 37);
    nbt_w_compound(b, "RecipesUsed");
    nbt_w_end(b);
    nbt_w_end(b);
    /* 3: outside the chunk */
    nbt_w_string(b, "id", "minecraft:chest", 15);
    w_pos(b, 40, 5, -3);
    nbt_w_end(b);
    /* 4: no id */
    w_pos(b, 18, 5, -3);
    nbt_w_end(b);
    /* 5: y as a string */
    nbt_w_string(b, "id", "minecraft:barrel", 16);
    nbt_w_int(b, "x", 18);
    nbt_w_string(b, "y", "5", 1);
    nbt_w_int(b, "z", -3);
    nbt_w_end(b);
    /* 6: a barrel whose Items is a list of ints */
    nbt_w_string(b, "id", "minecraft:barrel", 16);
    w_pos(b, 19, 6, -2);
    nbt_w_list(b, "Items", NBT_INT, 1);
    wr_i32(b, 5);
    nbt_w_end(b);
    /* 7: a trapped chest at the chunk's far corner, top of the world */
    nbt_w_string(b, "id", "minecraft:trapped_chest", 23);
    w_pos(b, 31, 319, -1);
    nbt_w_list(b, "Items", NBT_COMPOUND, 1);
    w_item(b, 13, "minecraft:cobblestone", 5, 0);
    nbt_w_end(b);
    nbt_w_end(b);
}

static int parse_into(const buf_t *b, be_map *m, struct be_parse_stats *st, int cx, int cz)
{
    nbt_doc doc;
    long n = nbt_parse(b->data, b->len, true, &nbt_limits_disk, &doc);
    if (n < 0) return -100;
    int rc = be_parse_list(m, nbt_get(doc.root, "block_entities", NBT_LIST), cx, cz, st);
    nbt_doc_free(&doc);
    return rc;
}

TEST(block_entity_reads_chests_and_keeps_the_rest)
{
    buf_t b;
    buf_init(&b, 1 << 20);
    build(&b);
    be_map m = {0};
    struct be_parse_stats st = {0};
    CHECK_EQ_INT(parse_into(&b, &m, &st, 1, -1), 0);
    CHECK_EQ_INT(m.n, 4);        /* chest, furnace, barrel, trapped chest */
    CHECK_EQ_INT(st.skipped, 7); /* 3 items, 3 entries, 1 Items list */
    const struct block_entity *c = be_get(&m, 17, 5, -3);
    CHECK(c && c->kind == BE_CHEST);
    if (c) {
        CHECK_EQ_INT(c->items[0].item, item_id("diamond"));
        CHECK_EQ_INT(c->items[0].count, 7);
        CHECK_EQ_INT(c->items[26].item, item_id("iron_pickaxe"));
        CHECK_EQ_INT(c->items[26].damage, 42);
        CHECK_EQ_INT(c->items[3].item, 0);
        CHECK_EQ_INT(c->items[4].item, 0);
        CHECK_EQ_INT(c->items[5].count, 16);
        CHECK_EQ_INT(c->items[6].item, 0);
        CHECK(c->extra_len > 0); /* CustomName */
        char name[64];
        CHECK_EQ_INT(be_custom_name(c, name, sizeof name), 15);
        CHECK(strcmp(name, "{\"text\":\"Loot\"}") == 0);
        CHECK_EQ_INT(be_custom_name(c, name, 15), -1); /* no room for the NUL */
    }
    const struct block_entity *f = be_get(&m, 20, -64, -16);
    CHECK(f && f->kind == BE_RAW);
    const struct block_entity *t = be_get(&m, 31, 319, -1);
    CHECK(t && t->kind == BE_TRAPPED_CHEST && t->items[13].count == 5);
    char none[8];
    CHECK(t && be_custom_name(t, none, sizeof none) == -1);
    CHECK(be_get(&m, 19, 6, -2) && be_get(&m, 19, 6, -2)->kind == BE_BARREL);

    /* Written and read again: the same entities, the furnace byte for byte. */
    buf_t out;
    buf_init(&out, 1 << 20);
    nbt_w_root(&out, "");
    be_write_list(&out, &m);
    nbt_w_end(&out);
    be_map m2 = {0};
    struct be_parse_stats st2 = {0};
    CHECK_EQ_INT(parse_into(&out, &m2, &st2, 1, -1), 0);
    CHECK_EQ_INT(st2.skipped, 0);
    CHECK_EQ_INT(m2.n, 4);
    for (uint32_t i = 0; i < m.n; i++) {
        const struct block_entity *a = m.v[i];
        const struct block_entity *e = be_get(&m2, a->x, a->y, a->z);
        CHECK(e && e->kind == a->kind);
        if (!e) continue;
        CHECK(memcmp(e->items, a->items, sizeof a->items) == 0);
        CHECK_MEM(e->extra, e->extra_len, a->extra, a->extra_len);
    }
    /* A clone is a deep copy. */
    be_map m3;
    CHECK_EQ_INT(be_map_clone(&m3, &m2), 0);
    CHECK_EQ_INT(m3.n, 4);
    CHECK(m3.v[0] != m2.v[0] && m3.v[0]->extra != m2.v[0]->extra);
    be_map_free(&m3);
    be_map_free(&m2);
    be_map_free(&m);
    buf_free(&out);
    buf_free(&b);
}

TEST(block_entity_map_and_chunk_edits)
{
    chunk c;
    chunk_init(&c, 2, 3, BLOCK_AIR, 0);
    CHECK_EQ_INT(chunk_set_block(&c, 1, 10, 2, BLOCK_CHEST), 0);
    struct block_entity *e = be_put(&c.bents, 33, 10, 50, BE_CHEST);
    CHECK(e != NULL);
    if (e) e->items[0] = (struct be_item){(int16_t)item_id("stone"), 5, 0, {0}};
    CHECK(be_put(&c.bents, 33, 10, 50, BE_CHEST) == e); /* the same one */
    /* Another state of the chest (type=left): kept. */
    CHECK_EQ_INT(chunk_set_block(&c, 1, 10, 2, BLOCK_CHEST + 2), 0);
    CHECK(be_get(&c.bents, 33, 10, 50) == e);
    chunk d;
    CHECK_EQ_INT(chunk_clone(&d, &c), 0);
    CHECK(be_get(&d.bents, 33, 10, 50) && be_get(&d.bents, 33, 10, 50) != e &&
          be_get(&d.bents, 33, 10, 50)->items[0].count == 5);
    /* Another block: gone. */
    CHECK_EQ_INT(chunk_set_block(&c, 1, 10, 2, BLOCK_STONE), 0);
    CHECK(be_get(&c.bents, 33, 10, 50) == NULL);
    CHECK_EQ_INT(c.bents.n, 0);
    CHECK_EQ_INT(be_remove(&d.bents, 33, 10, 50), 1);
    CHECK_EQ_INT(be_remove(&d.bents, 33, 10, 50), 0);
    chunk_free(&d);
    chunk_free(&c);
}

TEST(block_entity_survives_the_chunk_codec)
{
    chunk c;
    chunk_init(&c, -1, 0, BLOCK_AIR, 0);
    chunk_set_block(&c, 0, 0, 0, BLOCK_BARREL);
    struct block_entity *e = be_put(&c.bents, -16, 0, 0, BE_BARREL);
    CHECK(e != NULL);
    if (e) e->items[26] = (struct be_item){(int16_t)item_id("cobblestone"), 5, 0, {0}};
    buf_t out;
    buf_init(&out, 16 << 20);
    CHECK_EQ_INT(anvil_encode(&c, NULL, 0, &out), 0);
    chunk r;
    char why[128];
    CHECK_EQ_INT(anvil_decode(out.data, out.len, -1, 0, &r, NULL, why, sizeof why), ANVIL_OK);
    const struct block_entity *g = be_get(&r.bents, -16, 0, 0);
    CHECK(g && g->kind == BE_BARREL && g->items[26].count == 5 &&
          g->items[26].item == item_id("cobblestone"));
    chunk_free(&r);
    chunk_free(&c);
    buf_free(&out);
}
