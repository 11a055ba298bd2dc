/*
 * packets_775.c — the routed encoders and decoders of protocol 775 (26.1)
 * whose layout differs from 1.20.1's (proto/protocol.h lists them), and
 * its struct mc_protocol.
 *
 * Each writes the logical id (data/packet_ids.h, 1.20.1's numbering);
 * framing rewrites it to 26.1's. Layouts follow minecraft-data's
 * pc/26.1/protocol.json. Text goes as NBT (proto/text_nbt.c), items and
 * dimensions as 26.1's ids (data/translate_775.h).
 *
 * Invariant: what the caller passes is 1.20.1's meaning (its ids, its
 * flags); every translation to 26.1 happens here.
 */
#include <math.h>
#include <string.h>

#include "data/entities.h"
#include "data/packet_ids.h"
#include "proto/protocol.h"
#include "proto/text_nbt.h"

/* SpawnInfo (Login and Respawn): the world a player is in. */
static void spawn_info(buf_t *b, const char *world_name, int64_t hashed, uint8_t gamemode,
                       int8_t previous, bool is_debug, bool is_flat, bool has_death,
                       const char *death_world, int32_t dx, int32_t dy, int32_t dz,
                       int32_t portal_cooldown, int32_t sea_level)
{
    wr_varint(b, DIMENSION_TYPE_OVERWORLD_775); /* mcserv has the overworld only */
    wr_cstring(b, world_name);
    wr_i64(b, hashed);
    wr_u8(b, gamemode);
    wr_u8(b, (uint8_t)previous);
    wr_bool(b, is_debug);
    wr_bool(b, is_flat);
    wr_bool(b, has_death);
    if (has_death) {
        wr_cstring(b, death_world);
        wr_position(b, dx, dy, dz);
    }
    wr_varint(b, portal_cooldown);
    wr_varint(b, sea_level);
}

static void cb_login(buf_t *b, const struct pkt_login *l)
{
    wr_varint(b, PKT_PLAY_CB_LOGIN);
    wr_i32(b, l->entity_id);
    wr_bool(b, l->hardcore);
    wr_varint(b, l->world_name_count);
    for (int i = 0; i < l->world_name_count; i++) wr_cstring(b, l->world_names[i]);
    wr_varint(b, l->max_players);
    wr_varint(b, l->view_distance);
    wr_varint(b, l->simulation_distance);
    wr_bool(b, l->reduced_debug_info);
    wr_bool(b, l->enable_respawn_screen);
    wr_bool(b, false); /* doLimitedCrafting: the game rule is not kept */
    spawn_info(b, l->world_name, l->hashed_seed, l->gamemode, l->previous_gamemode, l->is_debug,
               l->is_flat, false, NULL, 0, 0, 0, l->portal_cooldown, l->sea_level);
    wr_bool(b, false); /* enforcesSecureChat: chat is not signed */
}

static void cb_respawn(buf_t *b, const struct pkt_respawn *r)
{
    wr_varint(b, PKT_PLAY_CB_RESPAWN);
    spawn_info(b, r->world_name, r->hashed_seed, r->gamemode, r->previous_gamemode, r->is_debug,
               r->is_flat, r->has_death, r->death_world, r->death_x, r->death_y, r->death_z,
               r->portal_cooldown, r->sea_level);
    wr_u8(b, r->copy_metadata ? 0x01 : 0x00); /* data to keep: attributes, as 763's byte */
}

static void cb_position(buf_t *b, double x, double y, double z, float yaw, float pitch,
                        int8_t flags, int32_t teleport_id)
{
    wr_varint(b, PKT_PLAY_CB_POSITION);
    wr_varint(b, teleport_id);
    wr_f64(b, x);
    wr_f64(b, y);
    wr_f64(b, z);
    wr_f64(b, 0); /* velocity */
    wr_f64(b, 0);
    wr_f64(b, 0);
    wr_f32(b, yaw);
    wr_f32(b, pitch);
    wr_i32(b, (int32_t)(uint8_t)flags & 0x1f); /* bits 0..4: x, y, z, yaw, pitch, as 763 */
}

