/*
 * test_health.c — the arithmetic of health, hunger and combat
 * (game/health_rules.c over data/combat_table.c): fall damage, armour
 * (CombatRules), the invulnerability rule, FoodData (exhaustion, eating,
 * regeneration, starvation by difficulty), attack strength and damage,
 * knockback, and the generated tables (bread, swords, armour, damage types,
 * death texts).
 */
#include <math.h>
#include <string.h>

#include "data/block_table.h"
#include "data/combat_table.h"
#include "game/health_rules.h"
#include "test.h"

#define CHECK_NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) < 1e-4)

static int item_id(const char *name)
{
    for (int i = 0; i < ITEM_COUNT; i++)
        if (item_info[i].name && strcmp(item_info[i].name, name) == 0) return i;
    return -1;
}

TEST(health_fall_damage)
{
    CHECK_NEAR(hr_fall_damage(10.0f), 7.0f); /* acceptance 3 */
    CHECK_NEAR(hr_fall_damage(3.0f), 0.0f);
    CHECK_NEAR(hr_fall_damage(3.01f), 1.0f);
    CHECK_NEAR(hr_fall_damage(0.0f), 0.0f);
    CHECK_NEAR(hr_fall_damage(23.5f), 21.0f);
    CHECK_NEAR(hr_fall_damage(NAN), 0.0f);
}

TEST(health_armour_absorb)
{
    CHECK_NEAR(hr_armour_absorb(10.0f, 0.0f, 0.0f), 10.0f);
    /* full diamond: 20 points, toughness 8; 10 damage: f = 4, armour 20 - 2.5 = 17.5 */
    CHECK_NEAR(hr_armour_absorb(10.0f, 20.0f, 8.0f), 10.0f * (1.0f - 17.5f / 25.0f));
    /* big hits are floored at 20% of the points */
    CHECK_NEAR(hr_armour_absorb(100.0f, 10.0f, 0.0f), 100.0f * (1.0f - 2.0f / 25.0f));
    /* capped at 20 points (80%) */
    CHECK_NEAR(hr_armour_absorb(1.0f, 30.0f, 0.0f), 1.0f * (1.0f - 20.0f / 25.0f));
}

TEST(health_invulnerability_rule)
{
    bool fresh;
    CHECK_NEAR(hr_hurt_amount(0, 0, 4.0f, &fresh), 4.0f);
    CHECK(fresh);
    CHECK_NEAR(hr_hurt_amount(10, 4.0f, 4.0f, &fresh), 4.0f); /* the second half: a new hit */
    CHECK(fresh);
    CHECK_NEAR(hr_hurt_amount(15, 4.0f, 4.0f, &fresh), 0.0f); /* the first half: refused */
    CHECK(!fresh);
    CHECK_NEAR(hr_hurt_amount(15, 4.0f, 7.0f, &fresh), 3.0f); /* only the excess */
    CHECK(!fresh);
}

TEST(health_food_exhaustion_and_eating)
{
    struct hr_food f;
    hr_food_init(&f);
    CHECK_EQ_INT(f.food, 20);
    CHECK_NEAR(f.saturation, 5.0f);
    hr_food_exhaust(&f, 100.0f);
    CHECK_NEAR(f.exhaustion, 40.0f); /* capped */
    /* Exhaustion past 4 costs saturation first, then food (not on peaceful). */
    f = (struct hr_food){20, 1.0f, 4.5f, 0};
    hr_food_tick(&f, 20.0f, 2, true);
    CHECK_NEAR(f.saturation, 0.0f);
    CHECK_EQ_INT(f.food, 20);
    f.exhaustion = 4.5f;
    hr_food_tick(&f, 20.0f, 2, true);
    CHECK_EQ_INT(f.food, 19);
    f.exhaustion = 4.5f;
    hr_food_tick(&f, 20.0f, 0, true);
    CHECK_EQ_INT(f.food, 19); /* peaceful */
    /* Bread: 5 food, 6 saturation points (foods: 5 × 0.6 × 2). */
    const struct food_info *bread = hr_food_of(item_id("bread"));
    CHECK(bread != NULL);
    CHECK_EQ_INT(bread->points, 5);
    CHECK_NEAR(bread->saturation, 6.0f);
    f = (struct hr_food){10, 0.0f, 0.0f, 0};
    hr_food_eat(&f, bread->points, bread->saturation);
    CHECK_EQ_INT(f.food, 15);
    CHECK_NEAR(f.saturation, 6.0f);
    f = (struct hr_food){18, 0.0f, 0.0f, 0};
    hr_food_eat(&f, bread->points, bread->saturation);
    CHECK_EQ_INT(f.food, 20);
    CHECK_NEAR(f.saturation, 6.0f);
    f = (struct hr_food){2, 0.0f, 0.0f, 0};
    hr_food_eat(&f, 1, 10.0f);
    CHECK_NEAR(f.saturation, 3.0f); /* never above the food level */
    CHECK(hr_food_of(item_id("stone")) == NULL);
}

