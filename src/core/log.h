/*
 * log.h — timestamped, levelled log lines to stderr and logs/latest.log,
 * rate-limited kinds for lines that remote input causes, and rotation of
 * latest.log (at startup, as vanilla, and by size).
 *
 * Invariants:
 *  1. User text is data: the format string is always ours; every byte of the
 *     finished line below 0x20 (and 0x7f) is escaped as \xNN, so a player name
 *     or chat line can never forge a log line or move the terminal cursor.
 *  2. One call writes one whole line (a single write(2) per sink); lines from
 *     several threads never interleave, and none is lost to a rotation (the
 *     file sink is swapped under its lock).
 *  3. The file sink is opened once at startup (and again by each rotation);
 *     a failure to open it is reported and logging carries on to stderr only.
 *  4. Last run's latest.log is never lost: it is compressed next to it
 *     before being removed (log_rotate), and kept as it is on any failure.
 *     A file rotated by size is renamed first (so writing goes on at once)
 *     and compressed by a background thread; if that fails the renamed
 *     plain-text file stays.
 *  5. Remote input cannot flood the log: every line a peer can cause goes
 *     through a log_kind (log_limited), which writes at most LOG_KIND_BURST
 *     lines per second and then one summary per window, the window doubling
 *     up to LOG_KIND_MAX_MS while the flood lasts. So a sustained flood costs
 *     about one line per kind per minute, and the count is never lost.
 */
#ifndef MC_LOG_H
#define MC_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

/*
 * The line prefix (log-format). Vanilla's log4j pattern
 * `[%d{HH:mm:ss}] [%t/%level]: ` is the default: panels (Pterodactyl),
 * chat bridges and log parsers read it. mcserv's adds the date and the
 * milliseconds: `[2026-12-01 13:44:52.123 INFO] `.
 */
enum log_format { LOG_FORMAT_VANILLA, LOG_FORMAT_MCSERV };
void log_set_format(enum log_format f);
/* Names the calling thread in vanilla-format lines ("Server thread",
 * "Worker-Main-1", as vanilla's; at most 31 bytes kept). A thread that has
 * none is "main". */
void log_set_thread_name(const char *name);

/*
 * Startup, before log_open_file: moves last run's dir/file aside as vanilla
 * does (log4j's filePattern logs/%d{yyyy-MM-dd}-%i.log.gz), gzip-compressed
 * to dir/yyyy-MM-dd-N.log.gz (its modification date, N the first unused from
 * 1), written atomically, then removes it. A file over LOG_ROTATE_MAX is
 * renamed to yyyy-MM-dd-N.log uncompressed. Writes what happened (or why
 * not) into note (for the log, once it is open). 1 rotated, 0 nothing to
 * rotate, -errno on failure (the file is kept).
 */
#define LOG_ROTATE_MAX (256u << 20)
int log_rotate(const char *dir, const char *file, char *note, size_t cap);

/* Opens `path` (creating its directory) for appending; NULL = stderr only. */
int log_open_file(const char *dir, const char *file);
/* Waits for a compression in progress, then closes the file sink. */
void log_close(void);
void log_set_level(enum log_level min);
/* Silences stderr (tests and mcbench --quiet); the file sink is unaffected. */
void log_set_stderr(int on);
/* Called around each line written to stderr (the console's line editor
 * moves its prompt out of the way); NULL, NULL for none. Main thread only. */
void log_set_stderr_hooks(void (*before)(void), void (*after)(void));
/*
 * Rotation by size (log-max-size): once the open file reaches max_bytes it
 * is renamed to dir/yyyy-MM-dd-N.log (today's date, N as above), a new file
 * is opened, and a background thread compresses the old one to
 * yyyy-MM-dd-N.log.gz (gzip members of 1 MiB: any gzip reader reads them
 * as one file). While one compression runs the next rotation waits for it.
 * 0 = only at startup.
 */
void log_set_max_size(uint64_t max_bytes);

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sees every line logged (its escaped text, any thread) when set: the dashboard's events (issue
 * 18). */
extern void (*log_tap)(enum log_level level, const char *text, size_t len);

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

/* ------------------------------------------------------ rate-limited kinds */

#define LOG_KIND_BURST   10    /* lines written in full per 1 s window */
#define LOG_KIND_BASE_MS 1000  /* the first window */
#define LOG_KIND_MAX_MS  60000 /* the longest window while a flood lasts */
#define LOG_KIND_LAST    256   /* bytes of the last suppressed line kept */

/*
 * One kind of line (a static at its call site, zero-initialised: LOG_KIND):
 *
 *   quiet --line--> window of 1 s: the first LOG_KIND_BURST lines written,
 *                   the rest counted (the last one kept)
 *   window ends, some suppressed --> "... N more like this in the last
 *                   second; the last: <text>", next window twice as long
 *                   (at most LOG_KIND_MAX_MS) and nothing written in full
 *   window ends, none suppressed --> quiet
 *
 * Kinds are used on the game thread only (log_msg itself is thread-safe).
 */
typedef struct log_kind {
    bool active;      /* a window is open (else quiet) */
    int64_t start_ms; /* the window's start */
    int64_t window_ms;
    uint32_t shown, suppressed;
    enum log_level level; /* the highest level suppressed in this window */
    bool listed;          /* on the list log_kinds_flush walks */
    struct log_kind *next;
    char last[LOG_KIND_LAST];
} log_kind;
#define LOG_KIND                                                                                   \
    {                                                                                              \
        0                                                                                          \
    }

/* log_msg through kind k (invariant 5). */
void log_limited(log_kind *k, enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes the summaries of windows that have ended (call about once a
 * second; a kind's own next line does it too). */
void log_kinds_flush(void);
/* Lines counted instead of written since start (for /metrics). */
extern uint64_t log_suppressed_total;
/* The clock the kinds use (CLOCK_MONOTONIC ms); tests pass their own, NULL
 * restores it. */
void log_set_clock(int64_t (*now_ms)(void));

#endif
