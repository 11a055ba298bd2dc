/*
 * cmd_spec.c — the built-in commands' tree, as a spec (one line per node,
 * shaped as vanilla 1.20.1 declares it: the unit tests compare it node by
 * node with a vanilla server's Declare Commands), and cmd_builtin_tree(),
 * which builds it once. Part of the pure half (cmd_parser.h).
 *
 * Invariants:
 *  1. A line's depth is at most one more than the line before; depth 0 is a
 *     command with its permission level, deeper lines inherit it.
 *  2. Every executable node names its executor (enum cmd_exec), which
 *     game/cmd_builtin.c dispatches; a REDIRECT names a command declared
 *     above or below it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "game/cmd_parser.h"
#include "game/gamerules.h"

#define LIT(d, nm, lvl, ex)                                                                        \
    {                                                                                              \
        .depth = d, .kind = CN_LITERAL, .name = nm, .level = lvl, .exec = ex                       \
    }
#define ARG(d, nm, p, pr, ex)                                                                      \
    {                                                                                              \
        .depth = d, .kind = CN_ARGUMENT, .name = nm, .parser = p, .prop = pr, .exec = ex           \
    }
#define ARGS(d, nm, p, ex, sug)                                                                    \
    {                                                                                              \
        .depth = d, .kind = CN_ARGUMENT, .name = nm, .parser = p, .exec = ex, .suggest = sug       \
    }
/* A number argument with bounds (rng: CMD_RANGE_MIN | CMD_RANGE_MAX). */
#define NUM(d, nm, p, rng, lo, hi, ex)                                                             \
    {                                                                                              \
        .depth = d, .kind = CN_ARGUMENT, .name = nm, .parser = p, .exec = ex, .range = rng,        \
        .min = lo, .max = hi                                                                       \
    }
#define REDIRECT(nm, lvl, target)                                                                  \
    {                                                                                              \
        .depth = 0, .kind = CN_LITERAL, .name = nm, .level = lvl, .redirect = target               \
    }

/* clone's <destination> and its modes, at depth d (vanilla's
 * destinationAndModeSuffix): replace, masked or filtered <filter>, each
 * optionally followed by force, move or normal. */
#define CLONE_MODES(d)                                                                             \
    LIT(d, "force", 0, X_CLONE), LIT(d, "move", 0, X_CLONE), LIT(d, "normal", 0, X_CLONE)
#define CLONE_DESTINATION(d)                                                                       \
    ARG(d, "destination", CP_BLOCK_POS, 0, X_CLONE), LIT(d + 1, "replace", 0, X_CLONE),            \
        CLONE_MODES(d + 2), LIT(d + 1, "masked", 0, X_CLONE), CLONE_MODES(d + 2),                  \
        LIT(d + 1, "filtered", 0, X_NONE), ARG(d + 2, "filter", CP_BLOCK_PREDICATE, 0, X_CLONE),   \
        CLONE_MODES(d + 3)
/* <begin> <end>, then a destination here or "to" <targetDimension> (vanilla's
 * beginEndDestinationAndModeSuffix). */
#define CLONE_AREA(d)                                                                              \
    ARG(d, "begin", CP_BLOCK_POS, 0, X_NONE), ARG(d + 1, "end", CP_BLOCK_POS, 0, X_NONE),          \
        CLONE_DESTINATION(d + 2), LIT(d + 2, "to", 0, X_NONE),                                     \
        ARG(d + 3, "targetDimension", CP_DIMENSION, 0, X_NONE), CLONE_DESTINATION(d + 4)

#define BOUNDS (CMD_RANGE_MIN | CMD_RANGE_MAX)

#define E_ENTITIES 0
#define E_ENTITY   CMD_ENTITY_SINGLE
#define E_PLAYERS  CMD_ENTITY_PLAYERS

/* The built-in commands, shaped as vanilla 1.20.1 declares them (levels:
 * 0 everyone, 2 game masters, 3 admins, 4 owners); `mspt` and `health` are
 * mcserv's. */
