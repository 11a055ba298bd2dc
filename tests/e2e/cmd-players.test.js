'use strict'
// Issue 17, commands aimed at players, seen by the players' clients
// (mineflayer bots) and answered with vanilla's messages over RCON:
//
//  - tellraw: the component arrives as System Chat, a "selector" component
//    resolved to the names; vanilla's error for a component it would refuse;
//  - title: title, subtitle, actionbar, times, clear, reset packets;
//  - give: the items land in the inventory (stacked as vanilla adds them),
//    "Can't give more than ...", an unknown item;
//  - clear: all, one item, a count, the test form (maxCount 0), "No items
//    were found";
//  - spawnpoint: a /kill'd player respawns there (vanilla's forced spawn,
//    centred on the block); without a valid spot, the world spawn; kept in
//    playerdata/<uuid>.dat with vanilla's Spawn* tags across a rejoin.
//
// One server; bounded waits; 127.0.0.1 only.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const h = require('./helpers')
const mp = require('./mp-helpers')

const PASSWORD = 'e2e-rcon-cmd-players-93f0'
let srv, rcon, A, B, recA, recB

before(async () => {
  const rconPort = await h.freePort()
  srv = await h.startServer({
    name: 'cmd-players',
    props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': PASSWORD, 'view-distance': 3, 'spawn-protection': 0 }
  })
  rcon = await h.rconSession(rconPort, PASSWORD)
  A = h.makeBot(srv.port, 'Alice')
  recA = mp.recorder(A, ['set_title_text', 'set_title_subtitle', 'action_bar', 'set_title_time', 'clear_titles'])
  await A.waitSpawn(15000)
  B = h.makeBot(srv.port, 'Bob')
  recB = mp.recorder(B, ['set_title_subtitle'])
  await B.waitSpawn(15000)
})

