/*
 * growth_rules.c — see growth_rules.h. The light walk keeps, per cell of
 * the cube of radius 15 - floor around the start, the cheapest cost found
 * so far (0xff: not reached) and runs buckets of cost 0 .. 15 - floor;
 * a cell's light reaches the start as (its level - its cost).
 */
#include "game/growth_rules.h"

#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/fluids.h"
#include "world/block_state.h"
#include "world/features.h"

/* ------------------------------------------------------------ light */

#define LIGHT_RADIUS_MAX 14 /* floor 1 */
#define LIGHT_SIDE_MAX   (2 * LIGHT_RADIUS_MAX + 1)
#define LIGHT_PUSHES_MAX 8192 /* radius 6 needs at most 6 × 377 */

struct walk {
    int radius, side;
    uint8_t cost[LIGHT_SIDE_MAX * LIGHT_SIDE_MAX * LIGHT_SIDE_MAX];
    int16_t head[16];
    int16_t next[LIGHT_PUSHES_MAX];
    int32_t cell[LIGHT_PUSHES_MAX];
    uint8_t at_cost[LIGHT_PUSHES_MAX];
    int pushes;
};

static int index_of(const struct walk *w, int dx, int dy, int dz)
{
    int r = w->radius;
    return ((dy + r) * w->side + (dz + r)) * w->side + (dx + r);
}

static void push(struct walk *w, int idx, int cost)
{
    if (w->pushes >= LIGHT_PUSHES_MAX || cost > w->radius || w->cost[idx] <= cost) return;
    w->cost[idx] = (uint8_t)cost;
    int k = w->pushes++;
    w->cell[k] = idx;
    w->at_cost[k] = (uint8_t)cost;
    w->next[k] = w->head[cost];
    w->head[cost] = (int16_t)k;
}

