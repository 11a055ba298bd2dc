/*
 * chat.c — see chat.h.
 *
 * Player chat path (serverbound chat_message, offline mode, unsigned):
 *
 *   read (text <= 256 chars, else disconnect as vanilla's decoder does)
 *     → illegal characters?  disconnect "Illegal characters in chat"
 *     → chat hidden in the client's settings?  red "chat.disabled.options"
 *     → System Chat {"translate":"chat.type.text","with":[name, {"text":msg}]}
 *       to every player whose chat setting shows player chat, framed once
 *     → log "[Not Secure] <name> msg" (vanilla's log line for unsigned chat)
 *     → spam counter +20; over 200 for a non-operator: "Kicked for spamming"
 *
 * The English table below covers every key this server sends; a key missing
 * from it renders as the key itself (the message is still correct in game).
 *
 * Memory: a chat message is built in one module buffer (chat_text, at most
 * 8 KiB) that keeps its capacity, so a chat line allocates nothing once the
 * first one has grown it; game thread only.
 */
#include "game/chat.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/json.h"
#include "core/log.h"
#include "data/packet_ids.h"
#include "game/commands.h"
#include "game/game.h"
#include "game/plugins.h" /* plugins */
#include "proto/packets.h"
#include "proto/frame.h"

/* buf_append of possibly nothing: an empty append to a still unallocated
 * buffer would compute NULL + 0 (undefined behaviour) in buf_reserve. */
static void put(buf_t *b, const void *p, size_t n)
{
    if (n) buf_append(b, p, n);
}

/* ------------------------------------------------------------ translations */

