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
 * summon item: an item entity (game/items.c) from the NBT's Item compound
 * (id, Count 1..127), PickupDelay (ticks; 32767 never, as vanilla) and
 * Motion; no speed unless Motion says (vanilla's ItemEntity(EntityType,
 * Level) constructor). Without an Item, or with an item mcserv does not
 * know, commands.summon.failed: vanilla would spawn an empty stack that
 * vanishes on its first tick.
 *
 * summonmany <entity> <count> <radius> [<pos>] [<nbt>] (mcserv's, for the
 * "entity explosion" and mcbench's explosion scenario): <count> (1..10,000)
 * mobs of one type in this tick, each at a uniform random spot of the disc
 * of <radius> blocks around <pos>, its feet on the nearest ground within 8
 * blocks of <pos>'s height, each through the same spawn path (and cap) as
 * summon; the reply says how many were made and why any were refused.
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
#include "data/entities.h"
#include "data/entity_table.h"
#include "game/cmd_internal.h"
#include "game/item_names.h"
#include "game/items.h"
#include "game/mob_rules.h"
#include "game/mobs.h"
#include "world/anvil.h"

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

/* The NBT argument's text as a parsed document over the binary NBT in b
 * (the caller frees both: the document points into b); false after
 * reporting the failure. No NBT argument: an empty document. */
static bool summon_nbt(cmd_ctx *x, buf_t *b, nbt_doc *doc)
{
    *doc = (nbt_doc){0};
    const struct cmd_value *nv = cmd_arg(x->ps, "nbt");
    if (!nv) return true;
    char err[160];
    int rc = mob_snbt_parse(x->ps->line + nv->start, nv->end - nv->start, b, err, sizeof err);
    if (rc == 0 && nbt_parse(b->data, b->len, true, &nbt_limits_network, doc) < 0) {
        snprintf(err, sizeof err, "argument.nbt.expected.value");
        rc = -1;
    }
    if (rc < 0) fail_split(x, err);
    return rc == 0;
}

static int summon_item(cmd_ctx *x, const double pos[3])
{
    nbt_doc doc;
    buf_t b;
    buf_init(&b, 1u << 20);
    if (!summon_nbt(x, &b, &doc)) {
        buf_free(&b);
        return -1;
    }
    const nbt_node *it = doc.root ? nbt_get(doc.root, "Item", NBT_COMPOUND) : NULL;
    const nbt_node *id = it ? nbt_get(it, "id", NBT_STRING) : NULL;
    int64_t count = it ? anvil_nbt_int(nbt_get(it, "Count", NBT_END), 1) : 0;
    int item = id ? anvil_item_by_name((const char *)id->v.arr.p, id->v.arr.n) : -1;
    int64_t delay = doc.root ? anvil_nbt_int(nbt_get(doc.root, "PickupDelay", NBT_END), 0) : 0;
    double v[3] = {0, 0, 0};
    const nbt_node *motion = doc.root ? nbt_get(doc.root, "Motion", NBT_LIST) : NULL;
    if (motion && motion->elem_type == NBT_DOUBLE) {
        int k = 0;
        for (const nbt_node *m = motion->v.kids.first; m && k < 3; m = m->next, k++)
            if (fabs(m->v.f) <= 10) v[k] = m->v.f; /* Entity.load: |motion| > 10 is zeroed */
    }
    nbt_doc_free(&doc);
    buf_free(&b);
    if (item <= 0 || count <= 0 || count > 127 || delay < 0 || delay > 32767) {
        cmd_failure0(x, "commands.summon.failed");
        return -1;
    }
    int32_t eid =
        items_spawn(pos[0], pos[1], pos[2], v[0], v[1], v[2], item, (int)count, (int)delay);
    if (eid < 0) {
        cmd_failure0(x, "commands.summon.failed");
        return -1;
    }
    char key[96], json[128]; /* ItemEntity.getName: the stack's name */
    item_key(item, key, sizeof key);
    int n = snprintf(json, sizeof json, "{\"translate\":\"%s\"}", key);
    chat_arg a = {CA_JSON, json, (size_t)n, item_english(item), NULL};
    cmd_success(x, true, "commands.summon.success", &a, 1);
    return 0;
}

/* summon's and summonmany's type and position (the source's by default).
 * 0, or -1 after the error. */
static int read_target(cmd_ctx *x, int *type, double pos[3])
{
    const struct cmd_value *ev = cmd_arg(x->ps, "entity");
    if (!ev) return -1;
    const char *name = x->ps->line + ev->start;
    size_t nlen = ev->end - ev->start;
    *type = type_named(name, nlen);
    if (*type < 0) {
        char id[140];
        snprintf(id, sizeof id, "%.*s", (int)(nlen > 128 ? 128 : nlen), name);
        chat_arg a[2] = {chat_text(id), chat_text("minecraft:entity_type")};
        cmd_failure(x, "argument.resource.not_found", a, 2);
        return -1;
    }
    pos[0] = x->src->x, pos[1] = x->src->y, pos[2] = x->src->z;
    const struct cmd_value *pv = cmd_arg(x->ps, "pos");
    if (pv) cmd_coords_abs(x->src, &pv->u.pos, pos);
    if (!(fabs(pos[0]) < SPAWN_XZ_MAX && fabs(pos[2]) < SPAWN_XZ_MAX &&
          fabs(pos[1]) < SPAWN_Y_MAX)) {
        cmd_failure0(x, "commands.summon.invalidPosition");
        return -1;
    }
    return 0;
}

/* A mob of `type` at pos with the NBT argument read into r. 0, or -1
 * after the error (bad NBT, a type mcserv does not simulate). */
static int read_mob(cmd_ctx *x, int type, const double pos[3], struct mob_record *r)
{
    mob_record_init(r);
    if (cmd_arg(x->ps, "nbt")) {
        buf_t b;
        buf_init(&b, 1u << 20);
        nbt_doc doc;
        bool ok = summon_nbt(x, &b, &doc);
        char why[96];
        if (ok && mob_record_read(doc.root, r, false, why, sizeof why) < 0) {
            cmd_failure0(x, "commands.summon.failed");
            ok = false;
        }
        nbt_doc_free(&doc);
        buf_free(&b);
        if (!ok) return -1;
    }
    r->type = type;
    memcpy(r->pos, pos, 3 * sizeof *pos);
    if (!mobs_supported(type)) {
        log_info("summon: mcserv does not simulate %s yet", entity_types[type].name);
        cmd_failure0(x, "commands.summon.failed");
        return -1;
    }
    return 0;
}

/* The per-chunk cap refused a spawn: vanilla's "Unable to summon entity"
 * and why (mcserv's text, sent as a translation vanilla clients do not
 * know, so they show it as it is). */
static void fail_capped(cmd_ctx *x, const char *why)
{
    chat_arg a = chat_text(why);
    cmd_failure(x, "Unable to summon entity: %s", &a, 1);
}

int cmd_mobs_summon(cmd_ctx *x)
{
    int type;
    double pos[3];
    if (read_target(x, &type, pos) < 0) return -1;
    if (type == ENTITY_TYPE_ITEM) return summon_item(x, pos);
    struct mob_record r;
    if (read_mob(x, type, pos, &r) < 0) return -1;
    char err[160];
    int32_t eid = mobs_spawn(&r, err, sizeof err);
    if (eid == MOBS_SPAWN_CAPPED) {
        fail_capped(x, err);
        return -1;
    }
    if (eid < 0) {
        log_warn("summon %s: %s", entity_types[r.type].name, err);
        cmd_failure0(x, "commands.summon.failed");
        return -1;
    }
    char shown[MOB_NAME_MAX];
    mobs_display_name(mobs_by_eid(eid), shown, sizeof shown);
    chat_arg a = chat_text(shown);
    cmd_success(x, true, "commands.summon.success", &a, 1);
    return 0;
}

/* The feet height for a mob at column (x, z) near y: the lowest air block
 * above a solid one within 8 blocks of y (y itself when there is none or
 * the chunk is not loaded). */
static double ground_near(double x, double y, double z)
{
    int32_t bx = (int32_t)floor(x), bz = (int32_t)floor(z), by = (int32_t)floor(y);
    for (int d = 0; d <= 8; d++)
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
            int32_t yy = by + d * sgn;
            if (!mob_solid_at(NULL, bx, yy, bz) && mob_solid_at(NULL, bx, yy - 1, bz)) return yy;
            if (d == 0) break;
        }
    return y;
}

