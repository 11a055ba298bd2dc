/*
 * mgmt_int.h — what the management protocol's files share (admin/mgmt.h
 * lists them), in the manner of SQLite's fooInt.h: the transport's limits
 * and broadcast, the method tables, the log line, JSON helpers for the
 * schemas' objects. Nothing outside admin/mgmt_*.c includes it.
 */
#ifndef MC_MGMT_INT_H
#define MC_MGMT_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "admin/mgmt.h"
#include "admin/mgmt_rpc.h"
#include "proto/wire.h"

/* Transport limits (admin/mgmt_ws.c), each with why. */
#define MGMT_MAX_CLIENTS   256        /* open connections; more get 503 (a panel needs one) */
#define MGMT_MSG_MAX       (1u << 20) /* a request message: 1 MiB (vanilla's netty: 64 KiB frames) */
#define MGMT_OUT_MAX       (16u << 20)  /* queued output: a full ban list is ~10 MiB */
#define MGMT_OUT_PAUSE     (4u << 20)   /* stop reading requests above this much output */
#define MGMT_READ_BUDGET   (256u << 10) /* bytes read per connection per event */
#define MGMT_PENDING_MAX   8            /* deferred replies (server/save) per connection */
#define MGMT_HEAD_MS       10000        /* the upgrade request (and TLS handshake) within 10 s */
#define MGMT_EVICT_MS      1000         /* at the limit, a socket silent this long gives way */
#define MGMT_PING_MS       20000        /* ping after 20 s without a frame from the client */
#define MGMT_IDLE_MS       60000        /* close after 60 s without one (pings unanswered) */
#define MGMT_CLOSE_WAIT_MS 2000         /* after our close frame, wait this long for theirs */

/* ------------------------------------------------ transport (mgmt_ws.c) */

/* Clients past the upgrade (who get notifications). */
size_t mgmt_ws_clients(void);
/* Queues a text message to every open client (invariant 2 of mgmt.h). */
void mgmt_ws_broadcast(const char *text, size_t len);
/* The loop's clock. */
int64_t mgmt_now_ms(void);
/* "RPC Connection #<id>: <text>" at info, as vanilla's JsonRpcLogger. */
void mgmt_log(unsigned client_id, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------ method tables */

extern const struct mgmt_method mgmt_list_methods[];
extern const size_t mgmt_list_methods_n;
extern const struct mgmt_method mgmt_server_methods[];
extern const size_t mgmt_server_methods_n;
/* Every incoming method in vanilla's registry order (rpc.discover included). */
const struct mgmt_table *mgmt_table(void);
/* The rpc.discover document (mgmt_notify.c; built once, a new reference). */
json_t *mgmt_discover(void);

/* ------------------------------------------ notifications (mgmt_notify.c) */

void mgmt_notify_started(void);
void mgmt_notify_stopping(void);
/* Sends server/saving and server/saved for the store's rounds since the last call. */
void mgmt_save_poll(void);
/* The heartbeat: server/status every status-heartbeat-interval seconds. */
void mgmt_heartbeat_tick(int64_t now_ms);
void mgmt_heartbeat_reset(void);
/* minecraft:server/status's object. */
json_t *mgmt_server_state(void);
extern bool mgmt_server_started; /* set at the first loop pass */
extern const struct mgmt_gamerules *mgmt_rules;

/* ------------------------------------------- players (mgmt_lists.c) */

struct conn;
/* vanilla's getServerPlayer: the online player a {id?, name?} names (by
 * id, else by name in any case), or NULL. */
struct conn *mgmt_online(json_t *player);
/* ------------------------------------------ settings (mgmt_server.c) */

/* Writes pending server.properties changes on a worker (shutdown: inline). */
void mgmt_settings_flush(void);

/* ----------------------------------------------- JSON of the schemas */

/* Member `key` of object o, NULL when absent or null (vanilla's codecs
 * read a JSON null as an absent optional field). */
static inline json_t *mgmt_opt(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_null(v) ? NULL : v;
}

/* {"id": "<dashed uuid>", "name": name} */
json_t *mgmt_player_json(const char *name, const mc_uuid *uuid);
json_t *mgmt_list_entry_json(int kind, const struct list_entry *e);
json_t *mgmt_op_json(const struct op_entry *e);
/* ISO 8601 UTC ("2100-01-01T00:00:00Z") of unix seconds into out[32]. */
void mgmt_iso8601(int64_t epoch, char out[32]);
/* Parses ISO 8601 (Java's Instant text, an offset allowed): 0 and *epoch, or -1. */
int mgmt_parse_iso8601(const char *s, int64_t *epoch);
/* {"literal"} / {"translatable", "translatableParams"} as a chat component
 * (JSON text into j) and its English text (into plain); false if the
 * message has neither (vanilla: nothing to send). */
struct buf;
bool mgmt_message_component(json_t *msg, struct buf *j, struct buf *plain);

#endif
