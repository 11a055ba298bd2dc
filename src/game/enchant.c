/*
 * enchant.c — see enchant.h: an item stack's enchantments (read from and
 * written to vanilla's tag.Enchantments) and the numbers vanilla 1.20.1
 * computes with them (DigDurabilityEnchantment, ApplyBonusCount,
 * ProtectionEnchantment, CombatRules, DamageEnchantment).
 *
 * Invariants:
 *  1. Pure: no global state; every random draw comes from the caller's rng.
 *  2. A stored entry always has an id below ENCHANT_COUNT and a level of
 *     1..255; the array never holds the same id twice.
 */
#include "game/enchant.h"

#include <string.h>

#include "data/recipes.h"
#include "proto/wire.h"

static uint64_t next(uint64_t *s) /* xorshift64, as game/loot.c */
{
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static uint32_t below(uint64_t *s, uint32_t n) /* uniform in [0, n) */
{
    return n ? (uint32_t)((next(s) >> 32) % n) : 0;
}

static float unit(uint64_t *s) /* uniform in [0, 1) */
{
    return (float)(next(s) >> 40) * (1.0f / 16777216.0f);
}

int ench_level(const uint16_t ench[ITEM_ENCH_MAX], int id)
{
    for (int i = 0; i < ITEM_ENCH_MAX; i++)
        if (ench[i] && ench_entry_id(ench[i]) == id) return ench_entry_level(ench[i]);
    return 0;
}

bool ench_any(const uint16_t ench[ITEM_ENCH_MAX])
{
    for (int i = 0; i < ITEM_ENCH_MAX; i++)
        if (ench[i]) return true;
    return false;
}

bool ench_same(const uint16_t a[ITEM_ENCH_MAX], const uint16_t b[ITEM_ENCH_MAX])
{
    int na = 0, nb = 0;
    for (int i = 0; i < ITEM_ENCH_MAX; i++) {
        na += a[i] != 0, nb += b[i] != 0;
        if (a[i] && ench_level(b, ench_entry_id(a[i])) != ench_entry_level(a[i])) return false;
    }
    return na == nb;
}

int ench_set(uint16_t ench[ITEM_ENCH_MAX], int id, int level)
{
    if (id < 0 || id >= ENCHANT_COUNT || level < 1 || level > 255) return -1;
    uint16_t e = (uint16_t)(id << 8 | level);
    for (int i = 0; i < ITEM_ENCH_MAX; i++)
        if (ench[i] && ench_entry_id(ench[i]) == id) return ench[i] = e, 0;
    for (int i = 0; i < ITEM_ENCH_MAX; i++)
        if (!ench[i]) return ench[i] = e, 0;
    return -1;
}

int ench_by_name(const char *s, size_t n)
{
    if (n > 10 && memcmp(s, "minecraft:", 10) == 0) s += 10, n -= 10;
    for (int i = 0; i < ENCHANT_COUNT; i++)
        if (strlen(enchant_table[i].name) == n && memcmp(enchant_table[i].name, s, n) == 0)
            return i;
    return -1;
}

int ench_read_nbt(const nbt_node *tag, uint16_t ench[ITEM_ENCH_MAX])
{
    memset(ench, 0, ITEM_ENCH_MAX * sizeof ench[0]);
    const nbt_node *list = tag ? nbt_get(tag, "Enchantments", NBT_LIST) : NULL;
    if (!list || list->elem_type != NBT_COMPOUND) return 0;
    int lost = 0;
    for (const nbt_node *e = list->v.kids.first; e; e = e->next) {
        const nbt_node *id = nbt_get(e, "id", NBT_STRING), *lvl = nbt_get(e, "lvl", NBT_END);
        if (!id || !lvl || lvl->type < NBT_BYTE || lvl->type > NBT_LONG) continue;
        int k = ench_by_name((const char *)id->v.arr.p, id->v.arr.n);
        int64_t l = lvl->v.i < 0 ? 0 : lvl->v.i > 255 ? 255 : lvl->v.i;
        if (k < 0 || l == 0) continue;
        if (ench_level(ench, k)) continue; /* a repeated id: the first one counts */
        if (ench_set(ench, k, (int)l) < 0) lost++;
    }
    return lost;
}

void ench_write_nbt(buf_t *b, const uint16_t ench[ITEM_ENCH_MAX])
{
    int n = 0;
    for (int i = 0; i < ITEM_ENCH_MAX; i++) n += ench[i] != 0;
    if (!n) return;
    nbt_w_list(b, "Enchantments", NBT_COMPOUND, n);
    for (int i = 0; i < ITEM_ENCH_MAX; i++) {
        if (!ench[i]) continue;
        char id[64];
        size_t len = strlen(enchant_table[ench_entry_id(ench[i])].name);
        memcpy(id, "minecraft:", 10);
        memcpy(id + 10, enchant_table[ench_entry_id(ench[i])].name, len);
        nbt_w_string(b, "id", id, 10 + len);
        nbt_w_short(b, "lvl", (int16_t)ench_entry_level(ench[i]));
        nbt_w_end(b);
    }
}

void ench_wr_slot(buf_t *b, int item, int count, int damage, const uint16_t ench[ITEM_ENCH_MAX])
{
    bool present = item > 0 && count > 0;
    wr_bool(b, present);
    if (!present) return;
    wr_varint(b, item);
    wr_u8(b, (uint8_t)count);
    bool enchanted = ench && ench_any(ench);
    if (!damage && !enchanted) {
        wr_u8(b, 0); /* no NBT */
        return;
    }
    nbt_w_root(b, "");
    if (damage) nbt_w_int(b, "Damage", damage);
    if (enchanted) ench_write_nbt(b, ench);
    nbt_w_end(b);
}

int ench_read_item_tag(const nbt_node *tag, int item, uint16_t *damage,
                       uint16_t ench[ITEM_ENCH_MAX])
{
    *damage = 0;
    ench_read_nbt(tag, ench);
    if (!tag) return 0;
    const nbt_node *d = nbt_get(tag, "Damage", NBT_END);
    int64_t dmg = d && d->type >= NBT_BYTE && d->type <= NBT_LONG ? d->v.i : 0;
    if (item > 0 && item < ITEM_COUNT && dmg > 0 && dmg < item_max_damage[item])
        *damage = (uint16_t)dmg;
    uint32_t known = (d ? 1u : 0u) + (nbt_get(tag, "Enchantments", NBT_LIST) ? 1u : 0u);
    return tag->v.kids.count > known ? (int)(tag->v.kids.count - known) : 0;
}

void ench_write_item_tag(buf_t *b, int damage, const uint16_t ench[ITEM_ENCH_MAX])
{
    bool enchanted = ench_any(ench);
    if (!damage && !enchanted) return;
    nbt_w_compound(b, "tag");
    if (damage) nbt_w_int(b, "Damage", damage);
    if (enchanted) ench_write_nbt(b, ench);
    nbt_w_end(b);
}

/* ------------------------------------------------------------------ rules */

bool ench_unbreaking_saves(int level, bool armour, uint64_t *rng)
{
    if (level <= 0) return false;
    if (armour && unit(rng) < 0.6f) return false;
    return below(rng, (uint32_t)level + 1) > 0;
}

int ench_bonus_ore_drops(int count, int level, uint64_t *rng)
{
    if (level <= 0) return count;
    int i = (int)below(rng, (uint32_t)level + 2) - 1;
    return count * ((i < 0 ? 0 : i) + 1);
}

int ench_bonus_uniform(int count, int level, int multiplier, uint64_t *rng)
{
    if (level <= 0) return count;
    return count + (int)below(rng, (uint32_t)(multiplier * level) + 1);
}

int ench_bonus_binomial(int count, int level, int extra, float p, uint64_t *rng)
{
    for (int i = 0; i < level + extra; i++)
        if (unit(rng) < p) count++;
    return count;
}

int ench_protection_points(const uint16_t *const worn[], int n, unsigned hit)
{
    int sum = 0;
    for (int k = 0; k < n; k++) {
        if (!worn[k]) continue;
        sum += ench_level(worn[k], ENCH_PROTECTION);
        if (hit & ENCH_HIT_FIRE) sum += 2 * ench_level(worn[k], ENCH_FIRE_PROTECTION);
        if (hit & ENCH_HIT_FALL) sum += 3 * ench_level(worn[k], ENCH_FEATHER_FALLING);
        if (hit & ENCH_HIT_EXPLOSION) sum += 2 * ench_level(worn[k], ENCH_BLAST_PROTECTION);
        if (hit & ENCH_HIT_PROJECTILE) sum += 2 * ench_level(worn[k], ENCH_PROJECTILE_PROTECTION);
    }
    return sum;
}

float ench_magic_absorb(float damage, int points)
{
    float f = points < 0 ? 0.0f : points > 20 ? 20.0f : (float)points;
    return damage * (1.0f - f / 25.0f);
}

float ench_damage_bonus(const uint16_t ench[ITEM_ENCH_MAX], enum ench_mob target)
{
    float bonus = 0;
    int s = ench_level(ench, ENCH_SHARPNESS);
    if (s > 0) bonus += 0.5f * (float)s + 0.5f; /* DamageEnchantment: 1 + 0.5 × (level − 1) */
    if (target == ENCH_MOB_UNDEAD) bonus += 2.5f * (float)ench_level(ench, ENCH_SMITE);
    if (target == ENCH_MOB_ARTHROPOD)
        bonus += 2.5f * (float)ench_level(ench, ENCH_BANE_OF_ARTHROPODS);
    return bonus;
}
