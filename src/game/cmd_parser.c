/*
 * cmd_parser.c — see cmd_parser.h: the built-in commands' spec, building a
 * tree from a spec, the Declare Commands encoder, the parser and usage.
 *
 * Parsing follows Brigadier: from a node, if the next word is the name of a
 * literal child only that literal is tried, otherwise every argument child;
 * children the source may not use are skipped (so a hidden command reads as
 * unknown, as in vanilla). Search is depth first and the first parse that
 * ends at an executable node with the whole line read wins. Otherwise, as
 * Brigadier: among children that parsed, the result that read the whole
 * line, else one without errors, is kept; with none, the children's errors
 * are the result. The error shown is then "Unknown or incomplete command"
 * (line ended, or nothing matched), the single child error ("Expected
 * float", "Invalid unit", ...), or "Incorrect argument for command".
 *
 * Invariants (beyond cmd_parser.h's):
 *  1. Every read is bounded by the line's length (rdr.len); a value copied
 *     out of the line is cut to its fixed buffer, never overflows it.
 *  2. An error is a translation key, at most two arguments of at most 63
 *     bytes and a cursor (struct perr); the first error of the children
 *     tried at a node is the one kept.
 */
#include "game/cmd_parser.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/packet_ids.h"

/* ======================================================== the command tree */

#define LIT(d, name, lvl, ex)                                                                      \
    {                                                                                              \
        d, CN_LITERAL, name, 0, 0, lvl, ex, SUG_NONE, NULL                                         \
    }
#define ARG(d, name, parser, prop, ex)                                                             \
    {                                                                                              \
        d, CN_ARGUMENT, name, parser, prop, 0, ex, SUG_NONE, NULL                                  \
    }
#define ARGS(d, name, parser, ex, sug)                                                             \
    {                                                                                              \
        d, CN_ARGUMENT, name, parser, 0, 0, ex, sug, NULL                                          \
    }
#define REDIRECT(name, lvl, target)                                                                \
    {                                                                                              \
        0, CN_LITERAL, name, 0, 0, lvl, X_NONE, SUG_NONE, target                                   \
    }

#define E_ENTITIES 0
#define E_ENTITY   CMD_ENTITY_SINGLE
#define E_PLAYERS  CMD_ENTITY_PLAYERS

/* The built-in commands, shaped as vanilla 1.20.1 declares them (levels:
 * 0 everyone, 2 game masters, 3 admins, 4 owners); `mspt` is mcserv's. */
