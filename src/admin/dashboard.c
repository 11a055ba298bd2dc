/*
 * dashboard.c — see dashboard.h. The page is built once from fragments:
 * each fragment brings its markup (panels inside <main>), its style and its
 * script; the page joins every fragment's style into one <style> and every
 * script into one <script>, and the CSP names those two by their SHA-256
 * (base64), so a browser runs nothing else on this origin. A new panel
 * (another issue's) is one more row in `fragments` with self-contained
 * markup, style and script (an IIFE: the scripts share one scope).
 *
 * The main fragment's data flow, once a second:
 *   /api/status  -> cards, events, pre-generation progress, map markers
 *   /api/history -> the charts (auto-scaled; MSPT with its 50 ms budget)
 *   /api/players/N -> the player table, one page of 100
 *   /map/tiles/z/x/z.png -> the map (canvas: pan by dragging, zoom by wheel
 *     or buttons; tiles refetched every 5 s; 202 = ask again, 204 = empty)
 * For tests, <body data-points data-players data-tiles data-events
 * data-rows> tells what was drawn.
 */
#include "admin/dashboard.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/flame.h"
#include "admin/map.h"

static const char page_head[] =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>mcserv dashboard</title>\n<style>";

static const char page_top[] = "</style>\n</head>\n<body data-points=\"0\" data-players=\"0\">\n"
                               "<header><h1>mcserv</h1><span id=\"motd\"></span><span "
                               "id=\"meta\"></span><span id=\"err\"></span></header>\n"
                               "<main id=\"panels\">\n";

static const char page_scripts[] = "</main>\n<script>";

static const char page_tail[] = "</script>\n</body>\n</html>\n";

/* ------------------------------------------------------ the main fragment */

static const char main_style[] =
    "body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#14171c;color:#dde3ea}\n"
    "header{padding:10px 18px;background:#1d2229;border-bottom:1px solid "
    "#2c333d;display:flex;gap:18px;align-items:baseline;flex-wrap:wrap}\n"
    "h1{font-size:18px;margin:0}h2{font-size:15px;margin:0 0 "
    "8px;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}\n"
    "h2 small{color:#9aa7b4;font-weight:normal;font-size:12px}\n"
    "#motd,#meta{color:#9aa7b4}#err{color:#ff7b72}\n"
    "main{display:grid;grid-template-columns:repeat(12,1fr);gap:12px;padding:12px}\n"
    "section{background:#1d2229;border:1px solid "
    "#2c333d;border-radius:6px;padding:10px;min-width:0}\n"
    ".w12{grid-column:span 12}.w8{grid-column:span 8}.w4{grid-column:span 4}.w6{grid-column:span "
    "6}\n"
    "@media(max-width:1100px){.w8,.w4,.w6{grid-column:span 12}}\n"
    ".cards{display:flex;gap:10px;flex-wrap:wrap}.card{flex:1;min-width:110px;background:#242a33;"
    "border-radius:5px;padding:8px}\n"
    ".card b{display:block;font-size:21px;font-variant-numeric:tabular-nums}.card "
    "span{color:#9aa7b4;font-size:12px}\n"
    ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:10px}\n"
    ".chart h3{font-size:12px;font-weight:normal;color:#9aa7b4;margin:0 0 2px}\n"
    "canvas{width:100%;display:block;background:#10131a;border-radius:4px}\n"
    "#map{height:560px;cursor:grab;touch-action:none}\n"
    ".bar{height:8px;background:#242a33;border-radius:4px;overflow:hidden;margin:6px 0}.bar "
    "i{display:block;height:100%;width:0;background:#3fb950}\n"
    "table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
    "th,td{text-align:left;padding:3px 6px;border-bottom:1px solid "
    "#2c333d;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\n"
    "th{color:#9aa7b4;font-weight:normal}\n"
    "button{background:#242a33;color:#dde3ea;border:1px solid "
    "#2c333d;border-radius:4px;padding:2px 9px;font:inherit;cursor:pointer}\n"
    "button:disabled{opacity:.4;cursor:default}button.on{border-color:#58a6ff}\n"
    "#events{list-style:none;margin:0;padding:0;max-height:560px;overflow:auto;font-size:12px}\n"
    "#events li{padding:3px 0;border-bottom:1px solid #2c333d;word-break:break-word}\n"
    "#events time{color:#9aa7b4;margin-right:6px}\n"
    ".k-join{color:#3fb950}.k-leave{color:#9aa7b4}.k-kick{color:#d29922}.k-warning{color:#d29922}."
    "k-error{color:#ff7b72}\n"
    ".muted{color:#9aa7b4;font-size:12px}\n";

