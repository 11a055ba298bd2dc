/*
 * growth.c — see growth.h. Random ticks come from world/block_ticks.c
 * through game/worldsim.c; every change goes through play_set_block, so
 * every viewer sees it and its neighbours are updated. The rules' pure
 * parts (light walk, what each plant needs) are in game/growth_rules.c;
 * this file reads the world for them and applies their answers.
 */
#include "game/growth.h"

#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/fluids.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/growth_rules.h"
#include "game/items.h"
#include "game/mob_rules.h"
#include "game/play.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/block_ticks.h"
#include "world/features.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

struct crop {
    uint16_t first; /* state of age 0 */
    int max_age;
};

static const struct crop *crop_of(uint16_t st)
{
    static const struct crop crops[] = {
        {BLOCK_WHEAT, 7}, {BLOCK_CARROTS, 7}, {BLOCK_POTATOES, 7}, {BLOCK_BEETROOTS, 3}};
    for (size_t i = 0; i < sizeof crops / sizeof crops[0]; i++)
        if (st >= crops[i].first && st <= crops[i].first + crops[i].max_age) return &crops[i];
    return NULL;
}

static bool is_farmland(uint16_t st)
{
    return st >= BLOCK_FARMLAND && st <= BLOCK_FARMLAND + 7;
}

static uint16_t at(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT ||
        world_get_block(&game.world, x, y, z, &st) < 0)
        return BLOCK_BEDROCK;
    return st;
}

static bool same_crop(uint16_t st, const struct crop *c)
{
    return crop_of(st) == c;
}

/* CropBlock.getGrowthSpeed. */
static float growth_speed(const struct crop *c, int32_t x, int32_t y, int32_t z)
{
    float f = 1.0f;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++) {
            float g = 0.0f;
            uint16_t b = at(x + i, y - 1, z + j);
            if (is_farmland(b)) g = b > BLOCK_FARMLAND ? 3.0f : 1.0f;
            if (i != 0 || j != 0) g /= 4.0f;
            f += g;
        }
    bool ew = same_crop(at(x - 1, y, z), c) || same_crop(at(x + 1, y, z), c);
    bool ns = same_crop(at(x, y, z - 1), c) || same_crop(at(x, y, z + 1), c);
    if (ew && ns)
        f /= 2.0f;
    else if (same_crop(at(x - 1, y, z - 1), c) || same_crop(at(x + 1, y, z - 1), c) ||
             same_crop(at(x + 1, y, z + 1), c) || same_crop(at(x - 1, y, z + 1), c))
        f /= 2.0f;
    return f;
}

/* FarmBlock.isNearWater: water in x, z ± 4, y .. y + 1. */
static bool near_water(int32_t x, int32_t y, int32_t z)
{
    for (int dy = 0; dy <= 1; dy++)
        for (int dx = -4; dx <= 4; dx++)
            for (int dz = -4; dz <= 4; dz++)
                if (fl_of(at(x + dx, y + dy, z + dz)).type == FL_WATER) return true;
    return false;
}

/* ------------------------------------------------------------ light */

/* The highest light-filtering block of each column near one walk's start
 * (the walk reaches at most 14 columns away). */
struct light_ctx {
    int32_t ox, oz;
    bool known[29 * 29];
    int16_t top[29 * 29];
};

static int column_top(struct light_ctx *lc, int32_t x, int32_t z)
{
    int ix = x - lc->ox, iz = z - lc->oz;
    bool cached = ix >= 0 && ix < 29 && iz >= 0 && iz < 29;
    if (cached && lc->known[iz * 29 + ix]) return lc->top[iz * 29 + ix];
    chunk_entry *e = world_loaded(&game.world, x >> 4, z >> 4);
    int top = CHUNK_MIN_Y + CHUNK_HEIGHT; /* not loaded: no sky */
    if (e) {
        top = CHUNK_MIN_Y - 1;
        int s = CHUNK_SECTIONS - 1;
        while (s >= 0 && e->c.sections[s].non_air == 0) s--;
        for (int y = CHUNK_MIN_Y + (s + 1) * 16 - 1; s >= 0 && y >= CHUNK_MIN_Y; y--)
            if (block_info[block_of_state[chunk_get_block(&e->c, x & 15, y, z & 15)]].filter_light >
                0) {
                top = y;
                break;
            }
    }
    if (cached) lc->known[iz * 29 + ix] = true, lc->top[iz * 29 + ix] = (int16_t)top;
    return top;
}

