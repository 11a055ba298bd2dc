/*
 * script.c — Lua 5.4 bot scripts: one lua_State for the whole swarm, one
 * coroutine per bot, no thread and no C stack per bot.
 *
 * The script file runs once at startup. It must return a function, or
 * define a global function `bot_main`; that function runs as each bot's
 * coroutine once the bot has joined, with the bot object as its argument:
 *
 *   return function(bot)
 *     bot:move_to(10, nil, 10)   -- walk there at 4.317 m/s (yields)
 *     bot:chat("hello")
 *     bot:wait(2.5)              -- yields until a timer fires
 *     bot:disconnect()
 *   end
 *
 * Yielding methods (wait, move_to, wait_chat, disconnect) record what the
 * bot waits for in the bot (b->wait) and yield; behave.c / bot.c resume the
 * coroutine when the timer fires, the target is reached or a matching chat
 * line arrives. Everything else sends packets at once and returns.
 *
 * Invariants:
 *  1. A coroutine is resumed only from the event loop, never while another
 *     (or itself) is running; yielding methods refuse to run on a bot other
 *     than the coroutine's own.
 *  2. A bot's coroutine reference is dropped only at reap (end of pass) or
 *     when the coroutine finished or failed, never while it runs.
 *  3. Scripts are bounded: the Lua heap is capped (SCRIPT_MEM_LIMIT) and a
 *     resume that runs SCRIPT_STEP_LIMIT VM instructions without yielding is
 *     aborted; either way only that bot fails ("script error: ...").
 *  4. Script text printed by bot:log is data: control characters escaped.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/mcbench.h"

#define SCRIPT_MEM_LIMIT  (256u << 20)
#define SCRIPT_STEP_LIMIT 1000000L /* VM instructions per resume: a few ms of CPU */
#define HOOK_EVERY        1000
#define BOT_MT            "mcbench.bot"

_Static_assert(BOT_NO_SCRIPT == LUA_NOREF, "BOT_NO_SCRIPT must equal LUA_NOREF");

static lua_State *L;
static int main_ref = LUA_NOREF;
static size_t mem_used;
static long steps;

static void *l_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        mem_used -= old;
        return NULL;
    }
    if (nsize > old && mem_used + (nsize - old) > SCRIPT_MEM_LIMIT) return NULL;
    void *p = realloc(ptr, nsize);
    if (p) mem_used = mem_used - old + nsize;
    return p;
}

static void step_hook(lua_State *co, lua_Debug *ar)
{
    (void)ar;
    steps += HOOK_EVERY;
    if (steps > SCRIPT_STEP_LIMIT)
        luaL_error(co, "ran %d instructions without yielding (use bot:wait)",
                   (int)SCRIPT_STEP_LIMIT);
}

/* ------------------------------------------------------------- bot object */

static bot *check_bot(lua_State *co)
{
    int *ud = luaL_checkudata(co, 1, BOT_MT);
    if (*ud < 0 || *ud >= bench.o.bots) luaL_error(co, "bad bot");
    return &bench.bots[*ud];
}

static bot *check_live(lua_State *co)
{
    bot *b = check_bot(co);
    if (b->state != BS_PLAY) luaL_error(co, "%s is not connected", b->name);
    return b;
}

/* For yielding methods: the bot must be this coroutine's own (invariant 1). */
static bot *check_own(lua_State *co)
{
    bot *b = check_live(co);
    if (b->co != co)
        luaL_error(co, "%s: yielding methods work only in that bot's own script", b->name);
    return b;
}

static int m_wait(lua_State *co)
{
    bot *b = check_own(co);
    double s = luaL_checknumber(co, 2);
    if (!(s >= 0)) s = 0;
    if (s > 1e6) s = 1e6;
    b->wait = SW_TIMER;
    b->script_wake_ms = bench.loop.now_ms + (int64_t)(s * 1000.0);
    if (b->script_wake_ms <= bench.loop.now_ms) b->script_wake_ms = bench.loop.now_ms + 1;
    behave_rearm(b);
    return lua_yield(co, 0);
}

static int m_move_to(lua_State *co)
{
    bot *b = check_own(co);
    double x = luaL_checknumber(co, 2);
    double y = lua_isnoneornil(co, 3) ? b->y : luaL_checknumber(co, 3);
    double z = luaL_checknumber(co, 4);
    double speed = luaL_optnumber(co, 5, bench.o.speed);
    if (!isfinite(x) || !isfinite(y) || !isfinite(z) || fabs(x) > 3e7 || fabs(z) > 3e7 ||
        fabs(y) > 2e7)
        return luaL_error(co, "move_to: coordinates out of range");
    if (!(speed > 0) || speed > 1000) return luaL_error(co, "move_to: speed must be in (0, 1000]");
    behave_move_to(b, x, y, z, speed);
    b->wait = SW_MOVE;
    b->next_move_ms = bench.loop.now_ms + 50;
    behave_rearm(b);
    return lua_yield(co, 0);
}

