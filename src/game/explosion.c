/*
 * explosion.c — see explosion.h. Vanilla 1.20.1's ServerLevel.explode in
 * the order vanilla runs it:
 *
 *   1. rays (Explosion.explode): the blocks reached, from
 *      explosion_rules.c's ex_rays over the world's blast resistances
 *      (data/blast_table.c; a fluid counts with 100, as water's and lava's
 *      FluidState resistance; an unloaded chunk ends a ray, so an
 *      explosion never loads or generates one). Skipped when the rule
 *      keeps blocks (vanilla computes them and clears the list).
 *   2. entities within 2 × power (Explosion.explode, with the blocks still
 *      there): mobs (not the source) and players, each hurt by
 *      (int)((a² + a) / 2 × 7 × 2·power + 1) where a = (1 − distance /
 *      (2·power)) × the share of its box that sees the centre; the damage
 *      type is player_explosion ("was blown up by Creeper") when a mob made
 *      it, else explosion ("blew up"); players' damage is scaled by the
 *      difficulty (Player.hurt). Mobs get the knockback a × direction
 *      added to their motion; players get it in their Explosion packet
 *      (vanilla's hitPlayers: not spectators).
 *   3. blocks (finalizeExplosion), in a shuffled order: a container's items
 *      spill, a door's other half goes (as a break), the block's loot
 *      (loot_drops_exploded: no tool) is collected, each item kept with
 *      chance 1/power under the DECAY rule, and the block becomes air
 *      through play_set_block, so the tick's Block Update / Update Section
 *      Blocks reach every viewer and light is recomputed; TNT drops
 *      nothing (TntBlock.dropFromExplosion). The drops are merged as
 *      vanilla's addBlockDrops (equal items into stacks of up to 16) and
 *      spawned as item entities the way Block.popResource does.
 *   4. the Explosion packet (explosion_rules.c) to every player within 64
 *      blocks of the centre, with the blocks when the rule destroys (the
 *      client removes them, plays the sound and shows the particles) and
 *      that player's knockback.
 *
 * Departures (docs/design.md, "Explosions"): item entities, experience
 * orbs and other explosions' TNT are not hurt or pushed (vanilla destroys
 * dropped items in a blast); a TNT block in the blast is removed without
 * priming; no fire; the exposure's line test uses full blocks.
 *
 * Invariants:
 *  1. Game thread only. Nothing is allocated per explosion but the rays'
 *     set (explosion_rules.c) and the arrays below, which grow to the
 *     largest explosion and the number of players, capped.
 *  2. At most EX_BLOCKS_MAX positions and EX_MOBS_MAX mobs per explosion:
 *     a blast at EX_POWER_MAX reaches far fewer.
 */
#include "game/explosion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/blast_table.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "data/combat_table.h"
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/blockuse.h"
#include "game/container.h"
#include "game/explosion_rules.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/health.h"
#include "game/items.h"
#include "game/loot.h"
#include "game/mobs.h"
#include "game/play.h"
#include "net/server.h"
#include "world/block_state.h"
#include "world/chunk.h"

#define EX_BLOCKS_MAX   32768 /* positions one explosion may list */
#define EX_MOBS_MAX     4096  /* mobs one explosion may hurt */
#define EX_DROPS_MAX    512   /* merged drop stacks one explosion may spawn */
#define EX_PACKET_RANGE 64.0  /* ServerLevel.explode: players within 64 blocks get the packet */
#define EX_MERGE_LIMIT  16    /* Explosion.addBlockDrops merges into stacks of up to 16 */
#define PLAYER_WIDTH    0.6
#define PLAYER_HEIGHT   1.8
#define PLAYER_EYES     1.62
#define FLUID_RESIST    100.0f /* FluidState.getExplosionResistance of water and lava */

struct ex_drop {
    int16_t item;
    int16_t count;
    int32_t x, y, z;
};

struct ex_viewer {
    conn *c;
    float kx, ky, kz;
};

static float *state_resist; /* per block state: EX_AIR or the resistance (lazily built) */
static struct ex_pos *blocks;
static int32_t mob_hits[EX_MOBS_MAX];
static struct ex_drop drops[EX_DROPS_MAX];
static struct ex_viewer *viewers;
static size_t viewers_cap;
static uint64_t rng = 0x2545f4914f6cdd1dull;

static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Blocks that hold water without a waterlogged property (their FluidState is water). */
static bool always_wet(int block)
{
    static const char *const wet[] = {"water",    "lava",          "kelp",         "kelp_plant",
                                      "seagrass", "tall_seagrass", "bubble_column"};
    for (size_t i = 0; i < sizeof wet / sizeof wet[0]; i++)
        if (strcmp(block_info[block].name, wet[i]) == 0) return true;
    return false;
}

