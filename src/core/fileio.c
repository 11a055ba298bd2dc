/* fileio.c — see fileio.h. */
#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int fio_pread_full(int fd, void *buf, size_t n, off_t off)
{
    uint8_t *p = buf;
    size_t done = 0;
    /* Bounded: each pass moves forward or returns. */
    while (done < n) {
        ssize_t r = fio->pread(fd, p + done, n - done, off + (off_t)done);
        if (r < 0) {
            if (errno == EINTR) continue;
            return errno ? -errno : -EIO;
        }
        if (r == 0) return -ENODATA;
        done += (size_t)r;
    }
    return 0;
}

int fio_pwrite_full(int fd, const void *buf, size_t n, off_t off)
{
    const uint8_t *p = buf;
    size_t done = 0;
    while (done < n) {
        ssize_t r = fio->pwrite(fd, p + done, n - done, off + (off_t)done);
        if (r < 0) {
            if (errno == EINTR) continue;
            return errno ? -errno : -EIO;
        }
        if (r == 0) return -EIO;
        done += (size_t)r;
    }
    return 0;
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
