'use strict'
// Online mode: RSA key exchange, AES-128-CFB8 both ways, and the hasJoined
// check against a mock session server on 127.0.0.1 (tests/e2e/mock-session.js;
// no internet). Real clients: mineflayer/minecraft-protocol in online mode
// with a fake session (their `auth` and `sessionServer` options), plus raw
// sockets that do the crypto by hand with node's own AES-CFB8.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const h = require('./helpers')
const ms = require('./mock-session')

after(h.cleanupAll)

const mocks = []
after(async () => { for (const m of mocks) await m.close() })

async function mock (accounts) {
  const m = await ms.startMockSession(accounts)
  mocks.push(m)
  return m
}

function onlineProps (m, extra = {}) {
  return Object.assign({
    'online-mode': 'true',
    'session-server': m.url,
    'view-distance': 3,
    'network-compression-threshold': 64
  }, extra)
}

function onlineBot (port, acc, m, opts = {}) {
  return h.makeBot(port, acc.name, Object.assign({ auth: ms.onlineAuth(acc, opts), sessionServer: m.url }, opts.extra || {}))
}

/** Log lines arrive asynchronously: wait for one (bounded). */
function waitLog (srv, re, ms = 3000) {
  return h.waitFor(() => re.test(srv.output()), { timeout: ms, message: `server log line ${re}`, detail: () => h.tail(srv.output(), 3000) })
}

function kickText (b) {
  return String(b.kicked || '') + ' ' + String(b.ended || '')
}

/** Whatever ends first: a kick/end of the bot (returns the text), or ms. */
async function waitKicked (b, ms2) {
  await b.waitEnd(ms2)
  return kickText(b)
}

test('online mode: two encrypted, compressed clients join, get chunks, see each other join, stay connected through a keep-alive', { timeout: 45000 }, async (t) => {
  const since = h.mark()
  const alice = ms.makeAccount('Alice')
  const bob = ms.makeAccount('Bob_2')
  const m = await mock([alice, bob])
  await h.withServer({ name: 'online', props: onlineProps(m) }, async (srv) => {
    const a = onlineBot(srv.port, alice, m)
    const successA = new Promise((resolve) => a.bot._client.once('success', resolve))
    await a.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${a.describe()}`))
    const succ = await h.withTimeout(successA, 1000, 'Login Success seen')
    assert.equal(succ.uuid, ms.dashed(alice.id), 'Login Success carries the session server\'s UUID')
    assert.equal(succ.username, 'Alice')
    assert.deepEqual(succ.properties.map((p) => [p.name, p.value, p.signature]),
      alice.properties.map((p) => [p.name, p.value, p.signature]), 'Login Success carries the profile properties (skin)')
    assert.ok(a.bot._client.cipher, 'the client switched on encryption')
    assert.equal(a.bot._client.compressionThreshold, 64, 'compression is on (inside the encrypted stream)')

    // Bob joins; Alice must see his join message (system chat, encrypted) and
    // his Player Info entry.
    const infos = []
    a.bot._client.on('player_info', (p) => infos.push(p))
    const chats = []
    a.bot._client.on('system_chat', (p) => chats.push(p.content))
    const b = onlineBot(srv.port, bob, m)
    await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}`))
    await h.waitFor(() => chats.some((c) => /multiplayer\.player\.joined/.test(c) && c.includes('Bob_2')),
      { timeout: 5000, message: 'Alice sees "Bob_2 joined the game"', detail: () => JSON.stringify(chats) })
    await h.waitFor(() => infos.some((p) => (p.data || []).some((d) => d.uuid === ms.dashed(bob.id))),
      { timeout: 5000, message: 'Alice gets a Player Info entry for Bob' })

    assert.ok(a.mapChunks.size >= 9 && b.mapChunks.size >= 9, `both receive chunks: ${a.mapChunks.size}, ${b.mapChunks.size}`)
    await waitLog(srv, new RegExp(`UUID of player Alice is ${ms.dashed(alice.id)}`))
    await waitLog(srv, new RegExp(`UUID of player Bob_2 is ${ms.dashed(bob.id)}`))
    const checks = m.requests.filter((r) => r.path === '/session/minecraft/hasJoined')
    assert.equal(checks.length, 2, 'one hasJoined per login')
    assert.ok(checks.every((r) => r.status === 200 && r.query.ip === undefined), 'no ip= without prevent-proxy-connections')
    // The serverId mcserv sent is the one the client computed (and joined with).
    for (const r of checks) assert.equal(r.query.serverId, m.joins.get(r.query.username.toLowerCase()).serverId)

    // Skins: Bob's entry as Alice received it carries his textures. This needs
    // play.c to pass the player's properties (pkt_cb_player_info_add_props).
    const entry = infos.flatMap((p) => p.data || []).find((d) => d.uuid === ms.dashed(bob.id))
    const props = (entry && entry.player && entry.player.properties) || []
    if (props.length === 0) {
      t.todo('Player Info to other players carries no properties yet: play.c must use pkt_cb_player_info_add_props (see the issue #9 report)')
    } else {
      assert.deepEqual(props.map((p) => [p.name, p.value, p.signature]), bob.properties.map((p) => [p.name, p.value, p.signature]))
    }

    // The encrypted streams hold up: both stay connected, a keep-alive
    // (every 15 s) is received and answered through the cipher.
    await h.sleep(2000)
    assert.ok(!a.ended && !b.ended, `still connected after 2 s: ${a.describe()}\n${b.describe()}`)
    await h.waitFor(() => a.keepAlives >= 1 && b.keepAlives >= 1, { timeout: 17000, interval: 200, message: 'a keep-alive on both connections' })
    await h.sleep(1000)
    assert.ok(!a.ended && !b.ended, `still connected after answering the keep-alive: ${a.describe()}\n${b.describe()}`)
    t.diagnostic(`chunks ${a.mapChunks.size}/${b.mapChunks.size}, keep-alives ${a.keepAlives}/${b.keepAlives}, skins in Player Info: ${props.length > 0}`)
    h.assertNoClientProtocolErrors(assert, since, srv)
  })
})

