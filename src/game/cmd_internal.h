/*
 * cmd_internal.h — what the server half's files (game/cmd_source.c,
 * game/cmd_builtin.c, game/cmd_dispatch.c and issue 17's cmd_rules.c,
 * cmd_world.c, cmd_border.c, cmd_text.c, cmd_player.c) share, in the manner of
 * SQLite's fooInt.h: who runs a command, the context an executor gets,
 * feedback and selector resolution. Nothing outside game/cmd_*.c includes
 * it; the rest of the server uses game/commands.h.
 *
 * Invariants:
 *  1. A source is a player (c set) or the console (c NULL), standing at the
 *     world spawn with level CMD_CONSOLE_LEVEL; RCON is a console source
 *     with a capture buffer and its own name.
 *  2. Every message is built twice, as a JSON component (players) and as
 *     English text (the console, the log, RCON); a buffer that reached its
 *     cap is dropped, never sent cut short.
 *  3. cmd_targets_a and cmd_targets_b are scratch lists, valid until the
 *     next resolution into the same list: an executor keeps its targets in
 *     a and a second selector (destination, facing entity) in b;
 *     cmd_expand_message (messages, kick and ban reasons) uses b, so b does
 *     not survive expanding a message. One command runs at a time, on the
 *     game thread, so sharing them is safe.
 *  4. A target list holds at most CMD_MAX_TARGETS players; connections in it
 *     may close during the command (a kick), so executors skip closed ones.
 */
#ifndef MC_CMD_INTERNAL_H
#define MC_CMD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "game/chat.h"
#include "game/cmd_parser.h"
#include "game/commands.h"
#include "game/game.h"

#define CMD_CONSOLE_LEVEL 4
#define CMD_MAX_TARGETS   4096 /* players one selector may resolve to */

/* Who runs a command: a player, the console, or a remote console (RCON). */
struct cmd_source {
    conn *c; /* NULL: the console or RCON */
    const char *name;
    int level;
    double x, y, z;
    float yaw, pitch;
    buf_t *capture;   /* RCON: feedback goes here as plain text, not to the log */
    cmd_later *later; /* RCON: the answer may wait (commands.h); NULL: it may not */
};

/* What an executor gets: its source and the parsed line. */
typedef struct cmd_ctx {
    struct cmd_source *src;
    cmd_parse *ps;
} cmd_ctx;

struct cmd_targets {
    conn *c[CMD_MAX_TARGETS];
    size_t n;
};

/* game_profile targets (op, deop, whitelist, ban, pardon): selectors, online
 * names, names the server knows (operators, the whitelist, bans), or in
 * offline mode any valid name (the name fixes the UUID). */
struct cmd_profile {
    mc_uuid uuid;
    char name[17];
    conn *c; /* online, or NULL */
};

/* ---------------------------------------------- sources (cmd_source.c) */

/* A player as the source: its name, op level, position and rotation. */
void cmd_source_from_player(struct cmd_source *s, conn *c);
/* The console: "Server", level 4, at the world spawn. */
void cmd_source_console(struct cmd_source *s);
/* The source as a player, or NULL after the error ("A player is required
 * ..."; entity: "An entity is required ..."). */
conn *cmd_source_player(cmd_ctx *x, bool entity);

/* ---------------------------------------------- feedback (cmd_source.c) */

/* Defers the source's answer (commands.h, cmd_later): what it captured so
 * far moves into the pending answer. NULL if the source cannot wait (a
 * player, the console) or out of memory: answer now. */
struct cmd_pending *cmd_source_defer(struct cmd_source *s);
/* Takes a deferred answer back (nothing will finish it): its text returns
 * to the source's capture. */
void cmd_source_undefer(struct cmd_source *s, struct cmd_pending *p);
/* Ends a deferred answer: `more` (a line; may be NULL) is added and the
 * whole answer delivered, unless it was cancelled. Frees p. */
void cmd_pending_finish(struct cmd_pending *p, const char *more);

/* A message to the source: json to a player, plain to RCON's capture or to
 * the log. */
void cmd_send_json(struct cmd_source *s, const buf_t *json, const buf_t *plain);
/* The source's display name as a JSON component (the console's is its name). */
void cmd_source_name_json(buf_t *j, const struct cmd_source *s);
/* vanilla sendSuccess(message, logged): to the source; logged, also to the
 * other operators as [Name: message] and to the log. */
void cmd_success(cmd_ctx *x, bool logged, const char *key, const chat_arg *a, size_t n);
/* vanilla sendFailure: the message in red, to the source. */
void cmd_failure(cmd_ctx *x, const char *key, const chat_arg *a, size_t n);
void cmd_failure0(cmd_ctx *x, const char *key);
/* A parse error: the message, then "...text<--[HERE]". */
void cmd_parse_failure(struct cmd_source *s, const cmd_parse *ps);

