/*
 * mob_ai.c — what hostile mobs do beyond the passive goals of mobs.c
 * (issue 15), as vanilla 1.20.1's Zombie, AbstractSkeleton and Spider
 * register them:
 *
 *   target selectors (evaluated on mobs.c's goal ticks, every 2nd tick)
 *     1 HurtByTargetGoal      the player that hurt it becomes the target
 *     2 NearestAttackableTargetGoal<Player>  with chance 1/5 per
 *                             evaluation (reducedTickDelay(10)): the
 *                             nearest player in survival or adventure
 *                             within the follow range (4 blocks up or
 *                             down, as getTargetSearchArea) that it can
 *                             see; kept while alive, in those game modes,
 *                             within the follow range and seen at least
 *                             every 60 ticks (unseenMemoryTicks).
 *                             Spiders pick one only in the dark
 *                             (SpiderTargetGoal: brightness < 0.5).
 *   goals
 *     2 MeleeAttackGoal (zombie, spider): walk the path to the target
 *       (repathed every 4..10 ticks, +5 beyond 16 blocks, +10 beyond 32,
 *       when the target moved a block or with chance 0.05); attack when
 *       the squared distance is within (2 × width)² + the target's width
 *       (getAttackReachSqr), every 20 ticks: the arm swing, the type's
 *       attack damage as mob_attack through game/health.c (difficulty
 *       scaling, armour, invulnerability, "was slain by Zombie"),
 *       knockback 0.4 away from the mob. Spiders leap (LeapAtTargetGoal:
 *       within 2..4 blocks, on the ground, chance 1/5: 0.4 up and toward).
 *     4 RangedBowAttackGoal (skeleton): walk toward the target until it is
 *       within 15 blocks and seen for 20 ticks; draw the bow (the hand
 *       active and the aggressive flag shown) for 20 ticks while it sees
 *       the target, then shoot (projectile.c) and wait 40 ticks (20 on
 *       hard); it stops drawing when the target was unseen for 60 ticks.
 *   every tick (mai_live)
 *     - daytime burning (Zombie / AbstractSkeleton.aiStep): when the sky
 *       is darkened by less than 4 (Level.isDay), not raining, not in
 *       water, with chance (brightness − 0.4) × 2 / 30 and the sky seen
 *       from the head: 8 seconds of fire; fire costs 1 every 20 ticks;
 *     - Mob.checkDespawn: on peaceful every hostile mob is removed; a
 *       mob neither named nor persistent is removed at once beyond 128
 *       blocks of every player, with chance 1/800 a tick beyond 32 once
 *       idle for 600 ticks (noActionTime, reset within 32 blocks).
 *
 * Pathfinding (game/pathfind.h): a mob asks for a path; at most SEARCHES
 * searches run at once, all together expanding at most NODES_PER_TICK
 * nodes a tick (mai_tick_begin), each bounded by follow range × 16 nodes.
 * A finished search leaves its path in one of PATHS slots; the mob walks
 * it node by node (GroundPathNavigation: the next node when within
 * max(width / 2, 0.75 − width / 2) horizontally and 1 vertically), and
 * straight at the target while it has none. The time spent per search
 * (across ticks) is kept for the median and p99 (logged at shutdown).
 *
 * Invariants:
 *  1. A mob's path and search slots name it by entity id; a slot whose mob
 *     is gone is freed (mai_forget, or when a search finishes).
 *  2. Bounded: SEARCHES × sizeof(struct pf_search) and PATHS paths,
 *     allocated once on first use.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/combat_table.h"
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/health.h"
#include "game/health_rules.h"
#include "game/mob_int.h"
#include "game/pathfind.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/chunk.h"
#include "world/world.h"

#define SEARCHES       8
#define NODES_PER_TICK 4096
#define PATHS          1024
#define SAMPLES        1024
#define PLAYER_EYE     1.62
#define PLAYER_WIDTH   0.6
#define PLAYER_HEIGHT  1.8
#define UNSEEN_MEMORY  60
#define ATTACK_TICKS   20
#define BOW_RADIUS     15.0
#define BOW_DRAW       20
#define SIGHT_MAX      128.0
#define DESPAWN_FAR    128.0
#define DESPAWN_NEAR   32.0
#define DESPAWN_IDLE   600
#define DESPAWN_CHANCE 800
#define GM_SURVIVAL    0
#define GM_ADVENTURE   2

struct search_slot {
    bool busy;
    int32_t eid;
    uint32_t slot;
    uint64_t ns;
};

struct path_slot {
    int32_t eid; /* 0 free */
    int next;    /* index of the next point to walk to */
    struct pf_path p;
};

