/*
 * commands.c — the server half of the command dispatcher (see commands.h):
 * sources (a player or the console), selector resolution, feedback, the
 * command implementations, tab completion and the console. The tree and
 * the parser are game/cmd_parser.c; the clock and the weather are
 * game/daytime.c.
 *
 * Feedback follows vanilla's CommandSourceStack: success goes to the source;
 * "logged" successes also go to every other operator as gray italic
 * [Name: message] and to the console; failures are red. The console's
 * output goes to the log (stderr and logs/latest.log); RCON's (a console
 * source named "Rcon" with a capture buffer, cmd_run_capture) goes back to
 * the RCON client as plain text.
 *
 * The whitelist and ban commands keep their English patterns here
 * (lists_en) for console and RCON text until chat.c's table has them.
 */
#include "game/commands.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/tickstat.h"
#include "game/chat.h"
#include "game/daytime.h"
#include "game/entities.h"
#include "game/lists.h"
#include "game/ops.h"
#include "game/packets.h"
#include "proto/frame.h"
#include "world/store.h"

#define CONSOLE_LEVEL 4
#define MAX_TARGETS   4096 /* players one selector may resolve to */

/* Who runs a command: a player, the console, or a remote console (RCON). */
struct source {
    conn *c; /* NULL: the console or RCON */
    const char *name;
    int level;
    double x, y, z;
    float yaw, pitch;
    buf_t *capture; /* RCON: feedback goes here as plain text, not to the log */
};

typedef struct cmd_ctx {
    struct source *src;
    cmd_parse *ps;
} cmd_ctx;

static void source_of_player(struct source *s, conn *c)
{
    player *p = c->player;
    *s = (struct source){c, p->name, p->op_level, p->x, p->y, p->z, p->yaw, p->pitch, NULL};
}

static void source_console(struct source *s)
{
    *s = (struct source){
        NULL, "Server", CONSOLE_LEVEL, floor(srv->spawn_x), srv->spawn_y, floor(srv->spawn_z),
        0,    0,        NULL};
}

/* English patterns of the keys only the list commands use (chat.c has the
 * rest); console and RCON text comes from here. */
static const struct {
    const char *key, *en;
} lists_en[] = {
    {"commands.ban.failed", "Nothing changed. The player is already banned"},
    {"commands.ban.success", "Banned %s: %s"},
    {"commands.banip.failed", "Nothing changed. That IP is already banned"},
    {"commands.banip.info", "This ban affects %s player(s): %s"},
    {"commands.banip.invalid", "Invalid IP address or unknown player"},
    {"commands.banip.success", "Banned IP %s: %s"},
    {"commands.banlist.entry", "%s was banned by %s: %s"},
    {"commands.banlist.list", "There are %s ban(s):"},
    {"commands.banlist.none", "There are no bans"},
    {"commands.pardon.failed", "Nothing changed. The player isn't banned"},
    {"commands.pardon.success", "Unbanned %s"},
    {"commands.pardonip.failed", "Nothing changed. That IP isn't banned"},
    {"commands.pardonip.invalid", "Invalid IP address"},
    {"commands.pardonip.success", "Unbanned IP %s"},
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
};

/* The English pattern for key: ours, or the key (chat_tr_plain looks it up). */
static const char *en_pattern(const char *key)
{
    for (size_t i = 0; i < sizeof lists_en / sizeof lists_en[0]; i++)
        if (strcmp(lists_en[i].key, key) == 0) return lists_en[i].en;
    return key;
}

/* -------------------------------------------------------------- feedback */

static void send_json(struct source *s, const buf_t *json, const buf_t *plain)
{
    if (s->c) {
        if (!json->failed) chat_send(s->c, (const char *)json->data, json->len);
    } else if (plain->failed) {
        return;
    } else if (s->capture) {
        if (s->capture->len) buf_lit(s->capture, "\n");
        buf_append(s->capture, plain->data, plain->len);
    } else {
        log_info("%.*s", (int)plain->len, (const char *)plain->data);
    }
}

/* The source's display name as a JSON component (the console is "Server"). */
static void source_name_json(buf_t *j, const struct source *s)
{
    if (s->c) {
        chat_name_json(j, s->c->player);
    } else {
        buf_lit(j, "{\"text\":");
        json_append_string(j, s->name, strlen(s->name));
        buf_lit(j, "}");
    }
}

/* vanilla sendSuccess(message, logged) */
static void success(cmd_ctx *x, bool logged, const char *key, const chat_arg *a, size_t n)
{
    struct source *s = x->src;
    buf_t j, plain;
    buf_init(&j, 64u << 10);
    buf_init(&plain, 64u << 10);
    chat_tr_json(&j, NULL, key, a, n);
    chat_tr_plain(&plain, en_pattern(key), a, n);
    send_json(s, &j, &plain);
    bool to_ops = s->c         ? true
                  : s->capture ? srv->cfg.broadcast_rcon_to_ops
                               : srv->cfg.broadcast_console_to_ops;
    if (logged && s->capture && !plain.failed) /* vanilla: the console hears RCON's actions */
        log_info("[%s: %.*s]", s->name, (int)plain.len, (const char *)plain.data);
    if (logged && to_ops) {
        buf_t adm;
        buf_init(&adm, 64u << 10);
        buf_lit(&adm, "{\"italic\":true,\"color\":\"gray\",\"translate\":\"chat.type.admin\","
                      "\"with\":[");
        source_name_json(&adm, s);
        buf_lit(&adm, ",");
        buf_append(&adm, j.data, j.len);
        buf_lit(&adm, "]}");
        if (!adm.failed && !j.failed)
            for (size_t i = 0; i < srv->player_count; i++) {
                conn *o = srv->players[i];
                if (o != s->c && o->player->op_level > 0)
                    chat_send(o, (const char *)adm.data, adm.len);
            }
        buf_free(&adm);
        if (s->c && !plain.failed)
            log_info("[%s: %.*s]", s->name, (int)plain.len, (const char *)plain.data);
    }
    buf_free(&j);
    buf_free(&plain);
}

