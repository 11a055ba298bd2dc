/*
 * test_plugins.c — the pure parts of the plugin system (issue 19):
 *
 *  - plugin.json (game/plugin_manifest.c): names, defaults, every refusal;
 *  - the load order: dependencies first, the given order otherwise, a
 *    missing dependency (directly or through another), a cycle, and a
 *    plugin whose manifest failed taking its dependents with it;
 *  - the tree extension (game/cmd_parser.c): appending commands after a
 *    built tree, a redirect to an existing command, a deeper line raising
 *    its level, a failed append leaving the tree exactly as it was, and
 *    cmd_builtin_extend putting plugin commands into the tree the parser
 *    and Declare Commands use (restored to the built-ins at the end).
 */
#include <stdio.h>
#include <string.h>

#include "game/cmd_parser.h"
#include "game/plugin_manifest.h"
#include "test.h"

static int parse(const char *folder, const char *json, struct plugin_manifest *m, char *err)
{
    return plugin_manifest_parse(folder, json, json ? strlen(json) : 0, m, err, 256);
}

TEST(plugin_names)
{
    CHECK(plugin_name_valid("welcome"));
    CHECK(plugin_name_valid("spawn-protect_2"));
    CHECK(!plugin_name_valid(""));
    CHECK(!plugin_name_valid("Welcome"));
    CHECK(!plugin_name_valid("../etc"));
    CHECK(!plugin_name_valid("a b"));
    CHECK(!plugin_name_valid("abcdefghijabcdefghijabcdefghijabc")); /* 33 */
    CHECK(plugin_name_valid("abcdefghijabcdefghijabcdefghijab"));   /* 32 */
}

TEST(plugin_manifest_defaults_and_fields)
{
    struct plugin_manifest m;
    char err[256] = "";
    CHECK_EQ_INT(parse("welcome", NULL, &m, err), 0);
    CHECK(strcmp(m.name, "welcome") == 0);
    CHECK_EQ_INT(m.memory_mb, PLUGIN_MEM_DEFAULT);
    CHECK_EQ_INT(m.budget_ms, PLUGIN_BUDGET_MS);
    CHECK_EQ_INT(m.ndepends, 0);
    CHECK_EQ_INT(parse("lobby",
                       "{\"name\":\"lobby\",\"version\":\"2.1\",\"description\":\"A lobby\","
                       "\"depends\":[\"welcome\",\"perms\"],\"memory_mb\":8,\"budget_ms\":2}",
                       &m, err),
                 0);
    CHECK(strcmp(m.version, "2.1") == 0 && strcmp(m.description, "A lobby") == 0);
    CHECK_EQ_INT(m.ndepends, 2);
    CHECK(strcmp(m.depends[1], "perms") == 0);
    CHECK_EQ_INT(m.memory_mb, 8);
    CHECK_EQ_INT(m.budget_ms, 2);
}

TEST(plugin_manifest_refusals)
{
    struct plugin_manifest m;
    char err[256];
    static const struct {
        const char *folder, *json, *why;
    } bad[] = {
        {"Bad", NULL, "folder name"},
        {"a", "{", "line 1"},
        {"a", "[]", "an object"},
        {"a", "{\"name\":\"b\"}", "folder is \"a\""},
        {"a", "{\"version\":3}", "\"version\" must be a string"},
        {"a", "{\"depends\":\"b\"}", "a list"},
        {"a", "{\"depends\":[\"B\"]}", "depends[0]"},
        {"a", "{\"depends\":[\"a\"]}", "itself"},
        {"a", "{\"memory_mb\":0}", "1 to 1024"},
        {"a", "{\"memory_mb\":2048}", "1 to 1024"},
        {"a", "{\"budget_ms\":51}", "1 to 50"},
        {"a", "{\"budget_ms\":1.5}", "whole number"},
        {"a", "{\"name\":\"a\",\"name\":\"a\"}", "line"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        int rc = parse(bad[i].folder, bad[i].json, &m, err);
        CHECK_EQ_INT(rc, -1);
        if (!strstr(err, bad[i].why)) {
            fprintf(stderr, "    case %zu: \"%s\" lacks \"%s\"\n", i, err, bad[i].why);
            test_failures++;
        }
    }
}

/* Manifests named by letter, with dependencies as strings: "b" depends on none. */
static void mk(struct plugin_manifest *m, const char *name, const char *deps)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    for (const char *d = deps; d && *d; d++)
        snprintf(m->depends[m->ndepends++], sizeof m->depends[0], "%c", *d);
}