static const struct cmd_spec builtin_spec[] = {
    LIT(0, "help", 0, X_HELP),
    ARG(1, "command", CP_STRING, CMD_STRING_GREEDY, X_HELP),
    LIT(0, "list", 0, X_LIST),
    LIT(1, "uuids", 0, X_LIST_UUIDS),
    LIT(0, "me", 0, X_NONE),
    ARG(1, "action", CP_MESSAGE, 0, X_ME),
    LIT(0, "msg", 0, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_NONE),
    ARG(2, "message", CP_MESSAGE, 0, X_MSG),
    REDIRECT("tell", 0, "msg"),
    REDIRECT("w", 0, "msg"),
    LIT(0, "say", 2, X_NONE),
    ARG(1, "message", CP_MESSAGE, 0, X_SAY),
    LIT(0, "teleport", 2, X_NONE),
    ARG(1, "location", CP_VEC3, 0, X_TP),
    ARG(1, "destination", CP_ENTITY, E_ENTITY, X_TP),
    ARG(1, "targets", CP_ENTITY, E_ENTITIES, X_NONE),
    ARG(2, "location", CP_VEC3, 0, X_TP),
    ARG(3, "rotation", CP_ROTATION, 0, X_TP),
    LIT(3, "facing", 0, X_NONE),
    LIT(4, "entity", 0, X_NONE),
    ARG(5, "facingEntity", CP_ENTITY, E_ENTITY, X_TP),
    ARG(6, "facingAnchor", CP_ENTITY_ANCHOR, 0, X_TP),
    ARG(4, "facingLocation", CP_VEC3, 0, X_TP),
    ARG(2, "destination", CP_ENTITY, E_ENTITY, X_TP),
    REDIRECT("tp", 2, "teleport"),
    LIT(0, "gamemode", 2, X_NONE),
    ARG(1, "gamemode", CP_GAMEMODE, 0, X_GAMEMODE),
    ARG(2, "target", CP_ENTITY, E_PLAYERS, X_GAMEMODE),
    LIT(0, "time", 2, X_NONE),
    LIT(1, "set", 0, X_NONE),
    LIT(2, "day", 0, X_TIME_SET),
    LIT(2, "noon", 0, X_TIME_SET),
    LIT(2, "night", 0, X_TIME_SET),
    LIT(2, "midnight", 0, X_TIME_SET),
    ARG(2, "time", CP_TIME, 0, X_TIME_SET),
    LIT(1, "add", 0, X_NONE),
    ARG(2, "time", CP_TIME, 0, X_TIME_ADD),
    LIT(1, "query", 0, X_NONE),
    LIT(2, "daytime", 0, X_TIME_QUERY),
    LIT(2, "gametime", 0, X_TIME_QUERY),
    LIT(2, "day", 0, X_TIME_QUERY),
    LIT(0, "weather", 2, X_NONE),
    LIT(1, "clear", 0, X_WEATHER),
    ARG(2, "duration", CP_TIME, 1, X_WEATHER),
    LIT(1, "rain", 0, X_WEATHER),
    ARG(2, "duration", CP_TIME, 1, X_WEATHER),
    LIT(1, "thunder", 0, X_WEATHER),
    ARG(2, "duration", CP_TIME, 1, X_WEATHER),
    LIT(0, "kill", 2, X_KILL),
    ARG(1, "targets", CP_ENTITY, E_ENTITIES, X_KILL),
    LIT(0, "setworldspawn", 2, X_SETWORLDSPAWN),
    ARG(1, "pos", CP_BLOCK_POS, 0, X_SETWORLDSPAWN),
    ARG(2, "angle", CP_ANGLE, 0, X_SETWORLDSPAWN),
    LIT(0, "seed", 2, X_SEED),
    LIT(0, "kick", 3, X_NONE),
    ARG(1, "targets", CP_ENTITY, E_PLAYERS, X_KICK),
    ARG(2, "reason", CP_MESSAGE, 0, X_KICK),
    LIT(0, "op", 3, X_NONE),
    ARGS(1, "targets", CP_GAME_PROFILE, X_OP, SUG_NON_OPS),
    LIT(0, "deop", 3, X_NONE),
    ARGS(1, "targets", CP_GAME_PROFILE, X_DEOP, SUG_OPS),
    LIT(0, "stop", 4, X_STOP),
    LIT(0, "save-all", 4, X_SAVE_ALL),
    LIT(1, "flush", 0, X_SAVE_ALL),
    LIT(0, "save-off", 4, X_SAVE_OFF),
    LIT(0, "save-on", 4, X_SAVE_ON),
    LIT(0, "mspt", 2, X_MSPT),
    REDIRECT("tps", 2, "mspt"),
    /* The whitelist and bans (game/lists.h), as vanilla 1.20.1 declares them. */
    LIT(0, "whitelist", 3, X_NONE),
    LIT(1, "on", 0, X_WHITELIST_ON),
    LIT(1, "off", 0, X_WHITELIST_OFF),
    LIT(1, "list", 0, X_WHITELIST_LIST),
    LIT(1, "add", 0, X_NONE),
    ARGS(2, "targets", CP_GAME_PROFILE, X_WHITELIST_ADD, SUG_NOT_WHITELISTED),
    LIT(1, "remove", 0, X_NONE),
    ARGS(2, "targets", CP_GAME_PROFILE, X_WHITELIST_REMOVE, SUG_WHITELISTED),
    LIT(1, "reload", 0, X_WHITELIST_RELOAD),
    LIT(0, "ban", 3, X_NONE),
    ARG(1, "targets", CP_GAME_PROFILE, 0, X_BAN),
    ARG(2, "reason", CP_MESSAGE, 0, X_BAN),
    LIT(0, "ban-ip", 3, X_NONE),
    ARG(1, "target", CP_STRING, CMD_STRING_WORD, X_BAN_IP),
    ARG(2, "reason", CP_MESSAGE, 0, X_BAN_IP),
    LIT(0, "pardon", 3, X_NONE),
    ARGS(1, "targets", CP_GAME_PROFILE, X_PARDON, SUG_BANNED),
    LIT(0, "pardon-ip", 3, X_NONE),
    {1, CN_ARGUMENT, "target", CP_STRING, CMD_STRING_WORD, 0, X_PARDON_IP, SUG_BANNED_IPS, NULL},
    LIT(0, "banlist", 3, X_BANLIST),
    LIT(1, "ips", 0, X_BANLIST),
    LIT(1, "players", 0, X_BANLIST),
};

int cmd_tree_build(cmd_tree *t, const struct cmd_spec *spec, size_t n)
{
    memset(t, 0, sizeof *t);
    t->count = 1;
    t->n[0] = (cmd_node){CN_ROOT, 0, 0, 0, 0, 0, -1, -1, -1, -1, ""};
    return cmd_tree_append(t, spec, n, NULL);
}

int cmd_tree_append(cmd_tree *t, const struct cmd_spec *spec, size_t n, int *first)
{
    int stack[CMD_MAX_DEPTH + 1];
    int base = t->count;
    stack[0] = 0;
    for (int d = 1; d <= CMD_MAX_DEPTH; d++) stack[d] = -1;
    for (size_t i = 0; i < n; i++) {
        const struct cmd_spec *s = &spec[i];
        int parent = s->depth < CMD_MAX_DEPTH ? stack[s->depth] : -1;
        if (t->count >= CMD_MAX_NODES || parent < 0) goto undo;
        int k = t->count++;
        cmd_node *nd = &t->n[k];
        *nd = (cmd_node){s->kind, s->parser, s->prop, s->level,        s->exec, s->suggest,
                         -1,      -1,        -1,      (int16_t)parent, s->name};
        /* a line's level: the command's, or its own when that is higher */
        if (s->depth > 0 && t->n[parent].level > nd->level) nd->level = t->n[parent].level;
        /* append as the last child (declaration order is the try order) */
        int16_t *link = &t->n[parent].first_child;
        while (*link >= 0) link = &t->n[*link].next_sibling;
        *link = (int16_t)k;
        stack[s->depth + 1] = k;
        for (int d = s->depth + 2; d <= CMD_MAX_DEPTH; d++) stack[d] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!spec[i].redirect) continue;
        int target = -1;
        for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling)
            if (strcmp(t->n[c].name, spec[i].redirect) == 0) target = c;
        if (target < 0) goto undo;
        t->n[base + (int)i].redirect = (int16_t)target;
    }
    if (first) *first = base;
    return 0;
