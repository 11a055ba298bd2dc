/*
 * conn.c — connection I/O: see conn.h for the lifecycle and invariants.
 *
 * Output path: packets are framed (and compressed, and encrypted) straight
 * into the queue's owned bytes (net/outq.h); shared frames are referenced
 * (pkt_frame_shared_for's, and conn_send_buf's once-per-pass copies). The
 * connection goes on the tick's list, and on this pass's list when its
 * output cannot wait (conn.h invariant 7); the NET_HOOK_FLUSH hook writes
 * this pass's list, then after a tick the tick's list, holding CONN_LAZY
 * output of some connections for up to k ticks (k from the write budget,
 * mcserv-max-writes-per-second). One writev per connection per write; a
 * write the socket only partly takes leaves the rest queued (EPOLLOUT).
 *
 * Versions (invariant 6 of conn.h): packets carry logical ids; framing
 * rewrites the leading id for c->proto unless it is the identity (763), and
 * dispatch rewrites incoming ids before the state handler. The identity
 * path is today's code behind one branch.
 *
 * Input path: conn_read reads at most CONN_READ_BUDGET bytes per pass. While
 * a connection has no partial frame pending, input goes into one shared
 * buffer and is parsed there, so idle connections own no input memory; only
 * an incomplete frame is copied into the connection's own rbuf. Frames are
 * decoded and dispatched by state as they arrive (docs/design.md says why
 * there is no queue of typed inputs).
 */
#include "net/conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/pool.h"
#include "core/json.h"
#include "core/log.h"
#include "data/packet_ids.h"
#include "net/iothreads.h"
#include "net/server.h"
#include "proto/crypto.h"
#include "proto/frame.h"
#include "proto/text_nbt.h"

/* ---------------------------------------------------------------- counters */

const char *const kick_reason_names[KR_COUNT] = {
    "kicked",  "server_full", "not_whitelisted", "banned",    "ip_banned",      "duplicate_login",
    "spam",    "idle",        "packet_rate",     "timeout",   "invalid_packet", "auth",
    "version", "shutdown",    "other",           "throttled", "slow_client",    "busy"};

/* Kicks that do not say why (conn_kick): their text, by prefix. */

/* Connections live in a pool (core/pool.h): the tick walks them all. */
static pool conn_pool = POOL_INIT(conn);
static enum kick_reason classify_kick(const char *text)
{
    static const struct {
        const char *prefix;
        enum kick_reason r;
    } table[] = {
        {"Kicked for spamming", KR_SPAM},
        {"You logged in from another location", KR_DUPLICATE_LOGIN},
        {"Server closed", KR_SHUTDOWN},
        {"Timed out", KR_TIMEOUT},
        {"The server is full", KR_SERVER_FULL},
        {"Outdated", KR_VERSION},
        {"Failed to verify", KR_AUTH},
        {"Authentication servers", KR_AUTH},
        {"This server requires you to connect with Velocity", KR_AUTH},
        {"Unable to verify player details", KR_AUTH},
        {"If you wish to use IP forwarding", KR_AUTH},
        {"This server does not accept BungeeCord", KR_AUTH},
        {"Illegal characters", KR_INVALID_PACKET},
        {"Invalid", KR_INVALID_PACKET},
        {"Malformed", KR_INVALID_PACKET},
        {"Unknown packet", KR_INVALID_PACKET},
        {"Unexpected", KR_INVALID_PACKET},
        {"Protocol error", KR_INVALID_PACKET},
        {"Internal Exception", KR_INVALID_PACKET},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strncmp(text, table[i].prefix, strlen(table[i].prefix)) == 0) return table[i].r;
    return KR_OTHER;
}

/* Frames in already-framed bytes (conn_send_raw): walks the length prefixes. */
static uint64_t count_frames(const uint8_t *p, size_t n)
{
    uint64_t frames = 0;
    size_t off = 0;
    while (off < n) {
        uint32_t len = 0;
        int shift = 0;
        size_t i = off;
        while (i < n && shift <= 28) {
            len |= (uint32_t)(p[i] & 0x7f) << shift;
            shift += 7;
            if (!(p[i++] & 0x80)) break;
        }
        if (i >= n && (p[i - 1] & 0x80)) break;
        frames++;
        if ((size_t)len > n - i) break;
        off = i + len;
    }
    return frames ? frames : 1;
}

/* ------------------------------------------------------------ output path */

/* The protocol state of each connection state; CLOSING sends and reads
 * nothing a version could number differently (-1: not translated). */
static const int8_t proto_state_of[CONN_STATES] = {
    [CS_HANDSHAKE] = PROTO_STATE_HANDSHAKE,  [CS_STATUS] = PROTO_STATE_STATUS,
    [CS_LOGIN] = PROTO_STATE_LOGIN,          [CS_PLAY] = PROTO_STATE_PLAY,
    [CS_CONFIG] = PROTO_STATE_CONFIGURATION, [CS_CLOSING] = -1,
};

/* A copy of srv->pkt with its id rewritten, for non-identity versions
 * (protocol_frame's scratch; never holds the packet being read). */
static buf_t *translate_scratch(void)
{
    static buf_t scratch;
    if (!scratch.limit) buf_init(&scratch, FRAME_MAX_PACKET + 16);
    return &scratch;
}

