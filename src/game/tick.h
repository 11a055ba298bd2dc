/*
 * tick.h — the game tick: 20 per second on the loop's clock, each one the
 * phases listed in tick.c in that order.
 */
#ifndef MC_TICK_H
#define MC_TICK_H

#include "core/loop.h"

/* Arms the tick timer: the first tick is due TICK_MS from now. */
void tick_start(loop *l);
void tick_stop(void);
/* Runs one tick now (the timer's callback; tests and the fuzz harness). */
void tick_run(void);

#endif
