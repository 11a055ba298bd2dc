#!/usr/bin/env node
'use strict'
// flood.js — how much packet flood mcserv absorbs, and what a connection costs.
//
//   node tools/flood.js [--server build/mcserv] [--clients 50] [--rates 5000,10000,20000,40000]
//                       [--seconds 5] [--packet position|swing|keepalive] [--limit 0]
//   node tools/flood.js --mem [--server build/mcserv] [--clients 200]
//
// Flood mode starts a fresh server (flat world, view-distance 2, its own temp
// directory, the admin endpoint on a free port, packet-limit-max-rate=--limit:
// 0 = the limiter off, to measure the game thread itself), logs N raw clients
// in (they answer keep-alives and teleports and discard everything else
// without inflating it), then for each total rate sends that many packets per
// second spread over the clients for --seconds, and reads back from /metrics
// the packets the server decoded, the tick p99 over the last 5 s and the game
// thread's CPU. The result: the highest rate absorbed (decoded ≥ 95 % of
// sent) with tick p99 < 50 ms. Mem mode opens --clients connections that only
// send a handshake (pre-login), then logs --clients raw players in, and
// reports the server's RSS per connection for each.
//
// Bounded: at most 1000 clients, 60 s per stage, 10 stages; everything is on
// 127.0.0.1 and the server is killed at the end.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const http = require('node:http')
const { spawn } = require('node:child_process')

const args = process.argv.slice(2)
const opt = (name, def) => { const i = args.indexOf('--' + name); return i >= 0 ? args[i + 1] : def }
const flag = (name) => args.includes('--' + name)
const ROOT = path.resolve(__dirname, '..')
const SERVER = path.resolve(opt('server', path.join(ROOT, 'build', 'mcserv')))
const CLIENTS = Math.min(1000, Number(opt('clients', flag('mem') ? 200 : 50)))
const RATES = opt('rates', '5000,10000,20000,40000,80000').split(',').map(Number).slice(0, 10)
const SECONDS = Math.min(60, Number(opt('seconds', 5)))
const PACKET = opt('packet', 'position')
const LIMIT = Number(opt('limit', 0))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---------------------------------------------------------------- protocol
function varInt (v) {
  const out = []
  v >>>= 0
  do { let b = v & 0x7f; v >>>= 7; if (v) b |= 0x80; out.push(b) } while (v)
  return Buffer.from(out)
}
function readVarInt (buf, off) {
  let v = 0
  for (let i = 0; i < 5; i++) {
    if (off + i >= buf.length) return null
    const b = buf[off + i]
    v |= (b & 0x7f) << (7 * i)
    if (!(b & 0x80)) return { value: v, size: i + 1 }
  }
  throw new Error('VarInt too long')
}
const str = (s) => Buffer.concat([varInt(Buffer.byteLength(s)), Buffer.from(s)])
const f64 = (v) => { const b = Buffer.alloc(8); b.writeDoubleBE(v); return b }
const f32 = (v) => { const b = Buffer.alloc(4); b.writeFloatBE(v); return b }

class RawClient {
  constructor (port, name) {
    this.port = port
    this.name = name
    this.buf = Buffer.alloc(0)
    this.compressed = false
    this.state = 'login'
    this.playing = false
    this.x = 0.5; this.y = 0; this.z = 0.5
  }

  /** A frame for pkt (id + payload), in the connection's current format. */
  frame (pkt) {
    if (!this.compressed) return Buffer.concat([varInt(pkt.length), pkt])
    return Buffer.concat([varInt(pkt.length + 1), Buffer.from([0]), pkt]) // always under the threshold
  }

