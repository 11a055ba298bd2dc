/*
 * block_sim.c — the world's simulation state for world/block_ticks.h (the
 * active list of columns with ticks or random tickers, the neighbour-update
 * FIFO, the per-tick run); game thread only. The invariants are
 * block_ticks.h's; in addition, `deferred` is set while updates a chain
 * could not finish wait in the FIFO: new changes then only queue theirs,
 * so the order stays FIFO, and block_ticks_run drains them first.
 */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "world/anvil.h"
#include "world/block_ticks.h"
#include "world/chunk.h"
#include "world/world.h"

struct bt_neighbor {
    int32_t x, y, z;
    int8_t dx, dy, dz; /* toward the block that changed */
};

static struct {
    world *w;
    struct bt_hooks h;
    int64_t max_chained; /* per chain and per deferred drain */
    int64_t now;
    uint64_t seq;
    list_node active; /* bt_chunk.link */
    bool active_init;
    /* the neighbour FIFO (a ring) */
    struct bt_neighbor *ring;
    size_t head, len, cap;
    bool draining, deferred;
    int placed_depth;
    int64_t warn_ms;
    uint64_t since_warn;
    uint32_t lcg; /* ServerLevel.randValue */
    struct bt_due *due;
    bt_chunk **cols; /* this tick's simulated columns (gather) */
    size_t cols_cap;
    /* The simulated active columns by position, asked every BT_NEAR_TICKS
     * (block_ticks.h); a bt_chunk is in it while its `listed` == epoch. */
    struct near_col {
        int32_t cx, cz;
    } * near;
    size_t near_len, near_cap;
    uint64_t near_epoch;
    int64_t near_at;
    uint64_t gathers; /* gather calls: bt_chunk.gathered */
    struct bt_stats st;
} sim;

static void active_init(void)
{
    if (!sim.active_init) {
        list_init(&sim.active);
        sim.active_init = true;
    }
}

/* The live bt_chunk of a READY entry, made on demand; NULL when out of memory. */
static bt_chunk *chunk_of(chunk_entry *e)
{
    if (!e->extra && !(e->extra = calloc(1, sizeof *e->extra))) return NULL;
    if (!e->extra->ticks && !(e->extra->ticks = bt_chunk_new(e->c.x, e->c.z))) return NULL;
    return e->extra->ticks;
}

/* Puts c on the near list; false when out of memory (asked again later). */
static bool list_near(bt_chunk *c)
{
    if (sim.near_len == sim.near_cap) {
        size_t cap = sim.near_cap ? sim.near_cap * 2 : 256;
        struct near_col *nn = realloc(sim.near, cap * sizeof *nn);
        if (!nn) return false;
        sim.near = nn;
        sim.near_cap = cap;
    }
    sim.near[sim.near_len++] = (struct near_col){c->cx, c->cz};
    c->listed = sim.near_epoch;
    return true;
}

static void activate(bt_chunk *c)
{
    active_init();
    if (!list_linked(&c->link)) list_push_back(&sim.active, &c->link);
    if (sim.near_epoch && c->listed != sim.near_epoch &&
        (!sim.h.simulated || sim.h.simulated(c->cx, c->cz)))
        list_near(c);
}

/* Bit s: section s's palette holds a state the game random-ticks. */
static uint32_t scan_mask(const chunk *ch)
{
    uint32_t m = 0;
    if (!sim.h.random_ticking) return 0;
    for (int s = 0; s < CHUNK_SECTIONS; s++) {
        const section *sec = &ch->sections[s];
        bool hit = false;
        if (sec->bits == 0)
            hit = sim.h.random_ticking(sec->single);
        else if (sec->palette && sec->bits <= 8)
            for (unsigned i = 0; i < sec->palette_len && !hit; i++)
                hit = sim.h.random_ticking(sec->palette[i]);
        else
            for (unsigned i = 0; i < 4096 && !hit; i++)
                hit = sim.h.random_ticking(section_get(sec, i));
        if (hit) m |= 1u << s;
    }
    return m;
}

