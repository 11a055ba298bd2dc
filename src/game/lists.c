/*
 * lists.c — see lists.h: the server's three lists, their edits and saves.
 * The files' text (parse, dump, time and address text) is
 * game/lists_file.c.
 *
 * Each list's file is written by a core/saver.h saver (one write in
 * flight, one queued, the invalid file set aside first), as ops.json is.
 *
 * The whitelist's on/off state is vanilla's `white-list` key: a change
 * rewrites that one line of server.properties (config_replace_key) on a
 * worker, with the same one-in-flight rule.
 */
#include "game/lists.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admin/mgmt.h" /* issue 20 */
#include "core/config.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/saver.h"
#include "core/workers.h"
#include "game/game.h"
#include "net/server.h"

#define PROPERTIES_FILE "server.properties"

static struct list_state {
    struct list_entry *e;
    size_t n, cap;
    saver file; /* set_aside: the file did not parse (saver.h invariant 3) */
} lists[LIST_KINDS];

static bool whitelist_on;

/* ----------------------------------------------------------------- load */

static int load_file(enum list_kind k)
{
    const char *path = lists_file(k);
    uint8_t *text = NULL;
    size_t len = 0;
    int r = fio_read_file(path, LISTS_FILE_MAX, &text, &len);
    if (r == -ENOENT) return 0;
    if (r < 0) {
        log_error("%s: %s; starting with an empty list (the file is left as it is)", path,
                  r == -EFBIG ? "larger than 16 MiB" : strerror(-r));
        lists[k].file.set_aside = true;
        return -1;
    }
    char err[256];
    struct list_entry *e;
    size_t n;
    if (lists_parse(k, (const char *)text, len, &e, &n, err, sizeof err) < 0) {
        log_error("%s is invalid (%s); starting with an empty list. The file is left as it is; "
                  "it is moved aside to %s.corrupt-<time> before the list is next saved",
                  path, err, path);
        lists[k].file.set_aside = true;
        free(text);
        return -1;
    }
    free(text);
    free(lists[k].e);
    lists[k].e = e;
    lists[k].n = lists[k].cap = n;
    if (n) log_info("loaded %zu entr%s from %s", n, n == 1 ? "y" : "ies", path);
    return 0;
}

size_t lists_count(enum list_kind k)
{
    return lists[k].n;
}

const struct list_entry *lists_get(enum list_kind k, size_t i)
{
    return i < lists[k].n ? &lists[k].e[i] : NULL;
}

/* ----------------------------------------------------------------- save */

static char *dump_list(void *arg)
{
    const struct list_state *ls = arg;
    return lists_dump((enum list_kind)(ls - lists), ls->e, ls->n);
}

/* ------------------------------------------------------------ the edits */

static int add(enum list_kind k, const struct list_entry *x)
{
    struct list_state *ls = &lists[k];
    if (ls->n >= LISTS_MAX) return -1;
    if (ls->n == ls->cap) {
        size_t ncap = ls->cap ? ls->cap * 2 : 16;
        struct list_entry *ne = realloc(ls->e, ncap * sizeof *ne);
        if (!ne) return -1;
        ls->e = ne;
        ls->cap = ncap;
    }
    ls->e[ls->n++] = *x;
    saver_request(&lists[k].file);
    mgmt_notify_list_added(k, x); /* issue 20 */
    return 1;
}

static void remove_at(enum list_kind k, size_t i)
{
    struct list_state *ls = &lists[k];
    mgmt_notify_list_removed(k, &ls->e[i]); /* issue 20 */
    memmove(&ls->e[i], &ls->e[i + 1], (ls->n - i - 1) * sizeof ls->e[0]);
    ls->n--;
    saver_request(&lists[k].file);
}

static long find_uuid(enum list_kind k, const mc_uuid *u)
{
    for (size_t i = 0; i < lists[k].n; i++)
        if (memcmp(lists[k].e[i].uuid.b, u->b, 16) == 0) return (long)i;
    return -1;
}

static long find_ip(const char *ip)
{
    char norm[LIST_IP_MAX];
    if (lists_normalize_ip(ip, norm) < 0) return -1;
    for (size_t i = 0; i < lists[LIST_BANNED_IPS].n; i++)
        if (strcmp(lists[LIST_BANNED_IPS].e[i].ip, norm) == 0) return (long)i;
    return -1;
}

static bool expired(const struct list_entry *e)
{
    return e->expires.epoch != LIST_FOREVER && e->expires.epoch <= (int64_t)time(NULL);
}

bool lists_whitelisted(const mc_uuid *uuid)
{
    return find_uuid(LIST_WHITELIST, uuid) >= 0;
}

int lists_whitelist_add(const mc_uuid *uuid, const char *name)
{
    if (lists_whitelisted(uuid)) return 0;
    struct list_entry x;
    memset(&x, 0, sizeof x);
    x.uuid = *uuid;
    snprintf(x.name, sizeof x.name, "%s", name);
    return add(LIST_WHITELIST, &x);
}

