/*
 * mob_rules.h — the pure parts of entities other than players (issue 15):
 * box collision against full blocks with step-up (mobs and item entities),
 * loot rolls from data/entity_table.h, the saved entity record (vanilla
 * 1.17+'s entities/r.X.Z.mca chunk NBT) and a stringified-NBT reader for
 * `summon`'s NBT argument. No game state: the unit tests and the fuzz
 * target link this file alone (see mob_rules.c for the rules).
 */
#ifndef MC_MOB_RULES_H
#define MC_MOB_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/nbt.h"
#include "proto/wire.h"

/* ------------------------------------------------------------ collision */

/* True when the block at (x, y, z) has a collision box (counted as a full
 * cube). An unloaded block should answer true (entities rest there). */
typedef bool (*mob_solid_fn)(void *ctx, int32_t x, int32_t y, int32_t z);

#define MOB_MAX_STEP 10.0 /* blocks per tick an entity may move (bounds the block scan) */

struct mob_move {
    double got[3];   /* the movement done */
    bool blocked[3]; /* that axis hit a block */
    bool on_ground;  /* moving down was stopped by a block */
    bool stepped;    /* the step-up was taken */
};

/*
 * Moves the box (feet at pos, half width `half`, height `height`) by want
 * (clamped to ±MOB_MAX_STEP per axis) against full blocks, axis by axis: Y,
 * then the larger of X and Z first (vanilla Entity.collideBoundingBox). When
 * a horizontal axis is blocked and the box was on the ground (or lands in
 * this move), it tries again raised by up to `step` (vanilla maxUpStep, 0.6
 * for mobs; 0 for items) and keeps that when it goes farther horizontally,
 * then settles back down. pos is updated.
 */
void mob_collide(mob_solid_fn solid, void *ctx, double pos[3], double half, double height,
                 const double want[3], double step, bool was_on_ground, struct mob_move *out);

/* ------------------------------------------------------------ loot */

#define MOB_DROPS_MAX 16

struct mob_drop {
    int item, count;
};

/* A uniform double in [0, 1) from the xorshift state *rng. */
double mob_rand(uint64_t *rng);
/* What entity type `type` drops when it dies (entityLoot: each entry by
 * its chance, a count uniform in its range; player-kill entries only when
 * a player killed it). Returns the number of drops written (≤ cap). */
int mob_loot_roll(int type, bool player_kill, uint64_t *rng, struct mob_drop *out, int cap);

/* ------------------------------------------------------------ saved records */

#define MOB_NAME_MAX 256 /* bytes of a CustomName (JSON text) kept */

/* The state a mob keeps as it is saved (mobs.c holds the same struct). */
struct mob_state {
    bool no_ai, on_ground, persistent, sheared;
    bool powered, ignited; /* creeper: charged; lit with flint and steel */
    int8_t color;          /* sheep wool, 0..15; -1 not given */
    int16_t fire;
    float fall_distance;
};

/* What a saved entity holds (vanilla's tags: id, Pos, Motion, Rotation,
 * Health, UUID, CustomName, NoAI, OnGround, FallDistance, Fire, Air,
 * PersistenceRequired, Color and Sheared for sheep, powered and ignited for
 * creepers). */
struct mob_record {
    int type; /* ENTITY_TYPE_* */
    double pos[3], motion[3];
    float yaw, pitch;
    float health;
    bool has_health; /* Health given (else the type's maximum) */
    mc_uuid uuid;
    bool has_uuid;
    struct mob_state st;
    char custom_name[MOB_NAME_MAX]; /* JSON text component; "" none */
};

/* Fills r with defaults (type -1, health not given, colour -1). */
void mob_record_init(struct mob_record *r);
/*
 * Reads one entity compound into r (fields absent keep r's values, so a
 * summon can fill defaults first). need_id: `id` must name a known entity
 * type ("minecraft:cow"). 0, or -1 with why (bad id, Pos not 3 finite
 * doubles inside the world, a non-finite number).
 */
int mob_record_read(const nbt_node *e, struct mob_record *r, bool need_id, char *why, size_t cap);
/* Appends r's tags (the body of a compound, without its END). */
void mob_record_write(buf_t *b, const struct mob_record *r);
/* A whole entities chunk (root compound, uncompressed): DataVersion,
 * Position [I; cx, cz] and the Entities list. */
