/*
 * bot.c — one protocol-true 1.20.1 client per bot: connect, handshake,
 * offline login, compression, the PLAY packets a client must answer, the
 * socket I/O and the emulated network link.
 *
 * State machine (see mcbench.h for the whole lifecycle):
 *
 *   CONNECTING --EPOLLOUT, SO_ERROR 0--> LOGIN: send Handshake(next=2) + Login Start
 *   LOGIN: Set Compression -> threshold; Login Plugin Request -> "not understood";
 *          Encryption Request -> fail (online-mode server); Disconnect -> fail (kicked);
 *          Login Success -> PLAY
 *   PLAY:  Login (play) -> Client Settings + brand; Keep Alive -> echo;
 *          Synchronize Player Position -> Teleport Confirm + Set Player Position
 *          and Rotation; Chunk Data -> count (only x, z are read; the chunk
 *          itself is never decoded); Unload Chunk; Ping -> Pong; Set Health
 *          <= 0 -> respawn; Resource Pack -> accepted + loaded; Disconnect ->
 *          fail (kicked); everything else is only counted.
 *
 * Input path: recv() into one shared READ_CHUNK buffer, frames decoded
 * straight from it; only the tail of a partial frame is copied into the
 * bot's own rbuf (so thousands of idle bots hold no input memory). A
 * compressed packet is inflated only as far as its first HEAD_BYTES (id and
 * leading fields, inflate_head.c) unless mcbench reads more of it (login
 * state, Disconnect, chat a script waits for): bots never pay to inflate a
 * whole chunk or the 39 KB registry codec just to count it.
 * Output path: packets are framed into the bot's wbuf and written once per
 * loop pass from the flush list (one coalesced write per bot per pass).
 * With --latency/--jitter/--bandwidth, both paths go through a netq whose
 * release is driven by the bot's t_rx/t_tx timers.
 *
 * Invariants:
 *  1. After bot_fail/bot_leave the bot's fd is closed and its timers are
 *     cancelled at once; nothing reads its buffers afterwards (every input
 *     loop re-checks the state after each packet); reap frees them at the
 *     end of the pass.
 *  2. A server can make mcbench fail one bot, never crash or stall the
 *     process: frames are length-checked before they are buffered, every
 *     field read goes through the sticky-error rd_t, and every cap failure
 *     turns into a recorded failure reason.
 */
#include <errno.h>
#include <libdeflate.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench/inflate_head.h"
#include "bench/mcbench.h"
#include "bench/rng.h"
#include "core/clock.h"
#include "data/packet_ids.h"
#include "data/version.h"
#include "proto/frame.h"

static void on_event(loop_watch *w, uint32_t events);
static void on_deadline(loop_timer *n);
static void on_rx_release(loop_timer *n);
static void on_tx_release(loop_timer *n);
static void input(bot *b, const uint8_t *p, size_t n);

/* names[i], or "?" when i is out of range (a corrupt enum). */
static const char *name_of(const char *const *names, size_t n, int i)
{
    return i >= 0 && (size_t)i < n && names[i] ? names[i] : "?";
}

#define NAME_OF(table, i) name_of(table, sizeof table / sizeof table[0], (int)(i))

static const char *const state_names[] = {"waiting", "connect", "login", "play", "left", "failed"};
static const char *const fail_kind_names[FK_COUNT] = {"refused",  "timeout", "kicked",
                                                      "protocol", "closed",  "error"};
static const char *const phase_names[PH_COUNT] = {"connect", "login_success", "first_position",
                                                  "first_chunk", "own_chunk"};
_Static_assert(sizeof state_names / sizeof state_names[0] == BS_FAILED + 1, "a name per bot state");

const char *bot_state_name(enum bot_state s)
{
    return NAME_OF(state_names, s);
}

const char *fail_kind_name(enum fail_kind k)
{
    return NAME_OF(fail_kind_names, k);
}

const char *phase_name(enum phase p)
{
    return NAME_OF(phase_names, p);
}

/* ------------------------------------------------------------- chunk set */

#define CHUNK_EMPTY 0x8000000080000000ull /* (INT32_MIN, INT32_MIN): never a real chunk */

static inline uint32_t chunk_hash(uint64_t k)
{
    k *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(k >> 32);
}

void chunkset_free(chunkset *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}

bool chunkset_has(const chunkset *s, uint64_t k)
{
    if (!s->cap) return false;
    uint32_t m = s->cap - 1;
    for (uint32_t i = chunk_hash(k) & m;; i = (i + 1) & m) {
        if (s->slot[i] == k) return true;
        if (s->slot[i] == CHUNK_EMPTY) return false;
    }
}

static void cs_insert_raw(uint64_t *slot, uint32_t cap, uint64_t k)
{
    uint32_t m = cap - 1;
    uint32_t i = chunk_hash(k) & m;
    while (slot[i] != CHUNK_EMPTY && slot[i] != k) i = (i + 1) & m;
    slot[i] = k;
}

