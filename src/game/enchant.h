/*
 * enchant.h — enchantments on item stacks and the rules vanilla 1.20.1
 * applies with them (game/enchant.c). Pure: no game state, so the unit
 * tests, the world's block-entity codec and the server share it.
 *
 * An item stack carries up to ITEM_ENCH_MAX enchantments in a small array
 * (struct inv_slot.ench, struct be_item.ench): entry = id << 8 | level,
 * id from data/enchant_table.h, level 1..255; 0 = no entry. Entries are
 * kept in the order the item's NBT listed them (the tooltip's order), with
 * the empty ones last.
 */
#ifndef MC_ENCHANT_H
#define MC_ENCHANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "data/enchant_table.h"
#include "proto/nbt.h"

#define ITEM_ENCH_MAX 4 /* enchantments one stack keeps; more in a file are dropped (logged) */

static inline int ench_entry_id(uint16_t e)
{
    return e >> 8;
}
static inline int ench_entry_level(uint16_t e)
{
    return e & 0xff;
}

/* The level of enchantment id on the stack (0: none). */
int ench_level(const uint16_t ench[ITEM_ENCH_MAX], int id);
/* True when a and b hold the same enchantments (in any order). */
bool ench_same(const uint16_t a[ITEM_ENCH_MAX], const uint16_t b[ITEM_ENCH_MAX]);
/* Sets id to level (1..255) on the stack, replacing its old level; returns
 * 0, or -1 when every entry is taken by other enchantments. */
int ench_set(uint16_t ench[ITEM_ENCH_MAX], int id, int level);
/* The id of an enchantment named "minecraft:x" or "x", or -1. */
int ench_by_name(const char *s, size_t n);

/* Reads an item's `tag` compound's Enchantments list (vanilla: compounds of
 * id (string) and lvl (short), the level clamped to 0..255 as vanilla's
 * EnchantmentHelper does; unknown ids and level 0 are skipped). Returns how
 * many entries did not fit (beyond ITEM_ENCH_MAX). tag may be NULL. */
int ench_read_nbt(const nbt_node *tag, uint16_t ench[ITEM_ENCH_MAX]);
/* True when the stack has any enchantment (its tag needs an Enchantments list). */
bool ench_any(const uint16_t ench[ITEM_ENCH_MAX]);
/* Writes the named list tag Enchantments (inside the caller's compound) as
 * vanilla writes it: {id:"minecraft:...", lvl:<short>}. Nothing when empty. */
void ench_write_nbt(buf_t *b, const uint16_t ench[ITEM_ENCH_MAX]);
/* A Slot on the wire with its NBT: Damage when worn, Enchantments when
 * enchanted (nothing otherwise), as vanilla's ItemStack tag. */
void ench_wr_slot(buf_t *b, int item, int count, int damage, const uint16_t ench[ITEM_ENCH_MAX]);

/* An item's `tag` compound as vanilla 1.20.1 keeps it, the parts mcserv
 * carries: Damage (durability used, kept only within 1 .. the item's max
 * durability − 1) and Enchantments. Returns how many other tags it had
 * (which are not kept). tag may be NULL. */
int ench_read_item_tag(const nbt_node *tag, int item, uint16_t *damage,
                       uint16_t ench[ITEM_ENCH_MAX]);
/* Writes the compound `tag` {Damage, Enchantments} when either is set. */
void ench_write_item_tag(buf_t *b, int damage, const uint16_t ench[ITEM_ENCH_MAX]);

/* ------------------------------------------------------------ vanilla's rules
 * rng is an xorshift64 state (nonzero), advanced per draw. */

/* DigDurabilityEnchantment.shouldIgnoreDurabilityDrop: with unbreaking at
 * `level`, true when this use costs no durability (armour: a 60 % chance
 * to cost anyway, then 1 in level+1 as a tool). */
bool ench_unbreaking_saves(int level, bool armour, uint64_t *rng);

/* ApplyBonusCount's formulas for a drop of `count` with fortune `level`. */
int ench_bonus_ore_drops(int count, int level, uint64_t *rng);
int ench_bonus_uniform(int count, int level, int multiplier, uint64_t *rng);
int ench_bonus_binomial(int count, int level, int extra, float p, uint64_t *rng);

/* What a hit is, for the protection enchantments: a set of vanilla's damage
 * type tags is_fire, is_fall, is_explosion, is_projectile (0: none). */
#define ENCH_HIT_FIRE       1u
#define ENCH_HIT_FALL       2u
#define ENCH_HIT_EXPLOSION  4u
#define ENCH_HIT_PROJECTILE 8u
/* ProtectionEnchantment.getDamageProtection summed over the worn pieces
 * (NULL entries skipped): protection 1 per level on any hit, fire, blast
 * and projectile protection 2 and feather falling 3 on their own kind. */
int ench_protection_points(const uint16_t *const worn[], int n, unsigned hit);
/* CombatRules.getDamageAfterMagicAbsorb: damage × (1 − min(points, 20) / 25). */
float ench_magic_absorb(float damage, int points);
/* The target's MobType for the damage enchantments. */
enum ench_mob { ENCH_MOB_OTHER, ENCH_MOB_UNDEAD, ENCH_MOB_ARTHROPOD };
/* EnchantmentHelper.getDamageBonus: sharpness 0.5 × level + 0.5 on
 * anything, smite 2.5 × level on the undead, bane of arthropods 2.5 ×
 * level on arthropods (0 without them). */
float ench_damage_bonus(const uint16_t ench[ITEM_ENCH_MAX], enum ench_mob target);

#endif
