'use strict'
// Issue 17, /worldborder and where the server enforces limits on players:
//
//  - a joining client gets Initialize World Border (vanilla's defaults, the
//    portal boundary = max-world-size); center, set, add (a lerp the client
//    gets with its time), warning distance / time reach the clients; get,
//    damage amount / buffer; vanilla's messages, numbers and errors;
//  - a survival player walking into the border is pushed back (vanilla's
//    server refuses the move: "moved wrongly!"), also at max-world-size
//    with the default border; a block outside the border cannot be dug;
//  - spawn protection: a guest cannot place against a block near spawn,
//    an operator can (vanilla tests the block clicked);
//  - level.dat keeps the border (vanilla's tags), read back at the next start.
//
// One server (max-world-size 1000, spawn-protection 2); bounded waits; 127.0.0.1 only.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { Vec3 } = require('vec3')
const h = require('./helpers')
const mp = require('./mp-helpers')
const u = require('./persist-util')

const PASSWORD = 'e2e-rcon-cmd-border-5d1e'
let srv, rcon, W, rec

before(async () => {
  const rconPort = await h.freePort()
  srv = await h.startServer({
    name: 'cmd-border',
    props: {
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': PASSWORD,
      'view-distance': 3,
      'max-world-size': 1000,
      'spawn-protection': 2
    }
  })
  rcon = await h.rconSession(rconPort, PASSWORD)
  W = h.makeBot(srv.port, 'Walker')
  rec = mp.recorder(W, ['initialize_world_border', 'world_border_center', 'world_border_size',
    'world_border_lerp_size', 'world_border_warning_reach', 'world_border_warning_delay', 'position'])
  await W.waitSpawn(15000)
})

