/*
 * test_chunk.c — chunk columns: block get/set through palette growth and
 * non-air counting, the flat generator, and the Chunk Data and Update Light
 * packet (chunk_encode_packet) parsed field by field per protocol-763.md.
 */
#include <stdlib.h>

#include "data/biomes.h"
#include "data/blocks.h"
#include "data/packet_ids.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "test.h"
#include "world/chunk.h"
#include "world/terrain.h"
#include "world/world.h"

#define COLUMN_BLOCKS (16 * 16 * CHUNK_HEIGHT)

static uint32_t rng_state;

static uint32_t rng(void) /* xorshift32 */
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

/* Index of a column position in the shadow array: same order as the wire, y-major. */
static int col_index(int x, int y, int z)
{
    return (y - CHUNK_MIN_Y) << 8 | z << 4 | x;
}

/* 300 distinct states: the three air states and 297 random others. */
static void pick_states(uint16_t states[300])
{
    states[0] = BLOCK_AIR;
    states[1] = BLOCK_VOID_AIR;
    states[2] = BLOCK_CAVE_AIR;
    for (int n = 3; n < 300;) {
        uint16_t s = (uint16_t)(1 + rng() % (BLOCK_STATE_COUNT - 1));
        bool dup = false;
        for (int k = 0; k < n; k++) dup |= states[k] == s;
        if (!dup) states[n++] = s;
    }
    for (int i = 299; i > 0; i--) { /* shuffle the air states in */
        int k = (int)(rng() % (uint32_t)(i + 1));
        uint16_t t = states[i];
        states[i] = states[k];
        states[k] = t;
    }
}

/* Checks every block of the column and every section's non-air count against shadow. */
static void check_column(const chunk *c, const uint16_t *shadow)
{
    int bad = 0;
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        int non_air = 0;
        for (int i = 0; i < 4096; i++) {
            int x = i & 15, z = (i >> 4) & 15, y = CHUNK_MIN_Y + sy * 16 + (i >> 8);
            uint16_t want = shadow[col_index(x, y, z)];
            non_air += !block_is_air(want);
            if (chunk_get_block(c, x, y, z) != want && bad++ < 5)
                fprintf(stderr, "    block (%d,%d,%d) = %u, expected %u\n", x, y, z,
                        chunk_get_block(c, x, y, z), want);
        }
        CHECK_EQ_INT(c->sections[sy].non_air, non_air);
    }
    CHECK_EQ_INT(bad, 0);
}

/* Section invariants from chunk.h: allowed bits, palette fits, no duplicates. */
static void check_section_shape(const section *s)
{
    CHECK(s->bits == 0 || (s->bits >= 4 && s->bits <= 8) || s->bits == BLOCK_GLOBAL_BITS);
    if (s->bits >= 4 && s->bits <= 8) {
        CHECK(s->palette_len <= (1u << s->bits));
        for (unsigned a = 0; a < s->palette_len; a++)
            for (unsigned b = a + 1; b < s->palette_len; b++) CHECK(s->palette[a] != s->palette[b]);
    }
}

