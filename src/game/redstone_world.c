/*
 * redstone_world.c — see redstone_world.h. A piston's and a note block's
 * Block Action goes to the chunk's viewers at once (the block changes
 * follow with the tick's Block Updates), so clients play the piston's
 * animation and sound and the note.
 */
#include "game/redstone_world.h"

#include <math.h>
#include <stdlib.h>

#include "data/block_table.h"
#include "game/blockuse.h"
#include "game/game.h"
#include "game/items.h"
#include "game/mobs.h"
#include "game/play.h"
#include "net/server.h"
#include "proto/packets.h"
#include "world/block_entity.h"
#include "world/block_ticks.h"

static struct rs_torch_log torch_log;

/* Comparator outputs (vanilla's ComparatorBlockEntity.output): open
 * addressing with tombstones, at most COMPARATORS_MAX (past that a new
 * comparator outputs 0 until one goes). Not saved: a loaded comparator
 * starts at 0 and takes its output at its first update. */
#define COMPARATORS_MAX 65536
struct cmp_slot {
    int32_t x, y, z;
    int8_t v; /* -1 empty, -2 tombstone */
};
static struct cmp_slot *cmp;
static uint32_t cmp_cap, cmp_used, cmp_live; /* used: live + tombstones */

static uint32_t cmp_hash(int32_t x, int32_t y, int32_t z)
{
    uint64_t k = (uint64_t)(uint32_t)x * 0x9e3779b97f4a7c15ull ^
                 (uint64_t)(uint32_t)z * 0xc2b2ae3d27d4eb4full ^ (uint64_t)(uint32_t)y;
    return (uint32_t)(k >> 32);
}

static struct cmp_slot *cmp_find(int32_t x, int32_t y, int32_t z, bool add)
{
    if (!cmp_cap) {
        if (!add) return NULL;
        cmp_cap = 1024;
        cmp = malloc(cmp_cap * sizeof *cmp);
        if (!cmp) {
            cmp_cap = 0;
            return NULL;
        }
        for (uint32_t i = 0; i < cmp_cap; i++) cmp[i].v = -1;
    }
    if (add && (cmp_used + 1) * 2 > cmp_cap) { /* rehash, dropping tombstones; grow if need be */
        uint32_t ncap = (cmp_live + 1) * 4 > cmp_cap ? cmp_cap * 2 : cmp_cap;
        if (cmp_live >= COMPARATORS_MAX) return NULL;
        struct cmp_slot *old = cmp, *n = malloc(ncap * sizeof *n);
        if (!n) return NULL;
        uint32_t ocap = cmp_cap;
        cmp = n, cmp_cap = ncap, cmp_used = cmp_live = 0;
        for (uint32_t i = 0; i < cmp_cap; i++) cmp[i].v = -1;
        for (uint32_t i = 0; i < ocap; i++)
            if (old[i].v >= 0) *cmp_find(old[i].x, old[i].y, old[i].z, true) = old[i];
        free(old);
    }
    uint32_t i = cmp_hash(x, y, z) & (cmp_cap - 1);
    struct cmp_slot *tomb = NULL;
    while (cmp[i].v != -1) {
        if (cmp[i].v >= 0 && cmp[i].x == x && cmp[i].y == y && cmp[i].z == z) return &cmp[i];
        if (cmp[i].v == -2 && !tomb) tomb = &cmp[i];
        i = (i + 1) & (cmp_cap - 1);
    }
    if (!add) return NULL;
    struct cmp_slot *s = tomb ? tomb : &cmp[i];
    if (!tomb) cmp_used++;
    cmp_live++;
    *s = (struct cmp_slot){x, y, z, 0};
    return s;
}

static int w_comparator_output(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    const struct cmp_slot *s = cmp_find(x, y, z, false);
    return s ? s->v : 0;
}

static void w_set_comparator_output(void *ctx, int32_t x, int32_t y, int32_t z, int v)
{
    (void)ctx;
    struct cmp_slot *s = cmp_find(x, y, z, v >= 0);
    if (!s) return;
    if (v < 0) cmp_live--;
    s->v = (int8_t)(v < 0 ? -2 : v > 15 ? 15 : v);
}

/* A chest's (both halves of a double chest), trapped chest's or barrel's
 * slots as rs_container_signal counts them; -1 for other blocks. */
