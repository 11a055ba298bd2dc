/* level.c — see level.h. */
#include "world/level.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/log.h"
#include "data/block_table.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "world/anvil.h"
#include "world/terrain.h"

/* --------------------------------------------------------- session.lock */

int level_lock(const char *dir, char *err, size_t errlen)
{
    int rc = fio_mkdir(dir);
    if (rc < 0) {
        snprintf(err, errlen, "cannot create the world folder %s: %s", dir, strerror(-rc));
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/session.lock", dir);
    int fd = fio->open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (flock(fd, LOCK_EX | LOCK_NB) < 0 || fcntl(fd, F_SETLK, &fl) < 0) {
        int e = errno;
        if (e == EWOULDBLOCK || e == EAGAIN || e == EACCES)
            snprintf(err, errlen,
                     "the world %s is in use by another server (%s is locked); stop that server "
                     "or use another level-name",
                     dir, path);
        else
            snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
        fio->close(fd);
        return -1;
    }
    static const uint8_t snowman[] = {0xe2, 0x98, 0x83};
    if (fio_pwrite_full(fd, snowman, sizeof snowman, 0) < 0)
        log_warn("%s: cannot write the lock marker (the lock itself is held)", path);
    return fd;
}

void level_unlock(int fd)
{
    if (fd < 0) return;
    flock(fd, LOCK_UN);
    fio->close(fd);
}

/* ------------------------------------------------------------------ read */

void level_info_free(level_info *li)
{
    free(li->raw);
    li->raw = NULL;
    li->raw_len = 0;
}

static void copy_str(char *dst, size_t cap, const nbt_node *n)
{
    size_t len = n && n->type == NBT_STRING ? n->v.arr.n : 0;
    if (len >= cap) len = cap - 1;
    if (len) memcpy(dst, n->v.arr.p, len);
    dst[len] = 0;
}

/* Biomes terrain.c's flat generator accepts. */
static bool flat_biome_ok(const char *name)
{
    static const char *const ok[] = {"plains",       "forest", "desert", "ocean",       "the_void",
                                     "snowy_plains", "taiga",  "beach",  "birch_forest"};
    if (strncmp(name, "minecraft:", 10) == 0) name += 10;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(ok[i], name) == 0) return true;
    return false;
}

/* Flat settings {layers: [{block, height}], biome} → generator-settings JSON. */
static bool flat_to_json(const nbt_node *settings, char *out, size_t cap)
{
    const nbt_node *layers = nbt_get(settings, "layers", NBT_LIST);
    if (!layers || (layers->v.kids.count && layers->elem_type != NBT_COMPOUND)) return false;
    if (layers->v.kids.count > TERRAIN_MAX_LAYERS) return false;
    size_t o = (size_t)snprintf(out, cap, "{\"layers\":[");
    long total = 0;
    bool first = true;
    for (const nbt_node *l = layers->v.kids.first; l; l = l->next) {
        char block[96];
        copy_str(block, sizeof block, nbt_get(l, "block", NBT_STRING));
        int64_t h = anvil_nbt_int(nbt_get(l, "height", NBT_END), -1);
        if (h < 0 || h > CHUNK_HEIGHT) return false;
        total += h;
        if (anvil_block_by_name(block, strlen(block)) < 0) {
            anvil_warn_once("block", block, strlen(block), "air");
            snprintf(block, sizeof block, "minecraft:air");
        }
        o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, "%s{\"block\":\"%s\",\"height\":%d}",
                              first ? "" : ",", block, (int)h);
        first = false;
        if (o >= cap) return false;
    }
    if (total > CHUNK_HEIGHT) return false;
    char biome[96] = "";
    copy_str(biome, sizeof biome, nbt_get(settings, "biome", NBT_STRING));
    if (biome[0] && flat_biome_ok(biome))
        o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, "],\"biome\":\"%s\"}", biome);
    else
        o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, "]}");
    return o < cap;
}

