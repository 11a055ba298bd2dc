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

bool utf8_valid(const uint8_t *p, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint8_t c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        uint32_t cp, min;
        if ((c & 0xE0) == 0xC0)
            n = 2, cp = c & 0x1F, min = 0x80;
        else if ((c & 0xF0) == 0xE0)
            n = 3, cp = c & 0x0F, min = 0x800;
        else if ((c & 0xF8) == 0xF0)
            n = 4, cp = c & 0x07, min = 0x10000;
        else
            return false;
        if (len - i < n) return false;
        for (size_t k = 1; k < n; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n;
    }
    return true;
}

size_t utf8_from_latin1(const uint8_t *p, size_t len, uint8_t *out)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < 0x80) {
            out[o++] = p[i];
        } else {
            out[o++] = (uint8_t)(0xC0 | p[i] >> 6);
            out[o++] = (uint8_t)(0x80 | (p[i] & 0x3F));
        }
    }
    return o;
}