TEST(plugin_load_order)
{
    struct plugin_manifest m[6];
    char why[6][128];
    int order[6], n;
    /* a needs c, b none, c needs d, d none: d before c before a; b keeps its place. */
    mk(&m[0], "a", "c");
    mk(&m[1], "b", NULL);
    mk(&m[2], "c", "d");
    mk(&m[3], "d", NULL);
    plugin_order(m, NULL, 4, order, &n, why);
    CHECK_EQ_INT(n, 4);
    int pos[4];
    for (int i = 0; i < n; i++) pos[order[i]] = i;
    CHECK(pos[3] < pos[2] && pos[2] < pos[0]);
    CHECK(pos[1] < pos[2]); /* independent plugins stay in the given order */
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(why[i][0], 0);

    /* e missing: a needs e (left out), c needs a (left out through it); b, d load */
    mk(&m[0], "a", "e");
    mk(&m[2], "c", "a");
    plugin_order(m, NULL, 4, order, &n, why);
    CHECK_EQ_INT(n, 2);
    CHECK(strstr(why[0], "depends on e, which is not installed") != NULL);
    CHECK(strstr(why[2], "depends on a, which is not loaded") != NULL);
    CHECK_EQ_INT(why[1][0], 0);

    /* a cycle a -> b -> a; c fine */
    mk(&m[0], "a", "b");
    mk(&m[1], "b", "a");
    mk(&m[2], "c", NULL);
    plugin_order(m, NULL, 3, order, &n, why);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(order[0], 2);
    CHECK(strstr(why[0], "cycle") != NULL && strstr(why[1], "cycle") != NULL);

    /* b's manifest failed: b and a (which needs it) are out */
    mk(&m[0], "a", "b");
    mk(&m[1], "b", NULL);
    bool ok[3] = {true, false, true};
    plugin_order(m, ok, 3, order, &n, why);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(order[0], 2);
    CHECK(strstr(why[1], "did not load") != NULL);
    CHECK(strstr(why[0], "depends on b, which is not loaded") != NULL);
}

/* A spec line, positionally (the fields after redirect stay 0). */
#define SPEC(d, k, nm, p, pr, lvl, ex, sug, red)                                                   \
    {                                                                                              \
        .depth = d, .kind = k, .name = nm, .parser = p, .prop = pr, .level = lvl, .exec = ex,      \
        .suggest = sug, .redirect = red                                                            \
    }

static int child_named(const cmd_tree *t, int node, const char *name)
{
    for (int c = t->n[node].first_child; c >= 0; c = t->n[c].next_sibling)
        if (strcmp(t->n[c].name, name) == 0) return c;
    return -1;
}

TEST(cmd_tree_append_after_a_tree)
{
    static const struct cmd_spec base[] = {
        SPEC(0, CN_LITERAL, "list", 0, 0, 0, X_LIST, 0, NULL),
        SPEC(0, CN_LITERAL, "kick", 0, 0, 3, X_NONE, 0, NULL),
        SPEC(1, CN_ARGUMENT, "targets", CP_ENTITY, CMD_ENTITY_PLAYERS, 0, X_KICK, 0, NULL),
    };
    static const struct cmd_spec ext[] = {
        SPEC(0, CN_LITERAL, "home", 0, 0, 0, X_PLUGINS, 0, NULL),
        SPEC(1, CN_LITERAL, "admin", 0, 0, 2, X_PLUGINS, 0, NULL), /* raises its own level */
        SPEC(1, CN_ARGUMENT, "name", CP_STRING, CMD_STRING_WORD, 0, X_PLUGINS, 0, NULL),
        SPEC(0, CN_LITERAL, "boot", 0, 0, 3, X_NONE, 0, "kick"),
    };
    static cmd_tree t;
    CHECK_EQ_INT(cmd_tree_build(&t, base, 3), 0);
    int first = -1;
    CHECK_EQ_INT(cmd_tree_append(&t, ext, 4, &first), 0);
    CHECK_EQ_INT(first, 4);
    CHECK_EQ_INT(t.count, 8);
    int home = child_named(&t, 0, "home");
    CHECK_EQ_INT(home, first);
    CHECK_EQ_INT(t.n[child_named(&t, home, "admin")].level, 2);
    CHECK_EQ_INT(t.n[child_named(&t, home, "name")].level, 0);
    CHECK_EQ_INT(t.n[child_named(&t, 0, "boot")].redirect, child_named(&t, 0, "kick"));
    cmd_parse ps;
    CHECK_EQ_INT(cmd_parse_line(&t, "home bob", 8, 0, &ps), 0);
    CHECK(ps.exec == &t.n[first + 2]);
    CHECK_EQ_INT(cmd_parse_line(&t, "home admin", 10, 0, &ps), -1); /* hidden below level 2 */
    CHECK_EQ_INT(cmd_parse_line(&t, "home admin", 10, 2, &ps), 0);
    CHECK_EQ_INT(cmd_parse_line(&t, "boot Alice", 10, 3, &ps), 0);
    CHECK_EQ_INT(ps.exec->exec, X_KICK);
}

