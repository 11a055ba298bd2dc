/* playerdata.c — see playerdata.h. Issue 14 adds, as vanilla 1.20.1's
 * Player writes them: XpLevel, XpP, XpTotal, Score (game/experience.h),
 * EnderItems (the ender chest: compounds with Slot 0..26) and the items'
 * tag.Enchantments (game/enchant.h). */
#include "game/playerdata.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "data/block_table.h"
#include "data/recipes.h"
#include "game/game.h"
#include "game/enchant.h"
#include "game/level_tags.h"
#include "game/spawnpoint.h"
#include "proto/packets.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "world/anvil.h"
#include "world/store.h"

#define MAX_COORD   3.0e7
#define MAX_Y_COORD 2.0e7

/*
 * One player seen this run. version counts saves of the player (each one
 * replaces nbt); disk_version is the version the file on disk holds. The
 * record is dirty while they differ: after a failed write it stays dirty,
 * keeps its data and is written again by every later round (autosave,
 * save-all, the final save), online or not; a dirty record is never
 * evicted.
 */
struct record {
    bool used;
    mc_uuid uuid;
    uint8_t *nbt; /* newest known data (decompressed), or NULL */
    size_t len;
    uint32_t version, disk_version, writing_version;
    bool online;
    bool writing;    /* a write is in flight (of writing_version) */
    bool want_write; /* write the newest data once that write is over */
    uint32_t ticket; /* the round the next write belongs to (store_round_join), or 0 */
    int last_err;    /* errno of the last failed write; 0 after a success */
    uint64_t last_use;
};

static struct record cache[PLAYERDATA_CACHE];
static uint64_t use_clock;

static void path_of(const mc_uuid *u, char *out, size_t cap)
{
    char id[37];
    uuid_format(u, id);
    snprintf(out, cap, "%s/playerdata/%s.dat", store_dir(), id);
}

static bool dirty(const struct record *r)
{
    return r->version != r->disk_version;
}

static struct record *find(const mc_uuid *u)
{
    for (int i = 0; i < PLAYERDATA_CACHE; i++)
        if (cache[i].used && memcmp(cache[i].uuid.b, u->b, 16) == 0) return &cache[i];
    return NULL;
}

/* A slot for u: a free one, else the least recently used idle one, else NULL. */
static struct record *slot_for(const mc_uuid *u)
{
    struct record *r = find(u), *victim = NULL;
    if (r) return r;
    for (int i = 0; i < PLAYERDATA_CACHE; i++) {
        struct record *c = &cache[i];
        if (!c->used) {
            victim = c;
            break;
        }
        if (!c->online && !c->writing && !dirty(c) && (!victim || c->last_use < victim->last_use))
            victim = c;
    }
    if (!victim) return NULL;
    free(victim->nbt);
    memset(victim, 0, sizeof *victim);
    victim->used = true;
    victim->uuid = *u;
    return victim;
}

/* ------------------------------------------------------------ level hooks */

static void fill_level(level_info *li)
{
    li->has_spawn = true;
    li->spawn_x = (int32_t)floor(game.spawn_x);
    li->spawn_y = (int32_t)floor(game.spawn_y);
    li->spawn_z = (int32_t)floor(game.spawn_z);
    li->spawn_angle = game.spawn_angle;
    li->day_time = game.day_time;
    li->raining = game.raining;
    li->thundering = game.thundering;
    level_tags_fill(li); /* issue 17: game rules, world border (game/level_tags.c) */
}

static void save_file(struct record *r);
static void save_player(const player *p, bool in_round);

/* Store hook at the start of a save round: every online player's file, and
 * every offline one a failed write left unsaved. */
static void save_players(void)
{
    for (size_t i = 0; i < game.player_count; i++) {
        const player *p = game.players[i]->player;
        if (p) save_player(p, true);
    }
    for (int i = 0; i < PLAYERDATA_CACHE; i++) {
        struct record *r = &cache[i];
        if (!r->used || r->online || !dirty(r)) continue;
        r->want_write = true;
        if (!r->ticket) r->ticket = store_round_join();
        save_file(r);
    }
}

