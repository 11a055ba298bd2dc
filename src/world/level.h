/*
 * level.h — the world folder's level.dat and session.lock.
 *
 * level.dat is gzip-compressed NBT, root compound "" with one compound
 * "Data" (1.20.1, DataVersion 3465). What mcserv reads and writes:
 *
 *   tag                   type      meaning
 *   DataVersion           int       3465
 *   Version               compound  {Id: 3465, Name: "1.20.1", Series: "main", Snapshot: 0}
 *   version               int       19133 (the Anvil format)
 *   LevelName             string    level-name
 *   WorldGenSettings      compound  {seed: long, generate_features, bonus_chest,
 *                                   dimensions: {minecraft:overworld: {type,
 *                                   generator: {type: minecraft:noise | minecraft:flat,
 *                                   settings...}}, the_nether, the_end}}
 *   SpawnX, SpawnY, SpawnZ int      world spawn; SpawnAngle float
 *   Time, DayTime         long      game time, time of day (ticks)
 *   LastPlayed            long      ms since the epoch
 *   raining, thundering   byte      weather; rainTime, thunderTime, clearWeatherTime int
 *   GameType              int       default game mode; hardcore byte; Difficulty byte
 *   GameRules             compound  strings, vanilla's defaults for a new world
 *   ServerBrands          list      + "mcserv"
 *
 * Every other tag of an existing level.dat (DragonFight, DataPacks,
 * WorldBorder values, CustomBossEvents, Player, ...) is copied through
 * unchanged, so a vanilla world keeps what mcserv does not understand.
 *
 * session.lock holds "☃" (as vanilla) and is locked with flock and with a
 * POSIX record lock (what the JVM's FileChannel.tryLock takes), so neither
 * a second mcserv nor a vanilla server can open the same world.
 *
 * Invariants:
 *  1. level_read falls back to level.dat_old when level.dat is unreadable;
 *     an unreadable file is renamed aside (level.dat.corrupt-<time>), never
 *     overwritten in place.
 *  2. level_encode is pure (no I/O); writing is fio_write_atomic of the
 *     gzip bytes (temp → fsync → rename → fsync dir), done by the store.
 */
#ifndef MC_LEVEL_H
#define MC_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/config.h"

#define LEVEL_FILE_MAX ((size_t)4 << 20) /* gzip bytes of level.dat */

struct terrain;

typedef struct level_info {
    bool loaded; /* read from an existing level.dat */
    int64_t seed;
    bool has_generator; /* overworld generator understood (flat or noise) */
    enum level_type type;
    char flat_json[1024]; /* flat: layers as generator-settings JSON */
    bool has_spawn;
    int32_t spawn_x, spawn_y, spawn_z;
    float spawn_angle;
    int64_t time, day_time;
    bool raining, thundering;
    int game_type;
    bool hardcore;
    int difficulty;
    char name[128];
    /* The decompressed NBT of the file read (copied through on write). */
    uint8_t *raw;
    size_t raw_len;
} level_info;

/*
 * Locks <dir>/session.lock (creating dir). Returns the fd to keep open for
 * the life of the process, or -1 with a message naming the reason (another
 * server holds it, or an I/O error).
 */
int level_lock(const char *dir, char *err, size_t errlen);
void level_unlock(int fd);

/*
 * Reads <dir>/level.dat into li (zeroed first). Returns 1 loaded, 0 absent
 * (a new world), or -1 when neither level.dat nor level.dat_old can be read
 * (both set aside; li then describes a new world) — logged either way.
 */
int level_read(const char *dir, level_info *li);
/* Parses decompressed level.dat NBT into li (no I/O; for tests and fuzzing). 0 or -1. */
int level_parse(const uint8_t *nbt, size_t len, level_info *li, char *why, size_t whylen);
void level_info_free(level_info *li);

/*
 * Appends the decompressed level.dat NBT for li. cfg supplies what a new
 * world needs (seed, level-type, gamemode, difficulty), terrain the flat
 * layers. `now_ms` is LastPlayed. -1 when out of memory.
 */
int level_encode(const level_info *li, const struct server_config *cfg,
                 const struct terrain *terrain, int64_t now_ms, buf_t *out);

/* Removes temporary files left by an interrupted atomic write (*.tmp.*) in dir. */
void level_remove_stale_temps(const char *dir);

#endif
