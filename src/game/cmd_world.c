/*
 * cmd_world.c — the commands that edit the world's blocks: setblock, fill
 * and clone, as vanilla 1.20.1's SetBlockCommand, FillCommand and
 * CloneCommands do them, with their messages; and forceload, which keeps
 * chunks loaded for them (game/forceload.h).
 *
 *   positions  each corner (clone: every chunk of both boxes) must be
 *              loaded ("That position is not loaded") and inside the world
 *              ("That position is out of this world!"), checked before
 *              anything changes
 *   volume     at most the commandModificationBlockLimit game rule
 *              ("Too many blocks in the specified area (maximum 32768,
 *              specified 40000)"), and never more than CMD_WORLD_MAX_BLOCKS
 *              (below), whatever the rule says
 *   counting   fill counts the blocks whose state changed; clone counts the
 *              blocks copied (vanilla sets a barrier first, so a copy onto
 *              an equal block counts); none: "No blocks were filled" /
 *              "No blocks were cloned"
 *   destroy    the old block breaks with vanilla's particles and sound
 *              (World Event 2001 to players within 64 blocks); nothing drops
 *              (mcserv has no item entities)
 *
 * Invariants:
 *  1. Every change goes through play_set_block, so viewers get Block Update
 *     / Update Section Blocks at the end of the tick and the chunk is
 *     re-encoded and saved as for any player's edit.
 *  2. clone reads the whole source before writing (force and move may
 *     overlap), into one bounded array freed before returning.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "game/chunk_viewers.h"
#include "game/cmd_internal.h"
#include "game/forceload.h"
#include "game/gamerules.h"
#include "game/play.h"
#include "proto/packets.h"

/*
 * play.c broadcasts at most 65536 block changes per tick (more still change
 * the world, but viewers would miss them until they reload the chunk), so
 * one command changes at most half of that.
 */
#define CMD_WORLD_MAX_BLOCKS 32768
#define WORLD_XZ_MAX         30000000 /* Level.isInWorldBounds */
#define LEVEL_EVENT_RANGE    64.0     /* vanilla levelEvent: players within 64 blocks */

struct box {
    int32_t min[3], max[3];
};

static bool in_world(const int32_t p[3])
{
    return p[0] >= -WORLD_XZ_MAX && p[0] < WORLD_XZ_MAX && p[2] >= -WORLD_XZ_MAX &&
           p[2] < WORLD_XZ_MAX && p[1] >= CHUNK_MIN_Y && p[1] < CHUNK_MIN_Y + CHUNK_HEIGHT;
}

static int32_t block_coord(double v)
{
    double f = floor(v);
    return f < INT32_MIN ? INT32_MIN : f > INT32_MAX ? INT32_MAX : (int32_t)f;
}

static bool loaded(int32_t x, int32_t z)
{
    return world_loaded(&game.world, x >> 4, z >> 4) != NULL;
}

/* vanilla BlockPosArgument.getLoadedBlockPos: -1 after the failure. */
static int loaded_pos(cmd_ctx *x, const char *arg, int32_t out[3])
{
    double p[3];
    cmd_coords_abs(x->src, &cmd_arg(x->ps, arg)->u.pos, p);
    for (int i = 0; i < 3; i++) out[i] = block_coord(p[i]);
    if (out[0] < -WORLD_XZ_MAX || out[0] >= WORLD_XZ_MAX || out[2] < -WORLD_XZ_MAX ||
        out[2] >= WORLD_XZ_MAX || !loaded(out[0], out[2])) {
        cmd_failure0(x, "argument.pos.unloaded");
        return -1;
    }
    if (!in_world(out)) {
        cmd_failure0(x, "argument.pos.outofworld");
        return -1;
    }
    return 0;
}

static struct box box_of(const int32_t a[3], const int32_t b[3])
{
    struct box bx;
    for (int i = 0; i < 3; i++) {
        bx.min[i] = a[i] < b[i] ? a[i] : b[i];
        bx.max[i] = a[i] < b[i] ? b[i] : a[i];
    }
    return bx;
}

static int64_t volume(const struct box *b)
{
    int64_t v = 1;
    for (int i = 0; i < 3; i++) v *= (int64_t)b->max[i] - b->min[i] + 1;
    return v;
}

