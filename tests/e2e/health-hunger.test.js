'use strict'
// Issue 14, acceptance 7 and death by lava (game/health.c), mineflayer bots
// in survival on a flat world:
//   7. Sprinting drains food (exhaustion: saturation, then food); eating
//      bread restores 5 food and 6 saturation (minecraft-data foods).
//   Lava hurts 4 a hit and sets the player burning (seen by another bot);
//   the death says death.attack.lava; with keepInventory nothing drops and
//   the items are still held after the respawn.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const { Vec3 } = require('vec3')
const { PROPS, items, stopClean, tp, landed } = require('./health-helpers')

after(h.cleanupAll)

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