/* vanilla sendFailure: red. */
static void failure(cmd_ctx *x, const char *key, const chat_arg *a, size_t n)
{
    buf_t j, plain;
    buf_init(&j, 16u << 10);
    buf_init(&plain, 16u << 10);
    buf_lit(&j, "{\"color\":\"red\",\"extra\":[");
    chat_tr_json(&j, NULL, key, a, n);
    buf_lit(&j, "],\"text\":\"\"}");
    chat_tr_plain(&plain, en_pattern(key), a, n);
    send_json(x->src, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

static void failure0(cmd_ctx *x, const char *key)
{
    failure(x, key, NULL, 0);
}

/* A parse error: the message, then "...text<--[HERE]" (vanilla Commands.performCommand). */
static void parse_failure(struct source *s, const cmd_parse *ps)
{
    cmd_ctx x = {s, NULL};
    chat_arg a[2];
    for (int i = 0; i < ps->err_nargs; i++) a[i] = chat_text(ps->err_arg[i]);
    failure(&x, ps->err_key, a, (size_t)ps->err_nargs);
    if (ps->err_pos < 0) return;
    size_t cur = (size_t)ps->err_pos < ps->len ? (size_t)ps->err_pos : ps->len;
    size_t from = cur > 10 ? cur - 10 : 0;
    buf_t j, plain;
    buf_init(&j, 16u << 10);
    buf_init(&plain, 16u << 10);
    buf_lit(&j, "{\"color\":\"red\",\"extra\":[{\"color\":\"gray\",\"clickEvent\":{\"action\":"
                "\"suggest_command\",\"value\":");
    char slash[CMD_MAX_LEN + 2];
    int sn = snprintf(slash, sizeof slash, "/%.*s", (int)ps->len, ps->line);
    json_append_string(&j, slash, sn > 0 ? (size_t)sn : 0);
    buf_lit(&j, "},\"extra\":[");
    if (cur > 10) {
        buf_lit(&j, "{\"text\":\"...\"},");
        buf_lit(&plain, "...");
    }
    buf_lit(&j, "{\"text\":");
    json_append_string(&j, ps->line + from, cur - from);
    buf_lit(&j, "}");
    if (cur > from) buf_append(&plain, ps->line + from, cur - from);
    if (cur < ps->len) {
        buf_lit(&j, ",{\"color\":\"red\",\"underlined\":true,\"text\":");
        json_append_string(&j, ps->line + cur, ps->len - cur);
        buf_lit(&j, "}");
        buf_append(&plain, ps->line + cur, ps->len - cur);
    }
    buf_lit(&j, ",{\"color\":\"red\",\"italic\":true,\"translate\":\"command.context.here\"}],"
                "\"text\":\"\"}],\"text\":\"\"}");
    const char *here = chat_en("command.context.here");
    buf_append(&plain, here, strlen(here));
    send_json(s, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

/* ------------------------------------------------------------- selectors */

static conn *player_by_name(const char *name)
{
    for (size_t i = 0; i < srv->player_count; i++)
        if (strcasecmp(srv->players[i]->player->name, name) == 0) return srv->players[i];
    return NULL;
}

static double dist_sq(const struct source *s, const player *p)
{
    double dx = p->x - s->x, dy = p->y - s->y, dz = p->z - s->z;
    return dx * dx + dy * dy + dz * dz;
}

struct target_list {
    conn *c[MAX_TARGETS];
    size_t n;
};

static const struct source *sort_src;

static int cmp_near(const void *a, const void *b)
{
    double da = dist_sq(sort_src, (*(conn *const *)a)->player);
    double db = dist_sq(sort_src, (*(conn *const *)b)->player);
    return da < db ? -1 : da > db;
}

/* Resolves a selector to players (only players exist as entities here).
 * -1 after sending an error. */
static int resolve(cmd_ctx *x, const struct cmd_selector *sel, bool players_only,
                   struct target_list *out)
{
    struct source *s = x->src;
    out->n = 0;
    if (sel->kind && sel->kind != 'u' && s->level < 2) {
        failure0(x, "argument.entity.selector.not_allowed");
        return -1;
    }
    if (sel->kind == 0) {
        conn *c = sel->type_other ? NULL : player_by_name(sel->name);
        if (c) out->c[out->n++] = c;
    } else if (sel->kind == 'u') {
        for (size_t i = 0; i < srv->player_count; i++)
            if (memcmp(srv->players[i]->player->uuid.b, sel->uuid.b, 16) == 0)
                out->c[out->n++] = srv->players[i];
    } else if (sel->kind == 's') {
        if (s->c) out->c[out->n++] = s->c;
    } else {
        for (size_t i = 0; i < srv->player_count && out->n < MAX_TARGETS; i++) {
            conn *c = srv->players[i];
            player *p = c->player;
            if (sel->type_other) break;
            if (sel->kind != 'a' && p->health <= 0) continue; /* @p @r @e: living only */
            if (sel->has_name && (strcasecmp(p->name, sel->name) == 0) == sel->name_neg) continue;
            if (sel->gamemode >= 0 && (p->gamemode == sel->gamemode) == sel->gm_neg) continue;
            if (sel->has_dist) {
                double d = sqrt(dist_sq(s, p));
                if (d < sel->dmin || d > sel->dmax) continue;
            }
            out->c[out->n++] = c;
        }
        int sort = sel->sort;
        if (sort == 1 || sort == 2) {
            sort_src = s;
            qsort(out->c, out->n, sizeof out->c[0], cmp_near);
            if (sort == 2)
                for (size_t i = 0; i < out->n / 2; i++) {
                    conn *t = out->c[i];
                    out->c[i] = out->c[out->n - 1 - i];
                    out->c[out->n - 1 - i] = t;
                }
        } else if (sort == 3) {
            for (size_t i = out->n; i > 1; i--) {
                size_t k = (size_t)rand() % i;
                conn *t = out->c[i - 1];
                out->c[i - 1] = out->c[k];
                out->c[k] = t;
            }
        }
        size_t limit = sel->limit ? (size_t)sel->limit : (sel->kind == 'p' || sel->kind == 'r');
        if (limit && out->n > limit) out->n = limit;
    }
    if (!out->n) {
        failure0(x, players_only ? "argument.entity.notfound.player"
                                 : "argument.entity.notfound.entity");
        return -1;
    }
    return 0;
}

static int resolve_arg(cmd_ctx *x, const char *name, struct target_list *out)
{
    const struct cmd_value *v = cmd_arg(x->ps, name);
    if (!v) return -1;
    return resolve(x, &v->u.sel, (v->node->prop & CMD_ENTITY_PLAYERS) != 0, out);
}

static struct target_list targets_a, targets_b;

/* The source as a player, or an error ("A player is required ..."). */
static conn *source_player(cmd_ctx *x, bool entity)
{
    if (x->src->c && !x->src->c->closed) return x->src->c;
    failure0(x, entity ? "permissions.requires.entity" : "permissions.requires.player");
    return NULL;
}

/* A message argument with selectors replaced by names (level 2+, as vanilla). */
static void expand_message(cmd_ctx *x, const struct cmd_value *v, buf_t *out)
{
    const char *s = x->ps->line + v->start;
    size_t len = v->end - v->start, i = 0;
    while (i < len) {
        if (s[i] == '@' && x->src->level >= 2 && i + 1 < len && strchr("parse", s[i + 1]) &&
            (i + 2 >= len || s[i + 2] == ' ' || s[i + 2] == '[')) {
            size_t end = i;
            struct cmd_selector sel;
            if (cmd_read_selector(s, len, &end, &sel) == 0) {
                struct target_list *tl = &targets_b;
                tl->n = 0;
                /* An empty match prints nothing in the message; no error either. */
                for (size_t k = 0; k < srv->player_count && tl->n < MAX_TARGETS; k++) {
                    player *p = srv->players[k]->player;
                    if (sel.kind == 's' ? srv->players[k] != x->src->c : 0) continue;
                    if (sel.has_name && (strcasecmp(p->name, sel.name) == 0) == sel.name_neg)
                        continue;
                    tl->c[tl->n++] = srv->players[k];
                    if ((sel.kind == 'p' || sel.kind == 'r' || sel.kind == 's') && !sel.limit)
                        break;
                    if (sel.limit && tl->n >= (size_t)sel.limit) break;
                }
                for (size_t k = 0; k < tl->n; k++) {
                    if (k) buf_lit(out, ", ");
                    const char *nm = tl->c[k]->player->name;
                    buf_append(out, nm, strlen(nm));
                }
                i = end;
                continue;
            }
        }
        buf_append(out, &s[i], 1);
        i++;
    }
}

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

void cmd_refresh_permissions(conn *c)
{
    player *p = c->player;
    p->op_level = ops_level(&p->uuid);
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, p->entity_id, (int8_t)(24 + p->op_level));
    conn_send_pkt(c);
    send_tree(c);
}

/* ------------------------------------------------------------ formatting */

static void fmt_double(char *out, size_t cap, double d)
{
    snprintf(out, cap, "%f", d); /* Java String.format(Locale.ROOT, "%f") */
}

static void fmt_float(char *out, size_t cap, float f)
{
    /* Java Float.toString for the values commands use: "0.0", "90.5" */
    if (f == floorf(f) && fabsf(f) < 1e7f)
        snprintf(out, cap, "%.1f", (double)f);
    else
        snprintf(out, cap, "%g", (double)f);
}

static double wrap_degrees(double d)
{
    d = fmod(d, 360.0);
    if (d >= 180.0) d -= 360.0;
    if (d < -180.0) d += 360.0;
    return d;
}

/* Resolves parsed coordinates against the source (vanilla WorldCoordinates / LocalCoordinates). */
static void coords_abs(const struct source *s, const struct cmd_coords *c, double out[3])
{
    if (c->local) {
        double ry = (s->yaw + 90.0) * M_PI / 180.0, rx = -s->pitch * M_PI / 180.0,
               rx2 = (-s->pitch + 90.0) * M_PI / 180.0;
        double f = cos(ry), g = sin(ry), h = cos(rx), i = sin(rx), j = cos(rx2), k = sin(rx2);
        double fw[3] = {f * h, i, g * h}, up[3] = {f * j, k, g * j};
        double left[3] = {-(fw[1] * up[2] - fw[2] * up[1]), -(fw[2] * up[0] - fw[0] * up[2]),
                          -(fw[0] * up[1] - fw[1] * up[0])};
        double l = c->v[0], u = c->v[1], w = c->v[2];
        out[0] = s->x + fw[0] * w + up[0] * u + left[0] * l;
        out[1] = s->y + fw[1] * w + up[1] * u + left[1] * l;
        out[2] = s->z + fw[2] * w + up[2] * u + left[2] * l;
        return;
    }
    double base[3] = {s->x, s->y, s->z};
    for (int i = 0; i < 3; i++) out[i] = (c->rel >> i & 1) ? base[i] + c->v[i] : c->v[i];
}

/* =============================================================== commands */

static int ex_help(cmd_ctx *x)
{
    const cmd_tree *t = cmd_builtin_tree();
    const struct cmd_value *arg = cmd_arg(x->ps, "command");
    buf_t line;
    buf_init(&line, 8192);
    if (!arg) {
        for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling) {
            if (t->n[c].level > x->src->level) continue;
            buf_reset(&line);
            buf_lit(&line, "/");
            cmd_usage(&line, t, c, x->src->level);
            buf_t j;
            buf_init(&j, 16384);
            buf_lit(&j, "{\"text\":");
            json_append_string(&j, (const char *)line.data, line.len);
            buf_lit(&j, "}");
            send_json(x->src, &j, &line);
            buf_free(&j);
        }
        buf_free(&line);
        return 0;
    }
    /* help <command>: the usage of the deepest node the text reaches. */
    cmd_parse sub;
    const char *text = x->ps->line + arg->start;
    size_t tlen = arg->end - arg->start;
    cmd_parse_line(t, text, tlen, x->src->level, &sub);
    int node = -1;
    if (sub.exec)
        node = (int)(sub.path[sub.depth - 1].node - t->n);
    else {
        /* deepest literal/argument matched before the error: walk the words */
        int cur = 0;
        size_t pos = 0;
        while (pos < tlen) {
            size_t e = pos;
            while (e < tlen && text[e] != ' ') e++;
            int next = -1;
            const cmd_node *src = t->n[cur].redirect >= 0 ? &t->n[t->n[cur].redirect] : &t->n[cur];
            for (int c = src->first_child; c >= 0; c = t->n[c].next_sibling)
                if (t->n[c].kind == CN_LITERAL && t->n[c].level <= x->src->level &&
                    strlen(t->n[c].name) == e - pos &&
                    memcmp(t->n[c].name, text + pos, e - pos) == 0)
                    next = c;
            if (next < 0) break;
            cur = next;
            pos = e < tlen ? e + 1 : e;
        }
        if (cur > 0 && pos >= tlen) node = cur;
    }
    if (node <= 0) {
        failure0(x, "commands.help.failed");
        buf_free(&line);
        return -1;
    }
    const cmd_node *nd = &t->n[node];
    const cmd_node *src = nd->redirect >= 0 ? &t->n[nd->redirect] : nd;
    for (int c = src->first_child; c >= 0; c = t->n[c].next_sibling) {
        if (t->n[c].level > x->src->level) continue;
        buf_reset(&line);
        buf_lit(&line, "/");
        buf_append(&line, text, tlen);
        buf_lit(&line, " ");
        cmd_usage(&line, t, c, x->src->level);
        buf_t j;
        buf_init(&j, 16384);
        buf_lit(&j, "{\"text\":");
        json_append_string(&j, (const char *)line.data, line.len);
        buf_lit(&j, "}");
        send_json(x->src, &j, &line);
        buf_free(&j);
    }
    buf_free(&line);
    return 0;
}

static int ex_list(cmd_ctx *x, bool uuids)
{
    buf_t j, plain;
    buf_init(&j, 1u << 20);
    buf_init(&plain, 1u << 20);
    buf_lit(&j, "{\"text\":\"\",\"extra\":[");
    for (size_t i = 0; i < srv->player_count; i++) {
        const player *p = srv->players[i]->player;
        if (i) {
            buf_lit(&j, ",{\"text\":\", \"},");
            buf_lit(&plain, ", ");
        }
        if (uuids) {
            char id[37];
            uuid_format(&p->uuid, id);
            chat_arg a[2] = {chat_player(p), chat_text(id)};
            chat_tr_json(&j, NULL, "commands.list.nameAndId", a, 2);
            chat_tr_plain(&plain, "commands.list.nameAndId", a, 2);
        } else {
            chat_name_json(&j, p);
            buf_append(&plain, p->name, strlen(p->name));
        }
    }
    buf_lit(&j, "]}");
    if (!srv->player_count) {
        buf_reset(&j);
        buf_lit(&j, "{\"text\":\"\"}");
    }
    char count[24], max[24];
    snprintf(count, sizeof count, "%zu", srv->player_count);
    snprintf(max, sizeof max, "%d", srv->cfg.max_players);
    buf_append(&plain, "", 1);
    chat_arg a[3] = {chat_text(count),
                     chat_text(max),
                     {CA_JSON, (const char *)j.data, j.len, (const char *)plain.data, NULL}};
    if (!j.failed && !plain.failed) success(x, false, "commands.list.players", a, 3);
    buf_free(&j);
    buf_free(&plain);
    return 0;
}

/* /me and /say: the source's name and its message under a chat.type key,
 * broadcast to everyone and logged as plain text. */
static int ex_source_message(cmd_ctx *x, const char *arg, const char *key)
{
    const struct cmd_value *v = cmd_arg(x->ps, arg);
    buf_t msg, j, plain;
    buf_init(&msg, 64u << 10);
    buf_init(&j, 128u << 10);
    buf_init(&plain, 128u << 10);
    expand_message(x, v, &msg);
    buf_lit(&j, "{\"translate\":\"");
    buf_append(&j, key, strlen(key));
    buf_lit(&j, "\",\"with\":[");
    source_name_json(&j, x->src);
    buf_lit(&j, ",{\"text\":");
    json_append_string(&j, (const char *)msg.data, msg.len);
    buf_lit(&j, "}]}");
    if (!j.failed && !msg.failed) chat_broadcast((const char *)j.data, j.len, true);
    chat_arg a[2] = {chat_text(x->src->name), chat_textn((const char *)msg.data, msg.len)};
    chat_tr_plain(&plain, key, a, 2);
    if (!plain.failed) log_info("%.*s", (int)plain.len, (const char *)plain.data);
    buf_free(&msg);
    buf_free(&j);
    buf_free(&plain);
    return 0;
}

static int ex_me(cmd_ctx *x)
{
    return ex_source_message(x, "action", "chat.type.emote");
}

static int ex_say(cmd_ctx *x)
{
    return ex_source_message(x, "message", "chat.type.announcement");
}

static int ex_msg(cmd_ctx *x)
{
    struct target_list *tl = &targets_a;
    if (resolve_arg(x, "targets", tl) < 0) return -1;
    buf_t msg, j;
    buf_init(&msg, 64u << 10);
    buf_init(&j, 128u << 10);
    expand_message(x, cmd_arg(x->ps, "message"), &msg);
    for (size_t i = 0; i < tl->n; i++) {
        conn *t = tl->c[i];
        if (t->closed) continue;
        /* to the target: "<source> whispers to you: msg" */
        buf_reset(&j);
        buf_lit(&j, "{\"italic\":true,\"color\":\"gray\",\"translate\":"
                    "\"commands.message.display.incoming\",\"with\":[");
        source_name_json(&j, x->src);
        buf_lit(&j, ",{\"text\":");
        json_append_string(&j, (const char *)msg.data, msg.len);
        buf_lit(&j, "}]}");
        if (!j.failed && !msg.failed && t->player->chat_mode == 0)
            chat_send(t, (const char *)j.data, j.len);
        /* to the source: "You whisper to <target>: msg" */
        chat_arg a[2] = {chat_player(t->player), chat_textn((const char *)msg.data, msg.len)};
        buf_reset(&j);
        chat_tr_json(&j, "\"italic\":true,\"color\":\"gray\"", "commands.message.display.outgoing",
                     a, 2);
        buf_t plain;
        buf_init(&plain, 128u << 10);
        chat_tr_plain(&plain, "commands.message.display.outgoing", a, 2);
        send_json(x->src, &j, &plain);
        buf_free(&plain);
    }
    buf_free(&msg);
    buf_free(&j);
    return 0;
}

static bool in_world_bounds(double x, double y, double z)
{
    return fabs(x) < 3.0e7 && fabs(z) < 3.0e7 && y >= -2.0e7 && y < 2.0e7;
}

static void look_at(const player *p, const double at[3], float *yaw, float *pitch)
{
    double dx = at[0] - p->x, dy = at[1] - p->y, dz = at[2] - p->z;
    double h = sqrt(dx * dx + dz * dz);
    *pitch = (float)wrap_degrees(-(atan2(dy, h) * 180.0 / M_PI));
    *yaw = (float)wrap_degrees(atan2(dz, dx) * 180.0 / M_PI - 90.0);
}

static int ex_tp(cmd_ctx *x)
{
    const struct cmd_value *loc = cmd_arg(x->ps, "location");
    const struct cmd_value *dest = cmd_arg(x->ps, "destination");
    const struct cmd_value *tgt = cmd_arg(x->ps, "targets");
    struct target_list *tl = &targets_a, *dl = &targets_b;
    if (tgt) {
        if (resolve(x, &tgt->u.sel, false, tl) < 0) return -1;
    } else {
        conn *self = source_player(x, true);
        if (!self) return -1;
        tl->c[0] = self;
        tl->n = 1;
    }
    if (dest) {
        if (resolve(x, &dest->u.sel, false, dl) < 0) return -1;
        const player *d = dl->c[0]->player;
        double dx = d->x, dy = d->y, dz = d->z;
        float dyaw = d->yaw, dpitch = d->pitch;
        for (size_t i = 0; i < tl->n; i++)
            if (!tl->c[i]->closed) ent_teleport(tl->c[i], dx, dy, dz, dyaw, dpitch);
        if (tl->n == 1) {
            chat_arg a[2] = {chat_player(tl->c[0]->player), chat_player(d)};
            success(x, true, "commands.teleport.success.entity.single", a, 2);
        } else {
            char n[24];
            snprintf(n, sizeof n, "%zu", tl->n);
            chat_arg a[2] = {chat_text(n), chat_player(d)};
            success(x, true, "commands.teleport.success.entity.multiple", a, 2);
        }
        return 0;
    }
    double pos[3];
    coords_abs(x->src, &loc->u.pos, pos);
    if (!in_world_bounds(pos[0], pos[1], pos[2])) {
        failure0(x, "commands.teleport.invalidPosition");
        return -1;
    }
    const struct cmd_value *rot = cmd_arg(x->ps, "rotation");
    const struct cmd_value *fent = cmd_arg(x->ps, "facingEntity");
    const struct cmd_value *floc = cmd_arg(x->ps, "facingLocation");
    const struct cmd_value *fanc = cmd_arg(x->ps, "facingAnchor");
    double face[3];
    bool facing = false;
    if (fent) {
        struct target_list *fl = &targets_b;
        if (resolve(x, &fent->u.sel, false, fl) < 0) return -1;
        const player *f = fl->c[0]->player;
        face[0] = f->x;
        face[1] = f->y + (fanc && fanc->u.anchor == 1 ? 1.62 : 0.0);
        face[2] = f->z;
        facing = true;
    } else if (floc) {
        coords_abs(x->src, &floc->u.pos, face);
        facing = true;
    }
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        if (c->closed) continue;
        player *p = c->player;
        float yaw = p->yaw, pitch = p->pitch;
        if (rot) {
            yaw = (float)((rot->u.pos.rel & 1) ? x->src->yaw + rot->u.pos.v[0] : rot->u.pos.v[0]);
            pitch =
                (float)((rot->u.pos.rel & 2) ? x->src->pitch + rot->u.pos.v[1] : rot->u.pos.v[1]);
            yaw = (float)wrap_degrees(yaw);
            pitch = (float)wrap_degrees(pitch);
        }
        ent_teleport(c, pos[0], pos[1], pos[2], yaw, pitch);
        if (facing) {
            look_at(p, face, &yaw, &pitch);
            ent_teleport(c, pos[0], pos[1], pos[2], yaw, pitch);
        }
    }
    char sx[48], sy[48], sz[48];
    fmt_double(sx, sizeof sx, pos[0]);
    fmt_double(sy, sizeof sy, pos[1]);
    fmt_double(sz, sizeof sz, pos[2]);
    if (tl->n == 1) {
        chat_arg a[4] = {chat_player(tl->c[0]->player), chat_text(sx), chat_text(sy),
                         chat_text(sz)};
        success(x, true, "commands.teleport.success.location.single", a, 4);
    } else {
        char n[24];
        snprintf(n, sizeof n, "%zu", tl->n);
        chat_arg a[4] = {chat_text(n), chat_text(sx), chat_text(sy), chat_text(sz)};
        success(x, true, "commands.teleport.success.location.multiple", a, 4);
    }
    return 0;
}

static const char *const gamemode_keys[] = {"gameMode.survival", "gameMode.creative",
                                            "gameMode.adventure", "gameMode.spectator"};

static int ex_gamemode(cmd_ctx *x)
{
    int gm = cmd_arg(x->ps, "gamemode")->u.gamemode;
    struct target_list *tl = &targets_a;
    if (cmd_arg(x->ps, "target")) {
        if (resolve_arg(x, "target", tl) < 0) return -1;
    } else {
        conn *self = source_player(x, false);
        if (!self) return -1;
        tl->c[0] = self;
        tl->n = 1;
    }
    chat_arg mode = chat_key(gamemode_keys[gm]);
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        if (c->closed || c->player->gamemode == gm) continue;
        ent_set_gamemode(c, gm);
        log_info("Set %s's game mode to %s", c->player->name, cmd_gamemode_names[gm]);
        if (c == x->src->c) {
            success(x, true, "commands.gamemode.success.self", &mode, 1);
        } else {
            buf_t j;
            buf_init(&j, 4096);
            chat_tr_json(&j, NULL, "gameMode.changed", &mode, 1);
            if (!j.failed) chat_send(c, (const char *)j.data, j.len);
            buf_free(&j);
            chat_arg a[2] = {chat_player(c->player), mode};
            success(x, true, "commands.gamemode.success.other", a, 2);
        }
    }
    return 0;
}

