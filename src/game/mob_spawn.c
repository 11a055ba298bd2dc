/*
 * mob_spawn.c — natural spawning of monsters (issue 15), as vanilla
 * 1.20.1's NaturalSpawner, and the light estimates the hostile mobs need
 * (mob_int.h: mspawn_*).
 *
 * Each tick (mspawn_tick, in phase 6c after the mobs ran), unless the
 * difficulty is peaceful or doMobSpawning is false:
 *   1. the cap: 70 × the loaded chunks within 8 of a player (not a
 *      spectator) / 289, counted every 20 ticks; no spawning at or over it;
 *   2. for each player, up to CHUNKS_PER_PLAYER random chunks within 8 of
 *      it (vanilla tries every such chunk every tick: see the departures),
 *      NaturalSpawner.spawnCategoryForChunk: a random column of the chunk,
 *      a y between the bottom of the world and the highest block + 1; not
 *      inside a block; then 3 packs of ceil(4 × random) steps, each
 *      moving up to 5 blocks in x and z: the first valid step picks the
 *      type by weight (spawn_list) and its group size; a step spawns when
 *      the nearest player is farther than 24 blocks and nearer than 128,
 *      the block below has a full top (not bedrock or a barrier), the two
 *      blocks of the body are empty of blocks and fluids, the chunk is
 *      loaded, and Monster.isDarkEnoughToSpawn holds (block light 0, sky
 *      light ≤ random(32), raw brightness with the sky's darkening ≤
 *      random(8)); at most 4 a chunk (getMaxSpawnClusterSize);
 *   3. the mob is made by mobs_spawn, the same path summon uses (so the
 *      per-chunk cap and the spawn bundling there apply).
 * Light is estimated here (mob_rules.h mob_light_estimate) since the
 * light itself lives on the workers; the estimates are the expensive part,
 * so at most LIGHT_CHECKS a tick are made (a step past the budget fails).
 *
 * Invariants:
 *  1. Never reads an unloaded chunk (world_get_block answers -1 and the
 *     step fails), never asks for one.
 *  2. Bounded work a tick: CHUNKS_PER_TICK chunk attempts, LIGHT_CHECKS
 *     estimates, whatever the number of players.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/mob_int.h"
#include "world/chunk.h"
#include "world/world.h"

#define SPAWN_RADIUS      8    /* chunks (ChunkMap's spawning range for a player) */
#define CHUNKS_PER_PLAYER 16   /* chunk attempts per player per tick */
#define CHUNKS_PER_TICK   256  /* at most, all players together */
#define LIGHT_CHECKS      24   /* light estimates a tick */
#define MIN_PLAYER_DIST   24.0 /* NaturalSpawner: 576 = 24² */
#define MAX_PLAYER_DIST   128.0
#define CLUSTER_MAX       4 /* Mob.getMaxSpawnClusterSize */
#define COUNT_EVERY       20

/*
 * The overworld's plains-like monster list: BiomeDefaultFeatures.monsters
 * with (95, 5, 100, false) as most overworld biomes use it (commonSpawns):
 * type, weight, min and max group. minecraft-data has no biome spawners,
 * so this one table stands for every biome. Types mcserv does not simulate
 * yet keep their weight (a pick of one spawns nothing), so the others
 * come as often as in vanilla.
 */
static const struct {
    int type;
    int weight, min, max;
} spawn_list[] = {
    {ENTITY_TYPE_SPIDER, 100, 4, 4},        {ENTITY_TYPE_ZOMBIE, 95, 4, 4},
    {ENTITY_TYPE_ZOMBIE_VILLAGER, 5, 1, 1}, {ENTITY_TYPE_SKELETON, 100, 4, 4},
    {ENTITY_TYPE_CREEPER, 100, 4, 4},       {ENTITY_TYPE_SLIME, 100, 4, 4},
    {ENTITY_TYPE_ENDERMAN, 10, 1, 4},       {ENTITY_TYPE_WITCH, 5, 1, 1},
};
#define SPAWN_ROWS (sizeof spawn_list / sizeof spawn_list[0])

static uint64_t rng = 0x2545f4914f6cdd1dull;
static int chunks_counted;
static int light_left;
static uint64_t spawned_total;

static int rand_int(int n)
{
    int v = (int)(mob_rnd() * n);
    return v >= n ? n - 1 : v;
}

/* ------------------------------------------------------------ light */

/* The highest block of column (x, z) that filters light, cached for one
 * estimate: columns within 15 of its start. */
static struct {
    int32_t ox, oz;
    uint32_t gen;
    uint32_t stamp[32 * 32];
    int16_t top[32 * 32];
} cols;

