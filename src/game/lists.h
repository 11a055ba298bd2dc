/*
 * lists.h — the whitelist and the ban lists, in vanilla's files and formats
 * (Paper docs "Vanilla data files"), each a JSON array written with a
 * 2-space indent:
 *
 *   whitelist.json        [{"uuid": "<dashed>", "name": "Alice"}]
 *   banned-players.json   [{"uuid", "name", "created", "source", "expires", "reason"}]
 *   banned-ips.json       [{"ip", "created", "source", "expires", "reason"}]
 *
 *   created, expires: "yyyy-MM-dd HH:mm:ss Z" (e.g. "2024-01-02 13:04:05 +0000");
 *   expires may be "forever". Defaults as vanilla: source "(Unknown)",
 *   expires "forever", reason "Banned by an operator.".
 *
 * Lifecycle of each file (game thread):
 *
 *   startup: read (missing = empty; invalid = logged, empty, and the file is
 *            left alone: before the first write replaces it, it is renamed
 *            to <file>.corrupt-<yyyyMMdd-HHmmss> so nothing is lost)
 *   change (command) --> one atomic write on a worker (fio_write_atomic:
 *            temp, fsync, rename, fsync dir); a change while writing queues
 *            exactly one more write of the newest list
 *   whitelist reload --> read + parse on a worker --> swapped in (done)
 *
 * Invariants:
 *  1. Bounded: at most LISTS_MAX entries per list, files of at most
 *     LISTS_FILE_MAX bytes, reasons and sources cut at their caps (on a
 *     UTF-8 boundary).
 *  2. One entry per UUID (players) or per address (IPs, kept in RFC 5952
 *     text so "::1" and "0:0::1" are one entry).
 *  3. An expired ban is not a ban: lookups and listings skip it (the file
 *     keeps it until the next write drops it).
 *  4. The core (parse, dump, time and IP text) is pure and thread-safe: it
 *     is what workers, unit tests and the fuzzer run (LISTS_CORE_ONLY).
 */
#ifndef MC_LISTS_H
#define MC_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

#define LISTS_MAX        65536
#define LISTS_FILE_MAX   (16u << 20)
#define LIST_NAME_MAX    16
#define LIST_IP_MAX      46 /* INET6_ADDRSTRLEN */
#define LIST_SOURCE_MAX  64
#define LIST_REASON_MAX  512
#define LIST_DEFAULT_SRC "(Unknown)"
#define LIST_DEFAULT_WHY "Banned by an operator."
#define LIST_FOREVER     INT64_MIN /* expires: never */

enum list_kind { LIST_WHITELIST, LIST_BANNED_PLAYERS, LIST_BANNED_IPS, LIST_KINDS };

struct list_time {
    int64_t epoch;  /* unix seconds */
    int32_t offset; /* seconds east of UTC it was written in */
};

struct list_entry {
    mc_uuid uuid;                 /* players */
    char name[LIST_NAME_MAX + 1]; /* players */
    char ip[LIST_IP_MAX];         /* IP bans */
    struct list_time created;     /* bans */
    struct list_time expires;     /* bans; epoch LIST_FOREVER = "forever" */
    char source[LIST_SOURCE_MAX + 1];
    char reason[LIST_REASON_MAX + 1];
};

/* ------------------------------------------------------------ pure core */

/* The file name of a list ("whitelist.json", ...). */
const char *lists_file(enum list_kind k);
/* Parses a file's text: 0 and a malloc'd array in *out (n entries; free()),
 * or -1 with a message. Duplicate keys keep the first entry. */
int lists_parse(enum list_kind k, const char *text, size_t len, struct list_entry **out, size_t *n,
                char *err, size_t errlen);
/* Vanilla's text for the entries (2-space indent, a final newline); malloc'd. */
char *lists_dump(enum list_kind k, const struct list_entry *e, size_t n);
/* "yyyy-MM-dd HH:mm:ss Z": 0, or -1 if s is not that. */
int lists_parse_time(const char *s, struct list_time *t);
/* Formats t (in its own offset) into out[32]. */
void lists_format_time(const struct list_time *t, char out[32]);
/* Now, in the local time zone's offset. */
struct list_time lists_now(void);
/* An IPv4 or IPv6 address in canonical text (RFC 5952); -1 if not an address. */
int lists_normalize_ip(const char *in, char out[LIST_IP_MAX]);
/* Copies s (len bytes, up to a NUL) into out (cap bytes with the NUL),
 * never splitting a UTF-8 sequence; bytes that are not UTF-8 become '?'. */
void lists_copy_utf8(char *out, size_t cap, const char *s, size_t len);

#ifndef LISTS_CORE_ONLY
/* ---------------------------------------------------- the server's lists */

struct server_config;
/* Loads the three files and white-list (startup, before the loop). */
void lists_init(const struct server_config *cfg);
size_t lists_count(enum list_kind k);
const struct list_entry *lists_get(enum list_kind k, size_t i);

/* The whitelist: on/off (persisted as white-list in server.properties). */
bool lists_whitelist_enabled(void);
void lists_whitelist_set_enabled(bool on);
bool lists_whitelisted(const mc_uuid *uuid);
/* 1 added / removed, 0 nothing to do, -1 list full. Saves. */
int lists_whitelist_add(const mc_uuid *uuid, const char *name);
int lists_whitelist_remove(const mc_uuid *uuid);
/* Re-reads whitelist.json on a worker; done (may be NULL) runs on the game
 * thread once the new list is in place (or the file was found invalid). */
void lists_whitelist_reload(void (*done)(void));

/* Bans. A lookup returns the active (unexpired) entry or NULL. */
const struct list_entry *lists_banned(const mc_uuid *uuid);
const struct list_entry *lists_ip_banned(const char *ip);
/* 1 added, 0 already banned, -1 full. reason NULL: the default. Saves. */
int lists_ban(const mc_uuid *uuid, const char *name, const char *source, const char *reason);
int lists_ban_ip(const char *ip, const char *source, const char *reason);
/* 1 removed, 0 not banned. Saves. */
int lists_pardon(const mc_uuid *uuid);
int lists_pardon_ip(const char *ip);
#endif

#endif
