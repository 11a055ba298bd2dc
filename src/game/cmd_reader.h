/*
 * cmd_reader.h — the command parser's reading steps, shared by
 * game/cmd_parser.c (the tree walk and Brigadier's argument types) and
 * game/cmd_args.c (Minecraft's own types: blocks, items, text components,
 * resource locations). Nothing else includes it.
 *
 * Invariants:
 *  1. A reader never reads past s[len); a value copied out of the line is
 *     cut to the caller's buffer.
 *  2. A step that fails sets the error (a translation key, at most three
 *     arguments of at most 63 bytes, a cursor or -1 for no context line) and
 *     returns -1; where Brigadier rewinds before throwing, so does the step.
 */
#ifndef MC_CMD_READER_H
#define MC_CMD_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "game/cmd_parser.h"

typedef struct cmd_reader {
    const char *s;
    size_t len, pos;
} cmd_reader;

struct cmd_error {
    long pos;        /* cursor for the context line; -1 none */
    const char *key; /* NULL: no error */
    char a[3][64];
    int n;
};

static inline bool cmd_can_read(const cmd_reader *r)
{
    return r->pos < r->len;
}

static inline char cmd_peek(const cmd_reader *r)
{
    return r->pos < r->len ? r->s[r->pos] : 0;
}

/* Sets e: key at cursor pos with the arguments a0/a1 (NULL: fewer). */
void cmd_err_set(struct cmd_error *e, long pos, const char *key, const char *a0, size_t l0,
                 const char *a1, size_t l1);
void cmd_skip_ws(cmd_reader *r);
/* Brigadier's StringReader.isAllowedInUnquotedString. */
bool cmd_unquoted_char(char c);
/* readUnquotedString: the range [*start, r->pos). */
void cmd_read_unquoted(cmd_reader *r, size_t *start);
/* readString: quoted ("..." or '...', \ escapes) or unquoted, into out (cut
 * to cap); *outlen is the whole length read. */
int cmd_read_string(cmd_reader *r, char *out, size_t cap, size_t *outlen, struct cmd_error *e);

/* Lists ("[a=1, b=2]"): after an element (whitespace skipped), 1 and past
 * a ',' for another one, 0 at the ']' or the end (not read), -1 after the
 * error `unclosed`; then the ']' itself: 0 past it, -1 after `unclosed`
 * when the line ended. */
int cmd_list_next(cmd_reader *r, const char *unclosed, struct cmd_error *e);
int cmd_list_close(cmd_reader *r, const char *unclosed, struct cmd_error *e);

/* Minecraft's argument types (game/cmd_args.c); each reads one argument at
 * r->pos into v as cmd_parser.h describes for its parser. */
int cmd_args_block(cmd_reader *r, bool predicate, struct cmd_block *out, struct cmd_error *e);
int cmd_args_item(cmd_reader *r, bool predicate, struct cmd_item *out, struct cmd_error *e);
int cmd_args_component(cmd_reader *r, struct cmd_error *e);
int cmd_args_resource(cmd_reader *r, struct cmd_error *e);

#endif
