/*
 * anvil.h — chunk columns ↔ the 1.20.1 (DataVersion 3465) chunk NBT stored
 * in region files, plus the NBT helpers level.dat and player data share.
 *
 * Chunk NBT as written (root compound, name ""):
 *
 *   tag               type        value
 *   DataVersion       int         3465
 *   xPos, zPos        int         chunk coordinates
 *   yPos              int         -4 (lowest section)
 *   Status            string      "minecraft:full"
 *   LastUpdate        long        game time of the save
 *   InhabitedTime     long        kept from disk (0 for new chunks)
 *   isLightOn         byte        0: readers compute light themselves
 *   sections          list<comp>  24 sections, Y = -4..19:
 *     Y               byte
 *     block_states    compound    palette: list<comp> of {Name: string,
 *                                 Properties: comp of strings (only when
 *                                 the block has properties)}; data: long[]
 *                                 of palette indices, max(4, ceil(log2 n))
 *                                 bits each, floor(64 / bits) per long,
 *                                 entries never span longs, index
 *                                 y<<8|z<<4|x; absent when n == 1
 *     biomes          compound    palette: list<string>; data: long[] with
 *                                 ceil(log2 n) bits per entry (index
 *                                 y<<4|z<<2|x over 4×4×4 cells); absent
 *                                 when n == 1
 *   Heightmaps        compound    MOTION_BLOCKING, WORLD_SURFACE: long[37],
 *                                 9 bits per column (height above y=-64),
 *                                 7 per long
 *   block_entities    list<comp>  the column's block entities
 *                                 (world/block_entity.h: containers parsed,
 *                                 every other kind kept byte for byte)
 *   block_ticks,      list<comp>  the column's scheduled ticks (world/block_ticks.h):
 *   fluid_ticks                   {i: block or fluid id, x, y, z: int, t: ticks
 *                                 left, p: priority}
 *   PostProcessing, structures:
 *                     copied byte for byte from what was read (empty for
 *                     chunks mcserv generated)
 *
 * Reading accepts any tool's output in this format: Status "full" or
 * "minecraft:full" (any other status is a proto-chunk: ANVIL_NOT_FULL),
 * sections in any order, missing sections (air, plains), Properties in any
 * order or partly missing (the rest take the block's default), and block or
 * biome names unknown to 1.20.1 (air / plains, one warning per name per
 * run). Light and heightmaps are recomputed, never read.
 *
 * Invariants:
 *  1. anvil_decode never trusts a length: palette sizes (1..4096 blocks,
 *     1..64 biomes), data array lengths (exactly what the palette size
 *     implies) and every index are checked; a violation is ANVIL_CORRUPT
 *     with the reason, never a crash or an out-of-range section.
 *  2. Decompressed NBT is capped at ANVIL_MAX_NBT and parsed with
 *     nbt_limits_disk; the kept tags (anvil_extra) are bounded by that.
 *  3. Thread-safe: workers decode and encode different chunks at once (the
 *     name tables are built once under pthread_once; the warn-once set has
 *     its own lock).
 */
#ifndef MC_ANVIL_H
#define MC_ANVIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/nbt.h"
#include "world/chunk.h"

#define ANVIL_DATA_VERSION 3465
#define ANVIL_MAX_NBT      ((size_t)16 << 20) /* decompressed chunk, level.dat or player file */

struct bt_chunk;

/* Tags kept from disk and written back unchanged; owned by the chunk entry. */
typedef struct anvil_extra {
    uint8_t *tags; /* whole NBT tags (type, name, payload) back to back */
    size_t len;
    int64_t inhabited_time;
    uint8_t present; /* bit k: kept tag k (anvil.c's kept_tags) is in `tags` */
    /* The column's scheduled ticks (world/block_ticks.h), or NULL: read from
     * and written as block_ticks / fluid_ticks; copies hold delays. */
    struct bt_chunk *ticks;
} anvil_extra;

void anvil_extra_free(anvil_extra *x);
/* Deep copy; -1 when out of memory. */
int anvil_extra_copy(anvil_extra *dst, const anvil_extra *src);

/* Appends the chunk NBT (uncompressed) for c. -1 when out of memory. */
int anvil_encode(const chunk *c, const anvil_extra *extra, int64_t last_update, buf_t *out);

enum anvil_result {
    ANVIL_OK = 1,
    ANVIL_NOT_FULL = 0, /* a proto-chunk (generation unfinished): treat as absent */
    ANVIL_CORRUPT = -1,
    ANVIL_NOMEM = -2,
};

/*
 * Parses chunk NBT into c (chunk_init'ed by this call with x, z) and its kept
 * tags into *extra (may be NULL to drop them). want_x/want_z: where the
 * chunk was found; a different xPos/zPos is ANVIL_CORRUPT. On anything
 * but ANVIL_OK, c and extra hold nothing that needs freeing and `why`
 * says what was wrong.
 */
int anvil_decode(const uint8_t *nbt, size_t len, int32_t want_x, int32_t want_z, chunk *c,
                 anvil_extra *extra, char *why, size_t whylen);

/*
 * Decompresses a region payload or a gzip file: type 1 gzip, 2 zlib, 3 none.
 * *out is malloc'ed (caller frees). 0, -1 corrupt data, -2 larger than cap,
 * -3 out of memory.
 */
int anvil_decompress(int type, const uint8_t *in, size_t len, size_t cap, uint8_t **out,
                     size_t *out_len);

/* ------------------------------------------------ names (1.20.1 registries) */

/* Block state of a palette entry {Name, Properties}; unknown names are air (warned once). */
uint16_t anvil_state_from_nbt(const nbt_node *entry);
/* Block state of "minecraft:name" with properties from `props` (may be NULL). */
int anvil_block_by_name(const char *name, size_t len);
/* Biome id of "minecraft:name"; -1 if unknown. */
int anvil_biome_by_name(const char *name, size_t len);
/* "minecraft:plains" etc. */
const char *anvil_biome_name(uint8_t id);
/* Appends the payload of a palette compound {Name, Properties} for state (and its END). */
void anvil_write_state(buf_t *b, uint16_t state);
/* Item id of "minecraft:name"; -1 if unknown. */
int anvil_item_by_name(const char *name, size_t len);

/* Logs "unknown <kind> '<name>' ..." once per (kind, name) per run. */
void anvil_warn_once(const char *kind, const char *name, size_t len, const char *replacement);

/* ------------------------------------------------------- NBT re-serialising */

/* Appends node n as a whole tag (type, name, payload). */
void anvil_nbt_copy_tag(buf_t *b, const nbt_node *n);
/* Appends only n's payload (for list elements). */
void anvil_nbt_copy_payload(buf_t *b, const nbt_node *n);
/* True if a string node equals s. */
bool anvil_nbt_str_eq(const nbt_node *n, const char *s);
/* A number node (byte..double) as a double / integer; `def` when absent or not a number. */
double anvil_nbt_num(const nbt_node *n, double def);
int64_t anvil_nbt_int(const nbt_node *n, int64_t def);

#endif
