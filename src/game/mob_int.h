/*
 * mob_int.h — what game/mobs.c (model, AI, physics, combat),
 * game/mob_track.c (cells, tracking, relay), game/mob_save.c
 * (entities/r.X.Z.mca), game/mob_ai.c (hostile goals, paths),
 * game/mob_spawn.c (natural spawning) and game/projectile.c (arrows)
 * share, in the manner of SQLite's fooInt.h. Nothing outside those files
 * includes it.
 *
 * Invariants:
 *  1. mob_slots[0 .. mob_top) holds every used record; a slot is freed only
 *     by mt_track after every viewer lost it (a removed mob is visible to
 *     nobody), so a reused slot starts with no viewer bits set.
 *  2. A record's tracking fields (cell .. held) belong to mob_track.c;
 *     mobs.c sets `moved` when the position changed and the pending fields
 *     (ev_*, meta_dirty, impulse) that the next relay consumes.
 *  3. No per-mob allocation per tick: a custom name is allocated when the
 *     mob is made and freed with it.
 */
#ifndef MC_MOB_INT_H
#define MC_MOB_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "game/mobs.h"

#define MOB_DEATH_TICKS 20 /* vanilla LivingEntity.tickDeath */
#define MOB_LAYERS      4  /* distinct tracking ranges among the types */

/* One row per mob type mcserv simulates (mobs.c mob_types). */
struct mob_type {
    int16_t type;         /* ENTITY_TYPE_* */
    float max_health;     /* Attributes.MAX_HEALTH */
    float speed;          /* Attributes.MOVEMENT_SPEED */
    float panic_speed;    /* PanicGoal's speed modifier */
    uint8_t range_chunks; /* EntityType clientTrackingRange */
    uint8_t interval;     /* EntityType updateInterval, ticks */
    bool slow_fall;       /* Chicken.aiStep: falls at 0.6 */
    bool no_fall_damage;  /* Chicken.causeFallDamage */
    /* issue 15, hostile mobs (mob_ai.c) and projectiles (projectile.c) */
    uint8_t ai;     /* MOB_AI_*: which goals and target selectors it has */
    float follow;   /* Attributes.FOLLOW_RANGE (target and path range) */
    float damage;   /* Attributes.ATTACK_DAMAGE (melee) */
    bool sun_burns; /* Zombie / AbstractSkeleton.aiStep: burns in daylight */
};

/* The goal sets of mob_types rows (a new kind of mob is a value here plus
 * its goals in mob_ai.c). */
enum mob_ai_kind {
    MOB_AI_PASSIVE, /* float, panic, stroll, look (mobs.c) */
    MOB_AI_MELEE,   /* zombie: + HurtByTarget, NearestAttackableTarget, MeleeAttack */
    MOB_AI_BOW,     /* skeleton: + RangedBowAttack */
    MOB_AI_SPIDER,  /* spider: melee, hostile only in the dark */
    MOB_AI_ARROW,   /* a projectile: no AI, projectile.c's physics */
};

/* Move goals (mobs.c runs them; GOAL_ATTACK is mob_ai.c's). */
enum { GOAL_NONE, GOAL_PANIC, GOAL_STROLL, GOAL_ATTACK };
/* Look goals; LOOK_TARGET: (lx, ly, lz) set by the running goal each tick. */
enum { LOOK_NONE, LOOK_PLAYER, LOOK_AROUND, LOOK_TARGET };