static int column_top(int32_t x, int32_t z)
{
    int ix = x - cols.ox, iz = z - cols.oz;
    int k = (ix & 31) * 32 + (iz & 31);
    if (ix >= 0 && ix < 32 && iz >= 0 && iz < 32 && cols.stamp[k] == cols.gen) return cols.top[k];
    chunk_entry *e = world_loaded(&game.world, x >> 4, z >> 4);
    int top = CHUNK_MIN_Y - 1;
    if (e) {
        int s = CHUNK_SECTIONS - 1;
        while (s >= 0 && e->c.sections[s].non_air == 0) s--;
        for (int y = CHUNK_MIN_Y + (s + 1) * 16 - 1; s >= 0 && y >= CHUNK_MIN_Y; y--) {
            uint16_t st = chunk_get_block(&e->c, x & 15, y, z & 15);
            if (block_info[block_of_state[st]].filter_light > 0) {
                top = y;
                break;
            }
        }
    } else {
        top = CHUNK_MIN_Y + CHUNK_HEIGHT; /* unloaded: no sky */
    }
    if (ix >= 0 && ix < 32 && iz >= 0 && iz < 32)
        cols.stamp[k] = cols.gen, cols.top[k] = (int16_t)top;
    return top;
}

static void light_cell(void *ctx, int32_t x, int32_t y, int32_t z, struct mob_light_cell *out)
{
    (void)ctx;
    uint16_t st;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT ||
        world_get_block(&game.world, x, y, z, &st) < 0) {
        out->filter = 15, out->emit = 0, out->sky = y >= CHUNK_MIN_Y + CHUNK_HEIGHT;
        return;
    }
    const struct block_info *b = &block_info[block_of_state[st]];
    out->filter = b->filter_light;
    out->emit = b->emit_light;
    out->sky = b->filter_light == 0 && y > column_top(x, z);
}

/* Sky and block light at a block (mob_light_estimate over the world). */
void mspawn_light(int32_t x, int32_t y, int32_t z, int *sky, int *block)
{
    cols.gen++;
    cols.ox = x - 15, cols.oz = z - 15;
    mob_light_estimate(light_cell, NULL, x, y, z, sky, block);
}

bool mspawn_sees_sky(int32_t x, int32_t y, int32_t z)
{
    cols.gen++;
    cols.ox = x - 15, cols.oz = z - 15;
    return y > column_top(x, z);
}

int mspawn_darken(void)
{
    return mob_sky_darken(game.day_time, game.raining, game.thundering);
}

/* ------------------------------------------------------------ positions */

static int block_at(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return -1;
    return block_of_state[st];
}

/* NaturalSpawner.isValidEmptySpawnBlock: no collision box, no fluid, not a rail. */
static bool empty_for_spawn(int b)
{
    if (b < 0) return false;
    if (block_info[b].flags & BLOCK_FLAG_SOLID) return false;
    if (b == block_of_state[BLOCK_WATER] || b == block_of_state[BLOCK_LAVA]) return false;
    return block_info[b].filter_light < 15;
}

/* BlockState.isValidSpawn for a monster: a full top face (mcserv's full
 * cubes), not bedrock or a barrier, emitting less than 14. */
static bool floor_for_spawn(int b)
{
    if (b < 0 || !(block_info[b].flags & BLOCK_FLAG_SOLID)) return false;
    if (b == block_of_state[BLOCK_BEDROCK] || b == block_of_state[BLOCK_BARRIER]) return false;
    return block_info[b].emit_light < 14;
}

static int pick_type(void)
{
    int total = 0;
    for (size_t i = 0; i < SPAWN_ROWS; i++) total += spawn_list[i].weight;
    int r = rand_int(total);
    for (size_t i = 0; i < SPAWN_ROWS; i++) {
        if (r < spawn_list[i].weight) return (int)i;
        r -= spawn_list[i].weight;
    }
    return 0;
}

/* NaturalSpawner's isValidSpawnPostitionForType for ON_GROUND monsters:
 * the blocks; spot_ok adds Monster.checkMonsterSpawnRules' darkness. */
static bool spot_blocks_ok(int32_t x, int32_t y, int32_t z)
{
    return floor_for_spawn(block_at(x, y - 1, z)) && empty_for_spawn(block_at(x, y, z)) &&
           empty_for_spawn(block_at(x, y + 1, z));
}

/* The light part (after spot_blocks_ok and the player distance). */
static bool spot_ok(int32_t x, int32_t y, int32_t z, int darken)
{
    /* open to the sky, its light is 15: by day that fails the raw
     * brightness test whatever the block light, without an estimate */
    if (y > column_top(x, z) && 15 - darken > 7) return false;
    if (light_left <= 0) return false;
    light_left--;
    int sky, blk;
    mspawn_light(x, y, z, &sky, &blk);
    return mob_dark_enough(sky, blk, darken, &rng);
}

