/*
 * pktnames.c — packet names for mcbench's per-type traffic report.
 *
 * Each row is keyed by the PKT_* id macro from src/data/packet_ids.h (itself
 * generated from minecraft-data), so an id can never drift from its name; a
 * packet removed from the generated header breaks the build here. The rows
 * were produced once from that header with awk (name = macro suffix, lower
 * case).
 *
 * Invariants:
 *  1. pkt_name() never returns NULL: an id without a row gets "unknown".
 *  2. Tables are indexed by id and sized by the header's *_COUNT macros.
 */
#include "bench/pktnames.h"

#include <stddef.h>

#include "data/packet_ids.h"

static const char *const login_sb[PKT_LOGIN_SB_COUNT] = {
    [PKT_LOGIN_SB_LOGIN_START] = "login_start",
    [PKT_LOGIN_SB_ENCRYPTION_BEGIN] = "encryption_begin",
    [PKT_LOGIN_SB_LOGIN_PLUGIN_RESPONSE] = "login_plugin_response",
};

static const char *const login_cb[PKT_LOGIN_CB_COUNT] = {
    [PKT_LOGIN_CB_DISCONNECT] = "disconnect",
    [PKT_LOGIN_CB_ENCRYPTION_BEGIN] = "encryption_begin",
    [PKT_LOGIN_CB_SUCCESS] = "success",
    [PKT_LOGIN_CB_COMPRESS] = "compress",
    [PKT_LOGIN_CB_LOGIN_PLUGIN_REQUEST] = "login_plugin_request",
};

static const char *const play_sb[PKT_PLAY_SB_COUNT] = {
    [PKT_PLAY_SB_TELEPORT_CONFIRM] = "teleport_confirm",
    [PKT_PLAY_SB_QUERY_BLOCK_NBT] = "query_block_nbt",
    [PKT_PLAY_SB_SET_DIFFICULTY] = "set_difficulty",
    [PKT_PLAY_SB_MESSAGE_ACKNOWLEDGEMENT] = "message_acknowledgement",
    [PKT_PLAY_SB_CHAT_COMMAND] = "chat_command",
    [PKT_PLAY_SB_CHAT_MESSAGE] = "chat_message",
    [PKT_PLAY_SB_CHAT_SESSION_UPDATE] = "chat_session_update",
    [PKT_PLAY_SB_CLIENT_COMMAND] = "client_command",
    [PKT_PLAY_SB_SETTINGS] = "settings",
    [PKT_PLAY_SB_TAB_COMPLETE] = "tab_complete",
    [PKT_PLAY_SB_ENCHANT_ITEM] = "enchant_item",
    [PKT_PLAY_SB_WINDOW_CLICK] = "window_click",
    [PKT_PLAY_SB_CLOSE_WINDOW] = "close_window",
    [PKT_PLAY_SB_CUSTOM_PAYLOAD] = "custom_payload",
    [PKT_PLAY_SB_EDIT_BOOK] = "edit_book",
    [PKT_PLAY_SB_QUERY_ENTITY_NBT] = "query_entity_nbt",
    [PKT_PLAY_SB_USE_ENTITY] = "use_entity",
    [PKT_PLAY_SB_GENERATE_STRUCTURE] = "generate_structure",
    [PKT_PLAY_SB_KEEP_ALIVE] = "keep_alive",
    [PKT_PLAY_SB_LOCK_DIFFICULTY] = "lock_difficulty",
    [PKT_PLAY_SB_POSITION] = "position",
    [PKT_PLAY_SB_POSITION_LOOK] = "position_look",
    [PKT_PLAY_SB_LOOK] = "look",
    [PKT_PLAY_SB_FLYING] = "flying",
    [PKT_PLAY_SB_VEHICLE_MOVE] = "vehicle_move",
    [PKT_PLAY_SB_STEER_BOAT] = "steer_boat",
    [PKT_PLAY_SB_PICK_ITEM] = "pick_item",
    [PKT_PLAY_SB_CRAFT_RECIPE_REQUEST] = "craft_recipe_request",
    [PKT_PLAY_SB_ABILITIES] = "abilities",
    [PKT_PLAY_SB_BLOCK_DIG] = "block_dig",
    [PKT_PLAY_SB_ENTITY_ACTION] = "entity_action",
    [PKT_PLAY_SB_STEER_VEHICLE] = "steer_vehicle",
    [PKT_PLAY_SB_PONG] = "pong",
    [PKT_PLAY_SB_RECIPE_BOOK] = "recipe_book",
    [PKT_PLAY_SB_DISPLAYED_RECIPE] = "displayed_recipe",
    [PKT_PLAY_SB_NAME_ITEM] = "name_item",
    [PKT_PLAY_SB_RESOURCE_PACK_RECEIVE] = "resource_pack_receive",
    [PKT_PLAY_SB_ADVANCEMENT_TAB] = "advancement_tab",
    [PKT_PLAY_SB_SELECT_TRADE] = "select_trade",
    [PKT_PLAY_SB_SET_BEACON_EFFECT] = "set_beacon_effect",
    [PKT_PLAY_SB_HELD_ITEM_SLOT] = "held_item_slot",
    [PKT_PLAY_SB_UPDATE_COMMAND_BLOCK] = "update_command_block",
    [PKT_PLAY_SB_UPDATE_COMMAND_BLOCK_MINECART] = "update_command_block_minecart",
    [PKT_PLAY_SB_SET_CREATIVE_SLOT] = "set_creative_slot",
    [PKT_PLAY_SB_UPDATE_JIGSAW_BLOCK] = "update_jigsaw_block",
    [PKT_PLAY_SB_UPDATE_STRUCTURE_BLOCK] = "update_structure_block",
    [PKT_PLAY_SB_UPDATE_SIGN] = "update_sign",
    [PKT_PLAY_SB_ARM_ANIMATION] = "arm_animation",
    [PKT_PLAY_SB_SPECTATE] = "spectate",
    [PKT_PLAY_SB_BLOCK_PLACE] = "block_place",
    [PKT_PLAY_SB_USE_ITEM] = "use_item",
};

