/*
 * test_region.c — region files (world/region.c), whole-file writes
 * (core/fileio.c) and the store (world/store.c) under injected faults.
 *
 * The fault layer (a fileio_ops table) counts operations and can, from a
 * chosen one on: fail with an errno (EIO, ENOSPC, EROFS), transfer only
 * part of a write, or "crash" — every later call fails, and writes that
 * were not fsynced yet are undone page by page at random (what a power cut
 * may leave), before the file is reopened with the real syscalls. After
 * every fault the previous version of every chunk must read back intact.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/workers.h"
#include "data/biomes.h"
#include "data/blocks.h"
#include "test.h"
#include "world/region.h"
#include "world/store.h"
#include "world/world.h"

/* ---------------------------------------------------------------- faults */

#define UNDO_MAX 4096

static struct {
    long ops;      /* counted operations: pwrite, fsync, rename, open(create), unlink */
    long fail_at;  /* first failing op (-1: none) */
    int err;       /* errno for failures */
    bool crash;    /* from fail_at on everything fails (the process "died") */
    bool once;     /* only op fail_at fails */
    bool short_io; /* every pwrite transfers at most half (at least 1 byte) */
    bool torn;     /* the failing pwrite first writes a prefix */
    struct undo {
        int fd;
        off_t off;
        size_t len;
        uint8_t *old;
        size_t old_len; /* bytes that existed before (the rest was past EOF) */
    } undo[UNDO_MAX];
    int nundo;
} F;

static void faults_reset(void)
{
    for (int i = 0; i < F.nundo; i++) free(F.undo[i].old);
    memset(&F, 0, sizeof F);
    F.fail_at = -1;
}

static bool failing(void)
{
    long op = F.ops++;
    if (F.fail_at < 0) return false;
    if (F.once) return op == F.fail_at;
    return op >= F.fail_at;
}

static int f_open(const char *path, int flags, mode_t mode)
{
    if ((flags & O_CREAT) && failing()) {
        errno = F.err;
        return -1;
    }
    return open(path, flags, mode);
}

static ssize_t f_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    bool fail = failing();
    if (fail && !F.torn) {
        errno = F.err;
        return -1;
    }
    if (F.nundo < UNDO_MAX) {
        struct undo *u = &F.undo[F.nundo++];
        u->fd = fd;
        u->off = off;
        u->len = n;
        u->old = malloc(n);
        ssize_t r = pread(fd, u->old, n, off);
        u->old_len = r > 0 ? (size_t)r : 0;
    }
    size_t want = n;
    if (F.short_io && n > 1) want = n / 2;
    if (fail) want = n / 3; /* torn: a prefix lands, then the error */
    ssize_t r = want ? pwrite(fd, buf, want, off) : 0;
    if (fail) {
        errno = F.err;
        return -1;
    }
    return r;
}

static int f_fsync(int fd)
{
    if (failing()) {
        errno = F.err;
        return -1;
    }
    int rc = fsync(fd);
    if (rc == 0) { /* durable now: nothing of this fd can be undone */
        int k = 0;
        for (int i = 0; i < F.nundo; i++) {
            if (F.undo[i].fd == fd)
                free(F.undo[i].old);
            else
                F.undo[k++] = F.undo[i];
        }
        F.nundo = k;
    }
    return rc;
}

static int f_rename(const char *a, const char *b)
{
    if (failing()) {
        errno = F.err;
        return -1;
    }
    return rename(a, b);
}

static int f_unlink(const char *p)
{
    if (F.crash && F.fail_at >= 0 && F.ops >= F.fail_at) {
        errno = EIO;
        return -1;
    }
    return unlink(p);
}

static const fileio_ops faulty = {
    .open = f_open,
    .pread = pread,
    .pwrite = f_pwrite,
    .fsync = f_fsync,
    .fstat = fstat,
    .rename = f_rename,
    .unlink = f_unlink,
    .mkdir = NULL, /* set below */
    .close = close,
};

static int f_mkdir(const char *p, mode_t m)
{
    return mkdir(p, m);
}

static fileio_ops faulty_ops;

static void faults_on(void)
{
    faulty_ops = faulty;
    faulty_ops.mkdir = f_mkdir;
    fio_set(&faulty_ops);
}

