'use strict'
// crypto-bench.js — what online mode's encryption costs the server, per
// player. mcbench logs in offline only, so this drives minecraft-protocol
// clients instead: N clients join (with or without encryption), idle, then
// walk, and the server process's own CPU time (utime + stime from
// /proc/PID/stat) is measured in each phase. Online runs use the mock
// session server of the end-to-end tests (127.0.0.1 only, no internet).
//
//   node tools/crypto-bench.js [--mcserv build/mcserv] [--bots 40]
//        [--view 6] [--idle 10] [--walk 15] [--modes offline,online] [--runs 1]
//        [--level flat|normal]
//
// A warm-up client (offline in both modes, not counted) joins first and stays,
// so terrain generation is done before the measured joins; walking then
// generates the same new columns in both modes. The difference between the
// modes is the cost of encryption (plus the login's RSA and HTTP, once per
// join). Keep each invocation under the e2e helpers' 88 s watchdog: one mode
// per run with the default phases.
//
// Prints one JSON line per run and a summary table. Bounded: every phase has
// a deadline, all processes and sockets are ended at the end.
const fs = require('node:fs')
const path = require('node:path')
const mc = require('minecraft-protocol')
const h = require('../tests/e2e/helpers')
const ms = require('../tests/e2e/mock-session')

function arg (name, def) {
  const i = process.argv.indexOf('--' + name)
  return i > 0 ? process.argv[i + 1] : def
}
const MCSERV = path.resolve(arg('mcserv', 'build/mcserv'))
const BOTS = Number(arg('bots', 40))
const VIEW = Number(arg('view', 6))
const IDLE_S = Number(arg('idle', 10))
const WALK_S = Number(arg('walk', 15))
const MODES = arg('modes', 'offline,online').split(',')
const RUNS = Number(arg('runs', 1))
const LEVEL = arg('level', 'normal')
const TICKS = 100 // USER_HZ (getconf CLK_TCK) on Linux

function cpuMs (pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ')
  return (Number(rest[11]) + Number(rest[12])) * 1000 / TICKS
}

async function runOnce (mode) {
  process.env.MCSERV = MCSERV
  const accounts = []
  for (let i = 0; i < BOTS; i++) accounts.push(ms.makeAccount(`Bench${i}`))
  const warmAcc = ms.makeAccount('WarmUp')
  const mock = await ms.startMockSession(accounts.concat([warmAcc]))
  const props = {
    'online-mode': mode === 'online' ? 'true' : 'false',
    'session-server': mock.url,
    'view-distance': VIEW,
    'max-players': BOTS + 10,
    'level-type': LEVEL,
    'level-seed': '20261130'
  }
  const srv = await h.startServer({ name: `crypto-bench-${mode}`, props, readyTimeout: 15000 })
  const clients = []
  let bytes = 0
  const target = (2 * VIEW + 1) ** 2
  const clientOpts = (acc) => {
    const opts = { host: '127.0.0.1', port: srv.port, username: acc.name, version: h.VERSION, hideErrors: true }
    if (mode === 'online') Object.assign(opts, { auth: ms.onlineAuth(acc), sessionServer: mock.url })
    else opts.auth = 'offline'
    return opts
  }
  let warm = null
  try {
    warm = mc.createClient(clientOpts(warmAcc))
    let warmChunks = 0
    warm.on('map_chunk', () => { warmChunks++ })
    warm.on('position', (p) => warm.write('teleport_confirm', { teleportId: p.teleportId }))
    warm.on('error', () => {})
    await h.waitFor(() => warmChunks >= target, { timeout: 30000, interval: 100, message: 'warm-up chunk window' })
    const t0 = Date.now()
    const c0 = cpuMs(srv.pid)
    for (const acc of accounts) {
      const c = mc.createClient(clientOpts(acc))
      c.st = { chunks: 0, x: 0.5, y: -60, z: 0.5, joined: false, ended: false }
      c.on('connect', () => c.socket.on('data', (d) => { bytes += d.length }))
      c.on('map_chunk', () => { c.st.chunks++ })
      c.on('position', (p) => {
        c.st.x = p.x; c.st.y = p.y; c.st.z = p.z
        c.write('teleport_confirm', { teleportId: p.teleportId })
        c.st.joined = true
      })
      c.on('end', () => { c.st.ended = true })
      c.on('error', () => {})
      clients.push(c)
      await h.sleep(25)
    }
    await h.waitFor(() => clients.every((c) => c.st.chunks >= target || c.st.ended), {
      timeout: 60000, interval: 100, message: 'every client has its chunk window'
    })
    const joinMs = Date.now() - t0
    const c1 = cpuMs(srv.pid)
    const b1 = bytes
    await h.sleep(IDLE_S * 1000)
    const c2 = cpuMs(srv.pid)
    const b2 = bytes
    // Walk: +x at 5 m/s, 20 position packets a second; new chunk columns
    // stream in as each client crosses chunk borders.
    const timer = setInterval(() => {
      for (const c of clients) {
        if (c.st.ended || !c.st.joined) continue
        c.st.x += 0.25
        c.write('position', { x: c.st.x, y: c.st.y, z: c.st.z, onGround: true })
      }
    }, 50)
    await h.sleep(WALK_S * 1000)
    clearInterval(timer)
    const c3 = cpuMs(srv.pid)
    const b3 = bytes
    const alive = clients.filter((c) => !c.st.ended).length
    const r = {
      mode,
      bots: BOTS,
      alive,
      view: VIEW,
      join: { ms: joinMs, cpu_ms: c1 - c0, mib: +(b1 / 1048576).toFixed(1) },
      idle: { s: IDLE_S, cpu_ms: c2 - c1, cpu_pct: +((c2 - c1) / (IDLE_S * 10)).toFixed(2), kib: +((b2 - b1) / 1024).toFixed(1) },
      walk: { s: WALK_S, cpu_ms: c3 - c2, cpu_pct: +((c3 - c2) / (WALK_S * 10)).toFixed(2), mib: +((b3 - b2) / 1048576).toFixed(1) }
    }
    return r
  } finally {
    for (const c of clients) { try { c.end() } catch (e) {} }
    if (warm) { try { warm.end() } catch (e) {} }
    await h.sleep(200)
    await srv.stop()
    await mock.close()
    await h.cleanupAll()
  }
}

;(async () => {
  const results = []
  for (let i = 0; i < RUNS; i++) {
    for (const mode of MODES) {
      const r = await runOnce(mode)
      console.log(JSON.stringify(r))
      results.push(r)
    }
  }
  console.log('\nmode     bots  join cpu ms (MiB)   idle cpu %   walk cpu % (MiB)')
  for (const r of results) {
    console.log(`${r.mode.padEnd(8)} ${String(r.alive).padStart(4)}  ${String(r.join.cpu_ms).padStart(8)} (${r.join.mib})` +
      `   ${String(r.idle.cpu_pct).padStart(8)}     ${String(r.walk.cpu_pct).padStart(8)} (${r.walk.mib})`)
  }
  process.exit(0)
})().catch((e) => { console.error(e); process.exit(1) })
