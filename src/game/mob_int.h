/*
 * mob_int.h — what game/mobs.c (model, AI, physics, combat),
 * game/mob_track.c (cells, tracking, relay) and game/mob_save.c
 * (entities/r.X.Z.mca) share, in the manner of SQLite's fooInt.h. Nothing
 * outside game/mob*.c includes it.
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
};

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

/* mob_save.c */
void ms_load_start(void); /* first tick: a worker reads entities/ */
void ms_init(void);       /* registers with the store's save rounds */
void ms_free(void);
/* A record of mob m as it would be saved. */
void mob_to_record(const struct mob *m, struct mob_record *r);

#endif
