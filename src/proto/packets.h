/*
 * packets.h — clientbound PLAY packet encoders and the few serverbound
 * decoders that live outside their handlers (protocol 763).
 *
 * Each pkt_cb_* appends one whole packet, VarInt id then payload, to `b`
 * (no frame); the unit tests hold these byte-for-byte against captures of a
 * vanilla 1.20.1 server (minecraft-packets). Field layouts follow
 * minecraft-data's 1.20/protocol.json; names follow minecraft-data. The id
 * written is the logical one (data/packet_ids.h: 763's numbering); framing
 * translates it for the connection's version (proto/protocol.h). Encoders
 * whose layout differs between versions are reached through the
 * connection's protocol table (c->proto->cb_*), not called directly.
 */
#ifndef MC_PACKETS_H
#define MC_PACKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/wire.h"

struct pkt_login {
    int32_t entity_id;
    bool hardcore;
    uint8_t gamemode;
    int8_t previous_gamemode;
    const char *const *world_names;
    int world_name_count;
    const uint8_t *codec; /* network NBT, named root */
    size_t codec_len;
    const char *world_type;
    const char *world_name;
    int64_t hashed_seed;
    int32_t max_players;
    int32_t view_distance;
    int32_t simulation_distance;
    bool reduced_debug_info;
    bool enable_respawn_screen;
    bool is_debug;
    bool is_flat;
    int32_t portal_cooldown;
    int32_t sea_level; /* 26.1's SpawnInfo (63; a flat world -63, as vanilla) */
};

void pkt_cb_login(buf_t *b, const struct pkt_login *l);
void pkt_cb_keep_alive(buf_t *b, int64_t id);
/* flags: bit 0..4 = x, y, z, yaw, pitch relative. */
void pkt_cb_position(buf_t *b, double x, double y, double z, float yaw, float pitch, int8_t flags,
                     int32_t teleport_id);
void pkt_cb_spawn_position(buf_t *b, int32_t x, int32_t y, int32_t z, float angle);
void pkt_cb_update_health(buf_t *b, float health, int32_t food, float saturation);
void pkt_cb_update_view_position(buf_t *b, int32_t cx, int32_t cz);
void pkt_cb_unload_chunk(buf_t *b, int32_t cx, int32_t cz);
void pkt_cb_abilities(buf_t *b, int8_t flags, float flying_speed, float walking_speed);
void pkt_cb_system_chat(buf_t *b, const char *json, size_t len, bool action_bar);
/* Disconnect (play): the reason as a JSON text component. */
void pkt_cb_kick_disconnect(buf_t *b, const char *json, size_t len);
void pkt_cb_update_time(buf_t *b, int64_t age, int64_t time);
void pkt_cb_game_state_change(buf_t *b, uint8_t reason, float value);

void pkt_cb_block_change(buf_t *b, int32_t x, int32_t y, int32_t z, int32_t state);
/* Update Section Blocks: records are state << 12 | x << 8 | z << 4 | y (section-local). */
void pkt_cb_multi_block_change(buf_t *b, int32_t sx, int32_t sy, int32_t sz, const int64_t *records,
                               size_t n);
void pkt_cb_acknowledge_player_digging(buf_t *b, int32_t sequence);
/* A Slot (present, item id, count, NBT): the NBT is {Damage: damage} for a
 * worn tool, none when damage is 0. */
void pkt_wr_slot(buf_t *b, bool present, int32_t item, int8_t count, int32_t damage);
/* Set Container Slot with an item without NBT (item 0 or count 0: empty). */
void pkt_cb_set_slot(buf_t *b, int8_t window, int32_t state_id, int16_t slot, int32_t item,
                     int8_t count);

/* One game profile property, e.g. "textures" (the skin); signature NULL =
 * unsigned. Sent in Login Success and Player Info so clients show skins. */
struct pkt_property {
    const char *name;
    const char *value;
    const char *signature;
};

/* One Player Info Update entry with vanilla's join actions (0x3f).
 * props/prop_count: the profile's properties (NULL/0 for none); only
 * pkt_cb_player_info_add_props reads them. */
struct pkt_player_entry {
    mc_uuid uuid;
    const char *name;
    int32_t gamemode;
    bool listed;
    int32_t latency_ms;
    const struct pkt_property *props;
    size_t prop_count;
};
/* Entries mcserv puts in one Player Info Update or Remove: a tick's joins or
 * leaves go out as one packet up to this many (256 skins stay far below the
 * client's 2 MiB frame). */
#define PKT_INFO_ENTRIES_MAX 256
/* Writes every entry with 0 properties (props/prop_count are not read). */
void pkt_cb_player_info_add(buf_t *b, const struct pkt_player_entry *e, size_t n);
/* The same with each entry's properties (skins): what online mode and
 * forwarded players need so that others see their skins. */
