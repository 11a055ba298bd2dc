/*
 * log.h — timestamped, levelled log lines to stderr and logs/latest.log.
 *
 * Invariants:
 *  1. User text is data: the format string is always ours; every byte of the
 *     finished line below 0x20 (and 0x7f) is escaped as \xNN, so a player name
 *     or chat line can never forge a log line or move the terminal cursor.
 *  2. One call writes one whole line (a single write(2) per sink).
 *  3. The file sink is opened once at startup; a failure to open it is
 *     reported and logging carries on to stderr only.
 *  4. Last run's latest.log is never lost: it is compressed next to it
 *     before being removed (log_rotate), and kept as it is on any failure.
 */
#ifndef MC_LOG_H
#define MC_LOG_H

#include <stddef.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

/*
 * Startup, before log_open_file: moves last run's dir/file aside as vanilla
 * does, gzip-compressed to dir/yyyy-MM-dd-N.log.gz (its modification date,
 * N the first unused from 1), written atomically, then removes it. A file
 * over LOG_ROTATE_MAX is renamed to yyyy-MM-dd-N.log uncompressed. Writes
 * what happened (or why not) into note (for the log, once it is open).
 * 1 rotated, 0 nothing to rotate, -errno on failure (the file is kept).
 */
#define LOG_ROTATE_MAX (256u << 20)
int log_rotate(const char *dir, const char *file, char *note, size_t cap);

/* Opens `path` (creating its directory) for appending; NULL = stderr only. */
int log_open_file(const char *dir, const char *file);
void log_close(void);
void log_set_level(enum log_level min);
/* Silences stderr (tests and mcbench --quiet); the file sink is unaffected. */
void log_set_stderr(int on);

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sees every line logged (its escaped text, any thread) when set: the dashboard's events (issue
 * 18). */
extern void (*log_tap)(enum log_level level, const char *text, size_t len);

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

#endif
