/*
 * health.c — players' health, hunger and death (game/health.h), as vanilla
 * 1.20.1's LivingEntity, Player, ServerPlayer and FoodData; the arithmetic
 * is game/health_rules.c.
 *
 * Rules (vanilla's, with where mcserv reads them from):
 *  - Falls (Entity.checkFallDamage, from each movement packet): the fall
 *    distance grows by every descent while not on the ground; in water
 *    (checked at the new position before the landing), on a climbable block,
 *    after a teleport or outside survival/adventure it is 0. Landing costs
 *    ceil(distance − 3) (data: DAMAGE_TYPE_FALL, which bypasses armour).
 *  - Per tick (phase 6c): below the world's bottom − 64, 4 (out_of_world);
 *    eyes in water: air −1 a tick, at −20 it is 0 and 2 damage (drown),
 *    else air +4 up to 300, sent as metadata index 1; lava: 4 (lava) and 15
 *    seconds of fire; a fire block: 1 (in_fire) and at least 8 seconds of
 *    fire; burning: 1 every 20 ticks (on_fire) until water puts it out; eyes
 *    inside a full opaque block: 1 (in_wall). Each hit starts 20 ticks of
 *    invulnerability in which only what exceeds the last hit lands
 *    (health_rules.h hr_hurt_amount), so a steady source hurts every 10 ticks.
 *  - Hunger: FoodData.tick (regeneration with full food and saturation every
 *    10 ticks, with food ≥ 18 every 80, starvation at 0 by difficulty), on
 *    peaceful 1 health a second and 1 food every 10 ticks; exhaustion from
 *    sprinting (0.1/m), swimming (0.01/m), jumping (0.05, 0.2 sprinting),
 *    attacks (0.1, combat.c), mining (0.005) and damage (the type's value).
 *  - Set Health goes to the player when health or food changed, or
 *    saturation became or stopped being 0 (ServerPlayer.doTick); a hit is
 *    one Damage Event to everyone holding the player's chunk (the client
 *    plays the hurt animation and sound from it); the health metadata and
 *    the burning flag go to viewers through game/ent_actions.c.
 *  - Eating (Use Item with a food, when food < 20 or in creative): 32 ticks
 *    (16 for dried kelp), then FoodData.eat, one item used up, Entity Event 9
 *    (finished) and the slot to the player; switching items or releasing
 *    the use button stops it.
 *  - Death (ServerPlayer.die): the death message (CombatTracker's keys:
 *    death.attack.<message id>, death.fell.accident.generic for a fall of
 *    more than 5 blocks, "<key>.player" with the player who hurt it in the
 *    last 100 ticks) to everyone and the log, Combat Death to the player
 *    (game/ent_actions.c ent_die), the inventory dropped where it died with
 *    vanilla's scatter (Player.drop with dropAround) unless keepInventory,
 *    and the experience (game/xp.c).
 *  - Enchantments on the armour (getDamageAfterMagicAbsorb, after the
 *    armour): protection, fire/blast/projectile protection and feather
 *    falling by the hit's kind, at most 20 points of 25 (game/enchant.h).
 *  - Only survival and adventure take damage; creative and spectator none
 *    (abilities.invulnerable), except the void and /kill (vanilla's
 *    bypasses_invulnerability).
 *
 * Invariants:
 *  1. A dead player (health 0) is neither hurt nor ticked until it respawns.
 *  2. Every hurt path goes through health_hurt, every death through die().
 *  3. Food, saturation and exhaustion keep FoodData's clamps (health_rules.h).
 */
#include "game/beds.h" /* issue 21 */
#include "game/health.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/combat_table.h"
#include "data/packet_ids.h"
#include "game/chat.h"
#include "game/chunk_viewers.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/growth.h" /* issue 21: farmland trampling */
#include "game/health_rules.h"
#include "game/inventory.h"
#include "game/items.h"
#include "game/player.h"
#include "game/play.h"
#include "game/xp.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/anvil.h"
#include "world/block_state.h"
#include "world/world.h"

#define GM_SURVIVAL       0
#define GM_ADVENTURE      2
#define EYE_HEIGHT        1.62
#define EAT_TICKS         32
#define EAT_TICKS_FAST    16
#define KILL_CREDIT_TICKS 100
#define VOID_BELOW        64 /* blocks under the world's bottom */
#define WORLD_MIN_Y       (-64)

/* ------------------------------------------------------------ block classes */

