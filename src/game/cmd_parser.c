/*
 * cmd_parser.c — see cmd_parser.h: building a tree from a spec (the
 * built-in one is game/cmd_spec.c), the Declare Commands encoder, the parser
 * with Brigadier's argument types and coordinates (Minecraft's blocks,
 * items and text components are game/cmd_args.c), and usage.
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
 *  1. Every read is bounded by the line's length (cmd_reader.len); a value copied
 *     out of the line is cut to its fixed buffer, never overflows it.
 *  2. An error is a translation key, at most two arguments of at most 63
 *     bytes and a cursor (struct cmd_error); the first error of the children
 *     tried at a node is the one kept.
 */
#include "game/cmd_parser.h"
#include "game/cmd_reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/packet_ids.h"

/* ================================================================ the tree */

int cmd_tree_add(cmd_tree *t, int parent, const struct cmd_spec *s)
{
    if (t->count >= CMD_MAX_NODES || parent < 0 || parent >= t->count) return -1;
    int k = t->count++;
    cmd_node *nd = &t->n[k];
    /* a line's level: the command's, or its own when higher */
    uint8_t level = parent && t->n[parent].level > s->level ? t->n[parent].level : s->level;
    *nd = (cmd_node){.kind = s->kind,
                     .parser = s->parser,
                     .prop = s->prop,
                     .level = level,
                     .exec = s->exec,
                     .suggest = s->suggest,
                     .range = s->range,
                     .redirect = -1,
                     .first_child = -1,
                     .next_sibling = -1,
                     .parent = (int16_t)parent,
                     .name = s->name,
                     .min = s->min,
                     .max = s->max};
    /* append as the last child (declaration order is the try order) */
    int16_t *link = &t->n[parent].first_child;
    while (*link >= 0) link = &t->n[*link].next_sibling;
    *link = (int16_t)k;
    return k;
}

int cmd_tree_build(cmd_tree *t, const struct cmd_spec *spec, size_t n)
{
    memset(t, 0, sizeof *t);
    t->count = 1;
    t->n[0] = (cmd_node){.kind = CN_ROOT,
                         .redirect = -1,
                         .first_child = -1,
                         .next_sibling = -1,
                         .parent = -1,
                         .name = ""};
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
        if (s->depth >= CMD_MAX_DEPTH) goto undo;
        int k = cmd_tree_add(t, stack[s->depth], s);
        if (k < 0) goto undo;
        stack[s->depth + 1] = k;
        for (int d = s->depth + 2; d <= CMD_MAX_DEPTH; d++) stack[d] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!spec[i].redirect) continue;
        int k = base + (int)i;
        int target = -1;
        for (int c = t->n[0].first_child; c >= 0; c = t->n[c].next_sibling)
            if (strcmp(t->n[c].name, spec[i].redirect) == 0) target = c;
        if (target < 0) goto undo;
        t->n[k].redirect = (int16_t)target;
        /* Brigadier follows a redirect only when more input comes after the
         * alias (its parser needs a space to read past it), so an alias that
         * must run alone carries its target's command, as a Brigadier alias
         * built with .executes(target.getCommand()).redirect(target) does:
         * "tps" runs mspt, "tell" (msg needs arguments) still does not run. */
        if (!t->n[k].exec) t->n[k].exec = t->n[target].exec;
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
            case CP_RESOURCE:
                wr_cstring(b, nd->prop == CMD_REGISTRY_ENCHANTMENT ? "minecraft:enchantment"
                                                                   : "minecraft:entity_type");
                break;
            case CP_INTEGER:
                wr_u8(b, nd->range);
                if (nd->range & CMD_RANGE_MIN) wr_i32(b, (int32_t)nd->min);
                if (nd->range & CMD_RANGE_MAX) wr_i32(b, (int32_t)nd->max);
                break;
            case CP_FLOAT:
                wr_u8(b, nd->range);
                if (nd->range & CMD_RANGE_MIN) wr_f32(b, (float)nd->min);
                if (nd->range & CMD_RANGE_MAX) wr_f32(b, (float)nd->max);
                break;
            case CP_DOUBLE:
                wr_u8(b, nd->range);
                if (nd->range & CMD_RANGE_MIN) wr_f64(b, nd->min);
                if (nd->range & CMD_RANGE_MAX) wr_f64(b, nd->max);
                break;
            default: break;
            }
            if (nd->suggest)
                wr_cstring(b, nd->suggest == SUG_SUMMONABLE ? "minecraft:summonable_entities"
                                                            : "minecraft:ask_server");
        }
    }
    wr_varint(b, 0); /* root index */
}

