'use strict'
// Issue 17, commands aimed at players, seen by the players' clients
// (mineflayer bots) and answered with vanilla's messages over RCON:
//
//  - tellraw: the component arrives as System Chat, a "selector" component
//    resolved to the names; vanilla's error for a component it would refuse;
//  - title: title, subtitle, actionbar, times, clear, reset packets;
//  - give: the items land in the inventory (stacked as vanilla adds them),
//    "Can't give more than ...", an unknown item;
//  - clear: all, one item, a count, the test form (maxCount 0), "No items
//    were found";
//  - spawnpoint: a /kill'd player respawns there (vanilla's forced spawn,
//    centred on the block); without a valid spot, the world spawn.
//
// One server; bounded waits; 127.0.0.1 only.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')

const PASSWORD = 'e2e-rcon-cmd-players-93f0'
let srv, rcon, A, B, recA, recB

before(async () => {
  const rconPort = await h.freePort()
  srv = await h.startServer({
    name: 'cmd-players',
    props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': PASSWORD, 'view-distance': 3, 'spawn-protection': 0 }
  })
  const { RCON } = require('minecraft-server-util')
  rcon = new RCON()
  rcon.on('error', () => {})
  await rcon.connect('127.0.0.1', rconPort, { timeout: 3000 })
  await rcon.login(PASSWORD, { timeout: 3000 })
  rcon.socket.setMaxListeners(0) // minecraft-server-util adds listeners per command
  rcon.socket.socket.setTimeout(0) // and would close the connection after 3 s idle
  A = h.makeBot(srv.port, 'Alice')
  recA = mp.recorder(A, ['set_title_text', 'set_title_subtitle', 'action_bar', 'set_title_time', 'clear_titles'])
  await A.waitSpawn(15000)
  B = h.makeBot(srv.port, 'Bob')
  recB = mp.recorder(B, ['set_title_subtitle'])
  await B.waitSpawn(15000)
})

after(async () => {
  if (rcon) rcon.close()
  await h.cleanupAll()
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)

test('tellraw: the component as System Chat, selectors resolved; vanilla\'s error', { timeout: 15000 }, async () => {
  let m = recA.mark()
  assert.equal(await run('tellraw Alice {"text":"Hello","color":"gold"}'), '')
  await recA.waitChat(/^Hello$/, { since: m })
  assert.ok(recA.chatJson.some((j) => /"color":"gold"/.test(j) && /Hello/.test(j)), 'the component as written')
  m = recA.mark()
  const mb = recB.mark()
  await run('tellraw @a ["",{"selector":"@a[sort=arbitrary]"}," are here"]')
  await recA.waitChat(/^(Alice, Bob|Bob, Alice) are here$/, { since: m })
  await recB.waitChat(/^(Alice, Bob|Bob, Alice) are here$/, { since: mb })
  m = recA.mark()
  await run('tellraw Alice "plain"')
  await recA.waitChat(/^plain$/, { since: m })
  assert.equal(await run('tellraw Alice {"bold":true}'),
    'Invalid chat component: Don\'t know how to turn {"bold":true} into a Component\n...raw Alice {"bold":true}<--[HERE]')
})

test('title: title, subtitle, actionbar, times, clear and reset reach the clients', { timeout: 15000 }, async () => {
  const m = recA.mark()
  const mb = recB.mark()
  assert.equal(await run('title Alice title {"text":"Welcome","bold":true}'), 'Showing new title for Alice')
  const t = await recA.waitPacket('set_title_text', () => true, { since: m })
  assert.match(t.text, /"text":"Welcome"/)
  assert.equal(await run('title @a subtitle "below"'), 'Showing new subtitle for 2 players')
  await recA.waitPacket('set_title_subtitle', (p) => /below/.test(p.text), { since: m })
  await recB.waitPacket('set_title_subtitle', (p) => /below/.test(p.text), { since: mb })
  assert.equal(await run('title Alice actionbar {"text":"bar"}'), 'Showing new actionbar title for Alice')
  await recA.waitPacket('action_bar', (p) => /bar/.test(p.text), { since: m })
  assert.equal(await run('title Alice times 10 2s 5'), 'Changed title display times for Alice')
  const times = await recA.waitPacket('set_title_time', () => true, { since: m })
  assert.deepEqual([times.fadeIn, times.stay, times.fadeOut], [10, 40, 5])
  assert.equal(await run('title Alice clear'), 'Cleared titles for Alice')
  await recA.waitPacket('clear_titles', (p) => p.reset === false, { since: m })
  assert.equal(await run('title Alice reset'), 'Reset title options for Alice')
  await recA.waitPacket('clear_titles', (p) => p.reset === true, { since: m })
  assert.equal(await run('title Nobody clear'), 'No player was found')
})
