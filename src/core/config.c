/*
 * config.c — see config.h.
 *
 * Properties syntax handled (java.util.Properties): '#' and '!' comment lines,
 * key/value separated by '=', ':' or whitespace, backslash escapes (\t \n \r
 * \f \uXXXX and any other escaped character taken literally), and lines
 * continued with a trailing backslash.
 */
#include "core/config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/log.h"
#include "core/utf8.h"

#define CONFIG_MAX_FILE  (1u << 20) /* 1 MiB: a properties file is a few KB */
#define CONFIG_VALUE_MAX 4096 /* bytes of one decoded value (longer: an error for every key) */

enum key_kind {
    K_INT,
    K_BOOL,
    K_STRING,
    K_GAMEMODE,
    K_LEVEL_TYPE,
    K_DIFFICULTY,
    K_FORWARDING,
    K_SHA1, /* "" or 40 hex digits (resource-pack-sha1) */
};

struct key_def {
    const char *key;
    const char *def; /* default written to a new file */
    enum key_kind kind;
    size_t offset; /* into struct server_config */
    long min, max; /* K_INT range; K_STRING max length in bytes (max) */
};

#define OFF(f) offsetof(struct server_config, f)
#define SZ(f)  ((long)sizeof(((struct server_config *)0)->f) - 1)
#define BOOL(name, def, f)                                                                         \
    {                                                                                              \
        name, def, K_BOOL, OFF(f), 0, 0                                                            \
    }
#define INT(name, def, f, lo, hi)                                                                  \
    {                                                                                              \
        name, def, K_INT, OFF(f), lo, hi                                                           \
    }
#define STR(name, def, f)                                                                          \
    {                                                                                              \
        name, def, K_STRING, OFF(f), 0, SZ(f)                                                      \
    }

/* Vanilla 1.20.1 keys in the order vanilla writes them (alphabetical), with
 * vanilla's defaults, then mcserv's own. */
