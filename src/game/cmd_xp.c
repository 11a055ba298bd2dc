/*
 * cmd_xp.c — the experience (alias xp) and enchant commands, as vanilla
 * 1.20.1's ExperienceCommand and EnchantCommand, with their messages:
 *
 *   experience add <targets> <amount> [points|levels]   giveExperiencePoints / Levels
 *   experience set <targets> <amount> [points|levels]   setExperiencePoints (refused,
 *              commands.experience.set.points.invalid, when no target's level
 *              has that many points) / setExperienceLevels
 *   experience query <target> points|levels             the points within the
 *              level (floor(progress × need)) or the level; the result is the value
 *   enchant <targets> <enchantment> [<level>]            the main-hand item of each
 *              player: refused above the enchantment's maximum level
 *              (commands.enchant.failed.level), for an empty hand (.itemless),
 *              an item outside the enchantment's category or with an
 *              enchantment it excludes, itself included (.incompatible);
 *              with several targets only the ones it worked on count, and
 *              none is commands.enchant.failed.
 *
 * Departures: enchant works on players only (mobs hold nothing in mcserv);
 * an item keeps at most ITEM_ENCH_MAX enchantments (a fifth is refused as
 * incompatible), and level 0 (which vanilla stores as a useless lvl:0
 * entry) is refused the same way.
 *
 * Invariant: every experience change ends with xp_send, every item change
 * with inventory_touch (the per-tick sync sends the slot with its NBT).
 */
#include <stdio.h>
#include <string.h>

#include "data/block_table.h"
#include "data/enchant_table.h"
#include "game/cmd_internal.h"
#include "game/enchant.h"
#include "game/experience.h"
#include "game/inventory.h"
#include "game/item_names.h"
#include "game/xp.h"

static const char *const kinds[2] = {"points", "levels"};

/* experience add|set <targets> <amount> [points|levels]: vanilla's
 * addExperience / setExperience (set points refused when no target's level
 * has that many). */
static int ex_xp_change(cmd_ctx *x, bool set, bool levels)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    int amount = cmd_arg(x->ps, "amount")->u.i;
    size_t done = 0;
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        struct player_xp *xp = &c->player->xp;
        if (c->closed) continue;
        if (set && levels)
            xp_set_levels(xp, amount);
        else if (set && !xp_set_points(xp, amount))
            continue;
        else if (!set && levels)
            xp_give_levels(xp, amount);
        else if (!set)
            xp_give_points(xp, amount);
        done++;
        xp_send(c);
    }
    if (set && !done) {
        cmd_failure0(x, "commands.experience.set.points.invalid");
        return -1;
    }
    char n[24], players[24], key[64];
    snprintf(n, sizeof n, "%d", amount);
    cmd_count_arg(players, tl->n);
    snprintf(key, sizeof key, "commands.experience.%s.%s.success.%s", set ? "set" : "add",
             kinds[levels], tl->n == 1 ? "single" : "multiple");
    chat_arg a[2] = {chat_text(n), tl->n == 1 ? chat_player(tl->c[0]->player) : chat_text(players)};
    cmd_success(x, true, key, a, 2);
    return (int)done;
}

static int ex_xp_query(cmd_ctx *x, bool levels)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0 || tl->n < 1) return -1;
    const player *p = tl->c[0]->player;
    int v = levels ? p->xp.level : xp_points_in_level(&p->xp);
    char n[24], key[48];
    snprintf(n, sizeof n, "%d", v);
    snprintf(key, sizeof key, "commands.experience.query.%s", kinds[levels]);
    chat_arg a[2] = {chat_player(p), chat_text(n)};
    cmd_success(x, false, key, a, 2);
    return v;
}

/* ------------------------------------------------------------------ enchant */

/* Enchantment.getFullname as a JSON component and its en_us text. */
static chat_arg full_name(buf_t *j, buf_t *plain, int id, int level)
{
    static const char *const roman[] = {"I",  "II",  "III",  "IV", "V",
                                        "VI", "VII", "VIII", "IX", "X"};
    const struct enchant_info *e = &enchant_table[id];
    char s[160];
    snprintf(s, sizeof s, "{\"translate\":\"enchantment.minecraft.%s\",\"color\":\"%s\"", e->name,
             e->curse ? "red" : "gray");
    buf_append(j, s, strlen(s));
    buf_append(plain, e->display_name, strlen(e->display_name));
    if (level != 1 || e->max_level != 1) {
        snprintf(s, sizeof s, ",\"extra\":[\" \",{\"translate\":\"enchantment.level.%d\"}]", level);
        buf_append(j, s, strlen(s));
        if (level >= 1 && level <= 10)
            snprintf(s, sizeof s, " %s", roman[level - 1]);
        else
            snprintf(s, sizeof s, " enchantment.level.%d", level);
        buf_append(plain, s, strlen(s));
    }
    buf_append(j, "}", 1);
    buf_append(plain, "", 1);
    chat_arg a = {CA_JSON, (const char *)j->data, j->len, (const char *)plain->data, NULL};
    return a;
}

