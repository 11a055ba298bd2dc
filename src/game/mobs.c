/*
 * mobs.c — the mob model (see mobs.h): records, per-type constants, AI,
 * physics, damage, death and drops. Tracking and the relay are in
 * mob_track.c, saving in mob_save.c, pure rules in mob_rules.c.
 *
 * Records: compact structs (mob_int.h) in one array, grown by doubling,
 * never per tick; a free slot is reused lowest first. Entity ids come from
 * the game's counter, shared with players and items. Every new mob goes
 * through one path: mobs_spawn (summon, summonmany, natural spawning)
 * refuses one in a chunk holding mcserv-max-entities-per-chunk mobs;
 * mob_spawn_loaded (saved entities) does not; both link it into its cell
 * at once (mt_place), so the cap counts a burst of one tick.
 *
 * One tick (mobs_tick, phase 6c of game/tick.c), in this order:
 *   1. each living mob with AI runs its goal selector as vanilla's
 *      Mob.serverAiStep: goals start only on even ticks (GoalSelector,
 *      reducedTickDelay), running goals tick every tick. Goals by priority,
 *      one per flag (MOVE, LOOK), a higher priority one replacing a lower:
 *        0 float        in water: jump (rise 0.04 a tick) with chance 0.8
 *        1 panic        hurt in the last 100 ticks (or burning): run to a
 *                       random spot within 5 blocks at the panic speed
 *        5 stroll       chance 1/60 per evaluation (interval 120, halved as
 *                       vanilla's reducedTickDelay): walk to a random spot
 *                       within 10 blocks at speed × 1.0, not into water
 *        6 look at player  chance 0.02: the nearest player within 6 blocks,
 *                       for 40..79 ticks
 *        7 look around  chance 0.02: a random direction for 20..39 ticks
 *      A creeper runs its fuse first and, while it has a target or
 *      swells, its own goals instead of these (mob_creeper.c).
 *      Hostile rows (MOB_AI_* other than passive) have no panic; their
 *      target selectors and attack goal (2: GOAL_ATTACK, which walks an A*
 *      path) are mob_ai.c's, arrows are projectile.c's, natural spawning
 *      mob_spawn.c's (after the mobs ran). A stroll walks a straight line
 *      to its spot (next_waypoint); the body turns toward it by at most
 *      90° a tick (MoveControl), the head by 10° (LookControl); blocked by
 *      a block while on the ground, the mob jumps (0.42). A goal gives up
 *      after 10 s, or when a wall stopped it for 20 ticks (stuck detection).
 *   2. physics (LivingEntity.travel): on the ground the forward input
 *      times 0.98 is accelerated by speed × 0.216 / friction³, in the air
 *      by 0.02; the box collides with full blocks (mob_collide, step-up
 *      0.6); then gravity 0.08 and drag 0.98 vertically, friction × 0.91
 *      horizontally on the ground (0.91 in the air). In water: 0.02
 *      acceleration, drag 0.8, gravity 0.005. Chickens fall at 0.6 of that.
 *      A mob on the ground that does not move and has no input rests: its
 *      physics runs again every 20 ticks (a block removed under it) or when
 *      hurt or given a goal, so an idle mob costs a few branches a tick.
 *      Falling more than 3 blocks hurts on landing (fall − 3); below the
 *      world by 64 blocks it dies (vanilla's void).
 *   3. deaths: a dead mob is removed 20 ticks after it died.
 *   4. tracking and relay (mob_track.c).
 *
 * Damage (LivingEntity.hurt): after a hit the mob is invulnerable for 20
 * ticks; in the last 10 of them only the part of a hit above the last one
 * hurts, without knockback or hurt animation. A landed hit: Damage Event
 * (the hurt animation) and the health to viewers, knockback 0.4 away from
 * the attacker, panic. At 0 health: Entity Event 3 (the death animation),
 * pose DYING, the drops of its loot table (mob_loot_roll; player-kill
 * entries when a player hurt it in the last 100 ticks) as item entities
 * with vanilla's velocity, and removal 20 ticks later.
 *
 * Invariants:
 *  1. Only the game thread touches mobs.
 *  2. Positions are always finite: input velocities are clamped by
 *     mob_collide, and saved or summoned positions are checked by
 *     mob_record_read.
 *  3. A dead mob runs no AI and takes no damage; a removed one is on no
 *     list but the tracker's, which frees its slot.
 */
#include "game/mobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/combat_table.h"
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/game.h"
#include "game/growth.h" /* issue 21: farmland trampling */
#include "game/health_rules.h"
#include "game/items.h"
#include "game/mob_creeper.h"
#include "game/mob_int.h"
#include "game/redstone_world.h" /* issue 21: pressure plates */
#include "game/xp.h"
#include "world/chunk.h"