void playerdata_init(void)
{
    if (!store_active()) return;
    static const struct store_hooks hooks = {fill_level, save_players};
    store_set_hooks(&hooks);
    level_info *li = store_level();
    if (li->loaded) {
        game.day_time = li->day_time;
        game.raining = li->raining;
        game.thundering = li->thundering;
        if (li->has_spawn) {
            game.spawn_x = li->spawn_x + 0.5;
            game.spawn_y = li->spawn_y;
            game.spawn_z = li->spawn_z + 0.5;
            game.spawn_angle = li->spawn_angle;
            log_info("spawn point from level.dat: %d, %d, %d", li->spawn_x, li->spawn_y,
                     li->spawn_z);
        }
    }
}

/* ------------------------------------------------------------------ load */

/* Window slot of an NBT inventory slot, or -1. */
static int window_slot(int nbt_slot)
{
    if (nbt_slot >= 0 && nbt_slot <= 8) return 36 + nbt_slot;
    if (nbt_slot >= 9 && nbt_slot <= 35) return nbt_slot;
    if (nbt_slot >= 100 && nbt_slot <= 103) return 8 - (nbt_slot - 100); /* feet 8 .. head 5 */
    if (nbt_slot == -106) return 45;
    return -1;
}

static int nbt_slot_of(int window)
{
    if (window >= 36 && window <= 44) return window - 36;
    if (window >= 9 && window <= 35) return window;
    if (window >= 5 && window <= 8) return 100 + (8 - window);
    if (window == 45) return -106;
    return -1000;
}

/* vanilla ServerPlayer.readAdditionalSaveData: SpawnX/Y/Z (ints; all three
 * or none), SpawnForced, SpawnAngle, SpawnDimension (the overworld when
 * absent). Points in other dimensions or outside the world are ignored. */
static void apply_spawn_point(const player *p, const nbt_node *root)
{
    const nbt_node *x = nbt_get(root, "SpawnX", NBT_INT), *y = nbt_get(root, "SpawnY", NBT_INT),
                   *z = nbt_get(root, "SpawnZ", NBT_INT);
    if (!x || !y || !z) return;
    const nbt_node *dim = nbt_get(root, "SpawnDimension", NBT_STRING);
    if (dim && !anvil_nbt_str_eq(dim, "minecraft:overworld")) return;
    int64_t sx = x->v.i, sy = y->v.i, sz = z->v.i;
    if (fabs((double)sx) > MAX_COORD || fabs((double)sz) > MAX_COORD ||
        fabs((double)sy) > MAX_Y_COORD)
        return;
    float angle = (float)anvil_nbt_num(nbt_get(root, "SpawnAngle", NBT_END), 0);
    if (!isfinite(angle)) angle = 0;
    bool forced = anvil_nbt_int(nbt_get(root, "SpawnForced", NBT_END), 0) != 0;
    spawnpoint_set(&p->uuid, (int32_t)sx, (int32_t)sy, (int32_t)sz, angle, forced);
}

/* Issue 14: hunger, air, fire and the fall as vanilla writes them (a value
 * out of range is ignored: game/health.c health_join starts it afresh). */
static void apply_health(player *p, const nbt_node *root)
{
    struct player_health *h = &p->hp;
    double sat = anvil_nbt_num(nbt_get(root, "foodSaturationLevel", NBT_END), -1);
    double ex = anvil_nbt_num(nbt_get(root, "foodExhaustionLevel", NBT_END), -1);
    int64_t timer = anvil_nbt_int(nbt_get(root, "foodTickTimer", NBT_END), 0);
    int64_t air = anvil_nbt_int(nbt_get(root, "Air", NBT_END), 300);
    int64_t fire = anvil_nbt_int(nbt_get(root, "Fire", NBT_END), 0);
    double fall = anvil_nbt_num(nbt_get(root, "FallDistance", NBT_END), 0);
    if (sat >= 0 && sat <= 20) {
        h->saturation = (float)sat;
        h->from_file = true;
    }
    if (ex >= 0 && ex <= 40) h->exhaustion = (float)ex;
    if (timer >= 0 && timer <= 80) h->food_timer = (int)timer;
    if (air >= -20 && air <= 300) h->air = air > 0 ? (int)air : 1;
    if (fire > 0 && fire <= 32767) h->fire_ticks = (int)fire;
    if (fall >= 0 && fall <= 1.0e6) h->fall_distance = (float)fall;
}

/* One list of items (Inventory, EnderItems): each compound's Slot through
 * slot_of (-1: not a slot) into dest; id, Count and the tag's Damage and
 * Enchantments. An unknown item is skipped (logged once). */