undo:
    /* A node before base links to the new ones only as its first child (it
     * had none) or as the next sibling of its last child: cut those links. */
    for (int k = 0; k < base; k++) {
        if (t->n[k].first_child >= base) t->n[k].first_child = -1;
        if (t->n[k].next_sibling >= base) t->n[k].next_sibling = -1;
    }
    t->count = base;
    return -1;
}

/* The built-in tree, and what plugins appended (cmd_builtin_extend). */
static cmd_tree builtin_tree;
static bool builtin_built;

const cmd_tree *cmd_builtin_tree(void)
{
    if (!builtin_built) {
        if (cmd_tree_build(&builtin_tree, builtin_spec,
                           sizeof builtin_spec / sizeof builtin_spec[0]) < 0)
            abort(); /* the static spec is wrong: a programming error */
        builtin_built = true;
    }
    return &builtin_tree;
}

int cmd_builtin_extend(const struct cmd_spec *spec, size_t n, int *first)
{
    static cmd_tree next; /* big: built aside, so a failure leaves the tree as it was */
    if (cmd_tree_build(&next, builtin_spec, sizeof builtin_spec / sizeof builtin_spec[0]) < 0)
        abort();
    if (cmd_tree_append(&next, spec, n, first) < 0) return -1;
    builtin_tree = next;
    builtin_built = true;
    return 0;
}

static bool node_visible(const cmd_tree *t, int i, int level)
{
    return i == 0 || t->n[i].level <= level;
}

void pkt_cb_declare_commands(buf_t *b, const cmd_tree *t, int level)
{
    int16_t index[CMD_MAX_NODES];
    int count = 0;
    for (int i = 0; i < t->count; i++) index[i] = node_visible(t, i, level) ? (int16_t)count++ : -1;
    wr_varint(b, PKT_PLAY_CB_DECLARE_COMMANDS);
    wr_varint(b, count);
    for (int i = 0; i < t->count; i++) {
        if (index[i] < 0) continue;
        const cmd_node *nd = &t->n[i];
        uint8_t flags = nd->kind;
        if (nd->exec) flags |= 0x04;
        if (nd->redirect >= 0) flags |= 0x08;
        if (nd->suggest) flags |= 0x10;
        wr_u8(b, flags);
        int nc = 0;
        for (int c = nd->first_child; c >= 0; c = t->n[c].next_sibling)
            if (index[c] >= 0) nc++;
        wr_varint(b, nc);
        for (int c = nd->first_child; c >= 0; c = t->n[c].next_sibling)
            if (index[c] >= 0) wr_varint(b, index[c]);
        if (nd->redirect >= 0) wr_varint(b, index[nd->redirect]);
        if (nd->kind == CN_ROOT) continue;
        wr_cstring(b, nd->name);
        if (nd->kind == CN_ARGUMENT) {
            wr_varint(b, nd->parser);
            switch (nd->parser) {
            case CP_ENTITY: wr_u8(b, (uint8_t)nd->prop); break;
            case CP_STRING: wr_varint(b, nd->prop); break;
            case CP_TIME: wr_i32(b, nd->prop); break;
            case CP_INTEGER:
            case CP_FLOAT:
            case CP_DOUBLE: wr_u8(b, 0); break; /* no min, no max */
            default: break;
            }
            if (nd->suggest) wr_cstring(b, "minecraft:ask_server");
        }
    }
    wr_varint(b, 0); /* root index */
}

/* ================================================================ parsing */

struct perr {
    long pos;        /* cursor for the context line; -1 none */
    const char *key; /* NULL: no error */
    char a[2][64];
    int n;
};

static void perr_set(struct perr *e, long pos, const char *key, const char *a0, size_t l0,
                     const char *a1, size_t l1)
{
    e->pos = pos;
    e->key = key;
    e->n = 0;
    if (a0) {
        snprintf(e->a[0], sizeof e->a[0], "%.*s", (int)(l0 < 63 ? l0 : 63), a0);
        e->n = 1;
    }
    if (a1) {
        snprintf(e->a[1], sizeof e->a[1], "%.*s", (int)(l1 < 63 ? l1 : 63), a1);
        e->n = 2;
    }
}

typedef struct rdr {
    const char *s;
    size_t len, pos;
} rdr;

static inline bool can_read(const rdr *r)
{
    return r->pos < r->len;
}

static inline char peek(const rdr *r)
{
    return r->pos < r->len ? r->s[r->pos] : 0;
}

static void skip_ws(rdr *r)
{
    while (can_read(r) && peek(r) == ' ') r->pos++;
}

static bool unquoted_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == '-' || c == '.' || c == '+';
}

static bool number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/* Brigadier readUnquotedString: the range [*start, r->pos). */
static void read_unquoted(rdr *r, size_t *start)
{
    *start = r->pos;
    while (can_read(r) && unquoted_char(peek(r))) r->pos++;
}

/* Brigadier readString: quoted ("..." or '...', \ escapes) or unquoted, into out. */
static int read_string(rdr *r, char *out, size_t cap, size_t *outlen, struct perr *e)
{
    *outlen = 0;
    if (!can_read(r)) return 0;
    char q = peek(r);
    if (q != '"' && q != '\'') {
        size_t s;
        read_unquoted(r, &s);
        size_t n = r->pos - s;
        if (n >= cap) n = cap - 1;
        memcpy(out, r->s + s, n);
        out[n] = 0;
        *outlen = r->pos - s;
        return 0;
    }
    r->pos++;
    bool esc = false;
    size_t o = 0, total = 0;
    while (can_read(r)) {
        char c = r->s[r->pos++];
        if (esc) {
            if (c != q && c != '\\') {
                r->pos--;
                perr_set(e, (long)r->pos, "parsing.quote.escape", &c, 1, NULL, 0);
                return -1;
            }
            esc = false;
        } else if (c == '\\') {
            esc = true;
            continue;
        } else if (c == q) {
            out[o < cap ? o : cap - 1] = 0;
            *outlen = total;
            return 0;
        }
        if (o + 1 < cap) out[o++] = c;
        total++;
    }
    perr_set(e, (long)r->pos, "parsing.quote.expected.end", NULL, 0, NULL, 0);
    return -1;
}