/* The volume check every command here makes; -1 after the failure. */
static int check_volume(cmd_ctx *x, const struct box *b, const char *toobig)
{
    int64_t v = volume(b);
    int32_t limit = gamerule_get(GR_COMMAND_MODIFICATION_BLOCK_LIMIT);
    if (v > limit || v > CMD_WORLD_MAX_BLOCKS) {
        char lim[24], got[24];
        snprintf(lim, sizeof lim, "%d",
                 limit < CMD_WORLD_MAX_BLOCKS ? limit : CMD_WORLD_MAX_BLOCKS);
        snprintf(got, sizeof got, "%lld", (long long)v);
        chat_arg a[2] = {chat_text(lim), chat_text(got)};
        cmd_failure(x, toobig, a, 2);
        return -1;
    }
    return 0;
}

static uint16_t block_at(int32_t x, int32_t y, int32_t z)
{
    uint16_t st = BLOCK_AIR;
    world_get_block(&game.world, x, y, z, &st);
    return st;
}

/* World Event 2001 (the block's break particles and sound) to players near it. */
static void break_effect(int32_t x, int32_t y, int32_t z, uint16_t old)
{
    if (block_is_air(old)) return;
    buf_reset(&srv->pkt);
    pkt_cb_world_event(&srv->pkt, 2001, x, y, z, old, false);
    const buf_t *f = pkt_frame_shared();
    if (!f) return;
    size_t n;
    conn **v = cv_copy(x >> 4, z >> 4, &n); /* game/chunk_viewers.h */
    for (size_t i = 0; i < n; i++) {
        conn *c = v[i];
        if (c->closed) continue;
        const player *p = c->player;
        double dx = p->x - (x + 0.5), dy = p->y - (y + 0.5), dz = p->z - (z + 0.5);
        if (dx * dx + dy * dy + dz * dz < LEVEL_EVENT_RANGE * LEVEL_EVENT_RANGE)
            conn_send_raw(c, f->data, f->len);
    }
}

/* Level.setBlock: true if the state changed. */
static bool set_block(int32_t x, int32_t y, int32_t z, uint16_t state)
{
    uint16_t old;
    if (world_get_block(&game.world, x, y, z, &old) < 0 || old == state) return false;
    return play_set_block(x, y, z, state) == 0;
}

/* "Successfully filled N block(s)", or the failure when nothing changed. */
static int report_count(cmd_ctx *x, size_t n, const char *failed, const char *success)
{
    if (!n) {
        cmd_failure0(x, failed);
        return -1;
    }
    char num[24];
    cmd_count_arg(num, n);
    chat_arg arg = chat_text(num);
    cmd_success(x, true, success, &arg, 1);
    return 0;
}

/* --------------------------------------------------------------- setblock */

static int ex_setblock(cmd_ctx *x)
{
    int32_t p[3];
    if (loaded_pos(x, "pos", p) < 0) return -1;
    uint16_t state = cmd_arg(x->ps, "block")->u.block.state;
    uint16_t old = block_at(p[0], p[1], p[2]);
    bool place = true;
    if (cmd_has_literal(x->ps, "keep") && !block_is_air(old)) {
        cmd_failure0(x, "commands.setblock.failed");
        return -1;
    }
    if (cmd_has_literal(x->ps, "destroy")) {
        if (!block_is_air(old)) {
            break_effect(p[0], p[1], p[2], old);
            set_block(p[0], p[1], p[2], BLOCK_AIR);
        }
        place = !block_is_air(state); /* vanilla: the block there is air now */
    }
    if (place && !set_block(p[0], p[1], p[2], state)) {
        cmd_failure0(x, "commands.setblock.failed");
        return -1;
    }
    char s[3][16];
    chat_arg a[3];
    for (int i = 0; i < 3; i++) {
        snprintf(s[i], sizeof s[i], "%d", p[i]);
        a[i] = chat_text(s[i]);
    }
    cmd_success(x, true, "commands.setblock.success", a, 3);
    return 0;
}

/* ------------------------------------------------------------------- fill */

enum fill_mode { FILL_REPLACE, FILL_KEEP, FILL_OUTLINE, FILL_HOLLOW, FILL_DESTROY };

