/*
 * loot.c — block drops (see loot.h) from data/loot_table.c.
 *
 * The table is minecraft-data's blockLoot, which flattens each vanilla loot
 * table into entries (item, stack size range, chance, conditions); how
 * tools/gen_data.js maps its conditions is said there. Reading it:
 *   1. No drop at all when the block requires a tool the item is not
 *      (stone, ores by hand: vanilla's requiresCorrectToolForDrops). An
 *      explosion's drops (loot_drops_exploded) skip this rule, as vanilla's
 *      explosions roll the table with no tool and no such check.
 *   2. LOOT_SILK_ONLY entries drop only with silk touch, LOOT_NO_SILK only
 *      without it (stone: itself with silk touch, cobblestone otherwise).
 *   3. LOOT_AGE entries drop only when the block's `age` property equals
 *      the entry's age (wheat, carrots: a ripe crop).
 *   4. Of the LOOT_ALT entries left, exactly one drops, weighted by chance
 *      (gravel: flint or gravel); every other entry drops with its chance.
 *   5. A count is uniform in the entry's range.
 *   6. Two conditions of vanilla's tables that minecraft-data loses would
 *      make items out of nothing, so they are applied here: a slab drops 2
 *      only when it is double (`type=double`; the data says 2 for every
 *      slab), and leaves broken without shears drop nothing (the data says
 *      a stick and an apple every time; vanilla's small sapling, stick and
 *      apple chances are not in it).
 *   7. (Issue 21.) A crop's first pool in vanilla is an alternative — the
 *      crop when ripe, else its seeds (wheat, beetroots) — which
 *      minecraft-data flattens into an age-conditioned entry and an
 *      unconditioned one, each of chance 1/2: such a pair is read back as
 *      that alternative (the first when the age matches, else the second,
 *      always).
 *   8. minecraft-data's blockLoot has neither fortune nor experience, and
 *      its ore counts are made up (coal 1-2: vanilla drops 1). The ore
 *      table below (one row per block vanilla registers as a
 *      DropExperienceBlock or RedStoneOreBlock, and the other blocks whose
 *      loot table applies a fortune bonus to a counted drop) gives each
 *      its vanilla base count (SetItemCountFunction), fortune formula
 *      (ApplyBonusCount ore_drops or uniform_bonus_count), count limit
 *      (LimitCount) and experience range; it applies to the entries that
 *      drop without silk touch.
 * The data's other losses (gravel's flint 1 in 2, crops' seeds without
 * their binomial bonus, leaves' saplings without table_bonus) stay:
 * docs/design.md ("Item entities and drops") lists them.
 *
 * Invariants: pure (no global state); at most `max` drops written; every
 * drop has an item id in range and a count of 1..64.
 */
#include "game/loot.h"

#include <stdio.h>
#include <string.h>

#include "core/xorshift.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/loot_table.h"
#include "game/enchant.h"
#include "world/block_state.h"

enum bonus { BONUS_NONE, BONUS_ORE_DROPS, BONUS_UNIFORM };

/* Rule 8: vanilla 1.20.1's Blocks (DropExperienceBlock's UniformInt,
 * RedStoneOreBlock.spawnAfterBreak's 1 + nextInt(5), SculkBlock's and
 * the sculk blocks' ConstantInt) and VanillaBlockLoot (createOreDrop,
 * createCopperOreDrops, createLapisOreDrops, createRedstoneOreDrops,
 * nether gold, glowstone, melon, sea lantern). min = 0: the data's count. */