static int read_number(rdr *r, bool integer, double *out, struct perr *e)
{
    size_t start = r->pos;
    while (can_read(r) && number_char(peek(r))) r->pos++;
    size_t n = r->pos - start;
    const char *kexp = integer ? "parsing.int.expected" : "parsing.double.expected";
    const char *kinv = integer ? "parsing.int.invalid" : "parsing.double.invalid";
    if (!n) {
        perr_set(e, (long)start, kexp, NULL, 0, NULL, 0);
        return -1;
    }
    char tmp[64];
    if (n >= sizeof tmp) {
        r->pos = start;
        perr_set(e, (long)start, kinv, r->s + start, n, NULL, 0);
        return -1;
    }
    memcpy(tmp, r->s + start, n);
    tmp[n] = 0;
    char *end;
    if (integer) {
        long v = strtol(tmp, &end, 10);
        if (*end || v < INT32_MIN || v > INT32_MAX || strchr(tmp, '.')) {
            r->pos = start;
            perr_set(e, (long)start, kinv, tmp, n, NULL, 0);
            return -1;
        }
        *out = (double)v;
    } else {
        double v = strtod(tmp, &end);
        /* Java's Double.parseDouble over [0-9.-]: no hex, no inf/nan, no exponent here */
        if (*end || !isfinite(v)) {
            r->pos = start;
            perr_set(e, (long)start, kinv, tmp, n, NULL, 0);
            return -1;
        }
        *out = v;
    }
    return 0;
}

/* --- coordinates (vanilla WorldCoordinate / LocalCoordinates) --- */

static int world_coord(rdr *r, bool integer, bool center, double *v, bool *rel, struct perr *e)
{
    if (peek(r) == '^') {
        perr_set(e, (long)r->pos, "argument.pos.mixed", NULL, 0, NULL, 0);
        return -1;
    }
    if (!can_read(r)) {
        perr_set(e, (long)r->pos,
                 integer ? "argument.pos.missing.int" : "argument.pos.missing.double", NULL, 0,
                 NULL, 0);
        return -1;
    }
    *rel = peek(r) == '~';
    if (*rel) r->pos++;
    size_t start = r->pos;
    *v = 0;
    if (can_read(r) && peek(r) != ' ' && read_number(r, integer && !*rel, v, e) < 0) return -1;
    bool has_dot = memchr(r->s + start, '.', r->pos - start) != NULL;
    if (!*rel && !integer && center && !has_dot) *v += 0.5;
    return 0;
}

static int local_coord(rdr *r, size_t start, double *v, struct perr *e)
{
    if (!can_read(r)) {
        perr_set(e, (long)r->pos, "argument.pos.missing.double", NULL, 0, NULL, 0);
        return -1;
    }
    if (peek(r) != '^') {
        perr_set(e, (long)start, "argument.pos.mixed", NULL, 0, NULL, 0);
        return -1;
    }
    r->pos++;
    *v = 0;
    if (can_read(r) && peek(r) != ' ') return read_number(r, false, v, e);
    return 0;
}

/* n coordinates (3: vec3/block_pos, 2: rotation) separated by single spaces. */
static int parse_coords(rdr *r, int n, bool integer, bool center, const char *incomplete,
                        struct cmd_coords *out, struct perr *e)
{
    size_t start = r->pos;
    memset(out, 0, sizeof *out);
    if (n == 3 && peek(r) == '^') {
        out->local = true;
        for (int i = 0; i < 3; i++) {
            if (local_coord(r, start, &out->v[i], e) < 0) return -1;
            if (i < 2) {
                if (!can_read(r) || peek(r) != ' ') {
                    perr_set(e, (long)start, incomplete, NULL, 0, NULL, 0);
                    return -1;
                }
                r->pos++;
            }
        }
        return 0;
    }
    if (n == 2 && !can_read(r)) {
        perr_set(e, (long)r->pos, incomplete, NULL, 0, NULL, 0);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        bool rel;
        bool c = center && i != 1;
        if (world_coord(r, integer, c, &out->v[i], &rel, e) < 0) return -1;
        if (rel) out->rel |= (uint8_t)(1u << i);
        if (i < n - 1) {
            if (!can_read(r) || peek(r) != ' ') {
                perr_set(e, (long)start, incomplete, NULL, 0, NULL, 0);
                r->pos = start;
                return -1;
            }
            r->pos++;
        }
    }
    return 0;
}

/* --- entity selectors (vanilla EntitySelectorParser) --- */

/* A number of a range: [0-9.-] but stopping before "..". */
static bool range_number(rdr *r, double *out, struct perr *e)
{
    size_t s = r->pos;
    while (can_read(r) && number_char(peek(r)) &&
           !(peek(r) == '.' && r->pos + 1 < r->len && r->s[r->pos + 1] == '.'))
        r->pos++;
    if (r->pos == s) return false;
    char tmp[64];
    size_t n = r->pos - s < 63 ? r->pos - s : 63;
    memcpy(tmp, r->s + s, n);
    tmp[n] = 0;
    char *end;
    *out = strtod(tmp, &end);
    if (*end || !isfinite(*out)) {
        r->pos = s;
        perr_set(e, (long)s, "parsing.double.invalid", tmp, n, NULL, 0);
        return false;
    }
    return true;
}

