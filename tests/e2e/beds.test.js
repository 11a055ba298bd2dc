'use strict'
// Issue 21, beds (acceptance 6: "Two bots sleep in beds at night: the time
// jumps to morning"), seen by two mineflayer bots on a flat survival world:
//   1. Alice places a red bed facing south: the foot where she clicked, the
//      head one block further south (Bob sees both halves, part and
//      facing); a bed whose head cell is taken is not placed.
//   2. In the day, using the bed sets her respawn point ("Respawn point set",
//      block.minecraft.set_spawn, in chat) and refuses sleep on the action
//      bar (block.minecraft.bed.no_sleep).
//   3. At night (`time set 13000`) in the rain, Alice and Bob sleep: each is
//      told on the action bar how many sleep (sleep.players_sleeping 1/2,
//      then sleep.skipping_night), Bob sees Alice lie down (pose SLEEPING /
//      sleeping position: mineflayer's entitySleep) and her bed occupied;
//      after 100 ticks asleep the time jumps to the morning, the rain stops,
//      both wake (Entity Animation 2) and the beds are free.
//   4. Alice, killed far away (RCON `kill`), respawns beside her bed.
//   5. Bob breaks the foot of his bed: both halves go, one bed item drops;
//      Alice's bed's head set to air by RCON takes its foot along;
//      killed, he respawns at the world spawn, told his bed is gone
//      (Game Event 0, no_respawn_block_available).
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const { Vec3 } = require('vec3')

let srv, rcon, A, B

before(async () => {
  ({ srv, rcon } = await h.flatRconServer('beds'))
  A = h.makeBot(srv.port, 'Alice')
  B = h.makeBot(srv.port, 'Bob')
  await Promise.all([A.waitSpawn(15000), B.waitSpawn(15000)])
})

