/* overworld.c — see overworld.h. */
#include "world/overworld.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/blocks.h"
#include "proto/packets.h"
#include "world/biome_source.h"
#include "world/carver.h"
#include "world/features.h"
#include "world/noise_chunk.h"
#include "world/ores.h"
#include "world/surface.h"
#include "world/wg_cache.h"

#define IDX(x, z, y) ((size_t)((z)*16 + (x)) * WG_HEIGHT + (size_t)((y)-WG_MIN_Y))
#define QY           (WG_HEIGHT / 4) /* quarts per column */

/* Noise biomes of the quarts around a chunk, computed on first use. */
struct biome_cache {
    const wg_state *st;
    wg_pt p;
    int64_t zoom_seed;
    int32_t qx0, qz0; /* first quart: chunk's first quart - 1 */
    int last;
    int16_t b[6][6][QY];
};

static int cached_noise_biome(struct biome_cache *bc, int32_t qx, int32_t qy, int32_t qz)
{
    int i = qx - bc->qx0, k = qz - bc->qz0, j = qy - WG_MIN_Y / 4;
    if (j < 0) j = 0;
    if (j >= QY) j = QY - 1;
    if (i < 0 || i >= 6 || k < 0 || k >= 6) return wg_biome_at(&bc->p, qx, qy, qz, &bc->last);
    if (bc->b[i][k][j] < 0)
        bc->b[i][k][j] = (int16_t)wg_biome_at(&bc->p, qx, j + WG_MIN_Y / 4, qz, &bc->last);
    return bc->b[i][k][j];
}

static inline int64_t lcg_next(int64_t seed, int64_t add)
{
    uint64_t s = (uint64_t)seed;
    return (int64_t)(s * (s * 6364136223846793005ULL + 1442695040888963407ULL) + (uint64_t)add);
}

static double fiddle(int64_t l)
{
    int64_t m = (l >> 24) % 1024;
    if (m < 0) m += 1024;
    return ((double)m / 1024.0 - 0.5) * 0.9;
}

static double fiddled_distance(int64_t seed, int32_t x, int32_t y, int32_t z, double dx, double dy,
                               double dz)
{
    int64_t m = lcg_next(seed, x);
    m = lcg_next(m, y);
    m = lcg_next(m, z);
    m = lcg_next(m, x);
    m = lcg_next(m, y);
    m = lcg_next(m, z);
    double d = fiddle(m);
    m = lcg_next(m, seed);
    double e = fiddle(m);
    m = lcg_next(m, seed);
    double f = fiddle(m);
    return (dz + f) * (dz + f) + (dy + e) * (dy + e) + (dx + d) * (dx + d);
}

/* BiomeManager.getBiome: the nearest of the 8 surrounding quarts, jittered by the zoom seed. */
static int fuzzy_biome(void *ctx, int32_t x, int32_t y, int32_t z)
{
    struct biome_cache *bc = ctx;
    int32_t i = x - 2, j = y - 2, k = z - 2;
    int32_t l = i >> 2, m = j >> 2, n = k >> 2;
    double d = (double)(i & 3) / 4.0, e = (double)(j & 3) / 4.0, f = (double)(k & 3) / 4.0;
    int o = 0;
    double g = HUGE_VAL;
    for (int p = 0; p < 8; p++) {
        int bx = (p & 4) == 0, by = (p & 2) == 0, bz = (p & 1) == 0;
        double v = fiddled_distance(bc->zoom_seed, bx ? l : l + 1, by ? m : m + 1, bz ? n : n + 1,
                                    bx ? d : d - 1.0, by ? e : e - 1.0, bz ? f : f - 1.0);
        if (g > v) {
            o = p;
            g = v;
        }
    }
    return cached_noise_biome(bc, (o & 4) == 0 ? l : l + 1, (o & 2) == 0 ? m : m + 1,
                              (o & 1) == 0 ? n : n + 1);
}

static void biome_cache_init(struct biome_cache *bc, const wg_state *st, int32_t cx, int32_t cz)
{
    bc->st = st;
    wg_pt_init(&bc->p, st);
    bc->zoom_seed = hashed_seed(st->seed);
    bc->qx0 = cx * 4 - 1;
    bc->qz0 = cz * 4 - 1;
    bc->last = -1;
    memset(bc->b, 0xff, sizeof bc->b);
}

int overworld_biome_at(const wg_state *st, int32_t x, int32_t y, int32_t z)
{
    struct biome_cache *bc = malloc(sizeof *bc);
    if (!bc) return 0;
    biome_cache_init(bc, st, x >> 4, z >> 4);
    int b = fuzzy_biome(bc, x, y, z);
    free(bc);
    return b;
}

