/*
 * plugin_int.h — what the plugin system's files share (game/plugins.c,
 * plugin_events.c, plugin_api.c, plugin_json.c, cmd_plugins.c), in the
 * manner of SQLite's fooInt.h: the plugin record, calling into a plugin
 * under its limits, and the pieces each file offers the others. Nothing
 * outside those files includes it; the game uses game/plugins.h.
 *
 * A plugin's life (plugins.c):
 *
 *   folder read (worker) --> state made, init.lua run --ok--> ENABLED
 *                                        |                     |  100 errors a minute,
 *                                        +--error--> FAILED    |  `plugins disable`
 *                                                              v
 *                   `plugins reload [name]` <------------- DISABLED (state closed
 *                   (a new record, a new state)                at the next safe point)
 *
 * Invariants:
 *  1. One lua_State per plugin, made by plugins.c with plugin_alloc (the
 *     heap cap) and the count hook (the time budget); only the libraries
 *     plugin_api_open installs are reachable.
 *  2. Lua runs only inside plugin_run (a protected call): nothing that may
 *     raise a Lua error (allocation included) is done on a plugin's state
 *     outside one, so an error can never reach Lua's panic function.
 *  3. A state is closed only at a safe point: no plugin call on the stack
 *     (plugin_depth == 0). Until then a disabled plugin is skipped by every
 *     dispatch.
 *  4. Records live in plugin_list in load order (dependencies first); event
 *     handlers run in that order.
 */
#ifndef MC_PLUGIN_INT_H
#define MC_PLUGIN_INT_H

#include <jansson.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/saver.h"
#include "game/game.h"
#include "game/plugin_manifest.h"
#include "game/plugins.h"

#define PLUGIN_ERRORS_MAX       100   /* errors within the window: disabled */
#define PLUGIN_ERRORS_WINDOW_MS 60000 /* a minute */
#define PLUGIN_HANDLERS_MAX     64    /* per event per plugin */
#define PLUGIN_TASKS_MAX        4096  /* scheduled tasks per plugin */
#define PLUGIN_FILES_MAX        32    /* .lua files per plugin (init.lua and require) */
#define PLUGIN_FILE_MAX         (1u << 20)
#define PLUGIN_CONFIG_MAX       (1u << 20)  /* config.json */
#define PLUGIN_STORE_MAX        (16u << 20) /* storage.json, read or written */
#define PLUGIN_CMDS_MAX         64          /* command paths per plugin */
#define PLUGIN_CMD_ARGS_MAX     8
#define PLUGIN_PERMS_MAX        64         /* permissions one plugin declares */
#define PLUGIN_INIT_BUDGET_X    50         /* init.lua may run 50 budgets (250 ms by default) */
#define PLUGIN_MEM_GRACE        (1u << 20) /* heap over the cap while an error is logged */
#define PLUGIN_HOOK_EVERY       1000       /* VM instructions between budget checks */
#define PLUGIN_DIR              "plugins"
#define PLUGIN_PERMISSIONS_FILE PLUGIN_DIR "/permissions.json"

enum plugin_status { PL_ENABLED, PL_DISABLED, PL_FAILED };

/* Argument types of plugin commands (cmd_plugins.c maps them to parsers). */
enum plugin_arg_type {
    PA_LITERAL,
    PA_WORD,
    PA_STRING,
    PA_TEXT,
    PA_INT,
    PA_NUMBER,
    PA_BOOL,
    PA_PLAYER,
    PA_PLAYERS,
    PA_BLOCK_POS,
    PA_POSITION,
    PA_GAMEMODE,
    PA_COUNT
};

struct plugin_arg {
    char name[33];
    uint8_t type; /* enum plugin_arg_type */
    bool optional;
};

