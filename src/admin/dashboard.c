/*
 * dashboard.c — see dashboard.h. The page is three C strings (markup,
 * style, script) joined once; the CSP names the style and the script by
 * their SHA-256 (base64), so a browser runs nothing else on this origin.
 *
 * The script's data flow: fetch('/api/status') every second -> render():
 *   cards (textContent), chart (canvas, from status.history),
 *   players table (rows built with createElement + textContent),
 *   map (canvas: a square per loaded chunk, a dot + name per player).
 * For tests, <body data-points="N" data-players="M"> tells what was drawn.
 */
#include "admin/dashboard.h"

#include "admin/map.h"
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char page_head[] =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>mcserv dashboard</title>\n<style>";

static const char style[] =
    "body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#14171c;color:#dde3ea}"
    "header{padding:12px 18px;background:#1d2229;border-bottom:1px solid #2c333d;display:flex;"
    "gap:18px;align-items:baseline;flex-wrap:wrap}"
    "h1{font-size:18px;margin:0}h2{font-size:15px;margin:0 0 8px}"
    "#motd,#meta{color:#9aa7b4}#err{color:#ff7b72}"
    "main{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:14px;"
    "padding:14px}"
    "section{background:#1d2229;border:1px solid #2c333d;border-radius:6px;padding:12px}"
    ".cards{display:flex;gap:10px;flex-wrap:wrap}.card{flex:1;min-width:90px;background:#242a33;"
    "border-radius:5px;padding:8px}.card b{display:block;font-size:22px}.card span{color:#9aa7b4;"
    "font-size:12px}"
    "canvas{width:100%;background:#10131a;border-radius:4px}"
    "table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}"
    "th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #2c333d}th{color:#9aa7b4;"
    "font-weight:normal}.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}"
    ".l1{background:#3fb950}.l2{background:#58a6ff}.l3{background:#d29922}.gap{margin-top:12px}";

static const char page_body[] =
    "</style>\n</head>\n<body data-points=\"0\" data-players=\"0\">\n"
    "<header><h1>mcserv</h1><span id=\"motd\"></span><span id=\"meta\"></span>"
    "<span id=\"err\"></span></header>\n<main>\n"
    "<section><h2>Server</h2><div class=\"cards\">"
    "<div class=\"card\"><b id=\"tps\">-</b><span>TPS (5 s)</span></div>"
    "<div class=\"card\"><b id=\"mspt\">-</b><span>MSPT median / p95</span></div>"
    "<div class=\"card\"><b id=\"online\">-</b><span>players</span></div>"
    "<div class=\"card\"><b id=\"chunks\">-</b><span>loaded chunks</span></div></div>"
    "<h2 class=\"gap\">TPS and MSPT <span class=\"legend\"><i class=\"l1\"></i>TPS"
    "<i class=\"l2\"></i>MSPT median<i class=\"l3\"></i>MSPT max</span></h2>"
    "<canvas id=\"chart\" width=\"640\" height=\"240\"></canvas></section>\n"
    "<section><h2>Map of loaded chunks</h2><canvas id=\"map\" width=\"640\" height=\"400\">"
    "</canvas></section>\n"
    "<section><h2>Players</h2><table><thead><tr><th>name</th><th>x</th><th>y</th><th>z</th>"
    "<th>mode</th><th>ping</th></tr></thead><tbody id=\"players\"></tbody></table></section>\n"
    "</main>\n<script>";

