/* main.c — runs the registered unit tests; see test.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "test.h"

#define MAX_TESTS 1024

static struct {
    const char *name;
    test_fn fn;
} tests[MAX_TESTS];
static int ntests;
int test_failures;

void test_register(const char *name, test_fn fn)
{
    if (ntests < MAX_TESTS) {
        tests[ntests].name = name;
        tests[ntests].fn = fn;
        ntests++;
    }
}

int test_mem_eq(const char *file, int line, const void *got, size_t got_len, const void *want,
                size_t want_len)
{
    const unsigned char *g = got, *w = want;
    size_t n = got_len < want_len ? got_len : want_len;
    size_t i = 0;
    while (i < n && g[i] == w[i]) i++;
    if (i == n && got_len == want_len) return 1;
    fprintf(stderr, "    %s:%d: bytes differ: got %zu bytes, want %zu; first difference at %zu",
            file, line, got_len, want_len, i);
    if (i < n) fprintf(stderr, " (got %02x, want %02x)", g[i], w[i]);
    fprintf(stderr, "\n");
    return 0;
}

unsigned char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

const char *test_capture_path(const char *packet, int n, const char *ext)
{
    static char path[512];
    const char *root = getenv("MC_PACKETS_DIR");
    if (!root) root = "node_modules/minecraft-packets/minecraft-packets/data/pc/1.20.1/from-server";
    snprintf(path, sizeof path, "%s/%s/%d.%s", root, packet, n, ext);
    return path;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    /* Code under test logs what it would tell an operator; keep the report
     * readable unless MC_TEST_VERBOSE is set. */
    if (!getenv("MC_TEST_VERBOSE")) log_set_stderr(0);
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        test_failures = 0;
        tests[i].fn();
        if (test_failures) {
            printf("not ok - %s\n", tests[i].name);
            failed++;
        } else {
            printf("ok - %s\n", tests[i].name);
            passed++;
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
