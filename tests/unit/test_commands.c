/*
 * test_commands.c — the command dispatcher's pure core (the Brigadier tree,
 * Declare Commands, the parser) and the multiplayer packet encoders.
 *
 *  - The built-in tree, encoded at levels 4 and 0, is decoded and each of
 *    our commands is compared node by node (kind, name, executable, parser,
 *    properties, suggestions, redirect target, children) with the same
 *    command in vanilla 1.20.1's own Declare Commands captures (an operator's
 *    2.raw and a non-operator's 1.raw in minecraft-packets).
 *  - Parsing: literals vs arguments, redirects, permission filtering, each
 *    argument type (vec3 with ~ and ^, time units, selectors and options,
 *    game modes) and the error vanilla reports, with its cursor.
 *  - Golden bytes: the new pkt_cb_* encoders against vanilla captures.
 *  - usercache.json's text, as vanilla's GameProfileCache writes and reads it.
 *
 * The tree and the parser (game/cmd_parser.c) are pure and part of the
 * shared library, so this test links them as they are, with no server.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/packet_ids.h"
#include "game/cmd_parser.h"
#include "game/usercache.h"
#include "proto/packets.h"
#include "test.h"

/* ------------------------------------------------- Declare Commands decoder */

struct dnode {
    uint8_t flags;
    int children[512];
    int nchildren;
    int redirect;
    char name[64];
    int parser;
    const uint8_t *props;
    size_t props_len;
    char suggest[64];
};

struct dtree {
    struct dnode *n;
    int count, root;
};

static void rd_str(rd_t *r, char *out, size_t cap)
{
    size_t len;
    const char *s = rd_string(r, 32767, &len);
    snprintf(out, cap, "%.*s", (int)len, s ? s : "");
}

/* Decodes a Declare Commands packet (id + payload); -1 on a malformed one. */
static int decode_tree(const uint8_t *p, size_t len, struct dtree *t)
{
    rd_t r = rd_make(p, len);
    if (rd_varint(&r) != PKT_PLAY_CB_DECLARE_COMMANDS) return -1;
    int count = rd_varint(&r);
    if (r.err || count < 1 || count > 5000) return -1;
    t->n = calloc((size_t)count, sizeof *t->n);
    t->count = count;
    for (int i = 0; i < count && !r.err; i++) {
        struct dnode *d = &t->n[i];
        d->flags = rd_u8(&r);
        d->nchildren = rd_varint(&r);
        if (d->nchildren < 0 || d->nchildren > 512) return -1;
        for (int k = 0; k < d->nchildren; k++) d->children[k] = rd_varint(&r);
        d->redirect = (d->flags & 0x08) ? rd_varint(&r) : -1;
        int type = d->flags & 3;
        if (type == 1 || type == 2) rd_str(&r, d->name, sizeof d->name);
        if (type == 2) {
            d->parser = rd_varint(&r);
            size_t start = r.pos;
            switch (d->parser) {
            case 1:   /* float */
            case 2:   /* double */
            case 3:   /* integer */
            case 4: { /* long */
                uint8_t f = rd_u8(&r);
                size_t w = d->parser == 1 || d->parser == 3 ? 4 : 8;
                if (f & 1) rd_skip(&r, w);
                if (f & 2) rd_skip(&r, w);
                break;
            }
            case 5: rd_varint(&r); break; /* string kind */
            case 6:
            case 29: rd_u8(&r); break;  /* entity, score_holder flags */
            case 40: rd_i32(&r); break; /* time: minimum */
            case 41:
            case 42:
            case 43:
            case 44: { /* resource(_or_tag)(_key): registry */
                char tmp[128];
                rd_str(&r, tmp, sizeof tmp);
                break;
            }
            default: break;
            }
            d->props = p + start;
            d->props_len = r.pos - start;
        }
        if (d->flags & 0x10) rd_str(&r, d->suggest, sizeof d->suggest);
    }
    t->root = rd_varint(&r);
    if (r.err || rd_left(&r) != 0) return -1;
    return 0;
}

static int child_named(const struct dtree *t, int node, const char *name)
{
    for (int k = 0; k < t->n[node].nchildren; k++)
        if (strcmp(t->n[t->n[node].children[k]].name, name) == 0) return t->n[node].children[k];
    return -1;
}

/* Same shape: flags, name, parser, properties, suggestions, redirect target, children. */
static bool same_subtree(const struct dtree *a, int x, const struct dtree *b, int y, char *where,
                         size_t cap)
{
    const struct dnode *p = &a->n[x], *q = &b->n[y];
    if (p->flags != q->flags || strcmp(p->name, q->name) != 0 || p->parser != q->parser ||
        p->props_len != q->props_len ||
        (p->props_len && memcmp(p->props, q->props, p->props_len) != 0) ||
        strcmp(p->suggest, q->suggest) != 0 || p->nchildren != q->nchildren) {
        snprintf(where, cap, "node '%s' differs (flags %02x/%02x, parser %d/%d, children %d/%d)",
                 p->name, p->flags, q->flags, p->parser, q->parser, p->nchildren, q->nchildren);
        return false;
    }
    if ((p->redirect >= 0) != (q->redirect >= 0) ||
        (p->redirect >= 0 && strcmp(a->n[p->redirect].name, b->n[q->redirect].name) != 0)) {
        snprintf(where, cap, "node '%s': redirect differs", p->name);
        return false;
    }
    for (int k = 0; k < p->nchildren; k++) {
        int c = p->children[k];
        int d = child_named(b, y, a->n[c].name);
        if (d < 0) {
            snprintf(where, cap, "'%s' has no child '%s' in vanilla", p->name, a->n[c].name);
            return false;
        }
        if (!same_subtree(a, c, b, d, where, cap)) return false;
    }
    return true;
}