int lists_whitelist_remove(const mc_uuid *uuid)
{
    long i = find_uuid(LIST_WHITELIST, uuid);
    if (i < 0) return 0;
    remove_at(LIST_WHITELIST, (size_t)i);
    return 1;
}

const struct list_entry *lists_banned(const mc_uuid *uuid)
{
    long i = find_uuid(LIST_BANNED_PLAYERS, uuid);
    return i >= 0 && !expired(&lists[LIST_BANNED_PLAYERS].e[i]) ? &lists[LIST_BANNED_PLAYERS].e[i]
                                                                : NULL;
}

const struct list_entry *lists_ip_banned(const char *ip)
{
    long i = find_ip(ip);
    return i >= 0 && !expired(&lists[LIST_BANNED_IPS].e[i]) ? &lists[LIST_BANNED_IPS].e[i] : NULL;
}

static void fill_ban(struct list_entry *x, const char *source, const char *reason, int64_t expires)
{
    x->created = lists_now();
    x->expires = (struct list_time){expires, expires == LIST_FOREVER ? 0 : x->created.offset};
    lists_copy_utf8(x->source, sizeof x->source, source, strlen(source));
    if (!reason) reason = LIST_DEFAULT_WHY;
    lists_copy_utf8(x->reason, sizeof x->reason, reason, strlen(reason));
}

int lists_ban(const mc_uuid *uuid, const char *name, const char *source, const char *reason)
{
    return lists_ban_until(uuid, name, source, reason, LIST_FOREVER);
}

int lists_ban_until(const mc_uuid *uuid, const char *name, const char *source, const char *reason,
                    int64_t expires)
{
    long i = find_uuid(LIST_BANNED_PLAYERS, uuid);
    if (i >= 0) {
        if (!expired(&lists[LIST_BANNED_PLAYERS].e[i])) return 0;
        remove_at(LIST_BANNED_PLAYERS, (size_t)i); /* an expired ban is replaced */
    }
    struct list_entry x;
    memset(&x, 0, sizeof x);
    x.uuid = *uuid;
    snprintf(x.name, sizeof x.name, "%s", name);
    fill_ban(&x, source, reason, expires);
    return add(LIST_BANNED_PLAYERS, &x);
}

int lists_ban_ip(const char *ip, const char *source, const char *reason)
{
    return lists_ban_ip_until(ip, source, reason, LIST_FOREVER);
}

int lists_ban_ip_until(const char *ip, const char *source, const char *reason, int64_t expires)
{
    struct list_entry x;
    memset(&x, 0, sizeof x);
    if (lists_normalize_ip(ip, x.ip) < 0) return -1;
    long i = find_ip(x.ip);
    if (i >= 0) {
        if (!expired(&lists[LIST_BANNED_IPS].e[i])) return 0;
        remove_at(LIST_BANNED_IPS, (size_t)i);
    }
    fill_ban(&x, source, reason, expires);
    return add(LIST_BANNED_IPS, &x);
}

int lists_pardon(const mc_uuid *uuid)
{
    long i = find_uuid(LIST_BANNED_PLAYERS, uuid);
    if (i < 0 || expired(&lists[LIST_BANNED_PLAYERS].e[i])) return 0;
    remove_at(LIST_BANNED_PLAYERS, (size_t)i);
    return 1;
}

int lists_pardon_ip(const char *ip)
{
    long i = find_ip(ip);
    if (i < 0 || expired(&lists[LIST_BANNED_IPS].e[i])) return 0;
    remove_at(LIST_BANNED_IPS, (size_t)i);
    return 1;
}

/* ------------------------------------------------ white-list in properties */

static struct props_job {
    job j;
    bool value;
    int err;
    const char *step;
} props;
static bool props_writing, props_again;

static void props_run(job *jb, worker_ctx *w)
{
    (void)w;
    struct props_job *p = (struct props_job *)jb;
    p->err = 0;
    uint8_t *text = NULL;
    size_t len = 0;
    int r = fio_read_file(PROPERTIES_FILE, 1u << 20, &text, &len);
    if (r < 0 && r != -ENOENT) {
        p->err = r;
        p->step = "read";
        return;
    }
    size_t nlen;
    char *next = config_replace_key(text ? (const char *)text : "", text ? len : 0, "white-list",
                                    p->value ? "true" : "false", &nlen);
    free(text);
    if (!next) {
        p->err = -ENOMEM;
        p->step = "edit";
        return;
    }
    r = fio_write_atomic(PROPERTIES_FILE, next, nlen);
    free(next);
    if (r < 0) {
        p->err = r;
        p->step = "write";
    }
}

static void props_start(void);

static void props_done(job *jb)
{
    bool stopping = jb->cancelled;
    if (stopping) props_run(jb, NULL);
    if (props.err)
        log_error("cannot save white-list=%s in %s (%s): %s", props.value ? "true" : "false",
                  PROPERTIES_FILE, props.step, strerror(-props.err));
    props_writing = false;
    if (props_again) {
        if (!stopping) {
            props_start();
        } else {
            props_again = false;
            props.value = whitelist_on;
            props_run(&props.j, NULL);
        }
    }
}

