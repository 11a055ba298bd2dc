#!/usr/bin/env node
'use strict'
// run.js — the benchmark harness: per scenario and target, start a fresh
// target server, run mcbench against it, sample the server's CPU and RSS
// from /proc once a second, stop the server by PID, and keep the result.
//
//   node bench/run.js --target mcserv --scenario idle --bots 1000 [options]
//   node bench/run.js --default          (what `make bench` runs)
//
// Targets: mcserv (build/mcserv in a fresh temporary directory) and
// flying-squid (bench/flying-squid-server.js, the npm peer). Results:
// bench/results/<date>-<scenario>-<target>.json plus one markdown row
// appended to bench/results/results.md.
//
// Invariants:
//   * Only processes this script started are stopped, by PID (SIGTERM, then
//     SIGKILL after 5 s); they are also killed if this script exits early.
//   * Every wait is bounded: server readiness 30 s, mcbench by its own
//     --max-time plus a margin after which it is killed.
//   * Talks to 127.0.0.1 only.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const http = require('node:http')
const { spawn } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')
const RESULTS = path.join(__dirname, 'results')
const CLK_TCK = 100 // Linux USER_HZ; /proc/PID/stat counts in these

const HELP = `usage: bench/run.js [options] [-- extra mcbench options]
  --target mcserv|flying-squid   (default mcserv)
  --scenario idle|walk|chat|crowd|churn   (default idle)
  --script FILE.lua              run a Lua script instead of a scenario
  --bots N --rate R --duration S (defaults 100, 100/s, 20 s)
  --view-distance N              server and bots (default 2)
  --compression T                mcserv network-compression-threshold (default 256; -1 off)
  --runs N                       repeat, report the median (default 1)
  --label TEXT                   free text stored with the result
  --metrics-url URL              scrape this Prometheus endpoint before and after
  --mcserv PATH --mcbench PATH   binaries (default build/mcserv, build/mcbench; env MCSERV/MCBENCH)
  --no-save                      do not write to bench/results/
  --default                      the default set: idle 1000, walk 200, crowd 200,
                                 each against mcserv and flying-squid, with ratios`

// ------------------------------------------------------------------ options

function parseArgs (argv) {
  const o = {
    target: 'mcserv',
    scenario: 'idle',
    script: null,
    bots: 100,
    rate: 100,
    duration: 20,
    viewDistance: 2,
    compression: 256,
    runs: 1,
    label: '',
    metricsUrl: process.env.MCSERV_METRICS_URL || null,
    mcserv: process.env.MCSERV || path.join(ROOT, 'build', 'mcserv'),
    mcbench: process.env.MCBENCH || path.join(ROOT, 'build', 'mcbench'),
    save: true,
    default: false,
    extra: []
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
      return argv[++i]
    }
    switch (a) {
      case '--target': o.target = next(); break
      case '--scenario': o.scenario = next(); break
      case '--script': o.script = path.resolve(next()); o.scenario = 'script'; break
      case '--bots': o.bots = Number(next()); break
      case '--rate': o.rate = Number(next()); break
      case '--duration': o.duration = Number(next()); break
      case '--view-distance': o.viewDistance = Number(next()); break
      case '--compression': o.compression = Number(next()); break
      case '--runs': o.runs = Number(next()); break
      case '--label': o.label = next(); break
      case '--metrics-url': o.metricsUrl = next(); break
      case '--mcserv': o.mcserv = path.resolve(next()); break
      case '--mcbench': o.mcbench = path.resolve(next()); break
      case '--no-save': o.save = false; break
      case '--default': o.default = true; break
      case '--': o.extra = argv.slice(i + 1); i = argv.length; break
      case '-h': case '--help': console.log(HELP); process.exit(0); break
      default: throw new Error(`unknown option ${a} (see --help)`)
    }
  }
  if (!['mcserv', 'flying-squid'].includes(o.target)) throw new Error(`--target: mcserv or flying-squid, not ${o.target}`)
  for (const k of ['bots', 'rate', 'duration', 'viewDistance', 'runs']) {
    if (!Number.isFinite(o[k]) || o[k] <= 0) throw new Error(`--${k}: a positive number, got ${o[k]}`)
  }
  return o
}

// ------------------------------------------------------------- processes

const started = new Set()
process.on('exit', () => { for (const p of started) { try { p.kill('SIGKILL') } catch (e) {} } })
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const p of started) { try { p.kill('SIGTERM') } catch (e) {} }
    process.exit(130)
  })
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
  })
}

