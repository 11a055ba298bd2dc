/*
 * spawnpoint.c — see spawnpoint.h. A small array searched linearly: it is
 * touched by /spawnpoint and on respawn only.
 */
#include "game/spawnpoint.h"

#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/beds.h" /* issue 21 */
#include "game/game.h"
#include "proto/packets.h"

struct point {
    mc_uuid uuid;
    int32_t x, y, z;
    float angle;
    bool forced;     /* /spawnpoint's; false: a bed's */
    uint64_t set_at; /* larger = set later */
};

static struct point points[SPAWNPOINT_MAX];
static size_t count;
static uint64_t clock_n;

static struct point *find(const mc_uuid *u)
{
    for (size_t i = 0; i < count; i++)
        if (memcmp(points[i].uuid.b, u->b, 16) == 0) return &points[i];
    return NULL;
}

void spawnpoint_set(const mc_uuid *uuid, int32_t x, int32_t y, int32_t z, float angle, bool forced)
{
    struct point *p = find(uuid);
    if (!p && count == SPAWNPOINT_MAX) {
        size_t old = 0;
        for (size_t i = 1; i < count; i++)
            if (points[i].set_at < points[old].set_at) old = i;
        points[old] = points[--count];
    }
    if (!p) p = &points[count++];
    *p = (struct point){*uuid, x, y, z, angle, forced, ++clock_n};
}

bool spawnpoint_get(const mc_uuid *uuid, int32_t *x, int32_t *y, int32_t *z, float *angle,
                    bool *forced)
{
    const struct point *p = find(uuid);
    if (!p) return false;
    *x = p->x, *y = p->y, *z = p->z, *angle = p->angle, *forced = p->forced;
    return true;
}

void spawnpoint_forget(const mc_uuid *uuid)
{
    struct point *p = find(uuid);
    if (p) *p = points[--count];
}

/* vanilla Block.isPossibleToRespawnInThis: not solid, not a liquid; a block
 * not loaded cannot be checked and is taken as free. */
static bool free_block(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return true;
    if ((st >= BLOCK_WATER && st <= BLOCK_WATER + 15) ||
        (st >= BLOCK_LAVA && st <= BLOCK_LAVA + 15))
        return false;
    return !(block_info[block_of_state[st]].flags & BLOCK_FLAG_SOLID);
}

void spawnpoint_respawn(conn *c)
{
    player *p = c->player;
    struct point *s = find(&p->uuid);
    if (!s) return;
    /* Player.findRespawnPositionAndUseSpawnBlock: a bed (forced or not)
     * stands the player up beside it; any other block only when forced. */
    uint16_t st;
    bool loaded = world_get_block(&game.world, s->x, s->y, s->z, &st) == 0;
    if (loaded && beds_is_bed(st)) {
        double v[3];
        float yaw;
        if (beds_respawn_at(s->x, s->y, s->z, st, s->angle, v, &yaw)) {
            p->x = v[0], p->y = v[1], p->z = v[2];
            p->yaw = s->angle = yaw; /* PlayerList.respawn: facing the bed */
            return;
        }
    } else if (!loaded && !s->forced) {
        /* The bed's chunk is not held (mcserv loads no chunk on the game
         * thread): on the bed's top, as its last stand-up candidate. */
        p->x = s->x + 0.5, p->y = s->y + 0.5625, p->z = s->z + 0.5;
        return;
    } else if (s->forced && free_block(s->x, s->y, s->z) && free_block(s->x, s->y + 1, s->z)) {
        p->x = s->x + 0.5;
        p->y = s->y + 0.1;
        p->z = s->z + 0.5;
        p->yaw = s->angle;
        return;
    }
    *s = points[--count]; /* vanilla's new player has no respawn point */
    buf_reset(&srv->pkt);
    pkt_cb_game_state_change(&srv->pkt, 0, 0.0f); /* NO_RESPAWN_BLOCK_AVAILABLE */
    conn_send_pkt(c);
}
