/* packets.c — see packets.h. */
#include "game/packets.h"

#include <openssl/evp.h>
#include <string.h>

#include "data/packet_ids.h"

void pkt_cb_login(buf_t *b, const struct pkt_login *l)
{
    wr_varint(b, PKT_PLAY_CB_LOGIN);
    wr_i32(b, l->entity_id);
    wr_bool(b, l->hardcore);
    wr_u8(b, l->gamemode);
    wr_u8(b, (uint8_t)l->previous_gamemode);
    wr_varint(b, l->world_name_count);
    for (int i = 0; i < l->world_name_count; i++) wr_cstring(b, l->world_names[i]);
    buf_append(b, l->codec, l->codec_len);
    wr_cstring(b, l->world_type);
    wr_cstring(b, l->world_name);
    wr_i64(b, l->hashed_seed);
    wr_varint(b, l->max_players);
    wr_varint(b, l->view_distance);
    wr_varint(b, l->simulation_distance);
    wr_bool(b, l->reduced_debug_info);
    wr_bool(b, l->enable_respawn_screen);
    wr_bool(b, l->is_debug);
    wr_bool(b, l->is_flat);
    wr_bool(b, false); /* no death location */
    wr_varint(b, l->portal_cooldown);
}

void pkt_cb_keep_alive(buf_t *b, int64_t id)
{
    wr_varint(b, PKT_PLAY_CB_KEEP_ALIVE);
    wr_i64(b, id);
}

void pkt_cb_position(buf_t *b, double x, double y, double z, float yaw, float pitch, int8_t flags,
                     int32_t teleport_id)
{
    wr_varint(b, PKT_PLAY_CB_POSITION);
    wr_f64(b, x);
    wr_f64(b, y);
    wr_f64(b, z);
    wr_f32(b, yaw);
    wr_f32(b, pitch);
    wr_u8(b, (uint8_t)flags);
    wr_varint(b, teleport_id);
}

void pkt_cb_spawn_position(buf_t *b, int32_t x, int32_t y, int32_t z, float angle)
{
    wr_varint(b, PKT_PLAY_CB_SPAWN_POSITION);
    wr_position(b, x, y, z);
    wr_f32(b, angle);
}

void pkt_cb_update_health(buf_t *b, float health, int32_t food, float saturation)
{
    wr_varint(b, PKT_PLAY_CB_UPDATE_HEALTH);
    wr_f32(b, health);
    wr_varint(b, food);
    wr_f32(b, saturation);
}

void pkt_cb_update_view_position(buf_t *b, int32_t cx, int32_t cz)
{
    wr_varint(b, PKT_PLAY_CB_UPDATE_VIEW_POSITION);
    wr_varint(b, cx);
    wr_varint(b, cz);
}

void pkt_cb_unload_chunk(buf_t *b, int32_t cx, int32_t cz)
{
    wr_varint(b, PKT_PLAY_CB_UNLOAD_CHUNK);
    wr_i32(b, cx);
    wr_i32(b, cz);
}

void pkt_cb_abilities(buf_t *b, int8_t flags, float flying_speed, float walking_speed)
{
    wr_varint(b, PKT_PLAY_CB_ABILITIES);
    wr_u8(b, (uint8_t)flags);
    wr_f32(b, flying_speed);
    wr_f32(b, walking_speed);
}

void pkt_cb_system_chat(buf_t *b, const char *json, size_t len, bool action_bar)
{
    wr_varint(b, PKT_PLAY_CB_SYSTEM_CHAT);
    wr_string(b, json, len);
    wr_bool(b, action_bar);
}

void pkt_cb_update_time(buf_t *b, int64_t age, int64_t time)
{
    wr_varint(b, PKT_PLAY_CB_UPDATE_TIME);
    wr_i64(b, age);
    wr_i64(b, time);
}

void pkt_cb_game_state_change(buf_t *b, uint8_t reason, float value)
{
    wr_varint(b, PKT_PLAY_CB_GAME_STATE_CHANGE);
    wr_u8(b, reason);
    wr_f32(b, value);
}

void pkt_cb_player_info_add(buf_t *b, const struct pkt_player_entry *e, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_PLAYER_INFO);
    wr_u8(b, 0x3f); /* add, init chat, game mode, listed, latency, display name */
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        wr_uuid(b, &e[i].uuid);
        wr_cstring(b, e[i].name);
        wr_varint(b, 0);   /* properties */
        wr_bool(b, false); /* no chat session */
        wr_varint(b, e[i].gamemode);
        wr_bool(b, e[i].listed);
        wr_varint(b, e[i].latency_ms);
        wr_bool(b, false); /* no display name */
    }
}

void pkt_cb_player_remove(buf_t *b, const mc_uuid *uuids, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_PLAYER_REMOVE);
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) wr_uuid(b, &uuids[i]);
}

int64_t hashed_seed(int64_t seed)
{
    uint8_t in[8], md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    for (int i = 0; i < 8; i++) in[i] = (uint8_t)((uint64_t)seed >> (8 * i));
    if (!EVP_Digest(in, sizeof in, md, &mdlen, EVP_sha256(), NULL) || mdlen < 8) return 0;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | md[i];
    return (int64_t)v;
}
