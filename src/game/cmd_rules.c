/*
 * cmd_rules.c — the commands that change how the whole server plays:
 * gamerule, difficulty, defaultgamemode, and version (what this server
 * is), with vanilla 1.20.1's messages (version: vanilla 1.21.6's lines, as
 * plain text since 1.20.1 clients have no keys for them).
 *
 * Invariants: the values live in their owners (game/gamerules.c for the
 * rules and the difficulty, srv->cfg.gamemode for the default game mode);
 * as vanilla's DedicatedServer, server.properties' `difficulty` and
 * `gamemode` apply again at the next start (docs/commands.md).
 */
#include <stdio.h>
#include <string.h>

#include "data/version.h"
#include "game/cmd_internal.h"
#include "game/entities.h"
#include "game/gamerules.h"
#include "world/store.h"

static const char *const difficulty_names[4] = {"peaceful", "easy", "normal", "hard"};
static const char *const difficulty_keys[4] = {
    "options.difficulty.peaceful", "options.difficulty.easy", "options.difficulty.normal",
    "options.difficulty.hard"};

/* gamerule <rule> [<value>]: the rule is the literal after "gamerule". */
int cmd_gamerule(cmd_ctx *x)
{
    const char *name = x->ps->path[1].node->name;
    int r = 0;
    while (r < GR_COUNT && strcmp(gamerule_defs[r].name, name) != 0) r++;
    if (r == GR_COUNT) { /* the tree and the table disagree: cannot happen */
        cmd_failure0(x, "command.failed");
        return -1;
    }
    const struct cmd_value *v = cmd_arg(x->ps, "value");
    if (v) gamerule_set(r, gamerule_defs[r].is_int ? v->u.i : v->u.b);
    char text[16];
    if (gamerule_defs[r].is_int)
        snprintf(text, sizeof text, "%d", gamerule_get(r));
    else
        snprintf(text, sizeof text, "%s", gamerule_on(r) ? "true" : "false");
    chat_arg a[2] = {chat_text(name), chat_text(text)};
    cmd_success(x, v != NULL, v ? "commands.gamerule.set" : "commands.gamerule.query", a, 2);
    return 0;
}

/* difficulty [peaceful|easy|normal|hard] */
int cmd_difficulty(cmd_ctx *x)
{
    int want = -1;
    for (int d = 0; d < 4; d++)
        if (cmd_has_literal(x->ps, difficulty_names[d])) want = d;
    int now = gamerules_difficulty();
    if (want < 0) {
        chat_arg a = chat_key(difficulty_keys[now]);
        cmd_success(x, false, "commands.difficulty.query", &a, 1);
        return 0;
    }
    if (want == now) {
        chat_arg a = chat_text(difficulty_names[want]); /* vanilla: the key, not its name */
        cmd_failure(x, "commands.difficulty.failure", &a, 1);
        return -1;
    }
    gamerules_set_difficulty(want);
    chat_arg a = chat_key(difficulty_keys[want]);
    cmd_success(x, true, "commands.difficulty.success", &a, 1);
    return 0;
}

/* defaultgamemode <gamemode>: new players get it; with force-gamemode
 * everyone online is switched too (vanilla DefaultGameModeCommands). */
int cmd_defaultgamemode(cmd_ctx *x)
{
    int gm = cmd_arg(x->ps, "gamemode")->u.gamemode;
    srv->cfg.gamemode = (enum gamemode)gm;
    if (store_active()) store_level()->game_type = gm; /* level.dat's GameType */
    if (srv->cfg.force_gamemode)
        for (size_t i = game.player_count; i-- > 0;) {
            if (i >= game.player_count) continue;
            conn *c = game.players[i];
            if (!c->closed && c->player->gamemode != gm) ent_set_gamemode(c, gm);
        }
    chat_arg a = chat_key(cmd_gamemode_keys[gm]);
    cmd_success(x, true, "commands.defaultgamemode.success", &a, 1);
    return 0;
}

/* version: vanilla 1.21.6's report for 1.20.1, then this server's name. */
int cmd_version(cmd_ctx *x)
{
    char lines[10][96];
    int n = 0;
    snprintf(lines[n++], sizeof lines[0], "Server version info:");
    snprintf(lines[n++], sizeof lines[0], "ID = %s", MC_VERSION_NAME);
    snprintf(lines[n++], sizeof lines[0], "Name = %s", MC_VERSION_NAME);
    snprintf(lines[n++], sizeof lines[0], "Data = %d", MC_DATA_VERSION);
    snprintf(lines[n++], sizeof lines[0], "Series = main");
    snprintf(lines[n++], sizeof lines[0], "Protocol = %d (0x%x)", MC_PROTOCOL_VERSION,
             MC_PROTOCOL_VERSION);
    snprintf(lines[n++], sizeof lines[0], "Resource pack = 15");
    snprintf(lines[n++], sizeof lines[0], "Data pack = 15");
    snprintf(lines[n++], sizeof lines[0], "Stable = yes");
    snprintf(lines[n++], sizeof lines[0], "Server = mcserv (Minecraft %s in C)", MC_VERSION_NAME);
    for (int i = 0; i < n; i++) cmd_send_line(x, lines[i]);
    return 0;
}
