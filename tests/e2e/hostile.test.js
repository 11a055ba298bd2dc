'use strict'
// Acceptance 4: hostile input. While a well-behaved mineflayer bot is in the
// game, five raw connections send bad bytes. Each must be closed by the
// server and logged; the server survives, the bot stays connected and keeps
// getting keep-alives, status still answers, and memory does not balloon.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const zlib = require('node:zlib')
const h = require('./helpers')

after(h.cleanupAll)

const MiB = 1024 * 1024

/** Deterministic "random" bytes (xorshift32) so a failure can be replayed. */
function garbage (n, seed = 0x9e3779b9) {
  const out = Buffer.alloc(n)
  let x = seed >>> 0
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0
    x ^= x >>> 17
    x ^= x << 5; x >>>= 0
    out[i] = x & 0xff
  }
  return out
}

/** Parse uncompressed frames from buf: [{ id, payload }], stops at a partial one. */
function parseFrames (buf) {
  const out = []
  let off = 0
  for (;;) {
    const len = h.readVarInt(buf, off)
    if (!len || off + len.size + len.value > buf.length) break
    const body = buf.subarray(off + len.size, off + len.size + len.value)
    const id = h.readVarInt(body, 0)
    out.push({ id: id ? id.value : null, payload: id ? body.subarray(id.size) : body })
    off += len.size + len.value
  }
  return out
}

const REASON_RE = /disconnect|clos|timed? ?out|timeout|reject|drop|invalid|bad|malformed|too (big|long|large)|exceed|oversize|error|kick|lost|refus|abort|protocol|frame|varint|length/i