static int ex_fill(cmd_ctx *x)
{
    int32_t a[3], b[3];
    if (loaded_pos(x, "from", a) < 0 || loaded_pos(x, "to", b) < 0) return -1;
    struct box bx = box_of(a, b);
    if (check_volume(x, &bx, "commands.fill.toobig") < 0) return -1;
    uint16_t state = cmd_arg(x->ps, "block")->u.block.state;
    const struct cmd_value *filter = cmd_arg(x->ps, "filter");
    enum fill_mode mode = cmd_has_literal(x->ps, "keep")      ? FILL_KEEP
                          : cmd_has_literal(x->ps, "outline") ? FILL_OUTLINE
                          : cmd_has_literal(x->ps, "hollow")  ? FILL_HOLLOW
                          : cmd_has_literal(x->ps, "destroy") ? FILL_DESTROY
                                                              : FILL_REPLACE;
    size_t changed = 0;
    /* BlockPos.betweenClosed: x fastest, then y, then z */
    for (int32_t z = bx.min[2]; z <= bx.max[2]; z++)
        for (int32_t y = bx.min[1]; y <= bx.max[1]; y++)
            for (int32_t xx = bx.min[0]; xx <= bx.max[0]; xx++) {
                uint16_t old;
                if (world_get_block(&game.world, xx, y, z, &old) < 0) continue; /* not loaded */
                if (filter && !cmd_block_matches(&filter->u.block, old)) continue;
                if (mode == FILL_KEEP && !block_is_air(old)) continue;
                bool edge = xx == bx.min[0] || xx == bx.max[0] || y == bx.min[1] ||
                            y == bx.max[1] || z == bx.min[2] || z == bx.max[2];
                uint16_t put = state;
                if (!edge && mode == FILL_OUTLINE) continue;
                if (!edge && mode == FILL_HOLLOW) put = BLOCK_AIR;
                if (mode == FILL_DESTROY && !block_is_air(old)) {
                    /* vanilla counts only the placing: air placed after the break is no change */
                    break_effect(xx, y, z, old);
                    set_block(xx, y, z, BLOCK_AIR);
                }
                if (set_block(xx, y, z, put)) changed++;
            }
    return report_count(x, changed, "commands.fill.failed", "commands.fill.success");
}

/* ------------------------------------------------------------------ clone */

/* A dimension argument: only the overworld exists here. -1 after the failure. */
static int check_dimension(cmd_ctx *x, const char *arg)
{
    const struct cmd_value *v = cmd_arg(x->ps, arg);
    if (!v) return 0;
    const char *s = x->ps->line + v->start;
    size_t n = v->end - v->start;
    char id[128];
    if (memchr(s, ':', n))
        snprintf(id, sizeof id, "%.*s", (int)n, s);
    else
        snprintf(id, sizeof id, "minecraft:%.*s", (int)n, s);
    if (strcmp(id, "minecraft:overworld") == 0) return 0;
    chat_arg a = chat_text(id);
    cmd_failure(x, "argument.dimension.invalid", &a, 1);
    return -1;
}

/* Level.hasChunksAt: every chunk of the box is loaded. */
static bool box_loaded(const struct box *b)
{
    for (int32_t cx = b->min[0] >> 4; cx <= b->max[0] >> 4; cx++)
        for (int32_t cz = b->min[2] >> 4; cz <= b->max[2] >> 4; cz++)
            if (!world_loaded(&game.world, cx, cz)) return false;
    return true;
}

static bool boxes_meet(const struct box *a, const struct box *b)
{
    for (int i = 0; i < 3; i++)
        if (a->max[i] < b->min[i] || b->max[i] < a->min[i]) return false;
    return true;
}

struct copied {
    int32_t x, y, z; /* source */
    uint16_t state;
};