/* MinMaxBounds.Doubles: "5", "..5", "5..", "1..5". */
static int parse_range(rdr *r, double *lo, double *hi, struct perr *e)
{
    size_t start = r->pos;
    *lo = -INFINITY;
    *hi = INFINITY;
    bool have = range_number(r, lo, e);
    if (e->key) return -1;
    if (have) *hi = *lo;
    if (r->pos + 1 < r->len && r->s[r->pos] == '.' && r->s[r->pos + 1] == '.') {
        r->pos += 2;
        *hi = INFINITY;
        if (range_number(r, hi, e)) have = true;
        if (e->key) return -1;
    }
    if (!have) {
        perr_set(e, (long)start, "argument.range.empty", NULL, 0, NULL, 0);
        return -1;
    }
    if (*lo > *hi) {
        perr_set(e, (long)start, "argument.range.swapped", NULL, 0, NULL, 0);
        return -1;
    }
    return 0;
}

const char *const cmd_gamemode_names[4] = {"survival", "creative", "adventure", "spectator"};

static int gamemode_of(const char *s, size_t n)
{
    for (int i = 0; i < 4; i++)
        if (strlen(cmd_gamemode_names[i]) == n && memcmp(cmd_gamemode_names[i], s, n) == 0)
            return i;
    return -1;
}

static int parse_options(rdr *r, struct cmd_selector *sel, struct perr *e)
{
    r->pos++; /* '[' */
    skip_ws(r);
    while (can_read(r) && peek(r) != ']') {
        skip_ws(r);
        size_t ostart = r->pos;
        char key[32];
        size_t klen;
        if (read_string(r, key, sizeof key, &klen, e) < 0) return -1;
        static const char *const known[] = {"name",     "limit", "distance",
                                            "gamemode", "sort",  "type"};
        int which = -1;
        for (int i = 0; i < 6; i++)
            if (strlen(known[i]) == klen && strcmp(known[i], key) == 0) which = i;
        if (which < 0) {
            r->pos = ostart;
            perr_set(e, (long)ostart, "argument.entity.options.unknown", key,
                     klen < sizeof key ? klen : sizeof key - 1, NULL, 0);
            return -1;
        }
        skip_ws(r);
        if (!can_read(r) || peek(r) != '=') {
            r->pos = ostart;
            perr_set(e, (long)ostart, "argument.entity.options.valueless", key, klen, NULL, 0);
            return -1;
        }
        r->pos++;
        skip_ws(r);
        size_t vstart = r->pos;
        bool neg = false;
        if ((which == 0 || which == 3 || which == 5) && peek(r) == '!') {
            neg = true;
            r->pos++;
        }
        char val[64];
        size_t vlen;
        double d;
        switch (which) {
        case 0: /* name */
            if (read_string(r, val, sizeof val, &vlen, e) < 0) return -1;
            if (vlen > 16) sel->type_other = !neg; /* no player has such a name */
            memcpy(sel->name, val, vlen < 16 ? vlen : 16);
            sel->name[vlen < 16 ? vlen : 16] = 0;
            sel->has_name = true;
            sel->name_neg = neg;
            break;
        case 1: /* limit */
            if (read_number(r, true, &d, e) < 0) return -1;
            if (d < 1) {
                r->pos = vstart;
                perr_set(e, (long)vstart, "argument.entity.options.limit.toosmall", NULL, 0, NULL,
                         0);
                return -1;
            }
            sel->limit = (int)d;
            break;
        case 2: /* distance */
            if (parse_range(r, &sel->dmin, &sel->dmax, e) < 0) return -1;
            if (sel->dmin < 0 && isfinite(sel->dmin)) {
                r->pos = vstart;
                perr_set(e, (long)vstart, "argument.entity.options.distance.negative", NULL, 0,
                         NULL, 0);
                return -1;
            }
            sel->has_dist = true;
            break;
        case 3: { /* gamemode */
            size_t s;
            read_unquoted(r, &s);
            int gm = gamemode_of(r->s + s, r->pos - s);
            if (gm < 0) {
                r->pos = vstart;
                perr_set(e, (long)vstart, "argument.entity.options.mode.invalid", r->s + s,
                         r->pos - s, NULL, 0);
                return -1;
            }
            sel->gamemode = gm;
            sel->gm_neg = neg;
            break;
        }
        case 4: { /* sort */
            size_t s;
            read_unquoted(r, &s);
            static const char *const sorts[] = {"arbitrary", "nearest", "furthest", "random"};
            int k = -1;
            for (int i = 0; i < 4; i++)
                if (strlen(sorts[i]) == r->pos - s && memcmp(sorts[i], r->s + s, r->pos - s) == 0)
                    k = i;
            if (k < 0) {
                r->pos = vstart;
                perr_set(e, (long)vstart, "argument.entity.options.sort.irreversible", r->s + s,
                         r->pos - s, NULL, 0);
                return -1;
            }
            sel->sort = k;
            break;
        }
        case 5: { /* type */
            size_t s = r->pos;
            while (can_read(r) && (unquoted_char(peek(r)) || peek(r) == ':' || peek(r) == '/'))
                r->pos++;
            size_t n = r->pos - s;
            bool player = (n == 6 && memcmp(r->s + s, "player", 6) == 0) ||
                          (n == 16 && memcmp(r->s + s, "minecraft:player", 16) == 0);
            if (!n) {
                perr_set(e, (long)s, "argument.id.invalid", NULL, 0, NULL, 0);
                return -1;
            }
            if (player && !neg)
                sel->type_player = true;
            else if (player || !neg)
                sel->type_other = true; /* only players exist here */
            break;
        }
        }
        skip_ws(r);
        if (can_read(r)) {
            if (peek(r) == ',') {
                r->pos++;
                continue;
            }
            if (peek(r) != ']') {
                perr_set(e, (long)r->pos, "argument.entity.options.unterminated", NULL, 0, NULL, 0);
                return -1;
            }
        }
    }
    if (!can_read(r)) {
        perr_set(e, (long)r->pos, "argument.entity.options.unterminated", NULL, 0, NULL, 0);
        return -1;
    }
    r->pos++; /* ']' */
    return 0;
}