  connect (handshakeOnly = false) {
    return new Promise((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port: this.port })
      this.socket = s
      s.setNoDelay(true)
      s.on('error', (e) => { this.error = e; reject(e) })
      s.on('close', () => { this.closed = true })
      s.on('connect', () => {
        const port = Buffer.alloc(2); port.writeUInt16BE(this.port)
        const hs = Buffer.concat([varInt(0), varInt(763), str('127.0.0.1'), port, varInt(2)])
        s.write(this.frame(hs))
        if (handshakeOnly) return resolve(this)
        s.write(this.frame(Buffer.concat([varInt(0), str(this.name), Buffer.from([0])])))
        this.onPlay = resolve
      })
      s.on('data', (d) => this.data(d))
    })
  }

  data (d) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d
    let off = 0
    for (;;) {
      const len = readVarInt(this.buf, off)
      if (!len || off + len.size + len.value > this.buf.length) break
      let body = this.buf.subarray(off + len.size, off + len.size + len.value)
      off += len.size + len.value
      if (this.compressed) {
        const dl = readVarInt(body, 0)
        if (dl.value !== 0) continue // compressed: chunks and such, skipped unread
        body = body.subarray(dl.size)
      }
      const id = readVarInt(body, 0)
      this.packet(id.value, body.subarray(id.size))
    }
    this.buf = this.buf.subarray(off)
  }

  packet (id, p) {
    if (this.state === 'login') {
      if (id === 0x03) this.compressed = true
      else if (id === 0x02) { this.state = 'play' } else if (id === 0x00) this.socket.destroy()
      return
    }
    if (id === 0x23) { // keep alive: echo the id
      this.socket.write(this.frame(Buffer.concat([varInt(0x12), p.subarray(0, 8)])))
    } else if (id === 0x3c) { // synchronize player position: confirm, adopt
      this.x = p.readDoubleBE(0); this.y = p.readDoubleBE(8); this.z = p.readDoubleBE(16)
      const tid = readVarInt(p, 33)
      this.socket.write(this.frame(Buffer.concat([varInt(0x00), varInt(tid.value)])))
      if (!this.playing) { this.playing = true; this.onPlay(this) }
    }
  }

  /** n flood packets in one write. */
  flood (n, kind, seq) {
    const parts = []
    for (let i = 0; i < n; i++) {
      let pkt
      if (kind === 'swing') pkt = Buffer.concat([varInt(0x2f), varInt(0)])
      else if (kind === 'keepalive') pkt = Buffer.concat([varInt(0x12), f64(0)]) // a stale id: read and ignored
      else { // position + look, wobbling within a block
        const dx = ((seq + i) % 8) * 0.05
        pkt = Buffer.concat([varInt(0x15), f64(this.x + dx), f64(this.y), f64(this.z), f32((seq + i) % 360), f32(0), Buffer.from([1])])
      }
      parts.push(this.frame(pkt))
    }
    if (!this.closed) this.socket.write(Buffer.concat(parts))
  }
}

// ------------------------------------------------------------------ server
function freePort () {
  return new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) }) })
}

async function startServer (extra) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-flood-'))
  const port = await freePort()
  const mport = await freePort()
  const props = Object.assign({
    'server-ip': '127.0.0.1', 'server-port': port, 'online-mode': false, 'level-type': 'flat',
    'view-distance': 2, 'admin-http-port': mport, 'max-players': 2000, 'max-prelogin-connections': 2000,
    'packet-limit-max-rate': LIMIT
  }, extra)
  fs.writeFileSync(path.join(dir, 'server.properties'), Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
  const proc = spawn(SERVER, [], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] })
  let err = ''
  proc.stderr.on('data', (d) => { err += d })
  for (let i = 0; i < 100 && !/Done \(/.test(err); i++) await sleep(50)
  if (!/Done \(/.test(err)) throw new Error('server did not start:\n' + err)
  return { proc, dir, port, mport, log: () => err }
}

function metrics (port) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let b = ''
      res.on('data', (d) => { b += d })
      res.on('end', () => resolve(b))
    }).on('error', reject)
  })
}
const metric = (text, re) => { const m = re.exec(text); return m ? Number(m[1]) : NaN }
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1])
const cpuMs = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); const p = f.slice(f.lastIndexOf(')') + 2).split(' '); return (Number(p[11]) + Number(p[12])) * 10 }

async function login (port, n, prefix) {
  const out = []
  for (let i = 0; i < n; i += 50) {
    const batch = []
    for (let k = i; k < Math.min(n, i + 50); k++) batch.push(new RawClient(port, `${prefix}${k}`).connect())
    out.push(...await Promise.all(batch))
  }
  return out
}

