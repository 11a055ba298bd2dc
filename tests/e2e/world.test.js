'use strict'
// Issue "World": terrain generation, chunk streaming, light and block editing,
// checked with real clients (mineflayer, minecraft-protocol).
//   1. a bot in a `normal` world flies 200 blocks in one direction, keeps
//      receiving chunks, finds the chunk under it loaded when it arrives, and
//      is told to unload the chunks it left behind;
//   2. bot A digs a block and places another; bot B sees both; a torch placed
//      in an enclosed dark space raises block light there, for B (Update
//      Light) and for C joining afterwards (Chunk Data);
//   3. the same seed gives byte-identical chunk sections in two separate runs.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const { lightAt } = require('./light-decode')
const { Vec3 } = require('vec3')
const mc = require('minecraft-protocol')

after(h.cleanupAll)

test('a bot flies 200 blocks through a normal world: chunks stream in ahead and unload behind', { timeout: 90000 }, async () => {
  const VIEW = 4
  const srv = await h.startServer({
    name: 'travel',
    props: { 'level-type': 'normal', 'level-seed': '20261130', 'view-distance': String(VIEW), gamemode: 'creative' }
  })
  const b = h.makeBot(srv.port, 'Traveller')
  const unloads = []
  b.bot._client.on('unload_chunk', (p) => unloads.push(`${p.chunkX},${p.chunkZ}`))
  await b.waitSpawn(20000)
  const bot = b.bot
  const start = bot.entity.position.clone()
  const startChunk = `${Math.floor(start.x / 16)},${Math.floor(start.z / 16)}`
  // Rise above the terrain first so nothing is in the way, then fly east.
  await h.withTimeout(bot.creative.flyTo(new Vec3(start.x, 180, start.z)), 30000, 'fly up')
  const chunksBefore = b.mapChunkPackets
  const dest = new Vec3(start.x + 200, 180, start.z)
  await h.withTimeout(bot.creative.flyTo(dest), 45000, 'fly 200 blocks east')
  assert.ok(bot.entity.position.distanceTo(dest) < 1, `arrived at ${bot.entity.position}`)
  // The column under the bot is loaded on arrival (or within a moment).
  await h.waitFor(() => bot.world.getColumnAt(bot.entity.position) != null, {
    timeout: 5000,
    message: 'the chunk under the bot is loaded',
    detail: () => `${b.describe()}\n${srv.describe()}`
  })
  const below = bot.blockAt(new Vec3(dest.x, 60, dest.z))
  assert.ok(below, 'blockAt under the bot works (chunk present)')
  // 200 blocks east is 12+ chunk columns: each step brings a new row of 2r+1.
  const gained = b.mapChunkPackets - chunksBefore
  assert.ok(gained >= 12 * (2 * VIEW + 1), `received ${gained} chunks on the way (expected ≥ ${12 * (2 * VIEW + 1)})`)
  assert.ok(unloads.length >= 12 * (2 * VIEW + 1) - 2 * VIEW - 1, `got ${unloads.length} unload_chunk packets`)
  assert.ok(unloads.includes(startChunk), `the start chunk ${startChunk} was unloaded (unloads: ${unloads.slice(0, 10).join(' ')} …)`)
  assert.equal(bot.world.getColumn(Math.floor(start.x / 16), Math.floor(start.z / 16)), undefined,
    'the client dropped the start chunk')
  await b.quit()
  h.assertNoClientProtocolErrors(assert)
})

