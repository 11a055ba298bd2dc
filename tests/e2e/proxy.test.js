'use strict'
// mcserv behind proxies: Velocity modern forwarding (with the example
// configuration of docs/scaling.md, read from that page), BungeeCord legacy
// forwarding with and without BungeeGuard, and the HAProxy PROXY protocol
// (v1 and v2, including headers that arrive a byte at a time).
//
// The "proxy" side is played by the client: a minecraft-protocol client
// answers the Login Plugin Request exactly as Velocity's backend connection
// does (HMAC-SHA256 over the forwarding data), sends BungeeCord's forwarded
// handshake host (its `fakeHost` option), or writes a PROXY header before the
// handshake (its `connect` option). Only 127.0.0.1 is used.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const h = require('./helpers')
const { dashed } = require('./mock-session')

/** A textures property the way Mojang writes it (clients parse the JSON). */
function texturesProp (name, pad = '') {
  const value = Buffer.from(JSON.stringify({
    timestamp: 1700000000000,
    profileName: name,
    textures: { SKIN: { url: `http://textures.minecraft.net/texture/${name.toLowerCase()}` } },
    pad
  })).toString('base64')
  return { name: 'textures', value, signature: Buffer.from('signature-of-' + name).toString('base64') }
}

/** Log lines arrive asynchronously: wait for one (bounded). */
function waitLog (srv, re, ms = 3000) {
  return h.waitFor(() => re.test(srv.output()), { timeout: ms, message: `server log line ${re}`, detail: () => h.tail(srv.output(), 3000) })
}

after(h.cleanupAll)

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-proxy-test-'))
after(() => fs.rmSync(tmp, { recursive: true, force: true }))

// ---------------------------------------------------------------------------
// docs/scaling.md's example files: <!-- example: NAME --> then a fenced block.

function docExamples () {
  const text = fs.readFileSync(path.join(h.REPO_ROOT, 'docs', 'scaling.md'), 'utf8')
  const out = {}
  for (const m of text.matchAll(/<!-- example: (\S+) -->\s*```\w*\n([\s\S]*?)```/g)) out[m[1]] = m[2]
  return out
}

function parseProps (text) {
  const o = {}
  for (const line of text.split('\n')) {
    const m = /^([^#!=\s][^=]*)=(.*)$/.exec(line.trim())
    if (m) o[m[1]] = m[2]
  }
  return o
}

/** The bits of velocity.toml this test needs (top-level keys and [servers]). */
function parseToml (text) {
  const o = { servers: {} }
  let section = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const sec = /^\[(.+)\]$/.exec(line)
    if (sec) { section = sec[1]; continue }
    const kv = /^([\w-]+)\s*=\s*"([^"]*)"$/.exec(line)
    if (!kv) continue
    if (section === '') o[kv[1]] = kv[2]
    else if (section === 'servers') o.servers[kv[1]] = kv[2]
  }
  return o
}

// ---------------------------------------------------------------------------
// Velocity's side of modern forwarding.

function velocityData ({ secret, version = 4, address, uuid, name, properties = [] }) {
  const parts = [h.varInt(version), h.mcString(address), Buffer.from(uuid, 'hex'), h.mcString(name), h.varInt(properties.length)]
  for (const p of properties) {
    parts.push(h.mcString(p.name), h.mcString(p.value), Buffer.from([p.signature ? 1 : 0]))
    if (p.signature) parts.push(h.mcString(p.signature))
  }
  const body = Buffer.concat(parts)
  const mac = crypto.createHmac('sha256', secret).update(body).digest()
  return Buffer.concat([mac, body])
}

/**
 * An offline client that answers the plugin request like Velocity:
 * answer(packet) returns the data Buffer, or null for "not understood".
 */
function velocityBot (port, name, answer) {
  const b = h.makeBot(port, name)
  b.pluginRequests = []
  const c = b.bot._client
  c.removeAllListeners('login_plugin_request') // nmp's default: "not understood"
  c.on('login_plugin_request', (p) => {
    b.pluginRequests.push(p)
    const data = answer(p)
    c.write('login_plugin_response', data ? { messageId: p.messageId, data } : { messageId: p.messageId })
  })
  b.success = new Promise((resolve) => c.once('success', resolve))
  return b
}