void mob_chunk_encode(buf_t *b, int32_t cx, int32_t cz, const struct mob_record *r, size_t n);

typedef void (*mob_record_fn)(void *ctx, const struct mob_record *r);
/*
 * Parses an entities chunk (uncompressed NBT): each valid entity goes to fn;
 * an entity that is not valid is skipped and counted in *skipped (its
 * reason in why, the first one). 0, or -1 with why when the chunk itself
 * is unreadable. pos_out (may be NULL) gets Position.
 */
int mob_chunk_parse(const uint8_t *p, size_t len, int32_t pos_out[2], mob_record_fn fn, void *ctx,
                    size_t *skipped, char *why, size_t cap);

/* ------------------------------------------------------------ spawn rules */

#define MOB_MAGIC_CHUNKS 289 /* NaturalSpawner.MAGIC_NUMBER: 17 × 17 chunks */

/* Level.skyDarken (0 noon .. 11 midnight) for the time of day and weather. */
int mob_sky_darken(int64_t day_time, bool rain, bool thunder);
/* The monster cap for `chunks` spawnable chunks: 70 × chunks / 289. */
int mob_monster_cap(int chunks);
/* Chunks within `radius` (Chebyshev) of at least one of the n columns
 * (x[i], z[i]) that `loaded` accepts, each counted once, or -1 out of
 * memory: vanilla's spawnable chunk count from the columns that hold
 * players. mob_count_covered picks the cheaper of two ways; both are
 * exposed for the tests: _set probes (2r+1)² keys a column through a set,
 * _grid marks the columns' bounding box with sliding-window sums, so its
 * cost is the box's area whatever the number of columns. */
typedef bool (*mob_loaded_fn)(void *ctx, int32_t cx, int32_t cz);
int mob_count_covered(const int32_t *x, const int32_t *z, size_t n, int radius,
                      mob_loaded_fn loaded, void *ctx);
int mob_count_covered_set(const int32_t *x, const int32_t *z, size_t n, int radius,
                          mob_loaded_fn loaded, void *ctx);
int mob_count_covered_grid(const int32_t *x, const int32_t *z, size_t n, int radius,
                           mob_loaded_fn loaded, void *ctx);
/* Monster.isDarkEnoughToSpawn from the sky and block light at a spot and
 * the sky darkening (10 when thundering), drawing from *rng. */
bool mob_dark_enough(int sky, int block, int darken, uint64_t *rng);

/* What the light estimate needs of a block: the light it lets through
 * lost (filter, 15 opaque or unloaded), emits, and whether it sees the sky
 * (no block filtering light above it). */
struct mob_light_cell {
    uint8_t filter, emit;
    bool sky;
};
typedef void (*mob_light_fn)(void *ctx, int32_t x, int32_t y, int32_t z,
                             struct mob_light_cell *out);
/*
 * Sky and block light at (x, y, z) by a breadth-first walk through cells
 * that let light through, at most 14 steps and 4,096 cells: a cell that sees
 * the sky at distance d gives 15 − d, an emitter of e gives e − d. mcserv's
 * light lives on the workers (world/light.h), so spawning and the spider's
 * mood estimate it here; it loses 1 a step where vanilla loses the
 * filter's value (water, leaves). Stops early once block light > 0 and
 * sky 15 are known.
 */
void mob_light_estimate(mob_light_fn fn, void *ctx, int32_t x, int32_t y, int32_t z, int *sky,
                        int *block);

/* ------------------------------------------------------------ SNBT */

/*
 * Stringified NBT (`{NoAI:1b,CustomName:'"Bob"',Health:4.0f}`) as binary
 * NBT: a root compound with an empty name appended to out. Numbers take
 * vanilla's suffixes (b s l f d; no suffix: int, or double with a point),
 * true/false are bytes, strings quoted with " or ' or bare; lists and
 * [B; ..] [I; ..] [L; ..] arrays. Depth at most 512, input at most
 * 1,024 bytes a string. 0, or -1 with err: vanilla's translation key, then
 * its arguments each after a '|' ("parsing.expected|}").
 */
int mob_snbt_parse(const char *s, size_t len, buf_t *out, char *err, size_t cap);

#endif