static int w_container_signal(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return -1;
    if (be_kind_of_block(block_of_state[st]) == BE_RAW) return -1;
    int32_t pos[2][3] = {{x, y, z}, {0, 0, 0}};
    int halves = 1 + blockuse_chest_partner(x, y, z, st, &pos[1][0], &pos[1][1], &pos[1][2]);
    int counts[2 * BE_CONTAINER_SLOTS] = {0}, stacks[2 * BE_CONTAINER_SLOTS];
    for (int h = 0; h < halves; h++) {
        chunk_entry *e = world_loaded(&game.world, pos[h][0] >> 4, pos[h][2] >> 4);
        const struct block_entity *be =
            e ? be_get(&e->c.bents, pos[h][0], pos[h][1], pos[h][2]) : NULL;
        for (int k = 0; k < BE_CONTAINER_SLOTS; k++) {
            int i = h * BE_CONTAINER_SLOTS + k;
            stacks[i] = 64;
            if (!be || be->items[k].item <= 0 || be->items[k].item >= ITEM_COUNT) continue;
            counts[i] = be->items[k].count;
            stacks[i] = item_info[be->items[k].item].stack_size;
        }
    }
    return rs_container_signal(counts, stacks, halves * BE_CONTAINER_SLOTS);
}

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

static void w_sound(void *ctx, int32_t x, int32_t y, int32_t z, const char *name, float volume,
                    float pitch)
{
    (void)ctx;
    buf_reset(&srv->pkt);
    pkt_cb_sound_effect_named(&srv->pkt, name, 4, x + 0.5, y + 0.5, z + 0.5, volume, pitch,
                              (int64_t)game.tick_count * 0x9e3779b97f4a7c15ll);
    const buf_t *f = pkt_frame_shared();
    if (f) play_send_to_viewers(x >> 4, z >> 4, f->data, f->len);
}

static bool presses(const player *p)
{
    return p && p->spawned && p->health > 0 && p->gamemode != GM_SPECTATOR;
}

static bool touches_plate(double ex, double ey, double ez, double half, double height, int32_t x,
                          int32_t y, int32_t z)
{
    return ex + half > x + 0.0625 && ex - half < x + 0.9375 && ez + half > z + 0.0625 &&
           ez - half < z + 0.9375 && ey + height > y && ey < y + 0.25;
}

/* Players and mobs whose box meets the plate's touch box (vanilla
 * BasePressurePlateBlock.TOUCH_AABB: 1/16 in from the sides, 4/16 high);
 * at most 256 mobs are looked at (an iron plate counts to 150). */
static int w_entities_on(void *ctx, int32_t x, int32_t y, int32_t z, bool living)
{
    (void)ctx, (void)living; /* players and mobs are living entities */
    int n = 0;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (presses(p) && touches_plate(p->x, p->y, p->z, 0.3, 1.8, x, y, z)) n++;
    }
    struct mob_filter f = {.type = -1, .x = x + 0.5, .y = y, .z = z + 0.5, .dmin = 0, .dmax = 4};
    int32_t slots[256];
    size_t k = mobs_select(&f, slots, sizeof slots / sizeof slots[0]);
    for (size_t i = 0; i < k; i++) {
        double b[5];
        mobs_box(slots[i], b);
        if (touches_plate(b[0], b[1], b[2], b[3], b[4], x, y, z)) n++;
    }
    return n;
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
    .comparator_output = w_comparator_output,
    .set_comparator_output = w_set_comparator_output,
    .container_signal = w_container_signal,
    .entities_on = w_entities_on,
    .sound = w_sound,
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

void redstone_container_changed(int32_t x, int32_t y, int32_t z)
{
    rs_analog_changed(&rw, x, y, z);
}

void redstone_free(void)
{
    free(cmp);
    cmp = NULL;
    cmp_cap = cmp_used = cmp_live = 0;
}

void redstone_entity_at(double x, double y, double z, double half)
{
    int32_t by = (int32_t)floor(y);
    int32_t x0 = (int32_t)floor(x - half), x1 = (int32_t)floor(x + half);
    int32_t z0 = (int32_t)floor(z - half), z1 = (int32_t)floor(z + half);
    for (int32_t bx = x0; bx <= x1; bx++)
        for (int32_t bz = z0; bz <= z1; bz++) {
            uint16_t st;
            if (w_get(NULL, bx, by, bz, &st) && rs_is_component(st))
                rs_entity_inside(&rw, bx, by, bz, st);
        }
}

void redstone_entities_tick(void)
{
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (presses(p)) redstone_entity_at(p->x, p->y, p->z, 0.3);
    }
}
