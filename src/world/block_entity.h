/*
 * block_entity.h — the block entities of one chunk column: what vanilla
 * keeps beside a block (a chest's items, a sign's text), read from and
 * written to the chunk NBT's `block_entities` list (world/anvil.c).
 *
 * On disk (vanilla 1.20.1 ChunkSerializer / BlockEntity.saveWithFullMetadata):
 *
 *   block_entities    list<compound>, one per block entity:
 *     id              string      "minecraft:chest", "minecraft:barrel", ...
 *     x, y, z         int         world position (inside this chunk)
 *     keepPacked      byte        0
 *     Items           list<comp>  containers (chest, trapped_chest, barrel):
 *       Slot          byte        0..26
 *       id            string      item name
 *       Count         byte        1..64
 *       tag           compound    {Damage: int} for a worn tool
 *     CustomName, Lock, LootTable, ...  kept as they were read
 *
 * Kinds: BE_CHEST, BE_TRAPPED_CHEST and BE_BARREL are parsed (their 27
 * slots are what game/container.c opens); every other id (furnaces, signs,
 * spawners, ...) is BE_RAW: its tags are kept byte for byte and written back
 * unchanged, so nothing a vanilla world holds is lost.
 *
 * Invariants:
 *  1. A map holds at most one block entity per position, and at most
 *     BE_MAP_MAX of them; each lives in its
 *     own allocation (a pointer stays valid until that entity is removed or
 *     the map is freed, whatever else is added).
 *  2. Parsing never trusts the input: an entry that is not a compound, has
 *     no string id, no int x/y/z, or a position outside the chunk is skipped
 *     and counted; slots outside 0..26, unknown item ids and counts outside
 *     1..127 are skipped; a count above the stack size is clamped to it.
 *  3. Items keep id, count and tag.Damage (the player inventory's model);
 *     other item NBT (enchantments, names) is dropped and counted in
 *     be_parse_stats.items_tags_dropped (logged by the caller).
 *  4. No globals: any thread may parse or write a map it owns.
 */
#ifndef MC_BLOCK_ENTITY_H
#define MC_BLOCK_ENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/nbt.h"

#define BE_CONTAINER_SLOTS 27 /* chest, trapped chest, barrel */
/* At most this many per chunk (lookups are linear; vanilla chunks hold
 * dozens, a storage room a few thousand): more are skipped on reading. */
#define BE_MAP_MAX         8192

enum be_kind { BE_RAW = 0, BE_CHEST, BE_TRAPPED_CHEST, BE_BARREL };

/* One slot (same fields as game/window.h's struct inv_slot). */
struct be_item {
    int16_t item; /* 0 = empty */
    int8_t count;
    uint16_t damage;
    uint16_t ench[4]; /* enchantments, as struct inv_slot's (game/enchant.h ITEM_ENCH_MAX) */
};

struct block_entity {
    int32_t x, y, z; /* world position */
    uint8_t kind;    /* enum be_kind */
    struct be_item items[BE_CONTAINER_SLOTS];
    /* BE_RAW: every tag of the compound but x, y, z (the id included);
     * containers: the tags mcserv does not interpret (CustomName, Lock...).
     * Whole tags (type, name, payload) back to back; malloc'ed or NULL. */
    uint8_t *extra;
    size_t extra_len;
};

typedef struct be_map {
    struct block_entity **v;
    uint32_t n, cap;
} be_map;

struct be_parse_stats {
    unsigned skipped;            /* entries not understood (invariant 2) */
    unsigned items_tags_dropped; /* item NBT not kept (invariant 3) */
    char why[96];                /* the first skipped entry's reason */
};

/* The kind for a block id's vanilla block entity (BE_RAW: not a container). */
enum be_kind be_kind_of_block(int block);
/* "minecraft:chest" etc. for a container kind; NULL for BE_RAW. */
const char *be_kind_name(enum be_kind k);

void be_map_free(be_map *m);
/* Deep copy; -1 when out of memory (dst is then empty). */
int be_map_clone(be_map *dst, const be_map *src);
/* The entity at a world position, or NULL. */
struct block_entity *be_get(const be_map *m, int32_t x, int32_t y, int32_t z);
/* The entity at (x, y, z), made (empty, of `kind`) if there is none; an
 * entity of another kind there is replaced. NULL when out of memory. */
struct block_entity *be_put(be_map *m, int32_t x, int32_t y, int32_t z, enum be_kind kind);
/* Removes (and frees) the entity at a position; 1 if there was one. */
int be_remove(be_map *m, int32_t x, int32_t y, int32_t z);

/*
 * Adds the entries of a chunk's `block_entities` list (a LIST node; any
 * element type) for chunk (cx, cz) to m. Returns 0, or -1 when out of
 * memory; bad entries are skipped (invariant 2) and counted in *st.
 */
int be_parse_list(be_map *m, const nbt_node *list, int32_t cx, int32_t cz,
                  struct be_parse_stats *st);
/* The CustomName string kept in e's tags (a JSON text component, as
 * vanilla stores it) copied into out[cap] with a NUL; its length, or -1
 * when there is none or it does not fit. */
int be_custom_name(const struct block_entity *e, char *out, size_t cap);
/* Appends the whole `block_entities` tag (a list, empty when m is). */
void be_write_list(buf_t *b, const be_map *m);

#endif
