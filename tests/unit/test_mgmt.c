/*
 * test_mgmt.c — the management protocol's pure parts: the JSON-RPC layer
 * (admin/mgmt_rpc.h: errors, params, batches, deferred replies), the
 * WebSocket upgrade check (admin/mgmt_handshake.h) and the secret keys of
 * core/config.h.
 */
#include <stdlib.h>
#include <string.h>

#include "admin/mgmt_handshake.h"
#include "admin/mgmt_rpc.h"
#include "core/config.h"
#include "test.h"

/* ------------------------------------------------------ a tiny table */

static struct mgmt_reply *deferred_reply;
static size_t deferred_slot;

static int m_echo(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call;
    *result = json_incref(param);
    return MGMT_OK;
}

static int m_none(mgmt_call *call, json_t *param, json_t **result)
{
    (void)call, (void)param;
    *result = json_string("none");
    return MGMT_OK;
}

static int m_fail(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param, (void)result;
    return mgmt_call_error(call, MGMT_INVALID_PARAMS, "always %d", 7);
}

static int m_later(mgmt_call *call, json_t *param, json_t **result)
{
    (void)param, (void)result;
    if (!call->pending_allowed) return mgmt_call_error(call, MGMT_SERVER_BUSY, "busy");
    deferred_reply = call->reply;
    deferred_slot = call->slot;
    return MGMT_DEFERRED;
}

static const struct mgmt_method methods[] = {
    {"minecraft:echo", "", "value", "{}", "value", "{}", m_echo, false},
    {"minecraft:none", "", NULL, NULL, "r", "{}", m_none, false},
    {"minecraft:fail", "", NULL, NULL, "r", "{}", m_fail, false},
    {"minecraft:later", "", NULL, NULL, "r", "{}", m_later, false},
};
static const struct mgmt_table table = {methods, 4};

/* The reply to text, parsed (NULL when nothing is sent). */
static json_t *rpc(const char *text)
{
    mgmt_call call;
    memset(&call, 0, sizeof call);
    call.pending_allowed = 1;
    struct mgmt_reply *r = mgmt_rpc_handle(&table, &call, text, strlen(text));
    if (!r) return NULL;
    size_t len = 0;
    char *out = mgmt_reply_ready(r) ? mgmt_reply_text(r, &len) : NULL;
    if (mgmt_reply_ready(r)) mgmt_reply_free(r);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    free(out);
    return j;
}

static long code_of(json_t *resp)
{
    return (long)json_integer_value(json_object_get(json_object_get(resp, "error"), "code"));
}

static const char *data_of(json_t *resp)
{
    return json_string_value(json_object_get(json_object_get(resp, "error"), "data"));
}

TEST(mgmt_rpc_errors_as_the_spec_and_vanilla_say)
{
    json_t *r = rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
    CHECK_EQ_INT(code_of(r), -32700);
    CHECK(json_is_null(json_object_get(r, "id")));
    json_decref(r);
    r = rpc("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"minecraft:nope\"}");
    CHECK_EQ_INT(code_of(r), -32601);
    CHECK(strcmp(data_of(r), "Method not found: minecraft:nope") == 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(r, "id")), 2);
    json_decref(r);
    r = rpc("{\"id\":3,\"method\":\"Bad Name\"}");
    CHECK_EQ_INT(code_of(r), -32600);
    CHECK(strncmp(data_of(r), "Failed to parse method value", 28) == 0);
    json_decref(r);
    r = rpc("{\"id\":4,\"method\":7}");
    CHECK_EQ_INT(code_of(r), -32600);
    json_decref(r);
    r = rpc("{\"id\":[1],\"method\":\"echo\"}");
    CHECK_EQ_INT(code_of(r), -32600);
    CHECK(json_is_null(json_object_get(r, "id")));
    json_decref(r);
    r = rpc("\"a string\"");
    CHECK_EQ_INT(code_of(r), -32600);
    json_decref(r);
    /* a method's own error: its data */
    r = rpc("{\"id\":5,\"method\":\"fail\"}");
    CHECK_EQ_INT(code_of(r), -32602);
    CHECK(strcmp(data_of(r), "always 7") == 0);
    json_decref(r);
    /* responses to us and notifications are not answered */
    CHECK(rpc("{\"id\":6,\"result\":true}") == NULL);
    CHECK(rpc("{\"method\":\"echo\",\"params\":[1]}") == NULL);
    CHECK(rpc("{\"method\":\"nope\"}") == NULL);
}