after(async () => {
  if (rcon) rcon.close()
  await u.cleanup()
  await h.cleanupAll()
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)

/** Walks toward x = target (same z) for `ms`; returns the farthest x the bot reached. */
async function walkToward (bot, targetX, ms) {
  await bot.lookAt(new Vec3(targetX, bot.entity.position.y + 1.6, bot.entity.position.z), true)
  let far = bot.entity.position.x
  bot.setControlState('forward', true)
  bot.setControlState('sprint', true)
  const end = Date.now() + ms
  while (Date.now() < end) {
    await h.sleep(50)
    far = targetX > 0 ? Math.max(far, bot.entity.position.x) : Math.min(far, bot.entity.position.x)
  }
  bot.clearControlStates()
  await h.sleep(300)
  return far
}

test('worldborder: what clients get, vanilla\'s messages, numbers and errors', { timeout: 20000 }, async () => {
  const init = rec.packets.initialize_world_border[0]
  assert.ok(init, 'Initialize World Border at join')
  assert.equal(init.newDiameter, 59999968)
  assert.equal(init.oldDiameter, 59999968)
  assert.equal(init.portalTeleportBoundary, 1000, 'max-world-size')
  assert.equal(init.warningBlocks, 5)
  assert.equal(init.warningTime, 15)
  assert.equal(await run('worldborder get'), 'The world border is currently 59999968 block(s) wide')
  let m = rec.mark()
  assert.equal(await run('worldborder center 0 0'), 'Set the center of the world border to 0.50, 0.50')
  const c = await rec.waitPacket('world_border_center', () => true, { since: m })
  assert.equal(c.x, 0.5)
  assert.equal(c.z, 0.5)
  assert.equal(await run('worldborder center 0 0'), 'Nothing changed. The world border is already centered there')
  assert.equal(await run('worldborder center 30000000 0'), 'World border cannot be further out than 2.9999984E7 blocks')
  m = rec.mark()
  assert.equal(await run('worldborder set 20'), 'Set the world border to 20.0 block(s) wide')
  assert.equal((await rec.waitPacket('world_border_size', () => true, { since: m })).diameter, 20)
  assert.equal(await run('worldborder set 20'), 'Nothing changed. The world border is already that size')
  assert.equal(await run('worldborder set 0.5'), 'World border cannot be smaller than 1 block wide')
  assert.equal(await run('worldborder set 60000000'), 'Double must not be more than 5.9999968E7, found 6.0E7\n...order set 60000000<--[HERE]')
  assert.equal(await run('worldborder add 59999960'), 'World border cannot be bigger than 5.9999968E7 blocks wide')
  m = rec.mark()
  assert.equal(await run('worldborder add 10 1'), 'Growing the world border to 30.0 blocks wide over 1 seconds')
  const l = await rec.waitPacket('world_border_lerp_size', () => true, { since: m })
  assert.deepEqual([l.oldDiameter, l.newDiameter, Number(l.speed)], [20, 30, 1000])
  await h.sleep(500)
  const mid = Number((await run('worldborder get')).match(/currently (\d+) block/)[1])
  assert.ok(mid > 20 && mid < 30, `halfway: ${mid}`)
  await h.sleep(700)
  assert.equal(await run('worldborder get'), 'The world border is currently 30 block(s) wide')
  assert.equal(await run('worldborder set 10 1'), 'Shrinking the world border to 10.0 block(s) wide over 1 second(s)')
  await h.sleep(1100)
  assert.equal(await run('worldborder get'), 'The world border is currently 10 block(s) wide')
  assert.equal(await run('worldborder damage amount 0.5'), 'Set the world border damage to 0.50 per block each second')
  assert.equal(await run('worldborder damage amount 0.5'), 'Nothing changed. The world border damage is already that amount')
  assert.equal(await run('worldborder damage buffer 2.5'), 'Set the world border damage buffer to 2.50 block(s)')
  assert.equal(await run('worldborder damage amount -1'), 'Float must not be less than 0.0, found -1.0\n...ge amount -1<--[HERE]')
  m = rec.mark()
  assert.equal(await run('worldborder warning distance 3'), 'Set the world border warning distance to 3 block(s)')
  assert.equal((await rec.waitPacket('world_border_warning_reach', () => true, { since: m })).warningBlocks, 3)
  assert.equal(await run('worldborder warning time 20'), 'Set the world border warning time to 20 second(s)')
  assert.equal((await rec.waitPacket('world_border_warning_delay', () => true, { since: m })).warningTime, 20)
  assert.equal(await run('worldborder warning time 20'), 'Nothing changed. The world border warning is already that amount of time')
})

test('a survival player walking into the border is pushed back; no digging outside it', { timeout: 30000 }, async () => {
  // the border is 10 wide around 0.5, 0.5: x from -4.5 to 5.5
  await h.waitFor(() => W.bot.entity.onGround, { timeout: 5000, message: 'on the ground' })
  const from = srv.output().length
  const far = await walkToward(W.bot, 50, 2000)
  assert.ok(W.bot.entity.position.x < 5.5, `stayed inside (x ${W.bot.entity.position.x.toFixed(2)}, farthest ${far.toFixed(2)})`)
  assert.ok(far < 5.5 + 0.6, `never got across (farthest x ${far.toFixed(2)})`)
  assert.match(srv.output().slice(from), /Walker moved wrongly!/)
  // a block outside the border: the dig is refused and the block stays
  const out = new Vec3(6, -61, 0)
  await W.bot.dig(W.bot.blockAt(out), true).catch(() => {})
  await h.sleep(600)
  assert.equal(W.bot.blockAt(out).name, 'grass_block', 'the block outside the border is still there')
})

test('max-world-size: the default border stops at its edge', { timeout: 30000 }, async () => {
  assert.equal(await run('worldborder set 59999968'), 'Set the world border to 59999968.0 block(s) wide')
  await run('tp Walker 996.5 -60 0.5')
  try {
    await h.waitFor(() => W.bot.entity.position.x > 990, { timeout: 5000, message: 'teleported near x 1000' })
    await h.waitFor(() => W.bot.entity.onGround, { timeout: 15000, message: 'on the ground there (chunks generated)' })
    const from = srv.output().length
    const far = await walkToward(W.bot, 1100, 2000)
    assert.ok(W.bot.entity.position.x < 1000, `held at max-world-size (x ${W.bot.entity.position.x.toFixed(2)})`)
    assert.ok(far < 1000.6, `farthest x ${far.toFixed(2)}`)
    assert.match(srv.output().slice(from), /Walker moved wrongly!/)
  } finally {
    await run('tp Walker 0.5 -60 0.5')
  }
})

test('spawn protection: a guest cannot place against a block near spawn; an operator can', { timeout: 30000 }, async () => {
  await run('op Somebody') // an operator exists: protection is on (radius 2 around the spawn)
  await run('gamemode creative Walker')
  W.bot.game.gameMode = 'creative'
  await h.waitFor(() => Math.abs(W.bot.entity.position.x) < 3, { timeout: 5000, message: 'back at spawn' })
  const near = new Vec3(1, -60, 1)
  await u.placeAt(W.bot, near, 'stone', 1500).catch(() => {})
  await h.sleep(300)
  assert.equal(W.bot.blockAt(near).name, 'air', 'a guest places nothing within 2 blocks of the spawn')
  const outside = new Vec3(4, -60, 1) // clicking the grass at x 4: outside the radius
  await u.placeAt(W.bot, outside, 'stone')
  await run('op Walker')
  await h.waitFor(() => /Made Walker a server operator/.test(srv.output()), { timeout: 3000, message: 'opped' })
  await h.sleep(200)
  await u.placeAt(W.bot, near, 'stone')
})

test('the border is kept in level.dat (vanilla\'s Border* tags) and read back at the next start', { timeout: 30000 }, async () => {
  await run('worldborder center 100 -50')
  await run('worldborder set 300')
  await run('worldborder warning distance 7')
  assert.match(await run('save-all flush'), /Saving the game/)
  const file = path.join(srv.dir, 'world', 'level.dat')
  let data
  await h.waitFor(async () => {
    const { parsed } = await require('prismarine-nbt').parse(zlib.gunzipSync(fs.readFileSync(file)))
    data = parsed.value.Data.value
    return data.BorderSize && data.BorderSize.value === 300
  }, { timeout: 5000, message: 'level.dat with the border' })
  assert.deepEqual([data.BorderCenterX.value, data.BorderCenterZ.value], [100.5, -49.5])
  assert.equal(data.BorderCenterX.type, 'double')
  assert.equal(data.BorderWarningBlocks.value, 7)
  assert.equal(data.BorderSizeLerpTime.type, 'long')
  assert.ok(data.GameRules && data.GameRules.value.doDaylightCycle, 'the game rules are still there')
  await W.quit()
  rcon.close()
  rcon = null
  assert.equal((await srv.stop(5000)).code, 0)
  const srv2 = await u.startIn(srv.dir, { name: 'cmd-border-2' })
  assert.match(srv2.output(), /world border: 300\.0 blocks wide around 100\.5, -49\.5/)
  srv2.send('worldborder get')
  await srv2.waitOutput(/The world border is currently 300 block\(s\) wide/, { timeout: 3000 })
  const B = h.makeBot(srv2.port, 'Later')
  const recB = mp.recorder(B, ['initialize_world_border'])
  await B.waitSpawn(15000)
  const init = await recB.waitPacket('initialize_world_border')
  assert.deepEqual([init.x, init.z, init.newDiameter, init.warningBlocks], [100.5, -49.5, 300, 7])
  await B.quit()
  const info2 = await srv2.stop(5000)
  assert.equal(info2.code, 0, 'a clean exit')
  u.assertNoSanitizerReport(assert, srv)
  u.assertNoSanitizerReport(assert, srv2)
})
