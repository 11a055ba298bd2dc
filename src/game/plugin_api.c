/*
 * plugin_api.c — what a plugin's Lua code can reach (docs/plugins.md lists
 * every function): the `mc` table (events, commands, permissions,
 * scheduling, players, messages, logs; the world's functions are
 * game/plugin_world.c), the `plugin` table (its name, config and storage),
 * player objects, and setting a new state up (the standard library is
 * game/plugin_sandbox.c).
 *
 * Player objects are full userdata holding the connection id, the UUID and
 * the name, one per player per state (cached in the registry table
 * p->players_ref). Methods look the connection up by id each time, so an
 * object kept after its player left is safe: its name and uuid still read,
 * `online` is false, and methods that act on the player raise
 * "<name> is offline".
 *
 * Invariants:
 *  1. Every value from Lua is checked before it reaches the game: numbers
 *     finite and inside the world, text within TEXT_MAX, names and levels
 *     in range, tasks and handlers and commands within their caps.
 *  2. A function that allocates C memory does all that may raise a Lua
 *     error first (or builds into a module buffer), so a Lua error never
 *     leaks C memory.
 *  3. Titles are written in protocol 763's layout (JSON text), like the
 *     packets net/login.c writes inline; action bar, tab list, chat and
 *     kicks go through the connection's protocol table.
 *  4. Storage values are JSON (plugin_json.c): at most STORE_VALUE bytes
 *     each, PLUGIN_STORE_MAX in all; keys 1..STORE_KEY bytes of UTF-8.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/log.h"
#include "data/block_table.h"
#include "data/packet_ids.h"
#include "game/chat.h"
#include "game/cmd_parser.h"
#include "game/entities.h"
#include "game/play.h"
#include "game/plugin_int.h"
#include "proto/packets.h"

#define PLAYER_MT   "mc.player"
#define TASK_MT     "mc.task"
#define TEXT_MAX    (32u << 10) /* bytes of JSON text sent to a player */
#define STORE_KEY   256         /* bytes of a storage key */
#define STORE_VALUE (1u << 20)  /* bytes of one stored value as JSON */
#define MAX_COORD   3.0e7
#define MAX_Y_COORD 2.0e7
#define MAX_TICKS   (1 << 30)

struct pl_ref {
    uint32_t id;
    mc_uuid uuid;
    char name[PLAYER_NAME_MAX + 1];
};

static buf_t text_buf, text_buf2; /* invariant 2: built here, never leaked */

/* ================================================================== text */

void plugin_api_text(lua_State *L, int idx, buf_t *out)
{
    idx = lua_absindex(L, idx);
    if (!out->limit) buf_init(out, TEXT_MAX + 64);
    buf_reset(out);
    if (lua_type(L, idx) == LUA_TSTRING || lua_type(L, idx) == LUA_TNUMBER) {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        buf_lit(out, "{\"text\":");
        json_append_string(out, s, n);
        buf_lit(out, "}");
    } else if (lua_type(L, idx) == LUA_TTABLE) {
        char err[160];
        json_t *j = plugin_to_json(L, idx, err, sizeof err);
        if (!j) luaL_error(L, "text component: %s", err);
        size_t need = json_dumpb(j, NULL, 0, JSON_COMPACT);
        uint8_t *dst = need <= TEXT_MAX ? buf_reserve(out, need) : NULL;
        if (dst) out->len += json_dumpb(j, (char *)dst, need, JSON_COMPACT);
        json_decref(j);
    } else {
        luaL_error(L, "text: a string or a text component table expected, got %s",
                   luaL_typename(L, idx));
    }
    if (out->failed || out->len > TEXT_MAX)
        luaL_error(L, "text longer than %u bytes as JSON", TEXT_MAX);
}

/* A JSON text given as a string: checked to parse. */
static void json_text_arg(lua_State *L, int idx, buf_t *out)
{
    size_t n;
    const char *s = luaL_checklstring(L, idx, &n);
    json_error_t je;
    json_t *j = n <= TEXT_MAX ? json_loadb(s, n, JSON_DECODE_ANY, &je) : NULL;
    if (!j) luaL_error(L, "not JSON text: %s", n > TEXT_MAX ? "too long" : je.text);
    json_decref(j);
    if (!out->limit) buf_init(out, TEXT_MAX + 64);
    buf_reset(out);
    buf_append(out, s, n);
}

