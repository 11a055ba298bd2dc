/*
 * plugin_events.c — raising plugin events (plugins.h): the registry of
 * players plugins may see, the event tables handlers get, and what a
 * cancelled event undoes.
 *
 * Dispatch: for each enabled plugin in load order that handles the event,
 * one protected run (plugin_run) builds the event table and calls the
 * plugin's handlers in registration order, each a plugin_call of its own
 * (its own time budget and traceback). What a handler may change
 * (`cancelled`, a chat `message`, a login's refusal) is read back with raw
 * gets (no metamethod runs outside a handler) and handed to the next
 * plugin, so later plugins see what earlier ones decided and may change it
 * again. The event table is a fresh table per plugin per event; `ev:cancel()`
 * (a metatable method) sets ev.cancelled.
 *
 * Move events: plugin_moved marks the player (a flag and a list of ids);
 * at the tick each marked player gets one move event per plugin, with where
 * it was at its last move event (from_x...) and where it is now. A
 * cancelled move teleports the player back there. One protected run per
 * plugin covers every mover of the tick.
 *
 * Invariants:
 *  1. A player is in the registry from its join event to its leave event
 *     (never a closed or freed connection): the registry maps connection
 *     ids to connections, player objects hold ids, so a stale object finds
 *     nothing rather than a freed connection.
 *  2. Events nest (a handler kicks a player: the leave event runs inside
 *     it) at most MAX_NESTING deep; deeper ones are skipped with a warning.
 *  3. A connection closed by a handler gets no further event but its leave.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/log.h"
#include "game/inventory.h"
#include "game/chat.h"
#include "game/entities.h"
#include "game/play.h"
#include "game/plugin_int.h"
#include "proto/packets.h"

#define MAX_NESTING    8
#define CHAT_OUT_MAX   4096 /* bytes of a rewritten chat line */
#define REFUSE_MAX     1024 /* bytes of a login refusal */
#define DEFAULT_REFUSE "You are not allowed to join this server"

/* =============================================================== registry */

struct pent {
    uint32_t id;
    conn *c; /* NULL: a free slot */
    bool moved;
    double fx, fy, fz; /* where the last move event left the player */
};

static struct pent *tab;
static size_t tab_cap, tab_n; /* cap: a power of two, at least twice n */
static uint32_t *movers;
static size_t nmovers, movers_cap;

static size_t slot_of(uint32_t id)
{
    return (id * 2654435761u) & (tab_cap - 1);
}

static struct pent *reg_find(uint32_t id)
{
    if (!tab_cap) return NULL;
    for (size_t i = slot_of(id);; i = (i + 1) & (tab_cap - 1)) {
        if (!tab[i].c) return NULL;
        if (tab[i].id == id) return &tab[i];
    }
}

static bool reg_grow(void)
{
    size_t ncap = tab_cap ? tab_cap * 2 : 64;
    struct pent *n = calloc(ncap, sizeof *n), *old = tab;
    if (!n) return false;
    size_t ocap = tab_cap;
    tab = n;
    tab_cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].c) continue;
        size_t k = slot_of(old[i].id);
        while (tab[k].c) k = (k + 1) & (tab_cap - 1);
        tab[k] = old[i];
    }
    free(old);
    return true;
}

static struct pent *reg_add(conn *c)
{
    if ((tab_n + 1) * 2 > tab_cap && !reg_grow()) return NULL;
    size_t k = slot_of(c->id);
    while (tab[k].c) k = (k + 1) & (tab_cap - 1);
    tab[k] = (struct pent){c->id, c, false, c->player->x, c->player->y, c->player->z};
    tab_n++;
    return &tab[k];
}

/* Linear probing's deletion: later entries of the run move back into the gap. */
static void reg_remove(struct pent *e)
{
    size_t i = (size_t)(e - tab), mask = tab_cap - 1;
    tab[i].c = NULL;
    tab_n--;
    for (size_t j = (i + 1) & mask; tab[j].c; j = (j + 1) & mask) {
        size_t home = slot_of(tab[j].id);
        /* j's entry may fill i if its home is not in (i, j] (cyclically) */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            tab[i] = tab[j];
            tab[j].c = NULL;
            i = j;
        }
    }
}

conn *plugin_player_conn(uint32_t id)
{
    struct pent *e = reg_find(id);
    return e ? e->c : NULL;
}

void plugin_player_teleported(conn *c)
{
    struct pent *e = reg_find(c->id);
    if (e) e->fx = c->player->x, e->fy = c->player->y, e->fz = c->player->z;
}

