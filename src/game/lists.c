/*
 * lists.c — see lists.h.
 *
 * Two halves, as commands.c: the pure core (parse, dump, time and address
 * text), compiled alone with LISTS_CORE_ONLY by the unit tests and the
 * fuzzer, then the server's three lists and their saves.
 *
 * Save state machine, per list (game thread), the same as ops.c's:
 *
 *   IDLE --change--> WRITING (job on a worker) --done--> IDLE
 *                      |  change while writing: again = true
 *                      +--done with again--> WRITING (newest list)
 *   a cancelled job (the pool stopping) writes inline in done().
 *
 * The whitelist's on/off state is vanilla's `white-list` key: a change
 * rewrites that one line of server.properties (config_replace_key) on a
 * worker, with the same one-in-flight rule.
 */
#include "game/lists.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ================================================================= core */

static const char *const file_names[LIST_KINDS] = {"whitelist.json", "banned-players.json",
                                                   "banned-ips.json"};

const char *lists_file(enum list_kind k)
{
    return file_names[k];
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80) return 1;
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (!len || len > n || s[0] > 0xF4) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (len == 3 && s[0] == 0xE0 && s[1] < 0xA0) return 0;  /* overlong */
    if (len == 3 && s[0] == 0xED && s[1] >= 0xA0) return 0; /* surrogates */
    if (len == 4 && s[0] == 0xF0 && s[1] < 0x90) return 0;  /* overlong */
    if (len == 4 && s[0] == 0xF4 && s[1] >= 0x90) return 0; /* past U+10FFFF */
    return len;
}

void lists_copy_utf8(char *out, size_t cap, const char *s, size_t len)
{
    if (cap == 0) return;
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < len && p[i]) {
        size_t k = utf8_seq(p + i, len - i);
        size_t w = k ? k : 1;
        if (o + w > cap - 1) break;
        if (k)
            memcpy(out + o, p + i, k);
        else
            out[o] = '?'; /* not UTF-8: the JSON files must stay valid */
        o += w;
        i += k ? k : 1;
    }
    out[o] = 0;
}

static int two(const char *s)
{
    if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return -1;
    return (s[0] - '0') * 10 + (s[1] - '0');
}

int lists_parse_time(const char *s, struct list_time *t)
{
    /* 0123456789012345678901234
     * yyyy-MM-dd HH:mm:ss +hhmm */
    if (strlen(s) != 25 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' ||
        s[16] != ':' || s[19] != ' ' || (s[20] != '+' && s[20] != '-'))
        return -1;
    int yh = two(s), yl = two(s + 2), mo = two(s + 5), d = two(s + 8), h = two(s + 11),
        mi = two(s + 14), se = two(s + 17), oh = two(s + 21), om = two(s + 23);
    if (yh < 0 || yl < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 ||
        mi > 59 || se < 0 || se > 60 || oh < 0 || oh > 18 || om < 0 || om > 59)
        return -1;
    struct tm tm = {0};
    tm.tm_year = yh * 100 + yl - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = se;
    int32_t off = (oh * 3600 + om * 60) * (s[20] == '-' ? -1 : 1);
    t->epoch = (int64_t)timegm(&tm) - off;
    t->offset = off;
    return 0;
}

void lists_format_time(const struct list_time *t, char out[32])
{
    time_t x = (time_t)(t->epoch + t->offset);
    struct tm tm;
    if (!gmtime_r(&x, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0) {
        snprintf(out, 32, "1970-01-01 00:00:00 +0000");
        return;
    }
    unsigned off = (unsigned)(t->offset < 0 ? -(int64_t)t->offset : t->offset);
    unsigned v[8] = {(unsigned)(tm.tm_year + 1900) % 10000u,
                     (unsigned)(tm.tm_mon + 1) % 100u,
                     (unsigned)tm.tm_mday % 100u,
                     (unsigned)tm.tm_hour % 100u,
                     (unsigned)tm.tm_min % 100u,
                     (unsigned)tm.tm_sec % 100u,
                     off / 3600 % 100u,
                     off / 60 % 60u};
    snprintf(out, 32, "%04u-%02u-%02u %02u:%02u:%02u %c%02u%02u", v[0], v[1], v[2], v[3], v[4],
             v[5], t->offset < 0 ? '-' : '+', v[6], v[7]);
}

struct list_time lists_now(void)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    return (struct list_time){(int64_t)now, (int32_t)tm.tm_gmtoff};
}

