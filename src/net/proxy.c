/* proxy.c — see proxy.h for the wire formats and invariants. */
#include "net/proxy.h"

#include <ctype.h>
#include <arpa/inet.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/crypto.h"

/* --------------------------------------------------------- PROXY header */

static const uint8_t v2_sig[12] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D,
                                   0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

const char *proxy_strerror(long err)
{
    switch (err) {
    case PROXY_E_NOT_PROXY: return "no PROXY protocol header (proxy-protocol=true expects one)";
    case PROXY_E_V1_TOO_LONG: return "PROXY v1 header longer than 107 bytes";
    case PROXY_E_V1_SYNTAX: return "malformed PROXY v1 header";
    case PROXY_E_V2_VERSION: return "PROXY v2 header with an unknown version";
    case PROXY_E_V2_COMMAND: return "PROXY v2 header with an unknown command";
    case PROXY_E_V2_TOO_LONG: return "PROXY v2 header longer than 536 bytes";
    case PROXY_E_V2_FAMILY: return "PROXY v2 header for a transport other than TCP";
    case PROXY_E_V2_SHORT: return "PROXY v2 address block too short for its family";
    default: return "PROXY header error";
    }
}

/* Next space-separated token of line[*pos..end); NULL if none. */
static const char *v1_token(const char *line, size_t end, size_t *pos, size_t *tlen)
{
    size_t i = *pos;
    if (i >= end) return NULL;
    size_t s = i;
    while (i < end && line[i] != ' ') i++;
    *tlen = i - s;
    *pos = i < end ? i + 1 : i; /* skip the single separating space */
    return *tlen ? line + s : NULL;
}

static int v1_port(const char *s, size_t n, uint16_t *out)
{
    if (n == 0 || n > 5) return -1;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v > 65535) return -1;
    *out = (uint16_t)v;
    return 0;
}

static int v1_ip(const char *s, size_t n, int family, char out[PROXY_IP_MAX])
{
    char tmp[PROXY_IP_MAX];
    uint8_t bin[16];
    if (n == 0 || n >= sizeof tmp) return -1;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    if (inet_pton(family, tmp, bin) != 1) return -1;
    /* Re-print so the stored form is canonical. */
    return inet_ntop(family, bin, out, PROXY_IP_MAX) ? 0 : -1;
}

static long parse_v1(const uint8_t *p, size_t len, proxy_source *out)
{
    size_t scan = len < PROXY_V1_MAX ? len : PROXY_V1_MAX;
    size_t crlf = 0;
    bool found = false;
    for (size_t i = 0; i + 1 < scan; i++) {
        if (p[i] == '\r' && p[i + 1] == '\n') {
            crlf = i;
            found = true;
            break;
        }
    }
    if (!found) return len >= PROXY_V1_MAX ? PROXY_E_V1_TOO_LONG : 0;
    const char *line = (const char *)p;
    size_t pos = 6, tlen; /* after "PROXY " */
    const char *proto = v1_token(line, crlf, &pos, &tlen);
    if (!proto) return PROXY_E_V1_SYNTAX;
    if (tlen == 7 && memcmp(proto, "UNKNOWN", 7) == 0) {
        memset(out, 0, sizeof *out);
        out->keep = true;
        return (long)crlf + 2;
    }
    int family;
    if (tlen == 4 && memcmp(proto, "TCP4", 4) == 0)
        family = AF_INET;
    else if (tlen == 4 && memcmp(proto, "TCP6", 4) == 0)
        family = AF_INET6;
    else
        return PROXY_E_V1_SYNTAX;
    size_t sl, dl, spl, dpl;
    const char *src = v1_token(line, crlf, &pos, &sl);
    const char *dst = v1_token(line, crlf, &pos, &dl);
    const char *sport = v1_token(line, crlf, &pos, &spl);
    const char *dport = v1_token(line, crlf, &pos, &dpl);
    char dst_ip[PROXY_IP_MAX];
    uint16_t dport_v;
    if (!src || !dst || !sport || !dport || pos != crlf) return PROXY_E_V1_SYNTAX;
    memset(out, 0, sizeof *out);
    if (v1_ip(src, sl, family, out->ip) < 0 || v1_ip(dst, dl, family, dst_ip) < 0 ||
        v1_port(sport, spl, &out->port) < 0 || v1_port(dport, dpl, &dport_v) < 0)
        return PROXY_E_V1_SYNTAX;
    return (long)crlf + 2;
}

