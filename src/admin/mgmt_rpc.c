/*
 * mgmt_rpc.c — see mgmt_rpc.h: parsing a message, dispatching each request
 * to its method, and assembling the response (at once, or when the last
 * deferred slot is filled).
 */
#include "admin/mgmt_rpc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One request of a message: its id (NULL: a notification, no response)
 * and its response once known. */
struct reply_slot {
    json_t *id;
    json_t *response;
};

struct mgmt_reply {
    bool batch;
    size_t n, waiting;
    void *owner;
    struct reply_slot slot[];
};

static void (*ready_cb)(struct mgmt_reply *r, void *owner);

void mgmt_rpc_set_ready_callback(void (*ready)(struct mgmt_reply *r, void *owner))
{
    ready_cb = ready;
}

const char *mgmt_rpc_message(int code)
{
    switch (code) {
    case MGMT_PARSE_ERROR: return "Parse error";
    case MGMT_INVALID_REQUEST: return "Invalid Request";
    case MGMT_METHOD_NOT_FOUND: return "Method not found";
    case MGMT_INVALID_PARAMS: return "Invalid params";
    case MGMT_SERVER_BUSY: return "Server busy";
    default: return "Internal error";
    }
}

int mgmt_call_error(mgmt_call *call, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(call->err, sizeof call->err, fmt, ap);
    va_end(ap);
    return code;
}

/* {"jsonrpc":"2.0","id":id,"error":{"code","message","data"?}}; id borrowed. */
static json_t *error_response(json_t *id, int code, const char *data)
{
    json_t *e = json_object();
    json_object_set_new(e, "code", json_integer(code));
    json_object_set_new(e, "message", json_string(mgmt_rpc_message(code)));
    if (data && data[0]) {
        json_t *d = json_string(data);
        /* data quotes the client's text: not UTF-8 means no data, not no error */
        if (d) json_object_set_new(e, "data", d);
    }
    json_t *r = json_object();
    json_object_set_new(r, "jsonrpc", json_string("2.0"));
    json_object_set(r, "id", id ? id : json_null());
    json_object_set_new(r, "error", e);
    return r;
}

/* {"jsonrpc":"2.0","id":id,"result":result}; id borrowed, result stolen. */
static json_t *result_response(json_t *id, json_t *result)
{
    json_t *r = json_object();
    json_object_set_new(r, "jsonrpc", json_string("2.0"));
    json_object_set(r, "id", id);
    json_object_set_new(r, "result", result ? result : json_null());
    return r;
}

static struct mgmt_reply *reply_new(size_t n, bool batch)
{
    struct mgmt_reply *r = calloc(1, sizeof *r + (n ? n : 1) * sizeof r->slot[0]);
    if (!r) return NULL;
    r->batch = batch;
    r->n = n;
    return r;
}

void mgmt_reply_free(struct mgmt_reply *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) {
        json_decref(r->slot[i].id);
        json_decref(r->slot[i].response);
    }
    free(r);
}

bool mgmt_reply_ready(const struct mgmt_reply *r)
{
    return r->waiting == 0;
}

void mgmt_reply_set_owner(struct mgmt_reply *r, void *owner)
{
    r->owner = owner;
}

void *mgmt_reply_owner(const struct mgmt_reply *r)
{
    return r->owner;
}