/* ================================================================ players */

void plugin_push_player(lua_State *L, conn *c)
{
    plugin *p = plugin_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->players_ref);
    if (lua_rawgeti(L, -1, c->id) == LUA_TNIL) {
        lua_pop(L, 1);
        struct pl_ref *r = lua_newuserdatauv(L, sizeof *r, 0);
        r->id = c->id;
        r->uuid = c->player->uuid;
        snprintf(r->name, sizeof r->name, "%s", c->player->name);
        luaL_setmetatable(L, PLAYER_MT);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, c->id);
    }
    lua_remove(L, -2);
}

void plugin_forget_player(lua_State *L, uint32_t id)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, plugin_of(L)->players_ref);
    lua_pushnil(L);
    lua_rawseti(L, -2, id);
    lua_pop(L, 1);
}

static struct pl_ref *check_player(lua_State *L, int idx)
{
    return luaL_checkudata(L, idx, PLAYER_MT);
}

/* The player's connection, or a Lua error if it left. */
static conn *live(lua_State *L, int idx)
{
    struct pl_ref *r = check_player(L, idx);
    conn *c = plugin_player_conn(r->id);
    if (!c || c->closed) luaL_error(L, "%s is offline", r->name);
    return c;
}

static int gamemode_arg(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Integer g = luaL_checkinteger(L, idx);
        if (g >= 0 && g <= 3) return (int)g;
    } else {
        const char *s = luaL_checkstring(L, idx);
        for (int i = 0; i < 4; i++)
            if (strcmp(s, cmd_gamemode_names[i]) == 0) return i;
    }
    return luaL_error(L, "game mode: survival, creative, adventure or spectator (or 0-3)");
}

static double coord_arg(lua_State *L, int idx, double max)
{
    double v = luaL_checknumber(L, idx);
    if (!isfinite(v) || fabs(v) > max) luaL_error(L, "coordinate #%d out of the world", idx);
    return v;
}

static int p_send(lua_State *L)
{
    conn *c = live(L, 1);
    plugin_api_text(L, 2, &text_buf);
    chat_send(c, (const char *)text_buf.data, text_buf.len);
    return 0;
}

static int p_send_json(lua_State *L)
{
    conn *c = live(L, 1);
    json_text_arg(L, 2, &text_buf);
    chat_send(c, (const char *)text_buf.data, text_buf.len);
    return 0;
}

static int p_action_bar(lua_State *L)
{
    conn *c = live(L, 1);
    plugin_api_text(L, 2, &text_buf);
    buf_reset(&srv->pkt);
    c->proto->cb_system_chat(&srv->pkt, (const char *)text_buf.data, text_buf.len, true);
    conn_send_pkt(c);
    return 0;
}

static void send_title_packet(conn *c, int32_t id, const buf_t *json)
{
    buf_t *b = pkt_begin(id);
    wr_string(b, (const char *)json->data, json->len);
    conn_send_pkt(c);
}

/* p:title(title [, subtitle [, fade_in, stay, fade_out]]) (ticks; vanilla 10, 70, 20). */
static int p_title(lua_State *L)
{
    conn *c = live(L, 1);
    plugin_api_text(L, 2, &text_buf);
    bool sub = !lua_isnoneornil(L, 3);
    if (sub) plugin_api_text(L, 3, &text_buf2);
    int32_t t[3];
    for (int i = 0; i < 3; i++) {
        lua_Integer v = luaL_optinteger(L, 4 + i, i == 0 ? 10 : i == 1 ? 70 : 20);
        if (v < 0 || v > 72000) return luaL_error(L, "title: times are 0..72000 ticks");
        t[i] = (int32_t)v;
    }
    if (c->proto->version != 763) return 0; /* invariant 3 */
    buf_t *b = pkt_begin(PKT_PLAY_CB_SET_TITLE_TIME);
    for (int i = 0; i < 3; i++) wr_i32(b, t[i]);
    conn_send_pkt(c);
    if (sub) send_title_packet(c, PKT_PLAY_CB_SET_TITLE_SUBTITLE, &text_buf2);
    send_title_packet(c, PKT_PLAY_CB_SET_TITLE_TEXT, &text_buf);
    return 0;
}