conn *plugin_player_lookup(const char *s)
{
    mc_uuid u;
    bool is_uuid = (strlen(s) == 36 || strlen(s) == 32) && uuid_parse(s, strlen(s), &u) == 0;
    for (size_t i = 0; i < game.player_count; i++) {
        conn *c = game.players[i];
        if (!reg_find(c->id)) continue;
        if (is_uuid ? memcmp(&u, &c->player->uuid, sizeof u) == 0
                    : strcasecmp(c->player->name, s) == 0)
            return c;
    }
    return NULL;
}

/* ============================================================== dispatch */

/* One event as it goes from plugin to plugin. */
struct ev {
    enum plugin_event type;
    const char *what; /* "chat handler", for the log */
    conn *c;          /* the player, or NULL */
    bool cancelled;
    /* prelogin */
    const char *name, *address;
    const mc_uuid *uuid;
    char *refused; /* REFUSE_MAX bytes; [0] 0: not refused */
    /* chat (message, rewritable) and command (line) */
    buf_t *text;
    const char *source;
    /* blocks */
    int32_t x, y, z, hand, face;
    uint16_t state, old;
    /* lifecycle, tick */
    const char *reason;
    uint64_t tick;
};

static const char *const handler_names[PEV_COUNT] = {
    "prelogin handler", "join handler",  "leave handler",       "chat handler",
    "command handler",  "move handler",  "block_break handler", "block_place handler",
    "interact handler", "death handler", "tick handler",        "start handler",
    "stop handler",
};

static void set_num(lua_State *L, const char *k, lua_Number v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *s, size_t n)
{
    lua_pushlstring(L, s, n);
    lua_setfield(L, -2, k);
}

/* The event table for e, at the top; with its metatable (ev:cancel()). */
static void push_event(lua_State *L, const struct ev *e)
{
    plugin *p = plugin_of(L);
    /* a move has 9 or 10 fields: sized for them at once, not grown */
    lua_createtable(L, 0, e->type == PEV_MOVE ? 12 : 8);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->event_mt_ref);
    lua_setmetatable(L, -2);
    if (e->c) {
        plugin_push_player(L, e->c);
        lua_setfield(L, -2, "player");
    }
    if (e->cancelled) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "cancelled");
    }
    switch (e->type) {
    case PEV_PRELOGIN: {
        char id[37];
        uuid_format(e->uuid, id);
        set_str(L, "name", e->name, strlen(e->name));
        set_str(L, "uuid", id, 36);
        set_str(L, "address", e->address, strlen(e->address));
        break;
    }
    case PEV_CHAT: set_str(L, "message", (const char *)e->text->data, e->text->len); break;
    case PEV_COMMAND:
        set_str(L, "line", (const char *)e->text->data, e->text->len);
        set_str(L, "source", e->source, strlen(e->source));
        break;
    case PEV_BLOCK_BREAK:
    case PEV_BLOCK_PLACE:
    case PEV_INTERACT:
        set_int(L, "x", e->x);
        set_int(L, "y", e->y);
        set_int(L, "z", e->z);
        plugin_push_block(L, e->state);
        lua_setfield(L, -2, "block");
        if (e->type == PEV_BLOCK_PLACE) {
            plugin_push_block(L, e->old);
            lua_setfield(L, -2, "replaced");
        }
        if (e->type == PEV_INTERACT) {
            set_int(L, "face", e->face);
            lua_pushstring(L, e->hand == 1 ? "off" : "main");
            lua_setfield(L, -2, "hand");
        }
        break;
    case PEV_TICK: set_int(L, "tick", (lua_Integer)e->tick); break;
    case PEV_START:
    case PEV_STOP: lua_pushstring(L, e->reason), lua_setfield(L, -2, "reason"); break;
    default: break;
    }
}

/* A string field a handler may have changed (raw: no metamethods), or NULL. */
static const char *raw_string(lua_State *L, int t, const char *k, size_t *len)
{
    lua_pushstring(L, k);
    lua_rawget(L, t);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, len) : NULL;
    lua_pop(L, 1); /* the string stays alive: the table holds it until we are done */
    return s;
}

static bool raw_bool(lua_State *L, int t, const char *k)
{
    lua_pushstring(L, k);
    lua_rawget(L, t);
    bool b = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return b;
}

/* A rewritten chat line: no control characters (formatting codes are fine). */
static bool text_ok(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) return false;
    return true;
}

