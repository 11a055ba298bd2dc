/*
 * window.h — the click engine of a container window (vanilla's
 * AbstractContainerMenu.doClick with InventoryMenu's, CraftingMenu's and
 * ChestMenu's slots and quick-move ranges), on slots the caller owns. Pure: no packets,
 * no game state; game/inventory.c wires it to players and the network, the
 * unit tests drive it directly. See window.c for the rules.
 */
#ifndef MC_WINDOW_H
#define MC_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "game/enchant.h"

/* One slot: item id (0 = empty), count (0 when empty), damage (durability
 * used; 0 for an item without durability), enchantments (game/enchant.h).
 * Meaningful only when count > 0. */
struct inv_slot {
    int16_t item;
    int8_t count;
    uint16_t damage;
    uint16_t ench[ITEM_ENCH_MAX];
};

#define WIN_SLOTS_MAX  90 /* a double chest: 54 + the inventory's 36 */
#define WIN_CONT_MAX   54 /* container slots of a WIN_CONTAINER window */
#define WIN_THROWN_MAX 4  /* drops one click can make (see window.c) */
#define WIN_OUTSIDE    (-999)

enum win_kind {
    WIN_PLAYER = 0,    /* the player's own window: 2x2 grid, armour, off hand */
    WIN_CRAFTING = 1,  /* a crafting table: 3x3 grid + the inventory */
    WIN_CONTAINER = 2, /* a chest or barrel (ChestMenu): cont_n slots + the inventory */
};

enum win_mode {
    WIN_PICKUP = 0,
    WIN_QUICK_MOVE = 1,
    WIN_SWAP = 2,
    WIN_CLONE = 3,
    WIN_THROW = 4,
    WIN_QUICK_CRAFT = 5,
    WIN_PICKUP_ALL = 6,
};

/* Drag (quick craft) state, kept across the clicks of one drag. */
struct win_drag {
    uint8_t status;    /* 0 none, 1 collecting slots */
    uint8_t type;      /* 0 split evenly, 1 one each, 2 full stacks (creative) */
    uint64_t slots;    /* bit i: window slot i (0..63) */
    uint64_t slots_hi; /* bit i: window slot 64 + i */
};

struct win_menu {
    enum win_kind kind;
    struct inv_slot *inv;   /* the player's 46 slots, player-window numbering */
    struct inv_slot *table; /* WIN_CRAFTING: result + 3x3 grid (10 slots) */
    struct inv_slot *cont;  /* WIN_CONTAINER: cont_n slots (27 or 54) */
    int cont_n;
    struct inv_slot *carried;
    struct win_drag *drag;
    bool creative;
    /* out: stacks the click threw (Q in a window, clicks outside it, what
     * did not fit); the caller spawns them as item entities. */
    struct inv_slot thrown[WIN_THROWN_MAX];
    int nthrown;
};

/* Per-player window state (embedded in struct player as `win`; used by
 * game/inventory.c). */
struct win_player {
    /* read every tick (game/inventory.c inventory_due) */
    int32_t open_id; /* window id of the open crafting table or container, 0 = none */
    int drop_spam;   /* vanilla dropSpamTickCount: +20 per creative drop, -1 per tick */
    bool synced;     /* remote[] holds what was sent */
    struct inv_slot carried;
    struct inv_slot table[10];             /* open crafting table: result + 3x3 */
    struct inv_slot remote[WIN_SLOTS_MAX]; /* what the client believes (open window) */
    struct inv_slot remote_carried;
    struct win_drag drag;
    struct inv_slot cont[WIN_CONT_MAX]; /* open container: a copy (game/container.c) */
    uint8_t open_kind; /* enum win_kind of the open window (WIN_PLAYER when none) */
    uint8_t cont_n;    /* open container: its slots (27 or 54) */
    int32_t state;     /* state id of the open window (the inventory's is inventory_state) */
    int32_t counter;   /* vanilla containerCounter: ids 1..100 */
    int32_t tx, ty, tz;
    int64_t log_ms;
    uint32_t refused;
};

enum win_result {
    WIN_OK = 0,
    WIN_E_SLOT = -1,   /* no such slot */
    WIN_E_BUTTON = -2, /* no such button for the mode */
    WIN_E_MODE = -3,   /* no such mode */
};

/* Number of slots of the window. */
int win_slot_count(const struct win_menu *m);
/* The storage behind window slot i (0 <= i < win_slot_count), never NULL. */
struct inv_slot *win_slot(struct win_menu *m, int i);
/* Applies one click as vanilla does; the crafting result is recomputed when
 * the grid changed. Returns WIN_OK (even when vanilla would do nothing) or a
 * WIN_E_* code when the click names a slot, button or mode that does not
 * exist (nothing changed). */
int win_click(struct win_menu *m, int slot, int button, int mode);
/* Recomputes the result slot from the grid (after anything changed it). */
void win_update_result(struct win_menu *m);
/* Vanilla Inventory.placeItemBackInInventory: into the selected hotbar slot
 * or the off hand if it stacks there, then stacks with room and empty slots
 * (hotbar first, then the main inventory). Returns what did not fit (its
 * count is 0 when everything did). `selected` is the held hotbar slot 0..8. */
struct inv_slot win_place_back(struct inv_slot *inv, int selected, struct inv_slot s);
/* Max stack size of an item (1 when damaged). */
int win_max_stack(const struct inv_slot *s);

#endif