/* Power cut: undo unsynced writes, each 4 KiB page kept or lost at random. */
static void crash_undo(uint32_t seed)
{
    for (int i = F.nundo - 1; i >= 0; i--) {
        struct undo *u = &F.undo[i];
        for (size_t pg = 0; pg < u->len; pg += 4096) {
            uint32_t h = seed ^ (uint32_t)((u->off + (off_t)pg) / 4096) * 2654435761u;
            h ^= h >> 15;
            if (h & 1) continue; /* this page reached the disk */
            size_t n = u->len - pg < 4096 ? u->len - pg : 4096;
            if (pg < u->old_len) {
                size_t k = u->old_len - pg < n ? u->old_len - pg : n;
                if (pwrite(u->fd, u->old + pg, k, u->off + (off_t)pg) != (ssize_t)k)
                    test_failures++;
            }
            if (pg + n > u->old_len) { /* past the old end: zeros (size kept, data lost) */
                uint8_t z[4096] = {0};
                size_t from = pg > u->old_len ? pg : u->old_len;
                if (pwrite(u->fd, z, pg + n - from, u->off + (off_t)from) < 0) test_failures++;
            }
        }
    }
}

/* ------------------------------------------------------------- helpers */

static char tmp_root[256];

static const char *tmpdir(void)
{
    if (!tmp_root[0]) {
        snprintf(tmp_root, sizeof tmp_root, "/tmp/mcserv-unit-region-XXXXXX");
        if (!mkdtemp(tmp_root)) test_failures++;
    }
    return tmp_root;
}

__attribute__((destructor)) static void remove_tmpdir(void)
{
    if (!tmp_root[0]) return;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_root);
}

static void region_file(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", tmpdir(), name);
    unlink(out);
}

/* Deterministic payload of chunk i, version v (size varies with both). */
static size_t payload(int i, int v, uint8_t *out)
{
    size_t n = 100 + (size_t)((i * 7919 + v * 104729) % 20000);
    if (i % 17 == 3) n += 70000; /* some span many sectors */
    for (size_t k = 0; k < n; k++) out[k] = (uint8_t)(k * 31 + (size_t)i * 7 + (size_t)v * 13);
    return n;
}

static uint8_t pbuf[64][100000];

/* Writes chunks 0..n-1 at version v in one batch. */
static int write_version(region *r, int n, int v)
{
    region_write w[64];
    for (int i = 0; i < n; i++) {
        w[i].lx = i % 32;
        w[i].lz = i / 32 + 3;
        w[i].data = pbuf[i];
        w[i].len = payload(i, v, pbuf[i]);
    }
    return region_write_batch(r, w, (size_t)n, 1000 + (uint32_t)v);
}

/* Version of chunk i as read (-1 absent, -2 unreadable or not any version). */
static int read_version(region *r, int i, int maxv)
{
    region_chunk c;
    int rc = region_read(r, i % 32, i / 32 + 3, &c);
    if (rc == 0) return -1;
    if (rc != 1) {
        region_chunk_free(&c);
        return -2;
    }
    static uint8_t want[100000];
    int found = -2;
    for (int v = 0; v <= maxv && found < 0; v++) {
        size_t n = payload(i, v, want);
        if (n == c.len && memcmp(want, c.data, n) == 0) found = v;
    }
    region_chunk_free(&c);
    return found;
}

/* ------------------------------------------------------------------ tests */

TEST(region_write_read_reopen_and_reuse_sectors)
{
    char path[512];
    region_file(path, sizeof path, "r.0.0.mca");
    region *r;
    CHECK_EQ_INT(region_open(&r, path, 0, 0, false), -ENOENT);
    CHECK_EQ_INT(region_open(&r, path, 0, 0, true), 0);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size == REGION_HEADER);
    CHECK_EQ_INT(write_version(r, 40, 0), 0);
    for (int i = 0; i < 40; i++) CHECK_EQ_INT(read_version(r, i, 0), 0);
    CHECK_EQ_INT(read_version(r, 100, 0), -1);
    /* Rewrite many times: freed sectors are reused, the file stops growing. */
    off_t size_after_2 = 0;
    for (int v = 1; v <= 12; v++) {
        CHECK_EQ_INT(write_version(r, 40, v), 0);
        if (v == 2) {
            stat(path, &st);
            size_after_2 = st.st_size;
        }
    }
    stat(path, &st);
    CHECK(st.st_size <= size_after_2 * 2);
    CHECK_EQ_INT(st.st_size % REGION_SECTOR, 0);
    /* Used sectors are exactly the header plus the live chunks. */
    uint32_t live = 2;
    for (int i = 0; i < 1024; i++) live += r->locations[i] & 0xff;
    CHECK_EQ_INT(region_used_sectors(r), live);
    region_close(r);
    CHECK_EQ_INT(region_open(&r, path, 0, 0, false), 0);
    for (int i = 0; i < 40; i++) CHECK_EQ_INT(read_version(r, i, 12), 12);
    CHECK_EQ_INT(r->timestamps[3 * 32 + 1], 1012);
    region_close(r);
}

