/*
 * usercache.h — vanilla's usercache.json: the name and UUID of each player
 * who joined, so that commands taking a player's name (op, deop, whitelist
 * add, ban, pardon) find a player who is offline, in online mode too,
 * where a name alone does not give the UUID.
 *
 * File (in the server directory), as vanilla's GameProfileCache writes it
 * (Gson, compact, most recently used first, at most USERCACHE_MAX):
 *
 *   [{"name":"Alice","uuid":"10920508-d5d8-3eed-93d2-92f193afe7d7",
 *     "expiresOn":"2024-02-03 12:34:56 +0100"}]
 *
 *   expiresOn: "yyyy-MM-dd HH:mm:ss Z", local time: one calendar month
 *   after the player's last join (Calendar.add(MONTH, 1): Jan 31 → Feb 28).
 *
 * Lifecycle (game thread): read at startup (missing: empty; invalid:
 * logged, empty, and set aside as usercache.json.corrupt-<time> before the
 * next write, core/saver.h); a join adds or refreshes the player; a lookup
 * of an expired entry drops it (vanilla asks Mojang again; mcserv does not,
 * see docs/commands.md). Each change is written within
 * USERCACHE_WRITE_DELAY_MS, or at the next save round if sooner (vanilla
 * writes at each join; a wave of joins costs one write here).
 *
 * Invariants:
 *  1. At most USERCACHE_MAX entries, one per UUID and one per name (any
 *     case); adding past the cap drops the least recently used.
 *  2. Lookups by name ignore case, as vanilla's (keys lower-cased).
 */
#ifndef MC_USERCACHE_H
#define MC_USERCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/loop.h"
#include "proto/wire.h"

#define USERCACHE_MAX            1000 /* vanilla's GAMEPROFILES_MRU_LIMIT */
#define USERCACHE_FILE_MAX       (1u << 20)
#define USERCACHE_WRITE_DELAY_MS 5000 /* a join wave costs one write */

/* Startup: reads usercache.json from the working directory; writes are
 * timed on l (NULL: each change is written at once). */
void usercache_init(loop *l);
/* A player joined: name and UUID cached until a month from now; saved. */
void usercache_add(const mc_uuid *uuid, const char *name);
/* The unexpired entry for name (any case): true, its UUID and its name as
 * cached (name_out[17]). */
bool usercache_find(const char *name, mc_uuid *uuid, char *name_out);
/* How many entries (tests, metrics). */
size_t usercache_count(void);
/* A change not written yet is written now (save rounds, shutdown). */
void usercache_flush(void);

/* The helpers below keep no state (the unit tests call them). */
struct usercache_entry {
    mc_uuid uuid;
    char name[17];
    int64_t expires;        /* unix seconds */
    int32_t expires_offset; /* seconds east of UTC of the text it came from */
    uint64_t last_use;      /* larger = more recent */
};
/* The file's text for n entries, in the order given (compact; malloc'd). */
char *usercache_dump(const struct usercache_entry *e, size_t n);
/* Parses the file: 0 and up to cap entries in e (*n; bad entries are
 * skipped, as vanilla's), or -1 with a message (not a JSON array). */
int usercache_parse(const char *text, size_t len, struct usercache_entry *e, size_t cap, size_t *n,
                    char *err, size_t errlen);
/* One calendar month after t in the local time zone (Calendar.add(MONTH, 1)). */
int64_t usercache_month_after(int64_t t, int32_t *offset);

#endif