enum { BC_WATER = 1, BC_LAVA = 2, BC_FIRE = 4, BC_CLIMB = 8, BC_WALL = 16 };
static uint8_t state_class[BLOCK_STATE_COUNT];
static bool classes_ready;

static void mark_block(const char *name, uint8_t cls)
{
    int state = anvil_block_by_name(name, strlen(name));
    if (state < 0) return;
    const struct block_info *b = &block_info[block_of_state[state]];
    for (int s = b->min_state; s <= b->max_state; s++) state_class[s] |= cls;
}

/* Every state whose block has waterlogged=true holds water. */
static void mark_waterlogged(void)
{
    for (int s = 0; s < BLOCK_STATE_COUNT; s++) {
        const char *v = NULL;
        if (block_state_prop((uint16_t)s, "waterlogged", &v) >= 0 && strcmp(v, "true") == 0)
            state_class[s] |= BC_WATER;
    }
}

static void classes_init(void)
{
    if (classes_ready) return;
    classes_ready = true;
    static const char *const water[] = {"water",      "bubble_column", "kelp",
                                        "kelp_plant", "seagrass",      "tall_seagrass"};
    static const char *const climb[] = {"ladder",
                                        "vine",
                                        "scaffolding",
                                        "weeping_vines",
                                        "weeping_vines_plant",
                                        "twisting_vines",
                                        "twisting_vines_plant",
                                        "cave_vines",
                                        "cave_vines_plant"};
    for (size_t i = 0; i < sizeof water / sizeof water[0]; i++) mark_block(water[i], BC_WATER);
    for (size_t i = 0; i < sizeof climb / sizeof climb[0]; i++) mark_block(climb[i], BC_CLIMB);
    mark_block("lava", BC_LAVA);
    mark_block("fire", BC_FIRE);
    mark_block("soul_fire", BC_FIRE);
    mark_waterlogged();
    /* Suffocating: a full cube that is not see-through (vanilla's
     * isSuffocating is roughly "solid and opaque": stone, dirt, not glass). */
    for (int b = 0; b < BLOCK_COUNT; b++) {
        uint8_t f = block_info[b].flags;
        if ((f & BLOCK_FLAG_SOLID) && !(f & BLOCK_FLAG_TRANSPARENT))
            for (int s = block_info[b].min_state; s <= block_info[b].max_state; s++)
                state_class[s] |= BC_WALL;
    }
}

/* The class bits of the block at a world position; 0 when not loaded. */
static uint8_t class_at(double x, double y, double z)
{
    uint16_t st;
    if (world_get_block(&game.world, (int32_t)floor(x), (int32_t)floor(y), (int32_t)floor(z), &st) <
            0 ||
        st >= BLOCK_STATE_COUNT)
        return 0;
    return state_class[st];
}

/* What the player's body (feet and the block above) touches. */
static uint8_t body_classes(const player *p)
{
    return class_at(p->x, p->y, p->z) | class_at(p->x, p->y + 1.0, p->z);
}

/* Eyes inside a suffocating block: the four corners of a 0.48-wide square
 * at eye height (vanilla isInWall: the box of width 0.8 × 0.6). */
static bool in_wall(const player *p)
{
    double ey = p->y + EYE_HEIGHT;
    for (int i = 0; i < 4; i++) {
        double x = p->x + ((i & 1) ? 0.24 : -0.24), z = p->z + ((i & 2) ? 0.24 : -0.24);
        if (class_at(x, ey, z) & BC_WALL) return true;
    }
    return false;
}

static bool takes_damage(const player *p)
{
    return p->gamemode == GM_SURVIVAL || p->gamemode == GM_ADVENTURE;
}

/* ----------------------------------------------------------------- sending */

static void send_health(conn *c)
{
    player *p = c->player;
    buf_reset(&srv->pkt);
    pkt_cb_update_health(&srv->pkt, p->health > 0 ? p->health : 0.0f, p->food, p->hp.saturation);
    conn_send_pkt(c);
    if (p->health != p->hp.sent_health) ent_health_changed(c); /* viewers' metadata */
    p->hp.sent_health = p->health;
    p->hp.sent_food = p->food;
    p->hp.sent_saturation = p->hp.saturation;
}

static void send_air(conn *c)
{
    player *p = c->player;
    struct pkt_meta m = {.index = 1, .type = PKT_META_VARINT, .i = p->hp.air, .f = 0};
    buf_reset(&srv->pkt);
    pkt_cb_entity_metadata(&srv->pkt, p->entity_id, &m, 1);
    conn_send_pkt(c);
    p->hp.sent_air = p->hp.air;
}

