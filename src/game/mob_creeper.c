/*
 * mob_creeper.c — the creeper (issue 15): vanilla 1.20.1's Creeper and
 * its goals, on mobs.c's model (mob_int.h).
 *
 * Goals (Creeper.registerGoals), those mcserv has:
 *   target   NearestAttackableTargetGoal<Player> with mustSee: on an even
 *            tick, with chance 1/5 (randomInterval reducedTickDelay(10)),
 *            the nearest player in survival or adventure within the follow
 *            range (16 blocks) whose eyes it sees; hurt by a player with no
 *            target (HurtByTargetGoal), the nearest such player at once.
 *            Kept while alive, in those modes, within 16 blocks and not out
 *            of sight for more than 60 ticks (TargetGoal's unseenMemory).
 *   2 swell  SwellGoal: runs while the swell direction is 1 or the target
 *            is within 3 blocks (distance² < 9); stops walking; each tick
 *            the direction is -1 without a target, beyond 7 blocks
 *            (distance² > 49) or out of sight, else 1.
 *   4 chase  MeleeAttackGoal(1.0): walks at the creeper's speed straight at
 *            the target (turning by at most 90° a tick, jumping when a
 *            block stops it), looking at it. Straight-line by design: the
 *            pathfinding and target selectors of the other mobs replace
 *            this part (mob_creeper_ai's two halves are its seams).
 *   otherwise mobs.c's stroll, look-at-player and look-around run.
 * Not here: AvoidEntityGoal (cats, ocelots: none exist), the fall that
 * adds to the swell, the hiss (mcserv sends no sounds yet).
 *
 * Fuse (Creeper.tick, before the AI, also with NoAI): ignited forces the
 * direction to 1; swell += direction, at least 0; at 30 (maxSwell) the
 * creeper explodes where it stands — power 3, 6 charged (`powered`),
 * Level.ExplosionInteraction.MOB, so mobGriefing decides the blocks — and
 * is removed at once (discard: no death animation, no drops). The swell
 * direction (metadata 16), powered (17) and ignited (18) go to viewers as
 * metadata (mob_track.c write_meta), which is what the client animates.
 *
 * Invariants:
 *  1. cr_target is 0 or the entity id of a player that was in the game at
 *     its last check; it is checked again every tick before use.
 *  2. A removed creeper never ticks again (mobs.c skips removed records).
 */
#include "game/mob_creeper.h"

#include <math.h>
#include <stdio.h>

#include "data/entities.h"
#include "data/entity_table.h"
#include "game/explosion.h"
#include "game/explosion_rules.h"
#include "game/game.h"
#include "game/mob_int.h"

#define MAX_SWELL        30   /* Creeper.maxSwell */
#define EXPLOSION_POWER  3.0f /* Creeper.explosionRadius */
#define FOLLOW_RANGE     16.0 /* Monster's default Attributes.FOLLOW_RANGE */
#define SWELL_START_SQ   9.0  /* SwellGoal.canUse: within 3 blocks */
#define SWELL_STOP_SQ    49.0 /* SwellGoal.tick: beyond 7 blocks */
#define UNSEEN_MEMORY    60   /* TargetGoal.unseenMemoryTicks */
#define TARGET_CHANCE    5    /* 1 in reducedTickDelay(10) per evaluation */
#define HURT_MEMORY      100  /* a hurt this recent makes it turn on a player */
#define PLAYER_EYES      1.62
#define PLAYER_SURVIVAL  0
#define PLAYER_ADVENTURE 2

static uint64_t rng = 0x6a09e667f3bcc909ull;

static double eye_of(const struct mob *m)
{
    return m->y + entity_types[m->type].height * 0.85;
}

static bool targetable(const player *p)
{
    return p && p->spawned && p->health > 0 &&
           (p->gamemode == PLAYER_SURVIVAL || p->gamemode == PLAYER_ADVENTURE);
}

static double dist2(const struct mob *m, const player *p)
{
    double dx = p->x - m->x, dy = p->y - m->y, dz = p->z - m->z;
    return dx * dx + dy * dy + dz * dz;
}

static bool sees(const struct mob *m, const player *p)
{
    double a[3] = {m->x, eye_of(m), m->z}, b[3] = {p->x, p->y + PLAYER_EYES, p->z};
    return ex_line_clear(mob_solid_at, NULL, a, b);
}

