/*
 * fuzz_query.c — libFuzzer target for Query (admin/query_packet.c):
 * datagrams from a fixed sender at times taken from the input. Half the time a stat request gets
 * the sender's valid token written in, so the stat paths are reached too.
 *
 * Invariants: no reply larger than the cap; before a valid token, no
 * reply larger than 16 bytes (no amplification); every reply starts with
 * the request's type and session id.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "admin/query_packet.h"

static const char *const names[] = {"Alice", "Bob", ""};

static void info(struct query_info *in, void *arg)
{
    (void)arg;
    in->motd = "motd";
    in->map = "world";
    in->version = "1.20.1";
    in->plugins = "mcserv";
    in->hostip = "127.0.0.1";
    in->numplayers = 3;
    in->maxplayers = 20;
    in->hostport = 25565;
    in->players = names;
    in->nplayers = 3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct query_state st;
    if (size < 3) return 0;
    memset(&st, 0, sizeof st);
    memset(st.secret, 0x5a, sizeof st.secret);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(40000);
    a.sin_addr.s_addr = htonl(0xC0000201);
    int64_t now = 1000000 + (int64_t)data[0] * 1000;
    bool give_token = data[1] & 1;
    const uint8_t *p = data + 2;
    size_t n = size - 2;
    uint8_t *d = malloc(n);
    memcpy(d, p, n);
    int64_t epoch = now / QUERY_EPOCH_MS;
    if (give_token && n >= 11) {
        int32_t t = query_token(&st, (struct sockaddr *)&a, sizeof a, epoch);
        d[7] = (uint8_t)((uint32_t)t >> 24);
        d[8] = (uint8_t)((uint32_t)t >> 16);
        d[9] = (uint8_t)((uint32_t)t >> 8);
        d[10] = (uint8_t)t;
    }
    /* valid: the request carries a token the sender was given (the fuzzer may find one) */
    bool valid = false;
    if (n >= 11) {
        int32_t got =
            (int32_t)((uint32_t)d[7] << 24 | (uint32_t)d[8] << 16 | (uint32_t)d[9] << 8 | d[10]);
        valid = got == query_token(&st, (struct sockaddr *)&a, sizeof a, epoch) ||
                got == query_token(&st, (struct sockaddr *)&a, sizeof a, epoch - 1);
    }
    static uint8_t out[QUERY_REPLY_MAX];
    size_t r =
        query_handle(&st, d, n, (struct sockaddr *)&a, sizeof a, now, info, NULL, out, sizeof out);
    if (r > sizeof out) abort();
    if (r && !valid && r > 16) abort();
    if (r && (out[0] != d[2] || memcmp(out + 1, d + 3, 4) != 0)) abort();
    free(d);
    return 0;
}
