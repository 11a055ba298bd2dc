/*
 * server.h — the server process: one game thread running an epoll event loop
 * with a fixed 20 TPS tick, and the connections it owns.
 *
 * Connection lifecycle:
 *
 *   [PROXY v1/v2 header, with proxy-protocol=true]
 *   HANDSHAKE --next=1--> STATUS --ping/pong--> closed
 *       |        (0xFE first byte: legacy ping reply, closed)
 *       +--next=2--> LOGIN --(Set Compression)--Login Success--> PLAY
 *                    (online: encryption + hasJoined first; Velocity: plugin
 *                     request/response first; see net/handshake.c)
 *   any state --conn_kick--> CLOSING (reason queued and flushed, the write side
 *                            shut; closed at the client's EOF or after 1 s)
 *   any state --conn_drop--> closed
 *
 * Loop pass (server_run):
 *   1. epoll_wait with the timeout to the next tick deadline
 *   2. accept; read + decode + dispatch input for readable connections
 *   3. run the tick that is due (50 ms, CLOCK_MONOTONIC; at most one per pass,
 *      more than 2 s behind: skipped with "Can't keep up!", see schedule_tick)
 *   4. before sleeping: stream chunks into output room, flush every pending
 *      output buffer (one write per connection), free closed connections
 *
 * Invariants:
 *  1. Only this thread touches connections, players and the world.
 *  2. A connection is freed only in step 4, after it left epoll and every
 *     list; handlers may close it freely and must stop using it after.
 *  3. Output per connection is capped (CONN_OUTPUT_LIMIT); a client that
 *     lets more pile up is dropped, it never grows server memory further.
 *  4. Input per connection per pass is bounded (CONN_READ_BUDGET bytes), and
 *     a frame longer than the state's limit is refused as soon as its length
 *     prefix arrives.
 *  5. With encryption on, input is decrypted as it is read and output is
 *     encrypted as it is queued, in place in wbuf (cached frames passed to
 *     conn_send_raw stay plaintext); each stream sees every byte once, in
 *     wire order.
 */
#ifndef MC_SERVER_H
#define MC_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/config.h"
#include "net/limits.h"
#include "proto/wire.h"
#include "world/world.h"

#define TICK_MS              50
#define CONN_OUTPUT_LIMIT    (8u << 20) /* 8 MiB queued to one client */
#define CONN_READ_BUDGET     (64u << 10)
#define CONN_PREPLAY_TIMEOUT 10000 /* ms to go from connect to PLAY */
#define CONN_CLOSING_GRACE   1000  /* ms to flush a kick message */
#define KEEPALIVE_INTERVAL   15000
#define KEEPALIVE_TIMEOUT    30000
#define CHUNK_SEND_WINDOW    (256u << 10) /* stream chunks while less is queued */
#define VIEW_DISTANCE_MAX    32           /* = SPIRAL_MAX */
#define PLAYER_NAME_MAX      16

enum conn_state { CS_HANDSHAKE, CS_STATUS, CS_LOGIN, CS_PLAY, CS_CLOSING };
#define CONN_STATES 5

/* Why a LOGIN or PLAY connection was disconnected, for the kick counters
 * (a fixed set: reasons typed by operators never become metric labels). */
enum kick_reason {
    KR_AUTO = -1, /* classify from the log text (conn_kick, conn_kick_json) */
    KR_KICKED,    /* /kick, and anything else an operator did */
    KR_SERVER_FULL,
    KR_NOT_WHITELISTED,
    KR_BANNED,
    KR_IP_BANNED,
    KR_DUPLICATE_LOGIN,
    KR_SPAM,
    KR_IDLE,
    KR_PACKET_RATE,
    KR_TIMEOUT,
    KR_INVALID_PACKET,
    KR_AUTH, /* session server, proxy forwarding */
    KR_VERSION,
    KR_SHUTDOWN,
    KR_OTHER,
    KR_THROTTLED,   /* connection-throttle (net/limits.c) */
    KR_SLOW_CLIENT, /* output not read: slow-client-timeout or the output cap */
    KR_COUNT
};
extern const char *const kick_reason_names[KR_COUNT];

