'use strict'
// What an operator reaches for first (issue 17): the ready line panels wait
// for, every shutdown signal saving, a second instance started with only
// --port, no debug-* keys in a new server.properties, and a motd written
// in ISO-8859-1 by an old tool.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const http = require('node:http')
const h = require('./helpers')

after(h.cleanupAll)

const props = { 'view-distance': 2, 'max-players': 10 }

// Pterodactyl's Minecraft eggs: "done": ")! For help, type "
test('the ready line is vanilla\'s (a panel\'s pattern matches), mcserv\'s detail follows on its own line', { timeout: 20000 }, async () => {
  await h.withServer({ name: 'ready', props }, async (srv) => {
    const err = srv.stderr()
    assert.match(err, /Done \(\d+\.\d{3}s\)! For help, type "help"/)
    assert.ok(err.includes(')! For help, type '), 'the egg\'s literal pattern')
    assert.match(err, /Listening on 127\.0\.0\.1:\d+ \(Minecraft 1\.20\.1, protocol 763\)/)
  })
})

// Stale text found in use: --help named only three commands, and `stop`
// logged "Stopping the server" twice.
test('--help lists every option and points to the command reference; `stop` says "Stopping the server" once', { timeout: 30000 }, async () => {
  const help = require('node:child_process').execFileSync(h.MCSERV, ['--help'], { encoding: 'utf8' })
  for (const opt of ['--dir', '--port', '--pregen', '--help', '--version']) assert.ok(help.includes(opt), `${opt} in --help`)
  assert.match(help, /docs\/commands\.md/)
  const srv = await h.startServer({ name: 'stop-once', props })
  try {
    srv.proc.stdin.write('stop\n')
    const info = await srv.waitExit(10000)
    assert.ok(info && info.code === 0, `stopped cleanly: ${JSON.stringify(info)}`)
    assert.equal(srv.stderr().split('\n').filter((l) => /Stopping the server$/.test(l)).length, 1, h.tail(srv.stderr(), 2000))
  } finally {
    await srv.kill()
  }
})

// Chat bridges and panels written for vanilla read its log4j prefix and its
// join and leave lines, in logs/latest.log and on the console alike.
test('log lines have vanilla\'s prefix and "X joined the game"; log-format=mcserv gives milliseconds', { timeout: 30000 }, async () => {
  const vanillaLine = /^\[\d{2}:\d{2}:\d{2}\] \[Server thread\/INFO\]: Joiner joined the game$/m
  await h.withServer({ name: 'logfmt', props }, async (srv) => {
    const b = h.makeBot(srv.port, 'Joiner')
    await b.waitSpawn(15000)
    await h.waitFor(() => vanillaLine.test(srv.stderr()), { timeout: 5000, message: 'the joined line', detail: () => h.tail(srv.stderr(), 2000) })
    await b.quit()
    await h.waitFor(() => /^\[\d{2}:\d{2}:\d{2}\] \[Server thread\/INFO\]: Joiner left the game$/m.test(srv.stderr()), { timeout: 5000, message: 'the left line' })
    const file = fs.readFileSync(path.join(srv.dir, 'logs', 'latest.log'), 'utf8')
    assert.match(file, vanillaLine, 'latest.log has the same lines')
    for (const line of file.split('\n').filter(Boolean)) assert.match(line, /^\[\d{2}:\d{2}:\d{2}\] \[[^\]/]+\/(INFO|WARN|ERROR|DEBUG)\]: /, line)
  })
  await h.withServer({ name: 'logfmt-mcserv', props: { ...props, 'log-format': 'mcserv' } }, async (srv) => {
    const b = h.makeBot(srv.port, 'Joiner')
    await b.waitSpawn(15000)
    await h.waitFor(() => /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} INFO\] Joiner joined the game$/m.test(srv.stderr()), { timeout: 5000, message: 'the joined line, mcserv format', detail: () => h.tail(srv.stderr(), 2000) })
    await b.quit()
  })
  const bad = await h.startServer({ name: 'logfmt-bad', props: { ...props, 'log-format': 'json' }, waitReady: false })
  const info = await bad.waitExit(10000)
  assert.ok(info && info.code !== 0, `refuses to start: ${JSON.stringify(info)}`)
  assert.match(bad.stderr(), /log-format: expected vanilla or mcserv, got 'json'/)
})