static int p_tab_list(lua_State *L)
{
    conn *c = live(L, 1);
    plugin_api_text(L, 2, &text_buf);
    plugin_api_text(L, 3, &text_buf2);
    buf_reset(&srv->pkt);
    c->proto->cb_playerlist_header(&srv->pkt, (const char *)text_buf.data, text_buf.len,
                                   (const char *)text_buf2.data, text_buf2.len);
    conn_send_pkt(c);
    return 0;
}

static int p_teleport(lua_State *L)
{
    conn *c = live(L, 1);
    double x = coord_arg(L, 2, MAX_COORD), y = coord_arg(L, 3, MAX_Y_COORD),
           z = coord_arg(L, 4, MAX_COORD);
    double yaw = luaL_optnumber(L, 5, c->player->yaw),
           pitch = luaL_optnumber(L, 6, c->player->pitch);
    if (!isfinite(yaw) || !isfinite(pitch)) return luaL_error(L, "teleport: bad angle");
    yaw = fmod(yaw, 360.0);
    if (yaw >= 180) yaw -= 360;
    if (yaw < -180) yaw += 360;
    pitch = pitch < -90 ? -90 : pitch > 90 ? 90 : pitch;
    ent_teleport(c, x, y, z, (float)yaw, (float)pitch);
    plugin_player_teleported(c);
    return 0;
}

static int p_set_gamemode(lua_State *L)
{
    conn *c = live(L, 1);
    int gm = gamemode_arg(L, 2);
    if (gm != c->player->gamemode) ent_set_gamemode(c, gm);
    return 0;
}

static int p_kick(lua_State *L)
{
    conn *c = live(L, 1);
    const char *plain = "Kicked by a plugin";
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_pushstring(L, plain);
    }
    plugin_api_text(L, 2, &text_buf);
    if (lua_type(L, 2) == LUA_TSTRING) plain = lua_tostring(L, 2);
    buf_append(&text_buf, "", 1);
    if (text_buf.failed) return luaL_error(L, "kick: reason too long");
    char logged[256];
    snprintf(logged, sizeof logged, "%.200s (by plugin %s)", plain, plugin_of(L)->m.name);
    conn_kick_reason(c, KR_KICKED, (const char *)text_buf.data, logged);
    return 0;
}

static int p_has_permission(lua_State *L)
{
    conn *c = live(L, 1);
    lua_pushboolean(L, plugin_permission(c->player, luaL_checkstring(L, 2)));
    return 1;
}

static int p_pos(lua_State *L)
{
    const player *p = live(L, 1)->player;
    lua_pushnumber(L, p->x);
    lua_pushnumber(L, p->y);
    lua_pushnumber(L, p->z);
    lua_pushnumber(L, p->yaw);
    lua_pushnumber(L, p->pitch);
    return 5;
}

static int p_index(lua_State *L)
{
    struct pl_ref *r = check_player(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; /* a method */
    const char *k = lua_tostring(L, 2);
    if (!k) return 0;
    if (strcmp(k, "name") == 0) {
        lua_pushstring(L, r->name);
        return 1;
    }
    if (strcmp(k, "uuid") == 0) {
        char id[37];
        uuid_format(&r->uuid, id);
        lua_pushstring(L, id);
        return 1;
    }
    conn *c = plugin_player_conn(r->id);
    if (strcmp(k, "online") == 0) {
        lua_pushboolean(L, c && !c->closed);
        return 1;
    }
    if (!c) return 0;
    const player *p = c->player;
    static const char *const num_keys[] = {"x", "y", "z", "yaw", "pitch", "health"};
    const double nums[] = {p->x, p->y, p->z, p->yaw, p->pitch, p->health};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (strcmp(k, num_keys[i]) != 0) continue;
        lua_pushnumber(L, nums[i]);
        return 1;
    }
    if (strcmp(k, "gamemode") == 0)
        lua_pushstring(L, cmd_gamemode_names[p->gamemode & 3]);
    else if (strcmp(k, "level") == 0)
        lua_pushinteger(L, p->op_level);
    else if (strcmp(k, "address") == 0)
        lua_pushstring(L, c->ip);
    else if (strcmp(k, "entity_id") == 0)
        lua_pushinteger(L, p->entity_id);
    else
        return 0;
    return 1;
}

