/*
 * play.c — players in the PLAY state: the join sequence, the chunk window
 * each player sees, movement, keep-alive, and leaving.
 *
 * Join sequence (what the vanilla 1.20.1 client and mineflayer need, see
 * docs/protocol notes): Login (play) → Abilities → Synchronize Player
 * Position → Set Center Chunk → the "joined" line → chunks, nearest first →
 * once the 3×3 around the player is out: Set Default Spawn Position, Update
 * Time, Set Health (mineflayer's `spawn` needs health > 0), and the position
 * again. The tab list follows at the next tick's roster phase (as vanilla
 * sends Player Info after the position): the players already in, then one
 * Player Info Update with every player who joined since the last tick, which
 * everyone else gets too. Leaving: the "left" line at once; Remove Entities
 * and one Player Info Remove for all the tick's leavers at the next roster
 * phase (see "roster" below).
 *
 * Chunk window: a player holds the chunks within Chebyshev distance
 * view_distance of its centre chunk. `loaded` is a bitmap over the
 * (2*VIEW_DISTANCE_MAX+1)^2 offsets from the centre. Chunks are streamed in
 * spiral order (nearest first) only while the connection has less than
 * CHUNK_SEND_WINDOW bytes queued, so a join never floods the output buffer.
 * Chunks that are not ready are asked for through the player's
 * world_requester (world/world.h): at most mcserv-chunk-requests-in-flight
 * at once, mcserv-chunk-requests-per-second after a burst of one whole
 * window; a request the window moves away from is given up, so the world
 * drops it unless another player waits for it too.
 *
 * Invariants:
 *  1. A bit in `loaded` ⇔ the client was sent that chunk and not told to
 *     unload it ⇔ the player holds one world viewer reference on it.
 *  2. scan_pos only moves forward while the centre stays; a recentre or a
 *     view-distance change resets it to 0.
 *  2a. The player's requests lie inside its window and are for chunks not
 *     yet sent (window_move gives up the others; a sent chunk's request
 *     ends as it is sent).
 *  3. Movement is ignored while a teleport is unconfirmed (as vanilla); only
 *     a Confirm Teleportation with the id of the last teleport sent ends it.
 *  4. Movement checks (vanilla ServerGamePacketListenerImpl): NaN/infinite or
 *     out-of-world coordinates disconnect (invalid_player_movement); a move
 *     whose squared distance from the tick's first position exceeds 100
 *     (300 gliding) × the move packets this tick (at most 5, else 1) is
 *     refused with "moved too quickly!" and a teleport back under a new id.
 *     The server tracks no velocity, so vanilla's "− velocity²" term is 0.
 *     Angles are kept as vanilla keeps them: yaw in [-180, 180), pitch in
 *     [-90, 90] (a finite 1e30 from a client must not reach the angle bytes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "core/clock.h"
#include "core/log.h"
#include "data/packet_ids.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/registry_codec.h"
#include "core/json.h"
#include "game/beds.h" /* issue 21 */
#include "game/border.h"
#include "game/chunk_viewers.h"
#include "game/chat.h"
#include "game/commands.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/combat.h" /* issue 14 */
#include "game/health.h" /* issue 14 */
#include "game/inventory.h"
#include "game/play.h"
#include "game/playerdata.h"
#include "game/plugins.h" /* plugins */
#include "net/server.h"
#include "proto/frame.h"
#include "proto/packets.h"
#include "world/spiral.h"

#define WIN             (2 * VIEW_DISTANCE_MAX + 1)
#define WIN_BYTES       ((WIN * WIN + 7) / 8)
#define CHUNKS_PER_TICK 64 /* chunks one player may be sent per tick (fairness) */
#define MAX_COORD       3.0e7
#define MAX_Y_COORD     2.0e7

static inline int bit_index(int dx, int dz)
{
    return (dx + VIEW_DISTANCE_MAX) * WIN + (dz + VIEW_DISTANCE_MAX);
}

static inline bool bit_get(const uint8_t *bm, int i)
{
    return bm[i >> 3] & (1u << (i & 7));
}

