/*
 * cmd_plugins.c — plugins' commands in the one Brigadier tree every client
 * receives, and the `plugins` command (list, info, reload, disable, grant,
 * revoke; docs/plugins.md).
 *
 * The tree's plugin part: the `plugins` command's lines, then every
 * enabled plugin's registered paths (mc.command) merged into a trie — one
 * root literal per command, one child per literal or (name, type) argument
 * — written out depth first as a cmd_spec and appended after the built-ins
 * (cmd_builtin_extend). A node where a path ends, or where optional
 * arguments begin, is executable (exec X_PLUGINS); `execs` maps it back to
 * its plugin and path. Every rebuild re-sends Declare Commands to every
 * player (cmd_tree_changed).
 *
 *   plugins                                      list
 *   plugins info|disable <plugin>
 *   plugins reload [<plugin>]
 *   plugins grant|revoke <targets> <permission>
 *
 * Running a plugin command: the parse gives the path; arguments become Lua
 * values (players resolved with vanilla's selector rules and messages
 * before any Lua runs), the handler gets ctx = {player, source, args,
 * reply, fail} and may return text to reply with.
 *
 * Invariants:
 *  1. A root name belongs to the built-ins or to one plugin; a plugin can
 *     only add paths under its own roots (cmd_plugins_taken). A trie node's
 *     level is the lowest of the paths through it, so each path is seen
 *     and run exactly by the levels it was registered for.
 *  2. Names in the tree point into plugin records (struct plugin_cmd):
 *     the tree is rebuilt whenever records are made or freed (plugins.c
 *     does it at the safe point, before anything reads the tree).
 *  3. ctx.reply after the command ended (from a scheduled task) goes to the
 *     player if online, else to the log: a source outlives no command.
 */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/log.h"
#include "game/cmd_internal.h"
#include "game/commands.h"
#include "game/plugin_int.h"

static const struct {
    const char *name;
    int16_t parser;
    int32_t prop;
} arg_types[PA_COUNT] = {
    [PA_LITERAL] = {"literal", 0, 0},
    [PA_WORD] = {"word", CP_STRING, CMD_STRING_WORD},
    [PA_STRING] = {"string", CP_STRING, CMD_STRING_PHRASE},
    [PA_TEXT] = {"text", CP_STRING, CMD_STRING_GREEDY},
    [PA_INT] = {"int", CP_INTEGER, 0},
    [PA_NUMBER] = {"number", CP_DOUBLE, 0},
    [PA_BOOL] = {"bool", CP_BOOL, 0},
    [PA_PLAYER] = {"player", CP_ENTITY, CMD_ENTITY_SINGLE | CMD_ENTITY_PLAYERS},
    [PA_PLAYERS] = {"players", CP_ENTITY, CMD_ENTITY_PLAYERS},
    [PA_BLOCK_POS] = {"block_pos", CP_BLOCK_POS, 0},
    [PA_POSITION] = {"position", CP_VEC3, 0},
    [PA_GAMEMODE] = {"gamemode", CP_GAMEMODE, 0},
};

int cmd_plugins_type(const char *name)
{
    for (int i = 0; i < PA_COUNT; i++)
        if (strcmp(arg_types[i].name, name) == 0) return i;
    return -1;
}

/* ================================================================ the tree */

enum pl_sub { SUB_LIST, SUB_INFO, SUB_RELOAD_ALL, SUB_RELOAD, SUB_DISABLE, SUB_GRANT, SUB_REVOKE };

#define LIT(d, nm, lvl, ex)                                                                        \
    {                                                                                              \
        .depth = d, .kind = CN_LITERAL, .name = nm, .level = lvl, .exec = ex                       \
    }
#define ARG(d, nm, p, pr)                                                                          \
    {                                                                                              \
        .depth = d, .kind = CN_ARGUMENT, .name = nm, .parser = p, .prop = pr, .exec = X_PLUGINS    \
    }

