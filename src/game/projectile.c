/*
 * projectile.c — arrows (issue 15), as vanilla 1.20.1's AbstractArrow:
 * records in mobs.c's table (row MOB_AI_ARROW), so they are tracked and
 * relayed through the same interest cells as mobs (mob_track.c sends
 * their Spawn Entity with data = the shooter's id + 1 and the velocity).
 *
 * Shooting (AbstractSkeleton.performRangedAttack): from the shooter's eyes
 * − 0.1 toward the target's feet + a third of its height, raised by 0.2 of
 * the horizontal distance (the drop), at 1.6 blocks a tick with the
 * inaccuracy 14 − 4 × difficulty (Projectile.shoot: each axis of the unit
 * direction + triangle(0, 0.0172275 × inaccuracy)); base damage power × 2
 * + triangle(difficulty × 0.11, 0.57425) (setEnchantmentEffectsFromEntity).
 *
 * One tick (AbstractArrow.tick), flying:
 *   1. the segment from the position to position + velocity is walked
 *      through the blocks (the first with a collision box stops it) and
 *      tested against the players' and mobs' boxes inflated by 0.3
 *      (ProjectileUtil.getEntityHitResult), the shooter excepted;
 *   2. an entity hit costs ceil(speed × base damage) as `arrow` damage
 *      caused by the shooter (game/health.c scales it by difficulty for a
 *      mob's arrow; "was shot by Skeleton"), knockback 0.4 away from the
 *      shooter, and the arrow is removed; a hit that did not land (an
 *      invulnerable target) bounces it back at 0.1 of its speed;
 *   3. a block hit puts it at the hit point, 0.05 back along its motion,
 *      stuck (inGround): it stays 1,200 ticks (its life), and falls again
 *      if the block goes;
 *   4. else it moves; then drag 0.99 (0.6 in water) and gravity 0.05.
 *   The rotation follows the motion. Viewers get its position and
 *   velocity every 20 ticks (EntityType.ARROW's updateInterval) and when
 *   it sticks; clients fly it themselves in between.
 *
 * Invariants:
 *  1. Positions stay finite: the velocity is clamped to ±10 a tick.
 *  2. An arrow never runs AI and takes no damage; it is saved as the
 *     mobs are (a loaded one has no shooter and falls until it sticks).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/combat_table.h"
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/health.h"
#include "game/health_rules.h"
#include "game/mob_int.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/chunk.h"

#define ARROW_GRAVITY  0.05
#define ARROW_DRAG     0.99
#define ARROW_DRAG_H2O 0.6
#define ARROW_LIFE     1200
#define ARROW_SPEED    1.6
#define HIT_INFLATE    0.3
#define MAX_V          10.0
#define PLAYER_HALF    0.3
#define PLAYER_HEIGHT  1.8

static double triangle(double mode, double dev)
{
    return mode + dev * (mob_rnd() - mob_rnd());
}

static void face_motion(struct mob *m)
{
    double h = sqrt(m->vx * m->vx + m->vz * m->vz);
    m->yaw = (float)(atan2(m->vx, m->vz) * (180.0 / M_PI));
    m->pitch = (float)(atan2(m->vy, h) * (180.0 / M_PI));
    m->head_yaw = m->yaw;
}

/* Shots wait here until the mobs' pass is over (proj_flush): making a
 * record may move mob_slots, which the pass is walking. */
#define SHOTS_MAX 1024
static struct shot {
    double x, y, z, vx, vy, vz;
    int32_t owner;
    float base_damage;
} shots[SHOTS_MAX];
static int nshots;

void proj_shoot_arrow(struct mob *m, double tx, double ty, double tz, float power)
{
    if (nshots >= SHOTS_MAX) return; /* more than a thousand shots in a tick: the rest miss */
    struct shot *s = &shots[nshots++];
    s->x = m->x;
    s->y = m->y + entity_types[m->type].height * 0.85 - 0.1;
    s->z = m->z;
    double dx = tx - s->x, dy = ty - s->y, dz = tz - s->z;
    dy += sqrt(dx * dx + dz * dz) * 0.2;
    double len = sqrt(dx * dx + dy * dy + dz * dz);
    if (!(len > 1e-7)) len = 1, dx = 0, dy = 1, dz = 0;
    double inacc = 14 - gamerules_difficulty() * 4;
    s->vx = (dx / len + triangle(0, 0.0172275 * inacc)) * ARROW_SPEED;
    s->vy = (dy / len + triangle(0, 0.0172275 * inacc)) * ARROW_SPEED;
    s->vz = (dz / len + triangle(0, 0.0172275 * inacc)) * ARROW_SPEED;
    s->owner = m->eid;
    s->base_damage = (float)(power * 2.0 + triangle(gamerules_difficulty() * 0.11, 0.57425));
}

