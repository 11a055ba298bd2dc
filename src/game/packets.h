/*
 * packets.h — clientbound PLAY packet encoders (protocol 763).
 *
 * Each pkt_cb_* appends one whole packet, VarInt id then payload, to `b`
 * (no frame); the unit tests hold these byte-for-byte against captures of a
 * vanilla 1.20.1 server (minecraft-packets). Field layouts follow
 * minecraft-data's 1.20/protocol.json; names follow minecraft-data.
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
void pkt_cb_update_time(buf_t *b, int64_t age, int64_t time);
void pkt_cb_game_state_change(buf_t *b, uint8_t reason, float value);

/* One Player Info Update entry with vanilla's join actions (0x3f). */
struct pkt_player_entry {
    mc_uuid uuid;
    const char *name;
    int32_t gamemode;
    bool listed;
    int32_t latency_ms;
};
void pkt_cb_player_info_add(buf_t *b, const struct pkt_player_entry *e, size_t n);
void pkt_cb_player_remove(buf_t *b, const mc_uuid *uuids, size_t n);

/* Vanilla's obfuscated seed: first 8 bytes (LE) of SHA-256 of the LE seed. */
int64_t hashed_seed(int64_t seed);

#endif
