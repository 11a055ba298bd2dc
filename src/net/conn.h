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
 *  1. Only the loop's thread touches connections; during a tick's flush
 *     with io-threads, I/O threads read the queues and descriptors of the
 *     connections being written, and nothing else (net/iothreads.h).
 *  2. A connection is freed only by the last before-sleep hook of the pass in
 *     which it was closed, after it left epoll; until then it stays on
 *     srv->conns with `closed` set, so a walk of that list never follows a
 *     freed or moved node. The output lists (invariant 7) outlive a pass: a
 *     closed connection stays on them, skipped, until conn_free_closed
 *     unlinks it. Handlers may close a connection freely and must stop
 *     using it after.
 *  3. Output is capped (CONN_OUTPUT_LIMIT bytes pending, referenced shared
 *     frames counted like copied bytes); a client that lets more pile up is
 *     dropped, it never grows server memory further. The queue (net/outq.h)
 *     keeps a sent offset: a partial write moves nothing; the pending bytes
 *     are moved down only when room is needed. Its capacity is kept between
 *     passes, up to CONN_OUTPUT_BURST; a larger one (a join's chunk stream)
 *     is freed when a flush empties it (freed, not shrunk: shrinking many
 *     buffers in place fragments the heap). The once-a-second sweep gives
 *     back what a connection holds beyond CONN_OUTPUT_KEEP once it has not
 *     needed more for CONN_OUTPUT_IDLE_MS, so a player receiving a steady
 *     stream (a crowd) allocates nothing per pass, and an idle one holds
 *     CONN_OUTPUT_KEEP.
 *  4. Input per connection per pass is bounded (CONN_READ_BUDGET bytes), and
 *     a frame longer than the state's limit is refused as soon as its length
 *     prefix arrives. With io-threads > 1 a PLAY connection's socket is read
 *     (and decrypted) on an I/O thread after the pass's events were
 *     dispatched, and its frames parsed and dispatched on the game thread
 *     then, before the next pass's timers: the same order as before.
 *  5. With encryption on, input is decrypted as it is read and output is
 *     encrypted as it is queued, in place in the owned bytes; an encrypted
 *     connection never references a shared frame (it gets a copy, which
 *     is encrypted: shared frames stay plaintext for everyone else); each
 *     stream sees every byte once, in wire order.
 *  6. proto is never NULL: protocol_native from conn_open, the handshake's
 *     version once it names a supported one (proto/protocol.h). Packets are
 *     built with logical ids; conn_send_pkt and the shared framing rewrite
 *     the id for a non-identity version, dispatch rewrites incoming ids
 *     before the state handler. 763 is the identity: one branch, no work.
 *     Bytes passed to conn_send_raw are sent as they are: a shared frame
 *     must have been framed for c->proto (one frame per protocol in use).
 *  7. When output is written (one writev per connection per write):
 *       - at the end of the pass that queued it: everything queued outside
 *         PLAY (status and login replies, a kick: CLOSING), and a queue
 *         holding CONN_FLUSH_BULK bytes or more (chunk streaming: a write
 *         that large costs little per byte, holding it only adds latency);
 *       - else at the next tick's flush (conn_tick marks the pass; with no
 *         tick for 2 * TICK_MS, at the next pass): the default class,
 *         CONN_URGENT, which is never held longer;
 *       - CONN_LAZY output (other players' movement, tab-list changes,
 *         chat) may wait up to k ticks (1 <= k <= CONN_BATCH_MAX), k chosen
 *         each tick so the writes per second stay within
 *         mcserv-max-writes-per-second; any write of the connection takes
 *         it along (one byte stream: the queue order is never changed);
 *       - EPOLLOUT continues a write the socket did not take whole.
 *     The slow-client timer runs only while a write is blocked (EAGAIN),
 *     never while output waits for its tick.
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
#include "net/outq.h"
#include "proto/protocol.h"
#include "proto/wire.h"

