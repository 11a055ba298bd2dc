/*
 * usercache.c — see usercache.h. The cache is a small array (at most
 * USERCACHE_MAX entries) searched linearly: it is touched once per join and
 * once per name a command looks up. The file is written by a core/saver.h
 * saver (one write in flight, one queued), as ops.json is, at most
 * USERCACHE_WRITE_DELAY_MS after a change or at the next save round
 * (autosave, save-all, stop: game/level_tags.c calls usercache_flush).
 */
#include "game/usercache.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"
#include "core/saver.h"
#include "game/lists_file.h"

#define USERCACHE_FILE "usercache.json"

static struct usercache_entry cache[USERCACHE_MAX];
static size_t count;
static uint64_t use_clock;

/* ----------------------------------------------------------- pure helpers */

int64_t usercache_month_after(int64_t t, int32_t *offset)
{
    time_t now = (time_t)t;
    struct tm tm;
    localtime_r(&now, &tm);
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int mon = tm.tm_mon + 1, year = tm.tm_year;
    if (mon == 12) mon = 0, year++;
    int y = year + 1900;
    int max = days[mon] + (mon == 1 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
    tm.tm_mon = mon;
    tm.tm_year = year;
    if (tm.tm_mday > max) tm.tm_mday = max; /* Calendar.add keeps the day within the month */
    tm.tm_isdst = -1;
    time_t later = mktime(&tm);
    struct tm lt;
    localtime_r(&later, &lt);
    *offset = (int32_t)lt.tm_gmtoff;
    return (int64_t)later;
}

char *usercache_dump(const struct usercache_entry *e, size_t n)
{
    json_t *root = json_array();
    if (!root) return NULL;
    for (size_t i = 0; i < n; i++) {
        char id[37], when[32];
        uuid_format(&e[i].uuid, id);
        struct list_time t = {e[i].expires, e[i].expires_offset};
        lists_format_time(&t, when);
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(e[i].name));
        json_object_set_new(o, "uuid", json_string(id));
        json_object_set_new(o, "expiresOn", json_string(when));
        json_array_append_new(root, o);
    }
    char *s = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}

int usercache_parse(const char *text, size_t len, struct usercache_entry *e, size_t cap, size_t *n,
                    char *err, size_t errlen)
{
    json_error_t je;
    *n = 0;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root || !json_is_array(root)) {
        if (root)
            snprintf(err, errlen, "not a JSON array");
        else
            snprintf(err, errlen, "line %d: %.120s", je.line, je.text);
        json_decref(root);
        return -1;
    }
    size_t i;
    json_t *o;
    json_array_foreach(root, i, o)
    {
        /* vanilla readGameProfile: name, uuid and a parsable expiresOn, or skipped */
        const char *name = json_string_value(json_object_get(o, "name"));
        const char *uuid = json_string_value(json_object_get(o, "uuid"));
        const char *when = json_string_value(json_object_get(o, "expiresOn"));
        struct list_time t;
        struct usercache_entry x = {0};
        if (*n >= cap || !name || !uuid || !when || lists_parse_time(when, &t) < 0) continue;
        size_t nl = strlen(name);
        if (nl == 0 || nl > 16 || uuid_parse(uuid, strlen(uuid), &x.uuid) < 0) continue;
        memcpy(x.name, name, nl + 1);
        x.expires = t.epoch;
        x.expires_offset = t.offset;
        bool dup = false;
        for (size_t k = 0; k < *n; k++)
            dup = dup || memcmp(e[k].uuid.b, x.uuid.b, 16) == 0 || strcasecmp(e[k].name, name) == 0;
        if (!dup) e[(*n)++] = x;
    }
    json_decref(root);
    return 0;
}

/* -------------------------------------------------------------- the file */

static int cmp_recent(const void *a, const void *b)
{
    const struct usercache_entry *x = a, *y = b;
    return x->last_use > y->last_use ? -1 : x->last_use < y->last_use;
}

