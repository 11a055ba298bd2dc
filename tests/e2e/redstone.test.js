'use strict'
// Issue 21, acceptance 5: redstone, seen by mineflayer bots on a flat world.
//   1. A lever (set with RCON), 15 redstone dust, a repeater and a lamp in a
//      row. Builder right-clicks the repeater three times (delay 4) and the
//      lever on: Watcher sees the dust at power 15..1 and the lamp lit.
//      Builder turns the lever off: Watcher sees the dust go dark at once
//      and the lamp go out only after the repeater's delay (8 game ticks)
//      and the lamp's 4.
//   2. A piston powered by a redstone block pushes a stone one block (the
//      piston head between); a sticky piston pulls its stone back when its
//      redstone block goes. Watcher sees each move, and the Block Action.
//   3. Builder on a stone pressure plate lights a lamp and opens both halves
//      of an iron door, which close when it steps off; a pig dropped on an
//      oak plate presses it; a torch goes out when a lever powers its block.
//   4. Clocks stay bounded: a repeater ring runs a pulse round for 2 s while
//      RCON answers at once; a torch fed back to its own block burns out.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const { Vec3 } = require('vec3')

let srv, rcon, B, W

before(async () => {
  ({ srv, rcon } = await h.flatRconServer('redstone', { 'simulation-distance': 4 }))
  B = h.makeBot(srv.port, 'Builder')
  W = h.makeBot(srv.port, 'Watcher')
  await Promise.all([B.waitSpawn(15000), W.waitSpawn(15000)])
})

