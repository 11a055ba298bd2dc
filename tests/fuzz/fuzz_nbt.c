/*
 * fuzz_nbt.c — libFuzzer target for the NBT reader (network and disk).
 *
 * Parses the input as named-root NBT with the network limits, then walks the
 * tree touching every node and array element, and reads the root as an
 * item's tag (Damage, Enchantments: game/enchant.c, what player data and
 * block entities read). Invariant: no crash, no read outside the input,
 * every node reachable, the node count within the limit, every enchantment
 * read in range.
 */
#include <stdint.h>
#include <stdlib.h>

#include "game/enchant.h"
#include "proto/nbt.h"

static size_t walk(const nbt_node *n, unsigned depth)
{
    size_t count = 1;
    if (depth > 600) abort();
    switch (n->type) {
    case NBT_COMPOUND:
    case NBT_LIST:
        for (const nbt_node *c = n->v.kids.first; c; c = c->next) count += walk(c, depth + 1);
        break;
    case NBT_LONG_ARRAY:
        for (uint32_t i = 0; i < n->v.arr.n; i++) (void)nbt_long_at(n, i);
        break;
    case NBT_INT_ARRAY:
        for (uint32_t i = 0; i < n->v.arr.n; i++) (void)nbt_int_at(n, i);
        break;
    default: break;
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nbt_doc doc;
    long n = nbt_parse(data, size, true, &nbt_limits_network, &doc);
    if (n > 0) {
        if ((size_t)n > size) abort();
        if (doc.root && walk(doc.root, 0) != doc.nodes) abort();
        if (doc.nodes > nbt_limits_network.max_nodes) abort();
        uint16_t damage, ench[ITEM_ENCH_MAX];
        if (doc.root && doc.root->type == NBT_COMPOUND) {
            ench_read_item_tag(doc.root, 1, &damage, ench);
            for (int i = 0; i < ITEM_ENCH_MAX; i++)
                if (ench[i] &&
                    (ench_entry_id(ench[i]) >= ENCHANT_COUNT || !ench_entry_level(ench[i])))
                    abort();
        }
        nbt_doc_free(&doc);
    }
    /* The nameless-root form too. */
    n = nbt_parse(data, size, false, &nbt_limits_network, &doc);
    if (n > 0) nbt_doc_free(&doc);
    return 0;
}
