/*
 * cmd_args.c — Minecraft's own argument types for the command parser (see
 * cmd_reader.h), read as vanilla 1.20.1 reads them, and Java's number text
 * for messages:
 *
 *   resource location  ResourceLocation.read: [a-z0-9_.-:/]*, namespace
 *                      minecraft when left out (dimension arguments)
 *   block_state        BlockStateParser: id, then [name=value,...]
 *   block_predicate    the same, properties only tested when given; #tag
 *   item_stack         ItemParser: id
 *   item_predicate     the same; #tag
 *   component          a JSON text component (Component.Serializer)
 *
 * What mcserv does not have is refused with a message that says so, never
 * accepted and dropped: block entity and item data ({...}: mcserv keeps no
 * item or block entity NBT) get mcserv's own message (the key is the
 * English sentence itself, which is also what a client shows for an unknown
 * key); tags get vanilla's "Unknown block tag" / "Unknown item tag" (mcserv
 * sends clients no tags, so they report the same). Text components are
 * strict JSON (jansson) where vanilla's Gson is lenient, except for a bare
 * word, which is read as vanilla reads it (a literal text).
 *
 * Invariants: every read stays within the line (cmd_reader.h 1); property
 * and value names are cut to fixed buffers; a text component is at most
 * the line (CMD_MAX_LEN bytes) and is only validated here, never kept.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "game/cmd_reader.h"
#include "world/anvil.h"

static const char no_block_data[] = "Block entity data ({...}) is not supported by this server yet";
static const char no_item_data[] = "Item data ({...}) is not supported by this server yet";

/* ------------------------------------------------------ resource locations */

static bool resource_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || c == '/' ||
           c == '.' || c == '-';
}

/*
 * ResourceLocation.read: the id as "namespace:path" text into out (cut to
 * cap), the path's start in *path. A second ':' (in the path) is invalid.
 */
static int read_resource(cmd_reader *r, char *out, size_t cap, size_t *path, struct cmd_error *e)
{
    size_t start = r->pos;
    while (cmd_can_read(r) && resource_char(cmd_peek(r))) r->pos++;
    const char *s = r->s + start;
    size_t n = r->pos - start;
    const char *colon = memchr(s, ':', n);
    const char *ns = "minecraft";
    size_t nsl = 9, off = 0;
    if (colon) {
        off = (size_t)(colon - s) + 1;
        if (colon > s) ns = s, nsl = (size_t)(colon - s);
        if (memchr(colon + 1, ':', n - off) || memchr(ns, '/', nsl)) {
            r->pos = start;
            cmd_err_set(e, (long)start, "argument.id.invalid", NULL, 0, NULL, 0);
            return -1;
        }
    }
    snprintf(out, cap, "%.*s:%.*s", (int)nsl, ns, (int)(n - off), s + off);
    *path = nsl + 1;
    return 0;
}

int cmd_args_resource(cmd_reader *r, struct cmd_error *e)
{
    char id[128];
    size_t path;
    return read_resource(r, id, sizeof id, &path, e);
}

/* --------------------------------------------------------------- blocks */

static const struct block_prop *prop_of(const struct block_info *b, int i)
{
    return &block_props[block_prop_index[b->prop_first + i]];
}

/* The block's property called name, or -1. */
static int find_prop(const struct block_info *b, const char *name)
{
    for (int i = 0; i < b->prop_count; i++)
        if (strcmp(block_prop_names[prop_of(b, i)->name], name) == 0) return i;
    return -1;
}

static int find_value(const struct block_prop *p, const char *value)
{
    for (int i = 0; i < p->count; i++)
        if (strcmp(block_prop_values[p->first_value + i], value) == 0) return i;
    return -1;
}

/* The state of block b with the given property values over its default's. */
static uint16_t state_with(const struct block_info *b, const struct cmd_block *blk)
{
    int digits[CMD_BLOCK_PROPS * 2];
    int np = b->prop_count < (int)(sizeof digits / sizeof digits[0]) ? b->prop_count : 0;
    uint32_t rest = (uint32_t)(b->default_state - b->min_state);
    for (int i = np - 1; i >= 0; i--) { /* the last property varies fastest */
        uint32_t c = prop_of(b, i)->count;
        digits[i] = (int)(rest % c);
        rest /= c;
    }
    for (int k = 0; k < blk->nprops; k++)
        if (blk->prop[k] < np) digits[blk->prop[k]] = blk->value[k];
    uint32_t id = 0;
    for (int i = 0; i < np; i++) id = id * prop_of(b, i)->count + (uint32_t)digits[i];
    return (uint16_t)(b->min_state + id);
}

