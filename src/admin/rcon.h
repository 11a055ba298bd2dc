/*
 * rcon.h — RCON (Source RCON as vanilla speaks it; ops-conventions §2.3):
 * a TCP remote console on rcon.port, bound to server-ip (every interface
 * when it is empty, as vanilla). Off unless enable-rcon=true; refuses to
 * start with an empty rcon.password, as vanilla:
 * "No rcon password set in server.properties, rcon disabled!".
 *
 * Packets: admin/rcon_packet.h; the wrong-password back-off:
 * admin/rcon_limiter.h.
 *
 * Client state:
 *
 *   CONNECTED --right password--> AUTHED --command--> output (0..n packets) --> AUTHED
 *      | a command first, RCON_AUTH_MS without a login: reply id -1, closed
 *      | wrong password: reply id -1 (after the address's back-off), closed
 *   AUTHED --RCON_IDLE_MS without a packet, or a packet begun and not
 *            finished within RCON_READ_MS--> closed
 *
 * Invariants:
 *  1. At most RCON_MAX_CLIENTS connections, RCON_MAX_PER_ADDRESS from one
 *     address; a new one beyond either evicts the oldest connection of that
 *     scope that has not logged in (admin.h invariant 3): logged-in
 *     sessions are never evicted. A request is at most RCON_MAX_LENGTH + 4
 *     bytes (vanilla reads 1460-byte buffers); anything longer or shorter
 *     than the format allows closes the connection.
 *  2. The password is compared in constant time (SHA-256 of both sides,
 *     CRYPTO_memcmp), never logged. Every login attempt is checked: the
 *     right password logs in at once whatever its address did before.
 *  3. Wrong passwords are counted per address (admin/rcon_limiter.h):
 *     after RCON_FREE_TRIES, the answer to each wrong one is held back
 *     (the connection waits, its input ignored) for a doubling delay. An
 *     address is never refused: behind an SSH tunnel every client is
 *     127.0.0.1, and a guesser there must not lock the operator out.
 *  4. Commands run through the shared dispatcher at level 4 as "Rcon"
 *     (cmd_run_capture); output is split into RCON_CHUNK-byte replies at
 *     UTF-8 boundaries, an empty output is one empty reply (vanilla).
 *     Output per client is capped (RCON_OUT_MAX).
 */
#ifndef MC_RCON_H
#define MC_RCON_H

#include "admin/rcon_limiter.h"
#include "admin/rcon_packet.h"

#define RCON_MAX_CLIENTS     32
#define RCON_MAX_PER_ADDRESS 16
#define RCON_AUTH_MS         5000 /* connect → login */
#define RCON_READ_MS         5000 /* a packet's first byte → its last */
#define RCON_IDLE_MS         600000
#define RCON_OUT_MAX         (4u << 20)
#define RCON_CAPTURE_MAX     (1u << 20)

struct server_config;
/* 0 when off or started; -1 (logged) when it cannot start. */
int rcon_start(const struct server_config *cfg);
void rcon_stop(void);

#endif
