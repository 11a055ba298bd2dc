/*
 * test_iothreads.c — write fan-out (net/iothreads.h): every queue written
 * whole to its own socket by a pool of threads, and the jobs' results
 * (bytes, EAGAIN on a full socket) reported for the game thread to settle;
 * reads fanned in (decrypted, EOF, the budget); the loop's after-dispatch
 * hooks; the io-threads and mcserv-max-writes-per-second keys.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/config.h"
#include "core/loop.h"
#include "net/iothreads.h"
#include "proto/crypto.h"
#include "test.h"

#define PAIRS 96 /* over IOTHREADS_FANOUT_MIN: the threads take part */

TEST(iothreads_write_fans_out_and_reports)
{
    CHECK(iothreads_resolve(0) == 1 && iothreads_resolve(1) == 1 && iothreads_resolve(3) == 3);
    CHECK(iothreads_resolve(1000) == IOTHREADS_MAX);
    CHECK(iothreads_resolve(-1) >= 1);
    static int sv[PAIRS][2];
    static outq q[PAIRS];
    static struct io_job jobs[PAIRS];
    uint8_t data[3000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 13);
    shframe *f = shframe_new(data, sizeof data);
    for (int i = 0; i < PAIRS; i++) {
        CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) == 0);
        fcntl(sv[i][0], F_SETFL, O_NONBLOCK);
        outq_init(&q[i], 1u << 20);
        char tag[8];
        memset(tag, 'A' + i % 26, sizeof tag);
        outq_append(&q[i], tag, sizeof tag);
        outq_ref(&q[i], f, (size_t)i, 2000);
        jobs[i] = (struct io_job){.fd = sv[i][0], .q = &q[i]};
    }
    /* One socket that cannot take it all: a tiny buffer, never read. */
    int small = 1024;
    setsockopt(sv[0][0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    static uint8_t big[1u << 18];
    outq_append(&q[0], big, sizeof big);
    CHECK(iothreads_start(3) == 0);
    CHECK_EQ_INT(iothreads_count(), 3);
    iothreads_write(jobs, PAIRS);
    CHECK_EQ_INT(f->refs, PAIRS + 1); /* threads never touch reference counts */
    int bad = 0;
    for (int i = 1; i < PAIRS; i++) {
        uint8_t got[4096];
        ssize_t n = read(sv[i][1], got, sizeof got);
        if (jobs[i].err || jobs[i].written != 2008 || n != 2008 || got[0] != 'A' + i % 26 ||
            memcmp(got + 8, data + i, 2000) != 0)
            bad++;
        outq_consume(&q[i], jobs[i].written);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(jobs[0].err, EAGAIN);
    CHECK(jobs[0].written > 0 && jobs[0].written < q[0].pending);
    CHECK_EQ_INT(f->refs, 2); /* q[0] still holds its reference */
    /* A socket whose peer is gone reports the errno. */
    close(sv[1][1]);
    outq_append(&q[1], "x", 1);
    struct io_job one = {.fd = sv[1][0], .q = &q[1]};
    iothreads_write_one(&one);
    CHECK_EQ_INT(one.err, EPIPE);
    iothreads_stop();
    CHECK_EQ_INT(iothreads_count(), 1);
    for (int i = 0; i < PAIRS; i++) {
        outq_free(&q[i]);
        close(sv[i][0]);
        if (i != 1) close(sv[i][1]);
    }
    CHECK_EQ_INT(f->refs, 1);
    shframe_unref(f);
}

TEST(config_io_threads_and_write_budget)
{
    struct server_config cfg;
    char err[256];
    config_defaults(&cfg);
    CHECK_EQ_INT(cfg.io_threads, -1); /* auto */
    CHECK_EQ_INT(cfg.max_writes_per_second, 40000);
    const char ok[] = "io-threads=3\nmcserv-max-writes-per-second=0\n";
    CHECK(config_parse(ok, sizeof ok - 1, &cfg, err, sizeof err) == 0);
    CHECK_EQ_INT(cfg.io_threads, 3);
    CHECK_EQ_INT(cfg.max_writes_per_second, 0);
    const char autov[] = "io-threads=auto\n";
    CHECK(config_parse(autov, sizeof autov - 1, &cfg, err, sizeof err) == 0);
    CHECK_EQ_INT(cfg.io_threads, -1);
    const char bad[] = "io-threads=many\n";
    CHECK(config_parse(bad, sizeof bad - 1, &cfg, err, sizeof err) < 0);
    CHECK(strstr(err, "io-threads: expected auto or a whole number from 0 to 64") != NULL);
    const char neg[] = "mcserv-max-writes-per-second=-5\n";
    CHECK(config_parse(neg, sizeof neg - 1, &cfg, err, sizeof err) < 0);
    CHECK(strstr(err, "mcserv-max-writes-per-second") != NULL);
}

TEST(iothreads_read_fans_in_decrypts_and_reports_eof)
{
    static int sv[PAIRS][2];
    static struct io_read jobs[PAIRS];
    uint8_t key[MC_SHARED_SECRET];
    for (int i = 0; i < MC_SHARED_SECRET; i++) key[i] = (uint8_t)(i * 7 + 1);
    mc_cfb8 enc, dec;
    CHECK(mc_cfb8_init(&enc, key, true) == 0);
    CHECK(mc_cfb8_init(&dec, key, false) == 0);
    uint8_t plain[500];
    for (size_t i = 0; i < sizeof plain; i++) plain[i] = (uint8_t)(i * 3);
    for (int i = 0; i < PAIRS; i++) {
        CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) == 0);
        fcntl(sv[i][0], F_SETFL, O_NONBLOCK);
        uint8_t msg[500];
        memcpy(msg, plain, sizeof msg);
        msg[0] = (uint8_t)i;
        if (i == 5) mc_cfb8_update(&enc, msg, sizeof msg); /* one encrypted connection */
        CHECK(write(sv[i][1], msg, 100 + (size_t)i) == (ssize_t)(100 + i));
        jobs[i] = (struct io_read){.fd = sv[i][0], .dec = i == 5 ? &dec : NULL, .budget = 1u << 16};
    }
    close(sv[7][1]);     /* data, then EOF */
    jobs[9].budget = 10; /* the budget stops the read */
    CHECK(iothreads_start(3) == 0);
    iothreads_write(NULL, 0); /* an empty fan-out returns */
    iothreads_read(jobs, PAIRS);
    int bad = 0;
    for (int i = 0; i < PAIRS; i++) {
        size_t want = i == 9 ? 10 : 100 + (size_t)i;
        if (jobs[i].len != want || jobs[i].data[0] != (uint8_t)i ||
            memcmp(jobs[i].data + 1, plain + 1, want - 1) != 0)
            bad++;
        if (i != 7 && jobs[i].err != 0) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(jobs[7].err, IOREAD_EOF);
    /* Nothing more to read: EAGAIN is no error and reads nothing. */
    struct io_read again = {.fd = sv[3][0], .budget = 100};
    iothreads_read(&again, 1);
    CHECK(again.len == 0 && again.err == 0);
    iothreads_stop();
    for (int i = 0; i < PAIRS; i++) {
        close(sv[i][0]);
        if (i != 7) close(sv[i][1]);
    }
    mc_cfb8_free(&enc);
    mc_cfb8_free(&dec);
}

static int order[8], norder;
static void mark_hook(void *arg)
{
    if (norder < 8) order[norder++] = (int)(intptr_t)arg;
}
static void mark_watch(loop_watch *w, uint32_t events)
{
    (void)events;
    char b[8];
    if (read(w->fd, b, sizeof b) > 0) mark_hook((void *)(intptr_t)2);
}

TEST(loop_after_hooks_run_after_the_watches)
{
    loop l;
    CHECK(loop_init(&l) == 0);
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    loop_watch w;
    loop_watch_init(&w, mark_watch);
    CHECK(loop_watch_add(&l, &w, sv[0], EPOLLIN) == 0);
    CHECK(loop_hook_add(&l, 10, mark_hook, (void *)(intptr_t)1) == 0);
    CHECK(loop_after_hook_add(&l, mark_hook, (void *)(intptr_t)3) == 0);
    CHECK(write(sv[1], "x", 1) == 1);
    norder = 0;
    loop_run_once(&l, 100);
    /* before-sleep hook, then the watch, then the after-dispatch hook */
    CHECK(norder == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);
    for (int i = 0; i < LOOP_MAX_AFTER - 1; i++)
        CHECK(loop_after_hook_add(&l, mark_hook, NULL) == 0);
    CHECK(loop_after_hook_add(&l, mark_hook, NULL) < 0);
    loop_watch_del(&l, &w);
    close(sv[0]);
    close(sv[1]);
    loop_free(&l);
}

/* Threads started again (a second server_init, the tests) take only the
 * rounds published after their start: an old round's jobs are never rerun. */
TEST(iothreads_restart_does_not_rerun_an_old_round)
{
    static struct io_read none[IOTHREADS_FANOUT_MIN];
    for (int i = 0; i < IOTHREADS_FANOUT_MIN; i++)
        none[i] = (struct io_read){.fd = -1, .budget = 1};
    CHECK(iothreads_start(3) == 0);
    iothreads_read(none, IOTHREADS_FANOUT_MIN); /* a round on these threads: EBADF each */
    int bad = 0;
    for (int i = 0; i < IOTHREADS_FANOUT_MIN; i++) bad += none[i].err != EBADF;
    CHECK_EQ_INT(bad, 0);
    iothreads_stop();
    for (int i = 0; i < IOTHREADS_FANOUT_MIN; i++) none[i].err = 12345;
    CHECK(iothreads_start(3) == 0);
    usleep(50000); /* time for a thread that would take the old round */
    for (int i = 0; i < IOTHREADS_FANOUT_MIN; i++) bad += none[i].err != 12345;
    CHECK_EQ_INT(bad, 0);
    iothreads_stop();
}