/* ================================================================ parsing */

void cmd_err_set(struct cmd_error *e, long pos, const char *key, const char *a0, size_t l0,
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

int cmd_list_next(cmd_reader *r, const char *unclosed, struct cmd_error *e)
{
    cmd_skip_ws(r);
    if (!cmd_can_read(r) || cmd_peek(r) == ']') return 0;
    if (cmd_peek(r) == ',') {
        r->pos++;
        return 1;
    }
    cmd_err_set(e, (long)r->pos, unclosed, NULL, 0, NULL, 0);
    return -1;
}

int cmd_list_close(cmd_reader *r, const char *unclosed, struct cmd_error *e)
{
    if (!cmd_can_read(r)) {
        cmd_err_set(e, (long)r->pos, unclosed, NULL, 0, NULL, 0);
        return -1;
    }
    r->pos++; /* ']' */
    return 0;
}

void cmd_skip_ws(cmd_reader *r)
{
    while (cmd_can_read(r) && cmd_peek(r) == ' ') r->pos++;
}

bool cmd_unquoted_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == '-' || c == '.' || c == '+';
}

static bool number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/* Brigadier readUnquotedString: the range [*start, r->pos). */
void cmd_read_unquoted(cmd_reader *r, size_t *start)
{
    *start = r->pos;
    while (cmd_can_read(r) && cmd_unquoted_char(cmd_peek(r))) r->pos++;
}

