/*
 * timer.c — see timer.h. Each slot is a circular doubly linked list with a
 * sentinel head; slot(t) = t mod TW_SLOTS. tw_run scans the slots from `cur`
 * to `now` (one full turn at most), detaching each slot before walking it.
 * Nodes not yet due (a later turn of the wheel) are put back.
 */
#include "core/timer.h"

#define TW_MASK (TW_SLOTS - 1)

static void list_init(tnode *h)
{
    h->prev = h->next = h;
}

void tw_init(twheel *tw, int64_t now_ms)
{
    for (size_t i = 0; i < TW_SLOTS; i++) list_init(&tw->slot[i]);
    tw->cur = now_ms;
    tw->armed = 0;
}

void tm_init(tnode *n, void (*fn)(tnode *))
{
    n->prev = n->next = NULL;
    n->due = 0;
    n->fn = fn;
}

static void link_tail(tnode *h, tnode *n)
{
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
}

void tm_del(twheel *tw, tnode *n)
{
    if (!n->next) return;
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->prev = n->next = NULL;
    tw->armed--;
}

void tm_add(twheel *tw, tnode *n, int64_t due_ms)
{
    tm_del(tw, n);
    n->due = due_ms;
    /* Never into a slot already scanned (invariant 4). */
    int64_t at = due_ms < tw->cur ? tw->cur : due_ms;
    link_tail(&tw->slot[(uint64_t)at & TW_MASK], n);
    tw->armed++;
}

void tw_run(twheel *tw, int64_t now_ms)
{
    /* From `cur` to now. A second run in the same millisecond (now behind
     * `cur`) still scans slot `cur`: it holds what the last run's callbacks
     * re-armed for the past (invariant 4). `cur` moves past `now` before
     * anything fires, so whatever a callback arms lands in a slot this run
     * does not scan: nothing fires twice in one run. `cur` never goes
     * backwards. */
    int64_t start = tw->cur;
    int64_t end = now_ms < start ? start : now_ms;
    if (end - start >= (int64_t)TW_SLOTS) end = start + TW_SLOTS - 1; /* one full turn */
    tw->cur = now_ms + 1 > start ? now_ms + 1 : start;
    for (int64_t t = start; t <= end; t++) {
        tnode *h = &tw->slot[(uint64_t)t & TW_MASK];
        if (h->next == h) continue;
        /* Detach the slot into a local list (invariant 3). */
        tnode local;
        local.next = h->next;
        local.prev = h->prev;
        local.next->prev = &local;
        local.prev->next = &local;
        list_init(h);
        while (local.next != &local) {
            tnode *n = local.next;
            n->prev->next = n->next;
            n->next->prev = n->prev;
            n->prev = n->next = NULL;
            tw->armed--;
            if (n->due > now_ms) {
                /* A later turn: back into its own slot. */
                tw->armed++;
                link_tail(h, n);
                continue;
            }
            n->fn(n);
        }
    }
}

int tw_timeout(const twheel *tw, int64_t now_ms, int max_ms)
{
    if (tw->armed == 0) return max_ms;
    if (tw->cur <= now_ms) return 0;
    int64_t limit = now_ms + max_ms;
    for (int64_t t = tw->cur; t < limit && t < tw->cur + (int64_t)TW_SLOTS; t++) {
        const tnode *h = &tw->slot[(uint64_t)t & TW_MASK];
        if (h->next == h) continue;
        if (t == tw->cur) /* armed for the past (invariant 4): no reason to sleep */
            for (const tnode *n = h->next; n != h; n = n->next)
                if (n->due <= now_ms) return 0;
        return (int)(t - now_ms);
    }
    return max_ms;
}
