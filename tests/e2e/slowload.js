'use strict'
// Slow-connection load for the lock-out tests (issue 23) and their
// benchmark: many raw sockets that each trickle one byte every few seconds,
// and real clients timed while they run.
//
// What lives here:
//   * slowFlood(): holds `count` slow connections to a port (from one or
//     several loopback addresses), reconnecting each one the server closes,
//     as an attacker would; one timer drives all of them.
//   * timeJoin(): a real minecraft-protocol client from a given address;
//     resolves the ms from connect to PLAY (the Login packet), or rejects.
//   * crowd(): N real logins at once, from a few worker processes.
//   * rconLogin(), httpGet(): a real RCON login (minecraft-server-util) and
//     a plain GET, each timed.
//   * run as a script (`node tests/e2e/slowload.js MCSERV [label]`): the
//     benchmark BENCHMARKS.md quotes (slow connections against the game
//     port, RCON and HTTP; joins and logins while they run), on one server.
//
// Invariants: every loop is bounded in count and time (a flood stops by
// itself after maxMs); sockets talk only to 127.0.0.x; each flood's sockets
// are destroyed by stop(), and every socket made here is registered for
// cleanup() (test files call it in after(), next to helpers' cleanupAll).

const net = require('node:net')
const h = require('./helpers')

const tracked = new Set()
function track (s) {
  tracked.add(s)
  s.once('close', () => tracked.delete(s))
  return s
}
/** Destroys every socket this module made that is still open. */
function cleanup () {
  for (const s of tracked) s.destroy()
  tracked.clear()
}

/** Bytes a slow client trickles: a login handshake, one byte at a time. */
function handshakeBytes (port) { return h.handshakePacket(port, 2) }

/**
 * Holds `count` connections to 127.0.0.1:port that each write one byte
 * every `byteEveryMs`. opts.hosts: local addresses to connect from
 * (round-robin), opts.reconnectMs: delay before a closed one reconnects,
 * opts.maxMs: the flood stops by itself after this long.
 * Returns { stats, stop() }; stats counts connects, closes by the server and
 * how many are open now.
 */
function slowFlood (port, opts = {}) {
  const count = opts.count || 200
  const hosts = opts.hosts || ['127.0.0.1']
  const every = opts.byteEveryMs || 3000
  const reconnectMs = opts.reconnectMs == null ? 250 : opts.reconnectMs
  const maxMs = opts.maxMs || 120000
  const bytes = opts.bytes || handshakeBytes(port)
  const stats = { connects: 0, closed: 0, open: 0, errors: 0 }
  const slots = []
  let running = true
  const startedAt = Date.now()

  function open (slot) {
    if (!running) return
    const s = net.connect({ host: '127.0.0.1', port, localAddress: slot.host })
    track(s)
    slot.socket = s
    slot.sent = 0
    slot.next = Date.now() + every * Math.random()
    stats.connects++
    s.on('connect', () => { stats.open++; slot.connected = true })
    s.on('error', () => { stats.errors++ })
    s.on('data', () => {})
    s.on('close', () => {
      if (slot.connected) stats.open--
      slot.connected = false
      slot.socket = null
      if (!running) return
      stats.closed++
      slot.timer = setTimeout(() => open(slot), reconnectMs)
      slot.timer.unref()
    })
  }

  for (let i = 0; i < count; i++) slots.push({ host: hosts[i % hosts.length], socket: null })
  // Start in batches, so the flood does not first overflow the listen backlog.
  let started = 0
  const starter = setInterval(() => {
    for (let i = 0; i < 200 && started < count; i++) open(slots[started++])
    if (started >= count) clearInterval(starter)
  }, 20)
  starter.unref()
  const ticker = setInterval(() => {
    const now = Date.now()
    if (now - startedAt > maxMs) return stop()
    for (const slot of slots) {
      const s = slot.socket
      if (!s || !slot.connected || now < slot.next) continue
      s.write(bytes.subarray(slot.sent % bytes.length, slot.sent % bytes.length + 1))
      slot.sent++
      slot.next = now + every
    }
  }, 100)
  ticker.unref()

  function stop () {
    running = false
    clearInterval(starter)
    clearInterval(ticker)
    for (const slot of slots) {
      if (slot.timer) clearTimeout(slot.timer)
      if (slot.socket) slot.socket.destroy()
    }
  }
  return { stats, stop, slots }
}