static void props_start(void)
{
    props_again = false;
    memset(&props, 0, sizeof props);
    props.value = whitelist_on;
    props.j.run = props_run;
    props.j.done = props_done;
    props_writing = true;
    workers_run(&props.j);
}

bool lists_whitelist_enabled(void)
{
    return whitelist_on;
}

void lists_whitelist_set_enabled(bool on)
{
    if (on == whitelist_on) return;
    whitelist_on = on;
    if (props_writing)
        props_again = true;
    else
        props_start();
}

/* ------------------------------------------------------- whitelist reload */

static struct reload_job {
    job j;
    struct list_entry *e; /* owned until swapped in */
    size_t n;
    int rc; /* 0 ok, -errno, or 1 = invalid (err) */
    char err[256];
} reload;
static bool reloading, reload_again;
static void (*reload_cb)(void);

static void reload_run(job *jb, worker_ctx *w)
{
    (void)w;
    struct reload_job *r = (struct reload_job *)jb;
    uint8_t *text = NULL;
    size_t len = 0;
    r->e = NULL;
    r->n = 0;
    r->rc = fio_read_file(lists_file(LIST_WHITELIST), LISTS_FILE_MAX, &text, &len);
    if (r->rc == -ENOENT) { /* no file: an empty whitelist, as vanilla */
        r->rc = 0;
        return;
    }
    if (r->rc < 0) return;
    if (lists_parse(LIST_WHITELIST, (const char *)text, len, &r->e, &r->n, r->err, sizeof r->err) <
        0)
        r->rc = 1;
    free(text);
}

static void reload_start(void);

static void reload_done(job *jb)
{
    struct reload_job *r = (struct reload_job *)jb;
    if (jb->cancelled) {
        free(r->e);
        reloading = false;
        return;
    }
    const char *path = lists_file(LIST_WHITELIST);
    if (r->rc == 0) {
        free(lists[LIST_WHITELIST].e);
        lists[LIST_WHITELIST].e = r->e;
        lists[LIST_WHITELIST].n = lists[LIST_WHITELIST].cap = r->n;
        lists[LIST_WHITELIST].file.set_aside = false;
        log_info("reloaded %s: %zu entr%s", path, r->n, r->n == 1 ? "y" : "ies");
    } else if (r->rc == 1) {
        log_error("%s is invalid (%s); the whitelist in memory is kept", path, r->err);
    } else {
        log_error("cannot reload %s: %s; the whitelist in memory is kept", path, strerror(-r->rc));
    }
    r->e = NULL;
    reloading = false;
    if (reload_again) {
        reload_start();
        return;
    }
    void (*cb)(void) = reload_cb;
    reload_cb = NULL;
    if (cb) cb();
}

static void reload_start(void)
{
    reload_again = false;
    memset(&reload, 0, sizeof reload);
    reload.j.run = reload_run;
    reload.j.done = reload_done;
    reloading = true;
    workers_run(&reload.j);
}

void lists_whitelist_reload(void (*done)(void))
{
    if (done) reload_cb = done;
    if (reloading)
        reload_again = true;
    else
        reload_start();
}

/* ---------------------------------------------------------------- start */

void lists_init(const struct server_config *cfg)
{
    whitelist_on = cfg->white_list;
    for (int k = 0; k < LIST_KINDS; k++) {
        lists[k].file.path = lists_file((enum list_kind)k);
        lists[k].file.dump = dump_list;
        lists[k].file.arg = &lists[k];
        load_file((enum list_kind)k);
    }
}

/* ------------------------------------------------------------- kicks */

static const char not_whitelisted_json[] =
    "{\"translate\":\"multiplayer.disconnect.not_whitelisted\","
    "\"fallback\":\"You are not white-listed on this server!\"}";
static const char banned_json[] = "{\"translate\":\"multiplayer.disconnect.banned\","
                                  "\"fallback\":\"You are banned from this server\"}";
static const char ip_banned_json[] = "{\"translate\":\"multiplayer.disconnect.ip_banned\","
                                     "\"fallback\":\"You have been IP banned from this server\"}";

void lists_kick_banned(conn *c)
{
    conn_kick_reason(c, KR_BANNED, banned_json, "You are banned from this server");
}

void lists_kick_ip_banned(conn *c)
{
    conn_kick_reason(c, KR_IP_BANNED, ip_banned_json, "You have been IP banned from this server");
}

void lists_kick_unlisted(void)
{
    if (!srv->cfg.enforce_whitelist || !lists_whitelist_enabled()) return;
    for (size_t i = game.player_count; i-- > 0;) {
        if (i >= game.player_count) continue;
        conn *c = game.players[i];
        if (c->player->op_level > 0 || lists_whitelisted(&c->player->uuid)) continue;
        conn_kick_reason(c, KR_NOT_WHITELISTED, not_whitelisted_json,
                         "You are not white-listed on this server!");
    }
}
