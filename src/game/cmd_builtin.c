/*
 * cmd_builtin.c — the built-in commands (docs/commands.md lists them): one
 * executor per executable node of cmd_builtin_tree(), chosen by the node's
 * id (enum cmd_exec) in cmd_builtin_exec.
 *
 * Invariants:
 *  1. An executor takes its arguments from what the parser matched (x->ps),
 *     its targets from cmd_resolve, cmd_resolve_profiles or
 *     cmd_source_player, and reports with cmd_success and cmd_failure under
 *     vanilla 1.20.1's translation keys (mspt's lines are mcserv's own). It
 *     returns 0, or -1 when the command failed (normally after sending the
 *     failure); the caller ignores which.
 *  2. World changes go through their owners (entities.c for teleport, game
 *     mode and death, daytime.c for the clock and the weather, ops.c and
 *     lists.c for operators, the whitelist and bans, store.c for saving), so
 *     clients are told the same way as for any other cause.
 *  3. Kicks go through conn_kick_reason, which may drop the player from
 *     game.players at once: loops over the players that kick walk down and
 *     re-check the count; a connection already closed is skipped (and
 *     conn_kick_reason does nothing to it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/json.h"
#include "core/log.h"
#include "core/tickstat.h"
#include "game/cmd_internal.h"
#include "game/commands.h"
#include "game/daytime.h"
#include "game/entities.h"
#include "game/game.h"
#include "game/lists.h"
#include "game/mobs.h"
#include "game/ops.h"
#include "game/playerdata.h"
#include "proto/packets.h"
#include "world/store.h"

/* ------------------------------------------------------------ formatting */

static void fmt_double(char *out, size_t cap, double d)
{
    snprintf(out, cap, "%f", d); /* Java String.format(Locale.ROOT, "%f") */
}

/* ======================================================== the executors */

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
            cmd_send_text(x, &line, 16384);
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
        cmd_failure0(x, "commands.help.failed");
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
        cmd_send_text(x, &line, 16384);
    }
    buf_free(&line);
    return 0;
}

