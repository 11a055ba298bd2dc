/* biome_source.c — see biome_source.h. Follows vanilla's Climate.Sampler and
 * Climate.RTree.search. */
#include "world/biome_source.h"

#include "data/worldgen_biomes.h"

static inline int64_t quantize(double v)
{
    return (int64_t)((float)v * 10000.0f);
}

void wg_climate_at(wg_pt *p, int32_t qx, int32_t qy, int32_t qz, int64_t target[7])
{
    wg_pt_at(p, qx * 4, qy * 4, qz * 4);
    target[0] = quantize(wg_router_temperature(p));
    target[1] = quantize(wg_router_vegetation(p));
    target[2] = quantize(wg_router_continents(p));
    target[3] = quantize(wg_router_erosion(p));
    target[4] = quantize(wg_router_depth(p));
    target[5] = quantize(wg_router_ridges(p));
    target[6] = 0;
}

static inline int64_t axis(const struct wg_biome_node *n, const int64_t t[7], int i)
{
    const int32_t *r = wg_biome_ranges[i][n->range[i]]; /* {min, max} */
    int64_t a = t[i] - r[1], b = r[0] - t[i];
    int64_t d = a > 0 ? a : (b > 0 ? b : 0);
    return d * d;
}

/* The squared distance from target t to node n's box, or, as soon as the sum
 * reaches bound, some value >= bound (callers only ask "is it below bound?", so
 * the answers are vanilla's). Depth first: underground quarts lie far from most
 * boxes in depth alone, which ends the sum early. */
static inline int64_t distance_below(const struct wg_biome_node *n, const int64_t t[7],
                                     int64_t bound)
{
    int64_t sum = axis(n, t, 4);
    if (sum >= bound) return sum;
    sum += axis(n, t, 2) + axis(n, t, 3);
    if (sum >= bound) return sum;
    return sum + axis(n, t, 5) + axis(n, t, 0) + axis(n, t, 1) + axis(n, t, 6);
}

/* SubTree.search: the best leaf under node, starting from candidate (or -1). */
static int search(int node, const int64_t t[7], int candidate)
{
    const struct wg_biome_node *n = &wg_biome_tree[node];
    if (n->count == 0) return node;
    int64_t best =
        candidate < 0 ? INT64_MAX : distance_below(&wg_biome_tree[candidate], t, INT64_MAX);
    int leaf = candidate;
    for (int i = 0; i < n->count; i++) {
        int c = n->first + i;
        int64_t m = distance_below(&wg_biome_tree[c], t, best);
        if (best > m) {
            int leaf2 = search(c, t, leaf);
            int64_t d = c == leaf2 ? m : distance_below(&wg_biome_tree[leaf2], t, best);
            if (best > d) {
                best = d;
                leaf = leaf2;
            }
        }
    }
    return leaf;
}

int wg_biome_lookup(const int64_t target[7], int *last)
{
    /* Inside the previous leaf's box: vanilla's search, starting from it at distance 0,
     * descends nowhere and returns it. */
    if (*last >= 0 && distance_below(&wg_biome_tree[*last], target, 1) == 0)
        return wg_biome_tree[*last].biome;
    int leaf = search(0, target, *last);
    *last = leaf;
    return wg_biome_tree[leaf].biome;
}

int wg_biome_at(wg_pt *p, int32_t qx, int32_t qy, int32_t qz, int *last)
{
    int64_t t[7];
    wg_climate_at(p, qx, qy, qz, t);
    return wg_biome_lookup(t, last);
}