/* The flush lists and the batching state (invariant 7). */
static struct {
    list_node now;      /* written at the end of this pass (conn.now_link) */
    uint64_t tick;      /* conn_tick calls: ticks run */
    bool tick_pass;     /* a tick ran in this pass: the tick's flush is due */
    uint64_t writes_at; /* srv->stats.writes at the last tick's flush */
    int64_t flushed_ms; /* when the tick's list was last written */
    conn **lazy;        /* scratch: lazy-only connections of a tick's flush */
    size_t nlazy, lazy_cap;
} outs = {.now = {&outs.now, &outs.now}};

/* Moves every node of `from` to `to` (empty before), leaving `from` empty:
 * a walk takes its list whole, so connections listed again during the walk
 * wait for the next one. */
static void list_take(list_node *to, list_node *from)
{
    list_init(to);
    if (list_empty(from)) return;
    to->next = from->next;
    to->prev = from->prev;
    to->next->prev = to;
    to->prev->next = to;
    list_init(from);
}

/* Puts c on the tick's list (invariant 7). */
static void list_pending(conn *c)
{
    if (!list_linked(&c->flush_link)) list_push_back(&srv->flush_list, &c->flush_link);
}

void conn_flush_later(conn *c)
{
    if (c->closed) return;
    list_pending(c);
    if (!list_linked(&c->now_link)) list_push_back(&outs.now, &c->now_link);
}

/* Output was queued to c: when it must be written (invariant 7). */
static void queued(conn *c, unsigned flags)
{
    if (c->out.own.len > CONN_OUTPUT_KEEP || c->out.count > OUTQ_SEGS_KEEP) { /* invariant 3 */
        c->out_big_ms = srv->loop->now_ms;
        if (!list_linked(&c->big_link)) list_push_back(&srv->big, &c->big_link);
    }
    if (c->closed) return;
    if (flags & CONN_LAZY) {
        if (!c->out_lazy) c->lazy_tick = outs.tick;
        c->out_lazy = true;
    } else {
        c->out_urgent = true;
    }
    if (c->state != CS_PLAY || conn_pending(c) >= CONN_FLUSH_BULK)
        conn_flush_later(c);
    else
        list_pending(c);
}

buf_t *pkt_begin(int32_t id)
{
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, id);
    return &srv->pkt;
}

static void output_overflow(conn *c)
{
    log_warn("[%s] output over %u MiB (client not reading); dropping connection", c->addr,
             CONN_OUTPUT_LIMIT >> 20);
    srv->stats.kicks[KR_SLOW_CLIENT]++;
    limits_stats.slow_clients++;
    conn_drop(c, NULL);
}

/* A PLAY packet in 1.20.1's layout as c's version (protocol.h invariant
 * 4): the bytes to frame (pkt itself, or a rewrite in `tr`), NULL if it is
 * not sent to c. */
static const uint8_t *translated(conn *c, const uint8_t *pkt, size_t *len, buf_t *tr)
{
    if (c->proto->identity || c->state != CS_PLAY || !c->proto->cb_translate) return pkt;
    int rc = c->proto->cb_translate(pkt, *len, tr);
    if (rc == CB_SAME) return pkt;
    if (rc == CB_DROP) return NULL;
    *len = tr->len;
    return tr->data;
}

static buf_t *translate_out(void)
{
    static buf_t tr;
    if (!tr.limit) buf_init(&tr, FRAME_MAX_PACKET + 16);
    return &tr;
}

static void frame_own(conn *c, const uint8_t *pkt, size_t len, unsigned flags);

void conn_send_pkt_as(conn *c, unsigned flags)
{
    if (c->closed) return;
    if (srv->pkt.failed) {
        log_error("[%s] packet too large to build; dropping connection", c->addr);
        conn_drop(c, NULL);
        return;
    }
    const uint8_t *pkt = srv->pkt.data;
    size_t len = srv->pkt.len;
    if (!c->proto->identity && c->state == CS_PLAY) {
        rd_t r = rd_make(pkt, len);
        if (!protocol_routed(rd_varint(&r))) pkt = translated(c, pkt, &len, translate_out());
        if (!pkt) return;
    }
    frame_own(c, pkt, len, flags);
}

/* Frames pkt (logical id + payload, in c's layout) into c's own queue. */
static void frame_own(conn *c, const uint8_t *pkt, size_t len, unsigned flags)
{
    int threshold = c->compressed ? srv->cfg.compression_threshold : -1;
    buf_t *own = outq_own_begin(&c->out, len + 16);
    size_t from = own->len;
    int rc = c->proto->identity ? frame_encode(own, pkt, len, threshold, srv->compressor)
                                : protocol_frame(c->proto, proto_state_of[c->state], own, pkt, len,
                                                 threshold, srv->compressor, translate_scratch());
    if (rc < 0 && rc != PROTOCOL_E_OUTPUT) {
        own->len = from;
        own->failed = 0;
        log_debug("[%s] packet not sent: protocol %d has no such packet (state %d)", c->addr,
                  c->proto->version, c->state);
        return;
    }
    if (rc < 0 || !outq_own_commit(&c->out, from)) {
        output_overflow(c);
        return;
    }
    /* Encrypt in place, only the bytes just appended (the stream's order). */
    if (c->enc) mc_cfb8_update(c->enc, own->data + from, own->len - from);
    srv->stats.packets_out++;
    c->io.packets_out++;
    queued(c, flags);
}

/* The frames pkt_frame_shared_for builds: one per protocol, each with the
 * shared copy connections reference (made at the first reference, dropped
 * when the next frame is built: invariant 5 of outq.h's users). */
