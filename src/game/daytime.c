/*
 * daytime.c — see daytime.h: the clock, Update Time, the weather and its
 * timer.
 *
 * Invariant: weather_ends is 0 unless it rains with a duration, and then is
 * the tick (game.tick_count) at which daytime_tick clears the weather.
 */
#include "game/daytime.h"

#include <stdint.h>

#include "game/chat.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "net/conn.h"
#include "proto/frame.h"
#include "proto/packets.h"

static int64_t weather_ends; /* tick at which rain/thunder stop; 0 = never */

/* Vanilla sends Update Time to every player every 20 ticks, all in the same
 * tick. Each player still gets it every 20 ticks here, but the players are
 * spread over the 20: the one in game.players[i] at ticks ≡ i (mod 20), so
 * 10,000 players cost 500 sends a tick instead of 10,000 in one. A leave
 * moves the last player into the gap, shifting its phase once (an interval
 * of 0–2 s; the client only corrects its clock). */
#define TIME_EVERY 20

void daytime_init(void)
{
    game.day_time = 1000;
}

/* Update Time for this tick into srv->pkt. */
static void encode_time(void)
{
    buf_reset(&srv->pkt);
    pkt_cb_update_time(&srv->pkt, (int64_t)game.tick_count,
                       gamerules_wire_time(game.day_time)); /* issue 17: doDaylightCycle */
}

void daytime_broadcast(void)
{
    encode_time();
    chat_broadcast_pkt(NULL);
}

/* The Game State Change events from the old weather to srv's, to c or
 * (c NULL) to everyone. */
static void send_weather(conn *c, bool was_raining, bool was_thundering)
{
    bool all = c == NULL;
    float rain = game.raining ? 1.0f : 0.0f, thunder = game.thundering ? 1.0f : 0.0f;
    uint8_t events[3];
    float values[3];
    int n = 0;
    if (was_raining != game.raining) {
        events[n] = game.raining ? 1 : 2; /* begin / end raining */
        values[n++] = 0;
        events[n] = 7;
        values[n++] = rain;
        events[n] = 8;
        values[n++] = thunder;
    } else if (was_thundering != game.thundering) {
        events[n] = 8;
        values[n++] = thunder;
    }
    for (int i = 0; i < n; i++) {
        buf_reset(&srv->pkt);
        pkt_cb_game_state_change(&srv->pkt, events[i], values[i]);
        if (all)
            chat_broadcast_pkt(NULL);
        else
            conn_send_pkt(c);
    }
}

void daytime_set_weather(bool rain, bool thunder, int duration)
{
    bool wr = game.raining, wt = game.thundering;
    game.raining = rain;
    game.thundering = thunder;
    weather_ends = duration > 0 && rain ? (int64_t)game.tick_count + duration : 0;
    send_weather(NULL, wr, wt);
}

void daytime_join(conn *c)
{
    if (game.raining) send_weather(c, false, false);
}

void daytime_tick(void)
{
    if (gamerule_on(GR_DO_DAYLIGHT_CYCLE)) game.day_time++; /* issue 17: game/gamerules.h */
    if (weather_ends && !gamerule_on(GR_DO_WEATHER_CYCLE)) weather_ends++; /* the timer waits */
    size_t first = (size_t)(game.tick_count % TIME_EVERY);
    if (first < game.player_count) {
        encode_time();
        const buf_t *f = pkt_frame_shared();
        for (size_t i = first; f && i < game.player_count; i += TIME_EVERY)
            conn_send_raw_as(game.players[i], f->data, f->len, CONN_LAZY);
    }
    if (weather_ends && (int64_t)game.tick_count >= weather_ends) {
        weather_ends = 0;
        daytime_set_weather(false, false, 0);
    }
}
