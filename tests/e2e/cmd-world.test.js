'use strict'
// Issue 17, the commands that edit blocks, seen by a client (a mineflayer
// bot reads the blocks from the Block Update / Update Section Blocks it
// receives) and answered with vanilla's messages over RCON:
//
//  - setblock (replace, keep, destroy), its errors: not loaded, out of the world,
//    unknown block, a bad property;
//  - fill: hollow, outline, replace <filter>, keep, destroy; the 32,768-block
//    limit (commandModificationBlockLimit) and "No blocks were filled";
//  - clone: normal, masked, move; overlap, an unknown dimension;
//  - a player's relative coordinates (~) resolve against the player;
//  - forceload: a far chunk stays loaded with nobody near (setblock works
//    there, then a bot that goes there sees the block), query and list in
//    vanilla's order, the 256-chunk limit, data/chunks.dat in vanilla's
//    layout after save-all.
//
// One server, flat world; every wait bounded; everything on 127.0.0.1.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { Vec3 } = require('vec3')
const h = require('./helpers')
const mp = require('./mp-helpers')
const u = require('./persist-util')

const PASSWORD = 'e2e-rcon-cmd-world-77aa'
let srv, rcon, A

before(async () => {
  const rconPort = await h.freePort()
  srv = await h.startServer({
    name: 'cmd-world',
    props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': PASSWORD, 'view-distance': 3, 'spawn-protection': 0 }
  })
  rcon = await h.rconSession(rconPort, PASSWORD)
  A = h.makeBot(srv.port, 'Builder')
  await A.waitSpawn(15000)
})