/**
 * slowFlood() in a child process of its own (`node slowload.js flood …`),
 * as an attacker would be: the test's real clients then do not wait behind
 * the flood's sockets in this process's event loop. Same options (bytes as
 * a Buffer) and the same { stats, stop() }, stats refreshed every 250 ms;
 * stop() resolves once the child has exited (it is killed by its PID).
 */
function floodProcess (port, opts = {}) {
  const { spawn } = require('node:child_process')
  const o = Object.assign({}, opts, { port, bytes: (opts.bytes || handshakeBytes(port)).toString('hex') })
  const child = spawn(process.execPath, [__filename, 'flood', JSON.stringify(o)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const stats = { connects: 0, closed: 0, open: 0, errors: 0 }
  let buf = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    buf += d
    let i
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i)
      buf = buf.slice(i + 1)
      try { Object.assign(stats, JSON.parse(line)) } catch (e) {}
    }
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  children.add(child)
  exited.then(() => children.delete(child))
  return {
    stats,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await h.withTimeout(exited, 5000, 'flood process exit').catch(() => { child.kill('SIGKILL') })
    }
  }
}
const children = new Set()
process.on('exit', () => { for (const c of children) c.kill('SIGKILL') })

/**
 * A flash crowd: `count` real logins at once (timeJoin, until: 'play'),
 * from `workers` child processes (`node slowload.js crowd …`). Each child
 * loads minecraft-protocol first and says so; when all are ready they are
 * told to go at the same moment. One node process would itself be the
 * bottleneck: the TCP connects complete in the kernel at once, but a busy
 * event loop sends the handshakes seconds later, which handshake-timeout
 * rightly closes. Resolves { ok: [ms…], failed: [reason…], ms }.
 */
async function crowd (port, { count = 1000, workers = 4, timeoutMs = 60000 } = {}) {
  const { spawn } = require('node:child_process')
  const per = Math.ceil(count / workers)
  const procs = []
  for (let w = 0; w < workers; w++) {
    const from = w * per
    const n = Math.min(per, count - from)
    if (n <= 0) break
    const child = spawn(process.execPath, [__filename, 'crowd', JSON.stringify({ port, from, count: n, timeoutMs })], { stdio: ['pipe', 'pipe', 'inherit'] })
    children.add(child)
    let out = ''
    child.stdout.setEncoding('utf8')
    const ready = new Promise((resolve) => child.stdout.on('data', (d) => { out += d; if (out.includes('ready\n')) resolve() }))
    const done = new Promise((resolve) => child.once('exit', () => { children.delete(child); resolve() }))
    procs.push({ child, ready, done, out: () => out })
  }
  await h.withTimeout(Promise.all(procs.map((p) => p.ready)), 30000, 'crowd workers ready')
  const t0 = Date.now()
  for (const p of procs) p.child.stdin.end('go\n')
  await h.withTimeout(Promise.all(procs.map((p) => p.done)), timeoutMs + 10000, 'crowd workers done')
  const ok = []
  const failed = []
  for (const p of procs) {
    const line = p.out().split('\n').find((l) => l.startsWith('{'))
    if (!line) { failed.push('a worker printed no result'); continue }
    const r = JSON.parse(line)
    ok.push(...r.ok)
    failed.push(...r.failed)
  }
  return { ok, failed, ms: Date.now() - t0 }
}

