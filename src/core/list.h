/*
 * list.h — an intrusive, circular, doubly linked list (libuv's queue, the
 * Linux kernel's list_head): a node is embedded in its owner, a list is a
 * sentinel node, and nothing here allocates.
 *
 * The pattern it serves (connections, HTTP and RCON clients): an object
 * lives on its module's `live` list; closing it moves it to the `closed`
 * list in O(1); the module frees the closed list at a safe point (a loop
 * hook, core/loop.h invariant 2).
 *
 * Invariants:
 *  1. A node is on exactly one list, or unlinked (prev == next == itself,
 *     after list_init or list_remove).
 *  2. Iteration that may unlink the current node uses list_for_each_safe.
 */
#ifndef MC_LIST_H
#define MC_LIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct list_node {
    struct list_node *prev, *next;
} list_node;

/* The object that embeds `member` at ptr: container_of(w, struct conn, watch). */
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

/* The owner of a node: list_entry(node, struct conn, link). */
#define list_entry(node, type, member) container_of(node, type, member)

/* pos walks every node of `head`; `tmp` keeps the next one, so the body may
 * unlink or move pos (invariant 2). */
#define list_for_each_safe(pos, tmp, head)                                                         \
    for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head);                               \
         (pos) = (tmp), (tmp) = (pos)->next)

static inline void list_init(list_node *n)
{
    n->prev = n->next = n;
}

static inline bool list_empty(const list_node *head)
{
    return head->next == head;
}

/* True when n is on some list (invariant 1). */
static inline bool list_linked(const list_node *n)
{
    return n->next != n;
}

static inline void list_insert_after(list_node *at, list_node *n)
{
    n->prev = at;
    n->next = at->next;
    at->next->prev = n;
    at->next = n;
}

static inline void list_push_front(list_node *head, list_node *n)
{
    list_insert_after(head, n);
}

static inline void list_push_back(list_node *head, list_node *n)
{
    list_insert_after(head->prev, n);
}

static inline void list_remove(list_node *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    list_init(n);
}

/* Unlinks n from whatever list holds it and puts it at the back of `head`. */
static inline void list_move_back(list_node *head, list_node *n)
{
    list_remove(n);
    list_push_back(head, n);
}

#endif
