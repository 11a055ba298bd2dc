/*
 * flame.c — see flame.h. The script, in short:
 *
 *   click "Profile" -> fetch /debug/pprof/profile?seconds=10&format=collapsed
 *   -> parse the folded stacks into a tree (root "all", then the thread,
 *      then the frames, each node's value = samples through it)
 *   -> draw(): one <rect> + <title> (+ <text> when wide enough) per node,
 *      children side by side in their parent's width, the root at the
 *      bottom; nodes narrower than half a pixel are left out
 *   -> click a frame: it becomes the full width (zoom); click the root: back
 *
 * Names reach the page only through textContent (flame.h invariant 1).
 * <body data-frames="N"> says how many frames were drawn (tests).
 */
#include "admin/flame.h"

const char flame_section_html[] =
    "<section id=\"profile\" class=\"w12\"><h2>Profile <button id=\"prof-btn\" "
    "type=\"button\">Profile (10 s)</button> <span id=\"prof-status\"></span></h2>"
    "<svg id=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" height=\"40\" "
    "viewBox=\"0 0 1200 40\" preserveAspectRatio=\"none\" font-family=\"monospace\" "
    "font-size=\"11\"></svg></section>\n";

const char flame_script[] =
    "'use strict';\n"
    "(()=>{const $=id=>document.getElementById(id),NS='http://www.w3.org/2000/svg',W=1200,H=17;\n"
    "function parse(text){const root={n:'all',v:0,c:new Map()};\n"
    " for(const line of text.split('\\n')){const i=line.lastIndexOf(' ');if(i<1)continue;\n"
    "  const v=Number(line.slice(i+1));if(!(v>0))continue;root.v+=v;let node=root;\n"
    "  for(const f of line.slice(0,i).split(';')){let ch=node.c.get(f);"
    "if(!ch){ch={n:f,v:0,c:new Map(),p:node};node.c.set(f,ch)}ch.v+=v;node=ch}}\n"
    " return root}\n"
    "function depthOf(n){let d=0;for(const c of n.c.values())d=Math.max(d,depthOf(c)+1);return d}\n"
    "function color(name){let h=0;for(let i=0;i<name.length;i++)h=(h*31+name.charCodeAt(i))>>>0;\n"
    " return 'rgb('+(205+h%50)+','+(80+(h>>8)%130)+','+(30+(h>>16)%50)+')'}\n"
    "let root=null;\n"
    "function draw(focus){const svg=$('flame');svg.replaceChildren();\n"
    " const top=depthOf(focus)+1;let frames=0;let base=0;for(let p=focus.p;p;p=p.p)base++;\n"
    " const height=(top+base)*H;svg.setAttribute('viewBox','0 0 '+W+' '+height);"
    "svg.setAttribute('height',String(height));\n"
    " const put=(n,x,w,d)=>{if(w<0.5)return;const y=height-(d+1)*H;\n"
    "  const g=document.createElementNS(NS,'g'),r=document.createElementNS(NS,'rect');\n"
    "  r.setAttribute('x',x.toFixed(2));r.setAttribute('y',String(y));"
    "r.setAttribute('width',Math.max(w-0.5,0.5).toFixed(2));r.setAttribute('height',String(H-1));\n"
    "  r.setAttribute('fill',color(n.n));r.setAttribute('rx','2');g.appendChild(r);\n"
    "  const t=document.createElementNS(NS,'title');t.textContent=n.n+' ('+n.v+' samples, '+"
    "(100*n.v/root.v).toFixed(1)+'%)';g.appendChild(t);\n"
    "  if(w>40){const s=document.createElementNS(NS,'text');s.setAttribute('x',(x+3).toFixed(2));"
    "s.setAttribute('y',String(y+12));const fit=Math.floor((w-6)/6.7);"
    "s.textContent=n.n.length>fit?n.n.slice(0,Math.max(fit-2,0))+'..':n.n;g.appendChild(s)}\n"
    "  "
    "g.addEventListener('click',()=>draw(n===focus&&n.p?n.p:n));g.setAttribute('cursor','pointer');"
    "svg.appendChild(g);frames++;\n"
    "  let cx=x;for(const c of [...n.c.values()].sort((a,b)=>a.n<b.n?-1:1)){const cw=w*c.v/n.v;"
    "put(c,cx,cw,d+1);cx+=cw}};\n"
    " let d=0;const chain=[];for(let p=focus.p;p;p=p.p)chain.unshift(p);\n"
    " for(const a of chain){put({n:a.n,v:a.v,c:new Map(),p:a.p},0,W,d);d++}\n"
    " put(focus,0,W,d);document.body.dataset.frames=String(frames)}\n"
    "async function run(){const b=$('prof-btn'),st=$('prof-status');b.disabled=true;\n"
    " st.textContent='profiling for 10 s\\u2026';\n"
    " try{const r=await fetch('/debug/pprof/profile?seconds=10&format=collapsed',"
    "{cache:'no-store'});const text=await r.text();\n"
    "  if(!r.ok)throw new Error('HTTP '+r.status+': '+text.trim());root=parse(text);\n"
    "  st.textContent=root.v+' samples; click a frame to zoom';draw(root)}\n"
    " catch(e){st.textContent='profile failed: '+e.message}finally{b.disabled=false}}\n"
    "$('prof-btn').addEventListener('click',run)})();\n";