/* --------------------------------------------- selectors (cmd_source.c) */

extern struct cmd_targets cmd_targets_a, cmd_targets_b;

/* The online player with that name (any case), or NULL. */
conn *cmd_player_by_name(const char *name);
/* The players a selector picks for source s, into out (none: out->n 0, no error). */
void cmd_select(const struct cmd_source *s, const struct cmd_selector *sel,
                struct cmd_targets *out);
/* Resolves a selector to players into out; -1 after sending the error
 * (not allowed below level 2, or nothing found). */
int cmd_resolve(cmd_ctx *x, const struct cmd_selector *sel, bool players_only,
                struct cmd_targets *out);
/* cmd_resolve of the argument called `name`; -1 if there is none. */
int cmd_resolve_arg(cmd_ctx *x, const char *name, struct cmd_targets *out);
/* The "targets" game_profile argument as at most cap profiles into out;
 * allow_offline: in offline mode any valid name is a profile. -1 after
 * sending the error. */
int cmd_resolve_profiles(cmd_ctx *x, bool allow_offline, struct cmd_profile *out, size_t *n,
                         size_t cap);
/* Appends a message argument with selectors replaced by names (level 2+,
 * as vanilla); uses cmd_targets_b. */
void cmd_expand_message(cmd_ctx *x, const struct cmd_value *v, buf_t *out);

/* ------------------------------------------------ mobs (cmd_mobs.c) */

/* summon <entity> [<pos>] [<nbt>]. */
int cmd_mobs_summon(cmd_ctx *x);
/* summonmany <entity> <count> <radius> [<pos>] [<nbt>] (mcserv's). */
int cmd_mobs_summon_many(cmd_ctx *x);
/* The mobs selector argument v picks (an @e not limited to players) into
 * slots (game/mobs.h); *err -1 after sending the error (an unknown type=). */
size_t cmd_mobs_select(cmd_ctx *x, const struct cmd_value *v, int32_t *slots, size_t cap, int *err);

/* ------------------------------------ helpers for executors (cmd_source.c) */

/* "gameMode.survival" .. "gameMode.spectator", by id. */
extern const char *const cmd_gamemode_keys[4];
/* Mth.wrapDegrees: into [-180, 180). */
double cmd_wrap_degrees(double d);
/* Parsed coordinates resolved against the source (vanilla WorldCoordinates /
 * LocalCoordinates). */
void cmd_coords_abs(const struct cmd_source *s, const struct cmd_coords *c, double out[3]);
/* The players of the entity argument `name` into tl, or the source alone
 * when the argument was left out (entity: the error names an entity, not a
 * player). -1 after sending the error. */
int cmd_targets_or_self(cmd_ctx *x, const char *name, bool entity, struct cmd_targets *tl);
/* A line of plain text to the source: {"text":...} in game (a JSON buffer
 * of at most json_cap bytes), the text itself elsewhere. */
void cmd_send_text(cmd_ctx *x, const buf_t *text, size_t json_cap);
void cmd_send_line(cmd_ctx *x, const char *text);
/* A count as a message argument ("%zu"). */
void cmd_count_arg(char out[24], size_t n);

/* ------------------------------------------- executors (cmd_builtin.c) */

/* Runs the executor of x->ps->exec (a node of cmd_builtin_tree()). */
void cmd_builtin_exec(cmd_ctx *x);
/* X_PLUGINS nodes: the `plugins` command and plugins' commands (cmd_plugins.c). */
void cmd_plugins_exec(cmd_ctx *x);

/* ---------------------------------- issue 17's executors, by file (each
 * returns 0, or -1 after sending the failure, as cmd_builtin.c's) */

int cmd_gamerule(cmd_ctx *x);        /* cmd_rules.c */
int cmd_difficulty(cmd_ctx *x);      /* cmd_rules.c */
int cmd_defaultgamemode(cmd_ctx *x); /* cmd_rules.c */
int cmd_version(cmd_ctx *x);         /* cmd_rules.c */
int cmd_world_exec(cmd_ctx *x);      /* cmd_world.c: setblock, fill, clone, forceload */
int cmd_worldborder(cmd_ctx *x);     /* cmd_border.c */
int cmd_text_exec(cmd_ctx *x);       /* cmd_text.c: tellraw, title */
int cmd_player_exec(cmd_ctx *x);     /* cmd_player.c: give, clear, spawnpoint */
int cmd_xp_exec(cmd_ctx *x);         /* cmd_xp.c: experience (xp), enchant */
int cmd_pregen_start(cmd_ctx *x);    /* cmd_pregen.c: pregen <radius> [x z] (issue 18) */
int cmd_pregen_status(cmd_ctx *x);   /* cmd_pregen.c: pregen status */
int cmd_pregen_cancel(cmd_ctx *x);   /* cmd_pregen.c: pregen cancel */

#endif
