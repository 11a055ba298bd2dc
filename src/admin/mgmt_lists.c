/*
 * mgmt_lists.c — the management methods over the server's lists and its
 * players: minecraft:allowlist, bans, ip_bans, operators (get, set, add,
 * remove, clear) and players (get, kick), as vanilla 1.21.9's
 * AllowlistService, BanlistService, IpBanlistService, OperatorService and
 * PlayerService do them. Every change goes through the same code as the
 * console commands (game/lists.h, game/ops.h: the same files, saves and
 * notifications), and the same kicks (banned, IP banned, not whitelisted).
 *
 * A player in a request is {"id"?: uuid, "name"?: text}. It is resolved as
 * vanilla's getUser does, with what mcserv knows (no Mojang lookups):
 *   id:   the online player, or an entry of ops/whitelist/bans with that
 *         UUID, or (with a valid name given too) that id and name;
 *   name: the online player (any case), or a known entry's name, or in
 *         offline mode the offline UUID of a valid name.
 * One that resolves to nobody is skipped, as vanilla skips it; a malformed
 * one (id not a UUID, a field of the wrong type) is -32602 and changes
 * nothing (the whole parameter is checked before any change).
 *
 * Invariants:
 *  1. Results are the list as it is after the change (vanilla returns
 *     get() after every edit).
 *  2. Expired bans are not listed (game/lists.h invariant 3).
 *  3. A parameter is read before anything changes: a -32602 leaves every
 *     list as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "admin/mgmt_int.h"
#include "core/buf.h"
#include "core/log.h"
#include "game/chat.h"
#include "game/commands.h"
#include "game/game.h"
#include "game/lists.h"
#include "game/ops.h"
#include "net/server.h"

#define BAN_SOURCE "Management server" /* vanilla's default source */

/* A resolved player. */
struct prof {
    mc_uuid uuid;
    char name[LIST_NAME_MAX + 1];
    conn *c; /* online, or NULL */
};

/* ------------------------------------------------------------ players */

static conn *online_by_uuid(const mc_uuid *u)
{
    for (size_t i = 0; i < game.player_count; i++)
        if (memcmp(game.players[i]->player->uuid.b, u->b, 16) == 0) return game.players[i];
    return NULL;
}

static conn *online_by_name(const char *name)
{
    for (size_t i = 0; i < game.player_count; i++)
        if (strcasecmp(game.players[i]->player->name, name) == 0) return game.players[i];
    return NULL;
}

/* A name from ops.json, whitelist.json or banned-players.json, by UUID
 * (name NULL) or by name (any case). */
static bool known(const mc_uuid *u, const char *name, struct prof *out)
{
    for (size_t i = 0; i < ops_count(); i++) {
        const struct op_entry *e = ops_get(i);
        if (name ? strcasecmp(e->name, name) == 0 : memcmp(e->uuid.b, u->b, 16) == 0) {
            out->uuid = e->uuid;
            snprintf(out->name, sizeof out->name, "%s", e->name);
            return true;
        }
    }
    for (int k = LIST_WHITELIST; k <= LIST_BANNED_PLAYERS; k++)
        for (size_t i = 0; i < lists_count((enum list_kind)k); i++) {
            const struct list_entry *e = lists_get((enum list_kind)k, i);
            if (name ? strcasecmp(e->name, name) == 0 : memcmp(e->uuid.b, u->b, 16) == 0) {
                out->uuid = e->uuid;
                snprintf(out->name, sizeof out->name, "%s", e->name);
                return true;
            }
        }
    return false;
}

static bool name_valid(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > 16) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    return true;
}

/* Reads player object p (element `at` of the parameter, for messages): 1
 * resolved into out, 0 nobody, or -32602 (call->err says why). */