TEST(chunk_palette_growth_round_trip)
{
    rng_state = 0x9e3779b9u;
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
    uint16_t *shadow = calloc(COLUMN_BLOCKS, sizeof *shadow);
    CHECK(shadow != NULL);
    if (!shadow) return;
    uint16_t states[300];
    pick_states(states);

    /* 1. 300 distinct states at distinct random positions of one section:
     *    the palette must grow 4, 5, 6, 7, 8 bits, then go direct. */
    const int sy = 5;
    int order[4096];
    for (int i = 0; i < 4096; i++) order[i] = i;
    for (int i = 0; i < 300; i++) { /* partial Fisher-Yates: 300 distinct positions */
        int k = i + (int)(rng() % (uint32_t)(4096 - i));
        int t = order[i];
        order[i] = order[k];
        order[k] = t;
    }
    unsigned seen_bits = 0; /* bit b set when the section was at b bits per entry */
    uint8_t last_bits = 0;
    int non_air = 0;
    for (int i = 0; i < 300; i++) {
        int idx = order[i];
        int x = idx & 15, z = (idx >> 4) & 15, y = CHUNK_MIN_Y + sy * 16 + (idx >> 8);
        CHECK_EQ_INT(chunk_set_block(&c, x, y, z, states[i]), 0);
        shadow[col_index(x, y, z)] = states[i];
        non_air += !block_is_air(states[i]);
        CHECK_EQ_INT(chunk_get_block(&c, x, y, z), states[i]);
        const section *s = &c.sections[sy];
        CHECK_EQ_INT(s->non_air, non_air);
        CHECK(s->bits >= last_bits);
        check_section_shape(s);
        last_bits = s->bits;
        seen_bits |= 1u << s->bits;
    }
    CHECK_EQ_INT(non_air, 297);
    CHECK_EQ_INT(seen_bits, 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 8 | 1u << 15);
    CHECK_EQ_INT(c.sections[sy].bits, BLOCK_GLOBAL_BITS);
    check_column(&c, shadow);

    /* 2. The same states scattered over the whole column, overwriting some of the above. */
    for (int i = 0; i < 300; i++) {
        int x = (int)(rng() % 16), z = (int)(rng() % 16);
        int y = CHUNK_MIN_Y + (int)(rng() % CHUNK_HEIGHT);
        if (i % 10 == 0) y = CHUNK_MIN_Y + sy * 16 + (int)(rng() % 16);
        CHECK_EQ_INT(chunk_set_block(&c, x, y, z, states[i]), 0);
        shadow[col_index(x, y, z)] = states[i];
    }
    for (int k = 0; k < CHUNK_SECTIONS; k++) check_section_shape(&c.sections[k]);
    check_column(&c, shadow);

    /* Outside the column: ignored on set, air on get. */
    CHECK_EQ_INT(chunk_set_block(&c, 0, CHUNK_MIN_Y - 1, 0, BLOCK_BEDROCK), 0);
    CHECK_EQ_INT(chunk_set_block(&c, 0, CHUNK_MIN_Y + CHUNK_HEIGHT, 0, BLOCK_BEDROCK), 0);
    CHECK_EQ_INT(chunk_get_block(&c, 0, CHUNK_MIN_Y - 1, 0), BLOCK_AIR);
    CHECK_EQ_INT(chunk_get_block(&c, 0, CHUNK_MIN_Y + CHUNK_HEIGHT, 0), BLOCK_AIR);
    check_column(&c, shadow);

    /* 3. Everything back to air, cycling through the three air states. */
    static const uint16_t airs[3] = {BLOCK_AIR, BLOCK_CAVE_AIR, BLOCK_VOID_AIR};
    int n = 0;
    for (int i = 0; i < COLUMN_BLOCKS; i++) {
        if (block_is_air(shadow[i])) continue;
        uint16_t a = airs[n++ % 3];
        CHECK_EQ_INT(chunk_set_block(&c, i & 15, CHUNK_MIN_Y + (i >> 8), (i >> 4) & 15, a), 0);
        shadow[i] = a;
    }
    CHECK(n > 297);
    for (int k = 0; k < CHUNK_SECTIONS; k++) CHECK_EQ_INT(c.sections[k].non_air, 0);
    check_column(&c, shadow);
    for (int x = 0; x < 16; x++)
        for (int z = 0; z < 16; z++) CHECK_EQ_INT(chunk_column_top(&c, x, z), CHUNK_MIN_Y - 1);

    free(shadow);
    chunk_free(&c);
}

TEST(chunk_non_air_from_fill)
{
    chunk c;
    chunk_init(&c, 0, 0, BLOCK_BEDROCK, BIOME_PLAINS);
    for (int k = 0; k < CHUNK_SECTIONS; k++) CHECK_EQ_INT(c.sections[k].non_air, 4096);
    CHECK_EQ_INT(chunk_set_block(&c, 1, 0, 2, BLOCK_CAVE_AIR), 0);
    CHECK_EQ_INT(c.sections[4].non_air, 4095);
    CHECK_EQ_INT(chunk_set_block(&c, 1, 0, 2, BLOCK_VOID_AIR), 0); /* air to air */
    CHECK_EQ_INT(c.sections[4].non_air, 4095);
    CHECK_EQ_INT(chunk_set_block(&c, 1, 0, 2, BLOCK_DIRT), 0);
    CHECK_EQ_INT(c.sections[4].non_air, 4096);
    CHECK_EQ_INT(chunk_column_top(&c, 1, 2), CHUNK_MIN_Y + CHUNK_HEIGHT - 1);
    chunk_free(&c);

    chunk_init(&c, 0, 0, BLOCK_CAVE_AIR, BIOME_PLAINS);
    for (int k = 0; k < CHUNK_SECTIONS; k++) CHECK_EQ_INT(c.sections[k].non_air, 0);
    chunk_free(&c);
}