/* srv->pkt to every player holding p's chunk (p included), each framed for
 * its own protocol. */
static void to_viewers(const player *p)
{
    int32_t cx = (int32_t)floor(p->x / 16.0), cz = (int32_t)floor(p->z / 16.0);
    size_t n;
    conn **v = cv_copy(cx, cz, &n); /* game/chunk_viewers.h */
    for (size_t i = 0; i < n; i++)
        if (!v[i]->closed) conn_send_pkt(v[i]);
}

/* Issue 15: the mob behind the hurt in progress (health_hurt_by_mob), for
 * the Damage Event's source and the death message; eid 0 none. */
static struct {
    int32_t eid, direct;
    const char *name;
} mob_src;

/* Damage Event: the type's registry id, the cause and the direct entity + 1. */
static void damage_event(const player *p, int type, const player *by)
{
    int32_t cause = by ? by->entity_id + 1 : mob_src.eid ? mob_src.eid + 1 : 0;
    int32_t direct = by ? cause : mob_src.direct ? mob_src.direct + 1 : cause;
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, PKT_PLAY_CB_DAMAGE_EVENT);
    wr_varint(&srv->pkt, p->entity_id);
    wr_varint(&srv->pkt, type);
    wr_varint(&srv->pkt, cause);
    wr_varint(&srv->pkt, direct);
    wr_bool(&srv->pkt, false); /* no source position */
    to_viewers(p);
}

/* ------------------------------------------------------------------- death */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static float rand_float(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)(rng_state >> 40) / (float)(1u << 24);
}

/* The player who gets the kill credit: hurt p in the last 100 ticks, online. */
static player *kill_credit(const player *p)
{
    if (!p->hp.attacker_eid || game.tick_count - p->hp.attacked_tick > KILL_CREDIT_TICKS)
        return NULL;
    for (size_t i = 0; i < game.player_count; i++) {
        player *o = game.players[i]->player;
        if (o && o != p && o->entity_id == p->hp.attacker_eid) return o;
    }
    return NULL;
}

/* The en_us text of key with the names substituted (%s, %1$s, %2$s). */
static void plain_message(buf_t *out, const char *key, const char *a, const char *b)
{
    const char *t = hr_death_text(key);
    if (!t) t = key;
    int next = 0;
    for (const char *s = t; *s; s++) {
        int arg = -1;
        if (s[0] == '%' && s[1] == 's') {
            arg = next++;
            s += 1;
        } else if (s[0] == '%' && (s[1] == '1' || s[1] == '2') && s[2] == '$' && s[3] == 's') {
            arg = s[1] - '1';
            s += 3;
        }
        if (arg < 0) {
            buf_append(out, s, 1);
            continue;
        }
        const char *who = arg == 0 ? a : b;
        if (who) buf_append(out, who, strlen(who));
    }
}

/* Drops every slot but the crafting grid's result where p is (Player.drop
 * with dropAround: from eye height − 0.3, 40 ticks' pickup delay, a random
 * push up to 0.5 sideways and 0.2 up), and empties the inventory. */
static void drop_inventory(conn *c)
{
    player *p = c->player;
    double y = p->y + EYE_HEIGHT - 0.3;
    for (int i = 1; i < 46; i++) {
        struct inv_slot *s = &p->inventory[i];
        if (s->item <= 0 || s->count <= 0) continue;
        float f = rand_float() * 0.5f, a = rand_float() * 6.2831855f;
        int32_t eid =
            items_spawn(p->x, y, p->z, -sinf(a) * f, 0.2, cosf(a) * f, s->item, s->count, 40);
        items_set_stack(eid, s); /* a worn tool stays worn, an enchanted one enchanted */
        *s = (struct inv_slot){0};
    } /* the client is told at the next sync (game/inventory.c inventory_tick) */
}