struct mob {
    bool used, removed, dead;
    bool in_water, resting, moved;
    struct mob_state st; /* no_ai, on_ground, wool ...: as saved */
    uint8_t row;         /* index into mob_types */
    int16_t type;
    int32_t eid;
    mc_uuid uuid;
    double x, y, z, vx, vy, vz;
    float yaw, pitch, head_yaw;
    float health, last_hurt;
    int16_t invuln, death_time;
    uint32_t age;
    uint64_t hurt_tick;  /* game tick of the last hurt by a mob or player; 0 never */
    bool hurt_by_player; /* that hurt was a player's (loot: killed_by_player) */
    /* AI (mobs.c): the running move goal and look goal */
    uint8_t goal, look;
    int16_t goal_ticks, look_ticks, stuck_ticks;
    double tx, tz;     /* move target */
    double lx, ly, lz; /* look target */
    int32_t look_eid;  /* LookAtPlayerGoal's player, 0 none */
    float forward;     /* this tick's forward input (speed), 0 none */
    bool jump, bumped; /* bumped: a block stopped the walk last tick */
    char *name;        /* CustomName JSON (malloc), NULL none */
    /* tracking (mob_track.c) */
    int32_t cell, cnext, cprev;
    int32_t cx, cz;
    uint32_t held;      /* viewers that have it spawned */
    bool changed;       /* on this tick's changed list */
    int64_t fx, fy, fz; /* relay base: position in 1/4096 blocks as clients hold it */
    int yawp, pitchp, headp;
    uint64_t spawn_tick; /* spawn bundle cached for this tick at spawn_off */
    uint32_t spawn_off, spawn_len;
    /* pending for the next relay */
    bool meta_dirty, impulse, ev_death;
    int8_t ev_damage;  /* 0 none, else 1 + damage type */
    int32_t ev_source; /* its attacker's entity id, 0 none */
    bool ev_swing;     /* Animation 0 (arm swing) at the next relay */
    /* hostile AI (mob_ai.c) */
    bool aggressive;       /* Mob flags 0x04 (arms raised, bow drawn) */
    int32_t target_eid;    /* the player hunted, 0 none */
    int16_t attack_cd;     /* ticks until the next melee attack or shot */
    int16_t unseen;        /* ticks the target was out of sight */
    int16_t repath;        /* ticks until the path may be computed again */
    int16_t see_time;      /* RangedBowAttackGoal.seeTime */
    int16_t draw_ticks;    /* the bow drawn for this many ticks, 0 not drawing */
    uint16_t idle;         /* Mob.noActionTime (despawn) */
    uint16_t path;         /* mob_ai.c's path slot + 1, 0 none */
    uint16_t search;       /* mob_ai.c's search slot + 1, 0 none */
    int32_t ptx, pty, ptz; /* where the target stood when the path was asked for */
    /* projectiles (projectile.c) */
    int32_t owner;     /* the shooter's entity id (Spawn Entity data - 1), 0 none */
    bool in_ground;    /* stuck in a block */
    float base_damage; /* AbstractArrow.baseDamage */
    /* the spawn path and the spawn budget (mobs.c, mob_track.c) */
    bool fresh;                /* made this tick: linked at once, announced by mt_track */
    uint64_t seg_tick;         /* this tick's relay segment of its cell's batch */
    uint32_t seg_off, seg_len; /* (for viewers the spawn budget left behind) */
    /* creeper (mob_creeper.c) */
    int16_t swell;     /* fuse ticks so far, 0..30 */
    int8_t swell_dir;  /* -1 idle, 1 swelling (metadata 16) */
    int32_t cr_target; /* the player it goes for (its own small selector), 0 none */
    int16_t cr_unseen; /* ticks that player was out of sight */
};

extern struct mob *mob_slots;
extern uint32_t mob_top, mob_used, mob_cap;
extern const struct mob_type mob_types[];

static inline const struct mob_type *mob_type_of(const struct mob *m)
{
    return &mob_types[m->row];
}
/* The tracking layer of a type row (its range class) and that class's range in chunks. */
int mob_layer_of(int row);
int mob_layer_range(int layer);
int mob_layer_count(void);

/* mob_track.c */
void mt_track(void); /* cells, viewers, spawns and removals; frees removed slots */
void mt_relay(void); /* per-cell batches delivered to viewers */
/* mob_slots moved or grew to `cap` slots: viewers' bitmaps follow. */
bool mt_grow(uint32_t cap);
void mt_free(void);
/* Frees slot i (mob_track.c calls it once no viewer has the mob). */
void mob_release(uint32_t i);

/* mob_ai.c: target selectors, melee and bow attacks, path following,
 * burning in daylight and despawning for hostile rows */
