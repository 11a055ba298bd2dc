/*
 * mobs.h — entities other than players and items (issue 15): mobs with
 * vanilla 1.20.1's physics, a priority goal selector, damage, death and
 * drops; tracked through interest cells with the movement encoded once per
 * cell per tick; saved in entities/r.X.Z.mca. Passive mobs: cow, pig,
 * sheep, chicken; hostile: zombie, skeleton, spider, and arrows; the creeper
 * (mob_creeper.c). See mobs.c
 * (model, AI), mob_ai.c (hostile goals, paths), projectile.c (arrows),
 * mob_spawn.c (natural spawning), mob_track.c (tracking, relay),
 * mob_save.c (persistence) and mob_rules.c (pure rules).
 */
#ifndef MC_MOBS_H
#define MC_MOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/mob_rules.h"
#include "game/player.h"
#include "net/conn.h"

#define MOBS_MAX 65536 /* mobs in the world at once; a summon past it is refused */

/* Tick phase 6c (game/tick.c): the first tick loads the saved entities;
 * then AI and physics, deaths, tracking (spawns, one Remove Entities per
 * viewer) and the relay (per-cell batches). */
void mobs_tick(void);

/* True when mcserv simulates this entity type (summon refuses the others). */
bool mobs_supported(int type);
/* Creates a mob from r (r->type, r->pos; the rest as given or the type's
 * defaults): the one path of summon and natural spawning. Its entity id,
 * or -1 with err (the cap of MOBS_MAX, memory), or MOBS_SPAWN_CAPPED. */
int32_t mobs_spawn(const struct mob_record *r, char *err, size_t cap);
/* mobs_spawn refused it: the chunk holds mcserv-max-entities-per-chunk mobs
 * (err says which; logged, rate-limited). */
#define MOBS_SPAWN_CAPPED (-2)

/* The living mob with this entity id: its slot, or -1. */
int32_t mobs_by_eid(int32_t eid);
/* Slot's entity id. */
int32_t mobs_eid(int32_t slot);
/* Slot's box: feet (x, y, z), half width, height. */
void mobs_box(int32_t slot, double out[5]);
/* A player's attack (game/combat.c): amount after the attack rules,
 * knockback 0.4 away from the attacker plus `extra` along (ex, ez).
 * False when the hit did not land (dead, invulnerable). */
bool mobs_hurt_by(int32_t slot, float amount, conn *by, double extra, double ex, double ez);

/* An explosion's share (game/explosion.c): damage of `type` (explosion,
 * player_explosion) caused by source_eid (0 none), and the knockback added
 * to its motion. */
void mobs_explosion_hit(int32_t slot, int type, float damage, double kx, double ky, double kz,
                        int32_t source_eid);

/* Selection for commands (kill @e[type=...]). type -1: any; range < 0: any. */
struct mob_filter {
    int type;
    bool type_neg;
    double x, y, z, dmin, dmax; /* dmax < 0: no distance limit */
    size_t limit;               /* 0: no limit */
    bool nearest;
};
size_t mobs_select(const struct mob_filter *f, int32_t *slots, size_t cap);
/* /kill: dies as by genericKill (drops its loot). */
void mobs_kill(int32_t slot);
/* Its name for messages: the custom name's text or the type's display name. */
void mobs_display_name(int32_t slot, char *out, size_t cap);

/* Shared with item entities (game/items.c): a block with a collision box
 * (an unloaded one counts as one: entities rest there), for mob_collide;
 * Block.getFriction of the block 0.5 under the feet at (x, y, z). */
bool mob_solid_at(void *ctx, int32_t x, int32_t y, int32_t z);
double mob_friction_under(double x, double y, double z);

/* p's client dropped every entity (Respawn): spawn them again. */
void mobs_forget(const player *p);
uint32_t mobs_count(void);
void mobs_free(void);

#endif
