/*
 * cmd_perf.c — see cmd_perf.h. The lines come from game/perf.c; each goes
 * to the source as one message: {"text": ...} to a player (1.20.1 clients
 * have no translations for /tick's keys, which 1.20.3 added), the plain
 * text to the console's log and to RCON's capture, so every source reads
 * the same figures.
 */
#include "game/cmd_perf.h"

#include <string.h>

#include "core/json.h"
#include "game/perf.h"

#define LINE_MAX_JSON 4096

static void send_line(void *arg, const char *line)
{
    cmd_ctx *x = arg;
    buf_t j, plain;
    buf_init(&j, LINE_MAX_JSON);
    buf_init(&plain, LINE_MAX_JSON);
    buf_append(&plain, line, strlen(line));
    buf_lit(&j, "{\"text\":");
    json_append_string(&j, line, strlen(line));
    buf_lit(&j, "}");
    cmd_send_json(x->src, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

bool cmd_perf_exec(cmd_ctx *x)
{
    switch (x->ps->exec->exec) {
    case X_TICK_QUERY: perf_tick_query_lines(send_line, x); return true;
    case X_HEALTH: perf_health_lines(send_line, x); return true;
    default: return false;
    }
}
