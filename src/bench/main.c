/*
 * main.c — mcbench's command line, setup, event loop and exit status.
 *
 * mcbench runs on the shared event loop (core/loop.h; its pass is listed
 * there). What it puts on it:
 *   - every bot's socket as a loop watch: in the main set while the bot
 *     joins (read the moment data arrives), in the batched set once joined
 *     (polled every --read-interval ms, loop_set_batch_interval)
 *   - every bot timer (movement, chat, deadlines, emulated link releases)
 *     and the join rate limiter (token bucket, --rate per s: t_join fires
 *     when the bucket next holds a token) as loop timers
 *   - three before-sleep hooks, in this order: flush output and reap closed
 *     bots; check the end conditions (loop_stop when the run is over);
 *     print the progress line once a second (t_progress wakes the loop)
 *   - the clock: bench.loop.now_us / now_ms, read twice per pass
 *     (core/loop.h invariant 3): after the wait, for the sockets' events,
 *     and before the timers, so that a join started by the rate limiter is
 *     timed from its connect call and timers are not late by the time the
 *     events took (one read per pass would add that to every join latency)
 *
 * Run phases: JOINING until every bot's first session joined or failed,
 * then HOLDING for --duration seconds, then every bot leaves and the report
 * is written. The run also ends when no bot is left to wait for, on
 * SIGINT/SIGTERM (the report is still written), or after --max-time.
 *
 * Exit status: 0 when failures <= --max-failures, 1 when more failed,
 * 2 for a usage or setup error (bad option, script that does not load,
 * unresolvable host), 3 when the JSON report could not be written.
 *
 * Invariants:
 *  1. Every wait is bounded: connect, join and silence timeouts per bot and
 *     --max-time for the whole run.
 *  2. The file-descriptor limit is raised to the hard limit before any bot
 *     starts; a bot that cannot get a descriptor fails with that reason.
 */
#include <errno.h>
#include <getopt.h>
#include <libdeflate.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "admin/rcon_packet.h"
#include "bench/mcbench.h"
#include "core/clock.h"
#include "data/version.h"