static inline void bit_set(uint8_t *bm, int i)
{
    bm[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static inline int32_t chunk_of(double v)
{
    return (int32_t)floor(v / 16.0);
}

/* Chunks in a window of view distance vd: the request budget's burst. */
static inline int window_area(int vd)
{
    return (2 * vd + 1) * (2 * vd + 1);
}

/* --------------------------------------------------------------- broadcast */

static void announce(const char *key, const char *name)
{
    buf_t j;
    buf_init(&j, 1024);
    buf_lit(&j, "{\"translate\":\"");
    buf_append(&j, key, strlen(key));
    buf_lit(&j, "\",\"with\":[{\"text\":");
    json_append_string(&j, name, strlen(name));
    buf_lit(&j, "}],\"color\":\"yellow\"}");
    if (!j.failed) chat_broadcast((const char *)j.data, j.len, false);
    buf_free(&j);
}

/* ------------------------------------------------------------ viewers, edits */

bool play_sees_chunk(const player *p, int32_t cx, int32_t cz)
{
    int32_t dx = cx - p->center_x, dz = cz - p->center_z;
    if (dx < -VIEW_DISTANCE_MAX || dx > VIEW_DISTANCE_MAX || dz < -VIEW_DISTANCE_MAX ||
        dz > VIEW_DISTANCE_MAX)
        return false;
    return bit_get(p->loaded, bit_index(dx, dz));
}

void play_send_to_viewers(int32_t cx, int32_t cz, const uint8_t *frame, size_t len)
{
    size_t n;
    conn **v = cv_copy(cx, cz, &n); /* a drop below changes the index, not the copy */
    for (size_t i = 0; i < n; i++)
        if (!v[i]->closed) conn_send_raw(v[i], frame, len);
}

/*
 * Block changes of this tick, broadcast by play_tick_end. Bounded: past the
 * cap an edit still changes the world (and the re-encoded chunk), it just
 * is not broadcast as a Block Update this tick.
 */
#define MAX_CHANGES_PER_TICK 65536

struct block_change {
    int32_t x, y, z;
    uint16_t state;
    uint32_t order; /* keeps the last write last after sorting */
};

static struct block_change *changes;
static size_t change_count, change_cap;

static uint32_t change_order; /* the order of this tick's writes */

int play_set_block(int32_t x, int32_t y, int32_t z, uint16_t state)
{
    /* Taken before the world's hooks run (issue 21): a change they make in
     * turn (lava next to water becoming cobblestone) goes out after this one. */
    uint32_t order = change_order++;
    if (world_set_block(&game.world, x, y, z, state) < 0) return -1;
    if (change_count == change_cap) {
        size_t ncap = change_cap ? change_cap * 2 : 256;
        if (ncap > MAX_CHANGES_PER_TICK) return 0;
        struct block_change *n = realloc(changes, ncap * sizeof *n);
        if (!n) return 0;
        changes = n;
        change_cap = ncap;
    }
    changes[change_count] = (struct block_change){x, y, z, state, order};
    change_count++;
    return 0;
}

static bool same_section(const struct block_change *a, const struct block_change *b)
{
    return (a->x >> 4) == (b->x >> 4) && (a->z >> 4) == (b->z >> 4) && (a->y >> 4) == (b->y >> 4);
}

static int cmp_change(const void *a, const void *b)
{
    const struct block_change *p = a, *q = b;
    if ((p->x >> 4) != (q->x >> 4)) return (p->x >> 4) < (q->x >> 4) ? -1 : 1;
    if ((p->z >> 4) != (q->z >> 4)) return (p->z >> 4) < (q->z >> 4) ? -1 : 1;
    if ((p->y >> 4) != (q->y >> 4)) return (p->y >> 4) < (q->y >> 4) ? -1 : 1;
    return p->order < q->order ? -1 : p->order > q->order;
}

/* Sends srv->pkt, framed once, to the viewers of chunk (cx, cz). */
static void pkt_to_viewers(int32_t cx, int32_t cz)
{
    const buf_t *f = pkt_frame_shared();
    if (f) play_send_to_viewers(cx, cz, f->data, f->len);
}

void play_broadcast_blocks(void)
{
    static int64_t records[4096];
    if (change_count) {
        qsort(changes, change_count, sizeof *changes, cmp_change);
        size_t i = 0;
        while (i < change_count) {
            size_t j = i;
            while (j < change_count && same_section(&changes[j], &changes[i])) j++;
            const struct block_change *b = &changes[i];
            buf_reset(&srv->pkt);
            if (j - i == 1) {
                pkt_cb_block_change(&srv->pkt, b->x, b->y, b->z, b->state);
            } else {
                size_t n = 0;
                for (size_t k = i; k < j && n < 4096; k++)
                    records[n++] = (int64_t)changes[k].state << 12 | (changes[k].x & 15) << 8 |
                                   (changes[k].z & 15) << 4 | (changes[k].y & 15);
                pkt_cb_multi_block_change(&srv->pkt, b->x >> 4, b->y >> 4, b->z >> 4, records, n);
            }
            pkt_to_viewers(b->x >> 4, b->z >> 4);
            i = j;
        }
        change_count = 0;
        change_order = 0;
        if (change_cap > 4096) {
            free(changes);
            changes = NULL;
            change_cap = 0;
        }
    }
    /* Acknowledge after the updates, as vanilla: the client then trusts the server's blocks. */
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &game.acks) {
        player *p = list_entry(n, player, ack_link);
        list_remove(&p->ack_link);
        buf_reset(&srv->pkt);
        pkt_cb_acknowledge_player_digging(&srv->pkt, p->ack_sequence);
        p->ack_sequence = -1;
        conn_send_pkt(game.players[p->index]);
    }
}

void play_ack_later(player *p, int32_t seq)
{
    if (seq <= p->ack_sequence) return;
    p->ack_sequence = seq;
    if (!list_linked(&p->ack_link)) list_push_back(&game.acks, &p->ack_link);
}

/* p's window has news: scan it on the next pass of the streaming hook. */
static void stream_wake(player *p)
{
    if (!list_linked(&p->stream_link)) return; /* complete: nothing to stream */
    list_remove(&p->stream_wake_link);         /* off stream_retry, if there */
    list_push_back(&game.stream_now, &p->stream_wake_link);
}

/* world.on_ready: a chunk r listed is ready (world.h invariant 8). */
static void on_chunk_ready(world_requester *r)
{
    stream_wake(container_of(r, player, chunk_requests));
}

/* Waiting windows woken per tick whether or not the world said anything:
 * 1/STREAM_SWEEP_TICKS of them, so each is looked at every 5 s at most
 * (a chunk whose notice was lost to a failed allocation still comes). */
#define STREAM_SWEEP_TICKS 100

static void splice_into_now(list_node *from)
{
    while (!list_empty(from)) {
        list_node *n = from->next;
        list_remove(n);
        list_push_back(&game.stream_now, n);
    }
}

void play_stream_wake_due(void)
{
    static uint64_t last_tick;
    splice_into_now(&game.stream_pass);
    if (game.tick_count == last_tick) return;
    last_tick = game.tick_count;
    splice_into_now(&game.stream_retry);
    size_t slice = game.player_count / STREAM_SWEEP_TICKS + 1;
    for (size_t k = 0; k < slice && !list_empty(&game.streaming); k++) {
        player *p = list_entry(game.streaming.next, player, stream_link);
        list_move_back(&game.streaming, &p->stream_link);
        if (!list_linked(&p->stream_wake_link)) stream_wake(p);
    }
}

static void on_relit(chunk_entry *e, const uint8_t *frame, size_t len)
{
    log_debug("chunk %d,%d re-encoded after edits: Update Light to its viewers", e->c.x, e->c.z);
    play_send_to_viewers(e->c.x, e->c.z, frame, len);
}

/* A spawn column: land above sea level, with no tree trunk within 3 blocks. */
static bool good_spawn_column(int32_t x, int32_t z, int *y)
{
    int h = world_surface_y(&game.world, x, z);
    *y = h + 1;
    if (srv->cfg.level_type != LEVEL_NORMAL) return true;
    if (h < SEA_LEVEL) return false;
    for (int dx = -3; dx <= 3; dx++)
        for (int dz = -3; dz <= 3; dz++)
            if (hash_xz(game.world.terrain.seed, x + dx, z + dz, 42) % 1000 < 28) return false;
    return true;
}

void play_init(void)
{
    spiral_init();
    cmd_init(); /* day time, ops.json */
    game.world.on_relit = on_relit;
    game.world.on_ready = on_chunk_ready;
    int y = 0;
    /* Rings of growing radius around 0,0, every 4th column, up to 512 blocks out. */
    for (int r = 0; r <= 512; r += 4)
        for (int i = -r; i <= r; i += 4)
            for (int side = 0; side < 4; side++) {
                int32_t x = side < 2 ? i : (side == 2 ? -r : r);
                int32_t z = side < 2 ? (side == 0 ? -r : r) : i;
                if (good_spawn_column(x, z, &y)) {
                    game.spawn_x = x + 0.5;
                    game.spawn_y = y;
                    game.spawn_z = z + 0.5;
                    log_info("spawn point: %d, %d, %d", x, y, z);
                    return;
                }
            }
    game.spawn_x = 0.5;
    game.spawn_y = world_surface_y(&game.world, 0, 0) + 1;
    game.spawn_z = 0.5;
    log_warn("no land within 512 blocks of 0,0; spawning at 0, %d, 0", (int)game.spawn_y);
}

/* ------------------------------------------------------------ chunk window */

static void unload_chunk(conn *c, int32_t cx, int32_t cz)
{
    buf_reset(&srv->pkt);
    c->proto->cb_unload_chunk(&srv->pkt, cx, cz);
    conn_send_pkt(c);
    cv_remove(c, cx, cz);
    world_release(&game.world, cx, cz, srv->loop->now_ms);
}

/* Moves the window to (ncx, ncz) with distance nvd, unloading what falls out. */
static void window_move(conn *c, int32_t ncx, int32_t ncz, int nvd)
{
    player *p = c->player;
    uint8_t fresh[WIN_BYTES];
    memset(fresh, 0, sizeof fresh);
    for (int dx = -VIEW_DISTANCE_MAX; dx <= VIEW_DISTANCE_MAX; dx++)
        for (int dz = -VIEW_DISTANCE_MAX; dz <= VIEW_DISTANCE_MAX; dz++) {
            if (!bit_get(p->loaded, bit_index(dx, dz))) continue;
            int32_t ax = p->center_x + dx, az = p->center_z + dz;
            int32_t ndx = ax - ncx, ndz = az - ncz;
            if (abs(ndx) <= nvd && abs(ndz) <= nvd)
                bit_set(fresh, bit_index(ndx, ndz));
            else if (!c->closed)
                unload_chunk(c, ax, az);
            else {
                cv_remove(c, ax, az);
                world_release(&game.world, ax, az, srv->loop->now_ms);
            }
        }
    memcpy(p->loaded, fresh, sizeof fresh);
    p->loaded_changes++;
    world_requester_move(&game.world, &p->chunk_requests, ncx, ncz, nvd, window_area(nvd),
                         srv->loop->now_ms); /* invariant 2a */
    bool moved = ncx != p->center_x || ncz != p->center_z;
    p->center_x = ncx;
    p->center_z = ncz;
    p->view_distance = nvd;
    p->scan_pos = 0;
    p->window_complete = false;
    if (!list_linked(&p->stream_link)) list_push_back(&game.streaming, &p->stream_link);
    stream_wake(p);
    if (moved && !c->closed) {
        buf_reset(&srv->pkt);
        pkt_cb_update_view_position(&srv->pkt, ncx, ncz);
        conn_send_pkt(c);
    }
}

void play_follow_teleport(conn *c)
{
    player *p = c->player;
    int32_t cx = chunk_of(p->x), cz = chunk_of(p->z);
    if (cx != p->center_x || cz != p->center_z) window_move(c, cx, cz, p->view_distance);
}

/* Respawn: the client starts a new level, so every chunk is unloaded and the
 * window streams again around the player's (new) position. */
void play_reset_window(conn *c)
{
    player *p = c->player;
    for (int dx = -VIEW_DISTANCE_MAX; dx <= VIEW_DISTANCE_MAX; dx++)
        for (int dz = -VIEW_DISTANCE_MAX; dz <= VIEW_DISTANCE_MAX; dz++)
            if (bit_get(p->loaded, bit_index(dx, dz)))
                unload_chunk(c, p->center_x + dx, p->center_z + dz);
    memset(p->loaded, 0, WIN_BYTES);
    p->loaded_changes++;
    window_move(c, chunk_of(p->x), chunk_of(p->z), p->view_distance);
    buf_reset(&srv->pkt);
    pkt_cb_update_view_position(&srv->pkt, p->center_x, p->center_z);
    conn_send_pkt(c);
}

static void send_spawn(conn *c)
{
    player *p = c->player;
    buf_reset(&srv->pkt);
    c->proto->cb_spawn_position(&srv->pkt, (int32_t)floor(game.spawn_x),
                                (int32_t)floor(game.spawn_y), (int32_t)floor(game.spawn_z), 0.0f);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    c->proto->cb_update_time(&srv->pkt, (int64_t)game.tick_count,
                             gamerules_wire_time(game.day_time)); /* issue 17: doDaylightCycle */
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    /* Health and food as loaded or set by ent_join (full for a new player). */
    pkt_cb_update_health(&srv->pkt, p->health > 0 ? p->health : 20.0f, p->food, p->hp.saturation);
    conn_send_pkt(c);
    buf_reset(&srv->pkt);
    p->teleport_id++;
    p->teleport_pending = true;
    c->proto->cb_position(&srv->pkt, p->x, p->y, p->z, p->yaw, p->pitch, 0, p->teleport_id);
    conn_send_pkt(c);
    p->spawned = true;
    log_debug("%s: spawn sent after %llu chunks", p->name, (unsigned long long)p->chunks_sent);
}

/* True once the 3×3 chunks around the player are out (the first 9 of the spiral). */
static bool inner_ring_sent(const player *p)
{
    for (int i = 0; i < 9; i++)
        if (!bit_get(p->loaded, bit_index(spiral_offsets()[i].dx, spiral_offsets()[i].dz)))
            return false;
    return true;
}

/*
 * Sends what is ready of the window, nearest first, while the output queue
 * has room; asks the world for what is not, until the player's request
 * budget says no. scan_pos stays at the nearest chunk still missing, so
 * later scans resume there. Who scans again when (game.h): a full output
 * queue on the next pass (after the flush), the per-tick cap and an empty
 * token bucket after the next tick, the in-flight cap and chunks still
 * being made when the world says one of them is ready (world.on_ready).
 */
void play_stream_chunks(conn *c)
{
    player *p = c->player;
    if (!p || c->closed || c->state != CS_PLAY || p->window_complete) return;
    int64_t now = srv->loop->now_ms;
    int end = spiral_end(p->view_distance);
    int first_missing = -1;
    list_node *again = NULL; /* stopped by a limit: when to look again (else the world wakes p) */
    int i;
    for (i = p->scan_pos; i < end; i++) {
        struct chunk_offset o = spiral_offsets()[i];
        if (abs(o.dx) > p->view_distance || abs(o.dz) > p->view_distance ||
            bit_get(p->loaded, bit_index(o.dx, o.dz)))
            continue;
        if (conn_pending(c) >= CHUNK_SEND_WINDOW) { /* the next pass, after the flush */
            again = &game.stream_pass;
            break;
        }
        if (p->chunks_this_tick >= CHUNKS_PER_TICK) {
            again = &game.stream_retry;
            break;
        }
        int32_t cx = p->center_x + o.dx, cz = p->center_z + o.dz;
        const buf_t *frame = world_take_frame(&game.world, cx, cz);
        if (!frame) {
            if (first_missing < 0) first_missing = i;
            enum world_req_result rr = world_request(&game.world, &p->chunk_requests, cx, cz, now);
            if (rr == WORLD_REQ_WAITING) continue;
            if (rr != WORLD_REQ_FULL) again = &game.stream_retry; /* tokens come back with time */
            break; /* full: one of those in flight arriving wakes it */
        }
        world_request_done(&game.world, &p->chunk_requests, cx, cz, now);
        bit_set(p->loaded, bit_index(o.dx, o.dz));
        p->loaded_changes++;
        cv_add(c, cx, cz);
        p->chunks_sent++;
        p->chunks_this_tick++;
        conn_send_raw(c, frame->data, frame->len);
        if (c->closed) return;
    }
    if (first_missing < 0) first_missing = i;
    p->scan_pos = first_missing;
    if (p->scan_pos >= end) {
        p->window_complete = true;
        list_remove(&p->stream_link);
    } else if (again && !list_linked(&p->stream_wake_link)) {
        list_push_back(again, &p->stream_wake_link);
    }
    if (!p->spawned && (p->window_complete || inner_ring_sent(p))) send_spawn(c);
}

/* ------------------------------------------------------------------ roster */

/*
 * The tab list's joins and leaves, batched per tick (tick phase 4,
 * play_tick_roster). A joined player is announced by the first roster phase
 * after its join: before that nobody has its Player Info and it has nobody's.
 * roster.first_eid tells the two apart without a flag: entity ids grow with
 * every join, so a player whose id is below it was in the game when the last
 * roster phase ran.
 *
 *   join ─▶ in roster.joins ─phase 4─▶ announced ─leave─▶ uuid in roster.leaves ─phase 4─▶ gone
 *              └─ leave before phase 4: dropped from roster.joins, nothing sent
 *
 * Invariant: between two roster phases every client holds the Player Info
 * of exactly the announced players (newcomers: nobody's yet), each once.
 */
static struct {
    conn **joins; /* joined since the last roster phase, in join order */
    size_t njoins, joins_cap;
    mc_uuid *leaves; /* announced players that left since */
    size_t nleaves, leaves_cap;
    int32_t first_eid; /* players with this id or a later one are not announced */
    buf_t list;        /* the phase's Player Info of the players already in, framed */
} roster;

static bool roster_add(conn *c)
{
    if (roster.njoins == roster.joins_cap) {
        size_t ncap = roster.joins_cap ? roster.joins_cap * 2 : 64;
        conn **n = realloc(roster.joins, ncap * sizeof *n);
        if (!n) return false;
        roster.joins = n;
        roster.joins_cap = ncap;
    }
    roster.joins[roster.njoins++] = c;
    return true;
}

static void roster_remove(conn *c)
{
    const player *p = c->player;
    if (p->entity_id >= roster.first_eid) { /* never announced: nobody to tell */
        for (size_t i = 0; i < roster.njoins; i++)
            if (roster.joins[i] == c) {
                memmove(roster.joins + i, roster.joins + i + 1,
                        (roster.njoins - i - 1) * sizeof *roster.joins);
                roster.njoins--;
                break;
            }
        return;
    }
    if (roster.nleaves == roster.leaves_cap) {
        size_t ncap = roster.leaves_cap ? roster.leaves_cap * 2 : 64;
        mc_uuid *n = realloc(roster.leaves, ncap * sizeof *n);
        if (!n) {
            log_warn("%s stays in the tab lists: out of memory", p->name);
            return;
        }
        roster.leaves = n;
        roster.leaves_cap = ncap;
    }
    roster.leaves[roster.nleaves++] = p->uuid;
}

static struct pkt_player_entry entry_of(const player *p)
{
    struct pkt_player_entry e = {.uuid = p->uuid,
                                 .name = p->name,
                                 .gamemode = p->gamemode,
                                 .listed = true,
                                 .latency_ms = ent_tab_latency(p),
                                 .props = p->props,
                                 .prop_count = p->prop_count};
    return e;
}

/* Player Info Update (add, with skins) of e[0..n) into srv->pkt. */
static void info_add(const struct pkt_player_entry *e, size_t n)
{
    buf_reset(&srv->pkt);
    pkt_cb_player_info_add_props(&srv->pkt, e, n);
}

void play_tick_roster(void)
{
    /* Leaves: Remove Entities, then Player Info Remove (vanilla's order). A
     * player dropped while these go out is queued behind them for the next
     * tick, so only the first nl are sent now. */
    ent_tick_leaves();
    size_t nl = roster.nleaves;
    for (size_t i = 0; i < nl; i += PKT_INFO_ENTRIES_MAX) {
        buf_reset(&srv->pkt);
        pkt_cb_player_remove(&srv->pkt, roster.leaves + i,
                             nl - i < PKT_INFO_ENTRIES_MAX ? nl - i : PKT_INFO_ENTRIES_MAX);
        chat_broadcast_pkt(NULL);
    }
    if (nl) {
        memmove(roster.leaves, roster.leaves + nl, (roster.nleaves - nl) * sizeof *roster.leaves);
        roster.nleaves -= nl;
    }

    /* Joins: the newcomers get the players already in (encoded once for all
     * of them), then everyone gets the newcomers as one Player Info Update. */
    size_t nj = roster.njoins;
    int32_t first = roster.first_eid;
    roster.first_eid = game.next_entity_id; /* from here on, a leave is announced */
    if (!nj) return;
    struct pkt_player_entry e[PKT_INFO_ENTRIES_MAX];
    size_t n = 0;
    if (!roster.list.limit) buf_init(&roster.list, 32u << 20);
    buf_reset(&roster.list);
    for (size_t i = 0; i <= game.player_count; i++) {
        const player *p = i < game.player_count ? game.players[i]->player : NULL;
        if (p && p->entity_id < first) e[n++] = entry_of(p); /* newcomers: the batch below */
        if (n && (n == PKT_INFO_ENTRIES_MAX || !p)) {
            info_add(e, n);
            const buf_t *f = pkt_frame_shared();
            if (f) buf_append(&roster.list, f->data, f->len);
            n = 0;
        }
    }
    for (size_t k = 0; k < nj && roster.list.len && !roster.list.failed; k++)
        conn_send_raw(roster.joins[k], roster.list.data, roster.list.len);
    buf_reset(&roster.list);
    buf_shrink_if_idle(&roster.list, 1u << 20);
    for (size_t i = 0; i < nj; i += PKT_INFO_ENTRIES_MAX) {
        n = 0;
        for (size_t k = i; k < nj && n < PKT_INFO_ENTRIES_MAX; k++)
            e[n++] = entry_of(roster.joins[k]->player);
        info_add(e, n);
        chat_broadcast_pkt(NULL);
    }
    /* Joins arrive between ticks, so none came in meanwhile; were one to, it
     * would wait for the next phase rather than be lost. */
    memmove(roster.joins, roster.joins + nj, (roster.njoins - nj) * sizeof *roster.joins);
    roster.njoins -= nj;
}

/* Players live in a pool (core/pool.h): every tick walks them all. */
static pool player_pool = POOL_INIT(player);

void play_player_free(player *p)
{
    list_remove(&p->stream_link);
    list_remove(&p->stream_wake_link);
    list_remove(&p->ack_link);
    free(p->loaded);
    pool_free(&player_pool, p);
}

/* -------------------------------------------------------------------- join */

void play_join(conn *c, const char *name, size_t name_len, mc_uuid uuid)
{
    spiral_init();
    player *p = pool_alloc(&player_pool);
    uint8_t *loaded = calloc(1, WIN_BYTES);
    if (!p || !loaded) {
        pool_free(&player_pool, p);
        free(loaded);
        conn_kick(c, "Server out of memory");
        return;
    }
    memcpy(p->name, name, name_len);
    p->name[name_len] = 0;
    p->uuid = uuid;
    p->props = c->props; /* the skin (profile properties), for Player Info */
    p->prop_count = c->prop_count;
    p->loaded = loaded;
    p->entity_id = game.next_entity_id++;
    p->gamemode = srv->cfg.gamemode;
    p->x = game.spawn_x;
    p->y = game.spawn_y;
    p->z = game.spawn_z;
    playerdata_load(p); /* position, game mode, inventory from playerdata/<uuid>.dat */
    p->view_distance = srv->cfg.view_distance;
    p->center_x = chunk_of(p->x);
    p->center_z = chunk_of(p->z);
    world_requester_init(&p->chunk_requests, p->center_x, p->center_z,
                         window_area(p->view_distance), srv->loop->now_ms);
    p->next_keepalive_ms = srv->loop->now_ms + KEEPALIVE_INTERVAL;
    p->ack_sequence = -1;
    p->index = -1;
    list_init(&p->stream_link);
    list_init(&p->stream_wake_link);
    list_init(&p->ack_link);
    c->player = p;
    if (game_add(c) < 0 || !roster_add(c)) {
        conn_kick(c, "Server out of memory");
        return;
    }
    list_push_back(&game.streaming, &p->stream_link); /* its first window */
    stream_wake(p);

    static const char *const worlds[] = {"minecraft:overworld", "minecraft:the_nether",
                                         "minecraft:the_end"};
    struct pkt_login l = {
        .entity_id = p->entity_id,
        .hardcore = srv->cfg.hardcore,
        .gamemode = (uint8_t)p->gamemode,
        .previous_gamemode = -1,
        .world_names = worlds,
        .world_name_count = 3,
        .codec = registry_codec_nbt,
        .codec_len = registry_codec_nbt_len,
        .world_type = "minecraft:overworld",
        .world_name = "minecraft:overworld",
        .hashed_seed = hashed_seed(srv->cfg.seed),
        .max_players = srv->cfg.max_players,
        .view_distance = srv->cfg.view_distance,
        .simulation_distance = srv->cfg.simulation_distance,
        .reduced_debug_info = false,
        .enable_respawn_screen = true,
        .is_debug = false,
        .is_flat = srv->cfg.level_type == LEVEL_FLAT,
        .portal_cooldown = 0,
        .sea_level = game_sea_level(),
    };
    buf_reset(&srv->pkt);
    c->proto->cb_login(&srv->pkt, &l);
    conn_send_pkt(c);

    buf_reset(&srv->pkt);
    pkt_cb_abilities(&srv->pkt, ent_ability_flags(p->gamemode), 0.05f, 0.1f);
    conn_send_pkt(c);

    p->teleport_id = 1;
    p->teleport_pending = true;
    buf_reset(&srv->pkt);
    c->proto->cb_position(&srv->pkt, p->x, p->y, p->z, p->yaw, p->pitch, 0, p->teleport_id);
    conn_send_pkt(c);

    buf_reset(&srv->pkt);
    pkt_cb_update_view_position(&srv->pkt, p->center_x, p->center_z);
    conn_send_pkt(c);

    if (c->proto->configuration) {
        /* 1.20.3+: the client waits on its loading screen for this event
         * (level_chunks_load_start) before it takes the world as loading. */
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, 13, 0.0f);
        conn_send_pkt(c);
    }

    char id[37];
    uuid_format(&uuid, id);
    log_info("%s[/%s] logged in with entity id %d at (%.1f, %.1f, %.1f), uuid %s", p->name, c->addr,
             p->entity_id, p->x, p->y, p->z, id);
    ent_join(c);    /* spawned for others next tick, after the Player Info (roster) */
    health_join(c); /* issue 14: hunger, air, spawn protection (game/health.c) */
    cmd_join(c);    /* command tree, op level, tab list header, weather */
    playerdata_send_inventory(c);
    log_info("%s joined the game", p->name); /* vanilla's line: panels and chat bridges watch it */
    game.joins++;
    announce("multiplayer.player.joined", p->name);
    plugin_event_join(c); /* plugins */
    play_stream_chunks(c);
}

