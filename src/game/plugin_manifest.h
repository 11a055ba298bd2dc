/*
 * plugin_manifest.h — the pure part of plugin loading: a plugin's
 * plugin.json, its name, and the order plugins load in (dependencies
 * first). No server state and no I/O: in the shared library, unit-tested
 * (tests/unit/test_plugins.c). The loader itself is game/plugins.c.
 *
 * plugin.json (every key optional; the folder name is the plugin's name):
 *
 *   { "name": "spawnprotect", "version": "1.2", "description": "...",
 *     "depends": ["welcome"], "memory_mb": 64, "budget_ms": 5 }
 *
 * Invariants:
 *  1. A name is 1..PLUGIN_NAME_MAX bytes of [a-z0-9_-] (it becomes a
 *     folder, a log prefix and a command namespace); "name" in plugin.json,
 *     when given, must equal the folder's.
 *  2. Every string is bounded (fixed buffers); at most PLUGIN_DEPENDS_MAX
 *     dependencies; numbers are range-checked, never trusted.
 *  3. plugin_order is a stable topological sort: plugins whose dependencies
 *     are all present and loadable come after those dependencies, otherwise
 *     in the order given (the loader gives them sorted by name); a plugin in
 *     a cycle or missing a dependency is not ordered and gets a reason.
 */
#ifndef MC_PLUGIN_MANIFEST_H
#define MC_PLUGIN_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#define PLUGIN_NAME_MAX     32
#define PLUGIN_DEPENDS_MAX  16
#define PLUGIN_MAX          64
#define PLUGIN_MEM_DEFAULT  64          /* MiB of Lua heap per plugin */
#define PLUGIN_MEM_MAX      1024        /* MiB: the most plugin.json may ask for */
#define PLUGIN_BUDGET_MS    5           /* one handler call, default */
#define PLUGIN_BUDGET_MAX   50          /* ms: the most plugin.json may ask for */
#define PLUGIN_MANIFEST_MAX (64u << 10) /* bytes of plugin.json */

struct plugin_manifest {
    char name[PLUGIN_NAME_MAX + 1];
    char version[33];
    char description[257];
    char depends[PLUGIN_DEPENDS_MAX][PLUGIN_NAME_MAX + 1];
    int ndepends;
    int memory_mb; /* Lua heap cap */
    int budget_ms; /* per handler call */
};

/* Invariant 1. */
bool plugin_name_valid(const char *name);
/* Fills m from plugin.json's text (NULL: no file) for the plugin in folder
 * `folder`. 0, or -1 with the reason in err (e.g. "plugin.json: depends[2]:
 * not a plugin name"). */
int plugin_manifest_parse(const char *folder, const char *text, size_t len,
                          struct plugin_manifest *m, char *err, size_t errlen);
/*
 * Load order of n manifests (invariant 3): order[0..*count) are indexes
 * into m; for each plugin left out, why[i] says which dependency is
 * missing or that it is in a cycle (why[i][0] == 0 for those ordered).
 * `loadable` (may be NULL) marks plugins that failed before ordering (a bad
 * plugin.json): they are left out, and so is everything depending on them.
 */
void plugin_order(const struct plugin_manifest *m, const bool *loadable, int n, int *order,
                  int *count, char (*why)[128]);

#endif