struct bench bench;

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: mcbench [options]\n"
        "A swarm of protocol-true Minecraft %s (protocol %d) bots that measures a server.\n"
        "\n"
        "target and load:\n"
        "  --host HOST            server address (default 127.0.0.1)\n"
        "  --port PORT            server port (default 25565)\n"
        "  --bots N               number of bots (default 10)\n"
        "  --rate JOINS_PER_S     join rate limit, also for churn rejoins (default 100)\n"
        "  --duration SECONDS     hold time after the last bot joined (default 10)\n"
        "  --scenario NAME        idle | walk | chat | crowd | churn | spread | explosion\n"
        "                         (default idle)\n"
        "  --script FILE.lua      each bot runs this Lua script once joined (see docs)\n"
        "  --view-distance N      view distance in the bots' client settings (default 2)\n"
        "\n"
        "scenario knobs:\n"
        "  --radius BLOCKS        walk/crowd area around the spawn (walk 128, crowd 8)\n"
        "  --speed M_PER_S        movement speed (default 4.317, walking)\n"
        "  --chat-every SECONDS   chat period per bot (chat 5, walk 30, others off; 0 = off)\n"
        "  --stay-min/--stay-max SECONDS  churn: time a bot stays (default 2 / 10)\n"
        "  --rejoin-pause SECONDS churn: pause before rejoining (default 1)\n"
        "  --spread-radius BLOCKS spread: points within +-BLOCKS of the spawn (default 2000)\n"
        "  --spread-timeout S     spread: wait this long for the teleport, then walk (default 10)\n"
        "  --rcon-port PORT       spread: teleport the bots over RCON on --host (password\n"
        "                         from --rcon-password or $MCBENCH_RCON_PASSWORD); without\n"
        "                         it each bot sends /tp itself (works where bots are op)\n"
        "  --rcon-password PW     RCON password (visible in ps: prefer the variable)\n"
        "  --entities N           explosion: mobs summoned at once, over RCON (needs\n"
        "                         --rcon-port; mcserv's summonmany) (default 1000)\n"
        "  --entity TYPE          explosion: their type (default cow)\n"
        "  --entity-radius BLOCKS explosion: within this of the world spawn (default 32)\n"
        "  --entity-nbt SNBT      explosion: NBT for each, e.g. {NoAI:1b} (default none)\n"
        "  --summon-after S       explosion: seconds into the hold (default 2)\n"
        "\n"
        "reading the server and comparing runs:\n"
        "  --metrics-url URL      scrape the server's Prometheus /metrics (http://) once a\n"
        "                         second: its TPS, MSPT and tick phases go in the report\n"
        "  --baseline OLD.json    compare every figure with an earlier --json report\n"
        "  --max-regression PCT   exit 1 when a checked figure is worse by more (default 10)\n"
        "  --regress-on LIST      the checked figures, comma-separated (default\n"
        "                         phases.own_chunk.p99; with --metrics-url also\n"
        "                         server.mspt.p99,server.tps)\n"
        "\n"
        "network emulation (per bot, both directions, inside mcbench):\n"
        "  --latency MS           one-way delay added to each direction\n"
        "  --jitter MS            +- uniform jitter on that delay (order is kept)\n"
        "  --bandwidth KBPS       per-direction link rate in kilobytes (1000 B) per second\n"
        "\n"
        "limits and output:\n"
        "  --max-failures N       failures tolerated before the exit status is 1 (default 0)\n"
        "  --connect-timeout S    TCP connect timeout (default 10)\n"
        "  --join-timeout S       connect to spawned (position + own chunk) (default 30)\n"
        "  --silence-timeout S    a joined bot fails if the server sends nothing (default 60)\n"
        "  --max-time S           hard cap on the whole run (default: derived)\n"
        "  --read-interval MS     joined bots' sockets are drained every MS ms (default 20;\n"
        "                         0 = at once, like bots still joining; costs more CPU)\n"
        "  --json FILE            write the JSON report there (\"-\" = stdout)\n"
        "  --quiet                no progress lines on stderr\n"
        "  --seed N               random seed (walk targets, jitter, chat salts)\n"
        "  --name-prefix P        bot names are P0001, P0002, ... (default \"bot\")\n"
        "  --first-index N        number of the first bot (default 1)\n"
        "  --help, --version, --self-test (checks of mcbench's own data structures)\n"
        "\n"
        "exit status: 0 ok, 1 failures over --max-failures or a checked figure\n"
        "regressed past --max-regression, 2 usage/setup error, 3 the JSON report\n"
        "could not be written.\n",
        MC_VERSION_NAME, MC_PROTOCOL_VERSION);
}