/* -------------------------------------------------------------------- leave */

void play_leave(conn *c)
{
    player *p = c->player;
    if (!p) return;
    list_remove(&p->stream_link);
    list_remove(&p->stream_wake_link);
    list_remove(&p->ack_link);
    inventory_leave(c);  /* crafting grid and cursor back into the inventory */
    beds_wake_now(c);    /* issue 21: out of the bed before the file is written */
    playerdata_leave(p); /* queues playerdata/<uuid>.dat (world/store.h) */
    /* Release every chunk the player held (no packets: it is leaving). */
    for (int dx = -VIEW_DISTANCE_MAX; dx <= VIEW_DISTANCE_MAX; dx++)
        for (int dz = -VIEW_DISTANCE_MAX; dz <= VIEW_DISTANCE_MAX; dz++)
            if (bit_get(p->loaded, bit_index(dx, dz))) {
                cv_remove(c, p->center_x + dx, p->center_z + dz);
                world_release(&game.world, p->center_x + dx, p->center_z + dz, srv->loop->now_ms);
            }
    memset(p->loaded, 0, WIN_BYTES);
    world_requester_clear(&game.world, &p->chunk_requests, srv->loop->now_ms);
    ent_leave(c);     /* Remove Entities to whoever saw the player: next tick */
    roster_remove(c); /* then Player Info Remove, in the same roster phase */
    log_info("%s left the game", p->name);
    game.quits++;
    announce("multiplayer.player.left", p->name);
}

