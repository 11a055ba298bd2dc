/*
 * console.c — commands typed on the server console (stdin).
 *
 * One table of commands; RCON and in-game commands will go through the same
 * dispatcher. Output goes to the log.
 */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "net/server.h"

struct command {
    const char *name;
    const char *usage;
    void (*run)(const char *args);
};

static void cmd_help(const char *args);

static void cmd_stop(const char *args)
{
    (void)args;
    server_request_stop(srv);
}

static void cmd_list(const char *args)
{
    (void)args;
    char line[1024];
    size_t o = 0;
    for (size_t i = 0; i < srv->player_count && o < sizeof line - 20; i++) {
        const char *name = srv->players[i]->player->name;
        o += (size_t)snprintf(line + o, sizeof line - o, "%s%s", i ? ", " : "", name);
    }
    line[o < sizeof line ? o : sizeof line - 1] = 0;
    log_info("There are %zu of a max of %d players online: %s", srv->player_count,
             srv->cfg.max_players, line);
}

static const struct command commands[] = {
    {"help", "help", cmd_help},
    {"list", "list", cmd_list},
    {"stop", "stop", cmd_stop},
};

static void cmd_help(const char *args)
{
    (void)args;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        log_info("/%s", commands[i].usage);
}

void console_execute(const char *line)
{
    while (*line == ' ' || *line == '/') line++;
    if (!*line) return;
    size_t n = strcspn(line, " ");
    const char *args = line + n;
    while (*args == ' ') args++;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strlen(commands[i].name) == n && strncmp(commands[i].name, line, n) == 0) {
            commands[i].run(args);
            return;
        }
    }
    log_info("Unknown command \"%.*s\". Type \"help\" for help.", (int)n, line);
}
