/*
 * plugins.c — see plugins.h and plugin_int.h: loading plugins/ (at startup
 * and on `plugins reload [name]`), the load order, the Lua state of each
 * plugin and its limits, storage files and the permissions file.
 *
 * Loading. A load job reads, for every folder of plugins/ (or the one being
 * reloaded): plugin.json, every *.lua of the folder (init.lua is the entry;
 * the others are what `require` finds), config.json, and data/storage.json
 * unless that plugin's storage is already in memory; and
 * plugins/permissions.json. At startup the job runs inline before the first
 * tick; a reload runs it on a worker and applies the result at the next
 * tick (a safe point). Applying orders the plugins (plugin_manifest.c),
 * makes a state per plugin and runs its init.lua; `start` is raised at the
 * first tick for plugins loaded at startup, at once for those a reload
 * loaded. A reload of everything first raises `stop` (reason "reload") and
 * closes every state; a reload of one plugin replaces only it, at its
 * place in the order.
 *
 * Limits (plugin_int.h invariants 1-3):
 *  - heap: plugin_alloc refuses an allocation past memory_mb (64 MiB by
 *    default); Lua turns that into a "not enough memory" error in the code
 *    that asked, and collects what the failed call left behind;
 *  - time: a count hook every PLUGIN_HOOK_EVERY instructions compares the
 *    monotonic clock with the handler's deadline (budget_ms, 5 by default;
 *    init.lua gets 50 budgets). Past it the call is stopped: the hook
 *    raises an error, and again at every instruction until the outermost
 *    handler call has unwound, while the sandbox's pcall, xpcall and
 *    coroutine.resume re-raise it (plugin_api.c), so no Lua code can catch
 *    it and carry on;
 *  - errors: each is logged with the plugin's name and the traceback, one
 *    log line per traceback line; the 100th within a minute disables the
 *    plugin (its state is closed at the next safe point).
 *
 * Storage (plugin_store): one JSON object per plugin name, kept in memory
 * for the server's lifetime (a reload keeps it), written at most once a
 * second while it changes, and at shutdown, through a core/saver.h saver
 * (temp file, fsync, rename: never half written).
 *
 * Permissions: plugins/permissions.json, {"players": {"<uuid>": {"name":
 * "Alice", "permissions": ["a.b", "-c.d", "e.*"]}}}; read with every load,
 * written by `plugins grant` / `plugins revoke`.
 */
#include <dirent.h>
#include <errno.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/json.h"
#include "core/log.h"
#include "core/workers.h"
#include "game/chat.h"
#include "game/plugin_int.h"

#define PERM_DEFAULT_LEVEL 2 /* a permission no plugin declared: game masters */
#define STORES_MAX         (2 * PLUGIN_MAX)
#define PERMS_FILE_MAX     (4u << 20)

plugin *plugin_list[PLUGIN_MAX];
int plugin_count;
int plugin_depth;
bool plugins_started;
uint32_t plugin_wanted;

static int budget_x = 1;      /* init.lua runs with PLUGIN_INIT_BUDGET_X */
static bool safe_work;        /* a disabled plugin's state to close, the tree to rebuild */
static bool tree_dirty;       /* commands changed */
static struct load_job *busy; /* a reload in flight or waiting for the safe point */

/* ============================================================ the limits */

static void *plugin_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    plugin *p = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        p->mem_used -= old;
        return NULL;
    }
    size_t limit = p->mem_limit + (p->mem_grace ? PLUGIN_MEM_GRACE : 0);
    if (nsize > old && p->mem_used - old + nsize > limit) return NULL;
    void *np = realloc(ptr, nsize);
    if (!np) return NULL;
    p->mem_used = p->mem_used - old + nsize;
    if (p->mem_used > p->mem_peak) p->mem_peak = p->mem_used;
    return np;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    plugin *p = plugin_of(L);
    if (!p->aborting) {
        if (clock_ns() <= p->deadline_ns) {
            if (lua_gethookcount(L) != PLUGIN_HOOK_EVERY)
                lua_sethook(L, budget_hook, LUA_MASKCOUNT, PLUGIN_HOOK_EVERY);
            return;
        }
        p->aborting = true;
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
        luaL_error(L, "ran past its time budget of %d ms and was stopped",
                   p->m.budget_ms * budget_x);
    }
    luaL_error(L, "stopped (past its time budget)");
}

