/*
 * behave.c — what a joined bot does: the built-in scenarios, movement at
 * walking speed with position packets at 20 Hz like a client, chat, digging
 * and placing packets, and the churn leave/rejoin cycle.
 *
 *   idle   stand still; only answer the server (keep-alive, teleports)
 *   walk   random walk to targets within --radius of the spawn point at
 *          --speed (4.317 m/s), position every 50 ms, chat every --chat-every
 *   chat   stand still, chat_message every --chat-every seconds
 *   crowd  like walk, inside a small radius: every bot moves every tick
 *   churn  stay U(--stay-min, --stay-max) seconds, leave, rejoin after
 *          --rejoin-pause (through the join rate limiter)
 *   spread go to a random point within +-R (--spread-radius) blocks of the
 *          spawn, then walk within --radius of it (below)
 *   script Lua decides (script.c); movement and waits come back here
 *
 * Each bot has one action timer (t_act) armed at the earliest of: its next
 * movement tick, its next chat, its leave time, its script wake-up. Phases
 * of the 20 Hz movement ticks are spread at random over ten 5 ms slots of
 * the 50 ms, so the server sees a steady stream rather than one burst per
 * tick, and each slot's bots send in one loop pass: on loopback the sender
 * pays for waking the receiver, and one wake-up per group instead of one
 * per bot is most of what keeps walking bots cheap.
 *
 * spread: how a bot gets to its point. It joins at the spawn like every
 * bot (that is the join figure), draws its point (uniform in the square
 * +-R around its first position, block centre, from its seeded rng), and
 * asks for a teleport there:
 *
 *   joined --RCON live--> queued on rcon_client.c: `tp <name> x y z` --+
 *      |                                                               |
 *      +--otherwise: its own chat command `/tp x y z` (needs op) ------+
 *                                                                      v
 *   SP_ASKED --Synchronize Player Position within 1 block of the point--> SP_TELEPORTED
 *      |                                                                     |
 *      | --spread-timeout without it                    chunk under it received
 *      v                                                                     v
 *   SP_WALKING --reaches the point (its chunk waits count as walking)--> SP_ARRIVED
 *                                                       (random walk within --radius)
 *
 * RCON is what an operator would use and works against any server that
 * speaks it (vanilla, Paper, mcserv); the /tp command works where the bots
 * are operators (vanilla then tells every other op about each teleport).
 * Walking 2,000 blocks takes minutes, so a timed-out bot is counted as
 * such in the report. Height: the bot keeps its spawn height (bots do not
 * simulate gravity; on a flat world that is the ground everywhere).
 *
 * Invariants:
 *  1. Only bots in PLAY act; a timer firing for a closed bot does nothing,
 *     except the churn rejoin timer of a LEFT bot, which requeues it.
 *  2. A bot never moves faster than its speed: one step per 50 ms tick of
 *     at most speed * 0.05 blocks; missed ticks are skipped, not caught up.
 *  3. Chat text is at most CHAT_MAX bytes and sent unsigned (no signature,
 *     offset 0, an empty acknowledgement bitset), as an offline client does.
 */
#include <math.h>
#include <string.h>

#include "bench/mcbench.h"
#include "bench/rng.h"
#include "core/clock.h"
#include "data/packet_ids.h"

#define MOVE_TICK_MS  50
#define MOVE_PHASE_MS 5   /* movement ticks start on a 5 ms grid: 10 groups per tick */
#define SPREAD_NEAR   1.0 /* blocks: a teleport this close to the point puts the bot there */

/* First movement tick: a random one of the MOVE_TICK_MS / MOVE_PHASE_MS
 * phases on an absolute 5 ms grid, so the bots of one group send in the same
 * loop pass (one server wake-up for the group, not one per bot) while the
 * groups still spread the load over the 50 ms. */
static int64_t first_move_ms(bot *b, int64_t now)
{
    int64_t grid = now - now % MOVE_PHASE_MS + MOVE_PHASE_MS;
    return grid + MOVE_PHASE_MS * (int64_t)(rng_next(&b->rng) % (MOVE_TICK_MS / MOVE_PHASE_MS));
}

/* ---------------------------------------------------------- packet senders */

void send_position(bot *b, bool with_look)
{
    buf_t *p = bot_pkt(with_look ? PKT_PLAY_SB_POSITION_LOOK : PKT_PLAY_SB_POSITION);
    wr_f64(p, b->x);
    wr_f64(p, b->y);
    wr_f64(p, b->z);
    if (with_look) {
        wr_f32(p, b->yaw);
        wr_f32(p, b->pitch);
    }
    wr_bool(p, true); /* on ground */
    bot_send(b);
    bench.moves_sent++;
}

