'use strict'
// Issue #20: vanilla's Server Management Protocol (JSON-RPC 2.0 over a
// WebSocket), driven by the mc-server-management client (pinned in
// package-lock.json) and by raw sockets for what a client library would
// never send:
//   1. lists, bans, kick, system message, MOTD, notifications, and
//      server/save followed by a kill -9 and a restart that keeps a block;
//   2. no secret, a wrong one, a disallowed Origin: 401 and logged;
//   3. malformed JSON, unknown methods, wrong params, batches, a 16 MiB
//      frame and 1,000 connections: answered per the spec or refused, and
//      the server keeps its TPS.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')
const crypto = require('node:crypto')
const WebSocket = require('ws')
const { WebSocketConnection, MinecraftServer, Message, Notifications } = require('mc-server-management')
const h = require('./helpers')
const u = require('./persist-util')

after(async () => { await u.cleanup(); await h.cleanupAll() })
const since = h.mark()
const sockets = new Set()
after(() => { for (const s of sockets) { try { s.destroy ? s.destroy() : s.terminate() } catch (e) {} } })

const MGMT = { 'management-server-enabled': 'true', 'management-server-tls-enabled': 'false' }

/** The management port (logged, port 0 = a free one) and the generated secret. */
async function mgmtOf (srv, from = 0) {
  const m = await h.waitFor(() => /Json-RPC Management connection listening on [^:\s]+:(\d+)/.exec(srv.output().slice(from)),
    { timeout: 5000, message: 'the management listener line', detail: () => h.tail(srv.output()) })
  const secret = /^management-server-secret=([A-Za-z0-9]{40})$/m.exec(fs.readFileSync(path.join(srv.dir, 'server.properties'), 'utf8'))
  assert.ok(secret, 'a 40-character secret was generated and written back to server.properties')
  return { port: Number(m[1]), secret: secret[1] }
}

async function connect (port, secret) {
  const conn = await h.withTimeout(WebSocketConnection.connect(`ws://127.0.0.1:${port}`, secret, { reconnect: false }), 5000, 'management connect')
  sockets.add({ destroy: () => conn.close() })
  return conn
}

function readJson (dir, file) {
  try { return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) } catch (e) { return null }
}

/** One raw HTTP request on a fresh socket: resolves { status, head, body }. */
function rawRequest (port, text, ms = 5000) {
  return h.withTimeout(new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1')
    sockets.add(s)
    let data = Buffer.alloc(0)
    s.on('connect', () => s.write(text))
    s.on('data', (d) => {
      data = Buffer.concat([data, d])
      const end = data.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = data.slice(0, end).toString()
      const len = Number((/content-length: (\d+)/i.exec(head) || [0, 0])[1])
      if (data.length >= end + 4 + len || / 101 /.test(head.split('\r\n')[0])) {
        s.destroy()
        resolve({ status: Number(head.split(' ')[1]), head, body: data.slice(end + 4, end + 4 + len).toString() })
      }
    })
    s.on('error', reject)
    s.on('close', () => resolve({ status: 0, head: data.toString(), body: '' }))
  }), ms, 'raw request')
}