TEST(cmd_tree_append_failure_leaves_the_tree_alone)
{
    static const struct cmd_spec base[] = {
        SPEC(0, CN_LITERAL, "list", 0, 0, 0, X_LIST, 0, NULL),
        SPEC(1, CN_LITERAL, "uuids", 0, 0, 0, X_LIST_UUIDS, 0, NULL),
    };
    static const struct cmd_spec bad_redirect[] = {
        SPEC(0, CN_LITERAL, "a", 0, 0, 0, X_PLUGINS, 0, NULL),
        SPEC(0, CN_LITERAL, "b", 0, 0, 0, X_NONE, 0, "nosuch"),
    };
    static const struct cmd_spec bad_depth[] = {
        SPEC(1, CN_LITERAL, "orphan", 0, 0, 0, X_PLUGINS, 0, NULL),
    };
    static cmd_tree t, copy;
    CHECK_EQ_INT(cmd_tree_build(&t, base, 2), 0);
    copy = t;
    CHECK_EQ_INT(cmd_tree_append(&t, bad_redirect, 2, NULL), -1);
    CHECK(memcmp(&t.n, &copy.n, sizeof(cmd_node) * (size_t)copy.count) == 0);
    CHECK_EQ_INT(t.count, copy.count);
    CHECK_EQ_INT(cmd_tree_append(&t, bad_depth, 1, NULL), -1);
    CHECK_EQ_INT(t.count, copy.count);
    /* too many nodes: an append that would pass CMD_MAX_NODES is refused whole */
    static struct cmd_spec many[CMD_MAX_NODES];
    for (int i = 0; i < CMD_MAX_NODES; i++)
        many[i] = (struct cmd_spec)SPEC(0, CN_LITERAL, "x", 0, 0, 0, X_PLUGINS, 0, NULL);
    CHECK_EQ_INT(cmd_tree_append(&t, many, CMD_MAX_NODES, NULL), -1);
    CHECK_EQ_INT(t.count, copy.count);
    CHECK(memcmp(&t.n, &copy.n, sizeof(cmd_node) * (size_t)copy.count) == 0);
    cmd_parse ps;
    CHECK_EQ_INT(cmd_parse_line(&t, "list uuids", 10, 0, &ps), 0);
}

TEST(cmd_builtin_extend_reaches_the_parser_and_declare_commands)
{
    static const struct cmd_spec ext[] = {
        SPEC(0, CN_LITERAL, "hello", 0, 0, 0, X_NONE, 0, NULL),
        SPEC(1, CN_ARGUMENT, "name", CP_STRING, CMD_STRING_WORD, 0, X_PLUGINS, 0, NULL),
    };
    int before = cmd_builtin_tree()->count, first = -1;
    CHECK_EQ_INT(cmd_builtin_extend(ext, 2, &first), 0);
    const cmd_tree *t = cmd_builtin_tree();
    CHECK_EQ_INT(first, before);
    CHECK_EQ_INT(t->count, before + 2);
    cmd_parse ps;
    CHECK_EQ_INT(cmd_parse_line(t, "hello Bob", 9, 0, &ps), 0);
    CHECK_EQ_INT(ps.exec->exec, X_PLUGINS);
    CHECK_EQ_INT(cmd_parse_line(t, "list", 4, 0, &ps), 0); /* the built-ins are still there */
    buf_t b;
    buf_init(&b, 1u << 20);
    pkt_cb_declare_commands(&b, t, 0);
    CHECK(!b.failed);
    CHECK(memmem(b.data, b.len, "\x05hello", 6) != NULL);
    buf_free(&b);
    /* back to the built-ins alone, for the other tests */
    CHECK_EQ_INT(cmd_builtin_extend(NULL, 0, NULL), 0);
    CHECK_EQ_INT(cmd_builtin_tree()->count, before);
    CHECK_EQ_INT(cmd_parse_line(cmd_builtin_tree(), "hello Bob", 9, 0, &ps), -1);
}