/*
 * Vanilla 1.20.1 per type: Cow/Pig/Sheep/Chicken.createAttributes (max
 * health, movement speed), their registerGoals (PanicGoal's speed
 * modifier), EntityType's builder (clientTrackingRange 10 chunks, the
 * default updateInterval 3), Chicken.aiStep and causeFallDamage.
 * Hostile (issue 15): Zombie.createAttributes (20 health, speed 0.23,
 * follow range 35, attack damage 3), AbstractSkeleton (speed 0.25),
 * Spider (16 health, speed 0.3), Monster.createMonsterAttributes for the
 * rest (follow range 16, attack damage 2); their EntityType range 8. The
 * arrow: EntityType.ARROW (range 4, updateInterval 20).
 */
const struct mob_type mob_types[] = {
    /* type, max health, speed, panic, range, interval, slow fall, no fall damage,
     * ai, follow range, attack damage, burns in daylight */
    {ENTITY_TYPE_COW, 10.0f, 0.2f, 2.0f, 10, 3, false, false, MOB_AI_PASSIVE, 16.0f, 0.0f, false},
    {ENTITY_TYPE_PIG, 10.0f, 0.25f, 1.25f, 10, 3, false, false, MOB_AI_PASSIVE, 16.0f, 0.0f, false},
    {ENTITY_TYPE_SHEEP, 8.0f, 0.23f, 1.25f, 10, 3, false, false, MOB_AI_PASSIVE, 16.0f, 0.0f,
     false},
    {ENTITY_TYPE_CHICKEN, 4.0f, 0.25f, 1.4f, 10, 3, true, true, MOB_AI_PASSIVE, 16.0f, 0.0f, false},
    {ENTITY_TYPE_ZOMBIE, 20.0f, 0.23f, 0.0f, 8, 3, false, false, MOB_AI_MELEE, 35.0f, 3.0f, true},
    {ENTITY_TYPE_SKELETON, 20.0f, 0.25f, 0.0f, 8, 3, false, false, MOB_AI_BOW, 16.0f, 2.0f, true},
    {ENTITY_TYPE_SPIDER, 16.0f, 0.3f, 0.0f, 8, 3, false, false, MOB_AI_SPIDER, 16.0f, 2.0f, false},
    {ENTITY_TYPE_ARROW, 1.0f, 0.0f, 0.0f, 4, 20, false, true, MOB_AI_ARROW, 0.0f, 0.0f, false},
    /* Creeper: LivingEntity's 20 health, Creeper.createAttributes' speed,
     * EntityType's clientTrackingRange 8; no PanicGoal; its target
     * selector, SwellGoal and approach are mob_creeper.c's (run before the
     * passive goals here) */
    {ENTITY_TYPE_CREEPER, 20.0f, 0.25f, 0.0f, 8, 3, false, false, MOB_AI_PASSIVE, 16.0f, 0.0f,
     false},
};
#define MOB_TYPE_ROWS (sizeof mob_types / sizeof mob_types[0])

#define GRAVITY       0.08
#define STEP_UP       0.6
#define JUMP_POWER    0.42
#define HURT_MEMORY   100 /* ticks a hurt makes a mob panic / counts as a player's kill */
#define INVULN_TICKS  20
#define STROLL_CHANCE 60 /* 1 in reducedTickDelay(120) per evaluation */
#define STROLL_RANGE  10
#define PANIC_RANGE   5
#define LOOK_CHANCE   0.02
#define LOOK_RANGE    6.0
#define STUCK_TICKS   100
#define GOAL_TICKS    200
#define REST_RECHECK  20
#define VOID_DEPTH    64

struct mob *mob_slots;
uint32_t mob_top, mob_used, mob_cap;
static uint64_t rng = 0x5851f42d4c957f2dull;
static bool loaded;
static int layer_of_row[MOB_TYPE_ROWS];
static int layer_range[MOB_LAYERS];
static int nlayers;

static double rnd(void)
{
    return mob_rand(&rng);
}

double mob_rnd(void)
{
    return mob_rand(&rng);
}

static int row_of(int type)
{
    for (size_t i = 0; i < MOB_TYPE_ROWS; i++)
        if (mob_types[i].type == type) return (int)i;
    return -1;
}

static void layers_init(void)
{
    if (nlayers) return;
    for (size_t i = 0; i < MOB_TYPE_ROWS; i++) {
        int k = 0;
        while (k < nlayers && layer_range[k] != mob_types[i].range_chunks) k++;
        if (k == nlayers && nlayers < MOB_LAYERS)
            layer_range[nlayers++] = mob_types[i].range_chunks;
        layer_of_row[i] = k < MOB_LAYERS ? k : MOB_LAYERS - 1;
    }
}