/* Returns true if k was new. */
bool chunkset_add(chunkset *s, uint64_t k)
{
    if (k == CHUNK_EMPTY || chunkset_has(s, k)) return false;
    if ((s->len + 1) * 4 > s->cap * 3) { /* keep the load under 3/4 */
        uint32_t ncap = s->cap ? s->cap * 2 : 32;
        if (s->len >= (s->limit ? s->limit : CHUNKSET_MAX)) {
            s->overflow = true;
            return false;
        }
        uint64_t *ns = malloc(sizeof *ns * ncap);
        if (!ns) {
            s->overflow = true;
            return false;
        }
        for (uint32_t i = 0; i < ncap; i++) ns[i] = CHUNK_EMPTY;
        for (uint32_t i = 0; i < s->cap; i++)
            if (s->slot[i] != CHUNK_EMPTY) cs_insert_raw(ns, ncap, s->slot[i]);
        free(s->slot);
        s->slot = ns;
        s->cap = ncap;
    }
    cs_insert_raw(s->slot, s->cap, k);
    s->len++;
    return true;
}

/* Linear probing deletion with backward shift (no tombstones). */
void chunkset_del(chunkset *s, uint64_t k)
{
    if (!s->cap) return;
    uint32_t m = s->cap - 1;
    uint32_t i = chunk_hash(k) & m;
    while (s->slot[i] != k) {
        if (s->slot[i] == CHUNK_EMPTY) return;
        i = (i + 1) & m;
    }
    s->slot[i] = CHUNK_EMPTY;
    s->len--;
    for (uint32_t j = (i + 1) & m; s->slot[j] != CHUNK_EMPTY; j = (j + 1) & m) {
        uint64_t e = s->slot[j];
        uint32_t home = chunk_hash(e) & m;
        /* Move e back into the hole at i unless its home lies in (i, j]. */
        bool in_range = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!in_range) {
            s->slot[i] = e;
            s->slot[j] = CHUNK_EMPTY;
            i = j;
        }
    }
}

bool bot_chunk_loaded(const bot *b, int32_t cx, int32_t cz)
{
    if (b->chunks.overflow) return true;
    return chunkset_has(&b->chunks, chunk_key(cx, cz));
}

/* ------------------------------------------------------------- lifecycle */

void bot_setup(bot *b, int idx)
{
    memset(b, 0, sizeof *b);
    b->idx = idx;
    b->fd = -1;
    loop_watch_init(&b->watch, on_event);
    list_init(&b->join_link);
    list_init(&b->rcon_link);
    b->state = BS_WAITING;
    int n = snprintf(b->name, sizeof b->name, "%s%04d", bench.o.prefix, bench.o.first_index + idx);
    if (n < 0 || n > BOT_NAME_MAX) n = BOT_NAME_MAX;
    b->name_len = (uint8_t)n;
    b->uuid = uuid_offline(b->name, b->name_len);
    buf_init(&b->rbuf, FRAME_MAX_LENGTH + 8 + READ_CHUNK);
    buf_init(&b->wbuf, BOT_OUTPUT_LIMIT);
    loop_timer_init(&b->t_act, behave_on_act);
    loop_timer_init(&b->t_deadline, on_deadline);
    loop_timer_init(&b->t_rx, on_rx_release);
    loop_timer_init(&b->t_tx, on_tx_release);
    b->rng = bench.o.seed ^ ((uint64_t)(idx + 1) * 0xd1b54a32d192ed03ull);
    b->co_ref = BOT_NO_SCRIPT;
}

static void set_state(bot *b, enum bot_state s)
{
    switch (b->state) {
    case BS_CONNECTING: bench.connecting--; break;
    case BS_LOGIN: bench.in_login--; break;
    case BS_PLAY: bench.in_play--; break;
    default: break;
    }
    b->state = s;
    switch (s) {
    case BS_CONNECTING: bench.connecting++; break;
    case BS_LOGIN: bench.in_login++; break;
    case BS_PLAY: bench.in_play++; break;
    default: break;
    }
}

/* Registers b's socket with the loop, or updates what it waits for: the
 * connect's completion, else input (unless the emulated link is full) and
 * output while a write is blocked. A failed registration fails the bot. */
static void watch_update(bot *b)
{
    if (b->fd < 0) return;
    uint32_t ev =
        (b->rx_paused ? 0u : (uint32_t)EPOLLIN) | (b->want_write ? (uint32_t)EPOLLOUT : 0u);
    if (b->state == BS_CONNECTING) ev = EPOLLOUT;
    if (b->watch.fd >= 0) {
        loop_watch_mod(&bench.loop, &b->watch, ev);
        return;
    }
    int rc = loop_watch_add(&bench.loop, &b->watch, b->fd, ev);
    if (rc < 0) bot_fail(b, FK_ERROR, "epoll_ctl: %s", strerror(-rc));
}

static void phase_mark(bot *b, enum phase ph)
{
    if (b->phases & (1u << ph)) return;
    b->phases |= (uint8_t)(1u << ph);
    int64_t d = bench.loop.now_us - b->t0_us;
    hist_add(&bench.phase[ph], d > 0 ? (uint64_t)d : 0);
    if (ph == PH_OWN_CHUNK) series_join(d > 0 ? (uint64_t)d : 0); /* the progress line's window */
}

static void settle_initial(bot *b)
{
    if (b->initial_done) return;
    b->initial_done = true;
    bench.settled_initial++;
}

