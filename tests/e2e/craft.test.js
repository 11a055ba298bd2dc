'use strict'
// Issue 14, acceptance 2 and 8: inventories and crafting, server-authoritative.
//   1. A survival bot (mineflayer) with three oak logs crafts planks and
//      sticks in its 2x2 grid (bot.craft), crafts a crafting table, places
//      it (bot.placeBlock), crafts a wooden pickaxe in it (bot.craft with the
//      table), mines stone with the pickaxe and holds cobblestone; the
//      pickaxe's durability went down by one (Damage 1 of 59), and still is
//      after the bot leaves and joins again (playerdata tag.Damage).
//   2. A raw client (minecraft-protocol) sends window clicks with a stale
//      state id, slots -5 and 9999, a mode and a button that do not exist,
//      and clicks claiming items it does not hold (changed slots and cursor
//      full of diamonds): its inventory, read back from the server's own
//      Set Container Content, is what it was before (one stack of 5 dirt),
//      and the server logged the refusals.
//   3. Throwing (a stack out of the window, one with Q) makes item entities
//      another bot sees; logs left in the 2x2 grid come back when the
//      inventory closes; a crafting table's window closes, returning its
//      grid, when the table is broken or its player is teleported away.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const { Vec3 } = require('vec3')

after(h.cleanupAll)

test('a survival bot crafts planks, sticks, a table and a wooden pickaxe, mines stone into cobblestone, and the pickaxe wears', { timeout: 120000 }, async () => {
  const srv = await h.startServer({
    name: 'craft',
    props: { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '3', 'spawn-protection': '0' }
  })
  const B = h.makeBot(srv.port, 'Crafter')
  await B.waitSpawn(15000)
  const bot = B.bot
  const reg = bot.registry
  const id = (n) => reg.itemsByName[n].id
  const count = (n) => bot.inventory.count(id(n))
  mp.consoleCmd(srv, 'give Crafter minecraft:oak_log 3')
  await h.waitFor(() => count('oak_log') === 3, { timeout: 5000, message: 'Crafter holds 3 oak logs' })

  // Planks and sticks in the 2x2 grid.
  const planks = bot.recipesFor(id('oak_planks'), null, 1, null)
  assert.ok(planks.length > 0, 'a planks recipe without a table')
  await h.withTimeout(bot.craft(planks[0], 3, null), 15000, 'craft planks')
  await h.waitFor(() => count('oak_planks') === 12 && count('oak_log') === 0, { timeout: 5000, message: '12 planks from 3 logs' })
  const sticks = bot.recipesFor(id('stick'), null, 1, null)
  assert.ok(sticks.length > 0, 'a stick recipe without a table')
  await h.withTimeout(bot.craft(sticks[0], 1, null), 15000, 'craft sticks')
  await h.waitFor(() => count('stick') === 4 && count('oak_planks') === 10, { timeout: 5000, message: '4 sticks from 2 planks' })
  const tableRecipe = bot.recipesFor(id('crafting_table'), null, 1, null)
  await h.withTimeout(bot.craft(tableRecipe[0], 1, null), 15000, 'craft a crafting table')
  await h.waitFor(() => count('crafting_table') === 1 && count('oak_planks') === 6, { timeout: 5000, message: 'a crafting table from 4 planks' })
  // Nothing without a table: a pickaxe needs the 3x3 grid.
  assert.equal(bot.recipesFor(id('wooden_pickaxe'), null, 1, null).length, 0)

  // Place the table two blocks east, on the floor.
  const base = bot.entity.position.floored()
  const floor = bot.blockAt(base.offset(2, -1, 0))
  await bot.equip(id('crafting_table'), 'hand')
  await h.withTimeout(bot.placeBlock(floor, new Vec3(0, 1, 0)), 10000, 'place the crafting table')
  const table = bot.blockAt(base.offset(2, 0, 0))
  assert.equal(table.name, 'crafting_table')
  await h.waitFor(() => count('crafting_table') === 0, { timeout: 3000, message: 'the table left the inventory' })

  // The pickaxe in the table's 3x3 grid.
  const pick = bot.recipesFor(id('wooden_pickaxe'), null, 1, table)
  assert.ok(pick.length > 0, 'a pickaxe recipe with the table')
  await h.withTimeout(bot.craft(pick[0], 1, table), 15000, 'craft a wooden pickaxe')
  await h.waitFor(() => count('wooden_pickaxe') === 1 && count('oak_planks') === 3 && count('stick') === 2, {
    timeout: 5000, message: 'a wooden pickaxe from 3 planks and 2 sticks'
  })
  assert.equal(bot.currentWindow, null, 'bot.craft closed the table')

  // Mine stone with it: cobblestone, and the pickaxe loses one durability.
  const stone = base.offset(-2, 0, 0)
  mp.consoleCmd(srv, `setblock ${stone.x} ${stone.y} ${stone.z} minecraft:stone`)
  await h.waitFor(() => bot.blockAt(stone) && bot.blockAt(stone).name === 'stone', { timeout: 5000, message: 'the stone is there' })
  await bot.equip(id('wooden_pickaxe'), 'hand')
  assert.equal(bot.heldItem.durabilityUsed, 0)
  await h.withTimeout(bot.dig(bot.blockAt(stone)), 10000, 'dig the stone')
  await h.waitFor(() => bot.heldItem && bot.heldItem.name === 'wooden_pickaxe' && bot.heldItem.durabilityUsed === 1, {
    timeout: 5000, message: 'the pickaxe shows Damage 1', detail: () => JSON.stringify(bot.heldItem)
  })
  await h.walkTo(bot, stone.offset(0.5, 0, 0.5))
  await h.waitFor(() => count('cobblestone') === 1, { timeout: 5000, message: 'Crafter holds 1 cobblestone' })
  await B.quit()

  // The wear is kept in the player's data (tag.Damage) across a rejoin.
  const B2 = h.makeBot(srv.port, 'Crafter')
  await B2.waitSpawn(15000)
  const pickAgain = () => B2.bot.inventory.items().find((it) => it.name === 'wooden_pickaxe')
  await h.waitFor(() => pickAgain() && pickAgain().durabilityUsed === 1, {
    timeout: 5000, message: 'the rejoined Crafter holds the pickaxe with Damage 1', detail: () => JSON.stringify(B2.bot.inventory.items())
  })
  await B2.quit()
  await srv.stop()
})

