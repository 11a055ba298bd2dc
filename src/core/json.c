/*
 * json.c — see json.h.
 */
#include "core/json.h"

void json_append_string(buf_t *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    buf_lit(b, "\"");
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            buf_append(b, e, 2);
        } else if (c < 0x20 || c == 0x7f) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buf_append(b, e, 6);
        } else {
            buf_append(b, &c, 1);
        }
    }
    buf_lit(b, "\"");
}
