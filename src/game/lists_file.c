/*
 * lists_file.c — see lists_file.h. Pure and thread-safe: no globals, no
 * file I/O (the callers read and write the files).
 */
#include "game/lists_file.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

void *lists_json_load(const char *text, size_t len, size_t max, const char *what, size_t size,
                      json_t **root, char *err, size_t errlen)
{
    json_error_t je;
    *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!*root) {
        snprintf(err, errlen, "line %d: %s", je.line, je.text);
        return NULL;
    }
    void *entries = NULL;
    if (!json_is_array(*root))
        snprintf(err, errlen, "expected a JSON array%s%s", what ? " of " : "", what ? what : "");
    else if (json_array_size(*root) > max)
        snprintf(err, errlen, "more than %zu %s", max, what ? what : "entries");
    else if (!(entries = calloc(json_array_size(*root) + 1, size)))
        snprintf(err, errlen, "out of memory");
    else
        return entries;
    json_decref(*root);
    *root = NULL;
    return NULL;
}

int lists_json_player(json_t *o, size_t i, mc_uuid *uuid, char *name, size_t namecap, char *err,
                      size_t errlen)
{
    const char *u = json_string_value(json_object_get(o, "uuid"));
    const char *n = json_string_value(json_object_get(o, "name"));
    if (!u || uuid_parse(u, strlen(u), uuid) < 0) {
        snprintf(err, errlen, "entry %zu: missing or invalid \"uuid\"", i);
        return -1;
    }
    if (!n || !player_name_valid(n, strlen(n), 1)) {
        snprintf(err, errlen, "entry %zu: missing or invalid \"name\"", i);
        return -1;
    }
    snprintf(name, namecap, "%s", n);
    return 0;
}

int lists_parse(enum list_kind k, const char *text, size_t len, struct list_entry **out, size_t *n,
                char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    json_t *root;
    struct list_entry *e =
        lists_json_load(text, len, LISTS_MAX, NULL, sizeof *e, &root, err, errlen);
    if (!e) return -1;
    int rc = -1;
    size_t count = 0, total = json_array_size(root);
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
        } else if (lists_json_player(o, i, &x.uuid, x.name, sizeof x.name, err, errlen) < 0) {
            goto out;
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
