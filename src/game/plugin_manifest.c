/*
 * plugin_manifest.c — see plugin_manifest.h: plugin.json and the load order.
 *
 * Ordering is Kahn's algorithm run in passes: each pass walks the plugins
 * in the order given and takes every one whose dependencies are all taken,
 * so independent plugins keep their (alphabetical) order and a dependency
 * always comes first. What is left after a pass that took nothing is either
 * missing a dependency (directly or through another) or in a cycle.
 */
#include "game/plugin_manifest.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

bool plugin_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > PLUGIN_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    }
    return true;
}

/* A bounded string member into out; absent is "". -1 if it is not a string. */
static int get_string(json_t *o, const char *key, char *out, size_t cap, char *err, size_t errlen)
{
    json_t *v = json_object_get(o, key);
    out[0] = 0;
    if (!v) return 0;
    if (!json_is_string(v)) {
        snprintf(err, errlen, "plugin.json: \"%s\" must be a string", key);
        return -1;
    }
    snprintf(out, cap, "%s", json_string_value(v));
    return 0;
}

static int get_int(json_t *o, const char *key, int lo, int hi, int *out, char *err, size_t errlen)
{
    json_t *v = json_object_get(o, key);
    if (!v) return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        snprintf(err, errlen, "plugin.json: \"%s\" must be a whole number from %d to %d", key, lo,
                 hi);
        return -1;
    }
    *out = (int)json_integer_value(v);
    return 0;
}

int plugin_manifest_parse(const char *folder, const char *text, size_t len,
                          struct plugin_manifest *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->memory_mb = PLUGIN_MEM_DEFAULT;
    m->budget_ms = PLUGIN_BUDGET_MS;
    if (!plugin_name_valid(folder)) {
        snprintf(err, errlen,
                 "the folder name is not a plugin name (1 to %d of a-z 0-9 _ -, lower case)",
                 PLUGIN_NAME_MAX);
        return -1;
    }
    snprintf(m->name, sizeof m->name, "%s", folder);
    if (!text) return 0;
    if (len > PLUGIN_MANIFEST_MAX) {
        snprintf(err, errlen, "plugin.json is larger than %u bytes", PLUGIN_MANIFEST_MAX);
        return -1;
    }
    json_error_t je;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        snprintf(err, errlen, "plugin.json: line %d: %s", je.line, je.text);
        return -1;
    }
    int rc = -1;
    char name[PLUGIN_NAME_MAX + 2];
    if (!json_is_object(o)) {
        snprintf(err, errlen, "plugin.json must hold an object ({...})");
        goto out;
    }
    if (get_string(o, "name", name, sizeof name, err, errlen) < 0 ||
        get_string(o, "version", m->version, sizeof m->version, err, errlen) < 0 ||
        get_string(o, "description", m->description, sizeof m->description, err, errlen) < 0 ||
        get_int(o, "memory_mb", 1, PLUGIN_MEM_MAX, &m->memory_mb, err, errlen) < 0 ||
        get_int(o, "budget_ms", 1, PLUGIN_BUDGET_MAX, &m->budget_ms, err, errlen) < 0)
        goto out;
    if (name[0] && strcmp(name, folder) != 0) {
        snprintf(err, errlen, "plugin.json names the plugin \"%.32s\" but its folder is \"%s\"",
                 name, folder);
        goto out;
    }
    json_t *deps = json_object_get(o, "depends");
    if (deps && !json_is_array(deps)) {
        snprintf(err, errlen, "plugin.json: \"depends\" must be a list of plugin names");
        goto out;
    }
    if (json_array_size(deps) > PLUGIN_DEPENDS_MAX) {
        snprintf(err, errlen, "plugin.json: at most %d dependencies", PLUGIN_DEPENDS_MAX);
        goto out;
    }
    for (size_t i = 0; i < json_array_size(deps); i++) {
        json_t *d = json_array_get(deps, i);
        if (!json_is_string(d) || !plugin_name_valid(json_string_value(d))) {
            snprintf(err, errlen, "plugin.json: depends[%zu] is not a plugin name", i);
            goto out;
        }
        if (strcmp(json_string_value(d), folder) == 0) {
            snprintf(err, errlen, "plugin.json: a plugin cannot depend on itself");
            goto out;
        }
        snprintf(m->depends[m->ndepends++], sizeof m->depends[0], "%s", json_string_value(d));
    }
    rc = 0;
out:
    json_decref(o);
    return rc;
}

static int find(const struct plugin_manifest *m, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0) return i;
    return -1;
}

void plugin_order(const struct plugin_manifest *m, const bool *loadable, int n, int *order,
                  int *count, char (*why)[128])
{
    bool taken[PLUGIN_MAX] = {0}, out[PLUGIN_MAX] = {0};
    if (n > PLUGIN_MAX) n = PLUGIN_MAX;
    *count = 0;
    for (int i = 0; i < n; i++) {
        why[i][0] = 0;
        if (loadable && !loadable[i]) {
            out[i] = true;
            snprintf(why[i], sizeof why[i], "it did not load");
        }
    }
    /* Missing dependencies (directly or through one left out) are final. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            if (out[i]) continue;
            for (int d = 0; d < m[i].ndepends; d++) {
                int k = find(m, n, m[i].depends[d]);
                if (k >= 0 && !out[k]) continue;
                snprintf(why[i], sizeof why[i], "it depends on %s, which %s", m[i].depends[d],
                         k < 0 ? "is not installed" : "is not loaded");
                out[i] = changed = true;
                break;
            }
        }
    }
    for (bool progress = true; progress;) {
        progress = false;
        for (int i = 0; i < n; i++) {
            if (out[i] || taken[i]) continue;
            bool ready = true;
            for (int d = 0; d < m[i].ndepends && ready; d++)
                ready = taken[find(m, n, m[i].depends[d])];
            if (!ready) continue;
            taken[i] = progress = true;
            order[(*count)++] = i;
        }
    }
    for (int i = 0; i < n; i++)
        if (!out[i] && !taken[i]) snprintf(why[i], sizeof why[i], "its dependencies form a cycle");
}
