/*
 * utf8.h — UTF-8 text as Java sees it: code points decoded the lenient way
 * the server's text paths always have (a lead byte without its
 * continuation bytes is one character, its own value), and code points as
 * UTF-16 units (Java's String hashing, the legacy ping's UTF-16BE text).
 *
 * Invariants:
 *  1. Decoding never reads past the string's NUL: a sequence is taken only
 *     when every byte it needs is non-zero.
 *  2. Continuation bytes are not checked (lenient): bad input still
 *     advances by at least one byte, so a loop over a string ends.
 */
#ifndef MC_UTF8_H
#define MC_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The code point at p (NUL-terminated, *p != 0) into *cp; returns the
 * bytes it took (1..4). */
int utf8_decode_lenient(const uint8_t *p, uint32_t *cp);
/* cp as UTF-16 code units into u: 1, or 2 (a surrogate pair). */
int utf8_utf16_units(uint32_t cp, uint16_t u[2]);
/* Strict check, as Java's UTF-8 decoder with REPORT: shortest forms only,
 * no surrogates, nothing above U+10FFFF. */
bool utf8_valid(const uint8_t *p, size_t len);
/* ISO-8859-1 bytes as UTF-8 into out (at least 2 * len bytes); returns the
 * length written. */
size_t utf8_from_latin1(const uint8_t *p, size_t len, uint8_t *out);

#endif
