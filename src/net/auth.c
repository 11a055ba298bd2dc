/*
 * auth.c — see auth.h. One thread drives a libcurl multi handle: requests
 * come in through a mutex-protected list (and curl_multi_wakeup), results go
 * out through a hand-off queue (core/workers.h) whose eventfd the game loop
 * watches.
 *
 * Request life:
 *   auth_submit ─▶ todo ─▶ in flight (easy handle on the multi) ─▶ done ─▶
 *   auth_drain: done() unless cancelled, then freed
 *   A request cancelled while queued or in flight is cut short and still
 *   travels through `done`, so the only place that frees is auth_drain (or
 *   auth_stop).
 */
#include "net/auth.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/workers.h"

#define AUTH_URL_MAX 1024

struct auth_req {
    auth_req *next;     /* todo list */
    auth_req *next_run; /* in-flight list (auth thread only) */
    char url[AUTH_URL_MAX];
    auth_done_fn done;
    void *owner;
    atomic_bool cancelled;
    /* written by the auth thread before the request reaches `done` */
    CURL *easy;
    buf_t body;
    enum auth_status status;
    mc_profile profile;
    char detail[192];
    handoff_node done_link; /* the done queue (auth thread to game thread) */
};

static struct {
    pthread_mutex_t lock;
    pthread_t thread;
    bool started;
    bool stopping; /* under lock */
    auth_req *todo_head, *todo_tail;
    handoff done; /* finished requests; its eventfd wakes the loop */
    int live;     /* game thread: submitted and not yet freed */
    CURLM *multi;
    bool loopback; /* base URL on 127.0.0.0/8 or ::1 */
    char base[512];
} auth = {.lock = PTHREAD_MUTEX_INITIALIZER, .done = HANDOFF_INIT};

static void push(auth_req **head, auth_req **tail, auth_req *r)
{
    r->next = NULL;
    if (*tail)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
}

static auth_req *req_of(handoff_node *n)
{
    return (auth_req *)((char *)n - offsetof(auth_req, done_link));
}

static void req_free(auth_req *r)
{
    buf_free(&r->body);
    profile_clear(&r->profile);
    free(r);
}

/* ---------------------------------------------------------- auth thread */

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    auth_req *r = ud;
    size_t bytes = size * n;
    buf_append(&r->body, p, bytes);
    return r->body.failed ? 0 : bytes; /* 0 aborts the transfer */
}

static void finish(auth_req *r)
{
    handoff_push(&auth.done, &r->done_link);
}

static bool blank(const buf_t *b)
{
    for (size_t i = 0; i < b->len; i++)
        if (b->data[i] != ' ' && b->data[i] != '\n' && b->data[i] != '\r' && b->data[i] != '\t')
            return false;
    return true;
}

/* Turns a finished transfer into a result. */
static void judge(auth_req *r, CURLcode cc)
{
    long code = 0;
    curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &code);
    if (cc != CURLE_OK) {
        r->status = AUTH_UNAVAILABLE;
        snprintf(r->detail, sizeof r->detail, "%s",
                 r->body.failed ? "answer larger than 64 KiB" : curl_easy_strerror(cc));
    } else if (code == 204 || (code == 200 && blank(&r->body))) {
        r->status = AUTH_DENIED;
        snprintf(r->detail, sizeof r->detail, "the session server has no join for this player");
    } else if (code == 200) {
        char why[160];
        if (profile_parse_session_json((const char *)r->body.data, r->body.len, &r->profile, why,
                                       sizeof why) == 0) {
            r->status = AUTH_OK;
        } else {
            r->status = AUTH_UNAVAILABLE;
            snprintf(r->detail, sizeof r->detail, "%s", why);
        }
    } else {
        r->status = AUTH_UNAVAILABLE;
        snprintf(r->detail, sizeof r->detail, "session server answered HTTP %ld", code);
    }
}

static int start_transfer(auth_req *r)
{
    r->easy = curl_easy_init();
    if (!r->easy) return -1;
    CURL *e = r->easy;
    curl_easy_setopt(e, CURLOPT_URL, r->url);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "https,http");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)AUTH_TIMEOUT_MS);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)AUTH_CONNECT_TIMEOUT_MS);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "mcserv");
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(e, CURLOPT_PRIVATE, r);
    if (auth.loopback) curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
    if (curl_multi_add_handle(auth.multi, e) != CURLM_OK) {
        curl_easy_cleanup(e);
        r->easy = NULL;
        return -1;
    }
    return 0;
}

static void end_transfer(auth_req *r)
{
    curl_multi_remove_handle(auth.multi, r->easy);
    curl_easy_cleanup(r->easy);
    r->easy = NULL;
}

