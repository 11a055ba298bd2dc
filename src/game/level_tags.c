/*
 * level_tags.c — the level.dat tags game modules own beyond what
 * world/level.c writes (the game rules, game/gamerules.c; the world border,
 * game/border.c): read from the
 * file at startup, and put before each save into the level info's copy of
 * the file (li->raw), which level_encode copies through unchanged. The same
 * save-round hook also writes the world's data/chunks.dat (forced chunks,
 * game/forceload.h).
 *
 *   startup   store_level()->raw --parse--> the Data compound --> modules' init
 *   each save store hook fill_level --> level_tags_fill: raw rebuilt with
 *             the modules' current tags in place of the old ones
 *
 * Invariants:
 *  1. Game thread only; level_encode runs on it too (world/store.c
 *     save_level), so raw is never read while it is rebuilt.
 *  2. Every tag of the old raw that no module owns is kept as it was.
 *  3. GameRules is written only when the file had it or a rule differs
 *     from its default, so a new world still gets world/level.c's complete
 *     defaults (all 45 rules); the border's tags are always written.
 */
#include "game/level_tags.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/log.h"
#include "game/border.h"
#include "game/forceload.h"
#include "game/gamerules.h"
#include "game/usercache.h"
#include "proto/nbt.h"
#include "world/anvil.h"
#include "world/level.h"
#include "world/store.h"

#define LEVEL_RAW_MAX (4u << 20)

/* Whether the rules differ from vanilla's defaults. */
static bool rules_changed(void)
{
    for (int r = 0; r < GR_COUNT; r++)
        if (gamerule_get(r) != gamerule_defs[r].def) return true;
    return false;
}

void level_tags_init(void)
{
    nbt_doc doc = {0};
    const nbt_node *data = NULL;
    level_info *li = store_active() ? store_level() : NULL;
    if (li && li->raw && nbt_parse(li->raw, li->raw_len, true, &nbt_limits_disk, &doc) > 0)
        data = nbt_get(doc.root, "Data", NBT_COMPOUND);
    gamerules_init(data);
    border_init(data);
    nbt_doc_free(&doc);
}

static bool owned(const nbt_node *n, bool rules)
{
    return (rules && n->name_len == 9 && memcmp(n->name, "GameRules", 9) == 0) ||
           border_owns_tag(n);
}

void level_tags_fill(level_info *li)
{
    forceload_save();  /* the world's other saved data, in the same round */
    usercache_flush(); /* and a usercache.json change not written yet */
    nbt_doc doc = {0};
    const nbt_node *root = NULL, *data = NULL;
    if (li->raw && nbt_parse(li->raw, li->raw_len, true, &nbt_limits_disk, &doc) > 0) {
        root = doc.root;
        data = nbt_get(root, "Data", NBT_COMPOUND);
    }
    const nbt_node *old_rules = data ? nbt_get(data, "GameRules", NBT_COMPOUND) : NULL;
    bool rules = old_rules || rules_changed(); /* invariant 3 */
    buf_t b;
    buf_init(&b, LEVEL_RAW_MAX);
    nbt_w_root(&b, "");
    if (root)
        for (const nbt_node *n = root->v.kids.first; n; n = n->next)
            if (n != data) anvil_nbt_copy_tag(&b, n);
    nbt_w_compound(&b, "Data");
    if (data)
        for (const nbt_node *n = data->v.kids.first; n; n = n->next)
            if (!owned(n, rules)) anvil_nbt_copy_tag(&b, n);
    if (rules) gamerules_write(&b, old_rules);
    border_write(&b);
    nbt_w_end(&b); /* Data */
    nbt_w_end(&b); /* root */
    nbt_doc_free(&doc);
    if (b.failed) {
        log_error("level.dat: cannot add the game rules and the border (out of memory); saving "
                  "without them");
        buf_free(&b);
        return;
    }
    free(li->raw);
    li->raw = b.data; /* the buffer's storage becomes raw (malloc'd) */
    li->raw_len = b.len;
}
