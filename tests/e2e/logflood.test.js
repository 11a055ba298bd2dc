'use strict'
// Issue 23, acceptance 3: quiet logs and rotation by size.
//   1. One client sends 1,000 garbage handshakes a second (each on a new
//      connection: a frame with a handshake id and random bytes, then the
//      next) for 20 s (10 s under ASan; the 60 s would spend a whole
//      test file's budget on one flood, so the run is shorter at the same
//      rate): logs/latest.log grows by at most 4 KiB (the issue: "a few kB"
//      for a minute; the summaries' window doubles while a flood lasts, so
//      a longer flood adds only a line or two more), where the old code
//      wrote a line per handshake (61 MiB a minute).
//   2. log-max-size=1: console lines (`say`) past 1 MiB rotate latest.log to
//      logs/yyyy-MM-dd-1.log.gz while the server runs; the .gz is read back
//      with zlib, and every line is either in it or in the new latest.log,
//      exactly once.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const net = require('node:net')
const zlib = require('node:zlib')
const h = require('./helpers')

const ASAN = /asan/.test(process.env.MCSERV || '')
// LOGFLOOD_SECONDS=60 runs the full minute (BENCHMARKS.md records it).
const FLOOD_S = Number(process.env.LOGFLOOD_SECONDS) || (ASAN ? 10 : 20)
const RATE = 1000 // garbage handshakes per second

h.setFileDeadline(100000 + FLOOD_S * 1000)
const socks = new Set()
after(async () => {
  for (const s of socks) s.destroy()
  await h.cleanupAll()
})

/** Deterministic pseudo-random bytes (xorshift32). */
function rng (seed) {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13; x >>>= 0
    x ^= x >>> 17
    x ^= x << 5; x >>>= 0
    return x
  }
}

/** A frame claiming to be a handshake (id 0x00) followed by garbage. */
function garbageHandshake (next) {
  const n = 4 + (next() % 40)
  const body = Buffer.alloc(n)
  for (let i = 0; i < n; i++) body[i] = next() & 0xff
  body[0] = 0x00
  return Buffer.concat([h.varInt(n), body])
}

/** Sends `rate` garbage handshakes a second for `seconds`; resolves the count sent. */
async function flood (port, seconds, rate) {
  const next = rng(0x23)
  let sent = 0
  let started = 0
  const t0 = Date.now()
  const end = t0 + seconds * 1000
  while (Date.now() < end) {
    const tickEnd = Date.now() + 10
    const due = Math.min(rate * seconds, Math.ceil((Date.now() - t0 + 10) * rate / 1000))
    for (; started < due; started++) {
      const s = net.connect({ host: '127.0.0.1', port })
      socks.add(s)
      s.on('error', () => {})
      s.on('close', () => socks.delete(s))
      s.on('connect', () => { s.end(garbageHandshake(next)); sent++ })
      s.setTimeout(3000, () => s.destroy())
    }
    const wait = tickEnd - Date.now()
    if (wait > 0) await h.sleep(wait)
  }
  await h.waitFor(() => socks.size === 0, { timeout: 5000, message: 'flood sockets closed' }).catch(() => {})
  return sent
}

function logSize (srv) {
  return fs.statSync(path.join(srv.dir, 'logs', 'latest.log')).size
}

