/*
 * cmd_lang.c — the English (en_us) text of the translation keys the
 * commands of issue 17 send (blocks, items, the world border, titles,
 * forceload, game rules, ...), for the console, the log and RCON; clients
 * get the keys and show their own language. chat.c's table holds the
 * earlier keys and asks this one (cmd_lang_en) for the rest.
 *
 * The table is minecraft-data pc/1.20 language.json's text for each key,
 * sorted by key (strcmp order: the lookup is a binary search).
 */
#include <stdlib.h>
#include <string.h>

#include "game/commands.h"

struct lang {
    const char *key, *en;
};

static const struct lang en_us[] = {
    /* BEGIN en_us (generated from minecraft-data pc/1.20/language.json) */
    {"argument.block.id.invalid", "Unknown block type '%s'"},
    {"argument.block.property.duplicate", "Property '%s' can only be set once for block %s"},
    {"argument.block.property.invalid", "Block %s does not accept '%s' for %s property"},
    {"argument.block.property.novalue", "Expected value for property '%s' on block %s"},
    {"argument.block.property.unclosed", "Expected closing ] for block state properties"},
    {"argument.block.property.unknown", "Block %s does not have property '%s'"},
    {"argument.block.tag.disallowed", "Tags aren't allowed here, only actual blocks"},
    {"argument.component.invalid", "Invalid chat component: %s"},
    {"argument.dimension.invalid", "Unknown dimension '%s'"},
    {"argument.double.big", "Double must not be more than %s, found %s"},
    {"argument.double.low", "Double must not be less than %s, found %s"},
    {"argument.entity.options.type.invalid", "Invalid or unknown entity type '%s'"},
    {"argument.float.big", "Float must not be more than %s, found %s"},
    {"argument.float.low", "Float must not be less than %s, found %s"},
    {"argument.integer.big", "Integer must not be more than %s, found %s"},
    {"argument.integer.low", "Integer must not be less than %s, found %s"},
    {"argument.item.id.invalid", "Unknown item '%s'"},
    {"argument.item.tag.disallowed", "Tags aren't allowed here, only actual items"},
    {"argument.nbt.array.invalid", "Invalid array type '%s'"},
    {"argument.nbt.array.mixed", "Can't insert %s into %s"},
    {"argument.nbt.expected.key", "Expected key"},
    {"argument.nbt.expected.value", "Expected value"},
    {"argument.nbt.list.mixed", "Can't insert %s into list of %s"},
    {"argument.nbt.trailing", "Unexpected trailing data"},
    {"argument.pos.outofbounds", "That position is outside the allowed boundaries."},
    {"argument.pos.unloaded", "That position is not loaded"},
    {"argument.pos2d.incomplete", "Incomplete (expected 2 coordinates)"},
    {"argument.resource.not_found", "Can't find element '%s' of type '%s'"},
    {"arguments.block.tag.unknown", "Unknown block tag '%s'"},
    {"arguments.item.tag.unknown", "Unknown item tag '%s'"},
    {"clear.failed.multiple", "No items were found on %s players"},
    {"clear.failed.single", "No items were found on player %s"},
    {"commands.clear.success.multiple", "Removed %s item(s) from %s players"},
    {"commands.clear.success.single", "Removed %s item(s) from player %s"},
    {"commands.clear.test.multiple", "Found %s matching item(s) on %s players"},
    {"commands.clear.test.single", "Found %s matching item(s) on player %s"},
    {"commands.clone.failed", "No blocks were cloned"},
    {"commands.clone.overlap", "The source and destination areas cannot overlap"},
    {"commands.clone.success", "Successfully cloned %s block(s)"},
    {"commands.clone.toobig", "Too many blocks in the specified area (maximum %s, specified %s)"},
    {"commands.defaultgamemode.success", "The default game mode is now %s"},
    {"commands.difficulty.failure", "The difficulty did not change; it is already set to %s"},
    {"commands.difficulty.query", "The difficulty is %s"},
    {"commands.difficulty.success", "The difficulty has been set to %s"},
    {"commands.fill.failed", "No blocks were filled"},
    {"commands.fill.success", "Successfully filled %s block(s)"},
    {"commands.fill.toobig", "Too many blocks in the specified area (maximum %s, specified %s)"},
    {"commands.forceload.added.failure", "No chunks were marked for force loading"},
    {"commands.forceload.added.multiple",
     "Marked %s chunks in %s from %s to %s to be force loaded"},
    {"commands.forceload.added.none", "No force loaded chunks were found in %s"},
    {"commands.forceload.added.single", "Marked chunk %s in %s to be force loaded"},
    {"commands.forceload.list.multiple", "%s force loaded chunks were found in %s at: %s"},
    {"commands.forceload.list.single", "A force loaded chunk was found in %s at: %s"},
    {"commands.forceload.query.failure", "Chunk at %s in %s is not marked for force loading"},
    {"commands.forceload.query.success", "Chunk at %s in %s is marked for force loading"},
    {"commands.forceload.removed.all", "Unmarked all force loaded chunks in %s"},
    {"commands.forceload.removed.failure", "No chunks were removed from force loading"},
    {"commands.forceload.removed.multiple",
     "Unmarked %s chunks in %s from %s to %s for force loading"},
    {"commands.forceload.removed.single", "Unmarked chunk %s in %s for force loading"},
    {"commands.forceload.toobig",
     "Too many chunks in the specified area (maximum %s, specified %s)"},
    {"commands.gamerule.query", "Gamerule %s is currently set to: %s"},
    {"commands.gamerule.set", "Gamerule %s is now set to: %s"},
    {"commands.give.failed.toomanyitems", "Can't give more than %s of %s"},
    {"commands.give.success.multiple", "Gave %s %s to %s players"},
    {"commands.give.success.single", "Gave %s %s to %s"},
    {"commands.setblock.failed", "Could not set the block"},
    {"commands.setblock.success", "Changed the block at %s, %s, %s"},
    {"commands.spawnpoint.success.multiple",
     "Set spawn point to %s, %s, %s [%s] in %s for %s players"},
    {"commands.spawnpoint.success.single", "Set spawn point to %s, %s, %s [%s] in %s for %s"},
    {"commands.summon.failed", "Unable to summon entity"},
    {"commands.summon.invalidPosition", "Invalid position for summon"},
    {"commands.summon.success", "Summoned new %s"},
    {"commands.title.cleared.multiple", "Cleared titles for %s players"},
    {"commands.title.cleared.single", "Cleared titles for %s"},
    {"commands.title.reset.multiple", "Reset title options for %s players"},
    {"commands.title.reset.single", "Reset title options for %s"},
    {"commands.title.show.actionbar.multiple", "Showing new actionbar title for %s players"},
    {"commands.title.show.actionbar.single", "Showing new actionbar title for %s"},
    {"commands.title.show.subtitle.multiple", "Showing new subtitle for %s players"},
    {"commands.title.show.subtitle.single", "Showing new subtitle for %s"},
    {"commands.title.show.title.multiple", "Showing new title for %s players"},
    {"commands.title.show.title.single", "Showing new title for %s"},
    {"commands.title.times.multiple", "Changed title display times for %s players"},
    {"commands.title.times.single", "Changed title display times for %s"},
    {"commands.worldborder.center.failed",
     "Nothing changed. The world border is already centered there"},
    {"commands.worldborder.center.success", "Set the center of the world border to %s, %s"},
    {"commands.worldborder.damage.amount.failed",
     "Nothing changed. The world border damage is already that amount"},
    {"commands.worldborder.damage.amount.success",
     "Set the world border damage to %s per block each second"},
    {"commands.worldborder.damage.buffer.failed",
     "Nothing changed. The world border damage buffer is already that distance"},
    {"commands.worldborder.damage.buffer.success",
     "Set the world border damage buffer to %s block(s)"},
    {"commands.worldborder.get", "The world border is currently %s block(s) wide"},
    {"commands.worldborder.set.failed.big", "World border cannot be bigger than %s blocks wide"},
    {"commands.worldborder.set.failed.far", "World border cannot be further out than %s blocks"},
    {"commands.worldborder.set.failed.nochange",
     "Nothing changed. The world border is already that size"},
    {"commands.worldborder.set.failed.small", "World border cannot be smaller than 1 block wide"},
    {"commands.worldborder.set.grow", "Growing the world border to %s blocks wide over %s seconds"},
    {"commands.worldborder.set.immediate", "Set the world border to %s block(s) wide"},
    {"commands.worldborder.set.shrink",
     "Shrinking the world border to %s block(s) wide over %s second(s)"},
    {"commands.worldborder.warning.distance.failed",
     "Nothing changed. The world border warning is already that distance"},
    {"commands.worldborder.warning.distance.success",
     "Set the world border warning distance to %s block(s)"},
    {"commands.worldborder.warning.time.failed",
     "Nothing changed. The world border warning is already that amount of time"},
    {"commands.worldborder.warning.time.success",
     "Set the world border warning time to %s second(s)"},
    {"options.difficulty.easy", "Easy"},
    {"options.difficulty.hard", "Hard"},
    {"options.difficulty.normal", "Normal"},
    {"options.difficulty.peaceful", "Peaceful"},
    {"parsing.expected", "Expected '%s'"},
    /* END en_us */
};

static int by_key(const void *key, const void *entry)
{
    return strcmp(key, ((const struct lang *)entry)->key);
}

const char *cmd_lang_en(const char *key)
{
    const struct lang *e =
        bsearch(key, en_us, sizeof en_us / sizeof en_us[0], sizeof en_us[0], by_key);
    return e ? e->en : key;
}
