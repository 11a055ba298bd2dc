/*
 * mcbench.h — shared state of mcbench, the bot swarm that load-tests any
 * Minecraft Java 1.20.1 (protocol 763) server.
 *
 * One process, one thread, one array of bots, on the event loop mcserv
 * runs on too (core/loop.h). Each bot is a small state machine driven by
 * its socket's loop watch and by loop timers (the loop's timing wheel); no
 * thread and no stack per bot. Lua scripts run as one coroutine per bot
 * inside a single lua_State.
 *
 * Bot lifecycle:
 *
 *   WAITING --(join rate allows)--> CONNECTING --connected--> LOGIN
 *     ^                                                         |
 *     |                                   Login Success --------+
 *     |                                                         v
 *     +--(churn: pause over)-- LEFT <--(leave / run over)---- PLAY
 *                                                               |
 *   any state --(refused, timeout, kick, protocol error, ...)--> FAILED
 *
 *   "joined" (counted once per session) = PLAY + first Synchronize Player
 *   Position + the chunk at that position received.
 *
 * Invariants:
 *  1. Only this thread touches bots. A bot is closed (socket gone, timers
 *     cancelled) at once when it fails or leaves, but its buffers and its
 *     Lua coroutine are released only at the end of the loop pass (reap), so
 *     no handler up the stack ever sees freed memory.
 *  2. Every per-bot buffer has a cap: input <= one maximum frame plus one
 *     read, output <= BOT_OUTPUT_LIMIT, emulated link queues <= NETQ_LIMIT.
 *     A bot that would pass a cap fails with a reason; mcbench never grows
 *     without bound and never aborts because of what a server sent.
 *  3. Every socket is always drained (reads until EAGAIN or a per-pass
 *     budget); only the emulated bandwidth may pause reading, like a real
 *     bottleneck link.
 *  4. Latencies are measured from the start of the bot's current session
 *     (the connect call) with CLOCK_MONOTONIC, in microseconds. Bots that
 *     have not joined yet sit in the loop's main set and are read the moment
 *     data arrives, so join-phase latencies are exact to a loop pass. Joined
 *     bots move to the loop's batched set, drained every --read-interval ms
 *     (like a client that handles the network once per frame): that batches many
 *     server writes into one read and keeps mcbench far cheaper than the
 *     server it measures; times measured after the join are exact to
 *     within that interval.
 */
#ifndef MCB_MCBENCH_H
#define MCB_MCBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "bench/hist.h"
#include "bench/netq.h"
#include "bench/pktnames.h"
#include "core/buf.h"
#include "core/list.h"
#include "core/loop.h"
#include "proto/frame.h"
#include "proto/wire.h"

#define MCBENCH_VERSION "1.0"
#define BOT_NAME_MAX    16
#define BOT_OUTPUT_LIMIT                                                                           \
    (1u << 20) /* a bot writes little; 1 MiB means the server stopped reading */
#define READ_CHUNK       (256u << 10)     /* one recv() into the shared buffer */
#define READ_BUDGET      (4 * READ_CHUNK) /* per bot per loop pass, for fairness */
#define FAIL_LIST_MAX    1000             /* per-bot failure records kept for the report */
#define FAIL_REASONS_MAX 64               /* distinct reasons; more go to "other" */
#define REASON_MAX       160
#define CHAT_MAX         256
#define BOT_NO_SCRIPT    (-2) /* == LUA_NOREF, checked in script.c */

enum scenario { SC_IDLE, SC_WALK, SC_CHAT, SC_CROWD, SC_CHURN, SC_SPREAD, SC_EXPLOSION, SC_SCRIPT };

/* spread: how far a bot is on its way to its random point (behave.c). */
enum spread_state {
    SP_NONE,       /* not a spread bot, or not joined yet */
    SP_ASKED,      /* its tp was requested (RCON or its own /tp); waiting */
    SP_TELEPORTED, /* at its point, waiting for the chunk under it */
    SP_WALKING,    /* no teleport within --spread-timeout: walking there */
    SP_ARRIVED,    /* at its point with the chunk there: walking around it */
};

enum bot_state { BS_WAITING, BS_CONNECTING, BS_LOGIN, BS_PLAY, BS_LEFT, BS_FAILED };