/* --------------------------------------------------------------------- tick */

void play_tick(conn *c)
{
    player *p = c->player;
    if (!p) return;
    p->chunks_this_tick = 0;
    if (p->chat_spam > 0) p->chat_spam--; /* vanilla chatSpamTickCount */
    /* vanilla resetPosition(): the speed check measures from here */
    p->first_good_x = p->x;
    p->first_good_y = p->y;
    p->first_good_z = p->z;
    p->move_packets_known = p->move_packets;
    if (p->keepalive_pending && srv->loop->now_ms - p->keepalive_sent_ms >= KEEPALIVE_TIMEOUT) {
        conn_kick(c, "Timed out");
        return;
    }
    if (!p->keepalive_pending && srv->loop->now_ms >= p->next_keepalive_ms) {
        p->keepalive_id = clock_wall_ms();
        p->keepalive_sent_ms = srv->loop->now_ms;
        p->keepalive_pending = true;
        p->next_keepalive_ms = srv->loop->now_ms + KEEPALIVE_INTERVAL;
        buf_reset(&srv->pkt);
        pkt_cb_keep_alive(&srv->pkt, p->keepalive_id);
        conn_send_pkt(c);
    }
    health_tick_player(c); /* the environment, food, eating; Set Health */
    if (c->closed || !c->player) return;
    if (inventory_due(p, c->id)) inventory_tick(c); /* changed slots to the client */
}