int cmd_mobs_summon_many(cmd_ctx *x)
{
    static uint64_t rng = 0x853c49e6748fea9bull;
    const struct cmd_value *cv = cmd_arg(x->ps, "count"), *rv = cmd_arg(x->ps, "radius");
    int type;
    double pos[3];
    struct mob_record r;
    if (!cv || !rv || read_target(x, &type, pos) < 0 || read_mob(x, type, pos, &r) < 0) return -1;
    double cx = r.pos[0], cy = r.pos[1], cz = r.pos[2], radius = rv->u.d;
    int count = cv->u.i, made = 0, capped = 0, failed = 0;
    char err[160], why[160] = "";
    for (int i = 0; i < count; i++) {
        double a = mob_rand(&rng) * 2.0 * M_PI, d = sqrt(mob_rand(&rng)) * radius;
        r.pos[0] = cx + cos(a) * d;
        r.pos[2] = cz + sin(a) * d;
        r.pos[1] = ground_near(r.pos[0], cy, r.pos[2]);
        r.yaw = (float)(mob_rand(&rng) * 360.0 - 180.0);
        int32_t eid = mobs_spawn(&r, err, sizeof err);
        if (eid >= 0) {
            made++;
        } else if (eid == MOBS_SPAWN_CAPPED) {
            capped++;
            if (!why[0]) snprintf(why, sizeof why, "%s", err);
        } else {
            failed++;
            if (!why[0]) snprintf(why, sizeof why, "%s", err);
        }
    }
    char text[320];
    if (!made) {
        snprintf(text, sizeof text, "none of %d (%s)", count, why);
        fail_capped(x, text);
        return -1;
    }
    if (capped || failed)
        snprintf(text, sizeof text, "Summoned %d of %d %s within %.1f blocks; %d refused (%s)",
                 made, count, entity_types[r.type].display_name, radius, capped + failed, why);
    else
        snprintf(text, sizeof text, "Summoned %d %s within %.1f blocks", made,
                 entity_types[r.type].display_name, radius);
    log_info("summonmany: %s", text);
    chat_arg a = chat_text(text);
    cmd_success(x, false, "%s", &a, 1);
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
