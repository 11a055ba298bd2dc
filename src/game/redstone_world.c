/*
 * redstone_world.c — see redstone_world.h. A piston's and a note block's
 * Block Action goes to the chunk's viewers at once (the block changes
 * follow with the tick's Block Updates), so clients play the piston's
 * animation and sound and the note.
 */
#include "game/redstone_world.h"

#include <math.h>

#include "data/block_table.h"
#include "game/game.h"
#include "game/items.h"
#include "game/play.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/block_ticks.h"

static struct rs_torch_log torch_log;

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

static void w_notify(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    block_ticks_update_neighbors(x, y, z);
}

static void w_schedule(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t block, int delay,
                       int prio)
{
    (void)ctx;
    block_ticks_schedule(&game.world, BT_BLOCK, x, y, z, block, delay, prio);
}

static bool w_pending(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t block)
{
    (void)ctx;
    return block_ticks_pending(&game.world, BT_BLOCK, x, y, z, block);
}

static void w_dropped(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    (void)ctx;
    items_drop_block(NULL, x, y, z, st, 0);
}

static void w_block_event(void *ctx, int32_t x, int32_t y, int32_t z, int action, int param,
                          uint16_t block)
{
    (void)ctx;
    buf_reset(&srv->pkt);
    pkt_cb_block_action(&srv->pkt, x, y, z, (uint8_t)action, (uint8_t)param, block);
    const buf_t *f = pkt_frame_shared();
    if (f) play_send_to_viewers(x >> 4, z >> 4, f->data, f->len);
}

static void w_level_event(void *ctx, int32_t x, int32_t y, int32_t z, int event)
{
    (void)ctx;
    buf_reset(&srv->pkt);
    pkt_cb_world_event(&srv->pkt, event, x, y, z, 0, false);
    const buf_t *f = pkt_frame_shared();
    if (f) play_send_to_viewers(x >> 4, z >> 4, f->data, f->len);
}

static int64_t w_now(void *ctx)
{
    (void)ctx;
    return (int64_t)game.tick_count;
}

static const struct rs_world rw = {
    .ctx = NULL,
    .get = w_get,
    .set = w_set,
    .notify = w_notify,
    .schedule = w_schedule,
    .pending = w_pending,
    .dropped = w_dropped,
    .block_event = w_block_event,
    .level_event = w_level_event,
    .now = w_now,
    .torches = &torch_log,
};

const struct rs_world *redstone_world(void)
{
    return &rw;
}

bool redstone_use(int32_t x, int32_t y, int32_t z, uint16_t state)
{
    return rs_is_component(state) && rs_use(&rw, x, y, z, state);
}

/* vanilla Direction.fromYRot, as enum rs_dir. */
static int horizontal_dir(const player *p)
{
    static const int dirs[4] = {RS_SOUTH, RS_WEST, RS_NORTH, RS_EAST};
    return dirs[(int)floor(p->yaw / 90.0 + 0.5) & 3];
}

/* vanilla Direction.orderedByNearest(entity)[0]: the axis the look runs along most. */
static int looking_dir(const player *p)
{
    double yaw = p->yaw * M_PI / 180.0, pitch = p->pitch * M_PI / 180.0;
    double lx = -sin(yaw) * cos(pitch), ly = -sin(pitch), lz = cos(yaw) * cos(pitch);
    double ax = fabs(lx), ay = fabs(ly), az = fabs(lz);
    if (ay >= ax && ay >= az) return ly > 0 ? RS_UP : RS_DOWN;
    if (ax >= az) return lx > 0 ? RS_EAST : RS_WEST;
    return lz > 0 ? RS_SOUTH : RS_NORTH;
}

uint16_t redstone_place_state(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state,
                              int face)
{
    if (!state) return 0;
    return rs_place_state(&rw, x, y, z, state, face, horizontal_dir(p), looking_dir(p));
}
