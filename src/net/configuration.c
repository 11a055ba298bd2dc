/*
 * configuration.c — the configuration state of 1.20.2 and later clients
 * (c->proto->configuration), between Login Success and PLAY:
 *
 *   Login Success --Login Acknowledged--> CONFIG: [Plugin Message brand]
 *     [Feature Flags vanilla] [Known Packs minecraft:core <version>]
 *   CF_PACKS --Known Packs (the client's)--> [Registry Data] x registries
 *     [Finish Configuration]
 *   CF_FINISH --Finish Configuration (acknowledged)--> PLAY: the game's join
 *   Client Information, Plugin Message, Keep Alive, Pong, Resource Pack
 *   Response: taken in any step; anything else: kicked.
 *
 * Every registry is sent with its data (vanilla's, from minecraft-data),
 * whatever packs the client says it knows: a vanilla client would accept
 * the entries without data too, but mineflayer knows none, and one path
 * is simpler to keep right.
 *
 * Invariants:
 *  1. The game hears of the player only when it enters PLAY (login.c's
 *     login_enter_play): admission ran before Login Success, as in 763.
 *  2. The Client Information sent here is kept (c->client_info) and handed
 *     to the game right after its join, as if it came in PLAY; a later one
 *     replaces it.
 *  3. The login deadline runs on through this state.
 */
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "data/packet_ids.h"
#include "net/server.h"
#include "proto/packets.h"
#include "proto/protocol.h"

enum config_step { CF_PACKS, CF_FINISH };

#define CLIENT_INFO_MAX 128 /* locale (16 chars) and nine small fields */

static void send_brand(conn *c)
{
    buf_t *b = pkt_begin(PKT_CONFIGURATION_CB_CUSTOM_PAYLOAD);
    wr_cstring(b, "minecraft:brand");
    wr_cstring(b, "mcserv"); /* the payload is one string */
    conn_send_pkt(c);
}

void configuration_begin(conn *c)
{
    c->state = CS_CONFIG;
    c->login_step = CF_PACKS;
    send_brand(c);
    buf_t *b = pkt_begin(PKT_CONFIGURATION_CB_FEATURE_FLAGS);
    wr_varint(b, 1);
    wr_cstring(b, "minecraft:vanilla");
    conn_send_pkt(c);
    b = pkt_begin(PKT_CONFIGURATION_CB_SELECT_KNOWN_PACKS);
    wr_varint(b, 1);
    wr_cstring(b, "minecraft");
    wr_cstring(b, "core");
    wr_cstring(b, c->proto->name);
    conn_send_pkt(c);
}

/* The client's Known Packs: read to the end (bounded), then every registry. */
static void known_packs(conn *c, rd_t *r)
{
    int32_t n = rd_varint(r);
    for (int32_t i = 0; i < n && !r->err && i < 64; i++) {
        size_t len;
        rd_string(r, 256, &len);
        rd_string(r, 256, &len);
        rd_string(r, 256, &len);
    }
    if (r->err || n < 0 || n > 64 || rd_left(r) != 0) {
        conn_kick(c, "Malformed known packs");
        return;
    }
    const struct mc_protocol *p = c->proto;
    for (int i = 0; i < p->registry_count && !c->closed; i++) {
        buf_t *b = pkt_begin(PKT_CONFIGURATION_CB_REGISTRY_DATA);
        buf_append(b, p->registry_data + p->registries[i].off, p->registries[i].len);
        conn_send_pkt(c);
    }
    if (c->closed) return;
    pkt_begin(PKT_CONFIGURATION_CB_FINISH_CONFIGURATION);
    conn_send_pkt(c);
    c->login_step = CF_FINISH;
}

static void client_info(conn *c, rd_t *r)
{
    size_t len = rd_left(r);
    if (len > CLIENT_INFO_MAX) {
        conn_kick(c, "Malformed client information");
        return;
    }
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        conn_kick(c, "Server out of memory");
        return;
    }
    memcpy(copy, rd_bytes(r, len), len);
    free(c->client_info);
    c->client_info = copy;
    c->client_info_len = (uint8_t)len;
}

void configuration_dispatch(conn *c, int32_t id, rd_t *r)
{
    switch (id) {
    case PKT_CONFIGURATION_SB_SETTINGS: client_info(c, r); return;
    case PKT_CONFIGURATION_SB_CUSTOM_PAYLOAD: /* brand and channels: not used */
    case PKT_CONFIGURATION_SB_KEEP_ALIVE:
    case PKT_CONFIGURATION_SB_PONG:
    case PKT_CONFIGURATION_SB_RESOURCE_PACK_RECEIVE:
    case PKT_CONFIGURATION_SB_ACCEPT_CODE_OF_CONDUCT: return;
    case PKT_CONFIGURATION_SB_SELECT_KNOWN_PACKS:
        if (c->login_step == CF_PACKS) {
            known_packs(c, r);
            return;
        }
        break;
    case PKT_CONFIGURATION_SB_FINISH_CONFIGURATION:
        if (c->login_step == CF_FINISH && rd_left(r) == 0) {
            login_enter_play(c);
            if (c->closed || c->state != CS_PLAY || !c->client_info) return;
            rd_t info = rd_make(c->client_info, c->client_info_len); /* invariant 2 */
            srv->game->packet(c, PKT_PLAY_SB_SETTINGS, &info);
            free(c->client_info);
            c->client_info = NULL;
            return;
        }
        break;
    default: break;
    }
    conn_kick(c, "Unexpected packet during configuration");
}