void send_look(bot *b)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_LOOK);
    wr_f32(p, b->yaw);
    wr_f32(p, b->pitch);
    wr_bool(p, true);
    bot_send(b);
}

void send_chat(bot *b, const char *text, size_t len)
{
    if (len > CHAT_MAX) len = CHAT_MAX;
    if (len && text[0] == '/') {
        buf_t *p = bot_pkt(PKT_PLAY_SB_CHAT_COMMAND);
        wr_string(p, text + 1, len - 1);
        wr_i64(p, clock_wall_ms());
        wr_i64(p, (int64_t)rng_next(&b->rng));
        wr_varint(p, 0); /* no argument signatures */
        wr_varint(p, 0); /* message count */
        wr_u8(p, 0);
        wr_u8(p, 0);
        wr_u8(p, 0); /* acknowledged: 20-bit bitset, nothing */
    } else {
        buf_t *p = bot_pkt(PKT_PLAY_SB_CHAT_MESSAGE);
        wr_string(p, text, len);
        wr_i64(p, clock_wall_ms());
        wr_i64(p, (int64_t)rng_next(&b->rng));
        wr_bool(p, false); /* no signature */
        wr_varint(p, 0);   /* offset */
        wr_u8(p, 0);
        wr_u8(p, 0);
        wr_u8(p, 0); /* acknowledged */
    }
    bot_send(b);
    bench.chat_sent++;
}

void send_dig(bot *b, int32_t x, int32_t y, int32_t z, int face)
{
    for (int status = 0; status <= 2; status += 2) { /* started, then finished digging */
        buf_t *p = bot_pkt(PKT_PLAY_SB_BLOCK_DIG);
        wr_varint(p, status);
        wr_position(p, x, y, z);
        wr_u8(p, (uint8_t)face);
        wr_varint(p, ++b->seq);
        bot_send(b);
    }
}

void send_place(bot *b, int32_t x, int32_t y, int32_t z, int face)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_BLOCK_PLACE);
    wr_varint(p, 0); /* main hand */
    wr_position(p, x, y, z);
    wr_varint(p, face);
    wr_f32(p, 0.5f);
    wr_f32(p, 0.5f);
    wr_f32(p, 0.5f);
    wr_bool(p, false); /* inside block */
    wr_varint(p, ++b->seq);
    bot_send(b);
    p = bot_pkt(PKT_PLAY_SB_ARM_ANIMATION);
    wr_varint(p, 0);
    bot_send(b);
}

void send_creative_slot(bot *b, int slot, int item, int count)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_SET_CREATIVE_SLOT);
    wr_i16(p, (int16_t)slot);
    if (item <= 0 || count <= 0) {
        wr_bool(p, false);
    } else {
        wr_bool(p, true);
        wr_varint(p, item);
        wr_u8(p, (uint8_t)(count > 64 ? 64 : count));
        wr_u8(p, 0); /* no NBT (TAG_End) */
    }
    bot_send(b);
}

void send_held_slot(bot *b, int slot)
{
    buf_t *p = bot_pkt(PKT_PLAY_SB_HELD_ITEM_SLOT);
    wr_i16(p, (int16_t)slot);
    bot_send(b);
}

/* -------------------------------------------------------------- movement */

void behave_move_to(bot *b, double x, double y, double z, double speed)
{
    b->tx = x;
    b->ty = y;
    b->tz = z;
    b->speed = speed;
    b->moving = true;
}

/* walk / crowd: the next random target within --radius of the first position. */
static void pick_target(bot *b)
{
    double r = bench.o.radius * sqrt(rng_unit(&b->rng));
    double a = rng_unit(&b->rng) * 2.0 * M_PI;
    behave_move_to(b, b->home_x + r * cos(a), b->y, b->home_z + r * sin(a), bench.o.speed);
    b->look_dirty = true;
}

/* ---------------------------------------------------------------- spread */

/* At its point with the chunk under it (or walked there): from now on it
 * walks around the point like a walk bot around the spawn. */
