/*
 * cmd_source.c — who runs a command and what it is told: sources (a player,
 * the console, RCON), feedback, and resolving selectors and game profiles
 * against the players online (see cmd_internal.h).
 *
 * Feedback follows vanilla's CommandSourceStack: success goes to the source
 * (a player only with the sendCommandFeedback game rule); "logged"
 * successes also go to every other operator as gray italic [Name: message]
 * (with sendCommandFeedback) and to the console (with logAdminCommands);
 * failures are red. The console's
 * output goes to the log (stderr and logs/latest.log); RCON's (a console
 * source named "Rcon" with a capture buffer, cmd_run_capture) goes back to
 * the RCON client as plain text.
 *
 * Selectors follow vanilla's EntitySelector over the only entities there
 * are here, players: @p @r @e take living players only, @s is the source
 * (nothing for the console), sort and limit apply after the filters; a
 * selector needs level 2 (names and UUIDs do not).
 *
 * Also here: small helpers every executor file shares (coordinates, the
 * source or its targets, a line of plain text), see cmd_internal.h.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "core/log.h"
#include "game/cmd_internal.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/lists.h"
#include "game/ops.h"
#include "game/usercache.h"

/* --------------------------------------------------------------- sources */

void cmd_source_from_player(struct cmd_source *s, conn *c)
{
    player *p = c->player;
    *s = (struct cmd_source){.c = c,
                             .name = p->name,
                             .level = p->op_level,
                             .x = p->x,
                             .y = p->y,
                             .z = p->z,
                             .yaw = p->yaw,
                             .pitch = p->pitch};
}

void cmd_source_console(struct cmd_source *s)
{
    *s = (struct cmd_source){.name = "Server",
                             .level = CMD_CONSOLE_LEVEL,
                             .x = floor(game.spawn_x),
                             .y = game.spawn_y,
                             .z = floor(game.spawn_z)};
}

/* -------------------------------------------------------------- feedback */

void cmd_send_json(struct cmd_source *s, const buf_t *json, const buf_t *plain)
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
void cmd_source_name_json(buf_t *j, const struct cmd_source *s)
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
void cmd_success(cmd_ctx *x, bool logged, const char *key, const chat_arg *a, size_t n)
{
    struct cmd_source *s = x->src;
    buf_t j, plain;
    buf_init(&j, 64u << 10);
    buf_init(&plain, 64u << 10);
    chat_tr_json(&j, NULL, key, a, n);
    chat_tr_plain(&plain, key, a, n);
    /* game rules: a player hears its own feedback with sendCommandFeedback;
     * the console's log of others' actions follows logAdminCommands */
    bool feedback = gamerule_on(GR_SEND_COMMAND_FEEDBACK);
    bool log_admin = gamerule_on(GR_LOG_ADMIN_COMMANDS);
    if (!s->c || feedback) cmd_send_json(s, &j, &plain);
    bool to_ops = s->c         ? true
                  : s->capture ? srv->cfg.broadcast_rcon_to_ops
                               : srv->cfg.broadcast_console_to_ops;
    if (logged && s->capture && log_admin && !plain.failed) /* the console hears RCON's actions */
        log_info("[%s: %.*s]", s->name, (int)plain.len, (const char *)plain.data);
    if (logged && to_ops) {
        buf_t adm;
        buf_init(&adm, 64u << 10);
        buf_lit(&adm, "{\"italic\":true,\"color\":\"gray\",\"translate\":\"chat.type.admin\","
                      "\"with\":[");
        cmd_source_name_json(&adm, s);
        buf_lit(&adm, ",");
        buf_append(&adm, j.data, j.len);
        buf_lit(&adm, "]}");
        if (!adm.failed && !j.failed && feedback)
            for (size_t i = 0; i < game.player_count; i++) {
                conn *o = game.players[i];
                if (o != s->c && o->player->op_level > 0)
                    chat_send(o, (const char *)adm.data, adm.len);
            }
        buf_free(&adm);
        if (s->c && log_admin && !plain.failed)
            log_info("[%s: %.*s]", s->name, (int)plain.len, (const char *)plain.data);
    }
    buf_free(&j);
    buf_free(&plain);
}