int mob_layer_of(int row)
{
    layers_init();
    return layer_of_row[row];
}

int mob_layer_range(int layer)
{
    layers_init();
    return layer_range[layer];
}

int mob_layer_count(void)
{
    layers_init();
    return nlayers;
}

bool mobs_supported(int type)
{
    return row_of(type) >= 0;
}

/* ------------------------------------------------------------ records */

/* Sheep.getRandomSheepColor: black, gray, light gray 5 % each, brown 3 %,
 * pink 1 in 500 of the rest, else white. */
static int8_t sheep_color(void)
{
    int i = (int)(rnd() * 100);
    if (i < 5) return 15;
    if (i < 10) return 7;
    if (i < 15) return 8;
    if (i < 18) return 12;
    return (int)(rnd() * 500) == 0 ? 6 : 0;
}

/* Makes the mob (both spawn paths below). */
static int32_t make_mob(const struct mob_record *r, char *err, size_t cap)
{
    int row = row_of(r->type);
    if (row < 0) {
        snprintf(err, cap, "entity type not simulated");
        return -1;
    }
    if (mob_used >= MOBS_MAX) {
        snprintf(err, cap, "the cap of %d mobs is reached", MOBS_MAX);
        return -1;
    }
    uint32_t i = 0;
    while (i < mob_top && mob_slots[i].used) i++;
    if (i >= mob_cap) {
        uint32_t ncap = mob_cap ? mob_cap * 2 : 256;
        if (ncap > MOBS_MAX) ncap = MOBS_MAX;
        struct mob *n = realloc(mob_slots, ncap * sizeof *n);
        if (!n || !mt_grow(ncap)) {
            if (n) mob_slots = n;
            snprintf(err, cap, "out of memory");
            return -1;
        }
        memset(n + mob_cap, 0, (ncap - mob_cap) * sizeof *n);
        mob_slots = n;
        mob_cap = ncap;
    }
    struct mob *m = &mob_slots[i];
    memset(m, 0, sizeof *m);
    const struct mob_type *t = &mob_types[row];
    m->used = true;
    m->row = (uint8_t)row;
    m->type = (int16_t)r->type;
    m->eid = game.next_entity_id++;
    if (r->has_uuid) {
        m->uuid = r->uuid;
    } else {
        for (int k = 0; k < 16; k++) m->uuid.b[k] = (uint8_t)(rnd() * 256.0);
        m->uuid.b[6] = (uint8_t)((m->uuid.b[6] & 0x0f) | 0x40); /* version 4 */
        m->uuid.b[8] = (uint8_t)((m->uuid.b[8] & 0x3f) | 0x80);
    }
    m->x = r->pos[0], m->y = r->pos[1], m->z = r->pos[2];
    m->vx = r->motion[0], m->vy = r->motion[1], m->vz = r->motion[2];
    m->yaw = m->head_yaw = r->yaw;
    m->pitch = r->pitch;
    m->health = r->has_health ? fminf(r->health, t->max_health) : t->max_health;
    m->dead = !(m->health > 0);
    m->st = r->st;
    m->st.color =
        r->type == ENTITY_TYPE_SHEEP ? (r->st.color >= 0 ? r->st.color : sheep_color()) : 0;
    if (r->custom_name[0]) m->name = strdup(r->custom_name);
    if (t->ai == MOB_AI_ARROW) m->base_damage = 2.0f; /* AbstractArrow's baseDamage */
    m->cell = -1;
    m->moved = true;
    m->swell_dir = -1;
    mob_used++;
    if (i + 1 > mob_top) mob_top = i + 1;
    mt_place(m, i); /* in its cell now: the per-chunk cap counts it this tick */
    return m->eid;
}

int32_t mob_spawn_loaded(const struct mob_record *r, char *err, size_t cap)
{
    return make_mob(r, err, cap);
}

/* The one path of summon and natural spawning (issue 15, "entity
 * explosion"): the per-chunk cap, then the mob; what clients receive of a
 * burst of spawns is bounded per viewer per tick by mob_track.c. */
int32_t mobs_spawn(const struct mob_record *r, char *err, size_t cap)
{
    static log_kind k_cap = LOG_KIND;
    int limit = srv->cfg.max_entities_per_chunk;
    if (limit > 0 && isfinite(r->pos[0]) && isfinite(r->pos[2]) && mobs_supported(r->type)) {
        int32_t cx = (int32_t)floor(r->pos[0] / 16.0), cz = (int32_t)floor(r->pos[2] / 16.0);
        if (mt_count(cx, cz) >= (uint32_t)limit) {
            snprintf(err, cap,
                     "chunk %d, %d already holds %d entities (mcserv-max-entities-per-chunk)", cx,
                     cz, limit);
            log_limited(&k_cap, LOG_WARN, "mobs: %s not spawned: %s", entity_types[r->type].name,
                        err);
            return MOBS_SPAWN_CAPPED;
        }
    }
    return make_mob(r, err, cap);
}