static int resolve(mgmt_call *call, json_t *p, const char *at, struct prof *out)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(p))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected a player {id, name}", at);
    json_t *jid = mgmt_opt(p, "id"), *jname = mgmt_opt(p, "name");
    if ((jid && !json_is_string(jid)) || (jname && !json_is_string(jname)))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: id and name are strings", at);
    const char *id = json_string_value(jid), *name = json_string_value(jname);
    if (id) {
        mc_uuid u;
        if (uuid_parse(id, strlen(id), &u) < 0 || strlen(id) != 36)
            return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: id is not a UUID", at);
        if ((out->c = online_by_uuid(&u))) {
            out->uuid = u;
            snprintf(out->name, sizeof out->name, "%s", out->c->player->name);
            return 1;
        }
        if (known(&u, NULL, out)) return 1;
        if (name && name_valid(name)) {
            out->uuid = u;
            snprintf(out->name, sizeof out->name, "%s", name);
            return 1;
        }
        return 0;
    }
    if (!name) return 0;
    if ((out->c = online_by_name(name))) {
        out->uuid = out->c->player->uuid;
        snprintf(out->name, sizeof out->name, "%s", out->c->player->name);
        return 1;
    }
    if (known(NULL, name, out)) return 1;
    if (!srv->cfg.online_mode && name_valid(name)) {
        out->uuid = uuid_offline(name, strlen(name));
        snprintf(out->name, sizeof out->name, "%s", name);
        return 1;
    }
    return 0;
}

static int expect_array(mgmt_call *call, json_t *param, const char *what)
{
    if (json_is_array(param)) return MGMT_OK;
    return mgmt_call_error(call, MGMT_INVALID_PARAMS, "Expected an array of %s", what);
}

/* Every player of array `a` (of player objects, or of objects with the
 * player under `field`): *out malloc'd with *n resolved entries; `ok[i]`
 * (may be NULL) says whether element i resolved. MGMT_OK or -32602. */
static int resolve_all(mgmt_call *call, json_t *a, const char *field, struct prof **out, size_t *n,
                       bool *ok)
{
    size_t len = json_array_size(a);
    *out = calloc(len ? len : 1, sizeof **out);
    *n = 0;
    if (!*out) return mgmt_call_error(call, MGMT_INTERNAL_ERROR, "out of memory");
    for (size_t i = 0; i < len; i++) {
        json_t *e = json_array_get(a, i);
        char at[48];
        snprintf(at, sizeof at, "element %zu", i);
        if (field) {
            if (!json_is_object(e)) {
                free(*out);
                return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected an object", at);
            }
            e = mgmt_opt(e, field);
            if (!e) {
                free(*out);
                return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: no %s", at, field);
            }
        }
        int r = resolve(call, e, at, &(*out)[*n]);
        if (r < 0) {
            free(*out);
            return r;
        }
        if (ok) ok[i] = r == 1;
        if (r == 1) (*n)++;
    }
    return MGMT_OK;
}

/* Each resolved player of `param` (an array of players) through remove
 * (1 = was there: logged as "<verb> '<name>'", then after(uuid) if set). */
static int remove_players(mgmt_call *call, json_t *param, int (*remove)(const mc_uuid *),
                          const char *verb, void (*after)(const mc_uuid *))
{
    int rc = expect_array(call, param, "players");
    struct prof *p = NULL;
    size_t n = 0;
    if (rc == MGMT_OK) rc = resolve_all(call, param, NULL, &p, &n, NULL);
    if (rc != MGMT_OK) return rc;
    for (size_t i = 0; i < n; i++)
        if (remove(&p[i].uuid) > 0) {
            mgmt_log(call->client_id, "%s '%s'", verb, p[i].name);
            if (after) after(&p[i].uuid);
        }
    free(p);
    return MGMT_OK;
}

/* ---------------------------------------------------------- allowlist */

static json_t *list_json(enum list_kind k)
{
    json_t *a = json_array();
    time_t now = time(NULL);
    for (size_t i = 0; i < lists_count(k); i++) {
        const struct list_entry *e = lists_get(k, i);
        if (k != LIST_WHITELIST && e->expires.epoch != LIST_FOREVER && e->expires.epoch <= now)
            continue; /* invariant 2 */
        json_array_append_new(a, mgmt_list_entry_json(k, e));
    }
    return a;
}

enum edit { ADD, REMOVE, SET, CLEAR };

