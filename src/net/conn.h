/*
 * conn.h — one client connection on the game port: its socket watch, input
 * parsing, output queue, kick and close. What a connection is for (the
 * player) is the game's business: net/ sees only an opaque pointer.
 *
 * Lifecycle:
 *
 *   [PROXY v1/v2 header, with proxy-protocol=true]
 *   HANDSHAKE --next=1--> STATUS --ping/pong--> closed
 *       |        (0xFE first byte: legacy ping reply, closed)
 *       +--next=2--> LOGIN --(Set Compression)--Login Success--> PLAY
 *                    (online: encryption + hasJoined first; Velocity: plugin
 *                     request/response first; see net/login.c)
 *   any state --conn_kick--> CLOSING (reason queued and flushed, the write side
 *                            shut; closed at the client's EOF or after 1 s)
 *   any state --conn_drop--> closed --(end of the loop pass)--> freed
 *
 * Invariants:
 *  1. Only the loop's thread touches connections.
 *  2. A connection is freed only by the last before-sleep hook of the pass in
 *     which it was closed, after it left epoll and the flush list; until then
 *     it stays on srv->conns with `closed` set, so a walk of that list never
 *     follows a freed or moved node. Handlers may close a connection freely
 *     and must stop using it after.
 *  3. Output is capped (CONN_OUTPUT_LIMIT bytes pending); a client that lets
 *     more pile up is dropped, it never grows server memory further. The
 *     output buffer keeps a sent offset (wsent): a partial write moves
 *     nothing; the pending bytes are moved down only when room is needed.
 *     Its capacity is kept between passes; the once-a-second sweep gives
 *     back what a connection holds beyond CONN_OUTPUT_KEEP once it has not
 *     needed more for CONN_OUTPUT_IDLE_MS (so a periodic burst, such as the
 *     30 s tab-list latency update, does not cost an allocation each time).
 *  4. Input per connection per pass is bounded (CONN_READ_BUDGET bytes), and
 *     a frame longer than the state's limit is refused as soon as its length
 *     prefix arrives.
 *  5. With encryption on, input is decrypted as it is read and output is
 *     encrypted as it is queued, in place in wbuf (cached frames passed to
 *     conn_send_raw stay plaintext); each stream sees every byte once, in
 *     wire order.
 *  6. proto is never NULL: protocol_native from conn_open, the handshake's
 *     version once it names a supported one (proto/protocol.h). Packets are
 *     built with logical ids; conn_send_pkt and the shared framing rewrite
 *     the id for a non-identity version, dispatch rewrites incoming ids
 *     before the state handler. 763 is the identity: one branch, no work.
 *     Bytes passed to conn_send_raw are sent as they are: a shared frame
 *     must have been framed for c->proto (one frame per protocol in use).
 */
#ifndef MC_CONN_H
#define MC_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/addr.h"
#include "core/buf.h"
#include "core/list.h"
#include "core/loop.h"
#include "net/limits.h"
#include "proto/protocol.h"
#include "proto/wire.h"

#define CONN_OUTPUT_LIMIT    (8u << 20) /* 8 MiB queued to one client */
#define CONN_OUTPUT_KEEP     (4u << 10) /* capacity an idle connection keeps */
#define CONN_OUTPUT_IDLE_MS  60000      /* ...once it needed more no longer than this ago */
#define CONN_READ_BUDGET     (64u << 10)
#define CONN_PREPLAY_TIMEOUT 10000 /* ms to go from connect to PLAY */
#define CONN_CLOSING_GRACE   1000  /* ms to flush a kick message */
#define CONN_NAME_MAX        16

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
    KR_BUSY,        /* evicted from a full pre-login pool (net/limits.h) */
    KR_COUNT
};
extern const char *const kick_reason_names[KR_COUNT];

struct player;       /* game/player.h: net never looks inside */
struct pkt_property; /* proto/packets.h */
struct mc_cfb8;      /* proto/crypto.h */
struct mc_profile;   /* net/proxy.h */
struct auth_req;     /* net/auth.h */

