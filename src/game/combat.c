/*
 * combat.c — players attacking players and mobs (game/combat.h), as vanilla 1.20.1.
 *
 * Rules:
 *  - Interact with type 1 (attack) names an entity id; a player in the
 *    game or a mob is a target (item entities and unknown ids: nothing
 *    happens). An attack on oneself is refused and logged (vanilla disconnects with
 *    multiplayer.disconnect.invalid_entity_attacked; docs/gameplay.md).
 *  - Reach (handleInteract): the squared distance from the attacker's eyes
 *    to the target's box (0.6 × 1.8 × 0.6) must be under 36; farther
 *    attacks are ignored. A dead attacker or target, or a spectator
 *    attacker, does nothing.
 *  - Damage (Player.attack): the held item's attack damage (1 with a bare
 *    hand; data/combat_table.h weapon_table) times 0.2 + 0.8 s², where s is
 *    the attack strength: ticks since the last swing or item change against
 *    20 / the item's attack speed (4 bare-handed), read with half a tick's
 *    adjustment. A critical hit (s > 0.9, falling, not on the ground, not
 *    in water or on a ladder, not sprinting) does 1.5 times as much.
 *  - Knockback: the hurt's own 0.4 away from the attacker (LivingEntity.hurt)
 *    and, when sprinting with s > 0.9, 0.5 more along the attacker's look
 *    (the sprint stops); the victim is sent Set Entity Velocity. The server
 *    holds no player velocity, so vanilla's "half the old velocity" is 0.
 *  - pvp=false (server.properties) refuses every player attack
 *    (ServerPlayer.canHarmPlayer); the victim's invulnerability and game
 *    mode are game/health.c's.
 *  - An attack costs the attacker 0.1 exhaustion when it lands.
 *  - Issue 15: a mob (game/mobs.h) is attacked under the same reach,
 *    strength, critical and sprint rules, against its type's box; its
 *    hurt, knockback and death are mobs.c's.
 *
 * Invariants:
 *  1. Nothing read from the packet is trusted beyond its entity id and type;
 *     positions are the server's.
 *  2. Every attack goes through health_hurt (game/health.c invariant 2).
 */
#include "game/combat.h"

#include <math.h>

#include "core/log.h"
#include "data/combat_table.h"
#include "game/chunk_viewers.h"
#include "game/game.h"
#include "game/health.h"
#include "game/health_rules.h"
#include "game/mobs.h"
#include "game/play.h"
#include "game/player.h"
#include "net/server.h"
#include "proto/packets.h"

#define REACH_SQ     36.0
#define PLAYER_HALF  0.3
#define PLAYER_TALL  1.8
#define EYE_HEIGHT   1.62
#define BASE_SPEED   4.0f
#define BASE_DAMAGE  1.0f
#define GM_SPECTATOR 3

static conn *player_by_eid(int32_t eid)
{
    for (size_t i = 0; i < game.player_count; i++) {
        conn *o = game.players[i];
        if (o->player && o->player->entity_id == eid) return o;
    }
    return NULL;
}

/* AABB.distanceToSqr from the attacker's eyes to the target's box. */
static double reach_sq(const player *a, const player *t)
{
    double ex = a->x, ey = a->y + EYE_HEIGHT, ez = a->z;
    double dx = fmax(fmax(t->x - PLAYER_HALF - ex, ex - (t->x + PLAYER_HALF)), 0.0);
    double dy = fmax(fmax(t->y - ey, ey - (t->y + PLAYER_TALL)), 0.0);
    double dz = fmax(fmax(t->z - PLAYER_HALF - ez, ez - (t->z + PLAYER_HALF)), 0.0);
    return dx * dx + dy * dy + dz * dz;
}

/* Player.crit: Animation 4 (critical effect) on the target, to whoever holds
 * the attacker's chunk (the attacker too). */
static void crit_effect(conn *c, int32_t target_eid)
{
    const player *a = c->player;
    int32_t cx = (int32_t)floor(a->x / 16.0), cz = (int32_t)floor(a->z / 16.0);
    size_t n;
    conn **v = cv_copy(cx, cz, &n); /* game/chunk_viewers.h */
    for (size_t i = 0; i < n; i++) {
        if (v[i]->closed) continue;
        buf_reset(&srv->pkt);
        pkt_cb_animation(&srv->pkt, target_eid, 4);
        conn_send_pkt(v[i]);
    }
}

/* Player.attack's numbers for the held item: the damage (0: none), whether
 * it is a critical hit and whether the sprint adds knockback; the attack
 * strength ticker restarts. */
struct roll {
    float dmg;
    bool crit, sprint_kb;
    int knockback; /* the knockback enchantment's level + 1 for the sprint (× 0.5) */
    int fire;      /* fire aspect's level (× 4 seconds of fire) */
};