static void cb_spawn_position(buf_t *b, int32_t x, int32_t y, int32_t z, float angle)
{
    wr_varint(b, PKT_PLAY_CB_SPAWN_POSITION);
    wr_cstring(b, "minecraft:overworld");
    wr_position(b, x, y, z);
    wr_f32(b, angle); /* yaw */
    wr_f32(b, 0);     /* pitch */
}

static void cb_unload_chunk(buf_t *b, int32_t cx, int32_t cz)
{
    wr_varint(b, PKT_PLAY_CB_UNLOAD_CHUNK);
    wr_i32(b, cz);
    wr_i32(b, cx);
}

/* 763's time is negative when the daylight cycle is stopped; 26.1 sends
 * the overworld clock with its rate instead. */
static void cb_update_time(buf_t *b, int64_t age, int64_t time)
{
    wr_varint(b, PKT_PLAY_CB_UPDATE_TIME);
    wr_i64(b, age);
    wr_varint(b, 1);
    wr_varint(b, WORLD_CLOCK_OVERWORLD_775);
    wr_varlong(b, time < 0 ? -time : time);
    wr_f32(b, 0);                      /* partial tick */
    wr_f32(b, time < 0 ? 0.0f : 1.0f); /* rate: ticks per tick */
}

static void cb_death_combat_event(buf_t *b, int32_t player_eid, const char *json, size_t len)
{
    wr_varint(b, PKT_PLAY_CB_DEATH_COMBAT_EVENT);
    wr_varint(b, player_eid);
    text_nbt_append(b, json, len);
}

static void cb_kick_disconnect(buf_t *b, const char *json, size_t len)
{
    wr_varint(b, PKT_PLAY_CB_KICK_DISCONNECT);
    text_nbt_append(b, json, len);
}

static void cb_system_chat(buf_t *b, const char *json, size_t len, bool action_bar)
{
    wr_varint(b, PKT_PLAY_CB_SYSTEM_CHAT);
    text_nbt_append(b, json, len);
    wr_bool(b, action_bar);
}

static void cb_playerlist_header(buf_t *b, const char *header_json, size_t hlen,
                                 const char *footer_json, size_t flen)
{
    wr_varint(b, PKT_PLAY_CB_PLAYERLIST_HEADER);
    text_nbt_append(b, header_json, hlen);
    text_nbt_append(b, footer_json, flen);
}

static void sb_settings(rd_t *r, struct pkt_settings *s)
{
    pkt_sb_settings(r, s);
    rd_varint(r); /* particleStatus */
}

/* ------------------------------------------------- clientbound, translated */

/* Writes an lpVec3 (1.21.9's low-precision vector; minecraft-protocol's
 * lpVec3.js is the reference): 0 for a vector under 3e-5, else 15 bits a
 * component scaled by ceil(max), with the scale's high bits in a VarInt. */
static void wr_lpvec3(buf_t *b, double x, double y, double z)
{
    const double lim = 1.7179869183e10;
    double v[3] = {x, y, z}, max = 0;
    for (int i = 0; i < 3; i++) {
        if (v[i] != v[i]) v[i] = 0;
        v[i] = v[i] < -lim ? -lim : v[i] > lim ? lim : v[i];
        double a = v[i] < 0 ? -v[i] : v[i];
        if (a > max) max = a;
    }
    if (max < 3.051944088384301e-5) {
        wr_u8(b, 0);
        return;
    }
    uint64_t scale = (uint64_t)ceil(max);
    bool more = scale > 3;
    uint64_t packed = more ? (scale & 3) | 4 : scale;
    for (int i = 0; i < 3; i++) {
        uint64_t q = (uint64_t)llround((v[i] / (double)scale * 0.5 + 0.5) * 32766.0);
        packed |= q << (3 + 15 * i);
    }
    wr_u8(b, (uint8_t)packed);
    wr_u8(b, (uint8_t)(packed >> 8));
    wr_i32(b, (int32_t)(uint32_t)(packed >> 16));
    if (more) wr_varint(b, (int32_t)(scale >> 2));
}

