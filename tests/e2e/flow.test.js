'use strict'
// Issue 21: the world simulation, seen by mineflayer bots on a flat world.
//   1. Pourer (survival) empties a water bucket (given over RCON) on the
//      ground by looking at it and using the item: Watcher sees the water
//      spread 7 blocks each way with levels 1..7 and stop (no water at 8,
//      nothing changes a second later); Pourer picks the source up again:
//      the bucket is full, and the flow dries.
//   2. A lava source set 9 blocks from a water source: the lava flowing
//      toward the water turns to cobblestone where it meets it (Watcher).
//   3. Sand set over air falls: Watcher sees a falling_block entity carrying
//      sand's state id, then sand on the floor below and the entity gone.
//   4. A hoe tills grass beside water into farmland; random ticks (sped up
//      with randomTickSpeed) make it moist; seeds planted on it grow to age
//      7 with bone meal (2..5 ages a use); broken, the wheat drops wheat.
//   5. With max-chained-neighbor-updates=2 the water still spreads (the
//      updates past the bound are deferred, not dropped) and the log says so.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const { Vec3 } = require('vec3')

let srv, rcon, P, W

before(async () => {
  ({ srv, rcon } = await h.flatRconServer('flow', { 'simulation-distance': 4 }))
  P = h.makeBot(srv.port, 'Pourer')
  W = h.makeBot(srv.port, 'Watcher')
  await Promise.all([P.waitSpawn(15000), W.waitSpawn(15000)])
})

after(async () => {
  await h.closeFlatRconServer(srv, rcon, [P, W])
  if (srv) {
    assert.match(srv.stderr(), /world simulation: \d+ block ticks, \d+ fluid ticks, \d+ random ticks/, 'the simulation\'s totals at shutdown')
  }
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)
const level = (b) => (b && b.name === 'water' ? Number(b.getProperties().level) : -1)
const at = (bot, x, y, z) => bot.blockAt(new Vec3(x, y, z))

test('a water bucket poured on the ground spreads 7 blocks with vanilla levels and stops; the source fills the bucket again', { timeout: 40000 }, async () => {
  const p = P.bot
  const w = W.bot
  const base = p.entity.position.floored()
  assert.match(await run('give Pourer minecraft:water_bucket'), /Gave 1/)
  await h.waitFor(() => p.inventory.count(p.registry.itemsByName.water_bucket.id) === 1, { timeout: 5000, message: 'Pourer has a water bucket' })
  await p.equip(p.registry.itemsByName.water_bucket.id, 'hand')
  // The ground two blocks east: look at its top face, then use the bucket.
  const s = new Vec3(base.x + 2, base.y, base.z)
  await p.lookAt(new Vec3(s.x + 0.5, s.y, s.z + 0.5), true)
  await h.sleep(300) // the look reaches the server before the use
  p.activateItem()
  p.deactivateItem()
  const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1]]
  const spread = () => {
    if (level(at(w, s.x, s.y, s.z)) !== 0) return false
    for (const [dx, dz] of dirs) {
      for (let d = 1; d <= 7; d++) if (level(at(w, s.x + dx * d, s.y, s.z + dz * d)) !== d) return false
      if (level(at(w, s.x + dx * 8, s.y, s.z + dz * 8)) !== -1) return false
    }
    return true
  }
  await h.waitFor(spread, {
    timeout: 10000,
    message: 'Watcher sees water levels 0..7 along each axis and none at 8',
    detail: () => dirs.map(([dx, dz]) => [...Array(9).keys()].map((d) => level(at(w, s.x + dx * d, s.y, s.z + dz * d))).join(',')).join(' | ')
  })
  await h.waitFor(() => p.heldItem && p.heldItem.name === 'bucket', { timeout: 3000, message: 'the bucket is empty now' })
  // Diagonals: a diamond, level |dx| + |dz|.
  assert.equal(level(at(w, s.x + 3, s.y, s.z + 3)), 6)
  assert.equal(level(at(w, s.x + 4, s.y, s.z + 4)), -1)
  // It stopped: nothing changes a second later.
  await h.sleep(1000)
  assert.ok(spread(), 'the flow stays as it settled')
  assert.equal(level(at(w, s.x, s.y + 1, s.z)), -1, 'no water above the source')

  // The source back into the bucket. Pourer stands in the flow, which has
  // pushed it west for seconds (about 3 blocks, so the source is at the edge
  // of the 5-block reach): bring it back first. Then look at the source (the
  // ray skips flowing water).
  assert.match(await run(`tp Pourer ${base.x + 0.5} ${base.y} ${base.z + 0.5}`), /Teleported/)
  await h.waitFor(() => p.entity.position.distanceTo(new Vec3(base.x + 0.5, base.y, base.z + 0.5)) < 0.5, { timeout: 3000, message: 'Pourer is back where it poured' })
  await p.lookAt(new Vec3(s.x + 0.5, s.y + 0.5, s.z + 0.5), true)
  await h.sleep(300)
  p.activateItem()
  p.deactivateItem()
  await h.waitFor(() => p.heldItem && p.heldItem.name === 'water_bucket', {
    timeout: 5000,
    message: 'the bucket is full again',
    detail: () => `Pourer at ${p.entity.position} (base ${base}, source ${s}), holding ${p.heldItem && p.heldItem.name}, source level ${level(at(w, s.x, s.y, s.z))}`
  })
  // With its source gone the flow dries up.
  await h.waitFor(() => {
    for (const [dx, dz] of dirs) for (let d = 0; d <= 7; d++) if (level(at(w, s.x + dx * d, s.y, s.z + dz * d)) !== -1) return false
    return true
  }, { timeout: 15000, message: 'Watcher sees the water dry up' })
})