static int panic(lua_State *L)
{
    /* Unreachable by invariant 2; if it ever is, say which plugin. */
    log_error("[%s] Lua panic: %s", plugin_of(L)->m.name,
              lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    return 0;
}

static void warnf(void *ud, const char *msg, int tocont)
{
    plugin *p = ud;
    (void)tocont;
    if (msg[0] != '@') log_warn("[%s] Lua warning: %s", p->m.name, msg);
}

/* Message handler of plugin_call: the error as text and a traceback. Only
 * C here, and no metamethods: it runs while the call may be stopping. */
static int msgh(lua_State *L)
{
    plugin_of(L)->mem_grace = true;
    const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
    if (!msg)
        msg = lua_pushfstring(L, "(the error is a %s value, not a message)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int plugin_call(lua_State *L, int nargs, int nres, const char *what)
{
    plugin *p = plugin_of(L);
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, msgh);
    lua_insert(L, base);
    bool outer = p->depth++ == 0;
    int64_t t0 = 0;
    if (outer) {
        t0 = clock_ns();
        p->deadline_ns = t0 + p->budget_ns * budget_x;
        p->aborting = false;
    }
    p->calls++;
    plugin_depth++;
    int st = lua_pcall(L, nargs, nres, base);
    plugin_depth--;
    p->depth--;
    if (outer) {
        p->call_ns += clock_ns() - t0;
        p->aborting = false;
    }
    lua_remove(L, base);
    if (st == LUA_OK) {
        p->mem_grace = false;
        return 0;
    }
    p->mem_grace = true;
    if (st == LUA_ERRMEM) {
        char m[160];
        snprintf(m, sizeof m, "not enough memory (the plugin's heap is capped at %d MiB)",
                 p->m.memory_mb);
        plugin_error(p, what, m);
    } else {
        plugin_error(p, what, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error");
    }
    p->mem_grace = false;
    lua_pop(L, 1);
    return -1;
}

struct run_ctx {
    int (*fn)(lua_State *L, void *arg);
    void *arg;
};

static int run_trampoline(lua_State *L)
{
    struct run_ctx *r = lua_touserdata(L, 1);
    lua_settop(L, 0);
    r->fn(L, r->arg);
    return 0;
}

int plugin_run(plugin *p, int (*fn)(lua_State *L, void *arg), void *arg, const char *what)
{
    if (!p || p->status != PL_ENABLED || !p->L) return -1;
    lua_State *L = p->L;
    struct run_ctx r = {fn, arg};
    int top = lua_gettop(L);
    if (p->depth == 0) p->deadline_ns = clock_ns() + p->budget_ns * budget_x;
    plugin_depth++;
    lua_pushcfunction(L, run_trampoline);
    lua_pushlightuserdata(L, &r);
    int st = lua_pcall(L, 1, 0, 0);
    plugin_depth--;
    if (st != LUA_OK)
        plugin_error(p, what,
                     st == LUA_ERRMEM ? "not enough memory (the plugin's heap is full)"
                     : lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                      : "error");
    lua_settop(L, top);
    return st == LUA_OK ? 0 : -1;
}

void plugin_error(plugin *p, const char *what, const char *msg)
{
    p->errors++;
    int lines = 0;
    for (const char *s = msg; *s && lines < 16; lines++) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        while (n && (*s == '\t' || *s == ' ')) s++, n--;
        if (lines == 0)
            log_error("[%s] error in %s: %.*s", p->m.name, what, (int)(n < 400 ? n : 400), s);
        else
            log_error("[%s]   %.*s", p->m.name, (int)(n < 300 ? n : 300), s);
        s += n;
        if (*s == '\n') s++;
    }
    int64_t now = clock_ms();
    p->err_ms[p->err_next] = now;
    p->err_next = (p->err_next + 1) % PLUGIN_ERRORS_MAX;
    int64_t oldest = p->err_ms[p->err_next]; /* the first of the last 100 */
    if (p->errors >= PLUGIN_ERRORS_MAX && now - oldest < PLUGIN_ERRORS_WINDOW_MS)
        plugin_disable(p, "100 errors within a minute");
}

void plugin_update_wanted(void)
{
    uint32_t w = 0;
    for (int i = 0; i < plugin_count; i++) {
        plugin *p = plugin_list[i];
        if (p->status != PL_ENABLED) continue;
        for (int e = 0; e < PEV_COUNT; e++)
            if (p->nhandlers[e]) w |= 1u << e;
    }
    plugin_wanted = w;
}

void plugin_disable(plugin *p, const char *why)
{
    if (p->status != PL_ENABLED) return;
    p->status = PL_DISABLED;
    snprintf(p->why, sizeof p->why, "%s", why);
    log_warn("[%s] disabled: %s; `plugins reload %s` enables it again", p->m.name, why, p->m.name);
    plugin_update_wanted();
    safe_work = tree_dirty = true;
}

void plugin_commands_changed(void)
{
    safe_work = tree_dirty = true;
}

plugin *plugin_find(const char *name)
{
    for (int i = 0; i < plugin_count; i++)
        if (strcmp(plugin_list[i]->m.name, name) == 0) return plugin_list[i];
    return NULL;
}

/* ================================================================ storage */

static struct plugin_store *stores[STORES_MAX];
static int nstores;

static char *store_dump(void *arg)
{
    struct plugin_store *s = arg;
    return json_dumps(s->data, JSON_INDENT(2) | JSON_SORT_KEYS);
}

static struct plugin_store *store_find(const char *name)
{
    for (int i = 0; i < nstores; i++)
        if (strcmp(stores[i]->name, name) == 0) return stores[i];
    return NULL;
}

/* The storage of plugin `name`: in memory already, or from the file's text
 * (NULL: none). NULL only when out of memory or out of room. */
static struct plugin_store *store_open(const char *name, const char *text, size_t len)
{
    struct plugin_store *s = store_find(name);
    if (s) return s;
    if (nstores == STORES_MAX || !(s = calloc(1, sizeof *s))) return NULL;
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->path, sizeof s->path, PLUGIN_DIR "/%s/data/storage.json", name);
    if (text) {
        json_error_t je;
        s->data = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
        if (!json_is_object(s->data)) {
            log_error("[%s] %s: line %d: %s; starting with empty storage (the file is kept "
                      "aside at the first write)",
                      name, s->path, je.line, s->data ? "not an object" : je.text);
            json_decref(s->data);
            s->data = NULL;
            s->sv.set_aside = true;
        }
    }
    if (!s->data) s->data = json_object();
    s->bytes = json_dumpb(s->data, NULL, 0, JSON_COMPACT);
    s->sv.path = s->path;
    s->sv.dump = store_dump;
    s->sv.arg = s;
    stores[nstores++] = s;
    return s;
}

void plugin_store_touch(struct plugin_store *s)
{
    s->dirty = true;
}

static void stores_flush(void)
{
    for (int i = 0; i < nstores; i++) {
        if (stores[i]->dirty) {
            stores[i]->dirty = false;
            saver_request(&stores[i]->sv);
        } else {
            saver_flush(&stores[i]->sv);
        }
    }
}

/* ============================================================ permissions */

static json_t *perm_data; /* {"players": {...}} */

static char *perm_dump(void *arg)
{
    (void)arg;
    return json_dumps(perm_data, JSON_INDENT(2) | JSON_SORT_KEYS);
}

static saver perm_saver = {.path = PLUGIN_PERMISSIONS_FILE, .dump = perm_dump};

static void perms_load(const char *text, size_t len, int rc)
{
    if (rc == -ENOENT || (rc == 0 && !text)) {
        if (!perm_data) perm_data = json_pack("{s:{}}", "players");
        return;
    }
    json_error_t je;
    json_t *j = rc == 0 ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &je) : NULL;
    if (!j || !json_is_object(json_object_get(j, "players"))) {
        if (rc < 0)
            log_error("cannot read %s: %s; permissions kept as they were", PLUGIN_PERMISSIONS_FILE,
                      strerror(-rc));
        else
            log_error("%s: %s%s; permissions kept as they were (the file is kept aside at the "
                      "next change)",
                      PLUGIN_PERMISSIONS_FILE, j ? "" : je.text,
                      j ? "it needs an object \"players\"" : "");
        json_decref(j);
        perm_saver.set_aside = rc == 0;
        if (!perm_data) perm_data = json_pack("{s:{}}", "players");
        return;
    }
    json_decref(perm_data);
    perm_data = j;
}