static const struct key_def keys[] = {
    BOOL("allow-flight", "false", allow_flight),
    BOOL("allow-nether", "true", allow_nether),
    BOOL("broadcast-console-to-ops", "true", broadcast_console_to_ops),
    BOOL("broadcast-rcon-to-ops", "true", broadcast_rcon_to_ops),
    {"difficulty", "easy", K_DIFFICULTY, OFF(difficulty), 0, 3},
    BOOL("enable-command-block", "false", enable_command_block),
    BOOL("enable-jmx-monitoring", "false", enable_jmx_monitoring),
    BOOL("enable-query", "false", enable_query),
    BOOL("enable-rcon", "false", enable_rcon),
    BOOL("enable-status", "true", enable_status),
    BOOL("enforce-secure-profile", "true", enforce_secure_profile),
    BOOL("enforce-whitelist", "false", enforce_whitelist),
    INT("entity-broadcast-range-percentage", "100", entity_broadcast_range_percentage, 10, 1000),
    BOOL("force-gamemode", "false", force_gamemode),
    INT("function-permission-level", "2", function_permission_level, 1, 4),
    {"gamemode", "survival", K_GAMEMODE, OFF(gamemode), 0, 3},
    BOOL("generate-structures", "true", generate_structures),
    STR("generator-settings", "{}", generator_settings),
    BOOL("hardcore", "false", hardcore),
    BOOL("hide-online-players", "false", hide_online_players),
    STR("initial-disabled-packs", "", initial_disabled_packs),
    STR("initial-enabled-packs", "vanilla", initial_enabled_packs),
    STR("level-name", "world", level_name),
    STR("level-seed", "", level_seed),
    {"level-type", "minecraft:normal", K_LEVEL_TYPE, OFF(level_type), 0, 0},
    INT("max-chained-neighbor-updates", "1000000", max_chained_neighbor_updates, -2147483647L - 1,
        2147483647L),
    INT("max-players", "20", max_players, 0, 1000000),
    INT("max-tick-time", "60000", max_tick_time, -1, 2147483647L),
    INT("max-world-size", "29999984", max_world_size, 1, 29999984),
    STR("motd", "A Minecraft Server", motd),
    INT("network-compression-threshold", "256", compression_threshold, -1, 8388608),
    BOOL("online-mode", "true", online_mode),
    INT("op-permission-level", "4", op_permission_level, 1, 4),
    INT("player-idle-timeout", "0", player_idle_timeout, 0, 1000000),
    BOOL("prevent-proxy-connections", "false", prevent_proxy_connections),
    BOOL("pvp", "true", pvp),
    INT("query.port", "25565", query_port, 1, 65535),
    INT("rate-limit", "0", rate_limit, 0, 1000000),
    STR("rcon.password", "", rcon_password),
    INT("rcon.port", "25575", rcon_port, 1, 65535),
    BOOL("require-resource-pack", "false", require_resource_pack),
    STR("resource-pack", "", resource_pack),
    STR("resource-pack-prompt", "", resource_pack_prompt),
    {"resource-pack-sha1", "", K_SHA1, OFF(resource_pack_sha1), 0, SZ(resource_pack_sha1)},
    STR("server-ip", "", server_ip),
    INT("server-port", "25565", server_port, 0, 65535),
    INT("simulation-distance", "10", simulation_distance, 3, 32),
    BOOL("spawn-animals", "true", spawn_animals),
    BOOL("spawn-monsters", "true", spawn_monsters),
    BOOL("spawn-npcs", "true", spawn_npcs),
    INT("spawn-protection", "16", spawn_protection, 0, 29999984),
    BOOL("sync-chunk-writes", "true", sync_chunk_writes),
    STR("text-filtering-config", "", text_filtering_config),
    BOOL("use-native-transport", "true", use_native_transport),
    INT("view-distance", "10", view_distance, 2, 32),
    BOOL("white-list", "false", white_list),
    /* mcserv's own keys */
    INT("worker-threads", "0", worker_threads, 0, 64),
    INT("autosave-interval", "300", autosave_interval, 0, 86400),
    STR("session-server", "https://sessionserver.mojang.com", session_server),
    {"forwarding-mode", "none", K_FORWARDING, OFF(forwarding_mode), 0, 0},
    STR("forwarding-secret-file", "forwarding.secret", forwarding_secret_file),
    STR("bungeeguard-token", "", bungeeguard_token),
    BOOL("proxy-protocol", "false", proxy_protocol),
    STR("mcserv-tab-header", "", tab_header),
    STR("mcserv-tab-footer", "", tab_footer),
    STR("admin-http-address", "127.0.0.1", admin_http_address),
    INT("admin-http-port", "25585", admin_http_port, 0, 65535),
    INT("connection-throttle", "4000", connection_throttle, 0, 3600000),
    INT("max-connections-per-ip", "16", max_connections_per_ip, 0, 1000000),
    INT("max-prelogin-connections", "15000", max_prelogin_connections, 0, 1000000),
    INT("handshake-timeout", "5000", handshake_timeout, 0, 60000),
    BOOL("limits-exempt-loopback", "true", limits_exempt_loopback),
    INT("packet-limit-interval", "7", packet_limit_interval, 1, 60),
    INT("packet-limit-max-rate", "500", packet_limit_max_rate, 0, 1000000),
    INT("slow-client-timeout", "20000", slow_client_timeout, 0, 3600000),
    INT("log-max-size", "100", log_max_size, 0, 1048576),
    INT("debug-chunk-gen-delay-ms", "0", debug_chunk_gen_delay_ms, 0, 60000),
    INT("debug-disk-latency-ms", "0", debug_disk_latency_ms, 0, 60000),
    INT("debug-tick-stall-ms", "0", debug_tick_stall_ms, 0, 600000),
    INT("debug-tick-stall-interval", "600", debug_tick_stall_interval, 1, 72000),
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char new_file_header[] =
    "#Minecraft server properties (written by mcserv)\n"
    "# online-mode=true: players are checked with the session server (Mojang's,\n"
    "# see session-server), which needs internet access. Behind Velocity or\n"
    "# BungeeCord set online-mode=false and forwarding-mode (docs/scaling.md).\n"
    "# worker-threads (mcserv): threads for chunk generation and encoding;\n"
    "# 0 = one per CPU core but one (at least 1).\n"
    "# autosave-interval (mcserv): seconds between saves of changed chunks,\n"
    "# level.dat and player data (0 = only on save-all and stop).\n"
    "# session-server (mcserv): base URL of the hasJoined check (https://, or\n"
    "# http:// on a loopback address only, for tests).\n"
    "# forwarding-mode (mcserv): none, velocity (modern forwarding, secret in\n"
    "# forwarding-secret-file) or bungeecord (legacy: firewall the port!\n"
    "# bungeeguard-token adds a token check). proxy-protocol=true expects a\n"
    "# HAProxy PROXY v1/v2 header on every connection.\n"
    "# mcserv-tab-header, mcserv-tab-footer (mcserv): text above and below the\n"
    "# player list (\\n for a new line, section-sign colour codes allowed).\n"
    "# admin-http-address, admin-http-port (mcserv): /metrics, /api/status,\n"
    "# /healthz and a dashboard over HTTP (port 0 = off). Keep it private.\n"
    "# enable-rcon: rcon.port binds to server-ip (all interfaces when empty):\n"
    "# firewall it; never expose RCON to the internet (docs/operations.md).\n"
    "# connection-throttle (ms between logins from one address), max-connections-\n"
    "# per-ip, max-prelogin-connections, handshake-timeout, limits-exempt-loopback,\n"
    "# packet-limit-interval/max-rate, slow-client-timeout: abuse limits\n"
    "# (docs/hardening.md).\n"
    "# log-max-size (mcserv): MiB at which logs/latest.log is rotated to\n"
    "# logs/yyyy-MM-dd-N.log.gz while running (0 = only at startup).\n"
    "# debug-*: fault injection for tests only; keep them 0.\n";

void config_defaults(struct server_config *cfg)
{
    char err[256];
    memset(cfg, 0, sizeof *cfg);
    /* Parsing the empty text applies every default through the same code. */
    config_parse("", 0, cfg, err, sizeof err);
}

int32_t config_java_string_hash(const char *s)
{
    uint32_t h = 0;
    for (const uint8_t *p = (const uint8_t *)s; *p;) {
        uint32_t cp;
        uint16_t u[2];
        p += utf8_decode_lenient(p, &cp);
        for (int i = 0, n = utf8_utf16_units(cp, u); i < n; i++) h = 31 * h + u[i];
    }
    return (int32_t)h;
}

/* Appends the UTF-8 encoding of cp to out. */
static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

/*
 * Reads one logical line from text[*pos..len) with continuations joined and
 * escapes decoded into key/value. Returns 0 at the end, 1 for a pair,
 * 2 for a blank/comment line.
 */
static int next_pair(const char *text, size_t len, size_t *pos, char *key, size_t kcap, char *val,
                     size_t vcap)
{
    size_t i = *pos;
    if (i >= len) return 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f')) i++;
    if (i >= len || text[i] == '\n' || text[i] == '\r' || text[i] == '#' || text[i] == '!') {
        while (i < len && text[i] != '\n') i++;
        *pos = i < len ? i + 1 : i;
        return 2;
    }
    char *out = key;
    size_t cap = kcap, o = 0;
    int in_key = 1, after_sep = 0;
    while (i < len) {
        char c = text[i];
        if (c == '\n' || c == '\r') {
            i++;
            break;
        }
        if (in_key && (c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f')) {
            key[o < kcap ? o : kcap - 1] = 0;
            in_key = 0;
            out = val;
            cap = vcap;
            o = 0;
            /* Skip whitespace, then at most one '=' or ':', then whitespace. */
            while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f')) i++;
            if (i < len && (text[i] == '=' || text[i] == ':')) i++;
            while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f')) i++;
            after_sep = 1;
            continue;
        }
        char tmp[4];
        size_t tn = 1;
        tmp[0] = c;
        if (c == '\\' && i + 1 < len) {
            char e = text[i + 1];
            i += 2;
            if (e == '\n' || e == '\r') { /* continuation: skip newline and leading space */
                if (e == '\r' && i < len && text[i] == '\n') i++;
                while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f')) i++;
                continue;
            }
            switch (e) {
            case 't': tmp[0] = '\t'; break;
            case 'n': tmp[0] = '\n'; break;
            case 'r': tmp[0] = '\r'; break;
            case 'f': tmp[0] = '\f'; break;
            case 'u': {
                uint32_t cp = 0;
                int k;
                for (k = 0; k < 4 && i < len && isxdigit((unsigned char)text[i]); k++, i++)
                    cp = cp * 16 + (uint32_t)(isdigit((unsigned char)text[i])
                                                  ? text[i] - '0'
                                                  : (tolower((unsigned char)text[i]) - 'a' + 10));
                tn = put_utf8(tmp, cp);
                break;
            }
            default: tmp[0] = e; break;
            }
        } else {
            i++;
        }
        for (size_t k = 0; k < tn; k++)
            if (o + 1 < cap)
                out[o++] = tmp[k];
            else
                o = cap; /* mark overflow */
    }
    (void)after_sep;
    if (in_key) {
        key[o < kcap ? o : kcap - 1] = 0;
        val[0] = 0;
    } else {
        val[o < vcap ? o : vcap - 1] = 0;
        if (o >= vcap) /* too long: a marker keeps the length at vcap - 1, which every
                        * length check refuses; the NUL stays in place */
            val[vcap - 2] = 1;
    }
    *pos = i;
    return 1;
}

static int parse_long(const char *s, long *out)
{
    if (!*s) return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

static int apply(const struct key_def *k, const char *val, struct server_config *cfg, char *err,
                 size_t errlen)
{
    char *field = (char *)cfg + k->offset;
    long v;
    switch (k->kind) {
    case K_SHA1: {
        size_t n = strlen(val);
        bool hex = n == 40;
        for (size_t i = 0; hex && i < n; i++) hex = isxdigit((unsigned char)val[i]) != 0;
        if (n && !hex) {
            snprintf(err, errlen,
                     "%s: expected 40 hexadecimal digits (a SHA-1) or nothing, got '%s'", k->key,
                     val);
            return -1;
        }
        memcpy(field, val, n + 1);
        return 0;
    }
    case K_INT:
        if (parse_long(val, &v) < 0 || v < k->min || v > k->max) {
            snprintf(err, errlen, "%s: expected a whole number from %ld to %ld, got '%s'", k->key,
                     k->min, k->max, val);
            return -1;
        }
        *(int *)field = (int)v;
        return 0;
    case K_BOOL:
        if (strcmp(val, "true") == 0)
            *(bool *)field = true;
        else if (strcmp(val, "false") == 0)
            *(bool *)field = false;
        else {
            snprintf(err, errlen, "%s: expected true or false, got '%s'", k->key, val);
            return -1;
        }
        return 0;
    case K_STRING:
        if (strlen(val) > (size_t)k->max) {
            snprintf(err, errlen, "%s: longer than %ld bytes", k->key, k->max);
            return -1;
        }
        memcpy(field, val, strlen(val) + 1);
        return 0;
    case K_GAMEMODE: {
        static const char *const names[] = {"survival", "creative", "adventure", "spectator"};
        for (int i = 0; i < 4; i++)
            if (strcmp(val, names[i]) == 0 || (val[0] == '0' + i && !val[1])) {
                *(enum gamemode *)field = (enum gamemode)i;
                return 0;
            }
        snprintf(err, errlen, "%s: expected survival, creative, adventure or spectator, got '%s'",
                 k->key, val);
        return -1;
    }
    case K_DIFFICULTY: {
        static const char *const names[] = {"peaceful", "easy", "normal", "hard"};
        for (int i = 0; i < 4; i++)
            if (strcmp(val, names[i]) == 0 || (val[0] == '0' + i && !val[1])) {
                *(int *)field = i;
                return 0;
            }
        snprintf(err, errlen, "%s: expected peaceful, easy, normal or hard, got '%s'", k->key, val);
        return -1;
    }
    case K_FORWARDING: {
        static const char *const names[] = {"none", "velocity", "bungeecord"};
        for (int i = 0; i < 3; i++)
            if (strcmp(val, names[i]) == 0) {
                *(enum forwarding_mode *)field = (enum forwarding_mode)i;
                return 0;
            }
        snprintf(err, errlen, "%s: expected none, velocity or bungeecord, got '%s'", k->key, val);
        return -1;
    }
    case K_LEVEL_TYPE: {
        char low[64];
        size_t n = strlen(val);
        if (n >= sizeof low) n = sizeof low - 1;
        for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)val[i]);
        low[n] = 0;
        if (strcmp(low, "minecraft:flat") == 0 || strcmp(low, "flat") == 0) {
            *(enum level_type *)field = LEVEL_FLAT;
            return 0;
        }
        if (strcmp(low, "minecraft:normal") == 0 || strcmp(low, "normal") == 0 ||
            strcmp(low, "default") == 0) {
            *(enum level_type *)field = LEVEL_NORMAL;
            return 0;
        }
        snprintf(err, errlen, "%s: expected minecraft:normal or minecraft:flat, got '%s'", k->key,
                 val);
        return -1;
    }
    }
    return 0;
}

static int64_t random_seed(void)
{
    int64_t s = 0;
    if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s) s = (int64_t)getpid() * 2654435761u;
    return s;
}