static int ex_time(cmd_ctx *x, int exec)
{
    char v[32];
    if (exec == X_TIME_QUERY) {
        int64_t q;
        if (cmd_has_literal(x->ps, "gametime"))
            q = (int64_t)(srv->tick_count % INT32_MAX);
        else if (cmd_has_literal(x->ps, "daytime"))
            q = srv->day_time % 24000;
        else
            q = srv->day_time / 24000 % INT32_MAX;
        snprintf(v, sizeof v, "%lld", (long long)q);
        chat_arg a = chat_text(v);
        success(x, false, "commands.time.query", &a, 1);
        return 0;
    }
    int64_t t;
    if (exec == X_TIME_ADD) {
        srv->day_time += cmd_arg(x->ps, "time")->u.i;
        t = srv->day_time % 24000;
    } else {
        const struct cmd_value *tv = cmd_arg(x->ps, "time");
        t = tv                                   ? tv->u.i
            : cmd_has_literal(x->ps, "noon")     ? 6000
            : cmd_has_literal(x->ps, "night")    ? 13000
            : cmd_has_literal(x->ps, "midnight") ? 18000
                                                 : 1000;
        srv->day_time = t; /* vanilla setDayTime(time): the day count restarts */
    }
    daytime_broadcast();
    snprintf(v, sizeof v, "%lld", (long long)t);
    chat_arg a = chat_text(v);
    success(x, true, "commands.time.set", &a, 1);
    return 0;
}

