/*
 * protocol.h — the protocol-version seam: what differs between the client
 * versions the server speaks, reached through the connection's table
 * (conn->proto): 763 (1.20.1, the world's own version) and 775 (26.1). A
 * version is a generated id table (tools/gen_data.js VERSIONS), generated
 * id translations (data/translate_<N>.h), and its encoders here
 * (proto/packets_<N>.c), not an edit of every call site.
 *
 * Ids. The PKT_* constants are logical ids: 763's numbering, plus ids after
 * it for packets only a later version has (data/packet_ids.h). Encoders
 * write logical ids; net/conn.c rewrites the leading id for the connection's
 * version when it frames a packet (clientbound, logical -> wire) and before
 * the state handler sees one (serverbound, wire -> logical). -1 in a table:
 * that version has no such packet (not sent; received: an unknown id).
 *
 * Layouts. A packet whose fields differ between versions and that is written
 * or read for one connection at a time has a function pointer below; call
 * sites go through c->proto (763's are packets.c's functions, unchanged).
 * Packets encoded once and sent to many (chunk cache, movement batches,
 * broadcasts) are shared frames: they are framed for one protocol, so a
 * second version needs one frame per protocol in use (pkt_frame_shared_for
 * keeps one per protocol), and, where the layout differs, one encode per
 * protocol. docs/design.md ("Protocol versions") lists every packet mcserv
 * uses whose layout differs in the newest release minecraft-data knows
 * (`node tools/gen_data.js --diff`), and which way each one goes.
 *
 * Invariants:
 *  1. protocol_for() returns a table or NULL (unsupported); a connection's
 *     proto is never NULL (protocol_native until a handshake names a
 *     supported version).
 *  2. identity: every wire id is its logical id, so framing and dispatch do
 *     no translation work (one branch per packet); 763 is the identity.
 *  3. Tables are const and shared by every connection of that version.
 *  4. What a connection is sent is 1.20.1's layout unless it was made for
 *     its version: net/conn.c passes 763 bytes through cb_translate, except
 *     (a) packets written with this table's routed encoders and sent with
 *     conn_send_pkt (their logical ids are protocol_routed()), (b) frames
 *     of pkt_frame_shared_for(p) for p = its version, and (c) bytes sent
 *     with conn_send_raw_proto (the world's per-protocol chunk frames).
 */
#ifndef MC_PROTOCOL_H
#define MC_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "data/protocol_ids.h"
#include "data/translate_775.h"
#include "proto/packets.h"
#include "proto/wire.h"

struct libdeflate_compressor;

/*
 * Layout differences, 1.20.1 (763) against 26.1 (775), for the packets
 * mcserv uses. Per connection, routed through this table:
 *   cb login              no codec (registries move to the configuration
 *                         state), SpawnInfo, doLimitedCrafting, secure chat
 *   cb respawn            SpawnInfo (dimension id, sea level), u8 flags
 *   cb position           teleport id first, velocity, i32 relative flags
 *   cb spawn_position     global position (dimension) + yaw + pitch
 *   cb unload_chunk       z before x
 *   cb update_time        clock updates instead of the day time
 *   cb death_combat_event message as NBT text
 *   cb kick_disconnect    reason as NBT text
 *   cb set_slot           item components instead of item NBT; window varint
 *   cb system_chat        content as NBT text
 *   cb playerlist_header  header and footer as NBT text
 *   sb settings           particleStatus added at the end
 * Per connection but not routed (same bytes for what mcserv writes or
 * reads, or decoded inline in files this seam does not own yet): see
 * docs/design.md, "Protocol versions".
 */
struct mc_protocol {
    int version;      /* protocol number, e.g. 763 */
    const char *name; /* release name, e.g. "1.20.1" */
    int slot;         /* 0..PROTO_VERSION_COUNT-1: index for per-protocol caches */
    bool identity;    /* invariant 2 */
    const struct proto_ids *ids;

    /* Since 1.20.2: Login Success is acknowledged and followed by the
     * configuration state (registries there, not in Login (play)); the
     * Login Start UUID is always present; Encryption Request says whether
     * the client must authenticate. net/login.c. */
    bool configuration;
    /* 1.20.1's ids as this version's (NULL: the same ids, invariant 2's
     * identity): data/translate_<N>.h. */
    const uint16_t *block_state; /* [BLOCK_STATE_COUNT] */
    const uint16_t *biome;       /* [BIOME_COUNT] */
    const uint16_t *item;        /* [ITEM_COUNT] */
    const uint16_t *entity_type; /* [ENTITY_TYPE_COUNT] */
    uint8_t block_global_bits, biome_global_bits;
    /* The configuration state's Registry Data payloads (configuration). */
    const unsigned char *registry_data;
    const struct registry_payload *registries;
    int registry_count;

