'use strict'
// Issue "Persistence" (#6), crash safety: at least 20 rounds of
//   start (the same folder) → check → edit → `save-all flush` → more edits
//   while saving (autosave every second, sometimes another save-all) →
//   kill -9 at a random moment.
// Every round the world must load with no chunk reported corrupt or
// unreadable, and every block confirmed before the last completed save
// ("Saved the game" after the command) must be there. At the end the
// server stops cleanly and prismarine-provider-anvil reads every chunk of
// every region file.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const h = require('./helpers')
const u = require('./persist-util')
const { Vec3 } = require('vec3')

h.setFileDeadline(178000)
after(async () => {
  await h.cleanupAll()
  await u.cleanup()
})

const ROUNDS = 20
const BUDGET_MS = 150000
const PER_ROUND = 5 // confirmed, then saved
const CHAOS = 4 // placed while the kill may come
const BLOCKS = ['stone', 'oak_planks', 'bricks', 'glass', 'cobblestone']

/** Placement order: a 5×7 grid east of the spawn, 6 layers, bottom first. */
function sequence (base) {
  const out = []
  for (let layer = 0; layer < 6; layer++) {
    for (let dx = 2; dx <= 6; dx++) {
      for (let dz = -3; dz <= 3; dz++) out.push(new Vec3(base.x + dx, base.y + layer, base.z + dz))
    }
  }
  return out
}
const BAD_LOAD = /corrupt|cannot read it from its region file|cannot open/i

test('kill -9 at random moments: the world always loads and saved edits survive', { timeout: 175000 }, async (t) => {
  const started = Date.now()
  const first = await h.startServer({
    name: 'crash',
    props: { 'level-type': 'flat', gamemode: 'creative', 'view-distance': '2', 'autosave-interval': '1' }
  })
  const dir = first.dir
  let srv = u.attachConsole(first)
  const committed = new Map() // index → name
  let seq = null
  let round = 0
  let rng = 0x9e3779b9
  const random = () => { rng ^= rng << 13; rng ^= rng >>> 17; rng ^= rng << 5; return (rng >>> 0) / 4294967296 }
  const log = []
  let duringSave = 0
  for (; round < ROUNDS; round++) {
    if (round > 0) srv = await u.startIn(dir, { name: `crash-${round}` })
    assert.doesNotMatch(srv.output(), BAD_LOAD, `round ${round}: the world loads cleanly\n${srv.describe()}`)
    const t0 = Date.now()
    const B = h.makeBot(srv.port, 'Crasher')
    await B.waitSpawn(15000)
    const bot = B.bot
    const tSpawn = Date.now() - t0
    if (!seq) seq = sequence(bot.entity.position.floored())
    await u.waitColumn(bot, seq[0])
    await u.waitColumn(bot, seq[6])
    // Everything from completed saves is here.
    const missing = []
    for (const [i, name] of committed) {
      const blk = bot.blockAt(seq[i])
      if (!blk || blk.name !== name) missing.push(`#${i} ${seq[i]}: ${blk && blk.name} (want ${name})`)
    }
    assert.deepEqual(missing, [], `round ${round}: saved edits are present\n${log.join('\n')}\n${srv.describe()}`)
    assert.doesNotMatch(srv.output(), BAD_LOAD, `round ${round}\n${srv.describe()}`)

    // Edit, confirmed one by one; then a completed save commits them.
    const name = BLOCKS[round % BLOCKS.length]
    const free = () => seq.map((p, i) => i).filter((i) => bot.blockAt(seq[i]).name === 'air')
    const t1 = Date.now()
    for (const i of free().slice(0, PER_ROUND)) await u.placeAt(bot, seq[i], name)
    const tPlace = Date.now() - t1
    const present = new Map()
    for (let i = 0; i < seq.length; i++) {
      const n = bot.blockAt(seq[i]).name
      if (n !== 'air') present.set(i, n)
    }
    const from = srv.output().length
    srv.send('save-all flush')
    await srv.waitOutput(/Saved the game/, { from, timeout: 15000 })
    for (const [i, n] of present) committed.set(i, n)

    // Chaos: more edits, maybe another save, and a kill -9 at a random moment.
    // Not awaited after the kill: its waits end on their own (bounded), failing.
    ;(async () => {
      for (const i of free().slice(0, CHAOS)) await u.placeAt(bot, seq[i], name, 3000)
    })().catch(() => {})
    let delay
    if (round % 2) {
      // Aim at the save itself: a few milliseconds after the command.
      await h.sleep(Math.floor(random() * 300))
      srv.send('save-all flush')
      delay = Math.floor(random() * 6)
    } else {
      delay = Math.floor(random() * 700)
    }
    await h.sleep(delay)
    await srv.kill()
    await B.waitEnd(3000)
    const out = srv.output()
    const saving = out.lastIndexOf('Saving the game') > out.lastIndexOf('Saved the game')
    if (saving) duringSave++
    log.push(`round ${round}: ${committed.size} committed, spawn ${tSpawn} ms, ${PER_ROUND} placements ${tPlace} ms, killed after ${delay} ms${saving ? ' during a save' : ''}`)
    assert.ok(Date.now() - started < BUDGET_MS, `round ${round} ends within ${BUDGET_MS} ms:\n${log.join('\n')}`)
  }
  t.diagnostic(`${round} rounds; ${duringSave} killed while a save-all was running; ${committed.size} blocks committed`)
  assert.equal(round, ROUNDS)
  assert.ok(committed.size >= PER_ROUND * 10, `${committed.size} blocks committed`)

  // A last start: everything committed is there, then a clean stop.
  srv = await u.startIn(dir, { name: 'crash-final' })
  assert.doesNotMatch(srv.output(), BAD_LOAD, srv.describe())
  const B = h.makeBot(srv.port, 'Crasher')
  await B.waitSpawn(15000)
  await u.waitColumn(B.bot, seq[0])
  await u.waitColumn(B.bot, seq[6])
  for (const [i, name] of committed) assert.equal(B.bot.blockAt(seq[i]).name, name, `#${i} at ${seq[i]}`)
  await B.quit()
  const info = await srv.stop(10000)
  assert.equal(info.code, 0, srv.describe())
  u.assertNoSanitizerReport(assert, srv)

  // Every chunk of every region file reads with another tool.
  const { columns, errors } = await u.readAnvilWorld(path.join(dir, 'world'))
  assert.deepEqual([...errors], [], 'every chunk reads')
  assert.ok(columns.size >= 9, `${columns.size} chunks on disk`)
  const reg = require('prismarine-registry')(u.VERSION)
  for (const [i, name] of committed) {
    const p = seq[i]
    const col = columns.get(`${Math.floor(p.x / 16)},${Math.floor(p.z / 16)}`)
    const local = new Vec3(((p.x % 16) + 16) % 16, p.y, ((p.z % 16) + 16) % 16)
    assert.equal(col.getBlockStateId(local), reg.blocksByName[name].defaultState, `#${i} on disk`)
  }
  h.assertNoClientProtocolErrors(assert)
})

h.finalClientErrorCheck(test)
