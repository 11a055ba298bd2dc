/*
 * ent_internal.h — what game/entities.c (tracking, relay) and
 * game/ent_actions.c (what a player does that others see: swings, sneaking,
 * game mode, death and respawn) share, in the manner of SQLite's fooInt.h.
 * Nothing outside game/ent*.c includes it; the rest of the server uses
 * game/entities.h.
 *
 * Invariants (the full list is in entities.c):
 *  1. A tracked player is one struct ent in a slot of the slot table; its
 *     `p` and `c` are NULL once it left (ent_leave), and only `leaving`,
 *     `slot`, `eid` and the viewer-side fields are read after that.
 *  2. Pending changes (anims, status, the *_dirty flags, flags and pose)
 *     are set by the actions and consumed by the next relay of the entity.
 */
#ifndef MC_ENT_INTERNAL_H
#define MC_ENT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "game/player.h"
#include "net/conn.h"
#include "proto/packets.h"

#define ENT_DEATH_REMOVE_TICKS 20 /* vanilla LivingEntity.tickDeath */
#define ENT_SPECTATOR          3
#define ENT_POSE_STANDING      0
#define ENT_POSE_SLEEPING      2 /* issue 21: beds */
#define ENT_POSE_CROUCHING     5
#define ENT_ANIM_WAKE          0x04 /* anims bit: animation 2, leave bed */
#define ENT_FLAG_ON_FIRE       0x01
#define ENT_FLAG_CROUCHING     0x02
#define ENT_FLAG_SPRINTING     0x08
#define ENT_EQUIP_SLOTS        6

/* Entity data 14, the sleeping position: the bed's head while p sleeps,
 * else absent (issue 21). */
static inline struct pkt_meta ent_sleeping_pos_meta(const player *p)
{
    return (struct pkt_meta){.index = 14,
                             .type = PKT_META_OPT_POS,
                             .i = p->bed.sleeping ? 1 : 0,
                             .pos = {p->bed.x, p->bed.y, p->bed.z}};
}

struct ent {
    /* Lines 0-2: what the three passes of every tick read of an entity that
     * did nothing (cells, tracking, relay: entities.c), together. */
    conn *c;     /* NULL once left */
    player *p;   /* NULL once left */
    int32_t eid; /* the player's entity id, kept after it left */
    uint32_t slot;
    bool leaving; /* left; removed by the next roster phase (ent_tick_leaves) */
    /* world presence */
    bool present;   /* in a cell: alive, or dead for less than 20 ticks */
    bool respawned; /* destroy on every client before spawning again */
    bool changed;   /* on this tick's changed list */
    int death_ticks;
    int32_t cell; /* index into cells, -1 none */
    int32_t cnext, cprev;
    int32_t cx, cz;
    uint32_t held; /* clients that have it spawned; 0: the base follows the player */
    /* The chunk its viewers last judged it in (entities.c invariant 7). */
    int32_t tr_cx, tr_cz;
    bool tr_valid;
    uint8_t layer; /* 0 seen by all, 1 by spectators only */
    /* pending for the next update */
    uint8_t anims; /* bit 0 main-hand swing, bit 1 off-hand swing, ENT_ANIM_WAKE */
    bool meta_dirty, health_dirty, looks_dirty;
    int8_t status; /* entity event, 0 none */
    uint8_t flags, pose;
    bool was_asleep; /* lay in a bed since the last metadata relay (issue 21) */
    uint32_t age;
    /* viewer side: the interest last scanned (entities.c invariant 3) */
    int32_t v_cx, v_cz;
    int v_vd;
    uint64_t v_chunks;
    bool v_spect, v_init, rescan;
    bool capped; /* mcserv-max-tracked-players left visible players out */
    uint64_t rescanned_tick;
    /* relay base: what every viewer's client holds (entities.c invariant 5) */
    int64_t fx, fy, fz; /* position in 1/4096 blocks, as the client encodes it */
    int yawp, pitchp, headp;
    double lx, ly, lz;    /* the player's position at its last update */
    int32_t latency_sent; /* tab-list latency every client was told */
    int32_t death_x, death_y, death_z;
    struct pkt_equipment equip[ENT_EQUIP_SLOTS];
    /* this tick's segment in its cell's batch */
    uint32_t seg_off, seg_len;
    uint64_t seg_tick;
    uint64_t *seen; /* bit s: entity s is spawned on this viewer's client */
    uint32_t nseen; /* bits set in seen */
    int32_t *destroy;
    uint32_t ndestroy, destroy_cap;
    /* spawn packets (one bundle), encoded once per tick when needed */
    buf_t spawn;
    uint64_t spawn_tick;
    uint64_t mark;
};

/* Puts the relay base at the player's current state (join, respawn). */
void ent_base_reset(struct ent *e);
/* The six equipment slots from the inventory: main hand, off hand, feet, legs, chest, head. */
void ent_equipment_of(const player *p, struct pkt_equipment *out);
/* Puts e on this tick's changed list: its visibility is checked against every viewer. */
void ent_mark_changed(struct ent *e);

#endif