/* en_us patterns of the keys mcserv sends (minecraft-data 1.20 language.json). */
static const struct {
    const char *key, *en;
} en_us[] = {
    /* BEGIN en_us (generated from minecraft-data pc/1.20/language.json) */
    {"argument.anchor.invalid", "Invalid entity anchor position %s"},
    {"argument.angle.incomplete", "Incomplete (expected 1 angle)"},
    {"argument.entity.invalid", "Invalid name or UUID"},
    {"argument.entity.notfound.entity", "No entity was found"},
    {"argument.entity.notfound.player", "No player was found"},
    {"argument.entity.options.distance.negative", "Distance cannot be negative"},
    {"argument.entity.options.limit.toosmall", "Limit must be at least 1"},
    {"argument.entity.options.mode.invalid", "Invalid or unknown game mode '%s'"},
    {"argument.entity.options.sort.irreversible", "Invalid or unknown sort type '%s'"},
    {"argument.entity.options.unknown", "Unknown option '%s'"},
    {"argument.entity.options.unterminated", "Expected end of options"},
    {"argument.entity.options.valueless", "Expected value for option '%s'"},
    {"argument.entity.selector.missing", "Missing selector type"},
    {"argument.entity.selector.not_allowed", "Selector not allowed"},
    {"argument.entity.selector.unknown", "Unknown selector type '%s'"},
    {"argument.entity.toomany",
     "Only one entity is allowed, but the provided selector allows more than one"},
    {"argument.gamemode.invalid", "Unknown game mode: %s"},
    {"argument.id.invalid", "Invalid ID"},
    {"argument.player.entities",
     "Only players may be affected by this command, but the provided selector includes entities"},
    {"argument.player.toomany",
     "Only one player is allowed, but the provided selector allows more than one"},
    {"argument.player.unknown", "That player does not exist"},
    {"argument.pos.missing.double", "Expected a coordinate"},
    {"argument.pos.missing.int", "Expected a block position"},
    {"argument.pos.mixed",
     "Cannot mix world & local coordinates (everything must either use ^ or not)"},
    {"argument.pos.outofworld", "That position is out of this world!"},
    {"argument.pos3d.incomplete", "Incomplete (expected 3 coordinates)"},
    {"argument.range.empty", "Expected value or range of values"},
    {"argument.range.swapped", "Min cannot be bigger than max"},
    {"argument.rotation.incomplete", "Incomplete (expected 2 coordinates)"},
    {"argument.time.invalid_unit", "Invalid unit"},
    {"argument.time.tick_count_too_low", "Tick count must not be less than %s, found %s"},
    {"chat.copy.click", "Click to Copy to Clipboard"},
    {"chat.disabled.options", "Chat disabled in client options."},
    {"chat.square_brackets", "[%s]"},
    {"chat.type.admin", "[%s: %s]"},
    {"chat.type.announcement", "[%s] %s"},
    {"chat.type.emote", "* %s %s"},
    {"chat.type.text", "<%s> %s"},
    {"command.context.here", "<--[HERE]"},
    {"command.expected.separator",
     "Expected whitespace to end one argument, but found trailing data"},
    {"command.failed", "An unexpected error occurred trying to execute that command"},
    {"command.unknown.argument", "Incorrect argument for command"},
    {"command.unknown.command", "Unknown or incomplete command, see below for error"},
    {"commands.ban.failed", "Nothing changed. The player is already banned"},
    {"commands.ban.success", "Banned %s: %s"},
    {"commands.banip.failed", "Nothing changed. That IP is already banned"},
    {"commands.banip.info", "This ban affects %s player(s): %s"},
    {"commands.banip.invalid", "Invalid IP address or unknown player"},
    {"commands.banip.success", "Banned IP %s: %s"},
    {"commands.banlist.entry", "%s was banned by %s: %s"},
    {"commands.banlist.list", "There are %s ban(s):"},
    {"commands.banlist.none", "There are no bans"},
    {"commands.deop.failed", "Nothing changed. The player is not an operator"},
    {"commands.deop.success", "Made %s no longer a server operator"},
    {"commands.gamemode.success.other", "Set %s's game mode to %s"},
    {"commands.gamemode.success.self", "Set own game mode to %s"},
    {"commands.help.failed", "Unknown command or insufficient permissions"},
    {"commands.kick.success", "Kicked %s: %s"},
    {"commands.kill.success.multiple", "Killed %s entities"},
    {"commands.kill.success.single", "Killed %s"},
    {"commands.list.nameAndId", "%s (%s)"},
    {"commands.list.players", "There are %s of a max of %s players online: %s"},
    {"commands.message.display.incoming", "%s whispers to you: %s"},
    {"commands.message.display.outgoing", "You whisper to %s: %s"},
    {"commands.op.failed", "Nothing changed. The player already is an operator"},
    {"commands.op.success", "Made %s a server operator"},
    {"commands.pardon.failed", "Nothing changed. The player isn't banned"},
    {"commands.pardon.success", "Unbanned %s"},
    {"commands.pardonip.failed", "Nothing changed. That IP isn't banned"},
    {"commands.pardonip.invalid", "Invalid IP address"},
    {"commands.pardonip.success", "Unbanned IP %s"},
    {"commands.save.alreadyOff", "Saving is already turned off"},
    {"commands.save.alreadyOn", "Saving is already turned on"},
    {"commands.save.disabled", "Automatic saving is now disabled"},
    {"commands.save.enabled", "Automatic saving is now enabled"},
    {"commands.save.failed", "Unable to save the game (is there enough disk space?)"},
    {"commands.save.saving", "Saving the game (this may take a moment!)"},
    {"commands.save.success", "Saved the game"},
    {"commands.seed.success", "Seed: %s"},
    {"commands.setworldspawn.success", "Set the world spawn point to %s, %s, %s [%s]"},
    {"commands.stop.stopping", "Stopping the server"},
    {"commands.teleport.invalidPosition", "Invalid position for teleport"},
    {"commands.teleport.success.entity.multiple", "Teleported %s entities to %s"},
    {"commands.teleport.success.entity.single", "Teleported %s to %s"},
    {"commands.teleport.success.location.multiple", "Teleported %s entities to %s, %s, %s"},
    {"commands.teleport.success.location.single", "Teleported %s to %s, %s, %s"},
    {"commands.time.query", "The time is %s"},
    {"commands.time.set", "Set the time to %s"},
    {"commands.weather.set.clear", "Set the weather to clear"},
    {"commands.weather.set.rain", "Set the weather to rain"},
    {"commands.weather.set.thunder", "Set the weather to rain & thunder"},
    {"commands.whitelist.add.failed", "Player is already whitelisted"},
    {"commands.whitelist.add.success", "Added %s to the whitelist"},
    {"commands.whitelist.alreadyOff", "Whitelist is already turned off"},
    {"commands.whitelist.alreadyOn", "Whitelist is already turned on"},
    {"commands.whitelist.disabled", "Whitelist is now turned off"},
    {"commands.whitelist.enabled", "Whitelist is now turned on"},
    {"commands.whitelist.list", "There are %s whitelisted player(s): %s"},
    {"commands.whitelist.none", "There are no whitelisted players"},
    {"commands.whitelist.reloaded", "Reloaded the whitelist"},
    {"commands.whitelist.remove.failed", "Player is not whitelisted"},
    {"commands.whitelist.remove.success", "Removed %s from the whitelist"},
    {"death.attack.genericKill", "%1$s was killed"},
    {"disconnect.spam", "Kicked for spamming"},
    {"gameMode.adventure", "Adventure Mode"},
    {"gameMode.changed", "Your game mode has been updated to %s"},
    {"gameMode.creative", "Creative Mode"},
    {"gameMode.spectator", "Spectator Mode"},
    {"gameMode.survival", "Survival Mode"},
    {"multiplayer.disconnect.illegal_characters", "Illegal characters in chat"},
    {"multiplayer.disconnect.kicked", "Kicked by an operator"},
    {"multiplayer.player.joined", "%s joined the game"},
    {"multiplayer.player.left", "%s left the game"},
    {"parsing.bool.expected", "Expected boolean"},
    {"parsing.bool.invalid", "Invalid boolean, expected 'true' or 'false' but found '%s'"},
    {"parsing.double.expected", "Expected double"},
    {"parsing.double.invalid", "Invalid double '%s'"},
    {"parsing.float.expected", "Expected float"},
    {"parsing.float.invalid", "Invalid float '%s'"},
    {"parsing.int.expected", "Expected integer"},
    {"parsing.int.invalid", "Invalid integer '%s'"},
    {"parsing.quote.escape", "Invalid escape sequence '\\%s' in quoted string"},
    {"parsing.quote.expected.end", "Unclosed quoted string"},
    {"permissions.requires.entity", "An entity is required to run this command here"},
    {"permissions.requires.player", "A player is required to run this command here"},
    /* END en_us */
};