int lists_normalize_ip(const char *in, char out[LIST_IP_MAX])
{
    struct in_addr a4;
    struct in6_addr a6;
    if (strlen(in) >= LIST_IP_MAX) return -1;
    if (inet_pton(AF_INET, in, &a4) == 1) {
        inet_ntop(AF_INET, &a4, out, LIST_IP_MAX);
        return 0;
    }
    if (inet_pton(AF_INET6, in, &a6) == 1) {
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(a6.s6_addr, mapped, 12) == 0) { /* ::ffff:a.b.c.d is that IPv4 address */
            memcpy(&a4, a6.s6_addr + 12, 4);
            inet_ntop(AF_INET, &a4, out, LIST_IP_MAX);
        } else {
            inet_ntop(AF_INET6, &a6, out, LIST_IP_MAX);
        }
        return 0;
    }
    return -1;
}

/* A ban's optional text field: missing or not a string = the default. */
static void opt_text(json_t *o, const char *key, char *out, size_t cap, const char *def)
{
    json_t *v = json_object_get(o, key);
    const char *s = json_is_string(v) ? json_string_value(v) : def;
    size_t len = json_is_string(v) ? json_string_length(v) : strlen(def);
    lists_copy_utf8(out, cap, s, len); /* stops at an embedded "\u0000" */
}

int lists_parse(enum list_kind k, const char *text, size_t len, struct list_entry **out, size_t *n,
                char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        snprintf(err, errlen, "line %d: %s", je.line, je.text);
        return -1;
    }
    int rc = -1;
    struct list_entry *e = NULL;
    size_t count = 0, total = json_is_array(root) ? json_array_size(root) : 0;
    if (!json_is_array(root)) {
        snprintf(err, errlen, "expected a JSON array");
        goto out;
    }
    if (total > LISTS_MAX) {
        snprintf(err, errlen, "more than %d entries", LISTS_MAX);
        goto out;
    }
    e = calloc(total + 1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    struct list_time now = lists_now();
    for (size_t i = 0; i < total; i++) {
        json_t *o = json_array_get(root, i);
        struct list_entry x;
        memset(&x, 0, sizeof x);
        if (!json_is_object(o)) {
            snprintf(err, errlen, "entry %zu: not an object", i);
            goto out;
        }
        if (k == LIST_BANNED_IPS) {
            const char *ip = json_string_value(json_object_get(o, "ip"));
            if (!ip || lists_normalize_ip(ip, x.ip) < 0) {
                snprintf(err, errlen, "entry %zu: missing or invalid \"ip\"", i);
                goto out;
            }
        } else {
            const char *uuid = json_string_value(json_object_get(o, "uuid"));
            const char *name = json_string_value(json_object_get(o, "name"));
            if (!uuid || uuid_parse(uuid, strlen(uuid), &x.uuid) < 0) {
                snprintf(err, errlen, "entry %zu: missing or invalid \"uuid\"", i);
                goto out;
            }
            if (!name || !player_name_valid(name, strlen(name), 1)) {
                snprintf(err, errlen, "entry %zu: missing or invalid \"name\"", i);
                goto out;
            }
            snprintf(x.name, sizeof x.name, "%s", name);
        }
        if (k != LIST_WHITELIST) {
            /* As vanilla's BanListEntry: an unreadable date is "now" (created)
             * or "forever" (expires). */
            const char *c = json_string_value(json_object_get(o, "created"));
            if (!c || lists_parse_time(c, &x.created) < 0) x.created = now;
            const char *ex = json_string_value(json_object_get(o, "expires"));
            if (!ex || strcmp(ex, "forever") == 0 || lists_parse_time(ex, &x.expires) < 0)
                x.expires = (struct list_time){LIST_FOREVER, 0};
            opt_text(o, "source", x.source, sizeof x.source, LIST_DEFAULT_SRC);
            opt_text(o, "reason", x.reason, sizeof x.reason, LIST_DEFAULT_WHY);
        }
        bool dup = false;
        for (size_t j = 0; j < count && !dup; j++)
            dup = k == LIST_BANNED_IPS ? strcmp(e[j].ip, x.ip) == 0
                                       : memcmp(e[j].uuid.b, x.uuid.b, 16) == 0;
        if (!dup) e[count++] = x;
    }
    *out = e;
    *n = count;
    e = NULL;
    rc = 0;
out:
    free(e);
    json_decref(root);
    return rc;
}

