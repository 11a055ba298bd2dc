/* noise_chunk.c — see noise_chunk.h. */
#include "world/noise_chunk.h"

#include <math.h>
#include <string.h>

#include "world/aquifer.h"
#include "world/wg_cache.h"

#define CELLS_Y WG_CELLS_Y

static inline double lerp(double t, double a, double b)
{
    return a + t * (b - a);
}

/* Block values from the 8 corners of a cell (vanilla's NoiseInterpolator). */
static inline double interp_cell(const double c[2][2][2], double fx, double fy, double fz)
{
    double xz00 = lerp(fy, c[0][0][0], c[0][1][0]), xz10 = lerp(fy, c[1][0][0], c[1][1][0]);
    double xz01 = lerp(fy, c[0][0][1], c[0][1][1]), xz11 = lerp(fy, c[1][0][1], c[1][1][1]);
    double z0 = lerp(fx, xz00, xz10), z1 = lerp(fx, xz01, xz11);
    return lerp(fz, z0, z1);
}

/*
 * Cells whose blocks are known without evaluating them. The generator checks
 * that final_density has the shape min(squeeze(k * A), range_choice(B, lo,
 * 0, v, ...)) with A and B interpolated slots, k > 0, v > 0 and lo <= -1
 * (vanilla's: A the caves and terrain, B the noodle caves' toggle) and then
 * defines WG_CULL_* (data/worldgen_router.h). When A is positive at all 8
 * corners of a cell and B negative (and above lo / 2) at all 8, every block of
 * the cell is solid; when A is negative at all 8, every block is empty (its
 * density, read only by the aquifer, is computed if asked for). Trilinear
 * interpolation of values of one sign keeps that sign in floating point as
 * long as no corner is tiny or below 2^-30 of the largest (the rounding of
 * each lerp is below 2^-51 of the largest), which one_sign demands.
 */
enum cell_kind { CELL_MIXED, CELL_SOLID, CELL_EMPTY };

/* All of v[0..7] are of the given sign (+1 or -1), by a margin (see above). */
static int one_sign(const double *v, int sign)
{
    double mn = v[0], mx = v[0];
    for (int i = 1; i < 8; i++) {
        if (v[i] < mn) mn = v[i];
        if (v[i] > mx) mx = v[i];
    }
    if (sign > 0) return mn > 1e-100 && mn > mx * 1e-9;
    return mx < -1e-100 && -mx > -mn * 1e-9;
}

static enum cell_kind cell_kind(const double c[WG_FINAL_SLOT_COUNT][2][2][2])
{
#if WG_CULL
    const double *a = &c[WG_CULL_SOLID_SLOT][0][0][0], *b = &c[WG_CULL_CHOICE_SLOT][0][0][0];
    if (one_sign(a, -1)) return CELL_EMPTY;
    if (one_sign(a, 1) && one_sign(b, -1)) {
        for (int i = 0; i < 8; i++)
            if (!(b[i] >= WG_CULL_CHOICE_MIN * 0.5)) return CELL_MIXED;
        return CELL_SOLID;
    }
#else
    (void)c;
    (void)one_sign;
#endif
    return CELL_MIXED;
}

/* The corners of cell (ci, cj, ck) of the chunk, [slot][x][y][z]. */
static void cell_corners(const wg_noise_chunk *nc, int ci, int cj, int ck,
                         double c[WG_FINAL_SLOT_COUNT][2][2][2])
{
    for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
                for (int d = 0; d < 2; d++) c[s][a][b][d] = nc->corner[ci + a][ck + d][s][cj + b];
}

/* final_density at one block of the chunk (local lx, lz; y), interpolated as the bulk
 * loop of wg_fill_noise interpolates it (interp_cell does the same operations). */
static double block_density(const wg_noise_chunk *nc, wg_pt *p, int lx, int y, int lz)
{
    int ci = lx >> 2, ck = lz >> 2, cj = (y - WG_MIN_Y) / WG_CELL_HEIGHT;
    double c[WG_FINAL_SLOT_COUNT][2][2][2];
    cell_corners(nc, ci, cj, ck, c);
    double fx = (double)(lx & 3) / (double)WG_CELL_WIDTH,
           fz = (double)(lz & 3) / (double)WG_CELL_WIDTH;
    double fy = (double)((y - WG_MIN_Y) % WG_CELL_HEIGHT) / (double)WG_CELL_HEIGHT;
    double interp[WG_INTERP_COUNT] = {0};
    for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++)
        interp[wg_final_slots[s]] = interp_cell(c[s], fx, fy, fz);
    p->interp = interp;
    p->x = nc->x0 + lx;
    p->y = y;
    p->z = nc->z0 + lz;
    p->memo3 = 0;
    double d = wg_router_final_density(p);
    p->interp = NULL;
    return d;
}

