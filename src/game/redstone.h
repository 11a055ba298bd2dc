/*
 * redstone.h — redstone, as vanilla 1.20.1 (issue 21): the signal rules of
 * Level.getSignal / getDirectSignal / hasNeighborSignal /
 * getBestNeighborSignal (strong and weak power through conductors) and the
 * components that give or take it — redstone dust (RedStoneWireBlock),
 * levers, buttons, pressure plates, redstone torches with burnout, repeaters with locking,
 * comparators (compare / subtract, reading containers, cakes, cauldrons,
 * composters and end portal frames),
 * redstone lamps, pistons and sticky pistons (PistonBaseBlock and a
 * straight-line PistonStructureResolver), doors, trapdoors, fence gates and
 * note blocks. The rules are pure: they read and change blocks through a
 * struct rs_world, so they run the same on game.world
 * (game/redstone_world.c) and on an in-memory grid
 * (tests/unit/test_redstone.c).
 *
 * Signals. A block at p emits toward the receiver on its side d (d points
 * from the receiver to p) a weak signal (getSignal) and a strong one
 * (getDirectSignal). A conductor (a full opaque cube that is not a signal
 * source: stone, not glass, slabs or redstone blocks) emits as weak signal
 * the best strong signal that reaches it. Dust, reading its own input,
 * ignores the dust around it (vanilla's shouldSignal = false), so a block
 * powered by dust powers lamps and repeaters but not other dust.
 *
 * Dust. Power is the best of the non-dust signals around it and of the
 * dust it reads minus 1: the dust beside it, the dust one up diagonally
 * when the block beside is a conductor and the block above this dust is
 * not, and one down diagonally when the block beside is not a conductor
 * (calculateTargetStrength). When a dust's power is not what its
 * neighbours say, the whole connected network (up to RS_NET_MAX dust; past
 * that the farther dust keeps its power as a source) is solved at once
 * from its sources, like the Alternate Current / Eigencraft rewrites of
 * vanilla's wire: each dust is set once to its final power, instead of
 * vanilla's depth-first chain of updates that turns each dust off and on
 * again. Shapes follow getConnectionState: north/east/south/west none,
 * side or up; a dust connecting on one axis only extends across to the
 * other side; an unconnected dust is a cross (placed) or a dot
 * (right-click toggles them).
 *
 * Update order (deterministic): neighbour updates are FIFO in the order
 * west, east, down, up, north, south (world/block_sim.c, as vanilla's
 * updateNeighborsAt); scheduled ticks drain by trigger tick, priority and
 * insertion order (vanilla's). A solved network sets its dust in
 * breadth-first order from the dust that started the solve, each followed
 * by updates around the conductors beside it.
 *
 * Departures (documented in docs/design.md): pistons move their blocks at
 * once, not over vanilla's 2-tick moving_piston (clients get the Block
 * Action and animate); the push resolver is a straight line (no slime or
 * honey); the push reaction is vanilla's list for the blocks that matter
 * (obsidian, bedrock, block entities, extended pistons ... immovable;
 * blocks without a collision box, doors and beds destroyed) and "normal"
 * for the rest; conductors are full opaque cubes by the tables.
 *
 * Invariants:
 *  1. Pure: no globals but a read-only cache of which block is which,
 *     filled from the generated tables on first use; every block read and change goes through the
 *     struct rs_world passed in; memory a call allocates is freed before it
 *     returns and bounded by RS_NET_MAX.
 *  2. A change the rules make reaches the rules again only through the
 *     world (its hooks call rs_placed / rs_neighbor), except a diode's
 *     update of the block in front (vanilla's direct neighborChanged);
 *     each rule only sets a block to a state different from the one there.
 */
#ifndef MC_REDSTONE_H
#define MC_REDSTONE_H

#include <stdbool.h>
#include <stdint.h>

#define RS_NET_MAX        4096 /* dust solved together */
#define RS_PUSH_LIMIT     12   /* vanilla PistonStructureResolver.MAX_PUSH_DEPTH */
#define RS_TORCH_LOG_MAX  1024 /* torch toggles remembered (each lives 60 ticks) */
#define RS_TORCH_WINDOW   60   /* RedstoneTorchBlock.RECENT_TOGGLE_TIMER */
#define RS_TORCH_TOGGLES  8    /* MAX_RECENT_TOGGLES */
#define RS_TORCH_COOLDOWN 160  /* a burnt-out torch's next tick */
#define RS_LAMP_OFF_DELAY 4    /* RedstoneLampBlock: unlit 4 ticks after the power goes */

