/*
 * cmd_border.c — /worldborder, as vanilla 1.20.1's WorldBorderCommand:
 * add, set, center, damage amount / buffer, get, warning distance / time,
 * with its checks, numbers (String.format's "%.1f", "%.2f", "%.0f") and
 * messages. The border itself is game/border.h.
 */
#include <math.h>
#include <stdio.h>

#include "game/border.h"
#include "game/cmd_internal.h"

/* setSize: vanilla's checks, then at once or over `ms`. */
static int set_size(cmd_ctx *x, double size, int64_t ms)
{
    double now = border_size();
    char a[40], t[24];
    if (now == size) {
        cmd_failure0(x, "commands.worldborder.set.failed.nochange");
        return -1;
    }
    if (size < 1) {
        cmd_failure0(x, "commands.worldborder.set.failed.small");
        return -1;
    }
    if (size > BORDER_MAX_SIZE) {
        cmd_java_number(a, sizeof a, BORDER_MAX_SIZE, false);
        chat_arg arg = chat_text(a);
        cmd_failure(x, "commands.worldborder.set.failed.big", &arg, 1);
        return -1;
    }
    cmd_java_fixed(a, sizeof a, size, 1);
    if (ms > 0) {
        border_lerp(now, size, ms);
        snprintf(t, sizeof t, "%lld", (long long)(ms / 1000));
        chat_arg args[2] = {chat_text(a), chat_text(t)};
        cmd_success(x, true,
                    size > now ? "commands.worldborder.set.grow"
                               : "commands.worldborder.set.shrink",
                    args, 2);
    } else {
        border_set_size(size);
        chat_arg arg = chat_text(a);
        cmd_success(x, true, "commands.worldborder.set.immediate", &arg, 1);
    }
    return 0;
}

static int center(cmd_ctx *x)
{
    double p[3];
    cmd_coords_abs(x->src, &cmd_arg(x->ps, "pos")->u.pos, p);
    /* vanilla's Vec2 holds floats */
    double cx = (float)p[0], cz = (float)p[2];
    const struct border_settings *s = border_get();
    if (s->center_x == cx && s->center_z == cz) {
        cmd_failure0(x, "commands.worldborder.center.failed");
        return -1;
    }
    if (fabs(cx) > BORDER_MAX_FAR || fabs(cz) > BORDER_MAX_FAR) {
        char a[40];
        cmd_java_number(a, sizeof a, BORDER_MAX_FAR, false);
        chat_arg arg = chat_text(a);
        cmd_failure(x, "commands.worldborder.set.failed.far", &arg, 1);
        return -1;
    }
    border_set_center(cx, cz);
    char a[40], b[40];
    cmd_java_fixed(a, sizeof a, cx, 2);
    cmd_java_fixed(b, sizeof b, cz, 2);
    chat_arg args[2] = {chat_text(a), chat_text(b)};
    cmd_success(x, true, "commands.worldborder.center.success", args, 2);
    return 0;
}

/* damage amount / buffer, warning distance / time: one setting each. */
struct setting {
    const char *group, *literal, *arg, *failed, *success;
    int decimals; /* the message's "%.2f"; -1: an integer */
};

static const struct setting settings[4] = {
    {"damage", "amount", "damagePerBlock", "commands.worldborder.damage.amount.failed",
     "commands.worldborder.damage.amount.success", 2},
    {"damage", "buffer", "distance", "commands.worldborder.damage.buffer.failed",
     "commands.worldborder.damage.buffer.success", 2},
    {"warning", "distance", "distance", "commands.worldborder.warning.distance.failed",
     "commands.worldborder.warning.distance.success", -1},
    {"warning", "time", "time", "commands.worldborder.warning.time.failed",
     "commands.worldborder.warning.time.success", -1},
};

static int set_setting(cmd_ctx *x, int k)
{
    const struct setting *t = &settings[k];
    struct border_settings s = *border_get();
    const struct cmd_value *v = cmd_arg(x->ps, t->arg);
    double now[4] = {s.damage_per_block, s.safe_zone, s.warning_blocks, s.warning_time};
    /* vanilla's floats (damage) and ints (warning) */
    double want = t->decimals < 0 ? (double)v->u.i : (double)(float)v->u.d;
    if (now[k] == want) {
        cmd_failure0(x, t->failed);
        return -1;
    }
    now[k] = want;
    if (k < 2)
        border_set_damage(now[0], now[1]);
    else
        border_set_warning((int32_t)now[2], (int32_t)now[3]);
    char a[40];
    if (t->decimals < 0)
        snprintf(a, sizeof a, "%d", v->u.i);
    else
        cmd_java_fixed(a, sizeof a, want, t->decimals);
    chat_arg arg = chat_text(a);
    cmd_success(x, true, t->success, &arg, 1);
    return 0;
}

int cmd_worldborder(cmd_ctx *x)
{
    if (cmd_has_literal(x->ps, "get")) {
        char a[40];
        cmd_java_fixed(a, sizeof a, border_size(), 0);
        chat_arg arg = chat_text(a);
        cmd_success(x, false, "commands.worldborder.get", &arg, 1);
        return 0;
    }
    if (cmd_has_literal(x->ps, "center")) return center(x);
    for (int k = 0; k < 4; k++)
        if (cmd_has_literal(x->ps, settings[k].group) &&
            cmd_has_literal(x->ps, settings[k].literal))
            return set_setting(x, k);
    bool add = cmd_has_literal(x->ps, "add");
    const struct cmd_value *t = cmd_arg(x->ps, "time");
    double d = cmd_arg(x->ps, "distance")->u.d;
    int64_t ms = t ? (int64_t)t->u.i * 1000 : 0;
    /* add: relative to the size now, and the time adds to a move's remaining time */
    if (add && t) ms += border_remaining_ms();
    return set_size(x, add ? border_size() + d : d, ms);
}