int level_parse(const uint8_t *nbt, size_t len, level_info *li, char *why, size_t whylen)
{
    nbt_doc doc;
    long pr = nbt_parse(nbt, len, true, &nbt_limits_disk, &doc);
    if (pr < 0) {
        snprintf(why, whylen, "%s", nbt_strerror(pr));
        return -1;
    }
    const nbt_node *data = nbt_get(doc.root, "Data", NBT_COMPOUND);
    if (!data) {
        snprintf(why, whylen, "no Data compound");
        nbt_doc_free(&doc);
        return -1;
    }
    int64_t dv = anvil_nbt_int(nbt_get(data, "DataVersion", NBT_END), 0);
    if (dv > ANVIL_DATA_VERSION)
        log_warn("level.dat was saved by a newer Minecraft (DataVersion %lld > %d); data it "
                 "added may not load",
                 (long long)dv, ANVIL_DATA_VERSION);
    const nbt_node *wgs = nbt_get(data, "WorldGenSettings", NBT_COMPOUND);
    const nbt_node *seed = nbt_get(wgs, "seed", NBT_LONG);
    if (seed)
        li->seed = seed->v.i;
    else if ((seed = nbt_get(data, "RandomSeed", NBT_LONG)))
        li->seed = seed->v.i; /* pre-1.16 */
    const nbt_node *dims = nbt_get(wgs, "dimensions", NBT_COMPOUND);
    const nbt_node *ow = nbt_get(dims, "minecraft:overworld", NBT_COMPOUND);
    const nbt_node *gen = nbt_get(ow, "generator", NBT_COMPOUND);
    const nbt_node *gtype = nbt_get(gen, "type", NBT_STRING);
    if (anvil_nbt_str_eq(gtype, "minecraft:flat")) {
        if (flat_to_json(nbt_get(gen, "settings", NBT_COMPOUND), li->flat_json,
                         sizeof li->flat_json)) {
            li->has_generator = true;
            li->type = LEVEL_FLAT;
        } else {
            log_warn("level.dat: flat layers mcserv cannot reproduce (over %d layers or %d "
                     "blocks); using server.properties' generator",
                     TERRAIN_MAX_LAYERS, CHUNK_HEIGHT);
        }
    } else if (anvil_nbt_str_eq(gtype, "minecraft:noise")) {
        li->has_generator = true;
        li->type = LEVEL_NORMAL;
    }
    const nbt_node *sx = nbt_get(data, "SpawnX", NBT_END), *sy = nbt_get(data, "SpawnY", NBT_END),
                   *sz = nbt_get(data, "SpawnZ", NBT_END);
    if (sx && sy && sz) {
        li->has_spawn = true;
        li->spawn_x = (int32_t)anvil_nbt_int(sx, 0);
        li->spawn_y = (int32_t)anvil_nbt_int(sy, 0);
        li->spawn_z = (int32_t)anvil_nbt_int(sz, 0);
        if (li->spawn_y < CHUNK_MIN_Y || li->spawn_y > CHUNK_MIN_Y + CHUNK_HEIGHT + 64 ||
            li->spawn_x < -30000000 || li->spawn_x > 30000000 || li->spawn_z < -30000000 ||
            li->spawn_z > 30000000)
            li->has_spawn = false;
    }
    li->spawn_angle = (float)anvil_nbt_num(nbt_get(data, "SpawnAngle", NBT_END), 0);
    li->time = anvil_nbt_int(nbt_get(data, "Time", NBT_END), 0);
    li->day_time = anvil_nbt_int(nbt_get(data, "DayTime", NBT_END), 0);
    li->raining = anvil_nbt_int(nbt_get(data, "raining", NBT_END), 0) != 0;
    li->thundering = anvil_nbt_int(nbt_get(data, "thundering", NBT_END), 0) != 0;
    li->game_type = (int)anvil_nbt_int(nbt_get(data, "GameType", NBT_END), 0);
    if (li->game_type < 0 || li->game_type > 3) li->game_type = 0;
    li->hardcore = anvil_nbt_int(nbt_get(data, "hardcore", NBT_END), 0) != 0;
    li->difficulty = (int)anvil_nbt_int(nbt_get(data, "Difficulty", NBT_END), 2);
    copy_str(li->name, sizeof li->name, nbt_get(data, "LevelName", NBT_STRING));
    nbt_doc_free(&doc);
    return 0;
}

