/*
 * log.c — see log.h. Lines look like
 *     [2026-11-30 06:40:01.123 INFO] Done (3.2 ms)! Listening on 127.0.0.1:25565
 *
 * The file sink (its descriptor, its size, a rotation) is guarded by one
 * mutex, held for a line's write(2) and for the rename-and-reopen of a
 * rotation; compression runs on a thread of its own, outside the lock.
 */
#include "core/log.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"

#define GZ_CHUNK     (1u << 20) /* bytes per gzip member */
/* Path buffers: a directory, then a rotated name's base (+ "/yyyy-MM-dd-N"),
 * then a whole name (+ ".log.gz"), then its temporary (+ ".tmp"). */
#define DIR_MAX      1024
#define BASE_MAX     (DIR_MAX + 48)
#define PATHNAME_MAX (BASE_MAX + 16)
#define TEMPNAME_MAX (PATHNAME_MAX + 8)

static int log_fd = -1;
static int log_to_stderr = 1;
static enum log_level log_min = LOG_INFO;

static const char *const level_names[] = {"DEBUG", "INFO", "WARN", "ERROR"};

/* The file sink (guarded by file_lock). */
static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER;
static char file_dir[DIR_MAX], file_name[256];
static uint64_t file_bytes, file_max;

/* The background compression of a file rotated by size. */
static struct {
    pthread_t thread;
    bool running;     /* started and not joined (file_lock) */
    atomic_bool done; /* the thread has finished */
    char src[PATHNAME_MAX], dst[PATHNAME_MAX];
} gz;

/* ------------------------------------------------------------- gzip files */

/* dir/yyyy-MM-dd-N (no extension): the first N from 1 with neither a .log
 * nor a .log.gz of that name. */
static void rotated_base(const char *dir, const struct tm *tm, char out[BASE_MAX])
{
    for (int n = 1; n < 100000; n++) {
        char probe[PATHNAME_MAX];
        snprintf(out, BASE_MAX, "%.*s/%04d-%02d-%02d-%d", DIR_MAX - 1, dir,
                 (tm->tm_year + 1900) % 10000, tm->tm_mon + 1, tm->tm_mday % 100, n % 100000);
        snprintf(probe, sizeof probe, "%s.log.gz", out);
        if (access(probe, F_OK) == 0) continue;
        snprintf(probe, sizeof probe, "%s.log", out);
        if (access(probe, F_OK) != 0) return;
    }
}

/* Reads up to n bytes at off (fewer only at the end of the file): the count
 * or -errno. */