after(async () => {
  if (rcon) rcon.close()
  await u.cleanup()
  await h.cleanupAll()
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)
const name = (x, y, z) => { const b = A.bot.blockAt(new Vec3(x, y, z)); return b ? b.name : null }
const waitBlock = (x, y, z, want, message) => h.waitFor(() => name(x, y, z) === want, {
  timeout: 3000, message: message || `${want} at ${x} ${y} ${z}`, detail: () => `it is ${name(x, y, z)}`
})

// Flat world: bedrock -64, dirt -63 -62, grass -61; the bot stands near 0 -60 0.

test('setblock: the client sees the block; keep, destroy and vanilla\'s errors', { timeout: 15000 }, async () => {
  assert.equal(await run('setblock 3 -61 3 gold_block'), 'Changed the block at 3, -61, 3')
  await waitBlock(3, -61, 3, 'gold_block')
  assert.equal(await run('setblock 3 -61 3 stone keep'), 'Could not set the block')
  assert.equal(await run('setblock 3 -61 3 gold_block'), 'Could not set the block', 'the same block: no change')
  assert.equal(await run('setblock 3 -60 3 stone keep'), 'Changed the block at 3, -60, 3')
  await waitBlock(3, -60, 3, 'stone')
  assert.equal(await run('setblock 3 -60 3 oak_log[axis=x] destroy'), 'Changed the block at 3, -60, 3')
  await waitBlock(3, -60, 3, 'oak_log')
  assert.equal(A.bot.blockAt(new Vec3(3, -60, 3)).getProperties().axis, 'x')
  assert.equal(await run('setblock 3 -60 3 air destroy'), 'Changed the block at 3, -60, 3')
  await waitBlock(3, -60, 3, 'air')
  assert.equal(await run('setblock 100000 0 100000 stone'), 'That position is not loaded')
  assert.equal(await run('setblock 3 320 3 stone'), 'That position is out of this world!')
  assert.equal(await run('setblock 3 -60 3 stonex'), "Unknown block type 'minecraft:stonex'\n...k 3 -60 3 stonex<--[HERE]")
  assert.equal(await run('setblock 3 -60 3 oak_log[axis=w]'),
    "Block minecraft:oak_log does not accept 'w' for axis property\n..._log[axis=w]<--[HERE]")
})

test('fill: hollow, outline, replace <filter>, keep, destroy; the limit and "No blocks were filled"', { timeout: 20000 }, async () => {
  // 5 x 3 x 5 box: 75 blocks, 66 on its faces, 9 inside (air already: no change)
  assert.equal(await run('fill 6 -60 6 10 -58 10 glass hollow'), 'Successfully filled 66 block(s)')
  await waitBlock(6, -60, 6, 'glass')
  await waitBlock(10, -58, 10, 'glass')
  assert.equal(name(8, -59, 8), 'air', 'hollow: the inside is air')
  assert.equal(await run('fill 6 -60 6 10 -58 10 glass hollow'), 'No blocks were filled')
  assert.equal(await run('fill 6 -60 6 10 -58 10 stone replace glass'), 'Successfully filled 66 block(s)')
  await waitBlock(7, -58, 7, 'stone')
  assert.equal(name(8, -59, 8), 'air', 'replace glass: the air inside stays')
  assert.equal(await run('fill 6 -60 6 10 -58 10 oak_planks keep'), 'Successfully filled 9 block(s)')
  await waitBlock(8, -59, 8, 'oak_planks')
  assert.equal(await run('fill 6 -60 6 10 -58 10 glass outline'), 'Successfully filled 66 block(s)')
  await waitBlock(6, -59, 8, 'glass')
  assert.equal(name(8, -59, 8), 'oak_planks', 'outline leaves the inside')
  assert.equal(await run('fill 6 -60 6 10 -58 10 air destroy'), 'No blocks were filled', 'vanilla counts only what is placed after the break')
  await waitBlock(8, -59, 8, 'air')
  await waitBlock(6, -60, 6, 'air')
  // 41 x 21 x 41 = 35301 > 32768
  assert.equal(await run('fill -20 -64 -20 20 -44 20 stone'), 'Too many blocks in the specified area (maximum 32768, specified 35301)')
  await run('gamerule commandModificationBlockLimit 10')
  assert.equal(await run('fill 6 -60 6 8 -58 8 stone'), 'Too many blocks in the specified area (maximum 10, specified 27)')
  await run('gamerule commandModificationBlockLimit 32768')
  assert.equal(await run('fill 6 -60 6 10 -58 10 stone replace #minecraft:logs'), "Unknown block tag 'minecraft:logs'\n...e replace #minecraft:logs<--[HERE]")
})

test('clone: a copy the client sees, masked and move; overlap and dimension errors', { timeout: 20000 }, async () => {
  await run('fill 12 -60 0 13 -59 1 air')
  assert.equal(await run('setblock 12 -60 0 diamond_block'), 'Changed the block at 12, -60, 0')
  assert.equal(await run('setblock 13 -59 1 emerald_block'), 'Changed the block at 13, -59, 1')
  // 2 x 2 x 2 = 8 blocks, air included
  assert.equal(await run('clone 12 -60 0 13 -59 1 16 -60 0'), 'Successfully cloned 8 block(s)')
  await waitBlock(16, -60, 0, 'diamond_block')
  await waitBlock(17, -59, 1, 'emerald_block')
  await run('fill 16 -60 4 17 -59 5 glass')
  assert.equal(await run('clone 12 -60 0 13 -59 1 16 -60 4 masked'), 'Successfully cloned 2 block(s)')
  await waitBlock(16, -60, 4, 'diamond_block')
  assert.equal(name(17, -60, 4), 'glass', 'masked: air is not copied')
  assert.equal(await run('clone 12 -60 0 13 -59 1 12 -60 8 replace move'), 'Successfully cloned 8 block(s)')
  await waitBlock(12, -60, 8, 'diamond_block')
  await waitBlock(12, -60, 0, 'air')
  assert.equal(await run('clone 12 -60 8 13 -59 9 13 -60 9'), 'The source and destination areas cannot overlap')
  assert.equal(await run('clone from the_nether 12 -60 8 13 -59 9 20 -60 0'), "Unknown dimension 'minecraft:the_nether'")
  assert.equal(await run('clone 12 -60 8 13 -59 9 100000 0 0'), 'That position is not loaded')
})

test('a player\'s ~ coordinates resolve against the player', { timeout: 15000 }, async () => {
  const rec = mp.recorder(A)
  await run('op Builder')
  await h.waitFor(() => A.bot.entity.onGround, { timeout: 5000, message: 'on the ground' })
  const p = A.bot.entity.position.floored()
  const m = rec.mark()
  A.bot.chat('/fill ~2 ~ ~2 ~3 ~1 ~3 lapis_block')
  await rec.waitChat(/^Successfully filled 8 block\(s\)$/, { since: m })
  await waitBlock(p.x + 2, p.y, p.z + 2, 'lapis_block')
  await waitBlock(p.x + 3, p.y + 1, p.z + 3, 'lapis_block')
  A.bot.chat('/setblock ~2 ~ ~2 minecraft:oak_log[axis=q]')
  await rec.waitChat(/^Block minecraft:oak_log does not accept 'q' for axis property$/, { since: m })
})

test('forceload: a chunk nobody is near stays loaded; query, list, limits, data/chunks.dat', { timeout: 30000 }, async () => {
  const ow = 'minecraft:overworld'
  assert.equal(await run('forceload query'), `No force loaded chunks were found in ${ow}`)
  assert.equal(await run('setblock 1600 -60 1600 gold_block'), 'That position is not loaded')
  assert.equal(await run('forceload add 1600 1600'), `Marked chunk [100, 100] in ${ow} to be force loaded`)
  assert.equal(await run('forceload add 1600 1600'), 'No chunks were marked for force loading')
  // the chunk is generated and held: setblock there works once it is ready
  await h.waitFor(async () => (await run('setblock 1600 -60 1600 gold_block')) === 'Changed the block at 1600, -60, 1600',
    { timeout: 10000, interval: 200, message: 'the forced chunk loaded' })
  assert.equal(await run('forceload query 1605 1610'), `Chunk at [100, 100] in ${ow} is marked for force loading`)
  assert.equal(await run('forceload query 0 0'), `Chunk at [0, 0] in ${ow} is not marked for force loading`)
  // vanilla's message names the first chunk marked where it says a count
  assert.equal(await run('forceload add 1600 1600 1620 1620'), `Marked [100, 101] chunks in ${ow} from [100, 100] to [101, 101] to be force loaded`)
  assert.equal(await run('forceload query'), `4 force loaded chunks were found in ${ow} at: [100, 100], [101, 100], [100, 101], [101, 101]`)
  assert.equal(await run('forceload add 0 0 300 300'), 'Too many chunks in the specified area (maximum 256, specified 361)')
  assert.equal(await run('forceload add 30000000 0'), 'That position is out of this world!')
  // the block is there for a player who comes
  await run('tp Builder 1601 -60 1601')
  await h.waitFor(() => A.bot.entity.position.x > 1500, { timeout: 5000, message: 'teleported' })
  await waitBlock(1600, -60, 1600, 'gold_block', 'the block set while nobody was there')
  // saved with the world, as vanilla's ForcedChunksSavedData
  assert.match(await run('save-all flush'), /Saving the game/)
  const file = path.join(srv.dir, 'world', 'data', 'chunks.dat')
  await h.waitFor(() => fs.existsSync(file), { timeout: 5000, message: 'data/chunks.dat written' })
  const { parsed } = await require('prismarine-nbt').parse(zlib.gunzipSync(fs.readFileSync(file)))
  const forced = parsed.value.data.value.Forced.value.map(([hi, lo]) => [lo | 0, hi | 0])
  assert.deepEqual(forced, [[100, 100], [101, 100], [100, 101], [101, 101]])
  assert.equal(parsed.value.DataVersion.value, 3465)
  assert.equal(await run('forceload remove 1616 1616'), `Unmarked chunk [101, 101] in ${ow} for force loading`)
  await run('tp Builder 0 -60 0')
  // read back at the next start: loaded again with nobody near
  await A.quit()
  rcon.close()
  rcon = null
  assert.equal((await srv.stop(5000)).code, 0)
  const srv2 = await u.startIn(srv.dir, { name: 'cmd-world-2' })
  assert.match(srv2.output(), /3 chunks force loaded \(data\/chunks\.dat\)/)
  let from = srv2.output().length
  srv2.send('forceload query')
  await srv2.waitOutput(/3 force loaded chunks were found in minecraft:overworld at: \[100, 100\], \[101, 100\], \[100, 101\]/, { from, timeout: 3000 })
  await h.waitFor(async () => {
    from = srv2.output().length
    srv2.send('setblock 1617 -60 1600 stone')
    await h.sleep(150)
    return /Changed the block at 1617, -60, 1600/.test(srv2.output().slice(from))
  }, { timeout: 10000, interval: 100, message: 'the forced chunk is loaded after the restart' })
  srv2.send('forceload remove all')
  await srv2.waitOutput(/Unmarked all force loaded chunks in minecraft:overworld/, { from, timeout: 3000 })
  srv2.send('forceload remove 1616 1616')
  await srv2.waitOutput(/No chunks were removed from force loading/, { from, timeout: 3000 })
  const info2 = await srv2.stop(5000)
  assert.equal(info2.code, 0, 'a clean exit')
  u.assertNoSanitizerReport(assert, srv)
  u.assertNoSanitizerReport(assert, srv2)
})
