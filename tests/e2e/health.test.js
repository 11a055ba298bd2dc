'use strict'
// Issue 14, acceptance 3, 4, 5 and 7: health, combat, death and eating, with
// mineflayer bots in survival on a flat world (game/health.c, game/combat.c).
//   3. Falling 10 blocks onto stone costs 7 health; into water, none.
//   4. A second bot attacks the first: its health drops (Damage Event seen
//      by both), it is knocked back (Set Entity Velocity, its position
//      moves); with pvp=false nothing happens.
//   5. The first bot dies (a fall, then a sword): the death message reaches
//      the other bot, its items lie where it died, it respawns at the spawn
//      with an empty inventory and full health, and the second bot walks
//      over the items and holds them.
//   7. Sprinting drains food (exhaustion: saturation, then food); eating
//      bread restores 5 food and 6 saturation (minecraft-data foods).
//   Also: bad input (self-attacks, unknown ids, odd hands) is ignored; the
//      hunger state survives a restart with vanilla's tags; lava kills and
//      keepInventory keeps the items; suffocation, drowning (air) and the
//      void hurt and kill with their messages.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const { Vec3 } = require('vec3')
const fs = require('node:fs')
const path = require('node:path')
const nbt = require('prismarine-nbt')
const u = require('./persist-util')

after(h.cleanupAll)
after(u.cleanup)

const PROPS = { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '3', 'spawn-protection': '0', difficulty: 'normal' }

/**
 * mineflayer 4.25 reads Set Entity Velocity as velocityX/Y/Z, but the
 * minecraft-data installed with it decodes the packet as { velocity: {x, y, z} }:
 * the bot's own velocity becomes NaN, and so does the position it sends (which
 * the server refuses as an invalid move). The fields are copied over before
 * mineflayer's listener sees the packet.
 */
function fixVelocityPackets (bot) {
  bot._client.prependListener('entity_velocity', (p) => {
    if (p.velocity && p.velocityX === undefined) {
      p.velocityX = p.velocity.x
      p.velocityY = p.velocity.y
      p.velocityZ = p.velocity.z
    }
  })
}

const items = (bot) => Object.values(bot.entities).filter((e) => e.name === 'item')

/** Walks on a flat floor until the bot stands within 0.3 of pos. */
async function walkTo (bot, pos, timeout = 8000) {
  const deadline = Date.now() + timeout
  try {
    for (;;) {
      const p = bot.entity.position
      if (Math.hypot(pos.x - p.x, pos.z - p.z) < 0.3) return
      if (Date.now() > deadline) throw new Error(`${bot.username} did not reach ${pos} (at ${p})`)
      await bot.lookAt(new Vec3(pos.x, p.y + 1.62, pos.z), true)
      bot.setControlState('forward', true)
      await h.sleep(50)
    }
  } finally {
    bot.setControlState('forward', false)
  }
}

/** Stops the server: it exits 0 and printed no sanitizer report (ASan/UBSan builds). */
async function stopClean (srv) {
  const info = await srv.stop()
  assert.equal(info.code, 0, `mcserv exits 0 on SIGTERM: ${JSON.stringify(info)}`)
  assert.doesNotMatch(srv.output(), /AddressSanitizer|LeakSanitizer|runtime error:/, 'no sanitizer report')
}

/** Teleports the bot (console /tp) and waits until its client is there. */
async function tp (srv, bot, x, y, z) {
  mp.consoleCmd(srv, `tp ${bot.username} ${x} ${y} ${z}`)
  await h.waitFor(() => Math.abs(bot.entity.position.x - x) < 0.01 && Math.abs(bot.entity.position.z - z) < 0.01 &&
    Math.abs(bot.entity.position.y - y) < 1.5, { timeout: 5000, message: `${bot.username} teleported to ${x} ${y} ${z}` })
}

/** Waits until the bot stands on the ground again and its health settled. */
async function landed (bot, timeout = 6000) {
  await h.sleep(300)
  await h.waitFor(() => bot.entity.onGround, { timeout, message: `${bot.username} landed` })
  await h.sleep(300)
}

