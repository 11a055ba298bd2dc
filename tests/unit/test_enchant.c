/*
 * test_enchant.c — game/enchant.c and the fortune/experience part of
 * game/loot.c: Enchantments read from an item's tag (clamped levels,
 * unknown ids and level 0 skipped, at most ITEM_ENCH_MAX kept) and written
 * back, a slot's NBT on the wire, ApplyBonusCount's formulas by their
 * distributions, unbreaking's odds, the protection points with the cap
 * of 20, sharpness; coal ore's drops without and with fortune III and
 * silk touch, the ores' experience ranges.
 */
#include <math.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/enchant.h"
#include "game/loot.h"
#include "proto/nbt.h"
#include "test.h"

#define CHECK_NEAR(a, b, eps) CHECK(fabs((double)(a) - (double)(b)) < (eps))

static int item_id(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

static void w_ench(buf_t *b, const char *id, int16_t lvl)
{
    nbt_w_string(b, "id", id, strlen(id));
    nbt_w_short(b, "lvl", lvl);
    nbt_w_end(b);
}

TEST(enchant_read_item_tag)
{
    buf_t b;
    buf_init(&b, 1024);
    nbt_w_root(&b, "");
    nbt_w_int(&b, "Damage", 5);
    nbt_w_list(&b, "Enchantments", NBT_COMPOUND, 6);
    w_ench(&b, "minecraft:sharpness", 5);
    w_ench(&b, "unbreaking", 300);        /* clamped to 255 */
    w_ench(&b, "minecraft:nope", 1);      /* unknown: skipped */
    w_ench(&b, "minecraft:looting", 0);   /* level 0: skipped */
    w_ench(&b, "minecraft:sharpness", 1); /* repeated: the first counts */
    w_ench(&b, "minecraft:mending", 1);
    nbt_w_string(&b, "display", "x", 1);
    nbt_w_end(&b);
    nbt_doc doc;
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_network, &doc) > 0);
    uint16_t damage, ench[ITEM_ENCH_MAX];
    int sword = item_id("diamond_sword");
    CHECK_EQ_INT(ench_read_item_tag(doc.root, sword, &damage, ench), 1); /* display */
    CHECK_EQ_INT(damage, 5);
    CHECK_EQ_INT(ench_level(ench, ENCH_SHARPNESS), 5);
    CHECK_EQ_INT(ench_level(ench, ENCH_UNBREAKING), 255);
    CHECK_EQ_INT(ench_level(ench, ENCH_MENDING), 1);
    CHECK_EQ_INT(ench_level(ench, ENCH_LOOTING), 0);
    nbt_doc_free(&doc);
    /* Written back and read again: the same set. */
    buf_t w;
    buf_init(&w, 1024);
    nbt_w_root(&w, "");
    ench_write_item_tag(&w, damage, ench);
    nbt_w_end(&w);
    CHECK(nbt_parse(w.data, w.len, true, &nbt_limits_network, &doc) > 0);
    uint16_t d2, e2[ITEM_ENCH_MAX];
    CHECK_EQ_INT(ench_read_item_tag(nbt_get(doc.root, "tag", NBT_COMPOUND), sword, &d2, e2), 0);
    CHECK_EQ_INT(d2, 5);
    CHECK(ench_same(ench, e2));
    nbt_doc_free(&doc);
    /* More than ITEM_ENCH_MAX: the rest is counted as lost. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_list(&b, "Enchantments", NBT_COMPOUND, 5);
    w_ench(&b, "protection", 1);
    w_ench(&b, "thorns", 1);
    w_ench(&b, "unbreaking", 1);
    w_ench(&b, "mending", 1);
    w_ench(&b, "respiration", 1);
    nbt_w_end(&b);
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_network, &doc) > 0);
    CHECK_EQ_INT(ench_read_nbt(doc.root, ench), 1);
    CHECK_EQ_INT(ench_level(ench, ENCH_RESPIRATION), 0);
    nbt_doc_free(&doc);
    /* A Damage outside the item's durability is not kept. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_int(&b, "Damage", 99999);
    nbt_w_end(&b);
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_network, &doc) > 0);
    ench_read_item_tag(doc.root, sword, &damage, ench);
    CHECK_EQ_INT(damage, 0);
    CHECK(!ench_any(ench));
    nbt_doc_free(&doc);
    buf_free(&b);
    buf_free(&w);
}

TEST(enchant_set_same_and_wire)
{
    uint16_t a[ITEM_ENCH_MAX] = {0}, b[ITEM_ENCH_MAX] = {0};
    CHECK_EQ_INT(ench_set(a, ENCH_FORTUNE, 3), 0);
    CHECK_EQ_INT(ench_set(a, ENCH_UNBREAKING, 2), 0);
    CHECK_EQ_INT(ench_set(b, ENCH_UNBREAKING, 2), 0);
    CHECK(!ench_same(a, b));
    CHECK_EQ_INT(ench_set(b, ENCH_FORTUNE, 3), 0);
    CHECK(ench_same(a, b));                        /* order does not matter */
    CHECK_EQ_INT(ench_set(a, ENCH_FORTUNE, 1), 0); /* replaced */
    CHECK_EQ_INT(ench_level(a, ENCH_FORTUNE), 1);
    CHECK_EQ_INT(ench_set(a, ENCH_MENDING, 1), 0);
    CHECK_EQ_INT(ench_set(a, ENCH_EFFICIENCY, 5), 0);
    CHECK_EQ_INT(ench_set(a, ENCH_SILK_TOUCH, 1), -1); /* full */
    CHECK_EQ_INT(ench_set(a, 999, 1), -1);
    CHECK_EQ_INT(ench_by_name("minecraft:silk_touch", 20), ENCH_SILK_TOUCH);
    CHECK_EQ_INT(ench_by_name("fortune", 7), ENCH_FORTUNE);
    CHECK_EQ_INT(ench_by_name("minecraft:", 10), -1);
    /* A plain stack has no NBT (byte 0); an enchanted one a compound. */
    buf_t w;
    buf_init(&w, 256);
    ench_wr_slot(&w, 5, 3, 0, NULL);
    const uint8_t plain[] = {1, 5, 3, 0};
    CHECK_MEM(w.data, w.len, plain, sizeof plain);
    buf_reset(&w);
    ench_wr_slot(&w, 5, 1, 0, b);
    CHECK(w.len > 4 && w.data[3] == 10);
    nbt_doc doc;
    CHECK(nbt_parse(w.data + 3, w.len - 3, true, &nbt_limits_network, &doc) == (long)(w.len - 3));
    uint16_t r[ITEM_ENCH_MAX];
    ench_read_nbt(doc.root, r);
    CHECK(ench_same(r, b));
    nbt_doc_free(&doc);
    buf_free(&w);
    /* The data: silk touch and fortune exclude each other, both ways. */
    CHECK(enchant_table[ENCH_SILK_TOUCH].exclude >> ENCH_FORTUNE & 1);
    CHECK(enchant_table[ENCH_FORTUNE].exclude >> ENCH_SILK_TOUCH & 1);
    CHECK_EQ_INT(enchant_table[ENCH_FORTUNE].max_level, 3);
    int pick = item_id("iron_pickaxe");
    CHECK(item_enchant_cats[pick] >> enchant_table[ENCH_FORTUNE].category & 1);
    CHECK(!(item_enchant_cats[pick] >> enchant_table[ENCH_SHARPNESS].category & 1));
}