static void light_cell(void *ctx, int32_t x, int32_t y, int32_t z, struct gr_cell *out)
{
    uint16_t st;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT ||
        world_get_block(&game.world, x, y, z, &st) < 0) {
        *out = (struct gr_cell){15, 0, y >= CHUNK_MIN_Y + CHUNK_HEIGHT};
        return;
    }
    const struct block_info *b = &block_info[block_of_state[st]];
    out->filter = b->filter_light;
    out->emit = b->emit_light;
    out->sky = b->filter_light == 0 && y > column_top(ctx, x, z);
}

/* Whether a section may hold a block emitting at least `emit`: its
 * palette says so (palettes only grow while editing, so a stale entry
 * only makes this answer "maybe"); a direct section always may. */
static bool section_may_emit(const section *s, int emit)
{
    if (s->bits == 0) return block_info[block_of_state[s->single]].emit_light >= emit;
    if (s->bits > 8) return true;
    for (unsigned i = 0; i < s->palette_len; i++)
        if (block_info[block_of_state[s->palette[i]]].emit_light >= emit) return true;
    return false;
}

/* Whether any loaded section within r blocks of (x, y, z) may hold a block
 * emitting at least `emit` (an unloaded column emits nothing: light_cell). */
static bool emitter_near(int32_t x, int32_t y, int32_t z, int r, int emit)
{
    int s0 = (y - r - CHUNK_MIN_Y) >> 4, s1 = (y + r - CHUNK_MIN_Y) >> 4;
    if (s0 < 0) s0 = 0;
    if (s1 > CHUNK_SECTIONS - 1) s1 = CHUNK_SECTIONS - 1;
    for (int32_t cz = (z - r) >> 4; cz <= (z + r) >> 4; cz++)
        for (int32_t cx = (x - r) >> 4; cx <= (x + r) >> 4; cx++) {
            chunk_entry *e = world_loaded(&game.world, cx, cz);
            if (!e) continue;
            for (int s = s0; s <= s1; s++)
                if (section_may_emit(&e->c.sections[s], emit)) return true;
        }
    return false;
}

/* max(block, sky - darken) at (x, y, z) >= floor (growth_rules.h). */
static bool light_at_least(int32_t x, int32_t y, int32_t z, int darken, int floor)
{
    /* The common case at night and underground: the darkened sky cannot
     * reach `floor` anywhere, and no block near enough emits that much, so
     * no walk can find the light (a source of e lights at most e at its
     * own cell, less farther off). */
    if (floor > 15 - (darken < 0 ? 0 : darken) && floor >= 1 && floor <= 15 &&
        !emitter_near(x, y, z, 15 - floor, floor))
        return false;
    struct light_ctx lc;
    lc.ox = x - 14, lc.oz = z - 14;
    memset(lc.known, 0, sizeof lc.known);
    return gr_light_at_least(light_cell, &lc, x, y, z, darken, floor);
}

/* Level.getMaxLocalRawBrightness: the sky darkened by the time and weather. */
static bool local_light_at_least(int32_t x, int32_t y, int32_t z, int floor)
{
    return light_at_least(x, y, z, mob_sky_darken(game.day_time, game.raining, game.thundering),
                          floor);
}

/* Level.isRainingAt: rain, and the sky open above (no biome precipitation: see growth.h). */
static bool raining_at(int32_t x, int32_t y, int32_t z)
{
    struct light_ctx lc;
    lc.ox = x - 14, lc.oz = z - 14;
    memset(lc.known, 0, sizeof lc.known);
    return game.raining && y > column_top(&lc, x, z);
}

/* ------------------------------------------------------------ breaking */

/* Block.dropResources + removeBlock: the block goes, its loot falls. */
static void break_with_drops(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (play_set_block(x, y, z, BLOCK_AIR) == 0) items_drop_block(NULL, x, y, z, st, 0);
}

static void schedule(int32_t x, int32_t y, int32_t z, uint16_t st, int delay)
{
    block_ticks_schedule(&game.world, BT_BLOCK, x, y, z, block_of_state[st], delay, 0);
}

