'use strict'
// Issue 17, server-wide commands, through the interfaces operators use: the
// console (stdin), RCON (minecraft-server-util) and a player (mineflayer).
//
//  - `tps` (an alias of `mspt`) answers on the console and over RCON
//    (it failed with "Unknown or incomplete command ... tps<--[HERE]").
//  - `gamerule`: only the rules mcserv acts on, validated; doDaylightCycle
//    stops the clients' clock (negative Update Time), doImmediateRespawn
//    reaches them (Game Event 11), sendCommandFeedback silences a player's
//    feedback, keepInventory and showDeathMessages act on /kill; the values
//    survive a restart (level.dat's GameRules).
//  - `difficulty`: the query, a change every client receives (Change
//    Difficulty, also at join), vanilla's failure for no change.
//  - `defaultgamemode`: the next player joins in it; vanilla's error.
//  - `version`.
//
// One server for the file; every wait is bounded; everything on 127.0.0.1.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const u = require('./persist-util')

const PASSWORD = 'e2e-rcon-cmd-server-41c9'
let srv, rcon

before(async () => {
  const rconPort = await h.freePort()
  srv = await h.startServer({
    name: 'cmd-server',
    props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': PASSWORD, 'view-distance': 2 }
  })
  rcon = await h.rconSession(rconPort, PASSWORD)
})