static const char main_markup[] =
    "<section class=\"w12\" id=\"panel-server\"><div class=\"cards\">\n"
    "<div class=\"card\"><b id=\"tps\">-</b><span>TPS (5 s)</span></div>\n"
    "<div class=\"card\"><b id=\"mspt\">-</b><span>MSPT median / p95 (5 s)</span></div>\n"
    "<div class=\"card\"><b id=\"online\">-</b><span>players</span></div>\n"
    "<div class=\"card\"><b id=\"chunks\">-</b><span>loaded chunks</span></div>\n"
    "<div class=\"card\"><b id=\"rss\">-</b><span>memory (RSS)</span></div>\n"
    "<div class=\"card\"><b id=\"cpu\">-</b><span>CPU (% of a core)</span></div>\n"
    "<div class=\"card\"><b id=\"net\">-</b><span>network in / out</span></div></div></section>\n"
    "<section class=\"w12\" id=\"panel-charts\"><h2>Last <button id=\"r10\" class=\"on\">10 "
    "min</button><button id=\"r60\">hour</button>\n"
    "<small>1 s samples for 10 minutes, 10 s means beyond</small></h2><div class=\"charts\">\n"
    "<div class=\"chart\"><h3>MSPT: median (blue), max (yellow); red: the 50 ms budget</h3><canvas "
    "id=\"c-mspt\" width=\"600\" height=\"170\"></canvas></div>\n"
    "<div class=\"chart\"><h3>TPS</h3><canvas id=\"c-tps\" width=\"600\" "
    "height=\"170\"></canvas></div>\n"
    "<div class=\"chart\"><h3>players</h3><canvas id=\"c-players\" width=\"600\" "
    "height=\"170\"></canvas></div>\n"
    "<div class=\"chart\"><h3>loaded chunks</h3><canvas id=\"c-chunks\" width=\"600\" "
    "height=\"170\"></canvas></div>\n"
    "<div class=\"chart\"><h3>memory (RSS, MiB)</h3><canvas id=\"c-rss\" width=\"600\" "
    "height=\"170\"></canvas></div>\n"
    "<div class=\"chart\"><h3>CPU (% of one core, every thread)</h3><canvas id=\"c-cpu\" "
    "width=\"600\" height=\"170\"></canvas></div>\n"
    "<div class=\"chart\"><h3>network KiB/s: in (green), out (blue)</h3><canvas id=\"c-net\" "
    "width=\"600\" height=\"170\"></canvas></div>\n"
    "</div></section>\n"
    "<section class=\"w8\" id=\"panel-map\"><h2>Map <button id=\"zin\">+</button><button "
    "id=\"zout\">&minus;</button><button id=\"home\">spawn</button>\n"
    "<small id=\"mapinfo\"></small></h2><canvas id=\"map\" width=\"900\" height=\"560\"></canvas>\n"
    "<div id=\"pregen\" class=\"muted\"></div><div class=\"bar\" id=\"pgbar\" hidden><i "
    "id=\"pgfill\"></i></div></section>\n"
    "<section class=\"w4\" id=\"panel-events\"><h2>Latest events</h2><ul "
    "id=\"events\"></ul></section>\n"
    "<section class=\"w12\" id=\"panel-players\"><h2>Players <small id=\"ppage\"></small><button "
    "id=\"pprev\">&larr;</button><button id=\"pnext\">&rarr;</button></h2>\n"
    "<table><thead><tr><th>name</th><th>x</th><th>y</th><th>z</th><th>mode</th><th>ping</th></tr></"
    "thead><tbody id=\"players\"></tbody></table></section>\n";