/* "a.*" covers "a.b" and "a.b.c"; "*" covers everything. */
static bool perm_covers(const char *pattern, const char *node)
{
    size_t n = strlen(pattern);
    if (strcmp(pattern, node) == 0 || strcmp(pattern, "*") == 0) return true;
    return n >= 2 && pattern[n - 1] == '*' && pattern[n - 2] == '.' &&
           strncmp(pattern, node, n - 1) == 0;
}

static json_t *perm_entry(const mc_uuid *uuid, const char *name, bool create)
{
    char id[37];
    uuid_format(uuid, id);
    json_t *players = json_object_get(perm_data, "players");
    json_t *e = json_object_get(players, id);
    if (!e && create && players) {
        e = json_pack("{s:s,s:[]}", "name", name, "permissions");
        if (!e || json_object_set_new(players, id, e) < 0) return NULL;
    }
    return e;
}

bool plugin_permission(const player *pl, const char *node)
{
    json_t *list = json_object_get(perm_entry(&pl->uuid, pl->name, false), "permissions");
    int found = -1; /* explicit: 1 granted, 0 denied; exact beats a wildcard */
    bool exact = false;
    for (size_t i = 0; i < json_array_size(list); i++) {
        const char *s = json_string_value(json_array_get(list, i));
        if (!s) continue;
        bool deny = s[0] == '-';
        if (!perm_covers(s + deny, node)) continue;
        bool is_exact = strcmp(s + deny, node) == 0;
        if (found < 0 || (is_exact && !exact)) {
            found = !deny;
            exact = is_exact;
        }
    }
    if (found >= 0) return found;
    int level = PERM_DEFAULT_LEVEL;
    for (int i = 0; i < plugin_count; i++)
        for (int k = 0; k < plugin_list[i]->nperms; k++)
            if (strcmp(plugin_list[i]->perms[k].node, node) == 0)
                level = plugin_list[i]->perms[k].level;
    return pl->op_level >= level;
}

