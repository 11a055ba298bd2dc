/*
 * rcon_packet.c — see rcon_packet.h. Pure: no I/O, no globals.
 */
#include "admin/rcon_packet.h"

#include <string.h>

static uint32_t rcon_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void rcon_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

long rcon_decode(const uint8_t *p, size_t len, struct rcon_packet *out)
{
    if (len < 4) return 0;
    uint32_t length = rcon_le32(p);
    if (length < 10 || length > RCON_MAX_LENGTH) return -1;
    if (len < 4 + (size_t)length) return 0;
    out->id = (int32_t)rcon_le32(p + 4);
    out->type = (int32_t)rcon_le32(p + 8);
    out->body = (const char *)p + 12;
    size_t n = length - 10;
    const char *nul = memchr(out->body, 0, n);
    out->body_len = nul ? (size_t)(nul - out->body) : n;
    return (long)(4 + length);
}

void rcon_encode(buf_t *b, int32_t id, int32_t type, const char *body, size_t len)
{
    uint8_t head[12];
    rcon_put_le32(head, (uint32_t)(len + 10));
    rcon_put_le32(head + 4, (uint32_t)id);
    rcon_put_le32(head + 8, (uint32_t)type);
    buf_append(b, head, sizeof head);
    buf_append(b, body, len);
    buf_append(b, "\0\0", 2);
}

void rcon_encode_response(buf_t *b, int32_t id, const char *text, size_t len)
{
    size_t off = 0;
    do {
        size_t n = len - off < RCON_CHUNK ? len - off : RCON_CHUNK;
        if (off + n < len) /* do not cut a UTF-8 sequence in two */
            while (n > 1 && ((unsigned char)text[off + n] & 0xC0) == 0x80) n--;
        rcon_encode(b, id, RCON_RESPONSE, text + off, n);
        off += n;
    } while (off < len);
}