static const char *const play_cb[PKT_PLAY_CB_COUNT] = {
    [PKT_PLAY_CB_BUNDLE_DELIMITER] = "bundle_delimiter",
    [PKT_PLAY_CB_SPAWN_ENTITY] = "spawn_entity",
    [PKT_PLAY_CB_SPAWN_ENTITY_EXPERIENCE_ORB] = "spawn_entity_experience_orb",
    [PKT_PLAY_CB_NAMED_ENTITY_SPAWN] = "named_entity_spawn",
    [PKT_PLAY_CB_ANIMATION] = "animation",
    [PKT_PLAY_CB_STATISTICS] = "statistics",
    [PKT_PLAY_CB_ACKNOWLEDGE_PLAYER_DIGGING] = "acknowledge_player_digging",
    [PKT_PLAY_CB_BLOCK_BREAK_ANIMATION] = "block_break_animation",
    [PKT_PLAY_CB_TILE_ENTITY_DATA] = "tile_entity_data",
    [PKT_PLAY_CB_BLOCK_ACTION] = "block_action",
    [PKT_PLAY_CB_BLOCK_CHANGE] = "block_change",
    [PKT_PLAY_CB_BOSS_BAR] = "boss_bar",
    [PKT_PLAY_CB_DIFFICULTY] = "difficulty",
    [PKT_PLAY_CB_CHUNK_BIOMES] = "chunk_biomes",
    [PKT_PLAY_CB_CLEAR_TITLES] = "clear_titles",
    [PKT_PLAY_CB_TAB_COMPLETE] = "tab_complete",
    [PKT_PLAY_CB_DECLARE_COMMANDS] = "declare_commands",
    [PKT_PLAY_CB_CLOSE_WINDOW] = "close_window",
    [PKT_PLAY_CB_WINDOW_ITEMS] = "window_items",
    [PKT_PLAY_CB_CRAFT_PROGRESS_BAR] = "craft_progress_bar",
    [PKT_PLAY_CB_SET_SLOT] = "set_slot",
    [PKT_PLAY_CB_SET_COOLDOWN] = "set_cooldown",
    [PKT_PLAY_CB_CHAT_SUGGESTIONS] = "chat_suggestions",
    [PKT_PLAY_CB_CUSTOM_PAYLOAD] = "custom_payload",
    [PKT_PLAY_CB_DAMAGE_EVENT] = "damage_event",
    [PKT_PLAY_CB_HIDE_MESSAGE] = "hide_message",
    [PKT_PLAY_CB_KICK_DISCONNECT] = "kick_disconnect",
    [PKT_PLAY_CB_PROFILELESS_CHAT] = "profileless_chat",
    [PKT_PLAY_CB_ENTITY_STATUS] = "entity_status",
    [PKT_PLAY_CB_EXPLOSION] = "explosion",
    [PKT_PLAY_CB_UNLOAD_CHUNK] = "unload_chunk",
    [PKT_PLAY_CB_GAME_STATE_CHANGE] = "game_state_change",
    [PKT_PLAY_CB_OPEN_HORSE_WINDOW] = "open_horse_window",
    [PKT_PLAY_CB_HURT_ANIMATION] = "hurt_animation",
    [PKT_PLAY_CB_INITIALIZE_WORLD_BORDER] = "initialize_world_border",
    [PKT_PLAY_CB_KEEP_ALIVE] = "keep_alive",
    [PKT_PLAY_CB_MAP_CHUNK] = "map_chunk",
    [PKT_PLAY_CB_WORLD_EVENT] = "world_event",
    [PKT_PLAY_CB_WORLD_PARTICLES] = "world_particles",
    [PKT_PLAY_CB_UPDATE_LIGHT] = "update_light",
    [PKT_PLAY_CB_LOGIN] = "login",
    [PKT_PLAY_CB_MAP] = "map",
    [PKT_PLAY_CB_TRADE_LIST] = "trade_list",
    [PKT_PLAY_CB_REL_ENTITY_MOVE] = "rel_entity_move",
    [PKT_PLAY_CB_ENTITY_MOVE_LOOK] = "entity_move_look",
    [PKT_PLAY_CB_ENTITY_LOOK] = "entity_look",
    [PKT_PLAY_CB_VEHICLE_MOVE] = "vehicle_move",
    [PKT_PLAY_CB_OPEN_BOOK] = "open_book",
    [PKT_PLAY_CB_OPEN_WINDOW] = "open_window",
    [PKT_PLAY_CB_OPEN_SIGN_ENTITY] = "open_sign_entity",
    [PKT_PLAY_CB_PING] = "ping",
    [PKT_PLAY_CB_CRAFT_RECIPE_RESPONSE] = "craft_recipe_response",
    [PKT_PLAY_CB_ABILITIES] = "abilities",
    [PKT_PLAY_CB_PLAYER_CHAT] = "player_chat",
    [PKT_PLAY_CB_END_COMBAT_EVENT] = "end_combat_event",
    [PKT_PLAY_CB_ENTER_COMBAT_EVENT] = "enter_combat_event",
    [PKT_PLAY_CB_DEATH_COMBAT_EVENT] = "death_combat_event",
    [PKT_PLAY_CB_PLAYER_REMOVE] = "player_remove",
    [PKT_PLAY_CB_PLAYER_INFO] = "player_info",
    [PKT_PLAY_CB_FACE_PLAYER] = "face_player",
    [PKT_PLAY_CB_POSITION] = "position",
    [PKT_PLAY_CB_UNLOCK_RECIPES] = "unlock_recipes",
    [PKT_PLAY_CB_ENTITY_DESTROY] = "entity_destroy",
    [PKT_PLAY_CB_REMOVE_ENTITY_EFFECT] = "remove_entity_effect",
    [PKT_PLAY_CB_RESOURCE_PACK_SEND] = "resource_pack_send",
    [PKT_PLAY_CB_RESPAWN] = "respawn",
    [PKT_PLAY_CB_ENTITY_HEAD_ROTATION] = "entity_head_rotation",
    [PKT_PLAY_CB_MULTI_BLOCK_CHANGE] = "multi_block_change",
    [PKT_PLAY_CB_SELECT_ADVANCEMENT_TAB] = "select_advancement_tab",
    [PKT_PLAY_CB_SERVER_DATA] = "server_data",
    [PKT_PLAY_CB_ACTION_BAR] = "action_bar",
    [PKT_PLAY_CB_WORLD_BORDER_CENTER] = "world_border_center",
    [PKT_PLAY_CB_WORLD_BORDER_LERP_SIZE] = "world_border_lerp_size",
    [PKT_PLAY_CB_WORLD_BORDER_SIZE] = "world_border_size",
    [PKT_PLAY_CB_WORLD_BORDER_WARNING_DELAY] = "world_border_warning_delay",
    [PKT_PLAY_CB_WORLD_BORDER_WARNING_REACH] = "world_border_warning_reach",
    [PKT_PLAY_CB_CAMERA] = "camera",
    [PKT_PLAY_CB_HELD_ITEM_SLOT] = "held_item_slot",
    [PKT_PLAY_CB_UPDATE_VIEW_POSITION] = "update_view_position",
    [PKT_PLAY_CB_UPDATE_VIEW_DISTANCE] = "update_view_distance",
    [PKT_PLAY_CB_SPAWN_POSITION] = "spawn_position",
    [PKT_PLAY_CB_SCOREBOARD_DISPLAY_OBJECTIVE] = "scoreboard_display_objective",
    [PKT_PLAY_CB_ENTITY_METADATA] = "entity_metadata",
    [PKT_PLAY_CB_ATTACH_ENTITY] = "attach_entity",
    [PKT_PLAY_CB_ENTITY_VELOCITY] = "entity_velocity",
    [PKT_PLAY_CB_ENTITY_EQUIPMENT] = "entity_equipment",
    [PKT_PLAY_CB_EXPERIENCE] = "experience",
    [PKT_PLAY_CB_UPDATE_HEALTH] = "update_health",
    [PKT_PLAY_CB_SCOREBOARD_OBJECTIVE] = "scoreboard_objective",
    [PKT_PLAY_CB_SET_PASSENGERS] = "set_passengers",
    [PKT_PLAY_CB_TEAMS] = "teams",
    [PKT_PLAY_CB_SCOREBOARD_SCORE] = "scoreboard_score",
    [PKT_PLAY_CB_SIMULATION_DISTANCE] = "simulation_distance",
    [PKT_PLAY_CB_SET_TITLE_SUBTITLE] = "set_title_subtitle",
    [PKT_PLAY_CB_UPDATE_TIME] = "update_time",
    [PKT_PLAY_CB_SET_TITLE_TEXT] = "set_title_text",
    [PKT_PLAY_CB_SET_TITLE_TIME] = "set_title_time",
    [PKT_PLAY_CB_ENTITY_SOUND_EFFECT] = "entity_sound_effect",
    [PKT_PLAY_CB_SOUND_EFFECT] = "sound_effect",
    [PKT_PLAY_CB_STOP_SOUND] = "stop_sound",
    [PKT_PLAY_CB_SYSTEM_CHAT] = "system_chat",
    [PKT_PLAY_CB_PLAYERLIST_HEADER] = "playerlist_header",
    [PKT_PLAY_CB_NBT_QUERY_RESPONSE] = "nbt_query_response",
    [PKT_PLAY_CB_COLLECT] = "collect",
    [PKT_PLAY_CB_ENTITY_TELEPORT] = "entity_teleport",
    [PKT_PLAY_CB_ADVANCEMENTS] = "advancements",
    [PKT_PLAY_CB_ENTITY_UPDATE_ATTRIBUTES] = "entity_update_attributes",
    [PKT_PLAY_CB_FEATURE_FLAGS] = "feature_flags",
    [PKT_PLAY_CB_ENTITY_EFFECT] = "entity_effect",
    [PKT_PLAY_CB_DECLARE_RECIPES] = "declare_recipes",
    [PKT_PLAY_CB_TAGS] = "tags",
};

const char *pkt_name(int state, int dir_in, int id)
{
    const char *const *t = NULL;
    int n = 0;
    switch (state) {
    case PKTN_HANDSHAKE: return id == 0 ? "set_protocol" : "unknown";
    case PKTN_LOGIN:
        t = dir_in ? login_cb : login_sb;
        n = dir_in ? PKT_LOGIN_CB_COUNT : PKT_LOGIN_SB_COUNT;
        break;
    case PKTN_PLAY:
        t = dir_in ? play_cb : play_sb;
        n = dir_in ? PKT_PLAY_CB_COUNT : PKT_PLAY_SB_COUNT;
        break;
    default: return "unknown";
    }
    if (id < 0 || id >= n || !t[id]) return "unknown";
    return t[id];
}
