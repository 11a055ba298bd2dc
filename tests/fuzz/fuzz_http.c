/*
 * fuzz_http.c — libFuzzer target for the HTTP admin endpoint's request-head
 * parser (admin/http_parse.c).
 *
 * The input arrives in pieces whose sizes come from its first byte, the way
 * a socket delivers it; each complete head is parsed and the rest treated
 * as the next (pipelining), as the server does.
 *
 * Invariants: http_head_end finds the same end whatever the split; a parse
 * either fills the request (path and host NUL-terminated within their
 * arrays, the path starting with '/') or returns one of the documented
 * statuses; never a crash, never a read past the head.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "admin/http_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    size_t step = (size_t)(data[0] % 16) + 1;
    const char *p = (const char *)data + 1;
    size_t len = size - 1;
    if (len > HTTP_HEAD_MAX * 2) len = HTTP_HEAD_MAX * 2;
    char *copy = malloc(len ? len : 1); /* exact-size copy: ASan sees any overread */
    memcpy(copy, p, len);
    size_t off = 0;
    while (off < len) {
        size_t scan = 0, end = 0, got = 0;
        while (!end && got < len - off) {
            got = got + step < len - off ? got + step : len - off;
            end = http_head_end(copy + off, got, &scan);
        }
        size_t scan2 = 0;
        if (http_head_end(copy + off, len - off, &scan2) != end) abort();
        if (!end) break;
        struct http_request req;
        int rc = http_parse_head(copy + off, end, &req);
        if (rc == 0) {
            if (req.path[0] != '/') abort();
            if (!memchr(req.path, 0, sizeof req.path) || !memchr(req.host, 0, sizeof req.host))
                abort();
            if (req.headers > HTTP_HEADERS_MAX) abort();
            (void)http_host_is_local(req.host);
        } else if (rc != -400 && rc != -413 && rc != -414 && rc != -431 && rc != -501 &&
                   rc != -505) {
            abort();
        }
        off += end;
    }
    free(copy);
    return 0;
}
