/*
 * ops.h — server operators, kept in ops.json in vanilla's format:
 *
 *   [
 *     {
 *       "uuid": "069a79f4-44e9-4726-a5be-fca90e38aaf5",
 *       "name": "Notch",
 *       "level": 4,
 *       "bypassesPlayerLimit": false
 *     }
 *   ]
 *
 * Read once at startup (a missing file is an empty list; an unreadable or
 * invalid one is reported and treated as empty, and is not overwritten until
 * an op/deop changes the list). Each change is written atomically off the
 * game thread through core/fileio.h (a core/saver.h saver: a temporary
 * file, fsync, rename over ops.json, fsync the folder).
 *
 * Invariants:
 *  1. At most OPS_MAX entries, one per UUID; levels are 1..4.
 *  2. Saves are serialised: one write in flight, a change during it queues
 *     exactly one more write of the newest list. At shutdown a queued write
 *     is done inline, so an op given just before `stop` is kept.
 */
#ifndef MC_OPS_H
#define MC_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "proto/wire.h"

#define OPS_MAX      65536
#define OPS_FILE_MAX (16u << 20)
#define OPS_NAME_MAX 16

struct op_entry {
    mc_uuid uuid;
    char name[OPS_NAME_MAX + 1];
    int level;
    bool bypasses_player_limit;
};

/* Loads `path` (e.g. "ops.json"); 0 even when missing, -1 when invalid (logged). */
int ops_load(const char *path);
/* Parses ops.json text into the list (replacing it); -1 with a message if invalid. */
int ops_parse(const char *text, size_t len, char *err, size_t errlen);
/* Serialises the list as vanilla does (2-space indent); malloc'd, NUL-terminated. */
char *ops_dump(void);

/* 0 when not an operator. */
int ops_level(const mc_uuid *uuid);
/* True for an operator whose entry has bypassesPlayerLimit. */
bool ops_bypasses(const mc_uuid *uuid);
const struct op_entry *ops_find_name(const char *name);
size_t ops_count(void);
const struct op_entry *ops_get(size_t i);
/* 1 added, 0 already an operator, -1 list full. Saves. */
int ops_add(const mc_uuid *uuid, const char *name, int level);
/* The same with bypassesPlayerLimit (ops.json's flag: joins a full server). */
int ops_add_bypass(const mc_uuid *uuid, const char *name, int level, bool bypasses_player_limit);
/* 1 removed, 0 not an operator. Saves. */
int ops_remove(const mc_uuid *uuid);
/* Writes a pending save inline (shutdown). */
void ops_flush(void);

#endif
