/*
 * game.c — see game.h: setting the game up, the player list, and the
 * handlers net/ calls (struct net_game): admission, join, PLAY packets,
 * leave and release.
 */
#include "game/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "admin/mgmt.h" /* issue 20 */
#include "core/log.h"
#include "core/workers.h"
#include "game/admission.h"
#include "game/items.h"
#include "game/mobs.h"
#include "game/play.h"
#include "game/plugins.h"        /* plugins */
#include "game/redstone_world.h" /* issue 21 */
#include "game/tick.h"
#include "game/worldsim.h" /* issue 21 */
#include "net/limits.h"
#include "world/block_ticks.h" /* issue 21 */
#include "world/terrain.h"

struct game game;

/* ------------------------------------------------------------- player list */

int game_add(conn *c)
{
    if (game.player_count == game.player_cap) {
        size_t ncap = game.player_cap ? game.player_cap * 2 : 64;
        conn **np = realloc(game.players, ncap * sizeof *np);
        if (!np) return -1;
        game.players = np;
        game.player_cap = ncap;
    }
    c->player->index = (int)game.player_count;
    game.players[game.player_count++] = c;
    c->player->last_action_ms = srv->loop->now_ms;
    status_invalidate();
    mgmt_notify_player_joined(c->player->name, &c->player->uuid); /* issue 20 */
    return 0;
}

/* Invariant 2: the last player takes the gap. */
static void game_remove(conn *c)
{
    int i = c->player->index;
    if (i < 0) return;
    conn *last = game.players[game.player_count - 1];
    game.players[i] = last;
    last->player->index = i;
    game.player_count--;
    c->player->index = -1;
}

/* ------------------------------------------------------- the net handlers */

/* Takes a player out of the game (once): others are told, chunks released. */
static void game_leave(conn *c)
{
    if (!c->player || c->player->index < 0) return; /* the join failed */
    plugin_event_leave(c);                          /* plugins: still in game.players */
    game_remove(c);
    play_leave(c);
    status_invalidate();
    mgmt_notify_player_left(c->player->name, &c->player->uuid); /* issue 20 */
}

static void game_release(conn *c)
{
    play_player_free(c->player);
    c->player = NULL;
}

static size_t game_online(void)
{
    return game.player_count;
}

static size_t game_sample(const char **names, mc_uuid *uuids, size_t max)
{
    size_t n = 0;
    for (; n < game.player_count && n < max; n++) {
        names[n] = game.players[n]->player->name;
        uuids[n] = game.players[n]->player->uuid;
    }
    return n;
}

const struct net_game game_net = {
    .admit = admission_check,
    .join = play_join,
    .packet = play_dispatch,
    .leave = game_leave,
    .release = game_release,
    .online = game_online,
    .sample = game_sample,
};

/* ------------------------------------------------------------- loop hooks */

/* Streams to the players that have news (game.stream_now), not to every
 * incomplete window on every pass: a player waiting for generation is
 * woken by the world when a chunk it asked for is ready (world.on_ready),
 * one stopped by a per-tick limit after the next tick (play.c). */
static void stream_hook(void *arg)
{
    (void)arg;
    play_stream_wake_due();
    while (!list_empty(&game.stream_now)) {
        player *p = list_entry(game.stream_now.next, player, stream_wake_link);
        list_remove(&p->stream_wake_link);
        play_stream_chunks(game.players[p->index]); /* may put p on stream_retry */
    }
}

static void workers_event(loop_watch *w, uint32_t events)
{
    (void)w, (void)events;
    workers_drain();
}

/* ------------------------------------------------------------------ setup */

int game_init(loop *l, const struct server_config *cfg, int nworkers)
{
    game.next_entity_id = 1;
    list_init(&game.streaming);
    list_init(&game.stream_now);
    list_init(&game.stream_pass);
    list_init(&game.stream_retry);
    list_init(&game.acks);
    loop_watch_init(&game.workers_watch, workers_event);
    limits_debug_install(cfg); /* debug-* fault injection; before any worker does I/O */
    char err[512];
    if (world_init(&game.world, cfg, err, sizeof err) < 0) {
        log_error("%s", err);
        return -1;
    }
    worldsim_init(); /* issue 21: block ticks, fluids, falling blocks, growth */
    if (nworkers == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        nworkers = cpus > 1 ? (int)cpus - 1 : 1;
    }
    if (nworkers > 0) {
        int wfd = workers_start(nworkers, 6);
        if (wfd < 0) {
            log_error("cannot start %d worker threads", nworkers);
            return -1;
        }
        loop_watch_add(l, &game.workers_watch, wfd, EPOLLIN);
    }
    play_init();
    server_set_game(&game_net);
    if (loop_hook_add(l, GAME_HOOK_STREAM, stream_hook, NULL) < 0) {
        log_error("event loop: no room for the chunk streaming hook");
        return -1;
    }
    plugins_init(); /* plugins */
    return 0;
}

void game_free(void)
{
    tick_stop();
    loop_watch_del(srv->loop, &game.workers_watch);
    workers_stop();
    plugins_free(); /* plugins: after the pool, so the last storage writes run inline */
    world_free(&game.world);
    block_ticks_free(); /* issue 21 */
    redstone_free();
    items_free();
    mobs_free(); /* issue 15 */
    free(game.players);
    game.players = NULL;
    game.player_count = game.player_cap = 0;
}

int game_sea_level(void)
{
    return srv->cfg.level_type == LEVEL_FLAT ? -63 : SEA_LEVEL;
}