/* The entries, most recently used first (vanilla getTopMRUProfiles). */
static char *dump_file(void *arg)
{
    (void)arg;
    static struct usercache_entry sorted[USERCACHE_MAX];
    memcpy(sorted, cache, count * sizeof cache[0]);
    qsort(sorted, count, sizeof sorted[0], cmp_recent);
    return usercache_dump(sorted, count);
}

static saver file = {.path = USERCACHE_FILE, .dump = dump_file};

/* Writes wait USERCACHE_WRITE_DELAY_MS after a change (or the next save
 * round), so a wave of joins costs one write, not one each. */
static loop *timer_loop; /* NULL: write at once (unit tests) */
static loop_timer write_timer;
static bool pending;

static void write_due(loop_timer *t)
{
    (void)t;
    usercache_flush();
}

void usercache_flush(void)
{
    if (!pending) return;
    pending = false;
    saver_request(&file);
}

static void changed(void)
{
    pending = true;
    if (!timer_loop)
        usercache_flush();
    else if (!loop_timer_armed(&write_timer))
        loop_timer_after(timer_loop, &write_timer, USERCACHE_WRITE_DELAY_MS);
}

void usercache_init(loop *l)
{
    timer_loop = l;
    loop_timer_init(&write_timer, write_due);
    uint8_t *text = NULL;
    size_t len = 0;
    count = 0;
    int r = fio_read_file(USERCACHE_FILE, USERCACHE_FILE_MAX, &text, &len);
    if (r == -ENOENT) return;
    char err[160];
    if (r < 0) {
        snprintf(err, sizeof err, "%s", r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
    } else if (usercache_parse((const char *)text, len, cache, USERCACHE_MAX, &count, err,
                               sizeof err) == 0) {
        /* the file is most recent first: the first entry gets the newest use */
        for (size_t i = 0; i < count; i++) cache[i].last_use = count - i;
        use_clock = count;
        free(text);
        if (count)
            log_info("loaded %zu entr%s from %s", count, count == 1 ? "y" : "ies", USERCACHE_FILE);
        return;
    }
    free(text);
    log_warn("Failed to load profile cache %s (%s); starting with an empty one (the file is set "
             "aside before it is next written)",
             USERCACHE_FILE, err);
    file.set_aside = true;
}

size_t usercache_count(void)
{
    return count;
}

static void drop(size_t i)
{
    cache[i] = cache[--count];
}

void usercache_add(const mc_uuid *uuid, const char *name)
{
    for (size_t i = count; i-- > 0;)
        if (memcmp(cache[i].uuid.b, uuid->b, 16) == 0 || strcasecmp(cache[i].name, name) == 0)
            drop(i); /* a new name for the UUID, or the name now someone else's */
    if (count == USERCACHE_MAX) {
        size_t oldest = 0;
        for (size_t i = 1; i < count; i++)
            if (cache[i].last_use < cache[oldest].last_use) oldest = i;
        drop(oldest);
    }
    struct usercache_entry *e = &cache[count++];
    memset(e, 0, sizeof *e);
    e->uuid = *uuid;
    snprintf(e->name, sizeof e->name, "%s", name);
    e->expires = usercache_month_after((int64_t)time(NULL), &e->expires_offset);
    e->last_use = ++use_clock;
    changed();
}

bool usercache_find(const char *name, mc_uuid *uuid, char *name_out)
{
    for (size_t i = 0; i < count; i++) {
        if (strcasecmp(cache[i].name, name) != 0) continue;
        if ((int64_t)time(NULL) >= cache[i].expires) {
            drop(i); /* vanilla: an expired entry is forgotten (and the file saved) */
            changed();
            return false;
        }
        cache[i].last_use = ++use_clock;
        *uuid = cache[i].uuid;
        memcpy(name_out, cache[i].name, sizeof cache[i].name);
        return true;
    }
    return false;
}