/* Reads and parses one file; 1 ok, 0 absent, -1 unreadable (why set). */
static int read_one(const char *path, level_info *li, char *why, size_t whylen)
{
    uint8_t *file;
    size_t flen;
    int rc = fio_read_file(path, LEVEL_FILE_MAX, &file, &flen);
    if (rc == -ENOENT) return 0;
    if (rc < 0) {
        snprintf(why, whylen, "%s", strerror(-rc));
        return -1;
    }
    uint8_t *nbt = NULL;
    size_t nlen = 0;
    if (flen >= 2 && file[0] == 0x1f && file[1] == 0x8b) {
        int d = anvil_decompress(1, file, flen, ANVIL_MAX_NBT, &nbt, &nlen);
        if (d < 0) {
            snprintf(why, whylen, "%s",
                     d == -2 ? "larger than 16 MiB uncompressed" : "bad gzip data");
            free(file);
            return -1;
        }
        free(file);
    } else {
        nbt = file; /* some tools write it uncompressed */
        nlen = flen;
    }
    if (level_parse(nbt, nlen, li, why, whylen) < 0) {
        free(nbt);
        return -1;
    }
    li->raw = nbt;
    li->raw_len = nlen;
    li->loaded = true;
    return 1;
}

static void set_aside(const char *path)
{
    char aside[4200];
    snprintf(aside, sizeof aside, "%s.corrupt-%lld", path, (long long)time(NULL));
    if (fio->rename(path, aside) == 0)
        log_error("%s set aside as %s", path, aside);
    else
        log_error("%s: cannot set it aside: %s", path, strerror(errno));
}

int level_read(const char *dir, level_info *li)
{
    memset(li, 0, sizeof *li);
    char path[4096], old[4100], why[256];
    snprintf(path, sizeof path, "%s/level.dat", dir);
    snprintf(old, sizeof old, "%s/level.dat_old", dir);
    int rc = read_one(path, li, why, sizeof why);
    if (rc >= 0 && !(rc == 0 && access(old, F_OK) == 0)) return rc;
    if (rc < 0) log_error("%s is unreadable (%s); trying level.dat_old", path, why);
    level_info_free(li);
    memset(li, 0, sizeof *li);
    int rc2 = read_one(old, li, why, sizeof why);
    if (rc2 > 0) {
        log_warn("using %s", old);
        if (rc < 0) set_aside(path);
        return 1;
    }
    if (rc2 < 0) log_error("%s is unreadable too (%s)", old, why);
    if (rc < 0) set_aside(path);
    if (rc2 < 0) set_aside(old);
    level_info_free(li);
    memset(li, 0, sizeof *li);
    if (rc < 0 || rc2 < 0) {
        log_error("starting %s as a new world (seed and spawn from server.properties)", dir);
        return -1;
    }
    return 0;
}

void level_remove_stale_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d)) && n < 100000) {
        n++;
        /* fio_write_atomic's names: <file>.tmp.<pid>.<counter> */
        const char *t = strstr(de->d_name, ".tmp.");
        unsigned long pid, seq;
        char end;
        if (!t || sscanf(t, ".tmp.%lu.%lu%c", &pid, &seq, &end) != 2) continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (fio->unlink(path) == 0) log_info("removed %s (left by an interrupted save)", path);
    }
    closedir(d);
}

