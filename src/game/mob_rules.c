/*
 * mob_rules.c — see mob_rules.h. Pure functions: no game state, no I/O.
 *
 * Collision (vanilla Entity.collide, full blocks only): a box moves axis by
 * axis, Y first, then the larger horizontal axis; each axis is clipped at
 * the first block face it would cross. Step-up (Entity.collide's
 * maxUpStep part): when a horizontal axis was blocked and the entity stood
 * on the ground (or lands in this move), the same move is tried from the
 * start raised by `step`, then lowered back onto what is under it; it is
 * kept when it went farther horizontally.
 *
 * Loot: entity_loot's entries in order, each drops with its chance (out of
 * 65535) a count uniform in [min, max]; ENTITY_LOOT_PLAYER_KILL entries only
 * for a player's kill (vanilla's killed_by_player condition).
 *
 * Saved records: the tags vanilla 1.20.1's Entity.saveWithoutId,
 * LivingEntity.addAdditionalSaveData, Mob and Sheep write that mcserv keeps
 * (mob_rules.h lists them). Numbers are read as vanilla's CompoundTag.get*
 * does: any numeric tag counts. Invalid records (unknown id, a Pos that is
 * not three finite doubles inside the world) are refused with a reason.
 *
 * SNBT: vanilla TagParser's grammar (compounds, lists, typed arrays, quoted
 * and bare strings, suffixed numbers), written straight into binary NBT:
 * a tag's type byte is reserved and patched once its value is parsed.
 *
 * Invariants:
 *  1. Every loop over input is bounded by its length; recursion by
 *     SNBT_MAX_DEPTH (vanilla's 512).
 *  2. mob_record_read writes only fields the record has, and never leaves a
 *     non-finite number in r.
 */
#include "game/mob_rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/entities.h"
#include "data/entity_table.h"
#include "data/version.h"

#define SNBT_MAX_DEPTH 512
#define WORLD_XZ_MAX   30000000.0
#define WORLD_Y_MIN    -2048.0
#define WORLD_Y_MAX    2048.0
#define MOTION_MAX     10.0 /* vanilla Entity.load: a bigger Motion component becomes 0 */

/* ------------------------------------------------------------ collision */

static bool solid_cell(mob_solid_fn solid, void *ctx, int axis, int32_t c, int32_t u, int32_t v)
{
    /* (c on axis, u and v on the next two axes in x, y, z order) */
    int32_t p[3];
    p[axis] = c, p[(axis + 1) % 3] = u, p[(axis + 2) % 3] = v;
    return solid(ctx, p[0], p[1], p[2]);
}

/* How far of d the box lo..hi may move along axis before a full block. */
static double clip(mob_solid_fn solid, void *ctx, int axis, const double lo[3], const double hi[3],
                   double d)
{
    if (d == 0) return 0;
    int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    int32_t u0 = (int32_t)floor(lo[a1]), u1 = (int32_t)ceil(hi[a1]) - 1;
    int32_t v0 = (int32_t)floor(lo[a2]), v1 = (int32_t)ceil(hi[a2]) - 1;
    if (d > 0) {
        for (int32_t c = (int32_t)ceil(hi[axis] - 1e-7); c <= (int32_t)floor(hi[axis] + d); c++)
            for (int32_t u = u0; u <= u1; u++)
                for (int32_t v = v0; v <= v1; v++)
                    if (solid_cell(solid, ctx, axis, c, u, v))
                        return fmax(0.0, fmin(d, c - hi[axis]));
    } else {
        for (int32_t c = (int32_t)floor(lo[axis] + 1e-7) - 1; c + 1 >= (int32_t)ceil(lo[axis] + d);
             c--)
            for (int32_t u = u0; u <= u1; u++)
                for (int32_t v = v0; v <= v1; v++)
                    if (solid_cell(solid, ctx, axis, c, u, v))
                        return fmin(0.0, fmax(d, c + 1 - lo[axis]));
    }
    return d;
}

static void sweep(mob_solid_fn solid, void *ctx, double lo[3], double hi[3], const double want[3],
                  double got[3])
{
    int order[3] = {1, 0, 2};
    if (fabs(want[0]) < fabs(want[2])) order[1] = 2, order[2] = 0;
    for (int k = 0; k < 3; k++) {
        int a = order[k];
        got[a] = clip(solid, ctx, a, lo, hi, want[a]);
        lo[a] += got[a], hi[a] += got[a];
    }
}