TEST(region_payload_over_1_mib_is_refused_alone)
{
    char path[512];
    region_file(path, sizeof path, "r.1.0.mca");
    region *r;
    CHECK_EQ_INT(region_open(&r, path, 1, 0, true), 0);
    uint8_t *big = calloc(1, REGION_MAX_PAYLOAD + 1);
    region_write w[2] = {{0, 0, big, REGION_MAX_PAYLOAD + 1, 0}, {1, 0, big, 5000, 0}};
    CHECK_EQ_INT(region_write_batch(r, w, 2, 1), -EFBIG);
    CHECK_EQ_INT(w[0].result, -EFBIG);
    CHECK_EQ_INT(w[1].result, 0);
    region_chunk c;
    CHECK_EQ_INT(region_read(r, 0, 0, &c), 0);
    CHECK_EQ_INT(region_read(r, 1, 0, &c), 1);
    CHECK_EQ_INT(c.len, 5000);
    region_chunk_free(&c);
    w[0].len = REGION_MAX_PAYLOAD; /* exactly 255 sectors: fits */
    CHECK_EQ_INT(region_write_batch(r, w, 1, 1), 0);
    CHECK_EQ_INT(r->locations[0] & 0xff, 255);
    free(big);
    region_close(r);
}

/* Every fault at every operation of a batch: the old version stays readable. */
TEST(region_faults_keep_the_previous_version)
{
    static const int errs[] = {EIO, ENOSPC, EROFS};
    char path[512];
    int checked = 0;
    for (int e = 0; e < 3; e++) {
        for (long at = 0; at < 8; at++) {
            for (int torn = 0; torn < 2; torn++) {
                region_file(path, sizeof path, "r.2.0.mca");
                region *r;
                CHECK_EQ_INT(region_open(&r, path, 2, 0, true), 0);
                CHECK_EQ_INT(write_version(r, 20, 0), 0);
                /* 3 chunks: ops 0-2 payloads, 3 fsync, 4 header, 5 fsync. */
                faults_reset();
                F.fail_at = at;
                F.err = errs[e];
                F.torn = torn;
                faults_on();
                int rc = write_version(r, 3, 1);
                long ops = F.ops;
                fio_set(NULL);
                if (at >= ops) { /* past the batch's last op: it succeeded */
                    CHECK_EQ_INT(rc, 0);
                } else {
                    CHECK(rc < 0);
                }
                /* In this process: the old or the new version, never garbage. */
                for (int i = 0; i < 20; i++) {
                    int v = read_version(r, i, 1);
                    CHECK(v == 0 || v == 1);
                    if ((rc < 0 && at < 4) || i >= 3) CHECK_EQ_INT(v, 0); /* before the header */
                }
                /* The next batch (faults gone) succeeds and rewrites the header. */
                CHECK_EQ_INT(write_version(r, 20, 2), 0);
                region_close(r);
                CHECK_EQ_INT(region_open(&r, path, 2, 0, false), 0);
                for (int i = 0; i < 20; i++) CHECK_EQ_INT(read_version(r, i, 2), 2);
                region_close(r);
                faults_reset();
                checked++;
            }
        }
    }
    CHECK(checked == 48);
}

TEST(region_short_writes_are_completed)
{
    char path[512];
    region_file(path, sizeof path, "r.3.0.mca");
    region *r;
    faults_reset();
    F.short_io = true;
    faults_on();
    CHECK_EQ_INT(region_open(&r, path, 3, 0, true), 0);
    CHECK_EQ_INT(write_version(r, 30, 0), 0);
    fio_set(NULL);
    region_close(r);
    CHECK_EQ_INT(region_open(&r, path, 3, 0, false), 0);
    for (int i = 0; i < 30; i++) CHECK_EQ_INT(read_version(r, i, 0), 0);
    region_close(r);
    faults_reset();
}