/* ----------------------------------------------------------------- write */

static const char *const ours[] = {
    "DataVersion", "Version",    "version",  "LevelName",  "SpawnX",      "SpawnY",
    "SpawnZ",      "SpawnAngle", "Time",     "DayTime",    "LastPlayed",  "raining",
    "thundering",  "GameType",   "hardcore", "Difficulty", "initialized", "ServerBrands",
};

static bool is_ours(const nbt_node *n)
{
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (strlen(ours[i]) == n->name_len && memcmp(ours[i], n->name, n->name_len) == 0)
            return true;
    return false;
}

static void w_str(buf_t *b, const char *name, const char *s)
{
    nbt_w_string(b, name, s, strlen(s));
}

static void w_bare_str(buf_t *b, const char *s)
{
    wr_u16(b, (uint16_t)strlen(s));
    buf_append(b, s, strlen(s));
}

/* Vanilla 1.20.1's game rules with their defaults (values are strings). */
static const char *const game_rules[][2] = {
    {"announceAdvancements", "true"},
    {"blockExplosionDropDecay", "true"},
    {"commandBlockOutput", "true"},
    {"commandModificationBlockLimit", "32768"},
    {"disableElytraMovementCheck", "false"},
    {"disableRaids", "false"},
    {"doDaylightCycle", "true"},
    {"doEntityDrops", "true"},
    {"doFireTick", "true"},
    {"doImmediateRespawn", "false"},
    {"doInsomnia", "true"},
    {"doLimitedCrafting", "false"},
    {"doMobLoot", "true"},
    {"doMobSpawning", "true"},
    {"doPatrolSpawning", "true"},
    {"doTileDrops", "true"},
    {"doTraderSpawning", "true"},
    {"doVinesSpread", "true"},
    {"doWardenSpawning", "true"},
    {"doWeatherCycle", "true"},
    {"drowningDamage", "true"},
    {"fallDamage", "true"},
    {"fireDamage", "true"},
    {"forgiveDeadPlayers", "true"},
    {"freezeDamage", "true"},
    {"globalSoundEvents", "true"},
    {"keepInventory", "false"},
    {"lavaSourceConversion", "false"},
    {"logAdminCommands", "true"},
    {"maxCommandChainLength", "65536"},
    {"maxEntityCramming", "24"},
    {"mobExplosionDropDecay", "true"},
    {"mobGriefing", "true"},
    {"naturalRegeneration", "true"},
    {"playersSleepingPercentage", "100"},
    {"randomTickSpeed", "3"},
    {"reducedDebugInfo", "false"},
    {"sendCommandFeedback", "true"},
    {"showDeathMessages", "true"},
    {"snowAccumulationHeight", "1"},
    {"spawnRadius", "10"},
    {"spectatorsGenerateChunks", "true"},
    {"tntExplosionDropDecay", "false"},
    {"universalAnger", "false"},
    {"waterSourceConversion", "true"},
};

static void w_noise_generator(buf_t *b, const char *settings, const char *preset)
{
    nbt_w_compound(b, "generator");
    w_str(b, "type", "minecraft:noise");
    w_str(b, "settings", settings);
    nbt_w_compound(b, "biome_source");
    if (preset) {
        w_str(b, "type", "minecraft:multi_noise");
        w_str(b, "preset", preset);
    } else {
        w_str(b, "type", "minecraft:the_end");
    }
    nbt_w_end(b);
    nbt_w_end(b);
}

