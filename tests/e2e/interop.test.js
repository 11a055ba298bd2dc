'use strict'
// Issue "Persistence" (#6), interoperability with another Anvil tool
// (prismarine-provider-anvil 2.13.0, which reads and writes the 1.18+ chunk
// format for 1.20.1):
//   1. a world built by that tool — a stone floor, known blocks with
//      properties at known places, desert and plains biomes, one chunk edited
//      to hold a block and a biome 1.20.1 does not have, its own level.dat —
//      is served by mcserv as it is: a bot sees every block of those 25
//      chunks exactly as written (the unknown block as air, with one warning);
//   2. after the bot edits it and the server stops, the tool reads every
//      chunk mcserv saved (the 25 and the ones it generated around them) with
//      blocks and biomes identical to what the bot saw; the chunk nobody
//      edited keeps the tool's own bytes (its unknown block included).
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const h = require('./helpers')
const u = require('./persist-util')
const { Vec3 } = require('vec3')

after(async () => {
  await h.cleanupAll()
  await u.cleanup()
})

const registry = require('prismarine-registry')(u.VERSION)
const Chunk = require('prismarine-chunk')(registry)
const Block = require('prismarine-block')(registry)
const nbt = require('prismarine-nbt')
const { Anvil, level } = require('prismarine-provider-anvil')

const B = registry.blocksByName
const state = (name, props = {}) => Block.fromProperties(name, props, 0).stateId

// Known blocks at known places (world coordinates).
const MARKERS = [
  { pos: new Vec3(3, -60, 3), name: 'gold_block' },
  { pos: new Vec3(5, -60, -4), name: 'diamond_block' },
  { pos: new Vec3(-6, -60, 2), name: 'oak_log', props: { axis: 'x' } },
  { pos: new Vec3(-3, -60, -7), name: 'oak_stairs', props: { facing: 'east', half: 'top', shape: 'straight', waterlogged: false } },
  { pos: new Vec3(17, -60, 1), name: 'lime_wool' },
  { pos: new Vec3(-20, -60, -20), name: 'glass' },
  { pos: new Vec3(2, 100, 2), name: 'glowstone' },
  { pos: new Vec3(-30, -64, 30), name: 'air' }, // a hole in the bedrock
  { pos: new Vec3(9, 37, -9), name: 'redstone_wire', props: { east: 'side', north: 'none', power: 7, south: 'up', west: 'none' } }
]
// In chunk 2,-2 an emerald block is renamed to a name 1.20.1 does not know.
const UNKNOWN_AT = new Vec3(34, -60, -30)

/** The columns as the tool writes them; returns Map "x,z" → Chunk. */
function buildColumns () {
  const cols = new Map()
  const plains = registry.biomesByName.plains.id
  const desert = registry.biomesByName.desert.id
  for (let cx = -2; cx <= 2; cx++) {
    for (let cz = -2; cz <= 2; cz++) {
      const c = new Chunk({ minY: -64, worldHeight: 384 })
      const p = new Vec3(0, 0, 0)
      for (p.x = 0; p.x < 16; p.x++) {
        for (p.z = 0; p.z < 16; p.z++) {
          p.y = -64; c.setBlockStateId(p, B.bedrock.defaultState)
          p.y = -63; c.setBlockStateId(p, B.stone.defaultState)
          p.y = -62; c.setBlockStateId(p, B.stone.defaultState)
          p.y = -61; c.setBlockStateId(p, B.grass_block.defaultState)
        }
      }
      const biome = cx === 1 && cz === 1 ? desert : plains
      for (p.y = -64; p.y < 320; p.y += 4) {
        for (p.z = 0; p.z < 16; p.z += 4) for (p.x = 0; p.x < 16; p.x += 4) c.setBiome(p, biome)
      }
      cols.set(`${cx},${cz}`, c)
    }
  }
  const at = (pos) => [cols.get(`${pos.x >> 4},${pos.z >> 4}`), new Vec3(((pos.x % 16) + 16) % 16, pos.y, ((pos.z % 16) + 16) % 16)]
  for (const m of MARKERS) {
    const [c, p] = at(m.pos)
    c.setBlockStateId(p, state(m.name, m.props))
  }
  const [c, p] = at(UNKNOWN_AT)
  c.setBlockStateId(p, B.emerald_block.defaultState)
  return cols
}

