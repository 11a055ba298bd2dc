/*
 * main.c — mcserv entry point: arguments, server directory, configuration,
 * logging, then the event loop until stop.
 *
 * The working directory is the server directory, as with vanilla:
 * server.properties, logs/ and server-icon.png live there.
 *
 * Start-up order: the log, server.properties, the world folder (its lock),
 * the loop, net/ (compressors, login, favicon), the game (workers, world,
 * spawn; it registers with net/), player data, the admin surface, the
 * console and signals, then the listener; the loop runs until `stop` or a
 * signal. Shutdown runs it backwards, with the final save in between.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <systemd/sd-daemon.h>
#include <sys/stat.h>
#include <unistd.h>

#include "admin/admin.h"
#include "admin/console.h"
#include "core/config.h"
#include "core/log.h"
#include "core/loop.h"
#include "core/buildinfo.h"
#include "data/version.h"
#include "game/game.h"
#include "game/playerdata.h"
#include "game/plugins.h" /* plugins */
#include "game/pregen.h"
#include "game/tick.h"
#include "net/server.h"
#include "world/store.h"

static int mkdir_p_dir(const char *dir)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) return -1;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mcserv [--dir DIR] [--port PORT] [--pregen RADIUS] [--help] [--version]\n"
            "\n"
            "A Minecraft Java Edition %s server (protocol %d).\n"
            "The working directory (or --dir) is the server directory: server.properties\n"
            "is read there (and written with defaults when absent), logs go to logs/.\n"
            "\n"
            "  --dir DIR    use DIR as the server directory (created if missing)\n"
            "  --port PORT  listen on PORT instead of server.properties' server-port\n"
            "  --pregen RADIUS  generate and save every chunk within RADIUS blocks of the\n"
            "               spawn (resuming an interrupted run first), then exit; no listener\n"
            "  --help       show this text\n"
            "  --version    show the version\n"
            "\n"
            "With --port, query.port, rcon.port and admin-http-port still at their\n"
            "defaults move by the same offset.\n"
            "\n"
            "Type \"help\" on the console for the commands (docs/commands.md).\n"
            "SIGINT, SIGTERM, SIGHUP and SIGQUIT save the world and stop cleanly.\n",
            MC_VERSION_NAME, MC_PROTOCOL_VERSION);
}

/*
 * --port moves the game port; the other listeners still at their defaults
 * (query.port = the game port, rcon.port 25575, admin-http-port 25585)
 * move with it by the same offset, so a second instance started with only
 * --port does not collide with the first. Ports set to anything else stay.
 */
static void follow_port(struct server_config *cfg, int port)
{
    int delta = port - cfg->server_port;
    if (port > 0 && delta != 0) {
        if (cfg->query_port == cfg->server_port) cfg->query_port = port;
        if (cfg->rcon_port == 25575 && cfg->rcon_port + delta > 0 && cfg->rcon_port + delta < 65536)
            cfg->rcon_port += delta;
        if (cfg->admin_http_port == 25585 && cfg->admin_http_port + delta > 0 &&
            cfg->admin_http_port + delta < 65536)
            cfg->admin_http_port += delta;
        log_info("--port %d: query.port %d, rcon.port %d, admin-http-port %d follow it", port,
                 cfg->query_port, cfg->rcon_port, cfg->admin_http_port);
    }
    cfg->server_port = port;
}

/*
 * systemd (contrib/mcserv.service, Type=notify): READY=1 once the port
 * listens, STOPPING=1 when the shutdown starts, and WATCHDOG=1 from a loop
 * timer at half the watchdog interval, so a hung loop (a tick that never
 * ends) gets the service restarted. Without NOTIFY_SOCKET each call is a
 * no-op.
 */
static struct {
    loop_timer timer;
    loop *loop;
    int64_t every_ms;
} watchdog;

static void watchdog_ping(loop_timer *t)
{
    sd_notify(0, "WATCHDOG=1");
    loop_timer_after(watchdog.loop, t, watchdog.every_ms);
}

static void systemd_ready(loop *l)
{
    uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) > 0 && usec >= 2000) {
        watchdog.loop = l;
        watchdog.every_ms = (int64_t)(usec / 2000);
        loop_timer_init(&watchdog.timer, watchdog_ping);
        loop_timer_after(l, &watchdog.timer, watchdog.every_ms);
    }
    sd_notifyf(0, "READY=1\nSTATUS=Listening on port %d", srv->cfg.server_port);
}

/* SIGINT, SIGTERM, SIGHUP (a closed terminal) and SIGQUIT end the loop;
 * the shutdown saves everything, as vanilla's shutdown hook does on any of
 * them. */
static struct {
    loop_watch watch;
    loop *loop;
} signals;

static void signal_event(loop_watch *w, uint32_t events)
{
    (void)events;
    struct signalfd_siginfo si;
    while (read(w->fd, &si, sizeof si) == (ssize_t)sizeof si) {
        log_info("received %s: stopping", strsignal((int)si.ssi_signo));
        loop_stop(signals.loop);
    }
}

static sigset_t stop_signals;

/* Before any thread starts, so that every thread inherits the mask and the
 * signals reach only the signalfd. */
