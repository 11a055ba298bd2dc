/* chunk.c — see chunk.h. */
#include "world/chunk.h"

#include <stdlib.h>
#include <string.h>

#include "data/blocks.h"
#include "data/packet_ids.h"
#include "proto/nbt.h"
#include "proto/wire.h"

bool block_is_air(uint16_t state)
{
    return state == BLOCK_AIR || state == BLOCK_CAVE_AIR || state == BLOCK_VOID_AIR;
}

static void section_init(section *s, uint16_t state, uint8_t biome)
{
    memset(s, 0, sizeof *s);
    s->single = state;
    s->non_air = block_is_air(state) ? 0 : 4096;
    memset(s->biomes, biome, sizeof s->biomes);
}

void chunk_init(chunk *c, int32_t x, int32_t z, uint16_t fill_state, uint8_t biome)
{
    c->x = x;
    c->z = z;
    for (int i = 0; i < CHUNK_SECTIONS; i++) section_init(&c->sections[i], fill_state, biome);
}

void chunk_free(chunk *c)
{
    for (int i = 0; i < CHUNK_SECTIONS; i++) {
        free(c->sections[i].palette);
        free(c->sections[i].data);
        c->sections[i].palette = NULL;
        c->sections[i].data = NULL;
    }
}

static inline unsigned per_long(unsigned bits)
{
    return 64 / bits;
}

static inline unsigned long_count(unsigned bits)
{
    return (4096 + per_long(bits) - 1) / per_long(bits);
}

static inline uint16_t raw_get(const section *s, unsigned idx)
{
    unsigned vpl = per_long(s->bits);
    uint64_t w = s->data[idx / vpl];
    return (uint16_t)((w >> ((idx % vpl) * s->bits)) & ((1u << s->bits) - 1));
}

static inline void raw_set(section *s, unsigned idx, uint16_t v)
{
    unsigned vpl = per_long(s->bits);
    unsigned shift = (idx % vpl) * s->bits;
    uint64_t mask = (uint64_t)((1u << s->bits) - 1) << shift;
    s->data[idx / vpl] = (s->data[idx / vpl] & ~mask) | ((uint64_t)v << shift);
}

static uint16_t section_get(const section *s, unsigned idx)
{
    if (s->bits == 0) return s->single;
    uint16_t v = raw_get(s, idx);
    return s->bits == BLOCK_GLOBAL_BITS ? v : s->palette[v];
}

/* Re-packs the section at `bits` (4..8 indirect, or BLOCK_GLOBAL_BITS). */
static int section_repack(section *s, unsigned bits)
{
    uint16_t *states = malloc(4096 * sizeof *states);
    uint64_t *data = calloc(long_count(bits), sizeof *data);
    uint16_t *palette = bits == BLOCK_GLOBAL_BITS ? NULL : malloc(256 * sizeof *palette);
    if (!states || !data || (bits != BLOCK_GLOBAL_BITS && !palette)) {
        free(states);
        free(data);
        free(palette);
        return -1;
    }
    for (unsigned i = 0; i < 4096; i++) states[i] = section_get(s, i);
    uint16_t plen = 0;
    if (bits != BLOCK_GLOBAL_BITS && s->bits != 0) {
        memcpy(palette, s->palette, s->palette_len * sizeof *palette);
        plen = s->palette_len;
    } else if (bits != BLOCK_GLOBAL_BITS) {
        palette[plen++] = s->single;
    }
    free(s->palette);
    free(s->data);
    s->palette = palette;
    s->palette_len = plen;
    s->data = data;
    s->bits = (uint8_t)bits;
    for (unsigned i = 0; i < 4096; i++) {
        uint16_t v = states[i];
        if (bits != BLOCK_GLOBAL_BITS) {
            uint16_t k = 0;
            while (k < plen && palette[k] != v) k++;
            v = k; /* present: every old state is in the copied palette */
        }
        raw_set(s, i, v);
    }
    free(states);
    return 0;
}

uint16_t chunk_get_block(const chunk *c, int x, int y, int z)
{
    int sy = (y - CHUNK_MIN_Y) >> 4;
    if (sy < 0 || sy >= CHUNK_SECTIONS) return BLOCK_AIR;
    unsigned idx = (unsigned)(((y - CHUNK_MIN_Y) & 15) << 8 | (z & 15) << 4 | (x & 15));
    return section_get(&c->sections[sy], idx);
}

