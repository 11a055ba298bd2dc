/*
 * test_anvil.c — chunk ↔ NBT (world/anvil.c) and level.dat (world/level.c):
 * round trips through every palette width and biome palette size, the
 * on-disk packing rules, every block state's {Name, Properties} and back,
 * NBT as other tools write it (property order, missing properties,
 * unknown names, missing sections), corrupt input, the kept opaque tags,
 * and level.dat's round trip with unknown tags copied through.
 */
#include <stdlib.h>

#include "data/biomes.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "proto/nbt.h"
#include "proto/wire.h"
#include "test.h"
#include "world/anvil.h"
#include "world/level.h"
#include "world/terrain.h"

static uint32_t rng_state = 12345;

static uint32_t rng(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

/* Section i gets n_states[i] distinct states (1 = single) and n_biomes[i] biomes. */
static const unsigned n_states[CHUNK_SECTIONS] = {1,   1,    2,    3,    16,  17,  32,  33,
                                                  64,  65,   128,  129,  255, 256, 257, 300,
                                                  512, 1024, 2048, 4096, 5,   1,   200, 1};
static const unsigned n_biomes[CHUNK_SECTIONS] = {1,  2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64,
                                                  64, 1, 2, 7, 1, 1, 1, 1,  3,  1,  2,  1};

static void build_chunk(chunk *c, uint16_t *shadow, uint8_t *bshadow)
{
    chunk_init(c, -7, 12, BLOCK_AIR, BIOME_PLAINS);
    uint16_t *st = malloc(4096 * sizeof *st);
    for (int s = 0; s < CHUNK_SECTIONS; s++) {
        unsigned n = n_states[s];
        uint16_t *pal = malloc(n * sizeof *pal);
        for (unsigned k = 0; k < n;) {
            uint16_t v = (uint16_t)(rng() % BLOCK_STATE_COUNT);
            if (s == 1) v = BLOCK_STONE;
            bool dup = false;
            for (unsigned j = 0; j < k; j++) dup |= pal[j] == v;
            if (!dup) pal[k++] = v;
        }
        for (unsigned i = 0; i < 4096; i++) st[i] = pal[i < n ? i : rng() % n];
        CHECK_EQ_INT(section_fill(&c->sections[s], st), 0);
        memcpy(shadow + s * 4096, st, 4096 * sizeof *st);
        free(pal);
        uint8_t bp[64];
        for (unsigned k = 0; k < n_biomes[s]; k++) bp[k] = (uint8_t)((k * 7 + s) % BIOME_COUNT);
        for (unsigned i = 0; i < 64; i++)
            c->sections[s].biomes[i] = bp[i < n_biomes[s] ? i : rng() % n_biomes[s]];
        memcpy(bshadow + s * 64, c->sections[s].biomes, 64);
    }
    free(st);
}

static int column_mismatches(const chunk *c, const uint16_t *shadow, const uint8_t *bshadow)
{
    int bad = 0;
    for (int s = 0; s < CHUNK_SECTIONS; s++) {
        unsigned non_air = 0;
        for (unsigned i = 0; i < 4096; i++) {
            int x = i & 15, z = (i >> 4) & 15, y = CHUNK_MIN_Y + s * 16 + (int)(i >> 8);
            uint16_t got = chunk_get_block(c, x, y, z);
            if (got != shadow[s * 4096 + i] && bad++ < 5)
                fprintf(stderr, "    section %d index %u: got %u want %u\n", s, i, got,
                        shadow[s * 4096 + i]);
            non_air += !block_is_air(shadow[s * 4096 + i]);
        }
        if (c->sections[s].non_air != non_air && bad++ < 5)
            fprintf(stderr, "    section %d: non_air %u want %u\n", s, c->sections[s].non_air,
                    non_air);
        if (memcmp(c->sections[s].biomes, bshadow + s * 64, 64) != 0 && bad++ < 5)
            fprintf(stderr, "    section %d: biomes differ\n", s);
    }
    return bad;
}

static unsigned ceil_log2(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n) b++;
    return b;
}