static void sides_of(int32_t x, int32_t y, int32_t z, uint16_t out[4])
{
    out[0] = at(x, y, z - 1), out[1] = at(x, y, z + 1);
    out[2] = at(x - 1, y, z), out[3] = at(x + 1, y, z);
}

static bool cane_survives(int32_t x, int32_t y, int32_t z)
{
    uint16_t sides[4];
    sides_of(x, y - 1, z, sides);
    return gr_cane_survives(at(x, y - 1, z), sides);
}

static bool cactus_survives(int32_t x, int32_t y, int32_t z)
{
    uint16_t sides[4];
    sides_of(x, y, z, sides);
    return gr_cactus_survives(at(x, y - 1, z), at(x, y + 1, z), sides);
}

static int leaf_distance_at(int32_t x, int32_t y, int32_t z)
{
    uint16_t n[6] = {at(x, y - 1, z), at(x, y + 1, z), at(x, y, z - 1),
                     at(x, y, z + 1), at(x - 1, y, z), at(x + 1, y, z)};
    return gr_leaf_distance_from(n);
}

/* ------------------------------------------------------------ trees */

#define TREE_CELLS_MAX 4096 /* the largest tree (mega jungle) puts about 400 */

struct tree_plan {
    int n;
    bool overflow;
    int32_t pos[TREE_CELLS_MAX][3];
    bool log[TREE_CELLS_MAX];
};

static bool plan_get(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    (void)ctx, (void)x, (void)y, (void)z;
    *st = BLOCK_AIR; /* the tree's whole shape, as in open air */
    return true;
}

static void plan_set(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st, bool log)
{
    (void)st;
    struct tree_plan *p = ctx;
    if (p->n >= TREE_CELLS_MAX) {
        p->overflow = true;
        return;
    }
    p->pos[p->n][0] = x, p->pos[p->n][1] = y, p->pos[p->n][2] = z;
    p->log[p->n++] = log;
}

static bool live_get(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    (void)ctx;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return false;
    return world_get_block(&game.world, x, y, z, st) == 0;
}

/* Leaves grown from a sapling decay (not persistent); their distances
 * settle through the neighbour updates each block of the tree makes. */
static void live_set(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st, bool log)
{
    (void)ctx, (void)log;
    if (gr_is_leaves(st)) st = gr_leaf_with(st, gr_leaf_distance(st), false);
    play_set_block(x, y, z, st);
}

/* TreeFeature.isFree: air, leaves, logs, saplings, plants trees replace, water. */
static bool free_for_tree(uint16_t st)
{
    static const uint16_t plants[] = {BLOCK_GRASS,    BLOCK_FERN,     BLOCK_DEAD_BUSH,
                                      BLOCK_SEAGRASS, BLOCK_CAVE_AIR, BLOCK_VOID_AIR};
    if (block_is_air(st) || gr_is_leaves(st) || gr_is_log(st) || gr_sapling_kind(st, NULL) >= 0 ||
        gr_is_water(st))
        return true;
    int b = block_of_state[st];
    for (size_t i = 0; i < sizeof plants / sizeof plants[0]; i++)
        if (b == block_of_state[plants[i]]) return true;
    const char *n = block_info[b].name;
    return strcmp(n, "vine") == 0 || strcmp(n, "glow_lichen") == 0 ||
           strcmp(n, "tall_grass") == 0 || strcmp(n, "large_fern") == 0 ||
           strcmp(n, "tall_seagrass") == 0 || strcmp(n, "sunflower") == 0 ||
           strcmp(n, "lilac") == 0 || strcmp(n, "rose_bush") == 0 || strcmp(n, "peony") == 0 ||
           strcmp(n, "hanging_roots") == 0;
}

static bool is_kind_at(int32_t x, int32_t y, int32_t z, int kind)
{
    return gr_sapling_kind(at(x, y, z), NULL) == kind;
}

/*
 * AbstractTreeGrower.growTree: the tree of the sapling at (x, y, z) if it
 * has room — every cell of its trunk column and, from the second log up
 * to one above the top, the ring around it (TwoLayersFeatureSize(1, 0, 1);
 * for a 2x2 trunk one wider), and every log cell, free — with the soil
 * under the trunk turned to dirt. False (nothing changes) without room.
 */
