'use strict'
// bench/worldsim.js — what the world simulation (issue 21) costs the tick
// with real players in the world. Three cases:
//
//   random  a normal world, PLAYERS mcbench bots spread over +-SPREAD blocks
//           (the spread scenario, teleported over RCON), simulation distance
//           SIM: every column within it that holds a random-ticking block
//           (grass, leaves, crops, saplings, ...) gets randomTickSpeed
//           random ticks per section. Reports the random-ticked columns
//           (mcserv_world_sim_random_ticked_chunks) beside the MSPT.
//   lava    a flat world, PLAYERS bots at the spawn; a stone wall HEIGHT
//           blocks tall and COLUMNS wide 24 blocks east of them, a lava
//           source on its top edge per column: the lava falls down the face
//           (a 30-tick step per block), then spreads over the ground.
//   clock   a flat world, PLAYERS bots; CLOCK_DUST redstone dust in rows
//           driven by a 1-tick clock (built over RCON from the blocks
//           redstone has; see buildClock), so every dust changes power
//           every few ticks for the whole run.
//
// The tick is sampled from /api/tick's 10 s windows for DURATION s after the
// setup (MSPT p50/p99/max, the world_sim and block_updates phases), the
// simulation's counters from /metrics.
//
//   node bench/worldsim.js --case random|lava|clock [--players P] [--duration S]
//        [--spread BLOCKS] [--sim CHUNKS] [--view CHUNKS] [--height H] [--columns N]
//        [--dust N] [--seed LEVEL_SEED (12345)] [--mcserv PATH] [--mcbench PATH]
//
// Issue 21's acceptance 7: --case random --players 100 (about 2,000
// columns); --case clock --dust 1000; --case lava --height 64 (MSPT p99
// under 25 ms). Bounded: at most 1,000 players, 300 s of sampling, 4,096
// lava columns; all on 127.0.0.1; the server and mcbench are stopped.
const http = require('node:http')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawn } = require('node:child_process')

const ROOT = path.join(__dirname, '..')
const o = { case: 'random', players: 100, duration: 30, spread: 600, sim: 5, view: 5, height: 64, columns: 16, dust: 1000, seed: '12345' }
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  const next = () => process.argv[++i]
  if (a === '--case') o.case = next()
  else if (a === '--players') o.players = Math.min(Number(next()), 1000)
  else if (a === '--duration') o.duration = Math.min(Number(next()), 300)
  else if (a === '--spread') o.spread = Number(next())
  else if (a === '--seed') o.seed = String(next())
  else if (a === '--sim') o.sim = Number(next())
  else if (a === '--view') o.view = Number(next())
  else if (a === '--height') o.height = Math.min(Number(next()), 300)
  else if (a === '--columns') o.columns = Math.min(Number(next()), 4096)
  else if (a === '--dust') o.dust = Math.min(Number(next()), 20000)
  else if (a === '--mcserv') process.env.MCSERV = path.resolve(next())
  else if (a === '--mcbench') process.env.MCBENCH = path.resolve(next())
  else { console.error(`worldsim.js: unknown option ${a}`); process.exit(2) }
}
if (!['random', 'lava', 'clock'].includes(o.case)) { console.error('worldsim.js: --case random|lava|clock'); process.exit(2) }
const h = require('../tests/e2e/helpers') // reads MCSERV when loaded
const MCBENCH = process.env.MCBENCH || path.join(ROOT, 'build', 'mcbench')

function get (port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p, timeout: 5000 }, (res) => {
      let body = ''
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve(body))
    }).on('error', reject)
  })
}
const getJSON = async (port, p) => JSON.parse(await get(port, p))

/** The world-sim series of /metrics, by name. */
async function simMetrics (port) {
  const text = await get(port, '/metrics')
  const out = {}
  for (const m of text.matchAll(/^mcserv_world_sim_(\w+) (\S+)$/gm)) out[m[1]] = Number(m[2])
  return out
}

/** Runs commands over RCON, 50 in flight; throws on the first refusal. */
async function runAll (rcon, cmds, ok = /./) {
  for (let i = 0; i < cmds.length; i += 50) {
    const res = await Promise.all(cmds.slice(i, i + 50).map((c) => rcon.execute(c)))
    res.forEach((r, k) => { if (!ok.test(r)) throw new Error(`${cmds[i + k]}: ${r}`) })
  }
}

/** Ground of the default flat world: grass at y -61, air from -60. */
const GROUND = -60