/* Skips one NBT payload of type t (network NBT), at most 16 levels deep. */
static void skip_nbt_payload(rd_t *r, uint8_t t, int depth)
{
    static const int8_t fixed[] = {0, 1, 2, 4, 8, 4, 8};
    if (depth > 16) {
        r->err = RD_BAD_VALUE;
        return;
    }
    if (t >= 1 && t <= 6) {
        rd_skip(r, (size_t)fixed[t]);
    } else if (t == 7 || t == 11 || t == 12) {
        int32_t n = rd_i32(r);
        size_t each = t == 7 ? 1 : t == 11 ? 4 : 8;
        if (n < 0 || (size_t)n > rd_left(r) / each)
            r->err = RD_BAD_VALUE;
        else
            rd_skip(r, (size_t)n * each);
    } else if (t == 8) {
        rd_skip(r, rd_u16(r));
    } else if (t == 9) {
        uint8_t et = rd_u8(r);
        int32_t n = rd_i32(r);
        for (int32_t i = 0; i < n && !r->err; i++) skip_nbt_payload(r, et, depth + 1);
    } else if (t == 10) {
        for (uint8_t ct; !r->err && (ct = rd_u8(r)) != 0;) {
            rd_skip(r, rd_u16(r));
            skip_nbt_payload(r, ct, depth + 1);
        }
    } else {
        r->err = RD_BAD_VALUE;
    }
}

/* A 1.20.1 Slot (present, item, count, named NBT) as 26.1's; the wear
 * (the NBT's Damage, the only tag mcserv writes) as the damage component. */
static void slot_763_to_775(rd_t *r, buf_t *out)
{
    if (!rd_bool(r)) {
        wr_varint(out, 0);
        return;
    }
    int32_t item = rd_varint(r);
    int8_t count = rd_i8(r);
    int32_t damage = 0;
    uint8_t t = rd_u8(r);
    if (t == 10) { /* a compound named "": look for Damage, skip the rest */
        rd_skip(r, rd_u16(r));
        for (uint8_t ct; !r->err && (ct = rd_u8(r)) != 0;) {
            uint16_t nl = rd_u16(r);
            const uint8_t *name = rd_bytes(r, nl);
            if (ct == 3 && name && nl == 6 && memcmp(name, "Damage", 6) == 0)
                damage = rd_i32(r);
            else
                skip_nbt_payload(r, ct, 1);
        }
    } else if (t != 0) {
        r->err = RD_BAD_VALUE;
    }
    if (item <= 0 || item >= ITEM_COUNT || count <= 0) {
        wr_varint(out, 0);
        return;
    }
    wr_varint(out, count);
    wr_varint(out, item_to_775[item]);
    wr_varint(out, damage > 0 ? 1 : 0); /* components added */
    wr_varint(out, 0);                  /* removed */
    if (damage > 0) {
        wr_varint(out, ITEM_COMPONENT_DAMAGE_775);
        wr_varint(out, damage);
    }
}

/* A JSON text string in r as NBT text. */
static void text_763_to_775(rd_t *r, buf_t *out)
{
    size_t len;
    const char *s = rd_string(r, 262144, &len);
    if (s) text_nbt_append(out, s, len);
}

static void copy_rest(buf_t *out, rd_t *r)
{
    size_t n = rd_left(r);
    if (n) buf_append(out, rd_bytes(r, n), n);
}

static void copy_bytes(buf_t *out, rd_t *r, size_t n)
{
    const uint8_t *p = rd_bytes(r, n);
    if (p) buf_append(out, p, n);
}

static void copy_vint(buf_t *out, rd_t *r)
{
    wr_varint(out, rd_varint(r));
}