void wg_fill_noise(const wg_state *st, wg_noise_chunk *nc, int32_t cx, int32_t cz, uint8_t *out)
{
    wg_pt p;
    wg_pt_init(&p, st);
    nc->x0 = cx * 16;
    nc->z0 = cz * 16;
    p.snap_x0 = nc->x0 >> 2;
    p.snap_z0 = nc->z0 >> 2;
    p.snap_n = 4;
    for (int i = 0; i <= 4; i++)
        for (int k = 0; k <= 4; k++)
            wg_corner_column(st, nc->x0 + i * WG_CELL_WIDTH, nc->z0 + k * WG_CELL_WIDTH,
                             WG_CORNER_ALL, nc->corner[i][k]);
    wg_aquifer_init(&nc->aquifer, st, cx, cz);
    double interp[WG_INTERP_COUNT] = {0};
    enum { S = WG_FINAL_SLOT_COUNT };
    double c[S][2][2][2], xz[S][2][2], zv[S][2];
    for (int ci = 0; ci < 4; ci++)
        for (int ck = 0; ck < 4; ck++) {
            int top_cell = -1; /* the highest cell that is not empty throughout */
            for (int cj = 0; cj < CELLS_Y; cj++) {
                cell_corners(nc, ci, cj, ck, c);
                enum cell_kind kind = cell_kind(c);
                if (kind != CELL_EMPTY) top_cell = cj;
                if (kind != CELL_MIXED) {
                    /* solid: only the sign is ever read; empty: NaN, "not computed" */
                    double v = kind == CELL_SOLID ? 1.0 : NAN;
                    for (int k = 0; k < 16; k++)
                        for (int oy = 0; oy < WG_CELL_HEIGHT; oy++)
                            nc->density[k][cj * WG_CELL_HEIGHT + oy] = v;
                    continue;
                }
                p.interp = interp;
                /* vanilla's NoiseInterpolator: along y, then x, then z */
                for (int oy = 0; oy < WG_CELL_HEIGHT; oy++) {
                    int y = WG_MIN_Y + cj * WG_CELL_HEIGHT + oy;
                    double fy = (double)oy / (double)WG_CELL_HEIGHT;
                    for (int s = 0; s < S; s++)
                        for (int a = 0; a < 2; a++)
                            for (int d = 0; d < 2; d++)
                                xz[s][a][d] = lerp(fy, c[s][a][0][d], c[s][a][1][d]);
                    for (int ox = 0; ox < WG_CELL_WIDTH; ox++) {
                        double fx = (double)ox / (double)WG_CELL_WIDTH;
                        for (int s = 0; s < S; s++) {
                            zv[s][0] = lerp(fx, xz[s][0][0], xz[s][1][0]);
                            zv[s][1] = lerp(fx, xz[s][0][1], xz[s][1][1]);
                        }
                        for (int oz = 0; oz < WG_CELL_WIDTH; oz++) {
                            double fz = (double)oz / (double)WG_CELL_WIDTH;
                            for (int s = 0; s < S; s++)
                                interp[wg_final_slots[s]] = lerp(fz, zv[s][0], zv[s][1]);
                            p.x = nc->x0 + ci * 4 + ox;
                            p.y = y;
                            p.z = nc->z0 + ck * 4 + oz;
                            p.memo3 = 0;
                            nc->density[oz * 4 + ox][y - WG_MIN_Y] = wg_router_final_density(&p);
                        }
                    }
                }
                p.interp = NULL;
            }
            /* Fluids: the aquifer for every empty block up to 16 above the column's top
             * solid block; higher blocks are open air (no aquifer level reaches there). */
            for (int k = 0; k < 16; k++) {
                int ox = k & 3, oz = k >> 2, lx = ci * 4 + ox, lz = ck * 4 + oz;
                double *dcol = nc->density[k];
                uint8_t *col = out + (size_t)(lz * 16 + lx) * WG_HEIGHT;
                /* no solid block above top_cell; open air from lim + 1 if at sea level
                 * or higher (the loop below would write the same) */
                int top = (top_cell + 1) * WG_CELL_HEIGHT - 1;
                while (top >= 0 && !(dcol[top] > 0.0)) top--;
                int lim = top + 16;
                int air_from =
                    lim + 1 > WG_SEA_LEVEL - WG_MIN_Y ? lim + 1 : WG_SEA_LEVEL - WG_MIN_Y;
                if (air_from < WG_HEIGHT)
                    memset(col + air_from, WG_AIR, (size_t)(WG_HEIGHT - air_from));
                for (int j = 0; j < air_from && j < WG_HEIGHT; j++) {
                    double dens = dcol[j];
                    if (dens > 0.0) {
                        col[j] = WG_STONE;
                    } else if (j > lim && j + WG_MIN_Y >= WG_SEA_LEVEL) {
                        col[j] = WG_AIR;
                    } else {
                        if (isnan(dens))
                            dens = dcol[j] = block_density(nc, &p, lx, j + WG_MIN_Y, lz);
                        col[j] = (uint8_t)wg_aquifer_substance(&nc->aquifer, nc->x0 + lx,
                                                               j + WG_MIN_Y, nc->z0 + lz, dens);
                    }
                }
            }
        }
}

