#!/usr/bin/env node
'use strict'
// io-bench.js — the output-path benchmark of issue 13 (one write per tick,
// adaptive batching, io-threads): starts build/mcserv in a fresh temporary
// directory with its own game and admin ports, runs build/mcbench against
// it, and over the hold (after the last join) samples the server's socket
// writes (mcserv_socket_writes_total from /metrics; for a build without it
// /proc/PID/io syscw, which counts write and writev but not sendmsg), its CPU
// (/proc/PID/stat) and /metrics every 5 s (tick duration p99 of the last
// 5 s, the batching k in use). Prints one markdown row and a JSON line.
//
//   node tools/io-bench.js --scenario idle --bots 2000 --rate 200 --duration 20
//   node tools/io-bench.js --scenario crowd --bots 500 --prop io-threads=2
//
// Invariants: talks to 127.0.0.1 only; stops only the processes it started,
// by PID (SIGTERM, then SIGKILL after 5 s); every wait is bounded (server
// ready 30 s, mcbench its own --max-time plus 30 s).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const http = require('node:http')
const { spawn } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')
const CLK_TCK = 100

function parseArgs (argv) {
  const o = {
    scenario: 'idle', bots: 100, rate: 100, duration: 20, viewDistance: 2, props: {},
    mcserv: process.env.MCSERV || path.join(ROOT, 'build', 'mcserv'),
    mcbench: process.env.MCBENCH || path.join(ROOT, 'build', 'mcbench'),
    label: '', extra: []
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
      return argv[++i]
    }
    switch (a) {
      case '--scenario': o.scenario = v(); break
      case '--bots': o.bots = Number(v()); break
      case '--rate': o.rate = Number(v()); break
      case '--duration': o.duration = Number(v()); break
      case '--view-distance': o.viewDistance = Number(v()); break
      case '--prop': { const [k, ...r] = v().split('='); o.props[k] = r.join('='); break }
      case '--mcserv': o.mcserv = v(); break
      case '--mcbench': o.mcbench = v(); break
      case '--label': o.label = v(); break
      case '--': o.extra = argv.slice(i + 1); i = argv.length; break
      case '-h': case '--help':
        console.log('usage: tools/io-bench.js [--scenario S] [--bots N] [--rate R] [--duration S]\n' +
          '  [--view-distance N] [--prop key=value ...] [--mcserv PATH] [--mcbench PATH]\n' +
          '  [--label TEXT] [-- extra mcbench options]')
        process.exit(0)
        break
      default: throw new Error(`unknown option ${a}`)
    }
  }
  return o
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const started = new Set()
process.on('exit', () => { for (const p of started) { try { p.kill('SIGKILL') } catch (e) {} } })

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
}

function waitExit (proc, ms) {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms)
    proc.once('exit', () => { clearTimeout(t); resolve(true) })
  })
}

async function stopProc (proc) {
  if (proc.exitCode === null && proc.signalCode === null) {
    try { proc.kill('SIGTERM') } catch (e) {}
    if (!(await waitExit(proc, 5000))) {
      try { proc.kill('SIGKILL') } catch (e) {}
      await waitExit(proc, 2000)
    }
  }
  started.delete(proc)
}

function procSample (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8')
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return {
      t: Date.now(),
      cpu: (Number(f[11]) + Number(f[12])) / CLK_TCK,
      syscw: Number((/^syscw:\s+(\d+)/m.exec(io) || [0, 0])[1]),
      rss: Number((/^VmRSS:\s+(\d+)/m.exec(status) || [0, 0])[1])
    }
  } catch (e) {
    return null
  }
}

function scrape (port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/metrics', timeout: 3000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve(body))
    })
    req.on('error', () => resolve(''))
    req.on('timeout', () => { req.destroy(); resolve('') })
  })
}

function metric (body, re) {
  const m = re.exec(body)
  return m ? Number(m[1]) : null
}

const q = (a, p) => {
  if (!a.length) return null
  const s = [...a].sort((x, y) => x - y)
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]
}

