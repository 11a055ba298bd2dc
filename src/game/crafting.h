/*
 * crafting.h — the recipe matcher: which recipe (data/recipes.h) a crafting
 * grid's contents make, as vanilla's RecipeManager finds it for a
 * CraftingContainer. Pure (no game state), so the unit tests call it.
 */
#ifndef MC_CRAFTING_H
#define MC_CRAFTING_H

#include <stdint.h>

/* The grid is gw x gh item ids, row by row (0 = empty; 2x2 or 3x3).
 * Returns the index into recipes[] of the first recipe it makes, or -1. */
int crafting_match(const uint16_t *grid, int gw, int gh);

#endif