void mob_release(uint32_t i)
{
    struct mob *m = &mob_slots[i];
    mai_forget(m);
    free(m->name);
    memset(m, 0, sizeof *m);
    mob_used--;
    while (mob_top > 0 && !mob_slots[mob_top - 1].used) mob_top--;
}

void mob_to_record(const struct mob *m, struct mob_record *r)
{
    mob_record_init(r);
    r->type = m->type;
    r->pos[0] = m->x, r->pos[1] = m->y, r->pos[2] = m->z;
    r->motion[0] = m->vx, r->motion[1] = m->vy, r->motion[2] = m->vz;
    r->yaw = m->yaw, r->pitch = m->pitch;
    r->health = m->health;
    r->has_health = true;
    r->uuid = m->uuid;
    r->has_uuid = true;
    r->st = m->st;
    if (m->name) snprintf(r->custom_name, sizeof r->custom_name, "%s", m->name);
}

int32_t mobs_by_eid(int32_t eid)
{
    for (uint32_t i = 0; i < mob_top; i++)
        if (mob_slots[i].used && !mob_slots[i].removed && mob_slots[i].eid == eid)
            return (int32_t)i;
    return -1;
}

int32_t mobs_eid(int32_t slot)
{
    return mob_slots[slot].eid;
}

void mobs_box(int32_t slot, double out[5])
{
    const struct mob *m = &mob_slots[slot];
    out[0] = m->x, out[1] = m->y, out[2] = m->z;
    out[3] = entity_types[m->type].width / 2.0;
    out[4] = entity_types[m->type].height;
}

/* ------------------------------------------------------------ damage, death */

static void drop_loot(struct mob *m)
{
    bool by_player =
        m->hurt_by_player && m->hurt_tick && game.tick_count - m->hurt_tick <= HURT_MEMORY;
    struct mob_drop d[MOB_DROPS_MAX];
    int n = mob_loot_roll(m->type, by_player, &rng, d, MOB_DROPS_MAX);
    xp_mob_died(m->type, by_player, 0, m->x, m->y, m->z); /* issue 14: game/xp.h */
    for (int k = 0; k < n; k++) /* Entity.spawnAtLocation: ItemEntity's own velocity */
        items_spawn(m->x, m->y, m->z, rnd() * 0.2 - 0.1, 0.2, rnd() * 0.2 - 0.1, d[k].item,
                    d[k].count, 10);
}

static void die(struct mob *m)
{
    if (m->dead) return;
    m->dead = true;
    m->health = 0;
    m->ev_death = true;
    m->meta_dirty = true;
    m->goal = GOAL_NONE, m->look = LOOK_NONE;
    m->forward = 0;
    drop_loot(m);
}

/* LivingEntity.hurt's amount rule; true when it landed as a new hit. */
static bool hurt(struct mob *m, int type, float amount, int32_t source_eid, bool by_player)
{
    return mob_hurt(m, type, amount, source_eid, by_player);
}

bool mob_hurt(struct mob *m, int type, float amount, int32_t source_eid, bool by_player)
{
    if (mob_type_of(m)->ai == MOB_AI_ARROW) return false; /* arrows are not hurt */
    if (m->dead || m->removed || !(amount >= 0.0f) || amount > 1.0e6f) return false;
    bool fresh = true;
    if (m->invuln > INVULN_TICKS / 2) {
        if (amount <= m->last_hurt) return false;
        float extra = amount - m->last_hurt;
        m->last_hurt = amount;
        amount = extra;
        fresh = false;
    } else {
        m->last_hurt = amount;
        m->invuln = INVULN_TICKS;
    }
    m->health -= amount;
    m->meta_dirty = true;
    m->resting = false;
    if (source_eid || by_player) {
        m->hurt_tick = game.tick_count ? game.tick_count : 1;
        m->hurt_by_player = by_player;
        if (by_player) mai_hurt_by(m, source_eid); /* HurtByTargetGoal */
    }
    if (fresh) {
        m->ev_damage = (int8_t)(1 + type);
        m->ev_source = source_eid;
    }
    if (!(m->health > 0)) die(m);
    return fresh;
}