test('a raw client clicking with stale state ids, slots that do not exist and items it does not hold gains nothing', { timeout: 60000 }, async () => {
  const srv = await h.startServer({
    name: 'clicks',
    props: { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '2', 'spawn-protection': '0' }
  })
  const mc = require('minecraft-protocol')
  const client = mc.createClient({ host: '127.0.0.1', port: srv.port, username: 'Clicker', version: '1.20.1', auth: 'offline' })
  let stateId = 0
  let content = null
  const slots = new Array(46).fill(null)
  client.on('window_items', (p) => {
    if (p.windowId !== 0) return
    stateId = p.stateId
    content = p.items
    p.items.forEach((it, i) => { slots[i] = it && it.present !== false && it.itemCount ? it : null })
  })
  client.on('set_slot', (p) => {
    stateId = p.stateId
    if (p.windowId === 0 && p.slot >= 0 && p.slot < 46) slots[p.slot] = p.item && p.item.itemCount ? p.item : null
  })
  const pos = await new Promise((resolve, reject) => { client.once('position', resolve); client.once('error', reject) })
  client.write('teleport_confirm', { teleportId: pos.teleportId })
  await h.sleep(200)
  const dirt = require('minecraft-data')('1.20.1').itemsByName.dirt.id
  const diamond = require('minecraft-data')('1.20.1').itemsByName.diamond.id
  mp.consoleCmd(srv, 'give Clicker minecraft:dirt 5')
  await h.waitFor(() => slots[36] && slots[36].itemId === dirt && slots[36].itemCount === 5, { timeout: 5000, message: '5 dirt in the first hotbar slot' })
  const held = (n) => ({ present: true, itemId: diamond, itemCount: n, nbtData: undefined })
  const click = (o) => client.write('window_click', Object.assign({ windowId: 0, stateId, slot: 36, mouseButton: 0, mode: 0, changedSlots: [], cursorItem: { present: false } }, o))
  const resync = async (why) => {
    content = null
    click({ stateId: stateId + 1000, slot: -999, mode: 0, mouseButton: 0 }) // stale: nothing carried, nothing thrown
    await h.waitFor(() => content !== null, { timeout: 3000, message: `Set Container Content after ${why}` })
    const items = content.map((it, i) => it && it.present !== false && it.itemCount ? `${i}:${it.itemId}x${it.itemCount}` : null).filter(Boolean)
    return items
  }
  const before = await resync('the first stale click')
  assert.deepEqual(before, [`36:${dirt}x5`])

  // A stale click claiming diamonds in slot 9 and on the cursor.
  click({ stateId: stateId + 7, slot: 9, changedSlots: [{ location: 9, item: held(64) }], cursorItem: held(64) })
  await h.waitFor(() => /Clicker: window click refused \(claims to carry an item it does not have/.test(srv.stderr()), {
    timeout: 3000, message: 'the claimed diamonds logged', detail: () => srv.stderr().slice(-2000)
  })
  await h.sleep(1100) // refusals are logged at most once a second per player
  // Slots that do not exist, a mode and a button that do not exist.
  click({ slot: -5 })
  click({ slot: 9999, changedSlots: [{ location: 9999, item: held(64) }] })
  click({ slot: 10, mode: 9 })
  click({ slot: 10, mode: 2, mouseButton: 33 })
  // Current state id, an empty slot, a cursor it does not have: put "them" down.
  click({ slot: 10, changedSlots: [{ location: 10, item: held(64) }], cursorItem: { present: false } })
  click({ slot: 11, changedSlots: [{ location: 11, item: held(32) }], cursorItem: held(32) })
  // Throw from an empty slot, double click with a claimed cursor, shift-click the empty result.
  click({ slot: 12, mode: 4, mouseButton: 1 })
  click({ slot: 13, mode: 6, cursorItem: held(1) })
  click({ slot: 0, mode: 1 })
  // Drag diamonds it does not carry over three slots.
  click({ slot: -999, mode: 5, mouseButton: 0 })
  click({ slot: 20, mode: 5, mouseButton: 1 })
  click({ slot: 21, mode: 5, mouseButton: 1 })
  click({ slot: -999, mode: 5, mouseButton: 2, cursorItem: held(64) })
  await h.sleep(300)
  const afterClicks = await resync('the hostile clicks')
  assert.deepEqual(afterClicks, before, 'the inventory did not change')
  assert.ok(Object.values(slots).every((s) => !s || s.itemId !== diamond), 'no diamond anywhere')
  await h.waitFor(() => /Clicker: window click refused \(no such slot; slot -5/.test(srv.stderr()), {
    timeout: 3000, message: 'the refusal logged', detail: () => srv.stderr().slice(-2000)
  })
  // A real click still works: pick the dirt up and put it in slot 9.
  click({ slot: 36 })
  click({ slot: 9 })
  const moved = await resync('moving the dirt')
  assert.deepEqual(moved, [`9:${dirt}x5`])
  client.end()
  await srv.stop()
})

test('throwing, closing the inventory with logs in the grid, and a table window that closes when broken or left', { timeout: 90000 }, async () => {
  const srv = await h.startServer({
    name: 'windows',
    props: { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '3', 'spawn-protection': '0' }
  })
  const T = h.makeBot(srv.port, 'Tosser')
  const W = h.makeBot(srv.port, 'Watcher')
  await Promise.all([T.waitSpawn(15000), W.waitSpawn(15000)])
  const bot = T.bot
  const reg = bot.registry
  const id = (n) => reg.itemsByName[n].id
  const count = (n) => bot.inventory.count(id(n))
  const dropped = (b, name) => Object.values(b.entities).filter((e) => e.name === 'item' && e.getDroppedItem && e.getDroppedItem() && e.getDroppedItem().name === name)
  mp.consoleCmd(srv, 'give Tosser minecraft:dirt 3')
  mp.consoleCmd(srv, 'give Tosser minecraft:oak_log 5')
  await h.waitFor(() => count('dirt') === 3 && count('oak_log') === 5, { timeout: 5000, message: 'Tosser holds 3 dirt and 5 logs' })

  // Toss the whole dirt stack out of the inventory window: one item entity
  // of 3 dirt, seen by the other bot; the inventory has none.
  await bot.look(0, -0.3, true)
  await h.withTimeout(bot.tossStack(bot.inventory.findInventoryItem(id('dirt'))), 5000, 'toss the dirt')
  await h.waitFor(() => dropped(W.bot, 'dirt').length === 1, { timeout: 5000, message: 'Watcher sees the thrown dirt' })
  assert.equal(dropped(W.bot, 'dirt')[0].getDroppedItem().count, 3)
  assert.equal(count('dirt'), 0)

  // Q with two stone in the hand (Player Action 4, drop one): one thrown, one held.
  mp.consoleCmd(srv, 'give Tosser minecraft:stone 2')
  await h.waitFor(() => count('stone') === 2, { timeout: 5000, message: 'Tosser holds 2 stone' })
  await bot.equip(id('stone'), 'hand')
  bot._client.write('block_dig', { status: 4, location: { x: 0, y: 0, z: 0 }, face: 0, sequence: 0 })
  await h.waitFor(() => dropped(W.bot, 'stone').length === 1, { timeout: 5000, message: 'Watcher sees the stone dropped with Q' })
  await h.sleep(300)
  const stoneCount = () => { mp.consoleCmd(srv, 'clear Tosser minecraft:stone 0') }
  const mark = srv.output().length
  stoneCount()
  await h.waitFor(() => /Found 1 matching item/.test(srv.output().slice(mark - 2000)), { timeout: 3000, message: 'the server counts 1 stone left' })

  // Logs put into the 2x2 grid: the result shows planks; closing the
  // inventory brings the logs back and nothing else appears.
  const logs = bot.inventory.findInventoryItem(id('oak_log'))
  await bot.clickWindow(logs.slot, 0, 0)
  await bot.clickWindow(1, 0, 0)
  await h.waitFor(() => bot.inventory.slots[0] && bot.inventory.slots[0].name === 'oak_planks', { timeout: 3000, message: 'the result slot shows planks' })
  bot.closeWindow(bot.inventory)
  await h.waitFor(() => count('oak_log') === 5 && !bot.inventory.slots[1] && !bot.inventory.slots[0], {
    timeout: 3000, message: 'the logs back in the inventory', detail: () => JSON.stringify(bot.inventory.slots.slice(0, 5))
  })
  assert.equal(count('oak_planks'), 0)
  const cleared = srv.stderr().length
  mp.consoleCmd(srv, 'clear Tosser minecraft:oak_log 0')
  await h.waitFor(() => /Found 5 matching item/.test(srv.output().slice(cleared - 2000)), { timeout: 3000, message: 'the server counts 5 logs' })

  // A crafting table window closes when the table is broken ...
  const base = bot.entity.position.floored()
  const at = base.offset(2, 0, 0)
  mp.consoleCmd(srv, `setblock ${at.x} ${at.y} ${at.z} minecraft:crafting_table`)
  await h.waitFor(() => bot.blockAt(at) && bot.blockAt(at).name === 'crafting_table', { timeout: 3000, message: 'the table is there' })
  const open = async () => {
    bot.activateBlock(bot.blockAt(at))
    const [win] = await h.withTimeout(require('events').once(bot, 'windowOpen'), 5000, 'the table window opens')
    assert.equal(win.type, 'minecraft:crafting')
    return win
  }
  await open()
  const logs2 = bot.currentWindow.findInventoryItem(id('oak_log'))
  await bot.clickWindow(logs2.slot, 0, 0)
  await bot.clickWindow(5, 0, 0) // the centre of the 3x3 grid
  const closed = h.withTimeout(require('events').once(bot, 'windowClose'), 5000, 'the window closes when the table is broken')
  mp.consoleCmd(srv, `setblock ${at.x} ${at.y} ${at.z} minecraft:air`)
  await closed
  await h.waitFor(() => count('oak_log') === 5, { timeout: 3000, message: 'the logs in the grid came back' })
  // ... and when its player goes more than 8 blocks away.
  mp.consoleCmd(srv, `setblock ${at.x} ${at.y} ${at.z} minecraft:crafting_table`)
  await h.waitFor(() => bot.blockAt(at) && bot.blockAt(at).name === 'crafting_table', { timeout: 3000, message: 'the table is back' })
  await open()
  const left = h.withTimeout(require('events').once(bot, 'windowClose'), 5000, 'the window closes past 8 blocks')
  mp.consoleCmd(srv, `tp Tosser ${base.x + 12} ${base.y} ${base.z}`)
  await left
  assert.equal(count('oak_log'), 5)
  await T.quit()
  await W.quit()
  await srv.stop()
})
