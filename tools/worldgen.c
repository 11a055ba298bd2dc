/*
 * worldgen.c — generates a square of chunks with mcserv's terrain generator
 * and reports the cost; optionally writes a top-down map (PPM or PNG, drawn
 * by world/maprender.h as the live map draws it) and a digest of every
 * chunk so two runs (or two builds) can be compared byte for byte.
 *
 *   build/worldgen [--seed N] [--type normal|flat] [--radius R] [--at CX,CZ] [--step K]
 *                  [--ppm FILE] [--png FILE] [--digest]
 *   build/worldgen --seed N --probe < columns
 *   build/worldgen --seed N --radius R --ores
 *   build/worldgen --seed N --survey BLOCKS --stride S [--ppm FILE]
 *   build/worldgen --seed N --radius R --threads T [--at CX,CZ] [--digest]
 *
 * The square is the (2R)^2 chunks from (CX - R, CZ - R) (default centre 0,0).
 * --step K takes every K-th chunk of a square K times as wide instead: with
 * K >= 2 no two chunks share a border, so the generator's shared caches
 * (world/wg_cache.h) find nothing and the timings are those of chunks
 * generated alone.
 *
 * --digest hashes, per chunk: its position, every section as sent to clients
 * (block states with their palette, and the biomes), both heightmaps, and for
 * the normal generator the spawn search's surface height and the fuzzy biome
 * at one column (they take other code paths than the chunk's own blocks). The
 * chunks' hashes are summed, so the digest does not depend on the order the
 * chunks were made in: --threads T prints the same digest as one thread
 * (tests/worldgen/digest.test.js holds the expected values).
 *
 * --probe reads lines "x z qy" and prints "x z height biome" per line: the
 * noise stage's surface height (highest solid block + 1, vanilla's
 * OCEAN_FLOOR_WG before surface rules and carvers) and the biome id at quart
 * (x >> 2, qy, z >> 2); tests/worldgen compares these with deepslate.
 *
 * --ores generates the (2R)^2 chunks around 0,0 and prints, as JSON, per
 * 16-block height band: the ore blocks of each kind, the host stone (blocks
 * ores may replace, ores included) and how much of it touches air; and per
 * ore feature, the chunks whose biome allowed it (tests/worldgen/ores.test.js).
 *
 * --survey samples every S blocks within ±BLOCKS of 0,0: the surface height
 * (noise stage) and the biome at the surface, prints the distinct biomes,
 * the height distribution and the river and mountain shares, and with --ppm
 * writes a map (biome colours, shaded by height; water blue below sea level).
 *
 * --threads T generates the square on T threads sharing one terrain (as the
 * server's workers do) and reports chunks per second of wall time.
 *
 * Per chunk it times generation alone and generation + light + encode +
 * compression (what a worker does), and reports encoded sizes and the memory
 * the chunk's sections hold.
 */
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "data/biomes.h"
#include "data/block_table.h"
#include "data/blocks.h"
#include "proto/frame.h"
#include "world/biome_source.h"
#include "world/noise_chunk.h"
#include "world/ores.h"
#include "world/overworld.h"
#include "data/worldgen_biomes.h"
#include "data/worldgen_ores.h"
#include "world/maprender.h"
#include "world/terrain.h"

static size_t section_bytes(const section *s)
{
    size_t n = sizeof *s;
    if (s->bits) n += (4096 / (64 / s->bits) + 1) * 8;
    if (s->palette) n += 256 * 2;
    return n;
}

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const uint8_t *b = data;
    for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 1099511628211ULL;
    return h;
}

/* The hash of one generated chunk (see --digest above). */
static uint64_t chunk_digest(const terrain *t, const chunk *c)
{
    uint64_t h = 1469598103934665603ULL;
    int32_t pos[2] = {c->x, c->z};
    h = fnv(h, pos, sizeof pos);
    buf_t sec;
    buf_init(&sec, 0);
    for (int s = 0; s < CHUNK_SECTIONS; s++) section_encode(&c->sections[s], &sec);
    h = fnv(h, sec.data, sec.len);
    buf_free(&sec);
    int surface[256], motion[256];
    chunk_heightmaps(c, surface, motion);
    h = fnv(h, surface, sizeof surface);
    h = fnv(h, motion, sizeof motion);
    if (t->type == LEVEL_NORMAL) {
        /* one column per chunk, spread over the chunk's 16 x 16 */
        uint32_t k = (uint32_t)c->x * 2654435761u ^ (uint32_t)c->z * 40503u;
        int32_t x = c->x * 16 + (int32_t)(k & 15), z = c->z * 16 + (int32_t)(k >> 4 & 15);
        int32_t probe[3] = {overworld_surface_y(&t->wg, x, z), 0, 0};
        probe[1] = overworld_biome_at(&t->wg, x, probe[0] + 1, z);
        probe[2] = wg_column_height(&t->wg, x, z);
        h = fnv(h, probe, sizeof probe);
    }
    return h;
}

