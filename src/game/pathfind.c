/*
 * pathfind.c — A* over the block grid (pathfind.h has the rules and the
 * invariants). Pure: the blocks come from the caller's callback.
 *
 * The open set is a binary heap of node indices keyed by f = g + h; the
 * nodes made so far are found by position in an open-addressed hash of
 * twice the node cap (so it never fills). A node in the heap carries its
 * heap slot; a closed one has heap -1.
 */
#include "game/pathfind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HASH_CAP (PF_MAX_NODES * 2)

static uint32_t hash_pos(int32_t x, int32_t y, int32_t z)
{
    uint32_t h = (uint32_t)x * 0x9e3779b1u ^ (uint32_t)y * 0x85ebca77u ^ (uint32_t)z * 0xc2b2ae3du;
    h ^= h >> 15;
    return h & (HASH_CAP - 1);
}

static int find(const struct pf_search *s, int32_t x, int32_t y, int32_t z)
{
    for (uint32_t h = hash_pos(x, y, z);; h = (h + 1) & (HASH_CAP - 1)) {
        int32_t k = s->hash[h];
        if (!k) return -1;
        const struct pf_node *n = &s->nodes[k - 1];
        if (n->x == x && n->y == y && n->z == z) return k - 1;
    }
}

static float heur(const struct pf_search *s, int32_t x, int32_t y, int32_t z)
{
    float dx = (float)(x - s->tx), dy = (float)(y - s->ty), dz = (float)(z - s->tz);
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* ---------------------------------------------------------------- heap */

static bool less(const struct pf_search *s, int a, int b)
{
    return s->nodes[s->open[a]].f < s->nodes[s->open[b]].f;
}

static void swap_at(struct pf_search *s, int a, int b)
{
    int32_t t = s->open[a];
    s->open[a] = s->open[b];
    s->open[b] = t;
    s->nodes[s->open[a]].heap = a;
    s->nodes[s->open[b]].heap = b;
}

static void sift_up(struct pf_search *s, int i)
{
    while (i > 0 && less(s, i, (i - 1) / 2)) {
        swap_at(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void sift_down(struct pf_search *s, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nopen && less(s, l, m)) m = l;
        if (r < s->nopen && less(s, r, m)) m = r;
        if (m == i) return;
        swap_at(s, i, m);
        i = m;
    }
}

static int pop(struct pf_search *s)
{
    int top = s->open[0];
    s->nopen--;
    if (s->nopen > 0) {
        s->open[0] = s->open[s->nopen];
        s->nodes[s->open[0]].heap = 0;
        sift_down(s, 0);
    }
    s->nodes[top].heap = -1;
    return top;
}

/* ---------------------------------------------------------------- nodes */

/* The node at (x, y, z) reached from `from` at cost g: made, or improved
 * when it is still open and this way is cheaper. */
static void reach_node(struct pf_search *s, int from, int32_t x, int32_t y, int32_t z, float g)
{
    int k = find(s, x, y, z);
    if (k >= 0) {
        struct pf_node *n = &s->nodes[k];
        if (n->heap < 0 || g >= n->g) return;
        n->f -= n->g - g;
        n->g = g;
        n->parent = from;
        sift_up(s, n->heap);
        return;
    }
    if (s->n >= s->max_nodes) return;
    k = s->n++;
    struct pf_node *n = &s->nodes[k];
    n->x = x, n->y = y, n->z = z;
    n->g = g;
    n->f = g + heur(s, x, y, z);
    n->parent = from;
    n->heap = s->nopen;
    s->open[s->nopen++] = k;
    sift_up(s, n->heap);
    uint32_t h = hash_pos(x, y, z);
    while (s->hash[h]) h = (h + 1) & (HASH_CAP - 1);
    s->hash[h] = k + 1;
}

/* The cells a body needs from its feet up are open (lava, fire and
 * unloaded blocks are not). */
static bool room(const struct pf_search *s, int32_t x, int32_t y, int32_t z, int h)
{
    for (int i = 0; i < h; i++)
        if (s->block(s->ctx, x, y + i, z) != PF_OPEN) return false;
    return true;
}

/* Where a mob stepping into column (x, z) at height y ends up: the y of
 * the floor it stands on (jump up one, or fall at most PF_MAX_FALL), or
 * INT32_MIN when it cannot go there. *extra gets the cost above a step. */
static int32_t land(const struct pf_search *s, int32_t x, int32_t y, int32_t z, bool can_jump,
                    float *extra)
{
    *extra = 0;
    enum pf_block here = s->block(s->ctx, x, y, z);
    if (here == PF_SOLID) {
        if (!can_jump || !room(s, x, y + 1, z, s->height)) return INT32_MIN;
        *extra = 1.0f;
        return y + 1; /* a 1-block jump onto the block */
    }
    if (here != PF_OPEN || !room(s, x, y, z, s->height)) return INT32_MIN;
    for (int d = 0; d <= PF_MAX_FALL; d++) {
        enum pf_block below = s->block(s->ctx, x, y - d - 1, z);
        if (below == PF_SOLID) {
            *extra = 0.5f * (float)d;
            return y - d;
        }
        if (below != PF_OPEN) return INT32_MIN; /* lava, fire, cactus, unloaded */
    }
    return INT32_MIN; /* a drop deeper than PF_MAX_FALL */
}

static void expand(struct pf_search *s, int k)
{
    const struct pf_node cur = s->nodes[k];
    bool head = s->block(s->ctx, cur.x, cur.y + s->height, cur.z) == PF_OPEN;
    bool open4[4] = {false, false, false, false};
    static const int dir[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                  {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int d = 0; d < 8; d++) {
        int32_t x = cur.x + dir[d][0], z = cur.z + dir[d][1];
        if (d >= 4) { /* diagonals: both sides open at this height, no jumps or falls */
            bool a = open4[dir[d][0] > 0 ? 0 : 1], b = open4[dir[d][1] > 0 ? 2 : 3];
            if (!a || !b) continue;
            if (!room(s, x, cur.y, z, s->height)) continue;
            if (s->block(s->ctx, x, cur.y - 1, z) != PF_SOLID) continue;
            reach_node(s, k, x, cur.y, z, cur.g + 1.4142135f);
            continue;
        }
        float extra;
        int32_t y = land(s, x, cur.y, z, head, &extra);
        if (y == INT32_MIN) continue;
        if (y == cur.y) open4[d] = true;
        reach_node(s, k, x, y, z, cur.g + 1.0f + extra);
    }
}

/* ---------------------------------------------------------------- API */

void pf_start(struct pf_search *s, pf_block_fn fn, void *ctx, const int32_t start[3],
              const int32_t target[3], int height, float reach, int max_nodes)
{
    s->block = fn;
    s->ctx = ctx;
    s->tx = target[0], s->ty = target[1], s->tz = target[2];
    s->reach = reach;
    s->height = height < 1 ? 1 : height > 3 ? 3 : height;
    s->max_nodes = max_nodes < 1 ? 1 : max_nodes > PF_MAX_NODES ? PF_MAX_NODES : max_nodes;
    s->n = s->visited = s->nopen = 0;
    s->best = 0;
    s->found = -1;
    s->done = false;
    memset(s->hash, 0, sizeof s->hash);
    reach_node(s, -1, start[0], start[1], start[2], 0.0f);
}

int pf_step(struct pf_search *s, int budget)
{
    int did = 0;
    while (!s->done && did < budget) {
        if (s->nopen == 0 || s->visited >= s->max_nodes) {
            s->done = true;
            break;
        }
        int k = pop(s);
        did++;
        s->visited++;
        const struct pf_node *n = &s->nodes[k];
        float h = heur(s, n->x, n->y, n->z);
        if (h < heur(s, s->nodes[s->best].x, s->nodes[s->best].y, s->nodes[s->best].z)) s->best = k;
        if (h <= s->reach) {
            s->found = k;
            s->done = true;
            break;
        }
        expand(s, k);
    }
    return did;
}

void pf_result(const struct pf_search *s, struct pf_path *out)
{
    int end = s->found >= 0 ? s->found : s->best;
    out->reached = s->found >= 0;
    int len = 0;
    for (int k = end; k >= 0 && s->nodes[k].parent >= 0; k = s->nodes[k].parent) len++;
    /* keep the first PF_MAX_PATH points from the start */
    int skip = len > PF_MAX_PATH ? len - PF_MAX_PATH : 0;
    out->n = len - skip;
    if (skip) out->reached = false;
    int i = len;
    for (int k = end; k >= 0 && s->nodes[k].parent >= 0; k = s->nodes[k].parent) {
        i--;
        if (i < out->n) {
            out->pts[i][0] = s->nodes[k].x;
            out->pts[i][1] = s->nodes[k].y;
            out->pts[i][2] = s->nodes[k].z;
        }
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void pf_percentiles(uint32_t *v, int n, uint32_t *p50, uint32_t *p99)
{
    if (n <= 0) {
        *p50 = *p99 = 0;
        return;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_u32);
    *p50 = v[n / 2];
    int i = (int)((double)n * 0.99);
    *p99 = v[i >= n ? n - 1 : i];
}
