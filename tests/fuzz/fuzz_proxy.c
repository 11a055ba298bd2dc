/*
 * fuzz_proxy.c — libFuzzer target for the parsers of net/proxy.c, which read
 * bytes straight from the network before anyone is authenticated.
 *
 * The first input byte picks the parser; the rest is its input:
 *   0: PROXY v1/v2 header, fed whole and then as every prefix (a prefix must
 *      never consume more than it was given, and a whole header consumed
 *      from a prefix must be consumed the same way from the full input)
 *   1: BungeeCord forwarded host (with a BungeeGuard token configured)
 *   2: Velocity forwarding answer, re-signed with the test secret so the
 *      fuzzer reaches the body parser (and once unsigned)
 *   3: the session server's profile JSON
 * Invariant: no crash, no leak, no read past the input, every profile within
 * its caps and with NUL-terminated strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/proxy.c"

static void check_profile(const mc_profile *p)
{
    if (p->prop_count > PROFILE_PROPS_MAX || p->prop_bytes > PROFILE_PROP_BYTES_MAX) abort();
    for (size_t i = 0; i < p->prop_count; i++)
        if (strlen(p->props[i].name) + strlen(p->props[i].value) > PROFILE_PROP_BYTES_MAX) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int mode = data[0] & 3;
    data++;
    size--;
    mc_profile prof = {0};
    char ip[PROXY_IP_MAX], err[256];
    switch (mode) {
    case 0: {
        proxy_source s;
        long whole = proxy_header_parse(data, size, &s);
        if (whole > (long)size) abort();
        for (size_t i = 0; i <= size && i <= PROXY_V2_MAX + 1; i++) {
            long n = proxy_header_parse(data, i, &s);
            if (n > (long)i) abort();
            if (n > 0 && n != whole) abort();
        }
        break;
    }
    case 1:
        bungee_parse_host((const char *)data, size, "token", ip, &prof, err, sizeof err);
        check_profile(&prof);
        bungee_looks_forwarded((const char *)data, size);
        break;
    case 2: {
        static const uint8_t secret[] = "fuzz-secret";
        int ver;
        velocity_parse(data, size, secret, sizeof secret - 1, ip, &prof, &ver, err, sizeof err);
        if (size >= 32 && size <= VELOCITY_DATA_MAX) {
            uint8_t *copy = malloc(size);
            memcpy(copy, data, size);
            mc_hmac_sha256(secret, sizeof secret - 1, copy + 32, size - 32, copy);
            velocity_parse(copy, size, secret, sizeof secret - 1, ip, &prof, &ver, err, sizeof err);
            check_profile(&prof);
            free(copy);
        }
        break;
    }
    case 3:
        profile_parse_session_json((const char *)data, size, &prof, err, sizeof err);
        check_profile(&prof);
        break;
    }
    profile_clear(&prof);
    return 0;
}
