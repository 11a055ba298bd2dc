/*
 * playerdata.h — players on disk (<level-name>/playerdata/<uuid>.dat) and
 * the game side of saving: what level.dat gets from the game (spawn, time,
 * weather) and which player files a save round writes.
 *
 * A player file is gzip NBT (root ""), as vanilla 1.20.1 writes it:
 *
 *   tag                 type          mcserv's use
 *   DataVersion         int           3465
 *   Pos                 list<double>  x, y, z (feet)
 *   Rotation            list<float>   yaw, pitch
 *   Motion              list<double>  0, 0, 0
 *   OnGround            byte
 *   Dimension           string        "minecraft:overworld" (others: spawn instead)
 *   playerGameType      int           0..3
 *   Inventory           list<comp>    {Slot: byte, id: string, Count: byte};
 *                                     Slot 0-8 hotbar, 9-35 main, 100-103
 *                                     feet..head, -106 off hand
 *   SelectedItemSlot    int           0..8
 *   Health              float         (0 = dead: rejoins alive at spawn)
 *   foodLevel           int
 *   UUID                int[4]
 *   abilities           compound      from the game mode
 * Every other tag of a file read from disk (EnderItems, XP, Attributes,
 * recipeBook, ...) is copied through on the next save.
 *
 * Invariants:
 *  1. Writes of one player's file are serialised: a newer version waits
 *     for the one in flight, so an older file never lands last.
 *  2. The newest data of each player seen this run is cached in memory
 *     (bounded: PLAYERDATA_CACHE entries; offline ones with no write in
 *     flight are evicted first), so a quick rejoin reads what was just
 *     saved, even before it reached the disk.
 *  3. A write that fails (a full disk, EIO) leaves the player's record
 *     dirty with its data: every later save round (autosave, save-all,
 *     the final save at stop) writes it again, online or not, until it
 *     succeeds; a dirty record is never evicted from the cache.
 *  4. A file is read from disk only at a player's first join this run,
 *     synchronously in play_join (it must set the position and game mode
 *     of the Login packet); it is capped at PLAYERDATA_FILE_MAX bytes.
 *     This is the one read on the game thread (see docs/persistence.md).
 */
#ifndef MC_PLAYERDATA_H
#define MC_PLAYERDATA_H

#include <stdbool.h>

#include "game/game.h"

#define PLAYERDATA_CACHE    1024
#define PLAYERDATA_FILE_MAX ((size_t)2 << 20) /* gzip bytes */

/* After server_init: store hooks, and time/weather/spawn from level.dat. */
void playerdata_init(void);
/* In play_join, before the Login packet: position, rotation, game mode,
 * inventory, held slot, health and food from the player's file (if any). */
void playerdata_load(player *p);
/* After the join sequence: the restored inventory to the client. */
void playerdata_send_inventory(conn *c);
/* In play_leave: queues the player's file. */
void playerdata_leave(const player *p);
/* Player files whose last write failed and that are not on disk yet; *err
 * (if not NULL and any) gets the errno of the first. */
size_t playerdata_unsaved(int *err);
/* Frees the cache (shutdown, after store_final_save). */
void playerdata_free(void);

#endif