/* What the method does, from its name's last part (".../add"). */
static enum edit edit_of(const mgmt_call *call)
{
    const char *last = strrchr(call->method, '/');
    return !last                          ? SET
           : strcmp(last, "/add") == 0    ? ADD
           : strcmp(last, "/remove") == 0 ? REMOVE
           : strcmp(last, "/clear") == 0  ? CLEAR
                                          : SET;
}

/* allowlist/set, /add, /remove, /clear. */
static int allowlist_edit(mgmt_call *call, json_t *param, json_t **result)
{
    enum edit mode = edit_of(call);
    struct prof *p = NULL;
    size_t n = 0;
    if (mode != CLEAR) {
        int rc = expect_array(call, param, "players");
        if (rc == MGMT_OK) rc = resolve_all(call, param, NULL, &p, &n, NULL);
        if (rc != MGMT_OK) return rc;
    }
    if (mode == SET || mode == CLEAR) /* what is listed and not asked for goes first */
        for (size_t i = lists_count(LIST_WHITELIST); i-- > 0;) {
            const struct list_entry *e = lists_get(LIST_WHITELIST, i);
            bool keep = false;
            for (size_t k = 0; k < n && !keep; k++) keep = !memcmp(p[k].uuid.b, e->uuid.b, 16);
            if (!keep) {
                mgmt_log(call->client_id, "Remove '%s' from the allowlist", e->name);
                mc_uuid u = e->uuid;
                lists_whitelist_remove(&u);
            }
        }
    for (size_t i = 0; i < n; i++) {
        if (mode == REMOVE) {
            if (lists_whitelist_remove(&p[i].uuid) > 0)
                mgmt_log(call->client_id, "Remove '%s' from the allowlist", p[i].name);
        } else if (lists_whitelist_add(&p[i].uuid, p[i].name) > 0) {
            mgmt_log(call->client_id, "Add '%s' to the allowlist", p[i].name);
        }
    }
    free(p);
    if (mode == REMOVE || mode == SET) lists_kick_unlisted();
    *result = list_json(LIST_WHITELIST);
    return MGMT_OK;
}

/* --------------------------------------------------------------- bans */

/* The optional reason, source, expires of a ban request into the strings
 * given (NULL when absent) and *expires (unix seconds, LIST_FOREVER when
 * absent). */
static int ban_options(mgmt_call *call, json_t *o, const char *at, const char **reason,
                       const char **source, int64_t *expires)
{
    json_t *r = mgmt_opt(o, "reason"), *s = mgmt_opt(o, "source");
    json_t *x = mgmt_opt(o, "expires");
    if ((r && !json_is_string(r)) || (s && !json_is_string(s)) || (x && !json_is_string(x)))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                               "%s: reason, source and expires are strings", at);
    int64_t t;
    if (x && mgmt_parse_iso8601(json_string_value(x), &t) < 0)
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expires is not an ISO 8601 instant",
                               at);
    *expires = x ? t : LIST_FOREVER;
    *reason = json_string_value(r);
    *source = s ? json_string_value(s) : BAN_SOURCE;
    return MGMT_OK;
}

/* Bans (or re-bans with new fields) one resolved player; kicks them. */
static void ban_one(mgmt_call *call, const struct prof *p, const char *source, const char *reason,
                    int64_t expires)
{
    const struct list_entry *e = lists_banned(&p->uuid);
    const char *why = reason ? reason : LIST_DEFAULT_WHY;
    if (e && strcmp(e->source, source) == 0 && strcmp(e->reason, why) == 0 &&
        e->expires.epoch == expires)
        return;
    if (e) lists_pardon(&p->uuid); /* vanilla's add replaces the entry */
    if (lists_ban_until(&p->uuid, p->name, source, reason, expires) <= 0) return;
    mgmt_log(call->client_id, "Ban '%s': %s", p->name, why);
    conn *c = online_by_uuid(&p->uuid);
    if (c) lists_kick_banned(c);
}

/* What one element of a bans or operators request asks for. */
struct ask {
    const char *reason, *source; /* bans */
    int64_t expires;             /* bans: unix seconds or LIST_FOREVER */
    int level;                   /* operators */
    bool bypass;                 /* operators: bypassesPlayerLimit */
};

