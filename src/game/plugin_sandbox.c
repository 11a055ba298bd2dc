/*
 * plugin_sandbox.c — the standard library a plugin's state gets
 * (plugin_int.h invariant 1): base, string, table, math, utf8 and
 * coroutine, plus os.time/clock/date/difftime and debug.traceback. Not
 * there (each raises "<name> is not available to plugins", so a plugin's
 * author sees why): io, package and C modules, the rest of debug and os
 * (execute, exit, getenv, remove, rename...), dofile, loadfile, string.dump.
 *
 * Replaced, and why:
 *   load            text chunks only, never bytecode (a crafted bytecode
 *                   chunk can corrupt the VM);
 *   require         the plugin's own <name>.lua files, read with the
 *                   plugin (no file access at run time, no C modules);
 *   print           logs with the plugin's name (mc.log);
 *   collectgarbage  "count", "collect" and "step" only (no "stop");
 *   setmetatable    refuses __gc: a finalizer runs inside the collector,
 *                   where debug hooks are off, so it would escape the
 *                   time budget (an object is marked for finalization only
 *                   when its metatable has __gc as it is set: checking then
 *                   is enough);
 *   pcall, xpcall, coroutine.resume
 *                   re-raise the error of a call past its time budget
 *                   (plugin.aborting, plugins.c), so no Lua code can catch
 *                   it and keep running. pcall and xpcall are re-derived
 *                   from Lua's own (lbaselib.c, MIT), continuation included,
 *                   so coroutines may still yield across them.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "game/plugin_int.h"

#define LOG_LINE_MAX 2048

static int finish_pcall(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        if (plugin_of(L)->aborting) return lua_error(L); /* past the budget: not catchable */
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int safe_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
    return finish_pcall(L, status, 0);
}

/* xpcall's handler, wrapped: a call past its budget keeps its error. */
static int xpcall_handler(lua_State *L)
{
    if (plugin_of(L)->aborting) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int safe_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2); /* f, handler, true, f, args... */
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

static int safe_resume(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1)); /* the library's resume */
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    if (plugin_of(L)->aborting && !lua_toboolean(L, 1)) {
        lua_pushvalue(L, 2);
        return lua_error(L);
    }
    return lua_gettop(L);
}

static int safe_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc (finalizers) is not available to plugins");
        lua_pop(L, 1);
    }
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int safe_load(lua_State *L)
{
    size_t len;
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "load: plugins may load text chunks (a string) only");
    const char *s = lua_tolstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");
    if (luaL_loadbufferx(L, s, len, name, "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2; /* nil, message */
    }
    if (!lua_isnoneornil(L, 4)) {
        lua_pushvalue(L, 4);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

static int safe_collectgarbage(lua_State *L)
{
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") == 0) {
        int k = lua_gc(L, LUA_GCCOUNT), b = lua_gc(L, LUA_GCCOUNTB);
        lua_pushnumber(L, (lua_Number)k + (lua_Number)b / 1024);
        return 1;
    }
    if (strcmp(opt, "collect") == 0 || strcmp(opt, "step") == 0) {
        lua_gc(L, strcmp(opt, "collect") == 0 ? LUA_GCCOLLECT : LUA_GCSTEP, 0);
        lua_pushinteger(L, 0);
        return 1;
    }
    return luaL_error(L, "collectgarbage: plugins may use \"count\", \"collect\" and \"step\"");
}

/* The arguments as one line of text (tostring of each, tab-separated). */
static const char *join_args(lua_State *L, int from, size_t *len)
{
    int n = lua_gettop(L); /* before the buffer's own stack slot */
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = from; i <= n; i++) {
        if (i > from) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return lua_tolstring(L, -1, len);
}

static int log_at(lua_State *L, enum log_level lv)
{
    size_t len;
    const char *s = join_args(L, 1, &len);
    log_msg(lv, "[%s] %.*s", plugin_of(L)->m.name, (int)(len < LOG_LINE_MAX ? len : LOG_LINE_MAX),
            s);
    return 0;
}

int plugin_lua_log(lua_State *L)
{
    return log_at(L, LOG_INFO);
}

int plugin_lua_warn(lua_State *L)
{
    return log_at(L, LOG_WARN);
}

int plugin_lua_error(lua_State *L)
{
    return log_at(L, LOG_ERROR);
}

static int l_traceback(lua_State *L)
{
    const char *msg = luaL_optstring(L, 1, NULL);
    luaL_traceback(L, L, msg, (int)luaL_optinteger(L, 2, 1));
    return 1;
}

/* require(name): the plugin's own name.lua, run once (text only). */
static int l_require(lua_State *L)
{
    plugin *p = plugin_of(L);
    size_t n;
    const char *name = luaL_checklstring(L, 1, &n);
    lua_getfield(L, LUA_REGISTRYINDEX, "mc.loaded");
    if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    char file[64];
    snprintf(file, sizeof file, "%.58s.lua", name);
    const struct plugin_file *f = NULL;
    for (int i = 0; i < p->nfiles && n < 59; i++)
        if (strcmp(p->files[i].name, file) == 0) f = &p->files[i];
    if (!f || strcmp(file, "init.lua") == 0)
        return luaL_error(L,
                          "require: no %s in " PLUGIN_DIR "/%s (plugins require their own "
                          "files only)",
                          file, p->m.name);
    char chunk[128];
    snprintf(chunk, sizeof chunk, "@" PLUGIN_DIR "/%s/%s", p->m.name, file);
    if (luaL_loadbufferx(L, f->text, f->len, chunk, "t") != LUA_OK) return lua_error(L);
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    return 1;
}

/* What a plugin gets for os.execute and the like: a clear error. */
static int unavailable(lua_State *L)
{
    return luaL_error(L, "%s is not available to plugins%s", lua_tostring(L, lua_upvalueindex(1)),
                      lua_tostring(L, lua_upvalueindex(2)));
}

static void push_unavailable(lua_State *L, const char *name, const char *hint)
{
    lua_pushstring(L, name);
    lua_pushstring(L, hint);
    lua_pushcclosure(L, unavailable, 2);
}

/* io.open, debug.getinfo...: any member of a library plugins do not get. */
static int unavailable_member(lua_State *L)
{
    return luaL_error(L, "%s.%s is not available to plugins%s",
                      lua_tostring(L, lua_upvalueindex(1)), luaL_optstring(L, 2, "?"),
                      lua_tostring(L, lua_upvalueindex(2)));
}

static void set_unavailable_lib(lua_State *L, const char *name, const char *hint, bool keep)
{
    if (keep)
        lua_getglobal(L, name);
    else
        lua_newtable(L);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, name);
    lua_pushstring(L, hint);
    lua_pushcclosure(L, unavailable_member, 2);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_setglobal(L, name);
}