#define CONN_OUTPUT_LIMIT    (8u << 20)  /* 8 MiB queued to one client */
#define CONN_OUTPUT_KEEP     (4u << 10)  /* capacity an idle connection keeps */
#define CONN_OUTPUT_BURST    (16u << 10) /* ...or up to this while it is busy */
#define CONN_OUTPUT_IDLE_MS  60000       /* busy: needed more than KEEP this recently */
#define CONN_READ_BUDGET     (64u << 10)
#define CONN_FLUSH_BULK      (64u << 10) /* queued bytes written at the end of the pass */
#define CONN_REF_MIN         512         /* shared bytes referenced, not copied, from this size */
#define CONN_BATCH_MAX       10          /* ticks CONN_LAZY output may wait at most */
#define CONN_PREPLAY_TIMEOUT 10000       /* ms to go from connect to PLAY */
#define CONN_CLOSING_GRACE   1000        /* ms to flush a kick message */
#define CONN_NAME_MAX        16

/* CS_CONFIG: the configuration state of 1.20.2+ clients (net/configuration.c). */
enum conn_state { CS_HANDSHAKE, CS_STATUS, CS_LOGIN, CS_PLAY, CS_CONFIG, CS_CLOSING };
#define CONN_STATES 6

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

/* One connection's traffic, for /debug/conns: conn.c stamps the last read
 * and write and counts packets; game/perf.c turns the counts into rates
 * once a second (mark_* are the counts at that moment). */
struct conn_io {
    int64_t last_read_ms, last_write_ms; /* loop clock; 0 = never */
    uint64_t packets_in, packets_out;
    uint64_t mark_in, mark_out;
    float pps_in, pps_out; /* packets per second over the last second */
};

struct player;       /* game/player.h: net never looks inside */
struct pkt_property; /* proto/packets.h */
struct mc_cfb8;      /* proto/crypto.h */
struct mc_profile;   /* net/proxy.h */
struct auth_req;     /* net/auth.h */

typedef struct conn {
    loop_watch watch; /* the socket; watch.fd is the descriptor */
    enum conn_state state;
    bool compressed;                 /* Set Compression sent: frames use the threshold */
    bool closed;                     /* left epoll; freed at the end of the pass */
    bool out_urgent;                 /* CONN_URGENT output is pending */
    bool out_lazy;                   /* CONN_LAZY output is pending, queued at tick lazy_tick */
    bool in_game;                    /* the game's join ran and its leave has not */
    bool read_queued;                /* readable: read in this pass's conn_read_pass */
    uint32_t id;                     /* for log lines */
    struct player *player;           /* PLAY: the game's; released through the handler table */
    char addr[64];                   /* "ip:port" */
    char ip[ADDR_IP_MAX];            /* the bare address of addr */
    int protocol;                    /* from the handshake */
    const struct mc_protocol *proto; /* ids and layouts to speak (invariant 6) */
    uint8_t status_step;             /* STATUS: 0 nothing, 1 status sent, 2 pong sent */
    int64_t connected_ms;
    int64_t deadline_ms; /* pre-play or closing deadline; 0 = none (set by conn_set_deadline) */
    buf_t rbuf;
    outq out;                     /* invariants 3, 5, 7 */
    uint64_t lazy_tick;           /* conn_tick's count when the oldest lazy output was queued */
    int64_t out_big_ms;           /* when the queue last held more than CONN_OUTPUT_KEEP */
    char name[CONN_NAME_MAX + 1]; /* the player's name once known (Login Start, then final) */
    list_node flush_link;         /* srv->flush_list: output pending (invariant 7) */
    list_node now_link;           /* ...and to be written at the end of this pass */
    list_node link;               /* srv->conns, until freed */
    list_node closed_link;        /* srv->closed, once closed */
    list_node deadline_link;      /* srv->deadlines while deadline_ms != 0 */
    list_node big_link;           /* srv->big: the queue outgrew what it keeps (invariant 3) */
    /* Login, encryption, proxies (net/login.c; see its state diagram). */
    uint8_t login_step;         /* enum login_step in login.c */
    bool proxy_done;            /* proxy-protocol: the PROXY header was read */
    bool decrypt_rest;          /* decryption just began: rbuf past the frame is ciphertext */
    struct mc_cfb8 *enc, *dec;  /* AES-CFB8 streams once encryption is on; owned */
    struct mc_profile *profile; /* identity from the session server or a proxy; owned */
    struct auth_req *auth;      /* hasJoined in flight (net/auth.c owns it) */
    int32_t plugin_msg_id;      /* Velocity: the Login Plugin Request's message id */
    uint8_t *client_info;       /* CONFIG: the last Client Information, for PLAY; owned */
    uint8_t client_info_len;
    uint8_t input_flags; /* PLAY, 1.21.2+: the last Player Input (proto->sb_play) */
    uint8_t verify_token[4];
    /* the profile's properties (the skin), for the game's Player Info */
    const struct pkt_property *props;
    size_t prop_count;
    /* rate-limit (packets per second, vanilla RateKickingConnection) */
    int64_t rate_window_ms;
    uint32_t rate_count;
    float rate_avg;
    struct conn_limits lim; /* throttles, packet limiter, slow-client timer (net/limits.c) */
    struct conn_io io;      /* last read/write, packet counts (issue 16: /debug/conns) */
} conn;

