'use strict'
// Issue 21: growth and decay, seen by mineflayer bots on a flat world.
//   1. Gardener (survival) cannot plant a sapling on sand, plants one on
//      grass and uses bone meal on it (given over RCON) until it grows:
//      Watcher sees an oak trunk where the sapling was and leaves above.
//   2. The tree's trunk removed (RCON fill), its leaves, grown from a
//      sapling and so not persistent, decay on random ticks (sped up); a
//      leaf block Gardener placed in the crown stays (persistent).
//   3. Sugar cane set on sand beside water grows to 3 tall and no taller;
//      the water replaced by stone, the whole stalk breaks and drops cane
//      at its next neighbour update.
//   4. A grass block turned to dirt gets its grass back from the grass
//      around it; grass under stone turns to dirt.
//   5. Ice and a snow layer beside glowstone melt (block light 14); ice
//      in sky light alone stays.
//   6. Cactus on sand grows; a block set beside it breaks it.
//   7. A player jumping on farmland tramples it to dirt (FarmBlock.fallOn).
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const { Vec3 } = require('vec3')

let srv, rcon, G, W

before(async () => {
  ({ srv, rcon } = await h.flatRconServer('growth', { 'simulation-distance': 3 }))
  G = h.makeBot(srv.port, 'Gardener')
  W = h.makeBot(srv.port, 'Watcher')
  await Promise.all([G.waitSpawn(15000), W.waitSpawn(15000)])
})

