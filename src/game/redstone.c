/*
 * redstone.c — see redstone.h. Which rule answers which event:
 *
 *   block            placed / removed            neighbour changed             tick
 *   dust             shape, solve, updates       survive, shape, solve         -
 *   lever, button    updates at attached block   survive                       button: release
 *   torch            updates around              schedule 2 if input flipped   toggle, burnout
 *   repeater         updates in front, schedule  locked, schedule delay        on / off
 *   comparator       updates in front, schedule  schedule 2 if output differs  output, on / off
 *   lamp             lit if powered              lit, or schedule 4 to go off  off
 *   piston           extend / retract            extend / retract              -
 *   pressure plate   updates here and below      survive                       release or hold
 *   door, trapdoor,  -                           open = powered                -
 *   fence gate
 *   note block       -                           play on a rising edge         -
 *
 * Boolean properties index "true" as 0 and "false" as 1 (tools/gen_data.js).
 */
#include "game/redstone.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "world/block_state.h"

#define ID(b) (block_of_state[BLOCK_##b])

const int8_t rs_dx[6] = {0, 0, 0, 0, -1, 1};
const int8_t rs_dy[6] = {-1, 1, 0, 0, 0, 0};
const int8_t rs_dz[6] = {0, 0, -1, 1, 0, 0};
/* vanilla's updateNeighborsAt order: west, east, down, up, north, south */
static const int update_order[6] = {RS_WEST, RS_EAST, RS_DOWN, RS_UP, RS_NORTH, RS_SOUTH};
static const char *const dir_names[6] = {"down", "up", "north", "south", "west", "east"};

int rs_opposite(int dir)
{
    return dir ^ 1;
}

static int clockwise(int d) /* north -> east -> south -> west */
{
    static const int cw[6] = {RS_DOWN, RS_UP, RS_EAST, RS_WEST, RS_NORTH, RS_SOUTH};
    return cw[d];
}

static int counter_clockwise(int d)
{
    static const int ccw[6] = {RS_DOWN, RS_UP, RS_WEST, RS_EAST, RS_SOUTH, RS_NORTH};
    return ccw[d];
}

/* ---- block states ---- */

static int block(uint16_t st)
{
    return st < BLOCK_STATE_COUNT ? block_of_state[st] : -1;
}

static int prop(uint16_t st, const char *name)
{
    return block_state_prop(st, name, NULL);
}

static bool flag(uint16_t st, const char *name)
{
    return prop(st, name) == 0;
}

static uint16_t with_flag(uint16_t st, const char *name, bool v)
{
    return block_state_with(st, name, v ? 0 : 1);
}

static int dir_prop(uint16_t st, const char *name)
{
    const char *t;
    if (block_state_prop(st, name, &t) < 0) return -1;
    for (int d = 0; d < 6; d++)
        if (strcmp(t, dir_names[d]) == 0) return d;
    return -1;
}

static uint16_t with_dir(uint16_t st, const char *name, int d)
{
    return block_state_with(st, name, block_state_value_index(st, name, dir_names[d]));
}

static bool name_ends(uint16_t st, const char *suffix)
{
    int b = block(st);
    if (b < 0) return false;
    const char *n = block_info[b].name;
    size_t ln = strlen(n), ls = strlen(suffix);
    return ln >= ls && strcmp(n + ln - ls, suffix) == 0;
}

static bool is_air(uint16_t st)
{
    return st == BLOCK_AIR || block(st) == ID(CAVE_AIR) || block(st) == ID(VOID_AIR);
}

/* What each block is for the rules: one byte per block id, filled from the
 * block names on first use (a read-only cache of the generated tables, the
 * same for every caller). */
enum kind {
    K_NONE,
    K_WIRE,
    K_LEVER,
    K_BUTTON,
    K_TORCH,
    K_WALL_TORCH,
    K_REPEATER,
    K_COMPARATOR,
    K_LAMP,
    K_PISTON,
    K_HEAD,
    K_DOOR,
    K_TRAPDOOR,
    K_GATE,
    K_NOTE,
    K_PLATE,
    K_SOURCE /* other signal sources (redstone block, observer ...) */
};

static bool block_name_ends(int b, const char *suffix)
{
    const char *n = block_info[b].name;
    size_t ln = strlen(n), ls = strlen(suffix);
    return ln >= ls && strcmp(n + ln - ls, suffix) == 0;
}

static enum kind kind_of(uint16_t st)
{
    static uint8_t kinds[BLOCK_COUNT];
    static bool ready;
    if (!ready) {
        for (int b = 0; b < BLOCK_COUNT; b++) {
            enum kind k = K_NONE;
            if (b == ID(REDSTONE_WIRE))
                k = K_WIRE;
            else if (b == ID(LEVER))
                k = K_LEVER;
            else if (block_name_ends(b, "_button"))
                k = K_BUTTON;
            else if (b == ID(REDSTONE_TORCH))
                k = K_TORCH;
            else if (b == ID(REDSTONE_WALL_TORCH))
                k = K_WALL_TORCH;
            else if (b == ID(REPEATER))
                k = K_REPEATER;
            else if (b == ID(COMPARATOR))
                k = K_COMPARATOR;
            else if (b == ID(REDSTONE_LAMP))
                k = K_LAMP;
            else if (b == ID(PISTON) || b == ID(STICKY_PISTON))
                k = K_PISTON;
            else if (b == ID(PISTON_HEAD))
                k = K_HEAD;
            else if (block_name_ends(b, "_trapdoor"))
                k = K_TRAPDOOR;
            else if (block_name_ends(b, "_door"))
                k = K_DOOR;
            else if (block_name_ends(b, "_fence_gate"))
                k = K_GATE;
            else if (b == ID(NOTE_BLOCK))
                k = K_NOTE;
            else if (block_name_ends(b, "_pressure_plate"))
                k = K_PLATE;
            else if (b == ID(REDSTONE_BLOCK) || b == ID(OBSERVER) || b == ID(TARGET) ||
                     b == ID(DAYLIGHT_DETECTOR) || b == ID(TRIPWIRE_HOOK) ||
                     b == ID(TRAPPED_CHEST) || b == ID(DETECTOR_RAIL) || b == ID(LECTERN) ||
                     b == ID(SCULK_SENSOR) || b == ID(CALIBRATED_SCULK_SENSOR) ||
                     b == ID(LIGHTNING_ROD))
                k = K_SOURCE;
            kinds[b] = (uint8_t)k;
        }
        ready = true;
    }
    return st < BLOCK_STATE_COUNT ? (enum kind)kinds[block_of_state[st]] : K_NONE;
}

bool rs_is_wire(uint16_t st)
{
    return kind_of(st) == K_WIRE;
}

static bool is_lever(uint16_t st)
{
    return kind_of(st) == K_LEVER;
}

static bool is_button(uint16_t st)
{
    return kind_of(st) == K_BUTTON;
}

static bool is_floor_torch(uint16_t st)
{
    return kind_of(st) == K_TORCH;
}

static bool is_wall_torch(uint16_t st)
{
    return kind_of(st) == K_WALL_TORCH;
}

static bool is_repeater(uint16_t st)
{
    return kind_of(st) == K_REPEATER;
}

static bool is_diode(uint16_t st)
{
    return kind_of(st) == K_REPEATER || kind_of(st) == K_COMPARATOR;
}

static bool is_lamp(uint16_t st)
{
    return kind_of(st) == K_LAMP;
}

static bool is_piston(uint16_t st)
{
    return kind_of(st) == K_PISTON;
}

static bool is_door(uint16_t st)
{
    return kind_of(st) == K_DOOR;
}

static bool is_trapdoor(uint16_t st)
{
    return kind_of(st) == K_TRAPDOOR;
}

static bool is_gate(uint16_t st)
{
    return kind_of(st) == K_GATE;
}

static bool is_note_block(uint16_t st)
{
    return kind_of(st) == K_NOTE;
}

static bool is_plate(uint16_t st)
{
    return kind_of(st) == K_PLATE;
}

/* vanilla isSignalSource */
static bool is_signal_source(uint16_t st)
{
    enum kind k = kind_of(st);
    return k == K_WIRE || k == K_LEVER || k == K_BUTTON || k == K_TORCH || k == K_WALL_TORCH ||
           k == K_REPEATER || k == K_COMPARATOR || k == K_PLATE || k == K_SOURCE;
}