/* A power cut at every operation of a batch, with unsynced pages lost at
 * random: reopened, every chunk reads as the old or the new version. */
TEST(region_crash_at_any_point_leaves_every_chunk_readable)
{
    char path[512];
    int runs = 0, saw_new = 0, saw_old = 0;
    for (long at = 0; at < 8; at++) {
        for (uint32_t seed = 1; seed <= 6; seed++) {
            region_file(path, sizeof path, "r.4.0.mca");
            region *r;
            CHECK_EQ_INT(region_open(&r, path, 4, 0, true), 0);
            CHECK_EQ_INT(write_version(r, 24, 0), 0);
            faults_reset();
            F.fail_at = at;
            F.err = EIO;
            F.crash = true;
            F.torn = seed & 1;
            faults_on();
            /* 4 chunks: ops 0-3 payloads, 4 fsync, 5 header, 6 fsync; 7 = no crash. */
            write_version(r, 4, 1);
            fio_set(NULL);
            crash_undo(seed * 7919);
            region_close(r); /* the process is gone: nothing more is written */
            CHECK_EQ_INT(region_open(&r, path, 4, 0, false), 0);
            for (int i = 0; i < 24; i++) {
                int v = read_version(r, i, 1);
                CHECK(v == 0 || (v == 1 && i < 4));
                saw_new += v == 1;
                saw_old += v == 0 && i < 4;
            }
            /* And the reopened file takes new writes that never land on live sectors. */
            CHECK_EQ_INT(write_version(r, 24, 2), 0);
            for (int i = 0; i < 24; i++) CHECK_EQ_INT(read_version(r, i, 2), 2);
            region_close(r);
            faults_reset();
            runs++;
        }
    }
    CHECK(saw_old > 0);
    CHECK(saw_new > 0);
    CHECK(runs == 48);
}

/* A read-only disk: O_RDWR opens fail with EROFS. */
static int ro_open(const char *p, int flags, mode_t mode)
{
    if ((flags & O_ACCMODE) != O_RDONLY) {
        errno = EROFS;
        return -1;
    }
    return open(p, flags, mode);
}

TEST(region_read_only_disk_reads_and_refuses_writes)
{
    char path[512];
    region_file(path, sizeof path, "r.5.0.mca");
    region *r;
    CHECK_EQ_INT(region_open(&r, path, 5, 0, true), 0);
    CHECK_EQ_INT(write_version(r, 5, 0), 0);
    region_close(r);
    static fileio_ops ro;
    ro = fio_posix;
    ro.open = ro_open;
    fio_set(&ro);
    CHECK_EQ_INT(region_open(&r, path, 5, 0, false), 0);
    CHECK(r->read_only);
    for (int i = 0; i < 5; i++) CHECK_EQ_INT(read_version(r, i, 0), 0);
    CHECK_EQ_INT(write_version(r, 5, 1), -EROFS);
    for (int i = 0; i < 5; i++) CHECK_EQ_INT(read_version(r, i, 1), 0);
    region_close(r);
    fio_set(NULL);
}

