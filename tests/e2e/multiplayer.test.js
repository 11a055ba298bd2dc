'use strict'
// Issue #5 acceptance, multiplayer half (mineflayer bots against one server):
//   1. A sees B in the player list and as an entity; B walks 10 blocks and
//      A's view of B is within 0.5 blocks of B's own position within 1 s;
//      B leaves the tracking range (view-distance 4: 64 blocks) and A gets
//      the entity removed; B comes back and is spawned for A again.
//   2. Chat: A's message reaches B as a `chat` event with A's name; an
//      over-long message (300 > 256 characters) and a '§' in chat disconnect
//      the sender as vanilla does, and nobody receives them.
//   3. B swings and sneaks/sprints: A gets the animation and the metadata.
//   5. A quits: B gets Player Info Remove and Remove Entities; the join and
//      leave messages arrive. Plus the tab list header/footer and game modes.
// One server for the file; each wait is bounded.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')

let srv, A, B, recA, recB
const since = h.mark()

before(async () => {
  srv = await h.startServer({
    name: 'multiplayer',
    props: {
      'view-distance': 4,
      'entity-broadcast-range-percentage': 100,
      'mcserv-tab-header': 'Welcome to mcserv',
      'mcserv-tab-footer': 'have fun'
    }
  })
  A = h.makeBot(srv.port, 'Alice')
  recA = mp.recorder(A, ['entity_destroy', 'named_entity_spawn', 'animation', 'entity_metadata',
    'player_remove', 'player_info', 'playerlist_header'])
  await A.waitSpawn(15000)
  B = h.makeBot(srv.port, 'Bob')
  recB = mp.recorder(B, ['entity_destroy', 'player_remove', 'named_entity_spawn', 'player_info',
    'playerlist_header'])
  await B.waitSpawn(15000)
})

after(h.cleanupAll)

const ctx = () => `${A.describe()}\n${B.describe()}\n${srv.describe()}`

test('A sees B in the player list and as an entity; a 10-block walk is relayed within 1 s to 0.5 blocks', { timeout: 20000 }, async () => {
  await h.waitFor(() => A.bot.players.Bob && A.bot.players.Bob.entity, {
    timeout: 5000, message: 'Bob as an entity for Alice', detail: ctx
  })
  assert.ok(B.bot.players.Alice, 'Bob has Alice in the player list')
  const be = A.bot.players.Bob.entity
  assert.equal(be.type, 'player')
  assert.equal(be.username, 'Bob')
  assert.ok(mp.dist(be.position, B.bot.entity.position) < 0.5, `spawned at ${be.position}, Bob is at ${B.bot.entity.position}`)
  // Both need the ground under them before walking.
  await h.waitFor(() => B.bot.entity.onGround, { timeout: 5000, message: 'Bob on the ground', detail: ctx })

  // Alice's view of Bob at every movement update she gets during the walk.
  const startX = be.position.x
  const viewXs = []
  const onMoved = (e) => { if (e === A.bot.players.Bob.entity) viewXs.push(e.position.x) }
  A.bot.on('entityMoved', onMoved)
  try {
    await mp.walkStraight(B.bot, Math.PI / 2, 10) // yaw pi/2: towards -x
    const seen = () => A.bot.players.Bob && A.bot.players.Bob.entity
    await h.waitFor(() => seen() && mp.dist(seen().position, B.bot.entity.position) < 0.5, {
      timeout: 1000,
      interval: 10,
      message: "Alice's view of Bob within 0.5 blocks of Bob's own position",
      detail: () => `Alice sees ${seen() && seen().position}, Bob is at ${B.bot.entity.position}\n${ctx()}`
    })
  } finally {
    A.bot.off('entityMoved', onMoved)
  }
  const endX = B.bot.entity.position.x
  assert.ok(Math.abs(endX - 0.5) >= 9.5, `Bob walked 10 blocks: ${B.bot.entity.position}`)
  // The walk was relayed as it happened, in steps (relative moves, a tick
  // at a time), not as one jump once Bob stopped: Alice saw Bob at many
  // points between the start and the end, always further along -x.
  const between = viewXs.filter((x) => x < startX - 0.5 && x > endX + 0.5)
  assert.ok(between.length >= 10, `Alice saw Bob at ${between.length} points along the way: ${viewXs.map((x) => x.toFixed(2))}`)
  for (let i = 1; i < viewXs.length; i++) {
    assert.ok(viewXs[i] <= viewXs[i - 1] + 0.01, `Bob only went -x in Alice's view: ${viewXs.map((x) => x.toFixed(2))}`)
  }
})