void pkt_cb_player_info_add_props(buf_t *b, const struct pkt_player_entry *e, size_t n);
/* The property list as Login Success and Player Info write it:
 * VarInt count, then per property String name, String value,
 * bool signed, [String signature]. */
void pkt_write_properties(buf_t *b, const struct pkt_property *props, size_t n);
void pkt_cb_player_remove(buf_t *b, const mc_uuid *uuids, size_t n);
/* Bundle Delimiter (no payload): the client applies the packets between two
 * delimiters in one go (vanilla pairs an entity's spawn packets this way);
 * at most PKT_BUNDLE_MAX packets in between (vanilla PacketBundlePacker). */
#define PKT_BUNDLE_MAX 4096
void pkt_cb_bundle_delimiter(buf_t *b);

/* --- multiplayer: entity tracking, tab list, chat, commands, respawn ---
 * Angles are protocol bytes (1/256 turn; vanilla floor(deg * 256 / 360));
 * relative moves are i16 deltas of position * 4096. */
void pkt_cb_named_entity_spawn(buf_t *b, int32_t eid, const mc_uuid *uuid, double x, double y,
                               double z, uint8_t yaw, uint8_t pitch);
void pkt_cb_entity_destroy(buf_t *b, const int32_t *ids, size_t n);
void pkt_cb_rel_entity_move(buf_t *b, int32_t eid, int16_t dx, int16_t dy, int16_t dz,
                            bool on_ground);
void pkt_cb_entity_move_look(buf_t *b, int32_t eid, int16_t dx, int16_t dy, int16_t dz, uint8_t yaw,
                             uint8_t pitch, bool on_ground);
void pkt_cb_entity_look(buf_t *b, int32_t eid, uint8_t yaw, uint8_t pitch, bool on_ground);
void pkt_cb_entity_teleport(buf_t *b, int32_t eid, double x, double y, double z, uint8_t yaw,
                            uint8_t pitch, bool on_ground);
void pkt_cb_entity_head_rotation(buf_t *b, int32_t eid, uint8_t head_yaw);
/* anim: 0 swing main arm, 3 swing off hand (vanilla ClientboundAnimatePacket). */
void pkt_cb_animation(buf_t *b, int32_t eid, uint8_t anim);
/* entity_status: i32 id, i8 event (3 death, 24..28 op permission level 0..4). */
void pkt_cb_entity_status(buf_t *b, int32_t eid, int8_t status);

/* One Set Entity Metadata entry. type: PKT_META_BYTE, _VARINT, _FLOAT,
 * _OPT_POS (Optional<BlockPos>), _POSE. */
enum {
    PKT_META_BYTE = 0,
    PKT_META_VARINT = 1,
    PKT_META_FLOAT = 3,
    PKT_META_OPT_POS = 11,
    PKT_META_POSE = 20
};
struct pkt_meta {
    uint8_t index;
    uint8_t type;
    int32_t i; /* byte, varint, pose; opt pos: present (non-zero) */
    union {
        float f; /* float */
        struct {
            int32_t x, y, z;
        } pos; /* opt pos */
    };
};
void pkt_cb_entity_metadata(buf_t *b, int32_t eid, const struct pkt_meta *m, size_t n);

/* --- item entities (game/items.c) ---
 * Spawn Entity: type an ENTITY_TYPE_*, angles as bytes, `data` the
 * type's object data (0 for an item), velocity in blocks per tick, sent as
 * i16 of 1/8000 block clamped to ±3.9 (vanilla ClientboundAddEntityPacket). */
void pkt_cb_spawn_entity(buf_t *b, int32_t eid, const mc_uuid *uuid, int32_t type, double x,
                         double y, double z, int32_t data, double vx, double vy, double vz);
/* Set Entity Velocity, the same units. */
void pkt_cb_entity_velocity(buf_t *b, int32_t eid, double vx, double vy, double vz);
/* Set Entity Metadata with one item stack entry (type 7, without NBT). */
void pkt_cb_entity_metadata_item(buf_t *b, int32_t eid, uint8_t index, int32_t item, int8_t count);
/* Take Item Entity: the collect animation of `count` items flying to the collector. */
void pkt_cb_collect(buf_t *b, int32_t collected, int32_t collector, int32_t count);

/* One Set Equipment entry: slot 0 main hand, 1 off hand, 2 feet .. 5 head;
 * item 0 = empty. Items are sent without NBT. */
struct pkt_equipment {
    int8_t slot;
    int32_t item;
    int8_t count;
};
void pkt_cb_entity_equipment(buf_t *b, int32_t eid, const struct pkt_equipment *e, size_t n);

