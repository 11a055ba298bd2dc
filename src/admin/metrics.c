/*
 * metrics.c — see metrics.h. One series per block: HELP, TYPE, samples.
 */
#include "admin/metrics.h"

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "admin/admin.h"
#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/tickstat.h"
#include "core/workers.h"
#include "data/version.h"
#include "game/game.h"
#include "game/items.h"
#include "game/mobs.h"
#include "net/server.h"
#include "world/block_ticks.h"
#include "world/store.h"

static const char *const state_names[CONN_STATES] = {"handshake", "status",        "login",
                                                     "play",      "configuration", "closing"};

void metrics_label_value(buf_t *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            buf_lit(out, "\\\\");
        else if (*s == '"')
            buf_lit(out, "\\\"");
        else if (*s == '\n')
            buf_lit(out, "\\n");
        else
            buf_append(out, s, 1);
    }
}

static void head(buf_t *b, const char *name, const char *type, const char *help)
{
    char line[512];
    int n = snprintf(line, sizeof line, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
    buf_append(b, line, (size_t)n);
}

/* A sample's value and the end of its line. */
static void num(buf_t *b, double v)
{
    admin_number(b, v, "%.9g");
    buf_lit(b, "\n");
}

/* A sample without labels: "name value". */
static void sample(buf_t *b, const char *name, double v)
{
    buf_append(b, name, strlen(name));
    buf_lit(b, " ");
    num(b, v);
}

/* A sample with labels: name{l1="v1",l2="v2"} v; l2 NULL for one label. */
static void sample2(buf_t *b, const char *name, const char *l1, const char *v1, const char *l2,
                    const char *v2, double v)
{
    buf_append(b, name, strlen(name));
    for (int i = 0; i < 2; i++) {
        const char *l = i ? l2 : l1;
        if (!l) break;
        buf_append(b, i ? "," : "{", 1);
        buf_append(b, l, strlen(l));
        buf_lit(b, "=\"");
        metrics_label_value(b, i ? v2 : v1);
        buf_lit(b, "\"");
    }
    buf_lit(b, "} ");
    num(b, v);
}

/* A sample with one label: name{label="value"} v. */
static void sample1(buf_t *b, const char *name, const char *label, const char *value, double v)
{
    sample2(b, name, label, value, NULL, NULL, v);
}

static void gauge(buf_t *b, const char *name, const char *help, double v)
{
    head(b, name, "gauge", help);
    sample(b, name, v);
}

static void counter(buf_t *b, const char *name, const char *help, double v)
{
    head(b, name, "counter", help);
    sample(b, name, v);
}

/* Open descriptors: the entries of /proc/self/fd (minus the one reading it). */
static long open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 1000000)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1;
}

static void process_metrics(buf_t *b)
{
    static double start_time;
    if (start_time == 0) {
        /* process start: now minus the process's age (from /proc/self/stat would need
         * parsing; the server's own start is close enough and cheaper) */
        start_time = (double)clock_wall_ms() / 1000.0 - (double)(clock_ns() - srv->start_ns) / 1e9;
    }
    long page = sysconf(_SC_PAGESIZE);
    unsigned long vsz = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu %lu", &vsz, &rss) != 2) vsz = rss = 0;
        fclose(f);
    }
    struct rusage ru;
    double cpu = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
              (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    struct rlimit rl;
    double max_fds = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? (double)rl.rlim_cur : 0;
    counter(b, "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.",
            cpu);
    gauge(b, "process_resident_memory_bytes", "Resident memory size in bytes.",
          (double)rss * (double)page);
    gauge(b, "process_virtual_memory_bytes", "Virtual memory size in bytes.",
          (double)vsz * (double)page);
    gauge(b, "process_open_fds", "Number of open file descriptors.", (double)open_fds());
    gauge(b, "process_max_fds", "Maximum number of open file descriptors.", max_fds);
    gauge(b, "process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
          start_time);
}

/* The names of the UnifiedMetrics exporter (Cubxity/UnifiedMetrics, common
 * Metrics.kt), so its published Grafana dashboard works unchanged; its
 * minecraft_tick_duration_seconds histogram is ours above. Events: login =
 * login attempts (Login Start with a valid name), join and quit = players
 * entering and leaving the game, chat = chat messages, ping = server list
 * pings answered. Players are the only entities. */