static ssize_t read_some(int fd, uint8_t *buf, size_t n, off_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = fio->pread(fd, buf + got, n - got, off + (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -errno;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/*
 * Compresses src into dst as gzip members of GZ_CHUNK input bytes each (a
 * multi-member file, RFC 1952 2.2: gzip, zcat, zlib and Java's
 * GZIPInputStream read it as one), memory bounded by one chunk: written to
 * dst.tmp, fsynced, renamed over dst. src is left alone. 0 or -errno.
 */
static int gzip_file(const char *src, const char dst[PATHNAME_MAX])
{
    char tmp[TEMPNAME_MAX];
    snprintf(tmp, sizeof tmp, "%.*s.tmp", PATHNAME_MAX - 1, dst);
    int rc = 0, in = -1, out = -1;
    uint8_t *raw = NULL, *packed = NULL;
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(6);
    size_t bound = z ? libdeflate_gzip_compress_bound(z, GZ_CHUNK) : 0;
    raw = malloc(GZ_CHUNK);
    packed = malloc(bound ? bound : 1);
    if (!z || !raw || !packed) {
        rc = -ENOMEM;
        goto done;
    }
    if ((in = fio->open(src, O_RDONLY | O_CLOEXEC, 0)) < 0 ||
        (out = fio->open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
        rc = -errno;
        goto done;
    }
    off_t roff = 0, woff = 0;
    for (;;) {
        ssize_t n = read_some(in, raw, GZ_CHUNK, roff);
        if (n < 0) {
            rc = (int)n;
            goto done;
        }
        if (n == 0 && roff > 0) break; /* an empty file still gets one (empty) member */
        size_t glen = libdeflate_gzip_compress(z, raw, (size_t)n, packed, bound);
        if (glen == 0) {
            rc = -EIO;
            goto done;
        }
        if ((rc = fio_pwrite_full(out, packed, glen, woff)) < 0) goto done;
        woff += (off_t)glen;
        roff += n;
        if ((size_t)n < GZ_CHUNK) break;
    }
    if ((rc = fio_fsync(out)) < 0) goto done;
    if (fio->close(out) < 0 && rc == 0) rc = -errno;
    out = -1;
    if (rc == 0 && fio->rename(tmp, dst) < 0) rc = -errno;
    if (rc == 0) {
        char d[PATHNAME_MAX];
        fio_dirname(dst, d, sizeof d);
        fio_fsync_dir(d); /* best effort: the rename is done either way */
    }
done:
    if (out >= 0) fio->close(out);
    if (in >= 0) fio->close(in);
    if (rc < 0) fio->unlink(tmp);
    if (z) libdeflate_free_compressor(z);
    free(raw);
    free(packed);
    return rc;
}

int log_rotate(const char *dir, const char *file, char *note, size_t cap)
{
    char path[DIR_MAX + 256], base[BASE_MAX], dst[PATHNAME_MAX];
    note[0] = 0;
    snprintf(path, sizeof path, "%.*s/%.255s", DIR_MAX - 1, dir, file);
    struct stat st;
    if (stat(path, &st) < 0) return errno == ENOENT ? 0 : -errno;
    if (st.st_size == 0) return 0;
    struct tm tm;
    localtime_r(&st.st_mtime, &tm);
    rotated_base(dir, &tm, base);
    if ((uint64_t)st.st_size > LOG_ROTATE_MAX) {
        snprintf(dst, sizeof dst, "%s.log", base);
        if (rename(path, dst) < 0) {
            int e = errno;
            snprintf(note, cap, "cannot move %s to %s: %s", path, dst, strerror(e));
            return -e;
        }
        snprintf(note, cap, "moved the previous log (over %u MiB) to %s", LOG_ROTATE_MAX >> 20,
                 dst);
        return 1;
    }
    snprintf(dst, sizeof dst, "%s.log.gz", base);
    int rc = gzip_file(path, dst);
    if (rc == 0 && unlink(path) < 0) rc = -errno;
    if (rc == 0)
        snprintf(note, cap, "compressed the previous log to %s", dst);
    else
        snprintf(note, cap, "cannot compress %s to %s: %s; it is kept (appending to it)", path, dst,
                 strerror(-rc));
    return rc == 0 ? 1 : rc;
}

/* ----------------------------------------------------------- file sink */

int log_open_file(const char *dir, const char *file)
{
    char path[DIR_MAX + 256];
    if (strlen(dir) >= DIR_MAX || strlen(file) >= 256) return -ENAMETOOLONG;
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) return -errno;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return -errno;
    struct stat st;
    pthread_mutex_lock(&file_lock);
    if (log_fd >= 0) close(log_fd);
    log_fd = fd;
    file_bytes = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
    snprintf(file_dir, sizeof file_dir, "%s", dir);
    snprintf(file_name, sizeof file_name, "%s", file);
    pthread_mutex_unlock(&file_lock);
    return 0;
}

void log_set_max_size(uint64_t max_bytes)
{
    pthread_mutex_lock(&file_lock);
    file_max = max_bytes;
    pthread_mutex_unlock(&file_lock);
}

/* Waits for the compression thread, if one was started (file_lock not held). */
static void gz_join(void)
{
    pthread_mutex_lock(&file_lock);
    bool running = gz.running;
    gz.running = false;
    pthread_mutex_unlock(&file_lock);
    if (running) pthread_join(gz.thread, NULL);
}

void log_close(void)
{
    gz_join();
    pthread_mutex_lock(&file_lock);
    if (log_fd >= 0) close(log_fd);
    log_fd = -1;
    pthread_mutex_unlock(&file_lock);
}

void log_set_level(enum log_level min)
{
    log_min = min;
}

static void (*stderr_before)(void), (*stderr_after)(void);
static pthread_t hooks_thread; /* the hooks run only for lines of this thread */

void log_set_stderr_hooks(void (*before)(void), void (*after)(void))
{
    hooks_thread = pthread_self();
    stderr_before = before;
    stderr_after = after;
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

static _Atomic int line_format = LOG_FORMAT_VANILLA;
static _Thread_local char thread_name[32];

void log_set_format(enum log_format f)
{
    atomic_store(&line_format, f);
}

void log_set_thread_name(const char *name)
{
    snprintf(thread_name, sizeof thread_name, "%s", name);
}

/* The whole line for `body` (prefix, escaped text, newline) in line[cap];
 * returns its length. */
static size_t format_line(char *line, size_t cap, enum log_level level, const char *body,
                          size_t blen)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    localtime_r(&tv.tv_sec, &tm);
    int h;
    if (atomic_load(&line_format) == LOG_FORMAT_VANILLA)
        h = snprintf(line, cap, "[%02d:%02d:%02d] [%.40s/%s]: ", tm.tm_hour, tm.tm_min, tm.tm_sec,
                     thread_name[0] ? thread_name : "main", level_names[level]);
    else
        h = snprintf(line, cap, "[%04d-%02d-%02d %02d:%02d:%02d.%03d %s] ", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     (int)(tv.tv_usec / 1000), level_names[level]);
    size_t len = (size_t)h + escape_line(line + h, cap - (size_t)h - 1, body, blen);
    line[len++] = '\n';
    return len;
}

static void *gz_thread(void *arg)
{
    (void)arg;
    log_set_thread_name("Log4j2-AsyncLogger");
    int rc = gzip_file(gz.src, gz.dst);
    if (rc == 0 && fio->unlink(gz.src) < 0) rc = -errno;
    if (rc == 0)
        log_msg(LOG_INFO, "logs: compressed %s to %s", gz.src, gz.dst);
    else
        log_msg(LOG_WARN, "logs: cannot compress %s to %s: %s; it is kept uncompressed", gz.src,
                gz.dst, strerror(-rc));
    atomic_store(&gz.done, true);
    return NULL;
}

/* Writes a line into the file sink (file_lock held). */
static void file_write_locked(const char *line, size_t len)
{
    ssize_t w = write(log_fd, line, len);
    if (w > 0) file_bytes += (uint64_t)w;
}

/*
 * latest.log reached file_max (file_lock held): renamed to today's
 * yyyy-MM-dd-N.log, a new latest.log opened in its place, and a thread
 * started to compress the old one (invariant 4). While the previous
 * compression runs nothing happens (the file grows a little longer).
 */
static void rotate_locked(void)
{
    if (gz.running) {
        if (!atomic_load(&gz.done)) return;
        pthread_join(gz.thread, NULL);
        gz.running = false;
    }
    char path[DIR_MAX + 256], base[BASE_MAX], note[4000];
    snprintf(path, sizeof path, "%s/%s", file_dir, file_name);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    rotated_base(file_dir, &tm, base);
    snprintf(gz.src, sizeof gz.src, "%s.log", base);
    snprintf(gz.dst, sizeof gz.dst, "%s.log.gz", base);
    size_t nlen;
    char line[4096];
    if (rename(path, gz.src) < 0) {
        nlen = (size_t)snprintf(note, sizeof note,
                                "logs: cannot move %s to %s: %s; it goes on growing", path, gz.src,
                                strerror(errno));
        file_write_locked(line, format_line(line, sizeof line, LOG_WARN, note, nlen));
        file_bytes = 0; /* try again after another log-max-size */
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) { /* keep writing into the renamed file; it is not compressed */
        nlen =
            (size_t)snprintf(note, sizeof note, "logs: cannot open a new %s: %s; writing on in %s",
                             path, strerror(errno), gz.src);
        file_write_locked(line, format_line(line, sizeof line, LOG_WARN, note, nlen));
        file_bytes = 0;
        return;
    }
    close(log_fd);
    log_fd = fd;
    file_bytes = 0;
    nlen = (size_t)snprintf(note, sizeof note,
                            "logs: %s reached log-max-size (%llu bytes); the earlier lines are in "
                            "%s (compressed to %s in the background)",
                            path, (unsigned long long)file_max, gz.src, gz.dst);
    file_write_locked(line, format_line(line, sizeof line, LOG_INFO, note, nlen));
    atomic_store(&gz.done, false);
    if (pthread_create(&gz.thread, NULL, gz_thread, NULL) == 0) {
        gz.running = true;
    } else {
        nlen = (size_t)snprintf(note, sizeof note, "logs: cannot start compressing %s; it is kept",
                                gz.src);
        file_write_locked(line, format_line(line, sizeof line, LOG_WARN, note, nlen));
    }
}

void (*log_tap)(enum log_level level, const char *text, size_t len); /* issue 18 */

static void log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
    char body[2048], line[8192];
    int n = vsnprintf(body, sizeof body, fmt, ap);
    if (n < 0) return;
    size_t blen = (size_t)n < sizeof body ? (size_t)n : sizeof body - 1;
    size_t len = format_line(line, sizeof line, level, body, blen);
    if (log_tap) { /* issue 18: dashboard events; the escaped text, without either prefix */
        char text[8192];
        log_tap(level, text, escape_line(text, sizeof text, body, blen));
    }
    if (log_to_stderr) {
        bool hooked = stderr_before && pthread_equal(pthread_self(), hooks_thread);
        if (hooked) stderr_before();
        ssize_t w = write(STDERR_FILENO, line, len);
        (void)w;
        if (hooked) stderr_after();
    }
    pthread_mutex_lock(&file_lock);
    if (log_fd >= 0) {
        file_write_locked(line, len);
        if (file_max && file_bytes >= file_max) rotate_locked();
    }
    pthread_mutex_unlock(&file_lock);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
    if (level < log_min) return;
    va_list ap;
    va_start(ap, fmt);
    log_vmsg(level, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------ rate-limited kinds */

uint64_t log_suppressed_total;

static int64_t monotonic_ms(void)
{
    return clock_ms();
}

static int64_t (*kind_clock)(void) = monotonic_ms;
static log_kind *kinds; /* every kind used so far (log_kinds_flush) */

void log_set_clock(int64_t (*now_ms)(void))
{
    kind_clock = now_ms ? now_ms : monotonic_ms;
}

/* The window of k has ended at now: its summary, then the next window
 * (twice as long) or quiet. */
static void kind_roll(log_kind *k, int64_t now)
{
    if (k->suppressed) {
        char span[32];
        if (k->window_ms == LOG_KIND_BASE_MS)
            snprintf(span, sizeof span, "second");
        else
            snprintf(span, sizeof span, "%lld s", (long long)(k->window_ms / 1000));
        log_msg(k->level, "... %u more like this in the last %s; the last: %s", k->suppressed, span,
                k->last);
        k->window_ms = k->window_ms * 2 > LOG_KIND_MAX_MS ? LOG_KIND_MAX_MS : k->window_ms * 2;
        k->start_ms = now;
    } else {
        k->active = false;
    }
    k->shown = k->suppressed = 0;
    k->level = LOG_DEBUG;
}

void log_limited(log_kind *k, enum log_level level, const char *fmt, ...)
{
    if (level < log_min) return;
    int64_t now = kind_clock();
    if (!k->listed) {
        k->listed = true;
        k->next = kinds;
        kinds = k;
    }
    if (k->active && now - k->start_ms >= k->window_ms) kind_roll(k, now);
    if (!k->active) {
        k->active = true;
        k->start_ms = now;
        k->window_ms = LOG_KIND_BASE_MS;
    }
    va_list ap;
    va_start(ap, fmt);
    if (k->window_ms == LOG_KIND_BASE_MS && k->shown < LOG_KIND_BURST) {
        k->shown++;
        log_vmsg(level, fmt, ap);
    } else {
        k->suppressed++;
        log_suppressed_total++;
        if (level > k->level) k->level = level;
        int n = vsnprintf(k->last, sizeof k->last, fmt, ap);
        if (n >= (int)sizeof k->last) memcpy(k->last + sizeof k->last - 4, "...", 4);
    }
    va_end(ap);
}

void log_kinds_flush(void)
{
    int64_t now = kind_clock();
    for (log_kind *k = kinds; k; k = k->next)
        if (k->active && now - k->start_ms >= k->window_ms) kind_roll(k, now);
}
