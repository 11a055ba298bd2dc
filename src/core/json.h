/*
 * json.h — the JSON text mcserv writes by hand (chat components, status,
 * kick reasons): a string literal with everything a parser could choke on
 * escaped. Bytes are copied as they are otherwise, so valid UTF-8 stays
 * valid UTF-8.
 */
#ifndef MC_JSON_H
#define MC_JSON_H

#include <stddef.h>

#include "core/buf.h"

/* Appends a JSON string literal (with quotes) for s[0..len): '"' and '\'
 * escaped, control characters and DEL as \u00XX. */
void json_append_string(buf_t *b, const char *s, size_t len);

#endif