test(`${RATE} garbage handshakes a second for ${FLOOD_S} s add at most 4 KiB to the log`, { timeout: 40000 + FLOOD_S * 1000 }, async (t) => {
  const httpPort = await h.freePort()
  await h.withServer({ name: 'logflood', props: { 'admin-http-port': httpPort } }, async (srv) => {
    await h.sleep(300)
    const before = logSize(srv)
    const from = srv.output().length
    const t0 = Date.now()
    const sent = await flood(srv.port, FLOOD_S, RATE)
    const took = (Date.now() - t0) / 1000
    await h.sleep(2500) // the last window's summary
    const grown = logSize(srv) - before
    const text = fs.readFileSync(path.join(srv.dir, 'logs', 'latest.log'), 'utf8').slice(before)
    const lines = text.split('\n').filter(Boolean)
    t.diagnostic(`${sent} garbage handshakes in ${took.toFixed(1)} s (${Math.round(sent / took)}/s): the log grew ${grown} bytes, ${lines.length} lines:`)
    for (const l of lines.slice(0, 14)) t.diagnostic('  ' + l.slice(0, 200))
    assert.ok(sent / took >= RATE * 0.8, `the flood ran at ${Math.round(sent / took)}/s`)
    const r = await new Promise((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port: httpPort }, () => s.write('GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'))
      let d = ''
      s.setEncoding('utf8')
      s.on('data', (x) => { d += x })
      s.on('close', () => resolve(d))
      s.on('error', reject)
    })
    const accepted = Number((/^minecraft_connections_accepted_total (\d+)/m.exec(r) || [])[1])
    t.diagnostic(`the server accepted ${accepted} connections`)
    assert.ok(accepted >= sent * 0.95, `the server saw the flood: ${accepted} accepted`)
    assert.ok(grown <= 4096, `the log grew ${grown} bytes (at most 4096)`)
    assert.match(text, /\.\.\. \d+ more like this in the last (second|\d+ s); the last: \[127\.0\.0\.1:\d+\] connection closed: /, 'the flood is summarised, with a sample')
    assert.equal(srv.output().slice(from).split('\n').filter((l) => /connection closed:/.test(l) && !/more like this/.test(l)).length <= 10, true, 'at most 10 lines in full')
  })
})

test('log-max-size=1: latest.log rotates by size to a readable yyyy-MM-dd-N.log.gz while running, losing no line', { timeout: 60000 }, async (t) => {
  await h.withServer({ name: 'logrotate', props: { 'log-max-size': 1 } }, async (srv) => {
    const logs = path.join(srv.dir, 'logs')
    const filler = 'x'.repeat(200)
    const N = 6000 // ~1.4 MB of console lines
    for (let i = 0; i < N; i += 500) {
      let chunk = ''
      for (let j = i; j < i + 500 && j < N; j++) chunk += `say line ${String(j).padStart(5, '0')} ${filler}\n`
      srv.proc.stdin.write(chunk)
      await h.sleep(50)
    }
    await h.waitFor(() => fs.readFileSync(path.join(logs, 'latest.log'), 'utf8').includes(`line ${String(N - 1).padStart(5, '0')}`),
      { timeout: 20000, message: 'every console line logged' })
    const d = new Date()
    const name = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}-1.log.gz`
    const gz = path.join(logs, name)
    await h.waitFor(() => fs.existsSync(gz) && !fs.existsSync(gz.replace(/\.gz$/, '')), { timeout: 10000, message: `${name} written, the plain copy removed`, detail: () => fs.readdirSync(logs).join(', ') })
    const rotated = zlib.gunzipSync(fs.readFileSync(gz)).toString('utf8')
    const latest = fs.readFileSync(path.join(logs, 'latest.log'), 'utf8')
    t.diagnostic(`${name}: ${fs.statSync(gz).size} bytes compressed, ${rotated.length} plain; latest.log ${latest.length} bytes; logs/: ${fs.readdirSync(logs).join(', ')}`)
    assert.ok(rotated.length >= 1 << 20, 'the rotated file holds the first MiB')
    assert.match(rotated, /Starting mcserv for Minecraft/, 'it begins with the startup lines')
    assert.match(latest.split('\n')[0], /logs: logs\/latest\.log reached log-max-size \(1048576 bytes\); the earlier lines are in logs\/\d{4}-\d\d-\d\d-1\.log/)
    assert.match(srv.output(), /logs: compressed logs\/\d{4}-\d\d-\d\d-1\.log to logs\/\d{4}-\d\d-\d\d-1\.log\.gz/)
    const all = rotated + latest
    for (let i = 0; i < N; i++) {
      const key = `[Server] line ${String(i).padStart(5, '0')} `
      let at = all.indexOf(key)
      assert.ok(at >= 0, `line ${i} is kept`)
      assert.equal(all.indexOf(key, at + 1), -1, `line ${i} is there once`)
      at = 0
    }
    for (const l of rotated.split('\n').slice(0, -1)) assert.match(l, /^\[\d\d:\d\d:\d\d\] \[[^\]/]+\/[A-Z]+\]: /, 'whole lines only')
  })
})

h.finalClientErrorCheck(test)
