/*
 * mgmt_server.c — the management methods over the server itself:
 * minecraft:server/... (status, save, stop, system_message),
 * serversettings/... (a getter and a setter per setting), gamerules,
 * rpc.discover, and the method table (mgmt_table) in vanilla's order.
 *
 * Settings, as vanilla's MinecraftServerSettingsServiceImpl: a setter
 * changes the running value and (for those kept in server.properties)
 * rewrites that key's line, returning the value now in force. mcserv acts
 * on the settings in the table with `apply`; the others (allow_flight,
 * force_game_mode, pause_when_empty_seconds, accept_transfers) answer
 * -32601 "... mcserv does not act on ..." for the setter, and their getter
 * the value kept (or the same error when 1.20.1 has no such key).
 *
 * server.properties writes: a change marks its key; one write at a time
 * runs on a worker (read the file, config_replace_key every marked key,
 * fio_write_atomic), and a change during it queues one more. At shutdown a
 * queued write is done inline (mgmt_settings_flush).
 *
 * Invariants:
 *  1. A setter validates before it changes anything: an out-of-range value
 *     is -32602 with the range, and the setting is as it was.
 *  2. The worker touches only its job (workers.h invariant 1): the keys
 *     and values are copied into it on the game thread.
 *  3. server/save answers when its save round is over (a deferred reply):
 *     true if everything was written, false if anything failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/mgmt_int.h"
#include "core/config.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/workers.h"
#include "game/chat.h"
#include "game/game.h"
#include "game/lists.h"
#include "net/server.h"
#include "world/store.h"

#define PROPS_FILE "server.properties"

/* ----------------------------------------------------------- server */

static int server_status(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call, (void)param;
    *result = mgmt_server_state();
    return MGMT_OK;
}

struct save_wait {
    struct mgmt_reply *reply;
    size_t slot;
    unsigned client_id;
};

static void save_done(void *arg, const struct store_report *r)
{
    struct save_wait *w = arg;
    bool ok = r && !store_report_failed(r);
    if (!ok && r) mgmt_log(w->client_id, "Save failed: some of the world is not on disk");
    mgmt_save_poll(); /* server/saved before the answer, as vanilla's synchronous save */
    mgmt_reply_fill(w->reply, w->slot, json_boolean(ok));
    free(w);
}

static int server_save(mgmt_call *call, json_t *param, json_t **result)
{
    if (!json_is_boolean(param))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "flush: expected true or false");
    if (!call->pending_allowed)
        return mgmt_call_error(call, MGMT_SERVER_BUSY,
                               "%d requests of this connection wait already", MGMT_PENDING_MAX);
    struct save_wait *w = malloc(sizeof *w);
    if (!w) return mgmt_call_error(call, MGMT_INTERNAL_ERROR, "out of memory");
    *w = (struct save_wait){call->reply, call->slot, call->client_id};
    mgmt_log(call->client_id, "Save the game%s", json_is_true(param) ? " (flush)" : "");
    if (!store_save_all_notify(json_is_true(param), save_done, w)) {
        free(w);
        *result = json_false(); /* no world folder, or too many saves waiting */
        return MGMT_OK;
    }
    return MGMT_DEFERRED;
}

static int server_stop(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param;
    mgmt_log(call->client_id, "Stopping the server");
    loop_stop(srv->loop); /* the pass ends, the answer and server/stopping go out, then the stop */
    *result = json_true();
    return MGMT_OK;
}

/* vanilla acceptsSystemMessages: an overlay always, chat unless hidden. */
static void system_to(conn *c, const char *json, size_t len, bool overlay)
{
    if (!c || c->closed || c->state != CS_PLAY) return;
    if (!overlay && c->player && c->player->chat_mode == 2) return;
    buf_reset(&srv->pkt);
    c->proto->cb_system_chat(&srv->pkt, json, len, overlay);
    conn_send_pkt(c);
}