static void close_bot(bot *b, enum bot_state s)
{
    if (b->fd >= 0 && s == BS_LEFT) {
        /* Leaving on purpose: drain what already arrived so close() sends a
         * FIN, not a RST, as a real client quitting would (bounded). Not into
         * bench.rdbuf: a caller up the stack may still be parsing it. */
        static uint8_t drain[64u << 10];
        for (int i = 0; i < 16 && recv(b->fd, drain, sizeof drain, MSG_DONTWAIT) > 0; i++) {
        }
    }
    if (b->fd >= 0) {
        loop_watch_del(&bench.loop, &b->watch); /* events already polled are dropped */
        close(b->fd);
        b->fd = -1;
    }
    loop_timer_stop(&bench.loop, &b->t_act);
    loop_timer_stop(&bench.loop, &b->t_deadline);
    loop_timer_stop(&bench.loop, &b->t_rx);
    loop_timer_stop(&bench.loop, &b->t_tx);
    b->moving = false;
    b->wait = SW_NONE;
    rcon_client_cancel(b);
    set_state(b, s);
    if (!b->on_reap) {
        b->on_reap = true;
        b->next_reap = bench.reap_list;
        bench.reap_list = b;
    }
}

void bot_fail(bot *b, enum fail_kind kind, const char *fmt, ...)
{
    if (b->state == BS_LEFT || b->state == BS_FAILED) return;
    char reason[REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    record_fail(b, kind, reason);
    bench.failed++;
    settle_initial(b);
    close_bot(b, BS_FAILED);
}

void bot_leave(bot *b, bool rejoin)
{
    if (b->state == BS_LEFT || b->state == BS_FAILED || b->state == BS_WAITING) return;
    if (b->state == BS_PLAY && b->wbuf.len && !b->txq) {
        /* Best effort: what is queued (a last chat line) goes out first. */
        ssize_t n = send(b->fd, b->wbuf.data, b->wbuf.len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) bench.tx_bytes += (uint64_t)n;
    }
    bench.left++;
    settle_initial(b);
    close_bot(b, BS_LEFT);
    if (rejoin && !bench.stopping) {
        bench.rejoins_pending++;
        int64_t pause = (int64_t)(bench.o.rejoin_pause * 1000.0);
        loop_timer_at(&bench.loop, &b->t_act, bench.loop.now_ms + (pause > 1 ? pause : 1));
    }
}

/* Frees what a closed bot held (end of the loop pass; invariant 1). */
static void reap(bot *b)
{
    b->on_reap = false;
    if (b->state != BS_LEFT && b->state != BS_FAILED) return; /* restarted meanwhile */
    buf_free(&b->rbuf);
    buf_free(&b->wbuf);
    if (b->rxq) {
        netq_free(b->rxq);
        free(b->rxq);
        b->rxq = NULL;
    }
    if (b->txq) {
        netq_free(b->txq);
        free(b->txq);
        b->txq = NULL;
    }
    chunkset_free(&b->chunks);
    script_release(b);
    free(b->chat_pat);
    b->chat_pat = NULL;
}

void bot_reap_all(void)
{
    while (bench.reap_list) {
        bot *b = bench.reap_list;
        bench.reap_list = b->next_reap;
        reap(b);
    }
}

static void fail_errno(bot *b, int err, const char *what)
{
    switch (err) {
    case ECONNREFUSED: bot_fail(b, FK_REFUSED, "%s: connection refused", what); break;
    case ETIMEDOUT: bot_fail(b, FK_TIMEOUT, "%s: timed out", what); break;
    case ECONNRESET:
    case EPIPE: bot_fail(b, FK_CLOSED, "%s: connection reset by the server", what); break;
    default: bot_fail(b, FK_ERROR, "%s: %s", what, strerror(err)); break;
    }
}

/* ---------------------------------------------------------------- output */

buf_t *bot_pkt(int32_t id)
{
    buf_reset(&bench.pkt);
    wr_varint(&bench.pkt, id);
    return &bench.pkt;
}

static void flush_add(bot *b)
{
    if (b->on_flush) return;
    b->on_flush = true;
    b->next_flush = bench.flush_list;
    bench.flush_list = b;
}

static void count_out(int st, const uint8_t *pkt, size_t plen, size_t wire)
{
    int32_t id = 0;
    if (varint_decode(pkt, plen, &id) <= 0 || id < 0 || id > 255) id = 255;
    bench.tr.count[st][0][id]++;
    bench.tr.bytes[st][0][id] += wire;
}

static void arm_release(netq *q, loop_timer *t)
{
    int64_t due = netq_next_due(q);
    if (due < 0) {
        loop_timer_stop(&bench.loop, t);
        return;
    }
    int64_t due_ms = (due + 999) / 1000;
    if (!loop_timer_armed(t) || t->due != due_ms) loop_timer_at(&bench.loop, t, due_ms);
}

static void send_state(bot *b, int st)
{
    if (b->state == BS_LEFT || b->state == BS_FAILED) return;
    if (bench.pkt.failed) {
        bot_fail(b, FK_ERROR, "packet too large to build");
        return;
    }
    if (b->txq) {
        buf_reset(&bench.framed);
        if (frame_encode(&bench.framed, bench.pkt.data, bench.pkt.len, b->threshold,
                         bench.compressor) < 0) {
            bot_fail(b, FK_ERROR, "packet too large to frame");
            return;
        }
        count_out(st, bench.pkt.data, bench.pkt.len, bench.framed.len);
        if (netq_push(b->txq, bench.framed.data, bench.framed.len, bench.loop.now_us, &bench.np,
                      &bench.rng) < 0) {
            bot_fail(b, FK_ERROR, "emulated uplink queue over %u KiB (server not reading)",
                     NETQ_LIMIT >> 10);
            return;
        }
        arm_release(b->txq, &b->t_tx);
        return;
    }
    size_t before = b->wbuf.len;
    if (frame_encode(&b->wbuf, bench.pkt.data, bench.pkt.len, b->threshold, bench.compressor) < 0) {
        bot_fail(b, FK_ERROR, "output queue over %u KiB (server not reading)",
                 BOT_OUTPUT_LIMIT >> 10);
        return;
    }
    count_out(st, bench.pkt.data, bench.pkt.len, b->wbuf.len - before);
    flush_add(b);
}

void bot_send(bot *b)
{
    send_state(b, b->state == BS_PLAY ? PKTN_PLAY : PKTN_LOGIN);
}

/* Writes as much queued output as the socket takes. */
static void flush_bot(bot *b)
{
    while (b->wbuf.len > 0) {
        ssize_t n = send(b->fd, b->wbuf.data, b->wbuf.len, MSG_NOSIGNAL);
        if (n > 0) {
            bench.tx_bytes += (uint64_t)n;
            buf_consume(&b->wbuf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!b->want_write) {
                b->want_write = true;
                watch_update(b);
            }
            return;
        }
        fail_errno(b, n < 0 ? errno : EPIPE, "send");
        return;
    }
    if (b->want_write) {
        b->want_write = false;
        watch_update(b);
    }
    buf_shrink_if_idle(&b->wbuf, 2048);
}

void bot_flush_all(void)
{
    while (bench.flush_list) {
        bot *b = bench.flush_list;
        bench.flush_list = b->next_flush;
        b->on_flush = false;
        if (b->fd >= 0 && b->state != BS_CONNECTING) flush_bot(b);
    }
}

static void on_tx_release(loop_timer *n)
{
    bot *b = container_of(n, bot, t_tx);
    if (!b->txq || b->fd < 0) return;
    const uint8_t *p;
    size_t len;
    while ((p = netq_peek(b->txq, bench.loop.now_us, &len))) {
        buf_append(&b->wbuf, p, len);
        if (b->wbuf.failed) {
            bot_fail(b, FK_ERROR, "output queue over %u KiB (server not reading)",
                     BOT_OUTPUT_LIMIT >> 10);
            return;
        }
        netq_pop(b->txq);
    }
    flush_add(b);
    arm_release(b->txq, &b->t_tx);
}

/* ------------------------------------------------------------ connecting */

static void send_handshake(bot *b)
{
    char host[64];
    snprintf(host, sizeof host, "%s", bench.o.host);
    buf_t *p = bot_pkt(0x00);
    wr_varint(p, MC_PROTOCOL_VERSION);
    wr_cstring(p, host);
    wr_u16(p, (uint16_t)bench.o.port);
    wr_varint(p, 2);
    send_state(b, PKTN_HANDSHAKE);
    p = bot_pkt(PKT_LOGIN_SB_LOGIN_START);
    wr_string(p, b->name, b->name_len);
    wr_bool(p, true);
    wr_uuid(p, &b->uuid);
    send_state(b, PKTN_LOGIN);
}

static void on_connected(bot *b)
{
    phase_mark(b, PH_CONNECT);
    set_state(b, BS_LOGIN);
    watch_update(b);
    if (b->state != BS_LOGIN) return;
    send_handshake(b);
    loop_timer_at(&bench.loop, &b->t_deadline,
                  b->t0_us / 1000 + (int64_t)(bench.o.join_timeout * 1000.0));
}

void bot_start(bot *b)
{
    if (b->on_reap) bot_reap_all(); /* never the case from the join pump; be safe */
    if (!b->initial_done && b->sessions == 0) bench.started_initial++;
    b->sessions++;
    bench.sessions++;
    b->phases = 0;
    b->t0_us = bench.loop.now_us;
    b->last_rx_ms = bench.loop.now_ms;
    b->threshold = -1;
    b->have_pos = false;
    b->ever_joined = false;
    b->rx_paused = false;
    b->want_write = false;
    loop_watch_set_batched(&bench.loop, &b->watch, false); /* closed: only the flag */
    b->moving = false;
    b->wait = SW_NONE;
    b->seq = 0;
    b->last_keepalive_ms = 0;
    b->chunk_wait_since_us = 0;
    b->spread = SP_NONE;
    b->next_chat_ms = b->leave_at_ms = b->script_wake_ms = 0;
    buf_reset(&b->rbuf);
    buf_reset(&b->wbuf);
    chunkset_free(&b->chunks);
    if (bench.netem) {
        b->rxq = malloc(sizeof *b->rxq);
        b->txq = malloc(sizeof *b->txq);
        if (!b->rxq || !b->txq) {
            free(b->rxq);
            free(b->txq);
            b->rxq = b->txq = NULL;
        } else {
            netq_init(b->rxq);
            netq_init(b->txq);
        }
    }
    set_state(b, BS_CONNECTING);
    b->fd = socket(((struct sockaddr *)bench.addr)->sa_family,
                   SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (b->fd < 0) {
        fail_errno(b, errno, "socket");
        return;
    }
    int one = 1;
    setsockopt(b->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    loop_timer_at(&bench.loop, &b->t_deadline,
                  bench.loop.now_ms + (int64_t)(bench.o.connect_timeout * 1000.0));
    int r = connect(b->fd, (struct sockaddr *)bench.addr, bench.addr_len);
    if (r < 0 && errno != EINPROGRESS) {
        fail_errno(b, errno, "connect");
        return;
    }
    watch_update(b);
    if (r == 0 && b->state == BS_CONNECTING) on_connected(b);
}

static void on_deadline(loop_timer *n)
{
    bot *b = container_of(n, bot, t_deadline);
    switch (b->state) {
    case BS_CONNECTING:
        bot_fail(b, FK_TIMEOUT, "connect timed out after %g s", bench.o.connect_timeout);
        return;
    case BS_LOGIN:
        bot_fail(b, FK_TIMEOUT, "login timed out after %g s (no Login Success)",
                 bench.o.join_timeout);
        return;
    case BS_PLAY:
        if (!b->ever_joined) {
            bot_fail(b, FK_TIMEOUT, "join timed out after %g s (%s)", bench.o.join_timeout,
                     !b->have_pos ? "no Synchronize Player Position"
                                  : "no chunk at the bot's position");
            return;
        }
        if (bench.loop.now_ms - b->last_rx_ms >= (int64_t)(bench.o.silence_timeout * 1000.0)) {
            bot_fail(b, FK_TIMEOUT, "server silent for %g s", bench.o.silence_timeout);
            return;
        }
        loop_timer_at(&bench.loop, &b->t_deadline,
                      b->last_rx_ms + (int64_t)(bench.o.silence_timeout * 1000.0));
        return;
    default: return;
    }
}

/* ------------------------------------------------------------ PLAY logic */

static void maybe_joined(bot *b)
{
    if (b->ever_joined || !b->have_pos) return;
    if (!bot_chunk_loaded(b, (int32_t)floor(b->x / 16.0), (int32_t)floor(b->z / 16.0))) return;
    phase_mark(b, PH_OWN_CHUNK);
    b->ever_joined = true;
    bench.joined++;
    if (b->sessions == 1) bench.joined_initial++;
    settle_initial(b);
    loop_timer_at(&bench.loop, &b->t_deadline,
                  bench.loop.now_ms + (int64_t)(bench.o.silence_timeout * 1000.0));
    if (bench.batch_ms > 0 && b->fd >= 0) { /* invariant 4 of mcbench.h */
        int rc = loop_watch_set_batched(&bench.loop, &b->watch, true);
        if (rc < 0) bot_fail(b, FK_ERROR, "epoll_ctl: %s", strerror(-rc));
    }
    behave_joined(b);
}

/*
 * Plain text of a JSON chat component, for failure reasons and wait_chat:
 * the values of "text" and "translate" keys and the bare strings of arrays
 * (a translation's "with"), joined by spaces, in order. A top-level JSON
 * string is itself the text. Falls back to the raw JSON when nothing is
 * found. Never reads past s[n); out always ends with a NUL.
 */
void chat_plain(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    char prev = 0;         /* last significant character outside strings */
    bool key_text = false; /* the last key was "text" or "translate" */
    out[0] = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        char c = s[i];
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
        if (c != '"') {
            prev = c;
            continue;
        }
        char tok[256];
        size_t t = 0;
        for (i++; i < n && s[i] != '"'; i++) {
            char ch = s[i];
            if (ch == '\\' && i + 1 < n) {
                ch = s[++i];
                if (ch == 'n')
                    ch = ' ';
                else if (ch == 'u') {
                    ch = '?';
                    i = i + 4 < n ? i + 4 : n - 1;
                }
            }
            if (t + 1 < sizeof tok) tok[t++] = ch;
        }
        tok[t] = 0;
        size_t j = i + 1;
        while (j < n && (s[j] == ' ' || s[j] == '\n' || s[j] == '\t' || s[j] == '\r')) j++;
        if (j < n && s[j] == ':') { /* a key */
            key_text = !strcmp(tok, "text") || !strcmp(tok, "translate");
            prev = '"';
            continue;
        }
        bool take = prev == ':' ? key_text : true; /* a value, or an array element / top level */
        prev = '"';
        if (take && t) {
            int w = snprintf(out + o, cap - o, "%s%s", o ? " " : "", tok);
            if (w > 0) o += (size_t)w < cap - o ? (size_t)w : cap - o - 1;
        }
    }
    if (o == 0) {
        size_t m = n < cap - 1 ? n : cap - 1;
        memcpy(out, s, m);
        out[m] = 0;
    }
}

static void kicked(bot *b, const char *json, size_t len)
{
    char text[REASON_MAX];
    chat_plain(json, len, text, sizeof text - 20);
    bot_fail(b, FK_KICKED, "kicked%s: %s", b->state == BS_LOGIN ? " during login" : "", text);
}

static void send_settings(bot *b)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_SETTINGS);
    wr_cstring(p, "en_us");
    wr_u8(p, (uint8_t)bench.o.view_distance);
    wr_varint(p, 0);   /* chat: full */
    wr_bool(p, true);  /* chat colours */
    wr_u8(p, 0x7f);    /* skin parts */
    wr_varint(p, 1);   /* main hand: right */
    wr_bool(p, false); /* text filtering */
    wr_bool(p, true);  /* server listing */
    bot_send(b);
    p = bot_pkt(PKT_PLAY_SB_CUSTOM_PAYLOAD);
    wr_cstring(p, "minecraft:brand");
    wr_cstring(p, "mcbench");
    bot_send(b);
}

