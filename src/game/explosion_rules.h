/*
 * explosion_rules.h — the pure arithmetic of vanilla 1.20.1's explosions
 * (Explosion.explode, getSeenPercent, ClientboundExplodePacket), with the
 * world reached only through callbacks, so the unit tests run it on
 * made-up worlds (tests/unit/test_explosion.c). game/explosion.c applies
 * it to the real world. Part of PURE_SRC: no game state.
 */
#ifndef MC_EXPLOSION_RULES_H
#define MC_EXPLOSION_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

#define EX_POWER_MAX 16.0f   /* larger powers are clamped (summon's ExplosionPower, TNT 4) */
#define EX_AIR       (-1.0f) /* resist(): air with no fluid: the ray goes on unhindered */
#define EX_STOP      (-2.0f) /* resist(): outside the world or unloaded: the ray ends */

/* The world as the rays see it: the blast resistance at a block (the larger
 * of the block's and its fluid's), EX_AIR or EX_STOP. */
typedef float (*ex_resist_fn)(void *ctx, int32_t x, int32_t y, int32_t z);
/* A block with a collision box (for the exposure's line of sight). */
typedef bool (*ex_solid_fn)(void *ctx, int32_t x, int32_t y, int32_t z);

struct ex_pos {
    int32_t x, y, z;
};

/*
 * Explosion.explode's rays: from each of the 1,352 cells on the surface of
 * a 16×16×16 grid a ray leaves the centre (x, y, z) with intensity
 * power × (0.7 + r × 0.6) (r uniform in [0, 1) from *rng, xorshift64),
 * stepping 0.3 blocks and losing 0.225 per step and (resistance + 0.3) ×
 * 0.3 in each non-air block; every block a ray reaches with intensity left
 * is affected (air ones too, as vanilla lists them). Writes the distinct
 * positions to out (at most cap, in the order first reached) and returns
 * how many; -1 when out of memory.
 */
long ex_rays(ex_resist_fn resist, void *ctx, double x, double y, double z, float power,
             uint64_t *rng, struct ex_pos *out, size_t cap);

/* True when the segment from a to b crosses no solid block (vanilla's clip
 * with ClipContext.Block.COLLIDER, full blocks only). */
bool ex_line_clear(ex_solid_fn solid, void *ctx, const double a[3], const double b[3]);

/* Explosion.getSeenPercent: the share of points on a grid over the box
 * (min, max) with a clear line to the centre c, 0..1. */
float ex_seen_percent(ex_solid_fn solid, void *ctx, const double c[3], const double min[3],
                      const double max[3]);

/* One entity's share of an explosion (Explosion.explode's entity loop). */
struct ex_hit {
    float damage;      /* (int)((a² + a) / 2 × 7 × 2·power + 1) */
    double kx, ky, kz; /* knockback: the direction × a */
    double impact;     /* a = (1 − distance / (2·power)) × seen */
};
/* For an entity with feet at `feet`, eyes at eye_y and exposure `seen`:
 * false when it is farther than 2·power from the centre c or at it. */
bool ex_entity_hit(const double c[3], float power, const double feet[3], double eye_y, float seen,
                   struct ex_hit *out);

/* Player.hurt's difficulty scaling of damage types with scaling "always"
 * (explosion, player_explosion): peaceful 0, easy min(d / 2 + 1, d),
 * normal d, hard d × 1.5. */
float ex_difficulty_scale(float damage, int difficulty);

/* The item count left of `count` when each survives with chance 1/power
 * (the loot tables' explosion_decay and survives_explosion under
 * DESTROY_WITH_DECAY). */
int ex_decay_count(int count, float power, uint64_t *rng);

/* ClientboundExplodePacket (1.20.1, PKT_PLAY_CB_EXPLOSION): centre, power,
 * the affected blocks as byte offsets from the centre's block, and the
 * receiving player's knockback. Appends the packet (id + payload) to b;
 * positions farther than 127 blocks are left out. */
void ex_write_packet(buf_t *b, const double c[3], float power, const struct ex_pos *blocks,
                     size_t n, float mx, float my, float mz);

#endif