static void compare_with_capture(int level, int capture, int want_commands)
{
    size_t vlen;
    unsigned char *vraw =
        test_read_file(test_capture_path("declare_commands", capture, "raw"), &vlen);
    CHECK(vraw != NULL);
    if (!vraw) return;
    buf_t b;
    buf_init(&b, 1u << 20);
    pkt_cb_declare_commands(&b, cmd_builtin_tree(), level);
    CHECK(!b.failed);
    struct dtree ours = {0}, vanilla = {0};
    CHECK_EQ_INT(decode_tree(b.data, b.len, &ours), 0);
    CHECK_EQ_INT(decode_tree(vraw, vlen, &vanilla), 0);
    if (ours.n && vanilla.n) {
        CHECK_EQ_INT(ours.root, 0);
        int compared = 0;
        const struct dnode *root = &ours.n[ours.root];
        for (int k = 0; k < root->nchildren; k++) {
            int c = root->children[k];
            const char *name = ours.n[c].name;
            if (strcmp(name, "mspt") == 0 || strcmp(name, "tps") == 0 ||
                strcmp(name, "health") == 0)
                continue;                                  /* mcserv's own */
            if (strcmp(name, "pregen") == 0) continue;     /* mcserv's own (issue 18) */
            if (strcmp(name, "summonmany") == 0) continue; /* mcserv's own (issue 15) */
            if (strcmp(name, "tick") == 0) continue; /* vanilla 1.20.3's, newer than the capture */
            if (strcmp(name, "version") == 0) continue; /* vanilla 1.21.6's, not in 1.20.1 */
            int v = child_named(&vanilla, vanilla.root, name);
            if (v < 0) {
                test_failures++;
                fprintf(stderr, "    level %d: vanilla has no /%s\n", level, name);
                continue;
            }
            char where[256] = "";
            if (strcmp(name, "gamerule") == 0) {
                /* only the rules mcserv acts on, each exactly as vanilla's */
                for (int k2 = 0; k2 < ours.n[c].nchildren; k2++) {
                    int oc = ours.n[c].children[k2];
                    int vc = child_named(&vanilla, v, ours.n[oc].name);
                    if (vc < 0 || !same_subtree(&ours, oc, &vanilla, vc, where, sizeof where)) {
                        test_failures++;
                        fprintf(stderr, "    /gamerule %s: %s\n", ours.n[oc].name,
                                vc < 0 ? "not a vanilla rule" : where);
                    }
                }
                CHECK(ours.n[c].nchildren >= 9 && ours.n[c].flags == vanilla.n[v].flags);
                compared++;
                continue;
            }
            if (!same_subtree(&ours, c, &vanilla, v, where, sizeof where)) {
                test_failures++;
                fprintf(stderr, "    level %d /%s: %s\n", level, name, where);
            }
            compared++;
        }
        CHECK_EQ_INT(compared, want_commands);
    }
    free(ours.n);
    free(vanilla.n);
    free(vraw);
    buf_free(&b);
}

TEST(commands_tree_matches_vanilla_for_operators)
{
    /* help list me msg tell w say teleport tp gamemode time weather kill
     * setworldspawn seed kick op deop stop save-all save-off save-on
     * whitelist ban ban-ip pardon pardon-ip banlist, and issue 17's
     * gamerule difficulty defaultgamemode setblock fill clone forceload
     * worldborder tellraw title give clear spawnpoint, issue 15's summon,
     * and issue 14's experience xp enchant */
    compare_with_capture(4, 2, 45);
}

TEST(commands_tree_for_everyone_matches_vanilla_non_op_tree)
{
    compare_with_capture(0, 1, 6); /* help list me msg tell w */
}

TEST(commands_tree_filters_by_level)
{
    buf_t b;
    buf_init(&b, 1u << 20);
    for (int level = 0; level <= 4; level++) {
        buf_reset(&b);
        pkt_cb_declare_commands(&b, cmd_builtin_tree(), level);
        struct dtree t = {0};
        CHECK_EQ_INT(decode_tree(b.data, b.len, &t), 0);
        bool has_tp = child_named(&t, t.root, "tp") >= 0;
        bool has_op = child_named(&t, t.root, "op") >= 0;
        bool has_stop = child_named(&t, t.root, "stop") >= 0;
        CHECK(child_named(&t, t.root, "msg") >= 0);
        CHECK_EQ_INT(has_tp, level >= 2);
        CHECK_EQ_INT(has_op, level >= 3);
        CHECK_EQ_INT(has_stop, level >= 4);
        /* redirects point at the right node after filtering */
        int tell = child_named(&t, t.root, "tell");
        CHECK(tell >= 0 && t.n[tell].redirect == child_named(&t, t.root, "msg"));
        CHECK(tell >= 0 && !(t.n[tell].flags & 0x04)); /* msg needs arguments */
        /* tps: an alias the client may run alone (executable + redirect) */
        int tps = child_named(&t, t.root, "tps");
        CHECK_EQ_INT(tps >= 0, level >= 2);
        if (tps >= 0)
            CHECK(t.n[tps].flags == (0x01 | 0x04 | 0x08) &&
                  t.n[tps].redirect == child_named(&t, t.root, "mspt"));
        free(t.n);
    }
    buf_free(&b);
}

TEST(commands_tree_build_rejects_bad_specs)
{
    static cmd_tree t;
    struct cmd_spec bad_redirect[] = {
        {.depth = 0, .kind = CN_LITERAL, .name = "a", .exec = 1, .redirect = "nope"}};
    CHECK_EQ_INT(cmd_tree_build(&t, bad_redirect, 1), -1);
    struct cmd_spec orphan[] = {{.depth = 2, .kind = CN_LITERAL, .name = "a", .exec = 1}};
    CHECK_EQ_INT(cmd_tree_build(&t, orphan, 1), -1);
}

/* ----------------------------------------------------------------- parsing */

static cmd_parse ps;

static int parse(const char *line, int level)
{
    return cmd_parse_line(cmd_builtin_tree(), line, strlen(line), level, &ps);
}

static bool err_is(const char *key, long pos)
{
    bool ok = ps.err_key && strcmp(ps.err_key, key) == 0 && ps.err_pos == pos;
    if (!ok)
        fprintf(stderr, "    got error %s at %ld (wanted %s at %ld)\n",
                ps.err_key ? ps.err_key : "(none)", ps.err_pos, key, pos);
    return ok;
}