/* A player list edited with per-element options: bans and operators. */
struct player_list {
    const char *what; /* for the "Expected an array of" message */
    int (*options)(mgmt_call *, json_t *, const char *, struct ask *);
    size_t (*count)(void);               /* the current entries ... */
    const mc_uuid *(*uuid_at)(size_t i); /* ... their UUIDs */
    void (*drop)(mgmt_call *, size_t i); /* set: lifts entry i */
    void (*apply)(mgmt_call *, const struct prof *, const struct ask *);
    json_t *(*result)(void);
    int (*remove)(const mc_uuid *); /* the remove method: 1 = was there */
    const char *remove_verb;
    void (*after_remove)(const mc_uuid *);
};

/* add (set false) or set: every element read first (invariant 3), then for
 * set the entries not asked for dropped (vanilla's order), then applied. */
static int edit_players(mgmt_call *call, json_t *param, json_t **result,
                        const struct player_list *l, bool set)
{
    int rc = expect_array(call, param, l->what);
    if (rc != MGMT_OK) return rc;
    size_t len = json_array_size(param), n;
    struct prof *p = NULL;
    bool *ok = calloc(len + 1, sizeof *ok);
    struct ask *asks = calloc(len + 1, sizeof *asks);
    if (!ok || !asks) rc = mgmt_call_error(call, MGMT_INTERNAL_ERROR, "out of memory");
    if (rc == MGMT_OK) rc = resolve_all(call, param, "player", &p, &n, ok);
    for (size_t i = 0; rc == MGMT_OK && i < len; i++) {
        char at[48];
        snprintf(at, sizeof at, "element %zu", i);
        rc = l->options(call, json_array_get(param, i), at, &asks[i]);
    }
    if (rc == MGMT_OK) {
        for (size_t i = set ? l->count() : 0; i-- > 0;) {
            bool keep = false;
            for (size_t k = 0; k < n && !keep; k++)
                keep = !memcmp(p[k].uuid.b, l->uuid_at(i)->b, 16);
            if (!keep) l->drop(call, i);
        }
        for (size_t i = 0, k = 0; i < len; i++)
            if (ok[i]) l->apply(call, &p[k++], &asks[i]);
        *result = l->result();
    }
    free(p);
    free(ok);
    free(asks);
    return rc;
}

/* The add, set and remove methods of a struct player_list. */
#define PLAYER_LIST_METHODS(prefix, list)                                                          \
    static int prefix##_add(mgmt_call *c, json_t *p, json_t **r)                                   \
    {                                                                                              \
        return edit_players(c, p, r, &list, false);                                                \
    }                                                                                              \
    static int prefix##_set(mgmt_call *c, json_t *p, json_t **r)                                   \
    {                                                                                              \
        return edit_players(c, p, r, &list, true);                                                 \
    }                                                                                              \
    static int prefix##_remove(mgmt_call *c, json_t *p, json_t **r)                                \
    {                                                                                              \
        int rc = remove_players(c, p, list.remove, list.remove_verb, list.after_remove);           \
        if (rc == MGMT_OK) *r = list.result();                                                     \
        return rc;                                                                                 \
    }

static int ban_ask(mgmt_call *call, json_t *o, const char *at, struct ask *a)
{
    return ban_options(call, o, at, &a->reason, &a->source, &a->expires);
}
static size_t bans_count(void)
{
    return lists_count(LIST_BANNED_PLAYERS);
}
static const mc_uuid *ban_uuid(size_t i)
{
    return &lists_get(LIST_BANNED_PLAYERS, i)->uuid;
}
static void ban_drop(mgmt_call *call, size_t i)
{
    const struct list_entry *e = lists_get(LIST_BANNED_PLAYERS, i);
    mgmt_log(call->client_id, "Pardon '%s'", e->name);
    mc_uuid u = e->uuid;
    lists_pardon(&u);
}
static void ban_apply(mgmt_call *call, const struct prof *p, const struct ask *a)
{
    ban_one(call, p, a->source, a->reason, a->expires);
}
static json_t *bans_json(void)
{
    return list_json(LIST_BANNED_PLAYERS);
}
static const struct player_list bans_list = {"bans {player, reason?, source?, expires?}",
                                             ban_ask,
                                             bans_count,
                                             ban_uuid,
                                             ban_drop,
                                             ban_apply,
                                             bans_json,
                                             lists_pardon,
                                             "Pardon",
                                             NULL};
