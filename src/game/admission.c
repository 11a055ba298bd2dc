/*
 * admission.c — who may join, decided when a login's identity is settled
 * (struct net_game.admit, called by net/login.c before Login Success).
 *
 * Invariants:
 *  1. The checks run in vanilla's order (PlayerList.canPlayerLogin):
 *     banned, not whitelisted (operators pass), IP banned, server full
 *     (operators with bypassesPlayerLimit pass); each refusal is a login
 *     disconnect with vanilla's translation key and an English fallback.
 *  2. Only an admitted login may kick an older session of the same player
 *     (same name, case-insensitively, or same UUID): "You logged in from
 *     another location", as vanilla.
 */
#include "game/admission.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "game/game.h"
#include "game/lists.h"
#include "game/ops.h"
#include "game/plugins.h" /* plugins */

/* A ban's refusal: translate(key, reason) [+ expiration], with English fallbacks. */
static void kick_banned(conn *c, const struct list_entry *e, bool ip)
{
    buf_t j;
    buf_init(&j, 8192);
    const char *head = ip ? "{\"translate\":\"multiplayer.disconnect.banned_ip.reason\","
                            "\"fallback\":\"Your IP address is banned from this server.\\n"
                            "Reason: %s\""
                          : "{\"translate\":\"multiplayer.disconnect.banned.reason\","
                            "\"fallback\":\"You are banned from this server.\\nReason: %s\"";
    buf_append(&j, head, strlen(head));
    buf_lit(&j, ",\"with\":[");
    json_append_string(&j, e->reason, strlen(e->reason));
    buf_lit(&j, "]");
    char when[32] = "";
    if (e->expires.epoch != LIST_FOREVER) {
        lists_format_time(&e->expires, when);
        buf_lit(&j, ",\"extra\":[{\"translate\":\"multiplayer.disconnect.");
        buf_append(&j, ip ? "banned_ip" : "banned", ip ? 9 : 6);
        buf_lit(&j, ".expiration\",\"fallback\":\"\\nYour ban will be removed on %s\",\"with\":[");
        json_append_string(&j, when, strlen(when));
        buf_lit(&j, "]}]");
    }
    buf_lit(&j, "}");
    buf_append(&j, "", 1);
    char text[LIST_REASON_MAX + 128];
    snprintf(text, sizeof text, "%s from this server (reason: %s)%s%s",
             ip ? "Your IP address is banned" : "You are banned", e->reason,
             when[0] ? "; until " : "", when);
    conn_kick_reason(
        c, ip ? KR_IP_BANNED : KR_BANNED,
        j.failed ? "{\"text\":\"You are banned from this server.\"}" : (const char *)j.data, text);
    buf_free(&j);
}

/* Invariant 1. false: c was refused (kicked). */
static bool login_allowed(conn *c, const mc_uuid *uuid)
{
    const struct list_entry *ban = lists_banned(uuid);
    if (ban) {
        kick_banned(c, ban, false);
        return false;
    }
    if (lists_whitelist_enabled() && !lists_whitelisted(uuid) && ops_level(uuid) == 0) {
        conn_kick_reason(c, KR_NOT_WHITELISTED,
                         "{\"translate\":\"multiplayer.disconnect.not_whitelisted\","
                         "\"fallback\":\"You are not white-listed on this server!\"}",
                         "You are not white-listed on this server!");
        return false;
    }
    const struct list_entry *ipban = lists_ip_banned(c->ip);
    if (ipban) {
        kick_banned(c, ipban, true);
        return false;
    }
    if (game.player_count >= (size_t)srv->cfg.max_players && !ops_bypasses(uuid)) {
        conn_kick_reason(c, KR_SERVER_FULL,
                         "{\"translate\":\"multiplayer.disconnect.server_full\","
                         "\"fallback\":\"The server is full!\"}",
                         "The server is full!");
        return false;
    }
    return true;
}

bool admission_check(conn *c, const char *name, const mc_uuid *uuid)
{
    if (!login_allowed(c, uuid)) return false;
    if (!plugin_event_prelogin(c, name, uuid)) return false; /* plugins */
    size_t nlen = strlen(name);
    for (size_t i = 0; i < game.player_count; i++) {
        conn *o = game.players[i];
        if ((strlen(o->player->name) == nlen && strncasecmp(o->player->name, name, nlen) == 0) ||
            memcmp(&o->player->uuid, uuid, sizeof *uuid) == 0) {
            conn_kick(o, "You logged in from another location");
            break;
        }
    }
    return true;
}
