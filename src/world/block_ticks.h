/*
 * block_ticks.h — the world's scheduled ticks, random ticks and neighbour
 * updates: the clock work of vanilla's LevelTicks, ServerLevel.tickChunk
 * and CollectingNeighborUpdater, with the blocks' rules left to the game
 * layer (game/worldsim.c) through bt_hooks.
 *
 * Scheduled ticks. Each column with something to do has a bt_chunk (owned
 * by its anvil_extra, so the store's snapshot copies it): two queues,
 * block ticks and fluid ticks, each a binary min-heap ordered as vanilla's
 * ScheduledTick.DRAIN_ORDER — trigger tick, then priority (-3 extremely high
 * .. 3 extremely low), then sub-tick order (a world-wide insertion count) —
 * plus a set of (position, type) so a tick already pending at a position is
 * not scheduled again (vanilla's LevelChunkTicks.ticksPerPosition).
 * block_ticks_run drains, per kind (blocks first, then fluids, as
 * ServerLevel.tick), every due tick of the simulated columns in that order,
 * at most BT_MAX_PER_TICK per kind per tick (vanilla's 65,536); what is left
 * waits for the next tick (deferred, never dropped).
 *
 * Saved as vanilla's chunk tags: `block_ticks` and `fluid_ticks`, lists of
 * {i: "minecraft:<block or fluid>", x, y, z: world coordinates, t: ticks
 * left, p: priority}. A copy (anvil_extra_copy, taken on the game thread for
 * a save) holds delays ("relative"), a live queue absolute game ticks of
 * block_ticks_now(); a column read from disk holds delays until it becomes
 * READY, when they are made absolute (vanilla reschedules saved ticks
 * relative to the load time, too).
 *
 * Random ticks. randomTickSpeed positions per 16³ section per tick of a
 * simulated column (vanilla's getBlockRandomPos LCG), but only in sections
 * whose bit in random_mask is set: a section that may hold a block the game
 * random-ticks (bt_hooks.random_ticking). Bits are set when such a block is
 * placed or found in the palettes when the column becomes READY, and
 * cleared by a palette rescan every BT_RESCAN_TICKS; a column of stone has
 * no bt_chunk at all and costs nothing.
 *
 * Simulation distance. Which active columns are near a player is asked of
 * bt_hooks.simulated for the whole active list every BT_NEAR_TICKS only
 * (walking thousands of scattered columns every tick cost milliseconds); a
 * column that becomes active meanwhile is asked at once. So a player's
 * move brings columns into (or out of) simulation up to BT_NEAR_TICKS
 * late; their scheduled ticks then run late, never out of order.
 *
 * Neighbour updates. Every change through world_set_block calls
 * hooks.placed for the block itself (vanilla onPlace), then queues one
 * neighbour update for each of its six neighbours (neighborChanged /
 * updateShape), drained in FIFO order. A chain started by one change runs
 * at most max-chained-neighbor-updates updates; the rest waits for the
 * next tick's drain (which runs that many again), with a log line at most
 * every 10 s. Vanilla drops them; mcserv defers them. The queue holds at
 * most BT_NEIGHBOR_MAX updates (the budgets above bound the changes made
 * per tick far below that); past it an update is dropped and counted in
 * the log line.
 *
 * Simulated: a column is ticked only while hooks.simulated says a player
 * is within simulation distance of it (game/worldsim.c).
 *
 * Invariants:
 *  1. Game thread only; the clock (block_ticks_now) moves once per tick.
 *  2. A live bt_chunk is on the active list ⇔ its queues are not empty or
 *     its random_mask is not 0; a copy or a chunk not yet READY is on no
 *     list (its node is self-linked) and holds relative delays.
 *  3. In each queue, set holds exactly the (position, type) keys of heap.
 */
#ifndef MC_BLOCK_TICKS_H
#define MC_BLOCK_TICKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/list.h"
#include "proto/nbt.h"

#define BT_MAX_PER_TICK     65536     /* per kind, as vanilla's blockTicks/fluidTicks.tick */
#define BT_NEIGHBOR_MAX     (1 << 22) /* queued neighbour updates, 64 MiB */
#define BT_PER_CHUNK_MAX    65536     /* ticks read per kind per column from disk */
#define BT_RESCAN_TICKS     600       /* random_mask rebuilt from the palettes */
#define BT_NEAR_TICKS       20        /* the simulated columns asked again */
#define BT_RANDOM_SPEED_MAX 4096      /* randomTickSpeed used at most */

enum bt_kind { BT_BLOCK, BT_FLUID, BT_KINDS };

/* Fluid tick types (vanilla's fluid registry: the `i` of fluid_ticks). */
enum bt_fluid {
    BT_FLUID_NONE,
    BT_FLUID_WATER,
    BT_FLUID_FLOWING_WATER,
    BT_FLUID_LAVA,
    BT_FLUID_FLOWING_LAVA,
    BT_FLUID_TYPES
};

struct bt_tick {
    int64_t trigger; /* game tick (live) or delay (relative) */
    uint64_t seq;    /* sub-tick order */
    uint16_t type;   /* block id (BT_BLOCK) or enum bt_fluid */
    int8_t prio;     /* -3..3 */
    uint8_t lxz;     /* x & 15 | (z & 15) << 4 */
    int16_t y;
};

struct bt_queue {
    struct bt_tick *heap;
    uint32_t len, cap;
    uint64_t *set; /* open addressing, 0 = empty; key + 1 */
    uint32_t set_cap;
};

