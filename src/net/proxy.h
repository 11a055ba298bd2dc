/*
 * proxy.h — who is really connecting, when it is not (only) the socket that
 * says so: the HAProxy PROXY protocol header, BungeeCord's forwarded
 * handshake host, Velocity's signed forwarding answer, and the game profile
 * (UUID, name, properties such as the skin) that the session server or a
 * proxy hands over.
 *
 * Everything here is pure parsing over memory: no sockets, no server state,
 * no allocation except the profile's property strings. The unit tests
 * include proxy.c directly.
 *
 * PROXY protocol (haproxy.org/download/2.9/doc/proxy-protocol.txt), sent by
 * the load balancer before any Minecraft byte:
 *
 *   v1 (text, at most 107 bytes including CRLF):
 *     "PROXY TCP4 <src ip> <dst ip> <src port> <dst port>\r\n"
 *     "PROXY TCP6 <src ip> <dst ip> <src port> <dst port>\r\n"
 *     "PROXY UNKNOWN[ anything]\r\n"          -> keep the socket address
 *
 *   v2 (binary, 16 + len bytes, at most 536 here):
 *     off  size  field
 *       0    12  signature 0D 0A 0D 0A 00 0D 0A 51 55 49 54 0A
 *      12     1  version << 4 | command   (version 2; 0 LOCAL, 1 PROXY)
 *      13     1  family << 4 | transport  (0x11 TCP/IPv4, 0x21 TCP/IPv6,
 *                                          0x00 UNSPEC)
 *      14     2  len, big-endian: bytes that follow
 *      16   len  TCP/IPv4: src[4] dst[4] sport[2] dport[2]
 *                TCP/IPv6: src[16] dst[16] sport[2] dport[2]
 *                then TLVs (skipped)
 *     LOCAL (health checks) and UNSPEC keep the socket address.
 *
 * BungeeCord legacy forwarding, the handshake's Server Address string:
 *     host "\0" client-ip "\0" uuid-without-dashes [ "\0" properties-json ]
 *   where properties-json is [{"name":..,"value":..,"signature":..}, ...].
 *   BungeeGuard adds {"name":"bungeeguard-token","value":"<token>"}; it is
 *   checked (when a token is configured) and never kept in the profile.
 *
 * Velocity modern forwarding, the Login Plugin Response data on channel
 * "velocity:player_info":
 *     byte[32] HMAC-SHA256(key = secret, message = every byte after these 32)
 *     VarInt   version                (1 or 4 for 1.20.1 clients)
 *     String   client address         (textual IP)
 *     UUID     profile id             (16 bytes, big-endian)
 *     String   name                   (<= 16)
 *     VarInt   property count, then per property:
 *              String name, String value, bool signed, [String signature]
 *   (versions 2 and 3 carry 1.19-era chat keys and are refused here.)
 *
 * Invariants:
 *  1. Parsers return >0 bytes consumed, 0 = need more input (PROXY header
 *     only), <0 = refused, with a reason fit for a log line or a kick.
 *  2. Every length is capped before it is trusted: PROXY v1 107 bytes, v2
 *     536, a profile at most PROFILE_PROPS_MAX properties and
 *     PROFILE_PROP_BYTES_MAX bytes of property text.
 *  3. Forwarded addresses must parse as IPv4 or IPv6 (inet_pton); names must
 *     be 1..16 of [A-Za-z0-9_]; property strings may not contain NUL.
 *  4. The Velocity signature is checked, in constant time, before any other
 *     byte of the answer is read.
 */
#ifndef MC_PROXY_H
#define MC_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/packets.h"
#include "proto/wire.h"

#define PROXY_V1_MAX 107
#define PROXY_V2_MAX 536
#define PROXY_IP_MAX 46 /* INET6_ADDRSTRLEN */

typedef struct proxy_source {
    bool keep; /* LOCAL, UNKNOWN or UNSPEC: the socket's own address stands */
    char ip[PROXY_IP_MAX];
    uint16_t port;
} proxy_source;

