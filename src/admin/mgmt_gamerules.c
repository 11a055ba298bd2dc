/*
 * mgmt_gamerules.c — the management protocol's view of the game rules
 * (struct mgmt_gamerules, admin/mgmt.h) over game/gamerules.h: the rules
 * mcserv acts on, with vanilla's names and types. A change goes through
 * gamerule_set, the same path as /gamerule, which notifies the panels.
 *
 * Invariant: values are text as vanilla 1.21.9 sends them ("true",
 * "false", a decimal integer); a boolean rule takes only "true" or
 * "false", an integer rule a whole number in int32 range.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/mgmt.h"
#include "game/gamerules.h"

static size_t rules_count(void)
{
    return GR_COUNT;
}

static bool rules_get(size_t i, const char **key, bool *is_bool, char *value, size_t cap)
{
    if (i >= GR_COUNT) return false;
    const struct gamerule_def *d = &gamerule_defs[i];
    *key = d->name;
    *is_bool = !d->is_int;
    int32_t v = gamerule_get((enum gamerule)i);
    if (d->is_int)
        snprintf(value, cap, "%d", v);
    else
        snprintf(value, cap, "%s", v ? "true" : "false");
    return true;
}

static int rules_set(const char *key, const char *value, char *err, size_t errlen)
{
    for (int i = 0; i < GR_COUNT; i++) {
        const struct gamerule_def *d = &gamerule_defs[i];
        if (strcmp(d->name, key) != 0) continue;
        int32_t v;
        if (!d->is_int) {
            if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
                snprintf(err, errlen, "%s is a boolean rule: true or false, got '%s'", key, value);
                return -1;
            }
            v = value[0] == 't';
        } else {
            char *end;
            errno = 0;
            long l = strtol(value, &end, 10);
            if (!value[0] || *end || errno || l < INT32_MIN || l > INT32_MAX) {
                snprintf(err, errlen, "%s is an integer rule, got '%s'", key, value);
                return -1;
            }
            v = (int32_t)l;
        }
        gamerule_set((enum gamerule)i, v);
        return 0;
    }
    snprintf(err, errlen, "mcserv does not act on the game rule %s (yet)", key);
    return -1;
}

const struct mgmt_gamerules mgmt_gamerules_game = {rules_count, rules_get, rules_set};