static int parse_double(const char *s, double lo, double hi, double *out, const char *opt)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) {
        fprintf(stderr, "mcbench: %s: expected a number in [%g, %g], got '%s'\n", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* The timeouts: 10 ms to an hour. */
static int parse_timeout(const char *s, double *out, const char *opt)
{
    return parse_double(s, 0.01, 3600, out, opt);
}

static int parse_long(const char *s, long lo, long hi, long *out, const char *opt)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "mcbench: %s: expected an integer in [%ld, %ld], got '%s'\n", opt, lo, hi,
                s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out, const char *opt)
{
    long v;
    if (parse_long(s, lo, hi, &v, opt) < 0) return -1;
    *out = (int)v;
    return 0;
}

enum {
    O_HOST = 256,
    O_PORT,
    O_BOTS,
    O_RATE,
    O_DURATION,
    O_SCENARIO,
    O_SCRIPT,
    O_VIEW,
    O_JSON,
    O_QUIET,
    O_MAXFAIL,
    O_LATENCY,
    O_JITTER,
    O_BANDWIDTH,
    O_RADIUS,
    O_SPEED,
    O_CHAT,
    O_STAYMIN,
    O_STAYMAX,
    O_REJOIN,
    O_SPREAD_RADIUS,
    O_SPREAD_TIMEOUT,
    O_RCON_PORT,
    O_RCON_PASSWORD,
    O_CTIMEOUT,
    O_JTIMEOUT,
    O_STIMEOUT,
    O_MAXTIME,
    O_READIV,
    O_SEED,
    O_PREFIX,
    O_FIRST,
    O_METRICS_URL,
    O_BASELINE,
    O_MAX_REGRESSION,
    O_REGRESS_ON,
    O_ENTITIES,
    O_ENTITY,
    O_ENTITY_RADIUS,
    O_ENTITY_NBT,
    O_SUMMON_AFTER,
    O_HELP,
    O_VERSION,
    O_SELFTEST,
};

/* --scenario's names, by enum scenario (SC_SCRIPT is --script's). */
static const char *const scenario_names[SC_SCRIPT] = {
    [SC_IDLE] = "idle",           [SC_WALK] = "walk",   [SC_CHAT] = "chat",
    [SC_CROWD] = "crowd",         [SC_CHURN] = "churn", [SC_SPREAD] = "spread",
    [SC_EXPLOSION] = "explosion",
};

static int parse_args(int argc, char **argv)
{
    static const struct option lo[] = {
        {"host", required_argument, 0, O_HOST},
        {"port", required_argument, 0, O_PORT},
        {"bots", required_argument, 0, O_BOTS},
        {"rate", required_argument, 0, O_RATE},
        {"duration", required_argument, 0, O_DURATION},
        {"scenario", required_argument, 0, O_SCENARIO},
        {"script", required_argument, 0, O_SCRIPT},
        {"view-distance", required_argument, 0, O_VIEW},
        {"json", required_argument, 0, O_JSON},
        {"quiet", no_argument, 0, O_QUIET},
        {"max-failures", required_argument, 0, O_MAXFAIL},
        {"latency", required_argument, 0, O_LATENCY},
        {"jitter", required_argument, 0, O_JITTER},
        {"bandwidth", required_argument, 0, O_BANDWIDTH},
        {"radius", required_argument, 0, O_RADIUS},
        {"speed", required_argument, 0, O_SPEED},
        {"chat-every", required_argument, 0, O_CHAT},
        {"stay-min", required_argument, 0, O_STAYMIN},
        {"stay-max", required_argument, 0, O_STAYMAX},
        {"rejoin-pause", required_argument, 0, O_REJOIN},
        {"spread-radius", required_argument, 0, O_SPREAD_RADIUS},
        {"spread-timeout", required_argument, 0, O_SPREAD_TIMEOUT},
        {"rcon-port", required_argument, 0, O_RCON_PORT},
        {"rcon-password", required_argument, 0, O_RCON_PASSWORD},
        {"connect-timeout", required_argument, 0, O_CTIMEOUT},
        {"join-timeout", required_argument, 0, O_JTIMEOUT},
        {"silence-timeout", required_argument, 0, O_STIMEOUT},
        {"max-time", required_argument, 0, O_MAXTIME},
        {"read-interval", required_argument, 0, O_READIV},
        {"seed", required_argument, 0, O_SEED},
        {"name-prefix", required_argument, 0, O_PREFIX},
        {"first-index", required_argument, 0, O_FIRST},
        {"metrics-url", required_argument, 0, O_METRICS_URL},
        {"baseline", required_argument, 0, O_BASELINE},
        {"max-regression", required_argument, 0, O_MAX_REGRESSION},
        {"regress-on", required_argument, 0, O_REGRESS_ON},
        {"entities", required_argument, 0, O_ENTITIES},
        {"entity", required_argument, 0, O_ENTITY},
        {"entity-radius", required_argument, 0, O_ENTITY_RADIUS},
        {"entity-nbt", required_argument, 0, O_ENTITY_NBT},
        {"summon-after", required_argument, 0, O_SUMMON_AFTER},
        {"help", no_argument, 0, O_HELP},
        {"version", no_argument, 0, O_VERSION},
        {"self-test", no_argument, 0, O_SELFTEST},
        {0, 0, 0, 0},
    };
    struct opts *o = &bench.o;
    *o = (struct opts){
        .host = "127.0.0.1",
        .port = 25565,
        .bots = 10,
        .rate = 100,
        .duration = 10,
        .scenario = SC_IDLE,
        .scenario_name = "idle",
        .view_distance = 2,
        .radius = -1,
        .speed = 4.317,
        .chat_every = -1,
        .stay_min = 2,
        .stay_max = 10,
        .rejoin_pause = 1,
        .connect_timeout = 10,
        .join_timeout = 30,
        .silence_timeout = 60,
        .max_time = 0,
        .read_interval_ms = 20,
        .seed = 1,
        .prefix = "bot",
        .first_index = 1,
        .spread_radius = 2000,
        .spread_timeout = 10,
        .rcon_password = getenv("MCBENCH_RCON_PASSWORD"),
        .max_regression = 10,
        .entity = "cow",
        .entities = 1000,
        .entity_radius = 32,
        .summon_after = 2,
    };
    long l;
    int c, li = -1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", lo, &li)) != -1) {
        int rc = 0;
        char opt_name[40]; /* "--name" of the long option just read */
        snprintf(opt_name, sizeof opt_name, "--%s", li >= 0 ? lo[li].name : "?");
        li = -1;
        switch (c) {
        case O_HOST: o->host = optarg; break;
        case O_PORT: rc = parse_int(optarg, 1, 65535, &o->port, "--port"); break;
        case O_BOTS: rc = parse_int(optarg, 1, 1000000, &o->bots, "--bots"); break;
        case O_RATE: rc = parse_double(optarg, 0.001, 1e6, &o->rate, "--rate"); break;
        case O_DURATION: rc = parse_double(optarg, 0, 1e7, &o->duration, "--duration"); break;
        case O_SCENARIO: {
            int sc = 0;
            while (sc < SC_SCRIPT && strcmp(optarg, scenario_names[sc]) != 0) sc++;
            o->scenario_name = optarg;
            o->scenario = (enum scenario)sc;
            if (sc == SC_SCRIPT) { /* the script scenario is --script's */
                fprintf(stderr,
                        "mcbench: --scenario: idle, walk, chat, crowd, churn, spread or explosion, "
                        "not '%s'\n",
                        optarg);
                rc = -1;
            }
            break;
        }
        case O_SCRIPT: o->script = optarg; break;
        case O_VIEW: rc = parse_int(optarg, 2, 32, &o->view_distance, "--view-distance"); break;
        case O_JSON: o->json = optarg; break;
        case O_QUIET: o->quiet = true; break;
        case O_MAXFAIL:
            rc = parse_long(optarg, 0, 1000000000, &o->max_failures, "--max-failures");
            break;
        case O_LATENCY: rc = parse_double(optarg, 0, 60000, &o->latency_ms, "--latency"); break;
        case O_JITTER: rc = parse_double(optarg, 0, 60000, &o->jitter_ms, "--jitter"); break;
        case O_BANDWIDTH:
            rc = parse_double(optarg, 0, 1e7, &o->bandwidth_kBps, "--bandwidth");
            break;
        case O_RADIUS: rc = parse_double(optarg, 0, 1e6, &o->radius, "--radius"); break;
        case O_SPEED: rc = parse_double(optarg, 0.01, 1000, &o->speed, "--speed"); break;
        case O_CHAT: rc = parse_double(optarg, 0, 1e6, &o->chat_every, "--chat-every"); break;
        case O_STAYMIN: rc = parse_double(optarg, 0, 1e6, &o->stay_min, "--stay-min"); break;
        case O_STAYMAX: rc = parse_double(optarg, 0, 1e6, &o->stay_max, "--stay-max"); break;
        case O_REJOIN: rc = parse_double(optarg, 0, 1e6, &o->rejoin_pause, "--rejoin-pause"); break;
        case O_SPREAD_RADIUS: /* inside the world border (29,999,984) */
            rc = parse_double(optarg, 0, 29000000, &o->spread_radius, "--spread-radius");
            break;
        case O_RCON_PORT: rc = parse_int(optarg, 1, 65535, &o->rcon_port, "--rcon-port"); break;
        case O_RCON_PASSWORD: o->rcon_password = optarg; break;
        case O_SPREAD_TIMEOUT: rc = parse_timeout(optarg, &o->spread_timeout, opt_name); break;
        case O_CTIMEOUT: rc = parse_timeout(optarg, &o->connect_timeout, opt_name); break;
        case O_JTIMEOUT: rc = parse_timeout(optarg, &o->join_timeout, opt_name); break;
        case O_STIMEOUT: rc = parse_timeout(optarg, &o->silence_timeout, opt_name); break;
        case O_MAXTIME: rc = parse_double(optarg, 0.01, 1e7, &o->max_time, "--max-time"); break;
        case O_READIV:
            rc = parse_double(optarg, 0, 1000, &o->read_interval_ms, "--read-interval");
            break;
        case O_SEED:
            rc = parse_long(optarg, 0, 0x7fffffffffffffffL, &l, "--seed");
            o->seed = (uint64_t)l;
            break;
        case O_PREFIX: o->prefix = optarg; break;
        case O_METRICS_URL: o->metrics_url = optarg; break;
        case O_BASELINE: o->baseline = optarg; break;
        case O_MAX_REGRESSION:
            rc = parse_double(optarg, 0, 1e9, &o->max_regression, "--max-regression");
            break;
        case O_REGRESS_ON: o->regress_on = optarg; break;
        case O_ENTITIES: rc = parse_int(optarg, 1, 10000, &o->entities, "--entities"); break;
        case O_ENTITY:
            o->entity = optarg;
            for (const char *p = optarg; *p && !rc; p++)
                if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
                      *p == ':')) {
                    fprintf(stderr, "mcbench: --entity: an entity type such as cow, not '%s'\n",
                            optarg);
                    rc = -1;
                }
            if (!*optarg) rc = -1;
            break;
        case O_ENTITY_RADIUS:
            rc = parse_double(optarg, 0, 256, &o->entity_radius, "--entity-radius");
            break;
        case O_ENTITY_NBT:
            o->entity_nbt = optarg;
            if (strlen(optarg) > 120) {
                fprintf(stderr, "mcbench: --entity-nbt: at most 120 characters\n");
                rc = -1;
            }
            break;
        case O_SUMMON_AFTER:
            rc = parse_double(optarg, 0, 3600, &o->summon_after, "--summon-after");
            break;
        case O_FIRST: rc = parse_int(optarg, 0, 99999999, &o->first_index, "--first-index"); break;
        case 'h':
        case O_HELP: usage(stdout); exit(0);
        case O_SELFTEST: exit(selftest_run() ? 1 : 0);
        case O_VERSION:
            printf("mcbench %s (Minecraft %s, protocol %d)\n", MCBENCH_VERSION, MC_VERSION_NAME,
                   MC_PROTOCOL_VERSION);
            exit(0);
        default:
            fprintf(stderr, "mcbench: unknown or incomplete option '%s' (see --help)\n",
                    argv[optind - 1]);
            return -1;
        }
        if (rc) return -1;
    }
    if (optind < argc) {
        fprintf(stderr, "mcbench: unexpected argument '%s' (see --help)\n", argv[optind]);
        return -1;
    }
    if (o->script) {
        o->scenario = SC_SCRIPT;
        o->scenario_name = "script";
    }
    if (o->radius < 0) o->radius = o->scenario == SC_CROWD ? 8 : 128;
    if (o->chat_every < 0)
        o->chat_every = o->scenario == SC_CHAT ? 5 : o->scenario == SC_WALK ? 30 : 0;
    if (o->rcon_port) {
        /* vanilla reads RCON requests into a 1460-byte buffer */
        size_t pw = o->rcon_password ? strlen(o->rcon_password) : 0;
        if (pw == 0 || pw > RCON_MAX_LENGTH - 10) {
            fprintf(stderr,
                    "mcbench: --rcon-port needs a password of 1..%d bytes (--rcon-password "
                    "or $MCBENCH_RCON_PASSWORD)\n",
                    RCON_MAX_LENGTH - 10);
            return -1;
        }
        if (o->scenario != SC_SPREAD && o->scenario != SC_EXPLOSION) {
            fprintf(stderr, "mcbench: --rcon-port is for --scenario spread or explosion\n");
            return -1;
        }
    }
    if (o->scenario == SC_EXPLOSION && !o->rcon_port) {
        fprintf(stderr,
                "mcbench: --scenario explosion needs --rcon-port (the summon goes over RCON)\n");
        return -1;
    }
    if (o->regress_on && !o->baseline) {
        fprintf(stderr, "mcbench: --regress-on needs --baseline\n");
        return -1;
    }
    if (o->stay_max < o->stay_min) {
        fprintf(stderr, "mcbench: --stay-max must be >= --stay-min\n");
        return -1;
    }
    /* Names are 3..16 characters of [A-Za-z0-9_] (offline-mode convention). */
    size_t pl = strlen(o->prefix);
    for (size_t i = 0; i < pl; i++) {
        char ch = o->prefix[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_')) {
            fprintf(stderr, "mcbench: --name-prefix: only A-Z a-z 0-9 _ allowed\n");
            return -1;
        }
    }
    char last[32];
    int ln = snprintf(last, sizeof last, "%s%04d", o->prefix, o->first_index + o->bots - 1);
    if (ln > BOT_NAME_MAX || pl + 4 < 3) {
        fprintf(stderr, "mcbench: bot names would be longer than 16 characters ('%s')\n", last);
        return -1;
    }
    if (o->max_time <= 0)
        o->max_time =
            (double)o->bots / o->rate + o->join_timeout + o->connect_timeout + o->duration + 60;
    return 0;
}