static void read_items(const nbt_node *list, struct inv_slot *dest, int (*slot_of)(int))
{
    if (!list || list->elem_type != NBT_COMPOUND) return;
    for (const nbt_node *it = list->v.kids.first; it; it = it->next) {
        int ws = slot_of((int)anvil_nbt_int(nbt_get(it, "Slot", NBT_END), -1000));
        const nbt_node *id = nbt_get(it, "id", NBT_STRING);
        int64_t count = anvil_nbt_int(nbt_get(it, "Count", NBT_END), 0);
        if (ws < 0 || !id || count <= 0 || count > 127) continue;
        int item = anvil_item_by_name((const char *)id->v.arr.p, id->v.arr.n);
        if (item <= 0) {
            anvil_warn_once("item", (const char *)id->v.arr.p, id->v.arr.n, "nothing");
            continue;
        }
        dest[ws].item = (int16_t)item;
        dest[ws].count = (int8_t)count;
        /* tag.Damage: durability used (game/inventory.c); tag.Enchantments */
        ench_read_item_tag(nbt_get(it, "tag", NBT_COMPOUND), item, &dest[ws].damage, dest[ws].ench);
    }
}

static int ender_slot(int nbt_slot)
{
    return nbt_slot >= 0 && nbt_slot < PLAYER_ENDER_SLOTS ? nbt_slot : -1;
}

/* vanilla Player.readAdditionalSaveData's XpP, XpLevel, XpTotal, Score
 * (a value out of range leaves the player at 0). */
static void apply_xp(player *p, const nbt_node *root)
{
    double prog = anvil_nbt_num(nbt_get(root, "XpP", NBT_END), 0);
    int64_t level = anvil_nbt_int(nbt_get(root, "XpLevel", NBT_END), 0);
    int64_t total = anvil_nbt_int(nbt_get(root, "XpTotal", NBT_END), 0);
    int64_t score = anvil_nbt_int(nbt_get(root, "Score", NBT_END), 0);
    if (level >= 0 && level <= INT32_MAX) p->xp.level = (int32_t)level;
    if (prog >= 0 && prog < 1) p->xp.progress = (float)prog;
    if (total >= 0 && total <= INT32_MAX) p->xp.total = (int32_t)total;
    if (score >= INT32_MIN && score <= INT32_MAX) p->xp.score = (int32_t)score;
}

static void apply(player *p, const uint8_t *nbt, size_t len)
{
    nbt_doc doc;
    if (nbt_parse(nbt, len, true, &nbt_limits_disk, &doc) <= 0 || !doc.root) return;
    const nbt_node *root = doc.root;
    const nbt_node *dim = nbt_get(root, "Dimension", NBT_STRING);
    const nbt_node *pos = nbt_get(root, "Pos", NBT_LIST);
    bool overworld = !dim || anvil_nbt_str_eq(dim, "minecraft:overworld");
    float health = (float)anvil_nbt_num(nbt_get(root, "Health", NBT_END), 20);
    bool alive = health > 0 && isfinite(health);
    if (overworld && alive && pos && pos->elem_type == NBT_DOUBLE && pos->v.kids.count == 3) {
        const nbt_node *a = pos->v.kids.first, *b = a->next, *c = b->next;
        double x = a->v.f, y = b->v.f, z = c->v.f;
        if (isfinite(x) && isfinite(y) && isfinite(z) && fabs(x) <= MAX_COORD &&
            fabs(z) <= MAX_COORD && fabs(y) <= MAX_Y_COORD) {
            p->x = x;
            p->y = y;
            p->z = z;
        }
    }
    const nbt_node *rot = nbt_get(root, "Rotation", NBT_LIST);
    if (rot && rot->elem_type == NBT_FLOAT && rot->v.kids.count == 2) {
        float yaw = (float)rot->v.kids.first->v.f, pitch = (float)rot->v.kids.first->next->v.f;
        if (isfinite(yaw) && isfinite(pitch) && fabsf(pitch) <= 90.0f) {
            p->yaw = fmodf(yaw, 360.0f);
            p->pitch = pitch;
        }
    }
    int64_t gm = anvil_nbt_int(nbt_get(root, "playerGameType", NBT_END), -1);
    if (gm >= 0 && gm <= 3) p->gamemode = (int)gm;
    if (alive && health <= 1024) p->health = health;
    int64_t food = anvil_nbt_int(nbt_get(root, "foodLevel", NBT_END), -1);
    if (food >= 0 && food <= 20) p->food = (int32_t)food;
    apply_health(p, root); /* issue 14 */
    int64_t held = anvil_nbt_int(nbt_get(root, "SelectedItemSlot", NBT_END), -1);
    if (held >= 0 && held <= 8) p->held_slot = (int)held;
    apply_spawn_point(p, root);
    read_items(nbt_get(root, "Inventory", NBT_LIST), p->inventory, window_slot);
    read_items(nbt_get(root, "EnderItems", NBT_LIST), p->ender_items, ender_slot);
    apply_xp(p, root);
    nbt_doc_free(&doc);
}

