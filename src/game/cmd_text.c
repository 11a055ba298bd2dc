/*
 * cmd_text.c — the commands that show text to players: tellraw (a chat
 * line) and title (title, subtitle, action bar, their times, clear and
 * reset), as vanilla 1.20.1's TellRawCommand and TitleCommand.
 *
 * A text component argument (validated by the parser, game/cmd_args.c) is
 * resolved as vanilla's ComponentUtils.updateForEntity does before it is
 * sent: a "selector" component becomes the names of the players it picks
 * (vanilla's list: ", " in gray between them, or its "separator"); "score"
 * and "nbt" components become empty text (mcserv has no scoreboard and no
 * entity or block data); the rest is sent as written. Resolution recurses
 * through "extra", "with" and show_text hovers, at most COMPONENT_DEPTH deep
 * (vanilla stops at 100).
 *
 * Invariants: one resolution per command (the source, not the target,
 * decides what a selector picks, as in vanilla); the resolved text is at
 * most TEXT_MAX bytes, a larger one is refused.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "game/cmd_internal.h"
#include "proto/packets.h"

#define COMPONENT_DEPTH 100
#define TEXT_MAX        (256u << 10)

static json_t *resolve(cmd_ctx *x, const json_t *j, int depth);

/* SelectorContents.resolve: the names, separated (default ", " in gray). */
static json_t *selector_names(cmd_ctx *x, const json_t *o, int depth)
{
    const char *pattern = json_string_value(json_object_get(o, "selector"));
    struct cmd_selector sel;
    size_t pos = 0;
    struct cmd_targets *tl = &cmd_targets_b;
    tl->n = 0;
    if (cmd_read_selector(pattern, strlen(pattern), &pos, &sel) == 0 && pos == strlen(pattern))
        cmd_select(x->src, &sel, tl);
    json_t *list = json_object();
    json_object_set_new(list, "text", json_string(""));
    if (!tl->n) return list;
    const json_t *sep = json_object_get(o, "separator");
    json_t *separator = sep ? resolve(x, sep, depth + 1) : NULL;
    if (!separator) separator = json_pack("{s:s,s:s}", "color", "gray", "text", ", ");
    json_t *extra = json_array();
    for (size_t i = 0; i < tl->n; i++) {
        if (i) json_array_append(extra, separator);
        json_t *name = json_object();
        json_object_set_new(name, "text", json_string(tl->c[i]->player->name));
        json_object_set_new(name, "insertion", json_string(tl->c[i]->player->name));
        json_array_append_new(extra, name);
    }
    json_decref(separator);
    json_object_set_new(list, "extra", extra);
    return list;
}

static json_t *resolve_array(cmd_ctx *x, const json_t *a, int depth)
{
    json_t *out = json_array();
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v) json_array_append_new(out, resolve(x, v, depth + 1));
    return out;
}

/* ComponentUtils.updateForEntity over one component; a new reference. */
static json_t *resolve(cmd_ctx *x, const json_t *j, int depth)
{
    if (depth > COMPONENT_DEPTH || (!json_is_object(j) && !json_is_array(j)))
        return json_deep_copy(j);
    if (json_is_array(j)) return resolve_array(x, j, depth);
    json_t *out;
    if (json_is_string(json_object_get(j, "selector"))) {
        /* the names, with the component's own style and siblings around them */
        out = json_object();
        json_object_set_new(out, "text", json_string(""));
        json_t *names = selector_names(x, j, depth);
        json_t *extra = json_array();
        json_array_append_new(extra, names);
        json_object_set_new(out, "extra", extra);
    } else {
        out = json_object();
    }
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)j, key, v)
    {
        if (!strcmp(key, "selector") || !strcmp(key, "separator")) continue;
        if (!strcmp(key, "score") || !strcmp(key, "nbt") || !strcmp(key, "block") ||
            !strcmp(key, "entity") || !strcmp(key, "storage") || !strcmp(key, "interpret")) {
            /* no scoreboard, no entity or block data: empty text, as vanilla finds nothing */
            json_object_set_new(out, "text", json_string(""));
            continue;
        }
        if (!strcmp(key, "extra")) {
            json_t *mine = json_object_get(out, "extra");
            json_t *sib = resolve_array(x, v, depth);
            if (mine) {
                json_array_extend(mine, sib);
                json_decref(sib);
            } else {
                json_object_set_new(out, "extra", sib);
            }
        } else if (!strcmp(key, "with") && json_is_array(v)) {
            json_object_set_new(out, key, resolve_array(x, v, depth));
        } else if (!strcmp(key, "hoverEvent") && json_is_object(v)) {
            json_t *h = json_deep_copy(v);
            const char *action = json_string_value(json_object_get(v, "action"));
            const char *field = json_object_get(v, "contents") ? "contents" : "value";
            if (action && !strcmp(action, "show_text") && json_object_get(v, field))
                json_object_set_new(h, field, resolve(x, json_object_get(v, field), depth + 1));
            json_object_set_new(out, key, h);
        } else {
            json_object_set_new(out, key, json_deep_copy(v));
        }
    }
    return out;
}

