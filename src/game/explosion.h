/*
 * explosion.h — explosions in the world (issue 15): vanilla 1.20.1's
 * Level.explode / Explosion.explode and finalizeExplosion with the
 * arithmetic of game/explosion_rules.h: blocks destroyed (their drops
 * decayed), entities hurt and pushed, the Explosion packet to the players
 * within 64 blocks. See explosion.c.
 */
#ifndef MC_EXPLOSION_H
#define MC_EXPLOSION_H

#include <stdbool.h>
#include <stdint.h>

/* What the explosion does to blocks (vanilla Explosion.BlockInteraction). */
enum ex_blocks {
    EX_KEEP,          /* none destroyed (mobGriefing=false for a mob) */
    EX_DESTROY,       /* destroyed, every drop kept */
    EX_DESTROY_DECAY, /* destroyed, each dropped item kept with chance 1/power */
};

/* Vanilla's Level.ExplosionInteraction: who made it, which picks the
 * block rule from the game rules. */
enum ex_cause {
    EX_CAUSE_MOB, /* mobGriefing ? (mobExplosionDropDecay ? DECAY : DESTROY) : KEEP */
    EX_CAUSE_TNT, /* tntExplosionDropDecay ? DECAY : DESTROY */
};

struct explosion {
    double x, y, z;
    float power;         /* clamped to EX_POWER_MAX */
    enum ex_cause cause; /* the block rule, from the game rules */
    int32_t source_eid;  /* the entity that exploded (a creeper), 0 none; never hurt by it */
    const char *name;    /* its display name for death messages ("Creeper"); NULL none */
};

/* Runs an explosion now (game thread; tick phase 6c for creepers): mobs and
 * players within 2 × power hurt and pushed by their exposure, the blocks
 * the rays reach (when the rule destroys) become air through the normal
 * block-change path with their drops, and each player within 64 blocks
 * gets the Explosion packet with its own knockback. The number of blocks
 * destroyed. */
int explosion_run(const struct explosion *e);

/* The block rule of a cause under the current game rules. */
enum ex_blocks explosion_rule(enum ex_cause cause);

#endif
