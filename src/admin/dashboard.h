/*
 * dashboard.h — the page at / : a live view for operators, self-contained
 * (inline CSS and JS, no external assets, works offline). It polls
 * /api/status once a second and draws
 *   - a TPS / MSPT chart (canvas) from the status history,
 *   - the player list (name, position, game mode, ping),
 *   - a top-down map of loaded chunks with player positions (canvas).
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
