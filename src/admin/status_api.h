/*
 * status_api.h — /api/status: one JSON document for dashboards and scripts.
 *
 *   {"server": {"version": "1.20.1", "protocol": 763, "software": "mcserv",
 *               "motd": "...", "uptime_s": 12.3, "tick": 246},
 *    "tps": {"last_5s": 20.0, "last_60s": 20.0},
 *    "mspt": {"median": 0.7, "p95": 1.2, "max": 3.1},          // last 5 s, ms
 *    "players": {"online": 1, "max": 20,
 *                "list": [{"name": "Alice", "uuid": "...", "x": 0.5, "y": -60,
 *                          "z": 0.5, "yaw": 0, "gamemode": 0, "ping_ms": 3,
 *                          "op": false}]},
 *    "world": {"name": "world", "loaded_chunks": 441, "generating": 0,
 *              "chunks": [x0, z0, x1, z1, ...], "chunks_truncated": false,
 *              "spawn": [0, -60, 0]},
 *    "connections": {"handshake": 0, "status": 0, "login": 0, "play": 1, "closing": 0},
 *    "history": [[unix_ms, tps, mspt_median, mspt_max, players], ...]}  // 1/s, oldest first
 *
 * Invariants:
 *  1. Rebuilt at most once per tick, served from that cache.
 *  2. Every string goes through the JSON string writer (names, MOTD, the
 *     world name are user text); numbers are finite (NaN/Inf written as 0).
 *  3. Bounded: at most STATUS_API_PLAYERS players and STATUS_API_CHUNKS
 *     chunks (then "chunks_truncated": true); history is a fixed ring.
 */
#ifndef MC_STATUS_API_H
#define MC_STATUS_API_H

#include <stddef.h>
#include <stdint.h>

#define STATUS_API_PLAYERS 2000
#define STATUS_API_CHUNKS  32768
#define STATUS_API_HISTORY 300 /* seconds kept */
#define STATUS_API_SENT    120 /* seconds sent */

/* The current document (valid until the next call). */
const char *status_api_json(size_t *len);
void status_api_free(void);

#endif
