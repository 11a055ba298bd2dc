'use strict'
// Acceptance 2: Server List Ping. minecraft-server-util (handshake protocol
// 47), minecraft-protocol's ping (protocol 763) and the legacy 0xFE 0x01 ping
// all see version 1.20.1/763, the motd and the player counts.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')

after(h.cleanupAll)

const MOTD = 'mcserv e2e status MOTD'
const MAX = 17

const props = {
  'view-distance': 2,
  'max-players': MAX,
  motd: MOTD,
  'network-compression-threshold': 256
}

/**
 * minecraft-protocol's ping, with two guards: a status JSON that does not
 * parse becomes a clear error (nmp would throw it from an event handler),
 * and the client's 30 s close timer is cleared so a failed ping cannot keep
 * the test process alive.
 */
async function nmpPing (port) {
  const mc = require('minecraft-protocol')
  const net = require('node:net')
  let client = null
  let badJson = null
  const p = mc.ping({
    host: '127.0.0.1',
    port,
    version: h.VERSION,
    closeTimeout: 5000,
    noPongTimeout: 3000,
    connect: (c) => {
      client = c
      c.prependListener('server_info', (packet) => {
        try { JSON.parse(packet.response) } catch (e) {
          badJson = packet.response
          packet.response = '{}'
        }
      })
      c.setSocket(net.connect(port, '127.0.0.1'))
    }
  })
  try {
    const data = await h.withTimeout(p, 7000, 'minecraft-protocol ping')
    if (badJson != null) throw new Error(`minecraft-protocol ping: the status JSON does not parse: ${JSON.stringify(badJson)}`)
    return data
  } finally {
    if (client) {
      clearTimeout(client.closeTimer)
      try { client.socket && client.socket.destroy() } catch (e) {}
    }
  }
}

/** Send FE 01 on a raw socket; resolve { first, declaredLen, text, fields, raw }. */
async function legacyPing (port) {
  const c = await h.rawConnect(port)
  c.socket.write(Buffer.from([0xfe, 0x01]))
  const complete = () => c.data.length >= 3 && c.data.length >= 3 + 2 * c.data.readUInt16BE(1)
  await h.waitFor(() => complete() || c.closed, { timeout: 5000, message: 'legacy ping reply' })
  assert.ok(c.data.length >= 3, `legacy ping: reply too short (${c.data.length} bytes: ${c.data.toString('hex')})`)
  const first = c.data[0]
  const declaredLen = c.data.readUInt16BE(1)
  const body = Buffer.from(c.data.subarray(3, 3 + 2 * declaredLen))
  const swapped = Buffer.from(body)
  swapped.swap16() // UTF-16BE → UTF-16LE
  const text = swapped.toString('utf16le')
  // The server should close after answering.
  const closedIn = await c.waitClose(3000)
  c.socket.destroy()
  return { first, declaredLen, text, fields: text.split('\0'), raw: c.data, closedIn, totalLen: c.data.length }
}

test('minecraft-server-util status with nobody online: 1.20.1/763, motd, 0/max', { timeout: 20000 }, async () => {
  await h.withServer({ name: 'status-msu', props }, async (srv) => {
    const st = await h.statusUtil(srv.port)
    const ctx = `\nstatus: ${JSON.stringify(st)}`
    assert.equal(st.version.protocol, 763, 'version.protocol' + ctx)
    assert.match(st.version.name, /1\.20\.1/, 'version.name' + ctx)
    assert.equal(st.motd.clean, MOTD, 'motd.clean' + ctx)
    assert.equal(st.players.max, MAX, 'players.max' + ctx)
    assert.equal(st.players.online, 0, 'players.online' + ctx)
    assert.ok(st.players.sample == null || (Array.isArray(st.players.sample) && st.players.sample.length === 0),
      'sample should be empty with nobody online' + ctx)
    // A second status on a new connection gives the same answer.
    const st2 = await h.statusUtil(srv.port)
    assert.deepEqual(st2.version, st.version)
  })
})

test('minecraft-protocol ping (protocol 763) with nobody online, including the pong', { timeout: 20000 }, async () => {
  await h.withServer({ name: 'status-nmp', props }, async (srv) => {
    const p = await nmpPing(srv.port)
    const pctx = `\nping: ${JSON.stringify(p)}`
    assert.equal(p.version.protocol, 763, 'nmp ping version.protocol' + pctx)
    assert.match(p.version.name, /1\.20\.1/, 'nmp ping version.name' + pctx)
    assert.equal(h.chatText(p.description), MOTD, 'nmp ping description' + pctx)
    assert.equal(p.players.max, MAX, 'nmp ping players.max' + pctx)
    assert.equal(p.players.online, 0, 'nmp ping players.online' + pctx)
    assert.equal(typeof p.latency, 'number', 'nmp ping should get a pong (latency measured)' + pctx)
  })
})