int chunk_set_block(chunk *c, int x, int y, int z, uint16_t state)
{
    int sy = (y - CHUNK_MIN_Y) >> 4;
    if (sy < 0 || sy >= CHUNK_SECTIONS) return 0;
    section *s = &c->sections[sy];
    unsigned idx = (unsigned)(((y - CHUNK_MIN_Y) & 15) << 8 | (z & 15) << 4 | (x & 15));
    uint16_t old = section_get(s, idx);
    if (old == state) return 0;
    if (s->bits == 0 && section_repack(s, 4) < 0) return -1;
    uint16_t v = state;
    if (s->bits != BLOCK_GLOBAL_BITS) {
        uint16_t k = 0;
        while (k < s->palette_len && s->palette[k] != state) k++;
        if (k == s->palette_len) {
            if (k == (1u << s->bits)) {
                unsigned nb = s->bits < 8 ? s->bits + 1u : BLOCK_GLOBAL_BITS;
                if (section_repack(s, nb) < 0) return -1;
                return chunk_set_block(c, x, y, z, state);
            }
            s->palette[s->palette_len++] = state;
        }
        v = k;
    }
    raw_set(s, idx, v);
    s->non_air = (uint16_t)(s->non_air + block_is_air(old) - block_is_air(state));
    return 0;
}

static void put_longs(buf_t *out, const uint64_t *data, unsigned n)
{
    wr_varint(out, (int32_t)n);
    uint8_t *dst = buf_reserve(out, (size_t)n * 8);
    if (!dst) return;
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = data[i];
        for (int b = 7; b >= 0; b--) {
            dst[i * 8 + (unsigned)b] = (uint8_t)v;
            v >>= 8;
        }
    }
    out->len += (size_t)n * 8;
}

static void biomes_encode(const uint8_t biomes[64], buf_t *out)
{
    uint8_t palette[64];
    unsigned plen = 0;
    uint8_t idx[64];
    for (unsigned i = 0; i < 64; i++) {
        unsigned k = 0;
        while (k < plen && palette[k] != biomes[i]) k++;
        if (k == plen) palette[plen++] = biomes[i];
        idx[i] = (uint8_t)k;
    }
    if (plen == 1) {
        wr_u8(out, 0);
        wr_varint(out, palette[0]);
        wr_varint(out, 0);
        return;
    }
    unsigned bits = plen <= 2 ? 1 : plen <= 4 ? 2 : plen <= 8 ? 3 : 6;
    uint64_t data[64] = {0};
    unsigned vpl = 64 / bits;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t v = bits == 6 ? biomes[i] : idx[i];
        data[i / vpl] |= v << ((i % vpl) * bits);
    }
    wr_u8(out, (uint8_t)bits);
    if (bits != 6) {
        wr_varint(out, (int32_t)plen);
        for (unsigned k = 0; k < plen; k++) wr_varint(out, palette[k]);
    }
    put_longs(out, data, (64 + vpl - 1) / vpl);
}

void section_encode(const section *s, buf_t *out)
{
    wr_i16(out, (int16_t)s->non_air);
    wr_u8(out, s->bits);
    if (s->bits == 0) {
        wr_varint(out, s->single);
        wr_varint(out, 0);
    } else {
        if (s->bits != BLOCK_GLOBAL_BITS) {
            wr_varint(out, s->palette_len);
            for (unsigned k = 0; k < s->palette_len; k++) wr_varint(out, s->palette[k]);
        }
        put_longs(out, s->data, long_count(s->bits));
    }
    biomes_encode(s->biomes, out);
}

int chunk_column_top(const chunk *c, int x, int z)
{
    for (int sy = CHUNK_SECTIONS - 1; sy >= 0; sy--) {
        const section *s = &c->sections[sy];
        if (s->non_air == 0) continue;
        for (int y = 15; y >= 0; y--) {
            unsigned idx = (unsigned)(y << 8 | (z & 15) << 4 | (x & 15));
            if (!block_is_air(section_get(s, idx))) return CHUNK_MIN_Y + sy * 16 + y;
        }
    }
    return CHUNK_MIN_Y - 1;
}