int wg_preliminary_surface(wg_pt *p, int32_t x, int32_t z)
{
    int32_t qx = (x >> 2) * 4, qz = (z >> 2) * 4;
    for (int y = WG_MIN_Y + WG_HEIGHT; y >= WG_MIN_Y; y -= WG_CELL_HEIGHT) {
        wg_pt_at(p, qx, y, qz);
        if (wg_router_initial_density_without_jaggedness(p) > 0.390625) return y;
    }
    return INT32_MAX;
}

/*
 * Scans column (x, z) down from the cell holding y_start, computing corner values
 * only for the cells it reaches; returns the top solid block + 1 (WG_MIN_Y if none).
 * *first_solid is set when the very first block looked at is already solid.
 */
static int column_scan(const wg_state *st, int32_t x, int32_t z, int y_start, int *first_solid)
{
    int top_cell = (y_start - WG_MIN_Y) / WG_CELL_HEIGHT;
    if (top_cell > CELLS_Y - 1) top_cell = CELLS_Y - 1;
    wg_corner_levels corner[2][2];
    uint64_t have = 0;
    wg_pt p;
    wg_pt_init(&p, st);
    int32_t gx = (x >> 2) * 4, gz = (z >> 2) * 4; /* cell corner (cells are 4 wide) */
    p.snap_x0 = (x >> 4) * 4;
    p.snap_z0 = (z >> 4) * 4;
    p.snap_n = 4;
    double interp[WG_INTERP_COUNT] = {0};
    double fx = (double)(x - gx) / 4.0, fz = (double)(z - gz) / 4.0;
    *first_solid = 0;
    p.interp = interp;
    for (int cj = top_cell; cj >= 0; cj--) {
        /* the cell's two corner levels (only those the scan reaches are computed) */
        uint64_t want = (3ULL << cj) & ~have;
        if (want) {
            for (int a = 0; a < 2; a++)
                for (int d = 0; d < 2; d++)
                    wg_corner_column(st, gx + a * 4, gz + d * 4, want, corner[a][d]);
            have |= want;
        }
        for (int oy = WG_CELL_HEIGHT - 1; oy >= 0; oy--) {
            int y = WG_MIN_Y + cj * WG_CELL_HEIGHT + oy;
            double fy = (double)oy / (double)WG_CELL_HEIGHT;
            for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++) {
                double c[2][2][2];
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++)
                        for (int d = 0; d < 2; d++) c[a][b][d] = corner[a][d][s][cj + b];
                interp[wg_final_slots[s]] = interp_cell(c, fx, fy, fz);
            }
            wg_pt_at(&p, x, y, z);
            if (wg_router_final_density(&p) > 0.0) {
                *first_solid = cj == top_cell && oy == WG_CELL_HEIGHT - 1;
                return y + 1;
            }
        }
    }
    return WG_MIN_Y;
}

int wg_column_height_from(const wg_state *st, int32_t x, int32_t z, int y_start)
{
    int first_solid;
    if (y_start < WG_MIN_Y + WG_CELL_HEIGHT) y_start = WG_MIN_Y + WG_CELL_HEIGHT;
    int h = column_scan(st, x, z, y_start, &first_solid);
    return first_solid ? wg_column_height(st, x, z) : h;
}

int wg_column_height(const wg_state *st, int32_t x, int32_t z)
{
    int first_solid;
    return column_scan(st, x, z, WG_MIN_Y + WG_HEIGHT - 1, &first_solid);
}