static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (rlim_t)bench.o.bots + 32 > rl.rlim_cur && !bench.o.quiet)
        fprintf(stderr,
                "mcbench: warning: %d bots but only %llu file descriptors; the rest will fail\n",
                bench.o.bots, (unsigned long long)rl.rlim_cur);
}

static int resolve(void)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_family = AF_UNSPEC;
    char port[16];
    snprintf(port, sizeof port, "%d", bench.o.port);
    int rc = getaddrinfo(bench.o.host, port, &hints, &res);
    if (rc || !res) {
        fprintf(stderr, "mcbench: cannot resolve %s: %s\n", bench.o.host, gai_strerror(rc));
        return -1;
    }
    bench.addr = calloc(1, sizeof *bench.addr);
    if (!bench.addr) {
        freeaddrinfo(res);
        return -1;
    }
    memcpy(bench.addr, res->ai_addr, res->ai_addrlen);
    bench.addr_len = (unsigned)res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static void stop(const char *why)
{
    if (bench.stopping) return;
    bench.stopping = true;
    bench.stop_reason = why;
    loop_stop(&bench.loop);
}

/* ------------------------------------------------------------------ joins */

void bench_enqueue_join(bot *b)
{
    list_push_back(&bench.join_queue, &b->join_link);
    /* Pumped in the next pass unless the rate limiter's timer is already
     * waiting for a token. */
    if (!loop_timer_armed(&bench.t_join))
        loop_timer_at(&bench.loop, &bench.t_join, bench.loop.now_ms);
}