test('lava flowing into water makes cobblestone', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = W.bot.entity.position.floored()
  const c = new Vec3(base.x - 12, base.y, base.z + 10)
  await run(`setblock ${c.x} ${c.y} ${c.z} minecraft:water`)
  await h.waitFor(() => level(at(w, c.x + 7, c.y, c.z)) === 7, { timeout: 8000, message: 'the water reaches 7 blocks east' })
  await run(`setblock ${c.x + 9} ${c.y} ${c.z} minecraft:lava`)
  await h.waitFor(() => { const b = at(w, c.x + 8, c.y, c.z); return b && b.name === 'cobblestone' }, {
    timeout: 10000,
    message: 'Watcher sees cobblestone where the lava met the water',
    detail: () => [...Array(11).keys()].map((d) => { const b = at(w, c.x + d, c.y, c.z); return b && b.name }).join(',')
  })
  const lava = at(w, c.x + 9, c.y, c.z)
  assert.equal(lava.name, 'lava', 'the lava source stays')
  assert.equal(at(w, c.x + 7, c.y, c.z).name, 'water', 'the water stays')
})

test('sand set over air falls as a falling_block entity and lands on the floor', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = W.bot.entity.position.floored()
  const spawned = []
  const gone = []
  const fallingType = w.registry.entitiesByName.falling_block.id
  const onSpawn = (pk) => { if (pk.type === fallingType) spawned.push({ id: pk.entityId, data: pk.objectData, y: pk.y }) }
  const onGone = (e) => { if (e.name === 'falling_block') gone.push(e.id) }
  w._client.on('spawn_entity', onSpawn)
  w.on('entityGone', onGone)
  try {
    const s = new Vec3(base.x - 3, base.y + 6, base.z - 3)
    await run(`setblock ${s.x} ${s.y} ${s.z} minecraft:sand`)
    await h.waitFor(() => spawned.length > 0, { timeout: 5000, message: 'Watcher sees a falling_block entity' })
    assert.equal(spawned[0].data, w.registry.blocksByName.sand.defaultState, 'its data is sand\'s state id')
    assert.ok(Math.abs(spawned[0].y - s.y) < 1.01, `it starts where the sand was (y ${spawned[0].y})`)
    await h.waitFor(() => { const b = at(w, s.x, base.y, s.z); return b && b.name === 'sand' }, { timeout: 8000, message: 'Watcher sees sand on the floor' })
    await h.waitFor(() => gone.includes(spawned[0].id), { timeout: 3000, message: 'the entity (mineflayer: falling_block) is gone once it landed' })
    assert.equal(at(w, s.x, s.y, s.z).name, 'air', 'nothing left in the air')
    assert.equal(spawned.length, 1, 'one entity for one block')
  } finally {
    w._client.removeListener('spawn_entity', onSpawn)
    w.removeListener('entityGone', onGone)
  }
})