static void flat_chunk(chunk *c, int32_t x, int32_t z)
{
    chunk_init(c, x, z, BLOCK_AIR, BIOME_PLAINS);
    flat_generate(c);
}

TEST(flat_generate_layers)
{
    chunk c;
    flat_chunk(&c, 3, -7);
    int bad = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            bad += chunk_get_block(&c, x, -64, z) != BLOCK_BEDROCK;
            bad += chunk_get_block(&c, x, -63, z) != BLOCK_DIRT;
            bad += chunk_get_block(&c, x, -62, z) != BLOCK_DIRT;
            bad += chunk_get_block(&c, x, -61, z) != BLOCK_GRASS_BLOCK;
            for (int y = -60; y < CHUNK_MIN_Y + CHUNK_HEIGHT; y++)
                bad += chunk_get_block(&c, x, y, z) != BLOCK_AIR;
            CHECK_EQ_INT(chunk_column_top(&c, x, z), FLAT_SURFACE_Y);
        }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(FLAT_SURFACE_Y, -61);
    CHECK_EQ_INT(c.sections[0].non_air, 4 * 256);
    for (int k = 1; k < CHUNK_SECTIONS; k++) CHECK_EQ_INT(c.sections[k].non_air, 0);
    chunk_free(&c);
}

/*
 * Reads one paletted container (protocol-763.md §3.4) into out[entries]:
 * bits 0 single value, min_ind..max_ind indirect, direct_bits global.
 * Returns false (and counts a failure) when the layout is wrong.
 */
static bool read_container(rd_t *r, unsigned entries, int min_ind, int max_ind, int direct_bits,
                           uint16_t *out)
{
    int bits = rd_u8(r);
    if (bits == 0) {
        int32_t v = rd_varint(r);
        CHECK_EQ_INT(rd_varint(r), 0);
        for (unsigned i = 0; i < entries; i++) out[i] = (uint16_t)v;
        return !r->err;
    }
    if (bits != direct_bits && (bits < min_ind || bits > max_ind)) {
        CHECK_EQ_INT(bits, -1); /* fails, showing the bits */
        return false;
    }
    uint16_t palette[256];
    int32_t plen = 0;
    if (bits != direct_bits) {
        plen = rd_varint(r);
        CHECK(plen >= 1 && plen <= (1 << bits));
        if (plen < 1 || plen > (1 << bits)) return false;
        for (int k = 0; k < plen; k++) palette[k] = (uint16_t)rd_varint(r);
    }
    unsigned per_long = 64u / (unsigned)bits, longs = (entries + per_long - 1) / per_long;
    CHECK_EQ_INT(rd_varint(r), longs);
    for (unsigned w = 0; w < longs && !r->err; w++) {
        uint64_t v = (uint64_t)rd_i64(r);
        for (unsigned k = 0; k < per_long && w * per_long + k < entries; k++) {
            unsigned e = (unsigned)(v >> (k * (unsigned)bits)) & ((1u << bits) - 1);
            if (bits != direct_bits) {
                CHECK((int32_t)e < plen);
                e = (int32_t)e < plen ? palette[e] : 0;
            }
            out[w * per_long + k] = (uint16_t)e;
        }
    }
    return !r->err;
}

/* Reads a light bitset (VarInt long count + longs); all ours fit in one long. */
static uint64_t read_bitset(rd_t *r)
{
    int32_t n = rd_varint(r);
    CHECK(n == 0 || n == 1);
    uint64_t v = 0;
    for (int32_t i = 0; i < n && i < 2 && !r->err; i++) v |= (uint64_t)rd_i64(r);
    CHECK_EQ_INT(v >> CHUNK_LIGHT_SECTIONS, 0); /* 26 light sections */
    return v;
}