/** Resolves once `flood` holds at least `n` open connections (or after ms). */
async function floodHolds (flood, n, ms = 15000) {
  await h.waitFor(() => flood.stats.open >= n, { timeout: ms, interval: 100, message: `${n} slow connections open`, detail: () => JSON.stringify(flood.stats) })
}

let joinSeq = 0
/**
 * A real client (minecraft-protocol, offline) joins from `localAddress`:
 * resolves { ms } from the start of the TCP connect to the Login (PLAY)
 * packet, rejects with the reason after `timeoutMs`. until: 'play' resolves
 * at Login Success instead (the client enters PLAY) and leaves at once,
 * before parsing the join burst: the flash-crowd test's CPU goes to logins.
 */
function timeJoin (port, { localAddress = '127.0.0.1', username, timeoutMs = 5000, until = 'login' } = {}) {
  const mc = require('minecraft-protocol')
  const name = username || `Real${String(++joinSeq).padStart(4, '0')}`
  const t0 = Date.now()
  const stream = net.connect({ host: '127.0.0.1', port, localAddress })
  track(stream)
  const client = mc.createClient({ host: '127.0.0.1', port, username: name, version: h.VERSION, auth: 'offline', stream, hideErrors: true, validateChannelProtocol: false })
  return new Promise((resolve, reject) => {
    let done = false
    const finish = (err, v) => {
      if (done) return
      done = true
      clearTimeout(timer)
      try { client.end('done') } catch (e) {}
      stream.destroy()
      if (err) reject(err); else resolve(v)
    }
    const timer = setTimeout(() => finish(new Error(`${name} did not reach PLAY within ${timeoutMs} ms`)), timeoutMs)
    if (until === 'play') client.on('state', (st) => { if (st === 'play') finish(null, { ms: Date.now() - t0, name }) })
    else client.once('login', () => finish(null, { ms: Date.now() - t0, name }))
    client.on('error', (e) => finish(new Error(`${name}: ${e.message}`)))
    client.on('disconnect', (p) => finish(new Error(`${name} disconnected: ${p.reason}`)))
    client.on('end', (r) => finish(new Error(`${name} ended before PLAY: ${r}`)))
  })
}

// minecraft-server-util's RCON.login() awaits inside a Promise executor, so
// when the server closes the socket first (as the old build did to every
// client over its 4 slots) the read's rejection escapes unhandled instead
// of failing login(); the login still fails, by its timeout. Only that
// message is swallowed.
process.on('unhandledRejection', (e) => {
  if (e && /Socket closed unexpectedly while waiting for data/.test(e.message)) return
  throw e
})

/** A real RCON login and one command; resolves { ms, reply }. */
async function rconLogin (port, password, timeoutMs = 5000) {
  const { RCON } = require('minecraft-server-util')
  const t0 = Date.now()
  const c = new RCON()
  let port0
  try {
    await h.withTimeout(c.connect('127.0.0.1', port, { timeout: timeoutMs }), timeoutMs, 'RCON connect')
    port0 = c.socket && c.socket.socket && c.socket.socket.localPort
    await h.withTimeout(c.login(password, { timeout: timeoutMs }), timeoutMs, 'RCON login')
    const ms = Date.now() - t0
    const reply = await h.withTimeout(c.execute('list'), timeoutMs, 'RCON command')
    return { ms, reply }
  } catch (e) {
    e.port = port0
    throw e
  } finally {
    try { await c.close() } catch (e) {}
  }
}

/** GET path on 127.0.0.1:port with Connection: close; resolves { status, body, ms }. */
function httpGet (port, path, timeoutMs = 5000) {
  const t0 = Date.now()
  return h.withTimeout(new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port })
    track(s)
    let data = ''
    s.setEncoding('latin1')
    let localPort
    let tc = 0
    s.on('connect', () => {
      localPort = s.localPort
      tc = Date.now() - t0
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    })
    s.on('data', (d) => { data += d })
    s.on('error', reject)
    s.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data)
      if (!m) return reject(new Error(`no HTTP answer from ${path} (local port ${localPort}, connected after ${tc} ms, closed after ${Date.now() - t0} ms): ${JSON.stringify(data.slice(0, 200))}`))
      resolve({ status: Number(m[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4), ms: Date.now() - t0 })
    })
  }), timeoutMs, `GET ${path}`)
}