/* Counters for /metrics (game thread only). */
struct server_stats {
    uint64_t bytes_in, bytes_out;     /* socket bytes, as on the wire */
    uint64_t packets_in, packets_out; /* frames decoded / frames queued */
    uint64_t accepted, refused;       /* connections; refused: over the limit */
    uint64_t logins;                  /* connections that entered PLAY */
    uint64_t kicks[KR_COUNT];
};

struct server;
struct pkt_property; /* game/packets.h */
struct mc_cfb8;      /* proto/crypto.h */
struct mc_profile;   /* net/proxy.h */
struct auth_req;     /* net/auth.h */

typedef struct player {
    int32_t entity_id;
    mc_uuid uuid;
    char name[PLAYER_NAME_MAX + 1];
    double x, y, z;
    float yaw, pitch;
    bool on_ground;
    int gamemode;
    int view_distance;          /* effective: min(server, client) */
    int32_t center_x, center_z; /* chunk the loaded window is centred on */
    uint8_t *loaded;            /* bitmap over the (2*VIEW_DISTANCE_MAX+1)^2 window */
    int scan_pos;               /* index into the spiral of offsets still to check */
    bool window_complete;       /* every chunk of the window sent */
    int chunks_this_tick;       /* fairness cap, reset every tick */
    int32_t teleport_id;        /* last teleport sent */
    bool teleport_pending;
    bool spawned; /* spawn position + health sent */
    int64_t keepalive_id;
    int64_t keepalive_sent_ms;
    bool keepalive_pending;
    int64_t next_keepalive_ms;
    uint64_t chunks_sent;
    /* Inventory as the player window numbers it: 0 crafting result, 1-4 grid,
     * 5-8 armour, 9-35 main, 36-44 hotbar, 45 off hand. */
    struct inv_slot {
        int16_t item; /* 0 = empty (air) */
        int8_t count;
    } inventory[46];
    int held_slot;           /* 0..8 */
    int32_t inventory_state; /* state id of the player window */
    bool digging;
    int32_t dig_x, dig_y, dig_z;
    int64_t dig_start_ms;
    int32_t ack_sequence; /* highest block change sequence to acknowledge; -1 none */
    /* Profile properties (the skin) for Player Info; point into the conn's
     * profile, which lives as long as the player (set by play_join). */
    const struct pkt_property *props;
    size_t prop_count;
    /* Multiplayer (game/entities.c, chat.c, commands.c). */
    struct ent *ent; /* tracking and relay state; owned by entities.c */
    float health;    /* 0 = dead (waiting for the respawn request) */
    int32_t food;
    int32_t latency_ms; /* keep-alive round trip, smoothed as vanilla (3/4 old + 1/4 new) */
    int op_level;       /* 0..4 from ops.json */
    int chat_mode;      /* client setting: 0 full, 1 commands only, 2 hidden */
    int chat_spam;      /* vanilla chatSpamTickCount: +20 per message, -1 per tick */
    uint8_t skin_parts; /* client setting, shown to others as metadata */
    uint8_t main_hand;  /* 0 left, 1 right */
    /* Movement checks (game/play.c moved(), vanilla's "moved too quickly"):
     * the position at the start of this tick and the move packets since. */
    double first_good_x, first_good_y, first_good_z;
    uint32_t move_packets, move_packets_known;
    bool fall_flying; /* elytra: the speed check allows 300 instead of 100 */
} player;