static void unified_metrics(buf_t *b, const char *world)
{
    const struct server_stats *ss = &srv->stats;
    gauge(b, "minecraft_players_count", "Players online (UnifiedMetrics name).",
          (double)game.player_count);
    gauge(b, "minecraft_plugins", "Plugins loaded (UnifiedMetrics name).", 0);
    head(b, "minecraft_world_players_count", "gauge", "Players in the world.");
    sample1(b, "minecraft_world_players_count", "world", world, (double)game.player_count);
    head(b, "minecraft_world_entities_count", "gauge", "Entities in the world.");
    sample1(b, "minecraft_world_entities_count", "world", world,
            (double)(game.player_count + items_count() + mobs_count()));
    head(b, "minecraft_world_loaded_chunks", "gauge", "Chunk columns in memory.");
    sample1(b, "minecraft_world_loaded_chunks", "world", world, (double)game.world.count);
    counter(b, "minecraft_events_login_total", "Login attempts.", (double)ss->login_starts);
    counter(b, "minecraft_events_join_total", "Players who joined the game.", (double)game.joins);
    counter(b, "minecraft_events_quit_total", "Players who left the game.", (double)game.quits);
    counter(b, "minecraft_events_chat_total", "Chat messages.", (double)game.chat_messages);
    counter(b, "minecraft_events_ping_total", "Server list pings answered.",
            (double)ss->status_requests);
}

/* Heap allocations per tick: only the counting build has them (core/tickstat.h). */
static void quantiles(buf_t *b, const char *name, const char *help, const uint32_t v[3])
{
    static const char *const q[3] = {"0.5", "0.99", "1"};
    head(b, name, "gauge", help);
    for (int i = 0; i < 3; i++) sample1(b, name, "quantile", q[i], v[i]);
}

static void alloc_metrics(buf_t *b)
{
    struct tickstat_alloc_summary a;
    if (!tickstat_alloc_summarize(TICKSTAT_ALLOC_WINDOW, &a)) return;
    quantiles(b, "mcserv_tick_heap_allocations",
              "Game-thread heap allocations inside tick(), last 200 ticks (counting build).",
              a.in_tick);
    quantiles(b, "mcserv_tick_period_heap_allocations",
              "Game-thread heap allocations per tick period (the tick and the loop passes up to "
              "the next), last 200 ticks (counting build).",
              a.period);
    quantiles(b, "mcserv_tick_period_heap_frees", "Game-thread frees per tick period, as above.",
              a.frees);
    quantiles(b, "mcserv_tick_period_heap_bytes",
              "Game-thread bytes allocated per tick period, as above.", a.bytes);
    const char *n = "mcserv_heap_allocations_total";
    head(b, n, "counter", "Heap allocations since start (game thread; other: workers, login).");
    sample1(b, n, "thread", "game", (double)a.game.allocs);
    sample1(b, n, "thread", "other", (double)a.other.allocs);
}

/* The tick breakdown (core/tickstat.h, issue 16): one histogram per phase. */
static void phase_metrics(buf_t *b)
{
    const char *n = "mcserv_tick_phase_seconds";
    head(b, n, "histogram",
         "Time per tick in each phase of the tick (game/tick.c), and in the loop work between "
         "ticks (net_read, chunk_stream, flush: the passes before each tick).");
    char label[160];
    for (int p = 0; p < tickstat_phase_count(); p++) {
        uint64_t counts[TICKSTAT_PHASE_BUCKETS], count;
        double sum;
        tickstat_phase_histogram(p, counts, &sum, &count);
        const char *phase = tickstat_phase_name(p);
        for (int i = 0; i < TICKSTAT_PHASE_BUCKETS; i++) {
            if (i == TICKSTAT_PHASE_BUCKETS - 1)
                snprintf(label, sizeof label, "%s_bucket{phase=\"%s\",le=\"+Inf\"} ", n, phase);
            else
                snprintf(label, sizeof label, "%s_bucket{phase=\"%s\",le=\"%g\"} ", n, phase,
                         tickstat_phase_bucket_le[i]);
            buf_append(b, label, strlen(label));
            num(b, (double)counts[i]);
        }
        snprintf(label, sizeof label, "%s_sum{phase=\"%s\"} ", n, phase);
        buf_append(b, label, strlen(label));
        num(b, sum);
        snprintf(label, sizeof label, "%s_count{phase=\"%s\"} ", n, phase);
        buf_append(b, label, strlen(label));
        num(b, (double)count);
    }
}

