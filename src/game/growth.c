/*
 * growth.c — see growth.h. Random ticks come from world/block_ticks.c
 * through game/worldsim.c; every change goes through play_set_block.
 */
#include "game/growth.h"

#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/fluids.h"
#include "game/game.h"
#include "game/items.h"
#include "game/play.h"
#include "net/server.h"
#include "proto/packets.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

struct crop {
    uint16_t first; /* state of age 0 */
    int max_age;
};

static const struct crop *crop_of(uint16_t st)
{
    static const struct crop crops[] = {
        {BLOCK_WHEAT, 7}, {BLOCK_CARROTS, 7}, {BLOCK_POTATOES, 7}, {BLOCK_BEETROOTS, 3}};
    for (size_t i = 0; i < sizeof crops / sizeof crops[0]; i++)
        if (st >= crops[i].first && st <= crops[i].first + crops[i].max_age) return &crops[i];
    return NULL;
}

static bool is_farmland(uint16_t st)
{
    return st >= BLOCK_FARMLAND && st <= BLOCK_FARMLAND + 7;
}

bool growth_random_ticking(uint16_t st)
{
    const struct crop *c = crop_of(st);
    return (c && st < c->first + c->max_age) || is_farmland(st);
}

static uint16_t at(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT ||
        world_get_block(&game.world, x, y, z, &st) < 0)
        return BLOCK_BEDROCK;
    return st;
}

static bool same_crop(uint16_t st, const struct crop *c)
{
    return crop_of(st) == c;
}

/* CropBlock.getGrowthSpeed. */
static float growth_speed(const struct crop *c, int32_t x, int32_t y, int32_t z)
{
    float f = 1.0f;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++) {
            float g = 0.0f;
            uint16_t b = at(x + i, y - 1, z + j);
            if (is_farmland(b)) g = b > BLOCK_FARMLAND ? 3.0f : 1.0f;
            if (i != 0 || j != 0) g /= 4.0f;
            f += g;
        }
    bool ew = same_crop(at(x - 1, y, z), c) || same_crop(at(x + 1, y, z), c);
    bool ns = same_crop(at(x, y, z - 1), c) || same_crop(at(x, y, z + 1), c);
    if (ew && ns)
        f /= 2.0f;
    else if (same_crop(at(x - 1, y, z - 1), c) || same_crop(at(x + 1, y, z - 1), c) ||
             same_crop(at(x + 1, y, z + 1), c) || same_crop(at(x - 1, y, z + 1), c))
        f /= 2.0f;
    return f;
}

/* FarmBlock.isNearWater: water in x, z ± 4, y .. y + 1. */
static bool near_water(int32_t x, int32_t y, int32_t z)
{
    for (int dy = 0; dy <= 1; dy++)
        for (int dx = -4; dx <= 4; dx++)
            for (int dz = -4; dz <= 4; dz++)
                if (fl_of(at(x + dx, y + dy, z + dz)).type == FL_WATER) return true;
    return false;
}

void growth_random_tick(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (is_farmland(st)) {
        int m = st - BLOCK_FARMLAND;
        if (!near_water(x, y, z)) {
            if (m > 0)
                play_set_block(x, y, z, (uint16_t)(st - 1));
            else if (!crop_of(at(x, y + 1, z))) /* FarmBlock.shouldMaintainFarmland */
                play_set_block(x, y, z, BLOCK_DIRT);
        } else if (m < 7) {
            play_set_block(x, y, z, BLOCK_FARMLAND + 7);
        }
        return;
    }
    const struct crop *c = crop_of(st);
    if (!c) return;
    if (c->first == BLOCK_BEETROOTS && next() % 3 == 0) return; /* BeetrootBlock.randomTick */
    int age = st - c->first;
    if (age >= c->max_age) return;
    float f = growth_speed(c, x, y, z);
    if (next() % (uint32_t)((int)(25.0f / f) + 1) == 0)
        play_set_block(x, y, z, (uint16_t)(c->first + age + 1));
}

void growth_update(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!crop_of(st) || is_farmland(at(x, y - 1, z))) return;
    /* CropBlock.canSurvive failed: the block breaks with its drops. */
    if (play_set_block(x, y, z, BLOCK_AIR) == 0) items_drop_block(NULL, x, y, z, st, 0);
}

bool growth_bone_meal(int32_t x, int32_t y, int32_t z)
{
    uint16_t st = at(x, y, z);
    const struct crop *c = crop_of(st);
    if (!c || st >= c->first + c->max_age) return false; /* isValidBonemealTarget */
    int age = st - c->first + 2 + (int)(next() % 4);     /* Mth.nextInt(random, 2, 5) */
    if (age > c->max_age) age = c->max_age;
    if (play_set_block(x, y, z, (uint16_t)(c->first + age)) < 0) return false;
    buf_reset(&srv->pkt);
    pkt_cb_world_event(&srv->pkt, 1505, x, y, z, 0, false); /* BoneMealItem.addGrowthParticles */
    const buf_t *fr = pkt_frame_shared();
    if (fr) play_send_to_viewers(x >> 4, z >> 4, fr->data, fr->len);
    return true;
}

uint16_t growth_seed_crop(int item)
{
    static int ids[4] = {-1, -1, -1, -1};
    static const char *const names[4] = {"wheat_seeds", "carrot", "potato", "beetroot_seeds"};
    static const uint16_t crops[4] = {BLOCK_WHEAT, BLOCK_CARROTS, BLOCK_POTATOES, BLOCK_BEETROOTS};
    if (ids[0] < 0)
        for (int k = 0; k < 4; k++) {
            ids[k] = 0;
            for (int i = 1; i < ITEM_COUNT; i++)
                if (item_info[i].name && strcmp(item_info[i].name, names[k]) == 0) ids[k] = i;
        }
    for (int k = 0; k < 4; k++)
        if (item > 0 && item == ids[k]) return crops[k];
    return 0;
}
