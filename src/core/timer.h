/*
 * timer.h — a hashed timing wheel with 1 ms slots for the event loop (core/loop.h).
 *
 * Thousands of owners (mcbench's bots, mcserv's tick and admin deadlines)
 * each hold a few timers; a wheel makes add, cancel and fire O(1) with no
 * allocation: the nodes are intrusive (embedded in their owner).
 *
 * Invariants:
 *  1. A node is on at most one slot list; tm_add on an armed node re-arms it.
 *  2. A timer never fires early; it fires during the first tw_run whose `now`
 *     is >= its due time (at most one loop pass late).
 *  3. Callbacks may add or cancel any timer, including their own node and
 *     other nodes of the slot being run: the slot is detached before firing.
 *  4. A node added while tw_run is firing, with a due time already past,
 *     fires on the next tw_run, even one with the same `now` (never lost
 *     in an already-scanned slot, never fired twice in one run).
 */
#ifndef MC_TIMER_H
#define MC_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TW_BITS  12
#define TW_SLOTS (1u << TW_BITS) /* 4096 ms per turn of the wheel */

typedef struct tnode {
    struct tnode *prev, *next; /* NULL when not armed */
    int64_t due;               /* ms, CLOCK_MONOTONIC */
    void (*fn)(struct tnode *);
} tnode;

typedef struct twheel {
    tnode slot[TW_SLOTS]; /* list heads (sentinels) */
    int64_t cur;          /* next ms to scan */
    size_t armed;
} twheel;

void tw_init(twheel *tw, int64_t now_ms);
void tm_init(tnode *n, void (*fn)(tnode *));
/* Arms (or re-arms) n to fire at due_ms. */
void tm_add(twheel *tw, tnode *n, int64_t due_ms);
void tm_del(twheel *tw, tnode *n);
static inline bool tm_armed(const tnode *n)
{
    return n->next != NULL;
}
/* Fires every timer due at or before now_ms. */
void tw_run(twheel *tw, int64_t now_ms);
/* Milliseconds until the next non-empty slot (a lower bound), capped at
 * max_ms; 0 when a timer armed for the past waits in the next slot. */
int tw_timeout(const twheel *tw, int64_t now_ms, int max_ms);

#endif
