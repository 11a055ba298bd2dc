'use strict'
// Issue 13, "no news, no bytes": players who stand still cost their viewers
// nothing. 50 mcbench bots stand at the spawn point (idle: they only answer
// the server), a minecraft-protocol client among them watches for 10 s and
// must get no packet that moves or turns an entity, while it does get the
// server's time updates (it is connected and served). Vanilla would have
// sent a zero relative move per player every 3 s (ServerEntity's 60-tick
// rule) and a teleport every 40 s: about 170 packets in that window.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const ph = require('./proto-helpers')

after(async () => { ph.closeAll(); await h.cleanupAll() })

const BOTS = 50
const WINDOW_MS = 10000

test(`${BOTS} still players: a viewer gets no entity movement for ${WINDOW_MS / 1000} s`, { timeout: 60000 }, async (t) => {
  const srv = await h.startServer({ name: 'quiet', props: { 'view-distance': 4, 'max-players': BOTS + 10 } })
  const w = ph.watcher(srv.port, 'Watcher')
  await w.waitLogin()
  const bench = ph.runBench(['--port', String(srv.port), '--bots', String(BOTS), '--rate', '100',
    '--duration', '18', '--scenario', 'idle', '--quiet'])
  const ctx = () => `${w.describe()}\n${h.tail(bench.output(), 2000)}\n${srv.describe()}`
  await h.waitFor(() => {
    if (bench.ended) throw new Error('mcbench exited early')
    return w.tracked().size === BOTS
  }, { timeout: 25000, interval: 100, message: `the watcher tracking all ${BOTS} bots`, detail: ctx })
  await h.sleep(1000) // the bots' answers to their spawn teleport, client settings: news, once
  const from = w.mark()
  await h.sleep(WINDOW_MS)
  const got = w.since(from)
  const counts = {}
  for (const x of got) counts[x.name] = (counts[x.name] || 0) + 1
  t.diagnostic(`packets in the ${WINDOW_MS / 1000} s window: ${JSON.stringify(counts)}`)
  const moves = got.filter((x) => ph.MOVE_PACKETS.includes(x.name))
  assert.deepEqual(moves.map((x) => `${x.name} ${x.p.entityId}`), [], `no entity moved, so nothing about movement:\n${ctx()}`)
  const entityNews = got.filter((x) => /^entity_|^named_entity|^animation/.test(x.name))
  assert.deepEqual(entityNews.map((x) => x.name), [], 'nor any other entity packet (nobody changed)')
  assert.ok((counts.update_time || 0) >= 8, `the watcher is served meanwhile (Update Time every second): ${JSON.stringify(counts)}`)
  assert.equal(w.tracked().size, BOTS, 'all bots still tracked')
  assert.equal(await bench.exited, 0, `mcbench: every bot stayed\n${ctx()}`)
  w.end()
  const exit = await srv.stop()
  assert.equal(exit.code, 0, srv.describe())
})

h.finalClientErrorCheck(test)