char *lists_dump(enum list_kind k, const struct list_entry *e, size_t n)
{
    json_t *root = json_array();
    if (!root) return NULL;
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        char id[37], t[32];
        if (k == LIST_BANNED_IPS) {
            json_object_set_new(o, "ip", json_string(e[i].ip));
        } else {
            uuid_format(&e[i].uuid, id);
            json_object_set_new(o, "uuid", json_string(id));
            json_object_set_new(o, "name", json_string(e[i].name));
        }
        if (k != LIST_WHITELIST) {
            lists_format_time(&e[i].created, t);
            json_object_set_new(o, "created", json_string(t));
            json_object_set_new(o, "source", json_stringn(e[i].source, strlen(e[i].source)));
            if (e[i].expires.epoch == LIST_FOREVER)
                json_object_set_new(o, "expires", json_string("forever"));
            else {
                lists_format_time(&e[i].expires, t);
                json_object_set_new(o, "expires", json_string(t));
            }
            json_object_set_new(o, "reason", json_stringn(e[i].reason, strlen(e[i].reason)));
        }
        json_array_append_new(root, o);
    }
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!s) return NULL;
    size_t len = strlen(s);
    char *t = realloc(s, len + 2);
    if (!t) {
        free(s);
        return NULL;
    }
    t[len] = '\n';
    t[len + 1] = 0;
    return t;
}

#ifndef LISTS_CORE_ONLY
/* ======================================================= the server's lists */

#include "core/config.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/workers.h"

#define PROPERTIES_FILE "server.properties"

struct save_job {
    job j;
    enum list_kind kind;
    char *text; /* owned */
    bool move_bad;
    char moved_to[96];
    int err; /* -errno of the failing step, 0 ok */
    const char *step;
};

static struct list_state {
    struct list_entry *e;
    size_t n, cap;
    bool bad_on_disk; /* the file did not parse: set it aside before the first write */
    bool writing, again;
    struct save_job save;
} L[LIST_KINDS];

static bool whitelist_on;

/* ----------------------------------------------------------------- load */

static int load_file(enum list_kind k)
{
    const char *path = file_names[k];
    uint8_t *text = NULL;
    size_t len = 0;
    int r = fio_read_file(path, LISTS_FILE_MAX, &text, &len);
    if (r == -ENOENT) return 0;
    if (r < 0) {
        log_error("%s: %s; starting with an empty list (the file is left as it is)", path,
                  r == -EFBIG ? "larger than 16 MiB" : strerror(-r));
        L[k].bad_on_disk = true;
        return -1;
    }
    char err[256];
    struct list_entry *e;
    size_t n;
    if (lists_parse(k, (const char *)text, len, &e, &n, err, sizeof err) < 0) {
        log_error("%s is invalid (%s); starting with an empty list. The file is left as it is; "
                  "it is moved aside to %s.corrupt-<time> before the list is next saved",
                  path, err, path);
        L[k].bad_on_disk = true;
        free(text);
        return -1;
    }
    free(text);
    free(L[k].e);
    L[k].e = e;
    L[k].n = L[k].cap = n;
    if (n) log_info("loaded %zu entr%s from %s", n, n == 1 ? "y" : "ies", path);
    return 0;
}

