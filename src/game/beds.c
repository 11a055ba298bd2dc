/*
 * beds.c — see beds.h. The sleepers are found by walking the players, and
 * only while `sleepers` or the last sleep status is not zero (invariant 1).
 */
#include "game/beds.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/entities.h"
#include "game/bed_rules.h"
#include "game/blockuse.h"
#include "game/border.h"
#include "game/chat.h"
#include "game/daytime.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/mobs.h"
#include "game/play.h"
#include "game/spawnpoint.h"
#include "proto/packets.h"
#include "world/block_state.h"

#define SLEEP_Y_OFFSET 0.6875 /* LivingEntity.setPosToBed */

static const char *const dir_names[4] = {"south", "west", "north", "east"};

static uint32_t sleepers;                  /* players with bed.sleeping (invariant 1) */
static int status_active, status_sleeping; /* vanilla SleepStatus, as last counted */

bool beds_is_bed(uint16_t st)
{
    if (st >= BLOCK_STATE_COUNT) return false;
    int b = block_of_state[st];
    return b >= block_of_state[BLOCK_WHITE_BED] && b <= block_of_state[BLOCK_BLACK_BED];
}

static int facing_of(uint16_t st)
{
    for (int d = 0; d < 4; d++)
        if (blockuse_prop_is(st, "facing", dir_names[d])) return d;
    return BED_NORTH;
}

static bool is_head(uint16_t st)
{
    return blockuse_prop_is(st, "part", "head");
}

/* The other half of the bed half `st` at (x, z). */
static void other_half(int32_t x, int32_t z, uint16_t st, int32_t *ox, int32_t *oz)
{
    int d = facing_of(st), s = is_head(st) ? -1 : 1;
    *ox = x + s * bed_dir_dx[d];
    *oz = z + s * bed_dir_dz[d];
}

/* BlockState.canBeReplaced for the head's cell (the list game/interact.c
 * places into). */
static bool replaceable(uint16_t st)
{
    return block_is_air(st) || (st >= BLOCK_WATER && st <= BLOCK_WATER + 15) ||
           (st >= BLOCK_LAVA && st <= BLOCK_LAVA + 15) || st == BLOCK_GRASS ||
           (st >= BLOCK_TALL_GRASS - 1 && st <= BLOCK_TALL_GRASS) || st == BLOCK_FERN ||
           st == BLOCK_DEAD_BUSH || st == BLOCK_SNOW || st == BLOCK_SEAGRASS;
}

uint16_t beds_place_state(const player *p, int32_t x, int32_t y, int32_t z, uint16_t state)
{
    int d = bed_dir_of_yaw(p->yaw);
    int32_t hx, hz;
    uint16_t h;
    bed_head_of(x, z, d, &hx, &hz);
    if (world_get_block(&game.world, hx, y, hz, &h) < 0 || !replaceable(h) ||
        !border_contains_block(hx, hz))
        return 0;
    state = blockuse_with_prop(state, "facing", dir_names[d]);
    state = blockuse_with_prop(state, "occupied", "false");
    return blockuse_with_prop(state, "part", "foot");
}

void beds_placed(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!beds_is_bed(st) || is_head(st)) return;
    int32_t hx, hz;
    bed_head_of(x, z, facing_of(st), &hx, &hz);
    play_set_block(hx, y, hz, blockuse_with_prop(st, "part", "head"));
}

void beds_removing(int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!beds_is_bed(st)) return;
    int32_t ox, oz;
    uint16_t o;
    other_half(x, z, st, &ox, &oz);
    if (world_get_block(&game.world, ox, y, oz, &o) == 0 &&
        block_of_state[o] == block_of_state[st] && is_head(o) != is_head(st))
        play_set_block(ox, y, oz, BLOCK_AIR);
}

bool beds_neighbor_changed(int32_t x, int32_t y, int32_t z, int32_t fx, int32_t fy, int32_t fz)
{
    uint16_t st, o;
    if (world_get_block(&game.world, x, y, z, &st) < 0 || !beds_is_bed(st)) return false;
    int32_t ox, oz;
    other_half(x, z, st, &ox, &oz);
    if (fy != y || fx != ox || fz != oz || world_get_block(&game.world, ox, y, oz, &o) < 0)
        return true;
    if (block_of_state[o] != block_of_state[st] || is_head(o) == is_head(st))
        play_set_block(x, y, z, BLOCK_AIR);
    return true;
}