/* What the handlers left in the table at t, back into e. */
static void read_back(lua_State *L, int t, struct ev *e)
{
    plugin *p = plugin_of(L);
    e->cancelled = raw_bool(L, t, "cancelled");
    size_t n;
    const char *s;
    if (e->type == PEV_CHAT && (s = raw_string(L, t, "message", &n))) {
        if (n > CHAT_OUT_MAX || !text_ok(s, n))
            plugin_error(p, e->what,
                         "ev.message must be at most 4096 bytes without control characters "
                         "(the message was left as it was)");
        else {
            buf_reset(e->text);
            if (n) buf_append(e->text, s, n);
        }
    }
    if (e->type == PEV_PRELOGIN && (s = raw_string(L, t, "refused", &n)))
        snprintf(e->refused, REFUSE_MAX, "%.*s", (int)n, s);
}

/* A handler removed (mc.off) by an earlier one of the same event is not
 * called; its reference may even name another function by now. */
static bool still_registered(const plugin *p, enum plugin_event e, int ref)
{
    for (int i = 0; i < p->nhandlers[e]; i++)
        if (p->handlers[e][i] == ref) return true;
    return false;
}

static int ev_run(lua_State *L, void *arg)
{
    struct ev *e = arg;
    plugin *p = plugin_of(L);
    int refs[PLUGIN_HANDLERS_MAX], n = p->nhandlers[e->type];
    memcpy(refs, p->handlers[e->type], (size_t)n * sizeof refs[0]);
    push_event(L, e);
    int t = lua_gettop(L);
    for (int i = 0; i < n && p->status == PL_ENABLED; i++) {
        if (!still_registered(p, e->type, refs[i])) continue;
        lua_rawgeti(L, LUA_REGISTRYINDEX, refs[i]);
        lua_pushvalue(L, t);
        plugin_call(L, 1, 0, e->what);
    }
    read_back(L, t, e);
    return 0;
}

static bool nesting_ok(enum plugin_event type)
{
    if (plugin_depth < MAX_NESTING) return true;
    log_warn("plugins: a %s nested %d events deep was skipped", handler_names[type], MAX_NESTING);
    return false;
}

static void dispatch(struct ev *e)
{
    e->what = handler_names[e->type];
    if (!nesting_ok(e->type)) return;
    for (int i = 0; i < plugin_count; i++) {
        plugin *p = plugin_list[i];
        if (p->status != PL_ENABLED || !p->nhandlers[e->type]) continue;
        plugin_run(p, ev_run, e, e->what);
        if (e->c && e->c->closed && e->type != PEV_LEAVE) break; /* invariant 3 */
    }
}

void plugin_event_lifecycle(plugin *p, enum plugin_event type, const char *reason)
{
    struct ev e = {.type = type, .what = handler_names[type], .reason = reason};
    if (p->status == PL_ENABLED && p->nhandlers[type]) plugin_run(p, ev_run, &e, e.what);
}

/* ================================================================ events */

static int forget_run(lua_State *L, void *arg)
{
    plugin_forget_player(L, *(uint32_t *)arg);
    return 0;
}

static bool wanted(enum plugin_event e)
{
    return plugin_wanted & (1u << e);
}

bool plugin_event_prelogin(conn *c, const char *name, const mc_uuid *uuid)
{
    if (!wanted(PEV_PRELOGIN)) return true;
    static char refused[REFUSE_MAX];
    refused[0] = 0;
    struct ev e = {
        .type = PEV_PRELOGIN, .name = name, .address = c->ip, .uuid = uuid, .refused = refused};
    dispatch(&e);
    if (c->closed) return false;
    if (!refused[0] && !e.cancelled) return true;
    /* no JSON: the plain reason is sent as {"text": reason} */
    conn_kick_reason(c, KR_OTHER, NULL, refused[0] ? refused : DEFAULT_REFUSE);
    return false;
}

void plugin_event_join(conn *c)
{
    if (c->closed || c->state != CS_PLAY || !c->in_game || reg_find(c->id)) return;
    if (!reg_add(c)) {
        log_error("plugins: out of memory: %s is not seen by plugins", c->player->name);
        return;
    }
    if (!wanted(PEV_JOIN)) return;
    struct ev e = {.type = PEV_JOIN, .c = c};
    dispatch(&e);
}

void plugin_event_leave(conn *c)
{
    struct pent *ent = reg_find(c->id);
    if (!ent) return;
    if (wanted(PEV_LEAVE)) {
        struct ev e = {.type = PEV_LEAVE, .c = c};
        dispatch(&e);
    }
    if ((ent = reg_find(c->id))) reg_remove(ent);
    uint32_t id = c->id;
    for (int i = 0; i < plugin_count; i++)
        if (plugin_list[i]->status == PL_ENABLED)
            plugin_run(plugin_list[i], forget_run, &id, "leave");
}