static struct pf_search *searches;
static struct search_slot sinfo[SEARCHES];
static struct path_slot *paths;
static uint32_t samples[SAMPLES];
static int nsamples;
static uint64_t searches_done, nodes_total;
static int next_search;

static bool tables(void)
{
    if (!searches) searches = calloc(SEARCHES, sizeof *searches);
    if (!paths) paths = calloc(PATHS, sizeof *paths);
    return searches && paths;
}

static conn *conn_of(int32_t eid)
{
    for (size_t i = 0; i < game.player_count; i++) {
        conn *c = game.players[i];
        if (c->player && c->player->entity_id == eid) return c;
    }
    return NULL;
}

static double eye_of(const struct mob *m)
{
    return m->y + entity_types[m->type].height * 0.85;
}

/* ------------------------------------------------------------ sight */

/* Sensing.hasLineOfSight: the segment from the mob's eyes to the player's
 * meets no block with a collision box (projectile.c's voxel walk). */
static bool sees(const struct mob *m, const player *p)
{
    double ax = m->x, ay = eye_of(m), az = m->z;
    double dx = p->x - ax, dy = p->y + PLAYER_EYE - ay, dz = p->z - az;
    if (dx * dx + dy * dy + dz * dz > SIGHT_MAX * SIGHT_MAX) return false;
    return proj_ray_block(ax, ay, az, dx, dy, dz) > 1.0;
}

static bool huntable(const player *p)
{
    return p && p->spawned && p->health > 0 &&
           (p->gamemode == GM_SURVIVAL || p->gamemode == GM_ADVENTURE);
}

/* The spider's mood: dark (getLightLevelDependentMagicValue < 0.5, i.e. a
 * raw brightness of 8 or less) where it stands; estimated only when a
 * player to hunt is there. */
static bool dark_here(struct mob *m)
{
    int sky, blk;
    mspawn_light((int32_t)floor(m->x), (int32_t)floor(m->y + 0.5), (int32_t)floor(m->z), &sky,
                 &blk);
    int raw = sky - mspawn_darken();
    if (blk > raw) raw = blk;
    return raw <= 8;
}

/* ------------------------------------------------------------ targets */

void mai_hurt_by(struct mob *m, int32_t eid)
{
    const struct mob_type *t = mob_type_of(m);
    if (t->ai == MOB_AI_PASSIVE || t->ai == MOB_AI_ARROW || !eid) return;
    conn *c = conn_of(eid);
    if (!c || !huntable(c->player)) return;
    m->target_eid = eid;
    m->unseen = 0;
}

static const player *nearest_target(const struct mob *m, const struct mob_type *t)
{
    const player *best = NULL;
    double bd = (double)t->follow * t->follow;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (!huntable(p)) continue;
        double dx = p->x - m->x, dy = p->y - m->y, dz = p->z - m->z;
        if (fabs(dx) > t->follow || fabs(dz) > t->follow || fabs(dy) > 4.0) continue;
        double d = dx * dx + dy * dy + dz * dz;
        if (d < bd && sees(m, p)) bd = d, best = p;
    }
    return best;
}