static int p_tostring(lua_State *L)
{
    lua_pushfstring(L, "player %s", check_player(L, 1)->name);
    return 1;
}

/* ============================================================ players, chat */

static int mc_players(lua_State *L)
{
    lua_createtable(L, (int)game.player_count, 0);
    int n = 0;
    for (size_t i = 0; i < game.player_count; i++) {
        conn *c = game.players[i];
        if (!plugin_player_conn(c->id)) continue;
        plugin_push_player(L, c);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

static int mc_player(lua_State *L)
{
    conn *c = plugin_player_lookup(luaL_checkstring(L, 1));
    if (!c) return 0;
    plugin_push_player(L, c);
    return 1;
}

static int mc_broadcast(lua_State *L)
{
    plugin_api_text(L, 1, &text_buf);
    chat_broadcast((const char *)text_buf.data, text_buf.len, false);
    return 0;
}

static int mc_broadcast_json(lua_State *L)
{
    json_text_arg(L, 1, &text_buf);
    chat_broadcast((const char *)text_buf.data, text_buf.len, false);
    return 0;
}

/* ================================================================ events */

static const char *const event_names[PEV_COUNT] = {
    "prelogin",    "join",     "leave", "chat", "command", "move", "block_break",
    "block_place", "interact", "death", "tick", "start",   "stop",
};

static int mc_on(lua_State *L)
{
    plugin *p = plugin_of(L);
    const char *name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    int e = -1;
    for (int i = 0; i < PEV_COUNT; i++)
        if (strcmp(name, event_names[i]) == 0) e = i;
    if (e < 0 && (strcmp(name, "damage") == 0 || strcmp(name, "entity_spawn") == 0)) {
        log_info("[%s] a %s handler is registered; mcserv raises no %s events yet (no %s)",
                 p->m.name, name, name, name[0] == 'd' ? "damage" : "mobs");
        lua_pushinteger(L, 0);
        return 1;
    }
    if (e < 0) return luaL_error(L, "mc.on: no event called %s", name);
    if (p->nhandlers[e] == PLUGIN_HANDLERS_MAX)
        return luaL_error(L, "mc.on: at most %d %s handlers", PLUGIN_HANDLERS_MAX, name);
    lua_settop(L, 2);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    p->handlers[e][p->nhandlers[e]++] = ref;
    if (plugin_find(p->m.name) == p) plugin_update_wanted();
    lua_pushinteger(L, ref);
    return 1;
}

static int mc_off(lua_State *L)
{
    plugin *p = plugin_of(L);
    lua_Integer ref = luaL_checkinteger(L, 1);
    for (int e = 0; e < PEV_COUNT; e++)
        for (int i = 0; i < p->nhandlers[e]; i++) {
            if (p->handlers[e][i] != ref) continue;
            memmove(&p->handlers[e][i], &p->handlers[e][i + 1],
                    (size_t)(p->nhandlers[e] - i - 1) * sizeof p->handlers[e][0]);
            p->nhandlers[e]--;
            luaL_unref(L, LUA_REGISTRYINDEX, (int)ref);
            plugin_update_wanted();
            lua_pushboolean(L, 1);
            return 1;
        }
    lua_pushboolean(L, 0);
    return 1;
}

static int ev_cancel(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushboolean(L, lua_isnoneornil(L, 2) || lua_toboolean(L, 2));
    lua_setfield(L, 1, "cancelled");
    return 0;
}

static int ev_refuse(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *why = luaL_optstring(L, 2, "You are not allowed to join this server");
    lua_pushstring(L, why);
    lua_setfield(L, 1, "refused");
    return 0;
}

/* ============================================================== commands */

static bool cmd_name_ok(const char *s, size_t n, bool dots)
{
    if (n == 0 || n > 32) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
              s[i] == '-' || (dots && (s[i] == '.' || (s[i] >= 'A' && s[i] <= 'Z')))))
            return false;
    return true;
}

