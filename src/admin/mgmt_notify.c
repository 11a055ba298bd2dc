/*
 * mgmt_notify.c — the management protocol's notifications (vanilla's
 * outgoing methods, minecraft:notification/...), the status heartbeat, the
 * JSON of the shared schemas (player, operator, bans) and rpc.discover.
 *
 * A notification is {"jsonrpc":"2.0","method":"minecraft:notification/<x>",
 * "params":[<value>]} (no "params" when it has none), as vanilla's
 * JsonRPCUtils.createRequest builds it; it is encoded once and the same
 * text queued to every open connection (mgmt_ws_broadcast).
 *
 * Invariants:
 *  1. Nothing is built when no client is connected (mgmt.h invariant 1).
 *  2. server/started is sent once, at the first loop pass; server/stopping
 *     once, when the loop is asked to stop or at mgmt_stop.
 *  3. The heartbeat runs only with status-heartbeat-interval > 0, at most
 *     once per pass.
 *  4. server/saving and server/saved follow the save rounds: each round
 *     that starts is one saving, each that ends one saved (rounds that
 *     start and end within one pass: both, in that order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admin/mgmt_int.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/log.h"
#include "data/version.h"
#include "game/chat.h"
#include "game/game.h"
#include "game/lists_file.h"
#include "game/ops.h"
#include "net/server.h"
#include "world/store.h"

#define NOTE "minecraft:notification/"

bool mgmt_server_started;
const struct mgmt_gamerules *mgmt_rules;
static bool stopping_sent;
static int64_t next_heartbeat_ms;

void mgmt_gamerules_provide(const struct mgmt_gamerules *g)
{
    mgmt_rules = g;
}

/* ---------------------------------------------------- schema objects */

json_t *mgmt_player_json(const char *name, const mc_uuid *uuid)
{
    char id[37];
    uuid_format(uuid, id);
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(id));
    json_object_set_new(o, "name", json_string(name));
    return o;
}

void mgmt_iso8601(int64_t epoch, char out[32])
{
    time_t t = (time_t)epoch;
    struct tm tm;
    if (!gmtime_r(&t, &tm)) {
        snprintf(out, 32, "1970-01-01T00:00:00Z");
        return;
    }
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

int mgmt_parse_iso8601(const char *s, int64_t *epoch)
{
    int y, mo, d, h, mi, sec, used = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &used) != 6 ||
        used != 19)
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || y < 0) return -1;
    const char *p = s + 19;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++) continue; /* fractions of a second: dropped */
    int64_t off = 0;
    if (*p == 'Z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int oh, om, n = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) != 2 || n != 5 || oh > 18 || om > 59)
            return -1;
        off = (*p == '-' ? -1 : 1) * (int64_t)(oh * 3600 + om * 60);
        p += 6;
    } else {
        return -1;
    }
    if (*p) return -1;
    *epoch = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec - off;
    return 0;
}

/* reason, source, expires of a ban: reason and expires left out at their
 * defaults, as vanilla's Optional fields. */
static void ban_fields(json_t *o, const struct list_entry *e)
{
    if (strcmp(e->reason, LIST_DEFAULT_WHY) != 0)
        json_object_set_new(o, "reason", json_string(e->reason));
    json_object_set_new(o, "source", json_string(e->source));
    if (e->expires.epoch != LIST_FOREVER) {
        char t[32];
        mgmt_iso8601(e->expires.epoch, t);
        json_object_set_new(o, "expires", json_string(t));
    }
}

json_t *mgmt_list_entry_json(int kind, const struct list_entry *e)
{
    if (kind == LIST_WHITELIST) return mgmt_player_json(e->name, &e->uuid);
    json_t *o = json_object();
    if (kind == LIST_BANNED_IPS)
        json_object_set_new(o, "ip", json_string(e->ip));
    else
        json_object_set_new(o, "player", mgmt_player_json(e->name, &e->uuid));
    ban_fields(o, e);
    return o;
}

json_t *mgmt_op_json(const struct op_entry *e)
{
    json_t *o = json_object();
    json_object_set_new(o, "player", mgmt_player_json(e->name, &e->uuid));
    json_object_set_new(o, "permissionLevel", json_integer(e->level));
    json_object_set_new(o, "bypassesPlayerLimit", json_boolean(e->bypasses_player_limit));
    return o;
}

