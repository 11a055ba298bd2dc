/*
 * experience.c — see experience.h: vanilla 1.20.1's experience arithmetic
 * (Player.giveExperiencePoints / giveExperienceLevels / getXpNeededForNextLevel,
 * ServerPlayer.setExperiencePoints / setExperienceLevels, ExperienceOrb's
 * value steps and pull, the rewards of Player and Mob).
 *
 * Invariants (after every call): level >= 0, total >= 0, 0 <= progress < 1
 * except as vanilla leaves it after setExperienceLevels (the old progress
 * kept). Pure: no global state; randomness from the caller's rng.
 */
#include "game/experience.h"

#include <math.h>

#include "data/entity_table.h"

int xp_needed(int level)
{
    if (level >= 30) return 112 + (level - 30) * 9;
    if (level >= 15) return 37 + (level - 15) * 5;
    return 7 + level * 2;
}

void xp_give_levels(struct player_xp *x, int levels)
{
    int64_t l = (int64_t)x->level + levels;
    x->level = l > INT32_MAX ? INT32_MAX : (int32_t)l;
    if (x->level < 0) {
        x->level = 0;
        x->progress = 0;
        x->total = 0;
    }
}

void xp_give_points(struct player_xp *x, int amount)
{
    int64_t s = (int64_t)x->score + amount;
    x->score = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
    x->progress += (float)amount / (float)xp_needed(x->level);
    int64_t t = (int64_t)x->total + amount;
    x->total = t < 0 ? 0 : t > INT32_MAX ? INT32_MAX : (int32_t)t;
    while (x->progress < 0.0f) {
        float f = x->progress * (float)xp_needed(x->level);
        if (x->level > 0) {
            xp_give_levels(x, -1);
            x->progress = 1.0f + f / (float)xp_needed(x->level);
        } else {
            xp_give_levels(x, -1);
            x->progress = 0.0f;
        }
    }
    while (x->progress >= 1.0f) {
        x->progress = (x->progress - 1.0f) * (float)xp_needed(x->level);
        xp_give_levels(x, 1);
        x->progress /= (float)xp_needed(x->level);
    }
}

bool xp_set_points(struct player_xp *x, int points)
{
    float f = (float)xp_needed(x->level);
    if (points < 0 || (float)points >= f) return false;
    float g = (f - 1.0f) / f, p = (float)points / f;
    x->progress = p < 0.0f ? 0.0f : p > g ? g : p;
    return true;
}

void xp_set_levels(struct player_xp *x, int level)
{
    x->level = level < 0 ? 0 : level;
}

int xp_points_in_level(const struct player_xp *x)
{
    return (int)floorf(x->progress * (float)xp_needed(x->level));
}

int xp_orb_value(int amount)
{
    static const int steps[] = {2477, 1237, 617, 307, 149, 73, 37, 17, 7, 3};
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (amount >= steps[i]) return steps[i];
    return 1;
}

int xp_player_reward(int level)
{
    int64_t r = (int64_t)level * 7;
    return r > 100 ? 100 : r < 0 ? 0 : (int)r;
}

static uint32_t below(uint64_t *s, uint32_t n) /* xorshift64, as game/loot.c */
{
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return n ? (uint32_t)((x >> 32) % n) : 0;
}

int xp_mob_reward(int category, int equipped, uint64_t *rng)
{
    switch (category) {
    case ENTITY_CAT_ANIMAL:
    case ENTITY_CAT_WATER_CREATURE: return 1 + (int)below(rng, 3);
    case ENTITY_CAT_HOSTILE: {
        int r = 5;
        for (int i = 0; i < equipped; i++) r += 1 + (int)below(rng, 3);
        return r;
    }
    default: return 0;
    }
}

void xp_orb_pull(const double pos[3], double vel[3], const double target[3])
{
    double d[3] = {target[0] - pos[0], target[1] - pos[1], target[2] - pos[2]};
    double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (!(d2 < 64.0)) return;
    double len = sqrt(d2), f = 1.0 - len / 8.0;
    if (len < 1.0e-4) return; /* Vec3.normalize of a zero vector is zero */
    for (int i = 0; i < 3; i++) vel[i] += d[i] / len * f * f * 0.1;
}
