/*
 * ent_actions.c — what a player does that the players tracking it see, and
 * the changes of its own state that go with them (game/entities.h): client
 * settings (skin layers, main hand), the keep-alive latency, sneaking and
 * sprinting, arm swings, game mode, teleports, death and respawn.
 *
 * Each action only records what changed in the player's struct ent
 * (game/ent_internal.h): the next relay (game/entities.c, tick phase 6)
 * frames it once into the player's cell batch for every viewer.
 *
 * Invariants:
 *  1. A player whose entity left (p->ent NULL) or is dead is not acted on
 *     (actions are ignored, as vanilla ignores a dead player's input).
 *  2. A respawn makes the entity new for every client: the old body is
 *     removed everywhere before the new one is spawned (entities.c phase 1),
 *     and then, held by no client, its base is taken afresh.
 */
#include <math.h>
#include <string.h>

#include "core/log.h"
#include "data/combat_table.h"
#include "game/inventory.h"
#include "game/beds.h" /* issue 21 */
#include "game/chat.h"
#include "game/ent_internal.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/items.h"
#include "game/mobs.h"
#include "game/gamerules.h"
#include "game/health.h"
#include "game/play.h"
#include "game/playerdata.h"
#include "game/plugins.h" /* plugins */
#include "game/spawnpoint.h"
#include "proto/packets.h"

int8_t ent_ability_flags(int gamemode)
{
    switch (gamemode) {
    case 1: return 0x01 | 0x04 | 0x08; /* invulnerable, may fly, creative */
    case 3: return 0x01 | 0x02 | 0x04; /* invulnerable, flying, may fly */
    default: return 0;
    }
}

void ent_settings(conn *c, uint8_t skin_parts, int main_hand, int chat_mode)
{
    player *p = c->player;
    p->chat_mode = chat_mode;
    if (p->skin_parts == skin_parts && p->main_hand == (uint8_t)main_hand) return;
    p->skin_parts = skin_parts;
    p->main_hand = (uint8_t)(main_hand ? 1 : 0);
    if (p->ent) p->ent->looks_dirty = true;
}

void ent_keepalive_rtt(conn *c, int64_t rtt_ms)
{
    player *p = c->player;
    if (rtt_ms < 0) rtt_ms = 0;
    if (rtt_ms > 1000000) rtt_ms = 1000000;
    p->latency_ms = (int32_t)((p->latency_ms * 3 + rtt_ms) / 4);
}

void ent_sb_entity_action(conn *c, rd_t *r)
{
    rd_varint(r); /* entity id: the sender's own */
    int32_t action = rd_varint(r);
    rd_varint(r); /* jump boost */
    if (r->err) return;
    struct ent *e = c->player->ent;
    if (!e || c->player->health <= 0) return;
    uint8_t flags = e->flags, pose = e->pose;
    switch (action) {
    case 0: /* start sneaking */
        flags |= ENT_FLAG_CROUCHING;
        pose = c->player->gamemode == ENT_SPECTATOR ? ENT_POSE_STANDING : ENT_POSE_CROUCHING;
        break;
    case 1: /* stop sneaking */
        flags &= (uint8_t)~ENT_FLAG_CROUCHING;
        pose = ENT_POSE_STANDING;
        break;
    case 2: beds_leave_bed(c); return; /* leave bed (issue 21) */
    case 3: flags |= ENT_FLAG_SPRINTING; break;
    case 4: flags &= (uint8_t)~ENT_FLAG_SPRINTING; break;
    default: return; /* horse jumps, inventory, elytra: not relayed */
    }
    if (flags != e->flags || pose != e->pose) {
        e->flags = flags;
        e->pose = pose;
        e->meta_dirty = true;
    }
}

void ent_sb_arm_animation(conn *c, rd_t *r)
{
    int32_t hand = rd_varint(r);
    if (r->err) return;
    struct ent *e = c->player->ent;
    if (!e || c->player->health <= 0 || hand < 0 || hand > 1) return;
    e->anims |= (uint8_t)(1u << hand);
}

