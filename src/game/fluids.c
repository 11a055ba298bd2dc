/*
 * fluids.c — see fluids.h. The functions follow vanilla 1.20.1's
 * FlowingFluid one for one (tick, spread, spreadToSides, getSpread,
 * getSlopeDistance, getNewLiquid, canSpreadTo, canPassThrough, isWaterHole,
 * spreadTo), WaterFluid / LavaFluid for the per-fluid values and
 * LiquidBlock.shouldSpreadLiquid for lava meeting water.
 *
 * Departures: collision shapes are "a box or none" (minecraft-data's
 * boundingBox), so canPassThroughWall is "neither block has a box" and
 * slabs, stairs and other partial blocks stop fluids as full blocks do;
 * waterlogged blocks, kelp and seagrass hold no fluid here (walls).
 *
 * Pure: no global state but the can-hold table built on first use and
 * getSpread's read cache (valid only while it runs); every
 * world access goes through struct fl_world.
 */
#include "game/fluids.h"

#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "world/block_ticks.h"
#include "world/chunk.h"

#define DIR_DOWN 6 /* not one of the horizontal directions below */

/* Direction.Plane.HORIZONTAL's order: north, east, south, west. */
static const int8_t hdir[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
static const int opposite[4] = {2, 3, 0, 1};
/* EnumMap<Direction> iteration order of those: north, south, west, east. */
static const int map_order[4] = {0, 2, 3, 1};

struct fl_state fl_of(uint16_t st)
{
    struct fl_state f = {FL_NONE, 0, false, false};
    int level;
    if (st >= BLOCK_WATER && st <= BLOCK_WATER + 15) {
        f.type = FL_WATER;
        level = st - BLOCK_WATER;
    } else if (st >= BLOCK_LAVA && st <= BLOCK_LAVA + 15) {
        f.type = FL_LAVA;
        level = st - BLOCK_LAVA;
    } else {
        return f;
    }
    if (level == 0) {
        f.source = true;
        f.amount = 8;
    } else if (level >= 8) {
        f.falling = true;
        f.amount = 8;
    } else {
        f.amount = (uint8_t)(8 - level);
    }
    return f;
}

uint16_t fl_block(struct fl_state f)
{
    if (f.type == FL_NONE || f.amount == 0) return BLOCK_AIR;
    int level = f.source ? 0 : f.falling ? 8 : 8 - f.amount;
    return (uint16_t)((f.type == FL_WATER ? BLOCK_WATER : BLOCK_LAVA) + level);
}

int fl_tick_type(struct fl_state f)
{
    if (f.type == FL_WATER) return f.source ? BT_FLUID_WATER : BT_FLUID_FLOWING_WATER;
    if (f.type == FL_LAVA) return f.source ? BT_FLUID_LAVA : BT_FLUID_FLOWING_LAVA;
    return BT_FLUID_NONE;
}

int fl_tick_delay(int type)
{
    return type == FL_LAVA ? 30 : 5;
}

static int drop_off(int type)
{
    return type == FL_LAVA ? 2 : 1;
}

static int slope_find(int type)
{
    return type == FL_LAVA ? 2 : 4;
}

bool fl_solid(uint16_t st)
{
    return (block_info[block_of_state[st]].flags & BLOCK_FLAG_SOLID) != 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool fl_can_hold(uint16_t st)
{
    static uint8_t table[BLOCK_COUNT]; /* 0 unknown, 1 no, 2 yes */
    int b = block_of_state[st];
    if (!table[b]) {
        const char *n = block_info[b].name;
        bool no = (block_info[b].flags & BLOCK_FLAG_SOLID) || ends_with(n, "_door") ||
                  ends_with(n, "_sign") || strcmp(n, "ladder") == 0 ||
                  strcmp(n, "sugar_cane") == 0 || strcmp(n, "bubble_column") == 0 ||
                  strcmp(n, "nether_portal") == 0 || strcmp(n, "end_portal") == 0 ||
                  strcmp(n, "end_gateway") == 0 || strcmp(n, "structure_void") == 0 ||
                  strcmp(n, "kelp") == 0 || strcmp(n, "kelp_plant") == 0 ||
                  strcmp(n, "seagrass") == 0 || strcmp(n, "tall_seagrass") == 0;
        table[b] = no ? 1 : 2;
    }
    return table[b] == 2;
}

/*
 * What getSpread reads, kept while it runs (vanilla's per-call state
 * caches): the slope search reads the same cells many times, and nothing
 * changes until it returns. Cells within 6 columns and 1 block up or down
 * of the spreading cell; `gen` tells this call's entries from older ones.
 */
static struct {
    bool on;
    int32_t x, y, z;
    uint32_t gen;
    uint32_t seen[3][13][13];
    uint16_t st[3][13][13];
} cache;

/* The block at a position; an unloaded one is bedrock (invariant 2). */
static uint16_t at(const struct fl_world *w, int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    unsigned dx = (unsigned)(x - cache.x + 6), dy = (unsigned)(y - cache.y + 1),
             dz = (unsigned)(z - cache.z + 6);
    bool cached = cache.on && dx < 13 && dy < 3 && dz < 13;
    if (cached && cache.seen[dy][dx][dz] == cache.gen) return cache.st[dy][dx][dz];
    if (!w->get(w->ctx, x, y, z, &st)) st = BLOCK_BEDROCK;
    if (cached) {
        cache.seen[dy][dx][dz] = cache.gen;
        cache.st[dy][dx][dz] = st;
    }
    return st;
}

static bool pass_wall(uint16_t from, uint16_t to)
{
    return !fl_solid(from) && !fl_solid(to);
}

static bool same_source(struct fl_state f, int type)
{
    return f.type == type && f.source;
}

static struct fl_state flowing(int type, int amount, bool falling)
{
    struct fl_state f = {(uint8_t)type, (uint8_t)amount, false, falling};
    return f;
}

/* FluidState.getHeight: 1 under the same fluid, else amount / 9. */
static float height(const struct fl_world *w, struct fl_state f, int32_t x, int32_t y, int32_t z)
{
    if (f.type == FL_NONE) return 0;
    if (fl_of(at(w, x, y + 1, z)).type == f.type) return 1.0f;
    return f.amount / 9.0f;
}

/* FlowingFluid.getNewLiquid for `type` at a position holding block bs. */
static struct fl_state new_liquid(const struct fl_world *w, int type, int32_t x, int32_t y,
                                  int32_t z, uint16_t bs)
{
    int best = 0, sources = 0;
    for (int d = 0; d < 4; d++) {
        uint16_t s = at(w, x + hdir[d][0], y, z + hdir[d][1]);
        struct fl_state f = fl_of(s);
        if (f.type == type && pass_wall(bs, s)) {
            if (f.source) sources++;
            if (f.amount > best) best = f.amount;
        }
    }
    bool convert = type == FL_WATER ? w->water_conversion : w->lava_conversion;
    if (convert && sources >= 2) {
        uint16_t below = at(w, x, y - 1, z);
        if (fl_solid(below) || same_source(fl_of(below), type)) {
            struct fl_state src = {(uint8_t)type, 8, true, false};
            return src;
        }
    }
    uint16_t up = at(w, x, y + 1, z);
    if (fl_of(up).type == type && pass_wall(bs, up)) return flowing(type, 8, true);
    int k = best - drop_off(type);
    return k <= 0 ? (struct fl_state){0} : flowing(type, k, false);
}

/* FluidState.canBeReplacedWith: may `incoming` flow (in direction dir)
 * into a cell holding `here`? */
static bool replaceable_by(const struct fl_world *w, struct fl_state here, int32_t x, int32_t y,
                           int32_t z, int incoming, int dir)
{
    if (here.type == FL_NONE) return true;
    if (here.type == FL_WATER) return dir == DIR_DOWN && incoming != FL_WATER;
    return height(w, here, x, y, z) >= 0.44444445f && incoming == FL_WATER; /* lava */
}

/* FlowingFluid.canSpreadTo. */
static bool can_spread_to(const struct fl_world *w, uint16_t from_bs, int dir, int32_t tx,
                          int32_t ty, int32_t tz, uint16_t to_bs, int incoming)
{
    return replaceable_by(w, fl_of(to_bs), tx, ty, tz, incoming, dir) &&
           pass_wall(from_bs, to_bs) && fl_can_hold(to_bs);
}

/* FlowingFluid.canPassThrough. */
static bool can_pass(int type, uint16_t from_bs, uint16_t to_bs)
{
    return !same_source(fl_of(to_bs), type) && fl_can_hold(to_bs) && pass_wall(from_bs, to_bs);
}

/* FlowingFluid.isWaterHole: can the fluid go down from (x, y, z)? */
static bool is_hole(const struct fl_world *w, int type, int32_t x, int32_t y, int32_t z,
                    uint16_t bs)
{
    uint16_t below = at(w, x, y - 1, z);
    if (!pass_wall(bs, below)) return false;
    return fl_of(below).type == type || fl_can_hold(below);
}

/* FlowingFluid.spreadTo (LavaFluid's: onto water from above makes stone). */
static void spread_to(const struct fl_world *w, int type, int32_t x, int32_t y, int32_t z,
                      uint16_t bs, int dir, struct fl_state f)
{
    if (type == FL_LAVA && dir == DIR_DOWN && fl_of(bs).type == FL_WATER) {
        w->set(w->ctx, x, y, z, BLOCK_STONE);
        if (w->fizz) w->fizz(w->ctx, x, y, z);
        return;
    }
    if (f.type == FL_NONE) return;
    if (!block_is_air(bs) && fl_of(bs).type == FL_NONE) {
        if (type == FL_LAVA) {
            if (w->fizz) w->fizz(w->ctx, x, y, z);
        } else if (w->destroyed) {
            w->destroyed(w->ctx, x, y, z, bs);
        }
    }
    w->set(w->ctx, x, y, z, fl_block(f));
}

static int slope_distance(const struct fl_world *w, int type, int32_t x, int32_t y, int32_t z,
                          int dist, int from_dir, uint16_t bs)
{
    int best = 1000;
    for (int d = 0; d < 4; d++) {
        if (d == from_dir) continue;
        int32_t nx = x + hdir[d][0], nz = z + hdir[d][1];
        uint16_t s = at(w, nx, y, nz);
        if (!can_pass(type, bs, s)) continue;
        if (is_hole(w, type, nx, y, nz, s)) return dist;
        if (dist < slope_find(type)) {
            int j = slope_distance(w, type, nx, y, nz, dist + 1, opposite[d], s);
            if (j < best) best = j;
        }
    }
    return best;
}

/* FlowingFluid.getSpread: the directions to spread to (those with the
 * shortest way down) and what each would get; *n of them in out. */
static void get_spread(const struct fl_world *w, int type, int32_t x, int32_t y, int32_t z,
                       uint16_t bs, bool want[4], struct fl_state out[4])
{
    int best = 1000;
    cache.on = true;
    cache.x = x, cache.y = y, cache.z = z;
    if (++cache.gen == 0) { /* wrapped: forget everything */
        memset(cache.seen, 0, sizeof cache.seen);
        cache.gen = 1;
    }
    for (int d = 0; d < 4; d++) want[d] = false;
    for (int d = 0; d < 4; d++) {
        int32_t nx = x + hdir[d][0], nz = z + hdir[d][1];
        uint16_t s = at(w, nx, y, nz);
        struct fl_state nf = new_liquid(w, type, nx, y, nz, s);
        if (!can_pass(nf.type ? nf.type : type, bs, s)) continue;
        int j = is_hole(w, type, nx, y, nz, s)
                    ? 0
                    : slope_distance(w, type, nx, y, nz, 1, opposite[d], s);
        if (j < best)
            for (int e = 0; e < 4; e++) want[e] = false;
        if (j <= best) {
            want[d] = true;
            out[d] = nf;
            best = j;
        }
    }
    cache.on = false;
}

static void spread_sides(const struct fl_world *w, struct fl_state f, int32_t x, int32_t y,
                         int32_t z, uint16_t bs)
{
    int left = f.amount - drop_off(f.type);
    if (f.falling) left = 7;
    if (left <= 0) return;
    bool want[4];
    struct fl_state to[4] = {{0}};
    get_spread(w, f.type, x, y, z, bs, want, to);
    for (int k = 0; k < 4; k++) {
        int d = map_order[k];
        if (!want[d]) continue;
        int32_t nx = x + hdir[d][0], nz = z + hdir[d][1];
        uint16_t s = at(w, nx, y, nz);
        if (can_spread_to(w, bs, d, nx, y, nz, s, to[d].type))
            spread_to(w, f.type, nx, y, nz, s, d, to[d]);
    }
}

static int source_neighbours(const struct fl_world *w, int type, int32_t x, int32_t y, int32_t z)
{
    int n = 0;
    for (int d = 0; d < 4; d++)
        n += same_source(fl_of(at(w, x + hdir[d][0], y, z + hdir[d][1])), type);
    return n;
}

static void spread(const struct fl_world *w, struct fl_state f, int32_t x, int32_t y, int32_t z)
{
    if (f.type == FL_NONE) return;
    uint16_t bs = at(w, x, y, z), below = at(w, x, y - 1, z);
    struct fl_state nb = new_liquid(w, f.type, x, y - 1, z, below);
    int incoming = nb.type ? nb.type : f.type;
    if (can_spread_to(w, bs, DIR_DOWN, x, y - 1, z, below, incoming)) {
        spread_to(w, f.type, x, y - 1, z, below, DIR_DOWN, nb);
        if (source_neighbours(w, f.type, x, y, z) >= 3) spread_sides(w, f, x, y, z, bs);
    } else if (f.source || !is_hole(w, f.type, x, y, z, bs)) {
        spread_sides(w, f, x, y, z, bs);
    }
}

/* LavaFluid.getSpreadDelay: a lava cell that rises waits 4 times as long, 3 times in 4. */
static int spread_delay(const struct fl_world *w, struct fl_state old, struct fl_state now,
                        int32_t x, int32_t y, int32_t z)
{
    int d = fl_tick_delay(old.type);
    if (old.type == FL_LAVA && now.type != FL_NONE && !old.falling && !now.falling &&
        height(w, now, x, y, z) > height(w, old, x, y, z) && w->rand(w->ctx) % 4 != 0)
        d *= 4;
    return d;
}

void fluids_tick(const struct fl_world *w, int32_t x, int32_t y, int32_t z, int type)
{
    uint16_t bs;
    if (!w->get(w->ctx, x, y, z, &bs)) return;
    struct fl_state f = fl_of(bs);
    if (f.type == FL_NONE || fl_tick_type(f) != type) return; /* ServerLevel.tickFluid */
    if (!f.source) {
        struct fl_state nf = new_liquid(w, f.type, x, y, z, bs);
        int delay = spread_delay(w, f, nf, x, y, z);
        if (nf.type == FL_NONE) {
            f = nf;
            w->set(w->ctx, x, y, z, BLOCK_AIR);
        } else if (nf.amount != f.amount || nf.source != f.source || nf.falling != f.falling) {
            f = nf;
            w->set(w->ctx, x, y, z, fl_block(nf));
            w->schedule(w->ctx, x, y, z, fl_tick_type(nf), delay);
        }
    }
    spread(w, f, x, y, z);
}

void fluids_update(const struct fl_world *w, int32_t x, int32_t y, int32_t z)
{
    uint16_t bs;
    if (!w->get(w->ctx, x, y, z, &bs)) return;
    struct fl_state f = fl_of(bs);
    if (f.type == FL_NONE) return;
    if (f.type == FL_LAVA) {
        /* LiquidBlock.shouldSpreadLiquid: water above or beside. */
        static const int8_t look[5][3] = {{0, 1, 0}, {0, 0, -1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}};
        for (int k = 0; k < 5; k++)
            if (fl_of(at(w, x + look[k][0], y + look[k][1], z + look[k][2])).type == FL_WATER) {
                w->set(w->ctx, x, y, z, f.source ? BLOCK_OBSIDIAN : BLOCK_COBBLESTONE);
                if (w->fizz) w->fizz(w->ctx, x, y, z);
                return;
            }
    }
    w->schedule(w->ctx, x, y, z, fl_tick_type(f), fl_tick_delay(f.type));
}