/* ServerPlayer.die for damage type `type` (invariant 2). */
static void die(conn *c, int type)
{
    player *p = c->player;
    const struct damage_type_info *dt = &damage_types[type];
    player *killer = kill_credit(p);
    char key[96];
    bool two = false;
    if (dt->death_message == DEATH_MSG_FALL_VARIANTS && p->hp.fall_distance > 5.0f) {
        snprintf(key, sizeof key, "death.fell.accident.generic");
    } else {
        snprintf(key, sizeof key, "death.attack.%s", dt->message_id);
        if (type == DAMAGE_TYPE_PLAYER_ATTACK) {
            two = killer != NULL;
        } else if (killer) {
            char with[sizeof key + 8];
            snprintf(with, sizeof with, "%s.player", key);
            if (hr_death_text(with) && strlen(with) < sizeof key) {
                memcpy(key, with, strlen(with) + 1);
                two = true;
            }
        }
    }
    if (!two) killer = NULL;
    chat_arg args[2] = {chat_player(p), chat_player(killer ? killer : p)};
    /* issue 15: killed by a mob (death.attack.mob "was slain by", .arrow
     * "was shot by"): the mob's name is the second argument */
    bool by_mob = !killer && mob_src.eid && mob_src.name && hr_death_text(key) &&
                  strstr(hr_death_text(key), "%2$s");
    if (by_mob) args[1] = chat_text(mob_src.name);
    buf_t j, t;
    buf_init(&j, 2048);
    buf_init(&t, 256);
    chat_tr_json(&j, NULL, key, args, killer || by_mob ? 2 : 1);
    plain_message(&t, key, p->name, by_mob ? mob_src.name : killer ? killer->name : NULL);
    ent_die(c, j.failed ? NULL : (const char *)j.data, j.len, (const char *)t.data, t.len);
    buf_free(&j);
    buf_free(&t);
    if (c->closed) return;
    inventory_leave(c); /* the grids and the cursor go back first (vanilla closes the menu) */
    if (!gamerule_on(GR_KEEP_INVENTORY)) drop_inventory(c);
    xp_player_died(c); /* issue 14: the experience as orbs, unless keepInventory */
    inventory_touch(p);
    p->hp.fall_distance = 0;
    p->hp.fire_ticks = 0;
    p->hp.fire_shown = false; /* the death cleared the entity's flags */
    p->hp.eating_ticks = 0;
    p->hp.attacker_eid = 0;
    p->hp.sent_health = 0;
}

bool health_kill(conn *c, int type)
{
    player *p = c->player;
    if (!p || !(p->health > 0) || !p->ent) return false;
    if (type < 0 || type >= DAMAGE_TYPE_COUNT) type = DAMAGE_TYPE_GENERIC;
    p->health = 0;
    die(c, type);
    return true;
}

/* -------------------------------------------------------------------- hurt */

/* The armour points and toughness of what p wears (slots 5-8). */
static void armour_of(const player *p, float *points, float *tough)
{
    *points = *tough = 0;
    for (int i = 5; i <= 8; i++) {
        const struct armour_info *a = hr_armour_of(p->inventory[i].item);
        if (!a || p->inventory[i].count <= 0 || 8 - i != a->slot) continue;
        *points += a->points;
        *tough += a->toughness;
    }
}

/* vanilla 1.20.1's damage type tags is_fire, is_fall, is_explosion and
 * is_projectile, for the protection enchantments (game/enchant.h). */
static unsigned hit_kind(int type)
{
    switch (type) {
    case DAMAGE_TYPE_IN_FIRE:
    case DAMAGE_TYPE_ON_FIRE:
    case DAMAGE_TYPE_LAVA:
    case DAMAGE_TYPE_HOT_FLOOR: return ENCH_HIT_FIRE;
    case DAMAGE_TYPE_FIREBALL:
    case DAMAGE_TYPE_UNATTRIBUTED_FIREBALL: return ENCH_HIT_FIRE | ENCH_HIT_PROJECTILE;
    case DAMAGE_TYPE_FALL:
    case DAMAGE_TYPE_STALAGMITE: return ENCH_HIT_FALL;
    case DAMAGE_TYPE_EXPLOSION:
    case DAMAGE_TYPE_PLAYER_EXPLOSION:
    case DAMAGE_TYPE_FIREWORKS:
    case DAMAGE_TYPE_BAD_RESPAWN_POINT: return ENCH_HIT_EXPLOSION;
    case DAMAGE_TYPE_ARROW:
    case DAMAGE_TYPE_TRIDENT:
    case DAMAGE_TYPE_MOB_PROJECTILE:
    case DAMAGE_TYPE_WITHER_SKULL:
    case DAMAGE_TYPE_THROWN: return ENCH_HIT_PROJECTILE;
    default: return 0;
    }
}

/* LivingEntity.getDamageAfterMagicAbsorb's enchantment part: the worn
 * pieces' protection (none for bypasses_invulnerability, bypasses_effects
 * and bypasses_enchantments types: the void, /kill, starving, sonic boom). */
