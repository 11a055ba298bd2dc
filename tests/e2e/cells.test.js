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
  const code = await new Promise((resolve) => bench.on('exit', resolve))
  assert.equal(code, 0, `mcbench exit ${code}\n${h.tail(out, 3000)}\n${srv.describe()}`)
  const st = await h.statusUtil(srv.port)
  assert.ok(st.players.online >= 0, 'the server still answers status')
  const exit = await srv.stop()
  assert.equal(exit.code, 0, `the server stops cleanly on SIGTERM (a hung tick loop would not): ${JSON.stringify(exit)}`)
})
