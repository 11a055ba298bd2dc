/*
 * cmd_complete.c — completion of a partly typed command line against a
 * Brigadier tree, for the server console's Tab (admin/console.c). Pure: no
 * server state; the caller adds what needs it (player names).
 *
 * How the line is walked: each finished word (followed by a space) moves to
 * the child literal of that name, or else to the node's first argument
 * child visible at the level (a greedy or phrase string argument ends the
 * walk: it takes the rest of the line); redirects are followed. The word
 * being typed is then completed against the literal children of the node
 * reached.
 *
 * Invariants:
 *  1. Only nodes visible at `level` are walked or offered, as for clients.
 *  2. Bounded: at most CMD_MAX_DEPTH words are walked.
 */
#include "game/cmd_complete.h"

#include <string.h>

static bool visible(const cmd_tree *t, int i, int level)
{
    return t->n[i].level <= level; /* cmd_tree_build gives each node its command's level */
}

static int follow(const cmd_tree *t, int i)
{
    return t->n[i].redirect >= 0 ? t->n[i].redirect : i;
}

/* The child of `at` a finished word leads to, or -1. */
static int step(const cmd_tree *t, int at, const char *w, size_t wl, int level)
{
    int arg = -1;
    for (int c = t->n[follow(t, at)].first_child; c >= 0; c = t->n[c].next_sibling) {
        if (!visible(t, c, level)) continue;
        const cmd_node *n = &t->n[c];
        if (n->kind == CN_LITERAL && strlen(n->name) == wl && memcmp(n->name, w, wl) == 0) return c;
        if (n->kind == CN_ARGUMENT && arg < 0) arg = c;
    }
    return arg;
}

int cmd_complete(const cmd_tree *t, const char *line, size_t len, int level,
                 struct cmd_completion *out)
{
    memset(out, 0, sizeof *out);
    size_t pos = 0;
    if (len && line[0] == '/') pos = 1; /* console lines may carry the client's slash */
    int at = 0;
    for (int depth = 0; depth < CMD_MAX_DEPTH; depth++) {
        const char *sp = memchr(line + pos, ' ', len - pos);
        if (!sp) break;
        size_t wl = (size_t)(sp - (line + pos));
        int next = step(t, at, line + pos, wl, level);
        if (next < 0) return -1; /* nothing there to complete */
        const cmd_node *n = &t->n[next];
        if (n->kind == CN_ARGUMENT && n->parser == CP_STRING && n->prop != CMD_STRING_WORD)
            return -1; /* a phrase or greedy string: free text from here */
        at = next;
        pos = (size_t)(sp - line) + 1;
    }
    out->word_start = pos;
    const char *w = line + pos;
    size_t wl = len - pos;
    for (int c = t->n[follow(t, at)].first_child; c >= 0; c = t->n[c].next_sibling) {
        if (!visible(t, c, level)) continue;
        const cmd_node *n = &t->n[c];
        if (n->kind == CN_ARGUMENT) {
            if (n->parser == CP_ENTITY || n->parser == CP_GAME_PROFILE) out->wants_players = true;
            continue;
        }
        if (strncmp(n->name, w, wl) != 0 || out->count >= CMD_COMPLETE_MAX) continue;
        out->names[out->count++] = n->name;
    }
    return 0;
}