int plugin_permission_set(const mc_uuid *uuid, const char *name, const char *node, bool grant)
{
    json_t *e = perm_entry(uuid, name, grant);
    json_t *list = json_object_get(e, "permissions");
    if (!json_is_array(list)) {
        if (!grant) return 0;
        if (!e || json_object_set_new(e, "permissions", list = json_array()) < 0) return -1;
    }
    bool had = false;
    for (size_t i = json_array_size(list); i-- > 0;) {
        const char *s = json_string_value(json_array_get(list, i));
        if (s && strcmp(s + (s[0] == '-'), node) == 0) {
            had = had || s[0] != '-';
            json_array_remove(list, i);
        }
    }
    if (grant && json_array_append_new(list, json_string(node)) < 0) return -1;
    json_object_set_new(e, "name", json_string(name));
    fio_mkdir(PLUGIN_DIR); /* an operator's command, rarely: the one mkdir on this thread */
    saver_request(&perm_saver);
    return grant != had;
}

/* ================================================================ loading */

/* What the load job read for one plugin folder. */
struct plugin_src {
    char name[PLUGIN_NAME_MAX + 1];
    char err[200]; /* it could not be read */
    char *manifest, *config, *store;
    size_t manifest_len, config_len, store_len;
    struct plugin_file files[PLUGIN_FILES_MAX];
    int nfiles;
};

struct load_job {
    job j;
    char only[PLUGIN_NAME_MAX + 1]; /* "" = every plugin */
    char have_store[STORES_MAX][PLUGIN_NAME_MAX + 1];
    int nhave;
    uint32_t requester;
    struct plugin_src src[PLUGIN_MAX];
    int n, extra;
    char *perms;
    size_t perms_len;
    int perms_rc, dir_rc;
    bool done;
};

static int read_into(const char *path, size_t cap, char **out, size_t *len)
{
    uint8_t *b = NULL;
    int rc = fio_read_file(path, cap, &b, len);
    *out = (char *)b;
    return rc;
}

static bool lua_file_name(const char *n)
{
    size_t len = strlen(n);
    if (len < 5 || len >= sizeof((struct plugin_file *)0)->name || strcmp(n + len - 4, ".lua") != 0)
        return false;
    for (size_t i = 0; i < len - 4; i++)
        if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= 'A' && n[i] <= 'Z') ||
              (n[i] >= '0' && n[i] <= '9') || n[i] == '_' || n[i] == '-'))
            return false;
    return true;
}

