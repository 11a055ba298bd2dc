/*
 * fuzz_lists.c — libFuzzer target for whitelist.json, banned-players.json
 * and banned-ips.json (game/lists_file.c). The first byte picks
 * the file kind; the rest is the file.
 *
 * Invariants: a file either loads (at most LISTS_MAX entries, names and
 * addresses valid, strings NUL-terminated in their arrays) or is refused
 * with a message; what loads dumps to text that loads again to the same
 * entries and dumps to the same text (the written file is stable).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/lists_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    enum list_kind k = (enum list_kind)(data[0] % LIST_KINDS);
    struct list_entry *e = NULL;
    size_t n = 0;
    char err[256] = "";
    if (lists_parse(k, (const char *)data + 1, size - 1, &e, &n, err, sizeof err) < 0) {
        if (!err[0] || e) abort();
    } else {
        if (n > LISTS_MAX) abort();
        for (size_t i = 0; i < n; i++)
            if (!memchr(e[i].name, 0, sizeof e[i].name) || !memchr(e[i].ip, 0, sizeof e[i].ip) ||
                !memchr(e[i].reason, 0, sizeof e[i].reason) ||
                !memchr(e[i].source, 0, sizeof e[i].source))
                abort();
        char *a = lists_dump(k, e, n);
        if (!a) abort();
        struct list_entry *e2 = NULL;
        size_t n2 = 0;
        if (lists_parse(k, a, strlen(a), &e2, &n2, err, sizeof err) < 0 || n2 != n) abort();
        char *b = lists_dump(k, e2, n2);
        if (!b || strcmp(a, b) != 0) abort();
        free(a);
        free(b);
        free(e2);
    }
    free(e);
    /* the timestamp and address helpers on the same bytes */
    char s[64];
    size_t m = size - 1 < sizeof s - 1 ? size - 1 : sizeof s - 1;
    memcpy(s, data + 1, m);
    s[m] = 0;
    struct list_time t;
    if (lists_parse_time(s, &t) == 0) {
        char out[32];
        lists_format_time(&t, out);
        struct list_time t2;
        if (lists_parse_time(out, &t2) < 0 || t2.epoch != t.epoch) abort();
    }
    char ip[LIST_IP_MAX];
    if (lists_normalize_ip(s, ip) == 0 && !memchr(ip, 0, sizeof ip)) abort();
    return 0;
}
