'use strict'
// Issue 14, acceptance 6 and "Containers and block entities", what players notice:
//   1. Two survival bots (mineflayer) have one chest open at the same time:
//      the cobblestone Alice deposits (window.deposit: clicks) shows
//      in Bob's window while it is open, and the lid counts both (Block
//      Action: 2 viewers, then 0); after `stop` and a restart the chest
//      still holds 5 cobblestone (block_entities in the chunk NBT); a
//      second chest placed beside it makes a double chest (types left and
//      right, a 54-slot generic_9x6 window holding the same 5); breaking the
//      half with the cobblestone drops them (picked up again) and turns the
//      other half single; a wooden door Alice places opens when she uses it
//      and Bob sees open=true on both halves, an iron door does not open by
//      hand; a barrel opens and shows open=true while it is open; a window
//      closes when its player is teleported 12 blocks away or its block goes.
//   2. A world written by prismarine-provider-anvil with a chest block
//      entity holding known items and a CustomName (and a furnace's block
//      entity mcserv does not interpret): a bot opening the chest sees
//      exactly those items under that name, and
//      after a save the furnace's block entity is still in the chunk, tag for
//      tag.
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

function serverDir (name, port, extra = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcserv-e2e-${name}-`))
  fs.writeFileSync(path.join(dir, 'server.properties'), [
    'server-ip=127.0.0.1', `server-port=${port}`, 'online-mode=false', 'level-type=flat',
    'gamemode=survival', 'view-distance=3', 'spawn-protection=0', 'level-name=world', ...extra, ''
  ].join('\n'))
  return dir
}

const countIn = (items, name) => items.filter((it) => it.name === name).reduce((n, it) => n + it.count, 0)

async function stopClean (srv) {
  const from = srv.output().length
  srv.send('stop')
  const info = await srv.waitExit(15000)
  assert.ok(info, 'the server exits after `stop`\n' + srv.describe())
  assert.equal(info.code, 0, srv.describe())
  assert.match(srv.output().slice(from), /Saved the game/)
  u.assertNoSanitizerReport(assert, srv)
}

test('two bots share a chest; it survives a restart, doubles, drops its items when broken; doors open for everyone', { timeout: 150000 }, async () => {
  const port = await h.freePort()
  const dir = serverDir('chest', port)
  try {
    let srv = await u.startIn(dir, { name: 'chest' })
    const A = h.makeBot(port, 'Alice')
    await A.waitSpawn(15000)
    const B = h.makeBot(port, 'Bob')
    await B.waitSpawn(15000)
    let a = A.bot
    const b = B.bot
    const id = (n) => a.registry.itemsByName[n].id
    srv.send('give Alice minecraft:chest 2')
    srv.send('give Alice minecraft:cobblestone 5')
    srv.send('give Alice minecraft:oak_door 1')
    await h.waitFor(() => a.inventory.count(id('chest')) === 2 && a.inventory.count(id('cobblestone')) === 5 &&
      a.inventory.count(id('oak_door')) === 1, { timeout: 5000, message: 'Alice holds 2 chests, 5 cobblestone, a door' })

    // Alice places a chest two blocks east of where she stands.
    const base = a.entity.position.floored()
    const chestPos = base.offset(2, 0, 0)
    await a.equip(id('chest'), 'hand')
    await h.withTimeout(a.placeBlock(a.blockAt(chestPos.offset(0, -1, 0)), new Vec3(0, 1, 0)), 10000, 'place the chest')
    await h.waitFor(() => b.blockAt(chestPos) && b.blockAt(chestPos).name === 'chest', { timeout: 5000, message: 'Bob sees the chest' })
    assert.equal(a.blockAt(chestPos).getProperties().facing, 'west', 'a chest faces the player who placed it')
    assert.equal(a.blockAt(chestPos).getProperties().type, 'single')

    // Both open it; Alice deposits, Bob's open window shows the stack. The
    // lid: Block Action 1 with the viewer count, to everyone near.
    const lid = []
    b._client.on('block_action', (p) => {
      if (p.location.x === chestPos.x && p.location.y === chestPos.y && p.location.z === chestPos.z && p.byte1 === 1) lid.push(p.byte2)
    })
    const wa = await h.withTimeout(a.openContainer(a.blockAt(chestPos)), 8000, 'Alice opens the chest')
    const wb = await h.withTimeout(b.openContainer(b.blockAt(chestPos)), 8000, 'Bob opens the chest')
    assert.equal(wa.inventoryStart, 27, 'a single chest has 27 slots')
    assert.equal(wb.containerItems().length, 0, 'the new chest is empty')
    await h.withTimeout(wa.deposit(id('cobblestone'), null, 5), 8000, 'deposit 5 cobblestone')
    await h.waitFor(() => countIn(wb.containerItems(), 'cobblestone') === 5, {
      timeout: 5000, message: "Bob's open window shows 5 cobblestone", detail: () => JSON.stringify(wb.containerItems())
    })
    assert.equal(countIn(wa.items(), 'cobblestone'), 0, 'Alice gave all 5 (her inventory in the window)')
    assert.equal(b.currentWindow, wb, "Bob's window stayed open")
    await h.waitFor(() => lid.includes(2), { timeout: 3000, message: 'the lid counts 2 viewers', detail: () => JSON.stringify(lid) })
    a.closeWindow(wa)
    b.closeWindow(wb)
    await h.waitFor(() => lid[lid.length - 1] === 0, { timeout: 3000, message: 'the lid shuts with 0 viewers', detail: () => JSON.stringify(lid) })

    // A restart: the chest's items come back from the chunk's block_entities.
    await A.quit()
    await B.quit()
    await stopClean(srv)
    srv = await u.startIn(dir, { name: 'chest-2' })
    assert.doesNotMatch(srv.output(), /corrupt|skipped/i, srv.describe())
    const A2 = h.makeBot(port, 'Alice')
    await A2.waitSpawn(15000)
    a = A2.bot
    const B2 = h.makeBot(port, 'Bob')
    await B2.waitSpawn(15000)
    const b2 = B2.bot
    await u.waitColumn(a, chestPos)
    await h.waitFor(() => a.blockAt(chestPos) && a.blockAt(chestPos).name === 'chest', { timeout: 5000, message: 'the chest is back' })
    const w2 = await h.withTimeout(a.openContainer(a.blockAt(chestPos)), 8000, 'Alice opens the chest after the restart')
    assert.equal(countIn(w2.containerItems(), 'cobblestone'), 5, 'still 5 cobblestone after the restart')
    a.closeWindow(w2)
    await h.sleep(200)

    // A second chest south of the first, facing the same way: a double chest.
    const chest2 = chestPos.offset(0, 0, 1)
    await a.equip(id('chest'), 'hand')
    await h.withTimeout(a.placeBlock(a.blockAt(chest2.offset(0, -1, 0)), new Vec3(0, 1, 0)), 10000, 'place the second chest')
    await h.waitFor(() => b2.blockAt(chest2) && b2.blockAt(chest2).name === 'chest' &&
      b2.blockAt(chestPos).getProperties().type !== 'single', {
      timeout: 5000, message: 'Bob sees a double chest', detail: () => JSON.stringify([b2.blockAt(chestPos).getProperties(), b2.blockAt(chest2) && b2.blockAt(chest2).getProperties()])
    })
    const p1 = b2.blockAt(chestPos).getProperties()
    const p2 = b2.blockAt(chest2).getProperties()
    // vanilla ChestBlock: the new chest's partner is clockwise of its facing
    // (north of a west-facing chest), so it is LEFT and the old one RIGHT.
    assert.deepEqual([p1.facing, p1.type, p2.facing, p2.type], ['west', 'right', 'west', 'left'])
    const wd = await h.withTimeout(a.openContainer(a.blockAt(chest2)), 8000, 'Alice opens the double chest')
    assert.equal(wd.inventoryStart, 54, 'a double chest has 54 slots')
    assert.equal(countIn(wd.containerItems(), 'cobblestone'), 5)
    // The RIGHT half's slots come first: the first chest's items are in 0..26.
    assert.ok(wd.containerItems().every((it) => it.slot < 27), JSON.stringify(wd.containerItems()))
    a.closeWindow(wd)
    await h.sleep(200)

    // Breaking the first chest spills its 5 cobblestone; the other half turns single.
    await h.withTimeout(a.dig(a.blockAt(chestPos)), 15000, 'Alice breaks the first chest')
    await h.waitFor(() => b2.blockAt(chestPos) && b2.blockAt(chestPos).name === 'air', { timeout: 5000, message: 'the chest is gone' })
    await h.waitFor(() => b2.blockAt(chest2).getProperties().type === 'single', { timeout: 5000, message: 'the other half is single' })
    await h.walkTo(a, chestPos.offset(0.5, 0, 0.5))
    await h.waitFor(() => a.inventory.count(id('cobblestone')) === 5 && a.inventory.count(id('chest')) === 1, {
      timeout: 8000, message: 'Alice picked up the 5 cobblestone and the chest', detail: () => JSON.stringify(a.inventory.items().map((i) => [i.name, i.count]))
    })

    // A door two blocks west: Alice opens it, Bob sees both halves open.
    await h.walkTo(a, base.offset(0.5, 0, 0.5))
    const door = base.offset(-2, 0, 0)
    await a.equip(id('oak_door'), 'hand')
    await h.withTimeout(a.placeBlock(a.blockAt(door.offset(0, -1, 0)), new Vec3(0, 1, 0)), 10000, 'place the door')
    await h.waitFor(() => b2.blockAt(door.offset(0, 1, 0)) && b2.blockAt(door.offset(0, 1, 0)).name === 'oak_door', { timeout: 5000, message: 'Bob sees both halves of the door' })
    assert.equal(b2.blockAt(door).getProperties().half, 'lower')
    assert.equal(b2.blockAt(door.offset(0, 1, 0)).getProperties().half, 'upper')
    assert.equal(b2.blockAt(door).getProperties().open, false)
    await a.activateBlock(a.blockAt(door))
    await h.waitFor(() => b2.blockAt(door).getProperties().open === true && b2.blockAt(door.offset(0, 1, 0)).getProperties().open === true, {
      timeout: 5000, message: 'Bob sees the door open (both halves)'
    })
    await a.activateBlock(a.blockAt(door.offset(0, 1, 0)))
    await h.waitFor(() => b2.blockAt(door).getProperties().open === false, { timeout: 5000, message: 'closed again from the upper half' })

    // An iron door does not open by hand; a fence gate and a trapdoor do.
    const iron = base.offset(-2, 0, 2)
    srv.send(`setblock ${iron.x} ${iron.y} ${iron.z} minecraft:iron_door[half=lower]`)
    srv.send(`setblock ${iron.x} ${iron.y + 1} ${iron.z} minecraft:iron_door[half=upper]`)
    const gate = base.offset(-2, 0, -2)
    srv.send(`setblock ${gate.x} ${gate.y} ${gate.z} minecraft:oak_fence_gate`)
    const trap = base.offset(0, 0, -2)
    srv.send(`setblock ${trap.x} ${trap.y} ${trap.z} minecraft:oak_trapdoor`)
    await h.waitFor(() => ['iron_door', 'oak_fence_gate', 'oak_trapdoor'].every((n, i) => {
      const blk = a.blockAt([iron, gate, trap][i])
      return blk && blk.name === n
    }), { timeout: 5000, message: 'the iron door, the gate and the trapdoor are there' })
    await a.activateBlock(a.blockAt(gate))
    await a.activateBlock(a.blockAt(trap))
    await h.waitFor(() => b2.blockAt(gate).getProperties().open === true && b2.blockAt(trap).getProperties().open === true, {
      timeout: 5000, message: 'Bob sees the gate and the trapdoor open'
    })
    await a.activateBlock(a.blockAt(iron))
    await h.sleep(500)
    assert.equal(b2.blockAt(iron).getProperties().open, false, 'an iron door does not open by hand')

    // A barrel: open while someone has it open.
    const barrel = base.offset(0, 0, 2)
    srv.send(`setblock ${barrel.x} ${barrel.y} ${barrel.z} minecraft:barrel[facing=up]`)
    await h.waitFor(() => a.blockAt(barrel) && a.blockAt(barrel).name === 'barrel', { timeout: 5000, message: 'the barrel is there' })
    const wbar = await h.withTimeout(a.openContainer(a.blockAt(barrel)), 8000, 'Alice opens the barrel')
    assert.equal(wbar.inventoryStart, 27)
    await h.waitFor(() => b2.blockAt(barrel).getProperties().open === true, { timeout: 5000, message: 'Bob sees the barrel open' })
    a.closeWindow(wbar)
    await h.waitFor(() => b2.blockAt(barrel).getProperties().open === false, { timeout: 5000, message: 'and closed again' })

    // A window closes when its player goes more than 8 blocks away, or its block goes.
    await h.withTimeout(b2.openContainer(b2.blockAt(barrel)), 8000, 'Bob opens the barrel')
    const bp = b2.entity.position
    srv.send(`tp Bob ${bp.x + 12} ${bp.y} ${bp.z}`)
    await h.waitFor(() => b2.currentWindow === null, { timeout: 5000, message: "Bob's window closes 12 blocks away" })
    await h.withTimeout(a.openContainer(a.blockAt(barrel)), 8000, 'Alice opens the barrel again')
    srv.send(`setblock ${barrel.x} ${barrel.y} ${barrel.z} minecraft:air`)
    await h.waitFor(() => a.currentWindow === null, { timeout: 5000, message: "Alice's window closes when the barrel goes" })

    await A2.quit()
    await B2.quit()
    await stopClean(srv)
    h.assertNoClientProtocolErrors(assert)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a chest written by prismarine-provider-anvil is read with its items; a furnace block entity is kept tag for tag', { timeout: 60000 }, async () => {
  const registry = require('prismarine-registry')(u.VERSION)
  const Chunk = require('prismarine-chunk')(registry)
  const Block = require('prismarine-block')(registry)
  const nbt = require('prismarine-nbt')
  const { Anvil, level } = require('prismarine-provider-anvil')
  const port = await h.freePort()
  const dir = serverDir('chest-interop', port, ['gamemode=creative'])
  try {
    const world = path.join(dir, 'world')
    fs.mkdirSync(path.join(world, 'region'), { recursive: true })
    const chestAt = new Vec3(3, -60, 2)
    const furnaceAt = new Vec3(5, -60, 2)
    const c = new Chunk({ minY: -64, worldHeight: 384 })
    const p = new Vec3(0, 0, 0)
    for (p.x = 0; p.x < 16; p.x++) {
      for (p.z = 0; p.z < 16; p.z++) {
        p.y = -64; c.setBlockStateId(p, registry.blocksByName.bedrock.defaultState)
        for (p.y = -63; p.y <= -61; p.y++) c.setBlockStateId(p, registry.blocksByName.dirt.defaultState)
      }
    }
    c.setBlockStateId(chestAt, Block.fromProperties('chest', { facing: 'north', type: 'single', waterlogged: false }, 0).stateId)
    c.setBlockStateId(furnaceAt, Block.fromProperties('furnace', { facing: 'north', lit: false }, 0).stateId)
    const items = [
      { slot: 0, id: 'minecraft:diamond', count: 7 },
      { slot: 4, id: 'minecraft:oak_log', count: 64 },
      { slot: 26, id: 'minecraft:iron_pickaxe', count: 1, damage: 42 }
    ]
    const itemTag = (it) => {
      const t = { Slot: nbt.byte(it.slot), id: nbt.string(it.id), Count: nbt.byte(it.count) }
      if (it.damage) t.tag = nbt.comp({ Damage: nbt.int(it.damage) })
      return t
    }
    const chestBE = {
      id: nbt.string('minecraft:chest'), x: nbt.int(chestAt.x), y: nbt.int(chestAt.y), z: nbt.int(chestAt.z),
      Items: nbt.list(nbt.comp(items.map(itemTag))),
      CustomName: nbt.string('{"text":"Loot"}')
    }
    const furnaceBE = {
      id: nbt.string('minecraft:furnace'), x: nbt.int(furnaceAt.x), y: nbt.int(furnaceAt.y), z: nbt.int(furnaceAt.z),
      BurnTime: nbt.short(0), CookTime: nbt.short(37), CookTimeTotal: nbt.short(200),
      Items: nbt.list(nbt.comp([{ Slot: nbt.byte(0), id: nbt.string('minecraft:raw_iron'), Count: nbt.byte(3) }])),
      RecipesUsed: nbt.comp({})
    }
    const { prismarineChunkToNbt } = require('prismarine-provider-anvil').chunk(u.VERSION)
    const AnvilV = Anvil(u.VERSION)
    const anvil = new AnvilV(path.join(world, 'region'))
    const tag = prismarineChunkToNbt(c, 0, 0)
    tag.value.block_entities = nbt.list(nbt.comp([chestBE, furnaceBE]))
    await anvil.saveRaw(0, 0, tag)
    await anvil.close()
    await level.writeLevel(path.join(world, 'level.dat'), { Version: { Name: u.VERSION }, generatorName: 'flat', RandomSeed: [0, 14] })

    const srv = await u.startIn(dir, { name: 'chest-interop' })
    const A = h.makeBot(port, 'Reader')
    await A.waitSpawn(15000)
    const a = A.bot
    await u.waitColumn(a, chestAt)
    assert.equal(a.blockAt(chestAt).name, 'chest')
    const w = await h.withTimeout(a.openContainer(a.blockAt(chestAt)), 8000, 'open the chest from the other tool')
    assert.match(JSON.stringify(w.title), /Loot/, 'the window is titled with the CustomName')
    const got = w.containerItems().map((it) => ({ slot: it.slot, name: it.name, count: it.count, damage: it.durabilityUsed || 0 }))
    assert.deepEqual(got.sort((x, y) => x.slot - y.slot), [
      { slot: 0, name: 'diamond', count: 7, damage: 0 },
      { slot: 4, name: 'oak_log', count: 64, damage: 0 },
      { slot: 26, name: 'iron_pickaxe', count: 1, damage: 42 }
    ])
    a.closeWindow(w)
    // A change, so the chunk is saved again, then the world on disk.
    srv.send(`setblock 8 -60 8 minecraft:gold_block`)
    await h.waitFor(() => a.blockAt(new Vec3(8, -60, 8)).name === 'gold_block', { timeout: 5000, message: 'the gold block' })
    await A.quit()
    await stopClean(srv)

    const AnvilR = Anvil(u.VERSION)
    const reader = new AnvilR(path.join(world, 'region'))
    const raw = await reader.loadRaw(0, 0)
    await reader.close()
    const bes = nbt.simplify(raw).block_entities
    const byId = (n) => bes.filter((e) => e.id === n)
    assert.equal(bes.length, 2, JSON.stringify(bes))
    assert.deepEqual(byId('minecraft:furnace')[0], nbt.simplify(nbt.comp(furnaceBE)), 'the furnace is written back as it was read')
    const ch = byId('minecraft:chest')[0]
    assert.deepEqual([ch.x, ch.y, ch.z, ch.CustomName], [chestAt.x, chestAt.y, chestAt.z, '{"text":"Loot"}'])
    assert.deepEqual(ch.Items.map((it) => [it.Slot, it.id, it.Count, it.tag ? it.tag.Damage : 0]),
      items.map((it) => [it.slot, it.id, it.count, it.damage || 0]))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