bool cmd_block_matches(const struct cmd_block *pred, uint16_t state)
{
    if (block_of_state[state] != pred->block) return false;
    const struct block_info *b = &block_info[pred->block];
    uint32_t rest = (uint32_t)(state - b->min_state);
    int digits[CMD_BLOCK_PROPS * 2];
    int np = b->prop_count < (int)(sizeof digits / sizeof digits[0]) ? b->prop_count : 0;
    for (int i = np - 1; i >= 0; i--) {
        uint32_t c = prop_of(b, i)->count;
        digits[i] = (int)(rest % c);
        rest /= c;
    }
    for (int k = 0; k < pred->nprops; k++)
        if (pred->prop[k] < np && digits[pred->prop[k]] != pred->value[k]) return false;
    return true;
}

/* BlockStateParser.readProperties ([...] after a block id). */
static int read_properties(cmd_reader *r, const struct block_info *b, const char *id,
                           struct cmd_block *out, struct cmd_error *e)
{
    r->pos++; /* '[' */
    cmd_skip_ws(r);
    while (cmd_can_read(r) && cmd_peek(r) != ']') {
        cmd_skip_ws(r);
        size_t at = r->pos, n;
        char name[64], value[64];
        if (cmd_read_string(r, name, sizeof name, &n, e) < 0) return -1;
        int p = find_prop(b, name);
        if (p < 0) {
            r->pos = at;
            cmd_err_set(e, (long)at, "argument.block.property.unknown", id, strlen(id), name,
                        strlen(name));
            return -1;
        }
        for (int k = 0; k < out->nprops; k++)
            if (out->prop[k] == p) {
                r->pos = at;
                cmd_err_set(e, (long)at, "argument.block.property.duplicate", name, strlen(name),
                            id, strlen(id));
                return -1;
            }
        cmd_skip_ws(r);
        if (!cmd_can_read(r) || cmd_peek(r) != '=') {
            /* vanilla passes (id, name) to "Expected value for property '%s' on block %s" */
            cmd_err_set(e, (long)r->pos, "argument.block.property.novalue", id, strlen(id), name,
                        strlen(name));
            return -1;
        }
        r->pos++;
        cmd_skip_ws(r);
        size_t vat = r->pos;
        if (cmd_read_string(r, value, sizeof value, &n, e) < 0) return -1;
        int v = find_value(prop_of(b, p), value);
        if (v < 0 || out->nprops >= CMD_BLOCK_PROPS) {
            r->pos = vat;
            cmd_err_set(e, (long)vat, "argument.block.property.invalid", id, strlen(id), value,
                        strlen(value));
            snprintf(e->a[2], sizeof e->a[2], "%s", name);
            e->n = 3;
            return -1;
        }
        out->prop[out->nprops] = (uint8_t)p;
        out->value[out->nprops++] = (uint8_t)v;
        int more = cmd_list_next(r, "argument.block.property.unclosed", e);
        if (more < 0) return -1;
        if (!more) break;
    }
    return cmd_list_close(r, "argument.block.property.unclosed", e);
}

/* How a registry's ids read (blocks, items): vanilla's keys for each error. */
struct registry {
    const char *tag_disallowed, *tag_unknown, *unknown, *no_data;
    int (*lookup)(const char *name, size_t len); /* -1 if unknown */
};

/* BlockStateParser.readBlock / ItemParser.readItem (a #tag: vanilla's errors,
 * since mcserv knows no tags): the lookup's value, its id text in id[128];
 * -1 after the error. */
static int read_id(cmd_reader *r, bool predicate, const struct registry *reg, char id[128],
                   struct cmd_error *e)
{
    size_t start = r->pos, path;
    if (cmd_peek(r) == '#') {
        if (!predicate) {
            cmd_err_set(e, (long)r->pos, reg->tag_disallowed, NULL, 0, NULL, 0);
            return -1;
        }
        r->pos++;
        if (read_resource(r, id, 128, &path, e) < 0) return -1;
        r->pos = start;
        cmd_err_set(e, (long)start, reg->tag_unknown, id, strlen(id), NULL, 0);
        return -1;
    }
    if (read_resource(r, id, 128, &path, e) < 0) return -1;
    int v = strncmp(id, "minecraft:", 10) == 0 ? reg->lookup(id, strlen(id)) : -1;
    if (v < 0) {
        r->pos = start;
        cmd_err_set(e, (long)start, reg->unknown, id, strlen(id), NULL, 0);
    }
    return v;
}