static int ex_weather(cmd_ctx *x)
{
    const struct cmd_value *d = cmd_arg(x->ps, "duration");
    int duration = d ? d->u.i : 0;
    if (cmd_has_literal(x->ps, "clear")) {
        daytime_set_weather(false, false, 0);
        success(x, true, "commands.weather.set.clear", NULL, 0);
    } else if (cmd_has_literal(x->ps, "rain")) {
        daytime_set_weather(true, false, duration);
        success(x, true, "commands.weather.set.rain", NULL, 0);
    } else {
        daytime_set_weather(true, true, duration);
        success(x, true, "commands.weather.set.thunder", NULL, 0);
    }
    return 0;
}

static int ex_kill(cmd_ctx *x)
{
    struct target_list *tl = &targets_a;
    if (cmd_arg(x->ps, "targets")) {
        if (resolve_arg(x, "targets", tl) < 0) return -1;
    } else {
        conn *self = source_player(x, true);
        if (!self) return -1;
        tl->c[0] = self;
        tl->n = 1;
    }
    for (size_t i = 0; i < tl->n; i++)
        if (!tl->c[i]->closed) ent_kill(tl->c[i]);
    if (tl->n == 1) {
        chat_arg a = chat_player(tl->c[0]->player);
        success(x, true, "commands.kill.success.single", &a, 1);
    } else {
        char n[24];
        snprintf(n, sizeof n, "%zu", tl->n);
        chat_arg a = chat_text(n);
        success(x, true, "commands.kill.success.multiple", &a, 1);
    }
    return 0;
}

