/*
 * item_names.h — items as vanilla names them in messages (see
 * item_names.c): translation key, English name, display component.
 */
#ifndef MC_ITEM_NAMES_H
#define MC_ITEM_NAMES_H

#include <stddef.h>

#include "core/buf.h"

/* English (en_us) name of an item id; "Air" for an id out of range. */
const char *item_english(int item);
/* Its translation key, e.g. "block.minecraft.stone", "item.minecraft.diamond". */
void item_key(int item, char *out, size_t cap);
/* ItemStack.getDisplayName: [name] (white; rarities are not known here),
 * hovering shows the item and count; air has no hover. */
void item_display_json(buf_t *j, int item, int count);
/* Its console text: "[Stone]". */
void item_display_plain(buf_t *out, int item);

#endif