test('A digs and places, B sees both; a torch in a closed dark room lights it for B and for a later C', { timeout: 60000 }, async () => {
  // A thick stone floor so there is room to dig a closed cell under the grass.
  const layers = JSON.stringify({
    layers: [
      { block: 'minecraft:bedrock', height: 1 },
      { block: 'minecraft:stone', height: 10 },
      { block: 'minecraft:dirt', height: 2 },
      { block: 'minecraft:grass_block', height: 1 }
    ],
    biome: 'minecraft:plains'
  })
  const srv = await h.startServer({
    name: 'edit',
    props: { 'level-type': 'flat', 'generator-settings': layers, gamemode: 'creative', 'view-distance': '3' }
  })
  const A = h.makeBot(srv.port, 'Builder')
  const B = h.makeBot(srv.port, 'Watcher')
  await Promise.all([A.waitSpawn(15000), B.waitSpawn(15000)])
  const a = A.bot
  const b = B.bot
  const Item = require('prismarine-item')(a.registry)
  const surfaceY = -64 + 14 - 1 // top grass block: y = -51
  const base = a.entity.position.floored()
  assert.equal(base.y, surfaceY + 1, `standing on the grass (at ${a.entity.position})`)
  const waitBlock = (bot, pos, name) => h.waitFor(() => bot.blockAt(pos) && bot.blockAt(pos).name === name, {
    timeout: 5000,
    message: `${bot.username} sees ${name} at ${pos}`,
    detail: () => `it sees ${bot.blockAt(pos) && bot.blockAt(pos).name}`
  })
  await waitBlock(b, new Vec3(base.x + 2, surfaceY, base.z), 'grass_block')

  // 1. Dig the grass two blocks east; place stone on the grass three blocks east.
  const digPos = new Vec3(base.x + 2, surfaceY, base.z)
  await a.dig(a.blockAt(digPos))
  await waitBlock(b, digPos, 'air')
  await a.creative.setInventorySlot(36, new Item(a.registry.itemsByName.stone.id, 1))
  a.setQuickBarSlot(0)
  const placeOn = new Vec3(base.x + 3, surfaceY, base.z)
  await a.placeBlock(a.blockAt(placeOn), new Vec3(0, 1, 0))
  await waitBlock(b, placeOn.offset(0, 1, 0), 'stone')
  await waitBlock(a, placeOn.offset(0, 1, 0), 'stone')

  // 2. A closed cell two blocks under the dug hole: dig it out from above,
  //    put a torch on its floor, then close the hole above it with stone.
  const cell = digPos.offset(0, -2, 0) // dirt at y=-53 → air room, floor is stone below
  const shaft = digPos.offset(0, -1, 0)
  await a.dig(a.blockAt(shaft))
  await a.dig(a.blockAt(cell))
  await waitBlock(b, cell, 'air')
  const lightB = []
  b._client.on('update_light', (p) => lightB.push(p))
  await a.creative.setInventorySlot(37, new Item(a.registry.itemsByName.torch.id, 1))
  a.setQuickBarSlot(1)
  await a.placeBlock(a.blockAt(cell.offset(0, -1, 0)), new Vec3(0, 1, 0))
  await waitBlock(b, cell, 'torch')
  a.setQuickBarSlot(0)
  await a.creative.setInventorySlot(36, new Item(a.registry.itemsByName.stone.id, 2))
  await a.placeBlock(a.blockAt(digPos.offset(1, 0, 0)), new Vec3(-1, 0, 0)) // refill the hole at grass level
  await a.placeBlock(a.blockAt(digPos), new Vec3(0, -1, 0)) // and the shaft under it
  await waitBlock(b, shaft, 'stone')
  // Light is read straight from the packets, the way the vanilla client
  // reads it (DataLayer: byte i>>1, low nibble for even i). prismarine-chunk
  // reads light arrays as big-endian longs, which permutes nibbles, so
  // mineflayer's getBlockLight() cannot be trusted for exact values.
  // The newest Update Light (after the shaft was closed): torch light, no sky.
  await h.waitFor(() => lightAt(lightB, cell, 'block') === 14 && lightAt(lightB, cell, 'sky') === 0, {
    timeout: 5000,
    message: 'B gets Update Light with block light 14 and sky light 0 at the torch',
    detail: () => `${lightB.length} update_light packets; block light there: ` +
      `${lightAt(lightB, cell, 'block')}, sky light ${lightAt(lightB, cell, 'sky')}`
  })
  assert.equal(lightAt(lightB, cell.offset(2, 0, 0), 'block'), 0, 'no light through the solid walls')

  // 3. C joins afterwards and gets the light in the Chunk Data itself.
  const C = h.makeBot(srv.port, 'Latecomer')
  const chunkC = []
  C.bot._client.on('map_chunk', (p) => chunkC.push(p))
  await C.waitSpawn(15000)
  await h.waitFor(() => lightAt(chunkC, cell, 'block') !== undefined, { timeout: 5000, message: 'C gets the chunk with the room' })
  assert.equal(lightAt(chunkC, cell, 'block'), 14, 'C reads block light 14 from the Chunk Data')
  assert.equal(lightAt(chunkC, cell, 'sky'), 0, 'and no sky light')
  await Promise.all([A.quit(), B.quit(), C.quit()])
  h.assertNoClientProtocolErrors(assert)
})

