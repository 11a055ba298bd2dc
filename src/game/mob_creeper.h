/*
 * mob_creeper.h — the creeper's own goals and fuse (issue 15), hooked into
 * mobs.c's tick: see mob_creeper.c.
 */
#ifndef MC_MOB_CREEPER_H
#define MC_MOB_CREEPER_H

#include <stdbool.h>

struct mob;

/* Creeper.tick's fuse, before the AI: the swell moves by the swell
 * direction (1 when ignited); at 30 the creeper explodes (power 3, 6 when
 * charged) and is removed. True when it exploded (nothing else runs). */
bool mob_creeper_tick(struct mob *m);
/* Its goals (even ticks start them, as mobs.c's selector): the target
 * selector, SwellGoal, and the approach. True when they drove the mob this
 * tick (mobs.c's generic goals then do not run). */
bool mob_creeper_ai(struct mob *m);

#endif