static int server_system_message(mgmt_call *call, json_t *param, json_t **result)
{
    json_t *msg = mgmt_opt(param, "message"), *ov = mgmt_opt(param, "overlay");
    json_t *to = mgmt_opt(param, "receivingPlayers");
    if (!json_is_object(param) || !json_is_object(msg) || !json_is_boolean(ov) ||
        (to && !json_is_array(to) && !json_is_null(to)))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                               "expected {message: {literal | translatable, ...}, overlay: "
                               "boolean, receivingPlayers?: [player]}");
    buf_t j, plain;
    buf_init(&j, 256u << 10);
    buf_init(&plain, 256u << 10);
    bool have = mgmt_message_component(msg, &j, &plain) && !j.failed && !plain.failed;
    bool overlay = json_is_true(ov), sent = false;
    if (have && json_is_array(to)) {
        for (size_t i = 0; i < json_array_size(to); i++)
            system_to(mgmt_online(json_array_get(to, i)), (const char *)j.data, j.len, overlay);
        sent = json_array_size(to) > 0;
    } else if (have) {
        buf_append(&plain, "", 1);
        mgmt_log(call->client_id, "Broadcast a system message: %s", (const char *)plain.data);
        for (size_t i = game.player_count; i-- > 0;)
            if (i < game.player_count)
                system_to(game.players[i], (const char *)j.data, j.len, overlay);
        sent = true;
    }
    buf_free(&j);
    buf_free(&plain);
    *result = json_boolean(sent);
    return MGMT_OK;
}

/* ------------------------------------------------- server.properties */

#define PROPS_KEYS_MAX 24

static struct props_job {
    job j;
    size_t n;
    char key[PROPS_KEYS_MAX][64];
    char value[PROPS_KEYS_MAX][1024];
    int err;
    const char *step;
} props;
static struct {
    const char *key;
    char value[1024];
} dirty[PROPS_KEYS_MAX];
static size_t ndirty;
static bool props_writing, props_final;

static void props_run(job *jb, worker_ctx *w)
{
    (void)w;
    struct props_job *p = (struct props_job *)jb;
    uint8_t *text = NULL;
    size_t len = 0;
    p->err = fio_read_file(PROPS_FILE, 1u << 20, &text, &len);
    if (p->err == -ENOENT) p->err = 0;
    p->step = "read";
    char *cur = p->err ? NULL : malloc(len + 1);
    if (cur) {
        if (len) memcpy(cur, text, len);
        cur[len] = 0;
    } else if (!p->err) {
        p->err = -ENOMEM;
    }
    free(text);
    for (size_t i = 0; cur && i < p->n; i++) {
        size_t nlen;
        char *next = config_replace_key(cur, len, p->key[i], p->value[i], &nlen);
        free(cur);
        cur = next;
        len = nlen;
        if (!cur) p->err = -ENOMEM, p->step = "edit";
    }
    if (cur) {
        p->step = "write";
        p->err = fio_write_atomic(PROPS_FILE, cur, len);
    }
    free(cur);
}

static void props_start(void);

static void props_done(job *jb)
{
    if (jb->cancelled) props_run(jb, NULL); /* the pool is stopping: inline */
    if (props.err)
        log_error("cannot save the management protocol's settings in %s (%s): %s", PROPS_FILE,
                  props.step, strerror(-props.err));
    props_writing = false;
    if (ndirty) {
        if (jb->cancelled || props_final) {
            props_final = true;
            mgmt_settings_flush();
        } else {
            props_start();
        }
    }
}

/* Moves the marked keys into the job (invariant 2) and starts it. */
static void props_fill(void)
{
    memset(&props, 0, sizeof props);
    for (size_t i = 0; i < ndirty; i++) {
        snprintf(props.key[i], sizeof props.key[i], "%s", dirty[i].key);
        snprintf(props.value[i], sizeof props.value[i], "%s", dirty[i].value);
    }
    props.n = ndirty;
    ndirty = 0;
    props.j.run = props_run;
    props.j.done = props_done;
}

static void props_start(void)
{
    props_fill();
    props_writing = true;
    workers_submit(&props.j);
}