bool mobs_hurt_by(int32_t slot, float amount, conn *by, double extra, double ex, double ez)
{
    struct mob *m = &mob_slots[slot];
    const player *a = by ? by->player : NULL;
    if (!hurt(m, DAMAGE_TYPE_PLAYER_ATTACK, amount, a ? a->entity_id : 0, a != NULL)) return false;
    if (a) {
        double v[3] = {m->vx, m->vy, m->vz};
        hr_knockback(v, 0.4, a->x - m->x, a->z - m->z, m->st.on_ground);
        if (extra > 0) hr_knockback(v, extra, ex, ez, m->st.on_ground);
        m->vx = v[0], m->vy = v[1], m->vz = v[2];
        m->impulse = true;
    }
    if (!m->dead) m->goal = GOAL_NONE; /* panic starts at the next evaluation */
    return true;
}

void mobs_explosion_hit(int32_t slot, int type, float damage, double kx, double ky, double kz,
                        int32_t source_eid)
{
    struct mob *m = &mob_slots[slot];
    if (m->removed) return;
    hurt(m, type, damage, source_eid, false);
    m->vx += kx, m->vy += ky, m->vz += kz; /* Explosion.explode: even when the hurt did not land */
    m->impulse = true;
    m->resting = false;
    if (!m->dead) m->goal = GOAL_NONE;
}

void mobs_kill(int32_t slot)
{
    struct mob *m = &mob_slots[slot];
    if (m->dead || m->removed) return;
    if (mob_type_of(m)->ai == MOB_AI_ARROW) { /* an arrow is just removed */
        m->removed = true;
        return;
    }
    m->invuln = 0;
    hurt(m, DAMAGE_TYPE_GENERIC_KILL, 1.0e6f, 0, false); /* vanilla: Float.MAX_VALUE */
    die(m);
}

/* ------------------------------------------------------------ blocks */

bool mob_solid_at(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return false;
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return true; /* unloaded: a wall */
    return block_info[block_of_state[st]].flags & BLOCK_FLAG_SOLID;
}

static bool water_at(double x, double y, double z)
{
    uint16_t st;
    if (world_get_block(&game.world, (int32_t)floor(x), (int32_t)floor(y), (int32_t)floor(z), &st) <
        0)
        return false;
    int b = block_of_state[st];
    return b == block_of_state[BLOCK_WATER] || b == block_of_state[BLOCK_BUBBLE_COLUMN];
}

double mob_friction_under(double x, double y, double z)
{
    uint16_t st;
    if (world_get_block(&game.world, (int32_t)floor(x), (int32_t)floor(y - 0.5000001),
                        (int32_t)floor(z), &st) < 0)
        return 0.6;
    int b = block_of_state[st];
    if (b == block_of_state[BLOCK_ICE] || b == block_of_state[BLOCK_PACKED_ICE] ||
        b == block_of_state[BLOCK_FROSTED_ICE])
        return 0.98;
    if (b == block_of_state[BLOCK_BLUE_ICE]) return 0.989;
    if (b == block_of_state[BLOCK_SLIME_BLOCK]) return 0.8;
    return 0.6;
}

/* ------------------------------------------------------------ AI */

static float wrap_deg(float d)
{
    d = fmodf(d, 360.0f);
    if (d >= 180.0f) d -= 360.0f;
    if (d < -180.0f) d += 360.0f;
    return d;
}

/* Mth.approachDegrees / MoveControl.rotlerp. */
static float turn(float from, float to, float max)
{
    float d = wrap_deg(to - from);
    if (d > max) d = max;
    if (d < -max) d = -max;
    return wrap_deg(from + d);
}

static float yaw_to(const struct mob *m, double x, double z)
{
    return (float)(atan2(z - m->z, x - m->x) * (180.0 / M_PI)) - 90.0f;
}

/* A random spot within `range` blocks (DefaultRandomPos / LandRandomPos
 * without the path check; water avoided by the stroll). */
static bool random_target(struct mob *m, int range, bool avoid_water)
{
    for (int tries = 0; tries < 10; tries++) {
        double tx = floor(m->x) + (int)(rnd() * (2 * range + 1)) - range + 0.5;
        double tz = floor(m->z) + (int)(rnd() * (2 * range + 1)) - range + 0.5;
        if (avoid_water && water_at(tx, m->y, tz)) continue;
        m->tx = tx, m->tz = tz;
        return true;
    }
    return false;
}

/* The pathfinding seam: the next point to walk to. Straight at the target
 * until A* lands (issue 15: pathfinding). */
static void next_waypoint(const struct mob *m, double *wx, double *wz)
{
    *wx = m->tx, *wz = m->tz;
}

static const player *nearest_player(const struct mob *m, double range)
{
    const player *best = NULL;
    double bd = range * range;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (!p || !(p->health > 0) || p->gamemode == 3) continue;
        double dx = p->x - m->x, dy = p->y - m->y, dz = p->z - m->z;
        double d = dx * dx + dy * dy + dz * dz;
        if (d < bd) bd = d, best = p;
    }
    return best;
}