for (const sig of ['SIGHUP', 'SIGQUIT']) {
  test(`${sig} saves the world and stops cleanly (exit 0), like SIGTERM`, { timeout: 30000 }, async () => {
    const srv = await h.startServer({ name: `sig-${sig}`, props })
    try {
      const b = h.makeBot(srv.port, 'SigBot')
      await b.waitSpawn(15000)
      const datDir = path.join(srv.dir, 'world', 'playerdata')
      srv.proc.kill(sig)
      const info = await srv.waitExit(10000)
      assert.ok(info, `exited within 10 s of ${sig}\n${srv.describe()}`)
      assert.equal(info.code, 0, `exit code after ${sig}: ${JSON.stringify(info)}\n${srv.describe()}`)
      assert.equal(info.signal, null, 'the signal did not kill the process')
      assert.match(srv.stderr(), /stopping/i)
      assert.match(srv.stderr(), /Saved the game/)
      const files = fs.existsSync(datDir) ? fs.readdirSync(datDir).filter((f) => f.endsWith('.dat')) : []
      assert.equal(files.length, 1, `the online player's file was written: ${files}`)
    } finally {
      await srv.kill()
    }
  })
}

function healthz (port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 3000 }, (res) => {
      res.resume()
      resolve(res.statusCode)
    })
    req.on('error', () => resolve(null))
    req.on('timeout', () => { req.destroy(); resolve(null) })
  })
}

test('a second instance started with only --port moves the admin and RCON ports with it', { timeout: 40000 }, async () => {
  // The file keeps every default port; only --port differs between the two.
  const base = { ...props, 'server-port': '25565', 'admin-http-port': '25585', 'enable-rcon': 'true', 'rcon.password': 'operator-test-pw', 'rcon.port': '25575' }
  const p1 = await h.freePort()
  let p2 = await h.freePort()
  while (Math.abs(p2 - p1) < 30) p2 = await h.freePort()
  const a = await h.startServer({ name: 'port-a', props: base, args: ['--port', String(p1)] })
  const b = await h.startServer({ name: 'port-b', props: base, args: ['--port', String(p2)] })
  try {
    for (const [srv, p] of [[a, p1], [b, p2]]) {
      assert.match(srv.stderr(), new RegExp(`--port ${p}: query\\.port ${p}, rcon\\.port ${p + 10}, admin-http-port ${p + 20} follow it`))
      assert.equal(await healthz(p + 20), 200, `/healthz on ${p + 20}`)
      assert.doesNotMatch(srv.stderr(), /cannot listen/, 'no listener collided')
    }
  } finally {
    await a.kill()
    await b.kill()
  }
})

test('a new server.properties gets no debug-* keys; a Latin-1 motd is read as vanilla reads it', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'fresh', noProps: true, props: {} , waitReady: true }, async (srv) => {
    const text = fs.readFileSync(path.join(srv.dir, 'server.properties'), 'utf8')
    assert.match(text, /^motd=/m)
    assert.doesNotMatch(text, /^debug-/m)
  })
  // "Café" in ISO-8859-1: 0xE9 alone is not UTF-8
  const raw = Buffer.concat([Buffer.from('server-ip=127.0.0.1\nonline-mode=false\nlevel-type=flat\nadmin-http-port=0\nmotd=Caf'), Buffer.from([0xe9]), Buffer.from('\nserver-port=')])
  const port = await h.freePort()
  await h.withServer({ name: 'latin1', rawProps: Buffer.concat([raw, Buffer.from(`${port}\n`)]), props: { 'server-port': String(port) } }, async (srv) => {
    assert.match(srv.stderr(), /not valid UTF-8; read as ISO-8859-1/)
    const util = require('minecraft-server-util')
    const st = await util.status('127.0.0.1', srv.port, { timeout: 5000 })
    assert.equal(st.motd.clean, 'Café')
  })
})
