/*
 * light_bench.c — CPU time of light per chunk: a column alone
 * (light_compute) and with its eight neighbours (light_compute_view, what
 * the server's workers do), over real terrain; and what taking the
 * neighbours' snapshots costs the game thread (chunk_clone).
 *
 *   cc -std=c17 -D_GNU_SOURCE -Isrc -O2 tools/light_bench.c build/libmc.a \
 *      -ldeflate -lcurl -lcrypto -ljansson -lpthread -lm -o build/light_bench
 *   build/light_bench [--seed N] [--type normal|flat] [--radius R] [--runs K]
 *
 * With OLD_LIGHT defined it also times old_light_compute: the column-only
 * light of commit 7560d3f, compiled beside it with its symbols renamed
 * (BENCHMARKS.md gives the commands), for a before/after on the same chunks.
 *
 * Generates the (2R+1)^2 chunks around 0,0, then times each of the inner
 * (2R-1)^2 K times (thread CPU time) and prints the median run's ms/chunk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/biomes.h"
#include "data/blocks.h"
#include "world/chunk.h"
#include "world/light.h"
#include "world/terrain.h"

#ifdef OLD_LIGHT
void old_light_compute(const chunk *c, chunk_light *out);
#endif

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { ALONE, VIEW, CLONE, OLD, KINDS };

int main(int argc, char **argv)
{
    long long seed = 12345;
    int radius = 3, runs = 5;
    const char *type = "normal";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seed"))
            seed = atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--radius"))
            radius = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--type"))
            type = argv[i + 1];
    }
    if (radius < 1 || radius > 16 || runs < 1 || runs > 100) {
        fprintf(stderr, "light_bench: --radius 1..16, --runs 1..100\n");
        return 2;
    }
    terrain t;
    char err[256];
    if (terrain_init(&t, strcmp(type, "flat") ? LEVEL_NORMAL : LEVEL_FLAT, seed, "", err,
                     sizeof err) < 0) {
        fprintf(stderr, "light_bench: %s\n", err);
        return 1;
    }
    int side = 2 * radius + 1;
    chunk *grid = calloc((size_t)side * side, sizeof *grid);
    chunk_light *l = malloc(sizeof *l);
    double *times[KINDS];
    for (int k = 0; k < KINDS; k++) times[k] = calloc((size_t)runs, sizeof(double));
    if (!grid || !l) return 1;
    for (int z = 0; z < side; z++)
        for (int x = 0; x < side; x++) {
            chunk *c = &grid[z * side + x];
            chunk_init(c, x - radius, z - radius, BLOCK_AIR, BIOME_PLAINS);
            if (terrain_generate(&t, c) < 0) return 1;
        }
    int inner = (side - 2) * (side - 2);
    for (int r = 0; r < runs; r++) {
        for (int z = 1; z < side - 1; z++)
            for (int x = 1; x < side - 1; x++) {
                light_view v;
                for (int k = 0; k < 9; k++) v.c[k] = &grid[(z + k / 3 - 1) * side + x + k % 3 - 1];
                double t0 = cpu_ms();
                light_compute(v.c[4], l);
                double t1 = cpu_ms();
                light_compute_view(&v, l);
                double t2 = cpu_ms();
                chunk copy;
                chunk_clone(&copy, v.c[4]);
                double t3 = cpu_ms();
                chunk_free(&copy);
                times[ALONE][r] += t1 - t0;
                times[VIEW][r] += t2 - t1;
                times[CLONE][r] += t3 - t2;
#ifdef OLD_LIGHT
                double t4 = cpu_ms();
                old_light_compute(v.c[4], l);
                times[OLD][r] += cpu_ms() - t4;
#endif
            }
    }
    static const char *const names[KINDS] = {"light, column alone", "light, with 8 neighbours",
                                             "chunk_clone (a neighbour's snapshot)",
                                             "old light (7560d3f), column alone"};
    printf("%d chunks (%s, seed %lld), median of %d runs, thread CPU time:\n", inner, type, seed,
           runs);
    for (int k = 0; k < KINDS; k++) {
#ifndef OLD_LIGHT
        if (k == OLD) continue;
#endif
        qsort(times[k], (size_t)runs, sizeof(double), cmp_double);
        printf("  %-40s %.3f ms/chunk (min %.3f)\n", names[k], times[k][runs / 2] / inner,
               times[k][0] / inner);
    }
    for (int i = 0; i < side * side; i++) chunk_free(&grid[i]);
    free(grid);
    free(l);
    for (int k = 0; k < KINDS; k++) free(times[k]);
    return 0;
}