static int cb_translate(const uint8_t *pkt, size_t len, buf_t *out)
{
    rd_t r = rd_make(pkt, len);
    int32_t id = rd_varint(&r);
    if (r.err) return CB_DROP;
    buf_reset(out);
    wr_varint(out, id);
    switch (id) {
    case PKT_PLAY_CB_SYSTEM_CHAT:
        text_763_to_775(&r, out);
        copy_rest(out, &r); /* action bar flag */
        break;
    case PKT_PLAY_CB_ACTION_BAR:
    case PKT_PLAY_CB_SET_TITLE_TEXT:
    case PKT_PLAY_CB_SET_TITLE_SUBTITLE:
    case PKT_PLAY_CB_KICK_DISCONNECT: text_763_to_775(&r, out); break;
    case PKT_PLAY_CB_PLAYERLIST_HEADER:
        text_763_to_775(&r, out);
        text_763_to_775(&r, out);
        break;
    case PKT_PLAY_CB_DEATH_COMBAT_EVENT:
        copy_vint(out, &r);
        text_763_to_775(&r, out);
        break;
    case PKT_PLAY_CB_OPEN_WINDOW:
        copy_vint(out, &r);
        copy_vint(out, &r); /* menu type */
        text_763_to_775(&r, out);
        break;
    case PKT_PLAY_CB_UPDATE_TIME: {
        int64_t age = rd_i64(&r), time = rd_i64(&r);
        buf_reset(out);
        cb_update_time(out, age, time);
        break;
    }
    case PKT_PLAY_CB_SPAWN_POSITION: {
        int64_t v = rd_i64(&r);
        float angle = rd_f32(&r);
        buf_reset(out);
        cb_spawn_position(out, (int32_t)(v >> 38), (int32_t)(v << 52 >> 52),
                          (int32_t)(v << 26 >> 38), angle);
        break;
    }
    case PKT_PLAY_CB_NAMED_ENTITY_SPAWN: { /* a player: Spawn Entity since 1.20.2 */
        buf_reset(out);
        wr_varint(out, PKT_PLAY_CB_SPAWN_ENTITY);
        copy_vint(out, &r);
        copy_bytes(out, &r, 16);
        wr_varint(out, entity_type_to_775[ENTITY_TYPE_PLAYER]);
        copy_bytes(out, &r, 24);
        uint8_t yaw = rd_u8(&r), pitch = rd_u8(&r);
        wr_u8(out, 0); /* velocity */
        wr_u8(out, pitch);
        wr_u8(out, yaw);
        wr_u8(out, yaw); /* head yaw */
        wr_varint(out, 0);
        break;
    }
    case PKT_PLAY_CB_SPAWN_ENTITY: {
        copy_vint(out, &r);
        copy_bytes(out, &r, 16);
        int32_t type = rd_varint(&r);
        wr_varint(out, type >= 0 && type < ENTITY_TYPE_COUNT ? entity_type_to_775[type] : 0);
        copy_bytes(out, &r, 24);
        uint8_t pitch = rd_u8(&r), yaw = rd_u8(&r), head = rd_u8(&r);
        int32_t data = rd_varint(&r);
        int16_t vx = rd_i16(&r), vy = rd_i16(&r), vz = rd_i16(&r);
        wr_lpvec3(out, vx / 8000.0, vy / 8000.0, vz / 8000.0);
        wr_u8(out, pitch);
        wr_u8(out, yaw);
        wr_u8(out, head);
        if (type == ENTITY_TYPE_FALLING_BLOCK && data >= 0 && data < BLOCK_STATE_COUNT)
            data = block_state_to_775[data];
        wr_varint(out, data);
        break;
    }
    case PKT_PLAY_CB_SPAWN_ENTITY_EXPERIENCE_ORB: { /* Spawn Entity since 1.21.5 */
        buf_reset(out);
        wr_varint(out, PKT_PLAY_CB_SPAWN_ENTITY);
        int32_t eid = rd_varint(&r);
        wr_varint(out, eid);
        mc_uuid u = {{0}};
        for (int i = 0; i < 4; i++) u.b[12 + i] = (uint8_t)((uint32_t)eid >> (24 - 8 * i));
        wr_uuid(out, &u);
        wr_varint(out, entity_type_to_775[ENTITY_TYPE_EXPERIENCE_ORB]);
        copy_bytes(out, &r, 24);
        rd_i16(&r); /* the value: entity data in 26.1, not sent (metadata is not translated) */
        wr_u8(out, 0);
        wr_u8(out, 0);
        wr_u8(out, 0);
        wr_u8(out, 0);
        wr_varint(out, 0);
        break;
    }
    case PKT_PLAY_CB_ENTITY_TELEPORT: {
        copy_vint(out, &r);
        copy_bytes(out, &r, 24);
        float yaw = (float)rd_i8(&r) * 360.0f / 256.0f, pitch = (float)rd_i8(&r) * 360.0f / 256.0f;
        wr_f64(out, 0);
        wr_f64(out, 0);
        wr_f64(out, 0);
        wr_f32(out, yaw);
        wr_f32(out, pitch);
        wr_i32(out, 0); /* nothing relative */
        copy_bytes(out, &r, 1);
        break;
    }
    case PKT_PLAY_CB_ENTITY_VELOCITY: {
        copy_vint(out, &r);
        int16_t vx = rd_i16(&r), vy = rd_i16(&r), vz = rd_i16(&r);
        wr_lpvec3(out, vx / 8000.0, vy / 8000.0, vz / 8000.0);
        break;
    }
    case PKT_PLAY_CB_ENTITY_EQUIPMENT: {
        copy_vint(out, &r);
        for (int i = 0; i < 8 && !r.err; i++) {
            uint8_t slot = rd_u8(&r);
            wr_u8(out, slot);
            slot_763_to_775(&r, out);
            if (!(slot & 0x80)) break;
        }
        break;
    }
    case PKT_PLAY_CB_WINDOW_ITEMS: {
        wr_varint(out, rd_u8(&r));
        copy_vint(out, &r);
        int32_t n = rd_varint(&r);
        if (n < 0 || n > 1024) return CB_DROP;
        wr_varint(out, n);
        for (int32_t i = 0; i <= n && !r.err; i++) slot_763_to_775(&r, out); /* and the carried */
        break;
    }
    case PKT_PLAY_CB_SET_SLOT: {
        wr_varint(out, (int8_t)rd_u8(&r));
        copy_vint(out, &r);
        copy_bytes(out, &r, 2);
        slot_763_to_775(&r, out);
        break;
    }
    case PKT_PLAY_CB_CLOSE_WINDOW: wr_varint(out, rd_u8(&r)); break;
    case PKT_PLAY_CB_HELD_ITEM_SLOT: wr_varint(out, rd_i8(&r)); break;
    case PKT_PLAY_CB_DIFFICULTY:
        wr_varint(out, rd_u8(&r));
        copy_rest(out, &r);
        break;
    case PKT_PLAY_CB_BLOCK_CHANGE: {
        copy_bytes(out, &r, 8);
        int32_t st = rd_varint(&r);
        wr_varint(out, st >= 0 && st < BLOCK_STATE_COUNT ? block_state_to_775[st] : 0);
        break;
    }
    case PKT_PLAY_CB_MULTI_BLOCK_CHANGE: {
        copy_bytes(out, &r, 8);
        int32_t n = rd_varint(&r);
        if (n < 0 || n > 4096) return CB_DROP;
        wr_varint(out, n);
        for (int32_t i = 0; i < n && !r.err; i++) {
            int64_t rec = rd_varlong(&r);
            int64_t st = rec >> 12;
            st = st >= 0 && st < BLOCK_STATE_COUNT ? block_state_to_775[st] : 0;
            wr_varlong(out, st << 12 | (rec & 0xfff));
        }
        break;
    }
    /* Not translated yet (their ids or layouts differ): not sent to 26.1
     * clients. Entity data and attributes use other ids per version;
     * the command tree other parser ids (commands still run, without
     * completion); the rest are rare. docs/design.md, "Protocol versions". */
    case PKT_PLAY_CB_ENTITY_METADATA:
    case PKT_PLAY_CB_ENTITY_UPDATE_ATTRIBUTES:
    case PKT_PLAY_CB_DECLARE_COMMANDS:
    case PKT_PLAY_CB_EXPLOSION:
    case PKT_PLAY_CB_TAB_COMPLETE:
    case PKT_PLAY_CB_MAP_CHUNK: /* framed per protocol by the world (world.c) */
    case PKT_PLAY_CB_DECLARE_RECIPES:
    case PKT_PLAY_CB_TAGS:
    case PKT_PLAY_CB_ENTITY_EFFECT:
    case PKT_PLAY_CB_WORLD_PARTICLES:
    case PKT_PLAY_CB_WORLD_EVENT: return CB_DROP;
    default: return CB_SAME;
    }
    if (r.err || rd_left(&r) || out->failed) return CB_DROP;
    return CB_REWRITTEN;
}

