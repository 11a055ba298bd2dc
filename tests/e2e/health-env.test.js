'use strict'
// Issue 14 (game/health.c): the environment hurts a survival player as
// vanilla's: eyes in a full block suffocate (1 a half second), eyes in water
// run the air supply down (metadata index 1) and then drown (2), the void
// kills with death.attack.outOfWorld seen by another bot.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const { Vec3 } = require('vec3')
const { PROPS, stopClean, tp, landed } = require('./health-helpers')

after(h.cleanupAll)

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