/* Token bucket: `rate` joins per second, bursts of at most 50 ms worth. */
static void joins_pump(void)
{
    double burst = bench.o.rate / 20.0 < 1.0 ? 1.0 : bench.o.rate / 20.0;
    bench.join_tokens += (double)(bench.loop.now_us - bench.join_tokens_at_us) * bench.o.rate / 1e6;
    bench.join_tokens_at_us = bench.loop.now_us;
    if (bench.join_tokens > burst) bench.join_tokens = burst;
    while (!list_empty(&bench.join_queue) && bench.join_tokens >= 1.0 && !bench.stopping) {
        bot *b = list_entry(bench.join_queue.next, bot, join_link);
        list_remove(&b->join_link);
        bench.join_tokens -= 1.0;
        bot_start(b);
    }
}

/* Milliseconds until the bucket holds a whole token again. */
static int join_wait_ms(void)
{
    double need = 1.0 - bench.join_tokens;
    if (need <= 0) return 0;
    double ms = need / bench.o.rate * 1000.0;
    return ms < 1 ? 1 : ms > 1000 ? 1000 : (int)ceil(ms);
}

static void on_join_timer(loop_timer *t)
{
    joins_pump();
    if (!list_empty(&bench.join_queue) && !bench.stopping)
        loop_timer_after(&bench.loop, t, join_wait_ms());
}

