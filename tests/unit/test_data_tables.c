/*
 * test_data_tables.c — the generated tables in the shapes tools/ emits them
 * in (src/data/): unbreakable blocks by their flag, items that place no
 * block by state 0 (air), property values read as runs out of one pool, the
 * biome tree's nodes as indices into per-dimension interval tables (every
 * inner box holds its children's), and the registry codec as a string
 * literal (its NUL past the end, never sent).
 */
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/registry_codec.h"
#include "data/worldgen_biomes.h"
#include "test.h"

static int item_id(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

static const struct block_info *block_named(const char *name)
{
    for (int i = 0; i < BLOCK_COUNT; i++)
        if (strcmp(block_info[i].name, name) == 0) return &block_info[i];
    return NULL;
}

TEST(data_unbreakable_blocks_by_flag)
{
    static const char *const never[] = {"bedrock", "barrier", "end_portal_frame", "command_block",
                                        "jigsaw"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        const struct block_info *b = block_named(never[i]);
        CHECK(b != NULL);
        CHECK(b->flags & BLOCK_FLAG_UNBREAKABLE);
        CHECK(b->hardness == 0.0f);
    }
    /* Reinforced deepslate is hard (55), not unbreakable. */
    const struct block_info *hard = block_named("reinforced_deepslate");
    CHECK(!(hard->flags & BLOCK_FLAG_UNBREAKABLE) && hard->hardness == 55.0f);
    const struct block_info *stone = block_named("stone"), *dirt = block_named("dirt");
    CHECK(!(stone->flags & BLOCK_FLAG_UNBREAKABLE) && stone->hardness == 1.5f);
    CHECK(!(dirt->flags & BLOCK_FLAG_UNBREAKABLE) && dirt->hardness == 0.5f);
    int unbreakable = 0;
    for (int i = 0; i < BLOCK_COUNT; i++)
        unbreakable += !!(block_info[i].flags & BLOCK_FLAG_UNBREAKABLE);
    CHECK(unbreakable >= 10 && unbreakable <= 40);
}

TEST(data_items_that_place_no_block)
{
    CHECK_EQ_INT(item_info[item_id("stone")].block_state, BLOCK_STONE);
    CHECK_EQ_INT(item_info[item_id("oak_log")].block_state, BLOCK_OAK_LOG);
    CHECK_EQ_INT(item_info[item_id("stick")].block_state, 0);
    CHECK_EQ_INT(item_info[item_id("diamond_pickaxe")].block_state, 0);
}

/* The values of block name's property prop, comma-joined into out. */
static void values_of(const char *name, const char *prop, char *out, size_t cap)
{
    const struct block_info *b = block_named(name);
    out[0] = 0;
    for (int p = 0; b && p < b->prop_count; p++) {
        const struct block_prop *bp = &block_props[block_prop_index[b->prop_first + p]];
        if (strcmp(block_prop_names[bp->name], prop) != 0) continue;
        for (int v = 0; v < bp->count; v++) {
            if (v) strncat(out, ",", cap - strlen(out) - 1);
            strncat(out, block_prop_values[bp->first_value + v], cap - strlen(out) - 1);
        }
    }
}

TEST(data_property_values_from_the_pool)
{
    char v[256];
    values_of("oak_log", "axis", v, sizeof v);
    CHECK(strcmp(v, "x,y,z") == 0);
    values_of("wheat", "age", v, sizeof v);
    CHECK(strcmp(v, "0,1,2,3,4,5,6,7") == 0);
    values_of("redstone_wire", "power", v, sizeof v);
    CHECK(strcmp(v, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15") == 0);
    values_of("oak_stairs", "facing", v, sizeof v);
    CHECK(strcmp(v, "north,south,west,east") == 0);
    values_of("oak_stairs", "waterlogged", v, sizeof v);
    CHECK(strcmp(v, "true,false") == 0);
    /* Runs overlap in the pool: age 0..7 of wheat starts where some longer run of numbers does. */
    const struct block_info *wheat = block_named("wheat");
    const struct block_prop *age = &block_props[block_prop_index[wheat->prop_first]];
    CHECK(strcmp(block_prop_values[age->first_value + age->count], "8") == 0);
}

TEST(data_biome_tree_boxes_hold_their_children)
{
    int leaves = 0;
    for (int n = 0; n < WG_BIOME_NODES; n++) {
        const struct wg_biome_node *x = &wg_biome_tree[n];
        for (int d = 0; d < 7; d++) {
            CHECK(x->range[d] < WG_BIOME_RANGE_MAX);
            CHECK(wg_biome_ranges[d][x->range[d]][0] <= wg_biome_ranges[d][x->range[d]][1]);
        }
        if (x->count == 0) {
            leaves++;
            continue;
        }
        CHECK(x->first > n && x->first + x->count <= WG_BIOME_NODES);
        for (int c = x->first; c < x->first + x->count; c++)
            for (int d = 0; d < 7; d++) {
                const int32_t *in = wg_biome_ranges[d][wg_biome_tree[c].range[d]];
                const int32_t *out = wg_biome_ranges[d][x->range[d]];
                CHECK(out[0] <= in[0] && in[1] <= out[1]);
            }
    }
    CHECK_EQ_INT(leaves, WG_BIOME_ENTRIES);
}

TEST(data_registry_codec_literal)
{
    CHECK_EQ_INT((int)sizeof registry_codec_nbt, (int)registry_codec_nbt_len + 1);
    CHECK_EQ_INT(registry_codec_nbt[0], 0x0a); /* TAG_Compound, empty name */
    CHECK_EQ_INT(registry_codec_nbt[registry_codec_nbt_len - 1], 0x00); /* TAG_End */
    CHECK_EQ_INT(registry_codec_nbt[registry_codec_nbt_len], 0);        /* the literal's NUL */
    CHECK(memmem(registry_codec_nbt, registry_codec_nbt_len, "minecraft:dimension_type", 24) !=
          NULL);
}