/** Writes the columns (and a level.dat) with prismarine-provider-anvil. */
async function writeWorld (worldDir, cols) {
  const region = path.join(worldDir, 'region')
  fs.mkdirSync(region, { recursive: true })
  const AnvilV = Anvil(u.VERSION)
  const anvil = new AnvilV(region)
  const { prismarineChunkToNbt } = require('prismarine-provider-anvil').chunk(u.VERSION)
  for (const [k, c] of cols) {
    const [x, z] = k.split(',').map(Number)
    if (x === 2 && z === -2) {
      // Rename emerald_block in its palette, and one biome, to unknown names.
      const tag = prismarineChunkToNbt(c, x, z)
      let renamed = 0
      for (const s of tag.value.sections.value.value) {
        for (const e of s.block_states.value.palette.value.value) {
          if (e.Name.value === 'minecraft:emerald_block') { e.Name.value = 'minecraft:future_block'; renamed++ }
        }
        if (s.Y.value === 4) s.biomes.value.palette.value.value[0] = 'minecraft:made_up_biome'
      }
      assert.equal(renamed, 1)
      await anvil.saveRaw(x, z, tag)
    } else {
      await anvil.save(x, z, c)
    }
  }
  await anvil.close()
  await level.writeLevel(path.join(worldDir, 'level.dat'), {
    Version: { Name: u.VERSION }, generatorName: 'flat', RandomSeed: [0, 20261130]
  })
}

function diffColumnsWithBiomes (a, b) {
  const d = u.diffColumns(a, b)
  if (d) return d
  const p = new Vec3(0, 0, 0)
  for (p.y = -64; p.y < 320; p.y += 4) {
    for (p.z = 0; p.z < 16; p.z += 4) {
      for (p.x = 0; p.x < 16; p.x += 4) {
        if (a.getBiome(p) !== b.getBiome(p)) return `biome at ${p}: ${a.getBiome(p)} vs ${b.getBiome(p)}`
      }
    }
  }
  return null
}