char *mgmt_reply_text(const struct mgmt_reply *r, size_t *len)
{
    json_t *out = NULL;
    if (r->batch) {
        out = json_array();
        for (size_t i = 0; i < r->n; i++)
            if (r->slot[i].response) json_array_append(out, r->slot[i].response);
        if (json_array_size(out) == 0) {
            json_decref(out);
            return NULL;
        }
    } else if (r->n == 1 && r->slot[0].response) {
        out = json_incref(r->slot[0].response);
    }
    if (!out) return NULL;
    char *text = json_dumps(out, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(out);
    if (text) *len = strlen(text);
    return text;
}

/* Slot i's outcome is known: the response (stolen; NULL for a notification). */
static void slot_done(struct mgmt_reply *r, size_t i, json_t *response)
{
    if (!r->slot[i].id) {
        json_decref(response); /* a notification is never answered (invariant 1) */
        response = NULL;
    }
    r->slot[i].response = response;
}

static void deferred_done(struct mgmt_reply *r, size_t slot, json_t *response)
{
    if (slot >= r->n || r->slot[slot].response || r->waiting == 0) { /* invariant 3 */
        json_decref(response);
        return;
    }
    slot_done(r, slot, response);
    if (--r->waiting) return;
    if (ready_cb) ready_cb(r, r->owner);
    mgmt_reply_free(r);
}

void mgmt_reply_fill(struct mgmt_reply *r, size_t slot, json_t *result)
{
    json_t *resp = slot < r->n && r->slot[slot].id ? result_response(r->slot[slot].id, result)
                                                   : (json_decref(result), NULL);
    deferred_done(r, slot, resp);
}

void mgmt_reply_fail(struct mgmt_reply *r, size_t slot, int code, const char *data)
{
    json_t *resp =
        slot < r->n && r->slot[slot].id ? error_response(r->slot[slot].id, code, data) : NULL;
    deferred_done(r, slot, resp);
}

/* ------------------------------------------------------------ dispatch */

static bool id_char(char c, bool path)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
           (path && c == '/');
}

/* The method's full name ("minecraft:" added when there is no namespace)
 * into out; false if the text is not an identifier. */
static bool method_name(const char *m, char *out, size_t cap)
{
    const char *colon = strchr(m, ':');
    const char *path = colon ? colon + 1 : m;
    if (colon && colon == m) return false;
    for (const char *p = m; colon && p < colon; p++)
        if (!id_char(*p, false)) return false;
    for (const char *p = path; *p; p++)
        if (!id_char(*p, true)) return false;
    int n = colon ? snprintf(out, cap, "%s", m) : snprintf(out, cap, "minecraft:%s", m);
    return n > 0 && (size_t)n < cap;
}

static const struct mgmt_method *find_method(const struct mgmt_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->methods[i].name, name) == 0) return &t->methods[i];
    return NULL;
}

/* Runs one request's method: MGMT_OK with *result, MGMT_DEFERRED, or an
 * error code with call->err. */
static int run_method(const struct mgmt_method *m, mgmt_call *call, json_t *params, json_t **result)
{
    json_t *param = NULL;
    if (!m->param_name) {
        if (params && !json_is_null(params) &&
            !(json_is_array(params) && json_array_size(params) == 0))
            return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                                   "Expected no params, or an empty array");
    } else if (json_is_object(params)) {
        param = json_object_get(params, m->param_name);
        if (!param)
            return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                                   "Params passed by-name, but expected param [%s] does not exist",
                                   m->param_name);
    } else if (json_is_array(params)) {
        if (json_array_size(params) != 1)
            return mgmt_call_error(call, MGMT_INVALID_PARAMS,
                                   "Expected exactly one element in the params array");
        param = json_array_get(params, 0);
    } else {
        return mgmt_call_error(call, MGMT_INVALID_PARAMS, "Expected params as array or named");
    }
    call->method = m->name;
    call->err[0] = 0;
    *result = NULL;
    return m->fn(call, param, result);
}