test('falls: 10 blocks onto stone cost 7 health, into water none', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'health-fall', props: PROPS })
  const A = await h.makeBot(srv.port, 'Faller').waitSpawn(15000)
  const a = A.bot
  await landed(a)
  const base = a.entity.position.floored()
  assert.equal(a.health, 20)

  // Into water: a water block on the floor where it lands.
  const wet = new Vec3(base.x + 3, base.y, base.z)
  mp.consoleCmd(srv, `setblock ${wet.x} ${wet.y} ${wet.z} minecraft:water`)
  await h.waitFor(() => a.blockAt(wet) && a.blockAt(wet).name === 'water', { timeout: 5000, message: 'the water is there' })
  await tp(srv, a, wet.x + 0.5, base.y + 10, wet.z + 0.5)
  await landed(a)
  await h.sleep(500)
  assert.equal(a.health, 20, 'landing in water costs nothing')

  // Onto stone.
  const dry = new Vec3(base.x - 3, base.y - 1, base.z)
  mp.consoleCmd(srv, `setblock ${dry.x} ${dry.y} ${dry.z} minecraft:stone`)
  await h.waitFor(() => a.blockAt(dry) && a.blockAt(dry).name === 'stone', { timeout: 5000, message: 'the stone is there' })
  const hurts = []
  a.on('entityHurt', (e) => { if (e === a.entity) hurts.push(Date.now()) })
  await tp(srv, a, dry.x + 0.5, base.y + 10, dry.z + 0.5)
  await h.waitFor(() => a.health < 20, { timeout: 6000, message: 'the fall hurts' })
  assert.equal(a.health, 13, 'a 10-block fall costs 7 health')
  assert.ok(hurts.length >= 1, 'the client was told of the hit (Damage Event)')
  h.assertNoClientProtocolErrors(assert)
  await stopClean(srv)
})

test('combat: a second bot attacks, the victim loses health and is knocked back; pvp=false stops it', { timeout: 90000 }, async () => {
  for (const pvp of [true, false]) {
    const srv = await h.startServer({ name: `health-pvp-${pvp}`, props: Object.assign({}, PROPS, { pvp: String(pvp) }) })
    const V = await h.makeBot(srv.port, 'Victim').waitSpawn(15000)
    const K = await h.makeBot(srv.port, 'Knight').waitSpawn(15000)
    const v = V.bot
    const k = K.bot
    fixVelocityPackets(v)
    fixVelocityPackets(k)
    await landed(v)
    const base = v.entity.position.floored()
    await tp(srv, k, base.x + 2.5, base.y, base.z + 0.5)
    await tp(srv, v, base.x + 0.5, base.y, base.z + 0.5)
    await h.waitFor(() => k.entities[v.entity.id], { timeout: 5000, message: 'Knight sees Victim' })
    await h.sleep(3200) // past the 60 ticks of spawn protection
    const velocities = []
    v._client.on('entity_velocity', (p) => { if (p.entityId === v.entity.id) velocities.push(p) })
    const seenHurt = []
    k.on('entityHurt', (e) => { if (e && e.id === v.entity.id) seenHurt.push(e) })
    const seenHealth = [] // Set Entity Metadata index 9 (health) of the victim, as Knight sees it
    k._client.on('entity_metadata', (p) => {
      if (p.entityId !== v.entity.id) return
      for (const m of p.metadata) if (m.key === 9) seenHealth.push(m.value)
    })
    const before = v.entity.position.clone()
    assert.equal(v.health, 20)
    await k.lookAt(v.entity.position.offset(0, 1.6, 0), true)
    k.attack(k.entities[v.entity.id])
    if (pvp) {
      await h.waitFor(() => v.health < 20, { timeout: 3000, message: 'the victim is hurt' })
      assert.equal(v.health, 19, 'a full-strength bare-hand hit does 1')
      await h.waitFor(() => velocities.length > 0, { timeout: 3000, message: 'Set Entity Velocity to the victim' })
      const kb = velocities[0].velocity || { x: velocities[0].velocityX, y: velocities[0].velocityY, z: velocities[0].velocityZ }
      assert.equal(kb.x, -3200, `pushed 0.4 block/tick away from the attacker (west): ${JSON.stringify(kb)}`)
      assert.equal(kb.y, 3200, 'and 0.4 up (on the ground)')
      assert.equal(kb.z, 0)
      await h.waitFor(() => v.entity.position.x < before.x - 0.3, { timeout: 3000, message: `the victim moved back (from ${before} to ${v.entity.position})` })
      await h.waitFor(() => seenHurt.length > 0, { timeout: 3000, message: 'the attacker saw the hurt (Damage Event)' })
      await h.waitFor(() => seenHealth.includes(19), { timeout: 3000, message: `the attacker saw the health metadata (${seenHealth})` })
      // Out of reach: nothing.
      await landed(v)
      await tp(srv, k, base.x + 10.5, base.y, base.z + 0.5)
      await h.sleep(700)
      const nv = velocities.length
      const nh = seenHurt.length
      k.attack(k.entities[v.entity.id])
      await h.sleep(1000)
      assert.equal(seenHurt.length, nh, 'an attack from 10 blocks away hurts nobody')
      assert.equal(velocities.length, nv, 'and pushes nobody')
    } else {
      await h.sleep(1500)
      assert.equal(v.health, 20, 'pvp=false: no damage')
      assert.equal(velocities.length, 0, 'pvp=false: no knockback')
      assert.equal(seenHurt.length, 0, 'pvp=false: no hurt')
    }
    h.assertNoClientProtocolErrors(assert)
    await V.quit()
    await K.quit()
    await stopClean(srv)
  }
})

