'use strict'
// Issue 13, hub controls (docs/operations.md, "Hubs"):
//   mcserv-player-visibility=none   nobody is spawned on anybody's client,
//                                   the tab list still lists everyone;
//   mcserv-max-tracked-players=3    a watcher tracks the 3 nearest players
//                                   in range, picks again as they move, and
//                                   hears nothing about the ones it does not
//                                   track (even in the same chunk);
// and both keys refuse bad values at startup, naming the key.
// Players are minecraft-protocol clients placed with the console's /tp (they
// never move by themselves), so every distance is exact.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')
const ph = require('./proto-helpers')

after(async () => { ph.closeAll(); await h.cleanupAll() })

async function joinWatchers (port, names) {
  const out = []
  for (const n of names) {
    const w = ph.watcher(port, n)
    await w.waitLogin()
    out.push(w)
  }
  return out
}

test('mcserv-player-visibility=none: players share the tab list and never see each other', { timeout: 30000 }, async () => {
  const srv = await h.startServer({ name: 'hub-none', props: { 'view-distance': 4, 'mcserv-player-visibility': 'none' } })
  const all = await joinWatchers(srv.port, ['Hidden0', 'Hidden1', 'Hidden2', 'Hidden3'])
  const names = all.map((w) => w.username).sort()
  for (const w of all) {
    await h.waitFor(() => names.every((n) => w.added().some((e) => e.name === n)), {
      timeout: 5000, message: `${w.username}'s tab list lists all four`, detail: () => w.describe()
    })
  }
  mp.consoleCmd(srv, 'tp Hidden1 2.5 -60 0.5') // right next to the others: news, for nobody
  mp.consoleCmd(srv, 'tp Hidden2 0.5 -60 3.5')
  await h.sleep(1500)
  for (const w of all) {
    const seen = w.packets.filter((x) => x.name === 'named_entity_spawn' || ph.MOVE_PACKETS.includes(x.name))
    assert.deepEqual(seen.map((x) => x.name), [], `${w.username} sees nobody`)
  }
  for (const w of all) w.end()
  assert.equal((await srv.stop()).code, 0, srv.describe())
})

test('mcserv-max-tracked-players=3: the 3 nearest, picked again as they move; nothing about the others', { timeout: 45000 }, async () => {
  const srv = await h.startServer({ name: 'hub-cap', props: { 'view-distance': 4, 'mcserv-max-tracked-players': 3 } })
  const [w] = await joinWatchers(srv.port, ['Watcher'])
  const pos = await h.waitFor(() => (w.since(0, 'position')[0] || {}).p, { timeout: 5000, message: "the watcher's position" })
  // Everyone in the watcher's chunk column, along z, at these distances.
  const dir = ((pos.z % 16) + 16) % 16 < 8 ? 1 : -1
  const at = (d) => `${pos.x} ${pos.y} ${pos.z + dir * d}`
  const dist = { Near1: 13, Near2: 11, Near3: 9, Near4: 6, Near5: 4, Near6: 2 }
  const others = await joinWatchers(srv.port, Object.keys(dist))
  for (const [n, d] of Object.entries(dist)) mp.consoleCmd(srv, `tp ${n} ${at(d)}`)
  const names = () => new Set([...w.tracked()].map((id) => ph.spawnNames(w).get(id)))
  const expectTracked = async (want, why) => {
    await h.waitFor(() => {
      const s = names()
      return s.size === want.length && want.every((n) => s.has(n))
    }, { timeout: 4000, interval: 50, message: why, detail: () => `tracked: ${[...names()]}\n${w.describe()}` })
  }
  await expectTracked(['Near4', 'Near5', 'Near6'], 'the watcher tracking the 3 nearest')
  assert.ok(w.tracked().size <= 3)

  // The farthest comes closest: it replaces the farthest tracked one.
  mp.consoleCmd(srv, `tp Near1 ${at(1)}`)
  await expectTracked(['Near1', 'Near5', 'Near6'], 'Near1 (now at 1 block) instead of Near4 (6 blocks)')

  // Players it does not track move in the same chunk: not a byte of it
  // reaches the watcher; one it tracks moves: that does.
  const from = w.mark()
  mp.consoleCmd(srv, `tp Near2 ${at(11.25)}`) // not a whole number: /tp would centre it
  mp.consoleCmd(srv, `tp Near3 ${at(8.75)}`)
  mp.consoleCmd(srv, `tp Near5 ${at(3.75)}`)
  const near5 = [...ph.spawnNames(w)].find(([, n]) => n === 'Near5')[0]
  await h.waitFor(() => w.since(from).some((x) => ph.MOVE_PACKETS.includes(x.name) && x.p.entityId === near5), {
    timeout: 3000, message: 'the move of Near5 (tracked)', detail: () => w.describe()
  })
  await h.sleep(500)
  for (let i = from; i < w.packets.length; i++) {
    const x = w.packets[i]
    if (!ph.MOVE_PACKETS.includes(x.name)) continue
    assert.ok(w.tracked(i).has(x.p.entityId), `${x.name} about entity ${x.p.entityId}, which the watcher does not have`)
  }
  assert.ok(w.tracked().size <= 3)
  for (const o of [w, ...others]) o.end()
  assert.equal((await srv.stop()).code, 0, srv.describe())
})

test('bad hub values stop startup with the key named', { timeout: 20000 }, async () => {
  for (const [key, value, re] of [
    ['mcserv-player-visibility', 'some', /mcserv-player-visibility: expected all or none, got 'some'/],
    ['mcserv-max-tracked-players', '-1', /mcserv-max-tracked-players: expected a whole number from 0 to 1000000, got '-1'/]
  ]) {
    const srv = await h.startServer({ name: 'hub-bad', props: { [key]: value }, waitReady: false })
    const exit = await srv.waitExit(5000)
    assert.ok(exit && exit.code !== 0, `${key}=${value}: mcserv must not start: ${JSON.stringify(exit)}`)
    assert.match(srv.output(), re)
  }
})

h.finalClientErrorCheck(test)
