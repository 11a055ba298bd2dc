/*
 * addr.h — socket addresses as text, for log lines, bans and limits: the
 * one formatter the game port, RCON, HTTP, Query and the limits share.
 *
 * Text forms: the bare address ("127.0.0.1", "::1", as inet_ntop writes
 * it), and "address:port" (IPv6 without brackets, as the logs have always
 * shown it). An address family other than IPv4 or IPv6 formats as "?".
 */
#ifndef MC_ADDR_H
#define MC_ADDR_H

#include <stddef.h>
#include <sys/socket.h>

#define ADDR_IP_MAX   46 /* INET6_ADDRSTRLEN */
#define ADDR_TEXT_MAX 64 /* "ip:port" */

/* The bare address into ip (at least ADDR_IP_MAX bytes); returns the port (0 if unknown). */
int addr_ip(const struct sockaddr *sa, char *ip, size_t cap);
/* "ip:port" into out. */
void addr_text(const struct sockaddr *sa, char *out, size_t cap);

#endif