enum proxy_error {
    PROXY_E_NOT_PROXY = -1, /* the connection did not start with a PROXY header */
    PROXY_E_V1_TOO_LONG = -2,
    PROXY_E_V1_SYNTAX = -3,
    PROXY_E_V2_VERSION = -4,
    PROXY_E_V2_COMMAND = -5,
    PROXY_E_V2_TOO_LONG = -6,
    PROXY_E_V2_FAMILY = -7,
    PROXY_E_V2_SHORT = -8, /* address block shorter than its family needs */
};

/* Parses a PROXY v1 or v2 header at the start of p[0..len). */
long proxy_header_parse(const uint8_t *p, size_t len, proxy_source *out);
const char *proxy_strerror(long err);

/* ------------------------------------------------------------ profiles */

#define PROFILE_PROPS_MAX      16
#define PROFILE_PROP_BYTES_MAX (16u << 10) /* textures are ~2 KiB with signature */
#define PROFILE_NAME_MAX       16

typedef struct mc_profile {
    mc_uuid uuid;
    char name[PROFILE_NAME_MAX + 1];
    size_t prop_count;
    size_t prop_bytes;
    struct pkt_property props[PROFILE_PROPS_MAX]; /* strings owned (malloc) */
} mc_profile;

/* Frees the property strings; the profile is empty (and reusable) after. */
void profile_clear(mc_profile *p);
/* Copies one property in. sig may be NULL (unsigned). -1 with err set when
 * a cap is reached, a string holds NUL, or memory runs out. */
int profile_add_property(mc_profile *p, const char *name, size_t nlen, const char *value,
                         size_t vlen, const char *sig, size_t slen, char *err, size_t errlen);
/* Reads a hasJoined answer: {"id":"<32 hex>","name":"..","properties":[..]}.
 * 0, or -1 with err set. `out` is cleared first. */
int profile_parse_session_json(const char *text, size_t len, mc_profile *out, char *err,
                               size_t errlen);

/* ----------------------------------------------------------- BungeeCord */

#define BUNGEE_HOST_MAX 32767 /* chars, as Spigot reads the forwarded host */

enum bungee_result {
    BUNGEE_OK = 0,
    BUNGEE_NOT_FORWARDED = -1, /* no forwarding data: a direct connection */
    BUNGEE_BAD = -2,           /* forwarding data that does not parse */
    BUNGEE_GUARD = -3,         /* BungeeGuard token missing or wrong */
};

/*
 * Parses a forwarded handshake host. On BUNGEE_OK, ip gets the client's
 * address and prof its UUID and properties (the name comes later, from Login
 * Start). guard_token: "" = no BungeeGuard check. err gets a kick message.
 */
int bungee_parse_host(const char *host, size_t len, const char *guard_token, char ip[PROXY_IP_MAX],
                      mc_profile *prof, char *err, size_t errlen);
/* True if the host carries BungeeCord forwarding (3 or 4 NUL-separated parts
 * with an IP and a UUID), whether or not we accept it. */
bool bungee_looks_forwarded(const char *host, size_t len);

/* ------------------------------------------------------------- Velocity */

#define VELOCITY_CHANNEL     "velocity:player_info"
#define VELOCITY_VERSION_MAX 4 /* MODERN_LAZY_SESSION; 1 = MODERN_DEFAULT */
#define VELOCITY_DATA_MAX    (32u << 10)

enum velocity_result {
    VELOCITY_OK = 0,
    VELOCITY_E_SIGNATURE = -1, /* HMAC mismatch: wrong secret or forged */
    VELOCITY_E_VERSION = -2,
    VELOCITY_E_MALFORMED = -3,
};

/*
 * Checks and reads a forwarding answer (the plugin response's data). On
 * VELOCITY_OK: ip, prof (uuid, name, properties) and *version are set.
 * Otherwise err gets the kick message (Paper's wording).
 */
int velocity_parse(const uint8_t *data, size_t len, const uint8_t *secret, size_t secret_len,
                   char ip[PROXY_IP_MAX], mc_profile *prof, int *version, char *err, size_t errlen);

#endif
