/*
 * container.h — chests, trapped chests and barrels as windows (vanilla
 * 1.20.1 ChestMenu over ChestBlockEntity / BarrelBlockEntity): opening,
 * the window's slots backed by the block entities in the chunk
 * (world/block_entity.h), several viewers, the lid, and the contents
 * dropped when the block is broken. game/inventory.c runs the clicks.
 */
#ifndef MC_CONTAINER_H
#define MC_CONTAINER_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"

/* True for a block whose Use Item On opens a container window. */
bool container_is_block(uint16_t state);
/* Use Item On the container at (x, y, z) in `state`: opens its window
 * (a double chest's 54 slots when its partner is there). */
void container_open(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state);
/* The open container's slots into p->win.cont. 0, or -1 when the block or
 * its shape changed (the window must close). */
int container_load(player *p);
/* p->win.cont back into the block entities after a click; the chunks whose
 * items changed are marked for saving. */
void container_store(player *p);
/* The open container still exists with the same shape and p is within 8
 * blocks of it (vanilla stillValid). */
bool container_valid(const player *p);
/* A viewer left the container at (x, y, z) (its window closed): the lid
 * (chests: Block Action 1 with the viewer count) or a barrel's `open`. */
void container_viewers_changed(int32_t x, int32_t y, int32_t z);
/* The block at (x, y, z) is about to be removed: its items spill as item
 * entities (vanilla Containers.dropContents) and its block entity goes. */
void container_drop_contents(int32_t x, int32_t y, int32_t z);

#endif