bool rs_is_component(uint16_t st)
{
    enum kind k = kind_of(st);
    return k != K_NONE && k != K_SOURCE && k != K_HEAD;
}

bool rs_placed_matters(uint16_t old, uint16_t now)
{
    return rs_is_component(old) || rs_is_component(now) || kind_of(old) == K_HEAD;
}

/* A full collision box by the tables; repeaters and comparators (2/16
 * high, a "block" box in minecraft-data) are not. */
static bool full_cube(uint16_t st)
{
    int b = block(st);
    return b >= 0 && (block_info[b].flags & BLOCK_FLAG_SOLID) && !is_diode(st);
}

/* vanilla isRedstoneConductor: a full opaque cube (tables: a full collision
 * box that filters all light), less the blocks vanilla marks never. */
bool rs_is_conductor(uint16_t st)
{
    int b = block(st);
    if (b < 0 || !full_cube(st) || block_info[b].filter_light < 15) return false;
    return b != ID(REDSTONE_BLOCK) && b != ID(PISTON) && b != ID(STICKY_PISTON) &&
           b != ID(OBSERVER);
}

/* Blocks with a block entity (vanilla hasBlockEntity): immovable. */
static bool has_block_entity(uint16_t st)
{
    static const char *const suffixes[] = {"chest",
                                           "barrel",
                                           "furnace",
                                           "smoker",
                                           "hopper",
                                           "dispenser",
                                           "dropper",
                                           "_sign",
                                           "beacon",
                                           "brewing_stand",
                                           "enchanting_table",
                                           "jukebox",
                                           "spawner",
                                           "lectern",
                                           "campfire",
                                           "beehive",
                                           "bee_nest",
                                           "conduit",
                                           "_banner",
                                           "_head",
                                           "_skull",
                                           "comparator",
                                           "daylight_detector",
                                           "command_block",
                                           "structure_block",
                                           "jigsaw",
                                           "sculk_sensor",
                                           "sculk_catalyst",
                                           "sculk_shrieker",
                                           "chiseled_bookshelf",
                                           "decorated_pot",
                                           "end_gateway",
                                           "end_portal",
                                           "suspicious_sand",
                                           "suspicious_gravel",
                                           "bell"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (name_ends(st, suffixes[i])) return true;
    return false;
}

enum rs_push rs_push_reaction(uint16_t st)
{
    int b = block(st);
    if (b < 0) return RS_PUSH_BLOCK;
    if (b == ID(OBSIDIAN) || b == ID(CRYING_OBSIDIAN) || b == ID(RESPAWN_ANCHOR) ||
        b == ID(REINFORCED_DEEPSLATE) || (block_info[b].flags & BLOCK_FLAG_UNBREAKABLE) ||
        b == ID(PISTON_HEAD) || b == ID(MOVING_PISTON))
        return RS_PUSH_BLOCK;
    if (is_piston(st)) return flag(st, "extended") ? RS_PUSH_BLOCK : RS_PUSH_NORMAL;
    if (!full_cube(st) || is_door(st) || name_ends(st, "_bed") || name_ends(st, "shulker_box") ||
        b == ID(COBWEB) || b == ID(PUMPKIN) || b == ID(JACK_O_LANTERN) || b == ID(MELON) ||
        b == ID(DRAGON_EGG) || b == ID(TURTLE_EGG) || b == ID(CAKE))
        return RS_PUSH_DESTROY;
    if (name_ends(st, "_glazed_terracotta")) return RS_PUSH_ONLY;
    if (has_block_entity(st)) return RS_PUSH_BLOCK;
    return RS_PUSH_NORMAL;
}

/* ---- sounds ---- */

/* BlockSetType's sound family of a button, plate, door, trapdoor or gate. */
static const char *sound_family(uint16_t st, bool metal)
{
    int b = block(st);
    const char *n = b >= 0 ? block_info[b].name : "";
    if (strncmp(n, "cherry_", 7) == 0) return "cherry_wood";
    if (strncmp(n, "bamboo_", 7) == 0) return "bamboo_wood";
    if (strncmp(n, "crimson_", 8) == 0 || strncmp(n, "warped_", 7) == 0) return "nether_wood";
    if (strncmp(n, "iron_", 5) == 0) return "iron";
    if (metal) return "metal";
    if (strncmp(n, "stone_", 6) == 0 || strncmp(n, "polished_blackstone_", 20) == 0) return "stone";
    return "wooden";
}

static void sound(const struct rs_world *w, int32_t x, int32_t y, int32_t z, const char *name,
                  float volume, float pitch)
{
    if (w->sound) w->sound(w->ctx, x, y, z, name, volume, pitch);
}

/* block.<family>_<what>.<suffix>, e.g. block.stone_button.click_on. */
static void family_sound(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st,
                         const char *what, const char *suffix, bool metal)
{
    char name[96];
    const char *f = sound_family(st, metal);
    if (strcmp(what, "fence_gate") == 0 && strcmp(f, "wooden") == 0)
        snprintf(name, sizeof name, "block.fence_gate.%s", suffix);
    else
        snprintf(name, sizeof name, "block.%s_%s.%s", f, what, suffix);
    sound(w, x, y, z, name, 1.0f, 1.0f);
}

/* ---- signals ---- */

static bool get(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    return w->get(w->ctx, x, y, z, st);
}

static uint16_t at(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    return get(w, x, y, z, &st) ? st : BLOCK_AIR;
}

/* The block a component rests on: stone when it is not loaded, so nothing
 * breaks at the edge of the loaded world. */
static uint16_t support_at(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    return get(w, x, y, z, &st) ? st : BLOCK_STONE;
}

/* FaceAttachedHorizontalDirectionalBlock.getConnectedDirection: from the
 * block it hangs on toward it. */
static int attached_dir(uint16_t st)
{
    const char *face;
    if (block_state_prop(st, "face", &face) < 0) return RS_UP;
    if (strcmp(face, "floor") == 0) return RS_UP;
    if (strcmp(face, "ceiling") == 0) return RS_DOWN;
    return dir_prop(st, "facing");
}

int rs_wire_power(uint16_t st)
{
    return rs_is_wire(st) ? prop(st, "power") : 0;
}

int rs_wire_side(uint16_t st, int dir)
{
    if (dir < RS_NORTH) return 0;
    const char *t;
    if (block_state_prop(st, dir_names[dir], &t) < 0) return 0;
    return t[0] == 'u' ? 2 : t[0] == 's' ? 1 : 0;
}

/* A comparator's output (its block entity's OutputSignal, kept by the world). */
static int comparator_output(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    int v = w->comparator_output ? w->comparator_output(w->ctx, x, y, z) : 0;
    return v < 0 ? 0 : v > 15 ? 15 : v;
}

int rs_emitted(const struct rs_world *w, uint16_t st, int32_t x, int32_t y, int32_t z, int dir,
               bool wires)
{
    if (rs_is_wire(st)) {
        int p = rs_wire_power(st);
        if (!wires || dir == RS_DOWN || p == 0) return 0;
        return dir == RS_UP || rs_wire_side(st, rs_opposite(dir)) ? p : 0;
    }
    if (is_lever(st) || is_button(st)) return flag(st, "powered") ? 15 : 0;
    if (is_floor_torch(st)) return flag(st, "lit") && dir != RS_UP ? 15 : 0;
    if (is_wall_torch(st)) return flag(st, "lit") && dir_prop(st, "facing") != dir ? 15 : 0;
    if (is_repeater(st)) return flag(st, "powered") && dir_prop(st, "facing") == dir ? 15 : 0;
    if (kind_of(st) == K_COMPARATOR)
        return flag(st, "powered") && dir_prop(st, "facing") == dir ? comparator_output(w, x, y, z)
                                                                    : 0;
    if (block(st) == ID(REDSTONE_BLOCK)) return 15;
    if (is_plate(st)) {
        int p = prop(st, "power");
        if (p >= 0) return p;
        return flag(st, "powered") ? 15 : 0;
    }
    return 0;
}

int rs_emitted_strong(const struct rs_world *w, uint16_t st, int32_t x, int32_t y, int32_t z,
                      int dir, bool wires)
{
    if (rs_is_wire(st)) return wires ? rs_emitted(w, st, x, y, z, dir, wires) : 0;
    if (is_lever(st) || is_button(st))
        return flag(st, "powered") && attached_dir(st) == dir ? 15 : 0;
    if (is_floor_torch(st) || is_wall_torch(st))
        return dir == RS_DOWN ? rs_emitted(w, st, x, y, z, dir, wires) : 0;
    if (is_diode(st)) return rs_emitted(w, st, x, y, z, dir, wires);
    if (is_plate(st)) return dir == RS_UP ? rs_emitted(w, st, x, y, z, dir, wires) : 0;
    return 0;
}

/* Level.getDirectSignalTo: the best strong signal into (x, y, z). */
static int direct_signal_to(const struct rs_world *w, int32_t x, int32_t y, int32_t z, bool wires)
{
    int best = 0;
    for (int d = 0; d < 6 && best < 15; d++) {
        uint16_t n;
        int32_t nx = x + rs_dx[d], ny = y + rs_dy[d], nz = z + rs_dz[d];
        if (!get(w, nx, ny, nz, &n)) continue;
        int s = rs_emitted_strong(w, n, nx, ny, nz, d, wires);
        if (s > best) best = s;
    }
    return best;
}

int rs_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int dir, bool wires)
{
    uint16_t st;
    if (!get(w, x, y, z, &st)) return 0;
    int s = rs_emitted(w, st, x, y, z, dir, wires);
    if (s < 15 && rs_is_conductor(st)) {
        int d = direct_signal_to(w, x, y, z, wires);
        if (d > s) s = d;
    }
    return s;
}

