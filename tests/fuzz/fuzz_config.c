/*
 * fuzz_config.c — libFuzzer target for the server.properties parser.
 *
 * Invariant: any text either loads (every string field NUL-terminated and
 * within its array, numbers within their documented ranges) or is refused
 * with a non-empty message; never a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct server_config cfg;
    char err[512] = "";
    memset(&cfg, 0, sizeof cfg);
    if (config_parse((const char *)data, size, &cfg, err, sizeof err) < 0) {
        if (!err[0]) abort();
        return 0;
    }
    if (memchr(cfg.motd, 0, sizeof cfg.motd) == NULL) abort();
    if (memchr(cfg.server_ip, 0, sizeof cfg.server_ip) == NULL) abort();
    if (memchr(cfg.level_name, 0, sizeof cfg.level_name) == NULL) abort();
    if (cfg.view_distance < 2 || cfg.view_distance > 32) abort();
    if (cfg.server_port < 0 || cfg.server_port > 65535) abort();
    if (cfg.compression_threshold < -1) abort();
    /* online-mode=true is valid (issue #9), but never with a forwarding
     * mode, and the session server is https:// or loopback http://. */
    if (cfg.online_mode && cfg.forwarding_mode != FWD_NONE) abort();
    if (strncmp(cfg.session_server, "https://", 8) != 0 &&
        strncmp(cfg.session_server, "http://", 7) != 0)
        abort();
    if (memchr(cfg.session_server, 0, sizeof cfg.session_server) == NULL) abort();
    return 0;
}