static void on_keep_alive(bot *b, int64_t id)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_KEEP_ALIVE);
    wr_i64(p, id);
    bot_send(b);
    bench.keepalive_rx++;
    bench.keepalive_tx++;
    if (b->last_keepalive_ms)
        hist_add(&bench.ka_interval, (uint64_t)(bench.loop.now_ms - b->last_keepalive_ms));
    b->last_keepalive_ms = bench.loop.now_ms;
    /* Vanilla and mcserv use their wall clock (ms) as the id: then now - id
     * is the server-to-bot delay including the server's own queueing. */
    int64_t age = clock_wall_ms() - id;
    if (age >= -1000 && age < 600000) {
        hist_add(&bench.ka_age, age > 0 ? (uint64_t)age * 1000u : 0);
        bench.ka_age_ok++;
    } else {
        bench.ka_age_bad++;
    }
}

/* Ping -> Pong with the same id, as a client answers the server's probe. */
static void on_ping(bot *b, int32_t id)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_PONG);
    wr_i32(p, id);
    bot_send(b);
}

static void on_position(bot *b, rd_t *r)
{
    double x = rd_f64(r), y = rd_f64(r), z = rd_f64(r);
    float yaw = rd_f32(r), pitch = rd_f32(r);
    int8_t flags = rd_i8(r);
    int32_t tp = rd_varint(r);
    if (r->err) return;
    if (!isfinite(x) || !isfinite(y) || !isfinite(z) || !isfinite(yaw) || !isfinite(pitch)) {
        r->err = RD_BAD_VALUE;
        return;
    }
    if (flags & 0x01) x += b->x;
    if (flags & 0x02) y += b->y;
    if (flags & 0x04) z += b->z;
    if (flags & 0x08) yaw += b->yaw;
    if (flags & 0x10) pitch += b->pitch;
    b->x = x;
    b->y = y;
    b->z = z;
    b->yaw = yaw;
    b->pitch = pitch;
    bench.teleports++;
    buf_t *p = bot_pkt(PKT_PLAY_SB_TELEPORT_CONFIRM);
    wr_varint(p, tp);
    bot_send(b);
    send_position(b, true);
    if (!b->have_pos) {
        b->have_pos = true;
        b->home_x = x;
        b->home_z = z;
        phase_mark(b, PH_FIRST_POS);
        maybe_joined(b);
    } else {
        behave_after_teleport(b);
    }
}

