/*
 * utf8.c — see utf8.h.
 */
#include "core/utf8.h"

int utf8_decode_lenient(const uint8_t *p, uint32_t *cp)
{
    if ((*p & 0xE0) == 0xC0 && p[1]) {
        *cp = (uint32_t)(*p & 0x1F) << 6 | (p[1] & 0x3F);
        return 2;
    }
    if ((*p & 0xF0) == 0xE0 && p[1] && p[2]) {
        *cp = (uint32_t)(*p & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
        return 3;
    }
    if ((*p & 0xF8) == 0xF0 && p[1] && p[2] && p[3]) {
        *cp = (uint32_t)(*p & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
              (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
        return 4;
    }
    *cp = *p; /* ASCII, or a byte that starts no complete sequence */
    return 1;
}

int utf8_utf16_units(uint32_t cp, uint16_t u[2])
{
    if (cp < 0x10000) {
        u[0] = (uint16_t)cp;
        return 1;
    }
    cp -= 0x10000;
    u[0] = (uint16_t)(0xD800 + (cp >> 10));
    u[1] = (uint16_t)(0xDC00 + (cp & 0x3FF));
    return 2;
}
