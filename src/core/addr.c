/*
 * addr.c — see addr.h.
 */
#include "core/addr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>

int addr_ip(const struct sockaddr *sa, char *ip, size_t cap)
{
    snprintf(ip, cap, "?");
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &a->sin_addr, ip, (socklen_t)cap);
        return ntohs(a->sin_port);
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &a->sin6_addr, ip, (socklen_t)cap);
        return ntohs(a->sin6_port);
    }
    return 0;
}

void addr_text(const struct sockaddr *sa, char *out, size_t cap)
{
    char ip[ADDR_IP_MAX];
    int port = addr_ip(sa, ip, sizeof ip);
    snprintf(out, cap, "%s:%d", ip, port);
}