/* {...} after an id: data mcserv does not keep; refused. */
static int no_data(cmd_reader *r, const struct registry *reg, struct cmd_error *e)
{
    if (cmd_peek(r) != '{') return 0;
    cmd_err_set(e, (long)r->pos, reg->no_data, NULL, 0, NULL, 0);
    return -1;
}

static const struct registry blocks = {"argument.block.tag.disallowed",
                                       "arguments.block.tag.unknown", "argument.block.id.invalid",
                                       no_block_data, anvil_block_by_name};
static const struct registry items = {"argument.item.tag.disallowed", "arguments.item.tag.unknown",
                                      "argument.item.id.invalid", no_item_data, anvil_item_by_name};

int cmd_args_block(cmd_reader *r, bool predicate, struct cmd_block *out, struct cmd_error *e)
{
    char id[128];
    memset(out, 0, sizeof *out);
    int state = read_id(r, predicate, &blocks, id, e);
    if (state < 0) return -1;
    out->block = block_of_state[state];
    const struct block_info *b = &block_info[out->block];
    if (cmd_peek(r) == '[' && read_properties(r, b, id, out, e) < 0) return -1;
    out->state = state_with(b, out);
    return no_data(r, &blocks, e);
}

/* ----------------------------------------------------------------- items */

int cmd_args_item(cmd_reader *r, bool predicate, struct cmd_item *out, struct cmd_error *e)
{
    char id[128];
    memset(out, 0, sizeof *out);
    int item = read_id(r, predicate, &items, id, e);
    if (item < 0) return -1;
    out->item = (uint16_t)item;
    return no_data(r, &items, e);
}

/* ------------------------------------------------------- text components */

/* Component.Serializer.deserialize's checks; why gets vanilla's message. */
static bool component_ok(const json_t *j, bool top, char *why, size_t cap)
{
    if (json_is_string(j) || json_is_number(j) || json_is_boolean(j)) return true;
    if (json_is_null(j)) {
        snprintf(why, cap, "%s", top ? "empty" : "Don't know how to turn null into a Component");
        return false;
    }
    if (json_is_array(j)) {
        if (!json_array_size(j)) {
            snprintf(why, cap, "Unexpected empty array of components");
            return false;
        }
        size_t i;
        const json_t *v;
        json_array_foreach(j, i, v) if (!component_ok(v, false, why, cap)) return false;
        return true;
    }
    const json_t *with = json_object_get(j, "with"), *extra = json_object_get(j, "extra");
    bool content = json_object_get(j, "text") || json_is_string(json_object_get(j, "translate")) ||
                   json_is_object(json_object_get(j, "score")) ||
                   json_is_string(json_object_get(j, "selector")) ||
                   json_is_string(json_object_get(j, "keybind")) ||
                   json_is_string(json_object_get(j, "nbt"));
    if (!content) {
        char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
        snprintf(why, cap, "Don't know how to turn %s into a Component", text ? text : "{}");
        free(text);
        return false;
    }
    if (with) {
        size_t i;
        const json_t *v;
        if (!json_is_array(with)) {
            snprintf(why, cap, "Expected with to be a JsonArray");
            return false;
        }
        json_array_foreach(with, i, v) if (!component_ok(v, false, why, cap)) return false;
    }
    if (extra) {
        if (!json_is_array(extra)) {
            snprintf(why, cap, "Expected extra to be a JsonArray");
            return false;
        }
        if (!json_array_size(extra)) {
            snprintf(why, cap, "Unexpected empty array of components");
            return false;
        }
        if (!component_ok(extra, false, why, cap)) return false;
    }
    return true;
}

/* Gson's lenient literal characters: a bare word ends at these. */
static bool literal_end(char c)
{
    return strchr("/\\;#={}[]:, \t\f\r\n", c) != NULL;
}

int cmd_args_component(cmd_reader *r, struct cmd_error *e)
{
    size_t start = r->pos;
    char why[128] = "";
    char c = cmd_peek(r);
    if (!cmd_can_read(r)) {
        cmd_err_set(e, (long)start, "argument.component.invalid", "empty", 5, NULL, 0);
        return -1;
    }
    if (c != '{' && c != '[' && c != '"') {
        /* a bare word: vanilla's lenient reader takes it as a string (null: nothing) */
        while (cmd_can_read(r) && !literal_end(cmd_peek(r))) r->pos++;
        size_t n = r->pos - start;
        if (n == 0 || (n == 4 && memcmp(r->s + start, "null", 4) == 0)) {
            r->pos = start;
            cmd_err_set(e, (long)start, "argument.component.invalid", "empty", 5, NULL, 0);
            return -1;
        }
        return 0;
    }
    json_error_t je;
    json_t *j =
        json_loadb(r->s + start, r->len - start, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &je);
    if (!j) {
        snprintf(why, sizeof why, "%.100s at position %d", je.text, je.position);
        cmd_err_set(e, (long)start, "argument.component.invalid", why, strlen(why), NULL, 0);
        return -1;
    }
    bool ok = component_ok(j, true, why, sizeof why);
    json_decref(j);
    if (!ok) {
        cmd_err_set(e, (long)start, "argument.component.invalid", why, strlen(why), NULL, 0);
        return -1;
    }
    size_t used = (size_t)je.position;
    while (used && (r->s[start + used - 1] == ' ')) used--; /* a scalar reads one past itself */
    r->pos = start + used;
    return 0;
}