enum fail_kind { FK_REFUSED, FK_TIMEOUT, FK_KICKED, FK_PROTOCOL, FK_CLOSED, FK_ERROR, FK_COUNT };

enum phase { PH_CONNECT, PH_LOGIN, PH_FIRST_POS, PH_FIRST_CHUNK, PH_OWN_CHUNK, PH_COUNT };

/* Chunks a bot holds: open addressing over packed (x, z), no tombstones. */
typedef struct chunkset {
    uint64_t *slot;
    uint32_t cap, len; /* cap is 0 or a power of two */
    uint32_t limit;    /* grows until it holds this many (0 = CHUNKSET_MAX), then stops */
    bool overflow;     /* it stopped growing: later chunks may be untracked */
} chunkset;
#define CHUNKSET_MAX 16384      /* one bot's chunks: far more than view distance 32 holds */
#define SEEN_MAX     (1u << 21) /* distinct chunks over all bots (a 1,448-chunk square; 32 MiB) */

static inline uint64_t chunk_key(int32_t x, int32_t z)
{
    return ((uint64_t)(uint32_t)x << 32) | (uint32_t)z;
}
/* Returns true if k was new (false also when full: `overflow` is then set). */
bool chunkset_add(chunkset *s, uint64_t k);
bool chunkset_has(const chunkset *s, uint64_t k);
void chunkset_del(chunkset *s, uint64_t k);
void chunkset_free(chunkset *s);

typedef struct bot {
    int idx;
    char name[BOT_NAME_MAX + 1];
    uint8_t name_len;
    mc_uuid uuid;
    enum bot_state state;
    int fd;            /* the socket; -1 while closed */
    loop_watch watch;  /* fd's registration; in the batched set once joined */
    bool want_write;   /* EPOLLOUT armed for a blocked write */
    bool on_flush;     /* on the flush list */
    bool on_reap;      /* on the reap list */
    bool rx_paused;    /* emulated link full: EPOLLIN off */
    bool in_script;    /* its coroutine is running right now */
    bool ever_joined;  /* counted in `joined` for the current session */
    bool initial_done; /* its first session settled (joined or failed) */
    int threshold;     /* compression: -1 = off */
    uint8_t phases;    /* bit per enum phase reached this session */
    int64_t t0_us;     /* session start (connect call) */
    int64_t last_rx_ms;
    buf_t rbuf, wbuf;
    netq *rxq, *txq;       /* only with --latency/--jitter/--bandwidth */
    loop_timer t_act;      /* scenario/script tick */
    loop_timer t_deadline; /* connect/join/silence timeout */
    loop_timer t_rx, t_tx; /* emulated link release */
    struct bot *next_flush, *next_reap;
    list_node join_link; /* on bench.join_queue while it waits for the rate limiter */
    list_node rcon_link; /* on rcon_client.c's queue while its tp waits */
    uint32_t sessions;

    /* PLAY */
    int32_t entity_id;
    int gamemode;
    bool have_pos;
    double x, y, z;
    float yaw, pitch;
    double home_x, home_z; /* first position: centre of random walks */
    chunkset chunks;
    uint64_t chunks_rx;
    int64_t last_keepalive_ms;
    int64_t chunk_wait_since_us; /* moved into a chunk not yet received */
    int32_t seq;                 /* block interaction sequence */

    /* spread */
    enum spread_state spread;
    double spread_x, spread_z; /* its point (block centre) */
    int64_t spread_ask_us;     /* when it asked for the teleport */
    int64_t spread_deadline_ms;

    /* behaviour */
    bool moving;
    bool look_dirty;
    double tx, ty, tz, speed; /* movement target */
    int64_t next_move_ms, next_chat_ms, leave_at_ms, script_wake_ms;
    uint32_t chat_seq;
    uint64_t rng;

    /* explosion: this bot's current 50 ms receive window (explode.c) */
    int64_t win_ms;
    uint32_t win_bytes, win_pkts;

    /* script */
    int co_ref; /* BOT_NO_SCRIPT when none */
    void *co;   /* its lua_State (thread) while co_ref holds it */
    enum { SW_NONE, SW_TIMER, SW_MOVE, SW_CHAT } wait;
    char *chat_pat; /* wait_chat substring, owned */
} bot;

