/*
 * dashboard.h — the page at / : a live view for operators, self-contained
 * (inline CSS and JS, no external assets, works offline). Once a second it
 * reads /api/status, /api/history and a page of /api/players and draws
 *   - cards: TPS, MSPT, players, loaded chunks, memory, CPU, network;
 *   - charts of the last 10 minutes or hour (canvas, auto-scaled; MSPT in
 *     µs when small, with the 50 ms tick budget);
 *   - the live map (canvas over /map/tiles: pan, zoom, players with their
 *     facing and name on hover, the spawn, a scale; admin/map.h), and
 *     pre-generation progress;
 *   - the latest joins, leaves, kicks, warnings and errors;
 *   - the player table, a page of 100 at a time (fast with 10,000 online).
 * The page is made of fragments (dashboard.c): another panel is one more.
 *
 * Invariants:
 *  1. Data never becomes markup: the script writes names with textContent
 *     and draws on canvases; the HTML itself holds no server data.
 *  2. A Content-Security-Policy allows only this page's own inline script
 *     and style (by SHA-256, computed at startup) and fetches to 'self'.
 */
#ifndef MC_DASHBOARD_H
#define MC_DASHBOARD_H

#include <stddef.h>

/* The page (static, NUL-terminated). */
const char *dashboard_html(size_t *len);
/* Extra response headers for the page ("Content-Security-Policy: ...\r\n..."). */
const char *dashboard_headers(void);
void dashboard_free(void);

#endif