/* Sets `occupied` on the bed whose head is at (x, y, z), both halves. */
static void set_occupied(int32_t x, int32_t y, int32_t z, bool on)
{
    uint16_t h, f;
    if (world_get_block(&game.world, x, y, z, &h) < 0 || !beds_is_bed(h) || !is_head(h)) return;
    const char *v = on ? "true" : "false";
    play_set_block(x, y, z, blockuse_with_prop(h, "occupied", v));
    int32_t fx, fz;
    other_half(x, z, h, &fx, &fz);
    if (world_get_block(&game.world, fx, y, fz, &f) == 0 &&
        block_of_state[f] == block_of_state[h] && !is_head(f))
        play_set_block(fx, y, fz, blockuse_with_prop(f, "occupied", v));
}

/* displayClientMessage(translatable(key, args), true): the action bar. */
static void action_bar(conn *c, const char *key, const chat_arg *a, size_t n)
{
    if (c->closed) return;
    buf_t j;
    buf_init(&j, 512);
    chat_tr_json(&j, NULL, key, a, n);
    if (!j.failed) {
        buf_reset(&srv->pkt);
        c->proto->cb_system_chat(&srv->pkt, (const char *)j.data, j.len, true);
        conn_send_pkt(c);
    }
    buf_free(&j);
}

/* ------------------------------------------------------------ the world */

/* What bed_stand_up needs of a block (game/bed_rules.h); an unloaded block
 * counts as solid (nobody is put where mcserv cannot see). */
static struct bed_cell cell_at(void *ctx, int32_t x, int32_t y, int32_t z)
{
    (void)ctx;
    uint16_t st;
    struct bed_cell c = {0, false, false};
    if (y < CHUNK_MIN_Y || y >= CHUNK_MIN_Y + CHUNK_HEIGHT) return c;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return (struct bed_cell){1.0, false, false};
    const char *n = block_info[block_of_state[st]].name;
    if (beds_is_bed(st)) {
        c.top = BED_HEIGHT;
        c.bed = true;
    } else if (block_info[block_of_state[st]].flags & BLOCK_FLAG_SOLID) {
        c.top = 1.0;
    }
    /* EntityType.isBlockDangerous for a player (WalkNodeEvaluator.isBurningBlock,
     * wither roses, berry bushes, cactus, powder snow) */
    c.dangerous = (st >= BLOCK_LAVA && st <= BLOCK_LAVA + 15) || strcmp(n, "fire") == 0 ||
                  strcmp(n, "soul_fire") == 0 || strcmp(n, "magma_block") == 0 ||
                  strcmp(n, "lava_cauldron") == 0 || strcmp(n, "wither_rose") == 0 ||
                  strcmp(n, "sweet_berry_bush") == 0 || strcmp(n, "cactus") == 0 ||
                  strcmp(n, "powder_snow") == 0 ||
                  ((strcmp(n, "campfire") == 0 || strcmp(n, "soul_campfire") == 0) &&
                   blockuse_prop_is(st, "lit", "true"));
    return c;
}

bool beds_respawn_at(int32_t x, int32_t y, int32_t z, uint16_t st, float angle, double out[3],
                     float *yaw)
{
    if (!beds_is_bed(st) || !bed_stand_up(cell_at, NULL, x, y, z, facing_of(st), angle, out))
        return false;
    *yaw = bed_yaw_toward(out[0], out[2], x, z);
    return true;
}

/* Player.freeAt: the block does not suffocate (a full, opaque cube). */
static bool free_at(int32_t x, int32_t y, int32_t z)
{
    uint16_t st;
    if (world_get_block(&game.world, x, y, z, &st) < 0) return false;
    uint8_t f = block_info[block_of_state[st]].flags;
    return beds_is_bed(st) || !(f & BLOCK_FLAG_SOLID) || (f & BLOCK_FLAG_TRANSPARENT);
}

/* ServerPlayer.isReachableBedBlock */
static bool reachable_bed_block(const player *p, int32_t x, int32_t y, int32_t z)
{
    return fabs(p->x - (x + 0.5)) <= 3.0 && fabs(p->y - y) <= 2.0 && fabs(p->z - (z + 0.5)) <= 3.0;
}

/* A Monster whose box meets 8 blocks around and 5 above and below the
 * bed's bottom centre (ServerPlayer.startSleepInBed). mcserv's monsters:
 * zombies, skeletons, spiders, creepers. */