test('online mode refuses with vanilla\'s message: no session join, a session for another name, a wrong access token', { timeout: 30000 }, async () => {
  const alice = ms.makeAccount('Alice')
  const m = await mock([alice])
  await h.withServer({ name: 'online-refuse', props: onlineProps(m) }, async (srv) => {
    // 1. A client that never told the session server it joins.
    const noJoin = onlineBot(srv.port, alice, m, { join: false })
    const t1 = await waitKicked(noJoin, 10000)
    assert.match(t1, /multiplayer\.disconnect\.unverified_username/, `kick reason: ${noJoin.describe()}`)
    assert.match(t1, /Failed to verify username!/, 'with the English text as fallback')
    assert.ok(!noJoin.spawned)
    await waitLog(srv, /Username 'Alice' tried to join with an invalid session/)

    // 2. Alice's session, but logging in as Mallory: hasJoined(Mallory) fails.
    const mallory = h.makeBot(srv.port, 'Mallory', {
      sessionServer: m.url,
      auth: (client, options) => {
        client.username = 'Mallory'
        client.session = { accessToken: alice.accessToken, selectedProfile: { id: alice.id, name: 'Alice' } }
        options.accessToken = alice.accessToken
        options.haveCredentials = true
        options.connect(client)
      }
    })
    const t2 = await waitKicked(mallory, 10000)
    assert.match(t2, /multiplayer\.disconnect\.unverified_username/, `impersonation refused: ${mallory.describe()}`)
    assert.ok(!mallory.spawned)

    // 3. A wrong access token: the session server refuses the join, so the
    // client gives up and the server never admits it.
    const badTok = onlineBot(srv.port, alice, m, { accessToken: 'not-the-token' })
    await badTok.waitEnd(10000)
    assert.ok(!badTok.spawned, `a wrong token never gets in: ${badTok.describe()}`)
    assert.ok(m.requests.some((r) => r.path === '/session/minecraft/join' && r.status === 403), 'the mock refused the join')

    assert.doesNotMatch(srv.output(), /logged in with entity id/, 'nobody was admitted')
    const st = await h.statusUtil(srv.port)
    assert.equal(st.players.online, 0)
  })
})