/* Worker (or inline at startup): reads one plugin folder into s. */
static void read_plugin(struct plugin_src *s, bool want_store)
{
    char path[256];
    snprintf(path, sizeof path, PLUGIN_DIR "/%s", s->name);
    DIR *d = opendir(path);
    if (!d) {
        snprintf(s->err, sizeof s->err, "cannot read %.120s: %s", path, strerror(errno));
        return;
    }
    bool init = false;
    for (struct dirent *de; (de = readdir(d));) {
        if (!lua_file_name(de->d_name)) continue;
        if (s->nfiles == PLUGIN_FILES_MAX) {
            snprintf(s->err, sizeof s->err, "more than %d .lua files in %.120s", PLUGIN_FILES_MAX,
                     path);
            break;
        }
        struct plugin_file *f = &s->files[s->nfiles];
        snprintf(f->name, sizeof f->name, "%s", de->d_name);
        snprintf(path, sizeof path, PLUGIN_DIR "/%s/%s", s->name, f->name);
        int rc = read_into(path, PLUGIN_FILE_MAX, &f->text, &f->len);
        if (rc < 0) {
            snprintf(s->err, sizeof s->err, "cannot read %.120s: %s", path,
                     rc == -EFBIG ? "larger than 1 MiB" : strerror(-rc));
            break;
        }
        s->nfiles++;
        init = init || strcmp(f->name, "init.lua") == 0;
    }
    closedir(d);
    if (!s->err[0] && !init)
        snprintf(s->err, sizeof s->err, "no init.lua in " PLUGIN_DIR "/%s", s->name);
    if (s->err[0]) return;
    struct {
        const char *file;
        size_t cap;
        char **out;
        size_t *len;
    } extra[3] = {{"plugin.json", PLUGIN_MANIFEST_MAX, &s->manifest, &s->manifest_len},
                  {"config.json", PLUGIN_CONFIG_MAX, &s->config, &s->config_len},
                  {"data/storage.json", PLUGIN_STORE_MAX, &s->store, &s->store_len}};
    for (int i = 0; i < (want_store ? 3 : 2); i++) {
        snprintf(path, sizeof path, PLUGIN_DIR "/%s/%s", s->name, extra[i].file);
        int rc = read_into(path, extra[i].cap, extra[i].out, extra[i].len);
        if (rc < 0 && rc != -ENOENT) {
            snprintf(s->err, sizeof s->err, "cannot read %.120s: %s", path, strerror(-rc));
            return;
        }
    }
    snprintf(path, sizeof path, PLUGIN_DIR "/%s/data", s->name);
    int rc = fio_mkdir(path);
    if (rc < 0) log_warn("cannot create %s: %s (storage will not be saved)", path, strerror(-rc));
}

static int cmp_src(const void *a, const void *b)
{
    return strcmp(((const struct plugin_src *)a)->name, ((const struct plugin_src *)b)->name);
}

static void load_run(job *jb, worker_ctx *w)
{
    (void)w;
    struct load_job *lj = (struct load_job *)jb;
    DIR *d = opendir(PLUGIN_DIR);
    if (!d) { /* no plugins/ folder: no plugins (it is not made for the operator) */
        lj->dir_rc = errno == ENOENT ? 0 : -errno;
        return;
    }
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        char path[300];
        struct stat st;
        snprintf(path, sizeof path, PLUGIN_DIR "/%s", de->d_name);
        if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) continue;
        if (lj->only[0] && strcmp(lj->only, de->d_name) != 0) continue;
        if (lj->n == PLUGIN_MAX) {
            lj->extra++;
            continue;
        }
        struct plugin_src *s = &lj->src[lj->n++];
        snprintf(s->name, sizeof s->name, "%.32s", de->d_name);
        if (!plugin_name_valid(de->d_name))
            snprintf(s->err, sizeof s->err,
                     "%s/%.40s: the folder name is not a plugin name (1 to %d of a-z 0-9 _ -)",
                     PLUGIN_DIR, de->d_name, PLUGIN_NAME_MAX);
    }
    closedir(d);
    qsort(lj->src, (size_t)lj->n, sizeof lj->src[0], cmp_src);
    for (int i = 0; i < lj->n; i++) {
        if (lj->src[i].err[0]) continue;
        bool want = true;
        for (int k = 0; k < lj->nhave && want; k++)
            want = strcmp(lj->have_store[k], lj->src[i].name) != 0;
        read_plugin(&lj->src[i], want);
    }
    lj->perms_rc = read_into(PLUGIN_PERMISSIONS_FILE, PERMS_FILE_MAX, &lj->perms, &lj->perms_len);
}

static void load_done(job *jb)
{
    ((struct load_job *)jb)->done = true; /* applied at the next safe point */
}

static void src_free(struct plugin_src *s)
{
    free(s->manifest);
    free(s->config);
    free(s->store);
    for (int i = 0; i < s->nfiles; i++) free(s->files[i].text);
    s->nfiles = 0;
    s->manifest = s->config = s->store = NULL;
}

static void job_free(struct load_job *lj)
{
    for (int i = 0; i < lj->n; i++) src_free(&lj->src[i]);
    free(lj->perms);
    free(lj);
}

/* ----------------------------------------------------------- a plugin's state */

