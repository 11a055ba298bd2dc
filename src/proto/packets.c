/* packets.c — see packets.h. */
#include "proto/packets.h"

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

void pkt_cb_kick_disconnect(buf_t *b, const char *json, size_t len)
{
    wr_varint(b, PKT_PLAY_CB_KICK_DISCONNECT);
    wr_string(b, json, len);
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

void pkt_cb_block_change(buf_t *b, int32_t x, int32_t y, int32_t z, int32_t state)
{
    wr_varint(b, PKT_PLAY_CB_BLOCK_CHANGE);
    wr_position(b, x, y, z);
    wr_varint(b, state);
}

void pkt_cb_multi_block_change(buf_t *b, int32_t sx, int32_t sy, int32_t sz, const int64_t *records,
                               size_t n)
{
    wr_varint(b, PKT_PLAY_CB_MULTI_BLOCK_CHANGE);
    uint64_t pos = ((uint64_t)(sx & 0x3FFFFF) << 42) | ((uint64_t)(sz & 0x3FFFFF) << 20) |
                   (uint64_t)(sy & 0xFFFFF);
    wr_i64(b, (int64_t)pos);
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) wr_varlong(b, records[i]);
}

void pkt_wr_slot(buf_t *b, bool present, int32_t item, int8_t count, int32_t damage)
{
    wr_bool(b, present);
    if (!present) return;
    wr_varint(b, item);
    wr_u8(b, (uint8_t)count);
    if (!damage) {
        wr_u8(b, 0); /* no NBT */
        return;
    }
    wr_u8(b, 10); /* compound, empty name */
    wr_u16(b, 0);
    wr_u8(b, 3); /* int "Damage" */
    wr_u16(b, 6);
    buf_append(b, "Damage", 6);
    wr_i32(b, damage);
    wr_u8(b, 0); /* end */
}

static void wr_slot(buf_t *b, bool present, int32_t item, int8_t count)
{
    pkt_wr_slot(b, present, item, count, 0);
}

void pkt_cb_set_slot(buf_t *b, int8_t window, int32_t state_id, int16_t slot, int32_t item,
                     int8_t count)
{
    wr_varint(b, PKT_PLAY_CB_SET_SLOT);
    wr_u8(b, (uint8_t)window);
    wr_varint(b, state_id);
    wr_i16(b, slot);
    wr_slot(b, item > 0 && count > 0, item, count);
}

void pkt_cb_acknowledge_player_digging(buf_t *b, int32_t sequence)
{
    wr_varint(b, PKT_PLAY_CB_ACKNOWLEDGE_PLAYER_DIGGING);
    wr_varint(b, sequence);
}

static void player_info_add(buf_t *b, const struct pkt_player_entry *e, size_t n, bool props)
{
    wr_varint(b, PKT_PLAY_CB_PLAYER_INFO);
    wr_u8(b, 0x3f); /* add, init chat, game mode, listed, latency, display name */
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        wr_uuid(b, &e[i].uuid);
        wr_cstring(b, e[i].name);
        if (props)
            pkt_write_properties(b, e[i].props, e[i].prop_count);
        else
            wr_varint(b, 0);
        wr_bool(b, false); /* no chat session */
        wr_varint(b, e[i].gamemode);
        wr_bool(b, e[i].listed);
        wr_varint(b, e[i].latency_ms);
        wr_bool(b, false); /* no display name */
    }
}

void pkt_cb_player_info_add(buf_t *b, const struct pkt_player_entry *e, size_t n)
{
    player_info_add(b, e, n, false);
}

void pkt_cb_player_info_add_props(buf_t *b, const struct pkt_player_entry *e, size_t n)
{
    player_info_add(b, e, n, true);
}

void pkt_write_properties(buf_t *b, const struct pkt_property *props, size_t n)
{
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        wr_cstring(b, props[i].name);
        wr_cstring(b, props[i].value);
        wr_bool(b, props[i].signature != NULL);
        if (props[i].signature) wr_cstring(b, props[i].signature);
    }
}

void pkt_cb_player_remove(buf_t *b, const mc_uuid *uuids, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_PLAYER_REMOVE);
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) wr_uuid(b, &uuids[i]);
}

void pkt_cb_bundle_delimiter(buf_t *b)
{
    wr_varint(b, PKT_PLAY_CB_BUNDLE_DELIMITER);
}

/* ------------------------------------------------------------ multiplayer */

