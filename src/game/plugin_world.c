/*
 * plugin_world.c — the `mc` functions that read and change the world:
 * blocks by name ("stone", "minecraft:oak_log[axis=x]") or state id,
 * get_block, set_block, fill (bounded), block_state, and where the spawn,
 * the tick and the day are.
 *
 * Invariants:
 *  1. Coordinates are integers inside the world (±30,000,000); a block
 *     outside a loaded chunk is never loaded for a plugin: get_block gives
 *     nil and set_block false there.
 *  2. One mc.fill changes at most FILL_MAX blocks (vanilla's /fill limit);
 *     every change goes through play_set_block, so viewers get Block
 *     Update packets at the end of the tick as for any player's edit.
 *  3. Block names are looked up in a sorted index of block_info built once
 *     (binary search); properties are checked against the block's own.
 */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "game/play.h"
#include "game/plugin_int.h"

#define FILL_MAX 32768 /* blocks one mc.fill may change (vanilla's /fill) */

static int cmp_block_name(const void *a, const void *b)
{
    return strcmp(block_info[*(const uint16_t *)a].name, block_info[*(const uint16_t *)b].name);
}

/* The block called name[0..n) (with or without "minecraft:"), or -1. */
static int block_by_name(const char *name, size_t n)
{
    static uint16_t order[BLOCK_COUNT];
    static bool sorted;
    if (!sorted) {
        for (int i = 0; i < BLOCK_COUNT; i++) order[i] = (uint16_t)i;
        qsort(order, BLOCK_COUNT, sizeof order[0], cmp_block_name);
        sorted = true;
    }
    if (n > 10 && memcmp(name, "minecraft:", 10) == 0) name += 10, n -= 10;
    size_t lo = 0, hi = BLOCK_COUNT;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *m = block_info[order[mid]].name;
        int c = strncmp(name, m, n);
        if (c == 0 && m[n] == 0) return order[mid];
        if (c < 0 || (c == 0 && m[n] != 0))
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

static const struct block_prop *prop_of(const struct block_info *b, int i)
{
    return &block_props[block_prop_index[b->prop_first + i]];
}

/* "stone", "minecraft:oak_log[axis=x]" or a state id. */
static uint16_t block_arg(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Integer st = luaL_checkinteger(L, idx);
        if (st < 0 || st > block_info[BLOCK_COUNT - 1].max_state)
            luaL_error(L, "block state %d does not exist", (int)st);
        return (uint16_t)st;
    }
    size_t len;
    const char *s = luaL_checklstring(L, idx, &len);
    const char *br = memchr(s, '[', len);
    size_t nl = br ? (size_t)(br - s) : len;
    int bi = block_by_name(s, nl);
    if (bi < 0) luaL_error(L, "unknown block %s", s);
    const struct block_info *b = &block_info[bi];
    int vals[16] = {0};
    int off = b->default_state - b->min_state;
    for (int i = b->prop_count; i-- > 0;) {
        vals[i] = off % prop_of(b, i)->count;
        off /= prop_of(b, i)->count;
    }
    for (const char *q = br ? br + 1 : NULL; q && *q && *q != ']';) {
        const char *eq = strchr(q, '='), *end = q + strcspn(q, ",]");
        if (!eq || eq > end) luaL_error(L, "block %s: properties are key=value", s);
        int found = -1;
        for (int i = 0; i < b->prop_count && found < 0; i++) {
            const struct block_prop *pr = prop_of(b, i);
            const char *pn = block_prop_names[pr->name];
            if (strlen(pn) != (size_t)(eq - q) || memcmp(pn, q, (size_t)(eq - q)) != 0) continue;
            for (int v = 0; v < pr->count; v++) {
                const char *vn = block_prop_values[pr->first_value + v];
                if (strlen(vn) == (size_t)(end - eq - 1) &&
                    memcmp(vn, eq + 1, (size_t)(end - eq - 1)) == 0)
                    vals[i] = v, found = i;
            }
            if (found < 0) luaL_error(L, "block %s: bad value for %s", s, pn);
        }
        if (found < 0) luaL_error(L, "block %s: no property %.*s", s, (int)(eq - q), q);
        q = *end == ',' ? end + 1 : end;
    }
    int st = 0;
    for (int i = 0; i < b->prop_count; i++) st = st * prop_of(b, i)->count + vals[i];
    return (uint16_t)(b->min_state + st);
}

