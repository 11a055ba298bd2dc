'use strict'
// Issue 14, acceptance 1: item entities and block drops, with two mineflayer
// bots in survival on a flat world.
//   1. Digger breaks three oak logs by hand (bot.dig): three item entities
//      (mineflayer name 'item', holding oak_log) appear for it and for
//      Watcher; Digger walks over them and holds 3 oak logs, and both
//      clients saw the items go (Take Item Entity, Remove Entities).
//   2. Breaking stone by hand drops nothing: no item entity appears.
//   3. Two equal drops lying together merge into one stack of 2.
// Test 2, summon item and the "no news" rule of game/items.c (a standing
// player and a resting item are looked at only when one of them changed):
//   1. An item summoned at a standing bot's feet with PickupDelay 40 is
//      taken once the delay runs out, without the bot moving.
//   2. With a full inventory (give overflow lands on the ground as an item)
//      the standing bot takes nothing; `clear` frees room and it takes the
//      item without moving.
//   3. A bot joining later sees the items already lying there.
//   4. summon item without an Item, or with an unknown id, fails.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const { Vec3 } = require('vec3')

after(h.cleanupAll)

const items = (bot) => Object.values(bot.entities).filter((e) => e.name === 'item')
const itemName = (e) => {
  const it = e.getDroppedItem && e.getDroppedItem()
  return it ? it.name : null
}