bool mai_select(struct mob *m, const struct mob_type *t)
{
    if (t->ai == MOB_AI_ARROW || m->st.no_ai) return false;
    if (m->target_eid) { /* TargetGoal.canContinueToUse */
        conn *c = conn_of(m->target_eid);
        const player *p = c ? c->player : NULL;
        bool keep = huntable(p);
        if (keep) {
            double dx = p->x - m->x, dy = p->y - m->y, dz = p->z - m->z;
            keep = dx * dx + dy * dy + dz * dz <= (double)t->follow * t->follow;
        }
        if (keep) {
            if (sees(m, p))
                m->unseen = 0;
            else if ((m->unseen += 2) > UNSEEN_MEMORY)
                keep = false;
        }
        if (!keep) {
            m->target_eid = 0;
            if (m->aggressive) m->aggressive = false, m->meta_dirty = true;
            m->draw_ticks = 0;
        }
    }
    if (!m->target_eid && (int)(mob_rnd() * 5) == 0) {
        const player *p = nearest_target(m, t);
        if (p && t->ai == MOB_AI_SPIDER && !dark_here(m)) p = NULL;
        if (p) {
            m->target_eid = p->entity_id;
            m->unseen = 0;
            m->repath = 0;
            m->ptx = INT32_MIN;
        }
    }
    return m->target_eid != 0;
}

/* ------------------------------------------------------------ paths */

static uint8_t danger[BLOCK_COUNT];
static bool danger_ready;

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Blocks a walking mob never enters or stands on (WalkNodeEvaluator's
 * LAVA, DAMAGE_FIRE, DAMAGE_OTHER, and FENCE: taller than a jump). */
static void danger_init(void)
{
    if (danger_ready) return;
    danger_ready = true;
    static const char *const names[] = {
        "lava",     "fire",          "soul_fire",   "cactus",     "magma_block", "sweet_berry_bush",
        "campfire", "soul_campfire", "powder_snow", "wither_rose"};
    for (int b = 0; b < BLOCK_COUNT; b++) {
        const char *n = block_info[b].name;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strcmp(n, names[k]) == 0) danger[b] = 1;
        if (ends_with(n, "_fence") || ends_with(n, "_wall") || ends_with(n, "_fence_gate"))
            danger[b] = 1;
    }
}

