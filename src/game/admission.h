/*
 * admission.h — who may join: bans, the whitelist, the player limit, and
 * an older session of the same player (game/admission.c).
 */
#ifndef MC_ADMISSION_H
#define MC_ADMISSION_H

#include <stdbool.h>

#include "net/conn.h"

/* The login of c as `name` / uuid may continue to PLAY? false: c was kicked
 * with vanilla's reason. true may have kicked an older session. */
bool admission_check(conn *c, const char *name, const mc_uuid *uuid);

#endif