/* ------------------------------------------------------------------ input */

/*
 * Serverbound handlers are named <module>_sb_<packet>, the packet as
 * minecraft-data (and so data/packet_ids.h) names it: play_sb_position here,
 * interact_sb_block_dig, ent_sb_arm_animation, chat_sb_chat_message,
 * cmd_sb_chat_command. Each reads its payload from r; play_dispatch checks
 * afterwards that it was well-formed and read to the end.
 */
typedef void (*play_handler)(conn *c, rd_t *r);

static void play_sb_teleport_confirm(conn *c, rd_t *r)
{
    int32_t id = rd_varint(r);
    player *p = c->player;
    if (r->err || !p->teleport_pending || id != p->teleport_id) return; /* invariant 3 */
    p->teleport_pending = false;
    health_teleported(c); /* issue 14: a fall starts again here */
    /* The client is where it was sent: the speed check measures from there. */
    p->first_good_x = p->x;
    p->first_good_y = p->y;
    p->first_good_z = p->z;
}

static void play_sb_keep_alive(conn *c, rd_t *r)
{
    int64_t id = rd_i64(r);
    player *p = c->player;
    if (!r->err && p->keepalive_pending && id == p->keepalive_id) {
        p->keepalive_pending = false;
        ent_keepalive_rtt(c, srv->loop->now_ms - p->keepalive_sent_ms); /* tab-list latency */
    }
}