PLAYER_LIST_METHODS(bans, bans_list)

static int bans_clear(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param;
    for (size_t i = lists_count(LIST_BANNED_PLAYERS); i-- > 0;) {
        mc_uuid u = lists_get(LIST_BANNED_PLAYERS, i)->uuid;
        lists_pardon(&u);
    }
    mgmt_log(call->client_id, "Clear the ban list");
    *result = list_json(LIST_BANNED_PLAYERS);
    return MGMT_OK;
}

/* ------------------------------------------------------------ IP bans */

/* Bans ip (normalized) and kicks every player from it. */
static void ban_ip(mgmt_call *call, const char *ip, const char *source, const char *reason,
                   int64_t expires)
{
    const struct list_entry *e = lists_ip_banned(ip);
    const char *why = reason ? reason : LIST_DEFAULT_WHY;
    if (e && strcmp(e->source, source) == 0 && strcmp(e->reason, why) == 0 &&
        e->expires.epoch == expires)
        return;
    if (e) lists_pardon_ip(ip);
    if (lists_ban_ip_until(ip, source, reason, expires) <= 0) return;
    mgmt_log(call->client_id, "Ban IP %s: %s", ip, why);
    for (size_t i = game.player_count; i-- > 0;) {
        if (i >= game.player_count) continue;
        char norm[LIST_IP_MAX];
        conn *c = game.players[i];
        if (lists_normalize_ip(c->ip, norm) == 0 && strcmp(norm, ip) == 0) lists_kick_ip_banned(c);
    }
}

/* The address an incoming_ip_ban (or ip_ban) names into ip, "" if none. */
static int ban_target(mgmt_call *call, json_t *o, const char *at, bool player_ok,
                      char ip[LIST_IP_MAX])
{
    ip[0] = 0;
    if (!json_is_object(o))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected an object", at);
    json_t *jip = mgmt_opt(o, "ip");
    if (jip && !json_is_string(jip))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: ip is a string", at);
    if (jip && lists_normalize_ip(json_string_value(jip), ip) == 0) return MGMT_OK;
    ip[0] = 0;
    json_t *jp = player_ok ? mgmt_opt(o, "player") : NULL;
    if (!jp) return MGMT_OK; /* not an address, no player: skipped, as vanilla */
    struct prof p;
    int r = resolve(call, jp, at, &p);
    if (r < 0) return r;
    if (r == 1 && p.c && lists_normalize_ip(p.c->ip, ip) < 0) ip[0] = 0;
    return MGMT_OK;
}

/* ip_bans/set and /add. */
static int ip_bans_edit(mgmt_call *call, json_t *param, json_t **result)
{
    bool set = edit_of(call) == SET;
    int rc = expect_array(call, param,
                          set ? "ip_ban {ip, reason?, source?, expires?}"
                              : "incoming_ip_ban {ip or player, reason?, ...}");
    if (rc != MGMT_OK) return rc;
    size_t len = json_array_size(param);
    char(*ips)[LIST_IP_MAX] = calloc(len + 1, sizeof *ips);
    const char **reasons = calloc(len + 1, sizeof *reasons);
    const char **sources = calloc(len + 1, sizeof *sources);
    int64_t *expires = calloc(len + 1, sizeof *expires);
    if (!ips || !reasons || !sources || !expires)
        rc = mgmt_call_error(call, MGMT_INTERNAL_ERROR, "out of memory");
    for (size_t i = 0; rc == MGMT_OK && i < len; i++) {
        char at[48];
        snprintf(at, sizeof at, "element %zu", i);
        json_t *o = json_array_get(param, i);
        rc = ban_target(call, o, at, !set, ips[i]);
        if (rc == MGMT_OK) rc = ban_options(call, o, at, &reasons[i], &sources[i], &expires[i]);
    }
    if (rc == MGMT_OK) {
        if (set)
            for (size_t i = lists_count(LIST_BANNED_IPS); i-- > 0;) {
                char ip[LIST_IP_MAX];
                snprintf(ip, sizeof ip, "%s", lists_get(LIST_BANNED_IPS, i)->ip);
                bool keep = false;
                for (size_t k = 0; k < len && !keep; k++) keep = !strcmp(ips[k], ip);
                if (keep) continue;
                mgmt_log(call->client_id, "Pardon IP %s", ip);
                lists_pardon_ip(ip);
            }
        for (size_t i = 0; i < len; i++)
            if (ips[i][0]) ban_ip(call, ips[i], sources[i], reasons[i], expires[i]);
        *result = list_json(LIST_BANNED_IPS);
    }
    free(ips);
    free(reasons);
    free(sources);
    free(expires);
    return rc;
}

