/*
 * level_tags.h — level.dat tags owned by game modules (game rules, the
 * world border): read at startup, written with every save. See
 * game/level_tags.c.
 */
#ifndef MC_LEVEL_TAGS_H
#define MC_LEVEL_TAGS_H

struct level_info;

/* Startup (after store_open): hands the file's Data compound to the modules. */
void level_tags_init(void);
/* Before each save of level.dat (the store's fill_level hook): the modules'
 * current tags into li->raw. */
void level_tags_fill(struct level_info *li);

#endif