static const struct cmd_spec plugins_spec[] = {
    LIT(0, "plugins", 3, X_PLUGINS),
    LIT(1, "info", 0, X_NONE),
    ARG(2, "plugin", CP_STRING, CMD_STRING_WORD),
    LIT(1, "reload", 0, X_PLUGINS),
    ARG(2, "plugin", CP_STRING, CMD_STRING_WORD),
    LIT(1, "disable", 0, X_NONE),
    ARG(2, "plugin", CP_STRING, CMD_STRING_WORD),
    LIT(1, "grant", 0, X_NONE),
    ARG(2, "targets", CP_GAME_PROFILE, 0),
    ARG(3, "permission", CP_STRING, CMD_STRING_WORD),
    LIT(1, "revoke", 0, X_NONE),
    ARG(2, "targets", CP_GAME_PROFILE, 0),
    ARG(3, "permission", CP_STRING, CMD_STRING_WORD),
};
#define PLUGINS_LINES (int)(sizeof plugins_spec / sizeof plugins_spec[0])
/* Which sub-command each executable line of plugins_spec is (-1: none). */
static const int8_t plugins_sub[PLUGINS_LINES] = {
    SUB_LIST,  -1, SUB_INFO, SUB_RELOAD_ALL, SUB_RELOAD, -1, SUB_DISABLE, -1, -1,
    SUB_GRANT, -1, -1,       SUB_REVOKE,
};

/* A trie node of the plugin commands. */
struct trie_node {
    uint8_t kind;
    const char *name;
    uint8_t type; /* enum plugin_arg_type */
    uint8_t level;
    int first, next; /* children; -1 none */
    plugin *p;       /* executable: whose, and which path */
    int cmd;
};

/* What an executable node of the tree's plugin part runs. */
struct xentry {
    plugin *p; /* NULL: the `plugins` command, sub in cmd */
    int cmd;
};

static struct trie_node tn[CMD_MAX_NODES];
static int ntn;
static struct cmd_spec spec[CMD_MAX_NODES];
static struct xentry execs[CMD_MAX_NODES];
static int nspec, ext_first = -1; /* the first node of the plugin part */
static int roots = -1;            /* the trie's first command; the others by next */

/* The child of parent (-1: a root) called name, of that type, made if
 * missing; its level lowered to `level` (invariant 1). -1 when full. */
static int child(int parent, const char *name, uint8_t type, uint8_t level)
{
    int *link = parent < 0 ? &roots : &tn[parent].first;
    for (; *link >= 0; link = &tn[*link].next) {
        struct trie_node *t = &tn[*link];
        if (t->type == type && strcmp(t->name, name) == 0) {
            if (t->level > level) t->level = level;
            return *link;
        }
    }
    if (ntn == CMD_MAX_NODES) return -1;
    tn[ntn] = (struct trie_node){
        type == PA_LITERAL ? CN_LITERAL : CN_ARGUMENT, name, type, level, -1, -1, NULL, -1};
    *link = ntn;
    return ntn++;
}

static void mark_exec(int node, plugin *p, int cmd)
{
    if (!tn[node].p) {
        tn[node].p = p;
        tn[node].cmd = cmd;
    } else if (tn[node].p != p || tn[node].cmd != cmd) {
        log_warn("[%s] /%s: a shorter path of it is another registration's; that one runs",
                 p->m.name, p->cmds[cmd].name);
    }
}

/* Adds one path; false if the tree is full. */
static bool add_path(plugin *p, int ci)
{
    const struct plugin_cmd *c = &p->cmds[ci];
    int node = child(-1, c->name, PA_LITERAL, c->level);
    if (node < 0) return false;
    for (int i = 0; i < c->nargs; i++) {
        if (c->args[i].optional) mark_exec(node, p, ci);
        if ((node = child(node, c->args[i].name, c->args[i].type, c->level)) < 0) return false;
    }
    mark_exec(node, p, ci);
    return true;
}