after(async () => {
  if (rcon) rcon.close()
  await h.cleanupAll()
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)

test('tellraw: the component as System Chat, selectors resolved; vanilla\'s error', { timeout: 15000 }, async () => {
  let m = recA.mark()
  assert.equal(await run('tellraw Alice {"text":"Hello","color":"gold"}'), '')
  await recA.waitChat(/^Hello$/, { since: m })
  assert.ok(recA.chatJson.some((j) => /"color":"gold"/.test(j) && /Hello/.test(j)), 'the component as written')
  m = recA.mark()
  const mb = recB.mark()
  await run('tellraw @a ["",{"selector":"@a[sort=arbitrary]"}," are here"]')
  await recA.waitChat(/^(Alice, Bob|Bob, Alice) are here$/, { since: m })
  await recB.waitChat(/^(Alice, Bob|Bob, Alice) are here$/, { since: mb })
  m = recA.mark()
  await run('tellraw Alice "plain"')
  await recA.waitChat(/^plain$/, { since: m })
  assert.equal(await run('tellraw Alice {"bold":true}'),
    'Invalid chat component: Don\'t know how to turn {"bold":true} into a Component\n...raw Alice {"bold":true}<--[HERE]')
})

test('title: title, subtitle, actionbar, times, clear and reset reach the clients', { timeout: 15000 }, async () => {
  const m = recA.mark()
  const mb = recB.mark()
  assert.equal(await run('title Alice title {"text":"Welcome","bold":true}'), 'Showing new title for Alice')
  const t = await recA.waitPacket('set_title_text', () => true, { since: m })
  assert.match(t.text, /"text":"Welcome"/)
  assert.equal(await run('title @a subtitle "below"'), 'Showing new subtitle for 2 players')
  await recA.waitPacket('set_title_subtitle', (p) => /below/.test(p.text), { since: m })
  await recB.waitPacket('set_title_subtitle', (p) => /below/.test(p.text), { since: mb })
  assert.equal(await run('title Alice actionbar {"text":"bar"}'), 'Showing new actionbar title for Alice')
  await recA.waitPacket('action_bar', (p) => /bar/.test(p.text), { since: m })
  assert.equal(await run('title Alice times 10 2s 5'), 'Changed title display times for Alice')
  const times = await recA.waitPacket('set_title_time', () => true, { since: m })
  assert.deepEqual([times.fadeIn, times.stay, times.fadeOut], [10, 40, 5])
  assert.equal(await run('title Alice clear'), 'Cleared titles for Alice')
  await recA.waitPacket('clear_titles', (p) => p.reset === false, { since: m })
  assert.equal(await run('title Alice reset'), 'Reset title options for Alice')
  await recA.waitPacket('clear_titles', (p) => p.reset === true, { since: m })
  assert.equal(await run('title Nobody clear'), 'No player was found')
})

const slots = (b) => b.bot.inventory.slots.map((s, i) => s ? `${i}:${s.name}x${s.count}` : null).filter(Boolean).join(' ')
const waitSlots = (b, want, message) => h.waitFor(() => slots(b) === want, {
  timeout: 3000, message: message || `inventory ${want}`, detail: () => `inventory: ${slots(b)}`
})

test('give: items land in the inventory as vanilla stacks them; vanilla\'s limits and errors', { timeout: 15000 }, async () => {
  assert.equal(await run('give Alice diamond 70'), 'Gave 70 [Diamond] to Alice')
  await waitSlots(A, '36:diamondx64 37:diamondx6')
  assert.equal(await run('give Alice minecraft:diamond 10'), 'Gave 10 [Diamond] to Alice')
  await waitSlots(A, '36:diamondx64 37:diamondx16', 'the stack with room first')
  assert.equal(await run('give Alice ender_pearl 20'), 'Gave 20 [Ender Pearl] to Alice')
  await waitSlots(A, '36:diamondx64 37:diamondx16 38:ender_pearlx16 39:ender_pearlx4', 'stacks of 16')
  // vanilla 1.20.1 uses the ".single" message with the number of players
  assert.equal(await run('give @a dirt'), 'Gave 1 [Dirt] to 2')
  await h.waitFor(() => B.bot.inventory.slots[36] && B.bot.inventory.slots[36].name === 'dirt', { timeout: 3000, message: 'Bob got dirt' })
  assert.equal(await run('give Alice diamond 6401'), "Can't give more than 6400 of [Diamond]")
  assert.equal(await run('give Alice diamondx'), "Unknown item 'minecraft:diamondx'\n...ive Alice diamondx<--[HERE]")
  assert.equal(await run('give Alice diamond 0'), 'Integer must not be less than 1, found 0\n...e diamond 0<--[HERE]')
})

test('clear: a count, one item, all, the test form; "No items were found"', { timeout: 15000 }, async () => {
  assert.equal(await run('clear Alice ender_pearl 0'), 'Found 20 matching item(s) on player Alice')
  assert.equal(await run('clear Alice diamond 10'), 'Removed 10 item(s) from player Alice')
  await waitSlots(A, '36:diamondx54 37:diamondx16 38:ender_pearlx16 39:ender_pearlx4 40:dirtx1')
  assert.equal(await run('clear Alice ender_pearl'), 'Removed 20 item(s) from player Alice')
  await waitSlots(A, '36:diamondx54 37:diamondx16 40:dirtx1')
  assert.equal(await run('clear Alice'), 'Removed 71 item(s) from player Alice')
  await waitSlots(A, '')
  assert.equal(await run('clear Alice'), 'No items were found on player Alice')
  assert.equal(await run('clear @a stone'), 'No items were found on 2 players')
  assert.equal(await run('clear @a'), 'Removed 1 item(s) from 2 players')
})

test('spawnpoint: a killed player respawns there; an obstructed point falls back to the world spawn', { timeout: 20000 }, async () => {
  const rec = mp.recorder(A, ['game_state_change'])
  assert.equal(await run('spawnpoint Alice 5 -60 5 90'), 'Set spawn point to 5, -60, 5 [90.0] in minecraft:overworld for Alice')
  await run('kill Alice')
  await h.waitFor(() => A.bot.health > 0 && Math.abs(A.bot.entity.position.x - 5.5) < 0.01 && Math.abs(A.bot.entity.position.z - 5.5) < 0.01, {
    timeout: 8000, message: 'respawned at the spawn point', detail: () => `at ${A.bot.entity.position} health ${A.bot.health}`
  })
  assert.ok(A.bot.entity.position.y > -60.01 && A.bot.entity.position.y < -59.8, `0.1 above the block: y ${A.bot.entity.position.y}`)
  // a stone block in the way: vanilla's "no respawn block" and the world spawn
  assert.equal(await run('setblock 5 -60 5 stone'), 'Changed the block at 5, -60, 5')
  const m = rec.mark()
  await h.sleep(100)
  await run('kill Alice')
  await rec.waitPacket('game_state_change', (p) => p.reason === 0 || p.reason === 'no_respawn_block_available', { since: m, timeout: 8000 })
  await h.waitFor(() => A.bot.health > 0 && Math.abs(A.bot.entity.position.x - 5.5) > 1, {
    timeout: 8000, message: 'respawned at the world spawn', detail: () => `at ${A.bot.entity.position}`
  })
  assert.equal(await run('spawnpoint Alice 0 30000000 0'), 'That position is outside the allowed boundaries.')
  assert.equal(await run('spawnpoint'), 'A player is required to run this command here')
})

test('spawnpoint is kept in the player\'s file with vanilla\'s tags and used after a rejoin', { timeout: 30000 }, async () => {
  assert.equal(await run('spawnpoint Bob 7 -60 -3 45'), 'Set spawn point to 7, -60, -3 [45.0] in minecraft:overworld for Bob')
  await B.quit()
  const uuid = h.offlineUuid('Bob').toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
  const file = path.join(srv.dir, 'world', 'playerdata', `${uuid}.dat`)
  const tags = await h.waitFor(async () => {
    if (!fs.existsSync(file)) return null
    const { parsed } = await require('prismarine-nbt').parse(zlib.gunzipSync(fs.readFileSync(file)))
    return parsed.value.SpawnX ? parsed.value : null
  }, { timeout: 5000, message: 'Bob\'s file with SpawnX' })
  assert.deepEqual([tags.SpawnX.value, tags.SpawnY.value, tags.SpawnZ.value, tags.SpawnAngle.value, tags.SpawnForced.value, tags.SpawnDimension.value],
    [7, -60, -3, 45, 1, 'minecraft:overworld'])
  B = h.makeBot(srv.port, 'Bob')
  await B.waitSpawn(15000)
  await run('kill Bob')
  await h.waitFor(() => B.bot.health > 0 && Math.abs(B.bot.entity.position.x - 7.5) < 0.01 && Math.abs(B.bot.entity.position.z + 2.5) < 0.01, {
    timeout: 8000, message: 'respawned at the saved point', detail: () => `at ${B.bot.entity.position} health ${B.bot.health}`
  })
})

test('the server stops cleanly, with no sanitizer report', { timeout: 15000 }, async () => {
  await A.quit()
  await B.quit()
  rcon.close()
  rcon = null
  const info = await srv.stop(5000)
  assert.equal(info.code, 0)
  assert.doesNotMatch(srv.output(), /AddressSanitizer|LeakSanitizer|runtime error:/, h.tail(srv.output()))
})
