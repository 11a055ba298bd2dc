/*
 * plugin_json.c — Lua values and JSON (jansson), both ways: for storage,
 * config.json and text components.
 *
 *   Lua                         JSON
 *   nil / boolean               null / true, false
 *   integer / float             integer / real (NaN and infinities refused)
 *   string                      string (must be UTF-8)
 *   table with keys 1..n only   array (an empty table is an object: {})
 *   table with string keys      object (other keys are refused)
 *   function, userdata, thread  refused
 *
 * Invariants:
 *  1. plugin_to_json never raises a Lua error and reads tables raw (no
 *     metamethods), so its partial result is always freed: it returns NULL
 *     and a reason instead. Depth is capped at DEPTH_MAX (cycles end there)
 *     and the number of values at VALUES_MAX.
 *  2. plugin_push_json may raise (it allocates in the plugin's heap); it
 *     only borrows j, so nothing leaks when it does.
 */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game/plugin_int.h"

#define DEPTH_MAX  32
#define VALUES_MAX 1000000

struct conv {
    char *err;
    size_t errlen;
    long values;
};

static json_t *fail(struct conv *cv, const char *why)
{
    if (!cv->err[0]) snprintf(cv->err, cv->errlen, "%s", why);
    return NULL;
}

/* True if the table at idx has exactly the keys 1..n (n > 0). */
static bool is_array(lua_State *L, int idx, size_t *n)
{
    *n = lua_rawlen(L, idx);
    if (*n == 0) return false;
    size_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TNUMBER || !lua_isinteger(L, -1)) {
            lua_pop(L, 1);
            return false;
        }
        count++;
    }
    return count == *n;
}

static json_t *conv(lua_State *L, int idx, int depth, struct conv *cv)
{
    if (++cv->values > VALUES_MAX) return fail(cv, "more than a million values");
    switch (lua_type(L, idx)) {
    case LUA_TNIL: return json_null();
    case LUA_TBOOLEAN: return json_boolean(lua_toboolean(L, idx));
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) return json_integer((json_int_t)lua_tointeger(L, idx));
        if (!isfinite(lua_tonumber(L, idx))) return fail(cv, "NaN or infinity is not JSON");
        return json_real(lua_tonumber(L, idx));
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        json_t *j = json_stringn(s, n);
        return j ? j : fail(cv, "a string is not UTF-8");
    }
    case LUA_TTABLE: break;
    default: return fail(cv, "functions, userdata and threads cannot be JSON");
    }
    if (depth >= DEPTH_MAX || !lua_checkstack(L, 4))
        return fail(cv, "tables nested deeper than 32 (or a cycle)");
    size_t n;
    if (is_array(L, idx, &n)) {
        json_t *a = json_array();
        for (size_t i = 1; a && i <= n; i++) {
            lua_rawgeti(L, idx, (lua_Integer)i);
            json_t *v = conv(L, lua_gettop(L), depth + 1, cv);
            lua_pop(L, 1);
            if (!v || json_array_append_new(a, v) < 0) {
                json_decref(a);
                return fail(cv, "out of memory");
            }
        }
        return a ? a : fail(cv, "out of memory");
    }
    json_t *o = json_object();
    lua_pushnil(L);
    while (o && lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pop(L, 2);
            json_decref(o);
            return fail(cv, "table keys must be strings (or 1..n for a list)");
        }
        size_t kl;
        const char *k = lua_tolstring(L, -2, &kl);
        json_t *v = conv(L, lua_gettop(L), depth + 1, cv);
        lua_pop(L, 1);
        if (!v || json_object_setn_new(o, k, kl, v) < 0) {
            lua_pop(L, 1);
            json_decref(o);
            return fail(cv, "a key is not UTF-8");
        }
    }
    return o ? o : fail(cv, "out of memory");
}

json_t *plugin_to_json(lua_State *L, int idx, char *err, size_t errlen)
{
    struct conv cv = {err, errlen, 0};
    err[0] = 0;
    json_t *j = conv(L, lua_absindex(L, idx), 0, &cv);
    if (!j && !err[0]) snprintf(err, errlen, "cannot be JSON");
    return j;
}

void plugin_push_json(lua_State *L, const json_t *j)
{
    luaL_checkstack(L, 4, "JSON nested too deep");
    switch (json_typeof(j)) {
    case JSON_NULL: lua_pushnil(L); return;
    case JSON_TRUE: lua_pushboolean(L, 1); return;
    case JSON_FALSE: lua_pushboolean(L, 0); return;
    case JSON_INTEGER: lua_pushinteger(L, (lua_Integer)json_integer_value(j)); return;
    case JSON_REAL: lua_pushnumber(L, json_real_value(j)); return;
    case JSON_STRING: lua_pushlstring(L, json_string_value(j), json_string_length(j)); return;
    case JSON_ARRAY: {
        size_t n = json_array_size(j);
        lua_createtable(L, n < 1u << 20 ? (int)n : 0, 0);
        for (size_t i = 0; i < n; i++) {
            plugin_push_json(L, json_array_get(j, i));
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return;
    }
    case JSON_OBJECT: {
        lua_createtable(L, 0, (int)(json_object_size(j) < 1u << 20 ? json_object_size(j) : 0));
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v)
        {
            lua_pushstring(L, k);
            plugin_push_json(L, v);
            lua_rawset(L, -3);
        }
        return;
    }
    }
}
