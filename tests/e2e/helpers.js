'use strict'
// Shared helpers for mcserv's end-to-end tests (node:test, real clients).
//
// What lives here:
//   * startServer(): a fresh temp server directory + server.properties, the
//     mcserv binary spawned in it, stdout/stderr collected, readiness detected
//     from the `Done (` line on stderr, stop() = SIGTERM and wait for exit.
//   * waitFor()/withTimeout(): every wait in the suite is bounded.
//   * rssKiB(pid): VmRSS from /proc/PID/status.
//   * makeBot(): a mineflayer bot with the suite's fixed options and a record
//     of everything it reports (errors, kick reasons, end reasons).
//   * Client-side protocol error capture: console.log/error/warn/info/debug are
//     wrapped as soon as this module is loaded. minecraft-protocol/protodef
//     report malformed server packets only through console output ("... ;
//     partial packet", PartialReadError stacks, inflate problems), so every
//     test checks clientProtocolErrors() at the end (protocol-763.md §3.1).
//   * Raw socket helpers (VarInt, handshake, login_start) for hostile input.
//   * cleanupAll(): kills every server, ends every bot and destroys every raw
//     socket this process created; each test file registers it in after().
//
// Invariants: no helper waits without a timeout; every child process and
// socket is registered for cleanupAll(); timers used only as deadlines are
// unref'd so they never keep a finished test file alive.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const util = require('node:util')
const { spawn } = require('node:child_process')

const REPO_ROOT = path.resolve(__dirname, '..', '..')
const MCSERV = process.env.MCSERV
  ? path.resolve(REPO_ROOT, process.env.MCSERV)
  : path.join(REPO_ROOT, 'build', 'mcserv')
const VERSION = '1.20.1'
const PROTOCOL = 763

// ---------------------------------------------------------------------------
// Console capture (client-side output of this test process).

const consoleLines = [] // { t, level, text }
const CLIENT_ERROR_RE = /partial packet|PartialReadError|Chunk size is \d+ but only|problem inflating chunk|uncompressed length should be/i
for (const level of ['log', 'error', 'warn', 'info', 'debug']) {
  const orig = console[level].bind(console)
  console[level] = (...args) => {
    let text
    try { text = util.format(...args) } catch (e) { text = String(args[0]) }
    consoleLines.push({ t: Date.now(), level, text })
    orig(...args)
  }
}
const botErrors = [] // { t, username, text }

/** A mark to pass to clientProtocolErrors() to only look at later output. */
function mark () { return { console: consoleLines.length, bot: botErrors.length } }

/**
 * Client-side protocol complaints since `since` (default: since load):
 * console output or bot 'error' events matching partial packet /
 * PartialReadError / inflate problems. Returns an array of strings.
 */
function clientProtocolErrors (since = { console: 0, bot: 0 }) {
  const out = []
  for (const l of consoleLines.slice(since.console)) {
    if (CLIENT_ERROR_RE.test(l.text)) out.push(`console.${l.level}: ${l.text.slice(0, 600)}`)
  }
  for (const e of botErrors.slice(since.bot)) {
    if (CLIENT_ERROR_RE.test(e.text)) out.push(`bot ${e.username} error: ${e.text.slice(0, 600)}`)
  }
  return out
}

function assertNoClientProtocolErrors (assert, since, srv) {
  const errs = clientProtocolErrors(since)
  assert.deepEqual(errs, [],
    'client-side protocol errors (server sent malformed packets):\n' + errs.join('\n') +
    (srv ? '\n--- server output (tail) ---\n' + tail(srv.output()) : ''))
}

/**
 * Register, as the last test of a file, a check over everything the client
 * side printed or emitted during the whole file (including output between or
 * after the per-test checks).
 */
function finalClientErrorCheck (test) {
  test('no client-side protocol errors (partial packet / PartialReadError) during this file', { timeout: 5000 }, () => {
    const assert = require('node:assert/strict')
    const errs = clientProtocolErrors()
    assert.deepEqual(errs, [], 'client-side protocol errors (server sent malformed packets):\n' + errs.join('\n'))
  })
}