static const struct cmd_spec builtin_spec[] = {
    LIT(0, "help", 0, X_HELP),
    ARG(1, "command", CP_STRING, CMD_STRING_GREEDY, X_HELP),
    LIT(0, "list", 0, X_LIST),
    LIT(1, "uuids", 0, X_LIST_UUIDS),
    LIT(0, "me", 0, X_NONE),
    ARG(1, "action", CP_MESSAGE, 0, X_ME),
    LIT(0, "msg", 0, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    ARG(2, "message", CP_MESSAGE, 0, X_MSG),
    REDIRECT("tell", 0, "msg"),
    REDIRECT("w", 0, "msg"),
    LIT(0, "say", 2, X_NONE),
    ARG(1, "message", CP_MESSAGE, 0, X_SAY),
    LIT(0, "teleport", 2, X_NONE),
    ARG(1, "location", CP_VEC3, 0, X_TP),
    ARG(1, "destination", CP_ENTITY, E_ENTITY, X_TP),
    ARG(1, "targets", CP_ENTITY, E_ENTITIES, X_NONE),
    ARG(2, "location", CP_VEC3, 0, X_TP),
    ARG(3, "rotation", CP_ROTATION, 0, X_TP),
    LIT(3, "facing", 0, X_NONE),
    LIT(4, "entity", 0, X_NONE),
    ARG(5, "facingEntity", CP_ENTITY, E_ENTITY, X_TP),
    ARG(6, "facingAnchor", CP_ENTITY_ANCHOR, 0, X_TP),
    ARG(4, "facingLocation", CP_VEC3, 0, X_TP),
    ARG(2, "destination", CP_ENTITY, E_ENTITY, X_TP),
    REDIRECT("tp", 2, "teleport"),
    LIT(0, "gamemode", 2, X_NONE),
    ARG(1, "gamemode", CP_GAMEMODE, 0, X_GAMEMODE),
    ARG(2, "target", CP_ENTITY, E_PLAYERS, X_GAMEMODE),
    LIT(0, "time", 2, X_NONE),
    LIT(1, "set", 0, X_NONE),
    LIT(2, "day", 0, X_TIME_SET),
    LIT(2, "noon", 0, X_TIME_SET),
    LIT(2, "night", 0, X_TIME_SET),
    LIT(2, "midnight", 0, X_TIME_SET),
    ARG(2, "time", CP_TIME, 0, X_TIME_SET),
    LIT(1, "add", 0, X_NONE),
    ARG(2, "time", CP_TIME, 0, X_TIME_ADD),
    LIT(1, "query", 0, X_NONE),
    LIT(2, "daytime", 0, X_TIME_QUERY),
    LIT(2, "gametime", 0, X_TIME_QUERY),
    LIT(2, "day", 0, X_TIME_QUERY),
    LIT(0, "weather", 2, X_NONE),
    LIT(1, "clear", 0, X_WEATHER),
    ARG(2, "duration", CP_TIME, 1, X_WEATHER),
    LIT(1, "rain", 0, X_WEATHER),
    ARG(2, "duration", CP_TIME, 1, X_WEATHER),
    LIT(1, "thunder", 0, X_WEATHER),
    ARG(2, "duration", CP_TIME, 1, X_WEATHER),
    LIT(0, "kill", 2, X_KILL),
    ARG(1, "targets", CP_ENTITY, E_ENTITIES, X_KILL),
    LIT(0, "summon", 2, X_NONE), /* issue 15 (game/cmd_mobs.c) */
    {.depth = 1,
     .kind = CN_ARGUMENT,
     .name = "entity",
     .parser = CP_RESOURCE,
     .prop = CMD_REGISTRY_ENTITY_TYPE,
     .exec = X_SUMMON,
     .suggest = SUG_SUMMONABLE},
    ARG(2, "pos", CP_VEC3, 0, X_SUMMON),
    ARG(3, "nbt", CP_NBT, 0, X_SUMMON),
    LIT(0, "setworldspawn", 2, X_SETWORLDSPAWN),
    ARG(1, "pos", CP_BLOCK_POS, 0, X_SETWORLDSPAWN),
    ARG(2, "angle", CP_ANGLE, 0, X_SETWORLDSPAWN),
    LIT(0, "seed", 2, X_SEED),
    LIT(0, "kick", 3, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_KICK),
    ARG(2, "reason", CP_MESSAGE, 0, X_KICK),
    LIT(0, "op", 3, X_NONE),
    ARGS(1, "targets", CP_GAME_PROFILE, X_OP, SUG_NON_OPS),
    LIT(0, "deop", 3, X_NONE),
    ARGS(1, "targets", CP_GAME_PROFILE, X_DEOP, SUG_OPS),
    LIT(0, "stop", 4, X_STOP),
    LIT(0, "save-all", 4, X_SAVE_ALL),
    LIT(1, "flush", 0, X_SAVE_ALL),
    LIT(0, "save-off", 4, X_SAVE_OFF),
    LIT(0, "save-on", 4, X_SAVE_ON),
    LIT(0, "mspt", 2, X_MSPT),
    REDIRECT("tps", 2, "mspt"),
    /* The whitelist and bans (game/lists.h), as vanilla 1.20.1 declares them. */
    LIT(0, "whitelist", 3, X_NONE),
    LIT(1, "on", 0, X_WHITELIST_ON),
    LIT(1, "off", 0, X_WHITELIST_OFF),
    LIT(1, "list", 0, X_WHITELIST_LIST),
    LIT(1, "add", 0, X_NONE),
    ARGS(2, "targets", CP_GAME_PROFILE, X_WHITELIST_ADD, SUG_NOT_WHITELISTED),
    LIT(1, "remove", 0, X_NONE),
    ARGS(2, "targets", CP_GAME_PROFILE, X_WHITELIST_REMOVE, SUG_WHITELISTED),
    LIT(1, "reload", 0, X_WHITELIST_RELOAD),
    LIT(0, "ban", 3, X_NONE),
    ARG(1, "targets", CP_GAME_PROFILE, 0, X_BAN),
    ARG(2, "reason", CP_MESSAGE, 0, X_BAN),
    LIT(0, "ban-ip", 3, X_NONE),
    ARG(1, "target", CP_STRING, CMD_STRING_WORD, X_BAN_IP),
    ARG(2, "reason", CP_MESSAGE, 0, X_BAN_IP),
    LIT(0, "pardon", 3, X_NONE),
    ARGS(1, "targets", CP_GAME_PROFILE, X_PARDON, SUG_BANNED),
    LIT(0, "pardon-ip", 3, X_NONE),
    {.depth = 1,
     .kind = CN_ARGUMENT,
     .name = "target",
     .parser = CP_STRING,
     .prop = CMD_STRING_WORD,
     .exec = X_PARDON_IP,
     .suggest = SUG_BANNED_IPS},
    LIT(0, "banlist", 3, X_BANLIST),
    LIT(1, "ips", 0, X_BANLIST),
    LIT(1, "players", 0, X_BANLIST),
    /* Issue 17. gamerule's children come from gamerule_defs (below). */
    LIT(0, "gamerule", 2, X_NONE),
    LIT(0, "difficulty", 2, X_DIFFICULTY),
    LIT(1, "peaceful", 0, X_DIFFICULTY),
    LIT(1, "easy", 0, X_DIFFICULTY),
    LIT(1, "normal", 0, X_DIFFICULTY),
    LIT(1, "hard", 0, X_DIFFICULTY),
    LIT(0, "defaultgamemode", 2, X_NONE),
    ARG(1, "gamemode", CP_GAMEMODE, 0, X_DEFAULTGAMEMODE),
    /* vanilla 1.21.6's, level 2 on a dedicated server as there */
    LIT(0, "version", 2, X_VERSION),
    LIT(0, "setblock", 2, X_NONE),
    ARG(1, "pos", CP_BLOCK_POS, 0, X_NONE),
    ARG(2, "block", CP_BLOCK_STATE, 0, X_SETBLOCK),
    LIT(3, "destroy", 0, X_SETBLOCK),
    LIT(3, "keep", 0, X_SETBLOCK),
    LIT(3, "replace", 0, X_SETBLOCK),
    LIT(0, "fill", 2, X_NONE),
    ARG(1, "from", CP_BLOCK_POS, 0, X_NONE),
    ARG(2, "to", CP_BLOCK_POS, 0, X_NONE),
    ARG(3, "block", CP_BLOCK_STATE, 0, X_FILL),
    LIT(4, "replace", 0, X_FILL),
    ARG(5, "filter", CP_BLOCK_PREDICATE, 0, X_FILL),
    LIT(4, "keep", 0, X_FILL),
    LIT(4, "outline", 0, X_FILL),
    LIT(4, "hollow", 0, X_FILL),
    LIT(4, "destroy", 0, X_FILL),
    LIT(0, "clone", 2, X_NONE),
    CLONE_AREA(1),
    LIT(1, "from", 0, X_NONE),
    ARG(2, "sourceDimension", CP_DIMENSION, 0, X_NONE),
    CLONE_AREA(3),
    LIT(0, "forceload", 2, X_NONE),
    LIT(1, "add", 0, X_NONE),
    ARG(2, "from", CP_COLUMN_POS, 0, X_FORCELOAD),
    ARG(3, "to", CP_COLUMN_POS, 0, X_FORCELOAD),
    LIT(1, "remove", 0, X_NONE),
    ARG(2, "from", CP_COLUMN_POS, 0, X_FORCELOAD),
    ARG(3, "to", CP_COLUMN_POS, 0, X_FORCELOAD),
    LIT(2, "all", 0, X_FORCELOAD),
    LIT(1, "query", 0, X_FORCELOAD),
    ARG(2, "pos", CP_COLUMN_POS, 0, X_FORCELOAD),
    LIT(0, "worldborder", 2, X_NONE),
    LIT(1, "add", 0, X_NONE),
    NUM(2, "distance", CP_DOUBLE, BOUNDS, -5.9999968e7, 5.9999968e7, X_WORLDBORDER),
    NUM(3, "time", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_WORLDBORDER),
    LIT(1, "set", 0, X_NONE),
    NUM(2, "distance", CP_DOUBLE, BOUNDS, -5.9999968e7, 5.9999968e7, X_WORLDBORDER),
    NUM(3, "time", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_WORLDBORDER),
    LIT(1, "center", 0, X_NONE),
    ARG(2, "pos", CP_VEC2, 0, X_WORLDBORDER),
    LIT(1, "damage", 0, X_NONE),
    LIT(2, "amount", 0, X_NONE),
    NUM(3, "damagePerBlock", CP_FLOAT, CMD_RANGE_MIN, 0, 0, X_WORLDBORDER),
    LIT(2, "buffer", 0, X_NONE),
    NUM(3, "distance", CP_FLOAT, CMD_RANGE_MIN, 0, 0, X_WORLDBORDER),
    LIT(1, "get", 0, X_WORLDBORDER),
    LIT(1, "warning", 0, X_NONE),
    LIT(2, "distance", 0, X_NONE),
    NUM(3, "distance", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_WORLDBORDER),
    LIT(2, "time", 0, X_NONE),
    NUM(3, "time", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_WORLDBORDER),
    LIT(0, "tellraw", 2, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    ARG(2, "message", CP_COMPONENT, 0, X_TELLRAW),
    LIT(0, "title", 2, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    LIT(2, "clear", 0, X_TITLE),
    LIT(2, "reset", 0, X_TITLE),
    LIT(2, "title", 0, X_NONE),
    ARG(3, "title", CP_COMPONENT, 0, X_TITLE),
    LIT(2, "subtitle", 0, X_NONE),
    ARG(3, "title", CP_COMPONENT, 0, X_TITLE),
    LIT(2, "actionbar", 0, X_NONE),
    ARG(3, "title", CP_COMPONENT, 0, X_TITLE),
    LIT(2, "times", 0, X_NONE),
    ARG(3, "fadeIn", CP_TIME, 0, X_NONE),
    ARG(4, "stay", CP_TIME, 0, X_NONE),
    ARG(5, "fadeOut", CP_TIME, 0, X_TITLE),
    LIT(0, "give", 2, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    ARG(2, "item", CP_ITEM_STACK, 0, X_GIVE),
    NUM(3, "count", CP_INTEGER, CMD_RANGE_MIN, 1, 0, X_GIVE),
    LIT(0, "clear", 2, X_CLEAR),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_CLEAR),
    ARG(2, "item", CP_ITEM_PREDICATE, 0, X_CLEAR),
    NUM(3, "maxCount", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_CLEAR),
    /* issue 14 (game/cmd_xp.c): ExperienceCommand, its alias, EnchantCommand */
    LIT(0, "experience", 2, X_NONE),
    LIT(1, "add", 0, X_NONE),
    ARG(2, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    ARG(3, "amount", CP_INTEGER, 0, X_XP_ADD_POINTS),
    LIT(4, "points", 0, X_XP_ADD_POINTS),
    LIT(4, "levels", 0, X_XP_ADD_LEVELS),
    LIT(1, "set", 0, X_NONE),
    ARG(2, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    NUM(3, "amount", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_XP_SET_POINTS),
    LIT(4, "points", 0, X_XP_SET_POINTS),
    LIT(4, "levels", 0, X_XP_SET_LEVELS),
    LIT(1, "query", 0, X_NONE),
    ARG(2, "targets", CP_ENTITY, E_PLAYERS | E_ENTITY, X_NONE),
    LIT(3, "points", 0, X_XP_QUERY_POINTS),
    LIT(3, "levels", 0, X_XP_QUERY_LEVELS),
    REDIRECT("xp", 2, "experience"),
    LIT(0, "enchant", 2, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_ENTITIES, X_NONE),
    {.depth = 2,
     .kind = CN_ARGUMENT,
     .name = "enchantment",
     .parser = CP_RESOURCE,
     .prop = CMD_REGISTRY_ENCHANTMENT,
     .exec = X_ENCHANT},
    NUM(3, "level", CP_INTEGER, CMD_RANGE_MIN, 0, 0, X_ENCHANT),
    LIT(0, "spawnpoint", 2, X_SPAWNPOINT),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_SPAWNPOINT),
    ARG(2, "pos", CP_BLOCK_POS, 0, X_SPAWNPOINT),
    ARG(3, "angle", CP_ANGLE, 0, X_SPAWNPOINT),
    /* Performance (game/cmd_perf.c): vanilla 1.20.3's `tick query` (level 3
     * as vanilla; its other subcommands change the tick rate, which mcserv
     * keeps at 20), and `health` (mcserv's, spark's habit). */
    LIT(0, "tick", 3, X_NONE),
    LIT(1, "query", 0, X_TICK_QUERY),
    LIT(0, "health", 2, X_HEALTH),
    /* issue 18: mcserv's pre-generation (game/pregen.h, game/cmd_pregen.c) */
    /* issue 15: mcserv's summonmany: <count> mobs in one tick at random
     * spots within <radius> blocks (game/cmd_mobs.c; the "entity explosion") */
    LIT(0, "summonmany", 2, X_NONE),
    {.depth = 1,
     .kind = CN_ARGUMENT,
     .name = "entity",
     .parser = CP_RESOURCE,
     .prop = CMD_REGISTRY_ENTITY_TYPE,
     .exec = X_NONE,
     .suggest = SUG_SUMMONABLE},
    NUM(2, "count", CP_INTEGER, BOUNDS, 1, 10000, X_NONE),
    NUM(3, "radius", CP_DOUBLE, BOUNDS, 0, 256, X_SUMMON_MANY),
    ARG(4, "pos", CP_VEC3, 0, X_SUMMON_MANY),
    ARG(5, "nbt", CP_NBT, 0, X_SUMMON_MANY),
    LIT(0, "pregen", 4, X_NONE),
    LIT(1, "status", 0, X_PREGEN_STATUS),
    LIT(1, "cancel", 0, X_PREGEN_CANCEL),
    ARG(1, "radius", CP_INTEGER, 0, X_PREGEN_START),
    ARG(2, "x", CP_INTEGER, 0, X_NONE),
    ARG(3, "z", CP_INTEGER, 0, X_PREGEN_START),
};

/* The game rules mcserv acts on (game/gamerules.h), vanilla's names,
 * types and defaults, in enum gamerule order. */
const struct gamerule_def gamerule_defs[GR_COUNT] = {
    [GR_COMMAND_MODIFICATION_BLOCK_LIMIT] = {"commandModificationBlockLimit", true, 32768},
    [GR_DO_DAYLIGHT_CYCLE] = {"doDaylightCycle", false, 1},
    [GR_DO_IMMEDIATE_RESPAWN] = {"doImmediateRespawn", false, 0},
    [GR_DO_MOB_SPAWNING] = {"doMobSpawning", false, 1},
    [GR_DO_WEATHER_CYCLE] = {"doWeatherCycle", false, 1},
    [GR_KEEP_INVENTORY] = {"keepInventory", false, 0},
    [GR_LOG_ADMIN_COMMANDS] = {"logAdminCommands", false, 1},
    [GR_MOB_EXPLOSION_DROP_DECAY] = {"mobExplosionDropDecay", false, 1},
    [GR_MOB_GRIEFING] = {"mobGriefing", false, 1},
    [GR_PLAYERS_SLEEPING_PERCENTAGE] = {"playersSleepingPercentage", true, 100}, /* issue 21 */
    [GR_RANDOM_TICK_SPEED] = {"randomTickSpeed", true, 3},                       /* issue 21 */
    [GR_REDUCED_DEBUG_INFO] = {"reducedDebugInfo", false, 0},
    [GR_SEND_COMMAND_FEEDBACK] = {"sendCommandFeedback", false, 1},
    [GR_SHOW_DEATH_MESSAGES] = {"showDeathMessages", false, 1},
    [GR_TNT_EXPLOSION_DROP_DECAY] = {"tntExplosionDropDecay", false, 0},
};

/* /gamerule <rule> (query) and /gamerule <rule> <value> (set), per rule, as
 * vanilla's GameRuleCommand builds them (a rule literal, then "value"). */
static int add_gamerules(cmd_tree *t)
{
    int root = -1;
    for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling)
        if (strcmp(t->n[c].name, "gamerule") == 0) root = c;
    for (int r = 0; r < GR_COUNT && root >= 0; r++) {
        struct cmd_spec rule = LIT(1, gamerule_defs[r].name, 0, X_GAMERULE);
        struct cmd_spec value =
            ARG(2, "value", gamerule_defs[r].is_int ? CP_INTEGER : CP_BOOL, 0, X_GAMERULE);
        int k = cmd_tree_add(t, root, &rule);
        if (k < 0 || cmd_tree_add(t, k, &value) < 0) return -1;
    }
    return root >= 0 ? 0 : -1;
}

/* The built-ins: the spec, then the rules' literals. */
static void build_builtins(cmd_tree *t)
{
    if (cmd_tree_build(t, builtin_spec, sizeof builtin_spec / sizeof builtin_spec[0]) < 0 ||
        add_gamerules(t) < 0)
        abort(); /* the static spec is wrong: a programming error */
}

/* The built-in tree, and what plugins appended (cmd_builtin_extend). */
static cmd_tree builtin_tree;
static bool builtin_built;

const cmd_tree *cmd_builtin_tree(void)
{
    if (!builtin_built) {
        build_builtins(&builtin_tree);
        builtin_built = true;
    }
    return &builtin_tree;
}

int cmd_builtin_extend(const struct cmd_spec *spec, size_t n, int *first)
{
    static cmd_tree next; /* big: built aside, so a failure leaves the tree as it was */
    build_builtins(&next);
    if (cmd_tree_append(&next, spec, n, first) < 0) return -1;
    builtin_tree = next;
    builtin_built = true;
    return 0;
}