bool mgmt_message_component(json_t *msg, buf_t *j, buf_t *plain)
{
    const char *key = json_string_value(mgmt_opt(msg, "translatable"));
    const char *lit = json_string_value(mgmt_opt(msg, "literal"));
    if (key) {
        json_t *params = mgmt_opt(msg, "translatableParams");
        chat_arg a[16];
        size_t n = 0;
        for (size_t i = 0; json_is_array(params) && i < json_array_size(params) && n < 16; i++) {
            const char *s = json_string_value(json_array_get(params, i));
            if (s) a[n++] = chat_text(s);
        }
        chat_tr_json(j, NULL, key, a, n);
        chat_tr_plain(plain, key, a, n);
        return true;
    }
    if (!lit) return false;
    buf_lit(j, "{\"text\":");
    json_append_string(j, lit, strlen(lit));
    buf_lit(j, "}");
    buf_append(plain, lit, strlen(lit));
    return true;
}

json_t *mgmt_server_state(void)
{
    json_t *players = json_array();
    for (size_t i = 0; mgmt_server_started && i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        json_array_append_new(players, mgmt_player_json(p->name, &p->uuid));
    }
    json_t *version = json_object();
    json_object_set_new(version, "name", json_string(MC_VERSION_NAME));
    json_object_set_new(version, "protocol", json_integer(MC_PROTOCOL_VERSION));
    json_t *o = json_object();
    json_object_set_new(o, "started", json_boolean(mgmt_server_started));
    json_object_set_new(o, "players", players);
    json_object_set_new(o, "version", version);
    return o;
}

/* ---------------------------------------------------- notifications */

/* Sends NOTE<what> with param (stolen; NULL: none) to every client. */
static void notify(const char *what, json_t *param)
{
    char method[96];
    snprintf(method, sizeof method, NOTE "%s", what);
    size_t len;
    char *text = mgmt_rpc_notification(method, param, &len);
    if (text) mgmt_ws_broadcast(text, len);
    free(text);
}

void mgmt_notify_started(void)
{
    if (mgmt_ws_clients()) notify("server/started", NULL);
}

void mgmt_notify_stopping(void)
{
    if (stopping_sent) return;
    stopping_sent = true;
    if (mgmt_ws_clients()) notify("server/stopping", NULL);
}

void mgmt_notify_server_saving(void)
{
    if (mgmt_ws_clients()) notify("server/saving", NULL);
}

void mgmt_notify_server_saved(void)
{
    if (mgmt_ws_clients()) notify("server/saved", NULL);
}

/* world/store.c is in the shared library (mcbench, the tests) and calls
 * nothing of admin/: its rounds are read from its counters instead, once
 * per pass and before a server/save answer (invariant 4). */
void mgmt_save_poll(void)
{
    static uint64_t rounds_seen;
    static uint32_t finished_seen;
    static bool primed;
    if (!store_active()) return;
    uint64_t rounds = store_get_stats()->rounds;
    const struct store_report *last = store_last_report();
    uint32_t finished = last ? last->round : 0;
    if (!primed) {
        rounds_seen = rounds;
        finished_seen = finished;
        primed = true;
        return;
    }
    if (rounds != rounds_seen) mgmt_notify_server_saving();
    if (finished != finished_seen) mgmt_notify_server_saved();
    rounds_seen = rounds;
    finished_seen = finished;
}

void mgmt_notify_player_joined(const char *name, const mc_uuid *uuid)
{
    if (mgmt_ws_clients()) notify("players/joined", mgmt_player_json(name, uuid));
}

void mgmt_notify_player_left(const char *name, const mc_uuid *uuid)
{
    if (mgmt_ws_clients()) notify("players/left", mgmt_player_json(name, uuid));
}

static const char *const list_note[LIST_KINDS] = {"allowlist", "bans", "ip_bans"};

void mgmt_notify_list_added(int kind, const struct list_entry *e)
{
    if (!mgmt_ws_clients() || kind < 0 || kind >= LIST_KINDS) return;
    char what[32];
    snprintf(what, sizeof what, "%s/added", list_note[kind]);
    notify(what, mgmt_list_entry_json(kind, e));
}

void mgmt_notify_list_removed(int kind, const struct list_entry *e)
{
    if (!mgmt_ws_clients() || kind < 0 || kind >= LIST_KINDS) return;
    char what[32];
    snprintf(what, sizeof what, "%s/removed", list_note[kind]);
    /* vanilla: the player for allowlist and bans, the bare address for ip_bans */
    notify(what,
           kind == LIST_BANNED_IPS ? json_string(e->ip) : mgmt_player_json(e->name, &e->uuid));
}

void mgmt_notify_op_added(const struct op_entry *e)
{
    if (mgmt_ws_clients()) notify("operators/added", mgmt_op_json(e));
}