test('death: message to everyone, items where it died, respawn at spawn empty, the other bot picks them up', { timeout: 90000 }, async () => {
  const srv = await h.startServer({ name: 'health-death', props: PROPS })
  const V = await h.makeBot(srv.port, 'Doomed').waitSpawn(15000)
  const K = await h.makeBot(srv.port, 'Reaper').waitSpawn(15000)
  const v = V.bot
  const k = K.bot
  fixVelocityPackets(v)
  fixVelocityPackets(k)
  await landed(v)
  const spawn = v.entity.position.clone()
  const base = spawn.floored()
  const rec = mp.recorder(K, ['system_chat'])
  mp.consoleCmd(srv, 'give Doomed minecraft:cobblestone 5')
  mp.consoleCmd(srv, 'give Reaper minecraft:diamond_sword 1')
  const cobble = v.registry.itemsByName.cobblestone.id
  await h.waitFor(() => v.inventory.count(cobble) === 5, { timeout: 5000, message: 'Doomed holds 5 cobblestone' })
  await h.waitFor(() => k.heldItem && k.heldItem.name === 'diamond_sword', { timeout: 5000, message: 'Reaper holds the sword' })
  // A fall of 21 blocks leaves 2 health; then the sword (7) kills.
  const place = new Vec3(base.x + 6.5, base.y, base.z + 0.5)
  await tp(srv, v, place.x, base.y + 21, place.z)
  await h.waitFor(() => v.health < 20, { timeout: 8000, message: 'the fall hurts' })
  assert.equal(v.health, 2, 'a 21-block fall costs 18')
  await landed(v)
  const deathPos = v.entity.position.clone()
  await tp(srv, k, deathPos.x + 2, base.y, deathPos.z)
  await h.waitFor(() => k.entities[v.entity.id], { timeout: 5000, message: 'Reaper sees Doomed' })
  await h.sleep(800) // the sword's full strength (12.5 ticks)
  let died = false
  v.once('death', () => { died = true })
  k.attack(k.entities[v.entity.id])
  await h.waitFor(() => died, { timeout: 3000, message: 'Doomed dies' })
  await h.waitFor(() => rec.packets.system_chat.some((p) => /death\.attack\.player/.test(p.content)), {
    timeout: 3000, message: 'Reaper got the death message', detail: () => JSON.stringify(rec.packets.system_chat)
  })
  const msg = JSON.parse(rec.packets.system_chat.find((p) => /death\.attack\.player/.test(p.content)).content)
  assert.equal(msg.translate, 'death.attack.player')
  assert.match(JSON.stringify(msg.with), /Doomed.*Reaper/, 'victim, then killer')
  await h.waitFor(() => srv.output().includes('Doomed was slain by Reaper'), { timeout: 3000, message: 'the log line' })

  // The items lie where it died (Reaper sees them).
  await h.waitFor(() => items(k).length >= 1, { timeout: 5000, message: 'Reaper sees the dropped items' })
  await h.sleep(1500)
  for (const e of items(k)) {
    // Player.drop(dropAround): up to 0.5 block/tick sideways and 0.2 up, from
    // eye height: a death's items land within about 5 blocks.
    const d = Math.hypot(e.position.x - deathPos.x, e.position.z - deathPos.z)
    assert.ok(d < 6, `the item lies by the death spot (${e.position} vs ${deathPos})`)
    assert.ok(Math.abs(e.position.y - deathPos.y) < 0.1, `on the floor (${e.position})`)
    assert.equal(e.getDroppedItem().name, 'cobblestone')
  }

  // Respawn (mineflayer answers the death screen) at the spawn, empty, full health.
  await h.waitFor(() => v.health === 20 && v.entity.position.distanceTo(spawn) < 1.5, {
    timeout: 8000, message: `Doomed respawned at the spawn (at ${v.entity.position}, health ${v.health})`
  })
  assert.equal(v.inventory.items().length, 0, 'the respawned inventory is empty')
  assert.equal(v.food, 20)

  // Reaper walks over the items and holds 5 cobblestone.
  for (const e of items(k).slice()) {
    if (!k.entities[e.id]) continue
    await walkTo(k, e.position)
  }
  await h.waitFor(() => k.inventory.count(cobble) === 5, {
    timeout: 6000, message: 'Reaper holds the 5 cobblestone', detail: () => k.inventory.items().map((i) => `${i.name}x${i.count}`).join(', ')
  })
  h.assertNoClientProtocolErrors(assert)
  await stopClean(srv)
})

