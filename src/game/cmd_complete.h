/*
 * cmd_complete.h — completion of a partly typed command line against a
 * Brigadier tree (game/cmd_complete.c).
 */
#ifndef MC_CMD_COMPLETE_H
#define MC_CMD_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

#include "game/cmd_parser.h"

#define CMD_COMPLETE_MAX 64

struct cmd_completion {
    size_t word_start;                   /* where the word being typed starts */
    const char *names[CMD_COMPLETE_MAX]; /* literals that complete it (tree storage) */
    int count;
    bool wants_players; /* an entity or profile argument fits here */
};

/* Completions of line[0..len) at permission `level`. 0, or -1 when the
 * position takes free text or nothing. */
int cmd_complete(const cmd_tree *t, const char *line, size_t len, int level,
                 struct cmd_completion *out);

#endif