static int ex_setworldspawn(cmd_ctx *x)
{
    const struct cmd_value *pv = cmd_arg(x->ps, "pos");
    const struct cmd_value *av = cmd_arg(x->ps, "angle");
    double pos[3] = {x->src->x, x->src->y, x->src->z};
    if (pv) coords_abs(x->src, &pv->u.pos, pos);
    int32_t bx = (int32_t)floor(pos[0]), by = (int32_t)floor(pos[1]), bz = (int32_t)floor(pos[2]);
    if (!in_world_bounds(bx, by, bz)) {
        failure0(x, "argument.pos.outofworld");
        return -1;
    }
    float angle = 0;
    if (av) {
        double a = av->u.pos.v[0];
        if (av->u.pos.rel) a += x->src->yaw;
        angle = (float)wrap_degrees(a);
    }
    srv->spawn_x = bx + 0.5;
    srv->spawn_y = by;
    srv->spawn_z = bz + 0.5;
    srv->spawn_angle = angle;
    buf_reset(&srv->pkt);
    pkt_cb_spawn_position(&srv->pkt, bx, by, bz, angle);
    chat_broadcast_pkt(NULL);
    char sx[16], sy[16], sz[16], sa[32];
    snprintf(sx, sizeof sx, "%d", bx);
    snprintf(sy, sizeof sy, "%d", by);
    snprintf(sz, sizeof sz, "%d", bz);
    fmt_float(sa, sizeof sa, angle);
    chat_arg a[4] = {chat_text(sx), chat_text(sy), chat_text(sz), chat_text(sa)};
    success(x, true, "commands.setworldspawn.success", a, 4);
    return 0;
}

static int ex_seed(cmd_ctx *x)
{
    char s[32], plain[40];
    snprintf(s, sizeof s, "%lld", (long long)srv->cfg.seed);
    snprintf(plain, sizeof plain, "[%s]", s);
    buf_t j;
    buf_init(&j, 1024);
    /* ComponentUtils.copyOnClickText: [seed] in green, click copies it */
    buf_lit(&j, "{\"translate\":\"chat.square_brackets\",\"with\":[{\"color\":\"green\","
                "\"clickEvent\":{\"action\":\"copy_to_clipboard\",\"value\":\"");
    buf_append(&j, s, strlen(s));
    buf_lit(&j, "\"},\"hoverEvent\":{\"action\":\"show_text\",\"contents\":{\"translate\":"
                "\"chat.copy.click\"}},\"insertion\":\"");
    buf_append(&j, s, strlen(s));
    buf_lit(&j, "\",\"text\":\"");
    buf_append(&j, s, strlen(s));
    buf_lit(&j, "\"}]}");
    chat_arg a = {CA_JSON, (const char *)j.data, j.len, plain, NULL};
    if (!j.failed) success(x, false, "commands.seed.success", &a, 1);
    buf_free(&j);
    return 0;
}

static int ex_kick(cmd_ctx *x)
{
    struct target_list *tl = &targets_a;
    if (resolve_arg(x, "targets", tl) < 0) return -1;
    buf_t reason;
    buf_init(&reason, 64u << 10);
    const struct cmd_value *rv = cmd_arg(x->ps, "reason");
    if (rv)
        expand_message(x, rv, &reason);
    else {
        const char *d = chat_en("multiplayer.disconnect.kicked");
        buf_append(&reason, d, strlen(d));
    }
    buf_append(&reason, "", 1);
    if (reason.failed) {
        buf_free(&reason);
        return -1;
    }
    const char *why = (const char *)reason.data;
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        if (c->closed || c->state != CS_PLAY) continue;
        chat_arg a[2] = {chat_player(c->player), chat_text(why)};
        success(x, true, "commands.kick.success", a, 2);
        conn_kick_reason(c, KR_KICKED, NULL, why);
    }
    buf_free(&reason);
    return 0;
}