static void spread_arrived(bot *b)
{
    if (b->spread == SP_TELEPORTED)
        hist_add(&bench.spread.arrival, (uint64_t)(bench.loop.now_us - b->spread_ask_us));
    else
        bench.spread.walked_arrived++;
    bench.spread.arrived++;
    bool was_moving = b->moving;
    b->spread = SP_ARRIVED;
    b->home_x = b->spread_x;
    b->home_z = b->spread_z;
    pick_target(b);
    if (!was_moving) b->next_move_ms = first_move_ms(b, bench.loop.now_ms);
    behave_rearm(b); /* also called from the chunk handler, outside the action timer */
}

void behave_spread_ask_command(bot *b)
{
    if (b->state != BS_PLAY || b->spread != SP_ASKED) return;
    char cmd[96];
    int n = snprintf(cmd, sizeof cmd, "/tp %.1f %.1f %.1f", b->spread_x, b->y, b->spread_z);
    bench.spread.asked_command++;
    send_chat(b, cmd, (size_t)n);
}

static void spread_start(bot *b)
{
    double r = bench.o.spread_radius;
    b->spread_x = floor(b->x + r * (2.0 * rng_unit(&b->rng) - 1.0)) + 0.5;
    b->spread_z = floor(b->z + r * (2.0 * rng_unit(&b->rng) - 1.0)) + 0.5;
    b->spread = SP_ASKED;
    b->spread_ask_us = bench.loop.now_us;
    b->spread_deadline_ms = bench.loop.now_ms + (int64_t)(bench.o.spread_timeout * 1000.0);
    if (rcon_client_live()) {
        bench.spread.asked_rcon++;
        rcon_client_tp(b);
    } else {
        behave_spread_ask_command(b);
    }
}

/* No teleport in time: walk there (minutes for a far point; counted). */
static void spread_timed_out(bot *b, int64_t now)
{
    rcon_client_cancel(b);
    bench.spread.timed_out++;
    b->spread = SP_WALKING;
    behave_move_to(b, b->spread_x, b->y, b->spread_z, bench.o.speed);
    b->look_dirty = true;
    b->next_move_ms = first_move_ms(b, now);
}

/* After a Synchronize Player Position: did it put the bot at its point? */
static void spread_after_teleport(bot *b)
{
    if (b->spread != SP_ASKED && b->spread != SP_WALKING) return;
    if (fabs(b->x - b->spread_x) > SPREAD_NEAR || fabs(b->z - b->spread_z) > SPREAD_NEAR) return;
    hist_add(&bench.spread.teleport, (uint64_t)(bench.loop.now_us - b->spread_ask_us));
    bench.spread.teleported++;
    rcon_client_cancel(b);
    b->moving = false;
    b->spread = SP_TELEPORTED; /* arrived once the chunk under it is there */
}

void behave_check_chunk_wait(bot *b)
{
    bool have = bot_chunk_loaded(b, (int32_t)floor(b->x / 16.0), (int32_t)floor(b->z / 16.0));
    if (!have && !b->chunk_wait_since_us) {
        b->chunk_wait_since_us = bench.loop.now_us;
        bench.chunk_waits++;
    } else if (have && b->chunk_wait_since_us) {
        hist_add(&bench.chunk_wait, (uint64_t)(bench.loop.now_us - b->chunk_wait_since_us));
        b->chunk_wait_since_us = 0;
    }
    if (have && b->spread == SP_TELEPORTED) spread_arrived(b);
}

/* One 50 ms movement tick; returns true when the target was reached. */
static bool step(bot *b)
{
    double dx = b->tx - b->x, dy = b->ty - b->y, dz = b->tz - b->z;
    double dist = sqrt(dx * dx + dy * dy + dz * dz);
    double s = b->speed * (MOVE_TICK_MS / 1000.0);
    bool arrived = dist <= s;
    if (dist > 1e-9) {
        float yaw = (float)(-atan2(dx, dz) * 180.0 / M_PI);
        if (fabsf(yaw - b->yaw) > 0.5f) {
            b->yaw = yaw;
            b->look_dirty = true;
        }
    }
    if (arrived) {
        b->x = b->tx;
        b->y = b->ty;
        b->z = b->tz;
    } else {
        b->x += dx / dist * s;
        b->y += dy / dist * s;
        b->z += dz / dist * s;
    }
    send_position(b, b->look_dirty);
    b->look_dirty = false;
    behave_check_chunk_wait(b);
    return arrived;
}

/* ------------------------------------------------------------ scheduling */