static void play_sb_settings(conn *c, rd_t *r)
{
    struct pkt_settings s;
    c->proto->sb_settings(r, &s);
    if (r->err) return;
    player *p = c->player;
    ent_settings(c, s.skin_parts, s.main_hand, s.chat_mode); /* seen by others; chat visibility */
    int nvd = s.view_distance < srv->cfg.view_distance ? s.view_distance : srv->cfg.view_distance;
    if (nvd < 2) nvd = 2;
    if (nvd != p->view_distance) window_move(c, p->center_x, p->center_z, nvd);
}

static const char invalid_move_json[] =
    "{\"translate\":\"multiplayer.disconnect.invalid_player_movement\","
    "\"fallback\":\"Invalid move player packet received\"}";

/* Sends the player back to where the server has it, under a new teleport id;
 * movement is ignored until the client confirms that id. */
static void teleport_back(conn *c)
{
    player *p = c->player;
    p->teleport_id++;
    p->teleport_pending = true;
    buf_reset(&srv->pkt);
    c->proto->cb_position(&srv->pkt, p->x, p->y, p->z, p->yaw, p->pitch, 0, p->teleport_id);
    conn_send_pkt(c);
}

/* Mth.wrapDegrees: any finite angle into [-180, 180). */
static float wrap_degrees(float deg)
{
    float d = fmodf(deg, 360.0f);
    if (d >= 180.0f) d -= 360.0f;
    if (d < -180.0f) d += 360.0f;
    return d;
}