void proj_flush(void)
{
    for (int i = 0; i < nshots; i++) {
        const struct shot *s = &shots[i];
        struct mob_record r;
        mob_record_init(&r);
        r.type = ENTITY_TYPE_ARROW;
        r.pos[0] = s->x, r.pos[1] = s->y, r.pos[2] = s->z;
        r.motion[0] = s->vx, r.motion[1] = s->vy, r.motion[2] = s->vz;
        char err[96];
        int32_t eid = mobs_spawn(&r, err, sizeof err); /* the one spawn path (caps, bundling) */
        int32_t slot = eid < 0 ? -1 : mobs_by_eid(eid);
        if (slot < 0) continue;
        struct mob *a = &mob_slots[slot];
        a->owner = s->owner;
        a->base_damage = s->base_damage;
        face_motion(a);
    }
    nshots = 0;
}

double proj_ray_block(double ax, double ay, double az, double dx, double dy, double dz)
{
    int32_t x = (int32_t)floor(ax), y = (int32_t)floor(ay), z = (int32_t)floor(az);
    if (mob_solid_at(NULL, x, y, z)) return 0;
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1, sz = dz > 0 ? 1 : -1;
    double tdx = dx != 0 ? fabs(1.0 / dx) : INFINITY, tdy = dy != 0 ? fabs(1.0 / dy) : INFINITY,
           tdz = dz != 0 ? fabs(1.0 / dz) : INFINITY;
    double tmx = dx != 0 ? (dx > 0 ? x + 1 - ax : ax - x) * tdx : INFINITY;
    double tmy = dy != 0 ? (dy > 0 ? y + 1 - ay : ay - y) * tdy : INFINITY;
    double tmz = dz != 0 ? (dz > 0 ? z + 1 - az : az - z) * tdz : INFINITY;
    int cells = (int)(fabs(dx) + fabs(dy) + fabs(dz)) + 4; /* cells a segment crosses */
    if (cells > 512) cells = 512;
    for (int i = 0; i < cells; i++) {
        double t;
        if (tmx < tmy && tmx < tmz) {
            t = tmx, x += sx, tmx += tdx;
        } else if (tmy < tmz) {
            t = tmy, y += sy, tmy += tdy;
        } else {
            t = tmz, z += sz, tmz += tdz;
        }
        if (t > 1.0) return 2;
        if (mob_solid_at(NULL, x, y, z)) return t;
    }
    return 2;
}

/* The fraction of the segment at which it enters the box, or 2 (slab test). */
static double box_hit(const double a[3], const double d[3], const double lo[3], const double hi[3])
{
    double t0 = 0, t1 = 1;
    for (int k = 0; k < 3; k++) {
        if (fabs(d[k]) < 1e-12) {
            if (a[k] < lo[k] || a[k] > hi[k]) return 2;
            continue;
        }
        double u = (lo[k] - a[k]) / d[k], v = (hi[k] - a[k]) / d[k];
        if (u > v) {
            double s = u;
            u = v, v = s;
        }
        if (u > t0) t0 = u;
        if (v < t1) t1 = v;
        if (t0 > t1) return 2;
    }
    return t0;
}

static bool in_water(double x, double y, double z)
{
    uint16_t st;
    if (world_get_block(&game.world, (int32_t)floor(x), (int32_t)floor(y), (int32_t)floor(z), &st) <
        0)
        return false;
    return block_of_state[st] == block_of_state[BLOCK_WATER];
}

/* Where the shooter is (knockback pushes away from it) and its name for
 * the death message (name may be NULL); the arrow's own place and
 * "Arrow" when the shooter is gone. */
static void owner_pos(const struct mob *a, double *x, double *z, char *name, size_t cap)
{
    *x = a->x, *z = a->z;
    if (name) snprintf(name, cap, "%s", entity_types[ENTITY_TYPE_ARROW].display_name);
    int32_t s = a->owner ? mobs_by_eid(a->owner) : -1;
    if (s < 0) return;
    *x = mob_slots[s].x, *z = mob_slots[s].z;
    if (name) mobs_display_name(s, name, cap);
}

/* The hit: true when the arrow is used up. */
static bool hit_player(struct mob *a, conn *c, double speed)
{
    player *p = c->player;
    int dmg = (int)ceil(fmin(fmax(speed * a->base_damage, 0.0), 1.0e6));
    double ox, oz;
    char name[128];
    owner_pos(a, &ox, &oz, name, sizeof name);
    double px = p->x, pz = p->z;
    if (!health_hurt_by_mob(c, DAMAGE_TYPE_ARROW, (float)dmg, a->owner, a->eid, name)) return false;
    if (!c->closed && p->health > 0) {
        double v[3] = {0, 0, 0};
        hr_knockback(v, 0.4, ox - px, oz - pz, p->on_ground);
        buf_reset(&srv->pkt);
        pkt_cb_entity_velocity(&srv->pkt, p->entity_id, v[0], v[1], v[2]);
        conn_send_pkt(c);
    }
    return true;
}