static const player *player_by_eid(int32_t eid)
{
    for (size_t i = 0; i < game.player_count; i++)
        if (game.players[i]->player && game.players[i]->player->entity_id == eid)
            return game.players[i]->player;
    return NULL;
}

static void start_goals(struct mob *m, const struct mob_type *t)
{
    bool panicking =
        t->panic_speed > 0 &&
        ((m->hurt_tick && game.tick_count - m->hurt_tick < HURT_MEMORY) || m->st.fire > 0);
    if (t->ai != MOB_AI_PASSIVE && mai_select(m, t)) { /* target selectors, attack goal (2) */
        if (m->goal != GOAL_ATTACK) m->goal = GOAL_ATTACK, m->goal_ticks = 0, m->stuck_ticks = 0;
    } else if (m->goal == GOAL_ATTACK) {
        m->goal = GOAL_NONE;
    } else if (panicking && m->goal != GOAL_PANIC) {
        if (random_target(m, PANIC_RANGE, false)) {
            m->goal = GOAL_PANIC;
            m->goal_ticks = 0, m->stuck_ticks = 0;
        }
    } else if (m->goal == GOAL_NONE && (int)(rnd() * STROLL_CHANCE) == 0) {
        if (random_target(m, STROLL_RANGE, true)) {
            m->goal = GOAL_STROLL;
            m->goal_ticks = 0, m->stuck_ticks = 0;
        }
    }
    (void)t;
    if (m->look == LOOK_NONE && m->goal != GOAL_ATTACK) {
        if (rnd() < LOOK_CHANCE) {
            const player *p = nearest_player(m, LOOK_RANGE);
            if (p) {
                m->look = LOOK_PLAYER;
                m->look_eid = p->entity_id;
                m->look_ticks = (int16_t)(40 + (int)(rnd() * 40));
            }
        }
        if (m->look == LOOK_NONE && rnd() < LOOK_CHANCE) {
            double a = rnd() * 2 * M_PI;
            m->look = LOOK_AROUND;
            m->lx = m->x + cos(a), m->lz = m->z + sin(a);
            m->ly = m->y + entity_types[m->type].height * 0.85;
            m->look_ticks = (int16_t)(20 + (int)(rnd() * 20));
        }
    }
}

static void run_goals(struct mob *m, const struct mob_type *t)
{
    m->forward = 0;
    m->jump = m->bumped && m->goal != GOAL_NONE; /* blocked while walking: jump */
    m->bumped = false;
    if (m->in_water && rnd() < 0.8) m->jump = true; /* FloatGoal */
    if (m->goal == GOAL_ATTACK) { /* mob_ai.c: the path, looking (LOOK_TARGET), attacks */
        double wx, wz;
        if (mai_attack(m, t, &wx, &wz)) {
            m->yaw = turn(m->yaw, yaw_to(m, wx, wz), 90.0f);
            m->forward = t->speed;
        }
    } else if (m->goal != GOAL_NONE) {
        double wx, wz;
        next_waypoint(m, &wx, &wz);
        double dx = wx - m->x, dz = wz - m->z, d2 = dx * dx + dz * dz;
        m->stuck_ticks = m->jump ? m->stuck_ticks + 1 : 0;
        if (d2 < 0.25 || m->stuck_ticks > STUCK_TICKS / 5 || ++m->goal_ticks > GOAL_TICKS) {
            m->goal = GOAL_NONE; /* there, blocked for 20 ticks, or 10 s without getting there */
        } else {
            float speed = t->speed * (m->goal == GOAL_PANIC ? t->panic_speed : 1.0f);
            m->yaw = turn(m->yaw, yaw_to(m, wx, wz), 90.0f);
            m->forward = speed;
        }
    }
    float want_head = m->yaw;
    if (m->look != LOOK_NONE) {
        if (--m->look_ticks <= 0) {
            m->look = LOOK_NONE;
        } else if (m->look == LOOK_TARGET) {
            /* (lx, ly, lz) set by the attack goal */
        } else if (m->look == LOOK_PLAYER) {
            const player *p = player_by_eid(m->look_eid);
            double dx = p ? p->x - m->x : 0, dz = p ? p->z - m->z : 0;
            if (!p || dx * dx + dz * dz > LOOK_RANGE * LOOK_RANGE * 4) {
                m->look = LOOK_NONE;
            } else {
                m->lx = p->x, m->ly = p->y + 1.62, m->lz = p->z;
            }
        }
    }
    if (m->look != LOOK_NONE) {
        want_head = yaw_to(m, m->lx, m->lz);
        double eye = m->y + entity_types[m->type].height * 0.85;
        double h = sqrt((m->lx - m->x) * (m->lx - m->x) + (m->lz - m->z) * (m->lz - m->z));
        float pitch = (float)(-atan2(m->ly - eye, h) * (180.0 / M_PI));
        m->pitch = turn(m->pitch, pitch, 40.0f);
    } else {
        m->pitch = turn(m->pitch, 0.0f, 40.0f);
    }
    m->head_yaw = turn(m->head_yaw, want_head, 10.0f);
    /* BodyRotationControl: the head stays within 75° of the body */
    float rel = wrap_deg(m->head_yaw - m->yaw);
    if (rel > 75.0f) m->head_yaw = wrap_deg(m->yaw + 75.0f);
    if (rel < -75.0f) m->head_yaw = wrap_deg(m->yaw - 75.0f);
    if (m->forward > 0 || m->jump) m->resting = false;
}

