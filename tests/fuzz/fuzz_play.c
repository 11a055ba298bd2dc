/*
 * fuzz_play.c — libFuzzer target for every serverbound packet parser, through
 * the server's real connection path (net/conn.c conn_feed → parse →
 * dispatch → handshake/status/login/play handlers, the limits and the tick),
 * linked against every server object but src/main.c (tests/fuzz/run.sh).
 * The harness sets the server up as main.c does, without a listener,
 * signals or worker threads, and runs loop passes by hand.
 *
 * Input layout:
 *   byte 0  options: bits 0-1 the state the connection starts in
 *           (0 handshake, 1 status, 2 login, 3 play: logged in first with a
 *           real Login Start), bit 2 compression (threshold 64), bit 3
 *           records mode, bit 4 creative mode, bit 5 operator (level 4),
 *           bit 6 a tick and a loop-pass end after every record, bit 7
 *           proxy-protocol (handshake state only)
 *   byte 1  raw mode: the size of the pieces the rest arrives in (0 = one)
 *   rest    raw mode: bytes as they would come off the socket (decrypted);
 *           records mode: [u16 big-endian length][packet: VarInt id, payload]
 *           records, each framed (and compressed when on) by the harness, so
 *           the fuzzer works on packet bodies instead of learning framing.
 *
 * Invariants: one fresh connection per input (a socketpair; its output is
 * read and discarded), dropped and freed at the end, so inputs do not leak
 * state into each other except the world's spawn chunks (their generation
 * jobs stay queued: no worker threads run, which keeps runs deterministic).
 * Any crash, sanitizer report or leak is a bug in the server.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "core/buildinfo.h"
#include "core/config.h"
#include "core/log.h"
#include "core/loop.h"
#include "game/game.h"
#include "game/tick.h"
#include "net/server.h"
#include "proto/frame.h"
#include "proto/wire.h"

/* The Makefile writes mcserv_commit into mcserv's own build (BUILD/buildinfo.c);
 * this target links the server's objects without it. */
const char mcserv_commit[] = "fuzz";

static loop fuzz_loop;
static struct server fuzz_server;
static struct libdeflate_compressor *zc;
static buf_t framed;

static char workdir[] = "/tmp/mcserv-fuzz-play-XXXXXX";

/* At exit: the files commands wrote there (ops.json, the ban lists), then the
 * directory itself. */
static void remove_workdir(void)
{
    DIR *d = opendir(workdir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[sizeof workdir + 256];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", workdir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(workdir);
}

static int init_once(void)
{
    if (!mkdtemp(workdir) || chdir(workdir) < 0) return -1; /* ops.json and friends land here */
    atexit(remove_workdir);
    log_set_stderr(0);
    log_set_level(LOG_ERROR);
    struct server_config cfg;
    config_defaults(&cfg);
    cfg.online_mode = false;
    cfg.level_type = LEVEL_FLAT;
    cfg.view_distance = 2;
    cfg.compression_threshold = 64;
    cfg.max_players = 1000;
    cfg.enable_status = true;
    if (loop_init(&fuzz_loop) < 0 || server_init(&fuzz_server, &fuzz_loop, &cfg) < 0 ||
        game_init(&fuzz_loop, &fuzz_server.cfg, -1) < 0) /* -1: no workers, jobs stay queued */
        return -1;
    zc = libdeflate_alloc_compressor(1);
    buf_init(&framed, FRAME_MAX_PACKET + 16);
    return zc ? 0 : -1;
}

/* A connection as accept would make it, already in state st. */
static conn *fuzz_conn(int fd, enum conn_state st)
{
    static uint16_t port = 1024;
    loop_update_clock(&fuzz_loop);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    port = port == 65535 ? 1024 : port + 1;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    conn *c = conn_open(fd, (struct sockaddr *)&a);
    if (c) c->state = st;
    return c;
}

static void fuzz_tick(void)
{
    loop_update_clock(&fuzz_loop);
    tick_run();
}

/* The end of a loop pass: its hooks (stream chunks, flush output, free
 * closed connections). true when `watch` was freed (it is off srv->conns). */
static bool pass_end(const conn *watch)
{
    loop_update_clock(&fuzz_loop);
    for (int i = 0; i < fuzz_loop.nhooks; i++) fuzz_loop.hooks[i].fn(fuzz_loop.hooks[i].arg);
    for (list_node *n = srv->conns.next; n != &srv->conns; n = n->next)
        if (list_entry(n, conn, link) == watch) return false;
    return true;
}

/* Frames pkt as the client would (compressed when the connection is) and feeds it. */
static void feed_packet(conn *c, const uint8_t *pkt, size_t len)
{
    buf_reset(&framed);
    int threshold = c->compressed ? srv->cfg.compression_threshold : -1;
    if (frame_encode(&framed, pkt, len, threshold, zc) < 0) return;
    loop_update_clock(&fuzz_loop);
    conn_feed(c, framed.data, framed.len);
}

static void drain(int fd)
{
    static uint8_t sink[65536];
    while (read(fd, sink, sizeof sink) > 0) {
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        if (init_once() < 0) abort();
        ready = 1;
    }
    if (size < 2) return 0;
    uint8_t opt = data[0], piece = data[1];
    data += 2;
    size -= 2;
    int st = opt & 3;
    srv->cfg.compression_threshold = (opt & 4) ? 64 : -1;
    srv->cfg.gamemode = (opt & 16) ? GM_CREATIVE : GM_SURVIVAL;
    srv->cfg.proxy_protocol = (opt & 128) && st == 0;

    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0) return 0;
    static const enum conn_state states[4] = {CS_HANDSHAKE, CS_STATUS, CS_LOGIN, CS_LOGIN};
    conn *c = fuzz_conn(sv[0], states[st]);
    if (!c) {
        close(sv[0]);
        close(sv[1]);
        return 0;
    }
    if (st) c->protocol = 763; /* what the handshake would have set */
    if (st == 3) {
        /* Login Start "Fuzz", no UUID: offline login straight into PLAY. */
        static const uint8_t login_start[] = {0x00, 4, 'F', 'u', 'z', 'z', 0};
        feed_packet(c, login_start, sizeof login_start);
        if (c->closed || c->state != CS_PLAY) goto end;
        if (opt & 32) c->player->op_level = 4;
    }
    if (opt & 8) {
        size_t off = 0;
        while (c && off + 2 <= size && !c->closed) {
            size_t len = (size_t)data[off] << 8 | data[off + 1];
            off += 2;
            if (len > size - off) len = size - off;
            if (len) feed_packet(c, data + off, len);
            off += len;
            if (opt & 64) {
                fuzz_tick();
                bool gone = pass_end(c);
                drain(sv[1]);
                if (gone) {
                    c = NULL;
                    break;
                }
            }
        }
    } else {
        size_t step = piece ? piece : size;
        for (size_t off = 0; off < size && !c->closed; off += step)
            conn_feed(c, data + off, size - off < step ? size - off : step);
    }
    fuzz_tick();
end:
    if (c && !c->closed) conn_drop(c, NULL);
    pass_end(c);
    drain(sv[1]);
    close(sv[1]);
    return 0;
}