typedef struct bt_chunk {
    int32_t cx, cz;
    struct bt_queue q[BT_KINDS];
    bool relative;        /* triggers are delays (invariant 2) */
    uint32_t random_mask; /* bit s: section s may hold random-ticking blocks */
    int64_t rescan_at;
    uint64_t listed;   /* == the near list's epoch: in it (block_sim.c) */
    uint64_t gathered; /* the gather that last put it in the tick's columns */
    list_node link;    /* on the active list */
} bt_chunk;

/* ---- pure parts (unit tested) ---- */

/* Orders two ticks as vanilla's DRAIN_ORDER; <0, 0, >0. */
int bt_tick_cmp(const struct bt_tick *a, const struct bt_tick *b);
/* Adds t unless a tick of t's type is pending at t's position: 1 added,
 * 0 already there, -1 out of memory. */
int bt_queue_push(struct bt_queue *q, const struct bt_tick *t);
/* The first tick in drain order, or NULL. */
const struct bt_tick *bt_queue_top(const struct bt_queue *q);
void bt_queue_pop(struct bt_queue *q);
bool bt_queue_has(const struct bt_queue *q, uint8_t lxz, int16_t y, uint16_t type);
void bt_queue_free(struct bt_queue *q);

/* One due tick with its column. */
struct bt_due {
    struct bt_tick t;
    int32_t cx, cz;
};
/*
 * Takes from the columns' queue `kind` the ticks with trigger <= now, in
 * drain order across all of them, at most max; returns how many went into
 * out (which has room for max). Ticks not taken stay queued.
 */
size_t bt_collect(bt_chunk **cols, size_t n, enum bt_kind kind, int64_t now, size_t max,
                  struct bt_due *out);

bt_chunk *bt_chunk_new(int32_t cx, int32_t cz);
/* Frees c and takes it off the active list. */
void bt_chunk_free(bt_chunk *c);
/* A detached copy with delays relative to now; NULL when out of memory. */
bt_chunk *bt_chunk_copy(const bt_chunk *c, int64_t now);
/* Writes block_ticks and fluid_ticks (relative delays) for column c (may be NULL: empty lists). */
void bt_chunk_write(buf_t *b, const bt_chunk *c, int64_t now);
/* Reads block_ticks / fluid_ticks of a chunk's root compound into a new
 * relative bt_chunk (*out NULL when both are absent or empty). Entries with
 * unknown ids or positions outside the column are skipped and counted in
 * *skipped. 0, or -1 when out of memory. */
int bt_chunk_read(const nbt_node *root, int32_t cx, int32_t cz, bt_chunk **out, unsigned *skipped);

/* Block ids and fluid names as the tags spell them. */
const char *bt_fluid_name(int type);
int bt_fluid_by_name(const char *s, size_t len);

/* ---- the world's simulation (game thread; world/block_sim.c) ---- */

struct world;
struct chunk_entry;

struct bt_hooks {
    /* The block at (x, y, z) changed from old to now (vanilla onPlace). */
    void (*placed)(int32_t x, int32_t y, int32_t z, uint16_t old, uint16_t now);
    /* The block at (x, y, z) has a neighbour at (fx, fy, fz) that changed. */
    void (*neighbor)(int32_t x, int32_t y, int32_t z, int32_t fx, int32_t fy, int32_t fz);
    /* A scheduled tick is due. */
    void (*tick)(enum bt_kind kind, int32_t x, int32_t y, int32_t z, uint16_t type);
    /* A random tick landed on a block the game random-ticks. */
    void (*random)(int32_t x, int32_t y, int32_t z, uint16_t state);
    bool (*random_ticking)(uint16_t state);
    /* Column (cx, cz) is within simulation distance of a player. */
    bool (*simulated)(int32_t cx, int32_t cz);
};

/* Hooks world w's block changes and READY columns; max_chained: the
 * server.properties bound (negative: none). */
void block_ticks_attach(struct world *w, const struct bt_hooks *h, int max_chained);
/* The simulation's clock (game ticks); block_ticks_run sets it. */
int64_t block_ticks_now(void);
void block_ticks_set_now(int64_t now);
/* Schedules a tick delay ticks from now at a loaded position: 1 scheduled,
 * 0 already pending there, -1 the column is not loaded or out of memory. */
int block_ticks_schedule(struct world *w, enum bt_kind kind, int32_t x, int32_t y, int32_t z,
                         uint16_t type, int delay, int prio);
/* vanilla updateNeighborsAt: queues a neighbour update for each of the six
 * neighbours of (x, y, z) (as a change there does), bounded as they are. */
void block_ticks_update_neighbors(int32_t x, int32_t y, int32_t z);
bool block_ticks_pending(struct world *w, enum bt_kind kind, int32_t x, int32_t y, int32_t z,
                         uint16_t type);
/* One tick: the deferred neighbour updates, due scheduled ticks (blocks,
 * then fluids), then random ticks. */
void block_ticks_run(struct world *w, int64_t now, int random_tick_speed);

struct bt_stats {
    uint64_t block_ticks, fluid_ticks, random_ticks, neighbor_updates;
    uint64_t deferred_ticks, deferred_neighbors, dropped_neighbors;
    size_t active_chunks, pending;
    size_t random_chunks; /* columns random-ticked in the last tick */
};
void block_ticks_stats(struct bt_stats *out);
/* Forgets the active list and the neighbour queue (server shutdown). */
void block_ticks_free(void);

#endif
