/*
 * lists.h — the server's whitelist and ban lists: the lists in memory,
 * their edits, and their files (vanilla's whitelist.json,
 * banned-players.json and banned-ips.json; formats in game/lists_file.h).
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
 *  4. Parsing and dumping (game/lists_file.h) are pure: the workers run
 *     them on their own copies.
 */
#ifndef MC_LISTS_H
#define MC_LISTS_H

#include <stdbool.h>
#include <stddef.h>

#include "game/lists_file.h"

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
/* The same with an expiry (unix seconds; LIST_FOREVER = never), as vanilla's
 * "expires" field: an expired ban stops refusing and is replaced by a new one. */
int lists_ban_until(const mc_uuid *uuid, const char *name, const char *source, const char *reason,
                    int64_t expires);
int lists_ban_ip_until(const char *ip, const char *source, const char *reason, int64_t expires);
/* 1 removed, 0 not banned. Saves. */
int lists_pardon(const mc_uuid *uuid);
int lists_pardon_ip(const char *ip);

/* Kicks with vanilla's messages: "You are banned from this server", "You
 * have been IP banned from this server". */
struct conn;
void lists_kick_banned(struct conn *c);
void lists_kick_ip_banned(struct conn *c);
/* vanilla kickUnlistedPlayers: with enforce-whitelist and the whitelist on,
 * online players neither listed nor operators (as at login) are kicked
 * ("You are not white-listed on this server!"). Commands and the
 * management protocol call it after a change. */
void lists_kick_unlisted(void);

#endif