test('hunger: sprinting drains food, bread restores it by vanilla amounts', { timeout: 90000 }, async () => {
  const srv = await h.startServer({ name: 'health-food', props: PROPS })
  const A = await h.makeBot(srv.port, 'Runner').waitSpawn(15000)
  const a = A.bot
  await landed(a)
  assert.equal(a.food, 20)
  assert.equal(a.foodSaturation, 5)
  // Sprint back and forth until food drops (saturation 5 = 20 exhaustion =
  // 200 m sprinting first; vanilla sends Set Health when the food changes
  // or saturation reaches 0).
  const start = a.entity.position.clone()
  const deadline = Date.now() + 45000
  let dir = 1
  a.setControlState('sprint', true)
  a.setControlState('jump', true) // sprint-jumps cost 0.2 each on top
  try {
    while (a.food >= 20 && Date.now() < deadline) {
      const target = start.offset(dir * 12, 0, 0)
      await a.lookAt(target.offset(0, 1.62, 0), true)
      a.setControlState('forward', true)
      const t0 = Date.now()
      while (Math.abs(a.entity.position.x - target.x) > 1 && Date.now() - t0 < 4000) await h.sleep(50)
      dir = -dir
    }
  } finally {
    a.setControlState('forward', false)
    a.setControlState('sprint', false)
    a.setControlState('jump', false)
  }
  assert.ok(a.food < 20, `sprinting drained food (food ${a.food}, saturation ${a.foodSaturation})`)
  assert.equal(a.foodSaturation, 0, 'saturation went first')
  const food = a.food
  mp.consoleCmd(srv, 'give Runner minecraft:bread 1')
  await h.waitFor(() => a.heldItem && a.heldItem.name === 'bread', { timeout: 5000, message: 'holding bread' })
  await a.consume()
  await h.waitFor(() => a.food === Math.min(20, food + 5), { timeout: 3000, message: `bread restores 5 food (from ${food}: ${a.food})` })
  assert.equal(a.foodSaturation, Math.min(6, a.food), 'and 6 saturation (5 × 0.6 × 2)')
  await h.waitFor(() => !a.heldItem, { timeout: 3000, message: 'the bread is eaten' })
  h.assertNoClientProtocolErrors(assert)
  await stopClean(srv)
})

