/*
 * inventory.h — the player's windows on the network: Click Container and
 * Close Container, the crafting table's window, the per-tick sync of what
 * the client sees, drops from the hand, and tool wear (see inventory.c).
 */
#ifndef MC_INVENTORY_H
#define MC_INVENTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "game/player.h"
#include "proto/wire.h"

void inventory_sb_window_click(conn *c, rd_t *r);
void inventory_sb_close_window(conn *c, rd_t *r);
/* Opens a window of `kind` (enum win_kind: WIN_CRAFTING, WIN_CONTAINER
 * with cont_n slots) for the block at (x, y, z): the open one closes first,
 * then Open Screen (menu registry id, JSON title) and Set Container Content. */
void inventory_open_window(conn *c, int kind, int menu_type, const char *title, int32_t x,
                           int32_t y, int32_t z, int cont_n);
/* Use Item On a crafting table at (x, y, z): opens its window. */
void inventory_open_crafting(conn *c, int32_t x, int32_t y, int32_t z);
/* Once per tick per player (play_tick): closes a table window gone out of
 * reach or broken, and sends the client every slot that changed. Skipped
 * (inventory_due false) while nothing can have changed. */
void inventory_tick(conn *c);
/* True when this tick's inventory_tick has something to look at: the
 * inventory was touched since the last tick, a window or a drop's spam
 * counter is open, or it is p's turn of the every-20-ticks safety sync. */
bool inventory_due(const player *p, uint32_t id);
/* The inventory may have changed in the last `ticks` ticks (player.h
 * inv_touch_tick): 1 for what this tick's phases read, 2 across a tick. */
bool inventory_touched(const player *p, uint64_t ticks);
/* The server changed p's slots (a pickup, /give, eating, a plugin...): the
 * next tick's sync and equipment relay look at them. */
void inventory_touch(player *p);
/* Player Action 3 (drop the held stack) / 4 (drop one) and 6 (swap the
 * held item with the off hand). */
void inventory_drop_held(conn *c, bool all);
void inventory_swap_hands(conn *c);
/* Reads an item slot of a packet (present, item id, count, NBT). The NBT is
 * checked within the network limits and not kept. 1 present, 0 absent (or
 * r->err), -1 after kicking c for bad NBT. */
int inventory_read_item(conn *c, rd_t *r, int32_t *item, int8_t *count);

/* Set Creative Mode Slot -1: the creative player throws a stack it made
 * (vanilla: at most 10 in a burst, one more per 20 ticks). */
void inventory_creative_drop(conn *c, int item, int count);
/* The main-hand tool broke a block of hardness > 0 in survival: its wear. */
void inventory_wear_tool(conn *c);
/* The player leaves: the crafting grids and the cursor go back into the
 * inventory (thrown if they do not fit), so nothing is lost. */
void inventory_leave(conn *c);

#endif
