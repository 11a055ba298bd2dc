/*
 * fuzz_mgmt.c — libFuzzer target for the management protocol's parsers:
 * the JSON-RPC request layer (admin/mgmt_rpc.c: messages, batches, params,
 * deferred replies) and the WebSocket upgrade check (admin/mgmt_handshake.c).
 * Both are pure; their sources are compiled into this target directly (the
 * h2o way), so run.sh needs no new library object.
 *
 * Input: byte 0 picks the parser (even: JSON-RPC, odd: an upgrade head),
 * the rest is the message.
 *
 * Invariants checked: every reply is valid JSON whose responses each carry
 * "jsonrpc":"2.0" and exactly one of result/error, an error with an integer
 * code and a string message; a deferred reply completes exactly once; the
 * upgrade check answers 101 only with an accept key, and its response fits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/admin/mgmt_handshake.c"
#include "../../src/admin/mgmt_rpc.c"

static struct mgmt_reply *later_reply;
static size_t later_slot;
static int ready_count;

static int f_echo(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call;
    *result = json_incref(param);
    return MGMT_OK;
}

static int f_none(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call, (void)param;
    *result = json_null();
    return MGMT_OK;
}

static int f_fail(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param, (void)result;
    return mgmt_call_error(call, MGMT_INVALID_PARAMS, "no");
}

static int f_later(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param, (void)result;
    if (!call->pending_allowed || later_reply)
        return mgmt_call_error(call, MGMT_SERVER_BUSY, "busy");
    later_reply = call->reply;
    later_slot = call->slot;
    return MGMT_DEFERRED;
}

static const struct mgmt_method methods[] = {
    {"minecraft:echo", "", "value", "{}", "r", "{}", f_echo, false},
    {"minecraft:none", "", NULL, NULL, "r", "{}", f_none, false},
    {"minecraft:fail", "", NULL, NULL, "r", "{}", f_fail, false},
    {"minecraft:later", "", NULL, NULL, "r", "{}", f_later, false},
};
static const struct mgmt_table table = {methods, 4};

static void check_response(json_t *r)
{
    if (!json_is_object(r)) abort();
    if (strcmp(json_string_value(json_object_get(r, "jsonrpc")) ?: "", "2.0") != 0) abort();
    json_t *res = json_object_get(r, "result"), *err = json_object_get(r, "error");
    if (!!res == !!err) abort();
    if (err && (!json_is_integer(json_object_get(err, "code")) ||
                !json_is_string(json_object_get(err, "message"))))
        abort();
}

static void check_text(const char *text)
{
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
    if (!j) abort();
    if (json_is_array(j)) {
        if (json_array_size(j) == 0) abort();
        for (size_t i = 0; i < json_array_size(j); i++) check_response(json_array_get(j, i));
    } else {
        check_response(j);
    }
    json_decref(j);
}

static void on_ready(struct mgmt_reply *r, void *owner)
{
    (void)owner;
    ready_count++;
    size_t len;
    char *t = mgmt_reply_text(r, &len);
    if (t) check_text(t);
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *p = (const char *)data + 1;
    size_t len = size - 1;
    if (data[0] & 1) {
        struct mgmt_upgrade u;
        char *copy = malloc(len ? len : 1); /* exact size: ASan sees an overread */
        memcpy(copy, p, len);
        mgmt_upgrade_check(copy, len, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn", "http://a,b", &u);
        if (u.status == 101 && strlen(u.accept) != 28) abort();
        char out[1024];
        if (u.status != 101 && !u.reason) abort();
        if (!mgmt_upgrade_response(&u, out, sizeof out)) abort();
        free(copy);
        return 0;
    }
    mgmt_rpc_set_ready_callback(on_ready);
    mgmt_call call;
    memset(&call, 0, sizeof call);
    call.pending_allowed = 1;
    later_reply = NULL;
    ready_count = 0;
    struct mgmt_reply *r = mgmt_rpc_handle(&table, &call, p, len);
    if (!r) return 0;
    if (mgmt_reply_ready(r)) {
        size_t n;
        char *t = mgmt_reply_text(r, &n);
        if (t) check_text(t);
        free(t);
        mgmt_reply_free(r);
        return 0;
    }
    if (!later_reply) abort(); /* waiting, but nothing deferred */
    mgmt_reply_set_owner(r, (data[0] & 2) ? &call : NULL);
    if (data[0] & 4)
        mgmt_reply_fill(later_reply, later_slot, json_true());
    else
        mgmt_reply_fail(later_reply, later_slot, MGMT_INTERNAL_ERROR, "late");
    if (ready_count != 1) abort();
    return 0;
}