/* The game port's limits: refusals by reason, the pre-login pool. */
static void limits_metrics(buf_t *b)
{
    const struct limits_stats *ls = &limits_stats;
    const char *n = "mcserv_connections_refused_total";
    head(b, n, "counter",
         "Game connections refused at accept, by reason (per_ip: max-connections-per-ip; "
         "prelogin_full: max-prelogin-connections with nothing to evict; descriptors: the "
         "descriptor limit).");
    sample1(b, n, "reason", "per_ip", (double)ls->refused_per_ip);
    sample1(b, n, "reason", "prelogin_full", (double)ls->refused_prelogin);
    sample1(b, n, "reason", "descriptors", (double)ls->refused_fds);
    n = "mcserv_prelogin_evictions_total";
    head(b, n, "counter",
         "Pre-login connections closed to make room for a new one (fresh: no handshake yet; "
         "waiting: handshake done, not logged in).");
    sample1(b, n, "list", "fresh", (double)ls->evicted_fresh);
    sample1(b, n, "list", "waiting", (double)ls->evicted_waiting);
    static const struct {
        const char *name, *help;
        size_t at; /* offsetof(struct limits_stats, ...) */
    } rules[] = {
        {"mcserv_handshake_timeouts_total",
         "Connections closed for sending no complete handshake within handshake-timeout.",
         offsetof(struct limits_stats, handshake_timeouts)},
        {"mcserv_login_throttled_total", "Logins refused by connection-throttle.",
         offsetof(struct limits_stats, throttled)},
        {"mcserv_packet_limit_kicks_total",
         "Players kicked by packet-limit-max-rate (packets per interval).",
         offsetof(struct limits_stats, rate_kicks)},
        {"mcserv_packet_limit_drops_total",
         "Packets dropped by a per-type rate (docs/hardening.md).",
         offsetof(struct limits_stats, rate_drops)},
        {"mcserv_slow_clients_total",
         "Connections closed for not reading their output (slow-client-timeout or the output "
         "cap).",
         offsetof(struct limits_stats, slow_clients)},
        {"mcserv_moved_too_quickly_total",
         "Moves refused as vanilla's \"moved too quickly\" (the player is set back).",
         offsetof(struct limits_stats, moved_too_quickly)},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        counter(b, rules[i].name, rules[i].help,
                (double)*(const uint64_t *)((const char *)ls + rules[i].at));
    head(b, "mcserv_prelogin_connections", "gauge",
         "Connections not yet playing (the pool of max-prelogin-connections); fresh: without a "
         "complete handshake.");
    sample1(b, "mcserv_prelogin_connections", "kind", "all", (double)ls->prelogin);
    sample1(b, "mcserv_prelogin_connections", "kind", "fresh", (double)ls->fresh);
    gauge(b, "mcserv_prelogin_connections_max",
          "The pool's size: max-prelogin-connections, or the descriptor limit when lower.",
          (double)(srv->cfg.max_prelogin_connections &&
                           (size_t)srv->cfg.max_prelogin_connections < srv->max_conns
                       ? (size_t)srv->cfg.max_prelogin_connections
                       : srv->max_conns));
}

/* HTTP, RCON and the management server: refusals, evictions, deadline
 * closes (admin.h invariant 4). */
#define CHANNELS 3
static void admin_channel_metrics(buf_t *b)
{
    static const char *const names[CHANNELS] = {"http", "rcon", "management"};
    const struct admin_channel_stats *st[CHANNELS] = {&admin_stats.http, &admin_stats.rcon,
                                                      &admin_stats.mgmt};
    const char *n = "mcserv_admin_connections_refused_total";
    head(b, n, "counter",
         "Admin connections refused at accept (full: the channel's cap; per_address: one "
         "address's cap), when no idle client could be evicted.");
    for (int i = 0; i < CHANNELS; i++)
        for (int r = 0; r < ADMIN_REFUSED_COUNT; r++)
            sample2(b, n, "channel", names[i], "reason", admin_refusal_names[r],
                    (double)st[i]->refused[r]);
    n = "mcserv_admin_connections_evicted_total";
    head(b, n, "counter",
         "Admin clients closed to make room for a new one (the one idle longest in its scope).");
    for (int i = 0; i < CHANNELS; i++) sample1(b, n, "channel", names[i], (double)st[i]->evicted);
    n = "mcserv_admin_connections_timed_out_total";
    head(b, n, "counter",
         "Admin clients closed by a deadline (an incomplete request, no login, idle).");
    for (int i = 0; i < CHANNELS; i++) sample1(b, n, "channel", names[i], (double)st[i]->timed_out);
}

/* Lines counted into a summary instead of written (core/log.h). */
static void log_metrics(buf_t *b)
{
    counter(b, "mcserv_log_lines_suppressed_total",
            "Log lines caused by remote input that were counted into a summary instead of "
            "written (core/log.h).",
            (double)log_suppressed_total);
}

void metrics_build(buf_t *b)
{
    /* Ticks */
    uint64_t counts[TICKSTAT_BUCKETS], count;
    double sum;
    tickstat_histogram(counts, &sum, &count);
    head(b, "minecraft_tick_duration_seconds", "histogram",
         "Duration of each server tick (all of tick(): players, world, saves).");
    for (int i = 0; i < TICKSTAT_BUCKETS; i++) {
        char le[32];
        if (i == TICKSTAT_BUCKETS - 1)
            snprintf(le, sizeof le, "+Inf");
        else
            snprintf(le, sizeof le, "%g", tickstat_bucket_le[i]);
        sample1(b, "minecraft_tick_duration_seconds_bucket", "le", le, (double)counts[i]);
    }
    sample(b, "minecraft_tick_duration_seconds_sum", sum);
    sample(b, "minecraft_tick_duration_seconds_count", (double)count);
    struct tickstat_summary s5;
    tickstat_summarize(TICKSTAT_SHORT, &s5);
    gauge(b, "minecraft_tps", "Ticks per second over the last 5 seconds (20 is full speed).",
          s5.tps);
    head(b, "minecraft_tick_duration_recent_seconds", "gauge",
         "Tick durations over the last 5 seconds by quantile (1 = the longest).");
    sample1(b, "minecraft_tick_duration_recent_seconds", "quantile", "0.5", s5.median_ms / 1e3);
    sample1(b, "minecraft_tick_duration_recent_seconds", "quantile", "0.95", s5.p95_ms / 1e3);
    sample1(b, "minecraft_tick_duration_recent_seconds", "quantile", "0.99", s5.p99_ms / 1e3);
    sample1(b, "minecraft_tick_duration_recent_seconds", "quantile", "1", s5.max_ms / 1e3);
    gauge(b, "minecraft_game_thread_cpu_ratio",
          "Game thread CPU time over wall time, last 5 seconds (1 = one core busy).",
          s5.cpu_pct / 100.0);
    counter(b, "minecraft_ticks_total", "Ticks run since start.", (double)game.tick_count);
    phase_metrics(b);
    alloc_metrics(b);

    /* Players and the world */
    gauge(b, "minecraft_players_online", "Players online.", (double)game.player_count);
    gauge(b, "minecraft_players_max", "max-players.", (double)srv->cfg.max_players);
    const char *world = srv->cfg.level_name;
    head(b, "minecraft_loaded_chunks", "gauge", "Chunk columns in memory.");
    sample1(b, "minecraft_loaded_chunks", "world", world, (double)game.world.count);
    head(b, "minecraft_entities", "gauge", "Entities (players are the only entities).");
    sample1(b, "minecraft_entities", "world", world, (double)game.player_count);
    unified_metrics(b, world);
    gauge(b, "minecraft_chunks_generating", "Chunks being loaded or generated on workers.",
          (double)game.world.generating);
    gauge(b, "minecraft_worker_jobs_pending", "Jobs queued or running on the worker threads.",
          (double)workers_pending());
    /* Chunk requests (world/world.h; added for issue 23 by the chunk-budget change). */
    const struct world *cw = &game.world;
    gauge(b, "mcserv_chunk_requests_queued",
          "Chunk requests waiting for a worker, nearest to a player first.", (double)cw->heap_len);
    struct bt_stats bt;
    block_ticks_stats(&bt);
    counter(b, "mcserv_world_sim_block_ticks_total", "Scheduled block ticks run.",
            (double)bt.block_ticks);
    counter(b, "mcserv_world_sim_fluid_ticks_total", "Scheduled fluid ticks run.",
            (double)bt.fluid_ticks);
    counter(b, "mcserv_world_sim_random_ticks_total",
            "Random ticks that landed on a random-ticking block.", (double)bt.random_ticks);
    counter(b, "mcserv_world_sim_neighbor_updates_total", "Neighbour updates run.",
            (double)bt.neighbor_updates);
    counter(b, "mcserv_world_sim_deferred_total",
            "Neighbour updates and scheduled ticks deferred to a later tick by "
            "max-chained-neighbor-updates or the per-tick budget.",
            (double)(bt.deferred_neighbors + bt.deferred_ticks));
    gauge(b, "mcserv_world_sim_random_ticked_chunks",
          "Chunk columns random-ticked in the last tick (within simulation distance, holding a "
          "random-ticking block).",
          (double)bt.random_chunks);
    gauge(b, "mcserv_world_sim_scheduled_ticks", "Scheduled block and fluid ticks pending.",
          (double)bt.pending);
    counter(b, "mcserv_chunk_requests_total", "Chunk loads or generations players asked for.",
            (double)cw->requests_total);
    counter(b, "mcserv_chunk_requests_cancelled_total",
            "Chunk requests dropped before any work: no player needed the chunk any more.",
            (double)cw->requests_cancelled);
    counter(b, "mcserv_chunk_requests_deferred_total",
            "Chunk requests put off by a player's per-second budget.",
            (double)cw->requests_refused_budget);
    head(b, "mcserv_player_chunk_requests_in_flight", "gauge",
         "Chunks a player asked for and has not received yet (players with some; first 100).");
    for (size_t i = 0, n = 0; i < game.player_count && n < 100; i++) {
        const player *p = game.players[i]->player;
        if (p->chunk_requests.count == 0) continue;
        sample1(b, "mcserv_player_chunk_requests_in_flight", "player", p->name,
                (double)p->chunk_requests.count);
        n++;
    }
    counter(b, "minecraft_chunks_generated_total", "Chunks generated since start.",
            (double)game.world.chunks_generated);
    counter(b, "minecraft_chunks_loaded_total", "Chunks read from region files since start.",
            (double)game.world.chunks_loaded);
    head(b, "minecraft_save_queue_chunks", "gauge",
         "Chunks waiting to be saved (unsaved: edited; queued: in the current save round).");
    sample1(b, "minecraft_save_queue_chunks", "list", "unsaved",
            (double)game.world.save_count[SAVE_LIST_UNSAVED]);
    sample1(b, "minecraft_save_queue_chunks", "list", "queued",
            (double)game.world.save_count[SAVE_LIST_QUEUED]);
    if (store_active()) {
        const struct store_stats *st = store_get_stats();
        counter(b, "minecraft_chunks_saved_total", "Chunks written to region files since start.",
                (double)st->chunks_saved);
        counter(b, "minecraft_save_errors_total", "Chunk saves that failed since start.",
                (double)st->save_errors);
    }

    /* Connections and traffic */
    double by_state[CONN_STATES] = {0};
    conn *c;
    server_for_each_conn (c, node)
        if ((int)c->state >= 0 && (int)c->state < CONN_STATES) by_state[c->state]++;
    head(b, "minecraft_connections", "gauge", "Open game connections by protocol state.");
    for (int i = 0; i < CONN_STATES; i++)
        sample1(b, "minecraft_connections", "state", state_names[i], by_state[i]);
    const struct server_stats *ss = &srv->stats;
    counter(b, "minecraft_connections_accepted_total", "Game connections accepted.",
            (double)ss->accepted);
    counter(b, "minecraft_connections_refused_total",
            "Game connections refused at accept (every reason below).", (double)ss->refused);
    limits_metrics(b);
    counter(b, "minecraft_logins_total", "Players who entered the game.", (double)ss->logins);
    head(b, "minecraft_kicks_total", "counter",
         "Login and play connections disconnected by the server, by reason.");
    for (int i = 0; i < KR_COUNT; i++)
        sample1(b, "minecraft_kicks_total", "reason", kick_reason_names[i], (double)ss->kicks[i]);
    counter(b, "minecraft_packets_received_total", "Packets (frames) received.",
            (double)ss->packets_in);
    counter(b, "minecraft_packets_sent_total", "Packets (frames) queued to clients.",
            (double)ss->packets_out);
    counter(b, "minecraft_network_received_bytes_total", "Bytes read from game sockets.",
            (double)ss->bytes_in);
    counter(b, "minecraft_network_sent_bytes_total", "Bytes written to game sockets.",
            (double)ss->bytes_out);
    counter(b, "mcserv_socket_writes_total", "writev calls on game sockets.", (double)ss->writes);
    counter(b, "mcserv_entity_update_bytes_total",
            "Entity updates (movement, looks, metadata, equipment) queued to viewers: the bytes of "
            "each interest cell's batch, encoded once, summed over the viewers it went to.",
            (double)ss->entity_update_bytes);
    gauge(b, "mcserv_output_batch_ticks",
          "Ticks other players' movement, tab-list changes and chat may wait (adaptive batching).",
          (double)(ss->batch_ticks ? ss->batch_ticks : 1));

    /* Admin surface */
    const struct admin_stats *as = &admin_stats;
    counter(b, "mcserv_http_requests_total", "Requests answered by the HTTP admin endpoint.",
            (double)as->http_requests);
    counter(b, "mcserv_http_errors_total", "HTTP admin answers with a 4xx or 5xx status.",
            (double)as->http_errors);
    counter(b, "mcserv_rcon_logins_total", "Successful RCON logins.", (double)as->rcon_logins);
    counter(b, "mcserv_rcon_auth_failures_total",
            "RCON logins refused: wrong passwords (answered at once or held back) and commands "
            "before a login.",
            (double)as->rcon_auth_failures);
    counter(b, "mcserv_rcon_commands_total", "Commands run over RCON.", (double)as->rcon_commands);
    admin_channel_metrics(b);
    log_metrics(b);
    counter(b, "mcserv_query_requests_total", "Query datagrams answered.",
            (double)as->query_requests);
    counter(b, "mcserv_query_dropped_total",
            "Query datagrams dropped (malformed, bad challenge, over the rate).",
            (double)as->query_dropped);

    char info[240];
    snprintf(info, sizeof info,
             "mcserv_build_info{version=\"%s\",protocol=\"%d\",commit=\"%.64s\"} 1\n",
             MC_VERSION_NAME, MC_PROTOCOL_VERSION, mcserv_commit);
    head(b, "mcserv_build_info", "gauge",
         "The Minecraft version served and the commit built (value is always 1).");
    buf_append(b, info, strlen(info));
    gauge(b, "mcserv_uptime_seconds", "Seconds since the server started.",
          (double)(clock_ns() - srv->start_ns) / 1e9);
    process_metrics(b);
}

static buf_t text;
static uint64_t built_tick = UINT64_MAX;

void metrics_free(void)
{
    buf_free(&text);
    built_tick = UINT64_MAX;
}

const char *metrics_text(size_t *len)
{
    if (built_tick != game.tick_count || !text.data) {
        if (!text.limit) buf_init(&text, METRICS_MAX);
        buf_reset(&text);
        metrics_build(&text);
        if (text.failed) {
            buf_reset(&text);
            buf_lit(&text, "# metrics text over its size limit\n");
        }
        built_tick = game.tick_count;
    }
    *len = text.len;
    return (const char *)text.data;
}