/* Reads one section; returns its non-air count, -1 when the layout is wrong. */
static int read_section(rd_t *r, uint16_t states[4096], uint16_t biomes[64], int *biome_bits)
{
    int non_air = rd_i16(r);
    if (!read_container(r, 4096, 4, 8, BLOCK_GLOBAL_BITS, states)) return -1;
    *biome_bits = r->pos < r->len ? r->p[r->pos] : -1;
    if (!read_container(r, 64, 1, 3, 6, biomes)) return -1;
    return non_air;
}

TEST(section_encode_round_trip)
{
    rng_state = 12345;
    static const struct {
        int distinct; /* distinct biomes in the section */
        int max_bits; /* the fewest bits that hold them (0 = single value) */
    } cases[] = {{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}, {9, 6}, {40, 6}, {64, 6}};
    static uint16_t states[4096], got[4096];
    uint16_t biomes[64];
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        chunk c;
        chunk_init(&c, 0, 0, BLOCK_AIR, BIOME_PLAINS);
        section *s = &c.sections[0];
        /* Blocks: more distinct states as t grows, up to a direct (15-bit) section. */
        int kinds = 1 + (int)t * 40, non_air = 0;
        for (int i = 0; i < 4096; i++) {
            states[i] = (uint16_t)((i % kinds) * 61 % BLOCK_STATE_COUNT);
            non_air += !block_is_air(states[i]);
            chunk_set_block(&c, i & 15, CHUNK_MIN_Y + (i >> 8), (i >> 4) & 15, states[i]);
        }
        for (int i = 0; i < 64; i++) s->biomes[i] = (uint8_t)((i % cases[t].distinct + t) % 64);
        buf_t b;
        buf_init(&b, 0);
        section_encode(s, &b);
        rd_t r = rd_make(b.data, b.len);
        int bits = -1;
        CHECK_EQ_INT(read_section(&r, got, biomes, &bits), non_air);
        CHECK_EQ_INT(rd_left(&r), 0);
        CHECK(memcmp(got, states, sizeof states) == 0);
        for (int i = 0; i < 64; i++) CHECK_EQ_INT(biomes[i], s->biomes[i]);
        CHECK(bits >= 0 && bits <= cases[t].max_bits);
        CHECK(bits == 0 || bits == 1 || bits == 2 || bits == 3 || bits == 6);
        buf_free(&b);
        chunk_free(&c);
    }
}

