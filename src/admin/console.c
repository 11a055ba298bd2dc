/*
 * console.c — see console.h.
 *
 * Two modes, picked at start:
 *   terminal   stdin is a tty (and TERM is not "dumb"): libedit's readline
 *              interface in callback mode, fed from the loop when stdin is
 *              readable: line editing, history (kept in CONSOLE_HISTORY in
 *              the server directory, the last CONSOLE_HISTORY_MAX lines),
 *              and Tab completion from the command tree the clients get
 *              (game/cmd_complete.h) plus online player names. Log lines
 *              are printed above the prompt: the log calls us around each
 *              write to stderr (log_set_stderr_hooks), we clear the prompt
 *              line before and redraw it after.
 *   plain      anything else (a pipe, a service, </dev/null): a line reader.
 *
 * Invariants:
 *  1. A line is at most CONSOLE_LINE_MAX - 1 bytes; a longer one is dropped
 *     whole with a warning, never run in pieces (plain mode).
 *  2. "\r\n" and "\n" both end a line.
 *  3. Nothing here blocks: stdin is non-blocking in plain mode, and libedit
 *     reads one available character per callback in terminal mode. The
 *     history file is read at start and written at stop, never per line.
 */
#include "admin/console.h"

#include <editline/readline.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "game/cmd_complete.h"
#include "game/commands.h"
#include "game/game.h"

#define CONSOLE_LINE_MAX    1024
#define CONSOLE_HISTORY     ".console_history"
#define CONSOLE_HISTORY_MAX 1000
#define CONSOLE_PROMPT      "> "

static struct {
    loop *loop;
    loop_watch watch;
    bool terminal;
    char line[CONSOLE_LINE_MAX];
    size_t len;
    /* Tab completion: the candidates of the word being completed. */
    char *cand[CMD_COMPLETE_MAX + 256];
    int ncand, next;
} console;

/* ------------------------------------------------------------ plain mode */

/* Runs every complete line in console.line; keeps the rest. */
static void run_lines(void)
{
    char *start = console.line;
    char *nl;
    while ((nl = memchr(start, '\n', console.len - (size_t)(start - console.line)))) {
        *nl = 0;
        if (nl > start && nl[-1] == '\r') nl[-1] = 0;
        console_execute(start);
        start = nl + 1;
    }
    size_t rest = console.len - (size_t)(start - console.line);
    if (rest == sizeof console.line - 1) {
        log_warn("console line longer than %zu bytes ignored", sizeof console.line - 1);
        rest = 0;
    }
    memmove(console.line, start, rest);
    console.len = rest;
}

static void plain_event(void)
{
    for (;;) {
        ssize_t n =
            read(STDIN_FILENO, console.line + console.len, sizeof console.line - 1 - console.len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            console_stop(); /* EOF: keep running */
            return;
        }
        console.len += (size_t)n;
        run_lines();
    }
}

/* --------------------------------------------------------- terminal mode */

static void on_line(char *line)
{
    if (!line) { /* Ctrl+D: the console goes, the server stays */
        console_stop();
        return;
    }
    if (line[0]) {
        add_history(line);
        console_execute(line);
    }
    free(line);
}

static void clear_candidates(void)
{
    for (int i = 0; i < console.ncand; i++) free(console.cand[i]);
    console.ncand = console.next = 0;
}

static void add_candidate(const char *s)
{
    if (console.ncand < (int)(sizeof console.cand / sizeof console.cand[0]))
        if ((console.cand[console.ncand] = strdup(s))) console.ncand++;
}

/* readline's generator: the next candidate (malloc'd, readline frees it). */
static char *next_candidate(const char *text, int state)
{
    (void)text;
    if (state == 0) console.next = 0;
    return console.next < console.ncand ? strdup(console.cand[console.next++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start;
    rl_attempted_completion_over = 1; /* never fall back to file names */
    clear_candidates();
    struct cmd_completion cc;
    size_t len = (size_t)end;
    if (cmd_complete(cmd_builtin_tree(), rl_line_buffer, len, 4, &cc) < 0) return NULL;
    size_t wl = strlen(text);
    for (int i = 0; i < cc.count; i++) add_candidate(cc.names[i]);
    if (cc.wants_players)
        for (size_t i = 0; i < game.player_count; i++) {
            const char *name = game.players[i]->player->name;
            if (strncmp(name, text, wl) == 0) add_candidate(name);
        }
    return console.ncand ? rl_completion_matches(text, next_candidate) : NULL;
}

/* Around every log line on stderr (core/log.h): the prompt gets out of the
 * way, then comes back with what was typed. */
static void before_log(void)
{
    fputs("\r\033[K", stdout);
    fflush(stdout);
}

static void after_log(void)
{
    rl_forced_update_display();
}

/* ------------------------------------------------------------------ both */

static void console_event(loop_watch *w, uint32_t events)
{
    (void)w, (void)events;
    if (console.terminal)
        rl_callback_read_char();
    else
        plain_event();
}

static bool is_terminal(void)
{
    const char *term = getenv("TERM");
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && term[0] &&
           strcmp(term, "dumb") != 0;
}

void console_start(loop *l)
{
    console.loop = l;
    loop_watch_init(&console.watch, console_event);
    console.terminal = is_terminal();
    if (console.terminal) {
        rl_attempted_completion_function = complete;
        rl_basic_word_break_characters = " ";
        stifle_history(CONSOLE_HISTORY_MAX);
        read_history(CONSOLE_HISTORY); /* absent the first time: fine */
        rl_callback_handler_install(CONSOLE_PROMPT, on_line);
        log_set_stderr_hooks(before_log, after_log);
    } else {
        int fl = fcntl(STDIN_FILENO, F_GETFL);
        if (fl < 0 || fcntl(STDIN_FILENO, F_SETFL, fl | O_NONBLOCK) < 0) return;
    }
    loop_watch_add(l, &console.watch, STDIN_FILENO, EPOLLIN);
}

void console_stop(void)
{
    if (!console.loop) return;
    loop_watch_del(console.loop, &console.watch);
    if (console.terminal) {
        log_set_stderr_hooks(NULL, NULL);
        rl_callback_handler_remove();
        if (write_history(CONSOLE_HISTORY) != 0)
            log_warn("cannot write the console history to %s", CONSOLE_HISTORY);
        clear_candidates();
        console.terminal = false;
        fputs("\n", stdout);
        fflush(stdout);
    }
    console.loop = NULL;
}
