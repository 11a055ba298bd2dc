/*
 * console.h — the server console: command lines on stdin, run by the same
 * dispatcher as players' commands at permission level 4 (console_execute,
 * game/commands.h).
 */
#ifndef MC_CONSOLE_H
#define MC_CONSOLE_H

#include "core/loop.h"

/* Watches stdin (made non-blocking) if it is open; EOF stops the watch and
 * the server keeps running (started with </dev/null or by a service). */
void console_start(loop *l);
void console_stop(void);

#endif