static bool grow_tree(int32_t x, int32_t y, int32_t z, int kind)
{
    int32_t cx = x, cz = z;
    bool two = false;
    if (kind == GR_JUNGLE || kind == GR_DARK_OAK)
        for (int i = 0; i >= -1 && !two; i--)
            for (int j = 0; j >= -1 && !two; j--)
                if (is_kind_at(x + i, y, z + j, kind) && is_kind_at(x + i + 1, y, z + j, kind) &&
                    is_kind_at(x + i, y, z + j + 1, kind) &&
                    is_kind_at(x + i + 1, y, z + j + 1, kind))
                    two = true, cx = x + i, cz = z + j;
    int tree = gr_tree_for(kind, two, next());
    if (tree < 0) return false;
    static struct tree_plan plan; /* 60 KiB: not on the stack */
    plan.n = 0, plan.overflow = false;
    uint64_t h = ((uint64_t)next() << 32) | next();
    const struct features_world dry = {&plan, plan_get, plan_set};
    features_draw_tree(&dry, (enum features_tree)tree, cx, y - 1, cz, h);
    int top = y - 1;
    for (int i = 0; i < plan.n; i++)
        if (plan.log[i] && plan.pos[i][1] > top) top = plan.pos[i][1];
    if (plan.overflow || top < y || top + 1 >= CHUNK_MIN_Y + CHUNK_HEIGHT) return false;
    int width = two ? 1 : 0; /* the trunk covers cx .. cx + width */
    for (int32_t yy = y; yy <= top + 1; yy++) {
        int r = yy == y ? 0 : 1;
        for (int32_t dx = -r; dx <= width + r; dx++)
            for (int32_t dz = -r; dz <= width + r; dz++) {
                uint16_t st;
                if (!live_get(NULL, cx + dx, yy, cz + dz, &st) || !free_for_tree(st)) return false;
            }
    }
    for (int i = 0; i < plan.n; i++) {
        uint16_t st;
        if (plan.log[i] && (!live_get(NULL, plan.pos[i][0], plan.pos[i][1], plan.pos[i][2], &st) ||
                            !free_for_tree(st)))
            return false;
    }
    for (int32_t dx = 0; dx <= width; dx++)
        for (int32_t dz = 0; dz <= width; dz++) {
            play_set_block(cx + dx, y, cz + dz, BLOCK_AIR);
            uint16_t soil = at(cx + dx, y - 1, cz + dz);
            /* TrunkPlacer.setDirtAt: grass, mycelium, farmland become dirt */
            if (!gr_is_dirt(soil) || gr_is_spreading(soil))
                play_set_block(cx + dx, y - 1, cz + dz, BLOCK_DIRT);
        }
    const struct features_world live = {NULL, live_get, live_set};
    features_draw_tree(&live, (enum features_tree)tree, cx, y - 1, cz, h);
    return true;
}

/* SaplingBlock.advanceTree: stage 0 -> 1, then the tree. */
static void advance_sapling(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int stage;
    int kind = gr_sapling_kind(st, &stage);
    if (kind < 0) return;
    if (stage == 0)
        play_set_block(x, y, z, gr_sapling_stage1(kind));
    else
        grow_tree(x, y, z, kind);
}

/* ------------------------------------------------------------ the rules */

static bool random_ticking_rule(uint16_t st)
{
    const struct crop *c = crop_of(st);
    return (c && st < c->first + c->max_age) || is_farmland(st) || gr_sapling_kind(st, NULL) >= 0 ||
           gr_is_cane(st) || gr_is_cactus(st) || gr_is_spreading(st) || gr_leaf_decaying(st) ||
           st == BLOCK_ICE || gr_is_snow_layer(st);
}

/* Asked for every random pick and every palette entry a rescan reads: a
 * bit per state, built from the rules on first use. */
bool growth_random_ticking(uint16_t st)
{
    static uint8_t bits[(BLOCK_STATE_COUNT + 7) / 8];
    static bool built;
    if (st >= BLOCK_STATE_COUNT) return false;
    if (!built) {
        for (unsigned i = 0; i < BLOCK_STATE_COUNT; i++)
            if (random_ticking_rule((uint16_t)i)) bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        built = true;
    }
    return bits[st >> 3] >> (st & 7) & 1;
}