function buildLava () {
  const cmds = []
  const x = 24
  const top = GROUND + o.height - 1
  const z0 = -Math.floor(o.columns / 2)
  for (let z = z0; z < z0 + o.columns; z += 32) { // fill holds 32,768 blocks: slabs of 32 columns
    const z1 = Math.min(z + 31, z0 + o.columns - 1)
    cmds.push(`fill ${x} ${GROUND} ${z} ${x} ${top} ${z1} minecraft:stone`)
  }
  const lava = []
  for (let z = z0; z < z0 + o.columns; z++) lava.push(`setblock ${x - 1} ${top} ${z} minecraft:lava`)
  return { walls: cmds, lava }
}

/**
 * The 1-tick clock and the dust it drives (vanilla's facing: a repeater
 * takes its input from the side it faces and outputs the other way).
 *
 *   ring, at x = CX..CX+2, z = 0..1:   dust  rep>  dust      rep> facing=west
 *                                     dust  <rep  dust      <rep facing=east
 *
 * Two delay-1 repeaters (2 game ticks each) in a loop of dust: one pulse
 * injected into it goes round every 4 ticks for the whole run. The ring's
 * east dust feeds a repeater at CX+3 that starts a snake of rows 44 cells
 * long, two blocks apart, alternating east and west: three runs of 14 dust
 * (power 15 down to 2) split by repeaters, and at each row's end a repeater
 * facing north carrying the signal to the next row. Every dust turns on
 * and off every 2 ticks. Returns the setblock commands and the counts.
 */
const CLOCK_X = 20
function buildClock () {
  const cmds = []
  const f = GROUND
  const cx = CLOCK_X
  const x0 = cx + 4 // the snake's west edge
  const perRow = 42
  const rows = Math.ceil(o.dust / perRow)
  cmds.push(`fill ${cx - 2} ${f - 1} -2 ${x0 + 46} ${f - 1} ${2 * rows + 2} minecraft:stone`)
  cmds.push(`setblock ${cx} ${f} 0 minecraft:redstone_wire`)
  cmds.push(`setblock ${cx + 1} ${f} 0 minecraft:repeater[facing=west,delay=1]`)
  cmds.push(`setblock ${cx + 2} ${f} 0 minecraft:redstone_wire`)
  cmds.push(`setblock ${cx} ${f} 1 minecraft:redstone_wire`)
  cmds.push(`setblock ${cx + 1} ${f} 1 minecraft:repeater[facing=east,delay=1]`)
  cmds.push(`setblock ${cx + 2} ${f} 1 minecraft:redstone_wire`)
  cmds.push(`setblock ${cx + 3} ${f} 0 minecraft:repeater[facing=west,delay=1]`)
  let placed = 0
  let repeaters = 3
  for (let r = 0; r < rows && placed < o.dust; r++) {
    const z = 2 * r
    const east = r % 2 === 0
    for (let i = 0; i < 44 && placed < o.dust; i++) {
      const x = east ? x0 + i : x0 + 43 - i
      if (i === 14 || i === 29) {
        cmds.push(`setblock ${x} ${f} ${z} minecraft:repeater[facing=${east ? 'west' : 'east'},delay=1]`)
        repeaters++
      } else {
        cmds.push(`setblock ${x} ${f} ${z} minecraft:redstone_wire`)
        placed++
      }
    }
    if (placed < o.dust) {
      cmds.push(`setblock ${east ? x0 + 43 : x0} ${f} ${z + 1} minecraft:repeater[facing=north,delay=1]`)
      repeaters++
    }
  }
  return { cmds, placed, rows, repeaters }
}

