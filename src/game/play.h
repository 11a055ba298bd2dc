/*
 * play.h — what the game modules share about players in PLAY: which chunks
 * a player sees, sending to the viewers of a chunk, and recording block
 * changes for the end-of-tick broadcast.
 */
#ifndef MC_PLAY_H
#define MC_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "game/game.h"

/* True when the client holds chunk (cx, cz). */
bool play_sees_chunk(const player *p, int32_t cx, int32_t cz);
/* Queues already-framed bytes to every player holding chunk (cx, cz). */
void play_send_to_viewers(int32_t cx, int32_t cz, const uint8_t *frame, size_t len);
/* After a teleport (entities.c ent_teleport): the chunk window moves to the
 * player's new chunk at once, as vanilla's, not at the client's next move. */
void play_follow_teleport(conn *c);
/* Unloads every chunk the client holds and streams the window again (respawn). */
void play_reset_window(conn *c);
/* Changes a block and queues the Block Update for the end of the tick. -1 if not loaded. */
int play_set_block(int32_t x, int32_t y, int32_t z, uint16_t state);

/* Picks the spawn point and sets world hooks; once, before the loop starts. */
void play_init(void);
/* The join sequence (struct net_game.join). */
void play_join(conn *c, const char *name, size_t name_len, mc_uuid uuid);
/* Block change sequence `seq` is acknowledged to p after this tick's block
 * updates (tick phase 3), as vanilla does at the end of its tick. */
void play_ack_later(player *p, int32_t seq);
/* Frees a player made by play_join (its memory is pooled: core/pool.h). */
void play_player_free(player *p);
/* One serverbound PLAY packet (struct net_game.packet). */
void play_dispatch(conn *c, int32_t id, rd_t *r);
/* Leaving: chunks released, the message; Remove Entities and Player Info
 * Remove at the next roster phase. */
void play_leave(conn *c);
/* Tick phase 4: the tab list's changes since the last tick — the leavers
 * (Remove Entities, then one Player Info Remove for all of them), then the
 * newcomers (the players already in, to them; one Player Info Update with
 * all of them, to everyone). */
void play_tick_roster(void);
/* Tick phase 2 for one player: keep-alive, the movement check's baseline. */
void play_tick(conn *c);
/* Tick phase 3: the tick's block changes to their viewers, then the
 * acknowledgements of every player's digging sequence. */
void play_broadcast_blocks(void);
/* Sends c the next chunks of its window while its output has room. */
void play_stream_chunks(conn *c);
/* Before the streaming hook's pass: after a tick, the players held back by a
 * per-tick or time limit, and a slice of every waiting one (a safety net),
 * go on game.stream_now. */
void play_stream_wake_due(void);

/* Serverbound block interaction handlers (game/interact.c). */
void interact_sb_block_dig(conn *c, rd_t *r);
void interact_sb_block_place(conn *c, rd_t *r);
void interact_sb_set_creative_slot(conn *c, rd_t *r);
void interact_sb_held_item_slot(conn *c, rd_t *r);
/* Use Item: eating (game/health.c), then buckets (issue 21). */
void interact_sb_use_item(conn *c, rd_t *r);

#endif
