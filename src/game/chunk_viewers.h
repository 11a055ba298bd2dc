/*
 * chunk_viewers.h — who holds which chunk: the inverse of every player's
 * `loaded` window bitmap (game/play.c), so "to everyone who sees chunk
 * (x, z)" (block updates, damage events, sounds, light) visits that chunk's
 * viewers instead of testing every player on the server.
 *
 * Invariants:
 *  1. conn c is in chunk (x, z)'s list exactly while its player's window
 *     has the chunk's bit set: play.c calls cv_add when it sets the bit
 *     and cv_remove when the chunk leaves the window (unload, leave).
 *  2. A list changes only through cv_add / cv_remove; cv_copy hands out a
 *     snapshot, so sending to the viewers (which may drop one, and so
 *     remove it) never walks a list that changes under it. A copied conn
 *     stays valid to the end of the loop pass (net/conn.h invariant 2):
 *     check `closed` before using it.
 *  3. Memory: one entry per chunk held by anyone, each with room for its
 *     viewers; an entry is freed when its last viewer goes.
 */
#ifndef MC_CHUNK_VIEWERS_H
#define MC_CHUNK_VIEWERS_H

#include <stddef.h>
#include <stdint.h>

#include "net/conn.h"

void cv_add(conn *c, int32_t cx, int32_t cz);
void cv_remove(conn *c, int32_t cx, int32_t cz);
/* The viewers of chunk (cx, cz), copied into a buffer reused by the next
 * call; *n of them. */
conn **cv_copy(int32_t cx, int32_t cz, size_t *n);
/* The viewers of chunk (cx, cz) in place, *n of them: valid until the
 * next cv_add or cv_remove, so only for a caller that changes no view. */
conn *const *cv_peek(int32_t cx, int32_t cz, size_t *n);
/* Number of viewers of the chunk. */
size_t cv_count(int32_t cx, int32_t cz);

#endif