struct scratch {
    wg_noise_chunk nc;
    struct biome_cache bc;
    uint8_t fill[256 * WG_HEIGHT];
    uint16_t cols[256 * WG_HEIGHT];
    uint16_t states[4096];
    int prelim[256];
    int64_t climate[4][4][QY][7];
};

static int64_t thread_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int overworld_generate(const wg_state *st, chunk *c)
{
    return overworld_generate_timed(st, c, NULL);
}

#define STAGE_DONE(k)                                                                              \
    do {                                                                                           \
        if (ns) {                                                                                  \
            int64_t now_ = thread_ns();                                                            \
            ns[k] += now_ - t0;                                                                    \
            t0 = now_;                                                                             \
        }                                                                                          \
    } while (0)

int overworld_generate_timed(const wg_state *st, chunk *c, int64_t ns[OW_STAGES])
{
    int64_t t0 = ns ? thread_ns() : 0;
    struct scratch *s = malloc(sizeof *s);
    if (!s) return -1;
    int32_t x0 = c->x * 16, z0 = c->z * 16;
    /* biomes: climate per quart column (its 2D parts computed once), then the lookups
     * per section in vanilla's fill order (x, then y, then z), which decides ties */
    biome_cache_init(&s->bc, st, c->x, c->z);
    for (int bx = 0; bx < 4; bx++)
        for (int bz = 0; bz < 4; bz++) {
            /* all but depth ignore y (y_scale 0): sample them once per column */
            int64_t *t0 = s->climate[bx][bz][0];
            wg_climate_at(&s->bc.p, c->x * 4 + bx, WG_MIN_Y / 4, c->z * 4 + bz, t0);
            for (int j = 1; j < QY; j++) {
                int64_t *t = s->climate[bx][bz][j];
                memcpy(t, t0, 7 * sizeof *t);
                wg_pt_at(&s->bc.p, (c->x * 4 + bx) * 4, (j + WG_MIN_Y / 4) * 4,
                         (c->z * 4 + bz) * 4);
                t[4] = (int64_t)((float)wg_router_depth(&s->bc.p) * 10000.0f);
            }
        }
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++)
        for (int bx = 0; bx < 4; bx++)
            for (int by = 0; by < 4; by++)
                for (int bz = 0; bz < 4; bz++) {
                    int j = sy * 4 + by;
                    int b = wg_biome_lookup(s->climate[bx][bz][j], &s->bc.last);
                    s->bc.b[bx + 1][bz + 1][j] = (int16_t)b;
                    c->sections[sy].biomes[by << 4 | bz << 2 | bx] = (uint8_t)b;
                }
    STAGE_DONE(OW_BIOMES);
    /* noise */
    wg_fill_noise(st, &s->nc, c->x, c->z, s->fill);
    STAGE_DONE(OW_NOISE);
    static const uint16_t fill_state[] = {BLOCK_AIR, BLOCK_STONE, BLOCK_WATER, BLOCK_LAVA};
    for (size_t i = 0; i < sizeof s->fill; i++) s->cols[i] = fill_state[s->fill[i]];
    /* surface */
    for (int lz = 0; lz < 16; lz += 4)
        for (int lx = 0; lx < 16; lx += 4) {
            int h = wg_prelim_cached(st, x0 + lx, z0 + lz);
            for (int dz = 0; dz < 4; dz++)
                for (int dx = 0; dx < 4; dx++) s->prelim[(lz + dz) * 16 + lx + dx] = h;
        }
    struct surface_input si = {st, x0, z0, s->cols, s->prelim, fuzzy_biome, &s->bc};
    surface_build(&si);
    STAGE_DONE(OW_SURFACE);
    carvers_apply(st, x0, z0, s->cols, &s->nc.aquifer);
    STAGE_DONE(OW_CARVERS);
    /* features */
    ores_place(st, x0, z0, s->cols, fuzzy_biome, &s->bc);
    STAGE_DONE(OW_ORES);
    features_place(st, x0, z0, s->cols, fuzzy_biome, &s->bc);
    STAGE_DONE(OW_FEATURES);
    int rc = 0;
    for (int sy = 0; sy < CHUNK_SECTIONS && rc == 0; sy++) {
        for (int ly = 0; ly < 16; ly++)
            for (int lz = 0; lz < 16; lz++)
                for (int lx = 0; lx < 16; lx++)
                    s->states[ly << 8 | lz << 4 | lx] =
                        s->cols[IDX(lx, lz, WG_MIN_Y + sy * 16 + ly)];
        rc = section_fill(&c->sections[sy], s->states);
    }
    free(s);
    return rc;
}

int overworld_surface_y(const wg_state *st, int32_t x, int32_t z)
{
    int pre = wg_prelim_cached(st, x, z);
    if (pre == INT32_MAX) return wg_column_height(st, x, z) - 1;
    return wg_column_height_from(st, x, z, pre + 64) - 1;
}
