#!/usr/bin/env node
'use strict'
// run.js — the benchmark harness: per scenario and target, start a fresh
// target server, run mcbench against it, sample the server's CPU and RSS
// from /proc and its /metrics once a second, stop the server by PID, and
// keep the result.
//
//   node bench/run.js --target mcserv --scenario idle --bots 1000 [options]
//   node bench/run.js --default          (what `make bench` runs)
//
// Targets: mcserv (build/mcserv in a fresh temporary directory, with its
// own admin-http-port, and RCON for the spread and explosion scenarios) and flying-squid
// (bench/flying-squid-server.js, the npm peer). Results:
// bench/results/<date>-<scenario>-<target>.json plus one markdown row
// appended to bench/results/results.md.
//
// Hold figures: mcbench reports when its hold began (wall clock) and how
// long it lasted; the /metrics samples inside that window give
//   * MSPT p50/p99/max: mcserv's minecraft_tick_duration_recent_seconds
//     quantiles cover its last 100 ticks; samples about 100 ticks apart
//     tile the hold. p50 = the median of the windows' medians (an
//     estimate); p99 = the highest window p99 (each window's p99 is its
//     2nd-longest tick, so by pigeonhole this is >= the hold's own p99 when
//     the windows tile it: an upper bound); max = the highest window max
//     (exact when they tile it); mean = exact, from the histogram's sum
//     and count;
//   * egress bytes/s: minecraft_network_sent_bytes_total over the hold;
//     for a target without /metrics (flying-squid): the bytes the bots
//     received during the hold (mcbench traffic.hold_rx_bytes), and the row
//     says so;
//   * chunks generated/s: minecraft_chunks_generated_total over the hold
//     (bots' distinct chunks per second where there is no /metrics).
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
let RESULTS = path.join(__dirname, 'results') // --results-dir
const CLK_TCK = 100 // Linux USER_HZ; /proc/PID/stat counts in these
const SCENARIOS = ['idle', 'walk', 'chat', 'crowd', 'churn', 'spread', 'explosion', 'script']
const TICK_WINDOW = 100 // ticks behind minecraft_tick_duration_recent_seconds (mcserv's TICKSTAT_SHORT)