void mgmt_settings_flush(void)
{
    props_final = true;
    if (props_writing || !ndirty) return; /* props_done finishes it inline */
    props_fill();
    props_run(&props.j, NULL);
    if (props.err)
        log_error("cannot save the management protocol's settings in %s (%s): %s", PROPS_FILE,
                  props.step, strerror(-props.err));
}

/* Marks key=value for the next write of server.properties. */
static void persist(const char *key, const char *value)
{
    size_t i = 0;
    while (i < ndirty && strcmp(dirty[i].key, key) != 0) i++;
    if (i == PROPS_KEYS_MAX) return; /* cannot happen: fewer keys than slots */
    dirty[i].key = key;
    snprintf(dirty[i].value, sizeof dirty[i].value, "%s", value);
    if (i == ndirty) ndirty++;
    if (props_final && !props_writing)
        mgmt_settings_flush();
    else if (!props_writing)
        props_start();
}

/* -------------------------------------------------------- settings */

enum kind { S_BOOL, S_INT, S_DIFFICULTY, S_GAMEMODE, S_STRING };

static const char *const difficulty_names[] = {"peaceful", "easy", "normal", "hard"};
static const char *const gamemode_names[] = {"survival", "creative", "adventure", "spectator"};

/* The value of one setting as JSON, and its change. */
struct setting {
    const char *name; /* serversettings/<name> */
    const char *get_desc, *set_desc;
    const char *param, *result; /* vanilla's parameter and result names */
    enum kind kind;
    const char *key;    /* server.properties key, NULL: not kept there */
    long min, max;      /* S_INT range */
    const char *absent; /* not acted on: why (NULL: acted on) */
    bool no_key;        /* not acted on and no value in 1.20.1 either */
    int (*get)(void);   /* S_BOOL, S_INT, S_DIFFICULTY, S_GAMEMODE */
    void (*apply)(long v, const char *s);
};

static int get_autosave(void)
{
    return store_autosave_enabled();
}
static void set_autosave(long v, const char *s)
{
    (void)s;
    store_set_autosave(v != 0);
}
static int get_difficulty(void)
{
    const level_info *li = store_active() ? store_level() : NULL;
    return li && li->loaded ? li->difficulty : srv->cfg.difficulty;
}
static void set_difficulty(long v, const char *s)
{
    (void)s;
    srv->cfg.difficulty = (int)v;
    if (store_active()) store_level()->difficulty = (int)v; /* level.dat at the next save */
}
static int get_enforce(void)
{
    return srv->cfg.enforce_whitelist;
}
static void set_enforce(long v, const char *s)
{
    (void)s;
    srv->cfg.enforce_whitelist = v != 0;
    lists_kick_unlisted();
}
static int get_use(void)
{
    return lists_whitelist_enabled();
}
static void set_use(long v, const char *s)
{
    (void)s;
    lists_whitelist_set_enabled(v != 0); /* writes white-list itself (game/lists.c) */
    lists_kick_unlisted();
}
#define INT_FIELD(fn, field, after)                                                                \
    static int get_##fn(void)                                                                      \
    {                                                                                              \
        return srv->cfg.field;                                                                     \
    }                                                                                              \
    static void set_##fn(long v, const char *s)                                                    \
    {                                                                                              \
        (void)s;                                                                                   \
        srv->cfg.field = (int)v;                                                                   \
        after;                                                                                     \
    }
INT_FIELD(max_players, max_players, status_invalidate())
INT_FIELD(idle, player_idle_timeout, (void)0)
INT_FIELD(spawn_protection, spawn_protection, (void)0)
INT_FIELD(gamemode, gamemode, if (store_active()) store_level()->game_type = (int)v)
INT_FIELD(view, view_distance, (void)0)
INT_FIELD(simulation, simulation_distance, (void)0)
INT_FIELD(heartbeat, status_heartbeat_interval, mgmt_heartbeat_reset())
INT_FIELD(op_level, op_permission_level, (void)0)
INT_FIELD(hide, hide_online_players, status_invalidate())
INT_FIELD(status, enable_status, (void)0)
INT_FIELD(broadcast, entity_broadcast_range_percentage, (void)0)
INT_FIELD(allow_flight, allow_flight, (void)0)
INT_FIELD(force_gamemode, force_gamemode, (void)0)
static void set_motd(long v, const char *s)
{
    (void)v;
    snprintf(srv->cfg.motd, sizeof srv->cfg.motd, "%s", s);
    status_invalidate();
}

