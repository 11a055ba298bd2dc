/*
 * explosion_rules.c — see explosion_rules.h: vanilla 1.20.1's explosion
 * arithmetic on a world given by callbacks.
 *
 * The rays follow Explosion.explode step for step, in vanilla's float and
 * double mix (the intensity is a float, the position doubles moved by
 * direction × 0.3f), so a given sequence of random draws reaches the same
 * blocks vanilla's would. The exposure (ex_seen_percent) samples the box
 * on vanilla's grid; its line test treats every block with a collision box
 * as a full cube (mcserv's collision model, game/mob_rules.c), where
 * vanilla clips against the block's real shape: a slab or a fence stops a
 * sample that vanilla's would let past (docs/design.md, "Explosions").
 *
 * Invariants:
 *  1. Pure: no global state; the callbacks are the only way to the world.
 *  2. Bounded: the power is clamped to EX_POWER_MAX, so a ray takes at
 *     most 93 steps and every position lies within 28 blocks of the centre;
 *     at most `cap` positions are written; a line test walks at most the
 *     blocks between its ends (and refuses lines over 512 blocks).
 */
#include "game/explosion_rules.h"

#include <math.h>
#include <stdlib.h>

#include "core/xorshift.h"
#include "data/packet_ids.h"
#include "proto/wire.h"

#define EX_GRID      16
#define EX_STEP      0.3f
#define EX_STEP_LOSS 0.22500001f
#define EX_LINE_MAX  512.0

/* Uniform in [0, 1), 24 bits as Java's nextFloat (core/xorshift.h). */
static float next_float(uint64_t *s)
{
    return (float)(xorshift64(s) >> 40) / (float)(1u << 24);
}

static uint64_t key_of(int32_t x, int32_t y, int32_t z, int32_t bx, int32_t by, int32_t bz)
{
    return (uint64_t)(uint16_t)(x - bx + 32768) << 32 | (uint64_t)(uint16_t)(y - by + 32768) << 16 |
           (uint16_t)(z - bz + 32768);
}

long ex_rays(ex_resist_fn resist, void *ctx, double x, double y, double z, float power,
             uint64_t *rng, struct ex_pos *out, size_t cap)
{
    if (!(power > 0.0f) || !isfinite(x) || !isfinite(y) || !isfinite(z) || cap == 0) return 0;
    if (power > EX_POWER_MAX) power = EX_POWER_MAX;
    size_t hcap = 64;
    while (hcap < cap * 2) hcap *= 2;
    uint64_t *set = calloc(hcap, sizeof *set); /* keys are never 0 (invariant 2) */
    if (!set) return -1;
    int32_t bx = (int32_t)floor(x), by = (int32_t)floor(y), bz = (int32_t)floor(z);
    size_t n = 0;
    for (int j = 0; j < EX_GRID; j++)
        for (int k = 0; k < EX_GRID; k++)
            for (int l = 0; l < EX_GRID; l++) {
                if (j != 0 && j != EX_GRID - 1 && k != 0 && k != EX_GRID - 1 && l != 0 &&
                    l != EX_GRID - 1)
                    continue;
                double dx = (double)((float)j / 15.0f * 2.0f - 1.0f);
                double dy = (double)((float)k / 15.0f * 2.0f - 1.0f);
                double dz = (double)((float)l / 15.0f * 2.0f - 1.0f);
                double len = sqrt(dx * dx + dy * dy + dz * dz);
                dx /= len, dy /= len, dz /= len;
                float h = power * (0.7f + next_float(rng) * 0.6f);
                double px = x, py = y, pz = z;
                for (; h > 0.0f; h -= EX_STEP_LOSS) {
                    int32_t ix = (int32_t)floor(px), iy = (int32_t)floor(py),
                            iz = (int32_t)floor(pz);
                    float r = resist(ctx, ix, iy, iz);
                    if (r == EX_STOP) break;
                    if (r >= 0.0f) h -= (r + 0.3f) * 0.3f;
                    if (h > 0.0f && n < cap) {
                        uint64_t key = key_of(ix, iy, iz, bx, by, bz);
                        size_t s = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (hcap - 1);
                        while (set[s] && set[s] != key) s = (s + 1) & (hcap - 1);
                        if (!set[s]) {
                            set[s] = key;
                            out[n++] = (struct ex_pos){ix, iy, iz};
                        }
                    }
                    px += dx * EX_STEP, py += dy * EX_STEP, pz += dz * EX_STEP;
                }
            }
    free(set);
    return (long)n;
}