function canConnect (port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port })
    const done = (ok) => { s.destroy(); resolve(ok) }
    s.once('connect', () => done(true))
    s.once('error', () => done(false))
    s.setTimeout(1000, () => done(false))
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
  return { code: proc.exitCode, signal: proc.signalCode }
}

/** Starts the target; resolves { proc, pid, port, dir, version, output() }. */
async function startTarget (o) {
  const port = await freePort()
  let proc
  let dir = null
  let out = ''
  let readyRe
  if (o.target === 'mcserv') {
    if (!fs.existsSync(o.mcserv)) throw new Error(`mcserv not found at ${o.mcserv} (run make)`)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcbench-mcserv-'))
    const props = {
      'server-ip': '127.0.0.1',
      'server-port': port,
      'online-mode': 'false',
      'level-type': 'flat',
      'view-distance': o.viewDistance,
      'max-players': o.bots + 100,
      'network-compression-threshold': o.compression,
      motd: 'mcbench target'
    }
    fs.writeFileSync(path.join(dir, 'server.properties'),
      Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
    proc = spawn(o.mcserv, [], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
    readyRe = /Done \(/
  } else {
    proc = spawn(process.execPath, [path.join(__dirname, 'flying-squid-server.js'), '--port', String(port),
      '--max-players', String(o.bots + 100), '--view-distance', String(o.viewDistance), '--exit-on-stdin-close'],
    { stdio: ['pipe', 'pipe', 'pipe'] })
    readyRe = /ready \d+/
  }
  started.add(proc)
  proc.stdin.on('error', () => {})
  for (const s of [proc.stdout, proc.stderr]) {
    s.setEncoding('utf8')
    s.on('data', (d) => { out = (out + d).slice(-200000) })
  }
  const t0 = Date.now()
  const fail = async (msg) => {
    await stopProc(proc)
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
    throw new Error(msg)
  }
  while (!readyRe.test(out)) {
    if (proc.exitCode !== null || proc.signalCode !== null) await fail(`${o.target} exited before ready:\n${out.slice(-3000)}`)
    if (Date.now() - t0 > 30000) await fail(`${o.target} not ready within 30 s:\n${out.slice(-3000)}`)
    await sleep(20)
  }
  const readyMs = Date.now() - t0
  while (!(await canConnect(port))) {
    if (Date.now() - t0 > 30000) await fail(`${o.target} port ${port} not accepting`)
    await sleep(50)
  }
  let version = null
  try {
    if (o.target === 'mcserv') {
      // No version string yet: identify the binary by its path and content hash.
      const sha = require('node:crypto').createHash('sha256').update(fs.readFileSync(o.mcserv)).digest('hex')
      version = `mcserv ${path.relative(ROOT, o.mcserv) || o.mcserv} sha256:${sha.slice(0, 12)}`
    } else {
      version = 'flying-squid ' + require(path.join(ROOT, 'node_modules', 'flying-squid', 'package.json')).version
    }
  } catch (e) {}
  return { proc, pid: proc.pid, port, dir, version, readyMs, output: () => out }
}

// ---------------------------------------------------------------- sampling

function procSample (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cpuTicks = Number(f[11]) + Number(f[12]) // utime + stime (fields 14, 15)
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const rss = Number((/^VmRSS:\s+(\d+)/m.exec(status) || [0, 0])[1])
    const threads = Number((/^Threads:\s+(\d+)/m.exec(status) || [0, 0])[1])
    let fds = null
    try { fds = fs.readdirSync(`/proc/${pid}/fd`).length } catch (e) {}
    return { t: Date.now(), cpu_s: cpuTicks / CLK_TCK, rss_kib: rss, threads, fds }
  } catch (e) {
    return null
  }
}

function startSampler (pid) {
  const samples = []
  const first = procSample(pid)
  if (first) samples.push(first)
  const timer = setInterval(() => { const s = procSample(pid); if (s) samples.push(s) }, 1000)
  return {
    stop: () => {
      clearInterval(timer)
      const last = procSample(pid)
      if (last) samples.push(last)
      return samples
    }
  }
}

function summarize (samples) {
  if (samples.length < 2) return null
  const a = samples[0]
  const z = samples[samples.length - 1]
  const pct = []
  for (let i = 1; i < samples.length; i++) {
    const dt = (samples[i].t - samples[i - 1].t) / 1000
    if (dt > 0) pct.push((samples[i].cpu_s - samples[i - 1].cpu_s) / dt * 100)
  }
  const rss = samples.map((s) => s.rss_kib)
  return {
    wall_s: (z.t - a.t) / 1000,
    cpu_s: +(z.cpu_s - a.cpu_s).toFixed(3),
    cpu_pct_avg: +((z.cpu_s - a.cpu_s) / ((z.t - a.t) / 1000) * 100).toFixed(1),
    cpu_pct_max: +Math.max(...pct).toFixed(1),
    rss_kib_start: a.rss_kib,
    rss_kib_max: Math.max(...rss),
    rss_kib_end: z.rss_kib,
    fds_max: Math.max(...samples.map((s) => s.fds || 0)),
    threads_max: Math.max(...samples.map((s) => s.threads || 0)),
    samples: samples.map((s) => [+(((s.t - a.t) / 1000).toFixed(1)), +(s.cpu_s - a.cpu_s).toFixed(2), s.rss_kib, s.fds])
  }
}

function scrape (url) {
  if (!url) return Promise.resolve(null)
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { if (body.length < 4e6) body += d })
      res.on('end', () => {
        const m = {}
        for (const line of body.split('\n')) {
          const x = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?)\s+([-+0-9.eE]+|NaN|[+-]Inf)/.exec(line)
          if (x) m[x[1]] = Number(x[2])
        }
        resolve(res.statusCode === 200 ? m : null)
      })
    })
    req.on('timeout', () => { req.destroy(); resolve(null) })
    req.on('error', () => resolve(null))
  })
}

