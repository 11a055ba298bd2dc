#!/usr/bin/env node
'use strict'
// flyers.js — issue 23's flying-player scenario, measured.
//
// Starts mcserv in a fresh temporary directory (normal world, fixed seed,
// view distance 10, admin HTTP on a free loopback port), then:
//   t = 0        N flyers (mcbench, bench/scripts/fly.lua) join at the spawn
//                and fly away at 180 m/s (9 blocks per position packet) for
//                --fly seconds through fresh terrain, then leave;
//   t = --newcomer-at   a newcomer (minecraft-protocol) joins far away in
//                terrain nobody has generated (its playerdata file puts it at
//                -12000, 12000): the time until its whole (2v+1)² view has
//                arrived is measured, then it leaves;
//   afterwards   the server is watched for --after seconds with nobody on.
// Every 500 ms: the server's RSS (/proc), and from /metrics the loaded
// chunks, the worker jobs pending and (when the server exports them) the
// queued chunk requests and the largest per-player in-flight count.
//
//   node bench/flyers.js [--mcserv build/mcserv] [--mcbench build/mcbench]
//        [--flyers 3] [--fly 30] [--view 10] [--newcomer-at 15] [--after 75]
//        [--prop key=value ...] [--label TEXT] [--no-save] [--debug-log]
// (--debug-log: the server logs at debug level; the malloc_trim runs and
// their durations are reported.)
//
// Result: bench/results/<date>-flyers-<label>.json and a summary on stdout.
// Invariants: loopback only; every wait is bounded; only the processes this
// script started are stopped, by PID (SIGTERM, then SIGKILL).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const http = require('node:http')
const zlib = require('node:zlib')
const crypto = require('node:crypto')
const { spawn } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')
const args = process.argv.slice(2)
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def }
const MCSERV = path.resolve(opt('--mcserv', process.env.MCSERV || path.join(ROOT, 'build', 'mcserv')))
const MCBENCH = path.resolve(opt('--mcbench', process.env.MCBENCH || path.join(ROOT, 'build', 'mcbench')))
const FLYERS = Number(opt('--flyers', '3'))
const FLY_S = Number(opt('--fly', '30'))
const VIEW = Number(opt('--view', '10'))
const NEWCOMER_AT_S = Number(opt('--newcomer-at', '15'))
const AFTER_S = Number(opt('--after', '75'))
const LABEL = opt('--label', path.basename(path.dirname(MCSERV)))
const SAVE = !args.includes('--no-save')
const EXTRA_PROPS = args.flatMap((a, i) => args[i - 1] === '--prop' ? [a] : [])
const NEWCOMER_POS = [-12000.5, 120, 12000.5]

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const children = new Set()
process.on('exit', () => { for (const c of children) { try { c.kill('SIGKILL') } catch (e) {} } })

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
}