static const struct setting settings[] = {
    {"autosave", "Get whether automatic world saving is enabled on the server",
     "Enable or disable automatic world saving on the server", "enable", "enabled", S_BOOL, NULL, 0,
     1, NULL, false, get_autosave, set_autosave},
    {"difficulty", "Get the current difficulty level of the server",
     "Set the difficulty level of the server", "difficulty", "difficulty", S_DIFFICULTY,
     "difficulty", 0, 3, NULL, false, get_difficulty, set_difficulty},
    {"enforce_allowlist",
     "Get whether allowlist enforcement is enabled (kicks players immediately when removed from "
     "allowlist)",
     "Enable or disable allowlist enforcement (when enabled, players are kicked immediately upon "
     "removal from allowlist)",
     "enforce", "enforced", S_BOOL, "enforce-whitelist", 0, 1, NULL, false, get_enforce,
     set_enforce},
    {"use_allowlist", "Get whether the allowlist is enabled on the server",
     "Enable or disable the allowlist on the server (controls whether only allowlisted players "
     "can join)",
     "use", "used", S_BOOL, NULL, 0, 1, NULL, false, get_use, set_use},
    {"max_players", "Get the maximum number of players allowed to connect to the server",
     "Set the maximum number of players allowed to connect to the server", "max", "max", S_INT,
     "max-players", 0, 1000000, NULL, false, get_max_players, set_max_players},
    {"pause_when_empty_seconds",
     "Get the number of seconds before the game is automatically paused when no players are "
     "online",
     "Set the number of seconds before the game is automatically paused when no players are "
     "online",
     "seconds", "seconds", S_INT, NULL, 0, 0,
     "mcserv does not pause (1.20.1 has no pause-when-empty-seconds)", true, NULL, NULL},
    {"player_idle_timeout",
     "Get the number of seconds before idle players are automatically kicked from the server",
     "Set the number of seconds before idle players are automatically kicked from the server",
     "seconds", "seconds", S_INT, "player-idle-timeout", 0, 1000000, NULL, false, get_idle,
     set_idle},
    {"allow_flight", "Get whether flight is allowed for players in Survival mode",
     "Allow or disallow flight for players in Survival mode", "allow", "allowed", S_BOOL,
     "allow-flight", 0, 1, "mcserv has no flight check that allow-flight would relax", false,
     get_allow_flight, set_allow_flight},
    {"motd", "Get the server's message of the day displayed to players",
     "Set the server's message of the day displayed to players", "message", "message", S_STRING,
     "motd", 0, (long)sizeof(((struct server_config *)0)->motd) - 1, NULL, false, NULL, set_motd},
    {"spawn_protection_radius",
     "Get the spawn protection radius in blocks (only operators can edit within this area)",
     "Set the spawn protection radius in blocks (only operators can edit within this area)",
     "radius", "radius", S_INT, "spawn-protection", 0, 29999984, NULL, false, get_spawn_protection,
     set_spawn_protection},
    {"force_game_mode", "Get whether players are forced to use the server's default game mode",
     "Enable or disable forcing players to use the server's default game mode", "force", "forced",
     S_BOOL, "force-gamemode", 0, 1,
     "mcserv keeps each player's own game mode; force-gamemode is not acted on yet", false,
     get_force_gamemode, set_force_gamemode},
    {"game_mode", "Get the server's default game mode", "Set the server's default game mode",
     "mode", "mode", S_GAMEMODE, "gamemode", 0, 3, NULL, false, get_gamemode, set_gamemode},
    {"view_distance", "Get the server's view distance in chunks",
     "Set the server's view distance in chunks", "distance", "distance", S_INT, "view-distance", 2,
     32, NULL, false, get_view, set_view},
    {"simulation_distance", "Get the server's simulation distance in chunks",
     "Set the server's simulation distance in chunks", "distance", "distance", S_INT,
     "simulation-distance", 3, 32, NULL, false, get_simulation, set_simulation},
    {"accept_transfers", "Get whether the server accepts player transfers from other servers",
     "Enable or disable accepting player transfers from other servers", "accept", "accepted",
     S_BOOL, NULL, 0, 1, "1.20.1 has no transfers (they came in 1.20.5)", true, NULL, NULL},
    {"status_heartbeat_interval", "Get the interval in seconds between server status heartbeats",
     "Set the interval in seconds between server status heartbeats", "seconds", "seconds", S_INT,
     "status-heartbeat-interval", 0, 86400, NULL, false, get_heartbeat, set_heartbeat},
    {"operator_user_permission_level", "Get default operator permission level",
     "Set default operator permission level", "level", "level", S_INT, "op-permission-level", 1, 4,
     NULL, false, get_op_level, set_op_level},
    {"hide_online_players",
     "Get whether the server hides online player information from status queries",
     "Enable or disable hiding online player information from status queries", "hide", "hidden",
     S_BOOL, "hide-online-players", 0, 1, NULL, false, get_hide, set_hide},
    {"status_replies", "Get whether the server responds to connection status requests",
     "Enable or disable the server responding to connection status requests", "enable", "enabled",
     S_BOOL, "enable-status", 0, 1, NULL, false, get_status, set_status},
    {"entity_broadcast_range", "Get the entity broadcast range as a percentage",
     "Set the entity broadcast range as a percentage", "percentage_points", "percentage_points",
     S_INT, "entity-broadcast-range-percentage", 10, 1000, NULL, false, get_broadcast,
     set_broadcast},
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

static const struct setting *setting_of(const char *method)
{
    const char *name = method + strlen("minecraft:serversettings/");
    for (size_t i = 0; i < NSETTINGS; i++) {
        size_t n = strlen(settings[i].name);
        if (strncmp(name, settings[i].name, n) == 0 && (!name[n] || strcmp(name + n, "/set") == 0))
            return &settings[i];
    }
    return NULL;
}

static json_t *setting_json(const struct setting *s)
{
    switch (s->kind) {
    case S_BOOL: return json_boolean(s->get());
    case S_INT: return json_integer(s->get());
    case S_DIFFICULTY: return json_string(difficulty_names[s->get() & 3]);
    case S_GAMEMODE: return json_string(gamemode_names[s->get() & 3]);
    case S_STRING: return json_string(srv->cfg.motd);
    }
    return json_null();
}

static int settings_get(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param;
    const struct setting *s = setting_of(call->method);
    if (s->no_key)
        return mgmt_call_error(call, MGMT_METHOD_NOT_FOUND, "%s: %s", call->method, s->absent);
    *result = setting_json(s);
    return MGMT_OK;
}

/* The parameter as the setting's value (invariant 1): MGMT_OK with *v (or
 * *text for a string), or -32602. */
static int setting_value(mgmt_call *call, const struct setting *s, json_t *param, long *v,
                         const char **text)
{
    const char *const *names = s->kind == S_DIFFICULTY ? difficulty_names : gamemode_names;
    switch (s->kind) {
    case S_BOOL:
        if (!json_is_boolean(param))
            return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected true or false",
                                   s->param);
        *v = json_is_true(param);
        return MGMT_OK;
    case S_INT:
        if (!json_is_integer(param))
            return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected an integer", s->param);
        *v = (long)json_integer_value(param);
        if (s->key && strcmp(s->name, "entity_broadcast_range") == 0) /* vanilla clamps */
            *v = *v < 10 ? 10 : *v > 1000 ? 1000 : *v;
        if (*v < s->min || *v > s->max)
            return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected %ld to %ld, got %ld",
                                   s->param, s->min, s->max, *v);
        return MGMT_OK;
    case S_DIFFICULTY:
    case S_GAMEMODE:
        for (long i = 0; json_is_string(param) && i < 4; i++)
            if (strcmp(json_string_value(param), names[i]) == 0) {
                *v = i;
                return MGMT_OK;
            }
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected one of %s, %s, %s, %s",
                               s->param, names[0], names[1], names[2], names[3]);
    case S_STRING:
        if (!json_is_string(param) || strlen(json_string_value(param)) > (size_t)s->max)
            return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                                   "%s: expected a string of at most %ld bytes", s->param, s->max);
        *text = json_string_value(param);
        return MGMT_OK;
    }
    return MGMT_INTERNAL_ERROR;
}