static struct {
    buf_t buf;
    shframe *sf;
} framed[PROTO_VERSION_COUNT];

const buf_t *pkt_frame_shared_for(const struct mc_protocol *p)
{
    buf_t *f = &framed[p->slot].buf;
    shframe_unref(framed[p->slot].sf);
    framed[p->slot].sf = NULL;
    if (!f->limit) buf_init(f, FRAME_MAX_PACKET + 16);
    buf_reset(f);
    if (srv->pkt.failed ||
        protocol_frame(p, PROTO_STATE_PLAY, f, srv->pkt.data, srv->pkt.len,
                       srv->cfg.compression_threshold, srv->compressor, translate_scratch()) < 0)
        return NULL;
    return f;
}

/* Queues a reference to f->data[off .. off + n), or a copy for an
 * encrypted connection (invariant 5). */
static void send_ref(conn *c, shframe *f, size_t off, size_t n, unsigned flags)
{
    if (c->enc) {
        conn_send_raw_proto(c, f->data + off, n, flags);
        return;
    }
    if (!outq_ref(&c->out, f, off, n)) {
        output_overflow(c);
        return;
    }
    uint64_t frames = count_frames(f->data + off, n);
    srv->stats.packets_out += frames;
    c->io.packets_out += frames;
    queued(c, flags);
}

/* The shared frame p[0..n) lies in, if it is one pkt_frame_shared_for
 * built: its copy (made now if it is the first reference) and p's offset. */
static shframe *shared_frame_of(const void *p, size_t n, size_t *off)
{
    uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < PROTO_VERSION_COUNT; i++) {
        const buf_t *b = &framed[i].buf;
        uintptr_t lo = (uintptr_t)b->data;
        if (!b->data || a < lo || a + n > lo + b->len) continue;
        if (!framed[i].sf) framed[i].sf = shframe_new(b->data, b->len);
        *off = a - lo;
        return framed[i].sf;
    }
    return NULL;
}

/* Native frames p[0..n) (1.20.1's layout) to a connection of another
 * version: each deframed, translated and framed for it, in its own queue. */
static void send_translated(conn *c, const uint8_t *p, size_t n, unsigned flags)
{
    static buf_t inflated;
    if (!inflated.limit) buf_init(&inflated, FRAME_MAX_PACKET + 16);
    frame_limits lim = {FRAME_MAX_LENGTH, FRAME_MAX_PACKET};
    int threshold = srv->cfg.compression_threshold; /* shared frames' (pkt_frame_shared_for) */
    while (n && !c->closed) {
        const uint8_t *pkt;
        size_t plen;
        long used = frame_decode(p, n, &lim, threshold, srv->decompressor, &inflated, &pkt, &plen);
        if (used <= 0) {
            log_error("[%s] a frame for protocol %d could not be read back (%s); not sent", c->addr,
                      c->proto->version, used ? frame_strerror((int)used) : "truncated");
            return;
        }
        p += used, n -= (size_t)used;
        const uint8_t *out = translated(c, pkt, &plen, translate_out());
        if (out) frame_own(c, out, plen, flags);
    }
}

/* Is p[0..n) inside the frame pkt_frame_shared_for made for `slot`? */
static bool framed_for(int slot, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p, lo = (uintptr_t)framed[slot].buf.data;
    return lo && a >= lo && a + n <= lo + framed[slot].buf.len;
}

void conn_send_raw_as(conn *c, const void *p, size_t n, unsigned flags)
{
    if (c->closed) return;
    if (!c->proto->identity && c->state == CS_PLAY && !framed_for(c->proto->slot, p, n)) {
        send_translated(c, p, n, flags); /* protocol.h invariant 4 */
        return;
    }
    conn_send_raw_proto(c, p, n, flags);
}

void conn_send_raw_proto(conn *c, const void *p, size_t n, unsigned flags)
{
    if (c->closed) return;
    size_t off;
    shframe *sf;
    if (!c->enc && n >= CONN_REF_MIN && (sf = shared_frame_of(p, n, &off))) {
        send_ref(c, sf, off, n, flags);
        return;
    }
    /* `p` may be a cached frame shared by many players: it stays plaintext;
     * only this connection's copy is encrypted. */
    if (!outq_append_sealed(&c->out, p, n, c->enc)) {
        output_overflow(c);
        return;
    }
    uint64_t frames = count_frames(p, n);
    srv->stats.packets_out += frames;
    c->io.packets_out += frames;
    queued(c, flags);
}

/* conn_send_buf's copies of this pass: buffer -> shared frame, open
 * addressing on the buffer's address; cleared by the flush hook. */
#define MEMO_SLOTS 4096 /* a power of two; a full table falls back to copies */
static struct memo {
    const buf_t *b;
    const uint8_t *data;
    size_t len;
    shframe *sf;
} memo[MEMO_SLOTS];
static uint32_t memo_used[MEMO_SLOTS / 2], memo_count;

static shframe *memo_frame(const buf_t *b)
{
    uint32_t h = (uint32_t)(((uintptr_t)b >> 4) * 2654435761u) & (MEMO_SLOTS - 1);
    for (uint32_t i = 0; i < 8; i++, h = (h + 1) & (MEMO_SLOTS - 1)) {
        struct memo *m = &memo[h];
        if (m->b == b && m->data == b->data && m->len == b->len) return m->sf;
        if (m->b) continue;
        if (memo_count >= MEMO_SLOTS / 2) return NULL;
        shframe *sf = shframe_new(b->data, b->len);
        if (!sf) return NULL;
        *m = (struct memo){b, b->data, b->len, sf};
        memo_used[memo_count++] = h;
        return sf;
    }
    return NULL;
}