void pkt_cb_named_entity_spawn(buf_t *b, int32_t eid, const mc_uuid *uuid, double x, double y,
                               double z, uint8_t yaw, uint8_t pitch)
{
    wr_varint(b, PKT_PLAY_CB_NAMED_ENTITY_SPAWN);
    wr_varint(b, eid);
    wr_uuid(b, uuid);
    wr_f64(b, x);
    wr_f64(b, y);
    wr_f64(b, z);
    wr_u8(b, yaw);
    wr_u8(b, pitch);
}

void pkt_cb_entity_destroy(buf_t *b, const int32_t *ids, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_DESTROY);
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) wr_varint(b, ids[i]);
}

void pkt_cb_rel_entity_move(buf_t *b, int32_t eid, int16_t dx, int16_t dy, int16_t dz,
                            bool on_ground)
{
    wr_varint(b, PKT_PLAY_CB_REL_ENTITY_MOVE);
    wr_varint(b, eid);
    wr_i16(b, dx);
    wr_i16(b, dy);
    wr_i16(b, dz);
    wr_bool(b, on_ground);
}

void pkt_cb_entity_move_look(buf_t *b, int32_t eid, int16_t dx, int16_t dy, int16_t dz, uint8_t yaw,
                             uint8_t pitch, bool on_ground)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_MOVE_LOOK);
    wr_varint(b, eid);
    wr_i16(b, dx);
    wr_i16(b, dy);
    wr_i16(b, dz);
    wr_u8(b, yaw);
    wr_u8(b, pitch);
    wr_bool(b, on_ground);
}

void pkt_cb_entity_look(buf_t *b, int32_t eid, uint8_t yaw, uint8_t pitch, bool on_ground)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_LOOK);
    wr_varint(b, eid);
    wr_u8(b, yaw);
    wr_u8(b, pitch);
    wr_bool(b, on_ground);
}

void pkt_cb_entity_teleport(buf_t *b, int32_t eid, double x, double y, double z, uint8_t yaw,
                            uint8_t pitch, bool on_ground)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_TELEPORT);
    wr_varint(b, eid);
    wr_f64(b, x);
    wr_f64(b, y);
    wr_f64(b, z);
    wr_u8(b, yaw);
    wr_u8(b, pitch);
    wr_bool(b, on_ground);
}

void pkt_cb_entity_head_rotation(buf_t *b, int32_t eid, uint8_t head_yaw)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_HEAD_ROTATION);
    wr_varint(b, eid);
    wr_u8(b, head_yaw);
}

void pkt_cb_animation(buf_t *b, int32_t eid, uint8_t anim)
{
    wr_varint(b, PKT_PLAY_CB_ANIMATION);
    wr_varint(b, eid);
    wr_u8(b, anim);
}

void pkt_cb_entity_status(buf_t *b, int32_t eid, int8_t status)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_STATUS);
    wr_i32(b, eid);
    wr_u8(b, (uint8_t)status);
}

void pkt_cb_entity_metadata(buf_t *b, int32_t eid, const struct pkt_meta *m, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_METADATA);
    wr_varint(b, eid);
    for (size_t i = 0; i < n; i++) {
        wr_u8(b, m[i].index);
        wr_varint(b, m[i].type);
        switch (m[i].type) {
        case PKT_META_BYTE: wr_u8(b, (uint8_t)m[i].i); break;
        case PKT_META_FLOAT: wr_f32(b, m[i].f); break;
        case PKT_META_OPT_POS:
            wr_bool(b, m[i].i != 0);
            if (m[i].i) wr_position(b, m[i].pos.x, m[i].pos.y, m[i].pos.z);
            break;
        default: wr_varint(b, m[i].i); break; /* varint, pose */
        }
    }
    wr_u8(b, 0xff);
}

static int16_t velocity_of(double v)
{
    if (v < -3.9) v = -3.9;
    if (v > 3.9) v = 3.9;
    return (int16_t)(v * 8000.0);
}

void pkt_cb_spawn_entity(buf_t *b, int32_t eid, const mc_uuid *uuid, int32_t type, double x,
                         double y, double z, int32_t data, double vx, double vy, double vz)
{
    wr_varint(b, PKT_PLAY_CB_SPAWN_ENTITY);
    wr_varint(b, eid);
    wr_uuid(b, uuid);
    wr_varint(b, type);
    wr_f64(b, x);
    wr_f64(b, y);
    wr_f64(b, z);
    wr_u8(b, 0); /* pitch */
    wr_u8(b, 0); /* yaw */
    wr_u8(b, 0); /* head yaw */
    wr_varint(b, data);
    wr_i16(b, velocity_of(vx));
    wr_i16(b, velocity_of(vy));
    wr_i16(b, velocity_of(vz));
}