void ent_set_gamemode(conn *c, int gm)
{
    player *p = c->player;
    p->gamemode = gm;
    buf_reset(&srv->pkt);
    pkt_cb_game_state_change(&srv->pkt, 3, (float)gm);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    pkt_cb_abilities(&srv->pkt, ent_ability_flags(gm), 0.05f, 0.1f);
    conn_send_pkt(c);
    struct pkt_player_update u = {p->uuid, gm, true, p->latency_ms};
    buf_reset(&srv->pkt);
    pkt_cb_player_info_update(&srv->pkt, PKT_INFO_GAMEMODE, &u, 1);
    chat_broadcast_pkt(NULL);
    if (p->ent && gm == ENT_SPECTATOR && p->ent->pose != ENT_POSE_STANDING) {
        p->ent->pose = ENT_POSE_STANDING;
        p->ent->meta_dirty = true;
    }
}

void ent_set_sleeping(conn *c, bool on)
{
    player *p = c->player;
    struct ent *e = p->ent;
    if (!e) return;
    if (!on && !c->closed) { /* ServerPlayer.stopSleepInBed: broadcastAndSend */
        buf_reset(&srv->pkt);
        pkt_cb_animation(&srv->pkt, p->entity_id, 2);
        conn_send_pkt(c);
    }
    if (!on) e->anims |= ENT_ANIM_WAKE;
    e->pose = on ? ENT_POSE_SLEEPING : ENT_POSE_STANDING;
    e->was_asleep = true;
    e->meta_dirty = true;
    if (c->closed) return;
    struct pkt_meta m[2] = {{.index = 6, .type = PKT_META_POSE, .i = e->pose},
                            ent_sleeping_pos_meta(p)};
    buf_reset(&srv->pkt);
    pkt_cb_entity_metadata(&srv->pkt, p->entity_id, m, 2);
    conn_send_pkt(c);
}

void ent_teleport(conn *c, double x, double y, double z, float yaw, float pitch)
{
    player *p = c->player;
    p->x = x;
    p->y = y;
    p->z = z;
    p->yaw = yaw;
    p->pitch = pitch;
    p->teleport_id++;
    p->teleport_pending = true;
    buf_reset(&srv->pkt);
    c->proto->cb_position(&srv->pkt, x, y, z, yaw, pitch, 0, p->teleport_id);
    conn_send_pkt(c);
    if (!c->closed) play_follow_teleport(c); /* Set Center Chunk and the new chunks */
}

bool ent_kill(conn *c)
{
    return health_kill(c,
                       DAMAGE_TYPE_GENERIC_KILL); /* issue 14: drops, the message (game/health.c) */
}

void ent_die(conn *c, const char *json, size_t json_len, const char *plain, size_t plain_len)
{
    player *p = c->player;
    struct ent *e = p->ent;
    beds_wake_now(c); /* issue 21 */
    p->health = 0;
    if (!e) return;
    e->death_ticks = 0;
    e->death_x = (int32_t)floor(p->x);
    e->death_y = (int32_t)floor(p->y);
    e->death_z = (int32_t)floor(p->z);
    e->status = 3; /* death animation for everyone tracking */
    e->health_dirty = true;
    if (e->flags || e->pose) {
        e->flags = 0;
        e->pose = ENT_POSE_STANDING;
        e->meta_dirty = true;
    }
    bool show = gamerule_on(GR_SHOW_DEATH_MESSAGES); /* issue 17: game/gamerules.h */
    if (json) {
        buf_reset(&srv->pkt);
        c->proto->cb_death_combat_event(&srv->pkt, p->entity_id, show ? json : "{\"text\":\"\"}",
                                        show ? json_len : 11);
        conn_send_pkt(c);
        if (show) chat_broadcast(json, json_len, false);
    }
    if (show && plain) log_info("%.*s", (int)plain_len, plain);
    buf_reset(&srv->pkt);
    pkt_cb_update_health(&srv->pkt, 0.0f, p->food, 0.0f);
    conn_send_pkt(c);
    plugin_event_death(c); /* plugins */
}

void ent_health_changed(conn *c)
{
    if (c->player->ent) c->player->ent->health_dirty = true;
}