size_t lists_count(enum list_kind k)
{
    return L[k].n;
}

const struct list_entry *lists_get(enum list_kind k, size_t i)
{
    return i < L[k].n ? &L[k].e[i] : NULL;
}

/* ----------------------------------------------------------------- save */

static void save_run(job *jb, worker_ctx *w)
{
    (void)w;
    struct save_job *s = (struct save_job *)jb;
    const char *path = file_names[s->kind];
    s->err = 0;
    s->moved_to[0] = 0;
    if (s->move_bad) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char aside[96];
        snprintf(aside, sizeof aside, "%s.corrupt-%04d%02d%02d-%02d%02d%02d", path,
                 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        if (fio->rename(path, aside) == 0)
            snprintf(s->moved_to, sizeof s->moved_to, "%s", aside);
        else if (errno != ENOENT) {
            s->err = -errno;
            s->step = "moving the invalid file aside";
            return;
        }
    }
    int r = fio_write_atomic(path, s->text, strlen(s->text));
    if (r < 0) {
        s->err = r;
        s->step = "write";
    }
}

static void save_start(enum list_kind k);

static void save_report(struct save_job *s)
{
    struct list_state *ls = &L[s->kind];
    if (s->moved_to[0]) {
        log_warn("the invalid %s was moved to %s", file_names[s->kind], s->moved_to);
        ls->bad_on_disk = false;
    }
    if (s->err)
        log_error("cannot save %s (%s): %s", file_names[s->kind], s->step, strerror(-s->err));
    else
        ls->bad_on_disk = false;
    free(s->text);
    s->text = NULL;
}

static void save_done(job *jb)
{
    struct save_job *s = (struct save_job *)jb;
    struct list_state *ls = &L[s->kind];
    bool stopping = jb->cancelled;
    if (stopping) save_run(jb, NULL); /* the pool is stopping: write now */
    save_report(s);
    ls->writing = false;
    if (!ls->again) return;
    if (!stopping) {
        save_start(s->kind);
        return;
    }
    ls->again = false; /* no pool any more: the newest list inline too */
    s->text = lists_dump(s->kind, ls->e, ls->n);
    if (!s->text) return;
    s->move_bad = ls->bad_on_disk;
    save_run(jb, NULL);
    save_report(s);
}

static void save_start(enum list_kind k)
{
    struct list_state *ls = &L[k];
    ls->again = false;
    char *text = lists_dump(k, ls->e, ls->n);
    if (!text) {
        log_error("cannot save %s: out of memory", file_names[k]);
        return;
    }
    memset(&ls->save, 0, sizeof ls->save);
    ls->save.kind = k;
    ls->save.text = text;
    ls->save.move_bad = ls->bad_on_disk;
    ls->save.j.run = save_run;
    ls->save.j.done = save_done;
    ls->writing = true;
    if (workers_count() > 0)
        workers_submit(&ls->save.j);
    else
        workers_run_inline(&ls->save.j);
}

static void save_request(enum list_kind k)
{
    if (L[k].writing)
        L[k].again = true;
    else
        save_start(k);
}

/* ------------------------------------------------------------ the edits */

static int add(enum list_kind k, const struct list_entry *x)
{
    struct list_state *ls = &L[k];
    if (ls->n >= LISTS_MAX) return -1;
    if (ls->n == ls->cap) {
        size_t ncap = ls->cap ? ls->cap * 2 : 16;
        struct list_entry *ne = realloc(ls->e, ncap * sizeof *ne);
        if (!ne) return -1;
        ls->e = ne;
        ls->cap = ncap;
    }
    ls->e[ls->n++] = *x;
    save_request(k);
    return 1;
}

static void remove_at(enum list_kind k, size_t i)
{
    struct list_state *ls = &L[k];
    memmove(&ls->e[i], &ls->e[i + 1], (ls->n - i - 1) * sizeof ls->e[0]);
    ls->n--;
    save_request(k);
}