static void on_ready(world *w, chunk_entry *e)
{
    (void)w;
    uint32_t mask = scan_mask(&e->c);
    bt_chunk *c = e->extra ? e->extra->ticks : NULL;
    if (!c && !mask) return;
    if (!c && !(c = chunk_of(e))) return;
    if (c->relative) {
        for (int k = 0; k < BT_KINDS; k++) {
            /* Delays from disk become ticks from now, in the order they were read. */
            struct bt_queue old = c->q[k];
            memset(&c->q[k], 0, sizeof c->q[k]);
            for (uint32_t i = 0; i < old.len; i++) {
                struct bt_tick t = old.heap[i];
                t.trigger += sim.now;
                t.seq += sim.seq; /* bt_chunk_read numbered them in file order */
                if (bt_queue_push(&c->q[k], &t) < 0) break;
            }
            sim.seq += old.len;
            bt_queue_free(&old);
        }
        c->relative = false;
    }
    c->random_mask = mask;
    c->rescan_at = sim.now + BT_RESCAN_TICKS;
    if (mask || c->q[0].len || c->q[1].len) activate(c);
}

static void neighbor_push(int32_t x, int32_t y, int32_t z, int dx, int dy, int dz)
{
    if (sim.len == sim.cap) {
        if (sim.cap >= BT_NEIGHBOR_MAX) {
            sim.st.dropped_neighbors++;
            return;
        }
        size_t cap = sim.cap ? sim.cap * 2 : 1024;
        struct bt_neighbor *n = malloc(cap * sizeof *n);
        if (!n) {
            sim.st.dropped_neighbors++;
            return;
        }
        for (size_t i = 0; i < sim.len; i++) n[i] = sim.ring[(sim.head + i) % sim.cap];
        free(sim.ring);
        sim.ring = n;
        sim.head = 0;
        sim.cap = cap;
    }
    sim.ring[(sim.head + sim.len++) % sim.cap] =
        (struct bt_neighbor){x, y, z, (int8_t)dx, (int8_t)dy, (int8_t)dz};
}

static void warn_deferred(void)
{
    int64_t now_ms = clock_ms();
    sim.since_warn++;
    if (now_ms - sim.warn_ms < 10000) return;
    log_warn("neighbour updates: a chain passed max-chained-neighbor-updates (%lld); %zu "
             "update(s) deferred to the next tick (%llu time(s) since the last warning, %llu "
             "dropped past the queue's cap)",
             (long long)sim.max_chained, sim.len, (unsigned long long)sim.since_warn,
             (unsigned long long)sim.st.dropped_neighbors);
    sim.warn_ms = now_ms;
    sim.since_warn = 0;
}

/* Runs queued neighbour updates, at most max_chained (negative: all). */
static void drain(void)
{
    if (sim.draining) return;
    sim.draining = true;
    int64_t done = 0;
    while (sim.len && (sim.max_chained < 0 || done < sim.max_chained)) {
        struct bt_neighbor n = sim.ring[sim.head];
        sim.head = (sim.head + 1) % sim.cap;
        sim.len--;
        done++;
        sim.st.neighbor_updates++;
        if (sim.h.neighbor) sim.h.neighbor(n.x, n.y, n.z, n.x + n.dx, n.y + n.dy, n.z + n.dz);
    }
    sim.draining = false;
    sim.deferred = sim.len > 0;
    if (sim.deferred) {
        sim.st.deferred_neighbors += sim.len;
        warn_deferred();
    }
    if (!sim.len && sim.cap > 65536) { /* after a flood: back to small */
        free(sim.ring);
        sim.ring = NULL;
        sim.cap = sim.head = 0;
    }
}