int rs_best_neighbor_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z, bool wires)
{
    int best = 0;
    for (int i = 0; i < 6 && best < 15; i++) {
        int d = update_order[i];
        int s = rs_signal(w, x + rs_dx[d], y + rs_dy[d], z + rs_dz[d], d, wires);
        if (s > best) best = s;
    }
    return best;
}

bool rs_has_neighbor_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    for (int i = 0; i < 6; i++) {
        int d = update_order[i];
        if (rs_signal(w, x + rs_dx[d], y + rs_dy[d], z + rs_dz[d], d, true) > 0) return true;
    }
    return false;
}

/* ---- dust ---- */

/* A dust stays on a block with a sturdy top (or a hopper). */
static bool wire_survives_on(uint16_t below)
{
    return full_cube(below) || block(below) == ID(HOPPER);
}

/* RedStoneWireBlock.shouldConnectTo(state, dir); dir < 0: the diagonal case (dust only). */
static bool connects_to(uint16_t st, int dir)
{
    if (rs_is_wire(st)) return true;
    if (dir < 0) return false;
    if (is_repeater(st)) {
        int f = dir_prop(st, "facing");
        return f == dir || f == rs_opposite(dir);
    }
    if (block(st) == ID(OBSERVER)) return dir_prop(st, "facing") == dir;
    return is_signal_source(st);
}

/* getConnectingSide: 0 none, 1 side, 2 up. */
static int connecting_side(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int dir,
                           bool open_above)
{
    int32_t nx = x + rs_dx[dir], nz = z + rs_dz[dir];
    uint16_t n = at(w, nx, y, nz);
    if (open_above && wire_survives_on(n) && connects_to(at(w, nx, y + 1, nz), -1))
        return full_cube(n) ? 2 : 1;
    if (!connects_to(n, dir) && (rs_is_conductor(n) || !connects_to(at(w, nx, y - 1, nz), -1)))
        return 0;
    return 1;
}

static uint16_t with_side(uint16_t st, int dir, int side)
{
    static const char *const sides[3] = {"none", "side", "up"};
    return block_state_with(st, dir_names[dir],
                            block_state_value_index(st, dir_names[dir], sides[side]));
}

static bool is_dot(uint16_t st)
{
    for (int d = RS_NORTH; d <= RS_EAST; d++)
        if (rs_wire_side(st, d)) return false;
    return true;
}

uint16_t rs_wire_shape(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    bool was_dot = is_dot(st);
    bool open_above = !rs_is_conductor(at(w, x, y + 1, z));
    uint16_t now = st;
    int side[6] = {0};
    for (int d = RS_NORTH; d <= RS_EAST; d++) {
        side[d] = connecting_side(w, x, y, z, d, open_above);
        now = with_side(now, d, side[d]);
    }
    if (was_dot && is_dot(now)) return now;
    bool ns = !side[RS_NORTH] && !side[RS_SOUTH], ew = !side[RS_EAST] && !side[RS_WEST];
    if (!side[RS_WEST] && ns) now = with_side(now, RS_WEST, 1);
    if (!side[RS_EAST] && ns) now = with_side(now, RS_EAST, 1);
    if (!side[RS_NORTH] && ew) now = with_side(now, RS_NORTH, 1);
    if (!side[RS_SOUTH] && ew) now = with_side(now, RS_SOUTH, 1);
    return now;
}

/* The dust positions the dust at p reads power from (calculateTargetStrength's
 * loop): up to two per side. Returns how many went into out. */
static int wire_reads(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int32_t out[8][3])
{
    int n = 0;
    bool above_conducts = rs_is_conductor(at(w, x, y + 1, z));
    for (int d = RS_NORTH; d <= RS_EAST; d++) {
        int32_t nx = x + rs_dx[d], nz = z + rs_dz[d];
        uint16_t s = at(w, nx, y, nz);
        if (rs_is_wire(s)) out[n][0] = nx, out[n][1] = y, out[n][2] = nz, n++;
        bool conducts = rs_is_conductor(s);
        int32_t dy = conducts && !above_conducts ? 1 : !conducts ? -1 : 0;
        if (dy && rs_is_wire(at(w, nx, y + dy, nz)))
            out[n][0] = nx, out[n][1] = y + dy, out[n][2] = nz, n++;
    }
    return n;
}

int rs_wire_target(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    int best = rs_best_neighbor_signal(w, x, y, z, false);
    int32_t r[8][3];
    int n = wire_reads(w, x, y, z, r);
    for (int i = 0; i < n && best < 15; i++) {
        int p = rs_wire_power(at(w, r[i][0], r[i][1], r[i][2])) - 1;
        if (p > best) best = p;
    }
    return best;
}

/* The network being solved: positions in breadth-first order, an
 * open-addressed index of them, and per dust the dust that read it. */
struct net {
    int32_t (*pos)[3];
    uint8_t *src, *power, *old;
    int16_t (*readers)[12];
    uint8_t *nreaders;
    int32_t *slot; /* index + 1, 0 empty */
    uint32_t n, slots;
};

static uint64_t pos_key(int32_t x, int32_t y, int32_t z)
{
    return ((uint64_t)(uint32_t)x * 0x9e3779b97f4a7c15ull) ^
           ((uint64_t)(uint32_t)z * 0xc2b2ae3d27d4eb4full) ^ ((uint64_t)(uint32_t)y << 7);
}

static int net_find(const struct net *t, int32_t x, int32_t y, int32_t z)
{
    uint32_t i = (uint32_t)(pos_key(x, y, z) >> 20) & (t->slots - 1);
    while (t->slot[i]) {
        int k = t->slot[i] - 1;
        if (t->pos[k][0] == x && t->pos[k][1] == y && t->pos[k][2] == z) return k;
        i = (i + 1) & (t->slots - 1);
    }
    return -1;
}

static int net_add(struct net *t, int32_t x, int32_t y, int32_t z)
{
    if (t->n >= RS_NET_MAX) return -1;
    uint32_t i = (uint32_t)(pos_key(x, y, z) >> 20) & (t->slots - 1);
    while (t->slot[i]) i = (i + 1) & (t->slots - 1);
    t->slot[i] = (int32_t)t->n + 1;
    t->pos[t->n][0] = x, t->pos[t->n][1] = y, t->pos[t->n][2] = z;
    t->nreaders[t->n] = 0;
    return (int)t->n++;
}

static void net_free(struct net *t)
{
    free(t->pos), free(t->src), free(t->power), free(t->old), free(t->readers);
    free(t->nreaders), free(t->slot);
}

