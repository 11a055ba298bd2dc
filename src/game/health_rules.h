/*
 * health_rules.h — the arithmetic of health, hunger and combat, as vanilla
 * 1.20.1 computes it, with no server state (so the unit tests link it):
 * fall damage, armour, the invulnerability rule, FoodData, eating, attack
 * strength, knockback, and the lookups into data/combat_table.h. The game
 * side (who is hurt, when, what the clients are told) is game/health.c and
 * game/combat.c.
 *
 * Invariants:
 *  1. Every function is pure: it reads its arguments and the generated
 *     tables, writes only through its pointer arguments.
 *  2. Food stays in 0..20, saturation in 0..food, exhaustion in 0..40
 *     (vanilla FoodData's clamps), whatever the inputs.
 */
#ifndef MC_HEALTH_RULES_H
#define MC_HEALTH_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "data/combat_table.h"

#define HR_MAX_HEALTH         20.0f
#define HR_MAX_FOOD           20
#define HR_START_SATURATION   5.0f
#define HR_MAX_AIR            300
#define HR_INVULNERABLE       20 /* ticks after a hit (LivingEntity.invulnerableTime) */
#define HR_SPAWN_INVULNERABLE 60 /* ticks after joining or respawning (ServerPlayer) */

/* Exhaustion per action (vanilla Player / FoodConstants). */
#define HR_EXHAUST_JUMP        0.05f
#define HR_EXHAUST_SPRINT_JUMP 0.2f
#define HR_EXHAUST_ATTACK      0.1f
#define HR_EXHAUST_MINE        0.005f
#define HR_EXHAUST_SPRINT      0.1f  /* per metre */
#define HR_EXHAUST_SWIM        0.01f /* per metre */

/* Damage on landing after falling fall_distance blocks: ceil(d - 3), at least 0. */
float hr_fall_damage(float fall_distance);

/* CombatRules.getDamageAfterAbsorb: what is left of damage through armour
 * points and toughness. */
float hr_armour_absorb(float damage, float armour, float toughness);

/* LivingEntity.hurt's invulnerability: with invuln ticks left from the last
 * hit (> 10: within its first half), only what exceeds the last hit's amount
 * lands. Returns the damage to apply (0: refused) and says in *fresh whether
 * this is a new hit (the timer restarts, the client sees a hurt). */
float hr_hurt_amount(int invuln, float last_hurt, float amount, bool *fresh);

/* Vanilla FoodData. */
struct hr_food {
    int food;         /* 0..20 */
    float saturation; /* 0..food */
    float exhaustion; /* 0..40; every 4 costs a saturation point, then a food point */
    int timer;        /* ticks towards the next heal or starvation hurt */
};

void hr_food_init(struct hr_food *f);
/* causeFoodExhaustion: exhaustion grows, capped at 40. */
void hr_food_exhaust(struct hr_food *f, float amount);
/* FoodData.eat: points and saturation points (combat_table's food_info). */
void hr_food_eat(struct hr_food *f, int points, float saturation);
/*
 * One tick of FoodData.tick for a player with `health` of 20: exhaustion
 * spent, then the regeneration or starvation timer. Returns the health to
 * add (> 0: heal, < 0: starvation damage to deal; 0 nothing). difficulty is
 * 0 peaceful .. 3 hard; regen is the naturalRegeneration rule.
 */
float hr_food_tick(struct hr_food *f, float health, int difficulty, bool regen);

/* Player.getAttackStrengthScale: ticks since the last swing against the
 * delay of an item with `speed` attacks per second, in 0..1. */
float hr_attack_strength(int ticks, float speed, float adjust);
/* Player.attack's damage: base times 0.2 + 0.8 strength², ×1.5 when critical. */
float hr_attack_damage(float base, float strength, bool critical);

/* LivingEntity.knockback: velocity v (blocks/tick) pushed away from the
 * direction (dx, dz) by strength; on the ground it also goes up to 0.4. */
void hr_knockback(double v[3], double strength, double dx, double dz, bool on_ground);

/* Lookups by item id: NULL when the item is not a food / weapon / armour. */
const struct food_info *hr_food_of(int item);
const struct weapon_info *hr_weapon_of(int item);
const struct armour_info *hr_armour_of(int item);
/* The en_us text of a death.* key, or NULL. */
const char *hr_death_text(const char *key);

#endif