static struct roll attack_roll(player *a)
{
    const uint16_t *ench = a->inventory[36 + a->held_slot].ench;
    const struct weapon_info *w = hr_weapon_of(a->inventory[36 + a->held_slot].item);
    float base = w ? w->damage : BASE_DAMAGE, speed = w ? w->speed : BASE_SPEED;
    float s = hr_attack_strength(a->hp.attack_ticks, speed, 0.5f);
    a->hp.attack_ticks = 0; /* resetAttackStrengthTicker */
    bool strong = s > 0.9f;
    struct roll r;
    r.sprint_kb = a->hp.sprinting && strong;
    r.crit = strong && a->hp.fall_distance > 0.0f && !a->on_ground && !a->hp.in_water &&
             !a->hp.sprinting;
    r.dmg = hr_attack_damage(base, s, r.crit);
    /* issue 14: Player.attack adds the enchantments' bonus × the strength
     * after the critical multiplier; knockback's level adds to the sprint's */
    r.dmg += ench_damage_bonus(ench, ENCH_MOB_OTHER) * s;
    r.knockback = ench_level(ench, ENCH_KNOCKBACK) + (r.sprint_kb ? 1 : 0);
    r.fire = ench_level(ench, ENCH_FIRE_ASPECT);
    return r;
}

static void attack(conn *c, conn *tc)
{
    player *a = c->player, *t = tc->player;
    struct roll r = attack_roll(a);
    float dmg = r.dmg;
    bool crit = r.crit, sprint_kb = r.sprint_kb;
    if (!(dmg > 0.0f)) return;
    double tx = t->x, tz = t->z;
    if (!health_hurt(tc, DAMAGE_TYPE_PLAYER_ATTACK, dmg, c)) return;
    if (c->closed) return;
    /* Knockback: LivingEntity.hurt's, then the sprint's (Player.attack). */
    double v[3] = {0, 0, 0};
    hr_knockback(v, 0.4, a->x - tx, a->z - tz, t->on_ground);
    if (r.knockback > 0) {
        double yaw = a->yaw * (3.14159265358979323846 / 180.0);
        hr_knockback(v, 0.5 * r.knockback, sin(yaw), -cos(yaw), t->on_ground);
    }
    if (sprint_kb) a->hp.sprinting = false;
    if (r.fire > 0 && t->health > 0 && t->hp.fire_ticks < r.fire * 80)
        t->hp.fire_ticks = r.fire * 80; /* FireAspectEnchantment: setSecondsOnFire(level × 4) */
    if (!tc->closed && t->health > 0) {
        buf_reset(&srv->pkt);
        pkt_cb_entity_velocity(&srv->pkt, t->entity_id, v[0], v[1], v[2]);
        conn_send_pkt(tc);
    }
    if (crit) crit_effect(c, t->entity_id);
    health_exhaust(c, HR_EXHAUST_ATTACK);
    log_debug("%s attacked %s: %.2f%s%s", a->name, t->name, dmg, crit ? ", critical" : "",
              sprint_kb ? ", sprinting" : "");
}

/* Issue 15: a player attacks a mob, under the same reach and attack rules. */
static void attack_mob(conn *c, int32_t slot)
{
    player *a = c->player;
    double box[5];
    mobs_box(slot, box);
    double ex = a->x, ey = a->y + EYE_HEIGHT, ez = a->z;
    double dx = fmax(fmax(box[0] - box[3] - ex, ex - (box[0] + box[3])), 0.0);
    double dy = fmax(fmax(box[1] - ey, ey - (box[1] + box[4])), 0.0);
    double dz = fmax(fmax(box[2] - box[3] - ez, ez - (box[2] + box[3])), 0.0);
    if (dx * dx + dy * dy + dz * dz >= REACH_SQ) {
        log_debug("%s attacked a mob out of reach", a->name);
        return;
    }
    struct roll r = attack_roll(a);
    if (!(r.dmg > 0.0f)) return;
    double yaw = a->yaw * (3.14159265358979323846 / 180.0);
    if (!mobs_hurt_by(slot, r.dmg, c, 0.5 * r.knockback, sin(yaw), -cos(yaw))) return;
    if (r.sprint_kb) a->hp.sprinting = false;
    if (r.crit) crit_effect(c, mobs_eid(slot));
    health_exhaust(c, HR_EXHAUST_ATTACK);
}

void combat_sb_use_entity(conn *c, rd_t *r)
{
    int32_t target = rd_varint(r);
    int32_t mouse = rd_varint(r);
    if (mouse == 2) {
        rd_f32(r);
        rd_f32(r);
        rd_f32(r);
    }
    if (mouse == 0 || mouse == 2) rd_varint(r); /* hand */
    rd_bool(r);                                 /* sneaking */
    if (r->err || mouse != 1) return;
    player *a = c->player;
    if (!(a->health > 0) || a->gamemode == GM_SPECTATOR) return;
    if (target == a->entity_id) {
        log_warn("Player %s tried to attack an invalid entity (itself)", a->name);
        return;
    }
    conn *tc = player_by_eid(target);
    if (!tc) {
        int32_t slot = mobs_by_eid(target); /* issue 15 */
        if (slot >= 0) attack_mob(c, slot);
        return;
    }
    if (!(tc->player->health > 0)) return;
    if (reach_sq(a, tc->player) >= REACH_SQ) {
        log_debug("%s attacked %s out of reach", a->name, tc->player->name);
        return;
    }
    attack(c, tc);
}