function offlineUuid (name) {
  const h = crypto.createHash('md5').update('OfflinePlayer:' + name).digest()
  h[6] = (h[6] & 0x0f) | 0x30
  h[8] = (h[8] & 0x3f) | 0x80
  const x = h.toString('hex')
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`
}

/** A gzip'd playerdata file holding only Pos (the rest takes defaults). */
function playerdataWithPos ([x, y, z]) {
  const name = Buffer.from('Pos')
  const b = Buffer.alloc(1 + 2 + 0 + 1 + 2 + name.length + 1 + 4 + 24 + 1)
  let o = 0
  b[o++] = 10; b.writeUInt16BE(0, o); o += 2 // root compound, empty name
  b[o++] = 9; b.writeUInt16BE(name.length, o); o += 2; name.copy(b, o); o += name.length
  b[o++] = 6; b.writeInt32BE(3, o); o += 4 // list of 3 doubles
  for (const v of [x, y, z]) { b.writeDoubleBE(v, o); o += 8 }
  b[o++] = 0 // end of root
  return zlib.gzipSync(b.subarray(0, o))
}

function rssKiB (pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : null
  } catch (e) { return null }
}

function getText (port, p) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, timeout: 2000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve(body))
    })
    req.on('timeout', () => { req.destroy(); resolve('') })
    req.on('error', () => resolve(''))
  })
}

function metric (text, name) {
  const m = new RegExp('^' + name + '(?:\\{[^}]*\\})? ([0-9.e+-]+)$', 'm').exec(text)
  return m ? Number(m[1]) : null
}

function metricMax (text, name) {
  let max = null
  for (const m of text.matchAll(new RegExp('^' + name + '\\{[^}]*\\} ([0-9.e+-]+)$', 'gm'))) {
    max = Math.max(max == null ? 0 : max, Number(m[1]))
  }
  return max
}

async function startServer () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-flyers-'))
  const port = await freePort()
  const admin = await freePort()
  const props = [
    'server-ip=127.0.0.1', `server-port=${port}`, 'online-mode=false', 'level-type=normal',
    'level-seed=20261130', `view-distance=${VIEW}`, 'admin-http-address=127.0.0.1',
    `admin-http-port=${admin}`, 'gamemode=creative', 'autosave-interval=0', ...EXTRA_PROPS
  ]
  fs.writeFileSync(path.join(dir, 'server.properties'), props.join('\n') + '\n')
  fs.mkdirSync(path.join(dir, 'world', 'playerdata'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'world', 'playerdata', offlineUuid('Newcomer') + '.dat'),
    playerdataWithPos(NEWCOMER_POS))
  const env = Object.assign({}, process.env, args.includes('--debug-log') ? { MCSERV_LOG_LEVEL: 'debug' } : {})
  const proc = spawn(MCSERV, [], { cwd: dir, env, stdio: ['pipe', 'ignore', 'pipe'] })
  children.add(proc)
  let log = ''
  proc.stderr.setEncoding('utf8')
  proc.stderr.on('data', (d) => { log += d; if (log.length > 4e6) log = log.slice(-2e6) })
  const deadline = Date.now() + 30000
  while (!log.includes('Done (')) {
    if (proc.exitCode != null || Date.now() > deadline) throw new Error('mcserv did not start:\n' + log)
    await sleep(20)
  }
  return { dir, port, admin, proc, log: () => log }
}

/** The newcomer: connect, count chunks inside its square, leave at the end. */
function newcomer (port) {
  const mc = require('minecraft-protocol')
  const need = (2 * VIEW + 1) ** 2
  const t0 = Date.now()
  const r = { need, chunks: 0, at2s: null }
  return new Promise((resolve) => {
    const client = mc.createClient({ host: '127.0.0.1', port, username: 'Newcomer', version: '1.20.1', auth: 'offline' })
    const have = new Set()
    let cx = null; let cz = null
    const count = () => {
      if (cx == null) return 0
      let n = 0
      for (const k of have) {
        const [x, z] = k.split(',').map(Number)
        if (Math.abs(x - cx) <= VIEW && Math.abs(z - cz) <= VIEW) n++
      }
      return n
    }
    const finish = (why) => {
      clearTimeout(timer); clearTimeout(t2)
      if (r.at2s == null && why === 'full view') r.at2s = count()
      r.end = why
      r.chunks = count()
      client.end()
      resolve(r)
    }
    const timer = setTimeout(() => finish('timeout 30 s'), 30000)
    let t2 = null
    client.on('success', () => {
      r.loginMs = Date.now() - t0
      t2 = setTimeout(() => { r.at2s = count() }, 2000)
    })
    client.on('position', (p) => {
      client.write('teleport_confirm', { teleportId: p.teleportId })
      cx = Math.floor(p.x / 16); cz = Math.floor(p.z / 16)
    })
    client.on('map_chunk', (p) => {
      have.add(`${p.x},${p.z}`)
      if (r.firstChunkMs == null) r.firstChunkMs = Date.now() - t0
      if (count() === need) { r.fullMs = Date.now() - t0; r.fullAfterLoginMs = r.fullMs - r.loginMs; finish('full view') }
    })
    client.on('unload_chunk', (p) => have.delete(`${p.chunkX},${p.chunkZ}`))
    client.on('error', (e) => finish('error: ' + e.message))
    client.on('end', () => { if (r.end == null) finish('server closed') })
  })
}

async function main () {
  const srv = await startServer()
  const t0 = Date.now()
  const samples = []
  let phase = 'idle'
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      const text = await getText(srv.admin, '/metrics')
      samples.push({
        t: (Date.now() - t0) / 1000,
        phase,
        rssKiB: rssKiB(srv.proc.pid),
        loaded: metric(text, 'minecraft_loaded_chunks'),
        workerJobs: metric(text, 'minecraft_worker_jobs_pending'),
        queued: metric(text, 'mcserv_chunk_requests_queued'),
        inFlightMax: metricMax(text, 'mcserv_player_chunk_requests_in_flight'),
        players: metric(text, 'minecraft_players_online'),
        tickMaxMs: (() => { const m = /^minecraft_tick_duration_recent_seconds\{quantile="1"\} ([0-9.e+-]+)$/m.exec(text); return m ? Number(m[1]) * 1000 : null })()
      })
      await sleep(500)
    }
  })()
  await sleep(2000)
  const baseline = rssKiB(srv.proc.pid)
  phase = 'flying'
  const tFly = Date.now()
  const bench = spawn(MCBENCH, ['--port', String(srv.port), '--bots', String(FLYERS), '--rate', '10',
    '--duration', String(FLY_S), '--view-distance', String(VIEW), '--name-prefix', 'flyer',
    '--script', path.join(__dirname, 'scripts', 'fly.lua'), '--quiet', '--max-time', String(FLY_S + 60)],
  { stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(bench)
  let benchOut = ''
  bench.stdout.on('data', (d) => { benchOut += d })
  bench.stderr.on('data', (d) => { benchOut += d })
  const benchDone = new Promise((resolve) => bench.on('exit', resolve))
  await sleep(NEWCOMER_AT_S * 1000)
  const nc = await newcomer(srv.port)
  await Promise.race([benchDone, sleep((FLY_S + 70) * 1000)])
  children.delete(bench)
  const tLeft = Date.now()
  phase = 'after'
  await sleep(AFTER_S * 1000)
  sampling = false
  await sampler
  srv.proc.kill('SIGTERM')
  await Promise.race([new Promise((resolve) => srv.proc.on('exit', resolve)), sleep(10000)])
  children.delete(srv.proc)
  try { srv.proc.kill('SIGKILL') } catch (e) {}

  const fly = samples.filter((s) => s.phase === 'flying')
  const max = (k, list = fly) => list.reduce((m, s) => s[k] == null ? m : Math.max(m == null ? 0 : m, s[k]), null)
  const leftS = (tLeft - t0) / 1000
  const rssAt = (dt) => { const s = samples.find((x) => x.t >= leftS + dt); return s ? s.rssKiB : null }
  const moved = /moved too quickly/g
  const result = {
    label: LABEL,
    date: new Date().toISOString(),
    config: { flyers: FLYERS, flySeconds: FLY_S, view: VIEW, newcomerAtS: NEWCOMER_AT_S, props: EXTRA_PROPS, mcserv: MCSERV },
    baselineRssKiB: baseline,
    flying: {
      seconds: (tLeft - tFly) / 1000,
      rssMaxKiB: max('rssKiB'),
      loadedMax: max('loaded'),
      workerJobsMax: max('workerJobs'),
      queuedMax: max('queued'),
      inFlightMax: max('inFlightMax'),
      tickMaxMs: max('tickMaxMs')
    },
    newcomer: nc,
    after: { rss30sKiB: rssAt(30), rss45sKiB: rssAt(45), rss60sKiB: rssAt(60), rssEndKiB: samples[samples.length - 1].rssKiB, loadedEnd: samples[samples.length - 1].loaded },
    movedTooQuickly: (srv.log().match(moved) || []).length,
    trimsMs: [...srv.log().matchAll(/malloc_trim after unloading chunks: ([\d.]+) ms/g)].map((m) => Number(m[1])),
    mcbench: benchOut.split('\n').filter((l) => /flew|joined|failed/.test(l)).slice(0, 12),
    samples
  }
  const mb = (k) => k == null ? '-' : (k / 1024).toFixed(1) + ' MB'
  console.log(`flyers: ${FLYERS} × ${FLY_S} s at 180 m/s, view ${VIEW} (${LABEL})`)
  console.log(`  RSS baseline ${mb(baseline)}, max while flying ${mb(result.flying.rssMaxKiB)}; loaded chunks max ${result.flying.loadedMax}`)
  console.log(`  worker jobs pending max ${result.flying.workerJobsMax}; chunk requests queued max ${result.flying.queuedMax ?? '-'}; per-player in flight max ${result.flying.inFlightMax ?? '-'}; longest tick ${result.flying.tickMaxMs != null ? result.flying.tickMaxMs.toFixed(1) + ' ms' : '-'}`)
  console.log(`  newcomer: ${nc.end}; ${nc.chunks}/${nc.need} chunks; at 2 s after login ${nc.at2s ?? '-'}; full view ${nc.fullAfterLoginMs != null ? nc.fullAfterLoginMs + ' ms after login' : 'not reached'}`)
  console.log(`  after the flyers left: RSS +30 s ${mb(result.after.rss30sKiB)}, +45 s ${mb(result.after.rss45sKiB)}, +60 s ${mb(result.after.rss60sKiB)}, end ${mb(result.after.rssEndKiB)}; loaded ${result.after.loadedEnd}`)
  console.log(`  "moved too quickly": ${result.movedTooQuickly}; mcbench: ${result.mcbench.join(' | ')}`)
  if (result.trimsMs.length) console.log(`  malloc_trim: ${result.trimsMs.length} runs, ${result.trimsMs.join(', ')} ms`)
  if (SAVE) {
    const out = path.join(__dirname, 'results', `${result.date.replace(/[-:]/g, '').replace(/\..*/, 'Z')}-flyers-${LABEL.replace(/[^A-Za-z0-9_-]/g, '_')}.json`)
    fs.writeFileSync(out, JSON.stringify(result, null, 1) + '\n')
    console.log(`  saved ${path.relative(ROOT, out)}`)
  }
  fs.rmSync(srv.dir, { recursive: true, force: true })
}

main().catch((e) => { console.error(e); process.exit(1) })
