/*
 * loot.c — block drops (see loot.h) from data/loot_table.c.
 *
 * The table is minecraft-data's blockLoot, which flattens each vanilla loot
 * table into entries (item, stack size range, chance, conditions); how
 * tools/gen_data.js maps its conditions is said there. Reading it:
 *   1. No drop at all when the block requires a tool the item is not
 *      (stone, ores by hand: vanilla's requiresCorrectToolForDrops).
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
 * Fortune is not in the data (not applied). The data's other losses (its
 * ranges for ores, gravel's flint 1 in 2) stay: docs/design.md ("Item
 * entities and drops") lists them.
 *
 * Invariants: pure (no global state); at most `max` drops written; every
 * drop has an item id in range and a count of 1..64.
 */
#include "game/loot.h"

#include <stdio.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/loot_table.h"
#include "world/block_state.h"

static uint64_t next(uint64_t *s) /* xorshift64 */
{
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Uniform in [0, n). */
static uint32_t below(uint64_t *s, uint32_t n)
{
    return n ? (uint32_t)((next(s) >> 32) % n) : 0;
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

static int emit(const struct loot_entry *e, bool one, uint64_t *rng, struct loot_drop *out, int n,
                int max)
{
    if (n >= max || e->item <= 0 || e->item >= ITEM_COUNT) return n;
    int count = e->min + (int)below(rng, (uint32_t)(e->max - e->min + 1));
    if (one && count > 1) count = 1;
    if (count <= 0) return n;
    if (count > 64) count = 64;
    out[n].item = (int16_t)e->item;
    out[n].count = (int8_t)count;
    return n + 1;
}

int loot_drops(uint16_t state, int item, bool silk, uint64_t *rng, struct loot_drop *out, int max)
{
    if (state >= BLOCK_STATE_COUNT) return 0;
    int block = block_of_state[state];
    const struct block_info *b = &block_info[block];
    if (!loot_can_harvest(block, item) || leaves(b)) return 0;
    bool one = single_slab(b, state);
    int n = 0;
    uint32_t alt_total = 0;
    for (int i = loot_first[block]; i < loot_first[block + 1]; i++) {
        const struct loot_entry *e = &loot_entries[i];
        if (!applies(e, state, silk)) continue;
        if (e->flags & LOOT_ALT) {
            alt_total += e->chance;
            continue;
        }
        if (e->chance < 65535 && below(rng, 65535) >= e->chance) continue;
        n = emit(e, one, rng, out, n, max);
    }
    if (alt_total > 0) {
        uint32_t pick = below(rng, alt_total);
        for (int i = loot_first[block]; i < loot_first[block + 1]; i++) {
            const struct loot_entry *e = &loot_entries[i];
            if (!(e->flags & LOOT_ALT) || !applies(e, state, silk)) continue;
            if (pick < e->chance) {
                n = emit(e, one, rng, out, n, max);
                break;
            }
            pick -= e->chance;
        }
    }
    return n;
}