/** A metric's value from Prometheus text (labels as {k: v}), or undefined. */
function metric (text, name, labels = {}) {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue
    const m = /^([a-z_]+)(\{([^}]*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const got = {}
    for (const kv of (m[3] || '').split(',').filter(Boolean)) {
      const [k, v] = kv.split('=')
      got[k] = v.replace(/^"|"$/g, '')
    }
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4])
  }
  return undefined
}

function summary (list) {
  const s = [...list].sort((a, b) => a - b)
  if (!s.length) return 'none'
  return `p50 ${s[s.length >> 1]} ms, max ${s[s.length - 1]} ms`
}

// ---------------------------------------------------------------- benchmark

async function bench (label) {
  const rconPort = await h.freePort()
  const httpPort = await h.freePort()
  const out = []
  const say = (s) => { out.push(s); console.log(s) }
  say(`## ${label}`)
  for (const scenario of [
    { name: '2000 slow connections, one address (defaults)', count: 2000, hosts: ['127.0.0.1'], props: {} },
    { name: '2000 slow connections from 17 addresses (limits-exempt-loopback=false)', count: 2000, hosts: Array.from({ length: 17 }, (_, i) => `127.0.0.${i + 2}`), props: { 'limits-exempt-loopback': 'false', 'connection-throttle': 0 } }
  ]) {
    const srv = await h.startServer({ name: 'slowbench', props: Object.assign({ 'max-players': 100, 'view-distance': 2 }, scenario.props) })
    const flood = floodProcess(srv.port, { count: scenario.count, hosts: scenario.hosts, maxMs: 60000 })
    await h.sleep(4000)
    const times = []
    let failed = 0
    for (let i = 0; i < 10; i++) {
      try {
        times.push((await timeJoin(srv.port, { localAddress: `127.0.1.${i + 1}`, timeoutMs: 5000 })).ms)
      } catch (e) { failed++ }
      await h.sleep(500)
    }
    say(`- ${scenario.name}: ${10 - failed}/10 real joins reached PLAY within 5 s (${summary(times)}); ${flood.stats.open} slow connections open at the end, ${flood.stats.closed} closed by the server`)
    await flood.stop()
    await srv.stop()
  }
  {
    const srv = await h.startServer({ name: 'slowbench-admin', props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': 'bench-password-123', 'admin-http-port': httpPort } })
    const fr = floodProcess(rconPort, { count: 200, bytes: Buffer.alloc(64, 1), maxMs: 60000 })
    const fh = floodProcess(httpPort, { count: 200, bytes: Buffer.from('GET /healthz HTTP/1.1\r\n'), maxMs: 60000 })
    await h.sleep(4000)
    const rt = []
    const ht = []
    let rf = 0
    let hf = 0
    for (let i = 0; i < 10; i++) {
      try { rt.push((await rconLogin(rconPort, 'bench-password-123', 3000)).ms) } catch (e) { rf++ }
      try {
        const r = await httpGet(httpPort, '/healthz', 3000)
        if (r.status === 200) ht.push(r.ms); else hf++
      } catch (e) { hf++ }
      await h.sleep(300)
    }
    say(`- 200 slow connections each to RCON and HTTP: RCON logins ${10 - rf}/10 within 3 s (${summary(rt)}); /healthz ${10 - hf}/10 (${summary(ht)})`)
    await fr.stop()
    await fh.stop()
    await srv.stop()
  }
  {
    // Memory: 15,000 held pre-login connections, each with 2 bytes of a
    // handshake (a partial frame), the pool and deadlines out of the way.
    const n = 15000
    const srv = await h.startServer({ name: 'membench', props: { 'max-prelogin-connections': 0, 'max-connections-per-ip': 0, 'handshake-timeout': 0 } })
    await h.sleep(1000)
    const base = h.rssKiB(srv.pid)
    const socks = []
    for (let i = 0; i < n; i += 250) {
      await Promise.all(Array.from({ length: Math.min(250, n - i) }, () => new Promise((resolve) => {
        const s = track(net.connect({ host: '127.0.0.1', port: srv.port }, () => { s.write(Buffer.from([0x10, 0x00])); resolve() }))
        s.on('error', () => resolve())
        socks.push(s)
      })))
    }
    await h.sleep(6000) // a full 5 s of ticks with them all held
    const held = socks.filter((x) => !x.destroyed).length
    const rss = h.rssKiB(srv.pid)
    const from = srv.output().length
    srv.proc.stdin.write('mspt\n')
    const m = await h.waitFor(() => /last 5 s: ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+)/.exec(srv.output().slice(from)), { timeout: 3000, message: 'mspt' }).catch(() => null)
    say(`- memory: ${held} held pre-login connections with a partial frame: server RSS ${base} -> ${rss} KiB, ${Math.round((rss - base) * 1024 / n)} B per connection` +
      (m ? `; MSPT p50/p99/max ${m[2]}/${m[4]}/${m[5]} ms while held` : ''))
    for (const x of socks) x.destroy()
    await srv.stop()
  }
  {
    const srv = await h.startServer({ name: 'flashbench', props: { 'max-players': 1100, 'view-distance': 2 } })
    const n = 1000
    const r = await crowd(srv.port, { count: n, workers: 4, timeoutMs: 30000 })
    say(`- ${n} simultaneous minecraft-protocol logins (4 client processes): ${r.ok.length}/${n} reached PLAY (${summary(r.ok)}, all in ${r.ms} ms)`)
    await srv.stop()
  }
  cleanup()
  await h.cleanupAll()
  return out
}

if (require.main === module && process.argv[2] === 'flood') {
  // The child of floodProcess(): a flood until SIGTERM (or its maxMs).
  const o = JSON.parse(process.argv[3])
  const f = slowFlood(o.port, Object.assign({}, o, { bytes: Buffer.from(o.bytes, 'hex') }))
  const report = setInterval(() => process.stdout.write(JSON.stringify(f.stats) + '\n'), 250)
  const end = () => { clearInterval(report); f.stop(); cleanup(); process.exit(0) }
  process.on('SIGTERM', end)
  setTimeout(end, (o.maxMs || 120000) + 1000)
} else if (require.main === module && process.argv[2] === 'crowd') {
  // A worker of crowd(): load, say "ready", wait for "go", then log in.
  const o = JSON.parse(process.argv[3])
  require('minecraft-protocol')
  require('minecraft-data')(h.VERSION)
  process.stdout.write('ready\n')
  process.stdin.once('data', async () => {
    const res = await Promise.allSettled(Array.from({ length: o.count }, (_, i) =>
      timeJoin(o.port, { username: `Crowd${String(o.from + i).padStart(4, '0')}`, timeoutMs: o.timeoutMs, until: 'play' })))
    const ok = res.filter((r) => r.status === 'fulfilled').map((r) => r.value.ms)
    const failed = res.filter((r) => r.status !== 'fulfilled').map((r) => String(r.reason && r.reason.message))
    process.stdout.write(JSON.stringify({ ok, failed }) + '\n', () => { cleanup(); process.exit(0) })
  })
} else if (require.main === module) {
  bench(process.argv[3] || process.env.MCSERV || 'mcserv').then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
}

module.exports = { slowFlood, floodProcess, crowd, floodHolds, timeJoin, rconLogin, httpGet, metric, summary, handshakeBytes, cleanup }