void mgmt_notify_op_removed(const struct op_entry *e)
{
    if (mgmt_ws_clients()) notify("operators/removed", mgmt_op_json(e));
}

void mgmt_notify_gamerule_updated(const char *key, bool is_bool, const char *value)
{
    if (!mgmt_ws_clients()) return;
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(key));
    json_object_set_new(o, "value", json_string(value));
    json_object_set_new(o, "type", json_string(is_bool ? "boolean" : "integer"));
    notify("gamerules/updated", o);
}

void mgmt_heartbeat_reset(void)
{
    int s = srv ? srv->cfg.status_heartbeat_interval : 0;
    next_heartbeat_ms = s > 0 ? mgmt_now_ms() + (int64_t)s * 1000 : 0;
}

void mgmt_heartbeat_tick(int64_t now_ms)
{
    int s = srv->cfg.status_heartbeat_interval;
    if (s <= 0) return;
    if (!next_heartbeat_ms) next_heartbeat_ms = now_ms + (int64_t)s * 1000;
    if (now_ms < next_heartbeat_ms) return;
    next_heartbeat_ms = now_ms + (int64_t)s * 1000;
    if (mgmt_ws_clients()) notify("server/status", mgmt_server_state());
}

/* ------------------------------------------------------ rpc.discover */

#define REF(x)      "{\"$ref\":\"#/components/schemas/" x "\"}"
#define ARRAY_OF(x) "{\"type\":\"array\",\"items\":" x "}"

/* vanilla 1.21.9's components (protocol version 1.0.0). */
static const char components[] =
    "{\"difficulty\":{\"type\":\"string\",\"enum\":[\"peaceful\",\"easy\",\"normal\",\"hard\"]},"
    "\"game_type\":{\"type\":\"string\",\"enum\":[\"survival\",\"creative\",\"adventure\","
    "\"spectator\"]},"
    "\"incoming_ip_ban\":{\"type\":\"object\",\"properties\":{\"expires\":{\"type\":\"string\"},"
    "\"ip\":{\"type\":\"string\"},\"player\":" REF(
        "player") ",\"reason\":{\"type\":\"string\"},"
                  "\"source\":{\"type\":\"string\"}}},"
                  "\"ip_ban\":{\"type\":\"object\",\"properties\":{\"expires\":{\"type\":"
                  "\"string\"},\"ip\":{"
                  "\"type\":\"string\"},\"reason\":{\"type\":\"string\"},\"source\":{\"type\":"
                  "\"string\"}}},"
                  "\"kick_player\":{\"type\":\"object\",\"properties\":{\"message\":" REF(
                      "message") ","
                                 "\"player\":" REF(
                                     "player") "}},"
                                               "\"message\":{\"type\":\"object\",\"properties\":{"
                                               "\"literal\":{\"type\":\"string\"},"
                                               "\"translatable\":{\"type\":\"string\"},"
                                               "\"translatableParams\":" ARRAY_OF(
                                                   "{\"type\":\"string\"}") "}},"
                                                                            "\"operator\":{"
                                                                            "\"type\":\"object\","
                                                                            "\"properties\":{"
                                                                            "\"bypassesPlayerLimit"
                                                                            "\":{\"type\":"
                                                                            "\"boolean\"},"
                                                                            "\"permissionLevel\":{"
                                                                            "\"type\":\"integer\"},"
                                                                            "\"player\":" REF(
                                                                                "player") "}},"
                                                                                          "\"player"
                                                                                          "\":{"
                                                                                          "\"type\""
                                                                                          ":\"objec"
                                                                                          "t\","
                                                                                          "\"proper"
                                                                                          "ties\":{"
                                                                                          "\"id\":{"
                                                                                          "\"type\""
                                                                                          ":\"strin"
                                                                                          "g\"},"
                                                                                          "\"name\""
                                                                                          ":{"
                                                                                          "\"type\""
                                                                                          ":\"strin"
                                                                                          "g\"}}},"
                                                                                          "\"server"
                                                                                          "_state\""
                                                                                          ":{"
                                                                                          "\"type\""
                                                                                          ":\"objec"
                                                                                          "t\","
                                                                                          "\"proper"
                                                                                          "ties\":{"
                                                                                          "\"player"
                                                                                          "s\""
                                                                                          ":" ARRAY_OF(REF("player")) ",\"started\":{\"type\":\"boolean\"},\"version\":" REF(
                                                                                              "vers"
                                                                                              "ion") "}},"
                                                                                                     "\"system_message\":{\"type\":\"object\",\"properties\":{\"message\":" REF(
                                                                                                         "message") ","
                                                                                                                    "\"overlay\":{\"type\":\"boolean\"},\"receivingPlayers\":" ARRAY_OF(
                                                                                                                        REF("player")) "}},"
                                                                                                                                       "\"typed_game_rule\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},"
                                                                                                                                       "\"type\":{\"type\":\"string\",\"enum\":[\"integer\",\"boolean\"]},\"value\":{\"type\":"
                                                                                                                                       "\"string\"}}},"
                                                                                                                                       "\"untyped_game_rule\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},"
                                                                                                                                       "\"value\":{\"type\":\"string\"}}},"
                                                                                                                                       "\"user_ban\":{\"type\":\"object\",\"properties\":{\"expires\":{\"type\":\"string\"},"
                                                                                                                                       "\"player\":" REF(
                                                                                                                                           "player") ",\"reason\":{\"type\":\"string\"},\"source\":{\"type\":"
                                                                                                                                                     "\"string\"}}},"
                                                                                                                                                     "\"version\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},"
                                                                                                                                                     "\"protocol\":{\"type\":\"integer\"}}}}";

