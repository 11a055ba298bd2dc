/* chunk.c — see chunk.h. */
#include "world/chunk.h"

#include <stdlib.h>
#include <string.h>

#include "data/block_table.h"
#include "data/blocks.h"
#include "data/packet_ids.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "proto/wire_longs.h"
#include "world/heightmaps.h"
#include "world/light.h"

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
    memset(&c->bents, 0, sizeof c->bents);
}

void chunk_free(chunk *c)
{
    for (int i = 0; i < CHUNK_SECTIONS; i++) {
        free(c->sections[i].palette);
        free(c->sections[i].data);
        c->sections[i].palette = NULL;
        c->sections[i].data = NULL;
    }
    be_map_free(&c->bents);
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

uint16_t section_get(const section *s, unsigned idx)
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

int section_fill(section *s, const uint16_t states[4096])
{
    uint16_t palette[256];
    unsigned plen = 0, non_air = 0;
    uint16_t last = states[0]; /* runs of one state skip the palette search */
    bool direct = false;
    palette[plen++] = last;
    for (unsigned i = 0; i < 4096; i++) {
        uint16_t v = states[i];
        non_air += !block_is_air(v);
        if (v == last || direct) continue;
        unsigned k = 0;
        while (k < plen && palette[k] != v) k++;
        if (k == plen) {
            if (plen == 256) {
                direct = true;
                continue;
            }
            palette[plen++] = v;
        }
        last = v;
    }
    unsigned bits = direct ? BLOCK_GLOBAL_BITS : plen == 1 ? 0 : 4;
    while (bits && bits < 8 && (1u << bits) < plen) bits++;
    uint64_t *data = NULL;
    uint16_t *pal = NULL;
    if (bits) {
        data = calloc(long_count(bits), sizeof *data);
        pal = bits == BLOCK_GLOBAL_BITS ? NULL : malloc(256 * sizeof *pal);
        if (!data || (bits != BLOCK_GLOBAL_BITS && !pal)) {
            free(data);
            free(pal);
            return -1;
        }
    }
    free(s->palette);
    free(s->data);
    s->palette = pal;
    s->data = data;
    s->bits = (uint8_t)bits;
    s->non_air = (uint16_t)non_air;
    s->palette_len = 0;
    if (bits == 0) {
        s->single = states[0];
        return 0;
    }
    if (pal) {
        memcpy(pal, palette, plen * sizeof *pal);
        s->palette_len = (uint16_t)plen;
    }
    unsigned vpl = per_long(bits);
    uint16_t cached_state = palette[0];
    unsigned cached_k = 0;
    for (unsigned i = 0; i < 4096; i++) {
        uint16_t v = states[i];
        if (pal) {
            if (v != cached_state) {
                unsigned k = 0;
                while (pal[k] != v) k++;
                cached_state = v;
                cached_k = k;
            }
            v = (uint16_t)cached_k;
        }
        data[i / vpl] |= (uint64_t)v << ((i % vpl) * bits);
    }
    return 0;
}

int section_compact(section *s)
{
    if (s->bits == 0) return 0;
    uint16_t *states = malloc(4096 * sizeof *states);
    if (!states) return -1;
    for (unsigned i = 0; i < 4096; i++) states[i] = section_get(s, i);
    int rc = section_fill(s, states);
    free(states);
    return rc;
}

int chunk_clone(chunk *dst, const chunk *src)
{
    *dst = *src;
    if (be_map_clone(&dst->bents, &src->bents) < 0) {
        for (int i = 0; i < CHUNK_SECTIONS; i++)
            dst->sections[i].palette = NULL, dst->sections[i].data = NULL;
        return -1;
    }
    for (int i = 0; i < CHUNK_SECTIONS; i++) {
        section *d = &dst->sections[i];
        const section *s = &src->sections[i];
        d->palette = NULL;
        d->data = NULL;
        if (s->bits == 0) continue;
        d->data = malloc(long_count(s->bits) * sizeof *d->data);
        if (s->palette) d->palette = malloc(256 * sizeof *d->palette);
        if (!d->data || (s->palette && !d->palette)) {
            chunk_free(dst);
            return -1;
        }
        memcpy(d->data, s->data, long_count(s->bits) * sizeof *d->data);
        if (s->palette) memcpy(d->palette, s->palette, 256 * sizeof *d->palette);
    }
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
    if (c->bents.n && block_of_state[old] != block_of_state[state]) /* invariant 4 */
        be_remove(&c->bents, c->x * 16 + (x & 15), y, c->z * 16 + (z & 15));
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
    wr_u64_words(out, data, n);
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
/* MOTION_BLOCKING: solid or fluid blocks (water, lava, and waterlogged aside). */
static bool blocks_motion(uint16_t state)
{
    const struct block_info *b = &block_info[block_of_state[state]];
    return (b->flags & BLOCK_FLAG_SOLID) || (state >= BLOCK_WATER && state <= BLOCK_WATER + 15) ||
           (state >= BLOCK_LAVA && state <= BLOCK_LAVA + 15);
}

void chunk_heightmaps(const chunk *c, int surface[256], int motion[256])
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int top = chunk_column_top(c, x, z);
            surface[z * 16 + x] = top;
            int y = top;
            while (y >= CHUNK_MIN_Y && !blocks_motion(chunk_get_block(c, x, y, z))) y--;
            motion[z * 16 + x] = y;
        }
}