static const char script[] =
    "'use strict';\n"
    "const $=id=>document.getElementById(id);\n"
    "const MODES=['survival','creative','adventure','spectator'];\n"
    "function fmt(v,d){return Number.isFinite(v)?v.toFixed(d):'-'}\n"
    "function chart(h){const c=$('chart'),g=c.getContext('2d'),W=c.width,H=c.height,L=36,R=44,"
    "T=10,B=22;g.clearRect(0,0,W,H);g.font='11px sans-serif';\n"
    " let top=50;for(const p of h)top=Math.max(top,p[3]);top=Math.ceil(top/10)*10;\n"
    " const pw=W-L-R,ph=H-T-B;g.strokeStyle='#2c333d';g.fillStyle='#9aa7b4';g.lineWidth=1;\n"
    " for(let i=0;i<=4;i++){const y=T+ph*i/4;g.beginPath();g.moveTo(L,y);g.lineTo(W-R,y);"
    "g.stroke();g.fillText(String(20-5*i),4,y+4);const ms=top*(4-i)/4;g.fillText(ms.toFixed("
    "ms%1?1:0)+' ms',"
    "W-R+4,y+4)}\n"
    " if(h.length<1)return 0;const t0=h[0][0],t1=Math.max(h[h.length-1][0],t0+1000);\n"
    " const X=t=>L+pw*(t-t0)/(t1-t0);\n"
    " const line=(k,scale,color)=>{g.strokeStyle=color;g.lineWidth=2;g.beginPath();"
    "h.forEach((p,i)=>{const y=T+ph*(1-Math.min(p[k],scale)/scale);i?g.lineTo(X(p[0]),y):"
    "g.moveTo(X(p[0]),y)});if(h.length===1)g.lineTo(X(h[0][0])+3,T+ph*(1-Math.min(h[0][k],"
    "scale)/scale));g.stroke()};\n"
    " line(3,top,'#d29922');line(2,top,'#58a6ff');line(1,20,'#3fb950');\n"
    " g.fillStyle='#9aa7b4';g.fillText(Math.round((t1-t0)/1000)+' s',W/2-10,H-6);return h.length}\n"
    "function map(s){const c=$('map'),g=c.getContext('2d'),W=c.width,H=c.height;"
    "g.clearRect(0,0,W,H);\n"
    " const ch=s.world.chunks,ps=s.players.list;let x0=1e9,x1=-1e9,z0=1e9,z1=-1e9;\n"
    " for(let i=0;i<ch.length;i+=2){x0=Math.min(x0,ch[i]);x1=Math.max(x1,ch[i]);"
    "z0=Math.min(z0,ch[i+1]);z1=Math.max(z1,ch[i+1])}\n"
    " for(const p of ps){const cx=Math.floor(p.x/16),cz=Math.floor(p.z/16);x0=Math.min(x0,cx);"
    "x1=Math.max(x1,cx);z0=Math.min(z0,cz);z1=Math.max(z1,cz)}\n"
    " if(x0>x1){g.fillStyle='#9aa7b4';g.fillText('no chunks loaded',10,20);return}\n"
    " const cs=Math.max(1,Math.min((W-20)/(x1-x0+1),(H-20)/(z1-z0+1)));"
    "const ox=(W-cs*(x1-x0+1))/2,oz=(H-cs*(z1-z0+1))/2;\n"
    " g.fillStyle='#2d6a3e';for(let i=0;i<ch.length;i+=2)g.fillRect(ox+(ch[i]-x0)*cs,"
    "oz+(ch[i+1]-z0)*cs,Math.max(1,cs-(cs>3?1:0)),Math.max(1,cs-(cs>3?1:0)));\n"
    " g.font='12px sans-serif';for(const p of ps){const x=ox+(p.x/16-x0)*cs,y=oz+(p.z/16-z0)*cs;"
    "g.fillStyle='#ffdf5d';g.beginPath();g.arc(x,y,4,0,7);g.fill();g.fillStyle='#fff';"
    "g.fillText(p.name,x+6,y-6)}}\n"
    "function players(list){const tb=$('players');tb.replaceChildren();\n"
    " for(const p of list){const tr=document.createElement('tr');"
    "for(const v of [p.name,fmt(p.x,1),fmt(p.y,1),fmt(p.z,1),MODES[p.gamemode]||String("
    "p.gamemode),p.ping_ms+' ms']){const td=document.createElement('td');td.textContent=v;"
    "tr.appendChild(td)}tb.appendChild(tr)}}\n"
    "function render(s){$('motd').textContent=s.server.motd;$('meta').textContent=s.server."
    "software+' '+s.server.version+' \\u00b7 up '+Math.floor(s.server.uptime_s)+' s';\n"
    " $('tps').textContent=fmt(s.tps.last_5s,1);$('mspt').textContent=fmt(s.mspt.median,1)+' / '"
    "+fmt(s.mspt.p95,1);$('online').textContent=s.players.online+' / '+s.players.max;\n"
    " $('chunks').textContent=String(s.world.loaded_chunks);players(s.players.list);map(s);\n"
    " const n=chart(s.history);document.body.dataset.points=String(n);"
    "document.body.dataset.players=String(s.players.list.length)}\n"
    "async function poll(){try{const r=await fetch('/api/status',{cache:'no-store'});"
    "if(!r.ok)throw new Error('HTTP '+r.status);render(await r.json());$('err').textContent=''"
    "}catch(e){$('err').textContent='cannot reach the server: '+e.message}"
    "setTimeout(poll,1000)}\n"
    "poll();\n";

static const char page_tail[] = "</script>\n</body>\n</html>\n";

static char *page;
static size_t page_len;
static char headers[512];

/* "sha256-<base64>" of s into out. */
static void csp_hash(const char *s, char *out, size_t cap)
{
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)s, strlen(s), d);
    char b64[64];
    EVP_EncodeBlock((unsigned char *)b64, d, sizeof d);
    snprintf(out, cap, "'sha256-%s'", b64);
}

static void build(void)
{
    if (page) return;
    size_t n =
        strlen(page_head) + strlen(style) + strlen(page_body) + strlen(script) + strlen(page_tail);
    page = malloc(n + 1);
    if (!page) return;
    snprintf(page, n + 1, "%s%s%s%s%s", page_head, style, page_body, script, page_tail);
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