TEST(anvil_round_trip_every_palette_width_and_biome_palette)
{
    chunk c, d;
    uint16_t *shadow = malloc(CHUNK_SECTIONS * 4096 * sizeof *shadow);
    uint8_t bshadow[CHUNK_SECTIONS * 64];
    build_chunk(&c, shadow, bshadow);
    CHECK_EQ_INT(column_mismatches(&c, shadow, bshadow), 0);
    buf_t b;
    buf_init(&b, ANVIL_MAX_NBT);
    CHECK_EQ_INT(anvil_encode(&c, NULL, 1234, &b), 0);

    /* The packing rules, section by section, straight from the NBT. */
    nbt_doc doc;
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_disk, &doc) > 0);
    const nbt_node *root = doc.root;
    CHECK_EQ_INT(nbt_get(root, "DataVersion", NBT_INT)->v.i, 3465);
    CHECK_EQ_INT(nbt_get(root, "xPos", NBT_INT)->v.i, -7);
    CHECK_EQ_INT(nbt_get(root, "zPos", NBT_INT)->v.i, 12);
    CHECK_EQ_INT(nbt_get(root, "yPos", NBT_INT)->v.i, -4);
    CHECK(anvil_nbt_str_eq(nbt_get(root, "Status", NBT_STRING), "minecraft:full"));
    CHECK_EQ_INT(nbt_get(root, "LastUpdate", NBT_LONG)->v.i, 1234);
    CHECK(nbt_get(root, "block_entities", NBT_LIST) != NULL);
    const nbt_node *hm = nbt_get(root, "Heightmaps", NBT_COMPOUND);
    CHECK(hm && nbt_get(hm, "MOTION_BLOCKING", NBT_LONG_ARRAY)->v.arr.n == 37);
    const nbt_node *secs = nbt_get(root, "sections", NBT_LIST);
    CHECK_EQ_INT(secs->v.kids.count, CHUNK_SECTIONS);
    int i = 0;
    for (const nbt_node *s = secs->v.kids.first; s; s = s->next, i++) {
        CHECK_EQ_INT(nbt_get(s, "Y", NBT_BYTE)->v.i, -4 + i);
        const nbt_node *bs = nbt_get(s, "block_states", NBT_COMPOUND);
        const nbt_node *pal = nbt_get(bs, "palette", NBT_LIST);
        const nbt_node *data = nbt_get(bs, "data", NBT_LONG_ARRAY);
        unsigned n = pal->v.kids.count;
        CHECK_EQ_INT(n, n_states[i]);
        if (n == 1) {
            CHECK(data == NULL);
        } else {
            unsigned bits = ceil_log2(n) < 4 ? 4 : ceil_log2(n);
            CHECK(data && data->v.arr.n == (4096 + 64 / bits - 1) / (64 / bits));
        }
        const nbt_node *bm = nbt_get(s, "biomes", NBT_COMPOUND);
        const nbt_node *bpal = nbt_get(bm, "palette", NBT_LIST);
        const nbt_node *bdata = nbt_get(bm, "data", NBT_LONG_ARRAY);
        CHECK_EQ_INT(bpal->v.kids.count, n_biomes[i]);
        if (n_biomes[i] == 1) {
            CHECK(bdata == NULL);
        } else {
            unsigned bits = ceil_log2(n_biomes[i]);
            CHECK(bdata && bdata->v.arr.n == (64 + 64 / bits - 1) / (64 / bits));
        }
    }
    nbt_doc_free(&doc);

    anvil_extra x;
    char why[200] = "";
    CHECK_EQ_INT(anvil_decode(b.data, b.len, -7, 12, &d, &x, why, sizeof why), ANVIL_OK);
    CHECK_EQ_INT(column_mismatches(&d, shadow, bshadow), 0);
    /* Encoding the decoded chunk gives the same bytes (stable format). */
    buf_t b2;
    buf_init(&b2, ANVIL_MAX_NBT);
    CHECK_EQ_INT(anvil_encode(&d, &x, 1234, &b2), 0);
    CHECK_EQ_INT(b2.len, b.len);
    anvil_extra_free(&x);
    chunk_free(&c);
    chunk_free(&d);
    buf_free(&b);
    buf_free(&b2);
    free(shadow);
}

