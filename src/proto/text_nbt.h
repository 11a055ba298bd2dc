/*
 * text_nbt.h — chat components as network NBT (1.20.3 and later) from the
 * JSON text mcserv builds; see text_nbt.c for the mapping.
 */
#ifndef MC_TEXT_NBT_H
#define MC_TEXT_NBT_H

#include <stddef.h>

#include "core/buf.h"

/* Appends json[0..len) as a nameless NBT tag (type byte, payload). Text
 * that is not JSON goes as one TAG_String of itself. */
void text_nbt_append(buf_t *b, const char *json, size_t len);

#endif