/* True if url's host (after "://") is a loopback address. */
static bool loopback_host(const char *host)
{
    static const char *const ok[] = {"127.", "localhost:", "localhost/", "[::1]"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strncmp(host, ok[i], strlen(ok[i])) == 0) return true;
    return strcmp(host, "localhost") == 0;
}

/* session-server: https://HOST[...], or http:// on loopback; trailing '/' dropped. */
static int check_session_server(char *url, char *err, size_t errlen)
{
    size_t n = strlen(url);
    while (n > 0 && url[n - 1] == '/') url[--n] = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)url[i];
        if (c <= ' ' || c >= 0x7f || c == '?' || c == '#') {
            snprintf(err, errlen, "session-server: '%s' contains a character a URL base cannot",
                     url);
            return -1;
        }
    }
    if (strncmp(url, "https://", 8) == 0 && n > 8) return 0;
    if (strncmp(url, "http://", 7) == 0 && loopback_host(url + 7)) return 0;
    snprintf(err, errlen,
             "session-server: expected an https:// URL (http:// only on 127.0.0.1, [::1] or "
             "localhost, for tests), got '%s'",
             url);
    return -1;
}

int config_parse(const char *text, size_t len, struct server_config *cfg, char *err, size_t errlen)
{
    /* Defaults first, then what the file says. */
    for (size_t i = 0; i < NKEYS; i++)
        if (apply(&keys[i], keys[i].def, cfg, err, errlen) < 0) return -1;

    size_t pos = 0;
    char key[256], val[CONFIG_VALUE_MAX];
    int r;
    while ((r = next_pair(text, len, &pos, key, sizeof key, val, sizeof val)) != 0) {
        if (r != 1) continue;
        for (size_t i = 0; i < NKEYS; i++) {
            if (strcmp(keys[i].key, key) != 0) continue;
            if (apply(&keys[i], val, cfg, err, errlen) < 0) return -1;
            break;
        }
    }
    if (check_session_server(cfg->session_server, err, errlen) < 0) return -1;
    if (cfg->online_mode && cfg->forwarding_mode != FWD_NONE) {
        snprintf(err, errlen,
                 "forwarding-mode=%s needs online-mode=false: the proxy authenticates players and "
                 "forwards who they are (see docs/scaling.md)",
                 cfg->forwarding_mode == FWD_VELOCITY ? "velocity" : "bungeecord");
        return -1;
    }
    long seed;
    if (!cfg->level_seed[0])
        cfg->seed = random_seed();
    else if (parse_long(cfg->level_seed, &seed) == 0)
        cfg->seed = seed;
    else
        cfg->seed = config_java_string_hash(cfg->level_seed);
    return 0;
}