test('oak logs broken by hand drop items both bots see; walking over them gives 3 oak logs; stone by hand drops nothing; equal drops merge', { timeout: 90000 }, async () => {
  const srv = await h.startServer({
    name: 'items',
    props: { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '3', 'spawn-protection': '0' }
  })
  const D = h.makeBot(srv.port, 'Digger')
  const W = h.makeBot(srv.port, 'Watcher')
  await Promise.all([D.waitSpawn(15000), W.waitSpawn(15000)])
  const d = D.bot
  const w = W.bot
  const collects = { Digger: [], Watcher: [] }
  d._client.on('collect', (p) => collects.Digger.push(p))
  w._client.on('collect', (p) => collects.Watcher.push(p))
  assert.equal(d.game.gameMode, 'survival')
  const base = d.entity.position.floored()

  // Three logs four blocks east (their items hop up to 1.5 blocks: still out
  // of pickup reach), five apart so that their items never merge, and stone
  // three blocks west.
  const logs = [-5, 0, 5].map((dz) => new Vec3(base.x + 4, base.y, base.z + dz))
  for (const p of logs) mp.consoleCmd(srv, `setblock ${p.x} ${p.y} ${p.z} minecraft:oak_log`)
  const stone = new Vec3(base.x - 3, base.y, base.z)
  mp.consoleCmd(srv, `setblock ${stone.x} ${stone.y} ${stone.z} minecraft:stone`)
  await h.waitFor(() => logs.every((p) => d.blockAt(p) && d.blockAt(p).name === 'oak_log') &&
    d.blockAt(stone) && d.blockAt(stone).name === 'stone', {
    timeout: 5000, message: 'Digger sees the logs and the stone'
  })
  assert.equal(d.heldItem, null, 'Digger digs by hand')
  assert.equal(d.inventory.count(d.registry.itemsByName.oak_log.id), 0)

  // 1. Dig the logs by hand; each drops one item entity, seen by both bots.
  for (const p of logs) {
    await h.withTimeout(d.dig(d.blockAt(p)), 10000, `dig the log at ${p}`)
  }
  for (const [bot, who] of [[d, 'Digger'], [w, 'Watcher']]) {
    await h.waitFor(() => items(bot).length === 3, {
      timeout: 5000,
      message: `${who} sees three item entities`,
      detail: () => `${who} sees ${items(bot).map((e) => `${itemName(e)}@${e.position}`).join(', ')}\n${srv.describe()}`
    })
    assert.deepEqual(items(bot).map(itemName), ['oak_log', 'oak_log', 'oak_log'], `${who}: the items are oak logs`)
  }
  // They fell to the floor, near the blocks they came from.
  await h.sleep(1500)
  for (const e of items(w)) {
    assert.ok(Math.abs(e.position.y - base.y) < 0.05, `the item rests on the floor (y ${e.position.y}, floor ${base.y})`)
    assert.ok(Math.abs(e.position.x - (base.x + 4.5)) < 1.6, `the item lies by its log (x ${e.position.x})`)
  }
  assert.equal(d.inventory.count(d.registry.itemsByName.oak_log.id), 0, 'nothing picked up from afar')

  // 2. Stone by hand: it breaks, but nothing drops.
  await h.withTimeout(d.dig(d.blockAt(stone)), 15000, 'dig the stone')
  await h.waitFor(() => w.blockAt(stone) && w.blockAt(stone).name === 'air', { timeout: 5000, message: 'Watcher sees the stone gone' })
  await h.sleep(1000)
  assert.equal(items(d).length, 3, 'no item entity for stone broken by hand (Digger)')
  assert.equal(items(w).length, 3, 'no item entity for stone broken by hand (Watcher)')

  // 3. Walk over the items: Digger holds 3 oak logs, both clients see them collected.
  for (const e of items(d).slice()) {
    if (!d.entities[e.id]) continue // already collected on the way
    await h.walkTo(d, e.position)
  }
  const logId = d.registry.itemsByName.oak_log.id
  await h.waitFor(() => d.inventory.count(logId) === 3, {
    timeout: 5000,
    message: 'Digger holds 3 oak logs',
    detail: () => `inventory: ${d.inventory.items().map((i) => `${i.name}x${i.count}@${i.slot}`).join(', ')}`
  })
  assert.ok(d.inventory.slots.slice(36, 45).some((s) => s && s.name === 'oak_log' && s.count === 3), 'the logs stack in the hotbar')
  await h.waitFor(() => items(d).length === 0 && items(w).length === 0, {
    timeout: 5000, message: 'the items are gone for both bots'
  })
  assert.equal(collects.Digger.length, 3, 'Digger saw three pickups')
  assert.equal(collects.Watcher.length, 3, 'Watcher saw three pickups')
  for (const c of collects.Watcher) assert.equal(c.collectorEntityId, d.entity.id)
  assert.equal(w.inventory.count(logId), 0, 'Watcher took nothing')

  // 4. Merging: two birch logs stacked in a pit one block wide (stone walls
  //    three high, so their items cannot hop apart), broken top then bottom:
  //    the two items lie in the same column and merge into one stack of 2.
  const pit = new Vec3(base.x - 4, base.y, base.z + 4)
  for (const [dx, dz] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    mp.consoleCmd(srv, `fill ${pit.x + dx} ${pit.y} ${pit.z + dz} ${pit.x + dx} ${pit.y + 2} ${pit.z + dz} minecraft:stone`)
  }
  const birch = [pit.offset(0, 1, 0), pit]
  for (const p of birch) mp.consoleCmd(srv, `setblock ${p.x} ${p.y} ${p.z} minecraft:birch_log`)
  await h.waitFor(() => birch.every((p) => d.blockAt(p) && d.blockAt(p).name === 'birch_log'), {
    timeout: 5000, message: 'Digger sees the birch logs in the pit'
  })
  for (const p of birch) await h.withTimeout(d.dig(d.blockAt(p)), 10000, `dig the birch log at ${p}`)
  const birches = (bot) => items(bot).filter((e) => itemName(e) === 'birch_log')
  for (const [bot, who] of [[d, 'Digger'], [w, 'Watcher']]) {
    await h.waitFor(() => birches(bot).length === 1 && birches(bot)[0].getDroppedItem().count === 2, {
      timeout: 5000,
      message: `${who} sees the two birch logs merged into one stack of 2`,
      detail: () => `${who} sees ${birches(bot).map((e) => `${e.getDroppedItem().count}@${e.position}`).join(', ')}`
    })
  }

  await Promise.all([D.quit(), W.quit()])
  h.assertNoClientProtocolErrors(assert)
})