TEST(anvil_every_block_state_names_and_back)
{
    buf_t b;
    buf_init(&b, 1u << 16);
    int bad = 0;
    for (unsigned s = 0; s < BLOCK_STATE_COUNT; s++) {
        buf_reset(&b);
        wr_u8(&b, NBT_COMPOUND);
        wr_u16(&b, 0);
        anvil_write_state(&b, (uint16_t)s);
        nbt_doc doc;
        if (nbt_parse(b.data, b.len, true, &nbt_limits_disk, &doc) <= 0) {
            bad++;
            continue;
        }
        uint16_t back = anvil_state_from_nbt(doc.root);
        if (back != s && bad++ < 5) fprintf(stderr, "    state %u came back as %u\n", s, back);
        nbt_doc_free(&doc);
    }
    CHECK_EQ_INT(bad, 0);
    buf_free(&b);
}

TEST(anvil_biome_and_item_names)
{
    CHECK_EQ_INT(anvil_biome_by_name("minecraft:plains", 16), BIOME_PLAINS);
    CHECK_EQ_INT(anvil_biome_by_name("badlands", 8), BIOME_BADLANDS);
    CHECK_EQ_INT(anvil_biome_by_name("minecraft:wooded_badlands", 25), BIOME_WOODED_BADLANDS);
    CHECK_EQ_INT(anvil_biome_by_name("minecraft:the_void", 18), BIOME_THE_VOID);
    CHECK_EQ_INT(anvil_biome_by_name("minecraft:nope", 14), -1);
    CHECK_EQ_INT(anvil_biome_by_name("other:plains", 12), -1);
    for (int i = 0; i < BIOME_COUNT; i++) {
        const char *n = anvil_biome_name((uint8_t)i);
        CHECK_EQ_INT(anvil_biome_by_name(n, strlen(n)), i);
    }
    CHECK_EQ_INT(anvil_item_by_name("minecraft:stone", 15), 1);
    CHECK_EQ_INT(anvil_block_by_name("minecraft:grass_block", 21),
                 block_info[block_of_state[BLOCK_GRASS_BLOCK]].default_state);
    CHECK_EQ_INT(anvil_block_by_name("minecraft:no_such_block", 23), -1);
}

/* ------------------------------------------------- NBT as other tools write it */

static void w_str(buf_t *b, const char *name, const char *v)
{
    nbt_w_string(b, name, v, strlen(v));
}

static void w_bare(buf_t *b, const char *v)
{
    wr_u16(b, (uint16_t)strlen(v));
    buf_append(b, v, strlen(v));
}

/* A hand-made chunk: sections out of order, one missing, light-only ones,
 * properties in another order and partly missing, unknown names. */
