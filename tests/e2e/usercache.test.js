'use strict'
// Issue 17, "No usercache.json": in online mode a name alone does not give
// a player's UUID, so vanilla keeps usercache.json (name ↔ UUID of every
// player who joined, expiring a month after the last join) and op,
// whitelist add and ban find offline players there. An online-mode server
// (its session server a mock on 127.0.0.1, tests/e2e/mock-session.js) gets
// one join from Alice; after she left, the console's op / whitelist add /
// ban find her by name with her online UUID, also after a restart, while a
// name that never joined gets vanilla's "That player does not exist".
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const h = require('./helpers')
const ms = require('./mock-session')
const u = require('./persist-util')

let mock
after(async () => {
  if (mock) await mock.close()
  await u.cleanup()
  await h.cleanupAll()
})

const waitLog = (srv, re, from, timeout = 3000) => h.waitFor(() => re.test(srv.output().slice(from)), {
  timeout, message: `server log ${re}`, detail: () => h.tail(srv.output(), 2000)
})

test('usercache.json in vanilla\'s format; op, whitelist add and ban of an offline player in online mode, across a restart', { timeout: 60000 }, async () => {
  const alice = ms.makeAccount('Alice')
  mock = await ms.startMockSession([alice])
  const srv = await h.startServer({
    name: 'usercache',
    props: { 'online-mode': 'true', 'session-server': mock.url, 'view-distance': 2 }
  })
  u.attachConsole(srv)
  const bot = h.makeBot(srv.port, 'Alice', { auth: ms.onlineAuth(alice), sessionServer: mock.url })
  await bot.waitSpawn(15000)
  const file = path.join(srv.dir, 'usercache.json')
  await h.waitFor(() => fs.existsSync(file), { timeout: 8000, message: 'usercache.json written within 5 s of the join' })
  const text = fs.readFileSync(file, 'utf8')
  // Gson's compact output: no spaces, no final newline
  assert.match(text, /^\[\{"name":"Alice","uuid":"[0-9a-f-]{36}","expiresOn":"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}"\}\]$/, text)
  const entry = JSON.parse(text)[0]
  assert.equal(entry.uuid, ms.dashed(alice.id), 'the session server\'s UUID')
  const m = entry.expiresOn.match(/^(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+) ([+-])(\d\d)(\d\d)$/)
  const off = (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60000
  const expires = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) - off
  const days = (expires - Date.now()) / 86400000
  assert.ok(days > 27 && days < 32, `expires a month from now (${entry.expiresOn}: ${days.toFixed(1)} days)`)
  await bot.quit()

  // Alice is offline; the console finds her by name.
  let from = srv.output().length
  srv.send('op Alice')
  await waitLog(srv, /Made Alice a server operator/, from)
  await h.waitFor(() => fs.existsSync(path.join(srv.dir, 'ops.json')), { timeout: 3000, message: 'ops.json' })
  const ops = JSON.parse(fs.readFileSync(path.join(srv.dir, 'ops.json'), 'utf8'))
  assert.deepEqual(ops.map((o) => [o.name, o.uuid]), [['Alice', ms.dashed(alice.id)]])
  srv.send('whitelist add alice') // any case, as vanilla's lower-cased keys
  await waitLog(srv, /Added Alice to the whitelist/, from)
  srv.send('ban Alice Testing')
  await waitLog(srv, /Banned Alice: Testing/, from)
  const bans = () => JSON.parse(fs.readFileSync(path.join(srv.dir, 'banned-players.json'), 'utf8'))
  await h.waitFor(() => fs.existsSync(path.join(srv.dir, 'banned-players.json')) && bans().length === 1, { timeout: 3000, message: 'banned-players.json' })
  assert.equal(bans()[0].uuid, ms.dashed(alice.id))
  // A name nobody used: vanilla's unknown player (no Mojang lookup here).
  srv.send('op Nobody_Here')
  await waitLog(srv, /That player does not exist/, from)

  const info = await srv.stop(5000)
  assert.equal(info.code, 0)

  // After a restart the cache is read back: deop/pardon/op still find her.
  const srv2 = await u.startIn(srv.dir, { name: 'usercache-2' })
  u.attachConsole(srv2)
  assert.match(srv2.output(), /loaded 1 entry from usercache\.json/)
  from = 0
  srv2.send('deop Alice')
  await waitLog(srv2, /Made Alice no longer a server operator/, from)
  srv2.send('pardon Alice')
  await waitLog(srv2, /Unbanned Alice/, from)
  srv2.send('op Alice')
  await waitLog(srv2, /Made Alice a server operator/, from)
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8'))[0].uuid, ms.dashed(alice.id))
  assert.equal((await srv2.stop(5000)).code, 0)
  u.assertNoSanitizerReport(assert, srv)
  u.assertNoSanitizerReport(assert, srv2)
})