static int parse_uuid_text(const char *s, size_t n, mc_uuid *out)
{
    /* Java UUID.fromString: five dash-separated hex groups */
    int groups = 1, digits = 0, o = 0;
    uint8_t b[16] = {0};
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '-') {
            groups++;
            continue;
        }
        int v = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (v < 0 || o >= 32) return -1;
        b[o / 2] |= (uint8_t)(o % 2 ? v : v << 4);
        o++;
        digits++;
    }
    if (groups != 5 || digits != 32) return -1;
    memcpy(out->b, b, 16);
    return 0;
}

/* Entity selector or name/UUID. Returns whether it can match non-players. */
static int parse_selector(rdr *r, struct cmd_selector *sel, bool *includes_entities, struct perr *e)
{
    memset(sel, 0, sizeof *sel);
    sel->gamemode = -1;
    if (peek(r) == '@') {
        r->pos++;
        if (!can_read(r)) {
            perr_set(e, (long)r->pos, "argument.entity.selector.missing", NULL, 0, NULL, 0);
            return -1;
        }
        size_t at = r->pos;
        char c = r->s[r->pos++];
        switch (c) {
        case 'p': sel->sort = 1; break;
        case 'r': sel->sort = 3; break;
        case 'a':
        case 's':
        case 'e': break;
        default: {
            char t[3] = {'@', c, 0};
            r->pos = at;
            perr_set(e, (long)at, "argument.entity.selector.unknown", t, 2, NULL, 0);
            return -1;
        }
        }
        sel->kind = c;
        if (peek(r) == '[' && parse_options(r, sel, e) < 0) return -1;
        *includes_entities = (c == 'e' && !sel->type_player) || c == 's';
        return 0;
    }
    size_t start = r->pos;
    char name[64];
    size_t n;
    if (read_string(r, name, sizeof name, &n, e) < 0) return -1;
    if (n <= 36 && parse_uuid_text(name, n, &sel->uuid) == 0) {
        sel->kind = 'u';
        *includes_entities = true;
        return 0;
    }
    if (n == 0 || n > 16) {
        r->pos = start;
        perr_set(e, (long)start, "argument.entity.invalid", NULL, 0, NULL, 0);
        return -1;
    }
    sel->kind = 0;
    memcpy(sel->name, name, n + 1);
    *includes_entities = false;
    return 0;
}

static bool selector_many(const struct cmd_selector *s)
{
    if (s->kind == 0 || s->kind == 'u' || s->kind == 's') return false;
    if (s->limit) return s->limit > 1;
    return s->kind == 'a' || s->kind == 'e';
}