/* Player Info Update with a subset of PKT_INFO_GAMEMODE | _LISTED | _LATENCY. */
enum { PKT_INFO_GAMEMODE = 0x04, PKT_INFO_LISTED = 0x08, PKT_INFO_LATENCY = 0x10 };
struct pkt_player_update {
    mc_uuid uuid;
    int32_t gamemode;
    bool listed;
    int32_t latency_ms;
};
void pkt_cb_player_info_update(buf_t *b, uint8_t actions, const struct pkt_player_update *e,
                               size_t n);
/* Tab list header and footer, both JSON text components. */
void pkt_cb_playerlist_header(buf_t *b, const char *header_json, size_t hlen,
                              const char *footer_json, size_t flen);
/* Tab-completion answer: the range [start, start+length) of the typed text
 * (counting its leading '/') and the suggestions, without tooltips. */
void pkt_cb_tab_complete(buf_t *b, int32_t transaction, int32_t start, int32_t length,
                         const char *const *matches, size_t n);
/* Combat Death: the death screen's message (JSON). */
void pkt_cb_death_combat_event(buf_t *b, int32_t player_eid, const char *json, size_t len);

struct pkt_respawn {
    const char *dimension_type; /* "minecraft:overworld" */
    const char *world_name;
    int64_t hashed_seed;
    uint8_t gamemode;
    int8_t previous_gamemode; /* -1 none */
    bool is_debug, is_flat;
    bool copy_metadata;
    bool has_death;
    const char *death_world;
    int32_t death_x, death_y, death_z;
    int32_t portal_cooldown;
    int32_t sea_level; /* as pkt_login's */
};
void pkt_cb_respawn(buf_t *b, const struct pkt_respawn *r);

/* Client Information (serverbound settings), as read by pkt_sb_settings.
 * locale points into the packet (not NUL-terminated). */
struct pkt_settings {
    const char *locale;
    size_t locale_len;
    int8_t view_distance;
    int32_t chat_mode; /* 0 full, 1 commands only, 2 hidden */
    bool chat_colors;
    uint8_t skin_parts;
    int32_t main_hand; /* 0 left, 1 right */
    bool text_filtering;
    bool server_listing;
};
/* Reads the payload after the id; a malformed packet sets r->err. */
void pkt_sb_settings(rd_t *r, struct pkt_settings *s);

/* Vanilla's obfuscated seed: first 8 bytes (LE) of SHA-256 of the LE seed. */
int64_t hashed_seed(int64_t seed);

/* ------------------------------------------------------ issue 17's commands */

/* Change Difficulty: 0 peaceful .. 3 hard. */
void pkt_cb_difficulty(buf_t *b, uint8_t difficulty, bool locked);
/* The world border (vanilla writes the lerp time as a VarLong of ms;
 * minecraft-data says varint, the same bytes below 2^31). */
struct pkt_border {
    double x, z, old_diameter, new_diameter;
    int64_t speed_ms; /* 0: not moving */
    int32_t portal_teleport_boundary, warning_blocks, warning_time;
};
void pkt_cb_initialize_world_border(buf_t *b, const struct pkt_border *w);
void pkt_cb_world_border_center(buf_t *b, double x, double z);
void pkt_cb_world_border_lerp_size(buf_t *b, double old_diameter, double new_diameter,
                                   int64_t speed_ms);
void pkt_cb_world_border_size(buf_t *b, double diameter);
void pkt_cb_world_border_warning_delay(buf_t *b, int32_t seconds);
void pkt_cb_world_border_warning_reach(buf_t *b, int32_t blocks);
/* Titles: text is a JSON component. */
void pkt_cb_set_title_text(buf_t *b, const char *json, size_t len);
void pkt_cb_set_title_subtitle(buf_t *b, const char *json, size_t len);
void pkt_cb_action_bar(buf_t *b, const char *json, size_t len);
void pkt_cb_set_title_time(buf_t *b, int32_t fade_in, int32_t stay, int32_t fade_out);
void pkt_cb_clear_titles(buf_t *b, bool reset);
/* World Event (vanilla levelEvent), e.g. 2001 block break particles and sound, data the state. */
void pkt_cb_world_event(buf_t *b, int32_t event, int32_t x, int32_t y, int32_t z, int32_t data,
                        bool global);
/* Block Action (vanilla blockEvent): a piston's extend / retract (action 0 / 1,
 * param its direction), a note block's note; block is the block id. */
/* Sound Effect with the sound named inline (id 0, no fixed range) at a
 * block's centre; category as vanilla's SoundSource (4: blocks). */
void pkt_cb_sound_effect_named(buf_t *b, const char *name, int32_t category, double x, double y,
                               double z, float volume, float pitch, int64_t seed);
void pkt_cb_block_action(buf_t *b, int32_t x, int32_t y, int32_t z, uint8_t action, uint8_t param,
                         int32_t block);

#endif
