/*
 * xp.h — experience in the game (game/xp.c): what the player's client is
 * told (Set Experience), orbs given at deaths, mined ores (game/items.c)
 * and killed mobs, and the ender chest's contents' home (the player's
 * EnderItems, game/player.h). The arithmetic is game/experience.h.
 */
#ifndef MC_XP_H
#define MC_XP_H

#include <stdbool.h>

#include "game/player.h"

/* Set Experience (bar, level, total) to the player. */
void xp_send(conn *c);
/* Player.giveExperiencePoints (an orb taken), then Set Experience. */
void xp_give(conn *c, int points);
/* ServerPlayer.die's share: unless keepInventory (or a spectator), the
 * reward min(7 × level, 100) as orbs where it died and the experience
 * gone (the respawned player starts at 0, as vanilla's restoreFrom). */
void xp_player_died(conn *c);
/* LivingEntity.dropExperience for a mob of entity type `type` killed (by a
 * player within the last 100 ticks: by_player) at (x, y, z) with
 * `equipped` pieces of equipment: its reward as orbs. The hook game/mobs.c
 * calls at a death. */
void xp_mob_died(int type, bool by_player, int equipped, double x, double y, double z);

#endif
