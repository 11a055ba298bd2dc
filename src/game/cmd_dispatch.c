/*
 * cmd_dispatch.c — the entry points of commands.h: a command line from a
 * player (chat_command), the console (stdin) or RCON is trimmed, parsed
 * against the built-in tree at the source's level and either answered with
 * the parse error or run by its executor (cmd_builtin.c); tab completion
 * walks the same tree; joining players and op/deop get the tree and the op
 * level their permission allows.
 *
 * Invariants:
 *  1. One command runs at a time, on the game thread, to its end; the one
 *     parse result (static, large) is reused.
 *  2. A line over CMD_MAX_LEN bytes is never run: RCON and the console are
 *     told so, a player gets vanilla's unknown-command error (cmd_parse_line).
 *  3. Declare Commands is framed once per level (tree_frames, built on first
 *     use) and queued as is to every connection whose compression matches
 *     the server's; any other connection gets it encoded for itself.
 *  4. Completion offers at most MAX_SUGGESTIONS distinct matches of at most
 *     47 bytes each; it never suggests for messages or greedy strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "core/log.h"
#include "game/cmd_internal.h"
#include "game/cmd_perf.h"
#include "game/commands.h"
#include "game/daytime.h"
#include "game/border.h"
#include "game/forceload.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/level_tags.h"
#include "game/lists.h"
#include "game/ops.h"
#include "game/plugins.h" /* plugins */
#include "game/usercache.h"
#include "proto/packets.h"
#include "proto/frame.h"

/* ----------------------------------------------------------- permissions */

static buf_t tree_frames[5]; /* framed Declare Commands per level, built once */

static void send_tree(conn *c)
{
    int level = c->player->op_level;
    if (level < 0) level = 0;
    if (level > 4) level = 4;
    buf_t *f = &tree_frames[level];
    if (!f->len) {
        buf_init(f, 1u << 20);
        buf_t pkt;
        buf_init(&pkt, 1u << 20);
        pkt_cb_declare_commands(&pkt, cmd_builtin_tree(), level);
        if (!pkt.failed)
            frame_encode(f, pkt.data, pkt.len, srv->cfg.compression_threshold, srv->compressor);
        buf_free(&pkt);
    }
    if (c->compressed == (srv->cfg.compression_threshold >= 0)) {
        conn_send_raw(c, f->data, f->len);
    } else {
        buf_reset(&srv->pkt);
        pkt_cb_declare_commands(&srv->pkt, cmd_builtin_tree(), level);
        conn_send_pkt(c);
    }
}

void cmd_tree_changed(void)
{
    for (int i = 0; i < 5; i++) buf_free(&tree_frames[i]); /* rebuilt by the next send_tree */
    for (size_t i = 0; i < game.player_count; i++) send_tree(game.players[i]);
}

void cmd_refresh_permissions(conn *c)
{
    player *p = c->player;
    p->op_level = ops_level(&p->uuid);
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, p->entity_id, (int8_t)(24 + p->op_level));
    conn_send_pkt(c);
    send_tree(c);
}

/* ============================================================ running */

static void run(struct cmd_source *s, const char *line, size_t len)
{
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\r' || line[len - 1] == '\t')) len--;
    if (!len) return;
    if (plugin_event_command(s->c, s->name, line, len)) return; /* plugins */
    static cmd_parse ps; /* big: one command runs at a time on the game thread */
    if (cmd_parse_line(cmd_builtin_tree(), line, len, s->level, &ps) < 0) {
        cmd_parse_failure(s, &ps);
        return;
    }
    cmd_ctx x = {s, &ps};
    if (!cmd_perf_exec(&x)) cmd_builtin_exec(&x);
}

void cmd_run_capture(const char *line, size_t len, const char *source_name, buf_t *out)
{
    cmd_run_capture_later(line, len, source_name, out, NULL);
}

/* ------------------------------------------------ answers that come later */

/* A deferred answer (commands.h, cmd_later): its text so far, and who waits
 * for it (NULL once cancelled). */
struct cmd_pending {
    cmd_later *later;
    buf_t text;
};

void cmd_run_capture_later(const char *line, size_t len, const char *source_name, buf_t *out,
                           cmd_later *later)
{
    while (len && (*line == ' ' || *line == '/')) line++, len--;
    if (len > CMD_MAX_LEN) {
        buf_lit(out, "Command longer than 1024 bytes ignored");
        return;
    }
    struct cmd_source s;
    cmd_source_console(&s);
    s.name = source_name;
    s.capture = out;
    s.later = later && !later->pending ? later : NULL; /* one answer due at a time */
    run(&s, line, len);
}

struct cmd_pending *cmd_source_defer(struct cmd_source *s)
{
    if (!s->later || !s->capture || s->later->pending) return NULL;
    struct cmd_pending *p = malloc(sizeof *p);
    if (!p) return NULL;
    p->later = s->later;
    p->text = *s->capture; /* the buffer moves, its cap with it */
    buf_init(s->capture, p->text.limit);
    s->later->pending = p;
    return p;
}

