'use strict'
// Issue "Persistence" (#6), what a player notices:
//   1. a bot places 100 blocks, the server is stopped with `stop` and
//      started again in the same folder: a new bot finds the same 100
//      blocks, and the player comes back where it left, in the game mode
//      /gamemode gave it (the server default is survival), with its
//      inventory;
//   2. a second server on the same world folder refuses to start, naming
//      session.lock, and leaves the running one alone;
//   3. save-off / save-on / save-all on the console: nothing is written
//      while saving is off, save-all still saves.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const h = require('./helpers')
const u = require('./persist-util')
const { Vec3 } = require('vec3')

after(async () => {
  await h.cleanupAll()
  await u.cleanup()
})

const BLOCKS = ['stone', 'oak_planks', 'glass', 'bricks', 'oak_log']

/** 100 positions: a 5×5 grid east of `base`, 4 layers, bottom layer first. */
function positions (base) {
  const out = []
  for (let layer = 0; layer < 4; layer++) {
    for (let dx = 2; dx <= 6; dx++) {
      for (let dz = -2; dz <= 2; dz++) out.push(new Vec3(base.x + dx, base.y + layer, base.z + dz))
    }
  }
  return out
}

test('100 placed blocks, the position, the game mode and the inventory survive `stop` and a restart', { timeout: 85000 }, async () => {
  const srv = await h.startServer({
    name: 'persist',
    props: { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '4' }
  })
  u.attachConsole(srv)
  const A = h.makeBot(srv.port, 'Keeper')
  await A.waitSpawn(15000)
  const a = A.bot
  assert.equal(a.game.gameMode, 'survival', 'the server default is survival')
  // mineflayer 4.25 misses Game Event "change game mode" on 1.20.1 (it compares
  // the reason with 3, node-minecraft-protocol maps it to a string): watch
  // the packet itself.
  let modePacket = null
  a._client.on('game_state_change', (p) => {
    if (p.reason === 'change_game_mode' || p.reason === 3) modePacket = p
  })
  srv.send('gamemode creative Keeper')
  await h.waitFor(() => modePacket && modePacket.gameMode === 1, { timeout: 5000, message: 'Game Event: game mode 1 after /gamemode' })
  a.game.gameMode = 'creative'

  const base = a.entity.position.floored()
  const pos = positions(base)
  await u.waitColumn(a, pos[pos.length - 1])
  const placed = new Map()
  for (let i = 0; i < pos.length; i++) {
    const name = BLOCKS[Math.floor(i / 5) % BLOCKS.length]
    await u.placeAt(a, pos[i], name)
    placed.set(pos[i].toString(), { pos: pos[i], name, state: a.blockAt(pos[i]).stateId })
  }
  assert.equal(placed.size, 100)

  // Something in the main inventory too (slot 10 of the player window).
  const Item = require('prismarine-item')(a.registry)
  await a.creative.setInventorySlot(10, new Item(a.registry.itemsByName.diamond_block.id, 7))
  const held = a.inventory.slots[36]
  assert.ok(held, 'the hotbar holds the last block placed')

  // Leave somewhere other than the spawn, then stop the server from its console.
  const dest = new Vec3(base.x - 3.5, base.y, base.z - 4.5)
  await h.withTimeout(a.creative.flyTo(dest), 15000, 'fly to the leaving spot')
  a.creative.stopFlying()
  await h.sleep(300)
  const left = a.entity.position.clone()
  const from = srv.output().length
  srv.send('stop')
  const info = await srv.waitExit(15000)
  assert.ok(info, 'the server exits after `stop`\n' + srv.describe())
  assert.equal(info.code, 0, srv.describe())
  u.assertNoSanitizerReport(assert, srv)
  assert.match(srv.output().slice(from), /Saved the game/, 'the final save is logged')
  await A.waitEnd(5000)

  const world = path.join(srv.dir, 'world')
  assert.ok(fs.existsSync(path.join(world, 'level.dat')), 'level.dat written')
  const uuid = h.offlineUuid('Keeper').toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
  assert.ok(fs.existsSync(path.join(world, 'playerdata', uuid + '.dat')), 'playerdata/<uuid>.dat written')

  // Restart in the same folder.
  const srv2 = await u.startIn(srv.dir, { name: 'persist-2' })
  assert.doesNotMatch(srv2.output(), /corrupt|cannot read/i, srv2.describe())
  const B = h.makeBot(srv2.port, 'Keeper')
  let firstPos = null
  B.bot._client.once('position', (p) => { firstPos = new Vec3(p.x, p.y, p.z) })
  await B.waitSpawn(15000)
  const b = B.bot
  assert.ok(firstPos, 'got a position packet')
  assert.ok(Math.abs(firstPos.x - left.x) < 0.01 && Math.abs(firstPos.z - left.z) < 0.01 &&
    Math.abs(firstPos.y - left.y) < 0.01, `rejoined at ${firstPos}, left at ${left}`)
  assert.equal(b.game.gameMode, 'creative', 'the game mode set by /gamemode survived')
  await h.waitFor(() => b.inventory.slots[10] && b.inventory.slots[36], { timeout: 5000, message: 'inventory restored' })
  assert.equal(b.inventory.slots[10].name, 'diamond_block')
  assert.equal(b.inventory.slots[10].count, 7)
  assert.equal(b.inventory.slots[36].name, held.name)
  assert.equal(b.inventory.slots[36].count, held.count)
  for (const { pos: p } of placed.values()) await u.waitColumn(b, p)
  const wrong = []
  for (const { pos: p, name, state } of placed.values()) {
    const blk = b.blockAt(p)
    if (!blk || blk.name !== name || blk.stateId !== state) wrong.push(`${p}: ${blk && blk.name} (want ${name})`)
  }
  assert.deepEqual(wrong, [], 'every placed block is back after the restart')
  await B.quit()
  const info2 = await srv2.stop(10000)
  assert.equal(info2.code, 0, srv2.describe())
  u.assertNoSanitizerReport(assert, srv2)
  h.assertNoClientProtocolErrors(assert)
})

