'use strict'
// Issue #5 acceptance, commands half: the Brigadier tree clients get,
// /tp, /gamemode, /time, /list, /msg, /kill (death and respawn), /weather,
// /seed, /help, /op and /deop with ops.json, /kick, tab completion, a
// non-operator's /op refused as vanilla refuses it (the command is hidden,
// so it is "Unknown or incomplete command"), and the console (`say`,
// `list`, `mspt`, `stop`) on the same dispatcher.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const h = require('./helpers')
const mp = require('./mp-helpers')

let srv, A, B, recA, recB
const since = h.mark()
const SEED = '12345'

before(async () => {
  srv = await h.startServer({ name: 'commands', props: { 'view-distance': 4, 'level-seed': SEED } })
  A = h.makeBot(srv.port, 'Alice')
  recA = mp.recorder(A, ['declare_commands', 'game_state_change', 'entity_status', 'position'])
  await A.waitSpawn(15000)
  B = h.makeBot(srv.port, 'Bob')
  recB = mp.recorder(B, ['declare_commands', 'game_state_change', 'respawn', 'update_health'])
  await B.waitSpawn(15000)
  await h.waitFor(() => A.bot.players.Bob && A.bot.players.Bob.entity && B.bot.entity.onGround, {
    timeout: 5000, message: 'both bots in place'
  })
})

after(h.cleanupAll)

const ctx = () => `${A.describe()}\n${B.describe()}\n${srv.describe()}`
const names = (p) => p.nodes.filter((n) => n.extraNodeData && n.extraNodeData.name).map((n) => n.extraNodeData.name)
const opsFile = () => path.join(srv.dir, 'ops.json')

