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
 *    "history": [[unix_ms, tps, mspt_median, mspt_max, players], ...],  // 1/s, oldest first
 *    "pregen": {"running": false, "cancelling": false, "center_x": 0, "center_z": 0,
 *               "radius": 0, "done": 0, "total": 0, "generated": 0, "skipped": 0,
 *               "failed": 0, "chunks_per_s": 0, "eta_s": -1},       // game/pregen.h
 *    "map": {"tiles": 12, "bytes": 400000, "renders": 30, "chunks_drawn": 4000,
 *            "render_ms_total": 900, "world_border": null},        // admin/map.h
 *    "events": [{"unix_ms": ..., "kind": "join", "text": "..."}, ...]}  // newest first
 *
 * Event kinds: join, leave, kick (disconnected by the server), warning,
 * error; text is the log line (escaped as the log escapes it).
 *
 * /api/history: the last hour of every series,
 *   {"columns": ["unix_ms", "tps", "mspt_median", "mspt_max", "players", "chunks",
 *                "rss_mb", "cpu_pct", "net_in_kib_s", "net_out_kib_s"],
 *    "fine": {"interval_s": 1, "rows": [[...], ...]},     // the last 10 minutes
 *    "coarse": {"interval_s": 10, "rows": [[...], ...]}}  // the last hour: means
 *                                                         // (mspt_max: the maximum)
 * cpu_pct is the whole process (every thread), % of one core; net is game
 * socket bytes.
 *
 * /api/players/N: page N (from 0) of the players, STATUS_API_PAGE a page:
 *   {"online": 10000, "page": 0, "page_size": 100, "pages": 100,
 *    "list": [{"name", "x", "y", "z", "yaw", "gamemode", "ping_ms"}, ...]}
 *
 * Invariants:
 *  1. Rebuilt at most once per tick, served from that cache.
 *  2. Every string goes through the JSON string writer (names, MOTD, the
 *     world name are user text); numbers are finite (NaN/Inf written as 0).
 *  3. Bounded: at most STATUS_API_PLAYERS players and STATUS_API_CHUNKS
 *     chunks (then "chunks_truncated": true); history and events are fixed
 *     rings.
 *  4. The event ring is the only state other threads touch (log_tap), under
 *     its own mutex.
 */
#ifndef MC_STATUS_API_H
#define MC_STATUS_API_H

#include <stddef.h>
#include <stdint.h>

#define STATUS_API_PLAYERS    2000
#define STATUS_API_CHUNKS     32768
#define STATUS_API_FINE       600 /* 1 s samples kept: 10 minutes */
#define STATUS_API_COARSE     360 /* 10 s samples kept: an hour */
#define STATUS_API_SENT       120 /* seconds of /api/status "history" */
#define STATUS_API_EVENTS     64
#define STATUS_API_EVENT_TEXT 200
#define STATUS_API_PAGE       100

/* The current document (valid until the next call). */
const char *status_api_json(size_t *len);
/* /api/history and /api/players/N (valid until the next call of either). */
const char *status_api_history_json(size_t *len);
const char *status_api_players_json(size_t page, size_t *len);
void status_api_free(void);

#endif
