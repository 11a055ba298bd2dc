/*
 * bed_rules.c — see bed_rules.h. Pure functions of their arguments; the
 * stand-up search reads the world only through its callback.
 */
#include "game/bed_rules.h"

#include <math.h>
#include <stddef.h>

const int bed_dir_dx[4] = {0, -1, 0, 1}, bed_dir_dz[4] = {1, 0, -1, 0};

int bed_dir_of_yaw(float yaw)
{
    return (int)floor(yaw / 90.0 + 0.5) & 3;
}

/* Mth.cos: vanilla's 65536-entry sine table, in float. */
static float mth_cos(float f)
{
    int i = (int)(f * 10430.378f + 16384.0f) & 65535;
    return (float)sin(i * M_PI * 2.0 / 65536.0);
}

bool bed_is_day(int64_t day_time, bool rain, bool thunder)
{
    /* DimensionType.timeOfDay (float), then Level.updateSkyBrightness with
     * Mth.cos, so the window's edges fall on vanilla's ticks. */
    double t = (double)(((day_time % 24000) + 24000) % 24000) / 24000.0 - 0.25;
    t -= floor(t);
    float tod = (float)(t * 2.0 + (0.5 - cos(t * M_PI) / 2.0)) / 3.0f;
    double d0 = 1.0 - (rain ? 5.0 / 16.0 : 0.0); /* getRainLevel 1 or 0 */
    double d1 = 1.0 - (thunder ? 5.0 / 16.0 : 0.0);
    double c = mth_cos(tod * ((float)M_PI * 2.0f));
    double d2 = 0.5 + 2.0 * fmin(fmax(c, -0.25), 0.25);
    int sky_darken = (int)((1.0 - d2 * d0 * d1) * 11.0);
    return sky_darken < 4;
}

void bed_head_of(int32_t x, int32_t z, int dir, int32_t *hx, int32_t *hz)
{
    *hx = x + bed_dir_dx[dir & 3];
    *hz = z + bed_dir_dz[dir & 3];
}

int bed_sleepers_needed(int active, int percentage)
{
    /* Math.max(1, Mth.ceil((float)(active * percentage) / 100.0F)) */
    int n = (int)ceilf((float)((int64_t)active * percentage) / 100.0f);
    return n > 1 ? n : 1;
}

int64_t bed_next_morning(int64_t day_time)
{
    int64_t l = day_time + 24000;
    return l - l % 24000;
}

float bed_yaw_toward(double x, double z, int32_t bx, int32_t bz)
{
    double lx = bx + 0.5 - x, lz = bz + 0.5 - z;
    double yaw = atan2(lz, lx) * 180.0 / M_PI - 90.0;
    yaw = fmod(yaw, 360.0); /* Mth.wrapDegrees */
    if (yaw >= 180.0) yaw -= 360.0;
    if (yaw < -180.0) yaw += 360.0;
    return (float)yaw;
}

/* Direction.isFacingAngle: the direction's normal against the yaw's look. */
static bool facing_angle(int dir, float yaw)
{
    float f = yaw * ((float)M_PI / 180.0f);
    return (float)bed_dir_dx[dir] * -sinf(f) + (float)bed_dir_dz[dir] * cosf(f) > 0.0f;
}

/* DismountHelper.findSafeDismountLocation for a player at the cell
 * (x, y, z); `simple`: dangerous blocks refuse too. */
static bool dismount_at(bed_cell_fn cell, void *ctx, int32_t x, int32_t y, int32_t z, bool simple,
                        double out[3])
{
    struct bed_cell here = cell(ctx, x, y, z);
    if (simple && here.dangerous) return false;
    /* CollisionGetter.getBlockFloorHeight */
    double floor_h;
    if (here.top > 0) {
        floor_h = here.top;
    } else {
        struct bed_cell below = cell(ctx, x, y - 1, z);
        if (below.top < 1.0) return false; /* -infinity */
        floor_h = below.top - 1.0;
        if (simple && floor_h <= 0 && below.dangerous) return false;
    }
    if (floor_h >= 1.0) return false; /* isBlockFloorValid */
    /* the player's 0.6 × 1.8 box standing there: only this column */
    double lo = y + floor_h, hi = lo + 1.8;
    for (int32_t k = (int32_t)floor(lo); k < hi; k++) {
        struct bed_cell c = k == y ? here : cell(ctx, x, k, z);
        if (c.top > 0 && k + c.top > lo && k < hi) return false;
    }
    out[0] = x + 0.5, out[1] = lo, out[2] = z + 0.5;
    return true;
}

static bool first_fit(bed_cell_fn cell, void *ctx, int32_t x, int32_t y, int32_t z,
                      const int (*off)[2], size_t n, bool simple, double out[3])
{
    for (size_t i = 0; i < n; i++)
        if (dismount_at(cell, ctx, x + off[i][0], y, z + off[i][1], simple, out)) return true;
    return false;
}

bool bed_stand_up(bed_cell_fn cell, void *ctx, int32_t x, int32_t y, int32_t z, int dir, float yaw,
                  double out[3])
{
    dir &= 3;
    int cw = (dir + 1) & 3; /* Direction.getClockWise */
    int side = facing_angle(cw, yaw) ? (cw + 2) & 3 : cw;
    int sx = bed_dir_dx[side], sz = bed_dir_dz[side], dx = bed_dir_dx[dir], dz = bed_dir_dz[dir];
    /* BedBlock.bedSurroundStandUpOffsets, then bedAboveStandUpOffsets */
    const int offsets[12][2] = {
        {sx, sz},
        {sx - dx, sz - dz},
        {sx - dx * 2, sz - dz * 2},
        {-dx * 2, -dz * 2},
        {-sx - dx * 2, -sz - dz * 2},
        {-sx - dx, -sz - dz},
        {-sx, -sz},
        {-sx + dx, -sz + dz},
        {dx, dz},
        {sx + dx, sz + dz},
        {0, 0},
        {-dx, -dz},
    };
    const int(*surround)[2] = offsets, (*above)[2] = offsets + 10;
    if (!cell(ctx, x, y - 1, z).bed) /* not a bunk bed */
        return first_fit(cell, ctx, x, y, z, offsets, 12, true, out) ||
               first_fit(cell, ctx, x, y, z, offsets, 12, false, out);
    /* findBunkBedStandUpPosition */
    for (int simple = 1; simple >= 0; simple--)
        if (first_fit(cell, ctx, x, y, z, surround, 10, simple, out) ||
            first_fit(cell, ctx, x, y - 1, z, surround, 10, simple, out) ||
            first_fit(cell, ctx, x, y, z, above, 2, simple, out))
            return true;
    return false;
}
