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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/wire.h"

#define CMD_MAX_NODES 160
#define CMD_MAX_DEPTH 16
#define CMD_MAX_LEN   1024 /* bytes of one command line */

/* Brigadier argument parsers: the wire ids of protocol 763's command_node. */
enum cmd_parser {
    CP_BOOL = 0,
    CP_FLOAT = 1,
    CP_DOUBLE = 2,
    CP_INTEGER = 3,
    CP_STRING = 5,
    CP_ENTITY = 6,
    CP_GAME_PROFILE = 7,
    CP_BLOCK_POS = 8,
    CP_VEC3 = 10,
    CP_MESSAGE = 18,
    CP_ANGLE = 26,
    CP_ROTATION = 27,
    CP_ENTITY_ANCHOR = 35,
    CP_GAMEMODE = 39,
    CP_TIME = 40,
};

enum { CN_ROOT = 0, CN_LITERAL = 1, CN_ARGUMENT = 2 };

/* minecraft:entity flags (the packet's bitfield) */
#define CMD_ENTITY_SINGLE  0x01
#define CMD_ENTITY_PLAYERS 0x02
/* brigadier:string kinds */
#define CMD_STRING_WORD    0
#define CMD_STRING_PHRASE  1
#define CMD_STRING_GREEDY  2

/* Server-side suggestions ("minecraft:ask_server"). */
enum cmd_suggest {
    SUG_NONE = 0,
    SUG_NON_OPS,
    SUG_OPS,
    SUG_NOT_WHITELISTED, /* online players not on the whitelist */
    SUG_WHITELISTED,     /* names on the whitelist */
    SUG_BANNED,          /* banned names */
    SUG_BANNED_IPS,      /* banned addresses */
};

/* One line of a tree spec: depth 0 = a command, deeper = child of the last
 * line one level up. level applies to depth-0 lines and their subtree. */
struct cmd_spec {
    uint8_t depth;
    uint8_t kind; /* CN_LITERAL, CN_ARGUMENT */
    const char *name;
    int16_t parser;
    int32_t prop; /* entity flags, string kind, time minimum */
    uint8_t level;
    uint8_t exec; /* executor id; 0 = not executable */
    uint8_t suggest;
    const char *redirect; /* name of a command to redirect to */
};

typedef struct cmd_node {
    uint8_t kind;
    int16_t parser;
    int32_t prop;
    uint8_t level, exec, suggest;
    int16_t redirect, first_child, next_sibling, parent;
    const char *name;
} cmd_node;

typedef struct cmd_tree {
    cmd_node n[CMD_MAX_NODES];
    int count;
} cmd_tree;

/* Builds t from spec; -1 if it does not fit or a redirect names no command. */
int cmd_tree_build(cmd_tree *t, const struct cmd_spec *spec, size_t n);
/* The built-in commands' tree (built on first use). */
const cmd_tree *cmd_builtin_tree(void);
/* Appends Declare Commands (id + payload) with the nodes visible at `level`. */
void pkt_cb_declare_commands(buf_t *b, const cmd_tree *t, int level);

/* A parsed coordinate triple (vec3, block_pos), pair (rotation) or angle. */
struct cmd_coords {
    double v[3];
    uint8_t rel; /* bit i: coordinate i is relative (~) */
    bool local;  /* ^ ^ ^ */
};

/* A parsed entity or game-profile argument, resolved when executing. */
struct cmd_selector {
    char kind; /* 0 player name, 'u' UUID, or a selector: 'p' 'a' 'r' 's' 'e' */
    mc_uuid uuid;
    char name[17];
    bool has_name, name_neg;
    int limit; /* 0 = the selector's own (1 for p r s and names) */
    bool has_dist;
    double dmin, dmax;
    int gamemode; /* -1 any */
    bool gm_neg;
    int sort;         /* 0 arbitrary, 1 nearest, 2 furthest, 3 random */
    bool type_player; /* type=player: players only */
    bool type_other;  /* type= something else: matches nothing here */
};

struct cmd_value {
    const cmd_node *node;
    uint32_t start, end; /* byte range in the line */
    union {
        bool b;
        int32_t i;
        double d;
        struct cmd_coords pos;
        struct cmd_selector sel;
        int gamemode;
        int anchor; /* 0 feet, 1 eyes */
    } u;
};

typedef struct cmd_parse {
    const char *line;
    size_t len;
    int level;
    struct cmd_value path[CMD_MAX_DEPTH]; /* nodes matched after the root */
    int depth;
    const cmd_node *exec; /* executable node reached, NULL on error */
    /* error: translation key, arguments, cursor (-1: no context line) */
    long err_pos;
    const char *err_key;
    char err_arg[2][64];
    int err_nargs;
} cmd_parse;

/* Parses line[0..len) against t for a source of permission `level`.
 * 0: ps->exec and ps->path are set; -1: ps->err_* describe the error. */
int cmd_parse_line(const cmd_tree *t, const char *line, size_t len, int level, cmd_parse *ps);
/* The value parsed for the argument called `name`, or NULL. */
const struct cmd_value *cmd_arg(const cmd_parse *ps, const char *name);
/* True if the path contains the literal `name`. */
bool cmd_has_literal(const cmd_parse *ps, const char *name);
/* Brigadier's smart usage of a node's children ("<targets> <message>", "(set|add|query)"). */
void cmd_usage(buf_t *out, const cmd_tree *t, int node, int level);

#ifndef CMD_CORE_ONLY
#include "game/game.h"

/* After play_join: the tree for the player's level, its op level, tab list
 * header/footer, weather. */
void cmd_join(conn *c);
/* Once per tick, last: day time, Update Time every 20 ticks, weather timer,
 * chat spam decay. (Tick timing is core/tickstat, driven by the loop.) */
void cmd_tick_end(void);
/* Loads ops.json; once at startup. */
void cmd_init(void);
/* Runs one console line (stdin) at permission level 4; feedback goes to the log. */
void console_execute(const char *line);
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

#endif