typedef struct conn {
    int fd;
    enum conn_state state;
    bool compressed; /* Set Compression sent: frames use the threshold */
    bool closed;     /* left epoll; waiting to be freed */
    bool want_write; /* EPOLLOUT armed */
    bool on_flush_list;
    uint32_t id;         /* for log lines */
    char addr[64];       /* "ip:port" */
    int protocol;        /* from the handshake */
    uint8_t status_step; /* STATUS: 0 nothing, 1 status sent, 2 pong sent */
    int64_t connected_ms;
    int64_t deadline_ms; /* pre-play or closing deadline; 0 = none */
    buf_t rbuf, wbuf;
    player *player; /* PLAY only; owned */
    struct conn *next_flush;
    struct conn *prev, *next; /* all connections */
    struct conn *next_free;
    int players_index; /* position in server.players, -1 if none */
    /* Login, encryption, proxies (net/handshake.c; see its state diagram). */
    uint8_t login_step;         /* enum login_step in handshake.c */
    bool proxy_done;            /* proxy-protocol: the PROXY header was read */
    bool decrypt_rest;          /* decryption just began: rbuf past the frame is ciphertext */
    struct mc_cfb8 *enc, *dec;  /* AES-CFB8 streams once encryption is on; owned */
    struct mc_profile *profile; /* identity from the session server or a proxy; owned */
    struct auth_req *auth;      /* hasJoined in flight (net/auth.c owns it) */
    int32_t plugin_msg_id;      /* Velocity: the Login Plugin Request's message id */
    uint8_t verify_token[4];
    char login_name[PLAYER_NAME_MAX + 1]; /* from Login Start */
    /* mirrors of the profile's properties for play_join (player.props) */
    const struct pkt_property *props;
    size_t prop_count;
    /* rate-limit (packets per second, vanilla RateKickingConnection) and
     * player-idle-timeout (net/server.c) */
    int64_t rate_window_ms;
    uint32_t rate_count;
    float rate_avg;
    int64_t last_action_ms;
    float idle_pos[5];      /* x y z yaw pitch at the last idle check */
    struct conn_limits lim; /* throttles, packet limiter, slow-client timer (net/limits.c) */
} conn;

struct server {
    struct server_config cfg;
    int epfd, listen_fd, signal_fd;
    bool stdin_open;
    bool running;
    bool listen_paused;
    int64_t listen_resume_ms;
    int64_t now_ms;
    int64_t start_ns;
    int64_t next_tick_ms;
    uint64_t tick_count;
    conn *conns; /* list head */
    conn *flush_list;
    conn *free_list;
    uint32_t next_conn_id;
    size_t conn_count;
    size_t max_conns;
    conn **players;
    size_t player_count, player_cap;
    int32_t next_entity_id;
    double spawn_x, spawn_y, spawn_z;
    world world;
    struct libdeflate_compressor *compressor;
    struct libdeflate_decompressor *decompressor;
    buf_t scratch;     /* inflate target */
    buf_t pkt;         /* packet being built */
    char *status_json; /* cached; NULL = rebuild */
    char *favicon;     /* "data:image/png;base64,..." or NULL */
    char console_line[1024];
    size_t console_len;
    /* World state changed by commands (game/commands.c). */
    int64_t day_time; /* ticks; time of day is day_time % 24000 */
    bool raining, thundering;
    float spawn_angle;
    /* Operations (admin/, net/server.c) */
    struct server_stats stats;
    int64_t next_idle_check_ms;
    int64_t last_overload_warn_ms; /* "Can't keep up!" at most once per 15 s */
};

extern struct server *srv;

int server_init(struct server *s, const struct server_config *cfg);
int server_run(struct server *s);
void server_free(struct server *s);
void server_request_stop(struct server *s);

/* --- connection I/O (net/server.c) --- */

/* Frames the packet in srv->pkt (id + payload) and queues it to c. */
void conn_send_pkt(conn *c);
/* Queues raw bytes (already framed, e.g. a cached chunk) to c. */
void conn_send_raw(conn *c, const void *p, size_t n);
/*
 * Frames srv->pkt once at the server's compression threshold (which every
 * PLAY connection negotiated at login) for sending the same bytes to many
 * players with conn_send_raw. NULL if it does not fit; the buffer is reused
 * by the next call.
 */
const buf_t *pkt_frame_shared(void);
/* Sends a disconnect with `reason` (plain text) if the state has one, then closes. */
void conn_kick(conn *c, const char *reason);
/* The same with a chat component (JSON) as the reason, e.g. a translation
 * key; `log_text` is what the log line says. */