static int net_alloc(struct net *t)
{
    memset(t, 0, sizeof *t);
    t->slots = RS_NET_MAX * 2;
    t->pos = malloc(RS_NET_MAX * sizeof *t->pos);
    t->src = malloc(RS_NET_MAX);
    t->power = malloc(RS_NET_MAX);
    t->old = malloc(RS_NET_MAX);
    t->readers = malloc(RS_NET_MAX * sizeof *t->readers);
    t->nreaders = malloc(RS_NET_MAX);
    t->slot = calloc(t->slots, sizeof *t->slot);
    if (!t->pos || !t->src || !t->power || !t->old || !t->readers || !t->nreaders || !t->slot) {
        net_free(t);
        return -1;
    }
    return 0;
}

int rs_wire_solve(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    if (!rs_is_wire(at(w, x, y, z))) return 0;
    struct net t;
    if (net_alloc(&t) < 0) return -1;
    net_add(&t, x, y, z);
    int *queue = malloc(RS_NET_MAX * 16 * sizeof *queue);
    if (!queue) {
        net_free(&t);
        return -1;
    }
    /* Gather breadth-first: the dust each reads, and the dust that reads each
     * (the 12 places around at y - 1, y, y + 1), so the network is closed
     * under both; src is the best non-dust signal, or the power of dust read
     * past the cap, minus 1. */
    for (uint32_t i = 0; i < t.n; i++) {
        int32_t px = t.pos[i][0], py = t.pos[i][1], pz = t.pos[i][2];
        uint16_t st = at(w, px, py, pz);
        t.old[i] = (uint8_t)rs_wire_power(st);
        int src = rs_best_neighbor_signal(w, px, py, pz, false);
        int32_t r[8][3];
        int nr = wire_reads(w, px, py, pz, r);
        for (int k = 0; k < nr; k++) {
            int j = net_find(&t, r[k][0], r[k][1], r[k][2]);
            if (j < 0) j = net_add(&t, r[k][0], r[k][1], r[k][2]);
            if (j < 0) { /* past the cap: its power is a source */
                int p = rs_wire_power(at(w, r[k][0], r[k][1], r[k][2])) - 1;
                if (p > src) src = p;
                continue;
            }
            if (t.nreaders[j] < 12) t.readers[j][t.nreaders[j]++] = (int16_t)i;
        }
        t.src[i] = (uint8_t)src;
        for (int d = RS_NORTH; d <= RS_EAST; d++)
            for (int dy = -1; dy <= 1; dy++) {
                int32_t qx = px + rs_dx[d], qy = py + dy, qz = pz + rs_dz[d];
                if (net_find(&t, qx, qy, qz) >= 0 || !rs_is_wire(at(w, qx, qy, qz))) continue;
                int32_t q[8][3];
                int nq = wire_reads(w, qx, qy, qz, q);
                for (int k = 0; k < nq; k++)
                    if (q[k][0] == px && q[k][1] == py && q[k][2] == pz) {
                        net_add(&t, qx, qy, qz); /* it reads us: gathered in its turn */
                        break;
                    }
            }
    }
    /* Power rises from the sources along the readers; each dust rises at
     * most 15 times, so the queue (16 a dust) never overflows. */
    size_t head = 0, tail = 0;
    for (uint32_t i = 0; i < t.n; i++) {
        t.power[i] = t.src[i];
        if (t.src[i] > 1) queue[tail++] = (int)i;
    }
    while (head < tail) {
        int u = queue[head++];
        int p = t.power[u] - 1;
        for (int k = 0; k < t.nreaders[u]; k++) {
            int v = t.readers[u][k];
            if (p > t.power[v]) {
                t.power[v] = (uint8_t)p;
                if (p > 1 && tail < (size_t)RS_NET_MAX * 16) queue[tail++] = v;
            }
        }
    }
    free(queue);
    int changed = 0;
    for (uint32_t i = 0; i < t.n; i++) {
        if (t.power[i] == t.old[i]) continue;
        int32_t px = t.pos[i][0], py = t.pos[i][1], pz = t.pos[i][2];
        uint16_t st = at(w, px, py, pz);
        if (!rs_is_wire(st) || rs_wire_power(st) == t.power[i]) continue;
        w->set(w->ctx, px, py, pz, block_state_with(st, "power", t.power[i]));
        changed++;
    }
    net_free(&t);
    return changed;
}

/* The dust at p changed power: the blocks it powers through conductors
 * beside it, above and below hear of it (updateNeighborsAt of each neighbour). */
static void wire_power_updates(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    for (int i = 0; i < 6; i++) {
        int d = update_order[i];
        int32_t nx = x + rs_dx[d], ny = y + rs_dy[d], nz = z + rs_dz[d];
        if (rs_is_conductor(at(w, nx, ny, nz))) w->notify(w->ctx, nx, ny, nz);
    }
}

static void wire_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!wire_survives_on(support_at(w, x, y - 1, z))) {
        if (w->dropped) w->dropped(w->ctx, x, y, z, st);
        w->set(w->ctx, x, y, z, BLOCK_AIR);
        return;
    }
    uint16_t shaped = rs_wire_shape(w, x, y, z, st);
    if (shaped != st) w->set(w->ctx, x, y, z, shaped);
    if (rs_wire_target(w, x, y, z) != rs_wire_power(at(w, x, y, z))) rs_wire_solve(w, x, y, z);
}

/* ---- levers, buttons ---- */

static bool attached_survives(const struct rs_world *w, int32_t x, int32_t y, int32_t z,
                              uint16_t st)
{
    int d = attached_dir(st);
    if (d < 0) return false;
    int o = rs_opposite(d);
    return full_cube(support_at(w, x + rs_dx[o], y + rs_dy[o], z + rs_dz[o]));
}

/* The lever or button at p changed: its block and the attached block's neighbours hear. */
static void attached_updates(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    w->notify(w->ctx, x, y, z);
    int o = rs_opposite(attached_dir(st));
    w->notify(w->ctx, x + rs_dx[o], y + rs_dy[o], z + rs_dz[o]);
}

static int button_ticks(uint16_t st)
{
    return block(st) == ID(STONE_BUTTON) || block(st) == ID(POLISHED_BLACKSTONE_BUTTON) ? 20 : 30;
}

/* ---- torches ---- */

static bool torch_input(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_floor_torch(st)) return rs_signal(w, x, y - 1, z, RS_DOWN, true) > 0;
    int o = rs_opposite(dir_prop(st, "facing"));
    return rs_signal(w, x + rs_dx[o], y, z + rs_dz[o], o, true) > 0;
}

bool rs_torch_toggled_too_often(struct rs_torch_log *log, int32_t x, int32_t y, int32_t z,
                                int64_t now, bool add)
{
    while (log->len && now - log->e[log->head].when > RS_TORCH_WINDOW) {
        log->head = (log->head + 1) % RS_TORCH_LOG_MAX;
        log->len--;
    }
    if (add) {
        if (log->len == RS_TORCH_LOG_MAX) { /* full: the oldest goes */
            log->head = (log->head + 1) % RS_TORCH_LOG_MAX;
            log->len--;
        }
        log->e[(log->head + log->len++) % RS_TORCH_LOG_MAX] = (struct rs_toggle){x, y, z, now};
    }
    int n = 0;
    for (uint32_t i = 0; i < log->len; i++) {
        const struct rs_toggle *t = &log->e[(log->head + i) % RS_TORCH_LOG_MAX];
        if (t->x == x && t->y == y && t->z == z && ++n >= RS_TORCH_TOGGLES) return true;
    }
    return false;
}

static bool torch_survives(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_floor_torch(st)) return wire_survives_on(support_at(w, x, y - 1, z));
    int o = rs_opposite(dir_prop(st, "facing"));
    return full_cube(support_at(w, x + rs_dx[o], y, z + rs_dz[o]));
}

static void around_updates(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    for (int i = 0; i < 6; i++) {
        int d = update_order[i];
        w->notify(w->ctx, x + rs_dx[d], y + rs_dy[d], z + rs_dz[d]);
    }
}