/* Heightmap: 256 entries of 9 bits (height above min y), 7 per long, 37 longs. */
static void heightmap_pack(const int tops[256], int64_t out[37])
{
    memset(out, 0, 37 * sizeof *out);
    for (int i = 0; i < 256; i++) {
        uint64_t h = (uint64_t)(tops[i] - CHUNK_MIN_Y + 1);
        out[i / 7] = (int64_t)((uint64_t)out[i / 7] | h << ((i % 7) * 9));
    }
}

static void bitset_write(buf_t *out, uint32_t bits)
{
    if (!bits) {
        wr_varint(out, 0);
        return;
    }
    wr_varint(out, 1);
    wr_i64(out, bits);
}

void chunk_encode_packet(const chunk *c, buf_t *out)
{
    int tops[256];
    int lowest = CHUNK_MIN_Y + CHUNK_HEIGHT, highest = CHUNK_MIN_Y - 1;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int t = chunk_column_top(c, x, z);
            tops[z * 16 + x] = t;
            if (t < lowest) lowest = t;
            if (t > highest) highest = t;
        }

    wr_varint(out, PKT_PLAY_CB_MAP_CHUNK);
    wr_i32(out, c->x);
    wr_i32(out, c->z);

    int64_t hm[37];
    heightmap_pack(tops, hm);
    nbt_w_root(out, "");
    nbt_w_long_array(out, "MOTION_BLOCKING", hm, 37);
    nbt_w_long_array(out, "WORLD_SURFACE", hm, 37);
    nbt_w_end(out);

    /* Section data, prefixed by its byte length: encode, then measure. */
    size_t len_at = out->len;
    uint8_t pad[VARINT_MAX_BYTES] = {0};
    buf_append(out, pad, VARINT_MAX_BYTES); /* room for the length VarInt */
    size_t data_at = out->len;
    for (int i = 0; i < CHUNK_SECTIONS; i++) section_encode(&c->sections[i], out);
    if (out->failed) return;
    size_t data_len = out->len - data_at;
    uint8_t lenv[VARINT_MAX_BYTES];
    int ln = varint_encode(lenv, (int32_t)data_len);
    memmove(out->data + len_at + ln, out->data + data_at, data_len);
    memcpy(out->data + len_at, lenv, (size_t)ln);
    out->len = len_at + (size_t)ln + data_len;

    wr_varint(out, 0); /* block entities */

    /*
     * Sky light, per light section L (block section L-1): sections wholly
     * above every column top are left out of both masks (the client treats
     * them as open sky); sections wholly below every top are all dark; the
     * rest get an array: 15 above the column top, 0 at and below it.
     */
    uint32_t sky_mask = 0, empty_sky = 0;
    for (int l = 0; l < CHUNK_LIGHT_SECTIONS; l++) {
        int y0 = CHUNK_MIN_Y + (l - 1) * 16;
        if (y0 > highest) continue;
        if (y0 + 15 <= lowest)
            empty_sky |= 1u << l;
        else
            sky_mask |= 1u << l;
    }
    bitset_write(out, sky_mask);
    bitset_write(out, 0);
    bitset_write(out, empty_sky);
    bitset_write(out, (1u << CHUNK_LIGHT_SECTIONS) - 1);

    int arrays = __builtin_popcount(sky_mask);
    wr_varint(out, arrays);
    for (int l = 0; l < CHUNK_LIGHT_SECTIONS; l++) {
        if (!(sky_mask & (1u << l))) continue;
        wr_varint(out, 2048);
        uint8_t *nib = buf_reserve(out, 2048);
        if (!nib) return;
        int y0 = CHUNK_MIN_Y + (l - 1) * 16;
        for (int y = 0; y < 16; y++)
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x += 2) {
                    int i = y << 8 | z << 4 | x;
                    uint8_t a = y0 + y > tops[z * 16 + x] ? 15 : 0;
                    uint8_t b = y0 + y > tops[z * 16 + x + 1] ? 15 : 0;
                    nib[i >> 1] = (uint8_t)(a | b << 4);
                }
        out->len += 2048;
    }
    wr_varint(out, 0); /* block light arrays */
}
