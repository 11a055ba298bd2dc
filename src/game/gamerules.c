/*
 * gamerules.c — see gamerules.h: the values of the rules mcserv acts on,
 * their effects on clients, their GameRules text in level.dat, and the
 * difficulty.
 *
 * Invariant: values[r] is 0 or 1 for a boolean rule; an int rule holds any
 * int (vanilla's IntegerValue has no bounds).
 */
#include "game/gamerules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/mgmt.h"
#include "game/chat.h"
#include "game/daytime.h"
#include "game/game.h"
#include "proto/nbt.h"
#include "proto/packets.h"
#include "world/anvil.h"
#include "world/store.h"

static int32_t values[GR_COUNT];
static int difficulty;

int32_t gamerule_get(enum gamerule r)
{
    return values[r];
}

int64_t gamerules_wire_time(int64_t day_time)
{
    if (values[GR_DO_DAYLIGHT_CYCLE]) return day_time;
    return day_time ? -day_time : -1; /* a zero would not stop the clock */
}

/* Game Event 11: the death screen (1 = none), vanilla's IMMEDIATE_RESPAWN. */
static void send_respawn_screen(conn *c)
{
    buf_reset(&srv->pkt);
    pkt_cb_game_state_change(&srv->pkt, 11, values[GR_DO_IMMEDIATE_RESPAWN] ? 1.0f : 0.0f);
    if (c)
        conn_send_pkt(c);
    else
        chat_broadcast_pkt(NULL);
}

/* Entity Event 22 / 23 on the player's own entity: reduced debug info on / off. */
static void send_debug_info(conn *c)
{
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, c->player->entity_id, values[GR_REDUCED_DEBUG_INFO] ? 22 : 23);
    conn_send_pkt(c);
}

void gamerule_set(enum gamerule r, int32_t v)
{
    values[r] = gamerule_defs[r].is_int ? v : v != 0;
    switch (r) {
    case GR_DO_IMMEDIATE_RESPAWN: send_respawn_screen(NULL); break;
    case GR_REDUCED_DEBUG_INFO:
        for (size_t i = game.player_count; i-- > 0;)
            if (i < game.player_count) send_debug_info(game.players[i]);
        break;
    case GR_DO_DAYLIGHT_CYCLE: daytime_broadcast(); break; /* the clock stops (or runs) now */
    default: break;
    }
    char text[16];
    if (gamerule_defs[r].is_int)
        snprintf(text, sizeof text, "%d", values[r]);
    else
        snprintf(text, sizeof text, "%s", values[r] ? "true" : "false");
    mgmt_notify_gamerule_updated(gamerule_defs[r].name, !gamerule_defs[r].is_int,
                                 text); /* issue 20 */
}

/* ----------------------------------------------------------- difficulty */

int gamerules_difficulty(void)
{
    return difficulty;
}

static void send_difficulty(conn *c)
{
    buf_reset(&srv->pkt);
    pkt_cb_difficulty(&srv->pkt, (uint8_t)difficulty, false);
    if (c)
        conn_send_pkt(c);
    else
        chat_broadcast_pkt(NULL);
}

void gamerules_set_difficulty(int d)
{
    /* vanilla setDifficulty: a hardcore world stays hard */
    difficulty = srv->cfg.hardcore ? 3 : d;
    srv->cfg.difficulty = difficulty; /* what level.dat gets (level_encode) */
    if (store_active()) store_level()->difficulty = difficulty;
    send_difficulty(NULL);
}

/* ---------------------------------------------------------- join, init */

void gamerules_join(conn *c)
{
    send_difficulty(c);
    /* The Login packet said "death screen, full debug info" (vanilla's
     * defaults); a rule changed from its default is told right after. */
    if (values[GR_DO_IMMEDIATE_RESPAWN]) send_respawn_screen(c);
    if (values[GR_REDUCED_DEBUG_INFO] && !c->closed) send_debug_info(c);
}

/* A rule's text in level.dat as vanilla reads it (GameRules.BooleanValue
 * deserialize: "true" or anything else false; IntegerValue: a number, else
 * the default). */
static int32_t parse_value(const struct gamerule_def *d, const uint8_t *s, size_t n)
{
    if (!d->is_int) return n == 4 && memcmp(s, "true", 4) == 0;
    char tmp[16];
    if (n == 0 || n >= sizeof tmp) return d->def;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char *end;
    long v = strtol(tmp, &end, 10);
    return *end || v < INT32_MIN || v > INT32_MAX ? d->def : (int32_t)v;
}

void gamerules_init(const nbt_node *data)
{
    difficulty = srv->cfg.hardcore ? 3 : srv->cfg.difficulty;
    const nbt_node *rules = data ? nbt_get(data, "GameRules", NBT_COMPOUND) : NULL;
    for (int r = 0; r < GR_COUNT; r++) {
        const nbt_node *v = rules ? nbt_get(rules, gamerule_defs[r].name, NBT_STRING) : NULL;
        values[r] =
            v ? parse_value(&gamerule_defs[r], v->v.arr.p, v->v.arr.n) : gamerule_defs[r].def;
    }
}

static int ours(const nbt_node *n)
{
    for (int r = 0; r < GR_COUNT; r++)
        if (strlen(gamerule_defs[r].name) == n->name_len &&
            memcmp(gamerule_defs[r].name, n->name, n->name_len) == 0)
            return r;
    return -1;
}

void gamerules_write(buf_t *b, const nbt_node *old)
{
    nbt_w_compound(b, "GameRules");
    if (old)
        for (const nbt_node *n = old->v.kids.first; n; n = n->next)
            if (ours(n) < 0) anvil_nbt_copy_tag(b, n);
    for (int r = 0; r < GR_COUNT; r++) {
        char v[16];
        if (gamerule_defs[r].is_int)
            snprintf(v, sizeof v, "%d", values[r]);
        else
            snprintf(v, sizeof v, "%s", values[r] ? "true" : "false");
        nbt_w_string(b, gamerule_defs[r].name, v, strlen(v));
    }
    nbt_w_end(b);
}