void ent_set_burning(conn *c, bool on)
{
    struct ent *e = c->player->ent;
    if (!e) return;
    uint8_t f =
        on ? (uint8_t)(e->flags | ENT_FLAG_ON_FIRE) : (uint8_t)(e->flags & ~ENT_FLAG_ON_FIRE);
    if (f == e->flags) return;
    e->flags = f;
    e->meta_dirty = true;
    struct pkt_meta m = {.index = 0, .type = PKT_META_BYTE, .i = f, .f = 0};
    buf_reset(&srv->pkt);
    pkt_cb_entity_metadata(&srv->pkt, c->player->entity_id, &m, 1);
    conn_send_pkt(c);
}

/* The respawn flow (vanilla PlayerList.respawn, same dimension). */
static void respawn(conn *c)
{
    player *p = c->player;
    struct ent *e = p->ent;
    struct pkt_respawn rs = {
        .dimension_type = "minecraft:overworld",
        .world_name = "minecraft:overworld",
        .hashed_seed = hashed_seed(srv->cfg.seed),
        .gamemode = (uint8_t)p->gamemode,
        .previous_gamemode = -1,
        .is_flat = srv->cfg.level_type == LEVEL_FLAT,
        .copy_metadata = false,
        .has_death = true,
        .death_world = "minecraft:overworld",
        .death_x = e->death_x,
        .death_y = e->death_y,
        .death_z = e->death_z,
        .sea_level = game_sea_level(),
    };
    buf_reset(&srv->pkt);
    c->proto->cb_respawn(&srv->pkt, &rs);
    conn_send_pkt(c);
    items_forget(p); /* the client dropped every entity */
    mobs_forget(p);

    p->health = 20.0f;
    p->food = 20;
    health_respawn(c); /* issue 14: saturation, air, timers (game/health.c) */
    p->x = game.spawn_x;
    p->y = game.spawn_y;
    p->z = game.spawn_z;
    p->yaw = game.spawn_angle;
    p->pitch = 0;
    spawnpoint_respawn(c); /* issue 17: the player's own point (game/spawnpoint.h) */
    p->on_ground = false;
    if (gamerule_on(GR_KEEP_INVENTORY)) /* issue 17: game/gamerules.h */
        playerdata_send_inventory(c);   /* the client's new player starts empty */
    else
        memset(p->inventory, 0, sizeof p->inventory); /* dropped at death (game/health.c) */
    inventory_touch(p);
    p->held_slot = 0;
    /* The client starts a new level: it is sent its chunks again. */
    play_reset_window(c);
    buf_reset(&srv->pkt);
    pkt_cb_abilities(&srv->pkt, ent_ability_flags(p->gamemode), 0.05f, 0.1f);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    c->proto->cb_spawn_position(&srv->pkt, (int32_t)floor(game.spawn_x),
                                (int32_t)floor(game.spawn_y), (int32_t)floor(game.spawn_z),
                                game.spawn_angle);
    conn_send_pkt(c);
    ent_teleport(c, p->x, p->y, p->z, p->yaw, p->pitch);
    buf_reset(&srv->pkt);
    c->proto->cb_update_time(&srv->pkt, (int64_t)game.tick_count,
                             gamerules_wire_time(game.day_time)); /* issue 17: doDaylightCycle */
    conn_send_pkt(c);
    if (game.raining) {
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 1, 0);
        conn_send_pkt(c);
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 7, 1.0f);
        conn_send_pkt(c);
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 8, game.thundering ? 1.0f : 0.0f);
        conn_send_pkt(c);
    }
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, p->entity_id, (int8_t)(24 + p->op_level));
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    pkt_cb_update_health(&srv->pkt, p->health, p->food, p->hp.saturation);
    conn_send_pkt(c);

    e->death_ticks = -1;
    e->respawned = e->present; /* the old body is still on clients */
    e->present = true;
    e->flags = 0;
    e->pose = ENT_POSE_STANDING;
    e->anims = 0;
    e->status = 0;
    e->meta_dirty = e->health_dirty = false;
    ent_base_reset(e);
    ent_equipment_of(p, e->equip);
    e->spawn_tick = 0;
    e->rescan = true; /* its own view starts from nothing */
    ent_mark_changed(e);
    log_info("%s respawned", p->name);
}

void ent_sb_client_command(conn *c, rd_t *r)
{
    int32_t action = rd_varint(r);
    if (r->err) return;
    if (action == 0 && c->player->health <= 0 && c->player->ent) respawn(c);
}