test('lava kills with death.attack.lava; keepInventory keeps the items and drops nothing', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'health-lava', props: PROPS })
  const V = await h.makeBot(srv.port, 'Swimmer').waitSpawn(15000)
  const W = await h.makeBot(srv.port, 'Witness').waitSpawn(15000)
  const v = V.bot
  const w = W.bot
  await landed(v)
  const base = v.entity.position.floored()
  const rec = mp.recorder(W, [])
  mp.consoleCmd(srv, 'gamerule keepInventory true')
  mp.consoleCmd(srv, 'give Swimmer minecraft:dirt 3')
  const dirt = v.registry.itemsByName.dirt.id
  await h.waitFor(() => v.inventory.count(dirt) === 3, { timeout: 5000, message: 'Swimmer holds 3 dirt' })
  await h.sleep(3200) // past the spawn protection
  const pit = new Vec3(base.x + 5, base.y, base.z)
  mp.consoleCmd(srv, `setblock ${pit.x} ${pit.y} ${pit.z} minecraft:lava`)
  await h.waitFor(() => v.blockAt(pit) && v.blockAt(pit).name === 'lava', { timeout: 5000, message: 'the lava is there' })
  const healths = []
  v.on('health', () => healths.push(v.health))
  const burning = [] // the shared flags (metadata 0) of Swimmer: bit 0 is "on fire"
  w._client.on('entity_metadata', (p) => {
    if (p.entityId !== v.entity.id) return
    for (const m of p.metadata) if (m.key === 0) burning.push((m.value & 1) === 1)
  })
  let died = false
  v.once('death', () => { died = true })
  await tp(srv, v, pit.x + 0.5, pit.y, pit.z + 0.5)
  await h.waitFor(() => died, { timeout: 8000, message: `Swimmer burns to death (health ${healths.join(', ')})` })
  assert.equal(healths[0], 16, 'lava does 4 a hit')
  await h.waitFor(() => burning.includes(true), { timeout: 3000, message: `Witness sees Swimmer burning (${burning})` })
  await h.waitFor(() => rec.chatJson.some((c) => /death\.attack\.lava/.test(c)), {
    timeout: 3000, message: 'Witness got death.attack.lava', detail: () => rec.chatJson.join('\n')
  })
  await h.waitFor(() => v.health === 20, { timeout: 8000, message: 'Swimmer respawned' })
  await h.waitFor(() => v.inventory.count(dirt) === 3, { timeout: 3000, message: 'keepInventory: the dirt is still held' })
  await h.sleep(500)
  assert.equal(items(w).length, 0, 'keepInventory: nothing dropped')
  h.assertNoClientProtocolErrors(assert)
  await stopClean(srv)
})