static int ip_bans_remove(mgmt_call *call, json_t *param, json_t **result)
{
    int rc = expect_array(call, param, "addresses");
    for (size_t i = 0; rc == MGMT_OK && i < json_array_size(param); i++)
        if (!json_is_string(json_array_get(param, i)))
            rc = mgmt_call_error(call, MGMT_INVALID_PARAMS, "element %zu: not a string", i);
    if (rc != MGMT_OK) return rc;
    for (size_t i = 0; i < json_array_size(param); i++) {
        const char *ip = json_string_value(json_array_get(param, i));
        if (lists_pardon_ip(ip) > 0) mgmt_log(call->client_id, "Pardon IP %s", ip);
    }
    *result = list_json(LIST_BANNED_IPS);
    return MGMT_OK;
}

static int ip_bans_clear(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param;
    for (size_t i = lists_count(LIST_BANNED_IPS); i-- > 0;) {
        char ip[LIST_IP_MAX];
        snprintf(ip, sizeof ip, "%s", lists_get(LIST_BANNED_IPS, i)->ip);
        lists_pardon_ip(ip);
    }
    mgmt_log(call->client_id, "Clear the IP ban list");
    *result = list_json(LIST_BANNED_IPS);
    return MGMT_OK;
}

/* ---------------------------------------------------------- operators */

static json_t *ops_json(void)
{
    json_t *a = json_array();
    for (size_t i = 0; i < ops_count(); i++) json_array_append_new(a, mgmt_op_json(ops_get(i)));
    return a;
}

static void refresh(const mc_uuid *u)
{
    conn *c = online_by_uuid(u);
    if (c && !c->closed) cmd_refresh_permissions(c);
}

/* An operator's level (default op-permission-level) and bypass flag. */
static int op_options(mgmt_call *call, json_t *o, const char *at, int *level, bool *bypass)
{
    json_t *l = mgmt_opt(o, "permissionLevel"), *b = mgmt_opt(o, "bypassesPlayerLimit");
    if ((l && !json_is_integer(l)) || (b && !json_is_boolean(b)))
        return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                               "%s: permissionLevel is an integer, bypassesPlayerLimit a boolean",
                               at);
    *level = l ? (int)json_integer_value(l) : srv->cfg.op_permission_level;
    if (*level < 1 || *level > 4)
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: permissionLevel is 1 to 4", at);
    *bypass = json_is_true(b);
    return MGMT_OK;
}

/* Ops (or re-levels) a resolved player. */
static void op_one(mgmt_call *call, const struct prof *p, int level, bool bypass)
{
    int now = ops_level(&p->uuid);
    if (now == level && ops_bypasses(&p->uuid) == bypass) return;
    if (now) ops_remove(&p->uuid); /* vanilla's op replaces the entry */
    if (ops_add_bypass(&p->uuid, p->name, level, bypass) > 0)
        mgmt_log(call->client_id, "Op '%s' (level %d)", p->name, level);
    refresh(&p->uuid);
}