TEST(mgmt_rpc_params_by_name_or_position_as_vanilla)
{
    json_t *r = rpc("{\"id\":1,\"method\":\"minecraft:echo\",\"params\":{\"value\":[1,2]}}");
    CHECK_EQ_INT(json_array_size(json_object_get(r, "result")), 2);
    json_decref(r);
    r = rpc("{\"id\":1,\"method\":\"echo\",\"params\":[\"x\"]}"); /* no namespace: minecraft: */
    CHECK(strcmp(json_string_value(json_object_get(r, "result")), "x") == 0);
    json_decref(r);
    r = rpc("{\"id\":1,\"method\":\"echo\",\"params\":{}}");
    CHECK(strcmp(data_of(r), "Params passed by-name, but expected param [value] does not exist") ==
          0);
    json_decref(r);
    r = rpc("{\"id\":1,\"method\":\"echo\",\"params\":[1,2]}");
    CHECK(strcmp(data_of(r), "Expected exactly one element in the params array") == 0);
    json_decref(r);
    r = rpc("{\"id\":1,\"method\":\"echo\"}");
    CHECK(strcmp(data_of(r), "Expected params as array or named") == 0);
    json_decref(r);
    r = rpc("{\"id\":1,\"method\":\"none\",\"params\":[]}");
    CHECK(strcmp(json_string_value(json_object_get(r, "result")), "none") == 0);
    json_decref(r);
    r = rpc("{\"id\":1,\"method\":\"none\",\"params\":{}}");
    CHECK(strcmp(data_of(r), "Expected no params, or an empty array") == 0);
    json_decref(r);
}

TEST(mgmt_rpc_batches)
{
    json_t *r = rpc("[{\"id\":\"a\",\"method\":\"none\"},{\"method\":\"none\"},7,"
                    "{\"id\":\"b\",\"method\":\"nope\"}]");
    CHECK(json_is_array(r));
    CHECK_EQ_INT(json_array_size(r), 3);
    CHECK(strcmp(json_string_value(json_object_get(json_array_get(r, 0), "id")), "a") == 0);
    CHECK_EQ_INT(code_of(json_array_get(r, 1)), -32600);
    CHECK_EQ_INT(code_of(json_array_get(r, 2)), -32601);
    json_decref(r);
    r = rpc("[]");
    CHECK(json_is_object(r));
    CHECK_EQ_INT(code_of(r), -32600);
    json_decref(r);
    CHECK(rpc("[{\"method\":\"none\"},{\"method\":\"echo\",\"params\":[1]}]") == NULL);
    /* over MGMT_RPC_BATCH_MAX: one Invalid Request */
    char *big = malloc(64 * (MGMT_RPC_BATCH_MAX + 2));
    strcpy(big, "[");
    for (int i = 0; i <= MGMT_RPC_BATCH_MAX; i++)
        strcat(big, i ? ",{\"id\":1,\"method\":\"none\"}" : "{\"id\":1,\"method\":\"none\"}");
    strcat(big, "]");
    r = rpc(big);
    CHECK_EQ_INT(code_of(r), -32600);
    json_decref(r);
    free(big);
}

static int ready_calls;
static void *ready_owner;
static char ready_text[256];

static void on_ready(struct mgmt_reply *r, void *owner)
{
    ready_calls++;
    ready_owner = owner;
    size_t len;
    char *t = mgmt_reply_text(r, &len);
    snprintf(ready_text, sizeof ready_text, "%s", t ? t : "");
    free(t);
}