/* vanilla sendFailure: red. */
void cmd_failure(cmd_ctx *x, const char *key, const chat_arg *a, size_t n)
{
    buf_t j, plain;
    buf_init(&j, 16u << 10);
    buf_init(&plain, 16u << 10);
    buf_lit(&j, "{\"color\":\"red\",\"extra\":[");
    chat_tr_json(&j, NULL, key, a, n);
    buf_lit(&j, "],\"text\":\"\"}");
    chat_tr_plain(&plain, key, a, n);
    cmd_send_json(x->src, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

void cmd_failure0(cmd_ctx *x, const char *key)
{
    cmd_failure(x, key, NULL, 0);
}

/* A parse error: the message, then "...text<--[HERE]" (vanilla Commands.performCommand). */
void cmd_parse_failure(struct cmd_source *s, const cmd_parse *ps)
{
    cmd_ctx x = {s, NULL};
    chat_arg a[3];
    for (int i = 0; i < ps->err_nargs; i++) a[i] = chat_text(ps->err_arg[i]);
    cmd_failure(&x, ps->err_key, a, (size_t)ps->err_nargs);
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
    cmd_send_json(s, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

/* ------------------------------------------------------------- selectors */

struct cmd_targets cmd_targets_a, cmd_targets_b;

conn *cmd_player_by_name(const char *name)
{
    for (size_t i = 0; i < game.player_count; i++)
        if (strcasecmp(game.players[i]->player->name, name) == 0) return game.players[i];
    return NULL;
}

static double dist_sq(const struct cmd_source *s, const player *p)
{
    double dx = p->x - s->x, dy = p->y - s->y, dz = p->z - s->z;
    return dx * dx + dy * dy + dz * dz;
}

static const struct cmd_source *sort_src;

static int cmp_near(const void *a, const void *b)
{
    double da = dist_sq(sort_src, (*(conn *const *)a)->player);
    double db = dist_sq(sort_src, (*(conn *const *)b)->player);
    return da < db ? -1 : da > db;
}

/* The players a selector picks (only players exist as entities here). */
void cmd_select(const struct cmd_source *s, const struct cmd_selector *sel, struct cmd_targets *out)
{
    out->n = 0;
    if (sel->kind == 0) {
        conn *c = sel->type_other ? NULL : cmd_player_by_name(sel->name);
        if (c) out->c[out->n++] = c;
    } else if (sel->kind == 'u') {
        for (size_t i = 0; i < game.player_count; i++)
            if (memcmp(game.players[i]->player->uuid.b, sel->uuid.b, 16) == 0)
                out->c[out->n++] = game.players[i];
    } else if (sel->kind == 's') {
        if (s->c) out->c[out->n++] = s->c;
    } else {
        for (size_t i = 0; i < game.player_count && out->n < CMD_MAX_TARGETS; i++) {
            conn *c = game.players[i];
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
}

/* cmd_select, and vanilla's errors. -1 after sending one. */
int cmd_resolve(cmd_ctx *x, const struct cmd_selector *sel, bool players_only,
                struct cmd_targets *out)
{
    out->n = 0;
    if (sel->kind && sel->kind != 'u' && x->src->level < 2) {
        cmd_failure0(x, "argument.entity.selector.not_allowed");
        return -1;
    }
    cmd_select(x->src, sel, out);
    if (!out->n) {
        cmd_failure0(x, players_only ? "argument.entity.notfound.player"
                                     : "argument.entity.notfound.entity");
        return -1;
    }
    return 0;
}

int cmd_resolve_arg(cmd_ctx *x, const char *name, struct cmd_targets *out)
{
    const struct cmd_value *v = cmd_arg(x->ps, name);
    if (!v) return -1;
    return cmd_resolve(x, &v->u.sel, (v->node->prop & CMD_ENTITY_PLAYERS) != 0, out);
}

/* The source as a player, or an error ("A player is required ..."). */
conn *cmd_source_player(cmd_ctx *x, bool entity)
{
    if (x->src->c && !x->src->c->closed) return x->src->c;
    cmd_failure0(x, entity ? "permissions.requires.entity" : "permissions.requires.player");
    return NULL;
}

/* A message argument with selectors replaced by names (level 2+, as vanilla):
 * only the name filter applies inside a message; an empty match adds nothing. */
void cmd_expand_message(cmd_ctx *x, const struct cmd_value *v, buf_t *out)
{
    const char *s = x->ps->line + v->start;
    size_t len = v->end - v->start, i = 0;
    while (i < len) {
        if (s[i] == '@' && x->src->level >= 2 && i + 1 < len && strchr("parse", s[i + 1]) &&
            (i + 2 >= len || s[i + 2] == ' ' || s[i + 2] == '[')) {
            size_t end = i;
            struct cmd_selector sel;
            if (cmd_read_selector(s, len, &end, &sel) == 0) {
                struct cmd_targets *tl = &cmd_targets_b;
                tl->n = 0;
                /* An empty match prints nothing in the message; no error either. */
                for (size_t k = 0; k < game.player_count && tl->n < CMD_MAX_TARGETS; k++) {
                    player *p = game.players[k]->player;
                    if (sel.kind == 's' ? game.players[k] != x->src->c : 0) continue;
                    if (sel.has_name && (strcasecmp(p->name, sel.name) == 0) == sel.name_neg)
                        continue;
                    tl->c[tl->n++] = game.players[k];
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

/* --------------------------------------------------------- game profiles */

/* A name from ops.json, whitelist.json or banned-players.json. */
static bool known_profile(const char *name, struct cmd_profile *out)
{
    const struct op_entry *op = ops_find_name(name);
    if (op) {
        *out = (struct cmd_profile){op->uuid, {0}, NULL};
        snprintf(out->name, sizeof out->name, "%s", op->name);
        return true;
    }
    static const enum list_kind kinds[] = {LIST_WHITELIST, LIST_BANNED_PLAYERS};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < lists_count(kinds[k]); i++) {
            const struct list_entry *e = lists_get(kinds[k], i);
            if (strcasecmp(e->name, name) != 0) continue;
            *out = (struct cmd_profile){e->uuid, {0}, NULL};
            snprintf(out->name, sizeof out->name, "%s", e->name);
            return true;
        }
    return false;
}

int cmd_resolve_profiles(cmd_ctx *x, bool allow_offline, struct cmd_profile *out, size_t *n,
                         size_t cap)
{
    const struct cmd_value *v = cmd_arg(x->ps, "targets");
    *n = 0;
    if (v->u.sel.kind) {
        struct cmd_targets *tl = &cmd_targets_a;
        if (cmd_resolve(x, &v->u.sel, true, tl) < 0) return -1;
        for (size_t i = 0; i < tl->n && *n < cap; i++) {
            const player *p = tl->c[i]->player;
            out[*n] = (struct cmd_profile){p->uuid, {0}, tl->c[i]};
            snprintf(out[*n].name, sizeof out[*n].name, "%s", p->name);
            (*n)++;
        }
        return 0;
    }
    const char *name = v->u.sel.name;
    conn *c = v->u.sel.type_other ? NULL : cmd_player_by_name(name);
    if (c) {
        out[0] = (struct cmd_profile){c->player->uuid, {0}, c};
        snprintf(out[0].name, sizeof out[0].name, "%s", c->player->name);
        *n = 1;
        return 0;
    }
    /* vanilla: the user cache (every player who joined in the last month),
     * then mcserv also knows the names in its lists */
    if (!v->u.sel.type_other && usercache_find(name, &out[0].uuid, out[0].name)) {
        out[0].c = NULL;
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
        out[0] = (struct cmd_profile){uuid_offline(name, len), {0}, NULL};
        snprintf(out[0].name, sizeof out[0].name, "%s", name);
        *n = 1;
        return 0;
    }
    cmd_failure0(x, "argument.player.unknown");
    return -1;
}

/* ------------------------------------------------ helpers for executors */

const char *const cmd_gamemode_keys[4] = {"gameMode.survival", "gameMode.creative",
                                          "gameMode.adventure", "gameMode.spectator"};

double cmd_wrap_degrees(double d)
{
    d = fmod(d, 360.0);
    if (d >= 180.0) d -= 360.0;
    if (d < -180.0) d += 360.0;
    return d;
}

/* vanilla WorldCoordinates / LocalCoordinates */
void cmd_coords_abs(const struct cmd_source *s, const struct cmd_coords *c, double out[3])
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

int cmd_targets_or_self(cmd_ctx *x, const char *name, bool entity, struct cmd_targets *tl)
{
    if (cmd_arg(x->ps, name)) return cmd_resolve_arg(x, name, tl);
    conn *self = cmd_source_player(x, entity);
    if (!self) return -1;
    tl->c[0] = self;
    tl->n = 1;
    return 0;
}

void cmd_send_text(cmd_ctx *x, const buf_t *text, size_t json_cap)
{
    buf_t j;
    buf_init(&j, json_cap);
    buf_lit(&j, "{\"text\":");
    json_append_string(&j, (const char *)text->data, text->len);
    buf_lit(&j, "}");
    cmd_send_json(x->src, &j, text);
    buf_free(&j);
}

void cmd_send_line(cmd_ctx *x, const char *text)
{
    buf_t t;
    buf_init(&t, 4096);
    buf_append(&t, text, strlen(text));
    cmd_send_text(x, &t, 8192);
    buf_free(&t);
}

void cmd_count_arg(char out[24], size_t n)
{
    snprintf(out, 24, "%zu", n);
}