// ---------------------------------------------------------------------------
// Small utilities.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function tail (s, n = 6000) {
  s = String(s)
  return s.length <= n ? s : '…' + s.slice(s.length - n)
}

/** Resolve with the promise's value, or reject after `ms` with `message`. */
function withTimeout (promise, ms, message) {
  let timer
  const deadline = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${message || 'timed out'} (after ${ms} ms)`)), ms)
    timer.unref()
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/**
 * Poll `pred` (sync or async) every `interval` ms until it returns a truthy
 * value (which is returned) or `timeout` ms pass (then throw, with
 * `message` (a string, or a function called then) and the optional
 * `detail()` text).
 */
async function waitFor (pred, { timeout = 5000, interval = 50, message = 'condition', detail } = {}) {
  const end = Date.now() + timeout
  let lastErr
  for (;;) {
    try {
      const v = await pred()
      if (v) return v
    } catch (e) { lastErr = e }
    if (Date.now() >= end) {
      let msg = `timed out after ${timeout} ms waiting for ${typeof message === 'function' ? message() : message}`
      if (lastErr) msg += `\nlast error: ${lastErr && lastErr.stack ? lastErr.stack : lastErr}`
      if (detail) { try { msg += '\n' + detail() } catch (e) {} }
      throw new Error(msg)
    }
    await sleep(interval)
  }
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/** Resident set size of `pid` in KiB (VmRSS), or null if the process is gone. */
function rssKiB (pid) {
  try {
    const st = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(st)
    return m ? Number(m[1]) : null
  } catch (e) {
    return null
  }
}

function procStatusField (pid, field) {
  try {
    const st = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = new RegExp('^' + field + ':\\s+(\\d+)\\s+kB', 'm').exec(st)
    return m ? Number(m[1]) : null
  } catch (e) {
    return null
  }
}

// ---------------------------------------------------------------------------
// Server processes.

const servers = new Set()
const sockets = new Set()
const bots = new Set()
const tmpDirs = new Set()

function propsText (props) {
  // Java properties: key=value, one per line. Escape what Java would read
  // specially so the value arrives verbatim.
  const esc = (s) => String(s).replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
  return '#mcserv e2e test\n' + Object.entries(props).map(([k, v]) => `${k}=${esc(v)}`).join('\n') + '\n'
}

/**
 * Start mcserv in a fresh temporary server directory.
 *
 * opts.props      server.properties keys (server-ip/server-port/online-mode/
 *                 level-type defaults are filled in unless given; a
 *                 server-port of 'auto' or absent picks a free port).
 * opts.name       label for the temp dir and messages.
 * opts.noProps    true: write no server.properties at all.
 * opts.rawProps   exact server.properties text (overrides props).
 * opts.waitReady  false: don't wait for `Done (` (for startup-failure tests).
 * opts.readyTimeout  ms (default 10000).
 * opts.args       extra command-line arguments; with `--port N` among them
 *                 the returned port is N.
 * opts.env        extra environment variables for the server.
 *
 * Returns { proc, pid, port, dir, output(), stdout(), stderr(), exited,
 *           exitInfo, waitExit(ms), stop(ms), kill(), propsPath }.
 * On a bind failure ("address in use") before readiness, retries with a new
 * port (up to 3 attempts); any other startup failure rejects with the output.
 */
async function startServer (opts = {}) {
  const attempts = opts.props && opts.props['server-port'] && opts.props['server-port'] !== 'auto' ? 1 : 3
  let lastErr
  for (let i = 0; i < attempts; i++) {
    try {
      return await startServerOnce(opts)
    } catch (e) {
      lastErr = e
      if (!e.addrInUse) throw e
    }
  }
  throw lastErr
}

async function startServerOnce (opts) {
  const name = (opts.name || 'server').replace(/[^A-Za-z0-9_-]/g, '_')
  if (!fs.existsSync(MCSERV)) {
    throw new Error(`mcserv binary not found at ${MCSERV} (set MCSERV or run make)`)
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcserv-e2e-${name}-`))
  tmpDirs.add(dir)
  let port = null
  const props = Object.assign({
    'server-ip': '127.0.0.1',
    'online-mode': 'false',
    'level-type': 'flat',
    'admin-http-port': '0' // no admin HTTP unless a test asks: 25585 would clash between servers
  }, opts.props || {})
  if (!props['server-port'] || props['server-port'] === 'auto') props['server-port'] = await freePort()
  port = Number(props['server-port'])
  const propsPath = path.join(dir, 'server.properties')
  if (opts.rawProps != null) fs.writeFileSync(propsPath, opts.rawProps)
  else if (!opts.noProps) fs.writeFileSync(propsPath, propsText(props))

  const chunks = [] // { stream, text }
  const args = opts.args || []
  const portArg = args.indexOf('--port')
  if (portArg >= 0) port = Number(args[portArg + 1])
  const proc = spawn(MCSERV, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...(opts.env || {}) } })
  const started = Date.now()
  const srv = {
    proc,
    pid: proc.pid,
    port,
    dir,
    name,
    propsPath,
    props,
    exited: false,
    exitInfo: null,
    readyAt: null,
    output: () => chunks.map((c) => c.text).join(''),
    stdout: () => chunks.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''),
    stderr: () => chunks.filter((c) => c.stream === 'stderr').map((c) => c.text).join('')
  }
  servers.add(srv)
  proc.stdout.setEncoding('utf8')
  proc.stderr.setEncoding('utf8')
  proc.stdout.on('data', (d) => chunks.push({ stream: 'stdout', text: d }))
  proc.stderr.on('data', (d) => chunks.push({ stream: 'stderr', text: d }))
  proc.stdin.on('error', () => {}) // EPIPE after the server exits is expected
  const exitPromise = new Promise((resolve) => {
    proc.on('exit', (code, signal) => {
      srv.exited = true
      srv.exitInfo = { code, signal, ms: Date.now() - started }
      resolve(srv.exitInfo)
    })
    proc.on('error', (err) => {
      // spawn failure (ENOENT, EACCES): report as an exit.
      chunks.push({ stream: 'spawn', text: `spawn error: ${err.message}\n` })
      srv.exited = true
      srv.exitInfo = { code: null, signal: null, error: err, ms: Date.now() - started }
      resolve(srv.exitInfo)
    })
  })
  // 'exit' can fire before the pipes are drained; wait for 'close' too.
  const closePromise = new Promise((resolve) => proc.on('close', resolve))

  /** Wait up to `ms` for the process to exit; resolves exitInfo or null. */
  srv.waitExit = async (ms = 5000) => {
    try {
      const info = await withTimeout(exitPromise, ms, 'exit')
      await withTimeout(closePromise, 1000, 'pipes closed').catch(() => {})
      return info
    } catch (e) {
      return null
    }
  }
  /** SIGTERM, wait up to `ms`; SIGKILL if it is still running. */
  srv.stop = async (ms = 5000) => {
    if (srv.exited) return Object.assign({ alreadyExited: true }, srv.exitInfo)
    try { proc.kill('SIGTERM') } catch (e) {}
    const info = await srv.waitExit(ms)
    if (info) return info
    try { proc.kill('SIGKILL') } catch (e) {}
    await srv.waitExit(2000)
    return { code: null, signal: 'SIGKILL', timedOut: true }
  }
  srv.kill = async () => {
    if (srv.exited) return
    try { proc.kill('SIGKILL') } catch (e) {}
    await srv.waitExit(2000)
  }
  srv.describe = () => `server ${name} (pid ${srv.pid}, port ${port}, dir ${dir})` +
    (srv.exited ? ` exited ${JSON.stringify(srv.exitInfo)}` : '') +
    '\n--- server output (tail) ---\n' + tail(srv.output())

  if (opts.waitReady === false) return srv

  const readyTimeout = opts.readyTimeout || 10000
  try {
    await waitFor(() => {
      if (/Done \(/.test(srv.stderr())) return true
      if (srv.exited) throw Object.assign(new Error('exited'), { exitedEarly: true })
      return false
    }, { timeout: readyTimeout, interval: 20, message: '`Done (` on stderr' })
  } catch (e) {
    const out = srv.output()
    const exitedEarly = srv.exited
    if (!exitedEarly) await srv.kill()
    let why
    if (exitedEarly) why = `exited before logging \`Done (\`: ${JSON.stringify(srv.exitInfo)}`
    else if (/Done \(/.test(srv.stdout())) why = '`Done (` appeared on stdout, but the contract says stderr'
    else why = `no \`Done (\` on stderr within ${readyTimeout} ms`
    const err = new Error(`mcserv did not become ready: ${why}\n` + srv.describe())
    if (exitedEarly && /in use|EADDRINUSE|bind/i.test(out)) err.addrInUse = true
    throw err
  }
  srv.readyAt = Date.now()
  return srv
}

/**
 * Start a server, run `fn(srv)`, then stop it with SIGTERM and (unless
 * opts.expectCleanExit === false) assert that it exited with code 0 within
 * 5 s. An error from `fn` wins over the exit assertion.
 */
async function withServer (opts, fn) {
  const assert = require('node:assert/strict')
  const srv = await startServer(opts)
  let err = null
  try {
    await fn(srv)
  } catch (e) {
    err = e
  }
  // Bots still connected are ended before the server is stopped, so the
  // server is tested on a plain SIGTERM.
  await Promise.all([...bots].filter((b) => b.bot && b.port === srv.port && !b.ended).map((b) => b.quit(2000)))
  const info = await srv.stop(5000)
  if (err) {
    if (!/--- server output/.test(String(err.message))) {
      try {
        const oldMsg = String(err.message)
        const extra = '\n' + srv.describe()
        err.message = oldMsg + extra
        // Reporters print the stack, which was built with the old message.
        if (typeof err.stack === 'string' && oldMsg && err.stack.includes(oldMsg)) {
          err.stack = err.stack.replace(oldMsg, oldMsg + extra)
        }
      } catch (e) {}
    }
    throw err
  }
  if (opts.expectCleanExit !== false) {
    assert.equal(info.code, 0, `SIGTERM should make mcserv exit 0 within 5 s, got ${JSON.stringify(info)}\n${srv.describe()}`)
  }
  return info
}

// ---------------------------------------------------------------------------
// mineflayer bots.

let mineflayer = null
function loadMineflayer () {
  if (!mineflayer) mineflayer = require('mineflayer')
  return mineflayer
}

/**
 * Create a mineflayer bot with the suite's fixed options. Returns a handle:
 *   { bot, username, log[], errors[], kicked (reason|null), ended (reason|null),
 *     spawned (bool), waitSpawn(ms), waitEnd(ms), quit(), mapChunks (Map key
 *     "x,z" → count), keepAlives (count) }
 */
function makeBot (port, username, extra = {}) {
  const mf = loadMineflayer()
  const h = {
    username,
    port,
    log: [],
    errors: [],
    kicked: null,
    kickedAt: null,
    ended: null,
    endedAt: null,
    spawned: false,
    spawnedAt: null,
    mapChunks: new Map(),
    mapChunkPackets: 0,
    keepAlives: 0,
    createdAt: Date.now()
  }
  const bot = mf.createBot(Object.assign({
    host: '127.0.0.1',
    port,
    username,
    version: VERSION,
    auth: 'offline',
    hideErrors: false,
    checkTimeoutInterval: 60000
  }, extra))
  // mineflayer loads its plugins on a setTimeout(0) after createBot. Under load
  // (many bots in this process) node's poll phase can deliver a fast server's
  // login and first update_health before that timer runs, so the bot misses
  // them and never fires 'spawn' (seen with 20 concurrent bots against mcserv,
  // which answers in well under a millisecond). Injecting the plugins now
  // closes the race; mineflayer listens with once(), so its own later emit is
  // a no-op.
  bot.emit('inject_allowed')
  h.bot = bot
  bots.add(h)
  const note = (s) => h.log.push(`${new Date().toISOString()} ${s}`)
  let spawnResolve, endResolve
  const spawnP = new Promise((resolve) => { spawnResolve = resolve })
  const endP = new Promise((resolve) => { endResolve = resolve })
  bot.on('error', (err) => {
    const text = err && err.stack ? err.stack : String(err)
    h.errors.push(text)
    botErrors.push({ t: Date.now(), username, text })
    note(`error: ${text}`)
  })
  bot.on('kicked', (reason, loggedIn) => {
    h.kicked = typeof reason === 'string' ? reason : JSON.stringify(reason)
    h.kickedAt = Date.now()
    note(`kicked (loggedIn=${loggedIn}): ${h.kicked}`)
  })
  bot.on('end', (reason) => {
    h.ended = reason == null ? '(no reason)' : String(reason)
    h.endedAt = Date.now()
    note(`end: ${h.ended}`)
    endResolve(h.ended)
  })
  bot.on('login', () => note('login'))
  bot.once('spawn', () => {
    h.spawned = true
    h.spawnedAt = Date.now()
    note('spawn')
    spawnResolve(true)
  })
  bot.on('messagestr', (m) => note(`chat: ${m}`))
  bot._client.on('map_chunk', (p) => {
    h.mapChunkPackets++
    const k = `${p.x},${p.z}`
    h.mapChunks.set(k, (h.mapChunks.get(k) || 0) + 1)
  })
  bot._client.on('keep_alive', () => { h.keepAlives++; note('keep_alive') })
  bot._client.on('error', (err) => note(`client error: ${err && err.message}`))

  h.describe = () => `bot ${username}: spawned=${h.spawned} kicked=${h.kicked} ended=${h.ended} ` +
    `chunks=${h.mapChunks.size} keepAlives=${h.keepAlives}\n  ` + h.log.slice(-30).join('\n  ')
  /** Resolve when the bot spawned; reject on end/kick or after `ms`. */
  h.waitSpawn = (ms = 10000) => withTimeout(Promise.race([
    spawnP,
    endP.then((r) => { if (!h.spawned) throw new Error(`bot ${username} ended before spawn: ${r}; kicked=${h.kicked}`) })
  ]), ms, `bot ${username} spawn`).then(() => h)
  /** Resolve with the end reason, or null if it has not ended within `ms`. */
  h.waitEnd = (ms = 5000) => withTimeout(endP, ms, 'end').catch(() => null)
  h.quit = async (ms = 3000) => {
    if (h.ended) return
    try { bot.quit() } catch (e) {}
    if (!(await h.waitEnd(ms))) {
      try { bot._client.socket && bot._client.socket.destroy() } catch (e) {}
      await h.waitEnd(1000)
    }
  }
  return h
}

// ---------------------------------------------------------------------------
// Raw protocol pieces.

function varInt (v) {
  const out = []
  v = v >>> 0 // two's complement for negatives; at most 5 bytes
  do {
    let b = v & 0x7f
    v >>>= 7
    if (v !== 0) b |= 0x80
    out.push(b)
  } while (v !== 0)
  return Buffer.from(out)
}

/** Parse a VarInt at buf[off]; null if incomplete. Throws if > 5 bytes. */
function readVarInt (buf, off = 0) {
  let v = 0
  for (let i = 0; i < 5; i++) {
    if (off + i >= buf.length) return null
    const b = buf[off + i]
    v |= (b & 0x7f) << (7 * i)
    if (!(b & 0x80)) return { value: v | 0, size: i + 1 }
  }
  throw new Error('VarInt too long')
}

function mcString (s) {
  const b = Buffer.from(s, 'utf8')
  return Buffer.concat([varInt(b.length), b])
}

/** An uncompressed frame: VarInt(len) | VarInt(id) | payload. */
function frame (id, payload = Buffer.alloc(0)) {
  const body = Buffer.concat([varInt(id), payload])
  return Buffer.concat([varInt(body.length), body])
}

function handshakePacket (port, nextState, protocol = PROTOCOL, host = '127.0.0.1') {
  const p = Buffer.alloc(2)
  p.writeUInt16BE(port)
  return frame(0x00, Buffer.concat([varInt(protocol), mcString(host), p, varInt(nextState)]))
}

function offlineUuid (name) {
  const crypto = require('node:crypto')
  const h = crypto.createHash('md5').update('OfflinePlayer:' + name).digest()
  h[6] = (h[6] & 0x0f) | 0x30
  h[8] = (h[8] & 0x3f) | 0x80
  return h
}

function loginStartPacket (name) {
  return frame(0x00, Buffer.concat([mcString(name), Buffer.from([1]), offlineUuid(name)]))
}

/**
 * Open a raw TCP connection. Returns a handle with { socket, data (Buffer of
 * everything received), closed (bool), closedAt, closePromise, localPort,
 * waitClose(ms) → ms-until-close or null }.
 */
function rawConnect (port, host = '127.0.0.1', ms = 5000) {
  return withTimeout(new Promise((resolve, reject) => {
    const socket = net.connect({ host, port })
    const h = { socket, data: Buffer.alloc(0), closed: false, closedAt: null, error: null, openedAt: null }
    sockets.add(h)
    h.closePromise = new Promise((res) => socket.on('close', () => {
      h.closed = true
      h.closedAt = Date.now()
      res()
    }))
    socket.on('data', (d) => { h.data = Buffer.concat([h.data, d]) })
    socket.on('error', (e) => { h.error = e })
    socket.once('connect', () => {
      h.openedAt = Date.now()
      h.localPort = socket.localPort
      h.waitClose = async (ms2) => {
        try { await withTimeout(h.closePromise, ms2, 'close') } catch (e) { return null }
        return h.closedAt - h.openedAt
      }
      resolve(h)
    })
    socket.once('error', (e) => { if (!h.openedAt) reject(e) })
  }), ms, `connect to 127.0.0.1:${port}`)
}

// ---------------------------------------------------------------------------
// Status helpers.

/**
 * Debian's headless Chromium (playwright-core drives it) with a fresh
 * profile: { page, problems, close() }. problems collects console errors,
 * page errors and failed requests; close() ends the browser and removes the
 * profile.
 */
async function chromiumPage (viewport) {
  const exe = process.env.CHROMIUM || '/usr/bin/chromium'
  if (!fs.existsSync(exe)) throw new Error(`${exe} is missing: tools/install-deps.sh installs Debian's chromium`)
  const { chromium } = require('playwright-core')
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-chromium-'))
  let ctx
  const close = async () => {
    if (ctx) await ctx.close().catch(() => {})
    fs.rmSync(profile, { recursive: true, force: true })
  }
  try {
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: exe,
      headless: true,
      timeout: 30000,
      viewport,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync']
    })
  } catch (e) {
    await close()
    throw e
  }
  const page = ctx.pages()[0] || await ctx.newPage()
  const problems = []
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`) })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`))
  return { page, problems, close }
}