/* ------------------------------------------------------------------ hooks */

/* A before-sleep hook: stops the run once one of its ends is reached. */
static void check_end(void *arg)
{
    (void)arg;
    if (got_signal) stop("interrupted by a signal");
    if (bench.loop.now_us - bench.start_us >= (int64_t)(bench.o.max_time * 1e6))
        stop("--max-time reached");
    if (!bench.hold_start_ms && bench.settled_initial >= bench.o.bots) {
        bench.hold_start_ms = bench.loop.now_ms;
        bench.hold_start_wall_ms = clock_wall_ms();
        bench.hold_rx_bytes0 = bench.rx_bytes;
        bench.hold_seen0 = bench.seen.len;
        explode_hold_started();
    }
    if (bench.hold_start_ms &&
        bench.loop.now_ms - bench.hold_start_ms >= (int64_t)(bench.o.duration * 1000.0))
        stop("duration over");
    if (bench.started_initial >= bench.o.bots && list_empty(&bench.join_queue) &&
        bench.rejoins_pending == 0 && bench.connecting + bench.in_login + bench.in_play == 0)
        stop("no bot left running");
}

/* Before-sleep hooks, run in this order every pass. */
enum { HOOK_FLUSH_REAP, HOOK_END_CHECK, HOOK_PROGRESS };

