'use strict'
// Issue #7 acceptance 1, 2 and 4 (first half): RCON, Query and the HTTP
// admin endpoint, driven by real clients.
//
//  - minecraft-server-util's RCON class logs in and runs `list`, `say` and
//    `whitelist add`; a wrong password fails; an empty password keeps RCON
//    off with vanilla's log line; an unauthenticated or malformed client is
//    dropped.
//  - minecraft-server-util's queryBasic / queryFull return the MOTD,
//    players, map and version; a stat request without a valid challenge
//    gets nothing back.
//  - /metrics, scraped while 20 mineflayer bots are online, parses as
//    Prometheus text (a strict parser below) and says 20 players; /api/status,
//    /healthz, HEAD, 404/405, keep-alive, the request limits and the Host guard.
//
// Everything runs on 127.0.0.1; every wait is bounded.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const net = require('node:net')
const dgram = require('node:dgram')
const http = require('node:http')
const h = require('./helpers')

after(h.cleanupAll)
const since = h.mark()

const PASSWORD = 'e2e-rcon-password-7f3a'

function util () { return require('minecraft-server-util') }

/** GET (or another method) on the admin endpoint; resolves { status, headers, body }. */
function httpGet (port, p, { method = 'GET', headers = {}, timeout = 5000 } = {}) {
  return h.withTimeout(new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method, headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (d) => chunks.push(d))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  }), timeout, `${method} ${p}`)
}

/** Sends raw bytes on a new TCP connection; resolves with everything read until close (or timeout). */
function rawExchange (port, bytes, { timeout = 3000 } = {}) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port })
    const chunks = []
    let done = false
    const finish = (closed) => {
      if (done) return
      done = true
      clearTimeout(timer)
      s.destroy()
      resolve({ data: Buffer.concat(chunks).toString('latin1'), closed })
    }
    const timer = setTimeout(() => finish(false), timeout)
    s.on('connect', () => { if (bytes) s.write(bytes) })
    s.on('data', (d) => chunks.push(d))
    s.on('close', () => finish(true))
    s.on('error', () => finish(true))
  })
}

// ---------------------------------------------------------------------------
// A strict Prometheus text-format (0.0.4) parser: the grammar, one TYPE and
// HELP per family before its samples, families not interleaved, no
// duplicate series, histogram buckets cumulative with +Inf equal to _count.