/* A string field of the table at t (NULL when absent), at most cap bytes. */
static const char *opt_field(lua_State *L, int t, const char *k, size_t cap)
{
    if (lua_getfield(L, t, k) == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    if (!s || lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "mc.command: %s must be a string", k);
    if (n > cap) luaL_error(L, "mc.command: %s is longer than %d bytes", k, (int)cap);
    lua_pop(L, 1); /* the spec table keeps it alive */
    return s;
}

/* One entry of spec.args at the top: "literal", {name, type, optional=}. */
static void parse_arg(lua_State *L, struct plugin_arg *a, int i)
{
    int t = lua_gettop(L);
    if (lua_type(L, t) == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(L, t, &n);
        if (!cmd_name_ok(s, n, false)) luaL_error(L, "mc.command: args[%d]: bad literal %s", i, s);
        snprintf(a->name, sizeof a->name, "%s", s);
        a->type = PA_LITERAL;
        return;
    }
    if (lua_type(L, t) != LUA_TTABLE)
        luaL_error(L, "mc.command: args[%d] must be a literal string or {name, type}", i);
    lua_rawgeti(L, t, 1);
    lua_rawgeti(L, t, 2);
    const char *name = lua_tostring(L, -2) ? lua_tostring(L, -2) : opt_field(L, t, "name", 32);
    const char *type = lua_tostring(L, -1) ? lua_tostring(L, -1) : opt_field(L, t, "type", 32);
    if (!name || !cmd_name_ok(name, strlen(name), false))
        luaL_error(L, "mc.command: args[%d] needs a name of a-z 0-9 _ -", i);
    int ty = type ? cmd_plugins_type(type) : -1;
    if (ty < 0)
        luaL_error(L, "mc.command: args[%d] (%s): unknown type %s", i, name,
                   type ? type : "(none)");
    snprintf(a->name, sizeof a->name, "%s", name);
    a->type = (uint8_t)ty;
    lua_getfield(L, t, "optional");
    a->optional = lua_toboolean(L, -1);
    lua_settop(L, t);
}

static bool same_path(const struct plugin_cmd *a, const struct plugin_cmd *b)
{
    if (strcmp(a->name, b->name) != 0 || a->nargs != b->nargs) return false;
    for (int i = 0; i < a->nargs; i++)
        if (a->args[i].type != b->args[i].type ||
            (a->args[i].type == PA_LITERAL && strcmp(a->args[i].name, b->args[i].name) != 0))
            return false;
    return true;
}

static int mc_command(lua_State *L)
{
    plugin *p = plugin_of(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    struct plugin_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    const char *name = opt_field(L, 1, "name", 32), *desc = opt_field(L, 1, "description", 127);
    if (!name || !cmd_name_ok(name, strlen(name), false))
        return luaL_error(L, "mc.command: name must be 1 to 32 of a-z 0-9 _ -");
    snprintf(cmd.name, sizeof cmd.name, "%s", name);
    snprintf(cmd.description, sizeof cmd.description, "%s", desc ? desc : "");
    lua_getfield(L, 1, "level");
    lua_Integer level = luaL_optinteger(L, -1, 0);
    if (level < 0 || level > 4) return luaL_error(L, "mc.command: level is 0..4");
    cmd.level = (uint8_t)level;
    if (lua_getfield(L, 1, "args") == LUA_TTABLE) {
        int t = lua_gettop(L);
        int n = (int)lua_rawlen(L, t);
        if (n > PLUGIN_CMD_ARGS_MAX)
            return luaL_error(L, "mc.command: at most %d args", PLUGIN_CMD_ARGS_MAX);
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, t, i + 1);
            parse_arg(L, &cmd.args[i], i + 1);
            lua_pop(L, 1);
            const struct plugin_arg *a = &cmd.args[i];
            if (i > 0 && cmd.args[i - 1].optional && !a->optional)
                return luaL_error(L, "mc.command: args[%d] follows an optional one", i + 1);
            if (i > 0 && cmd.args[i - 1].type == PA_TEXT)
                return luaL_error(L, "mc.command: a text argument must be the last");
            if (a->type == PA_LITERAL && a->optional)
                return luaL_error(L, "mc.command: a literal cannot be optional");
            for (int k = 0; k < i; k++)
                if (cmd.args[k].type != PA_LITERAL && a->type != PA_LITERAL &&
                    strcmp(cmd.args[k].name, a->name) == 0)
                    return luaL_error(L, "mc.command: two args called %s", a->name);
        }
        cmd.nargs = n;
    }
    lua_settop(L, 1);
    if (lua_getfield(L, 1, "run") != LUA_TFUNCTION)
        return luaL_error(L, "mc.command: run must be a function");
    int run = lua_gettop(L);
    const char *aliases[4];
    int nalias = 0;
    if (lua_getfield(L, 1, "aliases") == LUA_TTABLE) {
        int n = (int)lua_rawlen(L, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *s = lua_tostring(L, -1);
            lua_pop(L, 1);
            if (nalias == 4 || !s || !cmd_name_ok(s, strlen(s), false))
                return luaL_error(L, "mc.command: at most 4 aliases, each a command name");
            aliases[nalias++] = s;
        }
    }
    if (p->ncmds + 1 + nalias > PLUGIN_CMDS_MAX)
        return luaL_error(L, "mc.command: at most %d commands per plugin", PLUGIN_CMDS_MAX);
    for (int i = -1; i < nalias; i++) {
        const char *n = i < 0 ? cmd.name : aliases[i];
        if (cmd_plugins_taken(p, n))
            return luaL_error(L, "mc.command: /%s is already a command", n);
        struct plugin_cmd probe = cmd;
        snprintf(probe.name, sizeof probe.name, "%s", n);
        for (int k = 0; k < p->ncmds; k++) {
            if (same_path(&p->cmds[k], &probe))
                return luaL_error(L, "mc.command: /%s with these args is registered already", n);
        }
    }
    lua_pushvalue(L, run);
    cmd.ref = luaL_ref(L, LUA_REGISTRYINDEX);
    p->cmds[p->ncmds++] = cmd;
    for (int i = 0; i < nalias; i++) {
        p->cmds[p->ncmds] = cmd;
        snprintf(p->cmds[p->ncmds++].name, sizeof cmd.name, "%s", aliases[i]);
    }
    if (plugin_find(p->m.name) == p) plugin_commands_changed();
    return 0;
}