static int ex_list(cmd_ctx *x)
{
    bool uuids = x->ps->exec->exec == X_LIST_UUIDS;
    buf_t j, plain;
    buf_init(&j, 1u << 20);
    buf_init(&plain, 1u << 20);
    buf_lit(&j, "{\"text\":\"\",\"extra\":[");
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
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
    if (!game.player_count) {
        buf_reset(&j);
        buf_lit(&j, "{\"text\":\"\"}");
    }
    char count[24], max[24];
    snprintf(count, sizeof count, "%zu", game.player_count);
    snprintf(max, sizeof max, "%d", srv->cfg.max_players);
    buf_append(&plain, "", 1);
    chat_arg a[3] = {chat_text(count),
                     chat_text(max),
                     {CA_JSON, (const char *)j.data, j.len, (const char *)plain.data, NULL}};
    if (!j.failed && !plain.failed) cmd_success(x, false, "commands.list.players", a, 3);
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
    cmd_expand_message(x, v, &msg);
    buf_lit(&j, "{\"translate\":\"");
    buf_append(&j, key, strlen(key));
    buf_lit(&j, "\",\"with\":[");
    cmd_source_name_json(&j, x->src);
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
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    buf_t msg, j;
    buf_init(&msg, 64u << 10);
    buf_init(&j, 128u << 10);
    cmd_expand_message(x, cmd_arg(x->ps, "message"), &msg);
    for (size_t i = 0; i < tl->n; i++) {
        conn *t = tl->c[i];
        if (t->closed) continue;
        /* to the target: "<source> whispers to you: msg" */
        buf_reset(&j);
        buf_lit(&j, "{\"italic\":true,\"color\":\"gray\",\"translate\":"
                    "\"commands.message.display.incoming\",\"with\":[");
        cmd_source_name_json(&j, x->src);
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
        cmd_send_json(x->src, &j, &plain);
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
    *pitch = (float)cmd_wrap_degrees(-(atan2(dy, h) * 180.0 / M_PI));
    *yaw = (float)cmd_wrap_degrees(atan2(dz, dx) * 180.0 / M_PI - 90.0);
}

static int ex_tp(cmd_ctx *x)
{
    const struct cmd_value *loc = cmd_arg(x->ps, "location");
    const struct cmd_value *dest = cmd_arg(x->ps, "destination");
    struct cmd_targets *tl = &cmd_targets_a, *dl = &cmd_targets_b;
    if (cmd_targets_or_self(x, "targets", true, tl) < 0) return -1;
    if (dest) {
        if (cmd_resolve(x, &dest->u.sel, false, dl) < 0) return -1;
        const player *d = dl->c[0]->player;
        double dx = d->x, dy = d->y, dz = d->z;
        float dyaw = d->yaw, dpitch = d->pitch;
        for (size_t i = 0; i < tl->n; i++)
            if (!tl->c[i]->closed) ent_teleport(tl->c[i], dx, dy, dz, dyaw, dpitch);
        if (tl->n == 1) {
            chat_arg a[2] = {chat_player(tl->c[0]->player), chat_player(d)};
            cmd_success(x, true, "commands.teleport.success.entity.single", a, 2);
        } else {
            char n[24];
            snprintf(n, sizeof n, "%zu", tl->n);
            chat_arg a[2] = {chat_text(n), chat_player(d)};
            cmd_success(x, true, "commands.teleport.success.entity.multiple", a, 2);
        }
        return 0;
    }
    double pos[3];
    cmd_coords_abs(x->src, &loc->u.pos, pos);
    if (!in_world_bounds(pos[0], pos[1], pos[2])) {
        cmd_failure0(x, "commands.teleport.invalidPosition");
        return -1;
    }
    const struct cmd_value *rot = cmd_arg(x->ps, "rotation");
    const struct cmd_value *fent = cmd_arg(x->ps, "facingEntity");
    const struct cmd_value *floc = cmd_arg(x->ps, "facingLocation");
    const struct cmd_value *fanc = cmd_arg(x->ps, "facingAnchor");
    double face[3];
    bool facing = false;
    if (fent) {
        struct cmd_targets *fl = &cmd_targets_b;
        if (cmd_resolve(x, &fent->u.sel, false, fl) < 0) return -1;
        const player *f = fl->c[0]->player;
        face[0] = f->x;
        face[1] = f->y + (fanc && fanc->u.anchor == 1 ? 1.62 : 0.0);
        face[2] = f->z;
        facing = true;
    } else if (floc) {
        cmd_coords_abs(x->src, &floc->u.pos, face);
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
            yaw = (float)cmd_wrap_degrees(yaw);
            pitch = (float)cmd_wrap_degrees(pitch);
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
        cmd_success(x, true, "commands.teleport.success.location.single", a, 4);
    } else {
        char n[24];
        snprintf(n, sizeof n, "%zu", tl->n);
        chat_arg a[4] = {chat_text(n), chat_text(sx), chat_text(sy), chat_text(sz)};
        cmd_success(x, true, "commands.teleport.success.location.multiple", a, 4);
    }
    return 0;
}

static int ex_gamemode(cmd_ctx *x)
{
    int gm = cmd_arg(x->ps, "gamemode")->u.gamemode;
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_targets_or_self(x, "target", false, tl) < 0) return -1;
    chat_arg mode = chat_key(cmd_gamemode_keys[gm]);
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        if (c->closed || c->player->gamemode == gm) continue;
        ent_set_gamemode(c, gm);
        log_info("Set %s's game mode to %s", c->player->name, cmd_gamemode_names[gm]);
        if (c == x->src->c) {
            cmd_success(x, true, "commands.gamemode.success.self", &mode, 1);
        } else {
            buf_t j;
            buf_init(&j, 4096);
            chat_tr_json(&j, NULL, "gameMode.changed", &mode, 1);
            if (!j.failed) chat_send(c, (const char *)j.data, j.len);
            buf_free(&j);
            chat_arg a[2] = {chat_player(c->player), mode};
            cmd_success(x, true, "commands.gamemode.success.other", a, 2);
        }
    }
    return 0;
}

