'use strict'
// bench/mobs.js — the cost of mobs per tick (issue 15, acceptance 7's
// measure): a flat world, N cows summoned over RCON (wandering: AI on, or
// idle: NoAI) spread over a square around the spawn, BOTS mineflayer bots
// standing at the spawn, then the `mobs` phase of /api/tick (its 10 s mean
// and p99) and the tick's p99, per mob.
//
//   MCSERV=build/mcserv [MOB=zombie] node bench/mobs.js [N] [BOTS] [SIDE] [noai]
//
// MOB=zombie summons zombies instead of cows, at a fixed midnight, so they
// hunt the bots (survival) and search paths: the pathfinding search time's
// median and p99 come from the server's shutdown line ("Mobs: N pathfinding
// searches (M nodes), median X us, p99 Y us").
//
// Bounded: at most 20,000 mobs, 20 bots, 60 s of measuring; everything on
// 127.0.0.1; the server and bots it starts are stopped at the end.
const http = require('node:http')
const h = require('../tests/e2e/helpers')

const N = Math.min(Number(process.argv[2] || 1000), 20000)
const BOTS = Math.min(Number(process.argv[3] || 2), 20)
const SIDE = Number(process.argv[4] || 96)
const NOAI = process.argv[5] === 'noai'
const MOB = process.env.MOB === 'zombie' ? 'zombie' : 'cow'

function getJSON (port, path) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, timeout: 5000 }, (res) => {
      let body = ''
      res.on('data', (d) => { body += d })
      res.on('end', () => { try { resolve(JSON.parse(body)) } catch (e) { reject(e) } })
    }).on('error', reject)
  })
}

async function main () {
  h.setFileDeadline(280000)
  const rconPort = await h.freePort()
  const adminPort = await h.freePort()
  const srv = await h.startServer({
    name: 'bench-mobs',
    props: {
      'level-type': 'flat',
      'view-distance': '6',
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': 'bench-mobs',
      'admin-http-port': adminPort,
      'max-players': '100'
    }
  })
  const rcon = await h.rconSession(rconPort, 'bench-mobs')
  const bots = []
  let out
  try {
    for (let i = 0; i < BOTS; i++) bots.push(await h.makeBot(srv.port, `Viewer${i}`).waitSpawn(20000))
    const y = bots.length ? Math.floor(bots[0].bot.entity.position.y) : -60
    if (MOB === 'zombie') { // night all along: zombies neither burn nor stop hunting
      await rcon.execute('gamerule doDaylightCycle false')
      await rcon.execute('time set midnight')
    }
    const t0 = Date.now()
    for (let i = 0; i < N; i += 50) { // 50 commands in flight at a time
      const batch = []
      for (let k = i; k < Math.min(N, i + 50); k++) {
        const x = (Math.random() - 0.5) * SIDE
        const z = (Math.random() - 0.5) * SIDE
        batch.push(rcon.execute(`summon ${MOB} ${x.toFixed(2)} ${y} ${z.toFixed(2)}${NOAI ? ' {NoAI:1b}' : ''}`))
      }
      await Promise.all(batch)
    }
    const summonMs = Date.now() - t0
    await h.sleep(12000) // a full 10 s window with all of them
    if (process.env.PROFILE) { // MOBS profile: the slow ticks' stacks, collapsed
      await new Promise((resolve) => http.get({ host: '127.0.0.1', port: adminPort, path: `/debug/pprof/profile?seconds=8&format=collapsed&only_ticks_over=${process.env.PROFILE}`, timeout: 20000 }, (res) => {
        const out = require('node:fs').createWriteStream('/tmp/mobs-stacks.txt')
        res.pipe(out)
        res.on('end', resolve)
      }).on('error', resolve))
    }
    const tick = await getJSON(adminPort, '/api/tick')
    const mobs = tick.phases.find((p) => p.name === 'mobs')['10s']
    const seen = bots.length ? Object.values(bots[0].bot.entities).filter((e) => e.name === MOB).length : 0
    out = {
      mob: MOB,
      mobs: N,
      bots: BOTS,
      side: SIDE,
      noai: NOAI,
      summon_ms: summonMs,
      mobs_phase_ms: mobs,
      us_per_mob_mean: +(mobs.mean * 1000 / N).toFixed(3),
      mspt: tick.mspt['10s'],
      seen_by_bot0: seen
    }
  } finally {
    rcon.close()
    await Promise.all(bots.map((b) => b.quit(2000)))
    await srv.stop(10000)
    await h.cleanupAll()
  }
  const m = /Mobs: (\d+) pathfinding searches \((\d+) nodes\), median ([\d.]+) us, p99 ([\d.]+) us/.exec(srv.stderr())
  if (m) out.pathfinding = { searches: +m[1], nodes: +m[2], median_us: +m[3], p99_us: +m[4] }
  console.log(JSON.stringify(out, null, 1))
}

main().catch((e) => { console.error(e); process.exit(1) })
