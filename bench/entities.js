'use strict'
// bench/entities.js — what non-player entities cost the tick with real
// viewers: a flat world, PLAYERS mcbench bots standing at the spawn (idle
// scenario; walk: they wander), then COUNT entities summoned over RCON at random points of a
// SIDE x SIDE square around the spawn (2 blocks apart), outside a 16-block square around it
// (so no bot picks an item up or pushes a mob), every one within every bot's
// tracking range. After the summons settle, the tick is sampled for
// DURATION s from /api/tick's 10 s windows (MSPT mean/p99/max, the
// entities' phase), and /api/status's entity counts are checked.
//
//   node bench/entities.js [--kind item|cow|cow-noai] [--count N] [--players P]
//                          [--side S] [--duration S] [--scenario idle|walk]
//                          [--mcserv PATH] [--mcbench PATH]
//
// Issue 14's acceptance 9: --kind item --count 1000 --players 100.
// Issue 15's acceptance 7: --kind cow --count 10000 --players 100.
// Bounded: at most 20,000 entities, 1,000 players, 300 s of sampling; all on
// 127.0.0.1; the server and mcbench it starts are stopped at the end.
const http = require('node:http')
const path = require('node:path')
const { spawn } = require('node:child_process')

const ROOT = path.join(__dirname, '..')
const o = { kind: 'item', count: 1000, players: 100, side: 96, duration: 30, scenario: 'idle' }
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  const next = () => process.argv[++i]
  if (a === '--kind') o.kind = next()
  else if (a === '--count') o.count = Math.min(Number(next()), 20000)
  else if (a === '--players') o.players = Math.min(Number(next()), 1000)
  else if (a === '--side') o.side = Number(next())
  else if (a === '--scenario') o.scenario = next()
  else if (a === '--duration') o.duration = Math.min(Number(next()), 300)
  else if (a === '--mcserv') process.env.MCSERV = path.resolve(next())
  else if (a === '--mcbench') process.env.MCBENCH = path.resolve(next())
  else { console.error(`entities.js: unknown option ${a}`); process.exit(2) }
}
if (!['item', 'cow', 'cow-noai'].includes(o.kind)) { console.error('entities.js: --kind item|cow|cow-noai'); process.exit(2) }
const h = require('../tests/e2e/helpers') // reads MCSERV when loaded
const MCBENCH = process.env.MCBENCH || path.join(ROOT, 'build', 'mcbench')

function getJSON (port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p, timeout: 5000 }, (res) => {
      let body = ''
      res.on('data', (d) => { body += d })
      res.on('end', () => { try { resolve(JSON.parse(body)) } catch (e) { reject(e) } })
    }).on('error', reject)
  })
}

function getText (port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p, timeout: 5000 }, (res) => {
      let body = ''
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve(body))
    }).on('error', reject)
  })
}

function summonCommand (x, z) {
  const pos = `${x.toFixed(2)} -59 ${z.toFixed(2)}`
  if (o.kind === 'item') return `summon item ${pos} {Item:{id:"minecraft:cobblestone",Count:1b}}`
  return `summon cow ${pos}${o.kind === 'cow-noai' ? ' {NoAI:1b}' : ''}`
}