static int ex_clone(cmd_ctx *x)
{
    if (check_dimension(x, "sourceDimension") < 0 || check_dimension(x, "targetDimension") < 0)
        return -1;
    int32_t a[3], b[3], d[3];
    if (loaded_pos(x, "begin", a) < 0 || loaded_pos(x, "end", b) < 0 ||
        loaded_pos(x, "destination", d) < 0)
        return -1;
    struct box src = box_of(a, b), dst;
    for (int i = 0; i < 3; i++) {
        dst.min[i] = d[i];
        dst.max[i] = d[i] + (src.max[i] - src.min[i]);
    }
    bool force = cmd_has_literal(x->ps, "force"), move = cmd_has_literal(x->ps, "move");
    if (!force && !move && boxes_meet(&src, &dst)) {
        cmd_failure0(x, "commands.clone.overlap");
        return -1;
    }
    if (check_volume(x, &src, "commands.clone.toobig") < 0) return -1;
    if (!in_world(dst.max) || !box_loaded(&src) || !box_loaded(&dst)) {
        cmd_failure0(x, "argument.pos.unloaded");
        return -1;
    }
    const struct cmd_value *filter = cmd_arg(x->ps, "filter");
    bool masked = cmd_has_literal(x->ps, "masked");
    struct copied *list = malloc((size_t)volume(&src) * sizeof *list);
    if (!list) {
        cmd_failure0(x, "command.failed");
        return -1;
    }
    size_t n = 0;
    for (int32_t z = src.min[2]; z <= src.max[2]; z++)
        for (int32_t y = src.min[1]; y <= src.max[1]; y++)
            for (int32_t xx = src.min[0]; xx <= src.max[0]; xx++) {
                uint16_t st = block_at(xx, y, z);
                if (masked && block_is_air(st)) continue;
                if (filter && !cmd_block_matches(&filter->u.block, st)) continue;
                list[n++] = (struct copied){xx, y, z, st};
            }
    if (move) /* the source becomes air (vanilla: barrier, then air) */
        for (size_t i = 0; i < n; i++) set_block(list[i].x, list[i].y, list[i].z, BLOCK_AIR);
    size_t copied = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t tx = list[i].x - src.min[0] + dst.min[0], ty = list[i].y - src.min[1] + dst.min[1],
                tz = list[i].z - src.min[2] + dst.min[2];
        set_block(tx, ty, tz, list[i].state);
        if (list[i].state != BLOCK_BARRIER) copied++; /* vanilla counts its barrier → block */
    }
    free(list);
    return report_count(x, copied, "commands.clone.failed", "commands.clone.success");
}

/* -------------------------------------------------------------- forceload */

#define FORCELOAD_PER_COMMAND 256 /* vanilla ForceLoadCommand.MAX_CHUNK_LIMIT */
static const char overworld[] = "minecraft:overworld";

/* ChunkPos.toString: "[x, z]" */
static void chunk_text(char out[32], int32_t cx, int32_t cz)
{
    snprintf(out, 32, "[%d, %d]", cx, cz);
}

/* A column_pos argument as block x, z. */
static void column(cmd_ctx *x, const char *arg, int64_t out[2])
{
    double p[3];
    cmd_coords_abs(x->src, &cmd_arg(x->ps, arg)->u.pos, p);
    out[0] = block_coord(p[0]);
    out[1] = block_coord(p[2]);
}