function upgradeRequest (headers) {
  const key = crypto.randomBytes(16).toString('base64')
  return 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n` +
    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') + '\r\n'
}

/** A `ws` socket with the bearer secret; resolves once open. */
function rawWs (port, secret, opts = {}) {
  return h.withTimeout(new Promise((resolve, reject) => {
    const w = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { Authorization: `Bearer ${secret}` }, maxPayload: 64 << 20, ...opts })
    sockets.add(w)
    w.once('open', () => resolve(w))
    w.once('error', reject)
    w.once('unexpected-response', (req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  }), 5000, 'ws open')
}

/** Sends text and resolves with the next message, parsed. */
function ask (w, text) {
  return h.withTimeout(new Promise((resolve) => {
    w.once('message', (d) => resolve(JSON.parse(d.toString())))
    w.send(text)
  }), 5000, `an answer to ${text.slice(0, 80)}`)
}

test('mc-server-management: operators, bans, kick, system message, MOTD, notifications; server/save survives kill -9', { timeout: 85000 }, async () => {
  const srv = await h.startServer({ name: 'mgmt', props: { ...MGMT, gamemode: 'creative', 'view-distance': '4' } })
  u.attachConsole(srv)
  const { port, secret } = await mgmtOf(srv)
  const conn = await connect(port, secret)
  const server = new MinecraftServer(conn)
  const notes = []
  for (const n of Object.values(Notifications)) server.on(n, (d) => notes.push({ n, d }))
  const noted = (n, pred = () => true) => h.waitFor(() => notes.find((x) => x.n === n && pred(x.d)), { timeout: 5000, message: `notification ${n}`, detail: () => JSON.stringify(notes.map((x) => x.n)) })

  const status = await server.getStatus(true)
  assert.equal(status.started, true)
  assert.deepEqual({ ...status.version }, { name: '1.20.1', protocol: 763 })
  assert.equal((await conn.discover()).info.version, '1.0.0', 'rpc.discover: protocol version 1.0.0 (vanilla 1.21.9)')

  // players/joined, and the online list
  const alice = h.makeBot(srv.port, 'Alice')
  await alice.waitSpawn(15000)
  const joined = await noted(Notifications.PLAYER_JOINED, (p) => p.name === 'Alice')
  assert.match(joined.d.id, /^[0-9a-f]{8}-[0-9a-f]{4}-/)
  assert.deepEqual((await server.getConnectedPlayers(true)).map((p) => p.name), ['Alice'])

  // operators: ops.json changes, the notification comes, the player gets the level
  const ops = server.operatorList()
  await ops.add('Alice', 2)
  assert.deepEqual((await ops.get()).map((o) => [o.player.name, o.permissionLevel, o.bypassesPlayerLimit]), [['Alice', 2, false]])
  await h.waitFor(() => (readJson(srv.dir, 'ops.json') || []).some((o) => o.name === 'Alice' && o.level === 2), { timeout: 3000, message: 'Alice level 2 in ops.json' })
  await noted(Notifications.OPERATOR_ADDED, (o) => o.player.name === 'Alice')
  await ops.remove('Alice')
  assert.deepEqual(await ops.get(), [])
  // bypassesPlayerLimit reaches ops.json (and admission: game/admission.c)
  await ops.add('Bob', 3, true)
  assert.deepEqual((await ops.get()).map((o) => [o.player.name, o.permissionLevel, o.bypassesPlayerLimit]), [['Bob', 3, true]])
  await h.waitFor(() => (readJson(srv.dir, 'ops.json') || []).some((o) => o.name === 'Bob' && o.bypassesPlayerLimit === true), { timeout: 3000, message: 'Bob with bypassesPlayerLimit in ops.json' })
  await ops.remove('Bob')
  await h.waitFor(() => (readJson(srv.dir, 'ops.json') || [1]).length === 0, { timeout: 3000, message: 'ops.json empty again' })
  await noted(Notifications.OPERATOR_REMOVED, (o) => o.player.name === 'Alice')

  // a ban: the file, the refusal at login, the lifting
  const bans = server.banList()
  await bans.add('Mallory', 'griefing')
  const listed = await bans.get()
  assert.equal(listed.length, 1)
  assert.equal(listed[0].player.name, 'Mallory')
  assert.equal(listed[0].reason, 'griefing')
  assert.equal(listed[0].source, 'Management server', "vanilla's default source")
  await h.waitFor(() => (readJson(srv.dir, 'banned-players.json') || []).some((b) => b.name === 'Mallory' && b.reason === 'griefing'), { timeout: 3000, message: 'Mallory in banned-players.json' })
  const m1 = h.makeBot(srv.port, 'Mallory')
  await m1.waitEnd(10000)
  assert.ok(!m1.spawned && m1.kicked && /banned/.test(m1.kicked), `a banned bot cannot join (got ${m1.kicked})`)
  await bans.remove('Mallory')
  assert.deepEqual(await bans.get(), [])
  await h.waitFor(() => (readJson(srv.dir, 'banned-players.json') || [1]).length === 0, { timeout: 3000, message: 'ban lifted in the file' })
  const m2 = h.makeBot(srv.port, 'Mallory')
  await m2.waitSpawn(15000)
  await m2.quit()
  // a ban with an expiry: written in vanilla's format, and no longer refusing once past
  const soon = new Date(Date.now() + 3000)
  await bans.add('Trudy', 'cool off', null, soon)
  await h.waitFor(() => (readJson(srv.dir, 'banned-players.json') || []).some((b) => b.name === 'Trudy' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}$/.test(b.expires)), { timeout: 3000, message: 'Trudy banned until a date in banned-players.json' })
  const t1 = h.makeBot(srv.port, 'Trudy')
  await t1.waitEnd(10000)
  assert.ok(!t1.spawned && /banned/.test(t1.kicked || ''), `Trudy is refused while the ban lasts (got ${t1.kicked})`)
  await h.sleep(Math.max(0, soon - Date.now()) + 1100)
  const t2 = h.makeBot(srv.port, 'Trudy')
  await t2.waitSpawn(15000)
  await t2.quit()
  await bans.remove('Trudy')

  // the allowlist and an IP ban: their files, their notifications
  await server.allowlist().add(['Alice', 'Zed'])
  assert.deepEqual((await server.allowlist().get()).map((p) => p.name).sort(), ['Alice', 'Zed'])
  await h.waitFor(() => (readJson(srv.dir, 'whitelist.json') || []).length === 2, { timeout: 3000, message: 'two names in whitelist.json' })
  await noted(Notifications.ALLOWLIST_ADDED, (p) => p.name === 'Zed')
  await server.allowlist().clear()
  await noted(Notifications.ALLOWLIST_REMOVED, (p) => p.name === 'Zed')
  await server.ipBanList().add('10.1.2.3', 'scanner')
  await h.waitFor(() => (readJson(srv.dir, 'banned-ips.json') || []).some((b) => b.ip === '10.1.2.3' && b.reason === 'scanner'), { timeout: 3000, message: '10.1.2.3 in banned-ips.json' })
  await noted(Notifications.IP_BAN_ADDED, (b) => b.ip === '10.1.2.3')
  await server.ipBanList().remove('10.1.2.3')
  await noted(Notifications.IP_BAN_REMOVED, (ip) => ip === '10.1.2.3')
  assert.deepEqual(await server.ipBanList().get(true), [])
  // the heartbeat: server/status every status-heartbeat-interval seconds
  await server.settings().setStatusHeartbeatInterval(1)
  const beat = await noted(Notifications.SERVER_STATUS, (st) => st.started && st.players.some((p) => p.name === 'Alice'))
  assert.equal(beat.d.version.protocol, 763)
  await server.settings().setStatusHeartbeatInterval(0)

  // game rules: the ones mcserv acts on, an update like /gamerule, the notification
  const rules = await server.getGameRules(true)
  assert.equal(rules.get('keepInventory').value, false)
  assert.equal(rules.get('commandModificationBlockLimit').value, 32768)
  await server.updateGameRule('keepInventory', true)
  await noted(Notifications.GAME_RULE_UPDATED, (r) => r.key === 'keepInventory' && String(r.value) === 'true')
  assert.equal((await server.getGameRules(true)).get('keepInventory').value, true)
  await assert.rejects(server.updateGameRule('doFireTick', false), /does not act on the game rule doFireTick/)
  await assert.rejects(server.updateGameRule('keepInventory', 'maybe'), /boolean rule/)
  srv.send('gamerule keepInventory false')
  await noted(Notifications.GAME_RULE_UPDATED, (r) => r.key === 'keepInventory' && String(r.value) === 'false')

  // kick with a message; players/left
  const kicked = await server.kickPlayers('Alice', Message.literal('Out, by the panel'))
  assert.deepEqual(kicked.map((p) => p.name), ['Alice'])
  await h.waitFor(() => alice.kicked, { timeout: 5000, message: 'Alice kicked' })
  assert.match(h.chatText(JSON.parse(alice.kicked)), /Out, by the panel/)
  await noted(Notifications.PLAYER_LEFT, (p) => p.name === 'Alice')

  // a system message the bot receives
  const bob = h.makeBot(srv.port, 'Bob')
  await bob.waitSpawn(15000)
  const got = new Promise((resolve) => bob.bot.on('message', (m) => { if (/Hello from the panel/.test(m.toString())) resolve(m.toString()) }))
  assert.equal(await server.sendSystemMessage('Hello from the panel'), true)
  assert.match(await h.withTimeout(got, 5000, 'the system message'), /Hello from the panel/)
  assert.equal(await server.sendSystemMessage('to nobody', []), false, 'an empty receivingPlayers sends nothing (vanilla)')

  // the MOTD: the status ping shows it, server.properties keeps it
  await server.settings().setMOTD('Managed by RPC')
  assert.equal(await server.settings().getMOTD(), 'Managed by RPC')
  const ping = await h.statusUtil(srv.port)
  assert.equal(ping.motd.clean, 'Managed by RPC')
  await h.waitFor(() => /^motd=Managed by RPC$/m.test(fs.readFileSync(srv.propsPath, 'utf8')), { timeout: 3000, message: 'motd saved in server.properties' })

  // a block, server/save, kill -9: the restart has the block
  const b = bob.bot
  const pos = b.entity.position.floored().offset(2, 0, 0)
  await u.waitColumn(b, pos)
  await u.placeAt(b, pos, 'gold_block')
  notes.length = 0
  await server.save(true)
  await noted(Notifications.SERVER_SAVING)
  await noted(Notifications.SERVER_SAVED)
  conn.close()
  await bob.quit()
  srv.proc.kill('SIGKILL')
  await srv.waitExit(5000)
  const srv2 = await u.startIn(srv.dir, { name: 'mgmt-2' })
  const carol = h.makeBot(srv2.port, 'Carol')
  await carol.waitSpawn(15000)
  await u.waitColumn(carol.bot, pos)
  await h.waitFor(() => carol.bot.blockAt(pos) && carol.bot.blockAt(pos).name === 'gold_block', { timeout: 5000, message: 'the gold block after kill -9 and a restart' })
  await carol.quit()
  const info = await srv2.stop()
  assert.equal(info.code, 0, 'the restarted server stops cleanly\n' + srv2.describe())
  u.assertNoSanitizerReport(assert, srv2)
  h.assertNoClientProtocolErrors(assert, since, srv)
})

test('no secret, a wrong one, a disallowed Origin: 401 before the upgrade, and logged', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'mgmt-auth', props: { ...MGMT, 'management-server-allowed-origins': 'http://panel.example' } }, async (srv) => {
    const { port, secret } = await mgmtOf(srv)
    const none = await rawRequest(port, upgradeRequest({}))
    assert.equal(none.status, 401)
    assert.deepEqual(JSON.parse(none.body), { error: 'Unauthorized', message: 'Missing API key' })
    const wrong = await rawRequest(port, upgradeRequest({ Authorization: 'Bearer ' + 'x'.repeat(40) }))
    assert.equal(wrong.status, 401)
    assert.equal(JSON.parse(wrong.body).message, 'Invalid API key')
    const evil = await rawRequest(port, upgradeRequest({ 'Sec-WebSocket-Protocol': `minecraft-v1,${secret}`, Origin: 'http://evil.example' }))
    assert.equal(evil.status, 401)
    assert.equal(JSON.parse(evil.body).message, 'Origin Not Allowed')
    const evilBearer = await rawRequest(port, upgradeRequest({ Authorization: `Bearer ${secret}`, Origin: 'http://evil.example' }))
    assert.equal(evilBearer.status, 401, 'mcserv: a disallowed Origin is refused with the bearer secret too')
    // the browser's way, from an allowed origin: upgraded, the subprotocol answered
    const ok = await rawRequest(port, upgradeRequest({ 'Sec-WebSocket-Protocol': `minecraft-v1, ${secret}`, Origin: 'http://panel.example' }))
    assert.equal(ok.status, 101)
    assert.match(ok.head, /^Sec-WebSocket-Protocol: minecraft-v1$/mi)
    assert.match(ok.head, /^Sec-WebSocket-Accept: /mi)
    await h.waitFor(() => (srv.output().match(/Management server: refused 127\.0\.0\.1:\d+: 401 /g) || []).length >= 4, { timeout: 3000, message: 'four refusals logged', detail: () => h.tail(srv.output()) })
    assert.match(srv.output(), /refused .*: 401 Origin Not Allowed \(Origin: http:\/\/evil\.example\)/)
    assert.ok(!srv.output().includes(secret), 'the secret is never logged')
  })
})

test('malformed JSON, unknown methods, wrong params, batches, a 16 MiB frame, 1,000 connections: per the spec or refused; TPS kept', { timeout: 60000 }, async () => {
  const httpPort = await h.freePort()
  await h.withServer({ name: 'mgmt-hostile', props: { ...MGMT, 'admin-http-port': httpPort } }, async (srv) => {
    const { port, secret } = await mgmtOf(srv)
    const w = await rawWs(port, secret)
    const parse = await ask(w, '{"jsonrpc":"2.0","id":1,"method":')
    assert.equal(parse.error.code, -32700)
    assert.equal(parse.id, null)
    const unknown = await ask(w, '{"jsonrpc":"2.0","id":2,"method":"minecraft:no_such_thing"}')
    assert.deepEqual(unknown, { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found', data: 'Method not found: minecraft:no_such_thing' } })
    const named = await ask(w, '{"jsonrpc":"2.0","id":3,"method":"minecraft:operators/add","params":{}}')
    assert.equal(named.error.code, -32602)
    assert.equal(named.error.data, 'Params passed by-name, but expected param [add] does not exist')
    const type = await ask(w, '{"jsonrpc":"2.0","id":4,"method":"minecraft:serversettings/max_players/set","params":["many"]}')
    assert.equal(type.error.code, -32602)
    const range = await ask(w, '{"jsonrpc":"2.0","id":5,"method":"minecraft:serversettings/view_distance/set","params":[99]}')
    assert.equal(range.error.code, -32602)
    const extra = await ask(w, '{"jsonrpc":"2.0","id":6,"method":"minecraft:players","params":[1]}')
    assert.equal(extra.error.data, 'Expected no params, or an empty array')
    const notAnObject = await ask(w, '42')
    assert.equal(notAnObject.error.code, -32600)
    const badId = await ask(w, '{"jsonrpc":"2.0","id":{"a":1},"method":"minecraft:players"}')
    assert.equal(badId.error.code, -32600)
    const empty = await ask(w, '[]')
    assert.equal(empty.error.code, -32600, 'an empty batch is one Invalid Request (JSON-RPC 2.0 section 6)')
    const batch = await ask(w, JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'minecraft:players' },
      { jsonrpc: '2.0', method: 'minecraft:players' }, // a notification: no answer
      1,
      { jsonrpc: '2.0', id: 'b', method: 'minecraft:nope' },
      { jsonrpc: '2.0', id: 'c', method: 'serversettings/max_players' } // no namespace: minecraft:
    ]))
    assert.ok(Array.isArray(batch))
    assert.deepEqual(batch.map((r) => [r.id, r.error ? r.error.code : 'ok']), [['a', 'ok'], [null, -32600], ['b', -32601], ['c', 'ok']])
    assert.equal(batch[3].result, 20)
    // the connection still answers after all of that
    assert.equal((await ask(w, '{"jsonrpc":"2.0","id":7,"method":"minecraft:server/status"}')).result.started, true)

    // a 16 MiB frame: closed with 1009 (message too big) before it is read
    const closed = new Promise((resolve) => w.once('close', (code) => resolve(code)))
    w.send(Buffer.alloc(16 << 20, 0x20).toString())
    assert.equal(await h.withTimeout(closed, 10000, 'close after the 16 MiB frame'), 1009)
    await h.waitFor(() => /a message over the 1048576-byte limit; closed \(1009\)/.test(srv.output()), { timeout: 3000, message: 'the refusal logged' })

    // 1,000 connections at once: at most 256 upgraded, the rest refused (503) or closed; none hangs
    const N = 1000
    const results = await Promise.all(Array.from({ length: N }, () => new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1')
      sockets.add(s)
      let data = ''
      const done = (what) => { resolve(what); s.removeAllListeners('data') }
      s.setTimeout(15000, () => { done('timeout'); s.destroy() })
      s.on('connect', () => s.write(upgradeRequest({ Authorization: `Bearer ${secret}` })))
      s.on('data', (d) => {
        data += d.toString('latin1')
        if (/^HTTP\/1\.1 101 /.test(data)) done('101')
        else if (/^HTTP\/1\.1 503 /.test(data)) done('503')
      })
      s.on('error', () => done('error'))
      s.on('close', () => done(/^HTTP\/1\.1 (\d+)/.exec(data) ? /^HTTP\/1\.1 (\d+)/.exec(data)[1] : 'closed'))
    })))
    const count = (k) => results.filter((r) => r === k).length
    assert.equal(count('timeout'), 0, 'every connection was answered or closed')
    assert.ok(count('101') >= 200 && count('101') <= 256, `256 open at most (got ${count('101')} upgraded)`)
    assert.equal(count('101') + count('503') + count('closed') + count('error'), N, JSON.stringify({ up: count('101'), refused: count('503') }))
    assert.ok(count('503') >= N - 256, `the rest were refused with 503 (got ${count('503')})`)
    assert.match(srv.output(), /Management server: refusing 127\.0\.0\.1:\d+: 256 connections open \(the limit\)/)
    // the tick kept its rate while the connections were open
    await h.sleep(2500)
    const api = await (await fetch(`http://127.0.0.1:${httpPort}/api/status`)).json()
    assert.ok(api.tps.last_5s >= 18, `TPS kept with ${count('101')} management connections open (got ${api.tps.last_5s})`)
    for (const s of sockets) { try { s.destroy ? s.destroy() : s.terminate() } catch (e) {} }

    // 256 silent sockets cannot lock a panel out: past 1 s they give way
    const closedLines = () => (srv.output().match(/Management connection closed/g) || []).length
    await h.waitFor(() => closedLines() >= count('101') + 1, { timeout: 5000, message: 'the held connections closed' })
    const silent = []
    for (let i = 0; i < 256; i += 32) { // in batches: the listen backlog is 64
      await Promise.all(Array.from({ length: 32 }, () => new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1', resolve)
        sockets.add(s)
        s.on('error', resolve)
        silent.push(new Promise((resolve) => s.on('close', () => resolve(true))))
      })))
      await h.sleep(20)
    }
    await h.sleep(1300)
    const panel = await rawWs(port, secret)
    assert.equal((await ask(panel, '{"jsonrpc":"2.0","id":1,"method":"minecraft:server/status"}')).result.started, true)
    assert.ok(await h.withTimeout(Promise.race(silent), 3000, 'a silent socket closed'), 'the oldest silent socket made room')
    panel.terminate()
  })
})