static void w_world_gen(buf_t *b, const struct server_config *cfg, const struct terrain *t)
{
    nbt_w_compound(b, "WorldGenSettings");
    nbt_w_byte(b, "bonus_chest", 0);
    nbt_w_byte(b, "generate_features", 1);
    nbt_w_long(b, "seed", cfg->seed);
    nbt_w_compound(b, "dimensions");
    nbt_w_compound(b, "minecraft:overworld");
    w_str(b, "type", "minecraft:overworld");
    if (cfg->level_type == LEVEL_FLAT && t) {
        nbt_w_compound(b, "generator");
        w_str(b, "type", "minecraft:flat");
        nbt_w_compound(b, "settings");
        w_str(b, "biome", anvil_biome_name(t->flat_biome));
        nbt_w_byte(b, "features", 0);
        nbt_w_byte(b, "lakes", 0);
        nbt_w_list(b, "layers", NBT_COMPOUND, t->layer_count);
        for (int i = 0; i < t->layer_count; i++) {
            char name[128];
            snprintf(name, sizeof name, "minecraft:%s",
                     block_info[block_of_state[t->layers[i].state]].name);
            w_str(b, "block", name);
            nbt_w_int(b, "height", t->layers[i].height);
            nbt_w_end(b);
        }
        nbt_w_end(b);
        nbt_w_end(b);
    } else {
        w_noise_generator(b, "minecraft:overworld", "minecraft:overworld");
    }
    nbt_w_end(b);
    nbt_w_compound(b, "minecraft:the_nether");
    w_str(b, "type", "minecraft:the_nether");
    w_noise_generator(b, "minecraft:nether", "minecraft:nether");
    nbt_w_end(b);
    nbt_w_compound(b, "minecraft:the_end");
    w_str(b, "type", "minecraft:the_end");
    w_noise_generator(b, "minecraft:end", NULL);
    nbt_w_end(b);
    nbt_w_end(b);
    nbt_w_end(b);
}

/* Defaults written only when the old file lacks the tag. */
static void w_defaults(buf_t *b, const nbt_node *old, const struct server_config *cfg,
                       const struct terrain *t)
{
#define MISSING(name) (!nbt_get(old, name, NBT_END))
    if (MISSING("WorldGenSettings")) w_world_gen(b, cfg, t);
    if (MISSING("GameRules")) {
        nbt_w_compound(b, "GameRules");
        for (size_t i = 0; i < sizeof game_rules / sizeof game_rules[0]; i++)
            w_str(b, game_rules[i][0], game_rules[i][1]);
        nbt_w_end(b);
    }
    if (MISSING("DataPacks")) {
        nbt_w_compound(b, "DataPacks");
        nbt_w_list(b, "Enabled", NBT_STRING, 1);
        w_bare_str(b, "vanilla");
        nbt_w_list(b, "Disabled", NBT_STRING, 0);
        nbt_w_end(b);
    }
    if (MISSING("enabled_features")) {
        nbt_w_list(b, "enabled_features", NBT_STRING, 1);
        w_bare_str(b, "minecraft:vanilla");
    }
    static const struct {
        const char *name;
        double v;
    } border[] = {{"BorderCenterX", 0},
                  {"BorderCenterZ", 0},
                  {"BorderSize", 6.0e7},
                  {"BorderSafeZone", 5},
                  {"BorderWarningBlocks", 5},
                  {"BorderWarningTime", 15},
                  {"BorderSizeLerpTarget", 6.0e7},
                  {"BorderDamagePerBlock", 0.2}};
    for (size_t i = 0; i < sizeof border / sizeof border[0]; i++)
        if (MISSING(border[i].name)) nbt_w_double(b, border[i].name, border[i].v);
    if (MISSING("BorderSizeLerpTime")) nbt_w_long(b, "BorderSizeLerpTime", 0);
    if (MISSING("clearWeatherTime")) nbt_w_int(b, "clearWeatherTime", 0);
    if (MISSING("rainTime")) nbt_w_int(b, "rainTime", 0);
    if (MISSING("thunderTime")) nbt_w_int(b, "thunderTime", 0);
    if (MISSING("DifficultyLocked")) nbt_w_byte(b, "DifficultyLocked", 0);
    if (MISSING("allowCommands")) nbt_w_byte(b, "allowCommands", 0);
    if (MISSING("WasModded")) nbt_w_byte(b, "WasModded", 0);
    if (MISSING("WanderingTraderSpawnDelay")) nbt_w_int(b, "WanderingTraderSpawnDelay", 24000);
    if (MISSING("WanderingTraderSpawnChance")) nbt_w_int(b, "WanderingTraderSpawnChance", 25);
    if (MISSING("CustomBossEvents")) {
        nbt_w_compound(b, "CustomBossEvents");
        nbt_w_end(b);
    }
    if (MISSING("ScheduledEvents")) nbt_w_list(b, "ScheduledEvents", NBT_END, 0);
#undef MISSING
}