static int forceload_change(cmd_ctx *x, bool add)
{
    int64_t a[2], b[2];
    column(x, "from", a);
    if (cmd_arg(x->ps, "to"))
        column(x, "to", b);
    else
        b[0] = a[0], b[1] = a[1];
    int64_t minx = a[0] < b[0] ? a[0] : b[0], maxx = a[0] < b[0] ? b[0] : a[0];
    int64_t minz = a[1] < b[1] ? a[1] : b[1], maxz = a[1] < b[1] ? b[1] : a[1];
    if (minx < -WORLD_XZ_MAX || minz < -WORLD_XZ_MAX || maxx >= WORLD_XZ_MAX ||
        maxz >= WORLD_XZ_MAX) {
        cmd_failure0(x, "argument.pos.outofworld");
        return -1;
    }
    int32_t cx0 = (int32_t)minx >> 4, cz0 = (int32_t)minz >> 4;
    int32_t cx1 = (int32_t)maxx >> 4, cz1 = (int32_t)maxz >> 4;
    int64_t n = ((int64_t)cx1 - cx0 + 1) * ((int64_t)cz1 - cz0 + 1);
    if (n > FORCELOAD_PER_COMMAND) {
        char lim[24], got[24];
        snprintf(lim, sizeof lim, "%d", FORCELOAD_PER_COMMAND);
        snprintf(got, sizeof got, "%lld", (long long)n);
        chat_arg args[2] = {chat_text(lim), chat_text(got)};
        cmd_failure(x, "commands.forceload.toobig", args, 2);
        return -1;
    }
    size_t changed = 0;
    int32_t first[2] = {0, 0};
    bool full = false;
    for (int32_t cx = cx0; cx <= cx1; cx++)
        for (int32_t cz = cz0; cz <= cz1; cz++) {
            int r = forceload_set(cx, cz, add);
            if (r < 0) full = true;
            if (r <= 0) continue;
            if (!changed++) first[0] = cx, first[1] = cz;
        }
    if (full) {
        char line[96];
        snprintf(line, sizeof line, "At most %d chunks can be force loaded", FORCELOAD_MAX);
        cmd_send_line(x, line);
    }
    if (!changed) {
        cmd_failure0(x, add ? "commands.forceload.added.failure"
                            : "commands.forceload.removed.failure");
        return -1;
    }
    char c0[32], lo[32], hi[32];
    chunk_text(c0, first[0], first[1]);
    if (changed == 1) {
        chat_arg args[2] = {chat_text(c0), chat_text(overworld)};
        cmd_success(x, true,
                    add ? "commands.forceload.added.single" : "commands.forceload.removed.single",
                    args, 2);
    } else {
        /* vanilla passes the first chunk changed where the message says a count:
         * "Marked [0, 1] chunks in minecraft:overworld from [0, 0] to [1, 1] ..." */
        chunk_text(lo, cx0, cz0);
        chunk_text(hi, cx1, cz1);
        chat_arg args[4] = {chat_text(c0), chat_text(overworld), chat_text(lo), chat_text(hi)};
        cmd_success(x, true,
                    add ? "commands.forceload.added.multiple"
                        : "commands.forceload.removed.multiple",
                    args, 4);
    }
    return 0;
}

static int forceload_query(cmd_ctx *x)
{
    if (cmd_arg(x->ps, "pos")) {
        int64_t p[2];
        column(x, "pos", p);
        int32_t cx = (int32_t)(p[0] >> 4), cz = (int32_t)(p[1] >> 4);
        char c[32];
        chunk_text(c, cx, cz);
        chat_arg args[2] = {chat_text(c), chat_text(overworld)};
        if (!forceload_has(cx, cz)) {
            cmd_failure(x, "commands.forceload.query.failure", args, 2);
            return -1;
        }
        cmd_success(x, false, "commands.forceload.query.success", args, 2);
        return 0;
    }
    size_t n = forceload_count();
    if (!n) {
        chat_arg a = chat_text(overworld);
        cmd_failure(x, "commands.forceload.added.none", &a, 1);
        return 0;
    }
    buf_t list;
    buf_init(&list, 64u << 10);
    for (size_t i = 0; i < n; i++) {
        int32_t cx, cz;
        char c[32];
        forceload_get(i, &cx, &cz);
        chunk_text(c, cx, cz);
        if (i) buf_lit(&list, ", ");
        buf_append(&list, c, strlen(c));
    }
    chat_arg chunks = chat_textn((const char *)list.data, list.len);
    if (n == 1) {
        chat_arg args[2] = {chat_text(overworld), chunks};
        cmd_success(x, false, "commands.forceload.list.single", args, 2);
    } else {
        char num[24];
        cmd_count_arg(num, n);
        chat_arg args[3] = {chat_text(num), chat_text(overworld), chunks};
        cmd_success(x, false, "commands.forceload.list.multiple", args, 3);
    }
    buf_free(&list);
    return 0;
}

static int ex_forceload(cmd_ctx *x)
{
    if (cmd_has_literal(x->ps, "query")) return forceload_query(x);
    if (cmd_has_literal(x->ps, "all")) {
        forceload_clear();
        chat_arg a = chat_text(overworld);
        cmd_success(x, true, "commands.forceload.removed.all", &a, 1);
        return 0;
    }
    return forceload_change(x, cmd_has_literal(x->ps, "add"));
}

int cmd_world_exec(cmd_ctx *x)
{
    switch (x->ps->exec->exec) {
    case X_SETBLOCK: return ex_setblock(x);
    case X_FILL: return ex_fill(x);
    case X_CLONE: return ex_clone(x);
    case X_FORCELOAD: return ex_forceload(x);
    default: return -1;
    }
}
