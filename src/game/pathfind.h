/*
 * pathfind.h — A* over the block grid for walking mobs (issue 15), as
 * vanilla 1.20.1's PathFinder with WalkNodeEvaluator: pure (the blocks come
 * through a callback), so tests/unit/test_pathfind.c links it alone.
 *
 * A node is the block a mob's feet stand in. From a node the search tries
 * the eight neighbours at the same height (diagonals only when both
 * orthogonal neighbours are open, as WalkNodeEvaluator), then:
 *   - walkable: the cell and the cells above it for the mob's height are
 *     open and the block below holds it;
 *   - a 1-block jump: the neighbour is blocked but the cell above it is
 *     walkable and there is head room above the current node;
 *   - a fall: the neighbour is open with nothing below: the search walks
 *     down to the first floor, at most PF_MAX_FALL blocks (vanilla's
 *     getMaxFallDistance 3); deeper drops are not taken;
 *   - never into or onto lava, fire or cactus (PF_DANGER: vanilla's
 *     BlockPathTypes LAVA, DAMAGE_FIRE, DAMAGE_OTHER have malus -1 for
 *     walking mobs);
 *   - never into an unloaded block (PF_UNLOADED): a path toward an
 *     unloaded chunk ends at its edge, the search never asks for one.
 * Costs: 1 a step, √2 diagonally, +1 for a jump, +0.5 per block fallen;
 * heuristic: the straight distance (admissible).
 *
 * Invariants:
 *  1. A search visits at most max_nodes nodes (vanilla's maxVisitedNodes =
 *     follow range × 16) and holds its nodes in its own fixed arrays: no
 *     allocation, whatever the world looks like.
 *  2. pf_step does at most `budget` expansions per call, so searches can be
 *     spread over ticks (the caller's per-tick budget across all mobs).
 *  3. When the target is not reached (budget spent, no way) the result is
 *     the path to the visited node closest to the target, as vanilla's
 *     PathFinder returns its best partial path.
 */
#ifndef MC_PATHFIND_H
#define MC_PATHFIND_H

#include <stdbool.h>
#include <stdint.h>

#define PF_MAX_NODES 1024 /* the most a search may visit (zombie: 35 × 16 = 560) */
#define PF_MAX_FALL  3
#define PF_MAX_PATH  64 /* points kept of a found path (the mob repaths long before) */

enum pf_block {
    PF_OPEN,     /* no collision box: air, plants, water */
    PF_SOLID,    /* a collision box: stands on it, cannot enter it */
    PF_DANGER,   /* lava, fire, cactus, magma, berry bushes: neither entered nor stood on */
    PF_UNLOADED, /* its chunk is not loaded: the path stops at the edge */
};

typedef enum pf_block (*pf_block_fn)(void *ctx, int32_t x, int32_t y, int32_t z);

struct pf_node {
    int32_t x, y, z;
    float g, f;
    int32_t parent; /* index into nodes, -1 the start */
    int32_t heap;   /* index in the open heap, -1 closed */
};

struct pf_search {
    pf_block_fn block;
    void *ctx;
    int32_t tx, ty, tz; /* target block */
    float reach;        /* done when within this distance of the target */
    int height;         /* blocks of head room the mob needs */
    int max_nodes;
    int n;       /* nodes made */
    int visited; /* nodes expanded */
    int best;    /* node closest to the target so far */
    int found;   /* node that reached the target, -1 none */
    bool done;
    int nopen;
    int32_t open[PF_MAX_NODES];     /* binary heap of node indices by f */
    int32_t hash[PF_MAX_NODES * 2]; /* node index + 1 by position; 0 empty */
    struct pf_node nodes[PF_MAX_NODES];
};

struct pf_path {
    int n;
    bool reached; /* the last point is at the target (else the closest found) */
    int32_t pts[PF_MAX_PATH][3];
};

/* Starts a search from the block (sx, sy, sz) to (tx, ty, tz) for a mob
 * `height` blocks tall. max_nodes is clamped to 1..PF_MAX_NODES. */
void pf_start(struct pf_search *s, pf_block_fn fn, void *ctx, const int32_t start[3],
              const int32_t target[3], int height, float reach, int max_nodes);
/* Expands up to `budget` nodes. Returns the number expanded; s->done says
 * whether the search has finished. */
int pf_step(struct pf_search *s, int budget);
/* The path found (or the best partial one), start excluded. */
void pf_result(const struct pf_search *s, struct pf_path *out);

/* Median and 99th percentile of n samples (sorted in place), for the
 * search-time counters. 0 when n is 0. */
void pf_percentiles(uint32_t *v, int n, uint32_t *p50, uint32_t *p99);

#endif