/* game_profile targets (op, deop, whitelist, ban, pardon): selectors, online
 * names, names the server knows (operators, the whitelist, bans), or in
 * offline mode any valid name (the name fixes the UUID). */
struct profile {
    mc_uuid uuid;
    char name[17];
    conn *c;
};

/* A name from ops.json, whitelist.json or banned-players.json. */
static bool known_profile(const char *name, struct profile *out)
{
    const struct op_entry *op = ops_find_name(name);
    if (op) {
        *out = (struct profile){op->uuid, {0}, NULL};
        snprintf(out->name, sizeof out->name, "%s", op->name);
        return true;
    }
    static const enum list_kind kinds[] = {LIST_WHITELIST, LIST_BANNED_PLAYERS};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < lists_count(kinds[k]); i++) {
            const struct list_entry *e = lists_get(kinds[k], i);
            if (strcasecmp(e->name, name) != 0) continue;
            *out = (struct profile){e->uuid, {0}, NULL};
            snprintf(out->name, sizeof out->name, "%s", e->name);
            return true;
        }
    return false;
}

static int resolve_profiles(cmd_ctx *x, bool allow_offline, struct profile *out, size_t *n,
                            size_t cap)
{
    const struct cmd_value *v = cmd_arg(x->ps, "targets");
    *n = 0;
    if (v->u.sel.kind) {
        struct target_list *tl = &targets_a;
        if (resolve(x, &v->u.sel, true, tl) < 0) return -1;
        for (size_t i = 0; i < tl->n && *n < cap; i++) {
            const player *p = tl->c[i]->player;
            out[*n] = (struct profile){p->uuid, {0}, tl->c[i]};
            snprintf(out[*n].name, sizeof out[*n].name, "%s", p->name);
            (*n)++;
        }
        return 0;
    }
    const char *name = v->u.sel.name;
    conn *c = v->u.sel.type_other ? NULL : player_by_name(name);
    if (c) {
        out[0] = (struct profile){c->player->uuid, {0}, c};
        snprintf(out[0].name, sizeof out[0].name, "%s", c->player->name);
        *n = 1;
        return 0;
    }
    if (!v->u.sel.type_other && known_profile(name, &out[0])) {
        *n = 1;
        return 0;
    }
    size_t len = strlen(name);
    bool valid = !v->u.sel.type_other && len >= 1 && len <= 16;
    for (size_t i = 0; valid && i < len; i++)
        valid = isalnum((unsigned char)name[i]) || name[i] == '_';
    if (allow_offline && valid && !srv->cfg.online_mode) {
        out[0] = (struct profile){uuid_offline(name, len), {0}, NULL};
        snprintf(out[0].name, sizeof out[0].name, "%s", name);
        *n = 1;
        return 0;
    }
    failure0(x, "argument.player.unknown");
    return -1;
}

static int ex_op(cmd_ctx *x, bool deop)
{
    static struct profile prof[MAX_TARGETS];
    size_t n;
    if (resolve_profiles(x, !deop, prof, &n, MAX_TARGETS) < 0) return -1;
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        int r = deop ? ops_remove(&prof[i].uuid)
                     : ops_add(&prof[i].uuid, prof[i].name, srv->cfg.op_permission_level);
        if (r <= 0) continue;
        changed++;
        chat_arg a = chat_text(prof[i].name);
        success(x, true, deop ? "commands.deop.success" : "commands.op.success", &a, 1);
        conn *c = prof[i].c ? prof[i].c : player_by_name(prof[i].name);
        if (c && !c->closed && memcmp(c->player->uuid.b, prof[i].uuid.b, 16) == 0)
            cmd_refresh_permissions(c);
    }
    if (!changed) {
        failure0(x, deop ? "commands.deop.failed" : "commands.op.failed");
        return -1;
    }
    return 0;
}

static int ex_stop(cmd_ctx *x)
{
    success(x, true, "commands.stop.stopping", NULL, 0);
    server_request_stop(srv);
    return 0;
}

/* save-all [flush], save-off, save-on (world/store.h). The console reads the
 * store's own log lines; players get vanilla's messages. */
static int ex_save(cmd_ctx *x, int exec)
{
    bool player = x->src->c != NULL;
    if (exec == X_SAVE_ALL) {
        if (player) success(x, true, "commands.save.saving", NULL, 0);
        store_save_all(cmd_has_literal(x->ps, "flush"));
        return 0;
    }
    bool on = exec == X_SAVE_ON;
    if (store_autosave_enabled() == on) {
        if (player)
            failure0(x, on ? "commands.save.alreadyOn" : "commands.save.alreadyOff");
        else
            log_info("%s", on ? "Saving is already turned on" : "Saving is already turned off");
        return -1;
    }
    if (player) success(x, true, on ? "commands.save.enabled" : "commands.save.disabled", NULL, 0);
    store_set_autosave(on);
    return 0;
}

/* ---------------------------------------------------- whitelist and bans */

static const char not_whitelisted_json[] =
    "{\"translate\":\"multiplayer.disconnect.not_whitelisted\","
    "\"fallback\":\"You are not white-listed on this server!\"}";
static const char banned_json[] = "{\"translate\":\"multiplayer.disconnect.banned\","
                                  "\"fallback\":\"You are banned from this server\"}";
static const char ip_banned_json[] = "{\"translate\":\"multiplayer.disconnect.ip_banned\","
                                     "\"fallback\":\"You have been IP banned from this server\"}";

/* vanilla kickUnlistedPlayers: with enforce-whitelist and the whitelist on,
 * online players not on it (operators excepted, as at login) are kicked. */
static void enforce_whitelist(void)
{
    if (!srv->cfg.enforce_whitelist || !lists_whitelist_enabled()) return;
    for (size_t i = srv->player_count; i-- > 0;) {
        if (i >= srv->player_count) continue;
        conn *c = srv->players[i];
        if (c->player->op_level > 0 || lists_whitelisted(&c->player->uuid)) continue;
        conn_kick_reason(c, KR_NOT_WHITELISTED, not_whitelisted_json,
                         "You are not white-listed on this server!");
    }
}