void plugin_push_block(lua_State *L, uint16_t state)
{
    lua_pushfstring(L, "minecraft:%s", block_info[block_of_state[state]].name);
}

static int32_t block_coord(lua_State *L, int idx)
{
    lua_Integer v = luaL_checkinteger(L, idx);
    if (v < -30000000 || v > 30000000) luaL_error(L, "coordinate #%d out of the world", idx);
    return (int32_t)v;
}

static int mc_get_block(lua_State *L)
{
    int32_t x = block_coord(L, 1), y = block_coord(L, 2), z = block_coord(L, 3);
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return 0; /* not loaded: nil */
    plugin_push_block(L, st);
    lua_pushinteger(L, st);
    return 2;
}

static int mc_set_block(lua_State *L)
{
    int32_t x = block_coord(L, 1), y = block_coord(L, 2), z = block_coord(L, 3);
    uint16_t st = block_arg(L, 4);
    lua_pushboolean(L, play_set_block(x, y, z, st) == 0);
    return 1;
}

static int mc_fill(lua_State *L)
{
    int32_t a[3], b[3];
    for (int i = 0; i < 3; i++) a[i] = block_coord(L, 1 + i), b[i] = block_coord(L, 4 + i);
    uint16_t st = block_arg(L, 7);
    int64_t vol = 1;
    for (int i = 0; i < 3; i++) {
        if (a[i] > b[i]) {
            int32_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
        vol *= (int64_t)b[i] - a[i] + 1;
    }
    if (vol > FILL_MAX)
        return luaL_error(L, "fill: %lld blocks, at most %d per call", (long long)vol, FILL_MAX);
    int changed = 0;
    for (int32_t x = a[0]; x <= b[0]; x++)
        for (int32_t y = a[1]; y <= b[1]; y++)
            for (int32_t z = a[2]; z <= b[2]; z++) changed += play_set_block(x, y, z, st) == 0;
    lua_pushinteger(L, changed);
    return 1;
}

static int mc_block_state(lua_State *L)
{
    uint16_t st = block_arg(L, 1);
    const struct block_info *b = &block_info[block_of_state[st]];
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    luaL_addstring(&buf, "minecraft:");
    luaL_addstring(&buf, b->name);
    int off = st - b->min_state, vals[16];
    for (int i = b->prop_count; i-- > 0;) {
        vals[i] = off % prop_of(b, i)->count;
        off /= prop_of(b, i)->count;
    }
    for (int i = 0; i < b->prop_count; i++) {
        luaL_addchar(&buf, i ? ',' : '[');
        luaL_addstring(&buf, block_prop_names[prop_of(b, i)->name]);
        luaL_addchar(&buf, '=');
        luaL_addstring(&buf, block_prop_values[prop_of(b, i)->first_value + vals[i]]);
    }
    if (b->prop_count) luaL_addchar(&buf, ']');
    luaL_pushresult(&buf);
    lua_pushinteger(L, st);
    return 2;
}

static int mc_spawn(lua_State *L)
{
    lua_pushnumber(L, game.spawn_x);
    lua_pushnumber(L, game.spawn_y);
    lua_pushnumber(L, game.spawn_z);
    lua_pushnumber(L, game.spawn_angle);
    return 4;
}

static int mc_tick(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)game.tick_count);
    return 1;
}

static int mc_time(lua_State *L)
{
    lua_pushinteger(L, game.day_time % 24000);
    lua_pushinteger(L, game.day_time);
    return 2;
}

const luaL_Reg plugin_world_funcs[] = {
    {"get_block", mc_get_block}, {"set_block", mc_set_block},
    {"fill", mc_fill},           {"block_state", mc_block_state},
    {"spawn", mc_spawn},         {"tick", mc_tick},
    {"time", mc_time},           {NULL, NULL},
};
