/*
 * test_chunk_viewers.c — the chunk → viewers index (game/chunk_viewers.c)
 * against a plain model: random adds and removes over chunks with negative,
 * colliding and far-apart coordinates, enough of them to grow the table and
 * to delete inside long probe runs; every list must hold exactly the
 * model's viewers after every step.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "game/chunk_viewers.h"
#include "test.h"

#define NCONNS  24
#define NCHUNKS 3000

static conn fakes[NCONNS];
static bool model[NCHUNKS][NCONNS];

static void chunk_xz(int k, int32_t *x, int32_t *z)
{
    /* a dense block around the origin plus far, sign-mixed outliers */
    if (k < 2500) {
        *x = k % 50 - 25;
        *z = k / 50 - 25;
    } else {
        *x = (k * 7919) % 60000 - 30000;
        *z = -(k * 104729 % 60000) + 30000;
    }
}

static bool list_matches(int k)
{
    int32_t x, z;
    chunk_xz(k, &x, &z);
    size_t n;
    conn **v = cv_copy(x, z, &n);
    size_t want = 0;
    for (int c = 0; c < NCONNS; c++) want += model[k][c];
    if (n != want || cv_count(x, z) != want) return false;
    for (size_t i = 0; i < n; i++) {
        int c = (int)(v[i] - fakes);
        if (c < 0 || c >= NCONNS || !model[k][c]) return false;
        for (size_t j = 0; j < i; j++)
            if (v[j] == v[i]) return false; /* no duplicates */
    }
    return true;
}

TEST(chunk_viewers_match_a_model_under_random_moves)
{
    uint64_t seed = 12345;
    int bad = 0;
    for (int step = 0; step < 300000; step++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int k = (int)((seed >> 33) % NCHUNKS), c = (int)((seed >> 20) % NCONNS);
        int32_t x, z;
        chunk_xz(k, &x, &z);
        /* mostly adds early, mostly removes late: the table fills, then empties */
        bool add = ((seed >> 8) % 100) < (step < 150000 ? 70u : 30u);
        if (add && !model[k][c]) {
            cv_add(&fakes[c], x, z);
            model[k][c] = true;
        } else if (!add && model[k][c]) {
            cv_remove(&fakes[c], x, z);
            model[k][c] = false;
        }
        if (!list_matches(k)) bad++;
        if (step % 50000 == 0)
            for (int j = 0; j < NCHUNKS; j++)
                if (!list_matches(j)) bad++;
    }
    for (int j = 0; j < NCHUNKS; j++)
        if (!list_matches(j)) bad++;
    CHECK_EQ_INT(bad, 0);
    /* removing what is not there changes nothing */
    int32_t x, z;
    chunk_xz(7, &x, &z);
    size_t before = cv_count(x, z);
    cv_remove(&fakes[0], 123456, -654321);
    CHECK(cv_count(x, z) == before);
}
