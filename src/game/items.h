/*
 * items.h — item entities: drops lying in the world, falling, sliding,
 * picked up by players and despawning, as vanilla 1.20.1's ItemEntity
 * (see items.c for the rules and invariants).
 */
#ifndef MC_ITEMS_H
#define MC_ITEMS_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"

/* The block at (x, y, z) was broken by p in survival, in `state`, with
 * `item` held: its drops (game/loot.h) spawn as item entities there. */
void items_drop_block(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state, int item);
/* Spawns one item entity at (x, y, z) (its feet) with velocity (vx, vy, vz)
 * in blocks per tick and a pickup delay in ticks. Returns its entity id, or
 * -1 when the cap is reached (logged) or the stack is empty. */
int32_t items_spawn(double x, double y, double z, double vx, double vy, double vz, int item,
                    int count, int pickup_delay);
/* A container's stack spills at block (x, y, z) as vanilla's
 * Containers.dropItemStack: a random point in the block, split into
 * stacks of 10..30, each pushed up 0.2 with a random spread, no pickup delay. */
void items_drop_stack(int32_t x, int32_t y, int32_t z, const struct inv_slot *s);
/* The item entity eid carries a tool's wear (issue 14: death drops keep it). */
void items_set_damage(int32_t eid, uint16_t damage);
/* The item entity eid carries stack s's wear and enchantments (not its
 * item or count); nothing when eid is -1. */
void items_set_stack(int32_t eid, const struct inv_slot *s);
/* vanilla ExperienceOrb.award: `amount` points as orbs at (x, y, z) (see
 * items.c: orbs share the item entities' table). */
void items_award_xp(double x, double y, double z, int amount);
/* Its pickup delay in ticks (0 now; 32767 never), e.g. /give's overflow. */
void items_set_pickup_delay(int32_t eid, int ticks);
/* p threw stack s (Q, a click outside a window, what did not fit back):
 * vanilla's throw from the eyes along the look. Returns the entity id or -1. */
int32_t items_throw(const player *p, const struct inv_slot *s);
/* A falling_block entity of block state `state` (game/falling.h: issue 21)
 * at (x, y, z): tracked and updated as an item, moved with the falling
 * block's box, never merged or picked up; falling_after_move decides when
 * it lands. Returns its entity id, or -1 at the cap. */
int32_t items_spawn_falling(double x, double y, double z, uint16_t state);
/* Tick phase 6b, after the movement relay: physics, pickups, despawns,
 * then tracking (spawns and removals per viewer) and the position updates. */
void items_tick(void);
/* p's client dropped every entity (Respawn): spawn them again. */
void items_forget(player *p);
/* Item entities in the world (for /status, tests). */
uint32_t items_count(void);
/* Frees everything (server shutdown). */
void items_free(void);

#endif
