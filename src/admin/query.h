/*
 * query.h — Query (GameSpy 4 as vanilla speaks it; ops-conventions §2.4):
 * UDP on query.port (25565 by default: the game port number, over UDP),
 * bound to server-ip (every interface when empty). Off unless
 * enable-query=true.
 *
 * Requests, replies, tokens and rate limits: admin/query_packet.h.
 *
 * Invariants:
 *  1. The socket answers only what query_handle answers (its invariants:
 *     sender-bound tokens, no amplification, rate limits).
 *  2. With hide-online-players, a full stat names no players.
 */
#ifndef MC_QUERY_H
#define MC_QUERY_H

#include "admin/query_packet.h"

struct server_config;
/* 0 when off or started; -1 (logged) when it cannot start. */
int query_start(const struct server_config *cfg);
void query_stop(void);

#endif
