/*
 * crafting.c — matching a crafting grid against every recipe in
 * data/recipes.c, as vanilla's ShapedRecipe / ShapelessRecipe match:
 *
 *  - shaped: the recipe's w x h pattern at any offset inside the grid, as
 *    given or mirrored left to right; every grid cell outside the pattern
 *    must be empty, every cell inside it must hold the pattern's item, or
 *    one of its alternatives (a folded tag: any planks), and an empty
 *    pattern cell an empty grid cell;
 *  - shapeless: the grid's non-empty cells, as a multiset, equal the
 *    recipe's ingredients (each cell used once).
 *
 * minecraft-data expands tag ingredients (any planks) into one recipe per
 * alternative; tools/gen_data.js folds those back into alternative sets
 * for shaped recipes, so mixed planks make a pickaxe as in vanilla.
 * Shapeless recipes stay expanded (a mixed shapeless tag does not match).
 *
 * Invariants:
 *  1. Pure: reads only its arguments and the generated tables.
 *  2. A grid larger than 3x3 or with an item id out of range matches nothing.
 *  3. Cost: one pass over the recipes per call; callers match only when the
 *     grid changed (game/window.c).
 */
#include "game/crafting.h"

#include <stdbool.h>
#include <stdlib.h>

#include "data/recipes.h"

static bool accepts(uint16_t want, uint16_t have)
{
    if (want < ITEM_COUNT) return want == have;
    unsigned k = want - ITEM_COUNT;
    if (have == 0 || k >= RECIPE_ALT_COUNT) return false;
    for (unsigned i = recipe_alt_first[k]; i < recipe_alt_first[k + 1]; i++)
        if (recipe_alts[i] == have) return true;
    return false;
}

static bool shaped_at(const struct recipe *r, const uint16_t *grid, int gw, int gh, int ox, int oy,
                      bool mirror)
{
    const uint16_t *cells = &recipe_cells[r->first];
    for (int y = 0; y < gh; y++)
        for (int x = 0; x < gw; x++) {
            int rx = x - ox, ry = y - oy;
            uint16_t want = 0;
            if (rx >= 0 && rx < r->w && ry >= 0 && ry < r->h)
                want = cells[ry * r->w + (mirror ? r->w - 1 - rx : rx)];
            if (!accepts(want, grid[y * gw + x])) return false;
        }
    return true;
}

static bool shaped(const struct recipe *r, const uint16_t *grid, int gw, int gh)
{
    if (r->w > gw || r->h > gh) return false;
    for (int oy = 0; oy + r->h <= gh; oy++)
        for (int ox = 0; ox + r->w <= gw; ox++)
            if (shaped_at(r, grid, gw, gh, ox, oy, false) ||
                shaped_at(r, grid, gw, gh, ox, oy, true))
                return true;
    return false;
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* have: the grid's non-empty cells, sorted. */
static bool shapeless(const struct recipe *r, const uint16_t *have, int n)
{
    if (r->n != n) return false;
    uint16_t want[9];
    for (int i = 0; i < n; i++) want[i] = recipe_cells[r->first + i];
    qsort(want, (size_t)n, sizeof want[0], cmp_u16);
    for (int i = 0; i < n; i++)
        if (want[i] != have[i]) return false;
    return true;
}

int crafting_match(const uint16_t *grid, int gw, int gh)
{
    if (gw < 1 || gh < 1 || gw > 3 || gh > 3) return -1;
    uint16_t have[9];
    int n = 0;
    for (int i = 0; i < gw * gh; i++) {
        if (grid[i] >= ITEM_COUNT) return -1;
        if (grid[i]) have[n++] = grid[i];
    }
    if (n == 0) return -1;
    qsort(have, (size_t)n, sizeof have[0], cmp_u16);
    for (int i = 0; i < RECIPE_COUNT; i++) {
        const struct recipe *r = &recipes[i];
        if (r->w ? shaped(r, grid, gw, gh) : shapeless(r, have, n)) return i;
    }
    return -1;
}