static void on_chat_text(bot *b, const char *s, size_t n)
{
    if (b->wait == SW_CHAT) script_on_chat(b, s, n);
}

static void play_packet(bot *b, int32_t id, rd_t *r)
{
    size_t len;
    const char *s;
    switch (id) {
    case PKT_PLAY_CB_KEEP_ALIVE: {
        int64_t ka = rd_i64(r);
        if (!r->err) on_keep_alive(b, ka);
        break;
    }
    case PKT_PLAY_CB_POSITION: on_position(b, r); break;
    case PKT_PLAY_CB_MAP_CHUNK: {
        int32_t cx = rd_i32(r), cz = rd_i32(r);
        if (r->err) break;
        chunkset_add(&b->chunks, chunk_key(cx, cz));
        chunkset_add(&bench.seen, chunk_key(cx, cz));
        b->chunks_rx++;
        bench.chunks_rx++;
        phase_mark(b, PH_FIRST_CHUNK);
        if (!b->ever_joined)
            maybe_joined(b);
        else if (b->chunk_wait_since_us)
            behave_check_chunk_wait(b);
        break;
    }
    case PKT_PLAY_CB_UNLOAD_CHUNK: {
        int32_t cx = rd_i32(r), cz = rd_i32(r);
        if (r->err) break;
        chunkset_del(&b->chunks, chunk_key(cx, cz));
        bench.unloads_rx++;
        break;
    }
    case PKT_PLAY_CB_LOGIN: {
        b->entity_id = rd_i32(r);
        rd_bool(r);
        b->gamemode = rd_u8(r);
        if (!r->err) send_settings(b);
        break;
    }
    case PKT_PLAY_CB_KICK_DISCONNECT:
        s = rd_string(r, 262144, &len);
        if (!r->err) kicked(b, s, len);
        break;
    case PKT_PLAY_CB_UPDATE_HEALTH: {
        float health = rd_f32(r);
        if (!r->err && health <= 0.0f) {
            buf_t *p = bot_pkt(PKT_PLAY_SB_CLIENT_COMMAND);
            wr_varint(p, 0); /* respawn */
            bot_send(b);
        }
        break;
    }
    case PKT_PLAY_CB_PING: {
        int32_t pid = rd_i32(r);
        if (!r->err) on_ping(b, pid);
        break;
    }
    case PKT_PLAY_CB_RESOURCE_PACK_SEND: {
        buf_t *p = bot_pkt(PKT_PLAY_SB_RESOURCE_PACK_RECEIVE);
        wr_varint(p, 3); /* accepted */
        bot_send(b);
        p = bot_pkt(PKT_PLAY_SB_RESOURCE_PACK_RECEIVE);
        wr_varint(p, 0); /* successfully loaded */
        bot_send(b);
        break;
    }
    case PKT_PLAY_CB_SYSTEM_CHAT:
    case PKT_PLAY_CB_PROFILELESS_CHAT:
        bench.chat_rx++;
        if (b->wait != SW_CHAT) break; /* only counted: no need to decode it */
        s = rd_string(r, 262144, &len);
        if (!r->err) on_chat_text(b, s, len);
        break;
    case PKT_PLAY_CB_PLAYER_CHAT: {
        bench.chat_rx++;
        if (b->wait != SW_CHAT) break;
        rd_uuid(r);
        rd_varint(r);
        if (rd_bool(r)) rd_skip(r, 256);
        s = rd_string(r, CHAT_MAX, &len);
        if (!r->err) on_chat_text(b, s, len);
        break;
    }
    default: break; /* counted only */
    }
}

