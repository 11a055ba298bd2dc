/*
 * fileio.c — see fileio.h: the plain-syscall table, the helpers over the
 * current table, and the debug-disk-latency wrapper (fio_set_latency).
 */
#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int posix_open(const char *path, int flags, mode_t mode)
{
    return open(path, flags, mode);
}

static int posix_mkdir(const char *path, mode_t mode)
{
    return mkdir(path, mode);
}

const fileio_ops fio_posix = {
    .open = posix_open,
    .pread = pread,
    .pwrite = pwrite,
    .fsync = fsync,
    .fstat = fstat,
    .rename = rename,
    .unlink = unlink,
    .mkdir = posix_mkdir,
    .close = close,
};

const fileio_ops *fio = &fio_posix;

void fio_set(const fileio_ops *ops)
{
    fio = ops ? ops : &fio_posix;
}

/* Moves exactly n bytes at off, by pwrite when `writing`, else pread (buf
 * is then written into; a caller with const data passes writing = true).
 * 0, -errno, or at_eof when the call moves 0 bytes. Bounded: each pass
 * moves forward or returns. */
static int full_io(int fd, void *buf, size_t n, off_t off, bool writing, int at_eof)
{
    uint8_t *p = buf;
    size_t done = 0;
    while (done < n) {
        off_t at = off + (off_t)done;
        ssize_t r = writing ? fio->pwrite(fd, p + done, n - done, at)
                            : fio->pread(fd, p + done, n - done, at);
        if (r < 0) {
            if (errno == EINTR) continue;
            return errno ? -errno : -EIO;
        }
        if (r == 0) return at_eof;
        done += (size_t)r;
    }
    return 0;
}

int fio_pread_full(int fd, void *buf, size_t n, off_t off)
{
    return full_io(fd, buf, n, off, false, -ENODATA);
}

int fio_pwrite_full(int fd, const void *buf, size_t n, off_t off)
{
    return full_io(fd, (void *)buf, n, off, true, -EIO);
}

int fio_fsync(int fd)
{
    for (int i = 0; i < 8; i++) {
        if (fio->fsync(fd) == 0) return 0;
        if (errno != EINTR) return errno ? -errno : -EIO;
    }
    return -EINTR;
}

int fio_mkdir(const char *path)
{
    if (fio->mkdir(path, 0755) == 0) return 0;
    if (errno == EEXIST) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
        return -ENOTDIR;
    }
    return errno ? -errno : -EIO;
}

void fio_dirname(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, cap, ".");
        return;
    }
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1; /* "/file" */
    if (n >= cap) n = cap - 1;
    memcpy(dir, path, n);
    dir[n] = 0;
}

int fio_fsync_dir(const char *dir)
{
    int fd = fio->open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) return errno ? -errno : -EIO;
    int rc = fio_fsync(fd);
    fio->close(fd);
    return rc;
}

int fio_write_atomic(const char *path, const void *data, size_t len)
{
    static unsigned counter;
    char tmp[4096], dir[4096];
    unsigned n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), n) >= (int)sizeof tmp)
        return -ENAMETOOLONG;
    fio_dirname(path, dir, sizeof dir);
    int fd = fio->open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return errno ? -errno : -EIO;
    int rc = fio_pwrite_full(fd, data, len, 0);
    if (rc == 0) rc = fio_fsync(fd);
    if (fio->close(fd) < 0 && rc == 0 && errno != EINTR) rc = errno ? -errno : -EIO;
    if (rc == 0 && fio->rename(tmp, path) < 0) rc = errno ? -errno : -EIO;
    if (rc < 0) {
        fio->unlink(tmp);
        return rc;
    }
    /* The rename is done; make it durable. If this fails the new file may or
     * may not survive a crash, but either version is whole. */
    return fio_fsync_dir(dir);
}

int fio_read_file(const char *path, size_t cap, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    int fd = fio->open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return errno ? -errno : -EIO;
    struct stat st;
    int rc = 0;
    uint8_t *p = NULL;
    if (fio->fstat(fd, &st) < 0) {
        rc = errno ? -errno : -EIO;
        goto out;
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > cap) {
        rc = -EFBIG;
        goto out;
    }
    p = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
    if (!p) {
        rc = -ENOMEM;
        goto out;
    }
    rc = fio_pread_full(fd, p, (size_t)st.st_size, 0);
    if (rc < 0) {
        free(p);
        p = NULL;
        goto out;
    }
    *out = p;
    *len = (size_t)st.st_size;
out:
    fio->close(fd);
    return rc;
}

/* ------------------------------------------------- debug-disk-latency-ms */

static int latency_ms;
static const fileio_ops *latency_inner; /* the table the wrapper forwards to */
static fileio_ops latency_ops;

/* Any thread: sleeps latency_ms (a signal does not cut it short). */
static void latency_wait(void)
{
    struct timespec ts = {latency_ms / 1000, (long)(latency_ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

static int slow_open(const char *path, int flags, mode_t mode)
{
    latency_wait();
    return latency_inner->open(path, flags, mode);
}

static ssize_t slow_pread(int fd, void *buf, size_t n, off_t off)
{
    latency_wait();
    return latency_inner->pread(fd, buf, n, off);
}

static ssize_t slow_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    latency_wait();
    return latency_inner->pwrite(fd, buf, n, off);
}

static int slow_fsync(int fd)
{
    latency_wait();
    return latency_inner->fsync(fd);
}

static int slow_rename(const char *from, const char *to)
{
    latency_wait();
    return latency_inner->rename(from, to);
}

bool fio_set_latency(int ms)
{
    if (ms <= 0 || fio == &latency_ops) return false;
    latency_ms = ms;
    latency_inner = fio;
    latency_ops = *fio; /* fstat, unlink, mkdir and close pass straight through */
    latency_ops.open = slow_open;
    latency_ops.pread = slow_pread;
    latency_ops.pwrite = slow_pwrite;
    latency_ops.fsync = slow_fsync;
    latency_ops.rename = slow_rename;
    fio_set(&latency_ops);
    return true;
}