test('legacy 0xFE 0x01 ping gets a 0xFF kick with §1\\0127\\0…motd…', { timeout: 20000 }, async () => {
  await h.withServer({ name: 'status-legacy', props }, async (srv) => {
    const lp = await legacyPing(srv.port)
    const lctx = `\nlegacy reply (${lp.totalLen} bytes): ${lp.raw.toString('hex').slice(0, 400)} text=${JSON.stringify(lp.text)}`
    assert.equal(lp.first, 0xff, 'legacy reply starts with the 0xFF kick packet id' + lctx)
    assert.equal(lp.totalLen, 3 + 2 * lp.declaredLen, 'legacy reply length matches its UTF-16 char count' + lctx)
    assert.ok(lp.text.startsWith('\u00a71\u0000'), 'legacy text starts with §1\\0' + lctx)
    assert.equal(lp.fields[1], '127', 'legacy protocol field' + lctx)
    assert.match(lp.fields[2], /1\.20\.1/, 'legacy version field' + lctx)
    assert.ok(lp.text.includes(MOTD), 'legacy text contains the motd' + lctx)
    assert.equal(lp.fields[3], MOTD, 'legacy motd field' + lctx)
    assert.equal(lp.fields[4], '0', 'legacy online field' + lctx)
    assert.equal(lp.fields[5], String(MAX), 'legacy max field' + lctx)
    assert.ok(lp.closedIn != null, 'server closes the legacy ping connection after replying' + lctx)
    // The server is still healthy after the legacy ping: a modern handshake
    // on a new connection is answered.
    const c = await h.rawConnect(srv.port)
    c.socket.write(Buffer.concat([h.handshakePacket(srv.port, 1), h.frame(0)]))
    await h.waitFor(() => {
      const len = c.data.length ? h.readVarInt(c.data, 0) : null
      return len && c.data.length >= len.size + len.value
    }, { timeout: 5000, message: 'a status response after the legacy ping', detail: () => srv.describe() })
    c.socket.destroy()
  })
})

test('status with a bot online: online=1 and the sample names it', { timeout: 30000 }, async () => {
  const since = h.mark()
  await h.withServer({ name: 'status-bot', props }, async (srv) => {
    const b = h.makeBot(srv.port, 'StatusBot')
    await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}\n${srv.describe()}`))

    const st = await h.waitFor(async () => {
      const s = await h.statusUtil(srv.port)
      return s.players.online === 1 ? s : null
    }, { timeout: 5000, interval: 200, message: 'status online=1' })
    const ctx = `\nstatus: ${JSON.stringify(st)}`
    assert.equal(st.version.protocol, 763, ctx)
    assert.equal(st.players.max, MAX, ctx)
    assert.equal(st.motd.clean, MOTD, ctx)
    assert.ok(Array.isArray(st.players.sample), 'players.sample should be an array' + ctx)
    const entry = st.players.sample.find((e) => e.name === 'StatusBot')
    assert.ok(entry, 'sample contains the bot' + ctx)
    assert.match(entry.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'sample id is a dashed UUID' + ctx)
    const given = b.bot._client.uuid
    if (given) assert.equal(entry.id.toLowerCase(), String(given).toLowerCase(), 'sample id = UUID from Login Success' + ctx)

    const p = await nmpPing(srv.port)
    const pctx = `\nping: ${JSON.stringify(p)}`
    assert.equal(p.version.protocol, 763, pctx)
    assert.equal(p.players.online, 1, 'nmp ping online' + pctx)
    assert.ok((p.players.sample || []).some((e) => e.name === 'StatusBot'), 'nmp ping sample has the bot' + pctx)

    const lp = await legacyPing(srv.port)
    assert.equal(lp.fields[4], '1', `legacy online field with a bot in: ${JSON.stringify(lp.text)}`)

    assert.equal(b.ended, null, `bot still connected: ${b.describe()}`)
    await b.quit()
    const st0 = await h.waitFor(async () => {
      const s = await h.statusUtil(srv.port)
      return s.players.online === 0 ? s : null
    }, { timeout: 5000, interval: 200, message: 'status online=0 after the bot quit' })
    assert.equal(st0.players.online, 0)
    h.assertNoClientProtocolErrors(assert, since, srv)
  })
})

h.finalClientErrorCheck(test)

/** Logs in with minecraft-protocol at `version`; resolves with the kick reason. */
async function loginKickReason (port, version) {
  const mc = require('minecraft-protocol')
  const client = mc.createClient({ host: '127.0.0.1', port, username: 'OtherVer', version, auth: 'offline' })
  try {
    return await h.withTimeout(new Promise((resolve, reject) => {
      // 'packet' comes before minecraft-protocol's own version check, which
      // turns an outdated-server disconnect into an error of its own.
      client.on('packet', (data, meta) => { if (meta.name === 'disconnect') resolve(data.reason) })
      client.once('login', () => reject(new Error(`${version} joined a 1.20.1 server`)))
      client.on('error', () => {})
    }), 7000, `login kick at ${version}`)
  } finally {
    client.end()
  }
}

test('a 1.21.1 client (between the two spoken versions) or an older (1.19.4) one is refused at the handshake with vanilla\'s outdated key', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'status-versions', props }, async (srv) => {
    // Older than the newest version spoken (26.1): the client should update.
    const between = JSON.parse(await loginKickReason(srv.port, '1.21.1'))
    assert.equal(between.translate, 'multiplayer.disconnect.outdated_client')
    assert.deepEqual(between.with, ['1.20.1, 26.1'])
    assert.match(between.fallback, /Outdated client! Please use 1\.20\.1, 26\.1/)
    const older = JSON.parse(await loginKickReason(srv.port, '1.19.4'))
    assert.equal(older.translate, 'multiplayer.disconnect.outdated_client')
    assert.deepEqual(older.with, ['1.20.1, 26.1'])
  })
})