static bool build_resist(void)
{
    if (state_resist) return true;
    float *t = malloc(BLOCK_STATE_COUNT * sizeof *t);
    if (!t) return false;
    for (int s = 0; s < BLOCK_STATE_COUNT; s++) {
        int b = block_of_state[s];
        const char *wl = NULL;
        bool fluid = always_wet(b) || (block_state_prop((uint16_t)s, "waterlogged", &wl) >= 0 &&
                                       wl && strcmp(wl, "true") == 0);
        const char *n = block_info[b].name;
        bool air = !strcmp(n, "air") || !strcmp(n, "cave_air") || !strcmp(n, "void_air");
        float r = block_blast_resistance[b];
        if (fluid && r < FLUID_RESIST) r = FLUID_RESIST;
        t[s] = air && !fluid ? EX_AIR : r;
    }
    state_resist = t;
    return true;
}

static float world_resist(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return EX_STOP; /* isInWorldBounds */
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0 || st >= BLOCK_STATE_COUNT) return EX_STOP;
    return state_resist[st];
}

enum ex_blocks explosion_rule(enum ex_cause cause)
{
    if (cause == EX_CAUSE_TNT)
        return gamerule_on(GR_TNT_EXPLOSION_DROP_DECAY) ? EX_DESTROY_DECAY : EX_DESTROY;
    if (!gamerule_on(GR_MOB_GRIEFING)) return EX_KEEP;
    return gamerule_on(GR_MOB_EXPLOSION_DROP_DECAY) ? EX_DESTROY_DECAY : EX_DESTROY;
}

/* ------------------------------------------------------------ entities */

static void hurt_mobs(const struct explosion *e, const double c[3], int type)
{
    struct mob_filter f = {
        .type = -1, .x = c[0], .y = c[1], .z = c[2], .dmin = 0, .dmax = e->power * 2.0};
    size_t n = mobs_select(&f, mob_hits, EX_MOBS_MAX);
    for (size_t i = 0; i < n; i++) {
        if (mobs_eid(mob_hits[i]) == e->source_eid) continue;
        double b[5];
        mobs_box(mob_hits[i], b);
        double lo[3] = {b[0] - b[3], b[1], b[2] - b[3]},
               hi[3] = {b[0] + b[3], b[1] + b[4], b[2] + b[3]};
        float seen = ex_seen_percent(mob_solid_at, NULL, c, lo, hi);
        struct ex_hit h;
        if (ex_entity_hit(c, e->power, b, b[1] + b[4] * 0.85, seen, &h))
            mobs_explosion_hit(mob_hits[i], type, h.damage, h.kx, h.ky, h.kz, e->source_eid);
    }
}

/* Players within the packet's range are collected (with their knockback);
 * those within 2 × power are hurt. The number collected. */
static size_t hurt_players(const struct explosion *e, const double c[3], int type)
{
    if (game.player_count > viewers_cap) {
        size_t cap = game.player_count + 64;
        struct ex_viewer *v = realloc(viewers, cap * sizeof *v);
        if (!v) return 0;
        viewers = v;
        viewers_cap = cap;
    }
    size_t n = 0;
    int difficulty = gamerules_difficulty();
    for (size_t i = 0; i < game.player_count && n < viewers_cap; i++) {
        conn *pc = game.players[i];
        player *p = pc->player;
        if (!p || pc->closed || !p->spawned) continue;
        double dx = p->x - c[0], dy = p->y - c[1], dz = p->z - c[2];
        if (dx * dx + dy * dy + dz * dz >= EX_PACKET_RANGE * EX_PACKET_RANGE) continue;
        struct ex_viewer *v = &viewers[n++];
        *v = (struct ex_viewer){pc, 0, 0, 0};
        if (p->gamemode == 3 || !(p->health > 0)) continue; /* spectators: ignored */
        double feet[3] = {p->x, p->y, p->z};
        double lo[3] = {p->x - PLAYER_WIDTH / 2, p->y, p->z - PLAYER_WIDTH / 2};
        double hi[3] = {p->x + PLAYER_WIDTH / 2, p->y + PLAYER_HEIGHT, p->z + PLAYER_WIDTH / 2};
        struct ex_hit h;
        if (!ex_entity_hit(c, e->power, feet, p->y + PLAYER_EYES,
                           ex_seen_percent(mob_solid_at, NULL, c, lo, hi), &h))
            continue;
        v->kx = (float)h.kx, v->ky = (float)h.ky, v->kz = (float)h.kz;
        if (e->source_eid && e->name) /* scaled by the difficulty there, as below */
            health_hurt_by_mob(pc, type, h.damage, e->source_eid, e->source_eid, e->name);
        else if (ex_difficulty_scale(h.damage, difficulty) > 0.0f)
            health_hurt(pc, type, ex_difficulty_scale(h.damage, difficulty), NULL);
    }
    return n;
}