typedef struct conn {
    loop_watch watch; /* the socket; watch.fd is the descriptor */
    enum conn_state state;
    bool compressed; /* Set Compression sent: frames use the threshold */
    bool closed;     /* left epoll; freed at the end of the pass */
    bool on_flush_list;
    bool in_game;                    /* the game's join ran and its leave has not */
    uint32_t id;                     /* for log lines */
    char addr[64];                   /* "ip:port" */
    char ip[ADDR_IP_MAX];            /* the bare address of addr */
    int protocol;                    /* from the handshake */
    const struct mc_protocol *proto; /* ids and layouts to speak (invariant 6) */
    uint8_t status_step;             /* STATUS: 0 nothing, 1 status sent, 2 pong sent */
    int64_t connected_ms;
    int64_t deadline_ms; /* pre-play or closing deadline; 0 = none */
    buf_t rbuf, wbuf;
    size_t wsent;                 /* bytes of wbuf already written (invariant 3) */
    int64_t out_big_ms;           /* when wbuf last held more than CONN_OUTPUT_KEEP */
    struct player *player;        /* PLAY: the game's; released through the handler table */
    char name[CONN_NAME_MAX + 1]; /* the player's name once known (Login Start, then final) */
    struct conn *next_flush;
    list_node link;        /* srv->conns, until freed */
    list_node closed_link; /* srv->closed, once closed */
    /* Login, encryption, proxies (net/login.c; see its state diagram). */
    uint8_t login_step;         /* enum login_step in login.c */
    bool proxy_done;            /* proxy-protocol: the PROXY header was read */
    bool decrypt_rest;          /* decryption just began: rbuf past the frame is ciphertext */
    struct mc_cfb8 *enc, *dec;  /* AES-CFB8 streams once encryption is on; owned */
    struct mc_profile *profile; /* identity from the session server or a proxy; owned */
    struct auth_req *auth;      /* hasJoined in flight (net/auth.c owns it) */
    int32_t plugin_msg_id;      /* Velocity: the Login Plugin Request's message id */
    uint8_t verify_token[4];
    /* the profile's properties (the skin), for the game's Player Info */
    const struct pkt_property *props;
    size_t prop_count;
    /* rate-limit (packets per second, vanilla RateKickingConnection) */
    int64_t rate_window_ms;
    uint32_t rate_count;
    float rate_avg;
    struct conn_limits lim; /* throttles, packet limiter, slow-client timer (net/limits.c) */
} conn;

/* Starts a new packet in srv->pkt with the given (logical) id; returns the buffer. */
buf_t *pkt_begin(int32_t id);
/* Frames the packet in srv->pkt (logical id + payload) for c's protocol and
 * state and queues it to c. A packet c's version lacks is not sent. */
void conn_send_pkt(conn *c);
/* Queues raw bytes (already framed for c->proto, e.g. a cached chunk) to c. */
void conn_send_raw(conn *c, const void *p, size_t n);
/*
 * Frames srv->pkt (a PLAY packet) once at the server's compression threshold
 * (which every PLAY connection negotiated at login) for protocol p, for
 * sending the same bytes with conn_send_raw to the players whose proto is p.
 * NULL if it does not fit, or p has no such packet. One buffer per protocol:
 * each is reused by the next call for the same protocol, so frames for every
 * protocol in use can be held at once.
 */
const buf_t *pkt_frame_shared_for(const struct mc_protocol *p);
/* pkt_frame_shared_for(protocol_native): what every caller uses while 763
 * is the only version. With a second one, a broadcast frames once per
 * protocol in use and sends each frame to that protocol's players. */
static inline const buf_t *pkt_frame_shared(void)
{
    return pkt_frame_shared_for(protocol_native);
}
/* Bytes queued to c and not yet written. */
static inline size_t conn_pending(const conn *c)
{
    return c->wbuf.len - c->wsent;
}

/* Sends a disconnect with `reason` (plain text) if the state has one, then closes. */
void conn_kick(conn *c, const char *reason);
/* The same with a chat component (JSON) as the reason, e.g. a translation
 * key; `log_text` is what the log line says. */
void conn_kick_json(conn *c, const char *json, const char *log_text);
/* conn_kick_json with the reason counted as `r` (KR_AUTO: from log_text);
 * json NULL: a plain text reason (log_text). */
void conn_kick_reason(conn *c, enum kick_reason r, const char *json, const char *log_text);
/* Closes at once; `why` is logged (NULL: nothing is). */
void conn_drop(conn *c, const char *why);

/* --- for net/server.c (and the fuzz harness, tests/fuzz/fuzz_play.c) --- */

/* A connection for an accepted descriptor (registered with the loop), or NULL. */
conn *conn_open(int fd, const struct sockaddr *sa);
/* Feeds bytes as if read from the socket (the fuzz harness). */
void conn_feed(conn *c, const uint8_t *data, size_t len);
/* Writes every connection's pending output (one write per connection). */
void conn_flush_all(void);
/* Puts c on the flush list (conn_flush_all writes it). */
void conn_flush_later(conn *c);
/* Frees the connections closed during this pass (invariant 2). */
void conn_free_closed(void);
/* Once a second: idle connections give back output capacity (invariant 3). */
void conn_trim(conn *c);

#endif