TEST(region_garbage_header_never_crashes_and_keeps_live_sectors)
{
    char path[512];
    region_file(path, sizeof path, "r.6.0.mca");
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    uint8_t hdr[REGION_HEADER];
    uint32_t x = 99;
    for (int i = 0; i < REGION_HEADER; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        hdr[i] = (uint8_t)x;
    }
    /* Entry 0 points into the header, entry 1 has no sectors, entry 2 far past EOF. */
    memcpy(hdr, "\x00\x00\x01\x01", 4);
    memcpy(hdr + 4, "\x00\x00\x05\x00", 4);
    memcpy(hdr + 8, "\x00\x10\x00\x03", 4);
    memcpy(hdr + 12, "\x00\x00\x03\x01", 4); /* entry 3: sector 3, cut short by EOF */
    CHECK(pwrite(fd, hdr, sizeof hdr, 0) == (ssize_t)sizeof hdr);
    CHECK(pwrite(fd, "\0\0\0\x10\x02junk", 9, 3 * 4096) == 9); /* entry at sector 3 */
    close(fd);
    region *r;
    CHECK_EQ_INT(region_open(&r, path, 6, 0, false), 0);
    region_chunk c;
    int absent = 0, corrupt = 0;
    for (int i = 0; i < 1024; i++) {
        int rc = region_read(r, i % 32, i / 32, &c);
        CHECK(rc == 0 || rc == REGION_E_CORRUPT || rc == 1);
        absent += rc == 0;
        corrupt += rc == REGION_E_CORRUPT;
        region_chunk_free(&c);
    }
    CHECK(absent >= 2);
    CHECK(corrupt > 0);
    /* A new chunk never lands on a sector some live entry points at. */
    uint32_t locs[1024];
    memcpy(locs, r->locations, sizeof locs);
    uint8_t data[3000] = {1, 2, 3};
    region_write w = {0, 0, data, sizeof data, 0};
    CHECK_EQ_INT(region_write_batch(r, &w, 1, 5), 0);
    uint32_t mine = r->locations[0];
    for (int i = 1; i < 1024; i++) {
        uint32_t l = locs[i];
        if (!l) continue;
        uint32_t a0 = l >> 8, a1 = a0 + (l & 0xff), b0 = mine >> 8, b1 = b0 + (mine & 0xff);
        CHECK(b1 <= a0 || a1 <= b0);
    }
    CHECK_EQ_INT(region_read(r, 0, 0, &c), 1);
    CHECK(c.len == sizeof data && memcmp(c.data, data, sizeof data) == 0);
    region_chunk_free(&c);
    region_close(r);
}

TEST(fileio_atomic_write_is_old_or_new_at_any_fault)
{
    char path[512];
    snprintf(path, sizeof path, "%s/level.dat", tmpdir());
    for (long at = 0; at < 8; at++) {
        for (int crash = 0; crash < 2; crash++) {
            fio_set(NULL);
            CHECK_EQ_INT(fio_write_atomic(path, "old-content", 11), 0);
            faults_reset();
            F.fail_at = at;
            F.err = at % 2 ? ENOSPC : EIO;
            F.crash = crash;
            F.torn = true;
            faults_on();
            int rc = fio_write_atomic(path, "the-new-content", 15);
            fio_set(NULL);
            uint8_t *p;
            size_t n;
            CHECK_EQ_INT(fio_read_file(path, 1024, &p, &n), 0);
            bool old = n == 11 && memcmp(p, "old-content", 11) == 0;
            bool neu = n == 15 && memcmp(p, "the-new-content", 15) == 0;
            CHECK(old || neu);
            if (rc < 0 && at < 3) CHECK(old); /* failed before the rename */
            if (rc == 0) CHECK(neu);
            free(p);
            faults_reset();
        }
    }
    /* Temporary files of interrupted writes are cleaned up at startup. */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp.1.2", path);
    int fd = open(tmp, O_WRONLY | O_CREAT, 0644);
    close(fd);
    level_remove_stale_temps(tmpdir());
    CHECK(access(tmp, F_OK) != 0);
    CHECK(access(path, F_OK) == 0);
    uint8_t *p;
    size_t n;
    CHECK_EQ_INT(fio_read_file(path, 5, &p, &n), -EFBIG);
}

/* ------------------------------------------------- store + world together */

static int count_files(const char *dir, const char *needle)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls '%s' 2>/dev/null | grep -c -- '%s'", dir, needle);
    FILE *f = popen(cmd, "r");
    int n = 0;
    if (f) {
        if (fscanf(f, "%d", &n) != 1) n = 0;
        pclose(f);
    }
    return n;
}

/* Reads a whole file (at most 1 MiB) into out; its length, or -1. */
static long slurp(const char *path, uint8_t *out, size_t cap)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    long n = (long)pread(fd, out, cap, 0);
    close(fd);
    return n;
}