void pkt_cb_entity_velocity(buf_t *b, int32_t eid, double vx, double vy, double vz)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_VELOCITY);
    wr_varint(b, eid);
    wr_i16(b, velocity_of(vx));
    wr_i16(b, velocity_of(vy));
    wr_i16(b, velocity_of(vz));
}

void pkt_cb_entity_metadata_item(buf_t *b, int32_t eid, uint8_t index, int32_t item, int8_t count)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_METADATA);
    wr_varint(b, eid);
    wr_u8(b, index);
    wr_varint(b, 7); /* item_stack */
    wr_slot(b, item != 0 && count > 0, item, count);
    wr_u8(b, 0xff);
}

void pkt_cb_collect(buf_t *b, int32_t collected, int32_t collector, int32_t count)
{
    wr_varint(b, PKT_PLAY_CB_COLLECT);
    wr_varint(b, collected);
    wr_varint(b, collector);
    wr_varint(b, count);
}

void pkt_cb_entity_equipment(buf_t *b, int32_t eid, const struct pkt_equipment *e, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_ENTITY_EQUIPMENT);
    wr_varint(b, eid);
    for (size_t i = 0; i < n; i++) {
        /* Top bit set: another entry follows. */
        wr_u8(b, (uint8_t)((e[i].slot & 0x7f) | (i + 1 < n ? 0x80 : 0)));
        wr_slot(b, e[i].item != 0 && e[i].count > 0, e[i].item, e[i].count);
    }
}

void pkt_cb_player_info_update(buf_t *b, uint8_t actions, const struct pkt_player_update *e,
                               size_t n)
{
    wr_varint(b, PKT_PLAY_CB_PLAYER_INFO);
    wr_u8(b, actions);
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        wr_uuid(b, &e[i].uuid);
        if (actions & PKT_INFO_GAMEMODE) wr_varint(b, e[i].gamemode);
        if (actions & PKT_INFO_LISTED) wr_bool(b, e[i].listed);
        if (actions & PKT_INFO_LATENCY) wr_varint(b, e[i].latency_ms);
    }
}

void pkt_cb_playerlist_header(buf_t *b, const char *header_json, size_t hlen,
                              const char *footer_json, size_t flen)
{
    wr_varint(b, PKT_PLAY_CB_PLAYERLIST_HEADER);
    wr_string(b, header_json, hlen);
    wr_string(b, footer_json, flen);
}

void pkt_cb_tab_complete(buf_t *b, int32_t transaction, int32_t start, int32_t length,
                         const char *const *matches, size_t n)
{
    wr_varint(b, PKT_PLAY_CB_TAB_COMPLETE);
    wr_varint(b, transaction);
    wr_varint(b, start);
    wr_varint(b, length);
    wr_varint(b, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        wr_cstring(b, matches[i]);
        wr_bool(b, false); /* no tooltip */
    }
}

void pkt_cb_death_combat_event(buf_t *b, int32_t player_eid, const char *json, size_t len)
{
    wr_varint(b, PKT_PLAY_CB_DEATH_COMBAT_EVENT);
    wr_varint(b, player_eid);
    wr_string(b, json, len);
}

void pkt_cb_respawn(buf_t *b, const struct pkt_respawn *r)
{
    wr_varint(b, PKT_PLAY_CB_RESPAWN);
    wr_cstring(b, r->dimension_type);
    wr_cstring(b, r->world_name);
    wr_i64(b, r->hashed_seed);
    wr_u8(b, r->gamemode);
    wr_u8(b, (uint8_t)r->previous_gamemode);
    wr_bool(b, r->is_debug);
    wr_bool(b, r->is_flat);
    wr_bool(b, r->copy_metadata);
    wr_bool(b, r->has_death);
    if (r->has_death) {
        wr_cstring(b, r->death_world);
        wr_position(b, r->death_x, r->death_y, r->death_z);
    }
    wr_varint(b, r->portal_cooldown);
}