async function main () {
  const o = parseArgs(process.argv.slice(2))
  const port = await freePort()
  const admin = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'io-bench-'))
  const props = {
    'server-ip': '127.0.0.1',
    'server-port': port,
    'admin-http-port': admin,
    'online-mode': 'false',
    'level-type': 'flat',
    'view-distance': o.viewDistance,
    'max-players': o.bots + 100,
    motd: 'io-bench target',
    ...o.props
  }
  fs.writeFileSync(path.join(dir, 'server.properties'),
    Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
  const srv = spawn(o.mcserv, [], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
  started.add(srv)
  srv.stdin.on('error', () => {})
  let out = ''
  for (const s of [srv.stdout, srv.stderr]) {
    s.setEncoding('utf8')
    s.on('data', (d) => { out = (out + d).slice(-100000) })
  }
  const t0 = Date.now()
  while (!/Done \(/.test(out)) {
    if (srv.exitCode !== null || Date.now() - t0 > 30000) throw new Error('mcserv not ready:\n' + out)
    await sleep(20)
  }
  const jsonFile = path.join(dir, 'report.json')
  const ramp = o.bots / o.rate
  const args = ['--port', String(port), '--bots', String(o.bots), '--rate', String(o.rate),
    '--duration', String(o.duration), '--scenario', o.scenario, '--view-distance', String(o.viewDistance),
    '--json', jsonFile, '--quiet', ...o.extra]
  const bench = spawn(o.mcbench, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  started.add(bench)
  let benchErr = ''
  bench.stderr.setEncoding('utf8')
  bench.stderr.on('data', (d) => { benchErr = (benchErr + d).slice(-20000) })
  // The hold window: from 3 s after the last join is due to 2 s before the end.
  await sleep((ramp + 3) * 1000)
  const a = procSample(srv.pid)
  const p99 = []
  const ks = []
  let mspt = []
  const windowS = Math.max(1, o.duration - 5)
  const tEnd = Date.now() + windowS * 1000
  let wBefore = metric(await scrape(admin), /^mcserv_socket_writes_total (\S+)/m)
  while (Date.now() < tEnd) {
    await sleep(Math.min(5000, tEnd - Date.now()))
    const body = await scrape(admin)
    const v = metric(body, /^minecraft_tick_duration_recent_seconds\{quantile="0.99"\} (\S+)/m)
    if (v !== null) p99.push(v * 1000)
    const m = metric(body, /^minecraft_tick_duration_recent_seconds\{quantile="0.5"\} (\S+)/m)
    if (m !== null) mspt.push(m * 1000)
    const k = metric(body, /^mcserv_output_batch_ticks (\S+)/m)
    if (k !== null) ks.push(k)
  }
  const z = procSample(srv.pid)
  const wAfter = metric(await scrape(admin), /^mcserv_socket_writes_total (\S+)/m)
  const finished = await waitExit(bench, (ramp + o.duration + 120) * 1000)
  if (!finished) { try { bench.kill('SIGKILL') } catch (e) {} }
  started.delete(bench)
  await stopProc(srv)
  let rep = {}
  try { rep = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) } catch (e) {
    console.error('no mcbench report:\n' + benchErr)
  }
  fs.rmSync(dir, { recursive: true, force: true })
  const dt = (z.t - a.t) / 1000
  const j = (rep.phases && rep.phases.own_chunk) || {}
  const r = {
    label: o.label,
    scenario: o.scenario,
    bots: o.bots,
    props: o.props,
    failed: rep.failures ? rep.failures.total : null,
    failure_reasons: rep.failures ? rep.failures.by_reason : null,
    join_p50_ms: j.p50 ?? null,
    join_p99_ms: j.p99 ?? null,
    writes_per_s: Math.round((z.syscw - a.syscw) / dt), // write/writev syscalls (not sendmsg)
    metric_writes_per_s: wBefore !== null && wAfter !== null ? Math.round((wAfter - wBefore) / dt) : null,
    cpu_pct: Math.round((z.cpu - a.cpu) / dt * 1000) / 10,
    cpu_ms_per_bot_s: Math.round((z.cpu - a.cpu) / dt / o.bots * 1e6) / 1000,
    mspt_p50_ms: q(mspt, 0.5),
    mspt_p99_ms_max: p99.length ? Math.max(...p99) : null,
    mspt_p99_ms_median: q(p99, 0.5),
    k_max: ks.length ? Math.max(...ks) : null,
    egress_mb_s: rep.traffic ? rep.traffic.rx_mb_s : null,
    rss_mib: Math.round(z.rss / 1024),
    window_s: Math.round(dt)
  }
  console.log(`| ${o.label} | ${o.scenario} ${o.bots} | ${r.failed} | ${r.join_p50_ms} / ${r.join_p99_ms} | ` +
    `${r.metric_writes_per_s ?? r.writes_per_s} | ${r.cpu_pct} % (${r.cpu_ms_per_bot_s} ms/s per bot) | ` +
    `${r.mspt_p50_ms?.toFixed(2)} / ${r.mspt_p99_ms_max?.toFixed(2)} | ${r.k_max ?? '-'} | ${r.rss_mib} MiB |`)
  console.log(JSON.stringify(r))
}

main().catch((e) => { console.error(e.message); process.exit(1) })
