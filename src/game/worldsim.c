/*
 * worldsim.c — see worldsim.h. Which rule answers which event:
 *
 *   event (world/block_ticks.h)   water, lava        sand, gravel, ...   plants (growth.h)
 *   placed / neighbour changed    fluids_update      falling_update      growth_update
 *   scheduled tick                fluids_tick        falling_tick        growth_tick
 *   random tick                   -                  -                   growth_random_tick
 *
 * and redstone components (game/redstone.h): rs_placed, rs_neighbor, rs_tick.
 *
 * Invariant: every block change the rules make goes through
 * play_set_block, so viewers get Block Update, light is recomputed and the
 * change's own neighbours are updated in turn.
 */
#include "game/worldsim.h"

#include <stdlib.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/beds.h"
#include "game/chunk_viewers.h"
#include "game/falling.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/growth.h"
#include "game/items.h"
#include "game/play.h"
#include "game/redstone_world.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/block_ticks.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static bool w_get(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    (void)ctx;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return false;
    return world_get_block(&game.world, x, y, z, st) == 0;
}

static void w_set(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    (void)ctx;
    play_set_block(x, y, z, st);
}

static void w_schedule(void *ctx, int32_t x, int32_t y, int32_t z, int type, int delay)
{
    (void)ctx;
    block_ticks_schedule(&game.world, BT_FLUID, x, y, z, (uint16_t)type, delay, 0);
}

static void w_destroyed(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    (void)ctx;
    items_drop_block(NULL, x, y, z, st, 0); /* FlowingFluid.beforeDestroyingBlock */
}

static void w_fizz(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    buf_reset(&srv->pkt);
    pkt_cb_world_event(&srv->pkt, 1501, x, y, z, 0, false); /* LevelEvent.LAVA_FIZZ */
    const buf_t *f = pkt_frame_shared();
    if (f) play_send_to_viewers(x >> 4, z >> 4, f->data, f->len);
}

static uint32_t w_rand(void *ctx)
{
    (void)ctx;
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

/* ctx, get, set, schedule, destroyed, fizz, rand; waterSourceConversion and
 * lavaSourceConversion at their defaults (true, false). */
static const struct fl_world fw = {NULL,   w_get,  w_set, w_schedule, w_destroyed,
                                   w_fizz, w_rand, true,  false};

const struct fl_world *worldsim_fluids(void)
{
    return &fw;
}

static void update(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (!w_get(NULL, x, y, z, &st)) return;
    if (fl_of(st).type != FL_NONE)
        fluids_update(&fw, x, y, z);
    else if (falling_is(st))
        falling_update(x, y, z, st);
    else if (rs_is_component(st))
        rs_neighbor(redstone_world(), x, y, z, st);
    else
        growth_update(x, y, z, st);
}

static void on_placed(int32_t x, int32_t y, int32_t z, uint16_t old, uint16_t now)
{
    if (rs_placed_matters(old, now)) {
        rs_placed(redstone_world(), x, y, z, old, now);
        if (rs_is_component(now)) return;
    }
    update(x, y, z);
}

static void on_neighbor(int32_t x, int32_t y, int32_t z, int32_t fx, int32_t fy, int32_t fz)
{
    if (beds_neighbor_changed(x, y, z, fx, fy, fz)) return; /* issue 21: beds */
    update(x, y, z);
}

static void on_tick(enum bt_kind kind, int32_t x, int32_t y, int32_t z, uint16_t type)
{
    if (kind == BT_FLUID) {
        fluids_tick(&fw, x, y, z, type);
        return;
    }
    uint16_t st;
    if (!w_get(NULL, x, y, z, &st) || block_of_state[st] != type) return;
    if (falling_is(st))
        falling_tick(x, y, z);
    else if (growth_scheduled(st))
        growth_tick(x, y, z, st);
    else
        rs_tick(redstone_world(), x, y, z, type);
}

static void on_random(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    growth_random_tick(x, y, z, st);
}

/* Within simulation distance of a player holding the column (worldsim.h). */
static bool simulated(int32_t cx, int32_t cz)
{
    int d = srv->cfg.simulation_distance;
    size_t n;
    conn *const *v = cv_peek(cx, cz, &n); /* the tick changes no view meanwhile */
    for (size_t i = 0; i < n; i++) {
        const player *p = v[i]->player;
        if (p && abs(p->center_x - cx) <= d && abs(p->center_z - cz) <= d) return true;
    }
    return false;
}

void worldsim_init(void)
{
    static const struct bt_hooks hooks = {
        .placed = on_placed,
        .neighbor = on_neighbor,
        .tick = on_tick,
        .random = on_random,
        .random_ticking = growth_random_ticking,
        .simulated = simulated,
    };
    block_ticks_attach(&game.world, &hooks, srv->cfg.max_chained_neighbor_updates);
}

void worldsim_tick(void)
{
    redstone_entities_tick(); /* pressure plates */
    block_ticks_run(&game.world, (int64_t)game.tick_count, gamerule_get(GR_RANDOM_TICK_SPEED));
}
