/*
 * tick.c — the game tick, one function calling its phases in order (libuv
 * lists uv_run's phases the same way). Packets are applied as they are read,
 * between ticks (docs/design.md says why there is no input queue); a tick
 * then runs:
 *
 *   0. debug stall  debug-tick-stall-ms sleeps here (fault injection, tests)
 *   1. connections  connections past their deadline are closed (10 s to Login
 *                   Start, 30 s to PLAY, 1 s to flush a kick); idle output
 *                   buffers are trimmed once a second (net/server.c)
 *   2. players      one pass over the players, each done while its state is
 *                   in cache: keep-alive sent or timed out, chat spam
 *                   decay, the movement check's baseline reset
 *                   (game/play.c play_tick); the void, air, lava and fire,
 *                   suffocation, hunger and regeneration, eating, Set
 *                   Health where it changed (game/health.c); the inventory
 *                   sync, when anything can have changed (game/inventory.c)
 *  2a. plugins      scheduled tasks, move and tick events (game/plugins.c)
 *  2b. world sim    neighbour updates deferred by max-chained-neighbor-updates,
 *                   due scheduled block then fluid ticks (at most 65,536
 *                   each), random ticks, in the columns within simulation
 *                   distance of a player: fluids, falling blocks, crops
 *                   (world/block_ticks.c, game/worldsim.c); issue 21
 *   3. block updates  the tick's block changes as Block Update / Update
 *                   Section Blocks to every viewer, then the acknowledgements
 *                   (game/play.c)
 *   4. roster       the tab list's changes since the last tick: the players
 *                   who left (one Remove Entities per viewer, then one Player
 *                   Info Remove), then those who joined (the players already
 *                   in, to them; one Player Info Update with all of them, to
 *                   everyone) (game/play.c, game/entities.c)
 *   5. entities     deaths, interest cells, tracking: spawns (a Bundle each)
 *                   and removals (game/entities.c)
 *   6. movement relay  what changed about each entity, encoded once per
 *                   cell, delivered to its viewers (game/entities.c)
 *   6b. item entities  physics, merging, pickups, despawns, tracking and position
 *                   updates of dropped items (game/items.c)
 *   6c. mobs        AI (goal selectors), physics, deaths and drops, then their
 *                   tracking (spawns, one Remove Entities per viewer) and
 *                   movement relay, encoded once per cell (game/mobs.c,
 *                   mob_track.c); the first tick loads entities/ (mob_save.c).
 *                   Issue 15: first the pathfinding budget (game/mob_ai.c),
 *                   hostile goals, arrows (game/projectile.c), creepers' fuses and
 *                   explosions (game/mob_creeper.c, explosion.c: blocks to
 *                   air for phase 3 of the next tick, the Explosion packet
 *                   now), and after the mobs natural spawning
 *                   (game/mob_spawn.c); spawns within each viewer's
 *                   per-tick budget, bundled (mob_track.c)
 *   7. clock        day time and weather, ops.json written
 *                   if it changed (game/daytime.c, chat.c, ops.c)
 *   8. idle players  player-idle-timeout kicks, checked once a second
 *   9. limits       the IP table swept, refusal summaries, slow clients
 *                   dropped (net/limits.c)
 *  10. world        edits flushed into chunks (re-encoded on the workers);
 *                   every 20 ticks, chunks nobody sees are unloaded
 *  11. saving       autosave and queued chunk and player saves (world/store.c)
 *
 * Joins and leaves happen between ticks (or, a player dropped for a full
 * output buffer, during one); what others must be told waits for phase 4,
 * so a tick's twenty joins are one packet to each player already in.
 *
 * Chunk streaming is not a tick phase: a before-sleep hook (game/game.c)
 * sends players chunks every loop pass, as their output drains, so a join
 * is paced by the client and not by the tick; it looks only at the windows
 * with news (game.stream_now: see play_stream_chunks).
 *
 * Tick breakdown (core/tickstat.h, game/perf.c): each phase call is wrapped
 * in TICK_PHASE(id, call), which ends phase id after the call (the phases
 * tile the tick: the first begins with it, each ends where the next
 * begins, so they add up to the tick); the loop
 * work between two ticks (network read and decode, chunk streaming, the
 * flush) is taken from the loop's running totals at the start of the tick
 * it fed. phase_names[] is the table /api/tick, /metrics and `tick query`
 * print: one entry per phase above, then the three between ticks.
 *
 * Scheduling (as vanilla's MinecraftServer.runServer): one tick every TICK_MS
 * on the loop's monotonic clock, at most one per loop pass so input and
 * output are served between ticks. A schedule more than 2 s behind skips
 * the missed ticks (no catch-up burst) with "Can't keep up!", logged at
 * most once per 15 s; a smaller lag is caught up one tick per pass without
 * sleeping (the timer is re-armed in the past).
 */
