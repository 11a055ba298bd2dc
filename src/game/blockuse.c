/*
 * blockuse.c — see blockuse.h. Vanilla 1.20.1's rules, by block class:
 *
 *   DoorBlock       placed facing the player's horizontal direction, lower
 *                   half at the clicked spot and the upper half above (room
 *                   needed); hinge right when a lower door half stands to
 *                   the left of it only, else left (vanilla also weighs
 *                   solid neighbours and where the face was clicked: not
 *                   done). Use: `open` cycles on both halves; iron doors
 *                   open by redstone only. Removing one half removes the
 *                   other.
 *   TrapDoorBlock   placed on a side face: facing that face, top half when
 *                   clicked above the middle; on the top or bottom face:
 *                   facing away from the player, bottom half on a top face.
 *                   Use: `open` cycles; iron trapdoors do not open by hand.
 *   FenceGateBlock  placed facing the player's direction. Use: an open gate
 *                   closes; a closed one opens away from the player (its
 *                   facing turns to the player's direction when the player
 *                   stands on the side it faces).
 *   ChestBlock      placed facing the player (the opposite of its
 *                   direction); type LEFT when a single chest facing the
 *                   same way stands clockwise of that facing, RIGHT when
 *                   one stands counter-clockwise (the neighbour takes the
 *                   other type), else SINGLE. A left chest's partner is
 *                   clockwise of its facing, a right chest's counter-
 *                   clockwise. Sneak-placing to choose a partner: not done
 *                   (mcserv does not track sneaking).
 *   BarrelBlock     facing the opposite of where the player looks (up when
 *                   looking down steeply).
 *
 * Invariant: every change goes through play_set_block, so every viewer of
 * the chunk gets the Block Update at the end of the tick.
 */
#include "game/blockuse.h"

#include <math.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/beds.h" /* issue 21 */
#include "game/game.h"
#include "game/play.h"
#include "world/block_state.h"

enum { DIR_SOUTH, DIR_WEST, DIR_NORTH, DIR_EAST };
static const char *const dir_names[4] = {"south", "west", "north", "east"};
static const int dir_dx[4] = {0, -1, 0, 1}, dir_dz[4] = {1, 0, -1, 0};

static int opposite(int d)
{
    return (d + 2) & 3;
}

static int clockwise(int d) /* north -> east -> south -> west */
{
    return (d + 1) & 3;
}

static int counter_clockwise(int d)
{
    return (d + 3) & 3;
}

/* vanilla Direction.fromYRot: the player's horizontal direction. */
static int player_dir(const player *p)
{
    return (int)floor(p->yaw / 90.0 + 0.5) & 3;
}

static int dir_of_state(uint16_t st)
{
    for (int d = 0; d < 4; d++)
        if (blockuse_prop_is(st, "facing", dir_names[d])) return d;
    return DIR_NORTH;
}

uint16_t blockuse_with_prop(uint16_t state, const char *name, const char *value)
{
    if (state >= BLOCK_STATE_COUNT) return state;
    const struct block_info *b = &block_info[block_of_state[state]];
    int rest = state - b->min_state, stride = 1;
    for (int i = b->prop_count; i-- > 0;) {
        const struct block_prop *p = &block_props[block_prop_index[b->prop_first + i]];
        int v = (rest / stride) % p->count;
        if (strcmp(block_prop_names[p->name], name) == 0) {
            for (int k = 0; k < p->count; k++)
                if (strcmp(block_prop_values[p->first_value + k], value) == 0)
                    return (uint16_t)(state + (k - v) * stride);
            return state;
        }
        stride *= p->count;
    }
    return state;
}

bool blockuse_prop_is(uint16_t state, const char *name, const char *value)
{
    const char *t;
    return block_state_prop(state, name, &t) >= 0 && strcmp(t, value) == 0;
}

static bool name_ends(uint16_t st, const char *suffix)
{
    const char *n = block_info[block_of_state[st]].name;
    size_t ln = strlen(n), ls = strlen(suffix);
    return ln >= ls && strcmp(n + ln - ls, suffix) == 0;
}

static bool is_block(uint16_t st, const char *name)
{
    return strcmp(block_info[block_of_state[st]].name, name) == 0;
}