static void set_global_fn(lua_State *L, const char *name, lua_CFunction f)
{
    lua_pushcfunction(L, f);
    lua_setglobal(L, name);
}

void plugin_sandbox_open(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},        {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine},
        {LUA_OSLIBNAME, luaopen_os},
    };
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        luaL_requiref(L, libs[i].name, libs[i].func, 1);
        lua_pop(L, 1);
    }
    /* os: the clock only; the rest raise a clear error */
    static const char *const files_hint = " (files: plugin.storage and plugin.config)";
    lua_getglobal(L, "os");
    lua_createtable(L, 0, 4);
    static const char *const os_keep[] = {"time", "clock", "date", "difftime"};
    for (int i = 0; i < 4; i++) {
        lua_getfield(L, -2, os_keep[i]);
        lua_setfield(L, -2, os_keep[i]);
    }
    lua_setglobal(L, "os");
    lua_pop(L, 1);
    set_unavailable_lib(L, "os", files_hint, true);
    set_unavailable_lib(L, "io", files_hint, false);
    set_unavailable_lib(L, "package", " (require loads the plugin's own .lua files)", false);
    static const char *const gone[] = {"dofile", "loadfile"};
    for (int i = 0; i < 2; i++) {
        push_unavailable(L, gone[i], files_hint);
        lua_setglobal(L, gone[i]);
    }
    lua_getglobal(L, "string");
    push_unavailable(L, "string.dump", " (bytecode cannot be loaded back)");
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    set_global_fn(L, "pcall", safe_pcall);
    set_global_fn(L, "xpcall", safe_xpcall);
    set_global_fn(L, "setmetatable", safe_setmetatable);
    set_global_fn(L, "load", safe_load);
    set_global_fn(L, "collectgarbage", safe_collectgarbage);
    set_global_fn(L, "print", plugin_lua_log);
    set_global_fn(L, "require", l_require);
    lua_getglobal(L, "coroutine");
    lua_getfield(L, -1, "resume");
    lua_pushcclosure(L, safe_resume, 1);
    lua_setfield(L, -2, "resume");
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, l_traceback);
    lua_setfield(L, -2, "traceback");
    lua_setglobal(L, "debug");
    set_unavailable_lib(L, "debug", " (only debug.traceback is)", true);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "mc.loaded");
}