bool plugin_event_chat(conn *c, const char **msg, size_t *len)
{
    if (!wanted(PEV_CHAT)) return false;
    static buf_t text; /* the line as plugins leave it; valid until the next chat event */
    if (!text.limit) buf_init(&text, CHAT_OUT_MAX + 1);
    buf_reset(&text);
    if (*len) buf_append(&text, *msg, *len);
    struct ev e = {.type = PEV_CHAT, .c = c, .text = &text};
    dispatch(&e);
    if (c->closed || c->state != CS_PLAY) return true;
    if (e.cancelled) {
        chat_count_spam(c); /* a cancelled line still counts against spam */
        return true;
    }
    *msg = text.len ? (const char *)text.data : "";
    *len = text.len;
    return false;
}

bool plugin_event_command(conn *c, const char *source, const char *line, size_t len)
{
    if (!wanted(PEV_COMMAND)) return false;
    buf_t text = {(uint8_t *)line, len, len, len, 0}; /* read only: never appended to */
    struct ev e = {.type = PEV_COMMAND, .c = c, .text = &text, .source = source};
    dispatch(&e);
    return e.cancelled || (c && (c->closed || c->state != CS_PLAY));
}

/* The player's client gets the block (x, y, z) as the server has it. */
static void resync_block(conn *c, int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (c->closed || world_get_block(&game.world, x, y, z, &st) < 0) return;
    buf_reset(&srv->pkt);
    pkt_cb_block_change(&srv->pkt, x, y, z, st);
    conn_send_pkt(c);
}

/* ...and both hands' slots (a predicted placement used an item). */
static void resync_hands(conn *c)
{
    player *p = c->player;
    inventory_touch(p);
    int slots[2] = {36 + p->held_slot, 45};
    for (int i = 0; i < 2 && !c->closed; i++) {
        buf_reset(&srv->pkt);
        c->proto->cb_set_slot(&srv->pkt, 0, ++p->inventory_state, (int16_t)slots[i],
                              p->inventory[slots[i]].item, p->inventory[slots[i]].count);
        conn_send_pkt(c);
    }
}

bool plugin_event_block_break(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state)
{
    if (!wanted(PEV_BLOCK_BREAK)) return false;
    struct ev e = {.type = PEV_BLOCK_BREAK, .c = c, .x = x, .y = y, .z = z, .state = state};
    dispatch(&e);
    if (c->closed) return true;
    if (e.cancelled) resync_block(c, x, y, z);
    return e.cancelled;
}

bool plugin_event_block_place(conn *c, int32_t x, int32_t y, int32_t z, uint16_t state,
                              uint16_t old)
{
    if (!wanted(PEV_BLOCK_PLACE)) return false;
    struct ev e = {
        .type = PEV_BLOCK_PLACE, .c = c, .x = x, .y = y, .z = z, .state = state, .old = old};
    dispatch(&e);
    if (!e.cancelled && !c->closed) return false;
    play_set_block(x, y, z, old); /* the last change of the tick wins: viewers see `old` */
    if (!c->closed) resync_hands(c);
    return true;
}

bool plugin_event_interact(conn *c, int32_t hand, int32_t x, int32_t y, int32_t z, int32_t face)
{
    if (!wanted(PEV_INTERACT)) return false;
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0)
        return false; /* not loaded: refused later */
    struct ev e = {.type = PEV_INTERACT,
                   .c = c,
                   .x = x,
                   .y = y,
                   .z = z,
                   .state = st,
                   .hand = hand,
                   .face = face};
    dispatch(&e);
    if (c->closed) return true;
    if (!e.cancelled) return false;
    static const int8_t off[6][3] = {{0, -1, 0}, {0, 1, 0},  {0, 0, -1},
                                     {0, 0, 1},  {-1, 0, 0}, {1, 0, 0}};
    resync_block(c, x, y, z);
    if (face >= 0 && face < 6)
        resync_block(c, x + off[face][0], y + off[face][1], z + off[face][2]);
    resync_hands(c);
    return true;
}

void plugin_event_death(conn *c)
{
    if (!wanted(PEV_DEATH) || !reg_find(c->id)) return;
    struct ev e = {.type = PEV_DEATH, .c = c};
    dispatch(&e);
}

/* ================================================================== moves */

