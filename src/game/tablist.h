/*
 * tablist.h — the vanilla client's tab list: the order it sorts players in
 * and the entries it draws (PlayerTabOverlay.getPlayerInfos: the listed
 * players sorted by PLAYER_COMPARATOR, the first TAB_SHOWN of them). The
 * server uses it to send tab-list news only for what a client can show
 * (game/entities.c, the latency rounds).
 *
 * Invariants:
 *  1. tab_order is vanilla's comparator without scoreboard teams (mcserv
 *     has none): spectators after everyone else, then the name ignoring
 *     case (Java's compareToIgnoreCase, strcasecmp over ASCII names).
 *  2. tab_select_shown picks exactly the entries a full sort by tab_order
 *     would put first (ties broken by input order are the caller's: names
 *     are unique on a server), in O(n log TAB_SHOWN), allocating nothing.
 */
#ifndef MC_GAME_TABLIST_H
#define MC_GAME_TABLIST_H

#include <stdbool.h>
#include <stddef.h>

#define TAB_SHOWN 80 /* PlayerTabOverlay: .sorted(PLAYER_COMPARATOR).limit(80L) */

struct tab_entry {
    const char *name;
    bool spectator;
    void *ref; /* the caller's */
};

/* <0, 0, >0 as a sorts before, with, after b (invariant 1). */
int tab_order(const struct tab_entry *a, const struct tab_entry *b);

/* The first min(n, TAB_SHOWN) entries of in[] in tab_order, into out[] (a
 * max-heap on tab_order: out[0] is the last of them); their count. */
size_t tab_select_shown(const struct tab_entry *in, size_t n, const struct tab_entry **out);

#endif