static long find_uuid(enum list_kind k, const mc_uuid *u)
{
    for (size_t i = 0; i < L[k].n; i++)
        if (memcmp(L[k].e[i].uuid.b, u->b, 16) == 0) return (long)i;
    return -1;
}

static long find_ip(const char *ip)
{
    char norm[LIST_IP_MAX];
    if (lists_normalize_ip(ip, norm) < 0) return -1;
    for (size_t i = 0; i < L[LIST_BANNED_IPS].n; i++)
        if (strcmp(L[LIST_BANNED_IPS].e[i].ip, norm) == 0) return (long)i;
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
    return i >= 0 && !expired(&L[LIST_BANNED_PLAYERS].e[i]) ? &L[LIST_BANNED_PLAYERS].e[i] : NULL;
}

const struct list_entry *lists_ip_banned(const char *ip)
{
    long i = find_ip(ip);
    return i >= 0 && !expired(&L[LIST_BANNED_IPS].e[i]) ? &L[LIST_BANNED_IPS].e[i] : NULL;
}

static void fill_ban(struct list_entry *x, const char *source, const char *reason)
{
    x->created = lists_now();
    x->expires = (struct list_time){LIST_FOREVER, 0};
    lists_copy_utf8(x->source, sizeof x->source, source, strlen(source));
    if (!reason) reason = LIST_DEFAULT_WHY;
    lists_copy_utf8(x->reason, sizeof x->reason, reason, strlen(reason));
}

int lists_ban(const mc_uuid *uuid, const char *name, const char *source, const char *reason)
{
    long i = find_uuid(LIST_BANNED_PLAYERS, uuid);
    if (i >= 0) {
        if (!expired(&L[LIST_BANNED_PLAYERS].e[i])) return 0;
        remove_at(LIST_BANNED_PLAYERS, (size_t)i); /* an expired ban is replaced */
    }
    struct list_entry x;
    memset(&x, 0, sizeof x);
    x.uuid = *uuid;
    snprintf(x.name, sizeof x.name, "%s", name);
    fill_ban(&x, source, reason);
    return add(LIST_BANNED_PLAYERS, &x);
}

int lists_ban_ip(const char *ip, const char *source, const char *reason)
{
    struct list_entry x;
    memset(&x, 0, sizeof x);
    if (lists_normalize_ip(ip, x.ip) < 0) return -1;
    long i = find_ip(x.ip);
    if (i >= 0) {
        if (!expired(&L[LIST_BANNED_IPS].e[i])) return 0;
        remove_at(LIST_BANNED_IPS, (size_t)i);
    }
    fill_ban(&x, source, reason);
    return add(LIST_BANNED_IPS, &x);
}

int lists_pardon(const mc_uuid *uuid)
{
    long i = find_uuid(LIST_BANNED_PLAYERS, uuid);
    if (i < 0 || expired(&L[LIST_BANNED_PLAYERS].e[i])) return 0;
    remove_at(LIST_BANNED_PLAYERS, (size_t)i);
    return 1;
}

int lists_pardon_ip(const char *ip)
{
    long i = find_ip(ip);
    if (i < 0 || expired(&L[LIST_BANNED_IPS].e[i])) return 0;
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
    if (workers_count() > 0)
        workers_submit(&props.j);
    else
        workers_run_inline(&props.j);
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
    r->rc = fio_read_file(file_names[LIST_WHITELIST], LISTS_FILE_MAX, &text, &len);
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
    const char *path = file_names[LIST_WHITELIST];
    if (r->rc == 0) {
        free(L[LIST_WHITELIST].e);
        L[LIST_WHITELIST].e = r->e;
        L[LIST_WHITELIST].n = L[LIST_WHITELIST].cap = r->n;
        L[LIST_WHITELIST].bad_on_disk = false;
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
    if (workers_count() > 0)
        workers_submit(&reload.j);
    else
        workers_run_inline(&reload.j);
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
    for (int k = 0; k < LIST_KINDS; k++) load_file((enum list_kind)k);
}

#endif /* LISTS_CORE_ONLY */
