'use strict'
// The plugins shipped in plugins-examples/ (issue 19), installed as an
// operator would (copied into plugins/): welcome (message and title at
// join, /spawn, /sethome and /home), spawnprotect (no breaking or placing
// near the spawn without spawnprotect.bypass; `plugins grant` and
// `plugins revoke` it) and parkour (a course built by /parkour setup, a
// timed run, the leaderboard in storage, still there after a restart).
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Vec3 } = require('vec3')
const h = require('./helpers')
const mp = require('./mp-helpers')
const pu = require('./persist-util')
const ph = require('./plugin-helpers')

after(ph.cleanup)

let srv, A, B, recA, recB

before(async () => {
  srv = await ph.startWithPlugins({
    name: 'examples',
    // vanilla's own spawn protection off: the plugin is what is tested
    props: { gamemode: 'creative', 'spawn-protection': '0' },
    examples: ['welcome', 'spawnprotect', 'parkour']
  })
  A = h.makeBot(srv.port, 'Alice')
  recA = mp.recorder(A, ['set_title_text', 'set_title_subtitle', 'system_chat'])
  await A.waitSpawn(15000)
  B = h.makeBot(srv.port, 'Bob')
  recB = mp.recorder(B, ['system_chat'])
  await B.waitSpawn(15000)
  const from = srv.output().length
  srv.send('op Alice')
  await srv.waitOutput(/Made Alice a server operator/, { from })
  await h.waitFor(() => A.bot.entity.onGround && B.bot.entity.onGround, { timeout: 5000, message: 'bots on the ground' })
})

test('welcome: a message and a title at join; /sethome and /home, /spawn', { timeout: 20000 }, async () => {
  await recA.waitChat(/^Welcome to the server, Alice!$/)
  const title = await recA.waitPacket('set_title_text')
  assert.match(JSON.stringify(title), /Welcome/)
  const sub = await recA.waitPacket('set_title_subtitle')
  assert.match(JSON.stringify(sub), /Have fun, Alice/)
  let since = recA.mark()
  A.bot.chat('/sethome')
  await recA.waitChat(/^Home set at 0\.5, -60\.0, 0\.5$/, { since })
  A.bot.chat('/tp 6.5 -60 -6.5')
  await h.waitFor(() => mp.dist(A.bot.entity.position, { x: 6.5, y: -60, z: -6.5 }) < 0.01, { timeout: 3000, message: 'Alice moved away' })
  since = recA.mark()
  A.bot.chat('/home')
  await recA.waitChat(/^Welcome home$/, { since })
  await h.waitFor(() => mp.dist(A.bot.entity.position, { x: 0.5, y: -60, z: 0.5 }) < 0.01, { timeout: 3000, message: 'Alice at home' })
  since = recB.mark()
  B.bot.chat('/home')
  await recB.waitChat(/^You have no home yet: use \/sethome$/, { since })
  B.bot.chat('/spawn')
  await recB.waitChat(/^Teleported to the spawn$/, { since })
})