static void memo_clear(void)
{
    for (uint32_t i = 0; i < memo_count; i++) {
        struct memo *m = &memo[memo_used[i]];
        shframe_unref(m->sf);
        *m = (struct memo){0};
    }
    memo_count = 0;
}

void conn_send_buf(conn *c, const buf_t *b, size_t off, size_t n, unsigned flags)
{
    if (c->closed || off > b->len || n > b->len - off) return;
    if (!c->proto->identity && c->state == CS_PLAY) { /* native frames: translated */
        send_translated(c, b->data + off, n, flags);
        return;
    }
    shframe *sf = NULL;
    if (!c->enc && n >= CONN_REF_MIN) sf = memo_frame(b);
    if (sf)
        send_ref(c, sf, off, n, flags);
    else
        conn_send_raw_as(c, b->data + off, n, flags);
}

/* EPOLLOUT while output waits for room; a kicked connection (CLOSING)
 * watches only output until its kick is out, then only input (its EOF). */
static void want_write(conn *c, bool on)
{
    uint32_t events = EPOLLIN | (on ? EPOLLOUT : 0);
    if (c->state == CS_CLOSING && on) events = EPOLLOUT;
    loop_watch_mod(srv->loop, &c->watch, events);
}

/* The result of writing c's output (job, on this thread or an I/O thread):
 * the bytes written leave the queue, EAGAIN arms EPOLLOUT, an error drops
 * c. Returns -1 if c closed. */
static int flush_settle(conn *c, const struct io_job *job)
{
    srv->stats.writes += job->writes;
    if (job->written) {
        outq_consume(&c->out, job->written);
        srv->stats.bytes_out += job->written;
        c->io.last_write_ms = srv->loop->now_ms;
        limits_output_progressed(c);
    }
    if (job->err == EAGAIN) {
        limits_output_blocked(c);
        want_write(c, true);
        return 0;
    }
    if (job->err) {
        conn_drop(c, job->err == IOJOB_WROTE_ZERO ? "write returned 0" : strerror(job->err));
        return -1;
    }
    /* A join's chunk stream (invariant 3): freed at once above the burst
     * size, so joins in flight do not add up. */
    if (c->out.pending == 0) buf_shrink_if_idle(&c->out.own, CONN_OUTPUT_BURST);
    if (c->state == CS_CLOSING && !c->lim.write_shut) {
        /* The kick is out: half-close, then read and discard until the client
         * closes or CONN_CLOSING_GRACE ends. Closing with input unread sends
         * a reset, which can destroy the kick before a flooding client reads it. */
        c->lim.write_shut = true;
        shutdown(c->watch.fd, SHUT_WR);
    }
    want_write(c, false);
    return 0;
}

static struct io_job job_of(conn *c)
{
    c->out_urgent = c->out_lazy = false; /* all of it is being written */
    return (struct io_job){.fd = c->watch.fd, .q = &c->out};
}

/* Writes as much of c's output as the socket takes. Returns -1 if c closed. */
static int conn_flush(conn *c)
{
    struct io_job job = job_of(c);
    if (conn_pending(c) > 0) iothreads_write_one(&job);
    return flush_settle(c, &job);
}

/* Room for one more in a pair of parallel arrays (connections and their
 * jobs) of *cap entries, doubling from 256; false when out of memory (the
 * arrays are valid and unchanged in size). */
static bool grow_pair(conn ***c, void **job, size_t job_size, size_t *cap)
{
    size_t n = *cap ? *cap * 2 : 256;
    conn **a = realloc(*c, n * sizeof *a);
    if (a) *c = a;
    void *j = a ? realloc(*job, n * job_size) : NULL;
    if (!j) return false;
    *job = j;
    *cap = n;
    return true;
}

/* The tick's writes: on the I/O threads when there are enough of them. */
static struct {
    conn **c;
    struct io_job *job;
    size_t n, cap;
} due;

static void due_add(conn *c)
{
    if (due.n == due.cap && !grow_pair(&due.c, (void **)&due.job, sizeof *due.job, &due.cap)) {
        conn_flush(c); /* no room to gather: write it at once */
        return;
    }
    due.job[due.n] = job_of(c);
    due.c[due.n++] = c;
}

static void due_write(void)
{
    size_t n = 0;
    for (size_t i = 0; i < due.n; i++) /* one closed while gathering: its fd is gone */
        if (!due.c[i]->closed) {
            due.c[n] = due.c[i];
            due.job[n++] = due.job[i];
        }
    iothreads_write(due.job, n);
    for (size_t i = 0; i < n; i++)
        if (!due.c[i]->closed) flush_settle(due.c[i], &due.job[i]);
    due.n = 0;
}

void conn_tick(void)
{
    outs.tick++;
    outs.tick_pass = true;
}

static int batch_ticks(size_t urgent, size_t lazy)
{
    return outq_batch_ticks(srv->cfg.max_writes_per_second, TICK_MS,
                            srv->stats.writes - outs.writes_at, urgent, lazy, CONN_BATCH_MAX);
}