void plugin_moved(conn *c)
{
    struct pent *e = reg_find(c->id);
    if (!e || e->moved) return;
    if (nmovers == movers_cap) {
        size_t ncap = movers_cap ? movers_cap * 2 : 256;
        uint32_t *n = realloc(movers, ncap * sizeof *n);
        if (!n) return; /* no move event this tick */
        movers = n;
        movers_cap = ncap;
    }
    e->moved = true;
    movers[nmovers++] = c->id;
}

/* One mover of the tick, as the batch goes from plugin to plugin. */
struct mover {
    uint32_t id;
    bool cancelled;
};

struct move_batch {
    struct mover *m;
    size_t n;
};

static struct mover *batch;
static size_t batch_cap;

static const char *const move_keys[] = {"x",     "y",      "z",      "yaw",
                                        "pitch", "from_x", "from_y", "from_z"};

static int moves_run(lua_State *L, void *arg)
{
    struct move_batch *b = arg;
    plugin *p = plugin_of(L);
    int refs[PLUGIN_HANDLERS_MAX], n = p->nhandlers[PEV_MOVE];
    memcpy(refs, p->handlers[PEV_MOVE], (size_t)n * sizeof refs[0]);
    int base = lua_gettop(L);
    for (size_t i = 0; i < b->n && p->status == PL_ENABLED; i++) {
        struct pent *e = reg_find(b->m[i].id);
        if (!e || e->c->closed) continue;
        const player *pl = e->c->player;
        struct ev ev = {.type = PEV_MOVE, .c = e->c, .cancelled = b->m[i].cancelled};
        push_event(L, &ev);
        int t = lua_gettop(L);
        const double v[] = {pl->x, pl->y, pl->z, pl->yaw, pl->pitch, e->fx, e->fy, e->fz};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) set_num(L, move_keys[k], v[k]);
        for (int h = 0; h < n && p->status == PL_ENABLED; h++) {
            if (!still_registered(p, PEV_MOVE, refs[h])) continue;
            lua_rawgeti(L, LUA_REGISTRYINDEX, refs[h]);
            lua_pushvalue(L, t);
            plugin_call(L, 1, 0, handler_names[PEV_MOVE]);
        }
        b->m[i].cancelled = raw_bool(L, t, "cancelled");
        lua_settop(L, base);
    }
    return 0;
}

/* Move events raised and the time their part of the tick took (everything:
 * the batch, every plugin's handlers, the results applied). */
static uint64_t move_events;
static int64_t move_ns;

void plugin_move_stats(uint64_t *events, int64_t *ns)
{
    *events = move_events;
    *ns = move_ns;
}

static void moves_tick(void)
{
    if (!nmovers) return;
    int64_t t0 = clock_ns();
    if (batch_cap < nmovers) {
        struct mover *n = realloc(batch, nmovers * sizeof *n);
        if (!n) {
            nmovers = 0;
            return;
        }
        batch = n;
        batch_cap = nmovers;
    }
    size_t n = 0;
    for (size_t i = 0; i < nmovers; i++) {
        struct pent *e = reg_find(movers[i]);
        if (!e) continue;
        e->moved = false;
        batch[n++] = (struct mover){movers[i], false};
    }
    nmovers = 0;
    if (wanted(PEV_MOVE) && nesting_ok(PEV_MOVE)) {
        struct move_batch b = {batch, n};
        for (int i = 0; i < plugin_count; i++) {
            plugin *p = plugin_list[i];
            if (p->status == PL_ENABLED && p->nhandlers[PEV_MOVE])
                plugin_run(p, moves_run, &b, handler_names[PEV_MOVE]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct pent *e = reg_find(batch[i].id);
        if (!e || e->c->closed) continue;
        player *pl = e->c->player;
        if (batch[i].cancelled)
            ent_teleport(e->c, e->fx, e->fy, e->fz, pl->yaw, pl->pitch);
        else
            e->fx = pl->x, e->fy = pl->y, e->fz = pl->z;
    }
    if (wanted(PEV_MOVE)) {
        move_events += n;
        move_ns += clock_ns() - t0;
    }
}

void plugin_events_tick(uint64_t tick)
{
    moves_tick();
    if (!wanted(PEV_TICK)) return;
    struct ev e = {.type = PEV_TICK, .tick = tick};
    dispatch(&e);
}

void plugin_events_free(void)
{
    free(tab);
    free(movers);
    free(batch);
    tab = NULL;
    movers = NULL;
    batch = NULL;
    tab_cap = tab_n = nmovers = movers_cap = batch_cap = 0;
}
