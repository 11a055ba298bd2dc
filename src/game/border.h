/*
 * border.h — the world border, as vanilla 1.20.1's WorldBorder: a square
 * around a centre, static or moving (growing or shrinking over a time),
 * with its warning and damage settings, clamped to max-world-size.
 *
 *   state        centre x/z; size (blocks wide): static, or moving from
 *                `from` to `to` over `duration` ms started at `start`
 *                (the loop's monotonic clock; clients lerp on their own
 *                from the packet's remaining time)
 *   edges        centre ± size/2, each clamped to ±max-world-size
 *                (vanilla's absoluteMaxSize), which also goes to clients
 *                as the Initialize World Border packet's portal boundary
 *   clients      Initialize World Border at join; Set Border Center /
 *                Lerp Size / Size / Warning Delay / Warning Reach to
 *                everyone when a command changes them
 *   enforcement  as vanilla's server does it: a survival or adventure
 *                player inside (or within a block of) the border whose
 *                move would carry its box across is "moved wrongly" and
 *                teleported back (vanilla: the move is clipped by the
 *                border's collision and then refused); creative and
 *                spectator players are left to their client, as vanilla;
 *                no block outside the border can be broken or used
 *                (Level.mayInteract). Damage outside the border: none yet
 *                (mcserv has no damage but /kill), see docs/commands.md.
 *   level.dat    BorderCenterX/Z, BorderSize, BorderSizeLerpTime (ms left),
 *                BorderSizeLerpTarget, BorderSafeZone, BorderDamagePerBlock,
 *                BorderWarningBlocks, BorderWarningTime (vanilla's tags),
 *                read at startup and written with every save
 *                (game/level_tags.c)
 *
 * Invariant: game thread only; the size is always in [1, BORDER_MAX_SIZE].
 */
#ifndef MC_BORDER_H
#define MC_BORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"

#define BORDER_MAX_SIZE 5.9999968e7 /* vanilla's default and /worldborder maximum */
#define BORDER_MAX_FAR  2.9999984e7 /* the farthest centre */

struct conn;
struct player;
struct nbt_node;

struct border_settings {
    double center_x, center_z;
    double damage_per_block, safe_zone; /* kept and saved; no damage yet */
    int32_t warning_blocks, warning_time;
};

/* Startup: the Data compound of level.dat (NULL: a new world, vanilla's defaults). */
void border_init(const struct nbt_node *data);
/* The current size (a moving border: where it is now), and where it is going. */
double border_size(void);
double border_target(void);
/* ms left of a move, 0 when static. */
int64_t border_remaining_ms(void);
const struct border_settings *border_get(void);

/* Changes, each told to every client as vanilla tells them. */
void border_set_size(double size);                             /* at once */
void border_lerp(double from, double to, int64_t duration_ms); /* a move */
void border_set_center(double x, double z);
void border_set_warning(int32_t blocks, int32_t seconds);
void border_set_damage(double per_block, double safe_zone);

/* Initialize World Border for a joining client. */
void border_join(struct conn *c);
/* vanilla WorldBorder.isWithinBounds(BlockPos): the block column is inside. */
bool border_contains_block(int32_t x, int32_t z);
/* The movement check (play.c, before a new position is taken): true if the
 * move may be taken; false after teleporting the player back. */
bool border_move_ok(struct conn *c, double x, double z);
/* Appends vanilla's Border* tags for level.dat. */
void border_write(buf_t *b);
/* True if n is one of them (level_tags.c replaces them). */
bool border_owns_tag(const struct nbt_node *n);

#endif
