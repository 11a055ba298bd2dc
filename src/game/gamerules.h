/*
 * gamerules.h — the game rules mcserv acts on, and the world's difficulty.
 *
 * Vanilla 1.20.1 has 45 rules; /gamerule offers only those this server
 * acts on (the others would change nothing), with vanilla's names, types
 * and defaults:
 *
 *   rule                           type  default  what it does here
 *   commandModificationBlockLimit  int   32768    most blocks one fill/clone may change
 *   doDaylightCycle                bool  true     the time of day advances
 *   doImmediateRespawn             bool  false    no death screen (clients respawn at once)
 *   doMobSpawning                  bool  true     monsters spawn naturally (game/mob_spawn.c)
 *   doWeatherCycle                 bool  true     a weather duration runs down
 *   keepInventory                  bool  false    players keep their inventory on death
 *   logAdminCommands               bool  true     operators' commands are logged
 *   mobExplosionDropDecay          bool  true     a mob's blast keeps each drop with chance 1/power
 *   mobGriefing                    bool  true     creepers' blasts destroy blocks (explosion.c)
 *   playersSleepingPercentage      int   100      % of players asleep that skips the night (beds.c)
 *   randomTickSpeed                int   3        random ticks per section per tick (issue 21)
 *   reducedDebugInfo               bool  false    clients' F3 screen hides coordinates
 *   sendCommandFeedback            bool  true     command feedback reaches the player
 *   showDeathMessages              bool  true     death messages in chat and on the death screen
 *   tntExplosionDropDecay          bool  false    TNT's blast keeps each drop with chance 1/power
 *
 * Values are kept in level.dat's GameRules compound (strings, as vanilla),
 * read at startup and written with every save (game/level_tags.c); a rule
 * mcserv does not act on keeps whatever value the file has.
 *
 * The difficulty is vanilla's DedicatedServer's: server.properties'
 * `difficulty` at every start (hard when hardcore), changed by /difficulty
 * until the next start, sent to clients (Change Difficulty) and kept in
 * level.dat.
 *
 * The table (gamerule_defs) is pure data in game/cmd_spec.c, which builds
 * /gamerule from it; the rest is game/gamerules.c (game thread only).
 */
#ifndef MC_GAMERULES_H
#define MC_GAMERULES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"

enum gamerule {
    GR_COMMAND_MODIFICATION_BLOCK_LIMIT,
    GR_DO_DAYLIGHT_CYCLE,
    GR_DO_IMMEDIATE_RESPAWN,
    GR_DO_MOB_SPAWNING,
    GR_DO_WEATHER_CYCLE,
    GR_KEEP_INVENTORY,
    GR_LOG_ADMIN_COMMANDS,
    GR_MOB_EXPLOSION_DROP_DECAY,
    GR_MOB_GRIEFING,
    GR_PLAYERS_SLEEPING_PERCENTAGE, /* issue 21: beds */
    GR_RANDOM_TICK_SPEED,           /* issue 21 */
    GR_REDUCED_DEBUG_INFO,
    GR_SEND_COMMAND_FEEDBACK,
    GR_SHOW_DEATH_MESSAGES,
    GR_TNT_EXPLOSION_DROP_DECAY,
    GR_COUNT
};

struct gamerule_def {
    const char *name;
    bool is_int; /* else a boolean */
    int32_t def;
};

/* In enum order (game/cmd_spec.c). */
extern const struct gamerule_def gamerule_defs[GR_COUNT];

struct conn;
struct level_info;
struct nbt_node;

/* The rule's value (booleans 0 or 1). */
int32_t gamerule_get(enum gamerule r);
static inline bool gamerule_on(enum gamerule r)
{
    return gamerule_get(r) != 0;
}
/* Sets a rule and tells the clients what they must know (vanilla's
 * callbacks: Game Event 11 for doImmediateRespawn, Entity Event 22/23 for
 * reducedDebugInfo, the time at once for doDaylightCycle). */
void gamerule_set(enum gamerule r, int32_t v);
/* Update Time's time of day: negative while doDaylightCycle is false, so
 * clients stop the clock (vanilla ClientboundSetTimePacket). */
int64_t gamerules_wire_time(int64_t day_time);

/* 0 peaceful .. 3 hard. */
int gamerules_difficulty(void);
/* Sets it (as the server's in memory and level.dat's) and tells everyone. */
void gamerules_set_difficulty(int d);

/* Startup: the difficulty from server.properties, the rules from level.dat's
 * Data compound (may be NULL: a new world, every rule its default). */
void gamerules_init(const struct nbt_node *data);
/* A joining player's client: the difficulty and the rules it must know. */
void gamerules_join(struct conn *c);
/* Appends the GameRules compound for level.dat: the file's own rules
 * (old may be NULL), ours replaced by their values. */
void gamerules_write(buf_t *b, const struct nbt_node *old);

#endif