/* One element of a message into slot i of r. */
static void handle_object(const struct mgmt_table *t, mgmt_call *call, struct mgmt_reply *r,
                          size_t i, json_t *o)
{
    if (!json_is_object(o)) {
        r->slot[i].id = json_null();
        slot_done(r, i, error_response(NULL, MGMT_INVALID_REQUEST, NULL));
        return;
    }
    json_t *id = json_object_get(o, "id");
    json_t *method = json_object_get(o, "method");
    bool has_result = json_object_get(o, "result") != NULL;
    bool has_error = json_is_object(json_object_get(o, "error"));
    if (!method && (has_result || has_error)) { /* a response to us: we send no requests */
        r->slot[i].id = NULL;
        return;
    }
    if (!json_is_string(method) || has_result || has_error) {
        r->slot[i].id = json_null();
        slot_done(r, i, error_response(id, MGMT_INVALID_REQUEST, NULL));
        return;
    }
    if (id && !json_is_string(id) && !json_is_number(id) && !json_is_null(id)) {
        r->slot[i].id = json_null();
        slot_done(r, i,
                  error_response(NULL, MGMT_INVALID_REQUEST,
                                 "Invalid request id - only String, Number and NULL supported"));
        return;
    }
    r->slot[i].id = id ? json_incref(id) : NULL;
    const char *mtext = json_string_value(method);
    char name[256];
    if (!method_name(mtext, name, sizeof name)) {
        snprintf(call->err, sizeof call->err, "Failed to parse method value: %.200s", mtext);
        slot_done(r, i, error_response(id, MGMT_INVALID_REQUEST, call->err));
        return;
    }
    const struct mgmt_method *m = find_method(t, name);
    if (!m) {
        snprintf(call->err, sizeof call->err, "Method not found: %.200s", mtext);
        slot_done(r, i, error_response(id, MGMT_METHOD_NOT_FOUND, call->err));
        return;
    }
    call->reply = r;
    call->slot = i;
    json_t *result = NULL;
    int rc = run_method(m, call, json_object_get(o, "params"), &result);
    if (rc == MGMT_DEFERRED) {
        r->waiting++;
        if (call->pending_allowed) call->pending_allowed--;
        return;
    }
    if (rc == MGMT_OK)
        slot_done(r, i, result_response(id ? id : json_null(), result));
    else
        slot_done(r, i, error_response(id, rc, call->err));
}

/* A reply of one error response with id null. */
static struct mgmt_reply *single_error(int code, const char *data)
{
    struct mgmt_reply *r = reply_new(1, false);
    if (!r) return NULL;
    r->slot[0].id = json_null();
    r->slot[0].response = error_response(NULL, code, data);
    return r;
}

struct mgmt_reply *mgmt_rpc_handle(const struct mgmt_table *t, mgmt_call *call, const char *text,
                                   size_t len)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
    if (!root) {
        char data[300];
        snprintf(data, sizeof data, "%s at line %d, column %d", jerr.text, jerr.line, jerr.column);
        return single_error(MGMT_PARSE_ERROR, data);
    }
    struct mgmt_reply *r = NULL;
    if (json_is_array(root)) {
        size_t n = json_array_size(root);
        if (n == 0) {
            r = single_error(MGMT_INVALID_REQUEST, "Empty batch");
        } else if (n > MGMT_RPC_BATCH_MAX) {
            char data[96];
            snprintf(data, sizeof data, "A batch of %zu requests: at most %d are taken", n,
                     MGMT_RPC_BATCH_MAX);
            r = single_error(MGMT_INVALID_REQUEST, data);
        } else if ((r = reply_new(n, true))) {
            for (size_t i = 0; i < n; i++) handle_object(t, call, r, i, json_array_get(root, i));
        }
    } else if (json_is_object(root)) {
        if ((r = reply_new(1, false))) handle_object(t, call, r, 0, root);
    } else {
        r = single_error(MGMT_INVALID_REQUEST, NULL);
    }
    json_decref(root);
    if (r && r->waiting == 0) { /* nothing to send: all notifications */
        size_t k = 0;
        for (size_t i = 0; i < r->n; i++) k += r->slot[i].response != NULL;
        if (!k) {
            mgmt_reply_free(r);
            r = NULL;
        }
    }
    return r;
}

char *mgmt_rpc_notification(const char *method, json_t *param, size_t *len)
{
    json_t *o = json_object();
    json_object_set_new(o, "jsonrpc", json_string("2.0"));
    json_object_set_new(o, "method", json_string(method));
    if (param) {
        json_t *a = json_array();
        json_array_append_new(a, param);
        json_object_set_new(o, "params", a);
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(o);
    if (text) *len = strlen(text);
    return text;
}