/* Once a tick before the mobs: the shared pathfinding budget. */
void mai_tick_begin(void);
/* Target selectors (HurtByTarget, NearestAttackableTarget), on the
 * evaluation ticks; true when the attack goal should run. */
bool mai_select(struct mob *m, const struct mob_type *t);
/* The attack goal's tick: looking, attacking; true when the mob should
 * walk toward (wx, wz) at its speed this tick (mobs.c turns and walks). */
bool mai_attack(struct mob *m, const struct mob_type *t, double *wx, double *wz);
/* Sun burning, fire, despawn (Mob.checkDespawn); true when m was removed. */
bool mai_live(struct mob *m, const struct mob_type *t);
/* Whether any player is in the world and not a spectator (vanilla's
 * getNearestPlayer found someone), asked once a tick. */
bool mai_any_player(void);
/* The mob was hurt by player `eid` (HurtByTargetGoal). */
void mai_hurt_by(struct mob *m, int32_t eid);
/* m leaves its slot: its path and search go too. */
void mai_forget(struct mob *m);
void mai_free(void);
/* Searches finished so far and the median and p99 of their time (ns). */
void mai_stats(uint64_t *n, uint32_t *p50, uint32_t *p99);
/* Natural spawning (mob_spawn.c), once a tick after the mobs ran;
 * `hostile` living hostile mobs now. */
void mspawn_tick(uint32_t hostile);
/* Light estimates (mob_spawn.c): sky and block light at a block; whether
 * a block sees the sky; Level.skyDarken now; monsters spawned so far. */
void mspawn_light(int32_t x, int32_t y, int32_t z, int *sky, int *block);
bool mspawn_sees_sky(int32_t x, int32_t y, int32_t z);
int mspawn_darken(void);
uint64_t mspawn_total(void);
/* projectile.c: one tick of an arrow. */
void proj_tick(struct mob *m);
/* The first block with a collision box (unloaded counts) on the segment
 * from (ax, ay, az) along (dx, dy, dz): the fraction of the segment where
 * it starts, 0 when the start is in one, > 1 when there is none. */
double proj_ray_block(double ax, double ay, double az, double dx, double dy, double dz);
/* AbstractSkeleton.performRangedAttack: m shoots an arrow at the player at
 * (tx, ty, tz) (feet) with `power` (BowItem.getPowerForTime). */
void proj_shoot_arrow(struct mob *m, double tx, double ty, double tz, float power);
/* The arrows shot during the mobs' pass are made (after it: mobs_spawn may
 * move mob_slots). */
void proj_flush(void);
/* Shared with mob_ai.c/projectile.c (mobs.c): hurt a mob, and the hurt
 * rule of a hit by a player's or a mob's entity id. */
bool mob_hurt(struct mob *m, int type, float amount, int32_t source_eid, bool by_player);
/* Shared with the goals: a uniform double in [0, 1). */
double mob_rnd(void);
/* The one spawn path (mobs.c): mobs_spawn applies the per-chunk cap
 * (mcserv-max-entities-per-chunk); loading saved entities does not (they
 * were there). */
int32_t mob_spawn_loaded(const struct mob_record *r, char *err, size_t cap);

/* mobs.c, for the per-type files (mob_creeper.c): MoveControl's turn,
 * the yaw that faces (x, z), a player in the game by entity id (NULL). */
float mob_turn(float from, float to, float max);
float mob_yaw_to(const struct mob *m, double x, double z);
const player *mob_player(int32_t eid);

/* mob_track.c: links a new mob into its cell at once (the per-chunk cap
 * counts it the same tick); the mobs in chunk (cx, cz), removed ones until
 * the next tick included. */
void mt_place(struct mob *m, uint32_t slot);
uint32_t mt_count(int32_t cx, int32_t cz);

/* mob_save.c */
void ms_load_start(void); /* first tick: a worker reads entities/ */
void ms_init(void);       /* registers with the store's save rounds */
void ms_free(void);
/* A record of mob m as it would be saved. */
void mob_to_record(const struct mob *m, struct mob_record *r);

#endif