static void login_packet(bot *b, int32_t id, rd_t *r)
{
    size_t len;
    switch (id) {
    case PKT_LOGIN_CB_DISCONNECT: {
        const char *s = rd_string(r, 262144, &len);
        if (!r->err) kicked(b, s, len);
        break;
    }
    case PKT_LOGIN_CB_ENCRYPTION_BEGIN:
        bot_fail(b, FK_ERROR,
                 "server requested encryption (online-mode); mcbench logs in offline only");
        break;
    case PKT_LOGIN_CB_SUCCESS:
        rd_uuid(r);
        rd_string(r, 16, &len);
        if (r->err) break;
        set_state(b, BS_PLAY);
        phase_mark(b, PH_LOGIN);
        break;
    case PKT_LOGIN_CB_COMPRESS: {
        int32_t t = rd_varint(r);
        if (!r->err) b->threshold = t >= 0 ? t : -1;
        break;
    }
    case PKT_LOGIN_CB_LOGIN_PLUGIN_REQUEST: {
        int32_t mid = rd_varint(r);
        if (r->err) break;
        buf_t *p = bot_pkt(PKT_LOGIN_SB_LOGIN_PLUGIN_RESPONSE);
        wr_varint(p, mid);
        wr_bool(p, false); /* not understood */
        bot_send(b);
        break;
    }
    default: bot_fail(b, FK_PROTOCOL, "unexpected packet 0x%02x during login", (unsigned)id);
    }
}

