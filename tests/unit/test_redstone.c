/*
 * test_redstone.c — game/redstone.c's rules on an in-memory grid (48 x 16 x
 * 16 over a stone floor at y = 0) with its own neighbour-update queue (FIFO,
 * six updates a change, as world/block_sim.c) and tick queue (trigger,
 * priority, insertion order, one per position and block): signal levels
 * along dust, dust shapes, levers, lamps, repeaters (delay, locking),
 * pistons (push limit, immovables, sticky pull), torches (inversion,
 * burnout) and a clock that stays bounded.
 */
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/redstone.h"
#include "test.h"
#include "world/block_state.h"

#define GX 48
#define GY 16
#define GZ 16

struct rtick {
    int64_t at;
    int prio;
    uint64_t seq;
    int32_t x, y, z;
    uint16_t block;
};

struct nupd {
    int32_t x, y, z;
};

static struct grid {
    uint16_t b[GX][GY][GZ];
    struct rtick q[4096];
    size_t nq;
    struct nupd n[1 << 16];
    size_t nhead, nlen;
    bool draining;
    int64_t now;
    uint64_t seq;
    uint64_t updates, sets, events, dropped_updates;
    struct rs_torch_log torches;
    int cmp_out[GX][GY][GZ]; /* comparator outputs */
    int container[3];        /* a fake container's position and */
    int container_level;     /* its signal */
    int plate[3], on_plate;  /* entities standing on the plate at plate[] */
    char sound[96];          /* the last sound played */
} * g;

static bool in(int32_t x, int32_t y, int32_t z)
{
    return x >= 0 && x < GX && y >= 0 && y < GY && z >= 0 && z < GZ;
}

static bool get(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t *st)
{
    (void)ctx;
    if (!in(x, y, z)) return false;
    *st = g->b[x][y][z];
    return true;
}

static const struct rs_world *W(void);