#include "game/beds.h" /* issue 21 */
#include "game/tick.h"

#include <string.h>

#include "core/log.h"
#include "core/tickstat.h"
#include "game/chat.h"
#include "game/daytime.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/health.h"
#include "game/items.h"
#include "game/mobs.h"
#include "game/ops.h"
#include "game/perf.h"
#include "game/play.h"
#include "game/plugins.h"  /* plugins */
#include "game/worldsim.h" /* issue 21 */
#include "net/limits.h"
#include "net/server.h"
#include "world/store.h"

#define SKIP_BEHIND_MS   2000
#define OVERLOAD_WARN_MS 15000
#define IDLE_CHECK_MS    1000

static struct {
    loop *loop;
    loop_timer timer;
    int64_t next_ms;          /* when the next tick is due */
    int64_t overload_warn_ms; /* the last "Can't keep up!" */
} ticker;

/* The phases of the breakdown, in the order of the list above; the last
 * three are loop work between ticks (TP_IN_TICK of them are inside). */
enum tick_phase {
    TP_STALL,
    TP_CONNECTIONS,
    TP_PLAYERS,
    TP_PLUGINS,
    TP_WORLDSIM,
    TP_BLOCKS,
    TP_ROSTER,
    TP_ENTITIES,
    TP_RELAY,
    TP_ITEMS,
    TP_MOBS,
    TP_CLOCK,
    TP_IDLE,
    TP_LIMITS,
    TP_WORLD,
    TP_SAVING,
    TP_IN_TICK,
    TP_NET_READ = TP_IN_TICK, /* ready sockets read, decoded and handled (core/loop.c steps 5-7) */
    TP_STREAM,                /* GAME_HOOK_STREAM: chunks into connections with room */
    TP_FLUSH,                 /* NET_HOOK_FLUSH: one write per connection */
    TP_COUNT
};
static const char *const phase_names[TP_COUNT] = {
    "debug_stall",   "connections", "players",      "plugins",        "world_sim",
    "block_updates", "roster",      "entities",     "movement_relay", "items",
    "mobs",          "clock",       "idle",         "limits",         "world",
    "saving",        "net_read",    "chunk_stream", "flush"};

/* Runs the call (or block) as phase id of the breakdown: the phases tile
 * the tick (each ends where the next begins; core/tickstat.h). */
#define TICK_PHASE(id, ...)                                                                        \
    do {                                                                                           \
        __VA_ARGS__;                                                                               \
        tickstat_phase_end(id);                                                                    \
    } while (0)

static const char idling_json[] = "{\"translate\":\"multiplayer.disconnect.idling\","
                                  "\"fallback\":\"You have been idle for too long!\"}";

/* Phase 8, player-idle-timeout (minutes; vanilla): once a second, a player
 * whose position or look changed is active; one idle longer than the
 * timeout is kicked. Actions (game/play.c) also count as activity. */
static void idle_check(void)
{
    int64_t now = srv->loop->now_ms;
    if (srv->cfg.player_idle_timeout <= 0 || now < game.next_idle_check_ms) return;
    game.next_idle_check_ms = now + IDLE_CHECK_MS;
    int64_t limit = (int64_t)srv->cfg.player_idle_timeout * 60000;
    for (size_t i = 0; i < game.player_count; i++) {
        player *p = game.players[i]->player;
        float pos[5] = {(float)p->x, (float)p->y, (float)p->z, p->yaw, p->pitch};
        if (memcmp(pos, p->idle_pos, sizeof pos) != 0) {
            memcpy(p->idle_pos, pos, sizeof pos);
            p->last_action_ms = now;
        }
    }
    for (size_t i = game.player_count; i-- > 0;) {
        conn *c = game.players[i];
        if (now - c->player->last_action_ms > limit)
            conn_kick_reason(c, KR_IDLE, idling_json, "You have been idle for too long!");
    }
}

