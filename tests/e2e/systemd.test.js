'use strict'
// contrib/mcserv.service is Type=notify with a watchdog (issue 17): the
// server tells systemd READY=1 once it listens, WATCHDOG=1 at half the
// watchdog interval from its loop, STOPPING=1 when the shutdown starts.
// systemd's socket is played by tests/tools/notify_listen.c (node cannot
// bind Unix datagram sockets).
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')
const h = require('./helpers')

after(h.cleanupAll)

test('sd_notify: READY=1 after the ready line, WATCHDOG=1 while running, STOPPING=1 on SIGTERM', { timeout: 40000 }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-notify-'))
  const bin = path.join(tmp, 'notify_listen')
  execFileSync('cc', ['-O1', '-o', bin, path.join(__dirname, '..', 'tools', 'notify_listen.c')])
  const sock = path.join(tmp, 'notify.sock')
  const listener = spawn(bin, [sock, '30'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let got = ''
  listener.stdout.on('data', (d) => { got += d })
  try {
    await h.waitFor(() => got.includes('listening'), { timeout: 5000, message: 'notify_listen bound' })
    const srv = await h.startServer({
      name: 'systemd',
      props: { 'view-distance': 2 },
      env: { NOTIFY_SOCKET: sock, WATCHDOG_USEC: '400000' } // a ping every 200 ms
    })
    try {
      await h.waitFor(() => /READY=1/.test(got), { timeout: 5000, message: 'READY=1' })
      assert.match(got, new RegExp(`READY=1\\|STATUS=Listening on port ${srv.port}`))
      await h.waitFor(() => (got.match(/WATCHDOG=1/g) || []).length >= 3, { timeout: 5000, message: 'three WATCHDOG=1' })
      assert.doesNotMatch(got, /STOPPING=1/)
      srv.proc.kill('SIGTERM')
      const info = await srv.waitExit(10000)
      assert.equal(info && info.code, 0)
      await h.waitFor(() => /STOPPING=1/.test(got), { timeout: 3000, message: 'STOPPING=1' })
      assert.ok(got.indexOf('READY=1') < got.indexOf('STOPPING=1'))
    } finally {
      await srv.kill()
    }
  } finally {
    listener.kill()
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})

test('contrib/mcserv.service is a Type=notify unit with a watchdog, a user and a working directory', () => {
  const unit = fs.readFileSync(path.join(__dirname, '..', '..', 'contrib', 'mcserv.service'), 'utf8')
  for (const line of ['Type=notify', 'User=minecraft', 'WorkingDirectory=/srv/minecraft', 'Restart=on-failure', 'KillSignal=SIGTERM']) {
    assert.ok(unit.split('\n').includes(line), `the unit has ${line}`)
  }
  assert.match(unit, /^WatchdogSec=\d+$/m)
})

test('`make run`\'s dependencies (install-deps.sh build) install no test tools', () => {
  // Fake dpkg-query (everything missing) and apt-get (records its arguments).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-deps-'))
  const log = path.join(tmp, 'apt.log')
  fs.writeFileSync(path.join(tmp, 'dpkg-query'), '#!/bin/sh\nexit 1\n', { mode: 0o755 })
  fs.writeFileSync(path.join(tmp, 'apt-get'), `#!/bin/sh\necho "$@" >> ${log}\n`, { mode: 0o755 })
  fs.writeFileSync(path.join(tmp, 'id'), '#!/bin/sh\necho 0\n', { mode: 0o755 })
  try {
    execFileSync('sh', [path.join(__dirname, '..', '..', 'tools', 'install-deps.sh'), 'build'], { env: { ...process.env, PATH: `${tmp}:${process.env.PATH}` }, stdio: 'pipe' })
    const asked = fs.readFileSync(log, 'utf8')
    assert.match(asked, /\bgcc\b/)
    assert.match(asked, /\blibdeflate-dev\b/)
    for (const tool of ['clang', 'clang-format', 'chromium', 'tmux', 'libclang-rt-14-dev', 'nodejs']) {
      assert.doesNotMatch(asked, new RegExp(`(^| )${tool}( |$)`, 'm'), `${tool} is not installed for make run`)
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})