test('spawn protection: with an operator on the server, only operators change blocks near spawn', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'protect', props: { gamemode: 'creative', 'spawn-protection': '4', 'view-distance': '2' } })
  const A = h.makeBot(srv.port, 'OpAlice')
  const B = h.makeBot(srv.port, 'GuestBob')
  await Promise.all([A.waitSpawn(15000), B.waitSpawn(15000)])
  srv.proc.stdin.write('op OpAlice\n')
  await h.waitFor(() => /Made OpAlice a server operator/.test(srv.output()), { timeout: 5000, message: 'OpAlice is an operator' })
  const base = B.bot.entity.position.floored()
  const near = new Vec3(base.x + 2, base.y - 1, base.z) // grass, within 4 of spawn
  await B.bot.dig(B.bot.blockAt(near)).catch(() => {})
  await h.sleep(500)
  assert.equal(A.bot.blockAt(near).name, 'grass_block', 'a guest cannot dig inside the protected square')
  assert.equal(B.bot.blockAt(near).name, 'grass_block', 'and the guest is told the real block back')
  await A.bot.dig(A.bot.blockAt(near))
  await h.waitFor(() => B.bot.blockAt(near) && B.bot.blockAt(near).name === 'air', { timeout: 5000, message: 'the operator can dig there' })
  await Promise.all([A.quit(), B.quit()])
})

/** Collects the raw chunk data of the chunks around spawn from one server run. */
async function chunkSections (seed) {
  const srv = await h.startServer({ name: `seed-${seed}`, props: { 'level-type': 'normal', 'level-seed': String(seed), 'view-distance': '3' } })
  const client = mc.createClient({ host: '127.0.0.1', port: srv.port, username: 'SeedCheck', version: '1.20.1', auth: 'offline' })
  const got = new Map()
  client.on('map_chunk', (p) => got.set(`${p.x},${p.z}`, Buffer.from(p.chunkData).toString('hex')))
  client.on('position', (p) => client.write('teleport_confirm', { teleportId: p.teleportId }))
  await h.waitFor(() => got.size >= 49, { timeout: 20000, message: '49 chunks', detail: () => `${got.size} chunks` })
  client.end()
  await srv.stop()
  return got
}

test('the same seed gives byte-identical chunk sections in two separate runs', { timeout: 60000 }, async () => {
  const first = await chunkSections(987654321)
  const second = await chunkSections(987654321)
  let compared = 0
  for (const [k, v] of first) {
    if (!second.has(k)) continue
    assert.equal(second.get(k), v, `chunk ${k} differs between runs`)
    compared++
  }
  assert.ok(compared >= 49, `compared ${compared} chunks`)
  const other = await chunkSections(123)
  let differs = 0
  for (const [k, v] of first) if (other.has(k) && other.get(k) !== v) differs++
  assert.ok(differs > 0, 'another seed gives other terrain')
})

h.finalClientErrorCheck(test)
