/*
 * cmd_parser.h — the pure half of the command dispatcher: a Brigadier tree
 * built from a static spec (the built-in commands' spec is game/cmd_spec.c),
 * its Declare Commands encoder (clients complete and check commands as they
 * type), a parser that follows Brigadier and vanilla's argument types
 * (game/cmd_parser.c; Minecraft's blocks, items and text components in
 * game/cmd_args.c, sharing game/cmd_reader.h), and Brigadier's usage text.
 * Part of the shared library (libmc.a): the unit tests link it without a
 * server. The server half (sources, selectors, the commands themselves,
 * dispatch) is game/commands.h and the other game/cmd_*.c.
 *
 * Invariants:
 *  1. One tree, built from a static spec (plugins' commands appended after
 *     the built-ins, cmd_builtin_extend); a client sees exactly the
 *     nodes its permission level allows (its own op level; the console is 4),
 *     and the parser uses the same filter, so a hidden command is an unknown
 *     one, as in vanilla.
 *  2. Bounded: a command line is at most CMD_MAX_LEN bytes, a parse at most
 *     CMD_MAX_DEPTH nodes deep, names and option values are fixed buffers.
 *  3. Pure (no server state, no I/O): tests build trees and parse lines
 *     without a server; selectors are resolved only when executing.
 */
#ifndef MC_CMD_PARSER_H
#define MC_CMD_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/wire.h"

#define CMD_MAX_NODES 1024 /* built-ins (about 500, clone alone ~100) and plugins' commands */
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
    CP_COLUMN_POS = 9,
    CP_VEC3 = 10,
    CP_VEC2 = 11,
    CP_BLOCK_STATE = 12,
    CP_BLOCK_PREDICATE = 13,
    CP_ITEM_STACK = 14,
    CP_ITEM_PREDICATE = 15,
    CP_COMPONENT = 17,
    CP_MESSAGE = 18,
    CP_NBT = 19, /* minecraft:nbt (a compound); issue 15's summon */
    CP_ANGLE = 26,
    CP_ROTATION = 27,
    CP_ENTITY_ANCHOR = 35,
    CP_DIMENSION = 38,
    CP_GAMEMODE = 39,
    CP_TIME = 40,
    CP_RESOURCE = 43, /* minecraft:resource; prop: CMD_REGISTRY_* (issue 15) */
};

/* minecraft:resource's registry (cmd_node.prop). */
#define CMD_REGISTRY_ENTITY_TYPE 0
#define CMD_REGISTRY_ENCHANTMENT 1 /* issue 14: enchant */

/* Bounds of a Brigadier number (cmd_spec.range: which of min, max apply). */
#define CMD_RANGE_MIN 0x01
#define CMD_RANGE_MAX 0x02

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
    SUG_SUMMONABLE,      /* the client's own minecraft:summonable_entities (issue 15) */
};

/* Executor ids of the built-in tree's executable nodes (cmd_node.exec);
 * game/cmd_builtin.c runs them. */
enum cmd_exec {
    X_NONE,
    X_HELP,
    X_LIST,
    X_LIST_UUIDS,
    X_ME,
    X_MSG,
    X_SAY,
    X_TP,
    X_GAMEMODE,
    X_TIME_SET,
    X_TIME_ADD,
    X_TIME_QUERY,
    X_WEATHER,
    X_KILL,
    X_SETWORLDSPAWN,
    X_SEED,
    X_KICK,
    X_OP,
    X_DEOP,
    X_STOP,
    X_MSPT,
    X_SAVE_ALL,
    X_SAVE_OFF,
    X_SAVE_ON,
    X_WHITELIST_ON,
    X_WHITELIST_OFF,
    X_WHITELIST_LIST,
    X_WHITELIST_ADD,
    X_WHITELIST_REMOVE,
    X_WHITELIST_RELOAD,
    X_BAN,
    X_BAN_IP,
    X_PARDON,
    X_PARDON_IP,
    X_BANLIST,
    /* issue 17 (game/cmd_rules.c, cmd_world.c, cmd_border.c, cmd_text.c, cmd_player.c) */
    X_GAMERULE,
    X_DIFFICULTY,
    X_DEFAULTGAMEMODE,
    X_VERSION,
    X_SETBLOCK,
    X_FILL,
    X_CLONE,
    X_FORCELOAD,
    X_WORLDBORDER,
    X_TELLRAW,
    X_TITLE,
    X_GIVE,
    X_CLEAR,
    X_SPAWNPOINT,
    X_TICK_QUERY, /* game/cmd_perf.c */
    X_HEALTH,     /* game/cmd_perf.c */
    /* issue 18: pre-generation (game/cmd_pregen.c) */
    X_PREGEN_START,
    X_PREGEN_STATUS,
    X_PREGEN_CANCEL,
    X_PLUGINS, /* the `plugins` command and the commands plugins register (game/cmd_plugins.c) */
    X_SUMMON,  /* issue 15: game/cmd_mobs.c */
    /* issue 14: game/cmd_xp.c */
    X_XP_ADD_POINTS,
    X_XP_ADD_LEVELS,
    X_XP_SET_POINTS,
    X_XP_SET_LEVELS,
    X_XP_QUERY_POINTS,
    X_XP_QUERY_LEVELS,
    X_ENCHANT,
    X_SUMMON_MANY, /* issue 15: mcserv's summonmany (game/cmd_mobs.c) */
    X_COUNT
};