/**
 * A logged-in minecraft-server-util RCON client kept open for a whole test
 * file: its per-command listeners uncapped and its 3 s idle close off.
 */
async function rconSession (port, password) {
  const { RCON } = require('minecraft-server-util')
  const rcon = new RCON()
  rcon.on('error', () => {})
  await rcon.connect('127.0.0.1', port, { timeout: 3000 })
  await rcon.login(password, { timeout: 3000 })
  rcon.socket.setMaxListeners(0) // minecraft-server-util adds listeners per command
  rcon.socket.socket.setTimeout(0) // and would close the connection after 3 s idle
  return rcon
}

/**
 * A server on a flat survival world with RCON and no spawn protection (the
 * setting of the mob, explosion and world-simulation tests): props adds to
 * or overrides those; returns { srv, rcon }.
 */
async function flatRconServer (name, props = {}) {
  const rconPort = await freePort()
  const password = 'e2e-' + require('node:crypto').randomBytes(6).toString('hex')
  const srv = await startServer({
    name,
    props: Object.assign({
      'level-type': 'flat',
      gamemode: 'survival',
      'view-distance': '4',
      'spawn-protection': '0',
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': password
    }, props)
  })
  const rcon = await rconSession(rconPort, password)
  return { srv, rcon }
}

/**
 * The end of a flatRconServer file: the RCON session closed, the bots
 * quit, the server stopped by SIGTERM, which must exit 0 with no sanitizer
 * report. Returns the server's exit info (null when it never started).
 */