/* EnchantmentCategory.canEnchant and EnchantmentHelper.isEnchantmentCompatible. */
static bool can_take(const struct inv_slot *s, int id)
{
    if (s->item <= 0 || s->item >= ITEM_COUNT) return false;
    if (!(item_enchant_cats[s->item] >> enchant_table[id].category & 1)) return false;
    for (int i = 0; i < ITEM_ENCH_MAX; i++) {
        if (!s->ench[i]) continue;
        int other = ench_entry_id(s->ench[i]);
        if (other == id || (enchant_table[id].exclude >> other & 1)) return false;
    }
    uint16_t room[ITEM_ENCH_MAX];
    memcpy(room, s->ench, sizeof room);
    return ench_set(room, id, 1) == 0; /* a free entry */
}

static int ex_enchant(cmd_ctx *x)
{
    struct cmd_targets *tl = &cmd_targets_a;
    if (cmd_resolve_arg(x, "targets", tl) < 0) return -1;
    const struct cmd_value *ev = cmd_arg(x->ps, "enchantment"), *lv = cmd_arg(x->ps, "level");
    if (!ev) return -1;
    const char *name = x->ps->line + ev->start;
    size_t nlen = ev->end - ev->start;
    int id = ench_by_name(name, nlen);
    if (id < 0) {
        char s[140];
        snprintf(s, sizeof s, "%.*s", (int)(nlen > 128 ? 128 : nlen), name);
        chat_arg a[2] = {chat_text(s), chat_text("minecraft:enchantment")};
        cmd_failure(x, "argument.resource.not_found", a, 2);
        return -1;
    }
    int level = lv ? lv->u.i : 1;
    char t[2][24];
    if (level > enchant_table[id].max_level) {
        snprintf(t[0], sizeof t[0], "%d", level);
        snprintf(t[1], sizeof t[1], "%d", enchant_table[id].max_level);
        chat_arg a[2] = {chat_text(t[0]), chat_text(t[1])};
        cmd_failure(x, "commands.enchant.failed.level", a, 2);
        return -1;
    }
    size_t done = 0;
    for (size_t i = 0; i < tl->n; i++) {
        conn *c = tl->c[i];
        if (c->closed) continue;
        player *p = c->player;
        struct inv_slot *s = &p->inventory[36 + p->held_slot];
        if (s->item <= 0 || s->count <= 0) {
            if (tl->n == 1) {
                chat_arg a = chat_text(p->name);
                cmd_failure(x, "commands.enchant.failed.itemless", &a, 1);
                return -1;
            }
            continue;
        }
        if (level < 1 || !can_take(s, id)) { /* vanilla: level 0 removes nothing, fails */
            if (tl->n == 1) {                /* vanilla: the item's name as a string, no brackets */
                chat_arg a = chat_text(item_english(s->item));
                cmd_failure(x, "commands.enchant.failed.incompatible", &a, 1);
                return -1;
            }
            continue;
        }
        ench_set(s->ench, id, level);
        inventory_touch(p);
        done++;
    }
    if (!done) {
        cmd_failure0(x, "commands.enchant.failed");
        return -1;
    }
    buf_t j, plain;
    buf_init(&j, 512);
    buf_init(&plain, 128);
    chat_arg fn = full_name(&j, &plain, id, level);
    char players[24];
    cmd_count_arg(players, tl->n);
    chat_arg a[2] = {fn, tl->n == 1 ? chat_player(tl->c[0]->player) : chat_text(players)};
    if (!j.failed && !plain.failed)
        cmd_success(x, true,
                    tl->n == 1 ? "commands.enchant.success.single"
                               : "commands.enchant.success.multiple",
                    a, 2);
    buf_free(&j);
    buf_free(&plain);
    return (int)done;
}

int cmd_xp_exec(cmd_ctx *x)
{
    switch (x->ps->exec->exec) {
    case X_XP_ADD_POINTS: return ex_xp_change(x, false, false);
    case X_XP_ADD_LEVELS: return ex_xp_change(x, false, true);
    case X_XP_SET_POINTS: return ex_xp_change(x, true, false);
    case X_XP_SET_LEVELS: return ex_xp_change(x, true, true);
    case X_XP_QUERY_POINTS: return ex_xp_query(x, false);
    case X_XP_QUERY_LEVELS: return ex_xp_query(x, true);
    case X_ENCHANT: return ex_enchant(x);
    default: return -1;
    }
}