test('bad input: attacking oneself, unknown entities or with odd fields, eating with odd hands: ignored, nobody hurt or kicked', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'health-bad', props: PROPS })
  const A = await h.makeBot(srv.port, 'Odd').waitSpawn(15000)
  const B = await h.makeBot(srv.port, 'Even').waitSpawn(15000)
  const a = A.bot
  const b = B.bot
  await landed(a)
  await tp(srv, b, a.entity.position.x + 1.6, a.entity.position.y, a.entity.position.z + 0.1)
  await h.sleep(3200) // past the spawn protection
  const hurts = []
  a.on('entityHurt', (e) => hurts.push(e && e.id))
  b.on('entityHurt', (e) => hurts.push(e && e.id))
  const me = a.entity.id
  a._client.write('use_entity', { target: me, mouse: 1, sneaking: false }) // itself
  a._client.write('use_entity', { target: 987654321, mouse: 1, sneaking: false }) // nobody
  a._client.write('use_entity', { target: -5, mouse: 1, sneaking: true })
  a._client.write('use_entity', { target: b.entity.id, mouse: 0, hand: 0, sneaking: false }) // interact, not attack
  a._client.write('use_entity', { target: b.entity.id, mouse: 2, x: 1e30, y: -1e30, z: 0, hand: 7, sneaking: false })
  a._client.write('use_item', { hand: 9, sequence: 1, rotation: { x: 0, y: 0 } })
  a._client.write('use_item', { hand: -1, sequence: -7, rotation: { x: 0, y: 0 } })
  a._client.write('use_item', { hand: 0, sequence: 2147483647, rotation: { x: 0, y: 0 } }) // nothing in hand
  await h.sleep(1500)
  assert.equal(A.kicked, null, 'not kicked')
  assert.equal(B.kicked, null)
  assert.equal(a.health, 20, 'nobody hurt')
  assert.equal(b.health, 20)
  assert.deepEqual(hurts, [], 'no Damage Event')
  assert.match(srv.output(), /Player Odd tried to attack an invalid entity \(itself\)/, 'the self-attack is logged')
  // Still serving: a chat round trip.
  const rec = mp.recorder(B, [])
  a.chat('still here')
  await rec.waitChat(/still here/)
  h.assertNoClientProtocolErrors(assert)
  await stopClean(srv)
})

test('health, food, saturation and air are saved with vanilla\'s tags and come back after a restart', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'health-restart', props: PROPS })
  const A = await h.makeBot(srv.port, 'Comeback').waitSpawn(15000)
  await landed(A.bot)
  const base = A.bot.entity.position.floored()
  await tp(srv, A.bot, base.x + 0.5, base.y + 8, base.z + 0.5)
  await h.waitFor(() => A.bot.health < 20, { timeout: 6000, message: 'the fall hurts' })
  assert.equal(A.bot.health, 15, 'an 8-block fall costs 5')
  await h.sleep(1000) // a heal or two: saturation and exhaustion move
  mp.consoleCmd(srv, 'stop')
  const info = await srv.waitExit(15000)
  assert.ok(info && info.code === 0, `the server stops cleanly: ${JSON.stringify(info)}`)
  u.assertNoSanitizerReport(assert, srv)
  await A.waitEnd(5000)

  const uuid = h.offlineUuid('Comeback').toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
  const file = path.join(srv.dir, 'world', 'playerdata', uuid + '.dat')
  const { parsed } = await nbt.parse(fs.readFileSync(file))
  const tag = nbt.simplify(parsed)
  assert.ok(tag.Health > 15 && tag.Health < 18, `Health ${tag.Health}`)
  assert.equal(tag.foodLevel, 20)
  assert.ok(tag.foodSaturationLevel >= 0 && tag.foodSaturationLevel < 5, `foodSaturationLevel ${tag.foodSaturationLevel} (spent on healing)`)
  assert.ok(tag.foodExhaustionLevel >= 0 && tag.foodExhaustionLevel <= 4, `foodExhaustionLevel ${tag.foodExhaustionLevel}`)
  assert.equal(tag.Air, 300)
  assert.equal(tag.FallDistance, 0)
  assert.ok(tag.Fire <= 0, `Fire ${tag.Fire}`)
  assert.equal(typeof tag.foodTickTimer, 'number')

  const srv2 = await u.startIn(srv.dir, { name: 'health-restart-2' })
  const B = await h.makeBot(srv2.port, 'Comeback').waitSpawn(15000)
  assert.ok(Math.abs(B.bot.health - tag.Health) < 1e-4, `health restored (${B.bot.health} vs ${tag.Health})`)
  assert.equal(B.bot.food, 20)
  assert.ok(Math.abs(B.bot.foodSaturation - tag.foodSaturationLevel) < 1e-4, `saturation restored (${B.bot.foodSaturation})`)
  h.assertNoClientProtocolErrors(assert)
  await B.quit()
  await stopClean(srv2)
})