static void foreign_chunk(buf_t *b, const char *status, int xpos, int data_len_delta,
                          bool bad_index)
{
    nbt_w_root(b, "");
    nbt_w_int(b, "DataVersion", 3465);
    nbt_w_int(b, "xPos", xpos);
    nbt_w_int(b, "zPos", 3);
    nbt_w_int(b, "yPos", -4);
    if (status) w_str(b, "Status", status);
    nbt_w_list(b, "sections", NBT_COMPOUND, 4);
    /* Y = 0: palette of 3 (stairs with 2 of 4 properties, in another order;
     * an unknown block; stone), data at 4 bits. */
    nbt_w_byte(b, "Y", 0);
    nbt_w_compound(b, "block_states");
    nbt_w_list(b, "palette", NBT_COMPOUND, 4);
    w_str(b, "Name", "minecraft:oak_stairs");
    nbt_w_compound(b, "Properties");
    w_str(b, "half", "top");
    w_str(b, "facing", "east");
    nbt_w_end(b);
    nbt_w_end(b);
    w_str(b, "Name", "minecraft:future_block");
    nbt_w_end(b);
    w_str(b, "Name", "stone");
    nbt_w_end(b);
    w_str(b, "Name", "othermod:thing");
    nbt_w_end(b);
    int64_t data[256 + 1];
    for (int i = 0; i < 256; i++) data[i] = 0x0000000000032010LL; /* 0,1,0,2,3,0,... per long */
    if (bad_index) data[5] = 0x0000000000000009LL;                /* index 9 of 4 */
    nbt_w_long_array(b, "data", data, 256 + data_len_delta);
    nbt_w_end(b);
    nbt_w_compound(b, "biomes");
    nbt_w_list(b, "palette", NBT_STRING, 2);
    w_bare(b, "minecraft:desert");
    w_bare(b, "minecraft:made_up");
    int64_t bd[1] = {0x2}; /* entry 1 → index 1, the rest 0 */
    nbt_w_long_array(b, "data", bd, 1);
    nbt_w_end(b);
    nbt_w_end(b);
    /* Y = -5: light only (ignored). */
    nbt_w_byte(b, "Y", -5);
    uint8_t light[2048] = {0};
    nbt_w_byte_array(b, "SkyLight", light, 2048);
    nbt_w_end(b);
    /* Y = 19 (top): single value glass. */
    nbt_w_byte(b, "Y", 19);
    nbt_w_compound(b, "block_states");
    nbt_w_list(b, "palette", NBT_COMPOUND, 1);
    w_str(b, "Name", "minecraft:glass");
    nbt_w_end(b);
    nbt_w_end(b);
    nbt_w_end(b);
    /* Y = -4 with no block_states or biomes at all. */
    nbt_w_byte(b, "Y", -4);
    nbt_w_end(b);
    nbt_w_list(b, "block_entities", NBT_COMPOUND, 1);
    w_str(b, "id", "minecraft:chest");
    nbt_w_int(b, "x", -30);
    nbt_w_int(b, "y", 5);
    nbt_w_int(b, "z", 50);
    nbt_w_end(b);
    nbt_w_long(b, "InhabitedTime", 777);
    nbt_w_end(b);
}