// ------------------------------------------------------------------ a run

function mcbenchArgs (o, port, jsonPath) {
  const a = ['--port', String(port), '--bots', String(o.bots), '--rate', String(o.rate),
    '--duration', String(o.duration), '--view-distance', String(o.viewDistance), '--json', jsonPath,
    '--max-failures', String(o.maxFailures != null ? o.maxFailures : 0)]
  if (o.script) a.push('--script', o.script)
  else a.push('--scenario', o.scenario)
  return a.concat(o.extra)
}

async function runOnce (o) {
  const target = await startTarget(o)
  const tmpJson = path.join(os.tmpdir(), `mcbench-${process.pid}-${Date.now()}.json`)
  const before = await scrape(o.metricsUrl)
  const sampler = startSampler(target.pid)
  const args = mcbenchArgs(o, target.port, tmpJson)
  process.stderr.write(`\n== ${o.scenario} x ${o.bots} against ${o.target} (port ${target.port}, pid ${target.pid}): mcbench ${args.join(' ')}\n`)
  const bench = spawn(o.mcbench, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  started.add(bench)
  let table = ''
  bench.stdout.setEncoding('utf8')
  bench.stdout.on('data', (d) => { table += d })
  const limit = (o.bots / o.rate + o.duration + 30 + 10 + 60 + 30) * 1000
  const killer = setTimeout(() => { try { bench.kill('SIGKILL') } catch (e) {} }, limit)
  await waitExit(bench, limit + 5000)
  clearTimeout(killer)
  const benchExit = { code: bench.exitCode, signal: bench.signalCode }
  started.delete(bench)
  const samples = sampler.stop()
  const after = await scrape(o.metricsUrl)
  const serverExit = await stopProc(target.proc)
  if (target.dir) fs.rmSync(target.dir, { recursive: true, force: true })
  let mc = null
  try { mc = JSON.parse(fs.readFileSync(tmpJson, 'utf8')) } catch (e) {}
  try { fs.unlinkSync(tmpJson) } catch (e) {}
  process.stderr.write(table)
  if (!mc) throw new Error(`mcbench wrote no JSON (exit ${JSON.stringify(benchExit)})`)
  const server = summarize(samples)
  const joined = mc.bots.joined_initial || 0
  const derived = {
    server_cpu_ms_per_bot: server ? +(server.cpu_s * 1000 / o.bots).toFixed(3) : null,
    mcbench_cpu_ms_per_bot: mc.self.cpu_ms_per_bot,
    mcbench_over_server_cpu: server && server.cpu_s > 0 ? +(mc.self.cpu_s / server.cpu_s).toFixed(3) : null,
    server_rss_kib_per_player: server && joined ? +((server.rss_kib_max - server.rss_kib_start) / joined).toFixed(1) : null,
    join_p50_ms: mc.phases.own_chunk.p50 ?? null,
    join_p99_ms: mc.phases.own_chunk.p99 ?? null,
    join_max_ms: mc.phases.own_chunk.max ?? null
  }
  return {
    date: new Date().toISOString(),
    target: o.target,
    target_version: target.version,
    target_ready_ms: target.readyMs,
    mcbench_binary: `${path.relative(ROOT, o.mcbench) || o.mcbench} sha256:${require('node:crypto').createHash('sha256').update(fs.readFileSync(o.mcbench)).digest('hex').slice(0, 12)}`,
    scenario: o.scenario,
    label: o.label,
    params: { bots: o.bots, rate: o.rate, duration: o.duration, view_distance: o.viewDistance, compression: o.target === 'mcserv' ? o.compression : 256, extra: o.extra },
    machine: { cpus: os.cpus().length, model: (os.cpus()[0] || {}).model, mem_mib: Math.round(os.totalmem() / 1048576), kernel: os.release() },
    mcbench_exit: benchExit,
    server_exit: serverExit,
    server,
    metrics: before || after ? { before, after } : null,
    metrics_note: before || after ? null : (o.metricsUrl ? `no answer from ${o.metricsUrl}` : 'no metrics endpoint known for this target (mcserv has none yet): skipped'),
    derived,
    mcbench: mc
  }
}

function median (xs) {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b)
  if (!v.length) return null
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2
}