test('console op: ops.json in vanilla format; the operator gets the full command tree and level 4', { timeout: 10000 }, async () => {
  const m = recA.mark()
  mp.consoleCmd(srv, 'op Alice')
  await recA.waitPacket('entity_status', (p) => p.entityStatus === 28, { since: m })
  const tree = await recA.waitPacket('declare_commands', () => true, { since: m })
  for (const n of ['tp', 'teleport', 'gamemode', 'time', 'weather', 'kill', 'op', 'deop', 'kick', 'stop', 'say', 'seed']) {
    assert.ok(names(tree).includes(n), `operator tree has ${n}`)
  }
  const bt = recB.packets.declare_commands[0]
  assert.ok(bt, 'Bob got a tree at join')
  for (const n of ['help', 'list', 'me', 'msg', 'tell', 'w']) assert.ok(names(bt).includes(n), `everyone has ${n}`)
  for (const n of ['op', 'tp', 'gamemode', 'stop']) assert.ok(!names(bt).includes(n), `Bob's tree hides ${n}`)
  await h.waitFor(() => /Made Alice a server operator/.test(srv.output()), { timeout: 2000, message: 'console feedback' })
  await h.waitFor(() => fs.existsSync(opsFile()), { timeout: 3000, message: 'ops.json written' })
  const ops = JSON.parse(fs.readFileSync(opsFile(), 'utf8'))
  assert.deepEqual(ops, [{ uuid: A.bot.player.uuid, name: 'Alice', level: 4, bypassesPlayerLimit: false }])
  assert.match(fs.readFileSync(opsFile(), 'utf8'), /^\[\n {2}\{\n {4}"uuid"/, 'pretty-printed like vanilla')
})

test('/tp to a player, to coordinates, and another player to me', { timeout: 10000 }, async () => {
  B.bot.chat('/tp Alice') // not for Bob (no permission): nothing moves
  let m = recA.mark()
  A.bot.chat('/tp 10 -60 10')
  await recA.waitChat(/^Teleported Alice to 10\.500000, -60\.000000, 10\.500000$/, { since: m })
  await h.waitFor(() => mp.dist(A.bot.entity.position, { x: 10.5, y: -60, z: 10.5 }) < 0.01, {
    timeout: 3000, message: 'Alice at 10.5 -60 10.5', detail: ctx
  })
  m = recA.mark()
  A.bot.chat('/tp Bob')
  await recA.waitChat(/^Teleported Alice to Bob$/, { since: m })
  await h.waitFor(() => mp.dist(A.bot.entity.position, B.bot.entity.position) < 0.01, { timeout: 3000, message: 'Alice at Bob', detail: ctx })
  A.bot.chat('/tp Bob ~3 ~ ~')
  const a = A.bot.entity.position
  await h.waitFor(() => mp.dist(B.bot.entity.position, { x: a.x + 3, y: a.y, z: a.z }) < 0.01, {
    timeout: 3000, message: 'Bob 3 blocks east of Alice (relative to the source)', detail: ctx
  })
  // /teleport with the same tree; tp is a redirect to it
  A.bot.chat('/teleport Alice 0 -60 0')
  await h.waitFor(() => mp.dist(A.bot.entity.position, { x: 0.5, y: -60, z: 0.5 }) < 0.01, { timeout: 3000, message: 'Alice at 0.5 -60 0.5' })
})

test('/gamemode creative (self) and adventure (other); everyone\'s tab list follows', { timeout: 10000 }, async () => {
  let m = recA.mark()
  A.bot.chat('/gamemode creative')
  await recA.waitChat(/^Set own game mode to Creative Mode$/, { since: m })
  await recA.waitPacket('game_state_change', (p) => p.reason === 'change_game_mode' && p.gameMode === 1, { since: m })
  await h.waitFor(() => B.bot.players.Alice.gamemode === 1, { timeout: 2000, message: "Bob's tab list shows Alice in creative" })
  m = recB.mark()
  A.bot.chat('/gamemode adventure Bob')
  await recB.waitChat(/^Your game mode has been updated to Adventure Mode$/, { since: m })
  await recA.waitChat(/^Set Bob's game mode to Adventure Mode$/)
  await h.waitFor(() => A.bot.players.Bob.gamemode === 2, { timeout: 2000, message: "Alice's tab list shows Bob in adventure" })
  A.bot.chat('/gamemode survival @a')
  await h.waitFor(() => A.bot.players.Bob.gamemode === 0 && B.bot.players.Alice.gamemode === 0, { timeout: 2000, message: 'both in survival' })
})

test('/time set and query: the day cycle reaches every client through Update Time', { timeout: 10000 }, async () => {
  const m = recA.mark()
  A.bot.chat('/time set 6000')
  await recA.waitChat(/^Set the time to 6000$/, { since: m })
  for (const b of [A, B]) {
    await h.waitFor(() => b.bot.time.timeOfDay >= 6000 && b.bot.time.timeOfDay < 6100, {
      timeout: 2000, message: `${b.username} time of day ~6000 (got ${b.bot.time.timeOfDay})`
    })
  }
  const t0 = B.bot.time.timeOfDay
  await h.waitFor(() => B.bot.time.timeOfDay >= t0 + 20, { timeout: 3000, message: 'the day cycle advances (Update Time every 20 ticks)' })
  A.bot.chat('/time query daytime')
  const q = await recA.waitChat(/^The time is \d+$/, { since: m })
  assert.ok(Number(q.split(' ').pop()) >= 6000)
  A.bot.chat('/time set night')
  await h.waitFor(() => B.bot.time.timeOfDay >= 13000 && B.bot.time.timeOfDay < 13100, { timeout: 2000, message: 'night' })
})

test('/list and /msg (and its aliases) as in vanilla', { timeout: 10000 }, async () => {
  let m = recA.mark()
  A.bot.chat('/list')
  await recA.waitChat(/^There are 2 of a max of 20 players online: (Alice, Bob|Bob, Alice)$/, { since: m })
  const whisper = new Promise((resolve) => B.bot.once('whisper', (u, msg) => resolve({ u, msg })))
  m = recA.mark()
  A.bot.chat('/msg Bob hi there')
  const w = await h.withTimeout(whisper, 3000, 'Bob whisper event')
  assert.deepEqual(w, { u: 'Alice', msg: 'hi there' })
  await recA.waitChat(/^You whisper to Bob: hi there$/, { since: m })
  m = recA.mark()
  B.bot.chat('/w Alice psst')
  await recA.waitChat(/^Bob whispers to you: psst$/, { since: m })
  B.bot.chat('/tell Nobody hello')
  await recB.waitChat(/^No player was found$/)
})

test('a non-operator\'s /op is refused as vanilla does (hidden command: unknown) and changes nothing', { timeout: 10000 }, async () => {
  const m = recB.mark()
  B.bot.chat('/op Bob')
  await recB.waitChat(/^Unknown or incomplete command, see below for error$/, { since: m })
  await recB.waitChat(/^op Bob<--\[HERE\]$/, { since: m })
  const raw = recB.chatJson.map((s) => JSON.parse(s)).reverse().find((j) => j.extra && j.extra[0].translate === 'command.unknown.command')
  assert.equal(raw.color, 'red')
  await h.sleep(300)
  const ops = JSON.parse(fs.readFileSync(opsFile(), 'utf8'))
  assert.deepEqual(ops.map((o) => o.name), ['Alice'])
  assert.ok(!B.kicked)
})

test('errors: unknown command, bad argument with the <--[HERE] context', { timeout: 10000 }, async () => {
  const m = recA.mark()
  A.bot.chat('/time set abc')
  await recA.waitChat(/^Expected float$/, { since: m })
  await recA.waitChat(/^time set abc<--\[HERE\]$/, { since: m })
  A.bot.chat('/nosuchcommand')
  await recA.waitChat(/^nosuchcommand<--\[HERE\]$/, { since: m })
  A.bot.chat('/gamemode creativ')
  await recA.waitChat(/^Unknown game mode: creativ$/, { since: m })
})

test('the console shares the dispatcher: say reaches the bots, list and mspt answer in the log', { timeout: 10000 }, async () => {
  const m = recB.mark()
  mp.consoleCmd(srv, 'say hello everyone')
  await recB.waitChat(/^\[Server\] hello everyone$/, { since: m })
  await recA.waitChat(/^\[Server\] hello everyone$/)
  mp.consoleCmd(srv, 'list')
  await h.waitFor(() => /There are 2 of a max of 20 players online: (Alice, Bob|Bob, Alice)/.test(srv.output()), { timeout: 2000, message: 'console list' })
  mp.consoleCmd(srv, 'mspt')
  await h.waitFor(() => /Tick durations \(ms\) min\/median\/95%ile\/99%ile\/max, last 5 s: [\d.]+\/[\d.]+\/[\d.]+\/[\d.]+\/[\d.]+/.test(srv.output()), { timeout: 2000, message: 'console mspt' })
  mp.consoleCmd(srv, 'gamemode creative')
  await h.waitFor(() => /A player is required to run this command here/.test(srv.output()), { timeout: 2000, message: 'console: player required' })
})

test('/kill: death screen, respawn flow, others see the player again', { timeout: 15000 }, async () => {
  const bid = B.bot.entity.id
  const m = recB.mark()
  const died = new Promise((resolve) => B.bot.once('death', resolve))
  A.bot.chat('/kill Bob')
  await h.withTimeout(died, 3000, 'Bob death event')
  await recB.waitChat(/^Bob was killed$/, { since: m })
  await recA.waitChat(/^Killed Bob$/)
  // mineflayer answers with client_command(respawn): the respawn packet, health back to 20
  await recB.waitPacket('respawn', () => true, { since: m })
  await recB.waitPacket('update_health', (p) => p.health === 20, { since: m })
  await h.waitFor(() => B.bot.health === 20 && B.bot.isAlive, { timeout: 3000, message: 'Bob alive again' })
  await h.waitFor(() => A.bot.players.Bob.entity && A.bot.players.Bob.entity.id === bid, { timeout: 5000, message: 'Alice sees Bob again', detail: ctx })
  await h.waitFor(() => B.bot.blockAt(B.bot.entity.position.offset(0, -1, 0)) != null, { timeout: 5000, message: 'Bob has chunks again' })
})

test('/weather rain and clear (Game Event), /seed, /setworldspawn, /help, tab completion', { timeout: 15000 }, async () => {
  let m = recB.mark()
  A.bot.chat('/weather rain')
  await recB.waitPacket('game_state_change', (p) => p.reason === 'start_raining', { since: m })
  await recB.waitPacket('game_state_change', (p) => p.reason === 'rain_level_change' && p.gameMode === 1, { since: m })
  m = recB.mark()
  A.bot.chat('/weather clear')
  await recB.waitPacket('game_state_change', (p) => p.reason === 'stop_raining', { since: m })
  const ma = recA.mark()
  A.bot.chat('/seed')
  await recA.waitChat(new RegExp(`^Seed: \\[${SEED}\\]$`), { since: ma })
  A.bot.chat('/setworldspawn 5 -60 5')
  await recA.waitChat(/^Set the world spawn point to 5, -60, 5 \[0\.0\]$/, { since: ma })
  A.bot.chat('/help')
  await recA.waitChat(/^\/tp -> teleport$/, { since: ma })
  await recA.waitChat(/^\/gamemode <gamemode> \[<target>\]$/, { since: ma })
  const mb = recB.mark()
  B.bot.chat('/help')
  await recB.waitChat(/^\/msg <targets> <message>$/, { since: mb })
  await h.sleep(300)
  assert.ok(!recB.chat.slice(mb.chat).some((l) => /^\/op /.test(l)), "Bob's /help does not list /op")
  const ops = await h.withTimeout(A.bot.tabComplete('/op '), 3000, 'tab completion')
  assert.deepEqual(ops.map((x) => x.match), ['Bob'], 'op suggests players who are not operators')
  const w = await h.withTimeout(A.bot.tabComplete('/weather r'), 3000, 'tab completion')
  assert.deepEqual(w.map((x) => x.match), ['rain'])
})

test('/deop from the console, /kick with a reason, console stop', { timeout: 15000 }, async () => {
  const m = recA.mark()
  mp.consoleCmd(srv, 'deop Alice')
  await recA.waitPacket('entity_status', (p) => p.entityStatus === 24, { since: m })
  const tree = await recA.waitPacket('declare_commands', () => true, { since: m })
  assert.ok(!names(tree).includes('op'))
  await h.waitFor(() => JSON.parse(fs.readFileSync(opsFile(), 'utf8')).length === 0, { timeout: 3000, message: 'ops.json emptied' })
  mp.consoleCmd(srv, 'kick Bob Go away')
  await h.waitFor(() => B.kicked, { timeout: 3000, message: 'Bob kicked' })
  assert.match(B.kicked, /Go away/)
  await recA.waitChat(/^Bob left the game$/, { since: m })
  mp.consoleCmd(srv, 'stop')
  const info = await srv.waitExit(5000)
  assert.ok(info, 'the server stopped')
  assert.equal(info.code, 0)
  await h.waitFor(() => A.kicked || A.ended, { timeout: 3000, message: 'Alice disconnected' })
})

test('no client-side protocol errors; the server exits cleanly with no sanitizer report', { timeout: 10000 }, async () => {
  h.assertNoClientProtocolErrors(assert, since, srv)
  assert.ok(srv.exited, 'stopped by the console')
  assert.doesNotMatch(srv.output(), /runtime error|AddressSanitizer|LeakSanitizer/, srv.describe())
})
