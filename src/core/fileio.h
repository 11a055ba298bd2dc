/*
 * fileio.h — the one seam every byte of world persistence goes through.
 *
 * All file I/O of the store (region files, level.dat, player data, backups
 * of corrupt chunks, session.lock) and of the lists (whitelist, bans,
 * ops.json; core/saver.h) calls the function pointers in `fio`, so
 * unit tests can swap in a table that injects short writes, EIO, ENOSPC, a
 * read-only disk or a "crash" (every call fails from the Nth on), without
 * touching the code under test. The default table is the plain syscalls.
 *
 * Conventions: the raw ops behave like the syscalls (-1 and errno). The
 * helpers below return 0 or -errno, never -1, and retry EINTR and short
 * transfers (a short write followed by an error reports that error).
 *
 * Invariants:
 *  1. fio_set() is called only while no other thread does file I/O (at
 *     startup, or by a test before it starts work); the table is read-only
 *     afterwards, so workers read it without locks.
 *  2. fio_write_atomic never leaves `path` partly written: the new bytes go
 *     to a unique temporary file in the same directory, which is fsynced,
 *     renamed over `path`, and the directory fsynced. On any failure `path`
 *     keeps its previous content (or stays absent) and the temporary file is
 *     removed (best effort).
 *  3. fio_read_file never reads more than `cap` bytes: a longer file is an
 *     error (-EFBIG), so a hostile or damaged file cannot exhaust memory.
 */
#ifndef MC_FILEIO_H
#define MC_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct fileio_ops {
    int (*open)(const char *path, int flags, mode_t mode);
    ssize_t (*pread)(int fd, void *buf, size_t n, off_t off);
    ssize_t (*pwrite)(int fd, const void *buf, size_t n, off_t off);
    int (*fsync)(int fd);
    int (*fstat)(int fd, struct stat *st);
    int (*rename)(const char *from, const char *to);
    int (*unlink)(const char *path);
    int (*mkdir)(const char *path, mode_t mode);
    int (*close)(int fd);
} fileio_ops;

/* The current table (never NULL). */
extern const fileio_ops *fio;
/* The plain syscalls. */
extern const fileio_ops fio_posix;
/* Replaces the table (see invariant 1); NULL restores fio_posix. */
void fio_set(const fileio_ops *ops);

/* Reads exactly n bytes at off: 0, -errno, or -ENODATA at end of file. */
int fio_pread_full(int fd, void *buf, size_t n, off_t off);
/* Writes exactly n bytes at off: 0 or -errno (a 0-byte write is -EIO). */
int fio_pwrite_full(int fd, const void *buf, size_t n, off_t off);
/* fsync: 0 or -errno. */
int fio_fsync(int fd);
/* Opens `dir` and fsyncs it (makes a rename or create durable): 0 or -errno. */
int fio_fsync_dir(const char *dir);
/* mkdir that accepts an existing directory: 0 or -errno. */
int fio_mkdir(const char *path);

/* Invariant 2. 0 or -errno. */
int fio_write_atomic(const char *path, const void *data, size_t len);
/*
 * Reads a whole file into *out (malloc'ed, caller frees) of at most `cap`
 * bytes. 0, -ENOENT when absent, -EFBIG when longer than cap, or -errno.
 */
int fio_read_file(const char *path, size_t cap, uint8_t **out, size_t *len);

/* The directory part of `path` into dir (".", when there is no slash). */
void fio_dirname(const char *path, char *dir, size_t cap);

/*
 * Fault injection (debug-disk-latency-ms; tests only): wraps the current
 * table so that every open, pread, pwrite, fsync and rename sleeps `ms`
 * first, on whatever thread does it. Called like fio_set (invariant 1).
 * true when installed; false for ms <= 0 or when it already is.
 */
bool fio_set_latency(int ms);

#endif
