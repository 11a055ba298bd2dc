/*
 * blockuse.h — blocks a player uses or places with a shape of their own, as
 * vanilla 1.20.1: doors, trapdoors and fence gates (Use Item On toggles
 * `open`; iron ones only by redstone), the facing, half and hinge they get
 * when placed, a door's two halves, and a chest's `type` (single, or the
 * left/right half of a double chest) when placed beside another.
 * See blockuse.c for the rules.
 */
#ifndef MC_BLOCKUSE_H
#define MC_BLOCKUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"

/* state with property `name` set to `value` (unchanged if the block has no
 * such property or value). */
uint16_t blockuse_with_prop(uint16_t state, const char *name, const char *value);
/* True if property `name` of state has the text `value`. */
bool blockuse_prop_is(uint16_t state, const char *name, const char *value);

/* Use Item On a door, trapdoor or fence gate at (x, y, z) in `state`:
 * toggles it (both halves of a door) through play_set_block. Returns true
 * if it did (the click is used up); false for any other block and for iron
 * doors and trapdoors, which open by redstone only (vanilla PASS: the held
 * item is used instead). */
bool blockuse_use(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state);

/* The state to place for the block default `state` at (x, y, z), clicked on
 * `face` (0..5: down, up, north, south, west, east) at height cursor_y
 * (0..1 inside the clicked block) by p: facing and half for doors,
 * trapdoors, gates and chests, a chest's type. Returns 0 when the block
 * cannot go there (a door without room above). */
uint16_t blockuse_place_state(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state,
                              int face, float cursor_y);
/* After placing `state` at (x, y, z): a door's upper half, a chest's
 * partner turned into the other half of the double chest. */
void blockuse_placed(int32_t x, int32_t y, int32_t z, uint16_t state);
/* Before the block at (x, y, z) in `state` is removed: a door's other half
 * goes too (without drops), a double chest's partner becomes single. */
void blockuse_removing(int32_t x, int32_t y, int32_t z, uint16_t state);

/* A chest's partner (the other half of a double chest): 1 and its position
 * when state is a left/right chest whose partner is there, else 0. */
int blockuse_chest_partner(int32_t x, int32_t y, int32_t z, uint16_t state, int32_t *px,
                           int32_t *py, int32_t *pz);

#endif
