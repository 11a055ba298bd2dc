/*
 * status_api.c — see status_api.h.
 *
 * The history ring is sampled once a second from the admin pass hook:
 * TPS and tick durations over the last 20 ticks (tickstat), players online.
 */
#include "admin/status_api.h"

#include <stdio.h>
#include <string.h>

#include "admin/admin.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/tickstat.h"
#include "data/version.h"
#include "game/game.h"
#include "net/server.h"

/* The once-a-second samples the dashboard charts. */
static struct {
    struct sample {
        int64_t unix_ms;
        float tps, mspt_median, mspt_max;
        uint32_t players;
    } ring[STATUS_API_HISTORY];
    size_t next, count; /* the slot to write next; samples held */
    int64_t next_ms;    /* when to take the next sample */
} history;

/* The last /api/status body, kept for the rest of its tick. */
static struct {
    buf_t json;
    uint64_t built_tick;
    bool built;
} reply;

void status_api_pass(int64_t now_ms)
{
    if (now_ms < history.next_ms) return;
    history.next_ms = now_ms + 1000;
    struct tickstat_summary t;
    tickstat_summarize(20, &t);
    if (!t.ticks) return; /* before the first tick: nothing to say yet */
    struct sample *s = &history.ring[history.next];
    s->unix_ms = clock_wall_ms();
    s->tps = (float)t.tps;
    s->mspt_median = (float)t.median_ms;
    s->mspt_max = (float)t.max_ms;
    s->players = (uint32_t)game.player_count;
    history.next = (history.next + 1) % STATUS_API_HISTORY;
    if (history.count < STATUS_API_HISTORY) history.count++;
}

static void jnum(buf_t *b, double v)
{
    admin_number(b, v, "%.3f");
}

/* "[v0,v1,...]" */
static void jnums(buf_t *b, const double *v, size_t n)
{
    buf_lit(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) buf_lit(b, ",");
        jnum(b, v[i]);
    }
    buf_lit(b, "]");
}

static void jbool(buf_t *b, bool v)
{
    buf_append(b, v ? "true" : "false", v ? 4 : 5);
}

/* "key": (the caller writes the value) */
static void jkey(buf_t *b, const char *key)
{
    buf_lit(b, "\"");
    buf_append(b, key, strlen(key));
    buf_lit(b, "\":");
}

static void jkv(buf_t *b, const char *key, double v, bool comma)
{
    jkey(b, key);
    jnum(b, v);
    if (comma) buf_lit(b, ",");
}

static void jstr(buf_t *b, const char *key, const char *s, bool comma)
{
    jkey(b, key);
    json_append_string(b, s, strlen(s));
    if (comma) buf_lit(b, ",");
}

static const char *const state_names[CONN_STATES] = {"handshake", "status", "login", "play",
                                                     "closing"};

static void build(buf_t *b)
{
    struct tickstat_summary s5, s60;
    tickstat_summarize(TICKSTAT_SHORT, &s5);
    tickstat_summarize(TICKSTAT_WINDOW, &s60);
    buf_lit(b, "{\"server\":{");
    jstr(b, "version", MC_VERSION_NAME, true);
    jkv(b, "protocol", MC_PROTOCOL_VERSION, true);
    jstr(b, "software", "mcserv", true);
    jstr(b, "motd", srv->cfg.motd, true);
    jkv(b, "uptime_s", (double)(clock_ns() - srv->start_ns) / 1e9, true);
    jkv(b, "tick", (double)game.tick_count, false);
    buf_lit(b, "},\"tps\":{");
    jkv(b, "last_5s", s5.tps, true);
    jkv(b, "last_60s", s60.tps, false);
    buf_lit(b, "},\"mspt\":{");
    jkv(b, "median", s5.median_ms, true);
    jkv(b, "p95", s5.p95_ms, true);
    jkv(b, "max", s5.max_ms, false);
    buf_lit(b, "},\"players\":{");
    jkv(b, "online", (double)game.player_count, true);
    jkv(b, "max", srv->cfg.max_players, true);
    buf_lit(b, "\"list\":[");
    for (size_t i = 0; i < game.player_count && i < STATUS_API_PLAYERS; i++) {
        const player *p = game.players[i]->player;
        char id[37];
        uuid_format(&p->uuid, id);
        if (i) buf_lit(b, ",");
        buf_lit(b, "{");
        jstr(b, "name", p->name, true);
        jstr(b, "uuid", id, true);
        jkv(b, "x", p->x, true);
        jkv(b, "y", p->y, true);
        jkv(b, "z", p->z, true);
        jkv(b, "yaw", p->yaw, true);
        jkv(b, "gamemode", p->gamemode, true);
        jkv(b, "ping_ms", p->latency_ms, true);
        jkey(b, "op");
        jbool(b, p->op_level > 0);
        buf_lit(b, "}");
    }
    buf_lit(b, "]},\"world\":{");
    jstr(b, "name", srv->cfg.level_name, true);
    jkv(b, "loaded_chunks", (double)game.world.count, true);
    jkv(b, "generating", game.world.generating, true);
    jkey(b, "spawn");
    jnums(b, (const double[]){game.spawn_x, game.spawn_y, game.spawn_z}, 3);
    buf_lit(b, ",\"chunks\":[");
    size_t n = 0;
    bool truncated = false;
    const world *w = &game.world;
    for (size_t k = 0; k < w->nbuckets && !truncated; k++)
        for (const chunk_entry *e = w->buckets[k]; e; e = e->next) {
            if (e->state != CHUNK_READY) continue;
            if (n == STATUS_API_CHUNKS) {
                truncated = true;
                break;
            }
            char t[32];
            int len = snprintf(t, sizeof t, "%s%d,%d", n ? "," : "", (int)e->c.x, (int)e->c.z);
            buf_append(b, t, (size_t)len);
            n++;
        }
    buf_lit(b, "],");
    jkey(b, "chunks_truncated");
    jbool(b, truncated);
    buf_lit(b, "},\"connections\":{");
    double by_state[CONN_STATES] = {0};
    conn *c;
    server_for_each_conn (c, node)
        if ((int)c->state >= 0 && (int)c->state < CONN_STATES) by_state[c->state]++;
    for (int i = 0; i < CONN_STATES; i++) jkv(b, state_names[i], by_state[i], i + 1 < CONN_STATES);
    buf_lit(b, "},\"history\":[");
    size_t sent = history.count < STATUS_API_SENT ? history.count : STATUS_API_SENT;
    for (size_t i = 0; i < sent; i++) {
        const struct sample *s =
            &history.ring[(history.next + STATUS_API_HISTORY - sent + i) % STATUS_API_HISTORY];
        if (i) buf_lit(b, ",");
        jnums(b,
              (const double[]){(double)s->unix_ms, s->tps, s->mspt_median, s->mspt_max, s->players},
              5);
    }
    buf_lit(b, "]}");
}

const char *status_api_json(size_t *len)
{
    if (!reply.built || reply.built_tick != game.tick_count) {
        if (!reply.json.limit) buf_init(&reply.json, 4u << 20);
        buf_reset(&reply.json);
        build(&reply.json);
        if (reply.json.failed) {
            buf_reset(&reply.json);
            buf_lit(&reply.json, "{\"error\":\"status over its size limit\"}");
        }
        reply.built = true;
        reply.built_tick = game.tick_count;
    }
    *len = reply.json.len;
    return (const char *)reply.json.data;
}

void status_api_free(void)
{
    buf_free(&reply.json);
    reply.built = false;
}