static const char main_script[] =
    "'use strict';\n"
    "const $ = (id) => document.getElementById(id);\n"
    "const MODES = ['survival', 'creative', 'adventure', 'spectator'];\n"
    "const fmt = (v, d) => Number.isFinite(v) ? v.toFixed(d) : '-';\n"
    "// Milliseconds with microseconds when small: 0.042 -> \"42 µs\".\n"
    "function ms(v) {\n"
    "  if (!Number.isFinite(v)) return '-';\n"
    "  if (v < 1) return Math.round(v * 1000) + ' \\u00b5s';\n"
    "  return v < 10 ? v.toFixed(2) + ' ms' : v.toFixed(1) + ' ms';\n"
    "}\n"
    "function bytes(mib) { return mib >= 1024 ? (mib / 1024).toFixed(2) + ' GiB' : mib.toFixed(1) "
    "+ ' MiB'; }\n"
    "function kib(v) { return v >= 1024 ? (v / 1024).toFixed(1) + ' MiB/s' : v.toFixed(1) + ' "
    "KiB/s'; }\n"
    "const state = { status: null, hist: null, range: 600, page: 0 };\n"
    "\n"
    "/* ---------------------------------------------------------------- charts */\n"
    "// The smallest \"nice\" number (1, 2, 5 x 10^k) at least v.\n"
    "function nice(v) {\n"
    "  if (!(v > 0)) return 1;\n"
    "  const p = Math.pow(10, Math.floor(Math.log10(v)));\n"
    "  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;\n"
    "  return 10 * p;\n"
    "}\n"
    "// One chart: lines [{col, color}] of rows, y from 0 to an auto-scaled top.\n"
    "function chart(id, rows, lines, label, opts) {\n"
    "  const c = $(id), g = c.getContext('2d'), W = c.width, H = c.height, L = 58, R = 8, T = 8, B "
    "= 18;\n"
    "  g.clearRect(0, 0, W, H);\n"
    "  g.font = '11px sans-serif';\n"
    "  let top = 0;\n"
    "  for (const r of rows) for (const l of lines) top = Math.max(top, r[l.col]);\n"
    "  top = opts && opts.fixed ? opts.fixed : nice(top * 1.1 || (opts && opts.min) || 1);\n"
    "  if (opts && opts.min && top < opts.min) top = opts.min;\n"
    "  const pw = W - L - R, ph = H - T - B;\n"
    "  g.strokeStyle = '#2c333d'; g.fillStyle = '#9aa7b4'; g.lineWidth = 1;\n"
    "  for (let i = 0; i <= 4; i++) {\n"
    "    const y = T + ph * i / 4;\n"
    "    g.beginPath(); g.moveTo(L, y); g.lineTo(W - R, y); g.stroke();\n"
    "    g.fillText(label(top * (4 - i) / 4), 4, y + 4);\n"
    "  }\n"
    "  if (!rows.length) { g.fillText('no samples yet', L + 8, T + 16); return 0; }\n"
    "  // The window: the chosen range, or less (at least 30 s) while the samples are fewer.\n"
    "  const t1 = Date.now(), t0 = Math.max(t1 - state.range * 1000, Math.min(rows[0][0], t1 - "
    "30000));\n"
    "  const X = (t) => L + pw * (t - t0) / (t1 - t0), Y = (v) => T + ph * (1 - Math.min(v, top) / "
    "top);\n"
    "  if (opts && opts.budget) {\n"
    "    g.strokeStyle = '#ff7b72'; g.setLineDash([5, 4]);\n"
    "    if (opts.budget <= top) { g.beginPath(); g.moveTo(L, Y(opts.budget)); g.lineTo(W - R, "
    "Y(opts.budget)); g.stroke(); }\n"
    "    else { g.fillStyle = '#ff7b72'; g.fillText('budget ' + label(opts.budget) + ' (above)', W "
    "- R - 130, T + 12); }\n"
    "    g.setLineDash([]);\n"
    "  }\n"
    "  for (const l of lines) {\n"
    "    g.strokeStyle = l.color; g.lineWidth = 2; g.beginPath();\n"
    "    let n = 0;\n"
    "    for (const r of rows) { if (r[0] < t0) continue; const x = X(r[0]), y = Y(r[l.col]); n++ "
    "? g.lineTo(x, y) : g.moveTo(x, y); }\n"
    "    if (n === 1) g.lineTo(X(rows[rows.length - 1][0]) - 3, Y(rows[rows.length - 1][l.col]));\n"
    "    g.stroke();\n"
    "  }\n"
    "  g.fillStyle = '#9aa7b4';\n"
    "  const span = (t1 - t0) / 1000;\n"
    "  g.fillText(span >= 3600 ? '1 hour ago' : span >= 120 ? Math.round(span / 60) + ' minutes "
    "ago' : Math.round(span) + ' s ago', L, H - 4);\n"
    "  g.fillText('now', W - R - 22, H - 4);\n"
    "  return rows.length;\n"
    "}\n"
    "// The rows for the chosen range: 1 s samples, and 10 s ones before them for the hour.\n"
    "function rowsFor() {\n"
    "  const h = state.hist;\n"
    "  if (!h) return [];\n"
    "  const fine = h.fine.rows, t0 = Date.now() - state.range * 1000;\n"
    "  if (state.range <= 600) return fine.filter((r) => r[0] >= t0);\n"
    "  const first = fine.length ? fine[0][0] : Infinity;\n"
    "  return h.coarse.rows.filter((r) => r[0] >= t0 && r[0] < first).concat(fine);\n"
    "}\n"
    "function charts() {\n"
    "  const rows = rowsFor(), n = (v) => fmt(v, v < 10 && v % 1 ? 1 : 0);\n"
    "  const pts = chart('c-mspt', rows, [{ col: 3, color: '#d29922' }, { col: 2, color: '#58a6ff' "
    "}], ms, { budget: 50, min: 0.1 });\n"
    "  chart('c-tps', rows, [{ col: 1, color: '#3fb950' }], (v) => fmt(v, 0), { fixed: 20 });\n"
    "  chart('c-players', rows, [{ col: 4, color: '#ffdf5d' }], n, { min: 4 });\n"
    "  chart('c-chunks', rows, [{ col: 5, color: '#56d364' }], n, { min: 4 });\n"
    "  chart('c-rss', rows, [{ col: 6, color: '#bc8cff' }], (v) => fmt(v, 0), { min: 4 });\n"
    "  chart('c-cpu', rows, [{ col: 7, color: '#ff7b72' }], (v) => fmt(v, 0) + '%', { min: 10 });\n"
    "  chart('c-net', rows, [{ col: 8, color: '#3fb950' }, { col: 9, color: '#58a6ff' }], (v) => "
    "fmt(v, 0), { min: 1 });\n"
    "  document.body.dataset.points = String(pts);\n"
    "}\n"
    "\n"
    "/* ---------------------------------------------------------------- map */\n"
    "// The view: the block at the canvas centre, and canvas pixels per block.\n"
    "const view = { x: 0, z: 0, scale: 1, homed: false };\n"
    "const tiles = new Map(); // \"zoom/x/z\" -> {bmp, empty, loading, fetched}\n"
    "let hover = null, drawnPlayers = 0;\n"
    "function tileZoom() { return Math.max(0, Math.min(3, Math.floor(Math.log2(1 / view.scale)))); "
    "}\n"
    "function fetchTile(key, url) {\n"
    "  const e = tiles.get(key) || {};\n"
    "  e.loading = true; tiles.set(key, e);\n"
    "  fetch(url, { cache: 'no-store' }).then(async (r) => {\n"
    "    if (r.status === 200) { e.bmp = await createImageBitmap(await r.blob()); e.empty = false; "
    "e.fetched = Date.now(); }\n"
    "    else if (r.status === 204) { e.bmp = null; e.empty = true; e.fetched = Date.now(); }\n"
    "    else e.fetched = Date.now() - 4000; // 202: being drawn, ask again in a second\n"
    "  }).catch(() => { e.fetched = Date.now(); }).finally(() => { e.loading = false; drawMap(); "
    "});\n"
    "}\n"
    "function drawMap() {\n"
    "  const c = $('map');\n"
    "  // The bitmap follows the element's size, so a block stays square.\n"
    "  if (c.clientWidth && (c.width !== c.clientWidth || c.height !== c.clientHeight)) { c.width "
    "= c.clientWidth; c.height = c.clientHeight; }\n"
    "  const g = c.getContext('2d'), W = c.width, H = c.height;\n"
    "  g.fillStyle = '#10131a'; g.fillRect(0, 0, W, H);\n"
    "  g.imageSmoothingEnabled = view.scale < 1;\n"
    "  const z = tileZoom(), span = 256 << z; // blocks per tile\n"
    "  const bx0 = view.x - W / 2 / view.scale, bz0 = view.z - H / 2 / view.scale;\n"
    "  const tx0 = Math.floor(bx0 / span), tz0 = Math.floor(bz0 / span);\n"
    "  const tx1 = Math.floor((bx0 + W / view.scale) / span), tz1 = Math.floor((bz0 + H / "
    "view.scale) / span);\n"
    "  const sx = (bx) => (bx - view.x) * view.scale + W / 2, sz = (bz) => (bz - view.z) * "
    "view.scale + H / 2;\n"
    "  let drawn = 0;\n"
    "  const now = Date.now();\n"
    "  for (let tz = tz0; tz <= tz1; tz++) for (let tx = tx0; tx <= tx1; tx++) {\n"
    "    const key = z + '/' + tx + '/' + tz, e = tiles.get(key);\n"
    "    if ((!e || (!e.loading && now - (e.fetched || 0) > 5000)) && tiles.size < 4000) "
    "fetchTile(key, '/map/tiles/' + key + '.png');\n"
    "    if (e && e.bmp) { g.drawImage(e.bmp, sx(tx * span), sz(tz * span), span * view.scale + "
    "0.5, span * view.scale + 0.5); drawn++; }\n"
    "  }\n"
    "  if (tiles.size > 3000) for (const [k, e] of tiles) if (!e.loading && now - (e.fetched || 0) "
    "> 60000) tiles.delete(k);\n"
    "  const s = state.status;\n"
    "  drawnPlayers = 0;\n"
    "  if (s) {\n"
    "    // spawn: a white cross in a circle\n"
    "    const [spx, , spz] = s.world.spawn, x = sx(spx), y = sz(spz);\n"
    "    g.strokeStyle = '#fff'; g.lineWidth = 2; g.beginPath(); g.arc(x, y, 7, 0, 7); g.moveTo(x "
    "- 5, y); g.lineTo(x + 5, y); g.moveTo(x, y - 5); g.lineTo(x, y + 5); g.stroke();\n"
    "    if (s.map && s.map.world_border) {\n"
    "      const b = s.map.world_border, r = b.size / 2;\n"
    "      g.strokeStyle = '#ff7b72'; g.strokeRect(sx(b.center_x - r), sz(b.center_z - r), 2 * r * "
    "view.scale, 2 * r * view.scale);\n"
    "    }\n"
    "    // players: a triangle pointing where they look (yaw 0 = south, 90 = west)\n"
    "    for (const p of s.players.list) {\n"
    "      const px = sx(p.x), py = sz(p.z);\n"
    "      if (px < -10 || py < -10 || px > W + 10 || py > H + 10) continue;\n"
    "      const a = p.yaw * Math.PI / 180, dx = -Math.sin(a), dz = Math.cos(a);\n"
    "      g.fillStyle = '#ffdf5d'; g.strokeStyle = '#000'; g.lineWidth = 1.5; g.beginPath();\n"
    "      g.moveTo(px + dx * 11, py + dz * 11);\n"
    "      g.lineTo(px - dx * 6 - dz * 6, py - dz * 6 + dx * 6);\n"
    "      g.lineTo(px - dx * 6 + dz * 6, py - dz * 6 - dx * 6);\n"
    "      g.closePath(); g.fill(); g.stroke();\n"
    "      drawnPlayers++;\n"
    "    }\n"
    "    if (hover) {\n"
    "      let best = null, bd = 12;\n"
    "      for (const p of s.players.list) { const d = Math.hypot(sx(p.x) - hover[0], sz(p.z) - "
    "hover[1]); if (d < bd) { bd = d; best = p; } }\n"
    "      if (best) {\n"
    "        const t = best.name + '  ' + Math.round(best.x) + ', ' + Math.round(best.y) + ', ' + "
    "Math.round(best.z);\n"
    "        g.font = '13px sans-serif'; const w = g.measureText(t).width;\n"
    "        g.fillStyle = 'rgba(0,0,0,.75)'; g.fillRect(hover[0] + 10, hover[1] - 24, w + 10, "
    "20);\n"
    "        g.fillStyle = '#fff'; g.fillText(t, hover[0] + 15, hover[1] - 9);\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  // scale bar: a round number of blocks about 120 pixels long\n"
    "  const blocks = nice(120 / view.scale), len = blocks * view.scale;\n"
    "  g.fillStyle = 'rgba(0,0,0,.6)'; g.fillRect(10, H - 30, len + 70, 22);\n"
    "  g.strokeStyle = '#fff'; g.lineWidth = 2; g.beginPath(); g.moveTo(16, H - 14); g.lineTo(16 + "
    "len, H - 14); g.moveTo(16, H - 19); g.lineTo(16, H - 10); g.moveTo(16 + len, H - 19); "
    "g.lineTo(16 + len, H - 10); g.stroke();\n"
    "  g.fillStyle = '#fff'; g.font = '12px sans-serif'; g.fillText(blocks + ' blocks', 22 + len, "
    "H - 14);\n"
    "  document.body.dataset.tiles = String(drawn);\n"
    "  document.body.dataset.players = String(drawnPlayers);\n"
    "  $('mapinfo').textContent = 'centre ' + Math.round(view.x) + ', ' + Math.round(view.z) + ' "
    "\\u00b7 zoom ' + z + ' (1 px = ' + (1 << z) + ' block' + (z ? 's' : '') + ')' +\n"
    "    (s && s.map && !s.map.world_border ? ' \\u00b7 no world border set' : '');\n"
    "}\n"
    "function zoomBy(f, cx, cz) {\n"
    "  const c = $('map'), ns = Math.max(1 / 16, Math.min(8, view.scale * f));\n"
    "  if (cx !== undefined) { // keep the block under the cursor in place\n"
    "    const bx = view.x + (cx - c.width / 2) / view.scale, bz = view.z + (cz - c.height / 2) / "
    "view.scale;\n"
    "    view.x = bx - (cx - c.width / 2) / ns; view.z = bz - (cz - c.height / 2) / ns;\n"
    "  }\n"
    "  view.scale = ns; drawMap();\n"
    "}\n"
    "function canvasXY(ev) { const c = $('map'), r = c.getBoundingClientRect(); return "
    "[(ev.clientX - r.left) * c.width / r.width, (ev.clientY - r.top) * c.height / r.height]; }\n"
    "let drag = null;\n"
    "$('map').addEventListener('pointerdown', (ev) => { drag = canvasXY(ev); "
    "$('map').setPointerCapture(ev.pointerId); });\n"
    "$('map').addEventListener('pointermove', (ev) => {\n"
    "  const p = canvasXY(ev);\n"
    "  if (drag) { view.x -= (p[0] - drag[0]) / view.scale; view.z -= (p[1] - drag[1]) / "
    "view.scale; drag = p; }\n"
    "  hover = p; drawMap();\n"
    "});\n"
    "$('map').addEventListener('pointerup', () => { drag = null; });\n"
    "$('map').addEventListener('pointerleave', () => { hover = null; drawMap(); });\n"
    "$('map').addEventListener('wheel', (ev) => { ev.preventDefault(); const p = canvasXY(ev); "
    "zoomBy(ev.deltaY < 0 ? 1.25 : 0.8, p[0], p[1]); }, { passive: false });\n"
    "$('zin').onclick = () => zoomBy(2);\n"
    "$('zout').onclick = () => zoomBy(0.5);\n"
    "$('home').onclick = () => { if (state.status) { view.x = state.status.world.spawn[0]; view.z "
    "= state.status.world.spawn[2]; drawMap(); } };\n"
    "\n"
    "/* ---------------------------------------------------------------- the rest */\n"
    "function events(list) {\n"
    "  const ul = $('events'); ul.replaceChildren();\n"
    "  for (const e of list) {\n"
    "    const li = document.createElement('li'), t = document.createElement('time'), s = "
    "document.createElement('span');\n"
    "    t.textContent = new Date(e.unix_ms).toLocaleTimeString(); s.textContent = e.kind + ': ' + "
    "e.text; s.className = 'k-' + e.kind;\n"
    "    li.append(t, s); ul.appendChild(li);\n"
    "  }\n"
    "  if (!list.length) { const li = document.createElement('li'); li.textContent = 'nothing "
    "yet'; li.className = 'muted'; ul.appendChild(li); }\n"
    "  document.body.dataset.events = String(list.length);\n"
    "}\n"
    "function pregen(p) {\n"
    "  const show = p && p.running;\n"
    "  $('pgbar').hidden = !show;\n"
    "  if (!show) { $('pregen').textContent = ''; return; }\n"
    "  const f = p.total ? p.done / p.total : 1;\n"
    "  $('pgfill').style.width = (f * 100).toFixed(1) + '%';\n"
    "  $('pregen').textContent = 'Pre-generation' + (p.cancelling ? ' (cancelling)' : '') + ': ' + "
    "p.done + ' / ' + p.total + ' chunks (' + (f * 100).toFixed(1) + '%), ' +\n"
    "    Math.round(p.chunks_per_s) + ' chunks/s, ETA ' + (p.eta_s >= 0 ? Math.round(p.eta_s) + ' "
    "s' : 'unknown') + ' \\u00b7 radius ' + p.radius + ' around ' + p.center_x + ', ' + "
    "p.center_z;\n"
    "}\n"
    "function render(s) {\n"
    "  state.status = s;\n"
    "  $('motd').textContent = s.server.motd;\n"
    "  $('meta').textContent = s.server.software + ' ' + s.server.version + ' \\u00b7 up ' + "
    "Math.floor(s.server.uptime_s) + ' s';\n"
    "  $('tps').textContent = fmt(s.tps.last_5s, 1);\n"
    "  $('mspt').textContent = ms(s.mspt.median) + ' / ' + ms(s.mspt.p95);\n"
    "  $('online').textContent = s.players.online + ' / ' + s.players.max;\n"
    "  $('chunks').textContent = String(s.world.loaded_chunks);\n"
    "  if (!view.homed) { view.x = s.world.spawn[0]; view.z = s.world.spawn[2]; view.homed = true; "
    "}\n"
    "  events(s.events || []); pregen(s.pregen); drawMap();\n"
    "}\n"
    "function table(d) {\n"
    "  const tb = $('players'); tb.replaceChildren();\n"
    "  for (const p of d.list) {\n"
    "    const tr = document.createElement('tr');\n"
    "    for (const v of [p.name, fmt(p.x, 1), fmt(p.y, 1), fmt(p.z, 1), MODES[p.gamemode] || "
    "String(p.gamemode), p.ping_ms + ' ms']) {\n"
    "      const td = document.createElement('td'); td.textContent = v; tr.appendChild(td);\n"
    "    }\n"
    "    tb.appendChild(tr);\n"
    "  }\n"
    "  const pages = Math.max(1, d.pages);\n"
    "  if (state.page >= pages) state.page = pages - 1;\n"
    "  $('ppage').textContent = d.online + ' online \\u00b7 page ' + (state.page + 1) + ' of ' + "
    "pages;\n"
    "  $('pprev').disabled = state.page === 0; $('pnext').disabled = state.page + 1 >= pages;\n"
    "  document.body.dataset.rows = String(d.list.length);\n"
    "}\n"
    "$('pprev').onclick = () => { if (state.page > 0) { state.page--; players(); } };\n"
    "$('pnext').onclick = () => { state.page++; players(); };\n"
    "$('r10').onclick = () => { state.range = 600; $('r10').className = 'on'; $('r60').className = "
    "''; charts(); };\n"
    "$('r60').onclick = () => { state.range = 3600; $('r60').className = 'on'; $('r10').className "
    "= ''; charts(); };\n"
    "async function get(url) { const r = await fetch(url, { cache: 'no-store' }); if (!r.ok) throw "
    "new Error('HTTP ' + r.status); return r.json(); }\n"
    "async function players() { try { table(await get('/api/players/' + state.page)); } catch (e) "
    "{ $('err').textContent = 'cannot reach the server: ' + e.message; } }\n"
    "async function poll() {\n"
    "  try {\n"
    "    render(await get('/api/status'));\n"
    "    const h = state.hist = await get('/api/history'), last = h.fine.rows[h.fine.rows.length - "
    "1];\n"
    "    if (last) { $('rss').textContent = bytes(last[6]); $('cpu').textContent = fmt(last[7], 0) "
    "+ '%'; $('net').textContent = kib(last[8]) + ' / ' + kib(last[9]); }\n"
    "    charts(); await players();\n"
    "    $('err').textContent = '';\n"
    "  } catch (e) { $('err').textContent = 'cannot reach the server: ' + e.message; }\n"
    "  setTimeout(poll, 1000);\n"
    "}\n"
    "poll();\n";