#define HEAD_BYTES 64 /* leading bytes of a compressed packet that are always inflated */

/* One decoded frame: pkt[0..len) is the packet, or only its head when partial. */
struct frame_view {
    const uint8_t *pkt;
    size_t len;
    bool partial;
    const uint8_t *z; /* partial: the zlib body and the packet's full size */
    size_t zlen, dlen;
};

/*
 * libmc's frame_split() checks the framing; unlike frame_decode(), a
 * compressed packet longer than HEAD_BYTES is inflated only up to
 * HEAD_BYTES. Same return convention:
 * >0 bytes consumed, 0 need more, <0 enum frame_error.
 */
static long decode_frame(const bot *b, const uint8_t *in, size_t len, struct frame_view *f)
{
    static uint8_t head[HEAD_BYTES];
    *f = (struct frame_view){0};
    struct frame_body fb;
    long consumed = frame_split(in, len, &bench.lim, b->threshold, &fb);
    if (consumed <= 0) return consumed;
    if (fb.data_length == 0) {
        f->pkt = fb.data;
        f->len = fb.len;
        return consumed;
    }
    const uint8_t *body = fb.data;
    size_t blen = fb.len;
    int32_t dlen = (int32_t)fb.data_length;
    if (dlen <= HEAD_BYTES) {
        size_t actual = 0;
        if (libdeflate_zlib_decompress(bench.decompressor, body, blen, head, (size_t)dlen,
                                       &actual) != LIBDEFLATE_SUCCESS ||
            actual != (size_t)dlen)
            return FRAME_E_INFLATE;
        f->pkt = head;
        f->len = actual;
        return consumed;
    }
    if (inflate_head(body, blen, head, HEAD_BYTES) != HEAD_BYTES) return FRAME_E_INFLATE;
    f->pkt = head;
    f->len = HEAD_BYTES;
    f->partial = true;
    f->z = body;
    f->zlen = blen;
    f->dlen = (size_t)dlen;
    return consumed;
}

/* Inflates the whole of a partial frame into bench.scratch; 0 or an enum frame_error. */
static int inflate_full(struct frame_view *f)
{
    buf_reset(&bench.scratch);
    uint8_t *dst = buf_reserve(&bench.scratch, f->dlen);
    if (!dst) return FRAME_E_NOMEM;
    size_t actual = 0;
    if (libdeflate_zlib_decompress(bench.decompressor, f->z, f->zlen, dst, f->dlen, &actual) !=
            LIBDEFLATE_SUCCESS ||
        actual != f->dlen)
        return FRAME_E_INFLATE;
    bench.scratch.len = actual;
    f->pkt = dst;
    f->len = actual;
    f->partial = false;
    return 0;
}

/* Packets mcbench reads past their first HEAD_BYTES. */
static bool needs_whole(const bot *b, int32_t id)
{
    if (b->state == BS_LOGIN) return true;
    switch (id) {
    case PKT_PLAY_CB_KICK_DISCONNECT: return true;
    case PKT_PLAY_CB_SYSTEM_CHAT:
    case PKT_PLAY_CB_PLAYER_CHAT:
    case PKT_PLAY_CB_PROFILELESS_CHAT: return b->wait == SW_CHAT;
    default: return false;
    }
}

