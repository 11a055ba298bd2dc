/*
 * daytime.h — the world clock (time of day) and the weather, and what
 * clients are told of them.
 *
 * State lives in the server (game.day_time, game.raining, game.thundering;
 * level.dat keeps them, game/playerdata.c) plus one timer here: the tick at
 * which timed rain stops.
 *
 * Invariants:
 *  1. game.day_time grows by one every tick; the time of day is
 *     day_time % 24000 and the day count day_time / 24000.
 *  2. Every player gets Update Time (world age = game.tick_count, day time)
 *     every 20 ticks, and at once after a command changes the clock.
 *  3. A weather change is told with Game State Change events: a change of
 *     rain sends begin or end raining (1 or 2), the rain level (7) and the
 *     thunder level (8); a change of thunder alone sends the thunder level.
 *  4. Timed rain (a duration > 0) stops by itself at the end of its tick
 *     count; the timer is not saved, so rain loaded from level.dat lasts
 *     until a command changes the weather.
 */
#ifndef MC_DAYTIME_H
#define MC_DAYTIME_H

#include <stdbool.h>

#include "game/game.h"
#include "game/game.h"

/* Once at startup, before level.dat is read: the first morning (1000). */
void daytime_init(void);
/* Once per tick: the clock, Update Time every 20 ticks, the weather timer. */
void daytime_tick(void);
/* Update Time to every player now (after the clock was set). */
void daytime_broadcast(void);
/* Sets the weather and tells every player; duration in ticks (rain only;
 * 0 or less: until changed). */
void daytime_set_weather(bool rain, bool thunder, int duration);
/* A player who just joined: the weather, if it is raining. */
void daytime_join(conn *c);

#endif