/* The nearest targetable player within the follow range; seen: with line of sight. */
static const player *nearest(const struct mob *m, bool must_see)
{
    const player *best = NULL;
    double bd = FOLLOW_RANGE * FOLLOW_RANGE;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (!targetable(p) || game.players[i]->closed) continue;
        double d = dist2(m, p);
        if (d <= bd && (!must_see || sees(m, p))) bd = d, best = p;
    }
    return best;
}

/* The target selector: the player to go for, NULL none (invariant 1). */
static const player *select_target(struct mob *m)
{
    const player *p = m->cr_target ? mob_player(m->cr_target) : NULL;
    if (p && (!targetable(p) || dist2(m, p) > FOLLOW_RANGE * FOLLOW_RANGE)) p = NULL;
    if (p) {
        m->cr_unseen = sees(m, p) ? 0 : (int16_t)(m->cr_unseen + 1);
        if (m->cr_unseen > UNSEEN_MEMORY) p = NULL;
    }
    if (!p && m->age % 2 == 0) {
        bool hurt =
            m->hurt_by_player && m->hurt_tick && game.tick_count - m->hurt_tick < HURT_MEMORY;
        if (hurt)
            p = nearest(m, false);
        else if ((int)(mob_rand(&rng) * TARGET_CHANCE) == 0)
            p = nearest(m, true);
        m->cr_unseen = 0;
    }
    m->cr_target = p ? p->entity_id : 0;
    return p;
}

static void set_dir(struct mob *m, int8_t dir)
{
    if (m->swell_dir == dir) return;
    m->swell_dir = dir;
    m->meta_dirty = true;
}

/* The head and pitch toward the target's eyes (LookControl, as mobs.c). */
static void look_at(struct mob *m, const player *p)
{
    m->head_yaw = mob_turn(m->head_yaw, mob_yaw_to(m, p->x, p->z), 10.0f);
    double h = sqrt((p->x - m->x) * (p->x - m->x) + (p->z - m->z) * (p->z - m->z));
    float pitch = (float)(-atan2(p->y + PLAYER_EYES - eye_of(m), h) * (180.0 / M_PI));
    m->pitch = mob_turn(m->pitch, pitch, 40.0f);
}

bool mob_creeper_ai(struct mob *m)
{
    const player *p = select_target(m);
    bool swelling = m->swell_dir > 0 || (p && dist2(m, p) < SWELL_START_SQ);
    if (!swelling && !p) return false;             /* mobs.c's stroll and looks */
    m->goal = 0, m->look = 0;                      /* GOAL_NONE, LOOK_NONE: this tick is ours */
    m->jump = m->in_water && mob_rand(&rng) < 0.8; /* FloatGoal */
    m->forward = 0;
    if (swelling) { /* SwellGoal: stands, fuses while it sees the target within 7 blocks */
        set_dir(m, p && dist2(m, p) <= SWELL_STOP_SQ && sees(m, p) ? 1 : -1);
        if (p) look_at(m, p);
    } else { /* MeleeAttackGoal's approach, in a straight line */
        m->yaw = mob_turn(m->yaw, mob_yaw_to(m, p->x, p->z), 90.0f);
        m->forward = mob_type_of(m)->speed;
        if (m->bumped && m->st.on_ground) m->jump = true;
        look_at(m, p);
    }
    m->bumped = false;
    float rel = m->head_yaw - m->yaw; /* BodyRotationControl: the head within 75° */
    while (rel >= 180.0f) rel -= 360.0f;
    while (rel < -180.0f) rel += 360.0f;
    if (rel > 75.0f) m->head_yaw = m->yaw + 75.0f;
    if (rel < -75.0f) m->head_yaw = m->yaw - 75.0f;
    if (m->forward > 0 || m->jump) m->resting = false;
    return true;
}

bool mob_creeper_tick(struct mob *m)
{
    if (m->st.ignited) set_dir(m, 1);
    m->swell = (int16_t)(m->swell + m->swell_dir);
    if (m->swell < 0) m->swell = 0;
    if (m->swell < MAX_SWELL) return false;
    m->swell = MAX_SWELL;
    /* Creeper.explodeCreeper: dead, explode, discard */
    m->removed = true;
    char name[MOB_NAME_MAX];
    mobs_display_name((int32_t)(m - mob_slots), name, sizeof name);
    struct explosion e = {
        .x = m->x,
        .y = m->y,
        .z = m->z,
        .power = EXPLOSION_POWER * (m->st.powered ? 2.0f : 1.0f),
        .cause = EX_CAUSE_MOB,
        .source_eid = m->eid,
        .name = name,
    };
    explosion_run(&e);
    return true;
}