/* ------------------------------------------------------------ serverbound */

/* Copies the next n bytes of r to out. */
static void copy(buf_t *out, rd_t *r, size_t n)
{
    const uint8_t *p = rd_bytes(r, n);
    if (p) buf_append(out, p, n);
}

static void copy_varint(buf_t *out, rd_t *r)
{
    wr_varint(out, rd_varint(r));
}

/* Copies a string (varint length, bytes) as it is. */
static void copy_string(buf_t *out, rd_t *r)
{
    int32_t n = rd_varint(r);
    if (n < 0 || (size_t)n > rd_left(r)) {
        r->err = RD_SHORT;
        return;
    }
    wr_varint(out, n);
    copy(out, r, (size_t)n);
}

/* Skips an lpVec3 (1.21.9's low-precision vector): one zero byte, or six
 * bytes and, when bit 2 of the first is set, a VarInt of scale. */
static void skip_lpvec3(rd_t *r)
{
    uint8_t a = rd_u8(r);
    if (a == 0) return;
    rd_skip(r, 5);
    if (a & 4) rd_varint(r);
}

static int sb_play(int32_t *id, rd_t *r, buf_t *out, uint8_t *input)
{
    rd_t in = *r;
    buf_reset(out);
    switch (*id) {
    case PKT_PLAY_SB_POSITION: /* ... flags: bit 0 on ground -> bool */
        copy(out, &in, 24);
        wr_bool(out, rd_u8(&in) & 1);
        break;
    case PKT_PLAY_SB_POSITION_LOOK:
        copy(out, &in, 32);
        wr_bool(out, rd_u8(&in) & 1);
        break;
    case PKT_PLAY_SB_LOOK:
        copy(out, &in, 8);
        wr_bool(out, rd_u8(&in) & 1);
        break;
    case PKT_PLAY_SB_FLYING: wr_bool(out, rd_u8(&in) & 1); break;
    case PKT_PLAY_SB_CHAT_MESSAGE: /* the checksum at the end goes */
        if (rd_left(&in) < 1) return SB_AS_IS;
        copy(out, &in, rd_left(&in) - 1);
        rd_u8(&in);
        break;
    case PKT_PLAY_SB_CHAT_COMMAND_SIGNED: /* 763's chat_command, checksum dropped */
        if (rd_left(&in) < 1) return SB_AS_IS;
        copy(out, &in, rd_left(&in) - 1);
        rd_u8(&in);
        *id = PKT_PLAY_SB_CHAT_COMMAND;
        break;
    case PKT_PLAY_SB_CHAT_COMMAND: /* unsigned: 763's with no signatures */
        copy_string(out, &in);
        wr_i64(out, 0); /* timestamp */
        wr_i64(out, 0); /* salt */
        wr_varint(out, 0);
        wr_varint(out, 0);
        buf_append(out, "\0\0\0", 3);
        break;
    case PKT_PLAY_SB_BLOCK_PLACE: /* worldBorderHit goes */
        copy_varint(out, &in);
        copy(out, &in, 8);
        copy_varint(out, &in);
        copy(out, &in, 13);
        rd_bool(&in);
        copy_varint(out, &in);
        break;
    case PKT_PLAY_SB_USE_ITEM: /* the rotation goes */
        copy_varint(out, &in);
        copy_varint(out, &in);
        rd_skip(&in, 8);
        break;
    case PKT_PLAY_SB_USE_ENTITY: { /* interact (the location is not used) */
        copy_varint(out, &in);
        int32_t hand = rd_varint(&in);
        skip_lpvec3(&in);
        bool sneaking = rd_bool(&in);
        wr_varint(out, 0); /* mouse: interact */
        wr_varint(out, hand);
        wr_bool(out, sneaking);
        break;
    }
    case PKT_PLAY_SB_ATTACK:
        copy_varint(out, &in);
        wr_varint(out, 1); /* mouse: attack */
        wr_bool(out, (*input & 0x20) != 0);
        *id = PKT_PLAY_SB_USE_ENTITY;
        break;
    case PKT_PLAY_SB_ENTITY_ACTION: { /* sneaking moved to Player Input */
        copy_varint(out, &in);
        wr_varint(out, rd_varint(&in) + 2);
        copy_varint(out, &in);
        break;
    }
    case PKT_PLAY_SB_PLAYER_INPUT: { /* the shift key: 763's sneak actions */
        uint8_t flags = rd_u8(&in);
        if (in.err || rd_left(&in)) return SB_AS_IS;
        bool was = *input & 0x20, now = flags & 0x20;
        *input = flags;
        if (was == now) return SB_DROP;
        wr_varint(out, -1); /* entity id: the player's own (not checked) */
        wr_varint(out, now ? 0 : 1);
        wr_varint(out, 0);
        *id = PKT_PLAY_SB_ENTITY_ACTION;
        return SB_REWRITTEN;
    }
    case PKT_PLAY_SB_CLOSE_WINDOW: wr_u8(out, (uint8_t)rd_varint(&in)); break;
    case PKT_PLAY_SB_TICK_END:
    case PKT_PLAY_SB_PLAYER_LOADED:
    case PKT_PLAY_SB_CHUNK_BATCH_RECEIVED: return SB_DROP; /* nothing to act on */
    default: return SB_AS_IS;
    }
    if (in.err || rd_left(&in) || out->failed) return SB_AS_IS; /* the handler reports it */
    return SB_REWRITTEN;
}

