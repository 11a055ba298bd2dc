/*
 * log.c — see log.h. Lines look like
 *     [2026-11-30 06:40:01.123 INFO] Done (3.2 ms)! Listening on 127.0.0.1:25565
 */
#include "core/log.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"

static int log_fd = -1;
static int log_to_stderr = 1;
static enum log_level log_min = LOG_INFO;

static const char *const level_names[] = {"DEBUG", "INFO", "WARN", "ERROR"};

int log_rotate(const char *dir, const char *file, char *note, size_t cap)
{
    char path[4096], dst[4200];
    note[0] = 0;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    struct stat st;
    if (stat(path, &st) < 0) return errno == ENOENT ? 0 : -errno;
    if (st.st_size == 0) return 0;
    struct tm tm;
    localtime_r(&st.st_mtime, &tm);
    bool big = (uint64_t)st.st_size > LOG_ROTATE_MAX;
    int n;
    for (n = 1; n < 100000; n++) {
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/%04d-%02d-%02d-%d.log.gz", dir, tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, n);
        snprintf(dst, sizeof dst, "%s/%04d-%02d-%02d-%d.log", dir, tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday, n);
        if (access(probe, F_OK) != 0 && access(dst, F_OK) != 0) break;
    }
    if (big) {
        if (rename(path, dst) < 0) {
            int e = errno;
            snprintf(note, cap, "cannot move %s to %s: %s", path, dst, strerror(e));
            return -e;
        }
        snprintf(note, cap, "moved the previous log (over %u MiB) to %s", LOG_ROTATE_MAX >> 20,
                 dst);
        return 1;
    }
    strcat(dst, ".gz");
    uint8_t *raw = NULL, *gz = NULL;
    size_t len = 0;
    int rc = fio_read_file(path, LOG_ROTATE_MAX, &raw, &len);
    struct libdeflate_compressor *z = rc == 0 ? libdeflate_alloc_compressor(6) : NULL;
    if (rc == 0 && !z) rc = -ENOMEM;
    size_t bound = z ? libdeflate_gzip_compress_bound(z, len) : 0;
    if (rc == 0 && !(gz = malloc(bound))) rc = -ENOMEM;
    size_t glen = rc == 0 ? libdeflate_gzip_compress(z, raw, len, gz, bound) : 0;
    if (rc == 0 && glen == 0) rc = -EIO;
    if (rc == 0) rc = fio_write_atomic(dst, gz, glen);
    if (rc == 0 && unlink(path) < 0) rc = -errno;
    if (rc == 0)
        snprintf(note, cap, "compressed the previous log to %s", dst);
    else
        snprintf(note, cap, "cannot compress %s to %s: %s; it is kept (appending to it)", path, dst,
                 strerror(-rc));
    if (z) libdeflate_free_compressor(z);
    free(raw);
    free(gz);
    return rc == 0 ? 1 : rc;
}

int log_open_file(const char *dir, const char *file)
{
    char path[4096];
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) return -errno;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return -errno;
    if (log_fd >= 0) close(log_fd);
    log_fd = fd;
    return 0;
}

void log_close(void)
{
    if (log_fd >= 0) close(log_fd);
    log_fd = -1;
}

void log_set_level(enum log_level min)
{
    log_min = min;
}

void log_set_stderr(int on)
{
    log_to_stderr = on;
}

/* Copies `src` into `dst` escaping control bytes; returns the length. */
static size_t escape_line(char *dst, size_t cap, const char *src, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c < 0x20 || c == 0x7f) {
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[c >> 4];
            dst[o++] = hex[c & 15];
        } else {
            dst[o++] = (char)c;
        }
    }
    return o;
}

void (*log_tap)(enum log_level level, const char *text, size_t len); /* issue 18 */

void log_msg(enum log_level level, const char *fmt, ...)
{
    if (level < log_min) return;
    char body[2048], line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t blen = (size_t)n < sizeof body ? (size_t)n : sizeof body - 1;

    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    localtime_r(&tv.tv_sec, &tm);
    int h = snprintf(line, sizeof line, "[%04d-%02d-%02d %02d:%02d:%02d.%03d %s] ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     (int)(tv.tv_usec / 1000), level_names[level]);
    size_t len = (size_t)h + escape_line(line + h, sizeof line - (size_t)h - 1, body, blen);
    line[len++] = '\n';
    if (log_tap) log_tap(level, line + h, len - 1 - (size_t)h); /* issue 18: dashboard events */
    if (log_to_stderr) {
        ssize_t w = write(STDERR_FILENO, line, len);
        (void)w;
    }
    if (log_fd >= 0) {
        ssize_t w = write(log_fd, line, len);
        (void)w;
    }
}