const ALICE = {
  uuid: '6a1e5b2c9d3f4e8aa1b2c3d4e5f60718',
  name: 'Alice',
  properties: [texturesProp('Alice')]
}

test('docs/scaling.md example: two nodes with the documented config; a Velocity-forwarded player logs in to each under the forwarded name, UUID, skin and address', { timeout: 40000 }, async (t) => {
  const since = h.mark()
  const ex = docExamples()
  for (const k of ['velocity.toml', 'forwarding.secret', 'server.properties']) assert.ok(ex[k], `docs/scaling.md has the ${k} example`)
  const toml = parseToml(ex['velocity.toml'])
  const props = parseProps(ex['server.properties'])
  const secret = ex['forwarding.secret'].trim()
  // The three files agree with each other.
  assert.equal(toml['player-info-forwarding-mode'], 'modern')
  assert.equal(toml['forwarding-secret-file'], props['forwarding-secret-file'])
  assert.equal(props['forwarding-mode'], 'velocity')
  assert.equal(props['online-mode'], 'false')
  assert.equal(toml.servers.lobby, `${props['server-ip']}:${props['server-port']}`, 'velocity.toml points at the lobby node')
  assert.ok(toml.servers.survival, 'a second node')
  assert.ok(secret.length >= 12)

  // Each node gets its own copy of the secret file, as the page says. The
  // ports are free ones (the documented ones may be taken on this machine).
  const nodes = []
  for (const name of ['lobby', 'survival']) {
    const dir = path.join(tmp, name)
    fs.mkdirSync(dir, { recursive: true })
    const secretPath = path.join(dir, props['forwarding-secret-file'])
    fs.writeFileSync(secretPath, ex['forwarding.secret'])
    const p = Object.assign({}, props, { 'server-port': 'auto', 'forwarding-secret-file': secretPath, 'view-distance': 2, 'level-type': 'flat' })
    nodes.push(await h.startServer({ name: `velocity-${name}`, props: p }))
  }
  try {
    for (const srv of nodes) {
      assert.match(srv.output(), /forwarding-mode=velocity: players come through Velocity/)
      const b = velocityBot(srv.port, 'Alice', () => velocityData(Object.assign({ secret, address: '203.0.113.7' }, ALICE)))
      await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}\n${srv.describe()}`))
      const succ = await b.success
      const req = b.pluginRequests[0]
      assert.equal(req.channel, 'velocity:player_info')
      assert.deepEqual([...req.data], [4], 'asks for forwarding version 4')
      assert.equal(succ.uuid, dashed(ALICE.uuid), 'Login Success: the forwarded UUID')
      assert.equal(succ.username, 'Alice')
      assert.deepEqual(succ.properties.map((p) => [p.name, p.value, p.signature]), ALICE.properties.map((p) => [p.name, p.value, p.signature]), 'and the skin')
      await waitLog(srv, /Velocity forwarding: the client is 203\.0\.113\.7:\d+/)
      await waitLog(srv, new RegExp(`Velocity forwarding v4: Alice is ${dashed(ALICE.uuid)} with 1 properties`))
      await waitLog(srv, /Alice\[\/203\.0\.113\.7:\d+\] logged in/) // the log shows the forwarded address
      const st = await h.statusUtil(srv.port)
      assert.deepEqual(st.players.sample.map((s) => s.id), [dashed(ALICE.uuid)], 'the status sample lists the forwarded UUID')
      // Velocity moves the player on: this connection ends, the next node gets one.
      await b.quit()
      t.diagnostic(`${srv.name}: joined as ${succ.username} ${succ.uuid}`)
    }
    h.assertNoClientProtocolErrors(assert, since)
  } finally {
    for (const srv of nodes) {
      const info = await srv.stop()
      assert.equal(info.code, 0, `${srv.name} exits 0 on SIGTERM: ${JSON.stringify(info)}\n${srv.describe()}`)
    }
  }
})

test('Velocity forwarding refusals: wrong HMAC, unsupported versions, a direct client, and no answer at all', { timeout: 40000 }, async () => {
  const secretPath = path.join(tmp, 'refusals.secret')
  fs.writeFileSync(secretPath, 'the-real-secret\n')
  const props = { 'forwarding-mode': 'velocity', 'forwarding-secret-file': secretPath, 'view-distance': 2 }
  await h.withServer({ name: 'velocity-refusals', props }, async (srv) => {
    // No answer: started first, it takes the 10 s login deadline.
    const raw = await h.rawConnect(srv.port)
    raw.socket.write(Buffer.concat([h.handshakePacket(srv.port, 2), h.loginStartPacket('Silent')]))
    const silentClosed = raw.waitClose(14000)

    const secret = 'the-real-secret' // the trailing newline in the file is not part of it
    const cases = [
      ['wrong secret', { secret: 'not-the-secret' }, /Unable to verify player details/],
      ['version 5', { secret, version: 5 }, /Unsupported forwarding version 5, wanted upto 4/],
      ['version 2 (1.19 keys)', { secret, version: 2 }, /Unsupported forwarding version 2/]
    ]
    for (const [what, opt, re] of cases) {
      const b = velocityBot(srv.port, 'Alice', () => velocityData(Object.assign({ address: '203.0.113.7' }, ALICE, opt)))
      await b.waitEnd(8000)
      assert.ok(!b.spawned, `${what}: refused`)
      assert.match(String(b.kicked), re, `${what}: ${b.describe()}`)
    }
    await waitLog(srv, /the HMAC does not match: is forwarding-secret-file the same secret/)

    // The right secret works (the file's newline was dropped, as Velocity does).
    const ok = velocityBot(srv.port, 'Alice', () => velocityData(Object.assign({ secret, address: '203.0.113.7' }, ALICE)))
    await ok.waitSpawn(10000).catch((e) => assert.fail(`${e.message}\n${ok.describe()}`))
    await ok.quit()

    // A client that connects directly answers "not understood".
    const direct = h.makeBot(srv.port, 'Direct')
    await direct.waitEnd(8000)
    assert.match(String(direct.kicked), /This server requires you to connect with Velocity\./, direct.describe())
    await waitLog(srv, /Direct connected directly, not through Velocity/)

    // The request the silent client got, and its end.
    const f = raw.data
    const len = h.readVarInt(f, 0)
    const id = h.readVarInt(f, len.size)
    assert.equal(id.value, 0x04, 'Login Plugin Request')
    assert.ok(f.includes(Buffer.from('velocity:player_info')))
    const ms = await silentClosed
    assert.ok(ms !== null && ms >= 9000, `no answer: closed at the login deadline (${ms} ms)`)
    await waitLog(srv, /timed out before completing login/)
  })
})

test('forwarding-mode=velocity without a usable secret file refuses to start, naming the file', { timeout: 20000 }, async () => {
  const empty = path.join(tmp, 'empty.secret')
  fs.writeFileSync(empty, '\n')
  for (const file of [path.join(tmp, 'missing.secret'), empty]) {
    const srv = await h.startServer({ name: 'velocity-nosecret', props: { 'forwarding-mode': 'velocity', 'forwarding-secret-file': file }, waitReady: false })
    const info = await srv.waitExit(5000)
    assert.ok(info && info.code !== 0, `refused to start: ${srv.describe()}`)
    await waitLog(srv, /forwarding-secret-file/)
    assert.ok(srv.output().includes(file), srv.describe())
    assert.doesNotMatch(srv.stderr(), /Done \(/)
  }
})

// ---------------------------------------------------------------------------
// BungeeCord legacy forwarding.

const BOB = { uuid: '0f3e9a77c41b4d2b9e1d2a3b4c5d6e7f', name: 'Bob' }

function bungeeHost (ip, uuid, props) {
  return ['127.0.0.1', ip, uuid].concat(props ? [JSON.stringify(props)] : []).join('\0')
}

test('BungeeCord forwarding on: the forwarded address, UUID and skin are adopted; a direct handshake is refused', { timeout: 30000 }, async () => {
  const since = h.mark()
  const skin = texturesProp('Bob')
  await h.withServer({ name: 'bungee', props: { 'forwarding-mode': 'bungeecord', 'view-distance': 2 } }, async (srv) => {
    assert.match(srv.output(), /forwarding-mode=bungeecord: anyone who can reach port \d+ can log in under any name and UUID\. Firewall it/)
    const b = h.makeBot(srv.port, 'Bob', { fakeHost: bungeeHost('198.51.100.23', BOB.uuid, [skin]) })
    const success = new Promise((resolve) => b.bot._client.once('success', resolve))
    await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}`))
    const succ = await success
    assert.equal(succ.uuid, dashed(BOB.uuid), 'the forwarded UUID, not the offline one')
    assert.deepEqual(succ.properties.map((p) => [p.name, p.value, p.signature]), [[skin.name, skin.value, skin.signature]])
    await waitLog(srv, /BungeeCord forwarding: the client is 198\.51\.100\.23:\d+/)
    await waitLog(srv, /Bob\[\/198\.51\.100\.23:\d+\] logged in/)
    await b.quit()

    // Big property payloads fit (the handshake cap grows in this mode only).
    const big = texturesProp('Bob', 'A'.repeat(6000))
    const b2 = h.makeBot(srv.port, 'Bob', { fakeHost: bungeeHost('198.51.100.24', BOB.uuid, [big]) })
    await b2.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b2.describe()}`))
    await b2.quit()

    const direct = h.makeBot(srv.port, 'Direct')
    await direct.waitEnd(8000)
    assert.ok(!direct.spawned)
    assert.match(String(direct.kicked), /If you wish to use IP forwarding, please enable it in your BungeeCord config as well!/, direct.describe())
    h.assertNoClientProtocolErrors(assert, since, srv)
  })
})

test('BungeeGuard: the right token gets in (and is not passed on); a wrong or missing token is refused', { timeout: 30000 }, async () => {
  const props = { 'forwarding-mode': 'bungeecord', 'bungeeguard-token': 'guard-token-123', 'view-distance': 2 }
  await h.withServer({ name: 'bungeeguard', props }, async (srv) => {
    const tok = (v) => ({ name: 'bungeeguard-token', value: v })
    const skin = texturesProp('Bob')
    const good = h.makeBot(srv.port, 'Bob', { fakeHost: bungeeHost('198.51.100.23', BOB.uuid, [tok('guard-token-123'), skin]) })
    const success = new Promise((resolve) => good.bot._client.once('success', resolve))
    await good.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${good.describe()}`))
    const succ = await success
    assert.deepEqual(succ.properties.map((p) => p.name), ['textures'], 'the token is not in the profile')
    await good.quit()
    for (const [what, host, re] of [
      ['wrong token', bungeeHost('198.51.100.23', BOB.uuid, [tok('guess'), skin]), /Unable to authenticate - invalid BungeeGuard token/],
      ['no token', bungeeHost('198.51.100.23', BOB.uuid, [skin]), /Unable to authenticate - no BungeeGuard token/],
      ['no properties', bungeeHost('198.51.100.23', BOB.uuid), /Unable to authenticate - no BungeeGuard token/]
    ]) {
      const b = h.makeBot(srv.port, 'Bob', { fakeHost: host })
      await b.waitEnd(8000)
      assert.ok(!b.spawned, what)
      assert.match(String(b.kicked), re, `${what}: ${b.describe()}`)
    }
  })
})