static int op_ask(mgmt_call *call, json_t *o, const char *at, struct ask *a)
{
    return op_options(call, o, at, &a->level, &a->bypass);
}
static const mc_uuid *op_uuid(size_t i)
{
    return &ops_get(i)->uuid;
}
static void op_drop(mgmt_call *call, size_t i)
{
    mc_uuid u = ops_get(i)->uuid;
    mgmt_log(call->client_id, "Deop '%s'", ops_get(i)->name);
    ops_remove(&u);
    refresh(&u);
}
static void op_apply(mgmt_call *call, const struct prof *p, const struct ask *a)
{
    op_one(call, p, a->level, a->bypass);
}
static const struct player_list ops_list = {"operators {player, permissionLevel?, ...}",
                                            op_ask,
                                            ops_count,
                                            op_uuid,
                                            op_drop,
                                            op_apply,
                                            ops_json,
                                            ops_remove,
                                            "Deop",
                                            refresh};
PLAYER_LIST_METHODS(operators, ops_list)

static int operators_clear(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param;
    while (ops_count()) {
        mc_uuid u = ops_get(ops_count() - 1)->uuid;
        ops_remove(&u);
        refresh(&u);
    }
    mgmt_log(call->client_id, "Deop every operator");
    *result = ops_json();
    return MGMT_OK;
}

/* allowlist, bans, ip_bans, operators: the list the method names. */
static int list_get(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param;
    const char *m = call->method + strlen("minecraft:");
    *result = strcmp(m, "operators") == 0 ? ops_json()
              : strcmp(m, "bans") == 0    ? list_json(LIST_BANNED_PLAYERS)
              : strcmp(m, "ip_bans") == 0 ? list_json(LIST_BANNED_IPS)
                                          : list_json(LIST_WHITELIST);
    return MGMT_OK;
}

/* ------------------------------------------------------------ players */

static int players_get(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call, (void)param;
    json_t *a = json_array();
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        json_array_append_new(a, mgmt_player_json(p->name, &p->uuid));
    }
    *result = a;
    return MGMT_OK;
}

conn *mgmt_online(json_t *p)
{
    const char *id = json_string_value(mgmt_opt(p, "id"));
    const char *name = json_string_value(mgmt_opt(p, "name"));
    mc_uuid u;
    if (id) return uuid_parse(id, strlen(id), &u) == 0 ? online_by_uuid(&u) : NULL;
    return name ? online_by_name(name) : NULL;
}

static int players_kick(mgmt_call *call, json_t *param, json_t **result)
{
    int rc = expect_array(call, param, "kick_player {player, message?}");
    for (size_t i = 0; rc == MGMT_OK && i < json_array_size(param); i++) {
        json_t *o = json_array_get(param, i), *m = mgmt_opt(o, "message");
        struct prof dummy;
        char at[48];
        snprintf(at, sizeof at, "element %zu", i);
        if (!json_is_object(o) || !mgmt_opt(o, "player"))
            rc = mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: expected {player, message?}", at);
        else if (m && !json_is_object(m))
            rc = mgmt_call_error(call, MGMT_INVALID_PARAMS, "%s: message is an object", at);
        else if (resolve(call, mgmt_opt(o, "player"), at, &dummy) < 0)
            rc = MGMT_INVALID_PARAMS;
    }
    if (rc != MGMT_OK) return rc;
    json_t *kicked = json_array();
    for (size_t i = 0; i < json_array_size(param); i++) {
        json_t *o = json_array_get(param, i);
        conn *c = mgmt_online(mgmt_opt(o, "player"));
        if (!c || c->closed) continue;
        buf_t j, plain;
        buf_init(&j, 64u << 10);
        buf_init(&plain, 64u << 10);
        json_t *m = mgmt_opt(o, "message");
        if (!m || !mgmt_message_component(m, &j, &plain) || j.failed || plain.failed) {
            buf_reset(&j);
            buf_reset(&plain);
            buf_lit(&j, "{\"translate\":\"multiplayer.disconnect.kicked\"}");
            const char *d = chat_en("multiplayer.disconnect.kicked");
            buf_append(&plain, d, strlen(d));
        }
        buf_append(&j, "", 1);
        buf_append(&plain, "", 1);
        const player *p = c->player;
        json_array_append_new(kicked, mgmt_player_json(p->name, &p->uuid));
        mgmt_log(call->client_id, "Kick '%s': %s", p->name, (const char *)plain.data);
        conn_kick_reason(c, KR_KICKED, (const char *)j.data, (const char *)plain.data);
        buf_free(&j);
        buf_free(&plain);
    }
    *result = kicked;
    return MGMT_OK;
}

