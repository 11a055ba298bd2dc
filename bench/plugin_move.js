#!/usr/bin/env node
'use strict'
// bench/plugin_move.js — issue 19, acceptance 5: what a plugin that handles
// every move event adds to the tick. Runs mcbench's walk scenario twice
// against a fresh mcserv (flat world, view distance 2): once with no
// plugin, once with plugins/movebench (a move handler that reads the
// event's position, compares it with a region and counts). Both runs sample
// the `mspt` console command every 5 s and keep the samples taken wholly
// inside the hold (from 5 s after the last join to the end).
//
//   node bench/plugin_move.js [--bots 2000] [--rate 100] [--duration 30]
//                             [--mode both|none|plugin] [--mcserv PATH] [--mcbench PATH]
//
// Prints, per run: MSPT median (the median of the 5-s medians) and p99
// (the highest 5-s p99), TPS, and for the plugin run the move events
// handled per tick and the plugin's own time per handler call (`plugins
// info`: the Lua call alone, and the server's own clock on the whole move
// phase per event); then the added MSPT median and the whole cost
// of one move event (added MSPT ÷ the move events handled per tick in the
// hold, from `movecount` sampled with `mspt`: building the event, calling
// the handler, reading it back). Everything talks to 127.0.0.1 and
// every process is bounded in time and killed by PID at the end.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const { spawn } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')
const o = { bots: 2000, rate: 100, duration: 30, mode: 'both',
  mcserv: path.join(ROOT, 'build/mcserv'), mcbench: path.join(ROOT, 'build/mcbench') }
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  const v = process.argv[++i]
  if (a === '--bots') o.bots = Number(v)
  else if (a === '--rate') o.rate = Number(v)
  else if (a === '--duration') o.duration = Number(v)
  else if (a === '--mode') o.mode = v
  else if (a === '--mcserv') o.mcserv = path.resolve(v)
  else if (a === '--mcbench') o.mcbench = path.resolve(v)
  else { console.error(`plugin_move.js: unknown option ${a}`); process.exit(2) }
}

const PLUGIN = `
-- movebench: handles every move event the way a region plugin does.
local n, inside = 0, 0
mc.on("move", function(ev)
  n = n + 1
  if ev.x > -8 and ev.x < 8 and ev.z > -8 and ev.z < 8 then inside = inside + 1 end
  if ev.y < -1000 then ev:cancel() end
end)
mc.command{ name = "movecount", run = function() return "moves " .. n .. " inside " .. inside end }
`

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
  })
}

async function waitFor (pred, ms, what) {
  const end = Date.now() + ms
  while (Date.now() < end) { if (pred()) return; await sleep(50) }
  throw new Error(`timed out waiting for ${what}`)
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : NaN }