TEST(mgmt_rpc_deferred_replies_wait_for_their_slots)
{
    mgmt_rpc_set_ready_callback(on_ready);
    mgmt_call call;
    memset(&call, 0, sizeof call);
    call.pending_allowed = 1;
    const char *text = "[{\"id\":1,\"method\":\"none\"},{\"id\":2,\"method\":\"later\"},"
                       "{\"id\":3,\"method\":\"later\"}]";
    struct mgmt_reply *r = mgmt_rpc_handle(&table, &call, text, strlen(text));
    CHECK(r && !mgmt_reply_ready(r));
    CHECK_EQ_INT(call.pending_allowed, 0); /* the second "later" was refused: busy */
    int owner;
    mgmt_reply_set_owner(r, &owner);
    ready_calls = 0;
    mgmt_reply_fill(deferred_reply, deferred_slot, json_true()); /* frees r */
    CHECK_EQ_INT(ready_calls, 1);
    CHECK(ready_owner == &owner);
    json_t *j = json_loads(ready_text, 0, NULL);
    CHECK_EQ_INT(json_array_size(j), 3);
    CHECK(json_is_true(json_object_get(json_array_get(j, 1), "result")));
    CHECK_EQ_INT(code_of(json_array_get(j, 2)), -32000);
    json_decref(j);
    /* an orphan (its connection gone) is completed and freed all the same */
    call.pending_allowed = 1;
    const char *one = "{\"id\":9,\"method\":\"later\"}";
    r = mgmt_rpc_handle(&table, &call, one, strlen(one));
    mgmt_reply_set_owner(r, NULL);
    mgmt_reply_fail(deferred_reply, deferred_slot, MGMT_INTERNAL_ERROR, "gone");
    CHECK_EQ_INT(ready_calls, 2);
    CHECK(ready_owner == NULL);
    mgmt_rpc_set_ready_callback(NULL);
}

TEST(mgmt_notification_text)
{
    size_t len;
    char *t = mgmt_rpc_notification("minecraft:notification/server/saved", NULL, &len);
    CHECK(strcmp(t, "{\"jsonrpc\":\"2.0\",\"method\":\"minecraft:notification/server/saved\"}") ==
          0);
    free(t);
    t = mgmt_rpc_notification("minecraft:notification/ip_bans/removed", json_string("::1"), &len);
    CHECK(strstr(t, "\"params\":[\"::1\"]") != NULL);
    free(t);
}

/* -------------------------------------------------------- the upgrade */

#define SECRET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"