static int ex_time(cmd_ctx *x)
{
    int exec = x->ps->exec->exec;
    char v[32];
    if (exec == X_TIME_QUERY) {
        int64_t q;
        if (cmd_has_literal(x->ps, "gametime"))
            q = (int64_t)(game.tick_count % INT32_MAX);
        else if (cmd_has_literal(x->ps, "daytime"))
            q = game.day_time % 24000;
        else
            q = game.day_time / 24000 % INT32_MAX;
        snprintf(v, sizeof v, "%lld", (long long)q);
        chat_arg a = chat_text(v);
        cmd_success(x, false, "commands.time.query", &a, 1);
        return 0;
    }
    int64_t t;
    if (exec == X_TIME_ADD) {
        game.day_time += cmd_arg(x->ps, "time")->u.i;
        t = game.day_time % 24000;
    } else {
        const struct cmd_value *tv = cmd_arg(x->ps, "time");
        t = tv                                   ? tv->u.i
            : cmd_has_literal(x->ps, "noon")     ? 6000
            : cmd_has_literal(x->ps, "night")    ? 13000
            : cmd_has_literal(x->ps, "midnight") ? 18000
                                                 : 1000;
        game.day_time = t; /* vanilla setDayTime(time): the day count restarts */
    }
    daytime_broadcast();
    snprintf(v, sizeof v, "%lld", (long long)t);
    chat_arg a = chat_text(v);
    cmd_success(x, true, "commands.time.set", &a, 1);
    return 0;
}

static int ex_weather(cmd_ctx *x)
{
    const struct cmd_value *d = cmd_arg(x->ps, "duration");
    int duration = d ? d->u.i : 0;
    if (cmd_has_literal(x->ps, "clear")) {
        daytime_set_weather(false, false, 0);
        cmd_success(x, true, "commands.weather.set.clear", NULL, 0);
    } else if (cmd_has_literal(x->ps, "rain")) {
        daytime_set_weather(true, false, duration);
        cmd_success(x, true, "commands.weather.set.rain", NULL, 0);
    } else {
        daytime_set_weather(true, true, duration);
        cmd_success(x, true, "commands.weather.set.thunder", NULL, 0);
    }
    return 0;
}

static int ex_kill(cmd_ctx *x)
{
    static int32_t mobs[MOBS_MAX];
    struct cmd_targets *tl = &cmd_targets_a;
    const struct cmd_value *tv = cmd_arg(x->ps, "targets");
    size_t nm = 0;
    if (tv && tv->u.sel.kind == 'e' && !tv->u.sel.type_player) { /* issue 15: mobs too */
        int err;
        nm = cmd_mobs_select(x, tv, mobs, MOBS_MAX, &err);
        if (err < 0) return -1;
        cmd_select(x->src, &tv->u.sel, tl);
        if (tv->u.sel.limit > 0 && tl->n + nm > (size_t)tv->u.sel.limit)
            nm = tl->n >= (size_t)tv->u.sel.limit ? 0 : (size_t)tv->u.sel.limit - tl->n;
        if (tl->n + nm == 0) {
            cmd_failure0(x, "argument.entity.notfound.entity");
            return -1;
        }
    } else if (cmd_targets_or_self(x, "targets", true, tl) < 0) {
        return -1;
    }
    char shown[MOB_NAME_MAX];
    if (nm) mobs_display_name(mobs[0], shown, sizeof shown);
    for (size_t i = 0; i < tl->n; i++)
        if (!tl->c[i]->closed) ent_kill(tl->c[i]);
    for (size_t i = 0; i < nm; i++) mobs_kill(mobs[i]);
    if (tl->n + nm == 1) {
        chat_arg a = tl->n ? chat_player(tl->c[0]->player) : chat_text(shown);
        cmd_success(x, true, "commands.kill.success.single", &a, 1);
    } else {
        char n[24];
        snprintf(n, sizeof n, "%zu", tl->n + nm);
        chat_arg a = chat_text(n);
        cmd_success(x, true, "commands.kill.success.multiple", &a, 1);
    }
    return 0;
}