test('TLS: PEM files (mcserv) and a PKCS#12 keystore (vanilla), wss:// verified against the certificate', { timeout: 30000 }, async () => {
  const { execFileSync } = require('node:child_process')
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'mcserv-e2e-mgmt-tls-'))
  after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const crt = path.join(dir, 'cert.pem')
  const key = path.join(dir, 'key.pem')
  const p12 = path.join(dir, 'keystore.p12')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', crt], { stdio: 'ignore' })
  execFileSync('openssl', ['pkcs12', '-export', '-in', crt, '-inkey', key, '-out', p12, '-passout', 'pass:changeit'], { stdio: 'ignore' })
  const ca = fs.readFileSync(crt)
  const tls = { 'management-server-tls-enabled': 'true', 'management-server-enabled': 'true' }
  for (const keys of [
    { 'management-server-tls-certificate': crt, 'management-server-tls-key': key },
    { 'management-server-tls-keystore': p12, 'management-server-tls-keystore-password': 'changeit' }
  ]) {
    await h.withServer({ name: 'mgmt-tls', props: { ...tls, ...keys } }, async (srv) => {
      const { port, secret } = await mgmtOf(srv)
      assert.match(srv.output(), /management server: wss:\/\//)
      const conn = await h.withTimeout(WebSocketConnection.connect(`wss://127.0.0.1:${port}`, secret, { reconnect: false, ca }), 5000, 'wss connect')
      const server = new MinecraftServer(conn)
      assert.equal((await server.getStatus(true)).started, true)
      assert.equal(await server.settings().setMaxPlayers(7), undefined)
      assert.equal(await server.settings().getMaxPlayers(), 7)
      conn.close()
      // plain ws:// to a TLS port gets no upgrade
      const plain = await rawRequest(port, upgradeRequest({ Authorization: `Bearer ${secret}` }), 5000).catch(() => ({ status: 0 }))
      assert.notEqual(plain.status, 101)
    })
  }
  // a wrong keystore password: logged, the management server stays off, the game runs
  await h.withServer({ name: 'mgmt-tls-bad', props: { ...tls, 'management-server-tls-keystore': p12, 'management-server-tls-keystore-password': 'wrong' } }, async (srv) => {
    await h.waitFor(() => /management server: TLS: cannot read .*keystore\.p12 \(wrong password/.test(srv.output()), { timeout: 3000, message: 'the keystore error logged', detail: () => h.tail(srv.output()) })
    assert.doesNotMatch(srv.output(), /Json-RPC Management connection listening/)
    const st = await h.statusUtil(srv.port)
    assert.equal(st.version.protocol, 763, 'the game port answers')
  })
})

h.finalClientErrorCheck(test)