static bool lazy_due(const conn *c, int k)
{
    return outq_lazy_due(outs.tick, c->id, c->lazy_tick, k);
}

static void flush_tick(void)
{
    list_node all;
    list_take(&all, &srv->flush_list);
    size_t urgent = 0;
    outs.nlazy = 0;
    while (!list_empty(&all)) {
        conn *c = list_entry(all.next, conn, flush_link);
        list_remove(&c->flush_link);
        if (c->closed || conn_pending(c) == 0) continue;
        if (c->out_urgent) {
            urgent++;
            due_add(c);
        } else if (c->out_lazy) {
            if (outs.nlazy == outs.lazy_cap) {
                size_t cap = outs.lazy_cap ? outs.lazy_cap * 2 : 256;
                conn **a = realloc(outs.lazy, cap * sizeof *a);
                if (!a) {
                    due_add(c); /* no room to wait: write it now */
                    continue;
                }
                outs.lazy = a;
                outs.lazy_cap = cap;
            }
            outs.lazy[outs.nlazy++] = c;
        }
    }
    int k = batch_ticks(urgent, outs.nlazy);
    srv->stats.batch_ticks = k;
    for (size_t i = 0; i < outs.nlazy; i++) {
        conn *c = outs.lazy[i];
        if (c->closed) continue;
        if (lazy_due(c, k))
            due_add(c);
        else
            list_pending(c);
    }
    due_write();
    outs.writes_at = srv->stats.writes;
}

void conn_flush_pass(void)
{
    list_node now;
    list_take(&now, &outs.now);
    while (!list_empty(&now)) {
        conn *c = list_entry(now.next, conn, now_link);
        list_remove(&c->now_link);
        if (!c->closed) conn_flush(c);
    }
    /* No tick for two periods (a stall, a harness without ticks): output
     * that waits for a tick goes anyway. */
    if (outs.tick_pass || srv->loop->now_ms - outs.flushed_ms >= 2 * TICK_MS) {
        outs.tick_pass = false;
        outs.flushed_ms = srv->loop->now_ms;
        flush_tick();
    }
    memo_clear();
}

void conn_flush_all(void)
{
    list_node all;
    list_take(&all, &outs.now);
    while (!list_empty(&all)) list_remove(all.next);
    list_take(&all, &srv->flush_list);
    while (!list_empty(&all)) {
        conn *c = list_entry(all.next, conn, flush_link);
        list_remove(&c->flush_link);
        if (!c->closed) conn_flush(c);
    }
    memo_clear();
}

void conn_trim(conn *c)
{
    if (conn_pending(c) == 0 && !list_linked(&c->flush_link) &&
        srv->loop->now_ms - c->out_big_ms >= CONN_OUTPUT_IDLE_MS) {
        outq_trim(&c->out, CONN_OUTPUT_KEEP);
        list_remove(&c->big_link);
    }
}

void conn_set_deadline(conn *c, int64_t ms)
{
    c->deadline_ms = ms;
    if (!ms)
        list_remove(&c->deadline_link);
    else if (!list_linked(&c->deadline_link))
        list_push_back(&srv->deadlines, &c->deadline_link);
}
/* -------------------------------------------------------- closing, freeing */

/* The game lets go of c (once, invariant 2 of server.h). */
static void leave_game(conn *c)
{
    if (!c->in_game) return;
    c->in_game = false;
    srv->game->leave(c);
}

/* Lines remote input causes go through log kinds (core/log.h invariant 5). */
static log_kind k_closed = LOG_KIND, k_login_kick = LOG_KIND, k_rate = LOG_KIND;

void conn_drop(conn *c, const char *why)
{
    if (c->closed) return;
    if (why) log_limited(&k_closed, LOG_INFO, "[%s] connection closed: %s", c->addr, why);
    leave_game(c);
    limits_conn_closed(c);
    int fd = c->watch.fd;
    loop_watch_del(srv->loop, &c->watch);
    close(fd);
    c->closed = true;
    list_push_back(&srv->closed, &c->closed_link); /* freed at the end of the pass */
    srv->conn_count--;
}

static void kick_json(conn *c, const char *json, const char *log_text);

void conn_kick(conn *c, const char *reason)
{
    conn_kick_reason(c, KR_AUTO, NULL, reason);
}

void conn_kick_json(conn *c, const char *json, const char *log_text)
{
    conn_kick_reason(c, KR_AUTO, json, log_text);
}

void conn_kick_reason(conn *c, enum kick_reason why, const char *json, const char *log_text)
{
    if (c->closed || c->state == CS_CLOSING) return;
    if (json) {
        if (c->state == CS_LOGIN || c->state == CS_PLAY)
            srv->stats.kicks[why == KR_AUTO ? classify_kick(log_text) : why]++;
        kick_json(c, json, log_text);
        return;
    }
    const char *reason = log_text;
    buf_t json_text;
    buf_init(&json_text, 4096);
    buf_lit(&json_text, "{\"text\":");
    json_append_string(&json_text, reason, strlen(reason));
    buf_lit(&json_text, "}");
    buf_append(&json_text, "", 1);
    conn_kick_reason(
        c, why, json_text.failed ? "{\"text\":\"Disconnected\"}" : (const char *)json_text.data,
        reason);
    buf_free(&json_text);
}