/* One line of a tree spec: depth 0 = a command, deeper = child of the last
 * line one level up. level applies to depth-0 lines and their subtree; a
 * deeper line may raise it for its own subtree (plugins: /home for
 * everyone, /home admin for level 2). */
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
    uint8_t range;        /* integer, float, double: CMD_RANGE_* */
    double min, max;
};

typedef struct cmd_node {
    uint8_t kind;
    int16_t parser;
    int32_t prop;
    uint8_t level, exec, suggest, range;
    int16_t redirect, first_child, next_sibling, parent;
    const char *name;
    double min, max;
} cmd_node;

typedef struct cmd_tree {
    cmd_node n[CMD_MAX_NODES];
    int count;
} cmd_tree;

/* Game mode names as commands spell them, by id (survival 0 .. spectator 3). */
extern const char *const cmd_gamemode_names[4];

/* Builds t from spec; -1 if it does not fit or a redirect names no command. */
int cmd_tree_build(cmd_tree *t, const struct cmd_spec *spec, size_t n);
/* Appends s (its depth ignored) as the last child of node parent; its index,
 * or -1. Its level: s's, or the parent's when that is higher (the root's
 * children: s's). */
int cmd_tree_add(cmd_tree *t, int parent, const struct cmd_spec *s);
/* The built-in commands' tree (built on first use, game/cmd_spec.c), with
 * the commands of the last cmd_builtin_extend after them. */
const cmd_tree *cmd_builtin_tree(void);
/*
 * Appends spec's lines after t's nodes: depth 0 is a new command under the
 * root, deeper lines as in cmd_tree_build; a redirect may name any command
 * of the tree. Line i becomes node first + i (*first, may be NULL). -1 (t
 * unchanged) if they do not fit, or a redirect names no command.
 */
int cmd_tree_append(cmd_tree *t, const struct cmd_spec *spec, size_t n, int *first);
/* Rebuilds cmd_builtin_tree() as the built-ins followed by spec (plugins;
 * n 0: the built-ins alone). -1 (the tree unchanged) as cmd_tree_append.
 * Nodes of the previous tree must not be in use (no parse in progress). */
int cmd_builtin_extend(const struct cmd_spec *spec, size_t n, int *first);
/* Appends Declare Commands (id + payload) with the nodes visible at `level`. */
void pkt_cb_declare_commands(buf_t *b, const cmd_tree *t, int level);

/* A parsed coordinate triple (vec3, block_pos), pair (rotation: v[0] yaw,
 * v[1] pitch; vec2 and column_pos: v[0] x, v[2] z, y relative 0, as
 * vanilla's WorldCoordinates) or angle (v[0]). */
struct cmd_coords {
    double v[3];
    uint8_t rel; /* bit i: coordinate i is relative (~) */
    bool local;  /* ^ ^ ^ */
};

/* A parsed block_state or block_predicate: the block, the state with the
 * properties given applied to its default, and those properties (a
 * predicate tests only them). */
#define CMD_BLOCK_PROPS 16
struct cmd_block {
    uint16_t block; /* block_info index */
    uint16_t state; /* global palette id */
    uint8_t nprops;
    uint8_t prop[CMD_BLOCK_PROPS];  /* the i-th property of the block */
    uint8_t value[CMD_BLOCK_PROPS]; /* its value index */
};

/* A block_predicate's test: the same block, and the properties given. */
bool cmd_block_matches(const struct cmd_block *pred, uint16_t state);

/* A parsed item_stack or item_predicate. */
struct cmd_item {
    uint16_t item; /* item_info index */
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
        struct cmd_block block;
        struct cmd_item item;
        /* component, dimension: the text is line[start, end) */
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
    char err_arg[3][64];
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

/* Single steps of the parser, for the server half (selectors inside
 * messages, tab completion). Both read line[*pos..len); on success they
 * return 0 and move *pos past what they read; on error they return -1 and
 * leave *pos alone (the error itself is dropped). */
int cmd_read_selector(const char *line, size_t len, size_t *pos, struct cmd_selector *sel);
int cmd_read_argument(const cmd_node *nd, const char *line, size_t len, size_t *pos,
                      struct cmd_value *v);

/* Java's Double.toString (as_float: Float.toString) of v, as vanilla prints
 * numbers in messages: "0.0", "-5.9999968E7", "0.1". */
void cmd_java_number(char *out, size_t cap, double v, bool as_float);
/* Java's String.format(Locale.ROOT, "%.<prec>f", v): half up on the
 * shortest digits, so 0.125 gives "0.13" and 2.5 with prec 0 gives "3". */
void cmd_java_fixed(char *out, size_t cap, double v, int prec);

#endif
