/*
 * growth_rules.h — the pure parts of growth and decay (issue 21): the
 * light a rule asks for, and what saplings, sugar cane, cactus, grass,
 * mycelium, leaves and farmland need of their neighbours, as vanilla
 * 1.20.1's SaplingBlock and tree growers, SugarCaneBlock, CactusBlock,
 * SpreadingSnowyDirtBlock, LeavesBlock and FarmBlock. No globals but
 * lazily built lookup tables of block ids, no I/O: game/growth.c reads the
 * world and applies them; tests/unit/test_growth.c checks them.
 *
 * Light. mcserv computes light on the workers for the packets and keeps
 * only a hash of it (world/light.h), so the rules ask a question that a
 * short walk from the position can answer exactly within the rules' own
 * model of light: "is max(block light, sky light - darken) at least
 * `floor`?". Light at least `floor` can only come from a source at most
 * 15 - floor away, so gr_light_at_least walks the cells around (x, y, z)
 * cheapest first (Dijkstra over step costs max(1, filter of the cell the
 * light enters), vanilla's LightEngine loss), no farther than 15 - floor:
 * a cell above its column's highest light-filtering block is a sky source
 * at 15, an emitter of e a block source at e. For the thresholds the rules
 * use (9, 11, 12) that is at most 377 cells (an octahedron of radius 6).
 *
 * Invariants:
 *  1. gr_light_at_least is exact for its model: the same answer as a full
 *     flood fill (light.c's rules) over cells the callback describes.
 *  2. Every function is total: any state id below BLOCK_STATE_COUNT, any
 *     neighbour, gives an answer.
 */
#ifndef MC_GROWTH_RULES_H
#define MC_GROWTH_RULES_H

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------ light */

/* What the walk needs of a cell: the light it loses (15: opaque, not
 * loaded, outside the world), the light it emits, whether it is a sky
 * source (no light-filtering block above it). */
struct gr_cell {
    uint8_t filter, emit;
    bool sky;
};
typedef void (*gr_cell_fn)(void *ctx, int32_t x, int32_t y, int32_t z, struct gr_cell *out);

/* Sky darkening that leaves no sky light: gr_light_at_least then asks about block light only. */
#define GR_BLOCK_ONLY 15

/*
 * True if max(block light, sky light - darken) at (x, y, z) is at least
 * floor (1..15). darken: vanilla's skyDarken (0 at noon, 11 at midnight),
 * 0 for getRawBrightness(pos, 0), GR_BLOCK_ONLY for block light alone.
 */
bool gr_light_at_least(gr_cell_fn fn, void *ctx, int32_t x, int32_t y, int32_t z, int darken,
                       int floor);

/* ------------------------------------------------------------ block groups */

bool gr_is_log(uint16_t st);   /* BlockTags.LOGS: logs, wood, stems, hyphae */
bool gr_is_dirt(uint16_t st);  /* BlockTags.DIRT */
bool gr_is_sand(uint16_t st);  /* BlockTags.SAND */
bool gr_is_water(uint16_t st); /* water, or a waterlogged block */
bool gr_is_lava(uint16_t st);

/* ------------------------------------------------------------ saplings */

enum gr_sapling {
    GR_OAK,
    GR_SPRUCE,
    GR_BIRCH,
    GR_JUNGLE,
    GR_ACACIA,
    GR_CHERRY,
    GR_DARK_OAK,
    GR_SAPLING_KINDS
};
/* The kind of a sapling state, or -1; *stage gets 0 or 1. */
int gr_sapling_kind(uint16_t st, int *stage);
/* The sapling of kind k at stage 1. */
uint16_t gr_sapling_stage1(int kind);
/* BushBlock.mayPlaceOn for saplings: dirt-like ground or farmland. */
bool gr_sapling_ground(uint16_t below);
/*
 * The tree a sapling of `kind` grows into (features.h enum features_tree),
 * or -1 for none (a lone dark oak sapling): AbstractTreeGrower and
 * AbstractMegaTreeGrower; two_by_two when four saplings of the kind stand
 * in a square with it; roll is a random number (an oak is a fancy oak
 * for 1 in 10).
 */
int gr_tree_for(int kind, bool two_by_two, uint32_t roll);

/* ------------------------------------------------------------ sugar cane, cactus */

bool gr_is_cane(uint16_t st);
bool gr_is_cactus(uint16_t st);
/* SugarCaneBlock.canSurvive: on cane, or on dirt or sand with water (or
 * frosted ice) beside that ground block (sides: its 4 horizontal neighbours). */
bool gr_cane_survives(uint16_t below, const uint16_t ground_sides[4]);
/* CactusBlock.canSurvive: nothing solid and no lava beside it, no liquid
 * above, on cactus or sand. */
bool gr_cactus_survives(uint16_t below, uint16_t above, const uint16_t sides[4]);
/*
 * A random tick on cane or cactus at age `age` with `height_below` blocks
 * of it below and the block above empty: the new age of this block and
 * whether a new block grows on top (age 15 wraps to 0 and grows, while
 * the column is below 3 tall).
 */
int gr_stalk_tick(int age, int height_below, bool above_empty, bool *grow_above);

/* ------------------------------------------------------------ grass, mycelium */

bool gr_is_spreading(uint16_t st); /* grass_block, mycelium */
/* SpreadingSnowyDirtBlock.canBeGrass from the block above. */
bool gr_can_be_grass(uint16_t above);
/* canPropagate: canBeGrass and no water above. */
bool gr_can_propagate(uint16_t above);
/* The grass or mycelium state for `spreading`'s block with snowy set when above is snow. */
uint16_t gr_spread_state(uint16_t spreading, uint16_t above);

/* ------------------------------------------------------------ leaves */

bool gr_is_leaves(uint16_t st);
int gr_leaf_distance(uint16_t st); /* 1..7 */
bool gr_leaf_persistent(uint16_t st);
uint16_t gr_leaf_with(uint16_t st, int distance, bool persistent);
/* LeavesBlock.updateDistance from the six neighbours: 1 beside a log,
 * else one more than the nearest leaves, at most 7. */
int gr_leaf_distance_from(const uint16_t neighbours[6]);
/* LeavesBlock.decaying: not persistent and 7 away (the only leaves that random-tick). */
bool gr_leaf_decaying(uint16_t st);

/* ------------------------------------------------------------ ice, snow, farmland */

/* IceBlock.randomTick: melts when block light > 11 - light block (1). */
#define GR_ICE_MELT_LIGHT  11 /* block light at least this */
#define GR_SNOW_MELT_LIGHT 12 /* SnowLayerBlock: block light > 11 */
bool gr_is_snow_layer(uint16_t st);
/* FarmBlock.fallOn: trampled when roll (0..1) < fall distance - 0.5. */
bool gr_tramples(float fall_distance, float roll);

#endif