test('hostile connections are closed and logged; the server, a playing bot and status survive', { timeout: 75000 }, async (t) => {
  const since = h.mark()
  await h.withServer({
    name: 'hostile',
    props: {
      'view-distance': 2,
      'max-players': 10,
      motd: 'mcserv hostile test',
      'network-compression-threshold': 256
    }
  }, async (srv) => {
    const bot = h.makeBot(srv.port, 'GoodBot')
    await bot.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${bot.describe()}\n${srv.describe()}`))
    const spawnAt = Date.now()
    await h.sleep(500) // let the join's chunk burst settle before the baseline
    const rssBase = h.rssKiB(srv.pid)
    assert.ok(rssBase, 'server RSS readable')
    let rssPeak = rssBase
    const sampler = setInterval(() => {
      const r = h.rssKiB(srv.pid)
      if (r && r > rssPeak) rssPeak = r
    }, 50)
    sampler.unref()
    const logFrom = srv.output().length

    try {
      const conns = {}
      // (a) a 6-byte VarInt frame length.
      conns.a = await h.rawConnect(srv.port)
      conns.a.socket.write(Buffer.from('ffffffffff01', 'hex'))

      // (b) a frame length above 2 MiB (0x200001 = 4-byte VarInt), then some bytes.
      conns.b = await h.rawConnect(srv.port)
      conns.b.socket.write(Buffer.concat([h.varInt(0x200001), garbage(64, 7)]))

      // (d) garbage after a plausible frame length.
      conns.d = await h.rawConnect(srv.port)
      conns.d.socket.write(Buffer.concat([h.varInt(32), garbage(32, 0x1234567)]))

      // (e) half a frame, then silence.
      conns.e = await h.rawConnect(srv.port)
      conns.e.socket.write(Buffer.concat([h.varInt(20), Buffer.from([0x00, 0xfb, 0x05, 0x09, 0x31])]))

      // (c) a decompression bomb after Set Compression.
      conns.c = await h.rawConnect(srv.port)
      conns.c.socket.write(Buffer.concat([h.handshakePacket(srv.port, 2), h.loginStartPacket('Bomber')]))
      // Read login packets until Set Compression (0x03). Login Success
      // (0x02) or Disconnect (0x00) first means compression never came.
      const first = await h.waitFor(() => {
        const f = parseFrames(conns.c.data).find((x) => x.id === 0x03 || x.id === 0x02 || x.id === 0x00)
        return f || (conns.c.closed ? { closed: true } : null)
      }, { timeout: 5000, message: 'Set Compression on the bomb connection', detail: () => srv.describe() })
      assert.ok(!first.closed, `server closed the login before Set Compression:\n${srv.describe()}`)
      assert.equal(first.id, 0x03,
        `expected Set Compression (0x03) with threshold 256 before Login Success, got id ${first.id} ` +
        `payload ${first.payload.toString('hex').slice(0, 200)}`)
      const threshold = h.readVarInt(first.payload, 0).value
      assert.equal(threshold, 256, 'Set Compression threshold')
      const bomb = zlib.deflateSync(Buffer.alloc(16 * MiB)) // really inflates to 16 MiB
      const claimed = h.varInt(100 * MiB)
      const inner = Buffer.concat([claimed, bomb])
      conns.c.socket.write(Buffer.concat([h.varInt(inner.length), inner]))
      conns.c.bombSentAt = Date.now()

      // Every hostile connection must be closed by the server. The ones the
      // server can judge from the bytes at hand (a, b, c) promptly
      // (ops-conventions §5: reject a 4th length byte immediately; check the
      // claimed size before inflating); the others by the ~10 s pre-login
      // deadline at the latest.
      const limits = { a: 5000, b: 5000, c: 5000, d: 15000, e: 15000 }
      await Promise.all(Object.entries(conns).map(([k, c]) => c.waitClose(limits[k] + 500)))
      const report = Object.entries(conns).map(([k, c]) =>
        `(${k}) port ${c.localPort}: ${c.closed ? `closed after ${c.closedAt - (k === 'c' ? c.bombSentAt : c.openedAt)} ms` : 'STILL OPEN'}` +
        (c.error ? ` (${c.error.code || c.error.message})` : ''))
      t.diagnostic('hostile connections:'); report.forEach((l) => t.diagnostic(l))
      for (const [k, c] of Object.entries(conns)) {
        assert.ok(c.closed, `hostile connection (${k}) should be closed by the server within ${limits[k]} ms\n` +
          report.join('\n') + '\n' + srv.describe())
        const took = c.closedAt - (k === 'c' ? c.bombSentAt : c.openedAt)
        assert.ok(took <= limits[k] + 500, `(${k}) closed after ${took} ms, limit ${limits[k]} ms`)
      }

      // The good bot: still connected and gets a keep-alive (every 15 s).
      await h.waitFor(() => bot.keepAlives >= 1 || bot.ended, {
        timeout: Math.max(1000, spawnAt + 20000 - Date.now()),
        message: 'a keep_alive for the good bot within 20 s of spawn',
        detail: () => bot.describe()
      })
      assert.equal(bot.ended, null, `the good bot must stay connected: ${bot.describe()}\n${srv.describe()}`)
      assert.ok(bot.keepAlives >= 1, 'the good bot got a keep_alive')
      assert.equal(srv.exited, false, `server must survive: ${srv.describe()}`)

      // Fresh status ping.
      const st = await h.statusUtil(srv.port)
      assert.equal(st.version.protocol, 763)
      assert.equal(st.players.online, 1, `only the good bot is online: ${JSON.stringify(st.players)}`)

      // Memory.
      const rssEnd = h.rssKiB(srv.pid)
      const grewPeak = rssPeak - rssBase
      t.diagnostic(`server RSS KiB: base ${rssBase}, peak ${rssPeak}, end ${rssEnd} (peak growth ${grewPeak} KiB)`)
      assert.ok(grewPeak < 64 * 1024, `server RSS grew by ${grewPeak} KiB (>= 64 MiB) during the hostile test`)

      // The log: at least one line per hostile connection naming its remote
      // address and a reason.
      const log = srv.output() // stdout + stderr in arrival order; filtered by port below
      const lines = log.split('\n')
      const relevant = []
      const perConn = {}
      for (const [k, c] of Object.entries(conns)) {
        const addr = `127.0.0.1:${c.localPort}`
        perConn[k] = lines.filter((l) => l.includes(addr) && REASON_RE.test(l.replace(addr, '')))
        relevant.push(...perConn[k].map((l) => `(${k}) ${l}`))
      }
      t.diagnostic('server log lines for hostile connections:' + (relevant.length ? '' : ' (none)')); relevant.forEach((l) => t.diagnostic(l))
      const missingLog = Object.keys(conns).filter((k) => perConn[k].length === 0)
      assert.deepEqual(missingLog, [],
        'each hostile connection needs a log line with 127.0.0.1:<its port> and a reason; missing for ' +
        missingLog.map((k) => `(${k}) port ${conns[k].localPort}`).join(', ') +
        '\n--- server log since the hostile phase ---\n' + h.tail(log.slice(logFrom), 8000))
      assert.ok(relevant.length >= 5, `>= 5 hostile log lines, got ${relevant.length}`)

      h.assertNoClientProtocolErrors(assert, since, srv)
    } finally {
      clearInterval(sampler)
    }
  })
})

h.finalClientErrorCheck(test)
