/*
 * console.c — see console.h.
 *
 * Invariants:
 *  1. A line is at most CONSOLE_LINE_MAX - 1 bytes; a longer one is dropped
 *     whole with a warning, never run in pieces.
 *  2. "\r\n" and "\n" both end a line.
 */
#include "admin/console.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "game/commands.h"

#define CONSOLE_LINE_MAX 1024

static struct {
    loop *loop;
    loop_watch watch;
    char line[CONSOLE_LINE_MAX];
    size_t len;
} console;

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

static void console_event(loop_watch *w, uint32_t events)
{
    (void)w, (void)events;
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

void console_start(loop *l)
{
    console.loop = l;
    loop_watch_init(&console.watch, console_event);
    int fl = fcntl(STDIN_FILENO, F_GETFL);
    if (fl >= 0 && fcntl(STDIN_FILENO, F_SETFL, fl | O_NONBLOCK) == 0)
        loop_watch_add(l, &console.watch, STDIN_FILENO, EPOLLIN);
}

void console_stop(void)
{
    if (console.loop) loop_watch_del(console.loop, &console.watch);
}