/* ------------------------------------------------------------ physics */

static void physics(struct mob *m, const struct mob_type *t)
{
    double ox = m->x, oy = m->y, oz = m->z;
    double half = entity_types[m->type].width / 2.0, height = entity_types[m->type].height;
    m->in_water = water_at(m->x, m->y + height * 0.5, m->z);
    /* Mob.setSpeed puts the speed in zza too: the input is speed × 0.98 */
    double input = m->forward * 0.98;
    double yaw = m->yaw * (M_PI / 180.0);
    double fx = -sin(yaw), fz = cos(yaw);
    double fr = mob_friction_under(m->x, m->y, m->z);
    double accel = m->in_water       ? input * 0.02
                   : m->st.on_ground ? input * m->forward * (0.21600002 / (fr * fr * fr))
                                     : input * 0.02;
    m->vx += fx * accel, m->vz += fz * accel;
    if (m->jump) {
        if (m->in_water)
            m->vy += 0.04; /* jumpInLiquid */
        else if (m->st.on_ground)
            m->vy = JUMP_POWER;
    }
    double want[3] = {m->vx, m->vy, m->vz}, pos[3] = {m->x, m->y, m->z};
    struct mob_move mv;
    mob_collide(mob_solid_at, NULL, pos, half, height, want, STEP_UP, m->st.on_ground, &mv);
    m->x = pos[0], m->y = pos[1], m->z = pos[2];
    if (mv.blocked[0]) m->vx = 0;
    if (mv.blocked[2]) m->vz = 0;
    if (mv.blocked[1]) m->vy = 0;
    m->bumped = (mv.blocked[0] || mv.blocked[2]) && m->forward > 0;
    if (m->in_water) {
        m->vx *= 0.8, m->vy *= 0.8, m->vz *= 0.8;
        m->vy -= GRAVITY / 16;
        m->st.fall_distance = 0;
    } else {
        double drag = mv.on_ground || m->st.on_ground ? fr * 0.91 : 0.91;
        m->vy = (m->vy - GRAVITY) * 0.98;
        if (t->slow_fall && !mv.on_ground && m->vy < 0) m->vy *= 0.6;
        m->vx *= drag, m->vz *= drag;
    }
    m->st.on_ground = mv.on_ground;
    double fell = oy - m->y;
    if (!m->st.on_ground && fell > 0) m->st.fall_distance += (float)fell;
    if (m->st.on_ground) {
        /* FarmBlock.fallOn (issue 21): mobs bigger than 0.512 (width² × height) */
        if (m->st.fall_distance > 0 && 4.0 * half * half * height > 0.512)
            growth_fall_on((int32_t)floor(m->x), (int32_t)floor(m->y - 0.2), (int32_t)floor(m->z),
                           m->st.fall_distance, false);
        if (m->st.fall_distance > 3.0f && !t->no_fall_damage)
            hurt(m, DAMAGE_TYPE_FALL, ceilf(m->st.fall_distance - 3.0f), 0, false);
        m->st.fall_distance = 0;
        if (m->vy < 0) m->vy = 0;
    }
    if (fabs(m->vx) < 0.003) m->vx = 0; /* LivingEntity.aiStep's cut-off */
    if (fabs(m->vz) < 0.003) m->vz = 0;
    bool still = m->x == ox && m->y == oy && m->z == oz;
    if (!still) m->moved = true;
    if (!still) redstone_entity_at(m->x, m->y, m->z, half); /* pressure plates (issue 21) */
    m->resting = m->st.on_ground && m->vx == 0 && m->vz == 0 && m->forward == 0 && !m->jump &&
                 !m->in_water && still;
    if (m->y < CHUNK_MIN_Y - VOID_DEPTH) hurt(m, DAMAGE_TYPE_OUT_OF_WORLD, 4.0f, 0, false);
}