function parsePrometheus (text) {
  assert.ok(text.endsWith('\n'), 'the exposition ends with a newline')
  const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
  const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/
  const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])
  const families = new Map() // name -> { type, help, samples: [] }
  const seen = new Set()
  const finished = new Set()
  let current = null
  const familyOf = (name) => {
    for (const suffix of ['_bucket', '_sum', '_count']) {
      if (name.endsWith(suffix)) {
        const base = name.slice(0, -suffix.length)
        const f = families.get(base)
        if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return base
      }
    }
    return name
  }
  const parseValue = (s, line) => {
    if (s === '+Inf') return Infinity
    if (s === '-Inf') return -Infinity
    if (s === 'NaN') return NaN
    assert.match(s, /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, `a number: ${line}`)
    return Number(s)
  }
  const lines = text.split('\n')
  lines.pop()
  for (const line of lines) {
    if (line === '') continue
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line)
      if (!m) continue // a plain comment
      const [, kind, name, rest] = m
      assert.match(name, NAME, `metric name in: ${line}`)
      assert.ok(!finished.has(name), `family ${name} appears again after other families`)
      let f = families.get(name)
      if (!f) { f = { type: null, help: null, samples: [] }; families.set(name, f) }
      if (current && current !== name) finished.add(current)
      current = name
      if (kind === 'TYPE') {
        assert.ok(TYPES.has(rest), `known type in: ${line}`)
        assert.equal(f.type, null, `one TYPE for ${name}`)
        assert.equal(f.samples.length, 0, `TYPE before the samples of ${name}`)
        f.type = rest
      } else {
        assert.equal(f.help, null, `one HELP for ${name}`)
        f.help = rest
      }
      continue
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(line)
    assert.ok(m, `a sample line: ${JSON.stringify(line)}`)
    const [, name, , labelText] = m
    const labels = {}
    if (labelText !== undefined && labelText !== '') {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y
      let pos = 0
      while (pos < labelText.length) {
        re.lastIndex = pos
        const lm = re.exec(labelText)
        assert.ok(lm, `labels in: ${line}`)
        assert.match(lm[1], LABEL)
        assert.ok(!(lm[1] in labels), `label ${lm[1]} once in: ${line}`)
        labels[lm[1]] = lm[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\')
        pos = re.lastIndex
        if (lm[3] === '' && pos < labelText.length) assert.fail(`labels in: ${line}`)
      }
    }
    const value = parseValue(m[4], line)
    const fam = familyOf(name)
    const f = families.get(fam)
    assert.ok(f && f.type, `sample ${name} after its # TYPE`)
    assert.ok(!finished.has(fam), `family ${fam} is not interleaved with others`)
    if (current !== fam) { if (current) finished.add(current); current = fam }
    const key = name + JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]))
    assert.ok(!seen.has(key), `series once: ${line}`)
    seen.add(key)
    f.samples.push({ name, labels, value })
  }
  for (const [name, f] of families) {
    assert.ok(f.type, `${name} has a TYPE`)
    if (f.type === 'counter') for (const s of f.samples) assert.ok(s.value >= 0, `${s.name} counter is not negative`)
    if (f.type === 'histogram') {
      // one series per label set besides le (mcserv_tick_phase_seconds{phase})
      const series = new Map()
      const idOf = (labels) => JSON.stringify(Object.entries(labels).filter(([k]) => k !== 'le').sort())
      for (const s of f.samples) {
        const id = idOf(s.labels)
        if (!series.has(id)) series.set(id, [])
        series.get(id).push(s)
      }
      assert.ok(series.size >= 1, `${name} has series`)
      for (const [id, samples] of series) {
        const buckets = samples.filter((s) => s.name === name + '_bucket')
        assert.ok(buckets.length > 1, `${name}${id} has buckets`)
        let prev = -1
        let prevLe = -Infinity
        for (const b of buckets) {
          const le = parseValue(b.labels.le, `le of ${name}`)
          assert.ok(le > prevLe, `${name}${id} buckets in increasing le`)
          assert.ok(b.value >= prev, `${name}${id} buckets are cumulative`)
          prev = b.value
          prevLe = le
        }
        assert.equal(buckets[buckets.length - 1].labels.le, '+Inf', `${name}${id} ends with +Inf`)
        const count = samples.find((s) => s.name === name + '_count')
        const sum = samples.find((s) => s.name === name + '_sum')
        assert.ok(count && sum, `${name}${id} has _count and _sum`)
        assert.equal(count.value, prev, `${name}${id}_count equals the +Inf bucket`)
      }
    }
  }
  return families
}

function metricValue (families, name, labels = {}) {
  const f = families.get(name) || families.get(name.replace(/_(bucket|sum|count)$/, ''))
  if (!f) return undefined
  const s = f.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
  return s ? s.value : undefined
}

// ---------------------------------------------------------------------------