static int ex_setworldspawn(cmd_ctx *x)
{
    const struct cmd_value *pv = cmd_arg(x->ps, "pos");
    const struct cmd_value *av = cmd_arg(x->ps, "angle");
    double pos[3] = {x->src->x, x->src->y, x->src->z};
    if (pv) cmd_coords_abs(x->src, &pv->u.pos, pos);
    int32_t bx = (int32_t)floor(pos[0]), by = (int32_t)floor(pos[1]), bz = (int32_t)floor(pos[2]);
    if (!in_world_bounds(bx, by, bz)) {
        cmd_failure0(x, "argument.pos.outofworld");
        return -1;
    }
    float angle = 0;
    if (av) {
        double a = av->u.pos.v[0];
        if (av->u.pos.rel) a += x->src->yaw;
        angle = (float)cmd_wrap_degrees(a);
    }
    game.spawn_x = bx + 0.5;
    game.spawn_y = by;
    game.spawn_z = bz + 0.5;
    game.spawn_angle = angle;
    buf_reset(&srv->pkt);
    pkt_cb_spawn_position(&srv->pkt, bx, by, bz, angle);
    chat_broadcast_pkt(NULL);
    char sx[16], sy[16], sz[16], sa[32];
    snprintf(sx, sizeof sx, "%d", bx);
    snprintf(sy, sizeof sy, "%d", by);
    snprintf(sz, sizeof sz, "%d", bz);
    cmd_java_number(sa, sizeof sa, angle, true);
    chat_arg a[4] = {chat_text(sx), chat_text(sy), chat_text(sz), chat_text(sa)};
    cmd_success(x, true, "commands.setworldspawn.success", a, 4);
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
    if (!j.failed) cmd_success(x, false, "commands.seed.success", &a, 1);
    buf_free(&j);
    return 0;
}

static int ex_kick(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    buf_t reason;
    buf_init(&reason, 64u << 10);
    const struct cmd_value *rv = cmd_arg(x->ps, "reason");
    if (rv)
        cmd_expand_message(x, rv, &reason);
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
        cmd_success(x, true, "commands.kick.success", a, 2);
        conn_kick_reason(c, KR_KICKED, NULL, why);
    }
    buf_free(&reason);
    return 0;
}

static int ex_op(cmd_ctx *x)
{
    bool deop = x->ps->exec->exec == X_DEOP;
    static struct cmd_profile prof[CMD_MAX_TARGETS];
    size_t n;
    if (cmd_resolve_profiles(x, !deop, prof, &n, CMD_MAX_TARGETS) < 0) return -1;
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        int r = deop ? ops_remove(&prof[i].uuid)
                     : ops_add(&prof[i].uuid, prof[i].name, srv->cfg.op_permission_level);
        if (r <= 0) continue;
        changed++;
        chat_arg a = chat_text(prof[i].name);
        cmd_success(x, true, deop ? "commands.deop.success" : "commands.op.success", &a, 1);
        conn *c = prof[i].c ? prof[i].c : cmd_player_by_name(prof[i].name);
        if (c && !c->closed && memcmp(c->player->uuid.b, prof[i].uuid.b, 16) == 0)
            cmd_refresh_permissions(c);
    }
    if (!changed) {
        cmd_failure0(x, deop ? "commands.deop.failed" : "commands.op.failed");
        return -1;
    }
    return 0;
}

