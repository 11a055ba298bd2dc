/*
 * mgmt_rpc.h — the JSON-RPC 2.0 layer of the management protocol: one
 * WebSocket text message in, the response text out, methods looked up in a
 * table. Pure (jansson only: no I/O, no server state), so the unit tests and
 * the fuzzer (tests/fuzz/fuzz_mgmt.c) drive it directly; admin/mgmt_ws.c is
 * the transport, admin/mgmt_methods.c and admin/mgmt_server.c the methods.
 *
 * What a message may be, and what it gets (vanilla 1.21.9's Connection and
 * IncomingRpcMethod, with the departures marked *):
 *
 *   not JSON                 -> -32700 Parse error, id null, data = where
 *   an object:
 *     "method" a string      -> a request; "id" absent = a notification (no
 *                               response); "id" not a string, number or
 *                               null -> -32600 (id null)
 *     "method" not a string  -> -32600 Invalid Request        (* vanilla: -32603)
 *     "result"/"error" and no "method" -> a response to us: ignored
 *     anything else          -> -32600 Invalid Request
 *   an array (a batch)       -> the responses in an array, in request order;
 *                               nothing when all were notifications
 *                               (* vanilla: []); [] -> one -32600      (* vanilla: [])
 *                               a non-object element -> -32600 for it (* vanilla: closes)
 *                               more than MGMT_RPC_BATCH_MAX -> one -32600
 *   any other JSON           -> -32600 Invalid Request
 *   "jsonrpc" is not checked (vanilla does not either).
 *
 * The method name: "ns:path" or "path" (namespace minecraft, as vanilla's
 * Identifier parses it; "rpc.discover" is minecraft:rpc.discover). Characters
 * other than [a-z0-9_.-] (and '/' in the path) -> -32600 "Failed to parse
 * method value: ..."; an unknown one -> -32601 "Method not found: ...".
 *
 * Params, as vanilla: a method without a parameter takes none, null or [];
 * anything else is -32602 "Expected no params, or an empty array". A method
 * with one takes {"<name>": value} or [value]; otherwise -32602 "Expected
 * params as array or named", "Params passed by-name, but expected param
 * [<name>] does not exist" or "Expected exactly one element in the params
 * array". The method checks the value's shape and answers -32602 with what
 * is wrong.
 *
 * Errors are {"code", "message", "data"?}: data is the detail (vanilla's
 * texts), left out when empty.
 *
 * Deferred results: a method may answer later (server/save waits for the
 * save round). The reply then waits in a struct mgmt_reply until every
 * slot is filled; its owner (the connection) may go away meanwhile
 * (mgmt_reply_set_owner(r, NULL)): the reply is freed by whoever fills the
 * last slot.
 *
 * Invariants:
 *  1. Every request with an id gets exactly one response; a notification
 *     none, even when it fails.
 *  2. Bounded: a batch holds at most MGMT_RPC_BATCH_MAX requests; the
 *     caller bounds the message length (admin/mgmt_ws.h).
 *  3. A reply's slots are filled at most once each; `waiting` counts the
 *     empty ones, and the reply is ready at 0.
 */
#ifndef MC_MGMT_RPC_H
#define MC_MGMT_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define MGMT_RPC_BATCH_MAX 128

enum mgmt_rpc_code {
    MGMT_PARSE_ERROR = -32700,
    MGMT_INVALID_REQUEST = -32600,
    MGMT_METHOD_NOT_FOUND = -32601,
    MGMT_INVALID_PARAMS = -32602,
    MGMT_INTERNAL_ERROR = -32603,
    MGMT_SERVER_BUSY = -32000, /* mcserv: too many requests waiting on this connection */
};

/* A method's return: its result is ready, or it will fill the slot later. */
#define MGMT_OK       0
#define MGMT_DEFERRED 1

struct mgmt_reply;

/* The request a method is running. */
typedef struct mgmt_call {
    unsigned client_id;       /* "RPC Connection #<id>" in the log */
    void *client;             /* the transport's connection (opaque here) */
    unsigned pending_allowed; /* deferred replies this call may still start */
    /* set by the layer for the method: */
    struct mgmt_reply *reply;
    size_t slot;
    const char *method; /* the method's table name */
    char err[512];      /* an error's data (mgmt_call_error) */
} mgmt_call;

/*
 * A method: param is the parameter (NULL for a method without one); on
 * MGMT_OK *result is a new reference the layer takes. On MGMT_DEFERRED the
 * method keeps (call->reply, call->slot) and fills it later. Otherwise the
 * return is a JSON-RPC error code and call->err the data.
 */
typedef int (*mgmt_method_fn)(mgmt_call *call, json_t *param, json_t **result);

struct mgmt_method {
    const char *name; /* "minecraft:allowlist/add" */
    const char *description;
    const char *param_name;   /* NULL: no parameter */
    const char *param_schema; /* JSON schema text (rpc.discover) */
    const char *result_name;
    const char *result_schema;
    mgmt_method_fn fn;
    bool undiscoverable; /* rpc.discover itself */
};

struct mgmt_table {
    const struct mgmt_method *methods;
    size_t n;
};

/*
 * Handles one message (text[0..len), not NUL-terminated): NULL when nothing
 * is to be sent, else a reply. call carries the client's fields; the layer
 * fills the rest per request. A reply that is not ready waits for its
 * deferred slots.
 */
struct mgmt_reply *mgmt_rpc_handle(const struct mgmt_table *t, mgmt_call *call, const char *text,
                                   size_t len);
bool mgmt_reply_ready(const struct mgmt_reply *r);
/* The text of a ready reply (malloc'd, NUL-terminated; *len bytes), or
 * NULL when nothing is to be sent or out of memory. */
char *mgmt_reply_text(const struct mgmt_reply *r, size_t *len);
void mgmt_reply_free(struct mgmt_reply *r);
/* Who waits for the reply (the transport's connection), NULL once gone. */
void mgmt_reply_set_owner(struct mgmt_reply *r, void *owner);
void *mgmt_reply_owner(const struct mgmt_reply *r);
/*
 * Fills a deferred slot with a result (reference stolen) or an error. The
 * reply becomes ready when its last slot is filled: `ready` is then called
 * with it and its owner (NULL: the owner is gone; the reply is freed after
 * `ready` returns either way).
 */
void mgmt_reply_fill(struct mgmt_reply *r, size_t slot, json_t *result);
void mgmt_reply_fail(struct mgmt_reply *r, size_t slot, int code, const char *data);
/* Set once by the transport: called when a deferred reply is ready. */
void mgmt_rpc_set_ready_callback(void (*ready)(struct mgmt_reply *r, void *owner));

/* For methods: an error with data (printf-style format of text, never user text). */
int mgmt_call_error(mgmt_call *call, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* vanilla's message for a code ("Parse error", "Invalid Request", ...). */
const char *mgmt_rpc_message(int code);
/* A JSON-RPC notification ({"jsonrpc":"2.0","method":...,"params":[param]};
 * no params when param is NULL) as text, malloc'd; param's reference is
 * stolen. */
char *mgmt_rpc_notification(const char *method, json_t *param, size_t *len);

#endif