static float enchant_absorb(const player *p, int type, float dmg)
{
    if (!(dmg > 0.0f) || type == DAMAGE_TYPE_OUT_OF_WORLD || type == DAMAGE_TYPE_GENERIC_KILL ||
        type == DAMAGE_TYPE_STARVE || type == DAMAGE_TYPE_SONIC_BOOM)
        return dmg;
    const uint16_t *worn[4];
    for (int i = 5; i <= 8; i++)
        worn[i - 5] = p->inventory[i].count > 0 ? p->inventory[i].ench : NULL;
    int points = ench_protection_points(worn, 4, hit_kind(type));
    return points > 0 ? ench_magic_absorb(dmg, points) : dmg;
}

/* Damage types that ignore armour (vanilla's bypasses_armor tag). */
static bool bypasses_armour(int type)
{
    switch (type) {
    case DAMAGE_TYPE_ON_FIRE:
    case DAMAGE_TYPE_IN_WALL:
    case DAMAGE_TYPE_CRAMMING:
    case DAMAGE_TYPE_DROWN:
    case DAMAGE_TYPE_FLY_INTO_WALL:
    case DAMAGE_TYPE_GENERIC:
    case DAMAGE_TYPE_WITHER:
    case DAMAGE_TYPE_DRAGON_BREATH:
    case DAMAGE_TYPE_STARVE:
    case DAMAGE_TYPE_FALL:
    case DAMAGE_TYPE_FREEZE:
    case DAMAGE_TYPE_STALAGMITE:
    case DAMAGE_TYPE_MAGIC:
    case DAMAGE_TYPE_INDIRECT_MAGIC:
    case DAMAGE_TYPE_OUT_OF_WORLD:
    case DAMAGE_TYPE_GENERIC_KILL:
    case DAMAGE_TYPE_SONIC_BOOM:
    case DAMAGE_TYPE_OUTSIDE_BORDER: return true;
    default: return false;
    }
}

bool health_hurt(conn *c, int type, float amount, conn *attacker)
{
    player *p = c->player;
    if (!p || !p->ent || !(p->health > 0) || type < 0 || type >= DAMAGE_TYPE_COUNT) return false;
    if (!(amount >= 0.0f) || amount > 1.0e6f) return false;
    bool bypass_invuln = type == DAMAGE_TYPE_OUT_OF_WORLD || type == DAMAGE_TYPE_GENERIC_KILL;
    if (!takes_damage(p) && !bypass_invuln) return false; /* abilities.invulnerable */
    /* ServerPlayer.hurt: no damage for 60 ticks after spawning, but falls on a pvp server. */
    bool fall_exempt = srv->cfg.pvp && type == DAMAGE_TYPE_FALL;
    if (p->hp.spawn_invuln > 0 && !bypass_invuln && !fall_exempt) return false;
    player *by = attacker ? attacker->player : NULL;
    if (by && !srv->cfg.pvp) return false; /* canHarmPlayer */
    beds_wake_now(c);                      /* issue 21: LivingEntity.hurt wakes a sleeper */
    if (amount == 0.0f) return false;
    bool fresh;
    float dmg = hr_hurt_amount(p->hp.invuln, p->hp.last_hurt, amount, &fresh);
    if (!fresh && dmg <= 0.0f) return false;
    if (fresh) p->hp.invuln = HR_INVULNERABLE;
    p->hp.last_hurt = fresh ? amount : fmaxf(amount, p->hp.last_hurt);
    if (!bypasses_armour(type)) {
        float points, tough;
        armour_of(p, &points, &tough);
        if (points > 0) dmg = hr_armour_absorb(dmg, points, tough);
    }
    dmg = enchant_absorb(p, type, dmg); /* issue 14: protection, feather falling */
    if (by) {
        p->hp.attacker_eid = by->entity_id;
        p->hp.attacked_tick = game.tick_count;
    }
    if (dmg > 0.0f) {
        struct hr_food f = {p->food, p->hp.saturation, p->hp.exhaustion, p->hp.food_timer};
        hr_food_exhaust(&f, damage_types[type].exhaustion);
        p->hp.exhaustion = f.exhaustion;
        p->health = fmaxf(p->health - dmg, 0.0f);
    }
    if (fresh) damage_event(p, type, by);
    if (c->closed) return fresh;
    if (!(p->health > 0)) {
        die(c, type);
    } else if (p->health != p->hp.sent_health) {
        send_health(c);
    }
    return fresh;
}

