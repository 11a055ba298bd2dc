/*
 * ops.c — see ops.h.
 *
 * Save state machine (game thread):
 *
 *   IDLE --change--> WRITING (job on a worker) --done--> IDLE
 *                      |  change while writing: again = true
 *                      +--done with again--> WRITING (newest list)
 *   a cancelled job (the pool stopping) writes inline in done().
 */
#include "game/ops.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/workers.h"

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

const struct op_entry *ops_find_name(const char *name)
{
    for (size_t i = 0; i < nlist; i++)
        if (strcasecmp(list[i].name, name) == 0) return &list[i];
    return NULL;
}

int ops_parse(const char *text, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        snprintf(err, errlen, "line %d: %s", je.line, je.text);
        return -1;
    }
    int rc = -1;
    struct op_entry *n = NULL;
    size_t count = 0;
    if (!json_is_array(root)) {
        snprintf(err, errlen, "expected a JSON array of operators");
        goto out;
    }
    if (json_array_size(root) > OPS_MAX) {
        snprintf(err, errlen, "more than %d operators", OPS_MAX);
        goto out;
    }
    n = calloc(json_array_size(root) + 1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < json_array_size(root); i++) {
        json_t *o = json_array_get(root, i);
        const char *uuid = json_string_value(json_object_get(o, "uuid"));
        const char *name = json_string_value(json_object_get(o, "name"));
        json_t *lv = json_object_get(o, "level");
        json_t *by = json_object_get(o, "bypassesPlayerLimit");
        struct op_entry e = {0};
        if (!json_is_object(o) || !uuid || uuid_parse(uuid, strlen(uuid), &e.uuid) < 0) {
            snprintf(err, errlen, "entry %zu: missing or invalid \"uuid\"", i);
            goto out;
        }
        if (!name || !player_name_valid(name, strlen(name), 1)) {
            snprintf(err, errlen, "entry %zu: missing or invalid \"name\"", i);
            goto out;
        }
        snprintf(e.name, sizeof e.name, "%s", name);
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
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return 0;
        log_error("%s: %s; starting with no operators", path, strerror(errno));
        return -1;
    }
    struct stat st;
    char *text = NULL;
    int rc = -1;
    if (fstat(fd, &st) < 0 || st.st_size > (off_t)OPS_FILE_MAX) {
        log_error("%s: unreadable or larger than %u bytes; starting with no operators", path,
                  OPS_FILE_MAX);
        goto out;
    }
    text = malloc((size_t)st.st_size + 1);
    if (!text) goto out;
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, text + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    char err[256];
    if (ops_parse(text, got, err, sizeof err) < 0) {
        log_error("%s: %s; starting with no operators (the file is kept until an op or deop "
                  "rewrites it)",
                  path, err);
        goto out;
    }
    log_info("loaded %zu operator%s from %s", nlist, nlist == 1 ? "" : "s", path);
    rc = 0;
out:
    free(text);
    close(fd);
    return rc;
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

static struct save_job {
    job j;
    char *text; /* owned */
    char path[256];
    int err; /* errno of the failing step, 0 ok */
    const char *step;
} save;
static bool writing, again;

/* temp → fsync → rename → fsync the folder (worker thread, or inline). */
static void save_run(job *jb, worker_ctx *w)
{
    (void)w;
    struct save_job *s = (struct save_job *)jb;
    char tmp[300], dir[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", s->path);
    snprintf(dir, sizeof dir, "%s", s->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    s->err = 0;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        s->err = errno;
        s->step = "open";
        return;
    }
    size_t len = strlen(s->text), off = 0;
    while (off < len) {
        ssize_t n = write(fd, s->text + off, len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            s->err = n < 0 ? errno : EIO;
            s->step = "write";
            close(fd);
            unlink(tmp);
            return;
        }
        off += (size_t)n;
    }
    if (fsync(fd) < 0) {
        s->err = errno;
        s->step = "fsync";
        close(fd);
        unlink(tmp);
        return;
    }
    close(fd);
    if (rename(tmp, s->path) < 0) {
        s->err = errno;
        s->step = "rename";
        unlink(tmp);
        return;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
}

/* Fills `save` with the newest list; false when out of memory. */
static bool save_prepare(void)
{
    char *text = ops_dump();
    if (!text) {
        log_error("cannot save %s: out of memory", path_buf);
        return false;
    }
    size_t n = strlen(text);
    char *t = realloc(text, n + 2);
    if (t) {
        t[n] = '\n';
        t[n + 1] = 0;
        text = t;
    }
    memset(&save, 0, sizeof save);
    save.text = text;
    snprintf(save.path, sizeof save.path, "%s", path_buf);
    return true;
}

static void save_report(void)
{
    if (save.err) log_error("cannot save %s (%s): %s", save.path, save.step, strerror(save.err));
    free(save.text);
    save.text = NULL;
}

static void save_start(void);

static void save_done(job *jb)
{
    bool stopping = jb->cancelled;
    if (stopping) save_run(jb, NULL); /* the pool is stopping: write now */
    save_report();
    writing = false;
    if (!again) return;
    if (!stopping) {
        save_start();
        return;
    }
    again = false; /* no pool any more: the newest list inline too */
    if (save_prepare()) {
        save_run(&save.j, NULL);
        save_report();
    }
}

static void save_start(void)
{
    again = false;
    if (!save_prepare()) return;
    save.j.run = save_run;
    save.j.done = save_done;
    writing = true;
    if (workers_count() > 0)
        workers_submit(&save.j);
    else
        workers_run_inline(&save.j);
}

static void save_request(void)
{
    if (writing)
        again = true;
    else
        save_start();
}

void ops_flush(void)
{
    if (!writing && again) save_start();
}

int ops_add(const mc_uuid *uuid, const char *name, int level)
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
    e->bypasses_player_limit = false;
    save_request();
    return 1;
}

int ops_remove(const mc_uuid *uuid)
{
    struct op_entry *e = find(uuid);
    if (!e) return 0;
    *e = list[--nlist];
    save_request();
    return 1;
}
