/*
 * config.h — server.properties: read, validate, fill in missing keys.
 *
 * The file is Java-properties text, as vanilla writes it. On startup:
 *  - absent file: written with vanilla defaults (and online-mode=false, with
 *    a comment saying why) and then read;
 *  - present file: parsed; keys mcserv knows are validated, unknown keys are
 *    kept untouched; known keys that are missing are appended with their
 *    defaults (the user's lines and comments are never rewritten).
 *
 * Invariants:
 *  1. An invalid value for a known key fails config_load with a message that
 *     names the key, the bad value and what is accepted. Nothing starts.
 *  2. Strings in struct server_config are NUL-terminated and fit their arrays
 *     (a longer value is an error, never truncated silently).
 */
#ifndef MC_CONFIG_H
#define MC_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum level_type { LEVEL_FLAT, LEVEL_NORMAL };
enum gamemode { GM_SURVIVAL = 0, GM_CREATIVE = 1, GM_ADVENTURE = 2, GM_SPECTATOR = 3 };

struct server_config {
    char server_ip[64];
    int server_port;
    char motd[512];
    int max_players;
    int view_distance;
    int simulation_distance;
    bool online_mode;
    int compression_threshold; /* -1 = off */
    enum level_type level_type;
    char level_name[128];
    char level_seed[128];
    int64_t seed; /* parsed from level_seed (random when empty) */
    enum gamemode gamemode;
    int difficulty;
    bool hardcore;
    bool enable_status;
    bool hide_online_players;
};

/* Fills cfg with vanilla defaults. */
void config_defaults(struct server_config *cfg);

/*
 * Loads `path` into cfg (starting from defaults), writing or completing the
 * file as described above. Returns 0, or -1 with a message in err.
 */
int config_load(const char *path, struct server_config *cfg, char *err, size_t errlen);

/* Parses properties text (no file I/O); for tests and fuzzing. */
int config_parse(const char *text, size_t len, struct server_config *cfg, char *err, size_t errlen);

/* Java's String.hashCode over UTF-16 units, as vanilla hashes text seeds. */
int32_t config_java_string_hash(const char *s);

#endif
