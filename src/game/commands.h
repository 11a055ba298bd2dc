/*
 * commands.h — the command dispatcher shared by players, the console (stdin)
 * and RCON (admin/rcon.c, through cmd_run_capture): a Brigadier tree (sent
 * to clients as Declare Commands so they complete and check commands as they
 * type), a parser that follows Brigadier and vanilla's argument types,
 * permission levels, and the built-in commands (docs/commands.md lists them).
 *
 * Invariants:
 *  1. One tree, built once from a static spec; a client sees exactly the
 *     nodes its permission level allows (its own op level; the console is 4),
 *     and the parser uses the same filter, so a hidden command is an unknown
 *     one, as in vanilla.
 *  2. Bounded: a command line is at most CMD_MAX_LEN bytes, a parse at most
 *     CMD_MAX_DEPTH nodes deep, names and option values are fixed buffers.
 *  3. The parser is pure (no server state): tests build trees and parse
 *     lines without a server; selectors are resolved only when executing.
 */
#ifndef MC_COMMANDS_H
#define MC_COMMANDS_H

#include "core/buf.h"
#include "game/cmd_parser.h"
#include "net/server.h"

/* After play_join: the tree for the player's level, its op level, tab list
 * header/footer, weather. */
void cmd_join(conn *c);
/* Once at startup: the clock (daytime_init), ops.json, the lists. */
void cmd_init(void);
/* Serverbound chat_command and tab_complete. */
void cmd_sb_chat_command(conn *c, rd_t *r);
void cmd_sb_tab_complete(conn *c, rd_t *r);
/* Re-sends the tree and the op level after an op/deop. */
void cmd_refresh_permissions(conn *c);
/*
 * Runs a command line for a remote console (RCON): permission level 4,
 * named `source_name` ("Rcon" as vanilla). Its feedback is appended to out
 * as plain English text, one line per message (out's cap bounds it);
 * logged successes go to the log as "[Rcon: ...]" and, with
 * broadcast-rcon-to-ops, to online operators.
 */
void cmd_run_capture(const char *line, size_t len, const char *source_name, buf_t *out);

#endif
