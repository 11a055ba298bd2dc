/*
 * plugins.h — Lua 5.4 plugins: what the rest of the game calls. Plugins
 * live in plugins/<name>/ (init.lua, optional plugin.json, config.json,
 * data/); docs/plugins.md is the plugin author's and operator's guide.
 *
 * The plugin system's files:
 *   game/plugins.c          loading, reload, dependency order, the sandbox
 *                           and its limits (memory cap, time budget, error
 *                           count), storage files, permissions
 *   game/plugin_events.c    the events below: the player registry, building
 *                           each event, calling every plugin's handlers
 *   game/plugin_api.c       the Lua API (the `mc` table, player objects)
 *   game/plugin_json.c      Lua values <-> JSON (storage, config, text)
 *   game/cmd_plugins.c      plugin commands in the Brigadier tree, the
 *                           `plugins` command
 *   game/plugin_manifest.c  plugin.json and the load order (pure)
 *   game/plugin_int.h       what those files share
 *
 * Each event function below is called from ONE marked line (`plugins`) at
 * the place the game does the thing; it returns at once when no plugin
 * handles the event.
 *
 * Invariants:
 *  1. Game thread only. A plugin never runs on a worker; files are read and
 *     written by worker jobs.
 *  2. Nothing a plugin does can crash or stall the server: an error, a
 *     handler past its time budget or past its memory cap ends that call
 *     (logged with the plugin's name and a traceback); 100 errors within a
 *     minute disable the plugin.
 *  3. An event function may close the connection it is given (a plugin
 *     kicks the player): callers that go on check c->closed, or the
 *     function's result says so.
 */
#ifndef MC_PLUGINS_H
#define MC_PLUGINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/conn.h"
#include "proto/wire.h"

enum plugin_event {
    PEV_PRELOGIN,
    PEV_JOIN,
    PEV_LEAVE,
    PEV_CHAT,
    PEV_COMMAND,
    PEV_MOVE,
    PEV_BLOCK_BREAK,
    PEV_BLOCK_PLACE,
    PEV_INTERACT,
    PEV_DEATH,
    PEV_TICK,
    PEV_START,
    PEV_STOP,
    PEV_COUNT
};

/* Bit e set: some enabled plugin handles event e (the inline fast path). */
extern uint32_t plugin_wanted;

/* game_init: loads plugins/ (inline: before the first tick). */
void plugins_init(void);
/* The server is stopping, players still online: the stop event. */
void plugins_stop(void);
/* game_free: every plugin closed, storage written out. */
void plugins_free(void);
/* Tick phase 2a: scheduled tasks, the move events of the tick, the tick
 * event; then deferred work (a finished reload, disabled plugins closed). */
void plugins_tick(void);

/* Admission (game/admission.c), after vanilla's checks passed: false if a
 * plugin refused the login (c was kicked with its message). */
bool plugin_event_prelogin(conn *c, const char *name, const mc_uuid *uuid);
/* play_join's end, and play_leave's start. */
void plugin_event_join(conn *c);
void plugin_event_leave(conn *c);
/* A chat line about to be broadcast. true: do not broadcast it (cancelled,
 * or c was closed). A plugin may rewrite it: *msg and *len then point to the
 * new text (valid until the next chat event). */
bool plugin_event_chat(conn *c, const char **msg, size_t *len);
/* A command line from a player (c) or the console / RCON (c NULL, source
 * its name) before it is parsed. true: cancelled. */
bool plugin_event_command(conn *c, const char *source, const char *line, size_t len);
/* A player moved: the move event is raised once per tick per player at
 * most, from plugins_tick, with where the player was at the last one. */
void plugin_moved(conn *c);
static inline void plugin_event_move(conn *c)
{
    if (plugin_wanted & (1u << PEV_MOVE)) plugin_moved(c);
}
/* A block is about to break (state: the block). true: cancelled, and the
 * player was sent the block back. */
bool plugin_event_block_break(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state);
/* A block was placed (state) where `old` was. true: cancelled, `old` is
 * back and the player's item is not used up. */
bool plugin_event_block_place(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state,
                              uint16_t old);
/* A right click on a block (hand 0 main, 1 off; face 0..5) before anything
 * is placed. true: cancelled (nothing happens; the client is resynced). */
bool plugin_event_interact(conn *c, int32_t hand, int32_t x, int32_t y, int32_t z, int32_t face);
/* A player died (after the death message). */
void plugin_event_death(conn *c);

#endif