/* Directions as vanilla's 3D data values (and the protocol's block faces). */
enum rs_dir { RS_DOWN, RS_UP, RS_NORTH, RS_SOUTH, RS_WEST, RS_EAST };

extern const int8_t rs_dx[6], rs_dy[6], rs_dz[6];
int rs_opposite(int dir);

/* vanilla PushReaction. */
enum rs_push { RS_PUSH_NORMAL, RS_PUSH_DESTROY, RS_PUSH_BLOCK, RS_PUSH_ONLY };

/* Recent torch toggles (RedstoneTorchBlock.RECENT_TOGGLES): a ring, the
 * oldest dropped when full; owned by the world's caller. */
struct rs_torch_log {
    struct rs_toggle {
        int32_t x, y, z;
        int64_t when;
    } e[RS_TORCH_LOG_MAX];
    uint32_t head, len;
};

struct rs_world {
    void *ctx;
    /* Block at a position; false when it is not loaded (or outside the world). */
    bool (*get)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *state);
    /* Changes a block; the world then calls rs_placed for it and queues
     * neighbour updates for its six neighbours. */
    void (*set)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t state);
    /* vanilla updateNeighborsAt: a neighbour update for each of the six
     * neighbours of (x, y, z). */
    void (*notify)(void *ctx, int32_t x, int32_t y, int32_t z);
    /* A block tick of `block` (a block id) delay ticks from now, priority
     * -3 (extremely high) .. 3; pending: such a tick is queued there. */
    void (*schedule)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t block, int delay,
                     int prio);
    bool (*pending)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t block);
    /* A block broken by the rules (no support, a piston's push): its drops. May be NULL. */
    void (*dropped)(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t state);
    /* Block Action (vanilla blockEvent) for viewers; may be NULL. */
    void (*block_event)(void *ctx, int32_t x, int32_t y, int32_t z, int action, int param,
                        uint16_t block);
    /* Level event (1502: a torch burns out); may be NULL. */
    void (*level_event)(void *ctx, int32_t x, int32_t y, int32_t z, int event);
    int64_t (*now)(void *ctx); /* game time */
    /* A comparator's output signal (vanilla keeps it in its block entity):
     * get (0 when none is kept), set (v < 0: forget it). May be NULL. */
    int (*comparator_output)(void *ctx, int32_t x, int32_t y, int32_t z);
    void (*set_comparator_output)(void *ctx, int32_t x, int32_t y, int32_t z, int v);
    /* A container's comparator signal (rs_container_signal of its slots), or
     * -1 when the block holds none. May be NULL. */
    int (*container_signal)(void *ctx, int32_t x, int32_t y, int32_t z);
    /* Entities touching the pressure plate at (x, y, z) (living: players
     * and mobs only). May be NULL: none. */
    int (*entities_on)(void *ctx, int32_t x, int32_t y, int32_t z, bool living);
    /* A block sound (vanilla playSound, SoundSource.BLOCKS) at the block's
     * centre, by its sound event name; may be NULL. */
    void (*sound)(void *ctx, int32_t x, int32_t y, int32_t z, const char *name, float volume,
                  float pitch);
    struct rs_torch_log *torches;
};

/* ---- what a block is ---- */

/* True for the blocks whose neighbour updates, placement or ticks the
 * redstone rules answer. */
bool rs_is_component(uint16_t state);
/* True when a change from old to now is the rules' business (rs_placed). */
bool rs_placed_matters(uint16_t old, uint16_t now);
bool rs_is_conductor(uint16_t state);
bool rs_is_wire(uint16_t state);
enum rs_push rs_push_reaction(uint16_t state);

/* ---- signals ---- */

/* Weak / strong signal state at (x, y, z) emits toward the receiver whose
 * direction to it is dir; wires: whether dust counts. */
int rs_emitted(const struct rs_world *w, uint16_t state, int32_t x, int32_t y, int32_t z, int dir,
               bool wires);
int rs_emitted_strong(const struct rs_world *w, uint16_t state, int32_t x, int32_t y, int32_t z,
                      int dir, bool wires);
/* Level.getSignal(pos, dir): the block's weak signal, or for a conductor
 * the best strong signal into it. */