after(async () => {
  await h.closeFlatRconServer(srv, rcon, [G, W])
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)
const at = (bot, v) => bot.blockAt(v)
const name = (bot, v) => { const b = at(bot, v); return b ? b.name : '?' }
const up = new Vec3(0, 1, 0)

async function fast (fn) {
  await run('gamerule randomTickSpeed 1000')
  try { return await fn() } finally { await run('gamerule randomTickSpeed 3') }
}

let tree // the sapling's spot, for test 2

test('a sapling is planted only on dirt-like ground and grows into an oak with bone meal', { timeout: 30000 }, async () => {
  const g = G.bot
  const w = W.bot
  const base = g.entity.position.floored()
  const id = (n) => g.registry.itemsByName[n].id
  const ground = new Vec3(base.x + 3, base.y - 1, base.z)
  const sand = new Vec3(base.x - 3, base.y - 1, base.z)
  await run(`setblock ${sand.x} ${sand.y} ${sand.z} minecraft:sand`)
  assert.match(await run('give Gardener minecraft:oak_sapling 2'), /Gave 2/)
  assert.match(await run('give Gardener minecraft:bone_meal 64'), /Gave 64/)
  await h.waitFor(() => g.inventory.count(id('oak_sapling')) === 2 && g.inventory.count(id('bone_meal')) === 64,
    { timeout: 5000, message: 'Gardener has saplings and bone meal' })
  await h.waitFor(() => name(g, sand) === 'sand', { timeout: 3000, message: 'Gardener sees the sand' })
  await g.equip(id('oak_sapling'), 'hand')
  await g.activateBlock(at(g, sand), up).catch(() => {})
  await h.sleep(600)
  assert.equal(name(w, sand.offset(0, 1, 0)), 'air', 'no sapling on sand')
  assert.equal(g.inventory.count(id('oak_sapling')), 2, 'the sapling is not used up on sand')
  await g.activateBlock(at(g, ground), up)
  const spot = ground.offset(0, 1, 0)
  await h.waitFor(() => name(w, spot) === 'oak_sapling', { timeout: 5000, message: 'Watcher sees the sapling on grass', detail: () => name(w, spot) })
  await g.equip(id('bone_meal'), 'hand')
  for (let i = 0; i < 40 && name(g, spot) === 'oak_sapling'; i++) {
    await g.activateBlock(at(g, spot), up)
    await h.sleep(150)
  }
  await h.waitFor(() => name(w, spot) === 'oak_log', { timeout: 5000, message: 'Watcher sees an oak trunk where the sapling was', detail: () => name(w, spot) })
  assert.ok(g.inventory.count(id('bone_meal')) < 64, 'bone meal used up')
  assert.equal(name(w, ground), 'dirt', 'the grass under the trunk is dirt (TrunkPlacer.setDirtAt)')
  let leaves = 0
  for (let dy = 2; dy <= 12; dy++) for (let dx = -3; dx <= 3; dx++) for (let dz = -3; dz <= 3; dz++) if (name(w, spot.offset(dx, dy, dz)) === 'oak_leaves') leaves++
  assert.ok(leaves >= 20, `Watcher sees the crown (${leaves} oak leaves)`)
  tree = spot
})

test('leaves of a grown tree decay once its trunk is gone; leaves a player placed stay', { timeout: 30000 }, async () => {
  assert.ok(tree, 'the tree of the first test')
  const g = G.bot
  const w = W.bot
  const id = (n) => g.registry.itemsByName[n].id
  const crown = []
  for (let dy = 2; dy <= 12; dy++) for (let dx = -3; dx <= 3; dx++) for (let dz = -3; dz <= 3; dz++) {
    const v = tree.offset(dx, dy, dz)
    if (name(w, v) === 'oak_leaves') crown.push(v)
  }
  // A persistent leaf: Gardener places one on top of the crown's highest leaf.
  const top = crown.reduce((a, b) => (b.y > a.y ? b : a))
  assert.match(await run('give Gardener minecraft:oak_leaves'), /Gave 1/)
  await h.waitFor(() => g.inventory.count(id('oak_leaves')) === 1, { timeout: 3000, message: 'Gardener has a leaf block' })
  await run(`tp Gardener ${top.x + 0.5} ${top.y + 1} ${top.z + 2.5}`)
  await h.sleep(500)
  await g.equip(id('oak_leaves'), 'hand')
  const mine = top.offset(0, 1, 0)
  await g.activateBlock(at(g, top), up)
  await h.waitFor(() => name(w, mine) === 'oak_leaves', { timeout: 5000, message: 'Watcher sees the placed leaves' })
  assert.equal(at(w, mine).getProperties().persistent, true, 'placed leaves are persistent')
  assert.equal(at(w, crown[0]).getProperties().persistent, false, 'grown leaves are not')
  await run(`fill ${tree.x} ${tree.y} ${tree.z} ${tree.x} ${tree.y + 14} ${tree.z} minecraft:air replace minecraft:oak_log`)
  await h.waitFor(() => name(w, tree) === 'air', { timeout: 3000, message: 'the trunk is gone' })
  await fast(() => h.waitFor(() => crown.every((v) => name(w, v) !== 'oak_leaves'), {
    timeout: 15000,
    message: 'every grown leaf decays',
    detail: () => `${crown.filter((v) => name(w, v) === 'oak_leaves').length} of ${crown.length} left`
  }))
  assert.equal(name(w, mine), 'oak_leaves', 'the placed (persistent) leaves stay')
  await run(`tp Gardener ${tree.x - 3} ${tree.y} ${tree.z}`)
})

test('sugar cane beside water grows to 3 tall and breaks with drops when the water goes', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = w.entity.position.floored()
  const s = new Vec3(base.x, base.y - 1, base.z - 4)
  const water = s.offset(1, 0, 0)
  await run(`setblock ${s.x} ${s.y} ${s.z} minecraft:sand`)
  await run(`setblock ${water.x} ${water.y} ${water.z} minecraft:water`)
  await run(`setblock ${s.x} ${s.y + 1} ${s.z} minecraft:sugar_cane`)
  const height = () => { let n = 0; while (n < 5 && name(w, s.offset(0, 1 + n, 0)) === 'sugar_cane') n++; return n }
  await h.waitFor(() => height() === 1, { timeout: 3000, message: 'Watcher sees the cane' })
  await fast(() => h.waitFor(() => height() === 3, { timeout: 20000, message: 'the cane grows to 3 tall', detail: () => `height ${height()}` }))
  await h.sleep(1000)
  assert.equal(height(), 3, 'no taller than 3')
  // As vanilla, the cane notices on its next neighbour update (here a
  // block set beside it), not when the water goes.
  await run(`setblock ${water.x} ${water.y} ${water.z} minecraft:stone`)
  await h.sleep(500)
  assert.equal(height(), 3, 'no neighbour update yet: the cane stands')
  await run(`setblock ${s.x} ${s.y + 1} ${s.z + 1} minecraft:stone`)
  await h.waitFor(() => height() === 0, { timeout: 3000, message: 'the cane breaks without water', detail: () => `height ${height()}` })
  const items = () => Object.values(w.entities).filter((e) => e.name === 'item').map((e) => e.getDroppedItem() && e.getDroppedItem().name)
  await h.waitFor(() => items().includes('sugar_cane'), { timeout: 3000, message: 'Watcher sees sugar cane dropped', detail: () => items().join(',') })
})