struct fail_reason {
    enum fail_kind kind;
    char text[REASON_MAX];
    uint64_t count;
};

struct fail_rec {
    int bot;
    enum fail_kind kind;
    enum bot_state state;
    int64_t t_ms; /* since the run started */
    uint16_t reason;
};

struct opts {
    const char *host;
    int port;
    int bots;
    double rate;
    double duration;
    enum scenario scenario;
    const char *scenario_name;
    const char *script;
    int view_distance;
    const char *json;
    bool quiet;
    long max_failures;
    double latency_ms, jitter_ms, bandwidth_kBps;
    double radius;
    double speed;
    double chat_every;
    double stay_min, stay_max, rejoin_pause;
    double connect_timeout, join_timeout, silence_timeout;
    double max_time;
    double read_interval_ms;
    uint64_t seed;
    const char *prefix;
    int first_index;
    double spread_radius;  /* spread: points within +-R blocks of the spawn */
    double spread_timeout; /* spread: seconds to wait for the teleport, then walk */
    int rcon_port;         /* spread: teleport through RCON on --host:port; 0 = off */
    const char *rcon_password;
    const char *metrics_url; /* --metrics-url: the server's /metrics, scraped once a second */
    const char *baseline;    /* --baseline: an earlier JSON report to compare with */
    double max_regression;   /* --max-regression: percent a checked figure may worsen */
    const char *regress_on;  /* --regress-on: the checked figures (NULL: the default list) */
    const char *entity;      /* explosion: the type summoned (--entity) */
    int entities;            /* explosion: how many, in one command (--entities) */
    double entity_radius;    /* explosion: around the spawn (--entity-radius) */
    double summon_after;     /* explosion: seconds into the hold (--summon-after) */
    const char *entity_nbt;  /* explosion: NBT for each (--entity-nbt), NULL none */
};

/* The explosion scenario's figures (explode.c). */
struct boom_stats {
    bool sent, replied;
    int64_t sent_ms, reply_ms; /* since the run started; sent: the command went out */
    char command[200];
    char reply[REASON_MAX];
    hist win_bytes, win_pkts; /* per bot per 50 ms receive window with traffic, after the send */
    uint64_t spawns_at_send;  /* Spawn Entity packets received before the send */
    uint64_t failed_at_send, kicked_at_send;
    loop_timer t_send;
};

/* The spread scenario's figures (behave.c, rcon_client.c). */
struct spread_stats {
    uint64_t asked_rcon, asked_command; /* how bots asked for their teleport */
    uint64_t teleported;                /* a Synchronize Player Position put the bot there */
    uint64_t timed_out;                 /* none within --spread-timeout: walked instead */
    uint64_t arrived, walked_arrived;   /* at the point with its chunk; of them by walking */
    uint64_t rcon_sent, rcon_replies;
    hist teleport; /* us from asking to the teleport */
    hist arrival;  /* us from asking to the chunk under the bot at its point */
    char rcon_first_reply[REASON_MAX];
    char rcon_lost[REASON_MAX]; /* why the RCON connection ended early; "" = it did not */
};

struct traffic {
    uint64_t count[PKTN_STATES][2][256]; /* [state][in=1/out=0][id] */
    uint64_t bytes[PKTN_STATES][2][256]; /* wire bytes, framing and compression included */
};

struct bench {
    struct opts o;
    /* The event loop: sockets, timers, before-sleep hooks and the clock
     * (loop.now_ms / loop.now_us, read once per pass). Bots not yet joined
     * are in its main set; joined ones in its batched set, polled every
     * batch_ms (see main.c). */
    loop loop;
    int batch_ms;          /* --read-interval in whole ms; 0: joined bots stay in the main set */
    loop_timer t_join;     /* the join rate limiter's next token */
    loop_timer t_progress; /* wakes the loop for the next progress line */
    int64_t start_us;
    bot *bots;
    bot *flush_list, *reap_list;
    list_node join_queue; /* bots waiting for the rate limiter, in join order */
    double join_tokens;
    int64_t join_tokens_at_us;
    int started_initial;                       /* bots whose first session began */
    int settled_initial;                       /* bots whose first session joined or failed */
    int64_t hold_start_ms;                     /* 0 until every initial join settled */
    int64_t start_wall_ms, hold_start_wall_ms; /* the same moments on the wall clock */
    uint64_t hold_rx_bytes0, hold_seen0;       /* rx_bytes and seen.len when the hold began */
    int rejoins_pending;                       /* churn bots waiting out their pause */
    bool stopping;
    const char *stop_reason;
    struct sockaddr_storage *addr;
    unsigned addr_len;
    struct netq_params np;
    bool netem;
    uint64_t rng;
    struct libdeflate_compressor *compressor;
    struct libdeflate_decompressor *decompressor;
    buf_t scratch; /* inflate target */
    buf_t pkt;     /* packet being built */
    buf_t framed;  /* a framed packet on its way into an emulated link */
    uint8_t *rdbuf;
    frame_limits lim;

