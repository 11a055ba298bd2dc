/*
 * health.h — players' health, hunger and death, as vanilla 1.20.1
 * (LivingEntity, Player, ServerPlayer, FoodData): fall damage from the
 * movement packets, the void, drowning, lava and fire, suffocation,
 * natural regeneration and starvation, exhaustion, eating, the damage
 * everyone who sees the player is told about, and death (the message, the
 * death screen, the dropped inventory). The arithmetic is in
 * game/health_rules.h; attacks in game/combat.h. See health.c for the rules.
 */
#ifndef MC_HEALTH_H
#define MC_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#include "net/conn.h"
#include "proto/wire.h"

/* play_join, after the player's file was read: the hunger state and timers
 * (those the file did not give start as vanilla's). */
void health_join(conn *c);
/* The respawn flow (game/ent_actions.c): full health, food, air; timers reset. */
void health_respawn(conn *c);
/* A movement packet was applied (game/play.c moved()): (ox, oy, oz) was the
 * position before, on_ground what the packet says. Falls, landing damage,
 * jumps and the exhaustion of sprinting and swimming. */
void health_moved(conn *c, double ox, double oy, double oz, bool on_ground);
/* The client confirmed a teleport: the fall starts again from there. */
void health_teleported(conn *c);
/* Player Command: sprinting started (true) or stopped. */
void health_sprinting(conn *c, bool on);
/* Arm swing: the attack strength starts again. */
void health_swing(conn *c);
/* A block was broken in survival (exhaustion 0.005). */
void health_mined(conn *c);
/* Player Action "release use item" (status 5): stops eating. */
void health_release_item(conn *c);
/* Adds food exhaustion (attacks: game/combat.c). */
void health_exhaust(conn *c, float amount);
/*
 * Hurts the player by `amount` of damage type `type` (data/combat_table.h
 * DAMAGE_TYPE_*), caused by `attacker` (a player, or NULL): vanilla's
 * LivingEntity.hurt — game mode, spawn protection, the invulnerability
 * rule, armour unless the type bypasses it; the Damage Event to everyone
 * who sees it; death at 0. Returns whether it took a new hit (knockback is
 * then the caller's, game/combat.c).
 */
bool health_hurt(conn *c, int type, float amount, conn *attacker);
/* Issue 15: hurt by mob `mob_eid` (named mob_name in the death message:
 * "was slain by Zombie"), directly or through its projectile direct_eid
 * (0: the mob itself); the amount scales with the difficulty as vanilla's
 * damage caused by a living non-player. As health_hurt otherwise. */
bool health_hurt_by_mob(conn *c, int type, float amount, int32_t mob_eid, int32_t direct_eid,
                        const char *mob_name);
/* Kills the player outright with damage type `type` (/kill: generic_kill).
 * False if it was dead already. */
bool health_kill(conn *c, int type);
/* Use Item (the serverbound packet): starts eating the food in that hand. */
void health_sb_use_item(conn *c, rd_t *r);
/* Once per tick per player, in its pass of tick phase 2 (game/play.c
 * play_tick): the environment (void, air, lava, fire, suffocation), food,
 * eating, timers, then Set Health where it changed. */
void health_tick_player(conn *c);

#endif
