/*
 * config.h — server.properties: read, validate, fill in missing keys.
 *
 * The file is Java-properties text, as vanilla writes it. On startup:
 *  - absent file: written with vanilla defaults (online-mode=true, as
 *    vanilla) plus mcserv's own keys, with a comment on each, then read;
 *  - present file: parsed; keys mcserv knows are validated, unknown keys are
 *    kept untouched; known keys that are missing are appended with their
 *    defaults (the user's lines and comments are never rewritten).
 *
 * Invariants:
 *  1. An invalid value for a known key fails config_load with a message that
 *     names the key, the bad value and what is accepted. Nothing starts.
 *  2. Strings in struct server_config are NUL-terminated and fit their arrays
 *     (a longer value is an error, never truncated silently).
 *  3. session-server is https://, or http:// only on a loopback host (tests);
 *     forwarding-mode other than none requires online-mode=false (the proxy
 *     authenticates); both are checked here, before anything starts.
 *  4. management-server-secret is 40 characters of A-Z a-z 0-9 after
 *     config_load: an empty (or absent) one is generated from getrandom and
 *     written back into the file, as vanilla does; any other value is an
 *     error (invariant 1). The secret is never echoed in a message.
 */
#ifndef MC_CONFIG_H
#define MC_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/log.h"

enum level_type { LEVEL_FLAT, LEVEL_NORMAL };
/* How a proxy in front of mcserv hands over the player's identity. */
enum forwarding_mode { FWD_NONE, FWD_VELOCITY, FWD_BUNGEECORD };
enum gamemode { GM_SURVIVAL = 0, GM_CREATIVE = 1, GM_ADVENTURE = 2, GM_SPECTATOR = 3 };
/* mcserv-player-visibility: do players see each other as entities? */
enum player_visibility { VIS_ALL, VIS_NONE };

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
    char generator_settings[1024];
    int worker_threads;        /* mcserv: 0 = one per core but one, at least 1 */
    int io_threads;            /* mcserv: socket I/O threads, game thread counted; -1 = auto */
    int max_writes_per_second; /* mcserv: the write budget of adaptive batching; 0 = off */
    int autosave_interval;     /* mcserv: seconds between autosaves; 0 = only save-all and stop */
    /* Online mode and proxies (net/login.c, net/auth.c, net/proxy.c) */
    bool prevent_proxy_connections; /* send ip= to hasJoined */
    char session_server[256];       /* base URL, no trailing '/' */
    enum forwarding_mode forwarding_mode;
    char forwarding_secret_file[256]; /* velocity: the shared secret's file */
    char bungeeguard_token[256];      /* bungeecord: "" = no token check */
    bool proxy_protocol;              /* HAProxy PROXY v1/v2 header required */
    /* Multiplayer (game/entities.c, commands.c) */
    int entity_broadcast_range_percentage; /* 10..1000: scales the tracking range */
    int op_permission_level;               /* level /op grants, 1..4 */
    bool broadcast_console_to_ops;         /* console command feedback to online ops */
    char tab_header[256];                  /* mcserv: tab list header text ("" = none) */
    char tab_footer[256];
    int max_tracked_players;    /* mcserv: each viewer tracks the N nearest; 0 = all */
    int max_entities_per_chunk; /* mcserv: mobs a chunk column may hold; 0 = no cap */
    enum player_visibility player_visibility; /* mcserv: none = nobody sees anyone (hubs) */
    /* Operations (game/lists.c, admin/, net/conn.c; docs/operations.md) */
    bool white_list;         /* changed at runtime by /whitelist on|off */
    bool enforce_whitelist;  /* kick unlisted players when the list changes */
    int spawn_protection;    /* radius in blocks around the spawn; 0 off */
    int player_idle_timeout; /* minutes; 0 off */
    int rate_limit;          /* packets per second per connection; 0 off */
    bool enable_rcon;
    int rcon_port;
    char rcon_password[256];
    bool broadcast_rcon_to_ops;
    bool enable_query;
    int query_port;
    char admin_http_address[64]; /* mcserv: the HTTP admin endpoint's address */
    int admin_http_port;         /* mcserv: 0 = no HTTP endpoint */
    /* The management protocol (admin/mgmt*.c; docs/operations.md), vanilla's keys */
    bool management_server_enabled;
    char management_server_host[256];
    int management_server_port;               /* 0 = a free port, logged */
    char management_server_secret[128];       /* 40 of A-Z a-z 0-9 (invariant 4) */
    bool management_server_tls_enabled;       /* vanilla's default: true */
    char management_server_tls_keystore[256]; /* PKCS#12 file */
    char management_server_tls_keystore_password[256];
    char management_server_tls_certificate[256];  /* mcserv: PEM certificate chain */
    char management_server_tls_key[256];          /* mcserv: PEM private key */
    char management_server_allowed_origins[1024]; /* comma-separated */
    int status_heartbeat_interval;                /* seconds; 0 = no heartbeat */
    /* Vanilla keys validated and kept for what reads them later. */
    bool allow_flight, allow_nether, pvp, force_gamemode, generate_structures;
    bool spawn_animals, spawn_monsters, spawn_npcs, enable_command_block;
    bool enable_jmx_monitoring, sync_chunk_writes, use_native_transport;
    bool enforce_secure_profile, require_resource_pack;
    int function_permission_level;    /* 1..4 */
    int max_chained_neighbor_updates; /* negative: no limit */
    int max_tick_time;                /* ms; -1 off */
    int max_world_size;               /* 1..29999984 */
    char resource_pack[1024];
    char resource_pack_sha1[41]; /* "" or 40 hex digits */
    char resource_pack_prompt[1024];
    char initial_enabled_packs[256];
    char initial_disabled_packs[256];
    char text_filtering_config[256];
    /* Limits and abuse (net/limits.c; docs/hardening.md) */
    int connection_throttle;      /* ms between logins from one address (Bukkit); 0 off */
    int max_connections_per_ip;   /* open connections from one address; 0 off */
    int max_prelogin_connections; /* connections not yet playing, all addresses; 0 off */
    int handshake_timeout;        /* ms from accept to a complete handshake; 0 off */
    bool limits_exempt_loopback;  /* 127/8 and ::1 skip the per-address rules */
    int packet_limit_interval;    /* seconds of the packet limiter's window (Paper: 7) */
    int packet_limit_max_rate;    /* packets per second over that window, then kick; 0 off */
    int slow_client_timeout;      /* ms with output queued and none sent, then drop; 0 off */
    /* Chunk requests and the chunk cache (world/world.h; docs/operations.md) */
    int chunk_requests_per_second; /* per player, after a burst of one whole window */
    int chunk_requests_in_flight;  /* per player: asked for and not yet received */
    int chunk_idle_max;            /* chunks kept loaded with nobody viewing them */
    int log_max_size;              /* MiB: latest.log is rotated at this size; 0 at startup only */
    enum log_format log_format;    /* log-format: vanilla's line prefix or mcserv's */
    /* Profiling (game/perf.c, core/profiler.c; docs/operations.md) */
    int slow_tick_ms;         /* a tick this long is logged with its breakdown; 0 off */
    bool background_profiler; /* sample the game thread always, for slow-tick stacks */
    /* Fault injection for tests (docs/hardening.md); 0 = off */
    int debug_chunk_gen_delay_ms;  /* sleep per generated chunk, on the worker */
    int debug_disk_latency_ms;     /* sleep before each file open/read/write/fsync/rename */
    int debug_tick_stall_ms;       /* one tick sleeps this long ... */
    int debug_tick_stall_interval; /* ... every this many ticks */
    int debug_io_fanout_min;       /* connections from which I/O goes to the threads (tests: 1) */
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

/*
 * server.properties text with `key` set to `value` (escaped as a properties
 * value): the key's line is replaced in place, other lines and comments are
 * kept byte for byte; an absent key is appended. Returns malloc'd,
 * NUL-terminated text (length in *out_len), or NULL when out of memory.
 */
char *config_replace_key(const char *text, size_t len, const char *key, const char *value,
                         size_t *out_len);

/* True if s is a valid management-server-secret (40 of A-Z a-z 0-9). */
bool config_secret_valid(const char *s);
/* Fills out[41] with a new secret (40 of A-Z a-z 0-9 from getrandom); -1 if
 * the kernel gives no random bytes. */
int config_generate_secret(char out[41]);

/* Java's String.hashCode over UTF-16 units, as vanilla hashes text seeds. */
int32_t config_java_string_hash(const char *s);

#endif