test('RCON: login, list, say and whitelist add through the dispatcher; wrong password fails; silent and malformed clients are dropped', { timeout: 40000 }, async () => {
  const rconPort = await h.freePort()
  const httpPort = await h.freePort()
  await h.withServer({
    name: 'rcon',
    props: {
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': PASSWORD,
      'admin-http-port': httpPort,
      'max-players': 20
    }
  }, async (srv) => {
    assert.match(srv.output(), new RegExp(`RCON running on 127\\.0\\.0\\.1:${rconPort}`))
    const { RCON } = util()
    const rcon = new RCON()
    rcon.on('error', () => {})
    await rcon.connect('127.0.0.1', rconPort, { timeout: 3000 })
    await rcon.login(PASSWORD, { timeout: 3000 })
    const list0 = await h.withTimeout(rcon.execute('list'), 3000, 'rcon list')
    assert.equal(list0, 'There are 0 of a max of 20 players online: ')

    const bot = h.makeBot(srv.port, 'RconWatcher')
    await bot.waitSpawn(15000)
    const list1 = await h.withTimeout(rcon.execute('list'), 3000, 'rcon list')
    assert.equal(list1, 'There are 1 of a max of 20 players online: RconWatcher')

    const heard = new Promise((resolve) => bot.bot.on('messagestr', (m) => { if (/hello over rcon/.test(m)) resolve(m) }))
    const sayOut = await h.withTimeout(rcon.execute('say hello over rcon'), 3000, 'rcon say')
    assert.equal(sayOut, '', 'say answers with no text, as vanilla')
    assert.equal(await h.withTimeout(heard, 3000, 'the bot hears the broadcast'), '[Rcon] hello over rcon')

    const wl = await h.withTimeout(rcon.execute('whitelist add Carol'), 3000, 'rcon whitelist add')
    assert.equal(wl, 'Added Carol to the whitelist')
    assert.equal(await h.withTimeout(rcon.execute('whitelist add Carol'), 3000, 'again'), 'Player is already whitelisted')
    const wlFile = path.join(srv.dir, 'whitelist.json')
    await h.waitFor(() => fs.existsSync(wlFile) && /Carol/.test(fs.readFileSync(wlFile, 'utf8')), { timeout: 3000, message: 'whitelist.json written' })
    assert.deepEqual(JSON.parse(fs.readFileSync(wlFile, 'utf8')), [{ uuid: h.offlineUuid('Carol').toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'), name: 'Carol' }])
    const bad = await h.withTimeout(rcon.execute('nosuchcommand'), 3000, 'rcon unknown')
    assert.match(bad, /^Unknown or incomplete command, see below for error\nnosuchcommand<--\[HERE\]$/)
    rcon.close()
    assert.match(srv.output(), /\[Rcon: Added Carol to the whitelist\]/, 'the console hears what RCON did')

    // A wrong password: minecraft-server-util rejects the login.
    const wrong = new RCON()
    wrong.on('error', () => {})
    await wrong.connect('127.0.0.1', rconPort, { timeout: 3000 })
    await assert.rejects(wrong.login('not-the-password', { timeout: 3000 }), /Invalid RCON password/)
    wrong.close()
    await h.waitFor(() => /RCON: wrong password from 127\.0\.0\.1/.test(srv.output()), { timeout: 2000, message: 'wrong password logged' })
    assert.ok(!srv.output().includes('not-the-password'), 'passwords are never logged')

    // A client that never logs in is closed after the 5 s deadline.
    const t0 = Date.now()
    const silent = await rawExchange(rconPort, null, { timeout: 9000 })
    assert.ok(silent.closed, 'a silent client is closed')
    const waited = Date.now() - t0
    assert.ok(waited >= 4000 && waited < 8000, `closed after about 5 s (took ${waited} ms)`)
    // A length outside 10..1456 closes the connection at once.
    const huge = Buffer.alloc(12)
    huge.writeInt32LE(1 << 20, 0)
    const r = await rawExchange(rconPort, huge, { timeout: 2000 })
    assert.ok(r.closed && r.data === '', 'an oversized packet closes the connection without a reply')
    // A command before logging in: the auth-failure reply (id -1), then closed.
    const cmd = Buffer.alloc(18)
    cmd.writeInt32LE(14, 0); cmd.writeInt32LE(5, 4); cmd.writeInt32LE(2, 8); cmd.write('list', 12)
    const r2 = await rawExchange(rconPort, cmd, { timeout: 2000 })
    assert.ok(r2.closed)
    assert.equal(Buffer.from(r2.data, 'latin1').readInt32LE(4), -1)

    const m = parsePrometheus((await httpGet(httpPort, '/metrics')).body)
    assert.equal(metricValue(m, 'mcserv_rcon_logins_total'), 1)
    assert.ok(metricValue(m, 'mcserv_rcon_auth_failures_total') >= 2)
    assert.equal(metricValue(m, 'mcserv_rcon_commands_total'), 6)
    await bot.quit()
  })
  h.assertNoClientProtocolErrors(assert, since)
})

test('RCON with an empty password stays off, with vanilla\'s log line', { timeout: 20000 }, async () => {
  const rconPort = await h.freePort()
  await h.withServer({
    name: 'rcon-empty',
    props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': '', 'admin-http-port': 0 }
  }, async (srv) => {
    assert.match(srv.output(), /No rcon password set in server\.properties, rcon disabled!/)
    assert.doesNotMatch(srv.output(), /RCON running/)
    await assert.rejects(h.rawConnect(rconPort, '127.0.0.1', 2000), /ECONNREFUSED/)
  })
})

test('Query: basic and full stat give the MOTD, players, map and version; no reply without a valid challenge', { timeout: 30000 }, async () => {
  const port = await h.freePort() // the game port over TCP and Query over UDP, as many servers run it
  await h.withServer({
    name: 'query',
    props: {
      'server-port': port,
      'enable-query': 'true',
      'query.port': port,
      motd: 'mcserv query test',
      'max-players': 12,
      'admin-http-port': 0,
      'level-name': 'queryworld'
    }
  }, async (srv) => {
    assert.match(srv.output(), new RegExp(`Query running on 127\\.0\\.0\\.1:${port} \\(UDP\\)`))
    const bot = h.makeBot(srv.port, 'QueryBot')
    await bot.waitSpawn(15000)
    const { queryBasic, queryFull } = util()
    const basic = await queryBasic('127.0.0.1', port, { enableSRV: false, timeout: 3000 })
    assert.equal(basic.motd.clean, 'mcserv query test')
    assert.equal(basic.gameType, 'SMP')
    assert.equal(basic.map, 'queryworld')
    assert.deepEqual(basic.players, { online: 1, max: 12 })
    assert.equal(basic.hostPort & 0xffff, port) // the library reads the u16 as signed
    assert.equal(basic.hostIP, '127.0.0.1')
    const full = await queryFull('127.0.0.1', port, { enableSRV: false, timeout: 3000 })
    assert.equal(full.motd.clean, 'mcserv query test')
    assert.equal(full.version, '1.20.1')
    assert.equal(full.map, 'queryworld')
    assert.equal(full.software, 'mcserv')
    assert.deepEqual(full.players, { online: 1, max: 12, list: ['QueryBot'] })

    // A stat request with a made-up token: silence.
    const sock = dgram.createSocket('udp4')
    const got = []
    sock.on('message', (msg) => got.push(msg))
    await new Promise((resolve) => sock.bind(0, '127.0.0.1', resolve))
    try {
      sock.send(Buffer.from([0xFE, 0xFD, 0x00, 0, 0, 0, 1, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0]), port, '127.0.0.1')
      await h.sleep(500)
      assert.equal(got.length, 0, 'no reply to an unchallenged stat request')
      // The handshake reply is at most 16 bytes (no amplification).
      sock.send(Buffer.from([0xFE, 0xFD, 0x09, 0, 0, 0, 1]), port, '127.0.0.1')
      await h.waitFor(() => got.length === 1, { timeout: 2000, message: 'handshake reply' })
      assert.ok(got[0].length <= 16 && got[0][0] === 9)
    } finally {
      sock.close()
    }
    await bot.quit()
  })
  h.assertNoClientProtocolErrors(assert, since)
})

test('HTTP: /healthz, /api/status, HEAD, 404/405, keep-alive, request limits, the Host guard, user text escaped', { timeout: 30000 }, async () => {
  const httpPort = await h.freePort()
  await h.withServer({
    name: 'http',
    props: { 'admin-http-port': httpPort, motd: '<script>alert("x")</script> \u00a7aMOTD' }
  }, async (srv) => {
    assert.match(srv.output(), new RegExp(`HTTP admin endpoint on http://127\\.0\\.0\\.1:${httpPort}/`))
    const hz = await httpGet(httpPort, '/healthz')
    assert.equal(hz.status, 200)
    assert.equal(hz.body, 'ok\n')
    const st = await httpGet(httpPort, '/api/status')
    assert.equal(st.status, 200)
    assert.equal(st.headers['content-type'], 'application/json')
    const s = JSON.parse(st.body)
    assert.equal(s.server.version, '1.20.1')
    assert.equal(s.server.protocol, 763)
    assert.equal(s.server.motd, '<script>alert("x")</script> \u00a7aMOTD')
    assert.deepEqual(s.players, { online: 0, max: 20, list: [] })
    assert.equal(typeof s.tps.last_5s, 'number')
    assert.ok(Array.isArray(s.history))
    const page = await httpGet(httpPort, '/')
    assert.equal(page.status, 200)
    assert.match(page.headers['content-type'], /^text\/html/)
    assert.match(page.headers['content-security-policy'], /default-src 'none'; script-src 'sha256-/)
    assert.ok(!page.body.includes('alert('), 'no server data in the page markup')
    const head = await httpGet(httpPort, '/metrics', { method: 'HEAD' })
    assert.equal(head.status, 200)
    assert.equal(head.body, '')
    assert.ok(Number(head.headers['content-length']) > 1000)
    assert.equal((await httpGet(httpPort, '/nope')).status, 404)
    const post = await httpGet(httpPort, '/metrics', { method: 'POST' })
    assert.equal(post.status, 405)
    assert.equal(post.headers.allow, 'GET, HEAD')
    const evil = await httpGet(httpPort, '/api/status', { headers: { Host: 'rebind.example:25585' } })
    assert.equal(evil.status, 421, 'a DNS-rebinding Host is refused')
    assert.equal((await httpGet(httpPort, '/api/status', { headers: { Host: 'localhost:1' } })).status, 200)

    // keep-alive: three requests on one connection, pipelined
    const ka = await rawExchange(httpPort,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' +
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', { timeout: 3000 })
    assert.equal((ka.data.match(/HTTP\/1\.1 200 OK/g) || []).length, 3)
    assert.ok(ka.closed, 'closed after Connection: close')
    // malformed and oversized heads: 4xx and closed
    const bad = await rawExchange(httpPort, 'GET / HTTP/1.1\r\nHost : x\r\n\r\n')
    assert.match(bad.data, /^HTTP\/1\.1 400 /)
    assert.ok(bad.closed)
    const big = await rawExchange(httpPort, 'GET / HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(9000) + '\r\n\r\n')
    assert.match(big.data, /^HTTP\/1\.1 431 /)
    assert.ok(big.closed)
    const body = await rawExchange(httpPort, 'POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789')
    assert.match(body.data, /^HTTP\/1\.1 413 /)
    // a client that starts a request and stalls is closed (5 s head deadline)
    const t0 = Date.now()
    const slow = await rawExchange(httpPort, 'GET /metr', { timeout: 9000 })
    assert.ok(slow.closed, 'a stalled head is closed')
    assert.ok(Date.now() - t0 >= 4500, 'after the head deadline')
    // at most 32 clients from one address (128 in all): each newcomer beyond
    // evicts the one idle longest, so the oldest 38 of 70 are closed
    const socks = []
    for (let i = 0; i < 70; i++) socks.push(await h.rawConnect(httpPort))
    await h.waitFor(() => socks.filter((x) => x.closed).length >= 38, { timeout: 3000, message: 'clients over the limit closed' })
    assert.deepEqual(socks.map((x, i) => x.closed ? -1 : i).filter((i) => i >= 0), Array.from({ length: 32 }, (_, i) => 38 + i), 'the newest 32 stay')
    for (const x of socks) x.socket.destroy()
    assert.equal((await h.waitFor(async () => (await httpGet(httpPort, '/healthz')).status, { timeout: 3000 })), 200)
  })
})

test('/metrics parses as Prometheus text and counts 20 bots online during a 20-bot run', { timeout: 60000 }, async () => {
  const httpPort = await h.freePort()
  require('minecraft-data')(h.VERSION)
  await h.withServer({
    name: 'metrics20',
    props: { 'admin-http-port': httpPort, 'view-distance': 2, 'max-players': 30, 'level-name': 'wor"ld\\1' }
  }, async (srv) => {
    const bots = []
    for (let i = 0; i < 20; i++) {
      bots.push(h.makeBot(srv.port, `Metric${String(i).padStart(2, '0')}`))
      await h.sleep(20)
    }
    const res = await Promise.allSettled(bots.map((b) => b.waitSpawn(30000)))
    assert.deepEqual(res.filter((r) => r.status !== 'fulfilled').map((r) => String(r.reason)), [])
    const fam = await h.waitFor(async () => {
      const r = await httpGet(httpPort, '/metrics')
      assert.equal(r.status, 200)
      assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8')
      const f = parsePrometheus(r.body)
      return metricValue(f, 'minecraft_players_online') === 20 ? f : null
    }, { timeout: 5000, interval: 200, message: 'minecraft_players_online 20' })
    assert.equal(metricValue(fam, 'minecraft_players_online'), 20)
    assert.equal(metricValue(fam, 'minecraft_players_max'), 30)
    assert.equal(metricValue(fam, 'minecraft_connections', { state: 'play' }), 20)
    assert.ok(metricValue(fam, 'minecraft_logins_total') >= 20)
    assert.ok(metricValue(fam, 'minecraft_tick_duration_seconds_count') > 0)
    assert.ok(metricValue(fam, 'minecraft_tps') > 0)
    assert.ok(metricValue(fam, 'minecraft_loaded_chunks', { world: 'wor"ld\\1' }) > 0, 'the world label is escaped and read back')
    assert.ok(metricValue(fam, 'minecraft_packets_sent_total') > 1000)
    assert.ok(metricValue(fam, 'minecraft_network_sent_bytes_total') > 100000)
    assert.ok(metricValue(fam, 'minecraft_network_received_bytes_total') > 0)
    assert.ok(metricValue(fam, 'process_resident_memory_bytes') > 1 << 20)
    assert.ok(metricValue(fam, 'process_open_fds') >= 20)
    assert.ok(metricValue(fam, 'process_cpu_seconds_total') > 0)
    for (const r of ['kicked', 'server_full', 'banned', 'other']) assert.equal(metricValue(fam, 'minecraft_kicks_total', { reason: r }), 0)
    // UnifiedMetrics' names (its Grafana dashboard), beside ours
    const world = { world: 'wor"ld\\1' }
    assert.equal(metricValue(fam, 'minecraft_players_count'), 20)
    assert.equal(metricValue(fam, 'minecraft_world_players_count', world), 20)
    assert.ok(metricValue(fam, 'minecraft_world_entities_count', world) >= 20)
    assert.equal(metricValue(fam, 'minecraft_world_loaded_chunks', world), metricValue(fam, 'minecraft_loaded_chunks', world))
    assert.equal(metricValue(fam, 'minecraft_events_join_total'), 20)
    assert.ok(metricValue(fam, 'minecraft_events_login_total') >= 20)
    assert.equal(metricValue(fam, 'minecraft_events_quit_total'), 0)
    assert.equal(metricValue(fam, 'minecraft_plugins'), 0)
    bots[0].bot.chat('hello metrics')
    await h.statusUtil(srv.port)
    await h.waitFor(async () => {
      const f = parsePrometheus((await httpGet(httpPort, '/metrics')).body)
      return metricValue(f, 'minecraft_events_chat_total') === 1 && metricValue(f, 'minecraft_events_ping_total') >= 1
    }, { timeout: 5000, interval: 200, message: 'a chat message and a server list ping counted' })
    // the build: the Minecraft version and the commit mcserv --version names
    const version = require('node:child_process').execFileSync(h.MCSERV, ['--version'], { encoding: 'utf8' })
    const commit = /commit (\S+)/.exec(version)[1]
    assert.equal(metricValue(fam, 'mcserv_build_info', { version: '1.20.1', protocol: '763', commit }), 1, version)
    // the abuse limits' refusals by rule are exported
    for (const rule of ['prelogin_full', 'per_ip', 'descriptors']) assert.equal(metricValue(fam, 'mcserv_connections_refused_total', { reason: rule }), 0, rule)
    for (const n of ['mcserv_login_throttled_total', 'mcserv_packet_limit_kicks_total', 'mcserv_packet_limit_drops_total', 'mcserv_slow_clients_total', 'mcserv_moved_too_quickly_total']) assert.equal(typeof metricValue(fam, n), 'number', n)
    const st = JSON.parse((await httpGet(httpPort, '/api/status')).body)
    assert.equal(st.players.online, 20)
    assert.equal(st.players.list.length, 20)
    assert.ok(st.world.chunks.length >= 2 * 25, 'loaded chunks listed for the map')
    await Promise.all(bots.map((b) => b.quit(3000)))
  })
  h.assertNoClientProtocolErrors(assert, since)
})

test('rate-limit kicks a client sending more packets per second than allowed, with vanilla\'s message', { timeout: 20000 }, async () => {
  await h.withServer({ name: 'ratelimit', props: { 'rate-limit': 5, 'admin-http-port': 0 } }, async (srv) => {
    const b = h.makeBot(srv.port, 'Chatty')
    await b.waitSpawn(15000)
    // 50 arm swings a second: the running average passes 5/s within ~2 s.
    const timer = setInterval(() => { if (!b.ended) b.bot.swingArm() }, 20)
    try {
      await h.waitFor(() => b.kicked, { timeout: 8000, message: 'kicked for the packet rate', detail: b.describe })
    } finally {
      clearInterval(timer)
    }
    const why = JSON.parse(b.kicked)
    assert.equal(why.translate, 'disconnect.exceeded_packet_rate')
    assert.equal(why.fallback, 'Kicked for exceeding packet rate limit')
    assert.match(srv.output(), /Chatty sent \d+ packets per second \(rate-limit=5\)/)
  })
})

test('player-idle-timeout=1 kicks a player who has not moved or acted for a minute', { timeout: 90000 }, async () => {
  h.setFileDeadline(200000) // this test alone waits a minute (vanilla counts in minutes)
  const httpPort = await h.freePort()
  await h.withServer({ name: 'idle', props: { 'player-idle-timeout': 1, 'admin-http-port': httpPort } }, async (srv) => {
    const still = h.makeBot(srv.port, 'Statue')
    const busy = h.makeBot(srv.port, 'Busy')
    await Promise.all([still.waitSpawn(15000), busy.waitSpawn(15000)])
    const t0 = Date.now()
    const timer = setInterval(() => { busy.bot.swingArm() }, 5000) // an action every 5 s
    try {
      await h.waitFor(() => still.kicked, { timeout: 75000, interval: 250, message: 'idle kick', detail: still.describe })
    } finally {
      clearInterval(timer)
    }
    const waited = Date.now() - t0
    assert.ok(waited >= 59000 && waited < 70000, `kicked after about a minute (${waited} ms)`)
    const why = JSON.parse(still.kicked)
    assert.equal(why.translate, 'multiplayer.disconnect.idling')
    assert.equal(why.fallback, 'You have been idle for too long!')
    assert.ok(!busy.ended, 'a player who acts stays')
    const m = parsePrometheus((await httpGet(httpPort, '/metrics')).body)
    assert.equal(metricValue(m, 'minecraft_kicks_total', { reason: 'idle' }), 1)
    await busy.quit()
  })
  h.assertNoClientProtocolErrors(assert, since)
})

h.finalClientErrorCheck(test)
