/*
 * xp.c — see xp.h: the game side of experience, as vanilla 1.20.1's
 * ServerPlayer (Set Experience whenever the experience changed), Player
 * (getExperienceReward, dropped at death unless keepInventory) and
 * LivingEntity.dropExperience (a mob's reward only when a player killed
 * it). The orbs themselves are item entities (game/items.c).
 *
 * Invariant: every change to a player's experience goes through this file
 * or game/cmd_xp.c, and each ends with xp_send, so the client's bar is
 * never stale.
 */
#include "game/xp.h"

#include "data/entity_table.h"
#include "data/packet_ids.h"
#include "game/experience.h"
#include "game/game.h"
#include "game/gamerules.h"
#include "game/items.h"
#include "net/server.h"
#include "proto/wire.h"

static uint64_t rng = 0x7c3e9f1d2b4a6085ull;

void xp_send(conn *c)
{
    if (!c || c->closed || !c->player) return;
    const struct player_xp *x = &c->player->xp;
    buf_reset(&srv->pkt);
    wr_varint(&srv->pkt, PKT_PLAY_CB_EXPERIENCE);
    wr_f32(&srv->pkt, x->progress);
    wr_varint(&srv->pkt, x->level);
    wr_varint(&srv->pkt, x->total);
    conn_send_pkt(c);
}

void xp_give(conn *c, int points)
{
    xp_give_points(&c->player->xp, points);
    xp_send(c);
}

void xp_player_died(conn *c)
{
    player *p = c->player;
    if (gamerule_on(GR_KEEP_INVENTORY) || p->gamemode == GM_SPECTATOR) return;
    int reward = xp_player_reward(p->xp.level);
    if (reward > 0) items_award_xp(p->x, p->y, p->z, reward);
    p->xp = (struct player_xp){0};
}

void xp_mob_died(int type, bool by_player, int equipped, double x, double y, double z)
{
    if (!by_player || type < 0 || type >= ENTITY_TYPE_COUNT) return;
    int reward = xp_mob_reward(entity_types[type].category, equipped, &rng);
    if (reward > 0) items_award_xp(x, y, z, reward);
}