static const struct ore_rule {
    const char *block;
    uint8_t xp_min, xp_max;
    uint8_t bonus, multiplier; /* enum bonus; uniform_bonus_count's multiplier */
    uint8_t min, max, limit;   /* base count; LimitCount's max (0: none) */
} ore_rules[] = {
    {"coal_ore", 0, 2, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"deepslate_coal_ore", 0, 2, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"iron_ore", 0, 0, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"deepslate_iron_ore", 0, 0, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"copper_ore", 0, 0, BONUS_ORE_DROPS, 0, 2, 5, 0},
    {"deepslate_copper_ore", 0, 0, BONUS_ORE_DROPS, 0, 2, 5, 0},
    {"gold_ore", 0, 0, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"deepslate_gold_ore", 0, 0, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"redstone_ore", 1, 5, BONUS_UNIFORM, 1, 4, 5, 0},
    {"deepslate_redstone_ore", 1, 5, BONUS_UNIFORM, 1, 4, 5, 0},
    {"emerald_ore", 3, 7, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"deepslate_emerald_ore", 3, 7, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"lapis_ore", 2, 5, BONUS_ORE_DROPS, 0, 4, 9, 0},
    {"deepslate_lapis_ore", 2, 5, BONUS_ORE_DROPS, 0, 4, 9, 0},
    {"diamond_ore", 3, 7, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"deepslate_diamond_ore", 3, 7, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"nether_gold_ore", 0, 1, BONUS_ORE_DROPS, 0, 2, 6, 0},
    {"nether_quartz_ore", 2, 5, BONUS_ORE_DROPS, 0, 1, 1, 0},
    {"glowstone", 0, 0, BONUS_UNIFORM, 1, 2, 4, 4},
    {"melon", 0, 0, BONUS_UNIFORM, 1, 3, 7, 9},
    {"sea_lantern", 0, 0, BONUS_UNIFORM, 1, 2, 3, 5},
    {"sculk", 1, 1, BONUS_NONE, 0, 0, 0, 0},
    {"sculk_catalyst", 5, 5, BONUS_NONE, 0, 0, 0, 0},
    {"sculk_sensor", 5, 5, BONUS_NONE, 0, 0, 0, 0},
    {"calibrated_sculk_sensor", 5, 5, BONUS_NONE, 0, 0, 0, 0},
    {"sculk_shrieker", 5, 5, BONUS_NONE, 0, 0, 0, 0},
};

static const struct ore_rule *ore_rule_of(int block)
{
    if (block < 0 || block >= BLOCK_COUNT) return NULL;
    for (size_t i = 0; i < sizeof ore_rules / sizeof ore_rules[0]; i++)
        if (strcmp(block_info[block].name, ore_rules[i].block) == 0) return &ore_rules[i];
    return NULL;
}

/* Uniform in [0, n). */
static uint32_t below(uint64_t *s, uint32_t n)
{
    return n ? (uint32_t)((xorshift64(s) >> 32) % n) : 0;
}

bool loot_can_harvest(int block, int item)
{
    if (block < 0 || block >= BLOCK_COUNT) return false;
    const char *list = harvest_tool_sets[block_info[block].harvest_tools];
    if (!list[0]) return true;
    char key[16];
    snprintf(key, sizeof key, "%d", item);
    size_t kl = strlen(key);
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == kl && memcmp(p, key, n) == 0) return true;
        if (!comma) break;
        p = comma + 1;
    }
    return false;
}

/* Rule 7: entries i and i + 1 are a crop's flattened alternative. */
static bool crop_alternative(int i, int end)
{
    const struct loot_entry *a = &loot_entries[i], *b = &loot_entries[i + 1];
    return i + 1 < end && a->flags == LOOT_AGE && a->chance == 32768 && b->flags == 0 &&
           b->chance == 32768;
}

/* Rule 6: a slab that is not double drops one. */
static bool single_slab(const struct block_info *b, uint16_t state)
{
    const char *type = NULL;
    size_t n = strlen(b->name);
    return n > 5 && strcmp(b->name + n - 5, "_slab") == 0 &&
           block_state_prop(state, "type", &type) >= 0 && type && strcmp(type, "double") != 0;
}

/* Rule 6: leaves (without shears: mcserv has no shears yet) drop nothing. */
static bool leaves(const struct block_info *b)
{
    return strncmp(material_names[b->material], "leaves", 6) == 0;
}

static bool applies(const struct loot_entry *e, uint16_t state, bool silk)
{
    if ((e->flags & LOOT_SILK_ONLY) && !silk) return false;
    if ((e->flags & LOOT_NO_SILK) && silk) return false;
    if ((e->flags & LOOT_AGE) && block_state_prop(state, "age", NULL) != e->age) return false;
    return true;
}

