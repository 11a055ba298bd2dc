/*
 * cmd_mobs.c — the commands that act on mobs (issue 15): `summon` and the
 * mob half of `kill` (cmd_builtin.c's ex_kill asks cmd_mobs_select for the
 * mobs an @e selector picks).
 *
 * summon <entity> [<pos>] [<nbt>] (vanilla SummonCommand): the type is a
 * resource location ("cow", "minecraft:cow"); unknown: argument.resource.
 * not_found; a type mcserv does not simulate yet: commands.summon.failed
 * (and a log line naming it). The position defaults to the source's and
 * must be inside vanilla's spawnable bounds (|x|, |z| < 30,000,000, y within
 * ±20,000,000: commands.summon.invalidPosition). The NBT is stringified NBT
 * (mob_rules.h) read with the same code as saved records; the subset kept:
 * CustomName, NoAI, Health, Rotation, Motion, OnGround, FallDistance, Fire,
 * PersistenceRequired, UUID, and Color / Sheared for sheep; the position
 * argument wins over Pos, as in vanilla. Malformed NBT: vanilla's key
 * (argument.nbt.*, parsing.*).
 *
 * Selectors: @e with type=<mob>, type=!<type>, distance, limit and
 * sort=nearest pick mobs as well as players (the parser keeps only
 * "players or not"; the type is read again from the selector's text).
 *
 * Invariant: nothing is spawned unless every argument was valid.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "data/entity_table.h"
#include "game/cmd_internal.h"
#include "game/mobs.h"

#define SPAWN_XZ_MAX 30000000.0 /* Level.isInSpawnableBounds */
#define SPAWN_Y_MAX  20000000.0

static int type_named(const char *s, size_t n)
{
    if (n > 10 && memcmp(s, "minecraft:", 10) == 0) s += 10, n -= 10;
    for (int t = 0; t < ENTITY_TYPE_COUNT; t++)
        if (strlen(entity_types[t].name) == n && memcmp(entity_types[t].name, s, n) == 0) return t;
    return -1;
}

/* A failure whose key and arguments are "key|arg|arg" (mob_snbt_parse). */
static void fail_split(cmd_ctx *x, char *msg)
{
    chat_arg a[2];
    size_t n = 0;
    char *bar = strchr(msg, '|');
    while (bar && n < 2) {
        *bar = 0;
        char *next = strchr(bar + 1, '|');
        if (next) *next = 0;
        a[n++] = chat_text(bar + 1);
        bar = next;
    }
    cmd_failure(x, msg, a, n);
}

int cmd_mobs_summon(cmd_ctx *x)
{
    const struct cmd_value *ev = cmd_arg(x->ps, "entity");
    if (!ev) return -1;
    const char *name = x->ps->line + ev->start;
    size_t nlen = ev->end - ev->start;
    int type = type_named(name, nlen);
    if (type < 0) {
        char id[140];
        snprintf(id, sizeof id, "%.*s", (int)(nlen > 128 ? 128 : nlen), name);
        chat_arg a[2] = {chat_text(id), chat_text("minecraft:entity_type")};
        cmd_failure(x, "argument.resource.not_found", a, 2);
        return -1;
    }
    double pos[3] = {x->src->x, x->src->y, x->src->z};
    const struct cmd_value *pv = cmd_arg(x->ps, "pos");
    if (pv) cmd_coords_abs(x->src, &pv->u.pos, pos);
    if (!(fabs(pos[0]) < SPAWN_XZ_MAX && fabs(pos[2]) < SPAWN_XZ_MAX &&
          fabs(pos[1]) < SPAWN_Y_MAX)) {
        cmd_failure0(x, "commands.summon.invalidPosition");
        return -1;
    }
    struct mob_record r;
    mob_record_init(&r);
    const struct cmd_value *nv = cmd_arg(x->ps, "nbt");
    if (nv) {
        buf_t b;
        buf_init(&b, 1u << 20);
        char err[160];
        int rc = mob_snbt_parse(x->ps->line + nv->start, nv->end - nv->start, &b, err, sizeof err);
        nbt_doc doc = {0};
        if (rc == 0 && nbt_parse(b.data, b.len, true, &nbt_limits_network, &doc) < 0) {
            snprintf(err, sizeof err, "argument.nbt.expected.value");
            rc = -1;
        }
        char why[96];
        if (rc == 0 && mob_record_read(doc.root, &r, false, why, sizeof why) < 0) {
            snprintf(err, sizeof err, "commands.summon.failed");
            rc = -1;
        }
        nbt_doc_free(&doc);
        buf_free(&b);
        if (rc < 0) {
            fail_split(x, err);
            return -1;
        }
    }
    r.type = type;
    memcpy(r.pos, pos, sizeof pos);
    if (!mobs_supported(type)) {
        log_info("summon: mcserv does not simulate %s yet", entity_types[type].name);
        cmd_failure0(x, "commands.summon.failed");
        return -1;
    }
    char err[96];
    int32_t eid = mobs_spawn(&r, err, sizeof err);
    if (eid < 0) {
        log_warn("summon %s: %s", entity_types[type].name, err);
        cmd_failure0(x, "commands.summon.failed");
        return -1;
    }
    char shown[MOB_NAME_MAX];
    mobs_display_name(mobs_by_eid(eid), shown, sizeof shown);
    chat_arg a = chat_text(shown);
    cmd_success(x, true, "commands.summon.success", &a, 1);
    return 0;
}

/* The type= option of the selector text line[start, end): its type id
 * (-1 none, -2 unknown) and whether it is negated. */
static int selector_type(const char *s, size_t n, bool *neg, char *bad, size_t bad_cap)
{
    *neg = false;
    const char *open = memchr(s, '[', n);
    if (!open) return -1;
    const char *end = s + n;
    for (const char *p = open + 1; p + 5 <= end; p++) {
        if (memcmp(p, "type", 4) != 0 || (p[-1] != '[' && p[-1] != ',' && p[-1] != ' ')) continue;
        const char *q = p + 4;
        while (q < end && *q == ' ') q++;
        if (q >= end || *q != '=') continue;
        q++;
        while (q < end && *q == ' ') q++;
        if (q < end && *q == '!') *neg = true, q++;
        const char *v = q;
        while (q < end && *q != ',' && *q != ']' && *q != ' ') q++;
        int t = type_named(v, (size_t)(q - v));
        if (t < 0) snprintf(bad, bad_cap, "%.*s", (int)(q - v > 64 ? 64 : q - v), v);
        return t < 0 ? -2 : t;
    }
    return -1;
}

size_t cmd_mobs_select(cmd_ctx *x, const struct cmd_value *v, int32_t *slots, size_t cap, int *err)
{
    *err = 0;
    const struct cmd_selector *sel = &v->u.sel;
    if (sel->kind != 'e' || sel->type_player) return 0;
    bool neg;
    char bad[80];
    int type = selector_type(x->ps->line + v->start, v->end - v->start, &neg, bad, sizeof bad);
    if (type == -2) {
        chat_arg a = chat_text(bad);
        cmd_failure(x, "argument.entity.options.type.invalid", &a, 1);
        *err = -1;
        return 0;
    }
    struct mob_filter f = {
        .type = type,
        .type_neg = neg,
        .x = x->src->x,
        .y = x->src->y,
        .z = x->src->z,
        .dmin = sel->has_dist ? sel->dmin : 0,
        .dmax = sel->has_dist ? sel->dmax : -1,
        .limit = sel->limit > 0 ? (size_t)sel->limit : 0,
        .nearest = sel->sort == 1,
    };
    return mobs_select(&f, slots, cap);
}
