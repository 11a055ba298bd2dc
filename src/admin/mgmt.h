/*
 * mgmt.h — vanilla's Server Management Protocol (1.21.9, protocol version
 * 1.0.0): JSON-RPC 2.0 over a WebSocket with a bearer secret, so panels and
 * tools written for vanilla manage mcserv. Off unless
 * management-server-enabled=true. docs/operations.md is the operator's
 * guide (keys, methods, where mcserv departs from vanilla).
 *
 * The module's files:
 *   admin/mgmt.h            this: start/stop, the per-pass hook, the calls the
 *                           game makes (notifications) and the game-rule seam
 *   admin/mgmt_int.h        what the files below share
 *   admin/mgmt_ws.c         the transport: listener, TLS, the upgrade, WebSocket
 *                           framing (wslay), limits, output, close
 *   admin/mgmt_handshake.c  the upgrade request: authentication, the answer (pure)
 *   admin/mgmt_rpc.c        JSON-RPC 2.0: requests, batches, errors (pure)
 *   admin/mgmt_lists.c      allowlist, bans, ip_bans, operators, players
 *   admin/mgmt_server.c     server/..., serversettings/..., gamerules
 *   admin/mgmt_notify.c     notifications, the status heartbeat, rpc.discover
 *
 * Everything runs on the game thread in the one loop (core/loop.h): the
 * sockets are non-blocking watches, timeouts and deferred frees run in the
 * admin pass hook.
 *
 * Invariants:
 *  1. The notification calls below are cheap when nobody listens: they
 *     return before building anything when no client is connected.
 *  2. A notification is sent to every open connection, in the order the
 *     game made the calls; one that cannot take it (output over its cap)
 *     is closed, the others are not held back.
 */
#ifndef MC_MGMT_H
#define MC_MGMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

struct server_config;
struct list_entry; /* game/lists_file.h */
struct op_entry;   /* game/ops.h */

/* From admin_start: opens the listener when enabled (a failure is logged
 * and the protocol stays off; the game runs on). */
void mgmt_start(const struct server_config *cfg);
/* From admin_stop: "server/stopping" if not sent yet, a close to every
 * client, then everything is closed. */
void mgmt_stop(void);
/* From the admin pass hook: timeouts, the heartbeat, deferred closes and frees. */
void mgmt_pass(int64_t now_ms);

/* --- notifications (the game's calls; invariant 1) --- */

void mgmt_notify_player_joined(const char *name, const mc_uuid *uuid);
void mgmt_notify_player_left(const char *name, const mc_uuid *uuid);
/* A save round starts / is over (sent from world/store.h's counters by
 * mgmt_pass: store.c, in the shared library, calls nothing of admin/). */
void mgmt_notify_server_saving(void);
void mgmt_notify_server_saved(void);
/* An entry joined or left a list (kind: enum list_kind of game/lists_file.h). */
void mgmt_notify_list_added(int kind, const struct list_entry *e);
void mgmt_notify_list_removed(int kind, const struct list_entry *e);
void mgmt_notify_op_added(const struct op_entry *e);
void mgmt_notify_op_removed(const struct op_entry *e);
/* A game rule changed (/gamerule or gamerules/update): its vanilla key
 * ("doDaylightCycle"), type and value as text ("true", "3"). */
void mgmt_notify_gamerule_updated(const char *key, bool is_bool, const char *value);

/* --- game rules ---
 * The game rules mcserv acts on live in game/ (the /gamerule command); the
 * gamerules methods reach them through this table, which the game registers
 * once at startup. Until it does, minecraft:gamerules lists none and
 * gamerules/update answers that mcserv does not act on the rule. */
struct mgmt_gamerules {
    size_t (*count)(void);
    /* Rule i: vanilla's key, whether it is a boolean (else an integer) and
     * its value as text into value[cap]. false past the end. */
    bool (*get)(size_t i, const char **key, bool *is_bool, char *value, size_t cap);
    /* Sets the rule from text as /gamerule parses it: 0, or -1 with a
     * message in err (unknown rule, bad value). The game calls
     * mgmt_notify_gamerule_updated for the change, as for /gamerule. */
    int (*set)(const char *key, const char *value, char *err, size_t errlen);
};
void mgmt_gamerules_provide(const struct mgmt_gamerules *g);
/* The game's rules (admin/mgmt_gamerules.c). */
extern const struct mgmt_gamerules mgmt_gamerules_game;

#endif