// -------------------------------------------------------------------- modes
async function memMode () {
  const srv = await startServer({})
  try {
    await sleep(500)
    const base = rssKiB(srv.proc.pid)
    const pre = []
    for (let i = 0; i < CLIENTS; i++) pre.push(await new RawClient(srv.port, 'x').connect(true))
    await sleep(500)
    const withPre = rssKiB(srv.proc.pid)
    for (const c of pre) c.socket.destroy()
    await sleep(1500)
    const afterPre = rssKiB(srv.proc.pid)
    const players = await login(srv.port, CLIENTS, 'mem')
    await sleep(3000)
    const withPlay = rssKiB(srv.proc.pid)
    console.log(JSON.stringify({
      clients: CLIENTS,
      rss_base_kib: base,
      prelogin: { rss_kib: withPre, per_connection_bytes: Math.round((withPre - base) * 1024 / CLIENTS) },
      play: { rss_kib: withPlay, per_connection_bytes: Math.round((withPlay - afterPre) * 1024 / CLIENTS) }
    }, null, 2))
    for (const c of players) c.socket.destroy()
  } finally {
    srv.proc.kill('SIGKILL')
    fs.rmSync(srv.dir, { recursive: true, force: true })
  }
}

async function floodMode () {
  const srv = await startServer({})
  const results = []
  try {
    const clients = await login(srv.port, CLIENTS, 'flood')
    await sleep(2000)
    for (const rate of RATES) {
      const perTickTotal = rate / 20
      const m0 = await metrics(srv.mport)
      const in0 = metric(m0, /^minecraft_packets_received_total ([\d.e+]+)/m)
      const cpu0 = cpuMs(srv.proc.pid)
      const t0 = Date.now()
      let seq = 0
      let sent = 0
      let carry = 0
      while (Date.now() - t0 < SECONDS * 1000) {
        carry += perTickTotal
        const n = Math.floor(carry)
        carry -= n
        const each = Math.floor(n / clients.length)
        let extra = n - each * clients.length
        for (const c of clients) {
          const k = each + (extra-- > 0 ? 1 : 0)
          if (k) { c.flood(k, PACKET, seq); sent += k }
        }
        seq++
        await sleep(50)
      }
      await sleep(300)
      const secs = (Date.now() - t0) / 1000
      const m1 = await metrics(srv.mport)
      const decoded = metric(m1, /^minecraft_packets_received_total ([\d.e+]+)/m) - in0
      const p99 = metric(m1, /^minecraft_tick_duration_recent_seconds\{quantile="0.99"\} ([\d.e+-]+)/m) * 1000
      const tps = metric(m1, /^minecraft_tps ([\d.e+-]+)/m)
      const cpu = (cpuMs(srv.proc.pid) - cpu0) / (secs * 10)
      const alive = clients.filter((c) => !c.closed).length
      const r = { target_per_s: rate, sent_per_s: Math.round(sent / secs), decoded_per_s: Math.round(decoded / secs), tick_p99_ms: Number(p99.toFixed(2)), tps, server_cpu_pct: Math.round(cpu), clients_alive: alive }
      results.push(r)
      console.error(JSON.stringify(r))
      if (p99 >= 50 || decoded < 0.95 * sent || alive < clients.length) break
    }
    const ok = results.filter((r) => r.tick_p99_ms < 50 && r.decoded_per_s >= 0.95 * r.sent_per_s && r.clients_alive === CLIENTS)
    console.log(JSON.stringify({ packet: PACKET, clients: CLIENTS, limiter: LIMIT, seconds: SECONDS, stages: results, absorbed_per_s_with_p99_under_50ms: ok.length ? ok[ok.length - 1].decoded_per_s : 0 }, null, 2))
    for (const c of clients) c.socket.destroy()
  } finally {
    srv.proc.kill('SIGKILL')
    fs.rmSync(srv.dir, { recursive: true, force: true })
  }
}

(flag('mem') ? memMode() : floodMode()).catch((e) => { console.error(e); process.exit(1) })