TEST(anvil_reads_what_other_tools_write)
{
    buf_t b;
    buf_init(&b, 1u << 20);
    foreign_chunk(&b, "full", -2, 0, false);
    chunk c;
    anvil_extra x;
    char why[200] = "";
    CHECK_EQ_INT(anvil_decode(b.data, b.len, -2, 3, &c, &x, why, sizeof why), ANVIL_OK);
    /* Section Y=0 holds y 0..15: index 0 stairs, 1 future (air), 2 stairs, 3 stone ... */
    uint16_t stairs = chunk_get_block(&c, 0, 0, 0);
    CHECK_EQ_INT(block_of_state[stairs], block_of_state[BLOCK_OAK_STAIRS]);
    /* facing=east half=top, shape and waterlogged from the default (straight, false). */
    buf_t n;
    buf_init(&n, 4096);
    wr_u8(&n, NBT_COMPOUND);
    wr_u16(&n, 0);
    anvil_write_state(&n, stairs);
    nbt_doc d;
    CHECK(nbt_parse(n.data, n.len, true, &nbt_limits_disk, &d) > 0);
    const nbt_node *props = nbt_get(d.root, "Properties", NBT_COMPOUND);
    CHECK(anvil_nbt_str_eq(nbt_get(props, "facing", NBT_STRING), "east"));
    CHECK(anvil_nbt_str_eq(nbt_get(props, "half", NBT_STRING), "top"));
    CHECK(anvil_nbt_str_eq(nbt_get(props, "shape", NBT_STRING), "straight"));
    CHECK(anvil_nbt_str_eq(nbt_get(props, "waterlogged", NBT_STRING), "false"));
    nbt_doc_free(&d);
    buf_free(&n);
    CHECK_EQ_INT(chunk_get_block(&c, 1, 0, 0), BLOCK_AIR); /* unknown → air */
    CHECK_EQ_INT(chunk_get_block(&c, 3, 0, 0), BLOCK_STONE);
    CHECK_EQ_INT(chunk_get_block(&c, 4, 0, 0), BLOCK_AIR); /* othermod:thing → air */
    CHECK_EQ_INT(chunk_get_block(&c, 5, 0, 0), stairs);
    CHECK_EQ_INT(c.sections[4].biomes[0], BIOME_DESERT);
    CHECK_EQ_INT(c.sections[4].biomes[1], BIOME_PLAINS); /* made_up → plains */
    CHECK_EQ_INT(c.sections[4].biomes[2], BIOME_DESERT);
    CHECK_EQ_INT(chunk_get_block(&c, 7, 310, 9), anvil_block_by_name("glass", 5));
    CHECK_EQ_INT(c.sections[23].non_air, 4096);
    CHECK_EQ_INT(chunk_get_block(&c, 7, -60, 9), BLOCK_AIR); /* section without data */
    CHECK_EQ_INT(c.sections[0].biomes[0], BIOME_PLAINS);
    CHECK_EQ_INT(chunk_get_block(&c, 7, 100, 9), BLOCK_AIR); /* missing section */
    /* The block entity list and InhabitedTime come back on the next save. */
    CHECK_EQ_INT(x.inhabited_time, 777);
    buf_t out;
    buf_init(&out, 1u << 20);
    CHECK_EQ_INT(anvil_encode(&c, &x, 0, &out), 0);
    CHECK(nbt_parse(out.data, out.len, true, &nbt_limits_disk, &d) > 0);
    const nbt_node *be = nbt_get(d.root, "block_entities", NBT_LIST);
    CHECK(be && be->v.kids.count == 1);
    CHECK(be && anvil_nbt_str_eq(nbt_get(be->v.kids.first, "id", NBT_STRING), "minecraft:chest"));
    CHECK_EQ_INT(nbt_get(d.root, "InhabitedTime", NBT_LONG)->v.i, 777);
    /* Only one block_entities tag (the kept one, no default added). */
    int count = 0;
    for (const nbt_node *k = d.root->v.kids.first; k; k = k->next)
        count += k->name_len == 14 && memcmp(k->name, "block_entities", 14) == 0;
    CHECK_EQ_INT(count, 1);
    nbt_doc_free(&d);
    buf_free(&out);
    anvil_extra_free(&x);
    chunk_free(&c);
    buf_free(&b);
}