/* The light arrays that end Chunk Data and Update Light, computed now for c
 * alone (on the heap: chunk_light is large). 0, or -1 when out of memory or
 * out has failed. */
static int light_append(const chunk *c, buf_t *out)
{
    chunk_light *light = malloc(sizeof *light);
    if (!light) return -1;
    light_compute(c, light);
    light_write(light, out);
    free(light);
    return out->failed ? -1 : 0;
}

/* Chunk Data up to its light: id, position, heightmaps, sections, block entities. */
static int encode_blocks(const chunk *c, buf_t *out)
{
    wr_varint(out, PKT_PLAY_CB_MAP_CHUNK);
    wr_i32(out, c->x);
    wr_i32(out, c->z);

    nbt_w_root(out, "");
    heightmaps_write(c, out);
    nbt_w_end(out);

    /* Section data, prefixed by its byte length: encode, then measure. */
    size_t len_at = out->len;
    uint8_t pad[VARINT_MAX_BYTES] = {0};
    buf_append(out, pad, VARINT_MAX_BYTES); /* room for the length VarInt */
    size_t data_at = out->len;
    for (int i = 0; i < CHUNK_SECTIONS; i++) section_encode(&c->sections[i], out);
    if (out->failed) return -1;
    size_t data_len = out->len - data_at;
    uint8_t lenv[VARINT_MAX_BYTES];
    int ln = varint_encode(lenv, (int32_t)data_len);
    memmove(out->data + len_at + ln, out->data + data_at, data_len);
    memcpy(out->data + len_at, lenv, (size_t)ln);
    out->len = len_at + (size_t)ln + data_len;

    wr_varint(out, 0); /* block entities */
    return 0;
}

int chunk_encode_packet(const chunk *c, buf_t *out)
{
    if (encode_blocks(c, out) < 0) return -1;
    return light_append(c, out);
}

int chunk_encode_packet_lit(const chunk *c, const uint8_t *light, size_t light_len, buf_t *out)
{
    if (encode_blocks(c, out) < 0) return -1;
    buf_append(out, light, light_len);
    return out->failed ? -1 : 0;
}

int chunk_encode_light_packet(const chunk *c, buf_t *out)
{
    wr_varint(out, PKT_PLAY_CB_UPDATE_LIGHT);
    wr_varint(out, c->x);
    wr_varint(out, c->z);
    return light_append(c, out);
}

int chunk_encode_light_packet_lit(int32_t x, int32_t z, const uint8_t *light, size_t light_len,
                                  buf_t *out)
{
    wr_varint(out, PKT_PLAY_CB_UPDATE_LIGHT);
    wr_varint(out, x);
    wr_varint(out, z);
    buf_append(out, light, light_len);
    return out->failed ? -1 : 0;
}