TEST(region_damaged_header_is_copied_aside_before_it_is_rewritten)
{
    char path[512], dir[512];
    region_file(path, sizeof path, "r.7.0.mca");
    snprintf(dir, sizeof dir, "%s", tmpdir());
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    uint8_t hdr[REGION_HEADER] = {0};
    memcpy(hdr, "\x00\x00\x02\x01", 4);     /* entry 0: sector 2, a good chunk */
    memcpy(hdr + 4, "\x00\x00\x01\x01", 4); /* entry 1: into the header */
    memcpy(hdr + 8, "\x00\x00\x03\x00", 4); /* entry 2: no sectors */
    CHECK(pwrite(fd, hdr, sizeof hdr, 0) == (ssize_t)sizeof hdr);
    CHECK(pwrite(fd,
                 "\0\0\0\x04\x02"
                 "abc",
                 8, 2 * 4096) == 8);
    CHECK(pwrite(fd, "keep me", 7, 3 * 4096) == 7); /* what entry 2 may have meant */
    close(fd);
    static uint8_t before[1 << 20], copy[1 << 20];
    long nbefore = slurp(path, before, sizeof before);
    CHECK(nbefore > REGION_HEADER);

    region *r;
    CHECK_EQ_INT(region_open(&r, path, 7, 0, false), 0);
    CHECK(r->damaged);
    CHECK_EQ_INT(count_files(dir, "r.7.0.mca.corrupt"), 0); /* opening changes nothing */
    /* No room for the copy: nothing is written, the damaged header stays. */
    faults_reset();
    F.fail_at = 0;
    F.err = ENOSPC;
    faults_on();
    uint8_t data[3000] = {4, 5, 6};
    region_write w = {1, 0, data, sizeof data, 0};
    CHECK_EQ_INT(region_write_batch(r, &w, 1, 5), -ENOSPC);
    fio_set(NULL);
    CHECK_EQ_INT(count_files(dir, "r.7.0.mca.corrupt"), 0);
    CHECK(slurp(path, copy, sizeof copy) == nbefore && memcmp(copy, before, (size_t)nbefore) == 0);
    /* Room again: the copy is the file as it was, then the header is rewritten. */
    faults_reset();
    CHECK_EQ_INT(region_write_batch(r, &w, 1, 5), 0);
    CHECK(!r->damaged);
    CHECK_EQ_INT(count_files(dir, "r.7.0.mca.corrupt-[0-9]*$"), 1);
    char cmd[700], aside[700] = "";
    snprintf(cmd, sizeof cmd, "ls -d '%s'/r.7.0.mca.corrupt-* 2>/dev/null", dir);
    FILE *ls = popen(cmd, "r");
    CHECK(ls && fgets(aside, sizeof aside, ls));
    if (ls) pclose(ls);
    aside[strcspn(aside, "\n")] = 0;
    CHECK(slurp(aside, copy, sizeof copy) == nbefore && memcmp(copy, before, (size_t)nbefore) == 0);
    uint8_t now[12];
    CHECK(slurp(path, now, sizeof now) == (long)sizeof now);
    CHECK(memcmp(now + 4, "\0\0\0\0\0\0\0\0", 8) != 0); /* entry 1 is the new chunk */
    CHECK(memcmp(now + 8, "\0\0\0\0", 4) == 0);         /* entry 2 is gone */
    region_chunk c;
    CHECK_EQ_INT(region_read(r, 0, 0, &c), 1);
    CHECK(c.len == 3 && memcmp(c.data, "abc", 3) == 0);
    region_chunk_free(&c);
    /* Repaired: later batches make no more copies. */
    CHECK_EQ_INT(region_write_batch(r, &w, 1, 6), 0);
    CHECK_EQ_INT(count_files(dir, "r.7.0.mca.corrupt"), 1);
    region_close(r);
    /* Reopened, the file is sound: no copy either. */
    CHECK_EQ_INT(region_open(&r, path, 7, 0, false), 0);
    CHECK(!r->damaged);
    region_close(r);
}

static void open_store(struct server_config *cfg, world *w, const char *name)
{
    config_defaults(cfg);
    cfg->level_type = LEVEL_FLAT;
    cfg->seed = 42;
    int n = snprintf(cfg->level_name, sizeof cfg->level_name, "%.80s/%.40s", tmpdir(), name);
    CHECK(n > 0 && (size_t)n < sizeof cfg->level_name);
    char err[256] = "";
    CHECK_EQ_INT(store_open(cfg, err, sizeof err), 0);
    CHECK_EQ_INT(world_init(w, cfg, err, sizeof err), 0);
    store_attach(w, cfg);
}

/* Requests chunk (x, z) until it is READY (jobs run inline: no pool). */
static chunk_entry *load(world *w, int32_t x, int32_t z)
{
    for (int i = 0; i < 3 && !world_loaded(w, x, z); i++) world_acquire_frame(w, x, z);
    chunk_entry *e = world_loaded(w, x, z);
    if (e) world_release(w, x, z, 0);
    return e;
}

