/*
 * combat.h — players attacking players: Interact (attack) as vanilla
 * 1.20.1's ServerGamePacketListenerImpl.handleInteract and Player.attack
 * (reach, attack strength, weapon damage, critical hits, knockback, pvp).
 * See combat.c for the rules.
 */
#ifndef MC_COMBAT_H
#define MC_COMBAT_H

#include "net/conn.h"
#include "proto/wire.h"

/* Interact (use_entity): attacks are handled, interactions are ignored. */
void combat_sb_use_entity(conn *c, rd_t *r);

#endif