void mob_collide(mob_solid_fn solid, void *ctx, double pos[3], double half, double height,
                 const double want_in[3], double step, bool was_on_ground, struct mob_move *out)
{
    double want[3];
    for (int a = 0; a < 3; a++) {
        double w = want_in[a];
        want[a] = w != w ? 0 : fmax(-MOB_MAX_STEP, fmin(MOB_MAX_STEP, w));
    }
    double lo0[3] = {pos[0] - half, pos[1], pos[2] - half};
    double hi0[3] = {pos[0] + half, pos[1] + height, pos[2] + half};
    double lo[3], hi[3], got[3];
    memcpy(lo, lo0, sizeof lo), memcpy(hi, hi0, sizeof hi);
    sweep(solid, ctx, lo, hi, want, got);
    bool hblocked = got[0] != want[0] || got[2] != want[2];
    bool lands = got[1] != want[1] && want[1] < 0;
    out->stepped = false;
    if (step > 0 && hblocked && (was_on_ground || lands)) {
        double slo[3], shi[3];
        memcpy(slo, lo0, sizeof slo), memcpy(shi, hi0, sizeof shi);
        double up = clip(solid, ctx, 1, slo, shi, step);
        slo[1] += up, shi[1] += up;
        double hw[3] = {want[0], 0, want[2]}, sg[3];
        sweep(solid, ctx, slo, shi, hw, sg);
        double down = clip(solid, ctx, 1, slo, shi, -up + fmin(want[1], 0.0));
        slo[1] += down, shi[1] += down;
        if (sg[0] * sg[0] + sg[2] * sg[2] > got[0] * got[0] + got[2] * got[2] + 1e-12) {
            memcpy(lo, slo, sizeof lo), memcpy(hi, shi, sizeof hi);
            got[0] = sg[0], got[2] = sg[2], got[1] = up + down;
            out->stepped = true;
        }
    }
    for (int a = 0; a < 3; a++) {
        out->got[a] = got[a];
        out->blocked[a] = fabs(got[a] - want[a]) > 1e-9;
    }
    if (out->stepped) out->blocked[1] = want[1] < 0; /* settled onto the step */
    out->on_ground = out->blocked[1] && want[1] < 0;
    pos[0] = lo[0] + half, pos[1] = lo[1], pos[2] = lo[2] + half;
}

/* ------------------------------------------------------------ loot */