void conn_kick_json(conn *c, const char *json, const char *log_text);
/* Closes at once; `why` is logged. */
void conn_drop(conn *c, const char *why);
/* conn_kick_json with the reason counted as `r` (KR_AUTO: from log_text);
 * json NULL: a plain text reason (log_text). */
void conn_kick_reason(conn *c, enum kick_reason r, const char *json, const char *log_text);

/* --- other descriptors in the loop (admin/: HTTP, RCON, Query) ---
 * A module embeds a server_watch in its own object and registers the fd;
 * events arrive on the game thread. The object must stay allocated until
 * the end of the loop pass in which server_watch_del was called (free it
 * from a pass hook, never from inside another watch's callback), because
 * epoll may already have returned an event for it in the same pass. */
typedef struct server_watch server_watch;
struct server_watch {
    void (*on_event)(server_watch *w, uint32_t events);
};
/* 0 or -errno. */
int server_watch_add(int fd, uint32_t events, server_watch *w);
int server_watch_mod(int fd, uint32_t events, server_watch *w);
void server_watch_del(int fd);
/* fn runs once per loop pass, after the ticks and before output is flushed
 * (timeouts, deferred frees). At most SERVER_PASS_HOOKS; -1 when full. */
#define SERVER_PASS_HOOKS 8
int server_add_pass_hook(void (*fn)(int64_t now_ms));

/* Adds a connection that entered PLAY to the player list; -1 if out of memory. */
int players_add(conn *c);

/* Starts a new packet in srv->pkt with the given id; returns the buffer. */
buf_t *pkt_begin(int32_t id);

/* --- handshake, status, login (net/handshake.c) --- */
/* Startup: the RSA key (online mode), the Velocity secret, the auth thread.
 * -1 (logged) refuses to start. Returns through *auth_fd the eventfd to
 * watch (-1 if none). */
int login_init(const struct server_config *cfg, int *auth_fd);
void login_free(void);
/* The auth eventfd is readable: finish the logins whose check came back. */
void login_auth_drain(void);
/* Releases a connection's login state (ciphers, profile, pending check);
 * called when the connection is freed. */
void login_conn_free(conn *c);
/* proxy-protocol: consumes the PROXY header at the start of rbuf. Returns
 * bytes consumed (>0), 0 = need more, -1 = connection dropped. */
long login_proxy_header(conn *c, const uint8_t *p, size_t len);
void handshake_dispatch(conn *c, int32_t id, rd_t *r);
void status_dispatch(conn *c, int32_t id, rd_t *r);
void login_dispatch(conn *c, int32_t id, rd_t *r);
/* Legacy (pre-1.7) server list ping; returns bytes consumed, 0 = need more. */
long legacy_ping(conn *c, const uint8_t *p, size_t len);
void status_invalidate(void);
int status_load_favicon(const char *path);

/* --- play (game/play.c) --- */
/* Picks the spawn point and sets world hooks; once, before the loop starts. */
void play_init(void);
/* Per-tick work after every player's play_tick: block change broadcasts. */
void play_tick_end(void);
void play_join(conn *c, const char *name, size_t name_len, mc_uuid uuid);
void play_dispatch(conn *c, int32_t id, rd_t *r);
void play_leave(conn *c);
void play_tick(conn *c);
void play_stream_chunks(conn *c);
/* Appends a JSON string literal (with quotes) for UTF-8 text. */
void json_append_string(buf_t *b, const char *s, size_t len);

/* --- console (game/commands.c: the same dispatcher as in-game commands) --- */
void console_execute(const char *line);

#ifdef MCSERV_FUZZ
/* Test-only (tests/fuzz/fuzz_play.c; see the end of net/server.c). */
int server_fuzz_init(struct server *s, const struct server_config *cfg);
conn *server_fuzz_conn(int fd, enum conn_state st);
void server_fuzz_feed(conn *c, const uint8_t *data, size_t len);
void server_fuzz_tick(void);
bool server_fuzz_pass_end(const conn *watch); /* true: watch was freed */
#endif

#endif