after(async () => {
  await h.closeFlatRconServer(srv, rcon, [B, W])
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)
const at = (bot, x, y, z) => bot.blockAt(new Vec3(x, y, z))
const prop = (b, name) => (b ? b.getProperties()[name] : undefined)
const isTrue = (v) => v === true || v === 'true'

async function tpNear (bot, name, x, y, z) {
  assert.match(await run(`tp ${name} ${x + 0.5} ${y} ${z + 0.5}`), /Teleported/)
  await h.waitFor(() => bot.entity.position.distanceTo(new Vec3(x + 0.5, y, z + 0.5)) < 0.5, { timeout: 3000, message: `${name} at ${x} ${y} ${z}` })
  await h.sleep(200)
}

test('a lever powers 15 dust and a repeater that lights a lamp; off, the lamp goes out after the repeater\'s delay', { timeout: 40000 }, async () => {
  const b = B.bot
  const w = W.bot
  const base = w.entity.position.floored()
  const y = base.y
  const z = base.z + 4
  const x0 = base.x - 8 // the lever; dust x0+1..x0+15; repeater x0+16; lamp x0+17
  assert.match(await run(`setblock ${x0} ${y} ${z} minecraft:lever[face=floor,facing=east]`), /Changed the block/)
  for (let i = 1; i <= 15; i++) await run(`setblock ${x0 + i} ${y} ${z} minecraft:redstone_wire`)
  await run(`setblock ${x0 + 16} ${y} ${z} minecraft:repeater[facing=west]`)
  await run(`setblock ${x0 + 17} ${y} ${z} minecraft:redstone_lamp`)
  const dust = () => [...Array(15).keys()].map((i) => { const d = at(w, x0 + 1 + i, y, z); return d && d.name === 'redstone_wire' ? Number(prop(d, 'power')) : -1 })
  await h.waitFor(() => { const l = at(w, x0 + 17, y, z); return l && l.name === 'redstone_lamp' }, { timeout: 5000, message: 'Watcher sees the lamp' })
  const line = at(w, x0 + 5, y, z)
  assert.equal(prop(line, 'east'), 'side', 'the dust runs east-west')
  assert.equal(prop(line, 'west'), 'side')
  assert.equal(prop(line, 'north'), 'none')

  // Repeater delay 1 -> 4 with three right-clicks.
  await tpNear(b, 'Builder', x0 + 16, y, z + 2)
  for (let i = 0; i < 3; i++) {
    await b.activateBlock(at(b, x0 + 16, y, z))
    await h.sleep(150)
  }
  await h.waitFor(() => Number(prop(at(w, x0 + 16, y, z), 'delay')) === 4, {
    timeout: 3000, message: 'Watcher sees the repeater at delay 4', detail: () => `delay ${prop(at(w, x0 + 16, y, z), 'delay')}`
  })

  // Lever on: Watcher hears the click too.
  const sounds = []
  const onSound = (pk) => { if (pk.sound && pk.sound.data) sounds.push(pk.sound.data.soundName) }
  w._client.on('sound_effect', onSound)
  await tpNear(b, 'Builder', x0, y, z + 2)
  await b.activateBlock(at(b, x0, y, z))
  await h.waitFor(() => isTrue(prop(at(w, x0 + 17, y, z), 'lit')), {
    timeout: 5000, message: 'Watcher sees the lamp lit', detail: () => `lever ${prop(at(w, x0, y, z), 'powered')}, dust ${dust()}, repeater ${prop(at(w, x0 + 16, y, z), 'powered')}`
  })
  assert.deepEqual(dust(), [...Array(15).keys()].map((i) => 15 - i), 'dust power 15 .. 1 along the line')
  assert.ok(isTrue(prop(at(w, x0, y, z), 'powered')), 'the lever is on')
  await h.waitFor(() => sounds.includes('minecraft:block.lever.click') || sounds.includes('block.lever.click'), {
    timeout: 3000, message: 'Watcher hears the lever click', detail: () => JSON.stringify(sounds)
  })
  w._client.removeListener('sound_effect', onSound)

  // Lever off: the dust goes dark at once, the lamp after 8 + 4 game ticks.
  let leverOffAt = 0
  let dustAtLeverOff = null
  let lampOffAt = 0
  const onUpdate = (oldB, newB) => {
    if (!newB) return
    const p = newB.position
    if (p.x === x0 && p.y === y && p.z === z && newB.name === 'lever' && !isTrue(prop(newB, 'powered')) && !leverOffAt) {
      leverOffAt = Date.now()
      setImmediate(() => { dustAtLeverOff = dust() }) // the same tick's Block Updates
    }
    if (p.x === x0 + 17 && p.y === y && p.z === z && newB.name === 'redstone_lamp' && !isTrue(prop(newB, 'lit')) && !lampOffAt) lampOffAt = Date.now()
  }
  w.on('blockUpdate', onUpdate)
  try {
    await b.activateBlock(at(b, x0, y, z))
    await h.waitFor(() => lampOffAt > 0, {
      timeout: 5000, message: 'Watcher sees the lamp go out', detail: () => `lever off seen ${leverOffAt > 0}, dust ${dust()}`
    })
  } finally {
    w.removeListener('blockUpdate', onUpdate)
  }
  assert.ok(leverOffAt > 0, 'Watcher saw the lever turn off')
  assert.deepEqual(dustAtLeverOff, Array(15).fill(0), 'the dust is dark with the lever')
  const ms = lampOffAt - leverOffAt
  // 12 game ticks = 600 ms; ticks run at 50 ms, allow a tick's jitter each way
  assert.ok(ms >= 480 && ms < 2000, `the lamp went out ${ms} ms after the lever (expected about 600: repeater 8 ticks + lamp 4)`)
})

test('a piston pushes a block, a sticky piston pulls it back', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = w.entity.position.floored()
  const y = base.y
  const z = base.z - 5
  const x = base.x - 4
  const actions = []
  const onAction = (pk) => actions.push(pk)
  w._client.on('block_action', onAction)
  try {
    await run(`setblock ${x} ${y} ${z} minecraft:piston[facing=east]`)
    await run(`setblock ${x + 1} ${y} ${z} minecraft:stone`)
    await h.waitFor(() => { const s = at(w, x + 1, y, z); return s && s.name === 'stone' }, { timeout: 5000, message: 'Watcher sees the stone' })
    await run(`setblock ${x - 1} ${y} ${z} minecraft:redstone_block`)
    await h.waitFor(() => { const s = at(w, x + 2, y, z); return s && s.name === 'stone' }, {
      timeout: 5000, message: 'Watcher sees the stone pushed one block east', detail: () => [0, 1, 2].map((d) => at(w, x + d, y, z).name).join(',')
    })
    const head = at(w, x + 1, y, z)
    assert.equal(head.name, 'piston_head', 'the head between')
    assert.equal(prop(head, 'facing'), 'east')
    assert.ok(isTrue(prop(at(w, x, y, z), 'extended')), 'the piston is extended')
    await h.waitFor(() => actions.some((a) => a.location.x === x && a.location.z === z && a.byte1 === 0), { timeout: 3000, message: 'a Block Action: extend' })

    // Sticky: pushes, then pulls back when the power goes.
    const sz = z - 3
    await run(`setblock ${x} ${y} ${sz} minecraft:sticky_piston[facing=east]`)
    await run(`setblock ${x + 1} ${y} ${sz} minecraft:oak_planks`)
    await run(`setblock ${x - 1} ${y} ${sz} minecraft:redstone_block`)
    await h.waitFor(() => { const s = at(w, x + 2, y, sz); return s && s.name === 'oak_planks' }, { timeout: 5000, message: 'the sticky piston pushes the planks' })
    await run(`setblock ${x - 1} ${y} ${sz} minecraft:air`)
    await h.waitFor(() => { const s = at(w, x + 1, y, sz); return s && s.name === 'oak_planks' }, {
      timeout: 5000, message: 'the sticky piston pulls the planks back', detail: () => [0, 1, 2].map((d) => at(w, x + d, y, sz).name).join(',')
    })
    assert.equal(at(w, x + 2, y, sz).name, 'air', 'nothing left where the planks were')
    assert.ok(!isTrue(prop(at(w, x, y, sz), 'extended')), 'the sticky piston is retracted')
    // A piston does not push obsidian.
    const oz = z + 3
    await run(`setblock ${x} ${y} ${oz} minecraft:piston[facing=east]`)
    await run(`setblock ${x + 1} ${y} ${oz} minecraft:obsidian`)
    await run(`setblock ${x - 1} ${y} ${oz} minecraft:redstone_block`)
    await h.sleep(500)
    assert.equal(at(w, x + 1, y, oz).name, 'obsidian', 'obsidian stays')
    assert.ok(!isTrue(prop(at(w, x, y, oz), 'extended')), 'the piston stays retracted')
  } finally {
    w._client.removeListener('block_action', onAction)
  }
})

