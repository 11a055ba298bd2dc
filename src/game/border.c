/*
 * border.c — see border.h. The size of a moving border is worked out from
 * the clock when asked (vanilla's MovingBorderExtent: a linear lerp over
 * real time), so the border needs no tick of its own; a move that ended is
 * a static border at its target.
 */
#include "game/border.h"

#include <math.h>
#include <string.h>

#include "core/log.h"
#include "game/chat.h"
#include "game/entities.h"
#include "game/game.h"
#include "proto/nbt.h"
#include "proto/packets.h"
#include "world/anvil.h"

#define PLAYER_HALF_WIDTH 0.3
#define MOVED_WRONGLY_SQ  0.0625 /* vanilla: more than 0.25 blocks off is "moved wrongly" */

static struct {
    struct border_settings s;
    double from, to;  /* static: from == to */
    int64_t start_ms; /* a move: when it started (srv->loop->now_ms) */
    int64_t duration_ms;
} b;

static int64_t now_ms(void)
{
    return srv && srv->loop ? srv->loop->now_ms : 0;
}

static double clamp_size(double s)
{
    return s < 1 ? 1 : s > BORDER_MAX_SIZE ? BORDER_MAX_SIZE : s;
}

int64_t border_remaining_ms(void)
{
    if (b.duration_ms <= 0) return 0;
    int64_t left = b.start_ms + b.duration_ms - now_ms();
    if (left > 0) return left;
    b.from = b.to; /* the move is over */
    b.duration_ms = 0;
    return 0;
}

double border_size(void)
{
    int64_t left = border_remaining_ms();
    if (!left) return b.from;
    double done = 1.0 - (double)left / (double)b.duration_ms;
    return b.from + (b.to - b.from) * done;
}

double border_target(void)
{
    return border_remaining_ms() ? b.to : b.from;
}

const struct border_settings *border_get(void)
{
    return &b.s;
}

/* One edge, clamped to max-world-size (vanilla's absoluteMaxSize). */
static double edge(double center, double half)
{
    double lim = srv ? srv->cfg.max_world_size : 29999984;
    double v = center + half;
    return v < -lim ? -lim : v > lim ? lim : v;
}

static void edges(double *minx, double *maxx, double *minz, double *maxz)
{
    double half = border_size() / 2;
    *minx = edge(b.s.center_x, -half);
    *maxx = edge(b.s.center_x, half);
    *minz = edge(b.s.center_z, -half);
    *maxz = edge(b.s.center_z, half);
}

/* ------------------------------------------------------------- clients */

static void broadcast(void)
{
    chat_broadcast_pkt(NULL);
}

void border_join(conn *c)
{
    struct pkt_border w = {.x = b.s.center_x,
                           .z = b.s.center_z,
                           .old_diameter = border_size(),
                           .new_diameter = border_target(),
                           .speed_ms = border_remaining_ms(),
                           .portal_teleport_boundary = srv->cfg.max_world_size,
                           .warning_blocks = b.s.warning_blocks,
                           .warning_time = b.s.warning_time};
    buf_reset(&srv->pkt);
    pkt_cb_initialize_world_border(&srv->pkt, &w);
    conn_send_pkt(c);
}

void border_set_size(double size)
{
    b.from = b.to = clamp_size(size);
    b.duration_ms = 0;
    buf_reset(&srv->pkt);
    pkt_cb_world_border_size(&srv->pkt, b.from);
    broadcast();
}

void border_lerp(double from, double to, int64_t duration_ms)
{
    if (duration_ms <= 0) {
        border_set_size(to);
        return;
    }
    b.from = clamp_size(from);
    b.to = clamp_size(to);
    b.start_ms = now_ms();
    b.duration_ms = duration_ms;
    buf_reset(&srv->pkt);
    pkt_cb_world_border_lerp_size(&srv->pkt, b.from, b.to, duration_ms);
    broadcast();
}

void border_set_center(double x, double z)
{
    b.s.center_x = x;
    b.s.center_z = z;
    buf_reset(&srv->pkt);
    pkt_cb_world_border_center(&srv->pkt, x, z);
    broadcast();
}

void border_set_warning(int32_t blocks, int32_t seconds)
{
    if (blocks != b.s.warning_blocks) {
        b.s.warning_blocks = blocks;
        buf_reset(&srv->pkt);
        pkt_cb_world_border_warning_reach(&srv->pkt, blocks);
        broadcast();
    }
    if (seconds != b.s.warning_time) {
        b.s.warning_time = seconds;
        buf_reset(&srv->pkt);
        pkt_cb_world_border_warning_delay(&srv->pkt, seconds);
        broadcast();
    }
}

void border_set_damage(double per_block, double safe_zone)
{
    b.s.damage_per_block = per_block;
    b.s.safe_zone = safe_zone;
}

/* --------------------------------------------------------- enforcement */