TEST(store_saves_edits_reloads_them_and_sets_corrupt_chunks_aside)
{
    struct server_config cfg;
    static world w;
    open_store(&cfg, &w, "world-a");
    /* A second store on the same folder is refused by session.lock. */
    char err[512] = "";
    CHECK_EQ_INT(level_lock(cfg.level_name, err, sizeof err), -1);
    CHECK(strstr(err, "in use by another server") != NULL);
    for (int x = -3; x < 3; x++)
        for (int z = -3; z < 3; z++) CHECK(load(&w, x, z) != NULL);
    CHECK_EQ_INT(w.chunks_generated, 36);
    world_set_block(&w, 5, 10, 5, BLOCK_STONE);
    world_set_block(&w, -20, 100, -40, BLOCK_GRASS_BLOCK);
    world_set_block(&w, -33, -64, 1, BLOCK_AIR);
    world_flush_edits(&w); /* re-encodes (inline): the entries are no longer dirty */
    store_final_save();
    CHECK_EQ_INT(w.save_count[SAVE_LIST_UNSAVED] + w.save_count[SAVE_LIST_QUEUED], 0);
    CHECK(store_get_stats()->chunks_saved >= 36);
    /* Idle chunks unload now that they are saved. */
    CHECK_EQ_INT(world_sweep(&w, 1000000), 36);
    world_free(&w);
    store_close();

    char rdir[512];
    snprintf(rdir, sizeof rdir, "%s/world-a/region", tmpdir());
    CHECK_EQ_INT(count_files(rdir, ".mca$"), 4);

    /* Corrupt chunk 0,0 in place: its payload's compression byte. */
    char rpath[600];
    snprintf(rpath, sizeof rpath, "%s/r.0.0.mca", rdir);
    int fd = open(rpath, O_RDWR);
    uint8_t loc[4];
    CHECK(pread(fd, loc, 4, 0) == 4);
    off_t at = (off_t)((uint32_t)loc[0] << 16 | (uint32_t)loc[1] << 8 | loc[2]) * 4096;
    CHECK(pwrite(fd, "\x07", 1, at + 4) == 1);
    close(fd);

    open_store(&cfg, &w, "world-a");
    chunk_entry *e = load(&w, 0, 0);
    CHECK(e != NULL);
    CHECK_EQ_INT(count_files(rdir, "corrupt-0-0-"), 1);
    CHECK_EQ_INT(store_get_stats()->chunks_corrupt, 1);
    CHECK(world_entry_unsaved(e)); /* regenerated: saved over the corrupt one */
    uint16_t st = 0;
    CHECK_EQ_INT(world_get_block(&w, 5, 10, 5, &st), 0);
    CHECK_EQ_INT(st, BLOCK_AIR); /* 0,0 was regenerated: the edit there is gone */
    CHECK(load(&w, -2, -3) != NULL);
    CHECK_EQ_INT(world_get_block(&w, -20, 100, -40, &st), 0);
    CHECK_EQ_INT(st, BLOCK_GRASS_BLOCK); /* read back from disk */
    CHECK(world_loaded(&w, -2, -3)->save.saved_version == world_loaded(&w, -2, -3)->version);
    CHECK(load(&w, -3, 0) != NULL);
    CHECK_EQ_INT(world_get_block(&w, -33, -64, 1, &st), 0);
    CHECK_EQ_INT(st, BLOCK_AIR); /* bedrock removed, and that stayed */
    CHECK_EQ_INT(w.chunks_loaded, 2);
    store_final_save();
    world_free(&w);
    store_close();
}