static void torch_tick(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    bool input = torch_input(w, x, y, z, st);
    int64_t now = w->now(w->ctx);
    if (flag(st, "lit")) {
        if (!input) return;
        w->set(w->ctx, x, y, z, with_flag(st, "lit", false));
        if (w->torches && rs_torch_toggled_too_often(w->torches, x, y, z, now, true)) {
            if (w->level_event) w->level_event(w->ctx, x, y, z, 1502);
            w->schedule(w->ctx, x, y, z, (uint16_t)block(st), RS_TORCH_COOLDOWN, 0);
        }
    } else if (!input &&
               !(w->torches && rs_torch_toggled_too_often(w->torches, x, y, z, now, false))) {
        w->set(w->ctx, x, y, z, with_flag(st, "lit", true));
    }
}

/* ---- repeaters ---- */

int rs_repeater_delay(uint16_t st)
{
    int d = prop(st, "delay");
    return d < 0 ? 2 : (d + 1) * 2;
}

/* DiodeBlock.getAlternateSignalAt: a repeater hears diodes only, a
 * comparator any signal source (a redstone block 15, dust its power, else
 * the strong signal). */
static int side_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int d,
                       bool diodes_only)
{
    int32_t sx = x + rs_dx[d], sz = z + rs_dz[d];
    uint16_t s = at(w, sx, y, sz);
    if (diodes_only ? !is_diode(s) : !is_signal_source(s)) return 0;
    if (block(s) == ID(REDSTONE_BLOCK)) return 15;
    if (rs_is_wire(s)) return rs_wire_power(s);
    return rs_emitted_strong(w, s, sx, y, sz, d, true);
}

static int side_inputs(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st,
                       bool diodes_only)
{
    int f = dir_prop(st, "facing");
    if (f < 0) return 0;
    int a = side_signal(w, x, y, z, clockwise(f), diodes_only);
    int b = side_signal(w, x, y, z, counter_clockwise(f), diodes_only);
    return a > b ? a : b;
}

bool rs_repeater_locked(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    return side_inputs(w, x, y, z, st, true) > 0;
}

/* DiodeBlock.getInputSignal: from the block behind (facing). */
static int diode_input(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int f = dir_prop(st, "facing");
    int32_t bx = x + rs_dx[f], bz = z + rs_dz[f];
    int s = rs_signal(w, bx, y, bz, f, true);
    if (s >= 15) return s;
    int p = rs_wire_power(at(w, bx, y, bz));
    return p > s ? p : s;
}

/* DiodeBlock.shouldPrioritize: a diode in front that does not face this one. */
static bool diode_prioritized(const struct rs_world *w, int32_t x, int32_t y, int32_t z,
                              uint16_t st)
{
    int o = rs_opposite(dir_prop(st, "facing"));
    uint16_t front = at(w, x + rs_dx[o], y, z + rs_dz[o]);
    return is_diode(front) && dir_prop(front, "facing") != o;
}

/* DiodeBlock.checkTickOnNeighbor. */
static void repeater_check(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (flag(st, "locked")) return;
    bool powered = flag(st, "powered"), on = diode_input(w, x, y, z, st) > 0;
    if (powered == on || w->pending(w->ctx, x, y, z, (uint16_t)block(st))) return;
    int prio = diode_prioritized(w, x, y, z, st) ? -3 : powered ? -2 : -1;
    w->schedule(w->ctx, x, y, z, (uint16_t)block(st), rs_repeater_delay(st), prio);
}

static void repeater_tick(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (rs_repeater_locked(w, x, y, z, st)) return;
    bool powered = flag(st, "powered"), on = diode_input(w, x, y, z, st) > 0;
    if (powered && !on) {
        w->set(w->ctx, x, y, z, with_flag(st, "powered", false));
    } else if (!powered) {
        w->set(w->ctx, x, y, z, with_flag(st, "powered", true));
        if (!on) w->schedule(w->ctx, x, y, z, (uint16_t)block(st), rs_repeater_delay(st), -2);
    }
}

/* DiodeBlock.updateNeighborsInFront: the block in front and its neighbours. */
static void front_updates(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int f = dir_prop(st, "facing");
    if (f < 0) return;
    int o = rs_opposite(f);
    int32_t fx = x + rs_dx[o], fz = z + rs_dz[o];
    uint16_t front = at(w, fx, y, fz);
    if (rs_is_component(front)) rs_neighbor(w, fx, y, fz, front); /* level.neighborChanged */
    w->notify(w->ctx, fx, y, fz);
}

static void comparator_check(const struct rs_world *w, int32_t x, int32_t y, int32_t z,
                             uint16_t st);

static void repeater_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z,
                              uint16_t st)
{
    if (!wire_survives_on(support_at(w, x, y - 1, z))) {
        if (w->dropped) w->dropped(w->ctx, x, y, z, st);
        w->set(w->ctx, x, y, z, BLOCK_AIR);
        return;
    }
    if (kind_of(st) == K_COMPARATOR) {
        comparator_check(w, x, y, z, st);
        return;
    }
    bool locked = rs_repeater_locked(w, x, y, z, st);
    if (locked != flag(st, "locked")) {
        st = with_flag(st, "locked", locked);
        w->set(w->ctx, x, y, z, st);
    }
    repeater_check(w, x, y, z, st);
}

/* ---- comparators ---- */

int rs_container_signal(const int *counts, const int *max_stacks, int slots)
{
    if (slots <= 0) return 0;
    float f = 0.0f;
    int filled = 0;
    for (int i = 0; i < slots; i++) {
        if (counts[i] <= 0) continue;
        int m = max_stacks[i] < 64 ? max_stacks[i] : 64;
        f += (float)counts[i] / (float)(m > 0 ? m : 64);
        filled++;
    }
    f /= (float)slots;
    return (int)floorf(f * 14.0f) + (filled > 0 ? 1 : 0);
}

/* hasAnalogOutputSignal / getAnalogOutputSignal: -1 for blocks without one. */
static int analog_output(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int b = block(st);
    if (b == ID(CAKE)) return (7 - prop(st, "bites")) * 2;
    if (b == ID(END_PORTAL_FRAME)) return flag(st, "eye") ? 15 : 0;
    if (b == ID(WATER_CAULDRON) || b == ID(POWDER_SNOW_CAULDRON)) return prop(st, "level") + 1;
    if (b == ID(LAVA_CAULDRON)) return 3;
    if (b == ID(CAULDRON)) return 0;
    if (b == ID(COMPOSTER)) return prop(st, "level");
    if (w->container_signal) return w->container_signal(w->ctx, x, y, z);
    return -1;
}

/* ComparatorBlock.getInputSignal: the rear input, or the analog output of
 * the block behind (or behind a conductor behind). */
static int comparator_input(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int i = diode_input(w, x, y, z, st);
    int f = dir_prop(st, "facing");
    int32_t bx = x + rs_dx[f], bz = z + rs_dz[f];
    uint16_t behind = at(w, bx, y, bz);
    int a = analog_output(w, bx, y, bz, behind);
    if (a >= 0) return a;
    if (i < 15 && rs_is_conductor(behind)) {
        int32_t cx = bx + rs_dx[f], cz = bz + rs_dz[f];
        int c = analog_output(w, cx, y, cz, at(w, cx, y, cz));
        if (c >= 0) i = c;
    }
    return i;
}

static bool subtracts(uint16_t st)
{
    return prop(st, "mode") == 1; /* compare, subtract */
}

int rs_comparator_output(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int i = comparator_input(w, x, y, z, st);
    if (i == 0) return 0;
    int j = side_inputs(w, x, y, z, st, false);
    if (j > i) return 0;
    return subtracts(st) ? i - j : i;
}

static bool comparator_on(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int i = comparator_input(w, x, y, z, st);
    if (i == 0) return false;
    int j = side_inputs(w, x, y, z, st, false);
    return i > j || (i == j && !subtracts(st));
}

/* ComparatorBlock.checkTickOnNeighbor. */
static void comparator_check(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (w->pending(w->ctx, x, y, z, (uint16_t)block(st))) return;
    if (rs_comparator_output(w, x, y, z, st) == comparator_output(w, x, y, z) &&
        flag(st, "powered") == comparator_on(w, x, y, z, st))
        return;
    w->schedule(w->ctx, x, y, z, (uint16_t)block(st), 2,
                diode_prioritized(w, x, y, z, st) ? -1 : 0);
}