TEST(enchant_bonus_formulas)
{
    uint64_t rng = 12345;
    const int n = 100000;
    long sum = 0;
    int hist[6] = {0};
    for (int i = 0; i < n; i++) {
        int c = ench_bonus_ore_drops(1, 3, &rng); /* nextInt(5) - 1, at least 0, + 1 */
        CHECK(c >= 1 && c <= 4);
        if (c >= 1 && c <= 4) hist[c]++;
        sum += c;
    }
    CHECK_NEAR((double)sum / n, 2.2, 0.03);
    CHECK_NEAR((double)hist[1] / n, 0.4, 0.01);
    CHECK_NEAR((double)hist[4] / n, 0.2, 0.01);
    CHECK_EQ_INT(ench_bonus_ore_drops(2, 0, &rng), 2);
    int lo = 99, hi = 0;
    for (int i = 0; i < 10000; i++) {
        int c = ench_bonus_uniform(4, 3, 1, &rng); /* + nextInt(3 + 1) */
        lo = c < lo ? c : lo, hi = c > hi ? c : hi;
    }
    CHECK_EQ_INT(lo, 4);
    CHECK_EQ_INT(hi, 7);
    sum = 0;
    for (int i = 0; i < n; i++) sum += ench_bonus_binomial(0, 3, 3, 0.5714286f, &rng);
    CHECK_NEAR((double)sum / n, 6 * 0.5714286, 0.03);
    int saved = 0, asaved = 0;
    for (int i = 0; i < n; i++) {
        saved += ench_unbreaking_saves(3, false, &rng);
        asaved += ench_unbreaking_saves(3, true, &rng);
    }
    CHECK_NEAR((double)saved / n, 0.75, 0.01);  /* 1 - 1/(3+1) */
    CHECK_NEAR((double)asaved / n, 0.30, 0.01); /* 40 % of that */
    CHECK(!ench_unbreaking_saves(0, false, &rng));
}