test('environment: eyes in a block suffocate, eyes in water run out of air and drown, the void kills', { timeout: 90000 }, async () => {
  const srv = await h.startServer({ name: 'health-env', props: PROPS })
  const A = await h.makeBot(srv.port, 'Diver').waitSpawn(15000)
  const W = await h.makeBot(srv.port, 'Onlooker').waitSpawn(15000)
  const a = A.bot
  await landed(a)
  const base = a.entity.position.floored()
  const rec = mp.recorder(W, [])
  const air = [] // Set Entity Metadata index 1 (air supply) to Diver itself
  a._client.on('entity_metadata', (p) => {
    if (p.entityId !== a.entity.id) return
    for (const m of p.metadata) if (m.key === 1) air.push(m.value)
  })
  await h.sleep(3200) // past the spawn protection

  // Suffocation: stone where its head is (1 per half second).
  const wall = new Vec3(base.x + 3, base.y, base.z + 3)
  mp.consoleCmd(srv, `setblock ${wall.x} ${wall.y + 1} ${wall.z} minecraft:stone`)
  await h.waitFor(() => a.blockAt(wall.offset(0, 1, 0)) && a.blockAt(wall.offset(0, 1, 0)).name === 'stone', { timeout: 5000, message: 'the stone is there' })
  await tp(srv, a, wall.x + 0.5, wall.y, wall.z + 0.5)
  await h.waitFor(() => a.health <= 18, { timeout: 4000, message: `suffocating (health ${a.health})` })
  mp.consoleCmd(srv, `setblock ${wall.x} ${wall.y + 1} ${wall.z} minecraft:air`)
  await h.sleep(500)
  const afterWall = a.health
  await h.sleep(1000)
  assert.ok(a.health >= afterWall, 'out of the block, no more suffocation')

  // Drowning: a pool two deep; air runs down by 1 a tick, then 2 damage.
  const pool = new Vec3(base.x - 6, base.y, base.z - 6)
  mp.consoleCmd(srv, `fill ${pool.x - 1} ${pool.y} ${pool.z - 1} ${pool.x + 1} ${pool.y + 2} ${pool.z + 1} minecraft:stone`)
  mp.consoleCmd(srv, `fill ${pool.x} ${pool.y} ${pool.z} ${pool.x} ${pool.y + 2} ${pool.z} minecraft:water`)
  await h.waitFor(() => a.blockAt(pool.offset(0, 1, 0)) && a.blockAt(pool.offset(0, 1, 0)).name === 'water', { timeout: 5000, message: 'the pool is there' })
  await h.waitFor(() => a.health === 20, { timeout: 10000, message: `healed before diving (${a.health})` })
  await tp(srv, a, pool.x + 0.5, pool.y + 0.1, pool.z + 0.5)
  await h.waitFor(() => air.length && air[air.length - 1] < 280, { timeout: 4000, message: `air runs down (${air.slice(-3)})` })
  await h.waitFor(() => a.health < 20, { timeout: 20000, message: `Diver drowns (air ${air.slice(-3)}, health ${a.health})` })
  assert.equal(a.health, 18, 'drowning does 2')
  await tp(srv, a, base.x + 0.5, base.y, base.z + 0.5)
  await h.waitFor(() => air[air.length - 1] === 300, { timeout: 5000, message: `air comes back (${air.slice(-3)})` })

  // The void: below y -128 it costs 4 every half second until death.
  let died = false
  a.once('death', () => { died = true })
  await tp(srv, a, base.x + 0.5, -140, base.z + 0.5)
  await h.waitFor(() => died, { timeout: 10000, message: `Diver dies in the void (health ${a.health})` })
  await h.waitFor(() => rec.chatJson.some((c) => /death\.attack\.outOfWorld/.test(c)), {
    timeout: 3000, message: 'Onlooker got death.attack.outOfWorld', detail: () => rec.chatJson.join('\n')
  })
  await h.waitFor(() => a.health === 20, { timeout: 8000, message: 'Diver respawned' })
  h.assertNoClientProtocolErrors(assert)
  await stopClean(srv)
})