test('a world written by prismarine-provider-anvil is served as it is; the world mcserv saves reads back identically', { timeout: 85000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-e2e-interop-'))
  try {
    const port = await h.freePort()
    fs.writeFileSync(path.join(dir, 'server.properties'), [
      'server-ip=127.0.0.1', `server-port=${port}`, 'online-mode=false', 'level-type=flat',
      'gamemode=creative', 'view-distance=4', 'level-name=world', ''
    ].join('\n'))
    const cols = buildColumns()
    await writeWorld(path.join(dir, 'world'), cols)

    // 1. mcserv serves it.
    const srv = await u.startIn(dir, { name: 'interop' })
    const A = h.makeBot(port, 'Reader')
    await A.waitSpawn(15000)
    const a = A.bot
    await h.waitFor(() => {
      for (let cx = -4; cx <= 4; cx++) for (let cz = -4; cz <= 4; cz++) if (!a.world.getColumn(cx, cz)) return false
      return true
    }, { timeout: 15000, message: '81 columns around the spawn' })
    for (const m of MARKERS) {
      const blk = a.blockAt(m.pos)
      assert.equal(blk.name, m.name, `${m.name} at ${m.pos}`)
      if (m.props) {
        const got = blk.getProperties()
        for (const [k, v] of Object.entries(m.props)) assert.equal(String(got[k]), String(v), `${m.name}.${k} at ${m.pos}`)
      }
    }
    assert.equal(a.blockAt(UNKNOWN_AT).name, 'air', 'the unknown block is served as air')
    // Biome ids straight from the columns (mineflayer's Block.biome has no name here).
    assert.equal(a.world.getColumn(1, 1).getBiome(new Vec3(4, -60, 4)), registry.biomesByName.desert.id)
    assert.equal(a.world.getColumn(0, 0).getBiome(new Vec3(0, -60, 0)), registry.biomesByName.plains.id)
    // The warning is logged by a worker; the log line can reach us after the chunk did.
    await srv.waitOutput(/unknown biome 'minecraft:made_up_biome'/, { timeout: 5000 })
    await srv.waitOutput(/unknown block 'minecraft:future_block'/, { timeout: 5000 })
    const warnings = srv.output().match(/unknown block 'minecraft:future_block'/g) || []
    assert.equal(warnings.length, 1, 'one warning for the unknown block\n' + srv.describe())
    assert.match(srv.output(), /unknown biome 'minecraft:made_up_biome'.*plains/)
    // Every block of the 25 written chunks, as the bot received them.
    const expected = buildColumns()
    expected.get('2,-2').setBlockStateId(new Vec3(2, -60, 2), B.air.defaultState) // 34,-60,-30
    for (const [k, c] of expected) {
      const [x, z] = k.split(',').map(Number)
      const d = u.diffColumns(a.world.getColumn(x, z), c)
      assert.equal(d, null, `chunk ${k} as served differs from what was written: ${d}`)
    }

    // The bot edits: places four blocks, digs one marker.
    const base = a.entity.position.floored()
    const placed = [base.offset(2, 0, 2), base.offset(-2, 0, 2), base.offset(2, 0, -2), base.offset(2, 1, 2)]
    for (const p of placed) await u.placeAt(a, p, 'bricks')
    await a.dig(a.blockAt(MARKERS[0].pos))
    await h.waitFor(() => a.blockAt(MARKERS[0].pos).name === 'air', { timeout: 5000, message: 'dug' })
    const seen = new Map()
    for (let cx = -4; cx <= 4; cx++) for (let cz = -4; cz <= 4; cz++) seen.set(`${cx},${cz}`, a.world.getColumn(cx, cz))
    await A.quit()
    const from = srv.output().length
    srv.send('stop')
    const info = await srv.waitExit(15000)
    assert.ok(info && info.code === 0, srv.describe())
    u.assertNoSanitizerReport(assert, srv)
    assert.match(srv.output().slice(from), /Saved the game/)

    // 2. The tool reads what mcserv saved.
    const { columns: saved, errors } = await u.readAnvilWorld(path.join(dir, 'world'))
    // The chunk with the unknown name was never edited, so mcserv left its
    // bytes alone: the tool still cannot read its own unknown block there.
    assert.deepEqual([...errors.keys()], ['2,-2'], JSON.stringify([...errors]))
    assert.match(errors.get('2,-2'), /future_block/)
    for (const [k, col] of seen) {
      if (k === '2,-2') continue
      assert.ok(saved.has(k), `chunk ${k} is in the saved world`)
      const d = diffColumnsWithBiomes(col, saved.get(k))
      assert.equal(d, null, `chunk ${k}: what the tool reads differs from what the bot saw: ${d}`)
    }
    assert.equal(saved.get('0,0').getBlockStateId(placed[0]), B.bricks.defaultState, 'a placed block, as saved')
    assert.equal(saved.get('0,0').getBlockStateId(MARKERS[0].pos), B.air.defaultState, 'the dug marker, as saved')
    // level.dat: still readable by the tool, with the seed it wrote.
    const lvl = await level.readLevel(path.join(dir, 'world', 'level.dat'))
    assert.equal(lvl.generatorName, 'flat', 'unknown level.dat tags are kept')
    assert.equal(lvl.DataVersion, 3465)
    assert.deepEqual([...lvl.WorldGenSettings.seed], [0, 20261130], 'the seed the tool wrote (RandomSeed) is the world seed')
    h.assertNoClientProtocolErrors(assert)
  } finally {
    if (!process.env.KEEP_E2E_TMP) fs.rmSync(dir, { recursive: true, force: true })
  }
})

h.finalClientErrorCheck(test)