    /* counters */
    int connecting, in_login, in_play; /* bots in each state now */
    int active_at_end, connecting_at_end, in_login_at_end;
    uint64_t sessions, joined, joined_initial, left, failed;
    uint64_t chat_sent, chat_rx, keepalive_rx, keepalive_tx, teleports, chunks_rx, unloads_rx;
    uint64_t moves_sent, chunk_waits;
    uint64_t open_waits;      /* bots still waiting for their chunk when the run ended */
    int64_t open_wait_max_us; /* the longest of those waits */
    uint64_t rx_bytes, tx_bytes;
    uint64_t script_done, script_left, script_errors;
    hist phase[PH_COUNT];
    hist ka_interval; /* ms between keep-alives a bot receives */
    hist ka_age;      /* keep-alive id read as the server's wall clock: now - id */
    uint64_t ka_age_ok, ka_age_bad;
    hist chunk_wait; /* us a moving bot stood in a chunk it had not received */
    chunkset seen;   /* every chunk any bot received (limit SEEN_MAX) */
    struct spread_stats spread;
    struct boom_stats boom;
    struct traffic tr;
    uint64_t fail_by_kind[FK_COUNT];
    struct fail_reason reasons[FAIL_REASONS_MAX + 1];
    unsigned reason_count;
    struct fail_rec *fail_list;
    unsigned fail_list_len;
    uint64_t fail_list_dropped;

    /* progress */
    int64_t next_progress_ms;
    uint64_t prog_joined, prog_rx, prog_tx;
    double prog_cpu;
};

extern struct bench bench;