TEST(store_write_errors_are_counted_and_retried_without_damage)
{
    struct server_config cfg;
    static world w;
    open_store(&cfg, &w, "world-b");
    for (int x = 0; x < 4; x++) CHECK(load(&w, x, 0) != NULL);
    store_final_save();
    world_set_block(&w, 1, 0, 1, BLOCK_STONE);
    world_set_block(&w, 17, 0, 1, BLOCK_STONE);
    world_flush_edits(&w);
    /* The disk is full: the save fails, is counted, and the chunks stay unsaved in memory. */
    faults_reset();
    F.fail_at = 0;
    F.err = ENOSPC;
    faults_on();
    uint64_t errors = store_get_stats()->save_errors;
    store_save_all(true);
    store_tick(1);
    fio_set(NULL);
    CHECK(store_get_stats()->save_errors >= errors + 2);
    CHECK(world_entry_unsaved(world_loaded(&w, 0, 0)));
    CHECK(world_entry_unsaved(world_loaded(&w, 1, 0)));
    CHECK_EQ_INT(world_sweep(&w, 1000000), 2); /* 2 and 3 are clean; 0 and 1 stay */
    /* Space again: the next save writes them. */
    faults_reset();
    store_save_all(false);
    store_tick(2);
    store_tick(3);
    CHECK(!world_entry_unsaved(world_loaded(&w, 0, 0)));
    CHECK(!world_entry_unsaved(world_loaded(&w, 1, 0)));
    store_final_save();
    world_free(&w);
    store_close();
    open_store(&cfg, &w, "world-b");
    uint16_t st = 0;
    CHECK(load(&w, 1, 0) && load(&w, 0, 0));
    CHECK_EQ_INT(world_get_block(&w, 17, 0, 1, &st), 0);
    CHECK_EQ_INT(st, BLOCK_STONE);
    CHECK_EQ_INT(world_get_block(&w, 1, 0, 1, &st), 0);
    CHECK_EQ_INT(st, BLOCK_STONE);
    store_final_save();
    world_free(&w);
    store_close();
}

/* A stand-in for game/playerdata.c: one "player file" per round, with a ticket. */
static char hook_path[600];
static int hook_writes, hook_rc = 1;
static int heard_n;
static struct store_report heard;

static void hook_done(void *arg, int rc)
{
    (void)arg;
    hook_rc = rc;
}

static void hook_save_players(void)
{
    hook_writes++;
    uint8_t *d = malloc(4);
    if (!d) return;
    memcpy(d, "test", 4);
    store_write_file(hook_path, d, 4, false, STORE_ITEM_PLAYER, store_round_join(), hook_done,
                     NULL);
}

static void on_round_done(void *arg, const struct store_report *r)
{
    (void)arg;
    heard_n++;
    if (r) heard = *r;
}

TEST(store_reports_what_failed_and_the_final_save_retries_it)
{
    struct server_config cfg;
    static world w;
    open_store(&cfg, &w, "world-c");
    snprintf(hook_path, sizeof hook_path, "%s/playerdata/p.dat", cfg.level_name);
    static const struct store_hooks hooks = {NULL, hook_save_players};
    store_set_hooks(&hooks);
    CHECK(load(&w, 0, 0) != NULL);
    /* The disk is full: the requester hears what could not be saved. */
    faults_reset();
    F.fail_at = 0;
    F.err = ENOSPC;
    faults_on();
    CHECK(store_save_all_notify(false, on_round_done, NULL));
    for (int i = 0; i < 5 && heard_n == 0; i++) store_tick(i + 1);
    CHECK_EQ_INT(heard_n, 1);
    CHECK(store_report_failed(&heard));
    CHECK_EQ_INT(heard.failed_chunks, 1);
    CHECK_EQ_INT(heard.failed_level, 1);
    CHECK_EQ_INT(heard.failed_players, 1);
    CHECK_EQ_INT(heard.err, ENOSPC);
    CHECK(hook_rc == -ENOSPC);
    char what[200];
    store_report_describe(&heard, what, sizeof what);
    CHECK(strcmp(what, "1 chunk, level.dat and 1 player file (No space left on device)") == 0);
    CHECK(store_last_report() && store_last_report()->round == heard.round);
    /* Still full at stop: three attempts, each one writing the player file again. */
    hook_writes = 0;
    store_final_save();
    CHECK_EQ_INT(hook_writes, 3);
    CHECK(store_report_failed(store_last_report()));
    /* Space again: one round, everything written. */
    fio_set(NULL);
    faults_reset();
    hook_writes = 0;
    store_final_save();
    CHECK_EQ_INT(hook_writes, 1);
    CHECK(!store_report_failed(store_last_report()));
    CHECK_EQ_INT(hook_rc, 0);
    CHECK(access(hook_path, F_OK) == 0);
    static const struct store_hooks none = {NULL, NULL};
    store_set_hooks(&none);
    world_free(&w);
    store_close();
}