/* Escapes a value for a properties file (non-ASCII as \uXXXX, like vanilla)
 * into out (at most 6 bytes per input byte, plus the NUL); returns the length. */
static size_t escape_value(char *out, size_t cap, const char *s)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t o = 0;
    while (*p && o + 7 < cap) {
        uint32_t cp = *p;
        int n = 1;
        if ((*p & 0xE0) == 0xC0 && p[1])
            cp = (uint32_t)(*p & 0x1F) << 6 | (p[1] & 0x3F), n = 2;
        else if ((*p & 0xF0) == 0xE0 && p[1] && p[2])
            cp = (uint32_t)(*p & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F), n = 3;
        if (cp == '\\' || cp == ':' || cp == '=' || cp == '#' || cp == '!') {
            out[o++] = '\\';
            out[o++] = (char)cp;
        } else if (cp == '\n') {
            out[o++] = '\\';
            out[o++] = 'n';
        } else if (cp < 0x20 || cp >= 0x7f) {
            o += (size_t)snprintf(out + o, cap - o, "\\u%04X", cp & 0xFFFF);
        } else {
            out[o++] = (char)cp;
        }
        p += n;
    }
    out[o] = 0;
    return o;
}

static void write_escaped(FILE *f, const char *s)
{
    char out[CONFIG_VALUE_MAX * 6 + 8];
    size_t n = escape_value(out, sizeof out, s);
    fwrite(out, 1, n, f);
}