bool ex_line_clear(ex_solid_fn solid, void *ctx, const double a[3], const double b[3])
{
    double d[3], tmax[3], tdelta[3];
    int32_t v[3], end[3], step[3];
    double len2 = 0;
    for (int i = 0; i < 3; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i])) return false;
        d[i] = b[i] - a[i];
        len2 += d[i] * d[i];
    }
    if (len2 > EX_LINE_MAX * EX_LINE_MAX) return false;
    for (int i = 0; i < 3; i++) {
        v[i] = (int32_t)floor(a[i]);
        end[i] = (int32_t)floor(b[i]);
        if (d[i] > 0) {
            step[i] = 1;
            tmax[i] = (v[i] + 1 - a[i]) / d[i];
            tdelta[i] = 1.0 / d[i];
        } else if (d[i] < 0) {
            step[i] = -1;
            tmax[i] = (a[i] - v[i]) / -d[i];
            tdelta[i] = -1.0 / d[i];
        } else {
            step[i] = 0;
            tmax[i] = tdelta[i] = INFINITY;
        }
    }
    if (solid(ctx, v[0], v[1], v[2])) return false;
    int left = abs(end[0] - v[0]) + abs(end[1] - v[1]) + abs(end[2] - v[2]);
    while (left-- > 0) {
        int ax = tmax[0] < tmax[1] ? (tmax[0] < tmax[2] ? 0 : 2) : (tmax[1] < tmax[2] ? 1 : 2);
        if (tmax[ax] > 1.0) break;
        v[ax] += step[ax];
        tmax[ax] += tdelta[ax];
        if (solid(ctx, v[0], v[1], v[2])) return false;
    }
    return true;
}

float ex_seen_percent(ex_solid_fn solid, void *ctx, const double c[3], const double min[3],
                      const double max[3])
{
    double dx = 1.0 / ((max[0] - min[0]) * 2.0 + 1.0);
    double dy = 1.0 / ((max[1] - min[1]) * 2.0 + 1.0);
    double dz = 1.0 / ((max[2] - min[2]) * 2.0 + 1.0);
    if (!(dx > 0) || !(dy > 0) || !(dz > 0)) return 0.0f;
    double gx = (1.0 - floor(1.0 / dx) * dx) / 2.0;
    double gz = (1.0 - floor(1.0 / dz) * dz) / 2.0;
    int seen = 0, all = 0;
    for (float k = 0.0f; k <= 1.0f; k = (float)((double)k + dx))
        for (float l = 0.0f; l <= 1.0f; l = (float)((double)l + dy))
            for (float m = 0.0f; m <= 1.0f; m = (float)((double)m + dz)) {
                double p[3] = {min[0] + k * (max[0] - min[0]) + gx, min[1] + l * (max[1] - min[1]),
                               min[2] + m * (max[2] - min[2]) + gz};
                if (ex_line_clear(solid, ctx, p, c)) seen++;
                all++;
            }
    return all ? (float)seen / (float)all : 0.0f;
}

bool ex_entity_hit(const double c[3], float power, const double feet[3], double eye_y, float seen,
                   struct ex_hit *out)
{
    if (power > EX_POWER_MAX) power = EX_POWER_MAX;
    double q = power * 2.0f;
    double fx = feet[0] - c[0], fy = feet[1] - c[1], fz = feet[2] - c[2];
    double w = sqrt(fx * fx + fy * fy + fz * fz) / q;
    if (!(q > 0) || !(w <= 1.0)) return false;
    double x = fx, y = eye_y - c[1], z = fz;
    double len = sqrt(x * x + y * y + z * z);
    if (len == 0.0 || !isfinite(len)) return false;
    x /= len, y /= len, z /= len;
    double a = (1.0 - w) * seen;
    out->impact = a;
    out->damage = (float)(int)((a * a + a) / 2.0 * 7.0 * q + 1.0);
    out->kx = x * a, out->ky = y * a, out->kz = z * a;
    return true;
}

float ex_difficulty_scale(float damage, int difficulty)
{
    switch (difficulty) {
    case 0: return 0.0f;
    case 1: return fminf(damage / 2.0f + 1.0f, damage);
    case 3: return damage * 1.5f;
    default: return damage;
    }
}

int ex_decay_count(int count, float power, uint64_t *rng)
{
    if (!(power > 1.0f)) return count;
    float keep = 1.0f / power;
    int n = 0;
    for (int i = 0; i < count; i++)
        if (next_float(rng) <= keep) n++;
    return n;
}

void ex_write_packet(buf_t *b, const double c[3], float power, const struct ex_pos *blocks,
                     size_t n, float mx, float my, float mz)
{
    int32_t bx = (int32_t)floor(c[0]), by = (int32_t)floor(c[1]), bz = (int32_t)floor(c[2]);
    size_t fit = 0;
    for (size_t i = 0; i < n; i++)
        if (abs(blocks[i].x - bx) <= 127 && abs(blocks[i].y - by) <= 127 &&
            abs(blocks[i].z - bz) <= 127)
            fit++;
    wr_varint(b, PKT_PLAY_CB_EXPLOSION);
    wr_f64(b, c[0]);
    wr_f64(b, c[1]);
    wr_f64(b, c[2]);
    wr_f32(b, power);
    wr_varint(b, (int32_t)fit);
    for (size_t i = 0; i < n; i++) {
        int32_t ox = blocks[i].x - bx, oy = blocks[i].y - by, oz = blocks[i].z - bz;
        if (abs(ox) > 127 || abs(oy) > 127 || abs(oz) > 127) continue;
        wr_u8(b, (uint8_t)(int8_t)ox);
        wr_u8(b, (uint8_t)(int8_t)oy);
        wr_u8(b, (uint8_t)(int8_t)oz);
    }
    wr_f32(b, mx);
    wr_f32(b, my);
    wr_f32(b, mz);
}
