'use strict'
// Issue #7 acceptance 3: the whitelist, bans and max-players at login, with
// vanilla's messages, driven by mineflayer bots and console commands; the
// files in vanilla's formats, surviving a restart; a malformed file logged,
// kept on disk, and set aside (never overwritten) when the list is next saved.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const h = require('./helpers')
const u = require('./persist-util')

after(async () => { await u.cleanup(); await h.cleanupAll() })
const since = h.mark()

const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/
const dashed = (name) => h.offlineUuid(name).toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')

/** Console line on stdin (either kind of server handle). */
function cmd (srv, line) { srv.proc.stdin.write(line + '\n') }

/** Waits for `re` in the server output after offset `from`. */
function waitLog (srv, re, from = 0, timeout = 5000) {
  return h.waitFor(() => re.exec(srv.output().slice(from)), { timeout, message: String(re), detail: () => h.tail(srv.output()) })
}

/** A bot that must be refused at login; resolves with the parsed reason. */
async function refused (port, name) {
  const b = h.makeBot(port, name)
  const end = await b.waitEnd(10000)
  assert.ok(end, `${name} was refused`)
  assert.ok(!b.spawned, `${name} never spawned`)
  assert.ok(b.kicked, `${name} got a disconnect reason (ended: ${end})`)
  return JSON.parse(b.kicked)
}

/** A bot that is online, then kicked: resolves with the parsed reason. */
let current = null // the server being tested, for failure details
async function kickedReason (b) {
  await h.waitFor(() => b.kicked, {
    timeout: 5000,
    message: `${b.username} kicked`,
    detail: () => b.describe() + (current ? '\n' + h.tail(current.output()) : '')
  })
  return JSON.parse(b.kicked)
}

function readJson (dir, file) { return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) }

