/* heightmaps.c — see heightmaps.h. */
#include "world/heightmaps.h"

#include <string.h>

#include "proto/nbt.h"
#include "proto/wire.h"
#include "proto/wire_longs.h"

#define HEIGHTMAP_LONGS 37 /* ceil(256 / 7) */

static void heightmap_pack(const int tops[256], uint64_t out[HEIGHTMAP_LONGS])
{
    memset(out, 0, HEIGHTMAP_LONGS * sizeof *out);
    for (int i = 0; i < 256; i++) {
        uint64_t h = (uint64_t)(tops[i] - CHUNK_MIN_Y + 1);
        out[i / 7] |= h << ((i % 7) * 9);
    }
}

static void put_heightmap(buf_t *out, const char *name, const int tops[256])
{
    uint64_t hm[HEIGHTMAP_LONGS];
    heightmap_pack(tops, hm);
    nbt_w_tag(out, NBT_LONG_ARRAY, name);
    wr_i32(out, HEIGHTMAP_LONGS);
    wr_u64_words(out, hm, HEIGHTMAP_LONGS);
}

void heightmaps_write(const chunk *c, buf_t *out)
{
    int surface[256], motion[256];
    chunk_heightmaps(c, surface, motion);
    put_heightmap(out, "MOTION_BLOCKING", motion);
    put_heightmap(out, "WORLD_SURFACE", surface);
}