static void farmland_tick(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int m = st - BLOCK_FARMLAND;
    if (!near_water(x, y, z) && !raining_at(x, y + 1, z)) {
        if (m > 0)
            play_set_block(x, y, z, (uint16_t)(st - 1));
        else if (!crop_of(at(x, y + 1, z))) /* FarmBlock.shouldMaintainFarmland */
            play_set_block(x, y, z, BLOCK_DIRT);
    } else if (m < 7) {
        play_set_block(x, y, z, BLOCK_FARMLAND + 7);
    }
}

static void crop_tick(int32_t x, int32_t y, int32_t z, uint16_t st, const struct crop *c)
{
    /* CropBlock.randomTick: getRawBrightness(pos, 0) >= 9 */
    if (!light_at_least(x, y, z, 0, 9)) return;
    if (c->first == BLOCK_BEETROOTS && next() % 3 == 0) return; /* BeetrootBlock.randomTick */
    int age = st - c->first;
    if (age >= c->max_age) return;
    float f = growth_speed(c, x, y, z);
    if (next() % (uint32_t)((int)(25.0f / f) + 1) == 0)
        play_set_block(x, y, z, (uint16_t)(c->first + age + 1));
}

/* SugarCaneBlock / CactusBlock.randomTick. */
static void stalk_tick(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    bool cane = gr_is_cane(st);
    uint16_t first = cane ? BLOCK_SUGAR_CANE : BLOCK_CACTUS;
    if (!cane && !cactus_survives(x, y, z)) return; /* it breaks on its scheduled tick */
    int below = 0;
    while (below < 3 && block_of_state[at(x, y - 1 - below, z)] == block_of_state[first]) below++;
    bool grow;
    int age = gr_stalk_tick(st - first, below, block_is_air(at(x, y + 1, z)), &grow);
    if (grow) play_set_block(x, y + 1, z, first);
    if (age != st - first) play_set_block(x, y, z, (uint16_t)(first + age));
}

/* SpreadingSnowyDirtBlock.randomTick. */
static void spread_tick(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!gr_can_be_grass(at(x, y + 1, z))) {
        play_set_block(x, y, z, BLOCK_DIRT);
        return;
    }
    if (!local_light_at_least(x, y + 1, z, 9)) return;
    for (int i = 0; i < 4; i++) {
        int32_t tx = x + (int32_t)(next() % 3) - 1, ty = y + (int32_t)(next() % 5) - 3,
                tz = z + (int32_t)(next() % 3) - 1;
        uint16_t above = at(tx, ty + 1, tz);
        if (at(tx, ty, tz) == BLOCK_DIRT && gr_can_propagate(above))
            play_set_block(tx, ty, tz, gr_spread_state(st, above));
    }
}

void growth_random_tick(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    const struct crop *c;
    if (is_farmland(st)) {
        farmland_tick(x, y, z, st);
    } else if ((c = crop_of(st))) {
        crop_tick(x, y, z, st, c);
    } else if (gr_sapling_kind(st, NULL) >= 0) {
        /* SaplingBlock.randomTick: light >= 9 above, 1 in 7 */
        if (local_light_at_least(x, y + 1, z, 9) && next() % 7 == 0) advance_sapling(x, y, z, st);
    } else if (gr_is_cane(st) || gr_is_cactus(st)) {
        stalk_tick(x, y, z, st);
    } else if (gr_is_spreading(st)) {
        spread_tick(x, y, z, st);
    } else if (gr_leaf_decaying(st)) {
        break_with_drops(x, y, z, st); /* LeavesBlock.randomTick */
    } else if (st == BLOCK_ICE) {
        /* IceBlock.randomTick and melt: block light > 11 - 1; water in the overworld */
        if (light_at_least(x, y, z, GR_BLOCK_ONLY, GR_ICE_MELT_LIGHT))
            play_set_block(x, y, z, BLOCK_WATER);
    } else if (gr_is_snow_layer(st)) {
        if (light_at_least(x, y, z, GR_BLOCK_ONLY, GR_SNOW_MELT_LIGHT))
            break_with_drops(x, y, z, st);
    }
}

