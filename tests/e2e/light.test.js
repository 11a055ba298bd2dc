'use strict'
// Issue 15, "light across chunk borders" (acceptance 6), with real clients:
//   1. a bot places a torch at x = 15 of a chunk: the neighbouring chunk's
//      block light (x = 16, 17, 18) is 13, 12, 11 in the Update Light the
//      bot gets, and in the Chunk Data a bot joining later gets;
//      breaking the torch clears the neighbour's light;
//   2. sky light under an overhang at a chunk edge: a roof over x = 16..23
//      (the neighbour of an open column) is lit 14, 13, 12 from the side.
// Each server then stops cleanly, with no sanitizer report (ASan builds).
// Light is decoded from the packets (light-decode.js), as the world test does.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const { Vec3 } = require('vec3')
const { lightAt, collectLight } = require('./light-decode')
const pu = require('./persist-util')

after(h.cleanupAll)

const LAYERS = JSON.stringify({
  layers: [
    { block: 'minecraft:bedrock', height: 1 },
    { block: 'minecraft:stone', height: 10 },
    { block: 'minecraft:dirt', height: 2 },
    { block: 'minecraft:grass_block', height: 1 }
  ],
  biome: 'minecraft:plains'
})
const GRASS_Y = -64 + 14 - 1 // y of the top grass block: -51

test('a torch at a chunk edge lights the neighbouring chunk; breaking it clears the light', { timeout: 60000 }, async () => {
  const srv = await h.startServer({
    name: 'light-edge',
    props: { 'level-type': 'flat', 'generator-settings': LAYERS, gamemode: 'creative', 'view-distance': '3' }
  })
  const A = h.makeBot(srv.port, 'Lighter')
  const seen = collectLight(A.bot._client)
  await A.waitSpawn(15000)
  const a = A.bot
  const Item = require('prismarine-item')(a.registry)
  // The edge: x = 15 of the bot's chunk; stand two blocks west of it.
  const base = a.entity.position.floored()
  const x15 = Math.floor(base.x / 16) * 16 + 15
  const z = base.z
  srv.proc.stdin.write(`tp Lighter ${x15 - 2} ${GRASS_Y + 1} ${z}\n`)
  await h.waitFor(() => Math.abs(a.entity.position.x - (x15 - 2)) < 1, { timeout: 5000, message: 'teleported next to the chunk edge' })
  const torch = new Vec3(x15, GRASS_Y + 1, z)
  const east = (k) => torch.offset(k, 0, 0) // k = 1 is x = 16: the next chunk
  await h.waitFor(() => lightAt(seen, east(1), 'block') !== undefined, { timeout: 5000, message: 'the neighbouring chunk is loaded' })
  assert.equal(lightAt(seen, east(1), 'block'), 0, 'no block light there before the torch')

  await a.creative.setInventorySlot(36, new Item(a.registry.itemsByName.torch.id, 1))
  a.setQuickBarSlot(0)
  await a.placeBlock(a.blockAt(torch.offset(0, -1, 0)), new Vec3(0, 1, 0))
  await h.waitFor(() => a.blockAt(torch) && a.blockAt(torch).name === 'torch', { timeout: 5000, message: 'the torch is placed' })
  const got = () => [0, 1, 2, 3].map((k) => lightAt(seen, east(k), 'block'))
  await h.waitFor(() => got().join() === '14,13,12,11', {
    timeout: 5000,
    message: 'block light 14 at the torch and 13, 12, 11 in the neighbouring chunk',
    detail: () => `block light at x = ${x15}..${x15 + 3}: ${got().join(', ')}; ` +
      `${seen.filter((p) => p.chunkX !== undefined).length} update_light packets`
  })
  assert.equal(lightAt(seen, torch.offset(1, 0, 1), 'block'), 12, 'diagonally across the edge: two steps')
  assert.equal(lightAt(seen, east(1), 'sky'), 15, 'the sky is open there')

  // A bot joining now gets the light in the neighbour's Chunk Data.
  const C = h.makeBot(srv.port, 'Latecomer')
  const late = collectLight(C.bot._client)
  await C.waitSpawn(15000)
  await h.waitFor(() => lightAt(late, east(1), 'block') !== undefined, { timeout: 5000, message: 'the latecomer gets the neighbouring chunk' })
  assert.deepEqual([1, 2, 3].map((k) => lightAt(late, east(k), 'block')), [13, 12, 11],
    'the latecomer reads 13, 12, 11 from the Chunk Data')

  // Breaking the torch clears the neighbour's light.
  await a.dig(a.blockAt(torch))
  await h.waitFor(() => got().join() === '0,0,0,0', {
    timeout: 5000,
    message: 'no block light left on either side once the torch is gone',
    detail: () => `block light at x = ${x15}..${x15 + 3}: ${got().join(', ')}`
  })
  await h.waitFor(() => lightAt(late, east(1), 'block') === 0, { timeout: 5000, message: 'the latecomer sees the light go too' })
  await Promise.all([A.quit(), C.quit()])
  await srv.stop()
  pu.assertNoSanitizerReport(assert, srv)
  assert.match(srv.output(), /chunk light: \d+ columns generated or loaded, \d+ relights \(\d+ changed the light\)/,
    'the server reports its relights at shutdown')
  h.assertNoClientProtocolErrors(assert)
})