TEST(health_regeneration_and_starvation)
{
    /* Full food with saturation: sat/6 every 10 ticks, costing that much exhaustion. */
    struct hr_food f = {20, 5.0f, 0.0f, 0};
    float heal = 0;
    for (int i = 0; i < 10; i++) heal += hr_food_tick(&f, 15.0f, 2, true);
    CHECK_NEAR(heal, 5.0f / 6.0f);
    CHECK_NEAR(f.exhaustion, 5.0f);
    /* Food 18, no saturation: 1 every 80 ticks, 6 exhaustion. */
    f = (struct hr_food){18, 0.0f, 0.0f, 0};
    heal = 0;
    for (int i = 0; i < 80; i++) heal += hr_food_tick(&f, 15.0f, 2, true);
    CHECK_NEAR(heal, 1.0f);
    /* No regeneration at full health or with food 17. */
    f = (struct hr_food){17, 0.0f, 0.0f, 0};
    heal = 0;
    for (int i = 0; i < 200; i++) heal += hr_food_tick(&f, 15.0f, 2, true);
    CHECK_NEAR(heal, 0.0f);
    /* Starving: 1 every 80 ticks; easy stops at 10, normal at 1, hard kills. */
    struct {
        int difficulty;
        float health;
        float want;
    } cases[] = {{1, 11, -1}, {1, 10, 0}, {2, 2, -1}, {2, 1, 0}, {3, 1, -1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        f = (struct hr_food){0, 0.0f, 0.0f, 0};
        float d = 0;
        for (int t = 0; t < 80; t++)
            d += hr_food_tick(&f, cases[i].health, cases[i].difficulty, true);
        CHECK_NEAR(d, cases[i].want);
    }
}

TEST(health_attack_strength_and_damage)
{
    /* Bare hand: speed 4, a full swing after 5 ticks. */
    CHECK_NEAR(hr_attack_strength(0, 4.0f, 0.5f), 0.1f);
    CHECK_NEAR(hr_attack_strength(5, 4.0f, 0.5f), 1.0f);
    CHECK_NEAR(hr_attack_damage(1.0f, 1.0f, false), 1.0f);
    CHECK_NEAR(hr_attack_damage(1.0f, 0.0f, false), 0.2f);
    CHECK_NEAR(hr_attack_damage(7.0f, 1.0f, true), 10.5f);
    const struct weapon_info *sword = hr_weapon_of(item_id("diamond_sword"));
    CHECK(sword != NULL);
    CHECK_NEAR(sword->damage, 7.0f);
    CHECK_NEAR(sword->speed, 1.6f);
    CHECK_NEAR(hr_attack_strength(12, sword->speed, 0.5f), 1.0f); /* 12.5 ticks */
    CHECK(hr_attack_strength(6, sword->speed, 0.5f) < 0.6f);
    const struct weapon_info *axe = hr_weapon_of(item_id("iron_axe"));
    CHECK(axe != NULL);
    CHECK_NEAR(axe->damage, 9.0f);
    CHECK_NEAR(axe->speed, 0.9f);
    CHECK(hr_weapon_of(item_id("stick")) == NULL);
}

TEST(health_knockback)
{
    double v[3] = {0, 0, 0};
    hr_knockback(v, 0.4, 1.0, 0.0, true); /* attacker to the east */
    CHECK_NEAR(v[0], -0.4);
    CHECK_NEAR(v[1], 0.4);
    CHECK_NEAR(v[2], 0.0);
    hr_knockback(v, 0.5, 0.0, -1.0, true); /* then the sprint's, along a look north */
    CHECK_NEAR(v[0], -0.2);
    CHECK_NEAR(v[1], 0.4);
    CHECK_NEAR(v[2], 0.5);
    double w[3] = {0, -0.1, 0};
    hr_knockback(w, 0.4, 0.0, 0.0, false); /* no direction, in the air */
    CHECK_NEAR(w[0], 0.0);
    CHECK_NEAR(w[1], -0.1);
}

TEST(health_tables)
{
    const struct armour_info *chest = hr_armour_of(item_id("diamond_chestplate"));
    CHECK(chest != NULL);
    CHECK_EQ_INT(chest->points, 8);
    CHECK_EQ_INT(chest->toughness, 2);
    CHECK_EQ_INT(chest->slot, 2);
    CHECK(strcmp(damage_types[DAMAGE_TYPE_FALL].message_id, "fall") == 0);
    CHECK(strcmp(damage_types[DAMAGE_TYPE_PLAYER_ATTACK].message_id, "player") == 0);
    CHECK_EQ_INT(damage_types[DAMAGE_TYPE_FALL].death_message, DEATH_MSG_FALL_VARIANTS);
    CHECK_NEAR(damage_types[DAMAGE_TYPE_PLAYER_ATTACK].exhaustion, 0.1f);
    CHECK(strcmp(hr_death_text("death.attack.player"), "%1$s was slain by %2$s") == 0);
    CHECK(strcmp(hr_death_text("death.fell.accident.generic"), "%1$s fell from a high place") == 0);
    CHECK(hr_death_text("death.attack.nope") == NULL);
    for (int i = 1; i < DEATH_TEXT_COUNT; i++)
        CHECK(strcmp(death_texts[i - 1].key, death_texts[i].key) < 0);
    for (int i = 1; i < FOOD_COUNT; i++) CHECK(food_table[i - 1].item < food_table[i].item);
}
