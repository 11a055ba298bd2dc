'use strict'
// A stand-in for Mojang's session server (sessionserver.mojang.com), on
// 127.0.0.1 only, for mcserv's online-mode tests. No internet is needed or
// used.
//
// What it implements (the two calls a login makes):
//   POST /session/minecraft/join      what the client (minecraft-protocol's
//        {accessToken, selectedProfile, serverId}   yggdrasil.join) calls
//        -> 204 when the token belongs to the profile, else 403 + JSON error
//   GET  /session/minecraft/hasJoined?username=..&serverId=..[&ip=..]
//        what mcserv calls -> 200 + {id, name, properties} when that name
//        joined with that serverId (and, if ip= is given, from that IP),
//        else 204 (vanilla's "not joined")
//
// Knobs: setMode('ok' | 'down' (HTTP 500) | 'hang' (never answers) |
// 'garbage' (200 with non-JSON)). Every request is recorded in `requests`.
//
// Also here: onlineAuth(account, url), the minecraft-protocol `auth` option
// that logs a client in with a fake session instead of Microsoft's servers;
// and uuid helpers.
//
// Invariants: listens on 127.0.0.1 only; close() ends every open socket, so
// a hanging request never keeps a test file alive.

const http = require('node:http')
const crypto = require('node:crypto')

/** A deterministic fake account: 32-hex id (no dashes), token, skin property. */
function makeAccount (name) {
  const id = crypto.createHash('sha1').update('mcserv-test:' + name).digest('hex').slice(0, 32)
  // Version-4-looking UUID so clients treat it as an online UUID.
  const uuid = id.slice(0, 12) + '4' + id.slice(13, 16) + '8' + id.slice(17)
  const textures = Buffer.from(JSON.stringify({
    timestamp: 1700000000000,
    profileId: uuid,
    profileName: name,
    textures: { SKIN: { url: `http://textures.minecraft.net/texture/${uuid}` } }
  })).toString('base64')
  return {
    name,
    id: uuid,
    accessToken: 'token-' + uuid,
    properties: [{ name: 'textures', value: textures, signature: 'c2lnbmF0dXJlLW9mLScgKyBuYW1l' }]
  }
}

function dashed (id) {
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`
}

function normIp (ip) {
  return String(ip || '').replace(/^::ffff:/, '')
}

/**
 * Start the mock. accounts: array from makeAccount(). Resolves with
 * { url, port, requests, joins, setMode(m), close() }.
 */
function startMockSession (accounts = []) {
  const byId = new Map(accounts.map((a) => [a.id, a]))
  const joins = new Map() // name (lower case) -> { serverId, ip, account }
  const requests = [] // { method, path, query, body, status }
  let mode = 'ok'
  const sockets = new Set()

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1')
    const rec = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), t: Date.now() }
    requests.push(rec)
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (d) => { if (body.length < 65536) body += d })
    req.on('end', () => {
      rec.body = body
      const send = (status, obj) => {
        rec.status = status
        if (obj == null) { res.writeHead(status); res.end(); return }
        const text = typeof obj === 'string' ? obj : JSON.stringify(obj)
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(text)
      }
      if (mode === 'hang') return // never answers: mcserv's timeout must fire
      if (mode === 'down') return send(500, { error: 'InternalServerError' })
      if (req.method === 'POST' && url.pathname === '/session/minecraft/join') {
        let j
        try { j = JSON.parse(body) } catch (e) { return send(400, { error: 'BadRequest' }) }
        const acc = byId.get(String(j.selectedProfile).replace(/-/g, ''))
        if (!acc || j.accessToken !== acc.accessToken) {
          return send(403, { error: 'ForbiddenOperationException', errorMessage: 'Invalid token.' })
        }
        joins.set(acc.name.toLowerCase(), { serverId: j.serverId, ip: normIp(req.socket.remoteAddress), account: acc })
        return send(204)
      }
      if (req.method === 'GET' && url.pathname === '/session/minecraft/hasJoined') {
        if (mode === 'garbage') return send(200, 'this is not json')
        const name = url.searchParams.get('username') || ''
        const sid = url.searchParams.get('serverId') || ''
        const ip = url.searchParams.get('ip')
        const j = joins.get(name.toLowerCase())
        if (!j || j.serverId !== sid || (ip != null && normIp(ip) !== j.ip)) return send(204)
        return send(200, { id: j.account.id, name: j.account.name, properties: j.account.properties })
      }
      send(404, { error: 'Not Found' })
    })
  })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = server.address().port
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        requests,
        joins,
        setMode: (m) => { mode = m },
        close: () => new Promise((resolve2) => {
          for (const s of sockets) s.destroy()
          server.close(() => resolve2())
        })
      })
    })
  })
}

/**
 * minecraft-protocol `auth` option: an online login with a fake session.
 * With join=false the client skips the session-server join (a client that
 * never authenticated), so the server's hasJoined check must fail.
 */
function onlineAuth (account, { join = true, accessToken } = {}) {
  return (client, options) => {
    client.username = account.name
    client.session = {
      accessToken: accessToken || account.accessToken,
      selectedProfile: { id: account.id, name: account.name }
    }
    options.accessToken = client.session.accessToken
    options.haveCredentials = join
    options.connect(client)
  }
}

module.exports = { makeAccount, startMockSession, onlineAuth, dashed }
