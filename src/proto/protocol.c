/*
 * protocol.c — the supported protocol tables (see protocol.h) and id
 * translation for framing.
 *
 * Every packet mcserv uses whose layout differs between 1.20.1 (763) and
 * 26.1 (775, the newest release in the pinned minecraft-data; rerun
 * `node tools/gen_data.js --diff [VERSION]` for another), and where it goes:
 *
 *  Routed through struct mc_protocol (written or read for one connection):
 *    cb login, respawn, position, spawn_position, unload_chunk, update_time,
 *       death_combat_event, kick_disconnect, set_slot, system_chat,
 *       playerlist_header; sb settings.
 *
 *  Shared frames, left for the version issue (encode once per protocol in
 *  use; net/conn.h pkt_frame_shared_for frames one per protocol):
 *    map_chunk        world.c chunk cache: heightmaps become typed arrays,
 *                     the container drops its long count (1.21.5), and the
 *                     block state ids differ (update_light: ids only)
 *    block_change, multi_block_change   same layout, other block state ids
 *    entity_teleport  movement batches: velocity, f32 angles, i32 flags
 *    named_entity_spawn  absent (spawn_entity with the player type)
 *    entity_equipment item components; entity_metadata: other type ids
 *    system_chat, update_time, spawn_position   when broadcast (chat.c,
 *                     daytime.c, /setworldspawn)
 *    player_info      new actions and NBT display names, but the bytes of
 *                     the actions mcserv writes are the same: ids only
 *    declare_commands other argument parser ids (cmd_dispatch.c frames)
 *
 *  Per connection, not routed:
 *    login cb encryption_begin (shouldAuthenticate added), sb login_start
 *       (UUID no longer optional): net/login.c writes and reads them inline.
 *    cb tab_complete: tooltips become NBT; mcserv sends none (same bytes).
 *    cb game_state_change, sb arm_animation, client_command: enum labels
 *       only (same bytes).
 *    sb position, position_look, look, flying: onGround becomes a flags
 *       byte (bit 0); decoded inline on the hot path (game/play.c).
 *    sb block_place (worldBorderHit), use_item (rotation), use_entity
 *       (location), chat_command (signatures move to chat_command_signed),
 *       chat_message (checksum), set_creative_slot, window_click (hashed
 *       slots), entity_action (action ids renumbered: sneaking leaves),
 *       craft_recipe_request, displayed_recipe (recipe ids): decoded inline
 *       by their handlers; pick_item: absent (pick_item_from_block/_entity).
 */
#include "proto/protocol.h"

#include <stdio.h>

#include "data/packet_ids.h"
#include "proto/frame.h"

const struct mc_protocol protocol_763 = {
    .version = 763,
    .name = "1.20.1",
    .slot = 0,
    .identity = PROTO_IDS_763_IDENTITY,
    .ids = &proto_ids_763,
    .cb_login = pkt_cb_login,
    .cb_respawn = pkt_cb_respawn,
    .cb_position = pkt_cb_position,
    .cb_spawn_position = pkt_cb_spawn_position,
    .cb_unload_chunk = pkt_cb_unload_chunk,
    .cb_update_time = pkt_cb_update_time,
    .cb_death_combat_event = pkt_cb_death_combat_event,
    .cb_kick_disconnect = pkt_cb_kick_disconnect,
    .cb_set_slot = pkt_cb_set_slot,
    .cb_system_chat = pkt_cb_system_chat,
    .cb_playerlist_header = pkt_cb_playerlist_header,
    .sb_settings = pkt_sb_settings,
};

/* Oldest first; slot i is at index i. */
static const struct mc_protocol *const supported[PROTO_VERSION_COUNT] = {&protocol_763,
                                                                         &protocol_775};

/* Set Slot is not among them: game/inventory.c writes it in 763's layout
 * (with its NBT), so 775's cb_set_slot is 763's and the translation does
 * the rest. */
bool protocol_routed(int32_t logical)
{
    switch (logical) {
    case PKT_PLAY_CB_LOGIN:
    case PKT_PLAY_CB_RESPAWN:
    case PKT_PLAY_CB_POSITION:
    case PKT_PLAY_CB_SPAWN_POSITION:
    case PKT_PLAY_CB_UNLOAD_CHUNK:
    case PKT_PLAY_CB_UPDATE_TIME:
    case PKT_PLAY_CB_DEATH_COMBAT_EVENT:
    case PKT_PLAY_CB_KICK_DISCONNECT:
    case PKT_PLAY_CB_SYSTEM_CHAT:
    case PKT_PLAY_CB_PLAYERLIST_HEADER: return true;
    default: return false;
    }
}

const struct mc_protocol *protocol_for(int version)
{
    for (size_t i = 0; i < PROTO_VERSION_COUNT; i++)
        if (supported[i]->version == version) return supported[i];
    return NULL;
}

const char *protocol_names(void)
{
    static char text[32 * PROTO_VERSION_COUNT];
    if (!text[0]) {
        size_t n = 0;
        for (size_t i = 0; i < PROTO_VERSION_COUNT && n < sizeof text; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i ? ", " : "",
                                  supported[i]->name);
    }
    return text;
}

int protocol_oldest(void)
{
    return supported[0]->version;
}

const struct mc_protocol *protocol_nearest(int version)
{
    return version < supported[0]->version ? supported[0] : supported[PROTO_VERSION_COUNT - 1];
}

int protocol_frame(const struct mc_protocol *p, int state, buf_t *out, const uint8_t *pkt,
                   size_t len, int threshold, struct libdeflate_compressor *z, buf_t *scratch)
{
    if (p->identity) return frame_encode(out, pkt, len, threshold, z);
    rd_t r = rd_make(pkt, len);
    int32_t logical = rd_varint(&r);
    if (r.err) return PROTOCOL_E_ID;
    int32_t wire = protocol_cb_wire(p, state, logical);
    if (wire < 0) return PROTOCOL_E_ABSENT;
    size_t body = len - rd_left(&r);
    buf_reset(scratch);
    wr_varint(scratch, wire);
    buf_append(scratch, pkt + body, len - body);
    if (scratch->failed) return PROTOCOL_E_OUTPUT;
    return frame_encode(out, scratch->data, scratch->len, threshold, z) < 0 ? PROTOCOL_E_OUTPUT : 0;
}