/* One argument at r->pos; the value into v. */
static int parse_argument(const cmd_node *nd, rdr *r, struct cmd_value *v, struct perr *e)
{
    size_t start = r->pos;
    switch (nd->parser) {
    case CP_STRING:
        if (nd->prop == CMD_STRING_GREEDY) {
            r->pos = r->len;
        } else {
            size_t s;
            read_unquoted(r, &s);
        }
        return 0;
    case CP_MESSAGE: r->pos = r->len; return 0;
    case CP_BOOL: {
        size_t s;
        read_unquoted(r, &s);
        size_t n = r->pos - s;
        if (n == 4 && memcmp(r->s + s, "true", 4) == 0)
            v->u.b = true;
        else if (n == 5 && memcmp(r->s + s, "false", 5) == 0)
            v->u.b = false;
        else {
            r->pos = s;
            perr_set(e, (long)s, n ? "parsing.bool.invalid" : "parsing.bool.expected", r->s + s, n,
                     NULL, 0);
            return -1;
        }
        return 0;
    }
    case CP_INTEGER: {
        double d;
        if (read_number(r, true, &d, e) < 0) return -1;
        v->u.i = (int32_t)d;
        return 0;
    }
    case CP_FLOAT:
    case CP_DOUBLE: return read_number(r, false, &v->u.d, e);
    case CP_ENTITY: {
        bool ents;
        if (parse_selector(r, &v->u.sel, &ents, e) < 0) return -1;
        if ((nd->prop & CMD_ENTITY_SINGLE) && selector_many(&v->u.sel)) {
            perr_set(e, 0,
                     nd->prop & CMD_ENTITY_PLAYERS ? "argument.player.toomany"
                                                   : "argument.entity.toomany",
                     NULL, 0, NULL, 0);
            return -1;
        }
        if ((nd->prop & CMD_ENTITY_PLAYERS) && ents && v->u.sel.kind != 's') {
            perr_set(e, 0, "argument.player.entities", NULL, 0, NULL, 0);
            return -1;
        }
        return 0;
    }
    case CP_GAME_PROFILE: {
        if (peek(r) == '@') {
            bool ents;
            if (parse_selector(r, &v->u.sel, &ents, e) < 0) return -1;
            if (ents) {
                perr_set(e, -1, "argument.player.entities", NULL, 0, NULL, 0);
                return -1;
            }
            return 0;
        }
        memset(&v->u.sel, 0, sizeof v->u.sel);
        v->u.sel.gamemode = -1;
        while (can_read(r) && peek(r) != ' ') r->pos++;
        size_t n = r->pos - start;
        snprintf(v->u.sel.name, sizeof v->u.sel.name, "%.*s", (int)(n < 16 ? n : 16), r->s + start);
        if (n > 16) v->u.sel.type_other = true; /* no such player */
        return 0;
    }
    case CP_VEC3: return parse_coords(r, 3, false, true, "argument.pos3d.incomplete", &v->u.pos, e);
    case CP_BLOCK_POS:
        return parse_coords(r, 3, true, false, "argument.pos3d.incomplete", &v->u.pos, e);
    case CP_ROTATION:
        return parse_coords(r, 2, false, false, "argument.rotation.incomplete", &v->u.pos, e);
    case CP_ANGLE: {
        memset(&v->u.pos, 0, sizeof v->u.pos);
        if (!can_read(r)) {
            perr_set(e, (long)r->pos, "argument.angle.incomplete", NULL, 0, NULL, 0);
            return -1;
        }
        if (peek(r) == '~') {
            v->u.pos.rel = 1;
            r->pos++;
        }
        if (can_read(r) && peek(r) != ' ' && read_number(r, false, &v->u.pos.v[0], e) < 0)
            return -1;
        return 0;
    }
    case CP_ENTITY_ANCHOR: {
        size_t s;
        read_unquoted(r, &s);
        size_t n = r->pos - s;
        if (n == 4 && memcmp(r->s + s, "feet", 4) == 0)
            v->u.anchor = 0;
        else if (n == 4 && memcmp(r->s + s, "eyes", 4) == 0)
            v->u.anchor = 1;
        else {
            r->pos = s;
            perr_set(e, (long)s, "argument.anchor.invalid", r->s + s, n, NULL, 0);
            return -1;
        }
        return 0;
    }
    case CP_GAMEMODE: {
        size_t s;
        read_unquoted(r, &s);
        int gm = gamemode_of(r->s + s, r->pos - s);
        if (gm < 0) {
            perr_set(e, (long)r->pos, "argument.gamemode.invalid", r->s + s, r->pos - s, NULL, 0);
            return -1;
        }
        v->u.gamemode = gm;
        return 0;
    }
    case CP_TIME: {
        double f;
        if (read_number(r, false, &f, e) < 0) {
            if (e->key && strcmp(e->key, "parsing.double.expected") == 0)
                e->key = "parsing.float.expected";
            else if (e->key && strcmp(e->key, "parsing.double.invalid") == 0)
                e->key = "parsing.float.invalid";
            return -1;
        }
        size_t s;
        read_unquoted(r, &s);
        size_t n = r->pos - s;
        int unit = 0;
        if (n == 0 || (n == 1 && r->s[s] == 't'))
            unit = 1;
        else if (n == 1 && r->s[s] == 's')
            unit = 20;
        else if (n == 1 && r->s[s] == 'd')
            unit = 24000;
        if (!unit) {
            /* vanilla throws these without a cursor: no context line */
            perr_set(e, -1, "argument.time.invalid_unit", NULL, 0, NULL, 0);
            return -1;
        }
        double ticks = floor((double)(float)(f * unit) + 0.5); /* Math.round(float) */
        if (ticks < nd->prop) {
            char a0[16], a1[32];
            snprintf(a0, sizeof a0, "%d", nd->prop);
            snprintf(a1, sizeof a1, "%.0f", ticks);
            perr_set(e, -1, "argument.time.tick_count_too_low", a0, strlen(a0), a1, strlen(a1));
            return -1;
        }
        v->u.i = ticks > INT32_MAX ? INT32_MAX : (int32_t)ticks;
        return 0;
    }
    }
    return 0;
}

/* What parsing from one node came to (Brigadier's ParseResults). */
struct outcome {
    bool ok;
    size_t reader;    /* where parsing stopped */
    int nexc;         /* errors of the children tried there */
    struct perr exc;  /* the first of them */
    bool range_empty; /* nothing matched at all */
};

/* Brigadier's order of candidate results: the whole line read first, then no errors. */
static bool better(const struct outcome *a, const struct outcome *b, size_t len)
{
    bool ae = a->reader >= len, be = b->reader >= len;
    if (ae != be) return ae;
    return a->nexc == 0 && b->nexc != 0;
}