/* ComparatorBlock.refreshOutputState. */
static void comparator_refresh(const struct rs_world *w, int32_t x, int32_t y, int32_t z,
                               uint16_t st)
{
    int now = rs_comparator_output(w, x, y, z, st), old = comparator_output(w, x, y, z);
    if (w->set_comparator_output) w->set_comparator_output(w->ctx, x, y, z, now);
    if (old == now && subtracts(st)) return;
    bool on = comparator_on(w, x, y, z, st), powered = flag(st, "powered");
    if (powered != on)
        w->set(w->ctx, x, y, z,
               with_flag(st, "powered", on)); /* its placed hook updates the front */
    else if (old != now)
        front_updates(w, x, y, z, st);
}

void rs_analog_changed(const struct rs_world *w, int32_t x, int32_t y, int32_t z)
{
    for (int d = RS_NORTH; d <= RS_EAST; d++) {
        int32_t nx = x + rs_dx[d], nz = z + rs_dz[d];
        uint16_t n = at(w, nx, y, nz);
        if (kind_of(n) == K_COMPARATOR) {
            comparator_check(w, nx, y, nz, n);
        } else if (rs_is_conductor(n)) {
            uint16_t m = at(w, nx + rs_dx[d], y, nz + rs_dz[d]);
            if (kind_of(m) == K_COMPARATOR) comparator_check(w, nx + rs_dx[d], y, nz + rs_dz[d], m);
        }
    }
}

/* ---- pressure plates ---- */

static int plate_signal(uint16_t st)
{
    int p = prop(st, "power");
    return p >= 0 ? p : flag(st, "powered") ? 15 : 0;
}

static bool is_weighted(uint16_t st)
{
    return block(st) == ID(LIGHT_WEIGHTED_PRESSURE_PLATE) ||
           block(st) == ID(HEAVY_WEIGHTED_PRESSURE_PLATE);
}

/* getSignalStrength: wooden plates any entity, stone ones living entities,
 * weighted ones by count (gold min(n, 15), iron ceil(min(n, 150) / 10)). */
static int plate_strength(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!w->entities_on) return 0;
    int b = block(st);
    bool living = b == ID(STONE_PRESSURE_PLATE) || b == ID(POLISHED_BLACKSTONE_PRESSURE_PLATE);
    int n = w->entities_on(w->ctx, x, y, z, living);
    if (b == ID(LIGHT_WEIGHTED_PRESSURE_PLATE)) return n < 15 ? n : 15;
    if (b == ID(HEAVY_WEIGHTED_PRESSURE_PLATE)) {
        int m = n < 150 ? n : 150;
        return (m + 9) / 10;
    }
    return n > 0 ? 15 : 0;
}

/* BasePressurePlateBlock.checkPressed. */
static void plate_check(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int now = plate_strength(w, x, y, z, st);
    if (now != plate_signal(st))
        w->set(w->ctx, x, y, z,
               is_weighted(st) ? block_state_with(st, "power", now)
                               : with_flag(st, "powered", now > 0));
    if (now > 0) w->schedule(w->ctx, x, y, z, (uint16_t)block(st), is_weighted(st) ? 10 : 20, 0);
}

void rs_entity_inside(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_plate(st) && plate_signal(st) == 0) plate_check(w, x, y, z, st);
}

/* ---- lamps, doors, note blocks ---- */

static void lamp_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    bool lit = flag(st, "lit");
    if (lit == rs_has_neighbor_signal(w, x, y, z)) return;
    if (lit)
        w->schedule(w->ctx, x, y, z, (uint16_t)block(st), RS_LAMP_OFF_DELAY, 0);
    else
        w->set(w->ctx, x, y, z, with_flag(st, "lit", true));
}

/* DoorBlock / TrapDoorBlock / FenceGateBlock.neighborChanged: open follows
 * the power (a door's two halves together). */
static void openable_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z,
                              uint16_t st)
{
    bool powered = rs_has_neighbor_signal(w, x, y, z);
    int32_t oy = y;
    if (is_door(st)) {
        oy = prop(st, "half") == 1 ? y + 1 : y - 1; /* half: upper, lower */
        powered = powered || rs_has_neighbor_signal(w, x, oy, z);
    }
    if (powered == flag(st, "powered")) return;
    uint16_t now = with_flag(with_flag(st, "powered", powered), "open", powered);
    if (flag(st, "open") != powered)
        family_sound(w, x, y, z, st,
                     is_door(st)       ? "door"
                     : is_trapdoor(st) ? "trapdoor"
                                       : "fence_gate",
                     powered ? "open" : "close", false);
    w->set(w->ctx, x, y, z, now);
    if (is_door(st)) {
        uint16_t other = at(w, x, oy, z);
        if (block(other) == block(st))
            w->set(w->ctx, x, oy, z,
                   with_flag(with_flag(other, "powered", powered), "open", powered));
    }
}

static void note_play(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!is_air(at(w, x, y + 1, z))) return; /* NoteBlock.playNote: air above */
    if (w->block_event) w->block_event(w->ctx, x, y, z, 0, 0, (uint16_t)block(st));
}

static bool name_has(const char *n, const char *const *words)
{
    for (; *words; words++)
        if (strstr(n, *words)) return true;
    return false;
}

/* NoteBlock.setInstrument: a mob head above, else the instrument of the
 * block below (BlockBehaviour.Properties.instrument, by name and tool
 * from the tables: stone-like pickaxe blocks the bass drum, wood the
 * bass, and vanilla's named ones), harp for the rest. */
const char *rs_note_instrument(uint16_t above, uint16_t below)
{
    static const char *const heads[][2] = {{"zombie_head", "zombie"},
                                           {"zombie_wall_head", "zombie"},
                                           {"skeleton_skull", "skeleton"},
                                           {"skeleton_wall_skull", "skeleton"},
                                           {"creeper_head", "creeper"},
                                           {"creeper_wall_head", "creeper"},
                                           {"dragon_head", "dragon"},
                                           {"dragon_wall_head", "dragon"},
                                           {"piglin_head", "piglin"},
                                           {"piglin_wall_head", "piglin"},
                                           {"player_head", "custom_head"},
                                           {"player_wall_head", "custom_head"},
                                           {"wither_skeleton_skull", "wither_skeleton"},
                                           {"wither_skeleton_wall_skull", "wither_skeleton"}};
    int a = block(above), b = block(below);
    if (a >= 0)
        for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
            if (strcmp(block_info[a].name, heads[i][0]) == 0) return heads[i][1];
    if (b < 0) return "harp";
    static const char *const named[][2] = {{"clay", "flute"},
                                           {"gold_block", "bell"},
                                           {"packed_ice", "chime"},
                                           {"bone_block", "xylophone"},
                                           {"iron_block", "iron_xylophone"},
                                           {"soul_sand", "cow_bell"},
                                           {"pumpkin", "didgeridoo"},
                                           {"carved_pumpkin", "didgeridoo"},
                                           {"jack_o_lantern", "didgeridoo"},
                                           {"emerald_block", "bit"},
                                           {"hay_block", "banjo"},
                                           {"glowstone", "pling"},
                                           {"sand", "snare"},
                                           {"red_sand", "snare"},
                                           {"gravel", "snare"},
                                           {"suspicious_sand", "snare"},
                                           {"suspicious_gravel", "snare"},
                                           {"glass", "hat"},
                                           {"tinted_glass", "hat"},
                                           {"sea_lantern", "hat"},
                                           {"beacon", "hat"}};
    const char *n = block_info[b].name;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(n, named[i][0]) == 0) return named[i][1];
    if (block_name_ends(b, "_wool")) return "guitar";
    if (block_name_ends(b, "_concrete_powder")) return "snare";
    if (block_name_ends(b, "_stained_glass")) return "hat";
    const char *m = material_names[block_info[b].material];
    static const char *const stony[] = {
        "stone",    "cobble",     "deepslate", "_ore",        "brick",      "terracotta",
        "concrete", "netherrack", "basalt",    "obsidian",    "prismarine", "purpur",
        "quartz",   "bedrock",    "tuff",      "calcite",     "dripstone",  "nylium",
        "andesite", "diorite",    "granite",   "coral_block", NULL};
    if (strstr(m, "mineable/pickaxe") && full_cube(below) && name_has(n, stony)) return "basedrum";
    if (strstr(m, "mineable/axe") && full_cube(below)) return "bass";
    return "harp";
}