static int mc_permission(lua_State *L)
{
    plugin *p = plugin_of(L);
    size_t n;
    const char *node = luaL_checklstring(L, 1, &n);
    lua_Integer level = luaL_optinteger(L, 2, 2);
    bool ok = n > 0 && n < sizeof p->perms[0].node;
    for (size_t i = 0; i < n && ok; i++)
        ok = (node[i] >= 'a' && node[i] <= 'z') || (node[i] >= '0' && node[i] <= '9') ||
             node[i] == '_' || node[i] == '-' || node[i] == '.';
    if (!ok) return luaL_error(L, "mc.permission: 1 to 64 of a-z 0-9 _ - . (e.g. myplugin.admin)");
    if (level < 0 || level > 4) return luaL_error(L, "mc.permission: level is 0..4");
    for (int i = 0; i < p->nperms; i++)
        if (strcmp(p->perms[i].node, node) == 0) {
            p->perms[i].level = (int)level;
            return 0;
        }
    if (p->nperms == PLUGIN_PERMS_MAX)
        return luaL_error(L, "mc.permission: at most %d per plugin", PLUGIN_PERMS_MAX);
    snprintf(p->perms[p->nperms].node, sizeof p->perms[0].node, "%s", node);
    p->perms[p->nperms++].level = (int)level;
    return 0;
}

/* ============================================================ scheduling */

static int task_find(const plugin *p, uint32_t id)
{
    for (int i = 0; i < p->ntasks; i++)
        if (p->tasks[i].id == id) return i;
    return -1;
}

static void task_remove(lua_State *L, plugin *p, int i)
{
    luaL_unref(L, LUA_REGISTRYINDEX, p->tasks[i].ref);
    p->tasks[i] = p->tasks[--p->ntasks];
}