/* The component argument `name`, resolved, as JSON text (malloc'd); NULL
 * after the failure. */
static char *component_arg(cmd_ctx *x, const char *name, size_t *len)
{
    const struct cmd_value *v = cmd_arg(x->ps, name);
    const char *s = x->ps->line + v->start;
    size_t n = v->end - v->start;
    json_t *j;
    if (n && (s[0] == '{' || s[0] == '[' || s[0] == '"'))
        j = json_loadb(s, n, JSON_DECODE_ANY, NULL);
    else
        j = json_stringn(s, n); /* a bare word: vanilla's lenient reader takes it as text */
    json_t *r = j ? resolve(x, j, 0) : NULL;
    char *text = r ? json_dumps(r, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    json_decref(r);
    if (!text || strlen(text) > TEXT_MAX) {
        free(text);
        cmd_failure0(x, "command.failed");
        return NULL;
    }
    *len = strlen(text);
    return text;
}

/* "<key>.single" with the player, or "<key>.multiple" with the count. */
static void report(cmd_ctx *x, const char *key, const struct cmd_targets *tl)
{
    char k[96], num[24];
    snprintf(k, sizeof k, "%s.%s", key, tl->n == 1 ? "single" : "multiple");
    cmd_count_arg(num, tl->n);
    chat_arg a = tl->n == 1 ? chat_player(tl->c[0]->player) : chat_text(num);
    cmd_success(x, true, k, &a, 1);
}

static int ex_tellraw(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    size_t len;
    char *text = component_arg(x, "message", &len); /* uses cmd_targets_b only */
    if (!text) return -1;
    for (size_t i = 0; i < tl->n; i++)
        if (!tl->c[i]->closed) chat_send(tl->c[i], text, len);
    free(text);
    return 0; /* vanilla says nothing back */
}

static int ex_title(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    const char *what = x->ps->path[2].node->name; /* clear, reset, title, ... */
    char *text = NULL;
    size_t len = 0;
    const char *key;
    buf_reset(&srv->pkt);
    if (!strcmp(what, "clear") || !strcmp(what, "reset")) {
        bool reset = what[0] == 'r';
        pkt_cb_clear_titles(&srv->pkt, reset);
        key = reset ? "commands.title.reset" : "commands.title.cleared";
    } else if (!strcmp(what, "times")) {
        pkt_cb_set_title_time(&srv->pkt, cmd_arg(x->ps, "fadeIn")->u.i, cmd_arg(x->ps, "stay")->u.i,
                              cmd_arg(x->ps, "fadeOut")->u.i);
        key = "commands.title.times";
    } else {
        if (!(text = component_arg(x, "title", &len))) return -1;
        buf_reset(&srv->pkt);
        if (!strcmp(what, "title")) {
            pkt_cb_set_title_text(&srv->pkt, text, len);
            key = "commands.title.show.title";
        } else if (!strcmp(what, "subtitle")) {
            pkt_cb_set_title_subtitle(&srv->pkt, text, len);
            key = "commands.title.show.subtitle";
        } else {
            pkt_cb_action_bar(&srv->pkt, text, len);
            key = "commands.title.show.actionbar";
        }
    }
    const buf_t *f = pkt_frame_shared();
    for (size_t i = 0; f && i < tl->n; i++)
        if (!tl->c[i]->closed) conn_send_raw(tl->c[i], f->data, f->len);
    free(text);
    report(x, key, tl);
    return 0;
}

int cmd_text_exec(cmd_ctx *x)
{
    return x->ps->exec->exec == X_TELLRAW ? ex_tellraw(x) : ex_title(x);
}