test('spawnprotect: a guest cannot break or place near the spawn until granted the bypass', { timeout: 30000 }, async () => {
  const pos = new Vec3(-2, -61, -2)
  const name = B.bot.blockAt(pos).name
  await B.bot.dig(B.bot.blockAt(pos)).catch(() => {})
  await recB.waitPacket('system_chat', (p) => p.isActionBar && /The spawn is protected/.test(JSON.stringify(p.content)))
  await h.sleep(300)
  assert.equal(B.bot.blockAt(pos).name, name, 'the guest is sent the block back')
  assert.equal(A.bot.blockAt(pos).name, name, 'and nobody else saw it go')
  // Placing on top of it is refused too: the block above stays air for both.
  const Item = require('prismarine-item')(B.bot.registry)
  await B.bot.creative.setInventorySlot(36, new Item(B.bot.registry.itemsByName.stone.id, 8))
  B.bot.setQuickBarSlot(0)
  await h.waitFor(() => B.bot.heldItem && B.bot.heldItem.name === 'stone', { timeout: 3000, message: 'Bob holds stone' })
  await B.bot.placeBlock(B.bot.blockAt(pos), new Vec3(0, 1, 0)).catch(() => {})
  await h.sleep(500)
  assert.equal(A.bot.blockAt(pos.offset(0, 1, 0)).name, 'air', 'nothing was placed')
  assert.equal(B.bot.blockAt(pos.offset(0, 1, 0)).name, 'air', 'the guest\'s prediction was undone')
  // The operator (level 4 >= the permission's level 2) may.
  let since = recA.mark()
  A.bot.chat('/spawnprotect')
  await recA.waitChat(/^Protected: 16 blocks around 0, 0 \(you may build\)$/, { since })
  // Granted to Bob: it works, and permissions.json says so.
  let from = srv.output().length
  srv.send('plugins grant Bob spawnprotect.bypass')
  await srv.waitOutput(/Granted spawnprotect\.bypass to Bob/, { from })
  await B.bot.dig(B.bot.blockAt(pos))
  await h.waitFor(() => A.bot.blockAt(pos).name === 'air', { timeout: 5000, message: 'Bob may dig once granted' })
  await h.waitFor(() => fs.existsSync(path.join(srv.dir, 'plugins/permissions.json')), { timeout: 3000, message: 'permissions.json' })
  const perms = JSON.parse(fs.readFileSync(path.join(srv.dir, 'plugins/permissions.json'), 'utf8'))
  assert.deepEqual(perms.players[B.bot.player.uuid], { name: 'Bob', permissions: ['spawnprotect.bypass'] })
  from = srv.output().length
  srv.send('plugins revoke Bob spawnprotect.bypass')
  await srv.waitOutput(/Revoked spawnprotect\.bypass from Bob/, { from })
  since = recB.mark()
  B.bot.chat('/spawnprotect')
  await recB.waitChat(/\(you may not build\)$/, { since })
})

test('parkour: /parkour setup builds a course; a run is timed; the leaderboard is kept in storage across a restart', { timeout: 45000 }, async () => {
  let since = recA.mark()
  A.bot.chat('/parkour setup')
  await recA.waitChat(/^Course built: start on the gold block, finish on the emerald block$/, { since })
  const feet = A.bot.entity.position.floored()
  await h.waitFor(() => A.bot.blockAt(feet.offset(0, -1, 0)).name === 'gold_block' &&
    A.bot.blockAt(feet.offset(8, -1, 0)).name === 'emerald_block', { timeout: 3000, message: 'the course' })
  // Standing on the start pad starts the run (the client's next position packet).
  await recA.waitPacket('system_chat', (p) => p.isActionBar && /Go!/.test(JSON.stringify(p.content)), { timeout: 5000 })
  await h.sleep(600)
  since = recA.mark()
  A.bot.chat(`/tp ${feet.x + 8.5} ${feet.y} ${feet.z + 0.5}`)
  const done = await recA.waitChat(/^Finished in [\d.]+ s: a personal best!$/, { since, timeout: 8000 })
  const secs = Number(/in ([\d.]+) s/.exec(done)[1])
  assert.ok(secs >= 0.5 && secs < 8, `a plausible time: ${secs}`)
  since = recB.mark()
  B.bot.chat('/parkour top')
  await recB.waitChat(/^1\. Alice [\d.]+ s$/, { since })
  since = recB.mark()
  B.bot.chat('/parkour reset') // level 2: hidden from Bob, so (as Brigadier says) not an argument of /parkour
  await recB.waitChat(/^Incorrect argument for command$/, { since })
  await Promise.all([A.quit(), B.quit()])
  await h.waitFor(() => {
    const f = path.join(srv.dir, 'plugins/parkour/data/storage.json')
    return fs.existsSync(f) && /"best"/.test(fs.readFileSync(f, 'utf8'))
  }, { timeout: 3000, message: 'the leaderboard in storage.json' })
  srv = await ph.restart(srv)
  const C = h.makeBot(srv.port, 'Bob')
  const recC = mp.recorder(C)
  await C.waitSpawn(15000)
  since = recC.mark()
  C.bot.chat('/parkour top')
  await recC.waitChat(new RegExp(`^1\\. Alice ${secs.toFixed(2).replace('.', '\\.')} s$`), { since })
  await C.quit()
  const info = await srv.stop(10000)
  assert.equal(info.code, 0)
  pu.assertNoSanitizerReport(assert, srv)
})

h.finalClientErrorCheck(test)