/* Invariant 4 (vanilla handleMovePlayer). false: refused (teleported back). */
static bool speed_ok(conn *c, double x, double y, double z)
{
    player *p = c->player;
    p->move_packets++;
    uint32_t n = p->move_packets - p->move_packets_known;
    if (n > 5) {
        log_debug("%s is sending move packets too frequently (%u packets since last tick)", p->name,
                  n);
        n = 1;
    }
    double dx = x - p->first_good_x, dy = y - p->first_good_y, dz = z - p->first_good_z;
    double limit = (p->fall_flying ? 300.0 : 100.0) * n;
    if (dx * dx + dy * dy + dz * dz <= limit) return true;
    log_warn("%s moved too quickly! %f,%f,%f", p->name, dx, dy, dz);
    limits_stats.moved_too_quickly++;
    teleport_back(c);
    return false;
}

static void moved(conn *c, double x, double y, double z, bool has_pos, float yaw, float pitch,
                  bool has_look, bool on_ground)
{
    player *p = c->player;
    if ((has_pos && (!isfinite(x) || !isfinite(y) || !isfinite(z) || fabs(x) > MAX_COORD ||
                     fabs(z) > MAX_COORD || fabs(y) > MAX_Y_COORD)) ||
        (has_look && (!isfinite(yaw) || !isfinite(pitch)))) {
        conn_kick_reason(c, KR_INVALID_PACKET, invalid_move_json,
                         "Invalid move player packet received");
        return;
    }
    if (p->teleport_pending) return;
    if (!speed_ok(c, has_pos ? x : p->x, has_pos ? y : p->y, has_pos ? z : p->z)) return;
    if (has_pos && !border_move_ok(c, x, z)) return; /* issue 17: the world border (border.h) */
    if (on_ground) p->fall_flying = false;
    double ox = p->x, oy = p->y, oz = p->z; /* issue 14: falls (game/health.c) */
    if (has_pos) {
        p->x = x;
        p->y = y;
        p->z = z;
    }
    if (has_look) {
        /* vanilla: Mth.wrapDegrees on both, then setXRot clamps the pitch */
        p->yaw = wrap_degrees(yaw);
        p->pitch = fminf(90.0f, fmaxf(-90.0f, wrap_degrees(pitch)));
    }
    p->on_ground = on_ground;
    health_moved(c, ox, oy, oz, on_ground); /* issue 14 */
    if (c->closed) return;
    plugin_event_move(c); /* plugins */
    int32_t cx = chunk_of(p->x), cz = chunk_of(p->z);
    if (cx != p->center_x || cz != p->center_z) window_move(c, cx, cz, p->view_distance);
}

static void play_sb_position(conn *c, rd_t *r)
{
    double x = rd_f64(r), y = rd_f64(r), z = rd_f64(r);
    bool g = rd_bool(r);
    if (!r->err) moved(c, x, y, z, true, 0, 0, false, g);
}

static void play_sb_position_look(conn *c, rd_t *r)
{
    double x = rd_f64(r), y = rd_f64(r), z = rd_f64(r);
    float yaw = rd_f32(r), pitch = rd_f32(r);
    bool g = rd_bool(r);
    if (!r->err) moved(c, x, y, z, true, yaw, pitch, true, g);
}

static void play_sb_look(conn *c, rd_t *r)
{
    float yaw = rd_f32(r), pitch = rd_f32(r);
    bool g = rd_bool(r);
    if (!r->err) moved(c, 0, 0, 0, false, yaw, pitch, true, g);
}

static void play_sb_flying(conn *c, rd_t *r)
{
    bool g = rd_bool(r);
    if (!r->err) moved(c, 0, 0, 0, false, 0, 0, false, g);
}

/* Player Command: notes elytra flight (the speed check allows more), then the
 * entity module handles the rest from a fresh reader. */
static void play_sb_entity_action(conn *c, rd_t *r)
{
    static int elytra = -1;
    if (elytra < 0) {
        elytra = 0;
        for (int i = 1; i < ITEM_COUNT; i++)
            if (item_info[i].name && strcmp(item_info[i].name, "elytra") == 0) elytra = i;
    }
    rd_t peek = *r;
    rd_varint(&peek); /* entity id */
    int32_t action = rd_varint(&peek);
    player *p = c->player;
    if (!peek.err && action == 8 && !p->on_ground && elytra > 0 && p->inventory[6].item == elytra)
        p->fall_flying = true; /* start flying with elytra */
    if (!peek.err && (action == 3 || action == 4)) health_sprinting(c, action == 3); /* issue 14 */
    ent_sb_entity_action(c, r);
}