static void push_updates(int32_t x, int32_t y, int32_t z)
{
    static const int d[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
    const size_t cap = sizeof g->n / sizeof g->n[0];
    for (int k = 0; k < 6; k++) {
        if (g->nlen == cap) {
            g->dropped_updates++;
            continue;
        }
        g->n[(g->nhead + g->nlen++) % cap] = (struct nupd){x + d[k][0], y + d[k][1], z + d[k][2]};
    }
}

static void drain(void)
{
    if (g->draining) return;
    g->draining = true;
    const size_t cap = sizeof g->n / sizeof g->n[0];
    while (g->nlen) {
        struct nupd u = g->n[g->nhead];
        g->nhead = (g->nhead + 1) % cap;
        g->nlen--;
        g->updates++;
        uint16_t st;
        if (get(NULL, u.x, u.y, u.z, &st) && rs_is_component(st))
            rs_neighbor(W(), u.x, u.y, u.z, st);
    }
    g->draining = false;
}

/* The world's path for a change: the placed hook, then six neighbour updates. */
static void set(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    (void)ctx;
    if (!in(x, y, z) || g->b[x][y][z] == st) return;
    uint16_t old = g->b[x][y][z];
    g->b[x][y][z] = st;
    g->sets++;
    if (rs_placed_matters(old, st)) rs_placed(W(), x, y, z, old, st);
    push_updates(x, y, z);
    drain();
}

static void notify(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    push_updates(x, y, z);
    drain();
}

static bool pending(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t block)
{
    (void)ctx;
    for (size_t i = 0; i < g->nq; i++)
        if (g->q[i].x == x && g->q[i].y == y && g->q[i].z == z && g->q[i].block == block)
            return true;
    return false;
}

static void schedule(void *ctx, int32_t x, int32_t y, int32_t z, uint16_t block, int delay,
                     int prio)
{
    if (pending(ctx, x, y, z, block) || g->nq == sizeof g->q / sizeof g->q[0]) return;
    g->q[g->nq++] = (struct rtick){g->now + delay, prio, g->seq++, x, y, z, block};
}

static void block_event(void *ctx, int32_t x, int32_t y, int32_t z, int action, int param,
                        uint16_t block)
{
    (void)ctx, (void)x, (void)y, (void)z, (void)action, (void)param, (void)block;
    g->events++;
}

static int64_t now(void *ctx)
{
    (void)ctx;
    return g->now;
}

static int cmp_get(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    return in(x, y, z) ? g->cmp_out[x][y][z] : 0;
}

static void cmp_set(void *ctx, int32_t x, int32_t y, int32_t z, int v)
{
    (void)ctx;
    if (in(x, y, z)) g->cmp_out[x][y][z] = v < 0 ? 0 : v;
}

static int container_signal(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    if (x == g->container[0] && y == g->container[1] && z == g->container[2] &&
        g->b[x][y][z] == BLOCK_CHEST)
        return g->container_level;
    return -1;
}

static int entities_on(void *ctx, int32_t x, int32_t y, int32_t z, bool living)
{
    (void)ctx, (void)living;
    return x == g->plate[0] && y == g->plate[1] && z == g->plate[2] ? g->on_plate : 0;
}

static void play_sound(void *ctx, int32_t x, int32_t y, int32_t z, const char *name, float volume,
                       float pitch)
{
    (void)ctx, (void)x, (void)y, (void)z, (void)volume, (void)pitch;
    snprintf(g->sound, sizeof g->sound, "%s", name);
}

static const struct rs_world *W(void)
{
    static struct rs_world w = {.sound = play_sound,
                                .entities_on = entities_on,
                                .comparator_output = cmp_get,
                                .set_comparator_output = cmp_set,
                                .container_signal = container_signal,
                                .get = get,
                                .set = set,
                                .notify = notify,
                                .schedule = schedule,
                                .pending = pending,
                                .block_event = block_event,
                                .now = now};
    w.torches = &g->torches;
    return &w;
}

static int tick_cmp(const struct rtick *a, const struct rtick *b)
{
    if (a->at != b->at) return a->at < b->at ? -1 : 1;
    if (a->prio != b->prio) return a->prio < b->prio ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* One game tick: the due ticks in drain order. Returns how many ran. */
static int step(void)
{
    g->now++;
    int ran = 0;
    for (;;) {
        size_t best = g->nq;
        for (size_t i = 0; i < g->nq; i++)
            if (g->q[i].at <= g->now && (best == g->nq || tick_cmp(&g->q[i], &g->q[best]) < 0))
                best = i;
        if (best == g->nq) break;
        struct rtick t = g->q[best];
        g->q[best] = g->q[--g->nq];
        rs_tick(W(), t.x, t.y, t.z, t.block);
        ran++;
    }
    return ran;
}

static void steps(int n)
{
    for (int i = 0; i < n; i++) step();
}

static void reset(void)
{
    if (!g) g = calloc(1, sizeof *g);
    memset(g, 0, sizeof *g);
    for (int x = 0; x < GX; x++)
        for (int z = 0; z < GZ; z++) g->b[x][0][z] = BLOCK_STONE;
}

static uint16_t at(int x, int y, int z)
{
    return g->b[x][y][z];
}

static bool is(uint16_t st, uint16_t default_state)
{
    return block_of_state[st] == block_of_state[default_state];
}

static bool bprop(uint16_t st, const char *name)
{
    return block_state_prop(st, name, NULL) == 0; /* "true" is index 0 */
}

static uint16_t place(int x, int y, int z, uint16_t st, int face, int hdir)
{
    uint16_t s = rs_place_state(W(), x, y, z, st, face, hdir, RS_DOWN);
    if (s) set(NULL, x, y, z, s);
    return s;
}

static int side(int x, int y, int z, int dir)
{
    return rs_wire_side(at(x, y, z), dir);
}

TEST(redstone_lever_dust_repeater_lamp)
{
    reset();
    /* lever on the floor at x=1, dust x=2..16, repeater at 17 facing west
     * (input east? no: input from x=16, output to x=18), lamp at 18 */
    CHECK(place(1, 1, 8, BLOCK_LEVER, RS_UP, RS_EAST) != 0);
    for (int x = 2; x <= 16; x++) CHECK(place(x, 1, 8, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST) != 0);
    /* player looking east places a repeater facing west: input from the west */
    CHECK(place(17, 1, 8, BLOCK_REPEATER, RS_UP, RS_EAST) != 0);
    CHECK(block_state_prop(at(17, 1, 8), "facing", NULL) == 2); /* north, south, west, east */
    CHECK(place(18, 1, 8, BLOCK_REDSTONE_LAMP, RS_UP, RS_EAST) != 0);
    CHECK_EQ_INT(side(2, 1, 8, RS_WEST), 1); /* connects to the lever */
    CHECK_EQ_INT(side(2, 1, 8, RS_EAST), 1);
    CHECK_EQ_INT(side(2, 1, 8, RS_NORTH), 0);
    CHECK_EQ_INT(side(16, 1, 8, RS_EAST), 1); /* and to the repeater's input */
    CHECK(!bprop(at(18, 1, 8), "lit"));

    CHECK(rs_use(W(), 1, 1, 8, at(1, 1, 8)));
    CHECK(strcmp(g->sound, "block.lever.click") == 0);
    for (int x = 2; x <= 16; x++) CHECK_EQ_INT(rs_wire_power(at(x, 1, 8)), 17 - x);
    CHECK(!bprop(at(17, 1, 8), "powered")); /* delay 1: 2 game ticks */
    step();
    CHECK(!bprop(at(17, 1, 8), "powered"));
    step();
    CHECK(bprop(at(17, 1, 8), "powered"));
    CHECK(bprop(at(18, 1, 8), "lit"));

    CHECK(rs_use(W(), 1, 1, 8, at(1, 1, 8))); /* off */
    for (int x = 2; x <= 16; x++) CHECK_EQ_INT(rs_wire_power(at(x, 1, 8)), 0);
    steps(2);
    CHECK(!bprop(at(17, 1, 8), "powered"));
    CHECK(bprop(at(18, 1, 8), "lit")); /* the lamp waits 4 ticks more */
    steps(3);
    CHECK(bprop(at(18, 1, 8), "lit"));
    step();
    CHECK(!bprop(at(18, 1, 8), "lit"));
}

TEST(redstone_dust_shapes_and_steps)
{
    reset();
    uint16_t s = place(5, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    for (int d = RS_NORTH; d <= RS_EAST; d++) CHECK_EQ_INT(rs_wire_side(s, d), 1); /* a cross */
    CHECK(rs_use(W(), 5, 1, 5, at(5, 1, 5)));                                      /* a dot */
    for (int d = RS_NORTH; d <= RS_EAST; d++) CHECK_EQ_INT(side(5, 1, 5, d), 0);
    /* a dust to the east: both become an east-west line */
    place(6, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    CHECK_EQ_INT(side(5, 1, 5, RS_EAST), 1);
    CHECK_EQ_INT(side(5, 1, 5, RS_WEST), 1);
    CHECK_EQ_INT(side(5, 1, 5, RS_NORTH), 0);
    CHECK_EQ_INT(side(6, 1, 5, RS_WEST), 1);
    /* climbing: a stone at x=7 with dust on top: the lower dust goes "up" */
    set(NULL, 7, 1, 5, BLOCK_STONE);
    place(7, 2, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    CHECK_EQ_INT(side(6, 1, 5, RS_EAST), 2);
    CHECK_EQ_INT(side(7, 2, 5, RS_WEST), 1);
    /* power climbs: a redstone block by the low end */
    set(NULL, 4, 1, 5, BLOCK_REDSTONE_BLOCK);
    CHECK_EQ_INT(rs_wire_power(at(5, 1, 5)), 15);
    CHECK_EQ_INT(rs_wire_power(at(6, 1, 5)), 14);
    CHECK_EQ_INT(rs_wire_power(at(7, 2, 5)), 13);
    /* a stone over the low dust cuts the climb (its top is a conductor) */
    set(NULL, 6, 2, 5, BLOCK_STONE);
    CHECK_EQ_INT(rs_wire_power(at(7, 2, 5)), 0);
    CHECK_EQ_INT(side(6, 1, 5, RS_EAST), 1); /* no longer up: a straight line */
    set(NULL, 6, 2, 5, BLOCK_AIR);
    CHECK_EQ_INT(rs_wire_power(at(7, 2, 5)), 13);
    /* the source goes: the whole network goes dark at once */
    uint64_t sets = g->sets;
    set(NULL, 4, 1, 5, BLOCK_AIR);
    CHECK_EQ_INT(rs_wire_power(at(5, 1, 5)), 0);
    CHECK_EQ_INT(rs_wire_power(at(7, 2, 5)), 0);
    CHECK(g->sets - sets <= 8); /* each dust set once (and the shapes) */
    /* dust without support breaks */
    set(NULL, 7, 1, 5, BLOCK_AIR);
    CHECK(is(at(7, 2, 5), BLOCK_AIR));
}

TEST(redstone_dust_long_line_decreases_and_strong_power)
{
    reset();
    set(NULL, 0, 1, 3, BLOCK_REDSTONE_BLOCK);
    for (int x = 1; x <= 20; x++) place(x, 1, 3, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    for (int x = 1; x <= 15; x++) CHECK_EQ_INT(rs_wire_power(at(x, 1, 3)), 16 - x);
    for (int x = 16; x <= 20; x++) CHECK_EQ_INT(rs_wire_power(at(x, 1, 3)), 0);
    /* a block powered by dust lights a lamp beside it, but powers no dust */
    reset();
    set(NULL, 0, 1, 3, BLOCK_REDSTONE_BLOCK);
    place(1, 1, 3, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    set(NULL, 2, 1, 3, BLOCK_STONE); /* the dust points into it */
    place(3, 1, 3, BLOCK_REDSTONE_LAMP, RS_UP, RS_NORTH);
    CHECK(bprop(at(3, 1, 3), "lit"));
    place(2, 1, 4, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    CHECK_EQ_INT(rs_wire_power(at(2, 1, 4)), 0);
    /* a lever strongly powers its block: dust beside that block is powered */
    reset();
    set(NULL, 5, 1, 5, BLOCK_STONE);
    place(5, 2, 5, BLOCK_LEVER, RS_UP, RS_NORTH);
    place(6, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    CHECK(rs_use(W(), 5, 2, 5, at(5, 2, 5)));
    CHECK_EQ_INT(rs_wire_power(at(6, 1, 5)), 15);
}

TEST(redstone_repeater_delay_and_lock)
{
    reset();
    place(3, 1, 5, BLOCK_REPEATER, RS_UP, RS_EAST); /* input from x=2 */
    CHECK(rs_use(W(), 3, 1, 5, at(3, 1, 5)));       /* delay 2: 4 ticks */
    CHECK(rs_use(W(), 3, 1, 5, at(3, 1, 5)));       /* delay 3: 6 ticks */
    set(NULL, 2, 1, 5, BLOCK_REDSTONE_BLOCK);
    CHECK_EQ_INT(rs_repeater_delay(at(3, 1, 5)), 6);
    steps(5);
    CHECK(!bprop(at(3, 1, 5), "powered"));
    step();
    CHECK(bprop(at(3, 1, 5), "powered"));

    /* locking: a powered repeater pointing into the side of another */
    reset();
    place(10, 1, 5, BLOCK_REPEATER, RS_UP, RS_EAST);  /* main: input x=9, output x=11 */
    place(10, 1, 6, BLOCK_REPEATER, RS_UP, RS_NORTH); /* side: faces south, outputs to z=5 */
    set(NULL, 10, 1, 7, BLOCK_REDSTONE_BLOCK);        /* powers the side repeater */
    steps(2);
    CHECK(bprop(at(10, 1, 6), "powered"));
    CHECK(bprop(at(10, 1, 5), "locked"));
    CHECK(rs_repeater_locked(W(), 10, 1, 5, at(10, 1, 5)));
    set(NULL, 9, 1, 5, BLOCK_REDSTONE_BLOCK); /* input while locked: nothing */
    steps(10);
    CHECK(!bprop(at(10, 1, 5), "powered"));
    set(NULL, 10, 1, 7, BLOCK_AIR); /* unlock: it follows its input */
    steps(2);
    CHECK(!bprop(at(10, 1, 5), "locked"));
    steps(2);
    CHECK(bprop(at(10, 1, 5), "powered"));
}

TEST(redstone_piston_push_limit_and_immovables)
{
    int32_t push[RS_PUSH_LIMIT][3], dpos[3];
    int destroy;
    reset();
    for (int x = 3; x < 3 + 12; x++) set(NULL, x, 1, 5, BLOCK_COBBLESTONE);
    CHECK_EQ_INT(rs_piston_resolve(W(), 2, 1, 5, RS_EAST, push, &destroy, dpos), 12);
    set(NULL, 15, 1, 5, BLOCK_COBBLESTONE); /* 13 */
    CHECK_EQ_INT(rs_piston_resolve(W(), 2, 1, 5, RS_EAST, push, &destroy, dpos), -1);
    set(NULL, 15, 1, 5, BLOCK_REDSTONE_WIRE); /* a DESTROY block ends the line */
    CHECK_EQ_INT(rs_piston_resolve(W(), 2, 1, 5, RS_EAST, push, &destroy, dpos), 12);
    CHECK_EQ_INT(destroy, 1);
    CHECK_EQ_INT(dpos[0], 15);
    set(NULL, 5, 1, 5, BLOCK_OBSIDIAN);
    CHECK_EQ_INT(rs_piston_resolve(W(), 2, 1, 5, RS_EAST, push, &destroy, dpos), -1);
    set(NULL, 5, 1, 5, BLOCK_BEDROCK);
    CHECK_EQ_INT(rs_piston_resolve(W(), 2, 1, 5, RS_EAST, push, &destroy, dpos), -1);
    set(NULL, 5, 1, 5, BLOCK_CHEST); /* a block entity */
    CHECK_EQ_INT(rs_piston_resolve(W(), 2, 1, 5, RS_EAST, push, &destroy, dpos), -1);
    CHECK_EQ_INT(rs_push_reaction(BLOCK_STONE), RS_PUSH_NORMAL);
    CHECK_EQ_INT(rs_push_reaction(BLOCK_WATER), RS_PUSH_DESTROY);
    CHECK_EQ_INT(rs_push_reaction(BLOCK_PISTON_HEAD), RS_PUSH_BLOCK);
    CHECK_EQ_INT(rs_push_reaction(BLOCK_REPEATER), RS_PUSH_DESTROY); /* DiodeBlock */
    CHECK_EQ_INT(rs_push_reaction(BLOCK_COMPARATOR), RS_PUSH_DESTROY);
    CHECK_EQ_INT(rs_push_reaction(BLOCK_CHEST), RS_PUSH_BLOCK);
    /* the world's edge */
    reset();
    set(NULL, GX - 1, 1, 5, BLOCK_STONE);
    CHECK_EQ_INT(rs_piston_resolve(W(), GX - 2, 1, 5, RS_EAST, push, &destroy, dpos), -1);
}

TEST(redstone_piston_extends_retracts_and_sticky_pulls)
{
    reset();
    uint16_t p = rs_place_state(W(), 5, 1, 5, BLOCK_STICKY_PISTON, RS_UP, RS_WEST, RS_WEST);
    set(NULL, 5, 1, 5, p); /* looking west: faces east */
    set(NULL, 6, 1, 5, BLOCK_COBBLESTONE);
    set(NULL, 7, 1, 5, BLOCK_DIRT);
    set(NULL, 8, 1, 5, BLOCK_POPPY); /* destroyed by the push */
    set(NULL, 4, 1, 5, BLOCK_LEVER);
    uint16_t lever = rs_place_state(W(), 5, 2, 5, BLOCK_LEVER, RS_UP, RS_NORTH, RS_DOWN);
    set(NULL, 4, 1, 5, BLOCK_AIR);
    set(NULL, 5, 2, 5, BLOCK_STONE);
    set(NULL, 5, 3, 5, lever); /* lever on the block above: powers nothing but that block */
    CHECK(rs_use(W(), 5, 3, 5, at(5, 3, 5)));
    CHECK(bprop(at(5, 1, 5), "extended"));
    CHECK(is(at(6, 1, 5), BLOCK_PISTON_HEAD));
    CHECK(is(at(7, 1, 5), BLOCK_COBBLESTONE));
    CHECK(is(at(8, 1, 5), BLOCK_DIRT));
    CHECK(g->events >= 1);
    CHECK(rs_use(W(), 5, 3, 5, at(5, 3, 5))); /* off: pulls the cobblestone back */
    CHECK(!bprop(at(5, 1, 5), "extended"));
    CHECK(is(at(6, 1, 5), BLOCK_COBBLESTONE));
    CHECK(is(at(7, 1, 5), BLOCK_AIR));
    CHECK(is(at(8, 1, 5), BLOCK_DIRT));

    /* quasi-connectivity: a redstone block two above the piston powers it
     * (the block above the piston is air: its neighbour up is the source) */
    reset();
    set(NULL, 5, 1, 5, rs_place_state(W(), 5, 1, 5, BLOCK_PISTON, RS_UP, RS_WEST, RS_WEST));
    set(NULL, 6, 1, 5, BLOCK_STONE);
    set(NULL, 5, 3, 5, BLOCK_REDSTONE_BLOCK);
    CHECK(!bprop(at(5, 1, 5), "extended")); /* no update reached it yet (vanilla too) */
    set(NULL, 4, 1, 5, BLOCK_DIRT);         /* any neighbour update */
    set(NULL, 4, 1, 5, BLOCK_AIR);
    CHECK(bprop(at(5, 1, 5), "extended"));
    CHECK(is(at(7, 1, 5), BLOCK_STONE));
}

TEST(redstone_torch_inverts_and_burns_out)
{
    reset();
    set(NULL, 5, 1, 5, BLOCK_STONE);
    place(5, 2, 5, BLOCK_REDSTONE_TORCH, RS_UP, RS_NORTH);
    CHECK(bprop(at(5, 2, 5), "lit"));
    uint16_t lever = rs_place_state(W(), 4, 1, 5, BLOCK_LEVER, RS_WEST, RS_NORTH, RS_DOWN);
    CHECK(lever != 0); /* on the stone's west side */
    set(NULL, 4, 1, 5, lever);
    CHECK(rs_use(W(), 4, 1, 5, at(4, 1, 5)));
    steps(2);
    CHECK(!bprop(at(5, 2, 5), "lit"));
    CHECK(rs_use(W(), 4, 1, 5, at(4, 1, 5)));
    steps(2);
    CHECK(bprop(at(5, 2, 5), "lit"));
    /* the log: 8 toggles off within 60 ticks burn a torch out */
    struct rs_torch_log *log = calloc(1, sizeof *log);
    for (int i = 0; i < 7; i++) CHECK(!rs_torch_toggled_too_often(log, 1, 2, 3, i * 5, true));
    CHECK(rs_torch_toggled_too_often(log, 1, 2, 3, 35, true));
    CHECK(!rs_torch_toggled_too_often(log, 1, 2, 4, 35, false));  /* elsewhere */
    CHECK(!rs_torch_toggled_too_often(log, 1, 2, 3, 200, false)); /* forgotten */
    for (int i = 0; i < 3 * RS_TORCH_LOG_MAX; i++)
        rs_torch_toggled_too_often(log, i, 0, 0, 300, true);
    CHECK(log->len <= RS_TORCH_LOG_MAX);
    free(log);
}

/* A torch on a block fed back through a repeater: it flips every few ticks,
 * burns out after 8 toggles, and the work per tick stays bounded. */
TEST(redstone_clock_stays_bounded)
{
    reset();
    set(NULL, 5, 1, 5, BLOCK_STONE);
    place(5, 2, 5, BLOCK_REDSTONE_TORCH, RS_UP, RS_NORTH);
    set(NULL, 6, 1, 5, BLOCK_STONE);
    place(6, 2, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH); /* lit by the torch */
    place(6, 1, 6, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH); /* down a step */
    place(6, 1, 7, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(5, 1, 7, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(5, 1, 6, BLOCK_REPEATER, RS_UP,
          RS_NORTH); /* faces south: z=7 in, the torch's block out */
    int toggles = 0, unlit_run = 0, longest_unlit = 0;
    bool lit = bprop(at(5, 2, 5), "lit");
    uint64_t worst = 0;
    for (int t = 0; t < 400; t++) {
        uint64_t u = g->updates;
        step();
        if (g->updates - u > worst) worst = g->updates - u;
        bool now_lit = bprop(at(5, 2, 5), "lit");
        toggles += now_lit != lit;
        lit = now_lit;
        unlit_run = lit ? 0 : unlit_run + 1;
        if (unlit_run > longest_unlit) longest_unlit = unlit_run;
    }
    CHECK(toggles >= 2 * RS_TORCH_TOGGLES - 1); /* it clocked */
    CHECK(longest_unlit >= 100);                /* and burnt out */
    CHECK(worst < 2000);
    CHECK(g->nq < 64);
    CHECK_EQ_INT(g->dropped_updates, 0);

    /* a repeater loop carrying a pulse around forever: bounded per tick */
    reset();
    /* ring of 4 repeaters around (20,1,8): east row z=7, west row z=9 */
    place(20, 1, 7, BLOCK_REPEATER, RS_UP, RS_WEST); /* faces east: input x=21, out x=19 */
    place(19, 1, 7, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(19, 1, 8, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(19, 1, 9, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(20, 1, 9, BLOCK_REPEATER, RS_UP, RS_EAST); /* faces west: input x=19, out x=21 */
    place(21, 1, 9, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(21, 1, 8, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    place(21, 1, 7, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    set(NULL, 22, 1, 7, BLOCK_REDSTONE_BLOCK); /* a pulse in */
    steps(1);
    set(NULL, 22, 1, 7, BLOCK_AIR);
    int changes = 0;
    worst = 0;
    uint16_t before = at(20, 1, 7);
    for (int t = 0; t < 1000; t++) {
        uint64_t u = g->updates;
        step();
        if (g->updates - u > worst) worst = g->updates - u;
        changes += at(20, 1, 7) != before;
        before = at(20, 1, 7);
    }
    CHECK(changes > 50); /* it runs */
    CHECK(worst < 2000); /* and stays bounded */
    CHECK(g->nq < 16);
}

TEST(redstone_container_signal_formula)
{
    int counts[54] = {0}, stacks[54];
    for (int i = 0; i < 54; i++) stacks[i] = 64;
    CHECK_EQ_INT(rs_container_signal(counts, stacks, 27), 0);
    counts[0] = 1; /* one item: floor(14 / 64 / 27) + 1 */
    CHECK_EQ_INT(rs_container_signal(counts, stacks, 27), 1);
    for (int i = 0; i < 27; i++) counts[i] = 64;
    CHECK_EQ_INT(rs_container_signal(counts, stacks, 27), 15);
    CHECK_EQ_INT(rs_container_signal(counts, stacks, 54), 8); /* a double chest half full */
    memset(counts, 0, sizeof counts);
    counts[3] = 16, stacks[3] = 16; /* a full stack of ender pearls in one slot */
    CHECK_EQ_INT(rs_container_signal(counts, stacks, 27), 1);
    counts[3] = 1, stacks[3] = 1; /* a sword */
    counts[4] = 1, stacks[4] = 1;
    counts[5] = 1, stacks[5] = 1;
    CHECK_EQ_INT(rs_container_signal(counts, stacks, 27), 2); /* floor(14 * 3 / 27) + 1 */
}

TEST(redstone_comparator_compare_subtract_and_containers)
{
    reset();
    /* comparator at (10,1,5) facing west: rear at x=9, front at x=11 */
    CHECK(place(10, 1, 5, BLOCK_COMPARATOR, RS_UP, RS_EAST) != 0);
    place(11, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    place(12, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    /* rear: dust at power 10 (a redstone block 6 dust away) */
    for (int x = 4; x <= 9; x++) place(x, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    set(NULL, 4, 1, 4, BLOCK_REDSTONE_BLOCK);
    CHECK_EQ_INT(rs_wire_power(at(9, 1, 5)), 10);
    step();
    CHECK(!bprop(at(10, 1, 5), "powered")); /* 2 game ticks */
    step();
    CHECK(bprop(at(10, 1, 5), "powered"));
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 10);
    CHECK_EQ_INT(rs_wire_power(at(12, 1, 5)), 9);
    /* the side stronger than the rear: 0 in either mode (10 < 13) */
    place(10, 1, 8, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    place(10, 1, 7, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    place(10, 1, 6, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    set(NULL, 10, 1, 9, BLOCK_REDSTONE_BLOCK);
    CHECK_EQ_INT(rs_wire_power(at(10, 1, 6)), 13);
    steps(2);
    CHECK(!bprop(at(10, 1, 5), "powered"));
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 0);
    /* a redstone block behind (15): compare gives 15, subtract 15 - 13 */
    set(NULL, 4, 1, 4, BLOCK_AIR);
    set(NULL, 9, 1, 5, BLOCK_REDSTONE_BLOCK);
    steps(2);
    CHECK(bprop(at(10, 1, 5), "powered"));
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 15);
    CHECK(rs_use(W(), 10, 1, 5, at(10, 1, 5))); /* subtract, at once */
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 2);
    CHECK_EQ_INT(rs_comparator_output(W(), 10, 1, 5, at(10, 1, 5)), 2);
    set(NULL, 10, 1, 9, BLOCK_AIR); /* no side input: 15 - 0 */
    steps(2);
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 15);
    CHECK(rs_use(W(), 10, 1, 5, at(10, 1, 5))); /* back to compare */
    set(NULL, 10, 1, 6, BLOCK_REDSTONE_BLOCK);  /* a side equal to the rear */
    steps(2);
    CHECK(bprop(at(10, 1, 5), "powered")); /* compare: on at 15 == 15 */
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 15);
    CHECK(rs_use(W(), 10, 1, 5, at(10, 1, 5))); /* subtract: 0, off */
    CHECK(!bprop(at(10, 1, 5), "powered"));
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 0);

    /* a container behind: its signal, updated when the contents change */
    reset();
    place(10, 1, 5, BLOCK_COMPARATOR, RS_UP, RS_EAST);
    place(11, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    g->container[0] = 9, g->container[1] = 1, g->container[2] = 5;
    g->container_level = 5;
    set(NULL, 9, 1, 5, BLOCK_CHEST);
    steps(2);
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 5);
    g->container_level = 9;
    rs_analog_changed(W(), 9, 1, 5);
    steps(2);
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 9);
    /* through a conductor: the chest two blocks behind */
    reset();
    place(10, 1, 5, BLOCK_COMPARATOR, RS_UP, RS_EAST);
    place(11, 1, 5, BLOCK_REDSTONE_WIRE, RS_UP, RS_EAST);
    set(NULL, 9, 1, 5, BLOCK_STONE);
    g->container[0] = 8, g->container[1] = 1, g->container[2] = 5;
    g->container_level = 12;
    set(NULL, 8, 1, 5, BLOCK_CHEST);
    rs_analog_changed(W(), 8, 1, 5);
    steps(2);
    CHECK_EQ_INT(rs_wire_power(at(11, 1, 5)), 12);
}

TEST(redstone_pressure_plates_doors_and_note_blocks)
{
    reset();
    g->plate[0] = 5, g->plate[1] = 1, g->plate[2] = 5;
    CHECK(place(5, 1, 5, BLOCK_STONE_PRESSURE_PLATE, RS_UP, RS_NORTH) != 0);
    place(6, 1, 5, BLOCK_REDSTONE_LAMP, RS_UP, RS_NORTH);
    /* an iron door two halves, beside the plate on the other side */
    uint16_t door = BLOCK_IRON_DOOR;
    set(NULL, 4, 1, 5, block_state_with(door, "half", 1)); /* lower */
    set(NULL, 4, 2, 5, block_state_with(door, "half", 0)); /* upper */
    rs_entity_inside(W(), 5, 1, 5, at(5, 1, 5));           /* nobody: nothing */
    CHECK(!bprop(at(5, 1, 5), "powered"));
    g->on_plate = 1;
    rs_entity_inside(W(), 5, 1, 5, at(5, 1, 5));
    CHECK(bprop(at(5, 1, 5), "powered"));
    CHECK(bprop(at(6, 1, 5), "lit"));
    CHECK(bprop(at(4, 1, 5), "open"));
    CHECK(bprop(at(4, 2, 5), "open")); /* both halves */
    CHECK(strcmp(g->sound, "block.iron_door.open") == 0 ||
          strcmp(g->sound, "block.stone_pressure_plate.click_on") == 0);
    steps(20); /* still on it: held */
    CHECK(bprop(at(5, 1, 5), "powered"));
    g->on_plate = 0;
    steps(19); /* the next check is 20 ticks after the last */
    CHECK(bprop(at(5, 1, 5), "powered"));
    step();
    CHECK(!bprop(at(5, 1, 5), "powered"));
    CHECK(!bprop(at(4, 1, 5), "open"));
    CHECK(!bprop(at(4, 2, 5), "open"));
    steps(4);
    CHECK(!bprop(at(6, 1, 5), "lit"));
    /* weighted: iron counts tens, gold ones */
    reset();
    g->plate[0] = 5, g->plate[1] = 1, g->plate[2] = 5;
    place(5, 1, 5, BLOCK_HEAVY_WEIGHTED_PRESSURE_PLATE, RS_UP, RS_NORTH);
    g->on_plate = 25;
    rs_entity_inside(W(), 5, 1, 5, at(5, 1, 5));
    CHECK_EQ_INT(block_state_prop(at(5, 1, 5), "power", NULL), 3);
    set(NULL, 5, 1, 5, BLOCK_LIGHT_WEIGHTED_PRESSURE_PLATE);
    rs_entity_inside(W(), 5, 1, 5, at(5, 1, 5));
    CHECK_EQ_INT(block_state_prop(at(5, 1, 5), "power", NULL), 15);
    /* instruments: the block below (or a head above) */
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_STONE), "basedrum") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_OAK_PLANKS), "bass") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_SAND), "snare") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_GLASS), "hat") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_GOLD_BLOCK), "bell") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_WHITE_WOOL), "guitar") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_AIR, BLOCK_DIAMOND_BLOCK), "harp") == 0);
    CHECK(strcmp(rs_note_instrument(BLOCK_ZOMBIE_HEAD, BLOCK_STONE), "zombie") == 0);
    /* a note block plays once on a rising edge, and on right-click */
    reset();
    set(NULL, 8, 1, 8, BLOCK_NOTE_BLOCK);
    CHECK_EQ_INT(block_state_prop(at(8, 1, 8), "instrument", NULL), 1); /* on stone: basedrum */
    uint64_t ev = g->events;
    set(NULL, 9, 1, 8, BLOCK_REDSTONE_BLOCK);
    CHECK_EQ_INT(g->events - ev, 1);
    CHECK(bprop(at(8, 1, 8), "powered"));
    set(NULL, 8, 2, 9, BLOCK_STONE); /* another update while powered: no note */
    CHECK_EQ_INT(g->events - ev, 1);
    CHECK(rs_use(W(), 8, 1, 8, at(8, 1, 8)));
    CHECK_EQ_INT(g->events - ev, 2);
    CHECK_EQ_INT(block_state_prop(at(8, 1, 8), "note", NULL), 1);
    set(NULL, 8, 2, 8, BLOCK_STONE); /* a block above: silent */
    CHECK(rs_use(W(), 8, 1, 8, at(8, 1, 8)));
    CHECK_EQ_INT(g->events - ev, 2);
}

