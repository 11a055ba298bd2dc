/*
 * cmd_perf.h — the performance commands (game/cmd_perf.c): vanilla's
 * `tick query` (1.20.3+; permission level 3) and spark's habit `health`
 * (level 2), printing game/perf.h's texts to any source.
 */
#ifndef MC_CMD_PERF_H
#define MC_CMD_PERF_H

#include <stdbool.h>

#include "game/cmd_internal.h"

/* Runs x's executor when it is one of this file's (X_TICK_QUERY,
 * X_HEALTH); false for any other, which cmd_builtin_exec runs. */
bool cmd_perf_exec(cmd_ctx *x);

#endif