TEST(anvil_rejects_corrupt_chunks_and_flags_proto_chunks)
{
    buf_t b;
    buf_init(&b, 1u << 20);
    chunk c;
    char why[200];
    struct {
        const char *status;
        int xpos, delta;
        bool bad_index;
        int32_t want_x;
        int expect;
    } cases[] = {
        {"minecraft:full", -2, 0, false, -2, ANVIL_OK},
        {"minecraft:features", -2, 0, false, -2, ANVIL_NOT_FULL},
        {"full", -2, -1, false, -2, ANVIL_CORRUPT}, /* data one long short */
        {"full", -2, 1, false, -2, ANVIL_CORRUPT},  /* one long too many */
        {"full", -2, 0, true, -2, ANVIL_CORRUPT},   /* index past the palette */
        {"full", 5, 0, false, -2, ANVIL_CORRUPT},   /* stored at the wrong place */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf_reset(&b);
        foreign_chunk(&b, cases[i].status, cases[i].xpos, cases[i].delta, cases[i].bad_index);
        why[0] = 0;
        int rc = anvil_decode(b.data, b.len, cases[i].want_x, 3, &c, NULL, why, sizeof why);
        if (rc != cases[i].expect) fprintf(stderr, "    case %zu: %d (%s)\n", i, rc, why);
        CHECK_EQ_INT(rc, cases[i].expect);
        if (rc != ANVIL_OK) CHECK(why[0] != 0);
        chunk_free(&c);
    }
    /* Every truncation of a valid chunk is rejected cleanly, never read past. */
    buf_reset(&b);
    foreign_chunk(&b, "full", -2, 0, false);
    for (size_t cut = 0; cut < b.len; cut += 1 + cut / 16) {
        uint8_t *p = malloc(cut ? cut : 1);
        memcpy(p, b.data, cut);
        int rc = anvil_decode(p, cut, -2, 3, &c, NULL, why, sizeof why);
        CHECK(rc == ANVIL_CORRUPT);
        chunk_free(&c);
        free(p);
    }
    /* Pre-1.18 layout and no sections. */
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_compound(&b, "Level");
    nbt_w_end(&b);
    nbt_w_end(&b);
    CHECK_EQ_INT(anvil_decode(b.data, b.len, 0, 0, &c, NULL, why, sizeof why), ANVIL_CORRUPT);
    CHECK(strstr(why, "pre-1.18") != NULL);
    chunk_free(&c);
    buf_reset(&b);
    nbt_w_root(&b, "");
    nbt_w_int(&b, "xPos", 0);
    nbt_w_int(&b, "zPos", 0);
    nbt_w_end(&b);
    CHECK_EQ_INT(anvil_decode(b.data, b.len, 0, 0, &c, NULL, why, sizeof why), ANVIL_CORRUPT);
    chunk_free(&c);
    buf_free(&b);
}

TEST(anvil_decompress_caps_and_types)
{
    uint8_t raw[1000];
    for (int i = 0; i < 1000; i++) raw[i] = (uint8_t)(i % 7);
    uint8_t *out;
    size_t n;
    CHECK_EQ_INT(anvil_decompress(3, raw, 1000, 4096, &out, &n), 0);
    CHECK(n == 1000 && memcmp(out, raw, 1000) == 0);
    free(out);
    CHECK_EQ_INT(anvil_decompress(3, raw, 1000, 999, &out, &n), -2);
    CHECK_EQ_INT(anvil_decompress(2, raw, 1000, 1u << 20, &out, &n), -1); /* not zlib */
    CHECK_EQ_INT(anvil_decompress(9, raw, 1000, 1u << 20, &out, &n), -1);
}

/* ----------------------------------------------------------------- level.dat */