/* ------------------------------------------------------- Java's numbers */

/* The fewest significant digits of v that read back as v (Java's
 * FloatingDecimal): digits[0..nd) and the decimal exponent of the first. */
static size_t shortest_digits(double v, bool as_float, char digits[24], int *exp)
{
    char sci[40];
    int maxp = as_float ? 9 : 17;
    for (int p = 1; p <= maxp; p++) {
        snprintf(sci, sizeof sci, "%.*e", p - 1, fabs(v));
        double back = strtod(sci, NULL);
        if (as_float ? (float)back == (float)fabs(v) : back == fabs(v)) break;
    }
    size_t nd = 0;
    const char *p = sci;
    for (; *p && *p != 'e'; p++)
        if (*p != '.' && nd < 23) digits[nd++] = *p;
    digits[nd] = 0;
    *exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    return nd;
}

void cmd_java_fixed(char *out, size_t cap, double v, int prec)
{
    if (!isfinite(v) || fabs(v) >= 1e15 || prec < 0 || prec > 6) {
        snprintf(out, cap, "%.*f", prec < 0 ? 0 : prec > 6 ? 6 : prec, v);
        return;
    }
    char d[24], num[48];
    int exp = 0;
    size_t nd = v == 0 ? (d[0] = '0', d[1] = 0, 1) : shortest_digits(v, false, d, &exp);
    /* the digits of |v| with `prec` decimals, rounded half up on the shortest digits */
    int point = exp + 1;     /* digits before the decimal point (may be <= 0) */
    int keep = point + prec; /* digits of d kept */
    int len = (point > 0 ? point : 1) + prec;
    char fixed[48];
    memset(fixed, '0', (size_t)len);
    int lead = point > 0 ? 0 : 1 - point; /* zeros before d's first digit */
    for (int i = 0; i < keep && i < (int)nd; i++)
        if (lead + i < len) fixed[lead + i] = d[i];
    bool up = keep >= 0 && keep < (int)nd && d[keep] >= '5';
    for (int i = len - 1; up && i >= 0; i--) {
        if (fixed[i] == '9') {
            fixed[i] = '0';
        } else {
            fixed[i]++;
            up = false;
        }
    }
    int ip = len - prec, k = 0;
    bool neg = signbit(v) && v != 0;
    if (neg) num[k++] = '-';
    if (up) num[k++] = '1'; /* a carry out of the first digit */
    memcpy(num + k, fixed, (size_t)ip);
    k += ip;
    if (prec) {
        num[k++] = '.';
        memcpy(num + k, fixed + ip, (size_t)prec);
        k += prec;
    }
    num[k] = 0;
    snprintf(out, cap, "%s", num);
}

void cmd_java_number(char *out, size_t cap, double v, bool as_float)
{
    if (v == 0) {
        snprintf(out, cap, "%s", signbit(v) ? "-0.0" : "0.0");
        return;
    }
    if (!isfinite(v)) {
        snprintf(out, cap, "%s", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    bool neg = v < 0;
    char digits[24];
    int exp;
    size_t nd = shortest_digits(v, as_float, digits, &exp);
    char body[64];
    if (exp >= -3 && exp < 7) {
        if (exp >= 0) {
            char ip[16], fp[24];
            size_t k = 0;
            for (int i = 0; i <= exp; i++) ip[k++] = (size_t)i < nd ? digits[i] : '0';
            ip[k] = 0;
            snprintf(fp, sizeof fp, "%s", (size_t)exp + 1 < nd ? digits + exp + 1 : "0");
            snprintf(body, sizeof body, "%s.%s", ip, fp);
        } else {
            snprintf(body, sizeof body, "0.%.*s%s", -exp - 1, "000", digits);
        }
    } else {
        snprintf(body, sizeof body, "%c.%sE%d", digits[0], nd > 1 ? digits + 1 : "0", exp);
    }
    snprintf(out, cap, "%s%s", neg ? "-" : "", body);
}