test('session server down, hanging or answering garbage: "authservers_down", within the 5 s request timeout', { timeout: 40000 }, async (t) => {
  const alice = ms.makeAccount('Alice')
  const m = await mock([alice])
  await h.withServer({ name: 'online-down', props: onlineProps(m) }, async (srv) => {
    for (const mode of ['down', 'garbage', 'hang']) {
      m.setMode(mode)
      // 'garbage' spoils only hasJoined, so the client's own join goes
      // through; with 'down'/'hang' the client skips it.
      const b = onlineBot(srv.port, alice, m, { join: mode === 'garbage' })
      const t0 = Date.now()
      const text = await waitKicked(b, 9000)
      const took = Date.now() - t0
      t.diagnostic(`${mode}: kicked after ${took} ms: ${text}`)
      assert.match(text, /multiplayer\.disconnect\.authservers_down/, `${mode}: ${b.describe()}`)
      if (mode === 'hang') assert.ok(took >= 4500 && took < 9000, `the hasJoined timeout (5 s) fired: ${took} ms`)
    }
    await waitLog(srv, /Couldn't verify username 'Alice' because servers are unavailable: session server answered HTTP 500/)
    await waitLog(srv, /servers are unavailable: session server answer is not JSON/)
    await waitLog(srv, /servers are unavailable: Timeout was reached/)
    m.setMode('ok')
  })
})

test('prevent-proxy-connections=true sends ip= to hasJoined; the right IP gets in', { timeout: 30000 }, async () => {
  const alice = ms.makeAccount('Alice')
  const m = await mock([alice])
  await h.withServer({ name: 'online-ip', props: onlineProps(m, { 'prevent-proxy-connections': 'true' }) }, async (srv) => {
    const a = onlineBot(srv.port, alice, m)
    await a.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${a.describe()}`))
    const r = m.requests.find((x) => x.path === '/session/minecraft/hasJoined')
    assert.equal(r.query.ip, '127.0.0.1', `hasJoined query: ${JSON.stringify(r.query)}`)
  })
})

// ---------------------------------------------------------------------------
// Raw clients: the crypto done by hand with node's AES-128-CFB8 and RSA.

/** Parse uncompressed frames from buf; returns [{id, body}], and the rest. */
function frames (buf) {
  const out = []
  let off = 0
  for (;;) {
    const len = h.readVarInt(buf, off)
    if (!len || off + len.size + len.value > buf.length) break
    const start = off + len.size
    const id = h.readVarInt(buf, start)
    out.push({ id: id.value, body: buf.subarray(start + id.size, start + len.value) })
    off = start + len.value
  }
  return { frames: out, rest: buf.subarray(off) }
}

function readBytes (buf, off) {
  const l = h.readVarInt(buf, off)
  return { value: buf.subarray(off + l.size, off + l.size + l.value), next: off + l.size + l.value }
}

function spkiPem (der) {
  return '-----BEGIN PUBLIC KEY-----\n' + der.toString('base64').match(/.{1,64}/g).join('\n') + '\n-----END PUBLIC KEY-----\n'
}

/** Handshake + Login Start, then the Encryption Request parsed. */
async function rawToEncryptionRequest (port, name) {
  const s = await h.rawConnect(port)
  s.socket.write(Buffer.concat([h.handshakePacket(port, 2), h.loginStartPacket(name)]))
  const req = await h.waitFor(() => {
    const f = frames(s.data).frames[0]
    return f && f.id === 0x01 ? f : null
  }, { timeout: 5000, message: 'Encryption Request' })
  const sid = readBytes(req.body, 0)
  const key = readBytes(req.body, sid.next)
  const token = readBytes(req.body, key.next)
  assert.equal(sid.value.length, 0, 'server id is empty')
  assert.equal(token.value.length, 4, 'a 4-byte verify token')
  const pem = spkiPem(key.value)
  assert.equal(crypto.createPublicKey(pem).asymmetricKeyDetails.modulusLength, 1024, 'RSA-1024')
  s.data = Buffer.alloc(0)
  return { s, pem, token: token.value, der: key.value }
}

function encryptionResponse (pem, secret, token) {
  const enc = (b) => crypto.publicEncrypt({ key: pem, padding: crypto.constants.RSA_PKCS1_PADDING }, b)
  const sec = enc(secret)
  const tok = enc(token)
  return h.frame(0x01, Buffer.concat([h.varInt(sec.length), sec, h.varInt(tok.length), tok]))
}

test('raw client: a correct key exchange is answered in AES-CFB8 (decrypted here with node\'s cipher); a wrong verify token is refused', { timeout: 30000 }, async () => {
  const alice = ms.makeAccount('Alice')
  const m = await mock([alice])
  await h.withServer({ name: 'online-raw', props: onlineProps(m) }, async (srv) => {
    // Right token, but no session join: the refusal arrives encrypted.
    {
      const { s, pem, token } = await rawToEncryptionRequest(srv.port, 'Alice')
      const secret = crypto.randomBytes(16)
      s.socket.write(encryptionResponse(pem, secret, token))
      await s.waitClose(8000)
      const plain = crypto.createDecipheriv('aes-128-cfb8', secret, secret).update(s.data)
      const f = frames(plain).frames[0]
      assert.ok(f, `an encrypted frame arrived (${s.data.length} bytes)`)
      assert.equal(f.id, 0x00, 'Login Disconnect')
      assert.match(f.body.toString('utf8'), /multiplayer\.disconnect\.unverified_username/)
    }
    // Wrong verify token: refused (encrypted too: the secret was valid).
    {
      const { s, pem, token } = await rawToEncryptionRequest(srv.port, 'Alice')
      const secret = crypto.randomBytes(16)
      const wrong = Buffer.from(token)
      wrong[0] ^= 0xff
      s.socket.write(encryptionResponse(pem, secret, wrong))
      await s.waitClose(5000)
      const plain = crypto.createDecipheriv('aes-128-cfb8', secret, secret).update(s.data)
      const f = frames(plain).frames[0]
      assert.ok(f && f.id === 0x00, 'Login Disconnect')
      assert.match(f.body.toString('utf8'), /verify token does not match/)
    }
    // A shared secret that is not 16 bytes: refused in plaintext.
    {
      const { s, pem, token } = await rawToEncryptionRequest(srv.port, 'Alice')
      s.socket.write(encryptionResponse(pem, crypto.randomBytes(8), token))
      await s.waitClose(5000)
      const f = frames(s.data).frames[0]
      assert.ok(f && f.id === 0x00, 'Login Disconnect')
      assert.match(f.body.toString('utf8'), /bad shared secret/)
    }
    assert.ok(!m.requests.some((r) => r.path.endsWith('hasJoined') && r.query.username !== 'Alice'))
    assert.equal(m.requests.filter((r) => r.path.endsWith('hasJoined')).length, 1, 'only the good exchange reached hasJoined')
  })
})

test('configuration: a plain-http session-server off loopback, and online-mode with a forwarding mode, are refused at startup', { timeout: 20000 }, async () => {
  for (const [props, key] of [
    [{ 'online-mode': 'true', 'session-server': 'http://sessionserver.example.com' }, 'session-server'],
    [{ 'online-mode': 'true', 'forwarding-mode': 'velocity' }, 'online-mode=false']
  ]) {
    const srv = await h.startServer({ name: 'online-badcfg', props, waitReady: false })
    const info = await srv.waitExit(5000)
    assert.ok(info && info.code !== 0, `refused to start with ${JSON.stringify(props)}: ${srv.describe()}`)
    assert.ok(srv.output().includes(key), `names ${key}: ${srv.describe()}`)
    assert.doesNotMatch(srv.stderr(), /Done \(/)
  }
})

h.finalClientErrorCheck(test)