after(async () => {
  await h.closeFlatRconServer(srv, rcon, [A, B])
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)

// Game events by name (minecraft-data maps the reason: mineflayer's own
// rain and spawnReset handlers look for numbers and miss them).
function recordEvents (bot) {
  const got = { raining: false, events: [] }
  bot._client.on('game_state_change', (p) => {
    got.events.push(p.reason)
    if (p.reason === 'start_raining') got.raining = true
    if (p.reason === 'stop_raining') got.raining = false
  })
  return got
}

// Every system chat message a bot gets: { key, args, bar }.
function recordChat (bot) {
  const got = []
  bot._client.on('system_chat', (p) => {
    let c
    try { c = JSON.parse(p.content) } catch (e) { return }
    got.push({ key: c.translate, args: (c.with || []).map(h.chatText), bar: p.isActionBar })
  })
  return got
}

let aChat, bChat, aEv, bEv, base, aliceFoot, aliceHead, bobFoot, bobHead

test('a bed is placed as two halves facing the player; not where the head cannot go', { timeout: 20000 }, async () => {
  const a = A.bot
  const b = B.bot
  aChat = recordChat(a)
  bChat = recordChat(b)
  aEv = recordEvents(a)
  bEv = recordEvents(b)
  await run('gamerule doMobSpawning false') // no monster may keep anyone awake
  assert.match(await run('gamerule playersSleepingPercentage'), /is currently set to: 100/)
  await run('time set 1000')
  await run('give Alice minecraft:red_bed 2')
  await run('give Bob minecraft:red_bed 1')
  const bed = a.registry.itemsByName.red_bed.id
  await h.waitFor(() => a.inventory.count(bed) === 2 && b.inventory.count(bed) === 1, { timeout: 5000, message: 'Alice holds 2 red beds, Bob 1' })
  base = a.entity.position.floored()
  await a.equip(bed, 'hand')
  // Directly south of her: she faces south as she clicks.
  aliceFoot = base.offset(0, 0, 2)
  aliceHead = base.offset(0, 0, 3)
  await h.withTimeout(a.placeBlock(a.blockAt(aliceFoot.offset(0, -1, 0)), new Vec3(0, 1, 0)), 10000, 'Alice places her bed')
  await h.waitFor(() => b.blockAt(aliceHead) && b.blockAt(aliceHead).name === 'red_bed', {
    timeout: 5000, message: 'Bob sees the head', detail: () => `head cell: ${b.blockAt(aliceHead) && b.blockAt(aliceHead).name}`
  })
  const foot = b.blockAt(aliceFoot).getProperties()
  const head = b.blockAt(aliceHead).getProperties()
  assert.equal(b.blockAt(aliceFoot).name, 'red_bed')
  assert.deepEqual([foot.part, foot.facing, head.part, head.facing], ['foot', 'south', 'head', 'south'])
  assert.equal(head.occupied, false)

  // North of her, with stone where the head would go: no bed.
  await run(`setblock ${base.x} ${base.y} ${base.z - 3} minecraft:stone`)
  await h.waitFor(() => a.blockAt(base.offset(0, 0, -3)).name === 'stone', { timeout: 3000, message: 'Alice sees the stone' })
  const blocked = base.offset(0, 0, -2)
  try {
    await h.withTimeout(a.placeBlock(a.blockAt(blocked.offset(0, -1, 0)), new Vec3(0, 1, 0)), 3000, 'refused bed')
  } catch (e) {} // mineflayer reports that no block was placed
  await h.sleep(300)
  assert.equal(b.blockAt(blocked).name, 'air', 'no bed where its head has no room')
  assert.equal(a.inventory.count(bed), 1, 'the refused bed stays in the inventory')
})

test('in the day a bed sets the respawn point and refuses sleep on the action bar', { timeout: 15000 }, async () => {
  const a = A.bot
  const from = aChat.length
  await a.activateBlock(a.blockAt(aliceFoot)) // the foot: the head is used
  await h.waitFor(() => aChat.slice(from).some((m) => m.key === 'block.minecraft.bed.no_sleep' && m.bar), {
    timeout: 5000, message: 'Alice is told on the action bar she can sleep only at night', detail: () => JSON.stringify(aChat.slice(from))
  })
  const set = aChat.slice(from).filter((m) => m.key === 'block.minecraft.set_spawn')
  assert.equal(set.length, 1, 'one "Respawn point set"')
  assert.equal(set[0].bar, false, 'in chat, not on the action bar')
  assert.equal(a.isSleeping, false)
  // Again: the point is the same, so no second "Respawn point set".
  const again = aChat.length
  await a.activateBlock(a.blockAt(aliceHead))
  await h.waitFor(() => aChat.slice(again).some((m) => m.key === 'block.minecraft.bed.no_sleep'), { timeout: 5000, message: 'no_sleep again' })
  assert.ok(!aChat.slice(again).some((m) => m.key === 'block.minecraft.set_spawn'), 'the point did not change')
})

test('two bots sleep at night: the time jumps to the morning, the rain stops, both wake', { timeout: 30000 }, async () => {
  const a = A.bot
  const b = B.bot
  const bed = b.registry.itemsByName.red_bed.id
  // Bob 4 blocks east of Alice, his bed south of him.
  await run(`tp Bob ${base.x + 4.5} ${base.y} ${base.z + 0.5}`)
  await h.waitFor(() => Math.abs(b.entity.position.x - (base.x + 4.5)) < 0.01, { timeout: 5000, message: 'Bob teleported' })
  await h.sleep(300)
  bobFoot = base.offset(4, 0, 2)
  bobHead = base.offset(4, 0, 3)
  await b.equip(bed, 'hand')
  await h.withTimeout(b.placeBlock(b.blockAt(bobFoot.offset(0, -1, 0)), new Vec3(0, 1, 0)), 10000, 'Bob places his bed')
  await h.waitFor(() => a.blockAt(bobHead) && a.blockAt(bobHead).name === 'red_bed', { timeout: 5000, message: 'Alice sees Bob\'s bed' })

  assert.match(await run('weather rain'), /Set the weather to rain/)
  await run('time set 13000')
  await h.waitFor(() => a.time.timeOfDay >= 13000 && b.time.timeOfDay >= 13000 && aEv.raining && bEv.raining, {
    timeout: 5000, message: 'night and rain reach the bots', detail: () => `time ${a.time.timeOfDay}, events ${aEv.events}`
  })
  let bobSawAliceSleep = false
  b.on('entitySleep', (e) => { if (e.username === 'Alice') bobSawAliceSleep = true })
  const wakes = []
  a.once('wake', () => wakes.push('Alice'))
  b.once('wake', () => wakes.push('Bob'))
  const fromA = aChat.length
  await h.withTimeout(a.sleep(a.blockAt(aliceHead)), 5000, 'Alice sleeps')
  assert.equal(a.isSleeping, true)
  await h.waitFor(() => aChat.slice(fromA).some((m) => m.key === 'sleep.players_sleeping' && m.bar && m.args.join('/') === '1/2'), {
    timeout: 3000, message: 'Alice told 1/2 players sleeping', detail: () => JSON.stringify(aChat.slice(fromA))
  })
  await h.waitFor(() => bobSawAliceSleep && b.blockAt(aliceHead).getProperties().occupied === true &&
    b.blockAt(aliceFoot).getProperties().occupied === true, {
    timeout: 3000, message: 'Bob sees Alice lie down and her bed occupied', detail: () => `entitySleep ${bobSawAliceSleep}, ${JSON.stringify(b.blockAt(aliceHead).getProperties())}`
  })
  // Bob tries Alice's bed first: occupied.
  const fromB = bChat.length
  await b.activateBlock(b.blockAt(aliceFoot))
  await h.waitFor(() => bChat.slice(fromB).some((m) => m.key === 'block.minecraft.bed.occupied' && m.bar), {
    timeout: 3000, message: 'Bob told Alice\'s bed is occupied', detail: () => JSON.stringify(bChat.slice(fromB))
  })
  const t0 = Date.now()
  await h.withTimeout(b.sleep(b.blockAt(bobHead)), 5000, 'Bob sleeps')
  await h.waitFor(() => bChat.slice(fromB).some((m) => m.key === 'sleep.skipping_night' && m.bar), {
    timeout: 3000, message: 'Bob told the night is being skipped', detail: () => JSON.stringify(bChat.slice(fromB))
  })
  await h.waitFor(() => wakes.length === 2, { timeout: 10000, message: 'both bots wake', detail: () => `woke: ${wakes}` })
  assert.ok(Date.now() - t0 >= 4000, `the night passes after 100 ticks asleep (${Date.now() - t0} ms)`)
  await h.waitFor(() => a.time.timeOfDay < 1000 && b.time.timeOfDay < 1000, {
    timeout: 3000, message: 'the time is morning', detail: () => `time of day ${a.time.timeOfDay}, ${b.time.timeOfDay}`
  })
  assert.ok(a.time.day >= 1, `the next day (day ${a.time.day})`)
  await h.waitFor(() => !aEv.raining && !bEv.raining, { timeout: 3000, message: 'the rain stopped', detail: () => `events ${aEv.events}` })
  assert.equal(a.isSleeping, false)
  assert.equal(b.isSleeping, false)
  await h.waitFor(() => a.blockAt(aliceHead).getProperties().occupied === false && a.blockAt(bobHead).getProperties().occupied === false, {
    timeout: 3000, message: 'both beds free again'
  })
  assert.match(await run('time query daytime'), /The time is (\d+)/)
})

test('killed far away, Alice respawns beside her bed', { timeout: 20000 }, async () => {
  const a = A.bot
  await run(`tp Alice ${base.x + 20} ${base.y} ${base.z + 20}`)
  await h.waitFor(() => a.entity.position.x > base.x + 19, { timeout: 5000, message: 'Alice teleported away' })
  const respawned = new Promise((resolve) => a.once('respawn', resolve))
  assert.match(await run('kill Alice'), /Killed Alice/)
  await h.withTimeout(respawned, 8000, 'Alice respawns')
  const head = aliceHead.offset(0.5, 0, 0.5)
  await h.waitFor(() => {
    const p = a.entity.position
    return Math.hypot(p.x - head.x, p.z - head.z) < 2.5 && Math.abs(p.y - base.y) < 0.01
  }, { timeout: 8000, message: 'Alice stands beside her bed', detail: () => `at ${a.entity.position}, bed head ${aliceHead}` })
})

test('breaking one half removes both and drops one bed; a bed gone sends its owner to the world spawn', { timeout: 25000 }, async () => {
  const a = A.bot
  const b = B.bot
  const bed = b.registry.itemsByName.red_bed.id
  await h.withTimeout(b.dig(b.blockAt(bobFoot)), 5000, 'Bob breaks his bed\'s foot')
  await h.waitFor(() => a.blockAt(bobFoot).name === 'air' && a.blockAt(bobHead).name === 'air', {
    timeout: 3000, message: 'Alice sees both halves go', detail: () => `${a.blockAt(bobFoot).name}, ${a.blockAt(bobHead).name}`
  })
  await run(`tp Bob ${bobFoot.x + 0.5} ${bobFoot.y} ${bobFoot.z + 0.5}`) // onto the drop
  // A half removed by a command takes the other with it (the neighbour update).
  assert.match(await run(`setblock ${aliceHead.x} ${aliceHead.y} ${aliceHead.z} minecraft:air`), /Changed the block/)
  await h.waitFor(() => b.blockAt(aliceFoot).name === 'air', {
    timeout: 3000, message: 'Bob sees the foot of Alice\'s bed go with its head', detail: () => b.blockAt(aliceFoot).name
  })
  await h.waitFor(() => b.inventory.count(bed) === 1, { timeout: 6000, message: 'Bob picks up one bed', detail: () => `holds ${b.inventory.count(bed)}` })
  await h.sleep(1000)
  assert.equal(b.inventory.count(bed), 1, 'exactly one bed dropped')
  const mark = bEv.events.length
  const reset = () => bEv.events.slice(mark).includes('no_respawn_block_available')
  const respawned = new Promise((resolve) => b.once('respawn', resolve))
  assert.match(await run('kill Bob'), /Killed Bob/)
  await h.withTimeout(respawned, 8000, 'Bob respawns')
  await h.waitFor(reset, { timeout: 5000, message: 'Bob told his bed is missing (Game Event 0)' })
  await h.waitFor(() => Math.hypot(b.entity.position.x - (bobHead.x + 0.5), b.entity.position.z - (bobHead.z + 0.5)) > 2, {
    timeout: 5000, message: 'Bob is not at his old bed', detail: () => `at ${b.entity.position}`
  })
})
