#!/usr/bin/env node
// profcost.js — what profiling costs (issue 16, acceptance 7): a 200-bot walk
// on one server, alternating windows without and with a CPU profile running
// (GET /debug/pprof/profile?seconds=W&hz=HZ), so both sides see the same
// players, chunks and machine load. Per window: the server's CPU (utime +
// stime from /proc, in % of one core) and the MSPT median of the window
// (/api/tick's 10 s figures, read at the window's end: W is 10).
//
//   node bench/profcost.js [--bots 200] [--windows 4] [--hz 100]
//
// MCSERV and MCBENCH name the binaries (default build/). Prints one line per
// window and a summary; --json FILE writes them. Everything on 127.0.0.1.
'use strict'
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const http = require('node:http')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const MCSERV = process.env.MCSERV || path.join(ROOT, 'build', 'mcserv')
const MCBENCH = process.env.MCBENCH || path.join(ROOT, 'build', 'mcbench')
const W = 10 // seconds per window: /api/tick's short window

const opt = { bots: 200, windows: 4, hz: 100, json: null }
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  const v = process.argv[++i]
  if (a === '--bots') opt.bots = Number(v)
  else if (a === '--windows') opt.windows = Number(v)
  else if (a === '--hz') opt.hz = Number(v)
  else if (a === '--json') opt.json = v
  else { console.error(`unknown option ${a}`); process.exit(2) }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer()
  s.on('error', reject)
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
})
function get (port, p, timeoutMs = 10000) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p }, (res) => {
      const chunks = []
      res.on('data', (d) => chunks.push(d))
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }))
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${p}: timeout`)))
    req.on('error', reject)
  })
}
const getJson = async (port, p) => JSON.parse((await get(port, p)).body.toString())
const CLK = 100 // USER_HZ (sysconf(_SC_CLK_TCK) on Linux)
function cpuTicks (pid) {
  const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = st.slice(st.lastIndexOf(')') + 2).split(' ')
  return Number(f[11]) + Number(f[12]) // utime, stime
}

async function main () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-profcost-'))
  const port = await freePort()
  let httpPort = await freePort()
  while (httpPort === port) httpPort = await freePort()
  fs.writeFileSync(path.join(dir, 'server.properties'), [
    `server-port=${port}`, 'server-ip=127.0.0.1', `admin-http-port=${httpPort}`, 'online-mode=false',
    `max-players=${opt.bots + 50}`, 'view-distance=10', 'level-type=normal', 'enable-rcon=false',
    'enable-query=false', 'spawn-protection=0'].join('\n') + '\n')
  const srv = spawn(MCSERV, [], { cwd: dir, stdio: ['pipe', 'ignore', 'ignore'] })
  const children = [srv]
  const stop = () => { for (const c of children) if (c.exitCode === null) c.kill('SIGTERM') }
  process.on('exit', stop)
  try {
    for (let i = 0; ; i++) {
      try { await get(httpPort, '/healthz', 1000); break } catch (e) { if (i > 100) throw e; await sleep(100) }
    }
    const duration = 40 + opt.windows * 2 * (W + 1) + 20
    const bench = spawn(MCBENCH, ['--port', String(port), '--bots', String(opt.bots), '--rate', '50',
      '--duration', String(duration), '--scenario', 'walk', '--radius', '32', '--view-distance', '10',
      '--join-timeout', '45'], { stdio: ['ignore', 'ignore', 'ignore'] })
    children.push(bench)
    for (let i = 0; (await getJson(httpPort, '/api/status')).players.online < opt.bots; i++) {
      if (i > 600) throw new Error('the bots did not all join')
      await sleep(100)
    }
    // the joins' chunks generated and encoded: the steady walk
    for (let i = 0; !/^minecraft_worker_jobs_pending 0$/m.test((await get(httpPort, '/metrics')).body.toString()); i++) {
      if (i > 600) throw new Error('the workers did not go idle')
      await sleep(100)
    }
    await sleep(2000)
    const rows = []
    for (let w = 0; w < opt.windows * 2; w++) {
      const profiled = w % 2 === 1
      const c0 = cpuTicks(srv.pid)
      const t0 = Date.now()
      let samples = null
      if (profiled) {
        const r = await get(httpPort, `/debug/pprof/profile?seconds=${W}&hz=${opt.hz}&format=collapsed`, (W + 20) * 1000)
        if (r.status !== 200) throw new Error(`profile: ${r.status} ${r.body}`)
        samples = r.body.toString().trim().split('\n').filter(Boolean)
          .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0)
      } else {
        await sleep(W * 1000)
      }
      const secs = (Date.now() - t0) / 1000
      const cpu = (cpuTicks(srv.pid) - c0) / CLK / secs * 100
      const tick = await getJson(httpPort, '/api/tick')
      const row = { window: w, profiled, seconds: +secs.toFixed(2), cpu_pct_core: +cpu.toFixed(2), mspt_p50: tick.mspt['10s'].p50, mspt_p99: tick.mspt['10s'].p99, samples }
      rows.push(row)
      console.log(`${profiled ? 'profiled' : 'off     '}  ${secs.toFixed(1)} s  cpu ${cpu.toFixed(2)} % of a core  MSPT p50 ${row.mspt_p50.toFixed(3)} ms  p99 ${row.mspt_p99.toFixed(3)} ms${profiled ? `  ${samples} samples` : ''}`)
      await sleep(1000) // the next window's 10 s figures start after this one's
    }
    const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length
    const off = rows.filter((r) => !r.profiled)
    const on = rows.filter((r) => r.profiled)
    const summary = {
      bots: opt.bots, hz: opt.hz, windows: opt.windows,
      cpu_off: +mean(off.map((r) => r.cpu_pct_core)).toFixed(2),
      cpu_on: +mean(on.map((r) => r.cpu_pct_core)).toFixed(2),
      mspt_p50_off: +mean(off.map((r) => r.mspt_p50)).toFixed(4),
      mspt_p50_on: +mean(on.map((r) => r.mspt_p50)).toFixed(4),
      samples_per_window: Math.round(mean(on.map((r) => r.samples))),
      loadavg: os.loadavg()[0]
    }
    summary.cpu_cost_pct_core = +(summary.cpu_on - summary.cpu_off).toFixed(2)
    summary.mspt_p50_change_pct = +((summary.mspt_p50_on / summary.mspt_p50_off - 1) * 100).toFixed(1)
    console.log(JSON.stringify(summary))
    if (opt.json) fs.writeFileSync(opt.json, JSON.stringify({ summary, rows }, null, 2) + '\n')
  } finally {
    stop()
    await sleep(500)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => { console.error(e.message); process.exitCode = 1 })
