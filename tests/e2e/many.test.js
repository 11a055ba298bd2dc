'use strict'
// Acceptance 3: 20 real clients join at once, all spawn; status counts them;
// one quits and the count drops.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')

after(h.cleanupAll)

const N = 20

test(`${N} mineflayer bots join concurrently, status online=${N}, one quits → ${N - 1}`, { timeout: 60000 }, async (t) => {
  const since = h.mark()
  // Load the 1.20.1 data once up front so bot creation is fast and the joins
  // really are concurrent.
  require('minecraft-data')(h.VERSION)
  await h.withServer({
    name: 'many',
    props: {
      'view-distance': 2,
      'max-players': 30,
      motd: 'mcserv many test',
      'network-compression-threshold': 256
    }
  }, async (srv) => {
    const botsList = []
    const t0 = Date.now()
    for (let i = 0; i < N; i++) {
      botsList.push(h.makeBot(srv.port, `Many${String(i).padStart(2, '0')}`))
      await h.sleep(20) // all of them started within ~1 s
    }
    const startSpan = Date.now() - t0
    const results = await Promise.allSettled(botsList.map((b) => b.waitSpawn(30000)))
    const failed = botsList.filter((b, i) => results[i].status !== 'fulfilled')
    assert.deepEqual(failed.map((b) => b.username), [],
      `all ${N} bots should spawn within 30 s (started within ${startSpan} ms):\n` +
      failed.map((b) => b.describe()).join('\n') + '\n' + srv.describe())
    const spawnTimes = botsList.map((b) => b.spawnedAt - b.createdAt).sort((a, b) => a - b)
    t.diagnostic(`${N} bots started within ${startSpan} ms; join-to-spawn ms: p50=${spawnTimes[N >> 1]} max=${spawnTimes[N - 1]}`)

    const st = await h.waitFor(async () => {
      const s = await h.statusUtil(srv.port)
      return s.players.online === N ? s : null
    }, { timeout: 5000, interval: 200, message: `status online=${N}` })
    assert.equal(st.players.online, N)
    assert.equal(st.players.max, 30)

    const ended = botsList.filter((b) => b.ended)
    assert.deepEqual(ended.map((b) => b.describe()), [], 'no bot should have been disconnected')

    const leaver = botsList[7]
    await leaver.quit()
    const st2 = await h.waitFor(async () => {
      const s = await h.statusUtil(srv.port)
      return s.players.online === N - 1 ? s : null
    }, {
      timeout: 5000,
      interval: 200,
      message: `status online=${N - 1} after one bot quit`,
      detail: () => srv.describe()
    })
    assert.equal(st2.players.online, N - 1)
    if (Array.isArray(st2.players.sample)) {
      assert.ok(!st2.players.sample.some((e) => e.name === leaver.username),
        `the leaver should not be in the sample: ${JSON.stringify(st2.players.sample)}`)
    }
    const stillEnded = botsList.filter((b) => b !== leaver && b.ended)
    assert.deepEqual(stillEnded.map((b) => b.describe()), [], 'the other bots stay connected')
    await Promise.all(botsList.map((b) => b.quit(3000)))
    h.assertNoClientProtocolErrors(assert, since, srv)
  })
})

// Vanilla kicks the older connection with "You logged in from another
// location" (multiplayer.disconnect.duplicate_login). The contract doesn't
// specify it, so anything else is reported as a skip, not a failure.
test('duplicate name: second login kicks the first (vanilla behaviour; optional)', { timeout: 30000 }, async (t) => {
  const since = h.mark()
  let outcome = null
  await h.withServer({
    name: 'dup',
    props: { 'view-distance': 2, 'max-players': 10, motd: 'dup', 'network-compression-threshold': 256 }
  }, async (srv) => {
    const a = h.makeBot(srv.port, 'DupName')
    await a.waitSpawn(15000)
    const b = h.makeBot(srv.port, 'DupName')
    let bSpawned = false
    try { await b.waitSpawn(10000); bSpawned = true } catch (e) {}
    await h.waitFor(() => a.ended, { timeout: 3000 }).catch(() => {})
    outcome = { aKicked: a.kicked, aEnded: a.ended, bSpawned, bKicked: b.kicked, bEnded: b.ended }
    if (bSpawned && a.ended) {
      // The vanilla behaviour: check it fully.
      assert.ok(a.kicked, `the first connection should get a kick with a reason: ${a.describe()}`)
      assert.match(a.kicked, /another location|duplicate_login/i, 'kick reason')
      assert.equal(b.ended, null, 'the new connection stays')
      const st = await h.statusUtil(srv.port)
      assert.equal(st.players.online, 1, `one player online after the duplicate login: ${JSON.stringify(st.players)}`)
      h.assertNoClientProtocolErrors(assert, since, srv)
    }
  })
  if (!(outcome.bSpawned && outcome.aEnded)) {
    t.skip(`server does not do the vanilla duplicate-login kick (unspecified): ${JSON.stringify(outcome)}`)
  }
})

h.finalClientErrorCheck(test)
