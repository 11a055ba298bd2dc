/*
 * auth.h — the session-server client: Mojang's hasJoined check for
 * online-mode logins, run off the game thread.
 *
 *   game thread                          auth thread (one, libcurl multi)
 *   auth_submit(name, hash, ip) ─▶ [todo] ─▶ GET <session-server>/session/
 *                                              minecraft/hasJoined?username=
 *                                              ..&serverId=..[&ip=..]
 *   auth_drain(): done(owner, result) ◀─ [done] ◀─ (eventfd wakes the loop)
 *
 * Many requests run at once (AUTH_PARALLEL_MAX transfers on one thread), so
 * a slow session server delays logins but never the game, and never the
 * chunk workers.
 *
 * Results: 200 with a profile -> AUTH_OK (profile filled); 204 (or an empty
 * 200) -> AUTH_DENIED ("the client did not join": wrong session, wrong
 * server, or an IP mismatch with prevent-proxy-connections); any transport
 * error, timeout, other status or unreadable answer -> AUTH_UNAVAILABLE.
 *
 * Invariants:
 *  1. Requests are owned by this module. After auth_cancel(r) the game
 *     thread never hears of r again (the owner may be freed at once).
 *  2. done() runs only on the game thread, inside auth_drain.
 *  3. Bounded: at most AUTH_QUEUE_MAX requests exist at once (submit fails
 *     beyond), each transfer has a total timeout of AUTH_TIMEOUT_MS, and an
 *     answer larger than AUTH_RESPONSE_MAX is refused.
 *  4. Only https:// session servers are used, except http:// on a loopback
 *     address (tests); config.c enforces that, this module trusts it.
 */
#ifndef MC_AUTH_H
#define MC_AUTH_H

#include "net/proxy.h"

#define AUTH_QUEUE_MAX          256
#define AUTH_PARALLEL_MAX       32
#define AUTH_TIMEOUT_MS         5000
#define AUTH_CONNECT_TIMEOUT_MS 3000
#define AUTH_RESPONSE_MAX       (64u << 10)

enum auth_status { AUTH_OK, AUTH_DENIED, AUTH_UNAVAILABLE };

typedef struct auth_req auth_req;

/* Called on the game thread; `profile` is the caller's to keep (move it out
 * with a struct copy; the request is freed after done returns). */
typedef void (*auth_done_fn)(void *owner, enum auth_status st, mc_profile *profile,
                             const char *detail);

/* Starts the auth thread. base_url has no trailing '/'. Returns an eventfd
 * for the loop to watch, or -1. */
int auth_start(const char *base_url);
/* Queues a hasJoined check; ip may be NULL. NULL if the queue is full or
 * auth_start was not called. */
auth_req *auth_submit(const char *username, const char *server_hash, const char *ip,
                      auth_done_fn done, void *owner);
/* The owner is going away: done() will not be called for r. */
void auth_cancel(auth_req *r);
/* Runs done() for every finished request; call when the eventfd is readable. */
void auth_drain(void);
/* Stops the thread; pending requests are dropped without done(). */
void auth_stop(void);

#endif