async function closeFlatRconServer (srv, rcon, bots) {
  const assert = require('node:assert/strict')
  if (rcon) rcon.close()
  await Promise.all(bots.filter(Boolean).map((b) => b.quit(2000)))
  const info = srv ? await srv.stop(5000) : null
  await cleanupAll()
  if (srv) {
    assert.equal(info.code, 0, `SIGTERM should make mcserv exit 0, got ${JSON.stringify(info)}\n${srv.describe()}`)
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/, 'no sanitizer report')
  }
  return info
}

async function statusUtil (port, timeout = 5000) {
  const msu = require('minecraft-server-util')
  return msu.status('127.0.0.1', port, { enableSRV: false, timeout })
}

/** Plain text of a chat component (string or object). */
function chatText (c) {
  if (c == null) return ''
  if (typeof c === 'string') return c
  if (Array.isArray(c)) return c.map(chatText).join('')
  let s = c.text != null ? String(c.text) : ''
  if (c.translate) s += c.translate + (c.with ? ' ' + c.with.map(chatText).join(' ') : '')
  if (c.extra) s += c.extra.map(chatText).join('')
  return s
}

// ---------------------------------------------------------------------------
// Cleanup and the per-file watchdog.

async function cleanupAll () {
  for (const h of bots) {
    if (!h.ended) {
      try { h.bot.quit() } catch (e) {}
    }
  }
  for (const h of sockets) { try { h.socket.destroy() } catch (e) {} }
  await Promise.all([...bots].map((h) => h.ended ? null : h.waitEnd(2000).then(() => {
    if (!h.ended) { try { h.bot._client.socket.destroy() } catch (e) {} }
  })))
  await Promise.all([...servers].map((s) => s.exited ? null : s.stop(3000)))
  if (!process.env.KEEP_E2E_TMP) {
    for (const d of tmpDirs) { try { fs.rmSync(d, { recursive: true, force: true }) } catch (e) {} }
    tmpDirs.clear()
  }
  bots.clear()
  sockets.clear()
}