double mob_rand(uint64_t *rng)
{
    uint64_t x = *rng ? *rng : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *rng = x;
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

int mob_loot_roll(int type, bool player_kill, uint64_t *rng, struct mob_drop *out, int cap)
{
    if (type < 0 || type >= ENTITY_TYPE_COUNT) return 0;
    int n = 0;
    for (unsigned k = entity_loot_first[type]; k < entity_loot_first[type + 1] && n < cap; k++) {
        const struct entity_loot_entry *e = &entity_loot[k];
        if ((e->flags & ENTITY_LOOT_PLAYER_KILL) && !player_kill) continue;
        if (e->chance < 65535 && mob_rand(rng) * 65535.0 >= e->chance) continue;
        int count = e->min + (int)(mob_rand(rng) * (e->max - e->min + 1));
        if (count <= 0) continue;
        out[n].item = e->item, out[n].count = count;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------ records */

void mob_record_init(struct mob_record *r)
{
    memset(r, 0, sizeof *r);
    r->type = -1;
    r->st.color = -1;
}

static int type_by_name(const char *s, size_t n)
{
    if (n > 10 && memcmp(s, "minecraft:", 10) == 0) s += 10, n -= 10;
    for (int t = 0; t < ENTITY_TYPE_COUNT; t++)
        if (strlen(entity_types[t].name) == n && memcmp(entity_types[t].name, s, n) == 0) return t;
    return -1;
}

static bool numeric(const nbt_node *n, double *v)
{
    if (!n) return false;
    if (n->type >= NBT_BYTE && n->type <= NBT_LONG) {
        *v = (double)n->v.i;
        return true;
    }
    if (n->type == NBT_FLOAT || n->type == NBT_DOUBLE) {
        *v = n->v.f;
        return isfinite(*v);
    }
    return false;
}

static bool num_tag(const nbt_node *e, const char *name, double *v)
{
    return numeric(nbt_get(e, name, NBT_END), v);
}

/* A list of n numbers into v; false if it is not one or a value is not finite. */
static bool num_list(const nbt_node *e, const char *name, double *v, uint32_t n)
{
    const nbt_node *l = nbt_get(e, name, NBT_LIST);
    if (!l || l->v.kids.count != n) return false;
    uint32_t i = 0;
    for (const nbt_node *k = l->v.kids.first; k && i < n; k = k->next, i++)
        if (!numeric(k, &v[i])) return false;
    return i == n;
}

int mob_record_read(const nbt_node *e, struct mob_record *r, bool need_id, char *why, size_t cap)
{
    if (!e || e->type != NBT_COMPOUND) {
        snprintf(why, cap, "not a compound");
        return -1;
    }
    const nbt_node *id = nbt_get(e, "id", NBT_STRING);
    if (id) {
        int t = type_by_name((const char *)id->v.arr.p, id->v.arr.n);
        if (t < 0) {
            snprintf(why, cap, "unknown entity type %.*s",
                     (int)(id->v.arr.n > 64 ? 64 : id->v.arr.n), (const char *)id->v.arr.p);
            return -1;
        }
        r->type = t;
    } else if (need_id) {
        snprintf(why, cap, "no id");
        return -1;
    }
    double v[3];
    if (nbt_get(e, "Pos", NBT_END)) {
        if (!num_list(e, "Pos", v, 3) || fabs(v[0]) > WORLD_XZ_MAX || fabs(v[2]) > WORLD_XZ_MAX ||
            v[1] < WORLD_Y_MIN || v[1] > WORLD_Y_MAX) {
            snprintf(why, cap, "bad Pos");
            return -1;
        }
        memcpy(r->pos, v, sizeof v);
    } else if (need_id) {
        snprintf(why, cap, "no Pos");
        return -1;
    }
    if (num_list(e, "Motion", v, 3))
        for (int a = 0; a < 3; a++) r->motion[a] = fabs(v[a]) > MOTION_MAX ? 0 : v[a];
    double rot[2];
    if (num_list(e, "Rotation", rot, 2)) {
        r->yaw = (float)fmod(rot[0], 360.0);
        r->pitch = (float)fmax(-90.0, fmin(90.0, rot[1]));
    }
    double d;
    if (num_tag(e, "Health", &d)) {
        r->health = (float)fmax(0.0, fmin(1024.0, d));
        r->has_health = true;
    }
    if (num_tag(e, "NoAI", &d)) r->st.no_ai = d != 0;
    if (num_tag(e, "OnGround", &d)) r->st.on_ground = d != 0;
    if (num_tag(e, "PersistenceRequired", &d)) r->st.persistent = d != 0;
    if (num_tag(e, "Sheared", &d)) r->st.sheared = d != 0;
    if (num_tag(e, "Color", &d)) r->st.color = (int8_t)((int)d & 15);
    if (num_tag(e, "powered", &d)) r->st.powered = d != 0; /* creeper */
    if (num_tag(e, "ignited", &d)) r->st.ignited = d != 0;
    if (num_tag(e, "FallDistance", &d)) r->st.fall_distance = (float)fmax(0.0, fmin(1e6, d));
    if (num_tag(e, "Fire", &d)) r->st.fire = (int16_t)fmax(-32768.0, fmin(32767.0, d));
    const nbt_node *u = nbt_get(e, "UUID", NBT_INT_ARRAY);
    if (u && u->v.arr.n == 4) {
        for (int i = 0; i < 4; i++) {
            uint32_t w = (uint32_t)nbt_int_at(u, (uint32_t)i);
            for (int k = 0; k < 4; k++) r->uuid.b[i * 4 + k] = (uint8_t)(w >> (24 - 8 * k));
        }
        r->has_uuid = true;
    }
    const nbt_node *cn = nbt_get(e, "CustomName", NBT_STRING);
    if (cn) {
        size_t n = cn->v.arr.n < MOB_NAME_MAX - 1 ? cn->v.arr.n : 0; /* too long: dropped */
        memcpy(r->custom_name, cn->v.arr.p, n);
        r->custom_name[n] = 0;
    }
    return 0;
}

static void w_list_f64(buf_t *b, const char *name, const double *v, int n)
{
    nbt_w_list(b, name, NBT_DOUBLE, n);
    for (int i = 0; i < n; i++) wr_f64(b, v[i]);
}

void mob_record_write(buf_t *b, const struct mob_record *r)
{
    char id[80];
    int n =
        snprintf(id, sizeof id, "minecraft:%s",
                 r->type >= 0 && r->type < ENTITY_TYPE_COUNT ? entity_types[r->type].name : "pig");
    nbt_w_string(b, "id", id, (size_t)n);
    w_list_f64(b, "Pos", r->pos, 3);
    w_list_f64(b, "Motion", r->motion, 3);
    nbt_w_list(b, "Rotation", NBT_FLOAT, 2);
    wr_f32(b, r->yaw);
    wr_f32(b, r->pitch);
    nbt_w_float(b, "FallDistance", r->st.fall_distance);
    nbt_w_short(b, "Fire", r->st.fire);
    nbt_w_short(b, "Air", 300);
    nbt_w_byte(b, "OnGround", r->st.on_ground);
    nbt_w_byte(b, "Invulnerable", 0);
    nbt_w_int(b, "PortalCooldown", 0);
    int32_t u[4];
    for (int i = 0; i < 4; i++)
        u[i] = (int32_t)((uint32_t)r->uuid.b[i * 4] << 24 | (uint32_t)r->uuid.b[i * 4 + 1] << 16 |
                         (uint32_t)r->uuid.b[i * 4 + 2] << 8 | r->uuid.b[i * 4 + 3]);
    nbt_w_int_array(b, "UUID", u, 4);
    if (r->custom_name[0]) nbt_w_string(b, "CustomName", r->custom_name, strlen(r->custom_name));
    nbt_w_float(b, "Health", r->health);
    nbt_w_short(b, "HurtTime", 0);
    nbt_w_int(b, "HurtByTimestamp", 0);
    nbt_w_short(b, "DeathTime", 0);
    nbt_w_float(b, "AbsorptionAmount", 0);
    nbt_w_byte(b, "FallFlying", 0);
    nbt_w_byte(b, "PersistenceRequired", r->st.persistent);
    nbt_w_byte(b, "CanPickUpLoot", 0);
    nbt_w_byte(b, "LeftHanded", 0);
    if (r->st.no_ai) nbt_w_byte(b, "NoAI", 1);
    nbt_w_int(b, "Age", 0);
    nbt_w_int(b, "ForcedAge", 0);
    nbt_w_int(b, "InLove", 0);
    if (r->type == ENTITY_TYPE_SHEEP) {
        nbt_w_byte(b, "Color", r->st.color < 0 ? 0 : r->st.color);
        nbt_w_byte(b, "Sheared", r->st.sheared);
    }
    if (r->type == ENTITY_TYPE_CREEPER) { /* Creeper.addAdditionalSaveData */
        if (r->st.powered) nbt_w_byte(b, "powered", 1);
        nbt_w_short(b, "Fuse", 30);
        nbt_w_byte(b, "ExplosionRadius", 3);
        nbt_w_byte(b, "ignited", r->st.ignited);
    }
}

void mob_chunk_encode(buf_t *b, int32_t cx, int32_t cz, const struct mob_record *r, size_t n)
{
    nbt_w_root(b, "");
    nbt_w_int(b, "DataVersion", MC_DATA_VERSION);
    int32_t pos[2] = {cx, cz};
    nbt_w_int_array(b, "Position", pos, 2);
    nbt_w_list(b, "Entities", n ? NBT_COMPOUND : NBT_END, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        mob_record_write(b, &r[i]);
        nbt_w_end(b);
    }
    nbt_w_end(b);
}

int mob_chunk_parse(const uint8_t *p, size_t len, int32_t pos_out[2], mob_record_fn fn, void *ctx,
                    size_t *skipped, char *why, size_t cap)
{
    nbt_doc doc;
    long rc = nbt_parse(p, len, true, &nbt_limits_disk, &doc);
    if (rc < 0) {
        snprintf(why, cap, "NBT: %s", nbt_strerror(rc));
        return -1;
    }
    int ret = 0;
    const nbt_node *root = doc.root;
    const nbt_node *pos = root ? nbt_get(root, "Position", NBT_INT_ARRAY) : NULL;
    const nbt_node *list = root ? nbt_get(root, "Entities", NBT_LIST) : NULL;
    if (!root || root->type != NBT_COMPOUND || !list ||
        (list->v.kids.count && list->elem_type != NBT_COMPOUND)) {
        snprintf(why, cap, "no Entities list");
        ret = -1;
        goto out;
    }
    if (pos_out) {
        if (pos && pos->v.arr.n == 2) {
            pos_out[0] = nbt_int_at(pos, 0);
            pos_out[1] = nbt_int_at(pos, 1);
        } else {
            pos_out[0] = pos_out[1] = INT32_MIN;
        }
    }
    for (const nbt_node *e = list->v.kids.first; e; e = e->next) {
        struct mob_record r;
        mob_record_init(&r);
        char w[96];
        if (mob_record_read(e, &r, true, w, sizeof w) < 0) {
            if (*skipped == 0) snprintf(why, cap, "%s", w);
            (*skipped)++;
            continue;
        }
        fn(ctx, &r);
    }
out:
    nbt_doc_free(&doc);
    return ret;
}

/* ------------------------------------------------------------ SNBT */

struct sp {
    const char *s;
    size_t len, pos;
    char *err;
    size_t cap;
    bool failed;
    size_t err_pos;
};

static int fail(struct sp *p, const char *msg)
{
    if (!p->failed) snprintf(p->err, p->cap, "%s", msg);
    if (!p->failed) p->err_pos = p->pos;
    p->failed = true;
    return -1;
}

static void skip_ws(struct sp *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static bool bare_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == '-' || c == '.' || c == '+';
}

/* A quoted or bare string into out (at most cap - 1 bytes). */
static int read_string(struct sp *p, char *out, size_t cap, size_t *n, bool *quoted)
{
    *n = 0;
    *quoted = false;
    if (p->pos >= p->len) return fail(p, "argument.nbt.expected.value");
    char q = p->s[p->pos];
    if (q == '"' || q == '\'') {
        *quoted = true;
        p->pos++;
        while (p->pos < p->len && p->s[p->pos] != q) {
            char c = p->s[p->pos++];
            if (c == '\\') {
                if (p->pos >= p->len) break;
                c = p->s[p->pos++];
                if (c != q && c != '\\') return fail(p, "parsing.quote.escape");
            }
            if (*n + 1 >= cap) return fail(p, "argument.nbt.expected.value");
            out[(*n)++] = c;
        }
        if (p->pos >= p->len) return fail(p, "parsing.quote.expected.end");
        p->pos++;
    } else {
        while (p->pos < p->len && bare_char(p->s[p->pos])) {
            if (*n + 1 >= cap) return fail(p, "argument.nbt.expected.value");
            out[(*n)++] = p->s[p->pos++];
        }
        if (*n == 0) return fail(p, "argument.nbt.expected.value");
    }
    out[*n] = 0;
    return 0;
}

/* A bare token as vanilla TagParser.type: a number with its suffix, a
 * boolean, else a string. Writes the payload, returns the type. */
static int bare_value(buf_t *b, const char *t, size_t n)
{
    char *end;
    if (n == 4 && memcmp(t, "true", 4) == 0) return wr_u8(b, 1), NBT_BYTE;
    if (n == 5 && memcmp(t, "false", 5) == 0) return wr_u8(b, 0), NBT_BYTE;
    char last = n ? t[n - 1] : 0;
    bool has_point = memchr(t, '.', n) || memchr(t, 'e', n) || memchr(t, 'E', n);
    char num[160];
    if (n > 0 && n < sizeof num) {
        char suffix = (char)(last | 0x20);
        bool suffixed = strchr("bslfd", suffix) && n > 1;
        size_t m = suffixed ? n - 1 : n;
        memcpy(num, t, m);
        num[m] = 0;
        bool intlike = m > 0 &&
                       strspn(num + (num[0] == '-' || num[0] == '+'), "0123456789") ==
                           m - (num[0] == '-' || num[0] == '+') &&
                       m > (size_t)(num[0] == '-' || num[0] == '+');
        if (suffixed && (suffix == 'f' || suffix == 'd')) {
            double d = strtod(num, &end);
            if (*end == 0 && m > 0 && isfinite(d)) {
                if (suffix == 'f') return wr_f32(b, (float)d), NBT_FLOAT;
                return wr_f64(b, d), NBT_DOUBLE;
            }
        } else if (suffixed && intlike) {
            long long v = strtoll(num, &end, 10);
            if (*end == 0) {
                if (suffix == 'b' && v >= -128 && v <= 127) return wr_u8(b, (uint8_t)v), NBT_BYTE;
                if (suffix == 's' && v >= -32768 && v <= 32767)
                    return wr_i16(b, (int16_t)v), NBT_SHORT;
                if (suffix == 'l') return wr_i64(b, v), NBT_LONG;
            }
        } else if (!suffixed && intlike) {
            long long v = strtoll(num, &end, 10);
            if (*end == 0 && v >= INT32_MIN && v <= INT32_MAX)
                return wr_i32(b, (int32_t)v), NBT_INT;
        } else if (!suffixed && has_point) {
            double d = strtod(num, &end);
            if (*end == 0 && isfinite(d)) return wr_f64(b, d), NBT_DOUBLE;
        }
    }
    wr_u16(b, (uint16_t)n);
    buf_append(b, t, n);
    return NBT_STRING;
}

static int value(struct sp *p, buf_t *b, int depth);

static int compound(struct sp *p, buf_t *b, int depth)
{
    p->pos++; /* { */
    skip_ws(p);
    bool first = true;
    while (p->pos < p->len && p->s[p->pos] != '}') {
        if (!first) {
            if (p->s[p->pos] != ',') return fail(p, "parsing.expected|}");
            p->pos++;
            skip_ws(p);
        }
        first = false;
        char key[256];
        size_t kn;
        bool quoted;
        if (read_string(p, key, sizeof key, &kn, &quoted) < 0) return -1;
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != ':') return fail(p, "parsing.expected|:");
        p->pos++;
        skip_ws(p);
        size_t at = b->len;
        wr_u8(b, 0); /* type, patched below */
        wr_u16(b, (uint16_t)kn);
        buf_append(b, key, kn);
        int t = value(p, b, depth + 1);
        if (t < 0) return -1;
        if (!b->failed) b->data[at] = (uint8_t)t;
        skip_ws(p);
    }
    if (p->pos >= p->len) return fail(p, "parsing.expected|}");
    p->pos++;
    wr_u8(b, NBT_END);
    return NBT_COMPOUND;
}

static int list(struct sp *p, buf_t *b, int depth)
{
    p->pos++; /* [ */
    skip_ws(p);
    int arr = 0;
    if (p->pos + 1 < p->len && p->s[p->pos + 1] == ';') {
        char k = p->s[p->pos];
        arr = k == 'B' ? NBT_BYTE_ARRAY : k == 'I' ? NBT_INT_ARRAY : k == 'L' ? NBT_LONG_ARRAY : 0;
        if (!arr) return fail(p, "argument.nbt.array.invalid|?");
        p->pos += 2;
        skip_ws(p);
    }
    size_t at = b->len;
    if (!arr) wr_u8(b, NBT_END);
    wr_i32(b, 0); /* count, patched below */
    int32_t count = 0;
    int elem = NBT_END;
    while (p->pos < p->len && p->s[p->pos] != ']') {
        if (count) {
            if (p->s[p->pos] != ',') return fail(p, "parsing.expected|]");
            p->pos++;
            skip_ws(p);
        }
        size_t before = b->len;
        int t = value(p, b, depth + 1);
        if (t < 0) return -1;
        if (arr) {
            int want = arr == NBT_BYTE_ARRAY ? NBT_BYTE : arr == NBT_INT_ARRAY ? NBT_INT : NBT_LONG;
            if (t != want && !(arr == NBT_LONG_ARRAY && t == NBT_INT) &&
                !(arr == NBT_INT_ARRAY && t == NBT_BYTE))
                return fail(p, "argument.nbt.array.mixed|value|array");
            if (t != want && !b->failed) { /* widen the element just written */
                int64_t v = t == NBT_BYTE ? (int8_t)b->data[before]
                                          : (int32_t)((uint32_t)b->data[before] << 24 |
                                                      (uint32_t)b->data[before + 1] << 16 |
                                                      (uint32_t)b->data[before + 2] << 8 |
                                                      b->data[before + 3]);
                b->len = before;
                if (want == NBT_INT)
                    wr_i32(b, (int32_t)v);
                else
                    wr_i64(b, v);
            }
        } else if (count && t != elem) {
            return fail(p, "argument.nbt.list.mixed|value|list");
        }
        elem = t;
        count++;
        skip_ws(p);
    }
    if (p->pos >= p->len) return fail(p, "parsing.expected|]");
    p->pos++;
    if (!b->failed) {
        size_t c = arr ? at : at + 1;
        if (!arr) b->data[at] = (uint8_t)elem;
        b->data[c] = (uint8_t)(count >> 24), b->data[c + 1] = (uint8_t)(count >> 16);
        b->data[c + 2] = (uint8_t)(count >> 8), b->data[c + 3] = (uint8_t)count;
    }
    return arr ? arr : NBT_LIST;
}

/* A string or a number: its own frame, so the recursion's frames stay small. */
static __attribute__((noinline)) int scalar(struct sp *p, buf_t *b)
{
    char tok[1024];
    size_t n;
    bool quoted;
    if (read_string(p, tok, sizeof tok, &n, &quoted) < 0) return -1;
    if (quoted) {
        wr_u16(b, (uint16_t)n);
        buf_append(b, tok, n);
        return NBT_STRING;
    }
    return bare_value(b, tok, n);
}

static int value(struct sp *p, buf_t *b, int depth)
{
    if (depth > SNBT_MAX_DEPTH) return fail(p, "argument.nbt.expected.value");
    skip_ws(p);
    if (p->pos >= p->len) return fail(p, "argument.nbt.expected.value");
    char c = p->s[p->pos];
    if (c == '{') return compound(p, b, depth);
    if (c == '[') return list(p, b, depth);
    return scalar(p, b);
}

int mob_snbt_parse(const char *s, size_t len, buf_t *out, char *err, size_t cap)
{
    struct sp p = {s, len, 0, err, cap, false, 0};
    skip_ws(&p);
    if (p.pos >= len || s[p.pos] != '{') return fail(&p, "parsing.expected|{");
    wr_u8(out, NBT_COMPOUND);
    wr_u16(out, 0);
    if (compound(&p, out, 0) < 0) return -1;
    skip_ws(&p);
    if (p.pos != len) return fail(&p, "argument.nbt.trailing");
    if (out->failed) return fail(&p, "argument.nbt.expected.value");
    return 0;
}

/* ------------------------------------------------------------ spawn rules */

int mob_sky_darken(int64_t day_time, bool rain, bool thunder)
{
    /* DimensionType.timeOfDay, then Level.updateSkyBrightness */
    double t = (double)(((day_time % 24000) + 24000) % 24000) / 24000.0 - 0.25;
    t -= floor(t);
    double tod = (t * 2.0 + (0.5 - cos(t * M_PI) / 2.0)) / 3.0;
    double d0 = 1.0 - (rain ? 5.0 / 16.0 : 0.0);
    double d1 = 1.0 - (thunder ? 5.0 / 16.0 : 0.0);
    double d2 = 0.5 + 2.0 * fmin(fmax(cos(tod * 2.0 * M_PI), -0.25), 0.25);
    return (int)((1.0 - d2 * d0 * d1) * 11.0);
}

#define COVER_SET_WORK   (1u << 16) /* probes up to which the set is the cheaper way */
#define COVER_GRID_CELLS (1u << 20) /* the largest grid (1 MB a pass) */

int mob_count_covered_set(const int32_t *x, const int32_t *z, size_t n, int radius,
                          mob_loaded_fn loaded, void *ctx)
{
    /* open addressing; a slot is taken when its stamp is this call's (any
     * 64-bit key is a chunk, so none can mark an empty slot) */
    static uint64_t *keys;
    static uint32_t *stamp, gen;
    static size_t cap;
    size_t side = 2 * (size_t)radius + 1, need = 16;
    while (need < n * side * side * 2 + 16) need <<= 1;
    if (need > cap) {
        uint64_t *k = realloc(keys, need * sizeof *k);
        if (!k) return -1;
        keys = k;
        uint32_t *st = realloc(stamp, need * sizeof *st);
        if (!st) return -1;
        stamp = st;
        memset(stamp, 0, need * sizeof *stamp);
        cap = need;
        gen = 0;
    }
    if (++gen == 0) { /* wrapped: old stamps could match again */
        memset(stamp, 0, cap * sizeof *stamp);
        gen = 1;
    }
    int count = 0;
    for (size_t i = 0; i < n; i++)
        for (int dz = -radius; dz <= radius; dz++)
            for (int dx = -radius; dx <= radius; dx++) {
                int32_t cx = x[i] + dx, cz = z[i] + dz;
                uint64_t key = (uint64_t)(uint32_t)cx << 32 | (uint32_t)cz;
                size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 24) & (cap - 1);
                while (stamp[h] == gen && keys[h] != key) h = (h + 1) & (cap - 1);
                if (stamp[h] == gen) continue;
                stamp[h] = gen;
                keys[h] = key;
                if (loaded(ctx, cx, cz)) count++;
            }
    return count;
}

int mob_count_covered_grid(const int32_t *x, const int32_t *z, size_t n, int radius,
                           mob_loaded_fn loaded, void *ctx)
{
    static uint8_t *grid, *rows;
    static size_t cap;
    if (!n) return 0;
    int32_t x0 = x[0], x1 = x[0], z0 = z[0], z1 = z[0];
    for (size_t i = 1; i < n; i++) {
        if (x[i] < x0) x0 = x[i];
        if (x[i] > x1) x1 = x[i];
        if (z[i] < z0) z0 = z[i];
        if (z[i] > z1) z1 = z[i];
    }
    int64_t ox = (int64_t)x0 - radius, oz = (int64_t)z0 - radius;
    size_t w = (size_t)((int64_t)x1 - x0) + 1 + 2 * (size_t)radius;
    size_t h = (size_t)((int64_t)z1 - z0) + 1 + 2 * (size_t)radius;
    if (w > SIZE_MAX / h) return -1;
    size_t area = w * h;
    if (area > cap) {
        uint8_t *g = realloc(grid, area);
        if (!g) return -1;
        grid = g;
        uint8_t *r = realloc(rows, area);
        if (!r) return -1;
        rows = r;
        cap = area;
    }
    memset(grid, 0, area);
    for (size_t i = 0; i < n; i++) grid[(size_t)(z[i] - oz) * w + (size_t)(x[i] - ox)] = 1;
    /* rows[z][x]: a column in row z within radius of x; then, down each x,
     * the same window over rows: a chunk within radius of a column */
    int64_t span = 2 * (int64_t)radius + 1;
    for (size_t zr = 0; zr < h; zr++) {
        const uint8_t *g = grid + zr * w;
        uint8_t *r = rows + zr * w;
        int sum = 0;
        for (int64_t i = 0; i < (int64_t)w + radius; i++) {
            if (i < (int64_t)w) sum += g[i];
            if (i - span >= 0) sum -= g[i - span];
            if (i - radius >= 0) r[i - radius] = sum > 0;
        }
    }
    int count = 0;
    for (size_t xc = 0; xc < w; xc++) {
        int sum = 0;
        for (int64_t i = 0; i < (int64_t)h + radius; i++) {
            if (i < (int64_t)h) sum += rows[(size_t)i * w + xc];
            if (i - span >= 0) sum -= rows[(size_t)(i - span) * w + xc];
            if (i - radius >= 0 && sum > 0 &&
                loaded(ctx, (int32_t)(ox + (int64_t)xc), (int32_t)(oz + i - radius)))
                count++;
        }
    }
    return count;
}

int mob_count_covered(const int32_t *x, const int32_t *z, size_t n, int radius,
                      mob_loaded_fn loaded, void *ctx)
{
    if (!n) return 0;
    int32_t x0 = x[0], x1 = x[0], z0 = z[0], z1 = z[0];
    for (size_t i = 1; i < n; i++) {
        if (x[i] < x0) x0 = x[i];
        if (x[i] > x1) x1 = x[i];
        if (z[i] < z0) z0 = z[i];
        if (z[i] > z1) z1 = z[i];
    }
    uint64_t side = 2 * (uint64_t)radius + 1;
    uint64_t w = (uint64_t)((int64_t)x1 - x0) + side, h = (uint64_t)((int64_t)z1 - z0) + side;
    uint64_t set_work = (uint64_t)n * side * side;
    if (set_work <= COVER_SET_WORK || w > COVER_GRID_CELLS || h > COVER_GRID_CELLS ||
        w * h > COVER_GRID_CELLS || w * h >= set_work)
        return mob_count_covered_set(x, z, n, radius, loaded, ctx);
    return mob_count_covered_grid(x, z, n, radius, loaded, ctx);
}

int mob_monster_cap(int chunks)
{
    return 70 * chunks / MOB_MAGIC_CHUNKS; /* NaturalSpawner: MONSTER 70 × chunks / 289 */
}

static int rand_int(uint64_t *rng, int n)
{
    int v = (int)(mob_rand(rng) * n);
    return v >= n ? n - 1 : v;
}

bool mob_dark_enough(int sky, int block, int darken, uint64_t *rng)
{
    /* Monster.isDarkEnoughToSpawn with the overworld's light test (0..7) and
     * block light limit (0) */
    if (sky > rand_int(rng, 32)) return false;
    if (block > 0) return false;
    int raw = sky - darken > block ? sky - darken : block;
    return raw <= rand_int(rng, 8);
}

#define LB_R     15 /* a cube of 2 × 15 + 1 around the start */
#define LB_SIDE  (2 * LB_R + 1)
#define LB_NODES 4096

void mob_light_estimate(mob_light_fn fn, void *ctx, int32_t x, int32_t y, int32_t z, int *sky,
                        int *block)
{
    static uint8_t seen[(LB_SIDE * LB_SIDE * LB_SIDE + 7) / 8];
    static int8_t q[LB_NODES][4];
    memset(seen, 0, sizeof seen);
    int head = 0, tail = 0;
    *sky = 0, *block = 0;
    q[tail][0] = q[tail][1] = q[tail][2] = q[tail][3] = 0;
    tail++;
    seen[(LB_R * LB_SIDE * LB_SIDE + LB_R * LB_SIDE + LB_R) / 8] |=
        (uint8_t)(1u << ((LB_R * LB_SIDE * LB_SIDE + LB_R * LB_SIDE + LB_R) % 8));
    static const int8_t dirs[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                      {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    while (head < tail) {
        int8_t *c = q[head++];
        int d = c[3];
        struct mob_light_cell cell;
        fn(ctx, x + c[0], y + c[1], z + c[2], &cell);
        if (cell.emit > d && cell.emit - d > *block) *block = cell.emit - d;
        if (cell.sky && 15 - d > *sky) *sky = 15 - d;
        if (*block > 0 && *sky == 15) return; /* nothing more to learn */
        if ((cell.filter >= 15 && d > 0) || d + 1 >= 15) continue;
        for (int k = 0; k < 6; k++) {
            int nx = c[0] + dirs[k][0], ny = c[1] + dirs[k][1], nz = c[2] + dirs[k][2];
            if (nx < -LB_R || nx > LB_R || ny < -LB_R || ny > LB_R || nz < -LB_R || nz > LB_R)
                continue;
            int bit = ((ny + LB_R) * LB_SIDE + (nz + LB_R)) * LB_SIDE + (nx + LB_R);
            if (seen[bit / 8] & (1u << (bit % 8))) continue;
            seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
            if (tail >= LB_NODES) return; /* the budget: what was found so far */
            q[tail][0] = (int8_t)nx, q[tail][1] = (int8_t)ny, q[tail][2] = (int8_t)nz;
            q[tail][3] = (int8_t)(d + 1);
            tail++;
        }
    }
}
