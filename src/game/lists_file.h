/*
 * lists_file.h — the text of the whitelist and the ban lists, in vanilla's
 * files and formats (Paper docs "Vanilla data files"), each a JSON array
 * written with a 2-space indent:
 *
 *   whitelist.json        [{"uuid": "<dashed>", "name": "Alice"}]
 *   banned-players.json   [{"uuid", "name", "created", "source", "expires", "reason"}]
 *   banned-ips.json       [{"ip", "created", "source", "expires", "reason"}]
 *
 *   created, expires: "yyyy-MM-dd HH:mm:ss Z" (e.g. "2024-01-02 13:04:05 +0000");
 *   expires may be "forever". Defaults as vanilla: source "(Unknown)",
 *   expires "forever", reason "Banned by an operator.".
 *
 * Invariants:
 *  1. Pure and thread-safe (no globals, no file I/O): workers, unit tests
 *     and the fuzzer (tests/fuzz/fuzz_lists.c) run it directly.
 *  2. Bounded: at most LISTS_MAX entries; reasons and sources cut at their
 *     caps on a UTF-8 boundary; text that is not UTF-8 becomes '?', so a
 *     dumped file is always valid JSON.
 *  3. One entry per UUID (players) or per address (IPs, kept in RFC 5952
 *     text so "::1" and "0:0::1" are one entry); a duplicate keeps the
 *     first.
 *  4. What parses dumps to text that parses to the same entries.
 */
#ifndef MC_LISTS_FILE_H
#define MC_LISTS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

struct json_t; /* jansson's json_t */

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

/* The file name of a list ("whitelist.json", ...). */
const char *lists_file(enum list_kind k);
/* Parses a file's text: 0 and a malloc'd array in *out (n entries; free()),
 * or -1 with a message. Duplicate keys keep the first entry. */
int lists_parse(enum list_kind k, const char *text, size_t len, struct list_entry **out, size_t *n,
                char *err, size_t errlen);
/* A list file's JSON array (text[0..len), at most max elements) in *root,
 * and a zeroed array of (elements + 1) entries of `size` bytes to parse it
 * into (malloc'd: free()). NULL, *root NULL and a message in err otherwise:
 * "line N: ...", "expected a JSON array[ of <what>]", "more than <max>
 * <what, or entries>", "out of memory". The caller json_decref()s *root.
 * For ops.json too. */
void *lists_json_load(const char *text, size_t len, size_t max, const char *what, size_t size,
                      struct json_t **root, char *err, size_t errlen);
/* Entry i's "uuid" and "name" (a player name) into uuid and name[namecap]:
 * 0, or -1 with "entry <i>: missing or invalid ..." in err. For ops.json too. */
int lists_json_player(struct json_t *o, size_t i, mc_uuid *uuid, char *name, size_t namecap,
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

#endif
