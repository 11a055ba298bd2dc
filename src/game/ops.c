/*
 * ops.c — see ops.h. ops.json is read through core/fileio.h and written by
 * a core/saver.h saver (one write in flight, one queued; fio_write_atomic),
 * as the whitelist and the ban lists are, so the debug-* fault injection
 * covers it too.
 */
#include "game/ops.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "admin/mgmt.h" /* issue 20 */
#include "core/fileio.h"
#include "core/log.h"
#include "core/saver.h"
#include "game/lists_file.h"

static struct op_entry *list;
static size_t nlist, cap;
static char path_buf[256] = "ops.json";

/* ------------------------------------------------------------------- list */

size_t ops_count(void)
{
    return nlist;
}

const struct op_entry *ops_get(size_t i)
{
    return i < nlist ? &list[i] : NULL;
}

static struct op_entry *find(const mc_uuid *u)
{
    for (size_t i = 0; i < nlist; i++)
        if (memcmp(list[i].uuid.b, u->b, 16) == 0) return &list[i];
    return NULL;
}

int ops_level(const mc_uuid *u)
{
    const struct op_entry *e = find(u);
    return e ? e->level : 0;
}

bool ops_bypasses(const mc_uuid *u)
{
    const struct op_entry *e = find(u);
    return e && e->bypasses_player_limit;
}

const struct op_entry *ops_find_name(const char *name)
{
    for (size_t i = 0; i < nlist; i++)
        if (strcasecmp(list[i].name, name) == 0) return &list[i];
    return NULL;
}

int ops_parse(const char *text, size_t len, char *err, size_t errlen)
{
    json_t *root;
    struct op_entry *n =
        lists_json_load(text, len, OPS_MAX, "operators", sizeof *n, &root, err, errlen);
    if (!n) return -1;
    int rc = -1;
    size_t count = 0, total = json_array_size(root);
    for (size_t i = 0; i < total; i++) {
        json_t *o = json_array_get(root, i);
        json_t *lv = json_object_get(o, "level");
        json_t *by = json_object_get(o, "bypassesPlayerLimit");
        struct op_entry e = {0};
        if (lists_json_player(o, i, &e.uuid, e.name, sizeof e.name, err, errlen) < 0) goto out;
        /* Vanilla: a missing level means op-permission-level; out of range is clamped. */
        e.level = json_is_integer(lv) ? (int)json_integer_value(lv) : 4;
        if (e.level < 1) e.level = 1;
        if (e.level > 4) e.level = 4;
        e.bypasses_player_limit = json_is_true(by);
        bool dup = false;
        for (size_t k = 0; k < count; k++)
            if (memcmp(n[k].uuid.b, e.uuid.b, 16) == 0) dup = true;
        if (!dup) n[count++] = e;
    }
    free(list);
    list = n;
    nlist = cap = count;
    n = NULL;
    rc = 0;
out:
    free(n);
    json_decref(root);
    return rc;
}

int ops_load(const char *path)
{
    snprintf(path_buf, sizeof path_buf, "%s", path);
    uint8_t *text = NULL;
    size_t len = 0;
    int r = fio_read_file(path, OPS_FILE_MAX, &text, &len);
    if (r == -ENOENT) return 0;
    if (r == -EFBIG) {
        log_error("%s: unreadable or larger than %u bytes; starting with no operators", path,
                  OPS_FILE_MAX);
        return -1;
    }
    if (r < 0) {
        log_error("%s: %s; starting with no operators", path, strerror(-r));
        return -1;
    }
    char err[256];
    int rc = ops_parse((const char *)text, len, err, sizeof err);
    free(text);
    if (rc < 0) {
        log_error("%s: %s; starting with no operators (the file is kept until an op or deop "
                  "rewrites it)",
                  path, err);
        return -1;
    }
    log_info("loaded %zu operator%s from %s", nlist, nlist == 1 ? "" : "s", path);
    return 0;
}

char *ops_dump(void)
{
    json_t *root = json_array();
    if (!root) return NULL;
    for (size_t i = 0; i < nlist; i++) {
        char id[37];
        uuid_format(&list[i].uuid, id);
        json_t *o = json_object();
        json_object_set_new(o, "uuid", json_string(id));
        json_object_set_new(o, "name", json_string(list[i].name));
        json_object_set_new(o, "level", json_integer(list[i].level));
        json_object_set_new(o, "bypassesPlayerLimit", json_boolean(list[i].bypasses_player_limit));
        json_array_append_new(root, o);
    }
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}

/* ------------------------------------------------------------------- save */

/* ops_dump and a final newline, as vanilla writes the file. */
static char *dump_file(void *arg)
{
    (void)arg;
    char *text = ops_dump();
    if (!text) return NULL;
    size_t n = strlen(text);
    char *t = realloc(text, n + 2);
    if (!t) return text;
    t[n] = '\n';
    t[n + 1] = 0;
    return t;
}

static saver ops_file = {.path = path_buf, .dump = dump_file};

void ops_flush(void)
{
    saver_flush(&ops_file);
}

int ops_add(const mc_uuid *uuid, const char *name, int level)
{
    return ops_add_bypass(uuid, name, level, false);
}

int ops_add_bypass(const mc_uuid *uuid, const char *name, int level, bool bypasses_player_limit)
{
    if (find(uuid)) return 0;
    if (nlist >= OPS_MAX) return -1;
    if (nlist == cap) {
        size_t ncap = cap ? cap * 2 : 16;
        struct op_entry *n = realloc(list, ncap * sizeof *n);
        if (!n) return -1;
        list = n;
        cap = ncap;
    }
    struct op_entry *e = &list[nlist++];
    memset(e, 0, sizeof *e);
    e->uuid = *uuid;
    snprintf(e->name, sizeof e->name, "%s", name);
    e->level = level < 1 ? 1 : level > 4 ? 4 : level;
    e->bypasses_player_limit = bypasses_player_limit;
    saver_request(&ops_file);
    mgmt_notify_op_added(e); /* issue 20 */
    return 1;
}

int ops_remove(const mc_uuid *uuid)
{
    struct op_entry *e = find(uuid);
    if (!e) return 0;
    mgmt_notify_op_removed(e); /* issue 20 */
    *e = list[--nlist];
    saver_request(&ops_file);
    return 1;
}
