'use strict'
// Regression: entity tracking's interest-cell table grows (rehashes) once
// players spread over more chunk columns than it has buckets (64). A bug
// there once linked a new cell to itself and hung the tick loop; 150 bots
// walking fast over a wide area cross that threshold within seconds.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawn } = require('node:child_process')
const path = require('node:path')
const h = require('./helpers')

after(h.cleanupAll)

const MCBENCH = process.env.MCBENCH ? path.resolve(h.REPO_ROOT, process.env.MCBENCH) : path.join(h.REPO_ROOT, 'build', 'mcbench')

test('150 bots spread over 100+ chunk columns: ticks keep running, status answers', { timeout: 60000 }, async () => {
  const srv = await h.startServer({ name: 'cells', props: { 'max-players': '200', 'view-distance': '2' } })
  const bench = spawn(MCBENCH, ['--port', String(srv.port), '--bots', '150', '--rate', '150', '--duration', '8',
    '--scenario', 'walk', '--radius', '200', '--speed', '40', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  bench.stdout.on('data', (d) => { out += d })
  bench.stderr.on('data', (d) => { out += d })
  const exited = new Promise((resolve) => bench.on('exit', resolve))
  // While they walk (8 s hold), status counts all 150: the loop is serving
  // status and the players are still in the game.
  let running = true
  exited.then(() => { running = false })
  const during = await h.waitFor(async () => {
    if (!running) throw new Error('mcbench exited before 150 were online')
    const st = await h.statusUtil(srv.port, 2000)
    return st.players.online === 150 && st
  }, { timeout: 20000, interval: 200, message: '150 players online in status', detail: () => `${h.tail(out, 3000)}\n${srv.describe()}` })
  assert.equal(during.players.max, 200)
  const code = await exited
  assert.equal(code, 0, `mcbench exit ${code}\n${h.tail(out, 3000)}\n${srv.describe()}`)
  // mcbench closed every connection: the server notices each one and its
  // status counts nobody (a hung tick loop would answer nothing).
  await h.waitFor(async () => (await h.statusUtil(srv.port, 2000)).players.online === 0, {
    timeout: 10000, interval: 200, message: 'status back to 0 players online after the bots left', detail: srv.describe
  })
  const exit = await srv.stop()
  assert.equal(exit.code, 0, `the server stops cleanly on SIGTERM (a hung tick loop would not): ${JSON.stringify(exit)}`)
})