static int open_api(lua_State *L, void *arg)
{
    (void)arg;
    return plugin_api_open(L);
}

static int run_init(lua_State *L, void *arg)
{
    plugin *p = plugin_of(L);
    const struct plugin_file *f = NULL;
    for (int i = 0; i < p->nfiles; i++)
        if (strcmp(p->files[i].name, "init.lua") == 0) f = &p->files[i];
    char chunk[96];
    snprintf(chunk, sizeof chunk, "@" PLUGIN_DIR "/%s/init.lua", p->m.name);
    if (luaL_loadbufferx(L, f->text, f->len, chunk, "t") != LUA_OK) lua_error(L);
    *(bool *)arg = plugin_call(L, 0, 0, "init.lua") == 0;
    return 0;
}

static void close_state(plugin *p)
{
    plugin_api_forget(p);
    if (p->L) lua_close(p->L);
    p->L = NULL;
    memset(p->nhandlers, 0, sizeof p->nhandlers);
}

static void plugin_free(plugin *p)
{
    close_state(p);
    for (int i = 0; i < p->nfiles; i++) free(p->files[i].text);
    json_decref(p->config);
    free(p);
}

static void fail(plugin *p, const char *why)
{
    p->status = PL_FAILED;
    snprintf(p->why, sizeof p->why, "%s", why);
    log_error("[%s] not loaded: %s", p->m.name, why);
    close_state(p);
}

/* A record from what was read (taking its files), its state, init.lua run. */
static plugin *plugin_make(struct plugin_src *s, const struct plugin_manifest *m, const char *why)
{
    plugin *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->m = *m;
    if (!p->m.name[0]) snprintf(p->m.name, sizeof p->m.name, "%s", s->name);
    memcpy(p->files, s->files, sizeof p->files);
    p->nfiles = s->nfiles;
    s->nfiles = 0;
    if (why) {
        fail(p, why);
        return p;
    }
    if (s->config) {
        json_error_t je;
        p->config = json_loadb(s->config, s->config_len, JSON_REJECT_DUPLICATES, &je);
        if (!json_is_object(p->config)) {
            char e[200];
            snprintf(e, sizeof e, "config.json: line %d: %s", je.line,
                     p->config ? "it must hold an object ({...})" : je.text);
            fail(p, e);
            return p;
        }
    }
    p->store = store_open(p->m.name, s->store, s->store_len);
    if (!p->store) {
        fail(p, "no memory for its storage");
        return p;
    }
    p->mem_limit = (size_t)p->m.memory_mb << 20;
    p->budget_ns = (int64_t)p->m.budget_ms * 1000000;
    p->L = lua_newstate(plugin_alloc, p);
    if (!p->L) {
        fail(p, "cannot make a Lua state (out of memory)");
        return p;
    }
    *(plugin **)lua_getextraspace(p->L) = p;
    lua_atpanic(p->L, panic);
    lua_setwarnf(p->L, warnf, p);
    lua_sethook(p->L, budget_hook, LUA_MASKCOUNT, PLUGIN_HOOK_EVERY);
    p->status = PL_ENABLED;
    bool ok = false;
    budget_x = PLUGIN_INIT_BUDGET_X;
    if (plugin_run(p, open_api, NULL, "setting up its state") == 0)
        plugin_run(p, run_init, &ok, "init.lua");
    budget_x = 1;
    if (p->status == PL_ENABLED && !ok) fail(p, "init.lua failed (the error is logged above)");
    p->loaded_now = p->status == PL_ENABLED;
    return p;
}

/* The manifests of the folders read, their order, a record for each. */
static void load_all(struct load_job *lj)
{
    static struct plugin_manifest m[PLUGIN_MAX];
    static char why[PLUGIN_MAX][128];
    static char err[PLUGIN_MAX][256];
    bool ok[PLUGIN_MAX];
    int order[PLUGIN_MAX], n = 0;
    for (int i = 0; i < lj->n; i++) {
        struct plugin_src *s = &lj->src[i];
        err[i][0] = 0;
        if (s->err[0])
            snprintf(err[i], sizeof err[i], "%s", s->err);
        else
            plugin_manifest_parse(s->name, s->manifest, s->manifest_len, &m[i], err[i],
                                  sizeof err[i]);
        if (err[i][0]) memset(&m[i], 0, sizeof m[i]);
        ok[i] = !err[i][0];
    }
    plugin_order(m, ok, lj->n, order, &n, why);
    for (int k = 0; k < n; k++) {
        plugin *p = plugin_make(&lj->src[order[k]], &m[order[k]], NULL);
        if (p) plugin_list[plugin_count++] = p;
    }
    for (int i = 0; i < lj->n && plugin_count < PLUGIN_MAX; i++) {
        if (!err[i][0] && !why[i][0]) continue;
        plugin *p = plugin_make(&lj->src[i], &m[i], err[i][0] ? err[i] : why[i]);
        if (p) plugin_list[plugin_count++] = p;
    }
}