static void note_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    const char *inst = rs_note_instrument(at(w, x, y + 1, z), at(w, x, y - 1, z));
    uint16_t now =
        block_state_with(st, "instrument", block_state_value_index(st, "instrument", inst));
    bool powered = rs_has_neighbor_signal(w, x, y, z);
    if (powered != flag(st, "powered")) {
        if (powered) note_play(w, x, y, z, now);
        now = with_flag(now, "powered", powered);
    }
    if (now != st) w->set(w->ctx, x, y, z, now);
}

/* ---- pistons ---- */

bool rs_piston_powered(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int facing)
{
    for (int d = 0; d < 6; d++)
        if (d != facing && rs_signal(w, x + rs_dx[d], y + rs_dy[d], z + rs_dz[d], d, true) > 0)
            return true;
    if (rs_signal(w, x, y, z, RS_DOWN, true) > 0) return true;
    for (int d = 0; d < 6; d++) /* quasi-connectivity: as if one block up */
        if (d != RS_DOWN && rs_signal(w, x + rs_dx[d], y + 1 + rs_dy[d], z + rs_dz[d], d, true) > 0)
            return true;
    return false;
}

int rs_piston_resolve(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int dir,
                      int32_t push[][3], int *destroy, int32_t destroy_at[3])
{
    int n = 0;
    *destroy = 0;
    int32_t px = x + rs_dx[dir], py = y + rs_dy[dir], pz = z + rs_dz[dir];
    for (;;) {
        uint16_t st;
        if (!get(w, px, py, pz, &st)) return -1; /* the world's edge, or not loaded */
        if (is_air(st)) return n;
        enum rs_push r = rs_push_reaction(st);
        if (r == RS_PUSH_BLOCK) return -1;
        if (r == RS_PUSH_DESTROY) {
            *destroy = 1;
            destroy_at[0] = px, destroy_at[1] = py, destroy_at[2] = pz;
            return n;
        }
        if (n == RS_PUSH_LIMIT) return -1;
        push[n][0] = px, push[n][1] = py, push[n][2] = pz;
        n++;
        px += rs_dx[dir], py += rs_dy[dir], pz += rs_dz[dir];
    }
}

static bool is_fluid(uint16_t st)
{
    return block(st) == ID(WATER) || block(st) == ID(LAVA);
}

static void piston_extend(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st,
                          int f)
{
    int32_t push[RS_PUSH_LIMIT][3], dpos[3];
    int destroy;
    int n = rs_piston_resolve(w, x, y, z, f, push, &destroy, dpos);
    if (n < 0) return;
    bool sticky = block(st) == ID(STICKY_PISTON);
    if (w->block_event) w->block_event(w->ctx, x, y, z, 0, f, (uint16_t)block(st));
    if (destroy) {
        uint16_t gone = at(w, dpos[0], dpos[1], dpos[2]);
        if (w->dropped && !is_fluid(gone)) w->dropped(w->ctx, dpos[0], dpos[1], dpos[2], gone);
        w->set(w->ctx, dpos[0], dpos[1], dpos[2], BLOCK_AIR);
    }
    uint16_t moved[RS_PUSH_LIMIT];
    for (int i = 0; i < n; i++) moved[i] = at(w, push[i][0], push[i][1], push[i][2]);
    for (int i = n; i-- > 0;)
        w->set(w->ctx, push[i][0] + rs_dx[f], push[i][1] + rs_dy[f], push[i][2] + rs_dz[f],
               moved[i]);
    w->set(w->ctx, x, y, z, with_flag(st, "extended", true));
    uint16_t head = with_dir(BLOCK_PISTON_HEAD, "facing", f);
    head = block_state_with(head, "type", sticky ? 1 : 0); /* type: normal, sticky */
    head = with_flag(head, "short", false);
    w->set(w->ctx, x + rs_dx[f], y + rs_dy[f], z + rs_dz[f], head);
}

static void piston_retract(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st,
                           int f)
{
    bool sticky = block(st) == ID(STICKY_PISTON);
    int32_t hx = x + rs_dx[f], hy = y + rs_dy[f], hz = z + rs_dz[f];
    int32_t tx = hx + rs_dx[f], ty = hy + rs_dy[f], tz = hz + rs_dz[f];
    uint16_t pulled = BLOCK_AIR;
    if (sticky) {
        uint16_t t;
        if (get(w, tx, ty, tz, &t) && !is_air(t) && rs_push_reaction(t) == RS_PUSH_NORMAL)
            pulled = t;
    }
    if (w->block_event) w->block_event(w->ctx, x, y, z, 1, f, (uint16_t)block(st));
    w->set(w->ctx, x, y, z, with_flag(st, "extended", false));
    uint16_t head = at(w, hx, hy, hz);
    if (block(head) == ID(PISTON_HEAD) && dir_prop(head, "facing") == f)
        w->set(w->ctx, hx, hy, hz, BLOCK_AIR);
    if (pulled != BLOCK_AIR && is_air(at(w, hx, hy, hz))) {
        w->set(w->ctx, tx, ty, tz, BLOCK_AIR);
        w->set(w->ctx, hx, hy, hz, pulled);
    }
}

static void piston_check(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    int f = dir_prop(st, "facing");
    if (f < 0) return;
    bool powered = rs_piston_powered(w, x, y, z, f), extended = flag(st, "extended");
    if (powered && !extended)
        piston_extend(w, x, y, z, st, f);
    else if (!powered && extended)
        piston_retract(w, x, y, z, st, f);
}

/* An extended piston whose head is gone retracts (PistonHeadBlock / base onRemove). */
static void head_removed(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t head)
{
    int f = dir_prop(head, "facing");
    if (f < 0) return;
    int o = rs_opposite(f);
    int32_t bx = x + rs_dx[o], by = y + rs_dy[o], bz = z + rs_dz[o];
    uint16_t base = at(w, bx, by, bz);
    if (is_piston(base) && flag(base, "extended") && dir_prop(base, "facing") == f)
        w->set(w->ctx, bx, by, bz, BLOCK_AIR);
}

/* ---- events ---- */

static bool wire_shape_differs(uint16_t a, uint16_t b)
{
    for (int d = RS_NORTH; d <= RS_EAST; d++)
        if (rs_wire_side(a, d) != rs_wire_side(b, d)) return true;
    return false;
}

/* The updates a component sends when it appears, goes or changes (old
 * and now may be the same block). */
static void change_updates(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st,
                           bool power_changed)
{
    if (rs_is_wire(st)) {
        if (power_changed) wire_power_updates(w, x, y, z);
    } else if (is_lever(st) || is_button(st)) {
        attached_updates(w, x, y, z, st);
    } else if (is_floor_torch(st) || is_wall_torch(st)) {
        around_updates(w, x, y, z);
    } else if (is_diode(st)) {
        front_updates(w, x, y, z, st);
    } else if (is_plate(st)) { /* BasePressurePlateBlock.updateNeighbours */
        w->notify(w->ctx, x, y, z);
        w->notify(w->ctx, x, y - 1, z);
    }
}