static bool is_door(uint16_t st)
{
    return name_ends(st, "_door");
}

static bool is_trapdoor(uint16_t st)
{
    return name_ends(st, "_trapdoor");
}

static bool is_gate(uint16_t st)
{
    return name_ends(st, "_fence_gate");
}

static bool is_chest(uint16_t st)
{
    return block_of_state[st] == block_of_state[BLOCK_CHEST] ||
           block_of_state[st] == block_of_state[BLOCK_TRAPPED_CHEST];
}

static uint16_t toggled(uint16_t st)
{
    return blockuse_with_prop(st, "open", blockuse_prop_is(st, "open", "true") ? "false" : "true");
}

bool blockuse_use(const player *p, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_door(st)) {
        if (is_block(st, "iron_door")) return false; /* vanilla PASS: the item is used */
        uint16_t now = toggled(st);
        int32_t oy = blockuse_prop_is(st, "half", "lower") ? y + 1 : y - 1;
        uint16_t other;
        play_set_block(x, y, z, now);
        if (world_get_block(&game.world, x, oy, z, &other) == 0 &&
            block_of_state[other] == block_of_state[st])
            play_set_block(
                x, oy, z,
                blockuse_with_prop(other, "open",
                                   blockuse_prop_is(now, "open", "true") ? "true" : "false"));
        return true;
    }
    if (is_trapdoor(st)) {
        if (is_block(st, "iron_trapdoor")) return false;
        play_set_block(x, y, z, toggled(st));
        return true;
    }
    if (is_gate(st)) {
        if (blockuse_prop_is(st, "open", "true")) {
            play_set_block(x, y, z, blockuse_with_prop(st, "open", "false"));
        } else {
            int d = player_dir(p);
            uint16_t now = st;
            if (dir_of_state(st) == opposite(d))
                now = blockuse_with_prop(now, "facing", dir_names[d]);
            play_set_block(x, y, z, blockuse_with_prop(now, "open", "true"));
        }
        return true;
    }
    return false;
}

/* vanilla ChestBlock.candidatePartnerFacing: the facing of a single chest
 * of the same block in direction d from (x, y, z), or -1. */
static int partner_facing(int32_t x, int32_t y, int32_t z, int d, uint16_t self)
{
    uint16_t st;
    if (world_get_block(&game.world, x + dir_dx[d], y, z + dir_dz[d], &st) < 0 ||
        block_of_state[st] != block_of_state[self] || !blockuse_prop_is(st, "type", "single"))
        return -1;
    return dir_of_state(st);
}

/* A door's hinge: right when only the counter-clockwise neighbour is a
 * lower door half (vanilla DoorBlock.getHinge, its first rule). */
static const char *door_hinge(int32_t x, int32_t y, int32_t z, int d, uint16_t self)
{
    uint16_t a, b;
    int ccw = counter_clockwise(d), cw = clockwise(d);
    bool da = world_get_block(&game.world, x + dir_dx[ccw], y, z + dir_dz[ccw], &a) == 0 &&
              block_of_state[a] == block_of_state[self] && blockuse_prop_is(a, "half", "lower");
    bool db = world_get_block(&game.world, x + dir_dx[cw], y, z + dir_dz[cw], &b) == 0 &&
              block_of_state[b] == block_of_state[self] && blockuse_prop_is(b, "half", "lower");
    return da && !db ? "right" : "left";
}