char *config_replace_key(const char *text, size_t len, const char *key, const char *value,
                         size_t *out_len)
{
    char line[CONFIG_VALUE_MAX * 6 + 320];
    int head = snprintf(line, sizeof line, "%s=", key);
    if (head < 0 || (size_t)head >= sizeof line - 8) return NULL;
    size_t llen = (size_t)head + escape_value(line + head, sizeof line - (size_t)head - 1, value);
    line[llen++] = '\n';
    /* The last logical line whose key matches (as Properties.load keeps the last). */
    size_t pos = 0, at = len, at_end = len;
    bool found = false;
    char k[256], *v = malloc(CONFIG_VALUE_MAX);
    if (!v) return NULL;
    for (;;) {
        size_t start = pos;
        int r = next_pair(text, len, &pos, k, sizeof k, v, CONFIG_VALUE_MAX);
        if (r == 0) break;
        if (r == 1 && strcmp(k, key) == 0) {
            at = start;
            at_end = pos;
            found = true;
        }
    }
    free(v);
    bool need_nl = !found && len && text[len - 1] != '\n';
    size_t n = at + need_nl + llen + (len - at_end);
    char *out = malloc(n + 1);
    if (!out) return NULL;
    memcpy(out, text, at);
    size_t o = at;
    if (need_nl) out[o++] = '\n';
    memcpy(out + o, line, llen);
    o += llen;
    memcpy(out + o, text + at_end, len - at_end);
    o += len - at_end;
    out[o] = 0;
    *out_len = o;
    return out;
}

