/*
 * player.h — a player in the game: where it is, what it sees (its chunk
 * window), what it holds, and the per-player state of every game module.
 * One per connection in PLAY (conn.player); created by play_join, released
 * by game_release when the connection is freed.
 *
 * Invariants:
 *  1. Only the game thread reads or writes a player.
 *  2. game.players[p->index] is the player's connection while it is in the
 *     game (game_add / game_remove in game/game.c).
 */
#ifndef MC_PLAYER_H
#define MC_PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "game/window.h"
#include "net/conn.h"
#include "proto/wire.h"
#include "world/world.h"

#define PLAYER_NAME_MAX    CONN_NAME_MAX
#define VIEW_DISTANCE_MAX  32 /* = SPIRAL_MAX */
#define KEEPALIVE_INTERVAL 15000
#define KEEPALIVE_TIMEOUT  30000
#define CHUNK_SEND_WINDOW  (256u << 10) /* stream chunks while less is queued */
#define ITEM_ENTITIES_MAX  4096         /* item entities in the world (game/items.c) */

struct pkt_property; /* proto/packets.h */
struct ent;          /* game/entities.c */

typedef struct player {
    int32_t entity_id;
    mc_uuid uuid;
    char name[PLAYER_NAME_MAX + 1];
    double x, y, z;
    float yaw, pitch;
    bool on_ground;
    int gamemode;
    int view_distance;          /* effective: min(server, client) */
    int32_t center_x, center_z; /* chunk the loaded window is centred on */
    uint8_t *loaded;            /* bitmap over the (2*VIEW_DISTANCE_MAX+1)^2 window */
    int scan_pos;               /* index into the spiral of offsets still to check */
    bool window_complete;       /* every chunk of the window sent */
    int chunks_this_tick;       /* fairness cap, reset every tick */
    int32_t teleport_id;        /* last teleport sent */
    bool teleport_pending;
    bool spawned; /* spawn position + health sent */
    int64_t keepalive_id;
    int64_t keepalive_sent_ms;
    bool keepalive_pending;
    int64_t next_keepalive_ms;
    uint64_t chunks_sent;
    /* Chunks asked for and not received yet, and the budget for asking (world/world.h). */
    world_requester chunk_requests;
    /* Inventory as the player window numbers it: 0 crafting result, 1-4 grid,
     * 5-8 armour, 9-35 main, 36-44 hotbar, 45 off hand. */
    struct inv_slot inventory[46]; /* game/window.h; item 0 = empty (air) */
    int held_slot;                 /* 0..8 */
    int32_t inventory_state;       /* state id of the player window */
    struct win_player win; /* cursor, open crafting table, client's view (game/inventory.c) */
    bool digging;
    int32_t dig_x, dig_y, dig_z;
    int64_t dig_start_ms;
    int32_t ack_sequence; /* highest block change sequence to acknowledge; -1 none */
    /* Profile properties (the skin) for Player Info; point into the conn's
     * profile, which lives as long as the player (set by play_join). */
    const struct pkt_property *props;
    size_t prop_count;
    /* Multiplayer (game/entities.c, chat.c, commands.c). */
    struct ent *ent; /* tracking and relay state; owned by entities.c */
    /* Item entities spawned on this client: bit i = item slot i (game/items.c). */
    uint64_t items_seen[ITEM_ENTITIES_MAX / 64];
    float health; /* 0 = dead (waiting for the respawn request) */
    int32_t food;
    int32_t latency_ms; /* keep-alive round trip, smoothed as vanilla (3/4 old + 1/4 new) */
    int op_level;       /* 0..4 from ops.json */
    int chat_mode;      /* client setting: 0 full, 1 commands only, 2 hidden */
    int chat_spam;      /* vanilla chatSpamTickCount: +20 per message, -1 per tick */
    uint8_t skin_parts; /* client setting, shown to others as metadata */
    uint8_t main_hand;  /* 0 left, 1 right */
    /* Movement checks (game/play.c moved(), vanilla's "moved too quickly"):
     * the position at the start of this tick and the move packets since. */
    double first_good_x, first_good_y, first_good_z;
    uint32_t move_packets, move_packets_known;
    bool fall_flying; /* elytra: the speed check allows 300 instead of 100 */
    /* Bookkeeping of the game (game/game.c, game/tick.c). */
    int index;              /* position in game.players */
    int64_t last_action_ms; /* player-idle-timeout: the last action */
    float idle_pos[5];      /* x y z yaw pitch at the last idle check */
} player;

#endif