TEST(commands_parse_literals_redirects_and_levels)
{
    CHECK_EQ_INT(parse("list", 0), 0);
    CHECK_EQ_INT(ps.exec->exec, X_LIST);
    CHECK_EQ_INT(parse("list uuids", 0), 0);
    CHECK_EQ_INT(ps.exec->exec, X_LIST_UUIDS);
    CHECK_EQ_INT(parse("tell Bob hi there", 0), 0);
    CHECK_EQ_INT(ps.exec->exec, X_MSG);
    const struct cmd_value *m = cmd_arg(&ps, "message");
    CHECK(m && m->end - m->start == 8 && memcmp(ps.line + m->start, "hi there", 8) == 0);
    /* hidden command = unknown command, cursor at the start */
    CHECK_EQ_INT(parse("op Bob", 2), -1);
    CHECK(err_is("command.unknown.command", 0));
    CHECK_EQ_INT(parse("op Bob", 3), 0);
    CHECK_EQ_INT(parse("stop", 3), -1);
    CHECK_EQ_INT(parse("stop", 4), 0);
    /* incomplete: cursor at the end */
    CHECK_EQ_INT(parse("time", 4), -1);
    CHECK(err_is("command.unknown.command", 4));
    /* a word no child takes */
    CHECK_EQ_INT(parse("list foo", 0), -1);
    CHECK(err_is("command.unknown.argument", 5));
    CHECK_EQ_INT(parse("nosuch thing", 4), -1);
    CHECK(err_is("command.unknown.command", 0));
    /* an alias of a command without arguments runs alone (issue 17: "tps"
     * failed with "...tps<--[HERE]"); one of a command that needs arguments
     * does not, and arguments after an alias go to its target */
    CHECK_EQ_INT(parse("tps", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_MSPT);
    CHECK_EQ_INT(parse("tps", 0), -1);
    CHECK(err_is("command.unknown.command", 0));
    CHECK_EQ_INT(parse("tps now", 2), -1);
    CHECK(err_is("command.unknown.argument", 4));
    CHECK_EQ_INT(parse("tell", 0), -1);
    CHECK(err_is("command.unknown.command", 4));
    CHECK_EQ_INT(parse("tp", 2), -1);
    CHECK(err_is("command.unknown.command", 2));
    CHECK_EQ_INT(parse("tp 1 2 3", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_TP);
}

TEST(commands_parse_teleport_forms)
{
    CHECK_EQ_INT(parse("tp 1 2 3", 2), 0);
    const struct cmd_value *v = cmd_arg(&ps, "location");
    CHECK(v && !cmd_arg(&ps, "targets"));
    /* vanilla centres whole x/z numbers: 1 -> 1.5, y stays */
    CHECK(v->u.pos.v[0] == 1.5 && v->u.pos.v[1] == 2 && v->u.pos.v[2] == 3.5 && !v->u.pos.rel);
    CHECK_EQ_INT(parse("tp ~ ~1.5 ~-2", 2), 0);
    v = cmd_arg(&ps, "location");
    CHECK(v->u.pos.rel == 7 && v->u.pos.v[1] == 1.5 && v->u.pos.v[2] == -2);
    CHECK_EQ_INT(parse("tp ^ ^ ^5", 2), 0);
    CHECK(cmd_arg(&ps, "location")->u.pos.local);
    CHECK_EQ_INT(parse("tp Bob", 2), 0);
    CHECK(cmd_arg(&ps, "destination") && !cmd_arg(&ps, "targets"));
    CHECK_EQ_INT(parse("tp Alice Bob", 2), 0);
    CHECK(cmd_arg(&ps, "targets") && cmd_arg(&ps, "destination"));
    CHECK_EQ_INT(parse("tp @a 0 64 0 90 ~", 2), 0);
    CHECK(cmd_arg(&ps, "rotation") && cmd_arg(&ps, "rotation")->u.pos.rel == 2);
    CHECK_EQ_INT(parse("tp @s 0 64 0 facing entity Bob eyes", 2), 0);
    CHECK(cmd_arg(&ps, "facingAnchor")->u.anchor == 1);
    CHECK_EQ_INT(parse("tp @s 0 64 0 facing 1 2 3", 2), 0);
    CHECK(cmd_arg(&ps, "facingLocation") != NULL);
    /* mixing world and local coordinates fails <location>; as in Brigadier the
     * result that parsed something (<destination> "1") wins over errors */
    CHECK_EQ_INT(parse("tp 1 ~2 ^3", 2), -1);
    CHECK(err_is("command.unknown.argument", 5));
    CHECK_EQ_INT(parse("setworldspawn ~1 ^2 3", 2), -1); /* <pos> is the only child */
    CHECK(err_is("argument.pos.mixed", 17));
    /* one destination only; Brigadier prefers the incomplete <targets> parse */
    CHECK_EQ_INT(parse("tp @a", 2), -1);
    CHECK(err_is("command.unknown.command", 5));
    CHECK_EQ_INT(parse("teleport @a", 2), -1);
    CHECK(err_is("command.unknown.command", 11));
    CHECK_EQ_INT(parse("kill @s @a", 2), -1);
    CHECK(err_is("command.unknown.argument", 8));
}

TEST(commands_parse_time_units_and_limits)
{
    struct {
        const char *line;
        int ticks;
    } ok[] = {{"time set 1d", 24000}, {"time set 0.5d", 12000},  {"time set 2s", 40},
              {"time set 7t", 7},     {"time set 13000", 13000}, {"time add 1.5", 2}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_EQ_INT(parse(ok[i].line, 2), 0);
        const struct cmd_value *v = cmd_arg(&ps, "time");
        CHECK(v != NULL);
        if (v) CHECK_EQ_INT(v->u.i, ok[i].ticks);
    }
    CHECK_EQ_INT(parse("time set night", 2), 0);
    CHECK(cmd_has_literal(&ps, "night") && ps.exec->exec == X_TIME_SET);
    CHECK_EQ_INT(parse("time set -1", 2), -1);
    CHECK(err_is("argument.time.tick_count_too_low", -1)); /* vanilla: no context line */
    CHECK_EQ_INT(ps.err_nargs, 2);
    CHECK(strcmp(ps.err_arg[0], "0") == 0 && strcmp(ps.err_arg[1], "-1") == 0);
    CHECK_EQ_INT(parse("time set 5x", 2), -1);
    CHECK(err_is("argument.time.invalid_unit", -1));
    CHECK_EQ_INT(parse("time set abc", 2), -1);
    CHECK(err_is("parsing.float.expected", 9));
    CHECK_EQ_INT(parse("weather rain 0", 2), -1); /* duration minimum 1 */
    CHECK(err_is("argument.time.tick_count_too_low", -1));
    CHECK_EQ_INT(parse("weather rain 10s", 2), 0);
    CHECK_EQ_INT(cmd_arg(&ps, "duration")->u.i, 200);
}

TEST(commands_parse_selectors)
{
    CHECK_EQ_INT(parse("kill @e[limit=2,distance=..5,sort=nearest]", 2), 0);
    const struct cmd_selector *s = &cmd_arg(&ps, "targets")->u.sel;
    CHECK(s->kind == 'e' && s->limit == 2 && s->has_dist && s->dmax == 5 && s->sort == 1);
    CHECK_EQ_INT(parse("kill @a[name=!Bob,gamemode=creative]", 2), 0);
    s = &cmd_arg(&ps, "targets")->u.sel;
    CHECK(s->has_name && s->name_neg && strcmp(s->name, "Bob") == 0 && s->gamemode == 1);
    CHECK_EQ_INT(parse("kill @a[name=\"quoted name\"]", 2), 0);
    CHECK_EQ_INT(parse("kill @x", 2), -1);
    CHECK(err_is("argument.entity.selector.unknown", 6));
    CHECK_EQ_INT(parse("kill @a[color=red]", 2), -1);
    CHECK(err_is("argument.entity.options.unknown", 8));
    CHECK_EQ_INT(parse("kill @a[limit=0]", 2), -1);
    CHECK(err_is("argument.entity.options.limit.toosmall", 14));
    CHECK_EQ_INT(parse("kill @a[limit=1", 2), -1);
    CHECK(err_is("argument.entity.options.unterminated", 15));
    /* players only: @e is refused unless it is limited to players */
    CHECK_EQ_INT(parse("msg @e hi", 0), -1);
    CHECK(err_is("argument.player.entities", 0));
    CHECK_EQ_INT(parse("msg @e[type=player] hi", 0), 0);
    /* a UUID may name any entity: refused where only players are allowed (vanilla) */
    CHECK_EQ_INT(parse("msg 069a79f4-44e9-4726-a5be-fca90e38aaf5 hi", 0), -1);
    CHECK(err_is("argument.player.entities", 0));
    CHECK_EQ_INT(parse("kill 069a79f4-44e9-4726-a5be-fca90e38aaf5", 2), 0);
    CHECK_EQ_INT(cmd_arg(&ps, "targets")->u.sel.kind, 'u');
    /* one entity only: a tree where nothing else can take the word */
    static cmd_tree one;
    static const struct cmd_spec spec[] = {
        {.depth = 0, .kind = CN_LITERAL, .name = "look"},
        {.depth = 1,
         .kind = CN_ARGUMENT,
         .name = "at",
         .parser = CP_ENTITY,
         .prop = CMD_ENTITY_SINGLE,
         .exec = X_TP},
    };
    CHECK_EQ_INT(cmd_tree_build(&one, spec, 2), 0);
    CHECK_EQ_INT(cmd_parse_line(&one, "look @a", 7, 0, &ps), -1);
    CHECK(err_is("argument.entity.toomany", 0));
    CHECK_EQ_INT(cmd_parse_line(&one, "look @a[limit=1]", 16, 0, &ps), 0);
    CHECK_EQ_INT(cmd_parse_line(&one, "look @e[limit=2]", 16, 0, &ps), -1);
    CHECK(err_is("argument.entity.toomany", 0));
    CHECK_EQ_INT(parse("msg ThisNameIsFarTooLong hi", 0), -1);
    CHECK(err_is("argument.entity.invalid", 4));
}

TEST(commands_parse_other_arguments)
{
    CHECK_EQ_INT(parse("gamemode spectator @p", 2), 0);
    CHECK_EQ_INT(cmd_arg(&ps, "gamemode")->u.gamemode, 3);
    CHECK_EQ_INT(parse("gamemode 1", 2), -1); /* 1.20.1 takes names only */
    CHECK(err_is("argument.gamemode.invalid", 10));
    CHECK_EQ_INT(parse("setworldspawn ~ ~ ~ 90", 2), 0);
    CHECK(cmd_arg(&ps, "pos")->u.pos.rel == 7 && cmd_arg(&ps, "angle")->u.pos.v[0] == 90);
    CHECK_EQ_INT(parse("setworldspawn 1 2", 2), -1);
    CHECK(err_is("argument.pos3d.incomplete", 14));
    CHECK_EQ_INT(parse("setworldspawn 1.5 2 3", 2), -1); /* block positions are integers */
    CHECK(err_is("parsing.int.invalid", 14));
    CHECK_EQ_INT(parse("help time set", 0), 0);
    CHECK_EQ_INT(parse("op @a", 3), 0);
    CHECK_EQ_INT(parse("op @e", 3), -1);
    CHECK(err_is("argument.player.entities", -1));
    CHECK_EQ_INT(parse("kick Bob Go away now", 3), 0);
    CHECK(cmd_arg(&ps, "reason") != NULL);
    CHECK_EQ_INT(parse("me waves", 0), 0);
    /* Brigadier keeps the error-free partial parse (<destination> @s) over the
     * deeper one that failed, so vanilla points at the second word too */
    CHECK_EQ_INT(parse("tp @s 0 64 0 facing entity Bob eyes2", 2), -1);
    CHECK(err_is("command.unknown.argument", 6));
}

TEST(commands_parse_is_bounded)
{
    static char line[CMD_MAX_LEN + 64];
    memset(line, 'a', sizeof line - 1);
    line[sizeof line - 1] = 0;
    CHECK_EQ_INT(parse(line, 4), -1);
    /* deep but legal */
    CHECK_EQ_INT(parse("tp @s ~ ~ ~ facing entity @p feet", 4), 0);
}

TEST(commands_smart_usage_like_brigadier)
{
    const cmd_tree *t = cmd_builtin_tree();
    struct {
        const char *cmd, *usage;
    } want[] = {
        {"gamemode", "gamemode <gamemode> [<target>]"},
        {"time", "time (set|add|query)"},
        {"msg", "msg <targets> <message>"},
        {"tell", "tell -> msg"},
        {"kill", "kill [<targets>]"},
        {"list", "list [uuids]"},
        {"teleport", "teleport (<location>|<destination>|<targets>)"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int node = -1;
        for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling)
            if (strcmp(t->n[c].name, want[i].cmd) == 0) node = c;
        CHECK(node > 0);
        buf_t b;
        buf_init(&b, 4096);
        cmd_usage(&b, t, node, 4);
        bool ok = b.len == strlen(want[i].usage) && memcmp(b.data, want[i].usage, b.len) == 0;
        if (!ok)
            fprintf(stderr, "    usage '%.*s', want '%s'\n", (int)b.len, b.data, want[i].usage);
        CHECK(ok);
        buf_free(&b);
    }
}

/* ------------------------------------------------------------ golden bytes */

static json_t *capture_json(const char *packet, int n)
{
    json_error_t e;
    return json_load_file(test_capture_path(packet, n, "json"), 0, &e);
}

static bool matches_capture(const char *packet, int n, const buf_t *b)
{
    size_t len;
    unsigned char *raw = test_read_file(test_capture_path(packet, n, "raw"), &len);
    bool ok = raw && !b->failed && len == b->len && memcmp(raw, b->data, len) == 0;
    if (!ok) {
        fprintf(stderr, "    %s/%d differs:", packet, n);
        test_mem_eq(__FILE__, __LINE__, b->data, b->len, raw, raw ? len : 0);
    }
    free(raw);
    return ok;
}

static mc_uuid juuid(const json_t *o, const char *key)
{
    mc_uuid u = {{0}};
    const char *s = json_string_value(json_object_get(o, key));
    if (s) uuid_parse(s, strlen(s), &u);
    return u;
}

static int64_t ji(const json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

static double jd(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* minecraft-packets writes i64 as [high, low] */
static int64_t jlong(const json_t *o, const char *key)
{
    const json_t *a = json_object_get(o, key);
    if (json_is_integer(a)) return json_integer_value(a);
    uint64_t hi = (uint32_t)json_integer_value(json_array_get(a, 0));
    uint64_t lo = (uint32_t)json_integer_value(json_array_get(a, 1));
    return (int64_t)(hi << 32 | lo);
}

TEST(golden_entity_movement_packets)
{
    buf_t b;
    buf_init(&b, 1u << 16);
    json_t *j = capture_json("named_entity_spawn", 1);
    CHECK(j != NULL);
    if (j) {
        mc_uuid u = juuid(j, "playerUUID");
        buf_reset(&b);
        pkt_cb_named_entity_spawn(&b, (int32_t)ji(j, "entityId"), &u, jd(j, "x"), jd(j, "y"),
                                  jd(j, "z"), (uint8_t)ji(j, "yaw"), (uint8_t)ji(j, "pitch"));
        CHECK(matches_capture("named_entity_spawn", 1, &b));
        json_decref(j);
    }
    for (int n = 1; n <= 5; n++) {
        if ((j = capture_json("rel_entity_move", n))) {
            buf_reset(&b);
            pkt_cb_rel_entity_move(&b, (int32_t)ji(j, "entityId"), (int16_t)ji(j, "dX"),
                                   (int16_t)ji(j, "dY"), (int16_t)ji(j, "dZ"),
                                   json_is_true(json_object_get(j, "onGround")));
            CHECK(matches_capture("rel_entity_move", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_move_look", n))) {
            buf_reset(&b);
            pkt_cb_entity_move_look(&b, (int32_t)ji(j, "entityId"), (int16_t)ji(j, "dX"),
                                    (int16_t)ji(j, "dY"), (int16_t)ji(j, "dZ"),
                                    (uint8_t)ji(j, "yaw"), (uint8_t)ji(j, "pitch"),
                                    json_is_true(json_object_get(j, "onGround")));
            CHECK(matches_capture("entity_move_look", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_look", n))) {
            buf_reset(&b);
            pkt_cb_entity_look(&b, (int32_t)ji(j, "entityId"), (uint8_t)ji(j, "yaw"),
                               (uint8_t)ji(j, "pitch"),
                               json_is_true(json_object_get(j, "onGround")));
            CHECK(matches_capture("entity_look", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_teleport", n))) {
            buf_reset(&b);
            pkt_cb_entity_teleport(&b, (int32_t)ji(j, "entityId"), jd(j, "x"), jd(j, "y"),
                                   jd(j, "z"), (uint8_t)ji(j, "yaw"), (uint8_t)ji(j, "pitch"),
                                   json_is_true(json_object_get(j, "onGround")));
            CHECK(matches_capture("entity_teleport", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_head_rotation", n))) {
            buf_reset(&b);
            pkt_cb_entity_head_rotation(&b, (int32_t)ji(j, "entityId"), (uint8_t)ji(j, "headYaw"));
            CHECK(matches_capture("entity_head_rotation", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_destroy", n))) {
            int32_t ids[8];
            json_t *a = json_object_get(j, "entityIds");
            size_t k = 0;
            for (; k < json_array_size(a) && k < 8; k++)
                ids[k] = (int32_t)json_integer_value(json_array_get(a, k));
            buf_reset(&b);
            pkt_cb_entity_destroy(&b, ids, k);
            CHECK(matches_capture("entity_destroy", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_status", n))) {
            buf_reset(&b);
            pkt_cb_entity_status(&b, (int32_t)ji(j, "entityId"), (int8_t)ji(j, "entityStatus"));
            CHECK(matches_capture("entity_status", n, &b));
            json_decref(j);
        }
        if ((j = capture_json("entity_metadata", n))) {
            /* the captures hold one float entry (health) */
            json_t *e = json_array_get(json_object_get(j, "metadata"), 0);
            struct pkt_meta m = {
                .index = (uint8_t)ji(e, "key"), .type = PKT_META_FLOAT, .f = (float)jd(e, "value")};
            buf_reset(&b);
            pkt_cb_entity_metadata(&b, (int32_t)ji(j, "entityId"), &m, 1);
            CHECK(matches_capture("entity_metadata", n, &b));
            json_decref(j);
        }
    }
    buf_free(&b);
}

TEST(golden_player_info_respawn_death_completion)
{
    buf_t b;
    buf_init(&b, 1u << 16);
    json_t *j;
    for (int n = 4; n <= 5; n++)
        if ((j = capture_json("player_info", n))) {
            json_t *d = json_array_get(json_object_get(j, "data"), 0);
            struct pkt_player_update u = {juuid(d, "uuid"), (int32_t)ji(d, "gamemode"), true, 0};
            buf_reset(&b);
            pkt_cb_player_info_update(&b, PKT_INFO_GAMEMODE, &u, 1);
            CHECK(matches_capture("player_info", n, &b));
            json_decref(j);
        }
    for (int n = 1; n <= 2; n++)
        if ((j = capture_json("respawn", n))) {
            json_t *death = json_object_get(j, "death");
            json_t *loc = json_object_get(death, "location");
            struct pkt_respawn r = {
                .dimension_type = json_string_value(json_object_get(j, "dimension")),
                .world_name = json_string_value(json_object_get(j, "worldName")),
                .hashed_seed = jlong(j, "hashedSeed"),
                .gamemode = (uint8_t)ji(j, "gamemode"),
                .previous_gamemode = (int8_t)ji(j, "previousGamemode"),
                .is_debug = json_is_true(json_object_get(j, "isDebug")),
                .is_flat = json_is_true(json_object_get(j, "isFlat")),
                .copy_metadata = json_is_true(json_object_get(j, "copyMetadata")),
                .has_death = death != NULL,
                .death_world = json_string_value(json_object_get(death, "dimensionName")),
                .death_x = (int32_t)ji(loc, "x"),
                .death_y = (int32_t)ji(loc, "y"),
                .death_z = (int32_t)ji(loc, "z"),
                .portal_cooldown = (int32_t)ji(j, "portalCooldown"),
            };
            buf_reset(&b);
            pkt_cb_respawn(&b, &r);
            CHECK(matches_capture("respawn", n, &b));
            json_decref(j);
        }
    if ((j = capture_json("death_combat_event", 1))) {
        const char *msg = json_string_value(json_object_get(j, "message"));
        buf_reset(&b);
        pkt_cb_death_combat_event(&b, (int32_t)ji(j, "playerId"), msg, strlen(msg));
        CHECK(matches_capture("death_combat_event", 1, &b));
        json_decref(j);
    }
    if ((j = capture_json("tab_complete", 1))) {
        const char *m[8];
        json_t *a = json_object_get(j, "matches");
        size_t k = 0;
        for (; k < json_array_size(a) && k < 8; k++)
            m[k] = json_string_value(json_object_get(json_array_get(a, k), "match"));
        buf_reset(&b);
        pkt_cb_tab_complete(&b, (int32_t)ji(j, "transactionId"), (int32_t)ji(j, "start"),
                            (int32_t)ji(j, "length"), m, k);
        CHECK(matches_capture("tab_complete", 1, &b));
        json_decref(j);
    }
    buf_free(&b);
}

TEST(encoders_without_capture_decode_as_protocol_json_says)
{
    /* No vanilla captures of these: check the layouts by reading them back. */
    buf_t b;
    buf_init(&b, 4096);
    struct pkt_equipment eq[2] = {{0, 760, 1}, {1, 0, 0}};
    pkt_cb_entity_equipment(&b, 300, eq, 2);
    rd_t r = rd_make(b.data, b.len);
    CHECK_EQ_INT(rd_varint(&r), PKT_PLAY_CB_ENTITY_EQUIPMENT);
    CHECK_EQ_INT(rd_varint(&r), 300);
    CHECK_EQ_INT(rd_u8(&r), 0x80); /* slot 0, more follow */
    CHECK(rd_bool(&r));
    CHECK_EQ_INT(rd_varint(&r), 760);
    CHECK_EQ_INT(rd_u8(&r), 1);
    CHECK_EQ_INT(rd_u8(&r), 0);    /* no NBT */
    CHECK_EQ_INT(rd_u8(&r), 0x01); /* slot 1, last */
    CHECK(!rd_bool(&r));           /* empty */
    CHECK_EQ_INT(rd_left(&r), 0);

    buf_reset(&b);
    struct pkt_meta m[3] = {{.index = 0, .type = PKT_META_BYTE, .i = 0x02},
                            {.index = 6, .type = PKT_META_POSE, .i = 5},
                            {.index = 9, .type = PKT_META_FLOAT, .f = 20.0f}};
    pkt_cb_entity_metadata(&b, 7, m, 3);
    static const uint8_t want[] = {0x52, 7, 0, 0, 0x02, 6, 20, 5, 9, 3, 0x41, 0xa0, 0, 0, 0xff};
    CHECK_MEM(b.data, b.len, want, sizeof want);

    /* issue 21: a sleeping position (Optional<BlockPos>, type 11), then an absent one */
    buf_reset(&b);
    struct pkt_meta sp[2] = {{.index = 14, .type = PKT_META_OPT_POS, .i = 1, .pos = {1, 2, 3}},
                             {.index = 14, .type = PKT_META_OPT_POS, .i = 0}};
    pkt_cb_entity_metadata(&b, 7, sp, 2);
    static const uint8_t want_pos[] = {0x52, 7,    14,   11,   1,  0x00, 0x00, 0x00, 0x40,
                                       0x00, 0x00, 0x30, 0x02, 14, 11,   0,    0xff};
    CHECK_MEM(b.data, b.len, want_pos, sizeof want_pos);

    buf_reset(&b);
    pkt_cb_playerlist_header(&b, "{\"text\":\"a\"}", 12, "{\"text\":\"\"}", 11);
    r = rd_make(b.data, b.len);
    CHECK_EQ_INT(rd_varint(&r), PKT_PLAY_CB_PLAYERLIST_HEADER);
    size_t l1, l2;
    rd_string(&r, 1000, &l1);
    rd_string(&r, 1000, &l2);
    CHECK(l1 == 12 && l2 == 11 && rd_left(&r) == 0);

    buf_reset(&b);
    struct pkt_player_update u = {{{1}}, 0, true, 42};
    pkt_cb_player_info_update(&b, PKT_INFO_LATENCY, &u, 1);
    static const uint8_t lat[] = {0x3a, 0x10, 1, 1, 0, 0, 0, 0, 0, 0,
                                  0,    0,    0, 0, 0, 0, 0, 0, 0, 42};
    CHECK_MEM(b.data, b.len, lat, sizeof lat);
    buf_free(&b);
}

/* ---------------------------------------------------------- usercache.json */

TEST(usercache_file_as_vanilla_writes_it)
{
    const char *tz = getenv("TZ");
    char saved[64] = "";
    if (tz) snprintf(saved, sizeof saved, "%s", tz);
    setenv("TZ", "UTC", 1);
    tzset();
    /* Calendar.add(MONTH, 1): the day stays within the next month */
    int32_t off;
    CHECK_EQ_INT(usercache_month_after(1706702400, &off), 1709208000); /* Jan 31 → Feb 29 2024 */
    CHECK_EQ_INT(off, 0);
    CHECK_EQ_INT(usercache_month_after(1702468800, &off), 1705147200); /* Dec 13 → Jan 13 */
    struct usercache_entry e[2] = {{.name = "Alice", .expires = 1709164800},
                                   {.name = "Bob", .expires = 1705147200, .expires_offset = 3600}};
    uuid_parse("10920508d5d83eed93d292f193afe7d7", 32, &e[0].uuid);
    uuid_parse("00000000000040008000000000000001", 32, &e[1].uuid);
    char *text = usercache_dump(e, 2);
    const char *want = "[{\"name\":\"Alice\",\"uuid\":\"10920508-d5d8-3eed-93d2-92f193afe7d7\","
                       "\"expiresOn\":\"2024-02-29 00:00:00 +0000\"},{\"name\":\"Bob\",\"uuid\":"
                       "\"00000000-0000-4000-8000-000000000001\",\"expiresOn\":\"2024-01-13 "
                       "13:00:00 +0100\"}]";
    CHECK(text && strcmp(text, want) == 0);
    if (text && strcmp(text, want) != 0) fprintf(stderr, "    got %s\n", text);
    /* read back; entries vanilla skips (no date, bad UUID, a second Alice) are skipped */
    struct usercache_entry back[8];
    size_t n = 0;
    char err[128];
    const char *more = "[{\"name\":\"Alice\",\"uuid\":\"10920508-d5d8-3eed-93d2-92f193afe7d7\","
                       "\"expiresOn\":\"2024-02-29 00:00:00 +0000\"},{\"name\":\"Carol\",\"uuid\":"
                       "\"x\",\"expiresOn\":\"2024-02-29 00:00:00 +0000\"},{\"name\":\"Dave\","
                       "\"uuid\":\"00000000-0000-4000-8000-000000000002\"},{\"name\":\"ALICE\","
                       "\"uuid\":\"00000000-0000-4000-8000-000000000003\",\"expiresOn\":"
                       "\"2024-02-29 00:00:00 +0000\"}, 5]";
    CHECK_EQ_INT(usercache_parse(more, strlen(more), back, 8, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK(strcmp(back[0].name, "Alice") == 0 && back[0].expires == 1709164800);
    CHECK_EQ_INT(usercache_parse(text, strlen(text), back, 8, &n, err, sizeof err), 0);
    CHECK(n == 2 && back[1].expires == 1705147200 && back[1].expires_offset == 3600);
    CHECK_EQ_INT(usercache_parse("{}", 2, back, 8, &n, err, sizeof err), -1);
    free(text);
    if (tz)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    tzset();
}

/* ---------------------------------------- issue 17's encoders, golden bytes */

TEST(golden_difficulty_border_title_world_event)
{
    buf_t b;
    buf_init(&b, 4096);
    pkt_cb_difficulty(&b, 2, false);
    CHECK(matches_capture("difficulty", 1, &b));
    buf_reset(&b);
    struct pkt_border w = {0, 0, 59999968, 59999968, 0, 29999984, 5, 15};
    pkt_cb_initialize_world_border(&b, &w);
    CHECK(matches_capture("initialize_world_border", 1, &b));
    buf_reset(&b);
    static const char title[] = "{\"color\":\"dark_red\",\"text\":\"Your Text\"}";
    pkt_cb_set_title_text(&b, title, sizeof title - 1);
    CHECK(matches_capture("set_title_text", 1, &b));
    buf_reset(&b);
    pkt_cb_world_event(&b, 1025, 2, 51, 11, 0, false);
    CHECK(matches_capture("world_event", 1, &b));
    /* a lerp longer than 2^31 ms is a VarLong, as vanilla writes it */
    buf_reset(&b);
    pkt_cb_world_border_lerp_size(&b, 10, 20, 3000000000LL);
    rd_t r = rd_make(b.data, b.len);
    CHECK_EQ_INT(rd_varint(&r), PKT_PLAY_CB_WORLD_BORDER_LERP_SIZE);
    rd_f64(&r);
    rd_f64(&r);
    CHECK_EQ_INT(rd_varlong(&r), 3000000000LL);
    CHECK_EQ_INT(rd_left(&r), 0);
    buf_free(&b);
}

/* ------------------------------------------------- Minecraft's argument types */

static int block_named(const char *name)
{
    for (int i = 0; i < BLOCK_COUNT; i++)
        if (strcmp(block_info[i].name, name) == 0) return i;
    return -1;
}

static bool err_args(const char *a0, const char *a1, const char *a2)
{
    const char *want[3] = {a0, a1, a2};
    int n = a2 ? 3 : a1 ? 2 : a0 ? 1 : 0;
    bool ok = ps.err_nargs == n;
    for (int i = 0; ok && i < n; i++) ok = strcmp(ps.err_arg[i], want[i]) == 0;
    if (!ok)
        fprintf(stderr, "    got %d args: '%s' '%s' '%s'\n", ps.err_nargs, ps.err_arg[0],
                ps.err_arg[1], ps.err_arg[2]);
    return ok;
}

TEST(commands_parse_blocks_as_vanilla)
{
    CHECK_EQ_INT(parse("setblock 1 2 3 stone", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_SETBLOCK);
    CHECK_EQ_INT(cmd_arg(&ps, "block")->u.block.state, BLOCK_STONE);
    int log = block_named("oak_log");
    CHECK(log >= 0);
    /* axis = x, y, z: x is the first state, y the default */
    CHECK_EQ_INT(parse("setblock ~ ~1 ~ minecraft:oak_log[axis=x] keep", 2), 0);
    CHECK_EQ_INT(cmd_arg(&ps, "block")->u.block.state, block_info[log].min_state);
    CHECK(cmd_has_literal(&ps, "keep"));
    CHECK_EQ_INT(parse("setblock 1 2 3 oak_log[ axis = z ]", 2), 0);
    CHECK_EQ_INT(cmd_arg(&ps, "block")->u.block.state, block_info[log].min_state + 2);
    /* vanilla's errors, their arguments and cursors */
    CHECK_EQ_INT(parse("setblock 1 2 3 stonex", 2), -1);
    CHECK(err_is("argument.block.id.invalid", 15) && err_args("minecraft:stonex", NULL, NULL));
    CHECK_EQ_INT(parse("setblock 1 2 3 oak_log[axis=w]", 2), -1);
    CHECK(err_is("argument.block.property.invalid", 28) &&
          err_args("minecraft:oak_log", "w", "axis"));
    CHECK_EQ_INT(parse("setblock 1 2 3 oak_log[size=x]", 2), -1);
    CHECK(err_is("argument.block.property.unknown", 23) &&
          err_args("minecraft:oak_log", "size", NULL));
    CHECK_EQ_INT(parse("setblock 1 2 3 oak_log[axis=x,axis=y]", 2), -1);
    CHECK(err_is("argument.block.property.duplicate", 30) &&
          err_args("axis", "minecraft:oak_log", NULL));
    CHECK_EQ_INT(parse("setblock 1 2 3 oak_log[axis]", 2), -1);
    CHECK(err_is("argument.block.property.novalue", 27) &&
          err_args("minecraft:oak_log", "axis", NULL)); /* vanilla's order */
    CHECK_EQ_INT(parse("setblock 1 2 3 oak_log[axis=x", 2), -1);
    CHECK(err_is("argument.block.property.unclosed", 29));
    CHECK_EQ_INT(parse("setblock 1 2 3 #minecraft:logs", 2), -1);
    CHECK(err_is("argument.block.tag.disallowed", 15));
    CHECK_EQ_INT(parse("setblock 1 2 3 a:b:c", 2), -1);
    CHECK(err_is("argument.id.invalid", 15));
    CHECK_EQ_INT(parse("setblock 1 2 3 chest{Items:[]}", 2), -1);
    CHECK(ps.err_key && strstr(ps.err_key, "not supported") && ps.err_pos == 20);
    /* predicates: tags are known to no one here, properties are partial */
    CHECK_EQ_INT(parse("fill 0 0 0 1 1 1 stone replace #minecraft:logs", 2), -1);
    CHECK(err_is("arguments.block.tag.unknown", 31) && err_args("minecraft:logs", NULL, NULL));
    CHECK_EQ_INT(parse("fill 0 0 0 1 1 1 air replace oak_log[axis=x]", 2), 0);
    const struct cmd_block *f = &cmd_arg(&ps, "filter")->u.block;
    CHECK(cmd_block_matches(f, block_info[log].min_state));
    CHECK(!cmd_block_matches(f, block_info[log].min_state + 1));
    CHECK(!cmd_block_matches(f, BLOCK_STONE));
    CHECK_EQ_INT(parse("fill 0 0 0 1 1 1 air replace oak_log", 2), 0);
    CHECK(cmd_block_matches(&cmd_arg(&ps, "filter")->u.block, block_info[log].min_state + 1));
    /* clone: the dimension forms reach the same executor */
    CHECK_EQ_INT(parse("clone from minecraft:overworld 0 0 0 1 1 1 to overworld 5 5 5 "
                       "filtered stone move",
                       2),
                 0);
    CHECK_EQ_INT(ps.exec->exec, X_CLONE);
    CHECK(cmd_has_literal(&ps, "move") && cmd_has_literal(&ps, "filtered"));
    CHECK_EQ_INT(parse("clone 0 0 0 1 1 1 5 5 5 masked", 2), 0);
}

TEST(commands_numbers_as_java_prints_them)
{
    static const struct {
        double v;
        bool f;
        const char *want;
    } cases[] = {{0, false, "0.0"},
                 {5.9999968e7, false, "5.9999968E7"},
                 {-5.9999968e7, false, "-5.9999968E7"},
                 {0.1, true, "0.1"},
                 {1e7, false, "1.0E7"},
                 {123.456, false, "123.456"},
                 {1e-4, false, "1.0E-4"},
                 {0.001, false, "0.001"},
                 {2.9999984e7, false, "2.9999984E7"},
                 {-1.5, true, "-1.5"},
                 {9999999, false, "9999999.0"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[40];
        cmd_java_number(out, sizeof out, cases[i].v, cases[i].f);
        if (strcmp(out, cases[i].want) != 0) {
            test_failures++;
            fprintf(stderr, "    %g: got %s, wanted %s\n", cases[i].v, out, cases[i].want);
        }
    }
}

TEST(commands_fixed_decimals_as_java_formats_them)
{
    static const struct {
        double v;
        int prec;
        const char *want;
    } cases[] = {
        {0.125, 2, "0.13"},   {2.5, 0, "3"},      {1.005, 2, "1.01"}, {59999968, 1, "59999968.0"},
        {10, 1, "10.0"},      {0, 2, "0.00"},     {0.2, 2, "0.20"},   {-1.5, 0, "-2"},
        {9.99, 1, "10.0"},    {0.004, 2, "0.00"}, {0.005, 2, "0.01"}, {123.456, 0, "123"},
        {-0.001, 2, "-0.00"}, {1e-5, 1, "0.0"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[40];
        cmd_java_fixed(out, sizeof out, cases[i].v, cases[i].prec);
        if (strcmp(out, cases[i].want) != 0) {
            test_failures++;
            fprintf(stderr, "    %g (%d): got %s, wanted %s\n", cases[i].v, cases[i].prec, out,
                    cases[i].want);
        }
    }
}

TEST(commands_parse_text_components)
{
    CHECK_EQ_INT(parse("tellraw @a {\"text\":\"hi\",\"color\":\"red\"}", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_TELLRAW);
    const struct cmd_value *m = cmd_arg(&ps, "message");
    CHECK(m && m->start == 11 && m->end == ps.len);
    CHECK_EQ_INT(parse("tellraw @a \"hello there\"", 2), 0);
    CHECK_EQ_INT(parse("tellraw @a [\"a\",{\"selector\":\"@p\"},5]", 2), 0);
    CHECK_EQ_INT(parse("tellraw @a hello", 2), 0); /* a bare word, as vanilla's lenient reader */
    /* after the component, nothing else is taken */
    CHECK_EQ_INT(parse("tellraw @a {\"text\":\"hi\"} more", 2), -1);
    CHECK(err_is("command.unknown.argument", 25));
    CHECK_EQ_INT(parse("tellraw @a {\"text\":", 2), -1);
    CHECK(ps.err_key && strcmp(ps.err_key, "argument.component.invalid") == 0 && ps.err_pos == 11);
    CHECK_EQ_INT(parse("tellraw @a {\"bold\":true}", 2), -1);
    CHECK(err_is("argument.component.invalid", 11) &&
          err_args("Don't know how to turn {\"bold\":true} into a Component", NULL, NULL));
    CHECK_EQ_INT(parse("tellraw @a []", 2), -1);
    CHECK(err_args("Unexpected empty array of components", NULL, NULL));
    CHECK_EQ_INT(parse("tellraw @a {\"text\":\"a\",\"extra\":[]}", 2), -1);
    CHECK(err_args("Unexpected empty array of components", NULL, NULL));
    CHECK_EQ_INT(parse("tellraw @a null", 2), -1);
    CHECK(err_is("argument.component.invalid", 11) && err_args("empty", NULL, NULL));
    /* title times: vanilla's time arguments (ticks, or with a unit) */
    CHECK_EQ_INT(parse("title @a times 10 2s 5", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_TITLE);
    CHECK(cmd_arg(&ps, "fadeIn")->u.i == 10 && cmd_arg(&ps, "stay")->u.i == 40 &&
          cmd_arg(&ps, "fadeOut")->u.i == 5);
    CHECK_EQ_INT(parse("title @a actionbar {\"text\":\"x\"}", 2), 0);
    CHECK_EQ_INT(parse("title @a times -1 1 1", 2), -1);
    CHECK(err_is("argument.time.tick_count_too_low", -1));
}

TEST(commands_parse_items_as_vanilla)
{
    /* a selector option's bad word is its argument (it was read after the rewind) */
    CHECK_EQ_INT(parse("kill @a[gamemode=bogus]", 2), -1);
    CHECK(err_is("argument.entity.options.mode.invalid", 17) && err_args("bogus", NULL, NULL));
    CHECK_EQ_INT(parse("kill @a[sort=sideways]", 2), -1);
    CHECK(err_is("argument.entity.options.sort.irreversible", 13) &&
          err_args("sideways", NULL, NULL));
    CHECK_EQ_INT(parse("give @a minecraft:diamond 5", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_GIVE);
    CHECK(strcmp(item_info[cmd_arg(&ps, "item")->u.item.item].name, "diamond") == 0);
    CHECK_EQ_INT(cmd_arg(&ps, "count")->u.i, 5);
    CHECK_EQ_INT(parse("give @a diamondx", 2), -1);
    CHECK(err_is("argument.item.id.invalid", 8) && err_args("minecraft:diamondx", NULL, NULL));
    CHECK_EQ_INT(parse("give @a #minecraft:logs", 2), -1);
    CHECK(err_is("argument.item.tag.disallowed", 8));
    CHECK_EQ_INT(parse("give @a diamond{display:{}}", 2), -1);
    CHECK(ps.err_key && strstr(ps.err_key, "not supported") && ps.err_pos == 15);
    /* Brigadier's bounds: "Integer must not be less than 1, found 0" */
    CHECK_EQ_INT(parse("give @a diamond 0", 2), -1);
    CHECK(err_is("argument.integer.low", 16) && err_args("1", "0", NULL));
    CHECK_EQ_INT(parse("clear @a #minecraft:logs", 2), -1);
    CHECK(err_is("arguments.item.tag.unknown", 9) && err_args("minecraft:logs", NULL, NULL));
    CHECK_EQ_INT(parse("clear", 2), 0);
    CHECK_EQ_INT(parse("clear @s stone 0", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_CLEAR);
    CHECK_EQ_INT(parse("spawnpoint @s ~ ~ ~ 90", 2), 0);
    CHECK_EQ_INT(ps.exec->exec, X_SPAWNPOINT);
}