static bool hit_mob(struct mob *a, struct mob *t, double speed)
{
    int dmg = (int)ceil(fmin(fmax(speed * a->base_damage, 0.0), 1.0e6));
    if (!mob_hurt(t, DAMAGE_TYPE_ARROW, (float)dmg, a->owner, false)) return false;
    double ox, oz;
    owner_pos(a, &ox, &oz, NULL, 0);
    double v[3] = {t->vx, t->vy, t->vz};
    hr_knockback(v, 0.4, ox - t->x, oz - t->z, t->st.on_ground);
    t->vx = v[0], t->vy = v[1], t->vz = v[2];
    t->impulse = true;
    t->resting = false;
    return true;
}

void proj_tick(struct mob *a)
{
    if (a->in_ground) {
        double len = sqrt(a->vx * a->vx + a->vy * a->vy + a->vz * a->vz);
        double ux = len > 0 ? a->vx / len : 0, uy = len > 0 ? a->vy / len : -1,
               uz = len > 0 ? a->vz / len : 0;
        if (!mob_solid_at(NULL, (int32_t)floor(a->x + ux * 0.1), (int32_t)floor(a->y + uy * 0.1),
                          (int32_t)floor(a->z + uz * 0.1))) {
            a->in_ground = false; /* the block went: it falls (shouldFall) */
            a->vx *= mob_rnd() * 0.2, a->vy *= mob_rnd() * 0.2, a->vz *= mob_rnd() * 0.2;
            a->idle = 0;
        } else if (++a->idle >= ARROW_LIFE) {
            a->removed = true;
        }
        return;
    }
    if (a->y < CHUNK_MIN_Y - 64) {
        a->removed = true;
        return;
    }
    a->vx = fmax(fmin(a->vx, MAX_V), -MAX_V);
    a->vy = fmax(fmin(a->vy, MAX_V), -MAX_V);
    a->vz = fmax(fmin(a->vz, MAX_V), -MAX_V);
    double s[3] = {a->x, a->y, a->z}, d[3] = {a->vx, a->vy, a->vz};
    double speed = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double tb = proj_ray_block(s[0], s[1], s[2], d[0], d[1], d[2]);
    double best = tb < 1 ? tb : 1;
    conn *pc = NULL;
    struct mob *pm = NULL;
    for (size_t i = 0; i < game.player_count; i++) {
        conn *c = game.players[i];
        const player *p = c->player;
        if (!p || !p->spawned || !(p->health > 0) || p->gamemode == 3) continue;
        double lo[3] = {p->x - PLAYER_HALF - HIT_INFLATE, p->y - HIT_INFLATE,
                        p->z - PLAYER_HALF - HIT_INFLATE};
        double hi[3] = {p->x + PLAYER_HALF + HIT_INFLATE, p->y + PLAYER_HEIGHT + HIT_INFLATE,
                        p->z + PLAYER_HALF + HIT_INFLATE};
        double t = box_hit(s, d, lo, hi);
        if (t <= best) best = t, pc = c;
    }
    for (uint32_t i = 0; i < mob_top; i++) {
        struct mob *m = &mob_slots[i];
        if (!m->used || m->removed || m->dead || m == a || m->eid == a->owner) continue;
        if (mob_type_of(m)->ai == MOB_AI_ARROW) continue;
        double dx = m->x - s[0], dz = m->z - s[2];
        if (dx * dx + dz * dz > (speed + 4) * (speed + 4)) continue;
        double hw = entity_types[m->type].width / 2.0 + HIT_INFLATE;
        double lo[3] = {m->x - hw, m->y - HIT_INFLATE, m->z - hw};
        double hi[3] = {m->x + hw, m->y + entity_types[m->type].height + HIT_INFLATE, m->z + hw};
        double t = box_hit(s, d, lo, hi);
        if (t <= best) best = t, pm = m, pc = NULL;
    }
    if (pc || pm) {
        bool used = pc ? hit_player(a, pc, speed) : hit_mob(a, pm, speed);
        if (used) {
            a->removed = true;
            return;
        }
        a->vx *= -0.1, a->vy *= -0.1, a->vz *= -0.1; /* deflected */
        a->yaw += 180.0f;
        a->impulse = true;
        return;
    }
    if (tb <= 1) {
        double len = speed > 1e-9 ? speed : 1;
        a->x = s[0] + d[0] * tb - d[0] / len * 0.05;
        a->y = s[1] + d[1] * tb - d[1] / len * 0.05;
        a->z = s[2] + d[2] * tb - d[2] / len * 0.05;
        a->vx = d[0] * (1 - tb), a->vy = d[1] * (1 - tb), a->vz = d[2] * (1 - tb);
        a->in_ground = true;
        a->idle = 0;
        a->moved = true;
        a->impulse = true; /* its resting place (and no motion: mob_track.c) to the viewers */
        return;
    }
    a->x += d[0], a->y += d[1], a->z += d[2];
    a->moved = true;
    double drag = in_water(a->x, a->y, a->z) ? ARROW_DRAG_H2O : ARROW_DRAG;
    a->vx *= drag, a->vy *= drag, a->vz *= drag;
    a->vy -= ARROW_GRAVITY;
    face_motion(a);
    if (a->age % 20 == 0) a->impulse = true; /* trackDelta: the velocity with the position */
}
