'use strict'
// Helpers for the tests that count what the server sends (issue 13: no news,
// no bytes; batches per tick; hub controls), on top of helpers.js.
//
//   watcher(port, name)   a minecraft-protocol client (no mineflayer: it
//                         answers keep-alives, nothing else) that records
//                         every packet it gets, in order, as { t, name, p }
//   rawJoiner(port, name) a bare socket that logs in when told to and decodes
//                         what it receives (framing, compression, PLAY
//                         packets through minecraft-protocol's parser)
//   runBench(args)        build/mcbench as a child process; { exited, output }
//   MOVE_PACKETS          the packets that move or turn an entity
//
// Invariants: records are capped (MAX_PACKETS) so a chatty server cannot
// grow the test's memory; every wait is bounded (helpers.waitFor); sockets
// and clients are ended by closeAll(), which each file calls in after().

const path = require('node:path')
const zlib = require('node:zlib')
const { spawn } = require('node:child_process')
const mc = require('minecraft-protocol')
const h = require('./helpers')

const MAX_PACKETS = 200000
const MOVE_PACKETS = ['rel_entity_move', 'entity_move_look', 'entity_look', 'entity_teleport',
  'entity_head_rotation', 'entity_velocity']
const MCBENCH = process.env.MCBENCH ? path.resolve(h.REPO_ROOT, process.env.MCBENCH) : path.join(h.REPO_ROOT, 'build', 'mcbench')

const open = new Set()

/** A minecraft-protocol client recording every packet ({ t, name, p }). */
function watcher (port, username) {
  const client = mc.createClient({ host: '127.0.0.1', port, username, version: h.VERSION, auth: 'offline', hideErrors: true })
  const w = { client, username, uuid: null, packets: [], ended: false, kicked: null, errors: [] }
  open.add(w)
  client.on('packet', (p, meta) => {
    if (meta.state === 'play' && w.packets.length < MAX_PACKETS) w.packets.push({ t: Date.now(), name: meta.name, p })
  })
  w.loginP = new Promise((resolve, reject) => {
    client.once('login', () => { w.uuid = client.uuid; resolve() })
    client.once('end', () => reject(new Error(`${username} ended before login: ${w.kicked}`)))
  })
  w.loginP.catch(() => {})
  client.on('end', () => { w.ended = true })
  client.on('kick_disconnect', (p) => { w.kicked = p.reason })
  client.on('error', (e) => w.errors.push(e.message))
  w.waitLogin = (ms = 10000) => h.withTimeout(w.loginP, ms, `${username} login`)
  /** Index to pass as `since`. */
  w.mark = () => w.packets.length
  w.since = (since, name) => w.packets.slice(since).filter((x) => !name || x.name === name)
  /** Player Info entries added since `since`: [{ uuid, name }]. */
  w.added = (since = 0) => w.since(since, 'player_info').filter((x) => x.p.action.add_player)
    .flatMap((x) => x.p.data.map((d) => ({ uuid: d.uuid, name: d.player.name })))
  /** Entity ids spawned and not removed, as of packet index `upto`. */
  w.tracked = (upto = w.packets.length) => {
    const s = new Set()
    for (const x of w.packets.slice(0, upto)) {
      if (x.name === 'named_entity_spawn') s.add(x.p.entityId)
      if (x.name === 'entity_destroy') for (const id of x.p.entityIds) s.delete(id)
    }
    return s
  }
  w.describe = () => `${username}: ended=${w.ended} kicked=${w.kicked} packets=${w.packets.length} errors=${w.errors.join('; ')}`
  /* Once only: minecraft-protocol's end() arms a 30 s close timer that only
   * the socket's close clears, so a second call keeps node alive 30 s. */
  let ending = false
  w.end = () => {
    if (ending) return
    ending = true
    try { client.end('test over'); client.socket.destroy() } catch (e) {}
  }
  return w
}

/** Entity id → player name, from the spawns a watcher got and its tab list. */
function spawnNames (w) {
  const byUuid = new Map(w.added().map((e) => [e.uuid, e.name]))
  const out = new Map()
  for (const x of w.since(0, 'named_entity_spawn')) out.set(x.p.entityId, byUuid.get(x.p.playerUUID))
  return out
}

/**
 * A raw connection that sends the handshake now and Login Start on
 * login(); it decodes what the server sends: Set Compression and Login
 * Success in LOGIN, then PLAY packets ({ name, p }) in `packets`.
 */