/* ------------------------------------------------------------ fragments */

static const struct fragment {
    const char *markup, *style, *script;
} fragments[] = {
    {main_markup, main_style, main_script},
    {flame_section_html, "", flame_script}, /* issue 16: the Profile button (admin/flame.h) */
    /* more panels: {markup, style, script}, */
};
#define NFRAGMENTS (sizeof fragments / sizeof fragments[0])

static char *page;
static size_t page_len;
static char headers[768];

/* "sha256-<base64>" of s into out. */
static void csp_hash(const char *s, char *out, size_t cap)
{
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)s, strlen(s), d);
    char b64[64];
    EVP_EncodeBlock((unsigned char *)b64, d, sizeof d);
    snprintf(out, cap, "'sha256-%s'", b64);
}

/* Every fragment's part k (0 markup, 1 style, 2 script) joined; malloc'ed. */
static char *join(int k)
{
    size_t n = 1;
    for (size_t i = 0; i < NFRAGMENTS; i++) {
        const struct fragment *f = &fragments[i];
        n += strlen(k == 0 ? f->markup : k == 1 ? f->style : f->script);
    }
    char *out = malloc(n);
    if (!out) return NULL;
    out[0] = 0;
    for (size_t i = 0; i < NFRAGMENTS; i++) {
        const struct fragment *f = &fragments[i];
        strcat(out, k == 0 ? f->markup : k == 1 ? f->style : f->script);
    }
    return out;
}