static void kick_json(conn *c, const char *json, const char *log_text)
{
    /* Status and legacy pings end through here too: not worth an info line.
     * A player's kick is written in full; a refused login is one of a kind. */
    if (c->in_game)
        log_info("[%s] %s disconnected: %s", c->addr, c->name, log_text);
    else
        log_limited(&k_login_kick,
                    c->state == CS_LOGIN || c->state == CS_CONFIG || c->state == CS_PLAY
                        ? LOG_INFO
                        : LOG_DEBUG,
                    "[%s] disconnected: %s", c->addr, log_text);
    if (c->state == CS_LOGIN) {
        /* The login disconnect is JSON text in every version. */
        buf_t *b = pkt_begin(PKT_LOGIN_CB_DISCONNECT);
        wr_string(b, json, strlen(json));
        conn_send_pkt(c);
    } else if (c->state == CS_PLAY) {
        buf_reset(&srv->pkt);
        c->proto->cb_kick_disconnect(&srv->pkt, json, strlen(json));
        conn_send_pkt(c);
    } else if (c->state == CS_CONFIG) {
        /* The configuration disconnect: the reason as NBT text, as in PLAY. */
        buf_t *b = pkt_begin(PKT_CONFIGURATION_CB_DISCONNECT);
        text_nbt_append(b, json, strlen(json));
        conn_send_pkt(c);
    }
    if (c->closed) return;
    leave_game(c);
    c->state = CS_CLOSING;
    conn_set_deadline(c, srv->loop->now_ms + CONN_CLOSING_GRACE);
    c->rbuf.len = 0;
    /* From now on only output matters: stop watching for input. */
    want_write(c, true);
    conn_flush_later(c);
}

void conn_free_closed(void)
{
    list_node *n, *tmp;
    list_for_each_safe (n, tmp, &srv->closed) {
        conn *c = list_entry(n, conn, closed_link);
        list_remove(&c->closed_link);
        list_remove(&c->link);
        list_remove(&c->flush_link); /* the output lists outlive a pass (invariant 7) */
        list_remove(&c->now_link);
        list_remove(&c->deadline_link);
        list_remove(&c->big_link);
        login_conn_free(c);
        if (c->player) srv->game->release(c);
        buf_free(&c->rbuf);
        outq_free(&c->out);
        pool_free(&conn_pool, c);
    }
}

/* ------------------------------------------------------------- input path */

static size_t max_frame_for(enum conn_state st)
{
    switch (st) {
    /* BungeeCord forwarding puts the client's IP, UUID and properties in the
     * handshake's host string: allow it room only when that mode is on. */
    case CS_HANDSHAKE: return srv->cfg.forwarding_mode == FWD_BUNGEECORD ? (32u << 10) + 64 : 1024;
    case CS_STATUS: return 64;
    /* Velocity's forwarding answer carries the profile's properties. */
    case CS_LOGIN: return srv->cfg.forwarding_mode == FWD_VELOCITY ? (32u << 10) + 64 : 4096;
    default: return FRAME_MAX_LENGTH;
    }
}

static const char exceeded_rate_json[] = "{\"translate\":\"disconnect.exceeded_packet_rate\","
                                         "\"fallback\":\"Kicked for exceeding packet rate limit\"}";

/* rate-limit: vanilla's RateKickingConnection. Each second the average is
 * 1/4 of that second's packets plus 3/4 of the previous average; above the
 * limit the connection is kicked. false if c was kicked. */
static bool rate_ok(conn *c)
{
    int64_t now = srv->loop->now_ms;
    if (now - c->rate_window_ms >= 1000) {
        c->rate_avg = 0.25f * (float)c->rate_count + 0.75f * c->rate_avg;
        c->rate_count = 0;
        c->rate_window_ms = now;
        if (c->rate_avg > (float)srv->cfg.rate_limit) {
            log_limited(&k_rate, LOG_WARN, "[%s] %s sent %.0f packets per second (rate-limit=%d)",
                        c->addr, c->in_game ? c->name : "?", (double)c->rate_avg,
                        srv->cfg.rate_limit);
            conn_kick_reason(c, KR_PACKET_RATE, exceeded_rate_json,
                             "Kicked for exceeding packet rate limit");
            return false;
        }
    }
    c->rate_count++;
    return true;
}

static void play_packet(conn *c, int32_t id, rd_t *r)
{
    if (srv->cfg.rate_limit > 0 && !rate_ok(c)) return;
    if (c->proto->sb_play) { /* 1.20.1's bytes for the handlers (protocol.h) */
        static buf_t rewritten;
        if (!rewritten.cap) buf_init(&rewritten, FRAME_MAX_LENGTH);
        int how = c->proto->sb_play(&id, r, &rewritten, &c->input_flags);
        if (how == SB_DROP) return;
        if (how == SB_REWRITTEN) {
            rd_t rw = rd_make(rewritten.data, rewritten.len);
            srv->game->packet(c, id, &rw);
            return;
        }
    }
    srv->game->packet(c, id, r);
}

static void closing_packet(conn *c, int32_t id, rd_t *r)
{
    (void)c, (void)id, (void)r;
}

/* One handler per state (house style: table-driven dispatch). */
static void (*const state_dispatch[CONN_STATES])(conn *c, int32_t id, rd_t *r) = {
    [CS_HANDSHAKE] = handshake_dispatch,  [CS_STATUS] = status_dispatch,
    [CS_LOGIN] = login_dispatch,          [CS_PLAY] = play_packet,
    [CS_CONFIG] = configuration_dispatch, [CS_CLOSING] = closing_packet,
};