/* A component whose support lies in a column that is not loaded stays. */
TEST(redstone_support_outside_the_loaded_world_holds)
{
    reset();
    /* a wall lever at x=0 facing east hangs on x=-1: outside the grid */
    uint16_t lever = block_state_with(BLOCK_LEVER, "face", 1); /* floor, wall, ceiling */
    lever = block_state_with(lever, "facing", 3);              /* north, south, west, east */
    g->b[0][1][5] = lever;
    set(NULL, 0, 1, 6, BLOCK_STONE); /* a neighbour update */
    CHECK(is(at(0, 1, 5), BLOCK_LEVER));
    set(NULL, 1, 1, 5, BLOCK_STONE); /* a loaded support that goes: it breaks */
    g->b[2][1][5] = block_state_with(lever, "facing", 3);
    set(NULL, 1, 1, 5, BLOCK_AIR);
    CHECK(is(at(2, 1, 5), BLOCK_AIR));
}

/* A wide sheet of dust: turning its source off sets each lit dust once
 * (vanilla's wire turns each off and on again, many times). */
TEST(redstone_dust_sheet_turns_off_in_one_pass)
{
    reset();
    for (int x = 2; x < 46; x++)
        for (int z = 1; z < 15; z++) place(x, 1, z, BLOCK_REDSTONE_WIRE, RS_UP, RS_NORTH);
    set(NULL, 24, 1, 8, BLOCK_REDSTONE_BLOCK);
    int lit = 0;
    for (int x = 2; x < 46; x++)
        for (int z = 1; z < 15; z++) {
            int p = rs_wire_power(at(x, 1, z));
            int d = abs(x - 24) + abs(z - 8);
            if (x == 24 && z == 8) continue;
            CHECK_EQ_INT(p, d - 1 < 15 ? 16 - d : 0); /* 15 beside the block, less 1 a step */
            lit += p > 0;
        }
    CHECK(lit > 300);
    uint64_t sets = g->sets, updates = g->updates;
    set(NULL, 24, 1, 8, BLOCK_AIR);
    /* each lit dust once, the block, and the 4 beside it lose their side toward it */
    CHECK_EQ_INT(g->sets - sets, lit + 1 + 4);
    CHECK(g->updates - updates < (uint64_t)lit * 40);
    for (int x = 2; x < 46; x++)
        for (int z = 1; z < 15; z++) CHECK_EQ_INT(rs_wire_power(at(x, 1, z)), 0);
}