static int probe(long long seed)
{
    wg_state *st = malloc(sizeof *st);
    if (!st) return 1;
    wg_state_init(st, seed);
    wg_pt p;
    wg_pt_init(&p, st);
    long x, z, qy;
    while (scanf("%ld %ld %ld", &x, &z, &qy) == 3) {
        int h = wg_column_height(st, (int32_t)x, (int32_t)z);
        int last = -1;
        int b = wg_biome_at(&p, (int32_t)(x >> 2), (int32_t)qy, (int32_t)(z >> 2), &last);
        printf("%ld %ld %d %d\n", x, z, h, b);
    }
    free(st);
    return 0;
}

static const char *const ore_kind[] = {"coal",     "iron",  "copper",  "gold",
                                       "redstone", "lapis", "diamond", "emerald"};
#define ORE_KINDS ((int)(sizeof ore_kind / sizeof ore_kind[0]))
#define BANDS     (CHUNK_HEIGHT / 16)

/* Ore kind of a state (either stone or deepslate variant), or -1; -2: host stone. */
static int ore_of(uint16_t st)
{
    const char *n = block_info[block_of_state[st]].name;
    if (!strcmp(n, "stone") || !strcmp(n, "granite") || !strcmp(n, "diorite") ||
        !strcmp(n, "andesite") || !strcmp(n, "tuff") || !strcmp(n, "deepslate"))
        return -2;
    size_t len = strlen(n);
    if (len < 4 || strcmp(n + len - 4, "_ore")) return -1;
    if (!strncmp(n, "deepslate_", 10)) n += 10;
    for (int k = 0; k < ORE_KINDS; k++)
        if (!strncmp(n, ore_kind[k], strlen(ore_kind[k])) && n[strlen(ore_kind[k])] == '_')
            return k;
    return -1;
}

static int is_air_state(uint16_t s)
{
    return s == BLOCK_AIR || s == BLOCK_CAVE_AIR;
}