static int settings_set(mgmt_call *call, json_t *param, json_t **result)
{
    const struct setting *s = setting_of(call->method);
    if (s->absent)
        return mgmt_call_error(call, MGMT_METHOD_NOT_FOUND, "%s: %s", call->method, s->absent);
    long v = 0;
    const char *text = NULL;
    int rc = setting_value(call, s, param, &v, &text);
    if (rc != MGMT_OK) return rc;
    json_t *before = setting_json(s);
    s->apply(v, text);
    json_t *after = setting_json(s);
    char *b = json_dumps(before, JSON_ENCODE_ANY), *a = json_dumps(after, JSON_ENCODE_ANY);
    mgmt_log(call->client_id, "Update %s from %s to %s", s->name, b ? b : "?", a ? a : "?");
    free(b);
    free(a);
    json_decref(before);
    if (s->key) {
        char value[1024];
        if (s->kind == S_STRING)
            snprintf(value, sizeof value, "%s", text);
        else if (s->kind == S_BOOL)
            snprintf(value, sizeof value, "%s", v ? "true" : "false");
        else if (s->kind == S_DIFFICULTY || s->kind == S_GAMEMODE)
            snprintf(value, sizeof value, "%s",
                     (s->kind == S_DIFFICULTY ? difficulty_names : gamemode_names)[v]);
        else
            snprintf(value, sizeof value, "%ld", v);
        persist(s->key, value);
    }
    *result = after;
    return MGMT_OK;
}