void cmd_source_undefer(struct cmd_source *s, struct cmd_pending *p)
{
    if (p->later) p->later->pending = NULL;
    buf_free(s->capture);
    *s->capture = p->text;
    free(p);
}

void cmd_pending_finish(struct cmd_pending *p, const char *more)
{
    cmd_later *l = p->later;
    if (l) {
        if (more && more[0]) {
            if (p->text.len) buf_lit(&p->text, "\n");
            buf_append(&p->text, more, strlen(more));
        }
        l->pending = NULL;
        l->done(l, p->text.len ? (const char *)p->text.data : "", p->text.len);
    }
    buf_free(&p->text);
    free(p);
}

void cmd_later_cancel(cmd_later *l)
{
    if (l->pending) l->pending->later = NULL; /* finished later, delivered to nobody */
    l->pending = NULL;
}

void console_execute(const char *line)
{
    while (*line == ' ' || *line == '/') line++;
    size_t len = strlen(line);
    if (!len) return;
    if (len > CMD_MAX_LEN) {
        log_warn("console command longer than %d bytes ignored", CMD_MAX_LEN);
        return;
    }
    struct cmd_source s;
    cmd_source_console(&s);
    run(&s, line, len);
}

void cmd_sb_chat_command(conn *c, rd_t *r)
{
    size_t len;
    const char *cmd = rd_string(r, 32767, &len);
    rd_i64(r); /* timestamp */
    rd_i64(r); /* salt */
    int32_t nsig = rd_varint(r);
    if (!r->err && (nsig < 0 || nsig > 8)) { /* vanilla ArgumentSignatures: at most 8 */
        r->err = RD_BAD_VALUE;
        return;
    }
    for (int32_t i = 0; i < nsig && !r->err; i++) {
        size_t nl;
        rd_string(r, 16, &nl);
        rd_skip(r, 256);
    }
    rd_varint(r);  /* message count */
    rd_skip(r, 3); /* acknowledged */
    if (r->err) return;
    if (!chat_check_incoming(c, cmd, len)) return;
    player *p = c->player;
    log_info("%s issued server command: /%.*s", p->name, (int)len, cmd);
    struct cmd_source s;
    cmd_source_from_player(&s, c);
    run(&s, cmd, len);
    if (!c->closed && c->state == CS_PLAY) chat_count_spam(c);
}

/* ----------------------------------------------------------- completions */

#define MAX_SUGGESTIONS 256

struct completion {
    const char *m[MAX_SUGGESTIONS];
    size_t n;
    char store[MAX_SUGGESTIONS][48];
};

static void suggest(struct completion *cp, const char *word, size_t wlen, const char *s)
{
    if (cp->n >= MAX_SUGGESTIONS || strlen(s) < wlen || strncasecmp(s, word, wlen) != 0) return;
    for (size_t i = 0; i < cp->n; i++)
        if (strcmp(cp->m[i], s) == 0) return;
    snprintf(cp->store[cp->n], sizeof cp->store[0], "%s", s);
    cp->m[cp->n] = cp->store[cp->n];
    cp->n++;
}

static void suggest_children(const cmd_tree *t, int node, int level, const char *word, size_t wlen,
                             struct completion *cp)
{
    const cmd_node *nd = &t->n[node];
    const cmd_node *src = nd->redirect >= 0 ? &t->n[nd->redirect] : nd;
    for (int c = src->first_child; c >= 0; c = t->n[c].next_sibling) {
        const cmd_node *ch = &t->n[c];
        if (ch->level > level) continue;
        if (ch->kind == CN_LITERAL) {
            suggest(cp, word, wlen, ch->name);
            continue;
        }
        switch (ch->parser) {
        case CP_ENTITY:
        case CP_GAME_PROFILE:
            for (size_t i = 0; i < game.player_count; i++) {
                const player *p = game.players[i]->player;
                bool op = p->op_level > 0;
                if (ch->suggest == SUG_NON_OPS && op) continue;
                if (ch->suggest == SUG_NOT_WHITELISTED && lists_whitelisted(&p->uuid)) continue;
                if (ch->suggest == SUG_OPS || ch->suggest == SUG_WHITELISTED ||
                    ch->suggest == SUG_BANNED)
                    continue;
                suggest(cp, word, wlen, p->name);
            }
            if (ch->suggest == SUG_OPS)
                for (size_t i = 0; i < ops_count(); i++) suggest(cp, word, wlen, ops_get(i)->name);
            if (ch->suggest == SUG_WHITELISTED || ch->suggest == SUG_BANNED) {
                enum list_kind k =
                    ch->suggest == SUG_WHITELISTED ? LIST_WHITELIST : LIST_BANNED_PLAYERS;
                for (size_t i = 0; i < lists_count(k); i++)
                    suggest(cp, word, wlen, lists_get(k, i)->name);
            }
            if (ch->parser == CP_ENTITY) {
                static const char *const sels[] = {"@a", "@e", "@p", "@r", "@s"};
                for (int i = 0; i < 5; i++) suggest(cp, word, wlen, sels[i]);
            }
            break;
        case CP_GAMEMODE:
            for (int i = 0; i < 4; i++) suggest(cp, word, wlen, cmd_gamemode_names[i]);
            break;
        case CP_STRING:
            if (ch->suggest == SUG_BANNED_IPS)
                for (size_t i = 0; i < lists_count(LIST_BANNED_IPS); i++)
                    suggest(cp, word, wlen, lists_get(LIST_BANNED_IPS, i)->ip);
            break;
        case CP_ENTITY_ANCHOR:
            suggest(cp, word, wlen, "eyes");
            suggest(cp, word, wlen, "feet");
            break;
        default: break;
        }
    }
}