static void handle_packet(bot *b, struct frame_view *f, size_t wire)
{
    rd_t r = rd_make(f->pkt, f->len);
    int32_t id = rd_varint(&r);
    if (r.err || id < 0 || id > 255) {
        bot_fail(b, FK_PROTOCOL, "bad packet id");
        return;
    }
    bool login = b->state == BS_LOGIN;
    int st = login ? PKTN_LOGIN : PKTN_PLAY;
    bench.tr.count[st][1][id]++;
    bench.tr.bytes[st][1][id] += wire;
    if (!login) explode_packet(b, wire);
    if (f->partial && needs_whole(b, id)) {
        int e = inflate_full(f);
        if (e < 0) {
            bot_fail(b, FK_PROTOCOL, "bad frame: %s", frame_strerror(e));
            return;
        }
        r = rd_make(f->pkt, f->len);
        rd_varint(&r);
    }
    if (login)
        login_packet(b, id, &r);
    else if (id >= PKT_PLAY_CB_COUNT) {
        bot_fail(b, FK_PROTOCOL, "unknown play packet id 0x%02x", (unsigned)id);
        return;
    } else
        play_packet(b, id, &r);
    if (r.err && b->state != BS_LEFT && b->state != BS_FAILED)
        bot_fail(b, FK_PROTOCOL, "malformed %s packet: %s", pkt_name(st, 1, id),
                 rd_strerror(r.err));
}

/* ----------------------------------------------------------------- input */

static bool closed(const bot *b)
{
    return b->state == BS_LEFT || b->state == BS_FAILED;
}

/* Decodes every whole frame of p[0..n); keeps a partial tail in rbuf. */
static void input(bot *b, const uint8_t *p, size_t n)
{
    const uint8_t *data = p;
    size_t len = n;
    if (b->rbuf.len) {
        buf_append(&b->rbuf, p, n);
        if (b->rbuf.failed) {
            bot_fail(b, FK_PROTOCOL, "input over the frame limit");
            return;
        }
        data = b->rbuf.data;
        len = b->rbuf.len;
    }
    size_t off = 0;
    while (off < len) {
        struct frame_view f;
        long r = decode_frame(b, data + off, len - off, &f);
        if (r == 0) break;
        if (r < 0) {
            bot_fail(b, FK_PROTOCOL, "bad frame: %s", frame_strerror((int)r));
            return;
        }
        off += (size_t)r;
        handle_packet(b, &f, (size_t)r);
        if (closed(b)) return; /* invariant 1: data may be gone */
    }
    if (data == p) {
        if (off < n) buf_append(&b->rbuf, p + off, n - off);
    } else {
        buf_consume(&b->rbuf, off);
        buf_shrink_if_idle(&b->rbuf, 2048);
    }
}

static void set_rx_paused(bot *b, bool on)
{
    if (b->rx_paused == on) return;
    b->rx_paused = on;
    watch_update(b);
}

static void on_rx_release(loop_timer *n)
{
    bot *b = container_of(n, bot, t_rx);
    if (!b->rxq || closed(b)) return;
    const uint8_t *p;
    size_t len;
    while ((p = netq_peek(b->rxq, bench.loop.now_us, &len))) {
        input(b, p, len);
        if (closed(b)) return;
        netq_pop(b->rxq);
    }
    if (b->rx_paused && !netq_full(b->rxq)) set_rx_paused(b, false);
    arm_release(b->rxq, &b->t_rx);
}

static void do_read(bot *b)
{
    size_t total = 0;
    while (total < READ_BUDGET && !closed(b) && !b->rx_paused) {
        ssize_t n = recv(b->fd, bench.rdbuf, READ_CHUNK, 0);
        if (n > 0) {
            total += (size_t)n;
            bench.rx_bytes += (uint64_t)n;
            b->last_rx_ms = bench.loop.now_ms;
            if (b->rxq) {
                if (netq_push(b->rxq, bench.rdbuf, (size_t)n, bench.loop.now_us, &bench.np,
                              &bench.rng) < 0) {
                    bot_fail(b, FK_ERROR, "emulated downlink queue overflow");
                    return;
                }
                arm_release(b->rxq, &b->t_rx);
                if (netq_full(b->rxq)) set_rx_paused(b, true);
            } else {
                input(b, bench.rdbuf, (size_t)n);
            }
            if ((size_t)n < READ_CHUNK) return; /* most likely drained; epoll says if not */
            continue;
        }
        if (n == 0) {
            if (b->state == BS_LOGIN)
                bot_fail(b, FK_CLOSED, "server closed the connection during login");
            else
                bot_fail(b, FK_CLOSED, "server closed the connection");
            return;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        fail_errno(b, errno, "recv");
        return;
    }
}

static void on_event(loop_watch *w, uint32_t events)
{
    bot *b = container_of(w, bot, watch);
    if (closed(b) || b->fd < 0) return; /* the loop drops events of closed bots; be safe */
    if (b->state == BS_CONNECTING) {
        int err = 0;
        socklen_t el = sizeof err;
        if (getsockopt(b->fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0) err = errno;
        if (err) {
            fail_errno(b, err, "connect");
            return;
        }
        if (events & (EPOLLOUT | EPOLLIN)) on_connected(b);
        return;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) do_read(b);
    if (!closed(b) && (events & EPOLLOUT)) flush_bot(b);
}