const char *chat_en(const char *key)
{
    size_t lo = 0, hi = sizeof en_us / sizeof en_us[0];
    while (lo < hi) { /* the table is sorted by key */
        size_t mid = (lo + hi) / 2;
        int c = strcmp(key, en_us[mid].key);
        if (c == 0) return en_us[mid].en;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return cmd_lang_en(key); /* issue 17: the newer commands' keys (game/cmd_lang.c) */
}

void chat_name_json(buf_t *j, const player *p)
{
    char id[37], tell[PLAYER_NAME_MAX + 8];
    size_t n = strlen(p->name);
    int tn = snprintf(tell, sizeof tell, "/tell %s ", p->name);
    uuid_format(&p->uuid, id);
    buf_lit(j, "{\"insertion\":");
    json_append_string(j, p->name, n);
    buf_lit(j, ",\"clickEvent\":{\"action\":\"suggest_command\",\"value\":");
    json_append_string(j, tell, tn > 0 ? (size_t)tn : 0);
    buf_lit(j, "},\"hoverEvent\":{\"action\":\"show_entity\",\"contents\":{\"type\":"
               "\"minecraft:player\",\"id\":\"");
    buf_append(j, id, 36);
    buf_lit(j, "\",\"name\":{\"text\":");
    json_append_string(j, p->name, n);
    buf_lit(j, "}}},\"text\":");
    json_append_string(j, p->name, n);
    buf_lit(j, "}");
}

static void arg_json(buf_t *j, const chat_arg *a)
{
    switch (a->kind) {
    case CA_TEXT: json_append_string(j, a->s, a->len); break;
    case CA_PLAYER: chat_name_json(j, a->p); break;
    case CA_KEY:
        buf_lit(j, "{\"translate\":");
        json_append_string(j, a->s, a->len);
        buf_lit(j, "}");
        break;
    case CA_JSON: put(j, a->s, a->len); break;
    }
}

void chat_tr_json(buf_t *j, const char *style, const char *key, const chat_arg *a, size_t n)
{
    buf_lit(j, "{");
    if (style && *style) {
        buf_append(j, style, strlen(style));
        buf_lit(j, ",");
    }
    buf_lit(j, "\"translate\":");
    json_append_string(j, key, strlen(key));
    if (n) {
        buf_lit(j, ",\"with\":[");
        for (size_t i = 0; i < n; i++) {
            if (i) buf_lit(j, ",");
            arg_json(j, &a[i]);
        }
        buf_lit(j, "]");
    }
    buf_lit(j, "}");
}

static void arg_plain(buf_t *out, const chat_arg *a)
{
    switch (a->kind) {
    case CA_TEXT: put(out, a->s, a->len); break;
    case CA_PLAYER: buf_append(out, a->p->name, strlen(a->p->name)); break;
    case CA_KEY: {
        const char *en = chat_en(a->s);
        buf_append(out, en, strlen(en));
        break;
    }
    case CA_JSON:
        if (a->plain) put(out, a->plain, strlen(a->plain));
        break;
    }
}

void chat_tr_plain(buf_t *out, const char *key, const chat_arg *a, size_t n)
{
    const char *f = chat_en(key);
    size_t next = 0;
    while (*f) {
        if (f[0] != '%') {
            const char *pct = strchr(f, '%');
            size_t k = pct ? (size_t)(pct - f) : strlen(f);
            buf_append(out, f, k);
            f += k;
            continue;
        }
        if (f[1] == '%') {
            buf_lit(out, "%");
            f += 2;
        } else if (f[1] == 's') {
            if (next < n) arg_plain(out, &a[next]);
            next++;
            f += 2;
        } else if (f[1] >= '1' && f[1] <= '9' && f[2] == '$' && f[3] == 's') {
            size_t i = (size_t)(f[1] - '1');
            if (i < n) arg_plain(out, &a[i]);
            f += 4;
        } else {
            buf_lit(out, "%");
            f++;
        }
    }
}

/* ---------------------------------------------------------------- delivery */

/* System Chat regardless of the chat setting (vanilla's direct sends). */
static void send_always(conn *c, const char *json, size_t len)
{
    if (!c || c->closed || c->state != CS_PLAY) return;
    buf_reset(&srv->pkt);
    c->proto->cb_system_chat(&srv->pkt, json, len, false);
    conn_send_pkt(c);
}

void chat_send(conn *c, const char *json, size_t len)
{
    /* vanilla acceptsSystemMessages: chat hidden = no system chat either */
    if (!c || c->closed || c->state != CS_PLAY || (c->player && c->player->chat_mode == 2)) return;
    buf_reset(&srv->pkt);
    c->proto->cb_system_chat(&srv->pkt, json, len, false);
    conn_send_pkt(c);
}

/* Queues framed bytes to every player but `except`; chat: only those whose
 * chat setting shows it (player chat: "full"; system chat: not "hidden").
 * Survives drops. */
static void send_all(const uint8_t *data, size_t len, const conn *except, int chat)
{
    for (size_t i = 0; i < game.player_count;) {
        conn *o = game.players[i];
        int mode = o->player ? o->player->chat_mode : 0;
        if (o != except && !(chat == 2 && mode != 0) && !(chat == 1 && mode == 2))
            conn_send_raw_as(o, data, len, CONN_LAZY);
        /* A drop swaps the last player into slot i: visit slot i again. */
        if (i < game.player_count && game.players[i] != o) continue;
        i++;
    }
}

void chat_broadcast_pkt(const conn *except)
{
    const buf_t *f = pkt_frame_shared();
    if (f) send_all(f->data, f->len, except, 0);
}

void chat_broadcast(const char *json, size_t len, bool player_chat)
{
    buf_reset(&srv->pkt);
    pkt_cb_system_chat(&srv->pkt, json, len, false);
    const buf_t *f = pkt_frame_shared();
    if (f) send_all(f->data, f->len, NULL, player_chat ? 2 : 1);
}

/* ------------------------------------------------------------------- input */

bool chat_text_allowed(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f) return false;
        /* '§' is U+00A7: C2 A7 in UTF-8. */
        if (ch == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] == 0xA7) return false;
    }
    return true;
}