static int m_wait_chat(lua_State *co)
{
    bot *b = check_own(co);
    size_t len;
    const char *pat = luaL_optlstring(co, 2, "", &len);
    double timeout = luaL_optnumber(co, 3, 0);
    if (len > CHAT_MAX) return luaL_error(co, "wait_chat: pattern longer than %d bytes", CHAT_MAX);
    free(b->chat_pat);
    b->chat_pat = malloc(len + 1);
    if (!b->chat_pat) return luaL_error(co, "out of memory");
    memcpy(b->chat_pat, pat, len);
    b->chat_pat[len] = 0;
    b->wait = SW_CHAT;
    b->script_wake_ms = timeout > 0 ? bench.loop.now_ms + (int64_t)(timeout * 1000.0) + 1 : 0;
    behave_rearm(b);
    return lua_yield(co, 0);
}

static int m_disconnect(lua_State *co)
{
    bot *b = check_own(co);
    bench.script_left++;
    bot_leave(b, false);
    return lua_yield(co, 0); /* never resumed: released at reap */
}

static int m_chat(lua_State *co)
{
    bot *b = check_live(co);
    size_t len;
    const char *s = luaL_checklstring(co, 2, &len);
    if (len == 0 || len > CHAT_MAX) return luaL_error(co, "chat: 1..%d bytes", CHAT_MAX);
    send_chat(b, s, len);
    return 0;
}

static int m_look(lua_State *co)
{
    bot *b = check_live(co);
    b->yaw = (float)luaL_checknumber(co, 2);
    b->pitch = (float)luaL_optnumber(co, 3, 0);
    if (!isfinite(b->yaw) || !isfinite(b->pitch)) return luaL_error(co, "look: bad angle");
    send_look(b);
    return 0;
}

/* bot:dig / bot:place (x, y, z [, face = 1 (top)]): the block packets a
 * client sends for that action. */
static int block_action(lua_State *co, void (*send)(bot *, int32_t, int32_t, int32_t, int))
{
    bot *b = check_live(co);
    int32_t x = (int32_t)luaL_checkinteger(co, 2), y = (int32_t)luaL_checkinteger(co, 3),
            z = (int32_t)luaL_checkinteger(co, 4);
    int face = (int)luaL_optinteger(co, 5, 1);
    send(b, x, y, z, face);
    return 0;
}

static int m_dig(lua_State *co)
{
    return block_action(co, send_dig);
}

static int m_place(lua_State *co)
{
    return block_action(co, send_place);
}

static int m_set_slot(lua_State *co)
{
    bot *b = check_live(co);
    int slot = (int)luaL_checkinteger(co, 2);
    int item = (int)luaL_checkinteger(co, 3);
    int count = (int)luaL_optinteger(co, 4, 1);
    send_creative_slot(b, slot, item, count);
    return 0;
}

static int m_hold(lua_State *co)
{
    bot *b = check_live(co);
    int slot = (int)luaL_checkinteger(co, 2);
    if (slot < 0 || slot > 8) return luaL_error(co, "hold: slot 0..8");
    send_held_slot(b, slot);
    return 0;
}

static int m_pos(lua_State *co)
{
    bot *b = check_bot(co);
    lua_pushnumber(co, b->x);
    lua_pushnumber(co, b->y);
    lua_pushnumber(co, b->z);
    return 3;
}

static int m_name(lua_State *co)
{
    bot *b = check_bot(co);
    lua_pushlstring(co, b->name, b->name_len);
    return 1;
}

static int m_index(lua_State *co)
{
    bot *b = check_bot(co);
    lua_pushinteger(co, b->idx);
    return 1;
}

static int m_chunks(lua_State *co)
{
    bot *b = check_bot(co);
    lua_pushinteger(co, b->chunks.len);
    return 1;
}

static int m_connected(lua_State *co)
{
    bot *b = check_bot(co);
    lua_pushboolean(co, b->state == BS_PLAY);
    return 1;
}

static int m_now(lua_State *co)
{
    check_bot(co);
    lua_pushnumber(co, (double)(bench.loop.now_us - bench.start_us) / 1e6);
    return 1;
}

static int m_log(lua_State *co)
{
    bot *b = check_bot(co);
    size_t len;
    const char *s = luaL_tolstring(co, 2, &len);
    if (bench.o.quiet) return 0;
    char line[512];
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < sizeof line; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(line + o, sizeof line - o, "\\x%02x", c);
        else
            line[o++] = (char)c;
    }
    line[o] = 0;
    fprintf(stderr, "[%s] %s\n", b->name, line);
    return 0;
}

static int m_tostring(lua_State *co)
{
    bot *b = check_bot(co);
    lua_pushfstring(co, "bot %s", b->name);
    return 1;
}

static const luaL_Reg bot_methods[] = {
    {"wait", m_wait},
    {"move_to", m_move_to},
    {"wait_chat", m_wait_chat},
    {"disconnect", m_disconnect},
    {"chat", m_chat},
    {"look", m_look},
    {"dig", m_dig},
    {"place", m_place},
    {"set_slot", m_set_slot},
    {"hold", m_hold},
    {"pos", m_pos},
    {"name", m_name},
    {"index", m_index},
    {"chunks", m_chunks},
    {"connected", m_connected},
    {"now", m_now},
    {"log", m_log},
    {NULL, NULL},
};