test('whitelist on/add/remove/list, enforce-whitelist, bans and IP bans at login with vanilla messages; the files survive a restart', { timeout: 80000 }, async () => {
  const srv = await h.startServer({ name: 'lists', props: { 'enforce-whitelist': 'true', 'max-players': 10, 'admin-http-port': 0 } })
  current = srv
  let s2 = null
  try {
    // --- whitelist
    const alice = h.makeBot(srv.port, 'Alice')
    const bob = h.makeBot(srv.port, 'Bob')
    await alice.waitSpawn(15000)
    await bob.waitSpawn(15000)
    let at = srv.output().length
    cmd(srv, 'whitelist add Alice')
    await waitLog(srv, /Added Alice to the whitelist/, at)
    cmd(srv, 'whitelist on')
    await waitLog(srv, /Whitelist is now turned on/, at)
    const bobWhy = await kickedReason(bob) // enforce-whitelist: the unlisted are kicked
    assert.equal(bobWhy.translate, 'multiplayer.disconnect.not_whitelisted')
    assert.equal(bobWhy.fallback, 'You are not white-listed on this server!')
    assert.ok(!alice.ended, 'Alice (listed) stays')
    const carolWhy = await refused(srv.port, 'Carol')
    assert.equal(carolWhy.translate, 'multiplayer.disconnect.not_whitelisted')
    assert.equal(carolWhy.fallback, 'You are not white-listed on this server!')
    await waitLog(srv, /Carol.*|disconnected: You are not white-listed on this server!/, at)
    cmd(srv, 'whitelist list')
    await waitLog(srv, /There are 1 whitelisted player\(s\): Alice/, at)
    await h.waitFor(() => /^white-list=true$/m.test(fs.readFileSync(srv.propsPath, 'utf8')), { timeout: 3000, message: 'white-list=true saved in server.properties' })
    cmd(srv, 'whitelist add Dave')
    cmd(srv, 'whitelist add Eve')
    await waitLog(srv, /Added Eve to the whitelist/, at)

    // --- ban: kicks the online player, then refuses them with the reason
    const dave = h.makeBot(srv.port, 'Dave')
    await dave.waitSpawn(15000)
    at = srv.output().length
    cmd(srv, 'ban Dave Griefing the spawn')
    await waitLog(srv, /Banned Dave: Griefing the spawn/, at)
    const daveWhy = await kickedReason(dave)
    assert.equal(daveWhy.translate, 'multiplayer.disconnect.banned')
    assert.equal(daveWhy.fallback, 'You are banned from this server')
    const again = await refused(srv.port, 'Dave')
    assert.equal(again.translate, 'multiplayer.disconnect.banned.reason')
    assert.deepEqual(again.with, ['Griefing the spawn'])
    assert.equal(again.fallback, 'You are banned from this server.\nReason: %s')
    cmd(srv, 'ban Dave')
    await waitLog(srv, /Nothing changed\. The player is already banned/, at)
    cmd(srv, 'banlist players')
    await waitLog(srv, /There are 1 ban\(s\):[\s\S]*Dave was banned by Server: Griefing the spawn/, at)

    // --- ban-ip by player name: kicks everyone on that address, refuses new logins
    const eve = h.makeBot(srv.port, 'Eve')
    await eve.waitSpawn(15000)
    at = srv.output().length
    cmd(srv, 'ban-ip Eve')
    await waitLog(srv, /Banned IP 127\.0\.0\.1: Banned by an operator\./, at)
    await waitLog(srv, /This ban affects 2 player\(s\): (Alice, Eve|Eve, Alice)/, at)
    const eveWhy = await kickedReason(eve)
    assert.equal(eveWhy.translate, 'multiplayer.disconnect.ip_banned')
    const aliceWhy = await kickedReason(alice)
    assert.equal(aliceWhy.translate, 'multiplayer.disconnect.ip_banned')
    const ipWhy = await refused(srv.port, 'Alice')
    assert.equal(ipWhy.translate, 'multiplayer.disconnect.banned_ip.reason')
    assert.equal(ipWhy.fallback, 'Your IP address is banned from this server.\nReason: %s')
    assert.deepEqual(ipWhy.with, ['Banned by an operator.'])
    cmd(srv, 'ban-ip not-an-address')
    await waitLog(srv, /Invalid IP address or unknown player/, at)
    cmd(srv, 'ban-ip 192.0.2.99 spam bots') // (an IPv6 address is not a Brigadier word, as in vanilla)
    await waitLog(srv, /Banned IP 192\.0\.2\.99: spam bots/, at)
    cmd(srv, 'banlist ips')
    await waitLog(srv, /There are 2 ban\(s\):[\s\S]*127\.0\.0\.1 was banned by Server: Banned by an operator\.[\s\S]*192\.0\.2\.99 was banned by Server: spam bots/, at)

    // --- the files, in vanilla's formats
    await h.waitFor(() => {
      try {
        return readJson(srv.dir, 'banned-ips.json').length === 2 && readJson(srv.dir, 'banned-players.json').length === 1 &&
          readJson(srv.dir, 'whitelist.json').length === 3
      } catch (e) { return false }
    }, { timeout: 3000, message: 'list files written' })
    assert.deepEqual(readJson(srv.dir, 'whitelist.json'), ['Alice', 'Dave', 'Eve'].map((n) => ({ uuid: dashed(n), name: n })))
    const bans = readJson(srv.dir, 'banned-players.json')
    assert.deepEqual(Object.keys(bans[0]), ['uuid', 'name', 'created', 'source', 'expires', 'reason'])
    assert.equal(bans[0].uuid, dashed('Dave'))
    assert.equal(bans[0].name, 'Dave')
    assert.match(bans[0].created, TIME)
    assert.equal(bans[0].source, 'Server')
    assert.equal(bans[0].expires, 'forever')
    assert.equal(bans[0].reason, 'Griefing the spawn')
    const ips = readJson(srv.dir, 'banned-ips.json')
    assert.deepEqual(ips.map((e) => Object.keys(e)), [0, 1].map(() => ['ip', 'created', 'source', 'expires', 'reason']))
    assert.deepEqual(ips.map((e) => e.ip), ['127.0.0.1', '192.0.2.99'])
    assert.match(ips[0].created, TIME)
    assert.match(fs.readFileSync(path.join(srv.dir, 'banned-ips.json'), 'utf8'), /^\[\n {2}\{\n {4}"ip": "127\.0\.0\.1",\n {4}"created": /)
    for (const f of ['whitelist.json', 'banned-players.json', 'banned-ips.json']) {
      assert.ok(!fs.readdirSync(srv.dir).some((n) => n.startsWith(f + '.tmp') || n.includes('.corrupt')), `no temp or corrupt copies of ${f}`)
    }
    const info = await srv.stop()
    assert.equal(info.code, 0)

    // --- restart in the same folder: every list and the whitelist switch are back
    s2 = await u.startIn(srv.dir, { name: 'lists-restart' })
    current = s2
    assert.match(s2.output(), /loaded 3 entries from whitelist\.json/)
    assert.match(s2.output(), /loaded 1 entry from banned-players\.json/)
    assert.match(s2.output(), /loaded 2 entries from banned-ips\.json/)
    const stillIp = await refused(s2.port, 'Alice')
    assert.equal(stillIp.translate, 'multiplayer.disconnect.banned_ip.reason')
    at = s2.output().length
    s2.send('pardon-ip 127.0.0.1')
    await waitLog(s2, /Unbanned IP 127\.0\.0\.1/, at)
    s2.send('pardon-ip 127.0.0.1')
    await waitLog(s2, /Nothing changed\. That IP isn't banned/, at)
    const stillBanned = await refused(s2.port, 'Dave')
    assert.equal(stillBanned.translate, 'multiplayer.disconnect.banned.reason')
    assert.deepEqual(stillBanned.with, ['Griefing the spawn'])
    const stillWl = await refused(s2.port, 'Zed')
    assert.equal(stillWl.translate, 'multiplayer.disconnect.not_whitelisted')
    const a2 = h.makeBot(s2.port, 'Alice')
    await a2.waitSpawn(15000)
    s2.send('pardon Dave')
    await waitLog(s2, /Unbanned Dave/, at)
    const d2 = h.makeBot(s2.port, 'Dave')
    await d2.waitSpawn(15000)
    s2.send('whitelist remove Dave')
    await waitLog(s2, /Removed Dave from the whitelist/, at)
    const dWhy = await kickedReason(d2) // enforce-whitelist on remove
    assert.equal(dWhy.translate, 'multiplayer.disconnect.not_whitelisted')
    s2.send('whitelist off')
    await waitLog(s2, /Whitelist is now turned off/, at)
    const z = h.makeBot(s2.port, 'Zed')
    await z.waitSpawn(15000)
    await h.waitFor(() => /^white-list=false$/m.test(fs.readFileSync(path.join(srv.dir, 'server.properties'), 'utf8')), { timeout: 3000, message: 'white-list=false saved' })
    await Promise.all([a2.quit(), z.quit()])
    assert.equal((await s2.stop()).code, 0)
    u.assertNoSanitizerReport(assert, s2)
  } finally {
    if (s2) await s2.stop()
    await srv.stop()
  }
  h.assertNoClientProtocolErrors(assert, since)
})

test('max-players refuses the extra bot with "The server is full!"; an operator with bypassesPlayerLimit gets in', { timeout: 40000 }, async () => {
  const srv = await h.startServer({ name: 'full', props: { 'max-players': 2, 'admin-http-port': 0 } })
  await srv.stop()
  fs.writeFileSync(path.join(srv.dir, 'ops.json'), JSON.stringify([
    { uuid: dashed('Vip'), name: 'Vip', level: 4, bypassesPlayerLimit: true },
    { uuid: dashed('Mod'), name: 'Mod', level: 3, bypassesPlayerLimit: false }
  ], null, 2))
  const s = await u.startIn(srv.dir, { name: 'full2' })
  try {
    const a = h.makeBot(s.port, 'One')
    const b = h.makeBot(s.port, 'Two')
    await a.waitSpawn(15000)
    await b.waitSpawn(15000)
    const why = await refused(s.port, 'Three')
    assert.equal(why.translate, 'multiplayer.disconnect.server_full')
    assert.equal(why.fallback, 'The server is full!')
    const modWhy = await refused(s.port, 'Mod') // an operator without the bypass flag
    assert.equal(modWhy.translate, 'multiplayer.disconnect.server_full')
    const vip = h.makeBot(s.port, 'Vip')
    await vip.waitSpawn(15000)
    assert.ok(!a.ended && !b.ended, 'nobody was pushed out')
    await Promise.all([a.quit(), b.quit(), vip.quit()])
    assert.match(s.output(), /Three.*disconnected: The server is full!|disconnected: The server is full!/)
  } finally {
    await s.stop()
  }
  h.assertNoClientProtocolErrors(assert, since)
})

test('a malformed whitelist.json: a clear log line, an empty list, the file kept; the next save sets it aside instead of overwriting it', { timeout: 30000 }, async () => {
  const srv = await h.startServer({ name: 'badlist', props: { 'white-list': 'true', 'admin-http-port': 0 } })
  await srv.stop()
  const bad = '[{"uuid": "not-a-uuid", "name": "Alice"}'
  fs.writeFileSync(path.join(srv.dir, 'whitelist.json'), bad)
  fs.writeFileSync(path.join(srv.dir, 'banned-players.json'), '{"not": "an array"}')
  const s = await u.startIn(srv.dir, { name: 'badlist2' })
  try {
    assert.match(s.output(), /whitelist\.json is invalid \(line \d+: [^)]*\); starting with an empty list/)
    assert.match(s.output(), /banned-players\.json is invalid \(expected a JSON array\)/)
    const why = await refused(s.port, 'Alice') // an empty whitelist, switched on
    assert.equal(why.translate, 'multiplayer.disconnect.not_whitelisted')
    assert.equal(fs.readFileSync(path.join(s.dir, 'whitelist.json'), 'utf8'), bad, 'the bad file is left alone')
    const at = s.output().length
    s.send('whitelist add Alice')
    await waitLog(s, /the invalid whitelist\.json was moved to whitelist\.json\.corrupt-\d{8}-\d{6}/, at)
    const aside = fs.readdirSync(s.dir).filter((n) => n.startsWith('whitelist.json.corrupt-'))
    assert.equal(aside.length, 1)
    assert.equal(fs.readFileSync(path.join(s.dir, aside[0]), 'utf8'), bad, 'the bad file survives, byte for byte')
    await h.waitFor(() => { try { return readJson(s.dir, 'whitelist.json').length === 1 } catch (e) { return false } }, { timeout: 3000, message: 'new whitelist.json' })
    const a = h.makeBot(s.port, 'Alice')
    await a.waitSpawn(15000)
    await a.quit()
    assert.equal(fs.readFileSync(path.join(s.dir, 'banned-players.json'), 'utf8'), '{"not": "an array"}')
  } finally {
    await s.stop()
  }
})

h.finalClientErrorCheck(test)