/* NaturalSpawner.spawnCategoryForChunk for the monster category. */
static void spawn_in_chunk(int32_t cx, int32_t cz, int darken, uint32_t *hostile, int cap)
{
    chunk_entry *e = world_loaded(&game.world, cx, cz);
    if (!e) return;
    int32_t x = cx * 16 + rand_int(16), z = cz * 16 + rand_int(16);
    int top = column_top(x, z) + 1; /* WORLD_SURFACE + 1, near enough */
    if (top < CHUNK_MIN_Y) return;
    int32_t y = CHUNK_MIN_Y + rand_int(top - CHUNK_MIN_Y + 1);
    int b = block_at(x, y, z);
    if (b < 0 || (block_info[b].flags & BLOCK_FLAG_SOLID)) return; /* isRedstoneConductor */
    int made = 0;
    for (int pack = 0; pack < 3; pack++) {
        int32_t px = x, pz = z;
        int row = -1, group = 0, steps = (int)ceil(mob_rnd() * 4.0), in_group = 0;
        for (int k = 0; k < steps; k++) {
            px += rand_int(6) - rand_int(6);
            pz += rand_int(6) - rand_int(6);
            /* three block lookups before the players (vanilla asks for
             * the nearest player first: the same spots pass) */
            if (!spot_blocks_ok(px, y, pz)) continue;
            if (ent_player_within(px + 0.5, y, pz + 0.5, MIN_PLAYER_DIST) ||
                !ent_player_within(px + 0.5, y, pz + 0.5, MAX_PLAYER_DIST))
                continue;
            if (row < 0) {
                row = pick_type();
                group =
                    spawn_list[row].min + rand_int(1 + spawn_list[row].max - spawn_list[row].min);
                steps = group;
            }
            if (!mobs_supported(spawn_list[row].type)) break;
            if (!spot_ok(px, y, pz, darken)) continue;
            struct mob_record r;
            mob_record_init(&r);
            r.type = spawn_list[row].type;
            r.pos[0] = px + 0.5, r.pos[1] = y, r.pos[2] = pz + 0.5;
            r.yaw = (float)(mob_rnd() * 360.0);
            char err[96];
            if (mobs_spawn(&r, err, sizeof err) < 0) return; /* the caps: nothing more this tick */
            spawned_total++;
            (*hostile)++;
            if ((int)*hostile >= cap || ++made >= CLUSTER_MAX) return;
            if (++in_group >= group) break;
        }
    }
}

/* The chunk columns holding players (ent_player_columns), gathered for
 * count_chunks: players who stand together are counted once. */
static struct {
    int32_t *x, *z;
    size_t n, cap;
    bool failed;
} cols_of_players;

static void add_column(void *ctx, int32_t cx, int32_t cz)
{
    (void)ctx;
    if (cols_of_players.n == cols_of_players.cap) {
        size_t cap = cols_of_players.cap ? cols_of_players.cap * 2 : 256;
        int32_t *x = realloc(cols_of_players.x, cap * sizeof *x);
        if (x) cols_of_players.x = x;
        int32_t *z = x ? realloc(cols_of_players.z, cap * sizeof *z) : NULL;
        if (!x || !z) {
            cols_of_players.failed = true;
            return;
        }
        cols_of_players.z = z;
        cols_of_players.cap = cap;
    }
    cols_of_players.x[cols_of_players.n] = cx;
    cols_of_players.z[cols_of_players.n++] = cz;
}

static bool chunk_loaded(void *ctx, int32_t cx, int32_t cz)
{
    (void)ctx;
    return world_loaded(&game.world, cx, cz) != NULL;
}

/* Vanilla's spawnable chunk count: loaded chunks within SPAWN_RADIUS of a
 * player (not a spectator), each once; recounted every COUNT_EVERY ticks. */
static int count_chunks(void)
{
    cols_of_players.n = 0;
    cols_of_players.failed = false;
    ent_player_columns(add_column, NULL);
    if (cols_of_players.failed) return chunks_counted;
    int n = mob_count_covered(cols_of_players.x, cols_of_players.z, cols_of_players.n, SPAWN_RADIUS,
                              chunk_loaded, NULL);
    return n < 0 ? chunks_counted : n;
}

void mspawn_tick(uint32_t hostile)
{
    cols.gen++; /* the column cache holds this tick's blocks only */
    if (game.tick_count % COUNT_EVERY == 0) chunks_counted = count_chunks();
    if (gamerules_difficulty() == 0 || !gamerule_on(GR_DO_MOB_SPAWNING) || !game.player_count)
        return;
    int cap = mob_monster_cap(chunks_counted);
    if ((int)hostile >= cap) return;
    int darken = game.thundering ? 10 : mspawn_darken();
    light_left = LIGHT_CHECKS;
    size_t players = game.player_count;
    int per = CHUNKS_PER_TICK / (int)players;
    if (per > CHUNKS_PER_PLAYER) per = CHUNKS_PER_PLAYER;
    if (per < 1) per = 1;
    int tries = 0;
    for (size_t i = 0; i < players && tries < CHUNKS_PER_TICK; i++) {
        const player *p = game.players[(i + game.tick_count) % players]->player;
        if (!p || !p->spawned || p->gamemode == 3) continue;
        int32_t pcx = (int32_t)floor(p->x / 16.0), pcz = (int32_t)floor(p->z / 16.0);
        for (int k = 0; k < per && tries < CHUNKS_PER_TICK; k++, tries++) {
            int32_t cx = pcx + rand_int(2 * SPAWN_RADIUS + 1) - SPAWN_RADIUS;
            int32_t cz = pcz + rand_int(2 * SPAWN_RADIUS + 1) - SPAWN_RADIUS;
            spawn_in_chunk(cx, cz, darken, &hostile, cap);
            if ((int)hostile >= cap) return;
        }
    }
}

uint64_t mspawn_total(void)
{
    return spawned_total;
}