/* Nodes where `text` (whole words) ends: literal by literal, argument by argument. */
static void complete_walk(const cmd_tree *t, int node, const char *text, size_t len, size_t pos,
                          int level, int depth, const char *word, size_t wlen,
                          struct completion *cp)
{
    if (depth > CMD_MAX_DEPTH) return;
    if (pos >= len) {
        suggest_children(t, node, level, word, wlen, cp);
        return;
    }
    const cmd_node *nd = &t->n[node];
    const cmd_node *src = nd->redirect >= 0 ? &t->n[nd->redirect] : nd;
    for (int c = src->first_child; c >= 0; c = t->n[c].next_sibling) {
        const cmd_node *ch = &t->n[c];
        if (ch->level > level) continue;
        size_t end = pos;
        if (ch->kind == CN_LITERAL) {
            while (end < len && text[end] != ' ') end++;
            if (strlen(ch->name) != end - pos || memcmp(ch->name, text + pos, end - pos) != 0)
                continue;
        } else {
            struct cmd_value v;
            memset(&v, 0, sizeof v);
            if (ch->parser == CP_MESSAGE || (ch->parser == CP_STRING && ch->prop == 2)) continue;
            if (cmd_read_argument(ch, text, len, &end, &v) < 0) continue;
        }
        if (end < len && text[end] != ' ') continue;
        complete_walk(t, c, text, len, end < len ? end + 1 : end, level, depth + 1, word, wlen, cp);
    }
}

void cmd_sb_tab_complete(conn *c, rd_t *r)
{
    int32_t tx = rd_varint(r);
    size_t len;
    const char *text = rd_string(r, 32500, &len);
    if (r->err) return;
    size_t off = len && text[0] == '/' ? 1 : 0;
    const char *cmd = text + off;
    size_t clen = len - off;
    if (clen > CMD_MAX_LEN) clen = CMD_MAX_LEN;
    size_t ws = clen;
    while (ws > 0 && cmd[ws - 1] != ' ') ws--;
    static struct completion cp;
    cp.n = 0;
    int level = c->player->op_level;
    const cmd_tree *t = cmd_builtin_tree();
    if (ws == 0)
        suggest_children(t, 0, level, cmd, clen, &cp);
    else
        complete_walk(t, 0, cmd, ws - 1, 0, level, 0, cmd + ws, clen - ws, &cp);
    buf_reset(&srv->pkt);
    pkt_cb_tab_complete(&srv->pkt, tx, (int32_t)(off + ws), (int32_t)(clen - ws), cp.m, cp.n);
    conn_send_pkt(c);
}

/* ------------------------------------------------------------ join, init */

void cmd_init(void)
{
    daytime_init();
    ops_load("ops.json");
    lists_init(&srv->cfg);
    usercache_init(srv->loop);
    level_tags_init(); /* the game rules (and the difficulty) */
    forceload_init();  /* data/chunks.dat: chunks loaded from the start */
}

void cmd_join(conn *c)
{
    usercache_add(&c->player->uuid, c->player->name); /* vanilla: every join refreshes it */
    cmd_refresh_permissions(c);                       /* the op level and the tree for it */
    if (srv->cfg.tab_header[0] || srv->cfg.tab_footer[0]) {
        buf_t h, f;
        buf_init(&h, 8192);
        buf_init(&f, 8192);
        buf_lit(&h, "{\"text\":");
        json_append_string(&h, srv->cfg.tab_header, strlen(srv->cfg.tab_header));
        buf_lit(&h, "}");
        buf_lit(&f, "{\"text\":");
        json_append_string(&f, srv->cfg.tab_footer, strlen(srv->cfg.tab_footer));
        buf_lit(&f, "}");
        buf_reset(&srv->pkt);
        c->proto->cb_playerlist_header(&srv->pkt, (const char *)h.data, h.len, (const char *)f.data,
                                       f.len);
        conn_send_pkt(c);
        buf_free(&h);
        buf_free(&f);
    }
    daytime_join(c);
    gamerules_join(c);
    border_join(c);
}