/* --- bot.c --- */
void bot_setup(bot *b, int idx);
void bot_start(bot *b);
void bot_flush_all(void);
void bot_reap_all(void);
/* Fails the bot (closes it now, frees at reap). reason is plain text. */
void bot_fail(bot *b, enum fail_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Leaves on purpose (churn, script, end of run): not a failure. */
void bot_leave(bot *b, bool rejoin);
/* Frames bench.pkt (id + payload) and queues it to the bot. */
void bot_send(bot *b);
buf_t *bot_pkt(int32_t id);
bool bot_chunk_loaded(const bot *b, int32_t cx, int32_t cz);
/* Plain text of a JSON chat component (see bot.c); out is NUL-terminated. */
void chat_plain(const char *json, size_t n, char *out, size_t cap);
const char *bot_state_name(enum bot_state s);
const char *fail_kind_name(enum fail_kind k);
const char *phase_name(enum phase p);

/* --- behave.c: scenarios and movement --- */
void behave_joined(bot *b);
void behave_on_act(loop_timer *t);
void behave_rearm(bot *b);
/* Heads for (x, y, z) at `speed` m/s, one step per movement tick. */
void behave_move_to(bot *b, double x, double y, double z, double speed);
void behave_after_teleport(bot *b);
void behave_check_chunk_wait(bot *b);
/* spread: the bot asks for its teleport with its own /tp command. */
void behave_spread_ask_command(bot *b);
void send_chat(bot *b, const char *text, size_t len);
void send_position(bot *b, bool with_look);
void send_look(bot *b);
void send_dig(bot *b, int32_t x, int32_t y, int32_t z, int face);
void send_place(bot *b, int32_t x, int32_t y, int32_t z, int face);
void send_creative_slot(bot *b, int slot, int item, int count);
void send_held_slot(bot *b, int slot);

/* --- explode.c: the explosion scenario --- */
/* The hold began: the summon goes out --summon-after seconds later. */
void explode_hold_started(void);
/* A packet of `wire` bytes reached b in PLAY (its 50 ms receive windows). */
void explode_packet(bot *b, size_t wire);
/* The summon's reply (rcon_client.c). */
void explode_replied(const char *text);
void explode_report(FILE *f);
void explode_json(FILE *f); /* "explosion":{...} or "explosion":null */

/* --- rcon_client.c: teleports for spread over RCON --- */
/* Connects and logs in (blocking, bounded by --connect-timeout); 0, or -1
 * with the reason on stderr. */
int rcon_client_open(const struct sockaddr *addr, unsigned addr_len, const char *password);
bool rcon_client_live(void);
/* Queues `tp <name> <spread_x> <y> <spread_z>` for b. */
void rcon_client_tp(bot *b);
/* Sends one command (explosion: the summon) as soon as no request is in
 * flight; its reply goes to explode_replied. 0, or -1 (not live, one waiting). */
int rcon_client_command(const char *text);
/* Takes b off the queue (its wait is over, or it is gone). */
void rcon_client_cancel(bot *b);
void rcon_client_close(void);

/* --- script.c: Lua --- */
int script_load(const char *path);
void script_start(bot *b);
void script_wake(bot *b);
void script_on_chat(bot *b, const char *text, size_t len);
void script_release(bot *b);
void script_close(void);

/* --- report.c --- */
void report_progress(bool final);
void report_write(FILE *f);
int report_write_json(const char *path, int exit_code);
/* The same document to an open stream; 0, or -1 on a write error. */
int report_write_json_to(FILE *f, int exit_code);
void record_fail(bot *b, enum fail_kind kind, const char *reason);
double self_cpu_seconds(void);
long self_rss_kib(void);
long self_maxrss_kib(void);

/* --- scrape.c: the server's /metrics during the run (--metrics-url) --- */
/* Parses and resolves the URL (at start); 0, or -1 with the reason on stderr. */
int scrape_open(const char *url);
bool scrape_on(void);
void scrape_start(void);
void scrape_stop(void);
void scrape_free(void);
/* The latest scrape (valid false before the first; NaN where it had no figure). */
struct server_now {
    bool valid;
    double tps, mspt_p50_ms, mspt_p99_ms, mspt_max_ms;
};
void scrape_latest(struct server_now *now);
/* The server's mean MSPT per scrape interval after since_ms (run time):
 * the highest, and the time from since_ms to the end of the first interval
 * from which every later one stayed under limit_ms (-1 never). False when
 * no interval ended after since_ms. */
bool scrape_recovery(int64_t since_ms, double limit_ms, double *peak_ms, double *recover_ms);
/* The server's figures over the hold (or the run; see scrape.c). */
struct server_figures {
    bool hold;
    size_t samples;
    double tps, mspt_p50, mspt_p99, mspt_max, mspt_mean; /* ms; NaN unknown */
    int nphases;
    const char *phase_name[24];
    double phase_mean_ms[24];
};
void scrape_figures(struct server_figures *f);
void scrape_write_table(FILE *f);
void scrape_write_json(FILE *f); /* "server":{...} or "server":null */

/* --- series.c: the windowed join p99 and the per-second series --- */
void series_join(uint64_t us);
double series_join_p99_5s_ms(void); /* NaN: no join in the window */
void series_second(double t_s, double joins, double rx_mb, double tx_mb, double cpu_pct);
void series_write_json(FILE *f); /* "series":{...} */
void series_free(void);

/* --- baseline.c: --baseline, --max-regression, --regress-on --- */
/* Reads the baseline and the checked figures (at start); 0, or -1 (stderr). */
int baseline_open(const char *path, const char *regress_on, bool with_metrics);
bool baseline_on(void);
/* Compares this run's JSON report with the baseline, printing to out:
 * 1 when a checked figure regressed past max_regression %, else 0. */
int baseline_compare(const char *report, size_t len, double max_regression, FILE *out);
void baseline_close(void);

/* --- selftest.c --- */
int selftest_run(void);

/* --- main.c --- */
/* Queues b for the join rate limiter (first join and churn rejoins). */
void bench_enqueue_join(bot *b);
static inline int64_t since_start_ms(void)
{
    return (bench.loop.now_us - bench.start_us) / 1000;
}

#endif
