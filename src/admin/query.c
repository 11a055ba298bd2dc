/*
 * query.c — see query.h: the UDP socket in the loop and the server's
 * answers for a stat reply. Requests and replies are admin/query_packet.c.
 */
#include "admin/query.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <unistd.h>

#include "admin/admin.h"
#include "core/config.h"
#include "core/log.h"
#include "data/version.h"
#include "game/game.h"
#include "net/server.h"

static struct {
    loop_watch w;
    int fd;
    struct query_state st;
    const char **names;
    size_t names_cap;
} query = {.fd = -1};

static void fill_info(struct query_info *in, void *arg)
{
    (void)arg;
    const struct server_config *cfg = &srv->cfg;
    in->motd = cfg->motd;
    in->map = cfg->level_name;
    in->version = MC_VERSION_NAME;
    in->plugins = "mcserv";
    in->hostip = cfg->server_ip[0] ? cfg->server_ip : "0.0.0.0";
    in->numplayers = (int)game.player_count;
    in->maxplayers = cfg->max_players;
    in->hostport = cfg->server_port;
    in->players = NULL;
    in->nplayers = 0;
    if (cfg->hide_online_players) return;
    if (query.names_cap < game.player_count) {
        size_t cap = game.player_count + 64;
        const char **n = realloc(query.names, cap * sizeof *n);
        if (!n) return;
        query.names = n;
        query.names_cap = cap;
    }
    for (size_t i = 0; i < game.player_count; i++) query.names[i] = game.players[i]->player->name;
    in->players = query.names;
    in->nplayers = game.player_count;
}

static void query_event(loop_watch *w, uint32_t events)
{
    (void)w;
    (void)events;
    static uint8_t in[2048], out[QUERY_REPLY_MAX];
    for (int i = 0; i < 64; i++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        ssize_t n = recvfrom(query.fd, in, sizeof in, MSG_TRUNC, (struct sockaddr *)&ss, &sl);
        if (n < 0) {
            if (errno == EINTR) continue;
            return; /* EAGAIN, or an ICMP error from an earlier reply */
        }
        if ((size_t)n > sizeof in) { /* truncated: far larger than any request */
            admin_stats.query_dropped++;
            continue;
        }
        size_t r = query_handle(&query.st, in, (size_t)n, (struct sockaddr *)&ss, sl,
                                srv->loop->now_ms, fill_info, NULL, out, sizeof out);
        if (!r) {
            admin_stats.query_dropped++;
            continue;
        }
        admin_stats.query_requests++;
        sendto(query.fd, out, r, MSG_DONTWAIT, (struct sockaddr *)&ss, sl);
    }
}

int query_start(const struct server_config *cfg)
{
    if (!cfg->enable_query) return 0;
    if (getrandom(query.st.secret, sizeof query.st.secret, 0) != (ssize_t)sizeof query.st.secret) {
        log_error("Query: no random numbers for the challenge secret; Query stays off");
        return -1;
    }
    query.fd = admin_listen("Query", cfg->server_ip, cfg->query_port, SOCK_DGRAM);
    if (query.fd < 0) return -1;
    query.w.on_event = query_event;
    if (loop_watch_add(srv->loop, &query.w, query.fd, EPOLLIN) < 0) {
        close(query.fd);
        query.fd = -1;
        return -1;
    }
    log_info("Query running on %s:%d (UDP)", cfg->server_ip[0] ? cfg->server_ip : "0.0.0.0",
             cfg->query_port);
    return 0;
}

void query_stop(void)
{
    if (query.fd >= 0) {
        loop_watch_del(srv->loop, &query.w);
        close(query.fd);
        query.fd = -1;
    }
    free(query.names);
    query.names = NULL;
    query.names_cap = 0;
}