    /* clientbound encoders: append one packet (logical id, payload) to b */
    void (*cb_login)(buf_t *b, const struct pkt_login *l);
    void (*cb_respawn)(buf_t *b, const struct pkt_respawn *r);
    void (*cb_position)(buf_t *b, double x, double y, double z, float yaw, float pitch,
                        int8_t flags, int32_t teleport_id);
    void (*cb_spawn_position)(buf_t *b, int32_t x, int32_t y, int32_t z, float angle);
    void (*cb_unload_chunk)(buf_t *b, int32_t cx, int32_t cz);
    void (*cb_update_time)(buf_t *b, int64_t age, int64_t time);
    void (*cb_death_combat_event)(buf_t *b, int32_t player_eid, const char *json, size_t len);
    void (*cb_kick_disconnect)(buf_t *b, const char *json, size_t len);
    void (*cb_set_slot)(buf_t *b, int8_t window, int32_t state_id, int16_t slot, int32_t item,
                        int8_t count);
    void (*cb_system_chat)(buf_t *b, const char *json, size_t len, bool action_bar);
    void (*cb_playerlist_header)(buf_t *b, const char *header_json, size_t hlen,
                                 const char *footer_json, size_t flen);

    /* serverbound decoders: read the payload after the id; errors in r->err */
    void (*sb_settings)(rd_t *r, struct pkt_settings *out);
    /* A serverbound PLAY packet (logical id *id, payload r) whose bytes
     * differ from 1.20.1's, rewritten into them in out (the handlers read
     * 763's layout): SB_REWRITTEN (*id may change; read out), SB_AS_IS (the
     * same bytes, or not parsable: the handler reports it), SB_DROP
     * (nothing to do). input: the connection's last Player Input flags.
     * NULL for 763. */
    int (*sb_play)(int32_t *id, rd_t *r, buf_t *out, uint8_t *input);
    /* A clientbound PLAY packet in 1.20.1's layout (logical id + payload)
     * as this version's, in out (logical id first): CB_SAME (the bytes
     * are right, only the id is mapped), CB_REWRITTEN (send out), CB_DROP
     * (not sent: no such packet, not translated, or malformed). Applied by
     * net/conn.c to what is encoded with 763's encoders (invariant 4).
     * NULL for 763. */
    int (*cb_translate)(const uint8_t *pkt, size_t len, buf_t *out);
};

extern const struct mc_protocol protocol_763, protocol_775;
/* The version whose numbering the PKT_* constants are (and whose table a
 * connection has before its handshake). */
#define protocol_native (&protocol_763)

/* A PLAY logical id that the table's routed encoders write (invariant 4a). */
bool protocol_routed(int32_t logical);

/* The table for a protocol number, or NULL if the server does not speak it. */
const struct mc_protocol *protocol_for(int version);
/* The supported release names for a disconnect text: "1.20.1" (several
 * joined with ", "). */
const char *protocol_names(void);
/* The lowest supported protocol number: below it a client is outdated,
 * above it the server is. */
int protocol_oldest(void);
/* The supported version nearest to `version`: the oldest below it, the
 * newest above (for a status answer to an unsupported client). */
const struct mc_protocol *protocol_nearest(int version);

/* Wire id of a clientbound logical id in `state` (enum proto_state), -1 if
 * the version has no such packet (or state < 0). */
static inline int32_t protocol_cb_wire(const struct mc_protocol *p, int state, int32_t logical)
{
    if (state < 0 || state >= PROTO_STATE_COUNT) return -1;
    const struct proto_id_map *m = &p->ids->state[state];
    return logical >= 0 && logical < m->cb_count ? m->cb_wire[logical] : -1;
}

/* Logical id of a serverbound wire id in `state`, -1 if unknown. */
static inline int32_t protocol_sb_logical(const struct mc_protocol *p, int state, int32_t wire)
{
    if (state < 0 || state >= PROTO_STATE_COUNT) return -1;
    const struct proto_id_map *m = &p->ids->state[state];
    return wire >= 0 && wire < m->sb_count ? m->sb_logical[wire] : -1;
}

enum { SB_AS_IS, SB_REWRITTEN, SB_DROP };
enum { CB_SAME, CB_REWRITTEN, CB_DROP };

enum {
    PROTOCOL_E_OUTPUT = -1, /* `out` is full (as frame_encode) */
    PROTOCOL_E_ABSENT = -2, /* the version has no such packet: nothing written */
    PROTOCOL_E_ID = -3,     /* pkt does not start with a valid VarInt id */
};

/*
 * Frames pkt (logical id + payload) for protocol p in `state` into out, at
 * `threshold` (< 0: no compression), as frame_encode does. Identity: the
 * bytes are framed as they are. Otherwise the id is rewritten through a copy
 * in `scratch` (the caller's; reset here, must not hold pkt). Returns 0 or a
 * PROTOCOL_E_* code.
 */
int protocol_frame(const struct mc_protocol *p, int state, buf_t *out, const uint8_t *pkt,
                   size_t len, int threshold, struct libdeflate_compressor *z, buf_t *scratch);

#endif