bool border_contains_block(int32_t x, int32_t z)
{
    double minx, maxx, minz, maxz;
    edges(&minx, &maxx, &minz, &maxz);
    return x + 1.0 > minx && x < maxx && z + 1.0 > minz && z < maxz;
}

bool border_move_ok(conn *c, double x, double z)
{
    player *p = c->player;
    if (p->gamemode == GM_CREATIVE || p->gamemode == GM_SPECTATOR) return true;
    double minx, maxx, minz, maxz;
    edges(&minx, &maxx, &minz, &maxz);
    /* vanilla WorldBorder.isInsideCloseToBorder: the border collides with a
     * player whose position is within a block (the box's width, at least 1)
     * of the inside; one farther out moves freely */
    if (p->x < minx - 1 || p->x >= maxx + 1 || p->z < minz - 1 || p->z >= maxz + 1) return true;
    double cx = fmin(fmax(x, minx + PLAYER_HALF_WIDTH), maxx - PLAYER_HALF_WIDTH);
    double cz = fmin(fmax(z, minz + PLAYER_HALF_WIDTH), maxz - PLAYER_HALF_WIDTH);
    if (minx + PLAYER_HALF_WIDTH > maxx - PLAYER_HALF_WIDTH) cx = (minx + maxx) / 2;
    if (minz + PLAYER_HALF_WIDTH > maxz - PLAYER_HALF_WIDTH) cz = (minz + maxz) / 2;
    double dx = x - cx, dz = z - cz;
    /* a player already past the edge may still move back in */
    bool outward = (dx > 0 && x > p->x) || (dx < 0 && x < p->x) || (dz > 0 && z > p->z) ||
                   (dz < 0 && z < p->z);
    if (dx * dx + dz * dz <= MOVED_WRONGLY_SQ || !outward) return true;
    log_warn("%s moved wrongly!", p->name);
    ent_teleport(c, p->x, p->y, p->z, p->yaw, p->pitch);
    return false;
}

/* ----------------------------------------------------------- level.dat */

static const char *const tags[] = {
    "BorderCenterX",        "BorderCenterZ",        "BorderSize",
    "BorderSizeLerpTime",   "BorderSizeLerpTarget", "BorderSafeZone",
    "BorderDamagePerBlock", "BorderWarningBlocks",  "BorderWarningTime"};

bool border_owns_tag(const nbt_node *n)
{
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (strlen(tags[i]) == n->name_len && memcmp(tags[i], n->name, n->name_len) == 0)
            return true;
    return false;
}

void border_write(buf_t *out)
{
    nbt_w_double(out, "BorderCenterX", b.s.center_x);
    nbt_w_double(out, "BorderCenterZ", b.s.center_z);
    nbt_w_double(out, "BorderSize", border_size());
    nbt_w_long(out, "BorderSizeLerpTime", border_remaining_ms());
    nbt_w_double(out, "BorderSizeLerpTarget", border_target());
    nbt_w_double(out, "BorderSafeZone", b.s.safe_zone);
    nbt_w_double(out, "BorderDamagePerBlock", b.s.damage_per_block);
    nbt_w_double(out, "BorderWarningBlocks", b.s.warning_blocks);
    nbt_w_double(out, "BorderWarningTime", b.s.warning_time);
}

static double num(const nbt_node *data, const char *name, double def)
{
    double v = anvil_nbt_num(data ? nbt_get(data, name, NBT_END) : NULL, def);
    return isfinite(v) ? v : def;
}

void border_init(const nbt_node *data)
{
    /* vanilla WorldBorder.Settings.read, with WorldBorder.DEFAULT_SETTINGS */
    b.s.center_x = fmin(fmax(num(data, "BorderCenterX", 0), -BORDER_MAX_FAR), BORDER_MAX_FAR);
    b.s.center_z = fmin(fmax(num(data, "BorderCenterZ", 0), -BORDER_MAX_FAR), BORDER_MAX_FAR);
    b.s.safe_zone = num(data, "BorderSafeZone", 5);
    b.s.damage_per_block = num(data, "BorderDamagePerBlock", 0.2);
    b.s.warning_blocks = (int32_t)num(data, "BorderWarningBlocks", 5);
    b.s.warning_time = (int32_t)num(data, "BorderWarningTime", 15);
    double size = clamp_size(num(data, "BorderSize", BORDER_MAX_SIZE));
    int64_t left = (int64_t)num(data, "BorderSizeLerpTime", 0);
    b.from = b.to = size;
    b.duration_ms = 0;
    if (left > 0) {
        b.to = clamp_size(num(data, "BorderSizeLerpTarget", size));
        b.start_ms = now_ms();
        b.duration_ms = left;
    }
    if (size != BORDER_MAX_SIZE || b.s.center_x || b.s.center_z)
        log_info("world border: %.1f blocks wide around %.1f, %.1f", size, b.s.center_x,
                 b.s.center_z);
}