int config_load(const char *path, struct server_config *cfg, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno != ENOENT) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fd >= 0) {
        text = malloc(CONFIG_MAX_FILE + 1);
        if (!text) {
            close(fd);
            snprintf(err, errlen, "%s: out of memory", path);
            return -1;
        }
        ssize_t n;
        while ((n = read(fd, text + len, CONFIG_MAX_FILE + 1 - len)) > 0) len += (size_t)n;
        close(fd);
        if (n < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            free(text);
            return -1;
        }
        if (len > CONFIG_MAX_FILE) {
            snprintf(err, errlen, "%s: larger than %u bytes", path, CONFIG_MAX_FILE);
            free(text);
            return -1;
        }
    }

    memset(cfg, 0, sizeof *cfg);
    if (config_parse(text ? text : "", len, cfg, err, errlen) < 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s: %s", path, err);
        snprintf(err, errlen, "%s", msg);
        free(text);
        return -1;
    }

    /* Which known keys are missing? Append those (or write a new file). */
    bool present[NKEYS] = {0};
    size_t pos = 0;
    char key[256], val[CONFIG_VALUE_MAX];
    int r;
    while (text && (r = next_pair(text, len, &pos, key, sizeof key, val, sizeof val)) != 0) {
        if (r != 1) continue;
        for (size_t i = 0; i < NKEYS; i++)
            if (strcmp(keys[i].key, key) == 0) present[i] = true;
    }
    int missing = 0;
    for (size_t i = 0; i < NKEYS; i++) missing += !present[i];
    if (missing) {
        FILE *f = fopen(path, text ? "a" : "w");
        if (!f) {
            log_warn("cannot write defaults to %s: %s", path, strerror(errno));
        } else {
            if (!text)
                fputs(new_file_header, f);
            else if (len && text[len - 1] != '\n')
                fputc('\n', f);
            for (size_t i = 0; i < NKEYS; i++) {
                if (present[i]) continue;
                fprintf(f, "%s=", keys[i].key);
                write_escaped(f, keys[i].def);
                fputc('\n', f);
            }
            if (fclose(f) != 0)
                log_warn("writing %s: %s", path, strerror(errno));
            else if (text)
                log_info("added %d missing keys to %s with their defaults", missing, path);
            else
                log_info("wrote default %s", path);
        }
    }
    free(text);
    return 0;
}