void pkt_sb_settings(rd_t *r, struct pkt_settings *s)
{
    s->locale = rd_string(r, 16, &s->locale_len);
    s->view_distance = rd_i8(r);
    s->chat_mode = rd_varint(r);
    s->chat_colors = rd_bool(r);
    s->skin_parts = rd_u8(r);
    s->main_hand = rd_varint(r);
    s->text_filtering = rd_bool(r);
    s->server_listing = rd_bool(r);
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

/* ------------------------------------------------------ issue 17's commands */

void pkt_cb_difficulty(buf_t *b, uint8_t difficulty, bool locked)
{
    wr_varint(b, PKT_PLAY_CB_DIFFICULTY);
    wr_u8(b, difficulty);
    wr_bool(b, locked);
}

void pkt_cb_initialize_world_border(buf_t *b, const struct pkt_border *w)
{
    wr_varint(b, PKT_PLAY_CB_INITIALIZE_WORLD_BORDER);
    wr_f64(b, w->x);
    wr_f64(b, w->z);
    wr_f64(b, w->old_diameter);
    wr_f64(b, w->new_diameter);
    wr_varlong(b, w->speed_ms);
    wr_varint(b, w->portal_teleport_boundary);
    wr_varint(b, w->warning_blocks);
    wr_varint(b, w->warning_time);
}

void pkt_cb_world_border_center(buf_t *b, double x, double z)
{
    wr_varint(b, PKT_PLAY_CB_WORLD_BORDER_CENTER);
    wr_f64(b, x);
    wr_f64(b, z);
}

void pkt_cb_world_border_lerp_size(buf_t *b, double old_diameter, double new_diameter,
                                   int64_t speed_ms)
{
    wr_varint(b, PKT_PLAY_CB_WORLD_BORDER_LERP_SIZE);
    wr_f64(b, old_diameter);
    wr_f64(b, new_diameter);
    wr_varlong(b, speed_ms);
}

void pkt_cb_world_border_size(buf_t *b, double diameter)
{
    wr_varint(b, PKT_PLAY_CB_WORLD_BORDER_SIZE);
    wr_f64(b, diameter);
}

void pkt_cb_world_border_warning_delay(buf_t *b, int32_t seconds)
{
    wr_varint(b, PKT_PLAY_CB_WORLD_BORDER_WARNING_DELAY);
    wr_varint(b, seconds);
}

void pkt_cb_world_border_warning_reach(buf_t *b, int32_t blocks)
{
    wr_varint(b, PKT_PLAY_CB_WORLD_BORDER_WARNING_REACH);
    wr_varint(b, blocks);
}

static void text_packet(buf_t *b, int32_t id, const char *json, size_t len)
{
    wr_varint(b, id);
    wr_string(b, json, len);
}

void pkt_cb_set_title_text(buf_t *b, const char *json, size_t len)
{
    text_packet(b, PKT_PLAY_CB_SET_TITLE_TEXT, json, len);
}

void pkt_cb_set_title_subtitle(buf_t *b, const char *json, size_t len)
{
    text_packet(b, PKT_PLAY_CB_SET_TITLE_SUBTITLE, json, len);
}

void pkt_cb_action_bar(buf_t *b, const char *json, size_t len)
{
    text_packet(b, PKT_PLAY_CB_ACTION_BAR, json, len);
}

void pkt_cb_set_title_time(buf_t *b, int32_t fade_in, int32_t stay, int32_t fade_out)
{
    wr_varint(b, PKT_PLAY_CB_SET_TITLE_TIME);
    wr_i32(b, fade_in);
    wr_i32(b, stay);
    wr_i32(b, fade_out);
}

void pkt_cb_clear_titles(buf_t *b, bool reset)
{
    wr_varint(b, PKT_PLAY_CB_CLEAR_TITLES);
    wr_bool(b, reset);
}

void pkt_cb_sound_effect_named(buf_t *b, const char *name, int32_t category, double x, double y,
                               double z, float volume, float pitch, int64_t seed)
{
    wr_varint(b, PKT_PLAY_CB_SOUND_EFFECT);
    wr_varint(b, 0); /* inline: the name follows */
    wr_string(b, name, strlen(name));
    wr_bool(b, false); /* no fixed range */
    wr_varint(b, category);
    wr_i32(b, (int32_t)(x * 8.0));
    wr_i32(b, (int32_t)(y * 8.0));
    wr_i32(b, (int32_t)(z * 8.0));
    wr_f32(b, volume);
    wr_f32(b, pitch);
    wr_i64(b, seed);
}

void pkt_cb_block_action(buf_t *b, int32_t x, int32_t y, int32_t z, uint8_t action, uint8_t param,
                         int32_t block)
{
    wr_varint(b, PKT_PLAY_CB_BLOCK_ACTION);
    wr_position(b, x, y, z);
    wr_u8(b, action);
    wr_u8(b, param);
    wr_varint(b, block);
}

void pkt_cb_world_event(buf_t *b, int32_t event, int32_t x, int32_t y, int32_t z, int32_t data,
                        bool global)
{
    wr_varint(b, PKT_PLAY_CB_WORLD_EVENT);
    wr_i32(b, event);
    wr_position(b, x, y, z);
    wr_i32(b, data);
    wr_bool(b, global);
}
