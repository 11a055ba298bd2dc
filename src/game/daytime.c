/*
 * daytime.c — see daytime.h: the clock, Update Time, the weather and its
 * timer.
 *
 * Invariant: weather_ends is 0 unless it rains with a duration, and then is
 * the tick (srv->tick_count) at which daytime_tick clears the weather.
 */
#include "game/daytime.h"

#include <stdint.h>

#include "game/chat.h"
#include "game/packets.h"

static int64_t weather_ends; /* tick at which rain/thunder stop; 0 = never */

void daytime_init(void)
{
    srv->day_time = 1000;
}

void daytime_broadcast(void)
{
    buf_reset(&srv->pkt);
    pkt_cb_update_time(&srv->pkt, (int64_t)srv->tick_count, srv->day_time);
    chat_broadcast_pkt(NULL);
}

/* The Game State Change events from the old weather to srv's, to c or
 * (c NULL) to everyone. */
static void send_weather(conn *c, bool was_raining, bool was_thundering)
{
    bool all = c == NULL;
    float rain = srv->raining ? 1.0f : 0.0f, thunder = srv->thundering ? 1.0f : 0.0f;
    uint8_t events[3];
    float values[3];
    int n = 0;
    if (was_raining != srv->raining) {
        events[n] = srv->raining ? 1 : 2; /* begin / end raining */
        values[n++] = 0;
        events[n] = 7;
        values[n++] = rain;
        events[n] = 8;
        values[n++] = thunder;
    } else if (was_thundering != srv->thundering) {
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
    bool wr = srv->raining, wt = srv->thundering;
    srv->raining = rain;
    srv->thundering = thunder;
    weather_ends = duration > 0 && rain ? (int64_t)srv->tick_count + duration : 0;
    send_weather(NULL, wr, wt);
}

void daytime_join(conn *c)
{
    if (srv->raining) send_weather(c, false, false);
}

void daytime_tick(void)
{
    srv->day_time++;
    if (srv->tick_count % 20 == 0) daytime_broadcast();
    if (weather_ends && (int64_t)srv->tick_count >= weather_ends) {
        weather_ends = 0;
        daytime_set_weather(false, false, 0);
    }
}