void growth_update(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (crop_of(st)) {
        if (!is_farmland(at(x, y - 1, z))) break_with_drops(x, y, z, st); /* CropBlock.canSurvive */
    } else if (gr_sapling_kind(st, NULL) >= 0) {
        if (!gr_sapling_ground(at(x, y - 1, z))) break_with_drops(x, y, z, st); /* BushBlock */
    } else if (gr_is_cane(st)) {
        if (!cane_survives(x, y, z)) schedule(x, y, z, st, 1); /* SugarCaneBlock.updateShape */
    } else if (gr_is_cactus(st)) {
        if (!cactus_survives(x, y, z)) schedule(x, y, z, st, 1); /* CactusBlock.updateShape */
    } else if (gr_is_leaves(st)) {
        /* LeavesBlock.updateShape: a tick when the distance would change */
        if (leaf_distance_at(x, y, z) != gr_leaf_distance(st)) schedule(x, y, z, st, 1);
    }
}

bool growth_scheduled(uint16_t st)
{
    return gr_is_cane(st) || gr_is_cactus(st) || gr_is_leaves(st);
}

void growth_tick(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (gr_is_cane(st)) {
        if (!cane_survives(x, y, z)) break_with_drops(x, y, z, st);
    } else if (gr_is_cactus(st)) {
        if (!cactus_survives(x, y, z)) break_with_drops(x, y, z, st);
    } else if (gr_is_leaves(st)) {
        /* LeavesBlock.tick: updateDistance */
        int d = leaf_distance_at(x, y, z);
        if (d != gr_leaf_distance(st))
            play_set_block(x, y, z, gr_leaf_with(st, d, gr_leaf_persistent(st)));
    }
}

uint16_t growth_place_state(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (gr_sapling_kind(st, NULL) >= 0) return gr_sapling_ground(at(x, y - 1, z)) ? st : 0;
    if (gr_is_cane(st)) return cane_survives(x, y, z) ? st : 0;
    if (gr_is_cactus(st)) return cactus_survives(x, y, z) ? st : 0;
    if (gr_is_leaves(st)) /* LeavesBlock.getStateForPlacement */
        return gr_leaf_with(st, leaf_distance_at(x, y, z), true);
    return st;
}

void growth_fall_on(int32_t x, int32_t y, int32_t z, float fall_distance, bool player)
{
    uint16_t st = at(x, y, z);
    if (!is_farmland(st)) return;
    /* FarmBlock.fallOn: players, or mobs when mobGriefing */
    if (!player && !gamerule_get(GR_MOB_GRIEFING)) return;
    if (!gr_tramples(fall_distance, (float)(next() >> 8) / 16777216.0f)) return;
    play_set_block(x, y, z, BLOCK_DIRT); /* turnToDirt; the crop above breaks */
}

bool growth_bone_meal(int32_t x, int32_t y, int32_t z)
{
    uint16_t st = at(x, y, z);
    const struct crop *c = crop_of(st);
    if (gr_sapling_kind(st, NULL) >= 0) {
        /* SaplingBlock: always a target, 45 % success */
        if ((float)(next() >> 8) / 16777216.0f < 0.45f) advance_sapling(x, y, z, st);
    } else {
        if (!c || st >= c->first + c->max_age) return false; /* isValidBonemealTarget */
        int age = st - c->first + 2 + (int)(next() % 4);     /* Mth.nextInt(random, 2, 5) */
        if (age > c->max_age) age = c->max_age;
        if (play_set_block(x, y, z, (uint16_t)(c->first + age)) < 0) return false;
    }
    buf_reset(&srv->pkt);
    pkt_cb_world_event(&srv->pkt, 1505, x, y, z, 0, false); /* BoneMealItem.addGrowthParticles */
    const buf_t *fr = pkt_frame_shared();
    if (fr) play_send_to_viewers(x >> 4, z >> 4, fr->data, fr->len);
    return true;
}

uint16_t growth_seed_crop(int item)
{
    static int ids[4] = {-1, -1, -1, -1};
    static const char *const names[4] = {"wheat_seeds", "carrot", "potato", "beetroot_seeds"};
    static const uint16_t crops[4] = {BLOCK_WHEAT, BLOCK_CARROTS, BLOCK_POTATOES, BLOCK_BEETROOTS};
    if (ids[0] < 0)
        for (int k = 0; k < 4; k++) {
            ids[k] = 0;
            for (int i = 1; i < ITEM_COUNT; i++)
                if (item_info[i].name && strcmp(item_info[i].name, names[k]) == 0) ids[k] = i;
        }
    for (int k = 0; k < 4; k++)
        if (item > 0 && item == ids[k]) return crops[k];
    return 0;
}