/* Reads a player's file (game thread, first join only); decompressed NBT or NULL. */
static uint8_t *read_file(const mc_uuid *u, size_t *len)
{
    char path[512];
    path_of(u, path, sizeof path);
    uint8_t *file;
    size_t flen;
    int rc = fio_read_file(path, PLAYERDATA_FILE_MAX, &file, &flen);
    if (rc == -ENOENT) return NULL;
    if (rc < 0) {
        log_error("%s: cannot read it: %s; the player starts at the spawn", path, strerror(-rc));
        return NULL;
    }
    uint8_t *nbt = NULL;
    size_t nlen = 0;
    int d = -1;
    if (flen >= 2 && file[0] == 0x1f && file[1] == 0x8b)
        d = anvil_decompress(1, file, flen, ANVIL_MAX_NBT, &nbt, &nlen);
    free(file);
    nbt_doc doc;
    if (d == 0 && nbt_parse(nbt, nlen, true, &nbt_limits_disk, &doc) > 0 && doc.root &&
        doc.root->type == NBT_COMPOUND) {
        nbt_doc_free(&doc);
        *len = nlen;
        return nbt;
    }
    free(nbt);
    char aside[600];
    snprintf(aside, sizeof aside, "%s.corrupt-%lld", path, (long long)time(NULL));
    if (fio->rename(path, aside) == 0)
        log_error("%s is corrupt; set aside as %s; the player starts at the spawn", path, aside);
    else
        log_error("%s is corrupt (and cannot be set aside); the player starts at the spawn", path);
    return NULL;
}

void playerdata_load(player *p)
{
    if (!store_active()) return;
    struct record *r = find(&p->uuid);
    if (!r) {
        size_t len = 0;
        uint8_t *nbt = read_file(&p->uuid, &len);
        r = slot_for(&p->uuid);
        if (!r) {
            /* Every cached player is online or being written: use the file, cache nothing. */
            if (nbt) apply(p, nbt, len);
            free(nbt);
            return;
        }
        r->nbt = nbt;
        r->len = len;
    }
    r->online = true;
    r->last_use = ++use_clock;
    if (r->nbt) apply(p, r->nbt, r->len);
}

void playerdata_send_inventory(conn *c)
{
    player *p = c->player;
    if (!p || c->closed) return;
    for (int i = 0; i < 46; i++) {
        if (!p->inventory[i].item || p->inventory[i].count <= 0) continue;
        buf_reset(&srv->pkt);
        c->proto->cb_set_slot(&srv->pkt, 0, p->inventory_state, (int16_t)i, p->inventory[i].item,
                              p->inventory[i].count);
        conn_send_pkt(c);
        if (c->closed) return;
    }
}

/* ------------------------------------------------------------------ save */

static const char *const ours[] = {
    "DataVersion",
    "Pos",
    "Rotation",
    "Motion",
    "OnGround",
    "Dimension",
    "playerGameType",
    "Inventory",
    "SelectedItemSlot",
    "Health",
    "foodLevel",
    "UUID",
    "abilities",
    "SpawnX",
    "SpawnY",
    "SpawnZ",
    "SpawnAngle",
    "SpawnForced",
    "SpawnDimension",
    "foodSaturationLevel",
    "foodExhaustionLevel",
    "foodTickTimer",
    "Air",
    "Fire",
    "FallDistance",
    "XpP",
    "XpLevel",
    "XpTotal",
    "Score",
    "EnderItems",
};

static bool is_ours(const nbt_node *n)
{
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (strlen(ours[i]) == n->name_len && memcmp(ours[i], n->name, n->name_len) == 0)
            return true;
    return false;
}

/* One list of items: slots [from, to) of s that hold an item, each with
 * Slot nbt_slot(i) (skipped when it is -1000), id, Count and its tag. */
