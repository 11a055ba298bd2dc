/*
 * chat.h — text components, player chat, and delivering messages.
 *
 * Messages are vanilla translate components ({"translate":key,"with":[...]})
 * so every client shows them in its own language; the same message renders
 * to English text (en_us) for the console and the log. Player chat is sent
 * as System Chat in vanilla's chat.type.text form (offline mode: no
 * signatures), see docs/commands.md.
 *
 * Invariants:
 *  1. User text is data: names and messages are escaped into JSON with
 *     json_append_string, never used as a format string; the log escapes
 *     control bytes.
 *  2. A broadcast frames the packet once and queues the same bytes to every
 *     receiver; a receiver dropped while queuing (output over its cap) does
 *     not make the loop skip or repeat anyone.
 *  3. Chat input follows vanilla 1.20.1: text over 256 characters is a
 *     decoding error (disconnect), '§' and control characters disconnect
 *     ("Illegal characters in chat"), more than 10 messages in 10 s from a
 *     non-operator disconnects ("Kicked for spamming").
 */
#ifndef MC_CHAT_H
#define MC_CHAT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "game/game.h"

#define CHAT_MAX_CHARS 256 /* vanilla ServerboundChatPacket / ChatCommand string limit */

/* One argument of a translated message. */
enum chat_arg_kind {
    CA_TEXT,   /* literal text, s/len */
    CA_PLAYER, /* a player's display name component, p */
    CA_KEY,    /* a nested translation without arguments, s = key */
    CA_JSON,   /* a ready JSON component s/len; `plain` is its console text */
};

typedef struct chat_arg {
    enum chat_arg_kind kind;
    const char *s;
    size_t len;
    const char *plain;
    const player *p;
} chat_arg;

static inline chat_arg chat_text(const char *s)
{
    chat_arg a = {CA_TEXT, s, strlen(s), NULL, NULL};
    return a;
}

static inline chat_arg chat_textn(const char *s, size_t len)
{
    chat_arg a = {CA_TEXT, s, len, NULL, NULL};
    return a;
}

static inline chat_arg chat_player(const player *p)
{
    chat_arg a = {CA_PLAYER, NULL, 0, NULL, p};
    return a;
}

static inline chat_arg chat_key(const char *key)
{
    chat_arg a = {CA_KEY, key, strlen(key), NULL, NULL};
    return a;
}

/* Appends {"translate":key,"with":[...]} plus `style` (JSON members without
 * braces, e.g. "\"color\":\"red\"", or NULL). */
void chat_tr_json(buf_t *j, const char *style, const char *key, const chat_arg *a, size_t n);
/* Appends the English text of the message (console, log). */
void chat_tr_plain(buf_t *out, const char *key, const chat_arg *a, size_t n);
/* English pattern of a translation key ("%s" placeholders); the key itself if unknown. */
const char *chat_en(const char *key);
/* Appends vanilla's display-name component of a player: click suggests
 * "/tell name ", hover shows the entity. */
void chat_name_json(buf_t *j, const player *p);

/* System Chat with `json` to one player (unless its chat is hidden). */
void chat_send(conn *c, const char *json, size_t len);
/* System Chat to every player whose chat is not hidden; player_chat: only
 * to those whose chat setting shows player chat (vanilla visibility FULL). */
void chat_broadcast(const char *json, size_t len, bool player_chat);
/* Frames srv->pkt once and queues it to every player but `except` (may be NULL). */
void chat_broadcast_pkt(const conn *except);

/* Vanilla SharedConstants.isAllowedChatCharacter over every character. */
bool chat_text_allowed(const char *s, size_t len);
/* Checks a chat line or command from a client as vanilla does: over 256
 * characters or with illegal characters, c is kicked with vanilla's text and
 * false is returned. */
bool chat_check_incoming(conn *c, const char *s, size_t len);
/* Counts a chat message or command against the spam budget; true if the
 * player was kicked for spamming. The counter decays by one a tick in the
 * player's pass (game/play.c play_tick). */
bool chat_count_spam(conn *c);

/* Serverbound chat_message. */
void chat_sb_chat_message(conn *c, rd_t *r);

#endif