/* One registered command path: /name arg1 arg2 ... (mc.command). */
struct plugin_cmd {
    char name[33];
    char description[128];
    uint8_t level;
    int nargs;
    struct plugin_arg args[PLUGIN_CMD_ARGS_MAX];
    int ref; /* the run function, in the plugin's registry */
};

struct plugin_file {
    char name[64]; /* "init.lua", "util.lua" */
    char *text;
    size_t len;
};

/* A plugin's storage: one per plugin name for the server's lifetime, so a
 * reload keeps what is in memory; written through a saver. */
struct plugin_store {
    char name[PLUGIN_NAME_MAX + 1];
    char path[96]; /* plugins/<name>/data/storage.json */
    json_t *data;  /* an object */
    size_t bytes;  /* its compact JSON size */
    bool dirty;
    saver sv;
};

struct plugin_task {
    uint32_t id;
    uint64_t due;   /* tick */
    uint32_t every; /* 0: once */
    int ref;
};

struct plugin_perm {
    char node[65];
    int level;
};

typedef struct plugin {
    struct plugin_manifest m;
    enum plugin_status status;
    char why[256]; /* why it failed or was disabled */
    lua_State *L;
    size_t mem_used, mem_limit, mem_peak;
    bool mem_grace;
    int64_t budget_ns, deadline_ns;
    int depth;     /* handler calls of this plugin on the stack */
    bool aborting; /* past the budget: every Lua instruction raises until the call ends */
    int64_t err_ms[PLUGIN_ERRORS_MAX];
    int err_next;
    uint64_t errors, calls;
    int64_t call_ns; /* time in handlers, in total */
    int handlers[PEV_COUNT][PLUGIN_HANDLERS_MAX];
    int nhandlers[PEV_COUNT];
    struct plugin_file files[PLUGIN_FILES_MAX];
    int nfiles;
    json_t *config;
    struct plugin_store *store;
    struct plugin_task *tasks;
    int ntasks;
    uint32_t next_task;
    struct plugin_cmd cmds[PLUGIN_CMDS_MAX];
    int ncmds;
    struct plugin_perm perms[PLUGIN_PERMS_MAX];
    int nperms;
    int players_ref; /* registry: table conn id -> player object */
    int event_mt_ref;
    bool loaded_now; /* the start event is still owed */
} plugin;

extern plugin *plugin_list[PLUGIN_MAX];
extern int plugin_count;
extern int plugin_depth; /* plugin calls on the stack, every plugin */
extern bool plugins_started;

/* ----------------------------------------------------------- plugins.c */

/* The plugin owning state L (any of its coroutines). */
static inline plugin *plugin_of(lua_State *L)
{
    return *(plugin **)lua_getextraspace(L);
}
plugin *plugin_find(const char *name);
/* Runs fn(L, arg) on p's state in a protected call (invariant 2); an error
 * there is logged as `what` and counted. 0, or -1 (p not enabled, error). */
int plugin_run(plugin *p, int (*fn)(lua_State *L, void *arg), void *arg, const char *what);
/* Inside plugin_run: calls the function below nargs arguments as a
 * handler: its own time budget, a traceback on error (logged as `what`,
 * counted). The results (nres) are left on success; 0 or -1. */
int plugin_call(lua_State *L, int nargs, int nres, const char *what);
/* Logs an error of p (one line per traceback line) and counts it; the
 * 100th within a minute disables p. */
void plugin_error(plugin *p, const char *what, const char *msg);
/* Takes p out of service (handlers, commands); its state is closed at the
 * next safe point (invariant 3). */
void plugin_disable(plugin *p, const char *why);
/* Handlers changed: plugin_wanted recomputed. */
void plugin_update_wanted(void);
/* A plugin registered a command after loading: the tree is rebuilt at the
 * next safe point. */
void plugin_commands_changed(void);
/* Storage changed (written within a second). */
void plugin_store_touch(struct plugin_store *s);
/* p's permission for player pl: an explicit grant or denial in
 * plugins/permissions.json, else the declared (or default, 2) level. */