static long parse_v2(const uint8_t *p, size_t len, proxy_source *out)
{
    if (len < 16) return 0;
    if ((p[12] >> 4) != 2) return PROXY_E_V2_VERSION;
    int cmd = p[12] & 15;
    if (cmd > 1) return PROXY_E_V2_COMMAND;
    size_t alen = (size_t)p[14] << 8 | p[15];
    if (16 + alen > PROXY_V2_MAX) return PROXY_E_V2_TOO_LONG;
    if (len < 16 + alen) return 0;
    long total = (long)(16 + alen);
    memset(out, 0, sizeof *out);
    uint8_t fam = p[13];
    if (cmd == 0 || fam == 0x00) { /* LOCAL (health check) or UNSPEC */
        out->keep = true;
        return total;
    }
    const uint8_t *a = p + 16;
    if (fam == 0x11) {
        if (alen < 12) return PROXY_E_V2_SHORT;
        inet_ntop(AF_INET, a, out->ip, sizeof out->ip);
        out->port = (uint16_t)(a[8] << 8 | a[9]);
        return total;
    }
    if (fam == 0x21) {
        if (alen < 36) return PROXY_E_V2_SHORT;
        inet_ntop(AF_INET6, a, out->ip, sizeof out->ip);
        out->port = (uint16_t)(a[32] << 8 | a[33]);
        return total;
    }
    return PROXY_E_V2_FAMILY;
}

long proxy_header_parse(const uint8_t *p, size_t len, proxy_source *out)
{
    static const char v1_sig[6] = {'P', 'R', 'O', 'X', 'Y', ' '};
    if (len == 0) return 0;
    if (p[0] == 'P') {
        size_t n = len < sizeof v1_sig ? len : sizeof v1_sig;
        if (memcmp(p, v1_sig, n) != 0) return PROXY_E_NOT_PROXY;
        if (len < sizeof v1_sig) return 0;
        return parse_v1(p, len, out);
    }
    if (p[0] == v2_sig[0]) {
        size_t n = len < sizeof v2_sig ? len : sizeof v2_sig;
        if (memcmp(p, v2_sig, n) != 0) return PROXY_E_NOT_PROXY;
        if (len < sizeof v2_sig) return 0;
        return parse_v2(p, len, out);
    }
    return PROXY_E_NOT_PROXY;
}

/* ------------------------------------------------------------- profiles */

void profile_clear(mc_profile *p)
{
    for (size_t i = 0; i < p->prop_count; i++) {
        free((char *)p->props[i].name);
        free((char *)p->props[i].value);
        free((char *)p->props[i].signature);
    }
    memset(p, 0, sizeof *p);
}

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