/* ------------------------------------------------------------ blocks */

/* Explosion.addBlockDrops: into equal stacks below the merge limit first. */
static size_t add_drop(size_t nd, int item, int count, const struct ex_pos *at)
{
    int max =
        item_info[item].stack_size < EX_MERGE_LIMIT ? item_info[item].stack_size : EX_MERGE_LIMIT;
    for (size_t i = 0; i < nd && count > 0; i++) {
        if (drops[i].item != item || drops[i].count >= max) continue;
        int move = max - drops[i].count < count ? max - drops[i].count : count;
        drops[i].count = (int16_t)(drops[i].count + move);
        count -= move;
    }
    if (count > 0 && nd < EX_DROPS_MAX)
        drops[nd++] = (struct ex_drop){(int16_t)item, (int16_t)count, at->x, at->y, at->z};
    return nd;
}

static int blow_blocks(size_t n, enum ex_blocks rule, float power)
{
    for (size_t i = n; i > 1; i--) { /* Collections.shuffle */
        size_t j = (size_t)(rnd() * (double)i);
        struct ex_pos t = blocks[i - 1];
        blocks[i - 1] = blocks[j];
        blocks[j] = t;
    }
    size_t nd = 0;
    int destroyed = 0;
    uint16_t tnt = block_of_state[BLOCK_TNT];
    for (size_t i = 0; i < n; i++) {
        const struct ex_pos *b = &blocks[i];
        uint16_t st;
        if (world_get_block(&game.world, b->x, b->y, b->z, &st) < 0 || state_resist[st] == EX_AIR)
            continue;
        int block = block_of_state[st];
        if (block_info[block].flags & BLOCK_FLAG_UNBREAKABLE)
            continue; /* bedrock, barriers, portals: their resistance stops rays anyway */
        if (block != tnt) {
            struct loot_drop d[LOOT_MAX_DROPS];
            int k = loot_drops_exploded(st, &rng, d, LOOT_MAX_DROPS);
            for (int q = 0; q < k; q++) {
                int count =
                    rule == EX_DESTROY_DECAY ? ex_decay_count(d[q].count, power, &rng) : d[q].count;
                if (count > 0) nd = add_drop(nd, d[q].item, count, b);
            }
        }
        container_drop_contents(b->x, b->y, b->z);
        blockuse_removing(b->x, b->y, b->z, st);
        if (play_set_block(b->x, b->y, b->z, BLOCK_AIR) == 0) destroyed++;
    }
    double half = entity_types[ENTITY_TYPE_ITEM].height / 2.0;
    for (size_t i = 0; i < nd; i++) { /* Block.popResource */
        const struct ex_drop *d = &drops[i];
        double px = d->x + 0.5 + (rnd() * 0.5 - 0.25);
        double py = d->y + 0.5 + (rnd() * 0.5 - 0.25) - half;
        double pz = d->z + 0.5 + (rnd() * 0.5 - 0.25);
        items_spawn(px, py, pz, rnd() * 0.2 - 0.1, 0.2, rnd() * 0.2 - 0.1, d->item, d->count, 10);
    }
    return destroyed;
}

/* ------------------------------------------------------------ the explosion */

int explosion_run(const struct explosion *e)
{
    float power = e->power > EX_POWER_MAX ? EX_POWER_MAX : e->power;
    if (!(power > 0.0f) || !isfinite(e->x) || !isfinite(e->y) || !isfinite(e->z)) return 0;
    if (!build_resist()) return 0;
    if (!blocks && !(blocks = malloc(EX_BLOCKS_MAX * sizeof *blocks))) return 0;
    struct explosion ex = *e;
    ex.power = power;
    const double c[3] = {e->x, e->y, e->z};
    enum ex_blocks rule = explosion_rule(e->cause);
    long n = 0;
    if (rule != EX_KEEP) {
        n = ex_rays(world_resist, NULL, c[0], c[1], c[2], power, &rng, blocks, EX_BLOCKS_MAX);
        if (n < 0) {
            log_warn("explosion at %.1f %.1f %.1f: out of memory for its blocks", c[0], c[1], c[2]);
            n = 0;
        }
    }
    int type = e->source_eid ? DAMAGE_TYPE_PLAYER_EXPLOSION : DAMAGE_TYPE_EXPLOSION;
    hurt_mobs(&ex, c, type);
    size_t nv = hurt_players(&ex, c, type);
    int destroyed = n ? blow_blocks((size_t)n, rule, power) : 0;
    for (size_t i = 0; i < nv; i++) {
        struct ex_viewer *v = &viewers[i];
        if (v->c->closed) continue;
        buf_reset(&srv->pkt);
        ex_write_packet(&srv->pkt, c, power, blocks, (size_t)n, v->kx, v->ky, v->kz);
        conn_send_pkt(v->c);
    }
    return destroyed;
}