test('B leaves the tracking range: Remove Entities for A; B returns: spawned again', { timeout: 20000 }, async () => {
  const id = B.bot.entity.id
  let m = recA.mark()
  mp.consoleCmd(srv, 'tp Bob 300 -60 0')
  await h.waitFor(() => Math.abs(B.bot.entity.position.x - 300.5) < 0.01, {
    timeout: 5000, message: 'Bob teleported to x=300.5', detail: ctx
  })
  await recA.waitPacket('entity_destroy', (p) => p.entityIds.includes(id), { since: m, timeout: 3000 })
  assert.equal(A.bot.players.Bob.entity, null, 'Bob is no longer an entity for Alice')
  assert.ok(A.bot.players.Bob, 'Bob is still in the player list')

  m = recA.mark()
  const a = A.bot.entity.position
  mp.consoleCmd(srv, `tp Bob ${a.x + 2} ${a.y} ${a.z}`)
  await recA.waitPacket('named_entity_spawn', (p) => p.entityId === id, { since: m, timeout: 5000 })
  await h.waitFor(() => A.bot.players.Bob.entity && mp.dist(A.bot.players.Bob.entity.position, B.bot.entity.position) < 0.5, {
    timeout: 3000, message: 'Bob back next to Alice', detail: ctx
  })
})

test('chat: A talks, B gets a chat event with A\'s name; over-long and illegal messages disconnect as vanilla', { timeout: 20000 }, async () => {
  const got = new Promise((resolve) => {
    const on = (username, message) => {
      if (message === 'hello from Alice') { B.bot.off('chat', on); resolve({ username, message }) }
    }
    B.bot.on('chat', on)
  })
  A.bot.chat('hello from Alice')
  const c = await h.withTimeout(got, 3000, 'Bob chat event')
  assert.equal(c.username, 'Alice')
  const raw = recB.chatJson.map((s) => JSON.parse(s)).find((j) => j.translate === 'chat.type.text')
  assert.ok(raw, 'sent as System Chat chat.type.text')
  assert.equal(raw.with[0].text, 'Alice')
  assert.equal(raw.with[1].text, 'hello from Alice')

  // 300 characters: vanilla's decoder refuses strings over 256 and disconnects.
  const C = h.makeBot(srv.port, 'Carol')
  await C.waitSpawn(15000)
  const mB = recB.mark()
  C.bot._client.write('chat_message', {
    message: 'x'.repeat(300), timestamp: BigInt(Date.now()), salt: 0n, signature: undefined, offset: 0, acknowledged: Buffer.alloc(3)
  })
  await h.waitFor(() => C.kicked, { timeout: 3000, message: 'Carol kicked', detail: C.describe })
  assert.match(C.kicked, /longer than maximum allowed \(300 > 256\)/)
  // '§' (and control characters): "Illegal characters in chat".
  const D = h.makeBot(srv.port, 'Dave')
  await D.waitSpawn(15000)
  D.bot._client.write('chat_message', {
    message: 'colour \u00a7ccode', timestamp: BigInt(Date.now()), salt: 0n, signature: undefined, offset: 0, acknowledged: Buffer.alloc(3)
  })
  await h.waitFor(() => D.kicked, { timeout: 3000, message: 'Dave kicked', detail: D.describe })
  assert.match(D.kicked, /Illegal characters in chat/)
  await h.sleep(200)
  assert.ok(!recB.chat.slice(mB.chat).some((m) => /xxxx|ccode/.test(m)), 'nobody receives refused messages')
  await recB.waitChat(/^Carol left the game$/, { since: mB })
  await recB.waitChat(/^Dave left the game$/, { since: mB })
})

