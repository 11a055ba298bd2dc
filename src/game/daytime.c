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
#include "proto/packets.h"

static int64_t weather_ends; /* tick at which rain/thunder stop; 0 = never */

void daytime_init(void)
{
    game.day_time = 1000;
}

void daytime_broadcast(void)
{
    buf_reset(&srv->pkt);
    pkt_cb_update_time(&srv->pkt, (int64_t)game.tick_count,
                       gamerules_wire_time(game.day_time)); /* issue 17: doDaylightCycle */
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
    if (game.tick_count % 20 == 0) daytime_broadcast();
    if (weather_ends && (int64_t)game.tick_count >= weather_ends) {
        weather_ends = 0;
        daytime_set_weather(false, false, 0);
    }
}