/* Issue 15: a mob's hit (Mob.doHurtTarget) or its arrow. Damage caused by
 * a living non-player scales with the difficulty (Player.hurt): none on
 * peaceful, min(a / 2 + 1, a) on easy, a × 1.5 on hard. Knockback is the
 * caller's. */
bool health_hurt_by_mob(conn *c, int type, float amount, int32_t mob_eid, int32_t direct_eid,
                        const char *mob_name)
{
    switch (gamerules_difficulty()) {
    case 0: amount = 0.0f; break;
    case 1: amount = fminf(amount / 2.0f + 1.0f, amount); break;
    case 3: amount = amount * 3.0f / 2.0f; break;
    default: break;
    }
    mob_src.eid = mob_eid;
    mob_src.direct = direct_eid;
    mob_src.name = mob_name;
    bool fresh = health_hurt(c, type, amount, NULL);
    mob_src.eid = mob_src.direct = 0;
    mob_src.name = NULL;
    return fresh;
}

/* ----------------------------------------------------------------- movement */

void health_join(conn *c)
{
    classes_init();
    player *p = c->player;
    struct player_health *h = &p->hp;
    if (!h->from_file) { /* a new player: vanilla FoodData's start */
        h->saturation = HR_START_SATURATION;
        h->exhaustion = 0;
        h->food_timer = 0;
        h->air = HR_MAX_AIR;
    }
    if (!(h->saturation >= 0.0f)) h->saturation = 0.0f;
    if (h->saturation > (float)p->food) h->saturation = (float)p->food;
    if (!(h->exhaustion >= 0.0f) || h->exhaustion > 40.0f) h->exhaustion = 0.0f;
    if (h->air <= 0 || h->air > HR_MAX_AIR) h->air = HR_MAX_AIR;
    if (!(h->fall_distance >= 0.0f) || h->fall_distance > 1.0e6f) h->fall_distance = 0.0f;
    h->spawn_invuln = HR_SPAWN_INVULNERABLE;
    h->sent_health = p->health > 0 ? p->health : 20.0f;
    h->sent_food = p->food;
    h->sent_saturation = h->saturation;
    h->sent_air = HR_MAX_AIR;
    h->was_on_ground = true;
    h->held_item = p->inventory[36 + p->held_slot].item;
    xp_send(c); /* issue 14: the experience bar (from playerdata) */
}

void health_respawn(conn *c)
{
    player *p = c->player;
    struct player_health *h = &p->hp;
    memset(h, 0, sizeof *h);
    p->health = HR_MAX_HEALTH;
    p->food = HR_MAX_FOOD;
    h->saturation = HR_START_SATURATION;
    h->air = HR_MAX_AIR;
    h->spawn_invuln = HR_SPAWN_INVULNERABLE;
    h->sent_health = p->health;
    h->sent_food = p->food;
    h->sent_saturation = h->saturation;
    h->sent_air = HR_MAX_AIR;
    xp_send(c); /* kept with keepInventory, else 0 since the death (game/xp.c) */
}

void health_teleported(conn *c)
{
    c->player->hp.fall_distance = 0;
}

void health_sprinting(conn *c, bool on)
{
    c->player->hp.sprinting = on;
}

void health_swing(conn *c)
{
    c->player->hp.attack_ticks = 0;
}

void health_exhaust(conn *c, float amount)
{
    player *p = c->player;
    if (!takes_damage(p)) return;
    struct hr_food f = {p->food, p->hp.saturation, p->hp.exhaustion, p->hp.food_timer};
    hr_food_exhaust(&f, amount);
    p->hp.exhaustion = f.exhaustion;
}

void health_mined(conn *c)
{
    health_exhaust(c, HR_EXHAUST_MINE);
}

void health_release_item(conn *c)
{
    c->player->hp.eating_ticks = 0;
}