int profile_add_property(mc_profile *p, const char *name, size_t nlen, const char *value,
                         size_t vlen, const char *sig, size_t slen, char *err, size_t errlen)
{
    if (p->prop_count >= PROFILE_PROPS_MAX) {
        snprintf(err, errlen, "more than %d profile properties", PROFILE_PROPS_MAX);
        return -1;
    }
    size_t bytes = nlen + vlen + (sig ? slen : 0);
    if (bytes > PROFILE_PROP_BYTES_MAX - p->prop_bytes) {
        snprintf(err, errlen, "profile properties larger than %u bytes", PROFILE_PROP_BYTES_MAX);
        return -1;
    }
    if (nlen == 0 || memchr(name, 0, nlen) || memchr(value, 0, vlen) ||
        (sig && memchr(sig, 0, slen))) {
        snprintf(err, errlen, "profile property with an empty name or a NUL byte");
        return -1;
    }
    struct pkt_property *q = &p->props[p->prop_count];
    q->name = dup_text(name, nlen);
    q->value = dup_text(value, vlen);
    q->signature = sig ? dup_text(sig, slen) : NULL;
    if (!q->name || !q->value || (sig && !q->signature)) {
        free((char *)q->name);
        free((char *)q->value);
        free((char *)q->signature);
        memset(q, 0, sizeof *q);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->prop_count++;
    p->prop_bytes += bytes;
    return 0;
}

/*
 * Copies a JSON properties array ([{name, value, signature?}]) into p.
 * A property named `skip` (if not NULL) is left out; its value is returned
 * through *skipped (NULL if absent) and *skipped_count counts them.
 */
static int props_from_json(mc_profile *p, const json_t *arr, const char *skip, const char **skipped,
                           size_t *skipped_len, int *skipped_count, char *err, size_t errlen)
{
    if (!json_is_array(arr)) {
        snprintf(err, errlen, "profile properties are not a JSON array");
        return -1;
    }
    size_t i;
    const json_t *el;
    json_array_foreach(arr, i, el)
    {
        const json_t *n = json_object_get(el, "name");
        const json_t *v = json_object_get(el, "value");
        const json_t *s = json_object_get(el, "signature");
        if (!json_is_string(n) || !json_is_string(v) ||
            (s && !json_is_null(s) && !json_is_string(s))) {
            snprintf(err, errlen, "profile property %zu lacks a string name or value", i);
            return -1;
        }
        const char *name = json_string_value(n);
        size_t nlen = json_string_length(n);
        if (skip && strcmp(name, skip) == 0) {
            if (skipped) *skipped = json_string_value(v);
            if (skipped_len) *skipped_len = json_string_length(v);
            if (skipped_count) (*skipped_count)++;
            continue;
        }
        const char *sig = json_is_string(s) ? json_string_value(s) : NULL;
        if (profile_add_property(p, name, nlen, json_string_value(v), json_string_length(v), sig,
                                 sig ? json_string_length(s) : 0, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int profile_parse_session_json(const char *text, size_t len, mc_profile *out, char *err,
                               size_t errlen)
{
    profile_clear(out);
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    if (!root) {
        snprintf(err, errlen, "session server answer is not JSON: %s", jerr.text);
        return -1;
    }
    int rc = -1;
    const json_t *id = json_object_get(root, "id");
    const json_t *name = json_object_get(root, "name");
    const json_t *props = json_object_get(root, "properties");
    if (!json_is_string(id) ||
        uuid_parse(json_string_value(id), json_string_length(id), &out->uuid) < 0) {
        snprintf(err, errlen, "session server answer has no valid \"id\"");
        goto out;
    }
    if (!json_is_string(name) ||
        !player_name_valid(json_string_value(name), json_string_length(name), 1)) {
        snprintf(err, errlen, "session server answer has no valid \"name\"");
        goto out;
    }
    memcpy(out->name, json_string_value(name), json_string_length(name) + 1);
    if (props && props_from_json(out, props, NULL, NULL, NULL, NULL, err, errlen) < 0) goto out;
    rc = 0;
out:
    json_decref(root);
    if (rc < 0) profile_clear(out);
    return rc;
}

/* ----------------------------------------------------------- BungeeCord */

/* Splits host on NUL into at most 5 parts; returns the count. */
static int split_nul(const char *host, size_t len, const char *part[5], size_t plen[5])
{
    int n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || host[i] == 0) {
            if (n == 5) return 6; /* too many: the caller refuses */
            part[n] = host + start;
            plen[n] = i - start;
            n++;
            start = i + 1;
        }
    }
    return n;
}

/* Spigot's check, [0-9a-f.:]{0,45}, then a real parse. */
static int forwarded_ip(const char *s, size_t n, char out[PROXY_IP_MAX])
{
    if (n == 0 || n > 45) return -1;
    for (size_t i = 0; i < n; i++)
        if (!(isxdigit((unsigned char)s[i]) || s[i] == '.' || s[i] == ':')) return -1;
    if (v1_ip(s, n, AF_INET, out) == 0) return 0;
    return v1_ip(s, n, AF_INET6, out);
}

bool bungee_looks_forwarded(const char *host, size_t len)
{
    const char *part[5];
    size_t plen[5];
    int n = split_nul(host, len, part, plen);
    char ip[PROXY_IP_MAX];
    mc_uuid u;
    return (n == 3 || n == 4) && forwarded_ip(part[1], plen[1], ip) == 0 &&
           uuid_parse(part[2], plen[2], &u) == 0;
}

/* Constant-time comparison of two secrets of any lengths (hashes both). */
static bool secret_equal(const char *a, size_t alen, const char *b, size_t blen)
{
    uint8_t ha[32], hb[32];
    unsigned int n = 0;
    if (!EVP_Digest(a, alen, ha, &n, EVP_sha256(), NULL) ||
        !EVP_Digest(b, blen, hb, &n, EVP_sha256(), NULL))
        return false;
    return mc_ct_equal(ha, hb, sizeof ha);
}

int bungee_parse_host(const char *host, size_t len, const char *guard_token, char ip[PROXY_IP_MAX],
                      mc_profile *prof, char *err, size_t errlen)
{
    profile_clear(prof);
    const char *part[5];
    size_t plen[5];
    int n = split_nul(host, len, part, plen);
    if (n != 3 && n != 4) {
        snprintf(err, errlen,
                 "If you wish to use IP forwarding, please enable it in your BungeeCord config as "
                 "well!");
        return BUNGEE_NOT_FORWARDED;
    }
    if (forwarded_ip(part[1], plen[1], ip) < 0) {
        snprintf(err, errlen, "BungeeCord forwarding: the client address is not an IP address");
        return BUNGEE_BAD;
    }
    if (uuid_parse(part[2], plen[2], &prof->uuid) < 0) {
        snprintf(err, errlen, "BungeeCord forwarding: the UUID does not parse");
        return BUNGEE_BAD;
    }
    const char *token = NULL;
    size_t token_len = 0;
    int tokens = 0;
    if (n == 4) {
        json_error_t jerr;
        json_t *arr = json_loadb(part[3], plen[3], 0, &jerr);
        if (!arr) {
            snprintf(err, errlen, "BungeeCord forwarding: properties are not JSON (%s)", jerr.text);
            return BUNGEE_BAD;
        }
        char why[160];
        int rc = props_from_json(prof, arr, "bungeeguard-token", &token, &token_len, &tokens, why,
                                 sizeof why);
        bool ok = false;
        if (rc == 0 && guard_token[0]) {
            ok = tokens == 1 && secret_equal(token, token_len, guard_token, strlen(guard_token));
        }
        json_decref(arr); /* `token` pointed into it: not used past here */
        if (rc < 0) {
            snprintf(err, errlen, "BungeeCord forwarding: %s", why);
            profile_clear(prof);
            return BUNGEE_BAD;
        }
        if (guard_token[0] && !ok) {
            snprintf(err, errlen, "Unable to authenticate - %s BungeeGuard token",
                     tokens == 0  ? "no"
                     : tokens > 1 ? "more than one"
                                  : "invalid");
            profile_clear(prof);
            return BUNGEE_GUARD;
        }
        return BUNGEE_OK;
    }
    if (guard_token[0]) {
        snprintf(err, errlen, "Unable to authenticate - no BungeeGuard token");
        return BUNGEE_GUARD;
    }
    return BUNGEE_OK;
}

/* ------------------------------------------------------------- Velocity */

int velocity_parse(const uint8_t *data, size_t len, const uint8_t *secret, size_t secret_len,
                   char ip[PROXY_IP_MAX], mc_profile *prof, int *version, char *err, size_t errlen)
{
    profile_clear(prof);
    uint8_t mac[MC_HMAC_SHA256_SIZE];
    if (len < MC_HMAC_SHA256_SIZE + 1 || len > VELOCITY_DATA_MAX ||
        mc_hmac_sha256(secret, secret_len, data + MC_HMAC_SHA256_SIZE, len - MC_HMAC_SHA256_SIZE,
                       mac) < 0 ||
        !mc_ct_equal(mac, data, MC_HMAC_SHA256_SIZE)) {
        snprintf(err, errlen, "Unable to verify player details");
        return VELOCITY_E_SIGNATURE;
    }
    rd_t r = rd_make(data + MC_HMAC_SHA256_SIZE, len - MC_HMAC_SHA256_SIZE);
    int32_t v = rd_varint(&r);
    *version = v;
    if (r.err || v < 1 || v > VELOCITY_VERSION_MAX || v == 2 || v == 3) {
        /* 2 and 3 carry 1.19-1.19.2 chat keys: never right for a 1.20.1 client. */
        snprintf(err, errlen, "Unsupported forwarding version %d, wanted upto %d", v,
                 VELOCITY_VERSION_MAX);
        return VELOCITY_E_VERSION;
    }
    size_t alen, nlen;
    const char *addr = rd_string(&r, 255, &alen);
    prof->uuid = rd_uuid(&r);
    const char *name = rd_string(&r, PROFILE_NAME_MAX, &nlen);
    int32_t count = rd_varint(&r);
    if (r.err) goto malformed;
    if (forwarded_ip(addr, alen, ip) < 0) {
        snprintf(err, errlen, "Velocity forwarding: the client address is not an IP address");
        return VELOCITY_E_MALFORMED;
    }
    if (!player_name_valid(name, nlen, 1)) goto malformed;
    memcpy(prof->name, name, nlen);
    prof->name[nlen] = 0;
    if (count < 0 || count > PROFILE_PROPS_MAX) goto malformed;
    for (int32_t i = 0; i < count; i++) {
        size_t pn, pv, ps = 0;
        const char *pname = rd_string(&r, 32767, &pn);
        const char *pval = rd_string(&r, 32767, &pv);
        const char *psig = rd_bool(&r) ? rd_string(&r, 32767, &ps) : NULL;
        if (r.err) goto malformed;
        char why[128];
        if (profile_add_property(prof, pname, pn, pval, pv, psig, ps, why, sizeof why) < 0) {
            snprintf(err, errlen, "Velocity forwarding: %s", why);
            profile_clear(prof);
            return VELOCITY_E_MALFORMED;
        }
    }
    return VELOCITY_OK;
malformed:
    snprintf(err, errlen, "Velocity forwarding: malformed player details");
    profile_clear(prof);
    return VELOCITY_E_MALFORMED;
}