test('B swings and sneaks: A gets the animation and the metadata (sneak, pose, sprint)', { timeout: 20000 }, async () => {
  const id = B.bot.entity.id
  await h.waitFor(() => A.bot.players.Bob.entity, { timeout: 3000, message: 'Bob tracked by Alice' })
  let m = recA.mark()
  const swung = new Promise((resolve) => {
    const on = (e) => { if (e.id === id) { A.bot.off('entitySwingArm', on); resolve() } }
    A.bot.on('entitySwingArm', on)
  })
  B.bot.swingArm('right')
  await h.withTimeout(swung, 2000, 'Alice entitySwingArm for Bob')
  await recA.waitPacket('animation', (p) => p.entityId === id && p.animation === 0, { since: m })

  m = recA.mark()
  B.bot.setControlState('sneak', true)
  const meta = await recA.waitPacket('entity_metadata', (p) => p.entityId === id && p.metadata.some((e) => e.key === 0 && (e.value & 0x02)), { since: m })
  assert.ok(meta.metadata.some((e) => e.key === 6 && e.value === 5), `pose CROUCHING (5) with the flags: ${JSON.stringify(meta.metadata)}`)
  await h.waitFor(() => A.bot.players.Bob.entity.crouching === true, { timeout: 1000, message: 'mineflayer: Bob crouching' })

  m = recA.mark()
  B.bot.setControlState('sneak', false)
  await recA.waitPacket('entity_metadata', (p) => p.entityId === id && p.metadata.some((e) => e.key === 0 && !(e.value & 0x02)), { since: m })
  await h.waitFor(() => A.bot.players.Bob.entity.crouching === false, { timeout: 1000, message: 'mineflayer: Bob standing' })

  m = recA.mark()
  B.bot.setControlState('sprint', true)
  await recA.waitPacket('entity_metadata', (p) => p.entityId === id && p.metadata.some((e) => e.key === 0 && (e.value & 0x08)), { since: m })
  B.bot.setControlState('sprint', false)
})

test('tab list: header and footer from server.properties; game mode changes reach everyone', { timeout: 15000 }, async () => {
  const hdr = recB.packets.playerlist_header[0]
  assert.ok(hdr, 'Bob got the tab list header/footer')
  assert.equal(JSON.parse(hdr.header).text, 'Welcome to mcserv')
  assert.equal(JSON.parse(hdr.footer).text, 'have fun')
  const m = recB.mark()
  mp.consoleCmd(srv, 'gamemode creative Alice')
  await recB.waitPacket('player_info', (p) => p.action.update_game_mode && p.data.some((d) => d.gamemode === 1), { since: m })
  await h.waitFor(() => B.bot.players.Alice.gamemode === 1, { timeout: 2000, message: "Bob's tab list: Alice in creative" })
  mp.consoleCmd(srv, 'gamemode survival Alice')
  await h.waitFor(() => B.bot.players.Alice.gamemode === 0, { timeout: 2000, message: "Bob's tab list: Alice in survival" })
})

test('A quits: B gets Player Info Remove and Remove Entities; join and leave messages arrive', { timeout: 15000 }, async () => {
  await recA.waitChat(/^Alice joined the game$/)
  await recA.waitChat(/^Bob joined the game$/)
  await recB.waitChat(/^Bob joined the game$/)
  await h.waitFor(() => B.bot.players.Alice && B.bot.players.Alice.entity, { timeout: 3000, message: 'Alice tracked by Bob' })
  const aid = A.bot.entity.id
  const m = recB.mark()
  await A.quit()
  await recB.waitPacket('entity_destroy', (p) => p.entityIds.includes(aid), { since: m })
  await recB.waitPacket('player_remove', (p) => p.players.length === 1, { since: m })
  await recB.waitChat(/^Alice left the game$/, { since: m })
  await h.waitFor(() => !B.bot.players.Alice, { timeout: 2000, message: 'Alice gone from Bob\'s player list' })
  const left = recB.chatJson.map((s) => JSON.parse(s)).find((j) => j.translate === 'multiplayer.player.left')
  assert.equal(left.color, 'yellow')
})

test('no client-side protocol errors; the server exits cleanly with no sanitizer report', { timeout: 10000 }, async () => {
  h.assertNoClientProtocolErrors(assert, since, srv)
  await Promise.all([A, B].map((b) => b.quit(2000)))
  const info = await srv.stop(5000)
  assert.equal(info.code, 0, `exit ${JSON.stringify(info)}\n${srv.describe()}`)
  assert.doesNotMatch(srv.output(), /runtime error|AddressSanitizer|LeakSanitizer/, srv.describe())
})