static enum pf_block pf_block_at(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    if (y < CHUNK_MIN_Y) return PF_SOLID;
    if (y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return PF_OPEN;
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return PF_UNLOADED;
    int b = block_of_state[st];
    if (danger[b]) return PF_DANGER;
    return block_info[b].flags & BLOCK_FLAG_SOLID ? PF_SOLID : PF_OPEN;
}

static void drop_path(struct mob *m)
{
    if (m->path && paths && paths[m->path - 1].eid == m->eid) paths[m->path - 1].eid = 0;
    m->path = 0;
}

static void ask_path(struct mob *m, const struct mob_type *t, const player *p)
{
    if (m->search || !tables()) return;
    for (int k = 0; k < SEARCHES; k++) {
        int i = (next_search + k) % SEARCHES;
        if (sinfo[i].busy) continue;
        danger_init();
        int32_t from[3] = {(int32_t)floor(m->x), (int32_t)floor(m->y + 0.01), (int32_t)floor(m->z)};
        int32_t to[3] = {(int32_t)floor(p->x), (int32_t)floor(p->y + 0.01), (int32_t)floor(p->z)};
        int height = (int)ceil(entity_types[m->type].height);
        pf_start(&searches[i], pf_block_at, NULL, from, to, height, 1.5f, (int)(t->follow * 16));
        sinfo[i] = (struct search_slot){true, m->eid, (uint32_t)(m - mob_slots), 0};
        m->search = (uint16_t)(i + 1);
        m->ptx = to[0], m->pty = to[1], m->ptz = to[2];
        next_search = i + 1;
        return;
    }
}

static void search_done(int i)
{
    struct search_slot *si = &sinfo[i];
    si->busy = false;
    searches_done++;
    nodes_total += (uint64_t)searches[i].visited;
    samples[nsamples++ % SAMPLES] = (uint32_t)(si->ns > UINT32_MAX ? UINT32_MAX : si->ns);
    if (si->slot >= mob_top) return;
    struct mob *m = &mob_slots[si->slot];
    if (!m->used || m->eid != si->eid || m->search != i + 1) return;
    m->search = 0;
    int k = m->path ? m->path - 1 : -1;
    if (k < 0 || paths[k].eid != m->eid) {
        k = -1;
        for (int j = 0; j < PATHS; j++)
            if (!paths[j].eid) {
                k = j;
                break;
            }
        if (k < 0) return; /* no room: it walks straight */
    }
    paths[k].eid = m->eid;
    paths[k].next = 0;
    pf_result(&searches[i], &paths[k].p);
    m->path = (uint16_t)(k + 1);
}

void mai_tick_begin(void)
{
    if (!searches) return;
    int budget = NODES_PER_TICK;
    for (int k = 0; k < SEARCHES && budget > 0; k++) {
        int i = (next_search + k) % SEARCHES;
        if (!sinfo[i].busy) continue;
        uint64_t t0 = clock_ns();
        budget -= pf_step(&searches[i], budget);
        sinfo[i].ns += clock_ns() - t0;
        if (searches[i].done) search_done(i);
    }
}

void mai_forget(struct mob *m)
{
    drop_path(m);
    if (m->search && searches && sinfo[m->search - 1].eid == m->eid)
        sinfo[m->search - 1].busy = false;
    m->search = 0;
}

/* The point to walk to: the path's next node, or the target itself. */
static void waypoint(struct mob *m, const player *p, double *wx, double *wz)
{
    *wx = p->x, *wz = p->z;
    if (!m->path || !paths || paths[m->path - 1].eid != m->eid) return;
    struct path_slot *ps = &paths[m->path - 1];
    double w = entity_types[m->type].width;
    double maxd = w > 0.75 ? w / 2.0 : 0.75 - w / 2.0;
    while (ps->next < ps->p.n) {
        double px = ps->p.pts[ps->next][0] + 0.5, pz = ps->p.pts[ps->next][2] + 0.5;
        if (fabs(m->x - px) < maxd && fabs(m->z - pz) < maxd &&
            fabs(m->y - ps->p.pts[ps->next][1]) < 1.0)
            ps->next++;
        else
            break;
    }
    if (ps->next >= ps->p.n) {
        drop_path(m); /* walked it: straight on from here, a new one comes at the repath */
        return;
    }
    *wx = ps->p.pts[ps->next][0] + 0.5, *wz = ps->p.pts[ps->next][2] + 0.5;
}

/* Walks toward p along the path, repathing as MeleeAttackGoal does: true
 * with the point to walk to in (wx, wz). */
static bool chase(struct mob *m, const struct mob_type *t, const player *p, double d2, double *wx,
                  double *wz)
{
    if (--m->repath <= 0) {
        double mx = p->x - (m->ptx + 0.5), my = p->y - m->pty, mz = p->z - (m->ptz + 0.5);
        if (m->ptx == INT32_MIN || mx * mx + my * my + mz * mz >= 1.0 || mob_rnd() < 0.05 ||
            !m->path)
            ask_path(m, t, p);
        m->repath = (int16_t)(4 + (int)(mob_rnd() * 7));
        if (d2 > 1024.0)
            m->repath += 10;
        else if (d2 > 256.0)
            m->repath += 5;
    }
    waypoint(m, p, wx, wz);
    double hx = *wx - m->x, hz = *wz - m->z;
    return m->path || hx * hx + hz * hz >= 0.36; /* at the target: no closer */
}

static void mob_name(const struct mob *m, char *out, size_t cap)
{
    mobs_display_name((int32_t)(m - mob_slots), out, cap);
}

/* Mob.doHurtTarget against a player. */
static void melee(struct mob *m, const struct mob_type *t, conn *c)
{
    player *p = c->player;
    char name[128];
    mob_name(m, name, sizeof name);
    m->ev_swing = true;
    double px = p->x, pz = p->z;
    bool fresh = health_hurt_by_mob(c, DAMAGE_TYPE_MOB_ATTACK, t->damage, m->eid, 0, name);
    if (!fresh || c->closed || !(p->health > 0)) return;
    /* Zombie.doHurtTarget: a burning zombie sets its target on fire with
     * chance 0.3 × difficulty, for 2 × difficulty seconds */
    int diff = gamerules_difficulty();
    if (m->type == ENTITY_TYPE_ZOMBIE && m->st.fire > 0 && mob_rnd() < 0.3 * diff &&
        p->hp.fire_ticks < 40 * diff)
        p->hp.fire_ticks = 40 * diff;
    double v[3] = {0, 0, 0};
    hr_knockback(v, 0.4, m->x - px, m->z - pz, p->on_ground);
    buf_reset(&srv->pkt);
    pkt_cb_entity_velocity(&srv->pkt, p->entity_id, v[0], v[1], v[2]);
    conn_send_pkt(c);
}

static bool bow(struct mob *m, const struct mob_type *t, const player *p, double d2, double *wx,
                double *wz)
{
    bool walk = false;
    bool los = sees(m, p);
    if (los != (m->see_time > 0)) m->see_time = 0;
    if (los)
        m->see_time++;
    else
        m->see_time--;
    if (d2 <= BOW_RADIUS * BOW_RADIUS && m->see_time >= 20)
        drop_path(m); /* navigation.stop() */
    else
        walk = chase(m, t, p, d2, wx, wz);
    if (m->draw_ticks > 0) {
        if (!los && m->see_time < -60) {
            m->draw_ticks = 0;
            m->meta_dirty = true;
        } else {
            m->draw_ticks++;
            if (los && m->draw_ticks > BOW_DRAW) {
                float f = (float)(m->draw_ticks - 1) / 20.0f; /* BowItem.getPowerForTime */
                f = (f * f + f * 2.0f) / 3.0f;
                if (f > 1.0f) f = 1.0f;
                proj_shoot_arrow(m, p->x, p->y + PLAYER_HEIGHT / 3.0, p->z, f);
                m->draw_ticks = 0;
                m->meta_dirty = true;
                m->attack_cd = gamerules_difficulty() == 3 ? 20 : 40;
            }
        }
    } else if (--m->attack_cd <= 0 && m->see_time >= -60) {
        m->draw_ticks = 1; /* startUsingItem */
        m->meta_dirty = true;
    }
    return walk;
}

bool mai_attack(struct mob *m, const struct mob_type *t, double *wx, double *wz)
{
    conn *c = m->target_eid ? conn_of(m->target_eid) : NULL;
    if (!c || !huntable(c->player)) {
        m->goal = GOAL_NONE;
        m->target_eid = 0;
        drop_path(m);
        return false;
    }
    const player *p = c->player;
    if (!m->aggressive) m->aggressive = true, m->meta_dirty = true; /* setAggressive(true) */
    m->look = LOOK_TARGET;
    m->look_ticks = 2;
    m->lx = p->x, m->ly = p->y + PLAYER_EYE, m->lz = p->z;
    double dx = p->x - m->x, dy = p->y - m->y, dz = p->z - m->z;
    double d2 = dx * dx + dy * dy + dz * dz;
    m->idle = 0;
    if (t->ai == MOB_AI_BOW) return bow(m, t, p, d2, wx, wz);
    bool walk = chase(m, t, p, d2, wx, wz);
    if (m->attack_cd > 0) m->attack_cd--;
    double w = entity_types[m->type].width * 2.0;
    double reach = w * w + PLAYER_WIDTH; /* getAttackReachSqr */
    if (d2 <= reach && m->attack_cd <= 0) {
        m->attack_cd = ATTACK_TICKS;
        melee(m, t, c);
        return walk;
    }
    /* LeapAtTargetGoal (spider): within 2..4 blocks, on the ground, 1 in 5 */
    if (t->ai == MOB_AI_SPIDER && m->st.on_ground && d2 >= 4.0 && d2 <= 16.0 &&
        (int)(mob_rnd() * 5) == 0) {
        double h = sqrt(dx * dx + dz * dz);
        if (h > 1e-7) {
            m->vx = dx / h * 0.4 + m->vx * 0.2;
            m->vz = dz / h * 0.4 + m->vz * 0.2;
        }
        m->vy = 0.4;
        m->impulse = true;
        m->resting = false;
    }
    return walk;
}

/* ------------------------------------------------------------ every tick */

bool mai_any_player(void)
{
    static uint64_t stamp;
    static bool any;
    if (stamp != game.tick_count + 1) {
        stamp = game.tick_count + 1;
        any = false;
        for (size_t i = 0; i < game.player_count && !any; i++) {
            const player *p = game.players[i]->player;
            any = p && p->spawned && p->gamemode != 3;
        }
    }
    return any;
}

static void sun(struct mob *m)
{
    int darken = mspawn_darken();
    if (darken >= 4 || game.raining || m->in_water) return; /* Level.isDay, isInWaterRainOrBubble */
    float l = (float)(15 - darken) / 15.0f;
    float br = l / (4.0f - 3.0f * l); /* the overworld's brightness curve */
    if (!(br > 0.5f) || !(mob_rnd() * 30.0 < (br - 0.4f) * 2.0f)) return;
    if (!mspawn_sees_sky((int32_t)floor(m->x), (int32_t)floor(eye_of(m)), (int32_t)floor(m->z)))
        return;
    if (m->st.fire < 160) m->st.fire = 160; /* setSecondsOnFire(8) */
}

bool mai_live(struct mob *m, const struct mob_type *t)
{
    bool hostile = entity_types[m->type].category == ENTITY_CAT_HOSTILE;
    if (hostile && gamerules_difficulty() == 0) { /* shouldDespawnInPeaceful */
        m->removed = true;
        return true;
    }
    if (m->idle < UINT16_MAX) m->idle++;
    if (hostile && !m->st.persistent && !m->name) {
        if (mai_any_player()) { /* the two distances of Mob.checkDespawn */
            if (!ent_player_within(m->x, m->y, m->z, DESPAWN_FAR)) {
                m->removed = true;
                return true;
            }
            bool near = ent_player_within(m->x, m->y, m->z, DESPAWN_NEAR);
            if (m->idle > DESPAWN_IDLE && (int)(mob_rnd() * DESPAWN_CHANCE) == 0 && !near) {
                m->removed = true;
                return true;
            }
            if (near) m->idle = 0;
        }
    }
    bool burning = m->st.fire > 0;
    if (t->sun_burns && !m->st.no_ai) sun(m);
    if (m->st.fire > 0) { /* Entity.baseTick */
        if (m->in_water) {
            m->st.fire = 0;
        } else {
            if (m->st.fire % 20 == 0) mob_hurt(m, DAMAGE_TYPE_ON_FIRE, 1.0f, 0, false);
            if (m->st.fire > 0) m->st.fire--;
        }
    }
    if ((m->st.fire > 0) != burning) m->meta_dirty = true; /* the burning flag */
    return m->removed;
}

void mai_stats(uint64_t *n, uint32_t *p50, uint32_t *p99)
{
    static uint32_t tmp[SAMPLES];
    int k = nsamples < SAMPLES ? nsamples : SAMPLES;
    memcpy(tmp, samples, (size_t)k * sizeof *tmp);
    pf_percentiles(tmp, k, p50, p99);
    *n = searches_done;
}

void mai_free(void)
{
    if (searches_done || mspawn_total()) {
        uint64_t n;
        uint32_t p50, p99;
        mai_stats(&n, &p50, &p99);
        log_info("Mobs: %llu pathfinding searches (%llu nodes), median %.1f us, p99 %.1f us; "
                 "%llu monsters spawned naturally",
                 (unsigned long long)n, (unsigned long long)nodes_total, p50 / 1000.0, p99 / 1000.0,
                 (unsigned long long)mspawn_total());
    }
    free(searches);
    free(paths);
    searches = NULL;
    paths = NULL;
    memset(sinfo, 0, sizeof sinfo);
    nsamples = 0;
    searches_done = nodes_total = 0;
}