static int ores_report(long long seed, int radius)
{
    terrain *t = malloc(sizeof *t);
    char err[128];
    if (!t || terrain_init(t, LEVEL_NORMAL, seed, "", err, sizeof err) < 0) return 1;
    static uint64_t ores[ORE_KINDS][BANDS], host[BANDS], exposed[BANDS];
    static uint64_t allowed[WG_ORE_COUNT];
    for (int cz = -radius; cz < radius; cz++)
        for (int cx = -radius; cx < radius; cx++) {
            chunk c;
            chunk_init(&c, cx, cz, BLOCK_AIR, BIOME_PLAINS);
            terrain_generate(t, &c);
            uint8_t allow[WG_ORE_COUNT];
            ores_allowed(&t->wg, cx * 16, cz * 16, allow);
            for (int k = 0; k < WG_ORE_COUNT; k++) allowed[k] += allow[k];
            for (int y = CHUNK_MIN_Y; y < CHUNK_MIN_Y + CHUNK_HEIGHT; y++)
                for (int z = 0; z < 16; z++)
                    for (int x = 0; x < 16; x++) {
                        uint16_t st = chunk_get_block(&c, x, y, z);
                        int k = ore_of(st);
                        if (k == -1) continue;
                        int band = (y - CHUNK_MIN_Y) / 16;
                        host[band]++;
                        if (k >= 0) ores[k][band]++;
                        static const int8_t d[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                                       {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
                        for (int i = 0; i < 6; i++) {
                            int ax = x + d[i][0], ay = y + d[i][1], az = z + d[i][2];
                            if (ax < 0 || ax > 15 || az < 0 || az > 15 || ay < CHUNK_MIN_Y ||
                                ay >= CHUNK_MIN_Y + CHUNK_HEIGHT)
                                continue;
                            if (is_air_state(chunk_get_block(&c, ax, ay, az))) {
                                exposed[band]++;
                                break;
                            }
                        }
                    }
            chunk_free(&c);
        }
    printf("{\"seed\": %lld, \"chunks\": %d, \"band_height\": 16, \"min_y\": %d,\n", seed,
           4 * radius * radius, CHUNK_MIN_Y);
    printf(" \"host\": [");
    for (int b = 0; b < BANDS; b++) printf("%s%llu", b ? ", " : "", (unsigned long long)host[b]);
    printf("],\n \"exposed\": [");
    for (int b = 0; b < BANDS; b++) printf("%s%llu", b ? ", " : "", (unsigned long long)exposed[b]);
    printf("],\n \"ores\": {");
    for (int k = 0; k < ORE_KINDS; k++) {
        printf("%s\n  \"%s\": [", k ? "," : "", ore_kind[k]);
        for (int b = 0; b < BANDS; b++)
            printf("%s%llu", b ? ", " : "", (unsigned long long)ores[k][b]);
        printf("]");
    }
    printf("},\n \"allowed\": {");
    for (int k = 0; k < WG_ORE_COUNT; k++)
        printf("%s\"%s\": %llu", k ? ", " : "", wg_ores[k].name, (unsigned long long)allowed[k]);
    printf("}}\n");
    free(t);
    return 0;
}

static int survey(long long seed, int half, int stride, const char *ppm)
{
    wg_state *st = malloc(sizeof *st);
    if (!st) return 1;
    wg_state_init(st, seed);
    int side = 2 * half / stride;
    uint8_t *img = ppm ? calloc((size_t)side * side, 3) : NULL;
    static uint64_t per_biome[256];
    uint64_t n = 0, above150 = 0, land = 0, max_h = 0;
    int top = -1000, top_x = 0, top_z = 0;
    wg_pt p;
    wg_pt_init(&p, st);
    int last = -1;
    for (int j = 0; j < side; j++)
        for (int i = 0; i < side; i++) {
            int32_t x = -half + i * stride, z = -half + j * stride;
            int h = overworld_surface_y(st, x, z);
            int qy = (h + 1) >> 2;
            if (qy < -16) qy = -16;
            int b = wg_biome_at(&p, x >> 2, qy, z >> 2, &last);
            per_biome[b]++;
            n++;
            if (h >= WG_SEA_LEVEL - 1) land++;
            if (h > 150) above150++;
            if (h > top) top = h, top_x = x, top_z = z;
            (void)max_h;
            if (img) {
                uint32_t c = h < WG_SEA_LEVEL - 1 ? 0x2050c8 : wg_biome_climate[b].color;
                if (b == BIOME_RIVER || b == BIOME_FROZEN_RIVER) c = 0x40a0ff;
                double shade = 0.6 + (h - 40) / 220.0;
                if (shade < 0.35) shade = 0.35;
                if (shade > 1.4) shade = 1.4;
                uint8_t *px = img + ((size_t)j * side + i) * 3;
                for (int k = 0; k < 3; k++) {
                    double v = ((c >> (16 - 8 * k)) & 0xff) * shade;
                    px[k] = (uint8_t)(v > 255 ? 255 : v);
                }
            }
        }
    int distinct = 0;
    for (int b = 0; b < 256; b++) distinct += per_biome[b] > 0;
    printf("survey seed %lld: %d x %d samples every %d blocks within +-%d\n", seed, side, side,
           stride, half);
    printf("distinct biomes: %d\n", distinct);
    printf("land: %.1f %%, above y 150: %.2f %%, highest surface y %d at %d, %d\n",
           100.0 * land / n, 100.0 * above150 / n, top, top_x, top_z);
    printf("river: %.2f %% (frozen %.2f %%)\n", 100.0 * per_biome[BIOME_RIVER] / n,
           100.0 * per_biome[BIOME_FROZEN_RIVER] / n);
    printf("biomes:");
    for (int b = 0; b < 256; b++)
        if (per_biome[b]) printf(" %s %.2f%%", wg_biome_climate[b].name, 100.0 * per_biome[b] / n);
    printf("\n");
    if (img) {
        FILE *f = fopen(ppm, "wb");
        if (!f) {
            perror(ppm);
            return 1;
        }
        fprintf(f, "P6 %d %d 255\n", side, side);
        fwrite(img, 3, (size_t)side * side, f);
        fclose(f);
        free(img);
    }
    free(st);
    return 0;
}

struct gen_job {
    const terrain *t;
    int radius, index, threads, digest;
    int32_t at_x, at_z;
    long done;
    uint64_t hash;
};

static void *gen_thread(void *arg)
{
    struct gen_job *j = arg;
    for (int cz = -j->radius + j->index; cz < j->radius; cz += j->threads)
        for (int cx = -j->radius; cx < j->radius; cx++) {
            chunk c;
            chunk_init(&c, j->at_x + cx, j->at_z + cz, BLOCK_AIR, BIOME_PLAINS);
            terrain_generate(j->t, &c);
            if (j->digest) j->hash += chunk_digest(j->t, &c);
            chunk_free(&c);
            j->done++;
        }
    return NULL;
}

static int threaded(long long seed, int radius, int threads, int32_t at_x, int32_t at_z, int digest)
{
    terrain *t = malloc(sizeof *t);
    char err[128];
    if (!t || terrain_init(t, LEVEL_NORMAL, seed, "", err, sizeof err) < 0) return 1;
    pthread_t tid[64];
    struct gen_job jobs[64];
    if (threads > 64) threads = 64;
    int64_t t0 = clock_ns();
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct gen_job){t, radius, i, threads, digest, at_x, at_z, 0, 0};
        pthread_create(&tid[i], NULL, gen_thread, &jobs[i]);
    }
    long n = 0;
    uint64_t hash = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        n += jobs[i].done;
        hash += jobs[i].hash;
    }
    double s = (clock_ns() - t0) / 1e9;
    printf("%ld chunks on %d threads in %.2f s: %.0f chunks/s\n", n, threads, s, n / s);
    if (digest) printf("digest: %016llx\n", (unsigned long long)hash);
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    long long seed = 12345;
    int radius = 8;
    const char *ppm = NULL, *png = NULL, *type = "normal";
    int digest = 0, probe_mode = 0, ores_mode = 0, survey_half = 0, stride = 16, threads = 0;
    int32_t at_x = 0, at_z = 0;
    int step = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--radius") && i + 1 < argc)
            radius = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--step") && i + 1 < argc && atoi(argv[i + 1]) >= 1)
            step = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ppm") && i + 1 < argc)
            ppm = argv[++i];
        else if (!strcmp(argv[i], "--png") && i + 1 < argc)
            png = argv[++i];
        else if (!strcmp(argv[i], "--type") && i + 1 < argc)
            type = argv[++i];
        else if (!strcmp(argv[i], "--at") && i + 1 < argc) {
            int ax, az;
            if (sscanf(argv[++i], "%d,%d", &ax, &az) != 2) {
                fprintf(stderr, "worldgen: --at wants CX,CZ (chunk coordinates)\n");
                return 2;
            }
            at_x = ax;
            at_z = az;
        } else if (!strcmp(argv[i], "--digest"))
            digest = 1;
        else if (!strcmp(argv[i], "--probe"))
            probe_mode = 1;
        else if (!strcmp(argv[i], "--ores"))
            ores_mode = 1;
        else if (!strcmp(argv[i], "--survey") && i + 1 < argc)
            survey_half = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stride") && i + 1 < argc)
            stride = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: worldgen [--seed N] [--type normal|flat] [--radius R] [--at "
                            "CX,CZ] [--step K] [--ppm FILE] [--png FILE] [--digest] [--probe] "
                            "[--ores] [--survey BLOCKS --stride S] [--threads T]\n");
            return 2;
        }
    }
    if (probe_mode) return probe(seed);
    if (ores_mode) return ores_report(seed, radius);
    if (survey_half > 0 && stride > 0) return survey(seed, survey_half, stride, ppm);
    if (threads > 0) return threaded(seed, radius, threads, at_x, at_z, digest);
    terrain t;
    char err[256];
    if (terrain_init(&t, strcmp(type, "flat") ? LEVEL_NORMAL : LEVEL_FLAT, seed, "", err,
                     sizeof err) < 0) {
        fprintf(stderr, "worldgen: %s\n", err);
        return 1;
    }
    int side = 2 * radius;
    size_t width = (size_t)side * 16;
    /* Colours and heights of every column, shaded once all are known. */
    uint32_t *rgb = ppm || png ? calloc(width * width, sizeof *rgb) : NULL;
    int16_t *height = rgb ? calloc(width * width, sizeof *height) : NULL;
    uint8_t *water = rgb ? calloc(width * width, 1) : NULL;
    static map_chunk mc;
    struct libdeflate_compressor *comp = libdeflate_alloc_compressor(6);
    buf_t raw, framed;
    buf_init(&raw, 0);
    buf_init(&framed, 0);
    int64_t gen_ns = 0, enc_ns = 0, stage_ns[OW_STAGES] = {0};
    static const char *const stage_name[OW_STAGES] = {"biomes",  "noise", "surface",
                                                      "carvers", "ores",  "trees+plants"};
    size_t raw_total = 0, z_total = 0, mem_total = 0, n = 0;
    uint64_t hash = 0;
    for (int cz = -radius; cz < radius; cz++)
        for (int cx = -radius; cx < radius; cx++) {
            chunk c;
            chunk_init(&c, at_x + cx * step, at_z + cz * step, BLOCK_AIR, BIOME_PLAINS);
            int64_t t0 = clock_ns();
            if (t.type == LEVEL_NORMAL)
                overworld_generate_timed(&t.wg, &c, stage_ns);
            else
                terrain_generate(&t, &c);
            int64_t t1 = clock_ns();
            buf_reset(&raw);
            buf_reset(&framed);
            chunk_encode_packet(&c, &raw);
            frame_encode(&framed, raw.data, raw.len, 256, comp);
            int64_t t2 = clock_ns();
            gen_ns += t1 - t0;
            enc_ns += t2 - t1;
            raw_total += raw.len;
            z_total += framed.len;
            for (int s = 0; s < CHUNK_SECTIONS; s++) mem_total += section_bytes(&c.sections[s]);
            n++;
            if (digest) hash += chunk_digest(&t, &c);
            if (height) {
                maprender_chunk(&c, &mc);
                for (int z = 0; z < 16; z++)
                    for (int x = 0; x < 16; x++) {
                        size_t px = (size_t)((cz + radius) * 16 + z) * width +
                                    (size_t)((cx + radius) * 16 + x);
                        rgb[px] = mc.rgb[z * 16 + x];
                        height[px] = mc.height[z * 16 + x];
                        water[px] = mc.water[z * 16 + x];
                    }
            }
            chunk_free(&c);
        }
    printf("chunks %zu (seed %lld, %s)\n", n, seed, type);
    if (t.type == LEVEL_NORMAL) {
        int64_t cpu = 0;
        for (int k = 0; k < OW_STAGES; k++) cpu += stage_ns[k];
        printf("generate: %.3f ms CPU per chunk (%.3f ms wall)\n", cpu / 1e6 / (double)n,
               gen_ns / 1e6 / (double)n);
    } else {
        printf("generate: %.3f ms per chunk\n", gen_ns / 1e6 / (double)n);
    }
    if (t.type == LEVEL_NORMAL) {
        printf("  CPU per stage (ms/chunk):");
        for (int k = 0; k < OW_STAGES; k++)
            printf(" %s %.3f", stage_name[k], stage_ns[k] / 1e6 / (double)n);
        printf("\n");
    }
    printf("light + encode + compress: %.3f ms per chunk\n", enc_ns / 1e6 / (double)n);
    printf("encoded: %.0f bytes raw, %.0f bytes compressed (threshold 256, level 6) per chunk\n",
           (double)raw_total / (double)n, (double)z_total / (double)n);
    printf("memory: %.0f bytes of sections per chunk\n", (double)mem_total / (double)n);
    if (digest) printf("digest: %016llx\n", (unsigned long long)hash);
    if (height && water) {
        uint8_t *img = malloc(width * width * 4);
        for (size_t i = 0; img && i < width * width; i++) {
            int hn = i >= width ? height[i - width] : MAPRENDER_NO_HEIGHT;
            uint32_t v = maprender_shade(rgb[i], height[i], hn, water[i] > 0);
            img[i * 4] = (uint8_t)(v >> 16), img[i * 4 + 1] = (uint8_t)(v >> 8);
            img[i * 4 + 2] = (uint8_t)v, img[i * 4 + 3] = v ? 255 : 0;
        }
        if (img && ppm) {
            FILE *f = fopen(ppm, "wb");
            if (!f) {
                perror(ppm);
                return 1;
            }
            fprintf(f, "P6 %zu %zu 255\n", width, width);
            for (size_t i = 0; i < width * width; i++) fwrite(img + i * 4, 1, 3, f);
            fclose(f);
        }
        if (img && png) {
            buf_t out;
            buf_init(&out, 0);
            FILE *f = fopen(png, "wb");
            if (!f || maprender_png_encode(img, (int)width, (int)width, &out) < 0) {
                perror(png);
                return 1;
            }
            fwrite(out.data, 1, out.len, f);
            fclose(f);
            buf_free(&out);
        }
        free(img);
    }
    free(rgb);
    free(height);
    free(water);
    buf_free(&raw);
    buf_free(&framed);
    libdeflate_free_compressor(comp);
    return 0;
}