async function main () {
  h.setFileDeadline((o.duration + 240) * 1000)
  const rconPort = await h.freePort()
  const adminPort = await h.freePort()
  const srv = await h.startServer({
    name: 'bench-entities',
    props: {
      'level-type': 'flat',
      'view-distance': '8',
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': 'bench-entities',
      'admin-http-port': adminPort,
      'max-players': String(o.players + 10),
      'max-connections-per-ip': String(o.players + 10)
    }
  })
  const rcon = await h.rconSession(rconPort, 'bench-entities')
  const hold = o.duration + 120 // joins + summons + settling + sampling
  const bench = spawn(MCBENCH, ['--port', String(srv.port), '--bots', String(o.players), '--rate', '100',
    '--duration', String(hold), '--scenario', o.scenario, '--view-distance', '8'], { stdio: ['ignore', 'ignore', 'inherit'] })
  try {
    const t0 = Date.now()
    for (;;) { // every bot in the world
      const st = await getJSON(adminPort, '/api/status')
      if ((st.players && st.players.online) >= o.players) break
      if (Date.now() - t0 > 60000) throw new Error(`only ${st.players && st.players.online} of ${o.players} joined in 60 s`)
      await h.sleep(500)
    }
    const joinMs = Date.now() - t0
    const t1 = Date.now()
    let refused = 0
    // Points 2 blocks apart (equal items closer than a block merge, so the
    // count would shrink), in a random order, outside the bots' square.
    const points = []
    for (let x = -o.side / 2 + 1; x < o.side / 2; x += 2) {
      for (let z = -o.side / 2 + 1; z < o.side / 2; z += 2) {
        if (Math.abs(x) >= 16 || Math.abs(z) >= 16) points.push([x + 0.5, z + 0.5])
      }
    }
    for (let i = points.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [points[i], points[j]] = [points[j], points[i]]
    }
    if (points.length < o.count) throw new Error(`--side ${o.side} holds only ${points.length} points 2 blocks apart`)
    rcon.setMaxListeners && rcon.setMaxListeners(200)
    for (let i = 0; i < o.count; i += 100) { // 100 commands in flight at a time
      const batch = []
      for (let k = i; k < Math.min(o.count, i + 100); k++) {
        const [x, z] = points[k]
        batch.push(rcon.execute(summonCommand(x, z)).then((r) => {
          if (/Summoned/.test(r)) return
          if (refused++ === 0) console.error(`entities.js: refused: ${r}`)
        }))
      }
      await Promise.all(batch)
    }
    const summonMs = Date.now() - t1
    await h.sleep(12000) // items land, cows settle; the first full 10 s window
    const windows = []
    const tEnd = Date.now() + o.duration * 1000
    while (Date.now() < tEnd) {
      await h.sleep(10000)
      windows.push(await getJSON(adminPort, '/api/tick'))
    }
    const st = await getJSON(adminPort, '/api/status')
    const m = /^minecraft_world_entities_count\{[^}]*\} (\S+)/m.exec(await getText(adminPort, '/metrics'))
    const phase = o.kind === 'item' ? 'items' : 'mobs'
    const rows = windows.map((t) => ({
      mspt_p50: t.mspt['10s'].p50,
      mspt_p99: t.mspt['10s'].p99,
      mspt_max: t.mspt['10s'].max,
      phase_mean: (t.phases.find((p) => p.name === phase) || { '10s': {} })['10s'].mean,
      phase_p99: (t.phases.find((p) => p.name === phase) || { '10s': {} })['10s'].p99
    }))
    const worst = (k) => Math.max(...rows.map((r) => r[k]))
    const out = {
      kind: o.kind,
      count: o.count,
      refused,
      players: o.players,
      scenario: o.scenario,
      side: o.side,
      join_ms: joinMs,
      summon_ms: summonMs,
      online_at_end: st.players && st.players.online,
      entities_at_end: m ? Number(m[1]) - (st.players ? st.players.online : 0) : null,
      windows_10s: rows,
      mspt_p99_worst_window: worst('mspt_p99'),
      phase_us_per_entity_mean: +(rows.reduce((a, r) => a + r.phase_mean, 0) / rows.length * 1000 / o.count).toFixed(3)
    }
    console.log(JSON.stringify(out, null, 1))
  } finally {
    rcon.close()
    try { bench.kill('SIGINT') } catch (e) {}
    await new Promise((resolve) => { if (bench.exitCode !== null) resolve(); else { bench.on('exit', resolve); setTimeout(resolve, 15000) } })
    await srv.stop(15000)
    await h.cleanupAll()
  }
}

main().catch((e) => { console.error(e); process.exit(1) })