test('a player on a stone pressure plate lights a lamp and opens an iron door; stepping off closes them; a pig presses an oak plate; a redstone torch goes out when its block is powered by a lever', { timeout: 30000 }, async () => {
  const b = B.bot
  const w = W.bot
  const base = w.entity.position.floored()
  const y = base.y
  const x = base.x + 6
  const z = base.z - 6
  await run(`setblock ${x} ${y} ${z} minecraft:stone_pressure_plate`)
  await run(`setblock ${x + 1} ${y} ${z} minecraft:redstone_lamp`)
  await run(`setblock ${x - 1} ${y} ${z} minecraft:iron_door[half=lower,facing=east]`)
  await run(`setblock ${x - 1} ${y + 1} ${z} minecraft:iron_door[half=upper,facing=east]`)
  await h.waitFor(() => { const l = at(w, x + 1, y, z); return l && l.name === 'redstone_lamp' }, { timeout: 5000, message: 'Watcher sees the lamp' })
  await tpNear(b, 'Builder', x, y, z)
  await h.waitFor(() => isTrue(prop(at(w, x + 1, y, z), 'lit')) && isTrue(prop(at(w, x - 1, y, z), 'open')), {
    timeout: 5000,
    message: 'Watcher sees the lamp lit and the iron door open with Builder on the plate',
    detail: () => `plate ${prop(at(w, x, y, z), 'powered')}, lamp ${prop(at(w, x + 1, y, z), 'lit')}, door ${prop(at(w, x - 1, y, z), 'open')}/${prop(at(w, x - 1, y + 1, z), 'open')}`
  })
  assert.ok(isTrue(prop(at(w, x - 1, y + 1, z), 'open')), 'the upper half opened too')
  await tpNear(b, 'Builder', x, y, z + 3)
  await h.waitFor(() => !isTrue(prop(at(w, x + 1, y, z), 'lit')) && !isTrue(prop(at(w, x - 1, y, z), 'open')), {
    timeout: 5000, message: 'the plate releases (20 ticks), the door closes and the lamp goes out', detail: () => `plate ${prop(at(w, x, y, z), 'powered')}`
  })

  // A pig dropped on an oak plate presses it too.
  const pz = z + 6
  await run(`setblock ${x} ${y} ${pz} minecraft:oak_pressure_plate`)
  await run(`setblock ${x + 1} ${y} ${pz} minecraft:redstone_lamp`)
  await h.waitFor(() => { const l = at(w, x + 1, y, pz); return l && l.name === 'redstone_lamp' }, { timeout: 5000, message: 'Watcher sees the second lamp' })
  assert.match(await run(`summon minecraft:pig ${x + 0.5} ${y + 1} ${pz + 0.5}`), /Summoned/)
  await h.waitFor(() => isTrue(prop(at(w, x + 1, y, pz), 'lit')), {
    timeout: 5000, message: 'a pig on the oak plate lights the lamp', detail: () => `plate ${prop(at(w, x, y, pz), 'powered')}`
  })
  await run('kill @e[type=pig]')
  await h.waitFor(() => !isTrue(prop(at(w, x + 1, y, pz), 'lit')), { timeout: 5000, message: 'the pig gone, the plate releases and the lamp goes out' })

  // A torch on a block: lit; a lever on that block's side (strong power) puts it out.
  const tz = z - 3
  await run(`setblock ${x} ${y} ${tz} minecraft:stone`)
  await run(`setblock ${x} ${y + 1} ${tz} minecraft:redstone_torch`)
  await h.waitFor(() => { const t = at(w, x, y + 1, tz); return t && t.name === 'redstone_torch' && isTrue(prop(t, 'lit')) }, { timeout: 5000, message: 'Watcher sees a lit torch' })
  await run(`setblock ${x + 1} ${y} ${tz} minecraft:lever[face=wall,facing=east,powered=true]`)
  await h.waitFor(() => !isTrue(prop(at(w, x, y + 1, tz), 'lit')), { timeout: 5000, message: 'the torch goes out with its block powered' })
  await run(`setblock ${x + 1} ${y} ${tz} minecraft:air`)
  await h.waitFor(() => isTrue(prop(at(w, x, y + 1, tz), 'lit')), { timeout: 5000, message: 'and lights again when the power goes' })
})

