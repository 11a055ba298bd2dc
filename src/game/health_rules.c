/*
 * health_rules.c — the arithmetic of health, hunger and combat (see
 * health_rules.h), transcribed from vanilla 1.20.1's LivingEntity,
 * CombatRules, FoodData and Player in behaviour, not in text.
 *
 * Invariants: those of health_rules.h (pure functions; FoodData's clamps).
 */
#include "game/health_rules.h"

#include <math.h>
#include <string.h>

float hr_fall_damage(float fall_distance)
{
    if (!(fall_distance > 3.0f)) return 0.0f; /* NaN too */
    return ceilf(fall_distance - 3.0f);
}

float hr_armour_absorb(float damage, float armour, float toughness)
{
    float f = 2.0f + toughness / 4.0f;
    float a = armour - damage / f;
    float lo = armour * 0.2f;
    if (a < lo) a = lo;
    if (a > 20.0f) a = 20.0f;
    return damage * (1.0f - a / 25.0f);
}

float hr_hurt_amount(int invuln, float last_hurt, float amount, bool *fresh)
{
    if (invuln > HR_INVULNERABLE / 2) {
        *fresh = false;
        return amount > last_hurt ? amount - last_hurt : 0.0f;
    }
    *fresh = true;
    return amount;
}

void hr_food_init(struct hr_food *f)
{
    f->food = HR_MAX_FOOD;
    f->saturation = HR_START_SATURATION;
    f->exhaustion = 0.0f;
    f->timer = 0;
}

void hr_food_exhaust(struct hr_food *f, float amount)
{
    if (!(amount > 0.0f)) return;
    f->exhaustion = fminf(f->exhaustion + amount, 40.0f);
}

void hr_food_eat(struct hr_food *f, int points, float saturation)
{
    if (points < 0) points = 0;
    f->food = f->food + points > HR_MAX_FOOD ? HR_MAX_FOOD : f->food + points;
    float s = f->saturation + (saturation > 0 ? saturation : 0.0f);
    f->saturation = fminf(s, (float)f->food);
}

float hr_food_tick(struct hr_food *f, float health, int difficulty, bool regen)
{
    if (f->exhaustion > 4.0f) {
        f->exhaustion -= 4.0f;
        if (f->saturation > 0.0f)
            f->saturation = fmaxf(f->saturation - 1.0f, 0.0f);
        else if (difficulty != 0 && f->food > 0)
            f->food--;
    }
    bool hurt = health < HR_MAX_HEALTH;
    if (regen && f->saturation > 0.0f && hurt && f->food >= 20) {
        if (++f->timer >= 10) {
            float s = fminf(f->saturation, 6.0f);
            hr_food_exhaust(f, s);
            f->timer = 0;
            return s / 6.0f;
        }
    } else if (regen && f->food >= 18 && hurt) {
        if (++f->timer >= 80) {
            hr_food_exhaust(f, 6.0f);
            f->timer = 0;
            return 1.0f;
        }
    } else if (f->food <= 0) {
        if (++f->timer >= 80) {
            f->timer = 0;
            if (health > 10.0f || difficulty == 3 || (health > 1.0f && difficulty == 2))
                return -1.0f;
        }
    } else {
        f->timer = 0;
    }
    return 0.0f;
}

float hr_attack_strength(int ticks, float speed, float adjust)
{
    if (!(speed > 0.0f)) return 1.0f;
    float delay = 1.0f / speed * 20.0f;
    float s = ((float)ticks + adjust) / delay;
    return s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
}

float hr_attack_damage(float base, float strength, bool critical)
{
    float d = base * (0.2f + strength * strength * 0.8f);
    return critical ? d * 1.5f : d;
}

void hr_knockback(double v[3], double strength, double dx, double dz, bool on_ground)
{
    if (!(strength > 0.0)) return;
    double len = sqrt(dx * dx + dz * dz);
    double nx = len < 1.0e-4 ? 0.0 : dx / len * strength,
           nz = len < 1.0e-4 ? 0.0 : dz / len * strength;
    v[0] = v[0] / 2.0 - nx;
    if (on_ground) v[1] = fmin(0.4, v[1] / 2.0 + strength);
    v[2] = v[2] / 2.0 - nz;
}

/* Binary search over a table sorted by its first field, a uint16_t item id. */
#define FIND_BY_ITEM(table, count, item)                                                           \
    do {                                                                                           \
        size_t lo = 0, hi = (count);                                                               \
        while (lo < hi) {                                                                          \
            size_t mid = (lo + hi) / 2;                                                            \
            if ((table)[mid].item == (item)) return &(table)[mid];                                 \
            if ((table)[mid].item < (item))                                                        \
                lo = mid + 1;                                                                      \
            else                                                                                   \
                hi = mid;                                                                          \
        }                                                                                          \
        return NULL;                                                                               \
    } while (0)

const struct food_info *hr_food_of(int item)
{
    FIND_BY_ITEM(food_table, FOOD_COUNT, item);
}

const struct weapon_info *hr_weapon_of(int item)
{
    FIND_BY_ITEM(weapon_table, WEAPON_COUNT, item);
}

const struct armour_info *hr_armour_of(int item)
{
    FIND_BY_ITEM(armour_table, ARMOUR_COUNT, item);
}

const char *hr_death_text(const char *key)
{
    size_t lo = 0, hi = DEATH_TEXT_COUNT;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(key, death_texts[mid].key);
        if (c == 0) return death_texts[mid].en;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}