/* ------------------------------------------------------- gamerules */

static json_t *typed_rule(size_t i)
{
    const char *key;
    bool is_bool;
    char value[64];
    if (!mgmt_rules->get(i, &key, &is_bool, value, sizeof value)) return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(key));
    json_object_set_new(o, "value", json_string(value));
    json_object_set_new(o, "type", json_string(is_bool ? "boolean" : "integer"));
    return o;
}

static int gamerules_get(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call, (void)param;
    json_t *a = json_array();
    for (size_t i = 0; mgmt_rules && i < mgmt_rules->count(); i++) {
        json_t *r = typed_rule(i);
        if (r) json_array_append_new(a, r);
    }
    *result = a;
    return MGMT_OK;
}

static int gamerules_update(mgmt_call *call, json_t *param, json_t **result)
{
    json_t *k = mgmt_opt(param, "key"), *v = mgmt_opt(param, "value");
    char value[64];
    if (!json_is_string(k) || !v)
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "expected {key: string, value: string}");
    if (json_is_string(v)) /* 1.21.9 sends text; a typed value (later versions) is taken too */
        snprintf(value, sizeof value, "%s", json_string_value(v));
    else if (json_is_boolean(v))
        snprintf(value, sizeof value, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_integer(v))
        snprintf(value, sizeof value, "%lld", (long long)json_integer_value(v));
    else
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "value: expected a string");
    const char *key = json_string_value(k);
    size_t i = 0, n = mgmt_rules ? mgmt_rules->count() : 0;
    const char *rk = NULL;
    bool is_bool;
    char cur[64];
    for (; i < n; i++)
        if (mgmt_rules->get(i, &rk, &is_bool, cur, sizeof cur) && strcmp(rk, key) == 0) break;
    if (i == n)
        return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                               "mcserv does not act on the game rule %.100s (yet)", key);
    char err[256] = "";
    if (mgmt_rules->set(key, value, err, sizeof err) < 0)
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s", err);
    mgmt_log(call->client_id, "Update game rule %s from %s to %s", key, cur, value);
    *result = typed_rule(i);
    return *result ? MGMT_OK : mgmt_call_error(call, MGMT_INTERNAL_ERROR, "rule vanished");
}