static void on_change(world *w, chunk_entry *e, int32_t x, int32_t y, int32_t z, uint16_t old,
                      uint16_t now)
{
    (void)w;
    if (sim.h.random_ticking && sim.h.random_ticking(now)) {
        bt_chunk *c = chunk_of(e);
        if (c) {
            c->random_mask |= 1u << ((y - CHUNK_MIN_Y) >> 4);
            activate(c);
        }
    }
    if (sim.h.placed && sim.placed_depth < 16) {
        sim.placed_depth++;
        sim.h.placed(x, y, z, old, now);
        sim.placed_depth--;
    }
    /* vanilla's update order: west, east, down, up, north, south */
    static const int8_t d[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                   {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
    for (int k = 0; k < 6; k++)
        neighbor_push(x + d[k][0], y + d[k][1], z + d[k][2], -d[k][0], -d[k][1], -d[k][2]);
    if (!sim.deferred) drain();
}

void block_ticks_update_neighbors(int32_t x, int32_t y, int32_t z)
{
    if (!sim.w) return;
    static const int8_t d[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                   {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
    for (int k = 0; k < 6; k++)
        neighbor_push(x + d[k][0], y + d[k][1], z + d[k][2], -d[k][0], -d[k][1], -d[k][2]);
    if (!sim.deferred) drain();
}

void block_ticks_attach(world *w, const struct bt_hooks *h, int max_chained)
{
    active_init();
    sim.w = w;
    sim.h = *h;
    sim.max_chained = max_chained < 0 ? -1 : max_chained < 1 ? 1 : max_chained;
    sim.lcg = 0x2f4f1e63u;
    w->on_change = on_change;
    w->on_column_ready = on_ready;
}

int block_ticks_schedule(world *w, enum bt_kind kind, int32_t x, int32_t y, int32_t z,
                         uint16_t type, int delay, int prio)
{
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return -1;
    chunk_entry *e = world_loaded(w, x >> 4, z >> 4);
    bt_chunk *c = e ? chunk_of(e) : NULL;
    if (!c) return -1;
    struct bt_tick t = {
        .trigger = sim.now + (delay < 0 ? 0 : delay),
        .seq = sim.seq++,
        .type = type,
        .prio = (int8_t)prio,
        .lxz = (uint8_t)((x & 15) | (z & 15) << 4),
        .y = (int16_t)y,
    };
    int rc = bt_queue_push(&c->q[kind], &t);
    if (rc > 0) activate(c);
    return rc;
}

bool block_ticks_pending(world *w, enum bt_kind kind, int32_t x, int32_t y, int32_t z,
                         uint16_t type)
{
    chunk_entry *e = world_loaded(w, x >> 4, z >> 4);
    if (!e || !e->extra || !e->extra->ticks) return false;
    return bt_queue_has(&e->extra->ticks->q[kind], (uint8_t)((x & 15) | (z & 15) << 4), (int16_t)y,
                        type);
}

/* Every BT_NEAR_TICKS: idle columns leave the active list, the rest are
 * asked whether they are simulated, and the near list is rebuilt. */
static void refresh_near(void)
{
    sim.near_epoch++;
    sim.near_len = 0;
    sim.near_at = sim.now;
    list_node *pos, *tmp;
    list_for_each_safe (pos, tmp, &sim.active) {
        bt_chunk *c = list_entry(pos, bt_chunk, link);
        if (!c->q[0].len && !c->q[1].len && !c->random_mask) {
            list_remove(&c->link);
            continue;
        }
        if (sim.h.simulated && !sim.h.simulated(c->cx, c->cz)) continue;
        if (!list_near(c)) break;
    }
}

/* This tick's simulated columns, into sim.cols, from the near list (once
 * a tick: a tick scheduled meanwhile is due next tick at the earliest).
 * Entries of columns unloaded since are dropped; a column reloaded since
 * may be listed twice, and is taken once. */
static size_t gather(void)
{
    if (!sim.near_epoch || sim.now - sim.near_at >= BT_NEAR_TICKS || sim.now < sim.near_at)
        refresh_near();
    size_t n = 0, kept = 0;
    sim.gathers++;
    for (size_t i = 0; i < sim.near_len; i++) {
        struct near_col nc = sim.near[i];
        chunk_entry *e = world_loaded(sim.w, nc.cx, nc.cz);
        bt_chunk *c = e && e->extra ? e->extra->ticks : NULL;
        if (!c || c->listed != sim.near_epoch) continue;
        sim.near[kept++] = nc;
        if (c->gathered == sim.gathers) continue;
        c->gathered = sim.gathers;
        if (n == sim.cols_cap) {
            size_t cap = sim.cols_cap ? sim.cols_cap * 2 : 256;
            bt_chunk **ncols = realloc(sim.cols, cap * sizeof *ncols);
            if (!ncols) continue;
            sim.cols = ncols;
            sim.cols_cap = cap;
        }
        sim.cols[n++] = c;
    }
    sim.near_len = kept;
    return n;
}

static void run_kind(size_t n, enum bt_kind k)
{
    if (!sim.due && !(sim.due = malloc(BT_MAX_PER_TICK * sizeof *sim.due))) return;
    size_t got = bt_collect(sim.cols, n, k, sim.now, BT_MAX_PER_TICK, sim.due);
    if (got == BT_MAX_PER_TICK) {
        /* Deferred: count what is still due. */
        uint64_t left = 0;
        for (size_t i = 0; i < n; i++) {
            const struct bt_tick *t = bt_queue_top(&sim.cols[i]->q[k]);
            if (t && t->trigger <= sim.now) left += sim.cols[i]->q[k].len;
        }
        if (left) {
            sim.st.deferred_ticks += left;
            int64_t now_ms = clock_ms();
            if (now_ms - sim.warn_ms >= 10000) {
                log_warn("scheduled %s ticks: %d ran this tick (the per-tick budget); about "
                         "%llu due ones deferred",
                         k == BT_BLOCK ? "block" : "fluid", BT_MAX_PER_TICK,
                         (unsigned long long)left);
                sim.warn_ms = now_ms;
            }
        }
    }
    for (size_t i = 0; i < got; i++) {
        const struct bt_due *d = &sim.due[i];
        int32_t x = d->cx * 16 + (d->t.lxz & 15), z = d->cz * 16 + (d->t.lxz >> 4);
        if (k == BT_BLOCK)
            sim.st.block_ticks++;
        else
            sim.st.fluid_ticks++;
        if (sim.h.tick) sim.h.tick(k, x, d->t.y, z, d->t.type);
    }
}

static void run_random(size_t n, int speed)
{
    if (speed <= 0 || !sim.h.random) return;
    if (speed > BT_RANDOM_SPEED_MAX) speed = BT_RANDOM_SPEED_MAX;
    sim.st.random_chunks = 0;
    for (size_t i = 0; i < n; i++) {
        bt_chunk *c = sim.cols[i];
        if (!c->random_mask) continue;
        chunk_entry *e = world_loaded(sim.w, c->cx, c->cz);
        if (!e) continue;
        if (sim.now >= c->rescan_at) {
            c->random_mask = scan_mask(&e->c);
            c->rescan_at = sim.now + BT_RESCAN_TICKS;
        }
        sim.st.random_chunks += c->random_mask != 0;
        for (uint32_t m = c->random_mask; m; m &= m - 1) {
            int s = __builtin_ctz(m);
            for (int k = 0; k < speed; k++) {
                sim.lcg = sim.lcg * 3 + 1013904223u;
                uint32_t r = sim.lcg >> 2;
                int lx = r & 15, ly = r >> 16 & 15, lz = r >> 8 & 15;
                int y = CHUNK_MIN_Y + s * 16 + ly;
                /* The section itself, not chunk_get_block: a tick may have
                 * changed blocks, so it is looked up again for each pick. */
                uint16_t st = section_get(&e->c.sections[s], (unsigned)(ly << 8 | lz << 4 | lx));
                if (!sim.h.random_ticking(st)) continue;
                sim.st.random_ticks++;
                sim.h.random(c->cx * 16 + lx, y, c->cz * 16 + lz, st);
                e = world_loaded(sim.w, c->cx, c->cz); /* a tick may change blocks, not unload */
                if (!e) break;
            }
            if (!e) break;
        }
    }
}

void block_ticks_run(world *w, int64_t now, int random_tick_speed)
{
    (void)w;
    active_init();
    sim.now = now;
    block_ticks_set_now(now);
    if (sim.len) {
        sim.deferred = false;
        drain();
    }
    size_t n = gather();
    run_kind(n, BT_BLOCK);
    run_kind(n, BT_FLUID); /* what the block ticks scheduled is due next tick at the earliest */
    run_random(n, random_tick_speed);
}

void block_ticks_stats(struct bt_stats *out)
{
    *out = sim.st;
    out->active_chunks = 0;
    out->pending = 0;
    if (!sim.active_init) return;
    list_node *pos, *tmp;
    list_for_each_safe (pos, tmp, &sim.active) {
        bt_chunk *c = list_entry(pos, bt_chunk, link);
        out->active_chunks++;
        out->pending += c->q[0].len + c->q[1].len;
    }
}

void block_ticks_free(void)
{
    if (sim.w && (sim.st.block_ticks || sim.st.fluid_ticks || sim.st.random_ticks))
        log_info("world simulation: %llu block ticks, %llu fluid ticks, %llu random ticks, %llu "
                 "neighbour updates (%llu deferred, %llu dropped; %llu scheduled ticks deferred "
                 "by the per-tick budget)",
                 (unsigned long long)sim.st.block_ticks, (unsigned long long)sim.st.fluid_ticks,
                 (unsigned long long)sim.st.random_ticks,
                 (unsigned long long)sim.st.neighbor_updates,
                 (unsigned long long)sim.st.deferred_neighbors,
                 (unsigned long long)sim.st.dropped_neighbors,
                 (unsigned long long)sim.st.deferred_ticks);
    if (sim.active_init) {
        list_node *pos, *tmp;
        list_for_each_safe (pos, tmp, &sim.active) list_remove(pos);
    }
    free(sim.ring);
    free(sim.due);
    free(sim.cols);
    free(sim.near);
    sim.near = NULL;
    sim.near_len = sim.near_cap = 0;
    sim.near_epoch = 0;
    sim.ring = NULL;
    sim.due = NULL;
    sim.cols = NULL;
    sim.len = sim.cap = sim.head = sim.cols_cap = 0;
}