static void emit(int node, int depth)
{
    for (int k = node; k >= 0; k = tn[k].next) {
        if (nspec == CMD_MAX_NODES) return;
        const struct trie_node *t = &tn[k];
        execs[nspec] = (struct xentry){t->p, t->cmd};
        spec[nspec++] =
            (struct cmd_spec){.depth = (uint8_t)depth,
                              .kind = t->kind,
                              .name = t->name,
                              .parser = t->kind == CN_ARGUMENT ? arg_types[t->type].parser : 0,
                              .prop = t->kind == CN_ARGUMENT ? arg_types[t->type].prop : 0,
                              .level = t->level,
                              .exec = (uint8_t)(t->p ? X_PLUGINS : X_NONE),
                              .suggest = SUG_NONE};
        if (t->first >= 0) emit(t->first, depth + 1);
    }
}

void cmd_plugins_rebuild(bool resend)
{
    ntn = 0;
    nspec = 0;
    roots = -1;
    for (int i = 0; i < PLUGINS_LINES; i++) {
        spec[nspec] = plugins_spec[i];
        execs[nspec++] = (struct xentry){NULL, plugins_sub[i]};
    }
    for (int i = 0; i < plugin_count; i++) {
        plugin *p = plugin_list[i];
        if (p->status != PL_ENABLED) continue;
        for (int k = 0; k < p->ncmds; k++)
            if (!add_path(p, k)) {
                log_error("[%s] /%s: the command tree is full (%d nodes); not registered",
                          p->m.name, p->cmds[k].name, CMD_MAX_NODES);
                break;
            }
    }
    emit(roots, 0);
    size_t n = (size_t)nspec;
    while (cmd_builtin_extend(spec, n, &ext_first) < 0 && n > (size_t)PLUGINS_LINES) {
        /* Too many nodes: drop the last command (root line and its subtree). */
        while (n > (size_t)PLUGINS_LINES && spec[--n].depth != 0) {
        }
        log_error("plugins: the command tree is full; /%s and the commands after it are left out",
                  spec[n].name);
    }
    if (resend) cmd_tree_changed();
}

bool cmd_plugins_taken(const plugin *p, const char *name)
{
    if (strcmp(name, "plugins") == 0) return true;
    const cmd_tree *t = cmd_builtin_tree();
    for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling)
        if ((ext_first < 0 || c < ext_first) && strcmp(t->n[c].name, name) == 0) return true;
    for (int i = 0; i < plugin_count; i++) {
        const plugin *o = plugin_list[i];
        if (o == p || o->status != PL_ENABLED) continue;
        for (int k = 0; k < o->ncmds; k++)
            if (strcmp(o->cmds[k].name, name) == 0) return true;
    }
    return false;
}

/* ============================================================== feedback */