/* ------------------------------------------------------ rpc.discover */

static int discover(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call, (void)param;
    *result = mgmt_discover();
    return MGMT_OK;
}

/* ----------------------------------------------------------- table */

#define BOOL_S "{\"type\":\"boolean\"}"

const struct mgmt_method mgmt_server_methods[] = {
    {"minecraft:server/status", "Get server status", NULL, NULL, "status",
     "{\"$ref\":\"#/components/schemas/server_state\"}", server_status, false},
    {"minecraft:server/save", "Save server state", "flush", BOOL_S, "saving", BOOL_S, server_save,
     false},
    {"minecraft:server/stop", "Stop server", NULL, NULL, "stopping", BOOL_S, server_stop, false},
    {"minecraft:server/system_message", "Send a system message", "message",
     "{\"$ref\":\"#/components/schemas/system_message\"}", "sent", BOOL_S, server_system_message,
     false},
};
const size_t mgmt_server_methods_n = sizeof mgmt_server_methods / sizeof mgmt_server_methods[0];

static const char *schema_of(enum kind k)
{
    switch (k) {
    case S_BOOL: return BOOL_S;
    case S_INT: return "{\"type\":\"integer\"}";
    case S_DIFFICULTY: return "{\"$ref\":\"#/components/schemas/difficulty\"}";
    case S_GAMEMODE: return "{\"$ref\":\"#/components/schemas/game_type\"}";
    case S_STRING: return "{\"type\":\"string\"}";
    }
    return "{}";
}

const struct mgmt_table *mgmt_table(void)
{
    static struct mgmt_method all[96];
    static char names[NSETTINGS * 2][96];
    static struct mgmt_table t = {all, 0};
    if (t.n) return &t;
    size_t n = 0;
    for (size_t i = 0; i < mgmt_list_methods_n; i++) all[n++] = mgmt_list_methods[i];
    for (size_t i = 0; i < mgmt_server_methods_n; i++) all[n++] = mgmt_server_methods[i];
    for (size_t i = 0; i < NSETTINGS; i++) {
        const struct setting *s = &settings[i];
        const char *schema = schema_of(s->kind);
        snprintf(names[2 * i], sizeof names[0], "minecraft:serversettings/%s", s->name);
        snprintf(names[2 * i + 1], sizeof names[0], "minecraft:serversettings/%s/set", s->name);
        all[n++] = (struct mgmt_method){names[2 * i], s->get_desc, NULL,         NULL,
                                        s->result,    schema,      settings_get, false};
        all[n++] = (struct mgmt_method){names[2 * i + 1], s->set_desc, s->param,     schema,
                                        s->result,        schema,      settings_set, false};
    }
    all[n++] = (struct mgmt_method){"minecraft:gamerules",
                                    "Get the available game rule keys and their current values",
                                    NULL,
                                    NULL,
                                    "gamerules",
                                    "{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/"
                                    "schemas/typed_game_rule\"}}",
                                    gamerules_get,
                                    false};
    all[n++] = (struct mgmt_method){"minecraft:gamerules/update",
                                    "Update game rule value",
                                    "gamerule",
                                    "{\"$ref\":\"#/components/schemas/untyped_game_rule\"}",
                                    "gamerule",
                                    "{\"$ref\":\"#/components/schemas/typed_game_rule\"}",
                                    gamerules_update,
                                    false};
    all[n++] = (struct mgmt_method){"minecraft:rpc.discover", "",       NULL, NULL, "result",
                                    "{\"type\":\"string\"}",  discover, true};
    t.n = n;
    return &t;
}