static int ex_whitelist(cmd_ctx *x, int exec)
{
    static struct profile prof[MAX_TARGETS];
    size_t n;
    switch (exec) {
    case X_WHITELIST_ON:
    case X_WHITELIST_OFF: {
        bool on = exec == X_WHITELIST_ON;
        if (lists_whitelist_enabled() == on) {
            failure0(x, on ? "commands.whitelist.alreadyOn" : "commands.whitelist.alreadyOff");
            return -1;
        }
        lists_whitelist_set_enabled(on);
        success(x, true, on ? "commands.whitelist.enabled" : "commands.whitelist.disabled", NULL,
                0);
        enforce_whitelist();
        return 0;
    }
    case X_WHITELIST_LIST: {
        size_t count = lists_count(LIST_WHITELIST);
        if (!count) {
            success(x, false, "commands.whitelist.none", NULL, 0);
            return 0;
        }
        buf_t names;
        buf_init(&names, 2u << 20);
        for (size_t i = 0; i < count; i++) {
            if (i) buf_lit(&names, ", ");
            const char *nm = lists_get(LIST_WHITELIST, i)->name;
            buf_append(&names, nm, strlen(nm));
        }
        char num[24];
        snprintf(num, sizeof num, "%zu", count);
        chat_arg a[2] = {chat_text(num), chat_textn((const char *)names.data, names.len)};
        if (!names.failed) success(x, false, "commands.whitelist.list", a, 2);
        buf_free(&names);
        return 0;
    }
    case X_WHITELIST_ADD:
    case X_WHITELIST_REMOVE: {
        bool add = exec == X_WHITELIST_ADD;
        if (resolve_profiles(x, true, prof, &n, MAX_TARGETS) < 0) return -1;
        int changed = 0;
        for (size_t i = 0; i < n; i++) {
            int r = add ? lists_whitelist_add(&prof[i].uuid, prof[i].name)
                        : lists_whitelist_remove(&prof[i].uuid);
            if (r <= 0) continue;
            changed++;
            chat_arg a = chat_text(prof[i].name);
            success(x, true,
                    add ? "commands.whitelist.add.success" : "commands.whitelist.remove.success",
                    &a, 1);
        }
        if (!changed) {
            failure0(x, add ? "commands.whitelist.add.failed" : "commands.whitelist.remove.failed");
            return -1;
        }
        if (!add) enforce_whitelist();
        return 0;
    }
    case X_WHITELIST_RELOAD:
        /* Read on a worker; the unlisted are kicked once the new list is in. */
        lists_whitelist_reload(enforce_whitelist);
        success(x, true, "commands.whitelist.reloaded", NULL, 0);
        return 0;
    }
    return -1;
}

/* c's address without the port (accept_all writes "ip:port"). */
static void conn_ip_of(const conn *c, char *out, size_t cap)
{
    const char *colon = strrchr(c->addr, ':');
    size_t n = colon ? (size_t)(colon - c->addr) : strlen(c->addr);
    if (n >= cap) n = cap - 1;
    memcpy(out, c->addr, n);
    out[n] = 0;
}

/* The reason argument (selectors expanded at level 2+), or NULL. */
static const char *reason_arg(cmd_ctx *x, buf_t *b)
{
    const struct cmd_value *rv = cmd_arg(x->ps, "reason");
    if (!rv) return NULL;
    expand_message(x, rv, b);
    buf_append(b, "", 1);
    return b->failed ? NULL : (const char *)b->data;
}

static int ex_ban(cmd_ctx *x)
{
    static struct profile prof[MAX_TARGETS];
    size_t n;
    if (resolve_profiles(x, true, prof, &n, MAX_TARGETS) < 0) return -1;
    buf_t rb;
    buf_init(&rb, LIST_REASON_MAX * 4);
    const char *reason = reason_arg(x, &rb);
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        if (lists_ban(&prof[i].uuid, prof[i].name, x->src->name, reason) <= 0) continue;
        changed++;
        const struct list_entry *e = lists_banned(&prof[i].uuid);
        chat_arg a[2] = {chat_text(prof[i].name), chat_text(e ? e->reason : LIST_DEFAULT_WHY)};
        success(x, true, "commands.ban.success", a, 2);
        for (size_t k = srv->player_count; k-- > 0;) {
            if (k >= srv->player_count) continue;
            conn *c = srv->players[k];
            if (memcmp(c->player->uuid.b, prof[i].uuid.b, 16) == 0)
                conn_kick_reason(c, KR_BANNED, banned_json, "You are banned from this server");
        }
    }
    buf_free(&rb);
    if (!changed) {
        failure0(x, "commands.ban.failed");
        return -1;
    }
    return 0;
}

static int ex_ban_ip(cmd_ctx *x)
{
    const struct cmd_value *tv = cmd_arg(x->ps, "target");
    char target[128], ip[LIST_IP_MAX];
    size_t tlen = tv->end - tv->start;
    snprintf(target, sizeof target, "%.*s", (int)(tlen < 127 ? tlen : 127),
             x->ps->line + tv->start);
    if (lists_normalize_ip(target, ip) < 0) {
        conn *c = tlen <= 16 ? player_by_name(target) : NULL;
        char raw[sizeof c->addr];
        if (c) conn_ip_of(c, raw, sizeof raw);
        if (!c || lists_normalize_ip(raw, ip) < 0) {
            failure0(x, "commands.banip.invalid");
            return -1;
        }
    }
    buf_t rb;
    buf_init(&rb, LIST_REASON_MAX * 4);
    const char *reason = reason_arg(x, &rb);
    int r = lists_ban_ip(ip, x->src->name, reason);
    buf_free(&rb);
    if (r <= 0) {
        failure0(x, r == 0 ? "commands.banip.failed" : "command.failed");
        return -1;
    }
    const struct list_entry *e = lists_ip_banned(ip);
    chat_arg a[2] = {chat_text(ip), chat_text(e ? e->reason : LIST_DEFAULT_WHY)};
    success(x, true, "commands.banip.success", a, 2);
    struct target_list *tl = &targets_a;
    tl->n = 0;
    for (size_t i = 0; i < srv->player_count && tl->n < MAX_TARGETS; i++) {
        char raw[sizeof srv->players[i]->addr], norm[LIST_IP_MAX];
        conn_ip_of(srv->players[i], raw, sizeof raw);
        if (lists_normalize_ip(raw, norm) == 0 && strcmp(norm, ip) == 0)
            tl->c[tl->n++] = srv->players[i];
    }
    if (tl->n) {
        buf_t names;
        buf_init(&names, 1u << 20);
        for (size_t i = 0; i < tl->n; i++) {
            if (i) buf_lit(&names, ", ");
            buf_append(&names, tl->c[i]->player->name, strlen(tl->c[i]->player->name));
        }
        char num[24];
        snprintf(num, sizeof num, "%zu", tl->n);
        chat_arg b[2] = {chat_text(num), chat_textn((const char *)names.data, names.len)};
        if (!names.failed) success(x, true, "commands.banip.info", b, 2);
        buf_free(&names);
        for (size_t i = 0; i < tl->n; i++)
            conn_kick_reason(tl->c[i], KR_IP_BANNED, ip_banned_json,
                             "You have been IP banned from this server");
    }
    return 0;
}

static int ex_pardon(cmd_ctx *x)
{
    static struct profile prof[MAX_TARGETS];
    size_t n;
    if (resolve_profiles(x, true, prof, &n, MAX_TARGETS) < 0) return -1;
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        if (lists_pardon(&prof[i].uuid) <= 0) continue;
        changed++;
        chat_arg a = chat_text(prof[i].name);
        success(x, true, "commands.pardon.success", &a, 1);
    }
    if (!changed) {
        failure0(x, "commands.pardon.failed");
        return -1;
    }
    return 0;
}

static int ex_pardon_ip(cmd_ctx *x)
{
    const struct cmd_value *tv = cmd_arg(x->ps, "target");
    char target[128], ip[LIST_IP_MAX];
    size_t tlen = tv->end - tv->start;
    snprintf(target, sizeof target, "%.*s", (int)(tlen < 127 ? tlen : 127),
             x->ps->line + tv->start);
    if (lists_normalize_ip(target, ip) < 0) {
        failure0(x, "commands.pardonip.invalid");
        return -1;
    }
    if (lists_pardon_ip(ip) <= 0) {
        failure0(x, "commands.pardonip.failed");
        return -1;
    }
    chat_arg a = chat_text(ip);
    success(x, true, "commands.pardonip.success", &a, 1);
    return 0;
}