int level_encode(const level_info *li, const struct server_config *cfg,
                 const struct terrain *terrain, int64_t now_ms, buf_t *out)
{
    nbt_doc doc = {0};
    const nbt_node *old = NULL;
    if (li->raw && nbt_parse(li->raw, li->raw_len, true, &nbt_limits_disk, &doc) > 0)
        old = nbt_get(doc.root, "Data", NBT_COMPOUND);
    nbt_w_root(out, "");
    nbt_w_compound(out, "Data");
    nbt_w_int(out, "DataVersion", ANVIL_DATA_VERSION);
    nbt_w_compound(out, "Version");
    nbt_w_int(out, "Id", ANVIL_DATA_VERSION);
    w_str(out, "Name", "1.20.1");
    w_str(out, "Series", "main");
    nbt_w_byte(out, "Snapshot", 0);
    nbt_w_end(out);
    nbt_w_int(out, "version", 19133);
    w_str(out, "LevelName", li->name[0] ? li->name : cfg->level_name);
    nbt_w_int(out, "SpawnX", li->spawn_x);
    nbt_w_int(out, "SpawnY", li->spawn_y);
    nbt_w_int(out, "SpawnZ", li->spawn_z);
    nbt_w_float(out, "SpawnAngle", li->spawn_angle);
    nbt_w_long(out, "Time", li->time);
    nbt_w_long(out, "DayTime", li->day_time);
    nbt_w_long(out, "LastPlayed", now_ms);
    nbt_w_byte(out, "raining", li->raining);
    nbt_w_byte(out, "thundering", li->thundering);
    nbt_w_int(out, "GameType", li->loaded ? li->game_type : (int)cfg->gamemode);
    nbt_w_byte(out, "hardcore", li->loaded ? li->hardcore : cfg->hardcore);
    nbt_w_byte(out, "Difficulty", (int8_t)(li->loaded ? li->difficulty : cfg->difficulty));
    nbt_w_byte(out, "initialized", 1);
    /* ServerBrands: the old list plus "mcserv". */
    const nbt_node *brands = nbt_get(old, "ServerBrands", NBT_LIST);
    uint32_t nb = 0;
    bool have = false;
    if (brands && brands->elem_type == NBT_STRING)
        for (const nbt_node *s = brands->v.kids.first; s && nb < 16; s = s->next, nb++)
            have = have || anvil_nbt_str_eq(s, "mcserv");
    nbt_w_list(out, "ServerBrands", NBT_STRING, (int32_t)(nb + !have));
    if (brands && brands->elem_type == NBT_STRING) {
        uint32_t k = 0;
        for (const nbt_node *s = brands->v.kids.first; s && k < nb; s = s->next, k++)
            anvil_nbt_copy_payload(out, s);
    }
    if (!have) w_bare_str(out, "mcserv");
    /* Everything else the old file had, unchanged. */
    if (old)
        for (const nbt_node *n = old->v.kids.first; n; n = n->next)
            if (!is_ours(n)) anvil_nbt_copy_tag(out, n);
    w_defaults(out, old, cfg, terrain);
    nbt_w_end(out); /* Data */
    nbt_w_end(out); /* root */
    nbt_doc_free(&doc);
    return out->failed ? -1 : 0;
}
