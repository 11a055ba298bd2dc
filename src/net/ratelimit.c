/*
 * ratelimit.c — see ratelimit.h. Pure: no I/O, no globals.
 */
#include "net/ratelimit.h"

#include "data/packet_ids.h"

/* ------------------------------------------------------------ rate window */

uint32_t rate_win_add(rate_win *w, int64_t now_ms, int64_t interval_ms, uint32_t n)
{
    if (interval_ms <= 0) interval_ms = 1;
    int64_t age = now_ms - w->start_ms;
    if ((w->start_ms == 0 && w->prev == 0 && w->cur == 0) || age < 0 || age >= 2 * interval_ms) {
        w->start_ms = now_ms;
        w->prev = w->cur = 0;
    } else if (age >= interval_ms) {
        w->prev = w->cur;
        w->cur = 0;
        w->start_ms += interval_ms;
    }
    w->cur = w->cur > UINT32_MAX - n ? UINT32_MAX : w->cur + n;
    int64_t into = now_ms - w->start_ms; /* 0 .. interval_ms - 1 */
    uint64_t est = (uint64_t)w->cur +
                   (uint64_t)w->prev * (uint64_t)(interval_ms - into) / (uint64_t)interval_ms;
    return est > UINT32_MAX ? UINT32_MAX : (uint32_t)est;
}

/* ---------------------------------------------------------- packet tables */

/*
 * Cheap-but-spammy serverbound types get their own window and are DROPPED
 * above it (the connection stays). Paper's default override is the recipe
 * book's place-recipe at 5/s over 4 s; the others are set well above what a
 * vanilla client sends (at most one per tick for each of them).
 */
const struct packet_override limits_packet_overrides[] = {
    {PKT_PLAY_SB_CRAFT_RECIPE_REQUEST, "place_recipe", 4000, 5},
    {PKT_PLAY_SB_TAB_COMPLETE, "command_suggestion", 4000, 20},
    {PKT_PLAY_SB_ARM_ANIMATION, "swing", 2000, 40},
    {PKT_PLAY_SB_HELD_ITEM_SLOT, "set_carried_item", 2000, 40},
    {PKT_PLAY_SB_ENTITY_ACTION, "player_command", 2000, 60},
    {PKT_PLAY_SB_SETTINGS, "client_information", 4000, 5},
    {PKT_PLAY_SB_PICK_ITEM, "pick_item", 4000, 10},
    {PKT_PLAY_SB_DISPLAYED_RECIPE, "recipe_book_seen_recipe", 4000, 10},
};
const size_t limits_packet_override_count =
    sizeof limits_packet_overrides / sizeof limits_packet_overrides[0];

size_t limits_play_packet_max(int32_t id)
{
    switch (id) {
    /* vanilla ServerboundCustomPayloadPacket: channel readUtf(32767), data <= 32767 bytes */
    case PKT_PLAY_SB_CUSTOM_PAYLOAD: return 1 + 3 + 3u * 32767 + 32767;
    /* position, front flag, 4 lines of readUtf(384) */
    case PKT_PLAY_SB_UPDATE_SIGN: return 1 + 8 + 1 + 4 * (2 + 3u * 384);
    /* movement and other fixed-size packets: a few dozen bytes */
    case PKT_PLAY_SB_TELEPORT_CONFIRM:
    case PKT_PLAY_SB_KEEP_ALIVE:
    case PKT_PLAY_SB_POSITION:
    case PKT_PLAY_SB_POSITION_LOOK:
    case PKT_PLAY_SB_LOOK:
    case PKT_PLAY_SB_FLYING:
    case PKT_PLAY_SB_ARM_ANIMATION:
    case PKT_PLAY_SB_HELD_ITEM_SLOT:
    case PKT_PLAY_SB_ENTITY_ACTION:
    case PKT_PLAY_SB_BLOCK_DIG:
    case PKT_PLAY_SB_BLOCK_PLACE:
    case PKT_PLAY_SB_USE_ITEM:
    case PKT_PLAY_SB_CLIENT_COMMAND: return 64;
    default: return 0;
    }
}