uint16_t blockuse_place_state(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state,
                              int face, float cursor_y)
{
    int d = player_dir(p);
    if (beds_is_bed(state)) return beds_place_state(p, x, y, z, state); /* issue 21 */
    if (is_door(state)) {
        uint16_t above;
        if (world_get_block(&game.world, x, y + 1, z, &above) < 0 || !block_is_air(above)) return 0;
        state = blockuse_with_prop(state, "facing", dir_names[d]);
        state = blockuse_with_prop(state, "half", "lower");
        return blockuse_with_prop(state, "hinge", door_hinge(x, y, z, d, state));
    }
    if (is_trapdoor(state)) {
        static const int face_dir[6] = {-1, -1, DIR_NORTH, DIR_SOUTH, DIR_WEST, DIR_EAST};
        if (face >= 2 && face <= 5) {
            state = blockuse_with_prop(state, "facing", dir_names[face_dir[face]]);
            return blockuse_with_prop(state, "half", cursor_y > 0.5f ? "top" : "bottom");
        }
        state = blockuse_with_prop(state, "facing", dir_names[opposite(d)]);
        return blockuse_with_prop(state, "half", face == 1 ? "bottom" : "top");
    }
    if (is_gate(state)) return blockuse_with_prop(state, "facing", dir_names[d]);
    if (is_chest(state)) {
        int f = opposite(d);
        state = blockuse_with_prop(state, "facing", dir_names[f]);
        const char *type = "single";
        if (partner_facing(x, y, z, clockwise(f), state) == f)
            type = "left";
        else if (partner_facing(x, y, z, counter_clockwise(f), state) == f)
            type = "right";
        return blockuse_with_prop(state, "type", type);
    }
    if (block_of_state[state] == block_of_state[BLOCK_BARREL] ||
        block_of_state[state] == block_of_state[BLOCK_FURNACE] ||
        block_of_state[state] == block_of_state[BLOCK_ENDER_CHEST]) { /* faces the player */
        bool barrel = block_of_state[state] == block_of_state[BLOCK_BARREL];
        const char *f = dir_names[opposite(d)];
        if (barrel && p->pitch > 45.0f) f = "up";
        if (barrel && p->pitch < -45.0f) f = "down";
        return blockuse_with_prop(state, "facing", f);
    }
    return state;
}

/* The partner position of a left/right chest (whatever stands there). */
static void partner_pos(int32_t x, int32_t z, uint16_t st, int32_t *px, int32_t *pz)
{
    int f = dir_of_state(st);
    int c = blockuse_prop_is(st, "type", "left") ? clockwise(f) : counter_clockwise(f);
    *px = x + dir_dx[c];
    *pz = z + dir_dz[c];
}

int blockuse_chest_partner(int32_t x, int32_t y, int32_t z, uint16_t st, int32_t *px, int32_t *py,
                           int32_t *pz)
{
    if (!is_chest(st) || blockuse_prop_is(st, "type", "single")) return 0;
    partner_pos(x, z, st, px, pz);
    *py = y;
    uint16_t o;
    if (world_get_block(&game.world, *px, y, *pz, &o) < 0 ||
        block_of_state[o] != block_of_state[st] || dir_of_state(o) != dir_of_state(st) ||
        blockuse_prop_is(o, "type", "single") ||
        blockuse_prop_is(o, "type", blockuse_prop_is(st, "type", "left") ? "left" : "right"))
        return 0;
    return 1;
}

void blockuse_placed(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    beds_placed(x, y, z, st); /* issue 21 */
    if (is_door(st) && blockuse_prop_is(st, "half", "lower")) {
        play_set_block(x, y + 1, z, blockuse_with_prop(st, "half", "upper"));
        return;
    }
    if (is_chest(st) && !blockuse_prop_is(st, "type", "single")) {
        int32_t px, pz;
        partner_pos(x, z, st, &px, &pz);
        uint16_t o;
        if (world_get_block(&game.world, px, y, pz, &o) == 0 &&
            block_of_state[o] == block_of_state[st] && blockuse_prop_is(o, "type", "single"))
            play_set_block(px, y, pz,
                           blockuse_with_prop(
                               o, "type", blockuse_prop_is(st, "type", "left") ? "right" : "left"));
    }
}

void blockuse_removing(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    beds_removing(x, y, z, st); /* issue 21 */
    if (is_door(st)) {
        int32_t oy = blockuse_prop_is(st, "half", "lower") ? y + 1 : y - 1;
        uint16_t o;
        if (world_get_block(&game.world, x, oy, z, &o) == 0 &&
            block_of_state[o] == block_of_state[st])
            play_set_block(x, oy, z, BLOCK_AIR);
        return;
    }
    int32_t px, py, pz;
    if (blockuse_chest_partner(x, y, z, st, &px, &py, &pz)) {
        uint16_t o;
        if (world_get_block(&game.world, px, py, pz, &o) == 0)
            play_set_block(px, py, pz, blockuse_with_prop(o, "type", "single"));
    }
}