test('summon item; a standing player takes an item when its delay runs out or its inventory gets room; late joiners see lying items', { timeout: 90000 }, async () => {
  const srv = await h.startServer({
    name: 'items-news',
    props: { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '3', 'spawn-protection': '0' }
  })
  const S = h.makeBot(srv.port, 'Stander')
  await S.waitSpawn(15000)
  const s = S.bot
  await h.sleep(1000) // settled on the floor: from now on it does not move
  const at = s.entity.position
  const pos = `${at.x.toFixed(2)} ${at.y.toFixed(2)} ${at.z.toFixed(2)}`
  const count = (name) => s.inventory.count(s.registry.itemsByName[name].id)

  // 1. The delay runs out while nobody moves.
  mp.consoleCmd(srv, `summon item ${pos} {Item:{id:"minecraft:diamond",Count:3b},PickupDelay:40s}`)
  await h.waitFor(() => items(s).length === 1, { timeout: 5000, message: 'Stander sees the summoned diamonds' })
  await h.sleep(1000)
  assert.equal(count('diamond'), 0, 'not taken before the delay (40 ticks) ran out')
  await h.waitFor(() => count('diamond') === 3, { timeout: 5000, message: 'Stander takes the 3 diamonds without moving' })
  assert.ok(s.entity.position.distanceTo(at) < 0.01, 'Stander did not move')

  // 2. A full inventory: 36 stacks of stone, and one more that lands on the
  //    ground (give's overflow); the standing bot cannot take it.
  mp.consoleCmd(srv, 'clear Stander')
  mp.consoleCmd(srv, 'give Stander minecraft:stone 2368')
  await h.waitFor(() => count('stone') === 2304 && items(s).length === 1, {
    timeout: 5000,
    message: 'Stander holds 36 stacks of stone and one more lies on the ground',
    detail: () => `stone ${count('stone')}, items ${items(s).map((e) => `${itemName(e)}x${e.getDroppedItem().count}@${e.position}`)}`
  })
  mp.consoleCmd(srv, `summon item ${pos} {Item:{id:"minecraft:oak_planks",Count:1b}}`)
  await h.waitFor(() => items(s).length === 2, { timeout: 5000, message: 'Stander sees the planks' })
  await h.sleep(1500)
  assert.equal(count('oak_planks'), 0, 'a full inventory takes nothing')
  mp.consoleCmd(srv, 'clear Stander minecraft:stone 128') // room for the planks even if the thrown stone is in reach
  await h.waitFor(() => count('oak_planks') === 1, { timeout: 5000, message: 'with room, Stander takes the planks without moving' })

  // 3. A late joiner sees what lies there (the stone thrown by give, far
  //    enough from Stander's feet that it stays, and a summoned stack).
  mp.consoleCmd(srv, `summon item ${(at.x + 6).toFixed(2)} ${at.y.toFixed(2)} ${at.z.toFixed(2)} {Item:{id:"minecraft:apple",Count:5b}}`)
  const L = h.makeBot(srv.port, 'Latecomer')
  await L.waitSpawn(15000)
  await h.waitFor(() => items(L.bot).some((e) => itemName(e) === 'apple' && e.getDroppedItem().count === 5), {
    timeout: 5000, message: 'Latecomer sees the 5 apples lying there'
  })

  // 4. Bad summons.
  const before = srv.output().length
  mp.consoleCmd(srv, 'summon item ~ ~ ~')
  mp.consoleCmd(srv, 'summon item 0 -60 0 {Item:{id:"minecraft:no_such_thing",Count:1b}}')
  await h.waitFor(() => (srv.output().slice(before).match(/Unable to summon entity/g) || []).length === 2, {
    timeout: 5000, message: 'both bad summons fail with commands.summon.failed'
  })

  await Promise.all([S.quit(), L.quit()])
  h.assertNoClientProtocolErrors(assert)
})