/* `plugins reload name`: the new record takes the old one's place. The
 * old one leaves plugin_list before the new init.lua runs, so nothing sees
 * a freed record (or its commands) meanwhile. */
static void load_one(struct load_job *lj)
{
    plugin *old = plugin_find(lj->only);
    int slot = plugin_count;
    for (int i = 0; i < plugin_count; i++)
        if (plugin_list[i] == old) slot = i;
    if (old) {
        plugin_event_lifecycle(old, PEV_STOP, "reload");
        memmove(&plugin_list[slot], &plugin_list[slot + 1],
                (size_t)(plugin_count - slot - 1) * sizeof plugin_list[0]);
        plugin_count--;
        plugin_free(old);
        cmd_plugins_rebuild(false); /* the tree forgets the freed record's names */
    }
    if (lj->n == 0) { /* the folder is gone: the plugin is unloaded */
        log_info("no plugin %s in " PLUGIN_DIR "/%s", lj->only, old ? ": unloaded" : "");
        return;
    }
    struct plugin_src *s = &lj->src[0];
    struct plugin_manifest m;
    char err[256] = "";
    if (s->err[0])
        snprintf(err, sizeof err, "%s", s->err);
    else if (plugin_manifest_parse(s->name, s->manifest, s->manifest_len, &m, err, sizeof err) == 0)
        for (int d = 0; d < m.ndepends && !err[0]; d++) {
            plugin *dep = plugin_find(m.depends[d]);
            if (!dep || dep->status != PL_ENABLED)
                snprintf(err, sizeof err, "it depends on %s, which %s", m.depends[d],
                         dep ? "is not loaded" : "is not installed");
        }
    if (err[0]) memset(&m, 0, sizeof m);
    plugin *p = plugin_make(s, &m, err[0] ? err : NULL);
    if (!p || plugin_count == PLUGIN_MAX) {
        if (p) plugin_free(p);
        return;
    }
    memmove(&plugin_list[slot + 1], &plugin_list[slot],
            (size_t)(plugin_count - slot) * sizeof plugin_list[0]);
    plugin_list[slot] = p;
    plugin_count++;
}

static void report(struct load_job *lj)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "Plugins:");
    int enabled = 0, total = 0;
    for (int i = 0; i < plugin_count && n < (int)sizeof line - 64; i++) {
        plugin *p = plugin_list[i];
        if (lj->only[0] && strcmp(p->m.name, lj->only) != 0) continue;
        enabled += p->status == PL_ENABLED;
        total++;
        n += snprintf(line + n, sizeof line - (size_t)n, "%s %s%s", total > 1 ? "," : "", p->m.name,
                      p->status == PL_ENABLED ? "" : " (failed)");
    }
    if (lj->extra)
        log_warn("more than %d plugin folders in " PLUGIN_DIR "/: %d ignored", PLUGIN_MAX,
                 lj->extra);
    if (total) log_info("%s", line);
    conn *c = lj->requester ? plugin_player_conn(lj->requester) : NULL;
    if (!c) return;
    buf_t j;
    buf_init(&j, 4096);
    char text[160];
    snprintf(text, sizeof text, "Reloaded %s: %d enabled, %d failed (details in the log)",
             lj->only[0] ? lj->only : "every plugin", enabled, total - enabled);
    buf_lit(&j, "{\"text\":");
    json_append_string(&j, text, strlen(text));
    buf_lit(&j, "}");
    if (!j.failed) chat_send(c, (const char *)j.data, j.len);
    buf_free(&j);
}