test('a repeater ring clock keeps running without slowing the server, and a torch clock burns out', { timeout: 30000 }, async () => {
  const w = W.bot
  const base = w.entity.position.floored()
  const y = base.y
  const x = base.x + 3
  const z = base.z + 9
  // Two repeaters (delay 1) joined by dust into a ring; a 1-tick pulse runs round it.
  await run(`setblock ${x} ${y} ${z} minecraft:repeater[facing=east]`) // in from x+1, out to x-1
  for (const dz of [0, 1, 2]) await run(`setblock ${x - 1} ${y} ${z + dz} minecraft:redstone_wire`)
  await run(`setblock ${x} ${y} ${z + 2} minecraft:repeater[facing=west]`) // in from x-1, out to x+1
  for (const dz of [2, 1, 0]) await run(`setblock ${x + 1} ${y} ${z + dz} minecraft:redstone_wire`)
  let flips = 0
  const onUpdate = (oldB, newB) => {
    if (newB && newB.position.x === x && newB.position.y === y && newB.position.z === z && oldB && prop(oldB, 'powered') !== prop(newB, 'powered')) flips++
  }
  w.on('blockUpdate', onUpdate)
  try {
    await h.waitFor(() => { const r = at(w, x, y, z + 2); return r && r.name === 'repeater' }, { timeout: 5000, message: 'Watcher sees the ring' })
    await run(`setblock ${x + 2} ${y} ${z} minecraft:redstone_block`)
    await run(`setblock ${x + 2} ${y} ${z} minecraft:air`)
    const t0 = Date.now()
    await h.sleep(2000)
    const t1 = Date.now()
    await run('list')
    const rconMs = Date.now() - t1
    assert.ok(flips >= 6, `the pulse keeps running: the repeater flipped ${flips} times in ${t1 - t0} ms (a 4-tick loop: about 20)`)
    assert.ok(rconMs < 1000, `the server still answers at once (rcon took ${rconMs} ms)`)
  } finally {
    w.removeListener('blockUpdate', onUpdate)
  }

  // A torch fed back to its own block through a repeater: it clocks, then
  // burns out (8 toggles in 60 ticks) and stays out for a while.
  const tz = z + 5
  await run(`setblock ${x} ${y} ${tz} minecraft:stone`)
  await run(`setblock ${x + 1} ${y} ${tz} minecraft:stone`)
  await run(`setblock ${x + 1} ${y + 1} ${tz} minecraft:redstone_wire`)
  await run(`setblock ${x + 1} ${y} ${tz + 1} minecraft:redstone_wire`)
  await run(`setblock ${x + 1} ${y} ${tz + 2} minecraft:redstone_wire`)
  await run(`setblock ${x} ${y} ${tz + 2} minecraft:redstone_wire`)
  await run(`setblock ${x} ${y} ${tz + 1} minecraft:repeater[facing=south]`) // in from tz+2, out to the stone
  let toggles = 0
  const onTorch = (oldB, newB) => {
    if (newB && newB.position.x === x && newB.position.y === y + 1 && newB.position.z === tz && oldB && oldB.name === 'redstone_torch' && prop(oldB, 'lit') !== prop(newB, 'lit')) toggles++
  }
  w.on('blockUpdate', onTorch)
  try {
    await run(`setblock ${x} ${y + 1} ${tz} minecraft:redstone_torch`)
    await h.waitFor(() => toggles >= 15, { timeout: 8000, message: 'the torch clock toggles (8 times off)', detail: () => `${toggles} toggles` })
    await h.sleep(300)
    const seen = toggles
    await h.sleep(1500)
    assert.equal(toggles, seen, 'burnt out: no toggle for 1.5 s')
    assert.ok(!isTrue(prop(at(w, x, y + 1, tz), 'lit')), 'the burnt-out torch is unlit')
  } finally {
    w.removeListener('blockUpdate', onTorch)
  }
})
