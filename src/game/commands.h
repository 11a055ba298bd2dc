/*
 * commands.h — the command dispatcher shared by players, the console (stdin)
 * and RCON (admin/rcon.c, through cmd_run_capture): the entry points of its
 * server half. The built-in commands are listed in docs/commands.md.
 *
 * The dispatcher's files:
 *   game/cmd_parser.{c,h}  the Brigadier tree, Declare Commands, the parser,
 *                          usage text (pure: in the shared library,
 *                          unit-tested without a server), with
 *   game/cmd_spec.c        the built-in commands' spec, and
 *   game/cmd_args.c        Minecraft's argument types (blocks, items, text
 *                          components), sharing game/cmd_reader.h
 *   game/cmd_source.c      command sources, feedback, selector resolution,
 *                          helpers the executors share
 *   game/cmd_builtin.c     the built-in commands of issue 5 and later
 *   game/cmd_rules.c       gamerule, difficulty, defaultgamemode, version
 *   game/cmd_world.c       setblock, fill, clone, forceload
 *   game/cmd_border.c      worldborder
 *   game/cmd_text.c        tellraw, title
 *   game/cmd_player.c      give, clear, spawnpoint
 *   game/cmd_lang.c        English text of the keys those send
 *   game/cmd_dispatch.c    these entry points: running a line, tab
 *                          completion, the tree and op level per player
 *   game/cmd_internal.h    what those .c files share
 * What the commands change has its owner: the clock and the weather
 * game/daytime.{c,h}, the game rules and the difficulty game/gamerules.h,
 * the world border game/border.h, forced chunks game/forceload.h, respawn
 * points game/spawnpoint.h, names and UUIDs of past players
 * game/usercache.h, level.dat's extra tags game/level_tags.h.
 *
 * Invariants:
 *  1. A source sees and may run exactly the nodes its permission level
 *     allows: a player its op level (read at join and after op/deop), the
 *     console and RCON 4. A hidden command is an unknown one, as in vanilla.
 *  2. Commands run on the game thread, one at a time, each to its end before
 *     the entry point returns; only their answer may come later (a
 *     cmd_later: save-all over RCON answers when the save is on disk).
 */
#ifndef MC_COMMANDS_H
#define MC_COMMANDS_H

#include <stddef.h>

#include "core/buf.h"
#include "game/game.h"

/* After play_join: the user cache, the tree for the player's level, its op
 * level, tab list header/footer, weather, difficulty and game rules, the
 * world border. */
void cmd_join(conn *c);
/* Once at startup: the clock (daytime_init), ops.json, the lists, the user
 * cache, level.dat's game rules and border, the forced chunks. */
void cmd_init(void);
/* Serverbound chat_command and tab_complete. */
void cmd_sb_chat_command(conn *c, rd_t *r);
void cmd_sb_tab_complete(conn *c, rd_t *r);
/* Re-sends the tree and the op level after an op/deop. */
void cmd_refresh_permissions(conn *c);
/* The tree changed (plugins, cmd_builtin_extend): every level's Declare
 * Commands is framed again and sent to every player. */
void cmd_tree_changed(void);
/*
 * Runs a command line for a remote console (RCON): permission level 4,
 * named `source_name` ("Rcon" as vanilla). Its feedback is appended to out
 * as plain English text, one line per message (out's cap bounds it);
 * logged successes go to the log as "[Rcon: ...]" and, with
 * broadcast-rcon-to-ops, to online operators.
 */
void cmd_run_capture(const char *line, size_t len, const char *source_name, buf_t *out);

/*
 * An answer that may come after the command returned: vanilla's save-all
 * answers "Saved the game" once the data is on disk, and backup scripts run
 * `rcon save-all flush && tar ...` on that. The caller owns the struct and
 * sets done; cmd_run_capture_later runs the line like cmd_run_capture, and
 * if the command defers its answer, out's text moves into the pending answer
 * (pending is set) and done(l, text, len) is called once, later, on the game
 * thread, with everything the command said. cmd_later_cancel (the caller is
 * going away) drops a pending answer without calling done.
 */
typedef struct cmd_later cmd_later;
struct cmd_later {
    void (*done)(cmd_later *l, const char *text, size_t len);
    struct cmd_pending *pending; /* non-NULL while an answer is due */
};
void cmd_run_capture_later(const char *line, size_t len, const char *source_name, buf_t *out,
                           cmd_later *later);
void cmd_later_cancel(cmd_later *l);
/* Runs one console line (stdin) at permission level 4; feedback goes to the log. */
void console_execute(const char *line);
/* English text of a key the commands send that chat.c's table lacks; the
 * key itself if unknown (game/cmd_lang.c). */
const char *cmd_lang_en(const char *key);

#endif