bool plugin_permission(const player *pl, const char *node);
/* plugins grant / revoke for a player (online or not): 1 changed, 0
 * already so, -1 out of memory. */
int plugin_permission_set(const mc_uuid *uuid, const char *name, const char *node, bool grant);
/* `plugins reload [name]`, `plugins disable name`: queued work; the
 * result is logged and sent to `requester` (conn id; 0 = console only). */
int plugins_request_reload(const char *name, uint32_t requester, char *msg, size_t cap);
int plugins_request_disable(const char *name, char *msg, size_t cap);

/* -------------------------------------------------------- plugin_api.c */

/* Installs the sandboxed globals and the `mc` API into a new state (in a
 * protected call). */
int plugin_api_open(lua_State *L);
/* Pushes the player object of c (one per player per state). */
void plugin_push_player(lua_State *L, conn *c);
/* Forgets c's player object (it left); the object itself stays valid, offline. */
void plugin_forget_player(lua_State *L, uint32_t conn_id);
/* Pushes a block state's name ("minecraft:stone"). */
void plugin_push_block(lua_State *L, uint16_t state);
/* Runs p's due tasks (tick). */
void plugin_api_run_tasks(plugin *p, uint64_t tick);
/* Frees the tasks and command references of p (before its state closes). */
void plugin_api_forget(plugin *p);
/* Text for players: a Lua string is plain text ({"text":...}), a table is
 * a JSON text component; into out (JSON). -1 with a Lua error otherwise. */
void plugin_api_text(lua_State *L, int idx, buf_t *out);

/* -------------------------------------- plugin_sandbox.c, plugin_world.c */

/* The standard library of a new state (plugin_sandbox.c has the list). */
void plugin_sandbox_open(lua_State *L);
/* mc.log, mc.warn, mc.error (and print): one log line with the plugin's name. */
int plugin_lua_log(lua_State *L);
int plugin_lua_warn(lua_State *L);
int plugin_lua_error(lua_State *L);
/* mc.get_block, set_block, fill, block_state, spawn, tick, time. */
extern const luaL_Reg plugin_world_funcs[];

/* ----------------------------------------------------- plugin_events.c */

/* The online player with that connection id, or NULL. */
conn *plugin_player_conn(uint32_t id);
/* The online player with that name (any case) or UUID text, or NULL. */
conn *plugin_player_lookup(const char *name_or_uuid);
/* A plugin moved the player: its next move event starts from here. */
void plugin_player_teleported(conn *c);
/* Start and stop events for one plugin (reload, disable): reason is
 * "server", "reload" or "disable". */
void plugin_event_lifecycle(plugin *p, enum plugin_event e, const char *reason);
/* Moves of the tick and the tick event (plugins_tick). */
void plugin_events_tick(uint64_t tick);
void plugin_events_free(void);
/* Move events raised since startup and the tick time they took, all
 * plugins together (`plugins info`; bench/plugin_move.js). */
void plugin_move_stats(uint64_t *events, int64_t *ns);

/* ------------------------------------------------------ plugin_json.c */

/* The Lua value at idx as JSON (new reference) or NULL with err set
 * (functions, cycles, deeper than 32, keys that are not strings). */
json_t *plugin_to_json(lua_State *L, int idx, char *err, size_t errlen);
/* Pushes j as a Lua value (objects and arrays as tables). */
void plugin_push_json(lua_State *L, const json_t *j);

/* ------------------------------------------------------ cmd_plugins.c */

/* The argument type called `name` ("word", "player", ...) or -1. */
int cmd_plugins_type(const char *name);
/* Rebuilds the tree's plugin part from the enabled plugins' commands; with
 * resend, every player gets the new tree. */
void cmd_plugins_rebuild(bool resend);
/* True if `name` is a command of the tree other than p's own. */
bool cmd_plugins_taken(const plugin *p, const char *name);

#endif