/* Brigadier readString: quoted ("..." or '...', \ escapes) or unquoted, into out. */
int cmd_read_string(cmd_reader *r, char *out, size_t cap, size_t *outlen, struct cmd_error *e)
{
    *outlen = 0;
    if (!cmd_can_read(r)) return 0;
    char q = cmd_peek(r);
    if (q != '"' && q != '\'') {
        size_t s;
        cmd_read_unquoted(r, &s);
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
    while (cmd_can_read(r)) {
        char c = r->s[r->pos++];
        if (esc) {
            if (c != q && c != '\\') {
                r->pos--;
                cmd_err_set(e, (long)r->pos, "parsing.quote.escape", &c, 1, NULL, 0);
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
    cmd_err_set(e, (long)r->pos, "parsing.quote.expected.end", NULL, 0, NULL, 0);
    return -1;
}

/* Brigadier's readInt, readFloat, readDouble (NUM_*): the characters
 * [0-9.-], then Java's parse of them. */
enum num_kind { NUM_INT, NUM_FLOAT, NUM_DOUBLE };

static int read_number(cmd_reader *r, enum num_kind kind, double *out, struct cmd_error *e)
{
    static const char *const keys[3][2] = {{"parsing.int.expected", "parsing.int.invalid"},
                                           {"parsing.float.expected", "parsing.float.invalid"},
                                           {"parsing.double.expected", "parsing.double.invalid"}};
    size_t start = r->pos;
    while (cmd_can_read(r) && number_char(cmd_peek(r))) r->pos++;
    size_t n = r->pos - start;
    const char *kinv = keys[kind][1];
    if (!n) {
        cmd_err_set(e, (long)start, keys[kind][0], NULL, 0, NULL, 0);
        return -1;
    }
    char tmp[64];
    if (n >= sizeof tmp) {
        r->pos = start;
        cmd_err_set(e, (long)start, kinv, r->s + start, n, NULL, 0);
        return -1;
    }
    memcpy(tmp, r->s + start, n);
    tmp[n] = 0;
    char *end;
    if (kind == NUM_INT) {
        long v = strtol(tmp, &end, 10);
        if (*end || v < INT32_MIN || v > INT32_MAX || strchr(tmp, '.')) {
            r->pos = start;
            cmd_err_set(e, (long)start, kinv, tmp, n, NULL, 0);
            return -1;
        }
        *out = (double)v;
    } else {
        double v = strtod(tmp, &end);
        if (kind == NUM_FLOAT) v = (float)v;
        /* Java's parseDouble / parseFloat over [0-9.-]: no hex, no inf/nan, no exponent here */
        if (*end || !isfinite(v)) {
            r->pos = start;
            cmd_err_set(e, (long)start, kinv, tmp, n, NULL, 0);
            return -1;
        }
        *out = v;
    }
    return 0;
}

/* A Brigadier number argument with its bounds: below min or above max, the
 * cursor goes back to its start and the error names the bound and the value
 * (argument.integer.low: "Integer must not be less than %s, found %s"). */
static int read_bounded(const cmd_node *nd, cmd_reader *r, double *out, struct cmd_error *e)
{
    enum num_kind kind = nd->parser == CP_INTEGER ? NUM_INT
                         : nd->parser == CP_FLOAT ? NUM_FLOAT
                                                  : NUM_DOUBLE;
    size_t start = r->pos;
    if (read_number(r, kind, out, e) < 0) return -1;
    bool low = (nd->range & CMD_RANGE_MIN) && *out < nd->min;
    bool big = (nd->range & CMD_RANGE_MAX) && *out > nd->max;
    if (!low && !big) return 0;
    static const char *const keys[3][2] = {{"argument.integer.low", "argument.integer.big"},
                                           {"argument.float.low", "argument.float.big"},
                                           {"argument.double.low", "argument.double.big"}};
    char bound[40], found[40];
    double limit = low ? nd->min : nd->max;
    if (kind == NUM_INT) {
        snprintf(bound, sizeof bound, "%d", (int32_t)limit);
        snprintf(found, sizeof found, "%d", (int32_t)*out);
    } else {
        cmd_java_number(bound, sizeof bound, limit, kind == NUM_FLOAT);
        cmd_java_number(found, sizeof found, *out, kind == NUM_FLOAT);
    }
    r->pos = start;
    cmd_err_set(e, (long)start, keys[kind][low ? 0 : 1], bound, strlen(bound), found,
                strlen(found));
    return -1;
}

/* --- coordinates (vanilla WorldCoordinate / LocalCoordinates) --- */

static int world_coord(cmd_reader *r, bool integer, bool center, double *v, bool *rel,
                       struct cmd_error *e)
{
    if (cmd_peek(r) == '^') {
        cmd_err_set(e, (long)r->pos, "argument.pos.mixed", NULL, 0, NULL, 0);
        return -1;
    }
    if (!cmd_can_read(r)) {
        cmd_err_set(e, (long)r->pos,
                    integer ? "argument.pos.missing.int" : "argument.pos.missing.double", NULL, 0,
                    NULL, 0);
        return -1;
    }
    *rel = cmd_peek(r) == '~';
    if (*rel) r->pos++;
    size_t start = r->pos;
    *v = 0;
    if (cmd_can_read(r) && cmd_peek(r) != ' ' &&
        read_number(r, integer && !*rel ? NUM_INT : NUM_DOUBLE, v, e) < 0)
        return -1;
    bool has_dot = memchr(r->s + start, '.', r->pos - start) != NULL;
    if (!*rel && !integer && center && !has_dot) *v += 0.5;
    return 0;
}

static int local_coord(cmd_reader *r, size_t start, double *v, struct cmd_error *e)
{
    if (!cmd_can_read(r)) {
        cmd_err_set(e, (long)r->pos, "argument.pos.missing.double", NULL, 0, NULL, 0);
        return -1;
    }
    if (cmd_peek(r) != '^') {
        cmd_err_set(e, (long)start, "argument.pos.mixed", NULL, 0, NULL, 0);
        return -1;
    }
    r->pos++;
    *v = 0;
    if (cmd_can_read(r) && cmd_peek(r) != ' ') return read_number(r, NUM_DOUBLE, v, e);
    return 0;
}

/* n coordinates (3: vec3/block_pos, 2: rotation) separated by single spaces. */
static int parse_coords(cmd_reader *r, int n, bool integer, bool center, const char *incomplete,
                        struct cmd_coords *out, struct cmd_error *e)
{
    size_t start = r->pos;
    memset(out, 0, sizeof *out);
    if (n == 3 && cmd_peek(r) == '^') {
        out->local = true;
        for (int i = 0; i < 3; i++) {
            if (local_coord(r, start, &out->v[i], e) < 0) return -1;
            if (i < 2) {
                if (!cmd_can_read(r) || cmd_peek(r) != ' ') {
                    cmd_err_set(e, (long)start, incomplete, NULL, 0, NULL, 0);
                    return -1;
                }
                r->pos++;
            }
        }
        return 0;
    }
    if (n == 2 && !cmd_can_read(r)) {
        cmd_err_set(e, (long)r->pos, incomplete, NULL, 0, NULL, 0);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        bool rel;
        bool c = center && !(n == 3 && i == 1); /* never y */
        if (world_coord(r, integer, c, &out->v[i], &rel, e) < 0) return -1;
        if (rel) out->rel |= (uint8_t)(1u << i);
        if (i < n - 1) {
            if (!cmd_can_read(r) || cmd_peek(r) != ' ') {
                cmd_err_set(e, (long)start, incomplete, NULL, 0, NULL, 0);
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
static bool range_number(cmd_reader *r, double *out, struct cmd_error *e)
{
    size_t s = r->pos;
    while (cmd_can_read(r) && number_char(cmd_peek(r)) &&
           !(cmd_peek(r) == '.' && r->pos + 1 < r->len && r->s[r->pos + 1] == '.'))
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
        cmd_err_set(e, (long)s, "parsing.double.invalid", tmp, n, NULL, 0);
        return false;
    }
    return true;
}

/* MinMaxBounds.Doubles: "5", "..5", "5..", "1..5". */
static int parse_range(cmd_reader *r, double *lo, double *hi, struct cmd_error *e)
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
        cmd_err_set(e, (long)start, "argument.range.empty", NULL, 0, NULL, 0);
        return -1;
    }
    if (*lo > *hi) {
        cmd_err_set(e, (long)start, "argument.range.swapped", NULL, 0, NULL, 0);
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

/* A selector option's value among four words: its index, or -1 after the
 * error `key` (the word as its argument, the cursor at the value). */
static int option_word(cmd_reader *r, size_t vstart, const char *const names[4], const char *key,
                       struct cmd_error *e)
{
    size_t s;
    cmd_read_unquoted(r, &s);
    size_t n = r->pos - s;
    for (int i = 0; i < 4; i++)
        if (strlen(names[i]) == n && memcmp(names[i], r->s + s, n) == 0) return i;
    r->pos = vstart;
    cmd_err_set(e, (long)vstart, key, r->s + s, n, NULL, 0);
    return -1;
}

static int parse_options(cmd_reader *r, struct cmd_selector *sel, struct cmd_error *e)
{
    r->pos++; /* '[' */
    cmd_skip_ws(r);
    while (cmd_can_read(r) && cmd_peek(r) != ']') {
        cmd_skip_ws(r);
        size_t ostart = r->pos;
        char key[32];
        size_t klen;
        if (cmd_read_string(r, key, sizeof key, &klen, e) < 0) return -1;
        static const char *const known[] = {"name",     "limit", "distance",
                                            "gamemode", "sort",  "type"};
        int which = -1;
        for (int i = 0; i < 6; i++)
            if (strlen(known[i]) == klen && strcmp(known[i], key) == 0) which = i;
        if (which < 0) {
            r->pos = ostart;
            cmd_err_set(e, (long)ostart, "argument.entity.options.unknown", key,
                        klen < sizeof key ? klen : sizeof key - 1, NULL, 0);
            return -1;
        }
        cmd_skip_ws(r);
        if (!cmd_can_read(r) || cmd_peek(r) != '=') {
            r->pos = ostart;
            cmd_err_set(e, (long)ostart, "argument.entity.options.valueless", key, klen, NULL, 0);
            return -1;
        }
        r->pos++;
        cmd_skip_ws(r);
        size_t vstart = r->pos;
        bool neg = false;
        if ((which == 0 || which == 3 || which == 5) && cmd_peek(r) == '!') {
            neg = true;
            r->pos++;
        }
        char val[64];
        size_t vlen;
        double d;
        switch (which) {
        case 0: /* name */
            if (cmd_read_string(r, val, sizeof val, &vlen, e) < 0) return -1;
            if (vlen > 16) sel->type_other = !neg; /* no player has such a name */
            memcpy(sel->name, val, vlen < 16 ? vlen : 16);
            sel->name[vlen < 16 ? vlen : 16] = 0;
            sel->has_name = true;
            sel->name_neg = neg;
            break;
        case 1: /* limit */
            if (read_number(r, NUM_INT, &d, e) < 0) return -1;
            if (d < 1) {
                r->pos = vstart;
                cmd_err_set(e, (long)vstart, "argument.entity.options.limit.toosmall", NULL, 0,
                            NULL, 0);
                return -1;
            }
            sel->limit = (int)d;
            break;
        case 2: /* distance */
            if (parse_range(r, &sel->dmin, &sel->dmax, e) < 0) return -1;
            if (sel->dmin < 0 && isfinite(sel->dmin)) {
                r->pos = vstart;
                cmd_err_set(e, (long)vstart, "argument.entity.options.distance.negative", NULL, 0,
                            NULL, 0);
                return -1;
            }
            sel->has_dist = true;
            break;
        case 3: { /* gamemode */
            int gm = option_word(r, vstart, cmd_gamemode_names,
                                 "argument.entity.options.mode.invalid", e);
            if (gm < 0) return -1;
            sel->gamemode = gm;
            sel->gm_neg = neg;
            break;
        }
        case 4: { /* sort */
            static const char *const sorts[4] = {"arbitrary", "nearest", "furthest", "random"};
            int k = option_word(r, vstart, sorts, "argument.entity.options.sort.irreversible", e);
            if (k < 0) return -1;
            sel->sort = k;
            break;
        }
        case 5: { /* type */
            size_t s = r->pos;
            while (cmd_can_read(r) &&
                   (cmd_unquoted_char(cmd_peek(r)) || cmd_peek(r) == ':' || cmd_peek(r) == '/'))
                r->pos++;
            size_t n = r->pos - s;
            bool player = (n == 6 && memcmp(r->s + s, "player", 6) == 0) ||
                          (n == 16 && memcmp(r->s + s, "minecraft:player", 16) == 0);
            if (!n) {
                cmd_err_set(e, (long)s, "argument.id.invalid", NULL, 0, NULL, 0);
                return -1;
            }
            if (player && !neg)
                sel->type_player = true;
            else if (player || !neg)
                sel->type_other = true; /* only players exist here */
            break;
        }
        }
        int more = cmd_list_next(r, "argument.entity.options.unterminated", e);
        if (more < 0) return -1;
        if (more) continue;
    }
    return cmd_list_close(r, "argument.entity.options.unterminated", e);
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
static int parse_selector(cmd_reader *r, struct cmd_selector *sel, bool *includes_entities,
                          struct cmd_error *e)
{
    memset(sel, 0, sizeof *sel);
    sel->gamemode = -1;
    if (cmd_peek(r) == '@') {
        r->pos++;
        if (!cmd_can_read(r)) {
            cmd_err_set(e, (long)r->pos, "argument.entity.selector.missing", NULL, 0, NULL, 0);
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
            cmd_err_set(e, (long)at, "argument.entity.selector.unknown", t, 2, NULL, 0);
            return -1;
        }
        }
        sel->kind = c;
        if (cmd_peek(r) == '[' && parse_options(r, sel, e) < 0) return -1;
        *includes_entities = (c == 'e' && !sel->type_player) || c == 's';
        return 0;
    }
    size_t start = r->pos;
    char name[64];
    size_t n;
    if (cmd_read_string(r, name, sizeof name, &n, e) < 0) return -1;
    if (n <= 36 && parse_uuid_text(name, n, &sel->uuid) == 0) {
        sel->kind = 'u';
        *includes_entities = true;
        return 0;
    }
    if (n == 0 || n > 16) {
        r->pos = start;
        cmd_err_set(e, (long)start, "argument.entity.invalid", NULL, 0, NULL, 0);
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
static int parse_argument(const cmd_node *nd, cmd_reader *r, struct cmd_value *v,
                          struct cmd_error *e)
{
    size_t start = r->pos;
    switch (nd->parser) {
    case CP_STRING:
        if (nd->prop == CMD_STRING_GREEDY) {
            r->pos = r->len;
        } else {
            size_t s;
            cmd_read_unquoted(r, &s);
        }
        return 0;
    case CP_MESSAGE: r->pos = r->len; return 0;
    case CP_BOOL: {
        size_t s;
        cmd_read_unquoted(r, &s);
        size_t n = r->pos - s;
        if (n == 4 && memcmp(r->s + s, "true", 4) == 0)
            v->u.b = true;
        else if (n == 5 && memcmp(r->s + s, "false", 5) == 0)
            v->u.b = false;
        else {
            r->pos = s;
            cmd_err_set(e, (long)s, n ? "parsing.bool.invalid" : "parsing.bool.expected", r->s + s,
                        n, NULL, 0);
            return -1;
        }
        return 0;
    }
    case CP_INTEGER: {
        double d;
        if (read_bounded(nd, r, &d, e) < 0) return -1;
        v->u.i = (int32_t)d;
        return 0;
    }
    case CP_FLOAT:
    case CP_DOUBLE: return read_bounded(nd, r, &v->u.d, e);
    case CP_ENTITY: {
        bool ents;
        if (parse_selector(r, &v->u.sel, &ents, e) < 0) return -1;
        if ((nd->prop & CMD_ENTITY_SINGLE) && selector_many(&v->u.sel)) {
            cmd_err_set(e, 0,
                        nd->prop & CMD_ENTITY_PLAYERS ? "argument.player.toomany"
                                                      : "argument.entity.toomany",
                        NULL, 0, NULL, 0);
            return -1;
        }
        if ((nd->prop & CMD_ENTITY_PLAYERS) && ents && v->u.sel.kind != 's') {
            cmd_err_set(e, 0, "argument.player.entities", NULL, 0, NULL, 0);
            return -1;
        }
        return 0;
    }
    case CP_GAME_PROFILE: {
        if (cmd_peek(r) == '@') {
            bool ents;
            if (parse_selector(r, &v->u.sel, &ents, e) < 0) return -1;
            if (ents) {
                cmd_err_set(e, -1, "argument.player.entities", NULL, 0, NULL, 0);
                return -1;
            }
            return 0;
        }
        memset(&v->u.sel, 0, sizeof v->u.sel);
        v->u.sel.gamemode = -1;
        while (cmd_can_read(r) && cmd_peek(r) != ' ') r->pos++;
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
    case CP_COLUMN_POS:
    case CP_VEC2: {
        bool column = nd->parser == CP_COLUMN_POS;
        if (parse_coords(r, 2, column, !column, "argument.pos2d.incomplete", &v->u.pos, e) < 0)
            return -1;
        /* x, then z; y is relative 0 (vanilla's WorldCoordinates for two) */
        struct cmd_coords *c = &v->u.pos;
        c->v[2] = c->v[1];
        c->v[1] = 0;
        c->rel = (uint8_t)((c->rel & 1) | (c->rel & 2) << 1 | 2);
        return 0;
    }
    case CP_BLOCK_STATE:
    case CP_BLOCK_PREDICATE:
        return cmd_args_block(r, nd->parser == CP_BLOCK_PREDICATE, &v->u.block, e);
    case CP_ITEM_STACK:
    case CP_ITEM_PREDICATE: return cmd_args_item(r, nd->parser == CP_ITEM_PREDICATE, &v->u.item, e);
    case CP_COMPONENT: return cmd_args_component(r, e);
    case CP_DIMENSION:
    case CP_RESOURCE: return cmd_args_resource(r, e);
    case CP_NBT: r->pos = r->len; return 0; /* the last argument; its executor parses it */
    case CP_ANGLE: {
        memset(&v->u.pos, 0, sizeof v->u.pos);
        if (!cmd_can_read(r)) {
            cmd_err_set(e, (long)r->pos, "argument.angle.incomplete", NULL, 0, NULL, 0);
            return -1;
        }
        if (cmd_peek(r) == '~') {
            v->u.pos.rel = 1;
            r->pos++;
        }
        if (cmd_can_read(r) && cmd_peek(r) != ' ' &&
            read_number(r, NUM_FLOAT, &v->u.pos.v[0], e) < 0) /* AngleArgument: readFloat */
            return -1;
        return 0;
    }
    case CP_ENTITY_ANCHOR: {
        size_t s;
        cmd_read_unquoted(r, &s);
        size_t n = r->pos - s;
        if (n == 4 && memcmp(r->s + s, "feet", 4) == 0)
            v->u.anchor = 0;
        else if (n == 4 && memcmp(r->s + s, "eyes", 4) == 0)
            v->u.anchor = 1;
        else {
            r->pos = s;
            cmd_err_set(e, (long)s, "argument.anchor.invalid", r->s + s, n, NULL, 0);
            return -1;
        }
        return 0;
    }
    case CP_GAMEMODE: {
        size_t s;
        cmd_read_unquoted(r, &s);
        int gm = gamemode_of(r->s + s, r->pos - s);
        if (gm < 0) {
            cmd_err_set(e, (long)r->pos, "argument.gamemode.invalid", r->s + s, r->pos - s, NULL,
                        0);
            return -1;
        }
        v->u.gamemode = gm;
        return 0;
    }
    case CP_TIME: {
        double f;
        if (read_number(r, NUM_FLOAT, &f, e) < 0) return -1;
        size_t s;
        cmd_read_unquoted(r, &s);
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
            cmd_err_set(e, -1, "argument.time.invalid_unit", NULL, 0, NULL, 0);
            return -1;
        }
        double ticks = floor((double)(float)(f * unit) + 0.5); /* Math.round(float) */
        if (ticks < nd->prop) {
            char a0[16], a1[32];
            snprintf(a0, sizeof a0, "%d", nd->prop);
            snprintf(a1, sizeof a1, "%.0f", ticks);
            cmd_err_set(e, -1, "argument.time.tick_count_too_low", a0, strlen(a0), a1, strlen(a1));
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
    size_t reader;        /* where parsing stopped */
    int nexc;             /* errors of the children tried there */
    struct cmd_error exc; /* the first of them */
    bool range_empty;     /* nothing matched at all */
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
    struct cmd_error first = {0};
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
        cmd_reader r = {ps->line, ps->len, pos};
        struct cmd_value v;
        struct cmd_error e = {0};
        memset(&v, 0, sizeof v);
        if (ch->kind == CN_LITERAL)
            r.pos = wend;
        else if (parse_argument(ch, &r, &v, &e) < 0) {
            if (!nerr++) first = e;
            continue;
        }
        if (r.pos < ps->len && ps->line[r.pos] != ' ') {
            cmd_err_set(&e, (long)r.pos, "command.expected.separator", NULL, 0, NULL, 0);
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
    cmd_reader r = {line, len, *pos};
    bool ents;
    struct cmd_error e = {0};
    if (parse_selector(&r, sel, &ents, &e) < 0) return -1;
    *pos = r.pos;
    return 0;
}

int cmd_read_argument(const cmd_node *nd, const char *line, size_t len, size_t *pos,
                      struct cmd_value *v)
{
    cmd_reader r = {line, len, *pos};
    struct cmd_error e = {0};
    if (parse_argument(nd, &r, v, &e) < 0) return -1;
    *pos = r.pos;
    return 0;
}