test('a second server on the same world folder stops with a clear message', { timeout: 30000 }, async () => {
  const srv = await h.startServer({ name: 'lock', props: { 'level-type': 'flat' } })
  // Same folder, another port: only the lock can stop it.
  const props = fs.readFileSync(srv.propsPath, 'utf8').replace(/^server-port=\d+$/m, `server-port=${await h.freePort()}`)
  const other = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'mcserv-e2e-lock2-'))
  try {
    fs.writeFileSync(path.join(other, 'server.properties'), props.replace(/^level-name=.*$/m, '') +
      `\nlevel-name=${path.join(srv.dir, 'world')}\n`)
    const second = await u.startIn(other, { name: 'lock-2', waitReady: false })
    const info = await second.waitExit(10000)
    assert.ok(info, 'the second server exits')
    assert.notEqual(info.code, 0)
    assert.match(second.output(), /in use by another server.*session\.lock/, second.output())
    u.assertNoSanitizerReport(assert, second)
    assert.ok(!srv.exited, 'the first server keeps running')
  } finally {
    fs.rmSync(other, { recursive: true, force: true })
  }
  const info = await srv.stop(10000)
  assert.equal(info.code, 0)
})

test('save-off writes nothing, save-all still saves, save-on resumes', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'saveoff', props: { 'level-type': 'flat', gamemode: 'creative', 'view-distance': '2', 'autosave-interval': '1' } })
  u.attachConsole(srv)
  const A = h.makeBot(srv.port, 'Toggler')
  await A.waitSpawn(15000)
  const a = A.bot
  const region = path.join(srv.dir, 'world', 'region')
  await srv.waitOutput(/Autosave: \d+ chunks/, { timeout: 10000 })
  let from = srv.output().length
  srv.send('save-off')
  await srv.waitOutput(/Automatic saving is now disabled/, { from })
  await h.sleep(200) // an autosave running at that moment finishes
  const snapshot = () => fs.readdirSync(region).map((f) => {
    const st = fs.statSync(path.join(region, f))
    return `${f}:${st.size}:${st.mtimeMs}`
  }).join(',')
  const before = snapshot()
  const base = a.entity.position.floored()
  await u.placeAt(a, base.offset(2, 0, 0), 'gold_block')
  await h.sleep(2500) // two autosave intervals
  assert.equal(snapshot(), before, 'no region file changed while saving is off')
  from = srv.output().length
  srv.send('save-all flush')
  await srv.waitOutput(/Saved the game/, { from })
  assert.notEqual(snapshot(), before, 'save-all writes even while saving is off')
  from = srv.output().length
  srv.send('save-on')
  await srv.waitOutput(/Automatic saving is now enabled/, { from })
  await A.quit()
  const info = await srv.stop(10000)
  assert.equal(info.code, 0)
  u.assertNoSanitizerReport(assert, srv)
})

h.finalClientErrorCheck(test)
