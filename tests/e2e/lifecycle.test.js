'use strict'
// Process lifecycle: console `stop`, SIGTERM, refusing bad configuration,
// writing a default server.properties.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const h = require('./helpers')

after(h.cleanupAll)

const baseProps = {
  'view-distance': 2,
  'max-players': 10,
  motd: 'mcserv lifecycle test',
  'network-compression-threshold': 256
}

test('`stop` on stdin kicks the connected bot and exits 0 within 5 s', { timeout: 30000 }, async (t) => {
  const since = h.mark()
  const srv = await h.startServer({ name: 'stop', props: baseProps })
  try {
    const b = h.makeBot(srv.port, 'StopBot')
    await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}\n${srv.describe()}`))
    const t0 = Date.now()
    srv.proc.stdin.write('stop\n')
    const [info, endReason] = await Promise.all([srv.waitExit(5000), b.waitEnd(5000)])
    t.diagnostic(`stop: exit ${JSON.stringify(info)} after ${Date.now() - t0} ms; bot kicked=${JSON.stringify(b.kicked)} end=${JSON.stringify(b.ended)}`)
    assert.ok(info, `server should exit within 5 s of \`stop\`\n${srv.describe()}`)
    assert.equal(info.code, 0, `exit code after \`stop\`: ${JSON.stringify(info)}\n${srv.describe()}`)
    assert.ok(endReason, `the bot should be kicked/ended when the server stops: ${b.describe()}`)
    if (b.kicked != null) assert.ok(h.chatText(safeJson(b.kicked)).trim().length > 0, `kick reason is not empty: ${b.kicked}`)
    h.assertNoClientProtocolErrors(assert, since, srv)
  } finally {
    await srv.kill()
  }
})

function safeJson (s) {
  try { return JSON.parse(s) } catch (e) { return s }
}

test('SIGTERM with a bot connected exits 0 within 5 s', { timeout: 30000 }, async (t) => {
  const srv = await h.startServer({ name: 'sigterm', props: baseProps })
  try {
    const b = h.makeBot(srv.port, 'TermBot')
    await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}\n${srv.describe()}`))
    const t0 = Date.now()
    srv.proc.kill('SIGTERM')
    const info = await srv.waitExit(5000)
    t.diagnostic(`SIGTERM: exit ${JSON.stringify(info)} after ${Date.now() - t0} ms; bot kicked=${JSON.stringify(b.kicked)}`)
    assert.ok(info, `server should exit within 5 s of SIGTERM\n${srv.describe()}`)
    assert.equal(info.code, 0, `exit code after SIGTERM: ${JSON.stringify(info)}\n${srv.describe()}`)
    assert.ok(await b.waitEnd(3000), `the bot is disconnected: ${b.describe()}`)
    // The server also logs to logs/latest.log in its directory.
    const logPath = path.join(srv.dir, 'logs', 'latest.log')
    assert.ok(fs.existsSync(logPath), `${logPath} should exist`)
    const logText = fs.readFileSync(logPath, 'utf8')
    assert.match(logText, /Done \(/, 'logs/latest.log has the Done line')
    assert.match(logText, /TermBot/, 'logs/latest.log mentions the player')
  } finally {
    await srv.kill()
  }
})

async function expectStartupFailure (t, name, props, key) {
  const srv = await h.startServer({ name, props: Object.assign({}, baseProps, props), waitReady: false })
  try {
    const info = await srv.waitExit(5000)
    assert.ok(info, `server should refuse to start (exit) within 5 s with ${JSON.stringify(props)}\n${srv.describe()}`)
    assert.equal(info.signal, null, `should exit, not die by a signal: ${JSON.stringify(info)}\n${srv.describe()}`)
    assert.notEqual(info.code, 0, `exit code should be non-zero: ${JSON.stringify(info)}\n${srv.describe()}`)
    assert.ok(srv.output().includes(key), `the output should name \`${key}\`\n${srv.describe()}`)
    assert.doesNotMatch(srv.stderr(), /Done \(/, 'must not report ready with a bad configuration')
    t.diagnostic(`${name}: exit ${info.code}; output: ${JSON.stringify(h.tail(srv.output(), 300))}`)
  } finally {
    await srv.kill()
  }
}

test('view-distance=banana: exits non-zero within 5 s naming the key', { timeout: 15000 }, async (t) => {
  await expectStartupFailure(t, 'bad-view', { 'view-distance': 'banana' }, 'view-distance')
})

test('level-type=banana: exits non-zero within 5 s naming the key', { timeout: 15000 }, async (t) => {
  await expectStartupFailure(t, 'bad-level', { 'level-type': 'banana' }, 'level-type')
})

test('no server.properties: the server writes one with online-mode=true, as vanilla', { timeout: 20000 }, async () => {
  const srv = await h.startServer({ name: 'noprops', noProps: true, waitReady: false })
  try {
    const content = await h.waitFor(() => {
      if (!fs.existsSync(srv.propsPath)) return null
      const c = fs.readFileSync(srv.propsPath, 'utf8')
      return /^online-mode=true\s*$/m.test(c) ? c : null
    }, {
      timeout: 5000,
      message: 'server.properties with online-mode=true to be written',
      detail: () => (fs.existsSync(srv.propsPath)
        ? 'file content:\n' + fs.readFileSync(srv.propsPath, 'utf8')
        : 'file does not exist') + '\n' + srv.describe()
    })
    // Every non-comment line is key=value.
    const bad = content.split('\n').filter((l) => l.trim() && !/^[#!]/.test(l) && !/^[^=\s]+=/.test(l))
    assert.deepEqual(bad, [], 'written server.properties lines are key=value')
  } finally {
    // Defaults mean port 25565, which may be taken on this machine; the exit
    // code is not this test's business, only that the process goes away.
    await srv.stop(5000)
  }
})

h.finalClientErrorCheck(test)
