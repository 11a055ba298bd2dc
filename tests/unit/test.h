/*
 * test.h — a minimal unit-test harness.
 *
 * TEST(name) { ... } defines and registers a test (constructor attribute);
 * CHECK(cond) records a failure with file:line and carries on; CHECK_EQ_INT
 * and CHECK_MEM print both sides. main.c runs every test, or the ones whose
 * name contains argv[1], and ends with "unit: N passed, N failed".
 */
#ifndef MC_TEST_H
#define MC_TEST_H

#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
extern int test_failures; /* failures inside the current test */

#define TEST(name)                                                                                 \
    static void test_##name(void);                                                                 \
    __attribute__((constructor)) static void register_##name(void)                                 \
    {                                                                                              \
        test_register(#name, test_##name);                                                         \
    }                                                                                              \
    static void test_##name(void)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            test_failures++;                                                                       \
            fprintf(stderr, "    %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);           \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_) {                                                                            \
            test_failures++;                                                                       \
            fprintf(stderr, "    %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__,    \
                    #a, a_, #b, b_);                                                               \
        }                                                                                          \
    } while (0)

/* Compares byte ranges; on a mismatch prints the first differing offset. */
int test_mem_eq(const char *file, int line, const void *got, size_t got_len, const void *want,
                size_t want_len);
#define CHECK_MEM(got, got_len, want, want_len)                                                    \
    do {                                                                                           \
        if (!test_mem_eq(__FILE__, __LINE__, got, got_len, want, want_len)) test_failures++;       \
    } while (0)

/* Reads a whole file into memory (malloc); NULL if missing. For golden vectors. */
unsigned char *test_read_file(const char *path, size_t *len);
/* Path of a minecraft-packets 1.20.1 capture, e.g. ("keep_alive", 1, "raw"). */
const char *test_capture_path(const char *packet, int n, const char *ext);

#endif