static void dispatch(conn *c, const uint8_t *pkt, size_t len)
{
    rd_t r = rd_make(pkt, len);
    int32_t id = rd_varint(&r);
    if (r.err) {
        conn_drop(c, "malformed packet id");
        return;
    }
    srv->stats.packets_in++;
    c->io.packets_in++;
    /* Invariant 6: handlers see logical ids (-1: the version has no such
     * packet, which every state handler refuses as unknown). */
    if (!c->proto->identity) id = protocol_sb_logical(c->proto, proto_state_of[c->state], id);
    enum conn_state before = c->state;
    state_dispatch[c->state](c, id, &r);
    if (before == CS_HANDSHAKE && c->state != CS_HANDSHAKE) limits_handshake_done(c);
}

/*
 * Decodes and dispatches the frames in data[0..len) (input of c, decrypted);
 * returns the bytes consumed. What is left is a partial frame (or input after
 * a close) for the caller to keep.
 */
static size_t conn_parse(conn *c, uint8_t *data, size_t len)
{
    size_t off = 0;
    if (srv->cfg.proxy_protocol && !c->proxy_done) {
        /* The load balancer's PROXY header comes before any Minecraft byte. */
        long n = login_proxy_header(c, data, len);
        if (n <= 0) return 0; /* need more, or dropped */
        c->proxy_done = true;
        if (!limits_conn_readdressed(c)) return 0; /* the per-IP cap, on the real address */
        off = (size_t)n;
    }
    while (!c->closed && c->state != CS_CLOSING && off < len) {
        const uint8_t *in = data + off;
        size_t avail = len - off;
        if (c->state == CS_HANDSHAKE && in[0] == 0xFE) {
            long n = legacy_ping(c, in, avail);
            if (n == 0) break;
            off += (size_t)n;
            continue;
        }
        frame_limits lim = {max_frame_for(c->state), FRAME_MAX_PACKET};
        if (c->state == CS_PLAY) lim.max_packet = FRAME_MAX_LENGTH; /* serverbound */
        const uint8_t *pkt;
        size_t plen;
        long n = frame_decode(in, avail, &lim, c->compressed ? srv->cfg.compression_threshold : -1,
                              srv->decompressor, &srv->scratch, &pkt, &plen);
        if (n == 0) break;
        if (n < 0) {
            char why[128];
            snprintf(why, sizeof why, "%s (state %d)", frame_strerror((int)n), c->state);
            if (c->state == CS_PLAY)
                conn_kick_reason(c, KR_INVALID_PACKET, NULL, why);
            else
                conn_drop(c, why);
            break;
        }
        off += (size_t)n;
        dispatch(c, pkt, plen);
        if (c->decrypt_rest) {
            /* Encryption began with that packet: what follows is ciphertext
             * (unless the packet also ended the connection's input). */
            c->decrypt_rest = false;
            if (!c->closed && c->state != CS_CLOSING && off < len)
                mc_cfb8_update(c->dec, data + off, len - off);
        }
    }
    return off;
}

/* Parses n new bytes at dst: in place when c had no partial frame (direct),
 * else appended to what rbuf holds. false when reading must stop. */
static bool conn_input(conn *c, uint8_t *dst, size_t n, bool direct)
{
    srv->stats.bytes_in += n;
    c->io.last_read_ms = srv->loop->now_ms;
    if (direct) {
        size_t used = conn_parse(c, dst, n);
        if (!c->closed && c->state != CS_CLOSING && used < n) {
            buf_append(&c->rbuf, dst + used, n - used);
            if (c->rbuf.failed) {
                conn_drop(c, "input buffer limit reached");
                return false;
            }
        }
    } else {
        c->rbuf.len += n;
        size_t used = conn_parse(c, c->rbuf.data, c->rbuf.len);
        if (!c->closed) {
            buf_consume(&c->rbuf, used);
            buf_shrink_if_idle(&c->rbuf, 0);
        }
    }
    return !c->closed && c->state != CS_CLOSING; /* CLOSING: the kick is being flushed */
}