test('BungeeCord forwarding off (the default): a forwarded handshake is refused, long hosts are cut off, plain clients join', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'bungee-off', props: { 'view-distance': 2 } }, async (srv) => {
    const b = h.makeBot(srv.port, 'Bob', { fakeHost: bungeeHost('198.51.100.23', BOB.uuid) })
    await b.waitEnd(8000)
    assert.ok(!b.spawned)
    assert.match(String(b.kicked), /This server does not accept BungeeCord IP forwarding/, b.describe())
    await waitLog(srv, /handshake carries BungeeCord IP forwarding, but forwarding-mode is not bungeecord/)
    // Vanilla's 255-character host limit (and 1 KiB handshake frame) stand.
    const raw = await h.rawConnect(srv.port)
    raw.socket.write(h.handshakePacket(srv.port, 2, h.PROTOCOL, 'x'.repeat(600)))
    assert.notEqual(await raw.waitClose(3000), null, 'an oversized host is dropped')
    // A Forge client's host marker is not forwarding: it joins.
    const forge = h.makeBot(srv.port, 'Forgey', { fakeHost: '127.0.0.1\0FML3\0' })
    await forge.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${forge.describe()}`))
  })
})

// ---------------------------------------------------------------------------
// HAProxy PROXY protocol.

function proxyV2 (srcIp, srcPort, cmd = 1) {
  const sig = Buffer.from([0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A])
  const addr = Buffer.alloc(12)
  srcIp.split('.').forEach((o, i) => { addr[i] = Number(o) })
  addr.set([127, 0, 0, 1], 4)
  addr.writeUInt16BE(srcPort, 8)
  addr.writeUInt16BE(25565, 10)
  const hdr = Buffer.from([0x20 | cmd, 0x11, 0, 12])
  return Buffer.concat([sig, hdr, addr])
}

async function rawStatus (port, prefix, { byteByByte = false } = {}) {
  const s = await h.rawConnect(port)
  const bytes = Buffer.concat([prefix, h.handshakePacket(port, 1), h.frame(0x00)])
  if (byteByByte) {
    // The header arrives in pieces: each read is "need more" until it is whole.
    for (let i = 0; i < prefix.length; i++) {
      s.socket.write(bytes.subarray(i, i + 1))
      await h.sleep(3)
    }
    s.socket.write(bytes.subarray(prefix.length))
  } else {
    s.socket.write(bytes)
  }
  await h.waitFor(() => s.data.length > 5 || s.closed, { timeout: 5000, message: 'a status answer or a close' })
  await h.sleep(50)
  return s
}

test('proxy-protocol=true: v1 and v2 headers (whole or a byte at a time) set the client address; no header is dropped', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'proxy-protocol', props: { 'proxy-protocol': 'true', 'view-distance': 2 } }, async (srv) => {
    assert.match(srv.output(), /proxy-protocol=true: every connection must begin with a PROXY v1\/v2 header/)
    // A full join through a v2 header.
    const b = h.makeBot(srv.port, 'Carol', {
      connect: (client) => {
        const sock = net.connect(srv.port, '127.0.0.1')
        sock.write(proxyV2('198.51.100.50', 40001))
        client.setSocket(sock)
      }
    })
    await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}\n${srv.describe()}`))
    await waitLog(srv, /PROXY protocol: the client is 198\.51\.100\.50:40001/)
    await waitLog(srv, /Carol\[\/198\.51\.100\.50:40001\] logged in/)

    // v1, a byte at a time; then status works on that connection.
    const v1 = await rawStatus(srv.port, Buffer.from('PROXY TCP4 198.51.100.51 127.0.0.1 40002 25565\r\n'), { byteByByte: true })
    assert.ok(v1.data.includes(Buffer.from('"protocol":763')), `status after a v1 header: ${v1.data.toString('latin1').slice(0, 80)}`)
    await waitLog(srv, /PROXY protocol: the client is 198\.51\.100\.51:40002/)
    // v2, a byte at a time.
    const v2 = await rawStatus(srv.port, proxyV2('198.51.100.52', 40003), { byteByByte: true })
    assert.ok(v2.data.includes(Buffer.from('"protocol":763')), 'status after a v2 header')
    await waitLog(srv, /PROXY protocol: the client is 198\.51\.100\.52:40003/)
    // v2 LOCAL (a load balancer's health check): served, address kept.
    const local = await rawStatus(srv.port, proxyV2('198.51.100.53', 40004, 0))
    assert.ok(local.data.includes(Buffer.from('"protocol":763')), 'status after a LOCAL header')
    await h.sleep(100)
    assert.doesNotMatch(srv.output(), /198\.51\.100\.53/)

    // No header: dropped with a reason in the log.
    const none = await rawStatus(srv.port, Buffer.alloc(0))
    assert.notEqual(await none.waitClose(3000), null, 'a connection without a header is closed')
    assert.ok(!none.data.includes(Buffer.from('"protocol"')))
    await waitLog(srv, /no PROXY protocol header/)
    // A v1 header that never ends: refused at 107 bytes.
    const long = await h.rawConnect(srv.port)
    long.socket.write('PROXY TCP4 ' + '1'.repeat(200))
    assert.notEqual(await long.waitClose(3000), null, 'an endless v1 header is closed')
    await waitLog(srv, /PROXY v1 header longer than 107 bytes/)
  })
})

h.finalClientErrorCheck(test)