void health_moved(conn *c, double ox, double oy, double oz, bool on_ground)
{
    player *p = c->player;
    struct player_health *h = &p->hp;
    bool was_on_ground = h->was_on_ground;
    h->was_on_ground = on_ground;
    if (!(p->health > 0) || !takes_damage(p)) {
        h->fall_distance = 0;
        return;
    }
    double dx = p->x - ox, dy = p->y - oy, dz = p->z - oz;
    uint8_t body = body_classes(p);
    h->in_water = body & BC_WATER;
    /* Jumping (ServerGamePacketListenerImpl: was on the ground, is not, went up). */
    if (was_on_ground && !on_ground && dy > 0.0)
        health_exhaust(c, h->sprinting ? HR_EXHAUST_SPRINT_JUMP : HR_EXHAUST_JUMP);
    /* Player.checkMovementStatistics, horizontally, in whole centimetres. */
    double cm = round(sqrt(dx * dx + dz * dz) * 100.0);
    if (cm > 0 && cm < 1.0e4) {
        if (h->in_water)
            health_exhaust(c, HR_EXHAUST_SWIM * (float)cm * 0.01f);
        else if (h->sprinting)
            health_exhaust(c, HR_EXHAUST_SPRINT * (float)cm * 0.01f);
    }
    if (body & (BC_WATER | BC_CLIMB)) { /* the fall ends in water or on a ladder */
        h->fall_distance = 0;
        return;
    }
    if (on_ground) {
        float fall = h->fall_distance;
        if (fall > 0) /* FarmBlock.fallOn: the block under the feet (getOnPos) */
            growth_fall_on((int32_t)floor(p->x), (int32_t)floor(p->y - 0.2), (int32_t)floor(p->z),
                           fall, true);
        float dmg = hr_fall_damage(fall);
        if (dmg > 0) {
            /* the message's fall distance is the one at the hit */
            health_hurt(c, DAMAGE_TYPE_FALL, dmg, NULL);
        }
        h->fall_distance = 0;
    } else if (dy < 0.0) {
        h->fall_distance -= (float)dy;
        if (h->fall_distance > 1.0e6f) h->fall_distance = 1.0e6f;
    }
}

/* ------------------------------------------------------------------ eating */

static int dried_kelp = -1;

void health_sb_use_item(conn *c, rd_t *r)
{
    int32_t hand = rd_varint(r);
    int32_t seq = rd_varint(r);
    if (r->err) return;
    player *p = c->player;
    play_ack_later(p, seq); /* acknowledged with the block changes */
    if (!(p->health > 0) || hand < 0 || hand > 1 || p->gamemode == 3) return;
    const struct inv_slot *s = &p->inventory[hand ? 45 : 36 + p->held_slot];
    const struct food_info *f = s->count > 0 ? hr_food_of(s->item) : NULL;
    if (!f) return;
    if (p->food >= HR_MAX_FOOD && p->gamemode != 1) return; /* Player.canEat */
    if (dried_kelp < 0) {
        dried_kelp = 0;
        for (int i = 1; i < ITEM_COUNT; i++)
            if (item_info[i].name && strcmp(item_info[i].name, "dried_kelp") == 0) dried_kelp = i;
    }
    p->hp.eating_hand = hand;
    p->hp.eating_ticks = s->item == dried_kelp ? EAT_TICKS_FAST : EAT_TICKS;
}

/* One tick of eating: at 0, FoodData.eat, one item used up, Entity Event 9. */
static void eat_tick(conn *c)
{
    player *p = c->player;
    struct player_health *h = &p->hp;
    if (h->eating_ticks <= 0) return;
    int slot = h->eating_hand ? 45 : 36 + p->held_slot;
    struct inv_slot *s = &p->inventory[slot];
    const struct food_info *f = s->count > 0 ? hr_food_of(s->item) : NULL;
    if (!f) {
        h->eating_ticks = 0;
        return;
    }
    if (--h->eating_ticks > 0) return;
    struct hr_food fd = {p->food, h->saturation, h->exhaustion, h->food_timer};
    hr_food_eat(&fd, f->points, f->saturation);
    p->food = fd.food;
    h->saturation = fd.saturation;
    if (p->gamemode != 1 && --s->count <= 0) *s = (struct inv_slot){0};
    inventory_touch(p);
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, p->entity_id, 9);
    conn_send_pkt(c); /* the slot goes at the next sync (game/inventory.c) */
}

/* -------------------------------------------------------------------- tick */

/* What the body touches, looked up again only when the player moved or the
 * world changed (world.block_epoch), so a player standing still costs no
 * block lookups. */
static void sense(player *p)
{
    struct player_health *h = &p->hp;
    uint64_t epoch = game.world.block_epoch;
    if (h->env_valid && h->env_epoch == epoch && h->env_x == p->x && h->env_y == p->y &&
        h->env_z == p->z)
        return;
    h->env_valid = true;
    h->env_epoch = epoch;
    h->env_x = p->x;
    h->env_y = p->y;
    h->env_z = p->z;
    h->env_body = body_classes(p);
    h->env_eyes_in_water = class_at(p->x, p->y + EYE_HEIGHT, p->z) & BC_WATER;
    h->env_in_wall = in_wall(p);
}