static void flush_and_reap(void *arg)
{
    (void)arg;
    bot_flush_all();
    bot_reap_all();
}

/* After the end checks: no progress line in the pass that ends the run. */
static void on_progress(void *arg)
{
    (void)arg;
    if (bench.stopping || bench.loop.now_ms < bench.next_progress_ms) return;
    report_progress(false);
    bench.next_progress_ms += 1000;
    if (bench.next_progress_ms <= bench.loop.now_ms)
        bench.next_progress_ms = bench.loop.now_ms + 1000;
    loop_timer_at(&bench.loop, &bench.t_progress, bench.next_progress_ms);
}

/* Only wakes the loop: the progress hook prints, after the end checks. */
static void on_progress_due(loop_timer *t)
{
    (void)t;
}

static int run(void)
{
    loop *l = &bench.loop;
    loop_update_clock(l);
    bench.start_us = l->now_us;
    bench.start_wall_ms = clock_wall_ms();
    bench.join_tokens_at_us = l->now_us;
    bench.join_tokens = 1.0;
    bench.next_progress_ms = l->now_ms + 1000;
    bench.prog_cpu = self_cpu_seconds();
    loop_set_batch_interval(l, bench.batch_ms);
    loop_timer_init(&bench.t_join, on_join_timer);
    loop_timer_init(&bench.t_progress, on_progress_due);
    loop_timer_at(l, &bench.t_progress, bench.next_progress_ms);
    if (loop_hook_add(l, HOOK_FLUSH_REAP, flush_and_reap, NULL) < 0 ||
        loop_hook_add(l, HOOK_END_CHECK, check_end, NULL) < 0 ||
        loop_hook_add(l, HOOK_PROGRESS, on_progress, NULL) < 0)
        return -1;
    for (int i = 0; i < bench.o.bots; i++) bench_enqueue_join(&bench.bots[i]);
    scrape_start();
    int rc = loop_run(l);
    scrape_stop();
    if (rc < 0) {
        errno = -rc;
        perror("epoll_wait");
        stop("epoll_wait failed");
    }
    /* Chunk waits still open: a bot that never got its chunk is not in the
     * histogram, so the report names them. */
    for (int i = 0; i < bench.o.bots; i++) {
        const bot *b = &bench.bots[i];
        if (b->state != BS_PLAY || !b->chunk_wait_since_us) continue;
        bench.open_waits++;
        if (l->now_us - b->chunk_wait_since_us > bench.open_wait_max_us)
            bench.open_wait_max_us = l->now_us - b->chunk_wait_since_us;
    }
    /* Everyone still here leaves: not a failure, and not counted as "left". */
    bench.active_at_end = bench.in_play;
    bench.connecting_at_end = bench.connecting;
    bench.in_login_at_end = bench.in_login;
    uint64_t left = bench.left;
    for (int i = 0; i < bench.o.bots; i++) bot_leave(&bench.bots[i], false);
    bench.left = left;
    flush_and_reap(NULL);
    loop_update_clock(l);
    return 0;
}