static void check_upgrade(const char *extra, const char *origins, int status, const char *reason)
{
    char head[2048];
    snprintf(head, sizeof head,
             "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: keep-alive, "
             "Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
             "dGhlIHNhbXBsZSBub25jZQ==\r\n%s\r\n",
             extra);
    struct mgmt_upgrade u;
    mgmt_upgrade_check(head, strlen(head), SECRET, origins, &u);
    CHECK_EQ_INT(u.status, status);
    if (reason) CHECK(u.reason && strcmp(u.reason, reason) == 0);
    if (status == 101) CHECK(strcmp(u.accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") == 0); /* RFC 6455 */
}

TEST(mgmt_upgrade_authentication_as_vanilla)
{
    check_upgrade("", "", 401, "Missing API key");
    check_upgrade("Authorization: Bearer " SECRET "\r\n", "", 101, NULL);
    check_upgrade("Authorization: Bearer " SECRET "x\r\n", "", 401, "Invalid API key");
    check_upgrade("Authorization: Bearer ABC\r\n", "", 401, "Invalid API key");
    check_upgrade("Authorization: Basic " SECRET "\r\n", "", 401, "Missing API key");
    check_upgrade("Sec-WebSocket-Protocol: minecraft-v1, " SECRET "\r\nOrigin: http://a\r\n",
                  "http://b, http://a", 101, NULL);
    check_upgrade("Sec-WebSocket-Protocol: minecraft-v1," SECRET "\r\nOrigin: http://c\r\n",
                  "http://b, http://a", 401, "Origin Not Allowed");
    check_upgrade("Sec-WebSocket-Protocol: minecraft-v1," SECRET "\r\n", "", 401,
                  "Origin Not Allowed");
    check_upgrade("Authorization: Bearer " SECRET "\r\nOrigin: http://evil\r\n", "http://a", 401,
                  "Origin Not Allowed");
}

TEST(mgmt_upgrade_request_checks)
{
    struct mgmt_upgrade u;
    const char *post = "POST / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " SECRET "\r\n\r\n";
    mgmt_upgrade_check(post, strlen(post), SECRET, "", &u);
    CHECK_EQ_INT(u.status, 405);
    const char *path = "GET /x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " SECRET "\r\n\r\n";
    mgmt_upgrade_check(path, strlen(path), SECRET, "", &u);
    CHECK_EQ_INT(u.status, 404);
    const char *plain = "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " SECRET "\r\n\r\n";
    mgmt_upgrade_check(plain, strlen(plain), SECRET, "", &u);
    CHECK_EQ_INT(u.status, 400);
    const char *v8 = "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " SECRET
                     "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: "
                     "8\r\n\r\n";
    mgmt_upgrade_check(v8, strlen(v8), SECRET, "", &u);
    CHECK_EQ_INT(u.status, 426);
    char out[1024];
    size_t n = mgmt_upgrade_response(&u, out, sizeof out);
    CHECK(n > 0 && strstr(out, "Sec-WebSocket-Version: 13\r\n"));
    u.status = 401;
    u.reason = "Missing API key";
    n = mgmt_upgrade_response(&u, out, sizeof out);
    CHECK(strstr(out, "\r\n\r\n{\"error\":\"Unauthorized\",\"message\":\"Missing API key\"}"));
    const char *bad = "GET / HTTP/1.1\r\n\r\n"; /* no Host: http_parse_head refuses */
    mgmt_upgrade_check(bad, strlen(bad), SECRET, "", &u);
    CHECK_EQ_INT(u.status, 400);
}

TEST(mgmt_header_lookup)
{
    const char *h = "GET / HTTP/1.1\r\nX-A:  one \r\nx-b:two\r\n\r\n";
    char v[8];
    CHECK(mgmt_header(h, strlen(h), "x-a", v, sizeof v) && strcmp(v, "one") == 0);
    CHECK(mgmt_header(h, strlen(h), "X-B", v, sizeof v) && strcmp(v, "two") == 0);
    CHECK(!mgmt_header(h, strlen(h), "x-c", v, sizeof v) && v[0] == 0);
    CHECK(mgmt_token_in("keep-alive, Upgrade", "upgrade"));
    CHECK(!mgmt_token_in("keep-alive, Upgraded", "upgrade"));
}

/* ------------------------------------------------------- the secret */

TEST(mgmt_secret_generated_and_checked)
{
    char s[41];
    CHECK_EQ_INT(config_generate_secret(s), 0);
    CHECK(config_secret_valid(s));
    char t[41];
    config_generate_secret(t);
    CHECK(strcmp(s, t) != 0);
    CHECK(!config_secret_valid("short"));
    CHECK(!config_secret_valid("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm!"));
    struct server_config c;
    char err[512];
    const char *bad = "management-server-secret=tooshort\n";
    CHECK_EQ_INT(config_parse(bad, strlen(bad), &c, err, sizeof err), -1);
    CHECK(strstr(err, "management-server-secret") && !strstr(err, "tooshort"));
    const char *good = "management-server-secret=" SECRET "\nmanagement-server-port=9\n";
    CHECK_EQ_INT(config_parse(good, strlen(good), &c, err, sizeof err), 0);
    CHECK(strcmp(c.management_server_secret, SECRET) == 0);
    CHECK_EQ_INT(c.management_server_port, 9);
    CHECK(c.management_server_tls_enabled); /* vanilla's default */
    CHECK(!c.management_server_enabled);
    CHECK(strcmp(c.management_server_host, "localhost") == 0);
}