static void signals_block(void)
{
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGHUP);
    sigaddset(&stop_signals, SIGQUIT);
    sigprocmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static int signals_watch(loop *l)
{
    int fd = signalfd(-1, &stop_signals, SFD_NONBLOCK | SFD_CLOEXEC);
    signals.loop = l;
    loop_watch_init(&signals.watch, signal_event);
    return fd < 0 ? -1 : loop_watch_add(l, &signals.watch, fd, EPOLLIN);
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    long port = -1, pregen_radius = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("mcserv for Minecraft %s (protocol %d), commit %s\n", MC_VERSION_NAME,
                   MC_PROTOCOL_VERSION, mcserv_commit);
            return 0;
        } else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            char *end;
            port = strtol(argv[++i], &end, 10);
            if (*end || port < 0 || port > 65535) {
                fprintf(stderr, "mcserv: --port: expected 0..65535, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--pregen") == 0 && i + 1 < argc) {
            char *end;
            pregen_radius = strtol(argv[++i], &end, 10);
            if (*end || pregen_radius < 1 || pregen_radius > PREGEN_RADIUS_MAX) {
                fprintf(stderr, "mcserv: --pregen: expected a radius of 1..%d blocks, got '%s'\n",
                        PREGEN_RADIUS_MAX, argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "nogui") == 0 || strcmp(argv[i], "--nogui") == 0) {
            /* accepted for vanilla start-script compatibility */
        } else {
            fprintf(stderr, "mcserv: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (dir) {
        if (mkdir_p_dir(dir) < 0 || chdir(dir) < 0) {
            fprintf(stderr, "mcserv: cannot use server directory %s: %s\n", dir, strerror(errno));
            return 1;
        }
    }
    log_set_thread_name("Server thread"); /* the game thread, vanilla's name */
    const char *lvl = getenv("MCSERV_LOG_LEVEL");
    if (lvl && strcmp(lvl, "debug") == 0) log_set_level(LOG_DEBUG);
    char rotated[4600];
    mkdir_p_dir("logs");
    int rot = log_rotate("logs", "latest.log", rotated, sizeof rotated);
    int lr = log_open_file("logs", "latest.log");
    log_info("Starting mcserv for Minecraft %s (protocol %d)", MC_VERSION_NAME,
             MC_PROTOCOL_VERSION);
    if (lr < 0) log_warn("cannot open logs/latest.log: %s; logging to stderr only", strerror(-lr));
    if (rot != 0) log_msg(rot > 0 ? LOG_INFO : LOG_WARN, "logs: %s", rotated);

    struct server_config cfg;
    char err[1024];
    if (config_load("server.properties", &cfg, err, sizeof err) < 0) {
        log_error("%s", err);
        log_error("fix server.properties and start again");
        return 1;
    }
    if (port >= 0) follow_port(&cfg, (int)port);
    log_set_max_size((uint64_t)cfg.log_max_size << 20); /* log-max-size: rotation while running */
    log_set_format(cfg.log_format);
    /* The world folder: session.lock (a second server stops here), level.dat's seed. */
    if (store_open(&cfg, err, sizeof err) < 0) {
        log_error("%s", err);
        return 1;
    }

    static loop main_loop;
    static struct server s;
    signals_block();
    int rc = loop_init(&main_loop);
    if (rc < 0) {
        log_error("epoll: %s", strerror(-rc));
        store_close();
        return 1;
    }
    /* --pregen: nothing else runs; two threads per core, so one generates while the
     * other waits for its region write's fsync. */
    int nworkers = cfg.worker_threads;
    if (pregen_radius && nworkers == 0) nworkers = 2 * (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (server_init(&s, &main_loop, &cfg) < 0 || game_init(&main_loop, &s.cfg, nworkers) < 0) {
        game_free();
        server_free(&s);
        store_close();
        return 1;
    }
    store_attach(&game.world, &s.cfg);
    playerdata_init();
    if (pregen_radius) { /* mcserv --pregen: no listener, no admin, no console */
        if (signals_watch(&main_loop) < 0)
            log_warn("cannot watch for signals: %s", strerror(errno));
        pregen_init(&main_loop, true);
        rc = pregen_cli(&main_loop, (int)pregen_radius);
        store_final_save(); /* level.dat: the seed the chunks were made with */
        game_free();
        server_free(&s);
        playerdata_free();
        store_close();
        loop_free(&main_loop);
        log_close();
        return rc;
    }
    admin_start(&main_loop, &s.cfg); /* RCON, Query, the HTTP endpoint (docs/operations.md) */
    console_start(&main_loop);       /* commands on stdin */
    pregen_init(&main_loop, false);  /* resumes an interrupted pre-generation */
    if (signals_watch(&main_loop) < 0) log_warn("cannot watch for signals: %s", strerror(errno));
    if (server_listen(&s) < 0) {
        rc = 1;
    } else {
        tick_start(&main_loop);
        server_log_ready();
        systemd_ready(&main_loop);
        rc = loop_run(&main_loop);
        if (rc < 0) log_error("epoll_wait: %s", strerror(-rc));
        rc = 0;
        sd_notify(0, "STOPPING=1\nSTATUS=Stopping: saving the world");
        if (watchdog.loop) loop_timer_stop(&main_loop, &watchdog.timer);
        plugins_stop(); /* plugins: the stop event, players still online */
        server_shutdown();
        pregen_stop();      /* cells in flight written, the rest resumes at the next start */
        store_final_save(); /* blocking: every chunk, player and level.dat on disk */
    }
    console_stop();
    admin_stop();
    game_free();
    server_free(&s);
    playerdata_free();
    store_close();
    loop_free(&main_loop);
    log_info("Server stopped");
    log_close();
    return rc;
}