/* How an entry is counted: the data's range, or rule 8's. */
struct counting {
    bool one;                   /* a single slab */
    const struct ore_rule *ore; /* rule 8, or NULL */
    int fortune;
};

static int emit(const struct loot_entry *e, const struct counting *k, uint64_t *rng,
                struct loot_drop *out, int n, int max)
{
    if (n >= max || e->item <= 0 || e->item >= ITEM_COUNT) return n;
    const struct ore_rule *o = (e->flags & LOOT_SILK_ONLY) ? NULL : k->ore;
    int lo = o && o->min ? o->min : e->min, hi = o && o->min ? o->max : e->max;
    int count = lo + (int)below(rng, (uint32_t)(hi - lo + 1));
    if (o && o->bonus == BONUS_ORE_DROPS) count = ench_bonus_ore_drops(count, k->fortune, rng);
    if (o && o->bonus == BONUS_UNIFORM)
        count = ench_bonus_uniform(count, k->fortune, o->multiplier, rng);
    if (o && o->limit && count > o->limit) count = o->limit;
    if (k->one && count > 1) count = 1;
    if (count <= 0) return n;
    if (count > 64) count = 64;
    out[n].item = (int16_t)e->item;
    out[n].count = (int8_t)count;
    return n + 1;
}

/* The table's roll for a state (rules 2 to 8; rule 1 is the callers'),
 * with the tool's fortune level. */
static int roll(uint16_t state, bool silk, int fortune, uint64_t *rng, struct loot_drop *out,
                int max)
{
    int block = block_of_state[state];
    const struct block_info *b = &block_info[block];
    if (leaves(b)) return 0;
    struct counting k = {single_slab(b, state), ore_rule_of(block), fortune};
    int n = 0;
    uint32_t alt_total = 0;
    for (int i = loot_first[block]; i < loot_first[block + 1]; i++) {
        const struct loot_entry *e = &loot_entries[i];
        if (crop_alternative(i, loot_first[block + 1])) { /* rule 7 */
            n = emit(applies(e, state, silk) ? e : e + 1, &k, rng, out, n, max);
            i++;
            continue;
        }
        if (!applies(e, state, silk)) continue;
        if (e->flags & LOOT_ALT) {
            alt_total += e->chance;
            continue;
        }
        if (e->chance < 65535 && below(rng, 65535) >= e->chance) continue;
        n = emit(e, &k, rng, out, n, max);
    }
    if (alt_total > 0) {
        uint32_t pick = below(rng, alt_total);
        for (int i = loot_first[block]; i < loot_first[block + 1]; i++) {
            const struct loot_entry *e = &loot_entries[i];
            if (!(e->flags & LOOT_ALT) || !applies(e, state, silk)) continue;
            if (pick < e->chance) {
                n = emit(e, &k, rng, out, n, max);
                break;
            }
            pick -= e->chance;
        }
    }
    return n;
}

int loot_block_xp(int block, uint64_t *rng)
{
    const struct ore_rule *o = ore_rule_of(block);
    if (!o || !o->xp_max) return 0;
    return o->xp_min + (int)below(rng, (uint32_t)(o->xp_max - o->xp_min + 1));
}

int loot_drops_with(uint16_t state, int item, bool silk, int fortune, uint64_t *rng,
                    struct loot_drop *out, int max)
{
    if (state >= BLOCK_STATE_COUNT || !loot_can_harvest(block_of_state[state], item)) return 0;
    return roll(state, silk, fortune, rng, out, max);
}

int loot_drops(uint16_t state, int item, bool silk, uint64_t *rng, struct loot_drop *out, int max)
{
    return loot_drops_with(state, item, silk, 0, rng, out, max);
}

int loot_drops_exploded(uint16_t state, uint64_t *rng, struct loot_drop *out, int max)
{
    /* no tool: no silk touch, no fortune (vanilla's explosion loot context) */
    return state < BLOCK_STATE_COUNT ? roll(state, false, 0, rng, out, max) : 0;
}