async function main () {
  h.setFileDeadline((o.duration + 300) * 1000)
  const rconPort = await h.freePort()
  const adminPort = await h.freePort()
  const password = crypto.randomBytes(12).toString('hex')
  const props = {
    'level-type': o.case === 'random' ? 'normal' : 'flat',
    'level-seed': o.seed, // the same world every run, so runs compare
    'view-distance': String(o.case === 'random' ? o.view : 6),
    'simulation-distance': String(o.case === 'random' ? o.sim : 6),
    'enable-rcon': 'true',
    'rcon.port': rconPort,
    'rcon.password': password,
    'admin-http-port': adminPort,
    'spawn-protection': '0',
    'max-players': String(o.players + 10),
    'max-connections-per-ip': String(o.players + 10)
  }
  const srv = await h.startServer({ name: `bench-worldsim-${o.case}`, props })
  const rcon = await h.rconSession(rconPort, password)
  const hold = o.duration + 240
  const args = ['--port', String(srv.port), '--bots', String(o.players), '--rate', '50',
    '--duration', String(hold), '--view-distance', String(o.case === 'random' ? o.view : 6)]
  if (o.case === 'random') args.push('--scenario', 'spread', '--spread-radius', String(o.spread), '--radius', '8', '--rcon-port', String(rconPort))
  else args.push('--scenario', 'idle')
  const bench = spawn(MCBENCH, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, MCBENCH_RCON_PASSWORD: password } })
  const out = { case: o.case, players: o.players }
  try {
    const t0 = Date.now()
    for (;;) {
      const st = await getJSON(adminPort, '/api/status')
      if ((st.players && st.players.online) >= o.players) break
      if (Date.now() - t0 > 90000) throw new Error(`only ${st.players && st.players.online} of ${o.players} joined in 90 s`)
      await h.sleep(500)
    }
    out.join_ms = Date.now() - t0
    if (o.case === 'random') {
      Object.assign(out, { spread: o.spread, simulation_distance: o.sim, view_distance: o.view })
      // the bots reach their points and their chunks are generated: wait
      // until the loaded count holds still for 10 s
      let last = -1
      let still = 0
      const t1 = Date.now()
      while (still < 10 && Date.now() - t1 < 180000) {
        await h.sleep(1000)
        const n = Number((/^minecraft_world_loaded_chunks\{[^}]*\} (\S+)/m.exec(await get(adminPort, '/metrics')) || [])[1])
        still = n === last ? still + 1 : 0
        last = n
      }
      out.loaded_chunks = last
      out.settle_ms = Date.now() - t1
    } else if (o.case === 'lava') {
      Object.assign(out, { height: o.height, columns: o.columns })
      const { walls, lava } = buildLava()
      await runAll(rcon, walls)
      await runAll(rcon, lava, /Changed the block/)
    } else {
      const c = buildClock()
      Object.assign(out, { dust: c.placed, rows: c.rows, repeaters: c.repeaters })
      await runAll(rcon, c.cmds, /Changed the block|Successfully filled/)
      // One pulse into the ring: a redstone block beside its west dust,
      // removed at once (a repeater stretches a shorter input to its delay).
      // Left longer than the 4-tick round, the ring would latch on instead:
      // the neighbour updates a second below tell which happened.
      await rcon.execute(`setblock ${CLOCK_X - 1} ${GROUND} 0 minecraft:redstone_block`)
      await rcon.execute(`setblock ${CLOCK_X - 1} ${GROUND} 0 minecraft:air`)
      const m0 = await simMetrics(adminPort)
      await h.sleep(2000)
      const m1 = await simMetrics(adminPort)
      out.clock_check_neighbor_updates_per_s = Math.round(((m1.neighbor_updates_total || 0) - (m0.neighbor_updates_total || 0)) / 2)
      if (out.clock_check_neighbor_updates_per_s < c.placed) throw new Error(`the clock is not running: ${out.clock_check_neighbor_updates_per_s} neighbour updates/s for ${c.placed} dust`)
    }
    const before = await simMetrics(adminPort)
    const t2 = Date.now()
    await h.sleep(10500) // the first full 10 s window after the setup
    const windows = []
    const tEnd = Date.now() + o.duration * 1000
    const ticked = []
    while (Date.now() < tEnd) {
      await h.sleep(10000)
      windows.push(await getJSON(adminPort, '/api/tick'))
      ticked.push((await simMetrics(adminPort)).random_ticked_chunks)
    }
    const after = await simMetrics(adminPort)
    const secs = (Date.now() - t2) / 1000
    const phase = (t, name) => (t.phases.find((p) => p.name === name) || { '10s': {} })['10s']
    out.windows_10s = windows.map((t) => ({
      mspt_p50: t.mspt['10s'].p50,
      mspt_p99: t.mspt['10s'].p99,
      mspt_max: t.mspt['10s'].max,
      world_sim_mean: phase(t, 'world_sim').mean,
      world_sim_p99: phase(t, 'world_sim').p99,
      block_updates_p99: phase(t, 'block_updates').p99
    }))
    out.mspt_p99_worst_window = Math.max(...out.windows_10s.map((r) => r.mspt_p99))
    out.random_ticked_chunks = ticked
    for (const k of ['block_ticks_total', 'fluid_ticks_total', 'random_ticks_total', 'neighbor_updates_total', 'deferred_total']) {
      out[k.replace('_total', '_per_s')] = Math.round(((after[k] || 0) - (before[k] || 0)) / secs)
    }
    out.scheduled_ticks_pending = after.scheduled_ticks
    const st = await getJSON(adminPort, '/api/status')
    out.online_at_end = st.players && st.players.online
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
