/* noise_chunk.c — see noise_chunk.h. */
#include "world/noise_chunk.h"

#include "world/aquifer.h"

#include <string.h>

#define CELLS_Y (WG_HEIGHT / WG_CELL_HEIGHT)

/* Corner values of the final_density slots for the corner column at (x, z). */
static void corner_column(wg_pt *p, int32_t x, int32_t z, double out[][CELLS_Y + 1], int stride)
{
    for (int j = 0; j <= CELLS_Y; j++) {
        wg_pt_at(p, x, WG_MIN_Y + j * WG_CELL_HEIGHT, z);
        for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++) {
            int k = wg_final_slots[s];
            out[k * stride][j] = wg_interp_args[k](p);
        }
    }
}

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
            corner_column(&p, nc->x0 + i * WG_CELL_WIDTH, nc->z0 + k * WG_CELL_WIDTH,
                          nc->corner[0][i] + k, 25);
    wg_aquifer_init(&nc->aquifer, st, cx, cz);
    double interp[WG_INTERP_COUNT] = {0};
    p.interp = interp;
    enum { S = WG_FINAL_SLOT_COUNT };
    double c[S][2][2][2], xz[S][2][2], zv[S][2];
    for (int ci = 0; ci < 4; ci++)
        for (int ck = 0; ck < 4; ck++) {
            for (int cj = 0; cj < CELLS_Y; cj++) {
                for (int s = 0; s < S; s++) {
                    int k = wg_final_slots[s];
                    for (int a = 0; a < 2; a++)
                        for (int b = 0; b < 2; b++)
                            for (int d = 0; d < 2; d++)
                                c[s][a][b][d] = nc->corner[k][ci + a][ck + d][cj + b];
                }
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
            }
            /* Fluids: the aquifer for every empty block up to 16 above the column's top
             * solid block; higher blocks are open air (no aquifer level reaches there). */
            for (int k = 0; k < 16; k++) {
                int ox = k & 3, oz = k >> 2, lx = ci * 4 + ox, lz = ck * 4 + oz;
                const double *dcol = nc->density[k];
                uint8_t *col = out + (size_t)(lz * 16 + lx) * WG_HEIGHT;
                int top = WG_HEIGHT - 1;
                while (top >= 0 && !(dcol[top] > 0.0)) top--;
                int lim = top + 16;
                for (int j = 0; j < WG_HEIGHT; j++) {
                    double dens = dcol[j];
                    if (dens > 0.0)
                        col[j] = WG_STONE;
                    else if (j > lim && j + WG_MIN_Y >= WG_SEA_LEVEL)
                        col[j] = WG_AIR;
                    else
                        col[j] = (uint8_t)wg_aquifer_substance(&nc->aquifer, nc->x0 + lx,
                                                               j + WG_MIN_Y, nc->z0 + lz, dens);
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
    double corner[2][2][WG_INTERP_COUNT][CELLS_Y + 1];
    uint8_t have[CELLS_Y + 1] = {0};
    wg_pt p;
    wg_pt_init(&p, st);
    int32_t gx = (x >> 2) * 4, gz = (z >> 2) * 4; /* cell corner (cells are 4 wide) */
    p.snap_x0 = (x >> 4) * 4;
    p.snap_z0 = (z >> 4) * 4;
    p.snap_n = 4;
    double interp[WG_INTERP_COUNT] = {0};
    double fx = (double)(x - gx) / 4.0, fz = (double)(z - gz) / 4.0;
    *first_solid = 0;
    for (int cj = top_cell; cj >= 0; cj--) {
        for (int j = cj; j <= cj + 1; j++) {
            if (have[j]) continue;
            have[j] = 1;
            p.interp = NULL;
            for (int a = 0; a < 2; a++)
                for (int d = 0; d < 2; d++) {
                    wg_pt_at(&p, gx + a * 4, WG_MIN_Y + j * WG_CELL_HEIGHT, gz + d * 4);
                    for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++) {
                        int k = wg_final_slots[s];
                        corner[a][d][k][j] = wg_interp_args[k](&p);
                    }
                }
        }
        p.interp = interp;
        for (int oy = WG_CELL_HEIGHT - 1; oy >= 0; oy--) {
            int y = WG_MIN_Y + cj * WG_CELL_HEIGHT + oy;
            double fy = (double)oy / (double)WG_CELL_HEIGHT;
            for (int s = 0; s < WG_FINAL_SLOT_COUNT; s++) {
                int k = wg_final_slots[s];
                double c[2][2][2];
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++)
                        for (int d = 0; d < 2; d++) c[a][b][d] = corner[a][d][k][cj + b];
                interp[k] = interp_cell(c, fx, fy, fz);
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