static void write_items(buf_t *b, const char *name, const struct inv_slot *s, int from, int to,
                        int (*nbt_slot)(int))
{
    int n = 0;
    for (int i = from; i < to; i++)
        if (s[i].item > 0 && s[i].item < ITEM_COUNT && s[i].count > 0 && nbt_slot(i) > -1000) n++;
    nbt_w_list(b, name, NBT_COMPOUND, n);
    for (int i = from; i < to; i++) {
        if (s[i].item <= 0 || s[i].item >= ITEM_COUNT || s[i].count <= 0 || nbt_slot(i) == -1000)
            continue;
        char id[128];
        snprintf(id, sizeof id, "minecraft:%s", item_info[s[i].item].name);
        nbt_w_byte(b, "Slot", (int8_t)nbt_slot(i));
        nbt_w_string(b, "id", id, strlen(id));
        nbt_w_byte(b, "Count", s[i].count);
        ench_write_item_tag(b, s[i].damage,
                            s[i].ench); /* vanilla 1.20.1: tag.Damage, Enchantments */
        nbt_w_end(b);
    }
}

static int same_slot(int i)
{
    return i;
}

static int encode(const player *p, const uint8_t *old, size_t old_len, buf_t *b)
{
    nbt_doc doc = {0};
    const nbt_node *root = NULL;
    if (old && nbt_parse(old, old_len, true, &nbt_limits_disk, &doc) > 0) root = doc.root;
    nbt_w_root(b, "");
    nbt_w_int(b, "DataVersion", ANVIL_DATA_VERSION);
    nbt_w_list(b, "Pos", NBT_DOUBLE, 3);
    wr_f64(b, p->x);
    wr_f64(b, p->y);
    wr_f64(b, p->z);
    nbt_w_list(b, "Rotation", NBT_FLOAT, 2);
    wr_f32(b, p->yaw);
    wr_f32(b, p->pitch);
    nbt_w_list(b, "Motion", NBT_DOUBLE, 3);
    for (int i = 0; i < 3; i++) wr_f64(b, 0);
    nbt_w_byte(b, "OnGround", p->on_ground);
    nbt_w_string(b, "Dimension", "minecraft:overworld", 19);
    nbt_w_int(b, "playerGameType", p->gamemode);
    write_items(b, "Inventory", p->inventory, 5, 46, nbt_slot_of);
    write_items(b, "EnderItems", p->ender_items, 0, PLAYER_ENDER_SLOTS, same_slot);
    nbt_w_float(b, "XpP", p->xp.progress); /* issue 14: vanilla's experience tags */
    nbt_w_int(b, "XpLevel", p->xp.level);
    nbt_w_int(b, "XpTotal", p->xp.total);
    nbt_w_int(b, "Score", p->xp.score);
    nbt_w_int(b, "SelectedItemSlot", p->held_slot);
    nbt_w_float(b, "Health", p->health > 0 ? p->health : 0.0f);
    nbt_w_int(b, "foodLevel", p->food);
    nbt_w_float(b, "foodSaturationLevel", p->hp.saturation); /* issue 14: vanilla's tags */
    nbt_w_float(b, "foodExhaustionLevel", p->hp.exhaustion);
    nbt_w_int(b, "foodTickTimer", p->hp.food_timer);
    nbt_w_short(b, "Air", (int16_t)p->hp.air);
    nbt_w_short(b, "Fire", (int16_t)(p->hp.fire_ticks > 0 ? p->hp.fire_ticks : -20));
    nbt_w_float(b, "FallDistance", p->hp.fall_distance);
    int32_t uuid[4];
    for (int i = 0; i < 4; i++)
        uuid[i] =
            (int32_t)((uint32_t)p->uuid.b[i * 4] << 24 | (uint32_t)p->uuid.b[i * 4 + 1] << 16 |
                      (uint32_t)p->uuid.b[i * 4 + 2] << 8 | p->uuid.b[i * 4 + 3]);
    nbt_w_int_array(b, "UUID", uuid, 4);
    bool creative = p->gamemode == 1, spectator = p->gamemode == 3;
    nbt_w_compound(b, "abilities");
    nbt_w_byte(b, "flying", spectator);
    nbt_w_float(b, "flySpeed", 0.05f);
    nbt_w_byte(b, "instabuild", creative);
    nbt_w_byte(b, "invulnerable", creative || spectator);
    nbt_w_byte(b, "mayBuild", p->gamemode != 2 && !spectator);
    nbt_w_byte(b, "mayfly", creative || spectator);
    nbt_w_float(b, "walkSpeed", 0.1f);
    nbt_w_end(b);
    int32_t sx, sy, sz;
    float angle;
    bool forced;
    if (spawnpoint_get(&p->uuid, &sx, &sy, &sz, &angle, &forced)) { /* vanilla's tags */
        nbt_w_int(b, "SpawnX", sx);
        nbt_w_int(b, "SpawnY", sy);
        nbt_w_int(b, "SpawnZ", sz);
        nbt_w_byte(b, "SpawnForced", forced);
        nbt_w_float(b, "SpawnAngle", angle);
        nbt_w_string(b, "SpawnDimension", "minecraft:overworld", 19);
    }
    if (root && root->type == NBT_COMPOUND)
        for (const nbt_node *c = root->v.kids.first; c; c = c->next)
            if (!is_ours(c)) anvil_nbt_copy_tag(b, c);
    nbt_w_end(b);
    nbt_doc_free(&doc);
    return b->failed ? -1 : 0;
}

