/*
 * cmd_pregen.c — the `pregen` command (game/pregen.h), level 4 (the console,
 * RCON, owners in game):
 *
 *   pregen <radius>           pre-generate radius blocks around the spawn
 *   pregen <radius> <x> <z>   ... around block x, z
 *   pregen status             done/total, chunks/s, ETA
 *   pregen cancel             stop (the state file is removed)
 *
 * mcserv's own command (vanilla has none; Chunky's `chunky start` is the
 * usual plugin): its feedback is plain English text, as `mspt`'s.
 *
 * Invariants:
 *  1. An executor answers the source with exactly one line; the work itself
 *     is logged by pregen.c, so the log says what happened whoever asked.
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "game/cmd_internal.h"
#include "game/pregen.h"

/* One line of plain text to the source (JSON {"text":...} for a player). */
static void say(cmd_ctx *x, const char *text, bool failure)
{
    buf_t j, plain;
    buf_init(&j, 2048);
    buf_init(&plain, 1024);
    buf_append(&plain, text, strlen(text));
    buf_lit(&j, "{\"text\":");
    json_append_string(&j, text, strlen(text));
    if (failure) buf_lit(&j, ",\"color\":\"red\"");
    buf_lit(&j, "}");
    cmd_send_json(x->src, &j, &plain);
    buf_free(&j);
    buf_free(&plain);
}

int cmd_pregen_start(cmd_ctx *x)
{
    const struct cmd_value *r = cmd_arg(x->ps, "radius");
    const struct cmd_value *vx = cmd_arg(x->ps, "x"), *vz = cmd_arg(x->ps, "z");
    int32_t cx = vx ? vx->u.i : (int32_t)game.spawn_x;
    int32_t cz = vz ? vz->u.i : (int32_t)game.spawn_z;
    char err[200], line[256];
    if (pregen_start(cx, cz, r ? r->u.i : 0, err, sizeof err) < 0) {
        snprintf(line, sizeof line, "Cannot pre-generate: %s", err);
        say(x, line, true);
        return -1;
    }
    struct pregen_status st;
    pregen_get_status(&st);
    snprintf(line, sizeof line,
             "Pre-generating %llu chunks within %d blocks of %d, %d (pregen status, pregen cancel)",
             (unsigned long long)st.total, st.radius, (int)st.center_x, (int)st.center_z);
    say(x, line, false);
    return 0;
}

int cmd_pregen_status(cmd_ctx *x)
{
    struct pregen_status st;
    pregen_get_status(&st);
    char line[320];
    if (!st.running) {
        say(x, "No pre-generation is running", false);
        return 0;
    }
    char eta[48] = "unknown";
    if (st.eta_s >= 0) snprintf(eta, sizeof eta, "%.0f s", st.eta_s);
    snprintf(line, sizeof line,
             "Pre-generation%s: %llu of %llu chunks (%.1f%%), %.0f chunks/s, ETA %s; radius %d "
             "around %d, %d; %llu generated, %llu already on disk, %llu failed",
             st.cancelling ? " (cancelling)" : "", (unsigned long long)st.done,
             (unsigned long long)st.total,
             st.total ? 100.0 * (double)st.done / (double)st.total : 100.0, st.rate, eta, st.radius,
             (int)st.center_x, (int)st.center_z, (unsigned long long)st.generated,
             (unsigned long long)st.skipped, (unsigned long long)st.failed);
    say(x, line, false);
    return 0;
}

int cmd_pregen_cancel(cmd_ctx *x)
{
    struct pregen_status st;
    pregen_get_status(&st);
    if (!pregen_cancel()) {
        say(x, "No pre-generation is running", true);
        return -1;
    }
    char line[160];
    snprintf(line, sizeof line, "Pre-generation cancelled at %llu of %llu chunks",
             (unsigned long long)st.done, (unsigned long long)st.total);
    say(x, line, false);
    return 0;
}