/*
 * Plugin Message: vanilla 1.20.1 reads the channel (readResourceLocation,
 * readUtf(32767)) and at most PLUGIN_DATA_MAX bytes of data; more is a
 * decoder error (ServerboundCustomPayloadPacket: "Payload may not be larger
 * than 32767 bytes") and the connection is closed with the exception's text.
 * mcserv acts on no channel: the data is skipped.
 */
#define PLUGIN_DATA_MAX 32767

static void play_sb_custom_payload(conn *c, rd_t *r)
{
    size_t len;
    rd_string(r, 32767, &len);
    if (r->err) return;
    if (rd_left(r) > PLUGIN_DATA_MAX) {
        conn_kick(c, "Internal Exception: io.netty.handler.codec.DecoderException: "
                     "java.lang.IllegalArgumentException: Payload may not be larger than 32767 "
                     "bytes");
        return;
    }
    rd_skip(r, rd_left(r));
}

/* Issue 14: an arm swing starts the attack strength again (game/health.c);
 * Player Action tells health.c of a finished break (exhaustion) and of the
 * use button released (eating stops). The modules then read the packet. */
static void play_sb_arm_animation(conn *c, rd_t *r)
{
    if (c->player->health > 0) health_swing(c);
    ent_sb_arm_animation(c, r);
}

static void play_sb_block_dig(conn *c, rd_t *r)
{
    rd_t peek = *r;
    int32_t status = rd_varint(&peek);
    player *p = c->player;
    if (!peek.err && status == 5) health_release_item(c);
    if (!peek.err && status == 2 && (p->gamemode == 0 || p->gamemode == 2)) health_mined(c);
    interact_sb_block_dig(c, r);
}

static const play_handler play_handlers[PKT_PLAY_SB_COUNT] = {
    [PKT_PLAY_SB_TELEPORT_CONFIRM] = play_sb_teleport_confirm,
    [PKT_PLAY_SB_KEEP_ALIVE] = play_sb_keep_alive,
    [PKT_PLAY_SB_SETTINGS] = play_sb_settings,
    [PKT_PLAY_SB_POSITION] = play_sb_position,
    [PKT_PLAY_SB_POSITION_LOOK] = play_sb_position_look,
    [PKT_PLAY_SB_LOOK] = play_sb_look,
    [PKT_PLAY_SB_FLYING] = play_sb_flying,
    [PKT_PLAY_SB_BLOCK_DIG] = play_sb_block_dig,
    [PKT_PLAY_SB_BLOCK_PLACE] = interact_sb_block_place,
    [PKT_PLAY_SB_SET_CREATIVE_SLOT] = interact_sb_set_creative_slot,
    [PKT_PLAY_SB_HELD_ITEM_SLOT] = interact_sb_held_item_slot,
    [PKT_PLAY_SB_WINDOW_CLICK] = inventory_sb_window_click, /* game/inventory.c */
    [PKT_PLAY_SB_CLOSE_WINDOW] = inventory_sb_close_window,
    [PKT_PLAY_SB_CHAT_MESSAGE] = chat_sb_chat_message,
    [PKT_PLAY_SB_CHAT_COMMAND] = cmd_sb_chat_command,
    [PKT_PLAY_SB_TAB_COMPLETE] = cmd_sb_tab_complete,
    [PKT_PLAY_SB_ENTITY_ACTION] = play_sb_entity_action,
    [PKT_PLAY_SB_ARM_ANIMATION] = play_sb_arm_animation,
    [PKT_PLAY_SB_USE_ENTITY] = combat_sb_use_entity, /* issue 14: attacks */
    [PKT_PLAY_SB_USE_ITEM] = interact_sb_use_item,   /* issue 14: eating; 21: buckets */
    [PKT_PLAY_SB_CLIENT_COMMAND] = ent_sb_client_command,
    [PKT_PLAY_SB_CUSTOM_PAYLOAD] = play_sb_custom_payload,
};

/* Packets that count as a player doing something (player-idle-timeout);
 * movement counts when the position or the look changed (idle_check). */
static bool is_action(int32_t id)
{
    switch (id) {
    case PKT_PLAY_SB_CHAT_COMMAND:
    case PKT_PLAY_SB_CHAT_MESSAGE:
    case PKT_PLAY_SB_CLIENT_COMMAND:
    case PKT_PLAY_SB_WINDOW_CLICK:
    case PKT_PLAY_SB_USE_ENTITY:
    case PKT_PLAY_SB_BLOCK_DIG:
    case PKT_PLAY_SB_ENTITY_ACTION:
    case PKT_PLAY_SB_HELD_ITEM_SLOT:
    case PKT_PLAY_SB_SET_CREATIVE_SLOT:
    case PKT_PLAY_SB_ARM_ANIMATION:
    case PKT_PLAY_SB_BLOCK_PLACE:
    case PKT_PLAY_SB_USE_ITEM:
    case PKT_PLAY_SB_PICK_ITEM: return true;
    default: return false;
    }
}

void play_dispatch(conn *c, int32_t id, rd_t *r)
{
    if (is_action(id)) c->player->last_action_ms = srv->loop->now_ms; /* player-idle-timeout */
    if (id < 0 || id >= PKT_PLAY_SB_COUNT) {
        conn_kick(c, "Unknown packet id");
        return;
    }
    if (!limits_play_packet(c, id, rd_left(r))) return; /* dropped, or kicked (net/limits.h) */
    inventory_touch(c->player);                         /* its slots may change (player.h) */
    play_handler h = play_handlers[id];
    if (!h) return; /* packets this server does not act on yet are read and ignored */
    h(c, r);
    if (c->closed || c->state != CS_PLAY) return;
    char why[128];
    if (r->err) {
        snprintf(why, sizeof why, "Malformed packet 0x%02x: %s", id, rd_strerror(r->err));
        conn_kick(c, why);
    } else if (rd_left(r) > 0) {
        /* vanilla: every byte of a packet must be read */
        snprintf(why, sizeof why,
                 "Packet 0x%02x was larger than I expected, found %zu bytes extra whilst "
                 "reading packet 0x%02x",
                 id, rd_left(r), id);
        conn_kick_reason(c, KR_INVALID_PACKET, NULL, why);
    }
}