/* mcserv's own failure line (no vanilla key says what was not saved): red text. */
static void send_red(struct cmd_source *s, const char *text)
{
    buf_t j, plain;
    buf_init(&j, 4096);
    buf_init(&plain, 4096);
    buf_lit(&j, "{\"color\":\"red\",\"text\":");
    json_append_string(&j, text, strlen(text));
    buf_lit(&j, "}");
    buf_append(&plain, text, strlen(text));
    cmd_send_json(s, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

/* What the last attempts could not save: player files not on disk yet
 * (playerdata.h), the last round's chunks and level.dat. false: nothing. */
static bool save_failures_known(char *out, size_t cap)
{
    struct store_report k = {0};
    const struct store_report *last = store_last_report();
    if (store_report_failed(last)) {
        k.failed_chunks = last->failed_chunks;
        k.failed_level = last->failed_level;
        k.err = last->err;
    }
    int err = 0;
    k.failed_players = playerdata_unsaved(&err);
    if (!k.err) k.err = err;
    if (!store_report_failed(&k)) return false;
    store_report_describe(&k, out, cap);
    return true;
}

/* The source learns what is not saved before the final save retries it (its
 * outcome is in the log: the source may be gone by then). */
static int ex_stop(cmd_ctx *x)
{
    cmd_success(x, true, "commands.stop.stopping", NULL, 0);
    char what[200], line[300];
    if (store_active() && save_failures_known(what, sizeof what)) {
        snprintf(line, sizeof line,
                 "Could not save %s at the last attempt; retrying at the final save", what);
        send_red(x->src, line);
    }
    loop_stop(srv->loop);
    return 0;
}

/* A player's save-all is over: vanilla's "Saved the game", or its failure
 * and what could not be saved. Takes ownership of arg (the player's UUID). */
static void save_all_done(void *arg, const struct store_report *r)
{
    mc_uuid *u = arg;
    conn *c = NULL;
    for (size_t i = 0; i < game.player_count && r; i++)
        if (!game.players[i]->closed && memcmp(game.players[i]->player->uuid.b, u->b, 16) == 0)
            c = game.players[i];
    free(u);
    if (!c) return;
    struct cmd_source s;
    cmd_source_from_player(&s, c);
    cmd_ctx x = {&s, NULL};
    if (!store_report_failed(r)) {
        cmd_success(&x, true, "commands.save.success", NULL, 0);
        return;
    }
    cmd_failure0(&x, "commands.save.failed");
    char what[200], line[300];
    store_report_describe(r, what, sizeof what);
    snprintf(line, sizeof line, "Could not save %s; will retry at the next save", what);
    send_red(&s, line);
}

/* An RCON save-all is over: its answer goes out with the outcome (vanilla's
 * "Saved the game", or the failure and what could not be saved). r is NULL
 * at shutdown for a round that never ran: the answer has what it has. */
static void save_all_answer(void *arg, const struct store_report *r)
{
    struct cmd_pending *later = arg;
    if (!r) {
        cmd_pending_finish(later, NULL);
    } else if (!store_report_failed(r)) {
        cmd_pending_finish(later, chat_en("commands.save.success"));
    } else {
        char what[200], line[400];
        store_report_describe(r, what, sizeof what);
        snprintf(line, sizeof line, "%s\nCould not save %s; will retry at the next save",
                 chat_en("commands.save.failed"), what);
        cmd_pending_finish(later, line);
    }
}

/* save-all [flush], save-off, save-on (world/store.h). The console reads the
 * store's own log lines (the round's outcome); a player gets vanilla's
 * messages, the outcome when the round is over; RCON gets "Saving the game",
 * what the last attempts could not save, and the outcome in one answer sent
 * when the round is over (commands.h, cmd_later). */
static int ex_save(cmd_ctx *x)
{
    int exec = x->ps->exec->exec;
    bool player = x->src->c != NULL;
    if (exec == X_SAVE_ALL) {
        bool flush = cmd_has_literal(x->ps, "flush");
        if (player || x->src->capture) cmd_success(x, player, "commands.save.saving", NULL, 0);
        char what[200], line[300];
        if ((player || x->src->capture) && store_active() &&
            save_failures_known(what, sizeof what)) {
            snprintf(line, sizeof line, "Could not save %s at the last attempt; retrying now",
                     what);
            if (!player) send_red(x->src, line);
        } else {
            line[0] = 0;
        }
        mc_uuid *u = player && store_active() ? malloc(sizeof *u) : NULL;
        if (u) *u = x->src->c->player->uuid;
        /* RCON: the answer waits for the round, as vanilla's does. */
        struct cmd_pending *later = !player && store_active() ? cmd_source_defer(x->src) : NULL;
        if (later) {
            if (!store_save_all_notify(flush, save_all_answer, later))
                cmd_source_undefer(x->src, later);
            return 0;
        }
        if (!store_save_all_notify(flush, u ? save_all_done : NULL, u)) {
            /* Nobody will hear the outcome: say what is known now. */
            free(u);
            if (player && line[0]) send_red(x->src, line);
        }
        return 0;
    }
    bool on = exec == X_SAVE_ON;
    if (store_autosave_enabled() == on) {
        if (player || x->src->capture)
            cmd_failure0(x, on ? "commands.save.alreadyOn" : "commands.save.alreadyOff");
        else
            log_info("%s", on ? "Saving is already turned on" : "Saving is already turned off");
        return -1;
    }
    /* The store logs the change itself: RCON's answer is not logged again. */
    if (player || x->src->capture)
        cmd_success(x, player, on ? "commands.save.enabled" : "commands.save.disabled", NULL, 0);
    store_set_autosave(on);
    return 0;
}

/* ---------------------------------------------------- whitelist and bans */

static int ex_whitelist(cmd_ctx *x)
{
    int exec = x->ps->exec->exec;
    static struct cmd_profile prof[CMD_MAX_TARGETS];
    size_t n;
    switch (exec) {
    case X_WHITELIST_ON:
    case X_WHITELIST_OFF: {
        bool on = exec == X_WHITELIST_ON;
        if (lists_whitelist_enabled() == on) {
            cmd_failure0(x, on ? "commands.whitelist.alreadyOn" : "commands.whitelist.alreadyOff");
            return -1;
        }
        lists_whitelist_set_enabled(on);
        cmd_success(x, true, on ? "commands.whitelist.enabled" : "commands.whitelist.disabled",
                    NULL, 0);
        lists_kick_unlisted();
        return 0;
    }
    case X_WHITELIST_LIST: {
        size_t count = lists_count(LIST_WHITELIST);
        if (!count) {
            cmd_success(x, false, "commands.whitelist.none", NULL, 0);
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
        if (!names.failed) cmd_success(x, false, "commands.whitelist.list", a, 2);
        buf_free(&names);
        return 0;
    }
    case X_WHITELIST_ADD:
    case X_WHITELIST_REMOVE: {
        bool add = exec == X_WHITELIST_ADD;
        if (cmd_resolve_profiles(x, true, prof, &n, CMD_MAX_TARGETS) < 0) return -1;
        int changed = 0;
        for (size_t i = 0; i < n; i++) {
            int r = add ? lists_whitelist_add(&prof[i].uuid, prof[i].name)
                        : lists_whitelist_remove(&prof[i].uuid);
            if (r <= 0) continue;
            changed++;
            chat_arg a = chat_text(prof[i].name);
            cmd_success(x, true,
                        add ? "commands.whitelist.add.success"
                            : "commands.whitelist.remove.success",
                        &a, 1);
        }
        if (!changed) {
            cmd_failure0(x, add ? "commands.whitelist.add.failed"
                                : "commands.whitelist.remove.failed");
            return -1;
        }
        if (!add) lists_kick_unlisted();
        return 0;
    }
    case X_WHITELIST_RELOAD:
        /* Read on a worker; the unlisted are kicked once the new list is in. */
        lists_whitelist_reload(lists_kick_unlisted);
        cmd_success(x, true, "commands.whitelist.reloaded", NULL, 0);
        return 0;
    }
    return -1;
}

/* The reason argument (selectors expanded at level 2+), or NULL. */
static const char *reason_arg(cmd_ctx *x, buf_t *b)
{
    const struct cmd_value *rv = cmd_arg(x->ps, "reason");
    if (!rv) return NULL;
    cmd_expand_message(x, rv, b);
    buf_append(b, "", 1);
    return b->failed ? NULL : (const char *)b->data;
}

static int ex_ban(cmd_ctx *x)
{
    static struct cmd_profile prof[CMD_MAX_TARGETS];
    size_t n;
    if (cmd_resolve_profiles(x, true, prof, &n, CMD_MAX_TARGETS) < 0) return -1;
    buf_t rb;
    buf_init(&rb, LIST_REASON_MAX * 4);
    const char *reason = reason_arg(x, &rb);
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        if (lists_ban(&prof[i].uuid, prof[i].name, x->src->name, reason) <= 0) continue;
        changed++;
        const struct list_entry *e = lists_banned(&prof[i].uuid);
        chat_arg a[2] = {chat_text(prof[i].name), chat_text(e ? e->reason : LIST_DEFAULT_WHY)};
        cmd_success(x, true, "commands.ban.success", a, 2);
        for (size_t k = game.player_count; k-- > 0;) {
            if (k >= game.player_count) continue;
            conn *c = game.players[k];
            if (memcmp(c->player->uuid.b, prof[i].uuid.b, 16) == 0) lists_kick_banned(c);
        }
    }
    buf_free(&rb);
    if (!changed) {
        cmd_failure0(x, "commands.ban.failed");
        return -1;
    }
    return 0;
}

/* The <target> word of ban-ip and pardon-ip into target (cut to 127
 * bytes; *len is its whole length), and its normalized address into ip:
 * 0, or -1 if it is no address. */
static int target_ip(cmd_ctx *x, char target[128], char ip[LIST_IP_MAX], size_t *len)
{
    const struct cmd_value *tv = cmd_arg(x->ps, "target");
    *len = tv->end - tv->start;
    snprintf(target, 128, "%.*s", (int)(*len < 127 ? *len : 127), x->ps->line + tv->start);
    return lists_normalize_ip(target, ip);
}

static int ex_ban_ip(cmd_ctx *x)
{
    char target[128], ip[LIST_IP_MAX];
    size_t tlen;
    if (target_ip(x, target, ip, &tlen) < 0) {
        conn *c = tlen <= 16 ? cmd_player_by_name(target) : NULL;
        if (!c || lists_normalize_ip(c->ip, ip) < 0) {
            cmd_failure0(x, "commands.banip.invalid");
            return -1;
        }
    }
    buf_t rb;
    buf_init(&rb, LIST_REASON_MAX * 4);
    const char *reason = reason_arg(x, &rb);
    int r = lists_ban_ip(ip, x->src->name, reason);
    buf_free(&rb);
    if (r <= 0) {
        cmd_failure0(x, r == 0 ? "commands.banip.failed" : "command.failed");
        return -1;
    }
    const struct list_entry *e = lists_ip_banned(ip);
    chat_arg a[2] = {chat_text(ip), chat_text(e ? e->reason : LIST_DEFAULT_WHY)};
    cmd_success(x, true, "commands.banip.success", a, 2);
    struct cmd_targets *tl = &cmd_targets_a;
    tl->n = 0;
    for (size_t i = 0; i < game.player_count && tl->n < CMD_MAX_TARGETS; i++) {
        char norm[LIST_IP_MAX];
        if (lists_normalize_ip(game.players[i]->ip, norm) == 0 && strcmp(norm, ip) == 0)
            tl->c[tl->n++] = game.players[i];
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
        if (!names.failed) cmd_success(x, true, "commands.banip.info", b, 2);
        buf_free(&names);
        for (size_t i = 0; i < tl->n; i++) lists_kick_ip_banned(tl->c[i]);
    }
    return 0;
}

static int ex_pardon(cmd_ctx *x)
{
    static struct cmd_profile prof[CMD_MAX_TARGETS];
    size_t n;
    if (cmd_resolve_profiles(x, true, prof, &n, CMD_MAX_TARGETS) < 0) return -1;
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        if (lists_pardon(&prof[i].uuid) <= 0) continue;
        changed++;
        chat_arg a = chat_text(prof[i].name);
        cmd_success(x, true, "commands.pardon.success", &a, 1);
    }
    if (!changed) {
        cmd_failure0(x, "commands.pardon.failed");
        return -1;
    }
    return 0;
}

static int ex_pardon_ip(cmd_ctx *x)
{
    char target[128], ip[LIST_IP_MAX];
    size_t tlen;
    if (target_ip(x, target, ip, &tlen) < 0) {
        cmd_failure0(x, "commands.pardonip.invalid");
        return -1;
    }
    if (lists_pardon_ip(ip) <= 0) {
        cmd_failure0(x, "commands.pardonip.failed");
        return -1;
    }
    chat_arg a = chat_text(ip);
    cmd_success(x, true, "commands.pardonip.success", &a, 1);
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
        cmd_success(x, false, "commands.banlist.none", NULL, 0);
        return 0;
    }
    char num[24];
    snprintf(num, sizeof num, "%zu", total);
    chat_arg a = chat_text(num);
    cmd_success(x, false, "commands.banlist.list", &a, 1);
    for (int k = LIST_BANNED_PLAYERS; k <= LIST_BANNED_IPS; k++) {
        if ((k == LIST_BANNED_PLAYERS && !players) || (k == LIST_BANNED_IPS && !ips)) continue;
        for (size_t i = 0; i < lists_count((enum list_kind)k); i++) {
            const struct list_entry *e = lists_get((enum list_kind)k, i);
            if (e->expires.epoch != LIST_FOREVER && e->expires.epoch <= (int64_t)now) continue;
            chat_arg b[3] = {chat_text(k == LIST_BANNED_IPS ? e->ip : e->name),
                             chat_text(e->source), chat_text(e->reason)};
            cmd_success(x, false, "commands.banlist.entry", b, 3);
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
             cpu5, cpu60, game.player_count);
    for (int i = 0; i < 3; i++) {
        buf_t plain;
        buf_init(&plain, 1024);
        buf_append(&plain, lines[i], strlen(lines[i]));
        cmd_send_text(x, &plain, 1024);
        buf_free(&plain);
    }
    return 0;
}

/* =============================================================== dispatch */

static int ex_plugins(cmd_ctx *x)
{
    cmd_plugins_exec(x);
    return 0;
}

/* The executor of each enum cmd_exec; an executor serving several ids
 * (ex_time, ex_save, ...) reads which from x->ps->exec. X_TICK_QUERY and
 * X_HEALTH are cmd_perf_exec's, asked first (cmd_dispatch.c). */
static int (*const executors[X_COUNT])(cmd_ctx *x) = {
    [X_HELP] = ex_help,
    [X_LIST] = ex_list,
    [X_LIST_UUIDS] = ex_list,
    [X_ME] = ex_me,
    [X_MSG] = ex_msg,
    [X_SAY] = ex_say,
    [X_TP] = ex_tp,
    [X_GAMEMODE] = ex_gamemode,
    [X_TIME_SET] = ex_time,
    [X_TIME_ADD] = ex_time,
    [X_TIME_QUERY] = ex_time,
    [X_WEATHER] = ex_weather,
    [X_KILL] = ex_kill,
    [X_SUMMON] = cmd_mobs_summon,
    [X_SUMMON_MANY] = cmd_mobs_summon_many,
    [X_SETWORLDSPAWN] = ex_setworldspawn,
    [X_SEED] = ex_seed,
    [X_KICK] = ex_kick,
    [X_OP] = ex_op,
    [X_DEOP] = ex_op,
    [X_STOP] = ex_stop,
    [X_MSPT] = ex_mspt,
    [X_SAVE_ALL] = ex_save,
    [X_SAVE_OFF] = ex_save,
    [X_SAVE_ON] = ex_save,
    [X_WHITELIST_ON] = ex_whitelist,
    [X_WHITELIST_OFF] = ex_whitelist,
    [X_WHITELIST_LIST] = ex_whitelist,
    [X_WHITELIST_ADD] = ex_whitelist,
    [X_WHITELIST_REMOVE] = ex_whitelist,
    [X_WHITELIST_RELOAD] = ex_whitelist,
    [X_BAN] = ex_ban,
    [X_BAN_IP] = ex_ban_ip,
    [X_PARDON] = ex_pardon,
    [X_PARDON_IP] = ex_pardon_ip,
    [X_BANLIST] = ex_banlist,
    [X_GAMERULE] = cmd_gamerule,
    [X_DIFFICULTY] = cmd_difficulty,
    [X_DEFAULTGAMEMODE] = cmd_defaultgamemode,
    [X_VERSION] = cmd_version,
    [X_SETBLOCK] = cmd_world_exec,
    [X_FILL] = cmd_world_exec,
    [X_CLONE] = cmd_world_exec,
    [X_FORCELOAD] = cmd_world_exec,
    [X_WORLDBORDER] = cmd_worldborder,
    [X_TELLRAW] = cmd_text_exec,
    [X_TITLE] = cmd_text_exec,
    [X_GIVE] = cmd_player_exec,
    [X_CLEAR] = cmd_player_exec,
    [X_SPAWNPOINT] = cmd_player_exec,
    [X_XP_ADD_POINTS] = cmd_xp_exec,
    [X_XP_ADD_LEVELS] = cmd_xp_exec,
    [X_XP_SET_POINTS] = cmd_xp_exec,
    [X_XP_SET_LEVELS] = cmd_xp_exec,
    [X_XP_QUERY_POINTS] = cmd_xp_exec,
    [X_XP_QUERY_LEVELS] = cmd_xp_exec,
    [X_ENCHANT] = cmd_xp_exec,
    [X_PREGEN_START] = cmd_pregen_start,
    [X_PREGEN_STATUS] = cmd_pregen_status,
    [X_PREGEN_CANCEL] = cmd_pregen_cancel,
    [X_PLUGINS] = ex_plugins,
};

void cmd_builtin_exec(cmd_ctx *x)
{
    int exec = x->ps->exec->exec;
    if (exec > X_NONE && exec < X_COUNT && executors[exec])
        executors[exec](x);
    else
        cmd_failure0(x, "command.failed");
}