static struct outcome walk(const cmd_tree *t, int node, size_t pos, cmd_parse *ps, int depth)
{
    const cmd_node *nd = &t->n[node];
    const cmd_node *src = nd->redirect >= 0 ? &t->n[nd->redirect] : nd;
    struct outcome best = {0}, o;
    bool have = false;
    int nerr = 0;
    struct perr first = {0};
    size_t wend = pos;
    while (wend < ps->len && ps->line[wend] != ' ') wend++;
    int literal = -1;
    for (int c = src->first_child; c >= 0; c = t->n[c].next_sibling) {
        const cmd_node *ch = &t->n[c];
        if (ch->kind == CN_LITERAL && strlen(ch->name) == wend - pos &&
            memcmp(ch->name, ps->line + pos, wend - pos) == 0)
            literal = c;
    }
    for (int c = src->first_child; c >= 0; c = t->n[c].next_sibling) {
        const cmd_node *ch = &t->n[c];
        if (literal >= 0 ? c != literal : ch->kind != CN_ARGUMENT) continue;
        if (ch->level > ps->level) continue;
        rdr r = {ps->line, ps->len, pos};
        struct cmd_value v;
        struct perr e = {0};
        memset(&v, 0, sizeof v);
        if (ch->kind == CN_LITERAL)
            r.pos = wend;
        else if (parse_argument(ch, &r, &v, &e) < 0) {
            if (!nerr++) first = e;
            continue;
        }
        if (r.pos < ps->len && ps->line[r.pos] != ' ') {
            perr_set(&e, (long)r.pos, "command.expected.separator", NULL, 0, NULL, 0);
            if (!nerr++) first = e;
            continue;
        }
        if (depth >= CMD_MAX_DEPTH) continue;
        v.node = ch;
        v.start = (uint32_t)pos;
        v.end = (uint32_t)r.pos;
        ps->path[depth] = v;
        if (r.pos >= ps->len) {
            if (ch->exec) {
                ps->exec = ch;
                ps->depth = depth + 1;
                o = (struct outcome){.ok = true};
                return o;
            }
            o = (struct outcome){false, r.pos, 0, {0}, false};
        } else {
            o = walk(t, c, r.pos + 1, ps, depth + 1);
            if (o.ok) return o;
        }
        if (!have || better(&o, &best, ps->len)) best = o;
        have = true;
    }
    if (have) return best;
    o = (struct outcome){false, pos, nerr, first, depth == 0};
    return o;
}

int cmd_parse_line(const cmd_tree *t, const char *line, size_t len, int level, cmd_parse *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->line = line;
    ps->len = len;
    ps->level = level;
    ps->err_pos = -1;
    if (len > CMD_MAX_LEN) {
        ps->err_key = "command.unknown.command";
        ps->err_pos = 0;
        return -1;
    }
    struct outcome o = walk(t, 0, 0, ps, 0);
    if (o.ok) return 0;
    ps->exec = NULL;
    ps->depth = 0;
    if (o.reader < len && o.nexc == 1) {
        ps->err_key = o.exc.key;
        ps->err_pos = o.exc.pos;
        ps->err_nargs = o.exc.n;
        memcpy(ps->err_arg, o.exc.a, sizeof ps->err_arg);
    } else {
        /* the line ended too soon, or no child took the next word */
        ps->err_key = o.reader >= len || o.range_empty ? "command.unknown.command"
                                                       : "command.unknown.argument";
        ps->err_pos = (long)o.reader;
    }
    return -1;
}

const struct cmd_value *cmd_arg(const cmd_parse *ps, const char *name)
{
    for (int i = 0; i < ps->depth; i++) {
        const cmd_node *nd = ps->path[i].node;
        if (nd->kind == CN_ARGUMENT && strcmp(nd->name, name) == 0) return &ps->path[i];
    }
    return NULL;
}

bool cmd_has_literal(const cmd_parse *ps, const char *name)
{
    for (int i = 0; i < ps->depth; i++) {
        const cmd_node *nd = ps->path[i].node;
        if (nd->kind == CN_LITERAL && strcmp(nd->name, name) == 0) return true;
    }
    return false;
}

/* ------------------------------------------------------------- smart usage */

static void usage_text(buf_t *out, const cmd_node *nd)
{
    if (nd->kind == CN_ARGUMENT) buf_lit(out, "<");
    buf_append(out, nd->name, strlen(nd->name));
    if (nd->kind == CN_ARGUMENT) buf_lit(out, ">");
}

/* Brigadier CommandDispatcher.getSmartUsage(node, source, optional, deep). */
static void smart_usage(buf_t *out, const cmd_tree *t, int node, int level, bool optional,
                        bool deep)
{
    const cmd_node *nd = &t->n[node];
    if (optional) buf_lit(out, "[");
    usage_text(out, nd);
    if (optional) buf_lit(out, "]");
    if (deep) return;
    if (nd->redirect >= 0) {
        buf_lit(out, " -> ");
        usage_text(out, &t->n[nd->redirect]);
        return;
    }
    bool child_optional = nd->exec != 0;
    int kids[CMD_MAX_NODES], nk = 0;
    for (int c = nd->first_child; c >= 0; c = t->n[c].next_sibling)
        if (t->n[c].level <= level) kids[nk++] = c;
    if (nk == 1) {
        buf_lit(out, " ");
        smart_usage(out, t, kids[0], level, child_optional, child_optional);
    } else if (nk > 1) {
        buf_append(out, child_optional ? " [" : " (", 2);
        for (int i = 0; i < nk; i++) {
            if (i) buf_lit(out, "|");
            usage_text(out, &t->n[kids[i]]);
        }
        buf_append(out, child_optional ? "]" : ")", 1);
    }
}

void cmd_usage(buf_t *out, const cmd_tree *t, int node, int level)
{
    smart_usage(out, t, node, level, false, false);
}

/* ------------------------------------------------ steps for the server half */

int cmd_read_selector(const char *line, size_t len, size_t *pos, struct cmd_selector *sel)
{
    rdr r = {line, len, *pos};
    bool ents;
    struct perr e = {0};
    if (parse_selector(&r, sel, &ents, &e) < 0) return -1;
    *pos = r.pos;
    return 0;
}

int cmd_read_argument(const cmd_node *nd, const char *line, size_t len, size_t *pos,
                      struct cmd_value *v)
{
    rdr r = {line, len, *pos};
    struct perr e = {0};
    if (parse_argument(nd, &r, v, &e) < 0) return -1;
    *pos = r.pos;
    return 0;
}