function fmt (x, d = 2) { return x == null ? '-' : Number(x).toFixed(d) }

function saveResult (r) {
  fs.mkdirSync(RESULTS, { recursive: true })
  const stamp = r.date.replace(/:/g, '').replace(/\.\d+Z$/, 'Z')
  let file = path.join(RESULTS, `${stamp}-${r.scenario}-${r.target}.json`)
  for (let i = 2; fs.existsSync(file); i++) file = path.join(RESULTS, `${stamp}-${r.scenario}-${r.target}-${i}.json`)
  fs.writeFileSync(file, JSON.stringify(r, null, 1) + '\n')
  const md = path.join(RESULTS, 'results.md')
  if (!fs.existsSync(md)) {
    fs.writeFileSync(md, '# mcbench results\n\nOne row per run (bench/run.js). Server CPU and RSS are sampled from /proc once a second during the mcbench run; "join" is connect → chunk at the bot\'s own position.\n\n' +
      '| date | target | scenario | bots | rate/s | hold s | joined | failed | join p50 ms | join p99 ms | server CPU ms/bot | server CPU % avg | server RSS max MB | server KB/player | mcbench CPU ms/bot | mcbench/server CPU | rx MB/s | file |\n' +
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')
  }
  const m = r.mcbench
  const s = r.server || {}
  const row = [r.date.slice(0, 19).replace('T', ' '), r.target, r.scenario + (r.label ? ` (${r.label})` : ''), r.params.bots, r.params.rate, r.params.duration,
    m.bots.joined_initial, m.failures.total, fmt(r.derived.join_p50_ms), fmt(r.derived.join_p99_ms),
    fmt(r.derived.server_cpu_ms_per_bot, 3), fmt(s.cpu_pct_avg, 1), fmt(s.rss_kib_max / 1024, 1), fmt(r.derived.server_rss_kib_per_player, 1),
    fmt(r.derived.mcbench_cpu_ms_per_bot, 3), fmt(r.derived.mcbench_over_server_cpu, 3), fmt(m.traffic.rx_mb_s, 2), path.basename(file)]
  fs.appendFileSync(md, '| ' + row.join(' | ') + ' |\n')
  return file
}

async function runConfig (o) {
  const results = []
  for (let i = 0; i < o.runs; i++) {
    const r = await runOnce(o)
    if (o.save) r.file = saveResult(r)
    results.push(r)
    const d = r.derived
    process.stderr.write(`-> ${o.target} ${o.scenario}: joined ${r.mcbench.bots.joined_initial}/${o.bots}, failed ${r.mcbench.failures.total}, ` +
      `join p50/p99 ${fmt(d.join_p50_ms)}/${fmt(d.join_p99_ms)} ms, server cpu ${fmt(d.server_cpu_ms_per_bot, 3)} ms/bot ` +
      `(rss max ${fmt(r.server && r.server.rss_kib_max / 1024, 1)} MB), mcbench cpu ${fmt(d.mcbench_cpu_ms_per_bot, 3)} ms/bot ` +
      `= ${fmt(d.mcbench_over_server_cpu, 3)} x server${r.file ? `\n   saved ${path.relative(ROOT, r.file)}` : ''}\n`)
  }
  return {
    target: o.target,
    scenario: o.scenario,
    bots: o.bots,
    runs: results.length,
    joined: median(results.map((r) => r.mcbench.bots.joined_initial)),
    failed: median(results.map((r) => r.mcbench.failures.total)),
    join_p50_ms: median(results.map((r) => r.derived.join_p50_ms)),
    join_p99_ms: median(results.map((r) => r.derived.join_p99_ms)),
    server_cpu_ms_per_bot: median(results.map((r) => r.derived.server_cpu_ms_per_bot)),
    server_rss_mb: median(results.map((r) => r.server && r.server.rss_kib_max / 1024)),
    mcbench_cpu_ms_per_bot: median(results.map((r) => r.derived.mcbench_cpu_ms_per_bot)),
    mcbench_over_server_cpu: median(results.map((r) => r.derived.mcbench_over_server_cpu))
  }
}

// The default set (`make bench`): bounded well under 10 minutes.
const DEFAULT_SET = [
  { scenario: 'idle', bots: 1000, rate: 50, duration: 20 },
  { scenario: 'walk', bots: 200, rate: 20, duration: 20 },
  { scenario: 'crowd', bots: 200, rate: 20, duration: 20 }
]

async function main () {
  let o
  try { o = parseArgs(process.argv.slice(2)) } catch (e) { console.error(`run.js: ${e.message}`); process.exit(2) }
  if (!fs.existsSync(o.mcbench)) { console.error(`run.js: mcbench not found at ${o.mcbench} (run make)`); process.exit(2) }
  if (!o.default) {
    const s = await runConfig(o)
    process.exit(s.failed > 0 ? 1 : 0)
  }
  const t0 = Date.now()
  const rows = []
  for (const cfg of DEFAULT_SET) {
    const pair = {}
    for (const target of ['mcserv', 'flying-squid']) {
      // A failure to even start one target is reported, not fatal to the set.
      try {
        pair[target] = await runConfig(Object.assign({}, o, cfg, { target, maxFailures: 1e9 }))
      } catch (e) {
        process.stderr.write(`!! ${target} ${cfg.scenario}: ${e.message}\n`)
        pair[target] = null
      }
    }
    rows.push({ cfg, pair })
  }
  const ratio = (a, b) => (a != null && b != null && a > 0 ? b / a : null)
  let out = `\nmcbench default set (${((Date.now() - t0) / 1000).toFixed(0)} s): mcserv vs flying-squid, same machine, same run\n\n`
  out += '| scenario | bots | target | joined | failed | join p50 ms | join p99 ms | server CPU ms/bot | server RSS MB | mcbench/server CPU |\n|---|---|---|---|---|---|---|---|---|---|\n'
  for (const { cfg, pair } of rows) {
    for (const t of ['mcserv', 'flying-squid']) {
      const s = pair[t]
      out += `| ${cfg.scenario} | ${cfg.bots} | ${t} | ${s ? s.joined : '-'} | ${s ? s.failed : '-'} | ${fmt(s && s.join_p50_ms)} | ${fmt(s && s.join_p99_ms)} | ${fmt(s && s.server_cpu_ms_per_bot, 3)} | ${fmt(s && s.server_rss_mb, 1)} | ${fmt(s && s.mcbench_over_server_cpu, 3)} |\n`
    }
  }
  out += '\nratios flying-squid / mcserv (higher = mcserv better):\n\n| scenario | join p99 | server CPU per bot | server RSS |\n|---|---|---|---|\n'
  for (const { cfg, pair } of rows) {
    const a = pair.mcserv
    const b = pair['flying-squid']
    out += `| ${cfg.scenario} ${cfg.bots} | ${fmt(ratio(a && a.join_p99_ms, b && b.join_p99_ms), 1)}x | ${fmt(ratio(a && a.server_cpu_ms_per_bot, b && b.server_cpu_ms_per_bot), 1)}x | ${fmt(ratio(a && a.server_rss_mb, b && b.server_rss_mb), 1)}x |\n`
  }
  process.stdout.write(out)
  if (o.save) {
    const stamp = new Date().toISOString().replace(/:/g, '').replace(/\.\d+Z$/, 'Z')
    fs.writeFileSync(path.join(RESULTS, `${stamp}-default-set.md`), out.trimStart())
  }
  const mcservFailed = rows.some(({ pair }) => !pair.mcserv || pair.mcserv.failed > 0)
  process.exit(mcservFailed ? 1 : 0)
}

main().catch((e) => { console.error(`run.js: ${e.stack || e}`); process.exit(2) })