process.on('exit', () => {
  for (const s of servers) { if (!s.exited) { try { s.proc.kill('SIGKILL') } catch (e) {} } }
})

// Per-file watchdog: a test file must finish in < 90 s. Unref'd, so it never
// keeps a finished file alive; if the file is still running at the deadline
// (a hang no test timeout caught), every server is killed and the process
// exits 1. A file that legitimately needs longer calls setFileDeadline(ms);
// E2E_FILE_DEADLINE_MS overrides the default for all files.
let watchdog = null
function setFileDeadline (ms) {
  if (watchdog) clearTimeout(watchdog)
  watchdog = setTimeout(() => {
    process.stderr.write(`e2e watchdog: test file still running after ${ms} ms; killing servers and exiting\n`)
    for (const s of servers) { if (!s.exited) { try { s.proc.kill('SIGKILL') } catch (e) {} } }
    process.exit(1)
  }, ms)
  watchdog.unref()
}
setFileDeadline(Number(process.env.E2E_FILE_DEADLINE_MS) || 88000)

/**
 * Walks a mineflayer bot on a flat floor (no jumping) until it stands within
 * 0.3 of pos; throws after `timeout` ms naming where it got to.
 */
async function walkTo (bot, pos, timeout = 8000) {
  const { Vec3 } = require('vec3')
  const deadline = Date.now() + timeout
  try {
    for (;;) {
      const p = bot.entity.position
      if (Math.hypot(pos.x - p.x, pos.z - p.z) < 0.3) return
      if (Date.now() > deadline) throw new Error(`${bot.username} did not reach ${pos} (at ${p})`)
      await bot.lookAt(new Vec3(pos.x, p.y + 1.62, pos.z), true)
      bot.setControlState('forward', true)
      await sleep(50)
    }
  } finally {
    bot.setControlState('forward', false)
  }
}

module.exports = {
  walkTo,
  chromiumPage,
  rconSession,
  flatRconServer,
  closeFlatRconServer,
  REPO_ROOT,
  MCSERV,
  VERSION,
  PROTOCOL,
  startServer,
  withServer,
  freePort,
  rssKiB,
  procStatusField,
  sleep,
  tail,
  waitFor,
  withTimeout,
  makeBot,
  mark,
  clientProtocolErrors,
  assertNoClientProtocolErrors,
  finalClientErrorCheck,
  consoleLines,
  varInt,
  readVarInt,
  mcString,
  frame,
  handshakePacket,
  loginStartPacket,
  offlineUuid,
  rawConnect,
  statusUtil,
  chatText,
  cleanupAll,
  setFileDeadline
}