static int ex_banlist(cmd_ctx *x)
{
    bool players = !cmd_has_literal(x->ps, "ips");
    bool ips = !cmd_has_literal(x->ps, "players");
    size_t total = 0;
    time_t now = time(NULL);
    for (int k = LIST_BANNED_PLAYERS; k <= LIST_BANNED_IPS; k++) {
        if ((k == LIST_BANNED_PLAYERS && !players) || (k == LIST_BANNED_IPS && !ips)) continue;
        for (size_t i = 0; i < lists_count((enum list_kind)k); i++) {
            const struct list_entry *e = lists_get((enum list_kind)k, i);
            if (e->expires.epoch == LIST_FOREVER || e->expires.epoch > (int64_t)now) total++;
        }
    }
    if (!total) {
        success(x, false, "commands.banlist.none", NULL, 0);
        return 0;
    }
    char num[24];
    snprintf(num, sizeof num, "%zu", total);
    chat_arg a = chat_text(num);
    success(x, false, "commands.banlist.list", &a, 1);
    for (int k = LIST_BANNED_PLAYERS; k <= LIST_BANNED_IPS; k++) {
        if ((k == LIST_BANNED_PLAYERS && !players) || (k == LIST_BANNED_IPS && !ips)) continue;
        for (size_t i = 0; i < lists_count((enum list_kind)k); i++) {
            const struct list_entry *e = lists_get((enum list_kind)k, i);
            if (e->expires.epoch != LIST_FOREVER && e->expires.epoch <= (int64_t)now) continue;
            chat_arg b[3] = {chat_text(k == LIST_BANNED_IPS ? e->ip : e->name),
                             chat_text(e->source), chat_text(e->reason)};
            success(x, false, "commands.banlist.entry", b, 3);
        }
    }
    return 0;
}

/* ------------------------------------------------------------ tick timing */

static int ex_mspt(cmd_ctx *x)
{
    struct tickstat_summary a, b;
    tickstat_summarize(TICKSTAT_SHORT, &a);
    tickstat_summarize(TICKSTAT_WINDOW, &b);
    double s5[5] = {a.min_ms, a.median_ms, a.p95_ms, a.p99_ms, a.max_ms};
    double s60[5] = {b.min_ms, b.median_ms, b.p95_ms, b.p99_ms, b.max_ms};
    double tps5 = a.tps, tps60 = b.tps, cpu5 = a.cpu_pct, cpu60 = b.cpu_pct;
    char lines[3][512];
    snprintf(lines[0], sizeof lines[0],
             "Tick durations (ms) min/median/95%%ile/99%%ile/max, last 5 s: "
             "%.2f/%.2f/%.2f/%.2f/%.2f; last 60 s: %.2f/%.2f/%.2f/%.2f/%.2f",
             s5[0], s5[1], s5[2], s5[3], s5[4], s60[0], s60[1], s60[2], s60[3], s60[4]);
    snprintf(lines[1], sizeof lines[1], "TPS last 5 s: %.2f; last 60 s: %.2f", tps5, tps60);
    snprintf(lines[2], sizeof lines[2],
             "Game thread CPU (everything: network, ticks, chunks) last 5 s: %.1f%%; last 60 s: "
             "%.1f%%; players: %zu",
             cpu5, cpu60, srv->player_count);
    for (int i = 0; i < 3; i++) {
        buf_t j, plain;
        buf_init(&j, 1024);
        buf_init(&plain, 1024);
        buf_lit(&j, "{\"text\":");
        json_append_string(&j, lines[i], strlen(lines[i]));
        buf_lit(&j, "}");
        buf_append(&plain, lines[i], strlen(lines[i]));
        send_json(x->src, &j, &plain);
        buf_free(&j);
        buf_free(&plain);
    }
    return 0;
}

/* ============================================================== dispatch */

static void run(struct source *s, const char *line, size_t len)
{
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\r' || line[len - 1] == '\t')) len--;
    if (!len) return;
    static cmd_parse ps; /* big: one command runs at a time on the game thread */
    if (cmd_parse_line(cmd_builtin_tree(), line, len, s->level, &ps) < 0) {
        parse_failure(s, &ps);
        return;
    }
    cmd_ctx x = {s, &ps};
    switch (ps.exec->exec) {
    case X_HELP: ex_help(&x); break;
    case X_LIST: ex_list(&x, false); break;
    case X_LIST_UUIDS: ex_list(&x, true); break;
    case X_ME: ex_me(&x); break;
    case X_MSG: ex_msg(&x); break;
    case X_SAY: ex_say(&x); break;
    case X_TP: ex_tp(&x); break;
    case X_GAMEMODE: ex_gamemode(&x); break;
    case X_TIME_SET:
    case X_TIME_ADD:
    case X_TIME_QUERY: ex_time(&x, ps.exec->exec); break;
    case X_WEATHER: ex_weather(&x); break;
    case X_KILL: ex_kill(&x); break;
    case X_SETWORLDSPAWN: ex_setworldspawn(&x); break;
    case X_SEED: ex_seed(&x); break;
    case X_KICK: ex_kick(&x); break;
    case X_OP: ex_op(&x, false); break;
    case X_DEOP: ex_op(&x, true); break;
    case X_STOP: ex_stop(&x); break;
    case X_MSPT: ex_mspt(&x); break;
    case X_SAVE_ALL:
    case X_SAVE_OFF:
    case X_SAVE_ON: ex_save(&x, ps.exec->exec); break;
    case X_WHITELIST_ON:
    case X_WHITELIST_OFF:
    case X_WHITELIST_LIST:
    case X_WHITELIST_ADD:
    case X_WHITELIST_REMOVE:
    case X_WHITELIST_RELOAD: ex_whitelist(&x, ps.exec->exec); break;
    case X_BAN: ex_ban(&x); break;
    case X_BAN_IP: ex_ban_ip(&x); break;
    case X_PARDON: ex_pardon(&x); break;
    case X_PARDON_IP: ex_pardon_ip(&x); break;
    case X_BANLIST: ex_banlist(&x); break;
    default: failure0(&x, "command.failed"); break;
    }
}

void cmd_run_capture(const char *line, size_t len, const char *source_name, buf_t *out)
{
    while (len && (*line == ' ' || *line == '/')) line++, len--;
    if (len > CMD_MAX_LEN) {
        buf_lit(out, "Command longer than 1024 bytes ignored");
        return;
    }
    struct source s;
    source_console(&s);
    s.name = source_name;
    s.capture = out;
    run(&s, line, len);
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
    struct source s;
    source_console(&s);
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
    struct source s;
    source_of_player(&s, c);
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
            for (size_t i = 0; i < srv->player_count; i++) {
                const player *p = srv->players[i]->player;
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
}

void cmd_join(conn *c)
{
    player *p = c->player;
    p->op_level = ops_level(&p->uuid);
    buf_reset(&srv->pkt);
    pkt_cb_entity_status(&srv->pkt, p->entity_id, (int8_t)(24 + p->op_level));
    conn_send_pkt(c);
    send_tree(c);
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
        pkt_cb_playerlist_header(&srv->pkt, (const char *)h.data, h.len, (const char *)f.data,
                                 f.len);
        conn_send_pkt(c);
        buf_free(&h);
        buf_free(&f);
    }
    daytime_join(c);
}
