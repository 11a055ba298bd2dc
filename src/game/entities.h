/*
 * entities.h — players seeing each other: entity tracking over interest
 * cells, the per-tick movement relay (encoded once per cell), actions
 * (swing, sneak, sprint), equipment, game mode, health, death and respawn,
 * and the tab list (latency, game mode, header/footer).
 *
 * Tracking rule (vanilla ChunkMap.TrackedEntity, decided per chunk): viewer
 * V sees player E ≠ V when E is alive (or dying, < 20 ticks), E's chunk is
 * one V's client holds, and that chunk is within R blocks of V's chunk
 * (chunk distance ≤ R/16), where
 *     R = min(512 * entity-broadcast-range-percentage / 100, view-distance * 16)
 * (512 = the player type's clientTrackingRange of 32 chunks). A spectator is
 * seen only by spectators. Hubs (server.properties, docs/operations.md):
 * mcserv-max-tracked-players=N keeps each viewer to the N nearest such
 * players, mcserv-player-visibility=none hides every player from every other
 * (the tab list still lists everyone, as it lists players out of range).
 *
 * See entities.c for the tick phases and invariants.
 */
#ifndef MC_ENTITIES_H
#define MC_ENTITIES_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"
#include "net/conn.h"

/* Tracking range in blocks (R above). */
double ent_tracking_range(void);

/* Whether a player who counts for the mobs (in the world, not a
 * spectator) is within r blocks of (x, y, z), distance ≤ r. Answered from
 * the cells of the last tracking pass with the players' current positions,
 * so its cost follows the cells near the point, not the players: the
 * natural spawner's and despawning's question (vanilla's getNearestPlayer
 * compared with a distance). */
bool ent_player_within(double x, double y, double z, double r);
/* Calls fn once for each chunk column holding such a player. */
void ent_player_columns(void (*fn)(void *ctx, int32_t cx, int32_t cz), void *ctx);

/* Called from play_join after the join packets: the player becomes a tracked
 * entity, spawned for its viewers by the next tracking phase. */
void ent_join(conn *c);
/* Called from play_leave: the entity is removed from its viewers' clients by
 * the next roster phase (ent_tick_leaves); c->player->ent is NULL after it. */
void ent_leave(conn *c);
/* Bytes the tracker holds: the entity pool's slabs (core/pool.h), each
 * entity's seen bitmap, removal list and spawn cache, the slot table. */
size_t ent_memory(void);
/* Tick phase 4, before the Player Info Remove of the tick's leavers
 * (game/play.c play_tick_roster): every viewer gets one Remove Entities with
 * the ids of the leavers it had. */
void ent_tick_leaves(void);
/* The tick's phases 5 (deaths, cells, tracking: spawns and removals) and 6
 * (the movement relay), called in that order (game/tick.c). */
void ent_tick_tracking(void);
void ent_tick_relay(void);
/* The tab-list latency every client was last told for p (Player Info
 * entries for a newcomer carry it, so all clients agree). */
int32_t ent_tab_latency(const player *p);

/* Client settings that others see (skin layers, main hand) and the chat mode. */
void ent_settings(conn *c, uint8_t skin_parts, int main_hand, int chat_mode);
/* A keep-alive answer arrived after rtt_ms; updates the tab-list latency. */
void ent_keepalive_rtt(conn *c, int64_t rtt_ms);

/* Serverbound handlers. */
void ent_sb_entity_action(conn *c, rd_t *r);
void ent_sb_arm_animation(conn *c, rd_t *r);
void ent_sb_client_command(conn *c, rd_t *r);

/* Game-mode change: the player's client, abilities, everyone's tab list,
 * and (spectator) who sees the player. */
void ent_set_gamemode(conn *c, int gamemode);
/* Issue 21, beds: the player lies down (pose SLEEPING, its sleeping
 * position p->bed) or gets up (animation 2, wake up, then pose STANDING,
 * no sleeping position), for itself at once and for its viewers with the
 * next relay. */
void ent_set_sleeping(conn *c, bool on);
/* Moves the player (Synchronize Player Position); others see a teleport. */
void ent_teleport(conn *c, double x, double y, double z, float yaw, float pitch);
/* Kills the player (vanilla /kill: death.attack.genericKill; game/health.c
 * health_kill drops the inventory). False if already dead. */
bool ent_kill(conn *c);
/* The death itself (game/health.c die()): health 0, the death animation for
 * everyone, Combat Death with `json` to the player, the message to everyone
 * and `plain` to the log (unless showDeathMessages is off: then an empty
 * death screen), Set Health 0. */
void ent_die(conn *c, const char *json, size_t json_len, const char *plain, size_t plain_len);
/* Issue 14 (game/health.c): the health metadata changed (viewers see it at
 * the next relay); the player started or stopped burning (the shared
 * flags' bit 0, to the viewers and, at once, to the player itself). */
void ent_health_changed(conn *c);
void ent_set_burning(conn *c, bool on);
/* The ability flags byte for a game mode (Player Abilities). */
int8_t ent_ability_flags(int gamemode);

#endif