const HELP = `usage: bench/run.js [options] [-- extra mcbench options]
  --target mcserv|flying-squid   (default mcserv)
  --scenario idle|walk|chat|crowd|churn|spread|explosion   (default idle; explosion:
                                 mcserv only, its knobs after --: --entities N --entity T
                                 --entity-radius R --entity-nbt SNBT --summon-after S)
  --script FILE.lua              run a Lua script instead of a scenario
  --bots N --rate R --duration S (defaults 100, 100/s, 20 s)
  --view-distance N              server and bots (default 2)
  --level-type flat|normal       mcserv's world (default flat; spread: normal, since
                                 it measures chunk generation)
  --spread-radius R              spread: bots' points within +-R blocks (default 2000)
  --compression T                mcserv network-compression-threshold (default 256; -1 off)
  --gamemode MODE                mcserv's gamemode property (default survival, the server's;
                                 mcbench's walkers do not collide with terrain, so on a
                                 normal world survival ones suffocate and fall: creative
                                 takes no damage)
  --runs N                       repeat, report the median (default 1)
  --label TEXT                   free text stored with the result
  --metrics-url URL              scrape this Prometheus endpoint once a second (default:
                                 the started mcserv's own http://127.0.0.1:<admin-http-port>/metrics)
  --mcserv PATH --mcbench PATH   binaries (default build/mcserv, build/mcbench; env MCSERV/MCBENCH)
  --no-save                      do not write to bench/results/
  --results-dir DIR              write the JSON files and results.md there instead
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
    levelType: null,
    spreadRadius: null,
    compression: 256,
    gamemode: null,
    runs: 1,
    label: '',
    metricsUrl: process.env.MCSERV_METRICS_URL || null,
    mcserv: process.env.MCSERV ? path.resolve(process.env.MCSERV) : path.join(ROOT, 'build', 'mcserv'),
    mcbench: process.env.MCBENCH ? path.resolve(process.env.MCBENCH) : path.join(ROOT, 'build', 'mcbench'),
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
      case '--level-type': o.levelType = next(); break
      case '--spread-radius': o.spreadRadius = Number(next()); break
      case '--compression': o.compression = Number(next()); break
      case '--gamemode':
        o.gamemode = next()
        if (!['survival', 'creative', 'adventure', 'spectator'].includes(o.gamemode)) throw new Error(`--gamemode: survival, creative, adventure or spectator, not '${o.gamemode}'`)
        break
      case '--runs': o.runs = Number(next()); break
      case '--label': o.label = next(); break
      case '--metrics-url': o.metricsUrl = next(); break
      case '--mcserv': o.mcserv = path.resolve(next()); break
      case '--mcbench': o.mcbench = path.resolve(next()); break
      case '--no-save': o.save = false; break
      case '--results-dir': RESULTS = path.resolve(next()); break
      case '--default': o.default = true; break
      case '--': o.extra = argv.slice(i + 1); i = argv.length; break
      case '-h': case '--help': console.log(HELP); process.exit(0); break
      default: throw new Error(`unknown option ${a} (see --help)`)
    }
  }
  if (!['mcserv', 'flying-squid'].includes(o.target)) throw new Error(`--target: mcserv or flying-squid, not ${o.target}`)
  if (!SCENARIOS.includes(o.scenario)) throw new Error(`--scenario: ${SCENARIOS.filter((x) => x !== 'script').join(', ')} (or --script FILE), not ${o.scenario}`)
  if (o.levelType !== null && !['flat', 'normal'].includes(o.levelType)) throw new Error(`--level-type: flat or normal, not ${o.levelType}`)
  if (o.spreadRadius !== null && !(Number.isFinite(o.spreadRadius) && o.spreadRadius >= 0)) throw new Error('--spread-radius: a number of blocks >= 0')
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

/** Free 127.0.0.1 ports, distinct from each other. */
async function freePorts (n) {
  const ports = new Set()
  for (let i = 0; ports.size < n && i < 50; i++) ports.add(await freePort())
  if (ports.size < n) throw new Error('no free ports')
  return [...ports]
}

/** The world the target generates: --level-type, else normal for spread (it measures generation). */
function levelOf (o) {
  return o.levelType || (o.scenario === 'spread' ? 'normal' : 'flat')
}

/**
 * Starts the target; resolves { proc, pid, port, dir, version, metricsUrl,
 * rcon: {port, password} | null, output() }.
 */
async function startTarget (o) {
  const [port, adminPort, rconPort] = await freePorts(3)
  let proc
  let dir = null
  let out = ''
  let readyRe
  let metricsUrl = o.metricsUrl
  let rcon = null
  if (o.target === 'mcserv') {
    if (!fs.existsSync(o.mcserv)) throw new Error(`mcserv not found at ${o.mcserv} (run make)`)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcbench-mcserv-'))
    // Its own admin port: the default 25585 would clash between servers.
    const props = {
      'server-ip': '127.0.0.1',
      'server-port': port,
      'online-mode': 'false',
      'level-type': levelOf(o),
      'view-distance': o.viewDistance,
      'max-players': o.bots + 100,
      'network-compression-threshold': o.compression,
      'admin-http-address': '127.0.0.1',
      'admin-http-port': adminPort,
      motd: 'mcbench target'
    }
    if (o.gamemode) props.gamemode = o.gamemode
    if (!metricsUrl) metricsUrl = `http://127.0.0.1:${adminPort}/metrics`
    if (o.scenario === 'spread' || o.scenario === 'explosion') {
      // spread: mcbench teleports the bots to their points over RCON, as an
      // operator would; explosion: it sends the one summon over RCON.
      rcon = { port: rconPort, password: require('node:crypto').randomBytes(12).toString('hex') }
      Object.assign(props, { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': rcon.password })
    }
    fs.writeFileSync(path.join(dir, 'server.properties'),
      Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
    proc = spawn(o.mcserv, [], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
    readyRe = /Done \(/
  } else {
    // spread: the bots are ops there, so their own /tp works (flying-squid has no RCON).
    proc = spawn(process.execPath, [path.join(__dirname, 'flying-squid-server.js'), '--port', String(port),
      '--max-players', String(o.bots + 100), '--view-distance', String(o.viewDistance), '--exit-on-stdin-close',
      ...(o.scenario === 'spread' ? ['--everybody-op'] : [])],
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
  return { proc, pid: proc.pid, port, dir, version, readyMs, metricsUrl, rcon, output: () => out }
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

// Series kept from each /metrics scrape (mcserv's names, src/admin/metrics.c).
const METRIC_COLUMNS = {
  ticks: 'minecraft_ticks_total',
  tps: 'minecraft_tps',
  p50_s: 'minecraft_tick_duration_recent_seconds{quantile="0.5"}',
  p95_s: 'minecraft_tick_duration_recent_seconds{quantile="0.95"}',
  p99_s: 'minecraft_tick_duration_recent_seconds{quantile="0.99"}',
  max_s: 'minecraft_tick_duration_recent_seconds{quantile="1"}',
  tick_sum_s: 'minecraft_tick_duration_seconds_sum',
  tick_count: 'minecraft_tick_duration_seconds_count',
  sent_bytes: 'minecraft_network_sent_bytes_total',
  entity_update_bytes: 'mcserv_entity_update_bytes_total',
  received_bytes: 'minecraft_network_received_bytes_total',
  chunks_generated: 'minecraft_chunks_generated_total',
  chunks_loaded: 'minecraft_chunks_loaded_total',
  players: 'minecraft_players_online'
}

/**
 * Scrapes `url` once a second (never two at once: a slow server skips a
 * beat). stop() resolves the samples: { t (ms, wall clock, the middle of
 * the request), ...METRIC_COLUMNS (null when absent) }, and how many
 * scrapes failed.
 */
function startMetricsSampler (url) {
  const samples = []
  let failed = 0
  let busy = null
  const once = () => {
    if (!url || busy) return
    const t0 = Date.now()
    busy = scrape(url).then((m) => {
      busy = null
      if (!m) { failed++; return }
      const row = { t: Math.round((t0 + Date.now()) / 2) }
      for (const [k, name] of Object.entries(METRIC_COLUMNS)) row[k] = name in m ? m[name] : null
      samples.push(row)
    })
  }
  once()
  const timer = setInterval(once, 1000)
  return {
    stop: async () => {
      clearInterval(timer)
      if (busy) await busy
      return { samples, failed }
    }
  }
}

/** The sample whose `key` is closest to `want`, among those after index `from`. */
function closestAfter (rows, from, key, want) {
  let best = -1
  for (let i = from + 1; i < rows.length; i++) {
    if (rows[i][key] == null) continue
    if (best < 0 || Math.abs(rows[i][key] - want) <= Math.abs(rows[best][key] - want)) best = i
    if (rows[i][key] > want) break
  }
  return best
}

/**
 * The hold's server figures from the /metrics samples inside
 * [holdStart, holdEnd] (ms, wall clock); see the file comment for what
 * each figure means.
 */
function holdFigures (samples, holdStart, holdEnd) {
  const rows = samples.filter((r) => r.t >= holdStart && r.t <= holdEnd)
  const out = { samples_in_hold: rows.length, mspt: null, egress_bytes_s: null, chunks_generated: null, chunks_generated_per_s: null, notes: [] }
  if (rows.length < 2) {
    out.notes.push(`${rows.length} /metrics sample(s) inside the hold: too few for rates`)
  } else {
    const a = rows[0]
    const z = rows[rows.length - 1]
    const dt = (z.t - a.t) / 1000
    if (a.sent_bytes != null && z.sent_bytes != null) out.egress_bytes_s = Math.round((z.sent_bytes - a.sent_bytes) / dt)
    // The encoded-bytes bound of the movement relay: each cell's batch, encoded
    // once, times the viewers it reached (mcserv only).
    if (a.entity_update_bytes != null && z.entity_update_bytes != null) out.entity_update_bytes_s = Math.round((z.entity_update_bytes - a.entity_update_bytes) / dt)
    if (a.chunks_generated != null && z.chunks_generated != null) {
      out.chunks_generated = z.chunks_generated - a.chunks_generated
      out.chunks_generated_per_s = +(out.chunks_generated / dt).toFixed(1)
    }
    out.rate_span_s = +dt.toFixed(2)
  }
  if (!rows.length || rows[0].p99_s == null) {
    if (rows.length) out.notes.push('no minecraft_tick_duration_recent_seconds in /metrics: MSPT n/a')
    return out
  }
  // Windows of TICK_WINDOW ticks: the first one that starts inside the hold,
  // then samples about TICK_WINDOW ticks apart.
  const firstTicks = rows[0].ticks
  const wins = []
  let i = closestAfter(rows, -1, 'ticks', firstTicks + TICK_WINDOW)
  if (i < 0 || rows[i].ticks < firstTicks + TICK_WINDOW / 2) {
    wins.push(rows[rows.length - 1])
    out.notes.push(`the hold held fewer than ${TICK_WINDOW} ticks: the one window reaches back before it`)
  } else {
    while (i >= 0) {
      wins.push(rows[i])
      const j = closestAfter(rows, i, 'ticks', rows[i].ticks + TICK_WINDOW)
      if (j < 0 || rows[j].ticks < rows[i].ticks + TICK_WINDOW / 2) break
      i = j
    }
  }
  const med = (xs) => { const v = xs.slice().sort((x, y) => x - y); return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2 }
  const ms = (x) => +(x * 1000).toFixed(3)
  const z = rows[rows.length - 1]
  const a = rows[0]
  out.mspt = {
    p50_ms: ms(med(wins.map((w) => w.p50_s))),
    p99_ms: ms(Math.max(...wins.map((w) => w.p99_s))),
    max_ms: ms(Math.max(...wins.map((w) => w.max_s))),
    mean_ms: z.tick_count > a.tick_count ? ms((z.tick_sum_s - a.tick_sum_s) / (z.tick_count - a.tick_count)) : null,
    windows: wins.length,
    ticks_covered: wins.length * TICK_WINDOW,
    ticks_sampled: z.ticks - a.ticks, // between the hold's first and last sample
    tps_min: Math.min(...wins.map((w) => w.tps)),
    method: `windows of the last ${TICK_WINDOW} ticks about ${TICK_WINDOW} ticks apart; p50 = median of the window medians, p99 = highest window p99 (an upper bound of the hold's p99), max = highest window max, mean = histogram sum/count`
  }
  return out
}

// ------------------------------------------------------------------ a run

function mcbenchArgs (o, target, jsonPath) {
  const a = ['--port', String(target.port), '--bots', String(o.bots), '--rate', String(o.rate),
    '--duration', String(o.duration), '--view-distance', String(o.viewDistance), '--json', jsonPath,
    '--max-failures', String(o.maxFailures != null ? o.maxFailures : 0)]
  if (o.script) a.push('--script', o.script)
  else a.push('--scenario', o.scenario)
  if (o.spreadRadius !== null) a.push('--spread-radius', String(o.spreadRadius))
  if (target.rcon) a.push('--rcon-port', String(target.rcon.port)) // password: MCBENCH_RCON_PASSWORD
  // explosion: mcbench reads the MSPT itself to time the recovery after its summon
  if (o.scenario === 'explosion' && target.metricsUrl) a.push('--metrics-url', target.metricsUrl)
  return a.concat(o.extra)
}

async function runOnce (o) {
  const target = await startTarget(o)
  const tmpJson = path.join(os.tmpdir(), `mcbench-${process.pid}-${Date.now()}.json`)
  const metrics = startMetricsSampler(target.metricsUrl)
  const sampler = startSampler(target.pid)
  const args = mcbenchArgs(o, target, tmpJson)
  process.stderr.write(`\n== ${o.scenario} x ${o.bots} against ${o.target} (port ${target.port}, pid ${target.pid}): mcbench ${args.join(' ')}\n`)
  const env = Object.assign({}, process.env)
  if (target.rcon) env.MCBENCH_RCON_PASSWORD = target.rcon.password
  const bench = spawn(o.mcbench, args, { stdio: ['ignore', 'pipe', 'inherit'], env })
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
  const scraped = await metrics.stop()
  const serverExit = await stopProc(target.proc)
  if (target.dir) fs.rmSync(target.dir, { recursive: true, force: true })
  let mc = null
  try { mc = JSON.parse(fs.readFileSync(tmpJson, 'utf8')) } catch (e) {}
  try { fs.unlinkSync(tmpJson) } catch (e) {}
  process.stderr.write(table)
  if (!mc) throw new Error(`mcbench wrote no JSON (exit ${JSON.stringify(benchExit)})`)
  const server = summarize(samples)
  const joined = mc.bots.joined_initial || 0
  const holdStart = mc.result.hold_start_unix_ms
  const hold = holdStart != null && scraped.samples.length
    ? holdFigures(scraped.samples, holdStart, holdStart + mc.result.hold_s * 1000)
    : null
  const run0 = scraped.samples[0]
  const run1 = scraped.samples[scraped.samples.length - 1]
  const fromMetrics = hold && hold.egress_bytes_s != null
  const derived = {
    server_cpu_ms_per_bot: server ? +(server.cpu_s * 1000 / o.bots).toFixed(3) : null,
    mcbench_cpu_ms_per_bot: mc.self.cpu_ms_per_bot,
    mcbench_over_server_cpu: server && server.cpu_s > 0 ? +(mc.self.cpu_s / server.cpu_s).toFixed(3) : null,
    server_rss_kib_per_player: server && joined ? +((server.rss_kib_max - server.rss_kib_start) / joined).toFixed(1) : null,
    join_p50_ms: mc.phases.own_chunk.p50 ?? null,
    join_p99_ms: mc.phases.own_chunk.p99 ?? null,
    join_max_ms: mc.phases.own_chunk.max ?? null,
    mspt_p50_ms: hold && hold.mspt ? hold.mspt.p50_ms : null,
    mspt_p99_ms: hold && hold.mspt ? hold.mspt.p99_ms : null,
    mspt_max_ms: hold && hold.mspt ? hold.mspt.max_ms : null,
    mspt_mean_ms: hold && hold.mspt ? hold.mspt.mean_ms : null,
    // Server egress in the hold: its own byte counter, else what the bots received.
    egress_mb_s: fromMetrics ? +(hold.egress_bytes_s / 1e6).toFixed(3) : (mc.traffic.hold_rx_mb_s ?? null),
    egress_source: fromMetrics ? 'server /metrics minecraft_network_sent_bytes_total' : 'bots (mcbench traffic.hold_rx_bytes)',
    bots_rx_mb_s_hold: mc.traffic.hold_rx_mb_s ?? null,
    entity_updates_mb_s: hold && hold.entity_update_bytes_s != null ? +(hold.entity_update_bytes_s / 1e6).toFixed(3) : null,
    chunks_generated_per_s: hold && hold.chunks_generated_per_s != null ? hold.chunks_generated_per_s : null,
    chunks_generated_run: run0 && run1 && run1.chunks_generated != null ? run1.chunks_generated - run0.chunks_generated : null,
    distinct_chunks_per_s_hold: mc.chunks.distinct_per_s_hold ?? null,
    chunk_waits: mc.chunks.waits,
    chunk_wait_p99_ms: mc.chunks.wait.p99 ?? null,
    // the longest wait, finished or still open at the end (null: no bot waited)
    chunk_wait_max_ms: mc.chunks.waits ? Math.max(mc.chunks.wait.max ?? 0, mc.chunks.open_waits ? mc.chunks.open_wait_max : 0) : null,
    chunk_open_waits: mc.chunks.open_waits ?? 0,
    spread_arrival_p99_ms: mc.spread ? mc.spread.arrival.p99 ?? null : null,
    explosion: mc.explosion || null // explode.c: bursts, kicks, MSPT recovery
  }
  return {
    date: new Date().toISOString(),
    target: o.target,
    target_version: target.version,
    target_ready_ms: target.readyMs,
    mcbench_binary: `${path.relative(ROOT, o.mcbench) || o.mcbench} sha256:${require('node:crypto').createHash('sha256').update(fs.readFileSync(o.mcbench)).digest('hex').slice(0, 12)}`,
    scenario: o.scenario,
    label: o.label,
    params: { bots: o.bots, rate: o.rate, duration: o.duration, view_distance: o.viewDistance, compression: o.target === 'mcserv' ? o.compression : 256, level_type: o.target === 'mcserv' ? levelOf(o) : 'superflat', gamemode: o.gamemode || 'survival', spread_radius: o.scenario === 'spread' ? (o.spreadRadius ?? 2000) : null, extra: o.extra },
    machine: { cpus: os.cpus().length, model: (os.cpus()[0] || {}).model, mem_mib: Math.round(os.totalmem() / 1048576), kernel: os.release() },
    mcbench_exit: benchExit,
    server_exit: serverExit,
    server,
    metrics: target.metricsUrl
      ? {
          url: target.metricsUrl,
          scrapes: scraped.samples.length,
          failed_scrapes: scraped.failed,
          hold,
          columns: ['t_s', ...Object.keys(METRIC_COLUMNS)],
          samples: scraped.samples.map((r) => [+((r.t - mc.result.started_unix_ms) / 1000).toFixed(2), ...Object.keys(METRIC_COLUMNS).map((k) => r[k])])
        }
      : null,
    metrics_note: !target.metricsUrl
      ? `${o.target} has no metrics endpoint: MSPT n/a; egress = the bots' received bytes in the hold`
      : !scraped.samples.length ? `no answer from ${target.metricsUrl}` : null,
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

// results.md columns. When they change, a new table starts under the old one.
const MD_COLUMNS = ['date', 'target', 'scenario', 'bots', 'rate/s', 'hold s', 'joined', 'failed', 'join p50 ms', 'join p99 ms',
  'MSPT p50 ms (hold)', 'MSPT p99 ms (hold)', 'MSPT max ms (hold)', 'egress MB/s (hold)',
  'server CPU ms/bot', 'server CPU % avg', 'server RSS max MB', 'server KB/player', 'mcbench CPU ms/bot', 'mcbench/server CPU',
  'chunks gen/s (hold)', 'chunk wait max ms', 'file']
const MD_INTRO = '# mcbench results\n\nOne row per run (bench/run.js). Server CPU and RSS are sampled from /proc once a second during the mcbench run; "join" is connect → chunk at the bot\'s own position. ' +
  'MSPT and egress are taken over the hold from the server\'s /metrics (see bench/run.js: p99 is an upper bound); "(bots)" marks a figure taken from what the bots received where the server has no /metrics (egress, and distinct chunks for generation). ' +
  'Figures come from a shared 2-core machine (bots and server on it, other work running).\n'

const MD_NEW_COLUMNS = 'MSPT p50/p99/max and egress of the hold from the server\'s /metrics (p99 is an upper bound, see bench/run.js); ' +
  '"(bots)" = taken from what the bots received where the server has no /metrics; chunks generated per second in the hold and the longest chunk wait ' +
  '("N open": bots still waiting at the end). Shared 2-core machine: server, bots and other work on the same cores.'

function mdHeader () {
  return '| ' + MD_COLUMNS.join(' | ') + ' |\n|' + MD_COLUMNS.map(() => '---').join('|') + '|\n'
}

/** The markdown row of one result (MD_COLUMNS). */
function mdRow (r, file) {
  const m = r.mcbench
  const s = r.server || {}
  const d = r.derived
  const byBots = d.egress_source && d.egress_source.startsWith('bots')
  const level = r.params.level_type && !['flat', 'superflat'].includes(r.params.level_type) ? `, ${r.params.level_type} world` : ''
  const gen = d.chunks_generated_per_s != null ? fmt(d.chunks_generated_per_s, 1)
    : d.distinct_chunks_per_s_hold != null && r.scenario === 'spread' ? `${fmt(d.distinct_chunks_per_s_hold, 1)} (bots)` : '-'
  const row = [r.date.slice(0, 19).replace('T', ' '), r.target, r.scenario + level + (r.label ? ` (${r.label})` : ''), r.params.bots, r.params.rate, r.params.duration,
    m.bots.joined_initial, m.failures.total, fmt(d.join_p50_ms), fmt(d.join_p99_ms),
    d.mspt_p50_ms != null ? fmt(d.mspt_p50_ms) : 'n/a', d.mspt_p99_ms != null ? fmt(d.mspt_p99_ms) : 'n/a', d.mspt_max_ms != null ? fmt(d.mspt_max_ms) : 'n/a',
    d.egress_mb_s != null ? fmt(d.egress_mb_s, 3) + (byBots ? ' (bots)' : '') : '-',
    fmt(d.server_cpu_ms_per_bot, 3), fmt(s.cpu_pct_avg, 1), fmt(s.rss_kib_max / 1024, 1), fmt(d.server_rss_kib_per_player, 1),
    fmt(d.mcbench_cpu_ms_per_bot, 3), fmt(d.mcbench_over_server_cpu, 3), gen,
    d.chunk_wait_max_ms != null ? fmt(d.chunk_wait_max_ms, 1) + (d.chunk_open_waits ? ` (${d.chunk_open_waits} open)` : '') : '-',
    file ? path.basename(file) : '-']
  return '| ' + row.join(' | ') + ' |\n'
}

function saveResult (r) {
  fs.mkdirSync(RESULTS, { recursive: true })
  const stamp = r.date.replace(/:/g, '').replace(/\.\d+Z$/, 'Z')
  let file = path.join(RESULTS, `${stamp}-${r.scenario}-${r.target}.json`)
  for (let i = 2; fs.existsSync(file); i++) file = path.join(RESULTS, `${stamp}-${r.scenario}-${r.target}-${i}.json`)
  fs.writeFileSync(file, JSON.stringify(r, null, 1) + '\n')
  const md = path.join(RESULTS, 'results.md')
  const header = mdHeader()
  if (!fs.existsSync(md)) {
    fs.writeFileSync(md, MD_INTRO + '\n' + header)
  } else {
    const text = fs.readFileSync(md, 'utf8')
    const last = text.lastIndexOf('\n| date |')
    const current = last >= 0 ? text.slice(last + 1, text.indexOf('\n', last + 1) + 1) : ''
    if (current !== header.slice(0, header.indexOf('\n') + 1)) {
      fs.appendFileSync(md, `\nColumns from ${r.date.slice(0, 10)} on: ${MD_NEW_COLUMNS}\n\n` + header)
    }
  }
  fs.appendFileSync(md, mdRow(r, file))
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
      `join p50/p99 ${fmt(d.join_p50_ms)}/${fmt(d.join_p99_ms)} ms, hold MSPT p50/p99/max ${d.mspt_p99_ms != null ? `${fmt(d.mspt_p50_ms)}/${fmt(d.mspt_p99_ms)}/${fmt(d.mspt_max_ms)} ms` : 'n/a'}, ` +
      `egress ${fmt(d.egress_mb_s, 3)} MB/s${d.egress_source.startsWith('bots') ? ' (bots)' : ''}` +
      `${d.entity_updates_mb_s ? ` (entity updates ${fmt(d.entity_updates_mb_s, 3)} MB/s: egress ${fmt(d.egress_mb_s / d.entity_updates_mb_s, 3)}x)` : ''}` +
      `${d.chunks_generated_per_s != null ? `, ${fmt(d.chunks_generated_per_s, 1)} chunks generated/s` : ''}, server cpu ${fmt(d.server_cpu_ms_per_bot, 3)} ms/bot ` +
      `(rss max ${fmt(r.server && r.server.rss_kib_max / 1024, 1)} MB), mcbench cpu ${fmt(d.mcbench_cpu_ms_per_bot, 3)} ms/bot ` +
      `= ${fmt(d.mcbench_over_server_cpu, 3)} x server${r.file ? `\n   saved ${path.relative(ROOT, r.file)}` : ''}\n`)
  }
  return {
    target: o.target,
    scenario: o.scenario,
    bots: o.bots,
    runs: results.length,
    results,
    joined: median(results.map((r) => r.mcbench.bots.joined_initial)),
    failed: median(results.map((r) => r.mcbench.failures.total)),
    join_p50_ms: median(results.map((r) => r.derived.join_p50_ms)),
    join_p99_ms: median(results.map((r) => r.derived.join_p99_ms)),
    mspt_p99_ms: median(results.map((r) => r.derived.mspt_p99_ms)),
    egress_mb_s: median(results.map((r) => r.derived.egress_mb_s)),
    egress_by_bots: results.some((r) => r.derived.egress_source.startsWith('bots')),
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
    // The rows as results.md has them, for pasting.
    process.stdout.write('\n' + mdHeader() + s.results.map((r) => mdRow(r, r.file)).join(''))
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
  out += '| scenario | bots | target | joined | failed | join p50 ms | join p99 ms | MSPT p99 ms (hold) | egress MB/s (hold) | server CPU ms/bot | server RSS MB | mcbench/server CPU |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n'
  for (const { cfg, pair } of rows) {
    for (const t of ['mcserv', 'flying-squid']) {
      const s = pair[t]
      const mspt = s && s.mspt_p99_ms != null ? fmt(s.mspt_p99_ms) : 'n/a'
      const egress = s && s.egress_mb_s != null ? fmt(s.egress_mb_s, 3) + (s.egress_by_bots ? ' (bots)' : '') : '-'
      out += `| ${cfg.scenario} | ${cfg.bots} | ${t} | ${s ? s.joined : '-'} | ${s ? s.failed : '-'} | ${fmt(s && s.join_p50_ms)} | ${fmt(s && s.join_p99_ms)} | ${mspt} | ${egress} | ${fmt(s && s.server_cpu_ms_per_bot, 3)} | ${fmt(s && s.server_rss_mb, 1)} | ${fmt(s && s.mcbench_over_server_cpu, 3)} |\n`
    }
  }
  out += '\n"(bots)": flying-squid has no /metrics; its egress is what the bots received in the hold. MSPT p99 is an upper bound (bench/run.js).\n'
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