bool gr_light_at_least(gr_cell_fn fn, void *ctx, int32_t x, int32_t y, int32_t z, int darken,
                       int floor)
{
    if (floor <= 0) return true;
    if (floor > 15) return false;
    if (darken < 0) darken = 0;
    struct walk w;
    w.radius = 15 - floor;
    w.side = 2 * w.radius + 1;
    memset(w.cost, 0xff, (size_t)w.side * (size_t)w.side * (size_t)w.side);
    for (int i = 0; i < 16; i++) w.head[i] = -1;
    w.pushes = 0;
    push(&w, index_of(&w, 0, 0, 0), 0);
    static const int8_t step[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                      {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    for (int g = 0; g <= w.radius; g++)
        while (w.head[g] >= 0) {
            int k = w.head[g];
            w.head[g] = w.next[k];
            int idx = w.cell[k];
            if (w.at_cost[k] != w.cost[idx]) continue; /* reached cheaper since */
            int dx = idx % w.side - w.radius, dz = idx / w.side % w.side - w.radius,
                dy = idx / (w.side * w.side) - w.radius;
            struct gr_cell c;
            fn(ctx, x + dx, y + dy, z + dz, &c);
            int level = c.emit;
            if (c.sky && 15 - darken > level) level = 15 - darken;
            if (level - g >= floor) return true;
            int loss = c.filter > 1 ? c.filter : 1; /* into this cell, toward the start */
            if (g + loss > w.radius) continue;
            for (int s = 0; s < 6; s++) {
                int nx = dx + step[s][0], ny = dy + step[s][1], nz = dz + step[s][2];
                if (nx < -w.radius || nx > w.radius || ny < -w.radius || ny > w.radius ||
                    nz < -w.radius || nz > w.radius)
                    continue;
                push(&w, index_of(&w, nx, ny, nz), g + loss);
            }
        }
    return false;
}

/* ------------------------------------------------------------ block groups */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Blocks (by block index) that are logs or leaves, built on first use. */
enum { IS_LOG = 1, IS_LEAVES = 2 };
static uint8_t group_of(uint16_t st)
{
    static uint8_t groups[BLOCK_COUNT];
    static bool built;
    if (!built) {
        for (int b = 0; b < BLOCK_COUNT; b++) {
            const char *n = block_info[b].name;
            if (!n) continue;
            if (ends_with(n, "_log") || ends_with(n, "_wood") || ends_with(n, "_hyphae") ||
                ((strstr(n, "crimson") || strstr(n, "warped")) && ends_with(n, "_stem")))
                groups[b] = IS_LOG;
            else if (ends_with(n, "_leaves"))
                groups[b] = IS_LEAVES;
        }
        built = true;
    }
    return st < BLOCK_STATE_COUNT ? groups[block_of_state[st]] : 0;
}

bool gr_is_log(uint16_t st)
{
    return group_of(st) == IS_LOG;
}

bool gr_is_dirt(uint16_t st)
{
    return st == BLOCK_DIRT || st == BLOCK_GRASS_BLOCK || st == BLOCK_GRASS_BLOCK - 1 ||
           st == BLOCK_PODZOL || st == BLOCK_PODZOL - 1 || st == BLOCK_COARSE_DIRT ||
           st == BLOCK_MYCELIUM || st == BLOCK_MYCELIUM - 1 || st == BLOCK_ROOTED_DIRT ||
           st == BLOCK_MOSS_BLOCK || st == BLOCK_MUD ||
           (st < BLOCK_STATE_COUNT &&
            block_of_state[st] == block_of_state[BLOCK_MUDDY_MANGROVE_ROOTS]);
}

bool gr_is_sand(uint16_t st)
{
    return st == BLOCK_SAND || st == BLOCK_RED_SAND ||
           (st < BLOCK_STATE_COUNT && block_of_state[st] == block_of_state[BLOCK_SUSPICIOUS_SAND]);
}

bool gr_is_water(uint16_t st)
{
    if (st >= BLOCK_STATE_COUNT) return false;
    if (fl_of(st).type == FL_WATER) return true;
    int b = block_of_state[st];
    if (b == block_of_state[BLOCK_SEAGRASS] || b == block_of_state[BLOCK_TALL_SEAGRASS] ||
        b == block_of_state[BLOCK_KELP] || b == block_of_state[BLOCK_KELP_PLANT] ||
        b == block_of_state[BLOCK_BUBBLE_COLUMN])
        return true;
    const char *v;
    return block_state_prop(st, "waterlogged", &v) >= 0 && strcmp(v, "true") == 0;
}

bool gr_is_lava(uint16_t st)
{
    return st < BLOCK_STATE_COUNT && fl_of(st).type == FL_LAVA;
}

/* ------------------------------------------------------------ saplings */

static const uint16_t sapling_first[GR_SAPLING_KINDS] = {
    [GR_OAK] = BLOCK_OAK_SAPLING,           [GR_SPRUCE] = BLOCK_SPRUCE_SAPLING,
    [GR_BIRCH] = BLOCK_BIRCH_SAPLING,       [GR_JUNGLE] = BLOCK_JUNGLE_SAPLING,
    [GR_ACACIA] = BLOCK_ACACIA_SAPLING,     [GR_CHERRY] = BLOCK_CHERRY_SAPLING,
    [GR_DARK_OAK] = BLOCK_DARK_OAK_SAPLING,
};

int gr_sapling_kind(uint16_t st, int *stage)
{
    for (int k = 0; k < GR_SAPLING_KINDS; k++)
        if (st == sapling_first[k] || st == sapling_first[k] + 1) {
            if (stage) *stage = st - sapling_first[k];
            return k;
        }
    return -1;
}

uint16_t gr_sapling_stage1(int kind)
{
    return kind >= 0 && kind < GR_SAPLING_KINDS ? (uint16_t)(sapling_first[kind] + 1) : BLOCK_AIR;
}

bool gr_sapling_ground(uint16_t below)
{
    return gr_is_dirt(below) ||
           (below >= BLOCK_FARMLAND && below <= BLOCK_FARMLAND + 7); /* BushBlock.mayPlaceOn */
}

int gr_tree_for(int kind, bool two_by_two, uint32_t roll)
{
    switch (kind) {
    case GR_OAK:
        return roll % 10 == 0 ? FEATURES_TREE_FANCY_OAK : FEATURES_TREE_OAK; /* OakTreeGrower */
    case GR_SPRUCE: return FEATURES_TREE_SPRUCE;
    case GR_BIRCH: return FEATURES_TREE_BIRCH;
    case GR_JUNGLE: return two_by_two ? FEATURES_TREE_MEGA_JUNGLE : FEATURES_TREE_JUNGLE;
    case GR_ACACIA: return FEATURES_TREE_ACACIA;
    case GR_CHERRY: return FEATURES_TREE_CHERRY;
    case GR_DARK_OAK:
        return two_by_two ? FEATURES_TREE_DARK_OAK : -1; /* DarkOakTreeGrower: 2x2 only */
    default: return -1;
    }
}

/* ------------------------------------------------------------ sugar cane, cactus */

bool gr_is_cane(uint16_t st)
{
    return st >= BLOCK_SUGAR_CANE && st <= BLOCK_SUGAR_CANE + 15;
}

bool gr_is_cactus(uint16_t st)
{
    return st >= BLOCK_CACTUS && st <= BLOCK_CACTUS + 15;
}

bool gr_cane_survives(uint16_t below, const uint16_t ground_sides[4])
{
    if (gr_is_cane(below)) return true;
    if (!gr_is_dirt(below) && !gr_is_sand(below)) return false;
    for (int i = 0; i < 4; i++)
        if (gr_is_water(ground_sides[i]) ||
            (ground_sides[i] >= BLOCK_FROSTED_ICE && ground_sides[i] <= BLOCK_FROSTED_ICE + 3))
            return true;
    return false;
}

bool gr_cactus_survives(uint16_t below, uint16_t above, const uint16_t sides[4])
{
    for (int i = 0; i < 4; i++) {
        if (sides[i] >= BLOCK_STATE_COUNT) return false;
        if ((block_info[block_of_state[sides[i]]].flags & BLOCK_FLAG_SOLID) || gr_is_lava(sides[i]))
            return false;
    }
    if (above < BLOCK_STATE_COUNT && fl_of(above).type != FL_NONE) return false;
    return gr_is_cactus(below) || gr_is_sand(below);
}

int gr_stalk_tick(int age, int height_below, bool above_empty, bool *grow_above)
{
    *grow_above = false;
    if (!above_empty || height_below + 1 >= 3) return age;
    if (age >= 15) {
        *grow_above = true;
        return 0;
    }
    return age + 1;
}

/* ------------------------------------------------------------ grass, mycelium */

bool gr_is_spreading(uint16_t st)
{
    return st == BLOCK_GRASS_BLOCK || st == BLOCK_GRASS_BLOCK - 1 || st == BLOCK_MYCELIUM ||
           st == BLOCK_MYCELIUM - 1;
}

bool gr_is_snow_layer(uint16_t st)
{
    return st >= BLOCK_SNOW && st <= BLOCK_SNOW + 7;
}

bool gr_can_be_grass(uint16_t above)
{
    if (above == BLOCK_SNOW) return true; /* one layer */
    if (above >= BLOCK_STATE_COUNT) return false;
    struct fl_state f = fl_of(above);
    if (f.type != FL_NONE && f.amount == 8) return false;
    /* LightEngine.getLightBlockInto: a block that uses its shape for light
     * occlusion and has a full bottom face (snow of 2+ layers, a bottom or
     * double slab, bottom stairs) stops light into the grass. */
    const char *v;
    if (gr_is_snow_layer(above)) return false;
    if (block_state_prop(above, "type", &v) >= 0 &&
        ends_with(block_info[block_of_state[above]].name, "_slab"))
        return strcmp(v, "top") == 0;
    if (block_state_prop(above, "half", &v) >= 0 &&
        ends_with(block_info[block_of_state[above]].name, "_stairs"))
        return strcmp(v, "top") == 0;
    return block_info[block_of_state[above]].filter_light < 15;
}

bool gr_can_propagate(uint16_t above)
{
    return gr_can_be_grass(above) && !gr_is_water(above);
}

uint16_t gr_spread_state(uint16_t spreading, uint16_t above)
{
    bool mycelium = spreading == BLOCK_MYCELIUM || spreading == BLOCK_MYCELIUM - 1;
    uint16_t not_snowy = mycelium ? BLOCK_MYCELIUM : BLOCK_GRASS_BLOCK;
    /* snowy=true is the first state */
    return gr_is_snow_layer(above) ? (uint16_t)(not_snowy - 1) : not_snowy;
}

/* ------------------------------------------------------------ leaves */

/* States: distance 1..7 × persistent (true, false) × waterlogged (true, false). */
bool gr_is_leaves(uint16_t st)
{
    return group_of(st) == IS_LEAVES;
}

int gr_leaf_distance(uint16_t st)
{
    if (!gr_is_leaves(st)) return 7;
    return (st - block_info[block_of_state[st]].min_state) / 4 + 1;
}

bool gr_leaf_persistent(uint16_t st)
{
    if (!gr_is_leaves(st)) return false;
    return ((st - block_info[block_of_state[st]].min_state) & 2) == 0;
}

uint16_t gr_leaf_with(uint16_t st, int distance, bool persistent)
{
    if (!gr_is_leaves(st)) return st;
    if (distance < 1) distance = 1;
    if (distance > 7) distance = 7;
    int rest = st - block_info[block_of_state[st]].min_state;
    return (uint16_t)(block_info[block_of_state[st]].min_state + (distance - 1) * 4 +
                      (persistent ? 0 : 2) + (rest & 1));
}

int gr_leaf_distance_from(const uint16_t neighbours[6])
{
    int d = 7;
    for (int i = 0; i < 6; i++) {
        uint16_t n = neighbours[i];
        if (gr_is_log(n)) return 1;
        if (gr_is_leaves(n) && gr_leaf_distance(n) + 1 < d) d = gr_leaf_distance(n) + 1;
    }
    return d;
}

bool gr_leaf_decaying(uint16_t st)
{
    return gr_is_leaves(st) && !gr_leaf_persistent(st) && gr_leaf_distance(st) == 7;
}

/* ------------------------------------------------------------ farmland */

bool gr_tramples(float fall_distance, float roll)
{
    return roll < fall_distance - 0.5f;
}