/* The loop passes since the last tick, for the breakdown. */
static void between_ticks(void)
{
    tickstat_between(TP_NET_READ, srv->loop->dispatch_ns);
    tickstat_between(TP_STREAM, loop_hook_ns(srv->loop, GAME_HOOK_STREAM));
    tickstat_between(TP_FLUSH, loop_hook_ns(srv->loop, NET_HOOK_FLUSH));
}

static void play_tick_all(void)
{
    /* backwards, so a kick (which swaps the last player into the gap)
     * never skips anyone. The players ahead are prefetched (their
     * connection 8 ahead, then the player's lines 4 ahead): the pass is a
     * few cache lines per player, so memory latency, not work, bounds it. */
    conn **pl = game.players;
    for (size_t i = game.player_count; i-- > 0;) {
        if (i >= 8) __builtin_prefetch(&pl[i - 8]->player);
        if (i >= 4 && pl[i - 4]->player) player_prefetch(pl[i - 4]->player);
        if (i < game.player_count) play_tick(game.players[i]);
    }
}

void tick_run(void)
{
    between_ticks();
    tickstat_begin();
    game.tick_count++;
    TICK_PHASE(TP_STALL, limits_debug_tick(game.tick_count)); /* 0: tests only */
    TICK_PHASE(TP_CONNECTIONS, server_expire());              /* 1 */
    TICK_PHASE(TP_PLAYERS, play_tick_all());                  /* 2 */
    TICK_PHASE(TP_PLUGINS, plugins_tick());                   /* 2a: plugins */
    TICK_PHASE(TP_WORLDSIM, worldsim_tick());                 /* 2b: issue 21 */
    TICK_PHASE(TP_BLOCKS, play_broadcast_blocks());           /* 3 */
    TICK_PHASE(TP_ROSTER, play_tick_roster());                /* 4: leaves, then joins */
    TICK_PHASE(TP_ENTITIES, ent_tick_tracking());             /* 5 */
    TICK_PHASE(TP_RELAY, ent_tick_relay());                   /* 6 */
    TICK_PHASE(TP_ITEMS, items_tick());                       /* 6b */
    TICK_PHASE(TP_MOBS, mobs_tick());                         /* 6c */
    TICK_PHASE(TP_CLOCK, {
        beds_tick();    /* 7: issue 21, sleeping and the night skip */
        daytime_tick(); /* 7: day time, Update Time, the weather timer */
        ops_flush();    /*    a changed ops.json queued for saving */
    });
    TICK_PHASE(TP_IDLE, idle_check());                     /* 8 */
    TICK_PHASE(TP_LIMITS, limits_tick(srv->loop->now_ms)); /* 9 */
    TICK_PHASE(TP_WORLD, {                                 /* 10 */
                           world_flush_edits(&game.world);
                           if (game.tick_count % 20 == 0)
                               world_sweep(&game.world, srv->loop->now_ms);
    });
    TICK_PHASE(TP_SAVING, store_tick(srv->loop->now_ms)); /* 11 */
    tickstat_end();
}

static void tick_due(loop_timer *t)
{
    (void)t;
    int64_t now = ticker.loop->now_ms;
    int64_t behind = now - ticker.next_ms;
    if (behind > SKIP_BEHIND_MS) {
        int64_t skipped = behind / TICK_MS;
        ticker.next_ms += skipped * TICK_MS;
        if (ticker.next_ms - ticker.overload_warn_ms >= OVERLOAD_WARN_MS) {
            log_warn("Can't keep up! Is the server overloaded? Running %lldms or %lld ticks behind",
                     (long long)behind, (long long)skipped);
            ticker.overload_warn_ms = ticker.next_ms;
        }
    }
    if (now >= ticker.next_ms) {
        ticker.next_ms += TICK_MS;
        tick_run();
    }
    loop_timer_at(ticker.loop, &ticker.timer, ticker.next_ms);
}

void tick_start(loop *l)
{
    tickstat_set_phases(phase_names, TP_COUNT, TP_IN_TICK);
    perf_start(l); /* the slow-tick monitor, the background sampler (game/perf.h) */
    ticker.loop = l;
    loop_update_clock(l);
    ticker.next_ms = l->now_ms + TICK_MS;
    loop_timer_init(&ticker.timer, tick_due);
    loop_timer_at(l, &ticker.timer, ticker.next_ms);
}

void tick_stop(void)
{
    if (ticker.loop) loop_timer_stop(ticker.loop, &ticker.timer);
    perf_stop();
}
