/*
 * experience.h — a player's experience as vanilla 1.20.1's Player keeps it
 * (level, progress through the level, total points, score) and the pure
 * arithmetic over it (game/experience.c, in the library so the unit tests
 * link it). The game side — Set Experience, orbs, deaths, the commands —
 * is game/xp.c and the orbs' physics game/items.c.
 */
#ifndef MC_EXPERIENCE_H
#define MC_EXPERIENCE_H

#include <stdbool.h>
#include <stdint.h>

struct player_xp {
    int32_t level;      /* XpLevel, >= 0 */
    float progress;     /* XpP: 0 <= progress < 1 of the level's points */
    int32_t total;      /* XpTotal, >= 0 */
    int32_t score;      /* Score (every point ever given, as vanilla's increaseScore) */
    uint64_t pick_tick; /* the tick it last took an orb (takeXpDelay 2); 0 never */
};

/* Player.getXpNeededForNextLevel: 2L + 7 below 15, 5L − 38 below 30, then 9L − 158. */
int xp_needed(int level);
/* Player.giveExperiencePoints (amount may be negative: /xp add -5). */
void xp_give_points(struct player_xp *x, int amount);
/* Player.giveExperienceLevels (may be negative; below 0 everything is 0). */
void xp_give_levels(struct player_xp *x, int levels);
/* ServerPlayer.setExperiencePoints: the progress within the current level;
 * false (nothing changed) when points >= the level's need (vanilla's
 * ExperienceCommand refuses it). */
bool xp_set_points(struct player_xp *x, int points);
/* ServerPlayer.setExperienceLevels. */
void xp_set_levels(struct player_xp *x, int level);
/* ExperienceCommand's query points: floor(progress × need). */
int xp_points_in_level(const struct player_xp *x);
/* ExperienceOrb.getExperienceValue: the largest orb size (2477, 1237, 617,
 * 307, 149, 73, 37, 17, 7, 3, 1) not above amount. */
int xp_orb_value(int amount);
/* Player.getExperienceReward before the keepInventory check: min(7 × level, 100). */
int xp_player_reward(int level);
/* Mob.getExperienceReward by minecraft-data's category (data/entity_table.h):
 * animals and water creatures 1..3 (Animal, WaterAnimal), monsters 5 plus
 * 1..3 per piece of equipment (Monster's xpReward 5, Mob's equipment
 * bonus), everything else 0. rng: xorshift64 state. */
int xp_mob_reward(int category, int equipped, uint64_t *rng);
/* ExperienceOrb.tick's pull towards the player it follows: target is the
 * player's position at half its eye height; within 8 blocks the velocity
 * gains (1 − d/8)² × 0.1 along the direction. */
void xp_orb_pull(const double pos[3], double vel[3], const double target[3]);

#endif