static bool monsters_near(int32_t x, int32_t y, int32_t z)
{
    static const int monsters[] = {ENTITY_TYPE_ZOMBIE, ENTITY_TYPE_SKELETON, ENTITY_TYPE_SPIDER,
                                   ENTITY_TYPE_CREEPER};
    double cx = x + 0.5, cy = y, cz = z + 0.5;
    for (size_t k = 0; k < sizeof monsters / sizeof monsters[0]; k++) {
        struct mob_filter f = {
            .type = monsters[k], .x = cx, .y = cy, .z = cz, .dmax = 16.0, .nearest = true};
        int32_t slots[64];
        size_t n = mobs_select(&f, slots, 64);
        for (size_t i = 0; i < n; i++) {
            double b[5]; /* feet x, y, z, half width, height */
            mobs_box(slots[i], b);
            if (b[0] - b[3] < cx + 8 && b[0] + b[3] > cx - 8 && b[1] < cy + 5 &&
                b[1] + b[4] > cy - 5 && b[2] - b[3] < cz + 8 && b[2] + b[3] > cz - 8)
                return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------ sleeping */

/* SleepStatus.update over the players, then ServerLevel.announceSleepStatus
 * when the counts changed while someone sleeps or slept. */
static void update_status(void)
{
    int active = 0, sleeping = 0;
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (p->gamemode == GM_SPECTATOR) continue;
        active++;
        if (p->bed.sleeping) sleeping++;
    }
    bool changed = (status_sleeping > 0 || sleeping > 0) &&
                   (active != status_active || sleeping != status_sleeping);
    status_active = active;
    status_sleeping = sleeping;
    int pct = gamerule_get(GR_PLAYERS_SLEEPING_PERCENTAGE);
    if (!changed || pct > 100) return; /* canSleepThroughNights */
    int need = bed_sleepers_needed(active, pct);
    char a[16], b[16];
    snprintf(a, sizeof a, "%d", sleeping);
    snprintf(b, sizeof b, "%d", need);
    chat_arg args[2] = {chat_text(a), chat_text(b)};
    bool skipping = sleeping >= need;
    for (size_t i = 0; i < game.player_count; i++)
        action_bar(game.players[i], skipping ? "sleep.skipping_night" : "sleep.players_sleeping",
                   args, skipping ? 0 : 2);
}

/* LivingEntity.startSleeping at the head (x, y, z). */
static void lie_down(conn *c, int32_t x, int32_t y, int32_t z)
{
    player *p = c->player;
    set_occupied(x, y, z, true);
    p->bed.sleeping = true;
    p->bed.x = x, p->bed.y = y, p->bed.z = z;
    p->bed.ticks = 0;
    sleepers++;
    p->x = x + 0.5, p->y = y + SLEEP_Y_OFFSET, p->z = z + 0.5;
    ent_set_sleeping(c, true);
}

/* ServerPlayer.stopSleepInBed: the wake-up animation, the bed free, the
 * body at the stand-up position, facing the bed, and (unless the player
 * is leaving) a teleport there; `update`: the sleep status at once. */
static void wake(conn *c, bool teleport, bool update)
{
    player *p = c->player;
    if (!p->bed.sleeping) return;
    p->bed.sleeping = false;
    sleepers--;
    int32_t x = p->bed.x, y = p->bed.y, z = p->bed.z;
    uint16_t st;
    float yaw = p->yaw, pitch = p->pitch;
    if (world_get_block(&game.world, x, y, z, &st) == 0 && beds_is_bed(st)) {
        set_occupied(x, y, z, false);
        double v[3];
        if (!bed_stand_up(cell_at, NULL, x, y, z, facing_of(st), p->yaw, v))
            v[0] = x + 0.5, v[1] = y + 1.1, v[2] = z + 0.5; /* above the bed */
        yaw = bed_yaw_toward(v[0], v[2], x, z);
        pitch = 0;
        p->x = v[0], p->y = v[1], p->z = v[2];
    }
    ent_set_sleeping(c, false);
    if (teleport && !c->closed) ent_teleport(c, p->x, p->y, p->z, yaw, pitch);
    if (update) update_status();
}

/* ServerPlayer.startSleepInBed at the head (x, y, z) in state st. */
static void try_sleep(conn *c, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    player *p = c->player;
    int d = facing_of(st);
    if (p->bed.sleeping || !(p->health > 0)) return; /* OTHER_PROBLEM: no message */
    if (!reachable_bed_block(p, x, y, z) &&
        !reachable_bed_block(p, x - bed_dir_dx[d], y, z - bed_dir_dz[d])) {
        action_bar(c, "block.minecraft.bed.too_far_away", NULL, 0);
        return;
    }
    if (!free_at(x, y + 1, z) || !free_at(x - bed_dir_dx[d], y + 1, z - bed_dir_dz[d])) {
        action_bar(c, "block.minecraft.bed.obstructed", NULL, 0);
        return;
    }
    /* setRespawnPosition(dimension, pos, yaw, false, true) */
    int32_t sx, sy, sz;
    float angle;
    bool forced;
    if (!spawnpoint_get(&p->uuid, &sx, &sy, &sz, &angle, &forced) || sx != x || sy != y ||
        sz != z) {
        buf_t j;
        buf_init(&j, 256);
        chat_tr_json(&j, NULL, "block.minecraft.set_spawn", NULL, 0);
        if (!j.failed) chat_send(c, (const char *)j.data, j.len);
        buf_free(&j);
    }
    spawnpoint_set(&p->uuid, x, y, z, p->yaw, false);
    if (bed_is_day(game.day_time, game.raining, game.thundering)) {
        action_bar(c, "block.minecraft.bed.no_sleep", NULL, 0);
        return;
    }
    if (p->gamemode != GM_CREATIVE && monsters_near(x, y, z)) {
        action_bar(c, "block.minecraft.bed.not_safe", NULL, 0);
        return;
    }
    lie_down(c, x, y, z);
    if (gamerule_get(GR_PLAYERS_SLEEPING_PERCENTAGE) > 100)
        action_bar(c, "sleep.not_possible", NULL, 0);
    update_status();
}

bool beds_use(conn *c, int32_t x, int32_t y, int32_t z, uint16_t st)
{
    if (!beds_is_bed(st)) return false;
    if (!is_head(st)) { /* BedBlock.use: the head is where one sleeps */
        uint16_t h;
        int d = facing_of(st);
        x += bed_dir_dx[d], z += bed_dir_dz[d];
        if (world_get_block(&game.world, x, y, z, &h) < 0 ||
            block_of_state[h] != block_of_state[st])
            return true; /* CONSUME */
        st = h;
    }
    if (blockuse_prop_is(st, "occupied", "true")) {
        action_bar(c, "block.minecraft.bed.occupied", NULL, 0);
        return true;
    }
    try_sleep(c, x, y, z, st);
    return true;
}

void beds_leave_bed(conn *c)
{
    wake(c, true, true);
}

void beds_wake_now(conn *c)
{
    wake(c, !c->closed, true);
}

void beds_tick(void)
{
    if (!sleepers && !status_sleeping) return;
    update_status(); /* joins, leaves and game modes change the counts too */
    int pct = gamerule_get(GR_PLAYERS_SLEEPING_PERCENTAGE), deep = 0;
    int need = bed_sleepers_needed(status_active, pct);
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (p->bed.sleeping && p->bed.ticks >= BED_DEEP_SLEEP_TICKS) deep++;
    }
    if (sleepers && status_sleeping >= need && deep >= need) { /* ServerLevel.tick */
        if (gamerule_on(GR_DO_DAYLIGHT_CYCLE)) {
            game.day_time = bed_next_morning(game.day_time);
            daytime_broadcast();
        }
        status_sleeping = 0; /* wakeUpAllPlayers: removeAllSleepers */
        for (size_t i = 0; i < game.player_count && sleepers; i++)
            wake(game.players[i], true, false);
        if (gamerule_on(GR_DO_WEATHER_CYCLE) && game.raining) daytime_set_weather(false, false, 0);
        return;
    }
    /* Player.tick and LivingEntity.tick: the counter, the day, the bed */
    bool day = bed_is_day(game.day_time, game.raining, game.thundering);
    for (size_t i = 0; i < game.player_count && sleepers; i++) {
        conn *c = game.players[i];
        player *p = c->player;
        if (!p->bed.sleeping) continue;
        uint16_t st;
        if (day || world_get_block(&game.world, p->bed.x, p->bed.y, p->bed.z, &st) < 0 ||
            !beds_is_bed(st)) {
            wake(c, true, true);
            continue;
        }
        if (p->bed.ticks < BED_DEEP_SLEEP_TICKS) p->bed.ticks++;
    }
}
