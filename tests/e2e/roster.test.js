'use strict'
// Issue 13, "batch per tick": what a tick's joins and leaves cost a player
// already in. To make 20 players join in one tick, 20 raw connections send
// their handshake, then their Login Start while the server is paused
// (SIGSTOP): on SIGCONT the 20 logins are read in one loop pass, between
// two ticks — what happens when 20 clients' final login packets arrive
// together. A minecraft-protocol watcher then checks, packet by packet:
//   - one Player Info Update with the 20 (and the 20 "joined" lines, one per
//     player, as vanilla);
//   - a newcomer gets every player exactly once (the watcher and the 20);
//   - each spawn is one Bundle (vanilla's addPairing);
//   - the 20 leaving in one tick: one Remove Entities with their 20 ids,
//     then one Player Info Remove with their 20 UUIDs, and 20 "left" lines;
//   - a second login with a name already online (the first one is kicked)
//     in the same tick: the tab list ends up with the player, not without.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const ph = require('./proto-helpers')

const N = 20
const names = Array.from({ length: N }, (_, i) => `Batch${String(i).padStart(2, '0')}`)
let srv, w

before(async () => {
  srv = await h.startServer({ name: 'roster', props: { 'view-distance': 4, 'max-players': 50 } })
  w = ph.watcher(srv.port, 'Watcher')
  await w.waitLogin()
  await h.waitFor(() => w.added().some((e) => e.name === 'Watcher'), { timeout: 5000, message: 'the watcher in its own tab list' })
})

after(async () => { ph.closeAll(); await h.cleanupAll() })

const ctx = () => `${w.describe()}\n${srv.describe()}`
const chatKeys = (since, key) => w.since(since, 'system_chat').map((x) => JSON.parse(x.p.content))
  .filter((j) => j.translate === key).map((j) => j.with[0].text)

let joiners = []

test(`${N} players joining in one tick: one Player Info Update at a player already in`, { timeout: 30000 }, async () => {
  joiners = await Promise.all(names.map((n) => ph.rawJoiner(srv.port, n)))
  await ph.waitRead(srv, joiners) // each waits in LOGIN for its Login Start
  const from = w.mark()
  await ph.whilePaused(srv, async () => {
    await Promise.all(joiners.map((j) => j.login()))
    await h.sleep(100)
  })
  await h.waitFor(() => names.every((n) => w.added(from).some((e) => e.name === n)), {
    timeout: 5000, message: `all ${N} in the watcher's tab list`, detail: ctx
  })
  await h.sleep(300) // anything that would follow in later ticks
  const adds = w.since(from, 'player_info').filter((x) => x.p.action.add_player)
  assert.equal(adds.length, 1, `one Player Info Update, got ${adds.map((x) => x.p.data.length).join(' + ')} entries`)
  assert.deepEqual(adds[0].p.data.map((d) => d.player.name).sort(), names)
  assert.deepEqual(chatKeys(from, 'multiplayer.player.joined').sort(), names, 'one "joined" line per player')

  // A newcomer got everyone once: the watcher and all 20 (itself included).
  const j0 = joiners[0]
  await h.waitFor(() => j0.added().length >= N + 1, { timeout: 5000, message: `${j0.username}'s tab list`, detail: () => `${j0.error} ${j0.added()}` })
  assert.equal(j0.error, null)
  assert.deepEqual(j0.added().sort(), ['Watcher', ...names].sort(), 'each player once')
})

test('a newly tracked player is spawned in one Bundle', { timeout: 15000 }, async () => {
  await h.waitFor(() => w.tracked().size === N, { timeout: 5000, message: `the watcher tracking the ${N}`, detail: ctx })
  const seq = w.packets.map((x) => x.name)
  const spawns = seq.map((n, i) => n === 'named_entity_spawn' ? i : -1).filter((i) => i >= 0)
  assert.equal(spawns.length, N)
  for (const i of spawns) {
    assert.equal(seq[i - 1], 'bundle_delimiter', `a delimiter opens the spawn at ${i}: ${seq.slice(i - 2, i + 6)}`)
    const end = seq.indexOf('bundle_delimiter', i)
    assert.ok(end > i && end <= i + 4, `and closes it: ${seq.slice(i - 1, i + 7)}`)
    for (const n of seq.slice(i + 1, end)) {
      assert.ok(['entity_head_rotation', 'entity_metadata', 'entity_equipment'].includes(n), `only the pairing packets inside: ${n}`)
    }
  }
})

test(`${N} players leaving in one tick: one Remove Entities and one Player Info Remove`, { timeout: 20000 }, async () => {
  const ids = [...w.tracked()].sort((a, b) => a - b)
  const uuids = w.added().filter((e) => names.includes(e.name)).map((e) => e.uuid).sort()
  assert.equal(ids.length, N)
  const from = w.mark()
  await ph.whilePaused(srv, async () => {
    for (const j of joiners) j.end()
    await h.sleep(100)
  })
  await h.waitFor(() => chatKeys(from, 'multiplayer.player.left').length === N && w.since(from, 'player_remove').length, {
    timeout: 5000, message: `${N} "left" lines and the Player Info Remove`, detail: ctx
  })
  await h.sleep(300)
  const destroys = w.since(from, 'entity_destroy')
  assert.equal(destroys.length, 1, `one Remove Entities: ${JSON.stringify(destroys.map((x) => x.p.entityIds))}`)
  assert.deepEqual([...destroys[0].p.entityIds].sort((a, b) => a - b), ids)
  const removes = w.since(from, 'player_remove')
  assert.equal(removes.length, 1, `one Player Info Remove: ${JSON.stringify(removes.map((x) => x.p.players))}`)
  assert.deepEqual([...removes[0].p.players].sort(), uuids)
  const seq = w.packets.slice(from).map((x) => x.name)
  assert.ok(seq.indexOf('entity_destroy') < seq.indexOf('player_remove'), 'Remove Entities first, as vanilla')
  assert.deepEqual(chatKeys(from, 'multiplayer.player.left').sort(), names, 'one "left" line per player')
  assert.equal(w.tracked().size, 0)
})

test('the same name logging in again within one tick: kicked, rejoined, still in the tab list', { timeout: 20000 }, async () => {
  const first = await ph.rawJoiner(srv.port, 'Twice')
  await first.login()
  await h.waitFor(() => w.added().some((e) => e.name === 'Twice'), { timeout: 5000, message: 'Twice in the tab list', detail: ctx })
  const uuid = w.added().find((e) => e.name === 'Twice').uuid
  const second = await ph.rawJoiner(srv.port, 'Twice')
  await ph.waitRead(srv, [second])
  const from = w.mark()
  await ph.whilePaused(srv, async () => {
    await second.login()
    await h.sleep(100)
  })
  await h.waitFor(() => w.added(from).some((e) => e.name === 'Twice'), { timeout: 5000, message: 'Twice added again', detail: ctx })
  await h.sleep(300)
  const about = w.since(from).filter((x) => (x.name === 'player_remove' && x.p.players.includes(uuid)) ||
    (x.name === 'player_info' && x.p.action.add_player && x.p.data.some((d) => d.uuid === uuid)))
  assert.deepEqual(about.map((x) => x.name), ['player_remove', 'player_info'], 'removed, then added again: listed')
  await h.waitFor(() => first.s.closed, { timeout: 3000, message: 'the first connection closed (duplicate login)' })
  second.end()
})

test('the server stops cleanly', { timeout: 10000 }, async () => {
  w.end()
  const exit = await srv.stop()
  assert.equal(exit.code, 0, srv.describe())
})

h.finalClientErrorCheck(test)