bool chat_count_spam(conn *c)
{
    player *p = c->player;
    p->chat_spam += 20;
    if (p->chat_spam > 200 && p->op_level < 1) {
        conn_kick(c, "Kicked for spamming"); /* disconnect.spam */
        return true;
    }
    return false;
}

bool chat_check_incoming(conn *c, const char *s, size_t len)
{
    long chars = utf8_utf16_length(s, len);
    if (chars > CHAT_MAX_CHARS) {
        /* Vanilla reads the text with readUtf(256): a longer one is a decoder
         * error and the connection is closed with the exception's text. */
        char why[160];
        snprintf(why, sizeof why,
                 "Internal Exception: io.netty.handler.codec.DecoderException: The received "
                 "string length is longer than maximum allowed (%ld > %d)",
                 chars, CHAT_MAX_CHARS);
        conn_kick(c, why);
        return false;
    }
    if (!chat_text_allowed(s, len)) {
        conn_kick(c, "Illegal characters in chat"); /* multiplayer.disconnect.illegal_characters */
        return false;
    }
    return true;
}

void chat_sb_chat_message(conn *c, rd_t *r)
{
    size_t len;
    const char *msg = rd_string(r, 32767, &len);
    rd_i64(r);                       /* timestamp */
    rd_i64(r);                       /* salt */
    if (rd_bool(r)) rd_skip(r, 256); /* signature: offline mode ignores it */
    rd_varint(r);                    /* message count (offset) */
    rd_skip(r, 3);                   /* acknowledged bitset */
    if (r->err) return;              /* play_dispatch kicks for malformed packets */
    if (!chat_check_incoming(c, msg, len)) return;
    player *p = c->player;
    static buf_t chat_text; /* see Memory above */
    buf_t *j = &chat_text;
    if (!j->limit) buf_init(j, 8192);
    buf_reset(j);
    if (p->chat_mode == 2) {
        chat_tr_json(j, "\"color\":\"red\"", "chat.disabled.options", NULL, 0);
        if (!j->failed) send_always(c, (const char *)j->data, j->len);
        return;
    }
    if (plugin_event_chat(c, &msg, &len)) return; /* plugins */
    chat_arg a[2] = {chat_player(p), chat_textn(msg, len)};
    buf_lit(j, "{\"translate\":\"chat.type.text\",\"with\":[");
    chat_name_json(j, p);
    buf_lit(j, ",{\"text\":");
    json_append_string(j, msg, len);
    buf_lit(j, "}]}");
    if (!j->failed) chat_broadcast((const char *)j->data, j->len, true);
    buf_reset(j);
    chat_tr_plain(j, "chat.type.text", a, 2);
    if (!j->failed) log_info("[Not Secure] %.*s", (int)j->len, (const char *)j->data);
    game.chat_messages++;
    chat_count_spam(c);
}