TEST(chunk_encode_packet_layout)
{
    chunk c;
    flat_chunk(&c, 3, -7);
    buf_t b;
    buf_init(&b, 0);
    chunk_encode_packet(&c, &b);
    CHECK_EQ_INT(b.failed, 0);
    rd_t r = rd_make(b.data, b.len);

    CHECK_EQ_INT(rd_varint(&r), PKT_PLAY_CB_MAP_CHUNK);
    CHECK_EQ_INT(rd_i32(&r), 3);
    CHECK_EQ_INT(rd_i32(&r), -7);

    /* Heightmaps: named-root compound, 37 longs of 9-bit heights, 7 per long. */
    nbt_doc doc;
    long used = nbt_parse(b.data + r.pos, rd_left(&r), true, &nbt_limits_network, &doc);
    CHECK(used > 0);
    if (used <= 0) goto out;
    rd_skip(&r, (size_t)used);
    CHECK(doc.root && doc.root->type == NBT_COMPOUND);
    static const char *const maps[] = {"MOTION_BLOCKING", "WORLD_SURFACE"};
    for (int m = 0; m < 2; m++) {
        const nbt_node *hm = nbt_get(doc.root, maps[m], NBT_LONG_ARRAY);
        CHECK(hm && hm->v.arr.n == 37);
        if (!hm || hm->v.arr.n != 37) continue;
        CHECK_EQ_INT(nbt_long_at(hm, 0) & 0x1ff, FLAT_SURFACE_Y - CHUNK_MIN_Y + 1);
        CHECK_EQ_INT(FLAT_SURFACE_Y - CHUNK_MIN_Y + 1, 4);
        for (int i = 0; i < 256; i++)
            CHECK_EQ_INT(((uint64_t)nbt_long_at(hm, (uint32_t)(i / 7)) >> (i % 7 * 9)) & 0x1ff, 4);
        for (uint32_t w = 0; w < 37; w++) /* bit 63 unused; last long holds 4 entries */
            CHECK_EQ_INT((uint64_t)nbt_long_at(hm, w) >> (w == 36 ? 36 : 63), 0);
    }
    nbt_doc_free(&doc);

    /* Section data: exactly 24 sections, nothing more. */
    int32_t data_len = rd_varint(&r);
    CHECK(data_len > 0 && (size_t)data_len <= rd_left(&r));
    if (r.err || data_len <= 0 || (size_t)data_len > rd_left(&r)) goto out;
    rd_t s = rd_make(b.data + r.pos, (size_t)data_len);
    rd_skip(&r, (size_t)data_len);
    static uint16_t states[4096], biomes[64];
    for (int sy = 0; sy < CHUNK_SECTIONS; sy++) {
        int non_air = rd_i16(&s);
        CHECK(read_container(&s, 4096, 4, 8, BLOCK_GLOBAL_BITS, states));
        CHECK(read_container(&s, 64, 1, 3, 6, biomes));
        int count = 0, bad = 0;
        for (int i = 0; i < 4096; i++) {
            int y = CHUNK_MIN_Y + sy * 16 + (i >> 8);
            uint16_t want = y == -64   ? BLOCK_BEDROCK
                            : y <= -62 ? BLOCK_DIRT
                            : y == -61 ? BLOCK_GRASS_BLOCK
                                       : BLOCK_AIR;
            bad += states[i] != want;
            count += !block_is_air(states[i]);
        }
        CHECK_EQ_INT(bad, 0);
        CHECK_EQ_INT(non_air, count);
        for (int i = 0; i < 64; i++) CHECK_EQ_INT(biomes[i], BIOME_PLAINS);
    }
    CHECK_EQ_INT(s.err, 0);
    CHECK_EQ_INT(rd_left(&s), 0); /* data length == sum of the 24 sections */

    CHECK_EQ_INT(rd_varint(&r), 0); /* block entities */

    uint64_t sky = read_bitset(&r), block = read_bitset(&r);
    uint64_t empty_sky = read_bitset(&r), empty_block = read_bitset(&r);
    (void)empty_block;
    CHECK(sky != 0);
    CHECK_EQ_INT(block, 0); /* no light sources */
    CHECK_EQ_INT(sky & empty_sky, 0);
    /* A section marked all-dark must lie wholly at or below the surface. */
    for (int l = 0; l < CHUNK_LIGHT_SECTIONS; l++)
        if (empty_sky >> l & 1) CHECK(CHUNK_MIN_Y + (l - 1) * 16 + 15 <= FLAT_SURFACE_Y);

    /* Sky light arrays: one of 2048 bytes per sky mask bit; 15 above ground, 0 below. */
    CHECK_EQ_INT(rd_varint(&r), __builtin_popcountll(sky));
    for (int l = 0; l < CHUNK_LIGHT_SECTIONS; l++) {
        if (!(sky >> l & 1)) continue;
        CHECK_EQ_INT(rd_varint(&r), 2048);
        const uint8_t *nib = rd_bytes(&r, 2048);
        CHECK(nib != NULL);
        if (!nib) break;
        int bad = 0;
        for (int i = 0; i < 4096; i++) {
            int y = CHUNK_MIN_Y + (l - 1) * 16 + (i >> 8);
            int want = y > FLAT_SURFACE_Y ? 15 : 0;
            bad += (nib[i >> 1] >> ((i & 1) * 4) & 15) != want;
        }
        CHECK_EQ_INT(bad, 0);
    }
    CHECK_EQ_INT(rd_varint(&r), 0); /* block light arrays */
    CHECK_EQ_INT(r.err, 0);
    CHECK_EQ_INT(rd_left(&r), 0); /* no trailing bytes */
out:
    buf_free(&b);
    chunk_free(&c);
}