static void send_plain(cmd_ctx *x, const char *text, const char *color)
{
    buf_t j, plain;
    buf_init(&j, 1u << 16);
    buf_init(&plain, 1u << 16);
    buf_lit(&j, "{");
    if (color) {
        buf_lit(&j, "\"color\":");
        json_append_string(&j, color, strlen(color));
        buf_lit(&j, ",");
    }
    buf_lit(&j, "\"text\":");
    json_append_string(&j, text, strlen(text));
    buf_lit(&j, "}");
    buf_append(&plain, text, strlen(text));
    cmd_send_json(x->src, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

/* ===================================================== running a command */

static uint64_t live_serial;
static cmd_ctx *live_ctx; /* the command running now (invariant 3) */

/* ctx.reply(text) / ctx:reply(text), ctx.fail(text). */
static int ctx_say(lua_State *L, bool fail)
{
    int idx = lua_type(L, 1) == LUA_TTABLE && lua_gettop(L) >= 2 ? 2 : 1;
    static buf_t j;
    plugin_api_text(L, idx, &j);
    if (fail) { /* red, around whatever the text is */
        static buf_t red;
        if (!red.limit) buf_init(&red, (64u << 10));
        buf_reset(&red);
        buf_lit(&red, "{\"text\":\"\",\"color\":\"red\",\"extra\":[");
        buf_append(&red, j.data, j.len);
        buf_lit(&red, "]}");
        buf_reset(&j);
        buf_append(&j, red.data, red.len);
    }
    size_t n;
    const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &n) : NULL;
    buf_t plain = {(uint8_t *)(s ? s : "(a text component)"), 0, 0, 0, 0};
    plain.len = s ? n : strlen((const char *)plain.data);
    if ((uint64_t)lua_tointeger(L, lua_upvalueindex(1)) == live_serial && live_ctx) {
        cmd_send_json(live_ctx->src, &j, &plain);
        return 0;
    }
    conn *c = NULL;
    if (!lua_isnil(L, lua_upvalueindex(2))) {
        lua_getfield(L, lua_upvalueindex(2), "name");
        c = plugin_player_lookup(lua_tostring(L, -1));
    }
    if (c)
        chat_send(c, (const char *)j.data, j.len);
    else
        log_info("[%s] %.*s", plugin_of(L)->m.name, (int)plain.len, (const char *)plain.data);
    return 0;
}

static int ctx_reply(lua_State *L)
{
    return ctx_say(L, false);
}

static int ctx_fail(lua_State *L)
{
    return ctx_say(L, true);
}

/* A coordinate argument against the source (vanilla WorldCoordinates and
 * LocalCoordinates: ^left ^up ^forwards from the source's rotation). */
static void abs_coords(const struct cmd_source *s, const struct cmd_coords *c, bool block,
                       double out[3])
{
    const double pos[3] = {s->x, s->y, s->z};
    if (c->local) {
        double yaw = (s->yaw + 90.0) * M_PI / 180.0, pitch = -s->pitch * M_PI / 180.0;
        double fw[3] = {cos(yaw) * cos(pitch), sin(pitch), sin(yaw) * cos(pitch)};
        double up[3] = {cos(yaw) * cos(pitch + M_PI / 2), sin(pitch + M_PI / 2),
                        sin(yaw) * cos(pitch + M_PI / 2)};
        double left[3] = {fw[2] * up[1] - fw[1] * up[2], fw[0] * up[2] - fw[2] * up[0],
                          fw[1] * up[0] - fw[0] * up[1]};
        for (int i = 0; i < 3; i++)
            out[i] = pos[i] + left[i] * c->v[0] + up[i] * c->v[1] + fw[i] * c->v[2];
    } else {
        for (int i = 0; i < 3; i++) out[i] = (c->rel >> i & 1) ? pos[i] + c->v[i] : c->v[i];
    }
    if (block)
        for (int i = 0; i < 3; i++) out[i] = floor(out[i]);
}

/* Players of the player/players arguments, resolved before Lua runs. */
static struct {
    conn *c[CMD_MAX_TARGETS];
    size_t n;
} resolved[PLUGIN_CMD_ARGS_MAX];

struct exec_arg {
    cmd_ctx *x;
    const struct plugin_cmd *cmd;
    bool failed;
};

/* A quoted phrase argument ("a b" or 'a b', \ escapes) without its quotes. */
static void push_phrase(lua_State *L, const char *s, size_t n)
{
    if (n < 2 || (s[0] != '"' && s[0] != '\'')) {
        lua_pushlstring(L, s, n);
        return;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 1; i + 1 < n; i++) {
        if (s[i] == '\\' && i + 2 < n) i++;
        luaL_addchar(&b, s[i]);
    }
    luaL_pushresult(&b);
}

static void push_value(lua_State *L, cmd_ctx *x, const struct plugin_arg *a, int ai,
                       const struct cmd_value *v)
{
    const char *text = x->ps->line + v->start;
    size_t n = v->end - v->start;
    switch (a->type) {
    case PA_WORD:
    case PA_TEXT: lua_pushlstring(L, text, n); break;
    case PA_STRING: push_phrase(L, text, n); break;
    case PA_INT: lua_pushinteger(L, v->u.i); break;
    case PA_NUMBER: lua_pushnumber(L, v->u.d); break;
    case PA_BOOL: lua_pushboolean(L, v->u.b); break;
    case PA_GAMEMODE: lua_pushstring(L, cmd_gamemode_names[v->u.gamemode & 3]); break;
    case PA_PLAYER:
        if (resolved[ai].n && !resolved[ai].c[0]->closed)
            plugin_push_player(L, resolved[ai].c[0]);
        else
            lua_pushnil(L);
        break;
    case PA_PLAYERS: {
        lua_createtable(L, (int)resolved[ai].n, 0);
        int k = 0;
        for (size_t i = 0; i < resolved[ai].n; i++) {
            if (resolved[ai].c[i]->closed) continue;
            plugin_push_player(L, resolved[ai].c[i]);
            lua_rawseti(L, -2, ++k);
        }
        break;
    }
    case PA_BLOCK_POS:
    case PA_POSITION: {
        double xyz[3];
        abs_coords(x->src, &v->u.pos, a->type == PA_BLOCK_POS, xyz);
        lua_createtable(L, 0, 3);
        static const char *const k[3] = {"x", "y", "z"};
        for (int i = 0; i < 3; i++) {
            if (a->type == PA_BLOCK_POS)
                lua_pushinteger(L, (lua_Integer)xyz[i]);
            else
                lua_pushnumber(L, xyz[i]);
            lua_setfield(L, -2, k[i]);
        }
        break;
    }
    default: lua_pushnil(L); break;
    }
}

static int run_cmd(lua_State *L, void *arg)
{
    struct exec_arg *e = arg;
    cmd_ctx *x = e->x;
    char what[48];
    snprintf(what, sizeof what, "command /%s", e->cmd->name);
    lua_rawgeti(L, LUA_REGISTRYINDEX, e->cmd->ref);
    lua_createtable(L, 0, 5);
    int ctx = lua_gettop(L);
    if (x->src->c) {
        plugin_push_player(L, x->src->c);
        lua_setfield(L, ctx, "player");
    }
    lua_pushstring(L, x->src->name);
    lua_setfield(L, ctx, "source");
    for (int i = 0; i < 2; i++) {
        lua_pushinteger(L, (lua_Integer)live_serial);
        lua_getfield(L, ctx, "player"); /* nil for the console */
        lua_pushcclosure(L, i ? ctx_fail : ctx_reply, 2);
        lua_setfield(L, ctx, i ? "fail" : "reply");
    }
    lua_createtable(L, 0, e->cmd->nargs);
    for (int i = 0; i < e->cmd->nargs; i++) {
        const struct plugin_arg *a = &e->cmd->args[i];
        const struct cmd_value *v = a->type == PA_LITERAL ? NULL : cmd_arg(x->ps, a->name);
        if (!v) continue;
        push_value(L, x, a, i, v);
        lua_setfield(L, -2, a->name);
    }
    lua_setfield(L, ctx, "args");
    e->failed = plugin_call(L, 1, 1, what) < 0;
    if (!e->failed && lua_type(L, -1) == LUA_TSTRING) { /* a returned string is the reply */
        lua_pushinteger(L, (lua_Integer)live_serial);
        lua_pushnil(L);
        lua_pushcclosure(L, ctx_reply, 2);
        lua_insert(L, -2);
        lua_call(L, 1, 0);
    }
    return 0;
}

static void run_plugin_command(cmd_ctx *x, plugin *p, const struct plugin_cmd *cmd)
{
    if (p->status != PL_ENABLED) {
        char m[96];
        snprintf(m, sizeof m, "The plugin %s is disabled", p->m.name);
        send_plain(x, m, "red");
        return;
    }
    for (int i = 0; i < cmd->nargs; i++) {
        resolved[i].n = 0;
        const struct plugin_arg *a = &cmd->args[i];
        if (a->type != PA_PLAYER && a->type != PA_PLAYERS) continue;
        const struct cmd_value *v = cmd_arg(x->ps, a->name);
        if (!v) continue;
        if (cmd_resolve(x, &v->u.sel, true, &cmd_targets_a) < 0) return; /* vanilla's error sent */
        memcpy(resolved[i].c, cmd_targets_a.c, cmd_targets_a.n * sizeof cmd_targets_a.c[0]);
        resolved[i].n = cmd_targets_a.n;
    }
    struct exec_arg e = {x, cmd, false};
    cmd_ctx *outer = live_ctx;
    live_ctx = x;
    live_serial++;
    char what[48];
    snprintf(what, sizeof what, "command /%s", cmd->name);
    if (plugin_run(p, run_cmd, &e, what) < 0 || e.failed) cmd_failure0(x, "command.failed");
    live_ctx = outer;
    live_serial++;
}

/* ===================================================== the plugins command */

static const char *status_name(const plugin *p)
{
    return p->status == PL_ENABLED ? "enabled" : p->status == PL_DISABLED ? "disabled" : "failed";
}

static void ex_list(cmd_ctx *x)
{
    buf_t j, plain;
    buf_init(&j, 1u << 16);
    buf_init(&plain, 1u << 16);
    char head[48];
    snprintf(head, sizeof head, "Plugins (%d): ", plugin_count);
    buf_lit(&j, "{\"text\":");
    json_append_string(&j, head, strlen(head));
    buf_lit(&j, ",\"extra\":[");
    buf_append(&plain, head, strlen(head));
    for (int i = 0; i < plugin_count; i++) {
        const plugin *p = plugin_list[i];
        const char *tail = p->status == PL_ENABLED    ? ""
                           : p->status == PL_DISABLED ? " (disabled)"
                                                      : " (failed)";
        char item[64];
        snprintf(item, sizeof item, "%s%s%s", p->m.name, tail, i + 1 < plugin_count ? ", " : "");
        if (i) buf_lit(&j, ",");
        buf_lit(&j, "{\"color\":");
        buf_append(&j, p->status == PL_ENABLED ? "\"green\"" : "\"red\"",
                   p->status == PL_ENABLED ? 7 : 5);
        buf_lit(&j, ",\"text\":");
        json_append_string(&j, item, strlen(item));
        buf_lit(&j, "}");
        buf_append(&plain, item, strlen(item));
    }
    if (!plugin_count) {
        buf_lit(&j, "{\"text\":\"none; put them in plugins/<name>/init.lua\"}");
        buf_lit(&plain, "none; put them in plugins/<name>/init.lua");
    }
    buf_lit(&j, "]}");
    cmd_send_json(x->src, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

static plugin *named_plugin(cmd_ctx *x)
{
    const struct cmd_value *v = cmd_arg(x->ps, "plugin");
    char name[PLUGIN_NAME_MAX + 1];
    snprintf(name, sizeof name, "%.*s", (int)(v->end - v->start), x->ps->line + v->start);
    plugin *p = plugin_find(name);
    if (!p) {
        char m[96];
        snprintf(m, sizeof m, "There is no plugin %s (see /plugins)", name);
        send_plain(x, m, "red");
    }
    return p;
}

static void ex_info(cmd_ctx *x)
{
    const plugin *p = named_plugin(x);
    if (!p) return;
    char line[512];
    snprintf(line, sizeof line, "%s%s%s (%s)%s%s", p->m.name, p->m.version[0] ? " " : "",
             p->m.version, status_name(p), p->m.description[0] ? ": " : "", p->m.description);
    send_plain(x, line, NULL);
    if (p->why[0]) {
        snprintf(line, sizeof line, "Why: %s", p->why);
        send_plain(x, line, "red");
    }
    snprintf(line, sizeof line,
             "Memory %.1f MiB of %d MiB (peak %.1f); %llu handler calls, %.2f us each; %llu "
             "errors; %d tasks",
             p->mem_used / 1048576.0, p->m.memory_mb, p->mem_peak / 1048576.0,
             (unsigned long long)p->calls, p->calls ? p->call_ns / 1000.0 / (double)p->calls : 0.0,
             (unsigned long long)p->errors, p->ntasks);
    send_plain(x, line, NULL);
    int n = snprintf(line, sizeof line, "Commands:");
    for (int i = 0; i < p->ncmds && n < (int)sizeof line - 40; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, "%s /%s", i ? "," : "", p->cmds[i].name);
    if (!p->ncmds) snprintf(line + n, sizeof line - (size_t)n, " none");
    send_plain(x, line, NULL);
    uint64_t moves;
    int64_t move_ns;
    plugin_move_stats(&moves, &move_ns);
    snprintf(line, sizeof line, "Move events (all plugins): %llu, %.2f us each in the tick",
             (unsigned long long)moves, moves ? (double)move_ns / 1000.0 / (double)moves : 0.0);
    send_plain(x, line, NULL);
}

static void ex_reload(cmd_ctx *x, bool one)
{
    char name[PLUGIN_NAME_MAX + 2] = "", msg[160];
    if (one) {
        const struct cmd_value *v = cmd_arg(x->ps, "plugin");
        snprintf(name, sizeof name, "%.*s", (int)(v->end - v->start), x->ps->line + v->start);
    }
    int rc =
        plugins_request_reload(one ? name : NULL, x->src->c ? x->src->c->id : 0, msg, sizeof msg);
    if (rc < 0) {
        send_plain(x, msg, "red");
        return;
    }
    chat_arg a = chat_text(msg);
    cmd_success(x, true, "%s", &a, 1);
}

static void ex_disable(cmd_ctx *x)
{
    plugin *p = named_plugin(x);
    if (!p) return;
    char msg[160];
    int rc = plugins_request_disable(p->m.name, msg, sizeof msg);
    if (rc < 0) {
        send_plain(x, msg, "red");
        return;
    }
    chat_arg a = chat_text(msg);
    cmd_success(x, true, "%s", &a, 1);
}

static void ex_grant(cmd_ctx *x, bool grant)
{
    static struct cmd_profile prof[64];
    size_t n;
    if (cmd_resolve_profiles(x, true, prof, &n, 64) < 0) return;
    const struct cmd_value *v = cmd_arg(x->ps, "permission");
    char node[80];
    snprintf(node, sizeof node, "%.*s", (int)(v->end - v->start), x->ps->line + v->start);
    for (size_t i = 0; i < n; i++) {
        int rc = plugin_permission_set(&prof[i].uuid, prof[i].name, node, grant);
        char msg[200];
        if (rc < 0)
            snprintf(msg, sizeof msg, "Out of memory");
        else if (rc == 0)
            snprintf(msg, sizeof msg, "Nothing changed. %s %s %s", prof[i].name,
                     grant ? "already has" : "was not granted", node);
        else
            snprintf(msg, sizeof msg, "%s %s %s %s", grant ? "Granted" : "Revoked", node,
                     grant ? "to" : "from", prof[i].name);
        if (rc <= 0) {
            send_plain(x, msg, "red");
            continue;
        }
        chat_arg a = chat_text(msg);
        cmd_success(x, true, "%s", &a, 1);
    }
}

void cmd_plugins_exec(cmd_ctx *x)
{
    const cmd_tree *t = cmd_builtin_tree();
    int node = (int)(x->ps->exec - t->n);
    if (ext_first < 0 || node < ext_first || node - ext_first >= nspec) {
        cmd_failure0(x, "command.failed");
        return;
    }
    const struct xentry *e = &execs[node - ext_first];
    if (e->p) {
        run_plugin_command(x, e->p, &e->p->cmds[e->cmd]);
        return;
    }
    switch (e->cmd) {
    case SUB_LIST: ex_list(x); break;
    case SUB_INFO: ex_info(x); break;
    case SUB_RELOAD_ALL: ex_reload(x, false); break;
    case SUB_RELOAD: ex_reload(x, true); break;
    case SUB_DISABLE: ex_disable(x); break;
    case SUB_GRANT: ex_grant(x, true); break;
    case SUB_REVOKE: ex_grant(x, false); break;
    default: cmd_failure0(x, "command.failed"); break;
    }
}