static int schedule(lua_State *L, bool repeat)
{
    plugin *p = plugin_of(L);
    lua_Integer ticks = luaL_checkinteger(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    if (ticks < (repeat ? 1 : 0) || ticks > MAX_TICKS)
        return luaL_error(L, "%s: ticks must be %d..%d", repeat ? "mc.every" : "mc.after",
                          repeat ? 1 : 0, MAX_TICKS);
    if (p->ntasks == PLUGIN_TASKS_MAX)
        return luaL_error(L, "at most %d scheduled tasks per plugin", PLUGIN_TASKS_MAX);
    if ((p->ntasks & (p->ntasks - 1)) == 0) { /* 0, 1, 2, 4...: grow by doubling */
        struct plugin_task *n =
            realloc(p->tasks, (size_t)(p->ntasks ? p->ntasks * 2 : 4) * sizeof *n);
        if (!n) return luaL_error(L, "not enough memory");
        p->tasks = n;
    }
    lua_settop(L, 2);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    uint32_t id = ++p->next_task;
    p->tasks[p->ntasks++] = (struct plugin_task){
        id, game.tick_count + (uint64_t)(ticks ? ticks : 1), repeat ? (uint32_t)ticks : 0, ref};
    lua_createtable(L, 0, 1);
    lua_pushinteger(L, id);
    lua_setfield(L, -2, "id");
    luaL_setmetatable(L, TASK_MT);
    return 1;
}

static int mc_after(lua_State *L)
{
    return schedule(L, false);
}

static int mc_every(lua_State *L)
{
    return schedule(L, true);
}

static int task_cancel(lua_State *L)
{
    plugin *p = plugin_of(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "id");
    int i = task_find(p, (uint32_t)lua_tointeger(L, -1));
    if (i >= 0) task_remove(L, p, i);
    lua_pushboolean(L, i >= 0);
    return 1;
}

static int tasks_run(lua_State *L, void *arg)
{
    plugin *p = plugin_of(L);
    uint64_t tick = *(uint64_t *)arg;
    static uint32_t due[PLUGIN_TASKS_MAX];
    int n = 0;
    for (int i = 0; i < p->ntasks; i++)
        if (p->tasks[i].due <= tick) due[n++] = p->tasks[i].id;
    for (int k = 0; k < n && p->status == PL_ENABLED; k++) {
        int i = task_find(p, due[k]);
        if (i < 0) continue; /* cancelled by an earlier task */
        lua_rawgeti(L, LUA_REGISTRYINDEX, p->tasks[i].ref);
        if (p->tasks[i].every)
            p->tasks[i].due = tick + p->tasks[i].every;
        else
            task_remove(L, p, i); /* the function stays on the stack for this call */
        plugin_call(L, 0, 0, "scheduled task");
    }
    return 0;
}

void plugin_api_run_tasks(plugin *p, uint64_t tick)
{
    for (int i = 0; i < p->ntasks; i++)
        if (p->tasks[i].due <= tick) {
            plugin_run(p, tasks_run, &tick, "scheduled task");
            return;
        }
}

void plugin_api_forget(plugin *p)
{
    free(p->tasks);
    p->tasks = NULL;
    p->ntasks = 0;
}

/* ================================================================ storage */

static const char *store_key(lua_State *L, size_t *n)
{
    const char *k = luaL_checklstring(L, 1, n);
    if (*n == 0 || *n > STORE_KEY) luaL_error(L, "storage: keys are 1..%d bytes", STORE_KEY);
    return k;
}

static int st_get(lua_State *L)
{
    size_t n;
    const char *k = store_key(L, &n);
    json_t *v = json_object_getn(plugin_of(L)->store->data, k, n);
    if (!v) return 0;
    plugin_push_json(L, v);
    return 1;
}

static void st_remove(struct plugin_store *s, const char *k, size_t n)
{
    json_t *old = json_object_getn(s->data, k, n);
    if (!old) return;
    s->bytes -= json_dumpb(old, NULL, 0, JSON_COMPACT) + n + 4;
    json_object_deln(s->data, k, n);
    plugin_store_touch(s);
}

static int st_set(lua_State *L)
{
    struct plugin_store *s = plugin_of(L)->store;
    size_t n;
    const char *k = store_key(L, &n);
    luaL_checkany(L, 2);
    if (lua_isnil(L, 2)) {
        st_remove(s, k, n);
        return 0;
    }
    char err[160];
    json_t *j = plugin_to_json(L, 2, err, sizeof err);
    if (!j) return luaL_error(L, "storage.set(%s): %s", k, err);
    size_t sz = json_dumpb(j, NULL, 0, JSON_COMPACT) + n + 4;
    json_t *old = json_object_getn(s->data, k, n);
    size_t osz = old ? json_dumpb(old, NULL, 0, JSON_COMPACT) + n + 4 : 0;
    if (sz > STORE_VALUE || s->bytes - osz + sz > PLUGIN_STORE_MAX) {
        json_decref(j);
        return luaL_error(L, "storage.set(%s): %s", k,
                          sz > STORE_VALUE ? "a value is at most 1 MiB as JSON"
                                           : "the storage is full (16 MiB as JSON)");
    }
    if (json_object_setn_new(s->data, k, n, j) < 0)
        return luaL_error(L, "storage.set: the key must be UTF-8");
    s->bytes = s->bytes - osz + sz;
    plugin_store_touch(s);
    return 0;
}

static int st_delete(lua_State *L)
{
    size_t n;
    const char *k = store_key(L, &n);
    st_remove(plugin_of(L)->store, k, n);
    return 0;
}

static int st_keys(lua_State *L)
{
    json_t *data = plugin_of(L)->store->data;
    lua_createtable(L, (int)json_object_size(data), 0);
    const char *k;
    json_t *v;
    int i = 0;
    json_object_foreach(data, k, v)
    {
        (void)v;
        lua_pushstring(L, k);
        lua_rawseti(L, -2, ++i);
    }
    return 1;
}

/* ================================================================= setup */

static const luaL_Reg player_methods[] = {
    {"send", p_send},
    {"send_json", p_send_json},
    {"action_bar", p_action_bar},
    {"title", p_title},
    {"tab_list", p_tab_list},
    {"teleport", p_teleport},
    {"set_gamemode", p_set_gamemode},
    {"kick", p_kick},
    {"has_permission", p_has_permission},
    {"pos", p_pos},
    {NULL, NULL},
};

static const luaL_Reg mc_funcs[] = {
    {"on", mc_on},
    {"off", mc_off},
    {"command", mc_command},
    {"permission", mc_permission},
    {"after", mc_after},
    {"every", mc_every},
    {"cancel", task_cancel},
    {"players", mc_players},
    {"player", mc_player},
    {"broadcast", mc_broadcast},
    {"broadcast_json", mc_broadcast_json},
    {"log", plugin_lua_log},
    {"warn", plugin_lua_warn},
    {"error", plugin_lua_error},
    {NULL, NULL},
};

static const luaL_Reg storage_funcs[] = {
    {"get", st_get}, {"set", st_set}, {"delete", st_delete}, {"keys", st_keys}, {NULL, NULL},
};

int plugin_api_open(lua_State *L)
{
    plugin *p = plugin_of(L);
    plugin_sandbox_open(L);
    /* registry */
    lua_newtable(L);
    p->players_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 1);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, ev_cancel);
    lua_setfield(L, -2, "cancel");
    lua_pushcfunction(L, ev_refuse);
    lua_setfield(L, -2, "refuse");
    lua_setfield(L, -2, "__index");
    p->event_mt_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    luaL_newmetatable(L, PLAYER_MT);
    lua_newtable(L);
    luaL_setfuncs(L, player_methods, 0);
    lua_pushcclosure(L, p_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, p_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, PLAYER_MT);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    luaL_newmetatable(L, TASK_MT);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, task_cancel);
    lua_setfield(L, -2, "cancel");
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    /* the API */
    lua_newtable(L);
    luaL_setfuncs(L, mc_funcs, 0);
    luaL_setfuncs(L, plugin_world_funcs, 0);
    lua_setglobal(L, "mc");
    lua_createtable(L, 0, 6);
    lua_pushstring(L, p->m.name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, p->m.version);
    lua_setfield(L, -2, "version");
    lua_pushstring(L, p->m.description);
    lua_setfield(L, -2, "description");
    lua_pushfstring(L, PLUGIN_DIR "/%s", p->m.name);
    lua_setfield(L, -2, "dir");
    if (p->config)
        plugin_push_json(L, p->config);
    else
        lua_newtable(L);
    lua_setfield(L, -2, "config");
    lua_newtable(L);
    luaL_setfuncs(L, storage_funcs, 0);
    lua_setfield(L, -2, "storage");
    lua_setglobal(L, "plugin");
    return 0;
}