static void *auth_main(void *arg)
{
    (void)arg;
    log_set_thread_name("User Authenticator #1"); /* vanilla's name */
    auth_req *running = NULL;
    int active = 0;
    for (;;) {
        /* Take new work, as much as the parallel cap allows. */
        auth_req *fresh = NULL;
        pthread_mutex_lock(&auth.lock);
        bool stopping = auth.stopping;
        while (!stopping && auth.todo_head && active < AUTH_PARALLEL_MAX) {
            auth_req *r = auth.todo_head;
            auth.todo_head = r->next;
            if (!auth.todo_head) auth.todo_tail = NULL;
            r->next = fresh;
            fresh = r;
            active++;
        }
        pthread_mutex_unlock(&auth.lock);
        if (stopping) break;
        while (fresh) {
            auth_req *r = fresh;
            fresh = r->next;
            if (atomic_load(&r->cancelled) || start_transfer(r) < 0) {
                r->status = AUTH_UNAVAILABLE;
                snprintf(r->detail, sizeof r->detail, "could not start the request");
                active--;
                finish(r);
                continue;
            }
            r->next_run = running;
            running = r;
        }
        /* Cut short transfers whose connection went away. */
        for (auth_req **pp = &running; *pp;) {
            auth_req *r = *pp;
            if (atomic_load(&r->cancelled)) {
                *pp = r->next_run;
                end_transfer(r);
                active--;
                finish(r);
            } else {
                pp = &r->next_run;
            }
        }
        int still = 0;
        curl_multi_perform(auth.multi, &still);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(auth.multi, &left))) {
            if (m->msg != CURLMSG_DONE) continue;
            auth_req *r = NULL;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&r);
            CURLcode cc = m->data.result;
            for (auth_req **pp = &running; *pp; pp = &(*pp)->next_run)
                if (*pp == r) {
                    *pp = r->next_run;
                    break;
                }
            judge(r, cc);
            end_transfer(r);
            active--;
            finish(r);
        }
        curl_multi_poll(auth.multi, NULL, 0, 1000, NULL);
    }
    /* Stopping: abandon whatever is in flight; auth_stop frees it all. */
    while (running) {
        auth_req *r = running;
        running = r->next_run;
        end_transfer(r);
        finish(r);
    }
    return NULL;
}

/* ---------------------------------------------------------- game thread */

static bool base_is_loopback(const char *url)
{
    const char *h = strstr(url, "://");
    if (!h) return false;
    h += 3;
    return strncmp(h, "127.", 4) == 0 || strncmp(h, "[::1]", 5) == 0 ||
           strncmp(h, "localhost", 9) == 0;
}

int auth_start(const char *base_url)
{
    if (auth.started) return auth.done.efd;
    if (strlen(base_url) >= sizeof auth.base) return -1;
    snprintf(auth.base, sizeof auth.base, "%s", base_url);
    auth.loopback = base_is_loopback(base_url);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        log_error("libcurl failed to initialise");
        return -1;
    }
    int efd = handoff_open(&auth.done);
    auth.multi = curl_multi_init();
    if (efd < 0 || !auth.multi) goto fail;
    curl_multi_setopt(auth.multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)AUTH_PARALLEL_MAX);
    auth.stopping = false;
    if (pthread_create(&auth.thread, NULL, auth_main, NULL) != 0) goto fail;
    auth.started = true;
    return efd;
fail:
    log_error("cannot start the session-server thread");
    if (auth.multi) curl_multi_cleanup(auth.multi);
    auth.multi = NULL;
    handoff_close(&auth.done);
    curl_global_cleanup();
    return -1;
}

/* Appends s to out, percent-encoding all but RFC 3986 unreserved bytes. */
static void url_escape(buf_t *out, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~') {
            buf_append(out, &c, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            buf_append(out, e, 3);
        }
    }
}

auth_req *auth_submit(const char *username, const char *server_hash, const char *ip,
                      auth_done_fn done, void *owner)
{
    if (!auth.started || auth.live >= AUTH_QUEUE_MAX) return NULL;
    auth_req *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    buf_t u;
    buf_init(&u, AUTH_URL_MAX - 1);
    buf_append(&u, auth.base, strlen(auth.base));
    buf_lit(&u, "/session/minecraft/hasJoined?username=");
    url_escape(&u, username);
    buf_lit(&u, "&serverId=");
    url_escape(&u, server_hash);
    if (ip) {
        buf_lit(&u, "&ip=");
        url_escape(&u, ip);
    }
    if (u.failed) {
        buf_free(&u);
        free(r);
        return NULL;
    }
    memcpy(r->url, u.data, u.len);
    r->url[u.len] = 0;
    buf_free(&u);
    buf_init(&r->body, AUTH_RESPONSE_MAX);
    r->done = done;
    r->owner = owner;
    atomic_init(&r->cancelled, false);
    auth.live++;
    pthread_mutex_lock(&auth.lock);
    push(&auth.todo_head, &auth.todo_tail, r);
    pthread_mutex_unlock(&auth.lock);
    curl_multi_wakeup(auth.multi);
    return r;
}

void auth_cancel(auth_req *r)
{
    if (!r) return;
    atomic_store(&r->cancelled, true);
    curl_multi_wakeup(auth.multi);
}

void auth_drain(void)
{
    for (handoff_node *n = handoff_take(&auth.done), *next; n; n = next) {
        next = n->next;
        auth_req *r = req_of(n);
        if (!atomic_load(&r->cancelled))
            r->done(r->owner, r->status, &r->profile, r->detail[0] ? r->detail : "");
        auth.live--;
        req_free(r);
    }
}

void auth_stop(void)
{
    if (!auth.started) return;
    pthread_mutex_lock(&auth.lock);
    auth.stopping = true;
    pthread_mutex_unlock(&auth.lock);
    curl_multi_wakeup(auth.multi);
    pthread_join(auth.thread, NULL);
    /* Nothing runs any more: free what is left, without callbacks. */
    for (auth_req *r = auth.todo_head, *next; r; r = next) {
        next = r->next;
        req_free(r);
    }
    auth.todo_head = auth.todo_tail = NULL;
    for (handoff_node *n = handoff_take(&auth.done), *next; n; n = next) {
        next = n->next;
        req_free(req_of(n));
    }
    auth.live = 0;
    curl_multi_cleanup(auth.multi);
    auth.multi = NULL;
    handoff_close(&auth.done);
    curl_global_cleanup();
    auth.started = false;
}