void rs_placed(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t old,
               uint16_t now)
{
    bool same = block(old) == block(now) && !is_air(now);
    if (rs_is_wire(now) || rs_is_wire(old)) {
        if (!same || wire_shape_differs(old, now)) { /* shapes of the dust above and below */
            w->notify(w->ctx, x, y + 1, z);
            w->notify(w->ctx, x, y - 1, z);
        }
        if (rs_is_wire(old) && !same) wire_power_updates(w, x, y, z);
        if (rs_is_wire(now) && !same) { /* onPlace: its shape, then its network's power */
            uint16_t shaped = rs_wire_shape(w, x, y, z, now);
            if (shaped != now) w->set(w->ctx, x, y, z, shaped);
            uint16_t cur = at(w, x, y, z);
            if (rs_is_wire(cur) && rs_wire_target(w, x, y, z) != rs_wire_power(cur))
                rs_wire_solve(w, x, y, z);
        } else if (rs_is_wire(now) && rs_wire_power(old) != rs_wire_power(now)) {
            /* a solve set it: only the blocks it powers hear (no solve from here,
             * so a network's sets never nest) */
            wire_power_updates(w, x, y, z);
        }
        return;
    }
    if (!same && old != BLOCK_AIR && rs_is_component(old)) change_updates(w, x, y, z, old, true);
    if (!same && kind_of(old) == K_COMPARATOR && w->set_comparator_output)
        w->set_comparator_output(w->ctx, x, y, z, -1); /* its block entity goes */
    if (block(old) == ID(PISTON_HEAD) && !same) head_removed(w, x, y, z, old);
    if (is_piston(old) && !same && flag(old, "extended")) {
        int f = dir_prop(old, "facing");
        int32_t hx = x + rs_dx[f], hy = y + rs_dy[f], hz = z + rs_dz[f];
        uint16_t head = at(w, hx, hy, hz);
        if (block(head) == ID(PISTON_HEAD) && dir_prop(head, "facing") == f)
            w->set(w->ctx, hx, hy, hz, BLOCK_AIR);
    }
    if (!rs_is_component(now)) return;
    change_updates(w, x, y, z, now, true);
    if (same) return;
    /* just placed: take the input as it is (getStateForPlacement / setPlacedBy) */
    if (is_diode(now) || is_lamp(now) || is_piston(now) || is_note_block(now))
        rs_neighbor(w, x, y, z, now);
    else if (is_floor_torch(now) || is_wall_torch(now)) {
        if (flag(now, "lit") == torch_input(w, x, y, z, now))
            w->schedule(w->ctx, x, y, z, (uint16_t)block(now), 2, 0);
    }
}

void rs_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (rs_is_wire(st)) {
        wire_neighbor(w, x, y, z, st);
    } else if (is_plate(st)) {
        if (!full_cube(support_at(w, x, y - 1, z))) {
            if (w->dropped) w->dropped(w->ctx, x, y, z, st);
            w->set(w->ctx, x, y, z, BLOCK_AIR);
        }
    } else if (is_lever(st) || is_button(st)) {
        if (!attached_survives(w, x, y, z, st)) {
            if (w->dropped) w->dropped(w->ctx, x, y, z, st);
            w->set(w->ctx, x, y, z, BLOCK_AIR);
        }
    } else if (is_floor_torch(st) || is_wall_torch(st)) {
        if (!torch_survives(w, x, y, z, st)) {
            if (w->dropped) w->dropped(w->ctx, x, y, z, st);
            w->set(w->ctx, x, y, z, BLOCK_AIR);
            return;
        }
        if (flag(st, "lit") == torch_input(w, x, y, z, st) &&
            !w->pending(w->ctx, x, y, z, (uint16_t)block(st)))
            w->schedule(w->ctx, x, y, z, (uint16_t)block(st), 2, 0);
    } else if (is_diode(st)) {
        repeater_neighbor(w, x, y, z, st);
    } else if (is_lamp(st)) {
        lamp_neighbor(w, x, y, z, st);
    } else if (is_piston(st)) {
        piston_check(w, x, y, z, st);
    } else if (is_door(st) || is_trapdoor(st) || is_gate(st)) {
        openable_neighbor(w, x, y, z, st);
    } else if (is_note_block(st)) {
        note_neighbor(w, x, y, z, st);
    }
}

void rs_tick(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t blk)
{
    uint16_t st;
    if (!get(w, x, y, z, &st) || block(st) != blk) return;
    if (is_repeater(st)) {
        repeater_tick(w, x, y, z, st);
    } else if (kind_of(st) == K_COMPARATOR) {
        comparator_refresh(w, x, y, z, st);
    } else if (is_lamp(st)) {
        if (flag(st, "lit") && !rs_has_neighbor_signal(w, x, y, z))
            w->set(w->ctx, x, y, z, with_flag(st, "lit", false));
    } else if (is_floor_torch(st) || is_wall_torch(st)) {
        torch_tick(w, x, y, z, st);
    } else if (is_button(st)) {
        if (flag(st, "powered")) {
            w->set(w->ctx, x, y, z, with_flag(st, "powered", false));
            family_sound(w, x, y, z, st, "button", "click_off", false);
        }
    } else if (is_plate(st)) {
        if (plate_signal(st) > 0) plate_check(w, x, y, z, st);
    }
}

bool rs_use(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_lever(st)) {
        bool on = !flag(st, "powered");
        w->set(w->ctx, x, y, z, with_flag(st, "powered", on));
        sound(w, x, y, z, "block.lever.click", 0.3f, on ? 0.6f : 0.5f);
        return true;
    }
    if (is_button(st)) {
        if (flag(st, "powered")) return true;
        w->set(w->ctx, x, y, z, with_flag(st, "powered", true));
        w->schedule(w->ctx, x, y, z, (uint16_t)block(st), button_ticks(st), 0);
        family_sound(w, x, y, z, st, "button", "click_on", false);
        return true;
    }
    if (is_repeater(st)) {
        w->set(w->ctx, x, y, z, block_state_with(st, "delay", (prop(st, "delay") + 1) % 4));
        return true;
    }
    if (kind_of(st) == K_COMPARATOR) {
        st = block_state_with(st, "mode", subtracts(st) ? 0 : 1);
        w->set(w->ctx, x, y, z, st);
        sound(w, x, y, z, "block.comparator.click", 0.3f, subtracts(st) ? 0.55f : 0.5f);
        comparator_refresh(w, x, y, z, st);
        return true;
    }
    if (is_note_block(st)) {
        st = block_state_with(st, "note", (prop(st, "note") + 1) % 25);
        w->set(w->ctx, x, y, z, st);
        note_play(w, x, y, z, st);
        return true;
    }
    if (rs_is_wire(st)) { /* a lone dot and cross swap (RedStoneWireBlock.use) */
        bool cross = true;
        for (int d = RS_NORTH; d <= RS_EAST; d++) cross = cross && rs_wire_side(st, d) == 1;
        if (!cross && !is_dot(st)) return false;
        uint16_t flipped = st;
        for (int d = RS_NORTH; d <= RS_EAST; d++) flipped = with_side(flipped, d, cross ? 0 : 1);
        flipped = rs_wire_shape(w, x, y, z, flipped);
        if (flipped == st) return false;
        w->set(w->ctx, x, y, z, flipped);
        return true;
    }
    return false;
}

uint16_t rs_place_state(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t st,
                        int face, int hdir, int look)
{
    if (rs_is_wire(st)) {
        if (!wire_survives_on(at(w, x, y - 1, z))) return 0;
        uint16_t cross = st;
        for (int d = RS_NORTH; d <= RS_EAST; d++) cross = with_side(cross, d, 1);
        return rs_wire_shape(w, x, y, z, cross);
    }
    if (is_lever(st) || is_button(st)) {
        const char *faces[3] = {"floor", "wall", "ceiling"};
        int fi = face == RS_UP ? 0 : face == RS_DOWN ? 2 : 1;
        st = block_state_with(st, "face", block_state_value_index(st, "face", faces[fi]));
        st = with_dir(st, "facing", fi == 1 ? face : hdir);
        st = with_flag(st, "powered", false);
        return attached_survives(w, x, y, z, st) ? st : 0;
    }
    if (is_floor_torch(st)) {
        if (face >= RS_NORTH) {
            uint16_t wall = with_dir(BLOCK_REDSTONE_WALL_TORCH, "facing", face);
            if (torch_survives(w, x, y, z, wall)) return wall;
        }
        return torch_survives(w, x, y, z, st) ? st : 0;
    }
    if (is_repeater(st)) {
        if (!wire_survives_on(at(w, x, y - 1, z))) return 0;
        st = with_dir(st, "facing", rs_opposite(hdir));
        return with_flag(st, "locked", rs_repeater_locked(w, x, y, z, st));
    }
    if (kind_of(st) == K_COMPARATOR) {
        if (!wire_survives_on(at(w, x, y - 1, z))) return 0;
        return with_dir(st, "facing", rs_opposite(hdir));
    }
    if (is_piston(st)) return with_dir(st, "facing", rs_opposite(look));
    if (is_plate(st)) return full_cube(at(w, x, y - 1, z)) ? st : 0;
    return st;
}
