/*
 * test_tablist.c — the tab-list entries a vanilla client draws
 * (game/tablist.c): the selection equals the first 80 of a full sort by
 * vanilla's order (spectators last, names ignoring case), for servers
 * smaller and larger than 80, and the order's edge cases.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/tablist.h"
#include "test.h"

static int cmp_entries(const void *a, const void *b)
{
    return tab_order(a, b);
}

static int cmp_ptrs(const void *a, const void *b)
{
    return tab_order(*(const struct tab_entry *const *)a, *(const struct tab_entry *const *)b);
}

/* n entries with distinct mixed-case names, every seventh a spectator. */
static void make_entries(struct tab_entry *e, char (*names)[17], size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const char *alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
        snprintf(names[i], sizeof names[i], "%c%c%c%04zu", alpha[(seed >> 33) % 63],
                 alpha[(seed >> 40) % 63], alpha[(seed >> 50) % 63], i);
        e[i] = (struct tab_entry){names[i], i % 7 == 3, NULL};
    }
}

static void check_selection(size_t n, uint64_t seed)
{
    struct tab_entry *in = calloc(n, sizeof *in), *sorted = calloc(n, sizeof *sorted);
    char(*names)[17] = calloc(n, sizeof *names);
    const struct tab_entry *out[TAB_SHOWN];
    make_entries(in, names, n, seed);
    memcpy(sorted, in, n * sizeof *in);
    qsort(sorted, n, sizeof *sorted, cmp_entries);
    size_t k = tab_select_shown(in, n, out);
    CHECK_EQ_INT((int)k, (int)(n < TAB_SHOWN ? n : TAB_SHOWN));
    for (size_t i = 1; i < k; i++)
        CHECK(tab_order(out[0], out[i]) >= 0); /* the heap's root is the last */
    qsort(out, k, sizeof out[0], cmp_ptrs);
    for (size_t i = 0; i < k; i++) CHECK(strcmp(out[i]->name, sorted[i].name) == 0);
    free(in);
    free(sorted);
    free(names);
}

TEST(tablist_first_80_of_vanilla_order)
{
    check_selection(0, 1);
    check_selection(1, 2);
    check_selection(79, 3);
    check_selection(80, 4);
    check_selection(81, 5);
    check_selection(1000, 6);
    check_selection(10000, 7);
}

TEST(tablist_order_like_vanilla)
{
    struct tab_entry a = {"alice", false, NULL}, B = {"Bob", false, NULL};
    struct tab_entry spec = {"aaron", true, NULL}, under = {"_x", false, NULL};
    CHECK(tab_order(&a, &B) < 0); /* case is ignored: a < B */
    CHECK(tab_order(&B, &a) > 0);
    CHECK(tab_order(&spec, &B) > 0);  /* spectators after everyone */
    CHECK(tab_order(&under, &a) < 0); /* '_' sorts before letters ignoring case */
    struct tab_entry A = {"ALICE", false, NULL};
    CHECK_EQ_INT(tab_order(&a, &A), 0);
}