/* ------------------------------------------------------------- table */

#define PLAYER_S  "{\"$ref\":\"#/components/schemas/player\"}"
#define PLAYERS_S "{\"type\":\"array\",\"items\":" PLAYER_S "}"
#define BANS_S    "{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/user_ban\"}}"
#define IPBANS_S  "{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/ip_ban\"}}"
#define OPS_S     "{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/operator\"}}"

const struct mgmt_method mgmt_list_methods[] = {
    {"minecraft:allowlist", "Get the allowlist", NULL, NULL, "allowlist", PLAYERS_S, list_get,
     false},
    {"minecraft:allowlist/set", "Set the allowlist", "players", PLAYERS_S, "allowlist", PLAYERS_S,
     allowlist_edit, false},
    {"minecraft:allowlist/add", "Add players to allowlist", "add", PLAYERS_S, "allowlist",
     PLAYERS_S, allowlist_edit, false},
    {"minecraft:allowlist/remove", "Remove players from allowlist", "remove", PLAYERS_S,
     "allowlist", PLAYERS_S, allowlist_edit, false},
    {"minecraft:allowlist/clear", "Clear all players in allowlist", NULL, NULL, "allowlist",
     PLAYERS_S, allowlist_edit, false},
    {"minecraft:bans", "Get the ban list", NULL, NULL, "banlist", BANS_S, list_get, false},
    {"minecraft:bans/set", "Set the banlist", "bans", BANS_S, "banlist", BANS_S, bans_set, false},
    {"minecraft:bans/add", "Add players to ban list", "add", BANS_S, "banlist", BANS_S, bans_add,
     false},
    {"minecraft:bans/remove", "Remove players from ban list", "remove", PLAYERS_S, "banlist",
     BANS_S, bans_remove, false},
    {"minecraft:bans/clear", "Clear all players in ban list", NULL, NULL, "banlist", BANS_S,
     bans_clear, false},
    {"minecraft:ip_bans", "Get the ip ban list", NULL, NULL, "banlist", IPBANS_S, list_get, false},
    {"minecraft:ip_bans/set", "Set the ip banlist", "banlist", IPBANS_S, "banlist", IPBANS_S,
     ip_bans_edit, false},
    {"minecraft:ip_bans/add", "Add ip to ban list", "add",
     "{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/incoming_ip_ban\"}}",
     "banlist", IPBANS_S, ip_bans_edit, false},
    {"minecraft:ip_bans/remove", "Remove ip from ban list", "ip",
     "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}", "banlist", IPBANS_S, ip_bans_remove,
     false},
    {"minecraft:ip_bans/clear", "Clear all ips in ban list", NULL, NULL, "banlist", IPBANS_S,
     ip_bans_clear, false},
    {"minecraft:players", "Get all connected players", NULL, NULL, "players", PLAYERS_S,
     players_get, false},
    {"minecraft:players/kick", "Kick players", "kick",
     "{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/kick_player\"}}", "kicked",
     PLAYERS_S, players_kick, false},
    {"minecraft:operators", "Get all oped players", NULL, NULL, "operators", OPS_S, list_get,
     false},
    {"minecraft:operators/set", "Set all oped players", "operators", OPS_S, "operators", OPS_S,
     operators_set, false},
    {"minecraft:operators/add", "Op players", "add", OPS_S, "operators", OPS_S, operators_add,
     false},
    {"minecraft:operators/remove", "Deop players", "remove", PLAYERS_S, "operators", OPS_S,
     operators_remove, false},
    {"minecraft:operators/clear", "Deop all players", NULL, NULL, "operators", OPS_S,
     operators_clear, false},
};
const size_t mgmt_list_methods_n = sizeof mgmt_list_methods / sizeof mgmt_list_methods[0];
