'use strict'
// Issue 17, server-wide commands, through the interfaces operators use: the
// console (stdin), RCON (minecraft-server-util) and a player (mineflayer).
//
//  - `tps` (an alias of `mspt`) answers on the console and over RCON
//    (it failed with "Unknown or incomplete command ... tps<--[HERE]").
//
// One server for the file; every wait is bounded; everything on 127.0.0.1.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')

const PASSWORD = 'e2e-rcon-cmd-server-41c9'
let srv, rcon

before(async () => {
  const rconPort = await h.freePort()
  srv = await h.startServer({
    name: 'cmd-server',
    props: { 'enable-rcon': 'true', 'rcon.port': rconPort, 'rcon.password': PASSWORD, 'view-distance': 2 }
  })
  const { RCON } = require('minecraft-server-util')
  rcon = new RCON()
  rcon.on('error', () => {})
  await rcon.connect('127.0.0.1', rconPort, { timeout: 3000 })
  await rcon.login(PASSWORD, { timeout: 3000 })
})

after(async () => {
  if (rcon) rcon.close()
  await h.cleanupAll()
})

const run = (line) => h.withTimeout(rcon.execute(line), 3000, `rcon ${line}`)

test('tps answers over RCON and on the console, as mspt does', { timeout: 10000 }, async () => {
  const out = await run('tps')
  assert.match(out, /^Tick durations \(ms\) min\/median\/95%ile\/99%ile\/max, last 5 s: [\d./]+; last 60 s: [\d./]+\nTPS last 5 s: [\d.]+; last 60 s: [\d.]+\nGame thread CPU/)
  assert.doesNotMatch(out, /HERE/)
  const before = srv.output().length
  mp.consoleCmd(srv, 'tps')
  await h.waitFor(() => /TPS last 5 s: [\d.]+; last 60 s: [\d.]+/.test(srv.output().slice(before)), { timeout: 3000, message: 'console tps' })
  assert.doesNotMatch(srv.output().slice(before), /Unknown or incomplete command/)
  // an argument after the alias goes to mspt, which takes none: vanilla's error
  assert.equal(await run('tps 5'), 'Incorrect argument for command\ntps 5<--[HERE]')
})
