/*
 * saver.c — see saver.h.
 */
#include "core/saver.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"

static saver *saver_of(job *j)
{
    return (saver *)((char *)j - offsetof(saver, j));
}

/* Worker thread (or inline): touches only the job's fields. */
static void save_run(job *j, worker_ctx *w)
{
    (void)w;
    saver *s = saver_of(j);
    s->err = 0;
    s->moved_to[0] = 0;
    if (s->move_bad) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char aside[sizeof s->moved_to];
        snprintf(aside, sizeof aside, "%s.corrupt-%04d%02d%02d-%02d%02d%02d", s->path,
                 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        if (fio->rename(s->path, aside) == 0)
            snprintf(s->moved_to, sizeof s->moved_to, "%s", aside);
        else if (errno != ENOENT) {
            s->err = -errno;
            s->step = "moving the invalid file aside";
            return;
        }
    }
    int r = fio_write_atomic(s->path, s->text, strlen(s->text));
    if (r < 0) {
        s->err = r;
        s->step = "write";
    }
}

static void save_report(saver *s)
{
    if (s->moved_to[0]) {
        log_warn("the invalid %s was moved to %s", s->path, s->moved_to);
        s->set_aside = false;
    }
    if (s->err)
        log_error("cannot save %s (%s): %s", s->path, s->step, strerror(-s->err));
    else
        s->set_aside = false;
    free(s->text);
    s->text = NULL;
}

/* The newest text into s->text; false (logged) when out of memory. */
static bool save_prepare(saver *s)
{
    s->text = s->dump(s->arg);
    if (!s->text) {
        log_error("cannot save %s: out of memory", s->path);
        return false;
    }
    s->move_bad = s->set_aside;
    return true;
}

static void save_start(saver *s);

static void save_done(job *j)
{
    saver *s = saver_of(j);
    bool stopping = j->cancelled;
    if (stopping) save_run(j, NULL); /* the pool is stopping: write now */
    save_report(s);
    s->writing = false;
    if (!s->again) return;
    if (!stopping) {
        save_start(s);
        return;
    }
    s->again = false; /* no pool any more: the newest text inline too */
    if (!save_prepare(s)) return;
    save_run(j, NULL);
    save_report(s);
}

static void save_start(saver *s)
{
    s->again = false;
    if (!save_prepare(s)) return;
    memset(&s->j, 0, sizeof s->j);
    s->j.run = save_run;
    s->j.done = save_done;
    s->writing = true;
    workers_run(&s->j);
}

void saver_request(saver *s)
{
    if (s->writing)
        s->again = true;
    else
        save_start(s);
}

void saver_flush(saver *s)
{
    if (!s->writing && s->again) save_start(s);
}