test('a hoe tills grass next to water into farmland that random ticks make moist; seeds planted there grow to age 7 with bone meal and drop wheat when broken', { timeout: 40000 }, async () => {
  const p = P.bot
  const w = W.bot
  const base = p.entity.position.floored()
  const f = new Vec3(base.x, base.y - 1, base.z + 3)
  await run(`setblock ${f.x + 2} ${f.y} ${f.z} minecraft:water`) // in the ground, 2 blocks away
  assert.match(await run('give Pourer minecraft:iron_hoe'), /Gave 1/)
  assert.match(await run('give Pourer minecraft:wheat_seeds 4'), /Gave 4/)
  assert.match(await run('give Pourer minecraft:bone_meal 16'), /Gave 16/)
  const id = (n) => p.registry.itemsByName[n].id
  await h.waitFor(() => p.inventory.count(id('iron_hoe')) === 1 && p.inventory.count(id('wheat_seeds')) === 4 &&
    p.inventory.count(id('bone_meal')) === 16, { timeout: 5000, message: 'Pourer has a hoe, seeds and bone meal' })
  const block = (bot, v) => at(bot, v.x, v.y, v.z)
  const up = new Vec3(0, 1, 0)
  // Till: the grass block becomes dry farmland.
  await p.equip(id('iron_hoe'), 'hand')
  await p.activateBlock(block(p, f), up)
  await h.waitFor(() => block(w, f) && block(w, f).name === 'farmland', { timeout: 5000, message: 'Watcher sees farmland' })
  assert.equal(Number(block(w, f).getProperties().moisture), 0, 'tilled farmland starts dry')
  // Random ticks (sped up) find the water within 4 blocks: moisture 7.
  await run('gamerule randomTickSpeed 4096')
  try {
    await h.waitFor(() => block(w, f) && Number(block(w, f).getProperties().moisture) === 7, { timeout: 8000, message: 'the farmland gets moist' })
  } finally {
    await run('gamerule randomTickSpeed 3')
  }
  // Plant the seeds on it.
  const crop = f.offset(0, 1, 0)
  await p.equip(id('wheat_seeds'), 'hand')
  await p.activateBlock(block(p, f), up)
  await h.waitFor(() => block(w, crop) && block(w, crop).name === 'wheat', { timeout: 5000, message: 'Watcher sees the wheat planted' })
  await h.waitFor(() => p.inventory.count(id('wheat_seeds')) === 3, { timeout: 3000, message: 'one seed used' })
  const age = (bot) => { const b = block(bot, crop); return b && b.name === 'wheat' ? Number(b.getProperties().age) : -1 }
  await p.equip(id('bone_meal'), 'hand')
  for (let i = 0; i < 6 && age(p) < 7; i++) {
    const was = age(p)
    await p.activateBlock(block(p, crop), up)
    await h.waitFor(() => age(p) > was, { timeout: 3000, message: `bone meal ${i + 1} grows the wheat (age ${was})` })
    assert.ok((age(p) - was >= 2 && age(p) - was <= 5) || age(p) === 7, `2..5 ages a use (from ${was} to ${age(p)})`)
  }
  await h.waitFor(() => age(w) === 7, { timeout: 3000, message: 'Watcher sees the wheat at age 7' })
  await h.waitFor(() => p.inventory.count(id('bone_meal')) < 16, { timeout: 3000, message: 'bone meal used up' })
  const items = () => Object.values(w.entities).filter((e) => e.name === 'item').map((e) => e.getDroppedItem() && e.getDroppedItem().name)
  await h.withTimeout(p.dig(block(p, crop)), 5000, 'break the wheat')
  await h.waitFor(() => items().includes('wheat'), { timeout: 5000, message: 'Watcher sees wheat dropped', detail: () => items().join(',') })
  assert.ok(items().every((n) => n === 'wheat' || n === 'wheat_seeds'), `only wheat and seeds: ${items()}`)
})

test('with max-chained-neighbor-updates=2 neighbour updates are deferred, not dropped: the water still spreads, and the log says so', { timeout: 40000 }, async () => {
  await h.withServer({
    name: 'flow-chained',
    props: { 'level-type': 'flat', 'view-distance': 3, 'simulation-distance': 3, 'max-chained-neighbor-updates': 2 }
  }, async (s2) => {
    const V = h.makeBot(s2.port, 'Viewer')
    await V.waitSpawn(15000)
    const v = V.bot
    const base = v.entity.position.floored()
    const c = new Vec3(base.x + 3, base.y, base.z + 3)
    s2.proc.stdin.write(`setblock ${c.x} ${c.y} ${c.z} minecraft:water\n`)
    await h.waitFor(() => [1, 2, 3, 4, 5, 6, 7].every((d) => level(at(v, c.x + d, c.y, c.z)) === d) &&
      level(at(v, c.x + 8, c.y, c.z)) === -1, {
      timeout: 15000,
      message: 'the water spreads 7 blocks east with levels 1..7',
      detail: () => [...Array(9).keys()].map((d) => level(at(v, c.x + d, c.y, c.z))).join(',')
    })
    await h.waitFor(() => /neighbour updates: a chain passed max-chained-neighbor-updates \(2\)/.test(s2.stderr()), {
      timeout: 3000, message: 'the deferral is logged'
    })
    await V.quit()
  })
})