test('grass spreads back onto dirt and dies under stone', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = w.entity.position.floored()
  const d = new Vec3(base.x - 2, base.y - 1, base.z + 4)
  const covered = new Vec3(base.x + 2, base.y - 1, base.z + 4)
  await run(`setblock ${d.x} ${d.y} ${d.z} minecraft:dirt`)
  await run(`setblock ${covered.x} ${covered.y + 1} ${covered.z} minecraft:stone`)
  await h.waitFor(() => name(w, d) === 'dirt', { timeout: 3000, message: 'Watcher sees the dirt' })
  await fast(() => h.waitFor(() => name(w, d) === 'grass_block' && name(w, covered) === 'dirt', {
    timeout: 15000, message: 'the dirt grows grass again and the covered grass is dirt', detail: () => `${name(w, d)} ${name(w, covered)}`
  }))
})

test('ice and snow melt beside glowstone; ice in sky light alone stays', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = w.entity.position.floored()
  const glow = new Vec3(base.x + 4, base.y, base.z + 4)
  const ice = glow.offset(1, 0, 0)
  const snow = glow.offset(-1, 0, 0)
  const far = glow.offset(0, 0, -8)
  await run(`setblock ${glow.x} ${glow.y} ${glow.z} minecraft:glowstone`)
  await run(`setblock ${ice.x} ${ice.y} ${ice.z} minecraft:ice`)
  await run(`setblock ${snow.x} ${snow.y} ${snow.z} minecraft:snow`)
  await run(`setblock ${far.x} ${far.y} ${far.z} minecraft:ice`)
  await h.waitFor(() => name(w, far) === 'ice', { timeout: 3000, message: 'Watcher sees the ice' })
  await fast(() => h.waitFor(() => name(w, ice) === 'water' && name(w, snow) === 'air', {
    timeout: 15000, message: 'the ice beside glowstone is water and the snow gone', detail: () => `${name(w, ice)} ${name(w, snow)}`
  }))
  assert.equal(name(w, far), 'ice', 'ice under the open sky alone does not melt')
})

test('cactus on sand grows; a block beside it breaks it', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = w.entity.position.floored()
  const s = new Vec3(base.x - 4, base.y - 1, base.z - 4)
  await run(`setblock ${s.x} ${s.y} ${s.z} minecraft:sand`)
  await run(`setblock ${s.x} ${s.y + 1} ${s.z} minecraft:cactus`)
  const height = () => { let n = 0; while (n < 5 && name(w, s.offset(0, 1 + n, 0)) === 'cactus') n++; return n }
  await h.waitFor(() => height() === 1, { timeout: 3000, message: 'Watcher sees the cactus' })
  await fast(() => h.waitFor(() => height() >= 2, { timeout: 20000, message: 'the cactus grows', detail: () => `height ${height()}` }))
  await run(`setblock ${s.x + 1} ${s.y + 1} ${s.z} minecraft:cobblestone`)
  await h.waitFor(() => name(w, s.offset(0, 1, 0)) !== 'cactus', { timeout: 3000, message: 'the cactus breaks beside cobblestone' })
})

test('a player jumping on farmland tramples it to dirt', { timeout: 30000 }, async () => {
  const g = G.bot
  const w = W.bot
  const base = g.entity.position.floored()
  const f = new Vec3(base.x, base.y - 1, base.z)
  await run(`setblock ${f.x} ${f.y} ${f.z} minecraft:farmland`)
  await h.waitFor(() => name(w, f) === 'farmland' && name(g, f) === 'farmland', { timeout: 3000, message: 'both bots see the farmland' })
  await h.sleep(500) // settle onto it
  for (let i = 0; i < 12 && name(w, f) === 'farmland'; i++) {
    g.setControlState('jump', true)
    await h.sleep(250)
    g.setControlState('jump', false)
    await h.sleep(700)
  }
  await h.waitFor(() => name(w, f) === 'dirt', { timeout: 3000, message: 'Watcher sees the farmland trampled to dirt', detail: () => name(w, f) })
})