/* ------------------------------------------------------------- lifecycle */

int script_load(const char *path)
{
    L = lua_newstate(l_alloc, NULL);
    if (!L) {
        fprintf(stderr, "mcbench: cannot create the Lua state\n");
        return -1;
    }
    luaL_openlibs(L);
    luaL_newmetatable(L, BOT_MT);
    luaL_newlib(L, bot_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, m_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);

    lua_newtable(L);
    lua_pushinteger(L, bench.o.bots);
    lua_setfield(L, -2, "bots");
    lua_pushnumber(L, bench.o.duration);
    lua_setfield(L, -2, "duration");
    lua_pushstring(L, bench.o.host);
    lua_setfield(L, -2, "host");
    lua_pushinteger(L, bench.o.port);
    lua_setfield(L, -2, "port");
    lua_pushinteger(L, (lua_Integer)bench.o.seed);
    lua_setfield(L, -2, "seed");
    lua_pushnumber(L, bench.o.speed);
    lua_setfield(L, -2, "speed");
    lua_setglobal(L, "mcbench");

    /* Deterministic math.random for a given --seed. */
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, (lua_Integer)bench.o.seed);
    lua_call(L, 1, 0);
    lua_pop(L, 1);

    if (luaL_loadfile(L, path) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
        fprintf(stderr, "mcbench: script %s: %s\n", path, lua_tostring(L, -1));
        lua_close(L);
        L = NULL;
        return -1;
    }
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        lua_getglobal(L, "bot_main");
    }
    if (!lua_isfunction(L, -1)) {
        fprintf(stderr, "mcbench: script %s must return a function or define bot_main(bot)\n",
                path);
        lua_close(L);
        L = NULL;
        return -1;
    }
    main_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

void script_release(bot *b)
{
    if (!L || b->co_ref == LUA_NOREF || b->in_script) return;
    luaL_unref(L, LUA_REGISTRYINDEX, b->co_ref);
    b->co_ref = LUA_NOREF;
    b->co = NULL;
    b->wait = SW_NONE;
}

/* Resumes b's coroutine with the nargs values already pushed on it. */
static void resume(bot *b, int nargs)
{
    lua_State *co = b->co;
    if (!co || b->in_script) return;
    int nres = 0;
    steps = 0;
    b->in_script = true;
    int st = lua_resume(co, L, nargs, &nres);
    b->in_script = false;
    if (st == LUA_YIELD) {
        lua_pop(co, nres);
        if (b->state == BS_PLAY && b->wait == SW_NONE && !b->moving) {
            /* A bare coroutine.yield(): treat it as bot:wait(0). */
            b->wait = SW_TIMER;
            b->script_wake_ms = bench.loop.now_ms + 1;
            behave_rearm(b);
        }
        return;
    }
    if (st == LUA_OK) {
        bench.script_done++;
    } else {
        bench.script_errors++;
        const char *msg = lua_tostring(co, -1);
        bot_fail(b, FK_ERROR, "script error: %s", msg ? msg : "(not a string)");
    }
    script_release(b);
}

void script_start(bot *b)
{
    if (!L) return;
    lua_State *co = lua_newthread(L);
    b->co_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    b->co = co;
    lua_sethook(co, step_hook, LUA_MASKCOUNT, HOOK_EVERY);
    lua_rawgeti(co, LUA_REGISTRYINDEX, main_ref);
    int *ud = lua_newuserdatauv(co, sizeof *ud, 0);
    *ud = b->idx;
    luaL_setmetatable(co, BOT_MT);
    b->wait = SW_NONE;
    resume(b, 1);
}

void script_wake(bot *b)
{
    if (!b->co || b->in_script) return;
    int kind = b->wait;
    b->wait = SW_NONE;
    b->script_wake_ms = 0;
    switch (kind) {
    case SW_MOVE:
        lua_pushboolean(b->co, 1);
        resume(b, 1);
        break;
    case SW_CHAT:
        lua_pushnil(b->co); /* timed out */
        resume(b, 1);
        break;
    default: resume(b, 0); break;
    }
}

void script_on_chat(bot *b, const char *text, size_t len)
{
    if (!b->co || b->in_script || b->wait != SW_CHAT || !b->chat_pat) return;
    char plain[1024];
    chat_plain(text, len, plain, sizeof plain);
    size_t pl = strlen(b->chat_pat);
    if (pl && !strstr(plain, b->chat_pat) && !memmem(text, len, b->chat_pat, pl)) return;
    b->wait = SW_NONE;
    b->script_wake_ms = 0;
    lua_pushstring(b->co, plain);
    lua_pushlstring(b->co, text, len);
    resume(b, 2);
}

void script_close(void)
{
    if (L) lua_close(L);
    L = NULL;
}