static void conn_read(conn *c)
{
    static uint8_t shared[16u << 10];
    size_t budget = CONN_READ_BUDGET;
    while (budget > 0 && !c->closed) {
        bool direct = c->rbuf.len == 0;
        size_t want = sizeof shared;
        if (want > budget) want = budget;
        /* Before PLAY a partial frame can only grow to the state's cap (1 KiB
         * in the handshake), and it is read into `shared` first, so rbuf
         * grows by what arrived, not by a whole read's room: a connection
         * that trickles bytes holds a few hundred bytes (the pre-login pool). */
        bool staged = !direct && c->state != CS_PLAY;
        size_t cap = max_frame_for(c->state) + 3;
        if (staged && cap > c->rbuf.len && want > cap - c->rbuf.len) want = cap - c->rbuf.len;
        uint8_t *dst = direct || staged ? shared : buf_reserve(&c->rbuf, want);
        if (!dst) {
            conn_drop(c, "input buffer limit reached");
            return;
        }
        ssize_t n = read(c->watch.fd, dst, want);
        if (n > 0) {
            if (c->dec) mc_cfb8_update(c->dec, dst, (size_t)n);
            budget -= (size_t)n;
            if (staged) {
                uint8_t *room = buf_reserve(&c->rbuf, (size_t)n);
                if (!room) {
                    conn_drop(c, "input buffer limit reached");
                    return;
                }
                memcpy(room, shared, (size_t)n);
                dst = room;
            }
            if (!conn_input(c, dst, (size_t)n, direct)) return;
            continue;
        }
        if (n == 0) {
            if (c->in_game)
                log_info("%s lost connection: disconnected", c->name);
            else
                log_debug("[%s] client closed the connection", c->addr);
            conn_drop(c, NULL);
            return;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        conn_drop(c, strerror(errno));
        return;
    }
}

/* Connections epoll found readable this pass, read on the I/O threads by
 * conn_read_pass (io-threads > 1: PLAY connections only; the states before
 * it change how the next frame is read, so they are read and parsed one
 * at a time, at once). */
static struct {
    conn **c;
    struct io_read *job;
    size_t n, cap;
} reads;

static void queue_read(conn *c)
{
    if (c->read_queued) return;
    if (reads.n == reads.cap &&
        !grow_pair(&reads.c, (void **)&reads.job, sizeof *reads.job, &reads.cap)) {
        conn_read(c); /* no room to queue: read it here */
        return;
    }
    c->read_queued = true;
    reads.c[reads.n++] = c;
}

/* Bytes read for c (on an I/O thread) are parsed as conn_read would:
 * in place with no partial frame pending, else after it. false when
 * reading must stop. */
static bool input_read(conn *c, uint8_t *data, size_t len)
{
    if (c->rbuf.len == 0) return conn_input(c, data, len, true);
    uint8_t *dst = buf_reserve(&c->rbuf, len);
    if (!dst) {
        conn_drop(c, "input buffer limit reached");
        return false;
    }
    memcpy(dst, data, len);
    return conn_input(c, dst, len, false);
}

void conn_read_pass(void)
{
    size_t n = 0;
    for (size_t i = 0; i < reads.n; i++) {
        conn *c = reads.c[i];
        c->read_queued = false;
        if (c->closed) continue;
        if (c->state != CS_PLAY) { /* kicked meanwhile: CLOSING reads and drops */
            conn_read(c);
            continue;
        }
        reads.c[n] = c;
        reads.job[n++] =
            (struct io_read){.fd = c->watch.fd, .dec = c->dec, .budget = CONN_READ_BUDGET};
    }
    reads.n = 0;
    if (!n) return;
    iothreads_read(reads.job, n);
    for (size_t i = 0; i < n; i++) {
        conn *c = reads.c[i];
        const struct io_read *r = &reads.job[i];
        if (c->closed) continue; /* by a packet of a connection settled before it */
        if (r->len && !input_read(c, r->data, r->len)) continue;
        if (r->err == IOREAD_EOF) {
            if (c->in_game)
                log_info("%s lost connection: disconnected", c->name);
            else
                log_debug("[%s] client closed the connection", c->addr);
            conn_drop(c, NULL);
        } else if (r->err) {
            conn_drop(c, strerror(r->err));
        }
    }
}

static void conn_event(loop_watch *w, uint32_t events)
{
    conn *c = container_of(w, conn, watch);
    if (c->closed) return;
    /* In CLOSING, input is read and dropped (conn_input parses nothing). */
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        if (c->state == CS_PLAY && iothreads_count() > 1)
            queue_read(c);
        else
            conn_read(c);
    }
    if (!c->closed && (events & EPOLLOUT)) conn_flush(c);
}

void conn_feed(conn *c, const uint8_t *data, size_t len)
{
    if (c->closed || c->state == CS_CLOSING || len == 0) return;
    if (c->rbuf.len == 0) {
        uint8_t *copy = malloc(len); /* exact size: ASan sees any overread */
        if (!copy) return;
        memcpy(copy, data, len);
        conn_input(c, copy, len, true);
        free(copy);
    } else {
        uint8_t *dst = buf_reserve(&c->rbuf, len);
        if (!dst) {
            conn_drop(c, "input buffer limit reached");
            return;
        }
        memcpy(dst, data, len);
        conn_input(c, dst, len, false);
    }
}

conn *conn_open(int fd, const struct sockaddr *sa)
{
    conn *c = pool_alloc(&conn_pool);
    if (!c) return NULL;
    loop_watch_init(&c->watch, conn_event);
    c->id = ++srv->next_conn_id;
    addr_text(sa, c->addr, sizeof c->addr);
    addr_ip(sa, c->ip, sizeof c->ip);
    c->proto = protocol_native; /* until the handshake names a version */
    c->connected_ms = srv->loop->now_ms;
    buf_init(&c->rbuf, FRAME_MAX_LENGTH + 16);
    outq_init(&c->out, CONN_OUTPUT_LIMIT);
    list_init(&c->closed_link);
    list_init(&c->deadline_link);
    list_init(&c->big_link);
    conn_set_deadline(c, c->connected_ms + CONN_PREPLAY_TIMEOUT);
    list_init(&c->flush_link);
    list_init(&c->now_link);
    int rc = loop_watch_add(srv->loop, &c->watch, fd, EPOLLIN);
    if (rc < 0) {
        log_warn("epoll_ctl: %s", strerror(-rc));
        buf_free(&c->rbuf);
        outq_free(&c->out);
        list_remove(&c->deadline_link);
        pool_free(&conn_pool, c);
        return NULL;
    }
    list_push_front(&srv->conns, &c->link);
    srv->conn_count++;
    limits_conn_opened(c, sa);
    return c;
}