test('sky light under an overhang at a chunk edge comes in from the open neighbour', { timeout: 60000 }, async () => {
  const srv = await h.startServer({
    name: 'light-overhang',
    props: { 'level-type': 'flat', 'generator-settings': LAYERS, gamemode: 'creative', 'view-distance': '3' }
  })
  const A = h.makeBot(srv.port, 'Roofer')
  const seen = collectLight(A.bot._client)
  await A.waitSpawn(15000)
  const base = A.bot.entity.position.floored()
  const x16 = Math.floor(base.x / 16) * 16 + 16 // the first column of the next chunk east
  const z = base.z + 24
  const y = GRASS_Y + 1 // the air just above the grass
  const cell = (k) => new Vec3(x16 + k, y, z)
  // Every chunk the roof touches is loaded (the bot has them) before the fill.
  await h.waitFor(() => [-8, 0, 8].every((dz) => lightAt(seen, cell(0).offset(0, 0, dz), 'sky') !== undefined),
    { timeout: 10000, message: 'the chunks under the roof are loaded' })
  assert.equal(lightAt(seen, cell(0), 'sky'), 15, 'open sky before the roof')
  // A stone roof three blocks up over x16..x16+7, z-8..z+8: all in the east chunk.
  srv.proc.stdin.write(`fill ${x16} ${y + 3} ${z - 8} ${x16 + 7} ${y + 3} ${z + 8} minecraft:stone\n`)
  await h.waitFor(() => /Successfully filled 136 block/.test(srv.output()), { timeout: 5000, message: 'the roof is built', detail: () => h.tail(srv.output(), 800) })
  const got = () => [0, 1, 2, 4].map((k) => lightAt(seen, cell(k), 'sky'))
  // From the open column at x16 - 1 (15): one step in 14, then 13, 12;
  // four in, 11 from that side and 11 from the open side at x16 + 8.
  await h.waitFor(() => got().join() === '14,13,12,11', {
    timeout: 5000,
    message: 'sky light 14, 13, 12, 11 under the roof',
    detail: () => `sky light under the roof at x16 + 0, 1, 2, 4: ${got().join(', ')}`
  })
  assert.equal(lightAt(seen, cell(-1), 'sky'), 15, 'the open column west of the edge stays 15')
  assert.equal(lightAt(seen, cell(1).offset(0, 4, 0), 'sky'), 15, 'on the roof: open sky')
  await A.quit()
  await srv.stop()
  pu.assertNoSanitizerReport(assert, srv)
  h.assertNoClientProtocolErrors(assert)
})

h.finalClientErrorCheck(test)