async function rawJoiner (port, username) {
  const s = await h.rawConnect(port)
  const r = { s, username, packets: [], compressed: false, play: false, error: null }
  open.add(r)
  const parser = mc.createDeserializer({ state: 'play', isServer: false, version: h.VERSION, noErrorLogging: true })
  let buf = Buffer.alloc(0)
  s.socket.on('data', (d) => {
    buf = Buffer.concat([buf, d])
    for (;;) {
      let len
      try { len = h.readVarInt(buf, 0) } catch (e) { r.error = e.message; return }
      if (!len || buf.length < len.size + len.value) return
      let body = buf.subarray(len.size, len.size + len.value)
      buf = buf.subarray(len.size + len.value)
      try {
        if (r.compressed) {
          const dl = h.readVarInt(body, 0)
          body = body.subarray(dl.size)
          if (dl.value) body = zlib.inflateSync(body)
        }
        if (!r.play) {
          const id = h.readVarInt(body, 0).value
          if (id === 0x03) r.compressed = true
          if (id === 0x02) r.play = true
          continue
        }
        if (r.packets.length < MAX_PACKETS) {
          const { data } = parser.parsePacketBuffer(body)
          r.packets.push({ name: data.name, p: data.params })
        }
      } catch (e) {
        r.error = `${username}: ${e.message}`
      }
    }
  })
  s.socket.write(h.handshakePacket(port, 2))
  /** Login Start; resolves once the bytes are handed to the kernel. */
  r.login = () => new Promise((resolve) => s.socket.write(h.loginStartPacket(username), resolve))
  r.added = () => r.packets.filter((x) => x.name === 'player_info' && x.p.action.add_player)
    .flatMap((x) => x.p.data.map((d) => d.player.name))
  r.end = () => { try { s.socket.destroy() } catch (e) {} }
  return r
}

/** Runs build/mcbench with `args`; { proc, exited: Promise<code>, output() }. */
function runBench (args) {
  const proc = spawn(MCBENCH, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout.on('data', (d) => { out += d })
  proc.stderr.on('data', (d) => { out += d })
  const b = { proc, output: () => out, ended: false }
  b.exited = new Promise((resolve) => proc.on('exit', (code) => { b.ended = true; resolve(code) }))
  open.add({ end: () => { if (!b.ended) try { proc.kill('SIGTERM') } catch (e) {} } })
  return b
}

/**
 * Resolves once the server has accepted every one of `joiners`' connections
 * and read all they sent (their handshakes): /proc/net/tcp lists the
 * server's side of each with an inode (accepted: it has a descriptor) and an
 * empty receive queue. Pausing before that could leave some to be accepted
 * a loop pass later, after a tick.
 */
async function waitRead (srv, joiners, timeout = 5000) {
  const fs = require('node:fs')
  const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0')
  const want = new Set(joiners.map((j) => hex(j.s.localPort)))
  await h.waitFor(() => {
    const done = new Set()
    for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      if (f.length < 10 || !f[1].endsWith(':' + hex(srv.port))) continue
      const remote = f[2].split(':')[1]
      if (want.has(remote) && f[3] === '01' && f[4].endsWith(':00000000') && f[9] !== '0') done.add(remote)
    }
    return done.size === want.size
  }, { timeout, interval: 20, message: `the server reading ${want.size} connections' handshakes` })
}

/** True when every thread of `pid` is stopped (state T in /proc/PID/task/TID/stat). */
function allStopped (pid) {
  const fs = require('node:fs')
  const tasks = fs.readdirSync(`/proc/${pid}/task`)
  return tasks.every((t) => {
    const st = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8')
    return /^[Tt]$/.test(st.slice(st.lastIndexOf(')') + 2, st.lastIndexOf(')') + 3))
  })
}

/**
 * Pauses the server process (SIGSTOP) while `fn` runs, so whatever clients
 * send meanwhile is waiting in the kernel when it resumes and is read in
 * one loop pass: one tick's worth. `fn` starts only once every thread of
 * the server has stopped (kill() returns before that); the server is always
 * resumed.
 */
async function whilePaused (srv, fn) {
  process.kill(srv.pid, 'SIGSTOP')
  try {
    await h.waitFor(() => allStopped(srv.pid), { timeout: 3000, interval: 1, message: `server ${srv.pid} stopped` })
    return await fn()
  } finally {
    process.kill(srv.pid, 'SIGCONT')
  }
}

function closeAll () {
  for (const o of open) o.end()
  open.clear()
}

module.exports = { watcher, rawJoiner, spawnNames, runBench, waitRead, whilePaused, closeAll, MOVE_PACKETS, MCBENCH }