after(async () => {
  if (rcon) rcon.close()
  await u.cleanup()
  await h.cleanupAll()
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)

test('tps answers over RCON and on the console, as mspt does', { timeout: 10000 }, async () => {
  const out = await run('tps')
  assert.match(out, /^Tick durations \(ms\) min\/median\/95%ile\/99%ile\/max, last 5 s: [\d./]+; last 60 s: [\d./]+\nTPS last 5 s: [\d.]+; last 60 s: [\d.]+\nGame thread CPU/)
  assert.doesNotMatch(out, /HERE/)
  const before = srv.output().length
  mp.consoleCmd(srv, 'tps')
  await h.waitFor(() => /TPS last 5 s: [\d.]+; last 60 s: [\d.]+/.test(srv.output().slice(before)), { timeout: 3000, message: 'console tps' })
  assert.doesNotMatch(srv.output().slice(before), /Unknown or incomplete command/)
  // an argument after the alias goes to mspt, which takes none: vanilla's error
  assert.equal(await run('tps 5'), 'Incorrect argument for command\ntps 5<--[HERE]')
})

test('gamerule: query, set, vanilla\'s errors; the rules act on clients', { timeout: 30000 }, async () => {
  assert.equal(await run('gamerule doDaylightCycle'), 'Gamerule doDaylightCycle is currently set to: true')
  assert.equal(await run('gamerule doDaylightCycle maybe'),
    "Invalid boolean, expected 'true' or 'false' but found 'maybe'\n...ightCycle maybe<--[HERE]")
  assert.equal(await run('gamerule commandModificationBlockLimit 1.5'), "Invalid integer '1.5'\n...lockLimit 1.5<--[HERE]")
  // a rule mcserv does not act on is not offered
  assert.match(await run('gamerule doInsomnia false'), /^Incorrect argument for command\n/)
  // randomTickSpeed is acted on (issue 21): offered, an int
  assert.equal(await run('gamerule randomTickSpeed'), 'Gamerule randomTickSpeed is currently set to: 3')
  const A = h.makeBot(srv.port, 'Rules')
  const rec = mp.recorder(A, ['update_time', 'game_state_change', 'death_combat_event'])
  await A.waitSpawn(15000)
  let m = rec.mark()
  assert.equal(await run('gamerule doDaylightCycle false'), 'Gamerule doDaylightCycle is now set to: false')
  // vanilla: a negative time of day tells clients the clock stands still
  const t = await rec.waitPacket('update_time', (p) => BigInt(p.time) < 0n, { since: m })
  const day = -BigInt(t.time)
  await h.sleep(1200)
  const later = rec.packets.update_time.slice(-1)[0]
  assert.equal(-BigInt(later.time), day, 'the time of day stays')
  m = rec.mark()
  assert.equal(await run('gamerule doImmediateRespawn true'), 'Gamerule doImmediateRespawn is now set to: true')
  await rec.waitPacket('game_state_change', (p) => (p.reason === 11 || p.reason === 'immediate_respawn') && p.gameMode === 1, { since: m })
  // showDeathMessages false: the death is not announced
  await run('gamerule showDeathMessages false')
  m = rec.mark()
  await run('kill Rules')
  await rec.waitPacket('death_combat_event', () => true, { since: m })
  await h.sleep(300)
  assert.ok(!rec.chat.slice(m.chat).some((l) => /Rules was killed/.test(l)), 'no death message in chat')
  // sendCommandFeedback false: a player's own feedback is not sent
  await run('op Rules')
  await h.waitFor(() => A.bot.health > 0, { timeout: 5000, message: 'respawned (immediate respawn)' })
  await run('gamerule sendCommandFeedback false')
  m = rec.mark()
  A.bot.chat('/time query gametime')
  A.bot.chat('/seed')
  await h.sleep(500)
  assert.deepEqual(rec.chat.slice(m.chat).filter((l) => /The time is|Seed:/.test(l)), [], 'feedback is silenced')
  await run('gamerule sendCommandFeedback true')
  m = rec.mark()
  A.bot.chat('/seed')
  await rec.waitChat(/^Seed: \[/, { since: m })
  await run('gamerule showDeathMessages true')
  await A.quit()
})

test('difficulty: query, change seen by clients (and at join), vanilla\'s failure', { timeout: 20000 }, async () => {
  // mineflayer 4 misreads Change Difficulty (a mapped name used as an index): the packet itself
  const name = (p) => typeof p.difficulty === 'string' ? p.difficulty : ['peaceful', 'easy', 'normal', 'hard'][p.difficulty]
  assert.equal(await run('difficulty'), 'The difficulty is Easy')
  const A = h.makeBot(srv.port, 'Diff')
  const recA = mp.recorder(A, ['difficulty'])
  await A.waitSpawn(15000)
  await recA.waitPacket('difficulty', (p) => name(p) === 'easy', { message: 'difficulty at join' })
  let m = recA.mark()
  assert.equal(await run('difficulty hard'), 'The difficulty has been set to Hard')
  await recA.waitPacket('difficulty', (p) => name(p) === 'hard' && !p.difficultyLocked, { since: m, message: 'the client hears the change' })
  assert.equal(await run('difficulty hard'), 'The difficulty did not change; it is already set to hard')
  assert.equal(await run('difficulty harder'), 'Incorrect argument for command\n...ifficulty harder<--[HERE]')
  const B = h.makeBot(srv.port, 'Diff2')
  const recB = mp.recorder(B, ['difficulty'])
  await B.waitSpawn(15000)
  await recB.waitPacket('difficulty', (p) => name(p) === 'hard', { message: 'a new client gets it at join' })
  m = recA.mark()
  await run('difficulty easy')
  await recA.waitPacket('difficulty', (p) => name(p) === 'easy', { since: m })
  await A.quit()
  await B.quit()
})

test('defaultgamemode: the next player joins in it; vanilla\'s error', { timeout: 20000 }, async () => {
  assert.equal(await run('defaultgamemode creative'), 'The default game mode is now Creative Mode')
  const A = h.makeBot(srv.port, 'NewOne')
  await A.waitSpawn(15000)
  assert.equal(A.bot.game.gameMode, 'creative')
  assert.equal(await run('defaultgamemode sideways'), 'Unknown game mode: sideways\n...e sideways<--[HERE]')
  await run('defaultgamemode survival')
  await A.quit()
})

test('version: the game version this server speaks', { timeout: 5000 }, async () => {
  const out = await run('version')
  assert.match(out, /^Server version info:\nID = 1\.20\.1\nName = 1\.20\.1\nData = 3465\nSeries = main\nProtocol = 763 \(0x2fb\)\n/)
  assert.match(out, /\nServer = mcserv/)
})

test('game rules and the keepInventory rule survive a restart (level.dat GameRules)', { timeout: 30000 }, async () => {
  await run('gamerule keepInventory true')
  assert.equal(await run('gamerule keepInventory'), 'Gamerule keepInventory is currently set to: true')
  rcon.close()
  rcon = null
  const info = await srv.stop(5000)
  assert.equal(info.code, 0)
  const srv2 = await u.startIn(srv.dir, { name: 'cmd-server-2' })
  let from = 0
  srv2.send('gamerule keepInventory')
  await srv2.waitOutput(/Gamerule keepInventory is currently set to: true/, { from, timeout: 3000 })
  srv2.send('gamerule doDaylightCycle')
  await srv2.waitOutput(/Gamerule doDaylightCycle is currently set to: false/, { from, timeout: 3000 })
  // keepInventory: the inventory is there again after a death
  const A = h.makeBot(srv2.port, 'Keeper')
  await A.waitSpawn(15000)
  from = srv2.output().length
  srv2.send('gamemode creative Keeper')
  await srv2.waitOutput(/Set Keeper's game mode to creative/, { from, timeout: 3000 })
  A.bot.game.gameMode = 'creative'
  const Item = require('prismarine-item')(A.bot.registry)
  await A.bot.creative.setInventorySlot(36, new Item(A.bot.registry.itemsByName.diamond.id, 5))
  srv2.send('gamemode survival Keeper')
  srv2.send('kill Keeper')
  await h.waitFor(() => A.bot.health <= 0 || A.bot.isAlive === false, { timeout: 5000, message: 'dead' }).catch(() => {})
  await h.waitFor(() => A.bot.health > 0 && A.bot.inventory.slots[36] && A.bot.inventory.slots[36].name === 'diamond', {
    timeout: 8000, message: 'respawned with the diamonds (keepInventory)'
  })
  assert.equal(A.bot.inventory.slots[36].count, 5)
  await A.quit()
  const info2 = await srv2.stop(5000)
  assert.equal(info2.code, 0, 'a clean exit')
  u.assertNoSanitizerReport(assert, srv)
  u.assertNoSanitizerReport(assert, srv2)
})
