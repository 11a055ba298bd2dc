/*
 * play.h — what the game modules share about players in PLAY: which chunks
 * a player sees, sending to the viewers of a chunk, and recording block
 * changes for the end-of-tick broadcast.
 */
#ifndef MC_PLAY_H
#define MC_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "net/server.h"

/* True when the client holds chunk (cx, cz). */
bool play_sees_chunk(const player *p, int32_t cx, int32_t cz);
/* Queues already-framed bytes to every player holding chunk (cx, cz). */
void play_send_to_viewers(int32_t cx, int32_t cz, const uint8_t *frame, size_t len);
/* Unloads every chunk the client holds and streams the window again (respawn). */
void play_reset_window(conn *c);
/* Changes a block and queues the Block Update for the end of the tick. -1 if not loaded. */
int play_set_block(int32_t x, int32_t y, int32_t z, uint16_t state);

/* Serverbound block interaction handlers (game/interact.c). */
void interact_block_dig(conn *c, rd_t *r);
void interact_block_place(conn *c, rd_t *r);
void interact_set_creative_slot(conn *c, rd_t *r);
void interact_held_item_slot(conn *c, rd_t *r);

#endif