/* How soon queued output must be written (invariant 7). */
#define CONN_URGENT 0u /* at the next tick's flush: the default */
#define CONN_LAZY   1u /* may wait up to k ticks (adaptive batching) */

/* Starts a new packet in srv->pkt with the given (logical) id; returns the buffer. */
buf_t *pkt_begin(int32_t id);
/* Frames the packet in srv->pkt (logical id + payload) for c's protocol and
 * state and queues it to c. A packet c's version lacks is not sent. */
void conn_send_pkt_as(conn *c, unsigned flags);
static inline void conn_send_pkt(conn *c)
{
    conn_send_pkt_as(c, CONN_URGENT);
}
/* Queues framed bytes to c: copied, unless they lie in the frame
 * pkt_frame_shared_for returned last, which is referenced (invariant 5
 * aside). The bytes are 1.20.1's (native frames; for a connection of
 * another version each packet is translated, proto/protocol.h invariant
 * 4), or that frame made for c's own version. */
void conn_send_raw_as(conn *c, const void *p, size_t n, unsigned flags);
/* The same for bytes framed for c's own protocol (a per-protocol cache,
 * e.g. the world's chunk frames): never translated (protocol.h inv. 4). */
void conn_send_raw_proto(conn *c, const void *p, size_t n, unsigned flags);
static inline void conn_send_raw(conn *c, const void *p, size_t n)
{
    conn_send_raw_as(c, p, n, CONN_URGENT);
}
/*
 * Queues b->data[off .. off + n) (native frames; translated for a
 * connection of another version, as conn_send_raw_as) to c as a shared
 * frame: the first call for b in a loop pass copies b once into a
 * refcounted frame, later calls in the same pass (for any connection)
 * reference that copy. b must not change until the end of the pass
 * (NET_HOOK_FLUSH), as a per-tick batch or a cached chunk frame does not.
 * Small ranges (under CONN_REF_MIN) and encrypted connections get a copy.
 */
void conn_send_buf(conn *c, const buf_t *b, size_t off, size_t n, unsigned flags);
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
/* Bytes queued to c and not yet written (referenced ones included). */
static inline size_t conn_pending(const conn *c)
{
    return c->out.pending;
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
/* Writes every connection's pending output now, whatever its class
 * (shutdown). */
void conn_flush_all(void);
/* The NET_HOOK_FLUSH pass (invariant 7): this pass's list, and after a
 * tick the tick's list with the batching k chosen. */
void conn_flush_pass(void);
/* A tick is running in this pass: its output is written at this pass's
 * flush (net/server.c server_expire, the tick's first phase). */
void conn_tick(void);
/* c's pending output is written at the end of this pass. */
void conn_flush_later(conn *c);
/* The loop's after-dispatch step: the PLAY connections found readable in
 * this pass are read (and decrypted) on the I/O threads, then parsed and
 * dispatched here, one after the other (io-threads > 1 only). */
void conn_read_pass(void);
/* Frees the connections closed during this pass (invariant 2). */
void conn_free_closed(void);
/* Once a second, for the connections on srv->big: an idle one gives back
 * output capacity and leaves the list (invariant 3). */
void conn_trim(conn *c);
/* Sets c's pre-play or closing deadline (0: none) and keeps c on
 * srv->deadlines exactly while it has one. */
void conn_set_deadline(conn *c, int64_t ms);

#endif
