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

#include "game/experience.h"
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
#define PLAYER_ENDER_SLOTS 27           /* vanilla PlayerEnderChestContainer */

struct pkt_property; /* proto/packets.h */
struct ent;          /* game/entities.c */

typedef struct player {
    /* The state every tick reads of every player comes first, together:
     * tick phase 2's pass (game/tick.c) and the entity passes touch these
     * few cache lines of each of up to 10,000 players, so memory latency,
     * not work, is their cost (BENCHMARKS.md, 10,000 idle bots). */
    double x, y, z;
    float yaw, pitch;
    bool on_ground;
    int gamemode;
    int view_distance;          /* effective: min(server, client) */
    int32_t center_x, center_z; /* chunk the loaded window is centred on */
    int chunks_this_tick;       /* fairness cap, reset every tick */
    int64_t keepalive_sent_ms;
    bool keepalive_pending;
    int64_t next_keepalive_ms;
    uint64_t chunks_sent;
    float health; /* 0 = dead (waiting for the respawn request) */
    int32_t food;
    struct ent *ent; /* tracking and relay state; owned by entities.c */
    int held_slot;   /* 0..8 */
    int chat_spam;   /* vanilla chatSpamTickCount: +20 per message, -1 per tick */
    /* The last tick the inventory may have changed: a packet from the player
     * (play_dispatch) or a change the server made (inventory_touch). The
     * sync (inventory_tick) and the equipment others see (entities.c) look
     * at the slots only after it, and once every 20 ticks to be safe, so an
     * idle player's 46 slots cost the tick nothing. */
    uint64_t inv_touch_tick;
    /* Movement checks (game/play.c moved(), vanilla's "moved too quickly"):
     * the position at the start of this tick and the move packets since. */
    double first_good_x, first_good_y, first_good_z;
    uint32_t move_packets, move_packets_known;
    /* Health, hunger, combat, death (game/health.c, game/combat.c). */
    struct player_health {
        float saturation, exhaustion; /* vanilla FoodData (food is p->food) */
        int food_timer;
        float fall_distance;  /* blocks fallen since last on the ground */
        int air;              /* 300 full; -1 a tick with the eyes in water */
        int fire_ticks;       /* > 0 burning */
        int invuln;           /* ticks left of the last hit's invulnerability */
        float last_hurt;      /* that hit's amount (the half-damage rule) */
        int spawn_invuln;     /* ticks after a join or respawn with no damage */
        int attack_ticks;     /* ticks since the last swing (attack strength) */
        int held_item;        /* main-hand item the ticker last saw */
        int32_t attacker_eid; /* last player to hurt this one, for 100 ticks; 0 none */
        uint64_t attacked_tick;
        bool was_on_ground, in_water, sprinting;
        float sent_health, sent_saturation; /* last Set Health */
        int32_t sent_food;
        int sent_air;
        int eating_ticks; /* > 0: eating the held food, ticks left */
        int eating_hand;
        bool from_file;  /* the hunger state was read from playerdata */
        bool fire_shown; /* the burning flag others were last given */
        /* What the body touched at env_x/y/z while world.block_epoch was
         * env_epoch (game/health.c sense). */
        bool env_valid, env_eyes_in_water, env_in_wall;
        uint8_t env_body;
        double env_x, env_y, env_z;
        uint64_t env_epoch;
    } hp;
    /* cursor, open crafting table, client's view (game/inventory.c); its
     * first fields are the ones the tick reads */
    struct win_player win;
    /* The rest is read when something happens. */
    int32_t entity_id;
    mc_uuid uuid;
    char name[PLAYER_NAME_MAX + 1];
    uint8_t *loaded;       /* bitmap over the (2*VIEW_DISTANCE_MAX+1)^2 window */
    int scan_pos;          /* index into the spiral of offsets still to check */
    bool window_complete;  /* every chunk of the window sent */
    list_node stream_link; /* on game.streaming while the window is incomplete */
    /* On game.stream_now (scan it on the next pass: its window changed or a
     * chunk it asked for is ready) or game.stream_retry (the next tick: its
     * last scan stopped at a per-tick or time limit); else it waits. */
    list_node stream_wake_link;
    int32_t teleport_id; /* last teleport sent */
    bool teleport_pending;
    bool spawned; /* spawn position + health sent */
    int64_t keepalive_id;
    /* Chunks asked for and not received yet, and the budget for asking (world/world.h). */
    world_requester chunk_requests;
    /* Inventory as the player window numbers it: 0 crafting result, 1-4 grid,
     * 5-8 armour, 9-35 main, 36-44 hotbar, 45 off hand. */
    struct inv_slot inventory[46]; /* game/window.h; item 0 = empty (air) */
    int32_t inventory_state;       /* state id of the player window */
    struct player_xp xp;           /* experience (game/xp.c) */
    /* The ender chest's 27 slots (EnderItems), whichever ender chest opens them. */
    struct inv_slot ender_items[PLAYER_ENDER_SLOTS];
    bool digging;
    int32_t dig_x, dig_y, dig_z;
    int64_t dig_start_ms;
    int32_t ack_sequence; /* highest block change sequence to acknowledge; -1 none */
    list_node ack_link;   /* on game.acks while ack_sequence >= 0 (play_ack_later) */
    /* Profile properties (the skin) for Player Info; point into the conn's
     * profile, which lives as long as the player (set by play_join). */
    const struct pkt_property *props;
    size_t prop_count;
    /* Item entities spawned on this client: bit i = item slot i (game/items.c). */
    uint64_t items_seen[ITEM_ENTITIES_MAX / 64];
    /* What game/items.c's last pass saw of this player: while none of it
     * changes, the pass looks only at the items with news for it. */
    struct {
        double x, y, z;
        uint64_t inv_tick;
        uint32_t loaded_changes;
        bool valid, alive, spectator;
        bool dirty; /* this tick's verdict */
    } items_last;
    uint32_t loaded_changes; /* bumped whenever `loaded` or its centre changes (game/play.c) */
    int32_t latency_ms;      /* keep-alive round trip, smoothed as vanilla (3/4 old + 1/4 new) */
    int op_level;            /* 0..4 from ops.json */
    int chat_mode;           /* client setting: 0 full, 1 commands only, 2 hidden */
    uint8_t skin_parts;      /* client setting, shown to others as metadata */
    uint8_t main_hand;       /* 0 left, 1 right */
    bool fall_flying;        /* elytra: the speed check allows 300 instead of 100 */
    /* Sleeping in a bed (game/beds.c, issue 21): the head's position and
     * vanilla's sleepCounter (ticks asleep, at most 100). */
    struct {
        bool sleeping;
        int32_t x, y, z;
        int ticks;
    } bed;
    /* Bookkeeping of the game (game/game.c, game/tick.c). */
    int index;              /* position in game.players */
    int64_t last_action_ms; /* player-idle-timeout: the last action */
    float idle_pos[5];      /* x y z yaw pitch at the last idle check */
} player;

/* Fetches the lines tick phase 2 reads of p (game/tick.c): the state at
 * the start of struct player, through the window's first fields. */
static inline void player_prefetch(const player *p)
{
    const char *a = (const char *)p, *end = (const char *)(&p->win.synced + 1);
    for (; a < end; a += 64) __builtin_prefetch(a);
}

#endif
