/*
 * tablist.c — see tablist.h. The selection keeps the TAB_SHOWN best seen
 * so far in a max-heap: an entry that sorts after the heap's root (the
 * worst of them) is passed over with one comparison, which is what almost
 * every entry of a large server costs.
 */
#include "game/tablist.h"

#include <strings.h>

int tab_order(const struct tab_entry *a, const struct tab_entry *b)
{
    if (a->spectator != b->spectator) return a->spectator ? 1 : -1;
    return strcasecmp(a->name, b->name);
}

static void sift_up(const struct tab_entry **h, size_t at, const struct tab_entry *e)
{
    for (; at && tab_order(h[(at - 1) / 2], e) < 0; at = (at - 1) / 2) h[at] = h[(at - 1) / 2];
    h[at] = e;
}

static void sift_down(const struct tab_entry **h, size_t n, const struct tab_entry *e)
{
    size_t at = 0;
    for (;;) {
        size_t c = 2 * at + 1;
        if (c >= n) break;
        if (c + 1 < n && tab_order(h[c + 1], h[c]) > 0) c++;
        if (tab_order(h[c], e) <= 0) break;
        h[at] = h[c];
        at = c;
    }
    h[at] = e;
}

size_t tab_select_shown(const struct tab_entry *in, size_t n, const struct tab_entry **out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k < TAB_SHOWN)
            sift_up(out, k++, &in[i]);
        else if (tab_order(&in[i], out[0]) < 0)
            sift_down(out, k, &in[i]);
    }
    return k;
}