async function run (withPlugin) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-plugin-bench-'))
  const port = await freePort()
  fs.writeFileSync(path.join(dir, 'server.properties'), [
    'online-mode=false', 'server-ip=127.0.0.1', `server-port=${port}`, 'level-type=flat',
    'admin-http-port=0', 'view-distance=2', `max-players=${o.bots + 10}`
  ].join('\n') + '\n')
  if (withPlugin) {
    fs.mkdirSync(path.join(dir, 'plugins/movebench'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'plugins/movebench/init.lua'), PLUGIN)
  }
  let out = ''
  const srv = spawn(o.mcserv, [], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
  srv.stdout.on('data', (d) => { out += d })
  srv.stderr.on('data', (d) => { out += d })
  srv.stdin.on('error', () => {})
  const kill = setTimeout(() => srv.kill('SIGKILL'), (o.bots / o.rate + o.duration + 120) * 1000)
  try {
    await waitFor(() => /Done \(/.test(out), 15000, 'the server')
    const json = path.join(dir, 'mcbench.json')
    const bench = spawn(o.mcbench, ['--port', String(port), '--bots', String(o.bots), '--rate', String(o.rate),
      '--duration', String(o.duration), '--scenario', 'walk', '--view-distance', '2',
      '--max-failures', String(Math.ceil(o.bots / 100)), '--json', json, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] })
    const samples = []
    const tick = setInterval(() => {
      samples.push({ t: Date.now(), from: out.length })
      srv.stdin.write(withPlugin ? 'mspt\nmovecount\n' : 'mspt\n')
    }, 5000)
    const code = await new Promise((resolve) => bench.on('exit', (c) => resolve(c)))
    clearInterval(tick)
    const rep = JSON.parse(fs.readFileSync(json, 'utf8'))
    const holdStart = rep.result.hold_start_unix_ms
    const holdEnd = holdStart + rep.result.hold_s * 1000
    const med = []
    const p99 = []
    const tps = []
    const counts = [] // [time, moves handled so far] at each sample in the hold
    for (const s of samples) {
      if (s.t < holdStart + 5000 || s.t > holdEnd) continue
      const m = /last 5 s: ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+)[^\n]*\n[^\n]*TPS last 5 s: ([\d.]+)/.exec(out.slice(s.from))
      if (m) { med.push(Number(m[2])); p99.push(Number(m[4])); tps.push(Number(m[6])) }
      const c = /moves (\d+)/.exec(out.slice(s.from))
      if (c) counts.push([s.t, Number(c[1])])
    }
    // move events per tick in the hold (20 ticks a second)
    const movesPerTick = counts.length >= 2
      ? (counts[counts.length - 1][1] - counts[0][1]) / ((counts[counts.length - 1][0] - counts[0][0]) / 50)
      : NaN
    let info = null
    if (withPlugin) {
      const from = out.length
      srv.stdin.write('plugins info movebench\nmovecount\n')
      await waitFor(() => /Move events[\s\S]*moves \d+/.test(out.slice(from)), 5000, 'plugins info')
      const m = /(\d+) handler calls, ([\d.]+) us each; (\d+) errors/.exec(out.slice(from))
      const e = /Move events \(all plugins\): (\d+), ([\d.]+) us each/.exec(out.slice(from))
      const c = /moves (\d+)/.exec(out.slice(from))
      info = { calls: Number(m[1]), usEach: Number(m[2]), errors: Number(m[3]), moves: Number(c[1]),
        moveEvents: Number(e[1]), usPerMoveEvent: Number(e[2]) }
    }
    return {
      plugin: withPlugin, mcbenchExit: code, joined: rep.bots.joined, failed: rep.bots.failed,
      holdS: rep.result.hold_s, wallS: rep.result.wall_s, samples: med.length,
      msptMedian: median(med), msptP99: Math.max(...p99), tpsMin: Math.min(...tps),
      movesPerTick: Number.isNaN(movesPerTick) ? null : Math.round(movesPerTick), info
    }
  } finally {
    clearTimeout(kill)
    srv.kill('SIGTERM')
    await new Promise((resolve) => { if (srv.exitCode !== null) resolve(); else srv.on('exit', resolve) })
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function main () {
  const results = []
  if (o.mode !== 'plugin') results.push(await run(false))
  if (o.mode !== 'none') results.push(await run(true))
  for (const r of results) console.log(JSON.stringify(r))
  const base = results.find((r) => !r.plugin)
  const pl = results.find((r) => r.plugin)
  if (base && pl && pl.info) {
    // the whole cost of one move event: the added median tick over the
    // events handled per tick in the hold
    const added = pl.msptMedian - base.msptMedian
    console.log(JSON.stringify({
      bots: o.bots, addedMsptMedian: Number(added.toFixed(3)),
      moveEventsPerTickHold: pl.movesPerTick,
      nsPerMoveEvent: pl.movesPerTick ? Math.round(added * 1e6 / pl.movesPerTick) : null,
      luaCallNs: Math.round(pl.info.usEach * 1000),
      measuredNsPerMoveEvent: Math.round(pl.info.usPerMoveEvent * 1000),
      measuredMsPerTickHold: pl.movesPerTick ? Number((pl.info.usPerMoveEvent * pl.movesPerTick / 1000).toFixed(3)) : null
    }))
  }
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1) })
