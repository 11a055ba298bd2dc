/*
 * rcon.h — RCON (Source RCON as vanilla speaks it; ops-conventions §2.3):
 * a TCP remote console on rcon.port, bound to server-ip (every interface
 * when it is empty, as vanilla). Off unless enable-rcon=true; refuses to
 * start with an empty rcon.password, as vanilla:
 * "No rcon password set in server.properties, rcon disabled!".
 *
 * Packets: admin/rcon_packet.h; the wrong-password limiter:
 * admin/rcon_limiter.h.
 *
 * Client state:
 *
 *   CONNECTED --login ok--> AUTHED --command--> output (0..n packets) --> AUTHED
 *      | wrong password, a command first, RCON_AUTH_MS without a login,
 *      | or the address in backoff/blocked: reply id -1, then closed
 *   AUTHED --RCON_IDLE_MS without a packet--> closed
 *
 * Invariants:
 *  1. At most RCON_MAX_CLIENTS connections; a request is at most
 *     RCON_MAX_LENGTH + 4 bytes (vanilla reads 1460-byte buffers); anything
 *     longer or shorter than the format allows closes the connection.
 *  2. The password is compared in constant time (SHA-256 of both sides,
 *     CRYPTO_memcmp), never logged.
 *  3. Wrong passwords are counted per address (admin/rcon_limiter.h):
 *     backoff after RCON_FREE_TRIES, then blocked for RCON_BLOCK_MS, and a
 *     blocked address's connections are closed at accept.
 *  4. Commands run through the shared dispatcher at level 4 as "Rcon"
 *     (cmd_run_capture); output is split into RCON_CHUNK-byte replies at
 *     UTF-8 boundaries, an empty output is one empty reply (vanilla).
 *     Output per client is capped (RCON_OUT_MAX).
 */
#ifndef MC_RCON_H
#define MC_RCON_H

#include "admin/rcon_limiter.h"
#include "admin/rcon_packet.h"

#define RCON_MAX_CLIENTS 4
#define RCON_AUTH_MS     5000
#define RCON_IDLE_MS     600000
#define RCON_OUT_MAX     (4u << 20)
#define RCON_CAPTURE_MAX (1u << 20)

struct server_config;
/* 0 when off or started; -1 (logged) when it cannot start. */
int rcon_start(const struct server_config *cfg);
void rcon_stop(void);

#endif