const struct mc_protocol protocol_775 = {
    .version = 775,
    .name = "26.1",
    .slot = 1,
    .identity = PROTO_IDS_775_IDENTITY,
    .ids = &proto_ids_775,
    .configuration = true,
    .block_state = block_state_to_775,
    .biome = biome_to_775,
    .item = item_to_775,
    .entity_type = entity_type_to_775,
    .block_global_bits = BLOCK_GLOBAL_BITS_775,
    .biome_global_bits = BIOME_GLOBAL_BITS_775,
    .registry_data = registry_data_775,
    .registries = registry_payloads_775,
    .registry_count = REGISTRY_COUNT_775,
    .cb_login = cb_login,
    .cb_respawn = cb_respawn,
    .cb_position = cb_position,
    .cb_spawn_position = cb_spawn_position,
    .cb_unload_chunk = cb_unload_chunk,
    .cb_update_time = cb_update_time,
    .cb_death_combat_event = cb_death_combat_event,
    .cb_kick_disconnect = cb_kick_disconnect,
    .cb_set_slot = pkt_cb_set_slot, /* translated as inventory.c's (protocol_routed) */
    .cb_system_chat = cb_system_chat,
    .cb_playerlist_header = cb_playerlist_header,
    .sb_settings = sb_settings,
    .sb_play = sb_play,
    .cb_translate = cb_translate,
};