int rs_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int dir, bool wires);
/* Level.getBestNeighborSignal / hasNeighborSignal. */
int rs_best_neighbor_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z, bool wires);
bool rs_has_neighbor_signal(const struct rs_world *w, int32_t x, int32_t y, int32_t z);

/* ---- dust ---- */

int rs_wire_power(uint16_t state);
/* Side dir (RS_NORTH..RS_EAST) of a dust state: 0 none, 1 side, 2 up. */
int rs_wire_side(uint16_t state, int dir);
/* The dust state at (x, y, z) with the shape its neighbours give it (getConnectionState). */
uint16_t rs_wire_shape(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
/* The power the dust at (x, y, z) should have from its neighbours. */
int rs_wire_target(const struct rs_world *w, int32_t x, int32_t y, int32_t z);
/* Solves the dust network through (x, y, z) and sets the dust whose power
 * changes; returns how many it set, or -1 when out of memory. */
int rs_wire_solve(const struct rs_world *w, int32_t x, int32_t y, int32_t z);

/* ---- repeaters ---- */

/* Locked by a powered repeater (or comparator) at either side. */
bool rs_repeater_locked(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
/* Its delay in game ticks (2, 4, 6, 8). */
int rs_repeater_delay(uint16_t state);

/* ---- comparators ---- */

/* AbstractContainerMenu.getRedstoneSignalFromContainer: floor(14 * the
 * mean slot fill) + 1 if any slot holds something (counts[i] over
 * min(64, max_stacks[i])). */
int rs_container_signal(const int *counts, const int *max_stacks, int slots);
/* ComparatorBlock.calculateOutputSignal: the rear input (or the analog
 * output behind it), less the side inputs in subtract mode, 0 when they
 * are stronger. */
int rs_comparator_output(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
/* Level.updateNeighbourForOutputSignal: the contents of the container at
 * (x, y, z) changed; comparators reading it re-check. */
void rs_analog_changed(const struct rs_world *w, int32_t x, int32_t y, int32_t z);

/* ---- pistons ---- */

/* PistonStructureResolver for a push in direction dir of the blocks in
 * front of (x, y, z): fills push[] (the blocks to move, nearest first, at
 * most RS_PUSH_LIMIT) and *destroy_at (1 when a DESTROY block ends the line
 * at *dx, *dy, *dz); returns how many to move, or -1 when the push fails
 * (more than RS_PUSH_LIMIT, an immovable block, the world's edge). */
int rs_piston_resolve(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int dir,
                      int32_t push[][3], int *destroy, int32_t destroy_at[3]);
/* The piston's input (getNeighborSignal, with quasi-connectivity: the
 * block above's neighbours power it too). */
bool rs_piston_powered(const struct rs_world *w, int32_t x, int32_t y, int32_t z, int facing);

/* ---- torches ---- */

/* Counts (and with add, records) the toggles at a position within the last
 * RS_TORCH_WINDOW ticks; true when they reach RS_TORCH_TOGGLES. */
bool rs_torch_toggled_too_often(struct rs_torch_log *log, int32_t x, int32_t y, int32_t z,
                                int64_t now, bool add);

/* ---- pressure plates ---- */

/* An entity is in the block at (x, y, z) (vanilla entityInside): an
 * unpressed plate there counts what stands on it and presses. */
void rs_entity_inside(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state);

/* ---- note blocks ---- */

/* The instrument (the note block's `instrument` value) for the blocks
 * above and below it. */
const char *rs_note_instrument(uint16_t above, uint16_t below);

/* ---- events (the world's hooks) ---- */

/* The block at (x, y, z) changed from old to now (vanilla onPlace / onRemove). */
void rs_placed(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t old,
               uint16_t now);
/* A neighbour of the component at (x, y, z) changed (neighborChanged / updateShape). */
void rs_neighbor(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
/* A scheduled tick of block `block` at (x, y, z). */
void rs_tick(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t block);
/* Right-click on the component at (x, y, z): true when it used the click
 * (lever, button, repeater delay, note, dust dot/cross). */
bool rs_use(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state);
/* The state to place for a component's default state at (x, y, z),
 * clicked on face (enum rs_dir) by a player facing horizontal direction
 * hdir and looking nearest along look (enum rs_dir); the state unchanged
 * for other blocks; 0 when it cannot stand there. */
uint16_t rs_place_state(const struct rs_world *w, int32_t x, int32_t y, int32_t z, uint16_t state,
                        int face, int hdir, int look);

#endif
