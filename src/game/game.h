/*
 * game.h — the game's state and its place in the process: the world, the
 * players in it, the spawn point, the world clock. game_init plugs the game
 * into net/ (struct net_game) and into the loop (the tick timer, the chunk
 * streaming hook, the worker pool's eventfd).
 *
 * Invariants:
 *  1. Only the game thread (the loop's) reads or writes `game`.
 *  2. game.players holds exactly the connections in the game (conn.in_game),
 *     each at its player's index; leaving swaps the last one into the gap.
 */
#ifndef MC_GAME_H
#define MC_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "core/loop.h"
#include "game/player.h"
#include "net/server.h"
#include "world/world.h"

#define GAME_HOOK_STREAM 50 /* before NET_HOOK_FLUSH: chunks join the pass's write */

struct game {
    world world;
    conn **players; /* in the game; see invariant 2 */
    /* Players whose chunk window is incomplete (player.stream_link): the
     * before-sleep streaming hook visits only these, not every player. */
    list_node streaming;
    /* Those of them the hook scans on this pass, on the next pass (output
     * was full) and after the next tick (player.stream_wake_link;
     * play_stream_chunks says which). */
    list_node stream_now, stream_pass, stream_retry;
    /* Players with a block change sequence to acknowledge (player.ack_link). */
    list_node acks;
    size_t player_count, player_cap;
    int32_t next_entity_id;
    double spawn_x, spawn_y, spawn_z;
    float spawn_angle;
    uint64_t tick_count;
    /* The world clock and weather (game/daytime.c). */
    int64_t day_time; /* ticks; time of day is day_time % 24000 */
    bool raining, thundering;
    int64_t next_idle_check_ms;
    loop_watch workers_watch;
    /* Counted for /metrics (UnifiedMetrics' minecraft_events_*_total). */
    uint64_t joins, quits, chat_messages;
};

extern struct game game;

/* After server_init: the worker pool, the world, the spawn point, ops and
 * lists; registers with net/ and the loop. -1 (logged) refuses to start.
 * nworkers 0 = one per core but one; -1 = none (jobs wait: fuzzing). */
int game_init(loop *l, const struct server_config *cfg, int nworkers);
void game_free(void);

/* Puts a connection that entered PLAY (c->player set) in game.players;
 * -1 if out of memory. */
int game_add(conn *c);

/* The sea level a client is told (26.1's SpawnInfo): vanilla's 63, and
 * -63 for a flat world as vanilla's flat preset. */
int game_sea_level(void);

/* The net/ handlers (struct net_game), for tests that drive the game. */
extern const struct net_game game_net;

#endif