static void write_done(void *arg, int rc)
{
    struct record *r = arg;
    r->writing = false;
    /* Logged by the store. On failure the record stays dirty: the next round writes it. */
    if (rc == 0) {
        r->disk_version = r->writing_version;
        r->last_err = 0;
    } else {
        r->last_err = -rc;
    }
    save_file(r);
}

/* Writes r's newest data if asked to (serialised per player: not while a write is in flight;
 * write_done calls again). Ends r's ticket at once when the file is already up to date. */
static void save_file(struct record *r)
{
    if (r->writing || !r->want_write) return;
    r->want_write = false;
    uint32_t ticket = r->ticket;
    r->ticket = 0;
    if (!dirty(r)) {
        store_round_leave(ticket, STORE_ITEM_PLAYER, 0);
        return;
    }
    /* The cache keeps nbt as the newest data; the write gets its own copy. */
    uint8_t *copy = r->nbt ? malloc(r->len) : NULL;
    if (!copy) {
        r->last_err = ENOMEM;
        store_round_leave(ticket, STORE_ITEM_PLAYER, -ENOMEM);
        return;
    }
    memcpy(copy, r->nbt, r->len);
    char path[512];
    path_of(&r->uuid, path, sizeof path);
    r->writing = true;
    r->writing_version = r->version;
    store_write_file(path, copy, r->len, true, STORE_ITEM_PLAYER, ticket, write_done, r);
}

static void save_player(const player *p, bool in_round)
{
    if (!store_active()) return;
    struct record *r = slot_for(&p->uuid);
    buf_t b;
    buf_init(&b, STORE_FILE_MAX);
    if (encode(p, r ? r->nbt : NULL, r ? r->len : 0, &b) < 0) {
        log_error("%s: cannot save the player (out of memory or over %zu bytes)", p->name,
                  (size_t)STORE_FILE_MAX);
        buf_free(&b);
        return;
    }
    if (!r) {
        /* No cache slot free: write directly (unordered, not retried, but rare: more than
         * PLAYERDATA_CACHE players online, being written or unsaved). */
        char path[512];
        path_of(&p->uuid, path, sizeof path);
        store_write_file(path, b.data, b.len, true, STORE_ITEM_PLAYER,
                         in_round ? store_round_join() : 0, NULL, NULL);
        return;
    }
    free(r->nbt);
    r->nbt = b.data;
    r->len = b.len;
    r->version++;
    r->last_use = ++use_clock;
    r->want_write = true;
    if (in_round && !r->ticket) r->ticket = store_round_join();
    save_file(r);
}

size_t playerdata_unsaved(int *err)
{
    size_t n = 0;
    for (int i = 0; i < PLAYERDATA_CACHE; i++)
        if (cache[i].used && cache[i].last_err && dirty(&cache[i])) {
            if (n++ == 0 && err) *err = cache[i].last_err;
        }
    return n;
}

void playerdata_leave(const player *p)
{
    save_player(p, false);
    if (store_active()) spawnpoint_forget(&p->uuid); /* in the file now */
    struct record *r = find(&p->uuid);
    if (r) r->online = false;
}

void playerdata_free(void)
{
    for (int i = 0; i < PLAYERDATA_CACHE; i++) {
        free(cache[i].nbt);
        memset(&cache[i], 0, sizeof cache[i]);
    }
}