TEST(enchant_protection_and_damage)
{
    uint16_t boots[ITEM_ENCH_MAX] = {0}, chest[ITEM_ENCH_MAX] = {0};
    ench_set(boots, ENCH_FEATHER_FALLING, 4);
    const uint16_t *worn[4] = {NULL, NULL, NULL, boots};
    CHECK_EQ_INT(ench_protection_points(worn, 4, ENCH_HIT_FALL), 12);
    CHECK_EQ_INT(ench_protection_points(worn, 4, ENCH_HIT_FIRE), 0);
    CHECK_NEAR(ench_magic_absorb(7.0f, 12), 3.64, 1e-4); /* a 10-block fall */
    ench_set(chest, ENCH_PROTECTION, 4);
    ench_set(chest, ENCH_FIRE_PROTECTION, 4); /* not together in vanilla; sums here */
    const uint16_t *all[4] = {chest, chest, chest, boots};
    CHECK_EQ_INT(ench_protection_points(all, 4, ENCH_HIT_FALL), 24);
    CHECK_NEAR(ench_magic_absorb(10.0f, 24), 2.0, 1e-4); /* capped at 20 of 25 */
    CHECK_EQ_INT(ench_protection_points(all, 4, ENCH_HIT_FIRE | ENCH_HIT_PROJECTILE), 36);
    uint16_t sword[ITEM_ENCH_MAX] = {0};
    CHECK_NEAR(ench_damage_bonus(sword, ENCH_MOB_OTHER), 0.0, 1e-6);
    ench_set(sword, ENCH_SHARPNESS, 5);
    CHECK_NEAR(ench_damage_bonus(sword, ENCH_MOB_OTHER), 3.0, 1e-6);
    uint16_t smite[ITEM_ENCH_MAX] = {0};
    ench_set(smite, ENCH_SMITE, 2);
    CHECK_NEAR(ench_damage_bonus(smite, ENCH_MOB_UNDEAD), 5.0, 1e-6);
    CHECK_NEAR(ench_damage_bonus(smite, ENCH_MOB_OTHER), 0.0, 1e-6);
}

TEST(enchant_coal_ore_fortune_silk_xp)
{
    uint64_t rng = 77;
    struct loot_drop d[LOOT_MAX_DROPS];
    int pick = item_id("iron_pickaxe"), coal = item_id("coal"), ore = item_id("coal_ore");
    long sum = 0;
    for (int i = 0; i < 2000; i++) {
        CHECK_EQ_INT(loot_drops_with(BLOCK_COAL_ORE, pick, false, 0, &rng, d, LOOT_MAX_DROPS), 1);
        CHECK_EQ_INT(d[0].item, coal);
        CHECK_EQ_INT(d[0].count, 1); /* vanilla: one coal (the data says 1-2) */
        CHECK_EQ_INT(loot_drops_with(BLOCK_COAL_ORE, pick, false, 3, &rng, d, LOOT_MAX_DROPS), 1);
        CHECK(d[0].count >= 1 && d[0].count <= 4);
        sum += d[0].count;
        CHECK_EQ_INT(loot_drops_with(BLOCK_COAL_ORE, pick, true, 3, &rng, d, LOOT_MAX_DROPS), 1);
        CHECK_EQ_INT(d[0].item, ore);
        CHECK_EQ_INT(d[0].count, 1);
    }
    CHECK_NEAR(sum / 2000.0, 2.2, 0.15);
    CHECK_EQ_INT(loot_drops_with(BLOCK_COAL_ORE, 0, false, 3, &rng, d, LOOT_MAX_DROPS), 0);
    int lo = 99, hi = -1, dlo = 99, dhi = -1;
    for (int i = 0; i < 2000; i++) {
        int x = loot_block_xp(block_of_state[BLOCK_COAL_ORE], &rng);
        int y = loot_block_xp(block_of_state[BLOCK_DIAMOND_ORE], &rng);
        lo = x < lo ? x : lo, hi = x > hi ? x : hi;
        dlo = y < dlo ? y : dlo, dhi = y > dhi ? y : dhi;
    }
    CHECK_EQ_INT(lo, 0);
    CHECK_EQ_INT(hi, 2);
    CHECK_EQ_INT(dlo, 3);
    CHECK_EQ_INT(dhi, 7);
    CHECK_EQ_INT(loot_block_xp(block_of_state[BLOCK_STONE], &rng), 0);
    /* An ender chest drops 8 obsidian (its loot table), itself with silk touch. */
    CHECK_EQ_INT(loot_drops_with(BLOCK_ENDER_CHEST, pick, false, 3, &rng, d, LOOT_MAX_DROPS), 1);
    CHECK_EQ_INT(d[0].item, item_id("obsidian"));
    CHECK_EQ_INT(d[0].count, 8);
    CHECK_EQ_INT(loot_drops_with(BLOCK_ENDER_CHEST, pick, true, 0, &rng, d, LOOT_MAX_DROPS), 1);
    CHECK_EQ_INT(d[0].item, item_id("ender_chest"));
}