static void tick_mob(struct mob *m)
{
    const struct mob_type *t = mob_type_of(m);
    m->age++;
    if (t->ai == MOB_AI_ARROW) { /* projectile.c */
        proj_tick(m);
        return;
    }
    if (m->invuln > 0) m->invuln--;
    if (m->dead) {
        if (++m->death_time >= MOB_DEATH_TICKS) m->removed = true;
        return;
    }
    /* burning, despawned (the creeper too: a monster, though its goals are its own) */
    if ((t->ai != MOB_AI_PASSIVE || m->type == ENTITY_TYPE_CREEPER) && mai_live(m, t)) return;
    if (m->type == ENTITY_TYPE_CREEPER && mob_creeper_tick(m)) return; /* it exploded */
    if (!m->st.no_ai && !(m->type == ENTITY_TYPE_CREEPER && mob_creeper_ai(m))) {
        if (m->age % 2 == 0 || m->age <= 1) start_goals(m, t);
        if (m->goal != GOAL_NONE || m->look != LOOK_NONE || m->in_water)
            run_goals(m, t);
        else
            m->forward = 0, m->jump = false;
    }
    /* NoAI: no physics either (vanilla's NoAI mobs float where they are) */
    if (!m->st.no_ai && (!m->resting || (m->age + (uint32_t)m->eid) % REST_RECHECK == 0))
        physics(m, t);
}

void mobs_tick(void)
{
    if (!loaded) {
        loaded = true;
        ms_init();
        ms_load_start();
    }
    mai_tick_begin();
    uint32_t hostile = 0;
    for (uint32_t i = 0; i < mob_top; i++) {
        struct mob *m = &mob_slots[i];
        if (!m->used || m->removed) continue;
        tick_mob(m);
        if (!m->removed && !m->dead && entity_types[m->type].category == ENTITY_CAT_HOSTILE)
            hostile++;
    }
    proj_flush();         /* projectile.c: the arrows shot in the pass */
    mspawn_tick(hostile); /* mob_spawn.c: natural spawning */
    mt_track();
    mt_relay();
}

/* ------------------------------------------------------------ commands */

size_t mobs_select(const struct mob_filter *f, int32_t *slots, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < mob_top; i++) {
        const struct mob *m = &mob_slots[i];
        if (!m->used || m->removed || m->dead) continue;
        if (f->type >= 0 && ((m->type == f->type) == f->type_neg)) continue;
        double dx = m->x - f->x, dy = m->y - f->y, dz = m->z - f->z;
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (f->dmax >= 0 && (d < f->dmin || d > f->dmax)) continue;
        if (n < cap) {
            slots[n++] = (int32_t)i;
        } else if (f->nearest) { /* keep the nearest: replace the farthest */
            size_t far = 0;
            double fd = -1;
            for (size_t k = 0; k < n; k++) {
                const struct mob *o = &mob_slots[slots[k]];
                double ex = o->x - f->x, ey = o->y - f->y, ez = o->z - f->z;
                double od = ex * ex + ey * ey + ez * ez;
                if (od > fd) fd = od, far = k;
            }
            if (d * d < fd) slots[far] = (int32_t)i;
        }
        if (!f->nearest && f->limit && n >= f->limit) break;
    }
    if (f->limit && n > f->limit) n = f->limit;
    return n;
}

void mobs_display_name(int32_t slot, char *out, size_t cap)
{
    const struct mob *m = &mob_slots[slot];
    if (m->name) { /* the text of a JSON string or {"text": ...}; else the raw name */
        const char *s = m->name;
        const char *q = strstr(s, "\"text\"");
        if (q)
            q = strchr(q + 6, '"');
        else if (*s == '"')
            q = s;
        if (q) {
            size_t n = 0;
            for (q++; *q && *q != '"' && n + 1 < cap; q++) out[n++] = *q;
            out[n] = 0;
            return;
        }
        snprintf(out, cap, "%s", s);
        return;
    }
    snprintf(out, cap, "%s", entity_types[m->type].display_name);
}

uint32_t mobs_count(void)
{
    return mob_used;
}

void mobs_free(void)
{
    for (uint32_t i = 0; i < mob_top; i++) free(mob_slots[i].name);
    free(mob_slots);
    mob_slots = NULL;
    mob_top = mob_used = mob_cap = 0;
    mt_free();
    ms_free();
    mai_free();
    loaded = false;
}

/* ------------------------------------------------------------ for the per-type files */

float mob_turn(float from, float to, float max)
{
    return turn(from, to, max);
}

float mob_yaw_to(const struct mob *m, double x, double z)
{
    return yaw_to(m, x, z);
}

const player *mob_player(int32_t eid)
{
    return player_by_eid(eid);
}