int main(int argc, char **argv)
{
    if (parse_args(argc, argv) < 0) return 2;
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    raise_nofile();
    if (resolve() < 0) return 2;

    bench.np.latency_us = (int64_t)(bench.o.latency_ms * 1000.0);
    bench.np.jitter_us = (int64_t)(bench.o.jitter_ms * 1000.0);
    bench.np.rate_bytes_per_us = bench.o.bandwidth_kBps * 1000.0 / 1e6;
    bench.netem = bench.o.latency_ms > 0 || bench.o.jitter_ms > 0 || bench.o.bandwidth_kBps > 0;
    bench.rng = bench.o.seed * 0x2545f4914f6cdd1dull + 1;
    bench.lim.max_frame = FRAME_MAX_LENGTH;
    bench.lim.max_packet = FRAME_MAX_PACKET;
    buf_init(&bench.scratch, FRAME_MAX_PACKET);
    buf_init(&bench.pkt, 64u << 10);
    buf_init(&bench.framed, 128u << 10);
    bench.rdbuf = malloc(READ_CHUNK);
    bench.compressor = libdeflate_alloc_compressor(1);
    bench.decompressor = libdeflate_alloc_decompressor();
    bench.bots = calloc((size_t)bench.o.bots, sizeof *bench.bots);
    bench.fail_list = calloc(FAIL_LIST_MAX, sizeof *bench.fail_list);
    list_init(&bench.join_queue);
    bench.batch_ms = (int)bench.o.read_interval_ms;
    if (!bench.rdbuf || !bench.compressor || !bench.decompressor || !bench.bots ||
        !bench.fail_list || loop_init(&bench.loop) < 0) {
        fprintf(stderr, "mcbench: setup failed (out of memory or descriptors)\n");
        return 2;
    }
    for (int p = 0; p < PH_COUNT; p++) hist_init(&bench.phase[p]);
    hist_init(&bench.ka_interval);
    hist_init(&bench.ka_age);
    hist_init(&bench.chunk_wait);
    hist_init(&bench.spread.teleport);
    hist_init(&bench.spread.arrival);
    bench.seen.limit = SEEN_MAX;
    for (int i = 0; i < bench.o.bots; i++) bot_setup(&bench.bots[i], i);
    if (bench.o.script && script_load(bench.o.script) < 0) return 2;
    if (bench.o.metrics_url && scrape_open(bench.o.metrics_url) < 0) return 2;
    if (bench.o.baseline &&
        baseline_open(bench.o.baseline, bench.o.regress_on, bench.o.metrics_url != NULL) < 0)
        return 2;
    if (bench.o.rcon_port) {
        struct sockaddr_storage ra = *bench.addr;
        uint16_t port = htons((uint16_t)bench.o.rcon_port);
        if (ra.ss_family == AF_INET6)
            ((struct sockaddr_in6 *)&ra)->sin6_port = port;
        else
            ((struct sockaddr_in *)&ra)->sin_port = port;
        if (rcon_client_open((struct sockaddr *)&ra, bench.addr_len, bench.o.rcon_password) < 0)
            return 2;
    }

    if (!bench.o.quiet)
        fprintf(stderr, "mcbench: %d bots, scenario %s, %s:%d, rate %g/s, hold %g s\n",
                bench.o.bots, bench.o.scenario_name, bench.o.host, bench.o.port, bench.o.rate,
                bench.o.duration);
    if (run() < 0) {
        fprintf(stderr, "mcbench: setup failed (event loop)\n");
        return 2;
    }
    report_progress(true);

    int code = (long long)bench.failed > (long long)bench.o.max_failures ? 1 : 0;
    report_write(stdout);
    scrape_write_table(stdout);
    if (baseline_on()) { /* this run's report, as --json writes it, against the old one */
        char *doc = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&doc, &len);
        if (m && report_write_json_to(m, code) == 0 && fclose(m) == 0) {
            if (baseline_compare(doc, len, bench.o.max_regression, stdout) && code == 0) code = 1;
        } else {
            fprintf(stderr, "mcbench: the report for the baseline comparison could not be built\n");
            if (code == 0) code = 1;
        }
        free(doc);
    }
    fflush(stdout);
    if (bench.o.json && report_write_json(bench.o.json, code) < 0) code = 3;

    script_close();
    rcon_client_close();
    scrape_free();
    series_free();
    baseline_close();
    chunkset_free(&bench.seen);
    libdeflate_free_compressor(bench.compressor);
    libdeflate_free_decompressor(bench.decompressor);
    buf_free(&bench.scratch);
    buf_free(&bench.pkt);
    buf_free(&bench.framed);
    free(bench.rdbuf);
    free(bench.bots);
    free(bench.fail_list);
    free(bench.addr);
    loop_free(&bench.loop);
    return code;
}