static void build(void)
{
    if (page) return;
    char *markup = join(0), *style = join(1), *script = join(2);
    if (markup && style && script) {
        size_t n = strlen(page_head) + strlen(style) + strlen(page_top) + strlen(markup) +
                   strlen(page_scripts) + strlen(script) + strlen(page_tail);
        page = malloc(n + 1);
        if (page) {
            snprintf(page, n + 1, "%s%s%s%s%s%s%s", page_head, style, page_top, markup,
                     page_scripts, script, page_tail);
            page_len = n;
            char hs[96], hj[96];
            csp_hash(style, hs, sizeof hs);
            csp_hash(script, hj, sizeof hj);
            snprintf(headers, sizeof headers,
                     "Content-Security-Policy: default-src 'none'; script-src %s; style-src %s; "
                     "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
                     "frame-ancestors 'none'\r\nReferrer-Policy: no-referrer\r\n",
                     hj, hs);
        }
    }
    free(markup);
    free(style);
    free(script);
}

const char *dashboard_html(size_t *len)
{
    build();
    if (!page) {
        *len = 0;
        return "";
    }
    *len = page_len;
    return page;
}

const char *dashboard_headers(void)
{
    build();
    return headers;
}

void dashboard_free(void)
{
    map_free(); /* the map's tile cache lives and dies with the dashboard */
    free(page);
    page = NULL;
}