void behave_rearm(bot *b)
{
    if (b->state != BS_PLAY) return;
    int64_t due = INT64_MAX;
    if (b->moving && b->next_move_ms < due) due = b->next_move_ms;
    if (b->next_chat_ms && b->next_chat_ms < due) due = b->next_chat_ms;
    if (b->leave_at_ms && b->leave_at_ms < due) due = b->leave_at_ms;
    if (b->spread == SP_ASKED && b->spread_deadline_ms < due) due = b->spread_deadline_ms;
    if ((b->wait == SW_TIMER || b->wait == SW_CHAT) && b->script_wake_ms && b->script_wake_ms < due)
        due = b->script_wake_ms;
    if (due == INT64_MAX)
        loop_timer_stop(&bench.loop, &b->t_act);
    else if (!loop_timer_armed(&b->t_act) || b->t_act.due != due)
        loop_timer_at(&bench.loop, &b->t_act, due);
}

static int64_t chat_period_ms(bot *b)
{
    /* +-20 % so the bots do not fall into step. */
    double p = bench.o.chat_every * 1000.0 * (0.8 + 0.4 * rng_unit(&b->rng));
    return p < 1 ? 1 : (int64_t)p;
}

void behave_joined(bot *b)
{
    int64_t now = bench.loop.now_ms;
    switch (bench.o.scenario) {
    case SC_IDLE:
    case SC_EXPLOSION: break; /* they stand at the spawn (explode.c does the rest) */
    case SC_WALK:
    case SC_CROWD:
        pick_target(b);
        b->next_move_ms = first_move_ms(b, now);
        break;
    case SC_CHAT: break;
    case SC_SPREAD: spread_start(b); break;
    case SC_CHURN: {
        double stay = bench.o.stay_min + (bench.o.stay_max - bench.o.stay_min) * rng_unit(&b->rng);
        b->leave_at_ms = now + (int64_t)(stay * 1000.0);
        if (b->leave_at_ms <= now) b->leave_at_ms = now + 1;
        break;
    }
    case SC_SCRIPT: script_start(b); break;
    }
    if (bench.o.chat_every > 0 && bench.o.scenario != SC_SCRIPT)
        b->next_chat_ms = now + (int64_t)(rng_unit(&b->rng) * bench.o.chat_every * 1000.0) + 1;
    behave_rearm(b);
}

void behave_after_teleport(bot *b)
{
    /* The server moved us (a correction or a teleport): carry on from there.
     * A walk target stays; only the chunk-wait clock needs a look, and a
     * spread bot checks whether this was its teleport. */
    if (!b->ever_joined) return;
    spread_after_teleport(b);
    behave_check_chunk_wait(b);
    behave_rearm(b);
}

void behave_on_act(loop_timer *n)
{
    bot *b = container_of(n, bot, t_act);
    if (b->state == BS_LEFT) { /* churn: the pause is over */
        bench.rejoins_pending--;
        if (!bench.stopping) bench_enqueue_join(b);
        return;
    }
    if (b->state != BS_PLAY) return;
    int64_t now = bench.loop.now_ms;
    if (b->leave_at_ms && now >= b->leave_at_ms) {
        b->leave_at_ms = 0;
        bot_leave(b, bench.o.scenario == SC_CHURN);
        return;
    }
    if (b->spread == SP_ASKED && now >= b->spread_deadline_ms) spread_timed_out(b, now);
    if (b->moving && now >= b->next_move_ms) {
        bool arrived = step(b);
        if (b->state != BS_PLAY) return; /* the send failed the bot */
        b->next_move_ms += MOVE_TICK_MS;
        if (b->next_move_ms <= now) b->next_move_ms = first_move_ms(b, now); /* invariant 2 */
        if (arrived) {
            if (bench.o.scenario == SC_SCRIPT) {
                b->moving = false;
                if (b->wait == SW_MOVE) script_wake(b);
            } else if (b->spread == SP_WALKING) {
                spread_arrived(b);
            } else {
                pick_target(b);
            }
            if (b->state != BS_PLAY) return;
        }
    }
    if (b->next_chat_ms && now >= b->next_chat_ms) {
        char msg[64];
        int len = snprintf(msg, sizeof msg, "hello from %s #%u", b->name, ++b->chat_seq);
        send_chat(b, msg, (size_t)len);
        b->next_chat_ms = now + chat_period_ms(b);
        if (b->state != BS_PLAY) return;
    }
    if ((b->wait == SW_TIMER || b->wait == SW_CHAT) && b->script_wake_ms &&
        now >= b->script_wake_ms) {
        b->script_wake_ms = 0;
        script_wake(b);
        if (b->state != BS_PLAY) return;
    }
    behave_rearm(b);
}