/* The burning flag others see, set only when it changes. */
static void show_fire(conn *c, bool on)
{
    struct player_health *h = &c->player->hp;
    if (on == h->fire_shown) return;
    h->fire_shown = on;
    ent_set_burning(c, on);
}

void health_tick_player(conn *c)
{
    player *p = c->player;
    struct player_health *h = &p->hp;
    if (!p->ent || !(p->health > 0)) return;
    if (h->spawn_invuln > 0) h->spawn_invuln--;
    if (h->invuln > 0) h->invuln--;
    h->attack_ticks++;
    /* Player.tick: a new item in hand (the hand changes only with the
     * inventory, so it is looked at only then: player.h inv_touch_tick) */
    int held = inventory_touched(p, 1) ? p->inventory[36 + p->held_slot].item : h->held_item;
    if (held != h->held_item) {
        h->held_item = held;
        h->attack_ticks = 0;
        if (!h->eating_hand) h->eating_ticks = 0;
    }
    if (p->y < WORLD_MIN_Y - VOID_BELOW && p->gamemode != 3) {
        health_hurt(c, DAMAGE_TYPE_OUT_OF_WORLD, 4.0f, NULL);
        if (c->closed || !(p->health > 0)) return;
    }
    if (takes_damage(p)) {
        sense(p);
        uint8_t body = h->env_body;
        if (h->env_eyes_in_water) {
            if (--h->air <= -20) {
                h->air = 0;
                health_hurt(c, DAMAGE_TYPE_DROWN, 2.0f, NULL);
            }
        } else if (h->air < HR_MAX_AIR) {
            h->air = h->air + 4 > HR_MAX_AIR ? HR_MAX_AIR : h->air + 4;
        }
        if (body & BC_WATER) h->fire_ticks = 0;
        if (body & BC_LAVA) {
            h->fire_ticks = 300; /* setSecondsOnFire(15) */
            health_hurt(c, DAMAGE_TYPE_LAVA, 4.0f, NULL);
            h->fall_distance *= 0.5f;
        } else if (body & BC_FIRE) {
            if (h->fire_ticks < 160) h->fire_ticks = 160; /* setSecondsOnFire(8) */
            health_hurt(c, DAMAGE_TYPE_IN_FIRE, 1.0f, NULL);
        }
        if (c->closed || !(p->health > 0)) return;
        if (h->fire_ticks > 0) {
            if (h->fire_ticks % 20 == 0 && !(body & BC_LAVA))
                health_hurt(c, DAMAGE_TYPE_ON_FIRE, 1.0f, NULL);
            h->fire_ticks--;
        }
        if (c->closed || !(p->health > 0)) return;
        show_fire(c, h->fire_ticks > 0);
        if (c->closed) return;
        if (h->env_in_wall) health_hurt(c, DAMAGE_TYPE_IN_WALL, 1.0f, NULL);
        if (c->closed || !(p->health > 0)) return;
    } else {
        h->air = HR_MAX_AIR;
        show_fire(c, false);
        h->fire_ticks = 0;
    }
    /* Hunger (FoodData.tick) and peaceful's regeneration (Player.aiStep). */
    int difficulty = gamerules_difficulty();
    if (difficulty == 0) {
        if (p->health < HR_MAX_HEALTH && game.tick_count % 20 == 0)
            p->health = fminf(p->health + 1.0f, HR_MAX_HEALTH);
        if (p->food < HR_MAX_FOOD && game.tick_count % 10 == 0) p->food++;
    }
    if (takes_damage(p)) {
        struct hr_food f = {p->food, h->saturation, h->exhaustion, h->food_timer};
        float d = hr_food_tick(&f, p->health, difficulty, true);
        p->food = f.food;
        h->saturation = f.saturation;
        h->exhaustion = f.exhaustion;
        h->food_timer = f.timer;
        if (d > 0)
            p->health = fminf(p->health + d, HR_MAX_HEALTH);
        else if (d < 0)
            health_hurt(c, DAMAGE_TYPE_STARVE, -d, NULL);
        if (c->closed || !(p->health > 0)) return;
    }
    eat_tick(c);
    if (c->closed) return;
    if (p->health != h->sent_health || p->food != h->sent_food ||
        (h->saturation == 0.0f) != (h->sent_saturation == 0.0f))
        send_health(c);
    if (!c->closed && h->air != h->sent_air) send_air(c);
}