TEST(level_dat_round_trip_keeps_unknown_tags)
{
    struct server_config cfg;
    config_defaults(&cfg);
    cfg.seed = -1234567890123LL;
    cfg.level_type = LEVEL_FLAT;
    snprintf(cfg.level_name, sizeof cfg.level_name, "testworld");
    terrain t;
    char err[256];
    CHECK_EQ_INT(
        terrain_init(&t, LEVEL_FLAT, cfg.seed,
                     "{\"layers\":[{\"block\":\"minecraft:stone\",\"height\":3},"
                     "{\"block\":\"minecraft:sand\",\"height\":2}],\"biome\":\"minecraft:desert\"}",
                     err, sizeof err),
        0);
    level_info li;
    memset(&li, 0, sizeof li);
    li.spawn_x = 10;
    li.spawn_y = 70;
    li.spawn_z = -20;
    li.time = 555;
    li.day_time = 6000;
    li.raining = true;
    buf_t b;
    buf_init(&b, 1u << 20);
    CHECK_EQ_INT(level_encode(&li, &cfg, &t, 1000, &b), 0);
    level_info back;
    memset(&back, 0, sizeof back);
    char why[128];
    CHECK_EQ_INT(level_parse(b.data, b.len, &back, why, sizeof why), 0);
    CHECK_EQ_INT(back.seed, cfg.seed);
    CHECK(back.has_generator && back.type == LEVEL_FLAT);
    CHECK(strstr(back.flat_json, "\"minecraft:stone\",\"height\":3") != NULL);
    CHECK(strstr(back.flat_json, "\"biome\":\"minecraft:desert\"") != NULL);
    CHECK(back.has_spawn && back.spawn_x == 10 && back.spawn_y == 70 && back.spawn_z == -20);
    CHECK_EQ_INT(back.time, 555);
    CHECK_EQ_INT(back.day_time, 6000);
    CHECK(back.raining && !back.thundering);
    CHECK(!strcmp(back.name, "testworld"));
    /* The generator JSON is accepted by terrain_init as is. */
    terrain t2;
    CHECK_EQ_INT(terrain_init(&t2, LEVEL_FLAT, back.seed, back.flat_json, err, sizeof err), 0);
    CHECK_EQ_INT(t2.layer_count, 2);

    /* A vanilla file with tags mcserv does not know keeps them. */
    buf_t v;
    buf_init(&v, 1u << 20);
    nbt_w_root(&v, "");
    nbt_w_compound(&v, "Data");
    nbt_w_int(&v, "SpawnX", 1);
    nbt_w_int(&v, "SpawnY", 64);
    nbt_w_int(&v, "SpawnZ", 2);
    nbt_w_compound(&v, "DragonFight");
    nbt_w_byte(&v, "DragonKilled", 1);
    nbt_w_end(&v);
    nbt_w_compound(&v, "GameRules");
    nbt_w_string(&v, "keepInventory", "true", 4);
    nbt_w_end(&v);
    nbt_w_list(&v, "ServerBrands", NBT_STRING, 1);
    wr_u16(&v, 7);
    buf_append(&v, "vanilla", 7);
    nbt_w_end(&v);
    nbt_w_end(&v);
    level_info old;
    memset(&old, 0, sizeof old);
    CHECK_EQ_INT(level_parse(v.data, v.len, &old, why, sizeof why), 0);
    old.raw = v.data;
    old.raw_len = v.len;
    old.loaded = true;
    buf_reset(&b);
    CHECK_EQ_INT(level_encode(&old, &cfg, &t, 0, &b), 0);
    nbt_doc d;
    CHECK(nbt_parse(b.data, b.len, true, &nbt_limits_disk, &d) > 0);
    const nbt_node *data = nbt_get(d.root, "Data", NBT_COMPOUND);
    CHECK(nbt_get(nbt_get(data, "DragonFight", NBT_COMPOUND), "DragonKilled", NBT_BYTE) != NULL);
    const nbt_node *gr = nbt_get(data, "GameRules", NBT_COMPOUND);
    CHECK(anvil_nbt_str_eq(nbt_get(gr, "keepInventory", NBT_STRING), "true"));
    CHECK(nbt_get(gr, "doFireTick", NBT_STRING) == NULL); /* theirs, not our defaults */
    const nbt_node *brands = nbt_get(data, "ServerBrands", NBT_LIST);
    CHECK(brands && brands->v.kids.count == 2);
    CHECK(nbt_get(data, "WorldGenSettings", NBT_COMPOUND) != NULL); /* filled in */
    int spawnx = 0;
    for (const nbt_node *k = data->v.kids.first; k; k = k->next)
        spawnx += k->name_len == 6 && memcmp(k->name, "SpawnX", 6) == 0;
    CHECK_EQ_INT(spawnx, 1); /* no duplicates of the tags mcserv writes */
    nbt_doc_free(&d);
    buf_free(&v);
    buf_free(&b);
}