/* The outgoing methods: name, description, parameter and its schema. */
static const struct {
    const char *name, *description, *param, *schema;
} outgoing[] = {
    {NOTE "server/started", "Server started", NULL, NULL},
    {NOTE "server/stopping", "Server shutting down", NULL, NULL},
    {NOTE "server/saving", "Server save started", NULL, NULL},
    {NOTE "server/saved", "Server save completed", NULL, NULL},
    {NOTE "players/joined", "Player joined", "player", REF("player")},
    {NOTE "players/left", "Player left", "player", REF("player")},
    {NOTE "operators/added", "Player was oped", "player", REF("operator")},
    {NOTE "operators/removed", "Player was deoped", "player", REF("operator")},
    {NOTE "allowlist/added", "Player was added to allowlist", "player", REF("player")},
    {NOTE "allowlist/removed", "Player was removed from allowlist", "player", REF("player")},
    {NOTE "ip_bans/added", "Ip was added to ip ban list", "player", REF("ip_ban")},
    {NOTE "ip_bans/removed", "Ip was removed from ip ban list", "player", "{\"type\":\"string\"}"},
    {NOTE "bans/added", "Player was added to ban list", "player", REF("user_ban")},
    {NOTE "bans/removed", "Player was removed from ban list", "player", REF("player")},
    {NOTE "gamerules/updated", "Gamerule was changed", "gamerule", REF("typed_game_rule")},
    {NOTE "server/status", "Server status heartbeat", "status", REF("server_state")},
};

static json_t *param_list(const char *name, const char *schema)
{
    json_t *a = json_array();
    if (!name) return a;
    json_t *p = json_object();
    json_object_set_new(p, "name", json_string(name));
    json_object_set_new(p, "required", json_true());
    json_object_set_new(p, "schema", json_loads(schema, 0, NULL));
    json_array_append_new(a, p);
    return a;
}

/* Built once: the table and the schemas do not change while running. */
json_t *mgmt_discover(void)
{
    static json_t *doc;
    if (doc) return json_incref(doc);
    json_t *methods = json_array();
    const struct mgmt_table *t = mgmt_table();
    for (size_t i = 0; i < t->n; i++) {
        const struct mgmt_method *m = &t->methods[i];
        if (m->undiscoverable) continue;
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(m->name));
        json_object_set_new(o, "description", json_string(m->description));
        json_object_set_new(o, "params", param_list(m->param_name, m->param_schema));
        json_t *r = json_object();
        json_object_set_new(r, "name", json_string(m->result_name));
        json_object_set_new(r, "schema", json_loads(m->result_schema, 0, NULL));
        json_object_set_new(o, "result", r);
        json_array_append_new(methods, o);
    }
    for (size_t i = 0; i < sizeof outgoing / sizeof outgoing[0]; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(outgoing[i].name));
        json_object_set_new(o, "description", json_string(outgoing[i].description));
        json_object_set_new(o, "params", param_list(outgoing[i].param, outgoing[i].schema));
        json_array_append_new(methods, o);
    }
    json_t *info = json_object();
    json_object_set_new(info, "title", json_string("Minecraft Server JSON-RPC"));
    json_object_set_new(info, "version", json_string("1.0.0"));
    json_t *comp = json_object();
    json_object_set_new(comp, "schemas", json_loads(components, 0, NULL));
    doc = json_object();
    json_object_set_new(doc, "openrpc", json_string("1.3.2"));
    json_object_set_new(doc, "info", info);
    json_object_set_new(doc, "methods", methods);
    json_object_set_new(doc, "components", comp);
    return json_incref(doc);
}
