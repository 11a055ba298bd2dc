'use strict'
// Issue 14, acceptance 3, 4 and 5: health, combat and death, with mineflayer
// bots in survival on a flat world (game/health.c, game/combat.c).
//   3. Falling 10 blocks onto stone costs 7 health; into water, none.
//   4. A second bot attacks the first: its health drops (Damage Event and the
//      health metadata seen by both), it is knocked back (Set Entity
//      Velocity, its position moves); a diamond sword does 7, a critical
//      jump-attack 10.5 with its effect; out of reach or with pvp=false
//      nothing happens.
//   5. The first bot dies (a fall, then a sword): the death message reaches
//      the other bot and the log, its items lie where it died, it respawns at
//      the spawn with an empty inventory and full health, and the second bot
//      walks over the items and holds them (a worn pickaxe keeps its wear).
//   Also: bad input (self-attacks, unknown ids, odd hands) is ignored; the
//   hunger state is written with vanilla's tags and survives a restart.
// Acceptance 7 (food) is health-hunger.test.js; the environment health-env.test.js.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const { Vec3 } = require('vec3')
const { PROPS, fixVelocityPackets, items, walkTo, stopClean, tp, landed } = require('./health-helpers')
const fs = require('node:fs')
const path = require('node:path')
const nbt = require('prismarine-nbt')
const u = require('./persist-util')

after(h.cleanupAll)
after(u.cleanup)

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

  // Onto stone, out of the water's reach (it flows 7 blocks: issue 21).
  const dry = new Vec3(base.x - 12, base.y - 1, base.z)
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
      // A diamond sword at full strength: 7; a jump-attack while falling is
      // critical (× 1.5 = 10.5) with Animation 4 on the victim.
      const anims = []
      k._client.on('animation', (p) => { if (p.entityId === v.entity.id) anims.push(p.animation) })
      mp.consoleCmd(srv, 'give Knight minecraft:diamond_sword 1')
      await h.waitFor(() => k.heldItem && k.heldItem.name === 'diamond_sword', { timeout: 5000, message: 'Knight holds the sword' })
      await tp(srv, k, base.x + 2.1, base.y, base.z + 0.5)
      await landed(k)
      await h.waitFor(() => v.health === 20, { timeout: 8000, message: `Victim healed (${v.health})` })
      await h.sleep(800) // past the invulnerability; the sword at full strength
      k.attack(k.entities[v.entity.id])
      await h.waitFor(() => v.health < 20, { timeout: 3000, message: 'the sword hurts' })
      assert.ok(Math.abs(v.health - 13) < 1e-4, `a diamond sword does 7 (health ${v.health})`)
      await landed(v)
      await tp(srv, v, base.x + 0.5, base.y, base.z + 0.5)
      await h.sleep(800)
      const hp = v.health
      k.setControlState('jump', true)
      // well into the descent, so that the server has seen it falling
      await h.waitFor(() => !k.entity.onGround && k.entity.velocity.y < -0.15, { timeout: 3000, message: 'Knight falls from its jump' })
      k.setControlState('jump', false)
      await h.sleep(40)
      k.attack(k.entities[v.entity.id])
      await h.waitFor(() => v.health < hp - 5, { timeout: 3000, message: 'the critical hit hurts' })
      const lost = hp - v.health // a regeneration step (at most 1) may land in between
      assert.ok(lost > 9.49 && lost < 10.51, `a critical diamond sword hit does 10.5 (from ${hp} to ${v.health})`)
      await h.waitFor(() => anims.includes(4), { timeout: 3000, message: `Knight sees the critical effect (${anims})` })
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
  // A worn wooden pickaxe too: its wear must survive the drop.
  mp.consoleCmd(srv, 'give Doomed minecraft:wooden_pickaxe 1')
  await h.waitFor(() => v.inventory.slots[37] && v.inventory.slots[37].name === 'wooden_pickaxe', { timeout: 5000, message: 'Doomed holds a pickaxe in slot 2' })
  v.setQuickBarSlot(1)
  const dirtAt = new Vec3(base.x + 2, base.y, base.z - 2)
  mp.consoleCmd(srv, `setblock ${dirtAt.x} ${dirtAt.y} ${dirtAt.z} minecraft:dirt`)
  await h.waitFor(() => v.blockAt(dirtAt) && v.blockAt(dirtAt).name === 'dirt', { timeout: 5000, message: 'the dirt is there' })
  await h.withTimeout(v.dig(v.blockAt(dirtAt)), 10000, 'dig the dirt')
  await h.waitFor(() => v.inventory.slots[37] && v.inventory.slots[37].durabilityUsed > 0, {
    timeout: 5000, message: 'the pickaxe wore', detail: () => JSON.stringify(v.inventory.slots[37])
  })
  const wear = v.inventory.slots[37].durabilityUsed
  await h.sleep(1500) // the dirt's own drop settles (Doomed may pick it up: fine, it drops with the rest)
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
    assert.ok(['cobblestone', 'wooden_pickaxe', 'dirt'].includes(e.getDroppedItem().name), e.getDroppedItem().name)
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
  await h.waitFor(() => k.inventory.items().some((i) => i.name === 'wooden_pickaxe'), {
    timeout: 6000, message: 'Reaper holds the pickaxe', detail: () => k.inventory.items().map((i) => `${i.name}x${i.count}`).join(', ')
  })
  const pick = k.inventory.items().find((i) => i.name === 'wooden_pickaxe')
  assert.equal(pick.durabilityUsed, wear, 'the dropped pickaxe kept its wear')
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