/* Applies a finished load job (startup, or a safe point). */
static void apply(struct load_job *lj)
{
    if (lj->dir_rc < 0) {
        log_error("cannot read " PLUGIN_DIR "/: %s; plugins left as they were",
                  strerror(-lj->dir_rc));
        return;
    }
    perms_load(lj->perms, lj->perms_len, lj->perms_rc);
    if (lj->only[0]) {
        load_one(lj);
    } else {
        for (int i = 0; i < plugin_count; i++)
            if (plugins_started) plugin_event_lifecycle(plugin_list[i], PEV_STOP, "reload");
        for (int i = 0; i < plugin_count; i++) plugin_free(plugin_list[i]);
        plugin_count = 0;
        cmd_plugins_rebuild(false); /* the tree forgets the freed records' names */
        load_all(lj);
    }
    plugin_update_wanted();
    cmd_plugins_rebuild(true);
    report(lj);
    if (!plugins_started) return;
    for (int i = 0; i < plugin_count; i++)
        if (plugin_list[i]->loaded_now) {
            plugin_list[i]->loaded_now = false;
            plugin_event_lifecycle(plugin_list[i], PEV_START, "reload");
        }
}

/* Invariant 3 of plugin_int.h: closes states, applies a reload, rebuilds the tree. */
static void safe_point(void)
{
    if (plugin_depth) return;
    if (busy && busy->done) {
        struct load_job *lj = busy;
        busy = NULL;
        apply(lj);
        job_free(lj);
        tree_dirty = false; /* apply rebuilt it */
    }
    if (!safe_work) return;
    safe_work = false;
    for (int i = 0; i < plugin_count; i++)
        if (plugin_list[i]->status != PL_ENABLED && plugin_list[i]->L) close_state(plugin_list[i]);
    if (tree_dirty) cmd_plugins_rebuild(true);
    tree_dirty = false;
}

/* ================================================================ requests */

int plugins_request_reload(const char *name, uint32_t requester, char *msg, size_t cap)
{
    if (busy) {
        snprintf(msg, cap, "A plugin reload is already in progress");
        return -1;
    }
    if (name && !plugin_name_valid(name)) {
        snprintf(msg, cap, "Not a plugin name: %s", name);
        return -1;
    }
    struct load_job *lj = calloc(1, sizeof *lj);
    if (!lj) {
        snprintf(msg, cap, "Out of memory");
        return -1;
    }
    snprintf(lj->only, sizeof lj->only, "%s", name ? name : "");
    for (int i = 0; i < nstores; i++)
        snprintf(lj->have_store[lj->nhave++], sizeof lj->have_store[0], "%s", stores[i]->name);
    lj->requester = requester;
    lj->j.run = load_run;
    lj->j.done = load_done;
    busy = lj;
    workers_run(&lj->j);
    snprintf(msg, cap, name ? "Reloading plugin %s" : "Reloading every plugin%s", name ? name : "");
    return 0;
}

int plugins_request_disable(const char *name, char *msg, size_t cap)
{
    plugin *p = plugin_find(name);
    if (!p || p->status != PL_ENABLED) {
        snprintf(msg, cap, p ? "Plugin %s is not enabled" : "There is no plugin %s", name);
        return -1;
    }
    plugin_event_lifecycle(p, PEV_STOP, "disable");
    plugin_disable(p, "disabled by an operator");
    snprintf(msg, cap, "Disabled plugin %s", name);
    return 0;
}

/* ================================================================ the game */

void plugins_init(void)
{
    struct load_job *lj = calloc(1, sizeof *lj);
    if (!lj) {
        log_error("plugins: out of memory");
        return;
    }
    load_run(&lj->j, NULL);
    apply(lj);
    job_free(lj);
}

void plugins_tick(void)
{
    uint64_t tick = game.tick_count;
    if (!plugins_started) {
        plugins_started = true;
        for (int i = 0; i < plugin_count; i++) {
            plugin_list[i]->loaded_now = false;
            plugin_event_lifecycle(plugin_list[i], PEV_START, "server");
        }
    }
    plugin_events_tick(tick);
    for (int i = 0; i < plugin_count; i++)
        if (plugin_list[i]->status == PL_ENABLED) plugin_api_run_tasks(plugin_list[i], tick);
    if (tick % 20 == 0) stores_flush();
    safe_point();
}

void plugins_stop(void)
{
    for (int i = 0; i < plugin_count; i++)
        plugin_event_lifecycle(plugin_list[i], PEV_STOP, "server");
}

void plugins_free(void)
{
    for (int i = 0; i < plugin_count; i++) plugin_free(plugin_list[i]);
    plugin_count = 0;
    plugin_wanted = 0;
    /* The pool has stopped: these writes run inline, now. */
    stores_flush();
    for (int i = 0; i < nstores; i++) {
        json_decref(stores[i]->data);
        free(stores[i]);
    }
    nstores = 0;
    saver_flush(&perm_saver);
    json_decref(perm_data);
    perm_data = NULL;
    if (busy) job_free(busy);
    busy = NULL;
    plugin_events_free();
    plugins_started = false;
}
