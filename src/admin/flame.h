/*
 * flame.h — the dashboard's flame graph (issue 16): a "Profile" button that
 * runs a 10 s CPU profile (GET /debug/pprof/profile?seconds=10&format=
 * collapsed, admin/pprof_http.h) and draws it in the page as an
 * interactive SVG flame graph: hover for a frame's samples, click to zoom.
 * Self-contained, no external assets: one fragment of the dashboard
 * (admin/dashboard.c), whose page joins its markup and script with the
 * other panels' under the page's CSP.
 *
 * Invariants:
 *  1. Function and thread names become text nodes (textContent), never
 *     markup (admin/dashboard.h invariant 1).
 *  2. Both strings are static and never change (their hash is taken once).
 */
#ifndef MC_FLAME_H
#define MC_FLAME_H

/* The section (markup: a heading, the button, a status line, the SVG; a
 * full-width panel of the dashboard's grid). */
extern const char flame_section_html[];
/* The script (without the <script> tags; an IIFE, as the dashboard's
 * fragments are). */
extern const char flame_script[];

#endif
